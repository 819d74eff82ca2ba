//! A DICOM Storage SCP (dicom-ul): C-ECHO and C-STORE, each received instance streamed into a
//! file and handed to a [`StoreSink`], which answers with the status the sender gets. Nothing is
//! acknowledged before the sink says it is kept: a sink that writes atomically and syncs gives
//! "acknowledged means on disk".
//!
//! Who may talk to it: [`Allow`] entries (`AE@host`, either side `*`); a peer whose address or
//! calling AE title matches none is rejected at association (A-ASSOCIATE-RJ, "calling AE title
//! not recognized"). There is no TLS here: put a TLS-terminating proxy (stunnel, nginx stream)
//! in front where the network needs it.
//!
//! Bounds: PDUs of at most [`ScpOptions::max_pdu`] bytes (dicom-ul checks the length before it
//! reads), an instance of at most [`ScpOptions::max_instance_bytes`] (the rest is drained and the
//! C-STORE answered with A700H, out of resources), deadlines that no trickle of bytes renews
//! (the whole A-ASSOCIATE-RQ within [`ScpOptions::association_timeout`], each later PDU within
//! [`ScpOptions::timeout`]), at most [`ScpOptions::max_pending`] connections waiting for their
//! request (the oldest closed for a newcomer) and [`ScpOptions::max_associations`] associations
//! at once (more are rejected, transient). With `--allow` entries, a host that none names is
//! closed at once, before anything is read. Every refusal is logged.

use milbase::sync::lock;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dicom_core::{DataElement, PrimitiveValue, VR};
use dicom_dictionary_std::{tags, uids};
use dicom_encoding::TransferSyntaxIndex;
use dicom_object::InMemDicomObject;
use dicom_transfer_syntax_registry::TransferSyntaxRegistry;
use dicom_ul::association::server::AccessControl;
use dicom_ul::association::Association;
use dicom_ul::pdu::{AssociationRJServiceUserReason, PDataValue, PDataValueType, UserIdentity};
use dicom_ul::{Pdu, ServerAssociationOptions};

use crate::error::{Error, Result};

/// C-STORE status: success.
pub const SUCCESS: u16 = 0x0000;
/// C-STORE status: refused, out of resources (spool full, queue full, instance too large).
pub const OUT_OF_RESOURCES: u16 = 0xA700;
/// C-STORE status: error, data set does not match SOP class.
pub const DATA_SET_MISMATCH: u16 = 0xA900;
/// C-STORE status: error, cannot understand.
pub const CANNOT_UNDERSTAND: u16 = 0xC000;
/// Status: failure, duplicate SOP instance (PS3.7 C.5.8): an instance of that SOP Instance UID
/// is already stored with other content.
pub const DUPLICATE_SOP_INSTANCE: u16 = 0x0111;

/// The storage SOP classes accepted: CT (what is predicted) and the other common image classes
/// (received, recorded and skipped, so that a router forwarding a whole study does not fail).
pub const STORAGE_CLASSES: &[&str] = &[
    uids::CT_IMAGE_STORAGE,
    uids::ENHANCED_CT_IMAGE_STORAGE,
    uids::MR_IMAGE_STORAGE,
    uids::ENHANCED_MR_IMAGE_STORAGE,
    uids::SECONDARY_CAPTURE_IMAGE_STORAGE,
    uids::COMPUTED_RADIOGRAPHY_IMAGE_STORAGE,
    uids::DIGITAL_X_RAY_IMAGE_STORAGE_FOR_PRESENTATION,
    uids::POSITRON_EMISSION_TOMOGRAPHY_IMAGE_STORAGE,
    uids::ULTRASOUND_IMAGE_STORAGE,
    uids::X_RAY_ANGIOGRAPHIC_IMAGE_STORAGE,
    uids::COMPREHENSIVE3_DSR_STORAGE,
    uids::COMPREHENSIVE_SR_STORAGE,
    uids::ENHANCED_SR_STORAGE,
    uids::GRAYSCALE_SOFTCOPY_PRESENTATION_STATE_STORAGE,
];

/// Transfer syntaxes accepted, in our order of preference: the uncompressed ones and those the
/// image pipeline decodes.
pub const TRANSFER_SYNTAXES: &[&str] = &[
    uids::EXPLICIT_VR_LITTLE_ENDIAN,
    uids::IMPLICIT_VR_LITTLE_ENDIAN,
    uids::JPEG_LOSSLESS_SV1,
    uids::JPEG_LOSSLESS,
    uids::JPEG_BASELINE8_BIT,
    uids::JPEG_EXTENDED12_BIT,
    uids::JPEG2000_LOSSLESS,
    uids::JPEG2000,
    uids::JPEGLS_LOSSLESS,
    uids::JPEGLS_NEAR_LOSSLESS,
    uids::RLE_LOSSLESS,
    uids::DEFLATED_EXPLICIT_VR_LITTLE_ENDIAN,
];

/// Who may associate: a calling AE title (or any, `*`) from a host (or any, `*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allow {
    /// None: any calling AE title.
    pub ae: Option<String>,
    /// The host as given (for messages).
    pub host: String,
    /// Its addresses; empty: any host.
    pub addrs: Vec<IpAddr>,
}

impl Allow {
    /// Parses `AE@host`, `AE@*`, `*@host` (the host a name, resolved now, or an address).
    pub fn parse(s: &str) -> Result<Allow> {
        let (ae, host) = s.rsplit_once('@').ok_or_else(|| {
            Error::Invalid(format!(
                "{s:?}: an allowed peer is AE@host (either may be *)"
            ))
        })?;
        let ae = match ae {
            "*" => None,
            ae => {
                crate::store::check_ae_title(ae)?;
                Some(ae.to_string())
            }
        };
        let addrs = match host {
            "*" => Vec::new(),
            h => {
                let found: Vec<IpAddr> = match h.parse::<IpAddr>() {
                    Ok(ip) => vec![ip],
                    Err(_) => (h, 0)
                        .to_socket_addrs()
                        .map_err(|e| Error::Invalid(format!("{s:?}: host {h:?} not found: {e}")))?
                        .map(|a| a.ip())
                        .collect(),
                };
                if found.is_empty() {
                    return Err(Error::Invalid(format!("{s:?}: host {h:?} has no address")));
                }
                found
            }
        };
        Ok(Allow {
            ae,
            host: host.to_string(),
            addrs,
        })
    }

    fn host_matches(&self, peer: IpAddr) -> bool {
        self.addrs.is_empty() || self.addrs.iter().any(|a| same_ip(*a, peer))
    }
}

/// IPv4 and its IPv6-mapped form are the same peer.
fn same_ip(a: IpAddr, b: IpAddr) -> bool {
    let canon = |ip: IpAddr| match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    canon(a) == canon(b)
}

/// An AE title as it came, without the spaces (and NUL padding) DICOM allows around it; any
/// other character (a TAB, a control character) stays and makes the title unlike any allowed.
fn ae_trim(s: &str) -> &str {
    s.trim_matches([' ', '\0'])
}

/// The AE titles of an A-ASSOCIATE-RQ as they are on the wire, looked at (peeked, not read)
/// before dicom-ul reads the request: dicom-ul trims every kind of white space from them, so a
/// title `PACS<TAB>` would reach the access check as `PACS`. A title is 16 bytes of printable
/// ASCII without a backslash (PS3.5 AE), padded with spaces; anything else is refused here.
/// The wait is bounded by `within` (a sender writes its request at once; a connection that
/// closes with less than the titles pending cannot be told from a slow one, so it waits that
/// long), and by the connection's deadline (its socket is shut down when it passes).
fn check_raw_titles(stream: &TcpStream, within: Duration) -> std::result::Result<(), String> {
    // PDU type, reserved, length (4), protocol version (2), reserved (2), called AE, calling AE
    const NEED: usize = 6 + 4 + 32;
    let mut buf = [0u8; NEED];
    let deadline = Instant::now() + within;
    loop {
        match stream.peek(&mut buf) {
            Ok(0) => return Err("closed before its request".into()),
            Ok(n) if n >= NEED || buf[0] != 0x01 => break,
            // a request too short to hold the titles: dicom-ul refuses it
            Ok(n) if n >= 6 && u32::from_be_bytes([buf[2], buf[3], buf[4], buf[5]]) < 36 => {
                return Ok(())
            }
            Ok(_) if Instant::now() >= deadline => {
                return Err(format!(
                    "its request's AE titles did not arrive within {} s",
                    within.as_secs_f64()
                ))
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("{e}")),
        }
    }
    if buf[0] != 0x01 {
        // not a request: dicom-ul answers it
        return Ok(());
    }
    for (what, title) in [("called", &buf[10..26]), ("calling", &buf[26..42])] {
        if let Some(b) = title
            .iter()
            .find(|&&b| !(0x20..0x7f).contains(&b) || b == b'\\')
        {
            return Err(format!(
                "its {what} AE title holds the byte {b:#04x}, not allowed in an AE title"
            ));
        }
    }
    Ok(())
}

/// The calling AE titles a peer may use (None: any), from the entries that match its address;
/// it takes one of the association places once the titles are checked.
struct PeerAccess {
    /// Some entry allows any AE from this peer.
    any: bool,
    aes: Vec<String>,
    ticket: Arc<Ticket>,
    max_associations: usize,
}

impl AccessControl for PeerAccess {
    fn check_access(
        &self,
        this_ae_title: &str,
        calling_ae_title: &str,
        called_ae_title: &str,
        _user_identity: Option<&UserIdentity>,
    ) -> std::result::Result<(), AssociationRJServiceUserReason> {
        if ae_trim(called_ae_title) != ae_trim(this_ae_title) {
            return Err(AssociationRJServiceUserReason::CalledAETitleNotRecognized);
        }
        let calling = ae_trim(calling_ae_title);
        if !(self.any || self.aes.iter().any(|a| a == calling)) {
            return Err(AssociationRJServiceUserReason::CallingAETitleNotRecognized);
        }
        if !self.ticket.associate(self.max_associations) {
            tracing::warn!(
                "DICOM: {}: association rejected: {} associations at once already",
                self.ticket.peer,
                self.max_associations
            );
            return Err(AssociationRJServiceUserReason::NoReasonGiven);
        }
        Ok(())
    }
}

/// Options of the SCP; see [`ScpOptions::default`] for the defaults.
#[derive(Debug, Clone)]
pub struct ScpOptions {
    /// Our AE title (the called AE title must match it).
    pub ae_title: String,
    /// Who may associate; empty: anyone (said in the log at start).
    pub allow: Vec<Allow>,
    /// Largest PDU we accept and announce (default 64 KiB).
    pub max_pdu: u32,
    /// Largest instance; larger ones are drained and refused with A700H (default 256 MiB).
    pub max_instance_bytes: u64,
    /// The time each PDU may take to arrive whole, counted from when we start waiting for it
    /// (idle time included), and each answer to be written (default 60 s). Not renewed per
    /// byte: a peer trickling a byte now and then is closed when its time is up.
    pub timeout: Duration,
    /// The time a new connection has to deliver its whole A-ASSOCIATE-RQ (default 10 s); an
    /// idle or slow connection is closed when it is up.
    pub association_timeout: Duration,
    /// Associations at once (default 16); a request beyond them is rejected (A-ASSOCIATE-RJ),
    /// the association places are taken only once the peer is let in.
    pub max_associations: usize,
    /// Connections that have not yet asked for an association, at once (default 32). When
    /// they are all taken, the oldest is closed to make room: strangers and slow peers cannot
    /// keep a newcomer out for longer than it takes to send its request.
    pub max_pending: usize,
}

impl Default for ScpOptions {
    fn default() -> Self {
        Self {
            ae_title: "ICH".into(),
            allow: Vec::new(),
            max_pdu: 64 * 1024,
            max_instance_bytes: 256 << 20,
            timeout: Duration::from_secs(60),
            association_timeout: Duration::from_secs(10),
            max_associations: 16,
            max_pending: 32,
        }
    }
}

/// One received instance, in a temporary file (the data set as it came, in `transfer_syntax`).
#[derive(Debug)]
pub struct Received<'a> {
    /// The association it came on (unique among this SCP's; [`StoreSink::association_ended`]
    /// says when it ends).
    pub association: u64,
    pub calling_ae: &'a str,
    pub peer: SocketAddr,
    pub sop_class: &'a str,
    pub sop_instance: &'a str,
    pub transfer_syntax: &'a str,
    /// A Part 10 file (preamble, file meta, data set), synced; the sink moves or removes it.
    pub file: &'a Path,
}

/// Why an instance is refused: the C-STORE status and a reason (logged, and sent as the
/// response's Error Comment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub reason: String,
}

impl Refusal {
    pub fn new(status: u16, reason: impl Into<String>) -> Self {
        Self {
            status,
            reason: reason.into(),
        }
    }
}

/// Where received instances go.
pub trait StoreSink: Send + Sync {
    /// A folder on the same file system as the sink's store, for files being received.
    fn receiving_dir(&self) -> PathBuf;
    /// Refuse before the data set is received (spool full, queue full): the data is drained.
    fn admit(&self, _calling_ae: &str) -> std::result::Result<(), Refusal> {
        Ok(())
    }
    /// Reserve `bytes` more of the sink's space for an instance being received, before they are
    /// written (every association at once draws on the same space); a refusal stops the
    /// instance's writing (the rest is drained and the C-STORE refused with its status).
    fn reserve(&self, _bytes: u64) -> std::result::Result<(), Refusal> {
        Ok(())
    }
    /// Gives back what [`StoreSink::reserve`] took, once the instance is kept (then `store`
    /// counts its file) or dropped.
    fn release(&self, _bytes: u64) {}
    /// Keep the instance (Ok: the sender is told it is stored) or refuse it.
    fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal>;
    /// The association `association` has ended (released, aborted, timed out, broken, or its
    /// thread unwound): no more instances come on it.
    fn association_ended(&self, _association: u64) {}
}

/// Tells the sink that an association ended, however it ends (also by unwinding).
struct EndsAssociation<'a>(&'a dyn StoreSink, u64);

impl Drop for EndsAssociation<'_> {
    fn drop(&mut self) {
        self.0.association_ended(self.1);
    }
}

/// A running SCP: its address and how to stop it.
pub struct Scp {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Scp {
    /// Binds `addr` and serves associations on their own threads until [`Scp::stop`].
    pub fn start(addr: &str, opts: ScpOptions, sink: Arc<dyn StoreSink>) -> Result<Scp> {
        crate::store::check_ae_title(&opts.ae_title)?;
        let listener = TcpListener::bind(addr)
            .map_err(|e| Error::Invalid(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| Error::Invalid(format!("{addr}: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| Error::Invalid(format!("{addr}: {e}")))?;
        if opts.allow.is_empty() {
            tracing::warn!("DICOM: any AE title from any host may store here (no --allow)");
        }
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = stop.clone();
        let thread = std::thread::Builder::new()
            .name("dicom-listener".into())
            .spawn(move || accept_loop(listener, Arc::new(opts), sink, stop2))
            .map_err(|e| Error::Invalid(format!("thread: {e}")))?;
        Ok(Scp {
            addr: local,
            stop,
            thread: Some(thread),
        })
    }

    /// Stops accepting (associations under way finish on their own threads).
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Scp {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn accept_loop(
    listener: TcpListener,
    opts: Arc<ScpOptions>,
    sink: Arc<dyn StoreSink>,
    stop: Arc<AtomicBool>,
) {
    let watch = Arc::new(Watch::default());
    while !stop.load(Ordering::SeqCst) {
        watch.expire();
        match listener.accept() {
            Ok((stream, peer)) => {
                // a host that no --allow entry names: closed before anything is read, so that
                // it holds no place at all
                if !opts.allow.is_empty() && !opts.allow.iter().any(|a| a.host_matches(peer.ip())) {
                    tracing::warn!("DICOM: {peer} closed: no --allow entry names this host");
                    continue;
                }
                if watch.pending() >= opts.max_pending {
                    if let Some(old) = watch.evict_oldest_pending() {
                        tracing::warn!(
                            "DICOM: {old} closed: {} connections waited for their association \
                             request at once; the oldest makes room for {peer}",
                            opts.max_pending
                        );
                    }
                }
                let ticket = match watch.register(&stream, peer, opts.association_timeout) {
                    Ok(t) => t,
                    Err(e) => {
                        tracing::warn!("DICOM: {peer} closed: {e}");
                        continue;
                    }
                };
                let (opts, sink) = (opts.clone(), sink.clone());
                let spawned = std::thread::Builder::new()
                    .name(format!("dicom-{peer}"))
                    .spawn(move || {
                        // the ticket (and with it any place) is given back however the
                        // association ends, a panic included
                        let served = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            serve_one(stream, peer, &opts, sink.as_ref(), &ticket)
                        }));
                        match served {
                            Ok(Ok(())) => {}
                            Ok(Err(e)) => tracing::warn!("DICOM association from {peer}: {e}"),
                            Err(_) => tracing::error!(
                                "DICOM association from {peer}: ended by a panic (a bug); the \
                                 connection is closed, the node goes on"
                            ),
                        }
                    });
                if let Err(e) = spawned {
                    tracing::error!("DICOM: no thread for {peer}: {e}");
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => {
                tracing::warn!("DICOM: accept: {e}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

/// The SCP's connections with their deadlines: what the accept loop checks between accepts
/// (every 20 ms at most) and closes when a deadline has passed.
#[derive(Default)]
struct Watch {
    conns: Mutex<HashMap<u64, Watched>>,
    next: AtomicU64,
    associated: AtomicUsize,
}

struct Watched {
    /// A handle on the connection's socket, to shut it down (the thread's reads then end).
    stream: TcpStream,
    peer: SocketAddr,
    accepted: Instant,
    /// What is awaited, and until when.
    deadline: Option<(&'static str, Duration, Instant)>,
    /// Not yet associated (and not yet closed by us).
    pending: bool,
}

impl Watch {
    fn register(
        self: &Arc<Self>,
        stream: &TcpStream,
        peer: SocketAddr,
        within: Duration,
    ) -> std::io::Result<Arc<Ticket>> {
        let handle = stream.try_clone()?;
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let now = Instant::now();
        lock(&self.conns).insert(
            id,
            Watched {
                stream: handle,
                peer,
                accepted: now,
                deadline: Some(("the association request", within, now + within)),
                pending: true,
            },
        );
        Ok(Arc::new(Ticket {
            id,
            peer,
            watch: self.clone(),
            associated: AtomicBool::new(false),
        }))
    }

    fn pending(&self) -> usize {
        lock(&self.conns).values().filter(|c| c.pending).count()
    }

    /// Closes the connection that has waited longest for its association request.
    fn evict_oldest_pending(&self) -> Option<SocketAddr> {
        let mut conns = lock(&self.conns);
        let c = conns
            .values_mut()
            .filter(|c| c.pending)
            .min_by_key(|c| c.accepted)?;
        c.pending = false;
        c.deadline = None;
        let _ = c.stream.shutdown(std::net::Shutdown::Both);
        Some(c.peer)
    }

    /// Closes every connection whose deadline has passed.
    fn expire(&self) {
        let now = Instant::now();
        let mut conns = lock(&self.conns);
        for c in conns.values_mut() {
            if let Some((what, within, at)) = c.deadline {
                if now >= at {
                    tracing::warn!(
                        "DICOM: {} closed: {what} did not arrive whole within {} s",
                        c.peer,
                        within.as_secs_f64()
                    );
                    c.deadline = None;
                    c.pending = false;
                    let _ = c.stream.shutdown(std::net::Shutdown::Both);
                }
            }
        }
    }
}

/// One connection's entry in the [`Watch`]: sets its deadlines, holds its association place,
/// and removes it (giving the place back) when dropped.
struct Ticket {
    id: u64,
    peer: SocketAddr,
    watch: Arc<Watch>,
    associated: AtomicBool,
}

impl Ticket {
    /// `what` must be done within `within` from now, or the connection is closed.
    fn until(&self, what: &'static str, within: Duration) {
        if let Some(c) = lock(&self.watch.conns).get_mut(&self.id) {
            c.deadline = Some((what, within, Instant::now() + within));
        }
    }

    /// No deadline while we work (our own writes to disk are not the peer's delay).
    fn clear(&self) {
        if let Some(c) = lock(&self.watch.conns).get_mut(&self.id) {
            c.deadline = None;
        }
    }

    /// Takes an association place if one of `max` is free.
    fn associate(&self, max: usize) -> bool {
        let taken = self
            .watch
            .associated
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .is_ok();
        if taken {
            self.associated.store(true, Ordering::SeqCst);
            if let Some(c) = lock(&self.watch.conns).get_mut(&self.id) {
                c.pending = false;
            }
        }
        taken
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        lock(&self.watch.conns).remove(&self.id);
        if self.associated.load(Ordering::SeqCst) {
            self.watch.associated.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Serves one accepted connection on this thread, to the association's end: what each
/// association thread of a running [`Scp`] does (without its limit on associations at once).
/// For tests and fuzzing, which drive the SCP's protocol handling with bytes of their own.
/// The deadlines are set but nobody enforces them here (the accept loop does that).
pub fn serve_connection(stream: TcpStream, opts: &ScpOptions, sink: &dyn StoreSink) -> Result<()> {
    let peer = stream
        .peer_addr()
        .map_err(|e| Error::Invalid(format!("connection without a peer: {e}")))?;
    let watch = Arc::new(Watch::default());
    let ticket = watch
        .register(&stream, peer, opts.association_timeout)
        .map_err(|e| Error::net(peer, &e))?;
    serve_one(stream, peer, opts, sink, &ticket)
}

/// A file being received: removed unless kept, its reserved space given back.
struct Partial<'a> {
    path: PathBuf,
    out: Option<BufWriter<File>>,
    bytes: u64,
    sink: &'a dyn StoreSink,
    reserved: u64,
}

impl Drop for Partial<'_> {
    fn drop(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
        self.sink.release(self.reserved);
    }
}

/// The room reserved for a file's preamble and meta (before its data set's bytes).
const META_RESERVE: u64 = 1024;

/// The command of a message being received.
struct Command {
    field: u16,
    message_id: u16,
    sop_class: String,
    sop_instance: String,
    has_data: bool,
}

fn parse_command(bytes: &[u8]) -> std::result::Result<Command, String> {
    let ts = implicit();
    let obj = InMemDicomObject::read_dataset_with_ts(bytes, ts).map_err(|e| e.to_string())?;
    let int = |t| obj.element(t).ok().and_then(|e| e.to_int::<u16>().ok());
    let text = |t| {
        obj.element(t)
            .ok()
            .and_then(|e| e.to_str().ok())
            .map(|s| s.trim_end_matches(['\0', ' ']).to_string())
            .unwrap_or_default()
    };
    Ok(Command {
        field: int(tags::COMMAND_FIELD).ok_or("no Command Field")?,
        message_id: int(tags::MESSAGE_ID).unwrap_or(0),
        sop_class: text(tags::AFFECTED_SOP_CLASS_UID),
        sop_instance: text(tags::AFFECTED_SOP_INSTANCE_UID),
        has_data: int(tags::COMMAND_DATA_SET_TYPE).is_some_and(|t| t != 0x0101),
    })
}

fn implicit() -> &'static dicom_encoding::TransferSyntax {
    TransferSyntaxRegistry
        .get(uids::IMPLICIT_VR_LITTLE_ENDIAN)
        .expect("implicit VR little endian is built in")
}

/// A response command set (C-STORE-RSP or C-ECHO-RSP).
fn response(c: &Command, field: u16, status: u16, comment: Option<&str>) -> Vec<u8> {
    let mut els = vec![
        DataElement::new(
            tags::AFFECTED_SOP_CLASS_UID,
            VR::UI,
            PrimitiveValue::from(c.sop_class.as_str()),
        ),
        DataElement::new(tags::COMMAND_FIELD, VR::US, PrimitiveValue::from(field)),
        DataElement::new(
            tags::MESSAGE_ID_BEING_RESPONDED_TO,
            VR::US,
            PrimitiveValue::from(c.message_id),
        ),
        DataElement::new(
            tags::COMMAND_DATA_SET_TYPE,
            VR::US,
            PrimitiveValue::from(0x0101u16),
        ),
        DataElement::new(tags::STATUS, VR::US, PrimitiveValue::from(status)),
    ];
    if !c.sop_instance.is_empty() {
        els.push(DataElement::new(
            tags::AFFECTED_SOP_INSTANCE_UID,
            VR::UI,
            PrimitiveValue::from(c.sop_instance.as_str()),
        ));
    }
    if let Some(text) = comment {
        // Error Comment is LO: at most 64 characters
        let short: String = text.chars().filter(|c| *c != '\\').take(64).collect();
        els.push(DataElement::new(
            tags::ERROR_COMMENT,
            VR::LO,
            PrimitiveValue::from(short),
        ));
    }
    let obj = InMemDicomObject::command_from_element_iter(els);
    let mut out = Vec::with_capacity(160);
    // writing an in-memory command set into a Vec cannot fail
    let _ = obj.write_dataset_with_ts(&mut out, implicit());
    out
}

/// Serves one association to its end (release, abort, timeout or a broken connection).
fn serve_one(
    stream: TcpStream,
    peer: SocketAddr,
    opts: &ScpOptions,
    sink: &dyn StoreSink,
    ticket: &Arc<Ticket>,
) -> Result<()> {
    let net = |e: &dyn std::fmt::Display| Error::net(peer, e);
    let _ended = EndsAssociation(sink, ticket.id);
    stream.set_nonblocking(false).map_err(|e| net(&e))?;
    let matching: Vec<&Allow> = opts
        .allow
        .iter()
        .filter(|a| a.host_matches(peer.ip()))
        .collect();
    let access = PeerAccess {
        any: opts.allow.is_empty() || matching.iter().any(|a| a.ae.is_none()),
        aes: matching.iter().filter_map(|a| a.ae.clone()).collect(),
        ticket: ticket.clone(),
        max_associations: opts.max_associations,
    };
    let mut server = ServerAssociationOptions::new()
        .ae_access_control(access)
        .ae_title(opts.ae_title.as_str())
        .max_pdu_length(opts.max_pdu)
        .read_timeout(opts.timeout)
        .write_timeout(opts.timeout);
    for c in STORAGE_CLASSES {
        server = server.with_abstract_syntax(*c);
    }
    server = server.with_abstract_syntax(uids::VERIFICATION);
    for ts in TRANSFER_SYNTAXES {
        server = server.with_transfer_syntax(*ts);
    }
    if let Err(why) = check_raw_titles(&stream, opts.association_timeout) {
        tracing::warn!("DICOM: association from {peer} rejected: {why}");
        return Ok(());
    }
    let mut assoc = match server.establish(stream) {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!("DICOM: association from {peer} rejected: {e}");
            return Ok(());
        }
    };
    let calling = ae_trim(assoc.peer_ae_title()).to_string();
    tracing::debug!("DICOM: association from {calling}@{peer}");
    let mut cmd_bytes: Vec<u8> = Vec::new();
    let mut command: Option<Command> = None;
    let mut partial: Option<Partial> = None;
    let mut pc_ts = String::new();
    let mut refusal: Option<Refusal> = None;
    loop {
        ticket.until("a PDU", opts.timeout);
        let received = assoc.receive();
        ticket.clear();
        let pdu = match received {
            Ok(p) => p,
            Err(e) => {
                // a peer that drops the connection without a release: what was stored is stored
                tracing::debug!("DICOM: {calling}@{peer}: {e}");
                return Ok(());
            }
        };
        let values = match pdu {
            Pdu::PData { data } => data,
            Pdu::ReleaseRQ => {
                let _ = assoc.send(&Pdu::ReleaseRP);
                return Ok(());
            }
            Pdu::AbortRQ { .. } => return Ok(()),
            other => {
                tracing::warn!("DICOM: {calling}@{peer}: unexpected {other:?}; aborting");
                let _ = assoc.abort();
                return Ok(());
            }
        };
        for v in values {
            match v.value_type {
                PDataValueType::Command => {
                    if cmd_bytes.len() + v.data.len() > 64 * 1024 {
                        let _ = assoc.abort();
                        return Err(net(&"a command set over 64 KiB"));
                    }
                    cmd_bytes.extend_from_slice(&v.data);
                    if !v.is_last {
                        continue;
                    }
                    let c =
                        parse_command(&cmd_bytes).map_err(|e| net(&format!("bad command: {e}")))?;
                    cmd_bytes.clear();
                    match c.field {
                        0x0030 => {
                            let rsp = response(&c, 0x8030, SUCCESS, None);
                            send_command(&mut assoc, v.presentation_context_id, rsp, ticket, opts)
                                .map_err(|e| net(&e))?;
                        }
                        0x0001 if c.has_data => {
                            pc_ts = assoc
                                .presentation_contexts()
                                .iter()
                                .find(|pc| pc.id == v.presentation_context_id)
                                .map(|pc| pc.transfer_syntax.trim_end_matches('\0').to_string())
                                .unwrap_or_default();
                            refusal = sink.admit(&calling).err();
                            partial = None;
                            if refusal.is_none() {
                                refusal = check_command_uids(&c).err();
                            }
                            if refusal.is_none() {
                                match open_partial(sink, &c, &pc_ts) {
                                    Ok(p) => partial = Some(p),
                                    Err(r) => refusal = Some(r),
                                }
                            }
                            command = Some(c);
                        }
                        other => {
                            tracing::warn!("DICOM: {calling}@{peer}: command {other:04X}H not supported; aborting");
                            let _ = assoc.abort();
                            return Ok(());
                        }
                    }
                }
                PDataValueType::Data => {
                    let Some(c) = &command else {
                        let _ = assoc.abort();
                        return Err(net(&"data without a command"));
                    };
                    if let Some(p) = partial.as_mut() {
                        let n = v.data.len() as u64;
                        p.bytes += n;
                        if p.bytes > opts.max_instance_bytes {
                            p.out = None;
                        }
                        if p.out.is_some() {
                            // the space before the bytes are written, for every association
                            // at once: a full spool refuses the instance, never overshoots
                            match sink.reserve(n) {
                                Ok(()) => p.reserved += n,
                                Err(r) => {
                                    refusal.get_or_insert(r);
                                    p.out = None;
                                }
                            }
                        }
                        if let Some(w) = p.out.as_mut() {
                            if let Err(e) = w.write_all(&v.data) {
                                refusal.get_or_insert(Refusal::new(
                                    OUT_OF_RESOURCES,
                                    format!("cannot write: {e}"),
                                ));
                                p.out = None;
                            }
                        }
                    }
                    if !v.is_last {
                        continue;
                    }
                    let who = Peer {
                        association: ticket.id,
                        calling: &calling,
                        addr: peer,
                        opts,
                        sink,
                    };
                    let status = finish(partial.take(), refusal.take(), c, &pc_ts, &who);
                    let (code, comment) = match &status {
                        Ok(()) => (SUCCESS, None),
                        Err(r) => {
                            tracing::warn!(
                                "DICOM: {calling}@{peer}: instance {} refused ({:04X}H): {}",
                                c.sop_instance,
                                r.status,
                                r.reason
                            );
                            (r.status, Some(r.reason.as_str()))
                        }
                    };
                    let rsp = response(c, 0x8001, code, comment);
                    send_command(&mut assoc, v.presentation_context_id, rsp, ticket, opts)
                        .map_err(|e| net(&e))?;
                    command = None;
                }
            }
        }
    }
}

/// The command's SOP Class and Instance UIDs must be UIDs: they name the file's meta (and a
/// sender's `../../x` must not reach a file name or a parser as if it were one).
fn check_command_uids(c: &Command) -> std::result::Result<(), Refusal> {
    for (what, uid) in [
        ("Affected SOP Class UID", &c.sop_class),
        ("Affected SOP Instance UID", &c.sop_instance),
    ] {
        if !crate::uid::is_valid(uid) {
            return Err(Refusal::new(
                CANNOT_UNDERSTAND,
                format!("the command's {what} is not a UID"),
            ));
        }
    }
    Ok(())
}

fn open_partial<'a>(
    sink: &'a dyn StoreSink,
    c: &Command,
    ts: &str,
) -> std::result::Result<Partial<'a>, Refusal> {
    sink.reserve(META_RESERVE)?;
    let mut p = Partial {
        path: PathBuf::new(),
        out: None,
        bytes: 0,
        sink,
        reserved: META_RESERVE,
    };
    let cannot = |e: std::io::Error| Refusal::new(OUT_OF_RESOURCES, format!("cannot write: {e}"));
    let (path, out) = open_partial_file(sink, c, ts).map_err(cannot)?;
    p.path = path;
    p.out = Some(out);
    Ok(p)
}

fn open_partial_file(
    sink: &dyn StoreSink,
    c: &Command,
    ts: &str,
) -> std::io::Result<(PathBuf, BufWriter<File>)> {
    let dir = sink.receiving_dir();
    std::fs::create_dir_all(&dir)?;
    // the one writer's exclusive, unpredictable temporary (`.rx-instance.tmp…`)
    let (path, file) = milbase::atomic::create_temporary(&dir, "rx-instance")?;
    let mut out = BufWriter::new(file);
    let res = (|| {
        let meta = dicom_object::meta::FileMetaTableBuilder::new()
            .media_storage_sop_class_uid(c.sop_class.as_str())
            .media_storage_sop_instance_uid(c.sop_instance.as_str())
            .transfer_syntax(ts)
            .implementation_class_uid(crate::write::IMPLEMENTATION_CLASS_UID)
            .build()
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        out.write_all(&[0u8; 128])?;
        out.write_all(b"DICM")?;
        meta.write(&mut out)
            .map_err(|e| std::io::Error::other(e.to_string()))
    })();
    match res {
        Ok(()) => Ok((path, out)),
        Err(e) => {
            drop(out);
            let _ = std::fs::remove_file(&path);
            Err(e)
        }
    }
}

/// Who is sending, under which options, to which sink.
struct Peer<'a> {
    association: u64,
    calling: &'a str,
    addr: SocketAddr,
    opts: &'a ScpOptions,
    sink: &'a dyn StoreSink,
}

/// The end of one instance: synced and handed to the sink, or the refusal.
fn finish(
    partial: Option<Partial<'_>>,
    refusal: Option<Refusal>,
    c: &Command,
    ts: &str,
    who: &Peer<'_>,
) -> std::result::Result<(), Refusal> {
    let (opts, sink) = (who.opts, who.sink);
    if let Some(r) = refusal {
        return Err(r);
    }
    let mut p = partial.ok_or_else(|| Refusal::new(OUT_OF_RESOURCES, "not received"))?;
    if p.bytes > opts.max_instance_bytes {
        return Err(Refusal::new(
            OUT_OF_RESOURCES,
            format!("instance over {} MiB", opts.max_instance_bytes >> 20),
        ));
    }
    if !STORAGE_CLASSES.contains(&c.sop_class.as_str()) {
        return Err(Refusal::new(
            DATA_SET_MISMATCH,
            format!("SOP class {} not accepted", c.sop_class),
        ));
    }
    // the writer is gone only when a write failed (then a refusal is already set)
    let out = p
        .out
        .take()
        .ok_or_else(|| Refusal::new(OUT_OF_RESOURCES, "cannot write"))?;
    out.into_inner()
        .map_err(|e| e.into_error())
        .and_then(|f| f.sync_all())
        .map_err(|e| Refusal::new(OUT_OF_RESOURCES, format!("cannot write: {e}")))?;
    let t = Instant::now();
    let kept = sink.store(&Received {
        association: who.association,
        calling_ae: who.calling,
        peer: who.addr,
        sop_class: &c.sop_class,
        sop_instance: &c.sop_instance,
        transfer_syntax: ts,
        file: &p.path,
    });
    // a store that waits (a slow disk's syncs) is said, so that a stall has a line in the log
    if t.elapsed() > Duration::from_secs(5) {
        tracing::warn!(
            "DICOM: {}@{}: keeping instance {} took {:.1} s",
            who.calling,
            who.addr,
            c.sop_instance,
            t.elapsed().as_secs_f64()
        );
    }
    kept
}

fn send_command(
    assoc: &mut dicom_ul::ServerAssociation<TcpStream>,
    pc: u8,
    data: Vec<u8>,
    ticket: &Ticket,
    opts: &ScpOptions,
) -> Result<(), dicom_ul::association::Error> {
    ticket.until("an answer's sending", opts.timeout);
    let sent = assoc.send(&Pdu::PData {
        data: vec![PDataValue {
            presentation_context_id: pc,
            value_type: PDataValueType::Command,
            is_last: true,
            data,
        }],
    });
    ticket.clear();
    sent
}

#[cfg(test)]
mod tests {
    use super::*;
    use dicom_object::meta::FileMetaTableBuilder;
    use std::io::Read;

    /// Keeps what it is given under `dir` (or refuses everything with `refuse`).
    struct Keep {
        dir: PathBuf,
        kept: Mutex<Vec<(String, String, PathBuf)>>,
        refuse: Option<Refusal>,
    }

    impl StoreSink for Keep {
        fn receiving_dir(&self) -> PathBuf {
            self.dir.join("rx")
        }
        fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal> {
            if let Some(x) = &self.refuse {
                return Err(x.clone());
            }
            let dest = self.dir.join(format!("{}.dcm", r.sop_instance));
            std::fs::rename(r.file, &dest).unwrap();
            self.kept.lock().unwrap().push((
                r.calling_ae.to_string(),
                r.transfer_syntax.to_string(),
                dest,
            ));
            Ok(())
        }
    }

    /// A small CT image file: 4×3 pixels of 16 bits.
    fn ct_file(path: &Path, sop: &str, pixels: usize) {
        let mut o = InMemDicomObject::new_empty();
        let put = |o: &mut InMemDicomObject, t, vr, v: &str| {
            o.put(DataElement::new(t, vr, PrimitiveValue::from(v)))
        };
        put(&mut o, tags::SOP_CLASS_UID, VR::UI, uids::CT_IMAGE_STORAGE);
        put(&mut o, tags::SOP_INSTANCE_UID, VR::UI, sop);
        put(&mut o, tags::STUDY_INSTANCE_UID, VR::UI, "1.2.3");
        put(&mut o, tags::SERIES_INSTANCE_UID, VR::UI, "1.2.3.4");
        put(&mut o, tags::MODALITY, VR::CS, "CT");
        o.put(DataElement::new(
            tags::ROWS,
            VR::US,
            PrimitiveValue::from(3u16),
        ));
        o.put(DataElement::new(
            tags::COLUMNS,
            VR::US,
            PrimitiveValue::from(4u16),
        ));
        let px: Vec<u8> = (0..pixels * 2).map(|i| (i % 251) as u8).collect();
        o.put(DataElement::new(
            tags::PIXEL_DATA,
            VR::OW,
            PrimitiveValue::from(px),
        ));
        let file = o
            .with_meta(
                FileMetaTableBuilder::new()
                    .media_storage_sop_class_uid(uids::CT_IMAGE_STORAGE)
                    .media_storage_sop_instance_uid(sop)
                    .transfer_syntax(uids::EXPLICIT_VR_LITTLE_ENDIAN),
            )
            .unwrap();
        file.write_to_file(path).unwrap();
    }

    fn start(dir: &Path, opts: ScpOptions, refuse: Option<Refusal>) -> (Scp, Arc<Keep>) {
        let keep = Arc::new(Keep {
            dir: dir.to_path_buf(),
            kept: Mutex::new(Vec::new()),
            refuse,
        });
        let scp = Scp::start("127.0.0.1:0", opts, keep.clone()).unwrap();
        (scp, keep)
    }

    fn node(scp: &Scp) -> crate::store::Node {
        crate::store::Node::parse(&format!("ICH@{}", scp.addr)).unwrap()
    }

    /// A sink with a bug: its first `store` panics, later ones keep.
    struct PanicsOnce {
        keep: Keep,
        panicked: AtomicBool,
    }

    impl StoreSink for PanicsOnce {
        fn receiving_dir(&self) -> PathBuf {
            self.keep.receiving_dir()
        }
        fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal> {
            if !self.panicked.swap(true, Ordering::SeqCst) {
                panic!("a sink's bug");
            }
            self.keep.store(r)
        }
    }

    #[test]
    fn an_association_ended_by_a_panic_gives_its_place_back() {
        // one association at a time: before, a panicking association thread never gave its
        // place back, and every later sender was closed unanswered
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src.dcm");
        ct_file(&src, "1.2.3.4.5", 12);
        let sink = Arc::new(PanicsOnce {
            keep: Keep {
                dir: tmp.path().to_path_buf(),
                kept: Mutex::new(Vec::new()),
                refuse: None,
            },
            panicked: AtomicBool::new(false),
        });
        let opts = ScpOptions {
            max_associations: 1,
            ..ScpOptions::default()
        };
        let scp = Scp::start("127.0.0.1:0", opts, sink.clone()).unwrap();
        let send = || {
            crate::store::c_store(
                "SENDER",
                &node(&scp),
                std::slice::from_ref(&src),
                Duration::from_secs(10),
            )
        };
        // the panic costs that sender its instance (the connection closes unanswered)
        let first = send();
        assert!(
            first
                .as_ref()
                .map_or(true, |r| r.iter().all(|x| x.is_err())),
            "{first:?}"
        );
        assert!(sink.panicked.load(Ordering::SeqCst));
        // the place comes back as the thread unwinds: the next sender is served
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            match send() {
                Ok(r) if r.iter().all(|x| x.is_ok()) => break,
                other => assert!(
                    std::time::Instant::now() < deadline,
                    "the SCP stays closed after a panic: {other:?}"
                ),
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(sink.keep.kept.lock().unwrap().len(), 1);
        scp.stop();
    }

    #[test]
    fn a_stored_instance_arrives_whole_and_is_acknowledged_after_the_sink_keeps_it() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src.dcm");
        ct_file(&src, "1.2.3.4.5", 12);
        // a PDU of 4 KiB: a 100 KiB instance arrives in many fragments
        let big = tmp.path().join("big.dcm");
        ct_file(&big, "1.2.3.4.6", 50_000);
        let opts = ScpOptions {
            allow: vec![Allow::parse("SENDER@127.0.0.1").unwrap()],
            max_pdu: 4096,
            ..ScpOptions::default()
        };
        let (scp, keep) = start(tmp.path(), opts, None);
        let out = crate::store::c_store(
            "SENDER",
            &node(&scp),
            &[src.clone(), big.clone()],
            Duration::from_secs(10),
        )
        .unwrap();
        assert!(out.iter().all(|r| r.is_ok()), "{out:?}");
        let kept = keep.kept.lock().unwrap().clone();
        assert_eq!(kept.len(), 2);
        for ((ae, ts, path), orig) in kept.iter().zip([&src, &big]) {
            assert_eq!(ae, "SENDER");
            assert_eq!(ts, uids::EXPLICIT_VR_LITTLE_ENDIAN);
            let a = dicom_object::open_file(path).unwrap();
            let b = dicom_object::open_file(orig).unwrap();
            for t in [
                tags::SOP_INSTANCE_UID,
                tags::STUDY_INSTANCE_UID,
                tags::PIXEL_DATA,
            ] {
                assert_eq!(
                    a.element(t).unwrap().to_bytes().unwrap(),
                    b.element(t).unwrap().to_bytes().unwrap()
                );
            }
            assert_eq!(
                a.meta().media_storage_sop_instance_uid(),
                b.meta().media_storage_sop_instance_uid()
            );
        }
        // nothing left half-received
        let left = std::fs::read_dir(tmp.path().join("rx")).unwrap().count();
        assert_eq!(left, 0);
        scp.stop();
    }

    #[test]
    fn strangers_are_rejected_and_refusals_reach_the_sender_with_their_status() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src.dcm");
        ct_file(&src, "1.2.3.4.5", 12);
        let opts = ScpOptions {
            allow: vec![
                Allow::parse("SENDER@10.9.8.7").unwrap(),
                Allow::parse("OTHER@*").unwrap(),
            ],
            ..ScpOptions::default()
        };
        let (scp, keep) = start(tmp.path(), opts, None);
        // the right AE from the wrong host, and a wrong AE: no association
        for ae in ["SENDER", "INTRUDER"] {
            let e = crate::store::c_store(
                ae,
                &node(&scp),
                std::slice::from_ref(&src),
                Duration::from_secs(10),
            );
            assert!(e.is_err(), "{ae} was let in");
        }
        // a wrong called AE title: no association either
        let wrong = crate::store::Node::parse(&format!("NOTICH@{}", scp.addr)).unwrap();
        assert!(crate::store::c_store(
            "OTHER",
            &wrong,
            std::slice::from_ref(&src),
            Duration::from_secs(10)
        )
        .is_err());
        // OTHER from anywhere: in
        let ok = crate::store::c_store(
            "OTHER",
            &node(&scp),
            std::slice::from_ref(&src),
            Duration::from_secs(10),
        )
        .unwrap();
        assert!(ok[0].is_ok(), "{ok:?}");
        assert_eq!(keep.kept.lock().unwrap().len(), 1);
        scp.stop();

        // a sink that refuses: the sender gets the status, nothing is kept
        let refuse = Refusal::new(OUT_OF_RESOURCES, "spool full");
        let (scp, keep) = start(tmp.path(), ScpOptions::default(), Some(refuse));
        let r = crate::store::c_store(
            "ANY",
            &node(&scp),
            std::slice::from_ref(&src),
            Duration::from_secs(10),
        )
        .unwrap();
        let err = r[0].clone().unwrap_err();
        assert!(err.contains("A700"), "{err}");
        assert!(keep.kept.lock().unwrap().is_empty());
        scp.stop();

        // an instance over the limit: drained, refused with A700H, the association goes on
        let big = tmp.path().join("big.dcm");
        ct_file(&big, "1.2.3.4.6", 600_000);
        let opts = ScpOptions {
            max_instance_bytes: 1 << 20,
            ..ScpOptions::default()
        };
        let (scp, keep) = start(tmp.path(), opts, None);
        let r = crate::store::c_store("ANY", &node(&scp), &[big, src], Duration::from_secs(10))
            .unwrap();
        assert!(r[0].as_ref().unwrap_err().contains("A700"), "{r:?}");
        assert!(r[1].is_ok(), "{r:?}");
        assert_eq!(keep.kept.lock().unwrap().len(), 1);
        scp.stop();
    }

    /// An A-ASSOCIATE-RQ for `calling` → `called` with one presentation context (Verification,
    /// implicit VR little endian), as bytes.
    fn associate_rq(calling: &str, called: &str) -> Vec<u8> {
        let mut w = Vec::new();
        dicom_ul::pdu::write_pdu(
            &mut w,
            &Pdu::AssociationRQ(dicom_ul::pdu::AssociationRQ {
                protocol_version: 1,
                calling_ae_title: calling.into(),
                called_ae_title: called.into(),
                application_context_name: "1.2.840.10008.3.1.1.1".into(),
                presentation_contexts: vec![dicom_ul::pdu::PresentationContextProposed {
                    id: 1,
                    abstract_syntax: uids::VERIFICATION.into(),
                    transfer_syntaxes: vec![uids::IMPLICIT_VR_LITTLE_ENDIAN.into()],
                }],
                user_variables: vec![dicom_ul::pdu::UserVariableItem::MaxLength(16384)],
            }),
        )
        .unwrap();
        w
    }

    /// Asks for an association as `calling`: Ok when accepted (A-ASSOCIATE-AC), else what came.
    fn echo(addr: SocketAddr, calling: &str) -> std::result::Result<(), String> {
        let mut c = TcpStream::connect(addr).map_err(|e| e.to_string())?;
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        c.write_all(&associate_rq(calling, "ICH"))
            .map_err(|e| e.to_string())?;
        let mut head = [0u8; 6];
        c.read_exact(&mut head).map_err(|e| e.to_string())?;
        match head[0] {
            0x02 => Ok(()),
            t => Err(format!("PDU type {t:#04x}")),
        }
    }

    #[test]
    fn slow_and_idle_peers_cannot_keep_an_allowed_sender_out() {
        let tmp = tempfile::tempdir().unwrap();
        let opts = ScpOptions {
            allow: vec![Allow::parse("PACS@127.0.0.1").unwrap()],
            association_timeout: Duration::from_secs(2),
            timeout: Duration::from_secs(2),
            max_pending: 8,
            max_associations: 4,
            ..ScpOptions::default()
        };
        let (scp, _keep) = start(tmp.path(), opts, None);
        let addr = scp.addr;
        let stop = Arc::new(AtomicBool::new(false));
        // 16 peers trickling an A-ASSOCIATE-RQ a byte every 100 ms (each byte would have renewed a
        // per-read timeout), reconnecting when closed; 20 bare idle connections
        let rq = associate_rq("PACS", "ICH");
        let mut peers = Vec::new();
        for _ in 0..16 {
            let (stop, rq) = (stop.clone(), rq.clone());
            peers.push(std::thread::spawn(move || {
                let mut closed = 0;
                while !stop.load(Ordering::SeqCst) {
                    let Ok(mut c) = TcpStream::connect(addr) else {
                        continue;
                    };
                    for b in &rq {
                        if stop.load(Ordering::SeqCst) || c.write_all(&[*b]).is_err() {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    closed += 1;
                }
                closed
            }));
        }
        let idle: Vec<TcpStream> = (0..20).map(|_| TcpStream::connect(addr).unwrap()).collect();
        std::thread::sleep(Duration::from_millis(500));
        // the allowed PACS is answered at once, again and again, while they go on
        let t0 = Instant::now();
        for _ in 0..5 {
            let t = Instant::now();
            echo(addr, "PACS").unwrap();
            assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
            std::thread::sleep(Duration::from_millis(300));
        }
        // the idle connections were closed (within the association deadline, or sooner to make
        // room): a read ends, it does not time out
        for mut c in idle {
            c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let r = c.read(&mut [0u8; 16]);
            let timed_out = r.as_ref().is_err_and(|e| {
                matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                )
            });
            assert!(!timed_out && !matches!(r, Ok(n) if n > 0), "{r:?}");
        }
        assert!(t0.elapsed() < Duration::from_secs(10));
        stop.store(true, Ordering::SeqCst);
        // each trickler was closed before its request was whole (a 68-byte request at 10 bytes a
        // second outlasts the 2 s deadline)
        for p in peers {
            assert!(p.join().unwrap() >= 1);
        }
        scp.stop();
    }

    #[test]
    fn an_associated_peer_trickling_a_pdu_is_closed_when_its_time_is_up() {
        let tmp = tempfile::tempdir().unwrap();
        let opts = ScpOptions {
            timeout: Duration::from_millis(1500),
            ..ScpOptions::default()
        };
        let (scp, _keep) = start(tmp.path(), opts, None);
        let mut c = TcpStream::connect(scp.addr).unwrap();
        c.write_all(&associate_rq("ANY", "ICH")).unwrap();
        let mut head = [0u8; 6];
        c.read_exact(&mut head).unwrap();
        assert_eq!(head[0], 0x02, "A-ASSOCIATE-AC");
        let len = u32::from_be_bytes(head[2..6].try_into().unwrap()) as usize;
        let mut rest = vec![0u8; len];
        c.read_exact(&mut rest).unwrap();
        // a P-DATA-TF header announcing 1000 bytes, then a byte every 100 ms
        let t0 = Instant::now();
        c.write_all(&[0x04, 0, 0, 0, 0x03, 0xe8]).unwrap();
        let mut closed = false;
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(100));
            if c.write_all(&[0]).is_err() {
                closed = true;
                break;
            }
        }
        assert!(closed, "the trickling peer was never closed");
        assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
        scp.stop();
    }

    #[test]
    fn a_host_no_allow_entry_names_is_closed_before_anything_is_read() {
        let tmp = tempfile::tempdir().unwrap();
        let opts = ScpOptions {
            allow: vec![Allow::parse("PACS@10.9.8.7").unwrap()],
            max_pending: 1,
            ..ScpOptions::default()
        };
        let (scp, _keep) = start(tmp.path(), opts, None);
        // from loopback: closed at once, without an answer, and it holds no place
        let held: Vec<TcpStream> = (0..10)
            .map(|_| TcpStream::connect(scp.addr).unwrap())
            .collect();
        // (the read waits up to 10 s; a close comes in milliseconds, so a bound of half the
        // read's wait tells the two apart on a loaded machine too)
        for mut c in held {
            c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let t = Instant::now();
            let r = c.read(&mut [0u8; 8]);
            assert!(matches!(r, Ok(0)) || r.is_err(), "{r:?}");
            assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        }
        scp.stop();
    }

    #[test]
    fn ae_titles_match_exactly_but_for_padding_spaces() {
        let tmp = tempfile::tempdir().unwrap();
        let opts = ScpOptions {
            allow: vec![Allow::parse("PACS@*").unwrap()],
            ..ScpOptions::default()
        };
        let (scp, _keep) = start(tmp.path(), opts, None);
        assert!(echo(scp.addr, "PACS").is_ok());
        assert!(echo(scp.addr, " PACS ").is_ok());
        for bad in ["PACS\t", "\tPACS", "PACS\u{1}", "PACSX"] {
            assert!(echo(scp.addr, bad).is_err(), "{bad:?} was let in");
        }
        scp.stop();
    }

    #[test]
    fn a_command_whose_sop_uid_is_not_a_uid_is_refused_saying_so() {
        let c = Command {
            field: 1,
            message_id: 1,
            sop_class: uids::CT_IMAGE_STORAGE.into(),
            sop_instance: "../../x".into(),
            has_data: true,
        };
        let r = check_command_uids(&c).unwrap_err();
        assert_eq!(r.status, CANNOT_UNDERSTAND);
        assert!(
            r.reason.contains("Affected SOP Instance UID is not a UID"),
            "{}",
            r.reason
        );
        let ok = Command {
            sop_instance: "1.2.3".into(),
            ..c
        };
        assert!(check_command_uids(&ok).is_ok());
    }

    /// Refuses reservations beyond `cap` bytes in all, and records the peak reserved.
    struct Capped {
        keep: Keep,
        cap: u64,
        used: AtomicU64,
        peak: AtomicU64,
    }

    impl StoreSink for Capped {
        fn receiving_dir(&self) -> PathBuf {
            self.keep.receiving_dir()
        }
        fn reserve(&self, bytes: u64) -> std::result::Result<(), Refusal> {
            let cap = self.cap;
            self.used
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |u| {
                    (u + bytes <= cap).then_some(u + bytes)
                })
                .map_err(|_| Refusal::new(OUT_OF_RESOURCES, "full"))?;
            self.peak
                .fetch_max(self.used.load(Ordering::SeqCst), Ordering::SeqCst);
            Ok(())
        }
        fn release(&self, bytes: u64) {
            self.used.fetch_sub(bytes, Ordering::SeqCst);
        }
        fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal> {
            let _ = std::fs::remove_file(r.file);
            self.keep.kept.lock().unwrap().push(Default::default());
            Ok(())
        }
    }

    #[test]
    fn every_byte_written_is_reserved_first_for_all_associations_at_once() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src.dcm");
        // 200 kB each; 8 senders at once against 1 MB of room
        ct_file(&src, "1.2.3.4.5", 100_000);
        let sink = Arc::new(Capped {
            keep: Keep {
                dir: tmp.path().to_path_buf(),
                kept: Mutex::new(Vec::new()),
                refuse: None,
            },
            cap: 1_000_000,
            used: AtomicU64::new(0),
            peak: AtomicU64::new(0),
        });
        let scp = Scp::start("127.0.0.1:0", ScpOptions::default(), sink.clone()).unwrap();
        let senders: Vec<_> = (0..8)
            .map(|_| {
                let (n, src) = (node(&scp), src.clone());
                std::thread::spawn(move || {
                    crate::store::c_store(
                        "ANY",
                        &n,
                        &[src.clone(), src.clone(), src],
                        Duration::from_secs(20),
                    )
                    .unwrap()
                })
            })
            .collect();
        let results: Vec<_> = senders
            .into_iter()
            .flat_map(|s| s.join().unwrap())
            .collect();
        let (ok, refused) = results.iter().fold((0, 0), |(o, r), x| match x {
            Ok(()) => (o + 1, r),
            Err(e) => {
                assert!(e.contains("A700"), "{e}");
                (o, r + 1)
            }
        });
        assert!(ok >= 4, "{results:?}");
        assert_eq!(ok + refused, 24);
        assert!(sink.peak.load(Ordering::SeqCst) <= 1_000_000);
        // everything reserved was given back
        assert_eq!(sink.used.load(Ordering::SeqCst), 0);
        scp.stop();
    }

    #[test]
    fn allowed_peers_parse() {
        let a = Allow::parse("PACS@127.0.0.1").unwrap();
        assert_eq!(a.ae.as_deref(), Some("PACS"));
        assert!(a.host_matches("127.0.0.1".parse().unwrap()));
        assert!(a.host_matches("::ffff:127.0.0.1".parse().unwrap()));
        assert!(!a.host_matches("127.0.0.2".parse().unwrap()));
        assert!(Allow::parse("*@*").unwrap().ae.is_none());
        for bad in ["PACS", "TOO_LONG_AE_TITLE_X@h", "A@no-such-host.invalid"] {
            assert!(Allow::parse(bad).is_err(), "{bad}");
        }
    }
}
