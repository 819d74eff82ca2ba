//! Reading DICOM files: headers for grouping and ordering, pixels as Hounsfield units.

use std::path::{Path, PathBuf};

use dicom_core::Tag;
use dicom_dictionary_std::{tags, uids};
use dicom_encoding::TransferSyntaxIndex;
use dicom_object::{DefaultDicomObject, OpenFileOptions};
use dicom_pixeldata::PixelDecoder;
use dicom_transfer_syntax_registry::TransferSyntaxRegistry;

use crate::error::{FileError, FileProblem};
use crate::hu::{HuOptions, SampleFormat};

/// What grouping and ordering need from one file, read without its pixel data.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SliceHeader {
    #[serde(with = "crate::spill::path_bytes")]
    pub path: PathBuf,
    pub study_uid: String,
    pub series_uid: String,
    /// The data set's SOPInstanceUID, or when the data set has none, the file meta's.
    pub sop_uid: String,
    /// The data set itself holds (0008,0018): a file whose SOP UID comes from its meta alone
    /// (a receiver's meta built from the sender's command) does not.
    pub sop_in_dataset: bool,
    pub modality: String,
    pub sop_class: String,
    pub transfer_syntax: String,
    pub rows: u16,
    pub cols: u16,
    pub position: Option<[f64; 3]>,
    pub orientation: Option<[f64; 6]>,
    pub instance_number: Option<i64>,
    pub pixel_spacing: Option<[f64; 2]>,
    pub slice_thickness: Option<f64>,
    pub patient_name: Option<String>,
    pub patient_id: Option<String>,
    /// BodyPartExamined (0018,0015), trimmed and upper case; None when absent or empty.
    pub body_part: Option<String>,
    /// SeriesDescription (0008,103E) as [`series_description`] keeps it.
    #[serde(default)]
    pub series_description: Option<String>,
    /// ContrastBolusAgent (0018,0010) as [`series_description`] keeps it: present and not
    /// "none" on a contrast-enhanced series.
    #[serde(default)]
    pub contrast_agent: Option<String>,
    /// ConvolutionKernel (0018,1210), trimmed (e.g. "H30s", "BONE"); None when absent.
    #[serde(default)]
    pub kernel: Option<String>,
}

/// BodyPartExamined values (PS3.16 Annex L and common variants) that say the image is not of the
/// head. An absent, empty or other value (HEAD, BRAIN, SKULL, HEADNECK, a local word) counts as
/// a head: only a series that says it is something else is left out.
pub const NOT_HEAD: &[&str] = &[
    "CHEST",
    "THORAX",
    "LUNG",
    "HEART",
    "BREAST",
    "ABDOMEN",
    "ABD",
    "PELVIS",
    "ABDOMENPELVIS",
    "CHESTABDOMEN",
    "CHESTABDPELVIS",
    "CHEST_ABDOMEN",
    "LIVER",
    "KIDNEY",
    "COLON",
    "PROSTATE",
    "SPINE",
    "CSPINE",
    "TSPINE",
    "LSPINE",
    "SSPINE",
    "WHOLESPINE",
    "SHOULDER",
    "ARM",
    "ELBOW",
    "WRIST",
    "HAND",
    "HIP",
    "LEG",
    "KNEE",
    "ANKLE",
    "FOOT",
    "EXTREMITY",
    "LOWEREXTREMITY",
    "UPPEREXTREMITY",
    "WHOLEBODY",
];

impl SliceHeader {
    /// False only when BodyPartExamined names a region other than the head ([`NOT_HEAD`]).
    pub fn may_be_head(&self) -> bool {
        self.body_part
            .as_deref()
            .is_none_or(|b| !NOT_HEAD.contains(&b.replace([' ', '-'], "").as_str()))
    }

    /// CT Image Storage, or any single-frame image whose Modality is CT.
    pub fn is_ct(&self) -> bool {
        self.sop_class == uids::CT_IMAGE_STORAGE
            || self.sop_class == uids::ENHANCED_CT_IMAGE_STORAGE
            || self.modality == "CT"
    }

    /// Unit normal of the slice plane (row direction × column direction).
    pub fn normal(&self) -> Option<[f64; 3]> {
        let o = self.orientation?;
        // direction cosines: two unit vectors at right angles; anything else (1e308, zeros,
        // a shear) is not an orientation and gives no slice order
        let dot = |a: &[f64], b: &[f64]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let (r, c) = (&o[..3], &o[3..]);
        let unit = |v: &[f64]| (dot(v, v) - 1.0).abs() < 0.02;
        if !(unit(r) && unit(c) && dot(r, c).abs() < 0.02) {
            return None;
        }
        let n = [
            o[1] * o[5] - o[2] * o[4],
            o[2] * o[3] - o[0] * o[5],
            o[0] * o[4] - o[1] * o[3],
        ];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        (len > 1e-6).then(|| [n[0] / len, n[1] / len, n[2] / len])
    }
}

/// A decoded slice in Hounsfield units, row-major.
#[derive(Debug, Clone)]
pub struct HuImage {
    pub rows: usize,
    pub cols: usize,
    pub hu: Vec<f32>,
}

/// The most slices a scan may have: a head CT has a few hundred (0.5 mm slices over 25 cm are
/// 500). Each slice costs three windowed channels of the output size downstream, so a series or
/// a NIfTI volume of more is refused by name rather than held.
pub const MAX_SCAN_SLICES: usize = 2_000;

/// The most bytes the elements before the pixel data may take (a CT header is a few kB; a
/// private element declaring a gigabyte, even in a sparse file, is not a header).
pub const MAX_HEADER_BYTES: u64 = 64 << 20;

fn open(
    path: &Path,
    header_only: bool,
    limits: &Limits,
) -> Result<DefaultDicomObject, FileProblem> {
    // a regular file (never a FIFO or a device), its size checked before any byte is parsed
    let (f, size) = milbase::bounded::open_regular(path, u64::MAX).map_err(FileProblem::Io)?;
    if size > limits.max_file_bytes {
        return Err(FileProblem::TooLarge {
            what: "file",
            bytes: size,
            limit: limits.max_file_bytes,
        });
    }
    // what the parser may read at most: the header, and for a full read one slice's pixel data
    // besides; a file that needs more (e.g. an element whose declared length the sparse file
    // "holds" as zeros) is refused as too large instead of costing gigabytes
    let cap = if header_only {
        MAX_HEADER_BYTES
    } else {
        MAX_HEADER_BYTES + limits.max_slice_bytes
    };
    let mut opts = OpenFileOptions::new();
    if header_only {
        opts = opts.read_until(tags::PIXEL_DATA);
    }
    let mut obj = opts.from_reader(std::io::Read::take(f, cap)).map_err(|e| {
        let msg = error_chain(&e);
        if size > cap {
            return FileProblem::TooLarge {
                what: if header_only {
                    "data before the pixel data (or an element declaring more)"
                } else {
                    "data set (header and one slice's pixel data)"
                },
                bytes: size,
                limit: cap,
            };
        }
        if let Some(io) = std::error::Error::source(&e)
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .filter(|io| io.kind() == std::io::ErrorKind::NotFound)
        {
            return FileProblem::Io(std::io::Error::new(io.kind(), msg));
        }
        if out_of_memory(&msg) {
            FileProblem::OutOfMemory(msg)
        } else if has_dicm_magic(path) {
            FileProblem::Corrupt(msg)
        } else {
            FileProblem::NotDicom(msg)
        }
    })?;
    reinterpret_unknown_vr(&mut obj);
    Ok(obj)
}

/// `bytes` as numbers of `N` bytes each, in the transfer syntax's byte order; `None` when the
/// length is not a multiple of `N`.
fn words<T, const N: usize>(
    bytes: &[u8],
    big_endian: bool,
    le: fn([u8; N]) -> T,
    be: fn([u8; N]) -> T,
) -> Option<dicom_core::value::C<T>> {
    if !bytes.len().is_multiple_of(N) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(N)
            .map(|w| {
                let a: [u8; N] = w.try_into().expect("chunks of N");
                if big_endian {
                    be(a)
                } else {
                    le(a)
                }
            })
            .collect(),
    )
}

/// Standard attributes stored with VR UN (allowed, and common after some routers and
/// anonymisers) read by their dictionary VR, as pydicom and dcmtk do: without this a
/// RescaleSlope "1" would be read as the byte 49. Top-level elements with a text or binary
/// numeric VR in the dictionary are converted; others (sequences, pixel data, private tags)
/// stay as they are.
fn reinterpret_unknown_vr(obj: &mut DefaultDicomObject) {
    use dicom_core::dictionary::{DataDictionary, DataDictionaryEntry, VirtualVr};
    use dicom_core::header::Header;
    use dicom_core::value::{PrimitiveValue, Value};
    use dicom_core::{DataElement, VR};
    use dicom_dictionary_std::StandardDataDictionary;
    let big_endian = obj.meta().transfer_syntax().trim_end_matches('\0') == "1.2.840.10008.1.2.2"; // explicit VR big endian (retired)
    let mut fixed = Vec::new();
    for e in obj.iter() {
        if e.vr() != VR::UN {
            continue;
        }
        let Some(VirtualVr::Exact(vr)) = StandardDataDictionary.by_tag(e.tag()).map(|d| d.vr())
        else {
            continue;
        };
        let Value::Primitive(p) = e.value() else {
            continue;
        };
        let bytes = p.to_bytes();
        let convert = || -> Option<PrimitiveValue> {
            Some(match vr {
                VR::AE
                | VR::AS
                | VR::CS
                | VR::DA
                | VR::DS
                | VR::DT
                | VR::IS
                | VR::LO
                | VR::LT
                | VR::PN
                | VR::SH
                | VR::ST
                | VR::TM
                | VR::UC
                | VR::UI
                | VR::UR
                | VR::UT => {
                    let text = String::from_utf8_lossy(&bytes);
                    let text = text.trim_end_matches(['\0', ' ']);
                    if matches!(vr, VR::LT | VR::ST | VR::UT | VR::UR) {
                        PrimitiveValue::from(text.to_string())
                    } else {
                        PrimitiveValue::Strs(text.split('\\').map(str::to_string).collect())
                    }
                }
                VR::US => PrimitiveValue::U16(words(
                    &bytes,
                    big_endian,
                    u16::from_le_bytes,
                    u16::from_be_bytes,
                )?),
                VR::SS => PrimitiveValue::I16(words(
                    &bytes,
                    big_endian,
                    i16::from_le_bytes,
                    i16::from_be_bytes,
                )?),
                VR::UL => PrimitiveValue::U32(words(
                    &bytes,
                    big_endian,
                    u32::from_le_bytes,
                    u32::from_be_bytes,
                )?),
                VR::SL => PrimitiveValue::I32(words(
                    &bytes,
                    big_endian,
                    i32::from_le_bytes,
                    i32::from_be_bytes,
                )?),
                VR::FL => PrimitiveValue::F32(words(
                    &bytes,
                    big_endian,
                    f32::from_le_bytes,
                    f32::from_be_bytes,
                )?),
                VR::FD => PrimitiveValue::F64(words(
                    &bytes,
                    big_endian,
                    f64::from_le_bytes,
                    f64::from_be_bytes,
                )?),
                _ => return None,
            })
        };
        if let Some(value) = convert() {
            fixed.push(DataElement::new(e.tag(), vr, value));
        }
    }
    for e in fixed {
        obj.put(e);
    }
}

/// Whether the file has the Part 10 preamble and "DICM" magic.
fn has_dicm_magic(path: &Path) -> bool {
    use std::io::Read;
    let mut buf = [0u8; 132];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut buf))
        .map(|_| &buf[128..] == b"DICM")
        .unwrap_or(false)
}

/// A SeriesDescription as reports show it: control characters and backslashes (value
/// separators) become spaces, runs of spaces one, at most 64 characters (the attribute's VR, LO);
/// None when nothing is left.
pub fn series_description(raw: &str) -> Option<String> {
    let cleaned: String = raw
        .chars()
        .map(|c| if c.is_control() || c == '\\' { ' ' } else { c })
        .collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let joined: String = words.join(" ").chars().take(64).collect();
    let joined = joined.trim_end().to_string();
    (!joined.is_empty()).then_some(joined)
}

fn str_opt(obj: &DefaultDicomObject, tag: Tag) -> Option<String> {
    obj.element_opt(tag)
        .ok()
        .flatten()
        .and_then(|e| e.to_str().ok())
        .map(|s| s.trim_end_matches(['\0', ' ']).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn floats_opt(
    obj: &DefaultDicomObject,
    tag: Tag,
    name: &'static str,
) -> Result<Option<Vec<f64>>, FileProblem> {
    match obj.element_opt(tag).ok().flatten() {
        None => Ok(None),
        Some(e) => match e.to_multi_float64() {
            Ok(v) if v.is_empty() => Ok(None),
            Ok(v) => Ok(Some(v)),
            // an empty or blank value counts as absent
            Err(_) if e.to_str().map(|s| s.trim().is_empty()).unwrap_or(false) => Ok(None),
            Err(err) => Err(FileProblem::BadAttribute {
                name,
                detail: err.to_string(),
            }),
        },
    }
}

fn float_opt(
    obj: &DefaultDicomObject,
    tag: Tag,
    name: &'static str,
) -> Result<Option<f64>, FileProblem> {
    Ok(floats_opt(obj, tag, name)?.and_then(|v| v.first().copied()))
}

fn int_opt(obj: &DefaultDicomObject, tag: Tag) -> Option<i64> {
    obj.element_opt(tag)
        .ok()
        .flatten()
        .and_then(|e| e.to_int::<i64>().ok())
}

fn fixed<const N: usize>(v: Option<Vec<f64>>) -> Option<[f64; N]> {
    v.and_then(|v| v.get(..N).and_then(|s| s.try_into().ok()))
        .filter(|a: &[f64; N]| a.iter().all(|x| x.is_finite()))
}

fn header_from(path: &Path, obj: &DefaultDicomObject) -> Result<SliceHeader, FileProblem> {
    let sop_class = obj
        .meta()
        .media_storage_sop_class_uid()
        .trim_end_matches('\0')
        .to_string();
    let modality = str_opt(obj, tags::MODALITY).unwrap_or_default();
    let rows = int_opt(obj, tags::ROWS);
    let cols = int_opt(obj, tags::COLUMNS);
    let header = SliceHeader {
        path: path.to_path_buf(),
        study_uid: str_opt(obj, tags::STUDY_INSTANCE_UID)
            .ok_or(FileProblem::Missing("StudyInstanceUID"))?,
        series_uid: str_opt(obj, tags::SERIES_INSTANCE_UID)
            .ok_or(FileProblem::Missing("SeriesInstanceUID"))?,
        sop_in_dataset: str_opt(obj, tags::SOP_INSTANCE_UID).is_some(),
        sop_uid: str_opt(obj, tags::SOP_INSTANCE_UID).unwrap_or_else(|| {
            obj.meta()
                .media_storage_sop_instance_uid()
                .trim_end_matches('\0')
                .to_string()
        }),
        transfer_syntax: obj
            .meta()
            .transfer_syntax()
            .trim_end_matches('\0')
            .to_string(),
        rows: rows.and_then(|v| u16::try_from(v).ok()).unwrap_or(0),
        cols: cols.and_then(|v| u16::try_from(v).ok()).unwrap_or(0),
        position: // unreadable (e.g. not numbers): no geometry, so the scan falls back to
        // InstanceNumber order (with a warning) instead of losing the slice
        fixed(floats_opt(obj, tags::IMAGE_POSITION_PATIENT, "ImagePositionPatient").unwrap_or(None)),
        orientation: // unreadable (e.g. not numbers): no geometry, so the scan falls back to
        // InstanceNumber order (with a warning) instead of losing the slice
        fixed(floats_opt(obj, tags::IMAGE_ORIENTATION_PATIENT, "ImageOrientationPatient").unwrap_or(None)),
        instance_number: int_opt(obj, tags::INSTANCE_NUMBER),
        pixel_spacing: fixed(floats_opt(obj, tags::PIXEL_SPACING, "PixelSpacing")?),
        slice_thickness: float_opt(obj, tags::SLICE_THICKNESS, "SliceThickness")?,
        patient_name: str_opt(obj, tags::PATIENT_NAME),
        patient_id: str_opt(obj, tags::PATIENT_ID),
        body_part: str_opt(obj, tags::BODY_PART_EXAMINED)
            .map(|b| b.trim().to_ascii_uppercase())
            .filter(|b| !b.is_empty()),
        series_description: str_opt(obj, tags::SERIES_DESCRIPTION)
            .and_then(|d| series_description(&d)),
        contrast_agent: str_opt(obj, tags::CONTRAST_BOLUS_AGENT)
            .and_then(|d| series_description(&d))
            .filter(|d| !d.trim().is_empty()),
        kernel: str_opt(obj, tags::CONVOLUTION_KERNEL)
            .and_then(|d| series_description(&d))
            .filter(|d| !d.trim().is_empty()),
        modality,
        sop_class,
    };
    // enhanced (multi-frame) CT holds a whole series in one file: decoding frame 0 alone would
    // silently lose the rest
    let frames = int_opt(obj, tags::NUMBER_OF_FRAMES).unwrap_or(1);
    if frames != 1 {
        return Err(FileProblem::MultiFrame(frames));
    }
    if header.rows == 0 {
        return Err(FileProblem::NoImage("Rows"));
    }
    if header.cols == 0 {
        return Err(FileProblem::NoImage("Columns"));
    }
    Ok(header)
}

/// Reads the header of a DICOM Part 10 file, stopping before the pixel data, within the
/// default [`Limits`].
pub fn read_header(path: &Path) -> Result<SliceHeader, FileError> {
    read_header_within(path, &Limits::default())
}

/// Reads the header of a DICOM Part 10 file, stopping before the pixel data, refusing a file
/// larger than `limits` allow before parsing it.
pub fn read_header_within(path: &Path, limits: &Limits) -> Result<SliceHeader, FileError> {
    let obj = open(path, true, limits).map_err(|p| FileError::new(path, p))?;
    header_from(path, &obj).map_err(|p| FileError::new(path, p))
}

fn ts_name(uid: &str) -> String {
    TransferSyntaxRegistry
        .get(uid)
        .map(|ts| ts.name().to_string())
        .unwrap_or_else(|| "an unknown transfer syntax".to_string())
}

/// Ceilings on what one file may cost, checked against the file size and the header before any
/// pixel data is read or decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest file read whole (default 1 GiB; a 512² CT slice is ~0.5 MiB). The header pass
    /// that groups files into scans uses the default.
    pub max_file_bytes: u64,
    /// The largest decoded slice, Rows × Columns × SamplesPerPixel × BitsAllocated / 8
    /// (default 64 MiB: a 4096² 16-bit slice is 32 MiB).
    pub max_slice_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_file_bytes: 1 << 30,
            max_slice_bytes: 64 << 20,
        }
    }
}

/// Decodes the first frame of a file to Hounsfield units, within the default [`Limits`].
pub fn read_hu(path: &Path, rsna_fix: bool) -> Result<(SliceHeader, HuImage), FileError> {
    read_hu_within(path, rsna_fix, &Limits::default())
}

/// Decodes the first frame of a file to Hounsfield units, refusing a file or a slice larger
/// than `limits`.
pub fn read_hu_within(
    path: &Path,
    rsna_fix: bool,
    limits: &Limits,
) -> Result<(SliceHeader, HuImage), FileError> {
    let fail = |p: FileProblem| FileError::new(path, p);
    let obj = open(path, false, limits).map_err(fail)?;
    let header = header_from(path, &obj).map_err(fail)?;
    check_pixel_data(&obj, &header, limits).map_err(fail)?;
    // a decoder that panics on hostile data costs this file, not the run
    let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        decode(&obj, &header, rsna_fix)
    }))
    .unwrap_or_else(|panic| {
        Err(FileProblem::Decode(format!(
            "the decoder failed: {}",
            panic_text(&panic)
        )))
    });
    decoded.map(|img| (header, img)).map_err(fail)
}

/// What the header promises against the ceiling and, for native (uncompressed) pixel data,
/// against the bytes the file holds.
fn check_pixel_data(
    obj: &DefaultDicomObject,
    header: &SliceHeader,
    limits: &Limits,
) -> Result<(), FileProblem> {
    let samples = int_opt(obj, tags::SAMPLES_PER_PIXEL)
        .unwrap_or(1)
        .clamp(1, 4) as u64;
    let bits = int_opt(obj, tags::BITS_ALLOCATED)
        .unwrap_or(16)
        .clamp(1, 64) as u64;
    let need = header.rows as u64 * header.cols as u64 * samples * bits.div_ceil(8);
    if need > limits.max_slice_bytes {
        return Err(FileProblem::TooLarge {
            what: "decoded slice (Rows × Columns × SamplesPerPixel × BitsAllocated)",
            bytes: need,
            limit: limits.max_slice_bytes,
        });
    }
    let native = TransferSyntaxRegistry
        .get(&header.transfer_syntax)
        .is_some_and(|t| t.is_codec_free() && !t.is_encapsulated_pixel_data());
    if native {
        if let Some(value) = obj
            .element_opt(tags::PIXEL_DATA)
            .ok()
            .flatten()
            .and_then(|e| e.value().primitive().map(|p| p.calculate_byte_len() as u64))
        {
            if value < need {
                return Err(FileProblem::Corrupt(format!(
                    "PixelData holds {value} bytes; Rows × Columns × SamplesPerPixel × BitsAllocated need {need}"
                )));
            }
        }
    }
    Ok(())
}

/// An error and its sources, `outer: inner: …` (the decoders put the real cause in a source:
/// "Could not decode pixel data: … JPEG 2000 codestream is 65536×65536, …").
/// Whether a parser's message says that memory could not be reserved (an allocation that failed,
/// reported by the patched parser's `try_reserve`), which is not a broken file.
fn out_of_memory(msg: &str) -> bool {
    [
        "Could not reserve memory",
        "Could not allocate memory",
        "memory allocation failed",
    ]
    .iter()
    .any(|m| msg.contains(m))
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut src = e.source();
    while let Some(s) = src {
        let t = s.to_string();
        if !out.contains(&t) {
            out.push_str(": ");
            out.push_str(&t);
        }
        src = s.source();
    }
    out
}

/// The message of a caught panic.
pub(crate) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// The modality LUT as a slope and an intercept, each absent when the file has none. A value
/// that is present but empty, not a number, not finite, a slope that is not positive or outside
/// 1e-4..=1e4, an intercept beyond ±100,000, and a Modality LUT Sequence (a lookup table, which
/// this build does not apply) make the file an error naming the attribute: never replaced by 1
/// and 0 without a word.
fn rescale(obj: &DefaultDicomObject) -> Result<(Option<f64>, Option<f64>), FileProblem> {
    if obj
        .element_opt(tags::MODALITY_LUT_SEQUENCE)
        .ok()
        .flatten()
        .is_some()
    {
        return Err(FileProblem::BadAttribute {
            name: "ModalityLUTSequence",
            detail: "a modality lookup table is not applied by this build; \
                     convert the series to a linear rescale (RescaleSlope/Intercept) first"
                .into(),
        });
    }
    let value = |tag, name: &'static str| -> Result<Option<f64>, FileProblem> {
        let bad = |detail: String| FileProblem::BadAttribute { name, detail };
        let Some(e) = obj.element_opt(tag).ok().flatten() else {
            return Ok(None);
        };
        match float_opt(obj, tag, name)? {
            Some(v) if v.is_finite() => Ok(Some(v)),
            Some(v) => Err(bad(format!("{v} is not a finite number"))),
            None => Err(bad(format!(
                "present but empty ({:?})",
                e.to_str().unwrap_or_default()
            ))),
        }
    };
    let slope = value(tags::RESCALE_SLOPE, "RescaleSlope")?;
    let intercept = value(tags::RESCALE_INTERCEPT, "RescaleIntercept")?;
    if let Some(s) = slope.filter(|s| !(1e-4..=1e4).contains(s)) {
        return Err(FileProblem::BadAttribute {
            name: "RescaleSlope",
            detail: format!("{s} is not a CT rescale slope (positive, 1e-4..=1e4)"),
        });
    }
    if let Some(i) = intercept.filter(|i| i.abs() > 1e5) {
        return Err(FileProblem::BadAttribute {
            name: "RescaleIntercept",
            detail: format!("{i} is not a CT rescale intercept (within ±100,000)"),
        });
    }
    Ok((slope, intercept))
}

fn decode(
    obj: &DefaultDicomObject,
    header: &SliceHeader,
    rsna_fix: bool,
) -> Result<HuImage, FileProblem> {
    let ts = header.transfer_syntax.as_str();
    let bits_stored = int_opt(obj, tags::BITS_STORED).unwrap_or(16);
    if ts == uids::JPEG_EXTENDED12_BIT && bits_stored > 8 {
        return Err(FileProblem::UnsupportedEncoding {
            uid: ts.to_string(),
            name: ts_name(ts),
            detail: format!(
                "{bits_stored}-bit JPEG extended is not supported by the pure-Rust JPEG decoder; \
                 convert it first, e.g. with dcmtk `dcmdjpeg` or gdcm `gdcmconv --raw`"
            ),
        });
    }
    match TransferSyntaxRegistry.get(ts) {
        None => {
            return Err(FileProblem::UnsupportedEncoding {
                uid: ts.to_string(),
                name: ts_name(ts),
                detail: "transfer syntax not known to this build".into(),
            })
        }
        Some(t) if !t.can_decode_all() => {
            return Err(FileProblem::UnsupportedEncoding {
                uid: ts.to_string(),
                name: ts_name(ts),
                detail: "no decoder for it in this build".into(),
            })
        }
        Some(_) => {}
    }
    if obj.element_opt(tags::PIXEL_DATA).ok().flatten().is_none() {
        return Err(FileProblem::NoImage("PixelData"));
    }
    let px = obj
        .decode_pixel_data_frame(0)
        .map_err(|e| FileProblem::Decode(error_chain(&e)))?;
    if px.samples_per_pixel() != 1 {
        return Err(FileProblem::Colour(px.samples_per_pixel()));
    }
    let rows = px.rows() as usize;
    let cols = px.columns() as usize;
    let format = SampleFormat {
        bits_allocated: px.bits_allocated(),
        bits_stored: px.bits_stored(),
        signed: int_opt(obj, tags::PIXEL_REPRESENTATION) == Some(1),
    };
    let (slope, intercept) = rescale(obj)?;
    let has_rescale = slope.is_some() || intercept.is_some();
    let monochrome1 =
        str_opt(obj, tags::PHOTOMETRIC_INTERPRETATION).as_deref() == Some("MONOCHROME1");
    let opts = HuOptions {
        slope: slope.unwrap_or(1.0),
        intercept: intercept.unwrap_or(0.0),
        padding: int_opt(obj, tags::PIXEL_PADDING_VALUE).and_then(|v| i32::try_from(v).ok()),
        rsna_fix,
        monochrome1_without_rescale: monochrome1 && !has_rescale,
    };
    Ok(HuImage {
        rows,
        cols,
        hu: format.read_hu(px.data(), rows * cols, &opts)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_descriptions_are_kept_as_one_clean_line() {
        assert_eq!(
            series_description("  HEAD  5mm\\AXIAL\r\n"),
            Some("HEAD 5mm AXIAL".into())
        );
        assert_eq!(series_description(" \t "), None);
        let long = "x".repeat(100);
        assert_eq!(series_description(&long).map(|d| d.len()), Some(64));
        // characters, not bytes: 64 of them
        assert_eq!(
            series_description(&"é".repeat(70)).map(|d| d.chars().count()),
            Some(64)
        );
    }

    #[test]
    fn a_failed_reservation_is_reported_as_memory_not_as_a_broken_file() {
        // the standard library's own message of a failed reservation
        let e = Vec::<u8>::new().try_reserve(usize::MAX).unwrap_err();
        assert!(out_of_memory(&format!("reading the value: {e}")), "{e}");
        // the patched parser's (patches/dicom-parser, patches/dicom-object)
        for m in [
            "Could not reserve memory for data value (1048576 bytes)",
            "Could not reserve memory for the offset table (16 bytes)",
            "Could not allocate memory",
        ] {
            assert!(out_of_memory(m), "{m}");
        }
        assert!(!out_of_memory(
            "Undefined value length of element tagged (7FE0,0010)"
        ));
        let p = FileProblem::OutOfMemory("Could not allocate memory".into());
        assert_eq!(p.category(), "out of memory");
        assert!(p.to_string().contains("short of memory"));
    }
}
