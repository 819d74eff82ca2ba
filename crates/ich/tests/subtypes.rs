//! The five RSNA subtypes, kept from the labels to the reports: `ich train-cnn` trains a
//! multi-label network, `ich extract` writes each scan's subtypes (from its slice labels) into
//! the features file, `ich fit-gp --bundle` fits one head per subtype with enough scans beside
//! the "any" head, `ich predict` reports them (CSV, JSON, HTML, SR read back with dcmtk) and
//! `ich recalibrate` refits their maps on a site's scans.

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
        "64",
        "--seed",
        "11",
        "--subtypes",
        "intraparenchymal,subdural",
    ]);
    common::preprocess(&raw, &ds, "32", &[]);
    common::small_cnn(&ds, &bundle);
    // the labels give the scans' subtypes: a multi-label network, an output per RSNA subtype
    let cnn: serde_json::Value =
        serde_json::from_slice(&std::fs::read(bundle.join("config.json")).unwrap()).unwrap();
    assert_eq!(cnn["model"]["subtypes"], 5, "{cnn}");
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

    // from the DICOM files, with their labels: each subtype's label and metrics, the HTML says
    // which bleed and where, and the SR carries each subtype's numbers and call
    let r3 = t.path().join("r3");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&raw),
        "--out",
        s(&r3),
        "--labels",
        s(&raw.join("labels.csv")),
        "--labels",
        s(&raw.join("slice_labels.csv")),
    ]);
    let rep: serde_json::Value =
        serde_json::from_slice(&std::fs::read(r3.join("report.json")).unwrap()).unwrap();
    let metrics = rep["metrics"]["subtypes"].as_array().unwrap();
    let names: Vec<&str> = metrics
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["intraparenchymal", "subdural"]);
    for m in metrics {
        let name = m["name"].as_str().unwrap();
        // every scan's subtypes are known from its slice labels; the positive ones are those
        // `ich synth` drew
        assert_eq!(m["scans"], 40, "{m}");
        assert_eq!(m["positive_scans"].as_u64().unwrap() as usize, count[name]);
        assert!(m["scan"]["auc"].as_f64().is_some(), "{m}");
        assert!(m["positive_slices"].as_u64().unwrap() >= count[name] as u64);
    }
    let scans3 = csv_rows(&r3.join("scans.csv"));
    let slices3 = csv_rows(&r3.join("slices.csv"));
    for row in &scans3 {
        for name in ["intraparenchymal", "subdural"] {
            // the CSV's flag follows the report's thresholds (0.5, sd 0.1) unless the scan is
            // uncertain for what it is
            let p: f64 = row[&format!("{name}_probability")].parse().unwrap();
            assert_eq!(row[&format!("{name}_positive")] == "1", p >= 0.5, "{row:?}");
            assert!(["0", "1"].contains(&row[&format!("{name}_label")].as_str()));
        }
    }
    let index = std::fs::read_to_string(r3.join("index.html")).unwrap();
    assert!(
        index.contains("subtypes likely or unsure") && index.contains("subdural scans ("),
        "index"
    );
    let page0 = rep["scans"][0]["page"].as_str().unwrap();
    let page = std::fs::read_to_string(r3.join(page0)).unwrap();
    assert!(page.contains("Which bleed") && page.contains("Where along the scan"));
    if let Some(dsrdump) = common::orthanc::need("dsrdump") {
        let mut checked = 0;
        for sc in rep["scans"].as_array().unwrap() {
            let id = sc["id"].as_str().unwrap();
            let sr = r3.join(sc["dicom"]["sr"].as_str().unwrap());
            let scan_row = scans3.iter().find(|r| r["scan_id"] == id).unwrap();
            let slice_rows: Vec<_> = slices3.iter().filter(|r| r["scan_id"] == id).collect();
            common::orthanc::check_subtypes_with_dsrdump(
                &dsrdump,
                &sr,
                &["intraparenchymal", "subdural"],
                scan_row,
                &slice_rows,
            );
            checked += 1;
        }
        assert_eq!(checked, 40);
    }

    // recalibrated on a site where 3 scans have an intraparenchymal bleed: the "any" and
    // subdural heads get the site's maps, the intraparenchymal head keeps its own and says why
    let mut rdr = csv::Reader::from_path(&feats).unwrap();
    let head = rdr.headers().unwrap().clone();
    let col = head.iter().position(|c| c == "bag_subtypes").unwrap();
    let name_col = head.iter().position(|c| c == "bag_name").unwrap();
    let mut kept_ipb: Vec<String> = Vec::new();
    let mut w = csv::Writer::from_path(t.path().join("site.csv")).unwrap();
    w.write_record(&head).unwrap();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let bag = rec[name_col].to_string();
        let mut cell = rec[col].to_string();
        if cell.contains("intraparenchymal") && !kept_ipb.contains(&bag) {
            if kept_ipb.len() < 3 {
                kept_ipb.push(bag);
            } else {
                let rest: Vec<&str> = cell
                    .split(';')
                    .filter(|x| *x != "intraparenchymal")
                    .collect();
                cell = if rest.is_empty() {
                    "none".into()
                } else {
                    rest.join(";")
                };
            }
        }
        let mut out: Vec<String> = rec.iter().map(String::from).collect();
        out[col] = cell;
        w.write_record(&out).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let sub_before = std::fs::read(bundle.join("gp.subdural.json")).unwrap();
    let ipb_before = std::fs::read(bundle.join("gp.intraparenchymal.json")).unwrap();
    let out = ok(&[
        "recalibrate",
        "--bundle",
        s(&bundle),
        "--features",
        s(&t.path().join("site.csv")),
    ]);
    assert!(
        out.contains("subtype intraparenchymal: not recalibrated: 3 of the site's 40 scans"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "subtype subdural: 40 scans ({} with it)",
            count["subdural"]
        )),
        "{out}"
    );
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(bundle.join("manifest.json")).unwrap()).unwrap();
    let heads = m["gp"]["subtypes"].as_array().unwrap();
    let ipb = heads
        .iter()
        .find(|h| h["name"] == "intraparenchymal")
        .unwrap();
    let sdh = heads.iter().find(|h| h["name"] == "subdural").unwrap();
    assert!(ipb.get("site_calibration").is_none());
    assert!(ipb["site_note"]
        .as_str()
        .unwrap()
        .contains("not fitted to this site"));
    assert_eq!(sdh["site_calibration"]["scans"], 40);
    assert!(sdh.get("site_note").is_none());
    assert_eq!(
        std::fs::read(bundle.join("gp.intraparenchymal.json")).unwrap(),
        ipb_before
    );
    assert_ne!(
        std::fs::read(bundle.join("gp.subdural.json")).unwrap(),
        sub_before
    );
    // the recalibrated bundle still predicts every subtype
    let r4 = t.path().join("r4");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&ds),
        "--out",
        s(&r4),
        "--no-html",
    ]);
    let head4 = std::fs::read_to_string(r4.join("scans.csv")).unwrap();
    assert!(head4
        .lines()
        .next()
        .unwrap()
        .contains("subdural_probability"));

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

/// `ich adapt` carries a bundle's subtype heads into the site bundle when the site's head reads
/// what they read, each recalibrated on the site's scans with a known subtype where at least 10
/// have it and 10 do not, else as it was and saying so; with the network chosen instead, beside
/// the network, recalibrated the same way.
#[test]
fn adapt_carries_the_subtype_heads_it_can_and_says_which_stay_uncalibrated() {
    let t = tempfile::tempdir().unwrap();
    let (raw, ds, bundle, feats, site, out) = (
        t.path().join("raw"),
        t.path().join("ds"),
        t.path().join("bundle"),
        t.path().join("features.csv"),
        t.path().join("site"),
        t.path().join("adapted"),
    );
    let synth = |dir: &std::path::Path, scans: &str, seed: &str| {
        ok(&[
            "-q",
            "synth",
            "--out",
            s(dir),
            "--scans",
            scans,
            "--slices",
            "4",
            "--size",
            "64",
            "--seed",
            seed,
            "--subtypes",
            "intraparenchymal,subdural",
        ]);
    };
    synth(&raw, "40", "11");
    common::preprocess(&raw, &ds, "32", &[]);
    common::small_cnn(&ds, &bundle);
    common::gp_head(&bundle, &ds, &feats, &["--inducing", "8", "--calibrate"]);
    // a site of 24 scans: about half have a bleed, of one subtype or both
    synth(&site, "24", "23");
    let (scan_labels, slice_labels) = (site.join("labels.csv"), site.join("slice_labels.csv"));
    let adapt = |out: &std::path::Path, more: &[&str]| {
        let mut args = vec![
            "adapt",
            "--model",
            s(&bundle),
            s(&site),
            "--labels",
            s(&scan_labels),
            "--labels",
            s(&slice_labels),
            "--out",
            s(out),
            "--folds",
            "2",
            "--inner-folds",
            "2",
            "--evidence",
            "features",
            "--samples",
            "100",
            "--curve",
            "0",
            "--no-fine-tune",
        ];
        args.extend_from_slice(more);
        ok(&args)
    };
    let log = adapt(&out, &["--inducing", "8"]);
    assert!(site_bundle_carries_the_heads(
        &out,
        &site,
        &log,
        &t.path().join("r")
    ));
    // a GP head of one inducing point whose kernel never moves ranks no scan: the network is
    // shipped with the site's maps, and the subtype heads beside it
    let out = t.path().join("adapted-network");
    let log = adapt(&out, &["--inducing", "1", "--kernel-steps", "0"]);
    assert!(!site_bundle_carries_the_heads(
        &out,
        &site,
        &log,
        &t.path().join("r2")
    ));
}

/// Checks an adapted site bundle's subtype heads (recalibrated on the site where it has at
/// least 10 scans with the subtype and 10 without, else saying why), its files, and that it
/// predicts every subtype; returns whether it keeps a GP head (else the network is shipped).
fn site_bundle_carries_the_heads(
    out: &std::path::Path,
    site: &std::path::Path,
    log: &str,
    r: &std::path::Path,
) -> bool {
    // what the site's labels say of each subtype
    let rows = csv_rows(&site.join("labels.csv"));
    let with = |name: &str| rows.iter().filter(|r| r["subtypes"].contains(name)).count();
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    // the heads sit beside the GP head adapt chose, or beside the network shipped with the
    // site's maps (then on the evidence they were fitted on, and no GP head's file is left)
    let has_gp = m.get("gp").is_some_and(|g| !g.is_null());
    let heads = match m.get("gp").filter(|g| !g.is_null()) {
        Some(gp) => {
            assert!(
                gp["family"].as_str().unwrap().ends_with("on features"),
                "{gp}"
            );
            gp["subtypes"].as_array().unwrap()
        }
        None => {
            let site = &m["cnn"]["site"];
            assert!(site.get("evidence").is_none(), "features: {site}");
            assert!(!out.join("gp.json").exists() && !out.join("gp.trace.csv").exists());
            site["subtypes"].as_array().unwrap()
        }
    };
    // every file of the site bundle is one its manifest lists
    for e in std::fs::read_dir(out).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(
            name == "manifest.json" || m["files"].get(&name).is_some(),
            "{name} is not listed: {m}"
        );
    }
    let names: Vec<&str> = heads.iter().map(|h| h["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["intraparenchymal", "subdural"], "{log}");
    for h in heads {
        let name = h["name"].as_str().unwrap();
        let n = with(name);
        if n >= 10 && 24 - n >= 10 {
            assert_eq!(h["site_calibration"]["scans"], 24, "{h}");
            assert_eq!(
                h["site_calibration"]["positive"].as_u64().unwrap() as usize,
                n
            );
            assert!(h.get("site_note").is_none());
        } else {
            assert!(h.get("site_calibration").is_none(), "{h}");
            let note = h["site_note"].as_str().unwrap();
            assert!(
                note.contains(&format!("{n} of the site's 24 scans")),
                "{note}"
            );
            assert!(
                log.contains(&format!("subtype {name}: {n} of the site's")),
                "{log}"
            );
        }
        // listed with the checksum of the file the site bundle holds
        let file = h["model"].as_str().unwrap();
        let sum = detect::bundle::sha256_file(&out.join(file)).unwrap();
        assert_eq!(m["files"][file], sum.as_str());
    }
    // the site bundle predicts every subtype
    let said = ok(&[
        "predict",
        "--model",
        s(out),
        s(site),
        "--out",
        s(r),
        "--no-html",
        "--no-dicom",
    ]);
    assert!(
        said.contains("subtypes: intraparenchymal, subdural"),
        "{said}"
    );
    has_gp
}
