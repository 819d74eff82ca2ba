//! `attcnn`: the attention-based MIL CNN of MODELS.md §8 in burn 0.22 — a slice encoder (f_CNN),
//! gated attention pooling over a scan's slices (f_Att) and a classifier (f_c), trained on scan
//! labels; after training the encoder alone turns every slice into D features for the GP head.
//! Knows nothing of DICOM: bags come through [`training::BagSource`].
//!
//! Layout as in burn's examples: [`model`] (put together from [`encoder`], [`attention`] and
//! [`classifier`]), [`data`], [`training`], [`inference`].

pub mod attention;
pub mod classifier;
pub mod config;
pub mod data;
pub mod encoder;
pub mod finetune;
pub mod gpu;
pub mod import;
pub mod inference;
pub mod model;
pub mod norm;
pub mod precision;
pub mod training;

/// burn's random generator is one per backend, shared by every thread: unit tests that seed it and
/// then draw from it (initialising a model) hold this lock, so that a test running beside them
/// cannot draw from the stream they seeded.
#[cfg(test)]
pub(crate) static RNG_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub use config::Architecture;
pub use data::BagSource;
pub use model::{AttCnn, AttCnnConfig};
pub use precision::Precision;
pub use training::TrainConfig;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum CnnError {
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error("data: {0}")]
    Data(String),
    #[error("{0}")]
    Io(String),
}

impl From<std::io::Error> for CnnError {
    fn from(e: std::io::Error) -> Self {
        CnnError::Io(e.to_string())
    }
}

pub type Result<T, E = CnnError> = std::result::Result<T, E>;

/// A tensor's values on the host as f32, whatever float type its device computes in (bf16 and
/// f16 are widened exactly).
pub fn host_f32<const D: usize>(t: burn::tensor::Tensor<D>) -> Result<Vec<f32>> {
    t.into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .map_err(|e| CnnError::Data(format!("{e:?}")))
}

/// The first value of `t` as f64 (NaN if it cannot be read).
pub(crate) fn scalar(t: burn::tensor::Tensor<1>) -> f64 {
    host_f32(t).map_or(f64::NAN, |v| v[0] as f64)
}

/// The CPU device: burn-flex (measured faster than the deprecated ndarray backend).
pub fn cpu_device() -> burn::tensor::Device {
    burn::tensor::Device::flex()
}
