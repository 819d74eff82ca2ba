//! Atomic file writes: the content goes to a hidden temporary file in the target's folder, is
//! flushed to disk, then renamed over the target. A crash leaves the old file or the new one.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The temporary path beside `path` (`.NAME.tmpPID`, hidden, same folder so the rename is atomic),
/// for writers that stream into a file and rename it themselves.
pub fn temporary(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file path", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Ok(dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// Removes the temporary files (`.NAME.tmpPID`) that an interrupted run left in `dir` — those
/// whose process is gone (on Linux: no `/proc/PID`; elsewhere: any PID but ours) — and returns
/// their paths. A rerun calls it on its output folders, so `kill -9` leaves nothing behind for
/// good.
pub fn remove_stale_temporaries(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(removed),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = stale_pid(name) else { continue };
        if !alive(pid) && entry.file_type()?.is_file() {
            fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    Ok(removed)
}

/// Whether process `pid` is running (on Linux: `/proc/PID` exists; elsewhere: only our own).
fn alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        pid == std::process::id()
    }
}

/// A folder held by one writer: `DIR/.NAME.lock` holds the writer's PID and is removed when the
/// lock is dropped. A lock whose process is gone (`kill -9`) is taken over.
#[derive(Debug)]
pub struct DirLock {
    path: PathBuf,
}

impl DirLock {
    /// Takes `dir`'s lock `name`, or says which running process holds it.
    pub fn take(dir: &Path, name: &str) -> io::Result<DirLock> {
        let path = dir.join(format!(".{name}.lock"));
        for _ in 0..3 {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    write!(f, "{}", std::process::id())?;
                    return Ok(DirLock { path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    let held = fs::read_to_string(&path).unwrap_or_default();
                    match held.trim().parse::<u32>() {
                        Ok(pid) if alive(pid) => {
                            return Err(io::Error::new(
                                io::ErrorKind::WouldBlock,
                                format!(
                                    "{} is being written by another ich process (pid {pid}); \
                                     wait for it or give another folder",
                                    dir.display()
                                ),
                            ))
                        }
                        // a dead writer's lock (or one being written this instant: retried)
                        _ => {
                            let _ = fs::remove_file(&path);
                        }
                    }
                }
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other(format!(
            "{}: could not take the lock {}",
            dir.display(),
            path.display()
        )))
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// The PID of a name made by [`temporary`] (`.NAME.tmpPID`), or None.
fn stale_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, pid) = rest.rsplit_once(".tmp")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether `rel`, a path read from a manifest, names a file inside the folder it is relative
/// to: not empty, not absolute, no drive, no `.` or `..` — only plain components. Every path
/// that data brings (dataset and bundle manifests) passes this before it is joined.
pub fn stays_inside(rel: &str) -> bool {
    !rel.is_empty()
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Creates `dir`, a folder under the output folder `root`, refusing to write through a link:
/// every component between `root` and `dir` must be a real folder, not a symbolic link planted
/// there (a link in an output folder would send results to its target, outside the folder the
/// user named). `root` itself is the user's choice and may be a link.
pub fn create_dir_under(root: &Path, dir: &Path) -> io::Result<()> {
    fs::create_dir_all(root)?;
    let rel = dir.strip_prefix(root).map_err(|_| {
        io::Error::other(format!(
            "{} is not inside the output folder {}",
            dir.display(),
            root.display()
        ))
    })?;
    let mut p = root.to_path_buf();
    for c in rel.components() {
        p.push(c);
        match fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(io::Error::other(format!(
                    "{} is a symbolic link or not a folder: results are not written through it \
                     (remove it or give another output folder)",
                    p.display()
                )))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::create_dir(&p) {
                Ok(()) => {}
                // another writer made it meanwhile; checked again on the next run of the loop
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if !fs::symlink_metadata(&p)?.is_dir() {
                        return Err(io::Error::other(format!("{} is not a folder", p.display())));
                    }
                }
                Err(e) => return Err(e),
            },
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Makes `to` the same file as `from` (a merge of shards' outputs): a hard link where the file
/// system allows one, else an atomic copy. `to`'s folder must exist; an existing `to` is
/// replaced.
pub fn link_or_copy(from: &Path, to: &Path) -> io::Result<()> {
    let tmp = temporary(to)?;
    let _ = fs::remove_file(&tmp);
    if fs::hard_link(from, &tmp).is_ok() {
        let res = fs::rename(&tmp, to);
        // a rename onto a link of the same file does nothing and leaves the temporary name
        let _ = fs::remove_file(&tmp);
        return res;
    }
    write_atomic_with(to, |tmp| {
        fs::copy(from, tmp).and_then(|_| fs::File::open(tmp)?.sync_all())
    })
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |tmp| {
        let mut f = fs::File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })
}

/// Lets `write` create the file at a temporary path (for writers that take a path, such as a
/// tensor library's), then renames it over `path`. The temporary file is removed on failure.
pub fn write_atomic_with<E>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E>
where
    E: From<io::Error>,
{
    let tmp = temporary(path)?;
    let res = write(&tmp).and_then(|()| fs::rename(&tmp, path).map_err(E::from));
    if res.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    res
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_folder_has_one_writer_and_a_dead_writers_lock_is_taken_over() {
        let t = tempfile::tempdir().unwrap();
        let a = DirLock::take(t.path(), "preprocess").unwrap();
        let e = DirLock::take(t.path(), "preprocess").unwrap_err();
        assert!(e.to_string().contains("another ich process"), "{e}");
        drop(a);
        let b = DirLock::take(t.path(), "preprocess").unwrap();
        drop(b);
        // a lock left by a process that is gone (PID beyond Linux's pid_max)
        fs::write(t.path().join(".preprocess.lock"), "4194305").unwrap();
        let _c = DirLock::take(t.path(), "preprocess").unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_in_the_output_folder_is_not_written_through() {
        let t = tempfile::tempdir().unwrap();
        let (out, elsewhere) = (t.path().join("out"), t.path().join("elsewhere"));
        fs::create_dir_all(&out).unwrap();
        fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("dicom")).unwrap();
        let e = create_dir_under(&out, &out.join("dicom").join("scan1")).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        // nothing was made behind the link
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        // a file where a folder should be is refused too; real folders are made
        fs::write(out.join("scans"), b"x").unwrap();
        assert!(create_dir_under(&out, &out.join("scans")).is_err());
        create_dir_under(&out, &out.join("pages").join("a")).unwrap();
        assert!(out.join("pages").join("a").is_dir());
        // the output folder itself may be a link (the user named it)
        std::os::unix::fs::symlink(&elsewhere, t.path().join("link-out")).unwrap();
        create_dir_under(
            &t.path().join("link-out"),
            &t.path().join("link-out").join("x"),
        )
        .unwrap();
    }
    use super::*;

    #[test]
    fn only_plain_relative_paths_stay_inside() {
        // `a/./b` is `a/b` to Path::components: inside
        for ok in ["a.json", "scans/a.npz", "x/y/z", "a/./b"] {
            assert!(stays_inside(ok), "{ok}");
        }
        for bad in ["", "../x", "a/../../b", "/etc/passwd", "./a"] {
            assert!(!stays_inside(bad), "{bad}");
        }
    }

    #[test]
    fn stale_temporaries_of_dead_processes_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        // PID 4294967 is above Linux's pid_max (2^22): never a live process
        let dead = dir.path().join(".scan-7.bin.tmp4294967");
        let ours = temporary(&dir.path().join("x.json")).unwrap();
        let keep = ["a.json", ".hidden", ".b.tmp", ".c.tmp12x", "d.tmp99"];
        fs::write(&dead, b"half").unwrap();
        fs::write(&ours, b"being written").unwrap();
        for k in keep {
            fs::write(dir.path().join(k), b"x").unwrap();
        }
        let removed = remove_stale_temporaries(dir.path()).unwrap();
        assert_eq!(removed, vec![dead.clone()]);
        assert!(!dead.exists() && ours.exists());
        for k in keep {
            assert!(dir.path().join(k).exists(), "{k}");
        }
        // a folder that does not exist yet has nothing to clean
        assert!(remove_stale_temporaries(&dir.path().join("none"))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn replaces_the_content_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_atomic(&p, b"old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.json")]);
    }

    #[test]
    fn a_failing_writer_keeps_the_old_file_and_removes_its_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("w.bin");
        write_atomic(&p, b"kept").unwrap();
        let r: io::Result<()> = write_atomic_with(&p, |tmp| {
            fs::write(tmp, b"half")?;
            Err(io::Error::other("disk full"))
        });
        assert!(r.is_err());
        assert_eq!(fs::read(&p).unwrap(), b"kept");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn link_or_copy_makes_the_same_file_and_leaves_no_temporary() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a"), t.path().join("b"));
        fs::write(&a, b"one").unwrap();
        link_or_copy(&a, &b).unwrap();
        assert_eq!(fs::read(&b).unwrap(), b"one");
        // again, onto what is already a link of the same file, then over another file
        link_or_copy(&a, &b).unwrap();
        let c = t.path().join("c");
        fs::write(&c, b"two").unwrap();
        link_or_copy(&c, &b).unwrap();
        assert_eq!(fs::read(&b).unwrap(), b"two");
        let mut names: Vec<String> = fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn a_path_without_a_file_name_is_an_error() {
        assert!(write_atomic(Path::new("/"), b"x").is_err());
    }
}
