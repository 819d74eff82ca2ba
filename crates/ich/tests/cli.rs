//! The real `ich` binary on temporary folders.

mod common;

use common::{ich, text};

use std::path::Path;

#[test]
fn every_command_has_help() {
    let o = ich(&["--help"]);
    assert!(o.status.success());
    assert!(text(&o).contains("Usage"));
    for cmd in [
        "synth",
        "preprocess",
        "train-cnn",
        "extract",
        "fit-gp",
        "eval-gp",
        "predict",
        "demo",
    ] {
        // listed in the top-level help, and with a help of its own naming its options
        assert!(text(&o).contains(cmd), "{cmd} missing from ich --help");
        let h = ich(&[cmd, "--help"]);
        assert!(h.status.success(), "{cmd}");
        let t = text(&h);
        assert!(t.contains("Usage: ich") && t.contains("--"), "{cmd}: {t}");
    }
    let o = ich(&["no-such-command"]);
    assert!(!o.status.success());
}

#[test]
fn synth_then_preprocess_writes_a_dataset() {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let ds = tmp.path().join("ds");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let o = ich(&[
        "-q",
        "synth",
        "--out",
        &s(&raw),
        "--scans",
        "3",
        "--slices",
        "6",
        "--size",
        "48",
        "--seed",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("wrote 3 scans"));
    let labels = s(&raw.join("labels.csv"));
    let slice_labels = s(&raw.join("slice_labels.csv"));
    let args = [
        "-q",
        "preprocess",
        &s(&raw),
        "--out",
        &s(&ds),
        "--size",
        "32",
        "--labels",
        &labels,
        "--labels",
        &slice_labels,
        "--soft-window",
        "30/30",
    ];
    let o = ich(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("3 scan(s) written"), "{}", text(&o));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ds.join("dataset.json")).unwrap()).unwrap();
    assert_eq!(manifest["scans"].as_array().unwrap().len(), 3);
    assert_eq!(manifest["config"]["windows"][2]["level"], 30.0);
    assert_eq!(manifest["config"]["size"], 32);
    // second run resumes
    let o = ich(&args);
    assert!(
        text(&o).contains("0 scan(s) written, 3 already done"),
        "{}",
        text(&o)
    );
}

#[test]
fn failures_exit_non_zero_with_the_file_named() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("readme.txt"), "hello").unwrap();
    let out = tmp.path().join("ds");
    let o = ich(&[
        "-q",
        "preprocess",
        empty.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no CT scan"));
    let missing = tmp.path().join("nope");
    let o = ich(&[
        "-q",
        "preprocess",
        missing.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("nope"), "{}", text(&o));
    let bad = tmp.path().join("bad.csv");
    std::fs::write(&bad, "x,y\n1,2\n").unwrap();
    let o = ich(&[
        "-q",
        "preprocess",
        empty.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--labels",
        bad.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("bad.csv"), "{}", text(&o));
    let o = ich(&[
        "-q",
        "preprocess",
        empty.to_str().unwrap(),
        "--out",
        "x",
        "--brain-window",
        "40",
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("LEVEL/WIDTH"), "{}", text(&o));
}

/// A backend the binary was built without is refused before anything is written, with the cargo
/// feature that brings it named.
#[test]
fn cnn_backend_not_built_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let (raw, ds) = (tmp.path().join("raw"), tmp.path().join("ds"));
    common::synth(&raw, "4", "4", "48", "2");
    common::preprocess(&raw, &ds, "32", &[]);
    let mut missing = Vec::new();
    #[cfg(not(feature = "wgpu"))]
    missing.push((
        "wgpu",
        "rebuild with `cargo build --release --features wgpu`",
    ));
    #[cfg(not(feature = "cuda"))]
    missing.push((
        "cuda",
        "rebuild with `cargo build --release --features cuda`",
    ));
    #[cfg(not(feature = "ndarray"))]
    missing.push((
        "ndarray",
        "rebuild with `cargo build --release --features ndarray`",
    ));
    for (device, hint) in missing {
        let out = tmp.path().join(format!("model-{device}"));
        let o = ich(&[
            "train-cnn",
            "--dataset",
            common::s(&ds),
            "--out",
            common::s(&out),
            "--device",
            device,
        ]);
        assert!(!o.status.success(), "{device}");
        assert!(text(&o).contains(hint), "{device}: {}", text(&o));
        assert!(!out.exists(), "{device}: model folder created");
    }
}
