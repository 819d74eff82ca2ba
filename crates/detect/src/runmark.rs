//! The mark of the run that wrote an output folder: `OUT/run.json`.
//!
//! A `predict` run takes the folder's lock (`OUT/.ich.lock`: one writer at a time), writes
//! `run.json` with a new run id and `"state": "running"` before it writes anything else, puts
//! the id in `report.json`, and at its end rewrites `run.json` as `"complete"` with every file it
//! wrote and its SHA-256. So a folder whose run was killed (`kill -9`, power cut) says so, and a
//! file belongs to the folder's last run exactly when `run.json` is complete and lists it with
//! that hash; anything else (an earlier run's DICOM objects, a half-finished run's files) is
//! recognisable as not of that run.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The mark's file name.
pub const RUN_JSON: &str = "run.json";

/// The state a run left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    /// Started and not finished: still running, or killed.
    Running,
    /// Finished; `files` lists what it wrote.
    Complete,
    /// Stopped by an error (`error` says which); what it wrote is not of any complete run.
    Failed,
}

/// One file a run wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFile {
    /// Relative to the output folder.
    pub path: String,
    pub sha256: String,
}

/// `run.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunMark {
    pub format_version: u32,
    pub run: String,
    pub tool: String,
    pub command: String,
    pub pid: u32,
    pub started: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<String>,
    pub state: RunState,
    #[serde(default)]
    pub files: Vec<RunFile>,
    /// Why a failed run stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RunMark {
    /// Reads a folder's mark, if it has one.
    pub fn read(out: &Path) -> Result<Option<RunMark>> {
        let path = out.join(RUN_JSON);
        if !path.exists() {
            return Ok(None);
        }
        let r = milbase::bounded::open_regular_reader(&path, milbase::bounded::MAX_JSON)
            .map_err(|e| Error::io(&path, e))?;
        serde_json::from_reader(r)
            .map(Some)
            .map_err(|e| Error::Invalid(format!("{}: {e}", path.display())))
    }

    /// Whether `rel` (relative to the folder) is a file of this complete run, unchanged since.
    pub fn holds(&self, out: &Path, rel: &str) -> bool {
        self.state == RunState::Complete
            && self
                .files
                .iter()
                .any(|f| f.path == rel && sha256_of(&out.join(rel)).ok() == Some(f.sha256.clone()))
    }
}

fn sha256_of(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h)?;
    Ok(format!("{:x}", h.finalize()))
}

/// A run in progress: holds the folder's lock until dropped. Dropped before
/// [`Run::finish`] (an error on the way), it leaves no trace where it made the folder and
/// wrote nothing else into it; elsewhere `run.json` says `failed`.
#[derive(Debug)]
pub struct Run {
    out: PathBuf,
    mark: RunMark,
    lock: Option<milbase::atomic::DirLock>,
    /// Whether this run made the folder.
    made: bool,
}

impl Run {
    /// Takes `out` (made if missing) for a run of `command`: its lock, then `run.json` as
    /// running. A previous run that did not finish is logged as such.
    pub fn start(out: &Path, command: &str) -> Result<Run> {
        let made = std::fs::symlink_metadata(out).is_err();
        std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
        let lock = milbase::atomic::DirLock::take(out, command).map_err(|e| Error::io(out, e))?;
        match RunMark::read(out) {
            Ok(Some(m)) if m.state == RunState::Running => tracing::warn!(
                "{}: the previous run {} (started {}) did not finish; files it wrote and did not \
                 list are not of the new run either",
                out.display(),
                m.run,
                m.started
            ),
            Err(e) => tracing::warn!("{e} (replaced)"),
            _ => {}
        }
        let now = SystemTime::now();
        let nanos = now
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let id = Sha256::digest(format!("{nanos} {} {}", std::process::id(), out.display()));
        let mark = RunMark {
            format_version: 1,
            run: format!("{:x}", id)[..16].to_string(),
            tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
            command: command.to_string(),
            pid: std::process::id(),
            started: milbase::time::rfc3339(now),
            finished: None,
            state: RunState::Running,
            files: Vec::new(),
            error: None,
        };
        let run = Run {
            out: out.to_path_buf(),
            mark,
            lock: Some(lock),
            made,
        };
        run.write()?;
        Ok(run)
    }

    /// The folder's lock this run holds (what lets it sweep the folder's stale temporaries).
    pub fn lock(&self) -> &milbase::atomic::DirLock {
        self.lock
            .as_ref()
            .expect("a run holds its lock until dropped")
    }

    /// The run's id.
    pub fn id(&self) -> &str {
        &self.mark.run
    }

    fn write(&self) -> Result<()> {
        let path = self.out.join(RUN_JSON);
        let json = serde_json::to_vec_pretty(&self.mark)
            .map_err(|e| Error::Invalid(format!("serialising {}: {e}", path.display())))?;
        milbase::atomic::write_atomic(&path, &json).map_err(|e| Error::io(&path, e))
    }

    /// Marks the run complete with the files it wrote (paths inside the folder).
    pub fn finish(mut self, files: &[PathBuf]) -> Result<RunMark> {
        let mut listed = Vec::with_capacity(files.len());
        for f in files {
            let rel = f.strip_prefix(&self.out).unwrap_or(f);
            listed.push(RunFile {
                path: rel.to_string_lossy().replace('\\', "/"),
                sha256: sha256_of(f).map_err(|e| Error::io(f, e))?,
            });
        }
        listed.sort_by(|a, b| a.path.cmp(&b.path));
        listed.dedup_by(|a, b| a.path == b.path);
        self.mark.files = listed;
        self.mark.state = RunState::Complete;
        self.mark.finished = Some(milbase::time::rfc3339(SystemTime::now()));
        self.write()?;
        Ok(self.mark.clone())
    }
}

/// Refuses a run into `out` when it holds files a run would write over (`owned`, given a path
/// relative to `out` with `/` separators) that no `ich` run wrote: a folder without `run.json`
/// (a user's own `scans.csv`, say), or files that the folder's last complete run does not list.
/// The files of a run that did not finish are `ich`'s own, and may be replaced.
/// `mark` is the folder's `run.json` as read before the run.
pub fn refuse_foreign_files(
    out: &Path,
    mark: Option<&RunMark>,
    owned: impl Fn(&str) -> bool,
) -> Result<()> {
    if !out.is_dir() {
        return Ok(());
    }
    if mark.is_some_and(|m| m.state != RunState::Complete) {
        return Ok(());
    }
    let listed = |rel: &str| mark.is_some_and(|m| m.files.iter().any(|f| f.path == rel));
    let mut foreign = Vec::new();
    for e in walkdir::WalkDir::new(out)
        .min_depth(1)
        .max_depth(4)
        .into_iter()
        .flatten()
    {
        // links are no one's results: the writer replaces a link at a name it writes, never
        // following it (docs/ROBUSTNESS.md, the writers' matrix)
        if !e.file_type().is_file()
            || milbase::atomic::left_by_an_interrupted_run(&e.file_name().to_string_lossy())
        {
            continue;
        }
        let Some(rel) = e
            .path()
            .strip_prefix(out)
            .ok()
            .and_then(|r| r.to_str())
            .map(|r| r.replace('\\', "/"))
        else {
            continue;
        };
        if owned(&rel) && !listed(&rel) {
            foreign.push(rel);
        }
    }
    if foreign.is_empty() {
        return Ok(());
    }
    foreign.sort();
    let n = foreign.len();
    foreign.truncate(5);
    Err(Error::Invalid(format!(
        "{}: {n} file(s) that this run would write over were not written by ich ({}{}): move \
         them away, give --out a new folder, or write over them with --force",
        out.display(),
        foreign.join(", "),
        if n > 5 { ", …" } else { "" }
    )))
}

/// Removes what the folder's `previous` complete run wrote and the run that just finished did
/// not (`produced`): pages of scans no longer predicted, say, which would otherwise stay beside
/// the new index. A file changed since the previous run is left. Returns how many went.
pub fn remove_stale(out: &Path, previous: Option<&RunMark>, produced: &[PathBuf]) -> usize {
    let Some(prev) = previous.filter(|m| m.state == RunState::Complete) else {
        return 0;
    };
    let now: std::collections::HashSet<String> = produced
        .iter()
        .map(|f| {
            f.strip_prefix(out)
                .unwrap_or(f)
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    let mut removed = 0;
    for f in &prev.files {
        if !now.contains(&f.path)
            && milbase::stays_inside(&f.path)
            && prev.holds(out, &f.path)
            && std::fs::remove_file(out.join(&f.path)).is_ok()
        {
            removed += 1;
        }
    }
    if removed > 0 {
        tracing::info!(
            "{}: {removed} file(s) of the previous run that this one did not write again removed",
            out.display()
        );
    }
    removed
}

impl Drop for Run {
    fn drop(&mut self) {
        if self.mark.state != RunState::Running {
            return;
        }
        // stopped by an error: a folder this run made and wrote nothing else into goes
        let only_ours = |out: &Path| {
            std::fs::read_dir(out).is_ok_and(|d| {
                d.flatten().all(|e| {
                    let n = e.file_name();
                    let n = n.to_string_lossy();
                    n == RUN_JSON || milbase::atomic::left_by_an_interrupted_run(&n)
                })
            })
        };
        if self.made && only_ours(&self.out) {
            let _ = std::fs::remove_file(self.out.join(RUN_JSON));
            drop(self.lock.take());
            let _ = std::fs::remove_dir(&self.out);
            return;
        }
        self.mark.state = RunState::Failed;
        self.mark.finished = Some(milbase::time::rfc3339(SystemTime::now()));
        self.mark.error = Some(
            "stopped by an error before it finished (the command's message says which)".into(),
        );
        if let Err(e) = self.write() {
            tracing::warn!("{e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_says_which_files_its_last_complete_run_wrote() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("out");
        let first = Run::start(&out, "predict").unwrap();
        // one writer at a time
        assert!(Run::start(&out, "predict").is_err());
        let m = RunMark::read(&out).unwrap().unwrap();
        assert_eq!((m.state, m.run.len()), (RunState::Running, 16));
        std::fs::write(out.join("a.csv"), b"x\n").unwrap();
        std::fs::create_dir_all(out.join("dicom/s1")).unwrap();
        std::fs::write(out.join("dicom/s1/sr.dcm"), b"sr").unwrap();
        let id1 = first.id().to_string();
        let m = first
            .finish(&[out.join("dicom/s1/sr.dcm"), out.join("a.csv")])
            .unwrap();
        assert_eq!(m.files.len(), 2);
        // sha256("x\n"), from `printf 'x\n' | sha256sum`
        assert_eq!(
            m.files[0],
            RunFile {
                path: "a.csv".into(),
                sha256: "73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac".into()
            }
        );
        let m = RunMark::read(&out).unwrap().unwrap();
        assert!(m.holds(&out, "a.csv") && m.holds(&out, "dicom/s1/sr.dcm"));
        std::fs::write(out.join("a.csv"), b"changed\n").unwrap();
        assert!(!m.holds(&out, "a.csv"));
        // a second run that is killed: the folder says running, with another id, listing nothing
        let second = Run::start(&out, "predict").unwrap();
        let id2 = second.id().to_string();
        std::mem::forget(second);
        let m = RunMark::read(&out).unwrap().unwrap();
        assert_ne!(id1, id2);
        assert_eq!(m.state, RunState::Running);
        assert!(!m.holds(&out, "dicom/s1/sr.dcm"));
    }

    /// A run stopped by an error (its Run dropped unfinished): a folder it made and wrote
    /// nothing else into is gone; in a folder with files, run.json says failed, and a later run
    /// no longer calls it unfinished.
    #[test]
    fn a_run_stopped_by_an_error_leaves_nothing_or_says_failed() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("out");
        drop(Run::start(&out, "predict").unwrap());
        assert!(!out.exists(), "the folder a failed run made stays");
        let run = Run::start(&out, "predict").unwrap();
        std::fs::write(out.join("scans.csv"), b"x\n").unwrap();
        drop(run);
        let m = RunMark::read(&out).unwrap().unwrap();
        assert_eq!(m.state, RunState::Failed);
        assert!(m.error.unwrap().contains("stopped by an error"));
        assert!(!out.join(milbase::lock::LOCK_FILE).exists());
        // an existing folder is never removed, even empty
        let kept = t.path().join("kept");
        std::fs::create_dir(&kept).unwrap();
        drop(Run::start(&kept, "predict").unwrap());
        assert_eq!(
            RunMark::read(&kept).unwrap().unwrap().state,
            RunState::Failed
        );
    }
}
