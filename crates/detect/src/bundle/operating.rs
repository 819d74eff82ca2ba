//! The site's operating point (`ich adapt --sensitivity S`): the threshold on the scan
//! probability that catches at least S of the site's bleeds, chosen on `ich adapt`'s cross-fitted
//! predictions, and what to expect at it, measured on patients not used to choose it.
//!
//! - The threshold the bundle ships is chosen on every cross-fitted prediction: the largest `t`
//!   with at least `ceil(S · positives)` positive scans at `p ≥ t`.
//! - What to expect is measured honestly: for each fold, a threshold chosen the same way on the
//!   other folds' predictions calls that fold's scans (folds are grouped by patient, so no
//!   patient helps choose the threshold that calls it). The pooled calls give the expected
//!   sensitivity and specificity, each with a 95 % interval from 2000 bootstrap resamples of the
//!   patients (seeded).

use serde::{Deserialize, Serialize};

/// A figure with its 95 % bootstrap interval over patients.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The operating point a site chose, as the bundle keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperatingPoint {
    /// The sensitivity asked for (`--sensitivity`).
    pub target_sensitivity: f64,
    /// The scan probability at or above which a scan is called likely bleed.
    pub threshold: f64,
    /// Sensitivity and specificity of held-out calls (each fold's scans at a threshold chosen
    /// without them).
    pub sensitivity: Estimate,
    pub specificity: Estimate,
    pub scans: usize,
    pub positives: usize,
    pub patients: usize,
}

impl OperatingPoint {
    /// In a sentence, as reports state it.
    pub fn text(&self) -> String {
        format!(
            "threshold {:.3}, chosen by ich adapt for a sensitivity of at least {:.2} on {} scans ({} with a bleed, {} patients); on patients not used to choose it: sensitivity {:.2} (95 % {:.2}–{:.2}), specificity {:.2} (95 % {:.2}–{:.2})",
            self.threshold,
            self.target_sensitivity,
            self.scans,
            self.positives,
            self.patients,
            self.sensitivity.value,
            self.sensitivity.lo,
            self.sensitivity.hi,
            self.specificity.value,
            self.specificity.lo,
            self.specificity.hi
        )
    }
}

/// One cross-fitted scan prediction.
#[derive(Debug, Clone, Copy)]
pub struct Held {
    pub p: f64,
    pub label: u8,
    pub fold: usize,
    pub patient: u64,
}

/// The largest threshold that calls at least `ceil(target · positives)` of `items`' positive
/// scans positive (`p ≥ t`); `None` without a positive.
pub fn threshold_for(items: &[Held], target: f64) -> Option<f64> {
    let mut pos: Vec<f64> = items.iter().filter(|h| h.label == 1).map(|h| h.p).collect();
    if pos.is_empty() {
        return None;
    }
    pos.sort_by(|a, b| b.total_cmp(a));
    let k = ((target * pos.len() as f64) - 1e-9).ceil().max(1.0) as usize;
    Some(pos[k.min(pos.len()) - 1])
}

/// Sensitivity and specificity of `calls` (true: positive) against `labels`; `NaN` where a
/// class is empty.
fn rates(calls: &[(bool, u8)]) -> (f64, f64) {
    let (mut tp, mut p, mut tn, mut n) = (0usize, 0usize, 0usize, 0usize);
    for &(c, l) in calls {
        if l == 1 {
            p += 1;
            tp += usize::from(c);
        } else {
            n += 1;
            tn += usize::from(!c);
        }
    }
    (tp as f64 / p as f64, tn as f64 / n as f64)
}

/// Bootstrap resamples over patients.
const RESAMPLES: usize = 2000;

/// The operating point for `target` on cross-fitted predictions (`None` without a positive
/// and a negative scan).
pub fn choose(items: &[Held], target: f64, seed: u64) -> Option<OperatingPoint> {
    use rand::{Rng, SeedableRng};
    let positives = items.iter().filter(|h| h.label == 1).count();
    if positives == 0 || positives == items.len() {
        return None;
    }
    let threshold = threshold_for(items, target)?;
    // held-out calls: each fold's scans at the threshold chosen on the other folds
    let mut folds: Vec<usize> = items.iter().map(|h| h.fold).collect();
    folds.sort_unstable();
    folds.dedup();
    let mut calls: Vec<(bool, u8, u64)> = Vec::with_capacity(items.len());
    for &f in &folds {
        let others: Vec<Held> = items.iter().copied().filter(|h| h.fold != f).collect();
        let t = threshold_for(&others, target).unwrap_or(threshold);
        calls.extend(
            items
                .iter()
                .filter(|h| h.fold == f)
                .map(|h| (h.p >= t, h.label, h.patient)),
        );
    }
    let plain: Vec<(bool, u8)> = calls.iter().map(|c| (c.0, c.1)).collect();
    let (sens, spec) = rates(&plain);
    let mut patients: Vec<u64> = calls.iter().map(|c| c.2).collect();
    patients.sort_unstable();
    patients.dedup();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x6f70_7074);
    let (mut ss, mut sp) = (Vec::with_capacity(RESAMPLES), Vec::with_capacity(RESAMPLES));
    for _ in 0..RESAMPLES {
        let mut sample = Vec::with_capacity(calls.len());
        for _ in 0..patients.len() {
            let who = patients[rng.random_range(0..patients.len())];
            sample.extend(calls.iter().filter(|c| c.2 == who).map(|c| (c.0, c.1)));
        }
        let (a, b) = rates(&sample);
        if a.is_finite() {
            ss.push(a);
        }
        if b.is_finite() {
            sp.push(b);
        }
    }
    let est = |value: f64, mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let q = |x: f64| gphead::predict::quantile(&v, x);
        Estimate {
            value,
            lo: q(0.025),
            hi: q(0.975),
        }
    };
    Some(OperatingPoint {
        target_sensitivity: target,
        threshold,
        sensitivity: est(sens, ss),
        specificity: est(spec, sp),
        scans: items.len(),
        positives,
        patients: patients.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(p: f64, label: u8, fold: usize, patient: u64) -> Held {
        Held {
            p,
            label,
            fold,
            patient,
        }
    }

    /// Worked by hand: positives at 0.9, 0.8, 0.7, 0.6, 0.2; at 0.8 sensitivity 4 of 5 must be
    /// caught, so the threshold is the 4th largest positive, 0.6; at 1.0 it is 0.2; at 0.5,
    /// ceil(2.5) = 3: 0.7.
    #[test]
    fn the_threshold_catches_the_share_of_positives_asked_for() {
        let items: Vec<Held> = [0.9, 0.8, 0.7, 0.6, 0.2]
            .iter()
            .map(|&p| held(p, 1, 0, 0))
            .chain([0.65, 0.1].iter().map(|&p| held(p, 0, 0, 1)))
            .collect();
        assert_eq!(threshold_for(&items, 0.8), Some(0.6));
        assert_eq!(threshold_for(&items, 1.0), Some(0.2));
        assert_eq!(threshold_for(&items, 0.5), Some(0.7));
        assert_eq!(threshold_for(&items[5..], 0.9), None);
    }

    /// Two folds, worked by hand. Fold 0: positives 0.9, 0.4; negatives 0.3, 0.1. Fold 1:
    /// positives 0.8, 0.5; negatives 0.6, 0.2. At sensitivity 1.0 the threshold on all is 0.4;
    /// fold 0 is called at fold 1's threshold 0.5 (catches 0.9, misses 0.4; both negatives
    /// right), fold 1 at fold 0's 0.4 (catches both; 0.6 is a false positive). Held out:
    /// sensitivity 3/4, specificity 3/4 — not the 1.0 the threshold was chosen for on the same
    /// scans.
    #[test]
    fn held_out_figures_come_from_thresholds_chosen_without_the_scans_they_call() {
        let items = vec![
            held(0.9, 1, 0, 1),
            held(0.4, 1, 0, 2),
            held(0.3, 0, 0, 3),
            held(0.1, 0, 0, 4),
            held(0.8, 1, 1, 5),
            held(0.5, 1, 1, 6),
            held(0.6, 0, 1, 7),
            held(0.2, 0, 1, 8),
        ];
        let op = choose(&items, 1.0, 3).unwrap();
        assert_eq!(op.threshold, 0.4);
        assert_eq!(op.sensitivity.value, 0.75);
        assert_eq!(op.specificity.value, 0.75);
        assert!(op.sensitivity.lo <= 0.75 && 0.75 <= op.sensitivity.hi);
        assert!(op.sensitivity.lo < op.sensitivity.hi, "{op:?}");
        assert_eq!((op.scans, op.positives, op.patients), (8, 4, 8));
        assert_eq!(choose(&items, 1.0, 3).unwrap(), op, "seeded");
        assert!(choose(&items[..2], 0.9, 3).is_none(), "no negative");
        assert!(op.text().contains("sensitivity 0.75"));
    }
}
