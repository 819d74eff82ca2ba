//! f_c, the classifier on the attention-pooled features: dropout → Dense 128 → Dense 1 ("any"),
//! and, in a multi-label network, Dense K beside it (one logit per hemorrhage subtype).

use burn::module::Module;
use burn::nn::{Dropout, DropoutConfig, Linear, LinearConfig};
use burn::tensor::{Device, Tensor};

#[derive(Module, Debug)]
pub struct Classifier {
    dropout: Dropout,
    pub fc1: Linear,
    pub fc2: Linear,
    /// The subtypes' logits (multi-label networks).
    pub fc_subtypes: Option<Linear>,
}

impl Classifier {
    pub fn new(dim: usize, dropout: f64, subtypes: usize, device: &Device) -> Self {
        Self {
            dropout: DropoutConfig::new(dropout).init(),
            fc1: LinearConfig::new(dim, 128).init(device),
            fc2: LinearConfig::new(128, 1).init(device),
            fc_subtypes: (subtypes > 0).then(|| LinearConfig::new(128, subtypes).init(device)),
        }
    }

    /// Pooled features `[B, D]` → the "any" logits `[B]` and the subtypes' `[B, K]` (multi-label
    /// networks).
    pub fn forward_all(&self, z: Tensor<2>) -> (Tensor<1>, Option<Tensor<2>>) {
        let d = self.fc1.forward(self.dropout.forward(z));
        let subtypes = self.fc_subtypes.as_ref().map(|f| f.forward(d.clone()));
        (self.fc2.forward(d).squeeze_dim(1), subtypes)
    }

    /// Pooled features `[B, D]` → the Dense-128 layer's output `[B, 128]` and the logits `[B]`
    /// (dropout is the identity in eval mode, where this is used).
    pub fn dense_and_logits(&self, z: Tensor<2>) -> (Tensor<2>, Tensor<1>) {
        let d = self.fc1.forward(z);
        let l = self.fc2.forward(d.clone()).squeeze_dim(1);
        (d, l)
    }

    /// Pooled features `[B, D]` → logits `[B]`.
    pub fn forward(&self, z: Tensor<2>) -> Tensor<1> {
        let z = self.dropout.forward(z);
        self.fc2.forward(self.fc1.forward(z)).squeeze_dim(1)
    }
}
