//! Files that used to be accepted wrongly, to end the run or to take gigabytes: enhanced
//! (multi-frame) CT, decoders that panicked (RLE segments shorter than Rows × Columns, JPEG 2000 or
//! JPEG-LS data under an RLE transfer syntax, JPEG and JPEG 2000 codestreams that disagree with
//! Rows, Columns or SamplesPerPixel), element lengths far beyond the file, non-numeric geometry.
//! Each mutant is made here from the shared pydicom corpus; the largest single allocation made
//! while reading it is measured by this binary's allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fs;
use std::path::{Path, PathBuf};

use dicom_core::{DataElement, PrimitiveValue, VR};
use dicom_dictionary_std::{tags, uids};
use preprocess::dicomfile::CtSlice;
use preprocess::read::read_hu;
use preprocess::{preprocess, FileProblem, PreprocessConfig, PreprocessOptions, Quiet};

/// The system allocator, recording the largest single request of each thread.
struct Largest;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.with(|l| l.set(l.get().max(layout.size())));
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.with(|l| l.set(l.get().max(layout.size())));
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.with(|l| l.set(l.get().max(new_size)));
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

/// `read_hu` on `path`: its result and the largest single allocation it made (this thread).
fn read_measured(
    path: &Path,
) -> (
    Result<(preprocess::read::SliceHeader, preprocess::read::HuImage), preprocess::FileError>,
    usize,
) {
    LARGEST.with(|l| l.set(0));
    let r = read_hu(path, true);
    (r, LARGEST.with(|l| l.get()))
}

/// A shared corpus file changed through dicom-object and written to `dir/name`.
fn mutant(
    src: &Path,
    dir: &Path,
    name: &str,
    change: impl FnOnce(&mut dicom_object::DefaultDicomObject),
) -> PathBuf {
    let mut obj = dicom_object::open_file(src).unwrap();
    change(&mut obj);
    let p = dir.join(name);
    obj.write_to_file(&p).unwrap();
    p
}

fn put_int(obj: &mut dicom_object::DefaultDicomObject, tag: dicom_core::Tag, v: u16) {
    obj.put(DataElement::new(tag, VR::US, PrimitiveValue::from(v)));
}

/// Refused as undecodable, naming the file, with no allocation over 16 MiB.
fn assert_refused(path: &Path) {
    let (r, largest) = read_measured(path);
    let e = r.expect_err("a hostile file must be refused");
    assert!(
        matches!(
            e.problem,
            FileProblem::Decode(_) | FileProblem::Corrupt(_) | FileProblem::Colour(_)
        ),
        "{e}"
    );
    assert!(
        !e.to_string().contains("the decoder failed"),
        "refused by a check, not by a caught panic: {e}"
    );
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assert!(e.to_string().contains(&name), "{e}");
    assert!(
        largest < 16 << 20,
        "{name}: allocated {largest} bytes at once"
    );
}

#[test]
fn jpeg_2000_and_jpeg_ls_data_under_an_rle_transfer_syntax_are_refused_before_allocating() {
    let Some(d) = preprocess::shared_data_or_skip("dicom") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    for src in ["MR_small_jp2klossless.dcm", "MR_small_jpeg_ls_lossless.dcm"] {
        let p = mutant(&d.join(src), t.path(), &format!("rle_{src}"), |o| {
            o.update_meta(|m| m.transfer_syntax = uids::RLE_LOSSLESS.to_string());
        });
        assert_refused(&p);
    }
}

#[test]
fn jpeg_and_jpeg_2000_headers_that_disagree_with_their_codestream_are_refused() {
    let Some(d) = preprocess::shared_data_or_skip("dicom") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    // a colour JPEG whose header says one sample per pixel, or fewer columns than it holds
    let rgb = d.join("SC_rgb_jpeg_gdcm.dcm");
    assert_refused(&mutant(&rgb, t.path(), "jpeg_spp1.dcm", |o| {
        put_int(o, tags::SAMPLES_PER_PIXEL, 1);
        o.put(DataElement::new(
            tags::PHOTOMETRIC_INTERPRETATION,
            VR::CS,
            PrimitiveValue::from("MONOCHROME2"),
        ));
    }));
    assert_refused(&mutant(&rgb, t.path(), "jpeg_cols.dcm", |o| {
        put_int(o, tags::COLUMNS, 10);
    }));
    // a JPEG whose header promises more than the codestream holds, and JPEG-LS that disagrees
    // (the decoders allocate what their own headers say)
    assert_refused(&mutant(&rgb, t.path(), "jpeg_big.dcm", |o| {
        put_int(o, tags::ROWS, 4096);
        put_int(o, tags::COLUMNS, 4096);
    }));
    let jls = d.join("MR_small_jpeg_ls_lossless.dcm");
    let p = mutant(&jls, t.path(), "jls_rows.dcm", |o| {
        put_int(o, tags::ROWS, 8)
    });
    assert_refused(&p);
    let e = read_hu(&p, true).unwrap_err().to_string();
    assert!(e.contains("JPEG-LS codestream is 64×64"), "{e}");
    // JPEG 2000 with Rows, Columns or SamplesPerPixel other than the codestream's
    let j2k = d.join("MR_small_jp2klossless.dcm");
    assert_refused(&mutant(&j2k, t.path(), "j2k_rows.dcm", |o| {
        put_int(o, tags::ROWS, 8);
    }));
    assert_refused(&mutant(&j2k, t.path(), "j2k_cols.dcm", |o| {
        put_int(o, tags::COLUMNS, 8);
    }));
    assert_refused(&mutant(&j2k, t.path(), "j2k_spp.dcm", |o| {
        put_int(o, tags::SAMPLES_PER_PIXEL, 3);
    }));
}

#[test]
fn a_jpeg_2000_codestream_claiming_a_huge_image_is_refused_before_decoding() {
    let Some(d) = preprocess::shared_data_or_skip("dicom") else {
        return;
    };
    let mut bytes = fs::read(d.join("693_J2KI.dcm")).unwrap();
    // SOC + SIZ; Xsiz and Ysiz follow Lsiz and Rsiz (ISO 15444-1 A.5.1): claim 65536 × 65536
    // (OpenJPEG would allocate 16 GiB for it; the fuzzer found a 33 GB variant)
    let at = bytes
        .windows(4)
        .position(|w| w == [0xFF, 0x4F, 0xFF, 0x51])
        .expect("SIZ marker");
    bytes[at + 8..at + 12].copy_from_slice(&0x0001_0000u32.to_be_bytes());
    bytes[at + 12..at + 16].copy_from_slice(&0x0001_0000u32.to_be_bytes());
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("siz_65536.dcm");
    fs::write(&p, &bytes).unwrap();
    assert_refused(&p);
    let e = read_hu(&p, true).unwrap_err().to_string();
    assert!(e.contains("65536×65536") && e.contains("512×512"), "{e}");
}

#[test]
fn an_element_length_beyond_the_file_costs_the_bytes_present_not_the_length_declared() {
    let Some(d) = preprocess::shared_data_or_skip("dicom") else {
        return;
    };
    let bytes = fs::read(d.join("MR_small_implicit.dcm")).unwrap();
    let t = tempfile::tempdir().unwrap();
    // implicit VR: every element has a 4-byte length; give SOPClassUID (0008,0016) 0xFFFFFFF0
    // and cut the file 200 bytes later (dicom-parser 0.10.1 reserved and zero-filled 4 GiB)
    let at = bytes
        .windows(4)
        .enumerate()
        .skip(132)
        .find(|(_, w)| *w == [0x08, 0x00, 0x16, 0x00])
        .map(|(i, _)| i)
        .expect("SOPClassUID");
    let mut m = bytes[..at + 208].to_vec();
    m[at + 4..at + 8].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    let p = t.path().join("huge_length.dcm");
    fs::write(&p, &m).unwrap();
    let (r, largest) = read_measured(&p);
    let e = r.unwrap_err();
    assert!(matches!(e.problem, FileProblem::Corrupt(_)), "{e}");
    assert!(largest < 1 << 20, "allocated {largest} bytes at once");
    // also as the length of the pixel data of an explicit-VR file (OW: 4-byte length)
    let bytes = fs::read(d.join("CT_small.dcm")).unwrap();
    let px = bytes
        .windows(6)
        .rposition(|w| w == [0xE0, 0x7F, 0x10, 0x00, b'O', b'W'])
        .expect("PixelData");
    let mut m = bytes[..px + 512].to_vec();
    m[px + 8..px + 12].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    let p = t.path().join("huge_pixels.dcm");
    fs::write(&p, &m).unwrap();
    let (r, largest) = read_measured(&p);
    assert!(r.is_err());
    assert!(largest < 1 << 20, "allocated {largest} bytes at once");
}

#[test]
fn a_slice_larger_than_the_ceiling_or_than_its_pixel_data_is_refused_before_decoding() {
    let t = tempfile::tempdir().unwrap();
    // Rows × Columns promise 65535² 16-bit pixels (8 GiB) over 512 bytes of pixel data
    let p = t.path().join("big.dcm");
    fs::write(&p, ct("1.2.3.1", 0.0).to_bytes().unwrap()).unwrap();
    let mut obj = dicom_object::open_file(&p).unwrap();
    put_int(&mut obj, tags::ROWS, 65535);
    put_int(&mut obj, tags::COLUMNS, 65535);
    obj.write_to_file(&p).unwrap();
    let (r, largest) = read_measured(&p);
    let e = r.unwrap_err();
    assert!(matches!(e.problem, FileProblem::TooLarge { .. }), "{e}");
    assert_eq!(e.problem.category(), "too large");
    assert!(largest < 1 << 20);
    // within the ceiling but more than the pixel data holds: 64 × 64 over 16 × 16 pixels
    let mut obj = dicom_object::open_file(&p).unwrap();
    put_int(&mut obj, tags::ROWS, 64);
    put_int(&mut obj, tags::COLUMNS, 64);
    obj.write_to_file(&p).unwrap();
    let e = read_hu(&p, true).unwrap_err();
    assert!(
        matches!(&e.problem, FileProblem::Corrupt(m) if m.contains("PixelData holds 512 bytes")),
        "{e}"
    );
    // a lower ceiling refuses an honest 16 × 16 slice
    let ok = t.path().join("ok.dcm");
    fs::write(&ok, ct("1.2.3.2", 0.0).to_bytes().unwrap()).unwrap();
    let limits = preprocess::read::Limits {
        max_slice_bytes: 100,
        ..Default::default()
    };
    let e = preprocess::read::read_hu_within(&ok, true, &limits).unwrap_err();
    assert!(
        matches!(
            e.problem,
            FileProblem::TooLarge {
                bytes: 512,
                limit: 100,
                ..
            }
        ),
        "{e}"
    );
    assert!(preprocess::read::read_hu_within(&ok, true, &Default::default()).is_ok());
}

#[test]
fn non_numeric_geometry_falls_back_to_instance_number_order_and_keeps_every_slice() {
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    fs::create_dir_all(&input).unwrap();
    // three slices whose InstanceNumber order (3, 1, 2 by file) is the z order
    for (k, inst) in [(0, 3), (1, 1), (2, 2)] {
        let p = input.join(format!("s{k}.dcm"));
        fs::write(
            &p,
            ct(&format!("1.2.3.{inst}"), inst as f64)
                .to_bytes()
                .unwrap(),
        )
        .unwrap();
        let mut obj = dicom_object::open_file(&p).unwrap();
        obj.put(DataElement::new(
            tags::INSTANCE_NUMBER,
            VR::IS,
            PrimitiveValue::from(inst.to_string()),
        ));
        if k == 1 {
            obj.put(DataElement::new(
                tags::IMAGE_POSITION_PATIENT,
                VR::DS,
                PrimitiveValue::from("abc\\def\\ghi"),
            ));
        }
        obj.write_to_file(&p).unwrap();
    }
    let opts = PreprocessOptions {
        config: PreprocessConfig {
            size: 16,
            ..PreprocessConfig::default()
        },
        ..PreprocessOptions::default()
    };
    let out = t.path().join("ds");
    let s = preprocess(&[input], &out, &opts, &Quiet).unwrap();
    assert_eq!(
        (s.scans_written, s.slices),
        (1, 3),
        "{:?}",
        s.skipped.counts
    );
    let ds = preprocess::Dataset::open(&out).unwrap();
    let meta = ds.scan_meta(&ds.manifest.scans[0]).unwrap();
    let order: Vec<&str> = meta
        .slices
        .iter()
        .map(|s| s.sop_instance_uid.as_str())
        .collect();
    assert_eq!(order, ["1.2.3.1", "1.2.3.2", "1.2.3.3"]);
}

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
