//! The hostile-input campaign through the real binary (docs/ROBUSTNESS.md): one test per class of
//! issue 37's attacks, each made here from nothing and planted beside a clean scan. Every run is
//! held to the same five promises, checked by [`Jail::run`] and [`Run::assert_kept`]:
//!
//! 1. it completes: an exit code of 0, 1 or 2 (never a signal, a panic's 101, or the 120 s
//!    watchdog);
//! 2. the clean scan is in the output;
//! 3. the hostile item is reported by its file name with the real reason;
//! 4. the process's peak resident memory is under 1 GB: `ru_maxrss` of that child from `wait4`,
//!    an upper bound (Linux counts the test process's own resident memory at the spawn in it);
//! 5. nothing is written outside `--out`: every file of the test's folder outside `out/` (the
//!    inputs, the targets of planted links, the working directory, `TMPDIR`) is unchanged.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use common::s;
use dicom_core::{DataElement, PrimitiveValue, VR};
use dicom_dictionary_std::tags;
use preprocess::ctwriter::CtSlice;
use testkit::dicom::{
    large_element_head, many_elements, nested_sequences, put_modality_lut, put_un,
    sparse_element_file, write_edited, INVALID_RESCALE,
};

/// Peak resident memory allowed to one `ich` process.
const MAX_RSS_KB: i64 = 1 << 20;
/// Wall time after which the watchdog kills a run (a hang).
const WATCHDOG: Duration = Duration::from_secs(120);

/// A test's folder: `in/` (the inputs, with a clean scan in `in/clean/`), `out/`, `outside/`
/// (where planted links point), `cwd/` (the working directory) and `tmp/` (`TMPDIR`).
struct Jail {
    _t: tempfile::TempDir,
    root: PathBuf,
}

/// What one run of `ich` did.
struct Run {
    code: Option<i32>,
    text: String,
    peak_kb: i64,
    secs: f64,
}

/// A 64² CT slice of series `series`, SOP `series.k`, at z = k mm: a disc of brain (40 HU) in
/// air, so that it shows something in every window.
fn ct(study: &str, series: &str, k: usize) -> CtSlice {
    let n = 64usize;
    let stored = (0..n * n)
        .map(|i| {
            let (y, x) = ((i / n) as f64 - 31.5, (i % n) as f64 - 31.5);
            let r = (x * x + y * y).sqrt();
            let hu = if r < 22.0 {
                40.0 + (k as f64) + (x / 4.0).round()
            } else if r < 26.0 {
                900.0
            } else {
                -1000.0
            };
            (hu + 1024.0) as i32
        })
        .collect();
    CtSlice {
        study_uid: study.into(),
        series_uid: series.into(),
        sop_uid: format!("{series}.{k}"),
        frame_of_reference_uid: format!("{study}.9"),
        instance_number: Some(k as i32 + 1),
        position: Some([0.0, 0.0, 5.0 * k as f64]),
        pixel_spacing: [0.5, 0.5],
        rows: n as u16,
        cols: n as u16,
        stored,
        ..Default::default()
    }
}

/// The clean scan's UIDs.
const CLEAN: (&str, &str) = ("2.25.100", "2.25.101");

/// Writes `slices` slices of series `series` into `dir` (`s0.dcm`, …).
fn write_series(dir: &Path, study: &str, series: &str, slices: usize) {
    fs::create_dir_all(dir).unwrap();
    for k in 0..slices {
        fs::write(
            dir.join(format!("s{k}.dcm")),
            ct(study, series, k).to_bytes().unwrap(),
        )
        .unwrap();
    }
}

/// Every file and link under `dir` with its length and modification time (links not followed).
fn tree(dir: &Path, skip: &Path, into: &mut BTreeMap<PathBuf, (u64, Option<SystemTime>)>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p == skip {
            continue;
        }
        let md = fs::symlink_metadata(&p).unwrap();
        into.insert(p.clone(), (md.len(), md.modified().ok()));
        if md.is_dir() {
            tree(&p, skip, into);
        }
    }
}

/// Every path under `dir`, as it is now (entries that vanish while they are listed, a writer's
/// temporaries renamed away, are left out).
fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                out.extend(listing(&p));
            }
            out.push(p);
        }
    }
    out
}

/// When to pause a run, and what to do while it sleeps ([`Jail::run_paused`]).
type Pause = (Box<dyn Fn() -> bool + Send>, Box<dyn FnOnce() + Send>);

impl Jail {
    /// A new folder with the clean scan (three slices) in `in/clean/`.
    fn new() -> Jail {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().to_path_buf();
        for d in ["in", "outside", "cwd", "tmp"] {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        write_series(&root.join("in/clean"), CLEAN.0, CLEAN.1, 3);
        Jail { _t: t, root }
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// `ich ARGS` with the jail's working directory and TMPDIR; the five promises' measurements.
    fn run(&self, args: &[&str]) -> Run {
        self.run_limited(args, None)
    }

    /// As [`Jail::run`], with files limited to `fsize` bytes each (`RLIMIT_FSIZE`, `SIGXFSZ`
    /// ignored: a write past it fails as on a full disk).
    fn run_limited(&self, args: &[&str], fsize: Option<u64>) -> Run {
        self.run_inner(args, fsize, None).0
    }

    /// As [`Jail::run`], with the run paused (SIGSTOP) as soon as `ready` holds (polled every
    /// millisecond), `trap` done while it sleeps, and the run resumed (SIGCONT): a holder
    /// paused past its lease (a VM pause, a stalled NFS client, a suspended job). Returns when
    /// the trap was done (None: the run ended first).
    fn run_paused(
        &self,
        args: &[&str],
        ready: impl Fn() -> bool + Send + 'static,
        trap: impl FnOnce() + Send + 'static,
    ) -> (Run, Option<SystemTime>) {
        self.run_inner(args, None, Some((Box::new(ready), Box::new(trap))))
    }

    fn run_inner(
        &self,
        args: &[&str],
        fsize: Option<u64>,
        pause: Option<Pause>,
    ) -> (Run, Option<SystemTime>) {
        let out = self.p("out");
        let mut before = BTreeMap::new();
        tree(&self.root, &out, &mut before);
        // one pipe for both, read as it comes (a pipe, not a file: a file limit does not cut
        // what the run says)
        let (mut log, w) = std::io::pipe().unwrap();
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ich"));
        cmd.args(args)
            .current_dir(self.p("cwd"))
            .env("TMPDIR", self.p("tmp"))
            .env("RUST_LOG", "warn")
            .stdin(std::process::Stdio::null())
            .stdout(w.try_clone().unwrap())
            .stderr(w);
        if let Some(limit) = fsize {
            common::limit_file_size(&mut cmd, limit);
        }
        let started = Instant::now();
        let child = cmd.spawn().expect("run ich");
        drop(cmd); // its copies of the pipe's writing end: the reader then sees the end
        let reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = std::io::Read::read_to_end(&mut log, &mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        });
        let pid = child.id() as libc::pid_t;
        let done = Arc::new(AtomicBool::new(false));
        let watch = {
            let done = done.clone();
            std::thread::spawn(move || {
                while started.elapsed() < WATCHDOG {
                    if done.load(Ordering::SeqCst) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                if !done.load(Ordering::SeqCst) {
                    // SAFETY: the child is not reaped before `done` is set
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            })
        };
        let pauser = pause.map(|(ready, trap)| {
            let done = done.clone();
            std::thread::spawn(move || {
                while !done.load(Ordering::SeqCst) {
                    if ready() {
                        // SAFETY: the child is not reaped before `done` is set (checked above;
                        // a child that exits meanwhile stays a zombie until wait4)
                        unsafe { libc::kill(pid, libc::SIGSTOP) };
                        trap();
                        let at = SystemTime::now();
                        unsafe { libc::kill(pid, libc::SIGCONT) };
                        return Some(at);
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                None
            })
        });
        let mut status = 0;
        // SAFETY: an all-zero rusage is valid; wait4 fills it for this child (WUNTRACED is not
        // asked: a child stopped by the pauser is waited for until it exits)
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        done.store(true, Ordering::SeqCst);
        assert_eq!(r, pid, "wait4");
        watch.join().unwrap();
        let paused_at = pauser.and_then(|t| t.join().unwrap());
        drop(child);
        let text = reader.join().unwrap();
        let run = Run {
            code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            text,
            peak_kb: ru.ru_maxrss,
            secs: started.elapsed().as_secs_f64(),
        };
        // the promises every run keeps
        assert!(
            run.code.is_some() && !libc::WIFSIGNALED(status),
            "ich {args:?} did not complete (signal {}, {:.0} s; the watchdog kills at {WATCHDOG:?}):\n{}",
            libc::WTERMSIG(status),
            run.secs,
            run.text
        );
        assert!(
            matches!(run.code, Some(0..=2)) && !run.text.contains("panicked"),
            "ich {args:?}: exit {:?}\n{}",
            run.code,
            run.text
        );
        assert!(
            run.peak_kb < MAX_RSS_KB,
            "ich {args:?} peaked at {} MB",
            run.peak_kb >> 10
        );
        let mut after = BTreeMap::new();
        tree(&self.root, &out, &mut after);
        assert_eq!(
            before, after,
            "ich {args:?} changed files outside --out:\n{}",
            run.text
        );
        (run, paused_at)
    }

    /// `ich ARGS` in the jail, killed (SIGKILL) as soon as `ready` holds (or after a minute).
    fn killed_when(&self, args: &[&str], ready: impl Fn() -> bool) {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ich"))
            .args(args)
            .current_dir(self.p("cwd"))
            .env("TMPDIR", self.p("tmp"))
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let t = Instant::now();
        while !ready() && t.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(1));
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// `ich preprocess in --out out --size 16` plus `extra`.
    fn preprocess(&self, extra: &[&str]) -> Run {
        let (i, o) = (self.p("in"), self.p("out"));
        let mut args = vec!["preprocess", s(&i), "--out", s(&o), "--size", "16"];
        args.extend_from_slice(extra);
        self.run(&args)
    }

    /// Scan id → the scan's JSON, of the dataset in `out/`.
    fn dataset_scans(&self) -> BTreeMap<String, serde_json::Value> {
        let out = self.p("out");
        let m = json(&out.join("dataset.json"));
        m["scans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["id"].as_str().unwrap().to_string(),
                    json(&out.join(e["meta"].as_str().unwrap())),
                )
            })
            .collect()
    }
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&fs::read(p).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn id(study: &str, series: &str) -> String {
    preprocess::scan::scan_id(study, series)
}

impl Run {
    fn code(&self, want: i32) -> &Self {
        assert_eq!(self.code, Some(want), "{}", self.text);
        self
    }

    /// Each word appears in the output (the file's name and the reason).
    fn says(&self, words: &[&str]) -> &Self {
        for w in words {
            assert!(self.text.contains(w), "no {w:?} in\n{}", self.text);
        }
        self
    }
}

/// Asserts that the dataset in `jail/out` holds the clean scan with its three slices.
fn assert_clean_kept(jail: &Jail) {
    let scans = jail.dataset_scans();
    let clean = &scans[&id(CLEAN.0, CLEAN.1)];
    assert_eq!(clean["n_slices"], 3, "{clean}");
}

/// A slice of another series with 1,800 nested sequences (a stack overflow, SIGABRT, before).
fn deeply_nested() -> Vec<u8> {
    nested_sequences(&ct("2.25.200", "2.25.201", 0).to_bytes().unwrap(), 1800).unwrap()
}

/// `slice` written to `dir/name` and changed through dicom-object.
fn edited(
    slice: &CtSlice,
    dir: &Path,
    name: &str,
    change: impl FnOnce(&mut dicom_object::DefaultDicomObject),
) {
    write_edited(slice, &dir.join(name), change).unwrap();
}

#[test]
fn thousands_of_nested_sequences_cost_their_file() {
    let j = Jail::new();
    fs::write(j.p("in/nested.dcm"), deeply_nested()).unwrap();
    j.preprocess(&[])
        .code(0)
        .says(&["nested.dcm", "nested deeper than 128"]);
    assert_clean_kept(&j);
}

#[test]
fn millions_of_empty_elements_cost_their_file() {
    let j = Jail::new();
    // 7.5 million empty elements in 57 MB: 1.6 GB in memory before; before the pixel data (the
    // header pass reads them) and after it (only the full read does)
    for (name, series, before) in [
        ("many-a.dcm", "2.25.211", true),
        ("many-b.dcm", "2.25.212", false),
    ] {
        let clean = ct("2.25.210", series, 0).to_bytes().unwrap();
        fs::write(
            j.p(&format!("in/{name}")),
            many_elements(&clean, 7_500_000, before).unwrap(),
        )
        .unwrap();
    }
    j.preprocess(&[])
        .says(&["many-a.dcm", "many-b.dcm", "More than 1000000 elements"]);
    assert_clean_kept(&j);
}

#[test]
fn attributes_stored_as_un_give_the_numbers_of_their_dictionary_vr() {
    let j = Jail::new();
    // the clean scan again under another series UID, its rescale, position and spacing stored
    // as VR UN, as some routers forward them
    let dir = j.p("in/un");
    fs::create_dir_all(&dir).unwrap();
    for k in 0..3 {
        let mut sl = ct(CLEAN.0, "2.25.102", k);
        sl.sop_uid = format!("2.25.102.{k}");
        edited(&sl, &dir, &format!("s{k}.dcm"), |o| {
            for (tag, text) in [
                (tags::RESCALE_SLOPE, "1 ".to_string()),
                (tags::RESCALE_INTERCEPT, "-1024".to_string()),
                (tags::IMAGE_POSITION_PATIENT, format!("0\\0\\{}", 5 * k)),
                (tags::PIXEL_SPACING, "0.5\\0.5 ".to_string()),
            ] {
                put_un(o, tag, &text);
            }
        });
    }
    j.preprocess(&[]).code(0);
    assert_clean_kept(&j);
    let scans = j.dataset_scans();
    let (a, b) = (
        &scans[&id(CLEAN.0, CLEAN.1)],
        &scans[&id(CLEAN.0, "2.25.102")],
    );
    assert_eq!(b["pixel_spacing"], a["pixel_spacing"]);
    assert_eq!(b["ordered_by"], a["ordered_by"]);
    let z = |m: &serde_json::Value| -> Vec<serde_json::Value> {
        m["slices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["z"].clone())
            .collect()
    };
    assert_eq!(z(b), z(a));
    // the same Hounsfield units, so the same windowed pixels (slope read as the byte 49 before)
    let ds = preprocess::Dataset::open(&j.p("out")).unwrap();
    let px = |sid: &str| {
        let e = ds.manifest.scans.iter().find(|e| e.id == sid).unwrap();
        ds.scan_pixels(e).unwrap().data
    };
    assert!(
        px(&id(CLEAN.0, CLEAN.1)) == px(&id(CLEAN.0, "2.25.102")),
        "the UN copy's pixels differ from the clean scan's"
    );
}

#[test]
fn invalid_rescale_values_and_a_modality_lut_are_refused_by_file_and_attribute() {
    let j = Jail::new();
    let dir = j.p("in/bad");
    fs::create_dir_all(&dir).unwrap();
    let cases = INVALID_RESCALE;
    for (k, (tag, v, _)) in cases.iter().enumerate() {
        edited(
            &ct("2.25.300", "2.25.301", k),
            &dir,
            &format!("bad{k}.dcm"),
            |o| {
                o.put(DataElement::new(*tag, VR::DS, PrimitiveValue::from(*v)));
            },
        );
    }
    edited(
        &ct("2.25.300", "2.25.301", 9),
        &dir,
        "lut.dcm",
        put_modality_lut,
    );
    // every file of that series refused: the scan fails, the clean one is kept
    let r = j.preprocess(&[]);
    r.code(1).says(&["no slice could be decoded"]);
    for (k, (_, _, attr)) in cases.iter().enumerate() {
        let line = r
            .text
            .lines()
            .find(|l| l.contains(&format!("bad{k}.dcm")))
            .unwrap_or_else(|| panic!("bad{k}.dcm not reported:\n{}", r.text));
        assert!(line.contains(attr), "{line}");
    }
    r.says(&["lut.dcm", "ModalityLUTSequence"]);
    let scans = j.dataset_scans();
    assert!(!scans.contains_key(&id("2.25.300", "2.25.301")));
    assert_clean_kept(&j);
}

#[test]
fn an_orientation_that_is_not_direction_cosines_orders_by_instance_number_with_a_warning() {
    let j = Jail::new();
    let dir = j.p("in/tilted");
    fs::create_dir_all(&dir).unwrap();
    for k in 0..3 {
        let mut sl = ct("2.25.400", "2.25.401", k);
        sl.orientation = Some([1e308, 0.0, 0.0, 0.0, 1e308, 0.0]);
        fs::write(dir.join(format!("s{k}.dcm")), sl.to_bytes().unwrap()).unwrap();
    }
    j.preprocess(&[]).code(0).says(&["InstanceNumber"]);
    let scans = j.dataset_scans();
    let m = &scans[&id("2.25.400", "2.25.401")];
    assert_eq!(m["ordered_by"], "instance_number", "{m}");
    assert!(m["slices"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["z"].is_null()));
    assert_clean_kept(&j);
}

#[test]
fn a_file_repeating_a_slices_uid_with_other_pixels_fails_its_scan_naming_both_files() {
    let j = Jail::new();
    let dir = j.p("in/dup");
    write_series(&dir, "2.25.500", "2.25.501", 3);
    let mut fake = ct("2.25.500", "2.25.501", 1);
    fake.stored.iter_mut().for_each(|v| *v = 3000);
    fs::write(dir.join("a-fake.dcm"), fake.to_bytes().unwrap()).unwrap();
    j.preprocess(&[])
        .code(1)
        .says(&["a-fake.dcm", "s1.dcm", "different pixel data"]);
    assert!(!j.dataset_scans().contains_key(&id("2.25.500", "2.25.501")));
    assert_clean_kept(&j);
}

/// A FIFO at `p`: a reader that opened it to read would wait for a writer forever.
fn mkfifo(p: &Path) {
    let st = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .unwrap();
    assert!(st.success());
}

/// `p` as a sparse file of `mib` MiB of zeros (nothing on disk).
fn zeros(p: &Path, mib: u64) {
    fs::File::create(p).unwrap().set_len(mib << 20).unwrap();
}

/// A slice followed by a private OB element declaring `mib` MiB, its bytes a hole of a sparse
/// file (40 kB on disk).
fn sparse(p: &Path, mib: u32) {
    sparse_element_file(p, &ct("2.25.600", "2.25.601", 0).to_bytes().unwrap(), mib).unwrap();
}

#[test]
fn a_sparse_file_declaring_a_gigabyte_element_is_too_large_at_a_bounded_cost() {
    let j = Jail::new();
    sparse(&j.p("in/sparse.dcm"), 1000);
    let r = j.preprocess(&[]);
    r.code(0).says(&["sparse.dcm", "too large"]);
    assert_clean_kept(&j);
    // with a lower ceiling it is refused before a byte is parsed (3 GB before)
    fs::remove_dir_all(j.p("out")).unwrap();
    j.preprocess(&["--max-file-mib", "10"])
        .code(0)
        .says(&["sparse.dcm", "too large"]);
    assert_clean_kept(&j);
}

#[test]
fn links_out_of_the_inputs_and_fifos_are_left_out_by_name_without_a_hang() {
    let j = Jail::new();
    // a scan reachable only through a link out of the inputs
    write_series(&j.p("outside/other"), "2.25.700", "2.25.701", 2);
    symlink("/", j.p("in/root")).unwrap();
    symlink("/proc", j.p("in/proc")).unwrap();
    symlink(j.p("outside"), j.p("in/elsewhere")).unwrap();
    mkfifo(&j.p("in/pipe.dcm"));
    let r = j.preprocess(&[]);
    r.code(0).says(&[
        "root",
        "proc",
        "elsewhere",
        "outside the given inputs",
        "pipe.dcm",
        "not a regular file",
    ]);
    assert!(r.secs < 60.0, "{:.0} s", r.secs);
    let scans = j.dataset_scans();
    assert_eq!(scans.len(), 1, "{:?}", scans.keys());
    assert_clean_kept(&j);
}

#[test]
fn labels_that_are_dev_zero_a_fifo_or_a_gigabyte_of_zeros_are_refused_by_name_without_a_hang() {
    let j = Jail::new();
    let fifo = j.p("outside/labels.csv");
    mkfifo(&fifo);
    // a sparse file of 900 MB of zeros, under the 1 GiB ceiling of a table (3.9 GB before)
    let sparse_labels = j.p("outside/sparse.csv");
    zeros(&sparse_labels, 900);
    for (labels, words) in [
        ("/dev/zero", ["/dev/zero", "not a regular file"]),
        (s(&fifo), ["labels.csv", "not a regular file"]),
        (s(&sparse_labels), ["sparse.csv", "a line longer than"]),
    ] {
        let r = j.preprocess(&["--labels", labels]);
        r.code(1).says(&words);
        assert!(r.secs < 60.0, "{:.0} s", r.secs);
        assert!(!j.p("out/dataset.json").exists());
    }
    // the same run with readable labels keeps the clean scan
    j.preprocess(&[]).code(0);
    assert_clean_kept(&j);
}

#[test]
fn output_subfolders_planted_as_links_are_not_written_through() {
    let j = Jail::new();
    fs::create_dir_all(j.p("out")).unwrap();
    fs::create_dir_all(j.p("outside/target")).unwrap();
    symlink(j.p("outside/target"), j.p("out/scans")).unwrap();
    // the jail's check finds any file written into outside/target
    j.preprocess(&[]).code(1).says(&["scans", "symbolic link"]);
    fs::remove_file(j.p("out/scans")).unwrap();
    j.preprocess(&[]).code(0);
    assert_clean_kept(&j);
}

#[test]
fn a_disk_that_fills_up_fails_the_scan_that_did_not_fit_and_the_exit_code_says_so() {
    let j = Jail::new();
    // 40 slices: an uncompressed pixel file of 40 × 3 × 16² bytes and more, over the limit
    write_series(&j.p("in/long"), "2.25.800", "2.25.801", 40);
    let o = j.p("out");
    let r = j.run_limited(
        &[
            "preprocess",
            s(&j.p("in")),
            "--out",
            s(&o),
            "--size",
            "16",
            "--uncompressed",
        ],
        Some(24 << 10),
    );
    let long = id("2.25.800", "2.25.801");
    r.code(1)
        .says(&[&long, "File too large", "1 of 2 scans failed"]);
    assert!(!j.dataset_scans().contains_key(&long));
    assert_clean_kept(&j);
    // no half-written file left behind
    let mut files = BTreeMap::new();
    tree(&o, Path::new(""), &mut files);
    assert!(
        files
            .keys()
            .all(|p| !p.file_name().unwrap().to_string_lossy().contains(".tmp")),
        "{files:?}"
    );
    // with room again the rerun resumes: the clean scan kept, the long one written
    j.preprocess(&["--uncompressed"]).code(0);
    assert_eq!(j.dataset_scans()[&long]["n_slices"], 40);
}

#[test]
fn two_runs_into_one_folder_list_both_runs_scans() {
    let j = Jail::new();
    let (o, clean) = (j.p("out"), j.p("in/clean"));
    let other = j.p("in2");
    write_series(&other, "2.25.900", "2.25.901", 2);
    let args = |inp: &Path| {
        vec![
            "preprocess".to_string(),
            s(inp).to_string(),
            "--out".into(),
            s(&o).to_string(),
            "--size".into(),
            "16".into(),
        ]
    };
    let a = args(&clean);
    j.run(&a.iter().map(String::as_str).collect::<Vec<_>>())
        .code(0);
    let b = args(&other);
    j.run(&b.iter().map(String::as_str).collect::<Vec<_>>())
        .code(0)
        .says(&["1 kept from earlier runs"]);
    let scans = j.dataset_scans();
    assert!(scans.contains_key(&id("2.25.900", "2.25.901")));
    assert_clean_kept(&j);
}

#[test]
fn conflicting_label_rows_are_refused_naming_the_line() {
    let j = Jail::new();
    let labels = j.p("outside/labels.csv");
    fs::write(
        &labels,
        format!(
            "scan,study_instance_uid,series_instance_uid,label,subtypes\n\
             a,{s},{r},0,\nb,{s},{r},1,\n",
            s = CLEAN.0,
            r = CLEAN.1
        ),
    )
    .unwrap();
    j.preprocess(&["--labels", s(&labels)])
        .code(1)
        .says(&["labels.csv", "line 3", CLEAN.1]);
    assert!(!j.p("out/dataset.json").exists());
}

// ---- predict: one small bundle shared by the tests below ----

/// A bundle trained on 8 synthetic scans of 3 slices (64², preprocessed to 32²).
fn bundle() -> &'static Path {
    static B: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &B.get_or_init(|| {
        let t = tempfile::tempdir().unwrap();
        let (raw, ds, model) = (
            t.path().join("raw"),
            t.path().join("ds"),
            t.path().join("m"),
        );
        common::synth(&raw, "8", "3", "64", "4");
        common::preprocess(&raw, &ds, "32", &[]);
        common::small_cnn(&ds, &model);
        common::gp_head(
            &model,
            &ds,
            &t.path().join("f.csv"),
            &["--inducing", "6", "--max-epochs", "5"],
        );
        (t, model)
    })
    .1
}

impl Jail {
    /// `ich predict --model BUNDLE in --out out --no-html` plus `extra`.
    fn predict(&self, model: &Path, extra: &[&str]) -> Run {
        let (i, o) = (self.p("in"), self.p("out"));
        let mut args = vec![
            "predict",
            "--model",
            s(model),
            s(&i),
            "--out",
            s(&o),
            "--no-html",
        ];
        args.extend_from_slice(extra);
        self.run(&args)
    }

    /// Scan id → its report, from `out/report.json`.
    fn reports(&self) -> BTreeMap<String, serde_json::Value> {
        json(&self.p("out/report.json"))["scans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["id"].as_str().unwrap().to_string(), r.clone()))
            .collect()
    }

    /// The clean scan is predicted, from three slices, with an SR.
    fn assert_clean_predicted(&self) {
        let r = &self.reports()[&id(CLEAN.0, CLEAN.1)];
        assert_eq!(r["n_slices"], 3, "{r}");
        assert!(r["probability"]
            .as_f64()
            .is_some_and(|p| (0.0..=1.0).contains(&p)));
        let run = json(&self.p("out/run.json"));
        assert_eq!(run["state"], "complete", "{run}");
    }
}

/// A copy of the shared bundle in `dir`.
fn bundle_copy(dir: &Path) -> PathBuf {
    let to = dir.join("model");
    fs::create_dir_all(&to).unwrap();
    for e in fs::read_dir(bundle()).unwrap().flatten() {
        if e.file_type().unwrap().is_file() {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    to
}

/// The array under `key` anywhere in `v`.
fn find_key<'a>(v: &'a mut serde_json::Value, key: &str) -> Option<&'a mut Vec<serde_json::Value>> {
    match v {
        serde_json::Value::Object(o) => {
            if o.get(key).is_some_and(|x| x.is_array()) {
                return o.get_mut(key).and_then(|x| x.as_array_mut());
            }
            o.values_mut().find_map(|x| find_key(x, key))
        }
        serde_json::Value::Array(a) => a.iter_mut().find_map(|x| find_key(x, key)),
        _ => None,
    }
}

/// Rewrites `file` of bundle `m` with `edit` and puts its new checksum in the manifest.
fn edit_with_checksum(m: &Path, file: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let p = m.join(file);
    let mut v = json(&p);
    edit(&mut v);
    fs::write(&p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let mp = m.join("manifest.json");
    let mut man = json(&mp);
    man["files"][file] = detect::bundle::sha256_file(&p).unwrap().into();
    fs::write(&mp, serde_json::to_vec_pretty(&man).unwrap()).unwrap();
}

#[test]
fn predict_a_nested_file_costs_that_file() {
    let j = Jail::new();
    fs::write(j.p("in/nested.dcm"), deeply_nested()).unwrap();
    j.predict(bundle(), &[])
        .code(0)
        .says(&["nested.dcm", "nested deeper than 128"]);
    j.assert_clean_predicted();
}

#[test]
fn predict_output_subfolders_planted_as_links_are_not_written_through() {
    let j = Jail::new();
    fs::create_dir_all(j.p("out")).unwrap();
    fs::create_dir_all(j.p("outside/target")).unwrap();
    symlink(j.p("outside/target"), j.p("out/dicom")).unwrap();
    // the jail's check finds any file written into outside/target
    // the reports are written, the DICOM results are not, and the exit code says so
    j.predict(bundle(), &[])
        .code(1)
        .says(&["DICOM results not written", "out/dicom is a symbolic link"]);
    j.assert_clean_predicted();
}

#[test]
fn predict_refuses_bundle_parts_that_are_dev_zero_fifos_or_out_of_range_by_name() {
    let j = Jail::new();
    let m = bundle_copy(&j.p("outside"));
    let gp = m.join("gp.json");
    let keep = fs::read(&gp).unwrap();
    let cfg = m.join("config.json");
    let keep_cfg = fs::read(&cfg).unwrap();
    // gp.json a link to /dev/zero (4 GB before), config.json a FIFO (a hang before)
    fs::remove_file(&gp).unwrap();
    symlink("/dev/zero", &gp).unwrap();
    j.predict(&m, &[])
        .code(1)
        .says(&["gp.json", "not a regular file"]);
    fs::remove_file(&gp).unwrap();
    fs::write(&gp, &keep).unwrap();
    fs::remove_file(&cfg).unwrap();
    mkfifo(&cfg);
    let r = j.predict(&m, &[]);
    r.code(1).says(&["config.json", "not a regular file"]);
    assert!(r.secs < 60.0);
    fs::remove_file(&cfg).unwrap();
    fs::write(&cfg, &keep_cfg).unwrap();
    // a sparse 900 MB of zeros as gp.json, then as config.json (under the 1 GiB ceiling of JSON)
    for part in [&gp, &cfg] {
        let keep = fs::read(part).unwrap();
        zeros(part, 900);
        let name = part.file_name().unwrap().to_str().unwrap();
        j.predict(&m, &[]).code(1).says(&[name]);
        fs::write(part, keep).unwrap();
    }
    fs::write(&cfg, &keep_cfg).unwrap();
    // values burn panics on, or that give certainty from nothing, with valid checksums
    edit_with_checksum(&m, "config.json", |v| {
        v["model"]["conv_dropout"] = 2.0.into();
    });
    j.predict(&m, &[])
        .code(1)
        .says(&["config.json", "conv dropout 2"]);
    fs::write(&cfg, &keep_cfg).unwrap();
    edit_with_checksum(&m, "config.json", |_| {});
    edit_with_checksum(&m, "gp.json", |v| {
        let w = find_key(v, "m_whitened").expect("a whitened mean in gp.json");
        w[0] = 1e300.into();
    });
    j.predict(&m, &[]).code(1).says(&["gp.json", "1e300"]);
    // the bundle restored predicts
    fs::write(&gp, &keep).unwrap();
    edit_with_checksum(&m, "gp.json", |_| {});
    j.predict(&m, &[]).code(0);
    j.assert_clean_predicted();
}

#[test]
fn predict_marks_what_no_model_can_read_uncertain_and_caps_the_captures() {
    let j = Jail::new();
    // an all-zero series, 1×1 slices, and 600 slices of 2×2
    let zero = j.p("in/zero");
    fs::create_dir_all(&zero).unwrap();
    for k in 0..3 {
        let mut sl = ct("2.25.1000", "2.25.1001", k);
        sl.stored.iter_mut().for_each(|v| *v = 0);
        fs::write(zero.join(format!("s{k}.dcm")), sl.to_bytes().unwrap()).unwrap();
    }
    let tiny = |dir: &str, series: &str, n: usize, side: u16| {
        let d = j.p(dir);
        fs::create_dir_all(&d).unwrap();
        for k in 0..n {
            let mut sl = ct("2.25.1100", series, k);
            sl.rows = side;
            sl.cols = side;
            sl.stored = (0..side as i32 * side as i32)
                .map(|i| 1024 + 60 * (i + k as i32))
                .collect();
            fs::write(d.join(format!("s{k:04}.dcm")), sl.to_bytes().unwrap()).unwrap();
        }
    };
    tiny("in/one", "2.25.1101", 3, 1);
    tiny("in/many", "2.25.1102", 600, 2);
    j.predict(bundle(), &[]).code(0);
    let rep = j.reports();
    let (z, one, many) = (
        &rep[&id("2.25.1000", "2.25.1001")],
        &rep[&id("2.25.1100", "2.25.1101")],
        &rep[&id("2.25.1100", "2.25.1102")],
    );
    let warned = |r: &serde_json::Value, w: &str| {
        r["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x.as_str().unwrap().contains(w))
    };
    assert!(
        z["uncertain"].as_bool().unwrap() && warned(z, "show nothing"),
        "{z}"
    );
    assert!(
        one["uncertain"].as_bool().unwrap() && warned(one, "1×1 pixels"),
        "{one}"
    );
    assert!(
        many["uncertain"].as_bool().unwrap() && warned(many, "600 slices"),
        "{many}"
    );
    // one SR per scan and at most --max-captures (20) Secondary Captures
    let dir = j.p("out/dicom").join(id("2.25.1100", "2.25.1102"));
    let n = fs::read_dir(&dir).unwrap().count();
    assert!(n <= 21, "{n} DICOM files in {}", dir.display());
    j.assert_clean_predicted();
}

#[test]
fn predict_killed_leaves_a_running_mark_and_the_rerun_completes() {
    let j = Jail::new();
    for k in 0..30 {
        write_series(
            &j.p(&format!("in/more{k}")),
            "2.25.1200",
            &format!("2.25.12{k:02}1"),
            3,
        );
    }
    let (i, o) = (j.p("in"), j.p("out"));
    j.killed_when(
        &[
            "predict",
            "--model",
            s(bundle()),
            s(&i),
            "--out",
            s(&o),
            "--no-html",
        ],
        || o.join("run.json").exists(),
    );
    let mark = json(&o.join("run.json"));
    assert_eq!(mark["state"], "running", "{mark}");
    let killed = mark["run"].as_str().unwrap().to_string();
    j.predict(bundle(), &[]).code(0);
    let mark = json(&o.join("run.json"));
    assert_eq!(mark["state"], "complete");
    assert_ne!(mark["run"], killed.as_str());
    assert_eq!(j.reports().len(), 31);
    j.assert_clean_predicted();
}

/// A DICOMweb server answering one WADO-RS request with `parts` as multipart/related, each part
/// its bytes followed by that many zero bytes (written in 1 MiB pieces: the test holds none of
/// a large study in memory).
fn serve_study(parts: Vec<(Vec<u8>, usize)>) -> String {
    use std::io::{BufRead, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let Some(Ok(mut sock)) = l.incoming().next() else {
            return;
        };
        let mut r = std::io::BufReader::new(sock.try_clone().unwrap());
        let mut line = String::new();
        while r.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
            line.clear();
        }
        let open = b"--b\r\nContent-Type: application/dicom\r\n\r\n";
        let len: usize = parts
            .iter()
            .map(|(p, z)| open.len() + p.len() + z + 2)
            .sum::<usize>()
            + 8;
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: multipart/related; type=\"application/dicom\"; boundary=b\r\nContent-Length: {len}\r\n\r\n"
        );
        let zeros = vec![0u8; 1 << 20];
        let mut send = || -> std::io::Result<()> {
            sock.write_all(head.as_bytes())?;
            for (p, z) in &parts {
                sock.write_all(open)?;
                sock.write_all(p)?;
                let mut left = *z;
                while left > 0 {
                    let n = left.min(zeros.len());
                    sock.write_all(&zeros[..n])?;
                    left -= n;
                }
                sock.write_all(b"\r\n")?;
            }
            sock.write_all(b"--b--\r\n")
        };
        let _ = send();
    });
    format!("http://127.0.0.1:{port}/dicom-web")
}

#[test]
fn predict_study_with_a_nested_instance_and_large_ones_costs_those_instances() {
    let j = Jail::new();
    // the study: three slices of another series, the deeply nested file and four files of
    // 100 MiB each (a private element; 400 MiB held three times over cost 1.2 GB before)
    let mut parts: Vec<(Vec<u8>, usize)> = (0..3)
        .map(|k| (ct("2.25.1300", "2.25.1301", k).to_bytes().unwrap(), 0))
        .collect();
    parts.insert(1, (deeply_nested(), 0));
    let big = ct("2.25.1300", "2.25.1302", 0).to_bytes().unwrap();
    for _ in 0..4 {
        parts.push((large_element_head(&big, 100).unwrap(), 100 << 20));
    }
    let url = serve_study(parts);
    let r = j.predict(
        bundle(),
        &[
            "--study",
            "2.25.1300",
            "--dicomweb",
            &url,
            "--send-timeout",
            "5",
            "--max-study-mib",
            "1024",
        ],
    );
    r.code(0).says(&[
        "00001.dcm",
        "nested deeper than 128",
        "00004.dcm",
        "over the limit",
    ]);
    let rep = j.reports();
    assert_eq!(rep[&id("2.25.1300", "2.25.1301")]["n_slices"], 3);
    j.assert_clean_predicted();
}

// ---- result identity (issue 53): two patients, one series UID ----

/// Writes 3 slices of `patient` into `dir`, with SOP UIDs `sop_prefix.k`.
fn write_patient_series(dir: &Path, study: &str, series: &str, sop_prefix: &str, patient: &str) {
    fs::create_dir_all(dir).unwrap();
    for k in 0..3 {
        let mut sl = ct(study, series, k);
        sl.sop_uid = format!("{sop_prefix}.{k}");
        sl.patient_id = patient.into();
        sl.patient_name = format!("{patient}^Name");
        fs::write(dir.join(format!("s{k}.dcm")), sl.to_bytes().unwrap()).unwrap();
    }
}

/// Every ReferencedSOPInstanceUID anywhere in `obj` (sequences walked).
fn referenced(obj: &dicom_object::InMemDicomObject, into: &mut Vec<String>) {
    use dicom_core::value::Value;
    for e in obj {
        match e.value() {
            Value::Sequence(seq) => {
                for item in seq.items() {
                    referenced(item, into);
                }
            }
            _ if e.header().tag == tags::REFERENCED_SOP_INSTANCE_UID => {
                into.push(e.to_str().unwrap().trim_end_matches('\0').to_string())
            }
            _ => {}
        }
    }
}

/// A scan's SR: (SOP Instance UID, Series Instance UID, PatientID, referenced instances), and
/// the SOP Instance UIDs of its Secondary Captures.
fn sr_of(out: &Path, scan: &str) -> ((String, String, String, Vec<String>), Vec<String>) {
    let dir = out.join("dicom").join(scan);
    let o = dicom_object::open_file(dir.join("sr.dcm")).unwrap();
    let text = |t| {
        o.element(t)
            .unwrap()
            .to_str()
            .unwrap()
            .trim_end_matches(['\0', ' '])
            .to_string()
    };
    let mut refs = Vec::new();
    referenced(&o, &mut refs);
    refs.sort();
    refs.dedup();
    let mut sc: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("sc-"))
        .map(|e| {
            dicom_object::open_file(e.path())
                .unwrap()
                .element(tags::SOP_INSTANCE_UID)
                .unwrap()
                .to_str()
                .unwrap()
                .trim_end_matches('\0')
                .to_string()
        })
        .collect();
    sc.sort();
    (
        (
            text(tags::SOP_INSTANCE_UID),
            text(tags::SERIES_INSTANCE_UID),
            text(tags::PATIENT_ID),
            refs,
        ),
        sc,
    )
}

#[test]
fn two_patients_sharing_a_series_uid_get_distinct_results_each_referencing_its_own_images() {
    let j = Jail::new();
    // two studies of two patients, one SeriesInstanceUID (a copied series, a broken modality)
    write_patient_series(&j.p("in/p1"), "2.25.7001", "2.25.7777", "2.25.7101", "PAT1");
    write_patient_series(&j.p("in/p2"), "2.25.7002", "2.25.7777", "2.25.7202", "PAT2");
    // every slice flagged, so that each scan has Secondary Captures too
    j.predict(bundle(), &["--positive-threshold", "0"]).code(0);
    j.assert_clean_predicted();
    let out = j.p("out");
    let (a, a_sc) = sr_of(&out, &id("2.25.7001", "2.25.7777"));
    let (b, b_sc) = sr_of(&out, &id("2.25.7002", "2.25.7777"));
    assert_ne!(a.0, b.0, "one SR SOP Instance UID for two patients");
    assert_ne!(a.1, b.1, "one SR series for two patients");
    assert_eq!((a.2.as_str(), b.2.as_str()), ("PAT1", "PAT2"));
    let own = |p: &str| -> Vec<String> { (0..3).map(|k| format!("{p}.{k}")).collect() };
    assert!(
        !a.3.is_empty() && a.3.iter().all(|r| own("2.25.7101").contains(r)),
        "{:?}",
        a.3
    );
    assert!(
        !b.3.is_empty() && b.3.iter().all(|r| own("2.25.7202").contains(r)),
        "{:?}",
        b.3
    );
    assert!(!a_sc.is_empty() && !b_sc.is_empty());
    assert!(a_sc.iter().all(|u| !b_sc.contains(u)), "{a_sc:?} {b_sc:?}");
    // a rerun of the same input writes the same UIDs (a PACS keeps one copy)
    let (keep_a, keep_b) = (a.clone(), b.clone());
    fs::remove_dir_all(&out).unwrap();
    j.predict(bundle(), &["--positive-threshold", "0"]).code(0);
    assert_eq!(sr_of(&out, &id("2.25.7001", "2.25.7777")).0, keep_a);
    assert_eq!(sr_of(&out, &id("2.25.7002", "2.25.7777")).0, keep_b);
    // one instance less: another result, with other UIDs
    fs::remove_file(j.p("in/p1/s2.dcm")).unwrap();
    fs::remove_dir_all(&out).unwrap();
    j.predict(bundle(), &["--positive-threshold", "0"]).code(0);
    let fewer = sr_of(&out, &id("2.25.7001", "2.25.7777")).0;
    assert_ne!(fewer.0, keep_a.0);
}

#[test]
fn a_series_whose_slices_name_two_patients_is_refused_naming_the_files_not_the_ids() {
    let j = Jail::new();
    let dir = j.p("in/mixed");
    write_patient_series(&dir, "2.25.7301", "2.25.7302", "2.25.7303", "PATA");
    // one more slice of the same study and series, of another patient
    let mut other = ct("2.25.7301", "2.25.7302", 3);
    other.sop_uid = "2.25.7303.3".into();
    other.patient_id = "PATB".into();
    fs::write(dir.join("z-other.dcm"), other.to_bytes().unwrap()).unwrap();
    let r = j.preprocess(&[]);
    r.code(1)
        .says(&["s0.dcm", "z-other.dcm", "different PatientIDs"]);
    assert!(
        !r.text.contains("PATB") && !r.text.contains("PATA"),
        "{}",
        r.text
    );
    assert!(!j
        .dataset_scans()
        .contains_key(&id("2.25.7301", "2.25.7302")));
    assert_clean_kept(&j);
    fs::remove_dir_all(j.p("out")).unwrap();
    let r = j.predict(bundle(), &[]);
    r.says(&["z-other.dcm", "different PatientIDs"]);
    assert!(!j.reports().contains_key(&id("2.25.7301", "2.25.7302")));
    assert!(!j.p("out/dicom").join(id("2.25.7301", "2.25.7302")).exists());
    j.assert_clean_predicted();
}

// ---- the writers' matrix: links planted in the output folder ----

/// The PID the next process will most likely get (Linux hands them out in order).
fn next_pid() -> u32 {
    fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .map_or(std::process::id(), |p| p + 1)
}

/// Plants in `out/` what someone with write access to a shared output folder could: at each of
/// `names` (relative to `out/`) a symbolic link to a file outside, and at every temporary name the
/// writers used to make from it (`.NAME.tmpPID`, for the next 400 PIDs) a symbolic or a hard link
/// to files outside (alternately), and a link at the folder's lock. The jail's fifth promise
/// (nothing outside `out/` changes) then fails on any write through one of them.
fn plant_links(j: &Jail, names: &[&str]) {
    let out = j.p("out");
    let (soft, hard) = (j.p("outside/victim"), j.p("outside/victim-hard"));
    fs::write(&soft, b"precious").unwrap();
    fs::write(&hard, b"precious too").unwrap();
    let first = next_pid();
    for name in names {
        let path = out.join(name);
        let dir = path.parent().unwrap();
        fs::create_dir_all(dir).unwrap();
        // a file the writer rewrites (it is in the folder already) keeps its place; the
        // temporaries' names are planted all the same
        if fs::symlink_metadata(&path).is_err() {
            symlink(
                j.p(&format!("outside/final-{}", name.replace('/', "-"))),
                &path,
            )
            .unwrap();
        }
        let base = path.file_name().unwrap().to_string_lossy().into_owned();
        for pid in first..first + 400 {
            let tmp = dir.join(format!(".{base}.tmp{pid}"));
            if pid % 2 == 0 {
                symlink(&soft, &tmp).unwrap();
            } else {
                fs::hard_link(&hard, &tmp).unwrap();
            }
        }
    }
    symlink(&soft, out.join(".ich.lock")).unwrap();
}

/// After a run into a planted folder: each of `names` is a regular file (the planted link at its
/// name replaced, not followed) and not the planted files outside (a merge's results may be hard
/// links to its inputs, by design, never to them).
fn assert_own_files(j: &Jail, names: &[&str]) {
    use std::os::unix::fs::MetadataExt;
    let inode = |p: &Path| {
        let m = fs::metadata(p).unwrap();
        (m.dev(), m.ino())
    };
    let victims = [
        inode(&j.p("outside/victim")),
        inode(&j.p("outside/victim-hard")),
    ];
    for name in names {
        let p = j.p("out").join(name);
        let m = fs::symlink_metadata(&p).unwrap();
        assert!(m.file_type().is_file(), "{name} is not a regular file");
        assert!(!victims.contains(&inode(&p)), "{name} is a planted file");
    }
}

/// Removes everything in `dir`, keeping the folder.
fn empty(dir: &Path) {
    for e in fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if fs::symlink_metadata(&p).unwrap().is_dir() {
            fs::remove_dir_all(&p).unwrap();
        } else {
            fs::remove_file(&p).unwrap();
        }
    }
}

/// Every writer against links planted at its file names, at the temporary names it used to
/// make (`.NAME.tmpPID` for the next PIDs, as symbolic and as hard links) and at its lock: no
/// write reaches a file outside `--out` (the jail's fifth promise), every result is a file of its
/// own, the run succeeds. Then against a full disk (a refusal saying why, no temporary, no file
/// cut short) and a `kill -9` (the next run completes with no temporary left). A new writer
/// joins by adding its row.
/// Writers that write only into a new or empty folder, or their own earlier one: a folder
/// holding anything else (planted links included) is refused, not written into.
const REFUSE_A_FOLDER_OF_OTHERS: &[&str] = &["merge of report folders"];

#[test]
fn no_writer_writes_through_links_planted_in_its_output_folder() {
    let scan = id(CLEAN.0, CLEAN.1);
    let (meta, npz) = (format!("scans/{scan}.json"), format!("scans/{scan}.npz"));
    // (what, the setup before the run, its arguments given the jail, the files it writes)
    type Setup = Box<dyn Fn(&Jail)>;
    type Args = Box<dyn Fn(&Jail) -> Vec<String>>;
    // (…, what the output folder holds before each run: a bundle the writer changes)
    type Row = (&'static str, Setup, Args, Vec<String>, Option<Setup>);
    let path = |j: &Jail, rel: &str| j.p(rel).to_str().unwrap().to_string();
    let shard_datasets = |j: &Jail| {
        for k in 0..2 {
            common::ok(&[
                "-q",
                "preprocess",
                s(&j.p("in")),
                "--out",
                s(&j.p(&format!("work/ds{k}"))),
                "--size",
                "32",
                "--shard",
                &format!("{k}/2"),
            ]);
        }
    };
    let dataset = |j: &Jail| {
        common::ok(&[
            "-q",
            "preprocess",
            s(&j.p("in")),
            "--out",
            s(&j.p("work/ds")),
            "--size",
            "32",
        ]);
    };
    let mut rows: Vec<Row> = vec![
        (
            "preprocess (headers spilled to disk)",
            Box::new(|_| {}),
            Box::new(move |j| {
                vec![
                    "preprocess".into(),
                    path(j, "in"),
                    "--out".into(),
                    path(j, "out"),
                    "--size".into(),
                    "16".into(),
                    "--headers-in-memory".into(),
                    "1".into(),
                ]
            }),
            vec![
                "dataset.json".into(),
                meta.clone(),
                npz.clone(),
                "headers-0".into(),
            ],
            None,
        ),
        (
            "merge of datasets",
            Box::new(shard_datasets),
            Box::new(move |j| {
                vec![
                    "merge".into(),
                    path(j, "work/ds0"),
                    path(j, "work/ds1"),
                    "--out".into(),
                    path(j, "out"),
                ]
            }),
            vec!["dataset.json".into(), meta.clone(), npz.clone()],
            None,
        ),
        (
            "extract",
            Box::new(dataset),
            Box::new(move |j| {
                vec![
                    "extract".into(),
                    "--model".into(),
                    s(bundle()).into(),
                    "--dataset".into(),
                    path(j, "work/ds"),
                    "--out".into(),
                    path(j, "out/features.csv"),
                ]
            }),
            vec!["features.csv".into(), "features.csv.shard.json".into()],
            None,
        ),
        (
            "merge of features files",
            Box::new(move |j| {
                dataset(j);
                for k in 0..2 {
                    common::ok(&[
                        "-q",
                        "extract",
                        "--model",
                        s(bundle()),
                        "--dataset",
                        s(&j.p("work/ds")),
                        "--out",
                        s(&j.p(&format!("work/f{k}.csv"))),
                        "--shard",
                        &format!("{k}/2"),
                    ]);
                }
            }),
            Box::new(move |j| {
                vec![
                    "merge".into(),
                    path(j, "work/f0.csv"),
                    path(j, "work/f1.csv"),
                    "--out".into(),
                    path(j, "out/features.csv"),
                ]
            }),
            vec!["features.csv".into(), "features.csv.shard.json".into()],
            None,
        ),
        (
            "predict (reports, pages, DICOM results, the slice spill)",
            Box::new(|_| {}),
            Box::new(move |j| {
                vec![
                    "predict".into(),
                    "--model".into(),
                    s(bundle()).into(),
                    path(j, "in"),
                    "--out".into(),
                    path(j, "out"),
                ]
            }),
            vec![
                "report.json".into(),
                "scans.csv".into(),
                "slices.csv".into(),
                "run.json".into(),
                "index.html".into(),
                format!("dicom/{scan}/sr.dcm"),
                "slices.spill".into(),
            ],
            None,
        ),
        (
            "merge of report folders",
            Box::new(|j| {
                for k in 0..2 {
                    common::ok(&[
                        "-q",
                        "predict",
                        "--model",
                        s(bundle()),
                        s(&j.p("in")),
                        "--out",
                        s(&j.p(&format!("work/r{k}"))),
                        "--shard",
                        &format!("{k}/2"),
                    ]);
                }
            }),
            Box::new(move |j| {
                vec![
                    "merge".into(),
                    path(j, "work/r0"),
                    path(j, "work/r1"),
                    "--out".into(),
                    path(j, "out"),
                ]
            }),
            vec![
                "report.json".into(),
                "scans.csv".into(),
                "slices.csv".into(),
                "index.html".into(),
            ],
            None,
        ),
        (
            "fit-gp (a head and its trace into a folder of other files)",
            Box::new(|j| {
                fs::create_dir_all(j.p("work")).unwrap();
                fs::write(j.p("work/features.csv"), common::features_shifted(24, 0.0)).unwrap();
            }),
            Box::new(move |j| {
                vec![
                    "fit-gp".into(),
                    "--features".into(),
                    path(j, "work/features.csv"),
                    "--inducing".into(),
                    "8".into(),
                    "--max-epochs".into(),
                    "10".into(),
                    "--out".into(),
                    path(j, "out/gp.json"),
                ]
            }),
            vec!["gp.json".into(), "gp.json.trace.csv".into()],
            None,
        ),
        (
            "eval-gp (its summary as CSV and JSON)",
            Box::new(|j| {
                fs::create_dir_all(j.p("work")).unwrap();
                fs::write(j.p("work/features.csv"), common::features_shifted(24, 0.0)).unwrap();
            }),
            Box::new(move |j| {
                vec![
                    "eval-gp".into(),
                    "--features".into(),
                    path(j, "work/features.csv"),
                    "--model".into(),
                    "vgpmil".into(),
                    "--splits".into(),
                    "2".into(),
                    "--inducing".into(),
                    "8".into(),
                    "--max-epochs".into(),
                    "10".into(),
                    "--json".into(),
                    path(j, "out/r.json"),
                    "--csv".into(),
                    path(j, "out/r.csv"),
                ]
            }),
            vec!["r.json".into(), "r.csv".into()],
            None,
        ),
        (
            "synth",
            Box::new(|_| {}),
            Box::new(move |j| {
                vec![
                    "synth".into(),
                    "--out".into(),
                    path(j, "out"),
                    "--scans".into(),
                    "2".into(),
                    "--slices".into(),
                    "3".into(),
                    "--size".into(),
                    "32".into(),
                ]
            }),
            vec![
                "labels.csv".into(),
                "slice_labels.csv".into(),
                "synth.json".into(),
            ],
            None,
        ),
        (
            "train-cnn (a bundle and its checkpoints)",
            Box::new(|j| {
                common::synth(&j.p("work/raw"), "6", "3", "32", "4");
                common::preprocess(&j.p("work/raw"), &j.p("work/ds"), "32", &[]);
            }),
            Box::new(move |j| {
                vec![
                    "train-cnn".into(),
                    "--dataset".into(),
                    path(j, "work/ds"),
                    "--out".into(),
                    path(j, "out"),
                    "--dim".into(),
                    "8".into(),
                    "--epochs".into(),
                    "1".into(),
                ]
            }),
            vec![
                "manifest.json".into(),
                "config.json".into(),
                "model.bpk".into(),
                "log.csv".into(),
                "checkpoint/state.json".into(),
            ],
            None,
        ),
        (
            "fit-gp --bundle (a head committed into a bundle)",
            Box::new(|j| {
                common::synth(&j.p("work/raw"), "8", "3", "32", "4");
                common::preprocess(&j.p("work/raw"), &j.p("work/ds"), "32", &[]);
                common::small_cnn(&j.p("work/ds"), &j.p("work/cnn"));
                common::ok(&[
                    "-q",
                    "extract",
                    "--model",
                    s(&j.p("work/cnn")),
                    "--dataset",
                    s(&j.p("work/ds")),
                    "--out",
                    s(&j.p("work/f.csv")),
                ]);
            }),
            Box::new(move |j| {
                vec![
                    "fit-gp".into(),
                    "--features".into(),
                    path(j, "work/f.csv"),
                    "--inducing".into(),
                    "6".into(),
                    "--max-epochs".into(),
                    "5".into(),
                    "--no-subtypes".into(),
                    "--bundle".into(),
                    path(j, "out"),
                ]
            }),
            vec!["gp.json".into(), "gp.trace.csv".into(), "ood.json".into()],
            // the network's bundle, without a head, in the output folder before each run
            Some(Box::new(|j| {
                fs::create_dir_all(j.p("out")).unwrap();
                for e in fs::read_dir(j.p("work/cnn")).unwrap().flatten() {
                    if e.file_type().unwrap().is_file() {
                        fs::copy(e.path(), j.p("out").join(e.file_name())).unwrap();
                    }
                }
            })),
        ),
        (
            "recalibrate (a bundle's map rewritten in place)",
            Box::new(|j| {
                common::synth(&j.p("work/raw"), "32", "3", "32", "4");
                common::preprocess(&j.p("work/raw"), &j.p("work/ds"), "32", &[]);
                common::small_cnn(&j.p("work/ds"), &j.p("work/m"));
                common::gp_head(
                    &j.p("work/m"),
                    &j.p("work/ds"),
                    &j.p("work/f.csv"),
                    &["--inducing", "6", "--max-epochs", "5", "--no-subtypes"],
                );
            }),
            Box::new(move |j| {
                vec![
                    "recalibrate".into(),
                    "--bundle".into(),
                    path(j, "out"),
                    "--features".into(),
                    path(j, "work/f.csv"),
                ]
            }),
            vec!["gp.json".into(), "manifest.json".into()],
            // the bundle with its head, in the output folder before each run
            Some(Box::new(|j| {
                fs::create_dir_all(j.p("out")).unwrap();
                for e in fs::read_dir(j.p("work/m")).unwrap().flatten() {
                    if e.file_type().unwrap().is_file() {
                        fs::copy(e.path(), j.p("out").join(e.file_name())).unwrap();
                    }
                }
            })),
        ),
        (
            "adapt (a new bundle for a site, with its report)",
            Box::new(|j| {
                common::synth(&j.p("work/site"), "24", "3", "32", "23");
            }),
            Box::new(move |j| {
                vec![
                    "adapt".into(),
                    "--model".into(),
                    s(bundle()).into(),
                    path(j, "work/site"),
                    "--labels".into(),
                    path(j, "work/site/labels.csv"),
                    "--out".into(),
                    path(j, "out"),
                    "--folds".into(),
                    "2".into(),
                    "--inner-folds".into(),
                    "2".into(),
                    "--evidence".into(),
                    "features".into(),
                    "--samples".into(),
                    "50".into(),
                    "--curve".into(),
                    "0".into(),
                    "--no-fine-tune".into(),
                    "--inducing".into(),
                    "6".into(),
                ]
            }),
            vec![
                "manifest.json".into(),
                "config.json".into(),
                "model.bpk".into(),
                "adapt.json".into(),
                "adapt.html".into(),
            ],
            None,
        ),
        (
            "checkpoint --export-npy",
            Box::new(|j| {
                testkit::checkpoint::write_f32(
                    &j.p("in/ckpt"),
                    &[
                        (
                            "layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                            vec![2],
                            vec![1.0, 2.0],
                        ),
                        (
                            "layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE",
                            vec![1],
                            vec![3.0],
                        ),
                    ],
                    &[],
                )
                .unwrap();
            }),
            Box::new(move |j| {
                vec![
                    "checkpoint".into(),
                    path(j, "in/ckpt"),
                    "--export-npy".into(),
                    path(j, "out"),
                ]
            }),
            vec![
                "layer_with_weights-0__kernel.npy".into(),
                "layer_with_weights-0__bias.npy".into(),
                "index.json".into(),
            ],
            None,
        ),
    ];
    // `ich import` of the published SA-DMIL weights, where the test data is at hand (under CI it
    // always is)
    let sa_dmil = testkit::shared_data_dir().join("pretrained/sa-dmil/att_0_9.ckpt");
    if sa_dmil.with_extension("ckpt.index").exists() {
        rows.push((
            "import (a bundle from a TensorFlow checkpoint)",
            Box::new(|_| {}),
            Box::new(move |j| {
                vec![
                    "import".into(),
                    s(&sa_dmil).into(),
                    "--out".into(),
                    path(j, "out"),
                ]
            }),
            vec![
                "manifest.json".into(),
                "config.json".into(),
                "model.bpk".into(),
            ],
            None,
        ));
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the SA-DMIL checkpoint is missing: {}",
            sa_dmil.display()
        );
        eprintln!("import row left out: no test data at {}", sa_dmil.display());
    }
    let (mut stopped, mut outran) = (Vec::new(), Vec::new());
    let (mut swapped_late, mut swapped_stopped) = (Vec::new(), Vec::new());
    for (what, setup, args, files, before) in rows {
        let j = Jail::new();
        setup(&j);
        // the output folder as the writer finds it: empty, or holding what it changes
        let fill = || {
            if let Some(f) = &before {
                f(&j);
            }
            let mut held = BTreeMap::new();
            tree(&j.p("out"), Path::new(""), &mut held);
            held
        };
        fill();
        let names: Vec<&str> = files.iter().map(String::as_str).collect();
        plant_links(&j, &names);
        let a = args(&j);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        // the jail's run checks that nothing outside out/ changed
        let r = j.run(&a);
        let written: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !n.starts_with("headers-") && !n.starts_with("slices.spill"))
            .collect();
        if REFUSE_A_FOLDER_OF_OTHERS.contains(&what) {
            // a writer that takes only a new, empty or its own earlier folder: refused, saying
            // why, every planted link left as it was (not followed, not replaced)
            assert!(matches!(r.code, Some(1) | Some(2)), "{what}:\n{}", r.text);
            r.says(&["not empty"]);
            for n in &written {
                let m = fs::symlink_metadata(j.p("out").join(n)).unwrap();
                assert!(m.file_type().is_symlink(), "{what}: {n} replaced");
            }
            // then into a folder of its own, with room
            empty(&j.p("out"));
            fill();
            j.run(&a).code(0);
        } else {
            assert_eq!(r.code, Some(0), "{what}:\n{}", r.text);
        }
        // the results are files of their own (the spills are gone with their runs)
        assert_own_files(&j, &written);

        // a full disk while it writes (each file limited to half the largest it wrote, not
        // counting files linked from its inputs, which take no room): the run fails saying
        // why, leaves no temporary and no file cut short at the limit
        let largest = written
            .iter()
            .map(|n| fs::metadata(j.p("out").join(n)).unwrap())
            .filter(|m| std::os::unix::fs::MetadataExt::nlink(m) == 1)
            .map(|m| m.len())
            .max()
            .unwrap();
        let limit = (largest / 2).max(1);
        empty(&j.p("out"));
        fill();
        let r = j.run_limited(&a, Some(limit));
        assert!(
            matches!(r.code, Some(1) | Some(2)),
            "{what} on a full disk: {:?}\n{}",
            r.code,
            r.text
        );
        r.says(&["File too large"]);
        let mut left = BTreeMap::new();
        tree(&j.p("out"), Path::new(""), &mut left);
        for (p, (len, _)) in &left {
            let name = p.file_name().unwrap().to_string_lossy();
            assert!(
                !name.contains(".tmp"),
                "{what}: a temporary left: {}",
                p.display()
            );
            assert_ne!(
                *len,
                limit,
                "{what}: {} cut short at the limit",
                p.display()
            );
        }
        // with room again the run completes
        j.run(&a).code(0);
        assert_own_files(&j, &written);

        // killed (SIGKILL) as soon as anything appears in its output folder: the next run
        // completes, takes over the dead run's lock and leaves no temporary
        empty(&j.p("out"));
        let held = fill();
        j.killed_when(&a, || {
            listing(&j.p("out")).iter().any(|k| !held.contains_key(k))
        });
        let r = j.run(&a);
        assert_eq!(r.code, Some(0), "{what} after a kill -9:\n{}", r.text);
        assert_own_files(&j, &written);
        let mut left = BTreeMap::new();
        tree(&j.p("out"), Path::new(""), &mut left);
        assert!(
            left.keys()
                .all(|p| !p.file_name().unwrap().to_string_lossy().contains(".tmp")),
            "{what}: temporaries left after a kill and a rerun: {left:?}"
        );

        // paused (SIGSTOP) as soon as its lock is written, the lock taken over while it sleeps
        // (another process's lock in its place), then resumed: it must stop before its next
        // write, or (when it had written everything) fail as it lets its lock go; say so either
        // way, leave the new holder's lock, and never end with exit 0
        let out = j.p("out");
        let lock_of = move |out: &Path| {
            fs::read_dir(out)
                .ok()?
                .flatten()
                .map(|e| e.path())
                .find(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().ends_with("ich.lock"))
                        && fs::read(p)
                            .is_ok_and(|b| String::from_utf8_lossy(&b).contains("\nbeat="))
                })
        };
        // a fast run may end before the poll (every millisecond) sees its lock, or let its lock
        // go between that poll and the stop: it then completed (exit 0) with nothing taken
        // over, and the case is tried again; a writer that outruns every try is named (the
        // slow ones must be stopped, below)
        let mut tries = 0;
        let taken_over = loop {
            tries += 1;
            empty(&out);
            fill();
            let taken = Arc::new(std::sync::Mutex::new(None));
            let (r, at) = {
                let (o1, o2, taken) = (out.clone(), out.clone(), taken.clone());
                j.run_paused(
                    &a,
                    move || lock_of(&o1).is_some(),
                    move || {
                        if let Some(l) = lock_of(&o2) {
                            fs::write(&l, common::foreign_lock()).unwrap();
                            *taken.lock().unwrap() = Some(l);
                        }
                    },
                )
            };
            let taken = taken.lock().unwrap().clone();
            match (at, taken) {
                (Some(_), Some(lock)) => break Some((r, lock)),
                _ => {
                    assert_eq!(r.code, Some(0), "{what}: not paused, yet:\n{}", r.text);
                    eprintln!("{what}: done before the pause (try {tries} of 10)");
                    if tries == 10 {
                        break None;
                    }
                }
            }
        };
        match taken_over {
            Some((r, lock)) => {
                assert_eq!(fs::read(&lock).unwrap(), common::foreign_lock(), "{what}");
                // never success: a run that wrote all it writes before the take-over learns it
                // when it lets its lock go (milbase::lock::lost_during_the_run)
                assert!(matches!(r.code, Some(1 | 2)), "{what}:\n{}", r.text);
                r.says(&["taken over by another process", "node-b"]);
                stopped.push(what);
            }
            None => outran.push(what),
        }

        // paused (SIGSTOP) as soon as its first output subfolder appears, that subfolder moved
        // aside and a link to a folder outside put in its place while it sleeps, then resumed:
        // wherever the pause fell (between a check and a creation or a rename included), nothing
        // reaches the link's target (the jail's promise: nothing outside out/ changes). The run
        // stops naming the subfolder, or ends with exit 0 when it had written all it writes
        // there before the pause.
        if let Some(sub) = written
            .iter()
            .find_map(|n| n.split_once('/').map(|(d, _)| d.to_string()))
        {
            empty(&j.p("out"));
            fill();
            let target = j.p("outside/swapped");
            fs::create_dir_all(&target).unwrap();
            let dir = j.p("out").join(&sub);
            let (r, at) = {
                let (d1, d2, target) = (dir.clone(), dir.clone(), target.clone());
                j.run_paused(
                    &a,
                    move || fs::symlink_metadata(&d1).is_ok_and(|m| m.is_dir()),
                    move || {
                        let mut moved = d2.clone().into_os_string();
                        moved.push("-moved");
                        fs::rename(&d2, &moved).unwrap();
                        symlink(&target, &d2).unwrap();
                    },
                )
            };
            at.unwrap_or_else(|| panic!("{what}: never paused:\n{}", r.text));
            assert_eq!(fs::read_dir(&target).unwrap().count(), 0, "{what}");
            match r.code {
                Some(0) => swapped_late.push(what),
                Some(1 | 2) => {
                    r.says(&[&format!("out/{sub}")]);
                    swapped_stopped.push(what);
                }
                c => panic!("{what} with its {sub}/ swapped: {c:?}\n{}", r.text),
            }
            fs::remove_dir(&target).unwrap();
        }
    }
    // every writer is stopped by its lock taken over (a fast one as it lets the lock go)
    eprintln!(
        "stopped by a lock taken over: {stopped:?}; done before each of 10 pauses: {outran:?}"
    );
    eprintln!("stopped by a subfolder swapped: {swapped_stopped:?}; done before: {swapped_late:?}");
    for w in ["predict", "preprocess"] {
        assert!(
            swapped_stopped.iter().any(|s| s.starts_with(w)),
            "{w} was not stopped by its subfolder swapped: {swapped_stopped:?}"
        );
    }
    for slow in ["predict", "train-cnn", "adapt"] {
        assert!(
            stopped.iter().any(|w| w.starts_with(slow)),
            "{slow} was not stopped by its lock taken over: {stopped:?}"
        );
    }
}

// ---- traps set during a run ----

/// Runs `args` in the jail (held to its five promises) while another thread sets `trap` once
/// `ready` holds, polled every millisecond: what someone with write access to a shared output
/// folder, or another node on a shared spool, does while the run is under way.
fn run_with_trap(
    j: &Jail,
    args: &[&str],
    ready: impl Fn() -> bool + Send + 'static,
    trap: impl FnOnce() + Send + 'static,
) -> Run {
    let stop = Arc::new(AtomicBool::new(false));
    let setter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                if ready() {
                    trap();
                    return true;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            false
        })
    };
    let r = j.run(args);
    stop.store(true, Ordering::SeqCst);
    assert!(
        setter.join().unwrap(),
        "the trap was never set:\n{}",
        r.text
    );
    r
}

/// Writers whose output subfolder is swapped for a link to a folder outside as soon as their
/// first file appears in it: the run stops with an error that names the swap, and nothing
/// reaches the link's target (the jail's fifth promise). Before, predict wrote the rest of its
/// scan pages and preprocess the rest of its scan files through the link, with exit 0.
#[test]
fn a_subfolder_swapped_for_a_link_during_the_run_stops_the_writer() {
    // 31 scans: many files to write after the first, whenever the trap's thread is scheduled
    let rows: [(&str, Vec<&str>); 2] = [
        (
            "predict",
            vec!["predict", "--model", s(bundle()), "IN", "--out", "OUT"],
        ),
        (
            "preprocess",
            vec!["preprocess", "IN", "--out", "OUT", "--size", "16"],
        ),
    ];
    for (what, args) in rows {
        let j = Jail::new();
        for k in 0..30 {
            write_series(
                &j.p(&format!("in/more{k}")),
                &format!("2.25.4{k}"),
                &format!("2.25.5{k}"),
                24,
            );
        }
        fs::create_dir_all(j.p("outside/swapped")).unwrap();
        let (i, o) = (j.p("in"), j.p("out"));
        let args: Vec<&str> = args
            .iter()
            .map(|a| match *a {
                "IN" => s(&i),
                "OUT" => s(&o),
                a => a,
            })
            .collect();
        let (out, target) = (j.p("out"), j.p("outside/swapped"));
        let ready = {
            let out = out.clone();
            move || fs::read_dir(out.join("scans")).is_ok_and(|mut d| d.next().is_some())
        };
        let r = run_with_trap(&j, &args, ready, move || {
            fs::rename(out.join("scans"), out.join("scans-moved")).unwrap();
            symlink(&target, out.join("scans")).unwrap();
        });
        assert!(matches!(r.code, Some(1 | 2)), "{what}:\n{}", r.text);
        // the swap named; or, when it lands between the check and a rename (a window of
        // microseconds), the rename failing on the file in out/scans: the run stops either way
        r.says(&["out/scans"]);
        assert_eq!(fs::read_dir(j.p("outside/swapped")).unwrap().count(), 0);
    }
}

/// The run's lock taken over while it runs (its holder thought dead: paused past its lease):
/// the run stops before its next write, says so, and leaves the new holder's lock in place.
#[test]
fn a_lock_taken_over_during_the_run_stops_the_writer() {
    let j = Jail::new();
    let out = j.p("out");
    // once the run's lock names it (a trap set before it is written would be overwritten)
    let ready = {
        let out = out.clone();
        move || {
            fs::read(out.join(".ich.lock"))
                .is_ok_and(|b| String::from_utf8_lossy(&b).contains("\nbeat="))
        }
    };
    let lock = out.join(".ich.lock");
    let (i, o) = (j.p("in"), j.p("out"));
    let r = run_with_trap(
        &j,
        &["predict", "--model", s(bundle()), s(&i), "--out", s(&o)],
        ready,
        move || fs::write(&lock, common::foreign_lock()).unwrap(),
    );
    assert!(matches!(r.code, Some(1 | 2)), "{}", r.text);
    r.says(&["taken over by another process", "node-b"]);
    assert_eq!(
        fs::read(j.p("out/.ich.lock")).unwrap(),
        common::foreign_lock()
    );
    assert!(!j.p("out/report.json").exists());
}

// ---- the input surfaces' matrix ----

/// A features file of two scans, two slices each, D = 2, cut short in the middle of its last row
/// (a copy interrupted, a disk that filled up).
const FEATURES_CUT: &str = "bag_name,bag_label,instance_label,feature_0,feature_1\n\
scan-a,1,1,0.5,0.25\nscan-a,1,0,0.125,0.75\nscan-b,0,0,0.375,0.5\nscan-b,0,0,0.";

/// `surface` run with `args` refuses the file `name` (exit 1 or 2), names it, and ends within a
/// minute; its output folder is then removed. Returns what the run said.
fn refused(j: &Jail, surface: &str, args: &[String], name: &str) -> String {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = j.run(&a);
    assert!(
        matches!(r.code, Some(1 | 2)),
        "{surface} took {name} (exit {:?}):\n{}",
        r.code,
        r.text
    );
    assert!(
        r.text.contains(name),
        "{surface}: {name} is not named:\n{}",
        r.text
    );
    assert!(r.secs < 60.0, "{surface} on {name}: {:.0} s", r.secs);
    let _ = fs::remove_dir_all(j.p("out"));
    r.text
}

/// Every surface that reads a table or a volume, against what is not a bounded regular file of
/// its kind: `/dev/zero`, a FIFO (a reader that waited on it would hang), a sparse 900 MB of
/// zeros (under the 1 GiB ceiling of a table: it must be refused by its content, within bounded
/// memory) and a file cut short. Each run is held to the five promises ([`Jail::run`]), and must
/// refuse (exit 1 or 2), name the file, and end within a minute. A new reader joins by adding
/// its row.
#[test]
fn every_input_surface_refuses_what_is_not_a_whole_regular_file_by_name() {
    let j = Jail::new();
    let fifo = j.p("outside/fifo.csv");
    mkfifo(&fifo);
    let sparse = j.p("outside/sparse.csv");
    zeros(&sparse, 900);
    let cut = j.p("outside/cut.csv");
    fs::write(&cut, FEATURES_CUT).unwrap();
    let model = bundle_copy(&j.p("outside"));
    let good = j.p("outside/good.csv");
    fs::write(&good, common::features_shifted(24, 0.0)).unwrap();
    let out = j.p("out");
    // each surface: its name, and the command that reads `file` through it
    type Args = Box<dyn Fn(&str) -> Vec<String>>;
    let owned = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let (o, m, clean) = (
        s(&out).to_string(),
        s(&model).to_string(),
        s(&j.p("in")).to_string(),
    );
    let surfaces: Vec<(&str, Args)> = vec![
        ("preprocess --labels", {
            let (o, clean) = (o.clone(), clean.clone());
            Box::new(move |f| {
                owned(&[
                    "preprocess",
                    &clean,
                    "--out",
                    &o,
                    "--size",
                    "16",
                    "--labels",
                    f,
                ])
            })
        }),
        ("fit-gp --features", {
            let o = o.clone();
            Box::new(move |f| owned(&["fit-gp", "--features", f, "--out", &format!("{o}/m.json")]))
        }),
        ("eval-gp --features", {
            let o = o.clone();
            Box::new(move |f| {
                owned(&["eval-gp", "--features", f, "--json", &format!("{o}/r.json")])
            })
        }),
        ("synth --base", {
            let o = o.clone();
            Box::new(move |f| owned(&["synth", "--out", &o, "--scans", "1", "--base", f]))
        }),
        ("eval-gp --splits", {
            let (o, good) = (o.clone(), s(&good).to_string());
            Box::new(move |f| {
                owned(&[
                    "eval-gp",
                    "--features",
                    &good,
                    "--splits",
                    f,
                    "--json",
                    &format!("{o}/r.json"),
                ])
            })
        }),
        ("recalibrate --features", {
            let m = m.clone();
            Box::new(move |f| owned(&["recalibrate", "--bundle", &m, "--features", f, "--dry-run"]))
        }),
        ("merge (features files)", {
            let o = o.clone();
            Box::new(move |f| owned(&["merge", f, "--out", &format!("{o}/merged.csv")]))
        }),
        ("predict --labels", {
            let (o, m, clean) = (o.clone(), m.clone(), clean.clone());
            Box::new(move |f| {
                owned(&[
                    "predict",
                    "--model",
                    &m,
                    &clean,
                    "--out",
                    &o,
                    "--no-html",
                    "--labels",
                    f,
                ])
            })
        }),
    ];
    let hostile = [
        ("/dev/zero", "/dev/zero"),
        (s(&fifo), "fifo.csv"),
        (s(&sparse), "sparse.csv"),
        (s(&cut), "cut.csv"),
    ];
    for (surface, args) in &surfaces {
        for (file, name) in hostile {
            refused(&j, surface, &args(file), name);
        }
    }

    // volumes: NIfTI files given by name to preprocess and predict, against `/dev/zero` and a
    // FIFO under a NIfTI name, a sparse 900 MB of zeros, a volume cut short in its voxels and a
    // small file declaring 600 MiB of voxels (plain and gzipped): refused by name, within the
    // jail's 1 GB, in bounded time
    let v = j.p("outside/vol");
    fs::create_dir_all(&v).unwrap();
    let affine = [
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, 5.0, 0.0],
    ];
    let whole = v.join("whole.nii");
    testkit::nifti::write_int16(&whole, [32, 32, 6], &[40; 32 * 32 * 6], &affine, 1.0, 0.0)
        .unwrap();
    let b = fs::read(&whole).unwrap();
    fs::write(v.join("cut.nii"), &b[..b.len() - 1000]).unwrap();
    let mut bomb = b[..352 + 128].to_vec();
    bomb[42..44].copy_from_slice(&512i16.to_le_bytes());
    bomb[44..46].copy_from_slice(&512i16.to_le_bytes());
    bomb[46..48].copy_from_slice(&1200i16.to_le_bytes());
    fs::write(v.join("declares-600-mib.nii"), &bomb).unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut e, &bomb).unwrap();
    fs::write(v.join("declares-600-mib.nii.gz"), e.finish().unwrap()).unwrap();
    symlink("/dev/zero", v.join("zero.nii")).unwrap();
    mkfifo(&v.join("fifo.nii"));
    zeros(&v.join("sparse.nii"), 900);
    let volume_surfaces: Vec<(&str, Args)> = vec![
        ("preprocess VOLUME.nii", {
            let o = o.clone();
            Box::new(move |f| owned(&["preprocess", f, "--out", &o, "--size", "16"]))
        }),
        ("predict VOLUME.nii", {
            let (o, m) = (o.clone(), m.clone());
            Box::new(move |f| owned(&["predict", "--model", &m, f, "--out", &o, "--no-html"]))
        }),
    ];
    for (surface, args) in &volume_surfaces {
        for name in [
            "zero.nii",
            "fifo.nii",
            "sparse.nii",
            "cut.nii",
            "declares-600-mib.nii",
            "declares-600-mib.nii.gz",
        ] {
            refused(&j, surface, &args(s(&v.join(name))), name);
        }
        // the whole volume is taken
        let a = args(s(&whole));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        j.run(&a).code(0);
        let _ = fs::remove_dir_all(&out);
    }

    // DICOM files given to `ich send`, to a PACS that takes everything: `/dev/zero` and a FIFO
    // under `.dcm` names, a sparse 900 MB file and a slice cut short are refused by name (exit
    // 1, nothing hangs); the whole slice beside them is stored
    // the PACS keeps its files outside the jail (the run's promise: nothing outside --out
    // changes, and the PACS is not the run)
    let pacs_tmp = tempfile::tempdir().unwrap();
    let pacs_dir = pacs_tmp.path().join("rx");
    let port = common::orthanc::free_port();
    let scp = pacs::scp::Scp::start(
        &format!("127.0.0.1:{port}"),
        pacs::scp::ScpOptions {
            ae_title: "PACS".into(),
            ..pacs::scp::ScpOptions::default()
        },
        Arc::new(TakeAll(pacs_dir.clone())),
    )
    .unwrap();
    let d = j.p("outside/dcm");
    fs::create_dir_all(&d).unwrap();
    let clean = fs::read_dir(j.p("in/clean"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "dcm"))
        .unwrap();
    let bytes = fs::read(&clean).unwrap();
    fs::write(d.join("cut.dcm"), &bytes[..bytes.len() / 2]).unwrap();
    symlink("/dev/zero", d.join("zero.dcm")).unwrap();
    mkfifo(&d.join("fifo.dcm"));
    zeros(&d.join("sparse.dcm"), 900);
    let to = format!("PACS@127.0.0.1:{port}");
    let send = |f: &Path| {
        vec![
            "send".to_string(),
            s(f).to_string(),
            "--to".into(),
            to.clone(),
            "--send-retries".into(),
            "0".into(),
        ]
    };
    for (name, why) in [
        ("zero.dcm", "not a regular file"),
        ("fifo.dcm", "not a regular file"),
        ("sparse.dcm", "more than"),
        ("cut.dcm", "not readable as DICOM"),
    ] {
        let said = refused(&j, "send FILE.dcm", &send(&d.join(name)), name);
        assert!(said.contains(why), "send {name}: no {why:?} in\n{said}");
    }
    let a = send(&clean);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    j.run(&a).code(0);
    drop(scp);
}

/// A Storage SCP that takes every instance (and drops its file).
struct TakeAll(PathBuf);

impl pacs::scp::StoreSink for TakeAll {
    fn receiving_dir(&self) -> PathBuf {
        self.0.clone()
    }
    fn store(&self, r: &pacs::scp::Received<'_>) -> Result<(), pacs::scp::Refusal> {
        let _ = fs::remove_file(r.file);
        Ok(())
    }
}

/// Duplicate identities: one file reached by several paths is one scan. The clean DICOM series
/// given as its folder, again through `..` and again through a symbolic link to the folder; a
/// NIfTI volume given by name, through a hard link and through a symbolic link. `preprocess` and
/// `predict` each make two scans of it, not six, and the second scan keeps its own numbers.
#[test]
fn one_file_reached_by_several_paths_is_one_scan() {
    let j = Jail::new();
    let affine = [
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [0.0, 0.0, 5.0, 0.0],
    ];
    let vol = j.p("in/vol");
    fs::create_dir_all(&vol).unwrap();
    let ct = vol.join("ct.nii");
    testkit::nifti::write_int16(&ct, [32, 32, 4], &[40; 32 * 32 * 4], &affine, 1.0, 0.0).unwrap();
    fs::hard_link(&ct, vol.join("copy.nii")).unwrap();
    symlink(&ct, vol.join("link.nii")).unwrap();
    symlink(j.p("in/clean"), j.p("in/clean-link")).unwrap();
    let inputs = [
        s(&j.p("in/clean")).to_string(),
        format!("{}/../clean", s(&j.p("in/clean"))),
        s(&j.p("in/clean-link")).to_string(),
        s(&ct).to_string(),
        s(&vol.join("copy.nii")).to_string(),
        s(&vol.join("link.nii")).to_string(),
    ];
    let o = s(&j.p("out")).to_string();
    let mut args: Vec<&str> = vec!["preprocess"];
    args.extend(inputs.iter().map(String::as_str));
    args.extend(["--out", &o, "--size", "16"]);
    let r = j.run(&args);
    assert_eq!(r.code, Some(0), "{}", r.text);
    let scans = j.dataset_scans();
    assert_eq!(scans.len(), 2, "{:?}", scans.keys());
    assert!(scans.contains_key(&id(CLEAN.0, CLEAN.1)));
    let slices: Vec<u64> = scans
        .values()
        .map(|m| m["n_slices"].as_u64().unwrap())
        .collect();
    assert!(slices.contains(&3) && slices.contains(&4), "{slices:?}");
    empty(&j.p("out"));
    let m = s(bundle()).to_string();
    let mut args: Vec<&str> = vec!["predict", "--model", &m];
    args.extend(inputs.iter().map(String::as_str));
    args.extend(["--out", &o, "--no-html"]);
    let r = j.run(&args);
    assert_eq!(r.code, Some(0), "{}", r.text);
    let reports = j.reports();
    assert_eq!(reports.len(), 2, "{:?}", reports.keys());
    j.assert_clean_predicted();
}

/// The slab reader (a thin series read by a model that knows its thickness) against slices that
/// change while the run is under way: 72 slices 1.25 mm apart, read by the shipped model as 18
/// slabs of 4, of which one becomes a FIFO, one is cut short in its pixels and one is replaced by
/// a slice of another size as soon as the run has started. Whether the header pass or the
/// decoder meets them, the run ends without a hang, predicts the series as its 18 slabs from the
/// slices it could read, and names each slice it could not use.
#[test]
fn a_thin_series_changed_during_the_run_is_read_as_slabs_of_what_is_left() {
    let j = Jail::new();
    // the series lies outside the jail, whose promise that nothing outside `--out` changes the
    // trap itself breaks
    let input = tempfile::tempdir().unwrap();
    let dir = input.path().join("thin");
    fs::create_dir_all(&dir).unwrap();
    let slice = |k: usize, n: usize| {
        let mut c = ct("2.25.60", "2.25.61", k);
        c.position = Some([0.0, 0.0, 1.25 * k as f64]);
        if n != 64 {
            (c.rows, c.cols, c.stored) = (n as u16, n as u16, vec![1064; n * n]);
        }
        c.to_bytes().unwrap()
    };
    for k in 0..72 {
        fs::write(dir.join(format!("s{k}.dcm")), slice(k, 64)).unwrap();
    }
    let ready = {
        let out = j.p("out");
        move || out.join("run.json").exists()
    };
    let d = dir.clone();
    let o = j.p("out");
    let r = run_with_trap(
        &j,
        &[
            "predict",
            s(&dir),
            "--out",
            s(&o),
            "--no-dicom",
            "--no-html",
        ],
        ready,
        move || {
            fs::remove_file(d.join("s5.dcm")).unwrap();
            mkfifo(&d.join("s5.dcm"));
            let b = fs::read(d.join("s9.dcm")).unwrap();
            fs::write(d.join("s9.dcm"), &b[..b.len() - 1000]).unwrap();
            fs::write(d.join("s13.dcm"), slice(13, 32)).unwrap();
        },
    );
    assert!(matches!(r.code, Some(0 | 1)), "{}", r.text);
    let report = json(&j.p("out/report.json"));
    let scan = report["scans"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["series_instance_uid"] == "2.25.61")
        .unwrap_or_else(|| panic!("the thin series was not predicted:\n{}", r.text));
    assert_eq!(scan["n_slices"], 18, "{scan}");
    assert!(scan["warnings"]
        .to_string()
        .contains("read as 18 slabs of 4 slices"));
    // the slice of another size is the one left out of its slab, not its good neighbours (the
    // slab once took the size of whichever slice came first, and dropped the other three)
    let warnings: Vec<&str> = scan["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str())
        .collect();
    for w in &warnings {
        assert!(
            !w.contains("left out of its slab") || w.starts_with("slice 2.25.61.13 "),
            "{w}"
        );
        assert!(!w.contains("show nothing"), "{w}");
    }
    // each slice it could not use named, by its file or its SOP Instance UID
    let said = format!("{}\n{report}", r.text);
    for (file, sop) in [
        ("s5.dcm", "2.25.61.5"),
        ("s9.dcm", "2.25.61.9"),
        ("s13.dcm", "2.25.61.13"),
    ] {
        assert!(
            said.contains(file) || said.contains(sop),
            "{file} not named:\n{said}"
        );
    }
}
