//! Training on scan labels: one bag per step, class-weighted binary cross-entropy, Adam,
//! validation bag AUC and loss every epoch, early stopping, atomic checkpoints, resume.

use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::model::{AttCnn, AttCnnConfig};
use crate::{CnnError, Result};

/// Where bags come from: the binary adapts a preprocessed dataset to this (attcnn knows nothing
/// of DICOM or of the dataset's files).
pub trait BagSource: Sync {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn label(&self, i: usize) -> Option<u8>;
    fn name(&self, i: usize) -> String;
    /// Pixels of bag i: (slices, uint8 `[slices, 3, size, size]`).
    fn pixels(&self, i: usize) -> std::result::Result<(usize, Vec<u8>), String>;
}

/// Training hyper-parameters (saved next to the weights).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    pub epochs: usize,
    pub lr: f64,
    /// Early stopping: epochs without a lower validation loss.
    pub patience: usize,
    pub seed: u64,
    /// Random horizontal flips of training bags.
    pub augment: bool,
    /// Bags per optimiser step (1 as the authors; more gives batch norm steadier statistics).
    #[serde(default = "one")]
    pub batch: usize,
}

fn one() -> usize {
    1
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self {
            epochs: 30,
            lr: 5e-5,
            patience: 8,
            seed: 0,
            augment: true,
            batch: 1,
        }
    }
}

/// One line of the training log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpochLog {
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: f64,
    pub valid_auc: Option<f64>,
    pub seconds: f64,
}

/// Checkpoint state (beside the weights in `checkpoint/`).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct State {
    epoch: usize,
    best_epoch: usize,
    best_valid_loss: f64,
    log: Vec<EpochLog>,
}

/// Events for progress reporting.
pub enum Event<'a> {
    Epoch { epoch: usize, bags: usize },
    Bag,
    EpochDone(&'a EpochLog),
}

/// A bag as a `[1, S, 3, size, size]` tensor in [0, 1].
pub fn bag_tensor(pixels: &[u8], slices: usize, size: usize, device: &Device) -> Tensor<5> {
    let v: Vec<f32> = pixels.iter().map(|&p| p as f32 / 255.0).collect();
    Tensor::from_data(TensorData::new(v, [1, slices, 3, size, size]), device)
}

/// Mirrors every row of uint8 `[.., size]` images (left ↔ right).
pub fn flip_horizontal(pixels: &mut [u8], size: usize) {
    for row in pixels.chunks_mut(size) {
        row.reverse();
    }
}

/// Class-weighted BCE on logits: `w · (softplus(z) − y z)`, softplus computed stably; `y` and `w`
/// are scalars or tensors of the logits' shape.
pub fn weighted_bce<Y>(logit: Tensor<1>, y: Y, w: Y) -> Tensor<1>
where
    Tensor<1>: std::ops::Mul<Y, Output = Tensor<1>>,
{
    let sp = relu(logit.clone()) + logit.clone().abs().neg().exp().log1p();
    (sp - logit * y) * w
}

/// Class weights `N / (2 N_c)` so that both classes weigh the same.
pub fn class_weights(labels: &[u8]) -> [f32; 2] {
    let n = labels.len() as f32;
    let pos = labels.iter().filter(|&&l| l == 1).count().max(1) as f32;
    let neg = (labels.len() - labels.iter().filter(|&&l| l == 1).count()).max(1) as f32;
    [n / (2.0 * neg), n / (2.0 * pos)]
}

fn scalar(t: Tensor<1>) -> f64 {
    t.into_data()
        .try_to_vec::<f32>()
        .map(|v| v[0] as f64)
        .unwrap_or(f64::NAN)
}

/// Scan probabilities and mean weighted loss of `model` on some bags (no gradients).
pub fn evaluate(
    model: &AttCnn,
    cfg: &AttCnnConfig,
    source: &dyn BagSource,
    idx: &[usize],
    weights: [f32; 2],
    device: &Device,
) -> Result<(Vec<f64>, f64)> {
    let m = model.valid();
    let mut probs = Vec::with_capacity(idx.len());
    let mut loss = 0.0;
    for &i in idx {
        let (s, px) = source.pixels(i).map_err(CnnError::Data)?;
        let x = bag_tensor(&px, s, cfg.size, device);
        let (logit, _, _) = m.forward(x, None);
        let z = scalar(logit.clone());
        probs.push(1.0 / (1.0 + (-z).exp()));
        if let Some(y) = source.label(i) {
            loss += scalar(weighted_bce(logit, y as f32, weights[y as usize]));
        }
    }
    Ok((probs, loss / idx.len().max(1) as f64))
}

/// ROC AUC with ties counted one half.
pub fn auc(labels: &[u8], scores: &[f64]) -> Option<f64> {
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    for (&l, &s) in labels.iter().zip(scores) {
        if l == 1 {
            pos.push(s)
        } else {
            neg.push(s)
        }
    }
    if pos.is_empty() || neg.is_empty() {
        return None;
    }
    let mut u = 0.0;
    for p in &pos {
        for q in &neg {
            u += if p > q {
                1.0
            } else if p == q {
                0.5
            } else {
                0.0
            };
        }
    }
    Some(u / (pos.len() * neg.len()) as f64)
}

fn save_atomic(model: AttCnn, path: &Path) -> Result<()> {
    let tmp = path.with_extension("tmp.bpk");
    model
        .save_file(&tmp)
        .map_err(|e| CnnError::Io(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| CnnError::Io(format!("{}: {e}", path.display())))
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| CnnError::Io(format!("{}: {e}", path.display())))
}

/// Files of a model folder.
pub fn weights_path(dir: &Path) -> PathBuf {
    dir.join("model.bpk")
}
fn ckpt_dir(dir: &Path) -> PathBuf {
    dir.join("checkpoint")
}

fn write_log(dir: &Path, log: &[EpochLog]) -> Result<()> {
    let mut s = String::from("epoch,train_loss,valid_loss,valid_auc,seconds\n");
    for l in log {
        s.push_str(&format!(
            "{},{},{},{},{}\n",
            l.epoch,
            l.train_loss,
            l.valid_loss,
            l.valid_auc.map(|v| v.to_string()).unwrap_or_default(),
            l.seconds
        ));
    }
    write_atomic(&dir.join("log.csv"), s.as_bytes())
}

/// What a training run produced.
pub struct TrainOutcome {
    pub log: Vec<EpochLog>,
    pub best_epoch: usize,
    pub resumed_from: Option<usize>,
}

/// Trains on `train_idx`, validates on `valid_idx` every epoch, keeps the best weights (lowest
/// validation loss, ties by AUC) in `dir/model.bpk`, checkpoints every epoch to
/// `dir/checkpoint/` atomically and resumes from it when `resume` is set.
#[allow(clippy::too_many_arguments)]
pub fn train(
    cfg: &AttCnnConfig,
    tc: &TrainConfig,
    source: &dyn BagSource,
    train_idx: &[usize],
    valid_idx: &[usize],
    device: &Device,
    dir: &Path,
    resume: bool,
    progress: &dyn Fn(Event<'_>),
) -> Result<TrainOutcome> {
    cfg.validate().map_err(CnnError::Config)?;
    if train_idx.is_empty() {
        return Err(CnnError::Data("no training scans".into()));
    }
    let labels: Vec<u8> = train_idx
        .iter()
        .map(|&i| {
            source
                .label(i)
                .ok_or_else(|| CnnError::Data(format!("scan {} has no label", source.name(i))))
        })
        .collect::<Result<_>>()?;
    let weights = class_weights(&labels);
    let ad = device.clone().autodiff();
    std::fs::create_dir_all(ckpt_dir(dir))
        .map_err(|e| CnnError::Io(format!("{}: {e}", dir.display())))?;
    let state_path = ckpt_dir(dir).join("state.json");
    let (mut model, mut optim, mut state, resumed_from) = if resume && state_path.exists() {
        let st: State = serde_json::from_slice(
            &std::fs::read(&state_path)
                .map_err(|e| CnnError::Io(format!("{}: {e}", state_path.display())))?,
        )
        .map_err(|e| CnnError::Io(format!("{}: {e}", state_path.display())))?;
        let model = cfg
            .init(&ad)
            .try_load_file(ckpt_dir(dir).join("model-last.bpk"))
            .map_err(|e| CnnError::Io(format!("checkpoint: {e}")))?;
        let optim = AdamConfig::new().init();
        let optim = match burn::optim::OptimizerRecord::load(ckpt_dir(dir).join("optim-last.bpk")) {
            Ok(r) => optim.load_record(r),
            Err(e) => {
                tracing::warn!("optimizer state not restored ({e}); Adam restarts");
                optim
            }
        };
        let from = st.epoch;
        (model, optim, st, Some(from))
    } else {
        ad.seed(tc.seed);
        (
            cfg.init(&ad),
            AdamConfig::new().init(),
            State {
                epoch: 0,
                best_epoch: 0,
                best_valid_loss: f64::INFINITY,
                log: Vec::new(),
            },
            None,
        )
    };
    let valid_labels: Vec<u8> = valid_idx
        .iter()
        .map(|&i| source.label(i).unwrap_or(0))
        .collect();
    let start = if resumed_from.is_some() {
        state.epoch + 1
    } else {
        0
    };
    for epoch in start..tc.epochs {
        let t0 = Instant::now();
        ad.seed(tc.seed.wrapping_add(epoch as u64 * 7919));
        let mut rng = ChaCha8Rng::seed_from_u64(tc.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9));
        let mut order = train_idx.to_vec();
        order.shuffle(&mut rng);
        progress(Event::Epoch {
            epoch,
            bags: order.len(),
        });
        let mut total = 0.0;
        for chunk in order.chunks(tc.batch.max(1)) {
            let mut px_all = Vec::new();
            let mut lens = Vec::with_capacity(chunk.len());
            let mut ys = Vec::with_capacity(chunk.len());
            let mut ws = Vec::with_capacity(chunk.len());
            for &i in chunk {
                let (s, mut px) = source.pixels(i).map_err(CnnError::Data)?;
                if tc.augment && rand::Rng::random_bool(&mut rng, 0.5) {
                    flip_horizontal(&mut px, cfg.size);
                }
                px_all.extend_from_slice(&px);
                lens.push(s);
                let y = source.label(i).unwrap_or(0);
                ys.push(y as f32);
                ws.push(weights[y as usize]);
            }
            let n: usize = lens.iter().sum();
            let x = bag_tensor(&px_all, n, cfg.size, &ad);
            let [_, s, c, h, w] = x.dims();
            let logits = model.forward_ragged(x.reshape([s, c, h, w]), &lens);
            let b = lens.len();
            let y = Tensor::<1>::from_data(TensorData::new(ys, [b]), &ad);
            let wt = Tensor::<1>::from_data(TensorData::new(ws, [b]), &ad);
            let loss = weighted_bce(logits, y, wt).mean();
            total += scalar(loss.clone()) * b as f64;
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(tc.lr, model, grads);
            for _ in 0..b {
                progress(Event::Bag);
            }
        }
        let (probs, valid_loss) = evaluate(&model, cfg, source, valid_idx, weights, device)?;
        let entry = EpochLog {
            epoch,
            train_loss: total / order.len() as f64,
            valid_loss,
            valid_auc: auc(&valid_labels, &probs),
            seconds: t0.elapsed().as_secs_f64(),
        };
        progress(Event::EpochDone(&entry));
        tracing::info!(epoch, train_loss = entry.train_loss, valid_loss, valid_auc = ?entry.valid_auc, "epoch");
        let improved = valid_loss < state.best_valid_loss || valid_idx.is_empty();
        if improved {
            state.best_valid_loss = valid_loss;
            state.best_epoch = epoch;
            save_atomic(model.clone(), &weights_path(dir))?;
        }
        state.log.push(entry);
        state.epoch = epoch;
        save_atomic(model.clone(), &ckpt_dir(dir).join("model-last.bpk"))?;
        if let Err(e) = optim.to_record().save(ckpt_dir(dir).join("optim-last.bpk")) {
            tracing::warn!("optimizer state not saved: {e}");
        }
        write_atomic(
            &state_path,
            &serde_json::to_vec_pretty(&state).expect("state serialises"),
        )?;
        write_log(dir, &state.log)?;
        if epoch >= state.best_epoch + tc.patience {
            tracing::info!(epoch, best = state.best_epoch, "early stopping");
            break;
        }
    }
    Ok(TrainOutcome {
        log: state.log,
        best_epoch: state.best_epoch,
        resumed_from,
    })
}
