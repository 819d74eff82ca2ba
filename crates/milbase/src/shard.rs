//! Shards of a cohort for a cluster's job array: `I/N` (0-based `I`, as Slurm's
//! `SLURM_ARRAY_TASK_ID` with `--array=0-(N-1)` and Kubernetes' `JOB_COMPLETION_INDEX` count) takes
//! the scans whose id falls in bucket `I` of `N`. The bucket is the id's 64-bit FNV-1a hash, mixed
//! by MurmurHash3's 64-bit finalizer (FNV's low bits alone put ids that differ in one digit into
//! few buckets), modulo `N`: it depends on the id alone, so the shards are disjoint and together
//! complete whatever order the files come in, on every machine and in every version.

use std::fmt;
use std::str::FromStr;

/// The most shards a cohort is split into.
pub const MAX_SHARDS: usize = 100_000;

/// Shard `index` of `count` (`0 <= index < count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole cohort (`0/1`).
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether the scan `id` is in this shard.
    pub fn contains(&self, id: &str) -> bool {
        bucket(id, self.count) == self.index
    }

    /// Whether this is the whole cohort.
    pub fn is_all(&self) -> bool {
        self.count == 1
    }
}

/// The bucket of `id` among `count`: [`fmix64`] of [`fnv1a`] of the id's UTF-8 bytes, modulo
/// `count`.
pub fn bucket(id: &str, count: usize) -> usize {
    (fmix64(fnv1a(id.as_bytes())) % count.max(1) as u64) as usize
}

/// 64-bit FNV-1a of bytes or text (the one copy: shards, seeds per scan, patients' keys).
pub fn fnv1a(bytes: impl AsRef<[u8]>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes.as_ref() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// MurmurHash3's 64-bit finalizer (every input bit moves every output bit).
pub fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `N` in 1..=100,000 and `I` in 0..N.
    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s
            .trim()
            .split_once('/')
            .ok_or_else(|| format!("shard {s:?}: expected I/N, e.g. 0/4 (I counts from 0)"))?;
        let parse = |v: &str, what: &str| {
            v.trim()
                .parse::<usize>()
                .map_err(|_| format!("shard {s:?}: {what} {v:?} is not a whole number"))
        };
        let (index, count) = (parse(i, "index")?, parse(n, "count")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "shard {s:?}: the count must be within 1..={MAX_SHARDS}"
            ));
        }
        if index >= count {
            return Err(format!(
                "shard {s:?}: the index counts from 0 and must be below {count}"
            ));
        }
        Ok(Shard { index, count })
    }
}

/// Which of `count` shards are missing from `have`, and which appear more than once.
pub fn coverage(have: &[Shard], count: usize) -> (Vec<usize>, Vec<usize>) {
    let mut seen = vec![0usize; count];
    for s in have {
        if s.index < count {
            seen[s.index] += 1;
        }
    }
    let missing = (0..count).filter(|&i| seen[i] == 0).collect();
    let repeated = (0..count).filter(|&i| seen[i] > 1).collect();
    (missing, repeated)
}

/// The shards missing from `have` (all of `count`), or why they cannot be joined: a shard given
/// twice, or (unless `partial`) a missing one, named with `rerun`, the command that redoes it.
pub fn check_coverage(
    have: &[Shard],
    count: usize,
    partial: bool,
    rerun: &str,
) -> Result<Vec<usize>, String> {
    let (missing, repeated) = coverage(have, count);
    let list = |v: &[usize]| {
        v.iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !repeated.is_empty() {
        return Err(format!(
            "shard(s) {} of {count} given more than once",
            list(&repeated)
        ));
    }
    if !missing.is_empty() && !partial {
        return Err(format!(
            "shard(s) {} of {count} missing: rerun them (`{rerun} --shard I/{count}`) and merge \
             again, or merge what there is with --partial",
            list(&missing)
        ));
    }
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_of_published_vectors() {
        // FNV-1a 64-bit test vectors (Fowler, Noll, Vo); text and its bytes alike
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(" 0 / 1 ".parse::<Shard>(), Ok(Shard::ALL));
        for bad in ["4/4", "1/0", "-1/4", "a/4", "3", "1/100001", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(Shard { index: 3, count: 8 }.to_string(), "3/8");
    }

    const BUCKETS: [(&str, usize, usize); 5] = [
        ("a", 4, 3),
        ("foobar", 7, 3),
        ("1.2.840.1_1.2.840.1.7", 4, 2),
        ("1.2.840.2_1.2.840.2.7", 4, 2),
        ("NIfTI_scan-001", 3, 2),
    ];

    /// FNV-1a's published test vectors (64-bit): "" → cbf29ce484222325, "a" → af63dc4c8601ec8c,
    /// "foobar" → 85944171f73967e8; buckets worked out in Python from the same two functions
    /// (`fmix64(fnv1a(id)) % n`).
    #[test]
    fn buckets_follow_fnv1a_and_fmix64() {
        assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x85944171f73967e8);
        assert_eq!(fmix64(0), 0);
        for (id, n, b) in BUCKETS {
            assert_eq!(bucket(id, n), b, "{id} of {n}");
        }
    }

    /// Every id lands in exactly one of the N shards, and the shards are about equal.
    #[test]
    fn shards_are_disjoint_complete_and_balanced() {
        let ids: Vec<String> = (0..4000)
            .map(|i| format!("1.2.840.{i}_1.2.840.{i}.7"))
            .collect();
        let n = 4;
        let mut sizes = vec![0; n];
        for id in &ids {
            let owners: Vec<usize> = (0..n)
                .filter(|&i| Shard { index: i, count: n }.contains(id))
                .collect();
            assert_eq!(owners.len(), 1, "{id}");
            sizes[owners[0]] += 1;
        }
        assert!(
            sizes.iter().all(|&s| (850..=1150).contains(&s)),
            "{sizes:?}"
        );
        assert!(ids.iter().all(|id| Shard::ALL.contains(id)));
    }

    #[test]
    fn coverage_names_gaps_and_repeats() {
        let s = |i| Shard { index: i, count: 4 };
        assert_eq!(coverage(&[s(0), s(1), s(2), s(3)], 4), (vec![], vec![]));
        assert_eq!(coverage(&[s(0), s(3), s(3)], 4), (vec![1, 2], vec![3]));
    }
}
