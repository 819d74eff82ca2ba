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

impl StoreSink for Shared {
    fn receiving_dir(&self) -> PathBuf {
        self.opts.spool.join(RECEIVING)
    }

    fn admit(&self, _calling_ae: &str) -> std::result::Result<(), Refusal> {
        let used = self.spool_bytes.load(Ordering::SeqCst);
        if used >= self.opts.max_spool_bytes {
            return Err(self.spool_full(used));
        }
        Ok(())
    }

    fn reserve(&self, bytes: u64) -> std::result::Result<(), Refusal> {
        self.take_space(bytes)
    }

    fn release(&self, bytes: u64) {
        self.give_space(bytes);
    }

    fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal> {
        if is_result_object(r.sop_class) {
            // an SR or a Secondary Capture: what this node sends (routed back to it by the
            // PACS) or another system's results, never a CT image to predict: acknowledged,
            // so that the PACS shows no failure, and not kept, so that no new round starts
            let _ = milbase::atomic::remove_file(r.file);
            tracing::info!(
                sop_class = %r.sop_class,
                from = %r.calling_ae,
                "a structured report or secondary capture (results, not a CT image): \
                 acknowledged and set aside"
            );
            return Ok(());
        }
        self.accept_file(
            r.file,
            Source::Stored(r.sop_instance, r.association),
            r.calling_ae,
        )
    }

    fn association_ended(&self, association: u64) {
        // the study it was sending settles from now
        let now = Instant::now();
        let mut studies = lock(&self.studies);
        if let Some(uid) = lock(&self.sending).remove(&association) {
            if let Some(s) = studies.get_mut(&uid) {
                if s.senders.remove(&association) {
                    s.last_rx = now;
                }
            }
        }
    }
}

impl Shared {
    fn spool_full(&self, used: u64) -> Refusal {
        Refusal::new(
            OUT_OF_RESOURCES,
            format!(
                "spool full ({} of {} MiB)",
                used >> 20,
                self.opts.max_spool_bytes >> 20
            ),
        )
    }

    /// Counts `bytes` more on disk if they fit under `--max-spool-mib` (every byte: instances,
    /// files being received or retrieved, results), else refuses and counts nothing.
    fn take_space(&self, bytes: u64) -> std::result::Result<(), Refusal> {
        let max = self.opts.max_spool_bytes;
        self.spool_bytes
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                used.checked_add(bytes).filter(|n| *n <= max)
            })
            .map(|_| ())
            .map_err(|used| self.spool_full(used))
    }

    fn give_space(&self, bytes: u64) {
        let _ = self
            .spool_bytes
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                Some(used.saturating_sub(bytes))
            });
    }

    /// Takes a received file into its study (moved, synced): the C-STORE sink's work, and what
    /// the DICOMweb poll does with each instance it retrieves. `sop` is the command's SOP
    /// Instance UID (C-STORE), which the data set's own must equal; without it (polled) only
    /// CT instances are taken.
    ///
    /// An instance already in the spool is never replaced: the same bytes again are a
    /// duplicate (acknowledged, nothing changes); other bytes under the same SOP Instance UID
    /// are refused (0111H, "duplicate SOP instance", with an Error Comment) and logged, since
    /// the results already made or sent describe the first.
    fn accept_file(
        &self,
        file: &Path,
        source: Source<'_>,
        from: &str,
    ) -> std::result::Result<(), Refusal> {
        let (sop, association) = match source {
            Source::Stored(sop, a) => (Some(sop), Some(a)),
            Source::Polled(_) => (None, None),
        };
        let limits = self.opts.predict.limits;
        let h = preprocess::read::read_header_within(file, &limits).map_err(|e| {
            Refusal::new(
                CANNOT_UNDERSTAND,
                format!("not a readable image: {}", e.problem),
            )
        })?;
        if sop.is_some() && !h.sop_in_dataset {
            return Err(Refusal::new(
                CANNOT_UNDERSTAND,
                "the data set has no SOPInstanceUID (0008,0018)",
            ));
        }
        for (what, uid) in [
            ("StudyInstanceUID", &h.study_uid),
            ("SeriesInstanceUID", &h.series_uid),
            ("SOPInstanceUID", &h.sop_uid),
        ] {
            if !pacs::uid::is_valid(uid) {
                return Err(Refusal::new(
                    CANNOT_UNDERSTAND,
                    format!("{what} {uid:?} is not a UID"),
                ));
            }
        }
        if let Source::Polled(study) = source {
            if h.study_uid != study {
                let _ = milbase::atomic::remove_file(file);
                return Err(Refusal::new(
                    CANNOT_UNDERSTAND,
                    format!(
                        "an instance of study {} in the answer for study {study}: not taken",
                        h.study_uid
                    ),
                ));
            }
        }
        if sop.is_none() && !h.is_ct() {
            // polled: the study's other series (our own results among them) are not taken
            let _ = milbase::atomic::remove_file(file);
            return Ok(());
        }
        if sop.is_some_and(|s| s != h.sop_uid) {
            return Err(Refusal::new(
                CANNOT_UNDERSTAND,
                "SOPInstanceUID differs from the command's",
            ));
        }
        let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        let dir = self.study_dir(&h.study_uid);
        let dest = dir
            .join("in")
            .join(&h.series_uid)
            .join(format!("{}.dcm", h.sop_uid));
        // one instance compared and moved in at a time (a second copy arriving on another
        // association meanwhile finds the first in place), without the studies' lock: the
        // scheduler, the workers and the status endpoint never wait for this disk's syncs
        let stripe = h
            .sop_uid
            .bytes()
            .fold(0usize, |a, b| a.wrapping_mul(31) ^ b as usize);
        let _one = lock(&self.moving[stripe % self.moving.len()]);
        // a link or anything else planted at the instance's name is not an instance: removed,
        // never read or followed (symlink_metadata does not follow it)
        let stored = match std::fs::symlink_metadata(&dest) {
            Ok(m) if m.is_file() => true,
            Ok(_) => {
                self.error(format!(
                    "{}: a link or other non-file was planted at an instance's name in the \
                     spool: removed, not followed",
                    dest.display()
                ));
                if let Err(e) = milbase::atomic::remove_file(&dest) {
                    return Err(Refusal::new(OUT_OF_RESOURCES, format!("cannot write: {e}")));
                }
                false
            }
            Err(_) => false,
        };
        if stored {
            let same = same_file(&dest, file);
            let _ = milbase::atomic::remove_file(file);
            if sop.is_none() || same {
                // polled again, or the same instance sent again: already here
                tracing::debug!(study = %h.study_uid, from, "duplicate instance");
                return Ok(());
            }
            self.error(format!(
                "study {}: instance {} sent again by {from} with other content: refused, the \
                 stored one is kept",
                h.study_uid, h.sop_uid
            ));
            return Err(Refusal::new(
                DUPLICATE_SOP_INSTANCE,
                "SOP instance already stored with other content",
            ));
        }
        {
            let mut studies = lock(&self.studies);
            let waiting = studies
                .values()
                .filter(|s| matches!(s.state.phase, Phase::Receiving | Phase::Predicting))
                .count();
            let active = studies
                .get(&h.study_uid)
                .is_some_and(|s| matches!(s.state.phase, Phase::Receiving | Phase::Predicting));
            if !active && waiting >= self.opts.max_queue {
                return Err(Refusal::new(
                    OUT_OF_RESOURCES,
                    format!("queue full ({} studies waiting)", self.opts.max_queue),
                ));
            }
            // the study settles again from now: no prediction starts while the file moves in
            if let Some(s) = studies.get_mut(&h.study_uid) {
                s.last_rx = Instant::now();
            }
        }
        if sop.is_none() {
            // polled: the file was retrieved under its study's reservation; it counts from now
            self.take_space(size)?;
        }
        // acknowledged only by the node that holds the spool
        if let Err(why) = self.holds_spool() {
            if sop.is_none() {
                self.give_space(size);
            }
            return Err(Refusal::new(OUT_OF_RESOURCES, why));
        }
        let move_in = || -> std::io::Result<()> {
            let parent = dest.parent().unwrap_or(&dir);
            self.spool_dir(parent)?;
            // through held folders: a study folder swapped for a link is refused, not moved into
            milbase::atomic::move_file(file, &dest)?;
            std::fs::File::open(parent)?.sync_all()
        };
        if let Err(e) = move_in() {
            if sop.is_none() {
                self.give_space(size);
            }
            return Err(Refusal::new(OUT_OF_RESOURCES, format!("cannot write: {e}")));
        }
        if sop.is_some() {
            // the sender's reservation is given back after this: the file counts from now
            self.spool_bytes.fetch_add(size, Ordering::SeqCst);
        }
        let mut studies = lock(&self.studies);
        // it does not settle while the association that brings it is open and still sending it;
        // an association that moves on to another study (a router forwarding one after the
        // other) is done with the one before
        if let Some(a) = association {
            let before = lock(&self.sending).insert(a, h.study_uid.clone());
            if let Some(p) = before
                .filter(|p| *p != h.study_uid)
                .and_then(|p| studies.get_mut(&p))
            {
                p.senders.remove(&a);
            }
        }
        let known = studies.contains_key(&h.study_uid);
        let now = rfc3339(SystemTime::now());
        let study = studies
            .entry(h.study_uid.clone())
            .or_insert_with(|| Study::new(StudyState::new(&h.study_uid)));
        study.last_rx = Instant::now();
        study.state.last_received = now.clone();
        study.senders.extend(association);
        let mut changed = !known;
        study.state.instances += 1;
        // a new instance after the prediction: the study is predicted (and sent) again
        if !matches!(study.state.phase, Phase::Receiving | Phase::Predicting) {
            study.state.phase = Phase::Receiving;
            study.state.round += 1;
            study.state.first_received = now;
            study.state.error = None;
            study.state.attempts = 0;
            changed = true;
        }
        if changed {
            tracing::info!(
                study = %h.study_uid,
                round = study.state.round,
                from,
                "receiving"
            );
            // saved under the lock: a later state is never overwritten by an earlier one
            let st = study.state.clone();
            self.save(&st);
        }
        Ok(())
    }
}

/// Whether `sop_class` is one of the results objects a node like this one writes: a structured
/// report (`1.2.840.10008.5.1.4.1.1.88.*`) or a Secondary Capture (`…1.1.7` and its multi-frame
/// kinds `…1.1.7.1`–`…1.1.7.4`).
fn is_result_object(sop_class: &str) -> bool {
    const STORAGE: &str = "1.2.840.10008.5.1.4.1.1.";
    sop_class
        .strip_prefix(STORAGE)
        .is_some_and(|rest| rest.starts_with("88.") || rest == "7" || rest.starts_with("7."))
}

/// Where an instance comes from: a C-STORE (with the command's SOP Instance UID and its
/// association) or the DICOMweb poll's retrieval of one study (with that study's UID).
#[derive(Debug, Clone, Copy)]
enum Source<'a> {
    /// The command's SOP Instance UID, and the association.
    Stored(&'a str, u64),
    Polled(&'a str),
}

/// Whether two files hold the same bytes (read in pieces: neither is held in memory whole).
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(fa), Ok(fb)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    match (fa.metadata(), fb.metadata()) {
        (Ok(ma), Ok(mb)) if ma.len() == mb.len() => {}
        _ => return false,
    }
    let (mut ra, mut rb) = (std::io::BufReader::new(fa), std::io::BufReader::new(fb));
    let (mut ba, mut bb) = (vec![0u8; 64 << 10], vec![0u8; 64 << 10]);
    loop {
        let n = match ra.read(&mut ba) {
            Ok(n) => n,
            Err(_) => return false,
        };
        if n == 0 {
            return rb.read(&mut bb[..1]).is_ok_and(|m| m == 0);
        }
        if rb.read_exact(&mut bb[..n]).is_err() || ba[..n] != bb[..n] {
            return false;
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

fn scheduler(shared: &Shared, tx: &Sender<Job>, stop: &AtomicBool) {
    let mut last_cleanup = Instant::now() - Duration::from_secs(3600);
    while !stop.load(Ordering::SeqCst) {
        if shared.holds_spool().is_err() {
            // nothing more is scheduled: the node holding the spool now takes the studies
            return;
        }
        let mut jobs = Vec::new();
        {
            let mut studies = lock(&shared.studies);
            let now = Instant::now();
            for (uid, s) in studies.iter_mut() {
                if s.busy {
                    continue;
                }
                match s.state.phase {
                    Phase::Receiving
                        if now.duration_since(s.last_rx) >= shared.opts.settle
                            && now >= s.next_try
                            && s.senders.is_empty() =>
                    {
                        s.busy = true;
                        jobs.push(Job::Predict(uid.clone()));
                    }
                    Phase::Predicted if now >= s.next_send => {
                        s.busy = true;
                        jobs.push(Job::Send(uid.clone()));
                    }
                    _ => {}
                }
            }
        }
        for j in jobs {
            if tx.send(j).is_err() {
                return;
            }
        }
        if last_cleanup.elapsed() >= Duration::from_secs(5) {
            last_cleanup = Instant::now();
            cleanup(shared);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Removes the studies done longer ago than `keep`.
fn cleanup(shared: &Shared) {
    let old: Vec<String> = lock(&shared.studies)
        .iter()
        .filter(|(_, s)| {
            matches!(s.state.phase, Phase::Sent | Phase::Skipped)
                && !s.busy
                && s.done_at.elapsed() >= shared.opts.keep
        })
        .map(|(u, _)| u.clone())
        .collect();
    for uid in old {
        let dir = shared.study_dir(&uid);
        let b = study_bytes(&dir);
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => {
                lock(&shared.studies).remove(&uid);
                shared.give_space(b);
                tracing::info!(study = %uid, "removed from the spool (kept its time)");
            }
            Err(e) => shared.error(format!("{}: not removed: {e}", dir.display())),
        }
    }
}

fn worker(shared: &Shared, rx: &Mutex<Receiver<Job>>, ready: &Sender<Result<()>>) {
    let predictor = match Predictor::open(&shared.opts.model, shared.opts.predict.clone()) {
        Ok(p) => {
            let _ = ready.send(Ok(()));
            p
        }
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    loop {
        let job = match lock(rx).recv() {
            Ok(j) => j,
            Err(_) => return,
        };
        match job {
            Job::Predict(uid) => {
                if predict_study(shared, &predictor, &uid) {
                    send_study(shared, &uid);
                }
            }
            Job::Send(uid) => send_study(shared, &uid),
        }
    }
}

/// Predicts one study; true when it has results to send.
fn predict_study(shared: &Shared, predictor: &Predictor, uid: &str) -> bool {
    if shared.holds_spool().is_err() {
        return false;
    }
    let (round, last_rx, sent_before) = {
        let studies = lock(&shared.studies);
        match studies.get(uid) {
            Some(s) => (s.state.round, s.last_rx, s.state.reports_sent.clone()),
            None => return false,
        }
    };
    shared.update(uid, |s| s.state.phase = Phase::Predicting);
    let dir = shared.study_dir(uid);
    let out = dir.join("out");
    if std::fs::symlink_metadata(&out).is_ok_and(|m| m.is_dir()) {
        // a run stopped half-way, or an earlier round's: nothing of it is sent
        let old = dir_bytes(&out);
        match std::fs::remove_dir_all(&out) {
            Ok(()) => shared.give_space(old),
            Err(e) => shared.error(format!("{}: {e}", out.display())),
        }
    }
    // the results' folder, a real one (a link planted there is removed, not followed: predict
    // would take a link at its output folder as the user's choice)
    if let Err(e) = shared.spool_dir(&out) {
        shared.error(format!("{}: {e}", out.display()));
    }
    let job = PredictJob {
        model: shared.opts.model.clone(),
        inputs: vec![dir.join("in")],
        out: out.clone(),
        labels: Vec::new(),
        html: shared.opts.html,
        options: shared.opts.predict.clone(),
        pacs: PacsJob {
            // this round's reports supersede those an earlier round sent
            dicom: Some(DicomOptions {
                supersede: sent_before,
                ..shared.opts.dicom.clone()
            }),
            send: Vec::new(),
            send_options: shared.opts.send_options.clone(),
            pull: None,
            nifti_dicom: Vec::new(),
        },
        shard: milbase::Shard::ALL,
        force: false,
    };
    let t = Instant::now();
    let result = run_with(predictor, &job, &milbase::progress::Quiet);
    // the results count in the spool too (they are written whatever the limit says: a
    // prediction is not refused half-way)
    shared
        .spool_bytes
        .fetch_add(dir_bytes(&out), Ordering::SeqCst);
    let after = last_rx.elapsed().as_secs_f64();
    let mut to_send = false;
    // a failure that can pass (the disk, not the study), or results that could not all be
    // written: predicted again after a backoff, and after a restart, which finds it receiving
    let retry = match &result {
        Err(e) if passing(e) => Some(e.to_string()),
        Ok(o) if !o.dicom_failed.is_empty() => Some(o.dicom_failed.join("; ")),
        _ => None,
    };
    shared.update(uid, |s| {
        // instances that came during the prediction: it is done again once they settle
        let newer = s.state.round != round || s.last_rx > last_rx;
        s.done_at = Instant::now();
        match &result {
            _ if retry.is_some() => {
                s.state.attempts += 1;
                let wait = retry_after(s.state.attempts);
                s.next_try = Instant::now() + wait;
                s.state.phase = Phase::Receiving;
                s.state.error = Some(format!(
                    "attempt {} failed, tried again in {} s: {}",
                    s.state.attempts,
                    wait.as_secs(),
                    retry.as_deref().unwrap_or_default()
                ));
            }
            Ok(o) => {
                s.state.phase = Phase::Predicted;
                s.state.attempts = 0;
                s.state.predicted_after_s = Some(after);
                s.state.sent_after_s = None;
                s.state.sends.clear();
                s.state.error = None;
                s.state.scans = o
                    .report
                    .scans
                    .iter()
                    .map(|r| ScanLine {
                        id: r.id.clone(),
                        slices: r.n_slices,
                        probability: r.probability,
                        sd: r.sd,
                        positive: r.positive,
                        uncertain: r.uncertain,
                    })
                    .collect();
                s.state.skipped = o.report.skipped.clone();
                s.state.files = o
                    .dicom_files
                    .iter()
                    .map(|f| f.strip_prefix(&dir).unwrap_or(f).to_path_buf())
                    .collect();
                if s.state.files.is_empty() || shared.opts.send.is_empty() {
                    s.state.phase = Phase::Sent;
                }
                // no scan predicted, and scans that failed for their content: the study
                // failed, with their reasons (not "sent" with nothing)
                if o.report.scans.is_empty() && !o.failed.is_empty() {
                    s.state.phase = Phase::Failed;
                    s.state.error = Some(o.failed.join("; "));
                }
                s.next_send = Instant::now();
            }
            Err(e) => {
                let no_ct = matches!(e, Error::NoScan(_));
                s.state.phase = if no_ct { Phase::Skipped } else { Phase::Failed };
                s.state.error = Some(e.to_string());
            }
        }
        if newer {
            s.state.phase = Phase::Receiving;
        }
        // this worker sends it now: the study stays busy, so that no other worker sends it too
        to_send = s.state.phase == Phase::Predicted;
        s.busy = to_send;
    });
    match &result {
        Ok(o) => {
            let top = o.report.scans.first();
            tracing::info!(
                study = %uid,
                scans = o.report.scans.len(),
                probability = top.map(|s| s.probability),
                positive = o.report.scans.iter().any(|s| s.positive),
                uncertain = o.report.scans.iter().any(|s| s.uncertain),
                skipped = o.report.skipped.len(),
                seconds = t.elapsed().as_secs_f64(),
                "predicted"
            );
            for s in &o.report.skipped {
                tracing::info!(study = %uid, "skipped: {s}");
            }
        }
        Err(e) => shared.error(format!("study {uid}: not predicted: {e}")),
    }
    if let (Ok(_), Some(why)) = (&result, &retry) {
        shared.error(format!(
            "study {uid}: results not all written, predicted again: {why}"
        ));
    }
    to_send
}

/// Whether an error can pass by itself (I/O: a full disk, a folder that could not be
/// written), as opposed to one of the study's content, which the same instances give again.
fn passing(e: &Error) -> bool {
    match e {
        Error::Io { .. } => true,
        Error::Scan { source, .. } => passing(source),
        Error::Preprocess(p) => matches!(p, preprocess::Error::Io { .. }),
        _ => false,
    }
}

/// The wait before a failed prediction is tried again: 5 s, doubling, at most 10 minutes.
fn retry_after(attempts: u32) -> Duration {
    Duration::from_secs((5u64 << attempts.saturating_sub(1).min(7)).min(600))
}

/// Whether `rel` names a regular file inside `dir`: relative, of plain components only, and no
/// link on the way (each folder a real folder, the file a regular file).
pub fn regular_inside(dir: &Path, rel: &Path) -> bool {
    use std::path::Component;
    let parts: Vec<_> = rel.components().collect();
    if parts.is_empty() || !parts.iter().all(|c| matches!(c, Component::Normal(_))) {
        return false;
    }
    let mut at = dir.to_path_buf();
    for (k, c) in parts.iter().enumerate() {
        at.push(c.as_os_str());
        let Ok(m) = std::fs::symlink_metadata(&at) else {
            return false;
        };
        let last = k + 1 == parts.len();
        if (last && !m.is_file()) || (!last && !m.is_dir()) {
            return false;
        }
    }
    true
}

/// Sends a predicted study's results to every destination; what fails is tried again later.
fn send_study(shared: &Shared, uid: &str) {
    let (files, last) = {
        let studies = lock(&shared.studies);
        match studies.get(uid) {
            Some(s) if s.state.phase == Phase::Predicted => (s.state.files.clone(), s.last_rx),
            Some(_) => {
                drop(studies);
                shared.update(uid, |s| s.busy = false);
                return;
            }
            None => return,
        }
    };
    let dir = shared.study_dir(uid);
    if shared.holds_spool().is_err() {
        // left as it is: the node holding the spool now sends it
        return;
    }
    // only the results predict wrote, as regular files inside the study's folder: a link
    // planted at one's name or on the way (to another patient's file, say) is never followed,
    // and a state.json edited while the node was down (an absolute path, a `..`) sends nothing
    // it names; the study is predicted again
    if let Some(f) = files.iter().find(|f| !regular_inside(&dir, f)) {
        shared.error(format!(
            "study {uid}: {} is not a regular file inside the study's folder (a link or other \
             file was planted, it was removed, or the state names a path outside): nothing sent, \
             the study is predicted again",
            f.display()
        ));
        shared.update(uid, |s| {
            s.busy = false;
            s.state.phase = Phase::Receiving;
            s.state.attempts += 1;
            s.next_try = Instant::now() + retry_after(s.state.attempts);
        });
        return;
    }
    let abs: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    let reports: Vec<_> = shared
        .opts
        .send
        .iter()
        .map(|d| pacs::send::send(&abs, d, &shared.opts.send_options))
        .collect();
    let ok = reports.iter().all(|r| r.failed.is_empty());
    // the reports now in the PACS, as the next round's will name them
    let sent_now: Vec<pacs::sr::Predecessor> = if ok {
        abs.iter()
            .filter(|f| {
                f.file_name()
                    .is_some_and(|n| n == crate::report::dicomout::SR_FILE)
            })
            .filter_map(|f| pacs::sr::Predecessor::read(f, 64 << 20).ok())
            .collect()
    } else {
        Vec::new()
    };
    let now = rfc3339(SystemTime::now());
    shared.update(uid, |s| {
        s.busy = false;
        s.state.sends = reports
            .iter()
            .map(|r| SendLine {
                destination: r.destination.clone(),
                sent: r.sent,
                failed: r.failed.iter().take(20).cloned().collect(),
                attempts: r.attempts,
                at: now.clone(),
            })
            .collect();
        if ok {
            for r in &sent_now {
                s.state
                    .reports_sent
                    .retain(|o| o.source_series_uid != r.source_series_uid);
                s.state.reports_sent.push(r.clone());
            }
            s.state.phase = Phase::Sent;
            s.state.sent_after_s = Some(last.elapsed().as_secs_f64());
            s.done_at = Instant::now();
        } else {
            s.next_send = Instant::now() + shared.opts.resend_after;
        }
    });
    for r in &reports {
        if r.failed.is_empty() {
            tracing::info!(study = %uid, to = %r.destination, objects = r.sent, "sent");
        } else {
            shared.error(format!(
                "study {uid}: {} of {} object(s) not stored by {} (tried again in {} s): {}",
                r.failed.len(),
                r.failed.len() + r.sent,
                r.destination,
                shared.opts.resend_after.as_secs(),
                r.failed.first().cloned().unwrap_or_default()
            ));
        }
    }
}

/// Polls the DICOMweb service every `poll.every` until `stop`.
fn poll_loop(shared: &Shared, poll: &PollOptions, stop: &AtomicBool) {
    let path = shared.opts.spool.join("polled.json");
    let mut st: PollState = milbase::bounded::open_regular_reader(&path, 256 << 20)
        .ok()
        .and_then(|r| serde_json::from_reader(r).ok())
        .unwrap_or_default();
    let first = st.seen.is_empty() && !path.exists();
    if first {
        st.since = poll
            .since
            .clone()
            .unwrap_or_else(|| da(SystemTime::now() - Duration::from_secs(86_400)));
    }
    let mut next = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        if Instant::now() < next {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        next = Instant::now() + poll.every;
        let hits =
            match pacs::web::search_studies(&poll.service, "CT", &st.since, 1000, poll.timeout) {
                Ok(h) => h,
                Err(e) => {
                    shared.error(format!("DICOMweb poll: {e}"));
                    continue;
                }
            };
        // what polled.json remembers: the studies of the latest answer only (later polls look
        // at yesterday's and today's studies: older entries would never be consulted again, and
        // the file would grow without bound)
        let latest: std::collections::BTreeSet<String> =
            hits.iter().map(|h| h.study_uid.clone()).collect();
        st.seen.retain(|uid, _| latest.contains(uid));
        for hit in hits {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            if hit.instances.is_some() && st.seen.get(&hit.study_uid) == Some(&hit.instances) {
                continue;
            }
            if poll_study(shared, poll, &hit.study_uid) {
                st.seen.insert(hit.study_uid, hit.instances);
            }
        }
        // from now on yesterday's and today's studies
        st.since = da(SystemTime::now() - Duration::from_secs(86_400));
        let bytes = serde_json::to_vec(&st).unwrap_or_default();
        if let Err(e) = milbase::write_atomic(&path, &bytes) {
            shared.error(format!("{}: {e}", path.display()));
        }
    }
}

/// Retrieves one study into the spool; true when every instance was taken (or refused for good).
fn poll_study(shared: &Shared, poll: &PollOptions, uid: &str) -> bool {
    let dir = shared
        .opts
        .spool
        .join(RECEIVING)
        .join(format!("poll-{}", preprocess::scan::scan_id(uid, "")));
    let _ = std::fs::remove_dir_all(&dir);
    // the retrieval's files count in the spool while they are written: room for the largest
    // study is reserved first (the study waits for a later poll when there is none)
    if let Err(r) = shared.take_space(poll.max_study_bytes) {
        shared.error(format!("study {uid}: not retrieved now: {}", r.reason));
        return false;
    }
    if let Err(e) = shared.spool_dir(&dir) {
        shared.error(format!("{}: {e}", dir.display()));
        shared.give_space(poll.max_study_bytes);
        return false;
    }
    let got =
        pacs::web::retrieve_study(&poll.service, uid, poll.max_study_bytes, poll.timeout, &dir);
    // from here each file counts as it is taken into its study
    shared.give_space(poll.max_study_bytes);
    let mut complete = true;
    match got {
        Ok(n) => {
            tracing::debug!(study = %uid, instances = n, "retrieved by WADO-RS");
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|d| d.flatten().map(|e| e.path()).collect())
                .unwrap_or_default();
            files.sort();
            for f in files {
                if let Err(r) = shared.accept_file(&f, Source::Polled(uid), "DICOMweb") {
                    tracing::warn!(study = %uid, "retrieved instance refused ({:04X}H): {}", r.status, r.reason);
                    // a full spool or queue: the study is retrieved again at a later poll
                    complete &= r.status != OUT_OF_RESOURCES;
                }
            }
        }
        Err(e) => {
            shared.error(format!("study {uid}: not retrieved: {e}"));
            complete = false;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    complete
}

/// The status endpoint's answer.
#[derive(Debug, Serialize)]
struct Status<'a> {
    ae_title: &'a str,
    started: String,
    spool_bytes: u64,
    queue: HashMap<&'static str, usize>,
    studies: Vec<&'a StudyState>,
    errors: Vec<String>,
}

fn status_json(shared: &Shared) -> Vec<u8> {
    let studies = lock(&shared.studies);
    let mut queue: HashMap<&'static str, usize> = HashMap::new();
    for s in studies.values() {
        let k = match s.state.phase {
            Phase::Receiving => "receiving",
            Phase::Predicting => "predicting",
            Phase::Predicted => "to_send",
            Phase::Sent => "sent",
            Phase::Skipped => "skipped",
            Phase::Failed => "failed",
        };
        *queue.entry(k).or_default() += 1;
    }
    let mut last: Vec<&StudyState> = studies.values().map(|s| &s.state).collect();
    last.sort_by(|a, b| b.updated.cmp(&a.updated));
    last.truncate(50);
    let st = Status {
        ae_title: &shared.opts.scp.ae_title,
        started: rfc3339(shared.started),
        spool_bytes: shared.spool_bytes.load(Ordering::SeqCst),
        queue,
        studies: last,
        errors: lock(&shared.errors).iter().cloned().collect(),
    };
    serde_json::to_vec_pretty(&st).unwrap_or_default()
}

/// The status endpoint: each connection answered on a thread of its own, within
/// [`STATUS_WITHIN`] in all, at most [`STATUS_CONNECTIONS`] at once. When they are all open, the
/// oldest is closed for the newcomer: clients holding idle or trickling connections cannot keep
/// a monitor waiting for more than the time its own request takes.
fn status_loop(l: TcpListener, shared: &Arc<Shared>, stop: &AtomicBool) {
    if l.set_nonblocking(true).is_err() {
        return;
    }
    let open: Arc<Mutex<HashMap<u64, (Instant, TcpStream)>>> = Arc::default();
    let mut next = 0u64;
    while !stop.load(Ordering::SeqCst) {
        match l.accept() {
            Ok((stream, peer)) => {
                let Ok(handle) = stream.try_clone() else {
                    continue;
                };
                {
                    let mut o = lock(&open);
                    if o.len() >= STATUS_CONNECTIONS {
                        if let Some(k) = o.iter().min_by_key(|(_, (t, _))| *t).map(|(k, _)| *k) {
                            if let Some((_, old)) = o.remove(&k) {
                                let _ = old.shutdown(std::net::Shutdown::Both);
                                tracing::debug!(
                                    "status: oldest of {STATUS_CONNECTIONS} connections closed \
                                     for {peer}"
                                );
                            }
                        }
                    }
                    o.insert(next, (Instant::now(), handle));
                }
                let (id, open, shared) = (next, open.clone(), shared.clone());
                next += 1;
                let spawned = std::thread::Builder::new()
                    .name("status-answer".into())
                    .spawn(move || {
                        let _ = answer_status(stream, &shared);
                        lock(&open).remove(&id);
                    });
                if spawned.is_err() {
                    tracing::warn!("status: no thread for {peer}");
                }
            }
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

/// The status endpoint's bounds on a request: its head, the time it may take to come and the
/// answer to go, and the connections open at once.
const STATUS_HEAD_BYTES: usize = 8192;
const STATUS_WITHIN: Duration = Duration::from_secs(2);
const STATUS_CONNECTIONS: usize = 32;

/// A request's first line (without its line end). The head is read to its empty line (at most
/// [`STATUS_HEAD_BYTES`]), so that no unread request is left when the connection closes (the
/// close would then be a reset, and the client would lose the answer), within `within` in all:
/// a timeout per read would let a client sending a byte now and then hold the endpoint for hours.
fn read_request_line(stream: &mut TcpStream, within: Duration) -> std::io::Result<String> {
    let deadline = Instant::now() + within;
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    let late = || std::io::Error::new(std::io::ErrorKind::TimedOut, "no request in time");
    let ended =
        |h: &[u8]| h.windows(4).any(|w| w == b"\r\n\r\n") || h.windows(2).any(|w| w == b"\n\n");
    while head.len() < STATUS_HEAD_BYTES && !ended(&head) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(late());
        }
        stream.set_read_timeout(Some(left))?;
        let want = buf.len().min(STATUS_HEAD_BYTES - head.len());
        match stream.read(&mut buf[..want]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            // a read timeout is WouldBlock on Unix, TimedOut elsewhere
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(late())
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    Ok(String::from_utf8_lossy(line).trim_end().to_string())
}

/// One HTTP exchange: `GET /` (or `/status`) gets the JSON, anything else 404.
fn answer_status(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_write_timeout(Some(STATUS_WITHIN))?;
    let line = read_request_line(&mut stream, STATUS_WITHIN)?;
    let path = line.split_whitespace().nth(1).unwrap_or("");
    let (code, body, kind) = if line.starts_with("GET ") && (path == "/" || path == "/status") {
        ("200 OK", status_json(shared), "application/json")
    } else {
        (
            "404 Not Found",
            b"GET / or /status\n".to_vec(),
            "text/plain",
        )
    };
    write!(
        stream,
        "HTTP/1.1 {code}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(&body)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
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
