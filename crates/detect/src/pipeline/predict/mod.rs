//! Prediction: open a bundle once ([`Predictor::open`]), then predict scans one at a time, from
//! DICOM files ([`Predictor::predict_dicom`]) or from a dataset ([`Predictor::predict_dataset_scan`]),
//! each returning a typed [`ScanPrediction`]; [`run`] does a whole `ich predict` job: its inputs
//! gathered (`inputs`: pulled, found, grouped, screened), every scan predicted and handed to the
//! job's sinks ([`crate::report::sink`]: pages, DICOM results, tables, sending).

mod inputs;
mod predictor;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use milbase::Progress;
use pacs::{Destination, SendOptions, SendReport};
use preprocess::pipeline::find_scans_within;

use crate::bundle::rfc3339;
use crate::error::{Error, Result};
use crate::pipeline::device::Compute;
use crate::report::dicomout::{DicomOptions, ModelIdentity, Pull};
use crate::report::sink::{role_of, DicomResults, End, Fault, Pages, Sending, Sink, Tables};
use crate::report::slices::{Extent, SliceStore};
use crate::report::write::{metrics_with, scan_order};
use crate::report::{ModelInfo, Report, ScanReport, INDEX_HTML, REPORT_FORMAT};

use self::inputs::Source;
pub use self::inputs::{refuse_out_over_inputs, what_was_found};
pub use self::predictor::Predictor;
pub use crate::report::sink::matching_series;

/// How predictions are made and flagged. Defaults: positive at p ≥ 0.5, uncertain at sd ≥ 0.1,
/// 1000 Monte Carlo samples, seed 0, no patient name or ID, CPU.
#[derive(Debug, Clone)]
pub struct PredictOptions {
    /// A slice or scan is flagged positive when its probability is at least this (in [0, 1]).
    pub positive_threshold: f64,
    /// A slice or scan is flagged uncertain when the sd of its probability is at least this (≥ 0).
    pub uncertain_sd: f64,
    /// Monte Carlo samples per scan (≥ 1).
    pub samples: usize,
    pub seed: u64,
    /// Keep patient name and ID in the reports.
    pub keep_phi: bool,
    /// Predict every series, even those the bundle's envelope leaves out (too few slices,
    /// contrast, not axial, a thin series beside its study's thick one): each is then flagged
    /// with why, and its call is unsure. Default: left out, with the reason in the report.
    pub all_series: bool,
    /// Call at the bundle's operating point (`ich adapt --sensitivity`) where it has one, in
    /// place of `positive_threshold`; `ich predict --positive-threshold` turns this off.
    pub operating_point: bool,
    pub compute: Compute,
    /// Ceilings on one DICOM file's size and one slice's decoded size.
    pub limits: preprocess::read::Limits,
    /// The viewer's address of a study, `{study}` and `{series}` standing for the UIDs
    /// ([`crate::report::viewer_url_template`]): each DICOM scan's page and index row link there.
    pub viewer_url: Option<String>,
}

impl Default for PredictOptions {
    fn default() -> Self {
        Self {
            positive_threshold: 0.5,
            uncertain_sd: 0.1,
            samples: 1000,
            seed: 0,
            keep_phi: false,
            all_series: false,
            operating_point: true,
            compute: Compute::cpu(),
            limits: Default::default(),
            viewer_url: None,
        }
    }
}

impl PredictOptions {
    pub fn validate(&self) -> Result<()> {
        if !(0.0..=1.0).contains(&self.positive_threshold) {
            return Err(Error::Invalid(format!(
                "the positive threshold must be within [0, 1], got {}",
                self.positive_threshold
            )));
        }
        if self.uncertain_sd.is_nan() || self.uncertain_sd < 0.0 {
            return Err(Error::Invalid(format!(
                "the uncertain sd must be ≥ 0, got {}",
                self.uncertain_sd
            )));
        }
        if self.samples == 0 {
            return Err(Error::Invalid(
                "at least one Monte Carlo sample is needed".into(),
            ));
        }
        if let Some(t) = &self.viewer_url {
            crate::report::viewer_url_template(t)?;
        }
        Ok(())
    }
}

/// Time spent per stage.
#[derive(Debug, Clone, Default)]
pub struct Timing {
    pub load: Duration,
    pub preprocess: Duration,
    pub cnn: Duration,
    pub gp: Duration,
    pub reports: Duration,
}

pub use crate::report::ScanPrediction;

pub use crate::report::CNN_ONLY;

/// A whole prediction job: what `ich predict` does.
#[derive(Debug, Clone)]
pub struct PredictJob {
    /// The model bundle.
    pub model: PathBuf,
    /// DICOM files or folders (searched recursively), or datasets (folders with dataset.json).
    pub inputs: Vec<PathBuf>,
    /// Output folder.
    pub out: PathBuf,
    /// Label files (labels.csv / slice_labels.csv of `ich synth`, or the RSNA csv).
    pub labels: Vec<PathBuf>,
    /// Write HTML pages (index and one per scan).
    pub html: bool,
    pub options: PredictOptions,
    /// DICOM results, sending them, pulling a study.
    pub pacs: PacsJob,
    /// Only the scans of this shard (`Shard::ALL`: every scan; `ich predict --shard I/N`). A
    /// dataset written by `ich preprocess --shard` brings its own; the report names the shard,
    /// and `ich merge` joins the shards' folders into the one-shot run's reports.
    pub shard: milbase::Shard,
    /// Write over files in `out` that no `ich` run wrote (`ich predict --force`); without it
    /// they are refused by name before anything is written.
    pub force: bool,
}

/// The PACS side of a job. Default: DICOM results written (UIDs under `2.25`), nothing sent,
/// nothing pulled.
#[derive(Debug, Clone)]
pub struct PacsJob {
    /// Write the SR and the Secondary Captures of every scan predicted from DICOM (None: don't).
    pub dicom: Option<DicomOptions>,
    /// Send them here (each destination gets every file).
    pub send: Vec<Destination>,
    pub send_options: SendOptions,
    /// Predict a study pulled from a PACS (besides the inputs).
    pub pull: Option<Pull>,
    /// (volume name, folder), `ich predict --nifti-dicom`: the DICOM series each volume file
    /// (NIfTI) was converted from, whose UIDs its DICOM results then reference
    /// ([`matching_series`]).
    pub volume_dicom: Vec<(String, PathBuf)>,
}

impl Default for PacsJob {
    fn default() -> Self {
        Self {
            dicom: Some(DicomOptions::default()),
            send: Vec::new(),
            send_options: SendOptions::default(),
            pull: None,
            volume_dicom: Vec::new(),
        }
    }
}

/// What a job produced.
pub struct Outcome {
    /// The report as written, its scans without their slices (those are in `slices.csv` and
    /// `report.json`: a run holds every scan's summary, not every slice's row).
    pub report: Report,
    /// `index.html` (written only with `html`).
    pub index: PathBuf,
    pub timing: Timing,
    /// The scans that could not be processed, each with its reason (also in `report.skipped`).
    pub failed: Vec<String>,
    /// Scans whose DICOM results could not be written, with the reason (their predictions are in
    /// the reports, the reason also in their warnings).
    pub dicom_failed: Vec<String>,
    /// The DICOM results written (SR and Secondary Captures of every scan).
    pub dicom_files: Vec<PathBuf>,
    /// One per destination.
    pub sent: Vec<SendReport>,
}

/// The head of a run's report: what made it (tool, model, thresholds, sampling, options); its
/// scans, skipped inputs and metrics are filled in as the run goes.
fn report_head(
    predictor: &Predictor,
    job: &PredictJob,
    run: &str,
    shard: milbase::Shard,
) -> Report {
    Report {
        format_version: REPORT_FORMAT,
        run: run.to_string(),
        tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
        created: rfc3339(SystemTime::now()),
        model: ModelInfo {
            bundle: job.model.display().to_string(),
            ..predictor.model_info()
        },
        thresholds: predictor.thresholds(),
        scans: Vec::new(),
        metrics: None,
        skipped: Vec::new(),
        shard: (!shard.is_all()).then(|| shard.to_string()),
        sampling: predictor.sampling(),
        options: Some(crate::report::ReportOptions {
            keep_phi: job.options.keep_phi,
            labels: !job.labels.is_empty(),
            dicom: job.pacs.dicom.is_some(),
        }),
        viewer_url: job.options.viewer_url.clone(),
        warnings: Vec::new(),
    }
}

/// Runs a prediction job: every scan of the inputs is predicted (a scan that fails is named in
/// `skipped` and the rest go on); reports sorted by scan probability, highest first.
pub fn run(job: &PredictJob, progress: &dyn Progress) -> Result<Outcome> {
    let predictor = Predictor::open(&job.model, job.options.clone())?;
    run_with(&predictor, job, progress)
}

/// [`run`] with a bundle already opened (`job.model` must be the folder it was opened from, and
/// `job.options` are those it was opened with): what a node predicting study after study does.
/// Its inputs are gathered (`inputs`), each scan is predicted and handed to the job's sinks
/// ([`crate::report::sink`]), and at the end the complete report goes to each sink in turn.
pub fn run_with(
    predictor: &Predictor,
    job: &PredictJob,
    progress: &dyn Progress,
) -> Result<Outcome> {
    // the folder's lock and run mark before anything is written into it
    refuse_out_over_inputs(&job.out, &job.inputs)?;
    let previous = crate::runmark::RunMark::read(&job.out).ok().flatten();
    if !job.force {
        crate::runmark::refuse_foreign_files(&job.out, previous.as_ref(), |rel| {
            role_of(rel).is_some()
        })?;
    }
    let run_mark = crate::runmark::Run::start(&job.out, "predict")?;
    let mut time = Timing {
        load: predictor.load_time,
        ..Timing::default()
    };
    let mut gathered = inputs::gather(predictor, job, &mut time, progress)?;
    let (skipped, mut failed) = gathered.skipped_and_failed();
    let work = gathered.work();
    let mut sinks = sinks(predictor, job, run_mark.lock(), progress)?;
    // each scan's slice rows wait on disk until the reports are written: memory holds the scans'
    // summaries, not every slice
    let mut store = SliceStore::create(&job.out, run_mark.lock())?;
    let mut extents = Vec::new();
    let mut report = report_head(predictor, job, run_mark.id(), gathered.shard);
    report.skipped.extend(failed.iter().cloned());
    report.skipped.extend(gathered.outside.iter().cloned());
    let skipped = Mutex::new(skipped);
    progress.stage("predicting scans", work.len() as u64);
    for src in &work {
        let one = match src {
            Source::Dataset(ds, i) => {
                predictor.predict_dataset_scan(ds, *i, &gathered.labels, &mut time)
            }
            Source::Dicom(scan) => {
                predictor.predict_dicom(scan, &gathered.labels, &skipped, &mut time)
            }
        };
        // a scan that cannot be read or predicted is reported and skipped; the rest go on
        let done = one.map_err(Fault::Scan).and_then(|mut p| {
            gathered.flag_unusual(&mut p);
            let t = Instant::now();
            let source = match src {
                Source::Dicom(scan) => Some(*scan),
                Source::Dataset(..) => None,
            };
            for sink in sinks.iter_mut() {
                sink.scan(&report, source, &mut p)?;
            }
            time.reports += t.elapsed();
            Ok(p.report)
        });
        match done {
            Ok(mut sr) => {
                extents.push(store.put(&std::mem::take(&mut sr.slices))?);
                report.scans.push(sr);
            }
            Err(Fault::Scan(e)) => {
                tracing::warn!("skipped: {e}");
                report.skipped.push(e.to_string());
                failed.push(e.to_string());
            }
            // an output that cannot be written (a full disk) fails the run as an I/O error, which
            // passes: never "a scan skipped" for what its content did not do
            Err(Fault::Run(e)) => return Err(e),
        }
        progress.inc(1);
    }
    progress.done();
    let sk = milbase::sync::into_inner(skipped);
    report.skipped.extend(sk.files);

    let t = Instant::now();
    let mut scans: Vec<(ScanReport, Extent)> = report.scans.drain(..).zip(extents).collect();
    scans.sort_by(|x, y| scan_order(&x.0, &y.0));
    let extents: Vec<Extent>;
    (report.scans, extents) = scans.into_iter().unzip();
    report.skipped.sort();
    report.warnings = crate::report::site_check(&report.model, &report.scans);
    for w in &report.warnings {
        tracing::warn!("{w}");
    }
    let slices_of = store.loader(&extents);
    report.metrics = metrics_with(&report.scans, &slices_of)?;
    // the run-wide files, sink by sink; sending last: every report is on disk whatever the
    // network does
    let mut end = End::new(&report, &slices_of);
    for sink in sinks {
        sink.finish(&mut end)?;
    }
    let End {
        files,
        dicom: dicom_files,
        dicom_failed,
        sent,
        ..
    } = end;
    drop(slices_of);
    drop(store);
    time.reports += t.elapsed();
    run_mark.finish(&files)?;
    crate::runmark::remove_stale(&job.out, previous.as_ref(), &files);
    Ok(Outcome {
        index: job.out.join(INDEX_HTML),
        report,
        timing: time,
        failed,
        dicom_failed,
        dicom_files,
        sent,
    })
}

/// The sinks of a job, in the order they take each scan and then the end of the run: the pages
/// (made before the DICOM results note themselves in the scan's report, as the pages show it),
/// the DICOM results, the tables, and sending. A new output format is one line here.
fn sinks<'a>(
    predictor: &Predictor,
    job: &'a PredictJob,
    held: &'a milbase::atomic::DirLock,
    progress: &'a dyn Progress,
) -> Result<Vec<Box<dyn Sink + 'a>>> {
    let size = predictor.bundle().manifest.preprocess.size;
    let mut sinks: Vec<Box<dyn Sink + 'a>> = Vec::new();
    if job.html {
        sinks.push(Box::new(Pages::new(&job.out, size)?));
    }
    if let Some(opts) = &job.pacs.dicom {
        let identity = ModelIdentity::of_bundle(&job.model, predictor.model_info())?;
        // the DICOM series volume files (NIfTI) came from, read once each (a folder that cannot
        // be read fails the volume scans named with it, not the run)
        let mut volume_series = std::collections::HashMap::new();
        for (name, dir) in &job.pacs.volume_dicom {
            let r = find_scans_within(
                std::slice::from_ref(dir),
                &predictor.options().limits,
                progress,
            )
            .map(|(s, _)| s)
            .map_err(|e| e.to_string());
            volume_series.insert(name.clone(), r);
        }
        sinks.push(Box::new(DicomResults::new(
            (&job.out, held),
            opts,
            identity,
            size,
            volume_series,
        )));
    }
    sinks.push(Box::new(Tables::new(&job.out)));
    if !job.pacs.send.is_empty() {
        sinks.push(Box::new(Sending::new(
            &job.pacs.send,
            &job.pacs.send_options,
            progress,
        )));
    }
    Ok(sinks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_out_of_range_are_refused() {
        assert!(PredictOptions::default().validate().is_ok());
        for o in [
            PredictOptions {
                positive_threshold: 1.5,
                ..Default::default()
            },
            PredictOptions {
                positive_threshold: f64::NAN,
                ..Default::default()
            },
            PredictOptions {
                uncertain_sd: -0.1,
                ..Default::default()
            },
            PredictOptions {
                samples: 0,
                ..Default::default()
            },
            PredictOptions {
                viewer_url: Some("javascript:alert(1)//{study}".into()),
                ..Default::default()
            },
        ] {
            assert!(o.validate().is_err(), "{o:?}");
        }
    }
}
