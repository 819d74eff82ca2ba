//! Recalibrating a bundle's GP head on a site's own labelled scans (`ich recalibrate`).
//!
//! A head calibrated on its training site's scans is not calibrated on another site's: on CQ500
//! the RSNA-calibrated head's scan ECE is 0.087 against a floor of 0.038 (docs/BENCHMARKS.md),
//! because the features shift between sites. A hospital that has a few hundred labelled scans
//! of its own refits the one calibration map on them: the GP head stays as it is (and so do
//! rankings, but for predictions whose draws spread differently: docs/GPHEAD.md), slices and
//! scans still share the map (it is monotone and commutes with the max rule), and the new map's
//! expected quality on the site's next scans is measured by cross-fitting (each labelled scan's
//! probability from a map fitted without it) and recorded in the manifest next to the figures of
//! the map it replaces.

use std::path::PathBuf;

use gphead::calibrate::{cross_fitted, mapped_mean, MapFamily, Platt};

use gphead::metrics::Metrics;

use crate::bundle::{rfc3339, sha256_file, Bundle, SiteCalibration};
use crate::error::{Error, Result};

/// A recalibration job.
#[derive(Debug, Clone)]
pub struct RecalibrateJob {
    /// The bundle whose head is recalibrated (in place).
    pub bundle: PathBuf,
    /// The site's scans: a features file (`ich extract` of its labelled dataset); every scan
    /// needs its label.
    pub features: PathBuf,
    /// The map's family: [`MapFamily::Beta`] bends the low and the high end separately.
    pub family: MapFamily,
    /// Folds of the cross-fitted estimate (≥ 2).
    pub folds: usize,
    /// Monte Carlo draws per scan (≥ 1).
    pub samples: usize,
    pub seed: u64,
    /// Measure and fit only; leave the bundle as it is.
    pub dry_run: bool,
}

/// What [`recalibrate`] did.
#[derive(Debug, Clone)]
pub struct Recalibrated {
    pub site: SiteCalibration,
}

/// Fewest scans of either label a recalibration accepts: below, a map cannot be both fitted and
/// checked.
pub const MIN_PER_CLASS: usize = 10;

/// Refits the calibration map of the bundle's GP head on the site's labelled scans and writes
/// it into the bundle, with its provenance and its cross-fitted figures.
pub fn recalibrate(job: &RecalibrateJob) -> Result<Recalibrated> {
    if job.folds < 2 {
        return Err(Error::Invalid(format!(
            "at least 2 folds for the cross-fitted estimate, got {}",
            job.folds
        )));
    }
    if job.samples == 0 {
        return Err(Error::Invalid(
            "at least one Monte Carlo sample is needed".into(),
        ));
    }
    let mut bundle = Bundle::open(&job.bundle)?;
    let mut model = bundle.gp()?;
    let raw = crate::features::read(&job.features)?;
    bundle.check_features(&job.features, raw.d)?;
    let labels = raw.bag_labels();
    let positive = labels.iter().filter(|&&l| l == 1).count();
    let fewest = positive.min(labels.len() - positive);
    if fewest < MIN_PER_CLASS {
        return Err(Error::file(
            &job.features,
            format!(
                "{positive} positive and {} negative scans: a recalibration needs at least {MIN_PER_CLASS} of each",
                labels.len() - positive
            ),
        ));
    }
    let data = match bundle.projection()? {
        Some(p) => p.transform(&raw)?,
        None => raw,
    };
    // the head's own draws of every scan's probability by its bag rule: the map is fitted on
    // them, so the calibrated probability (the mean of the mapped draws) is what it fits
    let draws = model.bag_rule_draws(&data, job.samples, job.seed)?;
    let mean_through =
        |m: Option<Platt>| -> Vec<f64> { draws.iter().map(|d| mapped_mean(m, d)).collect() };
    // the map of the head's own fit (fit-gp's), also when an earlier recalibration replaced it:
    // a new recalibration starts again from it rather than stacking on the earlier one
    let previous = match bundle
        .manifest
        .gp
        .as_ref()
        .and_then(|g| g.site_calibration.as_ref())
    {
        Some(earlier) => earlier.previous,
        None => model.calibration,
    };
    let before = Metrics::compute(&labels, &mean_through(previous));
    // the new map is pulled toward that one: the site's scans must show it is worse to move it
    let center = previous
        .unwrap_or(Platt::IDENTITY)
        .as_family(job.family)
        .unwrap_or(Platt::identity(job.family));
    let q = cross_fitted(center, &labels, &draws, [job.folds, usize::MAX], job.seed)
        .ok_or_else(|| Error::file(&job.features, "too few scans of one label to cross-fit"))?;
    let cross = Metrics::compute(&labels, &q);
    let shrunk = Platt::fit_shrunk_toward(center, &labels, &draws, Platt::CV_FOLDS, job.seed);
    model.calibration = Some(shrunk.map);
    let site = SiteCalibration {
        source: job.features.display().to_string(),
        features_sha256: sha256_file(&job.features)?,
        date: rfc3339(std::time::SystemTime::now()),
        scans: labels.len(),
        positive,
        map: shrunk.map,
        previous,
        strength: shrunk.strength,
        before,
        cross_fitted: cross,
        folds: job.folds,
    };
    tracing::info!(
        scans = site.scans,
        ece_before = before.ece,
        ece_cross_fitted = cross.ece,
        "recalibrated"
    );
    if !job.dry_run {
        bundle.set_site_calibration(&model, site.clone())?;
    }
    Ok(Recalibrated { site })
}
