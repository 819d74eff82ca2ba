//! `ich predict`: DICOM folders or datasets in; per-slice and per-scan probabilities with standard
//! deviations out, as CSV/JSON for programs and HTML pages for people (docs/REPORT.md).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context;
use attcnn::inference::Trained;
use gphead::metrics::Metrics;
use gphead::{GpModel, MilData};
use preprocess::dataset::{write_atomic, Dataset, Skipped};
use preprocess::labels::Labels;
use preprocess::pipeline::{apply_labels, decode_scan, find_scans};
use preprocess::scan::Scan;
use preprocess::{PreprocessConfig, Progress};

use super::cnn::{device, DeviceArg};
use crate::bundle::{rfc3339, Bundle};
use crate::report::{
    index_page, png_data_uri, reliability, scan_page, ModelInfo, Report, ReportMetrics, ScanReport,
    SliceReport, Thresholds, REPORT_FORMAT,
};

/// Predict hemorrhage per slice and per scan, with standard deviations, from DICOM folders or
/// preprocessed datasets; write slices.csv, scans.csv, report.json and HTML pages.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model bundle (`ich train-cnn --out` followed by `ich fit-gp --bundle`).
    #[arg(long)]
    pub model: PathBuf,
    /// DICOM files or folders (searched recursively), or datasets written by `ich preprocess`
    /// (folders holding dataset.json).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output folder.
    #[arg(long)]
    pub out: PathBuf,
    /// A slice or scan is flagged positive when its probability is at least this.
    #[arg(long, default_value_t = 0.5)]
    pub positive_threshold: f64,
    /// A slice or scan is flagged uncertain when the standard deviation of its probability is at
    /// least this.
    #[arg(long, default_value_t = 0.1)]
    pub uncertain_sd: f64,
    /// Labels (labels.csv / slice_labels.csv of `ich synth`, or the RSNA csv) to report metrics;
    /// datasets bring their own labels. Repeatable.
    #[arg(long)]
    pub labels: Vec<PathBuf>,
    /// Put patient name and ID into the reports (left out by default).
    #[arg(long)]
    pub keep_phi: bool,
    /// Monte Carlo samples per scan for the probabilities and their standard deviations.
    #[arg(long, default_value_t = 1000)]
    pub samples: usize,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// No HTML pages (CSV and JSON only).
    #[arg(long)]
    pub no_html: bool,
    /// Where the CNN runs (`wgpu` and `ndarray` need the cargo feature of the same name).
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: DeviceArg,
}

/// Where a scan comes from.
enum Source<'a> {
    Dataset(&'a Dataset, usize),
    Dicom(Scan),
}

#[derive(Default)]
struct Timing {
    load: Duration,
    preprocess: Duration,
    cnn: Duration,
    gp: Duration,
    reports: Duration,
}

/// What `run` produced (for `ich demo`).
pub struct Outcome {
    pub index: PathBuf,
    pub report: Report,
}

pub fn run(a: Args, bars: &crate::progress::Bars) -> anyhow::Result<ExitCode> {
    predict(&a, bars)?;
    Ok(ExitCode::SUCCESS)
}

pub fn predict(a: &Args, bars: &crate::progress::Bars) -> anyhow::Result<Outcome> {
    if !(0.0..=1.0).contains(&a.positive_threshold) || a.uncertain_sd < 0.0 || a.samples == 0 {
        anyhow::bail!("--positive-threshold must be in [0, 1], --uncertain-sd ≥ 0, --samples ≥ 1");
    }
    let mut time = Timing::default();
    let t = Instant::now();
    let bundle = Bundle::open(&a.model)?;
    let gp = bundle.gp()?;
    let dev = device(a.device)?;
    let net = Trained::load(bundle.cnn.model.clone(), &bundle.weights(), &dev)?;
    time.load = t.elapsed();
    let cfg = bundle.manifest.preprocess.clone();

    let mut labels = Labels::default();
    for f in &a.labels {
        labels
            .load(f)
            .with_context(|| format!("reading labels {}", f.display()))?;
    }
    let (ds_paths, dicom_paths): (Vec<PathBuf>, Vec<PathBuf>) = a
        .inputs
        .iter()
        .cloned()
        .partition(|p| p.join("dataset.json").is_file());
    let mut datasets = Vec::new();
    for p in &ds_paths {
        let ds = Dataset::open(p)?;
        bundle.check_preprocess(p, &ds.manifest.config)?;
        datasets.push(ds);
    }
    let t = Instant::now();
    let (scans, skipped) = if dicom_paths.is_empty() {
        (Vec::new(), Skipped::default())
    } else {
        find_scans(&dicom_paths, bars)?
    };
    time.preprocess += t.elapsed();
    let mut work: Vec<Source> = Vec::new();
    for ds in &datasets {
        work.extend((0..ds.manifest.scans.len()).map(|i| Source::Dataset(ds, i)));
    }
    work.extend(scans.into_iter().map(Source::Dicom));
    if work.is_empty() {
        anyhow::bail!(
            "no CT scan found in {} (skipped: {:?})",
            a.inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            skipped.counts
        );
    }
    let dir = if a.no_html {
        a.out.clone()
    } else {
        a.out.join("scans")
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;

    let mut report = Report {
        format_version: REPORT_FORMAT,
        tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
        created: rfc3339(SystemTime::now()),
        model: ModelInfo {
            bundle: a.model.display().to_string(),
            created: bundle.manifest.created.clone(),
            gp_family: gp.link.name().to_string(),
            feature_dim: gp.d,
            image_size: cfg.size,
            bag_rule: format!("{:?}", gp.bag_rule),
        },
        thresholds: Thresholds {
            positive: a.positive_threshold,
            uncertain_sd: a.uncertain_sd,
        },
        scans: Vec::new(),
        metrics: None,
        skipped: Vec::new(),
    };
    let ctx = ScanContext {
        a,
        net: &net,
        gp: &gp,
        cfg: &cfg,
        labels: &labels,
        skipped: Mutex::new(skipped),
    };
    bars.stage("predicting scans", work.len() as u64);
    for src in &work {
        // a scan that cannot be read or predicted is reported and skipped; the rest go on
        match ctx.scan(src, &report, &mut time) {
            Ok(sr) => report.scans.push(sr),
            Err(e) => {
                tracing::warn!("skipped: {e:#}");
                report.skipped.push(format!("{e:#}"));
            }
        }
        bars.inc(1);
    }
    bars.done();
    let sk = ctx.skipped.into_inner().expect("no panic holding the lock");
    report.skipped.extend(sk.files);

    let t = Instant::now();
    // highest probability first (the order of the index page and the CSV files)
    report
        .scans
        .sort_by(|x, y| y.probability.total_cmp(&x.probability));
    report.metrics = metrics(&report.scans);
    write_atomic(&a.out.join("slices.csv"), slices_csv(&report).as_bytes())?;
    write_atomic(&a.out.join("scans.csv"), scans_csv(&report).as_bytes())?;
    write_atomic(
        &a.out.join("report.json"),
        &serde_json::to_vec_pretty(&report).context("serialising the report")?,
    )?;
    let index = a.out.join("index.html");
    if !a.no_html {
        write_atomic(&index, index_page(&report).as_bytes())?;
    }
    time.reports += t.elapsed();

    print_summary(&report, &time, a);
    if !a.no_html {
        println!("index: {}", index.display());
    }
    Ok(Outcome { index, report })
}

/// What every scan's prediction needs.
struct ScanContext<'a> {
    a: &'a Args,
    net: &'a Trained,
    gp: &'a GpModel,
    cfg: &'a PreprocessConfig,
    labels: &'a Labels,
    /// Slices that failed to decode (their scans go on without them).
    skipped: Mutex<Skipped>,
}

impl ScanContext<'_> {
    /// Loads (or decodes) one scan, runs the CNN and the GP head, writes its page; `head` gives
    /// the page its model and thresholds.
    fn scan(&self, src: &Source, head: &Report, time: &mut Timing) -> anyhow::Result<ScanReport> {
        let (a, gp, thr) = (self.a, self.gp, &head.thresholds);
        let t = Instant::now();
        let (mut meta, pixels) = match src {
            Source::Dataset(ds, i) => {
                let e = &ds.manifest.scans[*i];
                (ds.scan_meta(e)?, ds.scan_pixels(e)?.data)
            }
            Source::Dicom(scan) => decode_scan(
                scan,
                self.cfg,
                a.keep_phi,
                &preprocess::Quiet,
                &self.skipped,
            )
            .with_context(|| format!("scan {}", scan.id))?,
        };
        if !self.labels.is_empty() {
            apply_labels(&mut meta, self.labels);
        }
        time.preprocess += t.elapsed();

        let t = Instant::now();
        let n = meta.n_slices;
        anyhow::ensure!(
            meta.slices.len() == n,
            "scan {}: {} slice records for {n} slices",
            meta.id,
            meta.slices.len()
        );
        let cnn = self
            .net
            .scan(n, &pixels)
            .with_context(|| format!("scan {}: CNN", meta.id))?;
        time.cnn += t.elapsed();

        let t = Instant::now();
        let x: Vec<f64> = cnn
            .features
            .iter()
            .flat_map(|f| f.iter().map(|&v| v as f64))
            .collect();
        let data = MilData::from_instances(
            gp.d,
            x,
            vec![meta.id.clone(); n],
            vec![meta.label.unwrap_or(0); n],
            None,
            meta.slices
                .iter()
                .map(|s| s.sop_instance_uid.clone())
                .collect(),
        )
        .with_context(|| format!("scan {}: features", meta.id))?;
        let pred = gp
            .predict(&data, a.samples, a.seed ^ fnv1a(&meta.id))
            .with_context(|| format!("scan {}: GP head", meta.id))?;
        time.gp += t.elapsed();

        let t = Instant::now();
        let slices: Vec<SliceReport> = meta
            .slices
            .iter()
            .zip(&pred.instances)
            .zip(&cnn.attention)
            .enumerate()
            .map(|(i, ((s, p), &att))| SliceReport {
                index: i,
                sop_instance_uid: s.sop_instance_uid.clone(),
                z: s.z,
                probability: p.mean,
                sd: p.sd,
                positive: p.mean >= thr.positive,
                uncertain: p.sd >= thr.uncertain_sd,
                attention: att as f64,
                label: s.label,
            })
            .collect();
        let bag = &pred.bags[0];
        let (p, sd) = (bag.mean(gp.bag_rule), bag.sd(gp.bag_rule));
        let sr = ScanReport {
            n_slices: n,
            probability: p,
            sd,
            positive: p >= thr.positive,
            uncertain: sd >= thr.uncertain_sd,
            cnn_probability: cnn.probability,
            positive_slices: slices.iter().filter(|s| s.positive).count(),
            uncertain_slices: slices.iter().filter(|s| s.uncertain).count(),
            label: meta.label,
            patient_name: meta.patient_name.filter(|_| a.keep_phi),
            patient_id: meta.patient_id.filter(|_| a.keep_phi),
            warnings: meta.warnings,
            page: (!a.no_html).then(|| format!("scans/{}.html", meta.id)),
            id: meta.id,
            slices,
        };
        // the page now, so that no scan's thumbnails stay in memory
        if let Some(page) = &sr.page {
            let size = self.cfg.size;
            let per = 3 * size * size;
            let thumbs = pixels
                .chunks(per)
                .map(|slice| png_data_uri(&slice[..size * size], size, size))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let html = scan_page(head, &sr, &thumbs, size.clamp(96, 192));
            write_atomic(&a.out.join(page), html.as_bytes())?;
        }
        time.reports += t.elapsed();
        Ok(sr)
    }
}

/// A scan's Monte Carlo seed depends on its id, not on the order the inputs came in.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn metrics(scans: &[ScanReport]) -> Option<ReportMetrics> {
    let labelled: Vec<&ScanReport> = scans.iter().filter(|s| s.label.is_some()).collect();
    if labelled.is_empty() {
        return None;
    }
    let y: Vec<u8> = labelled.iter().map(|s| s.label.unwrap_or(0)).collect();
    let p: Vec<f64> = labelled.iter().map(|s| s.probability).collect();
    let c: Vec<f64> = labelled.iter().map(|s| s.cnn_probability).collect();
    let (mut sy, mut sp) = (Vec::new(), Vec::new());
    for s in scans {
        for sl in &s.slices {
            if let Some(l) = sl.label {
                sy.push(l);
                sp.push(sl.probability);
            }
        }
    }
    Some(ReportMetrics {
        scans: y.len(),
        scan: Metrics::compute(&y, &p),
        slice: (!sy.is_empty()).then(|| Metrics::compute(&sy, &sp)),
        slices: sy.len(),
        cnn_scan: Metrics::compute(&y, &c),
        reliability: reliability(&y, &p, 10),
    })
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// `slices.csv`: a row per slice, scans in report order, slices in z order.
pub fn slices_csv(r: &Report) -> String {
    let mut s = String::from(
        "scan_id,slice_index,sop_instance_uid,z,probability,sd,positive,uncertain,cnn_attention,label\n",
    );
    for sc in &r.scans {
        for sl in &sc.slices {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{}",
                sc.id,
                sl.index,
                sl.sop_instance_uid,
                opt(sl.z),
                sl.probability,
                sl.sd,
                u8::from(sl.positive),
                u8::from(sl.uncertain),
                sl.attention,
                opt(sl.label)
            );
        }
    }
    s
}

/// `scans.csv`: a row per scan, highest probability first.
pub fn scans_csv(r: &Report) -> String {
    let mut s = String::from(
        "scan_id,n_slices,probability,sd,positive,uncertain,cnn_probability,positive_slices,uncertain_slices,label\n",
    );
    for sc in &r.scans {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{}",
            sc.id,
            sc.n_slices,
            sc.probability,
            sc.sd,
            u8::from(sc.positive),
            u8::from(sc.uncertain),
            sc.cnn_probability,
            sc.positive_slices,
            sc.uncertain_slices,
            opt(sc.label)
        );
    }
    s
}

fn print_summary(r: &Report, t: &Timing, a: &Args) {
    let pos = r.scans.iter().filter(|s| s.positive).count();
    let unc = r.scans.iter().filter(|s| s.uncertain).count();
    let slices: usize = r.scans.iter().map(|s| s.n_slices).sum();
    println!(
        "{} scans ({slices} slices): {pos} positive, {unc} uncertain; {} skipped input(s)",
        r.scans.len(),
        r.skipped.len()
    );
    if let Some(m) = &r.metrics {
        let f = |v: Option<f64>| v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "–".into());
        println!(
            "scan AUC {} (CNN alone {}), accuracy {:.3}, F1 {:.3}, log-likelihood {:.4} on {} labelled scans",
            f(m.scan.auc),
            f(m.cnn_scan.auc),
            m.scan.accuracy,
            m.scan.f1,
            m.scan.log_likelihood,
            m.scans
        );
        if let Some(s) = &m.slice {
            println!(
                "slice AUC {}, accuracy {:.3}, F1 {:.3} on {} labelled slices",
                f(s.auc),
                s.accuracy,
                s.f1,
                m.slices
            );
        }
    }
    println!(
        "time: model load {:.2} s; preprocess {:.2} s, CNN {:.2} s, GP head {:.2} s, reports {:.2} s (total {:.2} s without load)",
        t.load.as_secs_f64(),
        t.preprocess.as_secs_f64(),
        t.cnn.as_secs_f64(),
        t.gp.as_secs_f64(),
        t.reports.as_secs_f64(),
        (t.preprocess + t.cnn + t.gp + t.reports).as_secs_f64()
    );
    println!(
        "reports: {}, {}, {}",
        a.out.join("slices.csv").display(),
        a.out.join("scans.csv").display(),
        a.out.join("report.json").display()
    );
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn fnv1a_of_published_vectors() {
        // FNV-1a 64-bit test vectors (Fowler, Noll, Vo)
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a("foobar"), 0x85944171f73967e8);
    }
}
