//! Joins the datasets that `ich preprocess --shard I/N` wrote, one per shard, into one dataset
//! (`ich merge`): the same preprocessing everywhere, every shard of the N once, no scan twice.
//! The scans' files are hard-linked into the joined dataset where the file system allows it,
//! copied otherwise; its `dataset.json` lists the scans as a one-shot run would (by id), with the
//! files every shard skipped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use milbase::Shard;

use crate::dataset::{self, Manifest, ScanEntry, Skipped};
use crate::error::{Error, Result};

/// What [`merge`] joined.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    pub inputs: usize,
    pub scans: usize,
    /// The shards that were missing (only with `partial`; otherwise they are an error).
    pub missing_shards: Vec<usize>,
    pub shard_count: usize,
}

/// The shard an input's manifest says it holds (`0/1` for a whole cohort).
fn shard_of(path: &Path, m: &Manifest) -> Result<Shard> {
    match &m.shard {
        None => Ok(Shard::ALL),
        Some(s) => s.parse().map_err(|e: String| Error::format(path, e)),
    }
}

/// Joins the datasets `inputs` into `out` (a new folder, an empty one, or an earlier merge's,
/// which is replaced: a merge can be rerun after a shard is). Refused: an `out` that is an input
/// or a dataset `ich preprocess` wrote, datasets of other preprocessing than the first's, shards
/// of different counts, a shard given twice, a scan in two inputs, and (unless `partial`) a
/// missing shard, named by its index so that it can be rerun. The manifest records what was
/// merged and which shards a partial merge left out.
pub fn merge(inputs: &[PathBuf], out: &Path, partial: bool) -> Result<Merged> {
    if inputs.is_empty() {
        return Err(Error::Invalid("no datasets to merge".into()));
    }
    let mut manifests = Vec::with_capacity(inputs.len());
    for dir in inputs {
        let ds = dataset::Dataset::open(dir)?;
        manifests.push((dir.clone(), ds.manifest));
    }
    let first = &manifests[0];
    let mut shards = Vec::new();
    let count = shard_of(&first.0.join("dataset.json"), &first.1)?.count;
    for (dir, m) in &manifests {
        let path = dir.join("dataset.json");
        if m.config != first.1.config {
            return Err(Error::format(
                &path,
                format!(
                    "other preprocessing than {}: datasets of one preprocessing only are merged",
                    first.0.join("dataset.json").display()
                ),
            ));
        }
        let shard = shard_of(&path, m)?;
        if shard.count != count {
            return Err(Error::format(
                &path,
                format!("shard {shard} is not one of {count} as the first input's"),
            ));
        }
        shards.push(shard);
    }
    let missing = milbase::shard::check_coverage(&shards, count, partial, "ich preprocess")
        .map_err(Error::Invalid)?;
    // every scan once
    let mut owner: BTreeMap<&str, &Path> = BTreeMap::new();
    for (dir, m) in &manifests {
        for e in &m.scans {
            if let Some(other) = owner.insert(&e.id, dir.as_path()) {
                return Err(Error::format(
                    dir.join("dataset.json"),
                    format!("scan {} is also in {}", e.id, other.display()),
                ));
            }
        }
    }
    // never into an input (its own scans' files would be replaced by links to themselves)
    for dir in inputs {
        if same_dir(dir, out) {
            return Err(Error::format(
                out,
                "is one of the datasets to merge: give the merged dataset another folder",
            ));
        }
    }
    let scans_dir = out.join("scans");
    milbase::atomic::create_dir_under(out, &scans_dir).map_err(|e| Error::io(&scans_dir, e))?;
    // what a killed merge left (its temporaries here and in scans/) is swept under the lock
    let (_lock, _) =
        milbase::atomic::lock_folder(out, &[&scans_dir], "merge").map_err(|e| Error::io(out, e))?;
    // a merge is rerun over its own earlier output (a shard rerun, then merge again); a dataset
    // that `ich preprocess` wrote is never replaced
    let earlier = if out.join("dataset.json").exists() {
        let m = dataset::Dataset::open(out)?.manifest;
        if m.merged.is_none() {
            return Err(Error::format(
                out.join("dataset.json"),
                "already a dataset of ich preprocess: merge into a new or empty folder, or an \
                 earlier merge's",
            ));
        }
        Some(m)
    } else {
        None
    };
    let mut entries: Vec<ScanEntry> = Vec::new();
    let mut skipped = Skipped::default();
    for (dir, m) in &manifests {
        for e in &m.scans {
            for rel in [&e.pixels, &e.meta] {
                if !milbase::stays_inside(rel) {
                    return Err(Error::format(
                        dir.join("dataset.json"),
                        format!("scan {}: file {rel:?} lies outside the dataset", e.id),
                    ));
                }
                link_or_copy(&dir.join(rel), out, rel)?;
            }
            entries.push(e.clone());
        }
        for (reason, n) in &m.skipped.counts {
            *skipped.counts.entry(reason.clone()).or_default() += n;
        }
        skipped.files.extend(m.skipped.files.iter().cloned());
    }
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    let merged = Merged {
        inputs: inputs.len(),
        scans: entries.len(),
        missing_shards: missing,
        shard_count: count,
    };
    let manifest = Manifest {
        format_version: first.1.format_version,
        tool: first.1.tool.clone(),
        config: first.1.config.clone(),
        scans: entries,
        skipped,
        shard: None,
        merged: Some(dataset::MergeNote {
            shard_count: count,
            missing_shards: merged.missing_shards.clone(),
        }),
    };
    dataset::write_json(&out.join("dataset.json"), &manifest)?;
    // the earlier merge's files that this one does not list
    if let Some(old) = earlier {
        let now: std::collections::HashSet<&str> = manifest
            .scans
            .iter()
            .flat_map(|e| [e.pixels.as_str(), e.meta.as_str()])
            .collect();
        for e in &old.scans {
            for rel in [&e.pixels, &e.meta] {
                if milbase::stays_inside(rel) && !now.contains(rel.as_str()) {
                    let _ = std::fs::remove_file(out.join(rel));
                }
            }
        }
    }
    Ok(merged)
}

/// Whether two folder paths name one folder (a folder that does not exist is none).
fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// `out/rel` made the same file as `from`: a hard link, else an atomic copy; its folders made
/// under `out` without passing through a planted link.
fn link_or_copy(from: &Path, out: &Path, rel: &str) -> Result<()> {
    let to = out.join(rel);
    if let Some(parent) = to.parent() {
        milbase::atomic::create_dir_under(out, parent).map_err(|e| Error::io(parent, e))?;
    }
    milbase::atomic::link_or_copy(from, &to).map_err(|e| Error::io(&to, e))
}
