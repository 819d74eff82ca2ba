//! ψ-VGPMIL (MODELS.md §3): one training loop, generic over θ, for VGPMIL and G-VGPMIL.
//!
//! The loop works in whitened coordinates. With `K_zz = L Lᵀ` and `B = L⁻¹ K_zx` (M×N):
//! `u = L v`, `q(v) = N(m_w, S_w)`, so `m = L m_w`, `S = L S_w Lᵀ` and `A = L⁻ᵀ B`. Then
//! `μ = Bᵀ m_w`, `σ² = k̃ + diag(Bᵀ S_w B)`, `S_w = (I + B Θ Bᵀ)⁻¹ = (R Rᵀ)⁻¹` and
//! `m_w = S_w B (π − ½)` — the same updates as eqs. 23–28 (S = (AΘAᵀ + K_zz⁻¹)⁻¹ and
//! m = S A (π − ½)), with one Cholesky of a well-conditioned matrix (≥ I) per epoch and no inverse.

use std::time::Instant;

use faer::{Mat, MatRef, Par};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::calibrate::sigmoid;
use crate::common::{Setup, Snapshot, Tracker};
use crate::data::MilData;
use crate::emax::{one_minus_emax, EmaxRule};
use crate::error::{GpError, Result};
use crate::kernel::Rbf;
use crate::linalg::{
    a_v, at_v, cholesky, col_mat, col_sq_norms, identity_plus_weighted_gram, par_wide, solve_l,
    solve_lt, solved_col_sq_norms,
};

use crate::model::GpModel;
use crate::predict::BagRule;
use crate::theta::{GammaMixing, HyperbolicSecant, Link, Psi};

/// Initial q(u) and q(y).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Init {
    /// q(u) = p(u) (m = 0, S = K_zz); π ~ U(0, 0.1).
    #[default]
    Prior,
    /// As the upstream code: m ~ N(0, I), S = I, π ~ U(0, 0.1).
    Upstream,
}

/// Hyper-parameters of ψ-VGPMIL (defaults of the paper / MODELS.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VgpmilParams {
    pub link: Link,
    /// Number of inducing points M.
    pub inducing: usize,
    /// Half of the inducing points from instances of positive bags, half from negative bags
    /// (upstream); otherwise k-means over all instances.
    pub balanced_inducing: bool,
    /// Explicit inducing points (M×D row-major, in z-scored units) instead of k-means.
    #[serde(skip)]
    pub inducing_points: Option<Vec<f64>>,
    /// Kernel; `None` → (v, l) = (0.5, D).
    pub kernel: Option<Rbf>,
    /// The bag-likelihood constant H (paper 100).
    pub h: f64,
    pub emax: EmaxRule,
    pub init: Init,
    pub max_epochs: usize,
    /// Early stopping: epochs without a better validation bag AUC.
    pub patience: usize,
    /// Without validation data: stop when π and μ move less than this.
    pub tol: f64,
    pub seed: u64,
    /// Initial relative jitter of the Cholesky factorisations.
    pub jitter: f64,
    /// Bag rule for the validation metric (and the model's default).
    pub bag_rule: BagRule,
    pub kmeans_iters: usize,
    /// Kernel hyper-parameter estimation between the variational updates (ψ-VGPMIL only).
    pub kernel_steps: Option<crate::hyper::KernelSteps>,
}

impl Default for VgpmilParams {
    fn default() -> Self {
        Self {
            link: Link::Vgpmil,
            inducing: 100,
            balanced_inducing: true,
            inducing_points: None,
            kernel: None,
            h: 100.0,
            emax: EmaxRule::Product,
            init: Init::Prior,
            max_epochs: 200,
            patience: 10,
            tol: 1e-6,
            seed: 0,
            jitter: 1e-6,
            bag_rule: BagRule::default(),
            kmeans_iters: 25,
            kernel_steps: None,
        }
    }
}

impl VgpmilParams {
    pub fn validate(&self) -> Result<()> {
        let bad = |s: &str| Err(GpError::Param(s.to_string()));
        if self.inducing == 0 && self.inducing_points.is_none() {
            return bad("the number of inducing points must be ≥ 1");
        }
        if !(self.h > 1.0 && self.h.is_finite()) {
            return bad("H must be > 1");
        }
        match self.link {
            Link::GVgpmil { alpha, beta } if !(alpha > 0.0 && beta > 0.0) => {
                return bad("G-VGPMIL needs α > 0 and β > 0");
            }
            Link::LmVgpmil { c, v } if !(c > 0.0 && v.is_finite()) => {
                return bad("LM-VGPMIL needs C > 0 and a finite V");
            }
            Link::ProbitGibbs {
                chains,
                samples,
                thin,
                ..
            } if chains == 0 || samples == 0 || thin == 0 => {
                return bad("the Gibbs sampler needs ≥ 1 chain, ≥ 1 sample and thinning ≥ 1");
            }
            _ => {}
        }
        if let Some(k) = self.kernel {
            if !(k.variance > 0.0 && k.lengthscale > 0.0) {
                return bad("kernel variance and length scale must be > 0");
            }
        }
        if self.max_epochs == 0 {
            return bad("max_epochs must be ≥ 1");
        }
        if self.kernel_steps.is_some() && self.link.theta(1.0).is_none() {
            return bad("kernel estimation is implemented for VGPMIL and G-VGPMIL only");
        }
        Ok(())
    }
}

pub use crate::common::EpochTrace;

/// The result of a fit: the model, its trace, and the training π.
pub struct FitOutput {
    pub model: GpModel,
    pub trace: Vec<EpochTrace>,
    pub best_epoch: usize,
    pub setup_seconds: f64,
    pub pi: Vec<f64>,
    pub pi_initial: Vec<f64>,
    /// Other local variables of the final state, by name (LM-VGPMIL: τ, ξ, φ).
    pub local: Vec<(&'static str, Vec<f64>)>,
}

/// The covariance factor of q(v).
#[derive(Clone)]
pub(crate) enum Cov {
    /// S_w = I (the prior).
    Identity,
    /// S given in u-space (upstream init S = I, or q(u) carried across a kernel update):
    /// `diag(Bᵀ S_w B) = ‖C_Sᵀ a_n‖²` with `S = C_S C_Sᵀ` and `A = L⁻ᵀ B`.
    USpace(Mat<f64>),
    /// S_w = (R Rᵀ)⁻¹.
    Chol(Mat<f64>),
}

/// `diag(Bᵀ S_w B)` for the current covariance.
pub(crate) fn quad_diag(cov: &Cov, b: MatRef<'_, f64>, l: MatRef<'_, f64>) -> Vec<f64> {
    match cov {
        Cov::Identity => col_sq_norms(b),
        Cov::USpace(cs) => {
            let mut a = b.to_owned();
            solve_lt(l, a.as_mut(), par_wide());
            let mut w = Mat::<f64>::zeros(a.nrows(), a.ncols());
            faer::linalg::matmul::matmul(
                w.as_mut(),
                faer::Accum::Replace,
                cs.transpose(),
                a.as_ref(),
                1.0,
                par_wide(),
            );
            col_sq_norms(w.as_ref())
        }
        Cov::Chol(r) => solved_col_sq_norms(r.as_ref(), b),
    }
}

/// The variational state the objective is evaluated at.
struct State<'a> {
    mu: &'a [f64],
    c: &'a [f64],
    pi: &'a [f64],
    m_w: &'a [f64],
    r: &'a Mat<f64>,
}

/// KL(q(v) ‖ N(0, I)) for q(v) = N(m_w, (R Rᵀ)⁻¹).
pub(crate) fn kl_whitened(m_w: &[f64], r: &Mat<f64>) -> f64 {
    let m = m_w.len();
    let mut rinv = Mat::<f64>::identity(m, m);
    solve_l(r.as_ref(), rinv.as_mut(), Par::Seq);
    let tr: f64 = col_sq_norms(rinv.as_ref()).iter().sum();
    let logdet_sw: f64 = -2.0 * (0..m).map(|i| r[(i, i)].ln()).sum::<f64>();
    0.5 * (tr + m_w.iter().map(|v| v * v).sum::<f64>() - m as f64 - logdet_sw)
}

/// Σ_b log H (2T_b − 1) E[max y_b] + H[q(y)]: the bag term and the entropy of q(y).
pub(crate) fn bag_term_and_entropy(data: &MilData, h: f64, pi: &[f64]) -> f64 {
    let bag: f64 = data
        .bags
        .iter()
        .map(|b| {
            let log_none: f64 = b.instances.iter().map(|&i| (-pi[i]).ln_1p()).sum();
            (2.0 * b.label as f64 - 1.0) * (1.0 - log_none.exp())
        })
        .sum::<f64>()
        * h.ln();
    let ent: f64 = pi
        .iter()
        .map(|&p| {
            let a = if p > 0.0 { -p * p.ln() } else { 0.0 };
            let b = if p < 1.0 {
                -(1.0 - p) * (1.0 - p).ln()
            } else {
                0.0
            };
            a + b
        })
        .sum();
    bag + ent
}

/// The state's ELBO (up to a constant): Σ(π−½)μ + Σ log ψ(c) + log H Σ_b (2T−1) E\[max y_b\]
/// plus the entropy of q(y), minus KL(q(u) ‖ p(u)).
fn objective<P: Psi>(psi: &P, data: &MilData, h: f64, st: &State<'_>) -> f64 {
    let State { mu, c, pi, m_w, r } = *st;
    let fit: f64 = (0..data.n)
        .map(|n| (pi[n] - 0.5) * mu[n] + psi.log_psi(c[n]))
        .sum();
    fit + bag_term_and_entropy(data, h, pi) - kl_whitened(m_w, r)
}

/// The π update of every instance: `σ(μ_n + extra_n + log H (2T_b − 1)(1 − E[max y_{b∖n}]))`,
/// E[max] from the previous π. Returns the new π.
pub(crate) fn update_pi(
    data: &MilData,
    pi: &[f64],
    drive: &[f64],
    log_h: f64,
    rule: EmaxRule,
) -> Vec<f64> {
    let mut new_pi = vec![0.0; data.n];
    let updates: Vec<(usize, Vec<f64>)> = data
        .bags
        .par_iter()
        .enumerate()
        .map(|(bi, bag)| {
            let sign = 2.0 * bag.label as f64 - 1.0;
            let bp: Vec<f64> = bag.instances.iter().map(|&i| pi[i]).collect();
            let mut ome = vec![0.0; bp.len()];
            one_minus_emax(&bp, rule, &mut ome);
            let v = bag
                .instances
                .iter()
                .zip(&ome)
                .map(|(&i, &o)| sigmoid(drive[i] + log_h * sign * o))
                .collect();
            (bi, v)
        })
        .collect();
    for (bi, v) in updates {
        for (&i, pv) in data.bags[bi].instances.iter().zip(v) {
            new_pi[i] = pv;
        }
    }
    new_pi
}

pub(crate) fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// `m_w = (R Rᵀ)⁻¹ B r`.
pub(crate) fn solve_mean(b: MatRef<'_, f64>, r: &Mat<f64>, rhs_n: &[f64]) -> Vec<f64> {
    let mut rhs = col_mat(&a_v(b, rhs_n));
    solve_l(r.as_ref(), rhs.as_mut(), Par::Seq);
    solve_lt(r.as_ref(), rhs.as_mut(), Par::Seq);
    (0..rhs.nrows()).map(|i| rhs[(i, 0)]).collect()
}

/// Fits any model on `train`, early-stopping on `valid` bag AUC when given.
pub fn fit(params: &VgpmilParams, train: &MilData, valid: Option<&MilData>) -> Result<FitOutput> {
    params.validate()?;
    match params.link {
        Link::Vgpmil => fit_psi(&HyperbolicSecant, params, train, valid),
        Link::GVgpmil { alpha, beta } => {
            fit_psi(&GammaMixing { alpha, beta }, params, train, valid)
        }
        Link::Probit => crate::probit::fit_vi(params, train, valid),
        Link::ProbitGibbs { .. } => crate::probit::fit_gibbs(params, train, valid),
        Link::LmVgpmil { c, v } => crate::lm::fit_lm(c, v, params, train, valid),
    }
}

fn fit_psi<P: Psi>(
    psi: &P,
    p: &VgpmilParams,
    train: &MilData,
    valid: Option<&MilData>,
) -> Result<FitOutput> {
    let mut setup = Setup::new(p, train, valid)?;
    let m = setup.m;
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    let mut pi: Vec<f64> = (0..train.n).map(|_| rng.random_range(0.0..0.1)).collect();
    let pi_initial = pi.clone();
    let (mut m_w, mut cov) = match p.init {
        Init::Prior => (vec![0.0; m], Cov::Identity),
        Init::Upstream => {
            let u: Vec<f64> = (0..m).map(|_| rng.sample(StandardNormal)).collect();
            let mut mw = col_mat(&u);
            solve_l(setup.l.as_ref(), mw.as_mut(), Par::Seq);
            (
                (0..m).map(|i| mw[(i, 0)]).collect(),
                Cov::USpace(Mat::identity(m, m)),
            )
        }
    };
    let log_h = p.h.ln();
    let mut tracker = Tracker::new(p, valid.is_some());
    let mut last_r = Mat::<f64>::identity(m, m);
    for epoch in 0..p.max_epochs {
        let te = Instant::now();
        let b = setup.b.as_ref();
        // 1. moments of q(f) under the current q(u)
        let mu = at_v(b, &m_w);
        let quad = quad_diag(&cov, b, setup.l.as_ref());
        let c: Vec<f64> = (0..train.n)
            .map(|n| (mu[n] * mu[n] + setup.ktilde[n] + quad[n]).sqrt())
            .collect();
        let obj = match &cov {
            Cov::Chol(r) => Some(objective(
                psi,
                train,
                p.h,
                &State {
                    mu: &mu,
                    c: &c,
                    pi: &pi,
                    m_w: &m_w,
                    r,
                },
            )),
            _ => None,
        };
        // 2. Θ
        let theta: Vec<f64> = c.iter().map(|&c| psi.theta(c)).collect();
        // 3. S_w = (I + BΘBᵀ)⁻¹ through its Cholesky factor
        let q = identity_plus_weighted_gram(b, &theta, par_wide());
        let (r, _) = cholesky(q.as_ref(), p.jitter, "precision of q(u)")?;
        // 4. m_w = S_w B (π − ½)
        let centred: Vec<f64> = pi.iter().map(|v| v - 0.5).collect();
        m_w = solve_mean(b, &r, &centred);
        // 5. π with μ from the new m
        let mu_new = at_v(b, &m_w);
        let new_pi = update_pi(train, &pi, &mu_new, log_h, p.emax);
        let dpi = max_abs_diff(&pi, &new_pi);
        pi = new_pi;
        cov = Cov::Chol(r.clone());
        // 6. (optional) kernel hyper-parameters, q(u) held fixed in u-space
        let mut kernel_after = None;
        if let Some(ks) = p.kernel_steps.filter(|ks| epoch >= ks.warmup) {
            let theta_now: Vec<f64> = {
                let quad = quad_diag(&cov, setup.b.as_ref(), setup.l.as_ref());
                (0..train.n)
                    .map(|n| psi.theta((mu_new[n] * mu_new[n] + setup.ktilde[n] + quad[n]).sqrt()))
                    .collect()
            };
            crate::hyper::update_kernel(&mut setup, &m_w, &r, &pi, &theta_now, ks, p.jitter)?;
            kernel_after = Some(setup.kernel);
        }
        let valid_score = valid.and_then(|v| match &cov {
            Cov::Chol(r) => setup.validation(&p.link, p.bag_rule, v, &m_w, r.as_ref()),
            _ => None,
        });
        let stop = tracker.step(
            epoch,
            obj,
            valid_score,
            te,
            || Snapshot {
                m_w: m_w.clone(),
                r: r.clone(),
                pi: pi.clone(),
                kernel: setup.kernel,
            },
            &mu_new,
            dpi,
            kernel_after,
        );
        last_r = r;
        if stop {
            break;
        }
    }
    let last = Snapshot {
        m_w,
        r: last_r,
        pi,
        kernel: setup.kernel,
    };
    let best = tracker.finish(last);
    finish(p, setup, best, tracker, train, pi_initial, Vec::new())
}

/// Builds the fitted model from the kept snapshot.
pub(crate) fn finish(
    p: &VgpmilParams,
    mut setup: Setup,
    best: Snapshot,
    tracker: Tracker,
    train: &MilData,
    pi_initial: Vec<f64>,
    local: Vec<(&'static str, Vec<f64>)>,
) -> Result<FitOutput> {
    if best.kernel != setup.kernel {
        setup.kernel = best.kernel;
        setup.rebuild(p.jitter)?;
    }
    let model = GpModel::new(
        p,
        setup.kernel,
        setup.std,
        setup.z,
        setup.kzz_jitter,
        setup.l,
        best.m_w,
        best.r,
        train,
        tracker.best_epoch,
        tracker.best_valid(),
    );
    Ok(FitOutput {
        model,
        trace: tracker.trace,
        best_epoch: tracker.best_epoch,
        setup_seconds: setup.setup_seconds,
        pi: best.pi,
        pi_initial,
        local,
    })
}
