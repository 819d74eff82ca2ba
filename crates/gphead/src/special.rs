//! Special functions, in one place: the logistic and its inverse, the standard normal density and
//! distribution function (with a log form accurate in both tails), the mean of a truncated normal,
//! and Jaakkola's λ.

const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// σ(x) = 1 / (1 + e^{−x}), without overflow for large |x|.
pub fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// logit(p) = log(p / (1 − p)), with p clamped to [1e-9, 1 − 1e-9].
pub fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    (p / (1.0 - p)).ln()
}

/// log φ(x), the standard normal log-density.
pub fn ln_pdf(x: f64) -> f64 {
    -0.5 * x * x - LN_SQRT_2PI
}

/// Φ(x).
pub fn ndtr(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// log Φ(x), accurate in both tails (|x| up to 1e150).
pub fn log_ndtr(x: f64) -> f64 {
    if x > 0.0 {
        (-0.5 * libm::erfc(x / std::f64::consts::SQRT_2)).ln_1p()
    } else if x > -30.0 {
        (0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)).ln()
    } else {
        // asymptotic series: Φ(x) = φ(x)/(−x) · (1 − 1/x² + 3/x⁴ − 15/x⁶ + …)
        let x2 = x * x;
        ln_pdf(x) - (-x).ln() + (1.0 - 1.0 / x2 + 3.0 / (x2 * x2) - 15.0 / (x2 * x2 * x2)).ln()
    }
}

/// `S(μ) = E[m | m < 0]` for m ~ N(μ, 1): `μ − φ(μ)/Φ(−μ)` (inverse Mills ratio in log space).
pub fn trunc_mean_below_zero(mu: f64) -> f64 {
    mu - (ln_pdf(mu) - log_ndtr(-mu)).exp()
}

/// Jaakkola's `λ(ξ) = tanh(ξ/2)/(4ξ)`, with its limit 1/8 at 0.
pub fn lambda(xi: f64) -> f64 {
    let x = xi.abs();
    if x < 1e-2 {
        let x2 = x * x / 4.0;
        0.125 * (1.0 - x2 / 3.0 + 2.0 * x2 * x2 / 15.0)
    } else {
        (x / 2.0).tanh() / (4.0 * x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_by_hand() {
        assert_eq!(sigmoid(0.0), 0.5);
        assert!((sigmoid(2.0) - 1.0 / (1.0 + (-2.0f64).exp())).abs() < 1e-16);
        assert!((sigmoid(-800.0)).abs() < 1e-300 && sigmoid(800.0) == 1.0);
        assert!((logit(sigmoid(1.3)) - 1.3).abs() < 1e-12);
        assert_eq!(ndtr(0.0), 0.5);
        // Φ(1.96) = 0.9750021048517795 (tables)
        assert!((ndtr(1.96) - 0.975_002_104_851_779_5).abs() < 1e-15);
        assert!((log_ndtr(-40.0) - (-804.608_442_013_754)).abs() < 1e-9);
        assert!((log_ndtr(1.0) - ndtr(1.0).ln()).abs() < 1e-15);
        assert_eq!(lambda(0.0), 0.125);
        // E[m | m < 0] for μ = 0 is −φ(0)/Φ(0) = −√(2/π)
        assert!((trunc_mean_below_zero(0.0) + (2.0 / std::f64::consts::PI).sqrt()).abs() < 1e-14);
    }
}
