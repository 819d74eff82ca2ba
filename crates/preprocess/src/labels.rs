//! Scan and slice labels: the project's `labels.csv` / `slice_labels.csv`, and the RSNA 2019
//! challenge's `stage_2_train.csv`.
//!
//! | file | header | key |
//! |---|---|---|
//! | `labels.csv` | `scan,study_instance_uid,series_instance_uid,label` | study and series UID (series alone where the study cell is empty or the column absent) |
//! | `slice_labels.csv` | `sop_instance_uid,label,subtype` | SOPInstanceUID |
//! | RSNA `stage_2_train.csv` | `ID,Label`, IDs `ID_<sop>_<subtype>` | `ID_<sop>` (the RSNA SOPInstanceUID) |
//! | NIfTI scan labels | `nifti,label` | the file's path under its input, e.g. `sub-01/ct.nii.gz` |
//! | NIfTI slice labels | `nifti,slice,label` (and `subtype`) | that path and the slice's index along the file's slice axis, as stored (0-based) |
//!
//! A volume file of any format ([`crate::source::VolumeFormat`]) is labelled by its name as a
//! NIfTI file is, in a column headed with the format's name in lower case (`nifti`).
//!
//! In RSNA files the `any` rows give the slice label, the other subtypes the slice's subtypes; a
//! scan is positive when any of its slices is.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

use crate::error::{Error, Result};

/// One slice's label.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SliceLabel {
    pub label: u8,
    /// Subtypes present, `;`-separated (empty when none or unknown).
    pub subtype: String,
}

/// Labels loaded from any number of files.
#[derive(Debug, Default, Clone)]
pub struct Labels {
    /// (StudyInstanceUID or "" for any study, SeriesInstanceUID) → label.
    scans: HashMap<(String, String), u8>,
    slices: HashMap<String, SliceLabel>,
    /// Volume name (NIfTI; see [`crate::source::Volume::name`]) → scan label.
    volume_scans: HashMap<String, u8>,
    /// (volume name, slice index in the file) → slice label.
    volume_slices: HashMap<(String, usize), SliceLabel>,
    /// Volume name → the row labelling its highest slice index: (index, file, line), so that a
    /// row beyond the volume (a 1-based index, another file's row) fails its scan by name.
    volume_last: HashMap<String, (usize, std::path::PathBuf, u64)>,
    /// Rows kept so far, against [`MAX_LABEL_ROWS`].
    rows: usize,
    /// Only the rows of these scans are kept ([`Labels::only`]); None: every row.
    wanted: Option<Wanted>,
    /// Files to read for each batch of scans, keeping that batch's rows ([`Labels::files`]).
    deferred: Vec<std::path::PathBuf>,
}

/// The keys of a run's own scans: the labels rows a run needs. A labels file of a whole cohort
/// (RSNA's 752,803 slices, or millions more) then costs the run's rows, not the file's.
#[derive(Debug, Default, Clone)]
pub struct Wanted {
    /// SOPInstanceUIDs of the slices.
    pub sops: HashSet<String>,
    /// SeriesInstanceUIDs of the scans (a scan row is kept under any study: a row naming the
    /// series under another study is reported as such).
    pub series: HashSet<String>,
    /// Volume scans (NIfTI) by their names.
    pub volumes: HashSet<String>,
}

impl Wanted {
    /// The keys of `scans`.
    pub fn of(scans: &[crate::scan::Scan]) -> Self {
        let mut w = Wanted::default();
        for s in scans {
            match s.source.volume_name() {
                Some(n) => {
                    w.volumes.insert(n.to_string());
                }
                None => {
                    w.series.insert(s.series_uid.clone());
                    w.sops.extend(s.slices.iter().map(|h| h.sop_uid.clone()));
                }
            }
        }
        w
    }

    /// A slice's row, by its SOPInstanceUID or RSNA's `ID_`-prefixed form of it.
    fn sop(&self, key: &str) -> bool {
        self.sops.contains(key)
            || key
                .strip_prefix("ID_")
                .is_some_and(|k| self.sops.contains(k))
    }
}

/// The most label rows one run keeps (slices, scans and volume rows together, over every labels
/// file): RSNA's 752,803 slices fit many times over; a file of more is refused by name rather
/// than held in memory without bound (a row costs about 150 bytes held).
pub const MAX_LABEL_ROWS: usize = 10_000_000;

/// The hemorrhage subtypes a subtype cell may name (RSNA's names, in RSNA's order).
pub const SUBTYPE_NAMES: [&str; 5] = [
    "epidural",
    "intraparenchymal",
    "intraventricular",
    "subarachnoid",
    "subdural",
];

/// The subtypes a cell names: None when the cell is empty (unknown), the empty set for `none`,
/// else the named subtypes (any case; separated by `;`, `|`, `,` or spaces). A word that is no
/// subtype (a typo would turn a known subtype into 0), and `none` beside a subtype, are refused
/// naming the line; so are subtypes on a slice labelled 0, and `none` on one labelled 1.
fn parse_subtypes(
    path: &Path,
    line: u64,
    label: u8,
    cell: &str,
) -> Result<Option<BTreeSet<&'static str>>> {
    let words: Vec<String> = cell
        .split(|c: char| c == ';' || c == '|' || c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    if words.is_empty() {
        return Ok(None);
    }
    let mut set = BTreeSet::new();
    let mut none = false;
    for w in &words {
        if w == "none" {
            none = true;
        } else if let Some(&n) = SUBTYPE_NAMES.iter().find(|n| **n == w.as_str()) {
            set.insert(n);
        } else {
            return Err(Error::format(
                path,
                format!(
                    "line {line}: subtype '{w}' is not one of {} or none",
                    SUBTYPE_NAMES.join(", ")
                ),
            ));
        }
    }
    if none && !set.is_empty() {
        return Err(Error::format(
            path,
            format!("line {line}: subtype cell '{cell}' says none and names subtypes"),
        ));
    }
    if label == 0 && !set.is_empty() {
        return Err(Error::format(
            path,
            format!(
                "line {line}: labelled 0 but with subtype(s) {}: a slice without bleed has none",
                set.iter().copied().collect::<Vec<_>>().join(";")
            ),
        ));
    }
    if label == 1 && none {
        return Err(Error::format(
            path,
            format!("line {line}: labelled 1 but with subtype none: a bleed has a subtype"),
        ));
    }
    Ok(Some(set))
}

/// Two rows of one slice whose subtypes, both known, differ.
fn subtype_conflict(path: &Path, line: u64, what: &str, before: &str, now: &str) -> Error {
    Error::format(
        path,
        format!(
            "line {line}: {what} has subtype(s) '{now}' here but '{before}' on an earlier row; \
             conflicting labels are not used (fix the file)"
        ),
    )
}

const RSNA_SUBTYPES: [&str; 6] = [
    "any",
    "epidural",
    "intraparenchymal",
    "intraventricular",
    "subarachnoid",
    "subdural",
];

fn parse_label(path: &Path, line: u64, s: &str) -> Result<u8> {
    match s.trim() {
        "0" | "0.0" => Ok(0),
        "1" | "1.0" => Ok(1),
        other => Err(Error::format(
            path,
            format!("line {line}: label '{other}' is not 0 or 1"),
        )),
    }
}

/// What a labels file holds, told by its columns.
#[derive(Clone, Copy)]
enum Kind {
    VolumeSlice {
        name: usize,
        slice: usize,
        label: usize,
        subtype: Option<usize>,
    },
    VolumeScan {
        name: usize,
        label: usize,
    },
    Scan {
        study: Option<usize>,
        series: usize,
        label: usize,
    },
    Slice {
        sop: usize,
        label: usize,
        subtype: Option<usize>,
    },
    Rsna {
        id: usize,
        label: usize,
    },
}

impl Kind {
    fn of(path: &Path, headers: &csv::StringRecord) -> Result<Kind> {
        let col = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
        // a volume file's name, in a column named for its format (`nifti`)
        let volume = crate::VOLUME_FORMATS
            .iter()
            .find_map(|f| col(&f.name().to_ascii_lowercase()));
        Ok(
            if let (Some(name), Some(slice), Some(label)) = (volume, col("slice"), col("label")) {
                Kind::VolumeSlice {
                    name,
                    slice,
                    label,
                    subtype: col("subtype"),
                }
            } else if let (Some(name), Some(label)) = (volume, col("label")) {
                Kind::VolumeScan { name, label }
            } else if let (Some(series), Some(label)) = (col("series_instance_uid"), col("label")) {
                Kind::Scan {
                    study: col("study_instance_uid"),
                    series,
                    label,
                }
            } else if let (Some(sop), Some(label)) = (col("sop_instance_uid"), col("label")) {
                Kind::Slice {
                    sop,
                    label,
                    subtype: col("subtype"),
                }
            } else if let (Some(id), Some(label)) = (col("ID"), col("Label")) {
                Kind::Rsna { id, label }
            } else {
                return Err(Error::format(
                    path,
                    "unknown labels file: expected columns series_instance_uid,label \
                 (labels.csv), sop_instance_uid,label (slice_labels.csv), ID,Label (RSNA), \
                 nifti,label (NIfTI scans) or nifti,slice,label (NIfTI slices)",
                ));
            },
        )
    }
}

/// Column `c` of a row, or an error naming the file and line.
fn field<'r>(rec: &'r csv::StringRecord, path: &Path, line: u64, c: usize) -> Result<&'r str> {
    rec.get(c)
        .ok_or_else(|| Error::format(path, format!("line {line}: missing column {}", c + 1)))
}

impl Labels {
    /// Labels that keep only the rows of `wanted`'s scans as files are loaded; every row is
    /// still checked (a malformed row anywhere fails the file, naming its line).
    pub fn only(wanted: Wanted) -> Self {
        Labels {
            wanted: Some(wanted),
            ..Labels::default()
        }
    }

    /// Labels files read once the scans they label are known, for each batch of scans a run
    /// processes ([`Labels::for_scans`]), keeping only that batch's rows: a cohort's file (RSNA's
    /// 752,803 slices, or millions more) costs a batch's rows, not the file's. Each file is
    /// checked whole on every read. Only the files' existence is checked here.
    pub fn files(paths: Vec<std::path::PathBuf>) -> Result<Self> {
        for p in &paths {
            std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
        }
        Ok(Labels {
            deferred: paths,
            ..Labels::default()
        })
    }

    /// The labels of `scans`: these labels themselves, or, for labels made by [`Labels::files`],
    /// the files' rows of these scans (read now), joined with any rows loaded already.
    pub fn for_scans(&self, scans: &[crate::scan::Scan]) -> Result<std::borrow::Cow<'_, Self>> {
        if self.deferred.is_empty() {
            return Ok(std::borrow::Cow::Borrowed(self));
        }
        let mut l = Labels::only(Wanted::of(scans));
        for f in &self.deferred {
            l.load(f)?;
        }
        l.scans
            .extend(self.scans.iter().map(|(k, v)| (k.clone(), *v)));
        l.slices
            .extend(self.slices.iter().map(|(k, v)| (k.clone(), v.clone())));
        l.volume_scans
            .extend(self.volume_scans.iter().map(|(k, v)| (k.clone(), *v)));
        l.volume_slices.extend(
            self.volume_slices
                .iter()
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        l.volume_last
            .extend(self.volume_last.iter().map(|(k, v)| (k.clone(), v.clone())));
        Ok(std::borrow::Cow::Owned(l))
    }

    /// Whether labels files wait to be read for each batch ([`Labels::files`]).
    pub fn has_files(&self) -> bool {
        !self.deferred.is_empty()
    }

    fn wants(&self, f: impl Fn(&Wanted) -> bool) -> bool {
        self.wanted.as_ref().is_none_or(f)
    }

    pub fn is_empty(&self) -> bool {
        self.scans.is_empty()
            && self.slices.is_empty()
            && self.volume_scans.is_empty()
            && self.volume_slices.is_empty()
    }
    pub fn n_scans(&self) -> usize {
        self.scans.len() + self.volume_scans.len()
    }
    pub fn n_slices(&self) -> usize {
        self.slices.len() + self.volume_slices.len()
    }

    /// A volume's slice label by the file's name and the slice's index in it.
    pub fn volume_slice(&self, name: &str, index: usize) -> Option<&SliceLabel> {
        self.volume_slices.get(&(name.to_string(), index))
    }

    /// A volume scan's label: its row in a `nifti,label` file, else the max of its slice labels
    /// when every slice has one (as for DICOM).
    pub fn volume_scan(&self, name: &str, slice_labels: &[Option<u8>]) -> Option<u8> {
        self.volume_scans
            .get(name)
            .copied()
            .or_else(|| from_slices(slice_labels))
    }

    /// The row of a volume file's slice labels whose index lies beyond the file's `n` slices, as
    /// a message naming the labels file and line (the scan's labels cannot be trusted then: a
    /// positive row dropped would make a bleed negative).
    pub fn volume_beyond(&self, name: &str, n: usize) -> Option<String> {
        let (k, path, line) = self.volume_last.get(name)?;
        (*k >= n).then(|| {
            format!(
                "{} line {line}: slice {k} of {name} is beyond its {n} slices (indices are \
                 0-based, 0 to {})",
                path.display(),
                n.saturating_sub(1)
            )
        })
    }

    /// Counts one more row kept, refusing past [`MAX_LABEL_ROWS`].
    fn count_row(&mut self, path: &Path, line: u64) -> Result<()> {
        self.rows += 1;
        if self.rows > MAX_LABEL_ROWS {
            return Err(Error::format(
                path,
                format!(
                    "line {line}: more than {MAX_LABEL_ROWS} label rows in this run's labels \
                     files: split the cohort"
                ),
            ));
        }
        Ok(())
    }

    /// Loads one labels file, detecting its kind from the header.
    pub fn load(&mut self, path: &Path) -> Result<()> {
        let mut rdr = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(
            milbase::bounded::LineLimited::new(
                std::io::BufReader::new(
                    milbase::bounded::open_regular(path, milbase::bounded::MAX_TABLE)
                        .map_err(|e| Error::format(path, e.to_string()))?
                        .0,
                ),
                milbase::bounded::MAX_LINE,
            ),
        );
        let headers = rdr
            .headers()
            .map_err(|e| Error::format(path, e.to_string()))?
            .clone();
        let kind = Kind::of(path, &headers)?;
        let mut rsna: HashMap<String, (Option<u8>, BTreeSet<String>)> = HashMap::new();
        for (i, rec) in rdr.records().enumerate() {
            let line = i as u64 + 2;
            let rec = rec.map_err(|e| Error::format(path, e.to_string()))?;
            let row = (path, line, &rec);
            match kind {
                Kind::VolumeScan { name, label } => self.volume_scan_row(row, name, label)?,
                Kind::VolumeSlice {
                    name,
                    slice,
                    label,
                    subtype,
                } => self.volume_slice_row(row, name, slice, label, subtype)?,
                Kind::Scan {
                    study,
                    series,
                    label,
                } => self.scan_row(row, study, series, label)?,
                Kind::Slice {
                    sop,
                    label,
                    subtype,
                } => self.slice_row(row, sop, label, subtype)?,
                Kind::Rsna { id, label } => self.rsna_row(row, id, label, &mut rsna)?,
            }
        }
        for (sop, (any, subs)) in rsna {
            let label = any.unwrap_or(u8::from(!subs.is_empty()));
            let subtype = subs.into_iter().collect::<Vec<_>>().join(";");
            self.slices.insert(sop, SliceLabel { label, subtype });
        }
        Ok(())
    }

    /// One row of a volume scans file (`nifti,label`).
    fn volume_scan_row(
        &mut self,
        (path, line, rec): (&Path, u64, &csv::StringRecord),
        name: usize,
        label: usize,
    ) -> Result<()> {
        let get = |c: usize| field(rec, path, line, c);
        let l = parse_label(path, line, get(label)?)?;
        let key = get(name)?;
        if !self.wants(|w| w.volumes.contains(key)) {
            return Ok(());
        }
        if let Some(&before) = self.volume_scans.get(key) {
            if before != l {
                return Err(conflict(path, line, "volume scan", key, before, l));
            }
        }
        if self.volume_scans.insert(key.to_string(), l).is_none() {
            self.count_row(path, line)?;
        }
        Ok(())
    }

    /// One row of a volume slices file (`nifti,slice,label[,subtype]`).
    fn volume_slice_row(
        &mut self,
        (path, line, rec): (&Path, u64, &csv::StringRecord),
        name: usize,
        slice: usize,
        label: usize,
        subtype: Option<usize>,
    ) -> Result<()> {
        let get = |c: usize| field(rec, path, line, c);
        let l = parse_label(path, line, get(label)?)?;
        let key = get(name)?;
        let k: usize = get(slice)?.parse().map_err(|_| {
            Error::format(
                path,
                format!(
                    "line {line}: slice '{}' is not an index (0, 1, 2, …)",
                    rec.get(slice).unwrap_or("")
                ),
            )
        })?;
        let subtype = match subtype {
            Some(c) => get(c)?.to_string(),
            None => String::new(),
        };
        let subs = parse_subtypes(path, line, l, &subtype)?;
        if !self.wants(|w| w.volumes.contains(key)) {
            return Ok(());
        }
        let both = (key.to_string(), k);
        let what = format!("volume {key} slice {k}");
        let before = self.volume_slices.get(&both);
        let new = before.is_none();
        let names = ("volume slice", what.as_str(), what.as_str());
        let subtype = again((path, line), names, before, (l, subtype, &subs))?;
        if new {
            self.count_row(path, line)?;
        }
        let last = self
            .volume_last
            .entry(key.to_string())
            .or_insert((k, path.to_path_buf(), line));
        if k > last.0 {
            *last = (k, path.to_path_buf(), line);
        }
        self.volume_slices
            .insert(both, SliceLabel { label: l, subtype });
        Ok(())
    }

    /// One row of a scans file (`[study_instance_uid,]series_instance_uid,label`).
    fn scan_row(
        &mut self,
        (path, line, rec): (&Path, u64, &csv::StringRecord),
        study: Option<usize>,
        series: usize,
        label: usize,
    ) -> Result<()> {
        let get = |c: usize| field(rec, path, line, c);
        let l = parse_label(path, line, get(label)?)?;
        let key = get(series)?;
        let study = match study {
            Some(c) => get(c)?,
            None => "",
        };
        if !self.wants(|w| w.series.contains(key)) {
            return Ok(());
        }
        let both = (study.to_string(), key.to_string());
        if let Some(&before) = self.scans.get(&both) {
            if before != l {
                return Err(conflict(path, line, "series", key, before, l));
            }
        }
        if self.scans.insert(both, l).is_none() {
            self.count_row(path, line)?;
        }
        Ok(())
    }

    /// One row of a slices file (`sop_instance_uid,label[,subtype]`).
    fn slice_row(
        &mut self,
        (path, line, rec): (&Path, u64, &csv::StringRecord),
        sop: usize,
        label: usize,
        subtype: Option<usize>,
    ) -> Result<()> {
        let get = |c: usize| field(rec, path, line, c);
        let l = parse_label(path, line, get(label)?)?;
        let subtype = match subtype {
            Some(c) => get(c)?.to_string(),
            None => String::new(),
        };
        let subs = parse_subtypes(path, line, l, &subtype)?;
        let key = get(sop)?;
        if !self.wants(|w| w.sop(key)) {
            return Ok(());
        }
        let before = self.slices.get(key);
        let new = before.is_none();
        let named = format!("slice {key}");
        let names = ("slice", key, named.as_str());
        let subtype = again((path, line), names, before, (l, subtype, &subs))?;
        if new {
            self.count_row(path, line)?;
        }
        self.slices
            .insert(key.to_string(), SliceLabel { label: l, subtype });
        Ok(())
    }

    /// One row of RSNA's file (`ID,Label`: `ID_<sop>_<subtype>`), gathered in `rsna` until the file ends.
    fn rsna_row(
        &mut self,
        (path, line, rec): (&Path, u64, &csv::StringRecord),
        id: usize,
        label: usize,
        rsna: &mut HashMap<String, (Option<u8>, BTreeSet<String>)>,
    ) -> Result<()> {
        let get = |c: usize| field(rec, path, line, c);
        let id = get(id)?;
        let (sop, sub) = id
            .rsplit_once('_')
            .filter(|(s, sub)| !s.is_empty() && RSNA_SUBTYPES.contains(sub))
            .ok_or_else(|| {
                Error::format(
                    path,
                    format!("line {line}: ID '{id}' is not ID_<sop>_<subtype>"),
                )
            })?;
        let l = parse_label(path, line, get(label)?)?;
        if !self.wants(|w| w.sop(sop)) {
            return Ok(());
        }
        if !rsna.contains_key(sop) {
            self.count_row(path, line)?;
        }
        let e = rsna.entry(sop.to_string()).or_default();
        if sub == "any" {
            if let Some(before) = e.0.filter(|&b| b != l) {
                return Err(conflict(path, line, "slice", sop, before, l));
            }
            if l == 0 && !e.1.is_empty() {
                return Err(Error::format(
                    path,
                    format!(
                        "line {line}: slice {sop} has any = 0 here but {} = 1 on an \
                         earlier row; conflicting labels are not used (fix the file)",
                        e.1.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            e.0 = Some(l);
        } else if l == 1 {
            if e.0 == Some(0) {
                return Err(Error::format(
                    path,
                    format!(
                        "line {line}: slice {sop} has {sub} = 1 here but any = 0 on \
                         an earlier row; conflicting labels are not used (fix the file)"
                    ),
                ));
            }
            e.1.insert(sub.to_string());
        }
        Ok(())
    }

    /// The label of a slice by SOPInstanceUID (RSNA IDs match with or without their `ID_` prefix).
    pub fn slice(&self, sop: &str) -> Option<&SliceLabel> {
        self.slices.get(sop).or_else(|| {
            sop.strip_prefix("ID_")
                .and_then(|s| self.slices.get(s))
                .or_else(|| self.slices.get(&format!("ID_{sop}")))
        })
    }

    /// The label of a scan: from a scan labels file when a row names its study and series (or
    /// its series, with no study), else positive when any of its slices is, else unknown. A row
    /// with the scan's series under another study is not this scan's ([`Labels::other_study`]).
    pub fn scan(
        &self,
        study_uid: &str,
        series_uid: &str,
        slice_labels: &[Option<u8>],
    ) -> Option<u8> {
        let key = |st: &str| (st.to_string(), series_uid.to_string());
        if let Some(l) = self
            .scans
            .get(&key(study_uid))
            .or_else(|| self.scans.get(&key("")))
        {
            return Some(*l);
        }
        from_slices(slice_labels)
    }
}

/// Positive when any labelled slice is, unknown when none has a label.
/// The label of a slab (the mean of several slices) from its slices' labels: a bleed when any
/// of them shows one (the mean shows it too), with every subtype they name (in RSNA's order);
/// no bleed when every labelled slice shows none; unknown when none is labelled. A slab's
/// unlabelled slices do not make it unknown: RSNA labels every slice, and a file that labels
/// some gives what it knows.
pub fn of_slab<'a>(slices: impl IntoIterator<Item = Option<&'a SliceLabel>>) -> Option<SliceLabel> {
    let known: Vec<&SliceLabel> = slices.into_iter().flatten().collect();
    let label = known.iter().map(|l| l.label).max()?;
    let named: BTreeSet<&str> = known
        .iter()
        .filter(|l| l.label == label)
        .flat_map(|l| l.subtype.split(';'))
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    let subtype = SUBTYPE_NAMES
        .iter()
        .filter(|n| named.contains(*n))
        .copied()
        .chain(named.iter().copied().filter(|w| !SUBTYPE_NAMES.contains(w)))
        .collect::<Vec<_>>()
        .join(";");
    Some(SliceLabel { label, subtype })
}

fn from_slices(slice_labels: &[Option<u8>]) -> Option<u8> {
    if slice_labels.iter().all(Option::is_none) {
        return None;
    }
    Some(slice_labels.iter().flatten().copied().max().unwrap_or(0))
}

impl Labels {
    /// Whether a scan labels row names this series under another study only (a row for a
    /// copied series, or a typo in the study UID): such a row labels no scan of this study.
    pub fn other_study(&self, study_uid: &str, series_uid: &str) -> bool {
        !self
            .scans
            .contains_key(&(study_uid.to_string(), series_uid.to_string()))
            && !self
                .scans
                .contains_key(&(String::new(), series_uid.to_string()))
            && self
                .scans
                .keys()
                .any(|(st, se)| se == series_uid && st != study_uid)
    }
}

/// The subtype a slice keeps when a row names it again: the label must be the one `before` gave
/// (else a conflict, naming the slice as `kind` `key`), subtypes named by both rows must agree
/// (else a conflict naming it as `named`), and a known subtype is not forgotten by a later row
/// without one.
fn again(
    (path, line): (&Path, u64),
    (kind, key, named): (&str, &str, &str),
    before: Option<&SliceLabel>,
    (label, subtype, subs): (u8, String, &Option<BTreeSet<&'static str>>),
) -> Result<String> {
    let Some(before) = before else {
        return Ok(subtype);
    };
    if before.label != label {
        return Err(conflict(path, line, kind, key, before.label, label));
    }
    match (
        parse_subtypes(path, line, before.label, &before.subtype)?,
        subs,
    ) {
        (Some(a), Some(b)) if &a != b => Err(subtype_conflict(
            path,
            line,
            named,
            &before.subtype,
            &subtype,
        )),
        (Some(_), None) => Ok(before.subtype.clone()),
        _ => Ok(subtype),
    }
}

/// Two rows that label one series or slice differently: which one is right is not ours to guess.
fn conflict(path: &Path, line: u64, what: &str, key: &str, before: u8, now: u8) -> Error {
    Error::format(
        path,
        format!(
            "line {line}: {what} {key} is labelled {now} here but {before} on an earlier row; \
             conflicting labels are not used (fix the file)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f
    }

    /// A slab is a bleed when any of its slices is, with the subtypes of its bleeding slices
    /// (in RSNA's order, each once); no bleed when every labelled slice says so; unknown with
    /// no labelled slice.
    #[test]
    fn a_slab_is_labelled_by_its_slices() {
        let l = |label: u8, subtype: &str| SliceLabel {
            label,
            subtype: subtype.into(),
        };
        let (sdh, edh_sdh, none) = (l(1, "subdural"), l(1, "epidural;subdural"), l(0, ""));
        let got = of_slab([Some(&none), Some(&sdh), None, Some(&edh_sdh)]).unwrap();
        assert_eq!(got, l(1, "epidural;subdural"));
        assert_eq!(
            of_slab([None, Some(&none), Some(&none)]),
            Some(none.clone())
        );
        assert_eq!(of_slab([None, None]), None);
        assert_eq!(
            of_slab([Some(&l(1, "subarachnoid")), Some(&l(1, "intraparenchymal"))])
                .unwrap()
                .subtype,
            "intraparenchymal;subarachnoid"
        );
    }

    /// Labels loaded for a run's scans keep their rows only, of every kind of file, and still
    /// check every row: a cohort's file costs the run's rows.
    #[test]
    fn labels_for_a_runs_scans_keep_its_rows_only_and_check_every_row() {
        let wanted = Wanted {
            sops: ["1.2.3.1", "1.2.3.2"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            series: ["1.2.3"].iter().map(|s| s.to_string()).collect(),
            volumes: ["a.nii.gz"].iter().map(|s| s.to_string()).collect(),
        };
        let mut slices = String::from("sop_instance_uid,label\n1.2.3.1,1\n");
        for k in 0..5000 {
            slices.push_str(&format!("9.9.{k},0\n"));
        }
        let mut l = Labels::only(wanted.clone());
        l.load(file(&slices).path()).unwrap();
        l.load(file("series_instance_uid,label\n1.2.3,1\n9.9,0\n").path())
            .unwrap();
        l.load(file("ID,Label\nID_1.2.3.2_any,1\nID_1.2.3.2_subdural,1\nID_9.9.1_any,0\n").path())
            .unwrap();
        l.load(file("nifti,label\na.nii.gz,0\nb.nii.gz,1\n").path())
            .unwrap();
        l.load(file("nifti,slice,label\na.nii.gz,0,0\nb.nii.gz,0,1\n").path())
            .unwrap();
        assert_eq!((l.n_slices(), l.n_scans()), (3, 2));
        assert_eq!(l.slice("1.2.3.1").unwrap().label, 1);
        assert_eq!(l.slice("1.2.3.2").unwrap().subtype, "subdural");
        assert!(l.slice("9.9.0").is_none() && l.volume_slice("b.nii.gz", 0).is_none());
        // every row still checked: a bad label on another scan's row fails the file
        let mut l = Labels::only(wanted);
        let e = l
            .load(file("sop_instance_uid,label\n1.2.3.1,1\n9.9.9,2\n").path())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3") && e.contains("'2'"), "{e}");
        // without a run's scans, every row is kept
        let mut all = Labels::default();
        all.load(file(&slices).path()).unwrap();
        assert_eq!(all.n_slices(), 5001);
    }

    #[test]
    fn conflicting_rows_are_refused_naming_the_line_and_identical_ones_are_kept() {
        let f =
            file("scan,study_instance_uid,series_instance_uid,label\na,s,1.2.3,1\na,s,1.2.3,1\n");
        let mut l = Labels::default();
        l.load(f.path()).unwrap();
        assert_eq!(l.scans.get(&("s".into(), "1.2.3".into())), Some(&1));
        let f =
            file("scan,study_instance_uid,series_instance_uid,label\na,s,1.2.3,1\nb,s,1.2.3,0\n");
        let e = Labels::default().load(f.path()).unwrap_err().to_string();
        assert!(
            e.contains("line 3") && e.contains("1.2.3") && e.contains("conflicting"),
            "{e}"
        );
        let f = file("scan,sop_instance_uid,label\na,9.9,0\na,9.9,1\n");
        let e = Labels::default().load(f.path()).unwrap_err().to_string();
        assert!(e.contains("line 3") && e.contains("9.9"), "{e}");
        let f = file("ID,Label\nID_abc_any,1\nID_abc_any,0\n");
        let e = Labels::default().load(f.path()).unwrap_err().to_string();
        assert!(e.contains("line 3") && e.contains("abc"), "{e}");
    }

    /// Subtype cells that contradict their label or another row, and words that are no
    /// subtype, are refused naming the line; what agrees is kept.
    #[test]
    fn contradicting_subtypes_and_unknown_words_are_refused_naming_the_line() {
        let refused = |text: &str, line: &str, words: &[&str]| {
            let f = file(text);
            let e = Labels::default().load(f.path()).unwrap_err().to_string();
            assert!(e.contains(line), "{e}");
            for w in words {
                assert!(e.contains(w), "{w:?} not in {e}");
            }
        };
        let head = "sop_instance_uid,label,subtype\n";
        // one slice, two rows, two subtypes
        refused(
            &format!("{head}1.2,1,subdural\n1.2,1,epidural\n"),
            "line 3",
            &["1.2", "epidural", "subdural"],
        );
        // a subtype on a slice without bleed; none on a bleed; none beside a subtype
        refused(
            &format!("{head}1.2,0,subdural\n"),
            "line 2",
            &["labelled 0"],
        );
        refused(&format!("{head}1.2,1,none\n"), "line 2", &["labelled 1"]);
        refused(
            &format!("{head}1.2,1,none;subdural\n"),
            "line 2",
            &["says none"],
        );
        // a typo: not read as "no subtype"
        refused(
            &format!("{head}1.3,0,\n1.2,1,subdurl\n"),
            "line 3",
            &["subdurl"],
        );
        // RSNA: any = 0 beside a subtype = 1, in either order
        refused(
            "ID,Label\nID_ab_any,0\nID_ab_subdural,1\n",
            "line 3",
            &["ab", "any = 0"],
        );
        refused(
            "ID,Label\nID_ab_subdural,1\nID_ab_any,0\n",
            "line 3",
            &["ab", "subdural"],
        );
        // NIfTI slice rows: the same checks
        refused(
            "nifti,slice,label,subtype\nct.nii,0,1,subdural\nct.nii,0,1,epidural\n",
            "line 3",
            &["ct.nii slice 0"],
        );
        // agreeing rows, any case and separator, and an unknown subtype beside a known one
        let f = file(&format!(
            "{head}1.2,1,Subdural;EPIDURAL\n1.2,1,epidural subdural\n1.2,1,\n1.4,0,none\n1.5,0,\n"
        ));
        let mut l = Labels::default();
        l.load(f.path()).unwrap();
        assert_eq!(l.slice("1.2").unwrap().label, 1);
        assert_eq!(
            crate::labels::SUBTYPE_NAMES
                .iter()
                .filter(|n| l.slice("1.2").unwrap().subtype.to_lowercase().contains(*n))
                .count(),
            2,
            "{:?}",
            l.slice("1.2")
        );
        assert_eq!(l.slice("1.4").unwrap().label, 0);
    }

    /// A NIfTI slice row beyond the volume (a 1-based index) is named with its file and line
    /// once the volume's slices are known; rows within it are not.
    #[test]
    fn a_volume_slice_row_beyond_the_volume_is_named() {
        let f = file("nifti,slice,label\nsub-01/ct.nii.gz,1,0\nsub-01/ct.nii.gz,3,1\n");
        let mut l = Labels::default();
        l.load(f.path()).unwrap();
        assert_eq!(l.volume_beyond("sub-01/ct.nii.gz", 4), None);
        let e = l.volume_beyond("sub-01/ct.nii.gz", 3).unwrap();
        assert!(
            e.contains("line 3") && e.contains("slice 3") && e.contains("its 3 slices"),
            "{e}"
        );
        assert_eq!(l.volume_beyond("other.nii", 1), None);
    }

    #[test]
    fn rsna_rows_give_slice_labels_and_subtypes() {
        let f = file(
            "ID,Label\n\
             ID_12cadc6af_epidural,0\nID_12cadc6af_intraparenchymal,1\nID_12cadc6af_intraventricular,0\n\
             ID_12cadc6af_subarachnoid,1\nID_12cadc6af_subdural,0\nID_12cadc6af_any,1\n\
             ID_38fd7baa0_epidural,0\nID_38fd7baa0_intraparenchymal,0\nID_38fd7baa0_intraventricular,0\n\
             ID_38fd7baa0_subarachnoid,0\nID_38fd7baa0_subdural,0\nID_38fd7baa0_any,0\n",
        );
        let mut l = Labels::default();
        l.load(f.path()).unwrap();
        assert_eq!(l.n_slices(), 2);
        // RSNA SOPInstanceUIDs are "ID_12cadc6af"; the bare hash matches too.
        let a = l.slice("ID_12cadc6af").unwrap();
        assert_eq!(a.label, 1);
        assert_eq!(a.subtype, "intraparenchymal;subarachnoid");
        assert_eq!(l.slice("12cadc6af"), Some(a));
        assert_eq!(l.slice("ID_38fd7baa0").unwrap().label, 0);
        assert_eq!(l.slice("ID_38fd7baa0").unwrap().subtype, "");
        // a scan is positive when any slice is
        assert_eq!(l.scan("st", "series", &[Some(0), Some(1), None]), Some(1));
        assert_eq!(l.scan("st", "series", &[Some(0), None]), Some(0));
        assert_eq!(l.scan("st", "series", &[None, None]), None);
    }

    #[test]
    fn project_files() {
        let s = file("scan,study_instance_uid,series_instance_uid,label\nscan-000,1.2,1.2.3,1\nscan-001,1.2,1.2.4,0\n");
        let sl = file("sop_instance_uid,label,subtype\n1.2.3.1,0,none\n1.2.3.2,1,subdural\n");
        let mut l = Labels::default();
        l.load(s.path()).unwrap();
        l.load(sl.path()).unwrap();
        assert_eq!(l.scan("1.2", "1.2.3", &[]), Some(1));
        assert_eq!(l.scan("1.2", "1.2.4", &[Some(1)]), Some(0)); // the scan file wins
        assert_eq!(l.slice("1.2.3.2").unwrap().subtype, "subdural");
        // the series under another study: not this scan's row
        assert_eq!(l.scan("9.9", "1.2.3", &[]), None);
        assert!(l.other_study("9.9", "1.2.3") && !l.other_study("1.2", "1.2.3"));
        // a row without its study labels the series in any study
        let any = file("series_instance_uid,label\n1.2.3,1\n");
        let mut l = Labels::default();
        l.load(any.path()).unwrap();
        assert_eq!(l.scan("9.9", "1.2.3", &[]), Some(1));
        assert!(!l.other_study("9.9", "1.2.3"));
    }

    #[test]
    fn bad_files_name_the_file_and_line() {
        let f = file("ID,Label\nID_abc_any,2\n");
        let err = Labels::default().load(f.path()).unwrap_err().to_string();
        assert!(
            err.contains(&f.path().display().to_string()) && err.contains("line 2"),
            "{err}"
        );
        let f = file("ID,Label\nnonsense,1\n");
        assert!(Labels::default()
            .load(f.path())
            .unwrap_err()
            .to_string()
            .contains("ID_<sop>_<subtype>"));
        let f = file("a,b\n1,2\n");
        assert!(Labels::default()
            .load(f.path())
            .unwrap_err()
            .to_string()
            .contains("unknown labels file"));
    }
}
