//! The HTML pages: one per scan (`scans/<id>.html`, with each slice's tile and its panels
//! enlarged), written as the scan is predicted so that no scan's pictures stay in memory; then
//! the index pages (`index.html`, `index-2.html`, … for every
//! [`crate::report::html::INDEX_PAGE_SCANS`] scans), one page's HTML in memory at a time.

use std::path::{Path, PathBuf};

use preprocess::dataset::write_atomic;

use crate::error::{Error, Result};
use crate::report::html::{
    index_page, index_page_count, index_page_name, is_index_page, scan_page, Picture, SlicePictures,
};
use crate::report::images;
use crate::report::sink::{End, Fault, Output, Role, Sink};
use crate::report::{Report, ScanPrediction, SCAN_PAGES};

pub(super) const OUTPUT: Output = Output {
    name: "HTML pages",
    owns,
};

fn owns(rel: &str) -> Option<Role> {
    if is_index_page(rel) {
        Some(Role::RunWide)
    } else {
        rel.strip_prefix(SCAN_PAGES)
            .is_some_and(|r| r.starts_with('/'))
            .then_some(Role::PerScan)
    }
}

/// The pages of a run in `out`.
pub struct Pages {
    out: PathBuf,
    /// The side of the model's input images, in pixels (the panels' size).
    size: usize,
    /// The scan pages written.
    written: Vec<PathBuf>,
}

impl Pages {
    /// The pages of a run of predict, whose input images are `size` pixels square: makes the
    /// folder of the scan pages (held by the run's lock on `out`).
    pub fn new(out: &Path, size: usize) -> Result<Self> {
        let dir = out.join(SCAN_PAGES);
        milbase::atomic::create_dir_under(out, &dir).map_err(|e| Error::io(&dir, e))?;
        Ok(Self {
            out: out.to_path_buf(),
            size,
            written: Vec::new(),
        })
    }

    /// The index pages of a merge: its scan pages are the shards', carried across.
    pub fn index_only(out: &Path) -> Self {
        Self {
            out: out.to_path_buf(),
            size: 0,
            written: Vec::new(),
        }
    }
}

/// The HTML page of one predicted scan: each slice's tile, and its panels enlarged
/// ([`crate::report::images`]).
fn page_of(head: &Report, p: &ScanPrediction, size: usize) -> Result<String> {
    let pictures = (0..p.report.slices.len())
        .map(|k| {
            let panels = images::panels(p, k, size)?;
            let tile = Picture::of(&images::tile(&panels[0]))?;
            let large = panels.iter().map(Picture::of).collect::<Result<Vec<_>>>()?;
            Ok(SlicePictures { tile, large })
        })
        .collect::<Result<Vec<_>>>()?;
    let note = images::source(p).note(size);
    Ok(scan_page(head, &p.report, &pictures, &note))
}

impl Sink for Pages {
    fn scan(
        &mut self,
        head: &Report,
        _source: Option<&preprocess::scan::Scan>,
        p: &mut ScanPrediction,
    ) -> std::result::Result<(), Fault> {
        let rel = format!("{SCAN_PAGES}/{}.html", p.report.id);
        p.report.page = Some(rel.clone());
        // a page that cannot be made is the scan's (its pictures); one that cannot be written is
        // the run's (the disk)
        let html = page_of(head, p, self.size).map_err(Fault::Scan)?;
        let path = self.out.join(&rel);
        write_atomic(&path, html.as_bytes()).map_err(|e| Fault::Run(e.into()))?;
        self.written.push(path);
        Ok(())
    }

    fn finish(self: Box<Self>, end: &mut End<'_, '_>) -> Result<()> {
        let r = end.report;
        end.files.extend(self.written);
        for k in 1..=index_page_count(r.scans.len()) {
            let path = self.out.join(index_page_name(k));
            write_atomic(&path, index_page(r, k).as_bytes())?;
            end.files.push(path);
        }
        // the pages an earlier, longer report of the folder had beyond this one's last
        let mut k = index_page_count(r.scans.len()) + 1;
        while std::fs::remove_file(self.out.join(index_page_name(k))).is_ok() {
            k += 1;
        }
        Ok(())
    }
}
