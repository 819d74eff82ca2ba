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
    /// The inputs hold no CT scan to predict (what they hold instead is in the message).
    #[error("no CT scan found in {0}")]
    NoScan(String),
    /// One scan could not be predicted (the others go on).
    #[error("scan {id}: {source}")]
    Scan { id: String, source: Box<Error> },
    #[error(transparent)]
    Preprocess(#[from] preprocess::Error),
    #[error(transparent)]
    Gp(#[from] gphead::GpError),
    #[error(transparent)]
    Cnn(#[from] attcnn::CnnError),
    #[error(transparent)]
    Checkpoint(#[from] tfckpt::Error),
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
