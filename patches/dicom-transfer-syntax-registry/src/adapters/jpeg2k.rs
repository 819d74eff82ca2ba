//! Support for JPEG 2000 image decoding.

use dicom_encoding::adapters::{DecodeResult, PixelDataObject, PixelDataReader, decode_error};
use dicom_encoding::snafu::prelude::*;
use jpeg2k::Image;
use tracing::warn;

// Check jpeg2k backend conflicts
#[cfg(all(feature = "openjp2", feature = "openjpeg-sys"))]
compile_error!(
    "feature \"openjp2\" and feature \"openjpeg-sys\" cannot be enabled at the same time"
);

/// Pixel data adapter for transfer syntaxes based on JPEG 2000.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Jpeg2000Adapter;

impl PixelDataReader for Jpeg2000Adapter {
    /// Decode a single frame in JPEG 2000 from a DICOM object.
    fn decode_frame(
        &self,
        src: &dyn PixelDataObject,
        frame: u32,
        dst: &mut Vec<u8>,
    ) -> DecodeResult<()> {
        let cols = src
            .cols()
            .context(decode_error::MissingAttributeSnafu { name: "Columns" })?;
        let rows = src
            .rows()
            .context(decode_error::MissingAttributeSnafu { name: "Rows" })?;
        let samples_per_pixel =
            src.samples_per_pixel()
                .context(decode_error::MissingAttributeSnafu {
                    name: "SamplesPerPixel",
                })?;
        let bits_allocated = src
            .bits_allocated()
            .context(decode_error::MissingAttributeSnafu {
                name: "BitsAllocated",
            })?;

        ensure_whatever!(
            bits_allocated == 8 || bits_allocated == 16,
            "BitsAllocated other than 8 or 16 is not supported"
        );

        let nr_frames = src.number_of_frames().unwrap_or(1) as usize;

        ensure!(
            nr_frames > frame as usize,
            decode_error::FrameRangeOutOfBoundsSnafu
        );

        let bytes_per_sample = bits_allocated / 8;

        // `stride` it the total number of bytes for each sample plane
        let stride: usize = bytes_per_sample as usize * cols as usize * rows as usize;
        let base_offset = dst.len();

        let frame_data = src
            .frame_pixel_data(frame)
            .context(decode_error::FrameRangeOutOfBoundsSnafu)?;

        // extend output vector
        guarded_resize(dst, samples_per_pixel as usize * stride, frame_data.len())?;

        // the decoder allocates what the codestream's SIZ marker says (33 GB for a SIZ changed
        // in a 3.5 kB file): check it against the header first
        check_siz(&frame_data, cols, rows)?;

        let image = Image::from_bytes(&frame_data).whatever_context("jpeg2k decoder failure")?;

        // Note: we cannot use `get_pixels`
        // because the current implementation narrows the data
        // down to 8 bits per sample
        let components = image.components();

        // the codestream must agree with Rows, Columns and SamplesPerPixel: every write below
        // then stays inside the frame
        let pixels = cols as usize * rows as usize;
        for (component_i, component) in components.iter().enumerate() {
            ensure_whatever!(
                component_i >= samples_per_pixel as usize || component.data().len() == pixels,
                "JPEG 2000 component {component_i} holds {} samples, Rows × Columns is {pixels}",
                component.data().len()
            );
        }

        // write each component into the destination buffer
        for (component_i, component) in components.iter().enumerate() {
            if component_i >= samples_per_pixel as usize {
                warn!(
                    "JPEG 2000 image has more components than expected ({} > {})",
                    component_i, samples_per_pixel
                );
                break;
            }

            // write in standard layout
            for (i, sample) in component.data().iter().enumerate() {
                let offset = base_offset
                    + i * samples_per_pixel as usize * bytes_per_sample as usize
                    + component_i * bytes_per_sample as usize;
                dst[offset..offset + bytes_per_sample as usize]
                    .copy_from_slice(&sample.to_le_bytes()[..bytes_per_sample as usize]);
            }
        }

        Ok(())
    }
}

/// Checks the image and tile sizes of a JPEG 2000 codestream's SIZ marker (ISO 15444-1 A.5.1)
/// against Columns and Rows before the decoder allocates anything: the image must be
/// Columns × Rows, with 1–4 components and at most 65,536 tiles. The codestream (SOC `FF4F`
/// followed by SIZ `FF51`) may sit inside a JP2 box structure; it is looked for in the first 64 kB.
fn check_siz(data: &[u8], cols: u16, rows: u16) -> DecodeResult<()> {
    let head = &data[..data.len().min(1 << 16)];
    let at = head
        .windows(4)
        .position(|w| w == [0xFF, 0x4F, 0xFF, 0x51])
        .whatever_context("no JPEG 2000 codestream (SOC and SIZ markers) in the frame")?;
    let siz = &data[at + 4..];
    ensure_whatever!(siz.len() >= 38, "JPEG 2000 SIZ marker truncated");
    let u32_at = |i: usize| u32::from_be_bytes([siz[i], siz[i + 1], siz[i + 2], siz[i + 3]]);
    let (xsiz, ysiz, xo, yo) = (u32_at(4), u32_at(8), u32_at(12), u32_at(16));
    let (xt, yt, xto, yto) = (u32_at(20), u32_at(24), u32_at(28), u32_at(32));
    let csiz = u16::from_be_bytes([siz[36], siz[37]]);
    let width = xsiz.checked_sub(xo);
    let height = ysiz.checked_sub(yo);
    ensure_whatever!(
        width == Some(u32::from(cols)) && height == Some(u32::from(rows)),
        "JPEG 2000 codestream is {}×{}, Columns × Rows is {cols}×{rows}",
        width.map_or("?".to_string(), |w| w.to_string()),
        height.map_or("?".to_string(), |h| h.to_string())
    );
    ensure_whatever!(
        (1..=4).contains(&csiz),
        "JPEG 2000 codestream has {csiz} components (1 to 4 are read)"
    );
    ensure_whatever!(
        xt > 0 && yt > 0 && xto <= xo && yto <= yo,
        "JPEG 2000 tile grid {xt}×{yt} at ({xto}, {yto}) is invalid"
    );
    let tiles_x = (u64::from(xsiz) - u64::from(xto)).div_ceil(u64::from(xt));
    let tiles_y = (u64::from(ysiz) - u64::from(yto)).div_ceil(u64::from(yt));
    ensure_whatever!(
        tiles_x * tiles_y <= 1 << 16,
        "JPEG 2000 codestream has {} tiles (at most 65,536 are read)",
        tiles_x * tiles_y
    );
    Ok(())
}

const COMPRESSION_RATIO_THRESHOLD: u32 = 64;

/// Perform a resize of a vector (with zeros), safeguarded from extreme cases.
fn guarded_resize(
    out: &mut Vec<u8>,
    additional_capacity: usize,
    fragment_size: usize,
) -> DecodeResult<()> {
    crate::alloc::guarded_resize(
        out,
        additional_capacity,
        fragment_size,
        COMPRESSION_RATIO_THRESHOLD,
    )
    .ok()
    .context(decode_error::AllocateSnafu {
        name: "frame",
        size: additional_capacity,
    })
}
