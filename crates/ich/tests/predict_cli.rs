//! `ich demo` and `ich predict` through the real binary: the reports exist, parse and agree with
//! each other, the scan AUC on held-out synthetic scans beats chance, and a bundle whose parts do
//! not fit is refused.

mod common;

use common::{csv_rows, ich, ok, pair_auc, s};

use std::collections::HashMap;
use std::path::Path;

/// The width and height of a base64 PNG (its IHDR).
fn png_size(b64: &str) -> (u32, u32) {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    let r = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    (r.info().width, r.info().height)
}

fn f(v: &str) -> f64 {
    v.parse().unwrap()
}

/// The learning test of the CNN and the integration test of the product in one run of `ich demo`
/// with its defaults (384 training scans of 8 slices, 64², IPH and IVH): the CNN trained on scan
/// labels reaches validation bag AUC ≥ 0.9; the VGPMIL head on its features reaches scan AUC ≥ 0.9 on 48
/// held-out scans predicted from their DICOM folders; every report file agrees with the others.
#[test]
fn demo_learns_from_scan_labels_and_its_reports_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo");
    let text = ok(&["-q", "demo", "--out", s(&out)]);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("model/manifest.json")).unwrap()).unwrap();
    let cnn_auc = manifest["cnn"]["validation"]["valid_bag_auc"]
        .as_f64()
        .unwrap();
    assert!(cnn_auc >= 0.9, "CNN validation bag AUC {cnn_auc}:\n{text}");
    assert_eq!(manifest["gp"]["family"], "vgpmil");
    assert_eq!(manifest["gp"]["validation"]["calibrated"], true);
    let rep = out.join("report");
    for f in ["index.html", "report.json", "scans.csv", "slices.csv"] {
        assert!(rep.join(f).is_file(), "{f} missing:\n{text}");
    }
    assert!(text.contains("index.html"), "{text}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(rep.join("report.json")).unwrap()).unwrap();
    let scans = report["scans"].as_array().unwrap();
    assert_eq!(scans.len(), 48);
    // the demo writes the DICOM results too, and says where they are
    assert!(text.contains("DICOM results"), "{text}");
    for js in scans {
        let sr = js["dicom"]["sr"]
            .as_str()
            .expect("every synthetic scan gets an SR");
        assert!(rep.join(sr).is_file(), "{sr}");
    }
    let scan_rows = csv_rows(&rep.join("scans.csv"));
    let slice_rows = csv_rows(&rep.join("slices.csv"));
    assert_eq!(scan_rows.len(), 48);
    assert_eq!(slice_rows.len(), 48 * 8);
    let index = std::fs::read_to_string(rep.join("index.html")).unwrap();
    let mut prev = f64::INFINITY;
    for (js, row) in scans.iter().zip(&scan_rows) {
        let id = js["id"].as_str().unwrap();
        assert_eq!(row["scan_id"], id, "scans.csv follows report.json's order");
        let p = js["probability"].as_f64().unwrap();
        assert!(p <= prev, "sorted by probability, highest first");
        prev = p;
        assert!((f(&row["probability"]) - p).abs() < 1e-12);
        assert!((f(&row["sd"]) - js["sd"].as_f64().unwrap()).abs() < 1e-12);
        assert!((0.0..=1.0).contains(&p) && js["sd"].as_f64().unwrap() >= 0.0);
        assert_eq!(row["positive"] == "1", p >= 0.5);
        // the 90 % interval holds the probability and lies inside [0, 1]
        let (lo, hi) = (f(&row["lo"]), f(&row["hi"]));
        assert!(
            0.0 <= lo && lo <= p && p <= hi && hi <= 1.0,
            "{lo} {p} {hi}"
        );
        // uncertain: the interval across 0.5, a large sd, or outside the training slices
        let ood = js["out_of_distribution"]["flagged"].as_bool().unwrap();
        assert_eq!(row["out_of_distribution"], if ood { "1" } else { "0" });
        assert_eq!(
            row["uncertain"] == "1",
            (lo < 0.5 && 0.5 <= hi) || f(&row["sd"]) >= 0.1 || ood
        );
        // one call, from the same two flags the SR codes (Indeterminate whenever uncertain)
        let call = match (row["positive"] == "1", row["uncertain"] == "1") {
            (_, true) => "unsure",
            (true, false) => "likely bleed",
            (false, false) => "unlikely",
        };
        assert_eq!(row["call"], call);
        // its slices, in z order, agree with slices.csv
        let sl = js["slices"].as_array().unwrap();
        assert_eq!(sl.len(), 8);
        let rows: Vec<_> = slice_rows.iter().filter(|r| r["scan_id"] == id).collect();
        assert_eq!(rows.len(), 8);
        let mut att = 0.0;
        let mut z_prev = f64::NEG_INFINITY;
        let mut n_pos = 0;
        for (k, (a, b)) in sl.iter().zip(&rows).enumerate() {
            assert_eq!(b["slice_index"], k.to_string());
            assert_eq!(
                a["sop_instance_uid"].as_str().unwrap(),
                b["sop_instance_uid"]
            );
            assert!((a["probability"].as_f64().unwrap() - f(&b["probability"])).abs() < 1e-12);
            let z = f(&b["z"]);
            assert!(z > z_prev, "slices in z order");
            z_prev = z;
            att += f(&b["cnn_attention"]);
            n_pos += usize::from(b["positive"] == "1");
        }
        assert!((att - 1.0).abs() < 1e-4, "attention sums to 1");
        // max rule with one calibration: the scan is its most suspicious slice, same numbers
        let top = rows
            .iter()
            .map(|b| f(&b["probability"]))
            .fold(f64::NEG_INFINITY, f64::max);
        assert!((top - p).abs() < 1e-12, "scan {p} vs its top slice {top}");
        assert_eq!(row["positive_slices"], n_pos.to_string());
        // the page exists and carries the scan's numbers
        let page = rep.join(js["page"].as_str().unwrap());
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            html.contains(&format!("{p:.3} [{lo:.3}–{hi:.3}]")),
            "{}",
            page.display()
        );
        // a tile a slice, each opening the slice in the brain and subdural windows, all from
        // the source slices at their own 128² (not the network's 64² input)
        assert_eq!(html.matches("title=\"enlarge slice #").count(), 8);
        assert_eq!(
            html.matches("<figure><img src=\"data:image/png;base64,")
                .count(),
            16
        );
        assert_eq!(
            html.matches("<figcaption>subdural W200 L80</figcaption>")
                .count(),
            8
        );
        assert!(html.contains("Thumbnails of the scan's own slices"));
        for png in html.split("src=\"data:image/png;base64,").skip(1).take(3) {
            assert_eq!(png_size(&png[..png.find('"').unwrap()]), (128, 128));
        }
        for sc in js["dicom"]["sc"].as_array().unwrap() {
            // two 128² panels enlarged 4× side by side, 8 pixels apart, margins of 8
            let o = dicom_object::open_file(rep.join(sc.as_str().unwrap())).unwrap();
            let cols: u16 = o
                .element(dicom_dictionary_std::tags::COLUMNS)
                .unwrap()
                .to_int()
                .unwrap();
            assert_eq!(cols, 2 * 512 + 8 + 16);
        }
        assert!(index.contains(js["page"].as_str().unwrap()));
    }
    // the index and a scan page in a real browser: the calls as the CSVs have them, the
    // legend, the source's 128² slices decoded, a tile opening its slice in both windows
    common::browser::check_report(&rep, tmp.path(), 128, 0.5, None, true);
    // no patient identifiers without --keep-phi
    let all = std::fs::read_to_string(rep.join("report.json")).unwrap();
    assert!(!all.contains("patient_name") && !all.contains("patient_id"));

    // metrics: recomputed here from the CSV by counting pairs
    let labels: Vec<u8> = scan_rows
        .iter()
        .map(|r| r["label"].parse().unwrap())
        .collect();
    let probs: Vec<f64> = scan_rows.iter().map(|r| f(&r["probability"])).collect();
    let auc = pair_auc(&labels, &probs);
    let reported = report["metrics"]["scan"]["auc"].as_f64().unwrap();
    assert!((auc - reported).abs() < 1e-12, "{auc} vs {reported}");
    assert!(auc >= 0.9, "held-out scan AUC {auc}:\n{text}");
    // slices are calibrated too (the map was fitted on validation scans, never on slice labels)
    let slice_ece = report["metrics"]["slice"]["ece"].as_f64().unwrap();
    let floor = report["metrics"]["slice"]["ece_floor"].as_f64().unwrap();
    assert!(
        slice_ece <= floor + 0.1,
        "held-out slice ECE {slice_ece} (floor {floor}):\n{text}"
    );
    // which bleed: the multi-label network's features and a GP head per subtype the cohort has
    // rank the held-out scans with that subtype first (recomputed here from the CSV's subtype
    // columns) and keep its slices calibrated (measured: intraparenchymal scan AUC 0.987 and
    // slice ECE 0.025, intraventricular 0.962 and 0.015, 17 positive scans each)
    let subs = report["metrics"]["subtypes"].as_array().unwrap();
    let names: Vec<&str> = subs.iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["intraparenchymal", "intraventricular"], "{text}");
    for m in subs {
        let name = m["name"].as_str().unwrap();
        let y: Vec<u8> = scan_rows
            .iter()
            .map(|r| r[&format!("{name}_label")].parse().unwrap())
            .collect();
        let p: Vec<f64> = scan_rows
            .iter()
            .map(|r| f(&r[&format!("{name}_probability")]))
            .collect();
        assert!(y.iter().filter(|&&l| l == 1).count() >= 5, "{m}");
        let auc = pair_auc(&y, &p);
        assert!((auc - m["scan"]["auc"].as_f64().unwrap()).abs() < 1e-12);
        // the bound sits three standard errors (Hanley & McNeil) below the measured 0.962 of 17
        // positive and 31 negative scans (SE ≈ 0.033), so another CPU's run does not cross it
        // where the same network would
        assert!(auc >= 0.85, "{name}: held-out scan AUC {auc}\n{text}");
        // calibrated: within 0.05 of what perfectly calibrated probabilities show on this many
        // slices (the floor, the mean ECE of labels drawn from the probabilities themselves)
        let ece = m["slice"]["ece"].as_f64().unwrap();
        let floor = m["slice"]["ece_floor"].as_f64().unwrap();
        assert!(
            ece <= floor + 0.05,
            "{name}: held-out slice ECE {ece} (floor {floor})\n{text}"
        );
    }
    // beside each ECE its floor and the p-value of 200 draws of calibrated labels
    for set in ["scan", "slice"] {
        let m = &report["metrics"][set];
        let p = m["ece_p_value"].as_f64().unwrap();
        assert!((1.0 / 201.0 - 1e-12..=1.0).contains(&p), "{set}: {m}");
        assert!(m["ece_floor"].as_f64().unwrap() >= 0.0);
    }
    // held-out scans of the training distribution are rarely flagged as outside it (≤ 5 %)...
    let flagged = |scans: &[serde_json::Value]| {
        scans
            .iter()
            .filter(|s| s["out_of_distribution"]["flagged"].as_bool().unwrap())
            .count()
    };
    assert!(flagged(scans) <= 2, "{} of 48 flagged", flagged(scans));
    // ...real head CT of a hospital (ct-ich) is: the bundle never saw anything like it
    let Some(src) = testkit::shared_data_or_skip("ct-ich") else {
        return;
    };
    let real = tmp.path().join("ct-ich");
    common::ct_ich_dicom(&src, &real, &[53, 66, 67, 68, 70, 54, 56, 57, 59, 60], 256);
    let rep2 = tmp.path().join("on-ct-ich");
    let text = ok(&[
        "-q",
        "predict",
        "--model",
        s(&out.join("model")),
        s(&real),
        "--out",
        s(&rep2),
        "--no-html",
        "--no-dicom",
    ]);
    let r2: serde_json::Value =
        serde_json::from_slice(&std::fs::read(rep2.join("report.json")).unwrap()).unwrap();
    let real_scans = r2["scans"].as_array().unwrap();
    assert_eq!(real_scans.len(), 10);
    assert!(
        flagged(real_scans) >= 9,
        "{} of 10 flagged",
        flagged(real_scans)
    );
    assert!(text.contains("out of distribution"), "{text}");
    for sc in real_scans
        .iter()
        .filter(|s| s["out_of_distribution"]["flagged"] == true)
    {
        // flagged means uncertain, for the scan and every slice, and the page says why
        assert_eq!(sc["uncertain"], true);
        assert!(sc["slices"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["uncertain"] == true));
        assert!(sc["warnings"]
            .to_string()
            .contains("outside what the model was fitted on"));
    }
}

#[test]
fn a_bundle_whose_parts_do_not_fit_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("dicom");
    common::synth(&raw, "8", "4", "64", "9");
    let prep = |name: &str, size: &str| {
        let ds = tmp.path().join(name);
        common::preprocess(&raw, &ds, size, &[]);
        ds
    };
    let ds = prep("ds32", "32");
    let ds48 = prep("ds48", "48");
    let bundle = tmp.path().join("bundle");
    common::small_cnn(&ds, &bundle);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(bundle.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["format_version"], 1);
    assert_eq!(manifest["cnn"]["dim"], 8);
    assert_eq!(manifest["preprocess"]["size"], 32);
    for f in ["config.json", "model.bpk", "log.csv"] {
        assert_eq!(manifest["files"][f].as_str().unwrap().len(), 64, "{f}");
    }
    let report = tmp.path().join("report");
    let predict = |inputs: &Path| {
        ich(&[
            "-q",
            "predict",
            "--model",
            s(&bundle),
            s(inputs),
            "--out",
            s(&report),
        ])
    };
    // no GP head yet
    let o = predict(&ds);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success() && err.contains("no GP head"), "{err}");

    let feats = tmp.path().join("f.csv");
    common::gp_head(&bundle, &ds, &feats, &["--inducing", "8"]);
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&ds),
        "--out",
        s(&report),
    ]);
    let scans = csv_rows(&report.join("scans.csv"));
    assert_eq!(scans.len(), 8);

    // straight from the DICOM folder (preprocessed in memory with the bundle's config): the same
    // numbers as from the dataset; patient names only with --keep-phi
    let from_dicom = tmp.path().join("from-dicom");
    let args = [
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&raw),
        "--out",
        s(&from_dicom),
    ];
    ok(&args);
    let again = csv_rows(&from_dicom.join("scans.csv"));
    assert_eq!(again.len(), 8);
    let by_id: HashMap<&str, f64> = again
        .iter()
        .map(|r| (r["scan_id"].as_str(), f(&r["probability"])))
        .collect();
    for a in &scans {
        let p = by_id[a["scan_id"].as_str()];
        assert!((f(&a["probability"]) - p).abs() < 1e-9, "{a:?} vs {p}");
    }
    let json = std::fs::read_to_string(from_dicom.join("report.json")).unwrap();
    let html = std::fs::read_to_string(from_dicom.join("index.html")).unwrap();
    assert!(!json.contains("Synthetic^Patient") && !html.contains("Synthetic^Patient"));
    let phi = tmp.path().join("phi");
    let mut with_phi = args.to_vec();
    with_phi[6] = s(&phi);
    with_phi.push("--keep-phi");
    ok(&with_phi);
    let json = std::fs::read_to_string(phi.join("report.json")).unwrap();
    assert!(
        json.contains("\"patient_name\": \"Synthetic^Patient"),
        "{json}"
    );
    // free text: a name typed into SeriesDescription (DICOM's basic de-identification profile
    // removes the attribute) stays out of every output without --keep-phi, the dataset's too
    for scan in std::fs::read_dir(&raw).unwrap().flatten() {
        for f in std::fs::read_dir(scan.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.path().extension().is_some_and(|e| e == "dcm") {
                let mut o = dicom_object::open_file(f.path()).unwrap();
                o.put(dicom_core::DataElement::new(
                    dicom_dictionary_std::tags::SERIES_DESCRIPTION,
                    dicom_core::VR::LO,
                    dicom_core::PrimitiveValue::from("HEAD DOE^JANE"),
                ));
                o.write_to_file(f.path()).unwrap();
            }
        }
    }
    let named = tmp.path().join("named");
    let mut named_args = args.to_vec();
    named_args[6] = s(&named);
    ok(&named_args);
    let named_ds = tmp.path().join("named-ds");
    common::preprocess(&raw, &named_ds, "32", &[]);
    let mut seen = Vec::new();
    for dir in [&named, &named_ds] {
        for f in walkdir::WalkDir::new(dir).into_iter().flatten() {
            if f.file_type().is_file()
                && String::from_utf8_lossy(&std::fs::read(f.path()).unwrap()).contains("DOE^JANE")
            {
                seen.push(f.path().to_path_buf());
            }
        }
    }
    assert!(seen.is_empty(), "the free text reached {seen:?}");
    let named_phi = tmp.path().join("named-phi");
    named_args[6] = s(&named_phi);
    named_args.push("--keep-phi");
    ok(&named_args);
    let csv = std::fs::read_to_string(named_phi.join("scans.csv")).unwrap();
    assert!(csv.contains("HEAD DOE^JANE"), "{csv}");

    // features of another dimension are refused by fit-gp --bundle
    let text = std::fs::read_to_string(&feats).unwrap();
    let fewer: String = text
        .lines()
        .map(|l| {
            // drop feature_7 (the eighth column)
            let mut cols: Vec<&str> = l.split(',').collect();
            cols.remove(7);
            cols.join(",") + "\n"
        })
        .collect();
    let f7 = tmp.path().join("f7.csv");
    std::fs::write(&f7, fewer).unwrap();
    let o = ich(&["-q", "fit-gp", "--features", s(&f7), "--bundle", s(&bundle)]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        !o.status.success() && err.contains("7 features") && err.contains("8"),
        "{err}"
    );

    // a dataset of another image size
    let o = predict(&ds48);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        !o.status.success() && err.contains("image size 48"),
        "{err}"
    );

    // a changed file fails its checksum, named
    let gp = bundle.join("gp.json");
    let mut g = std::fs::read_to_string(&gp).unwrap();
    g.push(' ');
    std::fs::write(&gp, g).unwrap();
    let o = predict(&ds);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        !o.status.success() && err.contains("gp.json") && err.contains("checksum"),
        "{err}"
    );
}
