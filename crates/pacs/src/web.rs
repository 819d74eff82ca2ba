//! DICOMweb over HTTP: STOW-RS (store) and WADO-RS (retrieve a study), PS3.18.
//!
//! Plain `http://` only: TLS belongs to the hospital's reverse proxy in front of the PACS (or a
//! later feature); an `https://` address is refused with that reason. HTTP basic authentication
//! from `ICH_DICOMWEB_USER` and `ICH_DICOMWEB_PASSWORD` (kept out of command lines and process
//! lists), or from `http://user:password@host/…`; credentials never appear in messages.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::http::{exchange, Request, Response};

const BOUNDARY: &str = "ich-dicom-part-7f3a9c21e4b8";

/// A DICOMweb service root, e.g. `http://pacs:8042/dicom-web`.
#[derive(Clone, PartialEq, Eq)]
pub struct Service {
    /// Without credentials.
    pub root: String,
    /// `Basic …` for the Authorization header.
    authorization: Option<String>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("root", &self.root)
            .field("authorization", &self.authorization.as_ref().map(|_| "…"))
            .finish()
    }
}

fn basic(user: &str, password: &str) -> String {
    use base64::Engine;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

impl Service {
    pub fn parse(url: &str) -> Result<Self> {
        if url.starts_with("https://") {
            return Err(Error::Invalid(format!(
                "{url}: https is not built in; reach the PACS through a TLS proxy on http"
            )));
        }
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            Error::Invalid(format!("{url:?}: a DICOMweb root is http://host:port/path"))
        })?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let (userinfo, host) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, authority),
        };
        if host.is_empty() {
            return Err(Error::Invalid("a DICOMweb root needs a host".into()));
        }
        let authorization = match userinfo {
            Some(u) => {
                let (user, password) = u.split_once(':').unwrap_or((u, ""));
                Some(basic(user, password))
            }
            None => match (
                std::env::var("ICH_DICOMWEB_USER"),
                std::env::var("ICH_DICOMWEB_PASSWORD"),
            ) {
                (Ok(user), Ok(password)) => Some(basic(&user, &password)),
                _ => None,
            },
        };
        let root = format!("http://{host}{}", path.trim_end_matches('/'));
        crate::http::Url::parse(&root).map_err(Error::Invalid)?;
        Ok(Service {
            root,
            authorization,
        })
    }

    fn headers(&self, mut h: Vec<(&'static str, String)>) -> Vec<(&'static str, String)> {
        if let Some(a) = &self.authorization {
            h.push(("Authorization", a.clone()));
        }
        h
    }
}

impl std::fmt::Display for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.root)
    }
}

/// The body of a `multipart/related; type="application/dicom"` request.
pub fn multipart(parts: &[Vec<u8>], boundary: &str) -> Vec<u8> {
    let mut body = Vec::new();
    for p in parts {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Type: application/dicom\r\n\r\n").as_bytes(),
        );
        body.extend_from_slice(p);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    body
}

/// The boundary parameter of a multipart content type.
pub fn boundary_of(content_type: &str) -> Option<String> {
    content_type.split(';').find_map(|p| {
        let (k, v) = p.trim().split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    let first = needle[0];
    (0..=hay.len() - needle.len()).find(|&i| hay[i] == first && &hay[i..i + needle.len()] == needle)
}

/// Instances of one retrieved study at most.
pub const MAX_INSTANCES: usize = 100_000;
const READ_CHUNK: usize = 64 * 1024;
const MAX_PART_HEAD: usize = 16 * 1024;

/// Splits a multipart message (RFC 2046) read from `r` as it arrives: each part's body (headers
/// removed) is written to the writer `open(i)` gives and handed to `close(i, w)` when complete.
/// Memory stays at a read chunk whatever the parts' sizes. Returns the number of parts.
pub fn split_multipart<R: Read, W: Write>(
    mut r: R,
    boundary: &str,
    max_parts: usize,
    mut open: impl FnMut(usize) -> std::io::Result<W>,
    mut close: impl FnMut(usize, W) -> std::io::Result<()>,
) -> Result<usize> {
    let bad = |what: String| Error::Invalid(format!("multipart answer: {what}"));
    if boundary.is_empty() || boundary.len() > 70 {
        return Err(bad(format!("boundary {boundary:?} (1 to 70 characters)")));
    }
    let delim = format!("--{boundary}").into_bytes();
    let next: Vec<u8> = [b"\r\n".as_slice(), &delim].concat();
    let mut buf: Vec<u8> = Vec::with_capacity(2 * READ_CHUNK);
    let mut chunk = vec![0u8; READ_CHUNK];
    let mut eof = false;
    let mut fill = |buf: &mut Vec<u8>, eof: &mut bool| -> Result<()> {
        let n = loop {
            match r.read(&mut chunk) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(bad(e.to_string())),
            }
        };
        *eof = n == 0;
        buf.extend_from_slice(&chunk[..n]);
        Ok(())
    };
    // the preamble, discarded
    loop {
        if let Some(p) = find(&buf, &delim) {
            buf.drain(..p + delim.len());
            break;
        }
        if eof {
            return Err(bad("no boundary".into()));
        }
        let keep = delim.len() - 1;
        if buf.len() > keep {
            buf.drain(..buf.len() - keep);
        }
        fill(&mut buf, &mut eof)?;
    }
    let mut n = 0;
    loop {
        // just after a delimiter: `--` closes the message, else a part's headers follow
        while buf.len() < 2 && !eof {
            fill(&mut buf, &mut eof)?;
        }
        if buf.starts_with(b"--") {
            return Ok(n);
        }
        loop {
            if let Some(h) = find(&buf, b"\r\n\r\n") {
                buf.drain(..h + 4);
                break;
            }
            if eof {
                return Err(bad("part without headers".into()));
            }
            if buf.len() > MAX_PART_HEAD {
                return Err(bad(format!("part headers over {MAX_PART_HEAD} bytes")));
            }
            fill(&mut buf, &mut eof)?;
        }
        if n >= max_parts {
            return Err(bad(format!("more than {max_parts} parts")));
        }
        let io = |e: std::io::Error| bad(format!("part {}: {e}", n + 1));
        let mut w = open(n).map_err(io)?;
        loop {
            if let Some(p) = find(&buf, &next) {
                w.write_all(&buf[..p]).map_err(io)?;
                buf.drain(..p + next.len());
                break;
            }
            if eof {
                return Err(bad("unterminated part".into()));
            }
            let keep = next.len() - 1;
            if buf.len() > keep {
                w.write_all(&buf[..buf.len() - keep]).map_err(io)?;
                buf.drain(..buf.len() - keep);
            }
            fill(&mut buf, &mut eof)?;
        }
        close(n, w).map_err(io)?;
        n += 1;
    }
}

/// The answers of a DICOMweb server read at most (error pages, STOW-RS answers).
const MAX_ANSWER: usize = 1 << 20;

fn answer_text(resp: Response) -> String {
    clip(&resp.text(MAX_ANSWER).unwrap_or_default())
}

/// STOW-RS: stores Part 10 objects in one request. `Ok` when the server stored them all.
pub fn stow(service: &Service, objects: &[Vec<u8>], timeout: Duration) -> Result<()> {
    let url = format!("{}/studies", service.root);
    let body = multipart(objects, BOUNDARY);
    let ct = format!("multipart/related; type=\"application/dicom\"; boundary={BOUNDARY}");
    let resp = exchange(&Request {
        method: "POST",
        url: url.clone(),
        headers: service.headers(vec![
            ("Content-Type", ct),
            ("Accept", "application/dicom+json".into()),
        ]),
        body: &body,
        timeout,
        max_body: MAX_ANSWER as u64,
    })
    .map_err(|e| Error::net(&url, e))?;
    let status = resp.status;
    let text = answer_text(resp);
    if !(200..300).contains(&status) {
        return Err(Error::net(&url, format!("HTTP {status}: {text}")));
    }
    // a FailedSOPSequence (0008,1198) with items in the answer: some were not stored
    if status == 202 || failed_count(&text) > 0 {
        return Err(Error::net(
            &url,
            format!("HTTP {status}: some objects were not stored: {text}"),
        ));
    }
    Ok(())
}

/// The number of items of the FailedSOPSequence (0008,1198) of a STOW-RS answer (DICOM JSON).
pub fn failed_count(answer: &str) -> usize {
    serde_json::from_str::<serde_json::Value>(answer)
        .ok()
        .and_then(|v| v["00081198"]["Value"].as_array().map(|a| a.len()))
        .unwrap_or(0)
}

fn clip(s: &str) -> String {
    s.chars().take(300).collect()
}

/// One retrieved instance being written: a temporary file renamed into place when complete,
/// removed when the transfer fails first.
struct PartFile {
    w: Option<std::io::BufWriter<std::fs::File>>,
    tmp: PathBuf,
    path: PathBuf,
}

impl PartFile {
    fn create(path: PathBuf) -> std::io::Result<PartFile> {
        let tmp = milbase::atomic::temporary(&path)?;
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        Ok(PartFile {
            w: Some(std::io::BufWriter::new(f)),
            tmp,
            path,
        })
    }

    fn finish(mut self) -> std::io::Result<()> {
        let f = self
            .w
            .take()
            .expect("finish is called once")
            .into_inner()
            .map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&self.tmp, &self.path)
    }
}

impl Write for PartFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.w.as_mut().map_or(Ok(0), |w| w.write(buf))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.as_mut().map_or(Ok(()), |w| w.flush())
    }
}

impl Drop for PartFile {
    fn drop(&mut self) {
        if self.w.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// WADO-RS: every instance of a study, written as it arrives to `dir/NNNNN.dcm` (atomic
/// writes, names from the order of arrival; at most `max_bytes` in all and [`MAX_INSTANCES`]
/// instances). Returns the number of instances.
pub fn retrieve_study(
    service: &Service,
    study_uid: &str,
    max_bytes: u64,
    timeout: Duration,
    dir: &Path,
) -> Result<usize> {
    if !crate::uid::is_valid(study_uid) {
        return Err(Error::Invalid(format!(
            "{study_uid:?} is not a StudyInstanceUID"
        )));
    }
    let url = format!("{}/studies/{study_uid}", service.root);
    let resp = exchange(&Request {
        method: "GET",
        url: url.clone(),
        headers: service.headers(vec![(
            "Accept",
            "multipart/related; type=\"application/dicom\"".into(),
        )]),
        body: &[],
        timeout,
        max_body: max_bytes,
    })
    .map_err(|e| Error::net(&url, e))?;
    if resp.status != 200 {
        let status = resp.status;
        return Err(Error::net(
            &url,
            format!("HTTP {status}: {}", answer_text(resp)),
        ));
    }
    let ct = resp.header("Content-Type").unwrap_or_default().to_string();
    let boundary =
        boundary_of(&ct).ok_or_else(|| Error::net(&url, format!("not multipart: {ct:?}")))?;
    let n = split_multipart(
        resp,
        &boundary,
        MAX_INSTANCES,
        |i| PartFile::create(dir.join(format!("{i:05}.dcm"))),
        |_, f| f.finish(),
    )
    .map_err(|e| Error::net(&url, e))?;
    if n == 0 {
        return Err(Error::net(&url, "the study has no instances"));
    }
    Ok(n)
}

/// A study found by QIDO-RS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudyHit {
    pub study_uid: String,
    /// Number of Study Related Instances, where the server gives it.
    pub instances: Option<u64>,
}

/// The answer of a QIDO-RS search in the DICOM JSON model: each study's UID (0020000D) and
/// instance count (00201208); entries without a valid UID are left out.
pub fn parse_study_hits(json: &str) -> Result<Vec<StudyHit>> {
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| Error::Invalid(format!("QIDO-RS answer: {e}")))?;
    let list = match &v {
        serde_json::Value::Array(a) => a.as_slice(),
        // no match: some servers answer 204 with an empty body, others `[]`
        serde_json::Value::Null => &[],
        _ => return Err(Error::Invalid("QIDO-RS answer: not a JSON array".into())),
    };
    let first =
        |o: &serde_json::Value, tag: &str| o.get(tag).and_then(|e| e["Value"].get(0)).cloned();
    Ok(list
        .iter()
        .filter_map(|o| {
            let uid = first(o, "0020000D")?.as_str()?.to_string();
            if !crate::uid::is_valid(&uid) {
                return None;
            }
            let instances = first(o, "00201208").and_then(|n| {
                n.as_u64()
                    .or_else(|| n.as_str().and_then(|t| t.trim().parse().ok()))
            });
            Some(StudyHit {
                study_uid: uid,
                instances,
            })
        })
        .collect())
}

/// QIDO-RS: the studies whose modalities include `modality` and whose StudyDate is `since`
/// (YYYYMMDD) or later (any date, or none, when `since` is empty), at most `limit`, with their
/// instance counts.
pub fn search_studies(
    service: &Service,
    modality: &str,
    since: &str,
    limit: usize,
    timeout: Duration,
) -> Result<Vec<StudyHit>> {
    let ok = |t: &str| t.bytes().all(|b| b.is_ascii_alphanumeric());
    if !ok(modality) || !ok(since) {
        return Err(Error::Invalid(format!("QIDO-RS: {modality:?}, {since:?}")));
    }
    let date = match since {
        "" => String::new(),
        d => format!("&StudyDate={d}-"),
    };
    let url = format!(
        "{}/studies?ModalitiesInStudy={modality}{date}&includefield=00201208&limit={limit}",
        service.root
    );
    let resp = exchange(&Request {
        method: "GET",
        url: url.clone(),
        headers: service.headers(vec![("Accept", "application/dicom+json".into())]),
        body: &[],
        timeout,
        max_body: 64 << 20,
    })
    .map_err(|e| Error::net(&url, e))?;
    match resp.status {
        204 => Ok(Vec::new()),
        200 => {
            let text = resp.text(64 << 20).map_err(|e| Error::net(&url, e))?;
            parse_study_hits(if text.trim().is_empty() {
                "null"
            } else {
                &text
            })
        }
        status => Err(Error::net(
            &url,
            format!("HTTP {status}: {}", answer_text(resp)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per read, so that boundaries straddle reads.
    struct Dribble<'a>(&'a [u8], usize);

    impl Read for Dribble<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn parse_multipart_in_steps(body: &[u8], boundary: &str, step: usize) -> Result<Vec<Vec<u8>>> {
        let parts = std::cell::RefCell::new(Vec::new());
        split_multipart(
            Dribble(body, step),
            boundary,
            10,
            |_| Ok(Vec::new()),
            |_, w| {
                parts.borrow_mut().push(w);
                Ok(())
            },
        )?;
        Ok(parts.into_inner())
    }

    fn parse_multipart(body: &[u8], boundary: &str) -> Result<Vec<Vec<u8>>> {
        let whole = parse_multipart_in_steps(body, boundary, usize::MAX);
        // the same parts (or the same refusal) whatever the reads' sizes
        for step in [1, 2, 3, 7] {
            let stepped = parse_multipart_in_steps(body, boundary, step);
            assert_eq!(format!("{stepped:?}"), format!("{whole:?}"), "step {step}");
        }
        whole
    }

    #[test]
    fn multipart_round_trips_and_finds_its_boundary() {
        let parts = vec![
            b"DICM one".to_vec(),
            b"\r\n--not-the-boundary\r\n".to_vec(),
            Vec::new(),
        ];
        let body = multipart(&parts, "b0und");
        let back = parse_multipart(&body, "b0und").unwrap();
        assert_eq!(back, parts);
        // a preamble, transport padding and an epilogue are not content
        let mut framed = b"preamble --b0un\r\n".to_vec();
        framed.extend_from_slice(&body);
        framed.extend_from_slice(b"epilogue");
        assert_eq!(parse_multipart(&framed, "b0und").unwrap(), parts);
        // at most max_parts parts
        assert!(split_multipart(&body[..], "b0und", 2, |_| Ok(Vec::new()), |_, _| Ok(())).is_err());
        assert_eq!(
            boundary_of("multipart/related; type=\"application/dicom\"; boundary=\"abc\"")
                .as_deref(),
            Some("abc")
        );
        assert!(parse_multipart(b"--b0und\r\nContent-Type: x\r\n\r\nno end", "b0und").is_err());
    }

    #[test]
    fn hostile_multipart_answers_are_errors_not_panics() {
        let good = multipart(&[b"abc".to_vec(), b"defg".to_vec()], "bb");
        // every truncation and every single-byte change of a valid answer
        for n in 0..good.len() {
            let _ = parse_multipart(&good[..n], "bb");
            for b in [0u8, b'-', b'\r', b'\n', b'b'] {
                let mut m = good.clone();
                m[n] = b;
                let _ = parse_multipart(&m, "bb");
            }
        }
        assert!(parse_multipart(b"", "bb").is_err());
        // an empty boundary from a server is refused
        assert!(parse_multipart(b"----\r\n\r\nx\r\n------", "").is_err());
    }

    #[test]
    fn failed_sop_items_are_counted() {
        assert_eq!(failed_count(r#"{"00081198": {"vr": "SQ"}}"#), 0);
        assert_eq!(
            failed_count(r#"{"00081198": {"vr": "SQ", "Value": [{}, {}]}}"#),
            2
        );
        assert_eq!(failed_count("not json"), 0);
    }

    #[test]
    fn credentials_go_to_the_header_never_to_messages() {
        let s = Service::parse("http://ich:s3cret@pacs:8042/dicom-web/").unwrap();
        assert_eq!(s.root, "http://pacs:8042/dicom-web");
        // base64("ich:s3cret"), by hand: aWNoOnMzY3JldA==
        assert_eq!(s.authorization.as_deref(), Some("Basic aWNoOnMzY3JldA=="));
        assert!(!format!("{s} {s:?}").contains("s3cret"));
        assert!(!format!("{s:?}").contains("aWNo"));
        assert!(Service::parse("http://u:p@/x").is_err());
    }

    #[test]
    fn services_are_plain_http_with_a_host() {
        assert_eq!(
            Service::parse("http://h:8042/dicom-web/").unwrap().root,
            "http://h:8042/dicom-web"
        );
        for bad in [
            "https://h/dicom-web",
            "ftp://h",
            "http:///x",
            "h:8042",
            "http://h/a b",
            "http://h:8042x/",
        ] {
            assert!(Service::parse(bad).is_err(), "{bad}");
        }
    }
}

#[cfg(test)]
mod retrieve_tests {
    use super::*;
    use crate::http::tests::serve;

    #[test]
    fn a_study_is_streamed_to_files_and_a_failed_transfer_leaves_none_half_written() {
        let parts = vec![vec![7u8; 300_000], b"second".to_vec(), vec![0u8; 1]];
        let body = multipart(&parts, "xyz");
        let root = serve(3, move |head, s| {
            let auth_ok = head.contains("Authorization: Basic aWNoOnMzY3JldA==");
            let mut a = b"HTTP/1.1 200 OK\r\nContent-Type: multipart/related; type=\"application/dicom\"; boundary=xyz\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
            // the second request is cut inside its second part
            let cut = if head.contains("1.2.3.4") {
                body.len()
            } else {
                300_090
            };
            for c in body[..cut].chunks(100_000) {
                a.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
                a.extend_from_slice(c);
                a.extend_from_slice(b"\r\n");
            }
            if cut == body.len() && auth_ok {
                a.extend_from_slice(b"0\r\n\r\n");
            }
            let _ = s.write_all(&a);
        });
        let t = tempfile::tempdir().unwrap();
        let svc = Service::parse(&format!(
            "{}/dicom-web",
            root.replace("http://", "http://ich:s3cret@")
        ))
        .unwrap();
        let n = retrieve_study(&svc, "1.2.3.4", 1 << 20, Duration::from_secs(5), t.path()).unwrap();
        assert_eq!(n, 3);
        for (i, p) in parts.iter().enumerate() {
            assert_eq!(
                &std::fs::read(t.path().join(format!("{i:05}.dcm"))).unwrap(),
                p
            );
        }
        let t2 = tempfile::tempdir().unwrap();
        let e = retrieve_study(&svc, "1.2.3.5", 1 << 20, Duration::from_secs(5), t2.path())
            .unwrap_err();
        assert!(e.to_string().contains("1.2.3.5"), "{e}");
        // the complete first part is there, no temporary file of the cut one
        let names: Vec<String> = std::fs::read_dir(t2.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["00000.dcm"], "{e}");
        // a limit below the study's size is refused
        assert!(retrieve_study(&svc, "1.2.3.4", 1000, Duration::from_secs(5), t2.path()).is_err());
    }

    #[test]
    fn qido_answers_give_study_uids_and_counts() {
        // the DICOM JSON model (PS3.18 F.2): Orthanc gives counts as numbers, others as strings
        let json = r#"[
          {"0020000D": {"vr": "UI", "Value": ["1.2.3"]}, "00201208": {"vr": "IS", "Value": [40]}},
          {"0020000D": {"vr": "UI", "Value": ["1.2.4"]}, "00201208": {"vr": "IS", "Value": ["7"]}},
          {"0020000D": {"vr": "UI", "Value": ["../etc"]}},
          {"00080020": {"vr": "DA", "Value": ["20261125"]}},
          {"0020000D": {"vr": "UI", "Value": ["1.2.5"]}}
        ]"#;
        let hits = parse_study_hits(json).unwrap();
        assert_eq!(
            hits,
            vec![
                StudyHit {
                    study_uid: "1.2.3".into(),
                    instances: Some(40)
                },
                StudyHit {
                    study_uid: "1.2.4".into(),
                    instances: Some(7)
                },
                StudyHit {
                    study_uid: "1.2.5".into(),
                    instances: None
                },
            ]
        );
        assert!(parse_study_hits("null").unwrap().is_empty());
        assert!(parse_study_hits("{}").is_err());
    }
}
