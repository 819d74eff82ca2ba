//! `preprocess`: DICOM head CT → Hounsfield units → three CT windows → a compact dataset;
//! and `synth`, synthetic head CT scans with labelled hemorrhages, written as real DICOM.
//!
//! Modules, from the file up: [`read`] (DICOM headers and pixels), [`hu`] (stored values → HU),
//! [`window`], [`resample`], [`scan`] (grouping and z ordering), [`labels`], [`dataset`] (the
//! on-disk format), [`pipeline`] (the `ich preprocess` run) and [`synth`]; [`nifti`] reads
//! NIfTI-1 volumes as scans beside DICOM.

pub mod ctwriter;
pub mod dataset;
pub mod error;
pub mod hu;
pub mod labels;
pub mod merge;
pub mod nifti;
pub mod pipeline;
pub mod read;
pub mod resample;
pub mod scan;
mod spill;
pub mod synth;
pub mod view;
pub mod window;

pub use dataset::{Dataset, PreprocessConfig};
pub use error::{Error, FileError, FileProblem, Result};
pub use pipeline::{preprocess, preprocess_shard, PreprocessOptions, Progress, Quiet, Summary};
pub use window::{Window, Windows};
