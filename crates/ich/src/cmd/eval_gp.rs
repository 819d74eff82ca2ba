//! `ich eval-gp`

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use gphead::protocol::{evaluate, EvalOptions, Grid};
use gphead::MilData;

use super::gpargs::{ModelArgs, ModelKind, TrainArgs};

/// Evaluate a GP head with the paper's protocol: stratified splits of bags, a grid over inducing
/// points × α × β chosen on validation bags only, early stopping on them; held-out test splits
/// and/or an external test file. Prints mean ± std and writes CSV/JSON.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Feature table to train (and, without --test, test) on.
    #[arg(long)]
    features: PathBuf,
    /// External test file: every split's model is also tested on it.
    #[arg(long)]
    test: Option<PathBuf>,
    /// Hold out this fraction of bags as the test split instead of k folds.
    #[arg(long)]
    holdout: Option<f64>,
    #[arg(long, value_enum, default_value = "g-vgpmil")]
    model: ModelKind,
    /// Number of stratified splits.
    #[arg(long, default_value_t = 5)]
    splits: usize,
    /// Grid of inducing points.
    #[arg(long, value_delimiter = ',', default_value = "50,100,200")]
    inducing: Vec<usize>,
    /// Grid of α (G-VGPMIL).
    #[arg(long, value_delimiter = ',', default_value = "0.5,1")]
    alpha: Vec<f64>,
    /// Grid of β (G-VGPMIL).
    #[arg(long, value_delimiter = ',', default_value = "1,2.5,4")]
    beta: Vec<f64>,
    /// Fraction of each training split used for validation.
    #[arg(long, default_value_t = 0.2)]
    valid_fraction: f64,
    /// Monte Carlo samples for test predictions.
    #[arg(long, default_value_t = 200)]
    samples: usize,
    #[command(flatten)]
    train: TrainArgs,
    #[command(flatten)]
    models: ModelArgs,
    /// Write the full report as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write the summary table as CSV.
    #[arg(long)]
    csv: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let data = MilData::read(&a.features)?;
    let external = a.test.as_deref().map(MilData::read).transpose()?;
    let opts = EvalOptions {
        family: a.model.family(),
        grid: Grid {
            inducing: a.inducing.clone(),
            alpha: a.alpha.clone(),
            beta: a.beta.clone(),
        },
        splits: a.splits,
        holdout: a.holdout,
        valid_fraction: a.valid_fraction,
        base: {
            let mut b = a.train.params(Some(data.d), a.model);
            b.link = a.models.link(a.model, 1.0, 1.0);
            b
        },
        samples: a.samples,
        seed: a.train.seed,
    };
    let report = evaluate(&data, external.as_ref(), &opts)?;
    println!(
        "{:?} on {} ({} bags, {} instances){}",
        a.model,
        a.features.display(),
        data.bags.len(),
        data.n,
        a.test
            .as_ref()
            .map(|t| format!(", external test {}", t.display()))
            .unwrap_or_default()
    );
    for s in &report.splits {
        println!(
            "  split {}: chose M = {}, {} (validation bag AUC {:.4}), {} epochs, {:.2} s",
            s.split,
            s.inducing,
            s.link.name(),
            s.valid_bag_auc.unwrap_or(f64::NAN),
            s.epochs,
            s.fit_seconds
        );
    }
    let rows = report.summary();
    println!("{:<10} {:<24} {:>18}", "set", "metric", "mean ± std");
    let mut csv = String::from("set,metric,mean,std,values\n");
    for r in &rows {
        println!(
            "{:<10} {:<24} {:>9.4} ± {:<7.4}",
            r.set, r.metric, r.mean, r.std
        );
        let vals: Vec<String> = r.values.iter().map(|v| format!("{v:.6}")).collect();
        csv.push_str(&format!(
            "{},{},{},{},{}\n",
            r.set,
            r.metric,
            r.mean,
            r.std,
            vals.join(";")
        ));
    }
    if let Some(p) = &a.csv {
        std::fs::write(p, csv).with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(p) = &a.json {
        let v = serde_json::json!({ "report": report, "summary": rows });
        std::fs::write(p, serde_json::to_vec_pretty(&v)?)
            .with_context(|| format!("writing {}", p.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
