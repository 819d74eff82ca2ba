//! Sending written objects to a PACS with bounded retries. Files are only read, never moved or
//! deleted: whatever fails stays on disk to be sent again (`ich send`).

use std::path::PathBuf;
use std::time::Duration;

use crate::error::Result;
use crate::store::{c_store, Node};
use crate::web::{stow, Service};

/// Where results go: a DICOM node by C-STORE, or a DICOMweb service by STOW-RS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// `AE_TITLE@host:port`.
    Dimse(Node),
    /// `http://host:port/dicom-web`.
    Stow(Service),
}

impl Destination {
    /// `http://…` is a DICOMweb root (STOW-RS); anything else `AE_TITLE@host:port` (C-STORE).
    pub fn parse(s: &str) -> Result<Self> {
        if s.starts_with("http://") || s.starts_with("https://") {
            Ok(Destination::Stow(Service::parse(s)?))
        } else {
            Ok(Destination::Dimse(Node::parse(s)?))
        }
    }
}

impl std::fmt::Display for Destination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Destination::Dimse(n) => write!(f, "C-STORE {n}"),
            Destination::Stow(s) => write!(f, "STOW-RS {s}"),
        }
    }
}

/// How to send. Defaults: calling AE title `ICH`, 3 retries after the first try, waits of 1 s,
/// 2 s, 4 s between them, 30 s network timeout.
#[derive(Debug, Clone)]
pub struct SendOptions {
    pub calling_ae: String,
    /// Further tries after the first (each only of the files not yet stored).
    pub retries: u32,
    /// Wait before the first retry; doubled each time.
    pub backoff: Duration,
    pub timeout: Duration,
}

impl Default for SendOptions {
    fn default() -> Self {
        Self {
            calling_ae: "ICH".into(),
            retries: 3,
            backoff: Duration::from_secs(1),
            timeout: Duration::from_secs(30),
        }
    }
}

/// The most bytes of objects one STOW-RS request carries (a bigger single file goes alone).
pub const STOW_BATCH_BYTES: usize = 64 << 20;

/// What a send did.
#[derive(Debug, Clone)]
pub struct SendReport {
    pub destination: String,
    pub sent: usize,
    /// `file: reason` of each file not stored after the last try.
    pub failed: Vec<String>,
    pub attempts: u32,
}

/// The largest object sent: ich's own results are a few MB each; a larger file is refused by
/// name before it is read (it would be held whole in memory).
pub const MAX_OBJECT_BYTES: u64 = 512 << 20;

/// One try: per file, `Ok` or why not. Files that are not regular files of at most
/// [`MAX_OBJECT_BYTES`] are refused without being read; the others go to `dest`.
fn attempt(
    dest: &Destination,
    files: &[PathBuf],
    opts: &SendOptions,
) -> Result<Vec<std::result::Result<(), String>>> {
    let mut out: Vec<std::result::Result<(), String>> = vec![Ok(()); files.len()];
    let mut fit = Vec::new();
    for (i, f) in files.iter().enumerate() {
        match milbase::bounded::open_regular(f, MAX_OBJECT_BYTES) {
            Ok(_) => fit.push(i),
            Err(e) => out[i] = Err(e.to_string()),
        }
    }
    if !fit.is_empty() {
        let sendable: Vec<PathBuf> = fit.iter().map(|&i| files[i].clone()).collect();
        match attempt_readable(dest, &sendable, opts) {
            Ok(rs) => fit.iter().zip(rs).for_each(|(&i, r)| out[i] = r),
            // the whole try failed (no association, say): each file sent says so; the refused
            // ones keep their own reason
            Err(e) => fit.iter().for_each(|&i| out[i] = Err(e.to_string())),
        }
    }
    Ok(out)
}

/// [`attempt`] on files already checked.
fn attempt_readable(
    dest: &Destination,
    files: &[PathBuf],
    opts: &SendOptions,
) -> Result<Vec<std::result::Result<(), String>>> {
    match dest {
        Destination::Dimse(node) => c_store(&opts.calling_ae, node, files, opts.timeout),
        Destination::Stow(svc) => {
            // requests of at most STOW_BATCH_BYTES (or one file), so memory stays bounded
            // whatever the number of files; the server's answer is for its whole request
            let mut out = Vec::with_capacity(files.len());
            let mut batch: Vec<Vec<u8>> = Vec::new();
            let mut size = 0;
            let flush = |batch: &mut Vec<Vec<u8>>, out: &mut Vec<_>| {
                if batch.is_empty() {
                    return;
                }
                let r = stow(svc, batch, opts.timeout).map_err(|e| e.to_string());
                out.extend(std::iter::repeat_n(r, batch.len()));
                batch.clear();
            };
            for f in files {
                match std::fs::read(f) {
                    Ok(bytes) => {
                        if size + bytes.len() > STOW_BATCH_BYTES {
                            flush(&mut batch, &mut out);
                            size = 0;
                        }
                        size += bytes.len();
                        batch.push(bytes);
                    }
                    Err(e) => {
                        // keep the order: what is batched so far goes first
                        flush(&mut batch, &mut out);
                        size = 0;
                        out.push(Err(format!("not readable: {e}")));
                    }
                }
            }
            flush(&mut batch, &mut out);
            Ok(out)
        }
    }
}

/// Sends `files`, retrying the ones not stored up to `opts.retries` times.
pub fn send(files: &[PathBuf], dest: &Destination, opts: &SendOptions) -> SendReport {
    let mut pending: Vec<PathBuf> = files.to_vec();
    let mut reasons: Vec<String> = Vec::new();
    let mut attempts = 0;
    let mut wait = opts.backoff;
    while !pending.is_empty() && attempts <= opts.retries {
        if attempts > 0 {
            tracing::warn!(
                "{dest}: {} object(s) not stored, retrying in {:.1} s ({}/{})",
                pending.len(),
                wait.as_secs_f64(),
                attempts,
                opts.retries
            );
            std::thread::sleep(wait);
            wait *= 2;
        }
        attempts += 1;
        match attempt(dest, &pending, opts) {
            Ok(results) => {
                let mut still = Vec::new();
                reasons.clear();
                for (f, r) in pending.iter().zip(results) {
                    if let Err(why) = r {
                        reasons.push(format!("{}: {why}", f.display()));
                        still.push(f.clone());
                    }
                }
                pending = still;
            }
            Err(e) => {
                reasons = pending
                    .iter()
                    .map(|f| format!("{}: {e}", f.display()))
                    .collect();
            }
        }
    }
    SendReport {
        destination: dest.to_string(),
        sent: files.len() - pending.len(),
        failed: if pending.is_empty() {
            Vec::new()
        } else {
            reasons
        },
        attempts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port nothing listens on: one bound, then dropped.
    fn closed_port() -> u16 {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    #[test]
    fn a_file_larger_than_any_object_is_refused_unread_and_the_others_go() {
        let dir = tempfile::tempdir().unwrap();
        let (big, small) = (dir.path().join("big.dcm"), dir.path().join("small.dcm"));
        // a sparse file past the ceiling (it would be read whole before)
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_OBJECT_BYTES + 1)
            .unwrap();
        std::fs::write(&small, b"not even DICOM").unwrap();
        let port = closed_port();
        let opts = SendOptions {
            retries: 0,
            timeout: Duration::from_secs(2),
            ..Default::default()
        };
        for dest in [
            format!("http://127.0.0.1:{port}/dicom-web"),
            format!("PACS@127.0.0.1:{port}"),
        ] {
            let dest = Destination::parse(&dest).unwrap();
            let r = send(&[big.clone(), small.clone()], &dest, &opts);
            assert_eq!((r.sent, r.failed.len()), (0, 2), "{r:?}");
            let ceiling = format!("more than the {MAX_OBJECT_BYTES}");
            assert!(
                r.failed[0].contains("big.dcm") && r.failed[0].contains(&ceiling),
                "{r:?}"
            );
            // the small one went to the (closed) server and failed there, not here
            assert!(
                r.failed[1].contains("small.dcm") && !r.failed[1].contains(&ceiling),
                "{r:?}"
            );
        }
    }

    #[test]
    fn a_closed_port_is_tried_a_bounded_number_of_times_and_files_stay() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("x.dcm");
        std::fs::write(&f, b"not even DICOM").unwrap();
        let port = closed_port();
        let opts = SendOptions {
            retries: 2,
            backoff: Duration::from_millis(10),
            timeout: Duration::from_secs(2),
            ..Default::default()
        };
        let dest = Destination::parse(&format!("http://127.0.0.1:{port}/dicom-web")).unwrap();
        let r = send(std::slice::from_ref(&f), &dest, &opts);
        assert_eq!((r.sent, r.attempts, r.failed.len()), (0, 3, 1), "{r:?}");
        assert!(r.failed[0].contains("x.dcm"), "{r:?}");
        assert!(f.is_file());
        let dest = Destination::parse(&format!("PACS@127.0.0.1:{port}")).unwrap();
        let r = send(std::slice::from_ref(&f), &dest, &opts);
        assert_eq!((r.sent, r.attempts), (0, 3), "{r:?}");
        assert!(f.is_file());
    }
}
