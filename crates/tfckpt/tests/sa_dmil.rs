//! The published SA-DMIL checkpoints of `../shared/data/pretrained/sa-dmil/` read without
//! TensorFlow: every entry and CRC, the shapes the README lists, a corrupted byte caught with the
//! variable's name, and the attention/classifier head computed from the read weights on
//! TensorFlow's own slice features, against TensorFlow's outputs (`reference_tf.json`).

use std::path::PathBuf;

use tfckpt::{Checkpoint, DType};

fn shared(rel: &str) -> Option<PathBuf> {
    let base = std::env::var_os("ICH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let p = base.join(rel);
    if p.exists() {
        return Some(p);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} is missing and CI is set",
        p.display()
    );
    eprintln!("skipped: {} is missing", p.display());
    None
}

const V: &str = "/.ATTRIBUTES/VARIABLE_VALUE";

fn var(layer: usize, name: &str) -> String {
    format!("layer_with_weights-{layer}/{name}{V}")
}

#[test]
fn both_checkpoints_read_with_every_crc_and_the_documented_shapes() {
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    for ck in ["baseline.ckpt", "att_0_9.ckpt"] {
        let c = Checkpoint::open(&dir.join(ck)).unwrap();
        assert_eq!(c.entries().len(), 109, "{ck}: entries besides the header");
        let model: Vec<&String> = c
            .entries()
            .keys()
            .filter(|k| k.starts_with("layer_with_weights-") && !k.contains("OPTIMIZER_SLOT"))
            .collect();
        assert_eq!(model.len(), 43, "{ck}");
        assert_eq!(c.verify().unwrap(), 109);
        // the object graph is a string tensor, whose CRC TensorFlow computes its own way
        assert_eq!(
            c.entries()["_CHECKPOINTABLE_OBJECT_GRAPH"].dtype,
            DType::String
        );
        let shape = |l: usize, n: &str| c.entries()[&var(l, n)].shape.clone();
        assert_eq!(shape(0, "kernel"), [5, 5, 3, 16]);
        assert_eq!(shape(2, "kernel"), [3, 3, 16, 32]);
        for l in [4, 6, 8, 10] {
            assert_eq!(shape(l, "kernel"), [3, 3, 32, 32]);
            assert_eq!(shape(l, "bias"), [32]);
        }
        for n in ["gamma", "beta", "moving_mean", "moving_variance"] {
            assert_eq!(shape(1, n), [16]);
            assert_eq!(shape(11, n), [32]);
        }
        assert_eq!(shape(12, "v"), [1152, 64]);
        assert_eq!(shape(12, "u"), [1152, 64]);
        assert_eq!(shape(12, "w"), [64, 1]);
        assert_eq!(shape(13, "kernel"), [1152, 128]);
        assert_eq!(shape(14, "kernel"), [128, 1]);
        assert_eq!(shape(14, "bias"), [1]);
        assert!(model
            .iter()
            .all(|k| c.entries()[k.as_str()].dtype == DType::Float32));
        // the moving variances of batch norm are positive, as trained statistics must be
        let mv = c.tensor(&var(1, "moving_variance")).unwrap();
        assert!(mv.data.iter().all(|&v| v > 0.0 && v.is_finite()));
    }
}

#[test]
fn a_corrupted_byte_fails_naming_the_variable_and_a_corrupted_index_fails_to_open() {
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let prefix = t.path().join("ck");
    let idx = std::fs::read(dir.join("baseline.ckpt.index")).unwrap();
    let mut data = std::fs::read(dir.join("baseline.ckpt.data-00000-of-00001")).unwrap();
    std::fs::write(t.path().join("ck.index"), &idx).unwrap();
    let c = {
        std::fs::write(t.path().join("ck.data-00000-of-00001"), &data).unwrap();
        Checkpoint::open(&prefix).unwrap()
    };
    let name = var(12, "v");
    let e = &c.entries()[&name];
    data[(e.offset + e.size / 2) as usize] ^= 0x01;
    std::fs::write(t.path().join("ck.data-00000-of-00001"), &data).unwrap();
    let err = c.tensor(&name).unwrap_err().to_string();
    assert!(
        err.contains(&name) && err.contains("CRC32C mismatch"),
        "{err}"
    );
    let err = c.verify().unwrap_err().to_string();
    assert!(err.contains(&name), "{err}");
    // other variables still read
    assert!(c.tensor(&var(12, "u")).is_ok());
    // one byte of the index changed: its block CRC catches it
    let mut bad = idx.clone();
    bad[idx.len() / 3] ^= 0x20;
    std::fs::write(t.path().join("ck.index"), &bad).unwrap();
    let err = Checkpoint::open(&prefix).unwrap_err().to_string();
    assert!(err.contains("ck.index") && err.contains("CRC32C"), "{err}");
    // not a checkpoint at all
    std::fs::write(t.path().join("ck.index"), b"hello").unwrap();
    assert!(Checkpoint::open(&prefix).is_err());
}

fn nums(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-4 * want.abs().max(1.0)
}

#[test]
fn the_attention_and_classifier_weights_reproduce_tensorflow_on_its_own_features() {
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("reference_tf.json")).unwrap()).unwrap();
    let mut worst = 0.0f64;
    for ck in ["baseline", "att_0_9"] {
        let c = Checkpoint::open(&dir.join(format!("{ck}.ckpt"))).unwrap();
        let t = |l: usize, n: &str| c.tensor(&var(l, n)).unwrap().data;
        let (v, u, w) = (t(12, "v"), t(12, "u"), t(12, "w"));
        let (k13, b13, k14, b14) = (
            t(13, "kernel"),
            t(13, "bias"),
            t(14, "kernel"),
            t(14, "bias"),
        );
        // bags whose every slice's features are listed (a: 1 slice, b: 4)
        for case in ["a", "b"] {
            let want = &r["models"][ck][case];
            let h: Vec<Vec<f64>> = want["flatten_hwc_order"]
                .as_array()
                .unwrap()
                .iter()
                .map(nums)
                .collect();
            assert_eq!(h.len() as u64, want["bag_size"].as_u64().unwrap());
            let scores: Vec<f64> = h
                .iter()
                .map(|x| {
                    (0..64)
                        .map(|j| {
                            let (mut a, mut b) = (0.0, 0.0);
                            for i in 0..1152 {
                                a += x[i] * v[i * 64 + j] as f64;
                                b += x[i] * u[i * 64 + j] as f64;
                            }
                            a.tanh() / (1.0 + (-b).exp()) * w[j] as f64
                        })
                        .sum()
                })
                .collect();
            let m = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = scores.iter().map(|s| (s - m).exp()).sum();
            let att: Vec<f64> = scores.iter().map(|s| (s - m).exp() / z).collect();
            let pooled: Vec<f64> = (0..1152)
                .map(|i| att.iter().zip(&h).map(|(a, x)| a * x[i]).sum())
                .collect();
            let dense: Vec<f64> = (0..128)
                .map(|j| {
                    b13[j] as f64
                        + (0..1152)
                            .map(|i| pooled[i] * k13[i * 128 + j] as f64)
                            .sum::<f64>()
                })
                .collect();
            let logit = b14[0] as f64 + (0..128).map(|j| dense[j] * k14[j] as f64).sum::<f64>();
            let prob = 1.0 / (1.0 + (-logit).exp());
            let checks: [(&str, Vec<f64>, Vec<f64>); 6] = [
                ("attention_scores", scores, nums(&want["attention_scores"])),
                ("attention", att, nums(&want["attention"])),
                ("pooled", pooled, nums(&want["pooled"])),
                ("dense128", dense, nums(&want["dense128"])),
                ("logit", vec![logit], vec![want["logit"].as_f64().unwrap()]),
                (
                    "probability",
                    vec![prob],
                    vec![want["probability"].as_f64().unwrap()],
                ),
            ];
            for (what, got, exp) in checks {
                assert_eq!(got.len(), exp.len(), "{ck}/{case} {what}");
                for (g, e) in got.iter().zip(&exp) {
                    assert!(close(*g, *e), "{ck}/{case} {what}: {g} vs TensorFlow {e}");
                    worst = worst.max((g - e).abs() / e.abs().max(1.0));
                }
            }
        }
    }
    eprintln!("largest difference from TensorFlow (relative to max(1, |x|)): {worst:.2e}");
}
