//! Inference with a trained model: the slice encoder alone (attention and classifier stripped)
//! for features, and the whole network for the CNN's own scan probability, its attention and a
//! per-slice probability (the network on a bag of that slice alone).

use std::path::Path;

use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};

use crate::data::bag_tensor;
use crate::encoder::SliceEncoder;
use crate::model::{AttCnn, AttCnnConfig};
use crate::precision::Precision;
use crate::{CnnError, Result};

/// A trained network on a device, for inference.
pub struct Trained {
    pub config: AttCnnConfig,
    model: AttCnn,
    device: Device,
    precision: Precision,
    encode_chunk: usize,
}

/// What the CNN says about one scan.
#[derive(Debug, Clone)]
pub struct ScanOutput {
    /// `[slices][D]` features of f_CNN.
    pub features: Vec<Vec<f32>>,
    /// Attention weight of every real slice. They sum to 1 unless the bag was padded
    /// ([`AttCnnConfig::pad_bag_to`]); then the rest went to the padding.
    pub attention: Vec<f32>,
    /// The share of attention the all-zero padding slices took (0 without padding).
    pub padding_attention: f32,
    /// The CNN's own scan probability (padded as the configuration says).
    pub probability: f64,
    /// Its logit (unbounded where the probability saturates at 0 or 1).
    pub logit: f64,
    /// Per slice: the network's probability for a bag holding that slice alone, padded like any
    /// bag. A probability of the slice, unlike its attention weight.
    pub slice_probability: Vec<f64>,
    /// Per slice: the logit of [`Self::slice_probability`] (the network's own evidence for the
    /// slice, unbounded where the probability saturates).
    pub slice_logit: Vec<f64>,
    /// Per slice: the gated attention's score before the softmax (what the network learned to
    /// look at, independent of the scan's other slices).
    pub attention_score: Vec<f32>,
    /// Per slice: the classifier's Dense-128 layer on the slice-alone bag (the network's own
    /// projection of the slice's features; `[slices][128]`).
    pub dense: Vec<Vec<f32>>,
    /// What the classifier read: the scan's pooled features, then each slice-alone bag's,
    /// `[(slices + 1) × D]` (for [`Trained::dropout_draws`]).
    pub classifier_input: Vec<f32>,
}

/// Monte Carlo dropout through the classifier's dropout layer (the one SA-DMIL was trained
/// with, before its Dense 128): per pass one mask on the pooled features, shared by the scan and
/// its slice-alone bags, so that a pass is one network. The trunk (encoder and attention) runs
/// once; only the classifier is sampled.
#[derive(Debug, Clone, PartialEq)]
pub struct DropoutDraws {
    /// The scan's probability in each pass.
    pub scan: Vec<f64>,
    /// `[slices][passes]`: each slice-alone bag's probability in each pass.
    pub slices: Vec<Vec<f64>>,
}

/// Dropout passes evaluated in one batch through the classifier (rows of `(slices + 1) × D`
/// floats each: 8 passes of a 238-slice scan are 8.8 MB).
const PASSES_PER_BATCH: usize = 8;

/// Slices to encode: bytes (windowed intensities × 255, as datasets store them) or floats in
/// [0, 1]; `[slices, 3, size, size]`.
#[derive(Debug, Clone, Copy)]
pub enum Pixels<'a> {
    Bytes(&'a [u8]),
    Floats(&'a [f32]),
}

impl Pixels<'_> {
    fn len(&self) -> usize {
        match self {
            Pixels::Bytes(b) => b.len(),
            Pixels::Floats(f) => f.len(),
        }
    }
}

/// Slices encoded at a time at inference, on every device (batch norm uses its running statistics
/// there, so the chunks do not change what a slice gives). Small chunks keep each layer's output
/// small: a 40-slice 256² scan in one chunk of 40 made 168 MB tensors per layer. A card gains
/// nothing from larger ones: on an H200 with burn's CUDA backend, a 40-slice 512² scan took
/// 0.0311 s and 0.0350 s in chunks of 8 against 0.0437 s and 0.0493 s at once, in two processes
/// (notes/2026-11-26-cuda-h200-4.md); the infer bench times both on each card.
pub const ENCODE_CHUNK: usize = 8;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Trained {
    pub fn load(config: AttCnnConfig, weights: &Path, device: &Device) -> Result<Self> {
        let model = config
            .init(device)
            .load_weights(weights)
            .map_err(|e| CnnError::Io(format!("{}: {e}", weights.display())))?
            .valid();
        let has = match config.architecture {
            crate::Architecture::Ich => model.encoder.ich().is_some(),
            crate::Architecture::SaDmil => model.encoder.sa_dmil().is_some(),
        };
        if !has {
            return Err(CnnError::Io(format!(
                "{}: the weights hold no {:?} encoder",
                weights.display(),
                config.architecture
            )));
        }
        Ok(Self {
            encode_chunk: ENCODE_CHUNK,
            config,
            model,
            device: device.clone(),
            precision: Precision::F32,
        })
    }

    pub fn from_model(config: AttCnnConfig, model: AttCnn, device: &Device) -> Self {
        Self {
            encode_chunk: ENCODE_CHUNK,
            config,
            model: model.valid(),
            device: device.clone(),
            precision: Precision::F32,
        }
    }

    /// The network encoding `chunk` slices at a time (at least 1) instead of [`ENCODE_CHUNK`];
    /// what a slice gives does not change.
    pub fn with_encode_chunk(self, chunk: usize) -> Self {
        Self {
            encode_chunk: chunk.max(1),
            ..self
        }
    }

    /// The slices encoded at a time.
    pub fn encode_chunk(&self) -> usize {
        self.encode_chunk
    }

    /// The network computing in `precision` (its weights rounded to that float type once, its
    /// inputs cast; outputs come back as f32).
    pub fn with_precision(self, precision: Precision) -> Self {
        Self {
            model: precision.cast(self.model),
            precision,
            ..self
        }
    }

    /// The network (eval mode).
    pub fn model(&self) -> &AttCnn {
        &self.model
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Runs a scan (uint8 `[slices, 3, size, size]`) through the network.
    pub fn scan(&self, slices: usize, pixels: &[u8]) -> Result<ScanOutput> {
        self.scan_pixels(slices, Pixels::Bytes(pixels))
    }

    /// Runs a scan through the network; slices are encoded in chunks ([`Self::encode_chunk`]),
    /// so memory stays bounded for long scans.
    pub fn scan_pixels(&self, slices: usize, pixels: Pixels) -> Result<ScanOutput> {
        let h = self.encode(slices, pixels)?;
        self.outputs_of(h, slices)
    }

    /// The encoder's features of `slices` slices (`[slices][D]`), encoded in chunks as
    /// [`Self::scan_pixels`] does: a scan can be encoded a part at a time and its parts' rows
    /// given to [`Self::outputs_from_features`], with the numbers of one [`Self::scan_pixels`].
    pub fn encode_features(&self, slices: usize, pixels: Pixels) -> Result<Vec<Vec<f32>>> {
        let h = self.encode(slices, pixels)?;
        let d = h.dims()[1];
        let flat = crate::host_f32(h)?;
        Ok(flat.chunks(d.max(1)).map(<[f32]>::to_vec).collect())
    }

    fn encode(&self, slices: usize, pixels: Pixels) -> Result<Tensor<2>> {
        let size = self.config.size;
        let per = 3 * size * size;
        if slices == 0 {
            return Err(CnnError::Data("a scan without slices".into()));
        }
        if pixels.len() != slices * per {
            return Err(CnnError::Data(format!(
                "{} values for {slices} slices of 3 × {size}²",
                pixels.len()
            )));
        }
        let chunk = |start: usize, end: usize| -> Tensor<4> {
            let n = end - start;
            match pixels {
                Pixels::Bytes(b) => bag_tensor(&b[start * per..end * per], n, size, &self.device)
                    .reshape([n, 3, size, size]),
                Pixels::Floats(f) => Tensor::from_data(
                    TensorData::new(f[start * per..end * per].to_vec(), [n, 3, size, size]),
                    &self.device,
                ),
            }
        };
        let mut feats: Vec<Tensor<2>> = Vec::new();
        for start in (0..slices).step_by(self.encode_chunk) {
            let end = (start + self.encode_chunk).min(slices);
            let x = self.precision.input(chunk(start, end));
            feats.push(self.model.encoder.encode(x));
        }
        Ok(Tensor::cat(feats, 0))
    }

    /// What the network makes of a scan whose slices were encoded already (`[slices][D]`, e.g.
    /// features extracted once and reused after its attention and classifier changed).
    pub fn outputs_from_features(&self, features: &[Vec<f32>]) -> Result<ScanOutput> {
        let d = features.first().map_or(0, Vec::len);
        if d == 0 || features.iter().any(|f| f.len() != d) {
            return Err(CnnError::Data(
                "a scan without slices, or slices with different numbers of features".into(),
            ));
        }
        let flat: Vec<f32> = features.iter().flatten().copied().collect();
        let h = Tensor::from_data(TensorData::new(flat, [features.len(), d]), &self.device);
        self.outputs_of(self.precision.input(h), features.len())
    }

    /// Attention, pooling and classifier on encoded slices `[slices, D]`.
    fn outputs_of(&self, h: Tensor<2>, slices: usize) -> Result<ScanOutput> {
        let size = self.config.size;
        let d = h.dims()[1];
        let fv = crate::host_f32(h.clone())?;

        // the padding slices: all-zero input, one feature vector shared by all of them
        let pad = self
            .config
            .pad_bag_to
            .map_or(0, |p| p.saturating_sub(slices));
        let zero = match self.config.pad_bag_to {
            Some(_) => {
                let z = self
                    .precision
                    .input(Tensor::<4>::zeros([1, 3, size, size], &self.device));
                Some(crate::host_f32(self.model.encoder.encode(z))?)
            }
            None => None,
        };
        let scores = |x: Tensor<2>| -> Result<Vec<f32>> {
            let n = x.dims()[0];
            let x = self.precision.input(x.reshape([1, n, d]));
            crate::host_f32(self.model.attention.scores(x))
        };
        let s = scores(h.clone())?;
        let s0 = match &zero {
            Some(z) => Some(
                scores(Tensor::from_data(
                    TensorData::new(z.clone(), [1, d]),
                    &self.device,
                ))?[0],
            ),
            None => None,
        };

        // scan: softmax over the real slices and the padding, pooled sum, classifier
        let all: Vec<f64> = s
            .iter()
            .map(|&x| x as f64)
            .chain(std::iter::repeat_n(s0.unwrap_or(0.0) as f64, pad))
            .collect();
        let m = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = all.iter().map(|x| (x - m).exp()).collect();
        let tot: f64 = e.iter().sum();
        let a: Vec<f64> = e.iter().map(|x| x / tot).collect();
        let mut pooled = vec![0f64; d];
        for (i, w) in a.iter().enumerate().take(slices) {
            for (p, &x) in pooled.iter_mut().zip(&fv[i * d..(i + 1) * d]) {
                *p += w * x as f64;
            }
        }
        let pad_share: f64 = a[slices..].iter().sum();
        if let Some(z) = &zero {
            for (p, &x) in pooled.iter_mut().zip(z) {
                *p += pad_share * x as f64;
            }
        }

        // each slice alone: weight a_i = e^{s_i} / (e^{s_i} + (P − 1) e^{s_0}) against the padding
        let others = self.config.pad_bag_to.map_or(0, |p| p.saturating_sub(1));
        let mut alone = Vec::with_capacity((slices + 1) * d);
        alone.extend(pooled.iter().map(|&v| v as f32));
        for i in 0..slices {
            let ai = match s0 {
                Some(s0) if others > 0 => 1.0 / (1.0 + others as f64 * ((s0 - s[i]) as f64).exp()),
                _ => 1.0,
            };
            let hi = &fv[i * d..(i + 1) * d];
            match &zero {
                Some(z) => alone.extend(
                    hi.iter()
                        .zip(z)
                        .map(|(&x, &z0)| (ai * x as f64 + (1.0 - ai) * z0 as f64) as f32),
                ),
                None => alone.extend_from_slice(hi),
            }
        }
        let (dense, logits) = self
            .model
            .classify_dense(self.precision.input(Tensor::from_data(
                TensorData::new(alone.clone(), [slices + 1, d]),
                &self.device,
            )));
        let width = dense.dims()[1];
        let dense = crate::host_f32(dense)?;
        let logits = crate::host_f32(logits)?;
        Ok(ScanOutput {
            features: fv.chunks(d).map(|c| c.to_vec()).collect(),
            attention: a[..slices].iter().map(|&x| x as f32).collect(),
            padding_attention: pad_share as f32,
            probability: sigmoid(logits[0] as f64),
            logit: logits[0] as f64,
            slice_probability: logits[1..].iter().map(|&l| sigmoid(l as f64)).collect(),
            slice_logit: logits[1..].iter().map(|&l| l as f64).collect(),
            attention_score: s,
            dense: dense[width..].chunks(width).map(|c| c.to_vec()).collect(),
            classifier_input: alone,
        })
    }

    /// The classifier's dropout rate (0: the network has no dropout to sample).
    pub fn dropout_rate(&self) -> f64 {
        self.config.head_dropout
    }

    /// `passes` Monte Carlo dropout passes of the classifier on a scan's output (seeded: the
    /// same seed gives the same draws). Each pass draws one inverted-dropout mask on the pooled
    /// features (kept with probability 1 − p, scaled by 1 / (1 − p), as Keras and burn train)
    /// and runs Dense 128 → Dense 1 on the scan's and every slice-alone bag's pooled features.
    /// `None` when the network has no dropout (p = 0) or `passes` is 0.
    pub fn dropout_draws(
        &self,
        out: &ScanOutput,
        passes: usize,
        seed: u64,
    ) -> Result<Option<DropoutDraws>> {
        use rand::{Rng, SeedableRng};
        let p = self.config.head_dropout;
        let rows = out.slice_logit.len() + 1;
        if passes == 0 || !(p > 0.0 && p < 1.0) {
            return Ok(None);
        }
        if !out.classifier_input.len().is_multiple_of(rows) || out.classifier_input.is_empty() {
            return Err(CnnError::Data(format!(
                "{} classifier inputs for {rows} bags",
                out.classifier_input.len()
            )));
        }
        let d = out.classifier_input.len() / rows;
        let keep = 1.0 - p;
        let scale = (1.0 / keep) as f32;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut draws = DropoutDraws {
            scan: Vec::with_capacity(passes),
            slices: vec![Vec::with_capacity(passes); rows - 1],
        };
        let mut done = 0;
        while done < passes {
            let n = PASSES_PER_BATCH.min(passes - done);
            let mut x = Vec::with_capacity(n * rows * d);
            for _ in 0..n {
                let mask: Vec<f32> = (0..d)
                    .map(|_| {
                        if rng.random::<f64>() < keep {
                            scale
                        } else {
                            0.0
                        }
                    })
                    .collect();
                for r in out.classifier_input.chunks(d) {
                    x.extend(r.iter().zip(&mask).map(|(v, m)| v * m));
                }
            }
            let logits = crate::host_f32(
                self.model
                    .classify_dense(self.precision.input(Tensor::from_data(
                        TensorData::new(x, [n * rows, d]),
                        &self.device,
                    )))
                    .1,
            )?;
            for pass in logits.chunks(rows) {
                draws.scan.push(sigmoid(pass[0] as f64));
                for (k, &l) in pass[1..].iter().enumerate() {
                    draws.slices[k].push(sigmoid(l as f64));
                }
            }
            done += n;
        }
        Ok(Some(draws))
    }
}
