//! Anatomy masks of a head volume and the five hemorrhage subtypes drawn into it.
//!
//! Masks come from the clean (noise-free) HU volume by the same rules for the procedural and the
//! real head: skull = HU > 300; the inside of the head = what a flood fill from the image border
//! through non-bone pixels cannot reach; brain = inside pixels of −10…90 HU; the distance to the
//! nearest bone pixel (chamfer transform, mm); CSF = brain pixels < 18 HU, split into ventricles
//! (deeper than 22 mm) and sulci (shallower than 14 mm).

use std::f64::consts::PI;

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::head::Volume;

/// RSNA hemorrhage subtypes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Subtype {
    Epidural,
    Intraparenchymal,
    Intraventricular,
    Subarachnoid,
    Subdural,
}

impl Subtype {
    pub const ALL: [Subtype; 5] = [
        Subtype::Epidural,
        Subtype::Intraparenchymal,
        Subtype::Intraventricular,
        Subtype::Subarachnoid,
        Subtype::Subdural,
    ];
    /// The subtype of an RSNA name (`epidural`, `intraparenchymal`, `intraventricular`,
    /// `subarachnoid`, `subdural`).
    pub fn from_name(name: &str) -> Option<Subtype> {
        Subtype::ALL.into_iter().find(|s| s.name() == name)
    }
    /// The RSNA name.
    pub fn name(self) -> &'static str {
        match self {
            Subtype::Epidural => "epidural",
            Subtype::Intraparenchymal => "intraparenchymal",
            Subtype::Intraventricular => "intraventricular",
            Subtype::Subarachnoid => "subarachnoid",
            Subtype::Subdural => "subdural",
        }
    }
}

/// Masks of one slice.
pub struct SliceAnatomy {
    pub brain: Vec<bool>,
    pub ventricle: Vec<bool>,
    pub sulcus: Vec<bool>,
    /// Distance to the nearest bone pixel, mm.
    pub dist_mm: Vec<f32>,
    /// Centroid of the inside of the head, pixels (x, y).
    pub centre: (f64, f64),
    pub brain_area: usize,
}

/// Two-pass chamfer distance (weights 1 and √2) to the nearest `source` pixel, in pixels.
pub fn distance_transform(source: &[bool], n: usize) -> Vec<f32> {
    let inf = f32::MAX / 4.0;
    let mut d: Vec<f32> = source.iter().map(|&s| if s { 0.0 } else { inf }).collect();
    let s2 = std::f32::consts::SQRT_2;
    for i in 0..n {
        for j in 0..n {
            let mut v = d[i * n + j];
            if i > 0 {
                v = v.min(d[(i - 1) * n + j] + 1.0);
                if j > 0 {
                    v = v.min(d[(i - 1) * n + j - 1] + s2);
                }
                if j + 1 < n {
                    v = v.min(d[(i - 1) * n + j + 1] + s2);
                }
            }
            if j > 0 {
                v = v.min(d[i * n + j - 1] + 1.0);
            }
            d[i * n + j] = v;
        }
    }
    for i in (0..n).rev() {
        for j in (0..n).rev() {
            let mut v = d[i * n + j];
            if i + 1 < n {
                v = v.min(d[(i + 1) * n + j] + 1.0);
                if j > 0 {
                    v = v.min(d[(i + 1) * n + j - 1] + s2);
                }
                if j + 1 < n {
                    v = v.min(d[(i + 1) * n + j + 1] + s2);
                }
            }
            if j + 1 < n {
                v = v.min(d[i * n + j + 1] + 1.0);
            }
            d[i * n + j] = v;
        }
    }
    d
}

/// Pixels reachable from the border through `open` pixels (4-connected).
fn outside(open: &[bool], n: usize) -> Vec<bool> {
    let mut seen = vec![false; n * n];
    let mut stack = Vec::new();
    for k in 0..n {
        for idx in [k, (n - 1) * n + k, k * n, k * n + n - 1] {
            if open[idx] && !seen[idx] {
                seen[idx] = true;
                stack.push(idx);
            }
        }
    }
    while let Some(idx) = stack.pop() {
        let (i, j) = (idx / n, idx % n);
        let mut push = |m: usize| {
            if open[m] && !seen[m] {
                seen[m] = true;
                stack.push(m);
            }
        };
        if i > 0 {
            push(idx - n);
        }
        if i + 1 < n {
            push(idx + n);
        }
        if j > 0 {
            push(idx - 1);
        }
        if j + 1 < n {
            push(idx + 1);
        }
    }
    seen
}

/// Masks of every slice of a clean volume.
pub fn anatomy(vol: &Volume) -> Vec<SliceAnatomy> {
    let n = vol.n;
    (0..vol.nz)
        .map(|k| {
            let hu = vol.slice(k);
            let bone: Vec<bool> = hu.iter().map(|&v| v > 300.0).collect();
            let open: Vec<bool> = bone.iter().map(|b| !b).collect();
            let out = outside(&open, n);
            let inside: Vec<bool> = (0..n * n).map(|i| !out[i] && !bone[i]).collect();
            let dist: Vec<f32> = distance_transform(&bone, n)
                .into_iter()
                .map(|d| d * vol.px_mm as f32)
                .collect();
            let brain: Vec<bool> = (0..n * n)
                .map(|i| inside[i] && (-10.0..90.0).contains(&hu[i]))
                .collect();
            let csf = |i: usize| brain[i] && hu[i] < 18.0;
            let ventricle = (0..n * n).map(|i| csf(i) && dist[i] > 22.0).collect();
            let sulcus = (0..n * n).map(|i| csf(i) && dist[i] < 14.0).collect();
            let (mut sx, mut sy, mut cnt) = (0.0, 0.0, 0usize);
            for i in 0..n * n {
                if inside[i] {
                    sx += (i % n) as f64;
                    sy += (i / n) as f64;
                    cnt += 1;
                }
            }
            let centre = if cnt > 0 {
                (sx / cnt as f64, sy / cnt as f64)
            } else {
                (n as f64 / 2.0, n as f64 / 2.0)
            };
            SliceAnatomy {
                brain_area: brain.iter().filter(|b| **b).count(),
                brain,
                ventricle,
                sulcus,
                dist_mm: dist,
                centre,
            }
        })
        .collect()
}

/// One hemorrhage: its subtype, density and where it is.
#[derive(Debug, Clone)]
pub struct Bleed {
    pub subtype: Subtype,
    pub hu: f32,
    pub subtle: bool,
    /// Slice range (inclusive) and centre slice.
    k0: usize,
    k1: usize,
    kc: f64,
    /// Angular centre and half-width (rad) for extra-axial and SAH bleeds.
    phi: f64,
    half_width: f64,
    /// Thickness (mm) for subdural/epidural; radii (mm) for intraparenchymal.
    size: [f64; 3],
    /// Centre (pixels) and in-plane angle for intraparenchymal.
    centre: (f64, f64),
    angle: f64,
    /// Intraventricular: which side (−1 left of centre, 1 right, 0 both).
    side: i8,
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let mut d = (a - b).rem_euclid(2.0 * PI);
    if d > PI {
        d -= 2.0 * PI;
    }
    d.abs()
}

/// Draws a random bleed of `subtype`, or `None` when the anatomy has no room for it.
pub fn random_bleed(
    rng: &mut ChaCha8Rng,
    subtype: Subtype,
    subtle_fraction: f64,
    vol: &Volume,
    anat: &[SliceAnatomy],
) -> Option<Bleed> {
    let max_area = anat.iter().map(|a| a.brain_area).max().unwrap_or(0);
    let brainy: Vec<usize> = (0..vol.nz)
        .filter(|&k| anat[k].brain_area > max_area / 4 && max_area > 0)
        .collect();
    let &kc = brainy.choose(rng)?;
    let subtle = rng.random_bool(subtle_fraction);
    let hu = if subtle {
        rng.random_range(42.0..55.0)
    } else {
        rng.random_range(55.0..88.0)
    };
    // extent in slices from an extent in mm
    let dz = vol.slice_thickness.max(0.5);
    let span = |rng: &mut ChaCha8Rng, lo: f64, hi: f64| {
        let half_mm: f64 = rng.random_range(lo..hi);
        let h = (half_mm / dz).round() as usize;
        (kc.saturating_sub(h), (kc + h).min(vol.nz - 1), half_mm)
    };
    let mut b = Bleed {
        subtype,
        hu,
        subtle,
        k0: kc,
        k1: kc,
        kc: kc as f64,
        phi: rng.random_range(-PI..PI),
        half_width: 0.0,
        size: [0.0; 3],
        centre: (0.0, 0.0),
        angle: 0.0,
        side: 0,
    };
    match subtype {
        Subtype::Subdural => {
            let (k0, k1, _) = span(rng, 10.0, 45.0);
            (b.k0, b.k1) = (k0, k1);
            b.half_width = rng.random_range(35f64..80.0).to_radians();
            b.size[0] = if subtle {
                rng.random_range(2.0..4.0)
            } else {
                rng.random_range(4.0..11.0)
            };
        }
        Subtype::Epidural => {
            let (k0, k1, _) = span(rng, 8.0, 25.0);
            (b.k0, b.k1) = (k0, k1);
            b.half_width = rng.random_range(18f64..35.0).to_radians();
            b.size[0] = if subtle {
                rng.random_range(4.0..7.0)
            } else {
                rng.random_range(8.0..20.0)
            };
            if !subtle {
                b.hu = rng.random_range(60.0..90.0);
            }
        }
        Subtype::Intraparenchymal => {
            let a = &anat[kc];
            let min_depth = if subtle { 5.0 } else { 12.0 };
            let cands: Vec<usize> = (0..vol.n * vol.n)
                .filter(|&i| a.brain[i] && !a.ventricle[i] && a.dist_mm[i] > min_depth)
                .collect();
            let &c = cands.choose(rng)?;
            b.centre = ((c % vol.n) as f64, (c / vol.n) as f64);
            let r = if subtle {
                rng.random_range(2.5..5.0)
            } else {
                rng.random_range(4.0..18.0)
            };
            b.size = [
                r,
                r * rng.random_range(0.5..1.0),
                r * rng.random_range(0.5..1.0),
            ];
            b.angle = rng.random_range(0.0..PI);
            if !subtle {
                b.hu = rng.random_range(55.0..90.0);
            }
            let h = (b.size[2] / dz).ceil() as usize;
            (b.k0, b.k1) = (kc.saturating_sub(h), (kc + h).min(vol.nz - 1));
        }
        Subtype::Subarachnoid => {
            let (k0, k1, _) = span(rng, 5.0, 30.0);
            (b.k0, b.k1) = (k0, k1);
            b.half_width = rng.random_range(25f64..90.0).to_radians();
        }
        Subtype::Intraventricular => {
            let vk: Vec<usize> = (0..vol.nz)
                .filter(|&k| anat[k].ventricle.iter().filter(|v| **v).count() >= 12)
                .collect();
            let (&lo, &hi) = (vk.first()?, vk.last()?);
            let a = rng.random_range(lo..=hi);
            let c = rng.random_range(a..=hi);
            (b.k0, b.k1, b.kc) = (a, c, (a + c) as f64 / 2.0);
            b.side = rng.random_range(-1..=1);
        }
    }
    Some(b)
}

/// The pixels of slice `k` covered by the bleed.
pub fn bleed_mask(b: &Bleed, vol: &Volume, a: &SliceAnatomy, k: usize) -> Vec<bool> {
    let n = vol.n;
    let mut m = vec![false; n * n];
    if k < b.k0 || k > b.k1 {
        return m;
    }
    let half = ((b.k1 - b.k0) as f64 / 2.0 + 0.5).max(0.5);
    let zfrac = ((k as f64 - (b.k0 + b.k1) as f64 / 2.0) / half).clamp(-1.0, 1.0);
    let zprof = (1.0 - zfrac * zfrac).max(0.0).sqrt();
    let px = vol.px_mm;
    let phi_of = |i: usize| ((i / n) as f64 - a.centre.1).atan2((i % n) as f64 - a.centre.0);
    match b.subtype {
        Subtype::Subdural | Subtype::Epidural => {
            for i in 0..n * n {
                if !a.brain[i] {
                    continue;
                }
                let d = angle_diff(phi_of(i), b.phi) / b.half_width;
                if d >= 1.0 {
                    continue;
                }
                let prof = if b.subtype == Subtype::Subdural {
                    // crescent: long and thin, tapering at its tips
                    (0.5 * PI * d).cos().powf(0.5)
                } else {
                    // lens: biconvex, short
                    (1.0 - d * d).sqrt()
                };
                let t = b.size[0] * prof * zprof.powf(0.5);
                if f64::from(a.dist_mm[i]) < t + 0.5 * px {
                    m[i] = true;
                }
            }
        }
        Subtype::Intraparenchymal => {
            let dzmm = (k as f64 - b.kc) * vol.slice_thickness;
            let zt = 1.0 - (dzmm / b.size[2]).powi(2);
            if zt <= 0.0 {
                return m;
            }
            let (s, c) = b.angle.sin_cos();
            for i in 0..n * n {
                if !a.brain[i] {
                    continue;
                }
                let dx = ((i % n) as f64 - b.centre.0) * px;
                let dy = ((i / n) as f64 - b.centre.1) * px;
                let u = c * dx + s * dy;
                let v = -s * dx + c * dy;
                if (u / b.size[0]).powi(2) + (v / b.size[1]).powi(2) < zt {
                    m[i] = true;
                }
            }
        }
        Subtype::Subarachnoid => {
            for i in 0..n * n {
                if a.sulcus[i] && angle_diff(phi_of(i), b.phi) < b.half_width * zprof.max(0.3) {
                    m[i] = true;
                }
            }
        }
        Subtype::Intraventricular => {
            // dependent (posterior, larger y) part of the ventricles: a fluid level
            let (mut sy, mut cnt) = (0.0, 0usize);
            for i in 0..n * n {
                if a.ventricle[i] {
                    sy += (i / n) as f64;
                    cnt += 1;
                }
            }
            if cnt == 0 {
                return m;
            }
            let level = sy / cnt as f64;
            for i in 0..n * n {
                let x = (i % n) as f64 - a.centre.0;
                let side_ok = match b.side {
                    -1 => x < 0.0,
                    1 => x >= 0.0,
                    _ => true,
                };
                if a.ventricle[i] && (i / n) as f64 >= level && side_ok {
                    m[i] = true;
                }
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chamfer_distance_by_hand() {
        // one source in the corner of a 3×3 grid
        let mut s = vec![false; 9];
        s[0] = true;
        let d = distance_transform(&s, 3);
        let r2 = std::f32::consts::SQRT_2;
        let want = [0.0, 1.0, 2.0, 1.0, r2, 1.0 + r2, 2.0, 1.0 + r2, 2.0 * r2];
        for (a, b) in d.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{d:?}");
        }
    }

    #[test]
    fn flood_fill_finds_the_inside_of_a_ring() {
        let n = 9;
        let mut open = vec![true; n * n];
        for i in 2..7 {
            for j in 2..7 {
                if i == 2 || i == 6 || j == 2 || j == 6 {
                    open[i * n + j] = false;
                }
            }
        }
        let out = outside(&open, n);
        assert!(!out[4 * n + 4]); // centre enclosed
        assert!(out[0] && out[8 * n + 8]);
        assert_eq!(out.iter().filter(|o| !**o).count(), 25); // the 5×5 ring and its inside
    }
}
