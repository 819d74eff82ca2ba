//! `pacs`: `ich`'s results where radiologists look.
//!
//! - [`sr`]: a Comprehensive 3D SR following TID 1500 (Measurement Report), one measurement group
//!   (TID 1501) per slice and one for the scan (docs/REPORT.md, "DICOM SR");
//! - [`sc`]: Secondary Capture images of the flagged slices, annotated like the HTML page;
//! - [`context`]: the patient and study context copied from a source image, only as far as the
//!   IODs require;
//! - [`uid`]: new UIDs under a documented root (`2.25`, or the hospital's own);
//! - [`store`]: C-STORE to a PACS (dicom-ul), [`web`]: STOW-RS and WADO-RS (DICOMweb) over
//!   [`http`], a small client bounded in bytes, time and redirects;
//! - [`send`]: sending a folder of written objects with bounded retries;
//! - [`scp`]: a Storage SCP (C-ECHO, C-STORE) that hands each received instance to a sink.
//!
//! It knows no model and no image pipeline: callers give it numbers, UIDs and pixels.

pub mod context;
pub mod error;
mod font;
pub mod http;
pub mod sc;
pub mod scp;
pub mod send;
pub mod sr;
pub mod store;
pub mod uid;
pub mod web;
pub mod write;

pub use context::SourceContext;
pub use error::{Error, Result};
pub use send::{Destination, SendOptions, SendReport};
pub use write::{date_time, Equipment};
