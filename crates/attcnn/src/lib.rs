//! `attcnn`: the attention-based MIL CNN of MODELS.md §8 in burn 0.22 — a slice encoder (f_CNN),
//! gated attention pooling over a scan's slices (f_Att) and a classifier (f_c), trained on scan
//! labels; after training the encoder alone turns every slice into D features for the GP head.
//! Knows nothing of DICOM: bags come through [`training::BagSource`].
//!
//! Layout as in burn's examples: [`model`], [`training`], [`inference`].

pub mod inference;
pub mod model;
pub mod training;

pub use model::{AttCnn, AttCnnConfig};
pub use training::{BagSource, TrainConfig};

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

pub type Result<T, E = CnnError> = std::result::Result<T, E>;

/// The CPU device: burn-flex (measured faster than the deprecated ndarray backend).
pub fn cpu_device() -> burn::tensor::Device {
    burn::tensor::Device::flex()
}
