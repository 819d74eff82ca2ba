//! Does "unsure" earn its place? On a site's cross-fitted predictions (each scan predicted by a
//! head fitted without it), the error rate of the calls the model is unsure of beside those it is
//! sure of, and a risk–coverage curve: as a growing share of the cases is set aside as unsure,
//! the error rate and the AUC of those kept, the cases set aside first by the model's own
//! uncertainty (the threshold's distance from the probability in the model's sds,
//! `|p − t| / sd`: below 1.645 the 90 % interval of a normal reaches across the threshold) and,
//! for comparison, by the distance alone (`|p − t|`, what any probability allows).
//!
//! The "unsure" call itself is the report's ([`crate::report::Thresholds::uncertain`]).

use milbase::auc::roc_auc;
use serde::{Deserialize, Serialize};

use crate::report::Thresholds;

/// One case: its label and [probability, sd, lo, hi].
pub type Case = (u8, [f64; 4]);

/// The error rate and AUC of the cases kept.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Risk {
    /// Called at the threshold (positive when `p ≥ t`) against the label.
    pub error: f64,
    /// `None` where the cases kept hold one label only.
    pub auc: Option<f64>,
}

/// One point of the risk–coverage curve: `share` of the cases set aside.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RiskPoint {
    pub share: f64,
    pub kept: usize,
    /// Set aside by the model's own uncertainty (`|p − t| / sd`, smallest first).
    pub model: Risk,
    /// Set aside by the distance from the threshold alone (`|p − t|`, smallest first).
    pub distance: Risk,
}

/// The evidence on one kind of case (scans, or labelled slices).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnsureEvidence {
    pub cases: usize,
    pub positive: usize,
    /// Cases called unsure, and the error rate of their probabilities called at the threshold
    /// (what a reader would get by ignoring the call).
    pub unsure: usize,
    pub unsure_error: Option<f64>,
    /// The other cases (likely bleed or unlikely) and their error rate.
    pub sure: usize,
    pub sure_error: Option<f64>,
    /// AUC over every case, and over the sure ones.
    pub auc: Option<f64>,
    pub sure_auc: Option<f64>,
    pub curve: Vec<RiskPoint>,
}

/// The shares of the curve: none set aside, then a tenth more at a time up to half.
pub const SHARES: [f64; 6] = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5];

fn risk(cases: &[(u8, [f64; 4])], t: f64) -> Risk {
    let labels: Vec<u8> = cases.iter().map(|c| c.0).collect();
    let p: Vec<f64> = cases.iter().map(|c| c.1[0]).collect();
    let wrong = cases.iter().filter(|c| (c.1[0] >= t) != (c.0 == 1)).count();
    Risk {
        error: wrong as f64 / cases.len().max(1) as f64,
        auc: roc_auc(&labels, &p),
    }
}

/// The evidence on `cases` (label, [probability, sd, lo, hi]) at `thr`.
pub fn evidence(cases: &[(u8, [f64; 4])], thr: &Thresholds) -> UnsureEvidence {
    let t = thr.positive;
    let (unsure, sure): (Vec<Case>, Vec<Case>) = cases
        .iter()
        .copied()
        .partition(|c| thr.uncertain(c.1[1], c.1[2], c.1[3]));
    let error = |c: &[(u8, [f64; 4])]| (!c.is_empty()).then(|| risk(c, t).error);
    let all = risk(cases, t);
    // most unsure first; ties (and sd 0, which is never unsure by its spread) by the distance
    let dist = |c: &(u8, [f64; 4])| (c.1[0] - t).abs();
    let z = |c: &(u8, [f64; 4])| {
        if c.1[1] > 0.0 {
            dist(c) / c.1[1]
        } else {
            f64::INFINITY
        }
    };
    let mut by_model: Vec<&(u8, [f64; 4])> = cases.iter().collect();
    by_model.sort_by(|a, b| z(a).total_cmp(&z(b)).then(dist(a).total_cmp(&dist(b))));
    let mut by_distance: Vec<&(u8, [f64; 4])> = cases.iter().collect();
    by_distance.sort_by(|a, b| dist(a).total_cmp(&dist(b)));
    let n = cases.len();
    let curve = SHARES
        .iter()
        .filter_map(|&share| {
            let aside = (share * n as f64).round() as usize;
            (aside < n).then(|| {
                let kept = |order: &[&(u8, [f64; 4])]| -> Vec<(u8, [f64; 4])> {
                    order[aside..].iter().map(|&&c| c).collect()
                };
                RiskPoint {
                    share,
                    kept: n - aside,
                    model: risk(&kept(&by_model), t),
                    distance: risk(&kept(&by_distance), t),
                }
            })
        })
        .collect();
    UnsureEvidence {
        cases: n,
        positive: cases.iter().filter(|c| c.0 == 1).count(),
        unsure: unsure.len(),
        unsure_error: error(&unsure),
        sure: sure.len(),
        sure_error: error(&sure),
        auc: all.auc,
        sure_auc: {
            let labels: Vec<u8> = sure.iter().map(|c| c.0).collect();
            let p: Vec<f64> = sure.iter().map(|c| c.1[0]).collect();
            roc_auc(&labels, &p)
        },
        curve,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const THR: Thresholds = Thresholds {
        positive: 0.5,
        uncertain_sd: 0.1,
    };

    #[test]
    fn unsure_calls_and_the_curve_by_hand() {
        let case = |l: u8, p: f64, sd: f64| (l, [p, sd, p - 1.645 * sd, p + 1.645 * sd]);
        let cases = vec![
            case(1, 0.9, 0.02),  // sure, right (z 20)
            case(0, 0.1, 0.02),  // sure, right (z 20)
            case(0, 0.55, 0.2),  // unsure by sd and interval, wrong (z 0.25)
            case(1, 0.45, 0.01), // sure (interval 0.434–0.466), wrong (z 5)
            case(1, 0.6, 0.08),  // unsure: interval 0.468–0.732 crosses, right (z 1.25)
        ];
        let e = evidence(&cases, &THR);
        assert_eq!((e.cases, e.positive, e.unsure, e.sure), (5, 3, 2, 3));
        assert_eq!(e.unsure_error, Some(0.5));
        assert_eq!(e.sure_error, Some(1.0 / 3.0));
        // every case: positives 0.9, 0.45, 0.6 against negatives 0.1, 0.55: 5 of 6 pairs
        assert_eq!(e.auc, Some(5.0 / 6.0));
        // the sure: 0.9, 0.45 against 0.1: 2 of 2
        assert_eq!(e.sure_auc, Some(1.0));
        // 5 cases: 0, 0.5, 1, 1.5, 2 and 2.5 set aside, rounded half away from zero
        let aside: Vec<usize> = e.curve.iter().map(|p| 5 - p.kept).collect();
        assert_eq!(aside, vec![0, 1, 1, 2, 2, 3]);
        // none aside: 2 wrong of 5
        assert_eq!(e.curve[0].model.error, 0.4);
        assert_eq!(e.curve[0].distance.error, 0.4);
        // one aside: the model sets aside 0.55 (z 0.25): 1 wrong (0.45) of 4; the distance sets
        // aside 0.45 (0.04999… from 0.5 in binary, 0.55 is 0.05000…04): 1 wrong (0.55) of 4
        assert_eq!(e.curve[1].model.error, 0.25);
        assert_eq!(e.curve[1].distance.error, 0.25);
        // two aside: model 0.55 and 0.6 (z 1.25) → 0.9, 0.1, 0.45 kept, 1 wrong of 3; distance
        // 0.55 and 0.45 → 0.9, 0.1, 0.6 kept, none wrong
        assert_eq!(e.curve[3].model.error, 1.0 / 3.0);
        assert_eq!(e.curve[3].distance.error, 0.0);
        assert_eq!(e.curve[3].distance.auc, Some(1.0));
        // three aside: model keeps 0.9, 0.1 (z 20): no error, AUC 1
        assert_eq!(
            e.curve[5].model,
            Risk {
                error: 0.0,
                auc: Some(1.0)
            }
        );
    }
}
