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
//!
//! Here: the options, the sink's trait, the [`Scp`] and its accept loop. `access`: who may
//! associate; `watch`: the connections' deadlines and the tickets that count them; `dimse`: one
//! association, from the A-ASSOCIATE exchange to the last C-STORE answer.

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

mod access;
mod dimse;
mod watch;
pub use access::Allow;
use access::*;
pub use dimse::serve_connection;
use dimse::*;
use watch::*;

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
