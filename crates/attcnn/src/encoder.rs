//! f_CNN, the slice encoder: the convolution stack of MODELS.md §8 (Conv 16@5×5 same → BN →
//! ReLU → max-pool, then up to five Conv 32@3×3 valid blocks, dropout after blocks 2, 5 and 6)
//! and Dense(D). A second encoder architecture goes beside this one, behind [`SliceEncoder`];
//! the attention and the classifier do not change.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

use crate::config::AttCnnConfig;

/// What the rest of the network needs of a slice encoder.
pub trait SliceEncoder {
    /// Slices `[N, 3, H, W]` in [0, 1] → features `[N, D]`.
    fn encode(&self, x: Tensor<4>) -> Tensor<2>;
}

#[derive(Module, Debug)]
pub struct ConvBlock {
    pub(crate) conv: Conv2d,
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

/// The authors' convolutional encoder.
#[derive(Module, Debug)]
pub struct ConvEncoder {
    pub(crate) first: ConvBlock,
    pub(crate) blocks: Vec<ConvBlock>,
    conv_dropout: Dropout,
    dense: Linear,
}

impl ConvEncoder {
    pub fn new(cfg: &AttCnnConfig, device: &Device) -> Self {
        let (blocks, _) = cfg.geometry();
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
        Self {
            first,
            blocks: rest,
            conv_dropout: DropoutConfig::new(cfg.conv_dropout).init(),
            dense: LinearConfig::new(cfg.flatten(), cfg.dim).init(device),
        }
    }
}

impl SliceEncoder for ConvEncoder {
    /// Dropout after the overall blocks 2, 5 and 6 (MODELS.md §8), when they exist.
    fn encode(&self, x: Tensor<4>) -> Tensor<2> {
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
}
