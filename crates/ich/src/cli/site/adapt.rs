//! `ich adapt`: a bundle adapted to a site from its own labelled scans, with the validation
//! report of what the site should expect.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use crate::cli::range;

/// Adapt a bundle (imported or trained) to a site: its labelled scans choose and fit a head by
/// nested patient-level cross-validation, a GP head or the network as it came with maps of its
/// scan and slice probabilities fitted on the scan labels (never a head that ranks scans or
/// labelled slices worse than the network beyond one paired standard error); writes a new bundle
/// with the head, the summary of the site's slices (out-of-distribution checks) and the report
/// (adapt.html, adapt.json).
#[derive(Parser, Debug)]
pub struct Args {
    /// The bundle to adapt (left unchanged): a folder, or the name of one built into ich
    /// (`ich models`): the shipped SA-DMIL network by default.
    #[arg(long, default_value = detect::bundle::builtin::DEFAULT_MODEL)]
    model: PathBuf,
    /// The site's labelled scans: DICOM or NIfTI files or folders (searched recursively), or
    /// datasets preprocessed with the bundle's preprocessing. A NIfTI file counts as a patient
    /// of its own.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Label files: scan labels (required for every scan used) and slice labels (evaluation
    /// only, never fitting); labels.csv / slice_labels.csv, RSNA's CSV, or NIfTI's
    /// `nifti,label` / `nifti,slice,label`.
    #[arg(long)]
    labels: Vec<PathBuf>,
    /// The adapted bundle: a new folder.
    #[arg(short, long)]
    out: PathBuf,
    /// Outer folds of the patient-level cross-validation [2..=20].
    #[arg(long, default_value_t = 5, value_parser = |s: &str| range::int_in(s, 2, 20))]
    folds: usize,
    /// Inner folds: the choice of evidence and the calibration's cross-fitting [2..=20].
    #[arg(long, default_value_t = 5, value_parser = |s: &str| range::int_in(s, 2, 20))]
    inner_folds: usize,
    /// Principal components of the projected candidates (Dense-128, encoder features) [1..=128].
    #[arg(long, default_value_t = 8, value_parser = |s: &str| range::int_in(s, 1, 128))]
    project: usize,
    /// Only these kinds of evidence (comma-separated; default: all, chosen by the inner
    /// cross-validation).
    #[arg(long, value_enum, value_delimiter = ',')]
    evidence: Vec<detect::bundle::evidence::Evidence>,
    /// Inducing points of the GP head [1..=1000].
    #[arg(long, default_value_t = 50, value_parser = |s: &str| range::int_in(s, 1, 1000))]
    inducing: usize,
    /// Kernel hyper-parameter steps per epoch (0: the kernel stays at its start) [0..=100].
    #[arg(long, default_value_t = 5, value_parser = |s: &str| range::int_in(s, 0, 100))]
    kernel_steps: usize,
    /// Monte Carlo draws per scan [1..=100000].
    #[arg(long, default_value_t = 300, value_parser = |s: &str| range::int_in(s, 1, 100_000))]
    samples: usize,
    /// Training-set sizes of the learning curve (comma-separated; sizes not below a fold's
    /// training set are left out; `0` for none).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "10,20,30,40,50,60,80,100,150,200"
    )]
    curve: Vec<usize>,
    /// Do not try fine-tuning the network's attention and classifier on the site's scans
    /// (by default it is cross-validated beside the network as it came, and kept where the
    /// cross-validated scan log-likelihood says it helps).
    #[arg(long)]
    no_fine_tune: bool,
    /// Fine-tuning: epochs at most (early stopping on a fifth of each fold's training scans)
    /// [1..=1000].
    #[arg(long, default_value_t = 60, value_parser = |s: &str| range::int_in(s, 1, 1000))]
    fine_tune_epochs: usize,
    /// Fine-tuning: Adam's learning rate (0, 1].
    #[arg(long, default_value_t = 1e-4, value_parser = range::rate)]
    fine_tune_lr: f64,
    /// Random seed of the folds, the fine-tuning and the Monte Carlo draws: the same seed gives
    /// the same bundle and report.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Fix the site's operating point: the threshold that catches at least this share of the
    /// site's bleeds (cross-fitted), e.g. 0.9 for triage; `ich predict` then calls at it, and
    /// its report states the sensitivity and specificity to expect (0, 1].
    #[arg(long, value_parser = range::rate)]
    sensitivity: Option<f64>,
    /// Where the CNN runs (`wgpu`, `cuda` and `ndarray` need the cargo feature of the same name).
    #[arg(long, value_enum, default_value = "cpu")]
    device: detect::Backend,
    #[command(flatten)]
    limits: crate::cli::preprocess::LimitArgs,
}

pub fn run(a: Args, progress: &dyn milbase::Progress) -> anyhow::Result<ExitCode> {
    let mut job = detect::site::adapt::AdaptJob::new(
        detect::bundle::builtin::resolve(&a.model)?,
        a.inputs.clone(),
        a.labels.clone(),
        a.out.clone(),
    );
    job.folds = a.folds;
    job.inner_folds = a.inner_folds;
    job.project = a.project;
    job.inducing = a.inducing;
    job.kernel_steps = a.kernel_steps > 0;
    job.samples = a.samples;
    job.curve = a.curve.iter().copied().filter(|&n| n > 0).collect();
    job.seed = a.seed;
    job.sensitivity = a.sensitivity;
    job.fine_tune = (!a.no_fine_tune).then(|| attcnn::finetune::FineTune {
        epochs: a.fine_tune_epochs,
        lr: a.fine_tune_lr,
        ..Default::default()
    });
    job.compute = detect::Compute {
        backend: a.device,
        ..detect::Compute::cpu()
    };
    job.limits = a.limits.limits();
    job.evidence = a.evidence.clone();
    let r = detect::site::adapt::adapt(&job, progress)
        .with_context(|| format!("adapting {}", a.model.display()))?;
    for s in &r.skipped {
        errln!("skipped: {s}");
    }
    outln!("{}", crate::summary::adapted(&r, &a.out));
    Ok(ExitCode::SUCCESS)
}
