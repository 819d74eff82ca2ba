//! The patient and study context a derived object must carry, copied from a source image.
//!
//! Only what the SR and Secondary Capture IODs require is copied: the Patient module's Type 2
//! attributes (name, ID, birth date, sex — the PACS files the object with its patient by them)
//! and the General Study module's (Study Instance UID, date, time, referring physician, study ID,
//! accession number). Nothing else of the source header is carried over.

use std::path::Path;

use dicom_core::Tag;
use dicom_dictionary_std::tags;
use dicom_object::{DefaultDicomObject, OpenFileOptions};

use crate::error::{Error, Result};

/// Patient and study attributes of a source series (empty strings where the source has none:
/// they are Type 2, present but empty in what we write).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceContext {
    pub patient_name: String,
    pub patient_id: String,
    pub patient_birth_date: String,
    pub patient_sex: String,
    pub study_instance_uid: String,
    pub study_date: String,
    pub study_time: String,
    pub referring_physician_name: String,
    pub study_id: String,
    pub accession_number: String,
}

fn text(obj: &DefaultDicomObject, tag: Tag) -> String {
    obj.element_opt(tag)
        .ok()
        .flatten()
        .and_then(|e| e.to_str().ok().map(|s| s.to_string()))
        .map(|s| s.trim_end_matches(['\0', ' ']).trim_start().to_string())
        .unwrap_or_default()
}

impl SourceContext {
    /// Reads the context from one image of the source series (its header only).
    pub fn read(path: &Path) -> Result<Self> {
        let obj = OpenFileOptions::new()
            .read_until(tags::PIXEL_DATA)
            .open_file(path)
            .map_err(|e| Error::Source {
                path: path.to_path_buf(),
                problem: e.to_string(),
            })?;
        let c = SourceContext {
            patient_name: text(&obj, tags::PATIENT_NAME),
            patient_id: text(&obj, tags::PATIENT_ID),
            patient_birth_date: text(&obj, tags::PATIENT_BIRTH_DATE),
            patient_sex: text(&obj, tags::PATIENT_SEX),
            study_instance_uid: text(&obj, tags::STUDY_INSTANCE_UID),
            study_date: text(&obj, tags::STUDY_DATE),
            study_time: text(&obj, tags::STUDY_TIME),
            referring_physician_name: text(&obj, tags::REFERRING_PHYSICIAN_NAME),
            study_id: text(&obj, tags::STUDY_ID),
            accession_number: text(&obj, tags::ACCESSION_NUMBER),
        };
        if !crate::uid::is_valid(&c.study_instance_uid) {
            return Err(Error::Source {
                path: path.to_path_buf(),
                problem: format!("StudyInstanceUID {:?} is not a UID", c.study_instance_uid),
            });
        }
        Ok(c)
    }
}
