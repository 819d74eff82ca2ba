//! Running the real `ich` binary from integration tests.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `ich` with warnings-only logging.
pub fn ich(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ich"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run ich")
}

/// Standard output and error together.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs `ich`, asserting success; returns its output.
pub fn ok(args: &[&str]) -> String {
    let o = ich(args);
    let t = text(&o);
    assert!(o.status.success(), "ich {args:?} failed:\n{t}");
    t
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `ich synth` of `scans` scans of `slices` slices, `size`² pixels, into `raw`.
pub fn synth(raw: &Path, scans: &str, slices: &str, size: &str, seed: &str) {
    ok(&[
        "-q",
        "synth",
        "--out",
        s(raw),
        "--scans",
        scans,
        "--slices",
        slices,
        "--size",
        size,
        "--seed",
        seed,
    ]);
}

/// `ich preprocess` of `raw` (with its scan and slice labels) into `ds` at `size`², plus `extra`
/// options.
pub fn preprocess(raw: &Path, ds: &Path, size: &str, extra: &[&str]) {
    let (labels, slice_labels) = (raw.join("labels.csv"), raw.join("slice_labels.csv"));
    let mut args = vec![
        "-q",
        "preprocess",
        s(raw),
        "--out",
        s(ds),
        "--size",
        size,
        "--labels",
        s(&labels),
        "--labels",
        s(&slice_labels),
    ];
    args.extend_from_slice(extra);
    ok(&args);
}

/// A small bundle on dataset `ds`: the CNN (D = 8) trained one epoch, its features, a VGPMIL head
/// with 8 inducing points (the mechanics of prediction, not its accuracy).
pub fn small_bundle(ds: &Path, bundle: &Path) {
    small_cnn(ds, bundle);
    gp_head(
        bundle,
        ds,
        &bundle.with_extension("features.csv"),
        &["--inducing", "8"],
    );
}

/// The CNN of [`small_bundle`] alone: D = 8, one epoch on `ds`, into `bundle`.
pub fn small_cnn(ds: &Path, bundle: &Path) {
    ok(&[
        "-q",
        "train-cnn",
        "--dataset",
        s(ds),
        "--out",
        s(bundle),
        "--dim",
        "8",
        "--epochs",
        "1",
    ]);
}

/// Extracts the features of `ds` with `bundle`'s CNN into `feats` and fits a GP head into the
/// bundle with `ich fit-gp` and the options `fit`.
pub fn gp_head(bundle: &Path, ds: &Path, feats: &Path, fit: &[&str]) {
    ok(&[
        "-q",
        "extract",
        "--model",
        s(bundle),
        "--dataset",
        s(ds),
        "--out",
        s(feats),
    ]);
    let mut args = vec![
        "-q",
        "fit-gp",
        "--features",
        s(feats),
        "--bundle",
        s(bundle),
    ];
    args.extend_from_slice(fit);
    ok(&args);
}

/// The rows of a CSV file, each as column → text.
pub fn csv_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .zip(rec.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// ROC AUC by counting pairs, ties counting half (independent of the crates' implementation).
pub fn pair_auc(labels: &[u8], scores: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (i, &li) in labels.iter().enumerate() {
        for (j, &lj) in labels.iter().enumerate() {
            if li == 1 && lj == 0 {
                den += 1.0;
                num += if scores[i] > scores[j] {
                    1.0
                } else if scores[i] == scores[j] {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    num / den
}
