//! f_CNN, the slice encoder: the convolution stack of MODELS.md §8 (Conv 16@5×5 same → BN →
//! ReLU → max-pool, then up to five Conv 32@3×3 valid blocks, dropout after blocks 2, 5 and 6)
//! and Dense(D)), and beside it the encoder of the published SA-DMIL weights
//! ([`SaDmilEncoder`]); [`Encoder`] is the one the network has. The attention and the classifier
//! do not change.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

use crate::config::{Architecture, AttCnnConfig};

/// What the rest of the network needs of a slice encoder.
pub trait SliceEncoder {
    /// Slices `[N, 3, H, W]` in [0, 1] → features `[N, D]`.
    fn encode(&self, x: Tensor<4>) -> Tensor<2>;
}

/// The layers of one block, shared by both encoders: a k×k convolution, batch norm with ε, and a
/// 2×2 max-pool of stride 2 (the order they run in is the encoder's).
fn conv_norm_pool(
    cin: usize,
    cout: usize,
    k: usize,
    padding: PaddingConfig2d,
    epsilon: f64,
    device: &Device,
) -> (Conv2d, BatchNorm, MaxPool2d) {
    (
        Conv2dConfig::new([cin, cout], [k, k])
            .with_padding(padding)
            .init(device),
        BatchNormConfig::new(cout)
            .with_epsilon(epsilon)
            .init(device),
        MaxPool2dConfig::new([2, 2]).with_strides([2, 2]).init(),
    )
}

/// Elements of a convolution's unfolded input (N·H·W·C_in·k², 1 GiB of f32) above which
/// [`conv_in_chunks`] splits the slices on a GPU. On the H100 through wgpu, the 5×5 convolution's
/// weight gradient on 32 slices of 512² (2.5 GB unfolded) took 1.16 s against 0.022 s for 16
/// slices (docs/BENCHMARKS.md); chunks of at most this size stay on the fast kernels.
pub const UNFOLD_BUDGET: usize = 1 << 28;

/// The budget for slices on `x`'s device: [`UNFOLD_BUDGET`] on a cubecl (GPU) device, none on
/// the CPU backends, where chunks only add copies (flex measured 0–15 % slower with them).
fn unfold_budget(x: &Tensor<4>) -> usize {
    if crate::gpu::is_gpu(&x.device()) {
        UNFOLD_BUDGET
    } else {
        usize::MAX
    }
}

/// `conv` on slices `[N, C, H, W]`, run over consecutive chunks of slices whose unfolded input
/// stays within `budget` elements and concatenated. A convolution treats every slice on its own,
/// so the output is the same; the weight gradient is the sum of the chunks' gradients (the same up
/// to the order of float additions).
pub fn conv_in_chunks(conv: &Conv2d, x: Tensor<4>, budget: usize) -> Tensor<4> {
    let [n, cin, h, w] = x.dims();
    let [_, _, kh, kw] = conv.weight.val().dims();
    let per_slice = (h * w * cin * kh * kw).max(1);
    let chunk = (budget / per_slice).max(1);
    if n <= chunk {
        return conv.forward(x);
    }
    let parts: Vec<Tensor<4>> = (0..n)
        .step_by(chunk)
        .map(|start| conv.forward(x.clone().narrow(0, start, chunk.min(n - start))))
        .collect();
    Tensor::cat(parts, 0)
}

#[derive(Module, Debug)]
pub struct ConvBlock {
    pub(crate) conv: Conv2d,
    norm: BatchNorm,
    pool: MaxPool2d,
}

impl ConvBlock {
    fn new(
        cin: usize,
        cout: usize,
        k: usize,
        padding: PaddingConfig2d,
        epsilon: f64,
        device: &Device,
    ) -> Self {
        let (conv, norm, pool) = conv_norm_pool(cin, cout, k, padding, epsilon, device);
        Self { conv, norm, pool }
    }
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let budget = unfold_budget(&x);
        let y = conv_in_chunks(&self.conv, x, budget);
        self.pool
            .forward(relu(crate::norm::batch_norm(&self.norm, y)))
    }
}

/// The authors' convolutional encoder.
#[derive(Module, Debug)]
pub struct ConvEncoder {
    pub(crate) first: ConvBlock,
    pub(crate) blocks: Vec<ConvBlock>,
    conv_dropout: Dropout,
    dense: Linear,
}

impl ConvEncoder {
    pub fn new(cfg: &AttCnnConfig, device: &Device) -> Self {
        let (blocks, _) = cfg.geometry();
        let eps = cfg.bn_epsilon;
        let first = ConvBlock::new(3, 16, 5, PaddingConfig2d::Same, eps, device);
        let rest = (0..blocks)
            .map(|i| {
                let cin = if i == 0 { 16 } else { 32 };
                ConvBlock::new(cin, 32, 3, PaddingConfig2d::Valid, eps, device)
            })
            .collect();
        Self {
            first,
            blocks: rest,
            conv_dropout: DropoutConfig::new(cfg.conv_dropout).init(),
            dense: LinearConfig::new(cfg.flatten(), cfg.dim).init(device),
        }
    }
}

impl SliceEncoder for ConvEncoder {
    /// Dropout after the overall blocks 2, 5 and 6 (MODELS.md §8), when they exist.
    fn encode(&self, x: Tensor<4>) -> Tensor<2> {
        let mut x = self.first.forward(x);
        for (i, b) in self.blocks.iter().enumerate() {
            x = b.forward(x);
            if matches!(i + 2, 2 | 5 | 6) {
                x = self.conv_dropout.forward(x);
            }
        }
        let [n, c, h, w] = x.dims();
        self.dense.forward(x.reshape([n, c * h * w]))
    }
}

/// One block of the SA-DMIL encoder: convolution with bias → ReLU → batch norm → max-pool 2×2.
/// (ReLU before batch norm, so the block's output can be negative.)
#[derive(Module, Debug)]
pub struct SaDmilBlock {
    pub conv: Conv2d,
    pub norm: BatchNorm,
    pool: MaxPool2d,
}

/// What one SA-DMIL block computed, for checking a port layer by layer (NCHW tensors).
pub struct BlockTrace {
    pub conv_relu: Tensor<4>,
    pub norm: Tensor<4>,
    pub pool: Tensor<4>,
}

impl SaDmilBlock {
    fn new(
        cin: usize,
        cout: usize,
        k: usize,
        padding: PaddingConfig2d,
        epsilon: f64,
        device: &Device,
    ) -> Self {
        let (conv, norm, pool) = conv_norm_pool(cin, cout, k, padding, epsilon, device);
        Self { conv, norm, pool }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let budget = unfold_budget(&x);
        let y = conv_in_chunks(&self.conv, x, budget);
        self.pool
            .forward(crate::norm::batch_norm(&self.norm, relu(y)))
    }

    fn trace(&self, x: Tensor<4>) -> BlockTrace {
        let budget = unfold_budget(&x);
        let conv_relu = relu(conv_in_chunks(&self.conv, x, budget));
        let norm = crate::norm::batch_norm(&self.norm, conv_relu.clone());
        let pool = self.pool.forward(norm.clone());
        BlockTrace {
            conv_relu,
            norm,
            pool,
        }
    }
}

/// The slice encoder of the published SA-DMIL weights: Conv 16@5×5 'same', then Conv 32@3×3
/// 'valid' blocks (as [`ConvEncoder`]'s geometry), each Conv → ReLU → BN → max-pool; dropout
/// after blocks 2, 5 and 6; the features are the last block's output flattened in height,
/// width, channel order (index `(h·s + w)·32 + c`, as TensorFlow's `Flatten` on NHWC), so the
/// attention and Dense-128 weights of the checkpoint apply unchanged.
#[derive(Module, Debug)]
pub struct SaDmilEncoder {
    pub blocks: Vec<SaDmilBlock>,
    conv_dropout: Dropout,
}

impl SaDmilEncoder {
    pub fn new(cfg: &AttCnnConfig, device: &Device) -> Self {
        let (rest, _) = cfg.geometry();
        let eps = cfg.bn_epsilon;
        let mut blocks = vec![SaDmilBlock::new(
            3,
            16,
            5,
            PaddingConfig2d::Same,
            eps,
            device,
        )];
        for i in 0..rest {
            let cin = if i == 0 { 16 } else { 32 };
            blocks.push(SaDmilBlock::new(
                cin,
                32,
                3,
                PaddingConfig2d::Valid,
                eps,
                device,
            ));
        }
        Self {
            blocks,
            conv_dropout: DropoutConfig::new(cfg.conv_dropout).init(),
        }
    }

    /// Every block's intermediate outputs on slices `[N, 3, H, W]` (no dropout: for inference).
    pub fn trace(&self, x: Tensor<4>) -> Vec<BlockTrace> {
        let mut out: Vec<BlockTrace> = Vec::with_capacity(self.blocks.len());
        let mut x = x;
        for b in &self.blocks {
            let t = b.trace(x);
            x = t.pool.clone();
            out.push(t);
        }
        out
    }
}

impl SliceEncoder for SaDmilEncoder {
    fn encode(&self, x: Tensor<4>) -> Tensor<2> {
        let mut x = x;
        for (i, b) in self.blocks.iter().enumerate() {
            x = b.forward(x);
            if matches!(i + 1, 2 | 5 | 6) {
                x = self.conv_dropout.forward(x);
            }
        }
        let [n, c, h, w] = x.dims();
        // NCHW → NHWC, then flatten: TensorFlow's feature order
        x.permute([0, 2, 3, 1]).reshape([n, h * w * c])
    }
}

/// The slice encoder a network has: exactly one of the two, chosen by the configuration's
/// architecture. (A struct of two options rather than an enum: burn's `Module` derive takes no
/// boxed variants, and the two encoders differ too much in size to sit unboxed in one enum.)
#[derive(Module, Debug)]
pub struct Encoder {
    ich: Option<ConvEncoder>,
    sa_dmil: Option<SaDmilEncoder>,
}

impl Encoder {
    pub fn new(cfg: &AttCnnConfig, device: &Device) -> Self {
        match cfg.architecture {
            Architecture::Ich => Encoder {
                ich: Some(ConvEncoder::new(cfg, device)),
                sa_dmil: None,
            },
            Architecture::SaDmil => Encoder {
                ich: None,
                sa_dmil: Some(SaDmilEncoder::new(cfg, device)),
            },
        }
    }

    /// `ich`'s own encoder, if that is the architecture.
    pub fn ich(&self) -> Option<&ConvEncoder> {
        self.ich.as_ref()
    }

    pub fn ich_mut(&mut self) -> Option<&mut ConvEncoder> {
        self.ich.as_mut()
    }

    /// The SA-DMIL encoder, if that is the architecture.
    pub fn sa_dmil(&self) -> Option<&SaDmilEncoder> {
        self.sa_dmil.as_ref()
    }

    pub fn sa_dmil_mut(&mut self) -> Option<&mut SaDmilEncoder> {
        self.sa_dmil.as_mut()
    }
}

impl SliceEncoder for Encoder {
    fn encode(&self, x: Tensor<4>) -> Tensor<2> {
        match (&self.ich, &self.sa_dmil) {
            (Some(e), _) => e.encode(x),
            (None, Some(e)) => e.encode(x),
            // `new` always sets one; a record cannot remove it (loading keeps the structure)
            (None, None) => unreachable!("an encoder without an architecture"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::TensorData;

    /// Output and weight gradient of a 5×5 'same' convolution on 7 slices, whole and in chunks
    /// of 3, 3 and 1 (a budget of 3 slices' unfolded input).
    #[test]
    fn chunked_convolution_gives_the_whole_result_and_gradient() {
        let device = burn::tensor::Device::flex().autodiff();
        device.seed(5);
        let conv = Conv2dConfig::new([3, 4], [5, 5])
            .with_padding(PaddingConfig2d::Same)
            .init(&device);
        let (n, s) = (7usize, 12usize);
        let v: Vec<f32> = (0..n * 3 * s * s)
            .map(|i| ((i as u32).wrapping_mul(2654435761) >> 24) as f32 / 255.0)
            .collect();
        let x: Tensor<4> = Tensor::from_data(TensorData::new(v, [n, 3, s, s]), &device);
        let run = |budget: usize| {
            let y = conv_in_chunks(&conv, x.clone(), budget);
            // a loss that weighs every output differently, so a misplaced chunk would show
            let w: Vec<f32> = (0..n * 4 * s * s).map(|i| (i % 13) as f32 - 6.0).collect();
            let w: Tensor<4> = Tensor::from_data(TensorData::new(w, [n, 4, s, s]), &device);
            let grads = (y.clone() * w).sum().backward();
            let g = conv.weight.grad(&grads).unwrap().into_data();
            (
                y.into_data().try_to_vec::<f32>().unwrap(),
                g.try_to_vec::<f32>().unwrap(),
            )
        };
        let (y_whole, g_whole) = run(usize::MAX);
        let (y_chunks, g_chunks) = run(3 * s * s * 3 * 25);
        assert_eq!(y_whole.len(), n * 4 * s * s);
        // largest difference relative to the largest value (float sums in another order)
        let max_diff = |a: &[f32], b: &[f32]| {
            let scale = a.iter().fold(1.0f32, |m, v| m.max(v.abs()));
            a.iter()
                .zip(b)
                .map(|(p, q)| (p - q).abs() / scale)
                .fold(0.0f32, f32::max)
        };
        assert!(max_diff(&y_whole, &y_chunks) < 1e-6);
        assert!(g_whole.iter().any(|&g| g.abs() > 1.0));
        assert!(
            max_diff(&g_whole, &g_chunks) < 1e-5,
            "{}",
            max_diff(&g_whole, &g_chunks)
        );
    }
}
