//! Support for RLE Lossless image decoding.
//!
//! implementation taken from Pydicom:
//! <https://github.com/pydicom/pydicom/blob/master/pydicom/pixel_data_handlers/rle_handler.py>
//!
//! Copyright 2008-2021 pydicom authors.
//!
//! License: <https://github.com/pydicom/pydicom/blob/master/LICENSE>
use byteordered::byteorder::{ByteOrder, LittleEndian};

use dicom_encoding::adapters::{DecodeResult, PixelDataObject, PixelDataReader, decode_error};
use dicom_encoding::snafu::prelude::*;
use std::io::{self, Read, Seek};

/// Pixel data adapter for the RLE Lossless transfer syntax.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RleLosslessAdapter;

/// Pixel data decoder for RLE Lossless (UID `1.2.840.10008.1.2.5`)
impl PixelDataReader for RleLosslessAdapter {
    /// Decode the DICOM image from RLE Lossless completely.
    ///
    /// See <https://dicom.nema.org/medical/dicom/2023e/output/chtml/part05/chapter_G.html>
    fn decode(&self, src: &dyn PixelDataObject, dst: &mut Vec<u8>) -> DecodeResult<()> {
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

        if bits_allocated != 8 && bits_allocated != 16 {
            whatever!("BitsAllocated other than 8 or 16 is not supported");
        }
        // For RLE the number of fragments = number of frames
        // therefore, we can fetch the fragments one by one
        let nr_frames =
            src.number_of_fragments()
                .whatever_context("Invalid pixel data, no fragments found")? as usize;
        let bytes_per_sample = (bits_allocated / 8) as usize;
        let samples_per_pixel = samples_per_pixel as usize;
        // `stride` is the total number of bytes for each sample plane
        let stride = bytes_per_sample * cols as usize * rows as usize;
        let frame_size = stride * samples_per_pixel;

        // extend `dst` to make room for decoded pixel data
        let base_offset = dst.len();
        // estimate the sizes of the encapsulated fragments
        let encapsulated_size = src.fragment(0).unwrap_or_default().len() * nr_frames;
        guarded_resize(dst, frame_size * nr_frames, encapsulated_size)?;

        // RLE encoded data is ordered like this (for 16-bit, 3 sample):
        //  Segment: 0     | 1     | 2     | 3     | 4     | 5
        //           R MSB | R LSB | G MSB | G LSB | B MSB | B LSB
        //  A segment contains only the MSB or LSB parts of all the sample pixels

        // As currently required,
        // we need to rearrange the pixel data to standard planar configuration.
        // (and use little endian byte ordering):
        //    Pixel 1                             | ... Pixel N
        //    Red         Green       Blue        | ...
        //    LSB R MSB R LSB G MSB G LSB B MSB B | ...

        for i in 0..nr_frames {
            let fragment = &src
                .fragment(i)
                .whatever_context("No pixel data found for frame")?;
            let mut offsets = read_rle_header(fragment)?;
            offsets.push(fragment.len() as u32);

            for sample_number in 0..samples_per_pixel {
                for byte_offset in (0..bytes_per_sample).rev() {
                    // ii is 1, 0, 3, 2, 5, 4 for the example above
                    // This is where the segment order correction occurs
                    let ii = sample_number * bytes_per_sample + byte_offset;
                    ensure_whatever!(ii + 1 < offsets.len(), "Invalid RLE segment offsets");
                    let segment_range = offsets[ii] as usize..offsets[ii + 1] as usize;
                    let segment = fragment
                        .get(segment_range)
                        .whatever_context("Invalid RLE segment range")?;
                    let buff = io::Cursor::new(segment);
                    let (_, decoder) = PackBitsReader::new(buff, segment.len())
                        .whatever_context("Failed to read RLE segments")?;
                    let mut decoded_segment =
                        guarded_alloc(rows as usize * cols as usize, fragment.len())?;
                    decoder
                        .take(rows as u64 * cols as u64)
                        .read_to_end(&mut decoded_segment)
                        .map_err(|e| Box::new(e) as Box<_>)
                        .whatever_context("Failed to decode an RLE segment")?;
                    // a segment holds one byte of every pixel: a shorter one is corrupt
                    ensure_whatever!(
                        decoded_segment.len() == rows as usize * cols as usize,
                        "RLE segment decodes to {} bytes, Rows × Columns is {}",
                        decoded_segment.len(),
                        rows as usize * cols as usize
                    );

                    // Interleave pixels as described in the example above.
                    // in 16-bit, this is:
                    // MSB R channel: 1,  7, 13, ...
                    // LSB R channel: 0,  6, 12, ...
                    // MSB G channel: 3,  9, 15, ...
                    // LSB G channel: 2,  8, 14, ...
                    // MSB G channel: 5, 11, 17, ...
                    // LSB G channel: 4, 10, 16, ...
                    let frame_start = i * frame_size;
                    let start = frame_start
                        + sample_number * bytes_per_sample
                        + (bytes_per_sample - 1 - byte_offset);

                    let end = (i + 1) * frame_size;
                    for (decoded_index, dst_index) in (start..end)
                        .step_by(bytes_per_sample * samples_per_pixel)
                        .enumerate()
                    {
                        dst[base_offset + dst_index] = decoded_segment[decoded_index];
                    }
                }
            }
        }
        Ok(())
    }

    /// Decode a single frame of the DICOM image from RLE Lossless.
    ///
    /// See <https://dicom.nema.org/medical/dicom/2023e/output/chtml/part05/chapter_G.html>
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

        if bits_allocated != 8 && bits_allocated != 16 {
            whatever!("BitsAllocated other than 8 or 16 is not supported");
        }
        // For RLE the number of fragments = number of frames
        // therefore, we can fetch the fragments one by one
        let nr_frames =
            src.number_of_fragments()
                .whatever_context("Invalid pixel data, no fragments found")? as usize;
        ensure!(
            nr_frames > frame as usize,
            decode_error::FrameRangeOutOfBoundsSnafu
        );

        let bytes_per_sample = (bits_allocated / 8) as usize;
        let samples_per_pixel = samples_per_pixel as usize;
        // `stride` is the total number of bytes for each sample plane
        let stride = bytes_per_sample * cols as usize * rows as usize;
        let frame_size = stride * samples_per_pixel;
        let base_offset = dst.len();

        // RLE encoded data is ordered like this (for 16-bit, 3 sample):
        //  Segment: 0     | 1     | 2     | 3     | 4     | 5
        //           R MSB | R LSB | G MSB | G LSB | B MSB | B LSB
        //  A segment contains only the MSB or LSB parts of all the sample pixels

        // As currently required,
        // we need to rearrange the pixel data to standard planar configuration.
        // (and use little endian byte ordering):
        //    Pixel 1                             | ... Pixel N
        //    Red         Green       Blue        | ...
        //    LSB R MSB R LSB G MSB G LSB B MSB B | ...

        let fragment = &src
            .fragment(frame as usize)
            .whatever_context("No pixel data found for frame")?;
        let mut offsets = read_rle_header(fragment)?;
        offsets.push(fragment.len() as u32);

        // extend `dst` to make room for decoded pixel data
        guarded_resize(dst, frame_size, fragment.len())?;

        for sample_number in 0..samples_per_pixel {
            for byte_offset in (0..bytes_per_sample).rev() {
                // ii is 1, 0, 3, 2, 5, 4 for the example above
                // This is where the segment order correction occurs
                let ii = sample_number * bytes_per_sample + byte_offset;
                ensure_whatever!(ii + 1 < offsets.len(), "Invalid RLE segment offsets");
                let segment_range = offsets[ii] as usize..offsets[ii + 1] as usize;
                let segment = fragment
                    .get(segment_range)
                    .whatever_context("Invalid RLE segment range")?;
                let buff = io::Cursor::new(segment);
                let (_, decoder) = PackBitsReader::new(buff, segment.len())
                    .map_err(|e| Box::new(e) as Box<_>)
                    .whatever_context("Failed to read RLE segments")?;
                let mut decoded_segment =
                    guarded_alloc(rows as usize * cols as usize, fragment.len())?;
                decoder
                    .take(rows as u64 * cols as u64)
                    .read_to_end(&mut decoded_segment)
                    .map_err(|e| Box::new(e) as Box<_>)
                    .whatever_context("Failed to decode an RLE segment")?;
                // a segment holds one byte of every pixel: a shorter one is corrupt
                ensure_whatever!(
                    decoded_segment.len() == rows as usize * cols as usize,
                    "RLE segment decodes to {} bytes, Rows × Columns is {}",
                    decoded_segment.len(),
                    rows as usize * cols as usize
                );

                // Interleave pixels as described in the example above.
                let start = sample_number * bytes_per_sample + (bytes_per_sample - 1 - byte_offset);

                let end = frame_size;
                for (decoded_index, dst_index) in (start..end)
                    .step_by(bytes_per_sample * samples_per_pixel)
                    .enumerate()
                {
                    dst[base_offset + dst_index] = decoded_segment[decoded_index];
                }
            }
        }
        Ok(())
    }
}

// TODO(#125) implement `encode`

// Read the RLE header and return the offsets. The header is 64 bytes: the number of segments
// (at most 15, PS3.5 G.5) and 15 offsets; anything else is not RLE data (e.g. a JPEG codestream
// under an RLE transfer syntax), and is refused before any allocation.
fn read_rle_header(fragment: &[u8]) -> DecodeResult<Vec<u32>> {
    ensure_whatever!(
        fragment.len() >= 64,
        "RLE fragment of {} bytes is shorter than the 64-byte RLE header",
        fragment.len()
    );
    let nr_segments = LittleEndian::read_u32(&fragment[0..4]);
    ensure_whatever!(
        nr_segments <= 15,
        "RLE header declares {nr_segments} segments (at most 15)"
    );
    let mut offsets = vec![0; nr_segments as usize];
    LittleEndian::read_u32_into(&fragment[4..4 * (nr_segments + 1) as usize], &mut offsets);
    Ok(offsets)
}

/// PackBits Reader from the image-tiff crate
/// Copyright 2018-2021 PistonDevelopers.
/// License: <https://github.com/image-rs/image-tiff/blob/master/LICENSE>
/// From: https://github.com/image-rs/image-tiff/blob/master/src/decoder/stream.rs
#[derive(Debug)]
struct PackBitsReader {
    buffer: io::Cursor<Vec<u8>>,
}

impl PackBitsReader {
    /// Wraps a reader
    pub fn new<R: Read + Seek>(
        mut reader: R,
        length: usize,
    ) -> io::Result<(usize, PackBitsReader)> {
        let mut buffer = Vec::new();
        let mut header: [u8; 1] = [0];
        let mut data: [u8; 1] = [0];

        let mut bytes_read = 0;
        while bytes_read < length {
            reader.read_exact(&mut header)?;
            bytes_read += 1;

            let h = header[0] as i8;
            if (-127..=-1).contains(&h) {
                let new_len = buffer.len() + (1 - h as isize) as usize;
                reader.read_exact(&mut data)?;
                buffer.resize(new_len, data[0]);
                bytes_read += 1;
            } else if h >= 0 {
                let num_vals = h as usize + 1;
                io::copy(&mut reader.by_ref().take(num_vals as u64), &mut buffer)?;
                bytes_read += num_vals;
            } else {
                // h = -128 is a no-op.
            }
        }

        Ok((
            buffer.len(),
            PackBitsReader {
                buffer: io::Cursor::new(buffer),
            },
        ))
    }
}

impl Read for PackBitsReader {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.buffer.read(buf)
    }
}

const COMPRESSION_RATIO_THRESHOLD: u32 = 32;

/// Perform an allocation, safeguarded from extreme cases.
fn guarded_alloc(capacity: usize, fragment_size: usize) -> DecodeResult<Vec<u8>> {
    crate::alloc::guarded_alloc(capacity, fragment_size, COMPRESSION_RATIO_THRESHOLD)
        .ok()
        .context(decode_error::AllocateSnafu {
            name: "RLE segment",
            size: capacity,
        })
}

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

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn test_packbits() {
        let encoded = vec![
            0xFE, 0xAA, 0x02, 0x80, 0x00, 0x2A, 0xFD, 0xAA, 0x03, 0x80, 0x00, 0x2A, 0x22, 0xF7,
            0xAA,
        ];
        let encoded_len = encoded.len();

        let buff = io::Cursor::new(encoded);
        let (_, mut decoder) = PackBitsReader::new(buff, encoded_len).unwrap();

        let mut decoded = Vec::new();
        decoder.read_to_end(&mut decoded).unwrap();

        let expected = vec![
            0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0xAA, 0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0x22,
            0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
        ];
        assert_eq!(decoded, expected);
    }
}
