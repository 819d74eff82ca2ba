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

/// One retrieved instance being written: the one writer's temporary, renamed into place when
/// complete, removed when the transfer fails first.
struct PartFile {
    w: std::io::BufWriter<milbase::atomic::NewFile>,
}

impl PartFile {
    fn create(path: PathBuf) -> std::io::Result<PartFile> {
        Ok(PartFile {
            w: std::io::BufWriter::new(milbase::atomic::NewFile::create(&path)?),
        })
    }

    fn finish(self) -> std::io::Result<()> {
        self.w.into_inner().map_err(|e| e.into_error())?.commit()
    }
}

impl Write for PartFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.w.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
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
/// instance count (00201208); entries without a valid UID are left out. At most
/// [`MAX_STUDY_HITS`] studies are kept.
pub fn parse_study_hits(json: &str) -> Result<Vec<StudyHit>> {
    parse_study_hits_from(json.as_bytes(), MAX_STUDY_HITS)
}

/// Studies kept from one QIDO-RS answer, at most (the rest of the answer is read and skipped).
pub const MAX_STUDY_HITS: usize = 10_000;

/// As [`parse_study_hits`], from a reader, keeping at most `limit` studies. The answer is
/// parsed as it streams in, keeping only the two attributes of each study, never a JSON tree:
/// memory does not grow with the answer (before, a 63 MiB answer took 2.4 GB). An empty answer
/// (some servers' "no match") is no study.
pub fn parse_study_hits_from<R: Read>(reader: R, limit: usize) -> Result<Vec<StudyHit>> {
    use std::io::BufRead;
    let mut r = std::io::BufReader::new(reader);
    loop {
        let buf = r
            .fill_buf()
            .map_err(|e| Error::Invalid(format!("QIDO-RS answer: {e}")))?;
        if buf.is_empty() {
            return Ok(Vec::new());
        }
        let blank = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if blank < buf.len() {
            break;
        }
        r.consume(blank);
    }
    let mut de = serde_json::Deserializer::from_reader(r);
    let hits = serde::de::DeserializeSeed::deserialize(qido::Studies { limit }, &mut de)
        .and_then(|h| de.end().map(|()| h))
        .map_err(|e| Error::Invalid(format!("QIDO-RS answer: {e}")))?;
    Ok(hits)
}

/// The streaming visitors of [`parse_study_hits_from`].
mod qido {
    use super::StudyHit;
    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use std::fmt;

    /// The visitor methods of the kinds of JSON value that carry nothing kept here: each gives
    /// `$none`.
    macro_rules! other_kinds_are {
        ($none:expr) => {
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok($none)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok($none)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok($none)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok($none)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok($none)
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok($none)
            }
        };
    }

    /// The answer: an array of study objects (or `null`).
    pub struct Studies {
        pub limit: usize,
    }

    impl<'de> DeserializeSeed<'de> for Studies {
        type Value = Vec<StudyHit>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Studies {
        type Value = Vec<StudyHit>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON array")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut hits = Vec::new();
            while hits.len() < self.limit {
                match seq.next_element::<Study>()? {
                    Some(Study {
                        uid: Some(uid),
                        instances,
                    }) if crate::uid::is_valid(&uid) => hits.push(StudyHit {
                        study_uid: uid,
                        instances: instances.and_then(|n| n.trim().parse().ok()),
                    }),
                    Some(_) => {}
                    None => return Ok(hits),
                }
            }
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(hits)
        }
    }

    /// One study object: its UID and instance count; every other attribute skipped unkept.
    struct Study {
        uid: Option<String>,
        instances: Option<String>,
    }

    impl Study {
        const NONE: Study = Study {
            uid: None,
            instances: None,
        };
    }

    impl<'de> serde::Deserialize<'de> for Study {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(StudyVisitor)
        }
    }

    struct StudyVisitor;

    impl<'de> Visitor<'de> for StudyVisitor {
        type Value = Study;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a study object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Study, A::Error> {
            let mut st = Study::NONE;
            while let Some(key) = map.next_key::<Key>()? {
                match key {
                    Key::Study => st.uid = map.next_value::<Attribute>()?.0,
                    Key::Instances => st.instances = map.next_value::<Attribute>()?.0,
                    Key::Value | Key::Other => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(st)
        }
        // anything but an object is no study
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Study, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Study::NONE)
        }
        other_kinds_are!(Study::NONE);
    }

    /// The keys read: the two tags and an attribute's `Value`; any other key is not kept.
    enum Key {
        Study,
        Instances,
        Value,
        Other,
    }

    impl<'de> serde::Deserialize<'de> for Key {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_identifier(KeyVisitor)
        }
    }

    struct KeyVisitor;

    impl Visitor<'_> for KeyVisitor {
        type Value = Key;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a key")
        }
        fn visit_str<E>(self, k: &str) -> Result<Key, E> {
            Ok(match k {
                "0020000D" | "0020000d" => Key::Study,
                "00201208" => Key::Instances,
                "Value" => Key::Value,
                _ => Key::Other,
            })
        }
    }

    /// An attribute object: the first of its `Value`s, as text (a string of at most 64
    /// characters, or a number).
    struct Attribute(Option<String>);

    impl<'de> serde::Deserialize<'de> for Attribute {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(AttributeVisitor)
        }
    }

    struct AttributeVisitor;

    impl<'de> Visitor<'de> for AttributeVisitor {
        type Value = Attribute;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an attribute object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Attribute, A::Error> {
            let mut first = None;
            while let Some(key) = map.next_key::<Key>()? {
                if matches!(key, Key::Value) && first.is_none() {
                    first = map.next_value::<FirstValue>()?.0;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(Attribute(first))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Attribute, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Attribute(None))
        }
        other_kinds_are!(Attribute(None));
    }

    /// A `Value` array: its first element if that is a short string or a number.
    struct FirstValue(Option<String>);

    impl<'de> serde::Deserialize<'de> for FirstValue {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(FirstValueVisitor)
        }
    }

    struct FirstValueVisitor;

    impl<'de> Visitor<'de> for FirstValueVisitor {
        type Value = FirstValue;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a Value array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<FirstValue, A::Error> {
            let first = seq.next_element::<Scalar>()?.and_then(|s| s.0);
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(FirstValue(first))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FirstValue, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(FirstValue(None))
        }
        other_kinds_are!(FirstValue(None));
    }

    /// A string of at most 64 characters or an integer, as text; anything else skipped.
    struct Scalar(Option<String>);

    impl<'de> serde::Deserialize<'de> for Scalar {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(ScalarVisitor)
        }
    }

    struct ScalarVisitor;

    impl<'de> Visitor<'de> for ScalarVisitor {
        type Value = Scalar;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a value")
        }
        fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
            Ok(Scalar((v.len() <= 64).then(|| v.to_string())))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
            Ok(Scalar(Some(v.to_string())))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
            Ok(Scalar(Some(v.to_string())))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Scalar, E> {
            Ok(Scalar(None))
        }
        fn visit_bool<E>(self, _: bool) -> Result<Scalar, E> {
            Ok(Scalar(None))
        }
        fn visit_unit<E>(self) -> Result<Scalar, E> {
            Ok(Scalar(None))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Scalar(None))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Scalar(None))
        }
    }
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
        // read as it comes (the exchange's 64 MiB bound holds), never held whole
        200 => parse_study_hits_from(resp, limit.min(MAX_STUDY_HITS)),
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

    /// A QIDO-RS answer made as it is read: `n` studies, each with a 1 kB attribute nobody
    /// keeps, a `Value` of 50 UIDs, and an instance count; never held whole.
    struct Answer {
        n: usize,
        next: usize,
        buf: Vec<u8>,
        pos: usize,
    }

    impl Read for Answer {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.pos == self.buf.len() {
                self.buf.clear();
                self.pos = 0;
                if self.next == 0 {
                    self.buf.push(b'[');
                }
                if self.next < self.n {
                    let i = self.next;
                    let uids: Vec<String> = (0..50).map(|k| format!("\"1.2.{i}.{k}\"")).collect();
                    self.buf.extend(
                        format!(
                            "{}{{\"00081030\": {{\"vr\": \"LO\", \"Value\": [\"{}\"]}}, \
                             \"0020000D\": {{\"vr\": \"UI\", \"Value\": [{}]}}, \
                             \"00201208\": {{\"vr\": \"IS\", \"Value\": [{i}]}}}}",
                            if i > 0 { "," } else { "" },
                            "x".repeat(1000),
                            uids.join(",")
                        )
                        .bytes(),
                    );
                    self.next += 1;
                } else if self.next == self.n {
                    self.buf.push(b']');
                    self.next += 1;
                } else {
                    return Ok(0);
                }
            }
            let k = out.len().min(self.buf.len() - self.pos);
            out[..k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
            self.pos += k;
            Ok(k)
        }
    }

    #[test]
    fn a_qido_answer_is_read_as_it_streams_keeping_two_attributes_of_a_bounded_number_of_studies() {
        // 30,000 studies (about 45 MB): the first 1,000 kept, each its first UID and its count
        let answer = Answer {
            n: 30_000,
            next: 0,
            buf: Vec::new(),
            pos: 0,
        };
        let hits = parse_study_hits_from(answer, 1000).unwrap();
        assert_eq!(hits.len(), 1000);
        assert_eq!(
            hits[7],
            StudyHit {
                study_uid: "1.2.7.0".into(),
                instances: Some(7)
            }
        );
        // a truncated answer is an error, not a partial list taken as whole
        let mut cut = Vec::new();
        Answer {
            n: 3,
            next: 0,
            buf: Vec::new(),
            pos: 0,
        }
        .read_to_end(&mut cut)
        .unwrap();
        cut.truncate(cut.len() - 40);
        assert!(parse_study_hits_from(&cut[..], 10).is_err());
        // blank answers are no study; other JSON than an array is refused
        assert!(parse_study_hits_from(&b" \r\n"[..], 10).unwrap().is_empty());
        assert!(parse_study_hits_from(&b"{\"a\": 1}"[..], 10).is_err());
        // values of the wrong kind are skipped, not kept or panicked on
        let odd = br#"[{"0020000D": {"Value": [{"deep": [1, 2, {"x": null}]}]}},
                       {"0020000D": {"Value": [""]}, "00201208": {"Value": [-5]}},
                       {"0020000D": {"Value": ["1.2.3"]}, "00201208": {"Value": [1.5]}}, 7, "s", null]"#;
        let hits = parse_study_hits_from(&odd[..], 10).unwrap();
        assert_eq!(
            hits,
            vec![StudyHit {
                study_uid: "1.2.3".into(),
                instances: None
            }]
        );
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
