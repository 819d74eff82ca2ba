//! Published weights through the real binary: `ich import` of the SA-DMIL baseline checkpoint,
//! `ich predict` with no GP head on the RSNA DICOM file (TensorFlow's probability), then a GP head
//! fitted on the imported network's 1152 features through a PCA projection, on synthetic bleeds
//! drawn into the real head CT (`ich synth --base`), and predictions with uncertainty from it.

mod common;

use common::{ich, ok, s, text};

use std::path::PathBuf;

fn shared(rel: &str) -> Option<PathBuf> {
    testkit::shared_data_or_skip(rel)
}

fn json(p: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn import_predict_then_fit_a_gp_head_on_the_imported_features() {
    let (Some(dir), Some(ct)) = (
        shared("pretrained/sa-dmil"),
        shared("ct/cranium_hu_i16le_108x256x256.raw.gz"),
    ) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("sa-dmil");
    let ckpt = dir.join("baseline.ckpt");
    let out = ok(&["import", s(&ckpt), "--out", s(&bundle)]);
    assert!(out.contains("109 variables read"), "{out}");

    // provenance: the source files' SHA-256 as sha256 of the files themselves
    let m = json(&bundle.join("manifest.json"));
    let imp = &m["cnn"]["imported"];
    for f in ["baseline.ckpt.index", "baseline.ckpt.data-00000-of-00001"] {
        let p = dir.join(f);
        let want = detect::bundle::sha256_file(&p).unwrap();
        assert_eq!(imp["sources"][s(&p)], want.as_str(), "{f}");
    }
    assert!(imp["licence"].as_str().unwrap().contains("MIT"));
    assert!(imp["licence"].as_str().unwrap().contains("RSNA"));
    assert_eq!(m["preprocess"]["size"], 512);
    assert_eq!(m["cnn"]["dim"], 1152);
    assert!(m.get("gp").is_none());

    // no GP head: the network's probability, TensorFlow's for this bag padded to 57 (case d)
    let r1 = tmp.path().join("r1");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&dir.join("ID_000012eaf.dcm")),
        "--out",
        s(&r1),
        // one slice is no head CT series: the envelope leaves it out unless asked
        "--all-series",
    ]);
    let tf = json(&dir.join("reference_tf.json"));
    let want = tf["models"]["baseline"]["d"]["probability"]
        .as_f64()
        .unwrap();
    let rep = json(&r1.join("report.json"));
    // the network's own output is TensorFlow's; the reported probability is the mean of its
    // dropout passes, with an interval that holds TensorFlow's number
    let sc = &rep["scans"][0];
    let got = sc["cnn_probability"].as_f64().unwrap();
    assert!(
        ((got - want) / want).abs() < 1e-4,
        "{got} vs TensorFlow {want}"
    );
    assert_eq!(rep["model"]["uncertainty"], true);
    let (lo, hi) = (sc["lo"].as_f64().unwrap(), sc["hi"].as_f64().unwrap());
    assert!(
        lo <= want && want <= hi && sc["sd"].as_f64().unwrap() > 0.0,
        "{sc}"
    );
    assert_eq!(rep["model"]["calibration"]["kind"], "none");
    assert!(
        sc["warnings"]
            .to_string()
            .contains("too few for a head CT series"),
        "{sc}"
    );
    // Kaggle's de-identified "ID_…" identifiers are no DICOM UIDs: no SR can reference them, so
    // the scan gets a warning instead of DICOM results, and the job still succeeds
    let warnings = rep["scans"][0]["warnings"].to_string();
    assert!(
        warnings.contains("no DICOM results") && warnings.contains("ID_"),
        "{warnings}"
    );
    assert!(
        rep["scans"][0].get("dicom").is_none()
            && !r1
                .join("dicom")
                .join(rep["scans"][0]["id"].as_str().unwrap())
                .join("sr.dcm")
                .exists()
    );
    let index = std::fs::read_to_string(r1.join("index.html")).unwrap();
    assert!(
        index.contains("no GP head"),
        "the page says where probabilities come from"
    );

    // a GP head on the imported features, through PCA to 8 dimensions
    let raw = tmp.path().join("dicom");
    ok(&[
        "-q",
        "synth",
        "--out",
        s(&raw),
        "--scans",
        "10",
        "--slices",
        "4",
        "--size",
        "512",
        "--seed",
        "4",
        "--base",
        s(&ct),
    ]);
    let ds = tmp.path().join("ds");
    ok(&[
        "-q",
        "preprocess",
        s(&raw),
        "--out",
        s(&ds),
        "--preset",
        "sa-dmil",
        "--labels",
        s(&raw.join("labels.csv")),
        "--labels",
        s(&raw.join("slice_labels.csv")),
    ]);
    let feats = tmp.path().join("features.csv");
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
    let header = std::fs::read_to_string(&feats).unwrap();
    let header = header.lines().next().unwrap();
    assert!(
        header.contains("feature_1151,") && !header.contains("feature_1152"),
        "1152 features"
    );
    let fit = ok(&[
        "fit-gp",
        "--features",
        s(&feats),
        "--bundle",
        s(&bundle),
        "--project",
        "8",
        "--inducing",
        "12",
        "--valid-fraction",
        "0",
    ]);
    assert!(fit.contains("PCA 1152 → 8"), "{fit}");
    let m = json(&bundle.join("manifest.json"));
    assert_eq!(m["gp"]["dim"], 8);
    assert_eq!(m["gp"]["projection"], "projection.json");
    assert!(m["files"]["projection.json"].is_string(), "checksummed");
    let pca = json(&bundle.join("projection.json"));
    assert_eq!(
        (pca["d"].as_u64(), pca["k"].as_u64()),
        (Some(1152), Some(8))
    );

    let r2 = tmp.path().join("r2");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&ds),
        "--out",
        s(&r2),
        "--no-html",
    ]);
    let rep = json(&r2.join("report.json"));
    assert_eq!(rep["model"]["uncertainty"], true);
    assert_eq!(rep["model"]["feature_dim"], 8);
    let scans = rep["scans"].as_array().unwrap();
    assert_eq!(scans.len(), 10);
    let spread = scans
        .iter()
        .flat_map(|sc| sc["slices"].as_array().unwrap())
        .filter(|sl| sl["sd"].as_f64().unwrap() > 0.0)
        .count();
    assert_eq!(spread, 40, "every slice has a spread from the GP head");

    // with a head, DICOM reaches the network as the dataset's bytes (the input the head was
    // fitted on): predicting the DICOM folder gives the dataset's numbers
    let r3 = tmp.path().join("r3");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&raw),
        "--out",
        s(&r3),
        "--no-html",
        // synthetic 4-slice scans: outside SA-DMIL's envelope, predicted here on purpose
        "--all-series",
    ]);
    let from_dicom = json(&r3.join("report.json"));
    let probs = |r: &serde_json::Value| {
        let mut v: Vec<(String, f64)> = r["scans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|sc| {
                (
                    sc["id"].as_str().unwrap().to_string(),
                    sc["probability"].as_f64().unwrap(),
                )
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    let (a, b) = (probs(&rep), probs(&from_dicom));
    assert_eq!(a.len(), b.len());
    for ((ia, pa), (ib, pb)) in a.iter().zip(&b) {
        assert_eq!(ia, ib);
        assert!((pa - pb).abs() < 1e-9, "{ia}: dataset {pa} vs DICOM {pb}");
    }

    // a projection that no longer matches its checksum is refused by name
    std::fs::write(bundle.join("projection.json"), "{}").unwrap();
    let o = ich(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&ds),
        "--out",
        s(&r2),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("projection.json"), "{}", text(&o));
}

#[test]
fn the_preset_excludes_its_own_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let o = ich(&[
        "preprocess",
        s(tmp.path()),
        "--out",
        s(&tmp.path().join("x")),
        "--preset",
        "sa-dmil",
        "--size",
        "256",
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("--size"), "{}", text(&o));
}

/// The imported network on real scans that are not 512² (ct-ich at 256²): `ich predict`'s scan
/// probabilities against TensorFlow's on the authors' own preprocessing, window first and then
/// OpenCV's bilinear resize of the windowed floats (`scripts/bench/sa-dmil-tf-reference.py`, fixture
/// `fixtures/sa_dmil_ctich256_tf.json`). Resizing the Hounsfield units first, as the preset did,
/// moved these probabilities by up to 0.6.
#[test]
fn the_imported_network_on_256_squared_scans_gives_tensorflows_probabilities() {
    let (Some(src), Some(w)) = (shared("ct-ich"), shared("pretrained/sa-dmil")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // ICH_CTICH256_DICOM=DIR keeps the series in DIR, for the fixture's script to read
    let dicom = std::env::var_os("ICH_CTICH256_DICOM")
        .map(PathBuf::from)
        .unwrap_or_else(|| tmp.path().join("dicom"));
    common::ct_ich_dicom(&src, &dicom, &CTICH256_PATIENTS, 256);
    let bundle = tmp.path().join("sa-dmil");
    ok(&[
        "-q",
        "import",
        s(&w.join("baseline.ckpt")),
        "--out",
        s(&bundle),
    ]);
    let rep = tmp.path().join("r");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&dicom),
        "--out",
        s(&rep),
        "--keep-phi",
        "--no-html",
        "--no-dicom",
    ]);
    let r = json(&rep.join("report.json"));
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/sa_dmil_ctich256_tf.json")).unwrap();
    let want: std::collections::BTreeMap<String, f64> = fixture["scans"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| {
            assert_eq!(
                (v["rows"].as_u64(), v["cols"].as_u64()),
                (Some(256), Some(256))
            );
            (
                v["patient_id"].as_str().unwrap().to_string(),
                v["probability"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(want.len(), CTICH256_PATIENTS.len());
    let scans = r["scans"].as_array().unwrap();
    assert_eq!(scans.len(), want.len());
    let mut worst = 0.0f64;
    for sc in scans {
        let id = sc["patient_id"].as_str().unwrap();
        // the network's deterministic output (the reported probability is its dropout mean)
        let (got, tf) = (sc["cnn_probability"].as_f64().unwrap(), want[id]);
        eprintln!("{id}: ich {got:.6}, TensorFlow {tf:.6}");
        worst = worst.max((got - tf).abs());
    }
    assert!(worst <= 0.01, "largest difference {worst}");
}

/// Six ct-ich patients, three with a bleed and three without.
const CTICH256_PATIENTS: [u32; 6] = [53, 66, 67, 54, 56, 57];

/// The model in the box: `models/sa-dmil` opens (every checksum holds), and it is what `ich import`
/// makes from the published checkpoint: the same `config.json` byte for byte, the same
/// preprocessing, licence and source checksums in its manifest, the authors' LICENSE beside it,
/// and the same tensors, shown by the same probabilities to the last bit on the real RSNA slice
/// (which are TensorFlow's).
#[test]
fn the_shipped_model_is_what_import_makes_from_the_published_checkpoint() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/sa-dmil");
    let b = detect::Bundle::open(&shipped).unwrap();
    assert_eq!(b.manifest.cnn.dim, 1152);
    let Some(dir) = shared("pretrained/sa-dmil") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let fresh = tmp.path().join("sa-dmil");
    ok(&[
        "-q",
        "import",
        s(&dir.join("baseline.ckpt")),
        "--out",
        s(&fresh),
    ]);
    let read = |p: PathBuf| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert_eq!(
        read(shipped.join("config.json")),
        read(fresh.join("config.json"))
    );
    assert_eq!(
        read(shipped.join("LICENSE.txt")),
        read(dir.join("LICENSE.txt"))
    );
    let (ms, mf) = (
        json(&shipped.join("manifest.json")),
        json(&fresh.join("manifest.json")),
    );
    assert_eq!(ms["preprocess"], mf["preprocess"]);
    assert_eq!(ms["cnn"]["dim"], mf["cnn"]["dim"]);
    assert_eq!(ms["cnn"]["float_input"], mf["cnn"]["float_input"]);
    for k in ["name", "published", "citation", "licence", "format"] {
        assert_eq!(ms["cnn"]["imported"][k], mf["cnn"]["imported"][k], "{k}");
    }
    // the shipped manifest names the checkpoint files without this machine's folders
    for f in ["baseline.ckpt.index", "baseline.ckpt.data-00000-of-00001"] {
        let want = detect::bundle::sha256_file(&dir.join(f)).unwrap();
        assert_eq!(ms["cnn"]["imported"]["sources"][f], want.as_str(), "{f}");
    }
    let slice = dir.join("ID_000012eaf.dcm");
    let predict = |model: &std::path::Path, name: &str| {
        let out = tmp.path().join(name);
        ok(&[
            "-q",
            "predict",
            "--model",
            s(model),
            s(&slice),
            "-o",
            s(&out),
            "--no-html",
            "--all-series",
        ]);
        json(&out.join("report.json"))["scans"][0].clone()
    };
    let (a, f) = (predict(&shipped, "shipped"), predict(&fresh, "fresh"));
    assert_eq!(a["probability"], f["probability"]);
    assert_eq!(a["slices"], f["slices"]);
    let tf = json(&dir.join("reference_tf.json"))["models"]["baseline"]["d"]["probability"]
        .as_f64()
        .unwrap();
    let got = a["cnn_probability"].as_f64().unwrap();
    assert!(((got - tf) / tf).abs() < 1e-4, "{got} vs TensorFlow {tf}");
}

/// The envelope on real scans (ct-ich patient 53, a bleed, at 256²): one study holding its 5 mm
/// series and a thin (1.25 mm) series re-sliced from it (each slice interpolated linearly
/// between its neighbours, 4 per 5 mm); a study with only the thin series; a one-slice series; a
/// contrast-enhanced copy (ContrastBolusAgent set); a sagittal reformat's orientation. The
/// imported SA-DMIL predicts the 5 mm series and the lone thin one, read as 5 mm slabs (the
/// scan's probability within 0.05 of the 5 mm series'), and leaves out the rest, each with its
/// reason; `--all-series` predicts all six, the three that cannot be read as the model was made
/// for flagged. Every output of the shipped network says it is not calibrated for this site.
#[test]
fn series_outside_what_the_model_was_made_for_are_left_out_or_flagged() {
    let (Some(src), Some(w)) = (shared("ct-ich"), shared("pretrained/sa-dmil")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("dicom");
    let hu = common::ct_ich_hu(&src, 53, 256);
    let thick: Vec<(u32, Vec<i16>)> = hu.iter().map(|(n, _, h)| (*n, h.clone())).collect();
    // 4 thin slices per 5 mm slice, centred on it: at offsets -1.5, -0.5, 0.5, 1.5 quarters
    let last = thick.len() - 1;
    let thin: Vec<(u32, Vec<i16>)> = (0..thick.len() * 4)
        .map(|t| {
            let at = ((t as f64 - 1.5) / 4.0).clamp(0.0, last as f64);
            let (a, w) = (at.floor() as usize, at.fract());
            let b = (a + 1).min(last);
            let h = thick[a]
                .1
                .iter()
                .zip(&thick[b].1)
                .map(|(&x, &y)| ((1.0 - w) * x as f64 + w * y as f64).round() as i16)
                .collect();
            (t as u32 + 1, h)
        })
        .collect();
    let write = |name: &str,
                 study: &str,
                 series: &str,
                 dz: f64,
                 slices: &[(u32, Vec<i16>)],
                 sagittal: bool| {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).unwrap();
        for (n, h) in slices {
            let slice = preprocess::ctwriter::CtSlice {
                study_uid: study.into(),
                series_uid: series.into(),
                sop_uid: format!("{series}.{n}"),
                frame_of_reference_uid: format!("{study}.9"),
                patient_name: "ctich_053".into(),
                patient_id: "ctich_053".into(),
                instance_number: Some(*n as i32),
                position: Some([0.0, 0.0, dz * *n as f64]),
                orientation: Some(if sagittal {
                    [0.0, 1.0, 0.0, 0.0, 0.0, -1.0]
                } else {
                    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
                }),
                slice_thickness: dz,
                pixel_spacing: [250.0 / 256.0; 2],
                rows: 256,
                cols: 256,
                stored: h.iter().map(|&v| v as i32 + 1024).collect(),
                series_description: name.into(),
                ..Default::default()
            };
            std::fs::write(d.join(format!("{n:03}.dcm")), slice.to_bytes().unwrap()).unwrap();
        }
        d
    };
    write("thick", "2.25.51", "2.25.511", 5.0, &thick, false);
    write(
        "thin-beside-thick",
        "2.25.51",
        "2.25.512",
        1.25,
        &thin,
        false,
    );
    write("thin-alone", "2.25.52", "2.25.521", 1.25, &thin, false);
    write("one-slice", "2.25.53", "2.25.531", 5.0, &thick[..1], false);
    let contrast = write("contrast", "2.25.54", "2.25.541", 5.0, &thick, false);
    write("sagittal", "2.25.55", "2.25.551", 5.0, &thick, true);
    for e in std::fs::read_dir(&contrast).unwrap() {
        let p = e.unwrap().path();
        let mut o = dicom_object::open_file(&p).unwrap();
        o.put(dicom_core::DataElement::new(
            dicom_dictionary_std::tags::CONTRAST_BOLUS_AGENT,
            dicom_core::VR::LO,
            dicom_core::PrimitiveValue::from("OMNIPAQUE 350"),
        ));
        o.write_to_file(&p).unwrap();
    }
    let bundle = tmp.path().join("sa-dmil");
    ok(&[
        "-q",
        "import",
        s(&w.join("baseline.ckpt")),
        "--out",
        s(&bundle),
    ]);
    let rep = tmp.path().join("r");
    let out = ok(&["predict", "--model", s(&bundle), s(&dir), "--out", s(&rep)]);
    assert!(out.contains("NOT CALIBRATED FOR THIS SITE"), "{out}");
    let r = json(&rep.join("report.json"));
    let scans = r["scans"].as_array().unwrap();
    let names: std::collections::BTreeSet<&str> = scans
        .iter()
        .map(|s| s["series_instance_uid"].as_str().unwrap())
        .collect();
    let skipped = r["skipped"].to_string();
    // the thick series and the thin one alone in its study
    assert_eq!(
        names,
        ["2.25.511", "2.25.521"].into_iter().collect(),
        "{skipped}"
    );
    // the descriptions are free text: not reported without --keep-phi
    assert!(scans.iter().all(|s| s["series_description"].is_null()));
    assert!(!skipped.contains("thin-beside-thick"), "{skipped}");
    for why in [
        "a thin reconstruction",
        "too few for a head CT series",
        "contrast-enhanced (ContrastBolusAgent \\\"OMNIPAQUE 350\\\")",
        "not axial",
    ] {
        assert!(skipped.contains(why), "{why}: {skipped}");
    }
    let slabs = thin.len().div_ceil(4);
    for sc in scans {
        let thin = sc["series_instance_uid"] == "2.25.521";
        let warned = sc["warnings"].to_string().contains(&format!(
            "read as {slabs} slabs of 4 slices (5.0 mm), each the mean of its slices"
        ));
        assert_eq!(warned, thin, "{sc}");
        assert!(!sc["warnings"]
            .to_string()
            .contains("outside what the model was made for"));
        assert_eq!(sc["n_slices"], slabs, "{sc}");
        // the page and the SR carry the warning too
        let page = std::fs::read_to_string(rep.join(sc["page"].as_str().unwrap())).unwrap();
        assert!(page.contains("NOT CALIBRATED FOR THIS SITE"));
        let sr = std::fs::read(rep.join(sc["dicom"]["sr"].as_str().unwrap())).unwrap();
        assert!(String::from_utf8_lossy(&sr).contains("NOT CALIBRATED FOR THIS SITE"));
        assert_eq!(
            String::from_utf8_lossy(&sr).contains("Thin slices read as slabs"),
            thin
        );
    }
    // the slabs read the head as the 5 mm series does
    let p = |uid: &str| {
        scans
            .iter()
            .find(|s| s["series_instance_uid"] == uid)
            .unwrap()["probability"]
            .as_f64()
            .unwrap()
    };
    let (p_thick, p_slabs) = (p("2.25.511"), p("2.25.521"));
    assert!(
        (p_thick - p_slabs).abs() < 0.05,
        "5 mm {p_thick}, slabs {p_slabs}"
    );
    // and find the bleed at the same level: the likeliest slab is the likeliest 5 mm slice
    let slices = std::fs::read_to_string(rep.join("slices.csv")).unwrap();
    let probabilities = |uid: &str| -> Vec<f64> {
        let id = scans
            .iter()
            .find(|s| s["series_instance_uid"] == uid)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let p: Vec<f64> = slices
            .lines()
            .filter(|l| l.starts_with(&format!("{id},")))
            .map(|l| l.split(',').nth(4).unwrap().parse().unwrap())
            .collect();
        assert_eq!(p.len(), slabs);
        p
    };
    let (a, b) = (probabilities("2.25.511"), probabilities("2.25.521"));
    let likeliest = |p: &[f64]| (0..p.len()).max_by(|&x, &y| p[x].total_cmp(&p[y])).unwrap();
    assert_eq!(likeliest(&a), likeliest(&b));
    // the figures docs/BENCHMARKS.md gives (shown with --nocapture)
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(&a), mean(&b));
    let cov = |x: &[f64], mx: f64, y: &[f64], my: f64| {
        x.iter()
            .zip(y)
            .map(|(p, q)| (p - mx) * (q - my))
            .sum::<f64>()
    };
    let r = cov(&a, ma, &b, mb) / (cov(&a, ma, &a, ma) * cov(&b, mb, &b, mb)).sqrt();
    let mad = mean(
        &a.iter()
            .zip(&b)
            .map(|(p, q)| (p - q).abs())
            .collect::<Vec<_>>(),
    );
    eprintln!(
        "5 mm: scan {p_thick:.5}, likeliest slice #{} ({:.2}); slabs: scan {p_slabs:.5}, \
         likeliest #{} ({:.2}); slice probabilities: correlation {r:.2}, mean absolute difference {mad:.3}",
        likeliest(&a),
        a[likeliest(&a)],
        likeliest(&b),
        b[likeliest(&b)]
    );
    // the same thin series as a NIfTI volume is read as the same slabs: the network's numbers
    // equal the DICOM series', and its SR (against the DICOM series it came from) references
    // each slab's middle slice, as the DICOM series' SR does
    let nifti = tmp.path().join("nifti");
    std::fs::create_dir_all(&nifti).unwrap();
    let mut v = vec![0i16; 256 * 256 * thin.len()];
    for (k, (_, h)) in thin.iter().enumerate() {
        for (i, &x) in h.iter().enumerate() {
            let (r, c) = (i / 256, i % 256);
            v[c + 256 * (r + 256 * k)] = x;
        }
    }
    let mm = 250.0 / 256.0;
    let affine = [
        [-mm, 0.0, 0.0, 0.0],
        [0.0, -mm, 0.0, 0.0],
        [0.0, 0.0, 1.25, 1.25],
    ];
    testkit::nifti::write_int16(
        &nifti.join("thin.nii.gz"),
        [256, 256, thin.len()],
        &v,
        &affine,
        1.0,
        0.0,
    )
    .unwrap();
    let from = format!("thin.nii.gz={}", s(&dir.join("thin-alone")));
    let rn = tmp.path().join("rn");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&nifti),
        "--out",
        s(&rn),
        "--no-html",
        "--nifti-dicom",
        &from,
    ]);
    let n = json(&rn.join("report.json"));
    let (vn, vd) = (
        &n["scans"][0],
        scans
            .iter()
            .find(|s| s["series_instance_uid"] == "2.25.521")
            .unwrap(),
    );
    assert_eq!(vn["n_slices"], slabs, "{vn}");
    assert!(vn["warnings"]
        .to_string()
        .contains(&format!("read as {slabs} slabs of 4 slices (5.0 mm)")));
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    assert!((f(&vn["cnn_probability"]) - f(&vd["cnn_probability"])).abs() < 1e-5);
    let (sn, sd) = (
        vn["slices"].as_array().unwrap(),
        vd["slices"].as_array().unwrap(),
    );
    assert_eq!(sn.len(), sd.len());
    for (a, b) in sn.iter().zip(sd) {
        assert_eq!(a["sop_instance_uid"], b["sop_instance_uid"]);
        assert!(
            (f(&a["attention"]) - f(&b["attention"])).abs() < 1e-5,
            "{a} {b}"
        );
        assert!(
            (f(&a["probability"]) - f(&b["probability"])).abs() < 0.02,
            "{a} {b}"
        );
    }
    let sr = std::fs::read(rn.join(vn["dicom"]["sr"].as_str().expect("an SR"))).unwrap();
    let sr = String::from_utf8_lossy(&sr);
    assert!(sr.contains("Thin slices read as slabs"));
    // slab 2 of the 4-slice slabs is named by thin slice 7 (instance 7, its middle)
    assert!(sr.contains("2.25.521.7"));
    let index = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert!(index.contains("NOT CALIBRATED FOR THIS SITE"));
    let csv = std::fs::read_to_string(rep.join("scans.csv")).unwrap();
    assert!(csv.lines().skip(1).all(|l| l.ends_with(",none")), "{csv}");
    // --all-series: all six, the three that cannot be read as the model was made for flagged
    let every = tmp.path().join("every");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&dir),
        "--out",
        s(&every),
        "--no-html",
        "--no-dicom",
        "--all-series",
    ]);
    let r = json(&every.join("report.json"));
    let scans = r["scans"].as_array().unwrap();
    assert_eq!(scans.len(), 6);
    let flagged = scans
        .iter()
        .filter(|s| {
            s["uncertain"] == true
                && s["warnings"]
                    .to_string()
                    .contains("outside what the model was made for")
        })
        .count();
    assert_eq!(flagged, 3, "the one-slice, contrast and sagittal series");
}
