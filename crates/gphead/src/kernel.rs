//! The RBF kernel of the papers: `k(x, x') = v · exp(−‖x − x'‖² / (2 l))`, `l` a *squared* length
//! scale.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par};
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
        self.of_sq_dists(&sq_dists(z, x, d, par))
    }

    /// The kernel of squared distances (from [`sq_dists`]).
    pub fn of_sq_dists(&self, d2: &Mat<f64>) -> Mat<f64> {
        let s = -1.0 / (2.0 * self.lengthscale);
        let mut k = Mat::<f64>::zeros(d2.nrows(), d2.ncols());
        for j in 0..d2.ncols() {
            for (v, d) in k.col_as_slice_mut(j).iter_mut().zip(d2.col_as_slice(j)) {
                *v = self.variance * (d * s).exp();
            }
        }
        k
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
