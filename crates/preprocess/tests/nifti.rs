//! NIfTI volumes read as scans: against nibabel's reading of files nibabel wrote
//! (`scripts/ci/nifti-fixture.py`), and through `preprocess` beside DICOM, hostile files and labels.

use std::path::{Path, PathBuf};

use preprocess::labels::Labels;
use preprocess::nifti::read_volume;
use preprocess::read::Limits;
use preprocess::{preprocess, Dataset, PreprocessConfig, PreprocessOptions, Quiet};
use testkit::nifti::write_int16;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// nibabel wrote a volume stored L-A-S, 4° oblique with a qform only (uint16, scl_inter −1024),
/// and one stored sagittally (I-A-L) with an sform only (int16, scl_slope 0.5). Brought to the
/// closest canonical orientation by nibabel and laid out as DICOM axial slices, they are what
/// ich reads.
#[test]
fn volumes_nibabel_wrote_read_as_nibabel_reads_them() {
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("nibabel_slices.json")).unwrap(),
    )
    .unwrap();
    for case in want["cases"].as_array().unwrap() {
        let file = case["file"].as_str().unwrap();
        let v = read_volume(&fixtures().join(file), &Limits::default()).unwrap();
        let slices = case["slices"].as_array().unwrap();
        assert_eq!(v.slices.len(), slices.len(), "{file}");
        for (k, (got, want)) in v.slices.iter().zip(slices).enumerate() {
            assert_eq!(
                (got.rows as u64, got.cols as u64),
                (
                    case["rows"].as_u64().unwrap(),
                    case["cols"].as_u64().unwrap()
                ),
                "{file}"
            );
            let want: Vec<f64> = want
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            for (i, (&g, &w)) in got.hu.iter().zip(&want).enumerate() {
                assert!(
                    (g as f64 - w).abs() < 1e-3,
                    "{file} slice {k} pixel {i}: {g} vs nibabel {w}"
                );
            }
        }
    }
}

/// A folder of NIfTI files (one per scan, in subfolders, one broken) beside a DICOM series:
/// every good volume becomes a scan named by its path under the input, labelled from `nifti,…`
/// labels files; the broken file is named and skipped, the rest processed.
#[test]
fn a_folder_of_nifti_beside_dicom_becomes_a_dataset() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir_all(input.join("sub-01")).unwrap();
    std::fs::create_dir_all(input.join("sub-02")).unwrap();
    // LPS storage: i toward the left, j posterior, k superior, 5 mm slices
    let affine = [
        [-0.5, 0.0, 0.0, 0.0],
        [0.0, -0.5, 0.0, 0.0],
        [0.0, 0.0, 5.0, -20.0],
    ];
    let vol: Vec<i16> = (0..16 * 16 * 4).map(|v| (v % 700) as i16 - 1000).collect();
    write_int16(
        &input.join("sub-01/ct.nii.gz"),
        [16, 16, 4],
        &vol,
        &affine,
        1.0,
        0.0,
    )
    .unwrap();
    write_int16(
        &input.join("sub-02/ct.nii"),
        [16, 16, 4],
        &vol,
        &affine,
        1.0,
        0.0,
    )
    .unwrap();
    std::fs::write(
        input.join("sub-02/broken.nii.gz"),
        b"\x1f\x8bnot gzip at all",
    )
    .unwrap();
    // a DICOM series beside them
    let dcm = input.join("dicom");
    std::fs::create_dir_all(&dcm).unwrap();
    for k in 0..3 {
        let slice = preprocess::ctwriter::CtSlice {
            sop_uid: format!("2.25.77{k}"),
            position: Some([0.0, 0.0, 5.0 * k as f64]),
            rows: 16,
            cols: 16,
            stored: vec![1024; 256],
            ..Default::default()
        };
        std::fs::write(dcm.join(format!("{k}.dcm")), slice.to_bytes().unwrap()).unwrap();
    }
    let scans = tmp.path().join("scans.csv");
    std::fs::write(&scans, "nifti,label\nsub-01/ct.nii.gz,1\nsub-02/ct.nii,0\n").unwrap();
    let slices = tmp.path().join("slices.csv");
    std::fs::write(
        &slices,
        "nifti,slice,label,subtype\nsub-01/ct.nii.gz,0,0,\nsub-01/ct.nii.gz,2,1,subdural\n",
    )
    .unwrap();
    let mut labels = Labels::default();
    labels.load(&scans).unwrap();
    labels.load(&slices).unwrap();
    let out = tmp.path().join("ds");
    let opts = PreprocessOptions {
        config: PreprocessConfig {
            size: 8,
            ..Default::default()
        },
        labels,
        ..Default::default()
    };
    let summary = preprocess(std::slice::from_ref(&input), &out, &opts, &Quiet).unwrap();
    assert_eq!(summary.scans_written, 3);
    assert_eq!(summary.skipped.counts.get("bad NIfTI"), Some(&1));
    assert!(summary.skipped.files[0].contains("broken.nii.gz"));
    let ds = Dataset::open(&out).unwrap();
    let mut by_name = std::collections::BTreeMap::new();
    for e in &ds.manifest.scans {
        let m = ds.scan_meta(e).unwrap();
        by_name.insert(m.volume.clone().unwrap_or_else(|| "dicom".into()), m);
    }
    assert_eq!(
        by_name.keys().collect::<Vec<_>>(),
        ["dicom", "sub-01/ct.nii.gz", "sub-02/ct.nii"]
    );
    let a = &by_name["sub-01/ct.nii.gz"];
    assert_eq!(a.id, preprocess::scan::scan_id("NIfTI", "sub-01/ct.nii.gz"));
    assert_eq!(a.label, Some(1));
    assert_eq!(a.n_slices, 4);
    assert_eq!(a.pixel_spacing, Some([0.5, 0.5]));
    assert_eq!(a.slice_thickness, Some(5.0));
    assert!(a.study_instance_uid.is_empty() && a.patient_id.is_none());
    let got: Vec<(Option<usize>, Option<u8>, Option<f64>)> = a
        .slices
        .iter()
        .map(|s| (s.volume_index, s.label, s.z))
        .collect();
    assert_eq!(
        got,
        [
            (Some(0), Some(0), Some(-20.0)),
            (Some(1), None, Some(-15.0)),
            (Some(2), Some(1), Some(-10.0)),
            (Some(3), None, Some(-5.0)),
        ]
    );
    assert_eq!(a.slices[2].subtype.as_deref(), Some("subdural"));
    assert_eq!(by_name["sub-02/ct.nii"].label, Some(0));
    // the .nii and the .nii.gz of one volume: the same pixels
    let px = |n: &str| {
        let e = ds
            .manifest
            .scans
            .iter()
            .find(|e| e.id == by_name[n].id)
            .unwrap();
        ds.scan_pixels(e).unwrap().data
    };
    assert_eq!(px("sub-01/ct.nii.gz"), px("sub-02/ct.nii"));
    // a rerun resumes the NIfTI scans like the DICOM one
    let again = preprocess(&[input], &out, &opts, &Quiet).unwrap();
    assert_eq!((again.scans_resumed, again.scans_written), (3, 0));
}

/// The same file name under two inputs is two files that could carry each other's results:
/// both refused, named; one file reached twice is one scan.
#[test]
fn two_files_of_one_name_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let affine = [
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, 5.0, 0.0],
    ];
    for d in ["a", "b"] {
        let p = tmp.path().join(d);
        std::fs::create_dir_all(&p).unwrap();
        write_int16(
            &p.join("ct.nii"),
            [4, 4, 2],
            &[-1000; 32],
            &affine,
            1.0,
            0.0,
        )
        .unwrap();
    }
    let (scans, skipped) =
        preprocess::pipeline::find_scans(&[tmp.path().join("a"), tmp.path().join("b")], &Quiet)
            .unwrap();
    assert!(scans.is_empty());
    assert_eq!(skipped.counts.get("bad NIfTI"), Some(&2));
    assert!(
        skipped.files[0].contains("same name"),
        "{:?}",
        skipped.files
    );
    let a = tmp.path().join("a");
    let (scans, _) = preprocess::pipeline::find_scans(&[a.clone(), a], &Quiet).unwrap();
    assert_eq!(scans.len(), 1);
}

/// One file reached by two paths (a hard link, a `..` path into the same folder) is one scan,
/// named by its first path; the other is named as the same file. Two files of one name are
/// reported by the shard that owns the name, whichever shard it is.
#[test]
fn one_file_by_two_paths_is_one_scan_and_a_clash_is_reported_by_its_shard() {
    let tmp = tempfile::tempdir().unwrap();
    let affine = [
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, 5.0, 0.0],
    ];
    let a = tmp.path().join("in/a");
    std::fs::create_dir_all(&a).unwrap();
    write_int16(
        &a.join("ct.nii"),
        [4, 4, 2],
        &[-1000; 32],
        &affine,
        1.0,
        0.0,
    )
    .unwrap();
    std::fs::hard_link(a.join("ct.nii"), a.join("copy.nii")).unwrap();
    let input = tmp.path().join("in");
    let dotted = tmp.path().join("in/a/../a");
    let (scans, skipped) = preprocess::pipeline::find_scans(&[input, dotted], &Quiet).unwrap();
    assert_eq!(scans.len(), 1, "{skipped:?}");
    // four paths (two names, each under two inputs) to one file: read once
    assert_eq!(skipped.counts.get("bad NIfTI"), Some(&3), "{skipped:?}");
    assert!(
        skipped.files.iter().all(|f| f.contains("the same file as")),
        "{:?}",
        skipped.files
    );
    // a clash: the shard that owns the name reports it, the others do not
    for d in ["x", "y"] {
        let p = tmp.path().join(d);
        std::fs::create_dir_all(&p).unwrap();
        write_int16(&p.join("ct.nii"), [4, 4, 2], &[-900; 32], &affine, 1.0, 0.0).unwrap();
    }
    let inputs = [tmp.path().join("x"), tmp.path().join("y")];
    let owner = preprocess::scan::scan_id("NIfTI", "ct.nii");
    let mut reported = 0;
    for i in 0..3 {
        let shard = milbase::Shard { index: i, count: 3 };
        let (scans, _, _, own) = preprocess::pipeline::find_scans_counting_others(
            &inputs,
            &Limits::default(),
            shard,
            &Quiet,
        )
        .unwrap();
        assert!(scans.is_empty());
        if shard.contains(&owner) {
            assert_eq!(own.files.len(), 2, "{own:?}");
            reported += 1;
        } else {
            assert!(own.files.is_empty(), "{own:?}");
        }
    }
    assert_eq!(reported, 1);
}
