//! The CNN stage through the real binary: synth → preprocess → train-cnn → extract → G-VGPMIL,
//! on small synthetic cohorts (32² slices, so CI runs it in seconds).

mod common;

use common::{ich, ok, s};

use std::path::Path;

fn cohort(dir: &Path, name: &str, scans: &str, seed: &str) -> std::path::PathBuf {
    let raw = dir.join(format!("{name}-dicom"));
    let ds = dir.join(format!("{name}-ds"));
    common::synth(&raw, scans, "6", "64", seed);
    common::preprocess(&raw, &ds, "32", &[]);
    ds
}

/// The mechanics of the CNN stage: train, checkpoint, log, extract a features file that the GP
/// head reads, resume. (Learning from scan labels is asserted by the demo test in
/// `predict_cli.rs`: it needs a few hundred scans.)
#[test]
fn train_extract_fit_and_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let train = cohort(tmp.path(), "train", "12", "21");
    let test = cohort(tmp.path(), "test", "8", "22");
    let model = tmp.path().join("model");
    let args = [
        "-q",
        "train-cnn",
        "--dataset",
        s(&train),
        "--out",
        s(&model),
        "--dim",
        "8",
        "--epochs",
        "2",
        "--lr",
        "1e-3",
        "--seed",
        "1",
    ];
    let out = ok(&args);
    for f in [
        "config.json",
        "model.bpk",
        "log.csv",
        "checkpoint/state.json",
        "checkpoint/model-last.bpk",
    ] {
        assert!(model.join(f).exists(), "{f} missing:\n{out}");
    }
    let log = std::fs::read_to_string(model.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 3, "{log}");
    let cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(model.join("config.json")).unwrap()).unwrap();
    assert_eq!(cfg["model"]["dim"], 8);
    assert_eq!(cfg["preprocess"]["size"], 32);
    let n_train = cfg["train_scans"].as_array().unwrap().len();
    let n_valid = cfg["valid_scans"].as_array().unwrap().len();
    assert_eq!(n_train + n_valid, 12);

    let ftrain = tmp.path().join("train.csv");
    let ftest = tmp.path().join("test.csv");
    ok(&[
        "-q",
        "extract",
        "--model",
        s(&model),
        "--dataset",
        s(&train),
        "--out",
        s(&ftrain),
    ]);
    ok(&[
        "-q",
        "extract",
        "--model",
        s(&model),
        "--dataset",
        s(&test),
        "--out",
        s(&ftest),
    ]);
    let text = std::fs::read_to_string(&ftest).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("feature_0,")
            && header.contains("feature_7,")
            && !header.contains("feature_8")
    );
    assert!(header.contains("bag_cnn_probability") && header.contains("cnn_attention"));
    assert_eq!(lines.count(), 8 * 6, "one row per slice");
    // attention sums to 1 within each scan
    let mut rdr = csv::Reader::from_path(&ftest).unwrap();
    let h = rdr.headers().unwrap().clone();
    let (ib, ia) = (
        h.iter().position(|c| c == "bag_name").unwrap(),
        h.iter().position(|c| c == "cnn_attention").unwrap(),
    );
    let mut sums = std::collections::HashMap::<String, f64>::new();
    for r in rdr.records() {
        let r = r.unwrap();
        *sums.entry(r[ib].to_string()).or_default() += r[ia].parse::<f64>().unwrap();
    }
    assert!(sums.values().all(|v| (v - 1.0).abs() < 1e-4), "{sums:?}");

    // the GP head reads the features
    let gp = tmp.path().join("gp.json");
    ok(&[
        "-q",
        "fit-gp",
        "--features",
        s(&ftrain),
        "--model",
        "g-vgpmil",
        "--inducing",
        "10",
        "--out",
        s(&gp),
    ]);
    assert!(gp.exists());

    // a rerun with --resume continues after the last finished epoch
    let mut more: Vec<&str> = args.to_vec();
    more[9] = "3";
    more.push("--resume");
    more.retain(|a| *a != "-q");
    let again = ok(&more);
    assert!(again.contains("resumed after epoch 1"), "{again}");
    let log = std::fs::read_to_string(model.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
}

#[test]
fn extract_refuses_a_dataset_with_other_windows() {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("dicom");
    common::synth(&raw, "6", "4", "64", "5");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    common::preprocess(&raw, &a, "32", &[]);
    common::preprocess(&raw, &b, "32", &["--soft-window", "30/30"]);
    let model = tmp.path().join("m");
    ok(&[
        "-q",
        "train-cnn",
        "--dataset",
        s(&a),
        "--out",
        s(&model),
        "--dim",
        "8",
        "--epochs",
        "1",
    ]);
    let o = ich(&[
        "-q",
        "extract",
        "--model",
        s(&model),
        "--dataset",
        s(&b),
        "--out",
        s(&tmp.path().join("f.csv")),
    ]);
    assert!(!o.status.success());
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("windows"), "{text}");
}

/// A training run whose output goes to files (as under a scheduler, `ich train-cnn … 2>log`) has
/// each epoch once: as a log event, not also as a human line; `--log-json` makes every log line a
/// JSON object carrying the epoch's numbers.
#[test]
fn a_redirected_training_logs_each_epoch_once() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = cohort(tmp.path(), "t", "6", "3");
    for (k, json) in [(0, false), (1, true)] {
        let model = tmp.path().join(format!("model{k}"));
        let mut args = vec![
            "train-cnn",
            "--dataset",
            s(&ds),
            "--out",
            s(&model),
            "--dim",
            "8",
            "--epochs",
            "3",
            "--seed",
            "1",
        ];
        if json {
            args.push("--log-json");
        }
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_ich"))
            .args(&args)
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout).to_string(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        );
        assert!(o.status.success(), "{out}{err}");
        let epoch_lines: Vec<&str> = out
            .lines()
            .chain(err.lines())
            .filter(|l| l.contains("epoch") && l.contains("train_loss") || l.starts_with("epoch "))
            .collect();
        assert_eq!(epoch_lines.len(), 3, "{out}\n---\n{err}");
        if json {
            let epochs: Vec<u64> = err
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    serde_json::from_str::<serde_json::Value>(l)
                        .unwrap_or_else(|e| panic!("{e}: {l}"))
                })
                .filter(|v| v["fields"]["message"] == "epoch")
                .map(|v| {
                    assert!(
                        v["fields"]["train_loss"].as_f64().unwrap().is_finite(),
                        "{v}"
                    );
                    v["fields"]["epoch"].as_u64().unwrap()
                })
                .collect();
            assert_eq!(epochs, [0, 1, 2], "{err}");
        }
    }
}

/// Each row's `feature_*` values, in column order.
fn features(path: &Path) -> Vec<Vec<f64>> {
    common::csv_rows(path)
        .into_iter()
        .map(|row| {
            let mut cols: Vec<(&String, &String)> = row
                .iter()
                .filter(|(k, _)| k.starts_with("feature_"))
                .collect();
            cols.sort_by_key(|(k, _)| k[8..].parse::<usize>().unwrap());
            cols.iter().map(|(_, v)| v.parse().unwrap()).collect()
        })
        .collect()
}

/// Largest absolute difference between two feature tables, and the largest absolute value.
fn difference(a: &[Vec<f64>], b: &[Vec<f64>]) -> (f64, f64) {
    assert_eq!(a.len(), b.len());
    let scale = a.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
    let diff = a
        .iter()
        .flatten()
        .zip(b.iter().flatten())
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
    assert!(scale > 0.0 && a.iter().chain(b).flatten().all(|v| v.is_finite()));
    (diff, scale)
}

/// `--precision bf16` trains with bfloat16 arithmetic on f32 weights (the bundle's weights are
/// f32, and its training settings say bf16), and `extract --precision bf16` differs from f32's
/// features only by bfloat16's rounding (8 bits of mantissa: about 0.4 % of a value per
/// operation).
#[test]
fn bf16_trains_on_f32_weights_and_extracts_within_its_rounding() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = cohort(tmp.path(), "train", "8", "31");
    let train = |out: &Path, precision: &str| {
        ok(&[
            "-q",
            "train-cnn",
            "--dataset",
            s(&ds),
            "--out",
            s(out),
            "--dim",
            "8",
            "--epochs",
            "1",
            "--precision",
            precision,
        ]);
        std::fs::metadata(out.join("model.bpk")).unwrap().len()
    };
    let (m32, m16) = (tmp.path().join("m32"), tmp.path().join("m16"));
    assert_eq!(
        train(&m32, "f32"),
        train(&m16, "bf16"),
        "weights not kept in f32"
    );
    let config = std::fs::read_to_string(m16.join("config.json")).unwrap();
    assert!(config.contains(r#""precision": "bf16""#), "{config}");
    // the same seed, other arithmetic: the epoch's training loss differs
    let train_loss = |m: &Path| common::csv_rows(&m.join("log.csv"))[0]["train_loss"].clone();
    assert_ne!(
        train_loss(&m32),
        train_loss(&m16),
        "bf16 trained as f32 did"
    );

    let extract = |precision: &str| {
        let out = tmp.path().join(format!("f-{precision}.csv"));
        ok(&[
            "-q",
            "extract",
            "--model",
            s(&m16),
            "--dataset",
            s(&ds),
            "--out",
            s(&out),
            "--precision",
            precision,
        ]);
        features(&out)
    };
    let f32s = extract("f32");
    assert_eq!(f32s.len(), 8 * 6);
    let (diff, scale) = difference(&f32s, &extract("bf16"));
    assert!(
        diff > 0.0,
        "bf16 extract gave f32's features exactly: did it run in bf16?"
    );
    assert!(
        diff < 0.05 * scale,
        "bf16 vs f32 features: {diff} of {scale}"
    );
}
