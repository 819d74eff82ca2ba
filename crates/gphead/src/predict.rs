//! Predictions with uncertainty (MODELS.md §4): latent moments, Monte Carlo instance and bag
//! probabilities with standard deviations, the closed-form instance mean.

use faer::Mat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::MilData;
use crate::linalg::cholesky;
use crate::special::log_ndtr;
pub use crate::theta::Squash;

/// How instance probabilities make a bag probability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BagRule {
    /// The paper: `1 − Π_n (1 − p_n)` per sample.
    NoisyOr,
    /// The upstream code: the largest instance probability per sample. The default: on the
    /// benchmarks (docs/BENCHMARKS.md) it holds up where noisy-OR collapses.
    #[default]
    Max,
    /// MIL-GP-Probit: `1 − P(all m*_i < 0)` with the bag's full latent covariance (Monte Carlo,
    /// Rao–Blackwellised over m*, with a standard error). Other models use noisy-OR for it.
    FullCovariance,
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
                BagRule::Max => ps.fold(0.0, f64::max),
            }
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct InstancePrediction {
    /// Monte Carlo mean of σ(f*) (eq. 32).
    pub mean: f64,
    /// Monte Carlo standard deviation of σ(f*) (eq. 33).
    pub sd: f64,
    /// Closed-form approximation of the mean.
    pub closed_form: f64,
    pub latent_mean: f64,
    pub latent_var: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BagPrediction {
    pub noisy_or_mean: f64,
    pub noisy_or_sd: f64,
    pub max_mean: f64,
    pub max_sd: f64,
    /// MIL-GP-Probit: probability from the full bag covariance, its sd over draws and the Monte
    /// Carlo standard error of the mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_cov: Option<(f64, f64, f64)>,
}

impl BagPrediction {
    pub fn mean(&self, rule: BagRule) -> f64 {
        match rule {
            BagRule::NoisyOr => self.noisy_or_mean,
            BagRule::Max => self.max_mean,
            BagRule::FullCovariance => self.full_cov.map_or(self.noisy_or_mean, |f| f.0),
        }
    }
    pub fn sd(&self, rule: BagRule) -> f64 {
        match rule {
            BagRule::NoisyOr => self.noisy_or_sd,
            BagRule::Max => self.max_sd,
            BagRule::FullCovariance => self.full_cov.map_or(self.noisy_or_sd, |f| f.1),
        }
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

pub(crate) fn mean_sd(sum: f64, sumsq: f64, l: f64) -> (f64, f64) {
    let mean = sum / l;
    let var = if l > 1.0 {
        ((sumsq - l * mean * mean) / (l - 1.0)).max(0.0)
    } else {
        0.0
    };
    (mean, var.sqrt())
}

/// Monte Carlo predictions from latent moments: `samples` draws of independent f*_n per bag.
/// Bag k draws from its own stream of `seed`, so results do not depend on threads.
pub fn monte_carlo(
    mu: &[f64],
    var: &[f64],
    data: &MilData,
    samples: usize,
    seed: u64,
    squash: Squash,
) -> Predictions {
    let l = samples.max(1);
    let per_bag: Vec<(Vec<InstancePrediction>, BagPrediction)> = data
        .bags
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
            let (mut s, mut s2) = (vec![0.0; ni], vec![0.0; ni]);
            let (mut no, mut no2, mut mx, mut mx2) = (0.0, 0.0, 0.0, 0.0);
            for _ in 0..l {
                let mut log_none: f64 = 0.0;
                let mut best: f64 = 0.0;
                for (j, &i) in bag.instances.iter().enumerate() {
                    let e: f64 = StandardNormal.sample(&mut rng);
                    let p = squash.apply(mu[i] + sd[j] * e);
                    s[j] += p;
                    s2[j] += p * p;
                    log_none += (-p).ln_1p();
                    best = best.max(p);
                }
                let q = 1.0 - log_none.exp();
                no += q;
                no2 += q * q;
                mx += best;
                mx2 += best * best;
            }
            let lf = l as f64;
            let inst = bag
                .instances
                .iter()
                .enumerate()
                .map(|(j, &i)| {
                    let (mean, sd) = mean_sd(s[j], s2[j], lf);
                    InstancePrediction {
                        mean,
                        sd,
                        closed_form: squash.closed_form(mu[i], var[i]),
                        latent_mean: mu[i],
                        latent_var: var[i],
                    }
                })
                .collect();
            let (nm, ns) = mean_sd(no, no2, lf);
            let (mm, ms) = mean_sd(mx, mx2, lf);
            (
                inst,
                BagPrediction {
                    noisy_or_mean: nm,
                    noisy_or_sd: ns,
                    max_mean: mm,
                    max_sd: ms,
                    full_cov: None,
                },
            )
        })
        .collect();
    let mut instances = vec![
        InstancePrediction {
            mean: 0.0,
            sd: 0.0,
            closed_form: 0.0,
            latent_mean: 0.0,
            latent_var: 0.0
        };
        data.n
    ];
    let mut bags = Vec::with_capacity(data.bags.len());
    for (bag, (inst, bp)) in data.bags.iter().zip(per_bag) {
        for (&i, p) in bag.instances.iter().zip(inst) {
            instances[i] = p;
        }
        bags.push(bp);
    }
    Predictions { instances, bags }
}

/// Full-covariance bag probabilities of MIL-GP-Probit VI: per bag, f ~ N(μ^F, Σ^F) with the bag's
/// full latent covariance, and `1 − P(all m* < 0 | f) = 1 − Π Φ(−f_i)` averaged over draws
/// (Rao–Blackwellised over m*). Returns (mean, sd over draws, standard error of the mean).
pub(crate) fn full_covariance_bag(
    mu: &[f64],
    cov: &Mat<f64>,
    samples: usize,
    rng: &mut ChaCha8Rng,
) -> (f64, f64, f64) {
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
    let (mut s, mut s2) = (0.0, 0.0);
    let l = samples.max(2);
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
        let q = -log_none.exp_m1();
        s += q;
        s2 += q * q;
    }
    let (mean, sd) = crate::predict::mean_sd(s, s2, l as f64);
    (mean, sd, sd / (l as f64).sqrt())
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
        assert!((exact.bags[0].noisy_or_mean - no).abs() < 1e-12);
        assert!((exact.bags[0].max_mean - sigmoid(1.0)).abs() < 1e-12);
        assert!(exact.bags[0].noisy_or_sd < 1e-12);
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
}
