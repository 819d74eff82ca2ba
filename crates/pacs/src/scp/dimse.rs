//! One association: the A-ASSOCIATE exchange, C-ECHO and C-STORE, each instance streamed into a
//! partial file and handed to the sink, and the answers.

use super::*;

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
pub(super) struct Partial<'a> {
    pub(super) path: PathBuf,
    pub(super) out: Option<BufWriter<File>>,
    pub(super) bytes: u64,
    pub(super) sink: &'a dyn StoreSink,
    pub(super) reserved: u64,
}

impl Drop for Partial<'_> {
    fn drop(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
        self.sink.release(self.reserved);
    }
}

/// The room reserved for a file's preamble and meta (before its data set's bytes).
pub(super) const META_RESERVE: u64 = 1024;

/// The command of a message being received.
pub(super) struct Command {
    pub(super) field: u16,
    pub(super) message_id: u16,
    pub(super) sop_class: String,
    pub(super) sop_instance: String,
    pub(super) has_data: bool,
}

pub(super) fn parse_command(bytes: &[u8]) -> std::result::Result<Command, String> {
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

pub(super) fn implicit() -> &'static dicom_encoding::TransferSyntax {
    TransferSyntaxRegistry
        .get(uids::IMPLICIT_VR_LITTLE_ENDIAN)
        .expect("implicit VR little endian is built in")
}

/// A response command set (C-STORE-RSP or C-ECHO-RSP).
pub(super) fn response(c: &Command, field: u16, status: u16, comment: Option<&str>) -> Vec<u8> {
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
pub(super) fn serve_one(
    stream: TcpStream,
    peer: SocketAddr,
    opts: &ScpOptions,
    sink: &dyn StoreSink,
    ticket: &Arc<Ticket>,
) -> Result<()> {
    let net = |e: &dyn std::fmt::Display| Error::net(peer, e);
    let _ended = EndsAssociation(sink, ticket.id);
    stream.set_nonblocking(false).map_err(|e| net(&e))?;
    let Some(mut assoc) = establish(stream, peer, opts, ticket) else {
        return Ok(());
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
                        take_data(p, &v.data, opts, &mut refusal);
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

/// The A-ASSOCIATE exchange with a peer: its access (the `allow` entries that match its host),
/// the storage classes and transfer syntaxes offered, its raw titles checked before the parser
/// sees them. None: rejected (logged).
fn establish(
    stream: TcpStream,
    peer: SocketAddr,
    opts: &ScpOptions,
    ticket: &Arc<Ticket>,
) -> Option<dicom_ul::ServerAssociation<TcpStream>> {
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
        return None;
    }
    match server.establish(stream) {
        Ok(a) => Some(a),
        Err(e) => {
            tracing::warn!("DICOM: association from {peer} rejected: {e}");
            None
        }
    }
}

/// One P-DATA value of an instance's data set into its partial file: counted against the
/// instance ceiling, its space reserved before it is written (for every association at once: a
/// full spool refuses the instance, never overshoots); the first refusal is kept.
fn take_data(p: &mut Partial<'_>, data: &[u8], opts: &ScpOptions, refusal: &mut Option<Refusal>) {
    let n = data.len() as u64;
    p.bytes += n;
    if p.bytes > opts.max_instance_bytes {
        p.out = None;
    }
    if p.out.is_some() {
        match p.sink.reserve(n) {
            Ok(()) => p.reserved += n,
            Err(r) => {
                refusal.get_or_insert(r);
                p.out = None;
            }
        }
    }
    if let Some(w) = p.out.as_mut() {
        if let Err(e) = w.write_all(data) {
            refusal.get_or_insert(Refusal::new(OUT_OF_RESOURCES, format!("cannot write: {e}")));
            p.out = None;
        }
    }
}

/// The command's SOP Class and Instance UIDs must be UIDs: they name the file's meta (and a
/// sender's `../../x` must not reach a file name or a parser as if it were one).
pub(super) fn check_command_uids(c: &Command) -> std::result::Result<(), Refusal> {
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

pub(super) fn open_partial<'a>(
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

pub(super) fn open_partial_file(
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
pub(super) struct Peer<'a> {
    pub(super) association: u64,
    pub(super) calling: &'a str,
    pub(super) addr: SocketAddr,
    pub(super) opts: &'a ScpOptions,
    pub(super) sink: &'a dyn StoreSink,
}

/// The end of one instance: synced and handed to the sink, or the refusal.
pub(super) fn finish(
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

pub(super) fn send_command(
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
