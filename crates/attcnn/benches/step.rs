//! Benchmark: seconds per training step (forward, backward, Adam) for one 32-slice bag, at 256²
//! and 512², on the CPU backend(s) this build has. Prints one line per (backend, size).
//! `cargo bench -p attcnn --bench step [--features ndarray|wgpu] [-- SLICES STEPS]`

use std::time::Instant;

use attcnn::training::{bag_tensor, weighted_bce};
use attcnn::AttCnnConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::Device;

fn bench(name: &str, base: Device, size: usize, slices: usize, steps: usize) {
    let device = base.autodiff();
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
    for step in 0..steps + 1 {
        let t = Instant::now();
        let x = bag_tensor(&px, slices, size, &device);
        let (logit, _, _) = model.forward(x, None);
        let loss = weighted_bce(logit, 1.0, 1.0);
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(5e-5, model, grads);
        // force the computation to finish before stopping the clock
        let _ = model.clone();
        if step > 0 {
            times.push(t.elapsed().as_secs_f64());
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{name:<8} {size}² × {slices} slices: {:.3} s per training step (median of {steps}, min {:.3})",
        times[times.len() / 2],
        times[0]
    );
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let slices = args.first().copied().unwrap_or(32);
    let steps = args.get(1).copied().unwrap_or(3);
    for size in [256, 512] {
        bench("flex", Device::flex(), size, slices, steps);
        #[cfg(feature = "ndarray")]
        bench("ndarray", Device::ndarray(), size, slices, steps);
        #[cfg(feature = "wgpu")]
        bench(
            "wgpu",
            Device::wgpu(Default::default()),
            size,
            slices,
            steps,
        );
    }
}
