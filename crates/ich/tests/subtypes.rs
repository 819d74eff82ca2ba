//! The five RSNA subtypes, kept from the labels to the GP heads: `ich extract` writes each
//! scan's subtypes (from its slice labels) into the features file, and `ich fit-gp --bundle` fits
//! one head per subtype with enough scans beside the "any" head, into the bundle.

mod common;

use common::{csv_rows, ok, s};

use std::collections::BTreeMap;

#[test]
fn subtypes_reach_the_features_and_a_head_each() {
    let t = tempfile::tempdir().unwrap();
    let (raw, ds, bundle, feats) = (
        t.path().join("raw"),
        t.path().join("ds"),
        t.path().join("bundle"),
        t.path().join("features.csv"),
    );
    ok(&[
        "-q",
        "synth",
        "--out",
        s(&raw),
        "--scans",
        "40",
        "--slices",
        "4",
        "--size",
        "48",
        "--seed",
        "11",
        "--subtypes",
        "intraparenchymal,subdural",
    ]);
    common::preprocess(&raw, &ds, "32", &[]);
    common::small_cnn(&ds, &bundle);
    ok(&[
        "-q",
        "extract",
        "--model",
        s(&bundle),
        "--dataset",
        s(&ds),
        "--out",
        s(&feats),
    ]);
    // each scan's subtypes in the features file are those `ich synth` drew for it (labels.csv)
    let series_subtypes: BTreeMap<String, String> = csv_rows(&raw.join("labels.csv"))
        .into_iter()
        .map(|r| (r["series_instance_uid"].clone(), r["subtypes"].clone()))
        .collect();
    let dataset = preprocess::Dataset::open(&ds).unwrap();
    let scan_subtypes: BTreeMap<String, String> = dataset
        .manifest
        .scans
        .iter()
        .map(|e| {
            let m = dataset.scan_meta(e).unwrap();
            let want = &series_subtypes[&m.series_instance_uid];
            let want = if want.is_empty() {
                "none".to_string()
            } else {
                let mut v: Vec<&str> = want.split(';').collect();
                v.sort();
                v.join(";")
            };
            (e.id.clone(), want)
        })
        .collect();
    let rows = csv_rows(&feats);
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for r in &rows {
        assert_eq!(
            r["bag_subtypes"], scan_subtypes[&r["bag_name"]],
            "{}",
            r["bag_name"]
        );
        if r["instance_label"] == "0" {
            assert_eq!(r["instance_subtypes"], "none");
        }
    }
    for v in scan_subtypes.values() {
        for n in v.split(';') {
            *count.entry(n.to_string()).or_default() += 1;
        }
    }
    assert!(
        count["intraparenchymal"] >= 4 && count["subdural"] >= 4,
        "{count:?}"
    );

    // a head per subtype the scans have (4 or more with it and without), none for the others
    let out = ok(&[
        "fit-gp",
        "--features",
        s(&feats),
        "--bundle",
        s(&bundle),
        "--inducing",
        "8",
        "--calibrate",
        "--calibration-folds",
        "0",
    ]);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(bundle.join("manifest.json")).unwrap()).unwrap();
    let heads = m["gp"]["subtypes"].as_array().unwrap();
    let names: Vec<&str> = heads.iter().map(|h| h["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["intraparenchymal", "subdural"], "{out}");
    for h in heads {
        let name = h["name"].as_str().unwrap();
        let file = h["model"].as_str().unwrap();
        assert_eq!(file, format!("gp.{name}.json"));
        // listed with its checksum, and what it was trained on counts that subtype's scans
        let sum = detect::bundle::sha256_file(&bundle.join(file)).unwrap();
        assert_eq!(m["files"][file], sum.as_str());
        let tr = &h["training"];
        let with = tr["train_positive"].as_u64().unwrap() + tr["valid_positive"].as_u64().unwrap();
        assert_eq!(with as usize, count[name], "{name}");
        assert!(
            out.contains(&format!("subtype {name}: {} of 40 scans", count[name])),
            "{out}"
        );
        assert!(h["validation"]["calibrated"].as_bool().unwrap());
    }
    for absent in ["epidural", "intraventricular", "subarachnoid"] {
        assert!(
            out.contains(&format!("subtype {absent}: no head (0 of 40")),
            "{out}"
        );
    }
    // predictions carry each subtype's probability, per scan and per slice, in the JSON and
    // the CSV files alike, each with its sd and 90 % interval
    let r = t.path().join("r");
    let out = ok(&[
        "predict",
        "--model",
        s(&bundle),
        s(&ds),
        "--out",
        s(&r),
        "--no-html",
    ]);
    assert!(
        out.contains("subtypes: intraparenchymal, subdural"),
        "{out}"
    );
    let rep: serde_json::Value =
        serde_json::from_slice(&std::fs::read(r.join("report.json")).unwrap()).unwrap();
    assert_eq!(rep["format_version"], 3);
    assert_eq!(
        rep["model"]["subtypes"],
        serde_json::json!(["intraparenchymal", "subdural"])
    );
    let scans_csv: BTreeMap<String, BTreeMap<String, String>> = csv_rows(&r.join("scans.csv"))
        .into_iter()
        .map(|row| (row["scan_id"].clone(), row.into_iter().collect()))
        .collect();
    let slices_csv = csv_rows(&r.join("slices.csv"));
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    let mut k = 0;
    for sc in rep["scans"].as_array().unwrap() {
        let row = &scans_csv[sc["id"].as_str().unwrap()];
        let subs = sc["subtypes"].as_array().unwrap();
        assert_eq!(subs.len(), 2);
        for sub in subs {
            let name = sub["name"].as_str().unwrap();
            let (p, lo, hi) = (f(&sub["probability"]), f(&sub["lo"]), f(&sub["hi"]));
            assert!((0.0..=1.0).contains(&p) && lo <= p && p <= hi, "{sub}");
            let cell: f64 = row[&format!("{name}_probability")].parse().unwrap();
            assert!((cell - p).abs() < 1e-12, "{name}: {cell} vs {p}");
        }
        for sl in sc["slices"].as_array().unwrap() {
            let row = &slices_csv[k];
            k += 1;
            for sub in sl["subtypes"].as_array().unwrap() {
                let name = sub["name"].as_str().unwrap();
                let cell: f64 = row[&format!("{name}_hi")].parse().unwrap();
                assert!((cell - f(&sub["hi"])).abs() < 1e-12);
            }
        }
    }
    assert_eq!(k, slices_csv.len());
    // refitted without subtype heads: none listed, their files gone
    ok(&[
        "-q",
        "fit-gp",
        "--features",
        s(&feats),
        "--bundle",
        s(&bundle),
        "--inducing",
        "8",
        "--no-subtypes",
    ]);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(bundle.join("manifest.json")).unwrap()).unwrap();
    assert!(m["gp"].get("subtypes").is_none());
    assert!(!bundle.join("gp.subdural.json").exists());
    // and such a bundle says so, with no subtype columns
    let r2 = t.path().join("r2");
    let out = ok(&[
        "predict",
        "--model",
        s(&bundle),
        s(&ds),
        "--out",
        s(&r2),
        "--no-html",
    ]);
    assert!(out.contains("subtypes: not available"), "{out}");
    let head = std::fs::read_to_string(r2.join("scans.csv")).unwrap();
    assert!(!head.lines().next().unwrap().contains("subdural"));
}
