//! Image resampling: a separable, antialiased triangle filter (`triangle`, ich's default), or
//! OpenCV's bilinear interpolation (`bilinear`: `cv2.resize` with `INTER_LINEAR`, the resize the
//! published SA-DMIL weights were trained behind).
//!
//! When shrinking, the triangle is stretched by the scale factor, so every source pixel contributes
//! (area-weighted, no aliasing); when enlarging it is plain bilinear interpolation. A triangle has
//! no negative lobes, so sharp bone edges do not ring into the brain window the way Lanczos or
//! bicubic filters would (a bright ring under the skull looks like a subdural bleed).

/// Precomputed weights of one axis: for each output index, the first source index and weights.
struct Axis {
    start: Vec<usize>,
    weights: Vec<Vec<f32>>,
}

fn axis(in_len: usize, out_len: usize) -> Axis {
    let scale = in_len as f64 / out_len as f64;
    let fscale = scale.max(1.0);
    let support = fscale; // triangle radius 1, stretched
    let mut start = Vec::with_capacity(out_len);
    let mut weights = Vec::with_capacity(out_len);
    for i in 0..out_len {
        let center = (i as f64 + 0.5) * scale;
        let lo = ((center - support).floor().max(0.0)) as usize;
        let hi = ((center + support).ceil() as usize).min(in_len);
        let mut w: Vec<f32> = (lo..hi)
            .map(|j| {
                let x = ((j as f64 + 0.5 - center) / fscale).abs();
                (1.0 - x).max(0.0) as f32
            })
            .collect();
        let sum: f32 = w.iter().sum();
        if sum > 0.0 {
            w.iter_mut().for_each(|v| *v /= sum);
        } else {
            // cannot happen for in_len ≥ 1, but stay total: nearest neighbour
            w = vec![1.0];
        }
        start.push(lo);
        weights.push(w);
    }
    Axis { start, weights }
}

/// The filters a preprocessing config may name.
pub const FILTERS: [&str; 2] = ["triangle", "bilinear"];

/// Resamples with the named filter ([`FILTERS`]): `bilinear` is [`resize_bilinear`], anything
/// else the antialiased triangle of [`resize`] (configs are checked against [`FILTERS`] when read).
pub fn resize_filter(
    filter: &str,
    src: &[f32],
    rows: usize,
    cols: usize,
    out_rows: usize,
    out_cols: usize,
) -> Vec<f32> {
    match filter {
        "bilinear" => resize_bilinear(src, rows, cols, out_rows, out_cols),
        _ => resize(src, rows, cols, out_rows, out_cols),
    }
}

/// One axis of OpenCV's `INTER_LINEAR`: per output index the first source index and the two
/// weights. Source coordinate `(d + 0.5)·in/out − 0.5` (half-pixel centres), computed in `f32` as
/// OpenCV does; clamped to the edge pixel (weight 1) outside the image. No antialiasing when
/// shrinking: every output reads two source pixels (OpenCV's exact 2× shrink, which it hands to
/// `INTER_AREA`, gives the same 2-pixel average).
fn linear_axis(in_len: usize, out_len: usize) -> Vec<(usize, f32, f32)> {
    let scale = in_len as f64 / out_len as f64;
    (0..out_len)
        .map(|d| {
            let f = ((d as f64 + 0.5) * scale - 0.5) as f32;
            let s = f.floor();
            let (mut s, mut fx) = (s as i64, f - s);
            if s < 0 {
                (s, fx) = (0, 0.0);
            }
            if s >= in_len as i64 - 1 {
                (s, fx) = (in_len as i64 - 1, 0.0);
            }
            (s as usize, 1.0 - fx, fx)
        })
        .collect()
}

/// OpenCV's `cv2.resize(img, (out_cols, out_rows), interpolation=cv2.INTER_LINEAR)` on a
/// row-major `f32` image: horizontal pass, then vertical, each `a·w₀ + b·w₁`.
pub fn resize_bilinear(
    src: &[f32],
    rows: usize,
    cols: usize,
    out_rows: usize,
    out_cols: usize,
) -> Vec<f32> {
    assert_eq!(
        src.len(),
        rows * cols,
        "resize: buffer does not match its shape"
    );
    if rows == out_rows && cols == out_cols {
        return src.to_vec();
    }
    let ax = linear_axis(cols, out_cols);
    let tap = |row: &[f32], &(s, w0, w1): &(usize, f32, f32)| {
        row[s] * w0 + row[(s + 1).min(row.len() - 1)] * w1
    };
    let tmp: Vec<f32> = src
        .chunks_exact(cols)
        .flat_map(|row| ax.iter().map(|t| tap(row, t)).collect::<Vec<_>>())
        .collect();
    let ay = linear_axis(rows, out_rows);
    let mut out = Vec::with_capacity(out_rows * out_cols);
    for &(s, b0, b1) in &ay {
        let r0 = &tmp[s * out_cols..(s + 1) * out_cols];
        let s1 = (s + 1).min(rows - 1);
        let r1 = &tmp[s1 * out_cols..(s1 + 1) * out_cols];
        out.extend(r0.iter().zip(r1).map(|(&a, &b)| a * b0 + b * b1));
    }
    out
}

/// Resamples a row-major `rows × cols` image to `out_rows × out_cols`.
pub fn resize(src: &[f32], rows: usize, cols: usize, out_rows: usize, out_cols: usize) -> Vec<f32> {
    assert_eq!(
        src.len(),
        rows * cols,
        "resize: buffer does not match its shape"
    );
    if rows == out_rows && cols == out_cols {
        return src.to_vec();
    }
    // horizontal pass: rows × out_cols; the taps of every output column, flattened once
    let ax = axis(cols, out_cols);
    let taps: Vec<(usize, usize, usize)> = {
        let mut off = 0;
        ax.start
            .iter()
            .zip(&ax.weights)
            .map(|(&s, w)| {
                let t = (s, off, w.len());
                off += w.len();
                t
            })
            .collect()
    };
    let flat: Vec<f32> = ax.weights.iter().flatten().copied().collect();
    let mut tmp = vec![0f32; rows * out_cols];
    let halving = Halving::find(&taps, &flat, cols);
    let (mut even, mut odd) = (Vec::new(), Vec::new());
    for (row, out) in src.chunks_exact(cols).zip(tmp.chunks_exact_mut(out_cols)) {
        let fast = halving
            .as_ref()
            .map_or(0..0, |h| h.run(row, out, &mut even, &mut odd));
        // the outputs the fast path did not write (the edges, or all of them)
        for o in (0..fast.start).chain(fast.end..out_cols) {
            let (s, off, len) = taps[o];
            // the same products summed in the same order as before: bit-identical results
            let mut acc = 0f32;
            for (a, b) in flat[off..off + len].iter().zip(&row[s..s + len]) {
                acc += a * b;
            }
            out[o] = acc;
        }
    }
    // vertical pass
    let ay = axis(rows, out_rows);
    let mut out = vec![0f32; out_rows * out_cols];
    for (r, (s, w)) in ay.start.iter().zip(&ay.weights).enumerate() {
        let dst = &mut out[r * out_cols..(r + 1) * out_cols];
        for (k, wk) in w.iter().enumerate() {
            let srow = &tmp[(s + k) * out_cols..(s + k + 1) * out_cols];
            for (d, v) in dst.iter_mut().zip(srow) {
                *d += wk * v;
            }
        }
    }
    out
}

/// The interior of a horizontal pass that halves the width: outputs `o` in `range` all read
/// source pixels `2o − 1 … 2o + 2` with the same four weights. Run over the row split into its
/// even and odd pixels, these sums vectorise; each is still `((((0 + w₀a) + w₁b) + w₂c) + w₃d)`,
/// the generic loop's products in its order, so the results are bit-identical.
struct Halving {
    w: [f32; 4],
    range: std::ops::Range<usize>,
}

impl Halving {
    /// The longest run of such outputs (`taps`: first source pixel, offset into `flat`, count)
    /// in rows of `cols` pixels.
    fn find(taps: &[(usize, usize, usize)], flat: &[f32], cols: usize) -> Option<Halving> {
        let fits = |o: usize, w: &[f32]| {
            let (s, off, len) = taps[o];
            len == 4 && o >= 1 && s == 2 * o - 1 && flat[off..off + 4] == *w
        };
        let (_, off, len) = *taps.get(1)?;
        if len != 4 {
            return None;
        }
        let w: [f32; 4] = flat[off..off + 4].try_into().ok()?;
        let end = (1..taps.len()).take_while(|&o| fits(o, &w)).last()? + 1;
        // pixels 2o − 1 … 2o + 2 of the last output lie in the row (taps never pass its end)
        debug_assert!(2 * end < cols);
        Some(Halving { w, range: 1..end })
    }

    /// Writes the run's outputs of one source row into `out`; returns the range written.
    fn run(
        &self,
        row: &[f32],
        out: &mut [f32],
        even: &mut Vec<f32>,
        odd: &mut Vec<f32>,
    ) -> std::ops::Range<usize> {
        let (lo, hi) = (self.range.start, self.range.end);
        let pairs = row.len() / 2;
        even.resize(pairs + row.len() % 2, 0.0);
        odd.resize(pairs, 0.0);
        for ((e, o), p) in even.iter_mut().zip(odd.iter_mut()).zip(row.chunks_exact(2)) {
            *e = p[0];
            *o = p[1];
        }
        if row.len() % 2 == 1 {
            even[pairs] = row[row.len() - 1];
        }
        let [w0, w1, w2, w3] = self.w;
        // output o: odd[o − 1], even[o], odd[o], even[o + 1]
        let a = &odd[lo - 1..hi - 1];
        let b = &even[lo..hi];
        let c = &odd[lo..hi];
        let d = &even[lo + 1..hi + 1];
        for ((((o, &a), &b), &c), &d) in out[lo..hi].iter_mut().zip(a).zip(b).zip(c).zip(d) {
            let mut acc = 0f32;
            acc += w0 * a;
            acc += w1 * b;
            acc += w2 * c;
            acc += w3 * d;
            *o = acc;
        }
        lo..hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values computed by OpenCV 5.0.0 (`opencv-python-headless`):
    /// `cv2.resize(img, (11, 8), interpolation=cv2.INTER_LINEAR)` on the 5 × 7 float32 image
    /// `i**1.5 − 40·cos(i)`, i = 0…34 row-major, and `cv2.resize(src, (4, 6), …)` on the 13 × 9
    /// image `(i·7 mod 31)·11 − 100` — an enlargement and a non-integer shrink.
    #[test]
    fn bilinear_matches_opencv_inter_linear() {
        let img: Vec<f32> = (0..35)
            .map(|i| (i as f32).powf(1.5) - 40.0 * (i as f32).cos())
            .collect();
        let up: [f64; 88] = [
            -40.0, -31.18731, -16.96787, 8.54165, 28.68214, 44.79585, 38.01851, 24.78796, 2.95312,
            -13.00818, -23.70987, -27.59068, -14.66244, 4.29327, 28.38608, 44.16787, 53.71638,
            41.86373, 26.42756, 6.21337, -3.23956, -8.71055, -7.97649, 10.28537, 35.26091,
            56.69009, 65.98538, 66.18024, 47.71212, 29.7604, 12.49722, 12.45959, 14.48337,
            28.61698, 47.3008, 71.57964, 84.58748, 85.05828, 76.1263, 56.75746, 42.00811, 33.41809,
            43.85447, 53.57408, 69.17294, 85.72055, 106.11298, 109.86016, 102.64056, 87.1959,
            70.53624, 61.58244, 62.90311, 82.00384, 97.76389, 113.69142, 125.54463, 138.86095,
            132.50813, 118.73224, 99.38903, 89.04847, 88.48338, 100.95229, 126.90767, 147.05276,
            156.68747, 161.52106, 165.43216, 152.20775, 137.07913, 120.52235, 120.44118, 129.45415,
            150.59265, 177.33389, 197.10176, 186.66629, 186.40529, 183.55159, 165.76816, 150.09737,
            136.01102, 143.41789, 159.228, 186.24243, 213.06175, 232.19518,
        ];
        let got = resize_filter("bilinear", &img, 5, 7, 8, 11);
        for (k, (g, w)) in got.iter().zip(up).enumerate() {
            assert!((*g as f64 - w).abs() < 2e-4, "up {k}: {g} vs OpenCV {w}");
        }
        let src: Vec<f32> = (0..117).map(|i| ((i * 7 % 31) * 11 - 100) as f32).collect();
        let down: [f64; 24] = [
            -45.45833, 127.79166, -39.95833, 133.29167, -21.625, 151.625, -16.125, 157.125,
            2.20833, 175.45833, 7.70833, 180.95833, 26.04167, 199.29167, 31.54167, 76.91666,
            49.875, 148.53125, 55.375, 100.75, 73.70834, -51.41667, 79.20834, 124.58334,
        ];
        let got = resize_filter("bilinear", &src, 13, 9, 6, 4);
        for (k, (g, w)) in got.iter().zip(down).enumerate() {
            assert!((*g as f64 - w).abs() < 2e-4, "down {k}: {g} vs OpenCV {w}");
        }
        // the triangle filter is a different resampler: it does not give OpenCV's numbers
        let tri = resize_filter("triangle", &src, 13, 9, 6, 4);
        assert!(tri
            .iter()
            .zip(down)
            .any(|(g, w)| (*g as f64 - w).abs() > 1.0));
    }

    #[test]
    fn identity_and_constant() {
        let img: Vec<f32> = (0..12).map(|v| v as f32).collect();
        assert_eq!(resize(&img, 3, 4, 3, 4), img);
        let c = vec![37.0f32; 64 * 48];
        for v in resize(&c, 64, 48, 17, 33) {
            assert!((v - 37.0).abs() < 1e-4);
        }
    }

    #[test]
    fn halving_is_a_2x2_average_of_a_ramp() {
        // Downsampling by 2 with a triangle stretched to radius 2: output pixel 0 (centre 1.0 in
        // source coordinates) weighs source pixels at 0.5, 1.5, 2.5 by 0.75, 0.75, 0.25 → for a
        // ramp v = j: (0·.75 + 1·.75 + 2·.25)/1.75 = 1.25/1.75.
        let row: Vec<f32> = (0..8).map(|v| v as f32).collect();
        let out = resize(&row, 1, 8, 1, 4);
        assert!((out[0] - 1.25 / 1.75).abs() < 1e-6, "{out:?}");
        // interior pixel 1 (centre 3.0): sources 1..=4 at .25,.75,.75,.25 → (1·.25+2·.75+3·.75+4·.25)/2 = 2.5
        assert!((out[1] - 2.5).abs() < 1e-6);
    }

    #[test]
    fn no_overshoot_at_a_bone_edge() {
        // A step from brain (30 HU) to bone (1500 HU): no output leaves [30, 1500].
        let mut img = vec![30f32; 32 * 32];
        for r in 0..32 {
            for c in 16..32 {
                img[r * 32 + c] = 1500.0;
            }
        }
        for size in [7, 20, 50, 64] {
            for v in resize(&img, 32, 32, size, size) {
                assert!((30.0 - 1e-3..=1500.0 + 1e-3).contains(&v));
            }
        }
    }

    /// The generic horizontal and vertical passes, as they were before the halving fast path.
    fn reference(
        src: &[f32],
        rows: usize,
        cols: usize,
        out_rows: usize,
        out_cols: usize,
    ) -> Vec<f32> {
        let ax = axis(cols, out_cols);
        let mut tmp = vec![0f32; rows * out_cols];
        for (row, out) in src.chunks_exact(cols).zip(tmp.chunks_exact_mut(out_cols)) {
            for (o, (&s, w)) in out.iter_mut().zip(ax.start.iter().zip(&ax.weights)) {
                let mut acc = 0f32;
                for (a, b) in w.iter().zip(&row[s..s + w.len()]) {
                    acc += a * b;
                }
                *o = acc;
            }
        }
        let ay = axis(rows, out_rows);
        let mut out = vec![0f32; out_rows * out_cols];
        for (r, (s, w)) in ay.start.iter().zip(&ay.weights).enumerate() {
            for (k, wk) in w.iter().enumerate() {
                for c in 0..out_cols {
                    out[r * out_cols + c] += wk * tmp[(s + k) * out_cols + c];
                }
            }
        }
        out
    }

    #[test]
    fn halving_fast_path_is_bit_identical_to_the_generic_sums() {
        // CT-like values: air, brain, bone, with fractional parts from a hash
        let img = |rows: usize, cols: usize| -> Vec<f32> {
            (0..rows * cols)
                .map(|i| {
                    let h = (i as u32).wrapping_mul(2654435761);
                    -1024.0 + (h >> 20) as f32 * 0.7 + (h & 0xff) as f32 / 256.0
                })
                .collect()
        };
        for (rows, cols, out_rows, out_cols) in [
            (512, 512, 256, 256),
            (64, 64, 32, 32),
            (8, 6, 4, 3),
            (10, 9, 5, 4),
            (33, 40, 17, 20),
            (12, 12, 6, 7),
        ] {
            let src = img(rows, cols);
            let got = resize(&src, rows, cols, out_rows, out_cols);
            let want = reference(&src, rows, cols, out_rows, out_cols);
            assert_eq!(got.len(), want.len());
            assert!(
                got.iter()
                    .zip(&want)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{rows}×{cols} → {out_rows}×{out_cols}"
            );
        }
        // the fast path is taken where it should be
        let ax = axis(512, 256);
        let mut off = 0;
        let taps: Vec<(usize, usize, usize)> = ax
            .start
            .iter()
            .zip(&ax.weights)
            .map(|(&s, w)| {
                off += w.len();
                (s, off - w.len(), w.len())
            })
            .collect();
        let flat: Vec<f32> = ax.weights.iter().flatten().copied().collect();
        let h = Halving::find(&taps, &flat, 512).expect("512 → 256 halves");
        assert_eq!(h.range, 1..255);
        assert_eq!(h.w, [0.125, 0.375, 0.375, 0.125]);
    }
}
