//! A fitted GP head and its versioned model file (format in docs/GPHEAD.md).

use std::path::Path;

use faer::{Mat, Par};
use serde::{Deserialize, Serialize};

use crate::calibrate::Platt;
use crate::data::{MilData, Standardizer};
use crate::emax::EmaxRule;
use crate::error::{GpError, Result};
use crate::kernel::Rbf;
use crate::linalg::{at_v, cholesky, col_sq_norms, par_wide, solve_l, solved_col_sq_norms};
use crate::params::{FitParams, ValidParams};
use crate::predict::{draws, summarise, BagDraws, BagRule, Predictions};
use crate::spec::Model;

/// Version of the model file; loading another version fails with a clear message.
pub const MODEL_VERSION: u32 = 1;
const FORMAT: &str = "ich-gphead";

/// Summary of the training data and fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingSummary {
    pub n_bags: usize,
    pub n_positive_bags: usize,
    pub n_instances: usize,
    pub best_epoch: usize,
    pub valid_bag_auc: Option<f64>,
    pub valid_bag_log_likelihood: Option<f64>,
    pub params: FitParams,
}

/// Convergence diagnostics of the Gibbs chains.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GibbsDiagnostics {
    pub chains: usize,
    pub draws_per_chain: usize,
    /// Largest split-R̂ over the components of v (≈ 1 when the chains agree).
    pub r_hat_max: f64,
    /// Smallest effective sample size over the components of v (all chains together).
    pub ess_min: f64,
    pub seconds: f64,
}

/// Posterior draws of the Gibbs sampler.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Draws {
    pub n: usize,
    pub v: Vec<f64>,
    pub diagnostics: GibbsDiagnostics,
}

/// A fitted GP head: everything a prediction needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GpModel {
    pub format: String,
    pub version: u32,
    /// Which model (written as `link` by earlier versions).
    #[serde(alias = "link")]
    pub model: Model,
    pub kernel: Rbf,
    /// Feature dimension D.
    pub d: usize,
    pub standardizer: Standardizer,
    /// M×D inducing points, z-scored units, row-major.
    pub inducing_points: Vec<f64>,
    /// Jitter added to K_zz (relative to its mean diagonal) for its Cholesky factor.
    pub kzz_jitter: f64,
    /// Whitened mean m_w of q(v), u = L v with K_zz = L Lᵀ.
    pub m_whitened: Vec<f64>,
    /// Lower Cholesky factor R of the whitened precision: S_w = (R Rᵀ)⁻¹ (M×M row-major).
    pub precision_factor: Vec<f64>,
    pub h: f64,
    pub emax: EmaxRule,
    pub bag_rule: BagRule,
    /// Platt scaling of bag probabilities, fitted on validation bags.
    pub calibration: Option<Platt>,
    /// A map of its own for the instance (slice) probabilities, fitted on bag labels by the
    /// multiple-instance likelihood ([`crate::calibrate::fit_instance_map`]); absent: instances
    /// share the bag map (which commutes with the max rule: bag = its most suspicious instance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice_calibration: Option<Platt>,
    /// MIL-GP-Probit Gibbs: draws of v (row-major, one row of M per draw) and diagnostics.
    /// Then `m_whitened` is their mean and `precision_factor` the factor of `I + B Bᵀ`, the
    /// precision of v given m that the sampler draws from; predictions average over the draws.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draws: Option<Draws>,
    pub training: TrainingSummary,
    /// L (not saved; rebuilt from the inducing points on load).
    #[serde(skip)]
    l: Option<Mat<f64>>,
}

/// [`GpModel::bag_and_instance_draws`]: per bag, the uncalibrated draws of its probability by
/// the bag rule, and its instances' uncalibrated mean probabilities.
pub struct BagAndInstanceDraws {
    pub bags: Vec<Vec<f64>>,
    pub instances: Vec<Vec<f64>>,
}

fn to_rows(m: &Mat<f64>) -> Vec<f64> {
    let mut v = Vec::with_capacity(m.nrows() * m.ncols());
    for i in 0..m.nrows() {
        for j in 0..m.ncols() {
            v.push(m[(i, j)]);
        }
    }
    v
}

/// What a fit hands over to build the model.
pub(crate) struct ModelParts<'a> {
    pub params: &'a ValidParams,
    pub kernel: Rbf,
    pub standardizer: Standardizer,
    /// Inducing points, M×D row-major, z-scored units.
    pub z: Vec<f64>,
    pub kzz_jitter: f64,
    pub l: Mat<f64>,
    pub m_w: Vec<f64>,
    pub r: Mat<f64>,
    pub train: &'a MilData,
    pub best_epoch: usize,
    /// Validation (bag AUC, bag log-likelihood) at the kept epoch.
    pub valid: Option<(f64, f64)>,
}

impl GpModel {
    pub(crate) fn new(parts: ModelParts<'_>) -> Self {
        let ModelParts {
            params: p,
            kernel,
            standardizer,
            z,
            kzz_jitter,
            l,
            m_w,
            r,
            train,
            best_epoch,
            valid,
        } = parts;
        Self {
            format: FORMAT.into(),
            version: MODEL_VERSION,
            model: p.model,
            kernel,
            d: train.d,
            standardizer,
            inducing_points: z,
            kzz_jitter,
            m_whitened: m_w,
            precision_factor: to_rows(&r),
            h: p.h,
            emax: p.emax,
            bag_rule: p.bag_rule,
            calibration: None,
            slice_calibration: None,
            draws: None,
            training: TrainingSummary {
                n_bags: train.bags.len(),
                n_positive_bags: train.bags.iter().filter(|b| b.label == 1).count(),
                n_instances: train.n,
                best_epoch,
                valid_bag_auc: valid.map(|v| v.0),
                valid_bag_log_likelihood: valid.map(|v| v.1),
                params: p.params().clone(),
            },
            l: Some(l),
        }
    }

    pub(crate) fn set_draws(&mut self, draws: Vec<Vec<f64>>, diagnostics: GibbsDiagnostics) {
        let n = draws.len();
        self.draws = Some(Draws {
            n,
            v: draws.into_iter().flatten().collect(),
            diagnostics,
        });
    }

    pub fn m(&self) -> usize {
        self.m_whitened.len()
    }

    fn r(&self) -> Mat<f64> {
        let m = self.m();
        Mat::from_fn(m, m, |i, j| self.precision_factor[i * m + j])
    }

    fn l(&self) -> Result<Mat<f64>> {
        if let Some(l) = &self.l {
            return Ok(l.clone());
        }
        let kzz = self.kernel.cross(
            &self.inducing_points,
            &self.inducing_points,
            self.d,
            Par::Seq,
        );
        let m = self.m();
        let scale = (0..m).map(|i| kzz[(i, i)]).sum::<f64>() / m as f64;
        let mut k = kzz;
        for i in 0..m {
            k[(i, i)] += self.kzz_jitter * scale;
        }
        Ok(cholesky(k.as_ref(), 1e-10, "K_zz")?.0)
    }

    /// The paper's q(u) = N(m, S): m = L m_w, S = L (R Rᵀ)⁻¹ Lᵀ.
    pub fn q_u(&self) -> Result<(Vec<f64>, Mat<f64>)> {
        let l = self.l()?;
        let mw = Mat::from_fn(self.m(), 1, |i, _| self.m_whitened[i]);
        let mut mv = Mat::<f64>::zeros(self.m(), 1);
        faer::linalg::matmul::matmul(
            mv.as_mut(),
            faer::Accum::Replace,
            l.as_ref(),
            mw.as_ref(),
            1.0,
            Par::Seq,
        );
        // C = R⁻¹ Lᵀ; S = Cᵀ C
        let mut c = l.transpose().to_owned();
        solve_l(self.r().as_ref(), c.as_mut(), Par::Seq);
        let s = c.transpose() * &c;
        Ok(((0..self.m()).map(|i| mv[(i, 0)]).collect(), s))
    }

    /// Standardised features and `B* = L⁻¹ K(Z, X*)`.
    fn b_star(&self, data: &MilData) -> Result<(Vec<f64>, Mat<f64>)> {
        if data.d != self.d {
            return Err(GpError::Dimension {
                expected: self.d,
                found: data.d,
            });
        }
        let xs = self.standardizer.apply(data);
        let l = self.l()?;
        let mut b = self
            .kernel
            .cross(&self.inducing_points, &xs, self.d, par_wide());
        solve_l(l.as_ref(), b.as_mut(), par_wide());
        Ok((xs, b))
    }

    /// Latent predictive moments `μ*`, `σ*²` of every instance (MODELS.md §4; for Gibbs, the
    /// mixture over the draws).
    pub fn latent(&self, data: &MilData) -> Result<(Vec<f64>, Vec<f64>)> {
        let (_, b) = self.b_star(data)?;
        let qb = col_sq_norms(b.as_ref());
        if let Some(dr) = &self.draws {
            let m = self.m();
            let (mut s1, mut s2) = (vec![0.0; data.n], vec![0.0; data.n]);
            for v in dr.v.chunks(m) {
                for (i, f) in at_v(b.as_ref(), v).into_iter().enumerate() {
                    s1[i] += f;
                    s2[i] += f * f;
                }
            }
            let k = dr.n as f64;
            let mu: Vec<f64> = s1.iter().map(|x| x / k).collect();
            let var = (0..data.n)
                .map(|i| {
                    (self.kernel.variance - qb[i] + (s2[i] / k - mu[i] * mu[i]).max(0.0)).max(1e-12)
                })
                .collect();
            return Ok((mu, var));
        }
        let mu = at_v(b.as_ref(), &self.m_whitened);
        let qw = solved_col_sq_norms(self.r().as_ref(), b.as_ref());
        let var = (0..data.n)
            .map(|i| (self.kernel.variance - qb[i] + qw[i]).max(1e-12))
            .collect();
        Ok((mu, var))
    }

    /// Instance and bag predictions: mean, standard deviation and 90 % interval of every
    /// probability from `samples` Monte Carlo draws (Gibbs: the stored draws). The calibration
    /// map, when fitted, is applied to every draw before summarising (module [`crate::predict`]);
    /// the instances' through their own map where the head has one
    /// ([`GpModel::slice_calibration`]), from the same draws.
    pub fn predict(&self, data: &MilData, samples: usize, seed: u64) -> Result<Predictions> {
        let (d, mu, var) = self.bag_draws(data, samples, seed)?;
        let squash = self.model.squash();
        let mut p = summarise(&d, data, &mu, &var, squash, self.calibration);
        if let Some(s) = self.slice_calibration {
            p.instances = summarise(&d, data, &mu, &var, squash, Some(s)).instances;
        }
        Ok(p)
    }

    /// The uncalibrated draws of every bag's probability by the model's bag rule, and every
    /// bag's instances' uncalibrated mean probabilities, from one set of draws: what a bag map
    /// and an instance map ([`crate::calibrate::fit_instance_map`]) are fitted on.
    pub fn bag_and_instance_draws(
        &self,
        data: &MilData,
        samples: usize,
        seed: u64,
    ) -> Result<BagAndInstanceDraws> {
        let (d, _, _) = self.bag_draws(data, samples, seed)?;
        Ok(BagAndInstanceDraws {
            bags: d.iter().map(|b| b.rule(self.bag_rule, None)).collect(),
            instances: d.iter().map(|b| b.instance_means()).collect(),
        })
    }

    /// As [`GpModel::predict`], without the calibration map.
    pub fn predict_uncalibrated(
        &self,
        data: &MilData,
        samples: usize,
        seed: u64,
    ) -> Result<Predictions> {
        let (d, mu, var) = self.bag_draws(data, samples, seed)?;
        Ok(summarise(&d, data, &mu, &var, self.model.squash(), None))
    }

    /// The uncalibrated predictions and those with `calib`, from one set of draws (an
    /// evaluation compares both), and those draws by the bag rule ([`GpModel::bag_rule_draws`]).
    pub fn predict_both(
        &self,
        data: &MilData,
        samples: usize,
        seed: u64,
        calib: Platt,
    ) -> Result<(Predictions, Predictions, Vec<Vec<f64>>)> {
        let (d, mu, var) = self.bag_draws(data, samples, seed)?;
        let squash = self.model.squash();
        Ok((
            summarise(&d, data, &mu, &var, squash, None),
            summarise(&d, data, &mu, &var, squash, Some(calib)),
            d.iter().map(|b| b.rule(self.bag_rule, None)).collect(),
        ))
    }

    /// The uncalibrated draws of every bag's probability by the model's bag rule: what a
    /// calibration map is fitted on ([`crate::calibrate::Platt::fit_toward`]).
    pub fn bag_rule_draws(
        &self,
        data: &MilData,
        samples: usize,
        seed: u64,
    ) -> Result<Vec<Vec<f64>>> {
        let (d, _, _) = self.bag_draws(data, samples, seed)?;
        Ok(d.iter().map(|b| b.rule(self.bag_rule, None)).collect())
    }

    /// Uncalibrated Monte Carlo draws of every bag, with the latent moments.
    fn bag_draws(
        &self,
        data: &MilData,
        samples: usize,
        seed: u64,
    ) -> Result<(Vec<BagDraws>, Vec<f64>, Vec<f64>)> {
        if self.draws.is_some() {
            return self.gibbs_draws(data);
        }
        let (mu, var) = self.latent(data)?;
        let mut d = draws(&mu, &var, data, samples, seed, self.model.squash());
        if self.model == Model::Probit {
            self.full_covariance(data, &mu, &mut d, samples, seed)?;
        }
        Ok((d, mu, var))
    }

    /// MIL-GP-Probit VI: bag probabilities from each bag's full latent covariance
    /// `Σ^F = K_bb − B_bᵀB_b + (R⁻¹B_b)ᵀ(R⁻¹B_b)`.
    fn full_covariance(
        &self,
        data: &MilData,
        mu: &[f64],
        d: &mut [BagDraws],
        samples: usize,
        seed: u64,
    ) -> Result<()> {
        use rand::SeedableRng;
        use rayon::prelude::*;
        let (xs, b) = self.b_star(data)?;
        let r = self.r();
        let dim = self.d;
        let out: Vec<Vec<f64>> = data
            .bags
            .par_iter()
            .enumerate()
            .map(|(k, bag)| {
                let nb = bag.instances.len();
                let bb = Mat::from_fn(b.nrows(), nb, |i, j| b[(i, bag.instances[j])]);
                let mut wb = bb.clone();
                solve_l(r.as_ref(), wb.as_mut(), Par::Seq);
                let xb: Vec<f64> = bag
                    .instances
                    .iter()
                    .flat_map(|&i| xs[i * dim..(i + 1) * dim].iter().copied())
                    .collect();
                let kbb = self.kernel.cross(&xb, &xb, dim, Par::Seq);
                let cov = &kbb - bb.transpose() * &bb + wb.transpose() * &wb;
                let mub: Vec<f64> = bag.instances.iter().map(|&i| mu[i]).collect();
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
                rng.set_stream(k as u64);
                crate::predict::full_covariance_bag(&mub, &cov, samples, &mut rng)
            })
            .collect();
        for (bd, f) in d.iter_mut().zip(out) {
            bd.full_cov = Some(f);
        }
        Ok(())
    }

    /// Gibbs: the stored draws of v. Given v the m* are independent, so an instance's
    /// probability is `Φ(μ_i(v)/√(1 + δ_i))` with `δ_i = v − ‖b*_i‖²`, and the full-covariance
    /// bag probability is the noisy-OR of those.
    fn gibbs_draws(&self, data: &MilData) -> Result<(Vec<BagDraws>, Vec<f64>, Vec<f64>)> {
        use crate::special::ndtr;
        let Some(dr) = self.draws.as_ref() else {
            return Err(GpError::Data("the model has no stored draws".into()));
        };
        let (_, b) = self.b_star(data)?;
        let qb = col_sq_norms(b.as_ref());
        let scale: Vec<f64> = qb
            .iter()
            .map(|q| (1.0 + (self.kernel.variance - q).max(0.0)).sqrt())
            .collect();
        let m = self.m();
        let n = data.n;
        let l = dr.n.max(1);
        let mut q = vec![0.0; n * l];
        let (mut f1, mut f2) = (vec![0.0; n], vec![0.0; n]);
        for (s, v) in dr.v.chunks(m).enumerate() {
            let f = at_v(b.as_ref(), v);
            for i in 0..n {
                q[i * l + s] = ndtr(f[i] / scale[i]);
                f1[i] += f[i];
                f2[i] += f[i] * f[i];
            }
        }
        let lf = l as f64;
        let mu: Vec<f64> = f1.iter().map(|x| x / lf).collect();
        let var: Vec<f64> = (0..n)
            .map(|i| {
                let fv = (f2[i] / lf - mu[i] * mu[i]).max(0.0);
                scale[i] * scale[i] - 1.0 + fv
            })
            .collect();
        let d = data
            .bags
            .iter()
            .map(|bag| {
                let ni = bag.instances.len();
                let mut p = Vec::with_capacity(ni * l);
                for &i in &bag.instances {
                    p.extend_from_slice(&q[i * l..(i + 1) * l]);
                }
                BagDraws {
                    ni,
                    l,
                    p,
                    full_cov: None,
                }
            })
            .collect();
        Ok((d, mu, var))
    }

    /// Writes the model as JSON, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let bytes = serde_json::to_vec(self).map_err(|e| GpError::Model {
            path: path.into(),
            detail: e.to_string(),
        })?;
        milbase::write_atomic(path, &bytes).map_err(|e| GpError::Io {
            path: path.into(),
            source: e,
        })
    }

    /// Reads a model, refusing other formats and versions.
    pub fn load(path: &Path) -> Result<Self> {
        // parsed as read: a file that is not JSON costs the bytes up to its first wrong one
        let reader = milbase::bounded::open_regular_reader(path, milbase::bounded::MAX_JSON)
            .map_err(|e| GpError::Io {
                path: path.into(),
                source: e,
            })?;
        let head: serde_json::Value =
            serde_json::from_reader(reader).map_err(|e| GpError::Model {
                path: path.into(),
                detail: e.to_string(),
            })?;
        if head.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(GpError::Model {
                path: path.into(),
                detail: "not an ich GP-head model".into(),
            });
        }
        let v = head.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
        if v != MODEL_VERSION as u64 {
            return Err(GpError::Model {
                path: path.into(),
                detail: format!(
                    "model version {v} is not supported (this build reads version {MODEL_VERSION})"
                ),
            });
        }
        let model: GpModel = serde_json::from_value(head).map_err(|e| GpError::Model {
            path: path.into(),
            detail: e.to_string(),
        })?;
        model.check_sizes().map_err(|detail| GpError::Model {
            path: path.into(),
            detail,
        })?;
        Ok(model)
    }

    /// Every stored matrix and vector has the size the dimension D and the M inducing points
    /// call for (a model file from elsewhere could say anything).
    fn check_sizes(&self) -> std::result::Result<(), String> {
        let d = self.d;
        if d == 0
            || self.inducing_points.is_empty()
            || !self.inducing_points.len().is_multiple_of(d)
        {
            return Err(format!(
                "{} inducing-point values do not make rows of D = {d}",
                self.inducing_points.len()
            ));
        }
        let m = self.inducing_points.len() / d;
        if self.m_whitened.len() != m {
            return Err(format!("{} mean values for M = {m}", self.m_whitened.len()));
        }
        if self.precision_factor.len() != m * m {
            return Err(format!(
                "precision factor of {} values for M = {m}",
                self.precision_factor.len()
            ));
        }
        let (mean, std) = (&self.standardizer.mean, &self.standardizer.std);
        if mean.len() != d || std.len() != d {
            return Err(format!(
                "feature standardisation of length {} / {} for D = {d}",
                mean.len(),
                std.len()
            ));
        }
        if std.iter().chain(mean).any(|v| !v.is_finite()) || std.iter().any(|&s| s <= 0.0) {
            return Err("feature standardisation with a non-finite or non-positive value".into());
        }
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        if !finite(&self.inducing_points) || !finite(&self.m_whitened) {
            return Err("non-finite inducing points or mean".into());
        }
        if !finite(&self.precision_factor)
            || (0..m).any(|i| self.precision_factor[i * m + i] == 0.0)
        {
            return Err(
                "precision factor with a non-finite value or a zero on its diagonal".into(),
            );
        }
        let k = &self.kernel;
        let positive = |v: f64| v > 0.0 && v.is_finite();
        if !positive(k.variance) || !positive(k.lengthscale) {
            return Err(format!(
                "kernel variance {} and squared length scale {} must be positive and finite",
                k.variance, k.lengthscale
            ));
        }
        if !(self.kzz_jitter >= 0.0 && self.kzz_jitter.is_finite()) {
            return Err(format!("jitter {} must be ≥ 0 and finite", self.kzz_jitter));
        }
        if !(self.h > 1.0 && self.h.is_finite()) {
            return Err(format!("H = {} must be > 1 and finite", self.h));
        }
        for c in self.calibration.iter().chain(&self.slice_calibration) {
            let slope = |x: f64| x > 0.0 && x.is_finite();
            if !(slope(c.a) && c.b.is_finite() && c.c.is_none_or(slope)) {
                return Err(format!(
                    "calibration a = {}, b = {}, c = {:?}: a and c must be positive, all finite",
                    c.a, c.b, c.c
                ));
            }
        }
        if let Some(dr) = &self.draws {
            if !finite(&dr.v) {
                return Err("non-finite Gibbs draws".into());
            }
            bounded("Gibbs draw", &dr.v, LIMITS.draws)?;
            if dr.v.len() != dr.n * m {
                return Err(format!(
                    "{} draw values for {} draws of M = {m}",
                    dr.v.len(),
                    dr.n
                ));
            }
        }
        // finite but absurd values (1e300 gave p = 1 with sd 1e-14): beyond what any fit makes
        let l = &LIMITS;
        bounded("inducing point", &self.inducing_points, l.inducing)?;
        bounded("whitened mean", &self.m_whitened, l.mean)?;
        bounded(
            "precision factor value",
            &self.precision_factor,
            l.precision,
        )?;
        bounded("feature mean", mean, l.feature)?;
        if std
            .iter()
            .any(|&s| !(1.0 / l.feature..=l.feature).contains(&s))
        {
            return Err(format!(
                "a feature standard deviation outside [{:e}, {:e}]",
                1.0 / l.feature,
                l.feature
            ));
        }
        let range = |name: &str, v: f64, (lo, hi): (f64, f64)| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("{name} {v:e} is outside [{lo:e}, {hi:e}]"))
            }
        };
        range("kernel variance", k.variance, l.variance)?;
        range("squared length scale", k.lengthscale, l.lengthscale)?;
        range("jitter", self.kzz_jitter, (0.0, l.jitter))?;
        range("H", self.h, (1.0, l.h))?;
        for c in self.calibration.iter().chain(&self.slice_calibration) {
            range("calibration a", c.a, (0.0, l.calibration))?;
            range("calibration b", c.b, (-l.calibration, l.calibration))?;
            if let Some(cc) = c.c {
                range("calibration c", cc, (0.0, l.calibration))?;
            }
        }
        Ok(())
    }
}

/// The largest magnitudes a head's values may have. Generous: a fit on standardised features
/// stays orders of magnitude inside them (inducing points within a few standard deviations,
/// whitened means and calibration coefficients of order 1–10); a file beyond them was made by
/// something else and predicts nonsense with false certainty.
struct Limits {
    inducing: f64,
    mean: f64,
    precision: f64,
    feature: f64,
    variance: (f64, f64),
    lengthscale: (f64, f64),
    jitter: f64,
    h: f64,
    calibration: f64,
    draws: f64,
}

const LIMITS: Limits = Limits {
    inducing: 1e4,
    mean: 1e6,
    precision: 1e8,
    feature: 1e100,
    variance: (1e-8, 1e6),
    lengthscale: (1e-8, 1e10),
    jitter: 1e3,
    h: 1e6,
    calibration: 1e4,
    draws: 1e6,
};

fn bounded(name: &str, v: &[f64], limit: f64) -> std::result::Result<(), String> {
    match v.iter().position(|x| x.abs() > limit) {
        Some(i) => Err(format!(
            "{name} {:e} (value {i}) is beyond ±{limit:e}",
            v[i]
        )),
        None => Ok(()),
    }
}
