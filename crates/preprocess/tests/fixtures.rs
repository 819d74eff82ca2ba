//! Preprocessing of DICOM fixtures built in memory: ordering, HU conversion, windows, bad input,
//! resume and privacy.

use std::fs;
use std::path::{Path, PathBuf};

use dicom_dictionary_std::uids;
use preprocess::ctwriter::CtSlice;
use preprocess::dataset::{Dataset, ScanMeta};
use preprocess::{preprocess, PreprocessConfig, PreprocessOptions, Quiet};

const N: usize = 16;

/// A 16×16 slice whose HU are given by `f(row, col)`, stored with slope 1, intercept −1024.
fn slice(sop: &str, pos: [f64; 3], orient: [f64; 6], f: impl Fn(usize, usize) -> i32) -> CtSlice {
    CtSlice {
        sop_uid: sop.into(),
        position: Some(pos),
        orientation: Some(orient),
        rows: N as u16,
        cols: N as u16,
        stored: (0..N * N).map(|i| f(i / N, i % N) + 1024).collect(),
        ..CtSlice::default()
    }
}

fn write(dir: &Path, name: &str, s: &CtSlice) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    fs::write(&p, s.to_bytes().unwrap()).unwrap();
    p
}

fn opts(size: usize) -> PreprocessOptions {
    PreprocessOptions {
        config: PreprocessConfig {
            size,
            ..PreprocessConfig::default()
        },
        ..PreprocessOptions::default()
    }
}

fn only_scan(ds: &Dataset) -> (ScanMeta, Vec<u8>) {
    assert_eq!(ds.manifest.scans.len(), 1, "{:?}", ds.manifest.scans);
    let e = &ds.manifest.scans[0];
    (ds.scan_meta(e).unwrap(), ds.scan_pixels(e).unwrap().data)
}

#[test]
fn tilted_scan_with_shuffled_names_is_ordered_along_the_normal() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in/deep/er");
    // 15° gantry tilt; slice k is 5 mm along the normal, value 10·k HU so the order is visible.
    let t = 15f64.to_radians();
    let o = [1.0, 0.0, 0.0, 0.0, t.cos(), -t.sin()];
    let n = [0.0, t.sin(), t.cos()];
    let names = ["zz.dcm", "a", "m.DCM", "b.img", "000"];
    for (k, name) in [3usize, 0, 4, 1, 2].iter().zip(names) {
        let kf = *k as f64;
        // shift in-plane along −column direction: raises patient z while the normal position rises
        let s = -25.0 * kf;
        let pos = [0.0, 5.0 * kf * n[1] + s * o[4], 5.0 * kf * n[2] + s * o[5]];
        write(
            &input,
            name,
            &slice(&format!("1.2.9.{k}"), pos, o, |_, _| 10 * *k as i32),
        );
    }
    let out = tmp.path().join("ds");
    let s = preprocess(&[tmp.path().join("in")], &out, &opts(N), &Quiet).unwrap();
    assert_eq!(s.scans_written, 1);
    let ds = Dataset::open(&out).unwrap();
    let (meta, px) = only_scan(&ds);
    let sops: Vec<&str> = meta
        .slices
        .iter()
        .map(|s| s.sop_instance_uid.as_str())
        .collect();
    assert_eq!(
        sops,
        ["1.2.9.0", "1.2.9.1", "1.2.9.2", "1.2.9.3", "1.2.9.4"]
    );
    for (k, sl) in meta.slices.iter().enumerate() {
        // DS values carry ~6 decimals
        assert!((sl.z.unwrap() - 5.0 * k as f64).abs() < 1e-4);
        // brain channel of slice k: 10k HU in [0, 80] → round(255·10k/80)
        let want = ((10 * k) as f32 / 80.0 * 255.0 + 0.5) as u8;
        assert_eq!(px[k * 3 * N * N], want, "slice {k}");
    }
    assert!(meta.warnings.is_empty(), "{:?}", meta.warnings);
}

#[test]
fn windows_and_hu_end_to_end_by_hand() {
    let tmp = tempfile::tempdir().unwrap();
    // left half 40 HU, right half 1000 HU; a second slice at −1000 HU (air)
    let o = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    write(
        tmp.path(),
        "1",
        &slice(
            "1.1",
            [0.0, 0.0, 0.0],
            o,
            |_, c| if c < N / 2 { 40 } else { 1000 },
        ),
    );
    write(
        tmp.path(),
        "2",
        &slice("1.2", [0.0, 0.0, 5.0], o, |_, _| -1000),
    );
    let out = tmp.path().join("ds");
    preprocess(&[tmp.path().to_path_buf()], &out, &opts(N), &Quiet).unwrap();
    let (_, px) = only_scan(&Dataset::open(&out).unwrap());
    let at = |slice: usize, ch: usize, r: usize, c: usize| px[((slice * 3 + ch) * N + r) * N + c];
    // 40 HU: brain (40/80) 0.5 → 128; blood (80/200) 60/200 → 76.5 → 77; soft (40/380) 0.5 → 128
    assert_eq!(
        (at(0, 0, 3, 2), at(0, 1, 3, 2), at(0, 2, 3, 2)),
        (128, 77, 128)
    );
    // 1000 HU saturates every window
    assert_eq!(
        (at(0, 0, 3, 12), at(0, 1, 3, 12), at(0, 2, 3, 12)),
        (255, 255, 255)
    );
    // air is 0 everywhere
    assert!(px[3 * N * N..].iter().all(|&v| v == 0));
}

#[test]
fn encodings_signed_padding_monochrome1_and_rsna_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let o = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let base = slice("2.1", [0.0, 0.0, 0.0], o, |r, c| (r * 16 + c) as i32 - 100);
    let want: Vec<f32> = (0..N * N).map(|i| i as f32 - 100.0).collect();
    for ts in [
        uids::EXPLICIT_VR_LITTLE_ENDIAN,
        uids::IMPLICIT_VR_LITTLE_ENDIAN,
        "1.2.840.10008.1.2.2", // explicit VR big endian (retired, still found in archives)
    ] {
        let s = CtSlice {
            transfer_syntax: ts.into(),
            ..base.clone()
        };
        let p = write(tmp.path(), &format!("ts-{ts}"), &s);
        assert_eq!(
            preprocess::read::read_hu(&p, true).unwrap().1.hu,
            want,
            "{ts}"
        );
    }
    // signed storage with intercept 0 and a padding value → air
    let signed = CtSlice {
        signed: true,
        intercept: 0.0,
        padding: Some(-2000),
        stored: (0..N * N)
            .map(|i| if i == 0 { -2000 } else { i as i32 - 100 })
            .collect(),
        ..base.clone()
    };
    let p = write(tmp.path(), "signed", &signed);
    let hu = preprocess::read::read_hu(&p, true).unwrap().1.hu;
    assert_eq!(hu[0], -1000.0);
    assert_eq!(&hu[1..], &want[1..]);
    // MONOCHROME1 with a rescale: the modality LUT gives HU; display inversion does not apply
    let m1 = CtSlice {
        photometric: "MONOCHROME1".into(),
        ..base.clone()
    };
    let p = write(tmp.path(), "m1", &m1);
    assert_eq!(preprocess::read::read_hu(&p, true).unwrap().1.hu, want);
    // RSNA wrap-around: 12 bits, unsigned, intercept 0. True HU h was stored as (h + 1000) mod 4096
    // − 1000 … i.e. stored = h + 3096 for h < −1000+? Here: h = −1000 (air) is stored as 3096.
    let rsna = CtSlice {
        bits_stored: 12,
        intercept: 0.0,
        stored: (0..N * N)
            .map(|i| if i % 2 == 0 { 3096 } else { 40 })
            .collect(),
        ..base.clone()
    };
    let p = write(tmp.path(), "rsna", &rsna);
    let hu = preprocess::read::read_hu(&p, true).unwrap().1.hu;
    assert_eq!((hu[0], hu[1]), (-1000.0, 40.0));
    let hu = preprocess::read::read_hu(&p, false).unwrap().1.hu;
    assert_eq!((hu[0], hu[1]), (3096.0, 40.0));
}

#[test]
fn bad_files_are_skipped_and_reported_the_rest_is_processed() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let o = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let mut good = Vec::new();
    for k in 0..4 {
        good.push(write(
            &input,
            &format!("s{k}"),
            &slice(&format!("3.{k}"), [0.0, 0.0, k as f64 * 5.0], o, |_, _| 30),
        ));
    }
    // a truncated copy with a new SOP UID, a file that is not DICOM, an MR slice, a duplicate SOP
    // UID
    let mut trunc = slice("3.99", [0.0, 0.0, 99.0], o, |_, _| 30)
        .to_bytes()
        .unwrap();
    trunc.truncate(trunc.len() - 100);
    fs::write(input.join("broken.dcm"), trunc).unwrap();
    fs::write(input.join("notes"), "not dicom").unwrap();
    // tables and notes beside the images are passed over, not reported
    fs::write(input.join("labels.csv"), "scan,label\n").unwrap();
    fs::write(input.join("README.MD"), "# scans\n").unwrap();
    let mr = CtSlice {
        modality: "MR".into(),
        sop_class_uid: uids::MR_IMAGE_STORAGE.into(),
        series_uid: "2.25.77".into(),
        ..slice("3.50", [0.0, 0.0, 0.0], o, |_, _| 0)
    };
    write(&input, "mr", &mr);
    fs::copy(&good[1], input.join("dup")).unwrap();
    let out = tmp.path().join("ds");
    let s = preprocess(&[input], &out, &opts(8), &Quiet).unwrap();
    assert_eq!(s.scans_written, 1);
    assert_eq!(s.slices, 4);
    assert_eq!(
        s.skipped.counts.get("not DICOM"),
        Some(&1),
        "{:?}",
        s.skipped
    );
    assert!(
        !s.skipped
            .files
            .iter()
            .any(|f| f.contains("labels.csv") || f.contains("README")),
        "{:?}",
        s.skipped
    );
    assert_eq!(
        s.skipped.counts.get("corrupt DICOM"),
        Some(&1),
        "{:?}",
        s.skipped
    );
    assert_eq!(
        s.skipped.counts.get("not a CT image (MR)"),
        Some(&1),
        "{:?}",
        s.skipped
    );
    // the truncated file fails at decoding and is named
    assert!(
        s.skipped.files.iter().any(|f| f.contains("broken.dcm")),
        "{:?}",
        s.skipped.files
    );
    assert!(s.warnings.iter().any(|(_, w)| w.contains("SOPInstanceUID")));
    let (meta, _) = only_scan(&Dataset::open(&out).unwrap());
    assert_eq!(meta.slices.len(), 4);
}

#[test]
fn rerun_resumes_force_redoes_and_phi_stays_out() {
    let tmp = tempfile::tempdir().unwrap();
    let o = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    for scan in 0..2 {
        for k in 0..3 {
            let mut s = slice(&format!("4.{scan}.{k}"), [0.0, 0.0, k as f64], o, |_, _| 35);
            s.series_uid = format!("2.25.4{scan}");
            s.patient_name = "Doe^Jane".into();
            s.patient_id = "MRN-123456".into();
            write(&tmp.path().join("in"), &format!("{scan}-{k}"), &s);
        }
    }
    let input = [tmp.path().join("in")];
    let out = tmp.path().join("ds");
    let s = preprocess(&input, &out, &opts(8), &Quiet).unwrap();
    assert_eq!((s.scans_written, s.scans_resumed), (2, 0));
    // nothing in the dataset names the patient
    for e in fs::read_dir(out.join("scans")).unwrap() {
        let text = String::from_utf8_lossy(&fs::read(e.unwrap().path()).unwrap()).to_string();
        assert!(!text.contains("Doe") && !text.contains("MRN-123456"));
    }
    // interrupted run: one scan's metadata missing → only that scan is redone
    let ds = Dataset::open(&out).unwrap();
    fs::remove_file(out.join(&ds.manifest.scans[0].meta)).unwrap();
    let s = preprocess(&input, &out, &opts(8), &Quiet).unwrap();
    assert_eq!((s.scans_written, s.scans_resumed), (1, 1));
    // another config redoes everything; --force too
    let s = preprocess(&input, &out, &opts(12), &Quiet).unwrap();
    assert_eq!((s.scans_written, s.scans_resumed), (2, 0));
    let mut o2 = opts(12);
    o2.force = true;
    o2.keep_phi = true;
    let s = preprocess(&input, &out, &o2, &Quiet).unwrap();
    assert_eq!((s.scans_written, s.scans_resumed), (2, 0));
    let ds = Dataset::open(&out).unwrap();
    let meta = ds.scan_meta(&ds.manifest.scans[0]).unwrap();
    assert_eq!(meta.patient_name.as_deref(), Some("Doe^Jane"));
    assert_eq!(meta.size, 12);
}
