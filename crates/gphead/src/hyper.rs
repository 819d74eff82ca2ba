//! Kernel hyper-parameter estimation for ψ-VGPMIL (MODELS.md §3 step 6, Algorithm 1 step 8).
//!
//! Between the variational updates, `λ = (log v, log l)` moves by gradient ascent on
//!
//! `J(λ) = −KL(q(u) ‖ p_λ(u)) + Σ_n [(π_n − ½) μ_n − ½ θ_n (μ_n² + σ_n²)]`
//!
//! with q(u) = N(m, S), π and θ_n = θ(c_n) held fixed, `μ_n = k_nᵀK⁻¹m` and
//! `σ_n² = v − k_nᵀK⁻¹k_n + k_nᵀK⁻¹SK⁻¹k_n`. The second sum is `Σ E_q(f_n)[log ψ(f_n)]` through
//! the same local bound the variational updates use (`log ψ(f) ≥ log ψ(c) − ½θ(c)(f² − c²)`, tight
//! at the current c), so J is the ELBO as a function of λ up to terms that do not depend on λ.
//! `log Z`, the normaliser the paper estimates with random Fourier features, is dropped, as the
//! authors' code does: for the logistic (VGPMIL) the bound is already normalised. The gradient is
//! analytic (see `gradient`); each step is a normalised gradient step with backtracking, so J never
//! decreases. No inverse is formed: every `K⁻¹` is a pair of triangular solves.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use serde::{Deserialize, Serialize};

use crate::common::Setup;
use crate::error::Result;
use crate::kernel::Rbf;
use crate::linalg::{cholesky, par_wide, solve_l, solve_lt};
use crate::vgpmil::Cov;

/// How many gradient steps per epoch, and their initial length in log space.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KernelSteps {
    pub steps: usize,
    pub step_size: f64,
}

impl Default for KernelSteps {
    fn default() -> Self {
        Self {
            steps: 5,
            step_size: 0.2,
        }
    }
}

/// J(λ) with q(u), π and θ fixed.
pub struct KernelObjective<'a> {
    /// Inducing points and standardised features, row-major.
    pub z: &'a [f64],
    pub x: &'a [f64],
    pub d: usize,
    /// q(u) = N(m, S) in u-space.
    pub m: &'a [f64],
    pub s: &'a Mat<f64>,
    pub pi: &'a [f64],
    pub theta: &'a [f64],
    pub jitter: f64,
}

fn mul(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    let mut c = Mat::<f64>::zeros(a.nrows(), b.ncols());
    matmul(c.as_mut(), Accum::Replace, a, b, 1.0, par_wide());
    c
}

/// `K⁻¹ X` through the Cholesky factor L.
fn kinv(l: &Mat<f64>, x: MatRef<'_, f64>) -> Mat<f64> {
    let mut y = x.to_owned();
    solve_l(l.as_ref(), y.as_mut(), par_wide());
    solve_lt(l.as_ref(), y.as_mut(), par_wide());
    y
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
    alpha: Mat<f64>,
    a: Mat<f64>,
    mu: Vec<f64>,
    value: f64,
}

impl KernelObjective<'_> {
    fn pieces(&self, k: Rbf) -> Result<Pieces> {
        let kzz = k.cross(self.z, self.z, self.d, Par::Seq);
        let (l, _) = cholesky(kzz.as_ref(), self.jitter, "K_zz")?;
        let kzx = k.cross(self.z, self.x, self.d, par_wide());
        let mm = self.m.len();
        let mcol = Mat::from_fn(mm, 1, |i, _| self.m[i]);
        let alpha = kinv(&l, mcol.as_ref());
        let a = kinv(&l, kzx.as_ref());
        let n = a.ncols();
        let mu: Vec<f64> = (0..n)
            .map(|j| (0..mm).map(|i| kzx[(i, j)] * alpha[(i, 0)]).sum())
            .collect();
        let sa = mul(self.s.as_ref(), a.as_ref());
        let kk: Vec<f64> = (0..n)
            .map(|j| (0..mm).map(|i| kzx[(i, j)] * a[(i, j)]).sum())
            .collect();
        let asa: Vec<f64> = (0..n)
            .map(|j| (0..mm).map(|i| a[(i, j)] * sa[(i, j)]).sum())
            .collect();
        let var: Vec<f64> = (0..n)
            .map(|j| (k.variance - kk[j] + asa[j]).max(0.0))
            .collect();
        // KL = ½[tr(K⁻¹S) + mᵀK⁻¹m − M + log|K| − log|S|]; log|S| does not depend on λ
        let mut ls = self.s.clone();
        solve_l(l.as_ref(), ls.as_mut(), Par::Seq);
        solve_lt(l.as_ref(), ls.as_mut(), Par::Seq);
        let tr: f64 = (0..mm).map(|i| ls[(i, i)]).sum();
        let quad: f64 = (0..mm).map(|i| self.m[i] * alpha[(i, 0)]).sum();
        let logdet: f64 = 2.0 * (0..mm).map(|i| l[(i, i)].ln()).sum::<f64>();
        let kl = 0.5 * (tr + quad - mm as f64 + logdet);
        let data: f64 = (0..n)
            .map(|j| (self.pi[j] - 0.5) * mu[j] - 0.5 * self.theta[j] * (mu[j] * mu[j] + var[j]))
            .sum();
        Ok(Pieces {
            l,
            kzz,
            kzx,
            alpha,
            a,
            mu,
            value: data - kl,
        })
    }

    /// J(λ).
    pub fn value(&self, k: Rbf) -> Result<f64> {
        Ok(self.pieces(k)?.value)
    }

    /// J(λ) and its gradient with respect to (log v, log l).
    pub fn gradient(&self, k: Rbf) -> Result<(f64, [f64; 2])> {
        let p = self.pieces(k)?;
        let (mm, n) = (p.a.nrows(), p.a.ncols());
        let g: Vec<f64> = (0..n)
            .map(|j| (self.pi[j] - 0.5) - self.theta[j] * p.mu[j])
            .collect();
        let h: Vec<f64> = (0..n).map(|j| -0.5 * self.theta[j]).collect();
        // C = K⁻¹ S A; Y = K⁻¹ S K⁻¹
        let c = kinv(&p.l, mul(self.s.as_ref(), p.a.as_ref()).as_ref());
        let ks = kinv(&p.l, self.s.as_ref());
        let y = kinv(&p.l, ks.transpose());
        // A H Aᵀ and A H Cᵀ (rank-N products)
        let ah = Mat::from_fn(mm, n, |i, j| p.a[(i, j)] * h[j]);
        let ahat = mul(ah.as_ref(), p.a.transpose());
        let ahct = mul(ah.as_ref(), c.transpose());
        let ag: Vec<f64> = (0..mm)
            .map(|i| (0..n).map(|j| p.a[(i, j)] * g[j]).sum())
            .collect();
        // G_x = α gᵀ + 2 (C − A) H
        let gx = Mat::from_fn(mm, n, |i, j| {
            p.alpha[(i, 0)] * g[j] + 2.0 * (c[(i, j)] - p.a[(i, j)]) * h[j]
        });
        let dj = |pzz: &Mat<f64>, pzx: &Mat<f64>| -> f64 {
            let kp = kinv(&p.l, pzz.as_ref());
            let tr_kp: f64 = (0..mm).map(|i| kp[(i, i)]).sum();
            let apa: f64 = (0..mm)
                .map(|i| {
                    (0..mm)
                        .map(|j| p.alpha[(i, 0)] * pzz[(i, j)] * p.alpha[(j, 0)])
                        .sum::<f64>()
                })
                .sum();
            let agpa: f64 = (0..mm)
                .map(|i| {
                    (0..mm)
                        .map(|j| ag[i] * pzz[(i, j)] * p.alpha[(j, 0)])
                        .sum::<f64>()
                })
                .sum();
            0.5 * (contract(pzz.as_ref(), y.as_ref()) + apa - tr_kp) - agpa
                + contract(pzz.as_ref(), ahat.as_ref())
                - 2.0 * contract(pzz.as_ref(), ahct.as_ref())
                + contract(pzx.as_ref(), gx.as_ref())
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

/// Moves the kernel by `ks.steps` backtracking gradient steps on J, with q(u) fixed in u-space,
/// rebuilds the set-up, and returns q(u) in the new whitened coordinates.
pub(crate) fn update_kernel(
    setup: &mut Setup,
    m_w: &[f64],
    r: &Mat<f64>,
    pi: &[f64],
    theta: &[f64],
    ks: KernelSteps,
    jitter: f64,
) -> Result<(Vec<f64>, Cov)> {
    let mm = setup.m;
    // q(u) in u-space: m = L m_w, S = L (R Rᵀ)⁻¹ Lᵀ = Fᵀ F with F = R⁻¹ Lᵀ
    let mwc = Mat::from_fn(mm, 1, |i, _| m_w[i]);
    let mcol = mul(setup.l.as_ref(), mwc.as_ref());
    let m: Vec<f64> = (0..mm).map(|i| mcol[(i, 0)]).collect();
    let mut f = setup.l.transpose().to_owned();
    solve_l(r.as_ref(), f.as_mut(), Par::Seq);
    let s = mul(f.transpose(), f.as_ref());
    let obj = KernelObjective {
        z: &setup.z,
        x: &setup.xs,
        d: setup.d(),
        m: &m,
        s: &s,
        pi,
        theta,
        jitter,
    };
    let mut k = setup.kernel;
    let (mut val, mut grad) = obj.gradient(k)?;
    for _ in 0..ks.steps {
        let norm = (grad[0] * grad[0] + grad[1] * grad[1]).sqrt();
        if !(norm > 1e-12) {
            break;
        }
        let mut eta = ks.step_size;
        let mut moved = false;
        while eta > ks.step_size / 256.0 {
            let cand = Rbf {
                variance: (k.variance.ln() + eta * grad[0] / norm).exp(),
                lengthscale: (k.lengthscale.ln() + eta * grad[1] / norm).exp(),
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
    setup.rebuild(jitter)?;
    // back to whitened coordinates: m_w = L'⁻¹ m; S_w⁻¹ = L'ᵀ S⁻¹ L' = Gᵀ G with G = C_S⁻¹ L'
    let mut mw = mcol;
    solve_l(setup.l.as_ref(), mw.as_mut(), Par::Seq);
    let (cs, _) = cholesky(s.as_ref(), 1e-10, "S")?;
    let mut gm = setup.l.clone();
    solve_l(cs.as_ref(), gm.as_mut(), Par::Seq);
    let prec = mul(gm.transpose(), gm.as_ref());
    let (rn, _) = cholesky(prec.as_ref(), 1e-10, "precision of q(u)")?;
    Ok(((0..mm).map(|i| mw[(i, 0)]).collect(), Cov::Chol(rn)))
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
        let f = Mat::from_fn(mm, mm, |i, j| {
            if i >= j {
                0.3 * rng.sample::<f64, _>(StandardNormal) + if i == j { 1.0 } else { 0.0 }
            } else {
                0.0
            }
        });
        let s = mul(f.as_ref(), f.transpose());
        let pi: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
        let theta: Vec<f64> = (0..n).map(|_| 0.1 + 0.2 * rng.random::<f64>()).collect();
        let obj = KernelObjective {
            z: &z,
            x: &x,
            d,
            m: &m,
            s: &s,
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
