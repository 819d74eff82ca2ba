//! Training on scan labels (re-exported here: [`BagSource`], [`bag_tensor`] from [`crate::data`]):
//! one bag per step, class-weighted binary cross-entropy, Adam,
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

pub use crate::data::{bag_tensor, flip_horizontal, BagSource};
use crate::model::{AttCnn, AttCnnConfig};
use crate::precision::Precision;
use crate::{scalar, CnnError, Result};

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
    /// The float type of the forward and backward passes (the weights stay f32; [`Precision`]).
    #[serde(default)]
    pub precision: Precision,
}

fn one() -> usize {
    1
}

impl TrainConfig {
    /// Checks the settings; the message names the one out of range.
    pub fn validate(&self) -> std::result::Result<(), String> {
        if self.epochs == 0 {
            return Err("at least one epoch".into());
        }
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            return Err(format!(
                "learning rate {} is not a finite number > 0",
                self.lr
            ));
        }
        if self.batch == 0 {
            return Err("at least one bag per step".into());
        }
        Ok(())
    }
}

/// Where training writes: the best weights, the log, and the checkpoint folder (last weights,
/// optimiser state, epoch). The bundle layer above decides the names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainPaths {
    pub weights: PathBuf,
    pub log: PathBuf,
    pub checkpoint: PathBuf,
}

/// One training run: what to train, on which bags, where to write.
pub struct TrainRun<'a> {
    pub model: &'a AttCnnConfig,
    pub config: &'a TrainConfig,
    /// Indices (into the bag source) of the training bags.
    pub train: &'a [usize],
    /// Indices of the validation bags.
    pub valid: &'a [usize],
    pub device: &'a Device,
    pub paths: &'a TrainPaths,
    /// Continue from the checkpoint.
    pub resume: bool,
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
            precision: Precision::F32,
        }
    }
}

/// One line of the training log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpochLog {
    pub epoch: usize,
    /// The epochs the run was asked for (0 in logs written before it was recorded).
    #[serde(default)]
    pub epochs: usize,
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

/// Class-weighted BCE on logits: `w · (softplus(z) − y z)`, softplus computed stably; `y` and `w`
/// are scalars or tensors of the logits' shape.
pub fn weighted_bce<Y>(logit: Tensor<1>, y: Y, w: Y) -> Tensor<1>
where
    Tensor<1>: std::ops::Mul<Y, Output = Tensor<1>>,
{
    let sp = relu(logit.clone()) + logit.clone().abs().neg().exp().log1p();
    (sp - logit * y) * w
}

/// [`weighted_bce`] of a `[B, K]` block of logits (each subtype's), elementwise.
pub fn weighted_bce2(logit: Tensor<2>, y: Tensor<2>, w: Tensor<2>) -> Tensor<2> {
    let sp = relu(logit.clone()) + logit.clone().abs().neg().exp().log1p();
    (sp - logit * y) * w
}

/// As [`batch_logits`], with the subtypes' logits `[B, K]` of a multi-label network (f32).
pub fn batch_logits_all(
    model: &AttCnn,
    x: Tensor<4>,
    lens: &[usize],
    precision: Precision,
) -> (Tensor<1>, Option<Tensor<2>>) {
    let x = precision.input(x);
    match precision {
        Precision::F32 => model.forward_ragged_all(x, lens),
        p => {
            let (a, s) = p.cast(model.clone()).forward_ragged_all(x, lens);
            let f32 = burn::tensor::FloatDType::F32;
            (a.cast(f32), s.map(|s| s.cast(f32)))
        }
    }
}

/// The subtype labels of the training bags: per subtype, the class weights `N / (2 N_c)` over
/// the bags that know it (as [`class_weights`] for "any").
fn subtype_weights(source: &dyn BagSource, idx: &[usize], k: usize) -> Vec<[f32; 2]> {
    (0..k)
        .map(|j| {
            let known: Vec<u8> = idx
                .iter()
                .filter_map(|&i| source.subtypes(i).get(j).copied().flatten())
                .collect();
            class_weights(&known)
        })
        .collect()
}

/// The logits of a batch of bags as a training step computes them: `x` holds the bags' slices one
/// after another (`[Σ lens, 3, H, W]`, values in [0, 1]), `lens` their slice counts. In half
/// precision the network runs on a copy cast to that type, whose casts lead the gradients back to
/// the f32 weights; the logits come back in f32.
pub fn batch_logits(
    model: &AttCnn,
    x: Tensor<4>,
    lens: &[usize],
    precision: Precision,
) -> Tensor<1> {
    let x = precision.input(x);
    match precision {
        Precision::F32 => model.forward_ragged(x, lens),
        p => p
            .cast(model.clone())
            .forward_ragged(x, lens)
            .cast(burn::tensor::FloatDType::F32),
    }
}

/// Class weights `N / (2 N_c)` so that both classes weigh the same.
pub fn class_weights(labels: &[u8]) -> [f32; 2] {
    let n = labels.len() as f32;
    let pos = labels.iter().filter(|&&l| l == 1).count().max(1) as f32;
    let neg = (labels.len() - labels.iter().filter(|&&l| l == 1).count()).max(1) as f32;
    [n / (2.0 * neg), n / (2.0 * pos)]
}

/// Visits every float parameter, which draws the lazily initialised ones where they are.
struct Materialise;

impl burn::module::ModuleVisitor for Materialise {
    fn visit_float<const D: usize>(&mut self, param: &burn::module::Param<Tensor<D>>) {
        let _ = param.val();
    }
}

/// A fresh model for `device` (an autodiff device, as training's) whose initial weights are drawn
/// on the CPU from `seed`, then copied there: every backend (flex, wgpu, CUDA) starts training
/// from the same weights, the ones `--device cpu` starts from, rather than from its own random
/// generator. burn initialises parameters lazily and moving an untouched one only retargets its
/// initialisation, so the weights are drawn before they move.
pub fn init_on_host(cfg: &AttCnnConfig, seed: u64, device: &Device) -> AttCnn {
    let host = crate::cpu_device().autodiff();
    host.seed(seed);
    let model = cfg.init(&host);
    model.visit(&mut Materialise);
    model.fork(device)
}

/// A bag's pixels, checked: at least one slice and as many bytes as its slices need.
fn bag_pixels(source: &dyn BagSource, i: usize, cfg: &AttCnnConfig) -> Result<(usize, Vec<u8>)> {
    let (s, px) = source.pixels(i).map_err(CnnError::Data)?;
    if s == 0 {
        return Err(CnnError::Data(format!(
            "scan {} has no slices",
            source.name(i)
        )));
    }
    let want = s * 3 * cfg.size * cfg.size;
    if px.len() != want {
        return Err(CnnError::Data(format!(
            "scan {}: {} bytes for {s} slices of {}² (expected {want})",
            source.name(i),
            px.len(),
            cfg.size
        )));
    }
    Ok((s, px))
}

/// The class-weighted binary cross-entropy of one logit, as [`weighted_bce`] computes it.
/// Weighted binary cross-entropy of a logit: −log σ(z) = softplus(−z) for a positive,
/// −log(1 − σ(z)) = softplus(z) for a negative, each in the form that keeps its relative precision
/// however small the loss (`softplus(z) − z` would cancel to nothing for a confident positive).
fn bce(z: f64, y: u8, w: f32) -> f64 {
    let softplus = |x: f64| x.max(0.0) + (-x.abs()).exp().ln_1p();
    let loss = if y == 1 { softplus(-z) } else { softplus(z) };
    loss * f64::from(w)
}

/// Scan probabilities ("any") and the mean loss of `model` on some bags (no gradients): the
/// training objective per bag, "any"'s weighted loss plus, in a multi-label network, the mean of
/// the subtypes' weighted losses over the bag's known subtype labels (`sub_weights`, as in
/// training). The best epoch is chosen on it, so a multi-label network is kept where all its
/// outputs do best together, not where "any" alone does.
pub fn evaluate(
    model: &AttCnn,
    cfg: &AttCnnConfig,
    source: &dyn BagSource,
    idx: &[usize],
    weights: [f32; 2],
    sub_weights: &[[f32; 2]],
    device: &Device,
) -> Result<(Vec<f64>, f64)> {
    // f32 throughout (batch norm's running statistics included, which a half-precision training
    // step leaves in its float type)
    let m = Precision::F32.cast(model.valid());
    let mut probs = Vec::with_capacity(idx.len());
    let mut loss = 0.0;
    for &i in idx {
        let (s, px) = bag_pixels(source, i, cfg)?;
        let x = bag_tensor(&px, s, cfg.size, device);
        let (logit, sub) = m.forward_with_subtypes(x, None);
        let z = scalar(logit);
        probs.push(1.0 / (1.0 + (-z).exp()));
        if let Some(y) = source.label(i) {
            loss += bce(z, y, weights[usize::from(y)]);
        }
        if let (Some(sub), false) = (sub, sub_weights.is_empty()) {
            let zs = crate::host_f32(sub)
                .map_err(|e| CnnError::Data(format!("scan {}: {e}", source.name(i))))?;
            let labels = source.subtypes(i);
            let (mut sum, mut known) = (0.0, 0usize);
            for (j, w) in sub_weights.iter().enumerate() {
                if let (Some(y), Some(&z)) = (labels.get(j).copied().flatten(), zs.get(j)) {
                    sum += bce(f64::from(z), y, w[usize::from(y)]);
                    known += 1;
                }
            }
            if known > 0 {
                loss += sum / known as f64;
            }
        }
    }
    Ok((probs, loss / idx.len().max(1) as f64))
}

/// Saves the weights atomically: burn serialises them to a burnpack in memory, and the one
/// writer ([`milbase::atomic`]) puts the bytes in place (burn's own file writer opens a name of
/// its choosing, which a planted link could redirect).
pub fn save_atomic(model: AttCnn, path: &Path) -> Result<()> {
    let bytes = model
        .into_record()
        .into_bytes()
        .map_err(|e| CnnError::Io(format!("{}: {e}", path.display())))?;
    write_atomic(path, &bytes)
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    milbase::write_atomic(path, bytes).map_err(|e| CnnError::Io(format!("{}: {e}", path.display())))
}

fn write_log(path: &Path, log: &[EpochLog]) -> Result<()> {
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
    write_atomic(path, s.as_bytes())
}

/// What a training run produced.
#[derive(Debug, Clone)]
pub struct TrainOutcome {
    pub log: Vec<EpochLog>,
    pub best_epoch: usize,
    pub resumed_from: Option<usize>,
}

/// Batches read ahead of the training step: the next ones are decoded on another thread while
/// the device computes the current one, at most this many waiting (each holds its bags' pixels).
pub const PREFETCH: usize = 2;

/// One optimiser step's bags, read and labelled: pixels of every slice, slices per bag, "any"
/// labels and class weights, and `[bags, subtypes]` labels and weights (weight 0 where unknown).
struct Batch {
    px_all: Vec<u8>,
    lens: Vec<usize>,
    ys: Vec<f32>,
    ws: Vec<f32>,
    ys_sub: Vec<f32>,
    ws_sub: Vec<f32>,
}

fn read_batch(
    source: &dyn BagSource,
    chunk: &[usize],
    flips: &[bool],
    cfg: &AttCnnConfig,
    weights: [f32; 2],
    sub_weights: &[[f32; 2]],
) -> Result<Batch> {
    let mut b = Batch {
        px_all: Vec::new(),
        lens: Vec::with_capacity(chunk.len()),
        ys: Vec::with_capacity(chunk.len()),
        ws: Vec::with_capacity(chunk.len()),
        ys_sub: Vec::with_capacity(chunk.len() * sub_weights.len()),
        ws_sub: Vec::with_capacity(chunk.len() * sub_weights.len()),
    };
    for (&i, &flip) in chunk.iter().zip(flips) {
        let (s, mut px) = bag_pixels(source, i, cfg)?;
        if flip {
            flip_horizontal(&mut px, cfg.size);
        }
        b.px_all.extend_from_slice(&px);
        b.lens.push(s);
        let y = source.label(i).unwrap_or(0);
        b.ys.push(y as f32);
        b.ws.push(weights[y as usize]);
        let subs = source.subtypes(i);
        for (j, w) in sub_weights.iter().enumerate() {
            // an unknown subtype weighs nothing
            let v = subs.get(j).copied().flatten();
            b.ys_sub.push(v.unwrap_or(0) as f32);
            b.ws_sub.push(v.map_or(0.0, |v| w[v as usize]));
        }
    }
    Ok(b)
}

/// Runs `produce` on another thread and hands what it sends, in order, to `consume` on this one
/// as an iterator, with at most `depth` items waiting. `produce`'s sender answers false once
/// `consume` has returned (early, on an error), and the producer should then return; `consume`'s
/// result is returned after the producer has finished.
pub fn prefetch<T: Send, R>(
    depth: usize,
    produce: impl FnOnce(&dyn Fn(T) -> bool) + Send,
    consume: impl FnOnce(&mut dyn Iterator<Item = T>) -> R,
) -> R {
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<T>(depth.max(1));
        scope.spawn(move || produce(&|item| tx.send(item).is_ok()));
        // the receiver is dropped as this closure returns, before the scope waits for the
        // producer, whose next send then fails and stops it
        consume(&mut rx.iter())
    })
}

/// The bags of a run checked before any is read: the configurations valid, a training bag at
/// least, every index a bag, labels 0 or 1 (every training bag labelled), and each bag's subtype
/// labels as many as the network's subtype outputs, or none. The training bags' labels.
fn check_bags(run: &TrainRun<'_>, source: &dyn BagSource) -> Result<Vec<u8>> {
    let TrainRun {
        model: cfg,
        config: tc,
        train: train_idx,
        valid: valid_idx,
        ..
    } = *run;
    cfg.validate().map_err(CnnError::Config)?;
    tc.validate().map_err(CnnError::Config)?;
    if train_idx.is_empty() {
        return Err(CnnError::Data("no training scans".into()));
    }
    for &i in train_idx.iter().chain(valid_idx) {
        if i >= source.len() {
            return Err(CnnError::Data(format!(
                "bag {i} of {} does not exist",
                source.len()
            )));
        }
        if source.label(i).is_some_and(|l| l > 1) {
            return Err(CnnError::Data(format!(
                "scan {} has label {:?}; labels must be 0 or 1",
                source.name(i),
                source.label(i)
            )));
        }
    }
    let labels: Vec<u8> = train_idx
        .iter()
        .map(|&i| {
            source
                .label(i)
                .ok_or_else(|| CnnError::Data(format!("scan {} has no label", source.name(i))))
        })
        .collect::<Result<_>>()?;
    for &i in train_idx.iter().chain(valid_idx) {
        let n = source.subtypes(i).len();
        if n != 0 && n != cfg.subtypes {
            return Err(CnnError::Data(format!(
                "scan {} has {n} subtype labels; the network has {} subtype outputs",
                source.name(i),
                cfg.subtypes
            )));
        }
    }
    Ok(labels)
}

/// The end of an epoch on disk, each file atomically: the weights when they are the best so far,
/// the checkpoint (the last weights, the optimizer's state, `state.json`) and the log.
fn save_epoch(
    model: &AttCnn,
    optim: burn::optim::OptimizerRecord,
    state: &State,
    (paths, improved): (&TrainPaths, bool),
) -> Result<()> {
    let ckpt = &paths.checkpoint;
    if improved {
        save_atomic(model.clone(), &paths.weights)?;
    }
    save_atomic(model.clone(), &ckpt.join("model-last.bpk"))?;
    if let Err(e) = optim.save(ckpt.join("optim-last.bpk")) {
        tracing::warn!("optimizer state not saved: {e}");
    }
    let state_path = ckpt.join("state.json");
    let state_json = serde_json::to_vec_pretty(state)
        .map_err(|e| CnnError::Io(format!("{}: {e}", state_path.display())))?;
    write_atomic(&state_path, &state_json)?;
    write_log(&paths.log, &state.log)
}

/// One batch's loss on `model`: the class-weighted cross-entropy of "any", plus the subtypes'
/// (the mean over the bags' known subtype labels); and its number of bags.
fn batch_loss(
    model: &AttCnn,
    cfg: &AttCnnConfig,
    tc: &TrainConfig,
    batch: Batch,
    ad: &Device,
) -> (Tensor<1>, usize) {
    let Batch {
        px_all,
        lens,
        ys,
        ws,
        ys_sub,
        ws_sub,
    } = batch;
    let k = cfg.subtypes;
    let n: usize = lens.iter().sum();
    let x = bag_tensor(&px_all, n, cfg.size, ad);
    let [_, s, c, h, w] = x.dims();
    let (logits, sub_logits) =
        batch_logits_all(model, x.reshape([s, c, h, w]), &lens, tc.precision);
    let b = lens.len();
    let y = Tensor::<1>::from_data(TensorData::new(ys, [b]), ad);
    let wt = Tensor::<1>::from_data(TensorData::new(ws, [b]), ad);
    let mut loss = weighted_bce(logits, y, wt).mean();
    let known = ws_sub.iter().filter(|&&w| w > 0.0).count();
    if let (Some(sl), true) = (sub_logits, known > 0) {
        let y = Tensor::<2>::from_data(TensorData::new(ys_sub, [b, k]), ad);
        let w = Tensor::<2>::from_data(TensorData::new(ws_sub, [b, k]), ad);
        loss = loss + weighted_bce2(sl, y, w).sum().div_scalar(known as f32);
    }
    (loss, b)
}

/// The checkpoint of an earlier run: its last weights and its state (`state.json`, read within
/// the JSON ceiling).
fn read_checkpoint(
    cfg: &AttCnnConfig,
    ckpt: &Path,
    state_path: &Path,
    ad: &Device,
) -> Result<(AttCnn, State)> {
    let st: State = serde_json::from_reader(
        milbase::bounded::open_regular_reader(state_path, milbase::bounded::MAX_JSON)
            .map_err(|e| CnnError::Io(format!("{}: {e}", state_path.display())))?,
    )
    .map_err(|e| CnnError::Io(format!("{}: {e}", state_path.display())))?;
    let model = cfg
        .init(ad)
        .load_weights(ckpt.join("model-last.bpk"))
        .map_err(|e| CnnError::Io(format!("checkpoint: {e}")))?;
    Ok((model, st))
}

/// Trains on `run.train`, validates on `run.valid` every epoch, keeps the best weights (lowest
/// validation loss) at `paths.weights`, checkpoints every epoch atomically and resumes from the
/// checkpoint when `run.resume` is set. Labels must be 0 or 1 and every bag needs a slice.
pub fn train(
    run: &TrainRun<'_>,
    source: &dyn BagSource,
    progress: &dyn Fn(Event<'_>),
) -> Result<TrainOutcome> {
    let TrainRun {
        model: cfg,
        config: tc,
        train: train_idx,
        valid: valid_idx,
        device,
        paths,
        resume,
    } = *run;
    let labels = check_bags(run, source)?;
    let weights = class_weights(&labels);
    let sub_weights = subtype_weights(source, train_idx, cfg.subtypes);
    let ad = device.clone().autodiff();
    let ckpt = &paths.checkpoint;
    // never through a link planted at the checkpoints' folder
    let root = ckpt.parent().unwrap_or(Path::new("."));
    milbase::atomic::create_dir_under(root, ckpt)
        .map_err(|e| CnnError::Io(format!("{}: {e}", ckpt.display())))?;
    let state_path = ckpt.join("state.json");
    let mut optim = AdamConfig::new().init();
    let (mut model, mut state, resumed_from) = if resume && state_path.exists() {
        let (model, st) = read_checkpoint(cfg, ckpt, &state_path, &ad)?;
        match burn::optim::OptimizerRecord::load(ckpt.join("optim-last.bpk")) {
            Ok(r) => optim = optim.load_record(r),
            Err(e) => tracing::warn!("optimizer state not restored ({e}); Adam restarts"),
        }
        let from = st.epoch;
        (model, st, Some(from))
    } else {
        let fresh = State {
            epoch: 0,
            best_epoch: 0,
            best_valid_loss: f64::INFINITY,
            log: Vec::new(),
        };
        (init_on_host(cfg, tc.seed, &ad), fresh, None)
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
        // the flips of the epoch, drawn in the order the bags are trained (the stream each bag
        // drew from when bags were read on this thread)
        let flips: Vec<bool> = order
            .iter()
            .map(|_| tc.augment && rand::Rng::random_bool(&mut rng, 0.5))
            .collect();
        let batches: Vec<(&[usize], &[bool])> = order
            .chunks(tc.batch.max(1))
            .zip(flips.chunks(tc.batch.max(1)))
            .collect();
        let loader = |send: &dyn Fn(Result<Batch>) -> bool| {
            for &(chunk, flips) in &batches {
                let batch = read_batch(source, chunk, flips, cfg, weights, &sub_weights);
                let failed = batch.is_err();
                if !send(batch) || failed {
                    return;
                }
            }
        };
        let steps = |batches: &mut dyn Iterator<Item = Result<Batch>>| -> Result<(AttCnn, f64)> {
            let mut model = model;
            let mut total = 0.0;
            for batch in batches {
                let (loss, b) = batch_loss(&model, cfg, tc, batch?, &ad);
                total += scalar(loss.clone()) * b as f64;
                let grads = GradientsParams::from_grads(loss.backward(), &model);
                model = optim.step(tc.lr, model, grads);
                for _ in 0..b {
                    progress(Event::Bag);
                }
            }
            Ok((model, total))
        };
        let (trained, total) = prefetch(PREFETCH, loader, steps)?;
        model = trained;
        let (probs, valid_loss) = evaluate(
            &model,
            cfg,
            source,
            valid_idx,
            weights,
            &sub_weights,
            device,
        )?;
        let entry = EpochLog {
            epoch,
            epochs: tc.epochs,
            train_loss: total / order.len() as f64,
            valid_loss,
            valid_auc: milbase::roc_auc(&valid_labels, &probs),
            seconds: t0.elapsed().as_secs_f64(),
        };
        progress(Event::EpochDone(&entry));
        tracing::debug!(epoch, train_loss = entry.train_loss, valid_loss, valid_auc = ?entry.valid_auc, "epoch");
        let improved = valid_loss < state.best_valid_loss || valid_idx.is_empty();
        if improved {
            state.best_valid_loss = valid_loss;
            state.best_epoch = epoch;
        }
        state.log.push(entry);
        state.epoch = epoch;
        save_epoch(&model, optim.to_record(), &state, (paths, improved))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The loader's items arrive in order; it never runs more than the queue's depth (plus the
    /// one it is sending) ahead of the step; an error of the step stops it without a hang.
    #[test]
    fn prefetch_keeps_order_bounds_the_queue_and_stops_on_error() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let sent = AtomicUsize::new(0);
        let got = prefetch(
            2,
            |send| {
                for i in 0..50usize {
                    sent.fetch_add(1, Ordering::SeqCst);
                    if !send(i) {
                        return;
                    }
                }
            },
            |items| {
                let mut got = Vec::new();
                for i in items {
                    // give the loader time to run as far ahead as it can
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    let ahead = sent.load(Ordering::SeqCst) - got.len();
                    assert!(ahead <= 2 + 2, "{ahead} items read ahead");
                    got.push(i);
                }
                got
            },
        );
        assert_eq!(got, (0..50).collect::<Vec<_>>());

        let sent = AtomicUsize::new(0);
        let r = prefetch(
            1,
            |send| {
                for i in 0..1_000_000usize {
                    sent.fetch_add(1, Ordering::SeqCst);
                    if !send(i) {
                        return;
                    }
                }
            },
            |items| {
                for i in items {
                    if i == 3 {
                        return Err(format!("bag {i} is broken"));
                    }
                }
                Ok(())
            },
        );
        assert_eq!(r, Err("bag 3 is broken".to_string()));
        assert!(
            sent.load(Ordering::SeqCst) < 10,
            "the loader went on after the error"
        );
    }

    fn weights(model: &AttCnn) -> Vec<f32> {
        model.parameter_values().expect("f32 weights").concat()
    }

    /// The weights training starts from are drawn from the seed when the model is made, on the
    /// CPU, not later from whatever the random generator holds by then (nor, on a GPU, from that
    /// device's generator): reseeding after `init_on_host` changes nothing, and they equal a model
    /// drawn right after seeding.
    #[test]
    fn initial_weights_are_drawn_from_the_seed_on_the_cpu() {
        let _rng = milbase::sync::lock(&crate::RNG_LOCK);
        let cfg = AttCnnConfig {
            dim: 8,
            size: 32,
            ..AttCnnConfig::default()
        };
        let ad = crate::cpu_device().autodiff();
        ad.seed(3);
        let want = weights(&cfg.init(&ad));
        let model = init_on_host(&cfg, 3, &ad);
        ad.seed(4);
        let got = weights(&model);
        assert!(want.len() > 1000, "{} weights", want.len());
        assert!(got == want, "the weights were drawn after the reseeding");
        ad.seed(4);
        assert!(
            weights(&cfg.init(&ad)) != want,
            "another seed, other weights"
        );
    }
}
