//! Whether a scan is something the model can read at all. A network gives a number for any
//! array of pixels: an all-zero series, 1×1 slices or two thousand 2×2 slices got confident
//! answers ("negative, not uncertain"; "positive" on every slice). These checks look at what the
//! scan is, before any model, and mark what fails them uncertain with the reason.

use crate::bundle::DataSummary;

/// Source slices smaller than this (rows or columns) are not a CT image of a head.
pub const MIN_SOURCE_PIXELS: u16 = 64;
/// A slice whose windowed channels all span at most this many grey levels (of 255) shows
/// nothing: no head in any window.
pub const BLANK_LEVELS: u8 = 2;
/// A scan with more slices than this factor times the most the model was trained on, or fewer
/// than the least divided by it, is too far outside for its scan probability to be taken as is.
pub const FAR_OUTSIDE_FACTOR: usize = 2;

/// What the checks found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sanity {
    /// Reasons, one per failed check, for the report's warnings.
    pub warnings: Vec<String>,
    /// The scan's probability is not to be taken as is.
    pub scan_uncertain: bool,
    /// Every slice is uncertain (the whole input is unreadable).
    pub all_slices_uncertain: bool,
    /// Slices that show nothing.
    pub blank: Vec<bool>,
}

/// Checks a scan of `n` slices whose windowed pixels are `pixels` (`[n][3][size][size]`), made
/// from source slices of `rows` × `cols`, against what the model was trained on (`trained`).
pub fn check(
    rows: u16,
    cols: u16,
    pixels: &[u8],
    n: usize,
    size: usize,
    trained: Option<&DataSummary>,
) -> Sanity {
    let mut s = Sanity::default();
    if rows.min(cols) < MIN_SOURCE_PIXELS {
        s.warnings.push(format!(
            "slices of {rows}×{cols} pixels, far below a CT image's (at least {MIN_SOURCE_PIXELS}, usually 512): nothing the model can read; every slice marked uncertain"
        ));
        s.scan_uncertain = true;
        s.all_slices_uncertain = true;
    }
    let per = 3 * size * size;
    s.blank = (0..n)
        .map(|k| {
            pixels.get(k * per..(k + 1) * per).is_some_and(|sl| {
                sl.chunks(size * size).all(|ch| {
                    let (lo, hi) = ch
                        .iter()
                        .fold((u8::MAX, u8::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
                    hi.saturating_sub(lo) <= BLANK_LEVELS
                })
            })
        })
        .collect();
    let blank = s.blank.iter().filter(|&&b| b).count();
    if blank > 0 {
        let most = 2 * blank >= n;
        s.warnings.push(format!(
            "{blank} of {n} slices show nothing (the same value in every window){}",
            if most {
                ": no head to read, the scan marked uncertain"
            } else {
                ", marked uncertain"
            }
        ));
        s.scan_uncertain |= most;
    }
    if let Some([lo, hi]) = trained.and_then(|t| t.slices_per_scan) {
        if n > FAR_OUTSIDE_FACTOR * hi || n * FAR_OUTSIDE_FACTOR < lo {
            s.warnings.push(format!(
                "{n} slices, more than {FAR_OUTSIDE_FACTOR}× outside the {lo}–{hi} the model was trained on: the scan marked uncertain"
            ));
            s.scan_uncertain = true;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trained(lo: usize, hi: usize) -> DataSummary {
        DataSummary {
            source: "t".into(),
            train_scans: 10,
            train_positive: 5,
            valid_scans: 0,
            valid_positive: 0,
            slices: None,
            slices_per_scan: Some([lo, hi]),
        }
    }

    /// `n` slices of 4×4: slice k's three channels filled by `f(k, channel, pixel)`.
    fn scan(n: usize, f: impl Fn(usize, usize, usize) -> u8) -> Vec<u8> {
        (0..n)
            .flat_map(|k| (0..3).flat_map(move |c| (0..16).map(move |i| (k, c, i))))
            .map(|(k, c, i)| f(k, c, i))
            .collect()
    }

    #[test]
    fn a_readable_scan_passes_every_check() {
        // a gradient in every window of every slice, 40 slices, trained on 30–50
        let px = scan(40, |_, _, i| (i * 10) as u8);
        let s = check(512, 512, &px, 40, 4, Some(&trained(30, 50)));
        assert_eq!(s.warnings, Vec::<String>::new());
        assert!(!s.scan_uncertain && !s.all_slices_uncertain);
        assert_eq!(s.blank, vec![false; 40]);
    }

    #[test]
    fn blank_slices_tiny_slices_and_far_lengths_are_marked() {
        // all zero: every slice blank, so the scan
        let s = check(512, 512, &vec![0; 40 * 48], 40, 4, None);
        assert!(s.scan_uncertain && s.blank.iter().all(|&b| b));
        assert!(
            s.warnings[0].starts_with("40 of 40 slices show nothing"),
            "{:?}",
            s.warnings
        );
        // one slice of five blank (a spread of 2 grey levels still counts, 3 does not): that
        // slice only
        let px = scan(5, |k, _, i| match k {
            1 => (i % 3) as u8,
            3 => (i % 4) as u8,
            _ => (i * 10) as u8,
        });
        let s = check(512, 512, &px, 5, 4, None);
        assert_eq!(s.blank, [false, true, false, false, false]);
        assert!(!s.scan_uncertain);
        // a slice blank in one window only shows something in the others: not blank
        let px = scan(1, |_, c, i| if c == 0 { 0 } else { (i * 10) as u8 });
        assert_eq!(check(512, 512, &px, 1, 4, None).blank, [false]);
        // 2×2 source slices
        let px = scan(3, |_, _, i| (i * 10) as u8);
        let s = check(2, 2, &px, 3, 4, None);
        assert!(s.scan_uncertain && s.all_slices_uncertain);
        assert!(s.warnings[0].contains("2×2"));
        assert!(!check(64, 512, &px, 3, 4, None).scan_uncertain);
        assert!(check(63, 512, &px, 3, 4, None).scan_uncertain);
        // lengths: trained on 30–50, so more than 100 or fewer than 15 slices
        let t = trained(30, 50);
        for (n, far) in [(100, false), (101, true), (15, false), (14, true)] {
            let px = scan(n, |_, _, i| (i * 10) as u8);
            assert_eq!(
                check(512, 512, &px, n, 4, Some(&t)).scan_uncertain,
                far,
                "{n}"
            );
        }
    }
}
