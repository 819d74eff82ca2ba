//! `ich eval-gp`: the evaluation protocol of a GP head on features per split.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::range;
use crate::summary;
use gphead::calibrate::MapFamily;
use gphead::evaluation::EvalOptions;
use gphead::Grid;

use crate::cli::pipeline::gp::{parse_calibration_folds, GpArgs};

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
    /// Number of stratified splits [1..=100], or a splits FILE (a CSV of `split,bag,role`, role
    /// fit, valid or test, one row per bag and split): then every split is fitted on
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
    let job = detect::site::evaluate::EvalJob {
        features: a.features.clone(),
        test: a.test.clone(),
        splits_file: match &a.splits {
            Splits::File(f) => Some(f.clone()),
            Splits::Folds(_) => None,
        },
        opts,
    };
    let detect::site::evaluate::Evaluated { report, heading } =
        detect::site::evaluate::run(&job, a.gp.model.cli_name(), bars)?;
    outln!("{heading}");
    // the files first: a closed standard output (`ich eval-gp … | head`) loses nothing
    let rows = report.summary();
    detect::site::evaluate::write_files(
        &report,
        &rows,
        &detect::site::evaluate::EvalFiles {
            csv: a.csv.clone(),
            predictions: a.predictions.clone(),
            slice_predictions: a.slice_predictions.clone(),
            json: a.json.clone(),
        },
    )?;
    outln!("{}", summary::evaluated(&report, &rows));
    Ok(ExitCode::SUCCESS)
}
