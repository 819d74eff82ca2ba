//! `preprocess`: DICOM head CT → Hounsfield units → three CT windows → a compact dataset;
//! and `synth`, synthetic head CT scans with labelled hemorrhages, written as real DICOM.
//!
//! Modules, from the file up: [`read`] (DICOM headers and pixels), [`hu`] (stored values → HU),
//! [`window`], [`resample`], [`scan`] (grouping and z ordering), [`labels`], [`dataset`] (the
//! on-disk format), [`pipeline`] (the `ich preprocess` run) and [`synth`]. [`source`] is where
//! a scan comes from: a DICOM series, or one volume file of a [`source::VolumeFormat`] listed in
//! [`VOLUME_FORMATS`] ([`nifti`] reads NIfTI-1 volumes).

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
pub mod source;
mod spill;
pub mod synth;
pub mod view;
pub mod window;

pub use dataset::{Dataset, PreprocessConfig};
pub use error::{Error, FileError, FileProblem, Result};
pub use pipeline::{preprocess, preprocess_shard, PreprocessOptions, Progress, Quiet, Summary};
pub use window::{Window, Windows};

/// The volume formats read beside DICOM, in the order they claim a file
/// ([`source::claimant`]). A new format is one implementation of [`source::VolumeFormat`] and
/// one entry here: finding, decoding, labels and `--nifti-dicom` take it from its
/// [`source::Source`].
pub static VOLUME_FORMATS: &[&dyn source::VolumeFormat] = &[&nifti::Nifti];
