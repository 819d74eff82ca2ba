//! Who may associate: the `--allow` entries, checked against the peer's address before anything
//! is read and against its calling AE title at association.

use super::*;

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

    pub(super) fn host_matches(&self, peer: IpAddr) -> bool {
        self.addrs.is_empty() || self.addrs.iter().any(|a| same_ip(*a, peer))
    }
}

/// IPv4 and its IPv6-mapped form are the same peer.
pub(super) fn same_ip(a: IpAddr, b: IpAddr) -> bool {
    let canon = |ip: IpAddr| match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    canon(a) == canon(b)
}

/// An AE title as it came, without the spaces (and NUL padding) DICOM allows around it; any
/// other character (a TAB, a control character) stays and makes the title unlike any allowed.
pub(super) fn ae_trim(s: &str) -> &str {
    s.trim_matches([' ', '\0'])
}

/// The AE titles of an A-ASSOCIATE-RQ as they are on the wire, looked at (peeked, not read)
/// before dicom-ul reads the request: dicom-ul trims every kind of white space from them, so a
/// title `PACS<TAB>` would reach the access check as `PACS`. A title is 16 bytes of printable
/// ASCII without a backslash (PS3.5 AE), padded with spaces; anything else is refused here.
/// The wait is bounded by `within` (a sender writes its request at once; a connection that
/// closes with less than the titles pending cannot be told from a slow one, so it waits that
/// long), and by the connection's deadline (its socket is shut down when it passes).
pub(super) fn check_raw_titles(
    stream: &TcpStream,
    within: Duration,
) -> std::result::Result<(), String> {
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
pub(super) struct PeerAccess {
    /// Some entry allows any AE from this peer.
    pub(super) any: bool,
    pub(super) aes: Vec<String>,
    pub(super) ticket: Arc<Ticket>,
    pub(super) max_associations: usize,
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
