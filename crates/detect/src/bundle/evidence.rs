//! What the GP head sees of a slice (its *evidence*), and the summary of the slices a head was
//! fitted on that tells when a new scan lies outside them (out of distribution).
//!
//! Evidence: the encoder's features (optionally projected by a PCA stored with the head), or what
//! the network itself learned on its own training data — the classifier's Dense-128 layer on the
//! slice alone, the logit of the network's one-slice probability, and the gated attention's score.
//! A head fitted on a few dozen scans of a new site learns far more from one or two such numbers
//! than from 1152 raw convolution features.

use attcnn::inference::ScanOutput;
use gphead::MilData;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The GP head's input per slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Evidence {
    /// The encoder's features (the features file's columns).
    #[default]
    Features,
    /// The classifier's Dense-128 layer on the one-slice bag (128 values).
    Dense,
    /// The logit of the network's one-slice probability (1 value).
    Logit,
    /// That logit and the attention score before the softmax (2 values).
    LogitAttention,
    /// The logit and the slice's relative position in the scan, 0 at its first slice and 1 at
    /// its last (2 values): where in the head a finding lies changes what it means (bone and
    /// air next to the skull base fool networks trained elsewhere).
    LogitPosition,
    /// Logit, attention score and relative position (3 values).
    LogitAttentionPosition,
    /// The slice's logit beside the network's own scan logit (attention-pooled over the whole
    /// scan, the same for every slice of it; 2 values): the head weighs the slice's evidence by
    /// the network's verdict on the scan.
    LogitScan,
    /// Slice logit, scan logit and relative position (3 values).
    LogitScanPosition,
}

impl Evidence {
    pub const ALL: [Evidence; 8] = [
        Evidence::Features,
        Evidence::Dense,
        Evidence::Logit,
        Evidence::LogitAttention,
        Evidence::LogitPosition,
        Evidence::LogitAttentionPosition,
        Evidence::LogitScan,
        Evidence::LogitScanPosition,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Evidence::Features => "features",
            Evidence::Dense => "dense",
            Evidence::Logit => "logit",
            Evidence::LogitAttention => "logit-attention",
            Evidence::LogitPosition => "logit-position",
            Evidence::LogitAttentionPosition => "logit-attention-position",
            Evidence::LogitScan => "logit-scan",
            Evidence::LogitScanPosition => "logit-scan-position",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == s)
    }

    /// Values per slice, for a CNN of `cnn_dim` features.
    pub fn dim(self, cnn_dim: usize) -> usize {
        match self {
            Evidence::Features => cnn_dim,
            Evidence::Dense => 128,
            Evidence::Logit => 1,
            Evidence::LogitAttention | Evidence::LogitPosition | Evidence::LogitScan => 2,
            Evidence::LogitAttentionPosition | Evidence::LogitScanPosition => 3,
        }
    }

    /// The evidence of every slice of a scan, row-major `[slices][dim]`.
    pub fn rows(self, out: &ScanOutput) -> Vec<f64> {
        let n = out.features.len();
        match self {
            Evidence::Features => out
                .features
                .iter()
                .flat_map(|f| f.iter().map(|&v| v as f64))
                .collect(),
            Evidence::Dense => out
                .dense
                .iter()
                .flat_map(|f| f.iter().map(|&v| v as f64))
                .collect(),
            Evidence::Logit => out.slice_logit.clone(),
            Evidence::LogitAttention => (0..n)
                .flat_map(|i| [out.slice_logit[i], out.attention_score[i] as f64])
                .collect(),
            Evidence::LogitPosition => (0..n)
                .flat_map(|i| [out.slice_logit[i], position(i, n)])
                .collect(),
            Evidence::LogitAttentionPosition => (0..n)
                .flat_map(|i| {
                    [
                        out.slice_logit[i],
                        out.attention_score[i] as f64,
                        position(i, n),
                    ]
                })
                .collect(),
            Evidence::LogitScan => (0..n)
                .flat_map(|i| [out.slice_logit[i], out.logit])
                .collect(),
            Evidence::LogitScanPosition => (0..n)
                .flat_map(|i| [out.slice_logit[i], out.logit, position(i, n)])
                .collect(),
        }
    }
}

/// Slice `i` of `n`'s relative position: 0 first, 1 last (0.5 for a single slice).
fn position(i: usize, n: usize) -> f64 {
    if n > 1 {
        i as f64 / (n - 1) as f64
    } else {
        0.5
    }
}

/// A scan's out-of-distribution statistic: the [`OOD_SCAN_LEVEL`] quantile of its slices'
/// scores (nearest rank); `v` not empty. A lesion, a bleed's included, raises the scores of the
/// slices it lies in, a minority of a scan's; another kind of scan (another scanner, body part,
/// contrast, a model trained elsewhere) raises them all. A low quantile sees the second and not
/// the first: three slices in four must lie outside before the scan does.
fn scan_statistic(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    quantile(&mut s, OOD_SCAN_LEVEL)
}

/// The quantile of a scan's slice scores that is compared with the threshold: three slices in
/// four must lie outside before the scan does. Chosen on ct-ich's 41 patients over 30 random
/// 5-fold patient splits (each scan checked against a summary of the other folds): bleeds
/// flagged 1 of 540 at the median (and at 0.4), 0 at 0.3 and 0.25; others 0 of 690 at every
/// level (docs/BENCHMARKS.md); a bundle trained on synthetic scans still flags real head CT.
pub const OOD_SCAN_LEVEL: f64 = 0.25;

/// The `q` quantile of `v` (nearest rank); `v` not empty.
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let at = ((v.len() - 1) as f64 * q).round() as usize;
    v[at.min(v.len() - 1)]
}

/// The scan statistic ([`OOD_SCAN_LEVEL`] quantile of its slice scores) above which a scan is
/// flagged, from the held-out training scans' own statistics: the larger of their
/// [`OOD_SCAN_QUANTILE`] quantile and the 99.9 % quantile of a log-normal fitted to them. A few
/// dozen scans cannot show a 99th percentile by counting (of 33
/// held-out statistics it is the largest, which the site's next scan exceeds one time in 34, and a
/// scan with a bleed, whose lesion raises some slices' scores, more often: 4 of 90 held-out
/// positive ct-ich scans, 2 of 115 negative); the log-normal's tail extrapolates from their
/// spread (1 of 90 and 0 of 115), while another scanner or population, which moves every slice,
/// still lies far beyond.
fn scan_threshold(statistics: &mut [f64]) -> f64 {
    let counted = quantile(statistics, OOD_SCAN_QUANTILE);
    let logs: Vec<f64> = statistics
        .iter()
        .filter(|&&m| m > 0.0 && m.is_finite())
        .map(|m| m.ln())
        .collect();
    if logs.len() < 3 {
        return counted;
    }
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let sd = (logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    counted.max((mean + Z_999 * sd).exp())
}

/// The standard normal's 99.9 % quantile.
const Z_999: f64 = 3.090_232_306_167_813;

/// Components of the out-of-distribution summary (fewer when the features have fewer).
pub const OOD_COMPONENTS: usize = 16;
/// A slice lies outside when its score exceeds this quantile of held-out training slices' scores.
pub const OOD_QUANTILE: f64 = 0.99;
/// A scan is flagged when its statistic ([`OOD_SCAN_LEVEL`]) exceeds this quantile of the same
/// statistic of held-out training scans.
pub const OOD_SCAN_QUANTILE: f64 = 0.99;

/// What the slices a head was fitted on look like in the encoder's feature space: standardised
/// features, their `k` principal directions and the spread along and off them. A slice's score
/// is `(T²/k + Q/Q̄)/2` (Hotelling's T² in the principal subspace, the squared residual off it
/// relative to its training mean), about 1 for a typical training slice; its threshold is the
/// 99th percentile of the scores of training slices scored by a summary fitted without their
/// scan (5-fold by scan). A scan's score is the [`OOD_SCAN_LEVEL`] quantile of its slice scores,
/// which a minority of odd slices (a bleed, the skull base) does not move; it is flagged when
/// that exceeds the 99th percentile of the held-out training scans' own, so that unseen scans of the training distribution pass
/// as often as the quantile says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OodSummary {
    /// The encoder's feature dimension.
    pub d: usize,
    pub mean: Vec<f64>,
    /// Per-feature standard deviation (1 where a feature is constant).
    pub scale: Vec<f64>,
    /// The principal directions of the standardised features, `k × d` row-major.
    pub components: Vec<f64>,
    pub k: usize,
    /// Variance along each direction.
    pub variance: Vec<f64>,
    /// Mean squared residual of a training slice off the subspace.
    pub residual: f64,
    /// Slice score above which a slice lies outside.
    pub threshold: f64,
    /// The scan statistic above which a scan is flagged.
    pub scan_threshold: f64,
    pub slices: usize,
    pub scans: usize,
}

/// A scan's standing against an [`OodSummary`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct OodCheck {
    /// The fraction of its slices that lie outside.
    pub outside_fraction: f64,
    /// Its statistic ([`OOD_SCAN_LEVEL`] quantile of its slice scores) over the scan threshold
    /// (> 1: flagged).
    pub score: f64,
    pub flagged: bool,
}

struct Core {
    mean: Vec<f64>,
    scale: Vec<f64>,
    components: Vec<f64>,
    k: usize,
    variance: Vec<f64>,
    residual: f64,
}

impl Core {
    fn fit(rows: &[&[f32]], d: usize) -> Result<Core> {
        let n = rows.len();
        if n < 3 {
            return Err(Error::Invalid(format!(
                "an out-of-distribution summary needs at least 3 slices, got {n}"
            )));
        }
        let mut mean = vec![0.0; d];
        for r in rows {
            for (m, &v) in mean.iter_mut().zip(r.iter()) {
                *m += v as f64 / n as f64;
            }
        }
        let mut scale = vec![0.0; d];
        for r in rows {
            for ((s, &v), m) in scale.iter_mut().zip(r.iter()).zip(&mean) {
                *s += (v as f64 - m).powi(2) / (n - 1) as f64;
            }
        }
        for s in &mut scale {
            *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
        }
        let z: Vec<f64> = rows
            .iter()
            .flat_map(|r| {
                r.iter()
                    .zip(&mean)
                    .zip(&scale)
                    .map(|((&v, m), s)| (v as f64 - m) / s)
            })
            .collect();
        let k = OOD_COMPONENTS.min(d).min(n - 1);
        let data = MilData::from_instances(
            d,
            z.clone(),
            vec!["ood".to_string(); n],
            vec![0; n],
            None,
            (0..n).map(|i| i.to_string()).collect(),
        )?;
        let pca = gphead::pca::Pca::fit(&data, k)?;
        let mut core = Core {
            mean,
            scale,
            components: pca.components,
            k,
            variance: pca.variance.iter().map(|v| v.max(1e-9)).collect(),
            residual: 1.0,
        };
        let q: f64 = z.chunks(d).map(|x| core.parts(x).1).sum::<f64>() / n as f64;
        core.residual = q.max(1e-9);
        Ok(core)
    }

    /// (T², Q) of a standardised row.
    fn parts(&self, z: &[f64]) -> (f64, f64) {
        let d = z.len();
        let mut t2 = 0.0;
        let mut proj = 0.0;
        for j in 0..self.k {
            let c = &self.components[j * d..(j + 1) * d];
            let s: f64 = c.iter().zip(z).map(|(a, b)| a * b).sum();
            t2 += s * s / self.variance[j];
            proj += s * s;
        }
        let norm: f64 = z.iter().map(|v| v * v).sum();
        (t2, (norm - proj).max(0.0))
    }

    fn score(&self, x: &[f32]) -> f64 {
        let z: Vec<f64> = x
            .iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .map(|((&v, m), s)| (v as f64 - m) / s)
            .collect();
        let (t2, q) = self.parts(&z);
        0.5 * (t2 / self.k as f64 + q / self.residual)
    }
}

impl OodSummary {
    /// Fits the summary on the slices of `scans` (each scan its slices' encoder features).
    pub fn fit(scans: &[Vec<Vec<f32>>], seed: u64) -> Result<OodSummary> {
        let d = scans
            .iter()
            .flat_map(|s| s.first())
            .map(Vec::len)
            .next()
            .ok_or_else(|| Error::Invalid("no slices to summarise".into()))?;
        if scans.iter().flatten().any(|r| r.len() != d) {
            return Err(Error::Invalid(
                "slices with different numbers of features".into(),
            ));
        }
        let all: Vec<&[f32]> = scans.iter().flatten().map(Vec::as_slice).collect();
        let core = Core::fit(&all, d)?;
        // held-out scores: each fold's scans scored by a summary fitted on the other folds
        let folds = 5.min(scans.len());
        let mut order: Vec<usize> = (0..scans.len()).collect();
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
        rand::seq::SliceRandom::shuffle(order.as_mut_slice(), &mut rng);
        let mut held = Vec::new();
        let mut statistics = Vec::new();
        if folds >= 2 {
            for f in 0..folds {
                let (test, train): (Vec<usize>, Vec<usize>) =
                    order.iter().partition(|&&i| i % folds == f);
                let rows: Vec<&[f32]> = train
                    .iter()
                    .flat_map(|&i| scans[i].iter().map(Vec::as_slice))
                    .collect();
                if rows.len() < 3 {
                    continue;
                }
                let c = Core::fit(&rows, d)?;
                for &i in &test {
                    let s: Vec<f64> = scans[i].iter().map(|r| c.score(r)).collect();
                    statistics.push(scan_statistic(&s));
                    held.extend(s);
                }
            }
        }
        if held.is_empty() {
            for s in scans {
                let s: Vec<f64> = s.iter().map(|r| core.score(r)).collect();
                statistics.push(scan_statistic(&s));
                held.extend(s);
            }
        }
        let threshold = quantile(&mut held, OOD_QUANTILE);
        let scan_threshold = scan_threshold(&mut statistics);
        Ok(OodSummary {
            d,
            mean: core.mean,
            scale: core.scale,
            components: core.components,
            k: core.k,
            variance: core.variance,
            residual: core.residual,
            threshold,
            scan_threshold,
            slices: all.len(),
            scans: scans.len(),
        })
    }

    /// Checks a loaded summary: shapes and finite, positive numbers.
    pub fn check(&self) -> std::result::Result<(), String> {
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        if self.d == 0
            || self.k == 0
            || self.k > self.d
            || self.mean.len() != self.d
            || self.scale.len() != self.d
            || self.components.len() != self.k * self.d
            || self.variance.len() != self.k
        {
            return Err("the out-of-distribution summary's shapes do not agree".into());
        }
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let valid = finite(&self.mean)
            && finite(&self.components)
            && self.scale.iter().all(|&s| positive(s))
            && self.variance.iter().all(|&s| positive(s))
            && [self.residual, self.threshold, self.scan_threshold]
                .into_iter()
                .all(positive);
        if !valid {
            return Err("the out-of-distribution summary holds invalid numbers".into());
        }
        Ok(())
    }

    fn core(&self) -> Core {
        Core {
            mean: self.mean.clone(),
            scale: self.scale.clone(),
            components: self.components.clone(),
            k: self.k,
            variance: self.variance.clone(),
            residual: self.residual,
        }
    }

    /// Every slice's score (compare with `threshold`).
    pub fn scores(&self, features: &[Vec<f32>]) -> Result<Vec<f64>> {
        if features.iter().any(|f| f.len() != self.d) {
            return Err(Error::Invalid(format!(
                "the out-of-distribution summary is of {} features, the slices have another number",
                self.d
            )));
        }
        let c = self.core();
        Ok(features.iter().map(|f| c.score(f)).collect())
    }

    /// A scan's standing.
    pub fn check_scan(&self, features: &[Vec<f32>]) -> Result<OodCheck> {
        let s = self.scores(features)?;
        if s.is_empty() {
            return Err(Error::Invalid("a scan without slices".into()));
        }
        let outside = s.iter().filter(|&&x| x > self.threshold).count();
        let score = scan_statistic(&s) / self.scan_threshold;
        Ok(OodCheck {
            outside_fraction: outside as f64 / s.len() as f64,
            score,
            flagged: score > 1.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(seed: u64, n: usize, shift: f32) -> Vec<Vec<f32>> {
        use rand::{Rng, SeedableRng};
        let mut r = rand::rngs::StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let a: f32 = r.random_range(-1.0..1.0);
                let b: f32 = r.random_range(-1.0..1.0);
                // three correlated features and a fourth of noise
                vec![
                    a + shift,
                    2.0 * a + 0.1 * b,
                    b,
                    0.05 * r.random_range(-1.0f32..1.0),
                ]
            })
            .collect()
    }

    /// Held-out statistics e⁰ … e⁴: their logs have mean 2 and sd √2.5, so the log-normal's 99.9 %
    /// quantile is exp(2 + 3.0902 · 1.5811) = 978.56 (by hand), far above the largest, e⁴ = 54.6,
    /// which counting gives; with the spread gone (all equal) counting's value stands.
    #[test]
    fn the_scan_threshold_extrapolates_the_held_out_statistics() {
        let mut m: Vec<f64> = (0..5).map(|k| (k as f64).exp()).collect();
        let t = scan_threshold(&mut m);
        assert!((t - 978.564_100_137_707_4).abs() < 1e-9, "{t}");
        assert!((scan_threshold(&mut [3.0; 8]) - 3.0).abs() < 1e-12);
        assert_eq!(scan_threshold(&mut [2.0, 5.0]), 5.0);
    }

    /// A scan whose lesion moves many of its slices far out (11 of 20: the median then lies
    /// among them, and the median-based statistic flagged it) stays in; the quartile flags a
    /// scan only once three slices in four are out (17 of 20). The statistic of
    /// 20 scores 1..=20 at the 0.25 quantile (nearest rank: index round(19 · 0.25) = 5) is 6.
    #[test]
    fn a_lesion_in_a_minority_of_slices_does_not_flag_the_scan() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(scan_statistic(&v), 6.0);
        let train: Vec<_> = (0..30).map(|s| scan(s, 20, 0.0)).collect();
        let o = OodSummary::fit(&train, 0).unwrap();
        let mut lesion = scan(300, 20, 0.0);
        for row in lesion.iter_mut().take(11) {
            row[0] += 3.0; // off the subspace, as the shifted scans of the test below
        }
        let c = o.check_scan(&lesion).unwrap();
        assert!(!c.flagged && c.outside_fraction >= 0.5, "{c:?}");
        let mut most = scan(301, 20, 0.0);
        for row in most.iter_mut().take(17) {
            row[0] += 3.0;
        }
        assert!(o.check_scan(&most).unwrap().flagged);
    }

    #[test]
    fn scans_like_the_training_ones_pass_and_shifted_ones_are_flagged() {
        let train: Vec<_> = (0..30).map(|s| scan(s, 20, 0.0)).collect();
        let o = OodSummary::fit(&train, 0).unwrap();
        o.check().unwrap();
        let passed = (100..140)
            .filter(|&s| !o.check_scan(&scan(s, 20, 0.0)).unwrap().flagged)
            .count();
        assert!(
            passed >= 38,
            "{passed} of 40 unseen in-distribution scans passed"
        );
        // breaking the correlation between the first two features puts slices off the subspace
        for s in 200..210 {
            let c = o.check_scan(&scan(s, 20, 3.0)).unwrap();
            assert!(c.flagged && c.score > 1.0, "{c:?}");
        }
    }
}
