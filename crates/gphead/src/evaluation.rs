//! Evaluation protocol (MODELS.md §7): stratified splits of bags, a hyper-parameter grid chosen on
//! validation bags only, early stopping on those validation bags, held-out and external test sets.

use std::time::Instant;

use milbase::{stratified_folds, stratified_holdout, Progress};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::calibrate::{mapped_mean, MapFamily, Platt};
use crate::data::MilData;
use crate::error::{GpError, Result};
use crate::fit::fit_valid;
use crate::fitloop::FitOutput;
use crate::metrics::{roc_auc, Metrics};
use crate::params::FitParams;
use crate::predict::BagRule;
use crate::spec::{Grid, Model};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalOptions {
    /// The grid over the model's axes ([`Model::grid_axes`]) and the kernel's start.
    pub grid: Grid,
    /// k of the stratified k-fold splits (ignored with `holdout` or an external-only run).
    pub splits: usize,
    /// Hold out this fraction of bags (stratified) as one test split instead of k folds.
    pub holdout: Option<f64>,
    /// Fraction of each training split used as validation bags.
    pub valid_fraction: f64,
    /// The model and everything else of the fits (H, `E[max]` rule, epochs, patience, bag rule,
    /// Gibbs settings, …); the grid replaces its inducing points and α, β, and its kernel's
    /// starting length scale and variance where the grid has them.
    pub base: FitParams,
    /// Monte Carlo samples for test predictions.
    pub samples: usize,
    pub seed: u64,
    /// Where the calibration map is fitted: 0 = the validation bags' draws; k ≥ 2 = the
    /// out-of-fold draws of k-fold cross-fitting over fit and validation bags together
    /// ([`crate::crossfit`]).
    #[serde(default)]
    pub calibration_folds: usize,
    /// The family of that map (Platt's two parameters unless said).
    #[serde(default)]
    pub calibration_map: MapFamily,
    /// Keep every test and external bag's and instance's prediction in the report
    /// ([`SetResult::bags`], [`SetResult::instances`]), so that others can compute their own
    /// figures or compare with another code bag by bag and instance by instance.
    #[serde(default)]
    pub keep_predictions: bool,
    /// k ≥ 2: also measure a recalibration on the external set's own labels, as a site would
    /// recalibrate on its own scans: each external bag's probability from a map of
    /// [`EvalOptions::site_map`] fitted on the other k − 1 folds of the external bags
    /// ([`crate::calibrate::cross_fitted`]); 0 = not.
    #[serde(default)]
    pub site_calibration_folds: usize,
    /// The family of that map.
    #[serde(default)]
    pub site_map: MapFamily,
    /// With site calibration: fit each fold's map on only about this many of the other folds'
    /// bags (stratified, seeded); `None`: on all of them.
    #[serde(default)]
    pub site_scans: Option<usize>,
}

impl Default for EvalOptions {
    fn default() -> Self {
        Self {
            grid: Grid::default(),
            splits: 5,
            holdout: None,
            valid_fraction: 0.2,
            base: FitParams {
                model: Model::G_VGPMIL,
                ..FitParams::default()
            },
            samples: 200,
            seed: 0,
            calibration_folds: 0,
            calibration_map: MapFamily::Platt,
            keep_predictions: false,
            site_calibration_folds: 0,
            site_map: MapFamily::Beta,
            site_scans: None,
        }
    }
}

/// Metrics on one test set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetResult {
    pub n_bags: usize,
    /// Bag metrics with the model's bag rule.
    pub bag: Metrics,
    /// Bag AUC with the other rule, for comparison.
    pub bag_auc_other_rule: Option<f64>,
    /// Bag metrics with the calibration map fitted on the validation bags.
    pub bag_calibrated: Metrics,
    pub instance: Option<Metrics>,
    /// Instance metrics with the same map (instance labels used for evaluation only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_calibrated: Option<Metrics>,
    /// AUC of the CNN's own `bag_cnn_probability` on the same bags, when present.
    pub cnn_bag_auc: Option<f64>,
    /// External set with [`EvalOptions::site_calibration_folds`]: bag metrics after the
    /// cross-fitted recalibration on its own labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bag_site_calibrated: Option<Metrics>,
    /// Every bag's prediction, when [`EvalOptions::keep_predictions`] asks for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bags: Vec<BagRow>,
    /// Every instance's prediction, bag by bag, when [`EvalOptions::keep_predictions`] asks for
    /// them (not in the JSON report: tens of thousands of rows).
    #[serde(skip)]
    pub instances: Vec<InstanceRow>,
}

/// One test instance's (slice's) prediction: as [`BagRow`], for one instance of a bag.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceRow {
    pub bag: String,
    /// The instance's name and its position in the bag.
    pub instance: String,
    pub index: usize,
    /// Its label, where the data have instance labels (evaluation only).
    pub label: Option<u8>,
    /// The uncalibrated probability (Monte Carlo mean).
    pub raw: f64,
    /// The calibrated probability: mean, sd and 90 % interval.
    pub calibrated: crate::predict::Summary,
}

/// One test bag's prediction in an evaluation: the head's own probability by the bag rule and the
/// calibrated one with its spread and 90 % interval (all from the same draws).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BagRow {
    pub bag: String,
    pub label: u8,
    /// Its number of instances (slices).
    pub instances: usize,
    /// The uncalibrated probability (Monte Carlo mean) by the model's bag rule.
    pub raw: f64,
    /// The calibrated probability: mean, sd and 90 % interval.
    pub calibrated: crate::predict::Summary,
    /// The probability after the site's cross-fitted recalibration, where measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_calibrated: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SplitResult {
    pub split: usize,
    pub inducing: usize,
    pub model: Model,
    /// The kernel's starting length scale chosen from [`Grid::lengthscale`] (`None`: no such
    /// grid, the fit's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_lengthscale: Option<f64>,
    /// The kernel's starting variance chosen from [`Grid::variance`] (`None`: no such grid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_variance: Option<f64>,
    pub valid_bag_auc: Option<f64>,
    pub epochs: usize,
    /// The kept model's kernel (moved from its start by the kernel steps, when they run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<crate::kernel::Rbf>,
    pub fit_seconds: f64,
    pub valid_log_likelihood_before: f64,
    pub valid_log_likelihood_after: f64,
    /// The calibration map (fitted on the validation bags, or on every training bag scored out
    /// of fold: [`EvalOptions::calibration_folds`]).
    pub calibration: Platt,
    /// The map's pull toward the identity, chosen by cross-validation
    /// ([`Platt::fit_shrunk`]); `None`: the identity was chosen.
    #[serde(default)]
    pub calibration_strength: Option<f64>,
    pub test: Option<SetResult>,
    pub external: Option<SetResult>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    pub options: EvalOptions,
    pub splits: Vec<SplitResult>,
}

/// The rule compared against: the per-draw maximum for max, max for the others.
fn other(rule: BagRule) -> BagRule {
    match rule {
        BagRule::Max => BagRule::MaxPerDraw,
        BagRule::MaxPerDraw | BagRule::NoisyOr | BagRule::FullCovariance => BagRule::Max,
    }
}

/// Metrics of an uncalibrated model and of the same model with `platt` on one set.
fn evaluate_set(
    model: &crate::model::GpModel,
    platt: Platt,
    data: &MilData,
    samples: usize,
    seed: u64,
    keep: bool,
) -> Result<(SetResult, Vec<Vec<f64>>)> {
    let (pred, cal, rule_draws) = model.predict_both(data, samples, seed, platt)?;
    let labels = data.bag_labels();
    let p = pred.bag_probabilities(model.bag_rule);
    let instance = data
        .instance_labels
        .as_ref()
        .map(|il| Metrics::compute(il, &pred.instance_probabilities()));
    let instance_calibrated = data
        .instance_labels
        .as_ref()
        .map(|il| Metrics::compute(il, &cal.instance_probabilities()));
    let cnn_bag_auc = data
        .bag_extra
        .get("bag_cnn_probability")
        .and_then(|c| roc_auc(&labels, c));
    let set = SetResult {
        n_bags: labels.len(),
        bag: Metrics::compute(&labels, &p),
        bag_auc_other_rule: roc_auc(&labels, &pred.bag_probabilities(other(model.bag_rule))),
        bag_calibrated: Metrics::compute(&labels, &cal.bag_probabilities(model.bag_rule)),
        instance,
        instance_calibrated,
        cnn_bag_auc,
        bag_site_calibrated: None,
        bags: if keep {
            data.bags
                .iter()
                .zip(&pred.bags)
                .zip(&cal.bags)
                .map(|((b, r), c)| BagRow {
                    bag: b.name.clone(),
                    label: b.label,
                    instances: b.instances.len(),
                    raw: r.mean(model.bag_rule),
                    calibrated: c.get(model.bag_rule),
                    site_calibrated: None,
                })
                .collect()
        } else {
            Vec::new()
        },
        instances: if keep {
            data.bags
                .iter()
                .flat_map(|b| b.instances.iter().enumerate().map(move |(k, &i)| (b, k, i)))
                .map(|(b, k, i)| {
                    let c = &cal.instances[i];
                    InstanceRow {
                        bag: b.name.clone(),
                        instance: data.instance_names[i].clone(),
                        index: k,
                        label: data.instance_labels.as_ref().map(|l| l[i]),
                        raw: pred.instances[i].mean,
                        calibrated: crate::predict::Summary {
                            mean: c.mean,
                            sd: c.sd,
                            lo: c.lo,
                            hi: c.hi,
                        },
                    }
                })
                .collect()
        } else {
            Vec::new()
        },
    };
    Ok((set, rule_draws))
}

/// Bags given by name for one split: fit on `fit`, stop early on `valid` (the calibration map:
/// [`EvalOptions::calibration_folds`]), test on
/// `test` (the format of `../shared/data/splits/`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct FixedSplit {
    pub fit: Vec<String>,
    pub valid: Vec<String>,
    pub test: Vec<String>,
}

impl FixedSplit {
    /// Bag indices of each role in `data` (every named bag must be there).
    fn indices(&self, data: &MilData) -> Result<[Vec<usize>; 3]> {
        let by_name: std::collections::HashMap<&str, usize> = data
            .bags
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name.as_str(), i))
            .collect();
        let find = |names: &[String]| -> Result<Vec<usize>> {
            names
                .iter()
                .map(|n| {
                    by_name.get(n.as_str()).copied().ok_or_else(|| {
                        GpError::Data(format!("the split names bag {n}, which the data lacks"))
                    })
                })
                .collect()
        };
        Ok([find(&self.fit)?, find(&self.valid)?, find(&self.test)?])
    }
}

/// A fitted grid point: (validation AUC, validation log-likelihood), the point, fit, seconds.
type Candidate = ((f64, f64), Point, FitOutput, f64);

/// A grid point: inducing points, the model (with its α, β) and the kernel's starting
/// `[length scale, variance]` (`None`: the fit's own).
type Point = (usize, Model, [Option<f64>; 2]);

/// Every grid point of `model` on `grid`: its own axes ([`Model::grid`]) × the length scales ×
/// the variances.
fn grid_points(model: Model, grid: &Grid) -> Vec<Point> {
    let axis = |v: &[f64]| -> Vec<Option<f64>> {
        if v.is_empty() {
            vec![None]
        } else {
            v.iter().map(|&x| Some(x)).collect()
        }
    };
    let (scales, variances) = (axis(&grid.lengthscale), axis(&grid.variance));
    let mut out = Vec::new();
    for (m, link) in model.grid(grid) {
        for &l in &scales {
            for &v in &variances {
                out.push((m, link, [l, v]));
            }
        }
    }
    out
}

/// One split: every grid point fitted on `fit` and stopped on `valid`, the best on `valid` kept,
/// calibrated ([`EvalOptions::calibration_folds`]), tested on `test` and `external`.
fn run_split(
    si: usize,
    base: &crate::params::ValidParams,
    grid: &[Point],
    [fit_data, valid, test, pool]: [&MilData; 4],
    external: Option<&MilData>,
    opts: &EvalOptions,
    progress: &dyn Progress,
) -> Result<SplitResult> {
    // the grid points are fitted in parallel, each with the split's seed, and compared in grid
    // order: the choice does not depend on which fit ends first
    let fitted: Vec<Candidate> = grid
        .par_iter()
        .map(|&(m, link, start)| {
            let p = base.with(link, m, start, base.seed.wrapping_add(si as u64))?;
            let t = Instant::now();
            let out = fit_valid(&p, fit_data, Some(valid))?;
            let secs = t.elapsed().as_secs_f64();
            let t = &out.model.training;
            let score = (
                t.valid_bag_auc.unwrap_or(f64::NEG_INFINITY),
                t.valid_bag_log_likelihood.unwrap_or(f64::NEG_INFINITY),
            );
            tracing::info!(split = si, m, link = %link.name(), kernel_start = ?start, valid_auc = score.0, valid_ll = score.1, secs, "grid point");
            progress.inc(1);
            Ok((score, (m, link, start), out, secs))
        })
        .collect::<Result<_>>()?;
    let mut best: Option<Candidate> = None;
    for c in fitted {
        let score = c.0;
        // validation bag AUC, ties broken by validation log-likelihood
        if best.as_ref().is_none_or(|b| {
            score.0 > b.0 .0 + 1e-12 || ((score.0 - b.0 .0).abs() <= 1e-12 && score.1 > b.0 .1)
        }) {
            best = Some(c);
        }
    }
    let (score, (m, link, start), out, secs) =
        best.ok_or_else(|| GpError::Param("empty grid".into()))?;
    let model = out.model;
    // the calibration map, through the bag rule: on the validation bags, or on every training
    // bag scored out of fold
    let vl = valid.bag_labels();
    let draws = model.bag_rule_draws(valid, opts.samples, opts.seed)?;
    let shrunk = if opts.calibration_folds >= 2 {
        let p = base.with(link, m, start, base.seed.wrapping_add(si as u64))?;
        let seed = opts.seed.wrapping_add(7919 + si as u64);
        crate::crossfit::out_of_fold(
            &p,
            out.best_epoch + 1,
            pool,
            opts.calibration_folds,
            opts.samples,
            seed,
            progress,
        )?
        .map(opts.calibration_map, opts.calibration_folds, seed)
    } else {
        Platt::fit_shrunk(
            opts.calibration_map,
            &vl,
            &draws,
            Platt::CV_FOLDS,
            opts.seed.wrapping_add(7919 + si as u64),
        )
    };
    let platt = shrunk.map;
    let mean = |m: Option<Platt>| -> Vec<f64> { draws.iter().map(|d| mapped_mean(m, d)).collect() };
    let (vp, vcal) = (mean(None), mean(Some(platt)));
    let test = if test.bags.is_empty() {
        None
    } else {
        Some(
            evaluate_set(
                &model,
                platt,
                test,
                opts.samples,
                opts.seed,
                opts.keep_predictions,
            )?
            .0,
        )
    };
    let ext = external
        .map(|e| {
            let (mut r, draws) = evaluate_set(
                &model,
                platt,
                e,
                opts.samples,
                opts.seed,
                opts.keep_predictions,
            )?;
            if opts.site_calibration_folds >= 2 {
                let labels = e.bag_labels();
                // pulled toward the split's own map: the site's labels must beat it
                let center = platt
                    .as_family(opts.site_map)
                    .unwrap_or(Platt::identity(opts.site_map));
                if let Some(q) = crate::calibrate::cross_fitted(
                    center,
                    &labels,
                    &draws,
                    [
                        opts.site_calibration_folds,
                        opts.site_scans.unwrap_or(usize::MAX),
                    ],
                    opts.seed.wrapping_add(104_729 + si as u64),
                ) {
                    r.bag_site_calibrated = Some(Metrics::compute(&labels, &q));
                    for (row, &p) in r.bags.iter_mut().zip(&q) {
                        row.site_calibrated = Some(p);
                    }
                }
            }
            Ok::<_, GpError>(r)
        })
        .transpose()?;
    Ok(SplitResult {
        split: si,
        inducing: m,
        model: link,
        start_lengthscale: start[0],
        start_variance: start[1],
        valid_bag_auc: Some(score.0).filter(|s| s.is_finite()),
        epochs: out.trace.len(),
        kernel: Some(model.kernel),
        fit_seconds: secs,
        valid_log_likelihood_before: crate::metrics::log_likelihood(&vl, &vp),
        valid_log_likelihood_after: crate::metrics::log_likelihood(&vl, &vcal),
        calibration: platt,
        calibration_strength: shrunk.strength,
        test,
        external: ext,
    })
}

fn check_external(data: &MilData, external: Option<&MilData>) -> Result<()> {
    if let Some(e) = external {
        if e.d != data.d {
            return Err(GpError::Dimension {
                expected: data.d,
                found: e.d,
            });
        }
    }
    Ok(())
}

/// Runs the protocol on `data` with splits made here (k stratified folds or one hold-out),
/// optionally also testing every split's model on `external`. The splits run in parallel, each
/// with its own seeds (the report does not depend on the order they end in); `progress` counts
/// the fits.
pub fn evaluate(
    data: &MilData,
    external: Option<&MilData>,
    opts: &EvalOptions,
    progress: &dyn Progress,
) -> Result<EvalReport> {
    check_external(data, external)?;
    let labels = data.bag_labels();
    // (train bags, test bags) per split
    let splits: Vec<(Vec<usize>, Vec<usize>)> =
        match (opts.holdout, external) {
            (Some(f), _) => vec![stratified_holdout(&labels, f, opts.seed)
                .map_err(|e| GpError::Param(e.to_string()))?],
            (None, Some(_)) => vec![((0..labels.len()).collect(), Vec::new())],
            (None, None) => {
                if opts.splits < 2 {
                    return Err(GpError::Param(
                        "at least 2 splits, or --holdout, or --test".into(),
                    ));
                }
                let folds = stratified_folds(&labels, opts.splits, opts.seed)
                    .map_err(|e| GpError::Param(e.to_string()))?;
                (0..opts.splits)
                    .map(|k| {
                        let train = (0..opts.splits)
                            .filter(|&j| j != k)
                            .flat_map(|j| folds[j].clone())
                            .collect();
                        (train, folds[k].clone())
                    })
                    .collect()
            }
        };
    let base = opts.base.validate()?;
    let grid = grid_points(base.model, &opts.grid);
    let results = in_parallel(
        &splits,
        fits(splits.len(), grid.len(), opts),
        progress,
        |si, (train_bags, test_bags)| {
            let train_labels: Vec<u8> = train_bags.iter().map(|&b| labels[b]).collect();
            let (fit_idx, val_idx) = stratified_holdout(
                &train_labels,
                opts.valid_fraction,
                opts.seed + 1000 + si as u64,
            )
            .map_err(|e| GpError::Param(e.to_string()))?;
            let pick = |idx: &[usize]| idx.iter().map(|&i| train_bags[i]).collect::<Vec<_>>();
            let fit_data = data.subset(&pick(&fit_idx));
            let valid = data.subset(&pick(&val_idx));
            let test = data.subset(test_bags);
            let pool = data.subset(train_bags);
            run_split(
                si,
                &base,
                &grid,
                [&fit_data, &valid, &test, &pool],
                external,
                opts,
                progress,
            )
        },
    )?;
    Ok(EvalReport {
        options: opts.clone(),
        splits: results,
    })
}

/// `run(i, item)` for every item in parallel, in a progress stage of `fits` steps (the fits count
/// themselves); the results in the items' order.
fn in_parallel<T: Sync>(
    items: &[T],
    fits: u64,
    progress: &dyn Progress,
    run: impl Fn(usize, &T) -> Result<SplitResult> + Sync,
) -> Result<Vec<SplitResult>> {
    progress.stage("GP fits", fits);
    let results = items
        .par_iter()
        .enumerate()
        .map(|(i, item)| run(i, item))
        .collect();
    progress.done();
    results
}

/// How many fits a run of the protocol makes: every grid point of every split, and the
/// cross-fitting refits.
fn fits(splits: usize, grid: usize, opts: &EvalOptions) -> u64 {
    let refits = if opts.calibration_folds >= 2 {
        opts.calibration_folds
    } else {
        0
    };
    (splits * (grid + refits)) as u64
}

/// Runs the protocol on given splits: split `k` is fitted, stopped and calibrated on its named
/// `fit` and `valid` bags of `data(k)` (the map on `valid`, or cross-fitted over both:
/// [`EvalOptions::calibration_folds`]) and tested on its `test` bags and on `external(k)` (the
/// data may differ per split, as the five RSNA feature files do). In parallel, as [`evaluate`].
pub fn evaluate_fixed<'a>(
    splits: &[(usize, FixedSplit)],
    data: impl Fn(usize) -> Result<&'a MilData> + Sync,
    external: impl Fn(usize) -> Result<Option<&'a MilData>> + Sync,
    opts: &EvalOptions,
    progress: &dyn Progress,
) -> Result<EvalReport> {
    let base = opts.base.validate()?;
    let grid = grid_points(base.model, &opts.grid);
    let results = in_parallel(
        splits,
        fits(splits.len(), grid.len(), opts),
        progress,
        |_, (k, split)| {
            let (d, e) = (data(*k)?, external(*k)?);
            check_external(d, e)?;
            let [f, v, t] = split.indices(d)?;
            if f.is_empty() || v.is_empty() {
                return Err(GpError::Data(format!(
                    "split {k}: no fit or no validation bags"
                )));
            }
            let pool: Vec<usize> = f.iter().chain(&v).copied().collect();
            run_split(
                *k,
                &base,
                &grid,
                [
                    &d.subset(&f),
                    &d.subset(&v),
                    &d.subset(&t),
                    &d.subset(&pool),
                ],
                e,
                opts,
                progress,
            )
        },
    )?;
    Ok(EvalReport {
        options: opts.clone(),
        splits: results,
    })
}

/// Mean and sample standard deviation.
pub fn mean_std(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = v.iter().sum::<f64>() / n;
    let s = if v.len() > 1 {
        (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    (m, s)
}

/// One row of the summary table: a metric and its values over splits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub set: String,
    pub metric: String,
    pub values: Vec<f64>,
    pub mean: f64,
    pub std: f64,
}

impl EvalReport {
    /// Mean ± std over splits of every metric.
    pub fn summary(&self) -> Vec<SummaryRow> {
        let mut rows = Vec::new();
        let mut push = |set: &str, metric: &str, values: Vec<f64>| {
            if !values.is_empty() {
                let (mean, std) = mean_std(&values);
                rows.push(SummaryRow {
                    set: set.into(),
                    metric: metric.into(),
                    values,
                    mean,
                    std,
                });
            }
        };
        for (set, get) in [
            (
                "test",
                (|s: &SplitResult| s.test.clone()) as fn(&SplitResult) -> Option<SetResult>,
            ),
            ("external", |s: &SplitResult| s.external.clone()),
        ] {
            let sets: Vec<SetResult> = self.splits.iter().filter_map(get).collect();
            if sets.is_empty() {
                continue;
            }
            let col = |f: &dyn Fn(&SetResult) -> Option<f64>| {
                sets.iter().filter_map(f).collect::<Vec<f64>>()
            };
            push(set, "bag AUC", col(&|s| s.bag.auc));
            push(set, "bag AUC (other rule)", col(&|s| s.bag_auc_other_rule));
            // the calibrated probabilities are means of mapped draws: where the latent spread
            // differs between bags their order can differ from the raw means'
            push(set, "bag AUC (calibrated)", col(&|s| s.bag_calibrated.auc));
            push(set, "bag accuracy", col(&|s| Some(s.bag.accuracy)));
            push(set, "bag F1", col(&|s| Some(s.bag.f1)));
            push(set, "bag AP", col(&|s| s.bag.average_precision));
            push(set, "bag log-lik", col(&|s| Some(s.bag.log_likelihood)));
            push(set, "bag ECE", col(&|s| Some(s.bag.ece)));
            push(
                set,
                "bag log-lik (calibrated)",
                col(&|s| Some(s.bag_calibrated.log_likelihood)),
            );
            push(
                set,
                "bag ECE (calibrated)",
                col(&|s| Some(s.bag_calibrated.ece)),
            );
            push(
                set,
                "bag ECE floor (calibrated)",
                col(&|s| Some(s.bag_calibrated.ece_floor)),
            );
            push(
                set,
                "bag ECE p (calibrated)",
                col(&|s| s.bag_calibrated.ece_p_value),
            );
            let site = |f: fn(&Metrics) -> Option<f64>| {
                col(&move |s| s.bag_site_calibrated.as_ref().and_then(f))
            };
            push(set, "bag AUC (site-calibrated)", site(|m| m.auc));
            push(
                set,
                "bag log-lik (site-calibrated)",
                site(|m| Some(m.log_likelihood)),
            );
            push(set, "bag ECE (site-calibrated)", site(|m| Some(m.ece)));
            push(
                set,
                "bag ECE floor (site-calibrated)",
                site(|m| Some(m.ece_floor)),
            );
            push(set, "bag ECE p (site-calibrated)", site(|m| m.ece_p_value));
            push(
                set,
                "instance AUC",
                col(&|s| s.instance.and_then(|m| m.auc)),
            );
            push(
                set,
                "instance accuracy",
                col(&|s| s.instance.map(|m| m.accuracy)),
            );
            push(set, "instance F1", col(&|s| s.instance.map(|m| m.f1)));
            push(
                set,
                "instance AP",
                col(&|s| s.instance.and_then(|m| m.average_precision)),
            );
            push(
                set,
                "instance log-lik",
                col(&|s| s.instance.map(|m| m.log_likelihood)),
            );
            push(
                set,
                "instance AUC (calibrated)",
                col(&|s| s.instance_calibrated.and_then(|m| m.auc)),
            );
            push(
                set,
                "instance ECE (calibrated)",
                col(&|s| s.instance_calibrated.map(|m| m.ece)),
            );
            push(
                set,
                "instance ECE floor (calibrated)",
                col(&|s| s.instance_calibrated.map(|m| m.ece_floor)),
            );
            push(
                set,
                "instance ECE p (calibrated)",
                col(&|s| s.instance_calibrated.and_then(|m| m.ece_p_value)),
            );
            push(
                set,
                "instance log-lik (calibrated)",
                col(&|s| s.instance_calibrated.map(|m| m.log_likelihood)),
            );
            push(set, "CNN bag AUC", col(&|s| s.cnn_bag_auc));
        }
        push(
            "fit",
            "seconds",
            self.splits.iter().map(|s| s.fit_seconds).collect(),
        );
        push(
            "fit",
            "epochs",
            self.splits.iter().map(|s| s.epochs as f64).collect(),
        );
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_are_stratified_and_cover_everything() {
        let labels: Vec<u8> = (0..23).map(|i| u8::from(i % 3 == 0)).collect(); // 8 pos, 15 neg
        let folds = stratified_folds(&labels, 5, 1).unwrap();
        let mut all: Vec<usize> = folds.iter().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..23).collect::<Vec<_>>());
        for f in &folds {
            let pos = f.iter().filter(|&&i| labels[i] == 1).count();
            assert!((1..=2).contains(&pos), "{folds:?}");
            assert!((4..=5).contains(&f.len()));
        }
        let (rest, held) = stratified_holdout(&labels, 0.5, 3).unwrap();
        assert_eq!(held.iter().filter(|&&i| labels[i] == 1).count(), 4);
        assert_eq!(rest.len() + held.len(), 23);
        assert_eq!(stratified_folds(&labels, 5, 1).unwrap(), folds);
    }

    #[test]
    fn mean_std_by_hand() {
        let (m, s) = mean_std(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m, 2.5);
        assert!((s - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
    }
}
