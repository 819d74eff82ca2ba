//! Calendar time in UTC without a dependency: what reports, bundles, run marks and DICOM dates
//! write.

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment as (year, month, day, hour, minute, second) in UTC; moments before 1970 are 1970.
pub fn civil(t: SystemTime) -> (i64, i64, i64, i64, i64, i64) {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // civil from days (H. Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, rem / 3600, rem / 60 % 60, rem % 60)
}

/// `t` as UTC RFC 3339 with seconds (`2026-11-21T09:30:00Z`).
pub fn rfc3339(t: SystemTime) -> String {
    let (y, m, d, hh, mm, ss) = civil(t);
    format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Worked from `date -u -d @SECONDS`: the epoch, a leap day, the end of a century year that
    /// is no leap year, and a date past 2100.
    #[test]
    fn dates_are_the_calendar() {
        let at = |s: u64| rfc3339(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00Z");
        assert_eq!(at(1_764_633_600 + 3_723), "2025-12-02T01:02:03Z");
    }
}
