//! Into a real PACS: Orthanc (Debian's `orthanc` with its DICOMweb plugin) on loopback, fed
//! synthetic CT. `ich predict` pulls a study by WADO-RS, predicts it, writes the Structured
//! Report and the Secondary Captures and sends them by C-STORE; another scan goes by STOW-RS; a
//! send to a closed port fails after its retries, keeps the files, and `ich send` delivers them.
//! Orthanc's REST API then says what arrived where; the SR read back (dicom-rs here, dcmtk's
//! `dsrdump`) gives the numbers of slices.csv; dicom3tools' `dciodvfy` finds no IOD error.
//!
//! Skipped with a printed reason where Orthanc is not installed, except under CI
//! (`scripts/setup-system.sh` installs it there).

mod common;

use common::orthanc::{
    check_with_dsrdump, free_port, need, orthanc_with_dicomweb, study_uid_of, Orthanc, PASSWORD,
    USER,
};
use common::{csv_rows, ich, ok, s, text};

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use dicom_dictionary_std::tags;
use dicom_object::InMemDicomObject;

fn f(v: &str) -> f64 {
    v.parse().unwrap()
}

// --- reading the SR back with dicom-rs, independently of the writer ---

fn items(o: &InMemDicomObject) -> Vec<InMemDicomObject> {
    o.element(tags::CONTENT_SEQUENCE)
        .ok()
        .and_then(|e| e.items().map(|i| i.to_vec()))
        .unwrap_or_default()
}

fn str_of(o: &InMemDicomObject, tag: dicom_object::Tag) -> String {
    o.element(tag)
        .map(|e| {
            e.to_str()
                .unwrap()
                .trim_end_matches(['\0', ' '])
                .to_string()
        })
        .unwrap_or_default()
}

/// The first item of sequence `tag`.
fn first_item(o: &InMemDicomObject, tag: dicom_object::Tag) -> InMemDicomObject {
    o.element(tag).unwrap().items().unwrap()[0].clone()
}

fn concept(o: &InMemDicomObject, seq: dicom_object::Tag) -> (String, String) {
    let i = &first_item(o, seq);
    (
        str_of(i, tags::CODE_VALUE),
        str_of(i, tags::CODING_SCHEME_DESIGNATOR),
    )
}

/// A measurement group as read: tracking id, source SOP instance, probability, sd, assessment.
#[derive(Debug)]
struct Group {
    tracking: String,
    source: Option<String>,
    p: f64,
    sd: Option<f64>,
    assessment: String,
}

fn groups(sr: &InMemDicomObject) -> Vec<Group> {
    let meas = items(sr)
        .into_iter()
        .find(|i| concept(i, tags::CONCEPT_NAME_CODE_SEQUENCE).0 == "126010")
        .expect("Imaging Measurements");
    items(&meas)
        .iter()
        .map(|g| {
            assert_eq!(concept(g, tags::CONCEPT_NAME_CODE_SEQUENCE).0, "125007");
            let mut out = Group {
                tracking: String::new(),
                source: None,
                p: f64::NAN,
                sd: None,
                assessment: String::new(),
            };
            for c in items(g) {
                let name = concept(&c, tags::CONCEPT_NAME_CODE_SEQUENCE).0;
                match (str_of(&c, tags::VALUE_TYPE).as_str(), name.as_str()) {
                    ("TEXT", "112039") => out.tracking = str_of(&c, tags::TEXT_VALUE),
                    ("IMAGE", "121112") => {
                        let r = &first_item(&c, tags::REFERENCED_SOP_SEQUENCE);
                        out.source = Some(str_of(r, tags::REFERENCED_SOP_INSTANCE_UID));
                    }
                    ("NUM", "ICH-P") => {
                        let mv = &first_item(&c, tags::MEASURED_VALUE_SEQUENCE);
                        let v = mv
                            .element(tags::FLOATING_POINT_VALUE)
                            .unwrap()
                            .to_float64()
                            .unwrap();
                        let ds: f64 = str_of(mv, tags::NUMERIC_VALUE).trim().parse().unwrap();
                        assert!((v - ds).abs() < 1e-12, "FD {v} vs DS {ds}");
                        let is_sd = items(&c).iter().any(|m| {
                            concept(m, tags::CONCEPT_NAME_CODE_SEQUENCE).0 == "121401"
                                && concept(m, tags::CONCEPT_CODE_SEQUENCE).0 == "386136009"
                        });
                        if is_sd {
                            out.sd = Some(v);
                        } else {
                            out.p = v;
                        }
                    }
                    ("CODE", "1386000") => {
                        out.assessment = concept(&c, tags::CONCEPT_CODE_SEQUENCE).0
                    }
                    _ => {}
                }
            }
            out
        })
        .collect()
}

/// The SR's per-slice probabilities and flags against slices.csv and scans.csv of the run.
fn check_sr_against_csv(sr_bytes: &[u8], report: &Path) {
    let sr = dicom_object::from_reader(&sr_bytes[128..]).expect("SR parses with dicom-rs");
    assert_eq!(
        str_of(&sr, tags::SOP_CLASS_UID),
        "1.2.840.10008.5.1.4.1.1.88.34"
    );
    assert_eq!(str_of(&sr, tags::VERIFICATION_FLAG), "UNVERIFIED");
    assert!(str_of(&sr, tags::SERIES_DESCRIPTION).contains("not for diagnostic use"));
    let tpl = &first_item(&sr, tags::CONTENT_TEMPLATE_SEQUENCE);
    assert_eq!(str_of(tpl, tags::TEMPLATE_IDENTIFIER), "1500");
    let gs = groups(&sr);
    let slices = csv_rows(&report.join("slices.csv"));
    let scans = csv_rows(&report.join("scans.csv"));
    assert_eq!(scans.len(), 1);
    assert_eq!(gs.len(), slices.len() + 1, "{gs:?}");
    let code = |pos: &str, unc: &str| match (pos, unc) {
        (_, "1") => "82334004",
        ("1", _) => "52101004",
        _ => "2667000",
    };
    let scan = &gs[0];
    assert_eq!((scan.tracking.as_str(), &scan.source), ("scan", &None));
    assert!((scan.p - f(&scans[0]["probability"])).abs() < 1e-12);
    assert!((scan.sd.unwrap() - f(&scans[0]["sd"])).abs() < 1e-12);
    assert_eq!(
        scan.assessment,
        code(&scans[0]["positive"], &scans[0]["uncertain"])
    );
    for (g, row) in gs[1..].iter().zip(&slices) {
        assert_eq!(g.source.as_deref(), Some(row["sop_instance_uid"].as_str()));
        let k: usize = row["slice_index"].parse().unwrap();
        assert_eq!(g.tracking, format!("slice {} of {}", k + 1, slices.len()));
        assert!(
            (g.p - f(&row["probability"])).abs() < 1e-12,
            "{g:?} {row:?}"
        );
        assert!((g.sd.unwrap() - f(&row["sd"])).abs() < 1e-12);
        assert_eq!(g.assessment, code(&row["positive"], &row["uncertain"]));
    }
}

fn dciodvfy_clean(dciodvfy: &Path, file: &Path) {
    let o = Command::new(dciodvfy).arg(file).output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let errors: Vec<&str> = all.lines().filter(|l| l.starts_with("Error")).collect();
    assert!(errors.is_empty(), "{}: {errors:#?}", file.display());
}

#[test]
fn results_reach_orthanc_by_c_store_and_stow_rs_and_read_back_as_slices_csv() {
    let Some(orthanc_bin) = orthanc_with_dicomweb() else {
        return;
    };
    let Some(dsrdump) = need("dsrdump") else {
        return;
    };
    let Some(dciodvfy) = need("dciodvfy") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let pacs = Orthanc::start(&orthanc_bin, t, serde_json::json!({}));

    // a small model on a synthetic cohort (the mechanics, not the accuracy)
    let (raw, bundle) = common::cohort_and_bundle(t, "4", "31");

    // the CT of scan 0 in the PACS
    let scan0 = raw.join("scan-0000");
    let mut n_ct = 0;
    for e in std::fs::read_dir(&scan0).unwrap().flatten() {
        pacs.upload(&e.path());
        n_ct += 1;
    }
    let study0 = study_uid_of(&scan0);

    // a threshold between the 2nd and 3rd most suspicious slices (found on the local files),
    // so that some slices are flagged and some not
    let probe = t.join("probe");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&scan0),
        "--out",
        s(&probe),
        "--no-dicom",
    ]);
    let mut ps: Vec<f64> = csv_rows(&probe.join("slices.csv"))
        .iter()
        .map(|r| f(&r["probability"]))
        .collect();
    ps.sort_by(|a, b| b.total_cmp(a));
    let thr = format!("{}", (ps[1] + ps[2]) / 2.0);
    assert!(!probe.join("dicom").exists(), "--no-dicom writes no DICOM");

    // a wrong password: a clear refusal naming the service, never the password
    let wrong = format!("http://{USER}:not-it@127.0.0.1:{}/dicom-web", pacs.http);
    let o = ich(&[
        "predict",
        "--model",
        s(&bundle),
        "--study",
        &study0,
        "--dicomweb",
        &wrong,
        "--out",
        s(&t.join("refused")),
    ]);
    let err = text(&o);
    assert!(!o.status.success() && err.contains("401"), "{err}");
    assert!(
        err.contains(&pacs.url("/dicom-web")) && !err.contains("not-it"),
        "{err}"
    );

    // 1. pulled by WADO-RS (credentials in the URL), predicted, sent by C-STORE
    let out1 = t.join("out1");
    let web = format!("http://{USER}:{PASSWORD}@127.0.0.1:{}/dicom-web", pacs.http);
    let store = format!("ORTHANC@127.0.0.1:{}", pacs.dicom);
    // each scan linked to its series in the PACS, here Orthanc's DICOMweb metadata of it
    let viewer = pacs.url("/dicom-web/studies/{study}/series/{series}/metadata");
    let args1 = [
        "predict",
        "--model",
        s(&bundle),
        "--study",
        &study0,
        "--dicomweb",
        &web,
        "--out",
        s(&out1),
        "--send",
        &store,
        "--positive-threshold",
        &thr,
        "--uncertain-sd",
        "1",
        "--viewer-url",
        &viewer,
    ];
    let o = ich(&args1);
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    assert!(log.contains("sent") && log.contains("C-STORE"), "{log}");
    assert!(
        !log.contains("Synthetic^Patient"),
        "no patient name in the log:\n{log}"
    );
    let slices = csv_rows(&out1.join("slices.csv"));
    assert_eq!(slices.len(), n_ct, "every pulled slice predicted");
    // the index's viewer link resolves in the PACS to this scan's series: its n_ct CT slices, of
    // the study that was pulled
    let index = std::fs::read_to_string(out1.join("index.html")).unwrap();
    let base = pacs.url("");
    let at = index
        .find(&format!("href=\"{base}/dicom-web/studies/"))
        .unwrap()
        + 6;
    let link = &index[at..at + index[at..].find('"').unwrap()];
    let path = link.strip_prefix(&base).unwrap().replace("&amp;", "&");
    let meta = pacs.get(&path).unwrap();
    let instances = meta.as_array().unwrap();
    assert_eq!(instances.len(), n_ct, "{link}");
    for i in instances {
        assert_eq!(i["0020000D"]["Value"][0], study0.as_str(), "{link}");
        assert_eq!(i["00080060"]["Value"][0], "CT", "{link}");
    }
    // the same numbers as from the local files (WADO-RS brings the same pixels)
    let local = csv_rows(&probe.join("slices.csv"));
    for (a, b) in slices.iter().zip(&local) {
        assert_eq!(a["sop_instance_uid"], b["sop_instance_uid"]);
        assert!((f(&a["probability"]) - f(&b["probability"])).abs() < 1e-12);
    }
    let flagged: Vec<&HashMap<String, String>> = slices
        .iter()
        .filter(|r| r["positive"] == "1" || r["uncertain"] == "1")
        .collect();
    assert!(flagged.len() >= 2, "{slices:?}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out1.join("report.json")).unwrap()).unwrap();
    let files = &report["scans"][0]["dicom"];
    let sr_file = out1.join(files["sr"].as_str().unwrap());
    assert_eq!(files["sc"].as_array().unwrap().len(), flagged.len());

    // what Orthanc holds now: the CT, the SR series (1 instance), the SC series (one per flagged
    // slice), all in the CT's study
    let series = pacs.series_of(&study0);
    let by_modality = |m: &str| -> Vec<serde_json::Value> {
        series
            .iter()
            .filter(|s| s["MainDicomTags"]["Modality"] == m)
            .cloned()
            .collect()
    };
    assert_eq!(series.len(), 3, "{series:#?}");
    assert_eq!(
        by_modality("CT")[0]["Instances"].as_array().unwrap().len(),
        n_ct
    );
    let sr_series = &by_modality("SR")[0];
    let sc_series = &by_modality("OT")[0];
    assert_eq!(sr_series["Instances"].as_array().unwrap().len(), 1);
    assert_eq!(
        sc_series["Instances"].as_array().unwrap().len(),
        flagged.len()
    );
    for s in [sr_series, sc_series] {
        let d = s["MainDicomTags"]["SeriesDescription"].as_str().unwrap();
        assert!(d.contains("not for diagnostic use"), "{d}");
    }
    // the SR read back from the PACS (Orthanc writes its own file meta; the dataset is ours),
    // and its numbers
    let sr_id = sr_series["Instances"][0].as_str().unwrap();
    let sr_bytes = pacs.bytes(&format!("/instances/{sr_id}/file"));
    check_sr_against_csv(&sr_bytes, &out1);
    check_sr_against_csv(&std::fs::read(&sr_file).unwrap(), &out1);
    check_with_dsrdump(&dsrdump, &sr_file, &out1);
    dciodvfy_clean(&dciodvfy, &sr_file);
    // the Secondary Captures: each references a flagged slice, Orthanc renders them
    let mut sc_sources = Vec::new();
    for id in sc_series["Instances"].as_array().unwrap() {
        let id = id.as_str().unwrap();
        let bytes = pacs.bytes(&format!("/instances/{id}/file"));
        let sc = dicom_object::from_reader(&bytes[128..]).unwrap();
        assert_eq!(
            str_of(&sc, tags::SOP_CLASS_UID),
            "1.2.840.10008.5.1.4.1.1.7"
        );
        assert_eq!(str_of(&sc, tags::BURNED_IN_ANNOTATION), "YES");
        let src = &first_item(&sc, tags::SOURCE_IMAGE_SEQUENCE);
        sc_sources.push(str_of(src, tags::REFERENCED_SOP_INSTANCE_UID));
        let png = pacs.bytes(&format!("/instances/{id}/preview"));
        assert_eq!(&png[1..4], b"PNG", "Orthanc renders the Secondary Capture");
    }
    sc_sources.sort();
    let mut want: Vec<String> = flagged
        .iter()
        .map(|r| r["sop_instance_uid"].clone())
        .collect();
    want.sort();
    assert_eq!(sc_sources, want);
    let sc_file = out1.join(files["sc"][0].as_str().unwrap());
    dciodvfy_clean(&dciodvfy, &sc_file);

    // the same run again: the same UIDs, so the PACS still holds one SR
    ok(&args1);
    let again = pacs.series_of(&study0);
    assert_eq!(again.len(), 3);
    for s in &again {
        if s["MainDicomTags"]["Modality"] == "SR" {
            assert_eq!(s["Instances"].as_array().unwrap().len(), 1);
        }
    }

    // 2. STOW-RS: scan 1 from its local files, credentials from the environment
    let scan1 = raw.join("scan-0001");
    let out2 = t.join("out2");
    let o = Command::new(env!("CARGO_BIN_EXE_ich"))
        .args([
            "-q",
            "predict",
            "--model",
            s(&bundle),
            s(&scan1),
            "--out",
            s(&out2),
            "--send",
        ])
        .arg(pacs.url("/dicom-web"))
        .env("ICH_DICOMWEB_USER", USER)
        .env("ICH_DICOMWEB_PASSWORD", PASSWORD)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let series1 = pacs.series_of(&study_uid_of(&scan1));
    assert!(
        series1
            .iter()
            .any(|s| s["MainDicomTags"]["Modality"] == "SR"),
        "{series1:#?}"
    );
    let sr1_id = series1
        .iter()
        .find(|s| s["MainDicomTags"]["Modality"] == "SR")
        .unwrap()["Instances"][0]
        .as_str()
        .unwrap()
        .to_string();
    check_sr_against_csv(&pacs.bytes(&format!("/instances/{sr1_id}/file")), &out2);

    // 3. a PACS that is down: bounded retries, a clear error, the files kept; `ich send` later
    let scan2 = raw.join("scan-0002");
    let out3 = t.join("out3");
    let down = format!("ORTHANC@127.0.0.1:{}", free_port());
    let o = ich(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&scan2),
        "--out",
        s(&out3),
        "--send",
        &down,
        "--send-retries",
        "1",
        "--send-timeout",
        "5",
    ]);
    let err = text(&o);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(&down) && err.contains("2 attempt(s)") && err.contains("kept"),
        "{err}"
    );
    assert!(out3.join("slices.csv").is_file());
    let kept = out3.join("dicom");
    assert!(std::fs::read_dir(&kept).unwrap().count() == 1);
    // a broken file among files of no output folder is named and the others are delivered
    let loose = t.join("loose");
    std::fs::create_dir_all(&loose).unwrap();
    for f in walkdir::WalkDir::new(&kept).into_iter().flatten() {
        if f.file_type().is_file() {
            std::fs::copy(f.path(), loose.join(f.file_name())).unwrap();
        }
    }
    let broken = loose.join("broken.dcm");
    std::fs::write(&broken, b"DICM? no").unwrap();
    let o = ich(&[
        "-q",
        "send",
        s(&loose),
        "--to",
        &store,
        "--send-retries",
        "0",
    ]);
    let sent = text(&o);
    assert!(!o.status.success(), "{sent}");
    assert!(
        sent.contains("1 of ") && sent.contains("broken.dcm"),
        "{sent}"
    );
    assert!(sent.contains("not readable as DICOM"), "{sent}");
    // in predict's output folder, a file its last run did not write (an earlier run's result)
    // is not sent, and is named: only what run.json lists goes
    let stale = kept.join("stale.dcm");
    std::fs::copy(
        walkdir::WalkDir::new(&kept)
            .into_iter()
            .flatten()
            .find(|f| f.file_name().to_string_lossy().starts_with("sc-"))
            .unwrap()
            .path(),
        &stale,
    )
    .unwrap();
    let o = ich(&["-q", "send", s(&kept), "--to", &store]);
    let sent = text(&o);
    assert!(o.status.success(), "{sent}");
    assert!(
        sent.contains("not written by the folder's last run") && sent.contains("stale.dcm"),
        "{sent}"
    );
    std::fs::remove_file(&stale).unwrap();
    let sent = ok(&["-q", "send", s(&kept), "--to", &store]);
    assert!(sent.contains("sent"), "{sent}");
    let series2 = pacs.series_of(&study_uid_of(&scan2));
    assert!(
        series2
            .iter()
            .any(|s| s["MainDicomTags"]["Modality"] == "SR"),
        "{series2:#?}"
    );
}
