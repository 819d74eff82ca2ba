//! A Comprehensive 3D SR following TID 1500 (Measurement Report) with `ich`'s findings.
//!
//! ```text
//! CONTAINER (126000, DCM, "Imaging Measurement Report")           template 1500
//! ├─ HAS CONCEPT MOD CODE  Language of Content = English (United States)
//! ├─ HAS OBS CONTEXT       Observer Type = Device; Device Observer UID / Name / Manufacturer / Model Name
//! ├─ HAS CONCEPT MOD CODE  Procedure reported = CT of head
//! ├─ CONTAINS CONTAINER    Image Library
//! │  └─ CONTAINER Image Library Group ─ IMAGE (every source slice)
//! └─ CONTAINS CONTAINER    Imaging Measurements
//!    ├─ CONTAINER Measurement Group (TID 1501) — the scan
//!    │  ├─ HAS OBS CONTEXT TEXT Tracking Identifier = "scan", UIDREF Tracking Unique Identifier
//!    │  ├─ CONTAINS CODE Finding = Intracranial hemorrhage
//!    │  ├─ CONTAINS NUM  Probability of intracranial hemorrhage (1, UCUM, "no units")
//!    │  │  └─ HAS CONCEPT MOD TEXT Algorithm Name / Version / Parameters (TID 4019)
//!    │  ├─ CONTAINS NUM  the same, HAS CONCEPT MOD Derivation = Standard Deviation
//!    │  ├─ CONTAINS NUM  5th and 95th percentile of the probability (the 90 % interval)
//!    │  └─ CONTAINS CODE Intracranial hemorrhage = Present | Absent | Indeterminate
//!    └─ CONTAINER Measurement Group — one per slice, as above, plus
//!       CONTAINS IMAGE Source of Measurement = the slice (SOP Class / Instance UID)
//! └─ CONTAINS CONTAINER    Qualitative Evaluations (when there are notes)
//!    └─ CONTAINS TEXT Comment = what the numbers are calibrated for, why a call stands
//! ```
//!
//! Codes of DCM and SNOMED CT where the standard has one; the probability and its percentiles
//! have none, so they are coded in the private scheme `99ICH` (declared in the Coding Scheme
//! Identification Sequence). Every NUM carries its exact value as FloatingPointValue beside the
//! 16-character NumericValue. The document is UNVERIFIED and COMPLETE; its series says it is
//! research software, not for diagnostic use.

use dicom_core::value::PrimitiveValue;
use dicom_core::{DataElement, VR};
use dicom_dictionary_std::{tags, uids};
use dicom_object::InMemDicomObject;

use crate::context::SourceContext;
use crate::error::{Error, Result};
use crate::write::{
    ds, put_code, put_common, put_seq, put_series, put_str, to_file_bytes, Code, Equipment,
};

/// Comprehensive 3D SR Storage.
pub const COMPREHENSIVE_3D_SR: &str = uids::COMPREHENSIVE3_DSR_STORAGE;

pub const REPORT: Code = Code("126000", "DCM", "Imaging Measurement Report");
pub const LANGUAGE: Code = Code("121049", "DCM", "Language of Content Item and Descendants");
pub const ENGLISH_US: Code = Code("en-US", "RFC5646", "English (United States)");
pub const OBSERVER_TYPE: Code = Code("121005", "DCM", "Observer Type");
pub const DEVICE: Code = Code("121007", "DCM", "Device");
pub const DEVICE_UID: Code = Code("121012", "DCM", "Device Observer UID");
pub const DEVICE_NAME: Code = Code("121013", "DCM", "Device Observer Name");
pub const DEVICE_MANUFACTURER: Code = Code("121014", "DCM", "Device Observer Manufacturer");
pub const DEVICE_MODEL: Code = Code("121015", "DCM", "Device Observer Model Name");
pub const PROCEDURE_REPORTED: Code = Code("121058", "DCM", "Procedure reported");
pub const CT_HEAD: Code = Code("303653007", "SCT", "Computed tomography of head");
pub const IMAGE_LIBRARY: Code = Code("111028", "DCM", "Image Library");
pub const IMAGE_LIBRARY_GROUP: Code = Code("126200", "DCM", "Image Library Group");
pub const IMAGING_MEASUREMENTS: Code = Code("126010", "DCM", "Imaging Measurements");
pub const MEASUREMENT_GROUP: Code = Code("125007", "DCM", "Measurement Group");
pub const TRACKING_ID: Code = Code("112039", "DCM", "Tracking Identifier");
pub const TRACKING_UID: Code = Code("112040", "DCM", "Tracking Unique Identifier");
pub const FINDING: Code = Code("121071", "DCM", "Finding");
pub const ICH: Code = Code("1386000", "SCT", "Intracranial hemorrhage");
pub const SOURCE_OF_MEASUREMENT: Code = Code("121112", "DCM", "Source of Measurement");
pub const PROBABILITY: Code = Code("ICH-P", "99ICH", "Probability of intracranial hemorrhage");
pub const P05: Code = Code(
    "ICH-P05",
    "99ICH",
    "5th percentile of probability of intracranial hemorrhage",
);
pub const P95: Code = Code(
    "ICH-P95",
    "99ICH",
    "95th percentile of probability of intracranial hemorrhage",
);
pub const NO_UNITS: Code = Code("1", "UCUM", "no units");
pub const DERIVATION: Code = Code("121401", "DCM", "Derivation");
pub const STANDARD_DEVIATION: Code = Code("386136009", "SCT", "Standard Deviation");
pub const ALGORITHM_NAME: Code = Code("111001", "DCM", "Algorithm Name");
pub const ALGORITHM_VERSION: Code = Code("111003", "DCM", "Algorithm Version");
pub const ALGORITHM_PARAMETERS: Code = Code("111002", "DCM", "Algorithm Parameters");
pub const PRESENT: Code = Code("52101004", "SCT", "Present");
pub const ABSENT: Code = Code("2667000", "SCT", "Absent");
pub const INDETERMINATE: Code = Code("82334004", "SCT", "Indeterminate");
pub const QUALITATIVE_EVALUATIONS: Code = Code("C0034375", "UMLS", "Qualitative Evaluations");
pub const COMMENT: Code = Code("121106", "DCM", "Comment");

/// The codes of one hemorrhage subtype: its finding, and its probability and percentiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubtypeCodes {
    pub finding: Code,
    pub probability: Code,
    pub p05: Code,
    pub p95: Code,
}

macro_rules! subtype {
    ($finding:expr, $key:literal, $meaning:literal) => {
        SubtypeCodes {
            finding: $finding,
            probability: Code(
                concat!("ICH-P-", $key),
                "99ICH",
                concat!("Probability of ", $meaning),
            ),
            p05: Code(
                concat!("ICH-P05-", $key),
                "99ICH",
                concat!("5th percentile of probability of ", $meaning),
            ),
            p95: Code(
                concat!("ICH-P95-", $key),
                "99ICH",
                concat!("95th percentile of probability of ", $meaning),
            ),
        }
    };
}

/// The five RSNA subtypes' codes, by their names in `ich`'s labels and reports (`None` for
/// another name). Subarachnoid, subdural and intraparenchymal are SNOMED CT concepts; no
/// SNOMED CT concept for epidural and intraventricular hemorrhage could be confirmed from a
/// citable source, so those two findings are coded in the private scheme rather than risk a
/// wrong code in a PACS (docs/REPORT.md, "Subtype codes").
pub fn subtype_codes(name: &str) -> Option<SubtypeCodes> {
    Some(match name {
        "epidural" => subtype!(
            Code("EDH", "99ICH", "Epidural hemorrhage"),
            "EDH",
            "epidural hemorrhage"
        ),
        "intraparenchymal" => subtype!(
            Code("274100004", "SCT", "Cerebral hemorrhage"),
            "IPH",
            "intraparenchymal hemorrhage"
        ),
        "intraventricular" => subtype!(
            Code("IVH", "99ICH", "Intraventricular hemorrhage"),
            "IVH",
            "intraventricular hemorrhage"
        ),
        "subarachnoid" => subtype!(
            Code("21454007", "SCT", "Subarachnoid intracranial hemorrhage"),
            "SAH",
            "subarachnoid hemorrhage"
        ),
        "subdural" => subtype!(
            Code("35486000", "SCT", "Subdural intracranial hemorrhage"),
            "SDH",
            "subdural hemorrhage"
        ),
        _ => return None,
    })
}

/// One subtype's findings: the scan's and each slice's (in the order of [`Document::slices`]).
#[derive(Debug, Clone)]
pub struct SubtypeFindings {
    pub codes: SubtypeCodes,
    pub scan: Estimate,
    pub scan_assessment: Assessment,
    pub slices: Vec<(Estimate, Assessment)>,
}

/// The report's call on a slice or the scan, by its thresholds: uncertain wins over present
/// and absent (the 90 % interval reaches across the threshold, or the sd is large).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assessment {
    Present,
    Absent,
    Uncertain,
}

impl Assessment {
    pub fn from_flags(positive: bool, uncertain: bool) -> Self {
        match (positive, uncertain) {
            (_, true) => Assessment::Uncertain,
            (true, false) => Assessment::Present,
            (false, false) => Assessment::Absent,
        }
    }
    pub fn code(self) -> Code {
        match self {
            Assessment::Present => PRESENT,
            Assessment::Absent => ABSENT,
            Assessment::Uncertain => INDETERMINATE,
        }
    }
}

/// A probability with its spread (all of one distribution: mean, sd, 5th and 95th percentile).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub probability: f64,
    pub sd: f64,
    pub lo: f64,
    pub hi: f64,
}

/// One slice's finding.
#[derive(Debug, Clone)]
pub struct SliceFinding {
    pub sop_class_uid: String,
    pub sop_instance_uid: String,
    /// Position in z order, from 0.
    pub index: usize,
    pub estimate: Estimate,
    pub assessment: Assessment,
}

/// The algorithm, as TID 4019 names it.
#[derive(Debug, Clone)]
pub struct Algorithm {
    pub name: String,
    pub version: String,
    pub parameters: String,
}

/// Everything one SR holds.
#[derive(Debug, Clone)]
pub struct Document {
    pub context: SourceContext,
    pub source_series_uid: String,
    pub sop_instance_uid: String,
    pub series_instance_uid: String,
    pub series_number: i32,
    pub series_description: String,
    pub equipment: Equipment,
    pub algorithm: Algorithm,
    /// The device observer's UID (stable per model).
    pub observer_uid: String,
    pub scan: Estimate,
    pub scan_assessment: Assessment,
    /// Tracking UIDs: one for the scan, then one per slice (same order as `slices`).
    pub tracking_uids: Vec<String>,
    pub slices: Vec<SliceFinding>,
    /// Each subtype head's findings (empty: the bundle has none).
    pub subtypes: Vec<SubtypeFindings>,
    /// Whether the probabilities have a spread (a GP head); without, no sd or percentiles are
    /// written (they would say nothing).
    pub uncertainty: bool,
    /// Free-text notes a reader must see beside the numbers (what they are calibrated for, the
    /// slices that drove a call no slice shows), as TEXT Comments under Qualitative
    /// Evaluations; empty: none.
    pub notes: Vec<String>,
    /// (DA, TM) of the content.
    pub created: (String, String),
    /// The earlier reports on the same series that this one supersedes (a study predicted again
    /// after late instances arrived): written as the Predecessor Documents Sequence
    /// (0040,A360), so that a PACS or viewer knows which report is current.
    pub predecessors: Vec<Predecessor>,
}

/// An earlier SR that a new one supersedes (the Hierarchical SOP Instance Reference of the
/// Predecessor Documents Sequence), with the CT series it was about.
/// The node keeps these in its spool's `state.json`; the aliases read the names an earlier
/// version wrote there.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Predecessor {
    #[serde(alias = "study")]
    pub study_instance_uid: String,
    #[serde(alias = "series")]
    pub series_instance_uid: String,
    #[serde(alias = "sop_class")]
    pub sop_class_uid: String,
    #[serde(alias = "sop_instance")]
    pub sop_instance_uid: String,
    /// The CT series the earlier report was about (its evidence).
    #[serde(alias = "about_series")]
    pub source_series_uid: String,
}

impl Predecessor {
    /// The reference to the SR in the file at `path` (a report this crate wrote), read within
    /// `max_bytes`.
    pub fn read(path: &std::path::Path, max_bytes: u64) -> Result<Predecessor> {
        let bad = |what: &str| Error::Invalid(format!("{}: {what}", path.display()));
        let len = std::fs::symlink_metadata(path)
            .map_err(|e| bad(&e.to_string()))?
            .len();
        if len > max_bytes {
            return Err(bad("larger than a report is"));
        }
        let file = dicom_object::OpenFileOptions::new()
            .open_file(path)
            .map_err(|e| bad(&e.to_string()))?;
        let o: &InMemDicomObject = &file;
        let text = |o: &InMemDicomObject, tag| -> Result<String> {
            o.element(tag)
                .ok()
                .and_then(|e| e.to_str().ok())
                .map(|s| s.trim_end_matches(['\0', ' ']).to_string())
                .filter(|s| !s.is_empty())
                .ok_or_else(|| bad(&format!("no {tag}")))
        };
        let first = |o: &InMemDicomObject, tag| -> Result<InMemDicomObject> {
            o.element(tag)
                .ok()
                .and_then(|e| e.items().and_then(|i| i.first().cloned()))
                .ok_or_else(|| bad(&format!("no {tag}")))
        };
        let study = first(o, tags::CURRENT_REQUESTED_PROCEDURE_EVIDENCE_SEQUENCE)?;
        let series = first(&study, tags::REFERENCED_SERIES_SEQUENCE)?;
        Ok(Predecessor {
            study_instance_uid: text(o, tags::STUDY_INSTANCE_UID)?,
            series_instance_uid: text(o, tags::SERIES_INSTANCE_UID)?,
            sop_class_uid: text(o, tags::SOP_CLASS_UID)?,
            sop_instance_uid: text(o, tags::SOP_INSTANCE_UID)?,
            source_series_uid: text(&series, tags::SERIES_INSTANCE_UID)?,
        })
    }
}

fn item(rel: Option<&str>, value_type: &str, name: Option<Code>) -> InMemDicomObject {
    let mut o = InMemDicomObject::new_empty();
    if let Some(r) = rel {
        put_str(&mut o, tags::RELATIONSHIP_TYPE, VR::CS, r);
    }
    put_str(&mut o, tags::VALUE_TYPE, VR::CS, value_type);
    if let Some(c) = name {
        put_code(&mut o, tags::CONCEPT_NAME_CODE_SEQUENCE, c);
    }
    o
}

fn container(rel: Option<&str>, name: Code, children: Vec<InMemDicomObject>) -> InMemDicomObject {
    let mut o = item(rel, "CONTAINER", Some(name));
    put_str(&mut o, tags::CONTINUITY_OF_CONTENT, VR::CS, "SEPARATE");
    put_seq(&mut o, tags::CONTENT_SEQUENCE, children);
    o
}

fn code(rel: &str, name: Code, value: Code) -> InMemDicomObject {
    let mut o = item(Some(rel), "CODE", Some(name));
    put_code(&mut o, tags::CONCEPT_CODE_SEQUENCE, value);
    o
}

fn text(rel: &str, name: Code, value: &str) -> InMemDicomObject {
    let mut o = item(Some(rel), "TEXT", Some(name));
    put_str(&mut o, tags::TEXT_VALUE, VR::UT, value);
    o
}

fn uidref(rel: &str, name: Code, value: &str) -> InMemDicomObject {
    let mut o = item(Some(rel), "UIDREF", Some(name));
    put_str(&mut o, tags::UID, VR::UI, value);
    o
}

fn sop_ref(class: &str, instance: &str) -> InMemDicomObject {
    let mut r = InMemDicomObject::new_empty();
    put_str(&mut r, tags::REFERENCED_SOP_CLASS_UID, VR::UI, class);
    put_str(&mut r, tags::REFERENCED_SOP_INSTANCE_UID, VR::UI, instance);
    r
}

fn image(rel: &str, name: Option<Code>, class: &str, instance: &str) -> InMemDicomObject {
    let mut o = item(Some(rel), "IMAGE", name);
    put_seq(
        &mut o,
        tags::REFERENCED_SOP_SEQUENCE,
        vec![sop_ref(class, instance)],
    );
    o
}

fn num(name: Code, v: f64, modifiers: Vec<InMemDicomObject>) -> InMemDicomObject {
    let mut o = item(Some("CONTAINS"), "NUM", Some(name));
    let mut mv = InMemDicomObject::new_empty();
    put_code(&mut mv, tags::MEASUREMENT_UNITS_CODE_SEQUENCE, NO_UNITS);
    put_str(&mut mv, tags::NUMERIC_VALUE, VR::DS, &ds(v));
    mv.put(DataElement::new(
        tags::FLOATING_POINT_VALUE,
        VR::FD,
        PrimitiveValue::from(v),
    ));
    put_seq(&mut o, tags::MEASURED_VALUE_SEQUENCE, vec![mv]);
    if !modifiers.is_empty() {
        put_seq(&mut o, tags::CONTENT_SEQUENCE, modifiers);
    }
    o
}

impl Document {
    fn algorithm_items(&self) -> Vec<InMemDicomObject> {
        vec![
            text("HAS CONCEPT MOD", ALGORITHM_NAME, &self.algorithm.name),
            text(
                "HAS CONCEPT MOD",
                ALGORITHM_VERSION,
                &self.algorithm.version,
            ),
            text(
                "HAS CONCEPT MOD",
                ALGORITHM_PARAMETERS,
                &self.algorithm.parameters,
            ),
        ]
    }

    fn group(
        &self,
        tracking: &str,
        tracking_uid: &str,
        source: Option<&SliceFinding>,
        (e, a): (&Estimate, Assessment),
        subtypes: &[(SubtypeCodes, &Estimate, Assessment)],
    ) -> InMemDicomObject {
        let mut c = vec![
            text("HAS OBS CONTEXT", TRACKING_ID, tracking),
            uidref("HAS OBS CONTEXT", TRACKING_UID, tracking_uid),
            code("CONTAINS", FINDING, ICH),
        ];
        if let Some(s) = source {
            c.push(image(
                "CONTAINS",
                Some(SOURCE_OF_MEASUREMENT),
                &s.sop_class_uid,
                &s.sop_instance_uid,
            ));
        }
        c.push(num(PROBABILITY, e.probability, self.algorithm_items()));
        self.spread(&mut c, PROBABILITY, (P05, P95), e);
        c.push(code("CONTAINS", ICH, a.code()));
        for (codes, e, a) in subtypes {
            c.push(num(codes.probability, e.probability, Vec::new()));
            self.spread(&mut c, codes.probability, (codes.p05, codes.p95), e);
            c.push(code("CONTAINS", codes.finding, a.code()));
        }
        container(None, MEASUREMENT_GROUP, c).with_rel("CONTAINS")
    }

    /// The sd and the 90 % interval of an estimate, when the probabilities have a spread.
    fn spread(
        &self,
        c: &mut Vec<InMemDicomObject>,
        p: Code,
        (p05, p95): (Code, Code),
        e: &Estimate,
    ) {
        if self.uncertainty {
            c.push(num(
                p,
                e.sd,
                vec![code("HAS CONCEPT MOD", DERIVATION, STANDARD_DEVIATION)],
            ));
            c.push(num(p05, e.lo, Vec::new()));
            c.push(num(p95, e.hi, Vec::new()));
        }
    }

    /// Checks what the standard requires of the values (UIDs, one tracking UID per group).
    fn check(&self) -> Result<()> {
        let mut uids_to_check = vec![
            &self.sop_instance_uid,
            &self.series_instance_uid,
            &self.source_series_uid,
            &self.observer_uid,
            &self.context.study_instance_uid,
        ];
        uids_to_check.extend(self.tracking_uids.iter());
        for s in &self.slices {
            uids_to_check.push(&s.sop_class_uid);
            uids_to_check.push(&s.sop_instance_uid);
        }
        if let Some(bad) = uids_to_check.iter().find(|u| !crate::uid::is_valid(u)) {
            return Err(Error::Invalid(format!("{bad:?} is not a valid UID")));
        }
        if let Some(bad) = self
            .subtypes
            .iter()
            .find(|t| t.slices.len() != self.slices.len())
        {
            return Err(Error::Invalid(format!(
                "subtype {}: {} slice findings for {} slices",
                bad.codes.finding.2,
                bad.slices.len(),
                self.slices.len()
            )));
        }
        if self.tracking_uids.len() != self.slices.len() + 1 {
            return Err(Error::Invalid(format!(
                "{} tracking UIDs for a scan and {} slices",
                self.tracking_uids.len(),
                self.slices.len()
            )));
        }
        Ok(())
    }

    /// The SR as a dataset.
    ///
    /// Long by design: the IOD's modules attribute by attribute, in the order PS3.3 A.35.13
    /// lists them (patient, study, series, equipment, SR document general, content), so that
    /// the code reads against the standard's table; the content tree is built by its own
    /// functions.
    pub fn dataset(&self) -> Result<InMemDicomObject> {
        self.check()?;
        let mut o = InMemDicomObject::new_empty();
        put_str(&mut o, tags::SOP_CLASS_UID, VR::UI, COMPREHENSIVE_3D_SR);
        put_str(
            &mut o,
            tags::SOP_INSTANCE_UID,
            VR::UI,
            &self.sop_instance_uid,
        );
        let a = &self.algorithm;
        let ascii = [&a.name, &a.version, &a.parameters]
            .iter()
            .all(|t| t.is_ascii())
            && self.notes.iter().all(|n| n.is_ascii());
        put_common(&mut o, &self.context, &self.equipment, &self.created, ascii);
        // SR Document Series
        put_series(
            &mut o,
            "SR",
            &self.series_instance_uid,
            self.series_number,
            &self.series_description,
            &self.created,
        );
        put_seq(
            &mut o,
            tags::REFERENCED_PERFORMED_PROCEDURE_STEP_SEQUENCE,
            Vec::new(),
        );
        // SR Document General
        put_str(&mut o, tags::INSTANCE_NUMBER, VR::IS, "1");
        put_str(&mut o, tags::COMPLETION_FLAG, VR::CS, "COMPLETE");
        put_str(&mut o, tags::VERIFICATION_FLAG, VR::CS, "UNVERIFIED");
        put_str(&mut o, tags::CONTENT_DATE, VR::DA, &self.created.0);
        put_str(&mut o, tags::CONTENT_TIME, VR::TM, &self.created.1);
        put_seq(&mut o, tags::PERFORMED_PROCEDURE_CODE_SEQUENCE, Vec::new());
        // every instance the content references, by study and series
        let refs: Vec<_> = self
            .slices
            .iter()
            .map(|s| sop_ref(&s.sop_class_uid, &s.sop_instance_uid))
            .collect();
        let mut series = InMemDicomObject::new_empty();
        put_str(
            &mut series,
            tags::SERIES_INSTANCE_UID,
            VR::UI,
            &self.source_series_uid,
        );
        put_seq(&mut series, tags::REFERENCED_SOP_SEQUENCE, refs);
        let mut study = InMemDicomObject::new_empty();
        put_str(
            &mut study,
            tags::STUDY_INSTANCE_UID,
            VR::UI,
            &self.context.study_instance_uid,
        );
        put_seq(&mut study, tags::REFERENCED_SERIES_SEQUENCE, vec![series]);
        put_seq(
            &mut o,
            tags::CURRENT_REQUESTED_PROCEDURE_EVIDENCE_SEQUENCE,
            vec![study],
        );
        // the reports this one supersedes, by study and series
        if !self.predecessors.is_empty() {
            let items = self
                .predecessors
                .iter()
                .map(|p| {
                    let mut series = InMemDicomObject::new_empty();
                    put_str(
                        &mut series,
                        tags::SERIES_INSTANCE_UID,
                        VR::UI,
                        &p.series_instance_uid,
                    );
                    put_seq(
                        &mut series,
                        tags::REFERENCED_SOP_SEQUENCE,
                        vec![sop_ref(&p.sop_class_uid, &p.sop_instance_uid)],
                    );
                    let mut study = InMemDicomObject::new_empty();
                    put_str(
                        &mut study,
                        tags::STUDY_INSTANCE_UID,
                        VR::UI,
                        &p.study_instance_uid,
                    );
                    put_seq(&mut study, tags::REFERENCED_SERIES_SEQUENCE, vec![series]);
                    study
                })
                .collect();
            put_seq(&mut o, tags::PREDECESSOR_DOCUMENTS_SEQUENCE, items);
        }
        // the private coding scheme
        let mut scheme = InMemDicomObject::new_empty();
        put_str(&mut scheme, tags::CODING_SCHEME_DESIGNATOR, VR::SH, "99ICH");
        put_str(
            &mut scheme,
            tags::CODING_SCHEME_NAME,
            VR::ST,
            "ich research codes",
        );
        put_str(
            &mut scheme,
            tags::CODING_SCHEME_RESPONSIBLE_ORGANIZATION,
            VR::ST,
            "the ich project",
        );
        put_seq(
            &mut o,
            tags::CODING_SCHEME_IDENTIFICATION_SEQUENCE,
            vec![scheme],
        );

        // SR Document Content: the root container, template 1500
        put_str(&mut o, tags::VALUE_TYPE, VR::CS, "CONTAINER");
        put_code(&mut o, tags::CONCEPT_NAME_CODE_SEQUENCE, REPORT);
        put_str(&mut o, tags::CONTINUITY_OF_CONTENT, VR::CS, "SEPARATE");
        let mut tpl = InMemDicomObject::new_empty();
        put_str(&mut tpl, tags::MAPPING_RESOURCE, VR::CS, "DCMR");
        put_str(&mut tpl, tags::TEMPLATE_IDENTIFIER, VR::CS, "1500");
        put_seq(&mut o, tags::CONTENT_TEMPLATE_SEQUENCE, vec![tpl]);

        let mut root = vec![
            code("HAS CONCEPT MOD", LANGUAGE, ENGLISH_US),
            code("HAS OBS CONTEXT", OBSERVER_TYPE, DEVICE),
            uidref("HAS OBS CONTEXT", DEVICE_UID, &self.observer_uid),
            text("HAS OBS CONTEXT", DEVICE_NAME, &self.algorithm.name),
            text(
                "HAS OBS CONTEXT",
                DEVICE_MANUFACTURER,
                &self.equipment.manufacturer,
            ),
            text("HAS OBS CONTEXT", DEVICE_MODEL, &self.equipment.model_name),
            code("HAS CONCEPT MOD", PROCEDURE_REPORTED, CT_HEAD),
        ];
        let library: Vec<_> = self
            .slices
            .iter()
            .map(|s| image("CONTAINS", None, &s.sop_class_uid, &s.sop_instance_uid))
            .collect();
        root.push(
            container(
                None,
                IMAGE_LIBRARY,
                vec![container(None, IMAGE_LIBRARY_GROUP, library).with_rel("CONTAINS")],
            )
            .with_rel("CONTAINS"),
        );
        let scan_subtypes: Vec<_> = self
            .subtypes
            .iter()
            .map(|t| (t.codes, &t.scan, t.scan_assessment))
            .collect();
        let mut groups = vec![self.group(
            "scan",
            &self.tracking_uids[0],
            None,
            (&self.scan, self.scan_assessment),
            &scan_subtypes,
        )];
        let n = self.slices.len();
        for (k, (s, t)) in self.slices.iter().zip(&self.tracking_uids[1..]).enumerate() {
            let subtypes: Vec<_> = self
                .subtypes
                .iter()
                .map(|t| (t.codes, &t.slices[k].0, t.slices[k].1))
                .collect();
            groups.push(self.group(
                &format!("slice {} of {n}", s.index + 1),
                t,
                Some(s),
                (&s.estimate, s.assessment),
                &subtypes,
            ));
        }
        root.push(container(None, IMAGING_MEASUREMENTS, groups).with_rel("CONTAINS"));
        if !self.notes.is_empty() {
            let notes = self
                .notes
                .iter()
                .map(|n| text("CONTAINS", COMMENT, n))
                .collect();
            root.push(container(None, QUALITATIVE_EVALUATIONS, notes).with_rel("CONTAINS"));
        }
        put_seq(&mut o, tags::CONTENT_SEQUENCE, root);
        Ok(o)
    }

    /// The SR as a DICOM Part 10 file.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        to_file_bytes(self.dataset()?, COMPREHENSIVE_3D_SR, &self.sop_instance_uid)
    }
}

trait WithRel {
    fn with_rel(self, rel: &str) -> Self;
}

impl WithRel for InMemDicomObject {
    fn with_rel(mut self, rel: &str) -> Self {
        put_str(&mut self, tags::RELATIONSHIP_TYPE, VR::CS, rel);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::Equipment;

    fn doc() -> Document {
        let e = |p| Estimate {
            probability: p,
            sd: 0.05,
            lo: p - 0.1,
            hi: p + 0.1,
        };
        Document {
            context: SourceContext {
                patient_name: "Müller^Anna".into(),
                study_instance_uid: "1.2.3".into(),
                ..Default::default()
            },
            source_series_uid: "1.2.4".into(),
            sop_instance_uid: "1.2.5".into(),
            series_instance_uid: "1.2.6".into(),
            series_number: 9901,
            series_description: "d".into(),
            equipment: Equipment::example(),
            algorithm: Algorithm {
                name: "a".into(),
                version: "1".into(),
                parameters: "p".into(),
            },
            observer_uid: "1.2.7".into(),
            scan: e(0.7),
            scan_assessment: Assessment::Present,
            tracking_uids: vec!["1.2.8".into(), "1.2.9".into()],
            slices: vec![SliceFinding {
                sop_class_uid: "1.2.840.10008.5.1.4.1.1.2".into(),
                sop_instance_uid: "1.2.10".into(),
                index: 0,
                estimate: e(0.7),
                assessment: Assessment::Uncertain,
            }],
            subtypes: Vec::new(),
            uncertainty: true,
            notes: Vec::new(),
            created: ("20261122".into(), "120000".into()),
            predecessors: Vec::new(),
        }
    }

    /// A report that supersedes an earlier one names it in the Predecessor Documents Sequence
    /// (study, series, class and instance), and the earlier one's reference is read back from
    /// its file as written.
    #[test]
    fn a_later_report_names_the_one_it_supersedes() {
        let first = doc();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sr.dcm");
        std::fs::write(&path, first.to_bytes().unwrap()).unwrap();
        let p = Predecessor::read(&path, 1 << 20).unwrap();
        assert_eq!(
            p,
            Predecessor {
                study_instance_uid: "1.2.3".into(),
                series_instance_uid: "1.2.6".into(),
                sop_class_uid: COMPREHENSIVE_3D_SR.into(),
                sop_instance_uid: "1.2.5".into(),
                source_series_uid: "1.2.4".into(),
            }
        );
        assert!(first
            .dataset()
            .unwrap()
            .element(tags::PREDECESSOR_DOCUMENTS_SEQUENCE)
            .is_err());
        let mut later = doc();
        later.sop_instance_uid = "1.2.50".into();
        later.predecessors = vec![p];
        let o = later.dataset().unwrap();
        let study = &o
            .element(tags::PREDECESSOR_DOCUMENTS_SEQUENCE)
            .unwrap()
            .items()
            .unwrap()[0];
        let series = &study
            .element(tags::REFERENCED_SERIES_SEQUENCE)
            .unwrap()
            .items()
            .unwrap()[0];
        let sop = &series
            .element(tags::REFERENCED_SOP_SEQUENCE)
            .unwrap()
            .items()
            .unwrap()[0];
        let text = |o: &InMemDicomObject, t| o.element(t).unwrap().to_str().unwrap().to_string();
        assert_eq!(text(study, tags::STUDY_INSTANCE_UID), "1.2.3");
        assert_eq!(text(series, tags::SERIES_INSTANCE_UID), "1.2.6");
        assert_eq!(text(sop, tags::REFERENCED_SOP_INSTANCE_UID), "1.2.5");
        // a file that is too large to be a report is not read
        assert!(Predecessor::read(&path, 10).is_err());
    }

    #[test]
    fn the_call_follows_the_report_flags_uncertain_first() {
        assert_eq!(Assessment::from_flags(true, false).code(), PRESENT);
        assert_eq!(Assessment::from_flags(false, false).code(), ABSENT);
        assert_eq!(Assessment::from_flags(true, true).code(), INDETERMINATE);
        assert_eq!(Assessment::from_flags(false, true).code(), INDETERMINATE);
    }

    #[test]
    fn non_ascii_names_are_declared_utf8_and_bad_uids_are_refused() {
        let o = doc().dataset().unwrap();
        let cs = o.element(tags::SPECIFIC_CHARACTER_SET).unwrap();
        assert_eq!(cs.to_str().unwrap().trim(), "ISO_IR 192");
        let mut ascii = doc();
        ascii.context.patient_name = "Doe^John".into();
        assert!(ascii
            .dataset()
            .unwrap()
            .element(tags::SPECIFIC_CHARACTER_SET)
            .is_err());

        let mut bad = doc();
        bad.slices[0].sop_instance_uid = "1.2.x".into();
        assert!(bad.to_bytes().is_err());
        let mut short = doc();
        short.tracking_uids.pop();
        assert!(short.to_bytes().is_err());
    }

    #[test]
    fn without_uncertainty_only_the_probability_is_written() {
        let count_nums = |d: &Document| {
            let bytes = d.to_bytes().unwrap();
            // NUM items: the value type "NUM " (padded CS) in the encoded file
            bytes.windows(4).filter(|w| w == b"NUM ").count()
        };
        let mut d = doc();
        assert_eq!(count_nums(&d), 2 * 4, "scan and slice: p, sd, 5th, 95th");
        d.uncertainty = false;
        assert_eq!(count_nums(&d), 2);
    }

    /// A spool's `state.json` written by the version before (its own names for an SR sent)
    /// still reads: the node keeps superseding what it sent before the upgrade.
    #[test]
    fn predecessors_in_the_earlier_state_names_still_read() {
        let old = r#"{"study":"1.2","series":"1.2.3","sop_class":"1.2.840.10008.5.1.4.1.1.88.33","sop_instance":"1.2.3.4","about_series":"1.2.9"}"#;
        let p: Predecessor = serde_json::from_str(old).unwrap();
        assert_eq!(
            (p.sop_instance_uid.as_str(), p.source_series_uid.as_str()),
            ("1.2.3.4", "1.2.9")
        );
        let now: Predecessor = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(now, p);
    }

    /// Notes become TEXT Comments under one Qualitative Evaluations container at the root, in
    /// order; without notes there is no such container.
    #[test]
    fn notes_are_comments_under_qualitative_evaluations() {
        let mut d = doc();
        let none = d.dataset().unwrap();
        let mut v = Vec::new();
        items(&none, &mut v);
        assert!(!v.iter().any(|(_, n, _)| n == "Qualitative Evaluations"));
        d.notes = vec!["not calibrated for this site".into(), "slices 3, 4".into()];
        let o = d.dataset().unwrap();
        let root = o.element(tags::CONTENT_SEQUENCE).unwrap().items().unwrap();
        let last = root.last().unwrap();
        let name = |it: &InMemDicomObject| {
            it.element(tags::CONCEPT_NAME_CODE_SEQUENCE)
                .unwrap()
                .items()
                .unwrap()[0]
                .element(tags::CODE_MEANING)
                .unwrap()
                .to_str()
                .unwrap()
                .trim()
                .to_string()
        };
        assert_eq!(name(last), "Qualitative Evaluations");
        let texts: Vec<(String, String)> = last
            .element(tags::CONTENT_SEQUENCE)
            .unwrap()
            .items()
            .unwrap()
            .iter()
            .map(|it| {
                (
                    name(it),
                    it.element(tags::TEXT_VALUE)
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .trim()
                        .to_string(),
                )
            })
            .collect();
        assert_eq!(
            texts,
            vec![
                (
                    "Comment".to_string(),
                    "not calibrated for this site".to_string()
                ),
                ("Comment".to_string(), "slices 3, 4".to_string()),
            ]
        );
    }

    /// Every item of the content tree, depth first, as (value type, concept name's code
    /// meaning, the NUM's value or the CODE's value meaning).
    fn items(o: &InMemDicomObject, out: &mut Vec<(String, String, String)>) {
        let text = |o: &InMemDicomObject, t| {
            o.element(t)
                .ok()
                .and_then(|e| e.to_str().ok())
                .map(|s| s.trim().to_string())
                .unwrap_or_default()
        };
        let first = |o: &InMemDicomObject, t| -> Option<InMemDicomObject> {
            o.element(t).ok()?.items()?.first().cloned()
        };
        if let Ok(seq) = o.element(tags::CONTENT_SEQUENCE) {
            for it in seq.items().unwrap() {
                let name = first(it, tags::CONCEPT_NAME_CODE_SEQUENCE)
                    .map(|c| text(&c, tags::CODE_MEANING))
                    .unwrap_or_default();
                let value = match text(it, tags::VALUE_TYPE).as_str() {
                    "NUM" => first(it, tags::MEASURED_VALUE_SEQUENCE)
                        .map(|m| {
                            text(&m, tags::NUMERIC_VALUE)
                                .parse::<f64>()
                                .unwrap()
                                .to_string()
                        })
                        .unwrap_or_default(),
                    "CODE" => first(it, tags::CONCEPT_CODE_SEQUENCE)
                        .map(|c| text(&c, tags::CODE_MEANING))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                out.push((text(it, tags::VALUE_TYPE), name, value));
                items(it, out);
            }
        }
    }

    #[test]
    fn each_subtype_has_its_probability_spread_and_call_in_every_group() {
        let e = |p: f64| Estimate {
            probability: p,
            sd: 0.125,
            lo: p / 2.0,
            hi: 0.875,
        };
        let mut d = doc();
        d.subtypes = vec![
            SubtypeFindings {
                codes: subtype_codes("subdural").unwrap(),
                scan: e(0.75),
                scan_assessment: Assessment::Present,
                slices: vec![(e(0.5), Assessment::Uncertain)],
            },
            SubtypeFindings {
                codes: subtype_codes("epidural").unwrap(),
                scan: e(0.25),
                scan_assessment: Assessment::Absent,
                slices: vec![(e(0.0625), Assessment::Absent)],
            },
        ];
        let mut all = Vec::new();
        items(&d.dataset().unwrap(), &mut all);
        let find = |name: &str| -> Vec<&str> {
            all.iter()
                .filter(|(_, n, _)| n == name)
                .map(|(_, _, v)| v.as_str())
                .collect()
        };
        // scan group then slice group: the probability, then the sd (same concept name)
        assert_eq!(
            find("Probability of subdural hemorrhage"),
            ["0.75", "0.125", "0.5", "0.125"]
        );
        assert_eq!(
            find("5th percentile of probability of subdural hemorrhage"),
            ["0.375", "0.25"]
        );
        assert_eq!(
            find("95th percentile of probability of epidural hemorrhage"),
            ["0.875", "0.875"]
        );
        assert_eq!(
            find("Probability of epidural hemorrhage"),
            ["0.25", "0.125", "0.0625", "0.125"]
        );
        assert_eq!(
            find("Subdural intracranial hemorrhage"),
            ["Present", "Indeterminate"]
        );
        assert_eq!(find("Epidural hemorrhage"), ["Absent", "Absent"]);
        // "any" is unchanged beside them
        assert_eq!(
            find("Intracranial hemorrhage"),
            ["Present", "Indeterminate"]
        );
        // a subtype without a finding for every slice is refused
        d.subtypes[0].slices.clear();
        assert!(d.dataset().is_err());
    }

    #[test]
    fn the_five_subtypes_have_codes_that_fit_their_value_representations() {
        for name in [
            "epidural",
            "intraparenchymal",
            "intraventricular",
            "subarachnoid",
            "subdural",
        ] {
            let c = subtype_codes(name).unwrap();
            for code in [c.finding, c.probability, c.p05, c.p95] {
                assert!(code.0.len() <= 16, "{code:?}: SH holds 16 characters");
                assert!(code.2.len() <= 64, "{code:?}: LO holds 64 characters");
            }
        }
        assert!(subtype_codes("any").is_none());
    }
}
