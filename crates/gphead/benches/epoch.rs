//! Benchmark: ψ-VGPMIL set-up and epoch time, and peak memory, at N = 40,000 instances in 1,000
//! bags, D = 128, M = 200 (the targets of the GP-head issue: epoch ≤ 0.1 s, set-up ≤ 2 s, peak
//! memory ≤ 500 MB on 2 cores). Run: `cargo bench -p gphead --bench epoch [-- N BAGS D M EPOCHS
//! KERNEL B_MIB]` (KERNEL = 1: the kernel hyper-parameter steps of `ich fit-gp`'s default, 5 per
//! epoch after 2 epochs, in the fits whose peak memory is reported; B_MIB: the fits' memory for B,
//! `FitParams::b_memory` in MiB, 256 by default, 0 to recompute it a block at a time).

use std::time::Instant;

use gphead::{fit, FitParams, MilData, Model};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<f64>().ok())
            })
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

/// `bags` bags of `n / bags` instances in D dimensions, N(0, I); in every other bag the first
/// `shifted` instances are shifted by 1.5 (the positives).
fn bags_data(n: usize, bags: usize, d: usize, shifted: usize, seed: u64) -> MilData {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let per = n / bags;
    let mut x = Vec::with_capacity(n * d);
    let (mut bn, mut bl, mut names) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..bags {
        let label = (b % 2) as u8;
        for i in 0..per {
            let shift = if label == 1 && i < shifted { 1.5 } else { 0.0 };
            for _ in 0..d {
                x.push(rng.sample::<f64, _>(StandardNormal) + shift);
            }
            bn.push(format!("b{b}"));
            bl.push(label);
            names.push(format!("b{b}/{i}"));
        }
    }
    MilData::from_instances(d, x, bn, bl, None, names).unwrap()
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let get = |i: usize, d: usize| args.get(i).copied().unwrap_or(d);
    let (n, bags, d, m, epochs) = (
        get(0, 40_000),
        get(1, 1_000),
        get(2, 128),
        get(3, 200),
        get(4, 10),
    );
    let kernel = get(5, 0) == 1;
    let b_memory = get(6, gphead::params::DEFAULT_B_MEMORY >> 20) << 20;
    let data = bags_data(n, bags, d, 3, 0);
    println!(
        "N = {}, bags = {bags}, D = {d}, M = {m}, threads = {}, B {} (b_memory {} MiB)",
        data.n,
        rayon::current_num_threads(),
        if data.n * m * 8 <= b_memory {
            "held"
        } else {
            "recomputed per block"
        },
        b_memory >> 20
    );
    for link in [
        Model::Vgpmil,
        Model::GVgpmil {
            alpha: 1.0,
            beta: 1.0,
        },
    ] {
        let p = FitParams {
            model: link,
            inducing: m,
            max_epochs: epochs,
            tol: 0.0,
            kernel_steps: kernel.then(|| gphead::hyper::KernelSteps {
                warmup: 2,
                ..Default::default()
            }),
            b_memory,
            ..FitParams::default()
        };
        let t = Instant::now();
        let out = fit(&p, &data, None).unwrap();
        let total = t.elapsed().as_secs_f64();
        let mut ep: Vec<f64> = out.trace.iter().map(|e| e.seconds).collect();
        ep.sort_by(f64::total_cmp);
        println!(
            "{:<26} set-up {:.3} s | epoch median {:.4} s (min {:.4}, max {:.4}, {} epochs) | total {:.2} s",
            link.name(),
            out.setup_seconds,
            ep[ep.len() / 2],
            ep[0],
            ep[ep.len() - 1],
            ep.len(),
            total
        );
    }
    println!("peak memory (VmHWM) {:.0} MB", peak_rss_mb());
    kernel_step_benchmark();
}

/// The kernel hyper-parameter step at N = 1,000, M = 50 (D = 8; the authors' JAX code: 4–6 s per
/// epoch for this step) and at the size of an RSNA half's fit (N = 2,100 in 60 bags, D = 8,
/// M = 200): epoch time with and without 5 gradient steps per epoch.
fn kernel_step_benchmark() {
    for (n, bags, d, m) in [(1000, 100, 8, 50), (2100, 60, 8, 200)] {
        kernel_step(n, bags, d, m);
    }
}

fn kernel_step(n: usize, bags: usize, d: usize, m: usize) {
    use gphead::hyper::KernelSteps;
    let data = bags_data(n, bags, d, 2, 1);
    let epochs = 20;
    let base = FitParams {
        inducing: m,
        max_epochs: epochs,
        tol: 0.0,
        ..FitParams::default()
    };
    let steps = KernelSteps {
        warmup: 0,
        ..KernelSteps::default()
    };
    let med = |p: &FitParams| {
        let out = fit(p, &data, None).unwrap();
        let mut ep: Vec<f64> = out.trace.iter().map(|e| e.seconds).collect();
        ep.sort_by(f64::total_cmp);
        ep[ep.len() / 2]
    };
    let plain = med(&base);
    let tuned = med(&FitParams {
        kernel_steps: Some(steps),
        ..base
    });
    println!(
        "kernel estimation, N = {n}, M = {m}, D = {d}, {} steps/epoch: epoch {:.4} s with, {:.4} s without → the kernel step takes {:.4} s",
        steps.steps,
        tuned,
        plain,
        tuned - plain
    );
}
