//! Errors of the DICOM writers and the network.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a usable DICOM source image: {problem}")]
    Source { path: PathBuf, problem: String },
    #[error("invalid: {0}")]
    Invalid(String),
    #[error("building the DICOM object: {0}")]
    Build(String),
    #[error("{dest}: {problem}")]
    Network { dest: String, problem: String },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
    pub fn net(dest: impl std::fmt::Display, problem: impl std::fmt::Display) -> Self {
        Error::Network {
            dest: dest.to_string(),
            problem: problem.to_string(),
        }
    }
}
