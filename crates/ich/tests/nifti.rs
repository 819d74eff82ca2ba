//! NIfTI and DICOM of the same real head CT volumes (ct-ich patients at 256²): `ich preprocess`
//! gives the same pixels and labels, `ich predict` with the imported SA-DMIL network the same
//! probabilities, whichever way the NIfTI files are stored; a NIfTI scan gets no DICOM results
//! and says so, and its file name stays out of the reports unless `--keep-phi`.

mod common;

use common::{ok, s, Storage};

use std::collections::BTreeMap;
use std::path::Path;

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// Two with a bleed, one without; each NIfTI stored another way.
const PATIENTS: [u32; 3] = [53, 66, 54];
fn storage(pt: u32) -> Storage {
    match pt {
        53 => Storage::Ras,
        66 => Storage::HeadFirst,
        _ => Storage::Lps,
    }
}

#[test]
fn nifti_and_dicom_of_one_volume_give_the_same_pixels_and_probabilities() {
    let (Some(src), Some(w)) = (
        testkit::shared_data_or_skip("ct-ich"),
        testkit::shared_data_or_skip("pretrained/sa-dmil"),
    ) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (dicom, nifti) = (tmp.path().join("dicom"), tmp.path().join("nifti"));
    let labels = common::ct_ich_dicom(&src, &dicom, &PATIENTS, 256);
    let names = common::ct_ich_nifti(&src, &nifti, &PATIENTS, 256, storage);
    let name_of = |pt: u32| names[&pt].clone();

    // preprocess: the same bytes, slice labels and scan labels
    let prep = |input: &Path, out: &Path| {
        ok(&[
            "-q",
            "preprocess",
            s(input),
            "--out",
            s(out),
            "--size",
            "64",
            "--labels",
            s(&input.join("labels.csv")),
            "--labels",
            s(&input.join("slice_labels.csv")),
        ]);
        preprocess::Dataset::open(out).unwrap()
    };
    let (dd, nd) = (
        prep(&dicom, &tmp.path().join("dd")),
        prep(&nifti, &tmp.path().join("nd")),
    );
    for &pt in &PATIENTS {
        let d = dd
            .manifest
            .scans
            .iter()
            .find(|e| dd.scan_meta(e).unwrap().series_instance_uid == format!("2.25.{pt}2"))
            .unwrap();
        let n = nd
            .manifest
            .scans
            .iter()
            .find(|e| e.id == preprocess::scan::scan_id("NIfTI", &name_of(pt)))
            .unwrap();
        let (dm, nm) = (dd.scan_meta(d).unwrap(), nd.scan_meta(n).unwrap());
        assert_eq!(dm.label, Some(labels[&pt]), "{pt}");
        assert_eq!(nm.label, dm.label, "{pt}");
        let sl = |m: &preprocess::dataset::ScanMeta| {
            m.slices.iter().map(|s| s.label).collect::<Vec<_>>()
        };
        assert_eq!(sl(&nm), sl(&dm), "{pt}");
        assert_eq!(nm.pixel_spacing, dm.pixel_spacing, "{pt}");
        assert_eq!(
            nd.scan_pixels(n).unwrap().data,
            dd.scan_pixels(d).unwrap().data,
            "{pt}: the same pixels"
        );
    }

    // predict with the imported network: the same probabilities, scan and slice
    let bundle = tmp.path().join("sa-dmil");
    ok(&[
        "-q",
        "import",
        s(&w.join("baseline.ckpt")),
        "--out",
        s(&bundle),
    ]);
    let predict = |input: &Path, out: &Path, extra: &[&str]| {
        let (scan_labels, slice_labels) =
            (input.join("labels.csv"), input.join("slice_labels.csv"));
        let mut a = vec![
            "-q",
            "predict",
            "--model",
            s(&bundle),
            s(input),
            "--out",
            s(out),
            "--labels",
            s(&scan_labels),
            "--labels",
            s(&slice_labels),
            "--no-html",
        ];
        a.extend_from_slice(extra);
        ok(&a);
        json(&out.join("report.json"))
    };
    let (rd, rn) = (tmp.path().join("rd"), tmp.path().join("rn"));
    let d = predict(&dicom, &rd, &["--keep-phi", "--no-dicom"]);
    // DICOM results asked for (the default): none for a NIfTI scan, and the report says why,
    // unless the DICOM series it came from is given (its folder, or a folder of several)
    let one = format!("{}={}", name_of(54), s(&dicom.join("ctich_054")));
    let all = format!("{}={}", name_of(53), s(&dicom));
    let n = predict(&nifti, &rn, &["--nifti-dicom", &one, "--nifti-dicom", &all]);
    let by = |r: &serde_json::Value, key: &dyn Fn(&serde_json::Value) -> String| {
        r["scans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|sc| (key(sc), sc.clone()))
            .collect::<BTreeMap<String, serde_json::Value>>()
    };
    let dscans = by(&d, &|sc| sc["patient_id"].as_str().unwrap().to_string());
    let nscans = by(&n, &|sc| sc["id"].as_str().unwrap().to_string());
    let (mut worst, mut mc) = (0.0f64, 0.0f64);
    for &pt in &PATIENTS {
        let a = &dscans[&format!("ctich_{pt:03}")];
        // a DICOM scan is tied to its study and series
        assert!(a["study_instance_uid"]
            .as_str()
            .is_some_and(|u| !u.is_empty()));
        assert!(a["series_instance_uid"]
            .as_str()
            .is_some_and(|u| !u.is_empty()));
        let b = &nscans[&preprocess::scan::scan_id("NIfTI", &name_of(pt))];
        let f = |v: &serde_json::Value| v.as_f64().unwrap();
        // the network's own output: the same pixels give the same number; the dropout passes
        // are seeded by the scan's id, which differs between the two (NIfTI name, DICOM UIDs)
        worst = worst.max((f(&a["cnn_probability"]) - f(&b["cnn_probability"])).abs());
        mc = mc.max((f(&a["probability"]) - f(&b["probability"])).abs());
        assert_eq!(a["label"], b["label"]);
        let (sa, sb) = (
            a["slices"].as_array().unwrap(),
            b["slices"].as_array().unwrap(),
        );
        assert_eq!(sa.len(), sb.len());
        for (x, y) in sa.iter().zip(sb) {
            assert_eq!(x["label"], y["label"]);
            mc = mc.max((f(&x["probability"]) - f(&y["probability"])).abs());
        }
        let warn = b["warnings"].to_string();
        // tied to its file by the path under its input, without --keep-phi too
        assert_eq!(b["nifti"], name_of(pt).as_str());
        assert!(b.get("study_instance_uid").is_none());
        if pt == 66 {
            assert!(
                warn.contains("NIfTI") && warn.contains("no DICOM results"),
                "{warn}"
            );
            assert!(b.get("dicom").is_none());
            continue;
        }
        // the SR references the DICOM series the volume came from, slice by slice
        let sr = rn.join(b["dicom"]["sr"].as_str().expect("an SR"));
        let o = dicom_object::open_file(&sr).unwrap();
        assert_eq!(
            common::element_text(&o, dicom_dictionary_std::tags::STUDY_INSTANCE_UID),
            format!("2.25.{pt}1")
        );
        let bytes = std::fs::read(&sr).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for k in [1u32, 10] {
            let sop = format!("2.25.{pt}{k:03}3");
            assert!(text.contains(&sop), "{pt}: the SR does not reference {sop}");
        }
    }
    eprintln!("largest difference of a probability, NIfTI vs DICOM: {worst:e}");
    assert!(worst < 1e-5, "largest difference {worst}");
    // two sets of 1000 dropout passes: means within Monte Carlo noise
    assert!(mc < 0.02, "largest difference of a dropout mean {mc}");
    // the metrics of two sets of dropout means: the same ranking, the rest within the noise
    for set in ["scan", "slice"] {
        let (a, b) = (&d["metrics"][set], &n["metrics"][set]);
        assert_eq!(a["auc"], b["auc"], "{set}");
        for key in ["accuracy", "ece", "log_likelihood"] {
            let (x, y) = (a[key].as_f64().unwrap(), b[key].as_f64().unwrap());
            assert!(
                (x - y).abs() <= 0.02 * (1.0 + y.abs()),
                "{set} {key}: {x} vs {y}"
            );
        }
    }
    // each scan is tied to its file by its path under the input (scans.csv's nifti column,
    // report.json), without --keep-phi too; no patient name or ID comes with it
    let rows = common::csv_rows(&rn.join("scans.csv"));
    for &pt in &PATIENTS {
        assert!(rows.iter().any(|r| r["nifti"] == name_of(pt)), "{pt}");
    }
    let json = std::fs::read_to_string(rn.join("report.json")).unwrap();
    assert!(!json.contains("patient_name") && !json.contains("patient_id"));
}
