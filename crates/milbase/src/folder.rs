//! A folder held open: every step the one writer takes inside an output folder goes through its
//! handle (`openat`, `mkdirat`, `renameat`, `unlinkat`), never through a path resolved again. A
//! subfolder is opened from its parent's handle without following a link, so once a writer holds
//! a folder, swapping that folder or any of its subfolders for a link (or moving it away) cannot
//! send a file anywhere else: what is created or renamed lands in the folder that was checked.
//!
//! On Unix this is the kernel's handle; elsewhere a path, with the checks [`crate::lock::confirm`]
//! makes before each step as the only guard.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a subfolder's name holds when it is opened without following links.
pub(crate) enum Sub {
    Folder(Folder),
    Missing,
    /// a symbolic link, a file or anything else that is not a folder
    NotAFolder,
}

/// A folder held open; `path` is for messages only.
#[derive(Debug)]
pub(crate) struct Folder {
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

#[cfg(unix)]
mod imp {
    use super::*;
    use rustix::fs::{AtFlags, FileType, Mode, OFlags, CWD};
    use rustix::io::Errno;
    use std::os::fd::AsFd;

    const DIR: OFlags = OFlags::DIRECTORY
        .union(OFlags::RDONLY)
        .union(OFlags::CLOEXEC);

    impl Folder {
        /// Opens `path` as a folder (links on the way to it are the caller's choice and followed).
        pub(crate) fn open(path: &Path) -> io::Result<Folder> {
            let fd = rustix::fs::open(path, DIR, Mode::empty()).map_err(|e| {
                let e = io::Error::from(e);
                io::Error::new(e.kind(), format!("{}: {e}", path.display()))
            })?;
            Ok(Folder {
                path: path.to_path_buf(),
                fd,
            })
        }

        /// (device, inode) of the folder held.
        pub(crate) fn identity(&self) -> io::Result<(u64, u64)> {
            let st = rustix::fs::fstat(&self.fd)?;
            Ok((st.st_dev, st.st_ino))
        }

        /// The subfolder `name`, opened from this handle without following a link.
        pub(crate) fn sub(&self, name: &OsStr) -> io::Result<Sub> {
            match rustix::fs::openat(&self.fd, name, DIR | OFlags::NOFOLLOW, Mode::empty()) {
                Ok(fd) => Ok(Sub::Folder(Folder {
                    path: self.path.join(name),
                    fd,
                })),
                Err(Errno::NOENT) => Ok(Sub::Missing),
                Err(Errno::LOOP) | Err(Errno::NOTDIR) => Ok(Sub::NotAFolder),
                Err(e) => Err(e.into()),
            }
        }

        /// Makes the subfolder `name`; Err(AlreadyExists) when the name is taken.
        pub(crate) fn mkdir(&self, name: &OsStr) -> io::Result<()> {
            rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777))?;
            Ok(())
        }

        /// Creates the file `name` exclusively (a name that exists, a link included, is refused
        /// with AlreadyExists and never opened).
        pub(crate) fn create_new(&self, name: &OsStr, read: bool) -> io::Result<fs::File> {
            let access = if read { OFlags::RDWR } else { OFlags::WRONLY };
            let fd = rustix::fs::openat(
                &self.fd,
                name,
                access | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o666),
            )?;
            Ok(fs::File::from(fd))
        }

        /// Renames `from` in this folder to `to` in `dest` (both names of the held folders).
        pub(crate) fn rename(&self, from: &OsStr, dest: &Folder, to: &OsStr) -> io::Result<()> {
            rustix::fs::renameat(&self.fd, from, &dest.fd, to)?;
            Ok(())
        }

        /// Hard-links the file at `from` (a path, a link there not followed) as `to` here.
        pub(crate) fn link_from(&self, from: &Path, to: &OsStr) -> io::Result<()> {
            rustix::fs::linkat(CWD, from, &self.fd, to, AtFlags::empty())?;
            Ok(())
        }

        /// Removes the name `name` (a file or a link, never what a link points to).
        pub(crate) fn unlink(&self, name: &OsStr) -> io::Result<()> {
            rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?;
            Ok(())
        }

        /// (is a regular file, is a folder, identity) of the name itself, a link not followed.
        pub(crate) fn stat(&self, name: &OsStr) -> io::Result<(bool, bool, (u64, u64))> {
            let st = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
            let ty = FileType::from_raw_mode(st.st_mode);
            Ok((
                ty == FileType::RegularFile,
                ty == FileType::Directory,
                (st.st_dev, st.st_ino),
            ))
        }

        /// The names in the folder (not `.` and `..`) and whether each is a folder (a link is
        /// not one).
        pub(crate) fn entries(&self) -> io::Result<Vec<(OsString, bool)>> {
            use std::os::unix::ffi::OsStrExt;
            let mut out = Vec::new();
            for e in rustix::fs::Dir::read_from(self.fd.as_fd())? {
                let e = e?;
                let name = OsStr::from_bytes(e.file_name().to_bytes());
                if name == "." || name == ".." {
                    continue;
                }
                let dir = match e.file_type() {
                    FileType::Directory => true,
                    FileType::Unknown => self.stat(name).map(|s| s.1).unwrap_or(false),
                    _ => false,
                };
                out.push((name.to_os_string(), dir));
            }
            Ok(out)
        }

        /// (device, inode) of an open file.
        pub(crate) fn file_identity(f: &fs::File) -> io::Result<(u64, u64)> {
            let st = rustix::fs::fstat(f)?;
            Ok((st.st_dev, st.st_ino))
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;

    impl Folder {
        pub(crate) fn open(path: &Path) -> io::Result<Folder> {
            if !fs::metadata(path)?.is_dir() {
                return Err(io::Error::other(format!(
                    "{}: not a folder",
                    path.display()
                )));
            }
            Ok(Folder {
                path: path.to_path_buf(),
            })
        }
        pub(crate) fn identity(&self) -> io::Result<(u64, u64)> {
            fs::metadata(&self.path).map(|_| (0, 0))
        }
        pub(crate) fn sub(&self, name: &OsStr) -> io::Result<Sub> {
            let p = self.path.join(name);
            match fs::symlink_metadata(&p) {
                Ok(m) if m.is_dir() => Ok(Sub::Folder(Folder { path: p })),
                Ok(_) => Ok(Sub::NotAFolder),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Sub::Missing),
                Err(e) => Err(e),
            }
        }
        pub(crate) fn mkdir(&self, name: &OsStr) -> io::Result<()> {
            fs::create_dir(self.path.join(name))
        }
        pub(crate) fn create_new(&self, name: &OsStr, read: bool) -> io::Result<fs::File> {
            fs::OpenOptions::new()
                .read(read)
                .write(true)
                .create_new(true)
                .open(self.path.join(name))
        }
        pub(crate) fn rename(&self, from: &OsStr, dest: &Folder, to: &OsStr) -> io::Result<()> {
            fs::rename(self.path.join(from), dest.path.join(to))
        }
        pub(crate) fn link_from(&self, from: &Path, to: &OsStr) -> io::Result<()> {
            fs::hard_link(from, self.path.join(to))
        }
        pub(crate) fn unlink(&self, name: &OsStr) -> io::Result<()> {
            fs::remove_file(self.path.join(name))
        }
        pub(crate) fn stat(&self, name: &OsStr) -> io::Result<(bool, bool, (u64, u64))> {
            let m = fs::symlink_metadata(self.path.join(name))?;
            Ok((m.file_type().is_file(), m.is_dir(), (m.len(), 0)))
        }
        pub(crate) fn entries(&self) -> io::Result<Vec<(OsString, bool)>> {
            let mut out = Vec::new();
            for e in fs::read_dir(&self.path)? {
                let e = e?;
                out.push((e.file_name(), e.file_type()?.is_dir()));
            }
            Ok(out)
        }
        pub(crate) fn file_identity(f: &fs::File) -> io::Result<(u64, u64)> {
            f.metadata().map(|m| (m.len(), 0))
        }
    }
}

impl Folder {
    /// The path of `name` in this folder, for messages.
    pub(crate) fn path_of(&self, name: impl AsRef<OsStr>) -> PathBuf {
        self.path.join(name.as_ref())
    }
}
