//! `adapt.html`: the adaptation report as a page.

use super::*;

pub(super) fn fmt(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.3}"))
}

pub(super) fn metric_cells(f: &Figures) -> String {
    let s = &f.scan;
    let sl = f.slice.as_ref();
    format!(
        "<td>{}</td><td>{:.3} ({:.3}, p {})</td><td>{:.3}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
        fmt(s.auc),
        s.ece,
        s.ece_floor,
        fmt(s.ece_p_value),
        s.log_likelihood,
        fmt(sl.and_then(|m| m.auc)),
        sl.map_or("–".into(), |m| format!("{:.3} ({:.3})", m.ece, m.ece_floor)),
        fmt(sl.map(|m| m.log_likelihood)),
        match (f.uncertain_scans, f.uncertain_slices) {
            (Some(a), Some(b)) => format!("{a} / {b}"),
            _ => "no spread".into(),
        }
    )
}

/// The body of `adapt.html`.
/// The section on "unsure": error rates of the unsure and sure calls, and the risk–coverage
/// curves of scans and slices.
pub(super) fn unsure_html(u: &UnsureReport) -> String {
    use crate::report::html::esc;
    let mut heads = u.heads.clone();
    heads.dedup();
    let rate = |e: Option<f64>| e.map_or("–".into(), |e| format!("{:.1} %", 100.0 * e));
    let mut b = format!(
        "<h2>Does \"unsure\" earn its place?</h2><p>Cross-validated test predictions of the head each fold chose, with its own spread ({}), called at 0.5: a case is unsure when its 90 % interval reaches across 0.5 or its sd is at least 0.1. Below, the cases set aside as unsure, a growing share at a time, either by the model's own uncertainty (|p − 0.5| / sd, smallest first) or by the distance from 0.5 alone (|p − 0.5|): the error rate and AUC of the cases kept.</p>",
        esc(&heads.join(", "))
    );
    for (what, e) in [
        ("scans", Some(&u.scans)),
        ("labelled slices", u.slices.as_ref()),
    ] {
        let Some(e) = e else { continue };
        b.push_str(&format!(
            "<h3>{what}: {} ({} positive)</h3><table><tr><th class=\"l\"></th><th>cases</th><th>error at 0.5</th><th>AUC</th></tr><tr><td class=\"l\">unsure</td><td>{}</td><td>{}</td><td></td></tr><tr><td class=\"l\">sure (likely bleed or unlikely)</td><td>{}</td><td>{}</td><td>{}</td></tr><tr><td class=\"l\">all</td><td>{}</td><td></td><td>{}</td></tr></table><table><tr><th>set aside</th><th>kept</th><th>error, by the model</th><th>error, by |p − 0.5|</th><th>AUC, by the model</th><th>AUC, by |p − 0.5|</th></tr>",
            e.cases,
            e.positive,
            e.unsure,
            rate(e.unsure_error),
            e.sure,
            rate(e.sure_error),
            fmt(e.sure_auc),
            e.cases,
            fmt(e.auc)
        ));
        for p in &e.curve {
            b.push_str(&format!(
                "<tr><td>{:.0} %</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                100.0 * p.share,
                p.kept,
                rate(Some(p.model.error)),
                rate(Some(p.distance.error)),
                fmt(p.model.auc),
                fmt(p.distance.auc)
            ));
        }
        b.push_str("</table>");
    }
    b
}

/// The page of `ich adapt`'s report (`adapt.html`). Long by design: one HTML template, its
/// sections in the order the page shows them, each a few `write!`s; the tables and plots it
/// shows are built by their own functions.
pub fn adapt_html(r: &AdaptReport) -> String {
    use crate::report::html::{esc, reliability_svg};
    let cols = "<th>scan AUC</th><th>scan ECE (floor, p)</th><th>scan log-lik</th><th>slice AUC</th><th>slice ECE (floor)</th><th>slice log-lik</th><th>uncertain scans / slices</th>";
    let head = "<tr><th class=\"l\"></th><th>scan AUC</th><th>scan ECE (floor, p)</th><th>scan log-lik</th><th>slice AUC</th><th>slice ECE (floor)</th><th>slice log-lik</th><th>uncertain scans / slices</th></tr>";
    let mut body = format!(
        "<h1>What this site should expect</h1>\
<p>{} labelled scans ({} positive) of {} patients ({} with a positive scan), {} slices ({} with a \
label, used for evaluation only). Figures from {}-fold cross-validation over the site's patients \
(every scan of a patient in one fold, in the outer and the inner folds), nested: in each fold the head was \
chosen and fitted on the other folds only (inner {}-fold cross-fitting), so no figure comes from a \
scan that took part in the choice. ECE with its floor (what a perfectly calibrated model would \
show on as many scans) and the p-value of calibration (small: miscalibrated beyond noise).</p>\
<table>{head}<tr><td class=\"l\">adapted head ({})</td>{}</tr>\
<tr><td class=\"l\">network alone</td>{}</tr>\
<tr><td class=\"l\">network as it came, scan and slice maps on scan labels (a candidate)</td>{}</tr>{}</table>\
<p class=\"note\">Adapted bundle: <code>{}</code>, head on <b>{}</b>; chosen per fold: {}.</p>\
<p>Chosen by cross-fitted scan log-likelihood among the candidates that rank scans and labelled \
slices no worse than the network as it came (within one standard error of the paired difference \
over patients); the network itself is a candidate. Slice labels only veto a candidate that \
ranks slices worse; nothing is fitted on them. Slice probabilities have a map of their own, \
fitted on the scan labels by the multiple-instance likelihood (a scan is positive when any of \
its slices is; noisy-OR over stretches of {:.1} neighbouring slices, the correlation length of \
the network's slice scores along z, measured without labels), so a slice's probability is that \
slice's and the scan's probability may exceed its most suspicious slice's.</p>",
        r.scans,
        r.positive_scans,
        r.patients,
        r.positive_patients,
        r.slices,
        r.labelled_slices,
        r.folds,
        r.inner_folds,
        esc(&r.chosen),
        metric_cells(&r.head),
        metric_cells(&r.cnn),
        metric_cells(&r.cnn_platt),
        r.fine_tune.as_ref().map_or(String::new(), |f| format!(
            "<tr><td class=\"l\">head on the network as it came</td>{}</tr>\
<tr><td class=\"l\">head on the fine-tuned network{}</td>{}</tr>\
<tr><td class=\"l\">fine-tuned network alone</td>{}</tr>",
            metric_cells(&f.plain_head),
            if f.kept { " (kept)" } else { " (not kept)" },
            metric_cells(&f.head),
            metric_cells(&f.cnn)
        )),
        esc(&r.bundle),
        esc(&r.chosen),
        esc(&r.chosen_per_fold.join(", ")),
        r.slice_correlation
    );
    if !r.trade_off.is_empty() {
        body.push_str(
            "<h2>Sensitivity and specificity: the site's operating point</h2>\
<p>Each row: the threshold on the scan probability that catches at least that share of the \
site's bleeds on the cross-fitted predictions, and what it gives on patients not used to choose \
it (each fold called at a threshold chosen on the other folds), with 95 % intervals from a \
bootstrap over patients. Fix one with <code>ich adapt --sensitivity S</code>: ich predict then \
calls at its threshold.</p>\
<table><tr><th>sensitivity asked</th><th>threshold</th><th>sensitivity (95 %)</th><th>specificity (95 %)</th></tr>",
        );
        for o in &r.trade_off {
            body.push_str(&format!(
                "<tr><td>{:.2}</td><td>{:.3}</td><td>{:.2} ({:.2}–{:.2})</td><td>{:.2} ({:.2}–{:.2})</td></tr>",
                o.target_sensitivity,
                o.threshold,
                o.sensitivity.value,
                o.sensitivity.lo,
                o.sensitivity.hi,
                o.specificity.value,
                o.specificity.lo,
                o.specificity.hi
            ));
        }
        body.push_str("</table>");
        if let Some(o) = &r.operating_point {
            body.push_str(&format!(
                "<p><b>Operating point of this bundle:</b> {}.</p>",
                esc(&o.text())
            ));
        }
    }
    if !r.comparison.is_empty() {
        body.push_str(
            "<h2>The shipped choice beside the network (cross-validated, paired over patients)</h2>\
<table><tr><th class=\"l\"></th><th>shipped</th><th>network</th><th>difference</th><th>standard error</th><th>95 % interval</th></tr>",
        );
        for d in &r.comparison {
            body.push_str(&format!(
                "<tr><td class=\"l\">{}</td><td>{:.3}</td><td>{:.3}</td><td>{:+.3}</td><td>{:.3}</td><td>{:+.3} to {:+.3}</td></tr>",
                esc(&d.what),
                d.shipped,
                d.network,
                d.difference,
                d.se,
                d.interval[0],
                d.interval[1]
            ));
        }
        body.push_str(
            "</table><p class=\"note\">Within folds: only a positive and a negative scan (slice) of \
the same outer fold make a pair, so each fold's shipped bundle is judged on the patients it was \
not fitted on, as one shipped bundle would be. Pooled: \
the five folds' test predictions ranked together, which also counts how far the folds' maps \
disagree with each other (a monotone map of the network ranks as the network within a fold, \
not across folds). The choice inside each fold compares the pooled inner cross-fit, the \
stricter of the two for a head whose inner fits disagree.</p>",
        );
    }
    let o = &r.ood_flags;
    body.push_str(&format!(
        "<p>Out of distribution, the site's own held-out scans (each fold's summary of its \
training scans): {} of {} positive and {} of {} negative scans flagged.</p>",
        o.positive_flagged, o.positive, o.negative_flagged, o.negative
    ));
    if !r.ood_splits.is_empty() {
        let sum = |f: fn(&OodFlags) -> usize| r.ood_splits.iter().map(f).sum::<usize>();
        let most = r
            .ood_splits
            .iter()
            .map(|o| o.positive_flagged)
            .max()
            .unwrap_or(0);
        body.push_str(&format!(
            "<p>Over {} more random splits of the patients: {} of {} held-out positive and {} of {} \
negative checks flagged (at most {} positive scans in one split). A site's own scans are no other \
kind of scan: each of these flags is a false one.</p>",
            r.ood_splits.len(),
            sum(|o| o.positive_flagged),
            sum(|o| o.positive),
            sum(|o| o.negative_flagged),
            sum(|o| o.negative),
            most
        ));
    }
    body.push_str("<h2>Reliability (cross-validated)</h2><div class=\"grid\">");
    for (name, bins) in [
        ("scans, adapted head", &r.head.scan_reliability),
        ("slices, adapted head", &r.head.slice_reliability),
        ("slices, network + maps", &r.cnn_platt.slice_reliability),
    ] {
        body.push_str(&format!(
            "<figure>{}<figcaption>{}</figcaption></figure>",
            reliability_svg(bins),
            esc(name)
        ));
    }
    body.push_str("</div>");
    if let Some(u) = &r.unsure {
        body.push_str(&unsure_html(u));
    }
    if !r.learning_curve.is_empty() {
        body.push_str(&format!(
            "<h2>Learning curve: how many scans to label</h2><p>Each fold's choice refitted on \
as many of its training scans (stratified draw), tested on the same held-out scans.</p>\
<table><tr><th>training scans</th>{cols}</tr>"
        ));
        for c in &r.learning_curve {
            body.push_str(&format!(
                "<tr><td>{}</td>{}</tr>",
                c.scans,
                metric_cells(&c.head)
            ));
        }
        body.push_str(&format!(
            "<tr><td>{} (all)</td>{}</tr></table>",
            r.scans - r.scans / r.folds,
            metric_cells(&r.head)
        ));
    }
    body.push_str("<h2>Candidates</h2><table><tr><th class=\"l\">evidence</th><th>cross-fitted scan log-lik, all scans</th><th>scan AUC − network's (se)</th><th>slice AUC − network's (se)</th><th>eligible</th></tr>");
    let diff = |d: Option<[f64; 2]>| d.map_or("–".into(), |[d, se]| format!("{d:+.3} ({se:.3})"));
    for c in &r.final_choices {
        body.push_str(&format!(
            "<tr><td class=\"l\">{}</td><td>{:.4}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&c.candidate),
            c.log_likelihood,
            diff(c.scan_auc_difference),
            diff(c.slice_auc_difference),
            if c.eligible { "yes" } else { "no: ranks worse" }
        ));
    }
    body.push_str("</table>");
    body
}
