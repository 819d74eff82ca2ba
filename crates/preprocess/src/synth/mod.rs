//! `ich synth`: synthetic head CT scans with labelled hemorrhages, written as real DICOM.
//!
//! Each scan is a folder of CT Image Storage files (explicit VR little endian, RescaleSlope 1,
//! RescaleIntercept −1024, MONOCHROME2; a third of the scans with BitsStored 12) named in an order
//! unrelated to slice position. `labels.csv` gives scan labels and `slice_labels.csv` slice labels
//! and subtypes. The same seed gives the same files.

// Pixel loops index several parallel masks by the same index; iterators would obscure that.
#[allow(clippy::needless_range_loop)]
pub mod bleed;
pub mod head;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};
use rayon::prelude::*;
use serde::Serialize;

use crate::ctwriter::CtSlice;
use crate::dataset::{write_atomic, write_json};
use crate::error::{Error, Result};
use crate::pipeline::Progress;
pub use bleed::Subtype;
use head::{BaseCt, Volume};

/// Options of `ich synth`.
#[derive(Debug, Clone, Serialize)]
pub struct SynthOptions {
    pub scans: usize,
    /// Slices per scan (default 32).
    pub slices: usize,
    /// Rows and columns (default 256).
    pub size: usize,
    /// Fraction of positive scans (default 0.5).
    pub positive_fraction: f64,
    pub seed: u64,
    /// The real head CT (`cranium_hu_i16le_108x256x256.raw.gz`) to draw bleeds into, instead of
    /// the procedural head.
    pub base: Option<PathBuf>,
    /// Subtypes to draw from, uniformly (default all five).
    pub subtypes: Vec<Subtype>,
    /// Fraction of bleeds drawn subtle: thin, small or close to brain density (default 0.25).
    pub subtle_fraction: f64,
}

impl Default for SynthOptions {
    fn default() -> Self {
        Self {
            scans: 8,
            slices: 32,
            size: 256,
            positive_fraction: 0.5,
            seed: 0,
            base: None,
            subtypes: Subtype::ALL.to_vec(),
            subtle_fraction: 0.25,
        }
    }
}

/// What was written for one scan.
#[derive(Debug, Clone, Serialize)]
pub struct SynthScan {
    pub folder: String,
    pub study_instance_uid: String,
    pub series_instance_uid: String,
    pub label: u8,
    pub subtypes: Vec<String>,
    pub positive_slices: usize,
    pub slices: Vec<SynthSlice>,
}

/// One written slice, in z order.
#[derive(Debug, Clone, Serialize)]
pub struct SynthSlice {
    pub sop_instance_uid: String,
    pub file: String,
    pub label: u8,
    /// `;`-separated subtypes on this slice, empty when none.
    pub subtype: String,
}

fn uid(rng: &mut ChaCha8Rng) -> String {
    // UUID-derived UID (2.25.<128-bit integer>), as DICOM PS3.5 B.2 allows.
    format!("2.25.{}", rng.random::<u128>() >> 1)
}

/// A scan in HU with its slice labels (before DICOM encoding).
pub struct SynthVolume {
    pub volume: Volume,
    pub slice_subtypes: Vec<BTreeSet<Subtype>>,
}

/// Builds one scan: head, bleeds (when positive), noise.
pub fn make_volume(
    rng: &mut ChaCha8Rng,
    positive: bool,
    opts: &SynthOptions,
    base: Option<&BaseCt>,
) -> SynthVolume {
    let (slices, size) = (opts.slices, opts.size);
    let mut vol = match base {
        Some(b) => b.scan(rng, slices, size),
        None => head::procedural(rng, slices, size),
    };
    let mut slice_subtypes = vec![BTreeSet::new(); slices];
    if positive {
        let anat = bleed::anatomy(&vol);
        let min_px = ((6.0 / (vol.px_mm * vol.px_mm)).ceil() as usize).max(3);
        let wanted = rng.random_range(1..=3usize);
        let mut drawn = 0;
        for _attempt in 0..30 {
            if drawn >= wanted {
                break;
            }
            let subtype = opts.subtypes[rng.random_range(0..opts.subtypes.len())];
            let Some(b) = bleed::random_bleed(rng, subtype, opts.subtle_fraction, &vol, &anat)
            else {
                continue;
            };
            let mut any = false;
            for (k, a) in anat.iter().enumerate() {
                let m = bleed::bleed_mask(&b, &vol, a, k);
                if m.iter().filter(|v| **v).count() < min_px {
                    continue;
                }
                let plane = vol.slice_mut(k);
                for (p, inside) in plane.iter_mut().zip(&m) {
                    if *inside {
                        *p = p.max(b.hu);
                    }
                }
                slice_subtypes[k].insert(b.subtype);
                any = true;
            }
            if any {
                drawn += 1;
            }
        }
    }
    // noise: 5–10 HU on the procedural head; the real CT has its own, so only a little more
    let sigma = if base.is_some() {
        rng.random_range(2.0..4.0)
    } else {
        rng.random_range(5.0..10.0)
    };
    let normal = Normal::new(0.0f32, sigma).expect("finite sigma");
    for v in vol.hu.iter_mut() {
        *v += normal.sample(rng);
    }
    SynthVolume {
        volume: vol,
        slice_subtypes,
    }
}

/// Writes `opts.scans` scans under `out` with `labels.csv` and `slice_labels.csv`.
pub fn synth(out: &Path, opts: &SynthOptions, progress: &dyn Progress) -> Result<Vec<SynthScan>> {
    if opts.scans == 0 || opts.slices == 0 || opts.size < 16 {
        return Err(Error::Invalid(
            "synth needs at least 1 scan, 1 slice and a size of 16".into(),
        ));
    }
    if opts.size > usize::from(u16::MAX) {
        return Err(Error::Invalid(format!(
            "size {} does not fit DICOM Rows/Columns (at most 65535)",
            opts.size
        )));
    }
    if opts.subtypes.is_empty() {
        return Err(Error::Invalid("synth needs at least one subtype".into()));
    }
    if !(0.0..=1.0).contains(&opts.subtle_fraction) {
        return Err(Error::Invalid(
            "--subtle-fraction must be within [0, 1]".into(),
        ));
    }
    if !(0.0..=1.0).contains(&opts.positive_fraction) {
        return Err(Error::Invalid(
            "--positive-fraction must be within [0, 1]".into(),
        ));
    }
    let base = opts.base.as_deref().map(BaseCt::load).transpose()?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    // one writer in the folder at a time; what a killed run left is swept (here and in each
    // scan's folder as it is written)
    let (lock, _) =
        milbase::atomic::lock_folder(out, &[], "synth").map_err(|e| Error::io(out, e))?;
    let mut master = ChaCha8Rng::seed_from_u64(opts.seed);
    let n_pos = (opts.scans as f64 * opts.positive_fraction).round() as usize;
    let mut labels: Vec<bool> = (0..opts.scans).map(|i| i < n_pos).collect();
    labels.shuffle(&mut master);
    let study_root = master.random::<u64>();
    progress.stage("synthesizing scans", opts.scans as u64);
    let scans: Vec<SynthScan> = labels
        .par_iter()
        .enumerate()
        .map(|(i, &positive)| {
            let mut rng = ChaCha8Rng::seed_from_u64(opts.seed ^ study_root);
            rng.set_stream(i as u64 + 1);
            let r = write_scan(out, &lock, i, positive, opts, base.as_ref(), &mut rng);
            progress.inc(1);
            r
        })
        .collect::<Result<_>>()?;
    progress.done();

    let mut scan_csv = String::from("scan,study_instance_uid,series_instance_uid,label,subtypes\n");
    let mut slice_csv = String::from("scan,sop_instance_uid,label,subtype\n");
    for s in &scans {
        scan_csv.push_str(&format!(
            "{},{},{},{},{}\n",
            s.folder,
            s.study_instance_uid,
            s.series_instance_uid,
            s.label,
            s.subtypes.join(";")
        ));
        for sl in &s.slices {
            slice_csv.push_str(&format!(
                "{},{},{},{}\n",
                s.folder, sl.sop_instance_uid, sl.label, sl.subtype
            ));
        }
    }
    write_atomic(&out.join("labels.csv"), scan_csv.as_bytes())?;
    write_atomic(&out.join("slice_labels.csv"), slice_csv.as_bytes())?;
    write_json(
        &out.join("synth.json"),
        &serde_json::json!({ "options": opts, "scans": scans }),
    )?;
    Ok(scans)
}

fn write_scan(
    out: &Path,
    lock: &milbase::atomic::DirLock,
    i: usize,
    positive: bool,
    opts: &SynthOptions,
    base: Option<&BaseCt>,
    rng: &mut ChaCha8Rng,
) -> Result<SynthScan> {
    let sv = make_volume(rng, positive, opts, base);
    let vol = &sv.volume;
    let folder = format!("scan-{i:04}");
    let dir = out.join(&folder);
    // never through a link planted at the scan's folder
    milbase::atomic::create_dir_under(out, &dir).map_err(|e| Error::io(&dir, e))?;
    milbase::atomic::remove_stale_temporaries(&dir, lock).map_err(|e| Error::io(&dir, e))?;
    let study = uid(rng);
    let series = uid(rng);
    let frame = uid(rng);
    let bits_stored = if rng.random_bool(1.0 / 3.0) { 12 } else { 16 };
    let max_stored = (1i32 << bits_stored) - 1;
    let mut names: Vec<u32> = (0..vol.nz as u32).collect();
    names.shuffle(rng);
    let salt: u32 = rng.random();
    let half_fov = vol.px_mm * vol.n as f64 / 2.0;
    let mut slices = Vec::with_capacity(vol.nz);
    for (k, name) in names.iter().enumerate() {
        let sop = uid(rng);
        let file = format!(
            "IM{:08X}.dcm",
            name.wrapping_mul(2654435761).wrapping_add(salt)
        );
        let stored: Vec<i32> = vol
            .slice(k)
            .iter()
            .map(|&h| ((h + 1024.0).round() as i32).clamp(0, max_stored))
            .collect();
        let slice = CtSlice {
            study_uid: study.clone(),
            series_uid: series.clone(),
            sop_uid: sop.clone(),
            frame_of_reference_uid: frame.clone(),
            patient_name: format!("Synthetic^Patient{i:04}"),
            patient_id: format!("SYN{:06}", i),
            instance_number: Some(k as i32 + 1),
            position: Some([-half_fov, -half_fov, vol.z_mm[k]]),
            pixel_spacing: [vol.px_mm, vol.px_mm],
            slice_thickness: vol.slice_thickness,
            series_description: format!("Synthetic head, {:.1} mm", vol.slice_thickness),
            rows: vol.n as u16,
            cols: vol.n as u16,
            bits_stored,
            stored,
            ..CtSlice::default()
        };
        write_atomic(&dir.join(&file), &slice.to_bytes()?)?;
        let subs: Vec<&str> = sv.slice_subtypes[k].iter().map(|s| s.name()).collect();
        slices.push(SynthSlice {
            sop_instance_uid: sop,
            file,
            label: u8::from(!subs.is_empty()),
            subtype: subs.join(";"),
        });
    }
    let all: BTreeSet<&str> = sv
        .slice_subtypes
        .iter()
        .flatten()
        .map(|s| s.name())
        .collect();
    let positive_slices = slices.iter().filter(|s| s.label == 1).count();
    Ok(SynthScan {
        folder,
        study_instance_uid: study,
        series_instance_uid: series,
        label: u8::from(positive_slices > 0),
        subtypes: all.into_iter().map(String::from).collect(),
        positive_slices,
        slices,
    })
}
