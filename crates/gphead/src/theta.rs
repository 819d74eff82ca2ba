//! θ(c) of ψ-VGPMIL (one small trait over the two mixing densities) and the squashing function
//! from latent f to probability.
//!
//! The logistic is a Gaussian scale mixture with density ψ; the local bound gives
//! `θ(c) = −ψ'(c) / (c ψ(c))` (MODELS.md §3).

/// A mixing density ψ, through what the loop needs: θ(c) and log ψ(c) (up to a constant).
pub(crate) trait Psi: Sync {
    fn theta(&self, c: f64) -> f64;
    fn log_psi(&self, c: f64) -> f64;
}

/// Hyperbolic secant (VGPMIL, = PG-VGPMIL, = Jaakkola's 2λ(ξ)): ψ(c) = sech(c/2).
pub(crate) struct HyperbolicSecant;

impl Psi for HyperbolicSecant {
    fn theta(&self, c: f64) -> f64 {
        let c = c.abs();
        if c < 1e-2 {
            // tanh(x)/x = 1 − x²/3 + 2x⁴/15 − 17x⁶/315 + …, x = c/2
            let x2 = c * c / 4.0;
            0.25 * (1.0 - x2 / 3.0 + 2.0 * x2 * x2 / 15.0 - 17.0 * x2 * x2 * x2 / 315.0)
        } else {
            (c / 2.0).tanh() / (2.0 * c)
        }
    }
    fn log_psi(&self, c: f64) -> f64 {
        // −log cosh(c/2), stable for large |c|
        let a = (c / 2.0).abs();
        -(a + (-2.0 * a).exp().ln_1p() - std::f64::consts::LN_2)
    }
}

/// Gamma mixing density (G-VGPMIL): ψ(c) ∝ (β + c²/2)^(−α).
pub(crate) struct GammaMixing {
    pub alpha: f64,
    pub beta: f64,
}

impl Psi for GammaMixing {
    fn theta(&self, c: f64) -> f64 {
        self.alpha / (self.beta + c * c / 2.0)
    }
    fn log_psi(&self, c: f64) -> f64 {
        -self.alpha * (self.beta + c * c / 2.0).ln()
    }
}

/// Latent → probability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Squash {
    Logistic,
    Probit,
}

impl Squash {
    pub fn apply(self, f: f64) -> f64 {
        match self {
            Squash::Logistic => crate::special::sigmoid(f),
            Squash::Probit => crate::special::ndtr(f),
        }
    }
    /// E[squash(f)] for f ~ N(μ, σ²): exact for the probit, the probit approximation for the
    /// logistic.
    pub fn closed_form(self, mu: f64, var: f64) -> f64 {
        match self {
            Squash::Logistic => {
                crate::special::sigmoid(mu / (1.0 + std::f64::consts::PI * var / 8.0).sqrt())
            }
            Squash::Probit => crate::special::ndtr(mu / (1.0 + var).sqrt()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pg_theta_values_and_limit() {
        let p = HyperbolicSecant;
        assert_eq!(p.theta(0.0), 0.25);
        // by hand: c = 2 → tanh(1)/4
        assert!((p.theta(2.0) - 1f64.tanh() / 4.0).abs() < 1e-15);
        // the series and the closed form agree at the switch
        let a = p.theta(0.01 - 1e-12);
        let b = p.theta(0.01 + 1e-12);
        assert!((a - b).abs() < 1e-14, "{a} {b}");
        assert!((p.theta(1e-7) - 0.25).abs() < 1e-14);
        assert_eq!(p.theta(-3.0), p.theta(3.0));
    }

    #[test]
    fn gamma_theta_values_and_limit() {
        let g = GammaMixing {
            alpha: 1.0,
            beta: 2.5,
        };
        assert_eq!(g.theta(0.0), 1.0 / 2.5);
        assert!((g.theta(1.0) - 1.0 / 3.0).abs() < 1e-15); // 1/(2.5 + 0.5)
    }

    #[test]
    fn theta_is_minus_dlogpsi_over_c() {
        // θ(c) = −(d/dc log ψ(c)) / c, checked by central differences
        let h = 1e-5;
        for psi in [
            &HyperbolicSecant as &dyn Psi,
            &GammaMixing {
                alpha: 0.5,
                beta: 4.0,
            },
        ] {
            for c in [0.3, 1.0, 2.5, 7.0] {
                let d = (psi.log_psi(c + h) - psi.log_psi(c - h)) / (2.0 * h);
                assert!((psi.theta(c) - (-d / c)).abs() < 1e-8, "c={c}");
            }
        }
        // logistic identity: log σ(c) = c/2 + log ψ_PG(c) − log 2
        for c in [-5.0f64, 0.0, 0.7, 30.0] {
            let log_sig = -(-c).exp().ln_1p();
            let lhs = c / 2.0 + HyperbolicSecant.log_psi(c) - std::f64::consts::LN_2;
            assert!((lhs - log_sig).abs() < 1e-12, "c={c}");
        }
    }
}
