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

/// A run in progress: holds the folder's lock until dropped.
#[derive(Debug)]
pub struct Run {
    out: PathBuf,
    mark: RunMark,
    lock: milbase::atomic::DirLock,
}

impl Run {
    /// Takes `out` (made if missing) for a run of `command`: its lock, then `run.json` as
    /// running. A previous run that did not finish is logged as such.
    pub fn start(out: &Path, command: &str) -> Result<Run> {
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
        };
        let run = Run {
            out: out.to_path_buf(),
            mark,
            lock,
        };
        run.write()?;
        Ok(run)
    }

    /// The folder's lock this run holds (what lets it sweep the folder's stale temporaries).
    pub fn lock(&self) -> &milbase::atomic::DirLock {
        &self.lock
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
}
