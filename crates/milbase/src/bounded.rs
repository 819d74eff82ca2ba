//! Reading a file the product did not write (labels, features, splits, a bundle's parts, a
//! dataset's JSON) without trusting it: it must be a regular file — not a FIFO that blocks the
//! reader forever, not a link to `/dev/zero` that never ends — and no larger than a ceiling
//! checked before anything is allocated.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

/// Ceiling of a label or splits table (a hospital's whole archive fits many times over).
pub const MAX_TABLE: u64 = 1 << 30;
/// Ceiling of a features table (RSNA's 20,000 scans at 128 features are about 1 GB of text).
pub const MAX_FEATURES: u64 = 16 << 30;
/// Ceiling of a JSON file the product reads (manifests, configurations, GP heads, reports).
pub const MAX_JSON: u64 = 1 << 30;

/// Opens `path` for reading when it is a regular file (links followed to one) of at most `max`
/// bytes; returns it with its length.
pub fn open_regular(path: &Path, max: u64) -> io::Result<(fs::File, u64)> {
    let m = fs::metadata(path)?;
    if !m.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a folder, FIFO, socket or device): not read",
        ));
    }
    if m.len() > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} bytes, more than the {max} this file may hold", m.len()),
        ));
    }
    let f = fs::File::open(path)?;
    // the file may have been swapped between the two calls: check what was opened
    let m2 = f.metadata()?;
    if !m2.is_file() || m2.len() > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "changed while it was opened: not read",
        ));
    }
    Ok((f, m2.len()))
}

/// [`open_regular`] as a buffered reader of at most `max` bytes, for a parser that reads as it
/// goes (a file that is not what it should be costs the bytes up to its first wrong one).
pub fn open_regular_reader(path: &Path, max: u64) -> io::Result<io::BufReader<io::Take<fs::File>>> {
    let (f, _) = open_regular(path, max)?;
    Ok(io::BufReader::new(f.take(max)))
}

/// Everything `r` gives, at most `max` bytes (an error for a file that grew past them while it
/// was read), into `buf`.
fn read_at_most(r: impl Read, max: u64, buf: &mut Vec<u8>) -> io::Result<()> {
    r.take(max + 1).read_to_end(buf)?;
    if buf.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("grew past {max} bytes while it was read"),
        ));
    }
    Ok(())
}

/// The bytes of `path`, a regular file of at most `max` bytes (never more are read, even from a
/// file that grows while it is read).
pub fn read_regular(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let (f, len) = open_regular(path, max)?;
    let mut bytes = Vec::with_capacity(len as usize);
    read_at_most(f, max, &mut bytes)?;
    Ok(bytes)
}

/// The longest line a table may have (a features row of 128 values is a few kB).
pub const MAX_LINE: usize = 1 << 20;

/// A text reader that fails as soon as a line runs past `max` bytes: a table whose first "line"
/// is gigabytes (a sparse file of zeros, a binary file) costs what was read of it, not its size
/// in a growing buffer.
pub struct LineLimited<R> {
    inner: R,
    max: usize,
    run: usize,
}

impl<R: Read> LineLimited<R> {
    pub fn new(inner: R, max: usize) -> Self {
        Self { inner, max, run: 0 }
    }
}

impl<R: Read> Read for LineLimited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            self.run = if b == b'\n' { 0 } else { self.run + 1 };
            if self.run > self.max {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a line longer than {} bytes: not a text table", self.max),
                ));
            }
        }
        Ok(n)
    }
}

/// A table of at most `max` bytes whose lines are at most [`MAX_LINE`] bytes, as UTF-8 text.
pub fn read_regular_table(path: &Path, max: u64) -> io::Result<String> {
    let (f, len) = open_regular(path, max)?;
    let mut bytes = Vec::with_capacity(len as usize);
    read_at_most(LineLimited::new(f, MAX_LINE), max, &mut bytes)?;
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_within_the_ceiling_are_read_and_nothing_else_is() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("labels.csv");
        fs::write(&p, b"scan,label\na,1\n").unwrap();
        assert_eq!(read_regular(&p, 100).unwrap(), b"scan,label\na,1\n");
        assert_eq!(read_regular_table(&p, 15).unwrap().len(), 15);
        let e = read_regular_table(&p, 14).unwrap_err();
        assert!(e.to_string().contains("15 bytes, more than the 14"), "{e}");
        let e = read_regular(&p, 14).unwrap_err();
        assert!(e.to_string().contains("15 bytes, more than the 14"), "{e}");
        let e = read_regular(t.path(), 100).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        #[cfg(unix)]
        {
            // a link to a device: the device, which never ends, is not read
            let z = t.path().join("zero.csv");
            std::os::unix::fs::symlink("/dev/zero", &z).unwrap();
            let e = read_regular(&z, 1 << 30).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
            // a FIFO, which would block the reader until a writer came
            let fifo = t.path().join("fifo.csv");
            assert!(std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success());
            let e = read_regular(&fifo, 1 << 30).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn a_line_past_the_limit_ends_the_read_with_an_error() {
        let mut ok = String::new();
        LineLimited::new(&b"ab\ncd\n"[..], 2)
            .read_to_string(&mut ok)
            .unwrap();
        assert_eq!(ok, "ab\ncd\n");
        let mut long = String::new();
        let e = LineLimited::new(&b"ab\ncde\n"[..], 2)
            .read_to_string(&mut long)
            .unwrap_err();
        assert!(e.to_string().contains("longer than 2 bytes"), "{e}");
    }
}
