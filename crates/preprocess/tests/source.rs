//! One way in for each input: a volume format other than NIfTI, written here and listed nowhere
//! else, goes through decoding, slabs and labels by its [`VolumeFormat`] alone, and reads as the
//! NIfTI file of the same voxels does.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use preprocess::dataset::{ScanMeta, Skipped};
use preprocess::labels::{Labels, Wanted};
use preprocess::pipeline::{apply_labels, decode_scan};
use preprocess::read::{HuImage, Limits, SliceHeader};
use preprocess::scan::{volume_scan, Scan};
use preprocess::source::{VolumeFormat, VolumeHeader, VolumeSlice};
use preprocess::{FileError, FileProblem, PreprocessConfig, Quiet};

/// A made-up format: `CTRAW1`, rows, columns and slices (u16 LE), pixel spacing and slice
/// thickness (f32 LE, mm), then each slice's Hounsfield units (i16 LE, row by row), inferior
/// first, the first pixel of slice `k` at (0, 0, k × thickness) in DICOM's patient coordinates.
#[derive(Debug)]
struct CtRaw;

const MAGIC: &[u8; 6] = b"CTRAW1";
const HEAD: usize = 6 + 3 * 2 + 2 * 4;

struct RawHead {
    rows: usize,
    cols: usize,
    n: usize,
    spacing: f64,
    thickness: f64,
}

fn refused(path: &Path, why: &str) -> FileError {
    FileError::new(
        path,
        FileProblem::Volume {
            format: "CTRAW",
            why: why.into(),
        },
    )
}

impl CtRaw {
    fn head(&self, path: &Path, limits: &Limits) -> Result<RawHead, FileError> {
        let mut b = [0u8; HEAD];
        std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut b))
            .map_err(|_| refused(path, "shorter than its header"))?;
        if &b[..6] != MAGIC {
            return Err(refused(path, "not a CTRAW1 file"));
        }
        let u = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]) as usize;
        let f = |at: usize| f32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as f64;
        let h = RawHead {
            rows: u(6),
            cols: u(8),
            n: u(10),
            spacing: f(12),
            thickness: f(16),
        };
        let want = (HEAD + 2 * h.rows * h.cols * h.n) as u64;
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if size != want || want > limits.max_file_bytes {
            return Err(refused(path, "its size is not what its header declares"));
        }
        Ok(h)
    }
}

impl VolumeFormat for CtRaw {
    fn name(&self) -> &'static str {
        "CTRAW"
    }

    fn claims(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "ctraw")
    }

    fn header(&self, path: &Path, limits: &Limits) -> Result<VolumeHeader, FileError> {
        let h = self.head(path, limits)?;
        let slices: Vec<SliceHeader> = (0..h.n)
            .map(|k| {
                VolumeSlice {
                    index: k,
                    rows: h.rows as u16,
                    cols: h.cols as u16,
                    position: [0.0, 0.0, k as f64 * h.thickness],
                    orientation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
                    pixel_spacing: [h.spacing, h.spacing],
                    thickness: h.thickness,
                }
                .header(path)
            })
            .collect();
        Ok(VolumeHeader {
            slices,
            z: (0..h.n).map(|k| k as f64 * h.thickness).collect(),
            warnings: Vec::new(),
        })
    }

    fn for_each_slice(
        &self,
        path: &Path,
        limits: &Limits,
        each: &mut dyn FnMut(usize, HuImage),
    ) -> Result<Vec<String>, FileError> {
        let h = self.head(path, limits)?;
        let bytes = std::fs::read(path).map_err(|e| FileError::new(path, e))?;
        let plane = h.rows * h.cols;
        for k in 0..h.n {
            let at = HEAD + 2 * k * plane;
            let hu = bytes[at..at + 2 * plane]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]) as f32)
                .collect();
            each(
                k,
                HuImage {
                    rows: h.rows,
                    cols: h.cols,
                    hu,
                },
            );
        }
        Ok(Vec::new())
    }
}

const ROWS: usize = 24;
const COLS: usize = 20;
const SLICES: usize = 6;

/// Hounsfield units of voxel (k, r, c): a head-like ramp with a bright spot that moves.
fn hu(k: usize, r: usize, c: usize) -> i16 {
    let base = -1000 + (r * 37 + c * 11) as i16 % 1100;
    if r == 2 * k + 3 && c == k + 4 {
        70
    } else {
        base
    }
}

fn voxels() -> Vec<i16> {
    let mut v = Vec::with_capacity(SLICES * ROWS * COLS);
    for k in 0..SLICES {
        for r in 0..ROWS {
            for c in 0..COLS {
                v.push(hu(k, r, c));
            }
        }
    }
    v
}

/// The same voxels as CTRAW and as NIfTI (first index the column, toward the patient's left;
/// then the row, toward posterior; then the slice, toward superior: RAS affine −0.8, −0.8, 5).
fn write_both(dir: &Path) -> (PathBuf, PathBuf) {
    let raw = dir.join("sub-01/ct.ctraw");
    std::fs::create_dir_all(raw.parent().unwrap()).unwrap();
    let mut b = MAGIC.to_vec();
    for d in [ROWS, COLS, SLICES] {
        b.extend_from_slice(&(d as u16).to_le_bytes());
    }
    b.extend_from_slice(&0.8f32.to_le_bytes());
    b.extend_from_slice(&5.0f32.to_le_bytes());
    for v in voxels() {
        b.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(&raw, b).unwrap();
    let nii = dir.join("sub-01/ct.nii");
    let affine = [
        [-0.8, 0.0, 0.0, 0.0],
        [0.0, -0.8, 0.0, 0.0],
        [0.0, 0.0, 5.0, 0.0],
    ];
    testkit::nifti::write_int16(&nii, [COLS, ROWS, SLICES], &voxels(), &affine, 1.0, 0.0).unwrap();
    (raw, nii)
}

fn scan_of(format: &'static dyn VolumeFormat, path: &Path, inputs: &[PathBuf]) -> Scan {
    let header = format.header(path, &Limits::default()).unwrap();
    volume_scan(format, preprocess::source::name_under(path, inputs), header)
}

fn decoded(scan: &Scan) -> (ScanMeta, Vec<u8>) {
    let config = PreprocessConfig {
        size: 16,
        ..Default::default()
    };
    let skipped = Mutex::new(Skipped::default());
    decode_scan(scan, &config, &Limits::default(), false, &Quiet, &skipped).unwrap()
}

/// A new format is one implementation of `VolumeFormat`: the scan it makes decodes to the very
/// pixels, positions and slice indices of the NIfTI file of the same voxels, read as slices or
/// as slabs, known by its own name (its id salted with its format's).
#[test]
fn a_volume_format_other_than_nifti_decodes_as_the_nifti_of_its_voxels() {
    let dir = tempfile::tempdir().unwrap();
    let (raw, nii) = write_both(dir.path());
    let inputs = [dir.path().to_path_buf()];
    let (r, n) = (
        scan_of(&CtRaw, &raw, &inputs),
        scan_of(&preprocess::nifti::Nifti, &nii, &inputs),
    );
    assert_eq!(r.source.volume_name(), Some("sub-01/ct.ctraw"));
    assert_ne!(r.id, n.id, "two files, two scans");
    assert_eq!(r.z, n.z);
    for slab in [1, 2, 4] {
        let (r, n) = (r.clone().into_slabs(slab), n.clone().into_slabs(slab));
        let ((rm, rd), (nm, nd)) = (decoded(&r), decoded(&n));
        assert_eq!(rd, nd, "pixels, slabs of {slab}");
        assert_eq!(rm.n_slices, SLICES.div_ceil(slab));
        assert_eq!(rm.volume.as_deref(), Some("sub-01/ct.ctraw"));
        let index = |m: &ScanMeta| -> Vec<(Option<usize>, Vec<usize>, Option<f64>)> {
            m.slices
                .iter()
                .map(|s| (s.volume_index, s.volume_slab_of.clone(), s.z))
                .collect()
        };
        assert_eq!(index(&rm), index(&nm), "slabs of {slab}");
        assert!(rm.slices.iter().all(|s| s.sop_instance_uid.is_empty()));
    }
}

/// Labels key a volume by its name whatever its format: rows for the CTRAW file land on its
/// slices (and slabs), a row for the NIfTI file of the same folder does not, and a row beyond
/// its slices fails it by name, as for NIfTI. (A format listed in `VOLUME_FORMATS` is labelled
/// in a column of its own name; this one, made for the test, is not listed, so its rows come in
/// the `nifti` column.)
#[test]
fn labels_find_a_volume_of_any_format_by_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let (raw, _) = write_both(dir.path());
    let inputs = [dir.path().to_path_buf()];
    let scan = scan_of(&CtRaw, &raw, &inputs);
    let csv = dir.path().join("slices.csv");
    let mut rows = String::from("nifti,slice,label\n");
    for k in 0..SLICES {
        rows += &format!("sub-01/ct.ctraw,{k},{}\n", u8::from(k == 3));
    }
    rows += "sub-01/ct.nii,0,1\n";
    std::fs::write(&csv, rows).unwrap();
    let mut labels = Labels::only(Wanted::of(std::slice::from_ref(&scan)));
    labels.load(&csv).unwrap();
    assert_eq!(
        labels.n_slices(),
        SLICES,
        "the other file's row is not this run's"
    );

    let (mut meta, _) = decoded(&scan);
    apply_labels(&mut meta, &labels).unwrap();
    let got: Vec<Option<u8>> = meta.slices.iter().map(|s| s.label).collect();
    assert_eq!(got, [0, 0, 0, 1, 0, 0].map(Some));
    assert_eq!(meta.label, Some(1));

    let (mut meta, _) = decoded(&scan.clone().into_slabs(2));
    apply_labels(&mut meta, &labels).unwrap();
    let got: Vec<Option<u8>> = meta.slices.iter().map(|s| s.label).collect();
    assert_eq!(
        got,
        [0, 1, 0].map(Some),
        "a slab is positive when a slice of it is"
    );

    std::fs::write(&csv, "nifti,slice,label\nsub-01/ct.ctraw,6,1\n").unwrap();
    let mut beyond = Labels::only(Wanted::of(std::slice::from_ref(&scan)));
    beyond.load(&csv).unwrap();
    let (mut meta, _) = decoded(&scan);
    let e = apply_labels(&mut meta, &beyond).unwrap_err();
    assert!(
        e.contains("slice 6 of sub-01/ct.ctraw") && e.contains("line 2"),
        "{e}"
    );
}

/// A file the format refuses is named, in its format's words.
#[test]
fn a_refused_volume_names_its_format() {
    let dir = tempfile::tempdir().unwrap();
    let (raw, _) = write_both(dir.path());
    let bytes = std::fs::read(&raw).unwrap();
    std::fs::write(&raw, &bytes[..bytes.len() - 1]).unwrap();
    let e = CtRaw.header(&raw, &Limits::default()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("ct.ctraw") && text.contains("CTRAW: its size"),
        "{text}"
    );
}
