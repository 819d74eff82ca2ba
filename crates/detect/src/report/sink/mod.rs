//! One way out for each output. A run of `ich predict` hands every scan it predicts to a list of
//! sinks, each its own type writing its own files: [`Pages`] (a page per scan, the index pages),
//! [`DicomResults`] (a Structured Report and Secondary Captures per scan predicted from DICOM),
//! [`Tables`] (`slices.csv`, `scans.csv`, `report.json`) and [`Sending`] (the DICOM results to
//! the PACS, last, once every other file is on disk). The slices of the report wait in the run's
//! [`crate::report::slices::SliceStore`] meanwhile: that is the report's memory, not an output.
//!
//! Each sink's files are declared once, in its [`Output`]: a rerun writes over only the files
//! some output owns ([`role_of`]), and `ich merge` carries a shard's per-scan files across and
//! writes the run-wide ones anew by what their output says ([`Role`]), with no list of its own.
//!
//! Adding an output format: a type implementing [`Sink`] in this folder, its [`Output`] in
//! [`OUTPUTS`], and one line where `pipeline::predict::run_with` lists the sinks.

use std::path::PathBuf;

use pacs::SendReport;
use preprocess::scan::Scan;

use crate::error::{Error, Result};
use crate::report::{Report, ScanPrediction, SlicesOf};

mod dicom;
mod pages;
mod send;
mod tables;

pub use dicom::{matching_series, DicomResults};
pub use pages::Pages;
pub use send::Sending;
pub use tables::Tables;

/// What a file of an output folder is to a merge of shards' folders (`ich merge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// One scan's (its page, its DICOM results): carried across from the shard that wrote it.
    PerScan,
    /// The whole run's (the tables, the index pages): written anew from every shard's scans.
    RunWide,
}

/// The files a kind of output writes.
pub struct Output {
    /// What the output is, in words (logs, errors).
    pub name: &'static str,
    /// The role of `rel` (a path relative to the output folder, `/`-separated) when this output
    /// writes it.
    pub owns: fn(&str) -> Option<Role>,
}

/// Every kind of output a run writes files of ([`Sending`] writes none).
pub const OUTPUTS: &[Output] = &[tables::OUTPUT, pages::OUTPUT, dicom::OUTPUT];

/// The role of `rel`, a path in an output folder, when some output writes it: a rerun of predict
/// writes over such files (and only those), a merge carries or rewrites them.
pub fn role_of(rel: &str) -> Option<Role> {
    OUTPUTS.iter().find_map(|o| (o.owns)(rel))
}

/// Writes a finished report held in memory (its scans' slices in it) as a run does: the tables
/// and, with `html`, the index pages, into `out`; the files written. For programs that make a
/// [`Report`] themselves; a run of predict writes its scan pages as it goes.
pub fn write_reports(r: &Report, out: &std::path::Path, html: bool) -> Result<Vec<PathBuf>> {
    let held = crate::report::held_slices(r);
    let mut end = End::new(r, &held);
    Box::new(Tables::new(out)).finish(&mut end)?;
    if html {
        Box::new(Pages::index_only(out)).finish(&mut end)?;
    }
    Ok(end.files)
}

/// Why a sink could not take a scan.
#[derive(Debug)]
pub enum Fault {
    /// The scan's own (its images could not be read again): the scan is reported as skipped and
    /// the run goes on.
    Scan(Error),
    /// The run's (a full disk): the run fails, never "a scan skipped" for what its content did
    /// not do.
    Run(Error),
}

/// The end of a run as the sinks see it, in the order they are listed: each adds what it wrote.
pub struct End<'a, 's> {
    /// The report, complete: its scans in order, its metrics and warnings.
    pub report: &'a Report,
    /// Each scan's slices, by its index in `report.scans`.
    pub slices_of: &'a SlicesOf<'s>,
    /// Every file written by the run's sinks so far.
    pub files: Vec<PathBuf>,
    /// The DICOM results written ([`DicomResults`]), which [`Sending`] sends.
    pub dicom: Vec<PathBuf>,
    /// The scans whose DICOM results could not be written, with the reason.
    pub dicom_failed: Vec<String>,
    /// One per destination ([`Sending`]).
    pub sent: Vec<SendReport>,
}

impl<'a, 's> End<'a, 's> {
    pub fn new(report: &'a Report, slices_of: &'a SlicesOf<'s>) -> Self {
        Self {
            report,
            slices_of,
            files: Vec::new(),
            dicom: Vec::new(),
            dicom_failed: Vec::new(),
            sent: Vec::new(),
        }
    }
}

/// One kind of output of a run.
pub trait Sink {
    /// Takes one scan as it is predicted (`source`: the series it was read from; None for a scan
    /// from a dataset). It may note in the scan's report what it wrote (its page, its DICOM
    /// results) or a warning; `head` is the report so far (model, thresholds).
    fn scan(
        &mut self,
        head: &Report,
        source: Option<&Scan>,
        p: &mut ScanPrediction,
    ) -> std::result::Result<(), Fault>;

    /// After the last scan: the run-wide files, from the complete report.
    fn finish(self: Box<Self>, end: &mut End<'_, '_>) -> Result<()>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_made_in_memory_is_written_as_a_run_writes_its_run_wide_files() {
        let dir = tempfile::tempdir().unwrap();
        let r = crate::report::fixture_report();
        let files = write_reports(&r, dir.path(), true).unwrap();
        let mut names: Vec<String> = files
            .iter()
            .map(|f| f.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["index.html", "report.json", "scans.csv", "slices.csv"]
        );
        // every file it wrote is a run-wide one, as a merge rewrites them
        assert!(names.iter().all(|n| role_of(n) == Some(Role::RunWide)));
        // the tables hold the scan and its one slice, as the report says
        let rows = |f: &str| {
            csv::Reader::from_path(dir.path().join(f))
                .unwrap()
                .records()
                .count()
        };
        assert_eq!(rows("slices.csv"), r.scans[0].slices.len());
        assert_eq!(rows("scans.csv"), r.scans.len());
        // without pages: the tables only
        let bare = tempfile::tempdir().unwrap();
        assert_eq!(write_reports(&r, bare.path(), false).unwrap().len(), 3);
    }

    #[test]
    fn every_file_a_run_writes_has_one_output_and_one_role() {
        let cases = [
            ("slices.csv", Some(Role::RunWide)),
            ("scans.csv", Some(Role::RunWide)),
            ("report.json", Some(Role::RunWide)),
            ("index.html", Some(Role::RunWide)),
            ("index-2.html", Some(Role::RunWide)),
            ("scans/abc.html", Some(Role::PerScan)),
            ("dicom/abc/sr.dcm", Some(Role::PerScan)),
            ("dicom/abc/sc-0001.dcm", Some(Role::PerScan)),
            // not a run's output: never written over, never carried as one
            ("run.json", None),
            ("index-.html", None),
            ("index-2a.html", None),
            ("notes.txt", None),
            ("scans.csv.bak", None),
            ("pulled/abc/00001.dcm", None),
        ];
        for (rel, want) in cases {
            assert_eq!(role_of(rel), want, "{rel}");
            let owners = OUTPUTS.iter().filter(|o| (o.owns)(rel).is_some()).count();
            assert_eq!(owners, usize::from(want.is_some()), "{rel}: owners");
        }
    }
}
