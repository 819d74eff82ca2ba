//! The DICOM results of a run (`--dicom`): each scan predicted from DICOM gets its Structured
//! Report and Secondary Captures in `dicom/<scan id>/` ([`crate::report::dicomout::write_scan`]),
//! referencing the series it came from (a volume file's, the DICOM series given for it with
//! `--nifti-dicom`: [`matching_series`]). A scan whose results cannot be written keeps its
//! prediction in the reports, with a warning, and fails the job at its end.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use preprocess::scan::Scan;

use crate::error::Result;
use crate::report::dicomout::{write_scan, DicomOptions, DicomOutcome, ModelIdentity, DICOM_DIR};
use crate::report::sink::{End, Fault, Output, Role, Sink};
use crate::report::{DicomFiles, Report, ScanPrediction};

pub(super) const OUTPUT: Output = Output {
    name: "DICOM results (SR and Secondary Captures)",
    owns,
};

fn owns(rel: &str) -> Option<Role> {
    rel.strip_prefix(DICOM_DIR)
        .is_some_and(|r| r.starts_with('/'))
        .then_some(Role::PerScan)
}

/// The series among `candidates` that a volume scan (NIfTI) was converted from: as many slices
/// of the same size, each slice's first pixel within 1 mm of the volume slice's (both inferior
/// first); `Err` says why none is.
pub fn matching_series<'a>(
    volume: &Scan,
    candidates: &'a [Scan],
) -> std::result::Result<&'a Scan, String> {
    let pos = |s: &Scan| -> Option<Vec<[f64; 3]>> { s.slices.iter().map(|h| h.position).collect() };
    let format = volume.source.volume().map_or("volume", |v| v.format.name());
    let Some(want) = pos(volume) else {
        return Err(format!("the {format} scan has no slice positions"));
    };
    let same = |c: &Scan| {
        c.source.is_series()
            && c.slices.len() == volume.slices.len()
            && c.slices
                .iter()
                .zip(&volume.slices)
                .all(|(a, b)| (a.rows, a.cols) == (b.rows, b.cols))
            && pos(c).is_some_and(|p| {
                p.iter().zip(&want).all(|(a, b)| {
                    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
                        <= 1.0
                })
            })
    };
    let found: Vec<&Scan> = candidates.iter().filter(|c| same(c)).collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "none of its {} DICOM series has its {} slices of {}×{} at its slices' positions \
             (within 1 mm)",
            candidates.len(),
            volume.slices.len(),
            volume.slices.first().map_or(0, |h| h.rows),
            volume.slices.first().map_or(0, |h| h.cols)
        )),
        many => Err(format!(
            "{} of its DICOM series lie where the {format}'s slices do; which one it came \
             from cannot be told",
            many.len()
        )),
    }
}

/// The DICOM results of a run in `out`, under the run's lock.
pub struct DicomResults<'a> {
    out: &'a Path,
    held: &'a milbase::atomic::DirLock,
    opts: &'a DicomOptions,
    identity: ModelIdentity,
    /// The side of the model's input images, in pixels.
    size: usize,
    /// The DICOM series each volume file (NIfTI) came from, by the volume's name, read once each
    /// by the caller (a folder that could not be read fails the volume scans named with it, not
    /// the run).
    volume_series: HashMap<String, std::result::Result<Vec<Scan>, String>>,
    written: Vec<PathBuf>,
    failed: Vec<String>,
}

impl<'a> DicomResults<'a> {
    pub fn new(
        (out, held): (&'a Path, &'a milbase::atomic::DirLock),
        opts: &'a DicomOptions,
        identity: ModelIdentity,
        size: usize,
        volume_series: HashMap<String, std::result::Result<Vec<Scan>, String>>,
    ) -> Self {
        Self {
            out,
            held,
            opts,
            identity,
            size,
            volume_series,
            written: Vec::new(),
            failed: Vec::new(),
        }
    }

    /// The series `scan` was read from as its results reference it: the scan itself, or for a
    /// volume scan the DICOM series given for it (read as slabs as the volume was), or why none.
    fn source_of(&self, scan: &Scan) -> std::result::Result<Option<Scan>, String> {
        let Some(name) = scan.source.volume_name() else {
            return Ok(None);
        };
        let series = match self.volume_series.get(name) {
            Some(Ok(series)) => matching_series(scan, series)
                .map_err(|why| format!("the DICOM folder given for {name}: {why}"))?,
            Some(Err(e)) => return Err(format!("the DICOM folder given for {name}: {e}")),
            None => return Ok(None),
        };
        Ok(Some(series.clone().into_slabs(scan.slab)))
    }

    /// Writes the results of one scan predicted from `scan`, and notes them in its report.
    fn write(&mut self, head: &Report, scan: &Scan, p: &mut ScanPrediction) {
        let (opts, out) = (self.opts, self.out);
        let outcome = match self.source_of(scan) {
            Ok(given) => {
                // a volume scan's slices take the UIDs of the series it came from, in the same
                // (inferior first) order: each row its slice, or its slab's middle slice, as the
                // volume's rows are named
                let source = given.as_ref().unwrap_or(scan);
                if !scan.source.is_series() {
                    for (row, s) in p.report.slices.iter_mut().enumerate() {
                        if let Some(h) = source.slices.get(scan.slab_middle(row)) {
                            s.sop_instance_uid = h.sop_uid.clone();
                        }
                    }
                }
                write_scan(
                    (out, self.held),
                    opts,
                    &self.identity,
                    &head.thresholds,
                    source,
                    p,
                    self.size,
                )
            }
            Err(why) => Ok(DicomOutcome::NotApplicable(why)),
        };
        match outcome {
            Ok(DicomOutcome::NotApplicable(why)) => {
                let msg = format!("no DICOM results: {why}");
                tracing::warn!("scan {}: {msg}", p.report.id);
                p.report.warnings.push(msg);
            }
            Ok(DicomOutcome::Written(w)) => {
                let rel = |f: &PathBuf| f.strip_prefix(out).unwrap_or(f).display().to_string();
                let supersedes = opts
                    .supersede
                    .iter()
                    .filter(|s| {
                        p.report.series_instance_uid.as_deref()
                            == Some(s.source_series_uid.as_str())
                    })
                    .map(|s| s.sop_instance_uid.clone())
                    .collect();
                p.report.dicom = Some(DicomFiles {
                    sr: rel(&w.sr),
                    sc: w.sc.iter().map(rel).collect(),
                    supersedes,
                });
                self.written.extend(w.all());
            }
            // the prediction stands in the reports; the missing DICOM results fail the job
            Err(e) => {
                let msg = format!("scan {}: DICOM results not written: {e}", p.report.id);
                tracing::warn!("{msg}");
                p.report.warnings.push(msg.clone());
                self.failed.push(msg);
            }
        }
    }
}

impl Sink for DicomResults<'_> {
    /// A scan from a dataset has no DICOM series to reference: it gets none.
    fn scan(
        &mut self,
        head: &Report,
        source: Option<&Scan>,
        p: &mut ScanPrediction,
    ) -> std::result::Result<(), Fault> {
        if let Some(scan) = source {
            self.write(head, scan, p);
        }
        Ok(())
    }

    fn finish(self: Box<Self>, end: &mut End<'_, '_>) -> Result<()> {
        end.files.extend(self.written.iter().cloned());
        end.dicom = self.written;
        end.dicom_failed = self.failed;
        Ok(())
    }
}
