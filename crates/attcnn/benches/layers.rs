//! Benchmark: where a training step's time goes, layer by layer. Times the forward pass and the
//! forward + backward pass of each layer of the encoder's first two blocks (the ones that see
//! full-size slices: 5×5 convolution 3→16 "same", batch norm, ReLU, 2×2 max-pool, then a 3×3
//! "valid" convolution 16→32 at half size and its batch norm and pool) on a bag of SLICES slices of
//! SIZE², on flex and, when built with the feature, on wgpu and cuda (`LAYERS_SKIP_FLEX=1`: not on
//! flex). Shapes and layer settings are those
//! of `AttCnnConfig::default()`; weights are fresh (times do not depend on their values). The
//! first convolution is timed twice: whole, and as the network runs it (`conv_in_chunks`, chunks
//! of slices within `UNFOLD_BUDGET`).
//! `cargo bench -p attcnn --bench layers [--features wgpu|cuda] [-- SLICES STEPS SIZE]`

use std::time::Instant;

use attcnn::encoder::UNFOLD_BUDGET;
use burn::nn::conv::Conv2dConfig;
use burn::nn::pool::MaxPool2dConfig;
use burn::nn::{BatchNormConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};

/// The allocator of the `ich` binary, set up as there.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod common;

/// Median and minimum seconds of `steps` runs of `f` after one warm-up run (autotuning, kernel
/// compilation), each ending with a device sync.
fn time(device: &Device, steps: usize, mut f: impl FnMut()) -> (f64, f64) {
    f();
    device.sync().expect("device sync");
    let mut t: Vec<f64> = (0..steps)
        .map(|_| {
            let s = Instant::now();
            f();
            device.sync().expect("device sync");
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    (t[t.len() / 2], t[0])
}

fn input(dims: [usize; 4], device: &Device) -> Tensor<4> {
    let n: usize = dims.iter().product();
    let v: Vec<f32> = (0..n).map(|i| (i * 31 % 251) as f32 / 255.0).collect();
    Tensor::from_data(TensorData::new(v, dims), device)
}

fn layers(name: &str, base: Device, slices: usize, size: usize, steps: usize) {
    let device = base.autodiff();
    device.seed(0);
    let half = size / 2;
    let conv1 = Conv2dConfig::new([3, 16], [5, 5])
        .with_padding(PaddingConfig2d::Same)
        .init(&device);
    let bn1 = BatchNormConfig::new(16).init(&device);
    let pool = MaxPool2dConfig::new([2, 2]).with_strides([2, 2]).init();
    let conv2 = Conv2dConfig::new([16, 32], [3, 3])
        .with_padding(PaddingConfig2d::Valid)
        .init(&device);
    let bn2 = BatchNormConfig::new(32).init(&device);
    let x0 = input([slices, 3, size, size], &device);
    let x1 = input([slices, 16, size, size], &device);
    let xh = input([slices, 16, half, half], &device);
    let x2 = input([slices, 32, half - 2, half - 2], &device);
    type Layer<'a> = (&'a str, Box<dyn Fn(bool) + 'a>);
    // (label, run: forward only when false, forward + backward of the sum when true)
    let run = |out: Tensor<4>, backward: bool| {
        if backward {
            let _ = out.sum().backward();
        } else {
            let _ = out.sum().into_data();
        }
    };
    let grad = |x: &Tensor<4>| x.clone().require_grad();
    let list: Vec<Layer> = vec![
        (
            "conv 5×5 3→16 same",
            Box::new(|b| run(conv1.forward(x0.clone()), b)),
        ),
        (
            "conv 5×5 in chunks",
            Box::new(|b| {
                run(
                    attcnn::encoder::conv_in_chunks(&conv1, x0.clone(), UNFOLD_BUDGET),
                    b,
                )
            }),
        ),
        (
            "batch norm 16",
            Box::new(|b| run(bn1.forward(grad(&x1)), b)),
        ),
        ("relu 16", Box::new(|b| run(relu(grad(&x1)), b))),
        (
            "max-pool 2×2, 16 ch",
            Box::new(|b| run(pool.forward(grad(&x1)), b)),
        ),
        (
            "conv 3×3 16→32 valid",
            Box::new(|b| run(conv2.forward(grad(&xh)), b)),
        ),
        (
            "batch norm 32",
            Box::new(|b| run(bn2.forward(grad(&x2)), b)),
        ),
        (
            "max-pool 2×2, 32 ch",
            Box::new(|b| run(pool.forward(grad(&x2)), b)),
        ),
    ];
    println!("{name}: {slices} slices of {size}², median of {steps} (min)");
    for (label, f) in &list {
        let (fw, fw_min) = time(&device, steps, || f(false));
        let (fb, fb_min) = time(&device, steps, || f(true));
        println!(
            "{name:<6} {label:<22} forward {fw:>8.4} s ({fw_min:.4})   forward+backward {fb:>8.4} s ({fb_min:.4})"
        );
    }
}

fn main() {
    common::set_up_as_ich();
    let args = common::numbers();
    let slices = args.first().copied().unwrap_or(32);
    let steps = args.get(1).copied().unwrap_or(3);
    let size = args.get(2).copied().unwrap_or(512);
    if std::env::var_os("LAYERS_SKIP_FLEX").is_none() && common::wanted("flex") {
        layers("flex", Device::flex(), slices, size, steps);
    }
    for (name, device) in common::gpus() {
        layers(name, device, slices, size, steps);
    }
}
