//! `ich fit-gp`

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use gphead::calibrate::Platt;
use gphead::metrics::{ece, log_likelihood};
use gphead::protocol::stratified_holdout;
use gphead::{fit, MilData};

use super::gpargs::{ModelArgs, ModelKind, TrainArgs};
use crate::bundle::{sha256_file, Bundle, DataSummary, GpPart, GpValidation, GP_MODEL, GP_TRACE};

/// Fit a sparse Gaussian-process MIL head (VGPMIL or G-VGPMIL) on a feature table, holding out
/// part of the bags for early stopping, and save the model (a file, or into a model bundle).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Feature table: the project's features CSV, an ich-features CSV, or a MIL benchmark CSV.
    #[arg(long)]
    features: PathBuf,
    /// Model family.
    #[arg(long, value_enum, default_value = "g-vgpmil")]
    model: ModelKind,
    /// Number of inducing points M.
    #[arg(long, default_value_t = 100)]
    inducing: usize,
    /// G-VGPMIL α.
    #[arg(long, default_value_t = 1.0)]
    alpha: f64,
    /// G-VGPMIL β.
    #[arg(long, default_value_t = 1.0)]
    beta: f64,
    /// Fraction of bags held out (stratified) for early stopping and calibration.
    #[arg(long, default_value_t = 0.2)]
    valid_fraction: f64,
    /// Fit Platt scaling of bag probabilities on the held-out bags and store it in the model.
    #[arg(long)]
    calibrate: bool,
    /// Monte Carlo samples for the validation report.
    #[arg(long, default_value_t = 500)]
    samples: usize,
    #[command(flatten)]
    train: TrainArgs,
    #[command(flatten)]
    models: ModelArgs,
    /// Output model file (JSON); the per-epoch trace goes beside it as <MODEL>.trace.csv.
    #[arg(long, required_unless_present = "bundle")]
    out: Option<PathBuf>,
    /// Model bundle of `ich train-cnn` whose features these are: the GP head is written into it
    /// (gp.json) and its manifest updated.
    #[arg(long)]
    bundle: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let data = MilData::read(&a.features)?;
    let mut bundle = match &a.bundle {
        Some(dir) => {
            let b = Bundle::open(dir)?;
            if b.manifest.cnn.dim != data.d {
                anyhow::bail!(
                    "{}: {} features per slice, but the bundle's CNN gives {} (extract them with `ich extract --model {}`)",
                    a.features.display(),
                    data.d,
                    b.manifest.cnn.dim,
                    dir.display()
                );
            }
            Some(b)
        }
        None => None,
    };
    if !(0.0..1.0).contains(&a.valid_fraction) {
        anyhow::bail!("--valid-fraction must be in [0, 1)");
    }
    let mut params = a.train.params(Some(data.d), a.model);
    params.inducing = a.inducing;
    params.link = a.models.link(a.model, a.alpha, a.beta);
    let (train, valid) = if a.valid_fraction > 0.0 {
        let (t, v) = stratified_holdout(&data.bag_labels(), a.valid_fraction, a.train.seed);
        (data.subset(&t), Some(data.subset(&v)))
    } else {
        (data.clone(), None)
    };
    println!(
        "{}: {} bags ({} positive), {} instances, {} features; training on {} bags, validating on {}",
        a.features.display(),
        data.bags.len(),
        data.bag_labels().iter().filter(|&&l| l == 1).count(),
        data.n,
        data.d,
        train.bags.len(),
        valid.as_ref().map_or(0, |v| v.bags.len())
    );
    let t = std::time::Instant::now();
    let out = fit(&params, &train, valid.as_ref()).context("fitting the GP head")?;
    let secs = t.elapsed().as_secs_f64();
    let mut model = out.model;
    println!(
        "{}: M = {}, {} epochs (best {}), set-up {:.2} s, total {secs:.2} s",
        params.link.name(),
        model.m(),
        out.trace.len(),
        out.best_epoch,
        out.setup_seconds
    );
    if let Some(dr) = &model.draws {
        let d = &dr.diagnostics;
        println!(
            "Gibbs: {} chains × {} draws in {:.1} s, max split-R̂ {:.3}, min ESS {:.0}",
            d.chains, d.draws_per_chain, d.seconds, d.r_hat_max, d.ess_min
        );
    }
    let mut validation = GpValidation::default();
    if let Some(v) = &valid {
        let pred = model.predict(v, a.samples, a.train.seed)?;
        let p = pred.bag_probabilities(model.bag_rule);
        let l = v.bag_labels();
        let (auc, ll, e) = (
            gphead::metrics::roc_auc(&l, &p),
            log_likelihood(&l, &p),
            ece(&l, &p, 10),
        );
        println!(
            "validation bags: AUC {:.4}, log-likelihood {ll:.4}, ECE {e:.4}",
            auc.unwrap_or(f64::NAN)
        );
        validation = GpValidation {
            bag_auc: auc,
            bag_log_likelihood: Some(ll),
            bag_ece: Some(e),
            calibrated: false,
        };
        if a.calibrate {
            let c = Platt::fit(&l, &p);
            let q: Vec<f64> = p.iter().map(|&x| c.apply(x)).collect();
            println!(
                "Platt scaling (a = {:.3}, b = {:.3}): log-likelihood {ll:.4} → {:.4}, ECE {e:.4} → {:.4} (on the same validation bags)",
                c.a,
                c.b,
                log_likelihood(&l, &q),
                ece(&l, &q, 10)
            );
            model.calibration = Some(c);
            validation.calibrated = true;
        }
    } else if a.calibrate {
        anyhow::bail!("--calibrate needs validation bags (--valid-fraction > 0)");
    }
    let mut csv = String::from("epoch,objective,valid_bag_auc,seconds\n");
    for t in &out.trace {
        let f = |v: Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
        csv.push_str(&format!(
            "{},{},{},{}\n",
            t.epoch,
            f(t.objective),
            f(t.valid_bag_auc),
            t.seconds
        ));
    }
    if let Some(out) = &a.out {
        model.save(out)?;
        let trace_path = PathBuf::from(format!("{}.trace.csv", out.display()));
        std::fs::write(&trace_path, &csv)
            .with_context(|| format!("writing {}", trace_path.display()))?;
        println!("model: {}\ntrace: {}", out.display(), trace_path.display());
    }
    if let Some(b) = bundle.as_mut() {
        let count = |d: &MilData| {
            (
                d.bags.len(),
                d.bag_labels().iter().filter(|&&l| l == 1).count(),
            )
        };
        let (tn, tp) = count(&train);
        let (vn, vp) = valid.as_ref().map_or((0, 0), count);
        let part = GpPart {
            model: GP_MODEL.into(),
            trace: GP_TRACE.into(),
            family: params.link.name().to_string(),
            dim: data.d,
            inducing: model.m(),
            features_sha256: sha256_file(&a.features)?,
            training: DataSummary {
                source: a.features.display().to_string(),
                train_scans: tn,
                train_positive: tp,
                valid_scans: vn,
                valid_positive: vp,
                slices: Some(data.n),
            },
            validation,
        };
        b.add_gp(&model, &csv, part)?;
        println!(
            "bundle: {} now holds the GP head ({})",
            b.dir.display(),
            GP_MODEL
        );
    }
    Ok(ExitCode::SUCCESS)
}
