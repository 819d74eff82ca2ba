//! `slices.csv`, `scans.csv` and `report.json`: the report as tables for programs, each streamed
//! to an atomic temporary from the complete report (one scan's slices in memory at a time).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::report::sink::{End, Fault, Output, Role, Sink};
use crate::report::{
    write_report_json_with, write_scans_csv, write_slices_csv_with, Report, ScanPrediction,
    REPORT_JSON, SCANS_CSV, SLICES_CSV,
};

pub(super) const OUTPUT: Output = Output {
    name: "tables (slices.csv, scans.csv, report.json)",
    owns,
};

fn owns(rel: &str) -> Option<Role> {
    [SLICES_CSV, SCANS_CSV, REPORT_JSON]
        .contains(&rel)
        .then_some(Role::RunWide)
}

/// The tables of a run (or of a merge) in `out`.
pub struct Tables {
    out: PathBuf,
}

impl Tables {
    pub fn new(out: &Path) -> Self {
        Self {
            out: out.to_path_buf(),
        }
    }
}

impl Sink for Tables {
    /// Nothing until the end: the tables are in the report's order, known once every scan is in.
    fn scan(
        &mut self,
        _head: &Report,
        _source: Option<&preprocess::scan::Scan>,
        _p: &mut ScanPrediction,
    ) -> std::result::Result<(), Fault> {
        Ok(())
    }

    fn finish(self: Box<Self>, end: &mut End<'_, '_>) -> Result<()> {
        let (r, slices_of) = (end.report, end.slices_of);
        let slices = self.out.join(SLICES_CSV);
        write_streamed(&slices, |w| {
            write_slices_csv_with(r, slices_of, w).map(drop)
        })?;
        let scans = self.out.join(SCANS_CSV);
        write_streamed(&scans, |w| write_scans_csv(r, w).map(drop))?;
        let json = self.out.join(REPORT_JSON);
        write_streamed(&json, |w| write_report_json_with(r, slices_of, w))?;
        end.files.extend([slices, scans, json]);
        Ok(())
    }
}

/// Writes `path` atomically through a buffered writer that `write` fills: the file is synced
/// before it takes `path`'s name; on any error the temporary is removed and `path` is untouched.
fn write_streamed(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<&mut std::fs::File>) -> Result<()>,
) -> Result<()> {
    let io = |e| Error::io(path, e);
    let mut f = milbase::atomic::NewFile::create(path).map_err(io)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, f.file());
    write(&mut w)?;
    std::io::Write::flush(&mut w).map_err(io)?;
    drop(w);
    f.commit().map_err(io)
}
