//! The DICOM results of a scan predicted from DICOM files: a Comprehensive 3D SR (TID 1500) with
//! every slice's probability and the scan's, and a Secondary Capture image of every slice flagged
//! positive or uncertain, in `OUT/dicom/<scan id>/` (docs/REPORT.md, "DICOM SR"); sending them to
//! a PACS; pulling a study from one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use milbase::Progress;
use pacs::sc::Capture;
use pacs::sr::{Algorithm, Assessment, Document, Estimate, SliceFinding, SubtypeFindings};
use pacs::uid::UidRoot;
use pacs::{Destination, Equipment, SendOptions, SendReport, SourceContext};
use preprocess::dataset::write_atomic;
use preprocess::scan::Scan;

use crate::error::{Error, Result};
use crate::report::{ModelInfo, ScanPrediction, Thresholds};

/// The folder (in the output folder) of the DICOM results.
pub const DICOM_DIR: &str = "dicom";
/// The SR's file name in a scan's folder.
pub const SR_FILE: &str = "sr.dcm";
/// Series numbers of the SR and the Secondary Capture series.
pub const SR_SERIES_NUMBER: i32 = 9901;
pub const SC_SERIES_NUMBER: i32 = 9902;
pub const SR_SERIES_DESCRIPTION: &str = "ich ICH probabilities (research, not for diagnostic use)";
pub const SC_SERIES_DESCRIPTION: &str = "ich flagged slices (research, not for diagnostic use)";

/// What identifies the result of a scan, as a hex digest: its StudyInstanceUID,
/// SeriesInstanceUID, PatientID and the set of SOP Instance UIDs predicted (in any order). The
/// same input gives the same identity on every rerun; a scan that differs in any of them (another
/// patient's study reusing the series UID, an instance more or less) gets another, and with it
/// other SR and Secondary Capture UIDs.
pub fn result_identity(scan: &Scan) -> String {
    use sha2::{Digest, Sha256};
    let mut sops: Vec<&str> = scan.slices.iter().map(|h| h.sop_uid.as_str()).collect();
    sops.sort_unstable();
    sops.dedup();
    let patient = scan
        .slices
        .first()
        .and_then(|h| h.patient_id.as_deref())
        .unwrap_or("")
        .trim();
    let mut h = Sha256::new();
    for part in [scan.study_uid.as_str(), scan.series_uid.as_str(), patient]
        .into_iter()
        .chain(sops)
    {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Options of the DICOM outputs. Default: UIDs under `2.25`, at most 20 Secondary Captures per
/// scan.
#[derive(Debug, Clone)]
pub struct DicomOptions {
    pub uid_root: UidRoot,
    /// Secondary Captures per scan at most (`ich predict --max-captures`, 20): a series of
    /// thousands of flagged slices must not become gigabytes of captures.
    pub max_captures: usize,
    /// Reports sent earlier on these series, which this run's reports supersede (`ich serve`
    /// predicting a study again after late instances): each new SR names the earlier one of its
    /// series in its Predecessor Documents Sequence. Empty by default.
    pub supersede: Vec<pacs::sr::Predecessor>,
}

impl Default for DicomOptions {
    fn default() -> Self {
        Self {
            uid_root: UidRoot::default(),
            max_captures: 20,
            supersede: Vec::new(),
        }
    }
}

/// Who made the results: the model bundle as the SR names it.
#[derive(Debug, Clone)]
pub struct ModelIdentity {
    /// The bundle's folder name.
    pub name: String,
    /// SHA-256 of the bundle's manifest.json (which holds the checksum of every other file).
    pub checksum: String,
    pub info: ModelInfo,
}

impl ModelIdentity {
    pub fn of_bundle(dir: &Path, info: ModelInfo) -> Result<Self> {
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
            .unwrap_or_else(|| "model".into());
        let checksum = crate::bundle::sha256_file(&dir.join(crate::bundle::MANIFEST))?;
        Ok(Self {
            name,
            checksum,
            info,
        })
    }

    fn equipment(&self, thr: &Thresholds) -> Equipment {
        Equipment {
            manufacturer: "the ich project".into(),
            model_name: clip(&format!("ich {}", self.name), 64),
            serial: self.checksum[..16].to_string(),
            software_version: format!("ich {}", env!("CARGO_PKG_VERSION")),
            description: clip(&format!(
                "{}; bundle {} (manifest SHA-256 {}); {}; research software, not for diagnostic use",
                self.algorithm_name(),
                self.name,
                self.checksum,
                thresholds_text(thr)
            ), 1024),
        }
    }

    fn algorithm_name(&self) -> String {
        if self.info.gp_family != crate::report::CNN_ONLY {
            format!(
                "ich attention CNN + {} head on {} features",
                self.info.gp_family, self.info.feature_dim
            )
        } else {
            "ich attention CNN (no GP head)".into()
        }
    }

    fn algorithm(&self, thr: &Thresholds) -> Algorithm {
        Algorithm {
            name: self.algorithm_name(),
            version: format!(
                "ich {}, bundle {} created {}",
                env!("CARGO_PKG_VERSION"),
                self.name,
                self.info.created
            ),
            parameters: format!(
                "{}; bag rule {}; calibrated {}{}; manifest SHA-256 {}",
                thresholds_text(thr),
                self.info.bag_rule,
                self.info.calibrated,
                if self.info.site_calibration.is_some() {
                    " (recalibrated on the site's labelled scans)"
                } else {
                    ""
                },
                self.checksum
            ),
        }
    }
}

fn thresholds_text(t: &Thresholds) -> String {
    format!(
        "positive when p >= {}; uncertain when the 90% interval reaches across it or sd >= {}",
        t.positive, t.uncertain_sd
    )
}

fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The files written for one scan.
#[derive(Debug, Clone)]
pub struct Written {
    pub sr: PathBuf,
    pub sc: Vec<PathBuf>,
}

impl Written {
    pub fn all(&self) -> Vec<PathBuf> {
        std::iter::once(self.sr.clone())
            .chain(self.sc.iter().cloned())
            .collect()
    }
}

fn estimate(p: f64, sd: f64, lo: f64, hi: f64) -> Estimate {
    Estimate {
        probability: p,
        sd,
        lo,
        hi,
    }
}

fn pm(uncertainty: bool, p: f64, lo: f64, hi: f64) -> String {
    if uncertainty {
        format!("{p:.3} [{lo:.3}-{hi:.3}]")
    } else {
        format!("{p:.3} (no interval)")
    }
}

/// A capture's line of subtypes: those flagged positive or uncertain on the slice, most
/// probable first (none: no line).
fn subtype_line(subs: &[crate::report::SubtypeProbability]) -> Option<String> {
    let mut flagged: Vec<_> = subs.iter().filter(|x| x.positive || x.uncertain).collect();
    flagged.sort_by(|a, b| b.probability.total_cmp(&a.probability));
    (!flagged.is_empty()).then(|| {
        let parts: Vec<String> = flagged
            .iter()
            .map(|x| {
                format!(
                    "{} {:.2}{}",
                    x.name,
                    x.probability,
                    if x.uncertain { "?" } else { "" }
                )
            })
            .collect();
        clip(&parts.join(", "), 62)
    })
}

/// The call burned into a Secondary Capture ([`crate::report::Call`], as the SR codes it).
fn flag_text(positive: bool, uncertain: bool) -> &'static str {
    use crate::report::Call;
    match Call::of(positive, uncertain) {
        Call::LikelyBleed => "LIKELY BLEED",
        Call::Unsure => "UNSURE",
        Call::Unlikely => "unlikely",
    }
}

/// Each slice's finding for the SR, with the SOP class of the instance it references.
fn slice_findings(
    scan: &Scan,
    report: &crate::report::ScanReport,
    by_uid: &HashMap<&str, &str>,
) -> Result<Vec<SliceFinding>> {
    let mut slices = Vec::with_capacity(report.slices.len());
    for s in &report.slices {
        let class = by_uid.get(s.sop_instance_uid.as_str()).ok_or_else(|| {
            Error::Invalid(format!(
                "scan {}: slice {} is not among the source files",
                scan.id, s.sop_instance_uid
            ))
        })?;
        slices.push(SliceFinding {
            sop_class_uid: class.to_string(),
            sop_instance_uid: s.sop_instance_uid.clone(),
            index: s.index,
            estimate: estimate(s.probability, s.sd, s.lo, s.hi),
            assessment: Assessment::from_flags(s.positive, s.uncertain),
        });
    }
    Ok(slices)
}

/// Each subtype head's findings, by the names the report gives them; a subtype without codes
/// (not one of the five) is left out of the SR and said so.
fn subtype_findings(
    scan: &Scan,
    report: &crate::report::ScanReport,
) -> Result<Vec<SubtypeFindings>> {
    let mut subtypes = Vec::new();
    for sub in &report.subtypes {
        let Some(codes) = pacs::sr::subtype_codes(&sub.name) else {
            tracing::warn!(
                "scan {}: subtype {:?} has no code; left out of the SR",
                scan.id,
                sub.name
            );
            continue;
        };
        let mut per_slice = Vec::with_capacity(report.slices.len());
        for s in &report.slices {
            let x = s
                .subtypes
                .iter()
                .find(|x| x.name == sub.name)
                .ok_or_else(|| {
                    Error::Invalid(format!(
                        "scan {}: slice {} has no {} probability",
                        scan.id, s.index, sub.name
                    ))
                })?;
            per_slice.push((
                estimate(x.probability, x.sd, x.lo, x.hi),
                Assessment::from_flags(x.positive, x.uncertain),
            ));
        }
        subtypes.push(SubtypeFindings {
            codes,
            scan: estimate(sub.probability, sub.sd, sub.lo, sub.hi),
            scan_assessment: Assessment::from_flags(sub.positive, sub.uncertain),
            slices: per_slice,
        });
    }
    Ok(subtypes)
}

/// The lines burned into a slice's Secondary Capture: the slice's call, where it lies, the
/// scan's call, the model, its subtypes, and that this is research software.
fn capture_lines(
    model: &ModelIdentity,
    scan: &Scan,
    report: &crate::report::ScanReport,
    s: &crate::report::SliceReport,
) -> Vec<String> {
    let unc = model.info.uncertainty;
    let n = report.slices.len();
    vec![
        format!(
            "ICH {} {}",
            pm(unc, s.probability, s.lo, s.hi),
            flag_text(s.positive, s.uncertain)
        ),
        format!(
            "{} {} of {n}{}",
            if scan.slab > 1 { "slab" } else { "slice" },
            s.index + 1,
            if unc {
                format!(", sd {:.3}", s.sd)
            } else {
                String::new()
            }
        ),
        format!(
            "scan {} {}",
            pm(unc, report.probability, report.lo, report.hi),
            flag_text(report.positive, report.uncertain)
        ),
        clip(
            &format!("model {} ({})", model.name, model.info.gp_family),
            62,
        ),
    ]
    .into_iter()
    .chain(subtype_line(&s.subtypes))
    .chain(["RESEARCH SOFTWARE - NOT FOR DIAGNOSTIC USE".into()])
    .collect()
}

/// Writes the SR and the Secondary Captures of one scan into `out/dicom/<scan id>/`, each file
/// atomically; Secondary Captures of an earlier run in that folder are removed first (a rerun
/// with other thresholds flags other slices). The captures show the slices as
/// [`crate::report::images::panels`] gives them (`size`: the network's input size). It stays
/// over 150 lines because the SR and each capture are one literal each, which name every
/// attribute they carry; the findings and the captures' lines are built by their own functions.
pub fn write_scan(
    (out, held): (&Path, &milbase::atomic::DirLock),
    opts: &DicomOptions,
    model: &ModelIdentity,
    thr: &Thresholds,
    scan: &Scan,
    prediction: &ScanPrediction,
    size: usize,
) -> Result<DicomOutcome> {
    let report = &prediction.report;
    if let Some(v) = scan.source.volume() {
        return Ok(DicomOutcome::NotApplicable(format!(
            "the scan was read from a {} file, which carries no DICOM study, series or \
             instance UIDs for a Structured Report or Secondary Captures to reference",
            v.format.name()
        )));
    }
    let first = scan
        .slices
        .first()
        .ok_or_else(|| Error::Invalid(format!("scan {} has no slices", scan.id)))?;
    // results reference their sources by UID: sources without valid UIDs (e.g. de-identified
    // challenge data with "ID_…" identifiers) cannot be referenced
    if let Some(bad) = std::iter::once(scan.series_uid.as_str())
        .chain(
            scan.slices
                .iter()
                .flat_map(|h| [h.sop_uid.as_str(), h.sop_class.as_str()]),
        )
        .find(|u| !pacs::uid::is_valid(u))
    {
        return Ok(DicomOutcome::NotApplicable(format!(
            "the source's UID {bad:?} is not a valid DICOM UID, so no SR can reference it"
        )));
    }
    let context = match SourceContext::read(&first.path) {
        Ok(c) => c,
        Err(pacs::Error::Source { problem, .. }) => {
            return Ok(DicomOutcome::NotApplicable(format!(
                "{}: {problem}",
                first.path.display()
            )))
        }
        Err(e) => return Err(Error::Invalid(e.to_string())),
    };
    let by_uid: HashMap<&str, &str> = scan
        .slices
        .iter()
        .map(|h| (h.sop_uid.as_str(), h.sop_class.as_str()))
        .collect();
    let root = &opts.uid_root;
    let ck = model.checksum.as_str();
    let thr_key = format!("{}/{}", thr.positive, thr.uncertain_sd);
    // every UID of a result is derived from all that identifies it (study, series, patient, the
    // instances predicted), not from the series alone: two patients' studies that share a
    // SeriesInstanceUID (copied series, broken modalities, phantoms) get distinct results
    let identity = result_identity(scan);
    let series = identity.as_str();
    let created = pacs::date_time(SystemTime::now());
    let equipment = model.equipment(thr);
    let unc = model.info.uncertainty;

    let slices = slice_findings(scan, report, &by_uid)?;
    let mut tracking = vec![root.derive(&["ich-track", ck, series, "scan"])];
    tracking.extend(
        slices
            .iter()
            .map(|s| root.derive(&["ich-track", ck, series, &s.sop_instance_uid])),
    );
    let subtypes = subtype_findings(scan, report)?;
    let doc = Document {
        context: context.clone(),
        source_series_uid: scan.series_uid.clone(),
        sop_instance_uid: root.derive(&["ich-sr", ck, series, &thr_key]),
        series_instance_uid: root.derive(&["ich-sr-series", ck, series, &thr_key]),
        series_number: SR_SERIES_NUMBER,
        series_description: SR_SERIES_DESCRIPTION.into(),
        equipment: equipment.clone(),
        algorithm: model.algorithm(thr),
        observer_uid: root.derive(&["ich-device", ck]),
        scan: estimate(report.probability, report.sd, report.lo, report.hi),
        scan_assessment: Assessment::from_flags(report.positive, report.uncertain),
        tracking_uids: tracking,
        slices,
        subtypes,
        uncertainty: unc,
        notes: model
            .info
            .calibration
            .iter()
            .map(|c| c.text.clone())
            .chain(report.why.iter().map(|w| format!("Why this call: {w}")))
            .chain((scan.slab > 1).then(|| {
                format!(
                    "Thin slices read as slabs: each slice finding is the mean of {} neighbouring \
                     slices, referenced by its middle slice.",
                    scan.slab
                )
            }))
            .collect(),
        created: created.clone(),
        predecessors: opts
            .supersede
            .iter()
            .filter(|p| p.source_series_uid == scan.series_uid)
            .cloned()
            .collect(),
    };
    let dir = out.join(DICOM_DIR).join(&report.id);
    milbase::atomic::create_dir_under(out, &dir).map_err(|e| Error::io(&dir, e))?;
    // no SR without its captures, and no earlier run's results, for a scan whose DICOM results
    // are reported as not written
    let written = (|| -> Result<Written> {
        let bytes = doc.to_bytes().map_err(|e| Error::Invalid(e.to_string()))?;
        let sr = dir.join(SR_FILE);
        write_atomic(&sr, &bytes)?;

        clear_captures(&dir, held)?;
        let sc_series = root.derive(&["ich-sc-series", ck, series, &thr_key]);
        let mut sc = Vec::new();
        let chosen = captured_slices(report, opts.max_captures);
        for (k, s) in report.slices.iter().enumerate() {
            if !chosen.contains(&k) {
                continue;
            }
            let panels = crate::report::images::panels(prediction, k, size)?;
            let cap = Capture {
                context: context.clone(),
                equipment: equipment.clone(),
                sop_instance_uid: root.derive(&[
                    "ich-sc",
                    ck,
                    series,
                    &s.sop_instance_uid,
                    &thr_key,
                ]),
                series_instance_uid: sc_series.clone(),
                series_number: SC_SERIES_NUMBER,
                series_description: SC_SERIES_DESCRIPTION.into(),
                instance_number: (s.index + 1) as i32,
                source_sop_class_uid: by_uid[s.sop_instance_uid.as_str()].to_string(),
                source_sop_instance_uid: s.sop_instance_uid.clone(),
                panels,
                lines: capture_lines(model, scan, report, s),
                // drawn by its call: a red frame for a likely bleed, orange dashes when unsure
                positive: crate::report::Call::of(s.positive, s.uncertain)
                    == crate::report::Call::LikelyBleed,
                uncertain: s.uncertain,
                created: created.clone(),
            };
            let bytes = cap.to_bytes().map_err(|e| Error::Invalid(e.to_string()))?;
            let path = dir.join(format!("sc-{:04}.dcm", s.index + 1));
            write_atomic(&path, &bytes)?;
            sc.push(path);
        }
        Ok(Written { sr, sc })
    })();
    if written.is_err() {
        remove_results(&dir);
    }
    written.map(DicomOutcome::Written)
}

/// What a run killed while writing in a scan's results folder left (a capture's temporary),
/// under the run's lock; then the captures of an earlier run (a rerun with other thresholds
/// flags other slices).
fn clear_captures(dir: &Path, held: &milbase::atomic::DirLock) -> Result<()> {
    milbase::atomic::remove_stale_temporaries(dir, held).map_err(|e| Error::io(dir, e))?;
    for e in std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .flatten()
    {
        let n = e.file_name().to_string_lossy().to_string();
        if n.starts_with("sc-") && n.ends_with(".dcm") {
            std::fs::remove_file(e.path()).map_err(|err| Error::io(&e.path(), err))?;
        }
    }
    Ok(())
}

/// Removes the SR and Secondary Captures in a scan's results folder (best effort: what cannot be
/// removed is logged).
fn remove_results(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().to_string();
        if n == SR_FILE || (n.starts_with("sc-") && n.ends_with(".dcm")) {
            if let Err(err) = std::fs::remove_file(e.path()) {
                tracing::warn!("{}: could not be removed: {err}", e.path().display());
            }
        }
    }
}

/// The slices that get a Secondary Capture: the flagged ones (positive or uncertain), at most
/// `max` of them — positive before uncertain, then by probability, highest first; ties by slice.
fn captured_slices(report: &crate::report::ScanReport, max: usize) -> Vec<usize> {
    let mut flagged: Vec<usize> = (0..report.slices.len())
        .filter(|&k| report.slices[k].positive || report.slices[k].uncertain)
        .collect();
    flagged.sort_by(|&a, &b| {
        let (x, y) = (&report.slices[a], &report.slices[b]);
        y.positive
            .cmp(&x.positive)
            .then(y.probability.total_cmp(&x.probability))
            .then(a.cmp(&b))
    });
    if flagged.len() > max {
        tracing::warn!(
            "scan {}: {} flagged slices, Secondary Captures of the {max} most likely \
             (--max-captures); the SR lists every slice",
            report.id,
            flagged.len()
        );
        flagged.truncate(max);
    }
    flagged
}

/// What [`write_scan`] did.
#[derive(Debug, Clone)]
pub enum DicomOutcome {
    Written(Written),
    /// The source cannot carry DICOM results (the reason); the prediction stands.
    NotApplicable(String),
}

/// Every `.dcm` file under `paths` (files as given, folders searched without following symbolic
/// links, so a link loop cannot recurse), sorted.
pub fn dicom_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if !p.exists() {
            return Err(Error::File {
                path: p.clone(),
                problem: "not found".into(),
            });
        }
        if p.is_file() {
            out.push(p.clone());
            continue;
        }
        if !p.is_dir() {
            // a FIFO would block the reader, a device never end: named, nothing sent
            return Err(Error::File {
                path: p.clone(),
                problem: "not a regular file or a folder (a FIFO, socket or device): not sent"
                    .into(),
            });
        }
        for e in walkdir::WalkDir::new(p) {
            let e = e.map_err(|e| Error::File {
                path: e.path().unwrap_or(p).to_path_buf(),
                problem: e.to_string(),
            })?;
            if e.path().extension().is_some_and(|x| x == "dcm") && !e.file_type().is_dir() {
                if e.file_type().is_file() {
                    out.push(e.into_path());
                } else {
                    // links are not followed inside a folder; FIFOs and devices are not read
                    tracing::warn!(
                        "skipped: {}: not a regular file (a link, FIFO, socket or device)",
                        e.path().display()
                    );
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Where a study comes from: a DICOMweb service (WADO-RS).
#[derive(Debug, Clone)]
pub struct Pull {
    pub service: pacs::web::Service,
    pub study_uid: String,
    /// Refuse a study larger than this (bytes).
    pub max_bytes: u64,
    pub timeout: std::time::Duration,
}

/// The folder (in the output folder) a pulled study is written to.
pub const PULLED_DIR: &str = "pulled";

/// Retrieves a study by WADO-RS into `out/pulled/<hash of the study UID>/NNNNN.dcm` (atomic
/// writes; names from the order of arrival, no UID reaches the file system); returns the folder.
pub fn pull_study(out: &Path, pull: &Pull) -> Result<PathBuf> {
    let dir = out
        .join(PULLED_DIR)
        .join(preprocess::scan::scan_id(&pull.study_uid, ""));
    milbase::atomic::create_dir_under(out, &dir).map_err(|e| Error::io(&dir, e))?;
    // what an earlier pull of this study left (the study may have changed since); a failed pull
    // leaves none of its instances either, so no half study is ever predicted
    let clear = || -> Result<()> {
        for e in std::fs::read_dir(&dir)
            .map_err(|e| Error::io(&dir, e))?
            .flatten()
        {
            if e.path().extension().is_some_and(|x| x == "dcm") {
                std::fs::remove_file(e.path()).map_err(|err| Error::io(&e.path(), err))?;
            }
        }
        Ok(())
    };
    clear()?;
    let n = match pacs::web::retrieve_study(
        &pull.service,
        &pull.study_uid,
        pull.max_bytes,
        pull.timeout,
        &dir,
    ) {
        Ok(n) => n,
        Err(e) => {
            clear()?;
            return Err(Error::Invalid(e.to_string()));
        }
    };
    tracing::info!(
        "pulled {n} instance(s) of study {} from {}",
        pull.study_uid,
        pull.service
    );
    Ok(dir)
}

/// Sends `files` to every destination (bounded retries each); files stay on disk whatever
/// happens.
pub fn send_all(
    files: &[PathBuf],
    dests: &[Destination],
    opts: &SendOptions,
    progress: &dyn Progress,
) -> Vec<SendReport> {
    if files.is_empty() {
        return Vec::new();
    }
    progress.stage("sending DICOM results", dests.len() as u64);
    let out = dests
        .iter()
        .map(|d| {
            let r = pacs::send::send(files, d, opts);
            progress.inc(1);
            r
        })
        .collect();
    progress.done();
    out
}

/// `ich send`: every `.dcm` under `paths` to every destination.
pub fn send_folders(
    paths: &[PathBuf],
    dests: &[Destination],
    opts: &SendOptions,
    progress: &dyn Progress,
) -> Result<Vec<SendReport>> {
    let mut files = Vec::new();
    for p in paths {
        files.extend(of_the_last_run(p, dicom_files(std::slice::from_ref(p))?)?);
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        return Err(Error::Invalid(format!(
            "no .dcm file in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(send_all(&files, dests, opts, progress))
}

/// The output folder of `ich predict` that `path` is or lies in (the folder itself, its
/// `dicom/` or a scan's folder under it): the nearest of `path` and its two parents that holds a
/// `run.json`.
fn run_folder(path: &Path) -> Option<PathBuf> {
    let start = if path.is_dir() { path } else { path.parent()? };
    start
        .ancestors()
        .take(3)
        .find(|d| d.join(crate::runmark::RUN_JSON).is_file())
        .map(Path::to_path_buf)
}

/// Of `files` found under `path`, those that the last run of the output folder they lie in
/// wrote, unchanged since (its `run.json` lists each with its SHA-256): an earlier run's results
/// left in the folder are not sent, and are named in a warning. A folder whose last run did not
/// finish is refused. Files outside any output folder are all kept.
fn of_the_last_run(path: &Path, files: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
    let Some(root) = run_folder(path) else {
        return Ok(files);
    };
    let mark = crate::runmark::RunMark::read(&root)?.ok_or_else(|| Error::File {
        path: root.join(crate::runmark::RUN_JSON),
        problem: "vanished while it was read".into(),
    })?;
    if mark.state != crate::runmark::RunState::Complete {
        return Err(Error::File {
            path: root.clone(),
            problem: format!(
                "its last run ({}, started {}) did not finish, so which results are current is \
                 not known: run `ich {}` into it again, then send",
                mark.run, mark.started, mark.command
            ),
        });
    }
    let (kept, left): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(|f| {
        f.strip_prefix(&root)
            .ok()
            .and_then(|r| r.to_str())
            .is_some_and(|rel| mark.holds(&root, rel))
    });
    if !left.is_empty() {
        tracing::warn!(
            "{}: {} file(s) not sent: not written by the folder's last run {} (an earlier run's \
             results, or changed since), e.g. {}",
            root.display(),
            left.len(),
            mark.run,
            left[0].display()
        );
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_max_captures_flagged_slices_positive_and_likeliest_first() {
        // (positive, uncertain, probability) of five slices, worked out by hand: flagged are
        // 0, 1, 3, 4; positive first by probability (3: 0.95, 0: 0.9), then uncertain (4: 0.6,
        // 1: 0.4)
        let flags = [
            (true, false, 0.9),
            (false, true, 0.4),
            (false, false, 0.1),
            (true, false, 0.95),
            (false, true, 0.6),
        ];
        let slices: Vec<crate::report::SliceReport> = flags
            .iter()
            .enumerate()
            .map(
                |(k, &(positive, uncertain, probability))| crate::report::SliceReport {
                    index: k,
                    sop_instance_uid: format!("1.2.{k}"),
                    z: None,
                    probability,
                    sd: 0.0,
                    lo: probability,
                    hi: probability,
                    positive,
                    uncertain,
                    attention: 0.2,
                    label: None,
                    subtypes: vec![],
                },
            )
            .collect();
        let report = crate::report::ScanReport {
            n_slices: 5,
            probability: 0.95,
            sd: 0.0,
            lo: 0.95,
            hi: 0.95,
            positive: true,
            uncertain: false,
            cnn_probability: 0.9,
            positive_slices: 2,
            uncertain_slices: 2,
            slices,
            ..crate::report::fixture_report().scans.remove(0)
        };
        assert_eq!(captured_slices(&report, 3), vec![3, 0, 4]);
        assert_eq!(captured_slices(&report, 10), vec![3, 0, 4, 1]);
        assert!(captured_slices(&report, 0).is_empty());
        assert_eq!(DicomOptions::default().max_captures, 20);
    }

    #[test]
    fn dicom_files_are_found_sorted_and_a_link_loop_ends() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("a/b")).unwrap();
        for f in ["a/b/sr.dcm", "a/sc-0002.dcm", "a/notes.txt"] {
            std::fs::write(d.join(f), b"x").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(d, d.join("a/b/loop")).unwrap();
        let found = dicom_files(&[d.to_path_buf()]).unwrap();
        assert_eq!(found, vec![d.join("a/b/sr.dcm"), d.join("a/sc-0002.dcm")]);
        assert!(dicom_files(&[d.join("missing")]).is_err());
        // a FIFO or a device named directly: refused by name, not read
        #[cfg(unix)]
        for odd in ["/dev/zero", "/dev/null"] {
            let e = dicom_files(&[PathBuf::from(odd)]).unwrap_err().to_string();
            assert!(e.contains(odd) && e.contains("not a regular file"), "{e}");
        }
    }
}
