//! Heads to draw bleeds into: a procedural head, or the real head CT of `../shared/data/ct/`.

use std::f64::consts::PI;
use std::io::Read;
use std::path::Path;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::error::{Error, Result};

/// A CT volume in HU, `[z][y][x]`, z from inferior to superior, row 0 anterior.
#[derive(Debug, Clone)]
pub struct Volume {
    pub nz: usize,
    /// In-plane size (square).
    pub n: usize,
    /// Pixel spacing, mm.
    pub px_mm: f64,
    /// Slice positions, mm.
    pub z_mm: Vec<f64>,
    pub slice_thickness: f64,
    pub hu: Vec<f32>,
}

impl Volume {
    pub fn slice(&self, k: usize) -> &[f32] {
        &self.hu[k * self.n * self.n..(k + 1) * self.n * self.n]
    }
    pub fn slice_mut(&mut self, k: usize) -> &mut [f32] {
        let nn = self.n * self.n;
        &mut self.hu[k * nn..(k + 1) * nn]
    }
}

/// Field of view of the procedural head, mm.
pub const FOV_MM: f64 = 240.0;

fn u(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    rng.random_range(lo..hi)
}

/// A procedural head: ellipsoidal shells of scalp and skull (the skull thickens and closes at the
/// vertex where the slice cuts the shell obliquely), cortex and white matter, radial sulci, lateral
/// and third ventricles. Size, position and in-plane rotation vary between scans. No noise.
pub fn procedural(rng: &mut ChaCha8Rng, slices: usize, size: usize) -> Volume {
    let a = u(rng, 68.0, 80.0); // left-right semi-axis
    let b = u(rng, 86.0, 98.0); // antero-posterior
    let c = u(rng, 88.0, 100.0); // cranio-caudal
    let (cx, cy) = (u(rng, -12.0, 12.0), u(rng, -12.0, 12.0));
    let rot = u(rng, -15.0, 15.0).to_radians();
    let scalp = u(rng, 4.0, 6.5);
    let skull = u(rng, 5.0, 8.0);
    let skull_phase = u(rng, 0.0, 2.0 * PI);
    let scalp_hu = u(rng, 25.0, 55.0) as f32;
    let grey = u(rng, 35.0, 40.0) as f32;
    let white = u(rng, 25.0, 30.0) as f32;
    let csf = u(rng, 2.0, 10.0) as f32;
    let vent_hu = u(rng, 3.0, 12.0) as f32;
    let gyri_phase = u(rng, 0.0, 2.0 * PI);
    let atrophy = u(rng, 0.8, 1.5);
    let sulci: Vec<f64> = (0..rng.random_range(20..32))
        .map(|_| u(rng, -PI, PI))
        .collect();
    let sulcus_depth: Vec<f64> = sulci.iter().map(|_| u(rng, 5.0, 12.0)).collect();
    // z from below the equator (skull base) to the vertex
    let z_lo = -0.40 * c;
    let z_hi = 0.97 * c;
    let dz = (z_hi - z_lo) / slices as f64;
    let px = FOV_MM / size as f64;
    let (sr, cr) = rot.sin_cos();
    let mut hu = vec![-1000f32; slices * size * size];
    for k in 0..slices {
        let z = z_lo + (k as f64 + 0.5) * dz;
        let plane = &mut hu[k * size * size..(k + 1) * size * size];
        for i in 0..size {
            let y = (i as f64 + 0.5) * px - FOV_MM / 2.0;
            for j in 0..size {
                let x = (j as f64 + 0.5) * px - FOV_MM / 2.0;
                let (dx, dy) = (x - cx, y - cy);
                let uu = cr * dx + sr * dy;
                let vv = -sr * dx + cr * dy;
                let r = ((uu / a).powi(2) + (vv / b).powi(2) + (z / c).powi(2)).sqrt();
                if r >= 1.0 {
                    continue;
                }
                let norm = (uu * uu + vv * vv + z * z).sqrt();
                // radial depth below the scalp surface, mm
                let depth = if r > 1e-9 { norm * (1.0 - r) / r } else { 1e9 };
                let phi = vv.atan2(uu);
                let t_skull = skull * (1.0 + 0.25 * (3.0 * phi + skull_phase).sin());
                let v = if depth < scalp {
                    scalp_hu
                } else if depth < scalp + t_skull {
                    // outer and inner tables dense, diploe lighter
                    let f = (depth - scalp) / t_skull;
                    (750.0 + 1000.0 * (2.0 * f - 1.0).abs().powf(0.7)) as f32
                } else {
                    let d = depth - scalp - t_skull; // depth below the inner table
                    let g = 2.5 + 1.5 * (14.0 * phi + 0.08 * z + gyri_phase).sin();
                    let rho = (uu * uu + vv * vv).sqrt();
                    let in_sulcus = d < 1.0 + 0.5 * atrophy
                        || sulci.iter().zip(&sulcus_depth).any(|(s, sd)| {
                            let mut dphi = (phi - s).abs();
                            if dphi > PI {
                                dphi = 2.0 * PI - dphi;
                            }
                            d < *sd * atrophy.sqrt() && dphi * rho < 0.6 * atrophy
                        });
                    // lateral ventricles (anterior = −y) and the third ventricle
                    let vz = z - 0.25 * c;
                    let lat = |side: f64| {
                        ((uu - side * 9.0) / (4.5 * atrophy)).powi(2)
                            + ((vv + 4.0) / 24.0).powi(2)
                            + (vz / 14.0).powi(2)
                    };
                    let third = (uu / (1.2 * atrophy)).powi(2)
                        + ((vv - 2.0) / 9.0).powi(2)
                        + ((z - 0.05 * c) / 10.0).powi(2);
                    if lat(1.0) < 1.0 || lat(-1.0) < 1.0 || third < 1.0 {
                        vent_hu
                    } else if in_sulcus {
                        csf
                    } else if d < 1.0 + g {
                        grey
                    } else {
                        // deep grey nuclei
                        let nuc = |side: f64| {
                            ((uu - side * 20.0) / 8.0).powi(2)
                                + ((vv - 2.0) / 12.0).powi(2)
                                + ((z - 0.1 * c) / 10.0).powi(2)
                        };
                        if nuc(1.0) < 1.0 || nuc(-1.0) < 1.0 {
                            grey - 2.0
                        } else {
                            white
                        }
                    }
                };
                plane[i * size + j] = v;
            }
        }
    }
    Volume {
        nz: slices,
        n: size,
        px_mm: px,
        z_mm: (0..slices).map(|k| z_lo + (k as f64 + 0.5) * dz).collect(),
        slice_thickness: dz,
        hu,
    }
}

/// The real head CT: 108 axial slices of 256², 0.957 mm pixels, 1.5 mm apart, skull base to vertex.
pub struct BaseCt {
    pub nz: usize,
    pub n: usize,
    pub px_mm: f64,
    pub dz_mm: f64,
    pub hu: Vec<f32>,
}

impl BaseCt {
    /// Loads `cranium_hu_i16le_108x256x256.raw.gz` (gzipped little-endian int16, `[z][y][x]`,
    /// row 0 posterior): rows are flipped so that row 0 is anterior, as in DICOM.
    pub fn load(path: &Path) -> Result<Self> {
        let (nz, n) = (108usize, 256usize);
        let want = (nz * n * n * 2) as u64;
        // a regular file (never a FIFO or device), its stream read to one byte past the volume
        let (f, _) = milbase::bounded::open_regular(path, want).map_err(|e| Error::io(path, e))?;
        let mut raw = Vec::with_capacity(want as usize);
        flate2::read::GzDecoder::new(f)
            .take(want + 1)
            .read_to_end(&mut raw)
            .map_err(|e| Error::io(path, e))?;
        if raw.len() != nz * n * n * 2 {
            return Err(Error::format(
                path,
                format!(
                    "{} bytes, expected {} (108×256×256 int16)",
                    raw.len(),
                    nz * n * n * 2
                ),
            ));
        }
        let mut hu = vec![0f32; nz * n * n];
        for z in 0..nz {
            for y in 0..n {
                let src = (z * n + (n - 1 - y)) * n;
                let dst = (z * n + y) * n;
                for x in 0..n {
                    let o = 2 * (src + x);
                    hu[dst + x] = f32::from(i16::from_le_bytes([raw[o], raw[o + 1]]));
                }
            }
        }
        Ok(Self {
            nz,
            n,
            px_mm: 0.957,
            dz_mm: 1.5,
            hu,
        })
    }

    fn at(&self, z: usize, y: f64, x: f64) -> f32 {
        // bilinear in-plane, air outside
        let n = self.n as f64;
        if !(0.0..n - 1.0).contains(&x) || !(0.0..n - 1.0).contains(&y) {
            return -1000.0;
        }
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (fx, fy) = ((x - x0 as f64) as f32, (y - y0 as f64) as f32);
        let p = &self.hu[z * self.n * self.n..];
        let v00 = p[y0 * self.n + x0];
        let v01 = p[y0 * self.n + x0 + 1];
        let v10 = p[(y0 + 1) * self.n + x0];
        let v11 = p[(y0 + 1) * self.n + x0 + 1];
        (v00 * (1.0 - fx) + v01 * fx) * (1.0 - fy) + (v10 * (1.0 - fx) + v11 * fx) * fy
    }

    /// A scan cut from the volume: `slices` slices spread over the brain (from a random start above
    /// the skull base to the vertex), resampled to `size²` after a random in-plane rotation (±12°)
    /// and shift (±8 mm).
    pub fn scan(&self, rng: &mut ChaCha8Rng, slices: usize, size: usize) -> Volume {
        let start = u(rng, 18.0, 32.0);
        let end = self.nz as f64 - 1.0;
        let step = (end - start) / slices as f64;
        let rot = u(rng, -12.0, 12.0).to_radians();
        let (sx, sy) = (u(rng, -8.0, 8.0), u(rng, -8.0, 8.0));
        let (sr, cr) = rot.sin_cos();
        let fov = self.px_mm * self.n as f64;
        let px = fov / size as f64;
        let c = self.n as f64 / 2.0;
        let mut hu = vec![0f32; slices * size * size];
        let mut z_mm = Vec::with_capacity(slices);
        for k in 0..slices {
            let zf = start + (k as f64 + 0.5) * step;
            let z0 = (zf.floor() as usize).min(self.nz - 2);
            let fz = (zf - z0 as f64) as f32;
            z_mm.push(zf * self.dz_mm);
            for i in 0..size {
                for j in 0..size {
                    // output pixel → mm about the centre → rotate and shift → source pixel
                    let x = (j as f64 + 0.5) * px - fov / 2.0 - sx;
                    let y = (i as f64 + 0.5) * px - fov / 2.0 - sy;
                    let xs = (cr * x - sr * y) / self.px_mm + c - 0.5;
                    let ys = (sr * x + cr * y) / self.px_mm + c - 0.5;
                    let a = self.at(z0, ys, xs);
                    let b = self.at(z0 + 1, ys, xs);
                    hu[(k * size + i) * size + j] = a * (1.0 - fz) + b * fz;
                }
            }
        }
        Volume {
            nz: slices,
            n: size,
            px_mm: px,
            z_mm,
            slice_thickness: step * self.dz_mm,
            hu,
        }
    }
}
