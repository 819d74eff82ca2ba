//! DICOMweb over HTTP: STOW-RS (store) and WADO-RS (retrieve a study), PS3.18.
//!
//! Plain `http://` only: TLS belongs to the hospital's reverse proxy in front of the PACS (or a
//! later feature); an `https://` address is refused with that reason. HTTP basic authentication
//! from `ICH_DICOMWEB_USER` and `ICH_DICOMWEB_PASSWORD` (kept out of command lines and process
//! lists), or from `http://user:password@host/…`; credentials never appear in messages.

use std::io::Read;
use std::time::Duration;

use crate::error::{Error, Result};

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
        Ok(Service {
            root: format!("http://{host}{}", path.trim_end_matches('/')),
            authorization,
        })
    }

    fn get(&self, agent: &ureq::Agent, url: &str) -> ureq::Request {
        self.auth(agent.get(url))
    }

    fn post(&self, agent: &ureq::Agent, url: &str) -> ureq::Request {
        self.auth(agent.post(url))
    }

    fn auth(&self, r: ureq::Request) -> ureq::Request {
        match &self.authorization {
            Some(a) => r.set("Authorization", a),
            None => r,
        }
    }
}

impl std::fmt::Display for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.root)
    }
}

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout_connect(timeout)
        .timeout_read(timeout)
        .timeout_write(timeout)
        .build()
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

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    (from..=hay.len() - needle.len()).find(|&i| &hay[i..i + needle.len()] == needle)
}

/// The bodies of the parts of a multipart message (RFC 2046), headers removed.
pub fn parse_multipart<'a>(body: &'a [u8], boundary: &str) -> Result<Vec<&'a [u8]>> {
    let delim = format!("--{boundary}");
    let d = delim.as_bytes();
    let bad = |what: &str| Error::Invalid(format!("multipart answer: {what}"));
    let mut pos = find(body, d, 0).ok_or_else(|| bad("no boundary"))?;
    let mut parts = Vec::new();
    loop {
        let after = pos + d.len();
        if body[after..].starts_with(b"--") {
            return Ok(parts);
        }
        let head_end = find(body, b"\r\n\r\n", after).ok_or_else(|| bad("part without headers"))?;
        let start = head_end + 4;
        let mut next_delim = Vec::with_capacity(d.len() + 2);
        next_delim.extend_from_slice(b"\r\n");
        next_delim.extend_from_slice(d);
        let end = find(body, &next_delim, start).ok_or_else(|| bad("unterminated part"))?;
        parts.push(&body[start..end]);
        pos = end + 2;
    }
}

/// STOW-RS: stores Part 10 objects in one request. `Ok` when the server stored them all.
pub fn stow(service: &Service, objects: &[Vec<u8>], timeout: Duration) -> Result<()> {
    let url = format!("{}/studies", service.root);
    let body = multipart(objects, BOUNDARY);
    let ct = format!("multipart/related; type=\"application/dicom\"; boundary={BOUNDARY}");
    let resp = service
        .post(&agent(timeout), &url)
        .set("Content-Type", &ct)
        .set("Accept", "application/dicom+json")
        .send_bytes(&body);
    match resp {
        Ok(r) => {
            let status = r.status();
            let text = r.into_string().unwrap_or_default();
            // a FailedSOPSequence (0008,1198) with items in the answer: some were not stored
            if status == 202 || failed_count(&text) > 0 {
                Err(Error::net(
                    &url,
                    format!(
                        "HTTP {status}: some objects were not stored: {}",
                        clip(&text)
                    ),
                ))
            } else {
                Ok(())
            }
        }
        Err(ureq::Error::Status(code, r)) => Err(Error::net(
            &url,
            format!(
                "HTTP {code}: {}",
                clip(&r.into_string().unwrap_or_default())
            ),
        )),
        Err(e) => Err(Error::net(&url, e)),
    }
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

/// WADO-RS: every instance of a study, as Part 10 files (at most `max_bytes` in all).
pub fn retrieve_study(
    service: &Service,
    study_uid: &str,
    max_bytes: u64,
    timeout: Duration,
) -> Result<Vec<Vec<u8>>> {
    if !crate::uid::is_valid(study_uid) {
        return Err(Error::Invalid(format!(
            "{study_uid:?} is not a StudyInstanceUID"
        )));
    }
    let url = format!("{}/studies/{study_uid}", service.root);
    let resp = service
        .get(&agent(timeout), &url)
        .set("Accept", "multipart/related; type=\"application/dicom\"")
        .call();
    let r = match resp {
        Ok(r) => r,
        Err(ureq::Error::Status(code, r)) => {
            return Err(Error::net(
                &url,
                format!(
                    "HTTP {code}: {}",
                    clip(&r.into_string().unwrap_or_default())
                ),
            ))
        }
        Err(e) => return Err(Error::net(&url, e)),
    };
    let ct = r.header("Content-Type").unwrap_or_default().to_string();
    let boundary =
        boundary_of(&ct).ok_or_else(|| Error::net(&url, format!("not multipart: {ct:?}")))?;
    let mut body = Vec::new();
    r.into_reader()
        .take(max_bytes + 1)
        .read_to_end(&mut body)
        .map_err(|e| Error::net(&url, e))?;
    if body.len() as u64 > max_bytes {
        return Err(Error::net(
            &url,
            format!("the study is larger than the {max_bytes}-byte limit"),
        ));
    }
    let parts = parse_multipart(&body, &boundary).map_err(|e| Error::net(&url, e))?;
    if parts.is_empty() {
        return Err(Error::net(&url, "the study has no instances"));
    }
    Ok(parts.into_iter().map(|p| p.to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipart_round_trips_and_finds_its_boundary() {
        let parts = vec![
            b"DICM one".to_vec(),
            b"\r\n--not-the-boundary\r\n".to_vec(),
            Vec::new(),
        ];
        let body = multipart(&parts, "b0und");
        let back = parse_multipart(&body, "b0und").unwrap();
        assert_eq!(back, parts.iter().map(|p| p.as_slice()).collect::<Vec<_>>());
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
        // an empty boundary from a server terminates too
        let _ = parse_multipart(b"----\r\n\r\nx\r\n------", "");
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
        for bad in ["https://h/dicom-web", "ftp://h", "http:///x", "h:8042"] {
            assert!(Service::parse(bad).is_err(), "{bad}");
        }
    }
}
