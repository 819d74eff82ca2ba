//! The header of a volume: its geometry (dimensions, voxel type and size, orientation from the
//! sform or qform) read from a bounded prefix of the file, checked before any voxel is read.

use super::*;

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
    pub(super) fn lps(&self, a: usize) -> [f64; 3] {
        [-self.affine[0][a], -self.affine[1][a], self.affine[2][a]]
    }

    /// LPS position (mm) of file voxel `v`.
    pub(super) fn position(&self, v: [usize; 3]) -> [f64; 3] {
        let mut p = [0.0; 3];
        for (r, pr) in p.iter_mut().enumerate() {
            *pr = self.affine[r][3] + (0..3).map(|a| self.affine[r][a] * v[a] as f64).sum::<f64>();
        }
        [-p[0], -p[1], p[2]]
    }

    /// The file voxel of slice `t`, row `r`, column `c`.
    pub(super) fn voxel_of(&self, t: usize, r: usize, c: usize) -> [usize; 3] {
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
    pub(super) fn unit(d: [f64; 3], sign: f64) -> ([f64; 3], f64) {
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
            headers.push(
                VolumeSlice {
                    index: self.file_index(t),
                    rows: self.rows() as u16,
                    cols: self.cols() as u16,
                    position: p,
                    orientation: [x[0], x[1], x[2], y[0], y[1], y[2]],
                    pixel_spacing: [row_mm, col_mm],
                    thickness,
                }
                .header(path),
            );
        }
        (headers, z)
    }
}

pub(super) fn norm(d: [f64; 3]) -> f64 {
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

pub(super) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
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

pub(super) fn geometry_of(
    path: &Path,
    head: &[u8],
    limits: &Limits,
) -> Result<Geometry, FileError> {
    let h = nifti1_header(path, head)?;
    let mut warnings = Vec::new();
    let (dims, volumes) = dims_of(path, &h, &mut warnings)?;
    let voxel = Voxel::from_code(h.datatype).ok_or_else(|| {
        bad(
            path,
            format!(
                "datatype {} is not read (integers of 8 to 64 bits, float32 and float64 are)",
                h.datatype
            ),
        )
    })?;
    let vox_offset = voxels_within(path, &h, (dims, voxel), limits)?;
    let (slope, inter) = rescale_of(path, &h)?;
    let (affine, oriented_by) = affine_of(path, &h, &mut warnings)?;
    let Axes {
        slice_axis,
        row_axis,
        col_axis,
        flip,
    } = axes_of(path, &affine, dims, &mut warnings)?;
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

/// The header of a single-file NIfTI-1 volume (not NIfTI-2, not a .hdr/.img pair).
fn nifti1_header(path: &Path, head: &[u8]) -> Result<nifti::NiftiHeader, FileError> {
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
    Ok(h)
}

/// The volume's three spatial dimensions (each at least 1) and its number of volumes (a 4-D
/// volume's first is read, with a warning; 5-D data is refused).
fn dims_of(
    path: &Path,
    h: &nifti::NiftiHeader,
    warnings: &mut Vec<String>,
) -> Result<([usize; 3], usize), FileError> {
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
    Ok((dims, volumes))
}

/// Where the voxels start, checked: after the header, a slice along any axis within the slice
/// ceiling, and the voxels within the file ceiling.
fn voxels_within(
    path: &Path,
    h: &nifti::NiftiHeader,
    (dims, voxel): ([usize; 3], Voxel),
    limits: &Limits,
) -> Result<u64, FileError> {
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
    Ok(vox_offset)
}

/// The rescale slope and intercept to Hounsfield units (none: 1 and 0), within the bounds
/// DICOM's RescaleSlope and RescaleIntercept are held to.
fn rescale_of(path: &Path, h: &nifti::NiftiHeader) -> Result<(f64, f64), FileError> {
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
    Ok((slope, inter))
}

/// Which voxel axis runs along the slices, the rows and the columns, and which are flipped to
/// read inferior first, rows anterior to posterior and columns right to left.
struct Axes {
    slice_axis: usize,
    row_axis: usize,
    col_axis: usize,
    flip: [bool; 3],
}

/// The axes of the affine: every voxel edge within reason, a volume (not a plane), the slice
/// axis the one closest to head–feet (a warning beyond 30° from axial).
fn axes_of(
    path: &Path,
    affine: &Affine,
    dims: [usize; 3],
    warnings: &mut Vec<String>,
) -> Result<Axes, FileError> {
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
    Ok(Axes {
        slice_axis,
        row_axis,
        col_axis,
        flip,
    })
}

pub(super) type Affine = [[f64; 4]; 3];

/// The voxel → RAS+ affine: sform, else qform, else pixdim alone.
pub(super) fn affine_of(
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
