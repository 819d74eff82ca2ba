//! `gphead`: sparse Gaussian-process multiple-instance-learning heads with uncertainty.
//!
//! ψ-VGPMIL (VGPMIL and G-VGPMIL: one loop, different θ), MIL-GP-Probit (variational inference
//! and Gibbs sampling) and LM-VGPMIL, as specified in `MODELS.md`. Knows nothing of images, DICOM
//! or neural networks, nor of files: it takes feature matrices ([`MilData`]).
//!
//! Which model: [`Model`]. Parameters ([`FitParams`]) → validated ([`ValidParams`]) → [`fit()`] →
//! fitted model ([`GpModel`]) → [`GpModel::predict`].
//!
//! Modules, from the bottom up: [`special`] and [`linalg`] (numerics), [`kernel`], [`kmeans`],
//! [`data`], [`spec`] (the model type), [`params`], [`emax`], [`theta`]; `fitloop` (what every
//! fit shares: set-up, the epoch loop, early stopping, the fitted model); the models' own updates
//! in `vgpmil`, [`probit`], [`lm`] and [`hyper`] (kernel steps); [`mod@fit`]; [`predict`] and
//! [`model`]; [`calibrate`], [`metrics`] and [`evaluation`] (the evaluation protocol).

// Linear-algebra loops index several arrays by the same row/column index; iterator chains would
// hide the mathematics they transcribe.
#![allow(clippy::needless_range_loop)]

mod basis;
pub mod calibrate;
pub mod crossfit;
pub mod data;
pub mod emax;
pub mod error;
pub mod evaluation;
pub mod fit;
mod fitloop;
pub mod hyper;
pub mod kernel;
pub mod kmeans;
pub mod linalg;
pub mod lm;
pub mod metrics;
pub mod model;
pub mod params;
pub mod pca;
pub mod predict;
pub mod probit;
pub mod spec;
pub mod special;
pub mod theta;
mod vgpmil;

pub use data::{Bag, MilData, Standardizer};
pub use emax::EmaxRule;
pub use error::{GpError, Result};
pub use fit::{fit, fit_valid};
pub use fitloop::{EpochTrace, FitOutput};
pub use kernel::Rbf;
pub use model::GpModel;
pub use params::{FitParams, Gibbs, ValidParams};
pub use predict::{BagRule, Predictions};
pub use spec::{Grid, Model};
