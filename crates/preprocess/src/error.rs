//! Errors of the preprocess crate. Every error about a file names the file.

use std::path::PathBuf;
use thiserror::Error;

/// A problem with the pixel buffer itself.
#[derive(Debug, Error)]
pub enum PixelError {
    #[error("BitsAllocated {0} is not supported (8, 16 or 32)")]
    UnsupportedBits(u16),
    #[error("BitsStored {stored} does not fit BitsAllocated {allocated}")]
    BadBitsStored { stored: u16, allocated: u16 },
    #[error("pixel data too short: {found} bytes, expected at least {expected}")]
    TooShort { expected: usize, found: usize },
}

/// Why one input file was not used.
#[derive(Debug, Error)]
pub enum FileProblem {
    #[error("not a DICOM file ({0})")]
    NotDicom(String),
    #[error("corrupt DICOM file ({0})")]
    Corrupt(String),
    #[error("not a CT image (modality {modality}, SOP class {sop_class})")]
    NotCt { modality: String, sop_class: String },
    #[error("not a head CT (BodyPartExamined {0})")]
    NotHead(String),
    #[error("not an image (no {0})")]
    NoImage(&'static str),
    #[error("missing attribute {0}")]
    Missing(&'static str),
    #[error("attribute {name} unreadable: {detail}")]
    BadAttribute { name: &'static str, detail: String },
    #[error("pixel data encoded as {name} ({uid}) cannot be decoded: {detail}")]
    UnsupportedEncoding {
        uid: String,
        name: String,
        detail: String,
    },
    #[error("pixel data could not be decoded: {0}")]
    Decode(String),
    #[error("{0}")]
    Pixel(#[from] PixelError),
    #[error("{0} samples per pixel (colour) cannot be converted to Hounsfield units")]
    Colour(u16),
    #[error("multi-frame image ({0} frames): enhanced CT is not supported, convert it to one file per slice (e.g. dcmtk's `dcm2pnm` or gdcm's `gdcmconv --split`)")]
    MultiFrame(i64),
    #[error("{what} of {bytes} bytes is over the limit of {limit} bytes")]
    TooLarge {
        what: &'static str,
        bytes: u64,
        limit: u64,
    },
    /// A volume file (e.g. NIfTI, see [`crate::source::VolumeFormat`]) its format refuses.
    #[error("{format}: {why}")]
    Volume { format: &'static str, why: String },
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
    #[error("memory could not be reserved while reading it ({0}): the machine is short of memory, the file may be sound; retry with fewer at once")]
    OutOfMemory(String),
}

impl FileProblem {
    /// A short, stable reason used to count skipped files.
    pub fn category(&self) -> &'static str {
        match self {
            FileProblem::NotDicom(_) => "not DICOM",
            FileProblem::Corrupt(_) => "corrupt DICOM",
            FileProblem::NotCt { .. } => "not a CT image",
            FileProblem::NotHead(_) => "not a head CT",
            FileProblem::NoImage(_) => "no image",
            FileProblem::Missing(_) | FileProblem::BadAttribute { .. } => "bad header",
            FileProblem::UnsupportedEncoding { .. } => "unsupported encoding",
            FileProblem::Decode(_) | FileProblem::Pixel(_) => "pixel decoding failed",
            FileProblem::Colour(_) => "colour image",
            FileProblem::MultiFrame(_) => "multi-frame image",
            FileProblem::TooLarge { .. } => "too large",
            // counted by format as "bad NIfTI" (see `pipeline::find::record_skip`)
            FileProblem::Volume { .. } => "bad volume file",
            FileProblem::Io(_) => "read error",
            FileProblem::OutOfMemory(_) => "out of memory",
        }
    }
}

/// A problem with a named file.
#[derive(Debug, Error)]
#[error("{}: {problem}", path.display())]
pub struct FileError {
    pub path: PathBuf,
    pub problem: FileProblem,
}

impl FileError {
    pub fn new(path: impl Into<PathBuf>, problem: impl Into<FileProblem>) -> Self {
        Self {
            path: path.into(),
            problem: problem.into(),
        }
    }
}

/// Errors of whole operations (preprocess runs, synth, dataset I/O).
#[derive(Debug, Error)]
pub enum Error {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {detail}", path.display())]
    Format { path: PathBuf, detail: String },
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
    pub fn format(path: impl Into<PathBuf>, detail: impl Into<String>) -> Self {
        Error::Format {
            path: path.into(),
            detail: detail.into(),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
