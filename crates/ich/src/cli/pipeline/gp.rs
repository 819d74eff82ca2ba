//! `ich fit-gp`: a GP head fitted on a features file, into a file or a bundle; its flags
//! ([`GpArgs`]) are shared with `ich eval-gp` (`cli::site::evaluate`).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::summary;
use anyhow::Context;
use detect::pipeline::fit::{fit_gp, FitData, FitJob};
use gphead::calibrate::MapFamily;
use gphead::{BagRule, EmaxRule, FitParams, Gibbs, Model};

use crate::cli::range;

fn parse_model(s: &str) -> Result<Model, String> {
    Model::from_name(s.trim())
        .ok_or_else(|| format!("unknown model '{s}' ({})", Model::NAMES.join(", ")))
}

/// Options of every GP fit (fit-gp and eval-gp).
#[derive(clap::Args, Debug, Clone)]
pub struct GpArgs {
    /// Model: vgpmil, g-vgpmil (Gamma ψ), probit (VI), probit-gibbs, lm-vgpmil. VGPMIL is the
    /// default: the best on the real ICH features (docs/BENCHMARKS.md); G-VGPMIL is the better on
    /// the MUSK benchmarks.
    #[arg(long, default_value = "vgpmil", value_parser = parse_model)]
    pub(crate) model: Model,
    /// The bag-likelihood constant H (> 1).
    #[arg(long = "H", default_value_t = 100.0, value_parser = range::above_one)]
    h: f64,
    /// How the expected maximum over the other instances of a bag is computed (loo-max: results
    /// no longer hinge on H, docs/BENCHMARKS.md).
    #[arg(long, value_enum, default_value = "loo-max")]
    emax: EmaxRule,
    /// How instance probabilities make a bag probability (default: max).
    #[arg(long, value_enum)]
    bag_rule: Option<BagRule>,
    /// Maximum number of epochs [1..=100000].
    #[arg(long, default_value_t = 200, value_parser = |s: &str| range::int_in(s, 1, 100_000))]
    max_epochs: usize,
    /// Early stopping: epochs without a better validation bag log-likelihood [0..=100000].
    #[arg(long, default_value_t = 10, value_parser = |s: &str| range::int_in(s, 0, 100_000))]
    patience: usize,
    /// Inducing points by k-means over all instances instead of half from positive and half
    /// from negative bags.
    #[arg(long)]
    no_balanced_inducing: bool,
    /// Kernel variance v (> 0; default 0.5).
    #[arg(long, value_parser = range::positive)]
    variance: Option<f64>,
    /// Kernel squared length scale l (> 0; default D).
    #[arg(long, value_parser = range::positive)]
    lengthscale: Option<f64>,
    /// Estimate the kernel (v, l) by this many gradient steps per epoch, after 5 warm-up epochs
    /// (VGPMIL, G-VGPMIL; default 5 for them, 0 turns it off) [0..=10000].
    #[arg(long, value_parser = |s: &str| range::int_in(s, 0, 10_000))]
    kernel_steps: Option<usize>,
    /// LM-VGPMIL margin weight C (> 0).
    #[arg(long = "C", default_value_t = 2.0, value_parser = range::positive)]
    c: f64,
    /// LM-VGPMIL margin V (finite).
    #[arg(long = "V", default_value_t = 2.0, value_parser = range::finite)]
    v: f64,
    /// Gibbs: number of chains [1..=64].
    #[arg(long, default_value_t = 4, value_parser = |s: &str| range::int_in(s, 1, 64))]
    chains: usize,
    /// Gibbs: burn-in sweeps per chain [0..=1000000].
    #[arg(long, default_value_t = 1000, value_parser = |s: &str| range::int_in(s, 0, 1_000_000))]
    burn_in: usize,
    /// Gibbs: kept draws per chain [1..=1000000].
    #[arg(long, default_value_t = 2000, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    draws: usize,
    /// Gibbs: thinning [1..=1000].
    #[arg(long, default_value_t = 1, value_parser = |s: &str| range::int_in(s, 1, 1000))]
    thin: usize,
    /// Random seed (inducing points, initialisation, splits, Monte Carlo).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Memory the fit may give its M×N matrices B (training and validation instances against
    /// the inducing points), MiB [0..=1048576]. Beyond it B is recomputed a block of 1,024
    /// instances at a time whenever it is used: memory then grows with the instances' features,
    /// not with instances × inducing points; an epoch without kernel steps takes about 5× as
    /// long (kernel steps, the default of VGPMIL, cost the same). The numbers agree to rounding.
    #[arg(long, default_value_t = 256, value_parser = |s: &str| range::int_in(s, 0, 1 << 20))]
    b_memory_mib: usize,
}

impl GpArgs {
    /// The fit parameters, with the model's hyper-parameters α, β (G-VGPMIL) and C, V (LM-VGPMIL).
    pub(crate) fn params(&self, inducing: usize, alpha: f64, beta: f64) -> FitParams {
        FitParams {
            model: self
                .model
                .with_alpha_beta(alpha, beta)
                .with_margin(self.c, self.v),
            inducing,
            h: self.h,
            emax: self.emax,
            bag_rule: self.bag_rule,
            kernel_steps: self
                .kernel_steps
                .or(self.model.theta(1.0).map(|_| 5))
                .filter(|&steps| steps > 0)
                .map(|steps| gphead::hyper::KernelSteps {
                    steps,
                    ..Default::default()
                }),
            max_epochs: self.max_epochs,
            patience: self.patience,
            balanced_inducing: !self.no_balanced_inducing,
            variance: self.variance,
            lengthscale: self.lengthscale,
            gibbs: Gibbs {
                chains: self.chains,
                burn_in: self.burn_in,
                draws: self.draws,
                thin: self.thin,
            },
            seed: self.seed,
            b_memory: self.b_memory_mib << 20,
            ..FitParams::default()
        }
    }
}

/// Fit a sparse Gaussian-process MIL head on a feature table, holding out part of the bags for
/// early stopping, and save the model (a file, or into a model bundle).
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Feature table: the project's features CSV, an ich-features CSV, or a MIL benchmark CSV.
    #[arg(long)]
    features: PathBuf,
    /// Number of inducing points M [1..=100000].
    #[arg(long, default_value_t = 100, value_parser = |s: &str| range::int_in(s, 1, 100_000))]
    inducing: usize,
    /// G-VGPMIL α (> 0).
    #[arg(long, default_value_t = 1.0, value_parser = range::positive)]
    alpha: f64,
    /// G-VGPMIL β (> 0).
    #[arg(long, default_value_t = 1.0, value_parser = range::positive)]
    beta: f64,
    /// Fraction of bags held out (stratified) for early stopping and calibration [0, 1).
    #[arg(long, default_value_t = 0.2, value_parser = range::fraction)]
    valid_fraction: f64,
    /// Fit the calibration map (Platt scaling through the bag rule) and store it in the model.
    #[arg(long)]
    calibrate: bool,
    /// Fit the calibration map on the out-of-fold draws of k-fold cross-fitting over all bags
    /// (every bag scored by a refit that did not see it: docs/GPHEAD.md); 0 = on the held-out
    /// bags' draws only [0, 2..=20].
    #[arg(long, default_value_t = 5, value_parser = parse_calibration_folds)]
    calibration_folds: usize,
    /// The calibration map (pulled toward the identity as far as cross-validation says).
    #[arg(long, value_enum, default_value_t = MapFamily::Platt)]
    calibration_map: MapFamily,
    /// Monte Carlo samples for the validation report [1..=1000000].
    #[arg(long, default_value_t = 500, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    samples: usize,
    #[command(flatten)]
    gp: GpArgs,
    /// Output model file (JSON); the per-epoch trace goes beside it as <MODEL>.trace.csv.
    #[arg(short, long, required_unless_present = "bundle")]
    out: Option<PathBuf>,
    /// Model bundle of `ich train-cnn` whose features these are: the GP head is written into it
    /// (gp.json) and its manifest updated.
    #[arg(long)]
    bundle: Option<PathBuf>,
    /// Project the features onto their K leading principal components first (PCA fitted on the
    /// training bags only, stored in the bundle as projection.json); e.g. 32 for the 1152
    /// features of imported SA-DMIL weights. Needs --bundle [1..=4096].
    #[arg(long, requires = "bundle", value_parser = |s: &str| range::int_in(s, 1, 4096))]
    project: Option<usize>,
    /// With --bundle, fit no subtype heads. By default, when the features carry the scans'
    /// subtypes (`bag_subtypes`, written by `ich extract` from slice labels), one head per RSNA
    /// subtype with at least 4 scans with it and 4 without is fitted beside the "any" head, on
    /// the same features, validation fraction and calibration (gp.<subtype>.json).
    #[arg(long)]
    no_subtypes: bool,
}

pub fn fit(a: FitArgs, bars: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    let job = FitJob {
        features: a.features.clone(),
        params: a.gp.params(a.inducing, a.alpha, a.beta),
        valid_fraction: a.valid_fraction,
        calibrate: a.calibrate,
        calibration_folds: a.calibration_folds,
        calibration_map: a.calibration_map,
        samples: a.samples,
        out: a.out.clone(),
        bundle: a.bundle.clone(),
        project: a.project,
        subtypes: !a.no_subtypes,
    };
    let plan = |d: &FitData| sayln!("{}", summary::fit_plan(&a.features, d));
    let f = fit_gp(&job, &plan, bars).context("fitting the GP head")?;
    outln!("{}", summary::fitted(&f));
    outln!(
        "{}",
        summary::fit_outputs(a.out.as_deref(), a.bundle.as_deref())
    );
    Ok(ExitCode::SUCCESS)
}

/// `--calibration-folds`: 0 (no out-of-fold map) or 2..=20.
pub(crate) fn parse_calibration_folds(s: &str) -> Result<usize, String> {
    match range::int_in(s, 0, 20)? {
        1 => Err("1 fold cannot score out of fold: 0 or 2..=20".into()),
        k => Ok(k),
    }
}
