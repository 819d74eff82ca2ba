//! Fitting a GP head (`ich fit-gp`): a features file, a seeded stratified validation split for
//! early stopping and calibration, [`gphead::fit()`], then the model written to a file or into a
//! bundle (with its trace and the manifest resealed).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use gphead::calibrate::{mapped_mean, Platt};
use gphead::metrics::{ece, log_likelihood};
use gphead::{FitOutput, FitParams, GpModel, MilData};
use serde::Serialize;

use crate::bundle::{sha256_file, Bundle, DataSummary, GpPart, GpValidation, GP_MODEL, GP_TRACE};
use preprocess::dataset::write_atomic;

use crate::error::{Error, Result};

/// A fitting job.
#[derive(Debug, Clone)]
pub struct FitJob {
    /// The features file (or a MIL benchmark table).
    pub features: PathBuf,
    /// Which model and how to fit it; validated before any work.
    pub params: FitParams,
    /// Fraction of bags (stratified) held out for early stopping and calibration, in [0, 1).
    pub valid_fraction: f64,
    /// Fit Platt scaling of bag probabilities on the held-out bags and store it in the model.
    pub calibrate: bool,
    /// With `calibrate`: 0 fits the map on the validation bags' draws; k ≥ 2 on the out-of-fold
    /// draws of k-fold cross-fitting over every bag (each scored by a refit that did not see it,
    /// [`gphead::crossfit`]), which rests the map on every bag instead of the few held out.
    pub calibration_folds: usize,
    /// The map's family (Platt's two parameters, or beta calibration's three).
    pub calibration_map: gphead::calibrate::MapFamily,
    /// Monte Carlo samples of the validation report (≥ 1).
    pub samples: usize,
    /// Model file to write (its trace beside it as `<MODEL>.trace.csv`).
    pub out: Option<PathBuf>,
    /// Bundle whose features these are: the head goes into it.
    pub bundle: Option<PathBuf>,
    /// Project the features onto this many principal components first (PCA fitted on the
    /// training bags' instances only, stored with the head).
    pub project: Option<usize>,
    /// Into a bundle: also one head per hemorrhage subtype the features label (the scan's
    /// subtypes, `bag_subtypes`), each fitted and calibrated as the "any" head.
    pub subtypes: bool,
}

/// The data, before fitting.
#[derive(Debug, Clone)]
pub struct FitData {
    pub bags: usize,
    pub positive_bags: usize,
    pub instances: usize,
    pub dim: usize,
    pub train_bags: usize,
    pub valid_bags: usize,
}

/// The held-out bags' figures.
#[derive(Debug, Clone)]
pub struct Validation {
    /// How many bags were held out: 0 when there were too few bags to hold any out (then there
    /// are no held-out figures, and the others below are those of an empty set).
    pub bags: usize,
    pub auc: Option<f64>,
    pub log_likelihood: f64,
    pub ece: f64,
    /// Platt scaling and the log-likelihood / ECE after it (same validation bags).
    pub platt: Option<(Platt, f64, f64)>,
    /// The map's data: 0 = the held-out bags, k = k-fold out-of-fold draws of every bag.
    pub calibration_folds: usize,
    /// The map's pull toward the identity, chosen by cross-validation
    /// ([`Platt::fit_shrunk`]); `None`: the identity.
    pub calibration_strength: Option<f64>,
}

/// A subtype head's fit (see [`crate::bundle::SubtypeHead`]), or why it was not fitted.
#[derive(Debug, Clone)]
pub struct SubtypeFit {
    pub name: &'static str,
    /// Scans whose subtype is known (they have a labelled slice), and how many have it.
    pub scans: usize,
    pub positive: usize,
    /// `None`: not fitted, with the reason in `skipped`.
    pub validation: Option<Validation>,
    pub skipped: Option<String>,
}

/// A subtype head is fitted only with at least this many scans with the subtype, and as many
/// without: fewer cannot be split into training and validation scans of both kinds.
pub const MIN_SUBTYPE_SCANS: usize = 4;

/// What a fit produced.
pub struct Fitted {
    pub output: FitOutput,
    /// The projection the head's features went through, if any.
    pub projection: Option<gphead::pca::Pca>,
    pub seconds: f64,
    pub validation: Option<Validation>,
    /// The subtype heads fitted into the bundle (or why not), when asked for and the features
    /// carry subtype labels.
    pub subtypes: Vec<SubtypeFit>,
    /// Files written: the model file and its trace, or the bundle folder.
    pub written: Vec<PathBuf>,
}

impl Fitted {
    pub fn model(&self) -> &GpModel {
        &self.output.model
    }
}

#[derive(Serialize)]
struct TraceRow {
    epoch: usize,
    objective: Option<f64>,
    valid_bag_auc: Option<f64>,
    seconds: f64,
}

/// The per-epoch trace as CSV (`epoch,objective,valid_bag_auc,seconds`).
pub fn trace_csv(out: &FitOutput) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for t in &out.trace {
        w.serialize(TraceRow {
            epoch: t.epoch,
            objective: t.objective,
            valid_bag_auc: t.valid_bag_auc,
            seconds: t.seconds,
        })
        .map_err(|e| Error::Invalid(format!("writing the trace: {e}")))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Invalid(format!("writing the trace: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::Invalid(e.to_string()))
}

fn trace_path(model: &Path) -> PathBuf {
    PathBuf::from(format!("{}.trace.csv", model.display()))
}

/// The head fitted on `train` (early stopping on `valid`), its validation report and, when asked,
/// its calibration (cross-fitted over every bag of `all`); the fit's seconds.
fn fit_head(
    job: &FitJob,
    params: &gphead::ValidParams,
    [train, all]: [&MilData; 2],
    valid: Option<&MilData>,
    progress: &dyn milbase::Progress,
) -> Result<(FitOutput, f64, Option<Validation>)> {
    let t = std::time::Instant::now();
    let mut output = gphead::fit_valid(params, train, valid)?;
    progress.inc(1);
    let seconds = t.elapsed().as_secs_f64();
    let mut validation = None;
    if let Some(v) = valid {
        let model = &output.model;
        let l = v.bag_labels();
        // one set of draws of every held-out bag's probability by the bag rule: their means are
        // the head's own (uncalibrated) bag probabilities, and the calibration is fitted on them
        let draws = model.bag_rule_draws(v, job.samples, params.seed)?;
        let mean =
            |m: Option<Platt>| -> Vec<f64> { draws.iter().map(|d| mapped_mean(m, d)).collect() };
        let p = mean(None);
        let (auc, ll, e) = (
            gphead::metrics::roc_auc(&l, &p),
            log_likelihood(&l, &p),
            ece(&l, &p, 10),
        );
        let mut val = Validation {
            bags: v.bags.len(),
            auc,
            log_likelihood: ll,
            ece: e,
            platt: None,
            calibration_folds: job.calibration_folds,
            calibration_strength: None,
        };
        if job.calibrate {
            // one monotone map for slices and scans, fitted through the bag rule on the draws, so
            // that the calibrated probability (the mean of the mapped draws) is what it fits
            let c = if job.calibration_folds >= 2 {
                gphead::crossfit::out_of_fold(
                    params,
                    output.best_epoch + 1,
                    all,
                    job.calibration_folds,
                    job.samples,
                    params.seed,
                    progress,
                )?
                .map(job.calibration_map, job.calibration_folds, params.seed)
            } else {
                Platt::fit_shrunk(
                    job.calibration_map,
                    &l,
                    &draws,
                    Platt::CV_FOLDS,
                    params.seed,
                )
            };
            val.calibration_strength = c.strength;
            let c = c.map;
            let model = &mut output.model;
            model.calibration = Some(c);
            let q = mean(Some(c));
            val.platt = Some((c, log_likelihood(&l, &q), ece(&l, &q, 10)));
        }
        validation = Some(val);
    }
    Ok((output, seconds, validation))
}

/// What a head was fitted on: its training and validation bags (and how many are positive),
/// and the slices of all of them.
fn data_summary(
    features: &Path,
    train: &MilData,
    valid: Option<&MilData>,
    all: &MilData,
) -> DataSummary {
    let count = |d: &MilData| {
        (
            d.bags.len(),
            d.bag_labels().iter().filter(|&&l| l == 1).count(),
        )
    };
    let (tn, tp) = count(train);
    let (vn, vp) = valid.map_or((0, 0), count);
    DataSummary {
        source: features.display().to_string(),
        train_scans: tn,
        train_positive: tp,
        valid_scans: vn,
        valid_positive: vp,
        slices: Some(all.n),
        slices_per_scan: DataSummary::slice_range(all.bags.iter().map(|b| b.instances.len())),
    }
}

/// The held-out figures a bundle keeps (none of an empty set of bags).
fn gp_validation(v: Option<&Validation>) -> GpValidation {
    v.map(|v| GpValidation {
        bag_auc: v.auc,
        bag_log_likelihood: (v.bags > 0).then_some(v.log_likelihood),
        bag_ece: (v.bags > 0).then_some(v.ece),
        calibrated: v.platt.is_some(),
    })
    .unwrap_or_default()
}

/// The instances of bags `bags`, per bag, as `f32` rows (what [`crate::bundle::evidence::OodSummary`]
/// is fitted on).
fn raw_train_rows(data: &MilData, bags: &[usize]) -> Vec<Vec<Vec<f32>>> {
    bags.iter()
        .map(|&b| {
            data.bags[b]
                .instances
                .iter()
                .map(|&i| data.row(i).iter().map(|&v| v as f32).collect())
                .collect()
        })
        .collect()
}

impl FitJob {
    /// The job's options agree: somewhere to write, a validation fraction in [0, 1) (above 0 to
    /// calibrate), a Monte Carlo sample at least, and a bundle for a projection.
    fn check(&self) -> Result<()> {
        if self.out.is_none() && self.bundle.is_none() {
            return Err(Error::Invalid(
                "nowhere to write the model: give a model file or a bundle".into(),
            ));
        }
        if !(0.0..1.0).contains(&self.valid_fraction) {
            return Err(Error::Invalid(format!(
                "the validation fraction must be within [0, 1), got {}",
                self.valid_fraction
            )));
        }
        if self.calibrate && self.valid_fraction == 0.0 {
            return Err(Error::Invalid(
                "calibration needs validation bags (a validation fraction > 0)".into(),
            ));
        }
        if self.samples == 0 {
            return Err(Error::Invalid(
                "at least one Monte Carlo sample is needed".into(),
            ));
        }
        if self.project.is_some() && self.bundle.is_none() {
            return Err(Error::Invalid(
                "a projection is stored with the head in a bundle: give a bundle".into(),
            ));
        }
        Ok(())
    }
}

/// Runs the job; `plan` is called once the data is read and split, before the fit.
pub fn fit_gp(
    job: &FitJob,
    plan: &dyn Fn(&FitData),
    progress: &dyn milbase::Progress,
) -> Result<Fitted> {
    job.check()?;
    let raw = crate::features::read(&job.features)?;
    let params = job.params.validate()?;
    // a bundle being changed is locked until its new head is committed
    let (mut bundle, _bundle_lock) = match &job.bundle {
        Some(dir) => {
            let (b, lock) = Bundle::open_for_update(dir, "fit-gp")?;
            b.check_features(&job.features, raw.d)?;
            (Some(b), Some(lock))
        }
        None => (None, None),
    };
    let split = if job.valid_fraction > 0.0 {
        Some(
            milbase::stratified_holdout(&raw.bag_labels(), job.valid_fraction, params.seed)
                .map_err(|e| Error::file(&job.features, e.to_string()))?,
        )
    } else {
        None
    };
    // the projection is fitted on the training bags only, then applied to every bag
    let projection = match job.project {
        Some(k) => {
            let fit_on = match &split {
                Some((t, _)) => raw.subset(t),
                None => raw.clone(),
            };
            Some(
                gphead::pca::Pca::fit(&fit_on, k)
                    .map_err(|e| Error::file(&job.features, e.to_string()))?,
            )
        }
        None => None,
    };
    // without a projection the head is fitted on the features as read (no copy of them)
    let data: Cow<'_, MilData> = match &projection {
        Some(p) => Cow::Owned(p.transform(&raw)?),
        None => Cow::Borrowed(&raw),
    };
    let data = data.as_ref();
    let (train, valid) = match &split {
        Some((t, v)) => (Cow::Owned(data.subset(t)), Some(data.subset(v))),
        None => (Cow::Borrowed(data), None),
    };
    plan(&FitData {
        bags: data.bags.len(),
        positive_bags: data.bag_labels().iter().filter(|&&l| l == 1).count(),
        instances: data.n,
        dim: data.d,
        train_bags: train.bags.len(),
        valid_bags: valid.as_ref().map_or(0, |v| v.bags.len()),
    });
    // one step per fit: the head, then the cross-fitting refits of its calibration
    let refits = if job.calibrate && job.calibration_folds >= 2 {
        job.calibration_folds
    } else {
        0
    };
    progress.stage("GP fits", 1 + refits as u64);
    let fitted = fit_head(job, &params, [&train, data], valid.as_ref(), progress);
    progress.done();
    let (output, seconds, validation) = fitted?;
    let csv = trace_csv(&output)?;
    let mut written = Vec::new();
    let mut subtypes = Vec::new();
    if let Some(out) = &job.out {
        // the head and its trace are locked while written (the folder may hold a user's other
        // files), what a killed writer of them left swept
        let tp = trace_path(out);
        let trace_name = tp.file_name().unwrap_or_default().to_string_lossy();
        let (_lock, _) = milbase::atomic::lock_file(out, &[&trace_name], "fit-gp")
            .map_err(|e| Error::io(out, e))?;
        output.model.save(out)?;
        write_atomic(&tp, csv.as_bytes())?;
        written.extend([out.clone(), tp]);
    }
    if let Some(b) = bundle.as_mut() {
        let part = GpPart {
            model: GP_MODEL.into(),
            trace: GP_TRACE.into(),
            family: params.model.name(),
            dim: data.d,
            projection: None,
            evidence: crate::bundle::evidence::Evidence::Features,
            ood: Some(crate::bundle::OOD.into()),
            reports: Vec::new(),
            inducing: output.model.m(),
            features_sha256: sha256_file(&job.features)?,
            training: data_summary(&job.features, &train, valid.as_ref(), data),
            validation: gp_validation(validation.as_ref()),
            site_calibration: None,
            subtypes: Vec::new(),
        };
        // what the head's training slices look like, for out-of-distribution checks
        let fitted_on = match &split {
            Some((t, _)) => raw_train_rows(&raw, t),
            None => raw_train_rows(&raw, &(0..raw.bags.len()).collect::<Vec<_>>()),
        };
        let ood = crate::bundle::evidence::OodSummary::fit(&fitted_on, params.seed)?;
        let ood = serde_json::to_vec_pretty(&ood).map_err(|e| Error::Invalid(e.to_string()))?;
        let mut part = part;
        let mut files: Vec<(String, Vec<u8>)> = vec![(crate::bundle::OOD.into(), ood)];
        if job.subtypes {
            let (heads, fits, bytes) = fit_subtype_heads(job, &params, data, progress)?;
            part.subtypes = heads;
            subtypes = fits;
            files.extend(bytes);
        }
        let extras: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        b.add_gp_with(&output.model, &csv, projection.as_ref(), part, &extras)?;
        written.push(b.dir.clone());
    }
    Ok(Fitted {
        output,
        projection,
        seconds,
        validation,
        subtypes,
        written,
    })
}

type SubtypeHeads = (
    Vec<crate::bundle::SubtypeHead>,
    Vec<SubtypeFit>,
    Vec<(String, Vec<u8>)>,
);

/// One head per subtype the features label, on `data` (projected as the "any" head's): the
/// scans whose subtype is known, a stratified validation split of them by the job's fraction
/// and seed, fitted and calibrated as the "any" head. Returns the manifest entries, what each
/// fit gave (or why a subtype was left out), and the models' bytes by file name.
fn fit_subtype_heads(
    job: &FitJob,
    params: &gphead::ValidParams,
    data: &MilData,
    progress: &dyn milbase::Progress,
) -> Result<SubtypeHeads> {
    let (mut heads, mut fits, mut files) = (Vec::new(), Vec::new(), Vec::new());
    let labelled = crate::features::SUBTYPES
        .iter()
        .filter(|n| {
            data.bag_extra
                .contains_key(&crate::features::subtype_key(n))
        })
        .count();
    let refits = if job.calibrate && job.calibration_folds >= 2 {
        job.calibration_folds
    } else {
        0
    };
    progress.stage("GP subtype fits", (labelled * (1 + refits)) as u64);
    for name in crate::features::SUBTYPES {
        let Some(v) = data.bag_extra.get(&crate::features::subtype_key(name)) else {
            continue;
        };
        let known: Vec<usize> = (0..data.bags.len()).filter(|&b| v[b].is_finite()).collect();
        let positive = known.iter().filter(|&&b| v[b] == 1.0).count();
        let mut fit = SubtypeFit {
            name,
            scans: known.len(),
            positive,
            validation: None,
            skipped: None,
        };
        if positive < MIN_SUBTYPE_SCANS || known.len() - positive < MIN_SUBTYPE_SCANS {
            fit.skipped = Some(format!(
                "{positive} of {} scans with a known subtype have it: at least \
                 {MIN_SUBTYPE_SCANS} with and {MIN_SUBTYPE_SCANS} without are needed",
                known.len()
            ));
            fits.push(fit);
            continue;
        }
        let mut d = data.subset(&known);
        for (k, bag) in d.bags.iter_mut().enumerate() {
            bag.label = u8::from(v[known[k]] == 1.0);
        }
        // slice labels say "any"; the subtype of a slice is not what this head is judged on
        d.instance_labels = None;
        let (t, va) = milbase::stratified_holdout(&d.bag_labels(), job.valid_fraction, params.seed)
            .map_err(|e| Error::file(&job.features, format!("subtype {name}: {e}")))?;
        let (train, valid) = (d.subset(&t), d.subset(&va));
        let (output, _, validation) = fit_head(job, params, [&train, &d], Some(&valid), progress)?;
        let file = crate::bundle::subtype_model(name);
        let bytes = serde_json::to_vec(&output.model).map_err(|e| Error::Invalid(e.to_string()))?;
        heads.push(crate::bundle::SubtypeHead {
            name: name.to_string(),
            model: file.clone(),
            training: data_summary(&job.features, &train, Some(&valid), &d),
            validation: gp_validation(validation.as_ref()),
            site_calibration: None,
            site_note: None,
        });
        files.push((file, bytes));
        fit.validation = validation;
        fits.push(fit);
    }
    progress.done();
    Ok((heads, fits, files))
}
