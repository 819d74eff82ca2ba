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
