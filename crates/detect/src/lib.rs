//! `detect`: the product's main job as a library — finding intracranial hemorrhage in head CT,
//! slice by slice, with its uncertainty. It joins the stages (`preprocess`, `attcnn`, `gphead`,
//! `pacs`) in rooms named for what users do (docs/ARCHITECTURE.md). Arrows point down only:
//!
//! ```text
//!   node      site          (ich serve; ich adapt, recalibrate, eval-gp)
//!      \      /
//!      pipeline             (ich train-cnn, extract, fit-gp, import, predict, demo)
//!      /      \
//!   report     |            (report.json, CSV, HTML, SR and captures, ich merge of reports)
//!      \      /
//!      bundle               (the model bundle, the head's evidence)
//!        |
//!   error, progress, runmark, features (shared by every room)
//! ```
//!
//! - [`bundle`]: what a model is on disk;
//! - [`report`]: what a prediction says, and every writer of it;
//! - [`pipeline`]: how a probability is made: train, extract, fit, import, predict, demo;
//! - [`site`]: a bundle made to fit one hospital: adapt, recalibrate, evaluate;
//! - [`node`]: `ich serve`;
//! - shared: [`error`], [`progress`] (bars on a terminal, "k of N, ETA" lines in a log),
//!   [`runmark`] (the mark of the run that wrote an output folder), [`features`] (the features
//!   file: `ich extract`'s output, what a GP head is fitted on).
//!
//! `scripts/ci/module-graph.py` fails CI on an import circle or an arrow pointing up. The `ich`
//! binary parses flags, calls these and prints (the lines a person reads about each job are the
//! binary's `summary`); nothing here knows of the command line or writes to the terminal.

pub mod bundle;
pub mod error;
pub mod features;
pub mod node;
pub mod pipeline;
pub mod progress;
pub mod report;
pub mod runmark;
pub mod site;

pub use bundle::Bundle;
pub use error::{Error, Result};
pub use pipeline::device::{Backend, Compute, Precision};
pub use pipeline::predict::{PacsJob, PredictJob, PredictOptions, Predictor, ScanPrediction};
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
