//! Metrics at instance and bag level: ROC AUC (ties count one half), accuracy and F1 at 0.5,
//! mean log-likelihood, average precision, expected calibration error.

use serde::{Deserialize, Serialize};

/// ROC AUC (Mann–Whitney, ties count one half), written once in `milbase`.
pub use milbase::roc_auc;

/// Average precision: Σ_k (R_k − R_{k−1}) P_k over distinct thresholds, highest first.
pub fn average_precision(labels: &[u8], scores: &[f64]) -> Option<f64> {
    let pos = labels.iter().filter(|&&l| l == 1).count();
    if pos == 0 {
        return None;
    }
    let mut idx: Vec<usize> = (0..labels.len()).collect();
    idx.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let (mut tp, mut fp, mut ap, mut prev_recall) = (0usize, 0usize, 0.0, 0.0);
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j < idx.len() && scores[idx[j]] == scores[idx[i]] {
            if labels[idx[j]] == 1 {
                tp += 1;
            } else {
                fp += 1;
            }
            j += 1;
        }
        let recall = tp as f64 / pos as f64;
        let precision = tp as f64 / (tp + fp) as f64;
        ap += (recall - prev_recall) * precision;
        prev_recall = recall;
        i = j;
    }
    Some(ap)
}

/// Mean log-likelihood `mean(h log p + (1−h) log(1−p))`, p clipped to [1e-12, 1 − 1e-12].
pub fn log_likelihood(labels: &[u8], p: &[f64]) -> f64 {
    let s: f64 = labels
        .iter()
        .zip(p)
        .map(|(&h, &p)| {
            let p = p.clamp(1e-12, 1.0 - 1e-12);
            if h == 1 {
                p.ln()
            } else {
                (1.0 - p).ln()
            }
        })
        .sum();
    s / labels.len().max(1) as f64
}

/// Accuracy at threshold 0.5.
pub fn accuracy(labels: &[u8], p: &[f64]) -> f64 {
    let ok = labels
        .iter()
        .zip(p)
        .filter(|(&h, &p)| (p >= 0.5) == (h == 1))
        .count();
    ok as f64 / labels.len().max(1) as f64
}

/// F1 of the positive class at threshold 0.5 (0 when nothing is predicted or present).
pub fn f1(labels: &[u8], p: &[f64]) -> f64 {
    let (mut tp, mut fp, mut fnn) = (0.0, 0.0, 0.0);
    for (&h, &p) in labels.iter().zip(p) {
        match (p >= 0.5, h == 1) {
            (true, true) => tp += 1.0,
            (true, false) => fp += 1.0,
            (false, true) => fnn += 1.0,
            _ => {}
        }
    }
    if tp == 0.0 {
        0.0
    } else {
        2.0 * tp / (2.0 * tp + fp + fnn)
    }
}

/// Expected calibration error over `bins` equal-width bins.
pub fn ece(labels: &[u8], p: &[f64], bins: usize) -> f64 {
    let mut cnt = vec![0.0; bins];
    let mut conf = vec![0.0; bins];
    let mut acc = vec![0.0; bins];
    for (&h, &p) in labels.iter().zip(p) {
        let b = ((p * bins as f64) as usize).min(bins - 1);
        cnt[b] += 1.0;
        conf[b] += p;
        acc[b] += h as f64;
    }
    let n = labels.len().max(1) as f64;
    (0..bins)
        .filter(|&b| cnt[b] > 0.0)
        .map(|b| (cnt[b] / n) * (acc[b] / cnt[b] - conf[b] / cnt[b]).abs())
        .sum()
}

/// The ECE a perfectly calibrated predictor would show on this many items with these
/// probabilities: the mean of [`ece`] over `draws` label sets drawn as `h ~ Bernoulli(p)` (seeded).
/// An observed ECE at or below it is within the noise of the set's size, so it is the yardstick
/// for an ECE target (75 RSNA test scans: ≈ 0.08, docs/BENCHMARKS.md).
pub fn ece_floor(p: &[f64], bins: usize, draws: usize, seed: u64) -> f64 {
    ece_consistency(&[], p, bins, draws, seed).floor
}

/// [`ece_floor`] and a test of calibration from the same label draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EceConsistency {
    /// The mean ECE of a perfectly calibrated predictor ([`ece_floor`]).
    pub floor: f64,
    /// The Monte Carlo p-value of the observed ECE under "these probabilities are calibrated":
    /// `(1 + #{draws with ECE ≥ observed}) / (draws + 1)` (consistency resampling, Bröcker and
    /// Smith 2007). Small: the set shows miscalibration beyond its noise; large: an ECE above a
    /// target may be the set's size alone. `None` when `labels` is empty.
    pub p_value: Option<f64>,
}

/// [`EceConsistency`] of `labels` and `p` from `draws` seeded label sets `h ~ Bernoulli(p)`.
pub fn ece_consistency(
    labels: &[u8],
    p: &[f64],
    bins: usize,
    draws: usize,
    seed: u64,
) -> EceConsistency {
    use rand::{Rng, SeedableRng};
    let observed = (!labels.is_empty()).then(|| ece(labels, p, bins));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut drawn = vec![0u8; p.len()];
    let (mut total, mut at_least) = (0.0, 0usize);
    let draws = draws.max(1);
    for _ in 0..draws {
        for (h, &q) in drawn.iter_mut().zip(p) {
            *h = u8::from(rng.random::<f64>() < q);
        }
        let e = ece(&drawn, p, bins);
        total += e;
        if observed.is_some_and(|o| e >= o) {
            at_least += 1;
        }
    }
    EceConsistency {
        floor: total / draws as f64,
        p_value: observed.map(|_| (1 + at_least) as f64 / (draws + 1) as f64),
    }
}

/// All metrics of one set of predictions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub auc: Option<f64>,
    pub accuracy: f64,
    pub f1: f64,
    pub log_likelihood: f64,
    pub average_precision: Option<f64>,
    pub ece: f64,
    /// [`ece_floor`] of the same probabilities (200 label draws).
    #[serde(default)]
    pub ece_floor: f64,
    /// [`EceConsistency::p_value`] of the ECE, from the floor's draws (`None` in files written
    /// before it was added).
    #[serde(default)]
    pub ece_p_value: Option<f64>,
}

impl Metrics {
    pub fn compute(labels: &[u8], p: &[f64]) -> Self {
        let consistency = ece_consistency(labels, p, 10, 200, 0);
        Self {
            auc: roc_auc(labels, p),
            accuracy: accuracy(labels, p),
            f1: f1(labels, p),
            log_likelihood: log_likelihood(labels, p),
            average_precision: average_precision(labels, p),
            ece: ece(labels, p, 10),
            ece_floor: consistency.floor,
            ece_p_value: consistency.p_value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ece_floor_is_the_noise_of_a_calibrated_predictor() {
        // certain probabilities: every draw agrees with them
        assert_eq!(ece_floor(&[0.0, 1.0, 1.0, 0.0], 10, 50, 1), 0.0);
        // p = 0.5 for n items: one bin, ECE = |mean(h) − 0.5| with mean(h) ≈ N(0.5, 0.25/n), so
        // its expectation is 0.5 · sqrt(2 / (π n)) (half-normal mean): 0.019947 for n = 400
        let f = ece_floor(&vec![0.5; 400], 10, 4000, 7);
        let expected = 0.5 * (2.0 / (std::f64::consts::PI * 400.0)).sqrt();
        assert!((f - expected).abs() < 0.03 * expected, "{f} vs {expected}");
        // the same seed gives the same number
        assert_eq!(f, ece_floor(&vec![0.5; 400], 10, 4000, 7));
    }

    #[test]
    fn ece_p_value_is_the_binomial_tail() {
        // p = 0.5 for 400 items, 220 of them positive: ECE = |220/400 − 0.5| = 0.05, and under
        // calibration ECE ≥ 0.05 iff |K − 200| ≥ 20 with K ~ Bin(400, ½): the exact p-value is
        // 2 Σ_{k ≥ 220} C(400, k) / 2^400 (summed here in logs; Python's math.comb
        // gives 0.051040)
        let ln_choose = |n: u32, k: u32| -> f64 {
            (1..=k)
                .map(|i| f64::from(n - k + i).ln() - f64::from(i).ln())
                .sum()
        };
        let exact: f64 = 2.0
            * (220..=400)
                .map(|k| (ln_choose(400, k) - 400.0 * std::f64::consts::LN_2).exp())
                .sum::<f64>();
        assert!((exact - 0.051040).abs() < 1e-5, "{exact}");
        let labels: Vec<u8> = (0..400).map(|i| u8::from(i < 220)).collect();
        let p = vec![0.5; 400];
        assert!((ece(&labels, &p, 10) - 0.05).abs() < 1e-12);
        let c = ece_consistency(&labels, &p, 10, 4000, 3);
        let got = c.p_value.unwrap();
        // Monte Carlo sd ≈ sqrt(0.05 · 0.95 / 4000) = 0.0034
        assert!((got - exact).abs() < 0.012, "{got} vs {exact}");
        // the floor comes from the same draws
        assert_eq!(c.floor, ece_floor(&p, 10, 4000, 3));
        // calibrated labels: a large p-value; every label against its probability: the smallest
        let fair: Vec<u8> = (0..400).map(|i| u8::from(i % 2 == 0)).collect();
        assert_eq!(ece(&fair, &p, 10), 0.0);
        assert_eq!(ece_consistency(&fair, &p, 10, 100, 1).p_value, Some(1.0));
        let sure = vec![0.9; 50];
        let c = ece_consistency(&[0; 50], &sure, 10, 100, 1);
        assert_eq!(c.p_value, Some(1.0 / 101.0));
        // no labels: no p-value
        assert_eq!(ece_consistency(&[], &sure, 10, 10, 1).p_value, None);
    }

    #[test]
    fn auc_with_ties_by_hand() {
        // pairs (pos, neg): scores pos {0.8, 0.5}, neg {0.5, 0.2}
        // 0.8>0.5 ✓, 0.8>0.2 ✓, 0.5=0.5 ½, 0.5>0.2 ✓ → 3.5/4
        assert_eq!(roc_auc(&[1, 1, 0, 0], &[0.8, 0.5, 0.5, 0.2]), Some(0.875));
        assert_eq!(roc_auc(&[1, 0], &[0.3, 0.3]), Some(0.5));
        assert_eq!(roc_auc(&[1, 0, 1], &[0.1, 0.9, 0.2]), Some(0.0));
        assert_eq!(roc_auc(&[1, 1], &[0.1, 0.9]), None);
    }

    #[test]
    fn average_precision_by_hand() {
        // ranking: 0.9 (pos) 0.8 (neg) 0.7 (pos): AP = ½·1 + ½·(2/3) = 5/6
        let ap = average_precision(&[1, 0, 1], &[0.9, 0.8, 0.7]).unwrap();
        assert!((ap - 5.0 / 6.0).abs() < 1e-12);
        // a tie of one pos and one neg at the top: precision ½ at recall 1
        assert_eq!(average_precision(&[1, 0], &[0.5, 0.5]), Some(0.5));
    }

    #[test]
    fn threshold_metrics_and_likelihood_by_hand() {
        let l = [1, 0, 1, 0];
        let p = [0.9, 0.6, 0.4, 0.1];
        assert_eq!(accuracy(&l, &p), 0.5);
        assert!((f1(&l, &p) - 0.5).abs() < 1e-12); // tp 1, fp 1, fn 1
        let ll = (0.9f64.ln() + 0.4f64.ln() + 0.4f64.ln() + 0.9f64.ln()) / 4.0;
        assert!((log_likelihood(&l, &p) - ll).abs() < 1e-12);
        // ECE: bins of width .5 with 2 bins: [0.1,0.4] conf .25 acc .5; [0.6,0.9] conf .75 acc .5
        assert!((ece(&l, &p, 2) - 0.25).abs() < 1e-12);
    }
}
