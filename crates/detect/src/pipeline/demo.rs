//! The whole pipeline on a synthetic cohort, end to end (`ich demo`): synthesize a training and a
//! held-out cohort (DICOM), preprocess, train the attention CNN, extract features, fit a
//! calibrated VGPMIL head into the bundle, predict on the held-out DICOM folders.

use std::path::PathBuf;

use attcnn::training::{EpochLog, Event};
use attcnn::{AttCnnConfig, TrainConfig};
use milbase::Progress;
use preprocess::labels::Labels;
use preprocess::synth::{synth, Subtype, SynthOptions};
use preprocess::{PreprocessConfig, PreprocessOptions};

use crate::error::{Error, Result};
use crate::pipeline::device::Compute;
use crate::pipeline::extract::{extract, ExtractJob};
use crate::pipeline::fit::{fit_gp, FitJob};
use crate::pipeline::predict::{PredictJob, PredictOptions};
use crate::pipeline::train::{train_cnn, TrainJob};

/// Demo settings; the defaults are `ich demo`'s (384 training scans of 8 slices at 128², 48
/// held-out scans, intraparenchymal and intraventricular bleeds, none subtle, 64² CNN input,
/// 18 epochs at lr 2e-4 without dropout, D = 32, seed 0).
#[derive(Debug, Clone)]
pub struct DemoOptions {
    pub out: PathBuf,
    pub scans: usize,
    pub test_scans: usize,
    pub slices: usize,
    pub subtypes: Vec<Subtype>,
    pub subtle_fraction: f64,
    pub dicom_size: usize,
    pub size: usize,
    pub epochs: usize,
    pub lr: f64,
    pub dim: usize,
    pub seed: u64,
    /// Where the CNN trains, extracts and predicts, and in which float type.
    pub compute: Compute,
}

impl DemoOptions {
    pub fn new(out: PathBuf) -> Self {
        Self {
            out,
            scans: 384,
            test_scans: 48,
            slices: 8,
            subtypes: vec![Subtype::Intraparenchymal, Subtype::Intraventricular],
            subtle_fraction: 0.0,
            dicom_size: 128,
            size: 64,
            epochs: 18,
            lr: 2e-4,
            dim: 32,
            seed: 0,
            compute: Compute::cpu(),
        }
    }
}

/// What the demo tells as it goes.
pub enum DemoEvent<'a> {
    /// A step begins: the equivalent `ich` command line.
    Step(String),
    /// A step's one-line result.
    Said(String),
    /// A CNN epoch finished.
    Epoch(&'a EpochLog),
    /// The CNN is trained (into the bundle, the second field).
    Trained(&'a crate::pipeline::train::Trained, &'a std::path::Path),
    /// The GP head is fitted.
    Fitted(&'a crate::pipeline::fit::Fitted),
}

/// Where the demo writes each step's output, under its folder.
struct Paths {
    train_dicom: PathBuf,
    test_dicom: PathBuf,
    dataset: PathBuf,
    bundle: PathBuf,
    features: PathBuf,
    reports: PathBuf,
}

impl Paths {
    fn under(out: &std::path::Path) -> Self {
        Self {
            train_dicom: out.join("dicom-train"),
            test_dicom: out.join("dicom-test"),
            dataset: out.join("dataset"),
            bundle: out.join("model"),
            features: out.join("features.csv"),
            reports: out.join("report"),
        }
    }
}

fn p(x: &std::path::Path) -> String {
    x.display().to_string()
}

/// Runs the demo; returns the prediction of the held-out cohort. Each step is the `ich` command
/// it tells.
pub fn run(
    o: &DemoOptions,
    progress: &dyn Progress,
    tell: &dyn Fn(DemoEvent<'_>),
) -> Result<crate::pipeline::predict::Outcome> {
    let at = Paths::under(&o.out);
    synth_cohorts(o, &at, progress, tell)?;
    preprocess_training(o, &at, progress, tell)?;
    train_network(o, &at, progress, tell)?;
    extract_features(o, &at, progress, tell)?;
    fit_head(o, &at, progress, tell)?;
    predict_held_out(o, &at, progress, tell)
}

/// `ich synth`: the training cohort and the held-out one, of other seeds.
fn synth_cohorts(
    o: &DemoOptions,
    at: &Paths,
    progress: &dyn Progress,
    tell: &dyn Fn(DemoEvent<'_>),
) -> Result<()> {
    let names: Vec<&str> = o.subtypes.iter().map(|s| s.name()).collect();
    for (dir, n, seed) in [
        (&at.train_dicom, o.scans, o.seed),
        (&at.test_dicom, o.test_scans, o.seed.wrapping_add(1_000_003)),
    ] {
        tell(DemoEvent::Step(format!(
            "ich synth --out {} --scans {n} --slices {} --size {} --seed {seed} --subtypes {} --subtle-fraction {}",
            p(dir), o.slices, o.dicom_size, names.join(","), o.subtle_fraction
        )));
        let opts = SynthOptions {
            scans: n,
            slices: o.slices,
            size: o.dicom_size,
            seed,
            subtypes: o.subtypes.clone(),
            subtle_fraction: o.subtle_fraction,
            ..SynthOptions::default()
        };
        let scans = synth(dir, &opts, progress)?;
        let pos = scans.iter().filter(|s| s.label == 1).count();
        tell(DemoEvent::Said(format!(
            "wrote {} scans ({pos} positive) to {}",
            scans.len(),
            p(dir)
        )));
    }

    Ok(())
}

/// `ich preprocess` of the training cohort, with its scan and slice labels.
fn preprocess_training(
    o: &DemoOptions,
    at: &Paths,
    progress: &dyn Progress,
    tell: &dyn Fn(DemoEvent<'_>),
) -> Result<()> {
    let (scan_labels, slice_labels) = (
        at.train_dicom.join("labels.csv"),
        at.train_dicom.join("slice_labels.csv"),
    );
    tell(DemoEvent::Step(format!(
        "ich preprocess {} --out {} --size {} --labels {} --labels {}",
        p(&at.train_dicom),
        p(&at.dataset),
        o.size,
        p(&scan_labels),
        p(&slice_labels)
    )));
    let mut labels = Labels::default();
    labels.load(&scan_labels)?;
    labels.load(&slice_labels)?;
    let popts = PreprocessOptions {
        config: PreprocessConfig {
            size: o.size,
            ..PreprocessConfig::default()
        },
        labels,
        ..PreprocessOptions::default()
    };
    let s = preprocess::preprocess(
        std::slice::from_ref(&at.train_dicom),
        &at.dataset,
        &popts,
        progress,
    )?;
    tell(DemoEvent::Said(format!(
        "{} scans written, {} resumed; {} slices",
        s.scans_written, s.scans_resumed, s.slices
    )));

    Ok(())
}

/// `ich train-cnn`: the attention CNN on the scan labels, into the bundle.
fn train_network(
    o: &DemoOptions,
    at: &Paths,
    progress: &dyn Progress,
    tell: &dyn Fn(DemoEvent<'_>),
) -> Result<()> {
    tell(DemoEvent::Step(format!(
        "ich train-cnn --dataset {} --out {} --dim {} --epochs {} --lr {} --patience {} --conv-dropout 0 --head-dropout 0 --seed {}{}",
        p(&at.dataset),
        p(&at.bundle),
        o.dim,
        o.epochs,
        o.lr,
        o.epochs,
        o.seed,
        o.compute.flags()
    )));
    let job = TrainJob {
        dataset: at.dataset.clone(),
        out: at.bundle.clone(),
        // no dropout: on this cohort the CNN sits at chance for several epochs before it finds
        // the bleeds, and dropout (0.3 / 0.25, the authors') drew that out past the 18 epochs
        // for two of four initial draws (release build, 2026-11-26, validation AUC ≥ 0.9 first
        // reached with seeds 0, 1, 2, 3: not by epoch 17 (0.45 and 0.68 then), epochs 13 and 17
        // with dropout; seeds 0-4 at epochs 8, 12, 11, 10, 6 without). Without dropout the CPU
        // and a GPU also draw nothing on the device: they start from the same weights and
        // differ only by their arithmetic.
        model: AttCnnConfig {
            dim: o.dim,
            conv_dropout: 0.0,
            head_dropout: 0.0,
            ..AttCnnConfig::default()
        },
        // early stopping is left off: validation loss stays flat until the CNN finds the
        // bleeds, then drops
        train: TrainConfig {
            epochs: o.epochs,
            lr: o.lr,
            patience: o.epochs,
            seed: o.seed,
            ..TrainConfig::default()
        },
        valid_fraction: 0.2,
        resume: false,
        compute: o.compute,
        // the five subtypes `ich synth` draws, beside "any"
        subtypes: true,
    };
    let trained = train_cnn(&job, &|_| {}, &|e| match e {
        Event::Epoch { epoch, bags } => progress.stage(&format!("epoch {epoch}"), bags as u64),
        Event::Bag => progress.inc(1),
        Event::EpochDone(l) => {
            progress.done();
            tell(DemoEvent::Epoch(l));
        }
    })?;
    tell(DemoEvent::Trained(&trained, &at.bundle));

    Ok(())
}

/// `ich extract`: each slice's features from the trained network.
fn extract_features(
    o: &DemoOptions,
    at: &Paths,
    progress: &dyn Progress,
    tell: &dyn Fn(DemoEvent<'_>),
) -> Result<()> {
    tell(DemoEvent::Step(format!(
        "ich extract --model {} --dataset {} --out {}{}",
        p(&at.bundle),
        p(&at.dataset),
        p(&at.features),
        o.compute.flags()
    )));
    let ex = extract(
        &ExtractJob {
            model: at.bundle.clone(),
            dataset: at.dataset.clone(),
            out: at.features.clone(),
            compute: o.compute,
            shard: milbase::Shard::ALL,
        },
        progress,
    )?;
    tell(DemoEvent::Said(format!(
        "{} slices of {} scans → {}",
        ex.slices,
        ex.scans,
        p(&at.features)
    )));

    Ok(())
}

/// `ich fit-gp`: the GP head (and a head per subtype) on the features, into the bundle.
fn fit_head(
    o: &DemoOptions,
    at: &Paths,
    progress: &dyn Progress,
    tell: &dyn Fn(DemoEvent<'_>),
) -> Result<()> {
    tell(DemoEvent::Step(format!(
        "ich fit-gp --features {} --bundle {} --model vgpmil --calibrate --seed {}",
        p(&at.features),
        p(&at.bundle),
        o.seed
    )));
    // the defaults of `ich fit-gp`: VGPMIL, E[max] by the leave-one-out max, 5 kernel steps per
    // epoch (docs/BENCHMARKS.md)
    let params = gphead::FitParams {
        model: gphead::Model::Vgpmil,
        emax: gphead::EmaxRule::LooMax,
        kernel_steps: Some(gphead::hyper::KernelSteps {
            steps: 5,
            ..Default::default()
        }),
        seed: o.seed,
        ..gphead::FitParams::default()
    };
    let fitted = fit_gp(
        &FitJob {
            features: at.features.clone(),
            params,
            valid_fraction: 0.2,
            calibrate: true,
            calibration_folds: 5,
            calibration_map: gphead::calibrate::MapFamily::Platt,
            samples: 500,
            out: None,
            bundle: Some(at.bundle.clone()),
            project: None,
            // the synthetic cohorts draw subtypes: a head for each with enough scans
            subtypes: true,
        },
        &|_| {},
        progress,
    )?;
    tell(DemoEvent::Fitted(&fitted));

    Ok(())
}

/// `ich predict` of the held-out cohort, with its labels: the demo's result.
fn predict_held_out(
    o: &DemoOptions,
    at: &Paths,
    progress: &dyn Progress,
    tell: &dyn Fn(DemoEvent<'_>),
) -> Result<crate::pipeline::predict::Outcome> {
    let job = PredictJob {
        model: at.bundle.clone(),
        inputs: vec![at.test_dicom.clone()],
        out: at.reports.clone(),
        labels: vec![
            at.test_dicom.join("labels.csv"),
            at.test_dicom.join("slice_labels.csv"),
        ],
        html: true,
        options: PredictOptions {
            seed: 0,
            compute: o.compute,
            ..PredictOptions::default()
        },
        // the SR and the Secondary Captures too, as `ich predict` writes them, to look at
        pacs: crate::pipeline::predict::PacsJob::default(),
        shard: milbase::Shard::ALL,
        force: false,
    };
    tell(DemoEvent::Step(format!(
        "ich predict --model {} {} --out {} --labels {} --labels {}{}",
        p(&at.bundle),
        p(&at.test_dicom),
        p(&at.reports),
        p(&job.labels[0]),
        p(&job.labels[1]),
        o.compute.flags()
    )));
    let outcome = crate::pipeline::predict::run(&job, progress)?;
    if outcome.report.scans.is_empty() {
        return Err(Error::Invalid("the demo predicted no scan".into()));
    }
    Ok(outcome)
}
