//! Finding the scans in the inputs: the walk over files and folders (links that lead outside
//! the inputs not followed, files that are not regular not read), each file's header read within
//! its ceilings, and the CT slices grouped into ordered scans, a bucket of whole scans at a time
//! when there are more headers than memory should hold.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use tracing::{info, warn};

use crate::dataset::Skipped;
use crate::error::{Error, FileError, FileProblem, Result};
use crate::read::{read_header_within, Limits, SliceHeader};
use crate::scan::{group, Scan};
use crate::source::{claimant, name_under};

use super::*;

/// At most this many files are gathered from the inputs; beyond it the walk stops with an error
/// (a link loop or a mount of something else is not a folder of scans).
pub const MAX_FILES: usize = 2_000_000;

/// At most this many skipped files are listed by name in a run's summary (all are counted by
/// reason; the log has each).
pub const MAX_SKIP_MESSAGES: usize = 10_000;

/// At most this many walk warnings are logged one by one; the rest are counted.
pub(super) const MAX_WALK_WARNINGS: usize = 100;

/// Folders a link may never lead into: the kernel's and devices' pseudo-files are not scans and
/// can be endless (`/proc`) or block on read.
pub(super) const NEVER_FOLLOWED: [&str; 3] = ["/proc", "/sys", "/dev"];

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

pub(super) fn record_skip(skipped: &mut Skipped, err: &FileError) {
    let key = match &err.problem {
        FileProblem::NotCt { modality, .. } if !modality.is_empty() => {
            format!("not a CT image ({modality})")
        }
        FileProblem::NotHead(part) => format!("not a head CT ({part})"),
        FileProblem::Volume { format, .. } => format!("bad {format}"),
        p => p.category().to_string(),
    };
    *skipped.counts.entry(key).or_default() += 1;
    if skipped.files.len() < MAX_SKIP_MESSAGES {
        skipped.files.push(err.to_string());
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

/// [`find_scans_in_shard`], also counting the CT slice files (and volume files) it dropped as
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
    /// Files skipped that belong to a scan of this shard (volume files whose name clashes: the
    /// name is the scan's id, so the shard of that id reports them, whichever shard it is).
    pub own: Skipped,
    /// CT slice files (and volume files) dropped as other shards'.
    pub others: usize,
    /// The slice files (of a volume: its slices) of the scans kept, before grouping drops repeats.
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
    let others = AtomicUsize::new(0);
    let (files, left_out) = collect_files(inputs)?;
    info!("{} files under {} input(s)", files.len(), inputs.len());
    let mut skipped = Skipped::default();
    count_left_out(left_out, &mut skipped);
    // two sources of scans (crate::source): volume files (a scan each, claimed by their
    // format) and DICOM slice files (grouped by their UIDs)
    let (volume_files, files): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|f| claimant(crate::VOLUME_FORMATS, f).is_some());
    let volume_files = one_path_each(volume_files, &mut skipped);
    progress.stage("reading headers", (files.len() + volume_files.len()) as u64);
    let volume_scans = volumes(
        &volume_files,
        inputs,
        (limits, shard),
        &mut skipped,
        &others,
        progress,
    );
    let spill = match spill {
        Some((dir, most)) if files.len() > most.max(1) => Some(crate::spill::Spill::create(
            dir,
            files.len().div_ceil(most.max(1)),
        )?),
        _ => None,
    };
    let kept_slices = AtomicUsize::new(0);
    let results = slice_headers(
        &files,
        (limits, shard),
        spill.as_ref(),
        (&others, &kept_slices),
        progress,
    )?;
    drop(files);
    progress.done();
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
    let (volume_scans, volume_slices) = unique_names(volume_scans, &mut own);
    scans.extend(volume_scans);
    let spill = spill.map(crate::spill::Spill::finish).transpose()?;
    Ok(ScanBatches {
        skipped,
        own,
        others: others.into_inner(),
        slices: kept_slices.into_inner() + volume_slices,
        buckets: spill.as_ref().map_or(0, crate::spill::Buckets::len),
        first: Some(scans),
        spill,
    })
}

/// What the walk left out, counted by reason (and named, up to [`MAX_SKIP_MESSAGES`]).
fn count_left_out(left_out: Vec<LeftOut>, skipped: &mut Skipped) {
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
}

/// One volume file is one scan however it is reached (a hard link, a `..` path, two inputs that
/// overlap): the first of its paths in order names it, the others are skipped by name.
fn one_path_each(volume_files: Vec<PathBuf>, skipped: &mut Skipped) -> Vec<PathBuf> {
    let mut sorted = volume_files;
    sorted.sort();
    // the very same path twice (one input given twice) is simply one
    sorted.dedup();
    let mut seen: std::collections::HashMap<(u64, u64), PathBuf> = std::collections::HashMap::new();
    let mut kept = Vec::with_capacity(sorted.len());
    for f in sorted {
        match file_identity(&f) {
            Some(id) => match seen.get(&id) {
                Some(first) => {
                    let e = volume_refused(
                        &f,
                        format!(
                            "the same file as {} (another path to it): read once, under that name",
                            first.display()
                        ),
                    );
                    note_skip(skipped, &e);
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
}

/// The scans of the volume files of this shard, each one's header read by its format (in
/// parallel); a file that cannot be read is skipped, one of another shard counted.
fn volumes(
    volume_files: &[PathBuf],
    inputs: &[PathBuf],
    (limits, shard): (&Limits, milbase::Shard),
    skipped: &mut Skipped,
    others: &AtomicUsize,
    progress: &dyn Progress,
) -> Vec<Scan> {
    let headers: Vec<_> = volume_files
        .par_iter()
        .map(|f| {
            let r = match claimant(crate::VOLUME_FORMATS, f) {
                Some(format) => format.header(f, limits).map(|h| (format, h)),
                None => Err(volume_refused(f, "no volume format claims it".into())),
            };
            progress.inc(1);
            r
        })
        .collect();
    let mut scans = Vec::new();
    for (f, r) in volume_files.iter().zip(headers) {
        match r {
            Ok((format, h)) => {
                let scan = crate::scan::volume_scan(format, name_under(f, inputs), h);
                if shard.contains(&scan.id) {
                    scans.push(scan);
                } else {
                    others.fetch_add(1, Ordering::Relaxed);
                }
            }
            Err(e) => note_skip(skipped, &e),
        }
    }
    scans
}

/// A volume file refused for `why`, in its format's words ("NIfTI: …", counted "bad NIfTI").
fn volume_refused(f: &Path, why: String) -> FileError {
    let format = claimant(crate::VOLUME_FORMATS, f).map_or("volume", |v| v.name());
    FileError::new(f, FileProblem::Volume { format, why })
}

/// Each DICOM file's CT header (in parallel): those of this shard's scans kept (in memory, or
/// to the spill when there is one), those of other shards' dropped and counted, the files that
/// failed returned as such.
fn slice_headers(
    files: &[PathBuf],
    (limits, shard): (&Limits, milbase::Shard),
    spill: Option<&crate::spill::Spill>,
    (others, kept): (&AtomicUsize, &AtomicUsize),
    progress: &dyn Progress,
) -> Result<Vec<std::result::Result<SliceHeader, FileError>>> {
    let spill_error = Mutex::new(None);
    let results = files
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
                    kept.fetch_add(1, Ordering::Relaxed);
                    match spill {
                        Some(s) => {
                            if let Err(e) = s.put(&h) {
                                milbase::sync::lock(&spill_error).get_or_insert(e);
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
    match milbase::sync::into_inner(spill_error) {
        Some(e) => Err(e),
        None => Ok(results),
    }
}

/// Volume scans by name: a name is a scan's identity, so the same file reached twice is one
/// scan, but two files of one name (under two inputs) are neither, since either's result could
/// carry the other's name (skipped into `own`: they are this shard's). The scans kept and their
/// slices.
fn unique_names(mut volume_scans: Vec<Scan>, own: &mut Skipped) -> (Vec<Scan>, usize) {
    volume_scans.sort_by(|a, b| a.id.cmp(&b.id));
    let (mut kept, mut slices) = (Vec::new(), 0);
    let mut i = 0;
    while i < volume_scans.len() {
        let j = (i..volume_scans.len())
            .find(|&j| volume_scans[j].id != volume_scans[i].id)
            .unwrap_or(volume_scans.len());
        let canon = |s: &Scan| std::fs::canonicalize(&s.slices[0].path).ok();
        let first = canon(&volume_scans[i]);
        if volume_scans[i + 1..j].iter().all(|s| canon(s) == first) {
            slices += volume_scans[i].slices.len();
            kept.push(volume_scans[i].clone());
        } else {
            for s in &volume_scans[i..j] {
                let format = s.source.volume().map_or("volume", |v| v.format.name());
                let e = volume_refused(
                    &s.slices[0].path,
                    format!(
                        "{} other file(s) have the same name under another input, and a {format} \
                         scan is known by its name: give one input or rename them",
                        j - i - 1
                    ),
                );
                note_skip(own, &e);
            }
        }
        i = j;
    }
    (kept, slices)
}

/// A file's device and inode (None where the platform or the file gives none).
pub(super) fn file_identity(f: &Path) -> Option<(u64, u64)> {
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

pub(super) fn read_ct_header(
    f: &Path,
    limits: &Limits,
) -> std::result::Result<SliceHeader, FileError> {
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
pub(super) fn note_skip(skipped: &mut Skipped, e: &FileError) {
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
