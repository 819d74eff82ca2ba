//! Predictions with uncertainty (MODELS.md §4): latent moments → Monte Carlo draws of every
//! instance's probability → per instance and per bag a mean, a standard deviation and a 90 %
//! interval, all from the same draws. When the model carries a calibration map (a monotone map
//! fitted on validation bags), it is applied to every draw before anything is summarised, so a
//! probability and its spread always describe one distribution.

use faer::Mat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::calibrate::Platt;
use crate::data::MilData;
use crate::linalg::cholesky;
use crate::special::log_ndtr;
pub use crate::theta::Squash;

/// How instance probabilities make a bag probability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum BagRule {
    /// The largest instance probability: the bag is its most suspicious instance (upstream
    /// codes). Does not grow with the number of instances, and commutes with a monotone
    /// calibration map. The default.
    #[default]
    Max,
    /// The expected per-draw maximum `E[max_n p_n]`: grows with the number of instances when the
    /// latent spread is large (explicit option).
    MaxPerDraw,
    /// The paper: `1 − Π_n (1 − p_n)` per draw.
    NoisyOr,
    /// MIL-GP-Probit: `1 − P(all m*_i < 0)` with the bag's full latent covariance (Monte Carlo,
    /// Rao–Blackwellised over m*, with a standard error). Other models use noisy-OR for it.
    FullCovariance,
}

/// The mean, standard deviation and 90 % interval (5th and 95th percentiles) of a probability,
/// all from the same Monte Carlo draws; the interval lies inside [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct Summary {
    pub mean: f64,
    pub sd: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Summary {
    /// Summarises draws (reordered in place).
    pub fn of(draws: &mut [f64]) -> Summary {
        if draws.is_empty() {
            return Summary::default();
        }
        let l = draws.len() as f64;
        let mean = draws.iter().sum::<f64>() / l;
        let var = if draws.len() > 1 {
            draws.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (l - 1.0)
        } else {
            0.0
        };
        draws.sort_by(f64::total_cmp);
        Summary {
            mean,
            sd: var.sqrt(),
            lo: quantile(draws, 0.05),
            hi: quantile(draws, 0.95),
        }
    }
}

/// Linear interpolation between order statistics (numpy's default) of sorted values.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (i, f) = (pos.floor() as usize, pos - pos.floor());
    match sorted.get(i + 1) {
        Some(&next) => sorted[i] + f * (next - sorted[i]),
        None => sorted[i],
    }
}

/// Bag scores from closed-form instance probabilities (the full-covariance rule falls back to
/// noisy-OR here: it needs sampling).
pub fn bag_scores_closed_form(
    mu: &[f64],
    var: &[f64],
    data: &MilData,
    rule: BagRule,
    squash: Squash,
) -> Vec<f64> {
    data.bags
        .iter()
        .map(|b| {
            let ps = b
                .instances
                .iter()
                .map(|&i| squash.closed_form(mu[i], var[i]));
            match rule {
                BagRule::NoisyOr | BagRule::FullCovariance => {
                    1.0 - ps.map(|p| 1.0 - p).product::<f64>()
                }
                BagRule::Max | BagRule::MaxPerDraw => ps.fold(0.0, f64::max),
            }
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct InstancePrediction {
    /// Monte Carlo mean of the (calibrated, when the model is) probability (eq. 32).
    pub mean: f64,
    /// Its standard deviation (eq. 33).
    pub sd: f64,
    /// 5th and 95th percentiles of the same draws.
    pub lo: f64,
    pub hi: f64,
    /// Monte Carlo mean of the uncalibrated probability.
    pub raw_mean: f64,
    /// Closed-form approximation of the uncalibrated mean.
    pub closed_form: f64,
    pub latent_mean: f64,
    pub latent_var: f64,
}

/// A bag's probability by every rule, each summarised from its own draws.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BagPrediction {
    /// The most suspicious instance (largest mean probability): its summary.
    pub max: Summary,
    /// Its index within the bag.
    pub max_instance: usize,
    pub max_per_draw: Summary,
    pub noisy_or: Summary,
    /// MIL-GP-Probit: from the full bag covariance, with the Monte Carlo standard error of the
    /// mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_cov: Option<(Summary, f64)>,
}

impl BagPrediction {
    pub fn get(&self, rule: BagRule) -> Summary {
        match rule {
            BagRule::Max => self.max,
            BagRule::MaxPerDraw => self.max_per_draw,
            BagRule::NoisyOr => self.noisy_or,
            BagRule::FullCovariance => self.full_cov.map_or(self.noisy_or, |f| f.0),
        }
    }
    pub fn mean(&self, rule: BagRule) -> f64 {
        self.get(rule).mean
    }
    pub fn sd(&self, rule: BagRule) -> f64 {
        self.get(rule).sd
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Predictions {
    pub instances: Vec<InstancePrediction>,
    pub bags: Vec<BagPrediction>,
}

impl Predictions {
    pub fn bag_probabilities(&self, rule: BagRule) -> Vec<f64> {
        self.bags.iter().map(|b| b.mean(rule)).collect()
    }
    pub fn instance_probabilities(&self) -> Vec<f64> {
        self.instances.iter().map(|i| i.mean).collect()
    }
}

/// The Monte Carlo draws of one bag: uncalibrated instance probabilities, `p[j * l + s]` for
/// instance j and draw s; and, for MIL-GP-Probit, the full-covariance bag probabilities.
pub(crate) struct BagDraws {
    pub ni: usize,
    pub l: usize,
    pub p: Vec<f64>,
    pub full_cov: Option<Vec<f64>>,
}

impl BagDraws {
    fn instance(&self, j: usize) -> &[f64] {
        &self.p[j * self.l..(j + 1) * self.l]
    }

    /// Every instance's mean over its draws, uncalibrated.
    pub fn instance_means(&self) -> Vec<f64> {
        (0..self.ni)
            .map(|j| self.instance(j).iter().sum::<f64>() / self.l.max(1) as f64)
            .collect()
    }

    /// Draws of the bag's value by `rule`, uncalibrated (for fitting a calibration map) or
    /// calibrated.
    pub fn rule(&self, rule: BagRule, calib: Option<Platt>) -> Vec<f64> {
        let g = |x: f64| calib.map_or(x, |c| c.apply(x));
        match rule {
            BagRule::Max => {
                let j = self.most_suspicious(calib);
                self.instance(j).iter().map(|&x| g(x)).collect()
            }
            BagRule::MaxPerDraw => (0..self.l)
                .map(|s| {
                    g((0..self.ni)
                        .map(|j| self.p[j * self.l + s])
                        .fold(0.0, f64::max))
                })
                .collect(),
            BagRule::NoisyOr => (0..self.l).map(|s| g(self.noisy_or(s))).collect(),
            BagRule::FullCovariance => match &self.full_cov {
                Some(f) => f.iter().map(|&x| g(x)).collect(),
                None => (0..self.l).map(|s| g(self.noisy_or(s))).collect(),
            },
        }
    }

    fn noisy_or(&self, s: usize) -> f64 {
        let log_none: f64 = (0..self.ni)
            .map(|j| (-self.p[j * self.l + s]).ln_1p())
            .sum();
        -log_none.exp_m1()
    }

    /// The instance with the largest mean (calibrated) probability; the first on ties.
    fn most_suspicious(&self, calib: Option<Platt>) -> usize {
        let mut best = (0, f64::NEG_INFINITY);
        for j in 0..self.ni {
            let v = self.instance(j);
            let m = v
                .iter()
                .map(|&x| calib.map_or(x, |c| c.apply(x)))
                .sum::<f64>();
            if m > best.1 {
                best = (j, m);
            }
        }
        best.0
    }

    /// Every summary of the bag and of its instances (`calib` applied to every draw).
    pub fn summarise(&self, calib: Option<Platt>) -> (Vec<(Summary, f64)>, BagPrediction) {
        let g = |x: f64| calib.map_or(x, |c| c.apply(x));
        let inst: Vec<(Summary, f64)> = (0..self.ni)
            .map(|j| {
                let raw = self.instance(j);
                let raw_mean = raw.iter().sum::<f64>() / self.l as f64;
                let mut v: Vec<f64> = raw.iter().map(|&x| g(x)).collect();
                (Summary::of(&mut v), raw_mean)
            })
            .collect();
        // the most suspicious instance: the largest mean of the (mapped) draws, the first on ties
        let max_instance = inst
            .iter()
            .enumerate()
            .fold((0, f64::NEG_INFINITY), |best, (j, (s, _))| {
                if s.mean > best.1 {
                    (j, s.mean)
                } else {
                    best
                }
            })
            .0;
        let full_cov = self.full_cov.as_ref().map(|f| {
            let mut v: Vec<f64> = f.iter().map(|&x| g(x)).collect();
            let s = Summary::of(&mut v);
            (s, s.sd / (v.len() as f64).sqrt())
        });
        let bag = BagPrediction {
            max: inst
                .get(max_instance)
                .map_or_else(Summary::default, |x| x.0),
            max_instance,
            max_per_draw: Summary::of(&mut self.rule(BagRule::MaxPerDraw, calib)),
            noisy_or: Summary::of(&mut self.rule(BagRule::NoisyOr, calib)),
            full_cov,
        };
        (inst, bag)
    }
}

/// Monte Carlo draws of every bag: `samples` draws of independent f*_n per bag; bag k draws from
/// its own stream of `seed`, so results do not depend on threads.
pub(crate) fn draws(
    mu: &[f64],
    var: &[f64],
    data: &MilData,
    samples: usize,
    seed: u64,
    squash: Squash,
) -> Vec<BagDraws> {
    let l = samples.max(1);
    data.bags
        .par_iter()
        .enumerate()
        .map(|(k, bag)| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(k as u64);
            let ni = bag.instances.len();
            let sd: Vec<f64> = bag
                .instances
                .iter()
                .map(|&i| var[i].max(0.0).sqrt())
                .collect();
            let mut p = vec![0.0; ni * l];
            for s in 0..l {
                for (j, &i) in bag.instances.iter().enumerate() {
                    let e: f64 = StandardNormal.sample(&mut rng);
                    p[j * l + s] = squash.apply(mu[i] + sd[j] * e);
                }
            }
            BagDraws {
                ni,
                l,
                p,
                full_cov: None,
            }
        })
        .collect()
}

/// Summaries of every instance and bag from their draws.
pub(crate) fn summarise(
    all: &[BagDraws],
    data: &MilData,
    mu: &[f64],
    var: &[f64],
    squash: Squash,
    calib: Option<Platt>,
) -> Predictions {
    let per_bag: Vec<(Vec<(Summary, f64)>, BagPrediction)> =
        all.par_iter().map(|d| d.summarise(calib)).collect();
    let mut instances = vec![
        InstancePrediction {
            mean: 0.0,
            sd: 0.0,
            lo: 0.0,
            hi: 0.0,
            raw_mean: 0.0,
            closed_form: 0.0,
            latent_mean: 0.0,
            latent_var: 0.0
        };
        data.n
    ];
    let mut bags = Vec::with_capacity(data.bags.len());
    for (bag, (inst, bp)) in data.bags.iter().zip(per_bag) {
        for (&i, (s, raw_mean)) in bag.instances.iter().zip(inst) {
            instances[i] = InstancePrediction {
                mean: s.mean,
                sd: s.sd,
                lo: s.lo,
                hi: s.hi,
                raw_mean,
                closed_form: squash.closed_form(mu[i], var[i]),
                latent_mean: mu[i],
                latent_var: var[i],
            };
        }
        bags.push(bp);
    }
    Predictions { instances, bags }
}

/// Monte Carlo predictions from latent moments, uncalibrated (see `draws`).
pub fn monte_carlo(
    mu: &[f64],
    var: &[f64],
    data: &MilData,
    samples: usize,
    seed: u64,
    squash: Squash,
) -> Predictions {
    let d = draws(mu, var, data, samples, seed, squash);
    summarise(&d, data, mu, var, squash, None)
}

/// Full-covariance bag probabilities of MIL-GP-Probit VI: per bag, f ~ N(μ^F, Σ^F) with the bag's
/// full latent covariance, and `1 − P(all m* < 0 | f) = 1 − Π Φ(−f_i)` averaged over draws
/// (Rao–Blackwellised over m*). Returns the draws.
pub(crate) fn full_covariance_bag(
    mu: &[f64],
    cov: &Mat<f64>,
    samples: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<f64> {
    let n = mu.len();
    let chol = cholesky(cov.as_ref(), 1e-8, "bag covariance")
        .map(|x| x.0)
        .unwrap_or_else(|_| {
            Mat::from_fn(n, n, |i, j| {
                if i == j {
                    cov[(i, i)].max(0.0).sqrt()
                } else {
                    0.0
                }
            })
        });
    let l = samples.max(2);
    let mut out = Vec::with_capacity(l);
    for _ in 0..l {
        let z: Vec<f64> = (0..n).map(|_| rng.sample(StandardNormal)).collect();
        let mut log_none = 0.0;
        for i in 0..n {
            let mut f = mu[i];
            for k in 0..=i {
                f += chol[(i, k)] * z[k];
            }
            log_none += log_ndtr(-f);
        }
        out.push(-log_none.exp_m1());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::sigmoid;

    fn one_bag(n: usize) -> MilData {
        MilData::from_instances(
            1,
            vec![0.0; n],
            vec!["b".into(); n],
            vec![1; n],
            None,
            (0..n).map(|i| i.to_string()).collect(),
        )
        .unwrap()
    }

    /// E[σ(f)] and sd for f ~ N(μ, s²) by Gauss–Hermite-free numerical integration (trapezoid on
    /// a fine grid over ±10 s).
    fn integrate(mu: f64, var: f64) -> (f64, f64) {
        let s = var.sqrt();
        let (mut m1, mut m2, mut w) = (0.0, 0.0, 0.0);
        let k = 20000;
        for t in 0..=k {
            let z = -10.0 + 20.0 * t as f64 / k as f64;
            let dens = (-0.5 * z * z).exp();
            let p = sigmoid(mu + s * z);
            m1 += dens * p;
            m2 += dens * p * p;
            w += dens;
        }
        let mean = m1 / w;
        (mean, (m2 / w - mean * mean).sqrt())
    }

    #[test]
    fn monte_carlo_moments_match_integration() {
        let data = one_bag(3);
        let mu = [0.0, 1.5, -2.0];
        let var = [1.0, 0.25, 4.0];
        let pred = monte_carlo(&mu, &var, &data, 200_000, 7, Squash::Logistic);
        for i in 0..3 {
            let (m, sd) = integrate(mu[i], var[i]);
            let p = pred.instances[i];
            assert!((p.mean - m).abs() < 3e-3, "{i}: {} vs {m}", p.mean);
            assert!((p.sd - sd).abs() < 3e-3, "{i}: {} vs {sd}", p.sd);
            // closed form is an approximation: within 0.02 here
            assert!((p.closed_form - m).abs() < 0.02);
        }
        // zero variance: sd 0 and mean σ(μ); noisy-OR by hand
        let exact = monte_carlo(
            &[0.0, 1.0],
            &[0.0, 0.0],
            &one_bag(2),
            10,
            1,
            Squash::Logistic,
        );
        assert_eq!(exact.instances[0].sd, 0.0);
        assert!((exact.instances[1].mean - sigmoid(1.0)).abs() < 1e-15);
        let no = 1.0 - 0.5 * (1.0 - sigmoid(1.0));
        assert!((exact.bags[0].noisy_or.mean - no).abs() < 1e-12);
        assert!((exact.bags[0].max.mean - sigmoid(1.0)).abs() < 1e-12);
        assert!((exact.bags[0].max_per_draw.mean - sigmoid(1.0)).abs() < 1e-12);
        assert!(exact.bags[0].noisy_or.sd < 1e-12);
    }

    #[test]
    fn seeded_and_thread_independent() {
        let data = one_bag(5);
        let mu = [0.1, 0.2, 0.3, 0.4, 0.5];
        let var = [1.0; 5];
        assert_eq!(
            monte_carlo(&mu, &var, &data, 100, 3, Squash::Logistic),
            monte_carlo(&mu, &var, &data, 100, 3, Squash::Logistic)
        );
        assert_ne!(
            monte_carlo(&mu, &var, &data, 100, 3, Squash::Logistic),
            monte_carlo(&mu, &var, &data, 100, 4, Squash::Logistic)
        );
    }

    /// The bag score must not grow with the number of instances when they are all alike: the
    /// max rule gives one instance's probability whatever the bag size; the per-draw maximum
    /// (kept as an explicit option) grows.
    #[test]
    fn max_rule_does_not_grow_with_bag_size_for_identical_instances() {
        let (mu, var) = (-1.0, 1.0);
        let mut per_draw = Vec::new();
        let mut max = Vec::new();
        for n in [1usize, 10, 100, 1000] {
            let p = monte_carlo(
                &vec![mu; n],
                &vec![var; n],
                &one_bag(n),
                4000,
                9,
                Squash::Logistic,
            );
            max.push(p.bags[0].max.mean);
            per_draw.push(p.bags[0].max_per_draw.mean);
        }
        let (m, sd) = integrate(mu, var);
        for (k, v) in max.iter().enumerate() {
            // Monte Carlo error of one instance's mean with 4000 draws: sd/√4000 ≈ 0.003;
            // the largest of n such estimates stays within a few of them
            assert!(
                (v - m).abs() < 6.0 * sd / 4000f64.sqrt(),
                "n index {k}: {v} vs {m}"
            );
        }
        assert!(
            per_draw.windows(2).all(|w| w[1] > w[0] + 0.01),
            "{per_draw:?}"
        );
    }

    #[test]
    fn mean_sd_and_interval_come_from_the_same_draws() {
        let mut v: Vec<f64> = (0..=100).map(|k| k as f64 / 100.0).collect();
        let s = Summary::of(&mut v);
        assert!((s.mean - 0.5).abs() < 1e-12);
        assert!((s.lo - 0.05).abs() < 1e-12 && (s.hi - 0.95).abs() < 1e-12);
        // a probability near 0 or 1 has a narrow interval, inside [0, 1]
        let data = one_bag(2);
        let calib = Platt::IDENTITY;
        let d = draws(
            &[-8.0, 8.0],
            &[0.25, 0.25],
            &data,
            2000,
            3,
            Squash::Logistic,
        );
        let p = summarise(
            &d,
            &data,
            &[-8.0, 8.0],
            &[0.25, 0.25],
            Squash::Logistic,
            Some(calib),
        );
        for i in &p.instances {
            assert!(
                0.0 <= i.lo && i.lo <= i.mean && i.mean <= i.hi && i.hi <= 1.0,
                "{i:?}"
            );
            assert!(i.hi - i.lo < 0.01, "{i:?}");
        }
        // the bag by the max rule is exactly its most suspicious instance's summary
        assert_eq!(p.bags[0].max_instance, 1);
        assert_eq!(p.bags[0].max.mean, p.instances[1].mean);
        assert_eq!(p.bags[0].max.hi, p.instances[1].hi);
        // with a calibration map: the mean is the mean of the mapped draws, not the map of the
        // mean; sd and interval are those of the same mapped draws
        let steep = Platt {
            a: 4.0,
            ..Platt::IDENTITY
        };
        let d = draws(&[0.0], &[4.0], &one_bag(1), 5000, 5, Squash::Logistic);
        let p = summarise(
            &d,
            &one_bag(1),
            &[0.0],
            &[4.0],
            Squash::Logistic,
            Some(steep),
        );
        let mut mapped: Vec<f64> = d[0].p.iter().map(|&x| steep.apply(x)).collect();
        let want = Summary::of(&mut mapped);
        let i = p.instances[0];
        assert_eq!(
            (i.mean, i.sd, i.lo, i.hi),
            (want.mean, want.sd, want.lo, want.hi)
        );
        assert!((i.raw_mean - d[0].p.iter().sum::<f64>() / 5000.0).abs() < 1e-12);
    }
}
