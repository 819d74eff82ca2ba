//! Files that used to be accepted wrongly or to end the run: enhanced (multi-frame) CT, a decoder
//! that panics on a corrupt RLE segment.

use std::fs;

use dicom_core::{DataElement, PrimitiveValue, VR};
use dicom_dictionary_std::tags;
use preprocess::dicomfile::CtSlice;
use preprocess::read::read_hu;
use preprocess::{preprocess, FileProblem, PreprocessConfig, PreprocessOptions, Quiet};

fn ct(sop: &str, z: f64) -> CtSlice {
    CtSlice {
        sop_uid: sop.into(),
        position: Some([0.0, 0.0, z]),
        orientation: Some([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
        rows: 16,
        cols: 16,
        stored: vec![1064; 256],
        ..CtSlice::default()
    }
}

#[test]
fn multi_frame_ct_is_refused_by_name_and_the_rest_is_processed() {
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    fs::create_dir_all(&input).unwrap();
    for k in 0..3 {
        fs::write(
            input.join(format!("s{k}.dcm")),
            ct(&format!("1.2.3.{k}"), k as f64).to_bytes().unwrap(),
        )
        .unwrap();
    }
    // the same slice, claiming to be 2 frames
    let mf = input.join("enhanced.dcm");
    fs::write(&mf, ct("1.2.3.9", 9.0).to_bytes().unwrap()).unwrap();
    let mut obj = dicom_object::open_file(&mf).unwrap();
    obj.put(DataElement::new(
        tags::NUMBER_OF_FRAMES,
        VR::IS,
        PrimitiveValue::from("2"),
    ));
    obj.write_to_file(&mf).unwrap();

    let e = read_hu(&mf, true).unwrap_err();
    assert!(matches!(e.problem, FileProblem::MultiFrame(2)), "{e}");
    assert!(
        e.to_string().contains("enhanced.dcm") && e.to_string().contains("multi-frame"),
        "{e}"
    );

    let opts = PreprocessOptions {
        config: PreprocessConfig {
            size: 16,
            ..PreprocessConfig::default()
        },
        ..PreprocessOptions::default()
    };
    let s = preprocess(&[input], &t.path().join("ds"), &opts, &Quiet).unwrap();
    assert_eq!((s.scans_written, s.slices), (1, 3));
    assert_eq!(
        s.skipped.counts.get("multi-frame image"),
        Some(&1),
        "{:?}",
        s.skipped.counts
    );
}

#[test]
fn a_panicking_decoder_costs_one_file_not_the_run() {
    let Some(d) = preprocess::shared_data_or_skip("dicom") else {
        return;
    };
    let mut bytes = fs::read(d.join("MR_small_RLE.dcm")).unwrap();
    // the RLE header of the one fragment: 2 segments, the first at offset 64
    let at = bytes
        .windows(8)
        .position(|w| w == [2, 0, 0, 0, 64, 0, 0, 0])
        .expect("RLE header");
    // the fragment's item length sits just before it; make the second segment two bytes long,
    // so it decodes to fewer than Rows × Columns bytes (dicom-transfer-syntax-registry 0.10.1
    // indexes past its buffer: rle_lossless.rs:223)
    let len = u32::from_le_bytes(bytes[at - 4..at].try_into().unwrap());
    bytes[at + 8..at + 12].copy_from_slice(&(len - 2).to_le_bytes());
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("short_rle.dcm");
    fs::write(&p, &bytes).unwrap();
    let e = read_hu(&p, true).unwrap_err();
    assert!(matches!(e.problem, FileProblem::Decode(_)), "{e}");
    assert!(e.to_string().contains("short_rle.dcm"), "{e}");
}
