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
//! C-STORE answered with A700H, out of resources), a read timeout per PDU, at most
//! [`ScpOptions::max_associations`] at once (more are closed unanswered).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

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

/// The calling AE titles a peer may use (None: any), from the entries that match its address.
struct PeerAccess {
    /// Some entry allows any AE from this peer.
    any: bool,
    aes: Vec<String>,
}

impl AccessControl for PeerAccess {
    fn check_access(
        &self,
        this_ae_title: &str,
        calling_ae_title: &str,
        called_ae_title: &str,
        _user_identity: Option<&UserIdentity>,
    ) -> std::result::Result<(), AssociationRJServiceUserReason> {
        if called_ae_title.trim() != this_ae_title.trim() {
            return Err(AssociationRJServiceUserReason::CalledAETitleNotRecognized);
        }
        let calling = calling_ae_title.trim();
        if self.any || self.aes.iter().any(|a| a == calling) {
            Ok(())
        } else {
            Err(AssociationRJServiceUserReason::CallingAETitleNotRecognized)
        }
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
    /// Read and write timeout of a connection (default 60 s).
    pub timeout: Duration,
    /// Associations at once (default 16).
    pub max_associations: usize,
}

impl Default for ScpOptions {
    fn default() -> Self {
        Self {
            ae_title: "ICH".into(),
            allow: Vec::new(),
            max_pdu: 64 * 1024,
            max_instance_bytes: 256 << 20,
            timeout: Duration::from_secs(60),
            max_associations: 16,
        }
    }
}

/// One received instance, in a temporary file (the data set as it came, in `transfer_syntax`).
#[derive(Debug)]
pub struct Received<'a> {
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
    /// Keep the instance (Ok: the sender is told it is stored) or refuse it.
    fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal>;
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
    let active = Arc::new(AtomicUsize::new(0));
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, peer)) => {
                if active.load(Ordering::SeqCst) >= opts.max_associations {
                    tracing::warn!(
                        "DICOM: {peer} closed: {} associations at once already",
                        opts.max_associations
                    );
                    continue;
                }
                let slot = Slot::take(&active);
                let (opts, sink) = (opts.clone(), sink.clone());
                let spawned = std::thread::Builder::new()
                    .name(format!("dicom-{peer}"))
                    .spawn(move || {
                        // the slot is given back however the association ends, a panic included
                        let _slot = slot;
                        let served = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            serve_one(stream, peer, &opts, sink.as_ref())
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

/// One of the [`ScpOptions::max_associations`] places, held by an association's thread and
/// given back when it is dropped (also when the thread unwinds).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(active: &Arc<AtomicUsize>) -> Slot {
        active.fetch_add(1, Ordering::SeqCst);
        Slot(active.clone())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves one accepted connection on this thread, to the association's end: what each
/// association thread of a running [`Scp`] does (without its limit on associations at once).
/// For tests and fuzzing, which drive the SCP's protocol handling with bytes of their own.
pub fn serve_connection(stream: TcpStream, opts: &ScpOptions, sink: &dyn StoreSink) -> Result<()> {
    let peer = stream
        .peer_addr()
        .map_err(|e| Error::Invalid(format!("connection without a peer: {e}")))?;
    serve_one(stream, peer, opts, sink)
}

/// A file being received: removed unless kept.
struct Partial {
    path: PathBuf,
    out: Option<BufWriter<File>>,
    bytes: u64,
}

impl Drop for Partial {
    fn drop(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
    }
}

static RECEIVING: AtomicU64 = AtomicU64::new(0);

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
) -> Result<()> {
    let net = |e: &dyn std::fmt::Display| Error::net(peer, e);
    stream.set_nonblocking(false).map_err(|e| net(&e))?;
    let matching: Vec<&Allow> = opts
        .allow
        .iter()
        .filter(|a| a.host_matches(peer.ip()))
        .collect();
    let access = PeerAccess {
        any: opts.allow.is_empty() || matching.iter().any(|a| a.ae.is_none()),
        aes: matching.iter().filter_map(|a| a.ae.clone()).collect(),
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
    let mut assoc = match server.establish(stream) {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!("DICOM: association from {peer} rejected: {e}");
            return Ok(());
        }
    };
    let calling = assoc.peer_ae_title().trim().to_string();
    tracing::debug!("DICOM: association from {calling}@{peer}");
    let mut cmd_bytes: Vec<u8> = Vec::new();
    let mut command: Option<Command> = None;
    let mut partial: Option<Partial> = None;
    let mut pc_ts = String::new();
    let mut refusal: Option<Refusal> = None;
    loop {
        let pdu = match assoc.receive() {
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
                            send_command(&mut assoc, v.presentation_context_id, rsp)
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
                                match open_partial(sink, &c, &pc_ts) {
                                    Ok(p) => partial = Some(p),
                                    Err(e) => {
                                        refusal = Some(Refusal::new(
                                            OUT_OF_RESOURCES,
                                            format!("cannot write: {e}"),
                                        ))
                                    }
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
                        p.bytes += v.data.len() as u64;
                        if p.bytes > opts.max_instance_bytes {
                            p.out = None;
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
                    send_command(&mut assoc, v.presentation_context_id, rsp)
                        .map_err(|e| net(&e))?;
                    command = None;
                }
            }
        }
    }
}

fn open_partial(sink: &dyn StoreSink, c: &Command, ts: &str) -> std::io::Result<Partial> {
    let dir = sink.receiving_dir();
    std::fs::create_dir_all(&dir)?;
    let n = RECEIVING.fetch_add(1, Ordering::SeqCst);
    let path = dir.join(format!(".rx-{}-{n}.dcm", std::process::id()));
    let mut out = BufWriter::new(File::create(&path)?);
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
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(Partial {
        path,
        out: Some(out),
        bytes: 0,
    })
}

/// Who is sending, under which options, to which sink.
struct Peer<'a> {
    calling: &'a str,
    addr: SocketAddr,
    opts: &'a ScpOptions,
    sink: &'a dyn StoreSink,
}

/// The end of one instance: synced and handed to the sink, or the refusal.
fn finish(
    partial: Option<Partial>,
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
    sink.store(&Received {
        calling_ae: who.calling,
        peer: who.addr,
        sop_class: &c.sop_class,
        sop_instance: &c.sop_instance,
        transfer_syntax: ts,
        file: &p.path,
    })
}

fn send_command(
    assoc: &mut dicom_ul::ServerAssociation<TcpStream>,
    pc: u8,
    data: Vec<u8>,
) -> Result<(), dicom_ul::association::Error> {
    assoc.send(&Pdu::PData {
        data: vec![PDataValue {
            presentation_context_id: pc,
            value_type: PDataValueType::Command,
            is_last: true,
            data,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dicom_object::meta::FileMetaTableBuilder;
    use std::sync::Mutex;

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
