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
    /// Each subtype head of the bundle: recalibrated on the site's scans with a known subtype,
    /// or kept as it was, with the reason.
    pub subtypes: Vec<SubtypeRecalibration>,
}

/// What became of one subtype head.
#[derive(Debug, Clone)]
pub struct SubtypeRecalibration {
    pub name: String,
    pub outcome: SubtypeOutcome,
}

#[derive(Debug, Clone)]
pub enum SubtypeOutcome {
    Recalibrated(Box<SiteCalibration>),
    /// Too few of the site's scans with (or without) it, or none with a known subtype: the head
    /// keeps the calibration of its own fit, not the site's.
    Kept(String),
}

/// Fewest scans of either label a recalibration accepts: below, a map cannot be both fitted and
/// checked.
pub const MIN_PER_CLASS: usize = 10;

/// Refits the calibration map of the bundle's GP head on the site's labelled scans and writes
/// it into the bundle, with its provenance and its cross-fitted figures; so for each subtype
/// head, on the scans whose subtypes the features file knows, when there are at least
/// [`MIN_PER_CLASS`] with and without it (else the head keeps its map, and says so).
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
    // a bundle being changed is locked until its new map is committed (a dry run only reads)
    let (mut bundle, _lock) = if job.dry_run {
        (Bundle::open(&job.bundle)?, None)
    } else {
        let (b, lock) = Bundle::open_for_update(&job.bundle, "recalibrate")?;
        (b, Some(lock))
    };
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
    let features_sha256 = sha256_file(&job.features)?;
    let part = bundle.manifest.gp.as_ref();
    let earlier = part.and_then(|g| g.site_calibration.as_ref());
    let site = recalibrate_head(job, &mut model, earlier, &data, &features_sha256)?;
    tracing::info!(
        scans = site.scans,
        ece_before = site.before.ece,
        ece_cross_fitted = site.cross_fitted.ece,
        "recalibrated"
    );

    // each subtype head on the scans whose subtypes are known
    let mut subtypes = Vec::new();
    let mut refitted = Vec::new();
    let earlier_subtypes: Vec<Option<SiteCalibration>> = part
        .map(|g| {
            g.subtypes
                .iter()
                .map(|h| h.site_calibration.clone())
                .collect()
        })
        .unwrap_or_default();
    for ((name, mut head), earlier) in bundle.subtype_heads()?.into_iter().zip(earlier_subtypes) {
        let key = crate::features::subtype_key(&name);
        let known: Vec<usize> = match data.bag_extra.get(&key) {
            Some(v) => (0..data.bags.len()).filter(|&b| v[b].is_finite()).collect(),
            None => Vec::new(),
        };
        let with = known
            .iter()
            .filter(|&&b| data.bag_extra[&key][b] == 1.0)
            .count();
        let outcome = if let Some(why) = too_few_for_site(with, known.len()) {
            // an earlier site's map is dropped too: the head goes back to its own fit's
            if let Some(e) = &earlier {
                head.calibration = e.previous;
                refitted.push((name.clone(), head, None));
            }
            SubtypeOutcome::Kept(why)
        } else {
            let mut d = data.subset(&known);
            for (k, bag) in d.bags.iter_mut().enumerate() {
                bag.label = u8::from(data.bag_extra[&key][known[k]] == 1.0);
            }
            d.instance_labels = None;
            let s = recalibrate_head(job, &mut head, earlier.as_ref(), &d, &features_sha256)?;
            refitted.push((name.clone(), head, Some(s.clone())));
            SubtypeOutcome::Recalibrated(Box::new(s))
        };
        subtypes.push(SubtypeRecalibration { name, outcome });
    }
    if !job.dry_run {
        let notes: Vec<(String, Option<String>)> = subtypes
            .iter()
            .map(|t| match &t.outcome {
                SubtypeOutcome::Kept(why) => (t.name.clone(), Some(why.clone())),
                SubtypeOutcome::Recalibrated(_) => (t.name.clone(), None),
            })
            .collect();
        bundle.set_site_calibration(&model, site.clone(), &refitted, &notes)?;
    }
    Ok(Recalibrated { site, subtypes })
}

/// Why a subtype head keeps its own map on a site where `with` of its `known` scans (those whose
/// subtypes are known) have the subtype: fewer than [`MIN_PER_CLASS`] with it or without it.
pub(crate) fn too_few_for_site(with: usize, known: usize) -> Option<String> {
    (with < MIN_PER_CLASS || known - with < MIN_PER_CLASS).then(|| {
        format!(
            "{with} of the site's {known} scans with a known subtype have it: a recalibration \
             needs at least {MIN_PER_CLASS} with and {MIN_PER_CLASS} without; the head keeps the \
             calibration of its own fit, not fitted to this site"
        )
    })
}

/// How a head's map is refitted on a site's scans.
pub(crate) struct MapOptions<'a> {
    pub family: MapFamily,
    pub folds: usize,
    pub samples: usize,
    pub seed: u64,
    /// Where the site's scans came from, and their digest (recorded with the map).
    pub source: &'a str,
    pub sha256: &'a str,
}

fn recalibrate_head(
    job: &RecalibrateJob,
    model: &mut gphead::GpModel,
    earlier: Option<&SiteCalibration>,
    data: &gphead::MilData,
    features_sha256: &str,
) -> Result<SiteCalibration> {
    let source = job.features.display().to_string();
    let opts = MapOptions {
        family: job.family,
        folds: job.folds,
        samples: job.samples,
        seed: job.seed,
        source: &source,
        sha256: features_sha256,
    };
    site_map(&opts, model, earlier, data)
}

/// Refits one head's calibration map on the labelled scans of `data` (the head's own draws of
/// each scan's probability by its bag rule, the map pulled toward the head's own map, or toward
/// the map an `earlier` site recalibration replaced), with the cross-fitted figures of the new
/// map; `model` takes the new map.
pub(crate) fn site_map(
    opts: &MapOptions<'_>,
    model: &mut gphead::GpModel,
    earlier: Option<&SiteCalibration>,
    data: &gphead::MilData,
) -> Result<SiteCalibration> {
    let labels = data.bag_labels();
    let positive = labels.iter().filter(|&&l| l == 1).count();
    // the head's own draws of every scan's probability by its bag rule: the map is fitted on
    // them, so the calibrated probability (the mean of the mapped draws) is what it fits
    let draws = model.bag_rule_draws(data, opts.samples, opts.seed)?;
    let mean_through =
        |m: Option<Platt>| -> Vec<f64> { draws.iter().map(|d| mapped_mean(m, d)).collect() };
    // the map of the head's own fit (fit-gp's), also when an earlier recalibration replaced it:
    // a new recalibration starts again from it rather than stacking on the earlier one
    let previous = match earlier {
        Some(e) => e.previous,
        None => model.calibration,
    };
    let before = Metrics::compute(&labels, &mean_through(previous));
    // the new map is pulled toward that one: the site's scans must show it is worse to move it
    let center = previous
        .unwrap_or(Platt::IDENTITY)
        .as_family(opts.family)
        .unwrap_or(Platt::identity(opts.family));
    let q = cross_fitted(center, &labels, &draws, [opts.folds, usize::MAX], opts.seed).ok_or_else(
        || {
            Error::Invalid(format!(
                "{}: too few scans of one label to cross-fit",
                opts.source
            ))
        },
    )?;
    let cross = Metrics::compute(&labels, &q);
    let shrunk = Platt::fit_shrunk_toward(center, &labels, &draws, Platt::CV_FOLDS, opts.seed);
    model.calibration = Some(shrunk.map);
    Ok(SiteCalibration {
        source: opts.source.to_string(),
        features_sha256: opts.sha256.to_string(),
        date: rfc3339(std::time::SystemTime::now()),
        scans: labels.len(),
        positive,
        map: shrunk.map,
        previous,
        strength: shrunk.strength,
        before,
        cross_fitted: cross,
        folds: opts.folds,
    })
}
