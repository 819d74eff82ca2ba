//! The status endpoint: a small HTTP answer with the node's queue and last errors.

use super::*;

/// The status endpoint's answer.
#[derive(Debug, Serialize)]
pub(super) struct Status<'a> {
    ae_title: &'a str,
    started: String,
    spool_bytes: u64,
    queue: HashMap<&'static str, usize>,
    studies: Vec<&'a StudyState>,
    errors: Vec<String>,
}

pub(super) fn status_json(shared: &Shared) -> Vec<u8> {
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
pub(super) fn status_loop(l: TcpListener, shared: &Arc<Shared>, stop: &AtomicBool) {
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
pub(super) const STATUS_HEAD_BYTES: usize = 8192;
pub(super) const STATUS_WITHIN: Duration = Duration::from_secs(2);
pub(super) const STATUS_CONNECTIONS: usize = 32;

/// A request's first line (without its line end). The head is read to its empty line (at most
/// [`STATUS_HEAD_BYTES`]), so that no unread request is left when the connection closes (the
/// close would then be a reset, and the client would lose the answer), within `within` in all:
/// a timeout per read would let a client sending a byte now and then hold the endpoint for hours.
pub(super) fn read_request_line(
    stream: &mut TcpStream,
    within: Duration,
) -> std::io::Result<String> {
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
pub(super) fn answer_status(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
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
