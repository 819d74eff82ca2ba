//! What every model's fit shares: z-scoring, inducing points, `L` and `B = L⁻¹K_zx`, the
//! validation score, early stopping and the trace.

use std::time::Instant;

use faer::{Mat, MatRef, Par};
use serde::{Deserialize, Serialize};

use crate::data::{MilData, Standardizer};
use crate::error::{GpError, Result};
use crate::kernel::Rbf;
use crate::kmeans::kmeans;
use crate::linalg::{at_v, cholesky, col_sq_norms, par_wide, solve_l, solved_col_sq_norms};
use crate::metrics::{log_likelihood, roc_auc};
use crate::predict::{bag_scores_closed_form, BagRule};
use crate::theta::Link;
use crate::vgpmil::VgpmilParams;

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
    /// `B = L⁻¹ K_zx` (M×N).
    pub b: Mat<f64>,
    /// `k̃_n = v − ‖b_n‖²` (FITC diagonal).
    pub ktilde: Vec<f64>,
    /// Standardised training features (kept for kernel estimation).
    pub xs: Vec<f64>,
    /// Standardised validation features and `B_v = L⁻¹ K(Z, X_v)`.
    pub valid: Option<(Vec<f64>, Mat<f64>)>,
    pub setup_seconds: f64,
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

impl Setup {
    pub fn new(p: &VgpmilParams, train: &MilData, valid: Option<&MilData>) -> Result<Self> {
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
        let kernel = p.kernel.unwrap_or_else(|| Rbf::initial(train.d));
        let z = inducing_points(p, train, &xs);
        let mut s = Setup {
            m: z.len() / train.d,
            std,
            kernel,
            z,
            l: Mat::zeros(0, 0),
            kzz_jitter: 0.0,
            b: Mat::zeros(0, 0),
            ktilde: Vec::new(),
            valid: valid.map(|_| (Vec::new(), Mat::zeros(0, 0))),
            xs,
            setup_seconds: 0.0,
        };
        if let (Some(v), Some(slot)) = (valid, s.valid.as_mut()) {
            slot.0 = s.std.apply(v);
        }
        s.rebuild(p.jitter)?;
        s.setup_seconds = t0.elapsed().as_secs_f64();
        Ok(s)
    }

    pub fn d(&self) -> usize {
        self.z.len() / self.m
    }

    /// (Re)computes `L`, `B`, `k̃` and `B_v` for the current kernel.
    pub fn rebuild(&mut self, jitter: f64) -> Result<()> {
        let d = self.d();
        let kzz = self.kernel.cross(&self.z, &self.z, d, Par::Seq);
        let (l, j) = cholesky(kzz.as_ref(), jitter, "K_zz")?;
        let mut b = self.kernel.cross(&self.z, &self.xs, d, par_wide());
        solve_l(l.as_ref(), b.as_mut(), par_wide());
        self.ktilde = col_sq_norms(b.as_ref())
            .iter()
            .map(|q| (self.kernel.variance - q).max(0.0))
            .collect();
        if let Some((xv, bv)) = self.valid.as_mut() {
            let mut m = self.kernel.cross(&self.z, xv, d, par_wide());
            solve_l(l.as_ref(), m.as_mut(), par_wide());
            *bv = m;
        }
        self.l = l;
        self.kzz_jitter = j;
        self.b = b;
        Ok(())
    }

    /// Validation (bag AUC, bag log-likelihood) of the state (m_w, R).
    pub fn validation(
        &self,
        link: &Link,
        rule: BagRule,
        data: &MilData,
        m_w: &[f64],
        r: MatRef<'_, f64>,
    ) -> Option<(f64, f64)> {
        let (_, bv) = self.valid.as_ref()?;
        let mu = at_v(bv.as_ref(), m_w);
        let qb = col_sq_norms(bv.as_ref());
        let qw = solved_col_sq_norms(r, bv.as_ref());
        let var: Vec<f64> = (0..mu.len())
            .map(|i| (self.kernel.variance - qb[i] + qw[i]).max(1e-12))
            .collect();
        let scores = bag_scores_closed_form(&mu, &var, data, rule, link.squash());
        let l = data.bag_labels();
        Some((roc_auc(&l, &scores)?, log_likelihood(&l, &scores)))
    }
}

/// Validation score: bag AUC first, log-likelihood to break ties.
pub(crate) fn better(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 > b.0 + 1e-12 || ((a.0 - b.0).abs() <= 1e-12 && a.1 > b.1)
}

/// The state kept for the best epoch.
pub(crate) struct Snapshot {
    pub m_w: Vec<f64>,
    pub r: Mat<f64>,
    pub pi: Vec<f64>,
    pub kernel: Rbf,
}

/// Early stopping on validation bag AUC (ties: log-likelihood) with patience, or convergence of
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
    pub fn new(p: &VgpmilParams, has_valid: bool) -> Self {
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

    /// Records an epoch; returns true when training should stop. `mu` are the training latent
    /// means after the epoch and `dlocal` the largest change of the local variables (π, E[m]).
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        epoch: usize,
        objective: Option<f64>,
        valid: Option<(f64, f64)>,
        started: Instant,
        state: impl FnOnce() -> Snapshot,
        mu: &[f64],
        dlocal: f64,
        kernel: Option<Rbf>,
    ) -> bool {
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
                .map(|lm| {
                    lm.iter()
                        .zip(mu)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f64::max)
                })
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
