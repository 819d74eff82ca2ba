//! `ich train-cnn` and `ich extract`: the attention CNN on a preprocessed dataset.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use attcnn::inference::Trained;
use attcnn::training::{train, weights_path, Event};
use attcnn::{AttCnnConfig, BagSource, TrainConfig};
use preprocess::dataset::{Dataset, ScanEntry};
use preprocess::{PreprocessConfig, Progress};

use crate::bundle::{Bundle, DataSummary};
use serde::{Deserialize, Serialize};

/// Version of the model folder's `config.json`.
pub const MODEL_FORMAT: u32 = 1;

/// `MODELDIR/config.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CnnFolderConfig {
    pub format_version: u32,
    pub model: AttCnnConfig,
    pub train: TrainConfig,
    /// The preprocessing of the dataset it was trained on: inputs must match it.
    pub preprocess: PreprocessConfig,
    pub dataset: String,
    pub train_scans: Vec<String>,
    pub valid_scans: Vec<String>,
}

impl CnnFolderConfig {
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let p = dir.join("config.json");
        let c: CnnFolderConfig = serde_json::from_slice(
            &std::fs::read(&p).with_context(|| format!("reading {}", p.display()))?,
        )
        .with_context(|| format!("parsing {}", p.display()))?;
        if c.format_version != MODEL_FORMAT {
            bail!(
                "{}: model folder format {} is not supported (this build reads {MODEL_FORMAT})",
                p.display(),
                c.format_version
            );
        }
        Ok(c)
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum DeviceArg {
    /// CPU (burn-flex).
    Cpu,
    /// GPU through wgpu (build with `--features wgpu`; `WGPU_BACKEND=vulkan|gl|metal|dx12` pins the
    /// graphics API, else the runtime picks one).
    Wgpu,
    /// CPU through the deprecated burn-ndarray backend, 4–6× slower than flex on this model
    /// (build with `--features ndarray`).
    Ndarray,
}

pub fn device(d: DeviceArg) -> anyhow::Result<burn::tensor::Device> {
    match d {
        DeviceArg::Cpu => Ok(attcnn::cpu_device()),
        #[cfg(feature = "wgpu")]
        DeviceArg::Wgpu => wgpu_device(),
        #[cfg(not(feature = "wgpu"))]
        DeviceArg::Wgpu => bail!(
            "this build has no wgpu support: rebuild with `cargo build --release --features wgpu`"
        ),
        #[cfg(feature = "ndarray")]
        #[allow(deprecated)] // burn 0.22 deprecates burn-ndarray; kept for comparison
        DeviceArg::Ndarray => Ok(burn::tensor::Device::ndarray()),
        #[cfg(not(feature = "ndarray"))]
        DeviceArg::Ndarray => bail!(
            "this build has no burn-ndarray support: rebuild with `cargo build --release --features ndarray`"
        ),
    }
}

/// The wgpu device, set up once per process on the graphics API that `WGPU_BACKEND` names
/// (`vulkan`, `gl`, `metal`, `dx12`; unset or `auto`: the runtime picks, Vulkan first). A machine
/// without a usable adapter gets an error, not a panic at the first tensor.
#[cfg(feature = "wgpu")]
fn wgpu_device() -> anyhow::Result<burn::tensor::Device> {
    use burn::tensor::wgpu::WgpuBackend;
    static DEVICE: std::sync::OnceLock<burn::tensor::Device> = std::sync::OnceLock::new();
    if let Some(d) = DEVICE.get() {
        return Ok(d.clone());
    }
    let wanted = std::env::var("WGPU_BACKEND").unwrap_or_default();
    let api = match wanted.to_ascii_lowercase().as_str() {
        "" | "auto" => WgpuBackend::Auto,
        "vulkan" => WgpuBackend::Vulkan,
        "gl" | "opengl" => WgpuBackend::Gl,
        "metal" => WgpuBackend::Metal,
        "dx12" => WgpuBackend::Dx12,
        other => bail!("WGPU_BACKEND={other}: expected vulkan, gl, metal, dx12 or auto"),
    };
    let device = burn::tensor::Device::wgpu_options()
        .graphics_api(api)
        .init()
        .map_err(|e| anyhow::anyhow!("no usable wgpu adapter ({api:?}): {e}"))?;
    tracing::info!(?api, "wgpu device ready");
    Ok(DEVICE.get_or_init(|| device).clone())
}

/// A preprocessed dataset as bags for the CNN.
struct DatasetBags<'a> {
    ds: &'a Dataset,
    entries: Vec<&'a ScanEntry>,
}

impl BagSource for DatasetBags<'_> {
    fn len(&self) -> usize {
        self.entries.len()
    }
    fn label(&self, i: usize) -> Option<u8> {
        self.entries[i].label
    }
    fn name(&self, i: usize) -> String {
        self.entries[i].id.clone()
    }
    fn pixels(&self, i: usize) -> Result<(usize, Vec<u8>), String> {
        let p = self
            .ds
            .scan_pixels(self.entries[i])
            .map_err(|e| e.to_string())?;
        Ok((p.n_slices, p.data))
    }
}

/// Train the attention CNN on scan labels of a preprocessed dataset; keep the best weights, a
/// checkpoint per epoch and the training log in the model folder.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Dataset written by `ich preprocess`.
    #[arg(long)]
    dataset: PathBuf,
    /// Model bundle to write (e.g. models/<name>): CNN config, weights, training log, manifest.
    #[arg(long)]
    out: PathBuf,
    /// Slice feature dimension D.
    #[arg(long, default_value_t = 32)]
    dim: usize,
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Adam learning rate.
    #[arg(long, default_value_t = 5e-5)]
    lr: f64,
    /// Early stopping: epochs without a lower validation loss.
    #[arg(long, default_value_t = 8)]
    patience: usize,
    /// Fraction of scans (stratified) for validation.
    #[arg(long, default_value_t = 0.2)]
    valid_fraction: f64,
    /// No random horizontal flips.
    #[arg(long)]
    no_augment: bool,
    /// Bags per optimiser step (slices of all bags go through batch norm together).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(usize))]
    batch: usize,
    /// Dropout after conv blocks 2, 5 and 6.
    #[arg(long, default_value_t = 0.3)]
    conv_dropout: f64,
    /// Dropout before the classifier.
    #[arg(long, default_value_t = 0.25)]
    head_dropout: f64,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Continue from the model folder's last checkpoint.
    #[arg(long)]
    resume: bool,
    /// Where the CNN runs (`wgpu` and `ndarray` need the cargo feature of the same name).
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
}

pub fn train_cnn(a: TrainArgs, bars: &crate::progress::Bars) -> anyhow::Result<ExitCode> {
    let ds = Dataset::open(&a.dataset)?;
    let entries: Vec<&ScanEntry> = ds
        .manifest
        .scans
        .iter()
        .filter(|e| e.label.is_some())
        .collect();
    if entries.len() < 4 {
        bail!(
            "{}: {} labelled scans; training needs at least 4 (preprocess with --labels)",
            a.dataset.display(),
            entries.len()
        );
    }
    let labels: Vec<u8> = entries.iter().map(|e| e.label.expect("filtered")).collect();
    let (train_idx, valid_idx) =
        gphead::protocol::stratified_holdout(&labels, a.valid_fraction, a.seed);
    let model = AttCnnConfig {
        dim: a.dim,
        size: ds.manifest.config.size,
        conv_dropout: a.conv_dropout,
        head_dropout: a.head_dropout,
        ..AttCnnConfig::default()
    };
    model.validate().map_err(|e| anyhow::anyhow!(e))?;
    let tc = TrainConfig {
        epochs: a.epochs,
        lr: a.lr,
        patience: a.patience,
        seed: a.seed,
        augment: !a.no_augment,
        batch: a.batch,
    };
    // before anything is written: a missing backend leaves no half-made model folder
    let device = device(a.device)?;
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let folder = CnnFolderConfig {
        format_version: MODEL_FORMAT,
        model: model.clone(),
        train: tc.clone(),
        preprocess: ds.manifest.config.clone(),
        dataset: a.dataset.display().to_string(),
        train_scans: train_idx.iter().map(|&i| entries[i].id.clone()).collect(),
        valid_scans: valid_idx.iter().map(|&i| entries[i].id.clone()).collect(),
    };
    if a.resume {
        let old = CnnFolderConfig::load(&a.out)
            .context("--resume needs the model folder of an earlier run")?;
        if old.model != model || old.preprocess != folder.preprocess {
            bail!(
                "{}: --resume with another architecture or dataset configuration",
                a.out.display()
            );
        }
    }
    preprocess::dataset::write_json(&a.out.join("config.json"), &folder)?;
    let (_, s) = model.geometry();
    println!(
        "training on {} scans, validating on {}; {}² input, {} conv blocks ({}×{} before Dense({}))",
        train_idx.len(),
        valid_idx.len(),
        model.size,
        model.geometry().0 + 1,
        s,
        s,
        model.dim
    );
    let count_pos = |idx: &[usize]| idx.iter().filter(|&&i| labels[i] == 1).count();
    let summary = DataSummary {
        source: a.dataset.display().to_string(),
        train_scans: train_idx.len(),
        train_positive: count_pos(&train_idx),
        valid_scans: valid_idx.len(),
        valid_positive: count_pos(&valid_idx),
        slices: Some(
            train_idx
                .iter()
                .chain(&valid_idx)
                .map(|&i| entries[i].n_slices)
                .sum(),
        ),
    };
    let source = DatasetBags { ds: &ds, entries };
    let progress = |e: Event<'_>| match e {
        Event::Epoch { epoch, bags } => bars.stage(&format!("epoch {epoch}"), bags as u64),
        Event::Bag => bars.inc(1),
        Event::EpochDone(l) => {
            bars.done();
            println!(
                "epoch {:>3}: train loss {:.4}, valid loss {:.4}, valid AUC {}, {:.1} s",
                l.epoch,
                l.train_loss,
                l.valid_loss,
                l.valid_auc
                    .map(|v| format!("{v:.4}"))
                    .unwrap_or_else(|| "–".into()),
                l.seconds
            );
        }
    };
    let out = train(
        &model, &tc, &source, &train_idx, &valid_idx, &device, &a.out, a.resume, &progress,
    )?;
    if let Some(e) = out.resumed_from {
        println!("resumed after epoch {e}");
    }
    Bundle::write_after_cnn(&a.out, &folder, summary, &out.log, out.best_epoch)?;
    let best = &out.log.iter().find(|l| l.epoch == out.best_epoch);
    println!(
        "best epoch {} (valid loss {:.4}, AUC {}); weights {}",
        out.best_epoch,
        best.map(|b| b.valid_loss).unwrap_or(f64::NAN),
        best.and_then(|b| b.valid_auc)
            .map(|v| format!("{v:.4}"))
            .unwrap_or_else(|| "–".into()),
        weights_path(&a.out).display()
    );
    println!(
        "bundle: {} (add the GP head with `ich fit-gp --bundle {}`)",
        a.out.join(crate::bundle::MANIFEST).display(),
        a.out.display()
    );
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
    #[arg(long)]
    out: PathBuf,
    /// Where the CNN runs (`wgpu` and `ndarray` need the cargo feature of the same name).
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
}

pub fn extract(a: ExtractArgs, bars: &crate::progress::Bars) -> anyhow::Result<ExitCode> {
    let bundle = Bundle::open(&a.model)?;
    let cfg = &bundle.cnn;
    let ds = Dataset::open(&a.dataset)?;
    bundle.check_preprocess(&a.dataset, &ds.manifest.config)?;
    let device = device(a.device)?;
    let net = Trained::load(cfg.model.clone(), &bundle.weights(), &device)?;
    let d = cfg.model.dim;
    let tmp = a.out.with_extension("csv.tmp");
    let f = std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let mut w = std::io::BufWriter::new(f);
    let feats: Vec<String> = (0..d).map(|k| format!("feature_{k}")).collect();
    writeln!(w, "{},instance_name,instance_label,bag_name,bag_label,bag_cnn_probability,bag_cnn_prediction,cnn_attention,z", feats.join(","))?;
    bars.stage("extracting features", ds.manifest.scans.len() as u64);
    let mut n = 0usize;
    for e in &ds.manifest.scans {
        let meta = ds.scan_meta(e)?;
        let px = ds.scan_pixels(e)?;
        let out = net.scan(px.n_slices, &px.data)?;
        let label = e.label.map(|l| l.to_string()).unwrap_or_default();
        for (k, s) in meta.slices.iter().enumerate() {
            let fv: Vec<String> = out.features[k].iter().map(|v| format!("{v}")).collect();
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{}",
                fv.join(","),
                s.sop_instance_uid,
                s.label.map(|l| l.to_string()).unwrap_or_default(),
                e.id,
                label,
                out.probability,
                u8::from(out.probability >= 0.5),
                out.attention[k],
                s.z.map(|z| z.to_string()).unwrap_or_default()
            )?;
            n += 1;
        }
        bars.inc(1);
    }
    bars.done();
    w.flush()?;
    drop(w);
    std::fs::rename(&tmp, &a.out).with_context(|| format!("writing {}", a.out.display()))?;
    println!(
        "{n} slices of {} scans → {}",
        ds.manifest.scans.len(),
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
