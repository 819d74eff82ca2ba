//! The architecture's hyper-parameters (saved next to the weights) and the geometry they give.

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
        if !(16..=4096).contains(&self.size) {
            return Err(format!("input size {} is not within 16..=4096", self.size));
        }
        for (name, p) in [("conv", self.conv_dropout), ("head", self.head_dropout)] {
            if !(0.0..1.0).contains(&p) {
                return Err(format!("{name} dropout {p} is not within [0, 1)"));
            }
        }
        if self.att_hidden == 0 {
            return Err("the attention needs a hidden size ≥ 1".into());
        }
        Ok(())
    }
}
