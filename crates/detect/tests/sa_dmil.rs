//! The published SA-DMIL weights imported and run, checked against TensorFlow's own numbers
//! (`../shared/data/pretrained/sa-dmil/reference_tf.json`, computed by TensorFlow 2.21 with the
//! authors' model on the RSNA slice shipped beside it): the preprocessed input, every block of the
//! baseline on that slice, and for both checkpoints and all four bags the slice features,
//! attention scores and weights, pooled vector, Dense-128 output, logit and probability; then
//! `ich predict`'s library on the DICOM file gives TensorFlow's probability for that bag.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use attcnn::inference::{Pixels, Trained};
use burn::tensor::{Tensor, TensorData};
use detect::pipeline::import::{import_sa_dmil, ImportJob};
use detect::pipeline::predict::{PredictOptions, Predictor, Timing};
use preprocess::PreprocessConfig;
use serde_json::Value;

fn shared(rel: &str) -> Option<PathBuf> {
    testkit::shared_data_or_skip(rel)
}

const N: usize = 512;
const PLANE: usize = N * N;

/// The example slice as the network's input: `[3][512][512]` floats (channel-major).
fn example_input(dir: &Path) -> Vec<f32> {
    let (_, img) =
        preprocess::read::read_hu_within(&dir.join("ID_000012eaf.dcm"), false, &Default::default())
            .unwrap();
    let mut out = Vec::new();
    preprocess::pipeline::slice_to_float_channels(&img, &PreprocessConfig::sa_dmil(), &mut out);
    out
}

/// Case b's four slices: the example, flipped left-right, shifted right by 37, shifted down by 23.
fn case_b(x: &[f32]) -> Vec<f32> {
    let mut out = x.to_vec();
    let mut flip = vec![0f32; 3 * PLANE];
    let mut right = vec![0f32; 3 * PLANE];
    let mut down = vec![0f32; 3 * PLANE];
    for c in 0..3 {
        for r in 0..N {
            for k in 0..N {
                let at = c * PLANE + r * N + k;
                flip[at] = x[c * PLANE + r * N + (N - 1 - k)];
                if k >= 37 {
                    right[at] = x[c * PLANE + r * N + k - 37];
                }
                if r >= 23 {
                    down[at] = x[c * PLANE + (r - 23) * N + k];
                }
            }
        }
    }
    out.extend(flip);
    out.extend(right);
    out.extend(down);
    out
}

fn reference(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("reference_tf.json")).unwrap()).unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn host<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().unwrap()
}

/// Largest relative difference, relative to max(|reference|, 1) (values near zero compared
/// absolutely), and where it is.
#[derive(Default)]
struct Worst(f64, String);

impl Worst {
    fn see(&mut self, what: &str, got: f64, want: f64) {
        let d = (got - want).abs() / want.abs().max(1.0);
        assert!(d.is_finite(), "{what}: {got} vs {want}");
        if d > self.0 {
            *self = Worst(d, format!("{what}: {got} vs TensorFlow {want}"));
        }
    }
}

fn imported(dir: &Path, ckpt: &str, pad: bool) -> (tempfile::TempDir, Trained) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("bundle");
    import_sa_dmil(&ImportJob {
        checkpoint: dir.join(ckpt),
        out: out.clone(),
        pad,
    })
    .unwrap();
    let b = detect::Bundle::open(&out).unwrap();
    let net = Trained::load(b.cnn.model.clone(), &b.weights(), &attcnn::cpu_device()).unwrap();
    (tmp, net)
}

#[test]
fn preprocessed_input_matches_tensorflow() {
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    let r = reference(&dir);
    let x = example_input(&dir);
    assert_eq!(x.len(), 3 * PLANE);
    let mut worst = 0f64;
    for s in r["input"]["samples"].as_array().unwrap() {
        let (row, col) = (
            s["row"].as_u64().unwrap() as usize,
            s["col"].as_u64().unwrap() as usize,
        );
        for (c, want) in floats(&s["values"]).into_iter().enumerate() {
            let got = x[c * PLANE + row * N + col] as f64;
            worst = worst.max((got - want).abs());
        }
    }
    for (c, want) in floats(&r["input"]["mean_per_channel"])
        .into_iter()
        .enumerate()
    {
        let mean = x[c * PLANE..(c + 1) * PLANE]
            .iter()
            .map(|&v| v as f64)
            .sum::<f64>()
            / PLANE as f64;
        worst = worst.max((mean - want).abs());
    }
    eprintln!("input: largest difference {worst:.2e}");
    assert!(
        worst <= 1e-6,
        "input differs from TensorFlow's by {worst:e}"
    );
}

#[test]
fn every_block_of_the_baseline_matches_tensorflow_on_one_slice() {
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    let r = reference(&dir);
    let (_tmp, net) = imported(&dir, "baseline.ckpt", true);
    let enc = net
        .model()
        .encoder()
        .sa_dmil()
        .expect("an imported bundle has the SA-DMIL encoder");
    let x: Tensor<4> = Tensor::from_data(
        TensorData::new(example_input(&dir), [1, 3, N, N]),
        net.device(),
    );
    let trace = enc.trace(x);
    assert_eq!(trace.len(), 6);
    let layers = &r["layers_baseline_case_a"];
    let mut worst = Worst::default();
    for (k, t) in trace.into_iter().enumerate() {
        for (stage, tensor) in [("conv_relu", t.conv_relu), ("bn", t.norm), ("pool", t.pool)] {
            let key = format!("block{}_{stage}", k + 1);
            let want = &layers[&key];
            let [_, c, h, w] = tensor.dims();
            let shape: Vec<usize> = want["shape_hwc"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as usize)
                .collect();
            assert_eq!(shape, [h, w, c], "{key}");
            let v = host(tensor);
            let n = (h * w * c) as f64;
            let mean = v.iter().map(|&a| a as f64).sum::<f64>() / n;
            let sd = (v.iter().map(|&a| (a as f64 - mean).powi(2)).sum::<f64>() / n).sqrt();
            worst.see(&format!("{key} mean"), mean, want["mean"].as_f64().unwrap());
            worst.see(&format!("{key} std"), sd, want["std"].as_f64().unwrap());
            for (ch, m) in floats(&want["mean_per_channel"]).into_iter().enumerate() {
                let got = v[ch * h * w..(ch + 1) * h * w]
                    .iter()
                    .map(|&a| a as f64)
                    .sum::<f64>()
                    / (h * w) as f64;
                worst.see(&format!("{key} channel {ch} mean"), got, m);
            }
            for s in want["samples"].as_array().unwrap() {
                let (row, col, ch) = (
                    s["row"].as_u64().unwrap() as usize,
                    s["col"].as_u64().unwrap() as usize,
                    s["channel"].as_u64().unwrap() as usize,
                );
                let got = v[(ch * h + row) * w + col] as f64;
                worst.see(
                    &format!("{key} [{row}, {col}, {ch}]"),
                    got,
                    s["value"].as_f64().unwrap(),
                );
            }
        }
    }
    eprintln!(
        "layers: largest relative difference {:.2e} ({})",
        worst.0, worst.1
    );
    assert!(worst.0 <= 1e-4, "{}", worst.1);
}

#[test]
fn both_checkpoints_and_all_four_bags_match_tensorflow() {
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    let r = reference(&dir);
    let x = case_b(&example_input(&dir));
    let mut worst = Worst::default();
    for ckpt in ["baseline", "att_0_9"] {
        let (_tmp, padded) = imported(&dir, &format!("{ckpt}.ckpt"), true);
        let (_tmp2, plain) = imported(&dir, &format!("{ckpt}.ckpt"), false);
        let model = plain.model();
        let dev = plain.device();
        // the network piece by piece on the four slices and the zero slice
        let mut all = x.clone();
        all.extend(vec![0f32; 3 * PLANE]);
        let h = attcnn::encoder::SliceEncoder::encode(
            model.encoder(),
            Tensor::from_data(TensorData::new(all, [5, 3, N, N]), dev),
        );
        let feats = host(h.clone());
        let d = 1152;
        let scores = host(model.gated_attention().scores(h.reshape([1, 5, d])));
        for (case, slices, pad) in [("a", 1, 0), ("b", 4, 0), ("c", 4, 53), ("d", 1, 56)] {
            let want = &r["models"][ckpt][case];
            let tag = |w: &str| format!("{ckpt} case {case} {w}");
            assert_eq!(want["bag_size"].as_u64().unwrap() as usize, slices + pad);
            // the bag: real slices, then `pad` zero slices (index 4 of the batch)
            let idx: Vec<usize> = (0..slices).chain(std::iter::repeat_n(4, pad)).collect();
            for (i, f) in want["flatten_hwc_order"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
            {
                for (j, v) in floats(f).into_iter().enumerate() {
                    let got = feats[idx[i] * d + j] as f64;
                    worst.see(&tag(&format!("feature [{i}][{j}]")), got, v);
                }
            }
            let s: Vec<f64> = idx.iter().map(|&i| scores[i] as f64).collect();
            for (i, v) in floats(&want["attention_scores"]).into_iter().enumerate() {
                worst.see(&tag(&format!("attention score {i}")), s[i], v);
            }
            let m = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = s.iter().map(|v| (v - m).exp()).collect();
            let z: f64 = e.iter().sum();
            let a: Vec<f64> = e.iter().map(|v| v / z).collect();
            for (i, v) in floats(&want["attention"]).into_iter().enumerate() {
                worst.see(&tag(&format!("attention {i}")), a[i], v);
            }
            let mut pooled = vec![0f64; d];
            for (w, &i) in a.iter().zip(&idx) {
                for (p, &f) in pooled.iter_mut().zip(&feats[i * d..(i + 1) * d]) {
                    *p += w * f as f64;
                }
            }
            for (j, v) in floats(&want["pooled"]).into_iter().enumerate() {
                worst.see(&tag(&format!("pooled {j}")), pooled[j], v);
            }
            let pt: Tensor<2> = Tensor::from_data(
                TensorData::new(pooled.iter().map(|&v| v as f32).collect::<Vec<_>>(), [1, d]),
                dev,
            );
            let c = model.classifier();
            let dense = c.fc1.forward(pt);
            let logit = host(c.fc2.forward(dense.clone()))[0] as f64;
            for (j, v) in floats(&want["dense128"]).into_iter().enumerate() {
                worst.see(
                    &tag(&format!("dense128 {j}")),
                    host(dense.clone())[j] as f64,
                    v,
                );
            }
            worst.see(&tag("logit"), logit, want["logit"].as_f64().unwrap());
            let p_want = want["probability"].as_f64().unwrap();
            worst.see(&tag("probability"), 1.0 / (1.0 + (-logit).exp()), p_want);

            // and the inference path `ich predict` uses, with the bundle's padding
            let net = if pad > 0 { &padded } else { &plain };
            let out = net
                .scan_pixels(slices, Pixels::Floats(&x[..slices * 3 * PLANE]))
                .unwrap();
            let rel = (out.probability - p_want).abs() / p_want;
            assert!(
                rel <= 1e-4,
                "{}: {} vs {p_want}",
                tag("scan probability"),
                out.probability
            );
            for (i, &w) in out.attention.iter().enumerate() {
                worst.see(&tag(&format!("inference attention {i}")), w as f64, a[i]);
            }
            let share: f64 = a[slices..].iter().sum();
            worst.see(&tag("padding share"), out.padding_attention as f64, share);
        }
    }
    eprintln!(
        "bags: largest relative difference {:.2e} ({})",
        worst.0, worst.1
    );
    assert!(worst.0 <= 1e-4, "{}", worst.1);
}

/// `ich predict`'s library on the RSNA DICOM file: the bundle pads to 57 as the authors did, so
/// the scan probability is TensorFlow's case d; without padding, case a. With no GP head, every
/// slice gets the network's probability for that slice alone (here the scan's own) and no spread.
#[test]
fn predicting_the_dicom_file_gives_tensorflows_probability() {
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    let r = reference(&dir);
    let dcm = dir.join("ID_000012eaf.dcm");
    for (pad, case) in [(true, "d"), (false, "a")] {
        let tmp = tempfile::tempdir().unwrap();
        let bundle = tmp.path().join("b");
        import_sa_dmil(&ImportJob {
            checkpoint: dir.join("baseline.ckpt"),
            out: bundle.clone(),
            pad,
        })
        .unwrap();
        let p = Predictor::open(&bundle, PredictOptions::default()).unwrap();
        let (scans, _) =
            preprocess::pipeline::find_scans(std::slice::from_ref(&dcm), &milbase::Quiet).unwrap();
        assert_eq!(scans.len(), 1);
        let skipped = Mutex::new(Default::default());
        let pred = p
            .predict_dicom(
                &scans[0],
                &Default::default(),
                &skipped,
                &mut Timing::default(),
            )
            .unwrap();
        let want = r["models"]["baseline"][case]["probability"]
            .as_f64()
            .unwrap();
        let s = &pred.report;
        // the network's deterministic output is TensorFlow's; the reported probability is the
        // mean of its dropout passes, whose 90 % interval holds TensorFlow's number
        assert!(
            ((s.cnn_probability - want) / want).abs() <= 1e-4,
            "pad {pad}: {} vs TensorFlow {want}",
            s.cnn_probability
        );
        assert!(
            s.sd > 0.0 && s.lo < s.probability && s.probability < s.hi,
            "{s:?}"
        );
        assert!(
            s.lo <= want && want <= s.hi,
            "pad {pad}: TensorFlow {want} outside [{}, {}]",
            s.lo,
            s.hi
        );
        assert_eq!(s.slices.len(), 1);
        let one = &s.slices[0];
        assert!(one.sd > 0.0 && one.lo <= want && want <= one.hi, "{one:?}");
        let att = r["models"]["baseline"][case]["attention"][0]
            .as_f64()
            .unwrap();
        assert!(
            (s.slices[0].attention - att).abs() <= 1e-5,
            "{}",
            s.slices[0].attention
        );
        assert!(p.model_info().uncertainty);
        assert!(p.model_info().interval.unwrap().contains("dropout"));
    }
}
