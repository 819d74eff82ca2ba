//! Errors of the GP head.

use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum GpError {
    #[error("{}: {detail}", path.display())]
    Read { path: PathBuf, detail: String },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "feature {feature} of instance {instance} ({name}) is {value}: features must be finite and within ±1e100 (larger ones overflow the standardisation)"
    )]
    NonFinite {
        instance: usize,
        name: String,
        feature: usize,
        value: f64,
    },
    #[error("Cholesky factorisation of the {what} failed even with jitter {jitter:e}")]
    NotPositiveDefinite { what: &'static str, jitter: f64 },
    #[error("model file {}: {detail}", path.display())]
    Model { path: PathBuf, detail: String },
    #[error(
        "feature dimension mismatch: the model expects {expected} features, the data has {found}"
    )]
    Dimension { expected: usize, found: usize },
    #[error("invalid parameter: {0}")]
    Param(String),
    #[error("{0}")]
    Data(String),
}

pub type Result<T, E = GpError> = std::result::Result<T, E>;
