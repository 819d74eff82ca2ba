//! What every model's fit shares, written once: z-scoring, inducing points, `L` and
//! `B = L⁻¹K_zx` ([`Setup`]), the covariance of q(v) and its quadratic forms, the KL term, the
//! mean solve, the π update of the ψ models, the validation score, early stopping and the trace
//! ([`Tracker`]), the epoch loop itself ([`run_epochs`]) and the fitted model ([`finish`]).

use std::time::Instant;

use faer::{Mat, MatRef, Par};
use serde::{Deserialize, Serialize};

use rayon::prelude::*;

use crate::basis::{held_bytes, BRef, Basis, Whitening};
use crate::data::{MilData, Standardizer};
use crate::emax::{one_minus_emax, EmaxRule};
use crate::error::{GpError, Result};
use crate::kernel::Rbf;
use crate::kmeans::kmeans;
use crate::linalg::{cholesky, col_mat, col_sq_norms, solve_l, solve_lt};
use crate::metrics::{log_likelihood, roc_auc};
use crate::model::{GpModel, ModelParts};
use crate::params::ValidParams;
use crate::predict::{bag_scores_closed_form, BagRule};
use crate::spec::Model;
use crate::special::sigmoid;

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
    /// Kernel after the epoch (changes only with kernel estimation).
    pub kernel: Option<Rbf>,
    pub seconds: f64,
}

/// Kernel matrices of a fit.
pub(crate) struct Setup {
    pub std: Standardizer,
    pub kernel: Rbf,
    /// Inducing points, M×D row-major, z-scored units.
    pub z: Vec<f64>,
    pub m: usize,
    pub l: Mat<f64>,
    pub kzz_jitter: f64,
    /// The training instances (standardised) and their `B = L⁻¹ K_zx` (M×N).
    pub train: Basis,
    /// `k̃_n = v − ‖b_n‖²` (FITC diagonal).
    pub ktilde: Vec<f64>,
    /// The validation instances and their `B_v = L⁻¹ K(Z, X_v)`.
    pub valid: Option<Basis>,
    /// Whether the B matrices are held whole (within the fit's `b_memory`) or recomputed a
    /// block at a time.
    pub hold: bool,
    /// Whether the training instances' squared distances to the inducing points are kept too
    /// (with B, and both within `b_memory`), for the kernel steps' trials and rebuilds.
    pub keep_dists: bool,
    /// The last kernel step's size in log space, where the next search starts
    /// ([`crate::hyper::update_kernel`]).
    pub kernel_step: Option<f64>,
    pub setup_seconds: f64,
}

/// Chooses the inducing points (z-scored units).
fn inducing_points(p: &ValidParams, data: &MilData, xs: &[f64]) -> Vec<f64> {
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

impl Setup {
    pub fn new(p: &ValidParams, train: &MilData, valid: Option<&MilData>) -> Result<Self> {
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
        let std = Standardizer::fit(train);
        let xs = std.apply(train);
        let init = Rbf::initial(train.d);
        let kernel = Rbf {
            variance: p.variance.unwrap_or(init.variance),
            lengthscale: p.lengthscale.unwrap_or(init.lengthscale),
        };
        let z = inducing_points(p, train, &xs);
        let m = z.len() / train.d;
        let instances = train.n + valid.map_or(0, |v| v.n);
        let hold = held_bytes(instances, m) <= p.b_memory;
        // the distances only serve kernel steps
        let keep_dists =
            hold && p.kernel_steps.is_some() && held_bytes(instances + train.n, m) <= p.b_memory;
        if !hold {
            tracing::info!(
                instances,
                inducing = m,
                mib = held_bytes(instances, m) >> 20,
                limit_mib = p.b_memory >> 20,
                "B is recomputed a block of instances at a time (it would not fit the limit)"
            );
        }
        let valid = valid.map(|v| Basis::new(std.apply(v)));
        let mut s = Setup {
            m,
            std,
            kernel,
            z,
            l: Mat::zeros(0, 0),
            kzz_jitter: 0.0,
            train: Basis::new(xs),
            ktilde: Vec::new(),
            valid,
            hold,
            keep_dists,
            kernel_step: None,
            setup_seconds: 0.0,
        };
        s.rebuild(p.jitter)?;
        s.setup_seconds = t0.elapsed().as_secs_f64();
        Ok(s)
    }

    pub fn d(&self) -> usize {
        self.z.len() / self.m
    }

    /// (Re)computes `L`, `B`, `k̃` and `B_v` for the current kernel. The old B are dropped before
    /// the new ones are made (one M×N matrix at a time, not two); if `K_zz` cannot be factorised
    /// the set-up is left as it was.
    pub fn rebuild(&mut self, jitter: f64) -> Result<()> {
        let d = self.d();
        let kzz = self.kernel.cross(&self.z, &self.z, d, Par::Seq);
        let (l, j) = cholesky(kzz.as_ref(), jitter, "K_zz")?;
        self.train.release();
        if let Some(v) = self.valid.as_mut() {
            v.release();
        }
        self.l = l;
        self.kzz_jitter = j;
        let w = Whitening {
            kernel: self.kernel,
            z: &self.z,
            l: self.l.as_ref(),
            d,
        };
        self.train.build(&w, self.hold, self.keep_dists);
        self.ktilde = self
            .train
            .with(w)
            .col_sq_norms()
            .iter()
            .map(|q| (self.kernel.variance - q).max(0.0))
            .collect();
        if let Some(v) = self.valid.as_mut() {
            v.build(&w, self.hold, false);
        }
        Ok(())
    }

    fn whitening(&self) -> Whitening<'_> {
        Whitening {
            kernel: self.kernel,
            z: &self.z,
            l: self.l.as_ref(),
            d: self.d(),
        }
    }

    /// `B` of the training instances.
    pub fn b(&self) -> BRef<'_> {
        self.train.with(self.whitening())
    }

    /// `B_v` of the validation instances, if any.
    pub fn b_valid(&self) -> Option<BRef<'_>> {
        self.valid.as_ref().map(|v| v.with(self.whitening()))
    }

    /// Validation (bag AUC, bag log-likelihood) of the state (m_w, R).
    pub fn validation(
        &self,
        model: &Model,
        rule: BagRule,
        data: &MilData,
        m_w: &[f64],
        r: MatRef<'_, f64>,
    ) -> Option<(f64, f64)> {
        let bv = self.b_valid()?;
        let mu = bv.at_v(m_w);
        let qb = bv.col_sq_norms();
        let qw = bv.solved_col_sq_norms(r);
        let var: Vec<f64> = (0..mu.len())
            .map(|i| (self.kernel.variance - qb[i] + qw[i]).max(1e-12))
            .collect();
        let scores = bag_scores_closed_form(&mu, &var, data, rule, model.squash());
        let l = data.bag_labels();
        Some((roc_auc(&l, &scores)?, log_likelihood(&l, &scores)))
    }
}

/// Early stopping's comparison of two validation scores `(bag AUC, bag log-likelihood)`: the
/// log-likelihood first, the AUC to break ties. The log-likelihood is a proper scoring rule that
/// moves with every epoch; the AUC of 15–20 validation bags saturates at 1 within an epoch or two
/// and then only falls by whole swapped pairs, so stopping on it kept barely trained models
/// (docs/GPHEAD.md).
pub(crate) fn better(a: (f64, f64), b: (f64, f64)) -> bool {
    a.1 > b.1 + 1e-12 || ((a.1 - b.1).abs() <= 1e-12 && a.0 > b.0)
}

/// One epoch as the tracker records it.
pub(crate) struct EpochRecord<'a> {
    pub epoch: usize,
    /// The ELBO of the state entering the epoch, where defined.
    pub objective: Option<f64>,
    /// Validation (bag AUC, bag log-likelihood).
    pub valid: Option<(f64, f64)>,
    pub started: Instant,
    /// Training latent means after the epoch.
    pub mu: &'a [f64],
    /// Largest change of the local variables (π, E[m], τ).
    pub dlocal: f64,
    /// Kernel after the epoch, when kernel estimation moved it.
    pub kernel: Option<Rbf>,
}

/// The state kept for the best epoch.
#[derive(Clone)]
pub(crate) struct Snapshot {
    pub m_w: Vec<f64>,
    pub r: Mat<f64>,
    pub pi: Vec<f64>,
    pub kernel: Rbf,
}

/// Early stopping on validation bag log-likelihood (ties: AUC) with patience, or convergence of
/// the latent means without validation data; the trace.
pub(crate) struct Tracker {
    patience: usize,
    tol: f64,
    has_valid: bool,
    pub trace: Vec<EpochTrace>,
    best: Option<((f64, f64), Snapshot)>,
    since_best: usize,
    last_mu: Option<Vec<f64>>,
    pub best_epoch: usize,
}

impl Tracker {
    pub fn new(p: &ValidParams, has_valid: bool) -> Self {
        Self {
            patience: p.patience,
            tol: p.tol,
            has_valid,
            trace: Vec::new(),
            best: None,
            since_best: 0,
            last_mu: None,
            best_epoch: 0,
        }
    }

    /// Records an epoch; returns true when training should stop. `state` makes the snapshot
    /// kept when the epoch is the best so far.
    pub fn step(&mut self, e: EpochRecord<'_>, state: impl FnOnce() -> Snapshot) -> bool {
        let EpochRecord {
            epoch,
            objective,
            valid,
            started,
            mu,
            dlocal,
            kernel,
        } = e;
        self.trace.push(EpochTrace {
            epoch,
            objective,
            valid_bag_auc: valid.map(|v| v.0),
            valid_bag_log_likelihood: valid.map(|v| v.1),
            kernel,
            seconds: started.elapsed().as_secs_f64(),
        });
        tracing::debug!(epoch, ?objective, ?valid, "epoch");
        if self.has_valid {
            let score = valid.unwrap_or((f64::NEG_INFINITY, f64::NEG_INFINITY));
            if self.best.as_ref().is_none_or(|b| better(score, b.0)) {
                self.best = Some((score, state()));
                self.best_epoch = epoch;
                self.since_best = 0;
                false
            } else {
                self.since_best += 1;
                self.since_best >= self.patience
            }
        } else {
            self.best_epoch = epoch;
            let dmu = self
                .last_mu
                .as_ref()
                .map(|lm| max_abs_diff(lm, mu))
                .unwrap_or(f64::INFINITY);
            self.last_mu = Some(mu.to_vec());
            dlocal < self.tol && dmu < self.tol
        }
    }

    /// The best snapshot, or `last` when there was no validation data.
    pub fn finish(&mut self, last: Snapshot) -> Snapshot {
        match self.best.take() {
            Some((_, s)) => s,
            None => last,
        }
    }

    pub fn best_valid(&self) -> Option<(f64, f64)> {
        let t = self.trace.get(self.best_epoch)?;
        t.valid_bag_auc.zip(t.valid_bag_log_likelihood)
    }
}

/// What one epoch of a model's loop hands to [`run_epochs`].
pub(crate) struct Epoch {
    /// The ELBO of the state entering the epoch, where defined.
    pub objective: Option<f64>,
    /// The state after the epoch.
    pub state: Snapshot,
    /// Training latent means after the epoch.
    pub mu: Vec<f64>,
    /// Largest change of the local variables.
    pub dlocal: f64,
    /// Kernel after the epoch, when kernel estimation moved it.
    pub kernel: Option<Rbf>,
}

/// The epoch loop every iterative model runs, written once: `epoch` does one epoch's updates;
/// each epoch is scored on the validation bags (closed-form instance means, the bag rule),
/// traced, and early stopping decides. Returns the kept snapshot (the best on validation, else
/// the last) and the tracker.
pub(crate) fn run_epochs(
    p: &ValidParams,
    setup: &mut Setup,
    valid: Option<&MilData>,
    mut epoch: impl FnMut(usize, &mut Setup) -> Result<Epoch>,
) -> Result<(Snapshot, Tracker)> {
    let mut tracker = Tracker::new(p, valid.is_some());
    let mut last = None;
    for k in 0..p.max_epochs {
        let started = Instant::now();
        let e = epoch(k, setup)?;
        let vs = valid.and_then(|v| {
            setup.validation(&p.model, p.bag_rule, v, &e.state.m_w, e.state.r.as_ref())
        });
        let stop = tracker.step(
            EpochRecord {
                epoch: k,
                objective: e.objective,
                valid: vs,
                started,
                mu: &e.mu,
                dlocal: e.dlocal,
                kernel: e.kernel,
            },
            || e.state.clone(),
        );
        last = Some(e.state);
        if stop {
            break;
        }
    }
    let last = last.ok_or_else(|| GpError::Param("max_epochs must be ≥ 1".into()))?;
    Ok((tracker.finish(last), tracker))
}

pub(crate) fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// `m_w = (R Rᵀ)⁻¹ B r`.
pub(crate) fn solve_mean(b: BRef<'_>, r: &Mat<f64>, rhs_n: &[f64]) -> Vec<f64> {
    let mut rhs = col_mat(&b.a_v(rhs_n));
    solve_l(r.as_ref(), rhs.as_mut(), Par::Seq);
    solve_lt(r.as_ref(), rhs.as_mut(), Par::Seq);
    (0..rhs.nrows()).map(|i| rhs[(i, 0)]).collect()
}

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
    /// S_w = (R Rᵀ)⁻¹.
    Chol(Mat<f64>),
}

/// `diag(Bᵀ S_w B)` for the current covariance.
pub(crate) fn quad_diag(cov: &Cov, b: BRef<'_>) -> Vec<f64> {
    match cov {
        Cov::Identity => b.col_sq_norms(),
        Cov::Chol(r) => b.solved_col_sq_norms(r.as_ref()),
    }
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

/// Builds the fitted model from the kept snapshot.
pub(crate) fn finish(
    p: &ValidParams,
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
    let model = GpModel::new(ModelParts {
        params: p,
        kernel: setup.kernel,
        standardizer: setup.std,
        z: setup.z,
        kzz_jitter: setup.kzz_jitter,
        l: setup.l,
        m_w: best.m_w,
        r: best.r,
        train,
        best_epoch: tracker.best_epoch,
        valid: tracker.best_valid(),
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::FitParams;

    fn snapshot(tag: f64) -> Snapshot {
        Snapshot {
            m_w: vec![tag],
            r: Mat::identity(1, 1),
            pi: vec![tag],
            kernel: Rbf {
                variance: 0.5,
                lengthscale: 1.0,
            },
        }
    }

    /// Validation AUC reaches 1 at the first epoch and then loses a swapped pair while the
    /// validation log-likelihood keeps improving for three epochs: the kept epoch is the last of
    /// those (stopping on the AUC with patience 2 stopped at epoch 2 and kept epoch 0), and
    /// patience counts from it.
    #[test]
    fn stops_on_the_validation_log_likelihood() {
        let p = FitParams {
            patience: 2,
            ..FitParams::default()
        }
        .validate()
        .unwrap();
        let mut t = Tracker::new(&p, true);
        let scores = [
            (1.0, -0.60),
            (0.98, -0.45),
            (0.98, -0.40),
            (0.98, -0.35),
            (1.0, -0.36),
            (1.0, -0.35),
            (0.96, -0.50),
            (0.96, -0.55),
        ];
        let mut stopped = None;
        for (epoch, &s) in scores.iter().enumerate() {
            let rec = EpochRecord {
                epoch,
                objective: None,
                valid: Some(s),
                started: Instant::now(),
                mu: &[0.0],
                dlocal: 1.0,
                kernel: None,
            };
            if t.step(rec, || snapshot(epoch as f64)) {
                stopped = Some(epoch);
                break;
            }
        }
        // epoch 5 ties epoch 3's log-likelihood and wins on the AUC; epochs 6 and 7 are worse:
        // patience 2 stops at epoch 7
        assert_eq!(t.best_epoch, 5);
        assert_eq!(stopped, Some(7));
        assert_eq!(t.best_valid(), Some((1.0, -0.35)));
        assert_eq!(t.finish(snapshot(-1.0)).pi, vec![5.0]);
        assert!(better((0.9, -0.3), (1.0, -0.31)));
        assert!(!better((1.0, -0.31), (0.9, -0.3)));
    }
}
