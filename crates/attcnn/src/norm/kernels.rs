//! The CubeCL kernels of the fused batch norm, and their launches on `CubeBackend` tensors.
//!
//! Every tensor here is read as `[N, C, S]` contiguous (`S` the product of the dimensions after the
//! channel). Reductions are two-stage: each cube of [`BLOCK`] units sums one chunk of one channel
//! (cube `(p, c)`), then one unit per channel adds up that channel's chunks and turns the sums into
//! per-channel coefficients, which the elementwise pass applies. Forward in training: one pass
//! over `x` for the statistics (summed around the channel's first value, so that `E[x²] − E[x]²`
//! does not cancel away on activations far from zero) and one that writes the output. Backward:
//! one pass over `x` and the output gradient for Σ dy and Σ dy·(x − μ), one that writes dx.

use burn::backend::cubecl::dtype_to_storage_type;
use burn::tensor::{DType, Shape};
use burn_cubecl::kernel::into_contiguous;
use burn_cubecl::ops::numeric::empty_device_contiguous_dtype;
use burn_cubecl::tensor::CubeTensor;
use cubecl::prelude::*;

/// The cubecl runtime the kernels first ran on in this process.
static RUNTIME: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// The cubecl runtime the kernels ran on in this process (`cuda`, `wgpu<spirv>` on a Vulkan
/// adapter, `wgpu<wgsl>` on the others), once they have.
pub fn runtime() -> Option<&'static str> {
    RUNTIME.get().copied()
}

/// Units per cube of every kernel here (the reductions' shared memory holds one value per unit).
pub const BLOCK: usize = 256;
/// Elements one unit sums in a reduction cube, at most: a chunk is `BLOCK × PER_UNIT` elements.
const PER_UNIT: usize = 16;
/// Chunks per channel, at most (the finishing unit adds them one by one).
const MAX_CHUNKS: usize = 1024;
/// Cubes of an elementwise launch, at most (65,535 is the smallest grid limit of the APIs; each
/// unit strides over the elements).
const MAX_CUBES: usize = 65_535;

/// Sums of one chunk of one channel, reduced across the cube's units into `partial`: `[2, C, P]`
/// (first the sums of `a`, then those of `b`), chunk `p = CUBE_POS_X` of channel `c = CUBE_POS_Y`.
/// Forward (`grad` unused): a = x − x[channel's first], b = a². Backward: a = dy, b = dy·(x − μ).
#[cube]
fn reduce_block<F: Float>(a: F, b: F, partial: &mut Tensor<F>, channels: usize, parts: usize) {
    let tid = UNIT_POS_X as usize;
    let mut sa = Shared::<[F]>::new_slice(BLOCK);
    let mut sb = Shared::<[F]>::new_slice(BLOCK);
    sa[tid] = a;
    sb[tid] = b;
    sync_cube();
    // 16 units add 16 values each, then one adds the 16
    if tid < 16 {
        let mut ta = F::new(0.0);
        let mut tb = F::new(0.0);
        for j in 0..16usize {
            ta += sa[tid * 16 + j];
            tb += sb[tid * 16 + j];
        }
        sa[tid * 16] = ta;
        sb[tid * 16] = tb;
    }
    sync_cube();
    if tid == 0 {
        let mut ta = F::new(0.0);
        let mut tb = F::new(0.0);
        for j in 0..16usize {
            ta += sa[j * 16];
            tb += sb[j * 16];
        }
        let p = CUBE_POS_X as usize;
        let c = CUBE_POS_Y as usize;
        partial[c * parts + p] = ta;
        partial[(channels + c) * parts + p] = tb;
    }
}

#[cube(launch)]
fn stats_partial<F: Float>(
    x: &Tensor<F>,
    partial: &mut Tensor<F>,
    channels: u32,
    spatial: u32,
    count: u32,
    chunk: u32,
    #[define(F)] _dtype: ElemType,
) {
    let c = CUBE_POS_Y as usize;
    let channels = channels as usize;
    let spatial = spatial as usize;
    let count = count as usize;
    let start = CUBE_POS_X as usize * chunk as usize;
    let mut end = start + chunk as usize;
    if end > count {
        end = count;
    }
    let shift = x[c * spatial];
    let mut s1 = F::new(0.0);
    let mut s2 = F::new(0.0);
    let mut i = start + UNIT_POS_X as usize;
    while i < end {
        let n = i / spatial;
        let v = x[(n * channels + c) * spatial + i % spatial] - shift;
        s1 += v;
        s2 += v * v;
        i += BLOCK;
    }
    reduce_block::<F>(s1, s2, partial, channels, CUBE_COUNT_X as usize);
}

/// One unit per channel: the batch mean and (biased) variance, and the coefficients of
/// `y = x·scale + offset` in `coef` (`[2, C]`).
#[cube(launch)]
fn stats_finish<F: Float>(
    x: &Tensor<F>,
    partial: &Tensor<F>,
    gamma: &Tensor<F>,
    beta: &Tensor<F>,
    mean: &mut Tensor<F>,
    var: &mut Tensor<F>,
    coef: &mut Tensor<F>,
    channels: u32,
    spatial: u32,
    count: u32,
    parts: u32,
    epsilon: f32,
    #[define(F)] _dtype: ElemType,
) {
    let c = ABSOLUTE_POS_X as usize;
    let channels = channels as usize;
    if c >= channels {
        terminate!();
    }
    let parts = parts as usize;
    let mut s1 = F::new(0.0);
    let mut s2 = F::new(0.0);
    for p in 0..parts {
        s1 += partial[c * parts + p];
        s2 += partial[(channels + c) * parts + p];
    }
    let m = F::cast_from(count);
    let d = s1 / m;
    let mut v = s2 / m - d * d;
    if v < F::new(0.0) {
        v = F::new(0.0);
    }
    let mu = x[c * spatial as usize] + d;
    mean[c] = mu;
    var[c] = v;
    let scale = gamma[c] / F::sqrt(v + F::cast_from(epsilon));
    coef[c] = scale;
    coef[channels + c] = beta[c] - mu * scale;
}

/// `y = x·coef[c] + coef[C + c]`, each unit striding over the elements.
#[cube(launch)]
fn affine<F: Float>(
    x: &Tensor<F>,
    coef: &Tensor<F>,
    y: &mut Tensor<F>,
    channels: u32,
    spatial: u32,
    total: u32,
    #[define(F)] _dtype: ElemType,
) {
    let channels = channels as usize;
    let spatial = spatial as usize;
    let total = total as usize;
    let step = CUBE_COUNT_X as usize * BLOCK;
    let mut i = ABSOLUTE_POS_X as usize;
    while i < total {
        let c = (i / spatial) % channels;
        y[i] = x[i] * coef[c] + coef[channels + c];
        i += step;
    }
}

/// Inference with given statistics, in one pass: `y = (x − μ)·γ/√(σ² + ε) + β`.
#[cube(launch)]
fn normalize<F: Float>(
    x: &Tensor<F>,
    gamma: &Tensor<F>,
    beta: &Tensor<F>,
    mean: &Tensor<F>,
    var: &Tensor<F>,
    y: &mut Tensor<F>,
    channels: u32,
    spatial: u32,
    total: u32,
    epsilon: f32,
    #[define(F)] _dtype: ElemType,
) {
    let channels = channels as usize;
    let spatial = spatial as usize;
    let total = total as usize;
    let step = CUBE_COUNT_X as usize * BLOCK;
    let mut i = ABSOLUTE_POS_X as usize;
    while i < total {
        let c = (i / spatial) % channels;
        let scale = gamma[c] / F::sqrt(var[c] + F::cast_from(epsilon));
        y[i] = (x[i] - mean[c]) * scale + beta[c];
        i += step;
    }
}

#[cube(launch)]
fn grad_partial<F: Float>(
    x: &Tensor<F>,
    dy: &Tensor<F>,
    mean: &Tensor<F>,
    partial: &mut Tensor<F>,
    channels: u32,
    spatial: u32,
    count: u32,
    chunk: u32,
    #[define(F)] _dtype: ElemType,
) {
    let c = CUBE_POS_Y as usize;
    let channels = channels as usize;
    let spatial = spatial as usize;
    let count = count as usize;
    let start = CUBE_POS_X as usize * chunk as usize;
    let mut end = start + chunk as usize;
    if end > count {
        end = count;
    }
    let mu = mean[c];
    let mut s1 = F::new(0.0);
    let mut s2 = F::new(0.0);
    let mut i = start + UNIT_POS_X as usize;
    while i < end {
        let n = i / spatial;
        let at = (n * channels + c) * spatial + i % spatial;
        let g = dy[at];
        s1 += g;
        s2 += g * (x[at] - mu);
        i += BLOCK;
    }
    reduce_block::<F>(s1, s2, partial, channels, CUBE_COUNT_X as usize);
}

/// One unit per channel: dβ = Σ dy, dγ = Σ dy·x̂, and the coefficients of
/// `dx = a·dy + k·(x − μ) + q` in `coef` (`[3, C]`).
#[cube(launch)]
fn grad_finish<F: Float>(
    partial: &Tensor<F>,
    gamma: &Tensor<F>,
    var: &Tensor<F>,
    dgamma: &mut Tensor<F>,
    dbeta: &mut Tensor<F>,
    coef: &mut Tensor<F>,
    channels: u32,
    count: u32,
    parts: u32,
    epsilon: f32,
    #[define(F)] _dtype: ElemType,
) {
    let c = ABSOLUTE_POS_X as usize;
    let channels = channels as usize;
    if c >= channels {
        terminate!();
    }
    let parts = parts as usize;
    let mut sum_dy = F::new(0.0);
    let mut sum_dyx = F::new(0.0);
    for p in 0..parts {
        sum_dy += partial[c * parts + p];
        sum_dyx += partial[(channels + c) * parts + p];
    }
    let m = F::cast_from(count);
    let r = F::new(1.0) / F::sqrt(var[c] + F::cast_from(epsilon));
    let g = sum_dyx * r;
    dbeta[c] = sum_dy;
    dgamma[c] = g;
    let a = gamma[c] * r;
    coef[c] = a;
    coef[channels + c] = F::new(0.0) - a * r * g / m;
    coef[2 * channels + c] = F::new(0.0) - a * sum_dy / m;
}

#[cube(launch)]
fn grad_apply<F: Float>(
    x: &Tensor<F>,
    dy: &Tensor<F>,
    mean: &Tensor<F>,
    coef: &Tensor<F>,
    dx: &mut Tensor<F>,
    channels: u32,
    spatial: u32,
    total: u32,
    #[define(F)] _dtype: ElemType,
) {
    let channels = channels as usize;
    let spatial = spatial as usize;
    let total = total as usize;
    let step = CUBE_COUNT_X as usize * BLOCK;
    let mut i = ABSOLUTE_POS_X as usize;
    while i < total {
        let c = (i / spatial) % channels;
        dx[i] = coef[c] * dy[i] + coef[channels + c] * (x[i] - mean[c]) + coef[2 * channels + c];
        i += step;
    }
}

/// `(N, C, S)` of a tensor `[N, C, ...]`.
fn dims(x: &CubeTensor) -> (usize, usize, usize) {
    let shape = x.meta.shape();
    let n = shape[0];
    let c = shape[1];
    let s = shape.iter().skip(2).product::<usize>();
    (n, c, s)
}

/// Whether the kernels here take `x`: f32, at least one element per channel, indices within u32,
/// and a device whose cubes hold [`BLOCK`] units.
pub fn supports(x: &CubeTensor) -> bool {
    let (n, c, s) = dims(x);
    x.dtype == DType::F32
        && n * s > 0
        && c > 0
        && n * c * s < u32::MAX as usize
        && x.client.properties().hardware.max_units_per_cube as usize >= BLOCK
}

fn empty(like: &CubeTensor, shape: Shape) -> CubeTensor {
    empty_device_contiguous_dtype(like.client.clone(), like.device.clone(), shape, like.dtype)
}

/// Chunk length and chunks per channel for `count` elements per channel.
fn chunking(count: usize) -> (usize, usize) {
    let chunk = (BLOCK * PER_UNIT).max(count.div_ceil(MAX_CHUNKS));
    (chunk, count.div_ceil(chunk))
}

fn elementwise_cubes(total: usize) -> CubeCount {
    CubeCount::Static(total.div_ceil(BLOCK).clamp(1, MAX_CUBES) as u32, 1, 1)
}

fn per_channel_cubes(channels: usize) -> CubeCount {
    CubeCount::Static(channels.div_ceil(BLOCK) as u32, 1, 1)
}

/// Training forward: `(output, batch mean, biased batch variance)`.
pub fn train_forward(
    x: CubeTensor,
    gamma: CubeTensor,
    beta: CubeTensor,
    epsilon: f64,
) -> (CubeTensor, CubeTensor, CubeTensor) {
    RUNTIME.get_or_init(|| x.client.name());
    let x = into_contiguous(x);
    let gamma = into_contiguous(gamma);
    let beta = into_contiguous(beta);
    let (n, c, s) = dims(&x);
    let count = n * s;
    let (chunk, parts) = chunking(count);
    let client = x.client.clone();
    let dtype = dtype_to_storage_type(x.dtype);
    let partial = empty(&x, Shape::new([2 * c * parts]));
    let mean = empty(&x, Shape::new([c]));
    let var = empty(&x, Shape::new([c]));
    let coef = empty(&x, Shape::new([2 * c]));
    let y = empty(&x, x.meta.shape().clone());
    let cube = CubeDim::new_1d(BLOCK as u32);
    stats_partial::launch(
        &client,
        CubeCount::Static(parts as u32, c as u32, 1),
        cube,
        x.clone().into_tensor_arg(),
        partial.clone().into_tensor_arg(),
        c as u32,
        s as u32,
        count as u32,
        chunk as u32,
        dtype,
    );
    stats_finish::launch(
        &client,
        per_channel_cubes(c),
        cube,
        x.clone().into_tensor_arg(),
        partial.into_tensor_arg(),
        gamma.into_tensor_arg(),
        beta.into_tensor_arg(),
        mean.clone().into_tensor_arg(),
        var.clone().into_tensor_arg(),
        coef.clone().into_tensor_arg(),
        c as u32,
        s as u32,
        count as u32,
        parts as u32,
        epsilon as f32,
        dtype,
    );
    let total = n * c * s;
    affine::launch(
        &client,
        elementwise_cubes(total),
        cube,
        x.into_tensor_arg(),
        coef.into_tensor_arg(),
        y.clone().into_tensor_arg(),
        c as u32,
        s as u32,
        total as u32,
        dtype,
    );
    (y, mean, var)
}

/// Inference with the given statistics.
pub fn eval_forward(
    x: CubeTensor,
    gamma: CubeTensor,
    beta: CubeTensor,
    mean: CubeTensor,
    var: CubeTensor,
    epsilon: f64,
) -> CubeTensor {
    RUNTIME.get_or_init(|| x.client.name());
    let x = into_contiguous(x);
    let (n, c, s) = dims(&x);
    let total = n * c * s;
    let y = empty(&x, x.meta.shape().clone());
    let dtype = dtype_to_storage_type(x.dtype);
    normalize::launch(
        &x.client.clone(),
        elementwise_cubes(total),
        CubeDim::new_1d(BLOCK as u32),
        x.into_tensor_arg(),
        into_contiguous(gamma).into_tensor_arg(),
        into_contiguous(beta).into_tensor_arg(),
        into_contiguous(mean).into_tensor_arg(),
        into_contiguous(var).into_tensor_arg(),
        y.clone().into_tensor_arg(),
        c as u32,
        s as u32,
        total as u32,
        epsilon as f32,
        dtype,
    );
    y
}

/// Training backward: `(dx, dγ, dβ)` from the forward's input, γ, batch statistics and the
/// output's gradient.
pub fn train_backward(
    x: CubeTensor,
    gamma: CubeTensor,
    mean: CubeTensor,
    var: CubeTensor,
    epsilon: f64,
    grad: CubeTensor,
) -> (CubeTensor, CubeTensor, CubeTensor) {
    let x = into_contiguous(x);
    let grad = into_contiguous(grad);
    let mean = into_contiguous(mean);
    let (n, c, s) = dims(&x);
    let count = n * s;
    let total = n * c * s;
    let (chunk, parts) = chunking(count);
    let client = x.client.clone();
    let dtype = dtype_to_storage_type(x.dtype);
    let partial = empty(&x, Shape::new([2 * c * parts]));
    let dgamma = empty(&x, Shape::new([c]));
    let dbeta = empty(&x, Shape::new([c]));
    let coef = empty(&x, Shape::new([3 * c]));
    let dx = empty(&x, x.meta.shape().clone());
    let cube = CubeDim::new_1d(BLOCK as u32);
    grad_partial::launch(
        &client,
        CubeCount::Static(parts as u32, c as u32, 1),
        cube,
        x.clone().into_tensor_arg(),
        grad.clone().into_tensor_arg(),
        mean.clone().into_tensor_arg(),
        partial.clone().into_tensor_arg(),
        c as u32,
        s as u32,
        count as u32,
        chunk as u32,
        dtype,
    );
    grad_finish::launch(
        &client,
        per_channel_cubes(c),
        cube,
        partial.into_tensor_arg(),
        into_contiguous(gamma).into_tensor_arg(),
        into_contiguous(var).into_tensor_arg(),
        dgamma.clone().into_tensor_arg(),
        dbeta.clone().into_tensor_arg(),
        coef.clone().into_tensor_arg(),
        c as u32,
        count as u32,
        parts as u32,
        epsilon as f32,
        dtype,
    );
    grad_apply::launch(
        &client,
        elementwise_cubes(total),
        cube,
        x.into_tensor_arg(),
        grad.into_tensor_arg(),
        mean.into_tensor_arg(),
        coef.into_tensor_arg(),
        dx.clone().into_tensor_arg(),
        c as u32,
        s as u32,
        total as u32,
        dtype,
    );
    (dx, dgamma, dbeta)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunks cover every element of a channel once, within the limits.
    #[test]
    fn chunks_cover_a_channel() {
        for count in [1, 255, 4096, 4097, 1 << 20, 32 * 512 * 512, 64 * 512 * 512] {
            let (chunk, parts) = chunking(count);
            assert!(parts <= MAX_CHUNKS, "{count}");
            assert!(
                chunk * parts >= count && chunk * (parts - 1) < count,
                "{count}"
            );
        }
    }
}
