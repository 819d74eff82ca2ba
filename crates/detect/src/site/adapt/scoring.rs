//! How a candidate is scored on held-out scans: figures (ECE, AUC, accuracy, the unsure call's
//! share), the paired comparison with the network over patients, and the AUCs of pairs.

use super::*;

pub(super) fn figures(
    scan: (&[u8], &[f64]),
    slice: (&[u8], &[f64]),
    unc: Option<(usize, usize)>,
) -> Figures {
    Figures {
        scans: scan.0.len(),
        scan: Metrics::compute(scan.0, scan.1),
        slice: (!slice.0.is_empty()).then(|| Metrics::compute(slice.0, slice.1)),
        slices: slice.0.len(),
        scan_reliability: reliability(scan.0, scan.1, 10),
        slice_reliability: reliability(slice.0, slice.1, 10),
        uncertain_scans: unc.map(|u| u.0),
        uncertain_slices: unc.map(|u| u.1),
    }
}

/// Which of a prediction's probabilities.
#[derive(Clone, Copy)]
pub(super) enum Who {
    Head,
    Cnn,
    CnnPlatt,
}

/// The thresholds of the site's figures: `ich predict`'s defaults (0.5, sd 0.1).
pub(super) const THRESHOLDS: crate::report::Thresholds = crate::report::Thresholds {
    positive: 0.5,
    uncertain_sd: 0.1,
};

pub(super) fn uncertain(p: &[f64; 4]) -> bool {
    THRESHOLDS.uncertain(p[1], p[2], p[3])
}

pub(super) fn score(preds: &[ScanPred], who: Who) -> Figures {
    let sl: Vec<u8> = preds.iter().map(|p| p.label).collect();
    let (mut ll, mut lp) = (Vec::new(), Vec::new());
    let sp: Vec<f64> = preds
        .iter()
        .map(|p| {
            let (scan, slices): (f64, Vec<f64>) = match who {
                Who::Head => (p.p[0], p.slices.iter().map(|s| s[0]).collect()),
                Who::Cnn => (p.cnn, p.cnn_slices.clone()),
                Who::CnnPlatt => (p.cnn_platt, p.cnn_platt_slices.clone()),
            };
            for (l, q) in p.slice_labels.iter().zip(slices) {
                if let Some(l) = l {
                    ll.push(*l);
                    lp.push(q);
                }
            }
            scan
        })
        .collect();
    let unc = matches!(who, Who::Head).then(|| {
        (
            preds.iter().filter(|p| uncertain(&p.p)).count(),
            preds
                .iter()
                .flat_map(|p| &p.slices)
                .filter(|s| uncertain(s))
                .count(),
        )
    });
    figures((&sl, &sp), (&ll, &lp), unc)
}

/// A candidate's cross-fitted scan and slice AUC minus the network's on the same scans, each
/// with the standard error of the paired difference (bootstrap over patients, 200 draws);
/// `None` where it cannot be told (one label only, no labelled slices).
pub(super) fn ranking_against_network(
    scans: &[&SiteScan],
    scan_p: &[f64],
    slice_p: &[Vec<f64>],
    seed: u64,
) -> (Option<[f64; 2]>, Option<[f64; 2]>) {
    let scan_items: Vec<Paired> = scans
        .iter()
        .zip(scan_p)
        .map(|(s, &p)| (s.patient, 0, s.label, p, s.out.probability))
        .collect();
    let mut slice_items = Vec::new();
    for (s, q) in scans.iter().zip(slice_p) {
        for ((l, &p), &n) in s.slice_labels.iter().zip(q).zip(&s.out.slice_probability) {
            if let Some(l) = l {
                slice_items.push((s.patient, 0, *l, p, n));
            }
        }
    }
    let se = |items: &[Paired]| paired_auc(items, false, 200, seed).map(|d| [d.0, d.1]);
    (se(&scan_items), se(&slice_items))
}

/// (patient, outer fold, label, a score, another score of the same item).
pub(super) type Paired = (u64, usize, u8, f64, f64);

/// The AUC of the first scores (`second`: the second) over `items`: pooled, or `within` folds
/// (only a positive and a negative of the same outer fold make a pair, so that scores of
/// different folds' maps are never compared); ties count a half.
pub(super) fn auc_of(items: &[&Paired], second: bool, within: bool) -> Option<f64> {
    let score = |t: &Paired| if second { t.4 } else { t.3 };
    if !within {
        let y: Vec<u8> = items.iter().map(|t| t.2).collect();
        let v: Vec<f64> = items.iter().map(|t| score(t)).collect();
        return gphead::metrics::roc_auc(&y, &v);
    }
    let mut folds: std::collections::BTreeMap<usize, (Vec<f64>, Vec<f64>)> = Default::default();
    for t in items {
        let e = folds.entry(t.1).or_default();
        if t.2 == 1 {
            e.0.push(score(t))
        } else {
            e.1.push(score(t))
        }
    }
    let (mut won, mut pairs) = (0.0, 0.0);
    for (pos, mut neg) in folds.into_values() {
        neg.sort_by(f64::total_cmp);
        for p in pos {
            let below = neg.partition_point(|&n| n < p);
            let not_above = neg.partition_point(|&n| n <= p);
            won += below as f64 + 0.5 * (not_above - below) as f64;
            pairs += neg.len() as f64;
        }
    }
    (pairs > 0.0).then(|| won / pairs)
}

/// AUC of the first scores minus AUC of the second over `items` (pooled, or `within` folds:
/// [`auc_of`]), with the standard error and the 95 % interval of that difference from `draws`
/// bootstrap resamples of the patients (each drawn patient brings all its items); seeded.
/// `None` without both labels or without 10 resamples that have them.
pub(super) fn paired_auc(
    items: &[Paired],
    within: bool,
    draws: usize,
    seed: u64,
) -> Option<(f64, f64, [f64; 2])> {
    use rand::{Rng, SeedableRng};
    let diff = |it: &[&Paired]| -> Option<f64> {
        Some(auc_of(it, false, within)? - auc_of(it, true, within)?)
    };
    let all: Vec<&Paired> = items.iter().collect();
    let d = diff(&all)?;
    let mut by: std::collections::BTreeMap<u64, Vec<&Paired>> = Default::default();
    for t in items {
        by.entry(t.0).or_default().push(t);
    }
    let groups: Vec<Vec<&Paired>> = by.into_values().collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x5eed_b007);
    let mut ds = Vec::with_capacity(draws);
    let mut it = Vec::with_capacity(items.len());
    for _ in 0..draws {
        it.clear();
        for _ in 0..groups.len() {
            it.extend(groups[rng.random_range(0..groups.len())].iter().copied());
        }
        if let Some(x) = diff(&it) {
            ds.push(x);
        }
    }
    if ds.len() < 10 {
        return None;
    }
    let n = ds.len() as f64;
    let mean = ds.iter().sum::<f64>() / n;
    let se = (ds.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    ds.sort_by(f64::total_cmp);
    let q = |f: f64| ds[((n - 1.0) * f).round() as usize];
    Some((d, se, [q(0.025), q(0.975)]))
}

/// The pooled test predictions' scan and slice AUC minus the network's own, paired over patients
/// (1,000 bootstrap draws); then the same within folds, where each fold's maps compare only
/// the scans they mapped (the pooled figure also counts how far the folds' maps disagree).
pub(super) fn comparison(scans: &[SiteScan], preds: &[ScanPred], seed: u64) -> Vec<Difference> {
    let patient: std::collections::HashMap<&str, u64> =
        scans.iter().map(|s| (s.id.as_str(), s.patient)).collect();
    let pt = |p: &ScanPred| patient.get(p.id.as_str()).copied().unwrap_or(fnv1a(&p.id));
    let scan_items: Vec<Paired> = preds
        .iter()
        .map(|p| (pt(p), p.fold, p.label, p.p[0], p.cnn))
        .collect();
    let mut slice_items = Vec::new();
    for p in preds {
        for ((l, q), &n) in p.slice_labels.iter().zip(&p.slices).zip(&p.cnn_slices) {
            if let Some(l) = l {
                slice_items.push((pt(p), p.fold, *l, q[0], n));
            }
        }
    }
    let mut out = Vec::new();
    for within in [false, true] {
        for (what, items) in [("scan AUC", &scan_items), ("slice AUC", &slice_items)] {
            let refs: Vec<&Paired> = items.iter().collect();
            let (Some((d, se, interval)), Some(shipped), Some(network)) = (
                paired_auc(items, within, 1000, seed),
                auc_of(&refs, false, within),
                auc_of(&refs, true, within),
            ) else {
                continue;
            };
            out.push(Difference {
                what: if within {
                    format!("{what} within folds")
                } else {
                    what.to_string()
                },
                shipped,
                network,
                difference: d,
                se,
                interval,
            });
        }
    }
    out
}
