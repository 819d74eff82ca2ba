//! The RBF kernel of the papers: `k(x, x') = v · exp(−‖x − x'‖² / (2 l))`, `l` a *squared* length
//! scale.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rbf {
    /// Variance v.
    pub variance: f64,
    /// Squared length scale l.
    pub lengthscale: f64,
}

impl Rbf {
    /// MODELS.md §2 initial values on z-scored features: (0.5, D).
    pub fn initial(d: usize) -> Self {
        Self {
            variance: 0.5,
            lengthscale: d as f64,
        }
    }

    pub fn eval(&self, a: &[f64], b: &[f64]) -> f64 {
        let d2: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
        self.variance * (-d2 / (2.0 * self.lengthscale)).exp()
    }

    /// `K(Z, X)`: rows of `z` (M×D, row-major) against rows of `x` (N×D): an M×N matrix,
    /// through one matrix product (‖z‖² + ‖x‖² − 2 z·x).
    pub fn cross(&self, z: &[f64], x: &[f64], d: usize, par: Par) -> Mat<f64> {
        self.of_sq_dists(sq_dists(z, x, d, par).as_ref())
    }

    /// The kernel of squared distances (from [`sq_dists`]), through [`exp_nonpositive`]: the
    /// exponentials are most of a kernel step's time, and this loop vectorises where a call to
    /// libm's `exp` per element does not.
    /// The loop runs with the widest vector instructions the CPU has (`pulp`'s dispatch).
    pub fn of_sq_dists(&self, d2: MatRef<'_, f64>) -> Mat<f64> {
        let s = -1.0 / (2.0 * self.lengthscale);
        let v = self.variance;
        let mut k = Mat::<f64>::zeros(d2.nrows(), d2.ncols());
        for j in 0..d2.ncols() {
            let (out, d) = (k.col_as_slice_mut(j), d2.col(j));
            match d.try_as_col_major() {
                Some(d) => kernel_of(v, s, d.as_slice(), out),
                None => {
                    for (o, x) in out.iter_mut().zip(d.iter()) {
                        *o = v * exp_nonpositive(x * s);
                    }
                }
            }
        }
        k
    }
}

/// `out_i = v · exp(s · d_i)`, vectorised for the CPU it runs on.
fn kernel_of(v: f64, s: f64, d: &[f64], out: &mut [f64]) {
    pulp::Arch::new().dispatch(
        #[inline(always)]
        || {
            for (o, x) in out.iter_mut().zip(d) {
                *o = v * exp_nonpositive(x * s);
            }
        },
    );
}

/// `eˣ` for `x ≤ 0` (a kernel's exponent; larger `x` is clamped to 0), without a branch or a
/// call, so that a loop over it vectorises. `x = k ln 2 + r` with `|r| ≤ ln 2 / 2`, `eʳ` by its
/// Taylor series to degree 13 (truncation below 10⁻¹⁷ relative), `2ᵏ` built in the exponent
/// bits. Within 2 ulp of libm's `exp` (tested); below −708, where `eˣ` leaves the normal
/// numbers (under 10⁻³⁰⁷), 0.
#[inline(always)]
pub fn exp_nonpositive(x: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    // ln 2 split so that k · LN2_HI is exact for |k| < 2¹¹ (fdlibm's constants)
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    // 1.5 · 2⁵²: adding it rounds to an integer held in the low bits of the mantissa
    const SHIFTER: f64 = 6_755_399_441_055_744.0;
    let x = x.clamp(-708.0, 0.0);
    let t = x * LOG2E + SHIFTER;
    let k = t - SHIFTER;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // 1/n! for n = 13 down to 2
    const C: [f64; 12] = [
        1.0 / 6_227_020_800.0,
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
    ];
    let mut p = C[0];
    for c in &C[1..] {
        p = p * r + c;
    }
    let er = (p * r + 1.0) * r + 1.0;
    // the low 12 bits of t's mantissa hold k (mod 2¹², as 2⁵¹ + k); k + 1023 in [2, 1023]
    let scale = f64::from_bits(t.to_bits().wrapping_add(1023) << 52);
    let e = er * scale;
    if x <= -708.0 {
        0.0
    } else {
        e
    }
}

/// `‖z_i − x_j‖²` for rows of `z` (M×D, row-major) against rows of `x` (N×D): an M×N matrix,
/// through one matrix product (‖z‖² + ‖x‖² − 2 z·x), clamped at 0.
pub fn sq_dists(z: &[f64], x: &[f64], d: usize, par: Par) -> Mat<f64> {
    let m = z.len() / d;
    let n = x.len() / d;
    let zm = Mat::from_fn(m, d, |i, j| z[i * d + j]);
    let xm = Mat::from_fn(d, n, |j, i| x[i * d + j]);
    let mut g = Mat::<f64>::zeros(m, n);
    matmul(
        g.as_mut(),
        Accum::Replace,
        zm.as_ref(),
        xm.as_ref(),
        1.0,
        par,
    );
    let zn: Vec<f64> = (0..m)
        .map(|i| z[i * d..(i + 1) * d].iter().map(|v| v * v).sum())
        .collect();
    let xn: Vec<f64> = (0..n)
        .map(|i| x[i * d..(i + 1) * d].iter().map(|v| v * v).sum())
        .collect();
    for j in 0..n {
        let col = g.col_mut(j);
        for (i, v) in col.iter_mut().enumerate() {
            *v = (zn[i] + xn[j] - 2.0 * *v).max(0.0);
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against libm's `exp` on a grid over [−710, 0] (and beyond 0, clamped): within 2 ulp
    /// (relative 4.5·10⁻¹⁶); 0 below −708; exactly 1 at 0; at the reduction's seams (±ln 2 / 2
    /// around each k ln 2) as close as elsewhere.
    #[test]
    fn exp_nonpositive_matches_libm() {
        let check = |x: f64| {
            let (got, want) = (exp_nonpositive(x), x.exp());
            if x <= -708.0 {
                assert_eq!(got, 0.0, "{x}");
                return;
            }
            let rel = ((got - want) / want).abs();
            assert!(rel <= 4.5e-16, "exp({x}): {got} vs {want} ({rel:e})");
        };
        for i in 0..=2_000_000 {
            check(-708.5 * i as f64 / 2_000_000.0);
        }
        for k in 0..1020 {
            let c = -(k as f64) * std::f64::consts::LN_2;
            for off in [-0.346_573_6, -0.346_573_5, 0.0, 0.346_573_5, 0.346_573_6] {
                if c + off <= 0.0 {
                    check(c + off);
                }
            }
        }
        assert_eq!(exp_nonpositive(0.0), 1.0);
        assert_eq!(exp_nonpositive(-0.0), 1.0);
        assert_eq!(exp_nonpositive(3.0), 1.0, "clamped at 0");
        assert_eq!(exp_nonpositive(-800.0), 0.0);
        assert_eq!(exp_nonpositive(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn kernel_by_hand_and_cross_matches_pairwise() {
        let k = Rbf {
            variance: 2.0,
            lengthscale: 4.0,
        };
        // ‖(1,2) − (3,2)‖² = 4 → 2·exp(−4/8) = 2·e^−0.5
        assert!((k.eval(&[1.0, 2.0], &[3.0, 2.0]) - 2.0 * (-0.5f64).exp()).abs() < 1e-15);
        let z = [0.0, 1.0, 2.0, -1.0, 0.5, 0.5];
        let x = [1.0, 1.0, 0.0, 0.0, -2.0, 3.0, 4.0, 4.0];
        let c = k.cross(&z, &x, 2, Par::Seq);
        assert_eq!((c.nrows(), c.ncols()), (3, 4));
        for i in 0..3 {
            for j in 0..4 {
                let want = k.eval(&z[2 * i..2 * i + 2], &x[2 * j..2 * j + 2]);
                assert!((c[(i, j)] - want).abs() < 1e-12);
            }
        }
    }
}
