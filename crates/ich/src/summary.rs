//! What each job did, as the lines a person reads: the terminal text of every command, kept in
//! the binary (the libraries return outcomes and know nothing of a terminal). Each function turns
//! a job's outcome into text (no trailing newline) or a verdict; only `warn_backwards` logs.

use std::fmt::Write as _;
use std::path::Path;

use gphead::calibrate::Platt;
use gphead::evaluation::{EvalReport, SummaryRow};

use detect::pipeline::fit::{FitData, Fitted};
use detect::pipeline::import::{ImportJob, ImportOutcome};
use detect::pipeline::predict::{Outcome, PredictJob};
use detect::pipeline::train::{TrainPlan, Trained};
use detect::report::{REPORT_JSON, SCANS_CSV, SLICES_CSV};
use detect::site::adapt::{Adapted, Figures};
use detect::site::recalibrate::Recalibrated;
use pacs::SendReport;

/// `v` with 4 decimals, or `–`.
pub fn opt4(v: Option<f64>) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{x:.4}"))
}

/// `v` with 3 decimals, or `–`.
fn opt3(v: Option<f64>) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{x:.3}"))
}

/// A calibration map's family and parameters.
pub fn calibration_map(m: &Platt) -> String {
    match m.c {
        None => format!("Platt a = {:.3}, b = {:.3}", m.a, m.b),
        Some(c) => format!("beta a = {:.3}, c = {c:.3}, b = {:.3}", m.a, m.b),
    }
}

/// A calibration map's pull toward the identity (`None` is infinite: the identity).
pub fn pull(strength: Option<f64>) -> String {
    strength.map_or_else(|| "∞".to_string(), |s| format!("{s}"))
}

/// A head that ranks its validation bags worse than chance is a bad fixed point of the fit (e.g.
/// G-VGPMIL with α = 0.5, whose first update can send every latent negative) or chance on a few
/// validation bags: says so in the log.
pub fn warn_backwards(what: &str, auc: f64) {
    tracing::warn!(
        "{what} ranks its validation bags worse than chance (AUC {auc:.4} < 0.5): look at it before trusting its figures (a bad fixed point of the fit, or chance on few bags); another model, α/β or seed may fit"
    );
}

/// The data of a GP fit, before it starts.
pub fn fit_plan(features: &Path, d: &FitData) -> String {
    format!(
        "{}: {} bags ({} positive), {} instances, {} features; training on {} bags, validating on {}",
        features.display(),
        d.bags,
        d.positive_bags,
        d.instances,
        d.dim,
        d.train_bags,
        d.valid_bags
    )
}

/// What a GP fit did (`ich fit-gp`, `ich demo`); warns when the head ranks backwards.
pub fn fitted(f: &Fitted) -> String {
    let model = f.model();
    let mut s = String::new();
    if let Some(p) = &f.projection {
        let _ = writeln!(
            s,
            "projection: PCA {} → {} features, fitted on {} training instances, keeping {:.1} % of their variance",
            p.d,
            p.k,
            p.fitted_on,
            100.0 * p.explained()
        );
    }
    let _ = write!(
        s,
        "{}: M = {}, {} epochs (best {}), set-up {:.2} s, total {:.2} s",
        model.model.name(),
        model.m(),
        f.output.trace.len(),
        f.output.best_epoch,
        f.output.setup_seconds,
        f.seconds
    );
    if let Some(dr) = &model.draws {
        let d = &dr.diagnostics;
        let _ = write!(
            s,
            "\nGibbs: {} chains × {} draws in {:.1} s, max split-R̂ {:.3}, min ESS {:.0}",
            d.chains, d.draws_per_chain, d.seconds, d.r_hat_max, d.ess_min
        );
    }
    if let Some(v) = &f.validation {
        if v.bags == 0 {
            s.push_str(
                "\nvalidation bags: none held out (too few bags for the validation fraction), so no held-out figures",
            );
        } else {
            let _ = write!(
                s,
                "\nvalidation bags: AUC {:.4}, log-likelihood {:.4}, ECE {:.4}",
                v.auc.unwrap_or(f64::NAN),
                v.log_likelihood,
                v.ece
            );
            if let Some(auc) = v.auc.filter(|&a| a < 0.5) {
                warn_backwards("the fitted head", auc);
            }
        }
        if let Some((c, ll, e)) = &v.platt {
            let _ = write!(
                s,
                "\ncalibration map ({}, fitted on {}; pull toward the identity {} by cross-validation)",
                calibration_map(c),
                match (v.calibration_folds >= 2, v.bags) {
                    (true, _) => format!("{}-fold out-of-fold draws of every bag", v.calibration_folds),
                    (false, 0) => "the held-out bags, of which there are none".to_string(),
                    (false, _) => "the held-out bags".to_string(),
                },
                pull(v.calibration_strength),
            );
            if v.bags > 0 {
                let _ = write!(
                    s,
                    ": held-out bags' log-likelihood {:.4} → {ll:.4}, ECE {:.4} → {e:.4}",
                    v.log_likelihood, v.ece
                );
            }
        }
    }
    for t in &f.subtypes {
        match (&t.validation, &t.skipped) {
            (Some(v), _) => {
                let _ = write!(
                    s,
                    "
subtype {}: {} of {} scans; validation bags: AUC {:.4}, ECE {:.4}{}",
                    t.name,
                    t.positive,
                    t.scans,
                    v.auc.unwrap_or(f64::NAN),
                    v.ece,
                    match &v.platt {
                        Some((_, _, e)) => format!(" ({e:.4} calibrated)"),
                        None => String::new(),
                    }
                );
            }
            (None, Some(why)) => {
                let _ = write!(
                    s,
                    "
subtype {}: no head ({why})",
                    t.name
                );
            }
            (None, None) => {}
        }
    }
    s
}

/// The evaluation protocol's splits and its table of mean ± std (`ich eval-gp`); warns for each
/// split whose chosen head ranks backwards.
pub fn evaluated(report: &EvalReport, rows: &[SummaryRow]) -> String {
    let mut out = String::new();
    for s in &report.splits {
        if let Some(auc) = s.valid_bag_auc.filter(|&a| a < 0.5) {
            warn_backwards(&format!("split {}'s chosen head", s.split), auc);
        }
        let _ = writeln!(
            out,
            "  split {}: chose M = {}, {}{} (validation bag AUC {}), {} epochs{}, {:.2} s; calibration {} (pull toward the identity {})",
            s.split,
            s.inducing,
            s.model.name(),
            [("l", s.start_lengthscale), ("v", s.start_variance)]
                .iter()
                .filter_map(|(n, x)| x.map(|x| format!(", starting {n} = {x}")))
                .collect::<String>(),
            opt4(s.valid_bag_auc),
            s.epochs,
            s.kernel
                .map(|k| format!(", kernel v = {:.3}, l = {:.3}", k.variance, k.lengthscale))
                .unwrap_or_default(),
            s.fit_seconds,
            calibration_map(&s.calibration),
            pull(s.calibration_strength)
        );
    }
    let _ = write!(out, "{:<10} {:<24} {:>18}", "set", "metric", "mean ± std");
    for r in rows {
        let _ = write!(
            out,
            "\n{:<10} {:<24} {:>9.4} ± {:<7.4}",
            r.set, r.metric, r.mean, r.std
        );
    }
    out
}

/// A site's recalibration (`ich recalibrate`): its figures with the bundle's map and the new
/// one's, cross-fitted, and what became of the bundle.
pub fn recalibrated(r: &Recalibrated, features: &Path, bundle: &Path, dry_run: bool) -> String {
    let s = &r.site;
    let line = |what: &str, f: &gphead::metrics::Metrics| {
        format!(
            "  {what:<34} scan ECE {:.4} (floor {:.4}, p {}), log-lik {:.4}, AUC {}",
            f.ece,
            f.ece_floor,
            opt4(f.ece_p_value),
            f.log_likelihood,
            opt4(f.auc)
        )
    };
    let whereto = if dry_run {
        format!("not written (--dry-run): {} unchanged", bundle.display())
    } else {
        format!("written into {}", bundle.display())
    };
    let map = match s.strength {
        Some(_) => format!(
            "map: {} (pull toward the bundle's own map {}); {whereto}",
            calibration_map(&s.map),
            pull(s.strength),
        ),
        None => format!(
            "map: the bundle's own map kept ({}): the site's scans do not show a better one; {whereto}",
            calibration_map(&s.map),
        ),
    };
    [
        format!(
            "{}: {} scans ({} positive)",
            features.display(),
            s.scans,
            s.positive
        ),
        line("with the bundle's map", &s.before),
        line(
            &format!("new map, {}-fold cross-fitted", s.folds),
            &s.cross_fitted,
        ),
        map,
    ]
    .into_iter()
    .chain(r.subtypes.iter().map(|t| match &t.outcome {
        detect::site::recalibrate::SubtypeOutcome::Recalibrated(s) => format!(
            "subtype {}: {} scans ({} with it); scan ECE {:.4} with the bundle's map, {:.4} new map cross-fitted; map {}",
            t.name,
            s.scans,
            s.positive,
            s.before.ece,
            s.cross_fitted.ece,
            calibration_map(&s.map)
        ),
        detect::site::recalibrate::SubtypeOutcome::Kept(why) => {
            format!("subtype {}: not recalibrated: {why}", t.name)
        }
    }))
    .collect::<Vec<_>>()
    .join("\n")
}

/// What preprocessing did (`ich preprocess`): scans written, resumed, kept and failed, the files
/// skipped by reason, the first 20 warnings and where the dataset is.
pub fn preprocessed(s: &preprocess::Summary, secs: f64) -> String {
    let mut out = format!(
        "{} scan(s) written, {} already done (resumed), {} kept from earlier runs, {} failed; {} slices in {secs:.1} s",
        s.scans_written,
        s.scans_resumed,
        s.scans_kept,
        s.scans_failed.len(),
        s.slices
    );
    let skipped: usize = s.skipped.counts.values().sum();
    if skipped > 0 {
        let _ = write!(out, "\n{skipped} file(s) skipped:");
        for (reason, n) in &s.skipped.counts {
            let _ = write!(out, "\n  {n:>6}  {reason}");
        }
    }
    if !s.warnings.is_empty() {
        let _ = write!(out, "\n{} warning(s):", s.warnings.len());
        for (id, w) in s.warnings.iter().take(20) {
            let _ = write!(out, "\n  {id}: {w}");
        }
        if s.warnings.len() > 20 {
            out += "\n  … see the scans' JSON files";
        }
    }
    for f in &s.scans_failed {
        let _ = write!(out, "\n  failed: {f}");
    }
    let _ = write!(out, "\ndataset: {}", s.manifest.display());
    out
}

/// What CNN training is about to do.
pub fn train_plan(p: &TrainPlan) -> String {
    let (blocks, s) = p.model.geometry();
    format!(
        "training on {} scans, validating on {}; {}² input, {} conv blocks ({s}×{s} before Dense({})); {}",
        p.train_scans,
        p.valid_scans,
        p.model.size,
        blocks + 1,
        p.model.dim,
        if p.model.subtypes > 0 {
            format!(
                "outputs: any and {} subtypes ({}), one shared attention",
                p.model.subtypes,
                detect::features::SUBTYPES.join(", ")
            )
        } else {
            "output: any".to_string()
        }
    )
}

/// What CNN training did (`ich train-cnn`, `ich demo`).
pub fn trained(t: &Trained, bundle: &Path) -> String {
    let out = &t.outcome;
    let mut s = String::new();
    if let Some(e) = out.resumed_from {
        let _ = writeln!(s, "resumed after epoch {e}");
    }
    let best = out.log.iter().find(|l| l.epoch == out.best_epoch);
    let _ = write!(
        s,
        "best epoch {} (valid loss {:.4}, AUC {}); weights {}\nbundle: {} (add the GP head with `ich fit-gp --bundle {}`)",
        out.best_epoch,
        best.map(|b| b.valid_loss).unwrap_or(f64::NAN),
        opt4(best.and_then(|b| b.valid_auc)),
        detect::bundle::training_paths(bundle).weights.display(),
        bundle.join(detect::bundle::MANIFEST).display(),
        bundle.display()
    );
    s
}

/// What a prediction did (`ich predict`, `ich demo`): scans, flags, metrics on labelled scans,
/// time and where the reports are.
pub fn prediction(o: &Outcome, out: &Path, html: bool) -> String {
    let (r, t) = (&o.report, &o.timing);
    let pos = r.scans.iter().filter(|s| s.positive).count();
    let unc = r.scans.iter().filter(|s| s.uncertain).count();
    let slices: usize = r.scans.iter().map(|s| s.n_slices).sum();
    // scans checked against the bundle's training slices, and those flagged outside them
    let checked: Vec<bool> = r
        .scans
        .iter()
        .filter_map(|s| s.out_of_distribution.map(|o| o.flagged))
        .collect();
    let ood = if checked.is_empty() {
        String::new()
    } else {
        format!(
            ", {} out of distribution",
            checked.iter().filter(|&&f| f).count()
        )
    };
    let mut s = format!(
        "{} scans ({slices} slices): {pos} positive, {unc} uncertain{ood}; {} skipped input(s)",
        r.scans.len(),
        r.skipped.len()
    );
    if let Some(w) = r.model.uncalibrated_warning() {
        let _ = write!(s, "\nWARNING: {w}");
    }
    if let Some(op) = &r.model.operating_point {
        let _ = write!(s, "\ncalls at the site's operating point: {}", op.text());
    }
    for w in &r.warnings {
        let _ = write!(s, "\nWARNING: {w}");
    }
    if r.model.subtypes.is_empty() {
        s.push_str(
            "
subtypes: not available (the bundle has no subtype heads)",
        );
    } else {
        let _ = write!(
            s,
            "
subtypes: {} (each scan's and slice's probability in scans.csv, slices.csv and report.json)",
            r.model.subtypes.join(", ")
        );
    }
    if let Some(m) = &r.metrics {
        let _ = write!(
            s,
            "\nscan AUC {} (CNN alone {}), accuracy {:.3}, F1 {:.3}, log-likelihood {:.4}, ECE {:.3} (floor {:.3}, p {}) on {} labelled scans",
            opt3(m.scan.auc),
            opt3(m.cnn_scan.auc),
            m.scan.accuracy,
            m.scan.f1,
            m.scan.log_likelihood,
            m.scan.ece,
            m.scan.ece_floor,
            opt3(m.scan.ece_p_value),
            m.scans
        );
        if let Some(sl) = &m.slice {
            let _ = write!(
                s,
                "\nslice AUC {}, accuracy {:.3}, F1 {:.3}, log-likelihood {:.4}, ECE {:.3} (floor {:.3}, p {}) on {} labelled slices",
                opt3(sl.auc),
                sl.accuracy,
                sl.f1,
                sl.log_likelihood,
                sl.ece,
                sl.ece_floor,
                opt3(sl.ece_p_value),
                m.slices
            );
        }
    }
    let _ = write!(
        s,
        "\ntime: model load {:.2} s; preprocess {:.2} s, CNN {:.2} s, GP head {:.2} s, reports {:.2} s (total {:.2} s without load)\nreports: {}, {}, {}",
        t.load.as_secs_f64(),
        t.preprocess.as_secs_f64(),
        t.cnn.as_secs_f64(),
        t.gp.as_secs_f64(),
        t.reports.as_secs_f64(),
        (t.preprocess + t.cnn + t.gp + t.reports).as_secs_f64(),
        out.join(SLICES_CSV).display(),
        out.join(SCANS_CSV).display(),
        out.join(REPORT_JSON).display()
    );
    if html {
        let _ = write!(s, "\nindex: {}", o.index.display());
    }
    s
}

/// What adapting a bundle to a site did (`ich adapt`): the cross-validated figures of the
/// adapted head beside the network's, the fine-tuning, the learning curve and the choice.
pub fn adapted(r: &Adapted, out: &Path) -> String {
    let rep = &r.report;
    let line = |what: &str, f: &Figures| {
        let sl = f.slice.as_ref();
        format!(
            "\n  {what:<24} scan AUC {} ECE {:.3} (floor {:.3}, p {}) log-lik {:.3} | slice AUC {} ECE {} log-lik {}{}",
            opt4(f.scan.auc),
            f.scan.ece,
            f.scan.ece_floor,
            opt4(f.scan.ece_p_value),
            f.scan.log_likelihood,
            opt4(sl.and_then(|m| m.auc)),
            opt4(sl.map(|m| m.ece)),
            opt4(sl.map(|m| m.log_likelihood)),
            match (f.uncertain_scans, f.uncertain_slices) {
                (Some(a), Some(b)) => format!(" | uncertain {a} scans, {b} slices"),
                _ => String::new(),
            }
        )
    };
    let mut s = format!(
        "{} site scans ({} positive), {} slices ({} labelled); {}-fold nested cross-validation",
        rep.scans, rep.positive_scans, rep.slices, rep.labelled_slices, rep.folds
    );
    s += &line("adapted head", &rep.head);
    s += &line("network alone", &rep.cnn);
    s += &line("network + site maps", &rep.cnn_platt);
    if let Some(f) = &rep.fine_tune {
        s += &line("head, network as it came", &f.plain_head);
        s += &line("head, fine-tuned network", &f.head);
        s += &line("fine-tuned network alone", &f.cnn);
        let _ = write!(
            s,
            "\nfine-tuning {} (cross-validated scan log-likelihood {:.3} against {:.3} without)",
            if f.kept { "kept" } else { "not kept" },
            f.head.scan.log_likelihood,
            f.plain_head.scan.log_likelihood
        );
    }
    for c in &rep.learning_curve {
        s += &line(&format!("head on {} scans", c.scans), &c.head);
    }
    for d in &rep.comparison {
        let _ = write!(
            s,
            "\nshipped − network, {}: {:+.3} (se {:.3}, 95 % {:+.3} to {:+.3})",
            d.what, d.difference, d.se, d.interval[0], d.interval[1]
        );
    }
    let o = &rep.ood_flags;
    let _ = write!(
        s,
        "\nout of distribution, held-out site scans: {} of {} positive, {} of {} negative flagged",
        o.positive_flagged, o.positive, o.negative_flagged, o.negative
    );
    let _ = write!(
        s,
        "\nchosen per fold: {}\nadapted bundle {} (head on {}); report {}",
        rep.chosen_per_fold.join(", "),
        out.display(),
        rep.chosen,
        out.join(detect::bundle::ADAPT_HTML).display()
    );
    s
}

/// What importing published weights wrote (`ich import`).
pub fn imported(o: &ImportOutcome, job: &ImportJob) -> String {
    let m = &o.manifest;
    let imp = m.cnn.imported.as_ref();
    let mut s = format!(
        "{}: {} variables read, every CRC32C checked; {} model tensors imported\nbundle {}: {} — {} features per slice at {}², bags padded to {}\npreprocessing: windows {} at {}² (preprocess datasets for it with `ich preprocess --preset sa-dmil`)",
        job.checkpoint.display(),
        o.variables,
        o.model_variables,
        job.out.display(),
        imp.map_or("", |i| i.name.as_str()),
        m.cnn.dim,
        m.cnn.size,
        if job.pad {
            "57 slices"
        } else {
            "no length (off)"
        },
        m.preprocess
            .windows
            .0
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        m.preprocess.size
    );
    if let Some(i) = imp {
        let _ = write!(s, "\nlicence: {}", i.licence);
    }
    s
}

/// What `ich synth` wrote: scans, positives and where the labels are.
pub fn synthesized(scans: &[preprocess::synth::SynthScan], slices: usize, out: &Path) -> String {
    let pos = scans.iter().filter(|s| s.label == 1).count();
    let pos_slices: usize = scans.iter().map(|s| s.positive_slices).sum();
    format!(
        "wrote {} scans ({pos} positive, {pos_slices} positive slices of {}) to {}\nlabels: {}\nslice labels: {}",
        scans.len(),
        scans.len() * slices,
        out.display(),
        out.join("labels.csv").display(),
        out.join("slice_labels.csv").display()
    )
}

/// Where `ich fit-gp` put the head: its file and trace, or the bundle.
pub fn fit_outputs(out: Option<&Path>, bundle: Option<&Path>) -> String {
    let mut s = Vec::new();
    if let Some(out) = out {
        s.push(format!("model: {}", out.display()));
        s.push(format!("trace: {}.trace.csv", out.display()));
    }
    if let Some(b) = bundle {
        s.push(format!(
            "bundle: {} now holds the GP head ({})",
            b.display(),
            detect::bundle::GP_MODEL
        ));
    }
    s.join("\n")
}

/// The end of `ich demo`: the held-out prediction, the time and the page to open.
pub fn demo_done(o: &Outcome, out: &Path, secs: f64) -> String {
    let mut s = prediction(o, &out.join("report"), true);
    let _ = write!(
        s,
        "\n\ndemo done in {secs:.0} s: open {}",
        o.index.display()
    );
    if !o.dicom_files.is_empty() {
        let _ = write!(
            s,
            "\nDICOM results ({} files: a Structured Report and Secondary Captures per scan, for a \
             PACS or any DICOM viewer): {}",
            o.dicom_files.len(),
            out.join("report").join("dicom").display()
        );
    }
    if let Some(m) = &o.report.metrics {
        let _ = write!(
            s,
            "\nheld-out scans: AUC {} (GP), {} (CNN alone)",
            opt3(m.scan.auc),
            opt3(m.cnn_scan.auc)
        );
    }
    s
}

/// How a command ends: what it prints on standard output, on standard error, and its exit code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}

impl Verdict {
    fn out(&mut self, line: impl AsRef<str>) {
        self.stdout += line.as_ref();
        self.stdout.push('\n');
    }
    fn err(&mut self, line: impl AsRef<str>) {
        self.stderr += line.as_ref();
        self.stderr.push('\n');
    }
    /// Prints both parts (standard output first).
    pub fn print(&self) {
        print!("{}", self.stdout);
        eprint!("{}", self.stderr);
    }
}

/// What each send did (`ich send`, `ich predict --send`): a line per destination, the files a
/// destination did not store (the first 10) and how to send them again; exit code 1 when
/// something was not stored.
pub fn sent(sent: &[SendReport], retry_hint: &str) -> Verdict {
    let mut v = Verdict::default();
    for r in sent {
        if r.failed.is_empty() {
            v.out(format!(
                "sent {} object(s) to {} ({} attempt(s))",
                r.sent, r.destination, r.attempts
            ));
            continue;
        }
        v.code = 1;
        v.err(format!(
            "error: {} of {} object(s) not stored by {} after {} attempt(s):",
            r.failed.len(),
            r.failed.len() + r.sent,
            r.destination,
            r.attempts
        ));
        for f in r.failed.iter().take(10) {
            v.err(format!("  {f}"));
        }
        if r.failed.len() > 10 {
            v.err(format!("  … and {} more", r.failed.len() - 10));
        }
        v.err(format!(
            "the files are kept; send them again with: {retry_hint}"
        ));
    }
    v
}

/// How `ich preprocess` ends: 2 when no scan is in the dataset, 1 when some scans failed (0 with
/// `keep_going`).
pub fn preprocess_verdict(s: &preprocess::Summary, secs: f64, keep_going: bool) -> Verdict {
    let mut v = Verdict::default();
    v.out(preprocessed(s, secs));
    let done = s.scans_written + s.scans_resumed;
    if done == 0 && s.scans_failed.is_empty() && s.other_shards > 0 {
        // a shard of a small cohort may hold none of its scans: its dataset is empty, and the
        // task of a job array that made it succeeds (the merge joins it)
        v.out(format!(
            "this shard holds none of the cohort's scans ({} slice file(s) are other shards'):              its dataset is empty",
            s.other_shards
        ));
    } else if done == 0 {
        v.err("error: no CT scan could be preprocessed");
        v.code = 2;
    } else if !s.scans_failed.is_empty() && !keep_going {
        v.err(format!(
            "error: {} of {} scans failed (listed above; the dataset holds the others; \
             --keep-going exits 0)",
            s.scans_failed.len(),
            s.scans_failed.len() + done
        ));
        v.code = 1;
    }
    v
}

/// How `ich predict` ends: the summary, the DICOM results and what was sent; exit code 1 when no
/// scan was processed, when something was not sent, or (without `keep_going`) when a scan or
/// its DICOM results failed.
pub fn predict_verdict(o: &Outcome, job: &PredictJob, keep_going: bool) -> Verdict {
    let mut v = Verdict::default();
    v.out(prediction(o, &job.out, job.html));
    let dicom_dir = job.out.join(detect::report::dicomout::DICOM_DIR);
    if !o.dicom_files.is_empty() {
        v.out(format!(
            "DICOM results: {} object(s) (Structured Reports and Secondary Captures) in {}",
            o.dicom_files.len(),
            dicom_dir.display()
        ));
    }
    if !job.pacs.send.is_empty() && o.dicom_files.is_empty() {
        v.err("warning: nothing was sent: no scan got DICOM results (only scans read from DICOM files with valid UIDs do; see the warnings in report.json)");
    }
    let s = sent(&o.sent, &format!("ich send {} --to …", dicom_dir.display()));
    v.stdout += &s.stdout;
    v.stderr += &s.stderr;
    let mut ok = s.code == 0;
    for f in &o.dicom_failed {
        v.err(format!("error: {f}"));
    }
    ok &= o.dicom_failed.is_empty() || keep_going;
    if !o.failed.is_empty() {
        v.err(format!(
            "{} scan(s) could not be processed:",
            o.failed.len()
        ));
        for f in &o.failed {
            v.err(format!("  {f}"));
        }
        if o.report.scans.is_empty() {
            v.err("error: no scan could be processed");
            ok = false;
        } else if !keep_going {
            v.err(format!(
                "error: {} of {} scans failed (the reports hold the others; --keep-going exits 0)",
                o.failed.len(),
                o.failed.len() + o.report.scans.len()
            ));
            ok = false;
        }
    }
    v.code = u8::from(!ok);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use attcnn::training::EpochLog;

    #[test]
    fn maps_pulls_and_epochs_read_as_printed() {
        let platt = Platt {
            a: 1.23456,
            b: -0.5,
            c: None,
        };
        assert_eq!(calibration_map(&platt), "Platt a = 1.235, b = -0.500");
        let beta = Platt {
            c: Some(2.0),
            ..platt
        };
        assert_eq!(
            calibration_map(&beta),
            "beta a = 1.235, c = 2.000, b = -0.500"
        );
        assert_eq!(pull(None), "∞");
        assert_eq!(pull(Some(4.0)), "4");
        assert_eq!(opt4(None), "–");
        assert_eq!(opt4(Some(0.5)), "0.5000");
        let l = EpochLog {
            epoch: 3,
            epochs: 18,
            train_loss: 0.5,
            valid_loss: 0.25,
            valid_auc: None,
            seconds: 1.26,
        };
        // counted from 1 for a reader: the fourth of 18
        assert_eq!(
            detect::progress::epoch(&l),
            "epoch   4 of 18: train loss 0.5000, valid loss 0.2500, valid AUC –, 1.3 s"
        );
    }

    #[test]
    fn exit_codes_follow_what_failed() {
        let ok = SendReport {
            destination: "PACS@h:104".into(),
            sent: 3,
            failed: vec![],
            attempts: 1,
        };
        let bad = SendReport {
            destination: "http://w/dicom-web".into(),
            sent: 1,
            failed: (0..12).map(|i| format!("f{i}.dcm: refused")).collect(),
            attempts: 4,
        };
        let v = sent(std::slice::from_ref(&ok), "ich send D --to …");
        assert_eq!(
            (v.stdout.as_str(), v.stderr.as_str(), v.code),
            ("sent 3 object(s) to PACS@h:104 (1 attempt(s))\n", "", 0)
        );
        let v = sent(&[ok, bad], "ich send D --to …");
        assert_eq!(v.code, 1);
        let err: Vec<&str> = v.stderr.lines().collect();
        assert_eq!(
            err[0],
            "error: 12 of 13 object(s) not stored by http://w/dicom-web after 4 attempt(s):"
        );
        // ten named, the rest counted, then the way to retry
        assert_eq!(err[10], "  f9.dcm: refused");
        assert_eq!(err[11], "  … and 2 more");
        assert_eq!(
            err[12],
            "the files are kept; send them again with: ich send D --to …"
        );

        let mut s = preprocess::Summary::default();
        assert_eq!(preprocess_verdict(&s, 1.0, true).code, 2);
        s.scans_resumed = 1;
        assert_eq!(preprocess_verdict(&s, 1.0, false).code, 0);
        s.scans_failed.push("a: broken".into());
        let v = preprocess_verdict(&s, 1.0, false);
        assert_eq!(v.code, 1);
        assert!(v.stderr.contains("1 of 2 scans failed"), "{}", v.stderr);
        assert_eq!(preprocess_verdict(&s, 1.0, true).code, 0);
    }
}
