//! `ich predict`: DICOM folders or datasets in; per-slice and per-scan probabilities with standard
//! deviations out, as CSV/JSON for programs and HTML pages for people (docs/REPORT.md).

use std::path::PathBuf;
use std::process::ExitCode;

use detect::pipeline::predict::{run as predict, PredictJob, PredictOptions};

use crate::cli::range;

/// Predict hemorrhage per slice and per scan, with standard deviations, from DICOM folders, NIfTI
/// volumes or preprocessed datasets; write slices.csv, scans.csv, report.json and HTML pages.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model bundle: a folder (`ich adapt`, `ich import`, `ich train-cnn` + `ich fit-gp`), or
    /// the name of one built into ich (`ich models`): the shipped SA-DMIL network by default.
    #[arg(long, default_value = detect::bundle::builtin::DEFAULT_MODEL)]
    model: PathBuf,
    /// DICOM files, NIfTI files (`.nii`, `.nii.gz`; no DICOM results for them) or folders
    /// holding them (searched recursively), or datasets written by `ich preprocess` (folders
    /// holding dataset.json). Not needed with `--study`.
    #[arg(required_unless_present = "study")]
    inputs: Vec<PathBuf>,
    /// Output folder.
    #[arg(short, long)]
    out: PathBuf,
    /// Labels (labels.csv / slice_labels.csv of `ich synth`, the RSNA csv, or NIfTI's
    /// `nifti,label` / `nifti,slice,label`) to report metrics;
    /// datasets bring their own labels. Repeatable.
    #[arg(long)]
    labels: Vec<PathBuf>,
    /// No HTML pages (CSV and JSON only).
    #[arg(long)]
    no_html: bool,
    /// Exit 0 when some scans could not be processed (they are listed; the others are
    /// reported). Without it any failed scan makes the exit code 1; no scan processed is always 1.
    #[arg(hide_short_help = true, long)]
    keep_going: bool,
    /// Write over files in --out that no ich run wrote (a scans.csv of your own, say). Without
    /// it such files are refused by name before anything is written.
    #[arg(hide_short_help = true, long)]
    force: bool,
    /// Predict only shard I of N (I counts from 0): the scans whose id falls in bucket I of N,
    /// for a cluster's job array (deploy/); each shard writes its own --out folder, and
    /// `ich merge` joins them into the reports of one run. A dataset of `ich preprocess --shard`
    /// brings its own shard.
    #[arg(hide_short_help = true, long, value_name = "I/N")]
    shard: Option<milbase::Shard>,
    #[command(flatten)]
    flags: PredictFlags,
    #[command(flatten)]
    pacs: super::send::PredictPacsArgs,
}

/// How scans are predicted (`ich predict` and `ich serve`).
#[derive(clap::Args, Debug)]
pub struct PredictFlags {
    /// A slice or scan is flagged positive when its probability is at least this [0, 1].
    /// Default: the bundle's operating point (`ich adapt --sensitivity`), else 0.5.
    #[arg(long, value_parser = range::probability)]
    positive_threshold: Option<f64>,
    /// A slice or scan is uncertain when its 90 % interval crosses the positive threshold, when
    /// the standard deviation of its probability is at least this (≥ 0), or when the scan lies
    /// outside the slices the model was fitted on.
    #[arg(hide_short_help = true, long, default_value_t = 0.1, value_parser = range::non_negative)]
    uncertain_sd: f64,
    /// Put patient name and ID into the reports (left out by default).
    #[arg(long)]
    keep_phi: bool,
    /// Predict every series, even those outside what the model was made for (too few slices,
    /// contrast, not axial, a thin series beside its study's thick one); they are flagged and
    /// called unsure. By default they are left out, with the reason in the report.
    #[arg(hide_short_help = true, long)]
    all_series: bool,
    /// Monte Carlo samples per scan for the probabilities and their standard deviations
    /// [1..=1000000].
    #[arg(hide_short_help = true, long, default_value_t = 1000, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    samples: usize,
    /// Random seed of the Monte Carlo draws behind each probability's sd and interval: the same
    /// seed gives the same numbers.
    #[arg(hide_short_help = true, long, default_value_t = 0)]
    seed: u64,
    /// Link each DICOM scan on the pages to its study in the hospital's viewer: an http(s)
    /// address in which {study} (and {series}) stand for the UIDs, e.g. OHIF's
    /// `https://pacs/viewer?StudyInstanceUIDs={study}`.
    #[arg(long, value_parser = viewer_url)]
    viewer_url: Option<String>,
    #[command(flatten)]
    device: crate::cli::DeviceArgs,
    #[command(flatten)]
    pub limits: crate::cli::preprocess::LimitArgs,
}

/// `--viewer-url`: checked as the library checks it, so a bad one is refused before any work.
fn viewer_url(s: &str) -> Result<String, String> {
    detect::report::viewer_url_template(s).map_err(|e| e.to_string())
}

impl PredictFlags {
    pub fn options(&self) -> PredictOptions {
        PredictOptions {
            positive_threshold: self.positive_threshold.unwrap_or(0.5),
            operating_point: self.positive_threshold.is_none(),
            uncertain_sd: self.uncertain_sd,
            samples: self.samples,
            seed: self.seed,
            keep_phi: self.keep_phi,
            all_series: self.all_series,
            compute: self.device.compute(),
            limits: self.limits.limits(),
            viewer_url: self.viewer_url.clone(),
        }
    }
}

pub fn run(a: Args, bars: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    let pacs = a.pacs.job()?;
    let job = PredictJob {
        model: detect::bundle::builtin::resolve(&a.model)?,
        inputs: a.inputs.clone(),
        out: a.out.clone(),
        labels: a.labels.clone(),
        html: !a.no_html,
        options: a.flags.options(),
        pacs,
        shard: a.shard.unwrap_or(milbase::Shard::ALL),
        force: a.force,
    };
    let o = predict(&job, bars)?;
    let v = crate::summary::predict_verdict(&o, &job, a.keep_going);
    v.print();
    Ok(ExitCode::from(v.code))
}
