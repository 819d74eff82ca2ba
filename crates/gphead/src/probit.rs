//! MIL-GP-Probit (Wang & Pinar, AISTATS 2021; MODELS.md §5): probit link, exact MIL likelihood,
//! augmentation `m_n ~ N(f_n, 1)`, `y_n = 1[m_n > 0]`. Variational inference and a collapsed
//! Gibbs sampler.
//!
//! In whitened coordinates (`u = L v`, `B = L⁻¹K_zx`, `f = Bᵀ v`): `Σ^u = L P⁻¹ Lᵀ` with
//! `P = I + B Bᵀ = R Rᵀ` (fixed), `μ_w = P⁻¹ B E[m]`, `μ^M = Bᵀ μ_w`.

use std::time::Instant;

use faer::{Mat, Par};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use rayon::prelude::*;

use crate::data::MilData;
use crate::error::Result;
use crate::fitloop::{
    finish, kl_whitened, max_abs_diff, run_epochs, solve_mean, Epoch, EpochRecord, FitOutput,
    Setup, Snapshot, Tracker,
};
use crate::linalg::{cholesky, col_mat, solve_lt};
use crate::model::GibbsDiagnostics;
use crate::params::ValidParams;
use crate::special::{ln_pdf, log_ndtr, ndtr, trunc_mean_below_zero};

/// `log(1 − e^{a})` for a ≤ 0 given also the terms whose sum a is, for the case a rounds to 0.
fn log_one_minus_prod(log_p: f64, log_cdfs_pos: impl Iterator<Item = f64>) -> f64 {
    if log_p < -1e-10 {
        (-log_p.exp_m1()).ln()
    } else {
        // P ≈ 1: 1 − Π(1 − Φ(μ_j)) ≈ Σ Φ(μ_j), all tiny
        let v: Vec<f64> = log_cdfs_pos.collect();
        let mx = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        mx + v.iter().map(|x| (x - mx).exp()).sum::<f64>().ln()
    }
}

/// `E[m_i]` of one bag under q(m_b) ∝ Π N(m_i; μ_i, 1) · (label constraint), and log Z_b.
/// Negative bag: every m_i < 0. Positive bag: not all m_i < 0, where
/// `E[m_i] = μ_i + φ(μ_i) Π_{j≠i} Φ(−μ_j) / (1 − Π_j Φ(−μ_j))`
/// (= MODELS.md's `(μ_i − S(μ_i) Π_j(1−Φ(μ_j)))/Z_b`, rearranged to avoid cancellation).
pub fn bag_expectations(mu: &[f64], positive: bool, out: &mut [f64]) -> f64 {
    let lneg: Vec<f64> = mu.iter().map(|&m| log_ndtr(-m)).collect();
    let log_p: f64 = lneg.iter().sum();
    if !positive {
        for (o, &m) in out.iter_mut().zip(mu) {
            *o = trunc_mean_below_zero(m);
        }
        return log_p;
    }
    let log_z = log_one_minus_prod(log_p, mu.iter().map(|&m| log_ndtr(m)));
    for ((o, &m), &ln) in out.iter_mut().zip(mu).zip(&lneg) {
        *o = m + (ln_pdf(m) + (log_p - ln) - log_z).exp();
    }
    log_z
}

/// E[m] for every instance and Σ_b log Z_b.
fn expected_m(data: &MilData, mu: &[f64]) -> (Vec<f64>, f64) {
    let parts: Vec<(Vec<f64>, f64)> = data
        .bags
        .par_iter()
        .map(|b| {
            let bm: Vec<f64> = b.instances.iter().map(|&i| mu[i]).collect();
            let mut out = vec![0.0; bm.len()];
            let lz = bag_expectations(&bm, b.label == 1, &mut out);
            (out, lz)
        })
        .collect();
    let mut em = vec![0.0; data.n];
    let mut total = 0.0;
    for (b, (v, lz)) in data.bags.iter().zip(parts) {
        for (&i, x) in b.instances.iter().zip(v) {
            em[i] = x;
        }
        total += lz;
    }
    (em, total)
}

/// P = I + B Bᵀ and its Cholesky factor.
fn fixed_precision(setup: &Setup, jitter: f64) -> Result<Mat<f64>> {
    let ones = vec![1.0; setup.b().n()];
    let p = setup.b().identity_plus_weighted_gram(&ones);
    Ok(cholesky(p.as_ref(), jitter, "I + B Bᵀ")?.0)
}

/// Variational inference: coordinate ascent on q(m) and q(u); the ELBO
/// `Σ_b log Z_b(μ_b) − ½ tr Cov_q(f) − KL(q(u) ‖ p(u))` never decreases.
pub(crate) fn fit_vi(
    p: &ValidParams,
    train: &MilData,
    valid: Option<&MilData>,
) -> Result<FitOutput> {
    let mut setup = Setup::new(p, train, valid)?;
    let r = fixed_precision(&setup, p.jitter)?;
    let tr_cov_f: f64 = setup.b().solved_col_sq_norms(r.as_ref()).iter().sum();
    let mut m_w = vec![0.0; setup.m];
    let mut mu = vec![0.0; train.n];
    let mut em_old = vec![f64::INFINITY; train.n];
    let (best, tracker) = run_epochs(p, &mut setup, valid, |_, setup| {
        let (em, log_z) = expected_m(train, &mu);
        let elbo = log_z - 0.5 * tr_cov_f - kl_whitened(&m_w, &r);
        m_w = solve_mean(setup.b(), &r, &em);
        mu = setup.b().at_v(&m_w);
        let d = max_abs_diff(&em, &em_old);
        em_old = em;
        Ok(Epoch {
            objective: Some(elbo),
            state: Snapshot {
                m_w: m_w.clone(),
                r: r.clone(),
                pi: instance_probs(&mu),
                kernel: setup.kernel,
            },
            mu: mu.clone(),
            dlocal: d,
            kernel: None,
        })
    })?;
    finish(p, setup, best, tracker, train, Vec::new(), Vec::new())
}

/// Training instance probabilities Φ(μ) (reported as π for the probit models).
fn instance_probs(mu: &[f64]) -> Vec<f64> {
    mu.iter().map(|&m| ndtr(m)).collect()
}

/// A draw from N(0, 1) truncated to (a, ∞), exact in the tail: plain rejection for a < 0.45,
/// Robert's (1995) exponential proposal beyond.
pub fn sample_std_trunc_below(rng: &mut ChaCha8Rng, a: f64) -> f64 {
    if a < 0.45 {
        loop {
            let x: f64 = rng.sample(StandardNormal);
            if x > a {
                return x;
            }
        }
    }
    let alpha = 0.5 * (a + (a * a + 4.0).sqrt());
    loop {
        let u: f64 = rng.random::<f64>();
        let z = a - (1.0 - u).ln() / alpha;
        let rho = (-0.5 * (z - alpha) * (z - alpha)).exp();
        if rng.random::<f64>() <= rho {
            return z;
        }
    }
}

/// m ~ N(mean, 1) truncated to (0, ∞) (`above = true`) or (−∞, 0).
fn sample_m(rng: &mut ChaCha8Rng, mean: f64, above: bool) -> f64 {
    if above {
        mean + sample_std_trunc_below(rng, -mean)
    } else {
        mean - sample_std_trunc_below(rng, mean)
    }
}

/// Split-R̂ of one scalar over chains (Gelman et al., BDA3 §11.4).
pub fn split_r_hat(chains: &[Vec<f64>]) -> f64 {
    let halves: Vec<&[f64]> = chains
        .iter()
        .flat_map(|c| {
            let h = c.len() / 2;
            [&c[..h], &c[h..2 * h]]
        })
        .collect();
    let n = halves[0].len() as f64;
    if n < 2.0 {
        return f64::NAN;
    }
    let means: Vec<f64> = halves.iter().map(|c| c.iter().sum::<f64>() / n).collect();
    let grand = means.iter().sum::<f64>() / means.len() as f64;
    let m = halves.len() as f64;
    let b = n / (m - 1.0) * means.iter().map(|x| (x - grand).powi(2)).sum::<f64>();
    let w = halves
        .iter()
        .zip(&means)
        .map(|(c, mu)| c.iter().map(|x| (x - mu).powi(2)).sum::<f64>() / (n - 1.0))
        .sum::<f64>()
        / m;
    if w <= 0.0 {
        return 1.0;
    }
    (((n - 1.0) / n * w + b / n) / w).sqrt()
}

/// Effective sample size from the chains' mean autocorrelation, summed while it stays > 0.05.
pub fn ess(chains: &[Vec<f64>]) -> f64 {
    let n = chains[0].len();
    let total = (chains.len() * n) as f64;
    let mut rho_sum = 0.0;
    for lag in 1..n / 2 {
        let mut acc = 0.0;
        for c in chains {
            let mu = c.iter().sum::<f64>() / n as f64;
            let var = c.iter().map(|x| (x - mu).powi(2)).sum::<f64>();
            if var <= 0.0 {
                continue;
            }
            let cov: f64 = (0..n - lag).map(|t| (c[t] - mu) * (c[t + lag] - mu)).sum();
            acc += cov / var;
        }
        let rho = acc / chains.len() as f64;
        if rho < 0.05 {
            break;
        }
        rho_sum += rho;
    }
    total / (1.0 + 2.0 * rho_sum)
}

/// At most this many draws are stored in a model file (evenly spaced over all chains).
pub const MAX_STORED_DRAWS: usize = 400;

/// Output of the sampler: kept draws of v (per chain) and diagnostics.
pub(crate) struct GibbsRun {
    pub draws: Vec<Vec<Vec<f64>>>,
    pub diagnostics: GibbsDiagnostics,
}

/// Collapsed Gibbs sampling: `v | m ~ N(P⁻¹ B m, P⁻¹)`, then each `m_i | f_i, m_{b∖i}` from its
/// truncated normal, bag by bag in order. Chains run in parallel, each on its own stream.
pub(crate) fn run_gibbs(p: &ValidParams, train: &MilData, setup: &Setup, r: &Mat<f64>) -> GibbsRun {
    let crate::params::Gibbs {
        chains,
        burn_in,
        draws: samples,
        thin,
    } = p.gibbs;
    let t0 = Instant::now();
    let m = setup.m;
    let b = setup.b();
    let (em0, _) = expected_m(train, &vec![0.0; train.n]);
    let draws: Vec<Vec<Vec<f64>>> = (0..chains)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
            rng.set_stream(c as u64 + 1);
            let mut mm: Vec<f64> = em0
                .iter()
                .map(|x| x + 0.1 * rng.sample::<f64, _>(StandardNormal))
                .collect();
            let mut kept = Vec::with_capacity(samples);
            let total = burn_in + samples * thin;
            for it in 0..total {
                let mean = solve_mean(b, r, &mm);
                let eps: Vec<f64> = (0..m).map(|_| rng.sample(StandardNormal)).collect();
                let mut noise = col_mat(&eps);
                solve_lt(r.as_ref(), noise.as_mut(), Par::Seq);
                let v: Vec<f64> = (0..m).map(|i| mean[i] + noise[(i, 0)]).collect();
                let f = b.at_v_seq(&v);
                for bag in &train.bags {
                    if bag.label == 0 {
                        for &i in &bag.instances {
                            mm[i] = sample_m(&mut rng, f[i], false);
                        }
                    } else {
                        for &i in &bag.instances {
                            let others_negative =
                                bag.instances.iter().all(|&j| j == i || mm[j] < 0.0);
                            mm[i] = if others_negative {
                                sample_m(&mut rng, f[i], true)
                            } else {
                                f[i] + rng.sample::<f64, _>(StandardNormal)
                            };
                        }
                    }
                }
                if it >= burn_in && (it - burn_in) % thin == 0 {
                    kept.push(v);
                }
            }
            kept
        })
        .collect();
    let mut r_hat_max: f64 = 1.0;
    let mut ess_min = f64::INFINITY;
    for k in 0..m {
        let series: Vec<Vec<f64>> = draws
            .iter()
            .map(|c| c.iter().map(|v| v[k]).collect())
            .collect();
        if chains > 1 {
            r_hat_max = r_hat_max.max(split_r_hat(&series));
        }
        ess_min = ess_min.min(ess(&series));
    }
    let diagnostics = GibbsDiagnostics {
        chains,
        draws_per_chain: samples,
        r_hat_max,
        ess_min,
        seconds: t0.elapsed().as_secs_f64(),
    };
    GibbsRun { draws, diagnostics }
}

/// Gibbs fit: runs the chains, stores at most [`MAX_STORED_DRAWS`] draws in the model.
pub(crate) fn fit_gibbs(
    p: &ValidParams,
    train: &MilData,
    valid: Option<&MilData>,
) -> Result<FitOutput> {
    let setup = Setup::new(p, train, valid)?;
    let r = fixed_precision(&setup, p.jitter)?;
    let run = run_gibbs(p, train, &setup, &r);
    tracing::info!(
        r_hat = run.diagnostics.r_hat_max,
        ess = run.diagnostics.ess_min,
        "Gibbs sampler"
    );
    let all: Vec<&Vec<f64>> = run.draws.iter().flatten().collect();
    let step = all.len().div_ceil(MAX_STORED_DRAWS).max(1);
    let stored: Vec<Vec<f64>> = all.iter().step_by(step).map(|v| (*v).clone()).collect();
    // posterior mean of v, for the trace and the training π
    let mut mean = vec![0.0; setup.m];
    for v in &all {
        for (a, x) in mean.iter_mut().zip(v.iter()) {
            *a += x / all.len() as f64;
        }
    }
    let mu = setup.b().at_v(&mean);
    let vs = valid.and_then(|v| setup.validation(&p.model, p.bag_rule, v, &mean, r.as_ref()));
    // one trace entry for the whole run; without validation tracking no snapshot is taken
    let mut tracker = Tracker::new(p, false);
    let snap = Snapshot {
        m_w: mean,
        r: r.clone(),
        pi: instance_probs(&mu),
        kernel: setup.kernel,
    };
    tracker.step(
        EpochRecord {
            epoch: 0,
            objective: None,
            valid: vs,
            started: Instant::now(),
            mu: &mu,
            dlocal: 0.0,
            kernel: None,
        },
        || snap.clone(),
    );
    tracker.trace[0].seconds = run.diagnostics.seconds;
    let mut out = finish(p, setup, snap, tracker, train, Vec::new(), Vec::new())?;
    out.model.set_draws(stored, run.diagnostics);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ∫ g(x) N(x; μ, 1) over a region by the trapezoid rule on a fine grid.
    fn integrate(mu: f64, lo: f64, hi: f64, g: impl Fn(f64) -> f64) -> f64 {
        let k = 200_000;
        let (a, b) = (lo.max(mu - 12.0), hi.min(mu + 12.0));
        if a >= b {
            return 0.0;
        }
        let h = (b - a) / k as f64;
        let mut s = 0.0;
        for t in 0..=k {
            let x = a + t as f64 * h;
            let w = if t == 0 || t == k { 0.5 } else { 1.0 };
            s += w * g(x) * (ln_pdf(x - mu)).exp();
        }
        s * h
    }

    #[test]
    fn log_ndtr_matches_integration_and_tails() {
        for x in [-8.0, -3.0, -0.5, 0.0, 0.7, 4.0] {
            let want = integrate(0.0, f64::NEG_INFINITY, x, |_| 1.0).ln();
            assert!((log_ndtr(x) - want).abs() < 1e-6, "{x}");
        }
        // continuity at the switch to the asymptotic series
        assert!((log_ndtr(-30.0 + 1e-9) - log_ndtr(-30.0 - 1e-9)).abs() < 1e-6);
        // far tails: log Φ(−40) ≈ −804.608 (mpmath), log Φ(40) ≈ −Φ(−40)
        assert!((log_ndtr(-40.0) - -804.608_442_013_754_7).abs() < 1e-6);
        assert!(log_ndtr(40.0) <= 0.0 && log_ndtr(40.0) > -1e-300);
        assert!((log_ndtr(-10.0) - (7.619_853_024_160_527e-24f64).ln()).abs() < 1e-9);
    }

    #[test]
    fn truncated_normal_moments_match_integration() {
        for mu in [-40.0, -6.0, -1.0, 0.0, 1.0, 5.0, 12.0, 40.0] {
            // E[m | m < 0]
            let z = integrate(mu, f64::NEG_INFINITY, 0.0, |_| 1.0);
            if z > 1e-250 {
                let want = integrate(mu, f64::NEG_INFINITY, 0.0, |x| x) / z;
                assert!(
                    (trunc_mean_below_zero(mu) - want).abs() < 1e-6 * (1.0 + want.abs()),
                    "μ={mu}"
                );
            }
            let s = trunc_mean_below_zero(mu);
            assert!(s < 0.0 && s.is_finite(), "μ={mu}: {s}");
        }
        // μ = 40: E[m | m < 0] → −1/40 asymptotically
        assert!((trunc_mean_below_zero(40.0) - -0.02494).abs() < 1e-4);
    }

    #[test]
    fn positive_bag_expectation_matches_enumeration() {
        // two instances: E[m_1] under N(μ, I) restricted to "not both negative", by integration
        for (a, b) in [(0.3, -1.2), (-3.0, -4.0), (2.0, 1.0), (-25.0, -30.0)] {
            let mut out = [0.0; 2];
            let lz = bag_expectations(&[a, b], true, &mut out);
            let pa = ndtr(-a);
            let pb = ndtr(-b);
            // E[m1 · 1[not both < 0]] = μ_a − E[m1 1[m1<0]] Φ(−b)
            let e_m1_neg = integrate(a, f64::NEG_INFINITY, 0.0, |x| x);
            let z = 1.0 - pa * pb;
            if z > 1e-12 {
                let want = (a - e_m1_neg * pb) / z;
                assert!(
                    (out[0] - want).abs() < 1e-6 * (1.0 + want.abs()),
                    "({a},{b}): {} vs {want}",
                    out[0]
                );
                assert!((lz - z.ln()).abs() < 1e-8);
            } else {
                // deep tail: E[m_1] is above μ_1 and finite; Z ≈ Φ(a) + Φ(b)
                assert!(out[0].is_finite() && out[0] > a);
                assert!((lz - (ndtr(a) + ndtr(b)).ln()).abs() < 1e-6);
            }
        }
        // a single-instance positive bag: E[m | m > 0] = μ + φ(μ)/Φ(μ)
        let mut one = [0.0];
        bag_expectations(&[-2.0], true, &mut one);
        let want = -2.0 + (ln_pdf(-2.0)).exp() / ndtr(-2.0);
        assert!((one[0] - want).abs() < 1e-10);
    }

    #[test]
    fn tail_sampler_has_the_truncated_moments() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for a in [-1.0, 0.3, 2.0, 10.0] {
            let n = 100_000;
            let xs: Vec<f64> = (0..n)
                .map(|_| sample_std_trunc_below(&mut rng, a))
                .collect();
            assert!(xs.iter().all(|&x| x > a));
            let mean = xs.iter().sum::<f64>() / n as f64;
            // E[x | x > a] = φ(a)/Φ(−a)
            let want = (ln_pdf(a) - log_ndtr(-a)).exp();
            assert!((mean - want).abs() < 0.01, "a={a}: {mean} vs {want}");
        }
    }

    #[test]
    fn r_hat_detects_disagreeing_chains() {
        let same: Vec<Vec<f64>> = (0..4)
            .map(|c| (0..200).map(|t| ((t * 7 + c * 3) % 11) as f64).collect())
            .collect();
        assert!(split_r_hat(&same) < 1.05);
        let apart: Vec<Vec<f64>> = (0..4)
            .map(|c| {
                (0..200)
                    .map(|t| c as f64 * 10.0 + ((t % 5) as f64))
                    .collect()
            })
            .collect();
        assert!(split_r_hat(&apart) > 2.0);
    }
}
