//! The header pass's spill to disk: when a run meets more slice files than it keeps headers of
//! in memory, the headers it keeps go to bucket files beside its output, every header of one
//! scan to the same bucket, and come back one bucket at a time. A run then holds the headers of
//! one bucket (about `1/K` of the cohort's) while it groups and processes them.
//!
//! The bucket files are hidden temporaries of the output folder (`.headers-K.tmp…`): removed
//! when the run is done with them, and by the next run into that folder
//! ([`milbase::atomic::remove_stale_temporaries`]) when a killed run could not.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};
use std::path::Path;
use std::sync::Mutex;

use milbase::atomic::Scratch;

use crate::error::{Error, Result};
use crate::read::SliceHeader;

/// Headers written to bucket files by scan.
pub(crate) struct Spill {
    files: Vec<Scratch>,
    writers: Vec<Mutex<BufWriter<File>>>,
}

impl Spill {
    /// `buckets` (≥ 1) empty bucket files in `dir` (each made by the one writer: exclusive,
    /// under an unpredictable name, never through a planted link).
    pub fn create(dir: &Path, buckets: usize) -> Result<Spill> {
        let mut spill = Spill {
            files: Vec::new(),
            writers: Vec::new(),
        };
        for k in 0..buckets.max(1) {
            let f = Scratch::create(dir, &format!("headers-{k}")).map_err(|e| Error::io(dir, e))?;
            let w = f.file().try_clone().map_err(|e| Error::io(f.path(), e))?;
            spill.files.push(f);
            spill.writers.push(Mutex::new(BufWriter::new(w)));
        }
        Ok(spill)
    }

    /// Appends a header to its scan's bucket (safe from many threads).
    pub fn put(&self, h: &SliceHeader) -> Result<()> {
        let id = crate::scan::scan_id(&h.study_uid, &h.series_uid);
        let k = bucket(&id, self.writers.len());
        let path = self.files[k].path();
        let mut line = serde_json::to_vec(h).map_err(|e| Error::io(path, e.into()))?;
        line.push(b'\n');
        let mut w = milbase::sync::lock(&self.writers[k]);
        w.write_all(&line).map_err(|e| Error::io(path, e))
    }

    /// The buckets, written out, to read back one at a time.
    pub fn finish(mut self) -> Result<Buckets> {
        for (w, f) in std::mem::take(&mut self.writers)
            .into_iter()
            .zip(&self.files)
        {
            milbase::sync::into_inner(w)
                .flush()
                .map_err(|e| Error::io(f.path(), e))?;
        }
        Ok(Buckets {
            files: std::mem::take(&mut self.files)
                .into_iter()
                .map(Some)
                .collect(),
        })
    }
}

/// The bucket files of a finished [`Spill`]; each removed as it is read, the rest when dropped
/// (a [`Scratch`] removes its file).
pub(crate) struct Buckets {
    files: Vec<Option<Scratch>>,
}

impl Buckets {
    /// How many buckets.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// The next bucket's headers, in the order they were written (`None` after the last).
    pub fn next_bucket(&mut self) -> Result<Option<Vec<SliceHeader>>> {
        let Some(mut f) = self.files.iter_mut().find_map(Option::take) else {
            return Ok(None);
        };
        let p = f.path().to_path_buf();
        f.file_mut().rewind().map_err(|e| Error::io(&p, e))?;
        let mut headers = Vec::new();
        for line in BufReader::new(f.file()).lines() {
            let line = line.map_err(|e| Error::io(&p, e))?;
            let h: SliceHeader =
                serde_json::from_str(&line).map_err(|e| Error::io(&p, e.into()))?;
            headers.push(h);
        }
        Ok(Some(headers))
    }
}

/// A scan's bucket of `k`: a hash of its id other than the shard's (within a shard every id
/// has the same residue of the shard's hash, which must not decide its bucket too).
fn bucket(id: &str, k: usize) -> usize {
    (milbase::shard::fnv1a(format!("spill bucket {id}").as_bytes()) % k as u64) as usize
}

/// A path as its bytes (on Unix any path, UTF-8 or not, comes back as it was).
pub(crate) mod path_bytes {
    use std::path::PathBuf;

    use serde::{Deserialize, Deserializer, Serializer};

    #[cfg(unix)]
    pub fn serialize<S: Serializer>(p: &std::path::Path, s: S) -> Result<S::Ok, S::Error> {
        use std::os::unix::ffi::OsStrExt;
        s.serialize_bytes(p.as_os_str().as_bytes())
    }

    #[cfg(unix)]
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        use std::os::unix::ffi::OsStringExt;
        let bytes = Vec::<u8>::deserialize(d)?;
        Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }

    #[cfg(not(unix))]
    pub fn serialize<S: Serializer>(p: &std::path::Path, s: S) -> Result<S::Ok, S::Error> {
        match p.to_str() {
            Some(t) => s.serialize_str(t),
            None => Err(serde::ser::Error::custom(format!(
                "{}: not Unicode",
                p.display()
            ))),
        }
    }

    #[cfg(not(unix))]
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        Ok(PathBuf::from(String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn header(path: &str, series: &str, z: f64) -> SliceHeader {
        SliceHeader {
            path: PathBuf::from(path),
            study_uid: "1.2.3".into(),
            series_uid: series.into(),
            sop_uid: format!("{series}.{z}"),
            sop_in_dataset: true,
            modality: "CT".into(),
            sop_class: "1.2.840.10008.5.1.4.1.1.2".into(),
            transfer_syntax: "1.2.840.10008.1.2.1".into(),
            rows: 512,
            cols: 512,
            position: Some([-125.0, -118.3, z]),
            orientation: Some([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
            instance_number: Some(3),
            pixel_spacing: Some([0.488_281_25, 0.488_281_25]),
            slice_thickness: Some(5.0),
            patient_name: None,
            patient_id: Some("P".into()),
            body_part: Some("HEAD".into()),
            series_description: Some("HEAD 5mm".into()),
            contrast_agent: None,
            kernel: None,
        }
    }

    /// Every header comes back whole, a scan's headers in one bucket, and no file is left.
    #[test]
    fn headers_come_back_by_scan_and_the_files_go() {
        let t = tempfile::tempdir().unwrap();
        let spill = Spill::create(t.path(), 3).unwrap();
        let mut written = Vec::new();
        for s in 0..7 {
            for k in 0..4 {
                // 0.1 + k/3: floats that a decimal round trip must keep to the bit
                let h = header(
                    &format!("/d/s{s}/é{k}.dcm"),
                    &format!("9.{s}"),
                    0.1 + k as f64 / 3.0,
                );
                spill.put(&h).unwrap();
                written.push(h);
            }
        }
        let mut buckets = spill.finish().unwrap();
        assert_eq!(buckets.len(), 3);
        let mut back = Vec::new();
        while let Some(b) = buckets.next_bucket().unwrap() {
            // a scan is never split across buckets
            for h in &b {
                assert_eq!(b.iter().filter(|x| x.series_uid == h.series_uid).count(), 4);
            }
            back.extend(b);
        }
        assert_eq!(back.len(), written.len());
        for w in &written {
            let b = back.iter().find(|b| b.path == w.path).unwrap();
            assert_eq!(format!("{b:?}"), format!("{w:?}"));
        }
        drop(buckets);
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
    }

    /// A spill dropped before it is read (an error in the header pass) removes its files.
    #[test]
    fn a_dropped_spill_leaves_nothing() {
        let t = tempfile::tempdir().unwrap();
        let spill = Spill::create(t.path(), 2).unwrap();
        spill.put(&header("/a.dcm", "1", 0.0)).unwrap();
        drop(spill);
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
        let spill = Spill::create(t.path(), 2).unwrap();
        spill.put(&header("/a.dcm", "1", 0.0)).unwrap();
        let mut b = spill.finish().unwrap();
        b.next_bucket().unwrap();
        drop(b);
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
    }
}
