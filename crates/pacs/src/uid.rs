//! New UIDs for the objects `ich` writes.
//!
//! By default UIDs are under the root `2.25` (PS3.5 B.2: the decimal value of a UUID). The UUID
//! is name-based (version 8, RFC 9562): the first 128 bits of SHA-256 over the parts that make an
//! object what it is (the model's checksum, the source series, the object's role), so a rerun
//! with the same model on the same images writes the same UIDs and a PACS stores it once instead
//! of twice. A hospital with its own root (`--uid-root 1.2.826.0.1.3680043.10.999`) gets
//! `ROOT.<64-bit decimal>` of the same hash instead.

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// Where new UIDs come from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum UidRoot {
    /// `2.25.<UUID as a decimal integer>` (no registration needed).
    #[default]
    Uuid,
    /// An organisation's own root: `ROOT.<decimal>`.
    Org(String),
}

/// Whether `s` is a valid UID: at most 64 characters, digit components separated by dots, no
/// component with a leading zero (unless it is `0`).
pub fn is_valid(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.split('.').all(|c| {
            !c.is_empty()
                && c.bytes().all(|b| b.is_ascii_digit())
                && (c == "0" || !c.starts_with('0'))
        })
}

impl UidRoot {
    /// An organisation root, checked: a valid UID of at most 43 characters (so that a 20-digit
    /// suffix still fits the 64 allowed).
    pub fn org(root: &str) -> Result<Self> {
        let root = root.trim_end_matches('.');
        if !is_valid(root) || root.len() > 43 {
            return Err(Error::Invalid(format!(
                "UID root {root:?}: digits and dots, no leading zeros, at most 43 characters"
            )));
        }
        Ok(UidRoot::Org(root.to_string()))
    }

    /// The UID of the object named by `parts` (the same parts, the same UID).
    pub fn derive(&self, parts: &[&str]) -> String {
        let mut h = Sha256::new();
        for p in parts {
            h.update((p.len() as u64).to_le_bytes());
            h.update(p.as_bytes());
        }
        let d = h.finalize();
        match self {
            UidRoot::Uuid => {
                let mut b = [0u8; 16];
                b.copy_from_slice(&d[..16]);
                b[6] = (b[6] & 0x0f) | 0x80; // version 8
                b[8] = (b[8] & 0x3f) | 0x80; // variant 10
                format!("2.25.{}", u128::from_be_bytes(b))
            }
            UidRoot::Org(root) => {
                let mut b = [0u8; 8];
                b.copy_from_slice(&d[..8]);
                format!("{root}.{}", u64::from_be_bytes(b))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_are_valid_stable_and_distinct() {
        let r = UidRoot::Uuid;
        let a = r.derive(&["model", "series", "sr"]);
        assert_eq!(a, r.derive(&["model", "series", "sr"]));
        assert_ne!(a, r.derive(&["model", "series", "sc", "1"]));
        // the parts are length-prefixed: ("ab","c") is not ("a","bc")
        assert_ne!(r.derive(&["ab", "c"]), r.derive(&["a", "bc"]));
        assert!(a.starts_with("2.25.") && is_valid(&a), "{a}");
        // the suffix is a version-8 UUID: hex digit 13 is 8, digit 17 is one of 8, 9, a, b
        let v: u128 = a[5..].parse().unwrap();
        let hex = format!("{v:032x}");
        assert_eq!(&hex[12..13], "8", "{hex}");
        assert!("89ab".contains(&hex[16..17]), "{hex}");
        let o = UidRoot::org("1.2.826.0.1.3680043.10.999").unwrap();
        let b = o.derive(&["x"]);
        assert!(
            b.starts_with("1.2.826.0.1.3680043.10.999.") && is_valid(&b),
            "{b}"
        );
    }

    #[test]
    fn invalid_roots_are_refused() {
        for bad in ["", "1..2", "1.02", "1.2.a", &"1.2".repeat(20)] {
            assert!(UidRoot::org(bad).is_err(), "{bad}");
        }
        assert!(is_valid("1.2.0.3"));
        assert!(!is_valid("1.2.03"));
    }
}
