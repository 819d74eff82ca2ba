//! The architecture's hyper-parameters (saved next to the weights) and the geometry they give.

use serde::{Deserialize, Serialize};

/// Which slice encoder the network has (MODELS.md §8 and the published SA-DMIL weights).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Architecture {
    /// `ich`'s own: Conv → BN → ReLU → max-pool blocks, then Dense(D) (D = 8, 32 or 128).
    #[default]
    Ich,
    /// The encoder of Wu et al.'s published SA-DMIL weights: Conv → ReLU → BN → max-pool blocks,
    /// no Dense(D): the 32·s·s values of the last block, flattened in height, width, channel
    /// order (TensorFlow's), are the slice features; gated attention without biases.
    SaDmil,
}

impl Architecture {
    fn is_ich(&self) -> bool {
        *self == Architecture::Ich
    }
}

/// Architecture hyper-parameters (saved next to the weights).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttCnnConfig {
    /// Slice feature dimension D (8, 32 or 128 for [`Architecture::Ich`]; the flatten size,
    /// 1152 at 512², for [`Architecture::SaDmil`]).
    pub dim: usize,
    /// Input slices are `size × size` (3 channels).
    pub size: usize,
    /// Hidden size of the gated attention.
    pub att_hidden: usize,
    /// Most \[Conv 32@3×3 valid → BN → maxpool 2\] blocks after the first (5 in the paper at 512²);
    /// fewer when the input is too small for them.
    pub max_blocks: usize,
    pub conv_dropout: f64,
    pub head_dropout: f64,
    /// The slice encoder (absent in the file: `ich`).
    #[serde(default, skip_serializing_if = "Architecture::is_ich")]
    pub architecture: Architecture,
    /// Batch-norm ε (burn's 1e-5 unless the weights were trained with another, e.g. Keras' 0.001).
    #[serde(
        default = "default_epsilon",
        skip_serializing_if = "is_default_epsilon"
    )]
    pub bn_epsilon: f64,
    /// Bags shorter than this are padded with all-zero slices that go through the whole network,
    /// get attention and enter the pooled sum, as the SA-DMIL authors trained (57); `None`: no
    /// padding (the attention covers the real slices only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pad_bag_to: Option<usize>,
    /// Outputs beside "any": one logit per hemorrhage subtype, from the same attention-pooled
    /// features and Dense-128 layer (0, absent in older files: "any" only). The slice features
    /// do not change shape.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub subtypes: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// burn's default batch-norm ε.
pub const DEFAULT_BN_EPSILON: f64 = 1e-5;

fn default_epsilon() -> f64 {
    DEFAULT_BN_EPSILON
}

fn is_default_epsilon(e: &f64) -> bool {
    *e == DEFAULT_BN_EPSILON
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
            architecture: Architecture::Ich,
            bn_epsilon: DEFAULT_BN_EPSILON,
            pad_bag_to: None,
            subtypes: 0,
        }
    }
}

impl AttCnnConfig {
    /// The network of the published SA-DMIL checkpoints (Wu et al., MICCAI 2023): 512² input,
    /// six blocks, 1152 features, attention hidden size 64, Keras' batch-norm ε 0.001, bags
    /// padded to 57 slices as the authors trained.
    pub fn sa_dmil() -> Self {
        Self {
            dim: 1152,
            size: 512,
            att_hidden: 64,
            max_blocks: 5,
            conv_dropout: 0.3,
            head_dropout: 0.25,
            architecture: Architecture::SaDmil,
            bn_epsilon: 0.001,
            pad_bag_to: Some(57),
            subtypes: 0,
        }
    }

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

    /// Flatten size of the last block: 32 · s².
    pub fn flatten(&self) -> usize {
        let (_, s) = self.geometry();
        32 * s * s
    }

    pub fn validate(&self) -> Result<(), String> {
        if !(16..=4096).contains(&self.size) {
            return Err(format!("input size {} is not within 16..=4096", self.size));
        }
        match self.architecture {
            Architecture::Ich if ![8, 32, 128].contains(&self.dim) => {
                return Err(format!(
                    "feature dimension must be 8, 32 or 128, got {}",
                    self.dim
                ))
            }
            Architecture::SaDmil if self.dim != self.flatten() => {
                return Err(format!(
                    "the SA-DMIL encoder gives {} features at {}², not {}",
                    self.flatten(),
                    self.size,
                    self.dim
                ))
            }
            _ => {}
        }
        if self.subtypes > 64 {
            return Err(format!("{} subtype outputs (at most 64)", self.subtypes));
        }
        for (name, p) in [("conv", self.conv_dropout), ("head", self.head_dropout)] {
            if !(0.0..1.0).contains(&p) {
                return Err(format!("{name} dropout {p} is not within [0, 1)"));
            }
        }
        if self.att_hidden == 0 {
            return Err("the attention needs a hidden size ≥ 1".into());
        }
        if !(self.bn_epsilon > 0.0 && self.bn_epsilon < 1.0) {
            return Err(format!(
                "batch-norm ε {} is not within (0, 1)",
                self.bn_epsilon
            ));
        }
        if let Some(p) = self.pad_bag_to {
            if !(1..=4096).contains(&p) {
                return Err(format!("bag padding {p} is not within 1..=4096"));
            }
        }
        Ok(())
    }
}
