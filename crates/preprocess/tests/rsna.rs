//! The field's main dataset read as the field reads it: RSNA 2019's files (no file meta group
//! length, a 20-byte ImplementationVersionName, UIDs that are not UIDs) give pydicom's Hounsfield
//! units, file for file (`tests/data/rsna-pydicom-hu.json`, written by
//! `scripts/ci/rsna-pydicom-hu.py` with pydicom 3.0); a file of another writer with its group length
//! cut out reads as the file itself; and the series is one scan of 36 slices.

use std::path::{Path, PathBuf};

use preprocess::read::{read_header, read_hu};
use sha2::{Digest, Sha256};

fn fixture() -> serde_json::Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/rsna-pydicom-hu.json");
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn series() -> Option<PathBuf> {
    testkit::shared_data_or_skip("dicom-rsna").map(|d| d.join("ID_3d2ee1643b"))
}

/// The file's Hounsfield units as the fixture sums and hashes them (int32 little-endian).
fn digest(hu: &[f32]) -> (i64, i32, i32, String) {
    let v: Vec<i32> = hu.iter().map(|&h| h.round() as i32).collect();
    assert!(
        hu.iter().zip(&v).all(|(&h, &i)| h == i as f32),
        "HU not integers"
    );
    let mut sha = Sha256::new();
    for x in &v {
        sha.update(x.to_le_bytes());
    }
    let hex: String = sha.finalize().iter().map(|b| format!("{b:02x}")).collect();
    (
        v.iter().map(|&x| x as i64).sum(),
        *v.iter().min().unwrap(),
        *v.iter().max().unwrap(),
        hex,
    )
}

#[test]
fn every_rsna_file_gives_pydicoms_hounsfield_units() {
    let Some(dir) = series() else { return };
    let want = fixture();
    let files = want["files"].as_object().unwrap();
    assert_eq!(files.len(), 36);
    for (name, w) in files {
        let path = dir.join(name);
        let (h, img) = read_hu(&path, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(h.sop_uid, w["sop_instance_uid"].as_str().unwrap(), "{name}");
        assert_eq!(
            (img.rows as u64, img.cols as u64),
            (w["rows"].as_u64().unwrap(), w["cols"].as_u64().unwrap())
        );
        let (sum, min, max, sha) = digest(&img.hu);
        assert_eq!(sum, w["sum"].as_i64().unwrap(), "{name}: sum");
        assert_eq!(
            (min as i64, max as i64),
            (w["min"].as_i64().unwrap(), w["max"].as_i64().unwrap()),
            "{name}"
        );
        assert_eq!(sha, w["sha256"].as_str().unwrap(), "{name}: pixels");
    }
}

#[test]
fn the_rsna_series_is_one_scan_of_36_slices() {
    let Some(dir) = series() else { return };
    let (scans, skipped) =
        preprocess::pipeline::find_scans(std::slice::from_ref(&dir), &milbase::Quiet).unwrap();
    assert!(skipped.files.is_empty(), "{:?}", skipped.files);
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0].slices.len(), 36);
}

/// A standard file (pydicom's CT_small, which has a group length) with its (0002,0000) element
/// cut out of the meta group: it reads, and gives the pixels of the file itself. A group that
/// runs into a non-meta tag is the data set's start, not an error.
#[test]
fn a_meta_group_without_its_group_length_reads_as_the_file_itself() {
    let Some(d) = testkit::shared_data_or_skip("dicom") else {
        return;
    };
    let orig = d.join("CT_small.dcm");
    let bytes = std::fs::read(&orig).unwrap();
    assert_eq!(&bytes[128..132], b"DICM");
    // explicit VR LE: tag (4) VR "UL" (2) length 4 (2) value (4)
    assert_eq!(&bytes[132..138], &[0x02, 0x00, 0x00, 0x00, b'U', b'L']);
    let mut cut = bytes[..132].to_vec();
    cut.extend_from_slice(&bytes[144..]);
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("no-group-length.dcm");
    std::fs::write(&p, &cut).unwrap();
    let (h0, a) = read_hu(&orig, false).unwrap();
    let (h1, b) = read_hu(&p, false).unwrap();
    assert_eq!(h0.sop_uid, h1.sop_uid);
    assert_eq!(h0.transfer_syntax, h1.transfer_syntax);
    assert_eq!((a.rows, a.cols), (b.rows, b.cols));
    assert_eq!(a.hu, b.hu);
    assert_eq!(read_header(&p).unwrap().series_uid, h0.series_uid);
}
