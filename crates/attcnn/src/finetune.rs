//! Fine-tuning a trained (or imported) network's attention and classifier on a new site's scan
//! labels with the slice encoder frozen: the bags are the encoder's features, computed once, so an
//! epoch over a few dozen scans costs milliseconds. Class-weighted binary cross-entropy, Adam,
//! bags padded as the network pads, early stopping on the validation bags' loss (the unchanged
//! network is epoch 0: when no epoch beats it, it is kept as it was).

use std::path::Path;

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Tensor, TensorData};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::attention::GatedAttention;
use crate::inference::Trained;
use crate::model::AttCnn;
use crate::training::{class_weights, weighted_bce};
use crate::{scalar, CnnError, Result};

/// Fine-tuning settings. Defaults: 60 epochs, learning rate 1e-4, patience 10, seed 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FineTune {
    pub epochs: usize,
    pub lr: f64,
    /// Epochs without a lower validation loss before stopping.
    pub patience: usize,
    pub seed: u64,
}

impl Default for FineTune {
    fn default() -> Self {
        Self {
            epochs: 60,
            lr: 1e-4,
            patience: 10,
            seed: 0,
        }
    }
}

/// A bag for fine-tuning: its slices' encoder features and its label.
pub struct FeatureBag<'a> {
    pub features: &'a [Vec<f32>],
    pub label: u8,
}

/// What a fine-tuning did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FineTuneLog {
    /// The validation bags' mean weighted loss before (the network as it came) and at the epoch
    /// kept.
    pub valid_loss_before: f64,
    pub valid_loss: f64,
    /// The epoch kept (0: none beat the network as it came, which is returned unchanged).
    pub best_epoch: usize,
    pub epochs_run: usize,
    pub train_bags: usize,
    pub valid_bags: usize,
}

/// A bag's features as the network sees them: its slices, then the padding's zero-slice features
/// up to the configured bag length; `[1, m, d]`.
fn bag(
    features: &[Vec<f32>],
    zero: Option<&[f32]>,
    pad_to: Option<usize>,
    dev: &Device,
) -> Tensor<3> {
    let d = features.first().map_or(0, Vec::len);
    let mut flat: Vec<f32> = features.iter().flatten().copied().collect();
    let mut m = features.len();
    if let (Some(z), Some(p)) = (zero, pad_to) {
        while m < p {
            flat.extend_from_slice(z);
            m += 1;
        }
    }
    Tensor::from_data(TensorData::new(flat, [1, m, d]), dev)
}

/// The network's scan logit `[1]` from a bag of features.
fn logit(model: &AttCnn, h: Tensor<3>) -> Tensor<1> {
    let a = model.attention(h.clone(), None);
    model.classify(GatedAttention::pool(h, a))
}

/// Mean weighted loss of `model` (eval mode) on `bags`.
fn valid_loss(
    model: &AttCnn,
    bags: &[FeatureBag],
    zero: Option<&[f32]>,
    pad_to: Option<usize>,
    weights: [f32; 2],
    dev: &Device,
) -> f64 {
    let total: f64 = bags
        .iter()
        .map(|b| {
            let l = logit(model, bag(b.features, zero, pad_to, dev));
            let y = b.label as f32;
            scalar(weighted_bce(l, y, weights[b.label as usize]))
        })
        .sum();
    total / bags.len().max(1) as f64
}

/// Fine-tunes `net` (whose weights are in `weights`) on `train`, stopping early on `valid`;
/// returns the network kept and the log.
pub fn fine_tune_head(
    net: &Trained,
    weights: &Path,
    train: &[FeatureBag],
    valid: &[FeatureBag],
    ft: &FineTune,
) -> Result<(Trained, FineTuneLog)> {
    if train.is_empty() || valid.is_empty() {
        return Err(CnnError::Data(
            "fine-tuning needs training and validation bags".into(),
        ));
    }
    if !(ft.lr > 0.0 && ft.lr.is_finite()) || ft.epochs == 0 {
        return Err(CnnError::Data(format!(
            "fine-tuning: {} epochs at learning rate {} (need ≥ 1 and a finite rate > 0)",
            ft.epochs, ft.lr
        )));
    }
    let cfg = &net.config;
    let dev = net.device().clone();
    let zero: Option<Vec<f32>> = match cfg.pad_bag_to {
        Some(_) => {
            let z = Tensor::<4>::zeros([1, 3, cfg.size, cfg.size], &dev);
            Some(crate::host_f32(net.model().encode(z))?)
        }
        None => None,
    };
    let zero = zero.as_deref();
    let labels: Vec<u8> = train.iter().map(|b| b.label).collect();
    let w = class_weights(&labels);
    let before = valid_loss(net.model(), valid, zero, cfg.pad_bag_to, w, &dev);
    let ad = dev.clone().autodiff();
    ad.seed(ft.seed);
    let mut model: AttCnn = cfg
        .init(&ad)
        .load_weights(weights)
        .map_err(|e| CnnError::Io(format!("{}: {e}", weights.display())))?;
    let mut optim = AdamConfig::new().init();
    let (mut best, mut best_epoch, mut best_loss) = (None, 0, before);
    let mut since = 0;
    let mut run = 0;
    for epoch in 1..=ft.epochs {
        run = epoch;
        let mut rng = ChaCha8Rng::seed_from_u64(ft.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9));
        let mut order: Vec<usize> = (0..train.len()).collect();
        order.shuffle(&mut rng);
        for i in order {
            let b = &train[i];
            let l = logit(&model, bag(b.features, zero, cfg.pad_bag_to, &ad));
            let y = b.label as f32;
            let loss = weighted_bce(l, y, w[b.label as usize]).mean();
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(ft.lr, model, grads);
        }
        let eval = model.valid();
        let vl = valid_loss(&eval, valid, zero, cfg.pad_bag_to, w, &dev);
        if vl < best_loss {
            (best, best_epoch, best_loss, since) = (Some(eval), epoch, vl, 0);
        } else {
            since += 1;
            if since >= ft.patience {
                break;
            }
        }
    }
    let log = FineTuneLog {
        valid_loss_before: before,
        valid_loss: best_loss,
        best_epoch,
        epochs_run: run,
        train_bags: train.len(),
        valid_bags: valid.len(),
    };
    let kept = match best {
        Some(m) => Trained::from_model(cfg.clone(), m, &dev),
        None => Trained::load(cfg.clone(), weights, &dev)?,
    };
    Ok((kept, log))
}
