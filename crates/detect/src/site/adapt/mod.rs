//! `ich adapt`: a bundle (imported or trained) adapted to a site from the site's own labelled
//! scans, with a validation report of what the site should expect.
//!
//! 1. Every site scan goes through the bundle's network once: its encoder features and the
//!    network's own evidence per slice ([`Evidence`]).
//! 2. Candidate heads: a VGPMIL head on each kind of evidence (the one-slice logit; the logit and
//!    the attention score; the Dense-128 layer projected on a few principal components; the
//!    encoder's features projected likewise).
//! 3. Nested cross-validation over the site's patients (every scan of a patient in one fold, outer
//!    and inner; PatientID, or the study where a scan names none): in each outer fold the
//!    candidates are compared on the fold's training scans only, by their cross-fitted scan
//!    log-likelihood after a calibration map (inner folds); the winner is fitted on those scans,
//!    its calibration map from the same cross-fitting, and predicts the fold's test scans. The
//!    report's figures are the pooled test predictions: no figure comes from scans that chose.
//!    The network alone (its probabilities as they are, and after a Platt map fitted on the
//!    fold's training scans) is scored on the same folds, for comparison.
//! 4. A learning curve: each fold's choice refitted on 10, 20, … of its training scans.
//! 5. The adapted bundle: the choice made by cross-fitting over every scan, fitted on every scan,
//!    with the summary of the site's slices for out-of-distribution checks and the report.
//!
//! Slice labels, where the site has them, are used for evaluation only, never for fitting.

use milbase::shard::fnv1a;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use attcnn::finetune::{fine_tune_head, FeatureBag, FineTune, FineTuneLog};
use attcnn::inference::{ScanOutput, Trained};
use gphead::calibrate::{mapped_mean, MapFamily, Platt};
use gphead::metrics::{log_likelihood, Metrics};
use gphead::pca::Pca;
use gphead::{FitParams, GpModel, MilData};
use milbase::Progress;
use preprocess::dataset::{Dataset, Skipped};
use preprocess::labels::Labels;
use preprocess::pipeline::{apply_labels, decode_scan, find_scans_within};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::bundle::evidence::{Evidence, OodSummary};
use crate::bundle::operating::{Held, OperatingPoint};
use crate::bundle::{
    rfc3339, Bundle, DataSummary, GpPart, GpValidation, ADAPT_HTML, ADAPT_JSON, GP_MODEL, GP_TRACE,
    OOD,
};
use crate::error::{Error, Result};
use crate::pipeline::device::Compute;
use crate::report::reliability;
use crate::site::unsure;

mod crossval;
mod data;
mod maps;
mod ood;
mod page;
mod scoring;
mod write;
use crossval::*;
pub use data::site_scans;
use maps::*;
pub use maps::{slice_correlation, NetworkMaps, MAP_DRAWS};
pub use ood::OOD_SPLITS;
use ood::*;
use scoring::*;

pub use page::adapt_html;
use write::*;

/// An adaptation job. Defaults ([`AdaptJob::new`]): 5 outer folds, inner folds 5, principal
/// components 8, 50 inducing points, kernel steps on, 300 Monte Carlo draws, learning curve at
/// 10, 20, 30, … scans, seed 0, CPU.
#[derive(Debug, Clone)]
pub struct AdaptJob {
    /// The bundle to adapt (left unchanged).
    pub model: PathBuf,
    /// The site's labelled scans: DICOM files or folders, or datasets (with the bundle's
    /// preprocessing).
    pub inputs: Vec<PathBuf>,
    /// Label files (scan labels required; slice labels used for evaluation only).
    pub labels: Vec<PathBuf>,
    /// The adapted bundle: a new folder.
    pub out: PathBuf,
    /// Outer folds of the patient-level cross-validation (≥ 2).
    pub folds: usize,
    /// Inner folds of the choice and of the calibration's cross-fitting (≥ 2).
    pub inner_folds: usize,
    /// Principal components of the projected candidates.
    pub project: usize,
    pub inducing: usize,
    pub kernel_steps: bool,
    pub samples: usize,
    /// Training-set sizes of the learning curve (those below a fold's training set are run).
    pub curve: Vec<usize>,
    /// Only these kinds of evidence (empty: all).
    pub evidence: Vec<Evidence>,
    /// Also cross-validate fine-tuning the network's attention and classifier (encoder frozen)
    /// on each fold's training scans, and keep it where it helps (`None`: don't try).
    pub fine_tune: Option<FineTune>,
    pub seed: u64,
    pub compute: Compute,
    pub limits: preprocess::read::Limits,
    /// The sensitivity the site's operating point must reach on the cross-fitted predictions
    /// (`--sensitivity`; `None`: predict calls at its default threshold, 0.5).
    pub sensitivity: Option<f64>,
}

/// The sensitivities of the trade-off table in adapt's report.
pub const TRADE_OFF: [f64; 5] = [0.8, 0.85, 0.9, 0.95, 1.0];

impl AdaptJob {
    pub fn new(model: PathBuf, inputs: Vec<PathBuf>, labels: Vec<PathBuf>, out: PathBuf) -> Self {
        Self {
            model,
            inputs,
            labels,
            out,
            folds: 5,
            inner_folds: 5,
            project: 8,
            inducing: 50,
            kernel_steps: true,
            samples: 300,
            curve: (1..=20).map(|k| 10 * k).collect(),
            evidence: Vec::new(),
            fine_tune: Some(FineTune::default()),
            seed: 0,
            compute: Compute::cpu(),
            limits: Default::default(),
            sensitivity: None,
        }
    }

    fn validate(&self) -> Result<()> {
        if self.folds < 2 || self.inner_folds < 2 {
            return Err(Error::Invalid(
                "cross-validation needs at least 2 outer and 2 inner folds".into(),
            ));
        }
        if self.project == 0 || self.inducing == 0 || self.samples == 0 {
            return Err(Error::Invalid(
                "components, inducing points and draws must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// A site scan after the network: its label, its slices' labels (evaluation only) and what the
/// network made of it.
pub struct SiteScan {
    pub id: String,
    /// Its patient, as a key of the folds only (a digest of the PatientID, or of the
    /// StudyInstanceUID where the scan names no patient): never written anywhere.
    pub patient: u64,
    pub label: u8,
    pub slice_labels: Vec<Option<u8>>,
    /// Its subtypes as the labels give them, in [`crate::features::SUBTYPES`] order (`None`:
    /// unknown); they recalibrate the bundle's subtype heads.
    pub subtypes: Vec<Option<u8>>,
    pub out: ScanOutput,
}

/// A candidate head: which evidence, projected onto how many principal components.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    pub evidence: Evidence,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<usize>,
}

impl Candidate {
    pub fn name(&self) -> String {
        match self.project {
            Some(k) => format!("{} → {k} PCs", self.evidence.name()),
            None => self.evidence.name().to_string(),
        }
    }

    /// The candidates for a CNN of `cnn_dim` features (`only`: these kinds of evidence).
    pub fn all(cnn_dim: usize, k: usize, only: &[Evidence]) -> Vec<Candidate> {
        let proj = |d: usize| (d > k).then_some(k);
        Evidence::ALL
            .into_iter()
            .filter(|e| only.is_empty() || only.contains(e))
            .map(|evidence| Candidate {
                evidence,
                project: proj(evidence.dim(cnn_dim)),
            })
            .collect()
    }

    /// The projection, fitted on the slices of `scans` (no labels used).
    fn projection(&self, scans: &[&SiteScan]) -> Result<Option<Pca>> {
        match self.project {
            Some(k) => Ok(Some(Pca::fit(&self.raw(scans)?, k)?)),
            None => Ok(None),
        }
    }

    fn raw(&self, scans: &[&SiteScan]) -> Result<MilData> {
        let d = self
            .evidence
            .dim(scans.first().map_or(0, |s| s.out.features[0].len()));
        let mut x = Vec::new();
        let (mut bags, mut labels, mut names) = (Vec::new(), Vec::new(), Vec::new());
        for s in scans {
            x.extend(self.evidence.rows(&s.out));
            for k in 0..s.out.features.len() {
                bags.push(s.id.clone());
                labels.push(s.label);
                names.push(format!("{}#{k}", s.id));
            }
        }
        Ok(MilData::from_instances(d, x, bags, labels, None, names)?)
    }

    /// The head's data for `scans`: evidence, then the projection.
    fn design(&self, scans: &[&SiteScan], pca: Option<&Pca>) -> Result<MilData> {
        let raw = self.raw(scans)?;
        Ok(match pca {
            Some(p) => p.transform(&raw)?,
            None => raw,
        })
    }
}

/// A candidate fitted on some scans, with its calibration maps.
struct Fitted {
    candidate: Candidate,
    output: gphead::FitOutput,
    pca: Option<Pca>,
}

/// The name of the network as it came, as a candidate.
pub const NETWORK: &str = "the network as it came (scan and slice maps on the site's scan labels)";

/// What a choice ships: a GP head, or the network with the site's maps.
enum Chosen {
    Gp(Box<Fitted>),
    Network(NetworkMaps),
}

impl Chosen {
    fn name(&self) -> String {
        match self {
            Chosen::Gp(f) => f.candidate.name(),
            Chosen::Network(_) => NETWORK.into(),
        }
    }

    /// Which candidate: `None` for the network.
    fn candidate(&self) -> Option<Candidate> {
        match self {
            Chosen::Gp(f) => Some(f.candidate),
            Chosen::Network(_) => None,
        }
    }
}

/// One scan's test prediction.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScanPred {
    pub id: String,
    pub label: u8,
    pub fold: usize,
    /// The adapted head: probability, sd, 90 % interval; per slice the same.
    pub p: [f64; 4],
    pub slices: Vec<[f64; 4]>,
    pub slice_labels: Vec<Option<u8>>,
    /// The network alone, and through the site's maps fitted on the fold's training scans (the
    /// scan's Platt map; the slices' map by the multiple-instance likelihood).
    pub cnn: f64,
    pub cnn_slices: Vec<f64>,
    pub cnn_platt: f64,
    pub cnn_platt_slices: Vec<f64>,
}

/// Figures of one set of pooled test predictions.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Figures {
    pub scans: usize,
    pub scan: Metrics,
    /// Over the labelled slices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<Metrics>,
    pub slices: usize,
    pub scan_reliability: Vec<(f64, f64, f64, usize)>,
    pub slice_reliability: Vec<(f64, f64, f64, usize)>,
    /// Scans and slices flagged uncertain (sd ≥ 0.1 or the 90 % interval across 0.5); absent
    /// for the network alone and through the fold's point maps, which give no spread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncertain_scans: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncertain_slices: Option<usize>,
}

/// A point of the learning curve.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Training scans per fold.
    pub scans: usize,
    pub head: Figures,
    pub cnn_platt: Figures,
}

/// A candidate's cross-fitted scan log-likelihood (after its calibration map) on some scans,
/// and its ranking beside the network's on the same scans.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Choice {
    pub candidate: String,
    pub log_likelihood: f64,
    /// Cross-fitted scan AUC minus the network's, with the standard error of that paired
    /// difference (bootstrap over patients); absent for the network itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scan_auc_difference: Option<[f64; 2]>,
    /// The same over the labelled slices (absent without slice labels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice_auc_difference: Option<[f64; 2]>,
    /// Whether it may be chosen: neither AUC below the network's by more than one standard
    /// error of the difference.
    #[serde(default = "yes")]
    pub eligible: bool,
}

fn yes() -> bool {
    true
}

/// A paired difference of the shipped bundle's figure and the network's over the pooled
/// cross-validated predictions, with its standard error and 95 % interval (bootstrap over
/// patients, 1,000 draws, seeded).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Difference {
    pub what: String,
    pub shipped: f64,
    pub network: f64,
    pub difference: f64,
    pub se: f64,
    pub interval: [f64; 2],
}

/// Out-of-distribution flags on the site's own held-out scans: each outer fold's summary fitted
/// on its training scans, its test scans checked.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct OodFlags {
    pub positive: usize,
    pub positive_flagged: usize,
    pub negative: usize,
    pub negative_flagged: usize,
}

/// The validation report (`adapt.json`; `adapt.html` shows it).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AdaptReport {
    pub tool: String,
    pub created: String,
    /// The bundle adapted, and the adapted one.
    pub source_bundle: String,
    pub bundle: String,
    pub scans: usize,
    pub positive_scans: usize,
    /// Patients (PatientID, or the study where a scan names none), the unit of the folds, and
    /// those with a positive scan.
    #[serde(default)]
    pub patients: usize,
    #[serde(default)]
    pub positive_patients: usize,
    pub slices: usize,
    pub labelled_slices: usize,
    pub folds: usize,
    pub inner_folds: usize,
    pub seed: u64,
    pub candidates: Vec<String>,
    /// Per outer fold: the candidates' inner figures and the choice.
    pub fold_choices: Vec<Vec<Choice>>,
    pub chosen_per_fold: Vec<String>,
    /// The adapted bundle's head: the candidates on every scan, and the one kept.
    pub final_choices: Vec<Choice>,
    pub chosen: String,
    /// Cross-validated (pooled test predictions of the outer folds).
    pub head: Figures,
    pub cnn: Figures,
    pub cnn_platt: Figures,
    /// The same cross-validation with each fold's network fine-tuned first (attention and
    /// classifier, encoder frozen), and whether the adapted bundle kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_tune: Option<FineTuneReport>,
    pub learning_curve: Vec<CurvePoint>,
    /// The shipped choice's cross-validated scan and slice AUC beside the network's as it came,
    /// paired over patients.
    #[serde(default)]
    pub comparison: Vec<Difference>,
    /// Out-of-distribution flags on the site's own held-out scans, by label.
    #[serde(default)]
    pub ood_flags: OodFlags,
    /// The same over [`OOD_SPLITS`] more random splits of the patients (each split a
    /// cross-validation of its own seed): every flag of a site's own scan is a false one.
    #[serde(default)]
    pub ood_splits: Vec<OodFlags>,
    /// The slices' correlation length on every scan ([`slice_correlation`]), over which the
    /// slice maps' noisy-OR runs.
    #[serde(default)]
    pub slice_correlation: f64,
    /// Whether "unsure" earns its place: the cross-validated test predictions of the head each
    /// fold ships, with its own spread (a GP head's, or the network's through the site maps
    /// refitted on bootstrap resamples of the fold's training patients), their unsure calls'
    /// error rate beside the sure ones' and a risk–coverage curve ([`unsure`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsure: Option<UnsureReport>,
    /// Every test prediction, for checking the figures independently.
    /// The sensitivity–specificity trade-off at [`TRADE_OFF`]'s sensitivities, on the
    /// cross-fitted predictions (each measured on patients not used to choose its threshold).
    #[serde(default)]
    pub trade_off: Vec<OperatingPoint>,
    /// The operating point `--sensitivity` fixed (the bundle calls at its threshold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operating_point: Option<OperatingPoint>,
    pub predictions: Vec<ScanPred>,
    pub seconds: f64,
}

/// The evidence on "unsure" (see [`AdaptReport::unsure`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UnsureReport {
    /// The head of each outer fold whose predictions these are.
    pub heads: Vec<String>,
    pub scans: unsure::UnsureEvidence,
    /// Over the labelled slices (absent without slice labels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slices: Option<unsure::UnsureEvidence>,
    /// The predictions these figures are of, for checking them independently (the network's
    /// fields are those of the report's own predictions).
    pub predictions: Vec<ScanPred>,
}

/// Fine-tuning, cross-validated.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FineTuneReport {
    /// Kept: its cross-validated scan log-likelihood beat the head on the network as it came.
    pub kept: bool,
    /// The head on the fine-tuned networks' evidence, and the fine-tuned networks alone.
    pub head: Figures,
    pub cnn: Figures,
    /// The head on the network as it came (the same folds), for comparison.
    pub plain_head: Figures,
    pub folds: Vec<FineTuneLog>,
    pub chosen_per_fold: Vec<String>,
    /// The adapted bundle's own fine-tuning (on every scan), when kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_log: Option<FineTuneLog>,
}

/// What [`adapt`] produced.
pub struct Adapted {
    pub report: AdaptReport,
    pub skipped: Vec<String>,
}

/// Test predictions of `chosen` on `test`, with the network's own (raw and through `net`, the
/// site's maps fitted on the same training scans); `original`: the test scans through the
/// network as it came (`test` may be through a fine-tuned one).
///
/// The network's go through `pairs`, the site maps
/// refitted on bootstrap resamples of the fold's training patients, as `ich predict` sends them
/// through the bundle's pairs: the probability is the mean over the pairs and the interval
/// their 5th–95th percentiles (without pairs: the point through the fold's maps, no spread).
/// The dropout passes that `ich predict` adds are left out here (their spread on ct-ich is a
/// tenth of the maps', docs/BENCHMARKS.md).
fn predict(
    chosen: &Chosen,
    (test, original): (&[&SiteScan], &[&SiteScan]),
    (net, pairs): (NetworkMaps, &[crate::bundle::MapPair]),
    fold: usize,
    samples: usize,
    seed: u64,
) -> Result<Vec<ScanPred>> {
    test.iter()
        .zip(original)
        .map(|(s, o)| {
            let point = |p: f64| [p, 0.0, p, p];
            let through = |p: f64, mapped: &dyn Fn(&crate::bundle::MapPair) -> Platt| {
                if pairs.is_empty() {
                    return None;
                }
                let mut v: Vec<f64> = pairs.iter().map(|m| mapped(m).apply(p)).collect();
                let q = gphead::predict::Summary::of(&mut v);
                Some([q.mean, q.sd, q.lo, q.hi])
            };
            let (p, slices) = match chosen {
                Chosen::Gp(f) => {
                    let model: &GpModel = &f.output.model;
                    let data = f.candidate.design(&[s], f.pca.as_ref())?;
                    let pred = model.predict(&data, samples, seed ^ fnv1a(&s.id))?;
                    let bag = pred.bags[0].get(model.bag_rule);
                    (
                        [bag.mean, bag.sd, bag.lo, bag.hi],
                        pred.instances
                            .iter()
                            .map(|i| [i.mean, i.sd, i.lo, i.hi])
                            .collect(),
                    )
                }
                Chosen::Network(m) => (
                    through(o.out.probability, &|m| m.scan).unwrap_or_else(|| point(m.scan(o))),
                    o.out
                        .slice_probability
                        .iter()
                        .zip(m.slices(o))
                        .map(|(&raw, mapped)| {
                            through(raw, &|m| m.slice).unwrap_or_else(|| point(mapped))
                        })
                        .collect(),
                ),
            };
            Ok(ScanPred {
                id: s.id.clone(),
                label: s.label,
                fold,
                p,
                slices,
                slice_labels: s.slice_labels.clone(),
                cnn: o.out.probability,
                cnn_slices: o.out.slice_probability.clone(),
                cnn_platt: net.scan(o),
                cnn_platt_slices: net.slices(o),
            })
        })
        .collect()
}

/// The folder of the new bundle, locked: one writer at a time, what a killed run left in it
/// swept; a folder that already holds a bundle is refused.
fn lock_new_bundle(out: &Path) -> Result<milbase::atomic::DirLock> {
    if out.join(crate::bundle::MANIFEST).exists() {
        return Err(Error::file(
            out,
            "already holds a model bundle; give a new folder for the adapted one",
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let (lock, _) =
        milbase::atomic::lock_folder(out, &[], "adapt").map_err(|e| Error::io(out, e))?;
    Ok(lock)
}

/// The folds are of patients: each needs one with a bleed and one without to test on.
fn check_enough_patients(scans: &[SiteScan], folds: usize) -> Result<()> {
    let (patients, pos) = (count_patients(scans, false), count_patients(scans, true));
    if pos < folds || patients - pos < folds {
        return Err(Error::Invalid(format!(
            "{} labelled scans of {patients} patients ({pos} with a positive scan): {}-fold \
             cross-validation over patients needs at least {} patients with a positive scan and \
             {} without",
            scans.len(),
            folds,
            folds,
            folds
        )));
    }
    Ok(())
}

/// The learning curve's training sizes: those asked for that every fold can train on (at
/// least 4, fewer than the smallest training set).
fn curve_sizes(asked: &[usize], folds: &[Vec<usize>], scans: usize) -> Vec<usize> {
    let smallest = folds.iter().map(|f| scans - f.len()).min().unwrap_or(0);
    asked
        .iter()
        .copied()
        .filter(|&n| n >= 4 && n < smallest)
        .collect()
}

/// The sensitivity–specificity trade-off of the cross-fitted scan probabilities, each point
/// measured on patients not used to choose its threshold, and the operating point asked for
/// (`--sensitivity`).
fn operating_points(
    scans: &[SiteScan],
    preds: &[ScanPred],
    job: &AdaptJob,
) -> Result<(Vec<OperatingPoint>, Option<OperatingPoint>)> {
    let patient_of: std::collections::HashMap<&str, u64> =
        scans.iter().map(|s| (s.id.as_str(), s.patient)).collect();
    let held: Vec<Held> = preds
        .iter()
        .map(|p| Held {
            p: p.p[0],
            label: p.label,
            fold: p.fold,
            patient: patient_of.get(p.id.as_str()).copied().unwrap_or(0),
        })
        .collect();
    let trade_off: Vec<OperatingPoint> = TRADE_OFF
        .iter()
        .filter_map(|&t| crate::bundle::operating::choose(&held, t, job.seed))
        .collect();
    let operating_point = match job.sensitivity {
        Some(t) => Some(
            crate::bundle::operating::choose(&held, t, job.seed).ok_or_else(|| {
                Error::Invalid(format!(
                    "--sensitivity {t}: no operating point without scans of both labels"
                ))
            })?,
        ),
        None => None,
    };
    Ok((trade_off, operating_point))
}

/// What cross-validation found: the variant kept (the network as it came, or fine-tuned where
/// that was asked and its cross-validated scan log-likelihood is better), the fine-tuning's
/// figures, and the network's own figures and out-of-distribution flags on the same folds.
struct Variants {
    cv: Cv,
    keep_tuned: bool,
    fine_tune: Option<FineTuneReport>,
    cnn: Figures,
    cnn_platt: Figures,
    ood_flags: OodFlags,
}

/// Cross-validates the head on the network as it came and, with `--fine-tune`, on the network
/// fine-tuned in each fold; keeps the better.
fn cross_validate_variants(
    ctx: &Ctx,
    (scans, folds, curve_sizes): (&[SiteScan], &[Vec<usize>], &[usize]),
    tune: &Tune,
    job: &AdaptJob,
    progress: &dyn Progress,
) -> Result<Variants> {
    let plain = cross_validate(ctx, scans, folds, curve_sizes, None, job, progress)?;
    let tuned = match &job.fine_tune {
        Some(_) => Some(cross_validate(
            ctx,
            scans,
            folds,
            curve_sizes,
            Some(tune),
            job,
            progress,
        )?),
        None => None,
    };
    // fine-tuning is kept only where the cross-validated scan log-likelihood says it helps
    let plain_ll = score(&plain.preds, Who::Head).scan.log_likelihood;
    let keep_tuned = tuned
        .as_ref()
        .is_some_and(|t| score(&t.preds, Who::Head).scan.log_likelihood > plain_ll);
    let fine_tune = tuned.as_ref().map(|t| FineTuneReport {
        kept: keep_tuned,
        head: score(&t.preds, Who::Head),
        cnn: score(&t.preds, Who::Cnn),
        plain_head: score(&plain.preds, Who::Head),
        folds: t.logs.clone(),
        chosen_per_fold: t.chosen_per_fold.clone(),
        final_log: None,
    });
    // the network as it came, on the same folds (its outputs do not depend on the variant):
    // the report's network figures and every prediction's network fields are its
    let (cnn, cnn_platt) = (
        score(&plain.preds, Who::Cnn),
        score(&plain.preds, Who::CnnPlatt),
    );
    let tuned = tuned.map(|mut t| {
        network_fields_from(&mut t.preds, &plain.preds);
        for (c, p) in t.curve.iter_mut().zip(&plain.curve) {
            network_fields_from(c, p);
        }
        t
    });
    let ood_flags = plain.ood.clone();
    let cv = match (keep_tuned, tuned) {
        (true, Some(t)) => t,
        _ => plain,
    };
    Ok(Variants {
        cv,
        keep_tuned,
        fine_tune,
        cnn,
        cnn_platt,
        ood_flags,
    })
}

/// Runs the job: the adapted bundle with its report. Its steps are calls, in the order the
/// report gives them; it stays over 150 lines because the report is one literal that names
/// every figure it holds.
pub fn adapt(job: &AdaptJob, progress: &dyn Progress) -> Result<Adapted> {
    job.validate()?;
    let t0 = std::time::Instant::now();
    let source = Bundle::open(&job.model)?;
    let _lock = lock_new_bundle(&job.out)?;
    if job.compute.precision != crate::pipeline::device::Precision::F32 {
        return Err(Error::Invalid(
            "adapt computes in f32: its fine-tuning and calibration on a few dozen scans gain \
             nothing from half precision"
                .into(),
        ));
    }
    let dev = job.compute.device()?;
    let net = Trained::load(source.cnn.model.clone(), &source.weights(), &dev)?;
    let (scans, skipped) = site_scans(
        &source,
        &net,
        &job.inputs,
        &job.labels,
        &job.limits,
        progress,
    )?;
    let labels: Vec<u8> = scans.iter().map(|s| s.label).collect();
    check_enough_patients(&scans, job.folds)?;
    let cnn_dim = source.manifest.cnn.dim;
    let candidates = Candidate::all(cnn_dim, job.project, &job.evidence);
    if candidates.is_empty() {
        return Err(Error::Invalid("no candidate evidence".into()));
    }
    let params = FitParams {
        inducing: job.inducing,
        kernel_steps: job.kernel_steps.then(gphead::params::KernelSteps::default),
        seed: job.seed,
        ..FitParams::default()
    }
    .validate()?;
    let ctx = Ctx {
        params,
        inner: job.inner_folds,
        samples: job.samples,
        candidates: &candidates,
    };
    // folds of patients, not scans: a patient's follow-up scans are all tested in one fold
    let patients: Vec<u64> = scans.iter().map(|s| s.patient).collect();
    let folds = milbase::grouped_stratified_folds(&labels, &patients, job.folds, job.seed)
        .map_err(|e| Error::Invalid(e.to_string()))?;
    let curve_sizes = curve_sizes(&job.curve, &folds, scans.len());
    let variants = if job.fine_tune.is_some() { 2 } else { 1 };
    progress.stage(
        "cross-validation folds",
        (variants * job.folds * (1 + curve_sizes.len()) + 1) as u64,
    );
    let tune = Tune {
        net: &net,
        weights: source.weights(),
        job,
    };
    let Variants {
        cv,
        keep_tuned,
        fine_tune,
        cnn,
        cnn_platt,
        ood_flags,
    } = cross_validate_variants(&ctx, (&scans, &folds, &curve_sizes), &tune, job, progress)?;
    let learning_curve = curve_sizes
        .iter()
        .zip(&cv.curve)
        .filter(|(_, p)| p.len() == scans.len())
        .map(|(&n, p)| CurvePoint {
            scans: n,
            head: score(p, Who::Head),
            cnn_platt: score(p, Who::CnnPlatt),
        })
        .collect();

    // the adapted bundle: fine-tuned on every scan when that was kept, then its head chosen and
    // fitted on every scan
    let all: Vec<&SiteScan> = scans.iter().collect();
    let (final_net, final_scans, final_log) = if keep_tuned {
        let (n, s, log) = tune.run(&all, &scans, job.seed)?;
        (Some(n), Some(s), Some(log))
    } else {
        (None, None, None)
    };
    let final_all: Vec<&SiteScan> = match &final_scans {
        Some(s) => s.iter().collect(),
        None => all,
    };
    let original: Vec<&SiteScan> = scans.iter().collect();
    let (chosen, final_choices) = ctx.choose_and_fit(&final_all, &original, job.seed)?;
    // the network as it came ships its own weights, not the fine-tuned ones
    let final_net = final_net.filter(|_| matches!(chosen, Chosen::Gp(_)));
    progress.inc(1);
    progress.done();
    let ood = OodSummary::fit(
        &scans
            .iter()
            .map(|s| s.out.features.clone())
            .collect::<Vec<_>>(),
        job.seed,
    )?;
    let head = score(&cv.preds, Who::Head);
    let unsure = unsure_report(&cv.spread, cv.spread_heads, job.folds);
    let (trade_off, operating_point) = operating_points(&scans, &cv.preds, job)?;
    let report = AdaptReport {
        tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
        created: rfc3339(std::time::SystemTime::now()),
        source_bundle: job.model.display().to_string(),
        bundle: job.out.display().to_string(),
        scans: scans.len(),
        patients: count_patients(&scans, false),
        positive_patients: count_patients(&scans, true),
        positive_scans: labels.iter().filter(|&&l| l == 1).count(),
        slices: scans.iter().map(|s| s.out.features.len()).sum(),
        labelled_slices: scans
            .iter()
            .flat_map(|s| &s.slice_labels)
            .filter(|l| l.is_some())
            .count(),
        folds: job.folds,
        inner_folds: job.inner_folds,
        seed: job.seed,
        candidates: candidates.iter().map(Candidate::name).collect(),
        fold_choices: cv.fold_choices,
        chosen_per_fold: cv.chosen_per_fold,
        final_choices,
        chosen: chosen.name(),
        comparison: comparison(&scans, &cv.preds, job.seed),
        ood_flags,
        ood_splits: ood_over_splits(&scans, job.folds, OOD_SPLITS, job.seed)?,
        slice_correlation: slice_correlation(&scans.iter().collect::<Vec<_>>()),
        cnn,
        cnn_platt,
        head,
        fine_tune: fine_tune.map(|f| FineTuneReport {
            final_log: final_log.clone(),
            ..f
        }),
        learning_curve,
        unsure,
        trade_off,
        operating_point,
        predictions: cv.preds,
        seconds: t0.elapsed().as_secs_f64(),
    };
    write_bundle(
        job,
        &source,
        final_scans.as_deref().unwrap_or(&scans),
        &chosen,
        &ood,
        &report,
        final_net.as_ref(),
    )?;
    Ok(Adapted { report, skipped })
}

/// Copies the network's fields (raw and Platt-mapped) of `from` into the predictions of the same
/// scans in `to`.
fn network_fields_from(to: &mut [ScanPred], from: &[ScanPred]) {
    let by_id: std::collections::HashMap<&str, &ScanPred> =
        from.iter().map(|p| (p.id.as_str(), p)).collect();
    for p in to {
        if let Some(q) = by_id.get(p.id.as_str()) {
            p.cnn = q.cnn;
            p.cnn_slices = q.cnn_slices.clone();
            p.cnn_platt = q.cnn_platt;
            p.cnn_platt_slices = q.cnn_platt_slices.clone();
        }
    }
}

/// The evidence on "unsure" from pooled test predictions of a head with a spread, over scans
/// and over labelled slices (report's thresholds: 0.5, sd 0.1).
fn unsure_report(spread: &[ScanPred], heads: Vec<String>, folds: usize) -> Option<UnsureReport> {
    if spread.is_empty() || heads.len() != folds {
        return None;
    }
    let thr = THRESHOLDS;
    let scans: Vec<(u8, [f64; 4])> = spread.iter().map(|p| (p.label, p.p)).collect();
    let slices: Vec<(u8, [f64; 4])> = spread
        .iter()
        .flat_map(|p| p.slice_labels.iter().zip(&p.slices))
        .filter_map(|(l, s)| l.map(|l| (l, *s)))
        .collect();
    Some(UnsureReport {
        heads,
        scans: unsure::evidence(&scans, &thr),
        slices: (!slices.is_empty()).then(|| unsure::evidence(&slices, &thr)),
        predictions: spread.to_vec(),
    })
}

/// The distinct patients among `scans` (with `positive`: those with a positive scan).
fn count_patients(scans: &[SiteScan], positive: bool) -> usize {
    scans
        .iter()
        .filter(|s| !positive || s.label == 1)
        .map(|s| s.patient)
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// A digest of the site's evidence (ids, labels, every feature), standing for the features
/// file a head is otherwise fitted on.
fn site_digest(scans: &[SiteScan]) -> String {
    let mut h = Sha256::new();
    for s in scans {
        h.update(s.id.as_bytes());
        h.update([s.label]);
        for f in &s.out.features {
            for v in f {
                h.update(v.to_le_bytes());
            }
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` site scans, one a patient, half positive, whose network probabilities separate the
    /// labels with noise (seeded): three slices each.
    fn site(n: usize, seed: u64) -> Vec<SiteScan> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..n)
            .map(|i| {
                let label = (i % 2) as u8;
                let z = |rng: &mut rand::rngs::StdRng| {
                    (if label == 1 { 1.0 } else { -1.0 }) + 1.5 * (rng.random::<f64>() - 0.5) * 2.0
                };
                let logit = z(&mut rng);
                let slice_logit: Vec<f64> = (0..3).map(|_| z(&mut rng) - 1.0).collect();
                let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
                SiteScan {
                    id: format!("s{i}"),
                    patient: i as u64,
                    label,
                    slice_labels: vec![None; 3],
                    subtypes: Vec::new(),
                    out: ScanOutput {
                        features: vec![vec![0.0; 2]; 3],
                        attention: vec![1.0 / 3.0; 3],
                        padding_attention: 0.0,
                        probability: sig(logit),
                        logit,
                        slice_probability: slice_logit.iter().map(|&l| sig(l)).collect(),
                        slice_logit,
                        attention_score: vec![0.0; 3],
                        dense: Vec::new(),
                        classifier_input: Vec::new(),
                    },
                }
            })
            .collect()
    }

    /// The maps' own uncertainty shrinks with the site: the spread of the bootstrap scan maps at
    /// a network probability of 0.7 is wider on 12 patients than on 400 (the same generator), and
    /// the pairs are seeded.
    #[test]
    fn a_small_site_gets_wider_map_draws_than_a_large_one() {
        let spread = |n: usize| {
            let scans = site(n, 11);
            let all: Vec<&SiteScan> = scans.iter().collect();
            let pairs = NetworkMaps::bootstrap(&all, MAP_DRAWS, 3, 5);
            assert_eq!(pairs.len(), MAP_DRAWS);
            assert_eq!(
                pairs,
                NetworkMaps::bootstrap(&all, MAP_DRAWS, 3, 5),
                "seeded"
            );
            let v: Vec<f64> = pairs.iter().map(|m| m.scan.apply(0.7)).collect();
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
        };
        let (small, large) = (spread(12), spread(400));
        assert!(
            small > 2.0 * large,
            "12 patients: sd {small}; 400: sd {large}"
        );
        assert!(large > 0.0);
    }
}
