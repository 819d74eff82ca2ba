//! Batch norm as the encoder runs it. On the CubeCL backends (CUDA, wgpu) in f32 it runs as
//! kernels of our own (`kernels`): training forward in two passes over the activations (the
//! channel statistics, then the output), backward in two (Σ dy and Σ dy·(x − μ), then dx),
//! inference in one. burn 0.22's CubeCL backend composes batch norm out of generic tensor
//! operations instead (about 10 kernels forward and 20 backward in a profile of a 512² step).
//! The kernels are a backend extension with their own autodiff step (burn's
//! `custom-cubecl-kernel` pattern); everywhere else, and with `ICH_FUSED_BN=0`, burn's
//! `BatchNorm::forward` runs, whose results these match (tests/fused_bn.rs).

use burn::nn::BatchNorm;
use burn::tensor::Tensor;

#[cfg(any(feature = "wgpu", feature = "cuda"))]
pub mod kernels;

#[cfg(any(feature = "wgpu", feature = "cuda"))]
mod extension;

/// Whether the fused kernels are switched on for this process: yes unless `ICH_FUSED_BN` is `0`
/// (burn's generic batch norm instead, for comparison).
pub fn fused_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("ICH_FUSED_BN").map_or(true, |v| v.trim() != "0"))
}

/// `norm` applied to `x` `[N, C, ...]` exactly as `BatchNorm::forward` would (batch statistics
/// and a running-statistics update when training on an autodiff device, the running statistics
/// otherwise), through the fused kernels where they apply.
pub fn batch_norm<const D: usize>(norm: &BatchNorm, x: Tensor<D>) -> Tensor<D> {
    #[cfg(any(feature = "wgpu", feature = "cuda"))]
    if fused_enabled() && crate::gpu::is_gpu(&x.device()) {
        return extension::batch_norm(norm, x);
    }
    norm.forward(x)
}

/// [`batch_norm`] through the fused kernels whatever [`fused_enabled`] says (on a CubeCL device),
/// for tests and benchmarks that compare the two.
#[cfg(any(feature = "wgpu", feature = "cuda"))]
pub fn fused_batch_norm<const D: usize>(norm: &BatchNorm, x: Tensor<D>) -> Tensor<D> {
    assert!(
        crate::gpu::is_gpu(&x.device()),
        "the fused batch norm runs on CubeCL devices"
    );
    extension::batch_norm(norm, x)
}
