//! `ich demo`: the whole pipeline on a synthetic cohort, end to end.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Parser;

use crate::{dispatch, Cli, Command};

/// Run the whole pipeline on synthetic data: synthesize a training cohort and a held-out cohort
/// (DICOM), preprocess, train the attention CNN, extract features, fit G-VGPMIL into a model
/// bundle, predict on the held-out DICOM folders and print the metrics and the report's path.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output folder (DICOM, dataset, model bundle, features, reports).
    #[arg(long)]
    pub out: PathBuf,
    /// Training scans (the CNN validates on a fifth of them). The CNN learns from scan labels
    /// only: it needs a few hundred scans before it finds the bleeds.
    #[arg(long, default_value_t = 384)]
    pub scans: usize,
    /// Held-out scans predicted at the end.
    #[arg(long, default_value_t = 48)]
    pub test_scans: usize,
    /// Slices per scan.
    #[arg(long, default_value_t = 8)]
    pub slices: usize,
    /// Hemorrhage subtypes of the synthetic cohorts (see `ich synth --help`).
    #[arg(long, default_value = "intraparenchymal,intraventricular")]
    pub subtypes: String,
    /// Fraction of subtle bleeds.
    #[arg(long, default_value_t = 0.0)]
    pub subtle_fraction: f64,
    /// Rows and columns of the synthetic DICOM slices.
    #[arg(long, default_value_t = 128)]
    pub dicom_size: usize,
    /// Preprocessed image size (the CNN's input).
    #[arg(long, default_value_t = 64)]
    pub size: usize,
    /// CNN epochs (early stopping is left off: validation loss stays flat until the CNN finds the
    /// bleeds, then drops).
    #[arg(long, default_value_t = 18)]
    pub epochs: usize,
    /// CNN learning rate (2e-4 learns about twice as fast as the authors' 5e-5 … 1e-4 here; 1e-3
    /// collapses).
    #[arg(long, default_value_t = 2e-4)]
    pub lr: f64,
    /// Slice feature dimension D.
    #[arg(long, default_value_t = 32)]
    pub dim: usize,
    /// Seed of the synthetic cohorts, the CNN and the GP head (same seed, same numbers).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

fn step(args: Vec<String>, bars: &crate::progress::Bars) -> anyhow::Result<()> {
    let line = args.join(" ");
    println!("\n$ ich {line}");
    let cli = Cli::try_parse_from(std::iter::once("ich".to_string()).chain(args))
        .with_context(|| format!("demo step `ich {line}`"))?;
    let code = dispatch(cli.command, bars)?;
    if code != ExitCode::SUCCESS {
        anyhow::bail!("demo step `ich {line}` failed");
    }
    Ok(())
}

fn p(path: &Path) -> String {
    path.display().to_string()
}

pub fn run(a: Args, bars: &crate::progress::Bars) -> anyhow::Result<ExitCode> {
    let t0 = Instant::now();
    let o = &a.out;
    let (train_dicom, test_dicom) = (o.join("dicom-train"), o.join("dicom-test"));
    let (dataset, bundle, features, reports) = (
        o.join("dataset"),
        o.join("model"),
        o.join("features.csv"),
        o.join("report"),
    );
    let s = |v: &dyn ToString| v.to_string();
    for (dir, n, seed) in [
        (&train_dicom, a.scans, a.seed),
        (&test_dicom, a.test_scans, a.seed.wrapping_add(1_000_003)),
    ] {
        step(
            vec![
                "synth".into(),
                "--out".into(),
                p(dir),
                "--scans".into(),
                s(&n),
                "--slices".into(),
                s(&a.slices),
                "--size".into(),
                s(&a.dicom_size),
                "--seed".into(),
                s(&seed),
                "--subtypes".into(),
                a.subtypes.clone(),
                "--subtle-fraction".into(),
                s(&a.subtle_fraction),
            ],
            bars,
        )?;
    }
    step(
        vec![
            "preprocess".into(),
            p(&train_dicom),
            "--out".into(),
            p(&dataset),
            "--size".into(),
            s(&a.size),
            "--labels".into(),
            p(&train_dicom.join("labels.csv")),
            "--labels".into(),
            p(&train_dicom.join("slice_labels.csv")),
        ],
        bars,
    )?;
    step(
        vec![
            "train-cnn".into(),
            "--dataset".into(),
            p(&dataset),
            "--out".into(),
            p(&bundle),
            "--dim".into(),
            s(&a.dim),
            "--epochs".into(),
            s(&a.epochs),
            "--lr".into(),
            s(&a.lr),
            "--patience".into(),
            s(&a.epochs),
            "--seed".into(),
            s(&a.seed),
        ],
        bars,
    )?;
    step(
        vec![
            "extract".into(),
            "--model".into(),
            p(&bundle),
            "--dataset".into(),
            p(&dataset),
            "--out".into(),
            p(&features),
        ],
        bars,
    )?;
    step(
        vec![
            "fit-gp".into(),
            "--features".into(),
            p(&features),
            "--bundle".into(),
            p(&bundle),
            "--model".into(),
            "g-vgpmil".into(),
            "--calibrate".into(),
            "--seed".into(),
            s(&a.seed),
        ],
        bars,
    )?;
    let args = vec![
        "predict".to_string(),
        "--model".into(),
        p(&bundle),
        p(&test_dicom),
        "--out".into(),
        p(&reports),
        "--labels".into(),
        p(&test_dicom.join("labels.csv")),
        "--labels".into(),
        p(&test_dicom.join("slice_labels.csv")),
    ];
    println!("\n$ ich {}", args.join(" "));
    let cli = Cli::try_parse_from(std::iter::once("ich".to_string()).chain(args))?;
    let Command::Predict(pa) = cli.command else {
        unreachable!("parsed as predict")
    };
    let out = crate::cmd::predict::predict(&pa, bars)?;
    println!(
        "\ndemo done in {:.0} s: open {}",
        t0.elapsed().as_secs_f64(),
        out.index.display()
    );
    if let Some(m) = out.report.metrics {
        println!(
            "held-out scans: AUC {} (GP), {} (CNN alone)",
            m.scan
                .auc
                .map(|v| format!("{v:.3}"))
                .unwrap_or_else(|| "–".into()),
            m.cnn_scan
                .auc
                .map(|v| format!("{v:.3}"))
                .unwrap_or_else(|| "–".into())
        );
    }
    Ok(ExitCode::SUCCESS)
}
