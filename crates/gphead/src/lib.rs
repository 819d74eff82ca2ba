//! `gphead`: sparse Gaussian-process multiple-instance-learning heads with uncertainty.
//!
//! ψ-VGPMIL (VGPMIL and G-VGPMIL: one loop, different θ) as specified in `MODELS.md` §2–4 and §7.
//! Knows nothing of images, DICOM or neural networks: it reads feature tables.
//!
//! hyper-parameters ([`VgpmilParams`]) → [`fit`] → fitted model ([`GpModel`]) → [`GpModel::predict`].

// Linear-algebra loops index several arrays by the same row/column index; iterator chains would
// hide the mathematics they transcribe.
#![allow(clippy::needless_range_loop)]

pub mod calibrate;
mod common;
pub mod data;
pub mod emax;
pub mod error;
pub mod hyper;
pub mod kernel;
pub mod kmeans;
pub mod linalg;
pub mod lm;
pub mod metrics;
pub mod model;
pub mod predict;
pub mod probit;
pub mod protocol;
pub mod theta;
pub mod vgpmil;

pub use common::EpochTrace;
pub use data::{Bag, MilData, Standardizer};
pub use emax::EmaxRule;
pub use error::{GpError, Result};
pub use kernel::Rbf;
pub use model::GpModel;
pub use predict::{BagRule, Predictions};
pub use theta::Link;
pub use vgpmil::{fit, FitOutput, Init, VgpmilParams};
