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
use preprocess::ctwriter::CtSlice;
use preprocess::read::read_hu;
use preprocess::{preprocess, FileProblem, PreprocessConfig, PreprocessOptions, Quiet};
use testkit::dicom::{
    nested_sequences, put_modality_lut, put_un, sparse_element_file, write_edited, INVALID_RESCALE,
};

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
    let Some(d) = testkit::shared_data_or_skip("dicom") else {
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
    let Some(d) = testkit::shared_data_or_skip("dicom") else {
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
    let Some(d) = testkit::shared_data_or_skip("dicom") else {
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
    let Some(d) = testkit::shared_data_or_skip("dicom") else {
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
    let opts = opts16();
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

/// Preprocessing to 16² slices, everything else default.
fn opts16() -> PreprocessOptions {
    PreprocessOptions {
        config: PreprocessConfig {
            size: 16,
            ..PreprocessConfig::default()
        },
        ..PreprocessOptions::default()
    }
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

    let opts = opts16();
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
fn a_ct_series_of_another_body_part_is_left_out_by_name_and_a_head_or_unsaid_one_is_kept() {
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    fs::create_dir_all(&input).unwrap();
    // four series of two slices: BodyPartExamined CHEST, "c-spine", HEAD and absent
    for (k, part) in [Some("CHEST"), Some("c-spine"), Some("HEAD"), None]
        .iter()
        .enumerate()
    {
        for z in 0..2 {
            let p = input.join(format!("s{k}-{z}.dcm"));
            let mut slice = ct(&format!("1.2.3.{k}.{z}"), z as f64);
            slice.series_uid = format!("2.25.{}", 10 + k);
            fs::write(&p, slice.to_bytes().unwrap()).unwrap();
            if let Some(part) = part {
                let mut obj = dicom_object::open_file(&p).unwrap();
                obj.put(DataElement::new(
                    tags::BODY_PART_EXAMINED,
                    VR::CS,
                    PrimitiveValue::from(*part),
                ));
                obj.write_to_file(&p).unwrap();
            }
        }
    }
    let s = preprocess(&[input], &t.path().join("ds"), &opts16(), &Quiet).unwrap();
    assert_eq!((s.scans_written, s.slices), (2, 4));
    assert_eq!(
        s.skipped.counts.get("not a head CT (CHEST)"),
        Some(&2),
        "{:?}",
        s.skipped.counts
    );
    assert_eq!(
        s.skipped.counts.get("not a head CT (C-SPINE)"),
        Some(&2),
        "{:?}",
        s.skipped.counts
    );
    assert!(
        s.skipped
            .files
            .iter()
            .any(|f| f.contains("s0-0.dcm") && f.contains("not a head CT")),
        "{:?}",
        s.skipped.files
    );
}

#[test]
fn a_panicking_decoder_costs_one_file_not_the_run() {
    let Some(d) = testkit::shared_data_or_skip("dicom") else {
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

#[cfg(unix)]
#[test]
fn links_out_of_the_inputs_and_non_regular_files_are_left_out_by_name_and_the_scan_is_kept() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    let series = input.join("series");
    fs::create_dir_all(&series).unwrap();
    for k in 0..3 {
        fs::write(
            series.join(format!("s{k}.dcm")),
            ct(&format!("1.2.3.{k}"), k as f64).to_bytes().unwrap(),
        )
        .unwrap();
    }
    // a folder beside the input with a slice of another scan: reachable only through a link
    let outside = t.path().join("outside");
    fs::create_dir_all(&outside).unwrap();
    let mut other = ct("1.2.9.1", 0.0);
    other.series_uid = "1.2.9".into();
    fs::write(outside.join("o.dcm"), other.to_bytes().unwrap()).unwrap();
    symlink("/", input.join("root")).unwrap();
    symlink("/proc", input.join("proc")).unwrap();
    symlink(&outside, input.join("elsewhere")).unwrap();
    symlink(input.join("nowhere"), input.join("broken")).unwrap();
    // a link that stays inside the input is followed (the slice is read once)
    symlink(&series, input.join("again")).unwrap();
    // a FIFO would block a reader forever
    let fifo = input.join("pipe.dcm");
    let st = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(st.success());

    let (files, left_out) =
        preprocess::pipeline::collect_files(std::slice::from_ref(&input)).unwrap();
    assert_eq!(files.len(), 6, "{files:?}"); // the three slices, by both paths
    assert!(files
        .iter()
        .all(|f| f.starts_with(&input) && !f.ends_with("pipe.dcm")));
    let why = |name: &str| {
        left_out
            .iter()
            .find(|(p, _)| p.ends_with(name))
            .map(|(_, w)| w.clone())
            .unwrap_or_else(|| panic!("{name} not reported: {left_out:?}"))
    };
    assert!(
        why("root").contains("outside the given inputs"),
        "{}",
        why("root")
    );
    assert!(why("proc").contains("/proc"), "{}", why("proc"));
    assert!(why("elsewhere").contains("outside the given inputs"));
    assert!(why("broken").contains("broken link"));
    assert!(why("pipe.dcm").contains("not a regular file"));
    assert_eq!(left_out.len(), 5, "{left_out:?}");

    let opts = opts16();
    let s = preprocess(&[input], &t.path().join("ds"), &opts, &Quiet).unwrap();
    // one scan of three slices: the duplicates through the inner link are one slice each, and
    // the scan behind the outer link is not read
    assert_eq!((s.scans_written, s.slices), (1, 3));
    assert_eq!(
        s.skipped.counts.get("link not followed"),
        Some(&4),
        "{:?}",
        s.skipped.counts
    );
    assert_eq!(s.skipped.counts.get("not a regular file"), Some(&1));
    assert!(s.skipped.files.iter().any(|f| f.contains("pipe.dcm")));

    // a FIFO or /proc given as an input is refused by name
    let e = preprocess(
        std::slice::from_ref(&fifo),
        &t.path().join("ds2"),
        &opts,
        &Quiet,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("pipe.dcm") && e.to_string().contains("not a regular"),
        "{e}"
    );
    let e = preprocess(
        &[PathBuf::from("/proc/self")],
        &t.path().join("ds3"),
        &opts,
        &Quiet,
    )
    .unwrap_err();
    assert!(e.to_string().contains("/proc"), "{e}");
}

#[cfg(unix)]
#[test]
fn a_scans_folder_planted_as_a_link_in_the_output_is_not_written_through() {
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    fs::create_dir_all(&input).unwrap();
    fs::write(input.join("s.dcm"), ct("1.2.3.1", 0.0).to_bytes().unwrap()).unwrap();
    let (out, elsewhere) = (t.path().join("ds"), t.path().join("elsewhere"));
    fs::create_dir_all(&out).unwrap();
    fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("scans")).unwrap();
    let opts = opts16();
    let e = preprocess(&[input], &out, &opts, &Quiet).unwrap_err();
    assert!(
        e.to_string().contains("scans") && e.to_string().contains("symbolic link"),
        "{e}"
    );
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn a_file_repeating_a_slices_uid_with_other_pixels_fails_its_scan_naming_both_files() {
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
    // an exact copy under another name: kept once
    fs::copy(input.join("s1.dcm"), input.join("s1-copy.dcm")).unwrap();
    let opts = opts16();
    let s = preprocess(
        std::slice::from_ref(&input),
        &t.path().join("ds"),
        &opts,
        &Quiet,
    )
    .unwrap();
    assert_eq!((s.scans_written, s.slices), (1, 3));
    // a file that takes slice 1's UID with other pixels, sorted before the genuine one
    let mut fake = ct("1.2.3.1", 1.0);
    fake.stored = vec![2000; 256];
    fs::write(input.join("a-fake.dcm"), fake.to_bytes().unwrap()).unwrap();
    let s = preprocess(&[input], &t.path().join("ds2"), &opts, &Quiet).unwrap();
    assert_eq!(s.scans_written, 0);
    assert_eq!(s.scans_failed.len(), 1);
    let e = &s.scans_failed[0];
    // the fake and a file with the genuine pixels (s1-copy.dcm sorts before s1.dcm)
    assert!(
        e.contains("a-fake.dcm") && e.contains("s1-copy.dcm") && e.contains("different pixel data"),
        "{e}"
    );
}

/// `slice` written, then changed through dicom-object, into `dir/name`.
fn edited(
    slice: &CtSlice,
    dir: &Path,
    name: &str,
    change: impl FnOnce(&mut dicom_object::DefaultDicomObject),
) -> PathBuf {
    let p = dir.join(name);
    write_edited(slice, &p, change).unwrap();
    p
}

#[test]
fn standard_attributes_stored_as_un_are_read_by_their_dictionary_vr() {
    let t = tempfile::tempdir().unwrap();
    let mut s = ct("1.2.3.1", 0.0);
    s.stored = (0..256).map(|i| 1000 + i).collect();
    s.slope = 0.5;
    s.intercept = -1000.0;
    s.pixel_spacing = [0.7, 0.8];
    let clean = t.path().join("clean.dcm");
    fs::write(&clean, s.to_bytes().unwrap()).unwrap();
    // what a router that forgot the VRs writes: the same text, VR UN (explicit VR LE)
    let p = edited(&s, t.path(), "un.dcm", |o| {
        put_un(o, tags::RESCALE_SLOPE, "0.5 ");
        put_un(o, tags::RESCALE_INTERCEPT, "-1000");
        put_un(o, tags::IMAGE_POSITION_PATIENT, "0\\0\\12.5");
        put_un(o, tags::PIXEL_SPACING, "0.7\\0.8 ");
        o.put(DataElement::new(
            tags::ROWS,
            VR::UN,
            PrimitiveValue::from(16u16.to_le_bytes().to_vec()),
        ));
    });
    let (h0, a) = read_hu(&clean, false).unwrap();
    let (h, b) = read_hu(&p, false).unwrap();
    // by hand: HU = 0.5 · stored − 1000, first pixel 0.5 · 1000 − 1000 = −500
    assert_eq!(b.hu[0], -500.0);
    assert_eq!(a.hu, b.hu);
    assert_eq!(h.position, Some([0.0, 0.0, 12.5]));
    assert_eq!(h.pixel_spacing, h0.pixel_spacing);
    assert_eq!(h.rows, 16);
}

#[test]
fn invalid_rescale_values_and_a_modality_lut_refuse_the_file_by_attribute() {
    let t = tempfile::tempdir().unwrap();
    let s = ct("1.2.3.1", 0.0);
    let ds = |o: &mut dicom_object::DefaultDicomObject, tag, v: &str| {
        o.put(DataElement::new(tag, VR::DS, PrimitiveValue::from(v)))
    };
    for (k, (tag, v, name)) in INVALID_RESCALE.into_iter().enumerate() {
        let p = edited(&s, t.path(), &format!("bad{k}.dcm"), |o| {
            ds(o, tag, v);
        });
        let e = read_hu(&p, false).unwrap_err();
        assert!(
            matches!(e.problem, FileProblem::BadAttribute { name: n, .. } if n == name),
            "{v}: {e}"
        );
        assert!(e.to_string().contains(&format!("bad{k}.dcm")), "{e}");
    }
    let p = edited(&s, t.path(), "lut.dcm", put_modality_lut);
    let e = read_hu(&p, false).unwrap_err();
    assert!(e.to_string().contains("ModalityLUTSequence"), "{e}");
    // the clean slice still reads
    assert!(read_hu(&edited(&s, t.path(), "ok.dcm", |_| {}), false).is_ok());
}

#[test]
fn an_orientation_that_is_not_direction_cosines_gives_no_order_by_position() {
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    fs::create_dir_all(&input).unwrap();
    for k in 0..3 {
        let mut s = ct(&format!("1.2.3.{k}"), (2 - k) as f64);
        s.instance_number = Some(k + 1);
        s.orientation = Some([1e308, 0.0, 0.0, 0.0, 1e308, 0.0]);
        fs::write(input.join(format!("s{k}.dcm")), s.to_bytes().unwrap()).unwrap();
    }
    let (scans, _) =
        preprocess::pipeline::find_scans(std::slice::from_ref(&input), &Quiet).unwrap();
    assert_eq!(scans.len(), 1);
    let sc = &scans[0];
    assert_eq!(sc.ordered_by, preprocess::scan::OrderedBy::InstanceNumber);
    assert!(sc.z.iter().all(Option::is_none));
    assert!(
        sc.warnings.iter().any(|w| w.contains("InstanceNumber")),
        "{:?}",
        sc.warnings
    );
}

#[test]
fn thousands_of_nested_sequences_cost_one_file_not_the_process() {
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
    let mut other = ct("1.2.9.1", 0.0);
    other.series_uid = "1.2.9".into();
    let clean = other.to_bytes().unwrap();
    // a modest nesting is a real data set and reads
    let ok = input.join("nested-10.dcm");
    fs::write(&ok, nested_sequences(&clean, 10).unwrap()).unwrap();
    assert!(read_hu(&ok, false).is_ok());
    fs::remove_file(&ok).unwrap();
    // 1,800 levels overflowed the stack (SIGABRT) before
    let deep = input.join("nested.dcm");
    fs::write(&deep, nested_sequences(&clean, 1800).unwrap()).unwrap();
    let e = preprocess::read::read_header(&deep).unwrap_err();
    assert!(
        e.to_string().contains("nested.dcm") && e.to_string().contains("nested deeper"),
        "{e}"
    );
    let opts = opts16();
    let s = preprocess(&[input], &t.path().join("ds"), &opts, &Quiet).unwrap();
    assert_eq!((s.scans_written, s.slices), (1, 3));
    assert!(s.skipped.files.iter().any(|f| f.contains("nested.dcm")));
}

#[test]
fn a_sparse_file_declaring_a_gigabyte_element_costs_a_bounded_read() {
    let t = tempfile::tempdir().unwrap();
    let clean = ct("1.2.3.1", 0.0).to_bytes().unwrap();
    // (0009,1010) OB of 1000 MiB, its bytes a hole in a sparse file (40 kB on disk)
    let p = t.path().join("sparse.dcm");
    sparse_element_file(&p, &clean, 1000).unwrap();
    LARGEST.with(|l| l.set(0));
    let e = preprocess::read::read_header(&p).unwrap_err();
    let largest = LARGEST.with(|l| l.get());
    assert!(matches!(e.problem, FileProblem::TooLarge { .. }), "{e}");
    assert!(e.to_string().contains("sparse.dcm"), "{e}");
    assert!(
        largest <= 130 << 20,
        "header pass allocated {largest} bytes at once"
    );
    let (r, largest) = read_measured(&p);
    assert!(matches!(
        r.unwrap_err().problem,
        FileProblem::TooLarge { .. }
    ));
    assert!(
        largest <= 260 << 20,
        "full read allocated {largest} bytes at once"
    );
    // a lower --max-file-mib refuses it before a byte is parsed
    let small = preprocess::read::Limits {
        max_file_bytes: 10 << 20,
        ..Default::default()
    };
    LARGEST.with(|l| l.set(0));
    let e = preprocess::read::read_header_within(&p, &small).unwrap_err();
    assert!(
        matches!(e.problem, FileProblem::TooLarge { what: "file", .. }),
        "{e}"
    );
    assert!(LARGEST.with(|l| l.get()) < 1 << 20);
}

#[test]
fn a_second_run_into_one_folder_keeps_the_first_runs_scans_and_a_running_writer_excludes_others() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    for (dir, series) in [(&a, "1.2.1"), (&b, "1.2.2")] {
        fs::create_dir_all(dir).unwrap();
        for k in 0..2 {
            let mut s = ct(&format!("{series}.{k}"), k as f64);
            s.series_uid = series.into();
            fs::write(dir.join(format!("s{k}.dcm")), s.to_bytes().unwrap()).unwrap();
        }
    }
    let opts = opts16();
    let out = t.path().join("ds");
    let s1 = preprocess(&[a], &out, &opts, &Quiet).unwrap();
    assert_eq!(s1.scans_written, 1);
    let s2 = preprocess(&[b], &out, &opts, &Quiet).unwrap();
    assert_eq!((s2.scans_written, s2.scans_kept), (1, 1));
    let ds = preprocess::dataset::Dataset::open(&out).unwrap();
    assert_eq!(ds.manifest.scans.len(), 2, "both runs' scans listed");
    // another writer holding the folder: refused, nothing changed
    let holder = milbase::lock::DirLock::take(&out, "predict").unwrap();
    let e = preprocess(&[t.path().join("b")], &out, &opts, &Quiet).unwrap_err();
    assert!(e.to_string().contains("another ich process"), "{e}");
    drop(holder);
    if cfg!(target_os = "linux") {
        // the lock file of an older ich, a bare PID, naming a process that is not ich (PID 1
        // runs on every Linux): a dead writer's, taken over
        fs::write(out.join(milbase::lock::LOCK_FILE), "1").unwrap();
        preprocess(&[t.path().join("b")], &out, &opts, &Quiet).unwrap();
    }
}

/// NIfTI headers declaring 600 MB of voxels over a file of a few kB (plain, or a gzip stream far
/// beyond any real compression ratio): refused by name, and the largest single allocation made
/// while reading stays at what the file holds.
#[test]
fn nifti_declaring_more_than_its_file_holds_is_refused_before_allocating() {
    let dir = tempfile::tempdir().unwrap();
    let affine = [
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, 5.0, 0.0],
    ];
    let small = dir.path().join("small.nii");
    testkit::nifti::write_int16(&small, [8, 8, 2], &[0; 128], &affine, 1.0, 0.0).unwrap();
    let mut b = fs::read(&small).unwrap();
    // 512 × 512 × 1200 int16: 600 MiB declared, 128 voxels present
    b[42..44].copy_from_slice(&512i16.to_le_bytes());
    b[44..46].copy_from_slice(&512i16.to_le_bytes());
    b[46..48].copy_from_slice(&1200i16.to_le_bytes());
    let plain = dir.path().join("declares-600-mib.nii");
    fs::write(&plain, &b).unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut e, &b).unwrap();
    let gz = dir.path().join("declares-600-mib.nii.gz");
    fs::write(&gz, e.finish().unwrap()).unwrap();
    for (p, why) in [(&plain, "truncated"), (&gz, "decompression bomb")] {
        LARGEST.with(|l| l.set(0));
        let r = preprocess::nifti::read_volume(p, &preprocess::read::Limits::default());
        let largest = LARGEST.with(|l| l.get());
        let e = r.unwrap_err().to_string();
        assert!(e.contains(s(p)) && e.contains(why), "{e}");
        assert!(
            largest < 1 << 20,
            "{}: largest allocation {largest} bytes",
            p.display()
        );
    }
}

/// A 4 kB sparse `.nii` that does hold the 256 MiB of voxels its header declares (512³ int16),
/// stored axially and sagittally: taken a slice at a time, the largest single allocation is about
/// one slice in floats (1 MiB) for axial storage, and one batch of stored voxels
/// (`nifti::BATCH_BYTES`, 64 MiB) for sagittal storage, never the volume.
#[test]
fn a_nifti_volume_is_read_a_slice_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let axial = [
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ];
    // file i runs feet to head, j right to left, k front to back: slices along the fastest axis
    let sagittal = [
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, -1.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
    ];
    for (name, affine, most) in [
        ("axial-256-mib.nii", axial, 2usize << 20),
        (
            "sagittal-256-mib.nii",
            sagittal,
            preprocess::nifti::BATCH_BYTES + (2 << 20),
        ),
    ] {
        let small = dir.path().join("small.nii");
        testkit::nifti::write_int16(&small, [8, 8, 2], &[0; 128], &affine, 1.0, 0.0).unwrap();
        let mut b = fs::read(&small).unwrap();
        for a in 0..3 {
            b[42 + 2 * a..44 + 2 * a].copy_from_slice(&512i16.to_le_bytes());
        }
        let vox_offset = f32::from_le_bytes(b[108..112].try_into().unwrap()) as u64;
        b.truncate(vox_offset as usize);
        let p = dir.path().join(name);
        fs::write(&p, &b).unwrap();
        fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(vox_offset + (512u64 * 512 * 512 * 2))
            .unwrap();
        let g = preprocess::nifti::read_geometry(&p, &preprocess::read::Limits::default()).unwrap();
        assert_eq!(
            g.slice_axis,
            usize::from(name.starts_with("axial")) * 2,
            "{name}"
        );
        LARGEST.with(|l| l.set(0));
        let mut seen = vec![false; 512];
        preprocess::nifti::for_each_slice(&p, &preprocess::read::Limits::default(), |t, img| {
            assert_eq!(img.hu.len(), 512 * 512);
            assert!(!seen[t], "{name}: slice {t} twice");
            seen[t] = true;
        })
        .unwrap();
        let largest = LARGEST.with(|l| l.get());
        assert!(seen.iter().all(|&x| x), "{name}: a slice missing");
        assert!(
            largest <= most,
            "{name}: largest allocation {largest} bytes"
        );
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A scan decoded a few slices at a time hands over exactly the floats of the whole decode, in
/// order, in chunks of at most `every` slices, and returns none of them itself (what lets
/// predict encode a 238-slice 512² series without holding its 748 MB of window values).
#[test]
fn a_scan_decoded_in_chunks_gives_the_floats_of_the_whole_decode() {
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    fs::create_dir_all(&input).unwrap();
    for k in 0..7 {
        let mut s = ct(&format!("1.2.3.{k}"), k as f64);
        // each slice its own values, so that order and place show
        s.stored = (0..256).map(|i| 900 + 13 * k + (i % 50)).collect();
        fs::write(input.join(format!("s{k}.dcm")), s.to_bytes().unwrap()).unwrap();
    }
    let (scans, _) = preprocess::pipeline::find_scans(&[input], &Quiet).unwrap();
    let config = opts16().config;
    let limits = preprocess::read::Limits::default();
    let skipped = std::sync::Mutex::new(preprocess::dataset::Skipped::default());
    let (_, whole, _) = preprocess::pipeline::decode_scan_float_viewed(
        &scans[0], &config, &limits, false, &Quiet, &skipped,
    )
    .unwrap();
    let per = 3 * 16 * 16;
    assert_eq!(whole.len(), 7 * per);
    let mut got: Vec<f32> = Vec::new();
    let mut sizes = Vec::new();
    let (meta, rest, views) = preprocess::pipeline::decode_scan_float_streamed(
        &scans[0],
        &config,
        &limits,
        false,
        (&Quiet, &skipped),
        3,
        &mut |chunk: &[f32]| {
            sizes.push(chunk.len() / per);
            got.extend_from_slice(chunk);
            Ok(())
        },
    )
    .unwrap();
    assert!(rest.is_empty());
    assert_eq!(sizes, vec![3, 3, 1]);
    assert_eq!(got, whole);
    assert_eq!((meta.n_slices, views.len()), (7, 7));
}

/// A thin series read as slabs: each run of `k` neighbouring slices becomes one slice that is
/// their mean in Hounsfield units (the last run may be shorter), named by its middle slice. The
/// expected slab is a slice written with the mean's stored values, decoded alone.
#[test]
fn a_series_read_as_slabs_gives_the_mean_of_each_run_of_slices() {
    let t = tempfile::tempdir().unwrap();
    let (input, single) = (t.path().join("in"), t.path().join("single"));
    fs::create_dir_all(&input).unwrap();
    fs::create_dir_all(&single).unwrap();
    // slabs of 3: {1000, 1030, 1090} (mean 1040), {1200, 1210, 1220} (mean 1210), {990}
    let values = [1000, 1030, 1090, 1200, 1210, 1220, 990];
    for (k, v) in values.iter().enumerate() {
        let mut s = ct(&format!("1.2.3.{k}"), k as f64 * 0.625);
        // a pixel's own offset, the same in every slice, so that the image is not flat
        s.stored = (0..256).map(|i| v + (i % 7) * 10).collect();
        fs::write(input.join(format!("s{k}.dcm")), s.to_bytes().unwrap()).unwrap();
    }
    let config = opts16().config;
    let limits = preprocess::read::Limits::default();
    let skipped = std::sync::Mutex::new(preprocess::dataset::Skipped::default());
    let decode = |dir: &std::path::Path, slab: usize| {
        let (scans, _) = preprocess::pipeline::find_scans(&[dir.to_path_buf()], &Quiet).unwrap();
        let scan = scans.into_iter().next().unwrap().into_slabs(slab);
        preprocess::pipeline::decode_scan_float_viewed(
            &scan, &config, &limits, false, &Quiet, &skipped,
        )
        .unwrap()
    };
    let (meta, got, views) = decode(&input, 3);
    let per = 3 * 16 * 16;
    assert_eq!((meta.n_slices, views.len(), got.len()), (3, 3, 3 * per));
    let named: Vec<&str> = meta
        .slices
        .iter()
        .map(|s| s.sop_instance_uid.as_str())
        .collect();
    assert_eq!(named, ["1.2.3.1", "1.2.3.4", "1.2.3.6"]);
    assert_eq!(meta.slices[1].z, Some(4.0 * 0.625));
    for (row, mean) in [1040, 1210, 990].into_iter().enumerate() {
        let f = single.join(format!("m{row}"));
        fs::create_dir_all(&f).unwrap();
        let mut s = ct("1.2.9", 0.0);
        s.stored = (0..256).map(|i| mean + (i % 7) * 10).collect();
        fs::write(f.join("m.dcm"), s.to_bytes().unwrap()).unwrap();
        let (_, want, _) = decode(&f, 1);
        let slab = &got[row * per..(row + 1) * per];
        let worst = slab
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(worst < 1e-5, "slab {row}: off by {worst}");
    }
    // read slice by slice, the same series gives its 7 slices
    let (meta, _, _) = decode(&input, 1);
    assert_eq!(meta.n_slices, 7);
}

/// A thin NIfTI volume read as slabs, as a DICOM series is: each run of `k` neighbouring slices
/// is their mean in Hounsfield units (checked against the mean written as one DICOM slice and
/// decoded alone), named by its middle slice, and labelled by its slices (a bleed on any slice of
/// a slab, its middle one or not, makes the slab a bleed). The volume is stored head first, so
/// its slices come superior first and each slab is summed from its top.
#[test]
fn a_nifti_volume_read_as_slabs_gives_the_mean_of_each_run_of_slices_and_their_labels() {
    let t = tempfile::tempdir().unwrap();
    let (input, single) = (t.path().join("in"), t.path().join("single"));
    fs::create_dir_all(&input).unwrap();
    // the same slabs of 3 as the DICOM test: means 1040, 1210, 990 (stored; HU is −1024)
    let values = [1000, 1030, 1090, 1200, 1210, 1220, 990];
    let n = values.len();
    let mut v = vec![0i16; 16 * 16 * n];
    for (z, val) in values.iter().enumerate() {
        let k = n - 1 - z; // head first: the file's slice k is the z-th from the feet
        for i in 0..256 {
            let (r, c) = (i / 16, i % 16);
            v[c + 16 * (r + 16 * k)] = (val + (i as i32 % 7) * 10 - 1024) as i16;
        }
    }
    // LPS in-plane as the DICOM slices (1 mm), 0.625 mm apart, k running head to feet
    let affine = [
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, -0.625, 0.625 * (n - 1) as f64],
    ];
    let file = input.join("thin.nii.gz");
    testkit::nifti::write_int16(&file, [16, 16, n], &v, &affine, 1.0, 0.0).unwrap();
    // slabs (file slices): {6, 5, 4}, {3, 2, 1}, {0}. The first has bleeds on 6 and 4, neither
    // its middle; the second a 0 on its middle only; the third, a slice of its own, a 0
    let labels_csv = t.path().join("slice_labels.csv");
    fs::write(
        &labels_csv,
        "nifti,slice,label,subtype\nthin.nii.gz,6,1,subdural\nthin.nii.gz,5,0,none\n\
         thin.nii.gz,4,1,epidural\nthin.nii.gz,2,0,none\nthin.nii.gz,0,0,none\n",
    )
    .unwrap();
    let mut labels = preprocess::labels::Labels::default();
    labels.load(&labels_csv).unwrap();
    let config = opts16().config;
    let limits = preprocess::read::Limits::default();
    let skipped = std::sync::Mutex::new(preprocess::dataset::Skipped::default());
    let (scans, _) =
        preprocess::pipeline::find_scans(std::slice::from_ref(&input), &Quiet).unwrap();
    let scan = scans.into_iter().next().unwrap().into_slabs(3);
    assert_eq!(scan.rows(), 3);
    let (mut meta, got, views) = preprocess::pipeline::decode_scan_float_viewed(
        &scan, &config, &limits, false, &Quiet, &skipped,
    )
    .unwrap();
    let per = 3 * 16 * 16;
    assert_eq!((meta.n_slices, views.len(), got.len()), (3, 3, 3 * per));
    // named by the middle slice: z 1, 4, 6 (file slices 5, 2, 0); each with its slab's slices
    let named: Vec<Option<usize>> = meta.slices.iter().map(|s| s.volume_index).collect();
    assert_eq!(named, [Some(5), Some(2), Some(0)]);
    let members: Vec<&[usize]> = meta.slices.iter().map(|s| &s.volume_slab_of[..]).collect();
    assert_eq!(members, [&[6, 5, 4][..], &[3, 2, 1], &[0]]);
    for (row, mean) in [1040, 1210, 990].into_iter().enumerate() {
        let f = single.join(format!("m{row}"));
        fs::create_dir_all(&f).unwrap();
        let mut s = ct("1.2.9", 0.0);
        s.stored = (0..256).map(|i| mean + (i % 7) * 10).collect();
        fs::write(f.join("m.dcm"), s.to_bytes().unwrap()).unwrap();
        let (scans, _) =
            preprocess::pipeline::find_scans(std::slice::from_ref(&f), &Quiet).unwrap();
        let (_, want, _) = preprocess::pipeline::decode_scan_float_viewed(
            &scans[0], &config, &limits, false, &Quiet, &skipped,
        )
        .unwrap();
        let slab = &got[row * per..(row + 1) * per];
        let worst = slab
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(worst < 1e-5, "slab {row}: off by {worst}");
    }
    preprocess::pipeline::apply_labels(&mut meta, &labels).unwrap();
    let got: Vec<(Option<u8>, Option<&str>)> = meta
        .slices
        .iter()
        .map(|s| (s.label, s.subtype.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(1), Some("epidural;subdural")),
            (Some(0), Some("none")),
            (Some(0), Some("none"))
        ]
    );
    assert_eq!(meta.label, Some(1));
    // a row beyond the volume's 7 slices still fails it, though no slab is named by slice 6
    fs::write(&labels_csv, "nifti,slice,label\nthin.nii.gz,7,1\n").unwrap();
    let mut beyond = preprocess::labels::Labels::default();
    beyond.load(&labels_csv).unwrap();
    let e = preprocess::pipeline::apply_labels(&mut meta, &beyond).unwrap_err();
    assert!(e.contains("beyond its 7 slices"), "{e}");
}
