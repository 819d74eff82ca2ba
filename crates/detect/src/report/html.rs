//! HTML pages of a prediction: an index page and a page per scan (docs/REPORT.md). Pages are
//! self-contained: thumbnails are embedded PNGs, plots are inline SVG, no script and nothing
//! fetched from a network.

use std::fmt::Write as _;

use base64::Engine as _;
use gphead::metrics::Metrics;

use crate::error::{Error, Result};
use crate::report::{Report, ScanReport, SubtypeProbability, Thresholds};

/// A grey image as a PNG data URI.
pub fn png_data_uri(pixels: &[u8], width: usize, height: usize) -> Result<String> {
    let mut buf = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut buf, width as u32, height as u32);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let png_err = |e: png::EncodingError| Error::Invalid(format!("thumbnail PNG: {e}"));
        let mut w = enc.write_header().map_err(png_err)?;
        w.write_image_data(pixels).map_err(png_err)?;
    }
    Ok(format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(buf)
    ))
}

/// A picture on a page: a PNG data URI, its size in pixels and what it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub uri: String,
    pub width: usize,
    pub height: usize,
    pub title: String,
}

impl Picture {
    /// A panel as a PNG.
    pub fn of(p: &crate::report::images::Panel) -> Result<Self> {
        Ok(Self {
            uri: png_data_uri(&p.gray, p.cols, p.rows)?,
            width: p.cols,
            height: p.rows,
            title: p.title.clone(),
        })
    }

    /// The size to show it at: enlarged by a whole factor until its longer side reaches
    /// `at_least` (a 64² network input becomes 128² on a tile), otherwise as it is.
    fn shown(&self, at_least: usize) -> (usize, usize) {
        let k = (at_least / self.width.max(self.height).max(1)).max(1);
        (self.width * k, self.height * k)
    }
}

/// The pictures of one slice on its page: the tile in the grid, and the panels shown enlarged
/// when the tile is clicked (the brain and subdural windows of the source slice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlicePictures {
    pub tile: Picture,
    pub large: Vec<Picture>,
}

/// HTML text escaping.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}\
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em}\
table{border-collapse:collapse}td,th{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:right}\
th{background:#eee}td.l,th.l{text-align:left}.pos{color:#b00;font-weight:600}.unc{color:#a60}\
.grid{display:flex;flex-wrap:wrap;gap:8px}.tile{background:#111;color:#eee;padding:4px;border:4px solid #111;\
font-size:12px;text-align:center}.tile.pos{border-color:#e00}.tile.unc{outline:2px dashed #f90}\
.tile img{display:block;image-rendering:pixelated}.tile a{display:block}.note{color:#666;font-size:.9em}.zoom{display:none;position:fixed;inset:0;z-index:9;overflow:auto;background:#000;color:#eee;padding:1em}.zoom:target{display:block}.zoom a{color:#9cf}.zoom .pos{color:#f66}.zoom .unc{color:#fb4}.zoom .panels{display:flex;flex-wrap:wrap;gap:1em}.zoom figure{margin:0}.zoom img{display:block;max-width:calc(50vw - 2.5em);height:auto;image-rendering:pixelated}.zoom figcaption{font-size:13px;margin-top:.3em}.warn{background:#fff3cd;border:1px solid #e0a800;padding:.5em .8em;font-weight:600}";

pub(crate) fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
<style>{STYLE}</style></head><body>\n{body}\n</body></html>\n",
        esc(title)
    )
}

/// Probability along the slice axis: a band of its 90 % interval (inside [0, 1]), the mean,
/// the positive threshold and the slice labels when known. The x axis is marked with slice
/// numbers (as on the tiles, `#index` in z order) and, where the scan has them, the slices'
/// positions along the axis (z, mm); the y axis at 0, 0.25, …, 1.
pub fn slice_plot_svg(s: &ScanReport, thr: &Thresholds) -> String {
    let (w, h, l, r, t, b) = (720.0, 250.0, 44.0, 12.0, 12.0, 64.0);
    let n = s.slices.len().max(1);
    let x = |i: usize| {
        if n == 1 {
            l + (w - l - r) / 2.0
        } else {
            l + (w - l - r) * i as f64 / (n - 1) as f64
        }
    };
    let y = |p: f64| t + (h - t - b) * (1.0 - p.clamp(0.0, 1.0));
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"slice probabilities\">\
<rect x=\"{l}\" y=\"{t}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#999\"/>",
        w - l - r,
        h - t - b
    );
    // band
    let mut pts = String::new();
    for (i, sl) in s.slices.iter().enumerate() {
        let _ = write!(pts, "{:.1},{:.1} ", x(i), y(sl.hi));
    }
    for (i, sl) in s.slices.iter().enumerate().rev() {
        let _ = write!(pts, "{:.1},{:.1} ", x(i), y(sl.lo));
    }
    let _ = write!(
        svg,
        "<polygon points=\"{pts}\" fill=\"#4a7bd0\" fill-opacity=\"0.25\" stroke=\"none\"/>"
    );
    // labels as shaded columns
    for (i, sl) in s.slices.iter().enumerate() {
        if sl.label == Some(1) {
            let half = (w - l - r) / (2.0 * n as f64);
            let _ = write!(
                svg,
                "<rect x=\"{:.1}\" y=\"{}\" width=\"{:.1}\" height=\"6\" fill=\"#e00\"><title>labelled positive</title></rect>",
                x(i) - half,
                h - b + 2.0,
                2.0 * half
            );
        }
    }
    let line: Vec<String> = s
        .slices
        .iter()
        .enumerate()
        .map(|(i, sl)| format!("{:.1},{:.1}", x(i), y(sl.probability)))
        .collect();
    let _ = write!(
        svg,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1d3f8a\" stroke-width=\"2\"/>",
        line.join(" ")
    );
    for (i, sl) in s.slices.iter().enumerate() {
        let c = if sl.positive { "#e00" } else { "#1d3f8a" };
        let z = sl.z.map(|z| format!(" (z {z:.1} mm)")).unwrap_or_default();
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{c}\"><title>slice {} of {}{z}: {:.3} [{:.3}–{:.3}]</title></circle>",
            x(i),
            y(sl.probability),
            sl.index + 1,
            s.n_slices,
            sl.probability,
            sl.lo,
            sl.hi
        );
    }
    let _ = write!(
        svg,
        "<line x1=\"{l}\" x2=\"{}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#e00\" stroke-dasharray=\"4 3\"/>",
        w - r,
        y(thr.positive),
        y(thr.positive)
    );
    for v in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = write!(
            svg,
            "<line x1=\"{}\" x2=\"{l}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#999\"/><text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{v}</text>",
            l - 3.0,
            y(v),
            y(v),
            l - 5.0,
            y(v) + 4.0
        );
    }
    // x ticks: about six slices, evenly spread, each with its number and position
    for i in slice_ticks(s.slices.len(), 6) {
        let sl = &s.slices[i];
        let _ = write!(
            svg,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#999\"/><text x=\"{0:.1}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">#{4}</text>",
            x(i),
            h - b,
            h - b + 10.0,
            h - b + 22.0,
            sl.index + 1
        );
        if let Some(z) = sl.z {
            let _ = write!(
                svg,
                "<text x=\"{:.1}\" y=\"{}\" font-size=\"10\" fill=\"#555\" text-anchor=\"middle\">{z:.1}</text>",
                x(i),
                h - b + 34.0
            );
        }
    }
    let has_z = s.slices.iter().any(|sl| sl.z.is_some());
    let _ = write!(
        svg,
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">slice (from 1, in z order){} — line: probability, band: 90 % interval, dashed: threshold, red marks: labelled positive</text></svg>",
        (l + w - r) / 2.0,
        h - 6.0,
        if has_z { " (under it: z, mm)" } else { "" }
    );
    svg
}

/// The slices an axis marks: at most `k`, the first and the last among them, evenly spread.
fn slice_ticks(n: usize, k: usize) -> Vec<usize> {
    if n == 0 || k == 0 {
        return Vec::new();
    }
    if n <= k {
        return (0..n).collect();
    }
    let mut v: Vec<usize> = (0..k)
        .map(|j| ((j * (n - 1)) as f64 / (k - 1) as f64).round() as usize)
        .collect();
    v.dedup();
    v
}

/// Where along the scan each subtype is: a row per head ("any" first, then each subtype), a cell
/// per slice in z order, darker for a higher probability; a red frame marks a positive slice, an
/// orange dash an uncertain one, a red tick under the cell a slice labelled with it.
pub fn subtype_strip_svg(s: &ScanReport) -> String {
    let names: Vec<&str> = s.subtypes.iter().map(|x| x.name.as_str()).collect();
    let n = s.slices.len().max(1);
    let (l, cell_h, gap, t) = (130.0, 16.0, 8.0, 4.0);
    let cell_w = (560.0 / n as f64).clamp(3.0, 24.0);
    let w = l + cell_w * n as f64 + 8.0;
    let rows = 1 + names.len();
    let h = t + rows as f64 * (cell_h + gap) + 18.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-label=\"subtype probabilities along the scan\">"
    );
    let mut row = |r: usize,
                   name: &str,
                   cells: &mut dyn Iterator<
        Item = (usize, f64, (f64, f64), bool, bool, Option<u8>),
    >| {
        let y = t + r as f64 * (cell_h + gap);
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>",
            l - 6.0,
            y + cell_h - 4.0,
            esc(name)
        );
        for (i, p, (lo, hi), pos, unc, label) in cells {
            let x = l + cell_w * i as f64;
            // white (0) to dark red (1)
            let v = p.clamp(0.0, 1.0);
            let (rr, gg, bb) = (255.0 - 75.0 * v, 255.0 - 255.0 * v, 255.0 - 255.0 * v);
            let stroke = if pos {
                "stroke=\"#e00\" stroke-width=\"2\""
            } else if unc {
                "stroke=\"#f90\" stroke-width=\"1.5\" stroke-dasharray=\"2 1\""
            } else {
                "stroke=\"#ccc\" stroke-width=\"0.5\""
            };
            let _ = write!(
                svg,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell_w:.1}\" height=\"{cell_h}\" fill=\"rgb({rr:.0},{gg:.0},{bb:.0})\" {stroke}><title>{} slice {i}: {p:.3} [{lo:.3}–{hi:.3}]</title></rect>",
                esc(name)
            );
            if label == Some(1) {
                let _ = write!(
                    svg,
                    "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{cell_w:.1}\" height=\"3\" fill=\"#e00\"><title>labelled {}</title></rect>",
                    y + cell_h + 1.0,
                    esc(name)
                );
            }
        }
    };
    row(
        0,
        "any",
        &mut s.slices.iter().enumerate().map(|(i, x)| {
            (
                i,
                x.probability,
                (x.lo, x.hi),
                x.positive,
                x.uncertain,
                x.label,
            )
        }),
    );
    for (r, name) in names.iter().enumerate() {
        row(
            r + 1,
            name,
            &mut s.slices.iter().enumerate().filter_map(|(i, x)| {
                let q = x.subtypes.iter().find(|q| q.name == *name)?;
                Some((
                    i,
                    q.probability,
                    (q.lo, q.hi),
                    q.positive,
                    q.uncertain,
                    q.label,
                ))
            }),
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{l}\" y=\"{:.1}\" font-size=\"11\">slice (z order) →</text></svg>",
        h - 4.0
    );
    svg
}

/// A scan's subtypes called likely or unsure for the index, most probable first, each with its
/// call.
fn flagged_subtypes(subs: &[SubtypeProbability]) -> String {
    let mut v: Vec<&SubtypeProbability> =
        subs.iter().filter(|x| x.positive || x.uncertain).collect();
    v.sort_by(|a, b| b.probability.total_cmp(&a.probability));
    if v.is_empty() {
        return if subs.is_empty() {
            "–".into()
        } else {
            "none".into()
        };
    }
    v.iter()
        .map(|x| {
            format!(
                "{} {:.2}{}",
                esc(&x.name),
                x.probability,
                if x.uncertain {
                    " (<span class=\"unc\">unsure</span>)"
                } else {
                    " (<span class=\"pos\">likely</span>)"
                }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reliability diagram: observed rate against mean predicted probability per bin.
pub fn reliability_svg(bins: &[(f64, f64, f64, usize)]) -> String {
    let (s, m) = (270.0, 44.0);
    let p = |v: f64| m + (s - 2.0 * m) * v;
    let q = |v: f64| s - m - (s - 2.0 * m) * v;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{s}\" height=\"{s}\" viewBox=\"0 0 {s} {s}\" role=\"img\" aria-label=\"reliability\">\
<rect x=\"{m}\" y=\"{m}\" width=\"{0}\" height=\"{0}\" fill=\"#fff\" stroke=\"#999\"/>\
<line x1=\"{1}\" y1=\"{2}\" x2=\"{3}\" y2=\"{4}\" stroke=\"#aaa\" stroke-dasharray=\"4 3\"/>",
        s - 2.0 * m,
        p(0.0),
        q(0.0),
        p(1.0),
        q(1.0)
    );
    let total: usize = bins.iter().map(|b| b.3).sum::<usize>().max(1);
    let pts: Vec<String> = bins
        .iter()
        .map(|b| format!("{:.1},{:.1}", p(b.1), q(b.2)))
        .collect();
    let _ = write!(
        svg,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1d3f8a\" stroke-width=\"2\"/>",
        pts.join(" ")
    );
    for b in bins {
        let r = 2.0 + 8.0 * (b.3 as f64 / total as f64).sqrt();
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r:.1}\" fill=\"#1d3f8a\" fill-opacity=\"0.6\"><title>{} scans: predicted {:.2}, observed {:.2}</title></circle>",
            p(b.1),
            q(b.2),
            b.3,
            b.1,
            b.2
        );
    }
    for v in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = write!(
            svg,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#999\"/><text x=\"{0:.1}\" y=\"{3}\" font-size=\"10\" text-anchor=\"middle\">{v}</text>\
<line x1=\"{4}\" x2=\"{5}\" y1=\"{6:.1}\" y2=\"{6:.1}\" stroke=\"#999\"/><text x=\"{7}\" y=\"{8:.1}\" font-size=\"10\" text-anchor=\"end\">{v}</text>",
            p(v),
            s - m,
            s - m + 4.0,
            s - m + 14.0,
            m - 4.0,
            m,
            q(v),
            m - 5.0,
            q(v) + 3.0
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">predicted probability</text>\
<text x=\"10\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" transform=\"rotate(-90 10 {})\">observed rate</text></svg>",
        s / 2.0,
        s - 4.0,
        s / 2.0,
        s / 2.0
    );
    svg
}

/// A probability with its 90 % interval, as the pages show it (the sd, a symmetric summary of an
/// asymmetric spread, stays in the CSV and JSON files). Without a GP head (`uncertainty` false)
/// the probability is the CNN's point estimate: no interval is shown, since none was computed.
fn pm(uncertainty: bool, p: f64, lo: f64, hi: f64) -> String {
    if !uncertainty {
        return format!("{p:.3} (no interval: CNN point estimate)");
    }
    format!("{p:.3} [{lo:.3}–{hi:.3}]")
}

/// Below this many labelled scans the index warns that its metrics are rough.
pub const FEW_SCANS: usize = 20;

/// The warning under metrics measured on fewer than [`FEW_SCANS`] scans: an AUC on 10 scans has
/// a standard error of about 0.14 (Hanley and McNeil, AUC 0.8, 5 and 5).
fn small_cohort(scans: usize) -> String {
    if scans >= FEW_SCANS {
        return String::new();
    }
    format!(
        "<p class=\"unc\">Only {scans} labelled scan{}: figures on so few scans can be off by 0.1 \
         or more. Read them as a rough check, not a measurement.</p>",
        if scans == 1 { "" } else { "s" }
    )
}

/// A bundle as the index names it: its folder's name, not where it lies on the server.
fn bundle_name(bundle: &str) -> String {
    std::path::Path::new(bundle)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| bundle.to_string())
}

/// The call ([`crate::report::Call`]) as the pages show it.
fn flags(positive: bool, uncertain: bool) -> String {
    use crate::report::Call;
    let call = Call::of(positive, uncertain);
    match call {
        Call::LikelyBleed => format!("<span class=\"pos\">{}</span>", call.text()),
        Call::Unsure => format!("<span class=\"unc\">{}</span>", call.text()),
        Call::Unlikely => call.text().into(),
    }
}

/// A scan's warnings in the index: their count, the texts on hover (the scan's page lists them).
fn warned(warnings: &[String]) -> String {
    match warnings.len() {
        0 => String::new(),
        n => format!(
            ", <span class=\"unc\" title=\"{}\">{n} warning{}</span>",
            esc(&warnings.join("\n")),
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// The format of the volume file a scan was read from, by its name (the report keeps the name
/// alone, in its `nifti` field, whatever the format): "NIfTI", or another listed in
/// `preprocess::VOLUME_FORMATS`.
fn volume_format(name: &str) -> &'static str {
    preprocess::source::claimant(preprocess::VOLUME_FORMATS, std::path::Path::new(name))
        .map_or("Volume", |f| f.name())
}

/// Where a scan came from, under its id in the index: the volume file, or the study and series
/// UIDs (what finds it in the PACS).
fn source_of(s: &ScanReport) -> String {
    let described = s
        .series_description
        .as_deref()
        .map(|d| format!("<br>{}", esc(d)))
        .unwrap_or_default();
    match (&s.nifti, &s.study_instance_uid, &s.series_instance_uid) {
        (Some(n), _, _) => format!("<br><small>{}</small>", esc(n)),
        (None, Some(st), Some(se)) => format!(
            "{described}<br><small title=\"Study Instance UID / Series Instance UID\">study {}<br>series {}</small>",
            esc(st),
            esc(se)
        ),
        _ => described,
    }
}

/// The page of one scan. `pictures[i]` are slice i's pictures; `source` says where they come
/// from ([`crate::report::images::Source::note`]).
/// What the numbers are calibrated for, as every page shows it: a warning banner when they are
/// the network's scores (calibrated for nothing), a note otherwise; nothing in reports written
/// before it was recorded.
pub fn calibration_banner(r: &Report) -> String {
    let mut b = match (&r.model.calibration, r.model.uncalibrated_warning()) {
        (_, Some(w)) => format!("<p class=\"warn\">{}</p>", esc(&w)),
        (Some(c), None) => format!("<p class=\"note\">{}</p>", esc(&c.text)),
        (None, None) => String::new(),
    };
    if !r.model.notice.is_empty() {
        let _ = write!(
            b,
            "<p class=\"note\">{}{}</p>",
            esc(&r.model.notice),
            r.model
                .terms
                .as_ref()
                // the terms name what they are about ("Weights: …")
                .map(|t| format!(" {}", esc(t)))
                .unwrap_or_default()
        );
    }
    if let Some(op) = &r.model.operating_point {
        let _ = write!(
            b,
            "<p class=\"note\">Calls at the site's operating point: {}.</p>",
            esc(&op.text())
        );
    }
    b
}

/// One scan's page (`scans/<id>.html`): its call with the interval, why, its subtypes, the slice
/// plot, each slice's tile and its panels enlarged. Long by design: one HTML template, its
/// sections in the order the page shows them; the plot and the tables are built by their own
/// functions.
pub fn scan_page(r: &Report, s: &ScanReport, pictures: &[SlicePictures], source: &str) -> String {
    let mut b = String::new();
    let _ = write!(
        b,
        "<p><a href=\"../index.html\">← all scans</a></p><h1>Scan {}</h1>{}",
        esc(&s.id),
        calibration_banner(r)
    );
    if s.patient_name.is_some() || s.patient_id.is_some() {
        let _ = write!(
            b,
            "<p>Patient: {} ({})</p>",
            esc(s.patient_name.as_deref().unwrap_or("–")),
            esc(s.patient_id.as_deref().unwrap_or("–"))
        );
    }
    if let Some(n) = &s.nifti {
        let _ = write!(b, "<p>{} file: {}</p>", volume_format(n), esc(n));
    }
    if let Some(d) = &s.series_description {
        let _ = write!(b, "<p>Series: {}</p>", esc(d));
    }
    if let (Some(st), Some(se)) = (&s.study_instance_uid, &s.series_instance_uid) {
        let _ = write!(
            b,
            "<p>Study Instance UID {}<br>Series Instance UID {}</p>",
            esc(st),
            esc(se)
        );
    }
    if let Some(url) = crate::report::viewer_url(r, s) {
        let _ = write!(
            b,
            "<p><a href=\"{}\" target=\"_blank\" rel=\"noopener\">Open the study in the viewer</a></p>",
            esc(&url)
        );
    }
    let _ = write!(
        b,
        "<table><tr><th class=\"l\">scan probability ({})</th><td>{}</td></tr>\
<tr><th class=\"l\">call</th><td>{}</td></tr>\
<tr><th class=\"l\">{}</th><td>{:.3}</td></tr>\
<tr><th class=\"l\">slices</th><td>{} ({} positive, {} uncertain)</td></tr>{}</table>",
        esc(&r.model.gp_family),
        pm(r.model.uncertainty, s.probability, s.lo, s.hi),
        flags(s.positive, s.uncertain),
        // without a GP head the scan probability is the network's own (its dropout mean): the
        // network's deterministic output is no second opinion
        if r.model.gp_family == crate::report::CNN_ONLY {
            "the network without dropout"
        } else {
            "CNN probability (second opinion)"
        },
        s.cnn_probability,
        s.n_slices,
        s.positive_slices,
        s.uncertain_slices,
        s.label
            .map(|l| format!("<tr><th class=\"l\">label</th><td>{l}</td></tr>"))
            .unwrap_or_default()
    );
    if let Some(why) = &s.why {
        let _ = write!(b, "<p class=\"warn\">Why this call: {}</p>", esc(why));
    }
    for w in &s.warnings {
        let _ = write!(b, "<p class=\"note\">warning: {}</p>", esc(w));
    }
    if let Some(i) = &r.model.interval {
        let _ = write!(b, "<p class=\"note\">The interval: {}.</p>", esc(i));
    }
    let _ = write!(
        b,
        "<h2>Probability along the slice axis</h2>{}",
        slice_plot_svg(s, &r.thresholds)
    );
    if !s.subtypes.is_empty() {
        let labelled = s.subtypes.iter().any(|x| x.label.is_some());
        let _ = write!(
            b,
            "<h2>Which bleed</h2><table><tr><th class=\"l\">subtype</th><th>scan probability [90 % interval]</th><th class=\"l\">call</th><th>positive slices</th>{}</tr>",
            if labelled { "<th>label</th>" } else { "" }
        );
        for x in &s.subtypes {
            let n_pos = s
                .slices
                .iter()
                .filter(|sl| sl.subtypes.iter().any(|q| q.name == x.name && q.positive))
                .count();
            let _ = write!(
                b,
                "<tr><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td><td>{n_pos}</td>{}</tr>",
                esc(&x.name),
                pm(r.model.uncertainty, x.probability, x.lo, x.hi),
                flags(x.positive, x.uncertain),
                if labelled {
                    format!("<td>{}</td>", x.label.map(|l| l.to_string()).unwrap_or_else(|| "–".into()))
                } else {
                    String::new()
                }
            );
        }
        let _ = write!(
            b,
            "</table><p class=\"note\">Each subtype has its own GP head on the same slice features, calibrated on its own validation scans, and is flagged by the same thresholds as \"any\". The subtypes are not exclusive: a scan can have several.</p><h3>Where along the scan</h3>{}",
            subtype_strip_svg(s)
        );
    } else if !r.model.subtypes.is_empty() {
        b.push_str("<p class=\"note\">No subtype probabilities for this scan.</p>");
    }
    let _ = write!(
        b,
        "<h2 id=\"slices\">Slices</h2><p class=\"note\">{}</p><p class=\"note\">Red frame: likely bleed (probability ≥ {:.2}, and the model is sure); dashed orange outline: unsure (its 90 % interval reaches across the threshold, or its spread is wide: sd ≥ {:.2}, in the CSV files); no frame: unlikely. The interval is the range the model itself is 90 % sure the probability lies in; att: the CNN's attention weight (how much the slice counts in the scan's probability; not a probability){}.</p><div class=\"grid\">",
        esc(source),
        r.thresholds.positive,
        r.thresholds.uncertain_sd,
        if r.model.uncertainty {
            ""
        } else {
            "; slice probability: the network on that slice alone, padded like every scan"
        }
    );
    let mut zoom = String::new();
    for (sl, pics) in s.slices.iter().zip(pictures) {
        // framed by its call: red for a likely bleed, dashed orange when unsure
        let mut class = String::from("tile");
        match crate::report::Call::of(sl.positive, sl.uncertain) {
            crate::report::Call::LikelyBleed => class.push_str(" pos"),
            crate::report::Call::Unsure => class.push_str(" unc"),
            crate::report::Call::Unlikely => {}
        }
        let label = match sl.label {
            Some(1) => " · label 1",
            Some(_) => " · label 0",
            None => "",
        };
        let call = pm(r.model.uncertainty, sl.probability, sl.lo, sl.hi);
        let (w, h) = pics.tile.shown(128);
        let _ = write!(
            b,
            "<div class=\"{class}\"><a href=\"#z{i}\" title=\"enlarge slice #{k}\"><img src=\"{}\" width=\"{w}\" height=\"{h}\" alt=\"slice {k}\"></a>\
<div>#{k} {call}</div><div>att {:.3}{label}</div></div>",
            pics.tile.uri,
            sl.attention,
            i = sl.index,
            k = sl.index + 1,
        );
        // the slice enlarged, shown when its tile is clicked (no script: the page's #fragment)
        let _ = write!(
            zoom,
            "<div class=\"zoom\" id=\"z{i}\"><p><a href=\"#slices\">× close</a> · slice {k} of {}{}: {call} · {}{label}</p><div class=\"panels\">",
            s.n_slices,
            sl.z.map(|z| format!(" (z {z:.1} mm)")).unwrap_or_default(),
            flags(sl.positive, sl.uncertain),
            i = sl.index,
            k = sl.index + 1,
        );
        for p in &pics.large {
            let (w, h) = p.shown(512);
            let _ = write!(
                zoom,
                "<figure><img src=\"{}\" width=\"{w}\" height=\"{h}\" alt=\"slice {}, {}\"><figcaption>{}</figcaption></figure>",
                p.uri,
                sl.index + 1,
                esc(&p.title),
                esc(&p.title)
            );
        }
        zoom.push_str("</div></div>");
    }
    b.push_str("</div>");
    b.push_str(&zoom);
    let _ = write!(
        b,
        "<p class=\"note\">Model: {} on {} CNN features ({}² input), bundle created {}. Research software, not a medical device.</p>",
        esc(&r.model.gp_family),
        r.model.feature_dim,
        r.model.image_size,
        esc(&r.model.created)
    );
    page(&format!("ich — scan {}", s.id), &b)
}

/// What made the report's main numbers, for the metrics' rows: a GP head, or the network alone
/// (no "GP" where no GP head ran).
fn head_name(r: &Report) -> &'static str {
    if r.model.gp_family == crate::report::CNN_ONLY {
        "network"
    } else {
        "GP"
    }
}

fn metric_row(name: &str, m: &Metrics) -> String {
    format!(
        "<tr><td class=\"l\">{name}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{:.4}</td><td>{:.3}</td><td>{:.3}</td><td>{}</td></tr>",
        m.auc.map(|a| format!("{a:.3}")).unwrap_or_else(|| "–".into()),
        m.accuracy,
        m.f1,
        m.log_likelihood,
        m.ece,
        m.ece_floor,
        m.ece_p_value.map(|p| format!("{p:.3}")).unwrap_or_else(|| "–".into())
    )
}

/// Each subtype's scan and slice metrics, with how many positive scans and slices stand behind
/// them.
fn subtype_metric_rows(m: &crate::report::ReportMetrics) -> String {
    let mut out = String::new();
    for x in &m.subtypes {
        if let Some(sm) = &x.scan {
            out.push_str(&metric_row(
                &format!(
                    "{} scans ({} of {} positive)",
                    esc(&x.name),
                    x.positive_scans,
                    x.scans
                ),
                sm,
            ));
        }
        if let Some(sm) = &x.slice {
            out.push_str(&metric_row(
                &format!(
                    "{} slices ({} of {} positive)",
                    esc(&x.name),
                    x.positive_slices,
                    x.slices
                ),
                sm,
            ));
        }
    }
    out
}

/// Scans per index page: the first page is `index.html`, the next `index-2.html`, … so that no
/// page grows with the cohort (a table of 25,000 rows is megabytes no browser lays out quickly).
pub const INDEX_PAGE_SCANS: usize = 1000;
/// Skipped inputs listed on the first index page (report.json lists them all).
pub const INDEX_SKIPPED: usize = 1000;

/// The file name of index page `k` (from 1).
pub fn index_page_name(k: usize) -> String {
    if k <= 1 {
        crate::report::INDEX_HTML.to_string()
    } else {
        format!("index-{k}.html")
    }
}

/// Whether `rel`, a path in a report folder, is one of its index pages.
pub fn is_index_page(rel: &str) -> bool {
    rel == crate::report::INDEX_HTML
        || rel
            .strip_prefix("index-")
            .and_then(|r| r.strip_suffix(".html"))
            .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

/// How many index pages a report of `scans` scans has (at least one).
pub fn index_page_count(scans: usize) -> usize {
    scans.div_ceil(INDEX_PAGE_SCANS).max(1)
}

/// Index page `k` (from 1) of [`index_page_count`]: the scans `(k-1)·1000 … k·1000` in the
/// report's order (probability, highest first) with links to the pages before and after; the
/// first page also carries the metrics when labels were given, and the skipped inputs.
pub fn index_page(r: &Report, k: usize) -> String {
    let pages = index_page_count(r.scans.len());
    let k = k.clamp(1, pages);
    let from = (k - 1) * INDEX_PAGE_SCANS;
    let to = (from + INDEX_PAGE_SCANS).min(r.scans.len());
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>ich — {} scan(s)</h1><p class=\"note\">{} · model {} ({}) · one call per scan and slice: <span class=\"pos\">likely bleed</span> when the probability is at least {:.2} and the model is sure of it; <span class=\"unc\">unsure</span> when its 90 % interval reaches across the threshold or its sd is at least {:.2}, or the scan is unlike the scans the model was fitted on; unlikely otherwise. The interval [lo–hi] is the range the model itself is 90 % sure the probability lies in{}</p>",
        r.scans.len(),
        esc(&r.created),
        esc(&bundle_name(&r.model.bundle)),
        esc(&r.model.gp_family),
        r.thresholds.positive,
        r.thresholds.uncertain_sd,
        match (&r.model.site_calibration, r.model.calibrated) {
            (Some(site), _) => format!(", {}", esc(site)),
            (None, true) => ", calibrated on validation scans".into(),
            (None, false) => " (uncalibrated head)".into(),
        }
    );
    b.push_str(&calibration_banner(r));
    for w in &r.warnings {
        let _ = write!(b, "<p class=\"warn\">{}</p>", esc(w));
    }
    let nav = if pages == 1 {
        String::new()
    } else {
        let link = |j: usize, text: &str| format!("<a href=\"{}\">{text}</a>", index_page_name(j));
        let mut v = vec![format!(
            "scans {}–{} of {} (highest probability first), page {k} of {pages}",
            from + 1,
            to,
            r.scans.len()
        )];
        if k > 1 {
            v.push(link(1, "first"));
            v.push(link(k - 1, "← previous"));
        }
        if k < pages {
            v.push(link(k + 1, "next →"));
            v.push(link(pages, "last"));
        }
        format!("<p class=\"nav\">{}</p>", v.join(" · "))
    };
    if let Some(m) = r.metrics.as_ref().filter(|_| k == 1) {
        let _ = write!(
            b,
            "<h2>Metrics</h2><table><tr><th class=\"l\"></th><th>AUC</th><th>accuracy</th><th>F1</th><th>log-lik.</th><th>ECE</th><th>ECE floor</th><th>ECE p</th></tr>{}{}{}{}</table>\
<p class=\"note\">{} scans, {} labelled slices; accuracy and F1 at 0.5; log-likelihood per item. ECE floor: the ECE a perfectly calibrated model would show on this many items with these probabilities; ECE p: how often it would show this ECE or more (small: miscalibration beyond the noise of the set's size).</p>\
{}<h2>Reliability</h2><div class=\"grid\"><figure>{}<figcaption>scans</figcaption></figure>{}</div>",
            metric_row(&format!("scans ({})", head_name(r)), &m.scan),
            m.slice
                .as_ref()
                .map(|s| metric_row(&format!("slices ({})", head_name(r)), s))
                .unwrap_or_default(),
            metric_row("scans (CNN)", &m.cnn_scan),
            subtype_metric_rows(m),
            m.scans,
            m.slices,
            small_cohort(m.scans),
            reliability_svg(&m.reliability),
            if m.slice_reliability.is_empty() {
                String::new()
            } else {
                format!(
                    "<figure>{}<figcaption>slices (ECE {:.3})</figcaption></figure>",
                    reliability_svg(&m.slice_reliability),
                    m.slice.as_ref().map_or(f64::NAN, |s| s.ece)
                )
            }
        );
    }
    b.push_str("<h2>Scans</h2>");
    b.push_str(&nav);
    b.push_str("<table><tr><th class=\"l\">scan</th><th>probability [90 % interval]</th><th class=\"l\">call</th><th>CNN</th><th>slices</th><th>positive</th><th>uncertain</th>");
    let labelled = r.scans.iter().any(|s| s.label.is_some());
    if labelled {
        b.push_str("<th>label</th>");
    }
    let with_subtypes = !r.model.subtypes.is_empty();
    if with_subtypes {
        b.push_str("<th class=\"l\">subtypes likely or unsure</th>");
    }
    b.push_str("</tr>");
    for s in &r.scans[from..to] {
        let name = match &s.page {
            Some(p) => format!("<a href=\"{}\">{}</a>", esc(p), esc(&s.id)),
            None => esc(&s.id),
        } + &source_of(s)
            + &crate::report::viewer_url(r, s)
                .map(|u| {
                    format!(
                        "<br><a href=\"{}\" target=\"_blank\" rel=\"noopener\">viewer</a>",
                        esc(&u)
                    )
                })
                .unwrap_or_default();
        let _ = write!(
            b,
            "<tr><td class=\"l\">{name}</td><td>{}</td><td class=\"l\">{}</td><td>{:.3}</td><td>{}</td><td>{}</td><td>{}</td>",
            pm(r.model.uncertainty, s.probability, s.lo, s.hi),
            flags(s.positive, s.uncertain) + &warned(&s.warnings),
            s.cnn_probability,
            s.n_slices,
            s.positive_slices,
            s.uncertain_slices
        );
        if labelled {
            let _ = write!(
                b,
                "<td>{}</td>",
                s.label.map(|l| l.to_string()).unwrap_or_else(|| "–".into())
            );
        }
        if with_subtypes {
            let _ = write!(b, "<td class=\"l\">{}</td>", flagged_subtypes(&s.subtypes));
        }
        b.push_str("</tr>");
    }
    b.push_str("</table>");
    b.push_str(&nav);
    if !r.skipped.is_empty() && k == 1 {
        let _ = write!(b, "<h2>Skipped inputs ({})</h2><ul>", r.skipped.len());
        for s in r.skipped.iter().take(INDEX_SKIPPED) {
            let _ = write!(b, "<li>{}</li>", esc(s));
        }
        if r.skipped.len() > INDEX_SKIPPED {
            let _ = write!(
                b,
                "<li>… and {} more (report.json lists them all)</li>",
                r.skipped.len() - INDEX_SKIPPED
            );
        }
        b.push_str("</ul>");
    }
    b.push_str("<p class=\"note\">Research software, not a medical device.</p>");
    page("ich — scans", &b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page names a volume file's format from its name, and no format it cannot tell.
    #[test]
    fn a_volume_file_is_named_with_its_format() {
        assert_eq!(volume_format("sub-01/ct.nii.gz"), "NIfTI");
        assert_eq!(volume_format("CT.NII"), "NIfTI");
        assert_eq!(volume_format("sub-01/ct.nrrd"), "Volume");
    }

    #[test]
    fn png_round_trips() {
        let px: Vec<u8> = (0..64).map(|i| (i * 4) as u8).collect();
        let uri = png_data_uri(&px, 8, 8).unwrap();
        let b64 = uri.strip_prefix("data:image/png;base64,").unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (8, 8));
        assert_eq!(&buf[..64], &px[..]);
    }

    #[test]
    fn index_pages_hold_a_thousand_scans_each_and_link_each_other() {
        let mut r = crate::report::fixture_report();
        let one = r.scans[0].clone();
        r.scans = (0..2345)
            .map(|i| ScanReport {
                id: format!("scan-{i:05}"),
                ..one.clone()
            })
            .collect();
        r.skipped = (0..1001).map(|i| format!("f{i}: bad")).collect();
        assert_eq!(index_page_count(2345), 3);
        assert_eq!((index_page_count(0), index_page_count(1000)), (1, 1));
        let rows = |h: &str| h.matches("<tr><td class=\"l\">scan-").count();
        let p1 = index_page(&r, 1);
        assert_eq!(rows(&p1), 1000);
        assert!(
            p1.contains("scan-00000") && p1.contains("scan-00999") && !p1.contains("scan-01000")
        );
        assert!(
            p1.contains("scans 1–1000 of 2345")
                && p1.contains("<a href=\"index-2.html\">next →</a>")
        );
        assert!(p1.contains("<a href=\"index-3.html\">last</a>") && !p1.contains("previous"));
        assert!(p1.contains("Skipped inputs (1001)") && p1.contains("… and 1 more"));
        assert!(p1.contains("f999: bad") && !p1.contains("f1000: bad"));
        let p3 = index_page(&r, 3);
        assert_eq!(rows(&p3), 345);
        assert!(p3.contains("scans 2001–2345 of 2345 (highest probability first), page 3 of 3"));
        assert!(p3.contains("<a href=\"index-2.html\">← previous</a>") && !p3.contains("next →"));
        assert!(!p3.contains("Skipped inputs"));
        // one page: no navigation
        r.scans.truncate(3);
        assert!(!index_page(&r, 1).contains("class=\"nav\""));
        assert!(small_cohort(4).contains("Only 4 labelled scans"));
        assert!(small_cohort(1).contains("Only 1 labelled scan:"));
        assert_eq!(small_cohort(FEW_SCANS), "");
        for (rel, yes) in [
            ("index.html", true),
            ("index-2.html", true),
            ("index-.html", false),
            ("index-2x.html", false),
            ("scans/index-2.html", false),
        ] {
            assert_eq!(is_index_page(rel), yes, "{rel}");
        }
        assert_eq!(index_page_name(1), "index.html");
        assert_eq!(index_page_name(7), "index-7.html");
    }

    /// Each slice's tile links to its enlarged panels (brain and subdural, at their own size)
    /// in an overlay the page's fragment opens, with the slice's call; no script.
    #[test]
    fn a_tile_opens_its_slice_enlarged_in_both_windows() {
        let r = crate::report::fixture_report();
        let s = &r.scans[0];
        let v = preprocess::view::SliceView {
            rows: 300,
            cols: 200,
            hu: vec![40; 300 * 200],
        };
        let panels = crate::report::images::view_panels(&v);
        let pics = vec![SlicePictures {
            tile: Picture::of(&crate::report::images::tile(&panels[0])).unwrap(),
            large: panels.iter().map(|p| Picture::of(p).unwrap()).collect(),
        }];
        // the tile is 300/160 → factor 2: 150 × 100, shown as it is
        assert_eq!((pics[0].tile.height, pics[0].tile.width), (150, 100));
        let page = scan_page(&r, s, &pics, "the note");
        // the fragment is the slice's index; the number a person reads counts from 1
        let (i, k) = (s.slices[0].index, s.slices[0].index + 1);
        assert!(page.contains(&format!(
            "<a href=\"#z{i}\" title=\"enlarge slice #{k}\"><img src=\"{}\" width=\"100\" height=\"150\"",
            pics[0].tile.uri
        )));
        let zoom = &page[page
            .find(&format!("<div class=\"zoom\" id=\"z{i}\">"))
            .unwrap()..];
        assert!(zoom.contains("<a href=\"#slices\">× close</a>"));
        // a small picture is enlarged by a whole factor to reach 512: 300 → ×1 (as it is)
        assert!(zoom.contains(&format!(
            "<img src=\"{}\" width=\"200\" height=\"300\" alt=\"slice {k}, brain W80 L40\"><figcaption>brain W80 L40</figcaption>",
            pics[0].large[0].uri
        )));
        assert!(zoom.contains("<figcaption>subdural W200 L80</figcaption>"));
        assert!(page.contains("<p class=\"note\">the note</p>"));
        assert!(page.contains(".zoom:target{display:block}") && !page.contains("<script"));
        // a 64² network input: tile shown at 128, enlarged to 512
        let small = Picture {
            uri: String::new(),
            width: 64,
            height: 64,
            title: String::new(),
        };
        assert_eq!(small.shown(128), (128, 128));
        assert_eq!(small.shown(512), (512, 512));
        assert_eq!(pics[0].large[0].shown(512), (200, 300));
    }

    #[test]
    fn plots_are_marked_with_slice_numbers_positions_and_probabilities() {
        // slice ticks: the first and the last, evenly spread between, never more than asked
        assert_eq!(slice_ticks(0, 6), Vec::<usize>::new());
        assert_eq!(slice_ticks(4, 6), vec![0, 1, 2, 3]);
        // 30 slices, 6 ticks: j·29/5 = 0, 5.8, 11.6, 17.4, 23.2, 29, rounded
        assert_eq!(slice_ticks(30, 6), vec![0, 6, 12, 17, 23, 29]);
        let mut r = crate::report::fixture_report();
        let one = r.scans[0].slices[0].clone();
        r.scans[0].slices = (0..30)
            .map(|i| crate::report::SliceReport {
                index: i,
                z: Some(-40.0 + 5.0 * i as f64),
                ..one.clone()
            })
            .collect();
        r.scans[0].n_slices = 30;
        let svg = slice_plot_svg(&r.scans[0], &r.thresholds);
        // the ticked slices by number (from 1, as the SR and the captures count), with their z
        // under them (slice 18, index 17, lies at 45 mm)
        for (i, z) in [(0, "-40.0"), (6, "-10.0"), (17, "45.0"), (29, "105.0")] {
            assert!(svg.contains(&format!(">#{}</text>", i + 1)), "#{i}");
            assert!(svg.contains(&format!(">{z}</text>")), "z {z}");
        }
        assert!(!svg.contains(">#6</text>") && svg.contains("(under it: z, mm)"));
        for v in ["0", "0.25", "0.5", "0.75", "1"] {
            assert!(svg.contains(&format!(">{v}</text>")), "{v}");
        }
        // a point's tooltip gives its interval, not a symmetric ± sd
        assert!(
            svg.contains("slice 4 of 30 (z -25.0 mm): 0.250 [0.062–0.500]"),
            "{svg}"
        );
        assert!(!svg.contains('±'));
        // reliability: both axes ticked at 0, 0.5 and 1
        let rel = reliability_svg(&[(0.0, 0.2, 0.1, 5), (0.5, 0.7, 0.8, 5)]);
        assert_eq!(rel.matches(">0.5</text>").count(), 2);
        assert_eq!(rel.matches(">1</text>").count(), 2);
        // the pages show the probability with its interval; the sd stays in the files
        let page = scan_page(&r, &r.scans[0], &[], "");
        assert!(page.contains("0.250 [0.062–0.500]") && !page.contains("(sd "));
        let index = index_page(&r, 1);
        assert!(index.contains("0.250 [0.062–0.500]") && !index.contains("(sd "));
    }

    #[test]
    fn a_viewer_url_links_each_dicom_scan_to_its_study() {
        use crate::report::{viewer_url, viewer_url_template};
        let mut r = crate::report::fixture_report();
        // no template, or a NIfTI scan (no UIDs): no link
        assert!(!index_page(&r, 1).contains("viewer</a>"));
        r.viewer_url = Some(
            viewer_url_template("https://pacs.example/viewer?StudyInstanceUIDs={study}&s={series}")
                .unwrap(),
        );
        assert_eq!(viewer_url(&r, &r.scans[0]), None);
        r.scans[0].study_instance_uid = Some("1.2.840.1".into());
        r.scans[0].series_instance_uid = Some("1.2.840.1.2".into());
        let want = "https://pacs.example/viewer?StudyInstanceUIDs=1.2.840.1&s=1.2.840.1.2";
        assert_eq!(viewer_url(&r, &r.scans[0]).as_deref(), Some(want));
        // in the pages, escaped as an attribute (& → &amp;)
        let href =
            "href=\"https://pacs.example/viewer?StudyInstanceUIDs=1.2.840.1&amp;s=1.2.840.1.2\"";
        assert!(index_page(&r, 1).contains(href));
        assert!(scan_page(&r, &r.scans[0], &[], "").contains(href));
        // what a template may not be
        for bad in [
            "ftp://pacs/{study}",
            "javascript:alert(1)//{study}",
            "https://pacs.example/viewer",
            "https://pacs.example/\"onmouseover=x/{study}",
            "https://pacs.example/ {study}",
        ] {
            assert!(viewer_url_template(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn html_escapes_text() {
        assert_eq!(
            esc("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
