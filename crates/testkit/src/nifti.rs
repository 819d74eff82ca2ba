//! NIfTI-1 volumes written from nothing, for the tests of the NIfTI reader.

use std::path::Path;

fn norm(d: [f64; 3]) -> f64 {
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// Writes a NIfTI-1 file of int16 voxels (`.nii.gz` when `path` ends so), first index fastest:
/// `voxels[k][j][i]` flattened, with the given sform (voxel → RAS+ mm; also set as the qform's
/// voxel sizes) and `scl_slope`/`scl_inter`. For tests and benchmarks; atomic.
pub fn write_int16(
    path: &Path,
    dims: [usize; 3],
    voxels: &[i16],
    affine: &[[f64; 4]; 3],
    slope: f32,
    inter: f32,
) -> std::io::Result<()> {
    assert_eq!(voxels.len(), dims.iter().product::<usize>());
    let mut h = vec![0u8; 352];
    let put_i16 =
        |h: &mut Vec<u8>, at: usize, v: i16| h[at..at + 2].copy_from_slice(&v.to_le_bytes());
    let put_f32 =
        |h: &mut Vec<u8>, at: usize, v: f32| h[at..at + 4].copy_from_slice(&v.to_le_bytes());
    h[0..4].copy_from_slice(&348i32.to_le_bytes());
    put_i16(&mut h, 40, 3);
    for (a, &d) in dims.iter().enumerate() {
        put_i16(&mut h, 42 + 2 * a, d as i16);
    }
    for a in 3..7 {
        put_i16(&mut h, 42 + 2 * a, 1);
    }
    put_i16(&mut h, 70, 4); // datatype int16
    put_i16(&mut h, 72, 16); // bitpix
    put_f32(&mut h, 76, 1.0); // pixdim[0] = qfac
    let edge = |a: usize| norm([affine[0][a], affine[1][a], affine[2][a]]) as f32;
    for (a, at) in [80, 84, 88].into_iter().enumerate() {
        put_f32(&mut h, at, edge(a));
    }
    put_f32(&mut h, 108, 352.0); // vox_offset
    put_f32(&mut h, 112, slope);
    put_f32(&mut h, 116, inter);
    h[123] = 2; // xyzt_units: mm
    put_i16(&mut h, 252, 0); // qform_code
    put_i16(&mut h, 254, 1); // sform_code: scanner
    for (r, row) in affine.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            put_f32(&mut h, 280 + 16 * r + 4 * c, v as f32);
        }
    }
    h[344..348].copy_from_slice(b"n+1\0");
    let mut bytes = h;
    bytes.reserve(voxels.len() * 2);
    for v in voxels {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let gz = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
    let out = if gz {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        std::io::Write::write_all(&mut e, &bytes)?;
        e.finish()?
    } else {
        bytes
    };
    milbase::write_atomic(path, &out)
}
