//! No panic on any argument or file: each input that once panicked (or was silently wrong) is now
//! a clear error — exit code 1 or 2, never 101 (a panic) — naming the file or flag, with nothing
//! half-written.

mod common;

use std::path::{Path, PathBuf};

use common::{ich, s, text};

/// Exit status of a refused command: an error (1) or a usage error (2), never a panic (101).
fn refused(args: &[&str], words: &[&str]) -> String {
    let o = ich(args);
    let t = text(&o);
    assert!(
        matches!(o.status.code(), Some(1) | Some(2)),
        "ich {args:?}: exit {:?}\n{t}",
        o.status.code()
    );
    assert!(!t.contains("panicked"), "ich {args:?} panicked:\n{t}");
    for w in words {
        assert!(t.contains(w), "ich {args:?}: no '{w}' in\n{t}");
    }
    t
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn put_json(p: &Path, v: &serde_json::Value) {
    std::fs::write(p, serde_json::to_vec_pretty(v).unwrap()).unwrap();
}

/// A labelled dataset of 8 scans × 3 slices at 32².
fn dataset(dir: &Path) -> PathBuf {
    let (raw, ds) = (dir.join("raw"), dir.join("ds"));
    common::synth(&raw, "8", "3", "48", "4");
    common::preprocess(&raw, &ds, "32", &[]);
    ds
}

/// A bundle with a CNN (1 epoch) and a GP head, and its features file.
fn bundle(dir: &Path, ds: &Path) -> (PathBuf, PathBuf) {
    let (model, feats) = (dir.join("model"), dir.join("features.csv"));
    common::small_cnn(ds, &model);
    common::gp_head(
        &model,
        ds,
        &feats,
        &["--inducing", "6", "--max-epochs", "5"],
    );
    (model, feats)
}

#[test]
fn out_of_range_numbers_are_refused_before_anything_is_written() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("model");
    let ds = t.path().join("no-dataset");
    for (flag, v, range) in [
        ("--conv-dropout", "1.5", "[0, 1)"),
        ("--head-dropout", "0.999999999999999999", "[0, 1)"),
        ("--valid-fraction", "1.5", "[0, 1)"),
        ("--dim", "16", "8, 32 or 128"),
        ("--epochs", "0", "1..="),
        ("--lr", "0", "> 0"),
        ("--batch", "0", "1..="),
    ] {
        refused(
            &["train-cnn", "--dataset", s(&ds), "--out", s(&out), flag, v],
            &[flag, range],
        );
        assert!(!out.exists(), "{flag} {v}: the bundle folder was created");
    }
    let f = t.path().join("f.csv");
    for (flag, v) in [
        ("--holdout", "1.5"),
        ("--holdout", "0"),
        ("--valid-fraction", "1.5"),
        ("--splits", "0"),
        ("--H", "1"),
        ("--inducing", "0"),
        ("--alpha", "-1"),
    ] {
        let arg = format!("{flag}={v}");
        refused(&["eval-gp", "--features", s(&f), &arg], &[flag]);
    }
    for (flag, v) in [
        ("--valid-fraction", "1"),
        ("--samples", "0"),
        ("--chains", "0"),
    ] {
        refused(
            &["fit-gp", "--features", s(&f), "--out", "m.json", flag, v],
            &[flag],
        );
    }
    for (flag, v) in [
        ("--positive-threshold", "2"),
        ("--uncertain-sd", "-1"),
        ("--samples", "0"),
    ] {
        let arg = format!("{flag}={v}");
        refused(
            &["predict", "--model", "m", "x", "--out", "o", &arg],
            &[flag],
        );
    }
    // a slice size that would wrap DICOM's 16-bit Rows and Columns
    refused(
        &[
            "synth",
            "--out",
            s(&t.path().join("raw")),
            "--size",
            "70000",
        ],
        &["--size", "16..=4096"],
    );
    assert!(!t.path().join("raw").exists());
    refused(
        &["preprocess", "x", "--out", "y", "--size", "8"],
        &["--size"],
    );
}

#[test]
fn broken_datasets_and_bundles_are_named_errors() {
    let t = tempfile::tempdir().unwrap();
    let ds = dataset(t.path());
    let (model, feats8) = bundle(t.path(), &ds);

    // a checksum with non-ASCII characters in the manifest (byte slicing used to panic)
    let mp = model.join("manifest.json");
    let original = std::fs::read(&mp).unwrap();

    // recalibrating on 8 scans (4 of each label): too few to fit a map and check it; the file is
    // named and the bundle left as it was; a single fold is refused as a flag
    refused(
        &[
            "-q",
            "recalibrate",
            "--bundle",
            s(&model),
            "--features",
            s(&feats8),
        ],
        &["features.csv", "at least 10 of each"],
    );
    assert_eq!(std::fs::read(&mp).unwrap(), original);
    refused(
        &[
            "recalibrate",
            "--bundle",
            s(&model),
            "--features",
            s(&feats8),
            "--folds",
            "1",
        ],
        &["--folds", "2..="],
    );
    // features of another CNN (3 per slice): refused naming the file and what to run
    let other = t.path().join("other-cnn.csv");
    let mut rows = String::from("feature_0,feature_1,feature_2,bag_name,bag_label\n");
    for b in 0..40 {
        rows.push_str(&format!("0.1,0.2,0.3,scan{b},{}\n", b % 2));
    }
    std::fs::write(&other, rows).unwrap();
    refused(
        &[
            "-q",
            "recalibrate",
            "--bundle",
            s(&model),
            "--features",
            s(&other),
        ],
        &[
            "other-cnn.csv",
            "3 features per slice",
            "ich extract --model",
        ],
    );
    assert_eq!(std::fs::read(&mp).unwrap(), original);
    // 40 scans (20 of each label) of the CNN's 8 features: accepted; the manifest records the
    // recalibration, and predict's report says it
    let mut site = String::from("feature_0,feature_1,feature_2,feature_3,feature_4,feature_5,feature_6,feature_7,instance_name,bag_name,bag_label\n");
    for b in 0..40 {
        for i in 0..3 {
            let x: Vec<String> = (0..8)
                .map(|k| format!("{}", ((b * 7 + i * 5 + k * 3) % 11) as f64 / 5.0 - 1.0))
                .collect();
            site.push_str(&format!("{},s{b}_{i},scan{b},{}\n", x.join(","), b % 2));
        }
    }
    let site_file = t.path().join("site.csv");
    std::fs::write(&site_file, site).unwrap();
    let gp_before = std::fs::read(model.join("gp.json")).unwrap();
    // --dry-run: the figures, nothing written
    let o = ich(&[
        "-q",
        "recalibrate",
        "--bundle",
        s(&model),
        "--features",
        s(&site_file),
        "--dry-run",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("not written (--dry-run)"), "{}", text(&o));
    assert_eq!(std::fs::read(&mp).unwrap(), original);
    let o = ich(&[
        "-q",
        "recalibrate",
        "--bundle",
        s(&model),
        "--features",
        s(&site_file),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("5-fold cross-fitted"), "{}", text(&o));
    let m = json(&mp);
    assert_eq!(m["gp"]["site_calibration"]["scans"], 40);
    assert_eq!(m["gp"]["site_calibration"]["positive"], 20);
    let out = t.path().join("pred-site");
    let o = ich(&[
        "-q",
        "predict",
        "--model",
        s(&model),
        s(&ds),
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let said = json(&out.join("report.json"))["model"]["site_calibration"].clone();
    assert!(
        said.as_str()
            .unwrap()
            .starts_with("recalibrated on 40 labelled scans (20 positive)"),
        "{said}"
    );
    // the bundle as it was, for what follows
    std::fs::write(&mp, &original).unwrap();
    std::fs::write(model.join("gp.json"), &gp_before).unwrap();
    let mut m = json(&mp);
    m["files"]["model.bpk"] = "éééééééééééééééééé".into();
    put_json(&mp, &m);
    let out = t.path().join("pred");
    refused(
        &[
            "-q",
            "predict",
            "--model",
            s(&model),
            s(&ds),
            "--out",
            s(&out),
        ],
        &["model.bpk", "checksum mismatch"],
    );
    assert!(!out.exists());
    std::fs::write(&mp, &original).unwrap();

    // a GP head whose feature standardisation does not have D entries (resealed so that only
    // the sizes are wrong)
    let gp = model.join("gp.json");
    let gp_original = std::fs::read(&gp).unwrap();
    let mut g = json(&gp);
    g["standardizer"]["mean"] = serde_json::json!([0.0, 0.0, 0.0]);
    put_json(&gp, &g);
    let mut m = json(&mp);
    m["files"]["gp.json"] = sha256(&gp).into();
    put_json(&mp, &m);
    refused(
        &[
            "-q",
            "predict",
            "--model",
            s(&model),
            s(&ds),
            "--out",
            s(&out),
        ],
        &["gp.json", "standardisation"],
    );
    std::fs::write(&gp, &gp_original).unwrap();
    std::fs::write(&mp, &original).unwrap();

    // a scan JSON with one slice record more, then one fewer, than its pixel file
    let manifest = json(&ds.join("dataset.json"));
    let meta_path = ds.join(manifest["scans"][0]["meta"].as_str().unwrap());
    let meta_original = std::fs::read(&meta_path).unwrap();
    let feats = t.path().join("f2.csv");
    for change in [1i64, -1] {
        let mut meta: serde_json::Value = serde_json::from_slice(&meta_original).unwrap();
        let slices = meta["slices"].as_array_mut().unwrap();
        if change > 0 {
            let extra = slices[0].clone();
            slices.push(extra);
        } else {
            slices.pop();
        }
        put_json(&meta_path, &meta);
        let id = manifest["scans"][0]["id"].as_str().unwrap();
        refused(
            &[
                "-q",
                "extract",
                "--model",
                s(&model),
                "--dataset",
                s(&ds),
                "--out",
                s(&feats),
            ],
            &[id, "slices"],
        );
        assert!(!feats.exists(), "a half-written features file");
        let leftovers: Vec<_> = std::fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.contains("f2.csv"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
    std::fs::write(&meta_path, &meta_original).unwrap();

    // a label other than 0/1, then a scan without slices, in the dataset's manifest
    let dsj = ds.join("dataset.json");
    let ds_original = std::fs::read(&dsj).unwrap();
    let mut d = json(&dsj);
    d["scans"][0]["label"] = 2.into();
    put_json(&dsj, &d);
    let out_model = t.path().join("model2");
    refused(
        &[
            "-q",
            "train-cnn",
            "--dataset",
            s(&ds),
            "--out",
            s(&out_model),
            "--epochs",
            "1",
        ],
        &["label", "0 or 1"],
    );
    let mut d: serde_json::Value = serde_json::from_slice(&ds_original).unwrap();
    d["scans"][1]["n_slices"] = 0.into();
    put_json(&dsj, &d);
    let id = d["scans"][1]["id"].as_str().unwrap().to_string();
    refused(
        &[
            "-q",
            "train-cnn",
            "--dataset",
            s(&ds),
            "--out",
            s(&out_model),
            "--epochs",
            "1",
        ],
        &[&id, "no slices"],
    );
    assert!(!out_model.exists());
    std::fs::write(&dsj, &ds_original).unwrap();
}

fn sha256(p: &Path) -> String {
    detect::bundle::sha256_file(p).unwrap()
}

#[test]
fn predict_exits_1_when_a_scan_fails_and_paths_cannot_leave_the_dataset() {
    let t = tempfile::tempdir().unwrap();
    let ds = dataset(t.path());
    let (model, _) = bundle(t.path(), &ds);
    let dsj = ds.join("dataset.json");
    let ds_original = std::fs::read(&dsj).unwrap();
    let manifest = json(&dsj);
    let n = manifest["scans"].as_array().unwrap().len();
    let predict = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "predict",
            "--model",
            s(&model),
            s(&ds),
            "--out",
            s(out),
            "--no-html",
        ];
        args.extend_from_slice(extra);
        ich(&args)
    };

    // one scan's pixels broken: the others are reported, the exit code says one failed
    let npz = ds.join(manifest["scans"][2]["pixels"].as_str().unwrap());
    let npz_original = std::fs::read(&npz).unwrap();
    std::fs::write(&npz, b"not a zip").unwrap();
    let out = t.path().join("pred");
    let o = predict(&out, &[]);
    let txt = text(&o);
    assert_eq!(o.status.code(), Some(1), "{txt}");
    assert!(txt.contains(&format!("1 of {n} scans failed")), "{txt}");
    assert!(txt.contains("--keep-going"), "{txt}");
    // logs written to a pipe carry no terminal colour codes
    assert!(!txt.contains('\u{1b}'), "colour codes in\n{txt}");
    let rows = std::fs::read_to_string(out.join("scans.csv")).unwrap();
    assert_eq!(rows.lines().count(), n, "header + {} scans", n - 1);
    let o = predict(&t.path().join("pred2"), &["--keep-going"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    std::fs::write(&npz, &npz_original).unwrap();

    // a manifest path that leaves the dataset folder is refused before anything is read
    let mut d = json(&dsj);
    d["scans"][0]["meta"] = "../../../etc/passwd".into();
    put_json(&dsj, &d);
    refused(
        &[
            "-q",
            "predict",
            "--model",
            s(&model),
            s(&ds),
            "--out",
            s(&t.path().join("pred3")),
        ],
        &["dataset.json", "outside the dataset folder"],
    );
    std::fs::write(&dsj, &ds_original).unwrap();
}

#[test]
fn checkpoint_lists_and_verifies_or_names_the_broken_file() {
    let Some(dir) = testkit::shared_data_or_skip("pretrained/sa-dmil") else {
        return;
    };
    let prefix = dir.join("baseline.ckpt");
    let o = ich(&["checkpoint", s(&prefix)]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("layer_with_weights-12/v/.ATTRIBUTES/VARIABLE_VALUE\tFloat32\t[1152, 64]"));
    assert!(t.contains("109 variables (43 shown"), "{t}");
    // a checkpoint whose data was truncated: named, exit 1
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(dir.join("baseline.ckpt.index"), tmp.path().join("b.index")).unwrap();
    let data = std::fs::read(dir.join("baseline.ckpt.data-00000-of-00001")).unwrap();
    std::fs::write(
        tmp.path().join("b.data-00000-of-00001"),
        &data[..data.len() / 2],
    )
    .unwrap();
    refused(
        &["checkpoint", s(&tmp.path().join("b"))],
        &["b.index", "outside the data file"],
    );
}

#[test]
fn preprocess_exits_1_when_a_scan_fails_unless_told_to_keep_going() {
    let t = tempfile::tempdir().unwrap();
    let raw = t.path().join("raw");
    common::synth(&raw, "3", "3", "32", "4");
    // a file taking the first slice's SOPInstanceUID with other pixels: its scan fails
    let first = walkdir_first_dcm(&raw);
    let mut obj = dicom_object::open_file(&first).unwrap();
    let px = obj
        .element(dicom_dictionary_std::tags::PIXEL_DATA)
        .unwrap()
        .to_bytes()
        .unwrap()
        .to_vec();
    let flipped: Vec<u8> = px.iter().map(|b| b ^ 0x5a).collect();
    obj.put(dicom_core::DataElement::new(
        dicom_dictionary_std::tags::PIXEL_DATA,
        dicom_core::VR::OW,
        dicom_core::PrimitiveValue::from(flipped),
    ));
    let fake = first.with_file_name("0-fake.dcm");
    obj.write_to_file(&fake).unwrap();
    let out = t.path().join("ds");
    let txt = refused(
        &[
            "-q",
            "preprocess",
            s(&raw),
            "--out",
            s(&out),
            "--size",
            "16",
        ],
        &["0-fake.dcm", "different pixel data", "1 of 3 scans failed"],
    );
    assert!(txt.contains("2 scan(s) written"), "{txt}");
    // the dataset holds the two others; with --keep-going the same run exits 0
    assert_eq!(
        json(&out.join("dataset.json"))["scans"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let o = ich(&[
        "-q",
        "preprocess",
        s(&raw),
        "--out",
        s(&t.path().join("ds2")),
        "--size",
        "16",
        "--keep-going",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// The first `.dcm` file under `dir`, by path.
fn walkdir_first_dcm(dir: &Path) -> PathBuf {
    let mut v: Vec<PathBuf> = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dcm") {
                v.push(p);
            }
        }
    }
    v.sort();
    v.remove(0)
}

/// A DICOMweb server that answers `--study` with a redirect to `file:///etc/passwd` (a panic
/// inside the HTTP library once) or trickles a byte every 200 ms (held the run past
/// `--send-timeout` once): the study is refused with its reason, the scans beside it are
/// predicted, the exit code says something failed, nothing is written outside `--out`, and no
/// `ich` process grew past 1 GB.
#[test]
fn a_hostile_dicomweb_server_costs_its_study_not_the_run() {
    use std::io::{BufRead, Write};
    let t = tempfile::tempdir().unwrap();
    let ds = dataset(t.path());
    let (model, _) = bundle(t.path(), &ds);
    let n = json(&ds.join("dataset.json"))["scans"]
        .as_array()
        .unwrap()
        .len();
    for (name, reason) in [
        ("redirect", "only http:// on the same host"),
        ("trickle", "slower than 64 KiB/s"),
    ] {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let Some(Ok(mut s)) = l.incoming().next() else {
                return;
            };
            let mut r = std::io::BufReader::new(s.try_clone().unwrap());
            let mut line = String::new();
            while r.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                line.clear();
            }
            if name == "redirect" {
                let _ = s.write_all(
                    b"HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n",
                );
            } else {
                let _ = s.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: multipart/related; boundary=b\r\n\r\n",
                );
                for _ in 0..200 {
                    if s.write_all(b"x").is_err() {
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
            }
        });
        let out = t.path().join(format!("pred-{name}"));
        let url = format!("http://127.0.0.1:{port}/dicom-web");
        let started = std::time::Instant::now();
        let o = ich(&[
            "predict",
            "--model",
            s(&model),
            s(&ds),
            "--out",
            s(&out),
            "--no-html",
            "--study",
            "1.2.3.4",
            "--dicomweb",
            &url,
            "--send-timeout",
            "1",
        ]);
        let txt = text(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {txt}");
        assert!(
            txt.contains("study 1.2.3.4: not retrieved") && txt.contains(reason),
            "{name}: {txt}"
        );
        assert!(!txt.contains("panicked"), "{name}: {txt}");
        assert!(
            started.elapsed().as_secs() < 60,
            "{name}: {:?}",
            started.elapsed()
        );
        // the dataset's scans are all predicted
        let rows = std::fs::read_to_string(out.join("scans.csv")).unwrap();
        assert_eq!(rows.lines().count(), n + 1, "{name}: {rows}");
        // nothing retrieved is left behind: no half study, no /etc/passwd
        for e in walk(&out) {
            assert!(
                !e.to_string_lossy().contains("pulled") || e.is_dir(),
                "{name}: {}",
                e.display()
            );
        }
    }
    // SAFETY: getrusage fills the struct it is given
    let peak_kb = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u.ru_maxrss
    };
    assert!(peak_kb < 1 << 20, "an ich process peaked at {peak_kb} KB");
}

/// Every path under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}
