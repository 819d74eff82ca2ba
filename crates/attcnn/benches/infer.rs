//! Benchmark: inference of one scan as `ich predict` runs it (`Trained::scan`: slices encoded in
//! chunks of `ENCODE_CHUNK`, then attention, pooling, classifier and the one-slice bags), on the
//! backends this build has (flex; wgpu and cuda with their features). For each backend it prints
//! the time from moving the weights onto the device to the first scan's result (device start-up,
//! kernel compilation and autotuning, or their on-disk caches in a second process) and the median
//! of the scans after it. A GPU backend is then timed again encoding the whole scan at once, as
//! PyTorch does, in the same process. Every backend gets the same seeded weights (made on flex
//! and forked), and its scan probability and slice probabilities must match flex's, else the
//! bench fails.
//! `cargo bench -p attcnn --bench infer [--features wgpu|cuda] [-- SLICES SCANS SIZE]`
//! (defaults 40 slices, 5 scans, 512²; `INFER_SKIP_FLEX=1`: flex is not timed, and runs the scan
//! once only, for the reference probabilities; `BENCH_BACKENDS=cuda` runs only those listed;
//! `BENCH_PRECISION=bf16|f16` runs the GPU backends in that float type, checked against flex's
//! f32 within its rounding).

use std::time::Instant;

/// The allocator of the `ich` binary (burn-flex allocates per operation; the allocator shows).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod common;
#[path = "common/precision.rs"]
mod precision;

use attcnn::inference::{Trained, ENCODE_CHUNK};
use attcnn::AttCnnConfig;
use burn::module::Module;
use burn::tensor::Device;

/// One scan's outputs that must agree across backends: the scan probability, then every slice's.
fn outputs(trained: &Trained, slices: usize, px: &[u8]) -> Vec<f64> {
    let out = trained.scan(slices, px).expect("scan runs");
    let mut v = vec![out.probability];
    v.extend(out.slice_probability.iter().copied());
    v
}

/// The network and the scan every backend runs.
struct Input<'a> {
    model: &'a attcnn::AttCnn,
    cfg: &'a AttCnnConfig,
    slices: usize,
    px: &'a [u8],
}

/// Times `scans + 1` scans on `device`, encoding `chunk` slices at a time (the device's own
/// where `None`), and returns the first scan's outputs.
fn bench(
    name: &str,
    device: Device,
    input: &Input,
    scans: usize,
    chunk: Option<usize>,
) -> Vec<f64> {
    let Input {
        model,
        cfg,
        slices,
        px,
    } = *input;
    let start = Instant::now();
    let prec = precision::precision();
    let mut trained =
        Trained::from_model(cfg.clone(), model.clone().fork(&device), &device).with_precision(prec);
    if let Some(c) = chunk {
        trained = trained.with_encode_chunk(c);
    }
    let chunk = trained.encode_chunk();
    let prec = format!("{prec:?}").to_lowercase();
    let first = outputs(&trained, slices, px);
    let cold = start.elapsed().as_secs_f64();
    let mut times = Vec::new();
    for _ in 0..scans {
        let t = Instant::now();
        let again = outputs(&trained, slices, px);
        times.push(t.elapsed().as_secs_f64());
        assert_eq!(again.len(), first.len());
    }
    times.sort_by(f64::total_cmp);
    let size = cfg.size;
    println!(
        "infer    {name:<8} {prec:<4} {size}² × {slices} slices, {chunk} at a time: first scan {cold:.3} s with the device's start, \
         then {:.4} s per scan (median of {scans}, min {:.4}); p = {:.6}",
        times[times.len() / 2],
        times[0],
        first[0]
    );
    first
}

fn main() {
    common::set_up_as_ich();
    let args = common::numbers();
    let slices = args.first().copied().unwrap_or(40);
    let scans = args.get(1).copied().unwrap_or(5).max(1);
    let size = args.get(2).copied().unwrap_or(512);
    let cfg = AttCnnConfig {
        size,
        dim: 32,
        ..AttCnnConfig::default()
    };
    let flex = Device::flex();
    flex.seed(1);
    let model = cfg.init(&flex);
    let px: Vec<u8> = (0..slices * 3 * size * size)
        .map(|i| (i * 31 % 251) as u8)
        .collect();
    let input = Input {
        model: &model,
        cfg: &cfg,
        slices,
        px: &px,
    };
    // the GPU backends first, so that their first scan is what a process that starts on them pays
    let mut runs: Vec<(&str, Vec<f64>)> = Vec::new();
    for (name, device) in common::gpus() {
        runs.push((name, bench(name, device.clone(), &input, scans, None)));
        // the whole scan at once beside it, as PyTorch encodes it (on an H200 slower than chunks
        // of ENCODE_CHUNK: notes/2026-11-26-cuda-h200-4.md)
        if slices > ENCODE_CHUNK {
            runs.push((name, bench(name, device, &input, scans, Some(slices))));
        }
    }
    // flex holds the f32 reference: in half precision it is not timed
    let half = precision::precision() != attcnn::Precision::F32;
    let flex_scans =
        if std::env::var_os("INFER_SKIP_FLEX").is_some() || !common::wanted("flex") || half {
            0
        } else {
            scans
        };
    let want = if flex_scans == 0 {
        let trained = Trained::from_model(cfg.clone(), model.clone(), &flex);
        outputs(&trained, slices, &px)
    } else {
        bench("flex", flex.clone(), &input, flex_scans, None)
    };
    for (name, got) in runs {
        let diff = want
            .iter()
            .zip(&got)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f64, f64::max);
        println!(
            "check    {name} vs flex: scan and {} slice probabilities, largest difference {diff:.2e}",
            got.len() - 1
        );
        assert!(
            got.len() == want.len() && diff < precision::tolerance(name),
            "{name} disagrees with flex"
        );
    }
}
