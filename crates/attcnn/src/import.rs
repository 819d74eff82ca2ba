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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Every variable the SA-DMIL network needs at its shape (small input: the same names).
    fn variables(cfg: &AttCnnConfig) -> HashMap<String, HostTensor> {
        let mut m = HashMap::new();
        let mut put = |n: usize, f: &str, shape: Vec<usize>| {
            let len = shape.iter().product();
            m.insert(
                keras_variable(n, f),
                HostTensor {
                    shape,
                    values: (0..len).map(|i| (i % 7) as f32 * 0.01).collect(),
                },
            );
        };
        let (rest, _) = cfg.geometry();
        for k in 0..=rest {
            let (cin, kk) = if k == 0 {
                (3, 5)
            } else if k == 1 {
                (16, 3)
            } else {
                (32, 3)
            };
            let cout = if k == 0 { 16 } else { 32 };
            put(2 * k, "kernel", vec![kk, kk, cin, cout]);
            put(2 * k, "bias", vec![cout]);
            for f in ["gamma", "beta", "moving_mean", "moving_variance"] {
                put(2 * k + 1, f, vec![cout]);
            }
        }
        let a = 2 * (rest + 1);
        put(a, "v", vec![cfg.dim, cfg.att_hidden]);
        put(a, "u", vec![cfg.dim, cfg.att_hidden]);
        put(a, "w", vec![cfg.att_hidden, 1]);
        put(a + 1, "kernel", vec![cfg.dim, 128]);
        put(a + 1, "bias", vec![128]);
        put(a + 2, "kernel", vec![128, 1]);
        put(a + 2, "bias", vec![1]);
        m
    }

    fn small() -> AttCnnConfig {
        let mut c = AttCnnConfig {
            size: 64,
            ..AttCnnConfig::sa_dmil()
        };
        c.dim = c.flatten();
        c
    }

    fn build(cfg: &AttCnnConfig, vars: &HashMap<String, HostTensor>) -> Result<AttCnn> {
        // initialising draws from burn's shared generator (then the variables replace it all)
        let _rng = milbase::sync::lock(&crate::RNG_LOCK);
        sa_dmil_from_variables(
            cfg,
            |name| {
                vars.get(name)
                    .cloned()
                    .ok_or_else(|| "no such variable".into())
            },
            &crate::cpu_device(),
        )
    }

    /// A convolution kernel lands transposed (height × width × in × out → out × in × height ×
    /// width): the value at TF index (h, w, i, o) is burn's (o, i, h, w).
    #[test]
    fn kernels_are_transposed_and_everything_loads() {
        let cfg = small();
        let mut vars = variables(&cfg);
        let k0 = keras_variable(0, "kernel");
        let t = vars.get_mut(&k0).unwrap();
        let (h, w, i, o) = (4, 1, 2, 9);
        t.values[((h * 5 + w) * 3 + i) * 16 + o] = 42.0;
        let m = build(&cfg, &vars).unwrap();
        let enc = m.encoder().sa_dmil().unwrap();
        let burn_w = enc.blocks[0]
            .conv
            .weight
            .val()
            .into_data()
            .try_to_vec::<f32>()
            .unwrap();
        assert_eq!(burn_w[((o * 3 + i) * 5 + h) * 5 + w], 42.0);
        assert_eq!(burn_w.iter().filter(|&&v| v == 42.0).count(), 1);
    }

    #[test]
    fn a_missing_misshapen_or_broken_variable_is_named() {
        let cfg = small();
        let vars = variables(&cfg);
        let name = keras_variable(3, "moving_variance");
        let mut missing = vars.clone();
        missing.remove(&name);
        let mut shape = vars.clone();
        shape.get_mut(&name).unwrap().shape = vec![31];
        let mut nan = vars.clone();
        nan.get_mut(&name).unwrap().values[2] = f32::NAN;
        let mut negative = vars.clone();
        negative.get_mut(&name).unwrap().values[2] = -1.0;
        for (what, v) in [
            ("missing", missing),
            ("shape", shape),
            ("nan", nan),
            ("negative", negative),
        ] {
            let e = build(&cfg, &v).expect_err(what).to_string();
            assert!(e.contains(&name), "{what}: {e}");
        }
        // and the ich architecture is refused
        assert!(build(&AttCnnConfig::default(), &vars).is_err());
    }
}
