//! What a new user trips on in the first hour: a folder of pictures is refused in plain words
//! with what to do, and the JPEG 2000 decoder's chatter stays out of the log.

mod common;

use common::{ich, s, text};

#[test]
fn a_folder_of_jpegs_is_refused_in_plain_words_with_what_to_do() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("jpegs");
    std::fs::create_dir_all(&dir).unwrap();
    for k in 0..3 {
        // a JPEG's start-of-image and JFIF marker, then nothing a DICOM reader wants
        std::fs::write(
            dir.join(format!("{k}.jpg")),
            b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9",
        )
        .unwrap();
    }
    let bundle = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/sa-dmil");
    let o = ich(&[
        "predict",
        "--model",
        s(&bundle),
        s(&dir),
        "--out",
        s(&t.path().join("r")),
    ]);
    let msg = text(&o);
    assert_eq!(o.status.code(), Some(1), "{msg}");
    assert!(msg.contains("3 file(s) not DICOM"), "{msg}");
    assert!(
        msg.contains("export the series from the PACS or the scanner as DICOM"),
        "{msg}"
    );
    assert!(!msg.contains("{\""), "no JSON-like text: {msg}");
}

#[test]
fn the_jpeg2000_decoder_does_not_chatter_in_the_log() {
    let Some(d) = testkit::shared_data_or_skip("dicom") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    // the default log level (info), as a user runs it: not the tests' RUST_LOG=warn
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ich"))
        .env_remove("RUST_LOG")
        .args([
            "preprocess",
            s(&d.join("693_J2KI.dcm")),
            "--out",
            s(&t.path().join("ds")),
            "--size",
            "64",
        ])
        .output()
        .unwrap();
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    assert!(
        t.path().join("ds/dataset.json").is_file(),
        "the JPEG 2000 slice was decoded"
    );
    assert!(
        !log.contains("Main header has been correctly decoded"),
        "{log}"
    );
}

/// `predict IN --out IN` (or an --out that holds the input) is refused before anything is
/// written, and the input folder is left exactly as it was (a file named like a temporary too).
#[test]
fn an_output_folder_that_is_or_holds_an_input_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("scans");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join(".report.json.ich-tmp-keep"), b"the user's").unwrap();
    std::fs::write(input.join("notes.txt"), b"mine").unwrap();
    let listing = |d: &std::path::Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    };
    let before = listing(&input);
    let bundle = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/sa-dmil");
    for out in [input.clone(), t.path().to_path_buf()] {
        let o = ich(&[
            "predict",
            "--model",
            s(&bundle),
            s(&input),
            "--out",
            s(&out),
        ]);
        let msg = text(&o);
        assert_eq!(o.status.code(), Some(1), "{msg}");
        assert!(
            msg.contains("write the report to a folder of its own"),
            "{msg}"
        );
        assert_eq!(listing(&input), before);
    }
    assert_eq!(
        std::fs::read(input.join(".report.json.ich-tmp-keep")).unwrap(),
        b"the user's"
    );
}

/// Right after `cargo install`, from an empty folder of one's own: `ich predict DICOM -o report`
/// with no `--model` uses the SA-DMIL network built into the binary (written once into the
/// user's cache), and `ich models` lists it; a model name that is neither a folder nor built in
/// is refused naming what exists.
#[test]
fn the_shipped_model_is_found_from_anywhere() {
    let Some(src) = testkit::shared_data_or_skip("ct-ich") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (home, work) = (t.path().join("home"), t.path().join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    common::ct_ich_dicom(&src, &work.join("dicom"), &[53], 256);
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_ich"))
            .current_dir(&work)
            .env("HOME", &home)
            .env_remove("XDG_CACHE_HOME")
            .env("RUST_LOG", "warn")
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&["predict", "dicom", "-o", "report", "--no-dicom"]);
    assert!(o.status.success(), "{}", text(&o));
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(work.join("report/report.json")).unwrap()).unwrap();
    assert_eq!(r["scans"].as_array().unwrap().len(), 1);
    assert!(r["model"]["imported"].as_str().unwrap().contains("SA-DMIL"));
    // the research notice and the weights' terms, in report.json and on every page
    assert!(r["model"]["notice"]
        .as_str()
        .unwrap()
        .contains("not for diagnostic use"));
    let terms = r["model"]["terms"].as_str().unwrap();
    assert!(terms.contains("non-commercial research"), "{terms}");
    let report = work.join("report");
    for p in [
        report.join("index.html"),
        report.join(r["scans"][0]["page"].as_str().unwrap()),
    ] {
        let html = std::fs::read_to_string(&p).unwrap();
        assert!(
            html.contains("not for diagnostic use") && html.contains("non-commercial research"),
            "{}",
            p.display()
        );
    }
    let cached = std::fs::read_dir(home.join(".cache/ich/models"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect::<Vec<_>>();
    assert!(
        cached.len() == 1 && cached[0].starts_with("sa-dmil-"),
        "{cached:?}"
    );
    let o = run(&["models"]);
    let listed = text(&o);
    assert!(
        o.status.success() && listed.contains("sa-dmil (default)"),
        "{listed}"
    );
    let o = run(&["predict", "--model", "sa-dmi", "dicom", "-o", "other"]);
    let msg = text(&o);
    assert_eq!(o.status.code(), Some(1), "{msg}");
    assert!(
        msg.contains("sa-dmi") && msg.contains("Built into ich: sa-dmil"),
        "{msg}"
    );
    assert!(
        !work.join("other").exists(),
        "a refused model leaves no output folder"
    );
}

/// A run killed while writing a capture leaves its temporary in `OUT/dicom/<scan>/`: the rerun
/// into the same folder sweeps it (a temporary of a process that is gone), and keeps nothing of
/// the earlier run there that it did not write.
#[test]
fn a_rerun_sweeps_a_killed_captures_temporary_from_the_scans_dicom_folder() {
    let t = tempfile::tempdir().unwrap();
    let (raw, bundle) = common::cohort_and_bundle(t.path(), "4", "7");
    let out = t.path().join("out");
    let predict = || {
        common::ok(&[
            "-q",
            "predict",
            "--model",
            s(&bundle),
            s(&raw),
            "--out",
            s(&out),
            "--no-html",
        ])
    };
    predict();
    let scan_dir = std::fs::read_dir(out.join("dicom"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    // the name milbase's writer gives a temporary, of PID 1's (long gone from this folder)
    let stale = scan_dir.join(".sc-0001.dcm.tmp1-0123456789abcdef");
    std::fs::write(&stale, vec![0u8; 4096]).unwrap();
    predict();
    assert!(
        !stale.exists(),
        "the killed capture's temporary stayed after the rerun"
    );
    assert!(scan_dir.join("sr.dcm").is_file());
}

/// Runs that fail or rerun leave nothing misleading: a run that fails on its input (a path that
/// is not there, an empty folder) leaves no folder behind; a user's own `scans.csv` in `--out`
/// is refused by name, not overwritten, unless `--force`; a rerun on fewer scans removes the pages of the scans it
/// no longer predicts, so that the folder holds what its index lists.
#[test]
fn failed_runs_and_reruns_leave_nothing_misleading() {
    let t = tempfile::tempdir().unwrap();
    let (raw, bundle) = common::cohort_and_bundle(t.path(), "4", "11");
    let predict_with = |input: &std::path::Path, out: &std::path::Path, more: &[&str]| {
        let mut args = vec![
            "-q",
            "predict",
            "--model",
            s(&bundle),
            s(input),
            "--out",
            s(out),
            "--no-dicom",
        ];
        args.extend_from_slice(more);
        ich(&args)
    };
    let predict = |input: &std::path::Path, out: &std::path::Path| predict_with(input, out, &[]);
    // 1. failures on the input leave no output folder
    let empty = t.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    for input in [t.path().join("no-such-folder"), empty.clone()] {
        let out = t.path().join(format!(
            "out-{}",
            input.file_name().unwrap().to_string_lossy()
        ));
        let o = predict(&input, &out);
        assert!(!o.status.success(), "{}", text(&o));
        assert!(!out.exists(), "a failed run left {}", out.display());
    }
    // 2. a user's own scans.csv is refused by name and kept
    let mine = t.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("scans.csv"), b"my own table\n").unwrap();
    let o = predict(&raw, &mine);
    let msg = text(&o);
    assert!(!o.status.success(), "{msg}");
    assert!(
        msg.contains("scans.csv") && msg.contains("not written by ich"),
        "{msg}"
    );
    assert_eq!(
        std::fs::read(mine.join("scans.csv")).unwrap(),
        b"my own table\n"
    );
    assert!(msg.contains("--force"), "{msg}");
    // with --force it is written over
    let o = predict_with(&raw, &mine, &["--force"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(std::fs::read_to_string(mine.join("scans.csv"))
        .unwrap()
        .starts_with("scan_id,"));
    // 3. a rerun on one scan of four removes the other three pages
    let out = t.path().join("out");
    assert!(predict(&raw, &out).status.success());
    let pages = |d: &std::path::Path| std::fs::read_dir(d.join("scans")).unwrap().count();
    assert_eq!(pages(&out), 4);
    let one = std::fs::read_dir(&raw)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    let o = predict(&one, &out);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(pages(&out), 1, "pages of the earlier run stayed");
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["state"], "complete");
}
