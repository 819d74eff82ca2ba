//! `ich recalibrate`: a bundle's calibration map refitted on a site's own labelled scans.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::range;
use crate::summary;
use anyhow::Context;
use gphead::calibrate::MapFamily;

/// Refit the calibration map of a bundle's GP head on a site's own labelled scans, in place: the
/// head stays as it is; the probabilities (scans and slices, one map) are
/// made to mean what they say at this site. The new map is pulled toward the head's own map as
/// far as cross-validation over the site's scans says (kept when they show no better one).
/// Prints the site's figures with the old map and the new map's, cross-fitted (each scan scored
/// by a map fitted without it); the manifest records both and where the scans came from.
#[derive(clap::Args, Debug)]
pub struct RecalibrateArgs {
    /// The bundle (its GP head fitted): recalibrated in place.
    #[arg(long)]
    bundle: PathBuf,
    /// The site's scans as a features file (`ich extract --model BUNDLE` of its labelled
    /// dataset); every scan needs its label, and at least 10 of each.
    #[arg(long)]
    features: PathBuf,
    /// The map: beta (three parameters, each end bent on its own) or platt (two).
    #[arg(long, value_enum, default_value_t = MapFamily::Beta)]
    map: MapFamily,
    /// Folds of the cross-fitted estimate [2..=20].
    #[arg(long, default_value_t = 5, value_parser = |s: &str| range::int_in(s, 2, 20))]
    folds: usize,
    /// Monte Carlo draws per scan [1..=1000000].
    #[arg(long, default_value_t = 200, value_parser = |s: &str| range::int_in(s, 1, 1_000_000))]
    samples: usize,
    /// Seed of the draws and the folds.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the figures and the map, but leave the bundle as it is.
    #[arg(long)]
    dry_run: bool,
}

pub fn recalibrate(a: RecalibrateArgs) -> anyhow::Result<ExitCode> {
    let job = detect::site::recalibrate::RecalibrateJob {
        bundle: a.bundle.clone(),
        features: a.features.clone(),
        family: a.map,
        folds: a.folds,
        samples: a.samples,
        seed: a.seed,
        dry_run: a.dry_run,
    };
    let r = detect::site::recalibrate::recalibrate(&job)
        .with_context(|| format!("recalibrating {}", a.bundle.display()))?;
    outln!(
        "{}",
        summary::recalibrated(&r, &a.features, &a.bundle, a.dry_run)
    );
    Ok(ExitCode::SUCCESS)
}
