//! Writing single-frame CT DICOM files (used by `synth` and by tests that build fixtures).

use dicom_core::value::{PrimitiveValue, C};
use dicom_core::{DataElement, Tag, VR};
use dicom_dictionary_std::{tags, uids};
use dicom_object::{FileMetaTableBuilder, InMemDicomObject};

use crate::error::{Error, Result};

/// One CT slice to write. Defaults: a 16-bit unsigned axial slice, explicit VR little endian,
/// `RescaleSlope` 1, `RescaleIntercept` −1024, MONOCHROME2.
#[derive(Debug, Clone)]
pub struct CtSlice {
    pub study_uid: String,
    pub series_uid: String,
    pub sop_uid: String,
    pub frame_of_reference_uid: String,
    pub patient_name: String,
    pub patient_id: String,
    pub modality: String,
    pub sop_class_uid: String,
    pub series_number: i32,
    pub instance_number: Option<i32>,
    pub position: Option<[f64; 3]>,
    pub orientation: Option<[f64; 6]>,
    pub pixel_spacing: [f64; 2],
    pub slice_thickness: f64,
    pub rows: u16,
    pub cols: u16,
    pub bits_stored: u16,
    pub signed: bool,
    pub slope: f64,
    pub intercept: f64,
    pub padding: Option<i32>,
    pub photometric: String,
    pub transfer_syntax: String,
    /// SeriesDescription (0008,103E); not written when empty.
    pub series_description: String,
    /// Stored values, row-major, `rows × cols`.
    pub stored: Vec<i32>,
}

impl Default for CtSlice {
    fn default() -> Self {
        Self {
            study_uid: "2.25.1".into(),
            series_uid: "2.25.2".into(),
            sop_uid: "2.25.3".into(),
            frame_of_reference_uid: "2.25.4".into(),
            patient_name: "Synthetic^Patient".into(),
            patient_id: "SYNTH".into(),
            modality: "CT".into(),
            sop_class_uid: uids::CT_IMAGE_STORAGE.into(),
            series_number: 1,
            instance_number: Some(1),
            position: Some([0.0, 0.0, 0.0]),
            orientation: Some([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
            pixel_spacing: [1.0, 1.0],
            slice_thickness: 5.0,
            rows: 0,
            cols: 0,
            bits_stored: 16,
            signed: false,
            slope: 1.0,
            intercept: -1024.0,
            padding: None,
            photometric: "MONOCHROME2".into(),
            transfer_syntax: uids::EXPLICIT_VR_LITTLE_ENDIAN.into(),
            series_description: String::new(),
            stored: Vec::new(),
        }
    }
}

/// Formats a decimal string value (DS allows 16 characters).
fn ds(v: f64) -> String {
    let s = format!("{v}");
    if s.len() <= 16 {
        s
    } else {
        let t = format!("{v:.6}");
        if t.len() <= 16 {
            t
        } else {
            format!("{v:.6e}")
        }
    }
}

fn put_str(obj: &mut InMemDicomObject, tag: Tag, vr: VR, v: &str) {
    obj.put(DataElement::new(tag, vr, PrimitiveValue::from(v)));
}

fn put_ds(obj: &mut InMemDicomObject, tag: Tag, vals: &[f64]) {
    let strs: C<String> = vals.iter().map(|v| ds(*v)).collect();
    obj.put(DataElement::new(tag, VR::DS, PrimitiveValue::Strs(strs)));
}

fn put_us(obj: &mut InMemDicomObject, tag: Tag, v: u16) {
    obj.put(DataElement::new(tag, VR::US, PrimitiveValue::from(v)));
}

impl CtSlice {
    /// The DICOM Part 10 file, as bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let n = self.rows as usize * self.cols as usize;
        if self.stored.len() != n {
            return Err(Error::Invalid(format!(
                "CtSlice: {} stored values for {}×{}",
                self.stored.len(),
                self.rows,
                self.cols
            )));
        }
        let mut obj = InMemDicomObject::new_empty();
        put_str(&mut obj, tags::SOP_CLASS_UID, VR::UI, &self.sop_class_uid);
        put_str(&mut obj, tags::SOP_INSTANCE_UID, VR::UI, &self.sop_uid);
        put_str(&mut obj, tags::STUDY_INSTANCE_UID, VR::UI, &self.study_uid);
        put_str(
            &mut obj,
            tags::SERIES_INSTANCE_UID,
            VR::UI,
            &self.series_uid,
        );
        put_str(
            &mut obj,
            tags::FRAME_OF_REFERENCE_UID,
            VR::UI,
            &self.frame_of_reference_uid,
        );
        put_str(&mut obj, tags::MODALITY, VR::CS, &self.modality);
        if !self.series_description.is_empty() {
            put_str(
                &mut obj,
                tags::SERIES_DESCRIPTION,
                VR::LO,
                &self.series_description,
            );
        }
        put_str(&mut obj, tags::PATIENT_NAME, VR::PN, &self.patient_name);
        put_str(&mut obj, tags::PATIENT_ID, VR::LO, &self.patient_id);
        put_str(
            &mut obj,
            tags::IMAGE_TYPE,
            VR::CS,
            "ORIGINAL\\PRIMARY\\AXIAL",
        );
        put_str(
            &mut obj,
            tags::SERIES_NUMBER,
            VR::IS,
            &self.series_number.to_string(),
        );
        if let Some(i) = self.instance_number {
            put_str(&mut obj, tags::INSTANCE_NUMBER, VR::IS, &i.to_string());
        }
        if let Some(p) = self.position {
            put_ds(&mut obj, tags::IMAGE_POSITION_PATIENT, &p);
        }
        if let Some(o) = self.orientation {
            put_ds(&mut obj, tags::IMAGE_ORIENTATION_PATIENT, &o);
        }
        put_ds(&mut obj, tags::PIXEL_SPACING, &self.pixel_spacing);
        put_ds(&mut obj, tags::SLICE_THICKNESS, &[self.slice_thickness]);
        put_us(&mut obj, tags::SAMPLES_PER_PIXEL, 1);
        put_str(
            &mut obj,
            tags::PHOTOMETRIC_INTERPRETATION,
            VR::CS,
            &self.photometric,
        );
        put_us(&mut obj, tags::ROWS, self.rows);
        put_us(&mut obj, tags::COLUMNS, self.cols);
        put_us(&mut obj, tags::BITS_ALLOCATED, 16);
        put_us(&mut obj, tags::BITS_STORED, self.bits_stored);
        put_us(&mut obj, tags::HIGH_BIT, self.bits_stored - 1);
        put_us(&mut obj, tags::PIXEL_REPRESENTATION, u16::from(self.signed));
        put_ds(&mut obj, tags::RESCALE_INTERCEPT, &[self.intercept]);
        put_ds(&mut obj, tags::RESCALE_SLOPE, &[self.slope]);
        put_str(&mut obj, tags::RESCALE_TYPE, VR::LO, "HU");
        put_ds(&mut obj, tags::WINDOW_CENTER, &[40.0]);
        put_ds(&mut obj, tags::WINDOW_WIDTH, &[80.0]);
        if let Some(p) = self.padding {
            if self.signed {
                obj.put(DataElement::new(
                    tags::PIXEL_PADDING_VALUE,
                    VR::SS,
                    PrimitiveValue::from(p as i16),
                ));
            } else {
                put_us(&mut obj, tags::PIXEL_PADDING_VALUE, p as u16);
            }
        }
        let mask = if self.bits_stored >= 16 {
            0xFFFF
        } else {
            (1u32 << self.bits_stored) - 1
        };
        let words: C<u16> = self
            .stored
            .iter()
            .map(|&v| (v as u32 & mask) as u16)
            .collect();
        obj.put(DataElement::new(
            tags::PIXEL_DATA,
            VR::OW,
            PrimitiveValue::U16(words),
        ));
        let file = obj
            .with_meta(FileMetaTableBuilder::new().transfer_syntax(self.transfer_syntax.as_str()))
            .map_err(|e| Error::Invalid(format!("DICOM meta: {e}")))?;
        let mut out = Vec::with_capacity(n * 2 + 2048);
        file.write_all(&mut out)
            .map_err(|e| Error::Invalid(format!("DICOM write: {e}")))?;
        Ok(out)
    }
}

/// Hostile variants of a file written by [`CtSlice::to_bytes`], made from nothing for the tests
/// and fuzz seeds of docs/ROBUSTNESS.md (explicit VR little endian only).
pub mod hostile {
    use std::path::Path;

    use dicom_core::{DataElement, PrimitiveValue, Tag, VR};
    use dicom_dictionary_std::tags;
    use dicom_object::DefaultDicomObject;

    use super::CtSlice;
    use crate::error::{Error, Result};

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
            dicom_core::value::DataSetSequence::from(vec![
                dicom_object::InMemDicomObject::new_empty(),
            ]),
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
}
