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
use std::path::Path;

use crate::error::{FileError, FileProblem};
use crate::read::{HuImage, Limits, SliceHeader};
use crate::source::{VolumeFormat, VolumeHeader, VolumeSlice};

mod header;
mod voxels;
pub use header::{read_geometry, Geometry, OrientedBy};
pub use voxels::{
    for_each_slice, read_volume, read_voxels, Volume, VoxelData, VoxelStats, BATCH_BYTES,
};

/// A gzip stream may declare at most this many output bytes per compressed byte. A CT volume
/// compresses 2–10:1; a header that asks more is a decompression bomb or a truncated file.
pub const MAX_GZIP_RATIO: u64 = 512;

/// A voxel edge (mm) outside this range is not a CT voxel: the affine or pixdim is refused.
pub const VOXEL_MM: (f64, f64) = (1e-3, 1e3);

/// The header of a NIfTI-1 file: 348 bytes, and the 4-byte extension flag.
const HEADER_BYTES: usize = 352;

/// What HU a non-finite voxel reads as.
const PAD_HU: f32 = -1024.0;

/// NIfTI-1 as a [`VolumeFormat`]: the first volume format, and the only one listed in
/// [`crate::VOLUME_FORMATS`] so far.
#[derive(Debug)]
pub struct Nifti;

impl VolumeFormat for Nifti {
    fn name(&self) -> &'static str {
        NAME
    }

    fn claims(&self, path: &Path) -> bool {
        is_nifti(path)
    }

    fn header(&self, path: &Path, limits: &Limits) -> Result<VolumeHeader, FileError> {
        let g = read_geometry(path, limits)?;
        let (slices, z) = g.slice_headers(path);
        Ok(VolumeHeader {
            slices,
            z,
            warnings: g.warnings,
        })
    }

    fn for_each_slice(
        &self,
        path: &Path,
        limits: &Limits,
        each: &mut dyn FnMut(usize, HuImage),
    ) -> Result<Vec<String>, FileError> {
        for_each_slice(path, limits, each)
    }
}

/// The format's name in messages, and in its files' refusals ("NIfTI: …", counted "bad NIfTI").
const NAME: &str = "NIfTI";

/// Whether `path` names a NIfTI file (`.nii` or `.nii.gz`, any case).
pub fn is_nifti(path: &Path) -> bool {
    let n = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    n.ends_with(".nii") || n.ends_with(".nii.gz")
}

fn bad(path: &Path, why: impl Into<String>) -> FileError {
    FileError::new(
        path,
        FileProblem::Volume {
            format: NAME,
            why: why.into(),
        },
    )
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

#[cfg(test)]
mod tests {
    use super::header::*;
    use super::voxels::*;
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
    fn nifti_files_are_known_by_their_names() {
        assert!(Nifti.claims(Path::new("a/B.NII.GZ")) && Nifti.claims(Path::new("b.nii")));
        assert!(is_nifti(Path::new("a/B.NII.GZ")) && is_nifti(Path::new("b.nii")));
        assert!(!is_nifti(Path::new("b.nii.bak")) && !is_nifti(Path::new("x.dcm")));
    }
}
