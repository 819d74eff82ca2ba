//! The features file (docs/FEATURES.md): one row per slice, the D features of the CNN's slice
//! encoder plus names and labels. One schema, one writer ([`FeaturesWriter`], used by
//! `ich extract`) and one reader ([`read`], used by `ich fit-gp` and `ich eval-gp`), which also
//! reads the header-less MIL benchmark tables. The GP head only ever sees the matrices
//! ([`gphead::MilData`]).

use std::collections::HashMap;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use gphead::evaluation::FixedSplit;
use gphead::MilData;

use crate::error::{Error, Result};

/// Required: the scan (bag) id.
pub const BAG_NAME: &str = "bag_name";
/// Required: the 0/1 scan label, repeated on every row of the scan.
pub const BAG_LABEL: &str = "bag_label";
/// Prefix of the feature columns `feature_0 … feature_{D−1}`.
pub const FEATURE_PREFIX: &str = "feature_";
/// Optional: the slice id (SOPInstanceUID).
pub const INSTANCE_NAME: &str = "instance_name";
/// Optional: 0/1 slice label, empty when unknown.
pub const INSTANCE_LABEL: &str = "instance_label";
/// Optional per-scan numbers kept with the bags: the CNN's own probability and 0/1 prediction.
pub const BAG_EXTRA: [&str; 2] = ["bag_cnn_probability", "bag_cnn_prediction"];
/// Optional: the scan's hemorrhage subtypes (`;`-separated RSNA names, `none` when it has none),
/// repeated on every row of the scan; empty when unknown (by [`SubtypeLabels`]: known when the
/// scan is labelled negative or every slice's subtypes are known).
pub const BAG_SUBTYPES: &str = "bag_subtypes";
/// Optional: the slice's subtypes, as [`BAG_SUBTYPES`]; empty when the slice has no label.
pub const INSTANCE_SUBTYPES: &str = "instance_subtypes";
/// The five RSNA 2019 subtypes, in the challenge's order. A scan has a subtype when any of its
/// slices has it.
pub const SUBTYPES: [&str; 5] = [
    "epidural",
    "intraparenchymal",
    "intraventricular",
    "subarachnoid",
    "subdural",
];
/// The key under which a bag's 0/1 label for subtype `name` is kept in
/// [`MilData::bag_extra`] (NaN when unknown).
pub fn subtype_key(name: &str) -> String {
    format!("subtype_{name}")
}

/// The known subtypes named in `text` (any case; separated by `;`, `|`, `,` or spaces; other
/// words, such as `fracture`, ignored), in RSNA order.
pub fn subtypes_in(text: &str) -> Vec<&'static str> {
    let words: Vec<String> = text
        .split(|c: char| c == ';' || c == '|' || c == ',' || c.is_whitespace())
        .map(|w| w.trim().to_ascii_lowercase())
        .collect();
    SUBTYPES
        .into_iter()
        .filter(|s| words.iter().any(|w| w == s))
        .collect()
}

/// A subtype cell: the names joined by `;`, `none` for an empty set.
pub fn subtype_cell(names: &[&str]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(";")
    }
}

/// The subtypes the labels give a scan and its slices ([`crate::report::SubtypeProbability::label`], and what `ich train-cnn` teaches a multi-label network):
/// a slice labelled 0 has none; a slice labelled 1 has those its subtype text names (unknown
/// when it names none); a scan has a subtype when a slice has it, none when every slice's are
/// known or the scan is labelled negative.
pub struct SubtypeLabels {
    slices: Vec<Option<Vec<&'static str>>>,
    negative: bool,
}

impl SubtypeLabels {
    pub fn of(meta: &preprocess::dataset::ScanMeta) -> Self {
        let slices = meta
            .slices
            .iter()
            .map(|s| match s.label? {
                0 => Some(Vec::new()),
                _ => {
                    let named = crate::features::subtypes_in(s.subtype.as_deref().unwrap_or(""));
                    (!named.is_empty()).then_some(named)
                }
            })
            .collect();
        Self {
            slices,
            negative: meta.label == Some(0),
        }
    }

    pub fn slice(&self, k: usize, name: &str) -> Option<u8> {
        let known = self.slices.get(k)?.as_ref()?;
        Some(u8::from(known.contains(&name)))
    }

    pub fn scan(&self, name: &str) -> Option<u8> {
        let has = |s: &Option<Vec<&str>>| s.as_ref().is_some_and(|v| v.contains(&name));
        if self.slices.iter().any(has) {
            Some(1)
        } else if self.negative
            || (!self.slices.is_empty() && self.slices.iter().all(Option::is_some))
        {
            Some(0)
        } else {
            None
        }
    }
}

/// Written by `ich extract`, ignored by the reader: attention weight and z position.
pub const CNN_ATTENTION: &str = "cnn_attention";
pub const Z: &str = "z";

/// The header `ich extract` writes for D features.
pub fn header(d: usize) -> Vec<String> {
    let mut h: Vec<String> = (0..d).map(|k| format!("{FEATURE_PREFIX}{k}")).collect();
    h.extend(
        [
            INSTANCE_NAME,
            INSTANCE_LABEL,
            BAG_NAME,
            BAG_LABEL,
            BAG_EXTRA[0],
            BAG_EXTRA[1],
            CNN_ATTENTION,
            Z,
            INSTANCE_SUBTYPES,
            BAG_SUBTYPES,
        ]
        .map(String::from),
    );
    h
}

/// One slice of one scan.
pub struct FeatureRow<'a> {
    pub features: &'a [f32],
    pub instance_name: &'a str,
    pub instance_label: Option<u8>,
    pub bag_name: &'a str,
    pub bag_label: Option<u8>,
    pub cnn_probability: f64,
    pub cnn_attention: f32,
    pub z: Option<f64>,
    /// The slice's subtypes when it has a label (see [`INSTANCE_SUBTYPES`]).
    pub instance_subtypes: Option<&'a [&'a str]>,
    /// The scan's subtypes when known (see [`BAG_SUBTYPES`]).
    pub bag_subtypes: Option<&'a [&'a str]>,
}

/// Writes a features file row by row to a temporary file; [`FeaturesWriter::finish`] renames it
/// into place, so a reader never sees half a file. Text fields are quoted by the CSV writer.
/// Dropped without `finish` (an error on the way), it removes its temporary file.
pub struct FeaturesWriter {
    path: PathBuf,
    d: usize,
    rows: usize,
    /// The one writer's temporary (dropped without `finish`: removed).
    w: Option<csv::Writer<BufWriter<milbase::atomic::NewFile>>>,
}

impl FeaturesWriter {
    pub fn create(path: &Path, d: usize) -> Result<Self> {
        let f = milbase::atomic::NewFile::create(path).map_err(|e| Error::io(path, e))?;
        let mut w = csv::Writer::from_writer(BufWriter::new(f));
        let mut me = Self {
            path: path.to_path_buf(),
            d,
            rows: 0,
            w: None,
        };
        w.write_record(header(d))
            .map_err(|e| Error::file(path, e.to_string()))?;
        me.w = Some(w);
        Ok(me)
    }

    pub fn write(&mut self, r: &FeatureRow<'_>) -> Result<()> {
        if r.features.len() != self.d {
            return Err(Error::file(
                &self.path,
                format!(
                    "slice {}: {} features, the file has {}",
                    r.instance_name,
                    r.features.len(),
                    self.d
                ),
            ));
        }
        let opt = |v: Option<u8>| v.map(|l| l.to_string()).unwrap_or_default();
        let mut rec: Vec<String> = r.features.iter().map(|v| v.to_string()).collect();
        rec.extend([
            r.instance_name.to_string(),
            opt(r.instance_label),
            r.bag_name.to_string(),
            opt(r.bag_label),
            r.cnn_probability.to_string(),
            u8::from(r.cnn_probability >= 0.5).to_string(),
            r.cnn_attention.to_string(),
            r.z.map(|z| z.to_string()).unwrap_or_default(),
            r.instance_subtypes.map(subtype_cell).unwrap_or_default(),
            r.bag_subtypes.map(subtype_cell).unwrap_or_default(),
        ]);
        let w = self
            .w
            .as_mut()
            .ok_or_else(|| Error::file(&self.path, "already finished"))?;
        w.write_record(&rec)
            .map_err(|e| Error::file(&self.path, e.to_string()))?;
        self.rows += 1;
        Ok(())
    }

    /// Flushes and renames into place; returns the number of rows.
    pub fn finish(mut self) -> Result<usize> {
        let path = self.path.clone();
        let w = self
            .w
            .take()
            .ok_or_else(|| Error::file(&path, "already finished"))?;
        let res = (|| {
            let inner = w
                .into_inner()
                .map_err(|e| Error::file(&path, e.to_string()))?;
            let f = inner
                .into_inner()
                .map_err(|e| Error::io(&path, e.into_error()))?;
            f.commit().map_err(|e| Error::io(&path, e))
        })();
        res.map(|()| self.rows)
    }
}

/// The lock of a features file and its note while `command` writes them (`.NAME.ich.lock`
/// beside it: the folder may hold other files, so the file is locked, not the folder), with
/// the temporaries that a killed writer of this file left swept away.
pub fn lock_features_file(path: &Path, command: &str) -> Result<milbase::atomic::DirLock> {
    let note = shard_note_path(path);
    let note = note.file_name().unwrap_or_default().to_string_lossy();
    let (lock, removed) =
        milbase::atomic::lock_file(path, &[&note], command).map_err(|e| Error::io(path, e))?;
    if !removed.is_empty() {
        tracing::info!(
            "removed {} temporary file(s) an interrupted writer of {} left",
            removed.len(),
            path.display()
        );
    }
    Ok(lock)
}

/// The note beside a shard's features file: `<features>.shard.json`, `{"shard": "I/N"}`.
pub fn shard_note_path(features: &Path) -> PathBuf {
    let mut name = features.file_name().unwrap_or_default().to_os_string();
    name.push(".shard.json");
    features.with_file_name(name)
}

/// The note beside a features file: which shard of the cohort it holds, and what a merge checks
/// before it trusts the file (its rows and the SHA-256 of its bytes: a file cut short or changed
/// since it was written is refused). A merge that left shards out names them here too.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardNote {
    /// `I/N` (`0/1`: the whole cohort).
    pub shard: String,
    /// Data rows of the file (its header not counted); absent in an older note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// SHA-256 of the file's bytes; absent in an older note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The shards a partial merge went without (`ich merge --partial`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_shards: Vec<usize>,
}

/// The SHA-256 of a file, read through the bounded reader.
fn sha256_of(path: &Path) -> Result<String> {
    use sha2::Digest;
    let mut r = milbase::bounded::open_regular_reader(path, milbase::bounded::MAX_FEATURES)
        .map_err(|e| Error::io(path, e))?;
    let mut h = sha2::Sha256::new();
    std::io::copy(&mut r, &mut h).map_err(|e| Error::io(path, e))?;
    Ok(format!("{:x}", h.finalize()))
}

/// Writes the note beside `features` (just written, `rows` data rows): its shard, rows and
/// checksum, and the shards a partial merge went without.
pub fn write_shard_note(
    features: &Path,
    shard: milbase::Shard,
    rows: usize,
    missing: &[usize],
) -> Result<()> {
    let note = shard_note_path(features);
    let n = ShardNote {
        shard: shard.to_string(),
        rows: Some(rows),
        sha256: Some(sha256_of(features)?),
        missing_shards: missing.to_vec(),
    };
    let text = serde_json::to_string(&n).map_err(|e| Error::Invalid(e.to_string()))?;
    milbase::write_atomic(&note, text.as_bytes()).map_err(|e| Error::io(&note, e))
}

/// The note beside a features file, if it has one.
pub fn read_note(features: &Path) -> Result<Option<ShardNote>> {
    let note = shard_note_path(features);
    if !note.exists() {
        return Ok(None);
    }
    let n: ShardNote = serde_json::from_reader(
        milbase::bounded::open_regular_reader(&note, 1 << 20).map_err(|e| Error::io(&note, e))?,
    )
    .map_err(|e| Error::file(&note, e.to_string()))?;
    Ok(Some(n))
}

/// The shard a features file holds: its note's, else the whole cohort.
pub fn read_shard_note(features: &Path) -> Result<milbase::Shard> {
    match read_note(features)? {
        None => Ok(milbase::Shard::ALL),
        Some(n) => n
            .shard
            .parse()
            .map_err(|e: String| Error::file(&shard_note_path(features), e)),
    }
}

/// What [`merge`] joined.
#[derive(Debug, Clone)]
pub struct MergedFeatures {
    pub files: usize,
    pub scans: usize,
    pub rows: usize,
    pub shard_count: usize,
    pub missing_shards: Vec<usize>,
}

/// Whether `a` and `b` name one file (the same device and inode; a path that does not exist is
/// no file).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(a)
            .ok()
            .is_some_and(|x| std::fs::canonicalize(b).ok() == Some(x))
    }
}

/// A reader that hashes what passes through it.
struct Hashing<R> {
    inner: R,
    hash: sha2::Sha256,
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

/// Where one scan's rows lie: (input file, byte ranges in it).
type Rows = (usize, Vec<(u64, u64)>);

/// The merged file is none of the inputs, nor is its shard note one of theirs.
fn refuse_out_among_inputs(inputs: &[PathBuf], out: &Path) -> Result<()> {
    for p in inputs {
        if p == out || same_file(p, out) {
            return Err(Error::file(
                out,
                "is one of the files to merge: give the merged file another name",
            ));
        }
        if same_file(&shard_note_path(p), &shard_note_path(out)) {
            return Err(Error::file(
                out,
                "its shard note is an input's: give the merged file another name",
            ));
        }
    }
    Ok(())
}

/// Writes `out` atomically: the header, then each scan's rows (in the order of their names)
/// copied from its input's byte ranges; an input cut short meanwhile is refused.
fn copy_rows(
    out: &Path,
    raw_header: &[u8],
    bags: &std::collections::BTreeMap<String, Rows>,
    (files, inputs): (&mut [std::fs::File], &[PathBuf]),
) -> Result<()> {
    use std::io::{Read, Seek, SeekFrom, Write};
    let mut f = milbase::atomic::NewFile::create(out).map_err(|e| Error::io(out, e))?;
    {
        let mut w = BufWriter::new(f.file());
        let io = |e| Error::io(out, e);
        w.write_all(raw_header).map_err(io)?;
        for (fi, ranges) in bags.values() {
            for &(a, b) in ranges {
                let src = &mut files[*fi];
                src.seek(SeekFrom::Start(a))
                    .map_err(|e| Error::io(&inputs[*fi], e))?;
                let n = std::io::copy(&mut (&*src).take(b - a), &mut w)
                    .map_err(|e| Error::io(&inputs[*fi], e))?;
                if n != b - a {
                    return Err(Error::file(&inputs[*fi], "cut short while it was merged"));
                }
            }
        }
        w.flush().map_err(io)?;
    }
    f.commit().map_err(|e| Error::io(out, e))?;
    Ok(())
}

/// Joins the features files of `ich extract --shard I/N` into `out`, as one extraction of the
/// whole cohort writes it: the header once, the scans in the order of their names, each scan's
/// rows in its file's order (byte for byte what `ich extract` writes). Memory holds where each
/// scan's rows lie, not the rows: they are copied from the inputs when `out` is written. Each
/// input is read through the bounded reader (lines of at most [`milbase::bounded::MAX_LINE`]
/// bytes, files of at most [`milbase::bounded::MAX_FEATURES`]) and checked against its note's
/// rows and SHA-256 (a file cut short is refused). Refused: an `out` that is one of the inputs,
/// files with other columns than the first's, shards of other counts, a shard given twice, a
/// scan in two files, and (unless `partial`) a missing shard, named by its index. A partial
/// merge's note names the shards left out.
pub fn merge(inputs: &[PathBuf], out: &Path, partial: bool) -> Result<MergedFeatures> {
    use std::io::Read;
    if inputs.is_empty() {
        return Err(Error::Invalid("no features files to merge".into()));
    }
    refuse_out_among_inputs(inputs, out)?;
    let mut header: Option<(csv::StringRecord, Vec<u8>)> = None;
    let mut shards = Vec::new();
    let mut bags: std::collections::BTreeMap<String, Rows> = std::collections::BTreeMap::new();
    let mut stamps = Vec::new();
    let mut rows = 0;
    for (fi, path) in inputs.iter().enumerate() {
        let note = read_note(path)?;
        shards.push(read_shard_note(path)?);
        let (f, _) = milbase::bounded::open_regular(path, milbase::bounded::MAX_FEATURES)
            .map_err(|e| Error::io(path, e))?;
        stamps.push(stamp(&f).map_err(|e| Error::io(path, e))?);
        let reader = Hashing {
            inner: milbase::bounded::LineLimited::new(
                std::io::BufReader::new(f),
                milbase::bounded::MAX_LINE,
            ),
            hash: sha2::Digest::new(),
        };
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(reader);
        let h = r
            .headers()
            .map_err(|e| Error::file(path, e.to_string()))?
            .clone();
        let body = r.position().byte();
        match &header {
            None => {
                let mut raw = vec![0; body as usize];
                std::fs::File::open(path)
                    .and_then(|mut f| f.read_exact(&mut raw))
                    .map_err(|e| Error::io(path, e))?;
                header = Some((h.clone(), raw));
            }
            Some((first, _)) if first != &h => {
                return Err(Error::file(
                    path,
                    format!("other columns than {}", inputs[0].display()),
                ))
            }
            Some(_) => {}
        }
        let bag = h
            .iter()
            .position(|c| c == BAG_NAME)
            .ok_or_else(|| Error::file(path, format!("no {BAG_NAME} column")))?;
        let mut rec = csv::StringRecord::new();
        let mut file_rows = 0usize;
        loop {
            let start = r.position().byte();
            let more = r
                .read_record(&mut rec)
                .map_err(|e| Error::file(path, e.to_string()))?;
            if !more {
                break;
            }
            let end = r.position().byte();
            let name = rec
                .get(bag)
                .ok_or_else(|| Error::file(path, format!("a row without {BAG_NAME}")))?;
            let entry = bags
                .entry(name.to_string())
                .or_insert_with(|| (fi, Vec::new()));
            if entry.0 != fi {
                return Err(Error::file(
                    path,
                    format!("scan {name} is also in {}", inputs[entry.0].display()),
                ));
            }
            match entry.1.last_mut() {
                Some(last) if last.1 == start => last.1 = end,
                _ => entry.1.push((start, end)),
            }
            file_rows += 1;
        }
        // the rest of the file (nothing, for a whole one) goes through the hash too
        let mut inner = r.into_inner();
        std::io::copy(&mut inner, &mut std::io::sink()).map_err(|e| Error::io(path, e))?;
        let digest = format!("{:x}", sha2::Digest::finalize(inner.hash));
        if let Some(n) = &note {
            let cut = n.rows.is_some_and(|want| want != file_rows)
                || n.sha256.as_ref().is_some_and(|want| *want != digest);
            if cut {
                return Err(Error::file(
                    path,
                    format!(
                        "{file_rows} rows, not the {} its note {} records (or other bytes): cut \
                         short or changed since ich extract wrote it; extract that shard again",
                        n.rows.map_or("?".to_string(), |r| r.to_string()),
                        shard_note_path(path).display()
                    ),
                ));
            }
        }
        rows += file_rows;
    }
    let count = shards[0].count;
    if let Some((p, s)) = inputs.iter().zip(&shards).find(|(_, s)| s.count != count) {
        return Err(Error::file(
            p,
            format!("shard {s} is not one of {count} as the first file's"),
        ));
    }
    let missing = milbase::shard::check_coverage(&shards, count, partial, "ich extract")
        .map_err(Error::Invalid)?;
    let (_, raw_header) = header.expect("one file was read");
    let mut files = Vec::new();
    for (p, st) in inputs.iter().zip(&stamps) {
        let (f, _) = milbase::bounded::open_regular(p, milbase::bounded::MAX_FEATURES)
            .map_err(|e| Error::io(p, e))?;
        if stamp(&f).map_err(|e| Error::io(p, e))? != *st {
            return Err(Error::file(p, "changed while it was merged; merge again"));
        }
        files.push(f);
    }
    let _lock = lock_features_file(out, "merge")?;
    copy_rows(out, &raw_header, &bags, (&mut files, inputs))?;
    write_shard_note(out, milbase::Shard::ALL, rows, &missing)?;
    Ok(MergedFeatures {
        files: inputs.len(),
        scans: bags.len(),
        rows,
        shard_count: count,
        missing_shards: missing,
    })
}

/// What tells a file's version apart: its length and modification time.
fn stamp(f: &std::fs::File) -> std::io::Result<(u64, Option<std::time::SystemTime>)> {
    let m = f.metadata()?;
    Ok((m.len(), m.modified().ok()))
}

/// Reads a feature table, detecting the format: a header with `bag_name` and `feature_*` columns
/// (the features file and `../shared/data/ich-features/`), or the header-less MIL benchmark CSV
/// (bag label, bag id, features).
pub fn read(path: &Path) -> Result<MilData> {
    let text = milbase::bounded::read_regular_table(path, milbase::bounded::MAX_FEATURES)
        .map_err(|e| Error::io(path, e))?;
    let first = text.lines().next().unwrap_or("");
    if first.split(',').any(|c| c.trim() == BAG_NAME) {
        read_named(path, &text)
    } else {
        read_mil_benchmark(path, &text)
    }
}

fn parse_label(path: &Path, line: usize, s: &str) -> Result<u8> {
    match s.trim() {
        "0" | "0.0" | "False" | "false" => Ok(0),
        "1" | "1.0" | "True" | "true" => Ok(1),
        o => Err(Error::file(
            path,
            format!("line {line}: label '{o}' is not 0 or 1"),
        )),
    }
}

fn parse_f64(path: &Path, line: usize, col: &str, s: &str) -> Result<f64> {
    s.trim().parse::<f64>().map_err(|_| {
        Error::file(
            path,
            format!("line {line}, column {col}: '{s}' is not a number"),
        )
    })
}

/// Named-column CSV (the schema above); columns in any order, unknown columns ignored.
fn read_named(path: &Path, text: &str) -> Result<MilData> {
    let err = |d: String| Error::file(path, d);
    let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers = rdr.headers().map_err(|e| err(e.to_string()))?.clone();
    let col = |name: &str| headers.iter().position(|h| h.trim() == name);
    let bag_col = col(BAG_NAME).ok_or_else(|| err(format!("no {BAG_NAME} column")))?;
    let label_col = col(BAG_LABEL).ok_or_else(|| err(format!("no {BAG_LABEL} column")))?;
    let mut feats: Vec<(usize, usize)> = headers
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            h.trim()
                .strip_prefix(FEATURE_PREFIX)
                .and_then(|k| k.parse().ok())
                .map(|k| (k, i))
        })
        .collect();
    feats.sort();
    if feats.is_empty() || feats.iter().enumerate().any(|(j, (k, _))| *k != j) {
        return Err(err(
            "feature columns must be feature_0 … feature_{D-1}".into()
        ));
    }
    let d = feats.len();
    let inst_name_col = col(INSTANCE_NAME);
    let inst_label_col = col(INSTANCE_LABEL);
    let extra_cols: Vec<(String, usize)> = BAG_EXTRA
        .iter()
        .filter_map(|n| col(n).map(|c| (n.to_string(), c)))
        .collect();
    let mut x = Vec::new();
    let mut bag_names = Vec::new();
    let mut bag_labels = Vec::new();
    let mut inst_names = Vec::new();
    let mut inst_labels: Vec<Option<u8>> = Vec::new();
    let mut extra_by_bag: HashMap<String, HashMap<String, f64>> = HashMap::new();
    let subtypes_col = col(BAG_SUBTYPES);
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| err(e.to_string()))?;
        let get = |c: usize| {
            rec.get(c)
                .ok_or_else(|| err(format!("line {line}: too few columns")))
        };
        for (k, c) in &feats {
            x.push(parse_f64(
                path,
                line,
                &format!("{FEATURE_PREFIX}{k}"),
                get(*c)?,
            )?);
        }
        let bag = get(bag_col)?.to_string();
        bag_labels.push(parse_label(path, line, get(label_col)?)?);
        inst_names.push(match inst_name_col {
            Some(c) => get(c)?.to_string(),
            None => format!("{bag}#{i}"),
        });
        inst_labels.push(match inst_label_col {
            Some(c) if !get(c)?.trim().is_empty() => Some(parse_label(path, line, get(c)?)?),
            _ => None,
        });
        let mut e = HashMap::new();
        for (name, c) in &extra_cols {
            e.insert(name.clone(), parse_f64(path, line, name, get(*c)?)?);
        }
        if let Some(c) = subtypes_col {
            let cell = get(c)?.trim();
            let has = subtypes_in(cell);
            for name in SUBTYPES {
                let v = if cell.is_empty() {
                    f64::NAN
                } else {
                    f64::from(u8::from(has.contains(&name)))
                };
                e.insert(subtype_key(name), v);
            }
        }
        extra_by_bag.entry(bag.clone()).or_insert(e);
        bag_names.push(bag);
    }
    if bag_names.is_empty() {
        return Err(err("no instances".into()));
    }
    let labels: Option<Vec<u8>> = inst_labels.into_iter().collect();
    let mut data = MilData::from_instances(d, x, bag_names, bag_labels, labels, inst_names)
        .map_err(|e| err(e.to_string()))?;
    let mut keys: Vec<String> = extra_cols.iter().map(|(n, _)| n.clone()).collect();
    if subtypes_col.is_some() {
        keys.extend(SUBTYPES.map(subtype_key));
    }
    for name in &keys {
        let v = data
            .bags
            .iter()
            .map(|b| extra_by_bag[&b.name][name])
            .collect();
        data.bag_extra.insert(name.clone(), v);
    }
    Ok(data)
}

/// Header-less MIL benchmark CSV: column 0 bag label, column 1 bag id, the rest features.
fn read_mil_benchmark(path: &Path, text: &str) -> Result<MilData> {
    let mut x = Vec::new();
    let mut bag_names = Vec::new();
    let mut bag_labels = Vec::new();
    let mut d = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split(',').collect();
        if cols.len() < 3 {
            return Err(Error::file(
                path,
                format!("line {}: expected label, bag id and features", i + 1),
            ));
        }
        let nd = cols.len() - 2;
        if *d.get_or_insert(nd) != nd {
            return Err(Error::file(
                path,
                format!(
                    "line {}: {nd} features, earlier lines had {}",
                    i + 1,
                    d.unwrap_or(0)
                ),
            ));
        }
        bag_labels.push(parse_label(path, i + 1, cols[0])?);
        bag_names.push(cols[1].trim().to_string());
        for (k, c) in cols[2..].iter().enumerate() {
            x.push(parse_f64(path, i + 1, &format!("{}", k + 2), c)?);
        }
    }
    let d = d.ok_or_else(|| Error::file(path, "no instances"))?;
    let names = (0..bag_names.len())
        .map(|i| format!("{}#{i}", bag_names[i]))
        .collect();
    MilData::from_instances(d, x, bag_names, bag_labels, None, names)
        .map_err(|e| Error::file(path, e.to_string()))
}

/// Reads a splits file (`split,bag,role`, role `fit`, `valid` or `test`; the format of
/// `../shared/data/splits/`): the splits in order of their number.
pub fn read_splits(path: &Path) -> Result<Vec<(usize, FixedSplit)>> {
    let err = |d: String| Error::file(path, d);
    let (f, _) = milbase::bounded::open_regular(path, milbase::bounded::MAX_TABLE)
        .map_err(|e| err(e.to_string()))?;
    let mut rdr = csv::Reader::from_reader(milbase::bounded::LineLimited::new(
        std::io::BufReader::new(f),
        milbase::bounded::MAX_LINE,
    ));
    let h = rdr.headers().map_err(|e| err(e.to_string()))?.clone();
    let col = |name: &str| {
        h.iter()
            .position(|c| c.trim() == name)
            .ok_or_else(|| err(format!("no {name} column (expected split,bag,role)")))
    };
    let (cs, cb, cr) = (col("split")?, col("bag")?, col("role")?);
    let mut splits: std::collections::BTreeMap<usize, FixedSplit> = Default::default();
    let mut seen = std::collections::HashSet::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| err(e.to_string()))?;
        let get = |c: usize| {
            rec.get(c)
                .map(str::trim)
                .ok_or_else(|| err(format!("line {line}: too few columns")))
        };
        let k: usize = get(cs)?.parse().map_err(|_| {
            err(format!(
                "line {line}: split '{}' is not a number",
                get(cs).unwrap_or("")
            ))
        })?;
        let bag = get(cb)?.to_string();
        if !seen.insert((k, bag.clone())) {
            return Err(err(format!("line {line}: bag {bag} twice in split {k}")));
        }
        let s = splits.entry(k).or_default();
        match get(cr)? {
            "fit" => s.fit.push(bag),
            "valid" => s.valid.push(bag),
            "test" => s.test.push(bag),
            other => {
                return Err(err(format!(
                    "line {line}: role '{other}' is not fit, valid or test"
                )))
            }
        }
    }
    if splits.is_empty() {
        return Err(err("no splits".into()));
    }
    Ok(splits.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn named_columns_and_benchmark_csv() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "feature_1,feature_0,instance_label,instance_name,bag_name,bag_label,bag_cnn_probability").unwrap();
        writeln!(f, "2,1,0,a0,A,1,0.9\n4,3,1,a1,A,1,0.9\n6,5,0,b0,B,0,0.2").unwrap();
        let d = read(f.path()).unwrap();
        assert_eq!((d.n, d.d), (3, 2));
        assert_eq!(d.row(1), &[3.0, 4.0]); // columns put in feature order
        assert_eq!(d.bags.len(), 2);
        assert_eq!(d.bags[0].instances, vec![0, 1]);
        assert_eq!(d.instance_labels, Some(vec![0, 1, 0]));
        assert_eq!(d.bag_extra["bag_cnn_probability"], vec![0.9, 0.2]);
        let s = d.subset(&[1]);
        assert_eq!(
            (s.n, s.bags[0].name.as_str(), s.row(0)),
            (1, "B", &[5.0, 6.0][..])
        );

        let mut g = tempfile::NamedTempFile::new().unwrap();
        writeln!(g, "1,7,0.5,1\n1,7,1.5,2\n0,8,3,4").unwrap();
        let m = read(g.path()).unwrap();
        assert_eq!((m.n, m.d, m.bags.len()), (3, 2, 2));
        assert_eq!(m.bag_labels(), vec![1, 0]);
        assert!(m.instance_labels.is_none());
    }

    #[test]
    fn non_finite_features_are_rejected_with_the_instance_named() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            f,
            "feature_0,instance_name,bag_name,bag_label\n1,s1,A,0\nNaN,s2,A,0"
        )
        .unwrap();
        let e = read(f.path()).unwrap_err().to_string();
        assert!(
            e.contains("s2") && e.contains("NaN") && e.contains(&f.path().display().to_string()),
            "{e}"
        );
        let mut g = tempfile::NamedTempFile::new().unwrap();
        writeln!(g, "feature_0,bag_name,bag_label\nx,A,0").unwrap();
        assert!(read(g.path()).unwrap_err().to_string().contains("line 2"));
    }

    #[test]
    fn the_writer_round_trips_through_the_reader_with_hostile_names() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.csv");
        let mut w = FeaturesWriter::create(&p, 2).unwrap();
        let names = ["=HYPERLINK(\"x\"),1.2\n3", "plain"];
        for (k, name) in names.iter().enumerate() {
            w.write(&FeatureRow {
                features: &[k as f32, 0.5],
                instance_name: name,
                instance_label: Some(k as u8),
                bag_name: "scan,\"a\"",
                bag_label: Some(1),
                cnn_probability: 0.75,
                cnn_attention: 0.5,
                z: Some(k as f64 * 2.5),
                instance_subtypes: [None, Some(&["subdural"][..])][k],
                bag_subtypes: Some(&["epidural", "subdural"]),
            })
            .unwrap();
        }
        assert!(w
            .write(&FeatureRow {
                features: &[1.0],
                instance_name: "short",
                instance_label: None,
                bag_name: "b",
                bag_label: None,
                cnn_probability: 0.0,
                cnn_attention: 0.0,
                z: None,
                instance_subtypes: None,
                bag_subtypes: None,
            })
            .is_err());
        assert_eq!(w.finish().unwrap(), 2);
        let d = read(&p).unwrap();
        assert_eq!((d.n, d.d, d.bags.len()), (2, 2, 1));
        assert_eq!(d.instance_names, names.map(String::from).to_vec());
        assert_eq!(d.bags[0].name, "scan,\"a\"");
        assert_eq!(d.row(1), &[1.0, 0.5]);
        assert_eq!(d.bag_extra["bag_cnn_prediction"], vec![1.0]);
        // the scan's subtypes come back as one 0/1 label per subtype
        let sub: Vec<f64> = SUBTYPES
            .iter()
            .map(|n| d.bag_extra[&subtype_key(n)][0])
            .collect();
        assert_eq!(sub, vec![1.0, 0.0, 0.0, 0.0, 1.0]);
        // no temporary file left behind
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn splits_file_reads_every_role_and_refuses_garbage() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            f,
            "split,bag,role\n0,a,fit\n0,b,valid\n0,c,test\n1,c,fit\n1,a,valid\n1,b,test"
        )
        .unwrap();
        let s = read_splits(f.path()).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].0, 1);
        assert_eq!(
            (
                s[1].1.fit.clone(),
                s[1].1.valid.clone(),
                s[1].1.test.clone()
            ),
            (
                vec!["c".to_string()],
                vec!["a".to_string()],
                vec!["b".to_string()]
            )
        );
        for bad in [
            "split,bag,role\n0,a,train\n",
            "split,bag\n0,a\n",
            "split,bag,role\nx,a,fit\n",
            "split,bag,role\n0,a,fit\n0,a,test\n",
        ] {
            let mut g = tempfile::NamedTempFile::new().unwrap();
            write!(g, "{bad}").unwrap();
            assert!(read_splits(g.path()).is_err(), "{bad}");
        }
    }

    /// The shared splits are read exactly: every bag of MUSK1 once per split, the roles as the
    /// file says (test = one fifth, valid = a fifth of the rest).
    #[test]
    fn shared_splits_reproduce_exactly() {
        let Some(p) = testkit::shared_data_or_skip("splits/musk1_5split.csv") else {
            return;
        };
        let s = read_splits(&p).unwrap();
        assert_eq!(
            s.iter().map(|x| x.0).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4]
        );
        let text = std::fs::read_to_string(&p).unwrap();
        for (k, sp) in &s {
            for (role, names) in [("fit", &sp.fit), ("valid", &sp.valid), ("test", &sp.test)] {
                let want: Vec<String> = text
                    .lines()
                    .skip(1)
                    .filter_map(|l| {
                        let c: Vec<&str> = l.split(',').collect();
                        (c[0] == k.to_string() && c[2] == role).then(|| c[1].to_string())
                    })
                    .collect();
                assert_eq!(names, &want, "split {k} {role}");
            }
            assert_eq!(sp.fit.len() + sp.valid.len() + sp.test.len(), 92);
        }
    }
}
