//! Range-checked numbers from text (command-line flags, settings): each parser refuses a number
//! outside its range with the range in the message.

fn float(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| format!("'{s}' is not a number"))
}

/// `s` as a number for which `ok` holds, else an error naming the range.
fn float_in(s: &str, ok: impl Fn(f64) -> bool, range: &str) -> Result<f64, String> {
    let v = float(s)?;
    if ok(v) {
        Ok(v)
    } else {
        Err(format!("{v} is not {range}"))
    }
}

/// A fraction in [0, 1).
pub fn fraction(s: &str) -> Result<f64, String> {
    float_in(s, |v| (0.0..1.0).contains(&v), "within [0, 1)")
}

/// A fraction in (0, 1) (a test hold-out: some bags on each side).
pub fn open_fraction(s: &str) -> Result<f64, String> {
    float_in(s, |v| v > 0.0 && v < 1.0, "within (0, 1)")
}

/// A learning rate in (0, 1].
pub fn rate(s: &str) -> Result<f64, String> {
    float_in(s, |v| v > 0.0 && v <= 1.0, "within (0, 1]")
}

/// A probability in [0, 1].
pub fn probability(s: &str) -> Result<f64, String> {
    float_in(s, |v| (0.0..=1.0).contains(&v), "within [0, 1]")
}

/// A finite number ≥ 0.
pub fn non_negative(s: &str) -> Result<f64, String> {
    float_in(s, |v| v >= 0.0 && v.is_finite(), "a finite number ≥ 0")
}

/// A finite number > 0.
pub fn positive(s: &str) -> Result<f64, String> {
    float_in(s, |v| v > 0.0 && v.is_finite(), "a finite number > 0")
}

/// A finite number > 1 (the bag-likelihood constant H).
pub fn above_one(s: &str) -> Result<f64, String> {
    float_in(s, |v| v > 1.0 && v.is_finite(), "a finite number > 1")
}

/// A finite number.
pub fn finite(s: &str) -> Result<f64, String> {
    float_in(s, f64::is_finite, "finite")
}

/// An integer within `lo..=hi`.
pub fn int_in(s: &str, lo: usize, hi: usize) -> Result<usize, String> {
    let v: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number ≥ 0"))?;
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not within {lo}..={hi}"))
    }
}

/// The CNN's feature dimension: 8, 32 or 128.
pub fn dim(s: &str) -> Result<usize, String> {
    match s.trim() {
        "8" => Ok(8),
        "32" => Ok(32),
        "128" => Ok(128),
        o => Err(format!("'{o}' is not 8, 32 or 128")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_by_hand() {
        assert_eq!(fraction("0.2"), Ok(0.2));
        assert!(fraction("1").is_err() && fraction("-0.1").is_err() && fraction("nan").is_err());
        assert!(open_fraction("0").is_err() && open_fraction("0.5").is_ok());
        assert!(probability("1").is_ok() && probability("1.01").is_err());
        assert!(
            non_negative("0").is_ok()
                && non_negative("-1").is_err()
                && non_negative("inf").is_err()
        );
        assert!(positive("0").is_err() && positive("1e-3").is_ok());
        assert!(above_one("1").is_err() && above_one("1e12").is_ok());
        assert_eq!(int_in("16", 16, 2048), Ok(16));
        assert!(int_in("65536", 16, 4096).is_err() && int_in("-1", 0, 9).is_err());
        assert_eq!(dim("32"), Ok(32));
        assert!(dim("16").is_err());
    }
}
