//! LM-VGPMIL (Haußmann, Hamprecht, Kandemir, CVPR 2017, supplement §2; MODELS.md §6): a large
//! margin variant of VGPMIL with C, V and a second Bernoulli g_n ~ Ber(τ_n), two local bounds
//! ξ_n, φ_n, `λ(ξ) = tanh(ξ/2)/(4ξ)`. Same whitened loop as ψ-VGPMIL:
//! `S_w = (I + B Λ Bᵀ)⁻¹`, `m_w = S_w B r` with
//! `r_n = C(2π_n−1)(τ_n−½) + 2C²λ(ξ_n)(2π_n−1)V + τ_n(π_n−½)`.
//! Instance probabilities are σ(f*), as for VGPMIL.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::data::MilData;
use crate::error::Result;
use crate::fitloop::{
    finish, max_abs_diff, quad_diag, run_epochs, solve_mean, update_pi, Cov, Epoch, FitOutput,
    Setup, Snapshot,
};
use crate::linalg::cholesky;
use crate::params::ValidParams;
use crate::special::{lambda, sigmoid};

/// Initial local variables: π ~ U(0, 0.1) (seeded), τ = ½, ξ = φ = 1.
pub const TAU0: f64 = 0.5;
pub const XI0: f64 = 1.0;

pub(crate) fn fit_lm(
    c: f64,
    v: f64,
    p: &ValidParams,
    train: &MilData,
    valid: Option<&MilData>,
) -> Result<FitOutput> {
    let mut setup = Setup::new(p, train, valid)?;
    let n = train.n;
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    let mut pi: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..0.1)).collect();
    let pi_initial = pi.clone();
    let mut tau = vec![TAU0; n];
    let mut xi = vec![XI0; n];
    let mut phi = vec![XI0; n];
    let log_h = p.h.ln();
    let (best, tracker) = run_epochs(p, &mut setup, valid, |_, setup| {
        let b = setup.b();
        // q(u): Λ and r from the current local variables
        let lam: Vec<f64> = (0..n)
            .map(|i| 2.0 * (lambda(xi[i]) * c * c + lambda(phi[i]) * tau[i]))
            .collect();
        let q = b.identity_plus_weighted_gram(&lam);
        let (r, _) = cholesky(q.as_ref(), p.jitter, "precision of q(u)")?;
        let rhs: Vec<f64> = (0..n)
            .map(|i| {
                let s = 2.0 * pi[i] - 1.0;
                c * s * (tau[i] - 0.5)
                    + 2.0 * c * c * lambda(xi[i]) * s * v
                    + tau[i] * (pi[i] - 0.5)
            })
            .collect();
        let m_w = solve_mean(b, &r, &rhs);
        // moments of q(f) under the new q(u)
        let mu = b.at_v(&m_w);
        let quad = quad_diag(&Cov::Chol(r.clone()), b);
        let f2: Vec<f64> = (0..n)
            .map(|i| mu[i] * mu[i] + setup.ktilde[i] + quad[i])
            .collect();
        // τ
        let new_tau: Vec<f64> = (0..n)
            .map(|i| {
                let s = 2.0 * pi[i] - 1.0;
                sigmoid(c * (s * mu[i] - v) + mu[i] * (pi[i] - 0.5) - lambda(phi[i]) * f2[i])
            })
            .collect();
        // π (E[max] from the previous π, as in ψ-VGPMIL)
        let drive: Vec<f64> = (0..n)
            .map(|i| {
                2.0 * new_tau[i] * c * mu[i] - c * mu[i]
                    + 4.0 * lambda(xi[i]) * c * c * mu[i] * v
                    + mu[i] * new_tau[i]
            })
            .collect();
        let new_pi = update_pi(train, &pi, &drive, log_h, p.emax);
        // ξ, φ
        for i in 0..n {
            let s = 2.0 * new_pi[i] - 1.0;
            xi[i] = (c * c * (f2[i] - 2.0 * s * mu[i] * v + v * v))
                .max(0.0)
                .sqrt();
            phi[i] = (f2[i] * new_tau[i]).max(0.0).sqrt();
        }
        let d = max_abs_diff(&pi, &new_pi).max(max_abs_diff(&tau, &new_tau));
        pi = new_pi;
        tau = new_tau;
        Ok(Epoch {
            objective: None,
            state: Snapshot {
                m_w,
                r,
                pi: pi.clone(),
                kernel: setup.kernel,
            },
            mu,
            dlocal: d,
            kernel: None,
        })
    })?;
    let local = vec![("tau", tau), ("xi", xi), ("phi", phi)];
    finish(p, setup, best, tracker, train, pi_initial, local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lambda_is_half_the_pg_theta() {
        // λ(ξ) = θ_PG(ξ)/2 and λ(0) = 1/8
        assert_eq!(lambda(0.0), 0.125);
        for x in [1e-3, 0.5, 2.0, 9.0] {
            assert!((lambda(x) - crate::spec::Model::Vgpmil.theta(x).unwrap() / 2.0).abs() < 1e-12);
        }
    }
}
