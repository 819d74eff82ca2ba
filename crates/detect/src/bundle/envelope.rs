//! What a model was made for: its input envelope (slice spacing, slices per scan, plane,
//! contrast), and the screening of a run's series against it before anything is scored.
//!
//! The rules (docs/REPORT.md, "Series outside what the model was made for"):
//! - a series of fewer than `min_slices` slices (a scout, a single image, a key image) is not
//!   predicted;
//! - a contrast-enhanced series (ContrastBolusAgent present and not "none") is not predicted when
//!   the model was made for non-contrast CT;
//! - a series whose slices are tilted more than `max_tilt_degrees` from axial (a sagittal or
//!   coronal reformat) is not predicted;
//! - a series thinner than the envelope's spacing is not predicted when its study has a series
//!   within the envelope (that one is); without one it is predicted, flagged;
//! - whatever is still predicted outside the envelope (thin, thick, more or fewer slices than the
//!   model saw, a sharp kernel) carries a warning naming what is unusual, and its call is unsure.

use std::collections::BTreeMap;

use preprocess::scan::Scan;
use serde::{Deserialize, Serialize};

/// The scans a model was made for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// In words, e.g. "RSNA 2019: non-contrast axial head CT, mostly 5 mm".
    pub made_for: String,
    /// Slice spacing (mm, between neighbouring slice positions) scored as is: `[min, max]`.
    pub spacing_mm: [f64; 2],
    /// Slices per series scored as is: `[min, max]`.
    pub slices: [usize; 2],
    /// Fewer slices than this: not a head CT series the model can read; not predicted.
    pub min_slices: usize,
    /// Slices tilted more than this from axial (degrees): not predicted.
    pub max_tilt_degrees: f64,
    /// Whether contrast-enhanced series belong to it.
    pub contrast: bool,
}

impl Envelope {
    /// SA-DMIL's (Wu et al. 2023): trained on the RSNA 2019 challenge's head CT, non-contrast
    /// axial series of mostly 5 mm (about 20 to 60 slices a scan; its bags were padded to 57).
    pub fn sa_dmil() -> Self {
        Self {
            made_for:
                "RSNA 2019 head CT: non-contrast axial series, mostly 5 mm slices, 20 to 60 a scan"
                    .into(),
            spacing_mm: [2.5, 7.5],
            slices: [16, 64],
            min_slices: 10,
            max_tilt_degrees: 30.0,
            contrast: false,
        }
    }
}

/// What the envelope makes of one series.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Scored; each string names what is unusual about it (empty: nothing).
    Predict(Vec<String>),
    /// Not scored, for this reason.
    Skip(String),
}

/// The median distance between neighbouring slice positions (mm), or the first slice's
/// SliceThickness where positions are missing.
pub fn spacing(scan: &Scan) -> Option<f64> {
    let z: Vec<f64> = scan.z.iter().flatten().copied().collect();
    if z.len() >= 2 && z.len() == scan.z.len() {
        let mut d: Vec<f64> = z.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        d.sort_by(f64::total_cmp);
        let m = d[d.len() / 2];
        if m > 0.0 {
            return Some(m);
        }
    }
    scan.slices.first().and_then(|s| s.slice_thickness)
}

/// The angle (degrees) between the slices' normal and the patient's head–foot axis; `None`
/// without an orientation (a NIfTI volume, which is read axially, or a file without one).
pub fn tilt_degrees(scan: &Scan) -> Option<f64> {
    if !scan.source.is_series() {
        return None;
    }
    let o = scan.slices.first()?.orientation?;
    let (r, c) = ([o[0], o[1], o[2]], [o[3], o[4], o[5]]);
    let n = [
        r[1] * c[2] - r[2] * c[1],
        r[2] * c[0] - r[0] * c[2],
        r[0] * c[1] - r[1] * c[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    (len > 0.0).then(|| (n[2].abs() / len).clamp(0.0, 1.0).acos().to_degrees())
}

/// The series' contrast agent, when its files name one (not "none", "no", "n/a").
pub fn contrast_agent(scan: &Scan) -> Option<String> {
    scan.slices
        .iter()
        .filter_map(|s| s.contrast_agent.as_deref())
        .find(|a| {
            let l = a.trim().to_ascii_lowercase();
            !matches!(
                l.as_str(),
                "" | "none" | "no" | "n/a" | "na" | "nil" | "0" | "-"
            )
        })
        .map(str::to_string)
}

/// A sharp (bone or lung) reconstruction kernel, by the names scanners use.
fn sharp_kernel(scan: &Scan) -> Option<String> {
    let k = scan.slices.first()?.kernel.as_deref()?;
    let l = k.to_ascii_lowercase();
    let sharp = l.contains("bone")
        || l.contains("lung")
        || l.contains("sharp")
        || l.starts_with("yd")
        || l.starts_with("fc3")
        || l.chars().next().is_some_and(|c| c == 'h' || c == 'j')
            && l.chars()
                .skip(1)
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse::<u32>()
                .is_ok_and(|v| v >= 60);
    sharp.then(|| k.to_string())
}

/// One series against the envelope, alone (the study's other series are weighed in [`screen`]).
/// A series read as slabs ([`Scan::slab`]) is judged by its slabs: their count and spacing.
pub fn judge(scan: &Scan, env: &Envelope) -> Verdict {
    let n = scan.rows();
    let k = scan.slab.max(1);
    if n < env.min_slices {
        let what = if k > 1 { "slab(s)" } else { "slice(s)" };
        return Verdict::Skip(format!(
            "{n} {what}: too few for a head CT series (a scout, a single or key image); the model was made for {}",
            env.made_for
        ));
    }
    if !env.contrast {
        if let Some(a) = contrast_agent(scan) {
            return Verdict::Skip(format!(
                "contrast-enhanced (ContrastBolusAgent \"{a}\"): the model was made for non-contrast CT ({})",
                env.made_for
            ));
        }
    }
    if let Some(t) = tilt_degrees(scan).filter(|&t| t > env.max_tilt_degrees) {
        return Verdict::Skip(format!(
            "not axial: its slices are tilted {t:.0}° from the axial plane (a sagittal or coronal reformat); the model was made for axial slices"
        ));
    }
    let mut unusual = Vec::new();
    match spacing(scan).map(|d| d * k as f64) {
        Some(s) if s < env.spacing_mm[0] => unusual.push(format!(
            "thin slices ({s:.2} mm apart) against the {:.1}–{:.1} mm the model was made for: each slice shows less, and the scan's probability pools more of them",
            env.spacing_mm[0], env.spacing_mm[1]
        )),
        Some(s) if s > env.spacing_mm[1] => unusual.push(format!(
            "thick slices ({s:.2} mm apart) against the {:.1}–{:.1} mm the model was made for",
            env.spacing_mm[0], env.spacing_mm[1]
        )),
        None => unusual.push("the slice spacing is unknown (no positions, no SliceThickness)".into()),
        _ => {}
    }
    if n < env.slices[0] || n > env.slices[1] {
        let what = if k > 1 { "slabs" } else { "slices" };
        unusual.push(format!(
            "{n} {what} against the {}–{} a scan the model was made for",
            env.slices[0], env.slices[1]
        ));
    }
    if let Some(k) = sharp_kernel(scan) {
        unusual.push(format!(
            "a sharp reconstruction kernel (\"{k}\"): the model was made for soft-tissue (brain) kernels"
        ));
    }
    Verdict::Predict(unusual)
}

/// A run's series against the envelope: the scans to predict, each with what is unusual about
/// it, and `scan id: reason` for each left out. A series thinner than the envelope is left out
/// where its study has a series within it (that one is read instead). Not `strict` (`ich predict
/// --all-series`): nothing is left out, and what would have left a series out is named among
/// what is unusual about it. No envelope: every scan is predicted as it is.
pub fn screen(
    scans: Vec<Scan>,
    env: Option<&Envelope>,
    strict: bool,
) -> (Vec<(Scan, Vec<String>)>, Vec<String>) {
    let Some(env) = env else {
        return (
            scans.into_iter().map(|s| (s, Vec::new())).collect(),
            Vec::new(),
        );
    };
    let scans: Vec<Scan> = scans.into_iter().map(|s| as_slabs(s, env)).collect();
    if !strict {
        let keep = scans
            .into_iter()
            .map(|s| {
                let flags = match judge(&s, env) {
                    Verdict::Skip(why) => vec![why],
                    Verdict::Predict(u) => u,
                };
                (s, flags)
            })
            .collect();
        return (keep, Vec::new());
    }
    let verdicts: Vec<Verdict> = scans.iter().map(|s| judge(s, env)).collect();
    // per study: whether a series lies within the envelope's spacing and is predicted
    let mut study_has_thick: BTreeMap<&str, String> = BTreeMap::new();
    for (s, v) in scans.iter().zip(&verdicts) {
        let within = spacing(s).is_some_and(|d| d >= env.spacing_mm[0]);
        if matches!(v, Verdict::Predict(_)) && within && !s.study_uid.is_empty() {
            study_has_thick
                .entry(s.study_uid.as_str())
                .or_insert_with(|| series_name(s));
        }
    }
    let mut keep = Vec::new();
    let mut left = Vec::new();
    let thick: BTreeMap<String, String> = study_has_thick
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    for (s, v) in scans.into_iter().zip(verdicts) {
        match v {
            Verdict::Skip(why) => left.push(format!(
                "{} ({}): not predicted: {why}",
                s.id,
                series_name(&s)
            )),
            Verdict::Predict(unusual) => {
                let thin = spacing(&s).is_some_and(|d| d < env.spacing_mm[0]);
                match thick.get(&s.study_uid).filter(|_| thin) {
                    Some(other) => left.push(format!(
                        "{} ({}): not predicted: a thin reconstruction ({:.2} mm); its study's series {other} is within what the model was made for and is predicted instead",
                        s.id,
                        series_name(&s),
                        spacing(&s).unwrap_or(0.0)
                    )),
                    None => keep.push((s, unusual)),
                }
            }
        }
    }
    (keep, left)
}

/// A series (DICOM, or a NIfTI volume) thinner than the envelope, ordered by slice position,
/// read as slabs of the
/// middle of the envelope's spacing (5 mm for SA-DMIL's): each the mean of its slices in
/// Hounsfield units, as a scanner's thick reconstruction is, so that a slice shows what the
/// model saw in training and the scan pools as many of them. Its warnings say so. Any other
/// series is returned as it is.
pub fn as_slabs(scan: Scan, env: &Envelope) -> Scan {
    let Some(d) = spacing(&scan).filter(|&d| d > 0.0 && d < env.spacing_mm[0]) else {
        return scan;
    };
    if scan.ordered_by != preprocess::scan::OrderedBy::Position {
        return scan;
    }
    let target = (env.spacing_mm[0] + env.spacing_mm[1]) / 2.0;
    let k = ((target / d).round() as usize).max(2);
    let mut scan = scan.into_slabs(k);
    let n = scan.rows();
    scan.warnings.push(format!(
        "read as {n} slabs of {k} slices ({:.1} mm), each the mean of its slices in Hounsfield units and named by its middle slice: its slices are {d:.2} mm apart and the model was made for {:.1}–{:.1} mm",
        k as f64 * d,
        env.spacing_mm[0],
        env.spacing_mm[1]
    ));
    scan
}

/// How a report names a series: its Series Instance UID and slice count. Never its description,
/// which is free text (a technologist may type a patient's name there; DICOM's basic
/// de-identification profile removes it) and which reports show only with `--keep-phi`.
fn series_name(s: &Scan) -> String {
    let n = s.slices.len();
    match s.slices.first().map(|h| h.series_uid.as_str()) {
        Some(uid) if !uid.is_empty() => format!("series {uid}, {n} slices"),
        _ => format!("{n} slices"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use preprocess::read::SliceHeader;
    use preprocess::scan::OrderedBy;

    fn header(k: usize, z: f64) -> SliceHeader {
        SliceHeader {
            path: format!("s{k}.dcm").into(),
            study_uid: "1.2".into(),
            series_uid: "1.2.3".into(),
            sop_uid: format!("1.2.3.{k}"),
            sop_in_dataset: true,
            modality: "CT".into(),
            sop_class: "1.2.840.10008.5.1.4.1.1.2".into(),
            transfer_syntax: "1.2.840.10008.1.2.1".into(),
            rows: 512,
            cols: 512,
            position: Some([0.0, 0.0, z]),
            orientation: Some([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
            instance_number: Some(k as i64),
            pixel_spacing: Some([0.5, 0.5]),
            slice_thickness: None,
            patient_name: None,
            patient_id: None,
            body_part: None,
            series_description: None,
            contrast_agent: None,
            kernel: None,
        }
    }

    fn scan(series: &str, n: usize, dz: f64) -> Scan {
        let slices: Vec<SliceHeader> = (0..n)
            .map(|k| SliceHeader {
                series_uid: series.into(),
                ..header(k, k as f64 * dz)
            })
            .collect();
        Scan {
            id: format!("scan-{series}"),
            study_uid: "1.2".into(),
            series_uid: series.into(),
            z: slices.iter().map(|h| h.position.map(|p| p[2])).collect(),
            slices,
            ordered_by: OrderedBy::Position,
            warnings: Vec::new(),
            duplicates: Vec::new(),
            source: preprocess::source::Source::Series,
            slab: 1,
        }
    }

    /// Each rule on a series made to break it, and the 5 mm series that breaks none.
    #[test]
    fn each_rule_catches_the_series_it_is_for() {
        let env = Envelope::sa_dmil();
        assert_eq!(judge(&scan("a", 30, 5.0), &env), Verdict::Predict(vec![]));
        // a one-slice series and a scout of 3
        for n in [1, 3] {
            assert!(
                matches!(judge(&scan("a", n, 5.0), &env), Verdict::Skip(w) if w.contains("too few"))
            );
        }
        // contrast named; "NONE" is no contrast
        let mut c = scan("a", 30, 5.0);
        c.slices[0].contrast_agent = Some("OMNIPAQUE 350".into());
        assert!(
            matches!(judge(&c, &env), Verdict::Skip(w) if w.contains("contrast") && w.contains("OMNIPAQUE"))
        );
        c.slices[0].contrast_agent = Some("None".into());
        assert_eq!(judge(&c, &env), Verdict::Predict(vec![]));
        // a sagittal reformat (rows along y, columns along z: normal along x) and a 20° gantry tilt
        let mut sag = scan("a", 30, 5.0);
        for h in &mut sag.slices {
            h.orientation = Some([0.0, 1.0, 0.0, 0.0, 0.0, -1.0]);
        }
        assert_eq!(tilt_degrees(&sag).map(|t| t.round()), Some(90.0));
        assert!(matches!(judge(&sag, &env), Verdict::Skip(w) if w.contains("not axial")));
        let (s20, c20) = (20f64.to_radians().sin(), 20f64.to_radians().cos());
        let mut tilt = scan("a", 30, 5.0);
        for h in &mut tilt.slices {
            h.orientation = Some([1.0, 0.0, 0.0, 0.0, c20, s20]);
        }
        assert!((tilt_degrees(&tilt).unwrap() - 20.0).abs() < 1e-9);
        assert_eq!(judge(&tilt, &env), Verdict::Predict(vec![]));
        // thin, and too many slices: predicted, flagged with both
        match judge(&scan("a", 238, 0.625), &env) {
            Verdict::Predict(u) => {
                assert_eq!(u.len(), 2, "{u:?}");
                assert!(u[0].contains("thin slices (0.62 mm") && u[1].contains("238 slices"));
            }
            v => panic!("{v:?}"),
        }
        // a bone kernel
        let mut bone = scan("a", 30, 5.0);
        bone.slices[0].kernel = Some("H70h".into());
        assert!(
            matches!(judge(&bone, &env), Verdict::Predict(u) if u.len() == 1 && u[0].contains("H70h"))
        );
        bone.slices[0].kernel = Some("H30s".into());
        assert_eq!(judge(&bone, &env), Verdict::Predict(vec![]));
    }

    /// A thin series is left out for its study's 5 mm series, and predicted (flagged) when the
    /// study has none; no envelope, no screening.
    #[test]
    fn a_thin_series_gives_way_to_its_studys_thick_one() {
        let env = Envelope::sa_dmil();
        let (keep, left) = screen(
            vec![scan("thin", 238, 0.625), scan("thick", 30, 5.0)],
            Some(&env),
            true,
        );
        assert_eq!(keep.len(), 1);
        assert_eq!(keep[0].0.series_uid, "thick");
        assert!(
            left.len() == 1 && left[0].contains("thin reconstruction"),
            "{left:?}"
        );
        // alone, it is read as slabs of 5 mm: nothing left unusual, its warnings say how
        let (keep, left) = screen(vec![scan("thin", 238, 0.625)], Some(&env), true);
        assert!(left.is_empty() && keep.len() == 1 && keep[0].1.is_empty());
        assert_eq!((keep[0].0.slab, keep[0].0.rows()), (8, 30));
        assert!(keep[0].0.warnings[0].starts_with("read as 30 slabs of 8 slices (5.0 mm)"));
        let (keep, left) = screen(vec![scan("one", 1, 5.0)], None, true);
        assert!(left.is_empty() && keep.len() == 1 && keep[0].1.is_empty());
        // --all-series: the one-slice series is predicted, flagged with why it would be left out
        let (keep, left) = screen(vec![scan("one", 1, 5.0)], Some(&env), false);
        assert!(left.is_empty() && keep.len() == 1 && keep[0].1[0].contains("too few"));
    }

    /// A thin series alone is read as slabs near 5 mm when its slices are ordered by position
    /// (1.5 mm: 3 slices, 4.5 mm), and judged by its slabs (25 mm of 0.625 mm slices are 5
    /// slabs, too few for a head CT); ordered otherwise, it is read as it is and flagged thin.
    #[test]
    fn a_thin_series_alone_is_read_as_slabs_of_the_models_thickness() {
        let env = Envelope::sa_dmil();
        let s = as_slabs(scan("a", 100, 1.5), &env);
        assert_eq!((s.slab, s.rows()), (3, 34));
        assert_eq!(judge(&s, &env), Verdict::Predict(vec![]));
        let short = as_slabs(scan("a", 40, 0.625), &env);
        assert!(
            matches!(judge(&short, &env), Verdict::Skip(w) if w.starts_with("5 slab(s): too few"))
        );
        // 5 mm, and 2 mm slices (slabs of 2.5 → 3 slices, 6 mm): only the thin one changes
        assert_eq!(as_slabs(scan("a", 30, 5.0), &env).slab, 1);
        assert_eq!(as_slabs(scan("a", 90, 2.0), &env).slab, 3);
        let mut by_number = scan("a", 238, 0.625);
        by_number.ordered_by = OrderedBy::InstanceNumber;
        let s = as_slabs(by_number, &env);
        assert_eq!(s.slab, 1);
        assert!(matches!(judge(&s, &env), Verdict::Predict(u) if u[0].contains("thin slices")));
    }
}
