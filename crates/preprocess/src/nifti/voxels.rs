//! The voxels of a volume: read whole within the limits (`read_voxels`, `read_volume`) or streamed
//! a plane or a 64 MiB batch at a time (`for_each_slice`), a file cut short or inflating past its
//! bounds refused by name.

use std::path::PathBuf;

use super::*;

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
    pub(super) path: PathBuf,
    pub(super) bytes: Vec<u8>,
}

/// What the slices taken so far held: non-finite voxels, and the range of the finite ones.
#[derive(Debug, Clone, Copy)]
pub struct VoxelStats {
    pub(super) non_finite: usize,
    pub(super) total: usize,
    pub(super) lo: f32,
    pub(super) hi: f32,
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
pub(super) struct VoxelStream {
    pub(super) r: Box<dyn Read>,
    pub(super) gz: bool,
    pub(super) size: u64,
    pub(super) can_hold: u64,
}

/// Opens `path` (plain or gzip) and skips to the first voxel of geometry `g`.
pub(super) fn open_voxels(
    path: &Path,
    limits: &Limits,
    g: &Geometry,
) -> Result<VoxelStream, FileError> {
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
    pub(super) fn unreadable(&self, path: &Path, e: std::io::Error) -> FileError {
        if self.gz {
            bad(path, format!("gzip stream unreadable: {e}"))
        } else {
            FileError::new(path, e)
        }
    }

    /// Fills `buf` from the stream; `at` is the file's byte offset of its start (to say how much
    /// a truncated file held).
    pub(super) fn fill(
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
    pub(super) fn finish(mut self, path: &Path, g: &Geometry) -> Result<(), FileError> {
        if self.gz {
            let needed = g.vox_offset + g.volume_bytes();
            drain_checked(path, &mut self.r, self.size, self.can_hold, needed)?;
        }
        Ok(())
    }
}

pub(super) fn truncated(path: &Path, g: &Geometry, held: u64) -> FileError {
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
pub(super) fn for_each_slice_within(
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
