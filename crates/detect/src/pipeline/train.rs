//! CNN training into a bundle: a preprocessed dataset's labelled scans, a seeded stratified
//! validation split, [`attcnn::training::train`] writing to the bundle's paths, then the manifest.

use std::path::{Path, PathBuf};

use attcnn::training::{train, Event, TrainRun};
use attcnn::{AttCnnConfig, BagSource, TrainConfig};
use preprocess::dataset::{Dataset, ScanEntry};

use crate::bundle::{training_paths, Bundle, CnnFolderConfig, DataSummary, Manifest, MODEL_FORMAT};
use crate::error::{Error, Result};
use crate::pipeline::device::Compute;

/// A CNN training job (`ich train-cnn`).
#[derive(Debug, Clone)]
pub struct TrainJob {
    /// Dataset written by `ich preprocess`, with labels.
    pub dataset: PathBuf,
    /// Bundle folder to write.
    pub out: PathBuf,
    /// Architecture; its `size` is taken from the dataset.
    pub model: AttCnnConfig,
    /// Training settings; their `precision` is taken from `compute`.
    pub train: TrainConfig,
    /// Fraction of the labelled scans (stratified) held out for validation, in [0, 1).
    pub valid_fraction: f64,
    /// Continue from the bundle's last checkpoint.
    pub resume: bool,
    /// Where the CNN trains, and the float type of its arithmetic.
    pub compute: Compute,
    /// A multi-label network: one output per hemorrhage subtype ([`crate::features::SUBTYPES`])
    /// beside "any", taught by the scans whose subtypes the labels give (`ich train-cnn`
    /// default; `--no-subtypes` for "any" alone). Without any such scan, "any" alone.
    pub subtypes: bool,
}

/// What the job is about to do (reported before the first epoch).
#[derive(Debug, Clone)]
pub struct TrainPlan {
    pub train_scans: usize,
    pub valid_scans: usize,
    pub model: AttCnnConfig,
}

/// What a training job produced.
#[derive(Debug, Clone)]
pub struct Trained {
    pub outcome: attcnn::training::TrainOutcome,
    pub manifest: Manifest,
}

/// A preprocessed dataset as bags for the CNN.
struct DatasetBags<'a> {
    ds: &'a Dataset,
    entries: Vec<&'a ScanEntry>,
    /// Each scan's subtype labels in [`crate::features::SUBTYPES`] order (empty: "any" alone).
    subtypes: Vec<Vec<Option<u8>>>,
}

impl BagSource for DatasetBags<'_> {
    fn len(&self) -> usize {
        self.entries.len()
    }
    fn label(&self, i: usize) -> Option<u8> {
        self.entries[i].label
    }
    fn subtypes(&self, i: usize) -> Vec<Option<u8>> {
        self.subtypes.get(i).cloned().unwrap_or_default()
    }
    fn name(&self, i: usize) -> String {
        self.entries[i].id.clone()
    }
    fn pixels(&self, i: usize) -> std::result::Result<(usize, Vec<u8>), String> {
        let p = self
            .ds
            .scan_pixels(self.entries[i])
            .map_err(|e| e.to_string())?;
        Ok((p.n_slices, p.data))
    }
}

/// The labelled scans of a dataset, checked: labels 0 or 1, a slice each, and at least 4.
fn labelled_scans<'a>(ds: &'a Dataset, path: &Path) -> Result<Vec<&'a ScanEntry>> {
    let entries: Vec<&ScanEntry> = ds
        .manifest
        .scans
        .iter()
        .filter(|e| e.label.is_some())
        .collect();
    for e in &entries {
        if e.label.is_some_and(|l| l > 1) {
            return Err(Error::file(
                path,
                format!(
                    "scan {} has label {:?}; labels must be 0 or 1",
                    e.id, e.label
                ),
            ));
        }
        if e.n_slices == 0 {
            return Err(Error::file(path, format!("scan {} has no slices", e.id)));
        }
    }
    if entries.len() < 4 {
        return Err(Error::file(
            path,
            format!(
                "{} labelled scans; training needs at least 4 (preprocess with --labels)",
                entries.len()
            ),
        ));
    }
    Ok(entries)
}

/// The scans' subtypes, as `ich predict --labels` reads them (`wanted`): a multi-label network
/// when some scan has one, none otherwise.
fn scan_subtypes(
    ds: &Dataset,
    entries: &[&ScanEntry],
    wanted: bool,
) -> Result<Vec<Vec<Option<u8>>>> {
    let subtypes: Vec<Vec<Option<u8>>> = if wanted {
        entries
            .iter()
            .map(|e| {
                let meta = ds.scan_meta(e)?;
                let l = crate::features::SubtypeLabels::of(&meta);
                Ok(crate::features::SUBTYPES
                    .iter()
                    .map(|n| l.scan(n))
                    .collect())
            })
            .collect::<Result<_>>()?
    } else {
        Vec::new()
    };
    let with_subtype = subtypes
        .iter()
        .filter(|v: &&Vec<Option<u8>>| v.contains(&Some(1)))
        .count();
    Ok(if with_subtype > 0 {
        subtypes
    } else {
        Vec::new()
    })
}

/// Trains the attention CNN on a dataset's scan labels into the bundle `job.out`; `plan` is
/// called once before training, `progress` at every epoch and bag.
pub fn train_cnn(
    job: &TrainJob,
    plan: &dyn Fn(&TrainPlan),
    progress: &dyn Fn(Event<'_>),
) -> Result<Trained> {
    if !(0.0..1.0).contains(&job.valid_fraction) {
        return Err(Error::Invalid(format!(
            "the validation fraction must be within [0, 1), got {}",
            job.valid_fraction
        )));
    }
    let ds = Dataset::open(&job.dataset)?;
    let entries = labelled_scans(&ds, &job.dataset)?;
    let labels: Vec<u8> = entries.iter().map(|e| e.label.unwrap_or(0)).collect();
    let (train_idx, valid_idx) =
        milbase::stratified_holdout(&labels, job.valid_fraction, job.train.seed)
            .map_err(|e| Error::Invalid(e.to_string()))?;
    let subtypes = scan_subtypes(&ds, &entries, job.subtypes)?;
    let model = AttCnnConfig {
        size: ds.manifest.config.size,
        subtypes: if subtypes.is_empty() {
            0
        } else {
            crate::features::SUBTYPES.len()
        },
        ..job.model.clone()
    };
    model.validate().map_err(Error::Invalid)?;
    job.train.validate().map_err(Error::Invalid)?;
    // the float type is the compute's (kept in the bundle's training settings)
    let tc = attcnn::TrainConfig {
        precision: job.compute.precision,
        ..job.train.clone()
    };
    // before anything is written: a missing backend leaves no half-made bundle
    let device = job.compute.device()?;
    if job.compute.backend == crate::pipeline::device::Backend::Cuda {
        tracing::info!(
            "CUDA runs f32 matrix products as TF32 and draws dropout masks on the card: the \
             trained weights will differ from a CPU run's from the same seed \
             (notes/2026-11-26-cuda-h200-2.md)"
        );
    }
    std::fs::create_dir_all(&job.out).map_err(|e| Error::io(&job.out, e))?;
    // one writer of the bundle at a time; what a killed run left in it is swept
    let checkpoints = job.out.join(crate::bundle::CHECKPOINT);
    let (_lock, _) = milbase::atomic::lock_folder(&job.out, &[&checkpoints], "train-cnn")
        .map_err(|e| Error::io(&job.out, e))?;
    let folder = CnnFolderConfig {
        format_version: MODEL_FORMAT,
        model: model.clone(),
        train: Some(tc.clone()),
        preprocess: ds.manifest.config.clone(),
        dataset: job.dataset.display().to_string(),
        train_scans: train_idx.iter().map(|&i| entries[i].id.clone()).collect(),
        valid_scans: valid_idx.iter().map(|&i| entries[i].id.clone()).collect(),
    };
    if job.resume {
        let old = CnnFolderConfig::load(&job.out).map_err(|e| {
            Error::Invalid(format!("--resume needs the bundle of an earlier run: {e}"))
        })?;
        if old.model != model || old.preprocess != folder.preprocess {
            return Err(Error::file(
                &job.out,
                "--resume with another architecture or dataset configuration",
            ));
        }
    }
    folder.save(&job.out)?;
    plan(&TrainPlan {
        train_scans: train_idx.len(),
        valid_scans: valid_idx.len(),
        model: model.clone(),
    });
    let count_pos = |idx: &[usize]| idx.iter().filter(|&&i| labels[i] == 1).count();
    let summary = DataSummary {
        source: job.dataset.display().to_string(),
        train_scans: train_idx.len(),
        train_positive: count_pos(&train_idx),
        valid_scans: valid_idx.len(),
        valid_positive: count_pos(&valid_idx),
        slices: Some(
            train_idx
                .iter()
                .chain(&valid_idx)
                .map(|&i| entries[i].n_slices)
                .sum(),
        ),
        slices_per_scan: DataSummary::slice_range(
            train_idx
                .iter()
                .chain(&valid_idx)
                .map(|&i| entries[i].n_slices),
        ),
    };
    let source = DatasetBags {
        ds: &ds,
        entries,
        subtypes,
    };
    let paths = training_paths(&job.out);
    let outcome = train(
        &TrainRun {
            model: &model,
            config: &tc,
            train: &train_idx,
            valid: &valid_idx,
            device: &device,
            paths: &paths,
            resume: job.resume,
        },
        &source,
        progress,
    )?;
    let manifest =
        Bundle::write_after_cnn(&job.out, &folder, summary, &outcome.log, outcome.best_epoch)?;
    Ok(Trained { outcome, manifest })
}
