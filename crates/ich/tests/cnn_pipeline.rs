//! The CNN stage through the real binary: synth → preprocess → train-cnn → extract → G-VGPMIL,
//! on small synthetic cohorts (64² slices so CI runs it in a few minutes).

use std::path::Path;
use std::process::{Command, Output};

fn ich(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ich")).args(args).env("RUST_LOG", "warn").output().expect("run ich")
}

fn ok(args: &[&str]) -> String {
    let o = ich(args);
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "ich {args:?} failed:\n{text}");
    text
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn cohort(dir: &Path, name: &str, scans: &str, seed: &str) -> std::path::PathBuf {
    let raw = dir.join(format!("{name}-dicom"));
    let ds = dir.join(format!("{name}-ds"));
    ok(&["-q", "synth", "--out", s(&raw), "--scans", scans, "--slices", "16", "--size", "128", "--seed", seed]);
    ok(&[
        "-q", "preprocess", s(&raw), "--out", s(&ds), "--size", "64",
        "--labels", s(&raw.join("labels.csv")), "--labels", s(&raw.join("slice_labels.csv")),
    ]);
    ds
}

#[test]
fn cnn_learns_synthetic_bleeds_and_its_features_feed_the_gp_head() {
    let tmp = tempfile::tempdir().unwrap();
    let train = cohort(tmp.path(), "train", "64", "21");
    let test = cohort(tmp.path(), "test", "40", "22");
    let model = tmp.path().join("model");
    let out = ok(&[
        "-q", "train-cnn", "--dataset", s(&train), "--out", s(&model), "--dim", "8", "--epochs", "25",
        "--lr", "1e-3", "--patience", "8", "--seed", "1",
    ]);
    // the model folder: config, weights, log, checkpoint
    for f in ["config.json", "model.bpk", "log.csv", "checkpoint/state.json", "checkpoint/model-last.bpk"] {
        assert!(model.join(f).exists(), "{f} missing:\n{out}");
    }
    let log = std::fs::read_to_string(model.join("log.csv")).unwrap();
    let best_auc = log
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(3).and_then(|v| v.parse::<f64>().ok()))
        .fold(0.0, f64::max);
    assert!(best_auc >= 0.9, "validation bag AUC {best_auc}\n{log}");

    let ftrain = tmp.path().join("train.csv");
    let ftest = tmp.path().join("test.csv");
    ok(&["-q", "extract", "--model", s(&model), "--dataset", s(&train), "--out", s(&ftrain)]);
    ok(&["-q", "extract", "--model", s(&model), "--dataset", s(&test), "--out", s(&ftest)]);
    let header = std::fs::read_to_string(&ftest).unwrap();
    let header = header.lines().next().unwrap();
    assert!(header.starts_with("feature_0,") && header.contains("feature_7,") && !header.contains("feature_8"));
    assert!(header.contains("bag_cnn_probability") && header.contains("cnn_attention"));

    // G-VGPMIL on the CNN's features, tested on the held-out cohort
    let json = tmp.path().join("gp.json");
    ok(&[
        "-q", "eval-gp", "--features", s(&ftrain), "--test", s(&ftest), "--model", "g-vgpmil",
        "--inducing", "50", "--json", s(&json),
    ]);
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let ext = r["summary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["set"] == "external" && x["metric"] == "bag AUC")
        .unwrap()["mean"]
        .as_f64()
        .unwrap();
    assert!(ext >= 0.9, "G-VGPMIL bag AUC on held-out synthetic scans: {ext}");

    // a second run resumes from the checkpoint and does not redo finished epochs
    let again = ok(&[
        "train-cnn", "--dataset", s(&train), "--out", s(&model), "--dim", "8", "--epochs", "25",
        "--lr", "1e-3", "--patience", "8", "--seed", "1", "--resume",
    ]);
    assert!(again.contains("resumed after epoch"), "{again}");
}

#[test]
fn extract_refuses_a_dataset_with_other_windows() {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("dicom");
    ok(&["-q", "synth", "--out", s(&raw), "--scans", "6", "--slices", "4", "--size", "64", "--seed", "5"]);
    let labels = raw.join("labels.csv");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    ok(&["-q", "preprocess", s(&raw), "--out", s(&a), "--size", "32", "--labels", s(&labels)]);
    ok(&["-q", "preprocess", s(&raw), "--out", s(&b), "--size", "32", "--soft-window", "30/30", "--labels", s(&labels)]);
    let model = tmp.path().join("m");
    ok(&["-q", "train-cnn", "--dataset", s(&a), "--out", s(&model), "--dim", "8", "--epochs", "1"]);
    let o = ich(&["-q", "extract", "--model", s(&model), "--dataset", s(&b), "--out", s(&tmp.path().join("f.csv"))]);
    assert!(!o.status.success());
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("windows"), "{text}");
}
