//! Grouping files into scans and ordering their slices.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::read::SliceHeader;
use crate::source::{Source, Volume, VolumeFormat, VolumeHeader};

/// How the slices of a scan were put in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderedBy {
    /// ImagePositionPatient projected on the normal of ImageOrientationPatient.
    Position,
    /// InstanceNumber (positions missing).
    InstanceNumber,
    /// File path (neither available).
    FileName,
}

/// One scan (StudyInstanceUID + SeriesInstanceUID) with its slices in z order.
#[derive(Debug, Clone)]
pub struct Scan {
    pub id: String,
    pub study_uid: String,
    pub series_uid: String,
    pub slices: Vec<SliceHeader>,
    /// Position along the slice normal, mm, per slice (None when ordered otherwise).
    pub z: Vec<Option<f64>>,
    pub ordered_by: OrderedBy,
    pub warnings: Vec<String>,
    /// Files whose SOPInstanceUID was already seen: (the file kept, the file that repeats its
    /// UID). Decoding compares their pixels (see `pipeline::decode_scan`).
    pub duplicates: Vec<(PathBuf, PathBuf)>,
    /// A DICOM series, or the volume file the scan was read from (every slice's header then
    /// names that file).
    pub source: Source,
    /// Slices averaged into one (a slab) when decoded: 1 reads every slice as it is; `k` ≥ 2
    /// reads each run of `k` neighbouring slices (the last run may be shorter) as their mean in
    /// Hounsfield units, named by its middle slice. A thin series is read as slabs of the
    /// thickness a model was made for; see [`Scan::into_slabs`]. DICOM series and volumes
    /// alike.
    pub slab: usize,
}

impl Scan {
    /// This scan read as slabs of `k` slices (see [`Scan::slab`]); `k` < 2 leaves it as it is.
    pub fn into_slabs(mut self, k: usize) -> Self {
        if k >= 2 {
            self.slab = k;
        }
        self
    }

    /// How many rows the scan decodes into: its slices, or its slabs.
    pub fn rows(&self) -> usize {
        self.slices.len().div_ceil(self.slab.max(1))
    }

    /// The slices (indices into [`Scan::slices`], z order) that row `row` is the mean of: one
    /// slice, or a slab of [`Scan::slab`] (the last one may be shorter).
    pub fn slab_range(&self, row: usize) -> std::ops::Range<usize> {
        let k = self.slab.max(1);
        (row * k).min(self.slices.len())..((row + 1) * k).min(self.slices.len())
    }

    /// The slice that names row `row` when every slice of it is decoded: its middle one (of an
    /// even count, the upper middle), as the decoder names a slab.
    pub fn slab_middle(&self, row: usize) -> usize {
        let r = self.slab_range(row);
        r.start + r.len() / 2
    }
}

/// The scan of one volume file of `format`, its header read: slices inferior first, as the
/// format orders them; its id from its name, as stable as a DICOM scan's from its UIDs.
pub fn volume_scan(format: &'static dyn VolumeFormat, name: String, header: VolumeHeader) -> Scan {
    let VolumeHeader {
        slices,
        z,
        mut warnings,
    } = header;
    warnings.extend(spacing_warning(&z));
    Scan {
        id: scan_id(format.name(), &name),
        study_uid: String::new(),
        series_uid: String::new(),
        slices,
        z: z.into_iter().map(Some).collect(),
        ordered_by: OrderedBy::Position,
        warnings,
        duplicates: Vec::new(),
        source: Source::Volume(Box::new(Volume { format, name })),
        slab: 1,
    }
}

pub use crate::read::MAX_SCAN_SLICES;

/// A folder-safe, stable scan id derived from the UIDs (no UID text reaches the file system).
pub fn scan_id(study_uid: &str, series_uid: &str) -> String {
    let mut h = Sha256::new();
    h.update(study_uid.as_bytes());
    h.update(b"\n");
    h.update(series_uid.as_bytes());
    let d = h.finalize();
    let hex: String = d[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("scan-{hex}")
}

/// Groups headers into scans, drops duplicate SOPInstanceUIDs and orders every scan.
pub fn group(mut headers: Vec<SliceHeader>) -> Vec<Scan> {
    headers.sort_by(|a, b| a.path.cmp(&b.path));
    let mut by_key: BTreeMap<(String, String), Vec<SliceHeader>> = BTreeMap::new();
    for h in headers {
        by_key
            .entry((h.study_uid.clone(), h.series_uid.clone()))
            .or_default()
            .push(h);
    }
    by_key
        .into_iter()
        .map(|((study, series), hs)| {
            let mut seen: HashMap<String, PathBuf> = HashMap::new();
            let mut slices = Vec::with_capacity(hs.len());
            let mut duplicates = Vec::new();
            for h in hs {
                match seen.get(&h.sop_uid) {
                    Some(first) => duplicates.push((first.clone(), h.path)),
                    None => {
                        seen.insert(h.sop_uid.clone(), h.path.clone());
                        slices.push(h);
                    }
                }
            }
            let mut warnings = Vec::new();
            if !duplicates.is_empty() {
                warnings.push(format!(
                    "{} file(s) repeat a SOPInstanceUID already seen and were kept once",
                    duplicates.len()
                ));
            }
            let (slices, z, ordered_by, mut w) = order(slices);
            warnings.append(&mut w);
            Scan {
                id: scan_id(&study, &series),
                study_uid: study,
                series_uid: series,
                slices,
                z,
                ordered_by,
                warnings,
                duplicates,
                source: Source::Series,
                slab: 1,
            }
        })
        .collect()
}

type Ordered = (Vec<SliceHeader>, Vec<Option<f64>>, OrderedBy, Vec<String>);

/// Orders slices along the slice normal, falling back to InstanceNumber, then file name.
pub fn order(mut slices: Vec<SliceHeader>) -> Ordered {
    let mut warnings = Vec::new();
    let normal = slices.first().and_then(|s| s.normal());
    // positions whose projection overflows (1e308) give no order either
    let all_pos = slices.iter().all(|s| {
        s.position.is_some_and(|p| {
            normal.is_some_and(|n| (p[0] * n[0] + p[1] * n[1] + p[2] * n[2]).is_finite())
        })
    });
    if let (Some(n), true) = (normal, all_pos) {
        let tilted = slices.iter().filter_map(|s| s.normal()).any(|m| {
            let dot = m[0] * n[0] + m[1] * n[1] + m[2] * n[2];
            dot.abs() < 0.999
        });
        if tilted {
            warnings.push("slices have different orientations".to_string());
        }
        let z_of = |s: &SliceHeader| {
            let p = s.position.expect("checked above");
            p[0] * n[0] + p[1] * n[1] + p[2] * n[2]
        };
        slices.sort_by(|a, b| z_of(a).total_cmp(&z_of(b)).then(a.path.cmp(&b.path)));
        let z: Vec<f64> = slices.iter().map(z_of).collect();
        warnings.extend(spacing_warning(&z));
        warnings.extend(size_warning(&slices));
        return (
            slices,
            z.into_iter().map(Some).collect(),
            OrderedBy::Position,
            warnings,
        );
    }
    let by = if slices.iter().all(|s| s.instance_number.is_some()) {
        warnings.push(
            "no usable ImagePositionPatient/ImageOrientationPatient: ordered by InstanceNumber"
                .into(),
        );
        slices.sort_by(|a, b| {
            a.instance_number
                .cmp(&b.instance_number)
                .then(a.path.cmp(&b.path))
        });
        OrderedBy::InstanceNumber
    } else {
        warnings.push("neither positions nor instance numbers: ordered by file name".into());
        OrderedBy::FileName
    };
    warnings.extend(size_warning(&slices));
    let n = slices.len();
    (slices, vec![None; n], by, warnings)
}

fn spacing_warning(z: &[f64]) -> Option<String> {
    if z.len() < 3 {
        return None;
    }
    let mut d: Vec<f64> = z.windows(2).map(|w| w[1] - w[0]).collect();
    let (min, max) = d
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    d.sort_by(f64::total_cmp);
    let median = d[d.len() / 2];
    let tol = (0.1 * median.abs()).max(0.05);
    if min < 1e-3 {
        Some(format!(
            "two or more slices share a position (spacing {min:.3}–{max:.3} mm)"
        ))
    } else if max - median > tol || median - min > tol {
        Some(format!(
            "uneven slice spacing: {min:.2}–{max:.2} mm (median {median:.2} mm)"
        ))
    } else {
        None
    }
}

fn size_warning(slices: &[SliceHeader]) -> Option<String> {
    let sizes: std::collections::BTreeSet<(u16, u16)> =
        slices.iter().map(|s| (s.rows, s.cols)).collect();
    (sizes.len() > 1).then(|| {
        let list: Vec<String> = sizes.iter().map(|(r, c)| format!("{r}×{c}")).collect();
        format!("mixed slice sizes: {}", list.join(", "))
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn header(name: &str, sop: &str, pos: Option<[f64; 3]>, inst: Option<i64>) -> SliceHeader {
        SliceHeader {
            path: PathBuf::from(name),
            study_uid: "1.2.3".into(),
            series_uid: "1.2.3.4".into(),
            sop_uid: sop.into(),
            sop_in_dataset: true,
            modality: "CT".into(),
            sop_class: "1.2.840.10008.5.1.4.1.1.2".into(),
            transfer_syntax: "1.2.840.10008.1.2.1".into(),
            rows: 8,
            cols: 8,
            position: pos,
            orientation: Some([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
            instance_number: inst,
            pixel_spacing: Some([1.0, 1.0]),
            slice_thickness: Some(5.0),
            patient_name: None,
            patient_id: None,
            body_part: None,
            series_description: None,
            contrast_agent: None,
            kernel: None,
        }
    }

    #[test]
    fn orders_by_position_along_a_tilted_normal() {
        // Gantry tilt: rows along x, columns along (0, cos t, −sin t); normal = (0, sin t, cos t).
        let t = 20f64.to_radians();
        let o = [1.0, 0.0, 0.0, 0.0, t.cos(), -t.sin()];
        let n = [0.0, t.sin(), t.cos()];
        // Slices 5 mm apart along the normal, plus an in-plane offset that would fool a sort by z:
        // in-plane shift along the column direction changes z by −sin t · s.
        let names = ["c.dcm", "a.dcm", "d.dcm", "b.dcm"];
        let k = [2.0, 0.0, 3.0, 1.0];
        let hs: Vec<SliceHeader> = names
            .iter()
            .zip(k)
            .map(|(name, k)| {
                let s = -40.0 * k; // in-plane shift grows with k and decreases z
                let p = [0.0, 5.0 * k * n[1] + s * o[4], 5.0 * k * n[2] + s * o[5]];
                let mut h = header(name, &format!("sop{k}"), Some(p), Some(10 - k as i64));
                h.orientation = Some(o);
                h
            })
            .collect();
        // raw z decreases with k (5k·cos t + 40k·sin t·… ) — check the trap is real
        assert!(hs[2].position.unwrap()[2] < hs[1].position.unwrap()[2] + 100.0);
        let (sorted, z, by, warnings) = order(hs);
        assert_eq!(by, OrderedBy::Position);
        let sops: Vec<&str> = sorted.iter().map(|s| s.sop_uid.as_str()).collect();
        assert_eq!(sops, ["sop0", "sop1", "sop2", "sop3"]);
        for (i, z) in z.iter().enumerate() {
            assert!((z.unwrap() - 5.0 * i as f64).abs() < 1e-9);
        }
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn falls_back_to_instance_number_then_reports() {
        let hs = vec![
            header("x", "s3", None, Some(3)),
            header("y", "s1", None, Some(1)),
            header("z", "s2", Some([0.0, 0.0, 9.0]), Some(2)),
        ];
        let (sorted, z, by, warnings) = order(hs);
        assert_eq!(by, OrderedBy::InstanceNumber);
        assert_eq!(
            sorted
                .iter()
                .map(|s| s.sop_uid.as_str())
                .collect::<Vec<_>>(),
            ["s1", "s2", "s3"]
        );
        assert!(z.iter().all(Option::is_none));
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn uneven_spacing_and_mixed_sizes_are_reported() {
        let mut hs: Vec<SliceHeader> = [0.0, 5.0, 10.0, 20.0]
            .iter()
            .enumerate()
            .map(|(i, &z)| {
                header(
                    &format!("f{i}"),
                    &format!("s{i}"),
                    Some([0.0, 0.0, z]),
                    None,
                )
            })
            .collect();
        hs[1].rows = 16;
        let (_, _, _, w) = order(hs);
        assert!(
            w.iter()
                .any(|w| w.contains("uneven slice spacing: 5.00–10.00")),
            "{w:?}"
        );
        assert!(w.iter().any(|w| w.contains("mixed slice sizes")), "{w:?}");
    }

    #[test]
    fn groups_by_study_and_series_and_drops_duplicates() {
        let mut a = header("1", "s1", Some([0.0, 0.0, 0.0]), None);
        let b = header("2", "s1", Some([0.0, 0.0, 0.0]), None);
        let c = header("3", "s2", Some([0.0, 0.0, 5.0]), None);
        let mut d = header("4", "s9", Some([0.0, 0.0, 5.0]), None);
        d.series_uid = "other".into();
        a.path = "0".into();
        let scans = group(vec![c, b, a, d]);
        assert_eq!(scans.len(), 2);
        let s = scans.iter().find(|s| s.series_uid == "1.2.3.4").unwrap();
        assert_eq!(s.slices.len(), 2);
        assert_eq!(s.duplicates, vec![(PathBuf::from("0"), PathBuf::from("2"))]);
        assert!(s.warnings[0].contains("SOPInstanceUID"));
        assert_eq!(s.id, scan_id("1.2.3", "1.2.3.4"));
    }

    #[test]
    fn scan_ids_are_folder_safe() {
        let id = scan_id("../../etc", "/passwd\0");
        assert!(id.starts_with("scan-") && id.len() == 21);
        assert!(id[5..].chars().all(|c| c.is_ascii_hexdigit()));
    }
}
