//! `preprocess`: DICOM head CT → Hounsfield units → three CT windows → a compact dataset;
//! and `synth`, synthetic head CT scans with labelled hemorrhages, written as real DICOM.
//!
//! Modules, from the file up: [`read`] (DICOM headers and pixels), [`hu`] (stored values → HU),
//! [`window`], [`resample`], [`scan`] (grouping and z ordering), [`labels`], [`dataset`] (the
//! on-disk format), [`pipeline`] (the `ich preprocess` run) and [`synth`]; [`nifti`] reads
//! NIfTI-1 volumes as scans beside DICOM.

pub mod dataset;
pub mod dicomfile;
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

/// A path under the shared data folder for tests and benchmarks: `None` (with a printed reason)
/// when it is missing, so a developer without the data can still run the suite, but a panic when
/// `CI` is set, so CI never skips silently.
pub fn shared_data_or_skip(relative: &str) -> Option<std::path::PathBuf> {
    let p = shared_data_dir().join(relative);
    if p.exists() {
        return Some(p);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "{} is missing and CI is set: the shared data must be present",
            p.display()
        );
    }
    eprintln!("SKIPPED: {} not found (set ICH_SHARED_DATA)", p.display());
    None
}

/// Where the shared real data lives: `$ICH_SHARED_DATA`, else `../shared/data` from the workspace.
pub fn shared_data_dir() -> std::path::PathBuf {
    if let Ok(p) = std::env::var("ICH_SHARED_DATA") {
        return p.into();
    }
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}
