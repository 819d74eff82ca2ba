//! Every file of `../shared/data/dicom/` (pydicom's test files: encodings nobody here wrote, and
//! broken files) either decodes to the values pydicom gives, or fails with a clear error naming
//! the file. Reference numbers were computed with pydicom 3 + numpy (see docs/BENCHMARKS.md).

use std::path::PathBuf;

use preprocess::read::{read_header, read_hu};
use preprocess::FileProblem;

fn dicom_dir() -> Option<PathBuf> {
    testkit::shared_data_or_skip("dicom")
}

fn stats(v: &[f32]) -> (f32, f32, f64) {
    let min = v.iter().copied().fold(f32::INFINITY, f32::min);
    let max = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
    (min, max, mean)
}

#[test]
fn ct_small_matches_pydicom() {
    let Some(d) = dicom_dir() else { return };
    let (h, img) = read_hu(&d.join("CT_small.dcm"), true).unwrap();
    assert_eq!(h.modality, "CT");
    assert!(h.is_ct());
    assert_eq!((img.rows, img.cols), (128, 128));
    let (min, max, mean) = stats(&img.hu);
    // pydicom: pixel_array * 1 − 1024 → min −896, max 1167, mean −119.0739
    assert_eq!((min, max), (-896.0, 1167.0));
    assert!((mean - -119.0739).abs() < 1e-3, "{mean}");
    assert_eq!(img.hu[0], -849.0);
    assert_eq!(img.hu[64 * 128 + 64], 904.0);
    assert_eq!(img.hu[10 * 128 + 20], -839.0);
    assert_eq!(img.hu[100 * 128 + 50], 16.0);
}

#[test]
fn head_ct_in_jpeg2000_lossy_decodes() {
    let Some(d) = dicom_dir() else { return };
    let (h, img) = read_hu(&d.join("693_J2KI.dcm"), true).unwrap();
    assert!(h.is_ct());
    assert_eq!((img.rows, img.cols), (512, 512));
    let (min, max, mean) = stats(&img.hu);
    // pydicom (Pillow's JPEG 2000 decoder), clipped at −1024: mean −603.02, max 1812; a lossy
    // codec may differ by a few HU per pixel between decoders.
    assert_eq!(min, -1024.0);
    assert!((max - 1812.0).abs() <= 8.0, "{max}");
    assert!((mean - -603.018).abs() < 1.0, "{mean}");
    let bone = img.hu.iter().filter(|&&v| v > 300.0).count() as f64 / img.hu.len() as f64;
    assert!((bone - 0.0655).abs() < 0.003, "{bone}");
}

#[test]
fn every_encoding_of_mr_small_gives_the_same_pixels() {
    let Some(d) = dicom_dir() else { return };
    // explicit LE, implicit LE, big endian, RLE, JPEG 2000 lossless, JPEG-LS lossless (pydicom
    // cannot decode the last without plugins; the lossless codecs must agree exactly anyway).
    let reference = read_hu(&d.join("MR_small.dcm"), true).unwrap().1;
    let (min, max, mean) = stats(&reference.hu);
    assert_eq!((min, max), (127.0, 2145.0));
    assert!((mean - 518.8813).abs() < 1e-3);
    assert_eq!(reference.hu[0], 905.0);
    for f in [
        "MR_small_implicit.dcm",
        "MR_small_bigendian.dcm",
        "MR_small_RLE.dcm",
        "MR_small_jp2klossless.dcm",
        "MR_small_jpeg_ls_lossless.dcm",
    ] {
        let (h, img) = read_hu(&d.join(f), true).unwrap_or_else(|e| panic!("{e}"));
        assert!(!h.is_ct(), "{f} is MR");
        assert_eq!((img.rows, img.cols), (64, 64), "{f}");
        assert_eq!(img.hu, reference.hu, "{f}");
    }
}

#[test]
fn deflated_file_decodes() {
    let Some(d) = dicom_dir() else { return };
    let (_, img) = read_hu(&d.join("image_dfl.dcm"), true).unwrap();
    assert_eq!((img.rows, img.cols), (512, 512));
    let (min, max, mean) = stats(&img.hu);
    assert_eq!((min, max), (0.0, 255.0));
    assert!((mean - 127.1160).abs() < 1e-3);
}

#[test]
fn broken_and_unsupported_files_fail_clearly() {
    let Some(d) = dicom_dir() else { return };
    let expect = |name: &str, check: &dyn Fn(&FileProblem) -> bool, words: &str| {
        let path = d.join(name);
        let err = read_hu(&path, true).expect_err(name);
        let msg = err.to_string();
        assert!(check(&err.problem), "{name}: {msg}");
        assert!(msg.contains(name), "message names the file: {msg}");
        assert!(msg.contains(words), "{name}: {msg}");
    };
    expect(
        "JPEG-lossy.dcm",
        &|p| matches!(p, FileProblem::UnsupportedEncoding { .. }),
        "1.2.840.10008.1.2.4.51",
    );
    expect(
        "MR_truncated.dcm",
        &|p| {
            matches!(
                p,
                FileProblem::Corrupt(_) | FileProblem::Decode(_) | FileProblem::Pixel(_)
            )
        },
        "",
    );
    expect(
        "no_meta.dcm",
        &|p| matches!(p, FileProblem::NotDicom(_)),
        "not a DICOM file",
    );
    expect(
        "rtplan.dcm",
        &|p| matches!(p, FileProblem::NoImage(_)),
        "not an image",
    );
    expect(
        "SC_rgb_jpeg_gdcm.dcm",
        &|p| matches!(p, FileProblem::Colour(3)),
        "colour",
    );
}

#[test]
fn no_file_panics_and_headers_read_or_fail() {
    let Some(d) = dicom_dir() else { return };
    let mut n = 0;
    for e in std::fs::read_dir(&d).unwrap() {
        let p = e.unwrap().path();
        n += 1;
        // header and pixels: Ok or an error that names the file; never a panic
        if let Err(e) = read_header(&p) {
            assert!(e
                .to_string()
                .contains(&*p.file_name().unwrap().to_string_lossy()));
        }
        if let Err(e) = read_hu(&p, true) {
            assert!(e
                .to_string()
                .contains(&*p.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(n >= 15);
}
