//! Stateful counterparts for decoding and encoding DICOM content.

pub mod decode;
pub mod encode;
