//! `ich train-cnn` and `ich extract`: the attention CNN on a preprocessed dataset.

use std::path::PathBuf;
use std::process::ExitCode;

use attcnn::{AttCnnConfig, TrainConfig};
use detect::pipeline::extract::{extract as run_extract, ExtractJob};
use detect::pipeline::train::{train_cnn, TrainJob, TrainPlan};

use crate::cli::range;

/// Train the attention CNN on scan labels of a preprocessed dataset; keep the best weights, a
/// checkpoint per epoch and the training log in the model bundle.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Dataset written by `ich preprocess`.
    #[arg(long)]
    dataset: PathBuf,
    /// Model bundle to write (e.g. models/<name>): CNN config, weights, training log, manifest.
    #[arg(short, long)]
    out: PathBuf,
    /// Slice feature dimension D (8, 32 or 128).
    #[arg(long, default_value_t = 32, value_parser = range::dim)]
    dim: usize,
    /// Epochs [1..=100000].
    #[arg(long, default_value_t = 30, value_parser = |s: &str| range::int_in(s, 1, 100_000))]
    epochs: usize,
    /// Adam learning rate (> 0).
    #[arg(long, default_value_t = 5e-5, value_parser = range::positive)]
    lr: f64,
    /// Early stopping: epochs without a lower validation loss [0..=100000].
    #[arg(long, default_value_t = 8, value_parser = |s: &str| range::int_in(s, 0, 100_000))]
    patience: usize,
    /// Fraction of scans (stratified) for validation [0, 1).
    #[arg(long, default_value_t = 0.2, value_parser = range::fraction)]
    valid_fraction: f64,
    /// No random horizontal flips.
    #[arg(long)]
    no_augment: bool,
    /// Bags per optimiser step (slices of all bags go through batch norm together) [1..=1024].
    #[arg(long, default_value_t = 1, value_parser = |s: &str| range::int_in(s, 1, 1024))]
    batch: usize,
    /// Dropout after conv blocks 2, 5 and 6 [0, 1).
    #[arg(long, default_value_t = 0.3, value_parser = range::fraction)]
    conv_dropout: f64,
    /// Dropout before the classifier [0, 1).
    #[arg(long, default_value_t = 0.25, value_parser = range::fraction)]
    head_dropout: f64,
    /// Random seed of the initial weights, the validation split, the bag order and dropout: the
    /// same seed gives the same network on the same device.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Continue from the bundle's last checkpoint.
    #[arg(long)]
    resume: bool,
    /// "Any" alone: no subtype outputs, even when the labels give the scans' subtypes (by
    /// default the network has one output per subtype beside "any", taught by the scans whose
    /// subtypes are known; the slice features keep their shape).
    #[arg(long)]
    no_subtypes: bool,
    #[command(flatten)]
    device: crate::cli::DeviceArgs,
}

pub fn train(a: TrainArgs, bars: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    let job = TrainJob {
        dataset: a.dataset,
        out: a.out.clone(),
        model: AttCnnConfig {
            dim: a.dim,
            conv_dropout: a.conv_dropout,
            head_dropout: a.head_dropout,
            ..AttCnnConfig::default()
        },
        train: TrainConfig {
            epochs: a.epochs,
            lr: a.lr,
            patience: a.patience,
            seed: a.seed,
            augment: !a.no_augment,
            batch: a.batch,
            // the float type is the job's compute (`--precision`), which train_cnn records here
            ..TrainConfig::default()
        },
        valid_fraction: a.valid_fraction,
        resume: a.resume,
        compute: a.device.compute(),
        subtypes: !a.no_subtypes,
    };
    let plan = |p: &TrainPlan| sayln!("{}", crate::summary::train_plan(p));
    let t = train_cnn(&job, &plan, &bars.training())?;
    outln!("{}", crate::summary::trained(&t, &a.out));
    Ok(ExitCode::SUCCESS)
}

/// Run the trained slice encoder (attention and classifier stripped) on every slice of a dataset
/// and write the features file `ich fit-gp` reads (docs/FEATURES.md), scan by scan; the CNN's own
/// scan probability and attention weights come along as extra columns.
#[derive(clap::Args, Debug)]
pub struct ExtractArgs {
    /// Model bundle of `ich train-cnn`.
    #[arg(long)]
    model: PathBuf,
    /// Dataset written by `ich preprocess` (same windows and size as the model's).
    #[arg(long)]
    dataset: PathBuf,
    /// Features CSV to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Extract only shard I of N (I counts from 0): the dataset's scans whose id falls in bucket
    /// I of N, for a cluster's job array (deploy/); `ich merge` joins the shards' files.
    #[arg(long, value_name = "I/N")]
    shard: Option<milbase::Shard>,
    #[command(flatten)]
    device: crate::cli::DeviceArgs,
}

pub fn extract(a: ExtractArgs, bars: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    let job = ExtractJob {
        model: a.model,
        dataset: a.dataset,
        out: a.out,
        compute: a.device.compute(),
        shard: a.shard.unwrap_or(milbase::Shard::ALL),
    };
    let x = run_extract(&job, bars)?;
    outln!(
        "{} slices of {} scans → {}",
        x.slices,
        x.scans,
        job.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
