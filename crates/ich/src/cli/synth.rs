//! `ich synth`

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use preprocess::synth::{synth, Subtype, SynthOptions};

use crate::cli::range;

/// Write synthetic head CT scans (real DICOM files) with labelled hemorrhages of the five RSNA
/// subtypes, plus labels.csv and slice_labels.csv. Deterministic for a given seed.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output folder (one subfolder per scan).
    #[arg(short, long)]
    out: PathBuf,
    /// Number of scans [1..=1000000].
    #[arg(long, default_value_t = 8, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    scans: usize,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Slices per scan [1..=2000].
    #[arg(long, default_value_t = 32, value_parser = |s: &str| range::int_in(s, 1, 2000))]
    slices: usize,
    /// Rows and columns of every slice [16..=4096].
    #[arg(long, default_value_t = 256, value_parser = |s: &str| range::int_in(s, 16, 4096))]
    size: usize,
    /// Fraction of scans with hemorrhage [0, 1].
    #[arg(long, default_value_t = 0.5, value_parser = range::probability)]
    positive_fraction: f64,
    /// Draw the bleeds into this real head CT instead of the procedural head: the test data's
    /// `ct/cranium_hu_i16le_108x256x256.raw.gz` (gzipped little-endian int16 HU, 108 slices of
    /// 256 × 256).
    #[arg(long)]
    base: Option<PathBuf>,
    /// Subtypes to draw from, comma-separated; all five by default.
    #[arg(long, value_enum, value_delimiter = ',')]
    subtypes: Vec<Subtype>,
    /// Fraction of bleeds drawn subtle (thin, small or close to brain density) [0, 1].
    #[arg(long, default_value_t = 0.25, value_parser = range::probability)]
    subtle_fraction: f64,
}

pub fn run(a: Args, progress: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    let opts = SynthOptions {
        scans: a.scans,
        slices: a.slices,
        size: a.size,
        positive_fraction: a.positive_fraction,
        seed: a.seed,
        base: a.base,
        subtypes: if a.subtypes.is_empty() {
            Subtype::ALL.to_vec()
        } else {
            a.subtypes
        },
        subtle_fraction: a.subtle_fraction,
    };
    let scans = synth(&a.out, &opts, progress).context("synth failed")?;
    let s = crate::summary::synthesized(&scans, opts.slices, &a.out);
    outln!("{s}");
    Ok(ExitCode::SUCCESS)
}
