//! Platt scaling of bag probabilities on validation bags: `p' = σ(a · logit(p) + b)`, fitted by
//! Newton's method on the log-loss (a small ridge keeps it defined on separable data).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Platt {
    pub a: f64,
    pub b: f64,
}

use crate::special::{logit, sigmoid};

impl Platt {
    pub const IDENTITY: Platt = Platt { a: 1.0, b: 0.0 };

    pub fn apply(&self, p: f64) -> f64 {
        sigmoid(self.a * logit(p) + self.b)
    }

    /// Fits a and b on (label, probability) pairs.
    pub fn fit(labels: &[u8], p: &[f64]) -> Platt {
        let x: Vec<f64> = p.iter().map(|&p| logit(p)).collect();
        let (mut a, mut b) = (1.0, 0.0);
        let ridge = 1e-3;
        let loss = |a: f64, b: f64| -> f64 {
            let nll: f64 = labels
                .iter()
                .zip(&x)
                .map(|(&h, &xi)| {
                    let z = a * xi + b;
                    // −log σ(z) = softplus(−z), −log(1 − σ(z)) = softplus(z)
                    let sp = |t: f64| {
                        if t > 0.0 {
                            t + (-t).exp().ln_1p()
                        } else {
                            t.exp().ln_1p()
                        }
                    };
                    if h == 1 {
                        sp(-z)
                    } else {
                        sp(z)
                    }
                })
                .sum();
            nll + 0.5 * ridge * ((a - 1.0).powi(2) + b * b)
        };
        let mut current = loss(a, b);
        for _ in 0..100 {
            // gradient and Hessian of Σ −log-lik + ridge/2 ((a−1)² + b²)
            let (mut ga, mut gb, mut haa, mut hab, mut hbb) =
                (ridge * (a - 1.0), ridge * b, ridge, 0.0, ridge);
            for (&h, &xi) in labels.iter().zip(&x) {
                let q = sigmoid(a * xi + b);
                let r = q - h as f64;
                ga += r * xi;
                gb += r;
                let w = q * (1.0 - q);
                haa += w * xi * xi;
                hab += w * xi;
                hbb += w;
            }
            let det = haa * hbb - hab * hab;
            if det.abs() < 1e-300 {
                break;
            }
            let da = (hbb * ga - hab * gb) / det;
            let db = (haa * gb - hab * ga) / det;
            // Newton step, halved until the loss decreases
            let mut t = 1.0;
            let mut moved = false;
            while t > 1e-8 {
                let (na, nb) = (a - t * da, b - t * db);
                let l = loss(na, nb);
                if l <= current {
                    (a, b, current) = (na, nb, l);
                    moved = true;
                    break;
                }
                t /= 2.0;
            }
            if !moved || (t * (da.abs() + db.abs())) < 1e-10 {
                break;
            }
        }
        Platt { a, b }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::log_likelihood;

    #[test]
    fn recovers_a_known_distortion() {
        // true probability q; the model reports p with logit(p) = 3·logit(q) − 1 (overconfident)
        let mut labels = Vec::new();
        let mut p = Vec::new();
        for i in 0..2000 {
            let q = (i as f64 + 0.5) / 2000.0;
            // deterministic labels with frequency q in each small window
            labels.push(u8::from(((i * 7919) % 1000) as f64 / 1000.0 < q));
            p.push(sigmoid(3.0 * logit(q) - 1.0));
        }
        let c = Platt::fit(&labels, &p);
        // inverse map: logit q = (logit p + 1)/3 → a = 1/3, b = 1/3
        assert!(
            (c.a - 1.0 / 3.0).abs() < 0.05 && (c.b - 1.0 / 3.0).abs() < 0.1,
            "{c:?}"
        );
        let cal: Vec<f64> = p.iter().map(|&v| c.apply(v)).collect();
        assert!(log_likelihood(&labels, &cal) > log_likelihood(&labels, &p));
        assert!((Platt::IDENTITY.apply(0.3) - 0.3).abs() < 1e-9);
    }
}
