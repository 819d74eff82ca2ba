//! Weights trained elsewhere: the variables of the published SA-DMIL Keras checkpoints
//! (`layer_with_weights-N/...`, README of `shared/data/pretrained/sa-dmil`) put into an
//! [`AttCnn`] of [`Architecture::SaDmil`]. The caller reads the checkpoint (attcnn knows no file
//! format) and hands each variable over by name.

use burn::module::{Param, RunningState};
use burn::tensor::{Device, Tensor, TensorData};

use crate::config::Architecture;
use crate::model::{AttCnn, AttCnnConfig};
use crate::{CnnError, Result};

/// A tensor as read from a checkpoint: shape and row-major float32 values.
#[derive(Debug, Clone)]
pub struct HostTensor {
    pub shape: Vec<usize>,
    pub values: Vec<f32>,
}

/// The checkpoint variable of layer `n`, e.g. `layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`.
pub fn keras_variable(n: usize, field: &str) -> String {
    format!("layer_with_weights-{n}/{field}/.ATTRIBUTES/VARIABLE_VALUE")
}

/// Builds the SA-DMIL network from its Keras variables: convolutions at layers 0, 2, …, 10
/// (kernels height × width × in × out, transposed to burn's out × in × height × width), batch
/// norms at 1, 3, …, 11 (γ, β, moving mean and variance), gated attention at 12 (V, U: D × H,
/// w: H × 1, no biases), Dense 128 at 13 and Dense 1 at 14 (kernels in × out, as burn's).
/// Every shape is checked against `cfg`; a missing or misshapen variable is named in the error.
pub fn sa_dmil_from_variables(
    cfg: &AttCnnConfig,
    mut get: impl FnMut(&str) -> std::result::Result<HostTensor, String>,
    device: &Device,
) -> Result<AttCnn> {
    cfg.validate().map_err(CnnError::Config)?;
    if cfg.architecture != Architecture::SaDmil {
        return Err(CnnError::Config(
            "Keras SA-DMIL variables need the sa-dmil architecture".into(),
        ));
    }
    let mut model = cfg.init(device);
    let mut take = |n: usize, field: &str, shape: &[usize]| -> Result<Vec<f32>> {
        let name = keras_variable(n, field);
        let t = get(&name).map_err(|e| CnnError::Data(format!("{name}: {e}")))?;
        if t.shape != shape {
            return Err(CnnError::Data(format!(
                "{name}: shape {:?}, the architecture needs {shape:?}",
                t.shape
            )));
        }
        if t.values.len() != shape.iter().product::<usize>() {
            return Err(CnnError::Data(format!(
                "{name}: {} values for shape {shape:?}",
                t.values.len()
            )));
        }
        if let Some(bad) = t.values.iter().position(|v| !v.is_finite()) {
            return Err(CnnError::Data(format!("{name}: value {bad} is not finite")));
        }
        Ok(t.values)
    };
    let t1 = |v: Vec<f32>| Tensor::<1>::from_data(TensorData::new(v.clone(), [v.len()]), device);
    let enc = model
        .encoder
        .sa_dmil_mut()
        .ok_or_else(|| CnnError::Config("the network has no SA-DMIL encoder".into()))?;
    for (k, block) in enc.blocks.iter_mut().enumerate() {
        let [cout, cin, kh, kw] = block.conv.weight.val().dims();
        let hwio = take(2 * k, "kernel", &[kh, kw, cin, cout])?;
        let mut oihw = vec![0f32; hwio.len()];
        for h in 0..kh {
            for w in 0..kw {
                for i in 0..cin {
                    for o in 0..cout {
                        oihw[((o * cin + i) * kh + h) * kw + w] =
                            hwio[((h * kw + w) * cin + i) * cout + o];
                    }
                }
            }
        }
        block.conv.weight = Param::from_tensor(Tensor::from_data(
            TensorData::new(oihw, [cout, cin, kh, kw]),
            device,
        ));
        block.conv.bias = Some(Param::from_tensor(t1(take(2 * k, "bias", &[cout])?)));
        let bn = 2 * k + 1;
        block.norm.gamma = Param::from_tensor(t1(take(bn, "gamma", &[cout])?));
        block.norm.beta = Param::from_tensor(t1(take(bn, "beta", &[cout])?));
        block.norm.running_mean = RunningState::new(t1(take(bn, "moving_mean", &[cout])?));
        let var = take(bn, "moving_variance", &[cout])?;
        if let Some(i) = var.iter().position(|&v| v < 0.0) {
            return Err(CnnError::Data(format!(
                "{}: variance {i} is negative",
                keras_variable(bn, "moving_variance")
            )));
        }
        block.norm.running_var = RunningState::new(t1(var));
    }
    let att = 2 * enc.blocks.len();
    let (d, hid) = (cfg.dim, cfg.att_hidden);
    let t2 = |v: Vec<f32>, r: usize, c: usize| {
        Param::from_tensor(Tensor::<2>::from_data(TensorData::new(v, [r, c]), device))
    };
    model.attention.v.weight = t2(take(att, "v", &[d, hid])?, d, hid);
    model.attention.u.weight = t2(take(att, "u", &[d, hid])?, d, hid);
    model.attention.w.weight = t2(take(att, "w", &[hid, 1])?, hid, 1);
    let fc1 = model.classifier.fc1.weight.val().dims()[1];
    model.classifier.fc1.weight = t2(take(att + 1, "kernel", &[d, fc1])?, d, fc1);
    model.classifier.fc1.bias = Some(Param::from_tensor(t1(take(att + 1, "bias", &[fc1])?)));
    model.classifier.fc2.weight = t2(take(att + 2, "kernel", &[fc1, 1])?, fc1, 1);
    model.classifier.fc2.bias = Some(Param::from_tensor(t1(take(att + 2, "bias", &[1])?)));
    Ok(model)
}
