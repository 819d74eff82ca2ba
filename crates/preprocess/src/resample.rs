//! Image resampling with a separable, antialiased triangle filter.
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
