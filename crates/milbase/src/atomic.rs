//! The one writer: every file `ich` writes goes through this module.
//!
//! A file is written to a temporary in its destination's folder, then flushed to disk and renamed
//! over the destination, so a reader (and a crash) sees the old file or the new one, never half.
//! The temporary's name is hidden and unpredictable (`.NAME.tmpPID-XXXXXXXXXXXXXXXX`, 64 random
//! bits) and it is created exclusively (`O_CREAT | O_EXCL`), which never follows a link: a
//! symbolic or hard link that someone with write access to a shared output folder planted at any
//! name is never written through, truncated or renamed into place. The final rename replaces the
//! destination's name itself, not what a link there points to.
//!
//! Every step is taken through the folder held open (`folder`): the temporary is created
//! with `openat` in the destination's folder, reached from the locked output folder's own handle
//! one component at a time without following a link, and renamed with `renameat` in that same
//! folder. A subfolder swapped for a link during the run is refused when it is reached, and a
//! swap at any later instant cannot send a file elsewhere: the handle still names the folder that
//! was checked. Before each step [`crate::lock::confirm`] also checks that the lock is still this
//! process's, so a writer that lost it or whose folder was swapped stops and names it.
//!
//! - [`NewFile`]: a file being written, renamed into place by [`NewFile::commit`], removed if
//!   dropped before;
//! - [`Scratch`]: a temporary that never becomes a file (the spill stores of `predict` and
//!   `preprocess`), removed when dropped; [`create_temporary`] for one that its caller moves
//!   away itself (a received instance) with [`move_file`]; [`remove_file`] through the held folder;
//! - [`write_atomic`], [`copy_file`], [`link_or_copy`]: the common cases
//!   on top of them;
//! - [`remove_stale_temporaries`]: what a killed run left, swept by the next run that holds the
//!   folder's lock (planted links included, never followed);
//! - [`create_dir_under`]: output subfolders made without passing through a planted link;
//!   [`create_dir_owned`] for a folder the process owns alone (the node's spool), which removes
//!   what was planted instead.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::folder::{Folder, Sub};

pub use crate::lock::DirLock;

/// The random tag of this process, part of every temporary's name it makes: with the PID it tells
/// this process's temporaries from those of a process of the same PID on another host or in
/// another PID namespace.
fn process_tag() -> u32 {
    static TAG: OnceLock<u32> = OnceLock::new();
    *TAG.get_or_init(rand::random::<u32>)
}

/// The temporary's name for a destination named `name`.
fn temporary_name(name: &str) -> String {
    format!(
        ".{name}.tmp{}-{:08x}{:08x}",
        std::process::id(),
        process_tag(),
        rand::random::<u32>()
    )
}

/// `(pid, process tag)` of a name made by [`temporary_name`], or of the older `.NAME.tmpPID`
/// (tag None); None for any other name.
fn parse_temporary(name: &str) -> Option<(u32, Option<u32>)> {
    let rest = name.strip_prefix('.')?;
    let (_, tail) = rest.rsplit_once(".tmp")?;
    let (pid, tag) = match tail.split_once('-') {
        Some((pid, rnd)) if rnd.len() == 16 && rnd.bytes().all(|b| b.is_ascii_hexdigit()) => {
            (pid, Some(u32::from_str_radix(&rnd[..8], 16).ok()?))
        }
        Some(_) => return None,
        None => (tail, None),
    };
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((pid.parse().ok()?, tag))
}

/// A temporary just created: the folder it was made in (held open), its name, the file.
struct Temp {
    folder: Folder,
    name: String,
    file: fs::File,
}

#[cfg(test)]
thread_local! {
    /// Run between the checks and the creation of a temporary (tests only): an adversary acting
    /// in the window that a path opened again would leave.
    static BEFORE_CREATE: std::cell::RefCell<Option<Box<dyn FnOnce()>>> =
        const { std::cell::RefCell::new(None) };
}

/// Creates a new temporary for `name` in `dir`, exclusively (a name that exists, a planted link
/// included, is never opened: another random name is drawn), through `dir`'s held handle
/// ([`crate::lock::open_held`]).
fn create_exclusive(dir: &Path, name: &str, read: bool) -> io::Result<Temp> {
    crate::lock::confirm(&dir.join(name))?;
    let folder = crate::lock::open_held(dir)?;
    #[cfg(test)]
    if let Some(f) = BEFORE_CREATE.with(|h| h.borrow_mut().take()) {
        f();
    }
    let mut last = None;
    for _ in 0..16 {
        let tmp = temporary_name(name);
        match folder.create_new(tmp.as_ref(), read) {
            Ok(file) => {
                return Ok(Temp {
                    folder,
                    name: tmp,
                    file,
                })
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary name could be made")))
}

/// A new temporary file in `dir` for a writer that moves it away itself with [`move_file`] (a
/// received DICOM instance handed to its store): created exclusively under an unpredictable
/// hidden name (`.STEM.tmp…`), never through a planted link. The caller removes or moves it.
pub fn create_temporary(dir: &Path, stem: &str) -> io::Result<(PathBuf, fs::File)> {
    let t = create_exclusive(dir, stem, false)?;
    Ok((dir.join(&t.name), t.file))
}

/// Moves the regular file `from` to `to` (a received instance into its study's folder): both
/// folders are reached through held handles, so a folder of either path swapped for a link is
/// refused, never moved through. A link at `from` is refused, not moved. `to`'s folder must
/// exist; an existing `to` is replaced.
pub fn move_file(from: &Path, to: &Path) -> io::Result<()> {
    let (src_dir, src) = crate::lock::split_target(from)?;
    let (dest_dir, dest) = crate::lock::split_target(to)?;
    crate::lock::confirm(from)?;
    crate::lock::confirm(to)?;
    let (a, b) = (
        crate::lock::open_held(src_dir)?,
        crate::lock::open_held(dest_dir)?,
    );
    if !a.stat(src.as_ref())?.0 {
        return Err(io::Error::other(format!(
            "{}: not a regular file",
            from.display()
        )));
    }
    a.rename(src.as_ref(), &b, dest.as_ref())
}

/// Removes the name `path` (a file, or a link itself, never what it points to) through its
/// folder's held handle: a folder on the way swapped for a link is refused, so nothing of the
/// same name elsewhere is removed.
pub fn remove_file(path: &Path) -> io::Result<()> {
    let (dir, name) = crate::lock::split_target(path)?;
    crate::lock::confirm(path)?;
    crate::lock::open_held(dir)?.unlink(name.as_ref())
}

/// A file being written: a temporary created exclusively under an unpredictable name beside its
/// destination, in the destination's folder held open. [`NewFile::commit`] syncs it and renames
/// it over the destination in that same folder; dropped before (an error on the way), it is
/// removed and the destination is untouched.
#[derive(Debug)]
pub struct NewFile {
    target: PathBuf,
    name: String,
    folder: Folder,
    tmp: String,
    file: Option<fs::File>,
}

impl NewFile {
    /// Starts writing `target` (its folder must exist).
    pub fn create(target: &Path) -> io::Result<NewFile> {
        let (dir, name) = crate::lock::split_target(target)?;
        let t = create_exclusive(dir, &name, true)?;
        Ok(NewFile {
            target: target.to_path_buf(),
            name,
            folder: t.folder,
            tmp: t.name,
            file: Some(t.file),
        })
    }

    /// The destination.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary's path, for messages (the file is written through [`NewFile::file`]).
    pub fn temporary_path(&self) -> PathBuf {
        self.folder.path_of(&self.tmp)
    }

    /// The open temporary.
    pub fn file(&mut self) -> &mut fs::File {
        self.file
            .as_mut()
            .expect("a NewFile holds its file until commit")
    }

    /// Syncs the temporary to disk and renames it over the destination, after checking that the
    /// lock is still this process's, that no folder on the way has become a link, and that the
    /// name still holds the file this process created. The rename is made in the folder held
    /// since the temporary was created, so a swap after these checks cannot redirect it.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("commit is called once");
        let res = (|| {
            file.sync_all()?;
            // the lock still ours, the folder still the one locked, no link on the way
            crate::lock::confirm(&self.target)?;
            let ours = Folder::file_identity(&file)?;
            let (regular, _, now) = self.folder.stat(self.tmp.as_ref())?;
            if !regular || now != ours {
                return Err(io::Error::other(format!(
                    "{}: the temporary was replaced while it was written (not renamed into place)",
                    self.temporary_path().display()
                )));
            }
            self.folder
                .rename(self.tmp.as_ref(), &self.folder, self.name.as_ref())
        })();
        if res.is_err() {
            let _ = self.folder.unlink(self.tmp.as_ref());
        }
        res
    }
}

impl Write for NewFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = self.folder.unlink(self.tmp.as_ref());
        }
    }
}

/// A temporary file that never becomes a file of the output (a spill store), read and written
/// through its handle: created exclusively under an unpredictable hidden name in `dir`, removed
/// when dropped, or by the next run in that folder ([`remove_stale_temporaries`]) if this one is
/// killed.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
    folder: Folder,
    name: String,
    file: fs::File,
}

impl Scratch {
    /// A new, empty scratch file in `dir` whose name starts with `.STEM`.
    pub fn create(dir: &Path, stem: &str) -> io::Result<Scratch> {
        let t = create_exclusive(dir, stem, true)?;
        Ok(Scratch {
            path: dir.join(&t.name),
            folder: t.folder,
            name: t.name,
            file: t.file,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn file(&self) -> &fs::File {
        &self.file
    }

    pub fn file_mut(&mut self) -> &mut fs::File {
        &mut self.file
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = self.folder.unlink(self.name.as_ref());
    }
}

/// Removes what interrupted runs left in `dir`: every temporary of this module's naming that is
/// not this process's own, symbolic and hard links planted under such names included (the link
/// is removed, never followed). It takes the folder's lock as proof that no other live writer
/// is at work there (the lock is what tells a live writer on another host from a dead one), and
/// returns the paths removed. Folders are left alone.
pub fn remove_stale_temporaries(dir: &Path, _held: &DirLock) -> io::Result<Vec<PathBuf>> {
    sweep(dir, |_| true)
}

/// As [`remove_stale_temporaries`], for the temporaries of the files named `names` only (a
/// writer of one file in a folder it does not own, holding that file's lock,
/// [`DirLock::take_for_file`]).
pub fn remove_stale_temporaries_of(
    dir: &Path,
    names: &[&str],
    _held: &DirLock,
) -> io::Result<Vec<PathBuf>> {
    sweep(dir, |base| names.contains(&base))
}

/// The lock of the folder `dir` (`.ich.lock`, [`DirLock::take`]) for `command`, with the
/// temporaries that a killed writer left in it and in `subfolders` swept away. Returns the lock
/// and the paths swept. Every writer of a folder starts with this.
pub fn lock_folder(
    dir: &Path,
    subfolders: &[&Path],
    command: &str,
) -> io::Result<(DirLock, Vec<PathBuf>)> {
    let lock = DirLock::take(dir, command)?;
    let mut removed = remove_stale_temporaries(dir, &lock)?;
    for sub in subfolders {
        removed.extend(remove_stale_temporaries(sub, &lock)?);
    }
    Ok((lock, removed))
}

/// The lock of `path`, a file a command writes into a folder it does not own (a features file,
/// a GP head, an evaluation's results beside a user's other files), and of `companions`, the
/// names of files beside it that go with it (its note, its trace): `.NAME.ich.lock` beside it
/// ([`DirLock::take_for_file`]), with the temporaries that a killed writer of these files left
/// swept away. Returns the lock and the paths swept.
pub fn lock_file(
    path: &Path,
    companions: &[&str],
    command: &str,
) -> io::Result<(DirLock, Vec<PathBuf>)> {
    let lock = DirLock::take_for_file(path, command)?;
    let (dir, name) = crate::lock::split_target(path)?;
    let mut names = vec![name.as_str()];
    names.extend_from_slice(companions);
    let removed = remove_stale_temporaries_of(dir, &names, &lock)?;
    Ok((lock, removed))
}

/// Removes the temporaries in `dir` that are not this process's own and whose destination's
/// name passes `of`; the paths removed. The folder is listed and swept through its held handle.
fn sweep(dir: &Path, of: impl Fn(&str) -> bool) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    let folder = match crate::lock::open_held(dir) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(removed),
        Err(e) => return Err(e),
    };
    let me = (std::process::id(), Some(process_tag()));
    for (name, is_dir) in folder.entries()? {
        let Some(name) = name.to_str() else { continue };
        let Some(who) = parse_temporary(name) else {
            continue;
        };
        let base = name[1..].rsplit_once(".tmp").map_or("", |(base, _)| base);
        // a per-file writer's temporary (`.NAME.ich.lock` beside it) is its own writer's to
        // sweep: that writer may be at work now (a features file written into a folder that
        // `predict` writes too); a lock of this process's own counts for this sweep
        let file_lock = format!(".{base}{}", crate::lock::LOCK_FILE);
        if !crate::lock::holds(&dir.join(&file_lock)) && folder.stat(file_lock.as_ref()).is_ok() {
            continue;
        }
        // the listing does not follow a link: a planted link is removed itself
        if who != me && of(base) && !is_dir {
            folder.unlink(name.as_ref())?;
            removed.push(dir.join(name));
        }
    }
    Ok(removed)
}

/// Whether `name`, an entry of a folder, is what an interrupted `ich` run may leave there and the
/// next writer of the folder takes over or sweeps: the folder's lock (and a dead lock being moved
/// aside) or a temporary of this module's naming. A writer that refuses a folder holding other
/// results does not count these.
pub fn left_by_an_interrupted_run(name: &str) -> bool {
    name == crate::lock::LOCK_FILE
        || name
            .strip_prefix(crate::lock::LOCK_FILE)
            .is_some_and(|rest| rest.starts_with(".stale"))
        || parse_temporary(name).is_some()
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
    make_dirs(root, dir, None)
}

/// Creates `dir` under `root`, a folder this process owns alone (`ich serve`'s spool, which no
/// person or other program writes to): a symbolic link, file or anything else that is not a
/// folder, found where a component of `dir` goes, was planted there. It is removed, never
/// followed, and a real folder made in its place; the paths removed are returned so that the
/// caller can report them. `root` itself is the user's choice and may be a link.
pub fn create_dir_owned(root: &Path, dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    make_dirs(root, dir, Some(&mut removed))?;
    Ok(removed)
}

/// Makes every component of `dir` below `root` a real folder, each made and opened from its
/// parent's held handle (no link followed); what is planted at one is refused (`removed` None)
/// or removed and listed.
fn make_dirs(root: &Path, dir: &Path, mut removed: Option<&mut Vec<PathBuf>>) -> io::Result<()> {
    fs::create_dir_all(root)?;
    let rel = dir.strip_prefix(root).map_err(|_| {
        io::Error::other(format!(
            "{} is not inside the output folder {}",
            dir.display(),
            root.display()
        ))
    })?;
    let mut p = root.to_path_buf();
    let mut folder = crate::lock::open_held(root)?;
    for c in rel.components() {
        let std::path::Component::Normal(name) = c else {
            return Err(io::Error::other(format!(
                "{} is not a plain path inside the output folder {}",
                dir.display(),
                root.display()
            )));
        };
        p.push(c);
        crate::lock::confirm(&p)?;
        // a few rounds: another writer may make or plant the name meanwhile
        let mut rounds = 0;
        folder = loop {
            rounds += 1;
            match folder.sub(name)? {
                Sub::Folder(sub) => break sub,
                Sub::NotAFolder => match removed.as_deref_mut() {
                    Some(list) if rounds < 4 => {
                        // unlinks a link itself (or a file), never what it points to
                        folder.unlink(name)?;
                        list.push(p.clone());
                    }
                    _ => {
                        return Err(io::Error::other(format!(
                            "{} is a symbolic link or not a folder: results are not written \
                             through it (remove it or give another output folder)",
                            p.display()
                        )))
                    }
                },
                Sub::Missing => match folder.mkdir(name) {
                    Ok(()) => {}
                    // another writer made it meanwhile: looked at again
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists && rounds < 4 => {}
                    Err(e) => return Err(e),
                },
            }
            if rounds >= 6 {
                return Err(io::Error::other(format!(
                    "{}: changed again and again while it was made",
                    p.display()
                )));
            }
        };
    }
    Ok(())
}

/// Makes `to` the same file as `from` (a merge of shards' outputs): a hard link where the file
/// system allows one, else an atomic copy. `to`'s folder must exist; an existing `to` is
/// replaced. `from` is opened only as a regular file (a link there is refused).
pub fn link_or_copy(from: &Path, to: &Path) -> io::Result<()> {
    let m = fs::symlink_metadata(from)?;
    if !m.file_type().is_file() {
        return Err(io::Error::other(format!(
            "{}: not a regular file",
            from.display()
        )));
    }
    let (dir, name) = crate::lock::split_target(to)?;
    crate::lock::confirm(to)?;
    let folder = crate::lock::open_held(dir)?;
    // a hard link made under a fresh unpredictable name (a link refuses an existing name)
    for _ in 0..16 {
        let tmp = temporary_name(&name);
        match folder.link_from(from, tmp.as_ref()) {
            Ok(()) => {
                let res = crate::lock::confirm(to)
                    .and_then(|()| folder.rename(tmp.as_ref(), &folder, name.as_ref()));
                // a rename onto a link of the same file does nothing and leaves the temporary
                let _ = folder.unlink(tmp.as_ref());
                return res;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) => break,
        }
    }
    copy_file(from, to)
}

/// Copies the regular file `from` to `to` atomically through the one writer (`to`'s folder
/// must exist; an existing `to` is replaced). A link at `from` is refused, not followed.
pub fn copy_file(from: &Path, to: &Path) -> io::Result<()> {
    let m = fs::symlink_metadata(from)?;
    if !m.file_type().is_file() {
        return Err(io::Error::other(format!(
            "{}: not a regular file",
            from.display()
        )));
    }
    let mut src = fs::File::open(from)?;
    let mut out = NewFile::create(to)?;
    io::copy(&mut src, out.file())?;
    out.commit()
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = NewFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subfolder of a locked output folder swapped for a link while the run writes: the next
    /// file is neither created nor renamed through it, and the error names it. Before the check
    /// the rest of the run went to the link's target.
    #[cfg(unix)]
    #[test]
    fn a_subfolder_swapped_for_a_link_during_the_run_is_not_written_through() {
        let t = tempfile::tempdir().unwrap();
        let (out, elsewhere) = (t.path().join("out"), t.path().join("elsewhere"));
        fs::create_dir_all(&elsewhere).unwrap();
        let (lock, _) = lock_folder_for_test(&out);
        create_dir_under(&out, &out.join("scans")).unwrap();
        write_atomic(&out.join("scans/a.html"), b"a").unwrap();
        // a file begun before the swap is not renamed into the link's target either
        let mut begun = NewFile::create(&out.join("scans/b.html")).unwrap();
        begun.write_all(b"b").unwrap();
        fs::rename(out.join("scans"), t.path().join("moved")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("scans")).unwrap();
        let e = begun.commit().unwrap_err();
        assert!(e.to_string().contains("swapped for a symbolic link"), "{e}");
        let e = write_atomic(&out.join("scans/c.html"), b"c").unwrap_err();
        assert!(e.to_string().contains("out/scans"), "{e}");
        assert!(create_dir_under(&out, &out.join("scans/x")).is_err());
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        // the output folder itself replaced: refused too
        fs::remove_file(out.join("scans")).unwrap();
        fs::rename(&out, t.path().join("out-moved")).unwrap();
        fs::create_dir(&out).unwrap();
        let e = write_atomic(&out.join("index.html"), b"i").unwrap_err();
        assert!(e.to_string().contains("was replaced"), "{e}");
        assert_eq!(fs::read_dir(&out).unwrap().count(), 0);
        drop(lock);
    }

    /// Sets the test hook: the next temporary's folder `dir` is moved to `moved` and a link to
    /// `elsewhere` put in its place, after the checks and before the creation.
    #[cfg(unix)]
    fn swap_before_the_next_creation(dir: &Path, moved: &Path, elsewhere: &Path) {
        let (dir, moved, elsewhere) = (
            dir.to_path_buf(),
            moved.to_path_buf(),
            elsewhere.to_path_buf(),
        );
        let swap = move || {
            fs::rename(&dir, &moved).unwrap();
            std::os::unix::fs::symlink(&elsewhere, &dir).unwrap();
        };
        BEFORE_CREATE.with(|h| *h.borrow_mut() = Some(Box::new(swap)));
    }

    /// The window that a path opened again leaves: the subfolder is swapped for a link after
    /// every check has passed and before the temporary is created. Through the folder's held
    /// handle the temporary is made in the folder that was checked (moved aside now), never in
    /// the link's target, and the commit refuses to go on. Opened by its path, the temporary was
    /// made in the link's target.
    #[cfg(unix)]
    #[test]
    fn a_subfolder_swapped_between_the_checks_and_the_creation_is_not_written_through() {
        let t = tempfile::tempdir().unwrap();
        let (out, elsewhere) = (t.path().join("out"), t.path().join("elsewhere"));
        let moved = t.path().join("moved");
        fs::create_dir_all(&elsewhere).unwrap();
        let (lock, _) = lock_folder_for_test(&out);
        create_dir_under(&out, &out.join("scans")).unwrap();
        swap_before_the_next_creation(&out.join("scans"), &moved, &elsewhere);
        let mut f = NewFile::create(&out.join("scans/a.html")).unwrap();
        f.write_all(b"a").unwrap();
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        assert_eq!(fs::read_dir(&moved).unwrap().count(), 1, "the temporary");
        let e = f.commit().unwrap_err();
        assert!(e.to_string().contains("swapped for a symbolic link"), "{e}");
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        assert_eq!(
            fs::read_dir(&moved).unwrap().count(),
            0,
            "removed from where it was"
        );

        // a scratch file and a received instance moved into its study folder: the same
        fs::remove_file(out.join("scans")).unwrap();
        fs::rename(&moved, out.join("scans")).unwrap();
        swap_before_the_next_creation(&out.join("scans"), &moved, &elsewhere);
        let s = Scratch::create(&out.join("scans"), "spill").unwrap();
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        drop(s);
        assert_eq!(fs::read_dir(&moved).unwrap().count(), 0);
        fs::write(out.join("rx"), b"instance").unwrap();
        let e = move_file(&out.join("rx"), &out.join("scans/1.dcm")).unwrap_err();
        assert!(e.to_string().contains("swapped for a symbolic link"), "{e}");
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        drop(lock);
    }

    fn lock_folder_for_test(out: &Path) -> (DirLock, Vec<PathBuf>) {
        fs::create_dir_all(out).unwrap();
        lock_folder(out, &[], "test").unwrap()
    }

    /// A folder writer's sweep leaves the temporary of a file whose own lock is there (a
    /// features file written into the folder meanwhile); a temporary with no such lock goes.
    #[test]
    fn a_folder_sweep_leaves_a_per_file_writers_live_temporary() {
        let t = tempfile::tempdir().unwrap();
        let (file_lock, _) = lock_file(&t.path().join("features.csv"), &[], "extract").unwrap();
        let live = t.path().join(".features.csv.tmp1-0123456789abcdef");
        let dead = t.path().join(".scans.csv.tmp1-0123456789abcdef");
        fs::write(&live, b"x").unwrap();
        fs::write(&dead, b"x").unwrap();
        // the folder sweep of another writer (the file lock is not its own)
        drop(file_lock);
        fs::write(t.path().join(".features.csv.ich.lock"), b"held").unwrap();
        let removed = sweep(t.path(), |_| true).unwrap();
        assert_eq!(removed, vec![dead.clone()]);
        assert!(live.exists());
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

    #[cfg(unix)]
    #[test]
    fn in_a_folder_owned_alone_what_was_planted_is_removed_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let (spool, elsewhere) = (t.path().join("spool"), t.path().join("elsewhere"));
        fs::create_dir_all(spool.join("studies")).unwrap();
        fs::create_dir_all(&elsewhere).unwrap();
        fs::write(elsewhere.join("victim"), b"precious").unwrap();
        // a link to a folder outside, a link to a file, a plain file, a dangling link
        std::os::unix::fs::symlink(&elsewhere, spool.join("studies/1.2")).unwrap();
        let dir = spool.join("studies/1.2/in/1.3");
        let removed = create_dir_owned(&spool, &dir).unwrap();
        assert_eq!(removed, vec![spool.join("studies/1.2")]);
        assert!(fs::symlink_metadata(spool.join("studies/1.2"))
            .unwrap()
            .is_dir());
        assert!(dir.is_dir());
        std::os::unix::fs::symlink(elsewhere.join("victim"), spool.join("studies/1.2/out"))
            .unwrap();
        fs::write(spool.join("studies/1.2/in/1.4"), b"x").unwrap();
        std::os::unix::fs::symlink(t.path().join("nowhere"), spool.join("studies/1.5")).unwrap();
        for (d, planted) in [
            ("studies/1.2/out/dicom", "studies/1.2/out"),
            ("studies/1.2/in/1.4", "studies/1.2/in/1.4"),
            ("studies/1.5", "studies/1.5"),
        ] {
            let removed = create_dir_owned(&spool, &spool.join(d)).unwrap();
            assert_eq!(removed, vec![spool.join(planted)], "{d}");
            assert!(fs::symlink_metadata(spool.join(d)).unwrap().is_dir(), "{d}");
        }
        // what the links pointed to is untouched, and nothing was made there
        assert_eq!(fs::read(elsewhere.join("victim")).unwrap(), b"precious");
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 1);
        assert!(!t.path().join("nowhere").exists());
        // real folders are kept as they are
        fs::write(dir.join("a.dcm"), b"kept").unwrap();
        assert!(create_dir_owned(&spool, &dir).unwrap().is_empty());
        assert_eq!(fs::read(dir.join("a.dcm")).unwrap(), b"kept");
    }

    #[test]
    fn what_an_interrupted_run_leaves_is_told_from_other_files() {
        for left in [
            ".ich.lock",
            ".ich.lock.stale0123456789abcdef",
            ".report.json.tmp123",
            ".report.json.tmp123-0123456789abcdef",
        ] {
            assert!(left_by_an_interrupted_run(left), "{left}");
        }
        for other in [
            "report.json",
            ".ich.lockx",
            ".report.json.tmp",
            ".report.json.tmp12x",
            ".hidden",
            "run.json",
        ] {
            assert!(!left_by_an_interrupted_run(other), "{other}");
        }
    }

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
    fn temporaries_have_unpredictable_names_that_the_sweep_recognises() {
        let a = temporary_name("x.json");
        let b = temporary_name("x.json");
        assert_ne!(a, b);
        assert!(a.starts_with(".x.json.tmp"), "{a}");
        assert_eq!(
            parse_temporary(&a),
            Some((std::process::id(), Some(process_tag())))
        );
        assert_eq!(parse_temporary(".x.tmp12"), Some((12, None)));
        for other in [
            "a.json",
            ".hidden",
            ".b.tmp",
            ".c.tmp12x",
            "d.tmp99",
            ".e.tmp1-zz",
        ] {
            assert_eq!(parse_temporary(other), None, "{other}");
        }
    }

    /// A writer of one file in a shared folder sweeps its own file's stale temporaries (and its
    /// note's) under that file's lock, and leaves every other file's alone.
    #[test]
    fn a_file_writer_sweeps_only_its_own_files_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("features.csv");
        let lock = DirLock::take_for_file(&target, "extract").unwrap();
        assert!(dir.path().join(".features.csv.ich.lock").is_file());
        // a second writer of the same file is refused; another file's writer is not
        assert!(DirLock::take_for_file(&target, "extract").is_err());
        let other_lock = DirLock::take_for_file(&dir.path().join("other.csv"), "x").unwrap();
        let dead = |name: &str| {
            dir.path().join(format!(
                ".{name}.tmp{}-{:08x}00000000",
                std::process::id(),
                process_tag().wrapping_add(1)
            ))
        };
        for n in ["features.csv", "features.csv.shard.json", "other.csv"] {
            fs::write(dead(n), b"half").unwrap();
        }
        let mut removed = remove_stale_temporaries_of(
            dir.path(),
            &["features.csv", "features.csv.shard.json"],
            &lock,
        )
        .unwrap();
        removed.sort();
        let mut want = vec![dead("features.csv"), dead("features.csv.shard.json")];
        want.sort();
        assert_eq!(removed, want);
        assert!(dead("other.csv").exists());
        drop((lock, other_lock));
        assert!(!dir.path().join(".features.csv.ich.lock").exists());
    }

    #[test]
    fn the_sweep_removes_other_processes_temporaries_and_links_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let lock = DirLock::take(dir.path(), "t").unwrap();
        // another process's (same PID elsewhere: another tag), an old-style name, and ours
        let other = dir.path().join(format!(
            ".scan-7.bin.tmp{}-{:08x}00000000",
            std::process::id(),
            process_tag().wrapping_add(1)
        ));
        let old = dir.path().join(".scan-8.bin.tmp4294967");
        let mut ours = NewFile::create(&dir.path().join("x.json")).unwrap();
        ours.write_all(b"being written").unwrap();
        fs::write(&other, b"half").unwrap();
        fs::write(&old, b"half").unwrap();
        let keep = ["a.json", ".hidden", ".b.tmp", ".c.tmp12x", "d.tmp99"];
        for k in keep {
            fs::write(dir.path().join(k), b"x").unwrap();
        }
        // a planted link under a temporary's name: removed, its target untouched
        let victim = tempfile::tempdir().unwrap();
        let v = victim.path().join("victim");
        fs::write(&v, b"precious").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&v, dir.path().join(".y.json.tmp1-0000000000000000")).unwrap();
        let mut removed = remove_stale_temporaries(dir.path(), &lock).unwrap();
        removed.sort();
        let mut want = vec![other.clone(), old.clone()];
        #[cfg(unix)]
        want.push(dir.path().join(".y.json.tmp1-0000000000000000"));
        want.sort();
        assert_eq!(removed, want);
        assert!(ours.temporary_path().exists());
        assert_eq!(fs::read(&v).unwrap(), b"precious");
        for k in keep {
            assert!(dir.path().join(k).exists(), "{k}");
        }
        ours.commit().unwrap();
        assert_eq!(
            fs::read(dir.path().join("x.json")).unwrap(),
            b"being written"
        );
        // a folder that does not exist yet has nothing to clean
        assert!(remove_stale_temporaries(&dir.path().join("none"), &lock)
            .unwrap()
            .is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn links_planted_at_every_old_temporary_name_are_never_written_through() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("out");
        fs::create_dir_all(&out).unwrap();
        let victim = t.path().join("victim");
        fs::write(&victim, b"precious").unwrap();
        // the names the writer used to make (`.NAME.tmpPID`), for this PID and its neighbours,
        // as symbolic and as hard links
        let pid = std::process::id();
        for p in pid.saturating_sub(3)..pid + 3 {
            std::os::unix::fs::symlink(&victim, out.join(format!(".a.json.tmp{p}"))).unwrap();
            fs::hard_link(&victim, out.join(format!(".b.json.tmp{p}"))).unwrap();
        }
        write_atomic(&out.join("a.json"), b"result a").unwrap();
        write_atomic(&out.join("b.json"), b"result b").unwrap();
        let mut s = Scratch::create(&out, "a.json").unwrap();
        s.file_mut().write_all(b"spill").unwrap();
        drop(s);
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        // the results are files of their own, not links to the victim
        for (f, want) in [("a.json", "result a"), ("b.json", "result b")] {
            let m = fs::symlink_metadata(out.join(f)).unwrap();
            assert!(m.file_type().is_file(), "{f}");
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                assert_eq!(m.nlink(), 1, "{f}");
            }
            assert_eq!(fs::read(out.join(f)).unwrap(), want.as_bytes());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_temporary_swapped_for_a_link_while_written_is_not_renamed_into_place() {
        let t = tempfile::tempdir().unwrap();
        let victim = t.path().join("victim");
        fs::write(&victim, b"precious").unwrap();
        let target = t.path().join("out.json");
        let mut f = NewFile::create(&target).unwrap();
        f.write_all(b"result").unwrap();
        fs::remove_file(f.temporary_path()).unwrap();
        std::os::unix::fs::symlink(&victim, f.temporary_path()).unwrap();
        let r = f.commit();
        let e = r.unwrap_err();
        assert!(e.to_string().contains("replaced"), "{e}");
        assert!(!target.exists());
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
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
        // a writer that fails on its way: its temporary is removed, the old file kept
        let r = (|| -> io::Result<()> {
            let mut f = NewFile::create(&p)?;
            f.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        })();
        assert!(r.is_err());
        assert_eq!(fs::read(&p).unwrap(), b"kept");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        // a NewFile dropped before its commit leaves nothing either
        let mut f = NewFile::create(&p).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
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
