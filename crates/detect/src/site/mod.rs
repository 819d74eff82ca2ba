//! Room `site`: a bundle made to fit one hospital, and the evidence of how it does there.
//!
//! - [`adapt`]: `ich adapt` (a bundle adapted from a site's own labelled scans, cross-fitted,
//!   with the validation report of what the site should expect);
//! - [`recalibrate`]: `ich recalibrate` (the head's calibration map refitted on a site's scans);
//! - [`evaluate`]: `ich eval-gp` (the evaluation protocol on features per split, its CSV and
//!   JSON files);
//! - [`unsure`]: whether the "unsure" call earns its place on a site's cross-fitted predictions
//!   (error rates, a risk–coverage curve), for `ich adapt`'s report.
//!
//! It may use [`crate::pipeline`], [`crate::bundle`], [`crate::report`] and the shared pieces at
//! the crate's root; nothing below it may use it. It does not serve: [`crate::node`] is its
//! sibling, not its user.

pub mod adapt;
pub mod evaluate;
pub mod recalibrate;
pub mod unsure;
