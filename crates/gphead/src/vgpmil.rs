//! ψ-VGPMIL (MODELS.md §3): one training loop, generic over θ, for VGPMIL and G-VGPMIL.
//!
//! The loop works in whitened coordinates. With `K_zz = L Lᵀ` and `B = L⁻¹ K_zx` (M×N):
//! `u = L v`, `q(v) = N(m_w, S_w)`, so `m = L m_w`, `S = L S_w Lᵀ` and `A = L⁻ᵀ B`. Then
//! `μ = Bᵀ m_w`, `σ² = k̃ + diag(Bᵀ S_w B)`, `S_w = (I + B Θ Bᵀ)⁻¹ = (R Rᵀ)⁻¹` and
//! `m_w = S_w B (π − ½)` — the same updates as eqs. 23–28 (S = (AΘAᵀ + K_zz⁻¹)⁻¹ and
//! m = S A (π − ½)), with one Cholesky of a well-conditioned matrix (≥ I) per epoch and no inverse.

use faer::Mat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::data::MilData;
use crate::error::Result;
use crate::fitloop::{
    bag_term_and_entropy, finish, kl_whitened, max_abs_diff, quad_diag, run_epochs, solve_mean,
    update_pi, Cov, Epoch, FitOutput, Setup, Snapshot,
};
use crate::linalg::cholesky;
use crate::params::ValidParams;
use crate::theta::Psi;

/// The variational state the objective is evaluated at.
struct State<'a> {
    mu: &'a [f64],
    c: &'a [f64],
    pi: &'a [f64],
    m_w: &'a [f64],
    r: &'a Mat<f64>,
}

/// The state's ELBO (up to a constant): Σ(π−½)μ + Σ log ψ(c) + log H Σ_b (2T−1) E\[max y_b\]
/// plus the entropy of q(y), minus KL(q(u) ‖ p(u)).
fn objective<P: Psi>(psi: &P, data: &MilData, h: f64, st: &State<'_>) -> f64 {
    let State { mu, c, pi, m_w, r } = *st;
    let fit: f64 = (0..data.n)
        .map(|n| (pi[n] - 0.5) * mu[n] + psi.log_psi(c[n]))
        .sum();
    fit + bag_term_and_entropy(data, h, pi) - kl_whitened(m_w, r)
}

/// Fits VGPMIL or G-VGPMIL (ψ given) on `train`, early-stopping on `valid` bag AUC when given.
pub(crate) fn fit_psi<P: Psi>(
    psi: &P,
    p: &ValidParams,
    train: &MilData,
    valid: Option<&MilData>,
) -> Result<FitOutput> {
    let mut setup = Setup::new(p, train, valid)?;
    let m = setup.m;
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    let mut pi: Vec<f64> = (0..train.n).map(|_| rng.random_range(0.0..0.1)).collect();
    let pi_initial = pi.clone();
    // q(u) = p(u): m_w = 0, S_w = I; π ~ U(0, 0.1)
    let (mut m_w, mut cov) = (vec![0.0; m], Cov::Identity);
    let log_h = p.h.ln();
    let (best, tracker) = run_epochs(p, &mut setup, valid, |epoch, setup| {
        let b = setup.b();
        // 1. moments of q(f) under the current q(u)
        let mu = b.at_v(&m_w);
        let quad = quad_diag(&cov, b);
        let c: Vec<f64> = (0..train.n)
            .map(|n| (mu[n] * mu[n] + setup.ktilde[n] + quad[n]).sqrt())
            .collect();
        let objective = match &cov {
            Cov::Chol(r) => Some(objective(
                psi,
                train,
                p.h,
                &State {
                    mu: &mu,
                    c: &c,
                    pi: &pi,
                    m_w: &m_w,
                    r,
                },
            )),
            _ => None,
        };
        // 2. Θ
        let theta: Vec<f64> = c.iter().map(|&c| psi.theta(c)).collect();
        // 3. S_w = (I + BΘBᵀ)⁻¹ through its Cholesky factor
        let q = b.identity_plus_weighted_gram(&theta);
        let (r, _) = cholesky(q.as_ref(), p.jitter, "precision of q(u)")?;
        // 4. m_w = S_w B (π − ½)
        let centred: Vec<f64> = pi.iter().map(|v| v - 0.5).collect();
        m_w = solve_mean(b, &r, &centred);
        // 5. π with μ from the new m
        let mu_new = b.at_v(&m_w);
        let new_pi = update_pi(train, &pi, &mu_new, log_h, p.emax);
        let dpi = max_abs_diff(&pi, &new_pi);
        pi = new_pi;
        cov = Cov::Chol(r.clone());
        // 6. (optional) kernel hyper-parameters, q(u) held fixed in u-space
        let mut kernel = None;
        if let Some(ks) = p.kernel_steps.filter(|ks| epoch >= ks.warmup) {
            let theta_now: Vec<f64> = {
                let quad = quad_diag(&cov, setup.b());
                (0..train.n)
                    .map(|n| psi.theta((mu_new[n] * mu_new[n] + setup.ktilde[n] + quad[n]).sqrt()))
                    .collect()
            };
            crate::hyper::update_kernel(setup, &m_w, &r, &pi, &theta_now, ks, p.jitter)?;
            kernel = Some(setup.kernel);
        }
        Ok(Epoch {
            objective,
            state: Snapshot {
                m_w: m_w.clone(),
                r,
                pi: pi.clone(),
                kernel: setup.kernel,
            },
            mu: mu_new,
            dlocal: dpi,
            kernel,
        })
    })?;
    finish(p, setup, best, tracker, train, pi_initial, Vec::new())
}
