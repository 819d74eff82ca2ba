//! Hostile variants of a file written by [`CtSlice::to_bytes`], made from nothing for the tests
//! and fuzz seeds of docs/ROBUSTNESS.md (explicit VR little endian only).

use std::path::Path;

use dicom_core::{DataElement, PrimitiveValue, Tag, VR};
use dicom_dictionary_std::tags;
use dicom_object::DefaultDicomObject;

use preprocess::ctwriter::CtSlice;
use preprocess::error::{Error, Result};

/// Rescale values no CT slice has, each as (attribute, value as stored, attribute's name).
pub const INVALID_RESCALE: [(Tag, &str, &str); 8] = [
    (tags::RESCALE_SLOPE, "0", "RescaleSlope"),
    (tags::RESCALE_SLOPE, "NaN", "RescaleSlope"),
    (tags::RESCALE_SLOPE, "Inf", "RescaleSlope"),
    (tags::RESCALE_SLOPE, "", "RescaleSlope"),
    (tags::RESCALE_SLOPE, "-1", "RescaleSlope"),
    (tags::RESCALE_SLOPE, "1e-30", "RescaleSlope"),
    (tags::RESCALE_INTERCEPT, "NaN", "RescaleIntercept"),
    (tags::RESCALE_INTERCEPT, "1e300", "RescaleIntercept"),
];

/// Writes `slice` to `path`, then changes it there through dicom-object.
pub fn write_edited(
    slice: &CtSlice,
    path: &Path,
    change: impl FnOnce(&mut DefaultDicomObject),
) -> Result<()> {
    std::fs::write(path, slice.to_bytes()?).map_err(|e| Error::io(path, e))?;
    let mut obj = dicom_object::open_file(path)
        .map_err(|e| Error::Invalid(format!("{}: {e}", path.display())))?;
    change(&mut obj);
    obj.write_to_file(path)
        .map_err(|e| Error::Invalid(format!("{}: {e}", path.display())))
}

/// Puts `text` into `obj` as `tag` with VR UN, as a router that forgot the VRs writes it.
pub fn put_un(obj: &mut DefaultDicomObject, tag: Tag, text: &str) {
    obj.put(DataElement::new(
        tag,
        VR::UN,
        PrimitiveValue::from(text.as_bytes().to_vec()),
    ));
}

/// Puts a Modality LUT Sequence (one empty item) into `obj`.
pub fn put_modality_lut(obj: &mut DefaultDicomObject) {
    obj.put(DataElement::new(
        tags::MODALITY_LUT_SEQUENCE,
        VR::SQ,
        dicom_core::value::DataSetSequence::from(vec![dicom_object::InMemDicomObject::new_empty()]),
    ));
}

/// Offset of the (7FE0,0010) Pixel Data element in `file`.
fn pixel_data_at(file: &[u8]) -> Option<usize> {
    file.windows(4).rposition(|w| w == [0xE0, 0x7F, 0x10, 0x00])
}

/// `file` with `depth` sequences (0040,A730) nested inside each other before its pixel data,
/// each of undefined length holding one item of undefined length. `None` when `file` has no
/// pixel data.
pub fn nested_sequences(file: &[u8], depth: usize) -> Option<Vec<u8>> {
    let px = pixel_data_at(file)?;
    let mut seq = Vec::with_capacity(depth * 36);
    for _ in 0..depth {
        seq.extend([
            0x40, 0x00, 0x30, 0xA7, b'S', b'Q', 0, 0, 0xFF, 0xFF, 0xFF, 0xFF,
        ]);
        seq.extend([0xFE, 0xFF, 0x00, 0xE0, 0xFF, 0xFF, 0xFF, 0xFF]);
    }
    for _ in 0..depth {
        seq.extend([0xFE, 0xFF, 0x0D, 0xE0, 0, 0, 0, 0]); // item end
        seq.extend([0xFE, 0xFF, 0xDD, 0xE0, 0, 0, 0, 0]); // sequence end
    }
    Some([&file[..px], &seq, &file[px..]].concat())
}

/// `file` with `n` empty private elements (LO, length 0: 8 bytes each) in private groups from
/// (0029,1000) on, before its pixel data when `before_pixels`, else after it (groups from
/// 7FE1 on). `None` when `file` has no pixel data.
pub fn many_elements(file: &[u8], n: usize, before_pixels: bool) -> Option<Vec<u8>> {
    let px = pixel_data_at(file)?;
    let first: u16 = if before_pixels { 0x0029 } else { 0x7FE1 };
    let mut els = Vec::with_capacity(n * 8);
    'groups: for group in (first..=0xFFFD).step_by(2) {
        for element in 0x1000..=0xFFFFu16 {
            if els.len() == n * 8 {
                break 'groups;
            }
            els.extend(group.to_le_bytes());
            els.extend(element.to_le_bytes());
            els.extend([b'L', b'O', 0, 0]);
        }
    }
    Some(if before_pixels {
        [&file[..px], &els, &file[px..]].concat()
    } else {
        [file, &els].concat()
    })
}

/// The header of `file` followed by the start of a private element (0009,1010) OB declaring
/// `mib` MiB: the element's bytes are to follow (`None` when `file` has no pixel data).
pub fn large_element_head(file: &[u8], mib: u32) -> Option<Vec<u8>> {
    let px = pixel_data_at(file)?;
    let mut head = file[..px].to_vec();
    head.extend([0x09, 0x00, 0x10, 0x10, b'O', b'B', 0, 0]);
    head.extend((mib << 20).to_le_bytes());
    Some(head)
}

/// Writes to `path` [`large_element_head`] with the element's bytes a hole of a sparse file
/// (a few kB on disk).
pub fn sparse_element_file(path: &Path, file: &[u8], mib: u32) -> std::io::Result<()> {
    let head =
        large_element_head(file, mib).ok_or_else(|| std::io::Error::other("no pixel data"))?;
    std::fs::write(path, &head)?;
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .set_len(head.len() as u64 + ((mib as u64) << 20))
}
