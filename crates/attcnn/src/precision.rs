//! The float type the network computes in. Its weights, and Adam's state, stay f32 ("master
//! weights"): each training step runs forward and backward on a half-precision copy, and the
//! gradients flow back through the cast to the f32 weights. Trained with half-precision weights
//! themselves, the demo did not learn (held-out AUC 0.42 against 0.998 in f32, 18 epochs): an
//! Adam step of lr 2e-4 is below bf16's resolution (8 bits of mantissa) for most weights.

use burn::module::{Module, ModuleMapper, Param};
use burn::tensor::{FloatDType, Tensor};
use serde::{Deserialize, Serialize};

use crate::model::AttCnn;

/// The float type of the network's arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Precision {
    /// 32-bit floats.
    #[default]
    F32,
    /// bfloat16: f32's range with 8 bits of mantissa.
    Bf16,
    /// IEEE half: 11 bits of mantissa, but values beyond ±65,504 overflow.
    F16,
}

impl Precision {
    pub fn dtype(self) -> FloatDType {
        match self {
            Precision::F32 => FloatDType::F32,
            Precision::Bf16 => FloatDType::BF16,
            Precision::F16 => FloatDType::F16,
        }
    }

    /// `model` with every float parameter cast to this float type. On an autodiff device the
    /// cast is part of the graph: gradients reach the original parameters.
    pub fn cast(self, model: AttCnn) -> AttCnn {
        model.map(&mut CastTo(self.dtype()))
    }

    /// `x` in this float type (unchanged in f32).
    pub fn input<const D: usize>(self, x: Tensor<D>) -> Tensor<D> {
        match self {
            Precision::F32 => x,
            _ => x.cast(self.dtype()),
        }
    }
}

/// Casts every float parameter of a module to one float type.
pub struct CastTo(pub FloatDType);

impl ModuleMapper for CastTo {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let dtype = self.0;
        param.map(|t| t.cast(dtype))
    }
}
