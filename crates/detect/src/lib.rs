//! `detect`: the product's main job as a library — finding intracranial hemorrhage in head CT,
//! slice by slice, with its uncertainty. It joins the stages (`preprocess`, `attcnn`, `gphead`)
//! and owns what they share:
//!
//! - [`bundle`]: the model bundle (manifest, every file name, checksums, atomic writes);
//! - [`features`]: the features file (one schema, one writer, one reader);
//! - [`train`], [`extract`], [`fit`]: CNN training, feature extraction and GP fitting into a bundle;
//! - [`recalibrate`]: the head's calibration map refitted on a site's own labelled scans;
//! - [`evaluate`]: `eval-gp`'s flow — features per split, the protocol, its CSV and JSON files;
//! - [`predict`]: open a bundle, predict scans from DICOM or a dataset, typed reports;
//! - [`report`] (the report's data model and CSV rows) and [`html`] (the pages);
//! - [`demo`]: the whole pipeline on synthetic data.
//!
//! The `ich` binary parses flags, calls these and prints; nothing here knows of the command line.

pub mod adapt;
pub mod bundle;
pub mod demo;
pub mod device;
pub mod dicomout;
pub mod error;
pub mod evaluate;
pub mod evidence;
pub mod extract;
pub mod features;
pub mod fit;
pub mod fuzzing;
pub mod html;
pub mod import;
pub mod predict;
pub mod progress;
pub mod recalibrate;
pub mod report;
pub mod runmark;
pub mod sanity;
pub mod serve;
pub mod summary;
pub mod train;

pub use bundle::Bundle;
pub use device::{Backend, Compute, Precision};
pub use error::{Error, Result};
pub use predict::{PacsJob, PredictJob, PredictOptions, Predictor, ScanPrediction};
pub use report::{Report, ScanReport, SliceReport};

/// A scan id that may become a file name: letters, digits, `-`, `_` and `.`, not starting with a
/// dot, at most 200 characters (the ids `ich preprocess` writes are `scan-` + hex).
pub fn check_scan_id(id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id.len() <= 200
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "scan id {id:?} cannot be a file name (letters, digits, '-', '_' and '.' only, not starting with '.')"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::check_scan_id;

    #[test]
    fn scan_ids_that_could_escape_the_output_folder_are_refused() {
        assert!(check_scan_id("scan-0123abcd").is_ok());
        for bad in [
            "../../x",
            "a/b",
            "",
            ".hidden",
            "a\\b",
            "é",
            &"x".repeat(201),
        ] {
            assert!(check_scan_id(bad).is_err(), "{bad}");
        }
    }
}
