//! Room `pipeline`: how a probability is made, from a dataset or DICOM files to a report.
//!
//! - [`train`]: `ich train-cnn` (the attention CNN into a new bundle);
//! - [`extract`]: `ich extract` (the encoder's features per slice into a features file);
//! - [`fit`]: `ich fit-gp --bundle` (a GP head, optionally calibrated, into a bundle);
//! - [`import`]: `ich import` (published weights into a bundle);
//! - [`predict`]: `ich predict` (open a bundle once, predict scan by scan, write the reports);
//! - [`sanity`]: whether a scan is something a model can read at all;
//! - [`device`]: where the CNN runs (CPU, wgpu, CUDA);
//! - [`demo`]: `ich demo`, the whole pipeline on synthetic data.
//!
//! It may use [`crate::bundle`], [`crate::report`] and the shared pieces at the crate's root. It
//! may not use [`crate::site`] or [`crate::node`]: they are built on it.

pub mod demo;
pub mod device;
pub mod extract;
pub mod fit;
pub mod import;
pub mod predict;
pub mod sanity;
pub mod train;
