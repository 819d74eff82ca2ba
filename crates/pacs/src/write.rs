//! Building DICOM objects: element helpers, codes, dates and the Part 10 file.

use std::time::SystemTime;

use dicom_core::value::{DataSetSequence, PrimitiveValue};
use dicom_core::{DataElement, Tag, VR};
use dicom_dictionary_std::{tags, uids};
use dicom_object::{FileMetaTableBuilder, InMemDicomObject};

use crate::context::SourceContext;
use crate::error::{Error, Result};

/// The implementation class UID and version name written in the file meta of every object.
pub const IMPLEMENTATION_CLASS_UID: &str = "2.25.190406720497862125911003853466727830929";

/// A coded concept: (code value, coding scheme designator, code meaning).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code(pub &'static str, pub &'static str, pub &'static str);

pub fn put_str(obj: &mut InMemDicomObject, tag: Tag, vr: VR, v: &str) {
    obj.put(DataElement::new(tag, vr, PrimitiveValue::from(v)));
}

pub fn put_u16(obj: &mut InMemDicomObject, tag: Tag, v: u16) {
    obj.put(DataElement::new(tag, VR::US, PrimitiveValue::from(v)));
}

pub fn put_seq(obj: &mut InMemDicomObject, tag: Tag, items: Vec<InMemDicomObject>) {
    obj.put(DataElement::new(tag, VR::SQ, DataSetSequence::from(items)));
}

pub fn code_item(c: Code) -> InMemDicomObject {
    let mut o = InMemDicomObject::new_empty();
    put_str(&mut o, tags::CODE_VALUE, VR::SH, c.0);
    put_str(&mut o, tags::CODING_SCHEME_DESIGNATOR, VR::SH, c.1);
    put_str(&mut o, tags::CODE_MEANING, VR::LO, c.2);
    o
}

pub fn put_code(obj: &mut InMemDicomObject, tag: Tag, c: Code) {
    put_seq(obj, tag, vec![code_item(c)]);
}

/// A decimal string of at most 16 characters that reads back as close to `v` as DS allows
/// (the exact value goes beside it as FD where the IOD has a place for it).
pub fn ds(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    for prec in (1..=14).rev() {
        let s = if v.abs() >= 1e-3 {
            format!("{v:.prec$}")
        } else {
            format!("{v:.prec$e}")
        };
        if s.len() <= 16 {
            return s;
        }
    }
    format!("{v:.1e}")
}

/// (DA, TM) of a moment, in UTC (written with TimezoneOffsetFromUTC +0000).
pub fn date_time(t: SystemTime) -> (String, String) {
    let (y, m, d, hh, mm, ss) = milbase::time::civil(t);
    (
        format!("{y:04}{m:02}{d:02}"),
        format!("{hh:02}{mm:02}{ss:02}"),
    )
}

/// Patient and General Study modules (Type 2 attributes present even when empty), SOP Common's
/// character set (UTF-8) and time zone, General/Enhanced General Equipment.
pub fn put_common(
    obj: &mut InMemDicomObject,
    ctx: &SourceContext,
    equipment: &Equipment,
    created: &(String, String),
    extra_text_ascii: bool,
) {
    // UTF-8 only where some text needs it (the default repertoire is ASCII)
    let texts = [
        &ctx.patient_name,
        &ctx.patient_id,
        &ctx.referring_physician_name,
        &ctx.study_id,
        &ctx.accession_number,
        &equipment.model_name,
        &equipment.description,
    ];
    if texts.iter().any(|t| !t.is_ascii()) || !extra_text_ascii {
        put_str(obj, tags::SPECIFIC_CHARACTER_SET, VR::CS, "ISO_IR 192");
    }
    put_str(obj, tags::INSTANCE_CREATION_DATE, VR::DA, &created.0);
    put_str(obj, tags::INSTANCE_CREATION_TIME, VR::TM, &created.1);
    put_str(obj, tags::TIMEZONE_OFFSET_FROM_UTC, VR::SH, "+0000");
    put_str(obj, tags::PATIENT_NAME, VR::PN, &ctx.patient_name);
    put_str(obj, tags::PATIENT_ID, VR::LO, &ctx.patient_id);
    put_str(
        obj,
        tags::PATIENT_BIRTH_DATE,
        VR::DA,
        &ctx.patient_birth_date,
    );
    put_str(obj, tags::PATIENT_SEX, VR::CS, &ctx.patient_sex);
    put_str(
        obj,
        tags::STUDY_INSTANCE_UID,
        VR::UI,
        &ctx.study_instance_uid,
    );
    put_str(obj, tags::STUDY_DATE, VR::DA, &ctx.study_date);
    put_str(obj, tags::STUDY_TIME, VR::TM, &ctx.study_time);
    put_str(
        obj,
        tags::REFERRING_PHYSICIAN_NAME,
        VR::PN,
        &ctx.referring_physician_name,
    );
    put_str(obj, tags::STUDY_ID, VR::SH, &ctx.study_id);
    put_str(obj, tags::ACCESSION_NUMBER, VR::SH, &ctx.accession_number);
    put_equipment(obj, equipment);
    // SOP Common: the algorithm as contributing (processing) equipment
    let mut ce = InMemDicomObject::new_empty();
    put_equipment(&mut ce, equipment);
    put_str(
        &mut ce,
        tags::CONTRIBUTION_DESCRIPTION,
        VR::ST,
        &equipment.description,
    );
    put_code(
        &mut ce,
        tags::PURPOSE_OF_REFERENCE_CODE_SEQUENCE,
        Code("109102", "DCM", "Processing Equipment"),
    );
    put_str(
        &mut ce,
        tags::CONTRIBUTION_DATE_TIME,
        VR::DT,
        &format!("{}{}+0000", created.0, created.1),
    );
    put_seq(obj, tags::CONTRIBUTING_EQUIPMENT_SEQUENCE, vec![ce]);
}

/// Manufacturer, model name, serial number and software version of `e`.
fn put_equipment(obj: &mut InMemDicomObject, e: &Equipment) {
    put_str(obj, tags::MANUFACTURER, VR::LO, &e.manufacturer);
    put_str(obj, tags::MANUFACTURER_MODEL_NAME, VR::LO, &e.model_name);
    put_str(obj, tags::DEVICE_SERIAL_NUMBER, VR::LO, &e.serial);
    put_str(obj, tags::SOFTWARE_VERSIONS, VR::LO, &e.software_version);
}

/// The new series an object starts: modality, UID, number, description, date and time.
pub fn put_series(
    obj: &mut InMemDicomObject,
    modality: &str,
    uid: &str,
    number: i32,
    description: &str,
    created: &(String, String),
) {
    put_str(obj, tags::MODALITY, VR::CS, modality);
    put_str(obj, tags::SERIES_INSTANCE_UID, VR::UI, uid);
    put_str(obj, tags::SERIES_NUMBER, VR::IS, &number.to_string());
    put_str(obj, tags::SERIES_DESCRIPTION, VR::LO, description);
    put_str(obj, tags::SERIES_DATE, VR::DA, &created.0);
    put_str(obj, tags::SERIES_TIME, VR::TM, &created.1);
}

/// The software and model that made an object.
#[derive(Debug, Clone)]
pub struct Equipment {
    /// "ich project".
    pub manufacturer: String,
    /// The model: the bundle's name (its folder).
    pub model_name: String,
    /// The bundle's checksum (first 16 hex digits of the SHA-256 of its manifest).
    pub serial: String,
    /// "ich 0.1.0".
    pub software_version: String,
    /// A sentence: model, checksum, thresholds, research use.
    pub description: String,
}

#[cfg(test)]
impl Equipment {
    /// Placeholder values for the unit tests of the writers.
    pub(crate) fn example() -> Self {
        Equipment {
            manufacturer: "m".into(),
            model_name: "n".into(),
            serial: "s".into(),
            software_version: "v".into(),
            description: "x".into(),
        }
    }
}

/// The Part 10 file of `obj` (explicit VR little endian).
pub fn to_file_bytes(
    obj: InMemDicomObject,
    sop_class: &str,
    sop_instance: &str,
) -> Result<Vec<u8>> {
    let file = obj
        .with_meta(
            FileMetaTableBuilder::new()
                .transfer_syntax(uids::EXPLICIT_VR_LITTLE_ENDIAN)
                .media_storage_sop_class_uid(sop_class)
                .media_storage_sop_instance_uid(sop_instance)
                .implementation_class_uid(IMPLEMENTATION_CLASS_UID)
                .implementation_version_name("ICH_0_1"),
        )
        .map_err(|e| Error::Build(e.to_string()))?;
    let mut out = Vec::new();
    file.write_all(&mut out)
        .map_err(|e| Error::Build(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn dates_are_the_calendar() {
        // 2000-02-29 12:34:56 UTC = 951827696 (date -u -d @951827696)
        let t = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(date_time(t), ("20000229".into(), "123456".into()));
        let t = UNIX_EPOCH + Duration::from_secs(1_795_305_600); // 2026-11-22 00:00:00 (date -u -d @1795305600)
        assert_eq!(date_time(t).0, "20261122");
    }

    #[test]
    fn decimal_strings_fit_and_read_back() {
        for v in [
            0.0,
            1.0,
            0.5,
            0.123_456_789_012_345_68,
            3.3713e-4,
            1e-12,
            0.99999999999,
        ] {
            let s = ds(v);
            assert!(s.len() <= 16, "{s}");
            let back: f64 = s.parse().unwrap();
            assert!((back - v).abs() <= 1e-11 * v.abs().max(1e-3), "{v} {s}");
        }
    }
}
