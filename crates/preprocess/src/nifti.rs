//! NIfTI-1 volumes (`.nii`, `.nii.gz`) as scans: one file = one scan.
//!
//! The header is parsed by the `nifti` crate (Enet4/nifti-rs); the voxels are read here, within
//! bounds checked before anything is allocated:
//! - the header's dimensions against the bytes the file holds (a truncated file is refused, not
//!   padded), the voxel data of one volume against [`Limits::max_file_bytes`] and one slice
//!   against [`Limits::max_slice_bytes`];
//! - a gzip stream is decompressed only up to the bytes the (bounded) header declares, and refused
//!   when the header asks more than [`MAX_GZIP_RATIO`] times the compressed size;
//! - NaN or infinite voxels read as −1024 HU (outside the field of view, as a scanner pads), with
//!   a warning that counts them; a volume of nothing else is refused;
//! - an affine with a non-finite entry, no volume (determinant 0) or a voxel edge outside
//!   [`VOXEL_MM`] is refused; a 4-D volume gives its first volume, with a warning naming how many
//!   it had; 5-D and above are refused.
//!
//! Values go through `scl_slope`/`scl_inter` to Hounsfield units (a slope of 0 or one that is not
//! finite means "not scaled", as the standard says). Orientation comes from the sform when its
//! code is set, else the qform, else the voxel sizes alone (with a warning). Slices are taken
//! along the voxel axis closest to the patient's inferior–superior direction, inferior first, and
//! each slice is laid out as a DICOM axial slice with ImageOrientationPatient `1\0\0\0\1\0`
//! would be: columns toward the patient's left, rows toward posterior. Of the other two axes, the
//! one closer to left–right gives the columns. So one volume stored RAS, LPS, flipped, with its
//! axes permuted, or oblique within 45° gives the same slices in the same order, and the same
//! pixels as the DICOM series of the same geometry.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::{FileError, FileProblem};
use crate::read::{HuImage, Limits, SliceHeader};

/// A gzip stream may declare at most this many output bytes per compressed byte. A CT volume
/// compresses 2–10:1; a header that asks more is a decompression bomb or a truncated file.
pub const MAX_GZIP_RATIO: u64 = 512;

/// A voxel edge (mm) outside this range is not a CT voxel: the affine or pixdim is refused.
pub const VOXEL_MM: (f64, f64) = (1e-3, 1e3);

/// The header of a NIfTI-1 file: 348 bytes, and the 4-byte extension flag.
const HEADER_BYTES: usize = 352;

/// What HU a non-finite voxel reads as.
const PAD_HU: f32 = -1024.0;

/// Whether `path` names a NIfTI file (`.nii` or `.nii.gz`, any case).
pub fn is_nifti(path: &Path) -> bool {
    let n = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    n.ends_with(".nii") || n.ends_with(".nii.gz")
}

fn bad(path: &Path, why: impl Into<String>) -> FileError {
    FileError::new(path, FileProblem::Nifti(why.into()))
}

/// The voxel types read (NIfTI `datatype` codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voxel {
    U8,
    I8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Voxel {
    fn from_code(code: i16) -> Option<Self> {
        Some(match code {
            2 => Voxel::U8,
            256 => Voxel::I8,
            4 => Voxel::I16,
            512 => Voxel::U16,
            8 => Voxel::I32,
            768 => Voxel::U32,
            1024 => Voxel::I64,
            1280 => Voxel::U64,
            16 => Voxel::F32,
            64 => Voxel::F64,
            _ => return None,
        })
    }
    /// Bytes per voxel.
    pub fn bytes(self) -> usize {
        match self {
            Voxel::U8 | Voxel::I8 => 1,
            Voxel::I16 | Voxel::U16 => 2,
            Voxel::I32 | Voxel::U32 | Voxel::F32 => 4,
            Voxel::I64 | Voxel::U64 | Voxel::F64 => 8,
        }
    }
    /// Every voxel of `data` as `value · slope + inter` in f32, appended to `out`.
    fn extend_f32(self, data: &[u8], big: bool, slope: f64, inter: f64, out: &mut Vec<f32>) {
        macro_rules! all {
            ($t:ty, $n:expr) => {
                out.extend(data.chunks_exact($n).map(|b| {
                    let a: [u8; $n] = b.try_into().expect("chunks of $n");
                    let v = if big {
                        <$t>::from_be_bytes(a)
                    } else {
                        <$t>::from_le_bytes(a)
                    };
                    (v as f64 * slope + inter) as f32
                }))
            };
        }
        match self {
            Voxel::U8 => all!(u8, 1),
            Voxel::I8 => all!(i8, 1),
            Voxel::I16 => all!(i16, 2),
            Voxel::U16 => all!(u16, 2),
            Voxel::I32 => all!(i32, 4),
            Voxel::U32 => all!(u32, 4),
            Voxel::I64 => all!(i64, 8),
            Voxel::U64 => all!(u64, 8),
            Voxel::F32 => all!(f32, 4),
            Voxel::F64 => all!(f64, 8),
        }
    }
}

/// Where the orientation came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrientedBy {
    Sform,
    Qform,
    /// Neither code set: voxel sizes along the stored axes (NIfTI "method 1").
    Pixdim,
}

/// A NIfTI file's geometry and how its voxels become slices; from the header alone.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Voxels along the file's axes i, j, k.
    pub dims: [usize; 3],
    /// Volumes along the fourth axis (the first is read).
    pub volumes: usize,
    pub voxel: Voxel,
    pub big_endian: bool,
    pub vox_offset: u64,
    pub slope: f64,
    pub inter: f64,
    /// Voxel index → RAS+ mm (rows x, y, z; columns i, j, k, offset).
    pub affine: [[f64; 4]; 3],
    pub oriented_by: OrientedBy,
    /// The file axis slices are taken along, and the axes of a slice's rows and columns.
    pub slice_axis: usize,
    pub row_axis: usize,
    pub col_axis: usize,
    /// Axes read backwards (indexed by file axis).
    pub flip: [bool; 3],
    pub warnings: Vec<String>,
}

impl Geometry {
    /// Slices, rows and columns of the slices read.
    pub fn n_slices(&self) -> usize {
        self.dims[self.slice_axis]
    }
    pub fn rows(&self) -> usize {
        self.dims[self.row_axis]
    }
    pub fn cols(&self) -> usize {
        self.dims[self.col_axis]
    }
    /// Bytes of one volume's voxels.
    pub fn volume_bytes(&self) -> u64 {
        self.dims.iter().map(|&d| d as u64).product::<u64>() * self.voxel.bytes() as u64
    }

    /// The file's own index along its slice axis of slice `t` (inferior first).
    pub fn file_index(&self, t: usize) -> usize {
        if self.flip[self.slice_axis] {
            self.n_slices() - 1 - t
        } else {
            t
        }
    }

    /// LPS direction (mm per voxel step) of file axis `a`.
    fn lps(&self, a: usize) -> [f64; 3] {
        [-self.affine[0][a], -self.affine[1][a], self.affine[2][a]]
    }

    /// LPS position (mm) of file voxel `v`.
    fn position(&self, v: [usize; 3]) -> [f64; 3] {
        let mut p = [0.0; 3];
        for (r, pr) in p.iter_mut().enumerate() {
            *pr = self.affine[r][3] + (0..3).map(|a| self.affine[r][a] * v[a] as f64).sum::<f64>();
        }
        [-p[0], -p[1], p[2]]
    }

    /// The file voxel of slice `t`, row `r`, column `c`.
    fn voxel_of(&self, t: usize, r: usize, c: usize) -> [usize; 3] {
        let mut v = [0; 3];
        let at = |axis: usize, i: usize| {
            if self.flip[axis] {
                self.dims[axis] - 1 - i
            } else {
                i
            }
        };
        v[self.slice_axis] = at(self.slice_axis, t);
        v[self.row_axis] = at(self.row_axis, r);
        v[self.col_axis] = at(self.col_axis, c);
        v
    }

    /// Unit vector of `d` scaled by `sign`, and its length.
    fn unit(d: [f64; 3], sign: f64) -> ([f64; 3], f64) {
        let n = norm(d);
        ([sign * d[0] / n, sign * d[1] / n, sign * d[2] / n], n)
    }

    /// DICOM-style headers of the slices in order (inferior first), and each one's position
    /// along the slice normal: what grouping and ordering would have made of the DICOM series.
    pub fn slice_headers(&self, path: &Path) -> (Vec<SliceHeader>, Vec<f64>) {
        let sign = |a: usize| if self.flip[a] { -1.0 } else { 1.0 };
        let (x, col_mm) = Self::unit(self.lps(self.col_axis), sign(self.col_axis));
        let (y, row_mm) = Self::unit(self.lps(self.row_axis), sign(self.row_axis));
        let n = cross(x, y);
        let thickness = dot(self.lps(self.slice_axis), n).abs();
        let mut headers = Vec::with_capacity(self.n_slices());
        let mut z = Vec::with_capacity(self.n_slices());
        for t in 0..self.n_slices() {
            let p = self.position(self.voxel_of(t, 0, 0));
            z.push(dot(p, n));
            headers.push(SliceHeader {
                path: path.to_path_buf(),
                study_uid: String::new(),
                series_uid: String::new(),
                sop_uid: String::new(),
                sop_in_dataset: false,
                modality: "CT".into(),
                sop_class: String::new(),
                transfer_syntax: String::new(),
                rows: self.rows() as u16,
                cols: self.cols() as u16,
                position: Some(p),
                orientation: Some([x[0], x[1], x[2], y[0], y[1], y[2]]),
                instance_number: Some(self.file_index(t) as i64),
                pixel_spacing: Some([row_mm, col_mm]),
                slice_thickness: Some(thickness),
                patient_name: None,
                patient_id: None,
                body_part: None,
                series_description: None,
                contrast_agent: None,
                kernel: None,
            });
        }
        (headers, z)
    }
}

fn norm(d: [f64; 3]) -> f64 {
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Whether the bytes start a gzip stream.
fn is_gzip(head: &[u8]) -> bool {
    head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b
}

/// The first `want` bytes of the file's content (decompressed when it is gzip), at most; and
/// the file's size on disk.
fn read_prefix(path: &Path, limits: &Limits, want: u64) -> Result<(Vec<u8>, u64), FileError> {
    let (mut f, size) = open_input(path, limits)?;
    let mut magic = [0u8; 2];
    let got = f.read(&mut magic).map_err(|e| FileError::new(path, e))?;
    let gz = is_gzip(&magic[..got]);
    // room for what the file can hold, never for what a header merely declares
    let can_hold = can_hold(path, gz, size, want)?;
    let mut buf = Vec::new();
    buf.try_reserve_exact(want.min(can_hold) as usize)
        .map_err(|e| FileError::new(path, FileProblem::OutOfMemory(e.to_string())))?;
    let rest = std::io::Cursor::new(magic[..got].to_vec()).chain(f);
    if gz {
        let mut z = flate2::read::MultiGzDecoder::new(std::io::BufReader::new(rest));
        (&mut z)
            .take(want)
            .read_to_end(&mut buf)
            .map_err(|e| bad(path, format!("gzip stream unreadable: {e}")))?;
        // when the volume was wanted (not the header alone), the stream is read to its end so
        // that its CRC and length are checked: a corrupted file is refused, not read as good
        if want > HEADER_BYTES as u64 && buf.len() as u64 == want {
            drain_checked(path, &mut z, size, can_hold, want)?;
        }
    } else {
        rest.take(want)
            .read_to_end(&mut buf)
            .map_err(|e| FileError::new(path, e))?;
    }
    Ok((buf, size))
}

/// What a gzip stream that `want` bytes are read from may hold: `MAX_GZIP_RATIO` times its size
/// (a header that declares more is refused); a plain file holds its size.
fn can_hold(path: &Path, gz: bool, size: u64, want: u64) -> Result<u64, FileError> {
    if !gz {
        return Ok(size);
    }
    let can = size.saturating_mul(MAX_GZIP_RATIO);
    if want > can {
        return Err(bad(
            path,
            format!(
                "the header declares {want} bytes, more than {MAX_GZIP_RATIO} times the \
                 {size} compressed bytes: a decompression bomb or a truncated file"
            ),
        ));
    }
    Ok(can)
}

/// Reads a gzip stream past the `read` bytes taken from it to its end, so that its CRC and length
/// are checked: a corrupt stream is refused. What follows the volume (a 4-D file's other volumes)
/// costs time, never memory, and no more than the ratio allows.
fn drain_checked(
    path: &Path,
    z: &mut impl Read,
    size: u64,
    can_hold: u64,
    read: u64,
) -> Result<(), FileError> {
    let rest = can_hold.saturating_sub(read).saturating_add(1);
    let n = std::io::copy(&mut z.take(rest), &mut std::io::sink())
        .map_err(|e| bad(path, format!("gzip stream corrupt (its check fails): {e}")))?;
    if n == rest {
        return Err(bad(
            path,
            format!(
                "the gzip stream runs past {MAX_GZIP_RATIO} times the {size} compressed bytes: \
                 a decompression bomb"
            ),
        ));
    }
    Ok(())
}

/// Opens a NIfTI file as a regular file within `--max-file-mib`; returns it with its size.
fn open_input(path: &Path, limits: &Limits) -> Result<(std::fs::File, u64), FileError> {
    let (f, size) = milbase::bounded::open_regular(path, limits.max_file_bytes).map_err(|e| {
        if e.kind() == std::io::ErrorKind::InvalidData {
            FileError::new(
                path,
                FileProblem::TooLarge {
                    what: "the file",
                    bytes: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
                    limit: limits.max_file_bytes,
                },
            )
        } else {
            FileError::new(path, e)
        }
    })?;
    if size == 0 {
        return Err(bad(path, "the file is empty (0 bytes)"));
    }
    Ok((f, size))
}

/// The header and geometry of a NIfTI-1 file (reads and decompresses its first 352 bytes only).
pub fn read_geometry(path: &Path, limits: &Limits) -> Result<Geometry, FileError> {
    let (head, _) = read_prefix(path, limits, HEADER_BYTES as u64)?;
    let g = geometry_of(path, &head, limits)?;
    // each slice becomes three windowed channels of the output size, however small it is in
    // the file: a 1×1×6000 volume of 12 kB would otherwise cost gigabytes downstream
    if g.n_slices() > crate::read::MAX_SCAN_SLICES {
        return Err(bad(
            path,
            format!(
                "{} slices along its inferior–superior axis, more than the {} of any head CT",
                g.n_slices(),
                crate::read::MAX_SCAN_SLICES
            ),
        ));
    }
    Ok(g)
}

fn geometry_of(path: &Path, head: &[u8], limits: &Limits) -> Result<Geometry, FileError> {
    if head.len() < 348 {
        return Err(bad(
            path,
            format!(
                "{} bytes of header where NIfTI-1 has 348: truncated or not NIfTI",
                head.len()
            ),
        ));
    }
    let sizeof = [head[0], head[1], head[2], head[3]];
    if i32::from_le_bytes(sizeof) == 540 || i32::from_be_bytes(sizeof) == 540 {
        return Err(bad(
            path,
            "a NIfTI-2 header: only NIfTI-1 is read (nibabel's `nib.Nifti1Image` writes it)",
        ));
    }
    let h = nifti::NiftiHeader::from_reader(head)
        .map_err(|e| bad(path, format!("not a NIfTI-1 header: {e}")))?;
    if h.sizeof_hdr != 348 {
        return Err(bad(
            path,
            format!("sizeof_hdr {}: a NIfTI-1 header says 348", h.sizeof_hdr),
        ));
    }
    if &h.magic == b"ni1\0" {
        return Err(bad(
            path,
            "a header with separate image data (.hdr/.img pair): only single-file .nii is read",
        ));
    }
    let mut warnings = Vec::new();
    // dim[] are signed 16-bit in the standard; the crate reads them unsigned
    let d: Vec<i64> = h.dim.iter().map(|&v| v as i16 as i64).collect();
    let rank = d[0];
    if !(1..=7).contains(&rank) {
        return Err(bad(
            path,
            format!("dim[0] = {rank}: a volume has 1 to 7 dimensions"),
        ));
    }
    let rank = rank as usize;
    let dim = |a: usize| if a <= rank { d[a] } else { 1 };
    for a in 1..=rank {
        if dim(a) < 1 {
            return Err(bad(
                path,
                format!("dim[{a}] = {}: every dimension must be at least 1", dim(a)),
            ));
        }
    }
    if let Some(a) = (5..=7).find(|&a| dim(a) > 1) {
        return Err(bad(
            path,
            format!(
                "a {rank}-D volume (dim[{a}] = {}): vectors or other 5-D data are not a CT scan",
                dim(a)
            ),
        ));
    }
    let volumes = dim(4) as usize;
    if volumes > 1 {
        warnings.push(format!(
            "a 4-D volume of {volumes} volumes: only the first was read"
        ));
    }
    let dims = [dim(1) as usize, dim(2) as usize, dim(3) as usize];
    let voxel = Voxel::from_code(h.datatype).ok_or_else(|| {
        bad(
            path,
            format!(
                "datatype {} is not read (integers of 8 to 64 bits, float32 and float64 are)",
                h.datatype
            ),
        )
    })?;
    let vox_offset = h.vox_offset as f64;
    if !vox_offset.is_finite() || vox_offset < HEADER_BYTES as f64 || vox_offset > 1e15 {
        return Err(bad(
            path,
            format!(
                "vox_offset {}: the voxels of a .nii start at byte 352 or later",
                h.vox_offset
            ),
        ));
    }
    let vox_offset = vox_offset as u64;
    let slice_bytes = dims[0] as u64 * dims[1] as u64 * voxel.bytes() as u64;
    let volume_bytes = slice_bytes * dims[2] as u64;
    // each of the three axes may become the slice axis: bound the largest face
    let face = [dims[0] * dims[1], dims[0] * dims[2], dims[1] * dims[2]]
        .into_iter()
        .max()
        .unwrap_or(0) as u64
        * voxel.bytes() as u64;
    if face > limits.max_slice_bytes {
        return Err(FileError::new(
            path,
            FileProblem::TooLarge {
                what: "a slice",
                bytes: face,
                limit: limits.max_slice_bytes,
            },
        ));
    }
    let needed = vox_offset + volume_bytes;
    if needed > limits.max_file_bytes {
        return Err(FileError::new(
            path,
            FileProblem::TooLarge {
                what: "the volume's voxels",
                bytes: needed,
                limit: limits.max_file_bytes,
            },
        ));
    }
    let mut slope = h.scl_slope as f64;
    let mut inter = h.scl_inter as f64;
    if slope == 0.0 || !slope.is_finite() {
        slope = 1.0;
        inter = 0.0;
    } else if !inter.is_finite() {
        return Err(bad(
            path,
            format!("scl_inter {}: not a number", h.scl_inter),
        ));
    } else if !(1e-4..=1e4).contains(&slope) {
        // the bounds DICOM's RescaleSlope is held to: a negative slope turns the head inside
        // out (bone dark, air bright), a huge one makes every voxel bone
        return Err(bad(
            path,
            format!("scl_slope {slope} is not a CT rescale slope (positive, 1e-4..=1e4)"),
        ));
    } else if inter.abs() > 1e5 {
        return Err(bad(
            path,
            format!("scl_inter {inter} is not a CT rescale intercept (within ±100,000)"),
        ));
    }
    let (affine, oriented_by) = affine_of(path, &h, &mut warnings)?;
    // every voxel edge within reason, and a volume (not a plane)
    let col = |a: usize| [affine[0][a], affine[1][a], affine[2][a]];
    for a in 0..3 {
        let n = norm(col(a));
        if !(VOXEL_MM.0..=VOXEL_MM.1).contains(&n) {
            return Err(bad(
                path,
                format!(
                    "a voxel edge of {n} mm along axis {}: outside {}–{} mm, not a CT voxel",
                    ["i", "j", "k"][a],
                    VOXEL_MM.0,
                    VOXEL_MM.1
                ),
            ));
        }
    }
    let det = dot(col(0), cross(col(1), col(2)));
    let volume = norm(col(0)) * norm(col(1)) * norm(col(2));
    // (written so that a NaN determinant is refused too)
    if det.abs().partial_cmp(&(1e-6 * volume)) != Some(std::cmp::Ordering::Greater) {
        return Err(bad(
            path,
            "the affine maps the voxels onto a plane (its axes are parallel): no orientation",
        ));
    }
    let lps = |a: usize| [-affine[0][a], -affine[1][a], affine[2][a]];
    let share = |a: usize, c: usize| lps(a)[c].abs() / norm(lps(a));
    let slice_axis = (0..3)
        .max_by(|&a, &b| share(a, 2).total_cmp(&share(b, 2)).then(b.cmp(&a)))
        .expect("three axes");
    let others: Vec<usize> = (0..3).filter(|&a| a != slice_axis).collect();
    let (col_axis, row_axis) = if share(others[0], 0) >= share(others[1], 0) {
        (others[0], others[1])
    } else {
        (others[1], others[0])
    };
    let mut flip = [false; 3];
    flip[slice_axis] = lps(slice_axis)[2] < 0.0;
    flip[col_axis] = lps(col_axis)[0] < 0.0;
    flip[row_axis] = lps(row_axis)[1] < 0.0;
    if dims[slice_axis] > u16::MAX as usize
        || dims[row_axis] > u16::MAX as usize
        || dims[col_axis] > u16::MAX as usize
    {
        return Err(bad(path, "more than 65,535 voxels along an axis"));
    }
    let tilt = share(slice_axis, 2).acos().to_degrees();
    if tilt > 30.0 {
        warnings.push(format!(
            "the slices are {tilt:.0}° from axial (the axis closest to head–feet was used)"
        ));
    }
    Ok(Geometry {
        dims,
        volumes,
        voxel,
        big_endian: h.endianness == nifti::Endianness::Big,
        vox_offset,
        slope,
        inter,
        affine,
        oriented_by,
        slice_axis,
        row_axis,
        col_axis,
        flip,
        warnings,
    })
}

type Affine = [[f64; 4]; 3];

/// The voxel → RAS+ affine: sform, else qform, else pixdim alone.
fn affine_of(
    path: &Path,
    h: &nifti::NiftiHeader,
    warnings: &mut Vec<String>,
) -> Result<(Affine, OrientedBy), FileError> {
    let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
    if h.sform_code > 0 {
        if !(finite(&h.srow_x) && finite(&h.srow_y) && finite(&h.srow_z)) {
            return Err(bad(path, "the sform holds a value that is not a number"));
        }
        let r = |s: &[f32; 4]| s.map(|v| v as f64);
        return Ok((
            [r(&h.srow_x), r(&h.srow_y), r(&h.srow_z)],
            OrientedBy::Sform,
        ));
    }
    let px = &h.pixdim;
    if !finite(&px[..4]) {
        return Err(bad(path, "pixdim holds a value that is not a number"));
    }
    let (dx, dy, dz) = (px[1] as f64, px[2] as f64, px[3] as f64);
    if h.qform_code > 0 {
        let q = [
            h.quatern_b,
            h.quatern_c,
            h.quatern_d,
            h.quatern_x,
            h.quatern_y,
            h.quatern_z,
        ];
        if !finite(&q) {
            return Err(bad(path, "the qform holds a value that is not a number"));
        }
        let (b, c, d) = (q[0] as f64, q[1] as f64, q[2] as f64);
        let a = (1.0 - (b * b + c * c + d * d)).max(0.0).sqrt();
        let qfac = if px[0] < 0.0 { -1.0 } else { 1.0 };
        let r = [
            [
                a * a + b * b - c * c - d * d,
                2.0 * (b * c - a * d),
                2.0 * (b * d + a * c),
            ],
            [
                2.0 * (b * c + a * d),
                a * a + c * c - b * b - d * d,
                2.0 * (c * d - a * b),
            ],
            [
                2.0 * (b * d - a * c),
                2.0 * (c * d + a * b),
                a * a + d * d - b * b - c * c,
            ],
        ];
        // the standard takes voxel sizes as positive here (their sign is qfac's)
        let s = [dx.abs(), dy.abs(), qfac * dz.abs()];
        let off = [q[3] as f64, q[4] as f64, q[5] as f64];
        let mut m = [[0.0; 4]; 3];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] = r[i][j] * s[j];
            }
            m[i][3] = off[i];
        }
        return Ok((m, OrientedBy::Qform));
    }
    warnings.push(
        "no orientation in the header (sform and qform codes 0): the stored axes were taken as \
         the patient's left-to-right, posterior-to-anterior and inferior-to-superior"
            .into(),
    );
    Ok((
        [
            [dx.abs(), 0.0, 0.0, 0.0],
            [0.0, dy.abs(), 0.0, 0.0],
            [0.0, 0.0, dz.abs(), 0.0],
        ],
        OrientedBy::Pixdim,
    ))
}

/// A NIfTI file read whole: its geometry and the slices in order (inferior first), in HU.
#[derive(Debug)]
pub struct Volume {
    pub geometry: Geometry,
    pub slices: Vec<HuImage>,
    /// The geometry's warnings and those of the voxels (non-finite ones, values that do not look
    /// like Hounsfield units).
    pub warnings: Vec<String>,
}

/// The voxels of a NIfTI file's first volume as stored, to be taken a slice at a time in HU
/// ([`VoxelData::slice`]): a volume costs its stored bytes and one slice in floats, never every
/// slice in floats at once.
pub struct VoxelData {
    pub geometry: Geometry,
    path: PathBuf,
    bytes: Vec<u8>,
}

/// What the slices taken so far held: non-finite voxels, and the range of the finite ones.
#[derive(Debug, Clone, Copy)]
pub struct VoxelStats {
    non_finite: usize,
    total: usize,
    lo: f32,
    hi: f32,
}

impl Default for VoxelStats {
    fn default() -> Self {
        VoxelStats {
            non_finite: 0,
            total: 0,
            lo: f32::INFINITY,
            hi: f32::NEG_INFINITY,
        }
    }
}

/// Reads the first volume's stored voxels of a NIfTI file, within `limits` (the bytes the header
/// declares, checked against what the file holds; a gzip stream read to its end and checked).
pub fn read_voxels(path: &Path, limits: &Limits) -> Result<VoxelData, FileError> {
    let g = read_geometry(path, limits)?;
    let needed = g.vox_offset + g.volume_bytes();
    let (bytes, _) = read_prefix(path, limits, needed)?;
    if (bytes.len() as u64) < needed {
        return Err(bad(
            path,
            format!(
                "truncated: the header declares {} bytes of voxels from byte {}, the file holds {}",
                g.volume_bytes(),
                g.vox_offset,
                (bytes.len() as u64).saturating_sub(g.vox_offset)
            ),
        ));
    }
    Ok(VoxelData {
        geometry: g,
        path: path.to_path_buf(),
        bytes,
    })
}

impl VoxelData {
    /// Slice `t` (inferior first) in HU, gathered straight from the stored bytes: NaN or infinite
    /// voxels read as −1024 HU, values below −1024 HU clipped (as the DICOM path clips them);
    /// `stats` counts what was seen.
    pub fn slice(&self, t: usize, stats: &mut VoxelStats) -> HuImage {
        let g = &self.geometry;
        let data = &self.bytes[g.vox_offset as usize..];
        let bpv = g.voxel.bytes();
        let stride = [1, g.dims[0], g.dims[0] * g.dims[1]];
        // where axis `a`'s index 0 lies and how far one step moves, in voxels of file order
        let start = |a: usize| {
            if g.flip[a] {
                (g.dims[a] - 1) * stride[a]
            } else {
                0
            }
        };
        let step = |a: usize| {
            if g.flip[a] {
                -(stride[a] as isize)
            } else {
                stride[a] as isize
            }
        };
        let (rows, cols) = (g.rows(), g.cols());
        let (sc, sr, ss) = (step(g.col_axis), step(g.row_axis), step(g.slice_axis));
        let origin = (start(g.col_axis) + start(g.row_axis) + start(g.slice_axis)) as isize;
        let (big, slope, inter) = (g.big_endian, g.slope, g.inter);
        let mut hu = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            let base = origin + t as isize * ss + r as isize * sr;
            if sc == 1 {
                let b = base as usize * bpv;
                g.voxel
                    .extend_f32(&data[b..b + cols * bpv], big, slope, inter, &mut hu);
            } else {
                for c in 0..cols {
                    let i = (base + c as isize * sc) as usize * bpv;
                    g.voxel
                        .extend_f32(&data[i..i + bpv], big, slope, inter, &mut hu);
                }
            }
        }
        for x in hu.iter_mut() {
            if x.is_finite() {
                stats.lo = stats.lo.min(*x);
                stats.hi = stats.hi.max(*x);
                // below −1024 HU is the scanner's padding outside the field of view: clipped
                // as the DICOM path clips it (crate::hu::MIN_HU), so one series gives the same
                // pixels from either format
                *x = x.max(crate::hu::MIN_HU);
            } else {
                stats.non_finite += 1;
                *x = PAD_HU;
            }
        }
        stats.total += rows * cols;
        HuImage { rows, cols, hu }
    }

    /// The geometry's warnings and those of the voxels seen (`stats` of every slice); an error
    /// when no voxel was a number.
    pub fn warnings(&self, stats: &VoxelStats) -> Result<Vec<String>, FileError> {
        let mut warnings = self.geometry.warnings.clone();
        let VoxelStats {
            non_finite,
            total,
            lo,
            hi,
        } = *stats;
        if total > 0 && non_finite == total {
            return Err(bad(&self.path, "every voxel is NaN or infinite"));
        }
        if non_finite > 0 {
            warnings.push(format!(
                "{non_finite} of {total} voxels are NaN or infinite: read as {PAD_HU} HU"
            ));
        }
        if lo > -500.0 || hi < 0.0 {
            warnings.push(format!(
                "values run from {lo} to {hi}: a head CT in Hounsfield units has air near −1000 \
                 and bone above 0 (is this a CT, and are scl_slope/scl_inter set?)"
            ));
        }
        Ok(warnings)
    }
}

/// Reads the first volume of a NIfTI file into HU slices, within `limits` (every slice held:
/// for tests and converters; the pipeline takes a slice at a time, [`read_voxels`]).
pub fn read_volume(path: &Path, limits: &Limits) -> Result<Volume, FileError> {
    let v = read_voxels(path, limits)?;
    let mut stats = VoxelStats::default();
    let slices: Vec<HuImage> = (0..v.geometry.n_slices())
        .map(|t| v.slice(t, &mut stats))
        .collect();
    let warnings = v.warnings(&stats)?;
    Ok(Volume {
        geometry: v.geometry,
        slices,
        warnings,
    })
}

/// The stored voxels held at once when a volume's slices do not lie along its slowest axis
/// (sagittal or coronal storage): the slices are gathered in batches of at most this many bytes
/// (at least one slice), one pass over the file per batch.
pub const BATCH_BYTES: usize = 64 << 20;

/// Each slice of a NIfTI file's first volume in HU, given to `each` with its index `t` (inferior
/// first), then the warnings of the whole. The file is read as a stream, never whole: when the
/// slices lie along the file's slowest axis (axial storage, the usual case) one stored plane at a
/// time, in the file's order (which may be superior first); otherwise in passes over the file,
/// each gathering the next slices of at most [`BATCH_BYTES`] of stored voxels. A file costs one
/// plane and one batch, whatever its header declares.
pub fn for_each_slice(
    path: &Path,
    limits: &Limits,
    each: impl FnMut(usize, HuImage),
) -> Result<Vec<String>, FileError> {
    for_each_slice_within(path, limits, BATCH_BYTES, each)
}

/// The voxel stream of a NIfTI file, positioned at its first voxel.
struct VoxelStream {
    r: Box<dyn Read>,
    gz: bool,
    size: u64,
    can_hold: u64,
}

/// Opens `path` (plain or gzip) and skips to the first voxel of geometry `g`.
fn open_voxels(path: &Path, limits: &Limits, g: &Geometry) -> Result<VoxelStream, FileError> {
    let (mut f, size) = open_input(path, limits)?;
    let mut magic = [0u8; 2];
    let got = f.read(&mut magic).map_err(|e| FileError::new(path, e))?;
    let gz = is_gzip(&magic[..got]);
    let needed = g.vox_offset + g.volume_bytes();
    let can_hold = can_hold(path, gz, size, needed)?;
    let rest = std::io::Cursor::new(magic[..got].to_vec()).chain(f);
    let r: Box<dyn Read> = if gz {
        Box::new(flate2::read::MultiGzDecoder::new(std::io::BufReader::new(
            rest,
        )))
    } else {
        Box::new(std::io::BufReader::new(rest))
    };
    let mut s = VoxelStream {
        r,
        gz,
        size,
        can_hold,
    };
    let skipped = std::io::copy(&mut (&mut s.r).take(g.vox_offset), &mut std::io::sink())
        .map_err(|e| s.unreadable(path, e))?;
    if skipped < g.vox_offset {
        return Err(truncated(path, g, skipped));
    }
    Ok(s)
}

impl VoxelStream {
    fn unreadable(&self, path: &Path, e: std::io::Error) -> FileError {
        if self.gz {
            bad(path, format!("gzip stream unreadable: {e}"))
        } else {
            FileError::new(path, e)
        }
    }

    /// Fills `buf` from the stream; `at` is the file's byte offset of its start (to say how much
    /// a truncated file held).
    fn fill(
        &mut self,
        path: &Path,
        g: &Geometry,
        buf: &mut [u8],
        at: u64,
    ) -> Result<(), FileError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.r.read(&mut buf[filled..]) {
                Ok(0) => return Err(truncated(path, g, at + filled as u64)),
                Ok(m) => filled += m,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.unreadable(path, e)),
            }
        }
        Ok(())
    }

    /// A gzip stream read to its end, its check verified.
    fn finish(mut self, path: &Path, g: &Geometry) -> Result<(), FileError> {
        if self.gz {
            let needed = g.vox_offset + g.volume_bytes();
            drain_checked(path, &mut self.r, self.size, self.can_hold, needed)?;
        }
        Ok(())
    }
}

fn truncated(path: &Path, g: &Geometry, held: u64) -> FileError {
    bad(
        path,
        format!(
            "truncated: the header declares {} bytes of voxels from byte {}, the file holds {}",
            g.volume_bytes(),
            g.vox_offset,
            held.saturating_sub(g.vox_offset)
        ),
    )
}

/// [`for_each_slice`] holding at most `budget` bytes of stored voxels per pass when the slices
/// do not lie along the file's slowest axis (at least one slice).
fn for_each_slice_within(
    path: &Path,
    limits: &Limits,
    budget: usize,
    mut each: impl FnMut(usize, HuImage),
) -> Result<Vec<String>, FileError> {
    let g = read_geometry(path, limits)?;
    let n = g.n_slices();
    let a = g.slice_axis;
    let bpv = g.voxel.bytes();
    let [d0, d1, d2] = g.dims;
    let mut stats = VoxelStats::default();
    // one stored plane (the file's slowest axis fixed): within --max-slice-mib, as any face
    let plane_bytes = d0 * d1 * bpv;
    let mut plane = vec![0u8; plane_bytes];
    if a == 2 {
        // axial storage: each stored plane is a slice, streamed in the file's order
        let mut s = open_voxels(path, limits, &g)?;
        let mut one = g.clone();
        one.dims[2] = 1;
        one.flip[2] = false;
        one.vox_offset = 0;
        let mut v = VoxelData {
            geometry: one,
            path: path.to_path_buf(),
            bytes: plane,
        };
        for k in 0..n {
            s.fill(
                path,
                &g,
                &mut v.bytes,
                g.vox_offset + (k * plane_bytes) as u64,
            )?;
            let img = v.slice(0, &mut stats);
            each(if g.flip[2] { n - 1 - k } else { k }, img);
        }
        s.finish(path, &g)?;
        v.geometry = g;
        return v.warnings(&stats);
    }
    // sagittal or coronal storage: every stored plane holds a line of each slice, so the slices
    // are gathered in batches of file indices [a0, a1) along the slice axis, a pass each
    let slice_bytes = g.rows() * g.cols() * bpv;
    let batch = (budget / slice_bytes.max(1)).clamp(1, n.max(1));
    let mut a0 = 0;
    while a0 < n {
        let a1 = (a0 + batch).min(n);
        let m = a1 - a0;
        let mut sub = g.clone();
        sub.dims[a] = m;
        sub.vox_offset = 0;
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(m * slice_bytes)
            .map_err(|e| FileError::new(path, FileProblem::OutOfMemory(e.to_string())))?;
        let mut s = open_voxels(path, limits, &g)?;
        for k in 0..d2 {
            s.fill(
                path,
                &g,
                &mut plane,
                g.vox_offset + (k * plane_bytes) as u64,
            )?;
            if a == 0 {
                // each line along i holds the batch's slices side by side
                for i1 in 0..d1 {
                    let line = i1 * d0 * bpv;
                    bytes.extend_from_slice(&plane[line + a0 * bpv..line + a1 * bpv]);
                }
            } else {
                bytes.extend_from_slice(&plane[a0 * d0 * bpv..a1 * d0 * bpv]);
            }
        }
        if a1 == n {
            s.finish(path, &g)?;
        }
        let v = VoxelData {
            geometry: sub,
            path: path.to_path_buf(),
            bytes,
        };
        for t in 0..m {
            // the batch's own slice t is the file's index a0 + (its index within the batch)
            let within = if g.flip[a] { m - 1 - t } else { t };
            let f = a0 + within;
            each(
                if g.flip[a] { n - 1 - f } else { f },
                v.slice(t, &mut stats),
            );
        }
        a0 = a1;
    }
    let v = VoxelData {
        geometry: g,
        path: path.to_path_buf(),
        bytes: Vec::new(),
    };
    v.warnings(&stats)
}

/// A NIfTI scan's name: its path relative to the input it was found under (forward slashes),
/// or the file name when the input was the file itself.
pub fn name_under(file: &Path, inputs: &[PathBuf]) -> String {
    for input in inputs {
        if let Ok(rel) = file.strip_prefix(input) {
            if !rel.as_os_str().is_empty() {
                return rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
            }
        }
    }
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::nifti::write_int16;

    /// A 4 × 3 × 5 volume, value = 100 x + 10 y + z, written with `affine`.
    fn volume(dir: &Path, name: &str, affine: &Affine, order: &dyn Fn([usize; 3]) -> [usize; 3]) {
        // `order` maps a canonical voxel (x: 4 left-right, y: 3 front-back, z: 5 feet-head) to
        // the file's own indices; the file's dims follow from it
        let canon = [4usize, 3, 5];
        let dims = {
            let far = order([canon[0] - 1, canon[1] - 1, canon[2] - 1]);
            let near = order([0, 0, 0]);
            [0, 1, 2].map(|a| far[a].max(near[a]) + 1)
        };
        let mut v = vec![0i16; dims.iter().product()];
        for x in 0..canon[0] {
            for y in 0..canon[1] {
                for z in 0..canon[2] {
                    let f = order([x, y, z]);
                    v[f[0] + dims[0] * (f[1] + dims[1] * f[2])] = (100 * x + 10 * y + z) as i16;
                }
            }
        }
        write_int16(&dir.join(name), dims, &v, affine, 1.0, 0.0).unwrap();
    }

    /// The slices of `p` as read whole; taken from the stream (a plane at a time where the file
    /// stores them along its slowest axis, else in batches of one slice, of two and of all) they
    /// are the same, each given once, in the same places, with the same warnings.
    fn slices(p: &Path) -> Vec<Vec<f32>> {
        let v = read_volume(p, &Limits::default()).unwrap();
        let whole: Vec<Vec<f32>> = v.slices.into_iter().map(|s| s.hu).collect();
        let slice_bytes = whole[0].len() * 2;
        for budget in [0, 2 * slice_bytes, BATCH_BYTES] {
            let mut one: Vec<Option<Vec<f32>>> = vec![None; whole.len()];
            let w = for_each_slice_within(p, &Limits::default(), budget, |t, img| {
                assert!(one[t].is_none(), "slice {t} given twice");
                one[t] = Some(img.hu);
            })
            .unwrap();
            let one: Vec<Vec<f32>> = one.into_iter().map(Option::unwrap).collect();
            assert_eq!(one, whole, "{} in batches of {budget} bytes", p.display());
            assert_eq!(w, v.warnings);
        }
        whole
    }

    /// The same anatomy stored LPS (as DICOM), RAS, with flipped axes, with axes permuted, and
    /// tilted 3°: the same slices, inferior first, each laid out as a DICOM axial slice
    /// (columns toward the left, rows toward posterior).
    #[test]
    fn one_anatomy_in_any_storage_gives_the_same_slices() {
        let dir = tempfile::tempdir().unwrap();
        // canonical voxel (x, y, z): LPS position (x, y, 5 z) → RAS (−x, −y, 5 z)
        let lps_store: Affine = [
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, -1.0, 0.0, 0.0],
            [0.0, 0.0, 5.0, 0.0],
        ];
        volume(dir.path(), "lps.nii", &lps_store, &|v| v);
        // RAS storage: i runs right-to-left reversed, i.e. file i = 3 − x, j = 2 − y
        let ras: Affine = [
            [1.0, 0.0, 0.0, -3.0],
            [0.0, 1.0, 0.0, -2.0],
            [0.0, 0.0, 5.0, 0.0],
        ];
        volume(dir.path(), "ras.nii.gz", &ras, &|[x, y, z]| {
            [3 - x, 2 - y, z]
        });
        // head first: k runs superior-to-inferior
        let flipped: Affine = [
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, -1.0, 0.0, 0.0],
            [0.0, 0.0, -5.0, 20.0],
        ];
        volume(dir.path(), "flipped.nii", &flipped, &|[x, y, z]| {
            [x, y, 4 - z]
        });
        // axes permuted: file i = z, j = x, k = y
        let permuted: Affine = [
            [0.0, -1.0, 0.0, 0.0],
            [0.0, 0.0, -1.0, 0.0],
            [5.0, 0.0, 0.0, 0.0],
        ];
        volume(dir.path(), "permuted.nii", &permuted, &|[x, y, z]| {
            [z, x, y]
        });
        // the same, head first along i, gzipped: file i = 4 − z
        let permuted_flipped: Affine = [
            [0.0, -1.0, 0.0, 0.0],
            [0.0, 0.0, -1.0, 0.0],
            [-5.0, 0.0, 0.0, 20.0],
        ];
        volume(
            dir.path(),
            "permuted-flipped.nii.gz",
            &permuted_flipped,
            &|[x, y, z]| [4 - z, x, y],
        );
        // coronal storage: file i = x, j = z, k = y (slices along the file's middle axis)
        let coronal: Affine = [
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, -1.0, 0.0],
            [0.0, 5.0, 0.0, 0.0],
        ];
        volume(dir.path(), "coronal.nii", &coronal, &|[x, y, z]| [x, z, y]);
        // tilted 3° about the left-right axis
        let t = 3f64.to_radians();
        let tilted: Affine = [
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, -t.cos(), 5.0 * t.sin(), 0.0],
            [0.0, -t.sin(), 5.0 * t.cos(), 0.0],
        ];
        volume(dir.path(), "tilted.nii", &tilted, &|v| v);
        // what a DICOM axial series of this anatomy shows: slice z, row y, column x
        let want: Vec<Vec<f32>> = (0..5)
            .map(|z| {
                (0..3)
                    .flat_map(|y| (0..4).map(move |x| (100 * x + 10 * y + z) as f32))
                    .collect()
            })
            .collect();
        for name in [
            "lps.nii",
            "ras.nii.gz",
            "flipped.nii",
            "permuted.nii",
            "permuted-flipped.nii.gz",
            "coronal.nii",
            "tilted.nii",
        ] {
            assert_eq!(slices(&dir.path().join(name)), want, "{name}");
        }
        // the geometry a DICOM series of it would have: spacing, orientation, z
        let g = read_geometry(&dir.path().join("ras.nii.gz"), &Limits::default()).unwrap();
        let (h, z) = g.slice_headers(Path::new("x"));
        assert_eq!(h[0].orientation, Some([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]));
        assert_eq!(h[0].pixel_spacing, Some([1.0, 1.0]));
        assert_eq!(h[1].position, Some([0.0, 0.0, 5.0]));
        assert_eq!(z, vec![0.0, 5.0, 10.0, 15.0, 20.0]);
        let g = read_geometry(&dir.path().join("flipped.nii"), &Limits::default()).unwrap();
        assert_eq!((g.file_index(0), g.file_index(4)), (4, 0));
        for (name, axis) in [("permuted-flipped.nii.gz", 0), ("coronal.nii", 1)] {
            let g = read_geometry(&dir.path().join(name), &Limits::default()).unwrap();
            assert_eq!(g.slice_axis, axis, "{name}");
        }
    }

    /// The qform's quaternion: nibabel's `quaternions.quat2mat` of (a, b, c, d) =
    /// (cos 15°, sin 15°, 0, 0), a rotation of 30° about x, with voxel sizes 0.5, 0.5, 5 and
    /// qfac −1 (the k column negated).
    #[test]
    fn the_qform_is_read_as_the_standard_defines_it() {
        let mut h = nifti::NiftiHeader {
            sform_code: 0,
            qform_code: 1,
            quatern_b: 15f32.to_radians().sin(),
            quatern_x: 10.0,
            quatern_y: -20.0,
            quatern_z: 30.0,
            ..Default::default()
        };
        h.pixdim = [-1.0, 0.5, 0.5, 5.0, 1.0, 1.0, 1.0, 1.0];
        let (m, by) = affine_of(Path::new("q.nii"), &h, &mut Vec::new()).unwrap();
        assert_eq!(by, OrientedBy::Qform);
        let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
        let want = [
            [0.5, 0.0, 0.0, 10.0],
            [0.0, 0.5 * c, 5.0 * s, -20.0],
            [0.0, 0.5 * s, -5.0 * c, 30.0],
        ];
        for r in 0..3 {
            for k in 0..4 {
                assert!((m[r][k] - want[r][k]).abs() < 1e-6, "{m:?}");
            }
        }
    }

    /// Each hostile header or body: a per-file error naming the problem, nothing allocated for
    /// what the header merely claims.
    #[test]
    fn hostile_files_are_refused_with_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let eye: Affine = [
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, -1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
        ];
        let good = dir.path().join("good.nii");
        write_int16(&good, [4, 4, 2], &[-1000; 32], &eye, 1.0, 0.0).unwrap();
        let bytes = std::fs::read(&good).unwrap();
        let refuse = |name: &str, b: &[u8], want: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, b).unwrap();
            let e = read_volume(&p, &Limits::default()).unwrap_err().to_string();
            assert!(
                e.contains(name) && want.split('|').any(|w| e.contains(w)),
                "{name}: {e}"
            );
            // slice by slice too
            let e = for_each_slice(&p, &Limits::default(), |_, _| {})
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(name) && want.split('|').any(|w| e.contains(w)),
                "{name}, a slice at a time: {e}"
            );
        };
        let patch = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = bytes.clone();
            f(&mut b);
            b
        };
        refuse("empty.nii", &[], "empty");
        refuse("short.nii", &bytes[..200], "348");
        refuse("truncated.nii", &bytes[..bytes.len() - 3], "truncated");
        // 30000 × 30000 × 30000 declared: refused before any allocation
        refuse(
            "huge.nii",
            &patch(&|b| {
                for a in 0..3 {
                    b[42 + 2 * a..44 + 2 * a].copy_from_slice(&30000i16.to_le_bytes());
                }
            }),
            "over the limit",
        );
        refuse(
            "negative.nii",
            &patch(&|b| b[44..46].copy_from_slice(&(-4i16).to_le_bytes())),
            "dim[2] = -4",
        );
        refuse(
            "fived.nii",
            &patch(&|b| {
                b[40..42].copy_from_slice(&5i16.to_le_bytes());
                b[50..52].copy_from_slice(&3i16.to_le_bytes());
            }),
            "5-D",
        );
        refuse(
            "complex.nii",
            &patch(&|b| b[70..72].copy_from_slice(&32i16.to_le_bytes())),
            "datatype 32",
        );
        refuse(
            "offset.nii",
            &patch(&|b| b[108..112].copy_from_slice(&f32::NAN.to_le_bytes())),
            "vox_offset",
        );
        refuse(
            "absurd.nii",
            &patch(&|b| b[280..284].copy_from_slice(&1e9f32.to_le_bytes())),
            "voxel edge",
        );
        refuse(
            "nanaffine.nii",
            &patch(&|b| b[300..304].copy_from_slice(&f32::INFINITY.to_le_bytes())),
            "not a number",
        );
        refuse(
            "flat.nii",
            &patch(&|b| {
                // k column = i column: the voxels span a plane
                b[288..292].copy_from_slice(&(-1f32).to_le_bytes());
                b[320..324].copy_from_slice(&0f32.to_le_bytes());
            }),
            "plane",
        );
        refuse(
            "nifti2.nii",
            &patch(&|b| b[0..4].copy_from_slice(&540i32.to_le_bytes())),
            "NIfTI-2",
        );
        refuse(
            "text.nii",
            b"this is not a NIfTI file at all\n",
            "bytes of header",
        );
        // a gzip bomb: a small stream whose header asks for far more than it may hold
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let mut big = patch(&|b| {
            b[42..44].copy_from_slice(&2048i16.to_le_bytes());
            b[44..46].copy_from_slice(&2048i16.to_le_bytes());
            b[46..48].copy_from_slice(&64i16.to_le_bytes());
        });
        big.truncate(HEADER_BYTES);
        big.resize(HEADER_BYTES + (1 << 20), 0);
        std::io::Write::write_all(&mut e, &big).unwrap();
        refuse("bomb.nii.gz", &e.finish().unwrap(), "decompression bomb");
        // a gzip stream cut short
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut e, &bytes).unwrap();
        let gz = e.finish().unwrap();
        refuse(
            "cut.nii.gz",
            &gz[..gz.len() / 2],
            "gzip stream unreadable|truncated|bytes of header",
        );
        // a gzip stream whose check fails (the CRC in its trailer changed): corrupt, not good
        let mut bad_crc = gz.clone();
        let n = bad_crc.len();
        bad_crc[n - 8] ^= 0xff;
        refuse("crc.nii.gz", &bad_crc, "corrupt");
        // the intact stream reads
        let p = dir.path().join("whole.nii.gz");
        std::fs::write(&p, &gz).unwrap();
        assert_eq!(read_volume(&p, &Limits::default()).unwrap().slices.len(), 2);
        // rescales DICOM refuses: an inverted head, a slope that makes every voxel bone, an
        // intercept beyond any CT's
        for (name, slope, inter) in [
            ("inverted.nii", -1f32, 0f32),
            ("huge-slope.nii", 1e30, 0.0),
            ("tiny-slope.nii", 1e-30, 0.0),
            ("far-inter.nii", 1.0, 1e9),
        ] {
            refuse(
                name,
                &patch(&|b| {
                    b[112..116].copy_from_slice(&slope.to_le_bytes());
                    b[116..120].copy_from_slice(&inter.to_le_bytes());
                }),
                "not a CT rescale",
            );
        }
    }

    /// Values below −1024 HU (a scanner's padding outside the field of view) read as −1024, as
    /// the DICOM path clips them; the rest as they are.
    #[test]
    fn values_below_minus_1024_are_clipped_as_dicom_clips_them() {
        let dir = tempfile::tempdir().unwrap();
        let eye: Affine = [
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, -1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
        ];
        let p = dir.path().join("pad.nii");
        write_int16(&p, [2, 1, 1], &[-3024, 40], &eye, 1.0, 0.0).unwrap();
        let v = read_volume(&p, &Limits::default()).unwrap();
        let mut hu = v.slices[0].hu.clone();
        hu.sort_by(f32::total_cmp);
        assert_eq!(hu, vec![-1024.0, 40.0]);
    }

    /// NaN voxels read as air with a count; a 4-D volume gives its first volume, named; a
    /// missing slope means unscaled; float64 and big-endian uint16 voxels read right.
    #[test]
    fn odd_but_readable_files_are_read_and_say_so() {
        let dir = tempfile::tempdir().unwrap();
        let eye: Affine = [
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, -1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
        ];
        let p = dir.path().join("a.nii");
        let v: Vec<i16> = (0..8).map(|x| x * 100 - 1000).collect();
        write_int16(&p, [2, 2, 2], &v, &eye, 0.0, 55.0).unwrap();
        let vol = read_volume(&p, &Limits::default()).unwrap();
        // slope 0: unscaled, the intercept ignored too
        assert_eq!(vol.slices[0].hu, vec![-1000.0, -900.0, -800.0, -700.0]);
        let mut b = std::fs::read(&p).unwrap();
        // float64 with a NaN, as 4-D with 3 volumes (only the first present is needed)
        b[70..72].copy_from_slice(&64i16.to_le_bytes());
        b[40..42].copy_from_slice(&4i16.to_le_bytes());
        b[48..50].copy_from_slice(&3i16.to_le_bytes());
        b[112..116].copy_from_slice(&2f32.to_le_bytes());
        b[116..120].copy_from_slice(&(-1024f32).to_le_bytes());
        b.truncate(HEADER_BYTES);
        for i in 0..8 {
            let x = if i == 5 { f64::NAN } else { i as f64 * 300.0 };
            b.extend_from_slice(&x.to_le_bytes());
        }
        let q = dir.path().join("b.nii");
        std::fs::write(&q, &b).unwrap();
        let vol = read_volume(&q, &Limits::default()).unwrap();
        assert_eq!(vol.slices[0].hu, vec![-1024.0, -424.0, 176.0, 776.0]);
        assert_eq!(vol.slices[1].hu, vec![1376.0, -1024.0, 2576.0, 3176.0]);
        let w = vol.warnings.join("\n");
        assert!(w.contains("1 of 8 voxels are NaN"), "{w}");
        assert!(w.contains("4-D volume of 3 volumes"), "{w}");
        // big-endian uint16: the header and the voxels byte-swapped
        let mut h = std::fs::read(&p).unwrap();
        h.truncate(HEADER_BYTES);
        let swap = |h: &mut Vec<u8>, at: usize, n: usize| h[at..at + n].reverse();
        swap(&mut h, 0, 4);
        for a in 0..8 {
            swap(&mut h, 40 + 2 * a, 2);
        }
        h[70..72].copy_from_slice(&512i16.to_be_bytes());
        swap(&mut h, 72, 2);
        for a in 0..8 {
            swap(&mut h, 76 + 4 * a, 4);
        }
        swap(&mut h, 108, 4);
        h[112..116].copy_from_slice(&1f32.to_be_bytes());
        h[116..120].copy_from_slice(&(-1024f32).to_be_bytes());
        swap(&mut h, 252, 2);
        swap(&mut h, 254, 2);
        for k in 0..12 {
            swap(&mut h, 280 + 4 * k, 4);
        }
        for x in 0..8u16 {
            h.extend_from_slice(&(x * 10).to_be_bytes());
        }
        let r = dir.path().join("c.nii");
        std::fs::write(&r, &h).unwrap();
        let vol = read_volume(&r, &Limits::default()).unwrap();
        assert!(vol.geometry.big_endian);
        assert_eq!(vol.slices[1].hu, vec![-984.0, -974.0, -964.0, -954.0]);
    }

    #[test]
    fn names_are_relative_to_their_input() {
        let ins = [PathBuf::from("/data/bhsd"), PathBuf::from("/x/one.nii.gz")];
        assert_eq!(
            name_under(Path::new("/data/bhsd/sub-1/ct.nii.gz"), &ins),
            "sub-1/ct.nii.gz"
        );
        assert_eq!(name_under(Path::new("/x/one.nii.gz"), &ins), "one.nii.gz");
        assert!(is_nifti(Path::new("a/B.NII.GZ")) && is_nifti(Path::new("b.nii")));
        assert!(!is_nifti(Path::new("b.nii.bak")) && !is_nifti(Path::new("x.dcm")));
    }
}
