//! f_Att, gated attention pooling over a scan's slices (Ilse et al. 2018).

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::activation::{sigmoid, softmax, tanh};
use burn::tensor::{Bool, Device, Tensor};

#[derive(Module, Debug)]
pub struct GatedAttention {
    pub v: Linear,
    pub u: Linear,
    pub w: Linear,
}

impl GatedAttention {
    /// `bias`: whether V, U and w have biases (the SA-DMIL weights have none).
    pub fn new(dim: usize, hidden: usize, bias: bool, device: &Device) -> Self {
        let lin = |i, o| LinearConfig::new(i, o).with_bias(bias).init(device);
        Self {
            v: lin(dim, hidden),
            u: lin(dim, hidden),
            w: lin(hidden, 1),
        }
    }

    /// Features `[B, S, D]`, `mask` `[B, S]` true on padding → weights `[B, S]` (softmax over
    /// the real slices, 0 on padding).
    pub fn forward(&self, h: Tensor<3>, mask: Option<Tensor<2, Bool>>) -> Tensor<2> {
        let logits = self.scores(h);
        let logits = match mask {
            Some(m) => logits.mask_fill(m, -1e9),
            None => logits,
        };
        softmax(logits, 1)
    }

    /// The scores before the softmax: `(tanh(h·V) ⊙ sigmoid(h·U))·w`, `[B, S, D]` → `[B, S]`.
    pub fn scores(&self, h: Tensor<3>) -> Tensor<2> {
        let a = tanh(self.v.forward(h.clone())) * sigmoid(self.u.forward(h));
        self.w.forward(a).squeeze_dim(2)
    }

    /// The attention-weighted sum of the features: `[B, S, D]` and weights `[B, S]` → `[B, D]`.
    pub fn pool(h: Tensor<3>, a: Tensor<2>) -> Tensor<2> {
        (h * a.unsqueeze_dim(2)).sum_dim(1).squeeze_dim(1)
    }
}
