//! Inference with a trained model: the slice encoder alone (attention and classifier stripped)
//! for features, and the whole network for the CNN's own scan probability and attention.

use std::path::Path;

use burn::module::Module;
use burn::tensor::{Device, Tensor};

use crate::data::bag_tensor;
use crate::model::{AttCnn, AttCnnConfig};
use crate::{CnnError, Result};

/// A trained network on a device, for inference.
pub struct Trained {
    pub config: AttCnnConfig,
    model: AttCnn,
    device: Device,
}

/// What the CNN says about one scan.
#[derive(Debug, Clone)]
pub struct ScanOutput {
    /// `[slices][D]` features of f_CNN.
    pub features: Vec<Vec<f32>>,
    /// Attention weight of every slice (sums to 1).
    pub attention: Vec<f32>,
    /// The CNN's own scan probability.
    pub probability: f64,
}

impl Trained {
    pub fn load(config: AttCnnConfig, weights: &Path, device: &Device) -> Result<Self> {
        let model = config
            .init(device)
            .try_load_file(weights)
            .map_err(|e| CnnError::Io(format!("{}: {e}", weights.display())))?
            .valid();
        Ok(Self {
            config,
            model,
            device: device.clone(),
        })
    }

    pub fn from_model(config: AttCnnConfig, model: AttCnn, device: &Device) -> Self {
        Self {
            config,
            model: model.valid(),
            device: device.clone(),
        }
    }

    /// Runs a scan (uint8 `[slices, 3, size, size]`) through the network; slices are encoded in
    /// chunks of 64 so memory stays bounded for long scans.
    pub fn scan(&self, slices: usize, pixels: &[u8]) -> Result<ScanOutput> {
        let size = self.config.size;
        let per = 3 * size * size;
        if slices == 0 {
            return Err(CnnError::Data("a scan without slices".into()));
        }
        if pixels.len() != slices * per {
            return Err(CnnError::Data(format!(
                "{} bytes for {slices} slices of {size}²",
                pixels.len()
            )));
        }
        let mut feats: Vec<Tensor<2>> = Vec::new();
        for start in (0..slices).step_by(64) {
            let end = (start + 64).min(slices);
            let x = bag_tensor(
                &pixels[start * per..end * per],
                end - start,
                size,
                &self.device,
            );
            let [_, s, c, h, w] = x.dims();
            feats.push(self.model.encode(x.reshape([s, c, h, w])));
        }
        let h = Tensor::cat(feats, 0);
        let d = h.dims()[1];
        let h3 = h.clone().reshape([1, slices, d]);
        let a = self.model.attention(h3.clone(), None);
        let z: Tensor<2> = (h3 * a.clone().unsqueeze_dim(2)).sum_dim(1).squeeze_dim(1);
        let logit = self.model.classify(z);
        let lv = logit
            .into_data()
            .try_to_vec::<f32>()
            .map_err(|e| CnnError::Data(format!("{e:?}")))?[0] as f64;
        let fv = h
            .into_data()
            .try_to_vec::<f32>()
            .map_err(|e| CnnError::Data(format!("{e:?}")))?;
        let av = a
            .into_data()
            .try_to_vec::<f32>()
            .map_err(|e| CnnError::Data(format!("{e:?}")))?;
        Ok(ScanOutput {
            features: fv.chunks(d).map(|c| c.to_vec()).collect(),
            attention: av,
            probability: 1.0 / (1.0 + (-lv).exp()),
        })
    }
}
