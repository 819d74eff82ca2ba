//! Room `report`: what a prediction says and every writer of it (docs/REPORT.md).
//!
//! Owns the report's data model shared by `report.json`, the CSV files and the pages (here, with
//! the CSV and JSON row writers), and:
//! - [`mod@write`]: the order of a report's scans, its metrics, and its files written atomically;
//! - [`html`]: the index and per-scan pages;
//! - [`images`]: the pictures of the slices on the pages and in the captures;
//! - [`dicomout`]: the DICOM SR and Secondary Captures, sending them to a PACS, pulling a study;
//! - [`slices`]: the slice spill that keeps a large run's slices on disk, one scan in memory;
//! - [`merge`]: `ich merge` of the reports of shards.
//!
//! It may use [`crate::bundle`] (a report names its model) and the shared pieces at the crate's
//! root ([`crate::error`], [`crate::runmark`]); it knows nothing of how a probability is made: no
//! network, no GP head, no prediction pipeline ([`crate::pipeline`] calls it, never the reverse).

use gphead::metrics::Metrics;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

use crate::error::{Error, Result};

pub mod dicomout;
pub mod html;
pub mod images;
pub mod merge;
pub mod sink;
pub mod slices;
pub mod write;

/// Version of `report.json`.
pub const REPORT_FORMAT: u32 = 3;

/// One scan's prediction: the report, the scan's windowed pixels as the network took them
/// (`[slices][3][size][size]`) and, for a scan read from DICOM or NIfTI, its slices at their own
/// resolution (one view a slice; empty for a scan predicted from a dataset), for the pictures
/// ([`images`]).
pub struct ScanPrediction {
    pub report: ScanReport,
    pub pixels: Vec<u8>,
    pub views: Vec<preprocess::view::SliceView>,
}

/// `report.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    pub format_version: u32,
    pub tool: String,
    pub created: String,
    /// The id of the run that wrote it (`run.json` in the same folder; empty before 0.1's run
    /// marks).
    #[serde(default)]
    pub run: String,
    pub model: ModelInfo,
    pub thresholds: Thresholds,
    /// Sorted by scan probability, highest first.
    pub scans: Vec<ScanReport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<ReportMetrics>,
    /// Inputs that could not be used, `path: problem` (sorted).
    pub skipped: Vec<String>,
    /// The shard of the cohort this report covers, `I/N` (`ich predict --shard`); absent for a
    /// whole cohort, and for the reports `ich merge` joins from every shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The Monte Carlo draws behind every probability, sd and interval (`ich predict --samples`,
    /// `--seed`); absent in reports written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Sampling>,
    /// The options of the run that change what the report holds; `ich merge` joins only shards
    /// run with the same. Absent in reports written before they were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<ReportOptions>,
    /// The hospital viewer's address of a study (`--viewer-url`), `{study}` and `{series}`
    /// standing for the scan's UIDs ([`viewer_url`]); the pages link each DICOM scan there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewer_url: Option<String>,
    /// What the run as a whole must tell its reader (the label-free check that its calls look
    /// like a site's, [`crate::report::site_check`]); empty: nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The options of `ich predict` that change what a report holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportOptions {
    /// Patient name and ID kept (`--keep-phi`).
    pub keep_phi: bool,
    /// Labels given (`--labels`): the scans carry labels and the report metrics.
    pub labels: bool,
    /// DICOM results (SR and Secondary Captures) written.
    pub dicom: bool,
}

/// How many Monte Carlo draws each scan's numbers come from, and the seed they start from (each
/// scan's stream is this seed mixed with the scan's id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sampling {
    pub samples: usize,
    pub seed: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelInfo {
    pub bundle: String,
    pub created: String,
    pub gp_family: String,
    pub feature_dim: usize,
    pub image_size: usize,
    /// Scan probability rule of the GP head (max, noisy-or, full-covariance).
    pub bag_rule: String,
    /// Whether the head carries a calibration map (fitted on validation bags); probabilities,
    /// standard deviations and intervals are then all of the calibrated draws.
    #[serde(default)]
    pub calibrated: bool,
    /// Where the map was refitted on a site's own labelled scans (`ich recalibrate`): how many,
    /// when, and the cross-fitted scan ECE before and after; absent when it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_calibration: Option<String>,
    /// Whether probabilities come with a spread (a GP head); without one they are the CNN's
    /// point estimates and sd, lo and hi say nothing (sd 0, lo = hi = probability).
    #[serde(default = "yes")]
    pub uncertainty: bool,
    /// The imported weights the CNN carries, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<String>,
    /// The hemorrhage subtypes the bundle has heads for (each scan and slice then carries their
    /// probabilities); empty: subtypes not available (format 2 reports lack the field).
    #[serde(default)]
    pub subtypes: Vec<String>,
    /// How every interval was made, in words (absent: no interval, or a report written before
    /// it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<String>,
    /// What the probabilities are calibrated for (absent in reports written before it was
    /// recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibration>,
    /// The site's operating point the calls were made at (`ich adapt --sensitivity`), with the
    /// sensitivity and specificity to expect there; absent: the default or given threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operating_point: Option<crate::bundle::operating::OperatingPoint>,
    /// What every output carries: research software, not for diagnosis ([`RESEARCH_NOTICE`];
    /// empty in reports written before it was recorded).
    #[serde(default)]
    pub notice: String,
    /// The licence of the weights and the terms of the data they were trained on, for
    /// imported weights (absent: none recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terms: Option<String>,
}

/// The notice every report, page and SR carries.
pub const RESEARCH_NOTICE: &str =
    "Research software, not a medical device: not for diagnostic use.";

/// What a report's model family says when the network predicts alone (no GP head).
pub const CNN_ONLY: &str = "CNN classifier (no GP head)";

/// What a bundle's probabilities are calibrated for, as every output states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Calibration {
    pub kind: CalibrationKind,
    /// The same in a sentence a reader understands.
    pub text: String,
}

/// `site`: fitted to a site's own labelled scans (`ich adapt`, `ich recalibrate`);
/// `validation`: calibrated on the validation scans of the data the model was trained on;
/// `none`: not calibrated at all (the network's scores).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CalibrationKind {
    Site,
    Validation,
    None,
}

impl CalibrationKind {
    /// The word of `scans.csv`'s `calibration` column.
    pub fn word(self) -> &'static str {
        match self {
            CalibrationKind::Site => "site",
            CalibrationKind::Validation => "validation",
            CalibrationKind::None => "none",
        }
    }
}

impl ModelInfo {
    /// The warning every output carries when the numbers are calibrated for nothing (the
    /// network's scores), with the command that fixes it; `None` otherwise.
    pub fn uncalibrated_warning(&self) -> Option<String> {
        let c = self.calibration.as_ref()?;
        (c.kind == CalibrationKind::None).then(|| c.text.clone())
    }

    /// `calibration`'s kind as `scans.csv` writes it (empty in reports without one).
    pub fn calibration_word(&self) -> &'static str {
        self.calibration.as_ref().map_or("", |c| c.kind.word())
    }
}

/// One subtype's probability of a scan or a slice, from its own GP head: the mean, standard
/// deviation and 90 % interval (5th and 95th percentiles) of the same calibrated draws, flagged
/// by the report's [`Thresholds`] as "any" is (and uncertain wherever the scan or slice is made
/// uncertain for what it is: out of distribution, blank, unreadable).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubtypeProbability {
    pub name: String,
    pub probability: f64,
    pub sd: f64,
    pub lo: f64,
    pub hi: f64,
    #[serde(default)]
    pub positive: bool,
    #[serde(default)]
    pub uncertain: bool,
    /// 1 when the labels give the scan or slice this subtype, 0 when they give it none of it
    /// (a slice labelled without it; a scan with a labelled slice and none with it, or a
    /// negative scan); absent without labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<u8>,
}

/// One subtype's metrics over the labelled scans and slices of a report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubtypeMetrics {
    pub name: String,
    pub scans: usize,
    pub positive_scans: usize,
    /// `None` when no scan has a label for it.
    pub scan: Option<Metrics>,
    pub slices: usize,
    pub positive_slices: usize,
    pub slice: Option<Metrics>,
    /// Reliability of its slice probabilities.
    #[serde(default)]
    pub slice_reliability: Vec<(f64, f64, f64, usize)>,
}

fn yes() -> bool {
    true
}

/// Flagging rules: positive when `probability ≥ positive`; uncertain when the 90 % interval
/// reaches across `positive` (`lo < positive ≤ hi`) or `sd ≥ uncertain_sd`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Thresholds {
    pub positive: f64,
    pub uncertain_sd: f64,
}

impl Thresholds {
    /// Positive: the probability reaches the threshold.
    pub fn positive(&self, p: f64) -> bool {
        p >= self.positive
    }
    /// Uncertain: the 90 % interval reaches across the positive threshold, or the sd is large.
    pub fn uncertain(&self, sd: f64, lo: f64, hi: f64) -> bool {
        (lo < self.positive && self.positive <= hi) || sd >= self.uncertain_sd
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScanReport {
    pub id: String,
    pub n_slices: usize,
    pub probability: f64,
    pub sd: f64,
    /// 90 % interval (5th and 95th percentiles of the draws the probability is the mean of).
    pub lo: f64,
    pub hi: f64,
    pub positive: bool,
    pub uncertain: bool,
    /// The attention CNN's own scan probability (second opinion).
    pub cnn_probability: f64,
    /// How the scan's slices stand against the slices the head was fitted on (absent when the
    /// bundle keeps no summary of them); a flagged scan is also uncertain, and so are its slices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_distribution: Option<crate::bundle::evidence::OodCheck>,
    pub positive_slices: usize,
    pub uncertain_slices: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<u8>,
    /// The study and series it was read from (DICOM; absent for NIfTI files and for reports
    /// written before they were recorded): what ties a row to the study in the PACS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub study_instance_uid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_instance_uid: Option<String>,
    /// The series' SeriesDescription as the scanner wrote it (the protocol, e.g. "HEAD 5mm"):
    /// which of a study's series this is, as a radiologist knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_description: Option<String>,
    /// Only with `--keep-phi`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patient_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patient_id: Option<String>,
    /// The NIfTI file it was read from, as a path under its input (what ties the row to the
    /// file; name files without patient names, as BIDS does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nifti: Option<String>,
    pub warnings: Vec<String>,
    /// Why the scan's call stands where none of its slices shows it (a likely bleed with no
    /// slice at the threshold): the slices whose attention made the scan's probability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The HTML page, relative to the output folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// The DICOM results (SR and Secondary Captures), relative to the output folder; only for
    /// scans predicted from DICOM files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dicom: Option<DicomFiles>,
    /// Each subtype's scan probability (bundles with subtype heads; see [`ModelInfo::subtypes`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<SubtypeProbability>,
    /// In z order (feet to head as the scan was ordered).
    pub slices: Vec<SliceReport>,
}

/// A scan's DICOM results, relative to the output folder.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct DicomFiles {
    pub sr: String,
    pub sc: Vec<String>,
    /// The SOP Instance UIDs of the earlier reports on this series that this SR supersedes
    /// (its Predecessor Documents Sequence): this one is current.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supersedes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SliceReport {
    pub index: usize,
    pub sop_instance_uid: String,
    pub z: Option<f64>,
    pub probability: f64,
    pub sd: f64,
    pub lo: f64,
    pub hi: f64,
    pub positive: bool,
    pub uncertain: bool,
    /// Attention weight of the CNN (sums to 1 over the scan).
    pub attention: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<u8>,
    /// Each subtype's slice probability (bundles with subtype heads).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<SubtypeProbability>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportMetrics {
    pub scans: usize,
    pub scan: Metrics,
    /// Over the slices with a label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<Metrics>,
    pub slices: usize,
    /// The CNN's own scan probabilities, for comparison.
    pub cnn_scan: Metrics,
    /// Reliability of scan probabilities: (bin centre, mean predicted, observed rate, count).
    pub reliability: Vec<(f64, f64, f64, usize)>,
    /// Reliability of slice probabilities (over the labelled slices).
    #[serde(default)]
    pub slice_reliability: Vec<(f64, f64, f64, usize)>,
    /// Each subtype head's metrics, against the subtypes the labels give.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<SubtypeMetrics>,
}

/// Equal-width reliability bins of predicted probabilities against observed labels.
pub fn reliability(labels: &[u8], p: &[f64], bins: usize) -> Vec<(f64, f64, f64, usize)> {
    let mut sum_p = vec![0.0; bins];
    let mut sum_y = vec![0.0; bins];
    let mut n = vec![0usize; bins];
    for (&y, &q) in labels.iter().zip(p) {
        let b = ((q * bins as f64) as usize).min(bins - 1);
        sum_p[b] += q;
        sum_y[b] += y as f64;
        n[b] += 1;
    }
    (0..bins)
        .filter(|&b| n[b] > 0)
        .map(|b| {
            (
                (b as f64 + 0.5) / bins as f64,
                sum_p[b] / n[b] as f64,
                sum_y[b] / n[b] as f64,
                n[b],
            )
        })
        .collect()
}

/// A row of `slices.csv`.
#[derive(Serialize)]
struct SliceRow<'a> {
    scan_id: Cow<'a, str>,
    slice_index: usize,
    sop_instance_uid: Cow<'a, str>,
    z: Option<f64>,
    probability: f64,
    sd: f64,
    lo: f64,
    hi: f64,
    positive: u8,
    uncertain: u8,
    cnn_attention: f64,
    label: Option<u8>,
    /// [`Call`]: likely bleed, unsure or unlikely.
    call: &'static str,
}

/// The one call a reader acts on, per scan, slice and subtype, the same on the pages, in the CSVs
/// and in the SR (`pacs::sr::Assessment`: Present, Indeterminate, Absent): **likely bleed** when
/// the probability reaches the positive threshold and the model is sure of it; **unsure** when it
/// is not (the 90 % interval reaches across the threshold, the sd is at least `--uncertain-sd`, or
/// the scan lies outside the slices the model was fitted on), whichever side the probability is
/// on; **unlikely** otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    LikelyBleed,
    Unsure,
    Unlikely,
}

impl Call {
    /// The SR's assessment of the same flags, named for a reader: one rule, written once in
    /// [`pacs::sr::Assessment::from_flags`].
    pub fn of(positive: bool, uncertain: bool) -> Call {
        match pacs::sr::Assessment::from_flags(positive, uncertain) {
            pacs::sr::Assessment::Present => Call::LikelyBleed,
            pacs::sr::Assessment::Uncertain => Call::Unsure,
            pacs::sr::Assessment::Absent => Call::Unlikely,
        }
    }

    /// As the pages and the CSVs write it.
    pub fn text(self) -> &'static str {
        match self {
            Call::LikelyBleed => "likely bleed",
            Call::Unsure => "unsure",
            Call::Unlikely => "unlikely",
        }
    }
}

/// A row of `scans.csv`.
#[derive(Serialize)]
struct ScanRow<'a> {
    scan_id: Cow<'a, str>,
    n_slices: usize,
    probability: f64,
    sd: f64,
    lo: f64,
    hi: f64,
    positive: u8,
    uncertain: u8,
    cnn_probability: f64,
    positive_slices: usize,
    uncertain_slices: usize,
    label: Option<u8>,
    /// 1 when the scan lies outside the slices the head was fitted on; empty when not checked.
    out_of_distribution: Option<u8>,
    /// The fraction of its slices outside them.
    ood_outside_fraction: Option<f64>,
    /// The study and series (DICOM) or the file (NIfTI) the scan was read from.
    study_instance_uid: Cow<'a, str>,
    series_instance_uid: Cow<'a, str>,
    series_description: Cow<'a, str>,
    nifti: Cow<'a, str>,
    /// [`Call`]: likely bleed, unsure or unlikely.
    call: &'static str,
    /// What the probabilities are calibrated for ([`CalibrationKind::word`]): `site`,
    /// `validation` or `none` (the network's scores, not calibrated for this site).
    calibration: &'static str,
}

/// Checks a `--viewer-url` template: an `http://` or `https://` address holding `{study}` (and
/// optionally `{series}`), without spaces, quotes or angle brackets. E.g. OHIF's
/// `https://pacs.example/viewer?StudyInstanceUIDs={study}`.
pub fn viewer_url_template(t: &str) -> Result<String> {
    let scheme = t.starts_with("https://") || t.starts_with("http://");
    let clean = !t
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>'));
    if scheme && clean && t.contains("{study}") && t.len() <= 2048 {
        Ok(t.to_string())
    } else {
        Err(Error::Invalid(format!(
            "viewer URL {t:?}: an http:// or https:// address holding {{study}} (and optionally \
             {{series}}), without spaces, quotes or angle brackets, at most 2048 characters"
        )))
    }
}

/// A DICOM scan's address in the viewer: the report's template with the scan's UIDs put in
/// (digits and dots only, so nothing needs escaping); None without a template or for a scan
/// without UIDs (NIfTI).
pub fn viewer_url(r: &Report, s: &ScanReport) -> Option<String> {
    let t = r.viewer_url.as_deref()?;
    let study = s.study_instance_uid.as_deref()?;
    let series = s.series_instance_uid.as_deref().unwrap_or("");
    Some(t.replace("{study}", study).replace("{series}", series))
}

/// A text cell of a CSV meant for spreadsheets: one that starts with `=`, `+`, `-`, `@`, a tab or
/// a carriage return would be run as a formula by Excel or LibreOffice (CSV injection, OWASP), so
/// it gets a leading `'`, which spreadsheets show as text. Quoting (commas, quotes, newlines) is
/// the csv writer's.
pub fn spreadsheet_text(s: &str) -> Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// Rows as CSV with a header (the serde field names), and [`SUBTYPE_COLUMNS`] more columns per
/// subtype in `names` (`<name>_probability`, `_sd`, `_lo`, `_hi`, `_positive`, `_uncertain`,
/// `_label`), filled from each row's subtypes by name (empty where a row lacks one).
/// The columns each subtype adds to `scans.csv` and `slices.csv`, after `<name>_`.
pub const SUBTYPE_COLUMNS: [&str; 7] = [
    "probability",
    "sd",
    "lo",
    "hi",
    "positive",
    "uncertain",
    "label",
];

/// A CSV file written row by row: a header (the serde field names of the first row) and
/// [`SUBTYPE_COLUMNS`] more columns per subtype in `names`, filled from each row's subtypes by
/// name (empty where a row lacks one). No row, no header.
struct CsvOut<'n, W: std::io::Write> {
    w: csv::Writer<W>,
    names: &'n [String],
    first: bool,
}

fn csv_error(e: &dyn std::fmt::Display) -> Error {
    Error::Invalid(format!("writing CSV: {e}"))
}

/// A CSV writer's error: an I/O one (a full disk) stays an I/O error, which can pass (the node
/// tries such a study again, `crate::node::serve`); any other is the data's.
fn csv_write_error(e: csv::Error) -> Error {
    if e.is_io_error() {
        if let csv::ErrorKind::Io(io) = e.into_kind() {
            return io_error(io);
        }
        return Error::Invalid("writing CSV: an I/O error".into());
    }
    csv_error(&e)
}

fn io_error(io: std::io::Error) -> Error {
    Error::Io {
        path: std::path::PathBuf::from("writing CSV"),
        source: io,
    }
}

impl<'n, W: std::io::Write> CsvOut<'n, W> {
    fn new(out: W, names: &'n [String]) -> Self {
        Self {
            w: csv::Writer::from_writer(out),
            names,
            first: true,
        }
    }

    fn row<T: Serialize>(&mut self, r: T, subs: &[SubtypeProbability]) -> Result<()> {
        let err = csv_error;
        // the row's own fields as the serde writer spells them (header with the first)
        let mut one = csv::WriterBuilder::new()
            .has_headers(self.first)
            .from_writer(Vec::new());
        one.serialize(r).map_err(|e| err(&e))?;
        let bytes = one.into_inner().map_err(|e| err(&e))?;
        let mut back = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&bytes[..]);
        let mut recs = back.records();
        if self.first {
            let mut head = recs
                .next()
                .ok_or_else(|| err(&"no header"))?
                .map_err(|e| err(&e))?;
            for n in self.names {
                for f in SUBTYPE_COLUMNS {
                    head.push_field(&format!("{n}_{f}"));
                }
            }
            self.w.write_record(&head).map_err(csv_write_error)?;
            self.first = false;
        }
        let mut rec = recs
            .next()
            .ok_or_else(|| err(&"no row"))?
            .map_err(|e| err(&e))?;
        for n in self.names {
            match subs.iter().find(|s| &s.name == n) {
                Some(s) => {
                    for v in [s.probability, s.sd, s.lo, s.hi] {
                        rec.push_field(&v.to_string());
                    }
                    for v in [s.positive, s.uncertain] {
                        rec.push_field(if v { "1" } else { "0" });
                    }
                    rec.push_field(&s.label.map(|l| l.to_string()).unwrap_or_default());
                }
                None => {
                    for _ in SUBTYPE_COLUMNS {
                        rec.push_field("");
                    }
                }
            }
        }
        self.w.write_record(&rec).map_err(csv_write_error)
    }

    fn finish(self) -> Result<W> {
        self.w.into_inner().map_err(|e| io_error(e.into_error()))
    }
}

/// The slices of scan `i` of a report: its own (held), or read back from where a run kept them
/// ([`slices::SliceStore`]).
pub type SlicesOf<'a> = dyn Fn(usize) -> Result<Cow<'a, [SliceReport]>> + 'a;

/// The slices a report holds itself.
pub fn held_slices<'a>(r: &'a Report) -> impl Fn(usize) -> Result<Cow<'a, [SliceReport]>> + 'a {
    move |i| Ok(Cow::Borrowed(&r.scans[i].slices[..]))
}

/// `slices.csv`: a row per slice, scans in report order, slices in z order.
pub fn slices_csv(r: &Report) -> Result<Vec<u8>> {
    write_slices_csv(r, Vec::new())
}

/// [`slices_csv`] written to `out` as the rows are made (no copy of the file in memory).
pub fn write_slices_csv<W: std::io::Write>(r: &Report, out: W) -> Result<W> {
    write_slices_csv_with(r, &held_slices(r), out)
}

/// [`write_slices_csv`] with each scan's slices from `slices_of`, one scan's at a time.
pub fn write_slices_csv_with<W: std::io::Write>(
    r: &Report,
    slices_of: &SlicesOf<'_>,
    out: W,
) -> Result<W> {
    let mut csv = CsvOut::new(out, &r.model.subtypes);
    for (i, sc) in r.scans.iter().enumerate() {
        for sl in slices_of(i)?.iter() {
            csv.row(
                SliceRow {
                    scan_id: spreadsheet_text(&sc.id),
                    slice_index: sl.index,
                    sop_instance_uid: spreadsheet_text(&sl.sop_instance_uid),
                    z: sl.z,
                    probability: sl.probability,
                    sd: sl.sd,
                    lo: sl.lo,
                    hi: sl.hi,
                    positive: u8::from(sl.positive),
                    uncertain: u8::from(sl.uncertain),
                    cnn_attention: sl.attention,
                    label: sl.label,
                    call: Call::of(sl.positive, sl.uncertain).text(),
                },
                &sl.subtypes,
            )?;
        }
    }
    csv.finish()
}

/// `scans.csv`: a row per scan, in report order (highest probability first).
pub fn scans_csv(r: &Report) -> Result<Vec<u8>> {
    write_scans_csv(r, Vec::new())
}

/// [`scans_csv`] written to `out` as the rows are made.
pub fn write_scans_csv<W: std::io::Write>(r: &Report, out: W) -> Result<W> {
    let mut csv = CsvOut::new(out, &r.model.subtypes);
    for sc in &r.scans {
        csv.row(
            ScanRow {
                scan_id: spreadsheet_text(&sc.id),
                n_slices: sc.n_slices,
                probability: sc.probability,
                sd: sc.sd,
                lo: sc.lo,
                hi: sc.hi,
                positive: u8::from(sc.positive),
                uncertain: u8::from(sc.uncertain),
                cnn_probability: sc.cnn_probability,
                positive_slices: sc.positive_slices,
                uncertain_slices: sc.uncertain_slices,
                label: sc.label,
                out_of_distribution: sc.out_of_distribution.map(|o| u8::from(o.flagged)),
                ood_outside_fraction: sc.out_of_distribution.map(|o| o.outside_fraction),
                study_instance_uid: spreadsheet_text(
                    sc.study_instance_uid.as_deref().unwrap_or(""),
                ),
                series_instance_uid: spreadsheet_text(
                    sc.series_instance_uid.as_deref().unwrap_or(""),
                ),
                series_description: spreadsheet_text(
                    sc.series_description.as_deref().unwrap_or(""),
                ),
                nifti: spreadsheet_text(sc.nifti.as_deref().unwrap_or("")),
                call: Call::of(sc.positive, sc.uncertain).text(),
                calibration: r.model.calibration_word(),
            },
            &sc.subtypes,
        )?;
    }
    csv.finish()
}

/// `report.json` written to `out` as it is made, each scan's slices from `slices_of` (one scan's
/// at a time): the bytes `serde_json::to_writer_pretty` writes for the report with every scan's
/// slices held.
pub fn write_report_json_with<W: std::io::Write>(
    r: &Report,
    slices_of: &SlicesOf<'_>,
    out: W,
) -> Result<()> {
    serde_json::to_writer_pretty(out, &ReportView { r, slices_of }).map_err(|e| {
        if e.is_io() {
            Error::Io {
                path: std::path::PathBuf::from("writing report.json"),
                source: e.into(),
            }
        } else {
            Error::Invalid(format!("serialising the report: {e}"))
        }
    })
}

/// A [`Report`] whose scans' slices come from a loader; serialised field for field as the report
/// (its `skip_serializing_if`s included: the test below compares the bytes).
struct ReportView<'a, 'b> {
    r: &'a Report,
    slices_of: &'a SlicesOf<'b>,
}

struct ScansView<'a, 'b>(&'a ReportView<'a, 'b>);

/// A scan as `report.json` holds it: its fields and its [`Call`], the same words as its page,
/// `scans.csv` and its SR (a reader of the JSON need not work the call out from the flags).
#[derive(Serialize)]
struct WithCall<'a> {
    #[serde(flatten)]
    scan: &'a ScanReport,
    call: &'static str,
}

impl Serialize for ReportView<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let r = self.r;
        let mut st = s.serialize_struct("Report", 14)?;
        st.serialize_field("format_version", &r.format_version)?;
        st.serialize_field("tool", &r.tool)?;
        st.serialize_field("created", &r.created)?;
        st.serialize_field("run", &r.run)?;
        st.serialize_field("model", &r.model)?;
        st.serialize_field("thresholds", &r.thresholds)?;
        st.serialize_field("scans", &ScansView(self))?;
        match &r.metrics {
            Some(m) => st.serialize_field("metrics", m)?,
            None => st.skip_field("metrics")?,
        }
        st.serialize_field("skipped", &r.skipped)?;
        match &r.shard {
            Some(v) => st.serialize_field("shard", v)?,
            None => st.skip_field("shard")?,
        }
        match &r.sampling {
            Some(v) => st.serialize_field("sampling", v)?,
            None => st.skip_field("sampling")?,
        }
        match &r.options {
            Some(v) => st.serialize_field("options", v)?,
            None => st.skip_field("options")?,
        }
        match &r.viewer_url {
            Some(v) => st.serialize_field("viewer_url", v)?,
            None => st.skip_field("viewer_url")?,
        }
        if r.warnings.is_empty() {
            st.skip_field("warnings")?;
        } else {
            st.serialize_field("warnings", &r.warnings)?;
        }
        st.end()
    }
}

impl Serialize for ScansView<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq};
        let scans = &self.0.r.scans;
        let mut seq = s.serialize_seq(Some(scans.len()))?;
        for (i, sc) in scans.iter().enumerate() {
            let slices = (self.0.slices_of)(i).map_err(S::Error::custom)?;
            // a held scan's slices are cloned with it, one scan at a time
            let whole = ScanReport {
                slices: slices.into_owned(),
                ..sc.clone()
            };
            seq.serialize_element(&WithCall {
                call: Call::of(whole.positive, whole.uncertain).text(),
                scan: &whole,
            })?;
        }
        seq.end()
    }
}

/// Why a scan called positive stands when none of its slices reaches the threshold: the (at
/// most three) slices its attention weighed most, which made its probability; `None` when the
/// scan is not positive or a slice shows the call. Slices are counted from 1, as on the pages,
/// the SR and the captures.
pub fn why_no_slice(positive: bool, slices: &[SliceReport], threshold: f64) -> Option<String> {
    if !positive || slices.is_empty() || slices.iter().any(|s| s.positive) {
        return None;
    }
    let mut by: Vec<&SliceReport> = slices.iter().collect();
    by.sort_by(|a, b| {
        b.attention
            .total_cmp(&a.attention)
            .then(a.index.cmp(&b.index))
    });
    let n = slices.len();
    let named: Vec<String> = by
        .iter()
        .take(3)
        .map(|s| {
            format!(
                "slice {} of {n} ({:.0} % of the attention, its own probability {:.2})",
                s.index + 1,
                100.0 * s.attention,
                s.probability
            )
        })
        .collect();
    // attention spread thin over the scan (the three most weighed slices hold under half of
    // it) drives no region: say so rather than point at slices that barely count
    let top: f64 = by.iter().take(3).map(|s| s.attention).sum();
    Some(if top < 0.5 {
        format!(
            "no slice alone reaches {threshold:.2}, and the network's attention is spread over the whole scan (its three most weighed slices hold {:.0} % of it: {}): no one region drives the call; read the scan as a whole",
            100.0 * top,
            named.join(", ")
        )
    } else {
        format!(
            "no slice alone reaches {threshold:.2}: the scan's probability comes from the slices the network's attention weighed most, {}",
            named.join(", ")
        )
    })
}

/// The label-free check of a run's calls against any site's: the share of scans called likely
/// bleed beside the share of bleeds a head CT service sees (about 5–20 %; below half even in
/// research cohorts enriched for bleeds). A warning with the command that fixes it when at least
/// [`SITE_CHECK_MIN_SCANS`] scans were predicted and more than [`SITE_CHECK_MAX_SHARE`] of them
/// are positive; none otherwise.
pub fn site_check(model: &ModelInfo, scans: &[ScanReport]) -> Vec<String> {
    let n = scans.len();
    let k = scans.iter().filter(|s| s.positive).count();
    // at a site's operating point, the most a cohort of up to half bleeds can show: its bleeds
    // caught at the highest sensitivity, its others called at the lowest specificity
    let most = match &model.operating_point {
        Some(op) => (0.5 * (op.sensitivity.hi + 1.0 - op.specificity.lo)).max(SITE_CHECK_MAX_SHARE),
        None => SITE_CHECK_MAX_SHARE,
    };
    if n < SITE_CHECK_MIN_SCANS || (k as f64) <= most * n as f64 {
        return Vec::new();
    }
    let fix = match model.calibration.as_ref().map(|c| c.kind) {
        Some(CalibrationKind::Site) => "the site's scans may have changed since the model was fitted to them (a new scanner or protocol): check these calls, and fit it again with `ich adapt` on recent labelled scans",
        _ => "the model is most likely not calibrated for these scans: fit it to your site with `ich adapt --model MODEL DICOM --labels labels.csv -o MODEL-site` (5 bleeds and 5 without at least)",
    };
    vec![format!(
        "{k} of {n} scans ({:.0} %) are called likely bleed, more than any head CT service sees (about 5–20 % bleed, under half even in cohorts enriched for bleeds; at most {:.0} % of scans called at these thresholds); {fix}",
        100.0 * k as f64 / n as f64,
        100.0 * most
    )]
}

/// The fewest scans [`site_check`] judges.
pub const SITE_CHECK_MIN_SCANS: usize = 5;
/// The largest share of positive calls [`site_check`] lets pass.
pub const SITE_CHECK_MAX_SHARE: f64 = 0.5;

/// File names of a report folder.
pub const SLICES_CSV: &str = "slices.csv";
pub const SCANS_CSV: &str = "scans.csv";
pub const REPORT_JSON: &str = "report.json";
pub const INDEX_HTML: &str = "index.html";
/// Folder of the per-scan pages.
pub const SCAN_PAGES: &str = "scans";

/// A report of one scan of one slice whose UID is hostile to spreadsheets (tests).
#[cfg(test)]
pub(crate) fn fixture_report() -> Report {
    let slice = SliceReport {
        index: 0,
        sop_instance_uid: "=HYPERLINK(\"x\"),1.2\n3".into(),
        z: None,
        probability: 0.25,
        sd: 0.125,
        lo: 0.0625,
        hi: 0.5,
        positive: false,
        uncertain: true,
        attention: 1.0,
        label: Some(0),
        subtypes: vec![],
    };
    Report {
        format_version: REPORT_FORMAT,
        run: String::new(),
        tool: "t".into(),
        created: "c".into(),
        model: ModelInfo {
            bundle: "b".into(),
            created: "c".into(),
            gp_family: "vgpmil".into(),
            uncertainty: true,
            imported: None,
            feature_dim: 8,
            image_size: 32,
            bag_rule: "Max".into(),
            calibrated: true,
            site_calibration: None,
            subtypes: vec![],
            interval: None,
            calibration: None,
            operating_point: None,
            notice: RESEARCH_NOTICE.into(),
            terms: None,
        },
        thresholds: Thresholds {
            positive: 0.5,
            uncertain_sd: 0.1,
        },
        scans: vec![ScanReport {
            id: "scan-1".into(),
            n_slices: 1,
            probability: 0.25,
            sd: 0.125,
            lo: 0.0625,
            hi: 0.5,
            positive: false,
            uncertain: true,
            cnn_probability: 0.5,
            out_of_distribution: None,
            positive_slices: 0,
            uncertain_slices: 1,
            label: None,
            study_instance_uid: None,
            series_instance_uid: None,
            series_description: None,
            patient_name: None,
            patient_id: None,
            nifti: None,
            warnings: vec![],
            why: None,
            page: None,
            dicom: None,
            subtypes: vec![],
            slices: vec![slice],
        }],
        metrics: None,
        skipped: vec![],
        shard: None,
        sampling: Some(Sampling {
            samples: 1000,
            seed: 0,
        }),
        options: Some(ReportOptions {
            keep_phi: false,
            labels: true,
            dicom: true,
        }),
        viewer_url: None,
        warnings: vec![],
    }
}

#[cfg(test)]
mod tests {

    /// `report.json` written scan by scan from a loader is the report's own serialisation,
    /// byte for byte, with every optional field present and absent.
    #[test]
    fn report_json_from_a_loader_is_the_reports_bytes() {
        let mut r = fixture_report();
        let mut second = r.scans[0].clone();
        second.id = "scan-2".into();
        second.slices.push(second.slices[0].clone());
        second.slices[1].index = 1;
        r.scans.push(second);
        let bare = {
            let mut b = r.clone();
            b.sampling = None;
            b
        };
        let mut full = r.clone();
        full.shard = Some("1/4".into());
        full.scans[0].label = Some(0);
        full.scans[1].label = Some(1);
        full.metrics = crate::report::write::metrics(&full.scans);
        assert!(full.metrics.is_some());
        // the report's own fields, and each scan's call beside them
        let with_calls = |r: &Report| {
            let mut v = serde_json::to_value(r).unwrap();
            for (sc, s) in v["scans"].as_array_mut().unwrap().iter_mut().zip(&r.scans) {
                sc["call"] = Call::of(s.positive, s.uncertain).text().into();
            }
            serde_json::to_vec_pretty(&v).unwrap()
        };
        for r in [r, bare, full] {
            let want = with_calls(&r);
            let mut got = Vec::new();
            write_report_json_with(&r, &held_slices(&r), &mut got).unwrap();
            let got: serde_json::Value = serde_json::from_slice(&got).unwrap();
            assert_eq!(
                String::from_utf8(serde_json::to_vec_pretty(&got).unwrap()).unwrap(),
                String::from_utf8(want.clone()).unwrap()
            );
            assert!(got["scans"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["call"].is_string()));
            // and from slices kept apart, the scans holding none
            let kept: Vec<Vec<SliceReport>> = r.scans.iter().map(|s| s.slices.clone()).collect();
            let mut light = r.clone();
            light.scans.iter_mut().for_each(|s| s.slices.clear());
            let mut got = Vec::new();
            let from = |i: usize| Ok(Cow::Owned(kept[i].clone()));
            write_report_json_with(&light, &from, &mut got).unwrap();
            let got: serde_json::Value = serde_json::from_slice(&got).unwrap();
            assert_eq!(serde_json::to_vec_pretty(&got).unwrap(), want);
            let mut csv = Vec::new();
            csv = write_slices_csv_with(&light, &from, std::mem::take(&mut csv)).unwrap();
            assert_eq!(csv, slices_csv(&r).unwrap());
        }
    }
    use super::*;

    #[test]
    fn formula_cells_become_text_and_others_stay_as_they_are() {
        for bad in ["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(spreadsheet_text(bad), format!("'{bad}"));
        }
        for ok in ["1.2.840.113619", "scan-0a", "", "a=b"] {
            assert_eq!(spreadsheet_text(ok), ok);
        }
    }

    #[test]
    fn reliability_bins_by_hand() {
        // bin 0 (0–0.5): 0.1, 0.3 → mean 0.2, observed 1/2; bin 1: 0.9 → observed 1
        let r = reliability(&[0, 1, 1], &[0.1, 0.3, 0.9], 2);
        assert_eq!(r.len(), 2);
        assert!((r[0].1 - 0.2).abs() < 1e-12 && (r[0].2 - 0.5).abs() < 1e-12 && r[0].3 == 2);
        assert!((r[1].1 - 0.9).abs() < 1e-12 && (r[1].2 - 1.0).abs() < 1e-12 && r[1].3 == 1);
    }

    /// The three calls from the two flags, by hand, and the same call as the SR codes it.
    #[test]
    fn one_call_per_scan_agrees_with_the_srs_assessment() {
        use pacs::sr::{Assessment, ABSENT, INDETERMINATE, PRESENT};
        for (positive, uncertain, want, code) in [
            (true, false, Call::LikelyBleed, PRESENT),
            (true, true, Call::Unsure, INDETERMINATE),
            (false, true, Call::Unsure, INDETERMINATE),
            (false, false, Call::Unlikely, ABSENT),
        ] {
            assert_eq!(Call::of(positive, uncertain), want);
            assert_eq!(Assessment::from_flags(positive, uncertain).code(), code);
        }
        assert_eq!(
            [Call::LikelyBleed, Call::Unsure, Call::Unlikely].map(Call::text),
            ["likely bleed", "unsure", "unlikely"]
        );
    }

    #[test]
    fn csv_quotes_hostile_uids_and_writes_flags_as_digits() {
        let r = fixture_report();
        let text = String::from_utf8(slices_csv(&r).unwrap()).unwrap();
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        let h = rdr.headers().unwrap().clone();
        assert_eq!(
            h.iter().collect::<Vec<_>>(),
            [
                "scan_id",
                "slice_index",
                "sop_instance_uid",
                "z",
                "probability",
                "sd",
                "lo",
                "hi",
                "positive",
                "uncertain",
                "cnn_attention",
                "label",
                "call"
            ]
        );
        let row = rdr.records().next().unwrap().unwrap();
        // quoted by the csv writer, and marked as text for spreadsheets
        assert_eq!(&row[2], "'=HYPERLINK(\"x\"),1.2\n3");
        assert_eq!(
            (&row[3], &row[6], &row[7], &row[8], &row[9], &row[11]),
            ("", "0.0625", "0.5", "0", "1", "0")
        );
        let scans = String::from_utf8(scans_csv(&r).unwrap()).unwrap();
        assert!(scans.starts_with("scan_id,n_slices,probability,sd,lo,hi,positive,uncertain,cnn_probability,positive_slices,uncertain_slices,label,out_of_distribution,ood_outside_fraction,study_instance_uid,series_instance_uid,series_description,nifti,call,calibration\n"));
        // not checked against a summary of training slices: the two columns are empty; no
        // study, series or file recorded: empty too
        assert!(
            scans.contains("scan-1,1,0.25,0.125,0.0625,0.5,0,1,0.5,0,1,,,,,,,,unsure,\n"),
            "{scans}"
        );
        // a scan tied to its study and series
        let mut tied = r.clone();
        tied.scans[0].study_instance_uid = Some("1.2.3".into());
        tied.scans[0].series_instance_uid = Some("1.2.3.4".into());
        tied.scans[0].series_description = Some("=HEAD 5mm".into());
        let t = String::from_utf8(scans_csv(&tied).unwrap()).unwrap();
        assert!(t.contains(",1.2.3,1.2.3.4,'=HEAD 5mm,,unsure,\n"), "{t}");
        // with subtype heads: seven columns per subtype, by name, empty where a row lacks one
        let mut r = r;
        r.model.subtypes = vec!["epidural".into(), "subdural".into()];
        let sub = |name: &str, p: f64| SubtypeProbability {
            name: name.into(),
            probability: p,
            sd: 0.125,
            lo: p / 2.0,
            hi: 0.75,
            positive: p >= 0.5,
            uncertain: true,
            label: (p >= 0.5).then_some(1),
        };
        r.scans[0].subtypes = vec![sub("subdural", 0.5)];
        r.scans[0].slices[0].subtypes = vec![sub("epidural", 0.25), sub("subdural", 0.5)];
        let scans = String::from_utf8(scans_csv(&r).unwrap()).unwrap();
        let want_head = "scan_id,n_slices,probability,sd,lo,hi,positive,uncertain,cnn_probability,\
positive_slices,uncertain_slices,label,out_of_distribution,ood_outside_fraction,\
study_instance_uid,series_instance_uid,series_description,nifti,call,calibration,epidural_probability,epidural_sd,epidural_lo,epidural_hi,epidural_positive,epidural_uncertain,\
epidural_label,subdural_probability,subdural_sd,subdural_lo,subdural_hi,subdural_positive,\
subdural_uncertain,subdural_label\n";
        assert!(scans.starts_with(want_head), "{scans}");
        assert!(
            scans.ends_with(
                "scan-1,1,0.25,0.125,0.0625,0.5,0,1,0.5,0,1,,,,,,,,unsure,,,,,,,,,0.5,0.125,0.25,0.75,1,1,1\n"
            ),
            "{scans}"
        );
        let slices = String::from_utf8(slices_csv(&r).unwrap()).unwrap();
        assert!(
            slices.ends_with(",0.25,0.125,0.125,0.75,0,1,,0.5,0.125,0.25,0.75,1,1,1\n"),
            "{slices}"
        );
        // the hostile UID is still quoted and marked as text with the extra columns
        assert!(
            slices.contains("\"'=HYPERLINK(\"\"x\"\"),1.2\n3\""),
            "{slices}"
        );
    }

    /// The label-free check fires on a run whose calls no site would see (5 of 6 scans likely
    /// bleed), not on a plausible one (1 of 6) nor on too few scans to judge (4 of 4); its
    /// advice follows what the model is calibrated for.
    #[test]
    fn the_site_check_fires_on_implausibly_many_positive_calls_only() {
        let r = fixture_report();
        let scans = |pos: usize, n: usize| -> Vec<ScanReport> {
            (0..n)
                .map(|i| ScanReport {
                    positive: i < pos,
                    ..r.scans[0].clone()
                })
                .collect()
        };
        let mut model = r.model.clone();
        model.calibration = Some(Calibration {
            kind: CalibrationKind::None,
            text: "scores".into(),
        });
        let w = site_check(&model, &scans(5, 6));
        assert_eq!(w.len(), 1);
        assert!(
            w[0].starts_with("5 of 6 scans (83 %)") && w[0].contains("ich adapt --model"),
            "{}",
            w[0]
        );
        assert!(site_check(&model, &scans(1, 6)).is_empty());
        assert!(
            site_check(&model, &scans(3, 6)).is_empty(),
            "half is not more than half"
        );
        assert!(site_check(&model, &scans(4, 4)).is_empty());
        model.calibration.as_mut().unwrap().kind = CalibrationKind::Site;
        assert!(site_check(&model, &scans(6, 6))[0].contains("may have changed"));
        // at an operating point of sensitivity up to 1.0 and specificity down to 0.2, a cohort
        // of half bleeds has up to 0.5 · (1 + 0.8) = 90 % called positive: 5 of 6 (83 %) is
        // plausible there, 6 of 6 is not
        let e = |value: f64, lo: f64, hi: f64| crate::bundle::operating::Estimate { value, lo, hi };
        model.operating_point = Some(crate::bundle::operating::OperatingPoint {
            target_sensitivity: 0.9,
            threshold: 0.2,
            sensitivity: e(0.9, 0.7, 1.0),
            specificity: e(0.4, 0.2, 0.6),
            scans: 41,
            positives: 18,
            patients: 41,
        });
        assert!(site_check(&model, &scans(5, 6)).is_empty());
        assert!(site_check(&model, &scans(6, 6))[0].contains("at most 90 %"));
    }

    /// A positive scan with no positive slice names its three most attended slices, counted
    /// from 1, most attended first; a negative scan, or one with a positive slice, needs no why.
    #[test]
    fn a_positive_scan_without_a_positive_slice_names_its_attended_slices() {
        let base = fixture_report().scans[0].slices[0].clone();
        let slices: Vec<SliceReport> = [0.1f64, 0.5, 0.05, 0.3, 0.05]
            .iter()
            .enumerate()
            .map(|(i, &a)| SliceReport {
                index: i,
                attention: a,
                probability: 0.1 * i as f64,
                positive: false,
                ..base.clone()
            })
            .collect();
        let why = why_no_slice(true, &slices, 0.5).unwrap();
        assert!(why.contains("no slice alone reaches 0.50"), "{why}");
        let a = why.find("slice 2 of 5 (50 %").unwrap();
        let b = why.find("slice 4 of 5 (30 %").unwrap();
        let c = why.find("slice 1 of 5 (10 %").unwrap();
        assert!(a < b && b < c, "{why}");
        assert!(!why.contains("slice 3 of 5") && !why.contains("slice 5 of 5"));
        assert!(
            !why.contains("spread"),
            "90 % of the attention on three slices: {why}"
        );
        // attention spread thin: 30 slices of equal weight, the top three hold 10 %
        let even: Vec<SliceReport> = (0..30)
            .map(|i| SliceReport {
                index: i,
                attention: 1.0 / 30.0,
                ..slices[0].clone()
            })
            .collect();
        let thin = why_no_slice(true, &even, 0.5).unwrap();
        assert!(
            thin.contains("spread over the whole scan") && thin.contains("hold 10 %"),
            "{thin}"
        );
        assert!(why_no_slice(false, &slices, 0.5).is_none());
        let mut one = slices.clone();
        one[3].positive = true;
        assert!(why_no_slice(true, &one, 0.5).is_none());
    }
}
