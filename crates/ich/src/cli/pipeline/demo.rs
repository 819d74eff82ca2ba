//! `ich demo`: the whole pipeline on a synthetic cohort, end to end (the library's
//! [`detect::pipeline::demo`]), printing each step.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use crate::summary;
use detect::pipeline::demo::{DemoEvent, DemoOptions};
use preprocess::synth::Subtype;

use crate::cli::range;

/// Run the whole pipeline on synthetic data: synthesize a training cohort and a held-out cohort
/// (DICOM), preprocess, train the attention CNN, extract features, fit the VGPMIL head into a model
/// bundle, predict on the held-out DICOM folders and print the metrics and the report's path.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output folder (DICOM, dataset, model bundle, features, reports).
    #[arg(short, long)]
    pub out: PathBuf,
    /// Training scans (the CNN validates on a fifth of them) [8..=1000000]. The CNN learns from
    /// scan labels only: it needs a few hundred scans before it finds the bleeds.
    #[arg(long, default_value_t = 384, value_parser = |s: &str| range::int_in(s, 8, 1_000_000))]
    pub scans: usize,
    /// Held-out scans predicted at the end [1..=1000000].
    #[arg(long, default_value_t = 48, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    pub test_scans: usize,
    /// Slices per scan [1..=2000].
    #[arg(long, default_value_t = 8, value_parser = |s: &str| range::int_in(s, 1, 2000))]
    pub slices: usize,
    /// Hemorrhage subtypes of the synthetic cohorts (see `ich synth --help`).
    #[arg(
        long,
        value_delimiter = ',',
        value_enum,
        default_value = "intraparenchymal,intraventricular"
    )]
    pub subtypes: Vec<Subtype>,
    /// Fraction of subtle bleeds [0, 1].
    #[arg(long, default_value_t = 0.0, value_parser = range::probability)]
    pub subtle_fraction: f64,
    /// Rows and columns of the synthetic DICOM slices [16..=4096].
    #[arg(long, default_value_t = 128, value_parser = |s: &str| range::int_in(s, 16, 4096))]
    pub dicom_size: usize,
    /// Preprocessed image size (the CNN's input) [16..=2048].
    #[arg(long, default_value_t = 64, value_parser = |s: &str| range::int_in(s, 16, 2048))]
    pub size: usize,
    /// CNN epochs [1..=100000] (early stopping is left off: validation loss stays flat until the
    /// CNN finds the bleeds, then drops).
    #[arg(long, default_value_t = 18, value_parser = |s: &str| range::int_in(s, 1, 100_000))]
    pub epochs: usize,
    /// CNN learning rate (> 0; 2e-4 learns about twice as fast as the authors' 5e-5 … 1e-4 here;
    /// 1e-3 collapses).
    #[arg(long, default_value_t = 2e-4, value_parser = range::positive)]
    pub lr: f64,
    /// Slice feature dimension D (8, 32 or 128).
    #[arg(long, default_value_t = 32, value_parser = range::dim)]
    pub dim: usize,
    /// Seed of the synthetic cohorts, the CNN and the GP head (same seed, same numbers).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub device: crate::cli::DeviceArgs,
}

pub fn run(a: Args, bars: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    let t0 = Instant::now();
    let opts = DemoOptions {
        out: a.out,
        scans: a.scans,
        test_scans: a.test_scans,
        slices: a.slices,
        subtypes: a.subtypes,
        subtle_fraction: a.subtle_fraction,
        dicom_size: a.dicom_size,
        size: a.size,
        epochs: a.epochs,
        lr: a.lr,
        dim: a.dim,
        seed: a.seed,
        compute: a.device.compute(),
    };
    let tell = |e: DemoEvent<'_>| match e {
        DemoEvent::Step(line) => sayln!("\n$ {line}"),
        DemoEvent::Said(line) => sayln!("{line}"),
        DemoEvent::Epoch(l) => detect::progress::epoch_line(l),
        DemoEvent::Trained(t, bundle) => sayln!("{}", summary::trained(t, bundle)),
        DemoEvent::Fitted(f) => sayln!("{}", summary::fitted(f)),
    };
    let out = detect::pipeline::demo::run(&opts, bars, &tell)?;
    let secs = t0.elapsed().as_secs_f64();
    outln!("{}", summary::demo_done(&out, &opts.out, secs));
    Ok(ExitCode::SUCCESS)
}
