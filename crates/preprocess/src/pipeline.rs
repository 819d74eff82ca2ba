//! `ich preprocess`: DICOM folders → dataset.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use tracing::{info, warn};

use crate::dataset::{
    self, Manifest, PreprocessConfig, ScanEntry, ScanMeta, Skipped, SliceMeta, FORMAT_VERSION,
};
use crate::error::{Error, FileError, FileProblem, Result};
use crate::labels::Labels;
use crate::read::{read_header_within, read_hu_within, HuImage, Limits, SliceHeader};
use crate::resample::resize_filter;
use crate::scan::{group, Scan};
use crate::view::SliceView;
use crate::window::window_u8;

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

/// At most this many files are gathered from the inputs; beyond it the walk stops with an error
/// (a link loop or a mount of something else is not a folder of scans).
pub const MAX_FILES: usize = 2_000_000;

/// At most this many skipped files are listed by name in a run's summary (all are counted by
/// reason; the log has each).
pub const MAX_SKIP_MESSAGES: usize = 10_000;

/// At most this many walk warnings are logged one by one; the rest are counted.
const MAX_WALK_WARNINGS: usize = 100;

/// Folders a link may never lead into: the kernel's and devices' pseudo-files are not scans and
/// can be endless (`/proc`) or block on read.
const NEVER_FOLLOWED: [&str; 3] = ["/proc", "/sys", "/dev"];

/// A path the input walk left out, with the reason.
pub type LeftOut = (PathBuf, String);

/// Extensions of the tables and notes that sit beside images (label files, `ich synth`'s
/// `synth.json`, a README): a folder's walk passes over them without a word (a debug line counts
/// them), where any other file that is not DICOM is reported as skipped. A file given by name is
/// read whatever its extension.
pub const SIDECAR_EXTENSIONS: [&str; 5] = ["csv", "tsv", "json", "txt", "md"];

/// Whether a file found in a folder is a table or a note ([`SIDECAR_EXTENSIONS`], any case).
pub fn is_sidecar(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SIDECAR_EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// The regular files under the inputs (folders recursively), sorted, and what the walk left
/// out, as `(path, reason)`: links that lead outside the given inputs (or into /proc, /sys,
/// /dev) are not followed, and files that are not regular (FIFOs, sockets, devices) are not read.
pub fn collect_files(inputs: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<LeftOut>)> {
    let mut roots = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input).map_err(|e| Error::io(input, e))?;
        if !meta.is_file() && !meta.is_dir() {
            return Err(Error::io(
                input,
                std::io::Error::other("not a regular file or a folder"),
            ));
        }
        let canon = std::fs::canonicalize(input).map_err(|e| Error::io(input, e))?;
        if NEVER_FOLLOWED.iter().any(|d| canon.starts_with(d)) {
            return Err(Error::io(
                input,
                std::io::Error::other("lies under /proc, /sys or /dev: not a folder of scans"),
            ));
        }
        roots.push(canon);
    }
    // a link is followed only when it leads inside one of the inputs
    let inside = |p: &Path| -> std::result::Result<(), String> {
        let target =
            std::fs::canonicalize(p).map_err(|e| format!("broken link, not followed ({e})"))?;
        if NEVER_FOLLOWED.iter().any(|d| target.starts_with(d)) {
            return Err(format!(
                "link to {} not followed (/proc, /sys and /dev are never read)",
                target.display()
            ));
        }
        if roots.iter().any(|r| target.starts_with(r)) {
            Ok(())
        } else {
            Err(format!(
                "link to {} not followed: it leads outside the given inputs",
                target.display()
            ))
        }
    };
    let mut files = Vec::new();
    let mut left_out: Vec<LeftOut> = Vec::new();
    let mut sidecars = 0usize;
    for input in inputs {
        if std::fs::metadata(input).is_ok_and(|m| m.is_file()) {
            files.push(input.clone());
            continue;
        }
        let mut denied = Vec::new();
        let walk = walkdir::WalkDir::new(input)
            .follow_links(true)
            .into_iter()
            .filter_entry(|e| {
                if e.depth() == 0 || !e.path_is_symlink() {
                    return true;
                }
                match inside(e.path()) {
                    Ok(()) => true,
                    Err(why) => {
                        denied.push((e.path().to_path_buf(), why));
                        false
                    }
                }
            });
        for entry in walk {
            match entry {
                Ok(e) if e.file_type().is_file() && is_sidecar(e.path()) => sidecars += 1,
                Ok(e) if e.file_type().is_file() => {
                    files.push(e.into_path());
                    if files.len() > MAX_FILES {
                        return Err(Error::io(
                            input,
                            std::io::Error::other(format!(
                                "more than {MAX_FILES} files under the inputs; give fewer folders"
                            )),
                        ));
                    }
                }
                Ok(e) if e.file_type().is_dir() => {}
                Ok(e) => left_out.push((
                    e.into_path(),
                    "not a regular file (FIFO, socket or device): not read".into(),
                )),
                Err(e) => {
                    let p = e.path().map(Path::to_path_buf).unwrap_or_default();
                    let link = std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_symlink());
                    let why = if link && std::fs::metadata(&p).is_err() {
                        format!("broken link, not followed ({e})")
                    } else {
                        e.to_string()
                    };
                    left_out.push((p, why));
                }
            }
        }
        left_out.extend(denied);
    }
    for (k, (p, why)) in left_out.iter().enumerate() {
        if k < MAX_WALK_WARNINGS {
            warn!("{}: {why}", p.display());
        } else {
            warn!(
                "... and {} more left out of the walk (not logged one by one)",
                left_out.len() - k
            );
            break;
        }
    }
    if sidecars > 0 {
        tracing::debug!("passed over {sidecars} table or text file(s) beside the images (.csv, .tsv, .json, .txt, .md)");
    }
    files.sort();
    files.dedup();
    Ok((files, left_out))
}

fn record_skip(skipped: &mut Skipped, err: &FileError) {
    let key = match &err.problem {
        FileProblem::NotCt { modality, .. } if !modality.is_empty() => {
            format!("not a CT image ({modality})")
        }
        FileProblem::NotHead(part) => format!("not a head CT ({part})"),
        p => p.category().to_string(),
    };
    *skipped.counts.entry(key).or_default() += 1;
    if skipped.files.len() < MAX_SKIP_MESSAGES {
        skipped.files.push(err.to_string());
    }
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
/// datasets joined by [`crate::dataset::merge`] report each once.
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
/// slabs, holds each row's slices (empty otherwise).
fn slice_metas(
    slices: &[&SliceHeader],
    z: &[Option<f64>],
    slabs: &[Vec<&SliceHeader>],
    nifti: bool,
) -> Vec<SliceMeta> {
    let index = |h: &SliceHeader| h.instance_number.filter(|_| nifti).map(|k| k as usize);
    slices
        .iter()
        .zip(z)
        .enumerate()
        .map(|(row, (h, z))| {
            let k = index(h);
            let slab = slabs.get(row);
            let (slab_of, nifti_slab_of) = match slab {
                Some(s) if nifti => (Vec::new(), s.iter().filter_map(|h| index(h)).collect()),
                Some(s) => (s.iter().map(|h| h.sop_uid.clone()).collect(), Vec::new()),
                None => Default::default(),
            };
            SliceMeta {
                sop_instance_uid: h.sop_uid.clone(),
                z: *z,
                instance_number: if nifti { None } else { h.instance_number },
                source: match k {
                    Some(k) => format!("{}#{k}", h.path.display()),
                    None => h.path.display().to_string(),
                },
                label: None,
                subtype: None,
                nifti_index: k,
                slab_of,
                nifti_slab_of,
            }
        })
        .collect()
}

/// Sets slice labels (by SOPInstanceUID) and the scan label (by SeriesInstanceUID, else the max of
/// its slice labels) from `labels`. A slab's label is its slices' ([`crate::labels::of_slab`]).
/// A NIfTI file's slice label row beyond its slices fails the scan (the message names the labels
/// file and line): a positive row dropped would make a bleed negative.
pub fn apply_labels(meta: &mut ScanMeta, labels: &Labels) -> std::result::Result<(), String> {
    if let Some(name) = &meta.nifti {
        let depth = meta
            .slices
            .iter()
            .flat_map(|s| s.nifti_index.iter().chain(&s.nifti_slab_of))
            .max()
            .map_or(0, |k| k + 1);
        if let Some(e) = labels.nifti_beyond(name, depth) {
            return Err(e);
        }
        for s in &mut meta.slices {
            let l = if s.nifti_slab_of.is_empty() {
                s.nifti_index
                    .and_then(|k| labels.nifti_slice(name, k))
                    .cloned()
            } else {
                crate::labels::of_slab(s.nifti_slab_of.iter().map(|&k| labels.nifti_slice(name, k)))
            };
            s.subtype = l.as_ref().map(|l| l.subtype.clone());
            s.label = l.map(|l| l.label);
        }
        let sl: Vec<Option<u8>> = meta.slices.iter().map(|s| s.label).collect();
        meta.label = labels.nifti_scan(name, &sl);
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

/// Windows and resamples one decoded slice into `out` (`[3][size][size]` bytes), in the
/// config's order ([`PreprocessConfig::window_first`]).
pub fn slice_to_channels(img: &HuImage, config: &PreprocessConfig, out: &mut Vec<u8>) {
    if config.window_first && (img.rows, img.cols) != (config.size, config.size) {
        for c in windowed_then_resized(img, config) {
            out.extend(c.iter().map(|&v| crate::window::to_u8(v.clamp(0.0, 1.0))));
        }
        return;
    }
    let hu = resize_filter(
        &config.filter,
        &img.hu,
        img.rows,
        img.cols,
        config.size,
        config.size,
    );
    window_u8(&hu, &config.windows, out);
}

/// Windows and resamples one decoded slice into `out` (`[3][size][size]` floats in [0, 1]), in
/// the config's order.
pub fn slice_to_float_channels(img: &HuImage, config: &PreprocessConfig, out: &mut Vec<f32>) {
    if config.window_first {
        for c in windowed_then_resized(img, config) {
            out.extend(c);
        }
        return;
    }
    let hu = resize_filter(
        &config.filter,
        &img.hu,
        img.rows,
        img.cols,
        config.size,
        config.size,
    );
    for w in &config.windows.0 {
        out.extend(hu.iter().map(|&h| w.apply(h)));
    }
}

/// Each window of the slice's Hounsfield units, resampled to the config's size: the order of
/// `cv2.resize(bsb_window(dcm), …)`.
fn windowed_then_resized(img: &HuImage, config: &PreprocessConfig) -> Vec<Vec<f32>> {
    config
        .windows
        .0
        .iter()
        .map(|w| {
            let v: Vec<f32> = img.hu.iter().map(|&h| w.apply(h)).collect();
            resize_filter(
                &config.filter,
                &v,
                img.rows,
                img.cols,
                config.size,
                config.size,
            )
        })
        .collect()
}

fn process_scan(
    scan: &Scan,
    out: &Path,
    (opts, labels): (&PreprocessOptions, &Labels),
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, bool)> {
    let meta_path = out.join("scans").join(format!("{}.json", scan.id));
    let pixels = format!("scans/{}.npz", scan.id);
    let fingerprint = opts.config.fingerprint();
    if !opts.force && meta_path.exists() {
        if let Ok(mut meta) = dataset::read_json::<ScanMeta>(&meta_path) {
            let complete = meta.config_fingerprint == fingerprint
                && meta.format_version == FORMAT_VERSION
                && out.join(&meta.pixels).exists()
                && meta.slices.len() == scan.rows();
            if complete {
                let before = meta.clone();
                apply_labels(&mut meta, labels).map_err(Error::Invalid)?;
                if meta != before {
                    dataset::write_json(&meta_path, &meta)?;
                }
                progress.inc(scan.slices.len() as u64);
                return Ok((meta, true));
            }
        }
    }
    let (mut meta, data) = decode_scan(
        scan,
        &opts.config,
        &opts.limits,
        opts.keep_phi,
        progress,
        skipped,
    )?;
    meta.pixels = pixels.clone();
    let size = opts.config.size;
    let kept = meta.n_slices;
    apply_labels(&mut meta, labels).map_err(Error::Invalid)?;
    dataset::write_npz_with(
        &out.join(&pixels),
        &[kept, 3, size, size],
        &data,
        !opts.uncompressed,
    )?;
    dataset::write_json(&meta_path, &meta)?;
    Ok((meta, false))
}

/// Decodes, windows and resamples every slice of one scan in memory: its metadata (without
/// labels; `pixels` is empty) and uint8 `[slices, 3, size, size]`. Slices that fail to decode are
/// recorded in `skipped`, named in the scan's warnings and left out.
pub fn decode_scan(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, Vec<u8>)> {
    decode_scan_with(
        scan,
        config,
        limits,
        keep_phi,
        progress,
        skipped,
        Output {
            channels: slice_to_channels,
            views: None,
            stream: None,
        },
    )
}

/// As [`decode_scan`], with each kept slice at the source's own resolution as well (a
/// [`SliceView`] a slice, in the same order), for the pictures a reader is shown.
pub fn decode_scan_viewed(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, Vec<u8>, Vec<SliceView>)> {
    viewed(
        scan,
        config,
        limits,
        keep_phi,
        (progress, skipped),
        (slice_to_channels, None),
    )
}

/// As [`decode_scan_viewed`], but the windowed intensities stay floats in [0, 1] (not
/// quantised to bytes): for networks whose reference numbers were computed on exact window
/// values.
pub fn decode_scan_float_viewed(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, Vec<f32>, Vec<SliceView>)> {
    viewed(
        scan,
        config,
        limits,
        keep_phi,
        (progress, skipped),
        (slice_to_float_channels, None),
    )
}

/// A scan decoded with `channels`, with each kept slice's [`SliceView`]; with `stream`, the
/// decoded slices handed over a few at a time instead of returned.
fn viewed<T: Copy + Default>(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    (progress, skipped): (&dyn Progress, &Mutex<Skipped>),
    (channels, stream): (Channels<T>, Option<Stream<'_, T>>),
) -> Result<(ScanMeta, Vec<T>, Vec<SliceView>)> {
    let mut views = Vec::new();
    let (meta, data) = decode_scan_with(
        scan,
        config,
        limits,
        keep_phi,
        progress,
        skipped,
        Output {
            channels,
            views: Some(&mut views),
            stream,
        },
    )?;
    Ok((meta, data, views))
}

/// As [`decode_scan_float_viewed`], with the windowed floats handed to `take` `every` slices at
/// a time, in order, instead of held for the whole scan (a 238-slice series of 512² holds 748 MB
/// of them): a network that encodes slices a few at a time needs no more. The returned floats
/// are what was not handed over: none for a DICOM series, the whole volume for a NIfTI file
/// (read in its own order). Slices that fail to decode are left out as by the other decoders.
pub fn decode_scan_float_streamed(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    (progress, skipped): (&dyn Progress, &Mutex<Skipped>),
    every: usize,
    take: &mut dyn FnMut(&[f32]) -> Result<()>,
) -> Result<(ScanMeta, Vec<f32>, Vec<SliceView>)> {
    viewed(
        scan,
        config,
        limits,
        keep_phi,
        (progress, skipped),
        (slice_to_float_channels, Some(Stream { every, take })),
    )
}

/// Files that repeat a SOPInstanceUID must repeat its pixels too: a file with a genuine slice's
/// UID but other pixels (a replaced or tampered slice) makes the scan an error naming both files,
/// since which of them is genuine cannot be told. A repeat that cannot be decoded is left out.
fn check_duplicates(scan: &Scan, config: &PreprocessConfig, limits: &Limits) -> Result<()> {
    for (first, dup) in &scan.duplicates {
        let (Ok((_, a)), Ok((_, b))) = (
            read_hu_within(first, config.rsna_fix, limits),
            read_hu_within(dup, config.rsna_fix, limits),
        ) else {
            continue;
        };
        if (a.rows, a.cols) != (b.rows, b.cols) || a.hu != b.hu {
            return Err(Error::Invalid(format!(
                "{} and {} hold the same SOPInstanceUID with different pixel data; which one is \
                 genuine cannot be told, so the scan is not used (remove the wrong file)",
                first.display(),
                dup.display()
            )));
        }
    }
    Ok(())
}

/// A scan is one patient's: slices of one series whose PatientID differs (a missing one counts
/// as empty) make the scan an error naming a file of each, since a result would name one patient
/// and describe the other's images. The message names files, never the IDs (they are PHI).
pub fn check_one_patient(scan: &Scan) -> Result<()> {
    let pid = |h: &SliceHeader| h.patient_id.as_deref().unwrap_or("").trim().to_string();
    let Some(first) = scan.slices.first() else {
        return Ok(());
    };
    let want = pid(first);
    if let Some(other) = scan.slices.iter().find(|h| pid(h) != want) {
        let n: std::collections::BTreeSet<String> = scan.slices.iter().map(pid).collect();
        return Err(Error::Invalid(format!(
            "{} and {} are slices of one series (StudyInstanceUID and SeriesInstanceUID alike) \
             with different PatientIDs ({} patients in the series); a result would name one \
             patient and show the other's images, so the scan is not used",
            first.path.display(),
            other.path.display(),
            n.len()
        )));
    }
    Ok(())
}

/// How a decoded slice becomes the output's values (windowed channels, as bytes or floats).
type Channels<T> = fn(&HuImage, &PreprocessConfig, &mut Vec<T>);

/// What a decoded scan becomes: each slice's channels (bytes or floats), and where wanted each
/// slice at its own resolution.
struct Output<'v, 's, T> {
    channels: Channels<T>,
    views: Option<&'v mut Vec<SliceView>>,
    /// Where the decoded slices go `every` at a time instead of into the returned data (a DICOM
    /// series; a NIfTI volume, which may store its slices in any order, is returned whole).
    stream: Option<Stream<'s, T>>,
}

/// A consumer of decoded slices, `every` at a time (the last call may hold fewer).
struct Stream<'a, T> {
    every: usize,
    take: &'a mut dyn FnMut(&[T]) -> Result<()>,
}

fn decode_scan_with<T: Copy + Default>(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
    out: Output<'_, '_, T>,
) -> Result<(ScanMeta, Vec<T>)> {
    let Output {
        channels,
        mut views,
        mut stream,
    } = out;
    let size = config.size;
    if scan.slices.len() > crate::scan::MAX_SCAN_SLICES {
        return Err(Error::Invalid(format!(
            "{} slices, more than the {} of any head CT: not read",
            scan.slices.len(),
            crate::scan::MAX_SCAN_SLICES
        )));
    }
    let held = match &stream {
        Some(s) if scan.nifti.is_none() => s.every.max(1),
        _ => scan.rows(),
    };
    let mut data = Vec::with_capacity(held * 3 * size * size);
    let mut kept = Vec::with_capacity(scan.rows());
    let mut kept_z = Vec::with_capacity(scan.rows());
    let mut warnings = scan.warnings.clone();
    if let Some(src) = &scan.nifti {
        // one file, read once: a file that fails is the scan's error, named
        let path = scan
            .slices
            .first()
            .map(|h| h.path.clone())
            .unwrap_or_default();
        let skip = |e: &FileError| {
            let mut s = milbase::sync::lock(skipped);
            record_skip(&mut s, e);
        };
        // a slice at a time, each windowed into its place in the output (the file may store
        // them superior first): the volume costs one slice and the output. Read as slabs, a
        // slab's slices are summed as they come (they come in order, one way or the other, so
        // a slab or two is open at a time) and windowed once all of it is in.
        let (n, rows) = (scan.slices.len(), scan.rows());
        let chunk = 3 * size * size;
        data.resize(rows * chunk, T::default());
        let mut one = Vec::with_capacity(chunk);
        let mut seen = 0usize;
        let mut placed: Vec<Option<SliceView>> = Vec::new();
        if views.is_some() {
            placed.resize(rows, None);
        }
        let k = scan.slab.max(1);
        let mut open: std::collections::HashMap<usize, (HuImage, usize)> = Default::default();
        let vol_warnings = crate::nifti::for_each_slice(&path, limits, |t, img| {
            progress.inc(1);
            if t >= n {
                return;
            }
            let row = t / k;
            let want = scan.slab_range(row).len();
            let img = if want == 1 {
                img
            } else {
                let (sum, got) = match open.remove(&row) {
                    Some((mut acc, got)) if acc.hu.len() == img.hu.len() => {
                        acc.hu.iter_mut().zip(&img.hu).for_each(|(a, b)| *a += b);
                        (acc, got + 1)
                    }
                    Some(_) => return, // a slice of another size: the count below tells
                    None => (img, 1),
                };
                if got < want {
                    open.insert(row, (sum, got));
                    return;
                }
                let mut mean = sum;
                let inv = 1.0 / want as f32;
                mean.hu.iter_mut().for_each(|v| *v *= inv);
                mean
            };
            one.clear();
            channels(&img, config, &mut one);
            if one.len() == chunk {
                data[row * chunk..(row + 1) * chunk].copy_from_slice(&one);
                if let Some(v) = placed.get_mut(row) {
                    *v = Some(SliceView::of(&img));
                }
                seen += want;
            }
        })
        .inspect_err(skip)?;
        if seen != n {
            return Err(Error::Invalid(format!(
                "{}: changed while it was read ({n} slices, then {seen})",
                path.display(),
            )));
        }
        for w in vol_warnings {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
        if let Some(v) = views.as_deref_mut() {
            v.extend(placed.into_iter().flatten());
        }
        let mut slabs = Vec::new();
        for row in 0..rows {
            let mid = scan.slab_middle(row);
            kept.push(&scan.slices[mid]);
            kept_z.push(scan.z[mid]);
            if k > 1 {
                slabs.push(scan.slices[scan.slab_range(row)].iter().collect());
            }
        }
        return Ok((
            scan_meta(
                scan,
                config,
                keep_phi,
                (&kept, &kept_z, &slabs),
                warnings,
                Some(src.name.clone()),
            ),
            data,
        ));
    }
    check_one_patient(scan)?;
    check_duplicates(scan, config, limits)?;
    // each slab (one slice unless the scan is read as slabs) is the mean of its slices in
    // Hounsfield units, named by its decoded slice nearest the middle
    let k = scan.slab.max(1);
    // a slab's slices are the series' size (the size most of its slices declare): a slice of
    // another size is left out of its slab, whichever of them comes first
    let slab_size = (k > 1).then(|| series_size(scan)).flatten();
    // each slab's decoded slices, for its labels (empty when read slice by slice)
    let mut slabs: Vec<Vec<&SliceHeader>> = Vec::new();
    for (hs, zs) in scan.slices.chunks(k).zip(scan.z.chunks(k)) {
        let mut sum: Option<HuImage> = None;
        let mut decoded = Vec::with_capacity(hs.len());
        for (i, h) in hs.iter().enumerate() {
            match read_hu_within(&h.path, config.rsna_fix, limits) {
                Ok((_, img)) if slab_size.is_some_and(|s| s != (img.rows, img.cols)) => {
                    let (r, c) = slab_size.unwrap_or_default();
                    warnings.push(format!(
                        "slice {} left out of its slab: {}×{} pixels, not the series' {r}×{c}",
                        h.sop_uid, img.rows, img.cols
                    ))
                }
                Ok((_, img)) => {
                    match sum.as_mut() {
                        None => sum = Some(img),
                        Some(acc) => acc.hu.iter_mut().zip(&img.hu).for_each(|(a, b)| *a += b),
                    }
                    decoded.push(i);
                }
                Err(e) => {
                    warn!("skipped {e}");
                    let mut s = milbase::sync::lock(skipped);
                    record_skip(&mut s, &e);
                    warnings.push(format!("slice {} dropped: {}", h.sop_uid, e.problem));
                }
            }
            progress.inc(1);
        }
        let Some(mut img) = sum else { continue };
        if decoded.len() > 1 {
            let inv = 1.0 / decoded.len() as f32;
            img.hu.iter_mut().for_each(|v| *v *= inv);
        }
        let mid = hs.len() / 2;
        let named = *decoded
            .iter()
            .min_by_key(|&&i| i.abs_diff(mid))
            .expect("a slab with an image has a decoded slice");
        channels(&img, config, &mut data);
        if let Some(v) = views.as_deref_mut() {
            v.push(SliceView::of(&img));
        }
        kept.push(&hs[named]);
        kept_z.push(zs[named]);
        if k > 1 {
            slabs.push(decoded.iter().map(|&i| &hs[i]).collect());
        }
        if let Some(s) = stream.as_mut() {
            if data.len() >= s.every.max(1) * 3 * size * size {
                (s.take)(&data)?;
                data.clear();
            }
        }
    }
    if kept.is_empty() {
        return Err(Error::Invalid("no slice could be decoded".into()));
    }
    if let Some(s) = stream.as_mut() {
        if !data.is_empty() {
            (s.take)(&data)?;
            data.clear();
        }
    }
    let meta = scan_meta(
        scan,
        config,
        keep_phi,
        (&kept, &kept_z, &slabs),
        warnings,
        None,
    );
    Ok((meta, data))
}

/// The size (rows, columns) most of a scan's slices declare.
fn series_size(scan: &Scan) -> Option<(usize, usize)> {
    let mut count: std::collections::HashMap<(usize, usize), usize> = Default::default();
    for h in &scan.slices {
        *count.entry((h.rows as usize, h.cols as usize)).or_default() += 1;
    }
    count
        .into_iter()
        .max_by_key(|&(size, n)| (n, size))
        .map(|(size, _)| size)
}

/// A decoded scan's metadata (without labels; `pixels` empty).
fn scan_meta(
    scan: &Scan,
    config: &PreprocessConfig,
    keep_phi: bool,
    (kept, kept_z, slabs): (&[&SliceHeader], &[Option<f64>], &[Vec<&SliceHeader>]),
    warnings: Vec<String>,
    nifti: Option<String>,
) -> ScanMeta {
    let first = kept[0];
    let size = config.size;
    ScanMeta {
        format_version: FORMAT_VERSION,
        id: scan.id.clone(),
        study_instance_uid: scan.study_uid.clone(),
        series_instance_uid: scan.series_uid.clone(),
        label: None,
        n_slices: kept.len(),
        size,
        original_rows: first.rows,
        original_cols: first.cols,
        pixel_spacing: first.pixel_spacing,
        slice_thickness: first.slice_thickness,
        ordered_by: scan.ordered_by,
        config_fingerprint: config.fingerprint(),
        pixels: String::new(),
        warnings,
        slices: slice_metas(kept, kept_z, slabs, nifti.is_some()),
        patient_name: keep_phi.then(|| first.patient_name.clone()).flatten(),
        patient_id: keep_phi.then(|| first.patient_id.clone()).flatten(),
        nifti,
        // free text (a patient's name may be typed there): kept only with --keep-phi
        series_description: keep_phi.then(|| first.series_description.clone()).flatten(),
    }
}

/// Reads the headers of every file under `inputs` and groups the CT slices into ordered scans.
/// Files that are not CT images or not DICOM are counted in the returned [`Skipped`].
pub fn find_scans(inputs: &[PathBuf], progress: &dyn Progress) -> Result<(Vec<Scan>, Skipped)> {
    find_scans_within(inputs, &Limits::default(), progress)
}

/// [`find_scans`] refusing files larger than `limits` allow already in the header pass (before:
/// the header pass read every file up to the default ceiling, whatever the run's limits).
pub fn find_scans_within(
    inputs: &[PathBuf],
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<(Vec<Scan>, Skipped)> {
    find_scans_in_shard(inputs, limits, milbase::Shard::ALL, progress)
}

/// [`find_scans_within`] keeping only the scans of `shard`: a header whose scan (its study and
/// series UIDs, [`crate::scan::scan_id`]) falls in another shard is dropped as soon as it is
/// read, so a shard holds the headers of its own scans only (about 1/N of them) while it groups
/// them. Files that are not CT images are reported by every shard, as without one.
pub fn find_scans_in_shard(
    inputs: &[PathBuf],
    limits: &Limits,
    shard: milbase::Shard,
    progress: &dyn Progress,
) -> Result<(Vec<Scan>, Skipped)> {
    find_scans_counting_others(inputs, limits, shard, progress).map(|(s, mut k, _, own)| {
        k.absorb(own);
        (s, k)
    })
}

/// [`find_scans_in_shard`], also counting the CT slice files (and NIfTI volumes) it dropped as
/// other shards' (none with no scan of its own means the inputs hold no scan at all), with the
/// skipped files of this shard's own scans apart (every shard reports its own; the others,
/// which belong to no scan, one shard does).
pub fn find_scans_counting_others(
    inputs: &[PathBuf],
    limits: &Limits,
    shard: milbase::Shard,
    progress: &dyn Progress,
) -> Result<(Vec<Scan>, Skipped, usize, Skipped)> {
    let mut b = scan_batches(inputs, limits, shard, None, progress)?;
    let scans = b.next_batch()?.unwrap_or_default();
    Ok((
        scans,
        std::mem::take(&mut b.skipped),
        b.others,
        std::mem::take(&mut b.own),
    ))
}

/// At most this many slice files' headers are held in memory by `ich preprocess` by default;
/// beyond it they spill to disk by scan ([`PreprocessOptions::headers_in_memory`]). About
/// 0.18 GB of headers at the 1.8 KiB a file measured in docs/BENCHMARKS.md (an estimate).
pub const HEADERS_IN_MEMORY: usize = 100_000;

/// The scans of a header pass: all of them at once, or, when the headers spilled to disk, one
/// bucket of whole scans at a time.
pub struct ScanBatches {
    /// Files that are not CT images of a head, unreadable, and the like (every shard's).
    pub skipped: Skipped,
    /// Files skipped that belong to a scan of this shard (NIfTI files whose name clashes: the
    /// name is the scan's id, so the shard of that id reports them, whichever shard it is).
    pub own: Skipped,
    /// CT slice files (and NIfTI volumes) dropped as other shards'.
    pub others: usize,
    /// The slice files (NIfTI: slices) of the scans kept, before grouping drops repeats.
    pub slices: usize,
    /// Buckets the headers spilled into (0: held in memory).
    pub buckets: usize,
    first: Option<Vec<Scan>>,
    spill: Option<crate::spill::Buckets>,
}

impl ScanBatches {
    /// The next batch of whole scans (`None` after the last).
    pub fn next_batch(&mut self) -> Result<Option<Vec<Scan>>> {
        let mut scans = self.first.take();
        if let Some(spill) = &mut self.spill {
            if let Some(headers) = spill.next_bucket()? {
                let mut grouped = group(headers);
                scans.get_or_insert_with(Vec::new).append(&mut grouped);
            }
        }
        Ok(scans)
    }
}

/// Reads every file's header under `inputs` and keeps the CT slices of `shard`'s scans: in
/// memory, or when there are more than `spill.1` files, spilled by scan into buckets of about
/// that many files in the folder `spill.0`, each grouped into scans as it is read back.
pub fn scan_batches(
    inputs: &[PathBuf],
    limits: &Limits,
    shard: milbase::Shard,
    spill: Option<(&Path, usize)>,
    progress: &dyn Progress,
) -> Result<ScanBatches> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let others = AtomicUsize::new(0);
    let (files, left_out) = collect_files(inputs)?;
    info!("{} files under {} input(s)", files.len(), inputs.len());
    let mut skipped = Skipped::default();
    for (p, why) in left_out {
        let key = if why.contains("not followed") {
            "link not followed"
        } else if why.contains("not a regular file") {
            "not a regular file"
        } else {
            "unreadable folder entry"
        };
        *skipped.counts.entry(key.to_string()).or_default() += 1;
        if skipped.files.len() < MAX_SKIP_MESSAGES {
            skipped.files.push(format!("{}: {why}", p.display()));
        }
    }
    let (nifti_files, files): (Vec<PathBuf>, Vec<PathBuf>) =
        files.into_iter().partition(|f| crate::nifti::is_nifti(f));
    // one NIfTI file is one scan however it is reached (a hard link, a `..` path, two inputs
    // that overlap): the first of its paths in order names it, the others are skipped by name
    let nifti_files = {
        let mut sorted = nifti_files;
        sorted.sort();
        // the very same path twice (one input given twice) is simply one
        sorted.dedup();
        let mut seen: std::collections::HashMap<(u64, u64), PathBuf> =
            std::collections::HashMap::new();
        let mut kept = Vec::with_capacity(sorted.len());
        for f in sorted {
            match file_identity(&f) {
                Some(id) => match seen.get(&id) {
                    Some(first) => {
                        let e = FileError::new(
                            &f,
                            FileProblem::Nifti(format!(
                                "the same file as {} (another path to it): read once, under \
                                 that name",
                                first.display()
                            )),
                        );
                        note_skip(&mut skipped, &e);
                    }
                    None => {
                        seen.insert(id, f.clone());
                        kept.push(f);
                    }
                },
                None => kept.push(f),
            }
        }
        kept
    };
    progress.stage("reading headers", (files.len() + nifti_files.len()) as u64);
    let volumes: Vec<_> = nifti_files
        .par_iter()
        .map(|f| {
            let r = crate::nifti::read_geometry(f, limits);
            progress.inc(1);
            r
        })
        .collect();
    let mut nifti_scans = Vec::new();
    for (f, r) in nifti_files.iter().zip(volumes) {
        match r {
            Ok(g) => {
                let scan = crate::scan::nifti_scan(f, crate::nifti::name_under(f, inputs), g);
                if shard.contains(&scan.id) {
                    nifti_scans.push(scan);
                } else {
                    others.fetch_add(1, Ordering::Relaxed);
                }
            }
            Err(e) => note_skip(&mut skipped, &e),
        }
    }
    let spill = match spill {
        Some((dir, most)) if files.len() > most.max(1) => Some(crate::spill::Spill::create(
            dir,
            files.len().div_ceil(most.max(1)),
        )?),
        _ => None,
    };
    // the headers of this shard's scans (in memory, or to the spill) and the files that
    // failed; the others' are dropped here
    let spill_error = Mutex::new(None);
    let kept_slices = AtomicUsize::new(0);
    let results: Vec<std::result::Result<SliceHeader, FileError>> = files
        .par_iter()
        .filter_map(|f| {
            let r = read_ct_header(f, limits);
            progress.inc(1);
            match r {
                Ok(h) if !shard.contains(&crate::scan::scan_id(&h.study_uid, &h.series_uid)) => {
                    others.fetch_add(1, Ordering::Relaxed);
                    None
                }
                Ok(h) => {
                    kept_slices.fetch_add(1, Ordering::Relaxed);
                    match &spill {
                        Some(s) => {
                            if let Err(e) = s.put(&h) {
                                let mut first = spill_error
                                    .lock()
                                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                                first.get_or_insert(e);
                            }
                            None
                        }
                        None => Some(Ok(h)),
                    }
                }
                r => Some(r),
            }
        })
        .collect();
    drop(files);
    progress.done();
    if let Some(e) = spill_error
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        return Err(e);
    }
    let mut headers = Vec::new();
    for r in results {
        match r {
            Ok(h) => headers.push(h),
            Err(e) => {
                note_skip(&mut skipped, &e);
            }
        }
    }
    let mut scans = group(headers);
    let mut own = Skipped::default();
    // a name is a scan's identity: the same file reached twice is one scan, but two files of
    // one name (under two inputs) are neither, since either's result could carry the other's name
    nifti_scans.sort_by(|a, b| a.id.cmp(&b.id));
    let mut nifti_slices = 0;
    let mut i = 0;
    while i < nifti_scans.len() {
        let j = (i..nifti_scans.len())
            .find(|&j| nifti_scans[j].id != nifti_scans[i].id)
            .unwrap_or(nifti_scans.len());
        let canon = |s: &Scan| std::fs::canonicalize(&s.slices[0].path).ok();
        let first = canon(&nifti_scans[i]);
        if nifti_scans[i + 1..j].iter().all(|s| canon(s) == first) {
            nifti_slices += nifti_scans[i].slices.len();
            scans.push(nifti_scans[i].clone());
        } else {
            for s in &nifti_scans[i..j] {
                let e = FileError::new(
                    &s.slices[0].path,
                    FileProblem::Nifti(format!(
                        "{} other file(s) have the same name under another input, and a NIfTI \
                         scan is known by its name: give one input or rename them",
                        j - i - 1
                    )),
                );
                note_skip(&mut own, &e);
            }
        }
        i = j;
    }
    let spill = spill.map(crate::spill::Spill::finish).transpose()?;
    Ok(ScanBatches {
        skipped,
        own,
        others: others.into_inner(),
        slices: kept_slices.into_inner() + nifti_slices,
        buckets: spill.as_ref().map_or(0, crate::spill::Buckets::len),
        first: Some(scans),
        spill,
    })
}

/// A file's device and inode (None where the platform or the file gives none).
fn file_identity(f: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(f).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = f;
        None
    }
}

fn read_ct_header(f: &Path, limits: &Limits) -> std::result::Result<SliceHeader, FileError> {
    read_header_within(f, limits).and_then(|h| {
        if h.is_ct() && !h.may_be_head() {
            let part = h.body_part.clone().unwrap_or_default();
            Err(FileError::new(f, FileProblem::NotHead(part)))
        } else if h.is_ct() {
            Ok(h)
        } else {
            Err(FileError::new(
                f,
                FileProblem::NotCt {
                    modality: h.modality.clone(),
                    sop_class: h.sop_class.clone(),
                },
            ))
        }
    })
}

/// Other files and other modalities are expected in a folder: counted, not shouted.
fn note_skip(skipped: &mut Skipped, e: &FileError) {
    if matches!(
        e.problem,
        FileProblem::NotCt { .. } | FileProblem::NotHead(_) | FileProblem::NotDicom(_)
    ) {
        tracing::debug!("skipped {e}");
    } else {
        warn!("skipped {e}");
    }
    record_skip(skipped, e);
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
