//! Where a scan's slices come from: the one door for an input format.
//!
//! A scan has one [`Source`]:
//! - a **DICOM series**: slice files grouped by StudyInstanceUID and SeriesInstanceUID, each
//!   slice known by its SOPInstanceUID ([`crate::scan::group`]);
//! - a **volume**: one file that holds every slice, in a format that implements
//!   [`VolumeFormat`] (NIfTI is the first, [`crate::nifti::Nifti`]). It has no UIDs: the scan is
//!   known by the file's name (its path under the input it was found in), each slice by its
//!   index along the file's slice axis, as stored.
//!
//! Finding, decoding, labels (`volume,label` rows) and the DICOM series a volume was converted
//! from (`ich predict --nifti-dicom`) take a [`Source`] and ask a volume's format for what they
//! need, so a new volume format is one implementation of [`VolumeFormat`] and one entry in
//! [`crate::VOLUME_FORMATS`]; nothing else names it.

use std::path::{Path, PathBuf};

use crate::error::FileError;
use crate::read::{HuImage, Limits, SliceHeader};

/// A file format that holds a whole scan in one file.
///
/// The contract, which the pipeline relies on and [`crate::nifti::Nifti`] keeps:
/// - [`VolumeFormat::header`] reads no voxel: it checks the header against the file's size and
///   `limits` before anything is allocated, and refuses a file naming it and the problem
///   ([`crate::error::FileProblem::Volume`]);
/// - the slices are ordered inferior first, each laid out as a DICOM axial slice would be
///   (columns toward the patient's left, rows toward posterior), with its position and
///   orientation in DICOM's patient coordinates (LPS), so that the same volume stored either
///   way gives the same slices, and the same pixels as the DICOM series it was made from;
/// - [`VolumeFormat::for_each_slice`] reads the file as a stream within `limits` and gives each
///   slice once, in Hounsfield units, with its index in that order (in any order of indices).
pub trait VolumeFormat: std::fmt::Debug + Send + Sync {
    /// The format's name, as messages and the run's summary say it ("NIfTI").
    fn name(&self) -> &'static str;

    /// Whether `path` is a file of this format (by its name: it is not opened).
    fn claims(&self, path: &Path) -> bool;

    /// The file's slices as DICOM-style headers, inferior first, and what reading its header
    /// found worth saying. Each slice header is a [`VolumeSlice::header`]: it names `path` and
    /// carries, as its `instance_number`, the slice's index along the file's slice axis as
    /// stored (what slice labels name); its UIDs are empty.
    fn header(&self, path: &Path, limits: &Limits) -> Result<VolumeHeader, FileError>;

    /// Each slice of the file in Hounsfield units, given to `each` with its index `t` in the
    /// order of [`VolumeFormat::header`]; then what reading the voxels found worth saying.
    fn for_each_slice(
        &self,
        path: &Path,
        limits: &Limits,
        each: &mut dyn FnMut(usize, HuImage),
    ) -> Result<Vec<String>, FileError>;
}

/// What a volume's header says of its slices.
#[derive(Debug, Clone)]
pub struct VolumeHeader {
    /// One per slice, inferior first (see [`VolumeFormat::header`]).
    pub slices: Vec<SliceHeader>,
    /// Each slice's position along the slice normal, mm.
    pub z: Vec<f64>,
    /// What reading the header found worth saying (e.g. no orientation in the file).
    pub warnings: Vec<String>,
}

/// What a volume format says of one slice, in DICOM's patient coordinates (LPS, mm); its
/// [`VolumeSlice::header`] is the slice header the pipeline reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VolumeSlice {
    /// The slice's index along the file's slice axis, as stored (what slice labels name).
    pub index: usize,
    pub rows: u16,
    pub cols: u16,
    /// The first pixel's centre.
    pub position: [f64; 3],
    /// Unit vectors along a row and down a column, as ImageOrientationPatient.
    pub orientation: [f64; 6],
    /// Between rows and between columns, as PixelSpacing.
    pub pixel_spacing: [f64; 2],
    pub thickness: f64,
}

impl VolumeSlice {
    /// The slice's header, naming `path`, its index as `instance_number`, and no UIDs.
    pub fn header(&self, path: &Path) -> SliceHeader {
        SliceHeader {
            path: path.to_path_buf(),
            study_uid: String::new(),
            series_uid: String::new(),
            sop_uid: String::new(),
            sop_in_dataset: false,
            modality: "CT".into(),
            sop_class: String::new(),
            transfer_syntax: String::new(),
            rows: self.rows,
            cols: self.cols,
            position: Some(self.position),
            orientation: Some(self.orientation),
            instance_number: Some(self.index as i64),
            pixel_spacing: Some(self.pixel_spacing),
            slice_thickness: Some(self.thickness),
            patient_name: None,
            patient_id: None,
            body_part: None,
            series_description: None,
            contrast_agent: None,
            kernel: None,
        }
    }
}

/// Where a scan's slices come from (see the module's text).
#[derive(Debug, Clone)]
pub enum Source {
    /// DICOM slice files of one series.
    Series,
    /// One volume file.
    Volume(Box<Volume>),
}

/// A scan read from one volume file.
#[derive(Debug, Clone)]
pub struct Volume {
    pub format: &'static dyn VolumeFormat,
    /// The file's path under the input it was found in ([`name_under`]): the scan's identity,
    /// and what labels and `--nifti-dicom` name it by.
    pub name: String,
}

impl Source {
    /// The volume a scan was read from, or None for a DICOM series.
    pub fn volume(&self) -> Option<&Volume> {
        match self {
            Source::Series => None,
            Source::Volume(v) => Some(v),
        }
    }

    /// A volume's name (see [`Volume::name`]), or None for a DICOM series.
    pub fn volume_name(&self) -> Option<&str> {
        self.volume().map(|v| v.name.as_str())
    }

    /// Whether the scan is a DICOM series (it has UIDs of its own).
    pub fn is_series(&self) -> bool {
        matches!(self, Source::Series)
    }
}

/// The format among `formats` that claims `path`: the first that does.
pub fn claimant(
    formats: &[&'static dyn VolumeFormat],
    path: &Path,
) -> Option<&'static dyn VolumeFormat> {
    formats.iter().copied().find(|f| f.claims(path))
}

/// A volume's name: its path relative to the input it was found under (forward slashes), or
/// the file name when the input was the file itself.
pub fn name_under(file: &Path, inputs: &[PathBuf]) -> String {
    for input in inputs {
        if let Ok(rel) = file.strip_prefix(input) {
            if !rel.as_os_str().is_empty() {
                return rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
            }
        }
    }
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_relative_to_their_input() {
        let ins = [PathBuf::from("/data/bhsd"), PathBuf::from("/x/one.nii.gz")];
        assert_eq!(
            name_under(Path::new("/data/bhsd/sub-1/ct.nii.gz"), &ins),
            "sub-1/ct.nii.gz"
        );
        assert_eq!(name_under(Path::new("/x/one.nii.gz"), &ins), "one.nii.gz");
    }
}
