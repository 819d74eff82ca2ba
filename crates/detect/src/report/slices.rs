//! Each scan's slice reports kept on disk while `ich predict` goes on, so that a run over N scans
//! holds N scans' summaries in memory rather than every slice's row (about 1.6 KiB a slice held,
//! docs/BENCHMARKS.md). The reports are written at the end, scan by scan in report order, each
//! scan's slices read back when its rows are written.
//!
//! The store is a hidden temporary file in the output folder (`.slices.spill.tmp…`, made by the
//! one writer, [`milbase::atomic::Scratch`]), removed when the store is dropped, or by the next
//! run in that folder if this one is killed.

use std::borrow::Cow;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::error::{Error, Result};
use crate::report::SliceReport;

/// Where one scan's slices lie in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    offset: u64,
    len: u64,
}

/// The slice reports of the scans of a run, on disk.
pub struct SliceStore {
    file: milbase::atomic::Scratch,
    end: u64,
}

impl SliceStore {
    /// A new, empty store in `dir` (the run's output folder, whose lock the run holds); the
    /// temporaries a killed run left there are removed first.
    pub fn create(dir: &Path, lock: &milbase::atomic::DirLock) -> Result<Self> {
        milbase::atomic::remove_stale_temporaries(dir, lock).map_err(|e| Error::io(dir, e))?;
        let file =
            milbase::atomic::Scratch::create(dir, "slices.spill").map_err(|e| Error::io(dir, e))?;
        Ok(Self { file, end: 0 })
    }

    /// Appends one scan's slices (JSON, whose floats read back bit for bit).
    pub fn put(&mut self, slices: &[SliceReport]) -> Result<Extent> {
        let bytes = serde_json::to_vec(slices)
            .map_err(|e| Error::Invalid(format!("keeping slice reports: {e}")))?;
        let path = self.file.path().to_path_buf();
        let io = |e| Error::io(&path, e);
        let f = self.file.file_mut();
        f.seek(SeekFrom::Start(self.end)).map_err(io)?;
        f.write_all(&bytes).map_err(io)?;
        let e = Extent {
            offset: self.end,
            len: bytes.len() as u64,
        };
        self.end += e.len;
        Ok(e)
    }

    /// The slices kept at `e`.
    pub fn get(&self, e: Extent) -> Result<Vec<SliceReport>> {
        let path = self.file.path();
        let io = |err| Error::io(path, err);
        let mut f = self.file.file();
        f.seek(SeekFrom::Start(e.offset)).map_err(io)?;
        let len = usize::try_from(e.len)
            .map_err(|_| Error::file(path, "a scan's slices beyond memory"))?;
        let mut bytes = vec![0; len];
        f.read_exact(&mut bytes).map_err(io)?;
        serde_json::from_slice(&bytes).map_err(|err| Error::file(path, err.to_string()))
    }

    /// A loader of the slices of scan `i` given each scan's extent, in the form the report
    /// writers take ([`crate::report::sink::End`]).
    pub fn loader<'a>(
        &'a self,
        extents: &'a [Extent],
    ) -> impl Fn(usize) -> Result<Cow<'a, [SliceReport]>> + 'a {
        move |i| {
            let e = extents
                .get(i)
                .copied()
                .ok_or_else(|| Error::Invalid(format!("no slices kept for scan {i}")))?;
            self.get(e).map(Cow::Owned)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(index: usize, p: f64) -> SliceReport {
        SliceReport {
            index,
            sop_instance_uid: format!("1.2.3.{index}"),
            z: Some(index as f64 * 2.5 - 0.1),
            probability: p,
            sd: p / 3.0,
            lo: p / 7.0,
            hi: p.sqrt(),
            positive: p > 0.5,
            uncertain: false,
            attention: 1.0 / 3.0,
            label: index.is_multiple_of(2).then_some(1),
            subtypes: Vec::new(),
        }
    }

    /// Scans' slices come back bit for bit, in any order, and the file is gone with the store.
    #[test]
    fn slices_come_back_as_they_were_kept() {
        let t = tempfile::tempdir().unwrap();
        let lock = milbase::atomic::DirLock::take(t.path(), "predict").unwrap();
        let mut s = SliceStore::create(t.path(), &lock).unwrap();
        let a: Vec<SliceReport> = (0..3).map(|i| slice(i, 0.1 + i as f64 / 7.0)).collect();
        let b: Vec<SliceReport> = vec![slice(0, std::f64::consts::PI / 10.0)];
        let none: Vec<SliceReport> = Vec::new();
        let ea = s.put(&a).unwrap();
        let en = s.put(&none).unwrap();
        let eb = s.put(&b).unwrap();
        let json = |v: &[SliceReport]| serde_json::to_string(v).unwrap();
        assert_eq!(json(&s.get(eb).unwrap()), json(&b));
        assert_eq!(json(&s.get(ea).unwrap()), json(&a));
        assert!(s.get(en).unwrap().is_empty());
        let back = s.get(eb).unwrap();
        assert_eq!(back[0].probability.to_bits(), b[0].probability.to_bits());
        assert_eq!(back[0].sd.to_bits(), b[0].sd.to_bits());
        // the store and the lock
        let files = || std::fs::read_dir(t.path()).unwrap().count();
        assert_eq!(files(), 2);
        drop(s);
        assert_eq!(files(), 1);
    }
}
