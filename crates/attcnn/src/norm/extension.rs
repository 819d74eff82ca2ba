//! The fused batch norm as a burn backend extension: the operations on `CubeBackend` (the
//! kernels), on `Fusion<CubeBackend>` (generated: registered as one opaque operation) and on
//! `Autodiff<B>` (one backward step calling the fused backward), and the module-level call that
//! `BatchNorm::forward` would make.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::{Autodiff, NodeId};
use burn::backend::ops::ModuleOps;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, AutodiffBackend, Backend, Dispatch};
use burn::nn::BatchNorm;
use burn::tensor::Tensor;
use burn_cubecl::CubeBackend;

use super::kernels;

/// Batch norm over `[N, C, ...]` with per-channel `[C]` parameters and statistics.
#[backend_extension(
    Cube: cfg(any(feature = "wgpu", feature = "cuda")),
    Fusion: cfg(any(feature = "wgpu", feature = "cuda")),
    Autodiff
)]
pub trait FusedBatchNorm: Backend {
    /// Normalises with the batch's statistics: `(output, mean, biased variance)`.
    #[fusion(meta = |x, gamma, _beta, _epsilon| (x.clone(), gamma.clone(), gamma.clone()))]
    fn fused_bn_train(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>);

    /// Normalises with the given statistics.
    #[fusion(dtype = x, shape = x)]
    fn fused_bn_eval(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
    ) -> FloatTensor<Self>;

    /// Gradients of [`fused_bn_train`](Self::fused_bn_train) with respect to its input, γ and β:
    /// `(dx, dγ, dβ)`.
    #[fusion(meta = |x, gamma, _mean, _variance, _epsilon, _grad| (x.clone(), gamma.clone(), gamma.clone()))]
    fn fused_bn_backward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
        grad: FloatTensor<Self>,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>);
}

/// The kernels, for f32 tensors a cube of 256 units can reduce; burn's composition otherwise.
impl FusedBatchNorm for CubeBackend {
    fn fused_bn_train(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        if kernels::supports(&x) {
            return kernels::train_forward(x, gamma, beta, epsilon);
        }
        let r = <Self as ModuleOps<Self>>::batch_norm_train(x, gamma, beta, epsilon);
        (r.output, r.mean, r.variance)
    }

    fn fused_bn_eval(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
    ) -> FloatTensor<Self> {
        if kernels::supports(&x) {
            return kernels::eval_forward(x, gamma, beta, mean, variance, epsilon);
        }
        <Self as ModuleOps<Self>>::batch_norm(x, gamma, beta, mean, variance, epsilon)
    }

    fn fused_bn_backward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
        grad: FloatTensor<Self>,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        if kernels::supports(&x) {
            return kernels::train_backward(x, gamma, mean, variance, epsilon, grad);
        }
        let r = <Self as ModuleOps<Self>>::batch_norm_train_backward(
            x, gamma, mean, variance, epsilon, grad,
        );
        (r.x_grad, r.gamma_grad, r.beta_grad)
    }
}

/// Training: one autodiff step whose backward is the fused backward (the batch statistics are
/// kept from the forward, the input and γ checkpointed). Inference with a tracked input
/// differentiates burn's composition; untracked, it runs the kernel.
impl<B: FusedBatchNorm, C: CheckpointStrategy> FusedBatchNorm for Autodiff<B, C> {
    fn fused_bn_train(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        #[derive(Debug)]
        struct FusedBatchNormStep;

        impl<B: FusedBatchNorm> Backward<B, 3> for FusedBatchNormStep {
            type State = (NodeId, NodeId, FloatTensor<B>, FloatTensor<B>, f64);

            fn backward(
                self,
                ops: Ops<Self::State, 3>,
                grads: &mut Gradients,
                checkpointer: &mut Checkpointer,
            ) {
                let [node_x, node_gamma, node_beta] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (x_state, gamma_state, mean, variance, epsilon) = ops.state;
                let x = checkpointer.retrieve_node_output::<FloatTensor<B>>(x_state);
                let gamma = checkpointer.retrieve_node_output::<FloatTensor<B>>(gamma_state);
                let (dx, dgamma, dbeta) =
                    B::fused_bn_backward(x, gamma, mean, variance, epsilon, grad);
                if let Some(node) = node_x {
                    grads.register::<B>(node.id, dx);
                }
                if let Some(node) = node_gamma {
                    grads.register::<B>(node.id, dgamma);
                }
                if let Some(node) = node_beta {
                    grads.register::<B>(node.id, dbeta);
                }
            }
        }

        match FusedBatchNormStep
            .prepare::<C>([x.node(), gamma.node(), beta.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(mut prep) => {
                let x_state = prep.checkpoint(&x);
                let gamma_state = prep.checkpoint(&gamma);
                let (y, mean, variance) = B::fused_bn_train(
                    x.into_primitive(),
                    gamma.into_primitive(),
                    beta.into_primitive(),
                    epsilon,
                );
                let state = (
                    x_state,
                    gamma_state,
                    mean.clone(),
                    variance.clone(),
                    epsilon,
                );
                (
                    prep.finish(state, y),
                    Self::from_inner(mean),
                    Self::from_inner(variance),
                )
            }
            OpsKind::UnTracked(prep) => {
                let (y, mean, variance) = B::fused_bn_train(
                    x.into_primitive(),
                    gamma.into_primitive(),
                    beta.into_primitive(),
                    epsilon,
                );
                (
                    prep.finish(y),
                    Self::from_inner(mean),
                    Self::from_inner(variance),
                )
            }
        }
    }

    fn fused_bn_eval(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
    ) -> FloatTensor<Self> {
        if x.is_tracked() || gamma.is_tracked() || beta.is_tracked() {
            return <Self as ModuleOps<Self>>::batch_norm(x, gamma, beta, mean, variance, epsilon);
        }
        Self::from_inner(B::fused_bn_eval(
            x.into_primitive(),
            gamma.into_primitive(),
            beta.into_primitive(),
            mean.into_primitive(),
            variance.into_primitive(),
            epsilon,
        ))
    }

    fn fused_bn_backward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
        grad: FloatTensor<Self>,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        let r = <Self as ModuleOps<Self>>::batch_norm_train_backward(
            x, gamma, mean, variance, epsilon, grad,
        );
        (r.x_grad, r.gamma_grad, r.beta_grad)
    }
}

/// What `BatchNorm::forward` does, through the extension: on an autodiff device with the layer's
/// training flag on, the batch statistics normalise and update the running ones with the layer's
/// momentum; otherwise the running statistics normalise.
pub(super) fn batch_norm<const D: usize>(norm: &BatchNorm, x: Tensor<D>) -> Tensor<D> {
    let device = x.device();
    if device.is_autodiff() && norm.training.is_enabled() {
        let (y, mean, variance) = Dispatch::fused_bn_train(
            x.into_dispatch(),
            norm.gamma.val().into_dispatch(),
            norm.beta.val().into_dispatch(),
            norm.epsilon,
        );
        let mean: Tensor<1> = Tensor::from_dispatch(mean);
        let variance: Tensor<1> = Tensor::from_dispatch(variance);
        let m = norm.momentum;
        let running_mean = norm.running_mean.value_sync().to_device(&device);
        let running_var = norm.running_var.value_sync().to_device(&device);
        let running_mean = running_mean
            .mul_scalar(1.0 - m)
            .add(mean.detach().mul_scalar(m));
        let running_var = running_var
            .mul_scalar(1.0 - m)
            .add(variance.detach().mul_scalar(m));
        norm.running_mean.update(running_mean.detach());
        norm.running_var.update(running_var.detach());
        Tensor::from_dispatch(y)
    } else {
        let mean = norm.running_mean.value().to_device(&device);
        let variance = norm.running_var.value().to_device(&device);
        Tensor::from_dispatch(Dispatch::fused_bn_eval(
            x.into_dispatch(),
            norm.gamma.val().into_dispatch(),
            norm.beta.val().into_dispatch(),
            mean.into_dispatch(),
            variance.into_dispatch(),
            norm.epsilon,
        ))
    }
}
