//! The dataset written by `ich preprocess` (format documented in `docs/DATASET.md`).
//!
//! ```text
//! DATASET/
//!   dataset.json          manifest: format version, preprocessing config, scans, skipped files
//!   scans/<id>.npz        NumPy archive with one array `x`: uint8 [slices, 3, size, size]
//!   scans/<id>.json       per-scan metadata: UIDs, slice order, z positions, labels, sources
//! ```
//! Channel `c` of `x` is `round(255 · window_c(HU))`; slices are in z order (inferior → superior for
//! axial scans).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::scan::OrderedBy;
use crate::window::Windows;

/// Version of the dataset layout; readers refuse other versions.
pub const FORMAT_VERSION: u32 = 1;

/// Everything that determines the pixels of a dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreprocessConfig {
    /// Brain, blood/subdural and soft-tissue windows (channels 0, 1, 2).
    pub windows: Windows,
    /// Output slices are `size × size`.
    pub size: usize,
    /// Resampling filter: `triangle` (antialiased bilinear, ich's default) or `bilinear`
    /// (OpenCV's `INTER_LINEAR`, no antialiasing: the `sa-dmil` preset, as its authors resized).
    pub filter: String,
    /// Whether the RSNA 12-bit wrap-around fix is applied where the header matches.
    pub rsna_fix: bool,
    /// Window first, then resample the windowed values (the `sa-dmil` preset: its authors'
    /// `cv2.resize(bsb_window(dcm), …)`); otherwise the Hounsfield units are resampled and then
    /// windowed (ich's default). The orders differ wherever a slice is not `size²`: a narrow
    /// window (30/30) turns the interpolated units at every tissue edge into other values.
    /// Absent in configs written before it existed (then false), so their fingerprints hold.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub window_first: bool,
}

impl Default for PreprocessConfig {
    fn default() -> Self {
        Self {
            windows: Windows::default(),
            size: 256,
            filter: "triangle".into(),
            rsna_fix: true,
            window_first: false,
        }
    }
}

impl PreprocessConfig {
    /// Checks values a hand-edited or hostile manifest may hold: size within 16..=4096, a known
    /// filter, windows of finite level and positive finite width.
    pub fn validate(&self) -> std::result::Result<(), String> {
        if !(16..=4096).contains(&self.size) {
            return Err(format!("slice size {} is not within 16..=4096", self.size));
        }
        if !["triangle", "bilinear"].contains(&self.filter.as_str()) {
            return Err(format!(
                "resampling filter {:?} is not triangle or bilinear",
                self.filter
            ));
        }
        for w in self.windows.0 {
            if !(w.level.is_finite() && w.width.is_finite() && w.width > 0.0) {
                return Err(format!(
                    "window {}/{} needs a finite level and a positive finite width",
                    w.level, w.width
                ));
            }
        }
        Ok(())
    }

    /// The preprocessing the published SA-DMIL weights expect (Wu et al.'s notebook): 512²,
    /// brain `clip(HU, 0, 80)/80`, subdural `(clip(HU, −20, 180) + 20)/200`, soft
    /// `(clip(HU, 15, 45) − 15)/30` (windows 40/80, 80/200, 30/30), OpenCV's bilinear resize
    /// (`cv2.resize`, half-pixel centres, no antialiasing) of the *windowed* values when a slice
    /// is not 512² (the notebook's `cv2.resize(bsb_window(dcm), (512, 512))`: window, then
    /// resize), and no RSNA wrap-around fix (the authors applied none).
    pub fn sa_dmil() -> Self {
        Self {
            windows: Windows::SA_DMIL,
            size: 512,
            filter: "bilinear".into(),
            rsna_fix: false,
            window_first: true,
        }
    }

    /// A named preset: `ich` (the default) or `sa-dmil`.
    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "ich" => Some(Self::default()),
            "sa-dmil" => Some(Self::sa_dmil()),
            _ => None,
        }
    }

    /// A short hash of the config: scans written under another config are redone.
    pub fn fingerprint(&self) -> String {
        let json = serde_json::to_vec(self).expect("config serialises");
        let d = Sha256::digest(json);
        d[..8].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// One slice of a scan, in z order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SliceMeta {
    pub sop_instance_uid: String,
    /// Position along the slice normal, mm.
    pub z: Option<f64>,
    pub instance_number: Option<i64>,
    /// The file it came from, as given on the command line.
    pub source: String,
    pub label: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,
    /// Slices of a volume file (NIfTI): the slice's index along the file's slice axis, as stored
    /// (0-based; what nibabel's `img.dataobj[..., k]` indexes for an axial NIfTI volume); slice
    /// labels use it. Written as `nifti_index`, the name it has had since NIfTI was the only
    /// volume format.
    #[serde(
        rename = "nifti_index",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub volume_index: Option<usize>,
    /// A row read as a slab (the mean of neighbouring slices, see
    /// [`crate::scan::Scan::slab`]): the SOPInstanceUIDs of the DICOM slices averaged, in z
    /// order. Empty for a slice read as it is, and for a volume (see `volume_slab_of`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slab_of: Vec<String>,
    /// A volume's row read as a slab: the indices along the file's slice axis (as
    /// `volume_index`) of the slices averaged, in z order. Written as `nifti_slab_of`.
    #[serde(
        rename = "nifti_slab_of",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    pub volume_slab_of: Vec<usize>,
}

/// Metadata of one scan (`scans/<id>.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScanMeta {
    pub format_version: u32,
    pub id: String,
    pub study_instance_uid: String,
    pub series_instance_uid: String,
    pub label: Option<u8>,
    pub n_slices: usize,
    pub size: usize,
    pub original_rows: u16,
    pub original_cols: u16,
    pub pixel_spacing: Option<[f64; 2]>,
    pub slice_thickness: Option<f64>,
    pub ordered_by: OrderedBy,
    pub config_fingerprint: String,
    /// Pixel file, relative to the dataset folder.
    pub pixels: String,
    pub warnings: Vec<String>,
    pub slices: Vec<SliceMeta>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patient_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patient_id: Option<String>,
    /// Scans read from a volume file (NIfTI): its path under the input it was found in (no UIDs
    /// then; see [`crate::source::Volume::name`]). Written as `nifti`.
    #[serde(rename = "nifti", default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// The series' SeriesDescription (its first kept slice's), as the scanner wrote it (the
    /// protocol, e.g. "HEAD 5mm"); absent when the files have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_description: Option<String>,
}

/// A scan's entry in the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScanEntry {
    pub id: String,
    pub label: Option<u8>,
    pub n_slices: usize,
    pub pixels: String,
    pub meta: String,
}

/// Files that were not used, by reason.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// reason → count
    pub counts: std::collections::BTreeMap<String, usize>,
    /// `path: message` for every skipped file (non-CT series are counted only).
    pub files: Vec<String>,
}

impl Skipped {
    /// Adds `other`'s counts and files to these.
    pub fn absorb(&mut self, other: Skipped) {
        for (reason, n) in other.counts {
            *self.counts.entry(reason).or_default() += n;
        }
        self.files.extend(other.files);
    }
}

/// `dataset.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format_version: u32,
    pub tool: String,
    pub config: PreprocessConfig,
    pub scans: Vec<ScanEntry>,
    pub skipped: Skipped,
    /// `I/N` when `ich preprocess --shard I/N` wrote this dataset: the scans whose id falls in
    /// bucket I of N (`milbase::shard`); absent for a whole cohort, and after `ich merge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Present when `ich merge` wrote this dataset: what it joined, and the shards a partial
    /// merge went without (so a dataset short of shards says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergeNote>,
}

/// What `ich merge` joined into a dataset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergeNote {
    /// N of the shards `I/N`.
    pub shard_count: usize,
    /// The shards left out (`--partial`); empty for a whole cohort.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_shards: Vec<usize>,
}

/// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    milbase::write_atomic(path, bytes).map_err(|e| Error::io(path, e))
}

/// Writes JSON atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let bytes = serde_json::to_vec_pretty(value).map_err(|e| Error::format(path, e.to_string()))?;
    write_atomic(path, &bytes)
}

/// Reads JSON.
/// Reads JSON, parsed as it is read: a file that is not JSON costs the bytes read up to the
/// first wrong one, not its size (a sparse gigabyte of zeros is refused at its first byte).
pub fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let r = milbase::bounded::open_regular_reader(path, milbase::bounded::MAX_JSON)
        .map_err(|e| Error::io(path, e))?;
    serde_json::from_reader(r).map_err(|e| Error::format(path, e.to_string()))
}

/// Encodes a C-order uint8 array as `.npy` (format 1.0).
pub fn npy_u8(shape: &[usize], data: &[u8]) -> Vec<u8> {
    let header = npy_u8_header(shape, data.len());
    let mut out = Vec::with_capacity(header.len() + data.len());
    out.extend_from_slice(&header);
    out.extend_from_slice(data);
    out
}

/// The bytes of a `.npy` (format 1.0) file before the data of a C-order uint8 array of `shape`
/// holding `len` bytes.
fn npy_u8_header(shape: &[usize], len: usize) -> Vec<u8> {
    assert_eq!(
        shape.iter().product::<usize>(),
        len,
        "npy: shape does not match data"
    );
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape_txt = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '|u1', 'fortran_order': False, 'shape': {shape_txt}, }}");
    // magic(6) + version(2) + len(2) + header + '\n' must be a multiple of 64
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out
}

/// Decodes a `.npy` uint8 array in C order: (shape, data).
pub fn parse_npy_u8(bytes: &[u8]) -> std::result::Result<(Vec<usize>, Vec<u8>), String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy array".into());
    }
    let (hlen, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(format!("unsupported .npy version {v}")),
    };
    let header = bytes
        .get(start..start + hlen)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or("truncated .npy header")?;
    if !header.contains("'|u1'") && !header.contains("'<u1'") {
        return Err(format!("expected uint8 data, header {header}"));
    }
    if header.contains("'fortran_order': True") {
        return Err("Fortran-order arrays are not supported".into());
    }
    let shape_txt = header
        .split("'shape':")
        .nth(1)
        .and_then(|s| s.split('(').nth(1))
        .and_then(|s| s.split(')').next())
        .ok_or("no shape in .npy header")?;
    let shape: Vec<usize> = shape_txt
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<usize>()
                .map_err(|e| format!("bad shape '{shape_txt}': {e}"))
        })
        .collect::<std::result::Result<_, _>>()?;
    let data = &bytes[start + hlen..];
    let n: usize = shape.iter().product();
    if data.len() != n {
        return Err(format!("{} bytes of data for shape {shape:?}", data.len()));
    }
    Ok((shape, data.to_vec()))
}

/// Writes a scan's pixels, uint8 `[slices, 3, size, size]`, as `x` in an `.npz` (deflate level
/// 1), atomically.
pub fn write_npz(path: &Path, shape: &[usize], data: &[u8]) -> Result<()> {
    write_npz_with(path, shape, data, true)
}

/// As [`write_npz`]; `compress` false stores the array uncompressed.
pub fn write_npz_with(path: &Path, shape: &[usize], data: &[u8], compress: bool) -> Result<()> {
    // room for the whole array up front: growing the buffer by doubling copied it and faulted in
    // fresh pages each time (untouched capacity costs nothing)
    let mut buf = std::io::Cursor::new(Vec::with_capacity(data.len() + 4096));
    {
        let mut zip = zip::ZipWriter::new(&mut buf);
        let base = zip::write::SimpleFileOptions::default();
        let opts = if compress {
            base.compression_method(zip::CompressionMethod::Deflated)
                .compression_level(Some(1))
        } else {
            base.compression_method(zip::CompressionMethod::Stored)
        }
        .large_file(data.len() > u32::MAX as usize / 2);
        let io = |e: zip::result::ZipError| Error::format(path, e.to_string());
        zip.start_file("x.npy", opts).map_err(io)?;
        // header, then the pixels straight from the caller's buffer (no joined copy)
        zip.write_all(&npy_u8_header(shape, data.len()))
            .and_then(|()| zip.write_all(data))
            .map_err(|e| Error::io(path, e))?;
        zip.finish().map_err(io)?;
    }
    write_atomic(path, &buf.into_inner())
}

/// Reads array `x` of an `.npz` written by [`write_npz`] (or by `numpy.savez`).
pub fn read_npz(path: &Path, max_bytes: u64) -> Result<(Vec<usize>, Vec<u8>)> {
    let (f, _) = milbase::bounded::open_regular(path, u64::MAX).map_err(|e| Error::io(path, e))?;
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(f))
        .map_err(|e| Error::format(path, e.to_string()))?;
    let entry = zip
        .by_name("x.npy")
        .map_err(|e| Error::format(path, format!("no array x: {e}")))?;
    // the declared size and the decompressed stream are both the file's word: read at most
    // `max_bytes` (what the manifest says the array holds), so a zip bomb costs nothing
    let declared = entry.size();
    if declared > max_bytes {
        return Err(Error::format(
            path,
            format!("array x declares {declared} bytes, the manifest allows {max_bytes}"),
        ));
    }
    let mut bytes = Vec::with_capacity(declared as usize);
    entry
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(Error::format(
            path,
            format!("array x holds more than the {max_bytes} bytes the manifest allows"),
        ));
    }
    parse_npy_u8(&bytes).map_err(|e| Error::format(path, e))
}

/// `rel` joined to `root` when it names a file inside `root` (relative, no `..`, no root or
/// drive); the error names `manifest` and the path.
pub fn inside(root: &Path, rel: &str, manifest: &Path) -> Result<PathBuf> {
    if milbase::stays_inside(rel) {
        Ok(root.join(rel))
    } else {
        Err(Error::format(
            manifest,
            format!("path {rel:?} points outside the dataset folder"),
        ))
    }
}

/// A dataset opened for reading.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub root: PathBuf,
    pub manifest: Manifest,
}

/// The pixels of one scan.
#[derive(Debug, Clone)]
pub struct ScanPixels {
    pub n_slices: usize,
    pub size: usize,
    /// uint8 `[slices, 3, size, size]`.
    pub data: Vec<u8>,
}

impl Dataset {
    pub fn open(root: &Path) -> Result<Self> {
        let path = root.join("dataset.json");
        let manifest: Manifest = read_json(&path)?;
        if manifest.format_version != FORMAT_VERSION {
            return Err(Error::format(
                &path,
                format!(
                    "dataset format version {} is not supported (this build reads version {FORMAT_VERSION})",
                    manifest.format_version
                ),
            ));
        }
        if !(1..=4096).contains(&manifest.config.size) {
            return Err(Error::format(
                &path,
                format!("slice size {} is outside 16..=4096", manifest.config.size),
            ));
        }
        if !crate::resample::FILTERS.contains(&manifest.config.filter.as_str()) {
            return Err(Error::format(
                &path,
                format!(
                    "resampling filter {:?} is not one of {:?}",
                    manifest.config.filter,
                    crate::resample::FILTERS
                ),
            ));
        }
        // every file the manifest names must lie inside the dataset folder, every label be 0 or 1
        for e in &manifest.scans {
            inside(root, &e.meta, &path)?;
            inside(root, &e.pixels, &path)?;
            if let Some(l) = e.label.filter(|&l| l > 1) {
                return Err(Error::format(
                    &path,
                    format!("scan {}: label {l} (scan labels are 0 or 1)", e.id),
                ));
            }
        }
        Ok(Self {
            root: root.to_path_buf(),
            manifest,
        })
    }

    fn manifest_path(&self) -> PathBuf {
        self.root.join("dataset.json")
    }

    pub fn scan_meta(&self, entry: &ScanEntry) -> Result<ScanMeta> {
        let path = inside(&self.root, &entry.meta, &self.manifest_path())?;
        let meta: ScanMeta = read_json(&path)?;
        let bad = meta
            .label
            .into_iter()
            .chain(meta.slices.iter().filter_map(|s| s.label))
            .find(|&l| l > 1);
        if let Some(l) = bad {
            return Err(Error::format(
                &path,
                format!("label {l} (labels are 0 or 1)"),
            ));
        }
        Ok(meta)
    }

    pub fn scan_pixels(&self, entry: &ScanEntry) -> Result<ScanPixels> {
        let path = inside(&self.root, &entry.pixels, &self.manifest_path())?;
        let size = self.manifest.config.size as u64;
        // the .npy header is at most a few hundred bytes
        let max = (entry.n_slices as u64)
            .saturating_mul(3 * size * size)
            .saturating_add(1 << 16);
        let (shape, data) = read_npz(&path, max)?;
        let size = self.manifest.config.size;
        if shape.len() != 4 || shape[1] != 3 || shape[2] != size || shape[3] != size {
            return Err(Error::format(
                &path,
                format!("array shape {shape:?}, expected [slices, 3, {size}, {size}]"),
            ));
        }
        Ok(ScanPixels {
            n_slices: shape[0],
            size,
            data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_header_is_aligned_and_round_trips() {
        let data: Vec<u8> = (0..24).collect();
        let bytes = npy_u8(&[2, 3, 4], &data);
        let hlen = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        assert_eq!((10 + hlen) % 64, 0);
        assert_eq!(bytes[10 + hlen - 1], b'\n');
        let (shape, back) = parse_npy_u8(&bytes).unwrap();
        assert_eq!(shape, vec![2, 3, 4]);
        assert_eq!(back, data);
        let one = npy_u8(&[5], &[1, 2, 3, 4, 5]);
        assert!(std::str::from_utf8(&one[10..])
            .unwrap()
            .contains("'shape': (5,)"));
    }

    #[test]
    fn manifest_paths_stay_inside_the_dataset_folder() {
        let root = Path::new("/data/ds");
        let m = Path::new("/data/ds/dataset.json");
        assert_eq!(
            inside(root, "scans/a.npz", m).unwrap(),
            root.join("scans/a.npz")
        );
        for bad in [
            "../x.npz",
            "scans/../../x",
            "/etc/passwd",
            "",
            "./a/../../b",
        ] {
            let e = inside(root, bad, m).unwrap_err().to_string();
            assert!(
                e.contains("outside the dataset folder") && e.contains("dataset.json"),
                "{e}"
            );
        }
    }

    #[test]
    fn npz_larger_than_the_manifest_allows_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.npz");
        let data = vec![7u8; 2 * 3 * 4 * 4];
        write_npz(&p, &[2, 3, 4, 4], &data).unwrap();
        // the array is 96 bytes plus a 128-byte .npy header
        let e = read_npz(&p, 100).unwrap_err().to_string();
        assert!(e.contains("manifest allows 100"), "{e}");
        assert!(read_npz(&p, 224).is_ok());
    }

    /// Stored (uncompressed) arrays read back the same, and hold the raw bytes as they are.
    #[test]
    fn stored_npz_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let (c, u) = (dir.path().join("c.npz"), dir.path().join("u.npz"));
        let data = vec![0u8; 2 * 3 * 64 * 64];
        write_npz_with(&c, &[2, 3, 64, 64], &data, true).unwrap();
        write_npz_with(&u, &[2, 3, 64, 64], &data, false).unwrap();
        assert_eq!(
            read_npz(&u, 1 << 20).unwrap(),
            read_npz(&c, 1 << 20).unwrap()
        );
        let (cl, ul) = (
            std::fs::metadata(&c).unwrap().len(),
            std::fs::metadata(&u).unwrap().len(),
        );
        // zeros deflate to almost nothing; stored they take their 24,576 bytes
        assert!(cl < 1000 && ul > 24_576, "{cl} {ul}");
    }

    #[test]
    fn npz_round_trip_and_atomic_write() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.npz");
        let data: Vec<u8> = (0..2 * 3 * 4 * 4).map(|v| (v * 7 % 256) as u8).collect();
        write_npz(&p, &[2, 3, 4, 4], &data).unwrap();
        let (shape, back) = read_npz(&p, 1 << 20).unwrap();
        assert_eq!(shape, vec![2, 3, 4, 4]);
        assert_eq!(back, data);
        // no temporary file is left behind
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn fingerprint_follows_the_config() {
        let a = PreprocessConfig::default();
        let b = PreprocessConfig {
            size: 512,
            ..a.clone()
        };
        assert_eq!(a.fingerprint(), PreprocessConfig::default().fingerprint());
        assert_ne!(a.fingerprint(), b.fingerprint());
    }
}
