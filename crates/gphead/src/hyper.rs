//! Kernel hyper-parameter estimation for ψ-VGPMIL (MODELS.md §3 step 6, Algorithm 1 step 8).
//!
//! Between the variational updates, `λ = (log v, log l)` moves by gradient ascent on
//!
//! `J(λ) = −KL(q(v) ‖ N(0, I)) + Σ_n [(π_n − ½) μ_n − ½ θ_n (μ_n² + σ_n²)]`
//!
//! with the *whitened* q(v) = N(m_w, S_w) (u = L v), π and θ_n = θ(c_n) held fixed:
//! `μ_n = b_nᵀ m_w`, `σ_n² = v + b_nᵀ (S_w − I) b_n`, `B = L⁻¹ K_zx`. The KL no longer depends on
//! λ, and the sum is `Σ E_q(f_n)[log ψ(f_n)] + Σ (π_n − ½) μ_n` through the same local bound the
//! variational updates use (`log ψ(f) ≥ log ψ(c) − ½θ(c)(f² − c²)`, tight at the current c): J is
//! the ELBO as a function of λ up to terms free of λ. Holding q(u) fixed in u-space instead ties
//! the mean to the old correlations and, measured here, drives l the wrong way.
//! `log Z`, which the paper estimates with random Fourier features, is dropped as in the authors'
//! code: for the logistic (VGPMIL) the bound is already normalised.
//!
//! The gradient is analytic. With `g_n = (π_n − ½) − θ_n μ_n`, `h_n = −½ θ_n`,
//! `E = m_w gᵀ + 2 (S_w − I) B diag(h)` and `T = tril(E Bᵀ) + tril(E Bᵀ)ᵀ − diag(E Bᵀ)`:
//! `∂J = Σ (L⁻ᵀE) ∘ ∂K_zx − ½ Σ (L⁻ᵀ T L⁻¹) ∘ ∂K_zz + v Σ h_n [log v only]`
//! (the K_zz term is the derivative of the Cholesky factor, `dL = L Φ(L⁻¹ dK L⁻ᵀ)`).
//! Each step moves every log-parameter by η in the direction of its partial derivative (sign
//! steps: the two partials differ by orders of magnitude), halving η until J increases, so J never
//! decreases. No inverse is
//! formed: every `L⁻¹`, `S_w` is a triangular solve.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};

use crate::error::Result;
use crate::fitloop::{kl_whitened, Setup};
use crate::kernel::Rbf;
use crate::linalg::{cholesky, col_sq_norms, par_wide, solve_l, solve_lt, solved_col_sq_norms};

pub use crate::params::KernelSteps;

/// J(λ) with q(v), π and θ fixed.
pub struct KernelObjective<'a> {
    /// Inducing points and standardised features, row-major.
    pub z: &'a [f64],
    pub x: &'a [f64],
    pub d: usize,
    /// q(v) = N(m_w, (R Rᵀ)⁻¹).
    pub m_w: &'a [f64],
    pub r: &'a Mat<f64>,
    pub pi: &'a [f64],
    pub theta: &'a [f64],
    pub jitter: f64,
}

fn mul(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    let mut c = Mat::<f64>::zeros(a.nrows(), b.ncols());
    matmul(c.as_mut(), Accum::Replace, a, b, 1.0, par_wide());
    c
}

fn contract(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> f64 {
    let mut s = 0.0;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            s += a[(i, j)] * b[(i, j)];
        }
    }
    s
}

struct Pieces {
    l: Mat<f64>,
    kzz: Mat<f64>,
    kzx: Mat<f64>,
    b: Mat<f64>,
    mu: Vec<f64>,
    value: f64,
}

impl KernelObjective<'_> {
    fn pieces(&self, k: Rbf) -> Result<Pieces> {
        let kzz = k.cross(self.z, self.z, self.d, Par::Seq);
        let (l, _) = cholesky(kzz.as_ref(), self.jitter, "K_zz")?;
        let kzx = k.cross(self.z, self.x, self.d, par_wide());
        let mut b = kzx.clone();
        solve_l(l.as_ref(), b.as_mut(), par_wide());
        let n = b.ncols();
        let mu = crate::linalg::at_v(b.as_ref(), self.m_w);
        let qb = col_sq_norms(b.as_ref());
        let qw = solved_col_sq_norms(self.r.as_ref(), b.as_ref());
        let data: f64 = (0..n)
            .map(|j| {
                let var = k.variance - qb[j] + qw[j];
                (self.pi[j] - 0.5) * mu[j] - 0.5 * self.theta[j] * (mu[j] * mu[j] + var)
            })
            .sum();
        let value = data - kl_whitened(self.m_w, self.r);
        Ok(Pieces {
            l,
            kzz,
            kzx,
            b,
            mu,
            value,
        })
    }

    /// J(λ).
    pub fn value(&self, k: Rbf) -> Result<f64> {
        Ok(self.pieces(k)?.value)
    }

    /// J(λ) and its gradient with respect to (log v, log l).
    pub fn gradient(&self, k: Rbf) -> Result<(f64, [f64; 2])> {
        let p = self.pieces(k)?;
        let (mm, n) = (p.b.nrows(), p.b.ncols());
        let g: Vec<f64> = (0..n)
            .map(|j| (self.pi[j] - 0.5) - self.theta[j] * p.mu[j])
            .collect();
        let h: Vec<f64> = (0..n).map(|j| -0.5 * self.theta[j]).collect();
        // S_w B = R⁻ᵀ R⁻¹ B
        let mut sb = p.b.clone();
        solve_l(self.r.as_ref(), sb.as_mut(), par_wide());
        solve_lt(self.r.as_ref(), sb.as_mut(), par_wide());
        let e = Mat::from_fn(mm, n, |i, j| {
            self.m_w[i] * g[j] + 2.0 * (sb[(i, j)] - p.b[(i, j)]) * h[j]
        });
        // G_zx = L⁻ᵀ E
        let mut gzx = e.clone();
        solve_lt(p.l.as_ref(), gzx.as_mut(), par_wide());
        // T from W = E Bᵀ; G_zz = L⁻ᵀ T L⁻¹
        let w = mul(e.as_ref(), p.b.transpose());
        let t = Mat::from_fn(mm, mm, |i, j| if i >= j { w[(i, j)] } else { w[(j, i)] });
        let mut y = t;
        solve_lt(p.l.as_ref(), y.as_mut(), Par::Seq);
        let mut gzz = y.transpose().to_owned();
        solve_lt(p.l.as_ref(), gzz.as_mut(), Par::Seq);
        let dj = |pzz: &Mat<f64>, pzx: &Mat<f64>| {
            contract(pzx.as_ref(), gzx.as_ref()) - 0.5 * contract(pzz.as_ref(), gzz.as_ref())
        };
        // ∂K/∂log v = K; ∂K/∂log l = K ∘ ‖x − x'‖²/(2l) = −K ∘ ln(K/v)
        let dlog_l = |km: &Mat<f64>| {
            Mat::from_fn(km.nrows(), km.ncols(), |i, j| {
                let v = km[(i, j)];
                if v > 0.0 {
                    -v * (v / k.variance).ln()
                } else {
                    0.0
                }
            })
        };
        let gv = dj(&p.kzz, &p.kzx) + k.variance * h.iter().sum::<f64>();
        let gl = dj(&dlog_l(&p.kzz), &dlog_l(&p.kzx));
        Ok((p.value, [gv, gl]))
    }
}

/// Moves the kernel by `ks.steps` backtracking gradient steps on J with q(v) fixed, then rebuilds
/// the set-up (L, B, k̃) for the new kernel.
pub(crate) fn update_kernel(
    setup: &mut Setup,
    m_w: &[f64],
    r: &Mat<f64>,
    pi: &[f64],
    theta: &[f64],
    ks: KernelSteps,
    jitter: f64,
) -> Result<()> {
    let obj = KernelObjective {
        z: &setup.z,
        x: &setup.xs,
        d: setup.d(),
        m_w,
        r,
        pi,
        theta,
        jitter,
    };
    let mut k = setup.kernel;
    let (mut val, mut grad) = obj.gradient(k)?;
    for _ in 0..ks.steps {
        let size = grad[0].abs() + grad[1].abs();
        if size.is_nan() || size <= 1e-12 {
            break;
        }
        // each log-parameter moves by up to η in the direction of its own partial derivative
        // (a diagonally preconditioned ascent direction: v and l have gradients of very different
        // size), halved until J increases
        let dir = [grad[0].signum(), grad[1].signum()];
        let mut eta = ks.step_size;
        let mut moved = false;
        while eta > ks.step_size / 256.0 {
            let cand = Rbf {
                variance: (k.variance.ln() + eta * dir[0]).exp(),
                lengthscale: (k.lengthscale.ln() + eta * dir[1]).exp(),
            };
            if let Ok(v) = obj.value(cand) {
                if v > val {
                    k = cand;
                    moved = true;
                    break;
                }
            }
            eta /= 2.0;
        }
        if !moved {
            break;
        }
        (val, grad) = obj.gradient(k)?;
    }
    setup.kernel = k;
    setup.rebuild(jitter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rand_distr::StandardNormal;

    #[test]
    fn gradient_matches_finite_differences() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let (d, mm, n) = (3, 6, 40);
        let z: Vec<f64> = (0..mm * d).map(|_| rng.sample(StandardNormal)).collect();
        let x: Vec<f64> = (0..n * d).map(|_| rng.sample(StandardNormal)).collect();
        let m: Vec<f64> = (0..mm).map(|_| rng.sample(StandardNormal)).collect();
        // a lower factor with a positive diagonal
        let r = Mat::from_fn(mm, mm, |i, j| {
            if i > j {
                0.3 * rng.sample::<f64, _>(StandardNormal)
            } else if i == j {
                1.0 + rng.random::<f64>()
            } else {
                0.0
            }
        });
        let pi: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
        let theta: Vec<f64> = (0..n).map(|_| 0.1 + 0.2 * rng.random::<f64>()).collect();
        let obj = KernelObjective {
            z: &z,
            x: &x,
            d,
            m_w: &m,
            r: &r,
            pi: &pi,
            theta: &theta,
            jitter: 1e-9,
        };
        for k in [
            Rbf {
                variance: 0.7,
                lengthscale: 2.0,
            },
            Rbf {
                variance: 1.9,
                lengthscale: 0.6,
            },
        ] {
            let (_, g) = obj.gradient(k).unwrap();
            let h = 1e-5;
            let at = |dv: f64, dl: f64| {
                obj.value(Rbf {
                    variance: k.variance * dv.exp(),
                    lengthscale: k.lengthscale * dl.exp(),
                })
                .unwrap()
            };
            let fv = (at(h, 0.0) - at(-h, 0.0)) / (2.0 * h);
            let fl = (at(0.0, h) - at(0.0, -h)) / (2.0 * h);
            assert!(
                (g[0] - fv).abs() < 1e-5 * (1.0 + fv.abs()),
                "log v: {} vs {fv}",
                g[0]
            );
            assert!(
                (g[1] - fl).abs() < 1e-5 * (1.0 + fl.abs()),
                "log l: {} vs {fl}",
                g[1]
            );
        }
    }
}
