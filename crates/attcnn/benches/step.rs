//! Benchmark: seconds per training step (forward, backward, Adam; `training::batch_logits`, as
//! training runs it) for one 32-slice bag, at 256² and 512², on the backends this build has (flex;
//! ndarray, wgpu and cuda with their features). Prints one line per (backend, size). Before timing
//! a backend other than flex it checks that backend against flex: from the same weights (dropout
//! off), three passes over two bags of 5 and 3 slices with two Adam steps between them, as
//! training takes its steps, must give flex's logits; training's initial weights there must be
//! flex's, and burn's own initialisation drawn there must look like flex's draw; its dropout must
//! drop 30 % of the entries at random, and its uniform and normal draws must have their moments
//! (as flex's, checked when flex is timed). All checks run and the backend is timed whatever they
//! say (its line then says its checks failed); the bench fails after the timings if one failed.
//! `cargo bench -p attcnn --bench step [--features ndarray|wgpu|cuda] [-- SLICES STEPS [SIZE...]]`
//! (`STEP_SKIP_FLEX=1` times only the other backends, still checked against flex first;
//! `BENCH_BACKENDS=cuda` or `wgpu,cuda` runs only those; `BENCH_PRECISION=bf16|f16` trains
//! the timed backends in that float type, checked against flex in f32 within its rounding;
//! `STEP_WARMUP=N` takes N untimed steps first, default 1; `STEP_SKIP_CHECK=1` leaves the checks
//! against flex out, for timing a bare machine's first step from the process's start, which every
//! line reports; `ICH_FUSED_BN=0` trains with burn's batch norm instead of ours on a GPU).

use std::time::Instant;

/// The allocator of the `ich` binary (burn-flex allocates per operation; the allocator shows).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod common;
#[path = "common/precision.rs"]
mod precision;

use attcnn::training::{bag_tensor, batch_logits, weighted_bce};
use attcnn::AttCnnConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::Device;

/// Checks of the other backends against flex (built with `--features ndarray`, `wgpu` or `cuda`).
mod check {
    use attcnn::training::{bag_tensor, batch_logits, weighted_bce};
    use attcnn::{AttCnn, AttCnnConfig};
    use burn::optim::{AdamConfig, GradientsParams};
    use burn::tensor::{Device, Tensor, TensorData};

    /// The logits of three passes of `model` over two bags (the 8 slices split 5 + 3, so the
    /// shorter one is padded and masked), with an Adam step (lr 1e-3) on their class-weighted
    /// loss after each of the first two: a training step as `attcnn::training::train` takes it.
    fn trajectory(
        mut model: AttCnn,
        device: &Device,
        size: usize,
        px: &[u8],
        prec: attcnn::Precision,
    ) -> Vec<f32> {
        let mut optim = AdamConfig::new().init();
        let mut out = Vec::new();
        let y = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 0.0], [2]), device);
        let w = Tensor::<1>::from_data(TensorData::new(vec![0.8f32, 1.2], [2]), device);
        for step in 0..3 {
            let x = bag_tensor(px, 8, size, device).reshape([8, 3, size, size]);
            let logits = batch_logits(&model, x, &[5, 3], prec);
            out.extend(attcnn::host_f32(logits.clone()).expect("f32 logits"));
            if step < 2 {
                let loss = weighted_bce(logits, y.clone(), w.clone()).mean();
                let grads = GradientsParams::from_grads(loss.backward(), &model);
                model = optim.step(1e-3, model, grads);
            }
        }
        out
    }

    /// Trains the same weights on `base` and on flex and panics unless they agree.
    pub fn check_against_flex(name: &str, base: Device) -> Result<(), String> {
        let size = 64;
        let cfg = AttCnnConfig {
            size,
            dim: 8,
            conv_dropout: 0.0,
            head_dropout: 0.0,
            ..AttCnnConfig::default()
        };
        let flex = Device::flex().autodiff();
        let model = attcnn::training::init_on_host(&cfg, 1, &flex);
        let other = base.autodiff();
        let on_other = attcnn::training::init_on_host(&cfg, 1, &other);
        let px: Vec<u8> = (0..8 * 3 * size * size)
            .map(|i| (i * 37 % 253) as u8)
            .collect();
        let want = trajectory(model, &flex, size, &px, attcnn::Precision::F32);
        let got = trajectory(on_other, &other, size, &px, crate::precision::precision());
        let diff = want
            .iter()
            .zip(&got)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        // per pass: the two bags' logits
        println!(
            "check    {name} vs flex, two bags (5 + 3 slices), 3 passes and 2 Adam steps: logits {:?} vs {:?}, \
             largest difference {diff:.2e}",
            [want[0], want[2], want[4]],
            [got[0], got[2], got[4]]
        );
        if got.len() == want.len() && f64::from(diff) < crate::precision::tolerance(name) {
            Ok(())
        } else {
            Err(format!("{name}: disagrees with flex"))
        }
    }

    /// Every float parameter of a model, one vector per parameter, in visiting order.
    fn parameters(model: &AttCnn) -> Vec<Vec<f32>> {
        model.parameter_values().expect("f32 weights")
    }

    fn small_cfg() -> AttCnnConfig {
        AttCnnConfig {
            size: 64,
            dim: 8,
            ..AttCnnConfig::default()
        }
    }

    /// The weights training starts from on `base` (`attcnn::training::init_on_host`, drawn on the
    /// CPU and copied) must be flex's, bit for bit.
    pub fn check_initial_weights(name: &str, base: Device) -> Result<(), String> {
        let weights = |m: &AttCnn| parameters(m).concat();
        let cfg = small_cfg();
        let want = weights(&attcnn::training::init_on_host(
            &cfg,
            7,
            &Device::flex().autodiff(),
        ));
        let got = weights(&attcnn::training::init_on_host(&cfg, 7, &base.autodiff()));
        let same = got.len() == want.len() && got.iter().zip(&want).all(|(a, b)| a == b);
        println!(
            "check    {name} initial weights (init_on_host, seed 7): {} of {} equal to flex's",
            got.iter().zip(&want).filter(|(a, b)| a == b).count(),
            want.len()
        );
        if same {
            Ok(())
        } else {
            Err(format!(
                "{name}: training would not start from flex's weights"
            ))
        }
    }

    /// burn's own initialisation drawn on `base` itself (what training did before it drew on the
    /// CPU; on an H200 the demo did not learn from it): every parameter must look like flex's
    /// draw of it. Flex draws the model with 20 more seeds: a parameter they all give the same
    /// values (batch norm's ones and zeros, zero biases) is a constant, which `base` must give
    /// exactly; a random one must have nearly all values distinct, stay within 1.25 times the
    /// largest magnitude of flex's 21 draws (a one-value bias drawn uniformly on (−b, b) exceeds
    /// the largest of 21 draws' magnitudes × 1.25 only if that largest is below 0.8 b, which
    /// happens with probability 0.8²¹ ≈ 0.009) and, with 200 values or more, have a standard
    /// deviation within 20 % of flex's (a sample standard deviation of 200 uniform draws is off
    /// by 4.5 % on average, two of them by 6.3 %). These are small tensors, unlike the 262,144
    /// draws of `check_random`.
    pub fn check_device_initialisation(name: &str, base: Device) -> Result<(), String> {
        let cfg = small_cfg();
        let draw = |device: Device, seed: u64| {
            let device = device.autodiff();
            device.seed(seed);
            parameters(&cfg.init(&device))
        };
        let want = draw(Device::flex(), 11);
        let more: Vec<Vec<Vec<f32>>> = (12..32).map(|seed| draw(Device::flex(), seed)).collect();
        let got = draw(base, 11);
        let sd = |v: &[f32]| {
            let v: Vec<f64> = v.iter().map(|x| f64::from(*x)).collect();
            crate::moments(&v).1.sqrt()
        };
        let distinct = |v: &[f32]| {
            let mut b: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
            b.sort_unstable();
            b.dedup();
            b.len() as f64 / v.len() as f64
        };
        let mut bad = Vec::new();
        if got.len() != want.len() {
            bad.push(format!("{} parameters, flex {}", got.len(), want.len()));
        }
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            // a shape that differs, an empty parameter or a constant one: flex's values exactly
            let constant = more.iter().all(|m| m.get(i) == Some(w));
            let ok = if g.len() != w.len() || w.is_empty() || constant {
                g == w
            } else {
                let bound = more
                    .iter()
                    .filter_map(|m| m.get(i))
                    .chain([w])
                    .flatten()
                    .fold(0.0f32, |a, x| a.max(x.abs()))
                    * 1.25;
                g.iter().all(|x| x.abs() <= bound)
                    && distinct(g) > 0.9
                    && (w.len() < 200 || (sd(g) / sd(w) - 1.0).abs() < 0.2)
            };
            if !ok {
                bad.push(format!(
                    "parameter {i} ({} values): sd {:.4} vs {:.4}, {:.3} distinct, first {:?} vs {:?}",
                    g.len(),
                    sd(g),
                    sd(w),
                    distinct(g),
                    &g[..g.len().min(3)],
                    &w[..w.len().min(3)]
                ));
            }
        }
        println!(
            "check    {name} own initialisation (seed 11): {} of {} parameters unlike flex's draw{}",
            bad.len(),
            want.len(),
            if bad.is_empty() {
                String::new()
            } else {
                format!(": {}", bad.join("; "))
            }
        );
        if bad.is_empty() {
            Ok(())
        } else {
            Err(format!("{name}: its own initialisation is unlike flex's"))
        }
    }
}

/// burn's dropout on `base` in training mode (an autodiff device). The check against flex runs
/// with dropout off, training with it on: on a tensor of ones, p = 0.3 must zero 30 % of the
/// entries and scale the others by 1/0.7 (mean 1), and a second call must draw another mask
/// (2 · 0.3 · 0.7 = 42 % of the entries differ). 262,144 entries: each figure's standard
/// deviation is about 1e-3, its bound 1e-2.
fn check_dropout(name: &str, base: Device) -> Result<(), String> {
    let device = base.autodiff();
    let drop = burn::nn::DropoutConfig::new(0.3).init();
    let ones = burn::tensor::Tensor::<2>::ones([256, 1024], &device);
    let host = |t: burn::tensor::Tensor<2>| attcnn::host_f32(t).expect("f32 values");
    let a = host(drop.forward(ones.clone()));
    let b = host(drop.forward(ones));
    let n = a.len() as f64;
    let zeros = a.iter().filter(|v| **v == 0.0).count() as f64 / n;
    let mean = a.iter().map(|v| f64::from(*v)).sum::<f64>() / n;
    let differ = a
        .iter()
        .zip(&b)
        .filter(|(x, y)| (**x == 0.0) != (**y == 0.0))
        .count() as f64
        / n;
    println!(
        "check    {name} dropout p = 0.3 on ones: {zeros:.4} zeroed, mean {mean:.4}, \
         {differ:.4} of the entries differ between two calls"
    );
    if (zeros - 0.3).abs() < 1e-2 && (mean - 1.0).abs() < 1e-2 && (differ - 0.42).abs() < 1e-2 {
        Ok(())
    } else {
        Err(format!(
            "{name}: dropout does not drop 30 % of the entries at random"
        ))
    }
}

/// The mean and (population) variance of `v`.
fn moments(v: &[f64]) -> (f64, f64) {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    (
        m,
        v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64,
    )
}

/// burn's random draws on `base`, which dropout and burn's own initialisation draw there
/// (training initialises on the CPU, `attcnn::training::init_on_host`): after
/// `seed`, 262,144 draws of Uniform(-1, 1) must have mean 0 and variance 1/3, stay in [-1, 1),
/// be nearly all distinct and differ from the next draw; Normal(0, 1) must have mean 0 and
/// variance 1. Standard deviations of those figures: 1.1e-3 (uniform mean), 5.8e-4 (its
/// variance), 2.0e-3 (normal mean), 2.8e-3 (its variance); bounds 1e-2 and 2e-2.
fn check_random(name: &str, base: Device) -> Result<(), String> {
    use burn::tensor::{Distribution, Tensor};
    base.seed(5);
    let draw = |d: Distribution| -> Vec<f64> {
        attcnn::host_f32(Tensor::<2>::random([256, 1024], d, &base))
            .expect("f32 values")
            .into_iter()
            .map(f64::from)
            .collect()
    };
    let u = draw(Distribution::Uniform(-1.0, 1.0));
    let u2 = draw(Distribution::Uniform(-1.0, 1.0));
    let n = draw(Distribution::Normal(0.0, 1.0));
    let (um, uv) = moments(&u);
    let (nm, nv) = moments(&n);
    let mut head: Vec<u64> = u[..4096].iter().map(|x| x.to_bits()).collect();
    head.sort_unstable();
    head.dedup();
    let distinct = head.len() as f64 / 4096.0;
    let same = u.iter().zip(&u2).filter(|(a, b)| a == b).count() as f64 / u.len() as f64;
    let inside = u.iter().all(|x| (-1.0..1.0).contains(x));
    println!(
        "check    {name} random: uniform mean {um:.4} variance {uv:.4} (1/3), {distinct:.4} of 4096 \
         distinct, {same:.4} equal to the next draw; normal mean {nm:.4} variance {nv:.4}"
    );
    if um.abs() < 1e-2
        && (uv - 1.0 / 3.0).abs() < 1e-2
        && inside
        && distinct > 0.99
        && same < 1e-2
        && nm.abs() < 1e-2
        && (nv - 1.0).abs() < 2e-2
    {
        Ok(())
    } else {
        Err(format!(
            "{name}: random draws are not what they claim to be"
        ))
    }
}

/// Every check of a backend other than flex, before it is timed: all of them run (each prints
/// its figures); the failures are returned with the backend's name, and the bench fails with them
/// after its timings (so that a failed check does not cost a GPU session its figures).
fn check_all(name: &'static str, base: Device) -> Vec<(&'static str, String)> {
    [
        check::check_against_flex(name, base.clone()),
        check::check_initial_weights(name, base.clone()),
        check::check_device_initialisation(name, base.clone()),
        check_dropout(name, base.clone()),
        check_random(name, base),
    ]
    .into_iter()
    .filter_map(|r| r.err().map(|e| (name, e)))
    .collect()
}

/// Times `steps` training steps on `base` and prints their median; `failed` says that a check of
/// this backend failed.
/// Which batch norm a training step on `device` runs.
fn batch_norm_kind(device: &Device) -> String {
    #[cfg(any(feature = "wgpu", feature = "cuda"))]
    if attcnn::gpu::is_gpu(device) && attcnn::norm::fused_enabled() {
        let runtime = attcnn::norm::kernels::runtime().unwrap_or("no runtime");
        return format!("fused batch norm on {runtime}");
    }
    let _ = device;
    "burn's batch norm".to_string()
}

fn bench(name: &str, base: Device, size: usize, slices: usize, steps: usize, failed: bool) {
    let device = base.autodiff();
    let prec = precision::precision();
    device.seed(0);
    let cfg = AttCnnConfig {
        size,
        dim: 32,
        ..AttCnnConfig::default()
    };
    let mut model = cfg.init(&device);
    let mut optim = AdamConfig::new().init();
    let px: Vec<u8> = (0..slices * 3 * size * size)
        .map(|i| (i * 31 % 251) as u8)
        .collect();
    let mut times = Vec::new();
    // the host's share of each step: the time until every operation is queued, before the device
    // is waited for (equal to the step's time where the device waits on the host)
    let mut queued = Vec::new();
    let mut first_done = 0.0;
    // untimed steps first: one compiles every kernel; on a GPU whose autotune results are not yet
    // on disk, autotune goes on choosing kernels over the next few (STEP_WARMUP, default 1)
    let warmup = std::env::var("STEP_WARMUP")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    for step in 0..steps + warmup {
        let t = Instant::now();
        let x = bag_tensor(&px, slices, size, &device).reshape([slices, 3, size, size]);
        let logit = batch_logits(&model, x, &[slices], prec);
        let loss = weighted_bce(logit, 1.0, 1.0);
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(5e-5, model, grads);
        let host = t.elapsed().as_secs_f64();
        // wait for queued work (wgpu runs asynchronously) before stopping the clock
        device.sync().expect("device sync");
        if step == 0 {
            first_done = START.get().map_or(0.0, |s| s.elapsed().as_secs_f64());
        }
        if step >= warmup {
            times.push(t.elapsed().as_secs_f64());
            queued.push(host);
        }
    }
    times.sort_by(f64::total_cmp);
    queued.sort_by(f64::total_cmp);
    // what the check before the timing held this backend to
    let checked = if name == "flex" {
        String::new()
    } else if std::env::var_os("STEP_SKIP_CHECK").is_some() {
        ", not checked against flex in this process (STEP_SKIP_CHECK)".to_string()
    } else if failed {
        ", its checks FAILED (listed at the end)".to_string()
    } else {
        format!(
            ", checked against flex within {:.0e}",
            precision::tolerance(name)
        )
    };
    println!(
        "{name:<8} {:<4} {size}² × {slices} slices: {:.3} s per training step (median of {steps} after {warmup} untimed, min {:.3}; queued by the host in {:.3}; first step done {:.1} s after the process started; {}){checked}",
        format!("{prec:?}").to_lowercase(),
        times[times.len() / 2],
        times[0],
        queued[queued.len() / 2],
        first_done,
        batch_norm_kind(&device),
    );
}

#[allow(deprecated)] // burn 0.22 deprecates burn-ndarray, measured here for comparison
/// When the process started (main's first instruction).
static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

fn main() {
    START.get_or_init(Instant::now);
    common::set_up_as_ich();
    let args = common::numbers();
    let slices = args.first().copied().unwrap_or(32);
    let steps = args.get(1).copied().unwrap_or(3);
    let mut failed = Vec::new();
    #[cfg(feature = "ndarray")]
    if common::wanted("ndarray") {
        failed.extend(check_all("ndarray", Device::ndarray()));
    }
    if std::env::var_os("STEP_SKIP_CHECK").is_none() {
        for (name, device) in common::gpus() {
            failed.extend(check_all(name, device));
        }
    }
    let sizes = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        vec![256, 512]
    };
    let flex = std::env::var_os("STEP_SKIP_FLEX").is_none() && common::wanted("flex");
    if flex {
        check_dropout("flex", Device::flex()).unwrap();
        check_random("flex", Device::flex()).unwrap();
    }
    for size in sizes {
        if flex {
            bench("flex", Device::flex(), size, slices, steps, false);
        }
        #[cfg(feature = "ndarray")]
        if common::wanted("ndarray") {
            let bad = failed.iter().any(|(n, _)| *n == "ndarray");
            bench("ndarray", Device::ndarray(), size, slices, steps, bad);
        }
        for (name, device) in common::gpus() {
            let bad = failed.iter().any(|(n, _)| *n == name);
            bench(name, device, size, slices, steps, bad);
        }
    }
    // the checks failed before the timings above: their figures are not a checked backend's
    assert!(
        failed.is_empty(),
        "checks failed (the timings above are unchecked): {}",
        failed
            .iter()
            .map(|(_, e)| e.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    );
}
