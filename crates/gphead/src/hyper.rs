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
//! J is evaluated without forming `B` (M×N) or solving with it: with `a = L⁻ᵀ m_w`,
//! `μ = K_xz a`, and `Σ_n θ_n b_nᵀ (I − S_w) b_n = tr((I − S_w) G_w)`, `G_w = L⁻¹ G L⁻ᵀ`,
//! `G = K_zx Θ K_xz`, the data enter through one M×M product per kernel and the rest is M×M work:
//!
//! `J = Σ (π_n − ½) μ_n − ½ Σ θ_n μ_n² − ½ v Σ θ_n + ½ tr((I − S_w) G_w) − KL`.
//!
//! The gradient is analytic. With `g_n = (π_n − ½) − θ_n μ_n` and `C = L⁻ᵀ (I − S_w) L⁻¹`, the
//! derivative with respect to `K_zx` is `a gᵀ + C K_zx Θ`; contracted with `∂K_zx` it is
//! `aᵀ ∂K_zx g + tr((I − S_w) L⁻¹ (∂K_zx Θ K_xz) L⁻ᵀ)` — one more M×M product for log l, none for
//! log v (`∂K_zx = K_zx`). Through `K_zz` (the derivative of the Cholesky factor,
//! `dL = L Φ(L⁻¹ dK L⁻ᵀ)`): `−½ Σ (L⁻ᵀ T L⁻¹) ∘ ∂K_zz` with `W = m_w (L⁻¹ K_zx g)ᵀ + (I − S_w) G_w`
//! and `T = tril(W) + tril(W)ᵀ − diag(W)`; and `−½ v Σ θ_n` for log v.
//! Each step moves every log-parameter by η in the direction of its partial derivative (sign
//! steps: the two partials differ by orders of magnitude), halving η until J increases, so J never
//! decreases. No inverse is formed: every `L⁻¹`, `S_w` is a triangular solve, of M×M matrices
//! only. Each value costs one M×M×N product (`G`), each gradient two. The sums over instances are
//! taken a block of [`BLOCK`] instances at a time, the squared distances and `K_zx` recomputed
//! per block (M×D×N, small beside the products), so no M×N matrix is held: the update's memory
//! does not grow with N beyond the O(N) vectors it is given.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};

use crate::error::Result;
use crate::fitloop::{kl_whitened, Setup};
use crate::kernel::{sq_dists, Rbf};
use crate::linalg::{a_v, at_v, cholesky, col_mat, gram_onto, par_wide, solve_l, solve_lt};

pub use crate::params::KernelSteps;

/// Instances per block of the sums over instances (M×4096 f64 temporaries: 1.6 MB at M = 50).
pub const BLOCK: usize = 4096;

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
    /// `‖z_i − x_n‖²` (M×N) when the caller holds them (a fit's training basis); else they are
    /// computed a block at a time for every value.
    pub dists: Option<MatRef<'a, f64>>,
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

fn trace(a: MatRef<'_, f64>) -> f64 {
    (0..a.nrows()).map(|i| a[(i, i)]).sum()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `f(column j of a, column j of the result)` for every column: a new matrix, through column
/// slices (faer's element-wise `clone` and `to_owned` index every element).
fn map_cols(a: &Mat<f64>, mut f: impl FnMut(usize, &[f64], &mut [f64])) -> Mat<f64> {
    let mut out = Mat::<f64>::zeros(a.nrows(), a.ncols());
    for j in 0..a.ncols() {
        f(j, a.col_as_slice(j), out.col_as_slice_mut(j));
    }
    out
}

fn copy(a: &Mat<f64>) -> Mat<f64> {
    map_cols(a, |_, s, d| d.copy_from_slice(s))
}

/// The transpose of a square matrix.
fn transposed(a: &Mat<f64>) -> Mat<f64> {
    map_cols(a, |j, _, d| {
        for (i, v) in d.iter_mut().enumerate() {
            *v = a.col_as_slice(i)[j];
        }
    })
}

/// `L⁻¹ X L⁻ᵀ` by two triangular solves.
fn sandwich(l: MatRef<'_, f64>, x: &Mat<f64>) -> Mat<f64> {
    let mut y = copy(x);
    solve_l(l, y.as_mut(), Par::Seq);
    let mut w = transposed(&y);
    solve_l(l, w.as_mut(), Par::Seq);
    transposed(&w)
}

/// What every evaluation shares: the inducing points' squared distances and the terms free of the
/// kernel.
struct Prepared<'a> {
    obj: &'a KernelObjective<'a>,
    /// ‖z_i − z_j‖² (M×M).
    dzz: Mat<f64>,
    sum_theta: f64,
    kl: f64,
    /// Instances per block of the sums over instances.
    block: usize,
}

/// One kernel's terms of J.
struct Terms {
    l: Mat<f64>,
    kzz: Mat<f64>,
    a: Vec<f64>,
    /// `(I − S_w) G_w`.
    ag: Mat<f64>,
    value: f64,
}

/// The sums over instances of one kernel's J (and, when asked, of its gradient), with
/// `a = L⁻ᵀ m_w`, `μ_n = k_nᵀ a` and `g_n = (π_n − ½) − θ_n μ_n`.
struct Sums {
    /// `Σ (π_n − ½) μ_n − ½ θ_n μ_n²`.
    data: f64,
    /// `G = K_zx Θ K_xz`.
    g: Mat<f64>,
    /// `K_zx g`, `(K ∘ D / 2l) g` and `(K ∘ D / 2l) Θ K_xz`: the gradient's (zero without it).
    kg: Vec<f64>,
    kd_g: Vec<f64>,
    h: Mat<f64>,
}

impl Prepared<'_> {
    /// `(I − S_w) X` for an M×M `X`.
    fn minus_sw(&self, x: &Mat<f64>) -> Mat<f64> {
        let r = self.obj.r.as_ref();
        let mut sx = copy(x);
        solve_l(r, sx.as_mut(), Par::Seq);
        solve_lt(r, sx.as_mut(), Par::Seq);
        map_cols(x, |j, xc, d| {
            for ((d, x), s) in d.iter_mut().zip(xc).zip(sx.col_as_slice(j)) {
                *d = x - s;
            }
        })
    }

    /// The sums over instances, a block of instances at a time.
    fn sums(&self, k: Rbf, a: &[f64], gradient: bool) -> Sums {
        let o = self.obj;
        let (mm, n, d) = (a.len(), o.pi.len(), o.d);
        let s = 1.0 / (2.0 * k.lengthscale);
        let mut out = Sums {
            data: 0.0,
            g: Mat::zeros(mm, mm),
            kg: vec![0.0; mm],
            kd_g: vec![0.0; mm],
            h: Mat::zeros(mm, mm),
        };
        for start in (0..n).step_by(self.block) {
            let end = (start + self.block).min(n);
            let computed;
            let dzx = match o.dists {
                Some(all) => all.subcols(start, end - start),
                None => {
                    computed = sq_dists(o.z, &o.x[start * d..end * d], d, par_wide());
                    computed.as_ref()
                }
            };
            let kzx = k.of_sq_dists(dzx);
            let theta = &o.theta[start..end];
            let mu = at_v(kzx.as_ref(), a);
            out.data += mu
                .iter()
                .enumerate()
                .map(|(j, &m)| (o.pi[start + j] - 0.5) * m - 0.5 * theta[j] * m * m)
                .sum::<f64>();
            out.g = gram_onto(
                std::mem::replace(&mut out.g, Mat::zeros(0, 0)),
                kzx.as_ref(),
                theta,
                par_wide(),
            );
            if !gradient {
                continue;
            }
            let g: Vec<f64> = (0..end - start)
                .map(|j| (o.pi[start + j] - 0.5) - theta[j] * mu[j])
                .collect();
            for (acc, v) in out.kg.iter_mut().zip(a_v(kzx.as_ref(), &g)) {
                *acc += v;
            }
            // (K ∘ D) Θ, and (K ∘ D) g summed on the way (one M×block temporary)
            let kdt = map_cols(&kzx, |j, kc, out_col| {
                for (((dst, kv), d2), acc) in out_col
                    .iter_mut()
                    .zip(kc)
                    .zip(dzx.col(j).iter())
                    .zip(out.kd_g.iter_mut())
                {
                    let kd = kv * d2 * s;
                    *acc += kd * g[j];
                    *dst = kd * theta[j];
                }
            });
            matmul(
                out.h.as_mut(),
                Accum::Add,
                kdt.as_ref(),
                kzx.transpose(),
                1.0,
                par_wide(),
            );
        }
        out
    }

    fn terms(&self, k: Rbf, gradient: bool) -> Result<(Terms, Sums)> {
        let o = self.obj;
        let kzz = k.of_sq_dists(self.dzz.as_ref());
        let (l, _) = cholesky(kzz.as_ref(), o.jitter, "K_zz")?;
        let mut a = col_mat(o.m_w);
        solve_lt(l.as_ref(), a.as_mut(), Par::Seq);
        let a: Vec<f64> = a.col_as_slice(0).to_vec();
        let sums = self.sums(k, &a, gradient);
        let ag = self.minus_sw(&sandwich(l.as_ref(), &sums.g));
        let value =
            sums.data - 0.5 * k.variance * self.sum_theta + 0.5 * trace(ag.as_ref()) - self.kl;
        Ok((
            Terms {
                l,
                kzz,
                a,
                ag,
                value,
            },
            sums,
        ))
    }

    fn value(&self, k: Rbf) -> Result<f64> {
        Ok(self.terms(k, false)?.0.value)
    }

    fn gradient(&self, k: Rbf) -> Result<(f64, [f64; 2])> {
        let o = self.obj;
        let (t, sums) = self.terms(k, true)?;
        let mm = t.kzz.nrows();
        // through K_zx: log v (∂K = K) and log l (∂K = K ∘ ‖z − x‖²/(2l))
        let kg = sums.kg;
        let zx_v = dot(&t.a, &kg) + trace(t.ag.as_ref());
        let s = 1.0 / (2.0 * k.lengthscale);
        let zx_l =
            dot(&t.a, &sums.kd_g) + trace(self.minus_sw(&sandwich(t.l.as_ref(), &sums.h)).as_ref());
        // through K_zz: G_zz = L⁻ᵀ T L⁻¹
        let mut bg = col_mat(&kg);
        solve_l(t.l.as_ref(), bg.as_mut(), Par::Seq);
        let w = Mat::from_fn(mm, mm, |i, j| o.m_w[i] * bg[(j, 0)] + t.ag[(i, j)]);
        let tt = Mat::from_fn(mm, mm, |i, j| if i >= j { w[(i, j)] } else { w[(j, i)] });
        let mut y = tt;
        solve_lt(t.l.as_ref(), y.as_mut(), Par::Seq);
        let mut gzz = transposed(&y);
        solve_lt(t.l.as_ref(), gzz.as_mut(), Par::Seq);
        let kzz_l = Mat::from_fn(mm, mm, |i, j| t.kzz[(i, j)] * self.dzz[(i, j)] * s);
        let gv =
            zx_v - 0.5 * contract(t.kzz.as_ref(), gzz.as_ref()) - 0.5 * k.variance * self.sum_theta;
        let gl = zx_l - 0.5 * contract(kzz_l.as_ref(), gzz.as_ref());
        Ok((t.value, [gv, gl]))
    }
}

impl KernelObjective<'_> {
    fn prepare(&self) -> Prepared<'_> {
        self.prepare_in_blocks(BLOCK)
    }

    /// [`prepare`](Self::prepare) with the sums over instances taken `block` instances at a time
    /// (at least one).
    fn prepare_in_blocks(&self, block: usize) -> Prepared<'_> {
        Prepared {
            obj: self,
            dzz: sq_dists(self.z, self.z, self.d, Par::Seq),
            sum_theta: self.theta.iter().sum(),
            kl: kl_whitened(self.m_w, self.r),
            block: block.max(1),
        }
    }

    /// J(λ).
    pub fn value(&self, k: Rbf) -> Result<f64> {
        self.prepare().value(k)
    }

    /// J(λ) and its gradient with respect to (log v, log l).
    pub fn gradient(&self, k: Rbf) -> Result<(f64, [f64; 2])> {
        self.prepare().gradient(k)
    }
}

/// Moves the kernel by `ks.steps` backtracking gradient steps on J with q(v) fixed, then rebuilds
/// the set-up (L, B, k̃) for the new kernel.
///
/// Each search starts at twice the step that last succeeded in this fit (at most
/// `ks.step_size`), not at the full step every time: near the optimum the full step overshoots
/// and was halved up to seven times, a value of J each, every epoch. A search that finds no
/// increase down to `ks.step_size / 128` ends the epoch's steps, and the next epoch starts one
/// doubling above where it ended.
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
        x: &setup.train.xs,
        d: setup.d(),
        m_w,
        r,
        pi,
        theta,
        jitter,
        dists: setup.train.dists(),
    };
    let obj = obj.prepare();
    let mut k = setup.kernel;
    let smallest = ks.step_size / 128.0;
    let mut last = setup.kernel_step.unwrap_or(ks.step_size);
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
        let mut eta = (2.0 * last).min(ks.step_size).max(smallest);
        let mut moved = false;
        while eta >= smallest {
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
        last = eta.max(smallest);
        if !moved {
            break;
        }
        (val, grad) = obj.gradient(k)?;
    }
    setup.kernel_step = Some(last);
    setup.kernel = k;
    setup.rebuild(jitter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rand_distr::StandardNormal;

    fn mul(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
        let mut c = Mat::<f64>::zeros(a.nrows(), b.ncols());
        matmul(c.as_mut(), Accum::Replace, a, b, 1.0, par_wide());
        c
    }

    /// J and its gradient as they were computed before (2026-11-23), through `B = L⁻¹ K_zx`
    /// (M×N) and column-wise triangular solves: an independent formulation to check against.
    fn reference(o: &KernelObjective<'_>, k: Rbf) -> (f64, [f64; 2]) {
        use crate::linalg::{col_sq_norms, solved_col_sq_norms};
        let kzz = k.cross(o.z, o.z, o.d, Par::Seq);
        let (l, _) = cholesky(kzz.as_ref(), o.jitter, "K_zz").unwrap();
        let kzx = k.cross(o.z, o.x, o.d, Par::Seq);
        let mut b = kzx.clone();
        solve_l(l.as_ref(), b.as_mut(), Par::Seq);
        let (mm, n) = (b.nrows(), b.ncols());
        let mu = at_v(b.as_ref(), o.m_w);
        let qb = col_sq_norms(b.as_ref());
        let qw = solved_col_sq_norms(o.r.as_ref(), b.as_ref());
        let value = (0..n)
            .map(|j| {
                let var = k.variance - qb[j] + qw[j];
                (o.pi[j] - 0.5) * mu[j] - 0.5 * o.theta[j] * (mu[j] * mu[j] + var)
            })
            .sum::<f64>()
            - kl_whitened(o.m_w, o.r);
        let g: Vec<f64> = (0..n)
            .map(|j| (o.pi[j] - 0.5) - o.theta[j] * mu[j])
            .collect();
        let h: Vec<f64> = (0..n).map(|j| -0.5 * o.theta[j]).collect();
        let mut sb = b.clone();
        solve_l(o.r.as_ref(), sb.as_mut(), Par::Seq);
        solve_lt(o.r.as_ref(), sb.as_mut(), Par::Seq);
        let e = Mat::from_fn(mm, n, |i, j| {
            o.m_w[i] * g[j] + 2.0 * (sb[(i, j)] - b[(i, j)]) * h[j]
        });
        let mut gzx = e.clone();
        solve_lt(l.as_ref(), gzx.as_mut(), Par::Seq);
        let w = mul(e.as_ref(), b.transpose());
        let t = Mat::from_fn(mm, mm, |i, j| if i >= j { w[(i, j)] } else { w[(j, i)] });
        let mut y = t;
        solve_lt(l.as_ref(), y.as_mut(), Par::Seq);
        let mut gzz = y.transpose().to_owned();
        solve_lt(l.as_ref(), gzz.as_mut(), Par::Seq);
        let dj = |pzz: &Mat<f64>, pzx: &Mat<f64>| {
            contract(pzx.as_ref(), gzx.as_ref()) - 0.5 * contract(pzz.as_ref(), gzz.as_ref())
        };
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
        let gv = dj(&kzz, &kzx) + k.variance * h.iter().sum::<f64>();
        let gl = dj(&dlog_l(&kzz), &dlog_l(&kzx));
        (value, [gv, gl])
    }

    /// A random problem: M inducing points, N instances in D dimensions, a random q(v), π, θ.
    struct Problem {
        d: usize,
        z: Vec<f64>,
        x: Vec<f64>,
        m: Vec<f64>,
        r: Mat<f64>,
        pi: Vec<f64>,
        theta: Vec<f64>,
    }

    impl Problem {
        fn new(seed: u64, d: usize, mm: usize, n: usize) -> Self {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
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
            Self {
                d,
                z,
                x,
                m,
                r,
                pi,
                theta,
            }
        }

        fn objective(&self) -> KernelObjective<'_> {
            KernelObjective {
                z: &self.z,
                x: &self.x,
                d: self.d,
                m_w: &self.m,
                r: &self.r,
                pi: &self.pi,
                theta: &self.theta,
                jitter: 1e-9,
                dists: None,
            }
        }
    }

    #[test]
    fn value_and_gradient_match_the_formulation_through_b() {
        for (seed, d, mm, n) in [(1, 3, 6, 40), (2, 8, 30, 300), (3, 2, 12, 25)] {
            let p = Problem::new(seed, d, mm, n);
            let obj = p.objective();
            for k in [
                Rbf {
                    variance: 0.5,
                    lengthscale: d as f64,
                },
                Rbf {
                    variance: 3.0,
                    lengthscale: 0.7,
                },
            ] {
                let (v, g) = obj.gradient(k).unwrap();
                let (rv, rg) = reference(&obj, k);
                let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + b.abs());
                assert!(close(v, rv), "value {v} vs {rv} ({seed})");
                assert!(close(obj.value(k).unwrap(), rv));
                assert!(close(g[0], rg[0]), "log v {} vs {} ({seed})", g[0], rg[0]);
                assert!(close(g[1], rg[1]), "log l {} vs {} ({seed})", g[1], rg[1]);
            }
        }
    }

    /// The sums over instances taken in blocks (of 7, of 64, and one block) give the reference's
    /// value and gradient, on problems with more instances than a block, a last block that is
    /// short, and one instance.
    #[test]
    fn blocks_of_instances_give_the_same_value_and_gradient() {
        for (seed, d, mm, n) in [(5, 3, 6, 40), (6, 8, 20, 131), (7, 2, 4, 1)] {
            let p = Problem::new(seed, d, mm, n);
            let obj = p.objective();
            let k = Rbf {
                variance: 1.3,
                lengthscale: 0.9 * d as f64,
            };
            let (rv, rg) = reference(&obj, k);
            for block in [7, 64, n.max(1)] {
                let prepared = obj.prepare_in_blocks(block);
                let (v, g) = prepared.gradient(k).unwrap();
                let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + b.abs());
                assert!(close(v, rv), "value {v} vs {rv} (block {block}, n {n})");
                assert!(close(prepared.value(k).unwrap(), rv), "block {block}");
                assert!(
                    close(g[0], rg[0]),
                    "log v {} vs {} (block {block})",
                    g[0],
                    rg[0]
                );
                assert!(
                    close(g[1], rg[1]),
                    "log l {} vs {} (block {block})",
                    g[1],
                    rg[1]
                );
            }
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let p = Problem::new(4, 3, 6, 40);
        let obj = p.objective();
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
