//! The network's maps on a site's labels: a scan map and a slice map (Platt), refitted on bootstrap
//! resamples of the site's patients so that a site with few scans gets wide intervals.

use super::*;

/// The network as it came through the site's maps, fitted on some scans' labels: its scan
/// probability through a Platt map, its one-slice probabilities through a map fitted by the
/// multiple-instance likelihood ([`gphead::calibrate::fit_instance_map`]).
#[derive(Debug, Clone, Copy)]
pub struct NetworkMaps {
    pub scan: Platt,
    pub slice: Platt,
}

impl NetworkMaps {
    /// The maps fitted on `train`'s scan labels.
    pub(super) fn fit(train: &[&SiteScan], folds: usize, seed: u64) -> NetworkMaps {
        let labels: Vec<u8> = train.iter().map(|s| s.label).collect();
        let slices: Vec<&[f64]> = train
            .iter()
            .map(|s| s.out.slice_probability.as_slice())
            .collect();
        NetworkMaps {
            scan: cnn_platt(train, folds, seed),
            slice: gphead::calibrate::fit_instance_map(
                &labels,
                &slices,
                slice_correlation(train),
                SLICE_MAP_RIDGE,
            )
            .unwrap_or(Platt::IDENTITY),
        }
    }

    pub(super) fn scan(&self, s: &SiteScan) -> f64 {
        self.scan.apply(s.out.probability)
    }

    pub(super) fn slices(&self, s: &SiteScan) -> Vec<f64> {
        s.out
            .slice_probability
            .iter()
            .map(|&p| self.slice.apply(p))
            .collect()
    }
}

/// Bootstrap pairs of site maps a network bundle keeps ([`crate::bundle::NetworkSite::map_draws`]).
pub const MAP_DRAWS: usize = 32;

impl NetworkMaps {
    /// The maps fitted again on `n` bootstrap resamples of `train`'s patients (drawn with
    /// replacement, all of a patient's scans together; seeded): how much the maps themselves
    /// move with the site's sample. A resample with fewer than two scans of either label is
    /// drawn again (at most `8 n` draws in all).
    pub fn bootstrap(
        train: &[&SiteScan],
        n: usize,
        folds: usize,
        seed: u64,
    ) -> Vec<crate::bundle::MapPair> {
        use rand::{Rng, SeedableRng};
        let mut patients: Vec<u64> = train.iter().map(|s| s.patient).collect();
        patients.sort_unstable();
        patients.dedup();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x6d61_7073);
        let mut out = Vec::with_capacity(n);
        for _ in 0..8 * n {
            if out.len() == n || patients.is_empty() {
                break;
            }
            let mut sample: Vec<&SiteScan> = Vec::with_capacity(train.len());
            for _ in 0..patients.len() {
                let p = patients[rng.random_range(0..patients.len())];
                sample.extend(train.iter().copied().filter(|s| s.patient == p));
            }
            let pos = sample.iter().filter(|s| s.label == 1).count();
            if pos < 2 || sample.len() - pos < 2 {
                continue;
            }
            let m = NetworkMaps::fit(&sample, folds, seed ^ out.len() as u64);
            out.push(crate::bundle::MapPair {
                scan: m.scan,
                slice: m.slice,
            });
        }
        out
    }
}

/// How many neighbouring slices see much the same, from the network's one-slice logits along z
/// on `scans` (no labels: [`gphead::calibrate::correlation_length`]); a slice map's noisy-OR
/// runs over stretches that long.
pub fn slice_correlation(scans: &[&SiteScan]) -> f64 {
    let logits: Vec<&[f64]> = scans.iter().map(|s| s.out.slice_logit.as_slice()).collect();
    gphead::calibrate::correlation_length(&logits)
}

/// The pull of a slice map toward the identity ([`gphead::calibrate::fit_instance_map`]): weak,
/// a prior of about one scan's worth of evidence.
pub(super) const SLICE_MAP_RIDGE: f64 = 1.0;

/// A Platt map of the network's scan probabilities, fitted on `train`'s scan labels.
pub(super) fn cnn_platt(train: &[&SiteScan], folds: usize, seed: u64) -> Platt {
    let labels: Vec<u8> = train.iter().map(|s| s.label).collect();
    let draws: Vec<Vec<f64>> = train
        .iter()
        .map(|s| vec![s.out.probability.clamp(1e-9, 1.0 - 1e-9)])
        .collect();
    let patients: Vec<u64> = train.iter().map(|s| s.patient).collect();
    Platt::fit_shrunk_grouped(MapFamily::Platt, &labels, &draws, &patients, folds, seed).map
}
