//! Room `bundle`: what a model is on disk. The model bundle is one folder holding everything a
//! prediction needs (models/README.md); [`evidence`] is what the head sees of a slice and the out-of-distribution summary kept
//! with it. It may use only the stage crates and [`crate::error`]: nothing here trains, predicts
//! or writes a report.
//!
//! `ich train-cnn` creates it (preprocessing config, CNN config and weights, training log);
//! `ich fit-gp --bundle` adds the GP head. `manifest.json` lists every file with its SHA-256;
//! [`Bundle::open`] refuses a bundle whose files changed or whose parts do not fit together.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use attcnn::training::{EpochLog, TrainPaths};
use attcnn::{AttCnnConfig, TrainConfig};
use gphead::GpModel;
use milbase::atomic::DirLock;
use preprocess::PreprocessConfig;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use preprocess::dataset::{read_json, write_atomic, write_json};

use crate::error::{Error, Result};

pub mod builtin;
pub mod envelope;
pub mod evidence;
pub mod operating;

/// Version of `manifest.json`.
pub const BUNDLE_FORMAT: u32 = 1;
/// Version of the bundle's `config.json` and of the weights' layout: 2 since the network is stored
/// by part (`encoder.*`, `attention.*`, `classifier.*`); 3 since the encoder is one of two
/// architectures (`ich`, `sa-dmil`); bundles of an older format must be retrained.
pub const MODEL_FORMAT: u32 = 3;
pub const MANIFEST: &str = "manifest.json";
pub const CNN_CONFIG: &str = "config.json";
pub const CNN_WEIGHTS: &str = "model.bpk";
pub const CNN_LOG: &str = "log.csv";
/// Training state (last weights, optimiser, epoch): not checksummed.
pub const CHECKPOINT: &str = "checkpoint";
pub const GP_MODEL: &str = "gp.json";
pub const GP_TRACE: &str = "gp.trace.csv";

/// The file of subtype `name`'s head in a bundle.
pub fn subtype_model(name: &str) -> String {
    format!("gp.{name}.json")
}
/// The projection of the CNN's features onto the GP head's (PCA), when the head has one.
pub const PROJECTION: &str = "projection.json";
/// The summary of the slices the head was fitted on, for out-of-distribution checks.
pub const OOD: &str = "ood.json";
/// `ich adapt`'s validation report of the site (JSON and HTML), when the head was adapted.
pub const ADAPT_JSON: &str = "adapt.json";
pub const ADAPT_HTML: &str = "adapt.html";

/// Where CNN training writes inside a bundle folder.
pub fn training_paths(dir: &Path) -> TrainPaths {
    TrainPaths {
        weights: dir.join(CNN_WEIGHTS),
        log: dir.join(CNN_LOG),
        checkpoint: dir.join(CHECKPOINT),
    }
}

/// The bundle's `config.json`: the CNN's architecture, training settings, the preprocessing of the
/// dataset it was trained on (inputs must match it) and its scan split.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CnnFolderConfig {
    pub format_version: u32,
    pub model: AttCnnConfig,
    /// Training settings (absent for imported weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub train: Option<TrainConfig>,
    pub preprocess: PreprocessConfig,
    pub dataset: String,
    pub train_scans: Vec<String>,
    pub valid_scans: Vec<String>,
}

impl CnnFolderConfig {
    pub fn load(dir: &Path) -> Result<Self> {
        let p = dir.join(CNN_CONFIG);
        let c: CnnFolderConfig = read_json(&p)?;
        if c.format_version != MODEL_FORMAT {
            return Err(Error::file(
                &p,
                format!(
                    "model folder format {} is not supported (this build reads {MODEL_FORMAT})",
                    c.format_version
                ),
            ));
        }
        // every value range-checked here, before a tensor library sees it (it would panic)
        c.model
            .validate()
            .and_then(|()| c.preprocess.validate())
            .and_then(|()| c.train.as_ref().map_or(Ok(()), |t| t.validate()))
            .map_err(|why| Error::file(&p, why))?;
        if c.model.size != c.preprocess.size {
            return Err(Error::file(
                &p,
                format!(
                    "the network takes {}² slices but the preprocessing makes {}²",
                    c.model.size, c.preprocess.size
                ),
            ));
        }
        Ok(c)
    }

    pub fn save(&self, dir: &Path) -> Result<()> {
        Ok(write_json(&dir.join(CNN_CONFIG), self)?)
    }
}

/// `manifest.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub format_version: u32,
    /// The `ich` version that wrote it.
    pub tool: String,
    /// When the CNN was trained (UTC, RFC 3339).
    pub created: String,
    /// When the bundle last changed (UTC, RFC 3339).
    pub updated: String,
    /// Preprocessing every input must go through (windows, size, filter, RSNA fix).
    pub preprocess: PreprocessConfig,
    pub cnn: CnnPart,
    /// The GP head, once `ich fit-gp --bundle` has run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gp: Option<GpPart>,
    /// Every file of the bundle (relative path) → SHA-256, hex.
    pub files: BTreeMap<String, String>,
    /// The site's operating point (`ich adapt --sensitivity`): `ich predict` calls a scan
    /// likely bleed at this threshold unless `--positive-threshold` says otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operating_point: Option<operating::OperatingPoint>,
}

/// The attention CNN of a bundle.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CnnPart {
    /// Architecture, training config and scan split (`config.json`).
    pub config: String,
    /// Weights of the best epoch (`model.bpk`, burn's binary record).
    pub weights: String,
    /// Training log (`log.csv`; absent for imported weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// Feature dimension D of the slice encoder.
    pub dim: usize,
    /// Input size (pixels, square).
    pub size: usize,
    /// What it was trained on (absent for imported weights: see `imported`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training: Option<DataSummary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<CnnValidation>,
    /// Where imported weights came from (`ich import`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<Imported>,
    /// When `ich adapt` fine-tuned the attention and classifier on a site's scans (the encoder
    /// frozen): its validation losses and epochs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_tuned: Option<attcnn::finetune::FineTuneLog>,
    /// Without a GP head, DICOM goes to the network as unquantised float windows (datasets still
    /// store bytes, and a head fitted on their features gets bytes from DICOM too).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub float_input: bool,
    /// The network as it came, shipped by `ich adapt` for a site with maps of its own
    /// probabilities fitted on the site's scan labels (then the bundle has no GP head).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<NetworkSite>,
    /// The scans the network was made for ([`envelope::Envelope`]): series outside it are left
    /// out or flagged before they are scored. Absent: every series is scored as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envelope: Option<envelope::Envelope>,
}

/// The site's maps of the network's own probabilities (`ich adapt` chose the network as it
/// came): the scan probability through `scan_map` (Platt, on the site's scan labels), every
/// one-slice probability through `slice_map` (fitted on the same scan labels by the
/// multiple-instance likelihood, [`gphead::calibrate::fit_instance_map`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NetworkSite {
    pub scan_map: gphead::calibrate::Platt,
    pub slice_map: gphead::calibrate::Platt,
    /// The same two maps fitted again on bootstrap resamples of the site's patients (`ich
    /// adapt`): the uncertainty of the maps themselves. Dropout pass `t` of a prediction goes
    /// through pair `t mod n`, so a site of few patients gets wider intervals than one of many.
    /// Empty in bundles adapted before they were kept: then only the network's own spread.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map_draws: Vec<MapPair>,
    /// The site's out-of-distribution summary (a bundle file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ood: Option<String>,
    /// Reports of the adaptation (bundle files).
    #[serde(default)]
    pub reports: Vec<String>,
    pub training: DataSummary,
    pub validation: GpValidation,
    /// The source bundle's subtype heads, carried beside the network (`gp.<subtype>.json`),
    /// each recalibrated on the site's scans where they had enough of it; empty when the
    /// source had none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<SubtypeHead>,
    /// What the subtype heads see of a slice (the CNN's features by default).
    #[serde(default, skip_serializing_if = "is_features")]
    pub evidence: crate::bundle::evidence::Evidence,
}

/// A scan map and a slice map fitted together (on one bootstrap resample of a site's patients).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MapPair {
    pub scan: gphead::calibrate::Platt,
    pub slice: gphead::calibrate::Platt,
}

/// The provenance of imported weights.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Imported {
    /// What they are, in words.
    pub name: String,
    /// Where they are published.
    pub published: String,
    /// The paper to cite.
    pub citation: String,
    /// The licence of the weights and the terms of the data they were trained on.
    pub licence: String,
    /// The source files (as given) and their SHA-256.
    pub sources: BTreeMap<String, String>,
    /// The checkpoint format.
    pub format: String,
    /// When they were imported (UTC, RFC 3339).
    pub imported: String,
}

/// What a model was trained on.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DataSummary {
    /// The dataset or features file, as given on the command line.
    pub source: String,
    pub train_scans: usize,
    pub train_positive: usize,
    pub valid_scans: usize,
    pub valid_positive: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slices: Option<usize>,
    /// The fewest and the most slices of a scan it was trained on: a scan outside this range is
    /// predicted with a warning (its scan probability, the calibrated probability of its most
    /// suspicious slice, was calibrated on scans of these lengths). Absent in older bundles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slices_per_scan: Option<[usize; 2]>,
}

impl DataSummary {
    /// `[fewest, most]` of some slice counts; `None` for none.
    pub fn slice_range(counts: impl IntoIterator<Item = usize>) -> Option<[usize; 2]> {
        counts.into_iter().fold(None, |r, n| match r {
            None => Some([n, n]),
            Some([lo, hi]) => Some([lo.min(n), hi.max(n)]),
        })
    }

    /// The warning for a scan of `n` slices outside [`DataSummary::slices_per_scan`], if it is.
    pub fn slice_warning(&self, n: usize) -> Option<String> {
        let [lo, hi] = self.slices_per_scan?;
        (n < lo || n > hi).then(|| {
            format!(
                "{n} slices, outside the {lo}–{hi} slices per scan the model was trained on: its scan probability is less reliable (on CQ500, scans outside the training range were the least calibrated: docs/BENCHMARKS.md)"
            )
        })
    }
}

/// Validation of the CNN at its best epoch.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CnnValidation {
    pub best_epoch: usize,
    pub epochs_run: usize,
    pub valid_loss: Option<f64>,
    pub valid_bag_auc: Option<f64>,
}

/// The GP head of a bundle.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GpPart {
    /// The fitted head with its feature standardisation (`gp.json`).
    pub model: String,
    /// Per-epoch trace (`gp.trace.csv`).
    pub trace: String,
    /// Model family (VGPMIL, G-VGPMIL, …).
    pub family: String,
    /// Feature dimension; must equal the CNN's, or the projection's output.
    pub dim: usize,
    /// The PCA projection of the head's evidence onto its inputs (`projection.json`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<String>,
    /// What the head sees of a slice: the CNN's features (default), or what the network's own
    /// classifier and attention make of the slice (docs/GPHEAD.md, "Evidence").
    #[serde(default, skip_serializing_if = "is_features")]
    pub evidence: crate::bundle::evidence::Evidence,
    /// The summary of the slices the head was fitted on (`ood.json`), for out-of-distribution
    /// checks at prediction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ood: Option<String>,
    /// `ich adapt`'s validation report of the site (`adapt.json`, `adapt.html`), if adapted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reports: Vec<String>,
    pub inducing: usize,
    /// SHA-256 of the features file it was fitted on.
    pub features_sha256: String,
    pub training: DataSummary,
    pub validation: GpValidation,
    /// The calibration map refitted on a site's own labelled scans (`ich recalibrate`), if it
    /// was; refitting the head (`ich fit-gp`) drops it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_calibration: Option<SiteCalibration>,
    /// One head per hemorrhage subtype on the same features (`gp.<subtype>.json`), for the
    /// subtypes the training scans had enough of; empty in older bundles and imported networks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<SubtypeHead>,
}

/// A GP head for one hemorrhage subtype: fitted like the "any" head, on the same features and
/// validation fraction, with the scan's subtype (any of its slices has it) as its label.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubtypeHead {
    /// The RSNA name (`epidural`, `intraparenchymal`, `intraventricular`, `subarachnoid`,
    /// `subdural`).
    pub name: String,
    /// The fitted head (`gp.<name>.json`).
    pub model: String,
    pub training: DataSummary,
    pub validation: GpValidation,
    /// Its calibration map refitted on a site's scans with a known subtype (`ich recalibrate`,
    /// `ich adapt`), if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_calibration: Option<SiteCalibration>,
    /// Why a site recalibration left it as it was (too few of the site's scans with the
    /// subtype): its probabilities are calibrated on its training scans, not on the site's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_note: Option<String>,
}

fn is_features(e: &crate::bundle::evidence::Evidence) -> bool {
    *e == crate::bundle::evidence::Evidence::Features
}

/// A recalibration of the GP head on a site's own labelled scans.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteCalibration {
    /// The features file of the site's scans, and its SHA-256.
    pub source: String,
    pub features_sha256: String,
    /// When (UTC, RFC 3339).
    pub date: String,
    pub scans: usize,
    pub positive: usize,
    /// The map now in the head, and the head's own map from its fit (`None`: the identity),
    /// which the new one was pulled toward and which a later recalibration starts from again.
    pub map: gphead::calibrate::Platt,
    pub previous: Option<gphead::calibrate::Platt>,
    /// The pull toward `previous`, chosen by cross-validation (`None`: infinite, `previous`
    /// kept: the site's scans did not ask for another map).
    pub strength: Option<f64>,
    /// The site's scans with the previous map, and cross-fitted with the new one (each scan's
    /// probability from a map fitted without it): what to expect on the site's next scans.
    pub before: gphead::metrics::Metrics,
    pub cross_fitted: gphead::metrics::Metrics,
    /// Folds of that cross-fitting.
    pub folds: usize,
}

/// Validation of the GP head on its held-out bags.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GpValidation {
    pub bag_auc: Option<f64>,
    pub bag_log_likelihood: Option<f64>,
    pub bag_ece: Option<f64>,
    pub calibrated: bool,
}

/// An opened, verified bundle.
pub struct Bundle {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub cnn: CnnFolderConfig,
}

/// SHA-256 of a file, hex.
pub fn sha256_file(path: &Path) -> Result<String> {
    // streamed: a bundle's weights may be large; only a regular file is read
    let (mut f, _) =
        milbase::bounded::open_regular(path, u64::MAX).map_err(|e| Error::io(path, e))?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h).map_err(|e| Error::io(path, e))?;
    Ok(hex(&h.finalize()))
}

/// The first `n` characters of `s` (never splits a character).
fn prefix(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A file name the manifest may list: a plain name or a relative path inside the bundle, never
/// absolute and never climbing out with `..`.
fn check_name(manifest: &Path, name: &str) -> Result<()> {
    if milbase::stays_inside(name) {
        Ok(())
    } else {
        Err(Error::file(
            manifest,
            format!("file name {name:?} points outside the bundle"),
        ))
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `t` as UTC RFC 3339 with seconds (`2026-11-21T09:30:00Z`).
pub use milbase::time::rfc3339;

fn now() -> String {
    rfc3339(SystemTime::now())
}

/// Removes the GP head's files (model, trace, projection): they belong to a CNN being replaced.
fn remove_head(dir: &Path) -> Result<()> {
    for stale in [GP_MODEL, GP_TRACE, PROJECTION, OOD, ADAPT_JSON, ADAPT_HTML] {
        let p = dir.join(stale);
        if p.exists() {
            tracing::warn!("{}: removed, it belongs to the previous CNN", p.display());
            std::fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
        }
    }
    Ok(())
}

impl Bundle {
    /// Writes a fresh manifest after CNN training. A GP head fitted on an earlier CNN no longer
    /// fits the new features and is removed.
    pub fn write_after_cnn(
        dir: &Path,
        cnn: &CnnFolderConfig,
        training: DataSummary,
        log: &[EpochLog],
        best_epoch: usize,
    ) -> Result<Manifest> {
        remove_head(dir)?;
        let best = log.iter().find(|l| l.epoch == best_epoch);
        let created = now();
        let mut m = Manifest {
            format_version: BUNDLE_FORMAT,
            tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
            created: created.clone(),
            updated: created,
            preprocess: cnn.preprocess.clone(),
            cnn: CnnPart {
                config: CNN_CONFIG.into(),
                weights: CNN_WEIGHTS.into(),
                log: Some(CNN_LOG.into()),
                dim: cnn.model.dim,
                size: cnn.model.size,
                training: Some(training),
                fine_tuned: None,
                site: None,
                validation: Some(CnnValidation {
                    best_epoch,
                    epochs_run: log.len(),
                    valid_loss: best.map(|b| b.valid_loss).filter(|v| v.is_finite()),
                    valid_bag_auc: best.and_then(|b| b.valid_auc),
                }),
                imported: None,
                float_input: false,
                envelope: None,
            },
            gp: None,
            files: BTreeMap::new(),
            operating_point: None,
        };
        Self::seal(dir, &mut m)?;
        Ok(m)
    }

    /// Writes the manifest of a bundle whose CNN was imported (its `config.json` and weights
    /// already in `dir`); a GP head of an earlier CNN there is removed.
    pub fn write_imported(
        dir: &Path,
        cnn: &CnnFolderConfig,
        imported: Imported,
    ) -> Result<Manifest> {
        remove_head(dir)?;
        let created = now();
        let mut m = Manifest {
            format_version: BUNDLE_FORMAT,
            tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
            created: created.clone(),
            updated: created,
            preprocess: cnn.preprocess.clone(),
            cnn: CnnPart {
                config: CNN_CONFIG.into(),
                weights: CNN_WEIGHTS.into(),
                log: None,
                dim: cnn.model.dim,
                size: cnn.model.size,
                training: None,
                validation: None,
                fine_tuned: None,
                site: None,
                imported: Some(imported),
                float_input: true,
                envelope: Some(envelope::Envelope::sa_dmil()),
            },
            gp: None,
            files: BTreeMap::new(),
            operating_point: None,
        };
        Self::seal(dir, &mut m)?;
        Ok(m)
    }

    /// Checksums every file the manifest names and writes it atomically.
    fn seal(dir: &Path, m: &mut Manifest) -> Result<()> {
        Self::commit(dir, m, &[])
    }

    /// Writes the manifest naming the checksums of the files staged under `names`
    /// ([`staged`]; the others as they are): the commit; then moves each staged file into place.
    /// A crash before the manifest is written leaves the old bundle (the staged files are dropped
    /// when it is next opened); after, the next open finishes the moves ([`roll_forward`]).
    /// Either way the bundle opens, and a rerun starts from a whole bundle.
    fn commit(dir: &Path, m: &mut Manifest, names: &[&str]) -> Result<()> {
        let mut files = BTreeMap::new();
        let mut listed = vec![m.cnn.config.clone(), m.cnn.weights.clone()];
        listed.extend(m.cnn.log.clone());
        if let Some(gp) = &m.gp {
            listed.extend([gp.model.clone(), gp.trace.clone()]);
            listed.extend(gp.projection.clone());
            listed.extend(gp.ood.clone());
            listed.extend(gp.reports.iter().cloned());
            listed.extend(gp.subtypes.iter().map(|h| h.model.clone()));
        }
        if let Some(site) = &m.cnn.site {
            listed.extend(site.ood.clone());
            listed.extend(site.reports.iter().cloned());
            listed.extend(site.subtypes.iter().map(|h| h.model.clone()));
        }
        for n in listed {
            let file = if names.contains(&n.as_str()) {
                staged(dir, &n)
            } else {
                dir.join(&n)
            };
            files.insert(n, sha256_file(&file)?);
        }
        m.files = files;
        write_json(&dir.join(MANIFEST), m)?;
        for name in names {
            let (s, p) = (staged(dir, name), dir.join(name));
            milbase::atomic::move_file(&s, &p).map_err(|e| Error::io(&p, e))?;
        }
        Ok(())
    }

    /// Opens a bundle: format, checksums of every file, and the parts against each other.
    /// Reading takes no lock (a bundle may lie in a read-only folder); only an interrupted
    /// update found in it is finished or dropped under the bundle's lock, and a live writer's
    /// update in progress is refused, naming it.
    pub fn open(dir: &Path) -> Result<Bundle> {
        Self::open_with(dir, None)
    }

    /// Opens a bundle to change it (`fit-gp --bundle`, `recalibrate`): its lock is taken first
    /// and held by the caller until the change is committed, so that no other writer, and no
    /// reader finishing an interrupted update, steps in between.
    pub fn open_for_update(dir: &Path, command: &str) -> Result<(Bundle, DirLock)> {
        let (lock, _) =
            milbase::atomic::lock_folder(dir, &[], command).map_err(|e| Error::io(dir, e))?;
        let b = Self::open_with(dir, Some(&lock))?;
        Ok((b, lock))
    }

    fn open_with(dir: &Path, held: Option<&DirLock>) -> Result<Bundle> {
        let mp = dir.join(MANIFEST);
        if !mp.exists() {
            return Err(Error::file(
                dir,
                format!(
                    "not a model bundle (no {MANIFEST}). Built into ich: `--model sa-dmil` \
                     (published weights trained on RSNA data; `ich models` lists them). \
                     `ich import CHECKPOINT --out DIR` makes one from published weights, and \
                     `ich train-cnn --out {}` writes one when training ends",
                    dir.display()
                ),
            ));
        }
        let m: Manifest = read_json(&mp)?;
        if m.format_version != BUNDLE_FORMAT {
            return Err(Error::file(
                &mp,
                format!(
                    "bundle format {} is not supported (this build reads {BUNDLE_FORMAT})",
                    m.format_version
                ),
            ));
        }
        m.preprocess
            .validate()
            .map_err(|why| Error::file(&mp, why))?;
        roll_forward(dir, &m, held)?;
        let mut needed = vec![&m.cnn.config, &m.cnn.weights];
        if let Some(gp) = &m.gp {
            needed.push(&gp.model);
            check_name(&mp, &gp.trace)?;
            needed.extend(gp.projection.as_ref());
            needed.extend(gp.ood.as_ref());
            needed.extend(gp.reports.iter());
            needed.extend(gp.subtypes.iter().map(|h| &h.model));
        }
        if let Some(site) = &m.cnn.site {
            if m.gp.is_some() {
                return Err(Error::file(
                    &mp,
                    "names both a GP head and the network's site maps; a bundle predicts with one",
                ));
            }
            needed.extend(site.ood.as_ref());
            needed.extend(site.reports.iter());
            needed.extend(site.subtypes.iter().map(|h| &h.model));
        }
        for n in needed {
            if !m.files.contains_key(n) {
                return Err(Error::file(
                    &mp,
                    format!("{n} has no checksum in the manifest"),
                ));
            }
        }
        for (name, want) in &m.files {
            check_name(&mp, name)?;
            let p = dir.join(name);
            if !p.exists() {
                return Err(Error::file(
                    dir,
                    format!("{name} is listed in the manifest but missing"),
                ));
            }
            let got = sha256_file(&p)?;
            if &got != want {
                return Err(Error::file(
                    &p,
                    format!(
                        "checksum mismatch (manifest {}…, file {}…): the file changed after the bundle was written",
                        prefix(want, 12),
                        prefix(&got, 12)
                    ),
                ));
            }
        }
        if m.cnn.config != CNN_CONFIG {
            return Err(Error::file(
                &mp,
                format!(
                    "the CNN config must be {CNN_CONFIG}, not {:?}",
                    m.cnn.config
                ),
            ));
        }
        let cnn = CnnFolderConfig::load(dir)?;
        if !preprocess::resample::FILTERS.contains(&m.preprocess.filter.as_str()) {
            return Err(Error::file(
                &mp,
                format!(
                    "resampling filter {:?} is not one of {:?}",
                    m.preprocess.filter,
                    preprocess::resample::FILTERS
                ),
            ));
        }
        if cnn.preprocess != m.preprocess {
            return Err(Error::file(
                dir,
                "the CNN was trained with another preprocessing than the manifest's",
            ));
        }
        if cnn.model.size != m.preprocess.size || cnn.model.dim != m.cnn.dim {
            return Err(Error::file(
                dir,
                format!(
                    "CNN input size {} / feature dimension {} do not match the manifest ({} / {})",
                    cnn.model.size, cnn.model.dim, m.preprocess.size, m.cnn.dim
                ),
            ));
        }
        if let Some(gp) = &m.gp {
            let gives = gp.evidence.dim(m.cnn.dim);
            if gp.dim != gives && gp.projection.is_none() {
                return Err(Error::file(
                    dir,
                    format!(
                        "the GP head takes {} features, its evidence ({}) gives {gives}",
                        gp.dim,
                        gp.evidence.name()
                    ),
                ));
            }
        }
        let b = Bundle {
            dir: dir.to_path_buf(),
            manifest: m,
            cnn,
        };
        b.projection()?;
        b.ood()?;
        Ok(b)
    }

    /// The head's out-of-distribution summary, when it has one (checked: shapes, finite
    /// numbers, the CNN's feature dimension).
    pub fn ood(&self) -> Result<Option<crate::bundle::evidence::OodSummary>> {
        let m = &self.manifest;
        let name = m.gp.as_ref().and_then(|g| g.ood.as_ref());
        let Some(name) = name.or(m.cnn.site.as_ref().and_then(|s| s.ood.as_ref())) else {
            return Ok(None);
        };
        let p = self.dir.join(name);
        let o: crate::bundle::evidence::OodSummary = read_json(&p)?;
        o.check().map_err(|e| Error::file(&p, e))?;
        if o.d != self.manifest.cnn.dim {
            return Err(Error::file(
                &p,
                format!(
                    "summarises {} features, the CNN gives {}",
                    o.d, self.manifest.cnn.dim
                ),
            ));
        }
        Ok(Some(o))
    }

    /// The evidence the heads take: the GP head's, else that of the subtype heads a site
    /// bundle carries beside the network, else the CNN's features.
    pub fn evidence(&self) -> crate::bundle::evidence::Evidence {
        let m = &self.manifest;
        m.gp.as_ref()
            .map(|g| g.evidence)
            .or(m.cnn.site.as_ref().map(|s| s.evidence))
            .unwrap_or_default()
    }

    /// Copies a whole bundle (every file its manifest lists, then the manifest) into `to`, a
    /// folder that must not hold a bundle yet; returns the copy, opened.
    pub fn copy_to(&self, to: &Path) -> Result<Bundle> {
        if to.join(MANIFEST).exists() {
            return Err(Error::file(
                to,
                "already holds a model bundle; give a new folder",
            ));
        }
        std::fs::create_dir_all(to).map_err(|e| Error::io(to, e))?;
        for name in self.manifest.files.keys() {
            let (from, dest) = (self.dir.join(name), to.join(name));
            if let Some(parent) = dest.parent() {
                // never through a link planted in the new bundle's folder
                milbase::atomic::create_dir_under(to, parent).map_err(|e| Error::io(parent, e))?;
            }
            milbase::atomic::copy_file(&from, &dest).map_err(|e| Error::io(&dest, e))?;
        }
        write_json(&to.join(MANIFEST), &self.manifest)?;
        Bundle::open(to)
    }

    /// The PCA projection between the CNN's features and the GP head's, when there is one
    /// (checked: finite, its input the CNN's dimension, its output the head's).
    pub fn projection(&self) -> Result<Option<gphead::pca::Pca>> {
        let Some(name) = self
            .manifest
            .gp
            .as_ref()
            .and_then(|g| g.projection.as_ref())
        else {
            return Ok(None);
        };
        let p = self.dir.join(name);
        let pca: gphead::pca::Pca = read_json(&p)?;
        pca.check().map_err(|e| Error::file(&p, e))?;
        let gp_dim = self.manifest.gp.as_ref().map_or(0, |g| g.dim);
        let gives = self.evidence().dim(self.manifest.cnn.dim);
        if pca.d != gives || pca.k != gp_dim {
            return Err(Error::file(
                &p,
                format!(
                    "projects {} features onto {}, but the head's evidence has {gives} and the GP head takes {gp_dim}",
                    pca.d, pca.k
                ),
            ));
        }
        Ok(Some(pca))
    }

    pub fn weights(&self) -> PathBuf {
        self.dir.join(&self.manifest.cnn.weights)
    }

    /// The subtype heads by name, in the manifest's order: the GP head's, each taking the "any"
    /// head's features, or those a site bundle carries beside the network, taking
    /// [`Bundle::evidence`] unprojected (none when the bundle has neither).
    pub fn subtype_heads(&self) -> Result<Vec<(String, GpModel)>> {
        let m = &self.manifest;
        let (heads, dim) = match (&m.gp, &m.cnn.site) {
            (Some(part), _) => (&part.subtypes, part.dim),
            (None, Some(site)) => (&site.subtypes, site.evidence.dim(m.cnn.dim)),
            (None, None) => return Ok(Vec::new()),
        };
        heads
            .iter()
            .map(|h| Ok((h.name.clone(), self.head_file(&h.model, dim)?)))
            .collect()
    }

    /// The GP head (checked against the CNN's feature dimension).
    pub fn gp(&self) -> Result<GpModel> {
        let Some(part) = &self.manifest.gp else {
            return Err(Error::file(
                &self.dir,
                format!(
                    "the bundle has no GP head yet (run `ich fit-gp --bundle {}`)",
                    self.dir.display()
                ),
            ));
        };
        self.head_file(&part.model, part.dim)
    }

    /// A head's file of the bundle, which must take `dim` features as the manifest says.
    fn head_file(&self, name: &str, dim: usize) -> Result<GpModel> {
        let p = self.dir.join(name);
        let gp = GpModel::load(&p)?;
        if gp.d != dim {
            return Err(Error::file(
                &p,
                format!(
                    "the GP head takes {} features, the manifest says {dim}",
                    gp.d
                ),
            ));
        }
        Ok(gp)
    }

    /// Checks that a features file of `d` features per slice comes from this bundle's CNN.
    pub fn check_features(&self, features: &Path, d: usize) -> Result<()> {
        if self.manifest.cnn.dim == d {
            return Ok(());
        }
        Err(Error::file(
            features,
            format!(
                "{d} features per slice, but the bundle's CNN gives {} (extract them with `ich extract --model {}`)",
                self.manifest.cnn.dim,
                self.dir.display()
            ),
        ))
    }

    /// Checks that a dataset was preprocessed the way the bundle expects.
    pub fn check_preprocess(&self, what: &Path, cfg: &PreprocessConfig) -> Result<()> {
        let want = &self.manifest.preprocess;
        if cfg.windows != want.windows {
            return Err(Error::file(
                what,
                format!(
                    "windows {} do not match the bundle's {}",
                    windows_text(cfg),
                    windows_text(want)
                ),
            ));
        }
        if cfg.size != want.size {
            return Err(Error::file(
                what,
                format!(
                    "image size {} does not match the bundle's {}",
                    cfg.size, want.size
                ),
            ));
        }
        if cfg.filter != want.filter || cfg.rsna_fix != want.rsna_fix {
            return Err(Error::file(
                what,
                "resampling filter / RSNA fix differ from the bundle's",
            ));
        }
        Ok(())
    }

    /// Adds (or replaces) the GP head: writes `gp.json`, its trace and its projection (if any),
    /// then the manifest.
    pub fn add_gp(
        &mut self,
        model: &GpModel,
        trace_csv: &str,
        projection: Option<&gphead::pca::Pca>,
        part: GpPart,
    ) -> Result<()> {
        self.add_gp_with(model, trace_csv, projection, part, &[])
    }

    /// [`Bundle::add_gp`] with more files of the head (`name`, bytes), listed as its `ood` or
    /// `reports` by `part`; files of a previous head that the new one does not list are removed.
    pub fn add_gp_with(
        &mut self,
        model: &GpModel,
        trace_csv: &str,
        projection: Option<&gphead::pca::Pca>,
        mut part: GpPart,
        extras: &[(&str, &[u8])],
    ) -> Result<()> {
        let stale = self.dir.join(PROJECTION);
        for (name, bytes) in extras {
            check_name(&self.dir.join(MANIFEST), name)?;
            write_atomic(&staged(&self.dir, name), bytes)?;
        }
        match projection {
            Some(p) => {
                write_json(&staged(&self.dir, PROJECTION), p)?;
                part.projection = Some(PROJECTION.into());
            }
            None => part.projection = None,
        }
        model.save(&staged(&self.dir, &part.model))?;
        write_atomic(&staged(&self.dir, &part.trace), trace_csv.as_bytes())?;
        let mut names = vec![part.model.clone(), part.trace.clone()];
        names.extend(part.projection.clone());
        names.extend(extras.iter().map(|(n, _)| n.to_string()));
        let keep: Vec<String> = part.ood.iter().chain(&part.reports).cloned().collect();
        self.manifest.gp = Some(part);
        self.manifest.cnn.site = None;
        self.manifest.updated = now();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        Self::commit(&self.dir, &mut self.manifest, &names)?;
        if self
            .manifest
            .gp
            .as_ref()
            .is_some_and(|g| g.projection.is_none())
            && stale.exists()
        {
            std::fs::remove_file(&stale).map_err(|e| Error::io(&stale, e))?;
        }
        for old in [OOD, ADAPT_JSON, ADAPT_HTML] {
            let p = self.dir.join(old);
            if !keep.iter().any(|k| k == old) && p.exists() {
                std::fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
            }
        }
        // a previous head's subtype heads that this one does not list
        let listed: Vec<String> = self
            .manifest
            .gp
            .iter()
            .flat_map(|g| g.subtypes.iter().map(|h| h.model.clone()))
            .collect();
        for name in crate::features::SUBTYPES.map(subtype_model) {
            let p = self.dir.join(&name);
            if !listed.contains(&name) && p.exists() {
                std::fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
            }
        }
        Ok(())
    }

    /// Ships the network as it came with the site's maps of its probabilities (no GP head; one
    /// the bundle had is dropped, with its files) and the `extras` files the part names (its
    /// reports, its subtype heads); writes the files, then the manifest.
    pub fn set_network_site(&mut self, site: NetworkSite, extras: &[(&str, &[u8])]) -> Result<()> {
        for (name, bytes) in extras {
            check_name(&self.dir.join(MANIFEST), name)?;
            write_atomic(&staged(&self.dir, name), bytes)?;
        }
        for map in [site.scan_map, site.slice_map] {
            if !(map.a > 0.0 && map.a.is_finite() && map.b.is_finite() && map.c.is_none()) {
                return Err(Error::Invalid(format!(
                    "a site map σ({} · logit p + {}) is not an increasing Platt map",
                    map.a, map.b
                )));
            }
        }
        let before: Vec<String> = self.manifest.files.keys().cloned().collect();
        self.manifest.gp = None;
        self.manifest.cnn.site = Some(site);
        self.manifest.updated = now();
        let names: Vec<&str> = extras.iter().map(|(n, _)| *n).collect();
        Self::commit(&self.dir, &mut self.manifest, &names)?;
        // the dropped head's files (its model, trace, projection, subtype heads) that the new
        // manifest no longer lists
        for name in before {
            let p = self.dir.join(&name);
            if !self.manifest.files.contains_key(&name) && p.exists() {
                std::fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
            }
        }
        Ok(())
    }

    /// Writes a site recalibration (the heads themselves unchanged, their calibration maps
    /// replaced, where each came from recorded): the "any" head with its new map, the subtype heads given
    /// with theirs (`Some`: recalibrated; `None`: back to its own fit's map, an earlier site's
    /// dropped), and for every subtype head its note (`Some`: not recalibrated, and why), in
    /// one commit.
    pub fn set_site_calibration(
        &mut self,
        model: &GpModel,
        site: SiteCalibration,
        subtypes: &[(String, GpModel, Option<SiteCalibration>)],
        notes: &[(String, Option<String>)],
    ) -> Result<()> {
        let Some(part) = self.manifest.gp.as_mut() else {
            return Err(Error::file(
                &self.dir,
                "the bundle has no GP head to recalibrate",
            ));
        };
        model.save(&staged(&self.dir, &part.model))?;
        part.site_calibration = Some(site);
        let mut names = vec![part.model.clone()];
        for h in &mut part.subtypes {
            if let Some((_, m, s)) = subtypes.iter().find(|(n, _, _)| *n == h.name) {
                m.save(&staged(&self.dir, &h.model))?;
                h.site_calibration = s.clone();
                names.push(h.model.clone());
            }
            if let Some((_, note)) = notes.iter().find(|(n, _)| *n == h.name) {
                h.site_note = note.clone();
            }
        }
        self.manifest.updated = now();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        Self::commit(&self.dir, &mut self.manifest, &names)
    }
}

/// Where a replacement of the bundle's file `name` is written before the manifest names it.
fn staged(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.new"))
}

/// Finishes or drops what an interrupted [`Bundle::commit`] left: a staged file whose checksum
/// is the manifest's replaces its file (the manifest was written), any other staged file of a
/// listed name is removed (it was not).
fn roll_forward(dir: &Path, m: &Manifest, held: Option<&DirLock>) -> Result<()> {
    for name in m.files.keys() {
        check_name(&dir.join(MANIFEST), name)?;
    }
    if !m.files.keys().any(|n| staged(dir, n).exists()) {
        return Ok(());
    }
    // an update is under way or was interrupted: finished or dropped under the bundle's lock
    // (a live writer's lock refuses this, naming it)
    let taken = match held {
        Some(_) => None,
        None => Some(
            DirLock::take(dir, "open (an interrupted update)").map_err(|e| Error::io(dir, e))?,
        ),
    };
    for (name, want) in &m.files {
        let s = staged(dir, name);
        if !s.exists() {
            continue;
        }
        if &sha256_file(&s)? == want {
            let p = dir.join(name);
            tracing::warn!("{}: an interrupted update finished", p.display());
            milbase::atomic::move_file(&s, &p).map_err(|e| Error::io(&p, e))?;
        } else {
            tracing::warn!("{}: an interrupted update dropped", s.display());
            std::fs::remove_file(&s).map_err(|e| Error::io(&s, e))?;
        }
    }
    drop(taken);
    Ok(())
}

fn windows_text(c: &PreprocessConfig) -> String {
    c.windows
        .0
        .iter()
        .map(|w| format!("{}/{}", w.level, w.width))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn the_slice_range_and_its_warning_by_hand() {
        assert_eq!(DataSummary::slice_range([30, 24, 57, 41]), Some([24, 57]));
        assert_eq!(DataSummary::slice_range(std::iter::empty()), None);
        let d = DataSummary {
            source: "f.csv".into(),
            train_scans: 4,
            train_positive: 2,
            valid_scans: 0,
            valid_positive: 0,
            slices: Some(152),
            slices_per_scan: Some([24, 57]),
        };
        for inside in [24, 40, 57] {
            assert_eq!(d.slice_warning(inside), None);
        }
        for outside in [1, 23, 58, 413] {
            let w = d.slice_warning(outside).unwrap();
            assert!(
                w.starts_with(&format!("{outside} slices, outside the 24–57")),
                "{w}"
            );
        }
        // an older bundle records no range: no warning
        let old = DataSummary {
            slices_per_scan: None,
            ..d
        };
        assert_eq!(old.slice_warning(413), None);
    }

    /// A new CNN takes the old head with it, its PCA projection included.
    #[test]
    fn a_replaced_cnn_leaves_no_head_files() {
        let dir = tempfile::tempdir().unwrap();
        for f in [GP_MODEL, GP_TRACE, PROJECTION, CNN_CONFIG] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        remove_head(dir.path()).unwrap();
        for f in [GP_MODEL, GP_TRACE, PROJECTION] {
            assert!(!dir.path().join(f).exists(), "{f}");
        }
        assert!(dir.path().join(CNN_CONFIG).exists());
    }

    #[test]
    fn out_of_range_config_values_are_refused_at_load_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let good = CnnFolderConfig {
            format_version: MODEL_FORMAT,
            model: AttCnnConfig::default(),
            train: None,
            preprocess: PreprocessConfig::default(),
            dataset: "d".into(),
            train_scans: vec![],
            valid_scans: vec![],
        };
        good.save(dir.path()).unwrap();
        assert!(CnnFolderConfig::load(dir.path()).is_ok());
        // values burn or the resampler would panic on, each refused by the loader
        type Edit = fn(&mut serde_json::Value);
        let edits: [(&str, Edit); 5] = [
            ("conv dropout 2", |v| {
                v["model"]["conv_dropout"] = 2.0.into()
            }),
            ("head dropout -1", |v| {
                v["model"]["head_dropout"] = (-1.0).into()
            }),
            ("size 0", |v| v["model"]["size"] = 0.into()),
            ("filter", |v| v["preprocess"]["filter"] = "lanczos".into()),
            ("window width 0", |v| {
                v["preprocess"]["windows"][0]["width"] = 0.0.into()
            }),
        ];
        for (what, edit) in edits {
            let mut v = serde_json::to_value(&good).unwrap();
            edit(&mut v);
            std::fs::write(dir.path().join(CNN_CONFIG), v.to_string()).unwrap();
            let e = CnnFolderConfig::load(dir.path())
                .err()
                .unwrap_or_else(|| panic!("{what}"));
            assert!(e.to_string().contains("config.json"), "{what}: {e}");
        }
    }

    #[test]
    fn prefix_never_splits_a_character() {
        assert_eq!(prefix("ééééééééééééééé", 12), "éééééééééééé");
        assert_eq!(prefix("ab", 12), "ab");
    }

    #[test]
    fn names_outside_the_bundle_are_refused() {
        let m = Path::new("manifest.json");
        assert!(check_name(m, "gp.json").is_ok());
        assert!(check_name(m, "sub/gp.json").is_ok());
        for bad in ["../x", "/etc/passwd", "a/../../b", ""] {
            assert!(check_name(m, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rfc3339_of_known_instants() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-02-29 12:34:56 UTC = 951827696 (leap day of a century leap year)
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_827_696)),
            "2000-02-29T12:34:56Z"
        );
        // 2026-11-21 00:00:00 UTC = 1795219200
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_795_219_200)),
            "2026-11-21T00:00:00Z"
        );
    }
}
