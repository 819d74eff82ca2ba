//! The attention CNN of MODELS.md §8: slice encoder f_CNN, gated attention f_Att, classifier f_c.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
};
use burn::tensor::activation::{relu, sigmoid, softmax, tanh};
use burn::tensor::{Bool, Device, Tensor};
use serde::{Deserialize, Serialize};

/// Architecture hyper-parameters (saved next to the weights).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttCnnConfig {
    /// Slice feature dimension D (8, 32 or 128).
    pub dim: usize,
    /// Input slices are `size × size` (3 channels).
    pub size: usize,
    /// Hidden size of the gated attention.
    pub att_hidden: usize,
    /// Most [Conv 32@3×3 valid → BN → maxpool 2] blocks after the first (5 in the paper at 512²);
    /// fewer when the input is too small for them.
    pub max_blocks: usize,
    pub conv_dropout: f64,
    pub head_dropout: f64,
}

impl Default for AttCnnConfig {
    fn default() -> Self {
        Self {
            dim: 32,
            size: 256,
            att_hidden: 64,
            max_blocks: 5,
            conv_dropout: 0.3,
            head_dropout: 0.25,
        }
    }
}

impl AttCnnConfig {
    /// (number of 3×3 blocks, spatial size after them): the first block halves the size, each
    /// further block does `(s − 2) / 2`.
    pub fn geometry(&self) -> (usize, usize) {
        let mut s = self.size / 2;
        let mut blocks = 0;
        while blocks < self.max_blocks && s >= 4 {
            s = (s - 2) / 2;
            blocks += 1;
        }
        (blocks, s)
    }

    /// Flatten size before Dense(D): 32 · s².
    pub fn flatten(&self) -> usize {
        let (_, s) = self.geometry();
        32 * s * s
    }

    pub fn validate(&self) -> Result<(), String> {
        if ![8, 32, 128].contains(&self.dim) {
            return Err(format!(
                "feature dimension must be 8, 32 or 128, got {}",
                self.dim
            ));
        }
        if self.size < 16 {
            return Err(format!("input size {} is too small (≥ 16)", self.size));
        }
        Ok(())
    }

    pub fn init(&self, device: &Device) -> AttCnn {
        let (blocks, _) = self.geometry();
        let first = ConvBlock::new(3, 16, 5, PaddingConfig2d::Same, device);
        let rest = (0..blocks)
            .map(|i| {
                ConvBlock::new(
                    if i == 0 { 16 } else { 32 },
                    32,
                    3,
                    PaddingConfig2d::Valid,
                    device,
                )
            })
            .collect();
        AttCnn {
            first,
            blocks: rest,
            conv_dropout: DropoutConfig::new(self.conv_dropout).init(),
            dense: LinearConfig::new(self.flatten(), self.dim).init(device),
            att_v: LinearConfig::new(self.dim, self.att_hidden).init(device),
            att_u: LinearConfig::new(self.dim, self.att_hidden).init(device),
            att_w: LinearConfig::new(self.att_hidden, 1).init(device),
            head_dropout: DropoutConfig::new(self.head_dropout).init(),
            fc1: LinearConfig::new(self.dim, 128).init(device),
            fc2: LinearConfig::new(128, 1).init(device),
        }
    }
}

#[derive(Module, Debug)]
pub struct ConvBlock {
    conv: Conv2d,
    norm: BatchNorm,
    pool: MaxPool2d,
}

impl ConvBlock {
    fn new(cin: usize, cout: usize, k: usize, padding: PaddingConfig2d, device: &Device) -> Self {
        Self {
            conv: Conv2dConfig::new([cin, cout], [k, k])
                .with_padding(padding)
                .init(device),
            norm: BatchNormConfig::new(cout).init(device),
            pool: MaxPool2dConfig::new([2, 2]).with_strides([2, 2]).init(),
        }
    }
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.pool
            .forward(relu(self.norm.forward(self.conv.forward(x))))
    }
}

/// The whole network. `encode` is f_CNN; `attention` f_Att; `classify` f_c.
#[derive(Module, Debug)]
pub struct AttCnn {
    first: ConvBlock,
    blocks: Vec<ConvBlock>,
    conv_dropout: Dropout,
    dense: Linear,
    att_v: Linear,
    att_u: Linear,
    att_w: Linear,
    head_dropout: Dropout,
    fc1: Linear,
    fc2: Linear,
}

impl AttCnn {
    /// f_CNN: slices `[N, 3, H, W]` in [0, 1] → features `[N, D]`. Dropout after the overall
    /// blocks 2, 5 and 6 (MODELS.md §8), when they exist.
    pub fn encode(&self, x: Tensor<4>) -> Tensor<2> {
        let mut x = self.first.forward(x);
        for (i, b) in self.blocks.iter().enumerate() {
            x = b.forward(x);
            if matches!(i + 2, 2 | 5 | 6) {
                x = self.conv_dropout.forward(x);
            }
        }
        let [n, c, h, w] = x.dims();
        self.dense.forward(x.reshape([n, c * h * w]))
    }

    /// Gated attention over the slices of each bag: features `[B, S, D]`, `mask` `[B, S]` true on
    /// padding. Returns the weights `[B, S]` (softmax over real slices, 0 on padding).
    pub fn attention(&self, h: Tensor<3>, mask: Option<Tensor<2, Bool>>) -> Tensor<2> {
        let a = tanh(self.att_v.forward(h.clone())) * sigmoid(self.att_u.forward(h));
        let logits: Tensor<2> = self.att_w.forward(a).squeeze_dim(2);
        let logits = match mask {
            Some(m) => logits.mask_fill(m, -1e9),
            None => logits,
        };
        softmax(logits, 1)
    }

    /// f_c on pooled features `[B, D]` → logits `[B]`.
    pub fn classify(&self, z: Tensor<2>) -> Tensor<1> {
        let z = self.head_dropout.forward(z);
        self.fc2.forward(self.fc1.forward(z)).squeeze_dim(1)
    }

    /// A padded batch of bags `[B, S, 3, H, W]` → (logits `[B]`, attention `[B, S]`, features
    /// `[B, S, D]`).
    pub fn forward(
        &self,
        x: Tensor<5>,
        mask: Option<Tensor<2, Bool>>,
    ) -> (Tensor<1>, Tensor<2>, Tensor<3>) {
        let [b, s, c, hh, ww] = x.dims();
        let h = self.encode(x.reshape([b * s, c, hh, ww]));
        let d = h.dims()[1];
        let h = h.reshape([b, s, d]);
        let a = self.attention(h.clone(), mask);
        let z: Tensor<2> = (h.clone() * a.clone().unsqueeze_dim(2))
            .sum_dim(1)
            .squeeze_dim(1);
        (self.classify(z), a, h)
    }

    /// Bags of different lengths without padding slices: `x` holds the real slices of all bags
    /// one after the other (`[Σ lens, 3, H, W]`, so batch norm sees no padding); features are
    /// padded per bag and masked in the attention. Returns the logits `[B]`.
    pub fn forward_ragged(&self, x: Tensor<4>, lens: &[usize]) -> Tensor<1> {
        let h = self.encode(x);
        let [_, d] = h.dims();
        let device = h.device();
        let smax = lens.iter().copied().max().unwrap_or(1);
        let mut rows = Vec::with_capacity(lens.len());
        let mut mask = Vec::with_capacity(lens.len() * smax);
        let mut off = 0;
        for &len in lens {
            let mut hb = h.clone().slice([off..off + len, 0..d]);
            if len < smax {
                hb = Tensor::cat(vec![hb, Tensor::zeros([smax - len, d], &device)], 0);
            }
            rows.push(hb.unsqueeze_dim::<3>(0));
            mask.extend((0..smax).map(|k| k >= len));
            off += len;
        }
        let h3 = Tensor::cat(rows, 0);
        let m: Tensor<2, Bool> = Tensor::from_data(
            burn::tensor::TensorData::new(mask, [lens.len(), smax]),
            &device,
        );
        let a = self.attention(h3.clone(), Some(m));
        let z: Tensor<2> = (h3 * a.unsqueeze_dim(2)).sum_dim(1).squeeze_dim(1);
        self.classify(z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::TensorData;

    fn vec4(t: Tensor<4>) -> Vec<f32> {
        t.into_data().try_to_vec::<f32>().unwrap()
    }

    /// Weight gradients of the first and the last convolution (the kernels that train f_CNN)
    /// agree with central finite differences of the logit.
    #[test]
    fn conv_weight_gradients_match_finite_differences() {
        let device = Device::flex().autodiff();
        device.seed(5);
        let cfg = AttCnnConfig {
            dim: 8,
            size: 32,
            conv_dropout: 0.0,
            head_dropout: 0.0,
            ..AttCnnConfig::default()
        };
        let model = cfg.init(&device);
        let (s, n) = (4usize, 32usize);
        let px: Vec<f32> = (0..s * 3 * n * n)
            .map(|i| ((i as u32).wrapping_mul(2654435761) >> 24) as f32 / 255.0)
            .collect();
        let x: Tensor<5> = Tensor::from_data(TensorData::new(px, [1, s, 3, n, n]), &device);
        let logit = |m: &AttCnn| -> f64 {
            m.forward(x.clone(), None)
                .0
                .into_data()
                .try_to_vec::<f32>()
                .unwrap()[0] as f64
        };
        let grads = model.forward(x.clone(), None).0.sum().backward();
        let last = model.blocks.len() - 1;
        for which in [None, Some(last)] {
            let w = match which {
                None => &model.first.conv.weight,
                Some(i) => &model.blocks[i].conv.weight,
            };
            let g = vec4(w.grad(&grads).unwrap());
            let mut idx: Vec<usize> = (0..g.len()).collect();
            idx.sort_by(|&a, &b| g[b].abs().total_cmp(&g[a].abs()));
            let eps = 1e-2f32;
            let mut agree = 0;
            for &k in idx.iter().take(20) {
                let shifted = |sign: f32| {
                    let mut m = model.clone();
                    let dims = w.val().dims();
                    let mut d = vec![0f32; g.len()];
                    d[k] = sign * eps;
                    let delta: Tensor<4> = Tensor::from_data(TensorData::new(d, dims), &device);
                    match which {
                        None => m.first.conv.weight = m.first.conv.weight.map(|t| t + delta),
                        Some(i) => {
                            m.blocks[i].conv.weight =
                                m.blocks[i].conv.weight.clone().map(|t| t + delta)
                        }
                    }
                    logit(&m)
                };
                let fd = (shifted(1.0) - shifted(-1.0)) / (2.0 * eps as f64);
                // batch norm and max pooling make the logit curved on the scale of eps
                if (fd - g[k] as f64).abs() <= 0.15 * (g[k] as f64).abs() + 1e-4 {
                    agree += 1;
                }
            }
            assert!(
                agree >= 17,
                "block {which:?}: {agree} of 20 weight gradients agree"
            );
        }
    }
}
