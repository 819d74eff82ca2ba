//! The fused batch-norm kernels (src/norm) against burn's own batch norm, on a wgpu adapter: on a
//! machine without a GPU, Mesa's llvmpipe through OpenGL (`WGPU_BACKEND=gl`, which
//! `scripts/ci/fused-bn-test.sh` sets; needs `libegl1 libgl1-mesa-dri`). Training forward (output,
//! running statistics), the gradients of x, γ and β under a loss that weighs every output
//! differently, and inference; on odd shapes (a channel whose values sit far from zero, 1×1
//! slices, chunks of a channel split across many cubes), compared with burn's generic batch norm
//! on the same device and with burn-flex on the CPU. And where `ICH_KERNEL_CACHE` puts the
//! compiled kernels (`attcnn::gpu`).
#![cfg(feature = "wgpu")]

use attcnn::norm::fused_batch_norm;
use burn::module::Param;
use burn::nn::{BatchNorm, BatchNormConfig};
use burn::tensor::{Device, Tensor, TensorData};

/// The wgpu device, set up once per process (a second setup is refused).
fn wgpu() -> Device {
    static DEVICE: std::sync::OnceLock<Device> = std::sync::OnceLock::new();
    DEVICE.get_or_init(open_wgpu).clone()
}

fn open_wgpu() -> Device {
    use burn::tensor::wgpu::WgpuBackend;
    let api = match std::env::var("WGPU_BACKEND").unwrap_or_default().as_str() {
        "gl" | "opengl" => WgpuBackend::Gl,
        "vulkan" => WgpuBackend::Vulkan,
        _ => WgpuBackend::Auto,
    };
    Device::wgpu_options()
        .graphics_api(api)
        .init()
        .expect("a wgpu adapter (on a CPU-only machine: WGPU_BACKEND=gl with Mesa's llvmpipe)")
}

/// Deterministic values in [-1, 1) from an index.
fn noise(i: usize, salt: u32) -> f32 {
    let h = (i as u32 ^ salt).wrapping_mul(2654435761).rotate_left(13);
    (h >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}

/// Activations `[n, c, h, w]`: channel k centred on `offset·k` with spread `1 + k/2`.
fn input(shape: [usize; 4], offset: f32) -> TensorData {
    let [_, c, h, w] = shape;
    let v: Vec<f32> = (0..shape.iter().product::<usize>())
        .map(|i| {
            let k = (i / (h * w)) % c;
            offset * k as f32 + (1.0 + k as f32 / 2.0) * noise(i, 7)
        })
        .collect();
    TensorData::new(v, shape)
}

/// A batch norm of `c` channels with γ, β and running statistics that are not the defaults.
fn layer(c: usize, device: &Device) -> BatchNorm {
    let mut norm = BatchNormConfig::new(c)
        .with_epsilon(1e-3)
        .with_momentum(0.3)
        .init(device);
    let gamma: Vec<f32> = (0..c).map(|k| 0.5 + noise(k, 1).abs()).collect();
    let beta: Vec<f32> = (0..c).map(|k| noise(k, 2)).collect();
    norm.gamma = Param::from_data(TensorData::new(gamma, [c]), device);
    norm.beta = Param::from_data(TensorData::new(beta, [c]), device);
    let mean: Vec<f32> = (0..c).map(|k| 3.0 * noise(k, 3)).collect();
    let var: Vec<f32> = (0..c).map(|k| 0.2 + noise(k, 4).abs()).collect();
    norm.running_mean
        .update(Tensor::from_data(TensorData::new(mean, [c]), device));
    norm.running_var
        .update(Tensor::from_data(TensorData::new(var, [c]), device));
    norm
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap()
}

/// Largest difference relative to the larger of 1 and the reference's largest magnitude.
fn max_rel(reference: &[f32], other: &[f32]) -> f32 {
    assert_eq!(reference.len(), other.len());
    let scale = reference.iter().fold(1.0f32, |m, v| m.max(v.abs()));
    reference
        .iter()
        .zip(other)
        .map(|(a, b)| (a - b).abs() / scale)
        .fold(0.0, f32::max)
}

/// What a training step reads of one batch norm: output, running statistics after the update,
/// and the gradients of x, γ and β.
struct Step {
    y: Vec<f32>,
    running_mean: Vec<f32>,
    running_var: Vec<f32>,
    dx: Vec<f32>,
    dgamma: Vec<f32>,
    dbeta: Vec<f32>,
}

fn train_step(
    device: &Device,
    shape: [usize; 4],
    offset: f32,
    f: impl Fn(&BatchNorm, Tensor<4>) -> Tensor<4>,
) -> Step {
    let device = device.clone().autodiff();
    let norm = layer(shape[1], &device);
    let x: Tensor<4> = Tensor::from_data(input(shape, offset), &device).require_grad();
    let y = f(&norm, x.clone());
    let n = shape.iter().product::<usize>();
    let w: Vec<f32> = (0..n).map(|i| noise(i, 11)).collect();
    let w: Tensor<4> = Tensor::from_data(TensorData::new(w, shape), &device);
    let grads = (y.clone() * w).sum().backward();
    Step {
        y: values(y),
        running_mean: values(norm.running_mean.value()),
        running_var: values(norm.running_var.value()),
        dx: values(x.grad(&grads).unwrap()),
        dgamma: values(norm.gamma.grad(&grads).unwrap()),
        dbeta: values(norm.beta.grad(&grads).unwrap()),
    }
}

const SHAPES: [([usize; 4], f32); 5] = [
    // odd sizes everywhere
    ([3, 5, 7, 9], 0.0),
    // channels far from zero: E[x²] − E[x]² would cancel without the shift
    ([4, 3, 11, 13], 1000.0),
    // one value per slice and channel (the encoder's last blocks at small sizes)
    ([6, 4, 1, 1], 0.5),
    // a channel split into several chunks (8·64·64 = 32,768 values; 4,096 per chunk)
    ([8, 3, 64, 64], 2.0),
    // 300 channels: the per-channel pass spans two cubes of 256 units
    ([2, 300, 3, 5], 0.0),
];

#[test]
fn training_matches_burns_batch_norm_and_flex() {
    let gpu = wgpu();
    for (shape, offset) in SHAPES {
        let fused = train_step(&gpu, shape, offset, fused_batch_norm);
        let generic = train_step(&gpu, shape, offset, |n, x| n.forward(x));
        let flex = train_step(&Device::flex(), shape, offset, |n, x| n.forward(x));
        for (name, reference) in [("burn on wgpu", &generic), ("flex", &flex)] {
            let checks = [
                ("output", &reference.y, &fused.y, 1e-4),
                (
                    "running mean",
                    &reference.running_mean,
                    &fused.running_mean,
                    1e-5,
                ),
                (
                    "running var",
                    &reference.running_var,
                    &fused.running_var,
                    1e-4,
                ),
                ("dx", &reference.dx, &fused.dx, 1e-4),
                ("dgamma", &reference.dgamma, &fused.dgamma, 1e-4),
                ("dbeta", &reference.dbeta, &fused.dbeta, 1e-4),
            ];
            for (what, r, f, tol) in checks {
                let d = max_rel(r, f);
                assert!(
                    d <= tol,
                    "{shape:?} {what}: fused vs {name}: {d:e} > {tol:e}"
                );
            }
        }
        // the kernels ran (not burn's composition, which the fused call falls back to for
        // tensors they do not take)
        assert!(attcnn::norm::kernels::runtime().is_some(), "{shape:?}");
        // the loss weighs outputs differently, so the gradients are not trivially zero
        assert!(fused.dx.iter().any(|v| v.abs() > 1e-3), "{shape:?}");
        assert!(fused.dgamma.iter().any(|v| v.abs() > 1e-2), "{shape:?}");
    }
}

#[test]
fn inference_matches_burns_batch_norm_and_flex() {
    let gpu = wgpu();
    for (shape, offset) in SHAPES {
        let run = |device: &Device, fused: bool| {
            let norm = layer(shape[1], device);
            let x: Tensor<4> = Tensor::from_data(input(shape, offset), device);
            values(if fused {
                fused_batch_norm(&norm, x)
            } else {
                norm.forward(x)
            })
        };
        let fused = run(&gpu, true);
        for (name, reference) in [
            ("burn on wgpu", run(&gpu, false)),
            ("flex", run(&Device::flex(), false)),
        ] {
            let d = max_rel(&reference, &fused);
            assert!(d <= 1e-5, "{shape:?}: fused vs {name}: {d:e}");
        }
    }
}

/// `ICH_KERNEL_CACHE`'s folder becomes cubecl's environment root, where cubecl keeps its compiled
/// kernels and autotune results (so that a folder filled on one machine can be shipped to a bare
/// one), with the compiled-kernel cache on; without it cubecl's default folder stays.
#[test]
fn the_kernel_cache_goes_where_it_is_named() {
    use attcnn::gpu::with_kernel_cache;
    use burn::cubecl::config::cache::CacheConfig;
    use burn::cubecl::config::CubeClRuntimeConfig;
    let dir = std::path::PathBuf::from("/srv/ich/kernels");
    let named = with_kernel_cache(CubeClRuntimeConfig::default(), Some(dir.clone()));
    assert!(named.compilation.cache);
    assert_eq!(named.environment.path.root(), dir);
    let default = with_kernel_cache(CubeClRuntimeConfig::default(), None);
    assert!(default.compilation.cache);
    assert!(matches!(default.environment.path, CacheConfig::Target));
}
