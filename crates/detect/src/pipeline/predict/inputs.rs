//! The input side of a run: the study pulled from a PACS (an input like the others), the
//! datasets, the DICOM and NIfTI scans found (a shard's own only), their labels, and the series
//! screened against what the model was made for.

use std::path::{Path, PathBuf};
use std::time::Instant;

use milbase::Progress;
use preprocess::dataset::{Dataset, Skipped};
use preprocess::labels::Labels;
use preprocess::pipeline::find_scans_counting_others;
use preprocess::scan::Scan;

use crate::error::{Error, Result};
use crate::pipeline::predict::{PredictJob, Predictor, ScanPrediction, Timing};
use crate::report::dicomout::pull_study;

/// An output folder that is an input, or holds one, is refused before anything is written: the
/// run's sweep of stale temporaries and its rerun's removal of what an earlier run wrote would
/// reach the user's own files, and the next run would read this one's results as input.
pub fn refuse_out_over_inputs(out: &Path, inputs: &[PathBuf]) -> Result<()> {
    let Ok(o) = out.canonicalize() else {
        return Ok(()); // not there yet: it holds nothing
    };
    for i in inputs {
        let Ok(c) = i.canonicalize() else { continue };
        if c.starts_with(&o) {
            return Err(Error::Invalid(format!(
                "--out {} {} the input {}: write the report to a folder of its own (e.g. {}-report)",
                out.display(),
                if c == o { "is" } else { "holds" },
                i.display(),
                i.display()
            )));
        }
    }
    Ok(())
}

/// What a folder without a CT scan held, in words, and what to do about it.
pub fn what_was_found(counts: &std::collections::BTreeMap<String, usize>) -> String {
    if counts.is_empty() {
        return "no file at all: give a folder of DICOM files (.dcm, any layout) or a NIfTI volume (.nii, .nii.gz)".into();
    }
    let files: Vec<String> = counts
        .iter()
        .map(|(why, n)| format!("{n} file(s) {why}"))
        .collect();
    let mut s = format!("{} and none a head CT image", files.join(", "));
    let has = |k: &str| counts.contains_key(k);
    if has("not DICOM") {
        s.push_str(". ich reads DICOM files and NIfTI volumes; pictures (JPEG, PNG) hold no Hounsfield units: export the series from the PACS or the scanner as DICOM (or as NIfTI, e.g. with dcm2niix)");
    }
    if has("not a CT image") || has("not a head CT") {
        s.push_str(". Only CT series of the head are predicted: check that the folder holds the head CT series, not another modality or body part");
    }
    s
}

/// Where a scan comes from.
pub(super) enum Source<'a> {
    /// Scan `i` of a dataset.
    Dataset(&'a Dataset, usize),
    /// A DICOM series or a NIfTI volume, read from its files as it is predicted.
    Dicom(&'a Scan),
}

/// What a run predicts, gathered from its inputs: the study pulled from a PACS (an input like the
/// others), the datasets, the DICOM and NIfTI scans found (a shard's own only), their labels, and
/// the series screened against what the model was made for.
pub(super) struct Gathered {
    /// A study that could not be retrieved, beside other inputs (alone, it is the run's error).
    pull_failed: Option<String>,
    datasets: Vec<Dataset>,
    pub(super) shard: milbase::Shard,
    scans: Vec<Scan>,
    /// Files that belong to no scan, and how many files of other shards' scans were passed over.
    skipped: Skipped,
    others: usize,
    /// Files of this shard's own scans that were skipped.
    own: Skipped,
    pub(super) labels: Labels,
    /// The series left out as outside the model's envelope, each with its reason.
    pub(super) outside: Vec<String>,
    /// What is unusual about each scan kept that lies near the envelope's edge.
    unusual: std::collections::HashMap<String, Vec<String>>,
}

/// Pulls, finds, groups and screens the job's inputs; a run with no scan at all (and no shard
/// whose share of a cohort may be empty) is refused here, saying what was found instead.
pub(super) fn gather(
    predictor: &Predictor,
    job: &PredictJob,
    time: &mut Timing,
    progress: &dyn Progress,
) -> Result<Gathered> {
    let mut inputs = job.inputs.clone();
    // a study that cannot be retrieved (server down, hostile answer) is one failed input: with
    // other inputs the run goes on and says so; alone, it is the run's error
    let mut pull_failed = None;
    if let Some(pull) = &job.pacs.pull {
        match pull_study(&job.out, pull) {
            Ok(dir) => inputs.push(dir),
            Err(e) if !inputs.is_empty() => {
                let msg = format!("study {}: not retrieved: {e}", pull.study_uid);
                tracing::warn!("{msg}");
                pull_failed = Some(msg);
            }
            Err(e) => return Err(e),
        }
    }
    let (ds_paths, dicom_paths): (Vec<PathBuf>, Vec<PathBuf>) = inputs
        .iter()
        .cloned()
        .partition(|p| p.join("dataset.json").is_file());
    let mut datasets = Vec::new();
    let mut shard = job.shard;
    for p in &ds_paths {
        let ds = Dataset::open(p)?;
        predictor
            .bundle()
            .check_preprocess(p, &ds.manifest.config)?;
        shard = crate::pipeline::extract::dataset_shard(p, ds.manifest.shard.as_deref(), shard)?;
        datasets.push(ds);
    }
    let t = Instant::now();
    // a shard keeps the headers of its own scans only, dropping the others' as they are read
    let (scans, skipped, others, own) = if dicom_paths.is_empty() {
        (Vec::new(), Skipped::default(), 0, Skipped::default())
    } else {
        find_scans_counting_others(&dicom_paths, &predictor.options().limits, shard, progress)?
    };
    time.preprocess += t.elapsed();
    // the labels of this run's scans only (a cohort's labels file costs this run's rows); a
    // dataset's scans are known by their files, so with datasets every row is kept
    let mut labels = if datasets.is_empty() {
        Labels::only(preprocess::labels::Wanted::of(&scans))
    } else {
        Labels::default()
    };
    for f in &job.labels {
        labels.load(f)?;
    }
    // series outside what the model was made for: left out with the reason, or flagged
    let (scans, outside) = crate::bundle::envelope::screen(
        scans,
        predictor.bundle().manifest.cnn.envelope.as_ref(),
        !predictor.options().all_series,
    );
    for w in &outside {
        tracing::warn!("{w}");
    }
    let (scans, unusual): (Vec<Scan>, std::collections::HashMap<String, Vec<String>>) = {
        let mut u = std::collections::HashMap::new();
        let s = scans
            .into_iter()
            .map(|(scan, flags)| {
                if !flags.is_empty() {
                    u.insert(scan.id.clone(), flags);
                }
                scan
            })
            .collect();
        (s, u)
    };
    // a shard may hold none of a small cohort's scans: its reports are empty, not an error
    // (the files of other shards' scans, or a dataset that `preprocess --shard` wrote empty)
    let in_datasets: usize = datasets.iter().map(|d| d.manifest.scans.len()).sum();
    let shard_datasets = datasets.iter().any(|d| d.manifest.shard.is_some());
    if in_datasets == 0 && scans.is_empty() && others == 0 && !shard_datasets {
        let named = inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let why = match predictor.bundle().manifest.cnn.envelope.as_ref() {
            Some(e) if !outside.is_empty() => format!(
                "every series lies outside what the model was made for ({}): {}",
                e.made_for,
                outside.join("; ")
            ),
            _ => what_was_found(&skipped.counts),
        };
        return Err(Error::NoScan(format!("{named}: {why}")));
    }
    if job.pacs.dicom.is_some() && !datasets.is_empty() {
        tracing::info!(
            "DICOM results are written for scans predicted from DICOM files only, not from datasets"
        );
    }
    Ok(Gathered {
        pull_failed,
        datasets,
        shard,
        scans,
        skipped,
        others,
        own,
        labels,
        outside,
        unusual,
    })
}

impl Gathered {
    /// The scans to predict: every scan of the datasets (a shard's own only), then those found
    /// in DICOM and NIfTI files.
    pub(super) fn work(&self) -> Vec<Source<'_>> {
        let shard = self.shard;
        let mut work: Vec<Source> = Vec::new();
        for ds in &self.datasets {
            work.extend(
                (0..ds.manifest.scans.len())
                    .filter(|&i| shard.contains(&ds.manifest.scans[i].id))
                    .map(|i| Source::Dataset(ds, i)),
            );
        }
        let kept = work.len();
        work.extend(self.scans.iter().map(Source::Dicom));
        if !shard.is_all() {
            let in_datasets: usize = self.datasets.iter().map(|d| d.manifest.scans.len()).sum();
            tracing::info!(
                "shard {shard}: {} scan(s): {kept} of the datasets' {in_datasets}, {} from \
                 DICOM ({} file(s) of other shards' scans not kept)",
                work.len(),
                self.scans.len(),
                self.others
            );
        }
        work
    }

    /// The files skipped that this run reports (those that belong to no scan by the first shard
    /// only; those of a scan of this shard, a NIfTI name clash, by this shard), and the inputs
    /// that failed as a whole (a study that could not be pulled).
    pub(super) fn skipped_and_failed(&mut self) -> (Skipped, Vec<String>) {
        let mut skipped = if self.shard.index == 0 {
            std::mem::take(&mut self.skipped)
        } else {
            Skipped::default()
        };
        skipped.absorb(std::mem::take(&mut self.own));
        (skipped, self.pull_failed.take().into_iter().collect())
    }

    /// What is unusual about a series the model was not made for, on its report, and its call
    /// unsure.
    pub(super) fn flag_unusual(&self, p: &mut ScanPrediction) {
        if let Some(flags) = self.unusual.get(&p.report.id) {
            for f in flags {
                let w = format!("outside what the model was made for: {f}");
                tracing::warn!("scan {}: {w}", p.report.id);
                p.report.warnings.push(w);
            }
            p.report.uncertain = true;
        }
    }
}
