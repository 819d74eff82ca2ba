//! `testkit`: what the tests, benchmarks and fuzz targets of `ich` share, kept out of the product
//! libraries (no product crate depends on it, only their tests):
//!
//! - [`fuzzing`]: the entry points of the fuzz targets (`fuzz/`), replayed by
//!   `tests/fuzz_regressions.rs`;
//! - [`dicom`]: hostile variants of a CT slice file (docs/ROBUSTNESS.md);
//! - [`checkpoint`]: small TensorFlow checkpoints written from nothing;
//! - [`nifti`]: NIfTI-1 volumes written from nothing;
//! - [`shared_data_or_skip`]: the shared real data (`../shared/data`), skipped with a reason where
//!   it is absent, never under CI.

pub mod checkpoint;
pub mod dicom;
pub mod fuzzing;
pub mod nifti;

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
