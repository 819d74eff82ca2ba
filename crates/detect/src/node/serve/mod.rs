//! `ich serve`: a DICOM node. A Storage SCP ([`pacs::scp`]) receives CT instances into a spool;
//! when a study has had no new instance for `settle`, and no open association is still sending
//! it (its last instance was of this study), it is predicted as `ich predict` would
//! (series selection as preprocess does it: non-CT and broken series recorded and skipped), its
//! reports are written into the spool and its Structured Report and Secondary Captures are sent
//! to every destination.
//!
//! **The spool is the queue.** Layout, every file written atomically:
//! - `receiving/`: instances being received (removed at start: never acknowledged);
//! - `studies/<StudyInstanceUID>/in/<SeriesInstanceUID>/<SOPInstanceUID>.dcm`: what was
//!   received and acknowledged (the UIDs checked: digits and dots, at most 64 characters);
//! - `studies/<StudyInstanceUID>/out/`: the reports and the DICOM results (`ich predict`'s);
//! - `studies/<StudyInstanceUID>/state.json`: the study's phase and what happened;
//! - `.serve.lock`: the running node's PID (one node per spool).
//!
//! A study moves receiving → predicting → predicted → sent (or skipped, failed). After a
//! `kill -9` at any moment the restart reads every `state.json`: a study receiving or predicting
//! is predicted again once it has settled (counting from when the node listens again), a study
//! predicted is sent
//! (the same files: a destination that stored part of them before the kill keeps one copy of
//! each object, since SOP Instance UIDs do not change), a study sent is left alone. An instance
//! is acknowledged only once it is synced into `studies/`.
//!
//! Here: the options, the studies' state, the spool's recovery and the node's start and stop.
//! `intake`: what arrives (the SCP's sink, each instance checked and moved into its study);
//! `worker`: the scheduler, the workers that predict and send, the clean-up; `poll`: DICOMweb
//! polling; `status`: the status endpoint.

use milbase::sync::lock;
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use pacs::scp::{
    Received, Refusal, Scp, ScpOptions, StoreSink, CANNOT_UNDERSTAND, DUPLICATE_SOP_INSTANCE,
    OUT_OF_RESOURCES,
};
use pacs::{Destination, SendOptions};
use serde::{Deserialize, Serialize};

use crate::bundle::rfc3339;
use crate::error::{Error, Result};
use crate::pipeline::predict::{run_with, PacsJob, PredictJob, PredictOptions, Predictor};
use crate::report::dicomout::DicomOptions;

mod intake;
mod poll;
mod status;
mod worker;
use poll::poll_loop;
use status::status_loop;
use worker::{scheduler, worker};

/// Where the instances being received are.
pub const RECEIVING: &str = "receiving";
/// Where the studies are.
pub const STUDIES: &str = "studies";
/// A study's state file.
pub const STATE: &str = "state.json";

/// What `ich serve` does; see the fields for the defaults of the command line.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The model bundle.
    pub model: PathBuf,
    /// The spool folder (created).
    pub spool: PathBuf,
    /// Where the Storage SCP listens, e.g. `0.0.0.0:11112`.
    pub listen: String,
    pub scp: ScpOptions,
    /// Where results go (each gets every SR and Secondary Capture).
    pub send: Vec<Destination>,
    pub send_options: SendOptions,
    /// A study is predicted once it has had no new instance for this long.
    pub settle: Duration,
    /// Studies predicted at once (each worker holds its own copy of the model).
    pub workers: usize,
    /// Studies received but not yet predicted, at most; instances of a further study are
    /// refused (A700H) until the queue shrinks.
    pub max_queue: usize,
    /// The spool's received instances at most, in bytes; beyond, instances are refused (A700H).
    pub max_spool_bytes: u64,
    /// Studies sent (or skipped) are removed from the spool after this long.
    pub keep: Duration,
    /// A send that failed is tried again after this long (each try with `send_options`'
    /// retries).
    pub resend_after: Duration,
    /// The HTTP status endpoint (`127.0.0.1:8080`), if any.
    pub status: Option<String>,
    pub predict: PredictOptions,
    pub dicom: DicomOptions,
    /// Write the HTML pages into each study's `out/`.
    pub html: bool,
    /// Fetch studies from a PACS that cannot push (DICOMweb), besides listening.
    pub poll: Option<PollOptions>,
}

/// Studies fetched from a PACS that cannot push: QIDO-RS for CT studies, WADO-RS to retrieve
/// those that are new or have more instances than at the last poll.
#[derive(Debug, Clone)]
pub struct PollOptions {
    pub service: pacs::web::Service,
    pub every: Duration,
    /// The first poll looks at studies of this date (YYYYMMDD) or later (default: yesterday;
    /// empty: any date, also none); later polls at yesterday's and today's.
    pub since: Option<String>,
    /// A study larger than this is refused (bytes); this much of the spool is reserved while a
    /// study is retrieved.
    pub max_study_bytes: u64,
    pub timeout: Duration,
}

/// What the poll remembers (`polled.json` in the spool).
#[derive(Debug, Default, Serialize, Deserialize)]
struct PollState {
    since: String,
    /// Study UID → its instance count when it was retrieved.
    seen: std::collections::BTreeMap<String, Option<u64>>,
}

/// `YYYYMMDD` of a time.
fn da(t: SystemTime) -> String {
    rfc3339(t)[..10].replace('-', "")
}

/// A study's phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Receiving,
    Predicting,
    Predicted,
    Sent,
    /// Nothing to predict (no CT series of a head); the reason is in `error`.
    Skipped,
    /// The prediction failed; the reason is in `error`.
    Failed,
}

/// One scan (series) of a study as predicted.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScanLine {
    pub id: String,
    pub slices: usize,
    pub probability: f64,
    pub sd: f64,
    pub positive: bool,
    pub uncertain: bool,
}

/// One destination's send.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SendLine {
    pub destination: String,
    pub sent: usize,
    pub failed: Vec<String>,
    pub attempts: u32,
    pub at: String,
}

/// What `state.json` holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StudyState {
    pub study: String,
    pub phase: Phase,
    /// 1, and one more each time new instances arrive after a prediction.
    pub round: u32,
    pub instances: usize,
    pub first_received: String,
    pub last_received: String,
    /// Seconds from the last instance to the end of the prediction, and to the end of the send.
    pub predicted_after_s: Option<f64>,
    pub sent_after_s: Option<f64>,
    pub scans: Vec<ScanLine>,
    /// Series or files not predicted, with the reason (non-CT, broken, …).
    pub skipped: Vec<String>,
    /// The DICOM results, relative to the study's folder.
    pub files: Vec<PathBuf>,
    pub sends: Vec<SendLine>,
    pub error: Option<String>,
    /// Predictions of this round that failed for a reason that can pass (I/O, a full disk):
    /// the study is predicted again after a backoff, also after a restart.
    #[serde(default)]
    pub attempts: u32,
    /// When the phase last changed.
    pub updated: String,
    /// The last report sent on each series: a later round's report on that series supersedes
    /// it (its Predecessor Documents Sequence names it), so that the PACS knows which is
    /// current.
    #[serde(default)]
    pub reports_sent: Vec<pacs::sr::Predecessor>,
}

impl StudyState {
    fn new(study: &str) -> Self {
        let now = rfc3339(SystemTime::now());
        Self {
            study: study.to_string(),
            phase: Phase::Receiving,
            round: 1,
            instances: 0,
            first_received: now.clone(),
            last_received: now.clone(),
            predicted_after_s: None,
            sent_after_s: None,
            scans: Vec::new(),
            skipped: Vec::new(),
            files: Vec::new(),
            sends: Vec::new(),
            error: None,
            attempts: 0,
            updated: now,
            reports_sent: Vec::new(),
        }
    }
}

/// A study in memory: its state and the clocks the scheduler needs.
struct Study {
    state: StudyState,
    last_rx: Instant,
    /// In a worker's queue or being worked on.
    busy: bool,
    next_send: Instant,
    /// A prediction that failed for a passing reason is tried again from then.
    next_try: Instant,
    /// Associations still open whose last instance was of this study: it settles only once
    /// they end or move on to another study (and `settle` has passed since its last instance),
    /// whatever the pace of their instances.
    senders: std::collections::HashSet<u64>,
    done_at: Instant,
}

impl Study {
    /// A study as it is found or first received: settling from now.
    fn new(state: StudyState) -> Self {
        let now = Instant::now();
        Self {
            state,
            last_rx: now,
            busy: false,
            next_send: now,
            next_try: now,
            senders: Default::default(),
            done_at: now,
        }
    }
}

/// What the node shares between the SCP, the scheduler, the workers and the status endpoint.
struct Shared {
    opts: ServeOptions,
    studies: Mutex<HashMap<String, Study>>,
    /// Association → the study it last delivered an instance of (taken after `studies`).
    sending: Mutex<HashMap<u64, String>>,
    /// One of these is held while an instance is compared with the spool's copy and moved in
    /// (the stripe of its file name): two copies of one instance are taken one after the other,
    /// other instances in parallel, and nobody else waits for this disk's syncs.
    moving: Vec<Mutex<()>>,
    /// Every byte the spool holds or has reserved (instances, files being received or
    /// retrieved, results).
    spool_bytes: AtomicU64,
    errors: Mutex<VecDeque<String>>,
    started: SystemTime,
    /// Why this node no longer holds its spool (its lock taken over while it was paused): it
    /// acknowledges, predicts and sends nothing more, and `ich serve` exits non-zero.
    lost: Mutex<Option<String>>,
}

enum Job {
    Predict(String),
    Send(String),
}

impl Shared {
    /// Confirms that this node still holds its spool ([`milbase::lock::confirm`]: the lock
    /// still its own, the spool still the folder it locked); called before every
    /// acknowledgement, prediction and send. Once lost, always lost.
    fn holds_spool(&self) -> std::result::Result<(), String> {
        if let Some(why) = lock(&self.lost).clone() {
            return Err(why);
        }
        milbase::lock::confirm(&self.opts.spool).map_err(|e| {
            let why = format!(
                "{e}; this node stops: it acknowledges, predicts and sends nothing more (the \
                 node now holding the spool carries on)"
            );
            tracing::error!("{why}");
            *lock(&self.lost) = Some(why.clone());
            why
        })
    }

    fn study_dir(&self, uid: &str) -> PathBuf {
        self.opts.spool.join(STUDIES).join(uid)
    }

    /// Makes `dir`, a folder of the spool, as a real folder: what was planted where one of its
    /// components goes (a link, a file) is removed, never followed, and reported.
    fn spool_dir(&self, dir: &Path) -> std::io::Result<()> {
        for p in milbase::atomic::create_dir_owned(&self.opts.spool, dir)? {
            self.planted(&p);
        }
        Ok(())
    }

    /// Reports what was found planted, and removed, where the spool keeps a folder.
    fn planted(&self, p: &Path) {
        self.error(format!(
            "{}: a link or file was planted where the spool keeps a folder: removed, not followed",
            p.display()
        ));
    }

    fn error(&self, msg: String) {
        tracing::warn!("{msg}");
        let mut e = lock(&self.errors);
        e.push_back(format!("{} {msg}", rfc3339(SystemTime::now())));
        while e.len() > 100 {
            e.pop_front();
        }
    }

    fn save(&self, st: &StudyState) {
        let path = self.study_dir(&st.study).join(STATE);
        let bytes = serde_json::to_vec_pretty(st).unwrap_or_default();
        if let Err(e) = milbase::write_atomic(&path, &bytes) {
            self.error(format!("{}: state not written: {e}", path.display()));
        }
    }

    /// Sets a study's state (memory and disk).
    fn update(&self, uid: &str, f: impl FnOnce(&mut Study)) {
        let mut studies = lock(&self.studies);
        if let Some(s) = studies.get_mut(uid) {
            f(s);
            s.state.updated = rfc3339(SystemTime::now());
            // saved under the lock: a later state is never overwritten by an earlier one
            let st = s.state.clone();
            self.save(&st);
        }
    }
}

/// How long [`Node::stop`] waits for the work under way (within Docker's 10 s after SIGTERM).
pub const STOP_WITHIN: Duration = Duration::from_secs(7);

/// A running node.
pub struct Node {
    /// Held while the node runs.
    _lock: milbase::atomic::DirLock,
    shared: Arc<Shared>,
    scp: Option<Scp>,
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
    /// The status endpoint's address.
    pub status_addr: Option<SocketAddr>,
}

impl Node {
    /// The DICOM address it listens on.
    pub fn dicom_addr(&self) -> SocketAddr {
        self.scp
            .as_ref()
            .map(|s| s.addr)
            .unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 0)))
    }

    /// Opens the spool (picking up where a previous run stopped), loads the model in every worker,
    /// and starts listening.
    pub fn start(opts: ServeOptions) -> Result<Node> {
        if opts.workers == 0 || opts.max_queue == 0 {
            return Err(Error::Invalid(
                "serve needs at least 1 worker and a queue of 1".into(),
            ));
        }
        let spool = &opts.spool;
        let studies_dir = spool.join(STUDIES);
        std::fs::create_dir_all(spool).map_err(|e| Error::io(spool, e))?;
        // one node per spool (a dead one's lock is taken over), before anything in it is touched
        let spool_lock =
            milbase::atomic::DirLock::take(spool, "serve").map_err(|e| Error::io(spool, e))?;
        // never acknowledged: the sender sends them again (a link planted there is removed,
        // not followed: remove_dir_all does not follow a link)
        let rx = spool.join(RECEIVING);
        let mut planted = Vec::new();
        match std::fs::symlink_metadata(&rx) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&rx),
            Ok(_) => {
                planted.push(rx.clone());
                std::fs::remove_file(&rx)
            }
            Err(_) => Ok(()),
        }
        .map_err(|e| Error::io(&rx, e))?;
        for d in [&studies_dir, &rx] {
            planted
                .extend(milbase::atomic::create_dir_owned(spool, d).map_err(|e| Error::io(d, e))?);
        }
        let (studies, bytes) = recover(&studies_dir, &mut planted)?;
        // what a killed node left of its own writes (state.json's and polled.json's
        // temporaries) is swept under the spool's lock
        let mut dirs = vec![spool.to_path_buf()];
        dirs.extend(studies.keys().map(|uid| studies_dir.join(uid)));
        for d in &dirs {
            milbase::atomic::remove_stale_temporaries(d, &spool_lock)
                .map_err(|e| Error::io(d, e))?;
        }
        let shared = Arc::new(Shared {
            opts: opts.clone(),
            studies: Mutex::new(studies),
            moving: (0..16).map(|_| Mutex::new(())).collect(),
            sending: Mutex::new(HashMap::new()),
            spool_bytes: AtomicU64::new(bytes),
            errors: Mutex::new(VecDeque::new()),
            started: SystemTime::now(),
            lost: Mutex::new(None),
        });
        for p in &planted {
            shared.planted(p);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let mut threads = Vec::new();
        // the workers first: a bundle that cannot be opened stops the start
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<()>>();
        for w in 0..opts.workers {
            let (shared, rx, ready) = (shared.clone(), rx.clone(), ready_tx.clone());
            threads.push(
                std::thread::Builder::new()
                    .name(format!("predict-{w}"))
                    .spawn(move || worker(&shared, &rx, &ready))
                    .map_err(|e| Error::Invalid(format!("thread: {e}")))?,
            );
        }
        drop(ready_tx);
        for _ in 0..opts.workers {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => {
                    return Err(Error::Invalid(
                        "a worker stopped while loading the model".into(),
                    ))
                }
            }
        }
        let status_addr = match &opts.status {
            Some(addr) => {
                let l = TcpListener::bind(addr)
                    .map_err(|e| Error::Invalid(format!("status endpoint {addr}: {e}")))?;
                let local = l.local_addr().ok();
                let (shared, stop) = (shared.clone(), stop.clone());
                threads.push(
                    std::thread::Builder::new()
                        .name("status".into())
                        .spawn(move || status_loop(l, &shared, &stop))
                        .map_err(|e| Error::Invalid(format!("thread: {e}")))?,
                );
                local
            }
            None => None,
        };
        {
            let (shared, stop) = (shared.clone(), stop.clone());
            threads.push(
                std::thread::Builder::new()
                    .name("scheduler".into())
                    .spawn(move || scheduler(&shared, &tx, &stop))
                    .map_err(|e| Error::Invalid(format!("thread: {e}")))?,
            );
        }
        if let Some(poll) = opts.poll.clone() {
            let (shared, stop) = (shared.clone(), stop.clone());
            threads.push(
                std::thread::Builder::new()
                    .name("dicomweb-poll".into())
                    .spawn(move || poll_loop(&shared, &poll, &stop))
                    .map_err(|e| Error::Invalid(format!("thread: {e}")))?,
            );
        }
        let sink: Arc<dyn StoreSink> = shared.clone();
        let scp = match Scp::start(&opts.listen, opts.scp.clone(), sink) {
            Ok(scp) => scp,
            Err(e) => {
                // the threads started so far end with the scheduler
                stop.store(true, Ordering::SeqCst);
                return Err(Error::Invalid(e.to_string()));
            }
        };
        // the studies found at the start settle from now, when their senders can reach the node
        // again (not from when the spool was read: loading the model takes longer on a slow
        // machine, and a study would be predicted before the rest of it could arrive)
        let now = Instant::now();
        for s in lock(&shared.studies).values_mut() {
            s.last_rx = s.last_rx.max(now);
        }
        tracing::info!(
            ae = %opts.scp.ae_title,
            dicom = %scp.addr,
            status = ?status_addr,
            spool = %opts.spool.display(),
            "listening"
        );
        Ok(Node {
            _lock: spool_lock,
            shared,
            scp: Some(scp),
            stop,
            threads,
            status_addr,
        })
    }

    /// Why the node no longer holds its spool, once it has found so (its lock was taken over by
    /// another node while this one was paused); the caller stops it and exits non-zero.
    pub fn lost(&self) -> Option<String> {
        lock(&self.shared.lost).clone()
    }

    /// Stops listening and lets the work under way finish for at most [`STOP_WITHIN`], then
    /// returns: a send still retrying an unresponsive PACS, or a prediction still running, is
    /// left as the spool's state says (a study predicted is sent at the next start, one being
    /// predicted is predicted again), since every file the node writes is written whole or not
    /// at all. Docker waits 10 s after SIGTERM before it kills, Kubernetes 30 s, systemd 90 s.
    pub fn stop(mut self) {
        let t0 = Instant::now();
        self.stop.store(true, Ordering::SeqCst);
        if let Some(scp) = self.scp.take() {
            scp.stop();
        }
        while self.threads.iter().any(|t| !t.is_finished()) && t0.elapsed() < STOP_WITHIN {
            std::thread::sleep(Duration::from_millis(50));
        }
        let left = self.threads.iter().filter(|t| !t.is_finished()).count();
        if left > 0 {
            tracing::warn!(
                "stopped with {left} task(s) under way (a send retrying, or a prediction): the \
                 next start picks them up from the spool's state"
            );
        }
        for t in self.threads.drain(..) {
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}

/// Reads every study's state back; returns the studies and the bytes of their instances. A link
/// or file planted where a study's folder goes is removed, never followed, and added to
/// `planted`.
fn recover(dir: &Path, planted: &mut Vec<PathBuf>) -> Result<(HashMap<String, Study>, u64)> {
    let mut studies = HashMap::new();
    let mut bytes = 0;
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for e in entries.flatten() {
        let uid = e.file_name().to_string_lossy().to_string();
        if !pacs::uid::is_valid(&uid) {
            continue;
        }
        let sdir = e.path();
        // file_type() does not follow a link
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            std::fs::remove_file(&sdir).map_err(|err| Error::io(&sdir, err))?;
            planted.push(sdir);
            continue;
        }
        let (n, _) = count_instances(&sdir.join("in"));
        bytes += study_bytes(&sdir);
        let path = sdir.join(STATE);
        let read = milbase::bounded::open_regular_reader(&path, 64 << 20)
            .ok()
            .and_then(|r| serde_json::from_reader::<_, StudyState>(r).ok());
        let mut state = match read {
            Some(s) if s.study == uid => s,
            // received, the state not yet written (or unreadable): predicted again
            _ if n > 0 => StudyState::new(&uid),
            _ => continue,
        };
        state.instances = n;
        if state.phase == Phase::Predicting {
            state.phase = Phase::Receiving;
        }
        if state.phase == Phase::Receiving {
            tracing::info!(study = %uid, instances = n, "resumed: to be predicted");
        } else if state.phase == Phase::Predicted {
            tracing::info!(study = %uid, "resumed: to be sent");
        }
        studies.insert(uid, Study::new(state));
    }
    Ok((studies, bytes))
}

/// What a study counts in the spool: its instances and its results (its small `state.json` is
/// not counted, here or anywhere, so that the count stays what it was at the start).
fn study_bytes(dir: &Path) -> u64 {
    dir_bytes(&dir.join("in")) + dir_bytes(&dir.join("out"))
}

/// The bytes of every file under `dir` (links not followed).
fn dir_bytes(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .max_depth(8)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
        .sum()
}

fn count_instances(dir: &Path) -> (usize, u64) {
    let mut n = 0;
    let mut b = 0;
    for e in walkdir::WalkDir::new(dir)
        .max_depth(2)
        .into_iter()
        .flatten()
    {
        if e.file_type().is_file() {
            n += 1;
            b += e.metadata().map(|m| m.len()).unwrap_or(0);
        }
    }
    (n, b)
}

#[cfg(test)]
mod tests {
    use super::intake::is_result_object;
    use super::status::read_request_line;
    use super::worker::passing;
    use super::*;

    /// A disk that is full: every write fails with ENOSPC.
    struct FullDisk;

    impl std::io::Write for FullDisk {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(28))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::Error::from_raw_os_error(28))
        }
    }

    /// A full disk while the reports are written is a reason that passes (the study is tried
    /// again once there is room), as it is for any other file; the data's own errors are not.
    #[test]
    fn a_full_disk_while_the_reports_are_written_is_a_passing_reason() {
        let r = crate::report::fixture_report();
        let e = crate::report::write_scans_csv(&r, FullDisk).err().unwrap();
        assert!(passing(&e), "{e}");
        assert!(e.to_string().contains("writing CSV"), "{e}");
        let e = crate::report::write_slices_csv(&r, FullDisk).err().unwrap();
        assert!(passing(&e), "{e}");
        let held =
            |i: usize| -> crate::error::Result<std::borrow::Cow<'_, [crate::report::SliceReport]>> {
                Ok(std::borrow::Cow::Borrowed(&r.scans[i].slices[..]))
            };
        let e = crate::report::write_report_json_with(&r, &held, FullDisk).unwrap_err();
        assert!(passing(&e), "{e}");
        assert!(!passing(&Error::scan(
            "s",
            Error::Invalid("a scan of two patients".into())
        )));
    }

    /// SR and Secondary Capture classes are results, set aside; CT images are not.
    #[test]
    fn structured_reports_and_secondary_captures_are_results_not_images() {
        for c in [
            "1.2.840.10008.5.1.4.1.1.88.33", // Comprehensive SR
            "1.2.840.10008.5.1.4.1.1.88.22", // Enhanced SR
            "1.2.840.10008.5.1.4.1.1.7",     // Secondary Capture
            "1.2.840.10008.5.1.4.1.1.7.4",   // multi-frame true colour SC
        ] {
            assert!(is_result_object(c), "{c}");
        }
        for c in [
            "1.2.840.10008.5.1.4.1.1.2",   // CT
            "1.2.840.10008.5.1.4.1.1.2.1", // Enhanced CT
            "1.2.840.10008.5.1.4.1.1.77.1",
            "1.2.840.10008.5.1.4.1.1.88",
        ] {
            assert!(!is_result_object(c), "{c}");
        }
    }

    /// A connected pair on loopback: (the client's end, the endpoint's end).
    fn pair() -> (TcpStream, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        (c, s)
    }

    #[test]
    fn a_request_line_is_read_whole_or_given_up_on_within_its_time_in_all() {
        let (mut c, mut s) = pair();
        // the head in two pieces: the whole head is read, so the close that follows the answer
        // is not a reset (with the head's end unread, the client lost the answer)
        c.write_all(b"GET /status HTTP/1.1\r\nHost: x\r\n").unwrap();
        let rest = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            c.write_all(b"Accept: */*\r\n\r\n").unwrap();
            c
        });
        assert_eq!(
            read_request_line(&mut s, Duration::from_secs(5)).unwrap(),
            "GET /status HTTP/1.1"
        );
        let _c = rest.join().unwrap();
        s.set_nonblocking(true).unwrap();
        let left = s.read(&mut [0u8; 64]);
        assert_eq!(
            left.as_ref().map_err(|e| e.kind()),
            Err(std::io::ErrorKind::WouldBlock),
            "{left:?}"
        );
        s.set_nonblocking(false).unwrap();

        // a client sending a byte every 50 ms for 3 s: each read alone comes in time, the line
        // does not (before, each byte renewed a 5 s timeout: 8192 such bytes held the endpoint
        // for 11 hours)
        let (c, mut s) = pair();
        let trickle = std::thread::spawn(move || {
            let mut c = c;
            for b in b"GET /status HTTP/1.1 and more, slowly, byte by byte.............".iter() {
                if c.write_all(&[*b]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let t0 = Instant::now();
        let e = read_request_line(&mut s, Duration::from_millis(300)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::TimedOut, "{e}");
        // timed out near its 300 ms, well before the trickle ends (66 bytes at 50 ms: 3.3 s)
        assert!(
            t0.elapsed() < Duration::from_millis(2500),
            "{:?}",
            t0.elapsed()
        );
        drop(s);
        trickle.join().unwrap();
    }
}
