//! `ich preprocess`: DICOM folders → dataset.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use tracing::{info, warn};

use crate::dataset::{
    self, Manifest, PreprocessConfig, ScanEntry, ScanMeta, Skipped, SliceMeta, FORMAT_VERSION,
};
use crate::error::{Error, Result};
use crate::labels::Labels;
use crate::read::{Limits, SliceHeader};
use crate::scan::Scan;

mod decode;
mod find;

pub use self::decode::*;
pub use self::find::*;
pub use milbase::{Progress, Quiet};

/// Options of a preprocess run.
#[derive(Debug, Clone, Default)]
pub struct PreprocessOptions {
    pub config: PreprocessConfig,
    /// Keep PatientName and PatientID in the scan metadata (off by default).
    pub keep_phi: bool,
    /// Redo scans that are already in the output folder.
    pub force: bool,
    pub labels: Labels,
    /// Ceilings on one file's size and one slice's decoded size.
    pub limits: Limits,
    /// Store the `.npz` arrays uncompressed (about 5× the disk of deflate level 1, the default,
    /// and faster to write; `numpy.load` reads both).
    pub uncompressed: bool,
    /// At most this many slice files' headers held in memory at once (`None`:
    /// [`HEADERS_IN_MEMORY`]); beyond it they spill to disk in the output folder, a bucket of
    /// whole scans at a time.
    pub headers_in_memory: Option<usize>,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub scans_written: usize,
    pub scans_resumed: usize,
    /// Scans an earlier run into the same folder wrote from other inputs, still listed.
    pub scans_kept: usize,
    pub scans_failed: Vec<String>,
    pub slices: usize,
    pub skipped: Skipped,
    /// (scan id, warning)
    pub warnings: Vec<(String, String)>,
    pub manifest: PathBuf,
    /// CT slice files (and NIfTI volumes) of other shards' scans (`--shard I/N`): a shard that
    /// holds none of a small cohort's scans is an empty dataset, not a failure.
    pub other_shards: usize,
}
/// Runs the whole preprocessing: read headers, group, order, decode, window, resample, write.
pub fn preprocess(
    inputs: &[PathBuf],
    out: &Path,
    opts: &PreprocessOptions,
    progress: &dyn Progress,
) -> Result<Summary> {
    preprocess_shard(inputs, out, opts, milbase::Shard::ALL, progress)
}

/// [`preprocess`] for the scans of one shard (`ich preprocess --shard I/N`): every file's header
/// is read, and only those of the scans whose id falls in `shard` are kept, grouped and
/// processed. The files that belong to no scan are reported by shard 0 alone, so that the shards'
/// datasets joined by [`crate::merge`] report each once.
pub fn preprocess_shard(
    inputs: &[PathBuf],
    out: &Path,
    opts: &PreprocessOptions,
    shard: milbase::Shard,
    progress: &dyn Progress,
) -> Result<Summary> {
    let scans_dir = out.join("scans");
    milbase::atomic::create_dir_under(out, &scans_dir).map_err(|e| Error::io(&scans_dir, e))?;
    // one writer at a time: two runs into one folder would each write a dataset.json of their own
    // ...and what an interrupted run was writing when it died is swept (the dataset itself is
    // always whole)
    let (_lock, removed) = milbase::atomic::lock_folder(out, &[&scans_dir], "preprocess")
        .map_err(|e| Error::io(out, e))?;
    if !removed.is_empty() {
        tracing::info!(
            "removed {} temporary file(s) an interrupted run left in {}",
            removed.len(),
            out.display()
        );
    }
    let most = opts.headers_in_memory.unwrap_or(HEADERS_IN_MEMORY);
    let mut batches = scan_batches(inputs, &opts.limits, shard, Some((out, most)), progress)?;
    let mut skipped = std::mem::take(&mut batches.skipped);
    if !shard.is_all() && shard.index != 0 {
        skipped = Skipped::default();
    }
    skipped.absorb(std::mem::take(&mut batches.own));
    if batches.buckets > 0 {
        info!(
            "{} slice file(s): more than the {most} whose headers are held at once, so they \
             wait on disk in {} bucket(s) of whole scans",
            batches.slices, batches.buckets
        );
    }
    let mut summary = Summary {
        skipped,
        other_shards: batches.others,
        ..Summary::default()
    };
    info!("{} CT slice file(s) to preprocess", batches.slices);

    progress.stage("preprocessing scans", batches.slices as u64);
    let skipped = Mutex::new(std::mem::take(&mut summary.skipped));
    let mut entries = Vec::new();
    let mut n_scans = 0;
    while let Some(scans) = batches.next_batch()? {
        n_scans += scans.len();
        // labels files are read for each batch, keeping its rows (Labels::files)
        let labels = opts.labels.for_scans(&scans)?;
        let labels = labels.as_ref();
        let outcomes: Vec<(Scan, Result<(ScanMeta, bool)>)> = scans
            .into_par_iter()
            .map(|scan| {
                let r = process_scan(&scan, out, (opts, labels), progress, &skipped);
                (scan, r)
            })
            .collect();
        record_outcomes(outcomes, &mut summary, &mut entries);
    }
    progress.done();
    summary.skipped = skipped
        .into_inner()
        .expect("no panics while holding the lock");
    if shard.is_all() {
        info!("{n_scans} CT scan(s)");
    } else {
        info!("shard {shard}: {n_scans} scan(s)");
    }
    summary.manifest = out.join("dataset.json");
    // an earlier run into this folder (other inputs, same preprocessing): its scans stay listed
    summary.scans_kept = keep_earlier_scans(out, &summary.manifest, &opts.config, &mut entries);
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
        config: opts.config.clone(),
        scans: entries,
        skipped: summary.skipped.clone(),
        shard: (!shard.is_all()).then(|| shard.to_string()),
        merged: None,
    };
    dataset::write_json(&summary.manifest, &manifest)?;
    Ok(summary)
}

/// Adds a batch's outcomes to the run's summary, and its scans' entries to the manifest's.
fn record_outcomes(
    outcomes: Vec<(Scan, Result<(ScanMeta, bool)>)>,
    summary: &mut Summary,
    entries: &mut Vec<ScanEntry>,
) {
    for (scan, r) in outcomes {
        for (first, d) in &scan.duplicates {
            warn!(
                "{}: repeats the SOPInstanceUID of {}",
                d.display(),
                first.display()
            );
        }
        match r {
            Ok((meta, resumed)) => {
                if resumed {
                    summary.scans_resumed += 1;
                } else {
                    summary.scans_written += 1;
                }
                summary.slices += meta.n_slices;
                for w in &meta.warnings {
                    summary.warnings.push((meta.id.clone(), w.clone()));
                }
                entries.push(ScanEntry {
                    id: meta.id.clone(),
                    label: meta.label,
                    n_slices: meta.n_slices,
                    pixels: meta.pixels.clone(),
                    meta: format!("scans/{}.json", meta.id),
                });
            }
            Err(e) => {
                warn!("scan {} failed: {e}", scan.id);
                summary.scans_failed.push(format!("{}: {e}", scan.id));
            }
        }
    }
}

/// Adds to `entries` the scans an earlier run listed in `manifest` (same preprocessing, files
/// still there, not redone by this run); returns how many. A dataset.json of other preprocessing
/// or one that cannot be read is left out with a warning: its scans are not this dataset's.
fn keep_earlier_scans(
    out: &Path,
    manifest: &Path,
    config: &PreprocessConfig,
    entries: &mut Vec<ScanEntry>,
) -> usize {
    if !manifest.is_file() {
        return 0;
    }
    let old: Manifest = match dataset::read_json(manifest) {
        Ok(m) => m,
        Err(e) => {
            warn!("the earlier dataset.json is not read, its scans are not listed: {e}");
            return 0;
        }
    };
    if &old.config != config {
        warn!(
            "{}: an earlier run with other preprocessing; its scans are no longer listed",
            manifest.display()
        );
        return 0;
    }
    let mut kept = 0;
    for e in old.scans {
        let files_there = [&e.meta, &e.pixels]
            .iter()
            .all(|f| milbase::stays_inside(f) && out.join(f).is_file());
        if files_there && !entries.iter().any(|n| n.id == e.id) {
            entries.push(e);
            kept += 1;
        }
    }
    kept
}

/// Slice metadata without labels (see [`apply_labels`]); `slabs`, when the scan is read as
/// slabs, holds each row's slices (empty otherwise). The slices of a `volume` carry their index
/// in the file as `instance_number` ([`crate::source::VolumeFormat::header`]).
fn slice_metas(
    slices: &[&SliceHeader],
    z: &[Option<f64>],
    slabs: &[Vec<&SliceHeader>],
    volume: bool,
) -> Vec<SliceMeta> {
    let index = |h: &SliceHeader| h.instance_number.filter(|_| volume).map(|k| k as usize);
    slices
        .iter()
        .zip(z)
        .enumerate()
        .map(|(row, (h, z))| {
            let k = index(h);
            let slab = slabs.get(row);
            let (slab_of, volume_slab_of) = match slab {
                Some(s) if volume => (Vec::new(), s.iter().filter_map(|h| index(h)).collect()),
                Some(s) => (s.iter().map(|h| h.sop_uid.clone()).collect(), Vec::new()),
                None => Default::default(),
            };
            SliceMeta {
                sop_instance_uid: h.sop_uid.clone(),
                z: *z,
                instance_number: if volume { None } else { h.instance_number },
                source: match k {
                    Some(k) => format!("{}#{k}", h.path.display()),
                    None => h.path.display().to_string(),
                },
                label: None,
                subtype: None,
                volume_index: k,
                slab_of,
                volume_slab_of,
            }
        })
        .collect()
}

/// Sets slice labels (by SOPInstanceUID) and the scan label (by SeriesInstanceUID, else the max of
/// its slice labels) from `labels`; a volume's by its name and each slice's index in the file.
/// A slab's label is its slices' ([`crate::labels::of_slab`]). A volume's slice label row beyond
/// its slices fails the scan (the message names the labels file and line): a positive row
/// dropped would make a bleed negative.
pub fn apply_labels(meta: &mut ScanMeta, labels: &Labels) -> std::result::Result<(), String> {
    if let Some(name) = &meta.volume {
        let depth = meta
            .slices
            .iter()
            .flat_map(|s| s.volume_index.iter().chain(&s.volume_slab_of))
            .max()
            .map_or(0, |k| k + 1);
        if let Some(e) = labels.volume_beyond(name, depth) {
            return Err(e);
        }
        for s in &mut meta.slices {
            let l = if s.volume_slab_of.is_empty() {
                s.volume_index
                    .and_then(|k| labels.volume_slice(name, k))
                    .cloned()
            } else {
                crate::labels::of_slab(
                    s.volume_slab_of
                        .iter()
                        .map(|&k| labels.volume_slice(name, k)),
                )
            };
            s.subtype = l.as_ref().map(|l| l.subtype.clone());
            s.label = l.map(|l| l.label);
        }
        let sl: Vec<Option<u8>> = meta.slices.iter().map(|s| s.label).collect();
        meta.label = labels.volume_scan(name, &sl);
        return Ok(());
    }
    for s in &mut meta.slices {
        let l = if s.slab_of.is_empty() {
            labels.slice(&s.sop_instance_uid).cloned()
        } else {
            crate::labels::of_slab(s.slab_of.iter().map(|u| labels.slice(u)))
        };
        s.subtype = l.as_ref().map(|l| l.subtype.clone());
        s.label = l.map(|l| l.label);
    }
    let sl: Vec<Option<u8>> = meta.slices.iter().map(|s| s.label).collect();
    meta.label = labels.scan(&meta.study_instance_uid, &meta.series_instance_uid, &sl);
    if labels.other_study(&meta.study_instance_uid, &meta.series_instance_uid) {
        let w = "a scan labels row names this series under another StudyInstanceUID; it is not \
                 used for this scan";
        if !meta.warnings.iter().any(|x| x == w) {
            meta.warnings.push(w.to_string());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::HuImage;

    /// A 1 × 2 slice of 0 and 60 HU enlarged to 4 × 4 by the `sa-dmil` preset. OpenCV's source
    /// columns for the 4 outputs are −0.25, 0.25, 0.75, 1.25: clamped, weights 0, ¼, ¾, 1 of the
    /// second pixel. Windowed first (soft 30/30: 0 HU → 0, 60 HU → 1) they give 0, ¼, ¾, 1;
    /// resized first, 0, 15, 45, 60 HU, which the soft window makes 0, 0, 1, 1.
    #[test]
    fn the_sa_dmil_preset_windows_before_it_resizes() {
        let img = HuImage {
            rows: 1,
            cols: 2,
            hu: vec![0.0, 60.0],
        };
        let mut cfg = PreprocessConfig {
            size: 4,
            ..PreprocessConfig::sa_dmil()
        };
        let soft_row = |cfg: &PreprocessConfig| {
            let mut f = Vec::new();
            slice_to_float_channels(&img, cfg, &mut f);
            let mut b = Vec::new();
            slice_to_channels(&img, cfg, &mut b);
            assert_eq!(f.len(), 3 * 16);
            assert_eq!(b.len(), 3 * 16);
            // channel 2 (soft), its first row; every row is the same
            (f[32..36].to_vec(), b[32..36].to_vec())
        };
        let (f, b) = soft_row(&cfg);
        assert_eq!(f, vec![0.0, 0.25, 0.75, 1.0]);
        assert_eq!(b, vec![0, 64, 191, 255]);
        cfg.window_first = false;
        let (f, b) = soft_row(&cfg);
        assert_eq!(f, vec![0.0, 0.0, 1.0, 1.0]);
        assert_eq!(b, vec![0, 0, 255, 255]);
        // ich's own preset keeps its order, and its fingerprint does not change with the field
        assert!(!PreprocessConfig::default().window_first);
        assert!(!serde_json::to_string(&PreprocessConfig::default())
            .unwrap()
            .contains("window_first"));
    }
}
