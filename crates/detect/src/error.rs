//! Errors of the library layer. Every error about a file or a scan names it.

use std::path::{Path, PathBuf};

use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    /// A file or folder that is not what it should be (bundle, dataset, features file, …).
    #[error("{}: {problem}", path.display())]
    File { path: PathBuf, problem: String },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// An option out of range or a combination that cannot work.
    #[error("{0}")]
    Invalid(String),
    /// One scan could not be predicted (the others go on).
    #[error("scan {id}: {source}")]
    Scan { id: String, source: Box<Error> },
    #[error(transparent)]
    Preprocess(#[from] preprocess::Error),
    #[error(transparent)]
    Gp(#[from] gphead::GpError),
    #[error(transparent)]
    Cnn(#[from] attcnn::CnnError),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn file(path: &Path, problem: impl Into<String>) -> Self {
        Error::File {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
    pub fn scan(id: &str, e: impl Into<Error>) -> Self {
        Error::Scan {
            id: id.to_string(),
            source: Box::new(e.into()),
        }
    }
}

/// Writes `bytes` to `path` atomically, naming the file in the error.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    milbase::write_atomic(path, bytes).map_err(|e| Error::io(path, e))
}

/// Writes JSON atomically.
pub(crate) fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<()> {
    let bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::file(path, format!("serialising: {e}")))?;
    write_atomic(path, &bytes)
}

/// Reads and parses JSON.
pub(crate) fn read_json<T: for<'de> serde::Deserialize<'de>>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&bytes).map_err(|e| Error::file(path, format!("parsing: {e}")))
}
