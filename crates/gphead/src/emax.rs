//! E[max{y}_{b∖n}]: the expected maximum of the other instances of a bag (MODELS.md §3 step 5).

use serde::{Deserialize, Serialize};

/// How E[max{y}_{b∖n}] is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum EmaxRule {
    /// The paper: `1 − Π_{j≠n}(1 − π_j)`, exact (per-bag log sums, leave-one-out, factors with
    /// π_j = 1 counted apart).
    #[default]
    Product,
    /// The upstream code: the leave-one-out maximum of π over the bag.
    LooMax,
}

/// `1 − E[max{y}_{b∖n}]` for every instance of one bag, given its π.
pub fn one_minus_emax(pi: &[f64], rule: EmaxRule, out: &mut [f64]) {
    match rule {
        EmaxRule::Product => {
            let mut log_sum = 0.0;
            let mut ones = 0usize;
            for &p in pi {
                if p >= 1.0 {
                    ones += 1;
                } else {
                    log_sum += (-p).ln_1p();
                }
            }
            for (o, &p) in out.iter_mut().zip(pi) {
                let (others_ones, others_log) = if p >= 1.0 {
                    (ones - 1, log_sum)
                } else {
                    (ones, log_sum - (-p).ln_1p())
                };
                *o = if others_ones > 0 {
                    0.0
                } else {
                    others_log.exp()
                };
            }
        }
        EmaxRule::LooMax => {
            // top two values give every leave-one-out max
            let (mut best, mut second, mut arg) =
                (f64::NEG_INFINITY, f64::NEG_INFINITY, usize::MAX);
            for (j, &p) in pi.iter().enumerate() {
                if p > best {
                    second = best;
                    best = p;
                    arg = j;
                } else if p > second {
                    second = p;
                }
            }
            for (j, o) in out.iter_mut().enumerate() {
                let m = if j == arg { second } else { best };
                // a bag of one instance: the others' max is 0
                *o = 1.0 - if m.is_finite() { m } else { 0.0 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// E[max of independent Bernoullis] by enumerating all 2^k outcomes.
    fn brute_emax(pi: &[f64]) -> f64 {
        let k = pi.len();
        let mut e = 0.0;
        for mask in 0u32..(1 << k) {
            let mut p = 1.0;
            for (j, &q) in pi.iter().enumerate() {
                p *= if mask & (1 << j) != 0 { q } else { 1.0 - q };
            }
            e += p * if mask != 0 { 1.0 } else { 0.0 };
        }
        e
    }

    #[test]
    fn product_rule_matches_enumeration() {
        let bags: [&[f64]; 5] = [
            &[0.3],
            &[0.1, 0.9],
            &[0.2, 0.5, 0.7, 0.05],
            &[1.0, 0.3, 0.6],
            &[1.0, 1.0, 0.2],
        ];
        for pi in bags {
            let mut out = vec![0.0; pi.len()];
            one_minus_emax(pi, EmaxRule::Product, &mut out);
            for n in 0..pi.len() {
                let others: Vec<f64> = pi
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != n)
                    .map(|(_, p)| *p)
                    .collect();
                let want = 1.0 - brute_emax(&others);
                assert!(
                    (out[n] - want).abs() < 1e-12,
                    "{pi:?} n={n}: {} vs {want}",
                    out[n]
                );
            }
        }
    }

    #[test]
    fn product_rule_with_pi_one_is_exact() {
        // one instance at π = 1: the others see max = 1 exactly; it sees the rest
        let mut out = vec![0.0; 3];
        one_minus_emax(&[1.0, 0.5, 0.5], EmaxRule::Product, &mut out);
        assert_eq!(out, vec![0.25, 0.0, 0.0]);
    }

    #[test]
    fn loo_max_rule() {
        let mut out = vec![0.0; 4];
        one_minus_emax(&[0.2, 0.9, 0.4, 0.9], EmaxRule::LooMax, &mut out);
        // ties: the other 0.9 remains
        assert!(out.iter().all(|o| (o - 0.1).abs() < 1e-15), "{out:?}");
        one_minus_emax(&[0.2, 0.9, 0.4, 0.1], EmaxRule::LooMax, &mut out);
        assert!((out[1] - 0.6).abs() < 1e-15 && (out[0] - 0.1).abs() < 1e-15);
        let mut one = vec![0.0];
        one_minus_emax(&[0.7], EmaxRule::LooMax, &mut one);
        assert_eq!(one, vec![1.0]);
    }
}
