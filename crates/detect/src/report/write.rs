//! Completing a report before it is written: the order of its scans and its metrics over the
//! labelled scans and slices. Its files are written by the sinks ([`crate::report::sink`]), which
//! `ich predict` and `ich merge` (reports) share.

use std::borrow::Cow;

use gphead::metrics::Metrics;

use crate::error::Result;
use crate::report::{reliability, Report, ReportMetrics, ScanReport, SlicesOf};

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
