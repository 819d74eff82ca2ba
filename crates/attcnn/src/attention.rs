//! f_Att, gated attention pooling over a scan's slices (Ilse et al. 2018).

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::activation::{sigmoid, softmax, tanh};
use burn::tensor::{Bool, Device, Tensor};

#[derive(Module, Debug)]
pub struct GatedAttention {
    v: Linear,
    u: Linear,
    w: Linear,
}

impl GatedAttention {
    pub fn new(dim: usize, hidden: usize, device: &Device) -> Self {
        Self {
            v: LinearConfig::new(dim, hidden).init(device),
            u: LinearConfig::new(dim, hidden).init(device),
            w: LinearConfig::new(hidden, 1).init(device),
        }
    }

    /// Features `[B, S, D]`, `mask` `[B, S]` true on padding → weights `[B, S]` (softmax over
    /// the real slices, 0 on padding).
    pub fn forward(&self, h: Tensor<3>, mask: Option<Tensor<2, Bool>>) -> Tensor<2> {
        let a = tanh(self.v.forward(h.clone())) * sigmoid(self.u.forward(h));
        let logits: Tensor<2> = self.w.forward(a).squeeze_dim(2);
        let logits = match mask {
            Some(m) => logits.mask_fill(m, -1e9),
            None => logits,
        };
        softmax(logits, 1)
    }

    /// The attention-weighted sum of the features: `[B, S, D]` and weights `[B, S]` → `[B, D]`.
    pub fn pool(h: Tensor<3>, a: Tensor<2>) -> Tensor<2> {
        (h * a.unsqueeze_dim(2)).sum_dim(1).squeeze_dim(1)
    }
}
