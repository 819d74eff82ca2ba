//! `ich merge` for reports: the output folders of `ich predict --shard I/N` joined into the
//! folder one run over the whole cohort writes. The scans' pages and DICOM results are linked
//! (or copied) across; `slices.csv`, `scans.csv`, `report.json` and `index.html` are written
//! anew from the shards' scans, in the one-shot run's order (probability, then id), with its
//! metrics. Refused: a shard whose run did not finish or whose files changed since, shards of
//! different models, thresholds, counts or options (`--keep-phi`, `--labels`, DICOM results), a
//! shard given twice, a scan in two shards, and (unless `partial`) a missing shard, named so
//! that it can be rerun.
//!
//! Each shard's `report.json` is read twice: first for its scans' summaries, which are checked
//! against the other shards' and kept; then, a shard at a time, for its slices, which wait on
//! disk in the merged folder ([`crate::report::slices::SliceStore`]) until the files are written
//! one scan's slices at a time. So a merge holds every scan's summary and one shard's report, not
//! every slice of the cohort.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use milbase::Shard;

use crate::bundle::rfc3339;
use crate::error::{Error, Result};
use crate::report::sink::{role_of, End, Pages, Role, Sink, Tables};
use crate::report::slices::{Extent, SliceStore};
use crate::report::write::{metrics_with, order};
use crate::report::{Report, INDEX_HTML, REPORT_JSON};
use crate::runmark::{Run, RunMark, RunState, RUN_JSON};

/// What a merge of reports did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub scans: usize,
    pub shard_count: usize,
    pub missing_shards: Vec<usize>,
    /// Scan pages and DICOM results carried over from the shards.
    pub files: usize,
}

/// One shard's folder, read and checked.
struct ShardRun {
    dir: PathBuf,
    mark: RunMark,
    report: Report,
    shard: Shard,
}

fn read_shard(dir: &Path) -> Result<ShardRun> {
    let mark = RunMark::read(dir)?.ok_or_else(|| {
        Error::file(
            dir,
            format!("no {RUN_JSON}: not an output folder of `ich predict --shard I/N`"),
        )
    })?;
    if mark.state != RunState::Complete {
        return Err(Error::file(
            dir,
            format!(
                "its run {} (started {}) did not finish: rerun that shard",
                mark.run, mark.started
            ),
        ));
    }
    let path = dir.join(REPORT_JSON);
    if !mark.holds(dir, REPORT_JSON) {
        return Err(Error::file(
            &path,
            format!("missing, or changed since its run {} wrote it", mark.run),
        ));
    }
    let mut report = read_report(&path)?;
    if report.run != mark.run {
        return Err(Error::file(
            &path,
            format!(
                "of run {}, not of the run {RUN_JSON} names ({})",
                report.run, mark.run
            ),
        ));
    }
    let shard = report
        .shard
        .as_deref()
        .ok_or_else(|| {
            Error::file(
                &path,
                "the report of a whole cohort, not of a shard (`ich predict --shard I/N`)",
            )
        })?
        .parse()
        .map_err(|e: String| Error::file(&path, e))?;
    // the slices are read again, a shard at a time, when the merged report is written: one
    // shard's slices in memory at a time, not every shard's
    for sc in &mut report.scans {
        sc.slices = Vec::new();
    }
    Ok(ShardRun {
        dir: dir.to_path_buf(),
        mark,
        report,
        shard,
    })
}

fn read_report(path: &Path) -> Result<Report> {
    let r = milbase::bounded::open_regular_reader(path, milbase::bounded::MAX_JSON)
        .map_err(|e| Error::io(path, e))?;
    serde_json::from_reader(r).map_err(|e| Error::file(path, e.to_string()))
}

/// Each shard's slices, read again from its `report.json` (which must still be the one its run
/// wrote, with the same scans) into `store`; their extents by scan id.
fn keep_slices(shards: &[ShardRun], store: &mut SliceStore) -> Result<HashMap<String, Extent>> {
    let mut extents = HashMap::new();
    for s in shards {
        let path = s.dir.join(REPORT_JSON);
        let changed = || {
            Error::file(
                &path,
                format!(
                    "changed during the merge (no longer what its run {} wrote)",
                    s.mark.run
                ),
            )
        };
        if !s.mark.holds(&s.dir, REPORT_JSON) {
            return Err(changed());
        }
        let again = read_report(&path)?;
        let same_scans = again.run == s.report.run
            && again.scans.len() == s.report.scans.len()
            && again
                .scans
                .iter()
                .zip(&s.report.scans)
                .all(|(a, b)| a.id == b.id);
        if !same_scans {
            return Err(changed());
        }
        for sc in again.scans {
            extents.insert(sc.id, store.put(&sc.slices)?);
        }
    }
    Ok(extents)
}

/// The reports of the shards in `inputs` joined into `out` (new, empty, or an earlier merge's
/// folder); see the module's documentation.
pub fn merge(inputs: &[PathBuf], out: &Path, partial: bool) -> Result<Merged> {
    if inputs.is_empty() {
        return Err(Error::Invalid("no shard folder to merge".into()));
    }
    let mut shards = Vec::with_capacity(inputs.len());
    for dir in inputs {
        shards.push(read_shard(dir)?);
    }
    let first = &shards[0];
    let count = first.shard.count;
    let html = |s: &ShardRun| s.mark.files.iter().any(|f| f.path == INDEX_HTML);
    check_alike(&shards)?;
    let have: Vec<Shard> = shards.iter().map(|s| s.shard).collect();
    let missing = milbase::shard::check_coverage(&have, count, partial, "ich predict")
        .map_err(Error::Invalid)?;
    {
        let mut ids = BTreeSet::new();
        for s in &shards {
            if let Some(dup) = s.report.scans.iter().find(|r| !ids.insert(r.id.as_str())) {
                return Err(Error::file(
                    &s.dir,
                    format!("scan {} is in two of the shards", dup.id),
                ));
            }
        }
    }
    let out_real = std::fs::canonicalize(out).ok();
    for s in &shards {
        let same = out == s.dir.as_path()
            || (out_real.is_some() && out_real == std::fs::canonicalize(&s.dir).ok());
        if same {
            return Err(Error::file(out, "the merged folder is one of the shards"));
        }
    }
    check_out(out)?;

    let run = Run::start(out, "merge")?;
    // the slices wait on disk in the merged folder, written back one scan's at a time
    let mut store = SliceStore::create(out, run.lock())?;
    let by_id = keep_slices(&shards, &mut store)?;
    // each file as its output says: a scan's carried across, the run's written anew below
    let mut produced = carry_per_scan_files(&shards, out)?;
    let carried = produced.len();
    let with_html = html(first);
    let head = &first.report;
    let mut report = Report {
        format_version: head.format_version,
        tool: head.tool.clone(),
        created: rfc3339(SystemTime::now()),
        run: run.id().to_string(),
        model: head.model.clone(),
        thresholds: head.thresholds,
        scans: Vec::new(),
        metrics: None,
        skipped: Vec::new(),
        shard: None,
        sampling: head.sampling,
        options: head.options,
        viewer_url: head.viewer_url.clone(),
        warnings: Vec::new(),
    };
    // moved, not copied: the shards' reports are held once
    for s in &mut shards {
        report.scans.append(&mut s.report.scans);
        report.skipped.append(&mut s.report.skipped);
    }
    report.skipped.extend(
        missing
            .iter()
            .map(|i| format!("shard {i}/{count}: missing (left out by `ich merge --partial`)")),
    );
    order(&mut report);
    let extents: Vec<Extent> = report
        .scans
        .iter()
        .map(|sc| {
            by_id.get(&sc.id).copied().ok_or_else(|| {
                Error::Invalid(format!("scan {}: its slices were not found again", sc.id))
            })
        })
        .collect::<Result<_>>()?;
    drop(by_id);
    let slices_of = store.loader(&extents);
    report.metrics = metrics_with(&report.scans, &slices_of)?;
    report.warnings = crate::report::site_check(&report.model, &report.scans);
    // the run-wide files by the sinks that write them in a run of predict
    let mut sinks: Vec<Box<dyn Sink>> = vec![Box::new(Tables::new(out))];
    if with_html {
        sinks.push(Box::new(Pages::index_only(out)));
    }
    let mut end = End::new(&report, &slices_of);
    for sink in sinks {
        sink.finish(&mut end)?;
    }
    produced.extend(end.files);
    drop(slices_of);
    drop(store);
    run.finish(&produced)?;
    Ok(Merged {
        scans: report.scans.len(),
        shard_count: count,
        missing_shards: missing,
        files: carried,
    })
}

/// The shards were run alike: the same count, model, thresholds, sampling, format, pages,
/// viewer address and options (a report of shards run otherwise would hold them for part of the
/// cohort); each shard's viewer address is checked as `--viewer-url` itself is.
fn check_alike(shards: &[ShardRun]) -> Result<()> {
    let first = &shards[0];
    let count = first.shard.count;
    let html = |s: &ShardRun| s.mark.files.iter().any(|f| f.path == INDEX_HTML);
    for s in shards {
        // a shard's report is a file anyone could have edited: its viewer address is checked as
        // `--viewer-url` itself is, before it becomes links in the merged pages
        if let Some(u) = &s.report.viewer_url {
            crate::report::viewer_url_template(u).map_err(|e| {
                Error::Invalid(format!(
                    "{}: {e}",
                    s.dir.join(crate::report::REPORT_JSON).display()
                ))
            })?;
        }
    }
    for s in &shards[1..] {
        let differs = |what: &str| {
            Err(Error::file(
                &s.dir,
                format!(
                    "{what} differ(s) from {}'s: shards of one run share them",
                    first.dir.display()
                ),
            ))
        };
        if s.shard.count != count {
            return Err(Error::file(
                &s.dir,
                format!(
                    "shard {} is not one of {count} as the first folder's",
                    s.shard
                ),
            ));
        }
        if !same(&s.report.model, &first.report.model) {
            return differs("the model");
        }
        if !same(&s.report.thresholds, &first.report.thresholds) {
            return differs("the thresholds");
        }
        if s.report.sampling != first.report.sampling {
            return differs("the Monte Carlo samples or seed");
        }
        if (s.report.format_version, &s.report.tool)
            != (first.report.format_version, &first.report.tool)
        {
            return differs("the report format or the tool's version");
        }
        if html(s) != html(first) {
            return differs("HTML pages (written or not)");
        }
        if s.report.viewer_url != first.report.viewer_url {
            return differs("the viewer's address (--viewer-url)");
        }
        // what a report holds: patient names (--keep-phi), labels and metrics (--labels), DICOM
        // results; a report of shards run otherwise would hold them for part of the cohort
        if s.report.options != first.report.options {
            let o = |r: &Report| {
                r.options.map_or("not recorded".to_string(), |o| {
                    format!(
                        "keep-phi {}, labels {}, DICOM results {}",
                        o.keep_phi, o.labels, o.dicom
                    )
                })
            };
            return Err(Error::file(
                &s.dir,
                format!(
                    "run with other options ({}) than {} ({}): shards of one run share them",
                    o(&s.report),
                    first.dir.display(),
                    o(&first.report)
                ),
            ));
        }
    }
    Ok(())
}

/// Every file of the shards that is one scan's (its page, its DICOM results: [`Role::PerScan`],
/// or no output's) linked or copied into `out`, each checked against its shard's run mark; the
/// paths written.
fn carry_per_scan_files(shards: &[ShardRun], out: &Path) -> Result<Vec<PathBuf>> {
    let mut produced: Vec<PathBuf> = Vec::new();
    let mut carried = BTreeSet::new();
    let run_wide = |rel: &str| role_of(rel) == Some(Role::RunWide);
    for s in shards {
        for f in s.mark.files.iter().filter(|f| !run_wide(f.path.as_str())) {
            if !milbase::atomic::stays_inside(&f.path) {
                return Err(Error::file(
                    &s.dir.join(RUN_JSON),
                    format!("lists {:?}, a path outside its folder", f.path),
                ));
            }
            let from = s.dir.join(&f.path);
            if !s.mark.holds(&s.dir, &f.path) {
                return Err(Error::file(
                    &from,
                    format!("missing, or changed since its run {} wrote it", s.mark.run),
                ));
            }
            if !carried.insert(f.path.clone()) {
                return Err(Error::file(
                    &from,
                    format!("{} is written by two of the shards", f.path),
                ));
            }
            let to = out.join(&f.path);
            if let Some(parent) = to.parent() {
                milbase::atomic::create_dir_under(out, parent).map_err(|e| Error::io(parent, e))?;
            }
            milbase::atomic::link_or_copy(&from, &to).map_err(|e| Error::io(&to, e))?;
            produced.push(to);
        }
    }
    Ok(produced)
}

/// The merged folder: new, empty (but for what an interrupted run left: a lock, temporaries), or
/// written by an earlier merge (which this one replaces); never a folder holding other results.
fn check_out(out: &Path) -> Result<()> {
    let mut entries = match std::fs::read_dir(out) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(out, e)),
    };
    let others = entries.any(|e| {
        e.map_or(true, |e| {
            !milbase::atomic::left_by_an_interrupted_run(&e.file_name().to_string_lossy())
        })
    });
    if !others {
        return Ok(());
    }
    match RunMark::read(out)? {
        Some(m) if m.command == "merge" => Ok(()),
        _ => Err(Error::file(
            out,
            "not empty and not an earlier merge's folder: give a new or empty folder",
        )),
    }
}

/// Whether two parts of reports say the same (compared as JSON).
fn same<T: serde::Serialize>(a: &T, b: &T) -> bool {
    serde_json::to_value(a).ok() == serde_json::to_value(b).ok()
}
