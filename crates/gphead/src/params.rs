//! Fit parameters: [`FitParams`] (what a user sets, with the paper's defaults) is validated into
//! [`ValidParams`] (checked, with the bag rule resolved), which is what the fits take.

use serde::{Deserialize, Serialize};

use crate::emax::EmaxRule;
use crate::error::{GpError, Result};
use crate::predict::BagRule;
use crate::spec::Model;

/// How many gradient steps per epoch, and their initial length in log space.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KernelSteps {
    /// Gradient steps per epoch.
    pub steps: usize,
    /// Initial step in log space.
    pub step_size: f64,
    /// Epochs of plain variational updates before the kernel moves (q(v) first has to carry the
    /// labels: from the prior, J favours over-smooth kernels).
    pub warmup: usize,
}

impl Default for KernelSteps {
    fn default() -> Self {
        Self {
            steps: 5,
            step_size: 0.1,
            warmup: 5,
        }
    }
}

/// Settings of the MIL-GP-Probit Gibbs sampler (how it is run, not the model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gibbs {
    pub chains: usize,
    pub burn_in: usize,
    /// Kept draws per chain.
    pub draws: usize,
    pub thin: usize,
}

impl Default for Gibbs {
    /// 4 chains, 1000 burn-in sweeps, 2000 kept draws each, no thinning.
    fn default() -> Self {
        Self {
            chains: 4,
            burn_in: 1000,
            draws: 2000,
            thin: 1,
        }
    }
}

/// Everything a fit needs besides the data (defaults of the paper / MODELS.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FitParams {
    #[serde(alias = "link")]
    pub model: Model,
    /// Number of inducing points M.
    pub inducing: usize,
    /// Half of the inducing points from instances of positive bags, half from negative bags
    /// (upstream); otherwise k-means over all instances.
    pub balanced_inducing: bool,
    /// Explicit inducing points (M×D row-major, in z-scored units) instead of k-means.
    #[serde(skip)]
    pub inducing_points: Option<Vec<f64>>,
    /// Kernel variance v; `None` → 0.5.
    pub variance: Option<f64>,
    /// Kernel squared length scale l; `None` → D.
    pub lengthscale: Option<f64>,
    /// The bag-likelihood constant H (paper 100).
    pub h: f64,
    pub emax: EmaxRule,
    pub max_epochs: usize,
    /// Early stopping: epochs without a better validation bag log-likelihood.
    pub patience: usize,
    /// Without validation data: stop when π and μ move less than this.
    pub tol: f64,
    pub seed: u64,
    /// Initial relative jitter of the Cholesky factorisations.
    pub jitter: f64,
    /// Bag rule for the validation metric and the model; `None` → the model's default.
    pub bag_rule: Option<BagRule>,
    pub kmeans_iters: usize,
    /// Kernel hyper-parameter estimation between the variational updates (ψ-VGPMIL only).
    pub kernel_steps: Option<KernelSteps>,
    /// The Gibbs sampler's settings (probit-gibbs only).
    pub gibbs: Gibbs,
    /// The most memory, in bytes, the fit's M×N matrices `B` (training and validation) may take
    /// held whole; beyond it they are recomputed a block of instances at a time whenever used,
    /// so memory grows with N·D instead of N·M, for about 5× the time of a plain epoch (kernel
    /// steps cost the same either way). A resource setting, not part of the model (not stored):
    /// the numbers agree to rounding.
    #[serde(skip)]
    pub b_memory: usize,
}

/// [`FitParams::b_memory`]'s default: 256 MiB (B of 335,000 instances at M = 100).
pub const DEFAULT_B_MEMORY: usize = 256 << 20;

impl Default for FitParams {
    fn default() -> Self {
        Self {
            model: Model::Vgpmil,
            inducing: 100,
            balanced_inducing: true,
            inducing_points: None,
            variance: None,
            lengthscale: None,
            h: 100.0,
            emax: EmaxRule::Product,
            max_epochs: 200,
            patience: 10,
            tol: 1e-6,
            seed: 0,
            jitter: 1e-6,
            bag_rule: None,
            kmeans_iters: 25,
            kernel_steps: None,
            gibbs: Gibbs::default(),
            b_memory: DEFAULT_B_MEMORY,
        }
    }
}

/// Parameters that passed [`FitParams::validate`]; the bag rule is resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidParams {
    params: FitParams,
    /// The bag rule: the one asked for, or the model's default.
    pub bag_rule: BagRule,
}

impl std::ops::Deref for ValidParams {
    type Target = FitParams;
    fn deref(&self) -> &FitParams {
        &self.params
    }
}

impl ValidParams {
    /// The parameters as given (for the record in the model file).
    pub fn params(&self) -> &FitParams {
        &self.params
    }

    /// The same parameters with another model, number of inducing points and, where given,
    /// starting kernel `[length scale, variance]` (a grid point), re-validated.
    pub fn with(
        &self,
        model: Model,
        inducing: usize,
        [lengthscale, variance]: [Option<f64>; 2],
        seed: u64,
    ) -> Result<ValidParams> {
        FitParams {
            model,
            inducing,
            lengthscale: lengthscale.or(self.params.lengthscale),
            variance: variance.or(self.params.variance),
            seed,
            ..self.params.clone()
        }
        .validate()
    }

    /// The same parameters with `b_memory` bytes for B (fits running side by side share the
    /// budget of one).
    pub fn with_b_memory(&self, b_memory: usize) -> ValidParams {
        ValidParams {
            params: FitParams {
                b_memory,
                ..self.params.clone()
            },
            bag_rule: self.bag_rule,
        }
    }

    /// The same parameters with at most `max_epochs` epochs (cross-fitting refits a chosen
    /// model for the number of epochs early stopping kept).
    pub fn with_max_epochs(&self, max_epochs: usize) -> Result<ValidParams> {
        FitParams {
            max_epochs,
            ..self.params.clone()
        }
        .validate()
    }
}

impl FitParams {
    /// Checks every parameter; the error names the one out of range.
    pub fn validate(&self) -> Result<ValidParams> {
        let bad = |s: &str| Err(GpError::Param(s.to_string()));
        if self.inducing == 0 && self.inducing_points.is_none() {
            return bad("the number of inducing points must be ≥ 1");
        }
        if !(self.h > 1.0 && self.h.is_finite()) {
            return bad("H must be > 1");
        }
        match self.model {
            Model::GVgpmil { alpha, beta } if !(alpha > 0.0 && beta > 0.0) => {
                return bad("G-VGPMIL needs α > 0 and β > 0");
            }
            Model::LmVgpmil { c, v } if !(c > 0.0 && v.is_finite()) => {
                return bad("LM-VGPMIL needs C > 0 and a finite V");
            }
            Model::ProbitGibbs
                if self.gibbs.chains == 0 || self.gibbs.draws == 0 || self.gibbs.thin == 0 =>
            {
                return bad("the Gibbs sampler needs ≥ 1 chain, ≥ 1 draw and thinning ≥ 1");
            }
            _ => {}
        }
        for (name, v) in [
            ("variance", self.variance),
            ("length scale", self.lengthscale),
        ] {
            if let Some(v) = v {
                if !(v > 0.0 && v.is_finite()) {
                    return bad(&format!("the kernel {name} must be > 0, got {v}"));
                }
            }
        }
        if self.max_epochs == 0 {
            return bad("max_epochs must be ≥ 1");
        }
        let tol_ok = self.tol >= 0.0;
        if !(self.jitter > 0.0 && self.jitter.is_finite() && tol_ok) {
            return bad("jitter must be > 0 and tol ≥ 0");
        }
        if self.kernel_steps.is_some() && self.model.theta(1.0).is_none() {
            return bad("kernel estimation is implemented for VGPMIL and G-VGPMIL only");
        }
        Ok(ValidParams {
            bag_rule: self.bag_rule.unwrap_or(self.model.default_bag_rule()),
            params: self.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_parameters_are_named() {
        let ok = FitParams::default();
        assert_eq!(ok.validate().unwrap().bag_rule, BagRule::Max);
        let probit = FitParams {
            model: Model::Probit,
            ..FitParams::default()
        };
        assert_eq!(probit.validate().unwrap().bag_rule, BagRule::Max);
        let full = FitParams {
            bag_rule: Some(BagRule::FullCovariance),
            ..probit
        };
        assert_eq!(full.validate().unwrap().bag_rule, BagRule::FullCovariance);
        for (p, word) in [
            (
                FitParams {
                    inducing: 0,
                    ..FitParams::default()
                },
                "inducing",
            ),
            (
                FitParams {
                    h: 1.0,
                    ..FitParams::default()
                },
                "H",
            ),
            (
                FitParams {
                    model: Model::GVgpmil {
                        alpha: 0.0,
                        beta: 1.0,
                    },
                    ..FitParams::default()
                },
                "α",
            ),
            (
                FitParams {
                    variance: Some(-1.0),
                    ..FitParams::default()
                },
                "variance",
            ),
            (
                FitParams {
                    max_epochs: 0,
                    ..FitParams::default()
                },
                "max_epochs",
            ),
            (
                FitParams {
                    model: Model::ProbitGibbs,
                    gibbs: Gibbs {
                        chains: 0,
                        ..Gibbs::default()
                    },
                    ..FitParams::default()
                },
                "chain",
            ),
        ] {
            let e = p.validate().unwrap_err().to_string();
            assert!(e.contains(word), "{e}");
        }
    }
}
