//! Principal component analysis: a linear projection of D-dimensional features onto their k
//! directions of largest variance, fitted on training features only and stored next to the head
//! that uses it (e.g. 1152 features of an imported CNN onto 8, 32 or 128 for the GP head).

use faer::{Mat, Side};
use serde::{Deserialize, Serialize};

use crate::data::MilData;
use crate::error::{GpError, Result};

/// A fitted projection: `y = C (x − mean)`, `C` the k leading eigenvectors of the features'
/// covariance (rows, unit length, sign fixed so that each row's largest entry is positive).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pca {
    /// Input dimension D.
    pub d: usize,
    /// Output dimension k.
    pub k: usize,
    pub mean: Vec<f64>,
    /// `k × D`, row-major.
    pub components: Vec<f64>,
    /// The variance along each component (eigenvalues, largest first).
    pub variance: Vec<f64>,
    /// The total variance of the features (trace of the covariance).
    pub total_variance: f64,
    /// Instances it was fitted on.
    pub fitted_on: usize,
}

impl Pca {
    /// Fits on the instances of `data` (n ≥ 2).
    pub fn fit(data: &MilData, k: usize) -> Result<Pca> {
        let (n, d) = (data.n, data.d);
        if k == 0 || k > d {
            return Err(GpError::Data(format!(
                "a projection onto {k} of {d} dimensions is not possible"
            )));
        }
        if n < 2 {
            return Err(GpError::Data(format!(
                "a projection needs at least 2 instances, got {n}"
            )));
        }
        let mut mean = vec![0.0; d];
        for i in 0..n {
            for (m, &x) in mean.iter_mut().zip(data.row(i)) {
                *m += x;
            }
        }
        mean.iter_mut().for_each(|m| *m /= n as f64);
        let centred = Mat::from_fn(n, d, |i, j| data.x[i * d + j] - mean[j]);
        let cov = centred.transpose() * &centred * faer::Scale(1.0 / (n - 1) as f64);
        let eig = cov
            .self_adjoint_eigen(Side::Lower)
            .map_err(|e| GpError::Data(format!("eigendecomposition failed: {e:?}")))?;
        let (vals, vecs) = (eig.S(), eig.U());
        let total_variance = (0..d).map(|j| cov[(j, j)]).sum();
        let mut components = Vec::with_capacity(k * d);
        let mut variance = Vec::with_capacity(k);
        // eigenvalues come in nondecreasing order: the last k, largest first
        for c in (d - k..d).rev() {
            let col: Vec<f64> = (0..d).map(|j| vecs[(j, c)]).collect();
            let big = col
                .iter()
                .copied()
                .max_by(|a, b| a.abs().total_cmp(&b.abs()))
                .unwrap_or(1.0);
            let sign = if big < 0.0 { -1.0 } else { 1.0 };
            components.extend(col.iter().map(|v| v * sign));
            variance.push(vals.column_vector()[c].max(0.0));
        }
        Ok(Pca {
            d,
            k,
            mean,
            components,
            variance,
            total_variance,
            fitted_on: n,
        })
    }

    /// The share of the total variance the k components keep.
    pub fn explained(&self) -> f64 {
        if self.total_variance > 0.0 {
            self.variance.iter().sum::<f64>() / self.total_variance
        } else {
            1.0
        }
    }

    /// Projects one feature vector.
    pub fn project(&self, x: &[f64]) -> Vec<f64> {
        self.components
            .chunks(self.d)
            .map(|c| {
                c.iter()
                    .zip(x)
                    .zip(&self.mean)
                    .map(|((a, b), m)| a * (b - m))
                    .sum()
            })
            .collect()
    }

    /// The same data with every instance projected (k features).
    pub fn transform(&self, data: &MilData) -> Result<MilData> {
        if data.d != self.d {
            return Err(GpError::Data(format!(
                "the projection takes {} features, the data has {}",
                self.d, data.d
            )));
        }
        let x: Vec<f64> = (0..data.n)
            .flat_map(|i| self.project(data.row(i)))
            .collect();
        Ok(MilData {
            d: self.k,
            x,
            ..data.clone()
        })
    }

    /// Checks a projection read from a file: sizes agree and every number is finite.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.k == 0 || self.k > self.d {
            return Err(format!("{} components of {} dimensions", self.k, self.d));
        }
        if self.mean.len() != self.d
            || self.components.len() != self.k * self.d
            || self.variance.len() != self.k
        {
            return Err("sizes of mean, components and variance disagree with d and k".into());
        }
        let all = self
            .mean
            .iter()
            .chain(&self.components)
            .chain(&self.variance)
            .chain(std::iter::once(&self.total_variance));
        if all.clone().any(|v| !v.is_finite() || v.abs() > 1e100) {
            return Err("a number is not finite (or beyond ±1e100)".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(d: usize, x: Vec<f64>) -> MilData {
        let n = x.len() / d;
        MilData::from_instances(
            d,
            x,
            (0..n).map(|i| format!("b{i}")).collect(),
            vec![0; n],
            None,
            (0..n).map(|i| format!("i{i}")).collect(),
        )
        .unwrap()
    }

    /// Points on the line y = x plus a small orthogonal wobble: by hand, the first component is
    /// (1, 1)/√2 with variance Var(t)·2, the second (−1, 1)/√2 (sign: largest entry positive).
    #[test]
    fn components_of_a_line_by_hand() {
        // t = −2, −1, 0, 1, 2 along (1,1); wobble s = +0.1, −0.1, 0, −0.1, +0.1 along (−1,1)
        let t = [-2.0, -1.0, 0.0, 1.0, 2.0];
        let s = [0.1, -0.1, 0.0, -0.1, 0.1]; // Σ s = Σ t·s = 0: uncorrelated
        let mut x = Vec::new();
        for (a, b) in t.iter().zip(&s) {
            x.push(3.0 + a - b); // mean (3, −1)
            x.push(-1.0 + a + b);
        }
        let p = Pca::fit(&data(2, x), 2).unwrap();
        assert!((p.mean[0] - 3.0).abs() < 1e-12 && (p.mean[1] + 1.0).abs() < 1e-12);
        let r = 1.0 / 2f64.sqrt();
        // the point (a − b, a + b) = a·(1,1) + b·(−1,1): coordinates a·√2 and b·√2
        // variance along (1,1)/√2: Σ(2a²)/(n − 1) = 2·10/4 = 5; along (−1,1)/√2: 2·0.04/4 = 0.02
        assert!((p.variance[0] - 5.0).abs() < 1e-12, "{:?}", p.variance);
        assert!((p.variance[1] - 0.02).abs() < 1e-12, "{:?}", p.variance);
        assert!((p.components[0] - r).abs() < 1e-12 && (p.components[1] - r).abs() < 1e-12);
        assert!((p.explained() - 1.0).abs() < 1e-12);
        // the first point (a = −2, b = 0.1) projects onto (−2√2, ±0.1√2)
        let y = p.project(&[3.0 - 2.0 - 0.1, -1.0 - 2.0 + 0.1]);
        assert!((y[0] + 2.0 * 2f64.sqrt()).abs() < 1e-12, "{y:?}");
        assert!((y[1].abs() - 0.1 * 2f64.sqrt()).abs() < 1e-12, "{y:?}");
        // onto one component only
        let p1 = Pca::fit(&data(2, vec![0.0, 0.0, 2.0, 2.0]), 1).unwrap();
        assert_eq!(p1.k, 1);
        assert!((p1.explained() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn refusals() {
        let d = data(2, vec![0.0, 1.0, 2.0, 3.0]);
        assert!(Pca::fit(&d, 0).is_err());
        assert!(Pca::fit(&d, 3).is_err());
        assert!(Pca::fit(&data(2, vec![0.0, 1.0]), 1).is_err());
        let mut p = Pca::fit(&d, 1).unwrap();
        assert!(p.check().is_ok());
        p.mean.push(1.0);
        assert!(p.check().is_err());
        assert!(Pca::fit(&d, 1)
            .unwrap()
            .transform(&data(1, vec![1.0]))
            .is_err());
    }
}
