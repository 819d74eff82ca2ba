//! `ich fit-gp` and `ich eval-gp`: the GP head on a features file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use detect::fit::{fit_gp, FitData, FitJob};
use detect::summary;
use gphead::calibrate::MapFamily;
use gphead::protocol::EvalOptions;
use gphead::{BagRule, EmaxRule, FitParams, Gibbs, Grid, Model};

use milbase::range;

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
    model: Model,
    /// The bag-likelihood constant H (> 1).
    #[arg(long = "H", default_value_t = 100.0, value_parser = range::above_one)]
    h: f64,
    /// How E[max] over the other instances of a bag is computed (loo-max: results no longer
    /// hinge on H, docs/BENCHMARKS.md).
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
    seed: u64,
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
    fn params(&self, inducing: usize, alpha: f64, beta: f64) -> FitParams {
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
    let plan = |d: &FitData| println!("{}", summary::fit_plan(&a.features, d));
    let f = fit_gp(&job, &plan, bars).context("fitting the GP head")?;
    println!("{}", summary::fitted(&f));
    println!(
        "{}",
        summary::fit_outputs(a.out.as_deref(), a.bundle.as_deref())
    );
    Ok(ExitCode::SUCCESS)
}

/// Evaluate a GP head with the paper's protocol: stratified splits of bags, a grid over inducing
/// points × α × β chosen on validation bags only, early stopping on them; held-out test splits
/// and/or an external test file. Prints mean ± std and writes CSV/JSON.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Feature table to train (and, without --test, test) on.
    #[arg(long)]
    features: PathBuf,
    /// External test file: every split's model is also tested on it.
    #[arg(long)]
    test: Option<PathBuf>,
    /// Hold out this fraction of bags as the test split instead of k folds (0, 1).
    #[arg(long, value_parser = range::open_fraction)]
    holdout: Option<f64>,
    /// Number of stratified splits [1..=100], or a splits FILE (`split,bag,role` with role
    /// fit / valid / test, the format of ../shared/data/splits/): then every split is fitted on
    /// its fit bags, stopped on its valid bags (the calibration map: see --calibration-folds) and
    /// tested on its test bags, and `{split}` in --features and --test stands for the split's number (one features file per
    /// split, as the RSNA halves).
    #[arg(long, default_value = "5", value_parser = parse_splits)]
    splits: Splits,
    /// Grid of inducing points (each ≥ 1).
    #[arg(long, value_delimiter = ',', default_value = "50,100,200", value_parser = |s: &str| range::int_in(s, 1, 100_000))]
    inducing: Vec<usize>,
    /// Grid of α (G-VGPMIL; each > 0).
    #[arg(long, value_delimiter = ',', default_value = "0.5,1", value_parser = range::positive)]
    alpha: Vec<f64>,
    /// Grid of β (G-VGPMIL; each > 0).
    #[arg(long, value_delimiter = ',', default_value = "1,2.5,4", value_parser = range::positive)]
    beta: Vec<f64>,
    /// Grid of starting kernel squared length scales (each > 0), chosen per split on the
    /// validation bags; without it the fit's own (D, or --lengthscale). Each value multiplies
    /// the run time (its effect: docs/GPHEAD.md).
    #[arg(long, value_delimiter = ',', value_parser = range::positive, conflicts_with = "lengthscale")]
    lengthscale_grid: Vec<f64>,
    /// Grid of starting kernel variances (each > 0), chosen the same way; without it the fit's
    /// own (0.5, or --variance).
    #[arg(long, value_delimiter = ',', value_parser = range::positive, conflicts_with = "variance")]
    variance_grid: Vec<f64>,
    /// Fraction of each training split used for validation [0, 1).
    #[arg(long, default_value_t = 0.2, value_parser = range::fraction)]
    valid_fraction: f64,
    /// Monte Carlo samples for test predictions [1..=1000000].
    #[arg(long, default_value_t = 200, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    samples: usize,
    /// Fit each split's calibration map on the out-of-fold draws of k-fold cross-fitting over its
    /// fit and validation bags (every training bag scored by a refit that did not see it); 0 = on
    /// the validation bags' draws only [0, 2..=20].
    #[arg(long, default_value_t = 5, value_parser = parse_calibration_folds)]
    calibration_folds: usize,
    /// The calibration map (pulled toward the identity as far as cross-validation says).
    #[arg(long, value_enum, default_value_t = MapFamily::Platt)]
    calibration_map: MapFamily,
    /// With --test: also measure a recalibration on the external set's own labels, as a hospital
    /// would recalibrate on its own labelled scans (`ich recalibrate`): the external bags are split
    /// into k stratified folds and each bag's probability comes from a map fitted on the other
    /// folds only ("site-calibrated" rows; --predictions gets a `probability_site` column);
    /// 0 = not [0, 2..=20].
    #[arg(long, default_value_t = 0, value_parser = parse_calibration_folds, requires = "test")]
    site_calibration: usize,
    /// The map of --site-calibration: beta (three parameters: each end bent on its own) or platt.
    #[arg(long, value_enum, default_value_t = MapFamily::Beta)]
    site_map: MapFamily,
    /// With --site-calibration: fit each fold's map on only about N of the other folds' scans
    /// (stratified, seeded), to see how many labelled scans a site needs [4..=1000000].
    #[arg(long, value_parser = |s: &str| range::int_in(s, 4, 1_000_000), requires = "site_calibration")]
    site_scans: Option<usize>,
    #[command(flatten)]
    gp: GpArgs,
    /// Write the full report as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write the summary table as CSV.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Write every test and external bag's prediction as CSV (split, set, bag, label, instances,
    /// the head's own probability, the calibrated probability with its sd and 90 % interval), to
    /// compare with another code bag by bag or compute other figures.
    #[arg(long)]
    predictions: Option<PathBuf>,
    /// Write every test and external slice's prediction as CSV (split, set, bag, instance, its
    /// position in the bag, its label where the data have slice labels, the head's own
    /// probability, the calibrated probability with its sd and 90 % interval).
    #[arg(long)]
    slice_predictions: Option<PathBuf>,
}

/// `--splits`: k folds, or a file of given splits.
#[derive(Debug, Clone)]
pub enum Splits {
    Folds(usize),
    File(PathBuf),
}

fn parse_splits(s: &str) -> Result<Splits, String> {
    if s.trim().chars().all(|c| c.is_ascii_digit()) {
        range::int_in(s, 1, 100).map(Splits::Folds)
    } else {
        Ok(Splits::File(PathBuf::from(s)))
    }
}

fn parse_calibration_folds(s: &str) -> Result<usize, String> {
    match range::int_in(s, 0, 20)? {
        1 => Err("1 fold cannot score out of fold: 0 or 2..=20".into()),
        k => Ok(k),
    }
}

pub fn eval(a: EvalArgs, bars: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    if a.site_scans.is_some() && a.site_calibration < 2 {
        anyhow::bail!("--site-scans needs --site-calibration K (K ≥ 2)");
    }
    let opts = EvalOptions {
        grid: Grid {
            inducing: a.inducing.clone(),
            alpha: a.alpha.clone(),
            beta: a.beta.clone(),
            lengthscale: a.lengthscale_grid.clone(),
            variance: a.variance_grid.clone(),
        },
        splits: match a.splits {
            Splits::Folds(k) => k,
            Splits::File(_) => 0,
        },
        holdout: a.holdout,
        valid_fraction: a.valid_fraction,
        base: a.gp.params(100, 1.0, 1.0),
        samples: a.samples,
        seed: a.gp.seed,
        calibration_folds: a.calibration_folds,
        calibration_map: a.calibration_map,
        keep_predictions: a.predictions.is_some() || a.slice_predictions.is_some(),
        site_calibration_folds: a.site_calibration,
        site_map: a.site_map,
        site_scans: a.site_scans,
    };
    let job = detect::evaluate::EvalJob {
        features: a.features.clone(),
        test: a.test.clone(),
        splits_file: match &a.splits {
            Splits::File(f) => Some(f.clone()),
            Splits::Folds(_) => None,
        },
        opts,
    };
    let detect::evaluate::Evaluated { report, heading } =
        detect::evaluate::run(&job, a.gp.model.cli_name(), bars)?;
    println!("{heading}");
    // the files first: a closed standard output (`ich eval-gp … | head`) loses nothing
    let rows = report.summary();
    detect::evaluate::write_files(
        &report,
        &rows,
        &detect::evaluate::EvalFiles {
            csv: a.csv.clone(),
            predictions: a.predictions.clone(),
            slice_predictions: a.slice_predictions.clone(),
            json: a.json.clone(),
        },
    )?;
    println!("{}", summary::evaluated(&report, &rows));
    Ok(ExitCode::SUCCESS)
}

/// Refit the calibration map of a bundle's GP head on a site's own labelled scans, in place: the
/// head stays as it is; the probabilities (scans and slices, one map) are
/// made to mean what they say at this site. The new map is pulled toward the head's own map as
/// far as cross-validation over the site's scans says (kept when they show no better one).
/// Prints the site's figures with the old map and the new map's, cross-fitted (each scan scored
/// by a map fitted without it); the manifest records both and where the scans came from.
#[derive(clap::Args, Debug)]
pub struct RecalibrateArgs {
    /// The bundle (its GP head fitted): recalibrated in place.
    #[arg(long)]
    bundle: PathBuf,
    /// The site's scans as a features file (`ich extract --model BUNDLE` of its labelled
    /// dataset); every scan needs its label, and at least 10 of each.
    #[arg(long)]
    features: PathBuf,
    /// The map: beta (three parameters, each end bent on its own) or platt (two).
    #[arg(long, value_enum, default_value_t = MapFamily::Beta)]
    map: MapFamily,
    /// Folds of the cross-fitted estimate [2..=20].
    #[arg(long, default_value_t = 5, value_parser = |s: &str| range::int_in(s, 2, 20))]
    folds: usize,
    /// Monte Carlo draws per scan [1..=1000000].
    #[arg(long, default_value_t = 200, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    samples: usize,
    /// Seed of the draws and the folds.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the figures and the map, but leave the bundle as it is.
    #[arg(long)]
    dry_run: bool,
}

pub fn recalibrate(a: RecalibrateArgs) -> anyhow::Result<ExitCode> {
    let job = detect::recalibrate::RecalibrateJob {
        bundle: a.bundle.clone(),
        features: a.features.clone(),
        family: a.map,
        folds: a.folds,
        samples: a.samples,
        seed: a.seed,
        dry_run: a.dry_run,
    };
    let r = detect::recalibrate::recalibrate(&job)
        .with_context(|| format!("recalibrating {}", a.bundle.display()))?;
    println!(
        "{}",
        summary::recalibrated(&r, &a.features, &a.bundle, a.dry_run)
    );
    Ok(ExitCode::SUCCESS)
}
