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
use crate::data::{MilData, Standardizer};
use crate::emax::{one_minus_emax, EmaxRule};
use crate::error::{GpError, Result};
use crate::kernel::Rbf;
use crate::kmeans::kmeans;
use crate::linalg::{
    a_v, at_v, cholesky, col_mat, col_sq_norms, identity_plus_weighted_gram, par_wide, solve_l,
    solve_lt, solved_col_sq_norms,
};
use crate::metrics::{log_likelihood, roc_auc};
use crate::model::GpModel;
use crate::predict::{bag_scores_closed_form, BagRule};
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
        if let Link::GVgpmil { alpha, beta } = self.link {
            if !(alpha > 0.0 && beta > 0.0) {
                return bad("G-VGPMIL needs α > 0 and β > 0");
            }
        }
        if let Some(k) = self.kernel {
            if !(k.variance > 0.0 && k.lengthscale > 0.0) {
                return bad("kernel variance and length scale must be > 0");
            }
        }
        if self.max_epochs == 0 {
            return bad("max_epochs must be ≥ 1");
        }
        Ok(())
    }
}

/// One epoch of the trace.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EpochTrace {
    pub epoch: usize,
    /// The ELBO of the state entering the epoch (up to a constant), where defined.
    pub objective: Option<f64>,
    pub valid_bag_auc: Option<f64>,
    /// Validation bag log-likelihood (closed-form instance means, the model's bag rule): breaks
    /// ties of the AUC, which saturates on small validation sets.
    pub valid_bag_log_likelihood: Option<f64>,
    pub seconds: f64,
}

/// Validation score: bag AUC first, log-likelihood to break ties.
fn better(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 > b.0 + 1e-12 || ((a.0 - b.0).abs() <= 1e-12 && a.1 > b.1)
}

/// The result of a fit: the model, its trace, and the training π.
pub struct FitOutput {
    pub model: GpModel,
    pub trace: Vec<EpochTrace>,
    pub best_epoch: usize,
    pub setup_seconds: f64,
    pub pi: Vec<f64>,
    pub pi_initial: Vec<f64>,
}

/// The covariance factor of q(v).
#[derive(Clone)]
enum Cov {
    /// S_w = I (the prior).
    Identity,
    /// S = I in u-space: S_w = L⁻¹L⁻ᵀ.
    UpstreamIdentity,
    /// S_w = (R Rᵀ)⁻¹.
    Chol(Mat<f64>),
}

/// Chooses the inducing points (z-scored units).
fn inducing_points(p: &VgpmilParams, data: &MilData, xs: &[f64]) -> Vec<f64> {
    if let Some(z) = &p.inducing_points {
        return z.clone();
    }
    let d = data.d;
    if !p.balanced_inducing {
        return kmeans(xs, d, p.inducing, p.kmeans_iters, p.seed);
    }
    let mut pos = Vec::new();
    let mut neg = Vec::new();
    for i in 0..data.n {
        let dst = if data.bags[data.bag_of[i]].label == 1 {
            &mut pos
        } else {
            &mut neg
        };
        dst.extend_from_slice(&xs[i * d..(i + 1) * d]);
    }
    if pos.is_empty() || neg.is_empty() {
        return kmeans(xs, d, p.inducing, p.kmeans_iters, p.seed);
    }
    let kp = p.inducing / 2;
    let mut z = kmeans(&pos, d, kp.max(1), p.kmeans_iters, p.seed);
    z.extend(kmeans(
        &neg,
        d,
        (p.inducing - kp).max(1),
        p.kmeans_iters,
        p.seed.wrapping_add(1),
    ));
    z
}

/// `diag(Bᵀ S_w B)` for the current covariance.
fn quad_diag(cov: &Cov, b: MatRef<'_, f64>, l: MatRef<'_, f64>) -> Vec<f64> {
    match cov {
        Cov::Identity => col_sq_norms(b),
        Cov::UpstreamIdentity => {
            let mut a = b.to_owned();
            solve_lt(l, a.as_mut(), par_wide());
            col_sq_norms(a.as_ref())
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

/// The state's ELBO (up to a constant): Σ(π−½)μ + Σ log ψ(c) + log H Σ_b (2T−1) E\[max y_b\]
/// plus the entropy of q(y), minus KL(q(u) ‖ p(u)).
fn objective<P: Psi>(psi: &P, data: &MilData, h: f64, st: &State<'_>) -> f64 {
    let State { mu, c, pi, m_w, r } = *st;
    let fit: f64 = (0..data.n)
        .map(|n| (pi[n] - 0.5) * mu[n] + psi.log_psi(c[n]))
        .sum();
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
    let m = m_w.len();
    let mut rinv = Mat::<f64>::identity(m, m);
    solve_l(r.as_ref(), rinv.as_mut(), Par::Seq);
    let tr: f64 = col_sq_norms(rinv.as_ref()).iter().sum();
    let logdet_sw: f64 = -2.0 * (0..m).map(|i| r[(i, i)].ln()).sum::<f64>();
    let kl = 0.5 * (tr + m_w.iter().map(|v| v * v).sum::<f64>() - m as f64 - logdet_sw);
    fit + bag + ent - kl
}

type Best = ((f64, f64), usize, Vec<f64>, Mat<f64>, Vec<f64>);

/// Fits ψ-VGPMIL on `train`, early-stopping on `valid` bag AUC when given.
pub fn fit(params: &VgpmilParams, train: &MilData, valid: Option<&MilData>) -> Result<FitOutput> {
    params.validate()?;
    match params.link {
        Link::Vgpmil => fit_with(&HyperbolicSecant, params, train, valid),
        Link::GVgpmil { alpha, beta } => {
            fit_with(&GammaMixing { alpha, beta }, params, train, valid)
        }
    }
}

fn fit_with<P: Psi>(
    psi: &P,
    p: &VgpmilParams,
    train: &MilData,
    valid: Option<&MilData>,
) -> Result<FitOutput> {
    let t0 = Instant::now();
    if train.n == 0 {
        return Err(GpError::Data("no training instances".into()));
    }
    if let Some(v) = valid {
        if v.d != train.d {
            return Err(GpError::Dimension {
                expected: train.d,
                found: v.d,
            });
        }
    }
    let d = train.d;
    let std = Standardizer::fit(train);
    let xs = std.apply(train);
    let kernel = p.kernel.unwrap_or_else(|| Rbf::initial(d));
    let z = inducing_points(p, train, &xs);
    let m = z.len() / d;
    let kzz = kernel.cross(&z, &z, d, Par::Seq);
    let (l, kzz_jitter) = cholesky(kzz.as_ref(), p.jitter, "K_zz")?;
    let mut b = kernel.cross(&z, &xs, d, par_wide());
    solve_l(l.as_ref(), b.as_mut(), par_wide());
    let ktilde: Vec<f64> = col_sq_norms(b.as_ref())
        .iter()
        .map(|q| (kernel.variance - q).max(0.0))
        .collect();
    // validation: B_v = L⁻¹ K(Z, X_v)
    let valid_b = valid.map(|v| {
        let mut bv = kernel.cross(&z, &std.apply(v), d, par_wide());
        solve_l(l.as_ref(), bv.as_mut(), par_wide());
        bv
    });
    let setup_seconds = t0.elapsed().as_secs_f64();

    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    let mut pi: Vec<f64> = (0..train.n).map(|_| rng.random_range(0.0..0.1)).collect();
    let pi_initial = pi.clone();
    let (mut m_w, mut cov) = match p.init {
        Init::Prior => (vec![0.0; m], Cov::Identity),
        Init::Upstream => {
            let u: Vec<f64> = (0..m).map(|_| rng.sample(StandardNormal)).collect();
            let mut mw = col_mat(&u);
            solve_l(l.as_ref(), mw.as_mut(), Par::Seq);
            ((0..m).map(|i| mw[(i, 0)]).collect(), Cov::UpstreamIdentity)
        }
    };
    let labels: Vec<f64> = train
        .bags
        .iter()
        .map(|b| 2.0 * b.label as f64 - 1.0)
        .collect();
    let log_h = p.h.ln();
    let mut trace = Vec::new();
    // (validation score, epoch, m_w, R, π) of the best epoch so far
    let mut best: Option<Best> = None;
    let mut since_best = 0;
    let mut last_mu: Option<Vec<f64>> = None;
    let mut best_epoch = 0;
    for epoch in 0..p.max_epochs {
        let te = Instant::now();
        // 1. moments of q(f) under the current q(u)
        let mu = at_v(b.as_ref(), &m_w);
        let quad = quad_diag(&cov, b.as_ref(), l.as_ref());
        let c: Vec<f64> = (0..train.n)
            .map(|n| (mu[n] * mu[n] + ktilde[n] + quad[n]).sqrt())
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
        let q = identity_plus_weighted_gram(b.as_ref(), &theta, par_wide());
        let (r, _) = cholesky(q.as_ref(), p.jitter, "precision of q(u)")?;
        // 4. m_w = S_w B (π − ½)
        let centred: Vec<f64> = pi.iter().map(|v| v - 0.5).collect();
        let mut rhs = col_mat(&a_v(b.as_ref(), &centred));
        solve_l(r.as_ref(), rhs.as_mut(), Par::Seq);
        solve_lt(r.as_ref(), rhs.as_mut(), Par::Seq);
        m_w = (0..m).map(|i| rhs[(i, 0)]).collect();
        cov = Cov::Chol(r);
        // 5. π with μ from the new m
        let mu_new = at_v(b.as_ref(), &m_w);
        let mut new_pi = vec![0.0; train.n];
        let updates: Vec<(usize, Vec<f64>)> = train
            .bags
            .par_iter()
            .enumerate()
            .map(|(bi, bag)| {
                let bp: Vec<f64> = bag.instances.iter().map(|&i| pi[i]).collect();
                let mut ome = vec![0.0; bp.len()];
                one_minus_emax(&bp, p.emax, &mut ome);
                let v = bag
                    .instances
                    .iter()
                    .zip(&ome)
                    .map(|(&i, &o)| sigmoid(mu_new[i] + log_h * labels[bi] * o))
                    .collect();
                (bi, v)
            })
            .collect();
        for (bi, v) in updates {
            for (&i, pv) in train.bags[bi].instances.iter().zip(v) {
                new_pi[i] = pv;
            }
        }
        let dpi = pi
            .iter()
            .zip(&new_pi)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        pi = new_pi;
        // validation
        let Cov::Chol(r) = &cov else {
            unreachable!("set above")
        };
        let (valid_auc, valid_ll) = match (valid, &valid_b) {
            (Some(v), Some(bv)) => {
                let scores = validation_scores(
                    bv.as_ref(),
                    r.as_ref(),
                    &m_w,
                    kernel.variance,
                    v,
                    p.bag_rule,
                );
                let l = v.bag_labels();
                (roc_auc(&l, &scores), Some(log_likelihood(&l, &scores)))
            }
            _ => (None, None),
        };
        trace.push(EpochTrace {
            epoch,
            objective: obj,
            valid_bag_auc: valid_auc,
            valid_bag_log_likelihood: valid_ll,
            seconds: te.elapsed().as_secs_f64(),
        });
        tracing::debug!(epoch, ?obj, ?valid_auc, "epoch");
        if valid.is_some() {
            let score = (
                valid_auc.unwrap_or(f64::NEG_INFINITY),
                valid_ll.unwrap_or(f64::NEG_INFINITY),
            );
            if best.as_ref().is_none_or(|b| better(score, b.0)) {
                best = Some((score, epoch, m_w.clone(), r.clone(), pi.clone()));
                best_epoch = epoch;
                since_best = 0;
            } else {
                since_best += 1;
                if since_best >= p.patience {
                    break;
                }
            }
        } else {
            best_epoch = epoch;
            let dmu = last_mu
                .as_ref()
                .map(|lm| {
                    lm.iter()
                        .zip(&mu_new)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f64::max)
                })
                .unwrap_or(f64::INFINITY);
            if dpi < p.tol && dmu < p.tol {
                break;
            }
            last_mu = Some(mu_new);
        }
    }
    let (r, pi) = match best {
        Some((_, _, mw, r, bpi)) => {
            m_w = mw;
            (r, bpi)
        }
        None => match cov {
            Cov::Chol(r) => (r, pi),
            _ => unreachable!("at least one epoch ran"),
        },
    };
    let best_valid = trace
        .get(best_epoch)
        .and_then(|t| t.valid_bag_auc.zip(t.valid_bag_log_likelihood));
    let model = GpModel::new(
        p, kernel, std, z, kzz_jitter, l, m_w, r, train, best_epoch, best_valid,
    );
    Ok(FitOutput {
        model,
        trace,
        best_epoch,
        setup_seconds,
        pi,
        pi_initial,
    })
}

/// Closed-form bag scores of validation data from whitened quantities.
fn validation_scores(
    bv: MatRef<'_, f64>,
    r: MatRef<'_, f64>,
    m_w: &[f64],
    v: f64,
    data: &MilData,
    rule: BagRule,
) -> Vec<f64> {
    let mu = at_v(bv, m_w);
    let qb = col_sq_norms(bv);
    let qw = solved_col_sq_norms(r, bv);
    let var: Vec<f64> = (0..mu.len())
        .map(|i| (v - qb[i] + qw[i]).max(1e-12))
        .collect();
    bag_scores_closed_form(&mu, &var, data, rule)
}
