//! Writing a report: the order of its scans, its metrics over the labelled scans and slices, and
//! its files (`slices.csv`, `scans.csv`, `report.json`, the index pages), each streamed to an
//! atomic temporary. `ich predict` and `ich merge` (reports) both write through here.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use gphead::metrics::Metrics;
use preprocess::dataset::write_atomic;

use crate::error::{Error, Result};
use crate::report::html::{index_page, index_page_count, index_page_name};
use crate::report::{
    held_slices, reliability, write_report_json_with, write_scans_csv, write_slices_csv_with,
    Report, ReportMetrics, ScanReport, SlicesOf, REPORT_JSON, SCANS_CSV, SLICES_CSV,
};

/// The order of a report whatever the order its scans were predicted in (shards, inputs):
/// scans by probability, highest first, ties by id (the order of the index page and the CSV
/// files); skipped inputs sorted.
pub fn order(report: &mut Report) {
    report.scans.sort_by(scan_order);
    report.skipped.sort();
}

/// Scans by probability, highest first, ties by id.
pub fn scan_order(x: &ScanReport, y: &ScanReport) -> std::cmp::Ordering {
    y.probability
        .total_cmp(&x.probability)
        .then_with(|| x.id.cmp(&y.id))
}

/// Writes `slices.csv`, `scans.csv`, `report.json` and (unless `html` is false) the index pages
/// (`index.html`, then `index-2.html`, … for every [`crate::report::html::INDEX_PAGE_SCANS`] scans) into
/// `out`, each atomically, and returns their paths. The per-scan pages are written as scans
/// finish ([`crate::pipeline::predict::run`]).
pub fn write_reports(r: &Report, out: &Path, html: bool) -> Result<Vec<PathBuf>> {
    write_reports_with(r, &held_slices(r), out, html)
}

/// [`write_reports`] with each scan's slices from `slices_of` (one scan's in memory at a time).
pub fn write_reports_with(
    r: &Report,
    slices_of: &SlicesOf<'_>,
    out: &Path,
    html: bool,
) -> Result<Vec<PathBuf>> {
    // each file streamed to its temporary as it is made: no copy of a file's bytes in memory
    let mut written: Vec<PathBuf> = Vec::new();
    let slices = out.join(SLICES_CSV);
    write_streamed(&slices, |w| {
        write_slices_csv_with(r, slices_of, w).map(drop)
    })?;
    let scans = out.join(SCANS_CSV);
    write_streamed(&scans, |w| write_scans_csv(r, w).map(drop))?;
    let json = out.join(REPORT_JSON);
    write_streamed(&json, |w| write_report_json_with(r, slices_of, w))?;
    written.extend([slices, scans, json]);
    if html {
        // one page at a time: no more than a page's HTML in memory
        for k in 1..=index_page_count(r.scans.len()) {
            let path = out.join(index_page_name(k));
            write_atomic(&path, index_page(r, k).as_bytes())?;
            written.push(path);
        }
        // the pages an earlier, longer report of the folder had beyond this one's last
        let mut k = index_page_count(r.scans.len()) + 1;
        while std::fs::remove_file(out.join(index_page_name(k))).is_ok() {
            k += 1;
        }
    }
    Ok(written)
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

/// Scan and slice metrics over the labelled scans and slices of a report.
pub fn metrics(scans: &[ScanReport]) -> Option<ReportMetrics> {
    let held = |i: usize| Ok(Cow::Borrowed(&scans[i].slices[..]));
    metrics_with(scans, &held).ok().flatten()
}

/// [`metrics`] with each scan's slices from `slices_of` (a run's kept slices), one scan's at a
/// time: only the labelled slices' labels and probabilities are gathered.
pub fn metrics_with(
    scans: &[ScanReport],
    slices_of: &SlicesOf<'_>,
) -> Result<Option<ReportMetrics>> {
    let labelled: Vec<&ScanReport> = scans.iter().filter(|s| s.label.is_some()).collect();
    if labelled.is_empty() {
        return Ok(None);
    }
    let y: Vec<u8> = labelled.iter().map(|s| s.label.unwrap_or(0)).collect();
    let p: Vec<f64> = labelled.iter().map(|s| s.probability).collect();
    let c: Vec<f64> = labelled.iter().map(|s| s.cnn_probability).collect();
    let (mut sy, mut sp) = (Vec::new(), Vec::new());
    // every slice's labelled subtypes, in scan, slice and subtype order
    let mut slice_subtypes: Vec<(String, u8, f64)> = Vec::new();
    for i in 0..scans.len() {
        for sl in slices_of(i)?.iter() {
            if let Some(l) = sl.label {
                sy.push(l);
                sp.push(sl.probability);
            }
            for sub in &sl.subtypes {
                if let Some(l) = sub.label {
                    slice_subtypes.push((sub.name.clone(), l, sub.probability));
                }
            }
        }
    }
    Ok(Some(ReportMetrics {
        scans: y.len(),
        scan: Metrics::compute(&y, &p),
        slice: (!sy.is_empty()).then(|| Metrics::compute(&sy, &sp)),
        slices: sy.len(),
        cnn_scan: Metrics::compute(&y, &c),
        reliability: reliability(&y, &p, 10),
        slice_reliability: reliability(&sy, &sp, 10),
        subtypes: subtype_metrics(scans, &slice_subtypes),
    }))
}

/// Each subtype's metrics over the scans and slices whose labels give it (in the order the
/// report names the subtypes).
fn subtype_metrics(
    scans: &[ScanReport],
    slice_subtypes: &[(String, u8, f64)],
) -> Vec<crate::report::SubtypeMetrics> {
    let mut names: Vec<&str> = Vec::new();
    for s in scans {
        for sub in &s.subtypes {
            if !names.contains(&sub.name.as_str()) {
                names.push(&sub.name);
            }
        }
    }
    let pairs = |items: &mut dyn Iterator<Item = &crate::report::SubtypeProbability>| {
        let (mut y, mut p) = (Vec::new(), Vec::new());
        for sub in items {
            if let Some(l) = sub.label {
                y.push(l);
                p.push(sub.probability);
            }
        }
        (y, p)
    };
    names
        .into_iter()
        .map(|name| {
            let (y, p) = pairs(
                &mut scans
                    .iter()
                    .flat_map(|s| &s.subtypes)
                    .filter(|x| x.name == name),
            );
            let (sy, sp): (Vec<u8>, Vec<f64>) = slice_subtypes
                .iter()
                .filter(|x| x.0 == name)
                .map(|x| (x.1, x.2))
                .unzip();
            let count = |v: &[u8]| v.iter().filter(|&&l| l == 1).count();
            crate::report::SubtypeMetrics {
                name: name.to_string(),
                scans: y.len(),
                positive_scans: count(&y),
                scan: (!y.is_empty()).then(|| Metrics::compute(&y, &p)),
                slices: sy.len(),
                positive_slices: count(&sy),
                slice: (!sy.is_empty()).then(|| Metrics::compute(&sy, &sp)),
                slice_reliability: reliability(&sy, &sp, 10),
            }
        })
        .collect()
}
