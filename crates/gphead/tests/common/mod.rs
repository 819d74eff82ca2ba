//! Synthetic MIL data shared by the GP-head tests.
#![allow(dead_code)]

use gphead::MilData;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// Bags of 5–15 instances in D = 8; negatives ~ N(0, I); positives ~ N(3·e, I) along a fixed
/// direction e; a positive bag holds 1–4 positives.
pub fn synthetic(bags: usize, seed: u64) -> MilData {
    let d = 8;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dir: Vec<f64> = {
        let v: Vec<f64> = (0..d).map(|_| rng.sample(StandardNormal)).collect();
        let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    };
    let (mut x, mut bn, mut bl, mut il, mut names) = (vec![], vec![], vec![], vec![], vec![]);
    for b in 0..bags {
        let label = (b % 2) as u8;
        let n = rng.random_range(5..=15);
        let k = if label == 1 {
            rng.random_range(1..=4usize)
        } else {
            0
        };
        for i in 0..n {
            let pos = i < k;
            for dj in &dir {
                let e: f64 = rng.sample(StandardNormal);
                x.push(e + if pos { 3.0 * dj } else { 0.0 });
            }
            bn.push(format!("bag{b}"));
            bl.push(label);
            il.push(u8::from(pos));
            names.push(format!("bag{b}/{i}"));
        }
    }
    MilData::from_instances(d, x, bn, bl, Some(il), names).unwrap()
}

/// Bags of one N(0, I) instance in D = 2 whose labels (alternating) carry no signal at all.
pub fn noise(bags: usize, seed: u64) -> MilData {
    let d = 2;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x: Vec<f64> = (0..bags * d).map(|_| rng.sample(StandardNormal)).collect();
    let names: Vec<String> = (0..bags).map(|b| format!("bag{b}")).collect();
    let labels: Vec<u8> = (0..bags).map(|b| (b % 2) as u8).collect();
    MilData::from_instances(d, x, names.clone(), labels, None, names).unwrap()
}
