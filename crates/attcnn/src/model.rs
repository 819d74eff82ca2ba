//! The attention CNN of MODELS.md §8, put together from its three parts: the slice encoder f_CNN
//! ([`crate::encoder`]), gated attention f_Att ([`crate::attention`]) and the classifier f_c
//! ([`crate::classifier`]).

use burn::module::Module;
use burn::tensor::{Bool, Device, Tensor};

use crate::attention::GatedAttention;
use crate::classifier::Classifier;
use crate::config::Architecture;
use crate::encoder::{Encoder, SliceEncoder};

pub use crate::config::AttCnnConfig;

impl AttCnnConfig {
    /// A fresh network (parameters drawn in the order encoder, attention, classifier).
    pub fn init(&self, device: &Device) -> AttCnn {
        let bias = self.architecture == Architecture::Ich;
        AttCnn {
            encoder: Encoder::new(self, device),
            attention: GatedAttention::new(self.dim, self.att_hidden, bias, device),
            classifier: Classifier::new(self.dim, self.head_dropout, self.subtypes, device),
        }
    }
}

/// The whole network: f_c(f_Att(f_CNN(slices))).
#[derive(Module, Debug)]
pub struct AttCnn {
    pub(crate) encoder: Encoder,
    pub(crate) attention: GatedAttention,
    pub(crate) classifier: Classifier,
}

impl AttCnn {
    /// The slice encoder (to inspect its layers).
    pub fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// The gated attention (to inspect its scores).
    pub fn gated_attention(&self) -> &GatedAttention {
        &self.attention
    }

    /// The classifier (Dense 128 → Dense 1).
    pub fn classifier(&self) -> &Classifier {
        &self.classifier
    }

    /// f_CNN: slices `[N, 3, H, W]` in [0, 1] → features `[N, D]`.
    pub fn encode(&self, x: Tensor<4>) -> Tensor<2> {
        self.encoder.encode(x)
    }

    /// Gated attention over the slices of each bag: features `[B, S, D]`, `mask` `[B, S]` true on
    /// padding. Returns the weights `[B, S]` (softmax over real slices, 0 on padding).
    pub fn attention(&self, h: Tensor<3>, mask: Option<Tensor<2, Bool>>) -> Tensor<2> {
        self.attention.forward(h, mask)
    }

    /// f_c on pooled features `[B, D]` → its Dense-128 output `[B, 128]` and logits `[B]`.
    pub fn classify_dense(&self, z: Tensor<2>) -> (Tensor<2>, Tensor<1>) {
        self.classifier.dense_and_logits(z)
    }

    /// These weights with the parameters of the burnpack file at `path`, each cast to the float
    /// type this model's device computes in. Loaded verbatim, a file written in another float type
    /// (bf16 or f16 weights, say) left parameters that the first layer then mixed with f32 input,
    /// and burn-flex panicked ("storage: dtype mismatch").
    pub fn load_weights(self, path: impl AsRef<std::path::Path>) -> Result<Self, String> {
        let record = burn::store::ModuleRecord::load(path.as_ref())
            .map_err(|e| e.to_string())?
            .cast_to_module_dtype();
        self.try_load_record(record).map_err(|e| e.to_string())
    }

    /// Every float parameter's values on the host, one vector per parameter in visiting order
    /// (the lazily initialised ones are drawn first): to compare two models weight by weight.
    pub fn parameter_values(&self) -> crate::Result<Vec<Vec<f32>>> {
        struct Collect(Vec<crate::Result<Vec<f32>>>);
        impl burn::module::ModuleVisitor for Collect {
            fn visit_float<const D: usize>(&mut self, param: &burn::module::Param<Tensor<D>>) {
                self.0.push(crate::host_f32(param.val()));
            }
        }
        let mut c = Collect(Vec::new());
        self.visit(&mut c);
        c.0.into_iter().collect()
    }

    /// f_c on pooled features `[B, D]` → logits `[B]`.
    pub fn classify(&self, z: Tensor<2>) -> Tensor<1> {
        self.classifier.forward(z)
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
        let z = GatedAttention::pool(h.clone(), a.clone());
        (self.classify(z), a, h)
    }

    /// Bags of different lengths without padding slices: `x` holds the real slices of all bags
    /// one after the other (`[Σ lens, 3, H, W]`, so batch norm sees no padding); features are
    /// padded per bag and masked in the attention. Returns the logits `[B]`.
    pub fn forward_ragged(&self, x: Tensor<4>, lens: &[usize]) -> Tensor<1> {
        self.forward_ragged_all(x, lens).0
    }

    /// As [`Self::forward_ragged`], with the subtypes' logits `[B, K]` of a multi-label network.
    pub fn forward_ragged_all(
        &self,
        x: Tensor<4>,
        lens: &[usize],
    ) -> (Tensor<1>, Option<Tensor<2>>) {
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
                // padding rows in the features' float type (bf16 in half-precision training)
                let pad = Tensor::zeros([smax - len, d], (&device, h.dtype()));
                hb = Tensor::cat(vec![hb, pad], 0);
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
        self.classifier.forward_all(GatedAttention::pool(h3, a))
    }

    /// A padded batch of bags → the subtypes' logits `[B, K]` of a multi-label network (`None`
    /// for an "any"-only one), in eval mode as [`Self::forward`].
    pub fn forward_subtypes(
        &self,
        x: Tensor<5>,
        mask: Option<Tensor<2, Bool>>,
    ) -> Option<Tensor<2>> {
        self.classifier.fc_subtypes.as_ref()?;
        self.forward_with_subtypes(x, mask).1
    }

    /// A padded batch of bags → the "any" logits `[B]` and the subtypes' `[B, K]` (`None` for an
    /// "any"-only network), from one pass through the encoder.
    pub fn forward_with_subtypes(
        &self,
        x: Tensor<5>,
        mask: Option<Tensor<2, Bool>>,
    ) -> (Tensor<1>, Option<Tensor<2>>) {
        let [b, s, c, hh, ww] = x.dims();
        let h = self.encode(x.reshape([b * s, c, hh, ww]));
        let d = h.dims()[1];
        let h = h.reshape([b, s, d]);
        let a = self.attention(h.clone(), mask);
        self.classifier.forward_all(GatedAttention::pool(h, a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::TensorData;

    fn vec4(t: Tensor<4>) -> Vec<f32> {
        t.into_data().try_to_vec::<f32>().unwrap()
    }

    /// Bags of different lengths (padded per bag inside `forward_ragged`) run in bf16 as training
    /// runs them, and give f32's logits within bf16's rounding. The padding rows were made in f32
    /// and burn-flex panicked on the f32/bf16 concatenation.
    #[test]
    fn ragged_bags_run_in_bf16_within_its_rounding() {
        use crate::precision::Precision;
        let _rng = milbase::sync::lock(&crate::RNG_LOCK);
        let device = Device::flex();
        device.seed(9);
        let cfg = AttCnnConfig {
            dim: 8,
            size: 32,
            ..AttCnnConfig::default()
        };
        let model = cfg.init(&device).valid();
        let n = 32;
        let px: Vec<f32> = (0..5 * 3 * n * n)
            .map(|i| ((i * 37) % 251) as f32 / 255.0)
            .collect();
        let x: Tensor<4> = Tensor::from_data(TensorData::new(px, [5, 3, n, n]), &device);
        let lens = [2, 3];
        let logits = |t: Tensor<1>| t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
        let want = logits(model.forward_ragged(x.clone(), &lens));
        let half = Precision::Bf16;
        let got = logits(half.cast(model).forward_ragged(half.input(x), &lens));
        assert_eq!(got.len(), 2);
        for (w, g) in want.iter().zip(&got) {
            assert!(
                g.is_finite() && (w - g).abs() < 0.05,
                "f32 {want:?}, bf16 {got:?}"
            );
        }
    }

    /// Weight gradients of the first and the last convolution (the kernels that train f_CNN)
    /// agree with central finite differences of the logit.
    #[test]
    fn conv_weight_gradients_match_finite_differences() {
        // the whole test: its weights come from the seeded stream
        let _rng = milbase::sync::lock(&crate::RNG_LOCK);
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
        let enc = model
            .encoder
            .ich()
            .expect("the default architecture is ich's");
        let last = enc.blocks.len() - 1;
        for which in [None, Some(last)] {
            let w = match which {
                None => &enc.first.conv.weight,
                Some(i) => &enc.blocks[i].conv.weight,
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
                    let e = m.encoder.ich_mut().expect("ich's architecture");
                    match which {
                        None => {
                            e.first.conv.weight = e.first.conv.weight.clone().map(|t| t + delta)
                        }
                        Some(i) => {
                            e.blocks[i].conv.weight =
                                e.blocks[i].conv.weight.clone().map(|t| t + delta)
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
