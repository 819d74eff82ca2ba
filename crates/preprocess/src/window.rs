//! CT windows: HU → [0, 1] intensity, three windows stacked as channels.

use serde::{Deserialize, Serialize};

/// A display window: values in `[level − width/2, level + width/2]` map linearly onto `[0, 1]`,
/// values outside are clipped.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Window {
    pub level: f32,
    pub width: f32,
}

impl Window {
    pub const BRAIN: Window = Window {
        level: 40.0,
        width: 80.0,
    };
    pub const BLOOD: Window = Window {
        level: 80.0,
        width: 200.0,
    };
    pub const SOFT_TISSUE: Window = Window {
        level: 40.0,
        width: 380.0,
    };

    /// Applies the window to one HU value.
    #[inline]
    pub fn apply(&self, hu: f32) -> f32 {
        let lo = self.level - self.width / 2.0;
        ((hu - lo) / self.width).clamp(0.0, 1.0)
    }

    /// Parses `LEVEL/WIDTH` or `LEVEL,WIDTH`, e.g. `40/80`.
    pub fn parse(s: &str) -> Result<Window, String> {
        let (l, w) = s
            .split_once(['/', ','])
            .ok_or_else(|| format!("window '{s}' is not LEVEL/WIDTH"))?;
        let level: f32 = l
            .trim()
            .parse()
            .map_err(|_| format!("window level '{l}' is not a number"))?;
        let width: f32 = w
            .trim()
            .parse()
            .map_err(|_| format!("window width '{w}' is not a number"))?;
        if !(width > 0.0 && width.is_finite() && level.is_finite()) {
            return Err(format!("window '{s}' needs a finite level and a width > 0"));
        }
        Ok(Window { level, width })
    }
}

impl std::fmt::Display for Window {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.level, self.width)
    }
}

/// The three channels: brain, blood/subdural, soft tissue (defaults of MODELS.md §8).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Windows(pub [Window; 3]);

impl Windows {
    /// The SA-DMIL authors' windows: brain 40/80, subdural 80/200, soft 30/30.
    pub const SA_DMIL: Windows = Windows([
        Window::BRAIN,
        Window::BLOOD,
        Window {
            level: 30.0,
            width: 30.0,
        },
    ]);
}

impl Default for Windows {
    fn default() -> Self {
        Windows([Window::BRAIN, Window::BLOOD, Window::SOFT_TISSUE])
    }
}

/// Quantises a [0, 1] intensity to a byte (round to nearest).
#[inline]
pub fn to_u8(v: f32) -> u8 {
    (v * 255.0 + 0.5) as u8
}

/// Windows an HU image of `n` pixels into `out`, channel-major `[3][n]`, as bytes.
pub fn window_u8(hu: &[f32], windows: &Windows, out: &mut Vec<u8>) {
    let n = hu.len();
    let at = out.len();
    out.resize(at + 3 * n, 0);
    for (w, dst) in windows.0.iter().zip(out[at..].chunks_exact_mut(n.max(1))) {
        // the bytes of `to_u8(w.apply(h))`, over plain slices so that it vectorises: below 0
        // and NaN both go to 0 (`clamp` keeps NaN, which `to_u8` then turns into byte 0 too), so
        // the value is in [0.5, 255.5], where truncating to i32 (one vector instruction, unlike
        // the saturating cast to u8) gives the same byte
        let lo = w.level - w.width / 2.0;
        let width = w.width;
        for (d, &h) in dst.iter_mut().zip(hu) {
            let x = (h - lo) / width;
            let x = if x >= 0.0 { x.min(1.0) } else { 0.0 };
            let v = x * 255.0 + 0.5;
            // SAFETY: x is in [0, 1] (NaN included: it fails `x >= 0`), so v fits an i32
            *d = unsafe { v.to_int_unchecked::<i32>() } as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brain_window_by_hand() {
        let w = Window::BRAIN; // [0, 80]
        assert_eq!(w.apply(0.0), 0.0);
        assert_eq!(w.apply(40.0), 0.5);
        assert_eq!(w.apply(80.0), 1.0);
        assert_eq!(w.apply(-1000.0), 0.0);
        assert_eq!(w.apply(1500.0), 1.0);
        assert_eq!(w.apply(20.0), 0.25);
    }

    #[test]
    fn blood_and_soft_tissue_by_hand() {
        // blood: [−20, 180]; 60 HU → 80/200 = 0.4
        assert!((Window::BLOOD.apply(60.0) - 0.4).abs() < 1e-6);
        // soft tissue: [−150, 230]; 40 HU → 190/380 = 0.5; −150 → 0
        assert!((Window::SOFT_TISSUE.apply(40.0) - 0.5).abs() < 1e-6);
        assert_eq!(Window::SOFT_TISSUE.apply(-150.0), 0.0);
        // the authors' 30/30: [15, 45]; 30 → 0.5
        let a = Window::parse("30/30").unwrap();
        assert_eq!(a.apply(30.0), 0.5);
    }

    #[test]
    fn bytes_and_channels() {
        assert_eq!(to_u8(0.0), 0);
        assert_eq!(to_u8(1.0), 255);
        assert_eq!(to_u8(0.5), 128); // 127.5 rounds up
        let mut out = Vec::new();
        window_u8(&[40.0, 1000.0], &Windows::default(), &mut out);
        // brain: 40 → 128, 1000 → 255; blood: 40 → 60/200·255 = 76.5 → 77, → 255;
        // soft: 40 → 128, → 255
        assert_eq!(out, vec![128, 255, 77, 255, 128, 255]);
    }

    #[test]
    fn bytes_appended_after_what_is_there_match_the_per_pixel_rule() {
        // a sweep over and beyond every window, with the odd values a resize can give
        let mut hu: Vec<f32> = (0..5000).map(|i| -1100.0 + i as f32 * 0.537).collect();
        hu.extend([f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 15.0, 45.0]);
        let windows = Windows::SA_DMIL;
        let mut out = vec![7u8, 9];
        window_u8(&hu, &windows, &mut out);
        let mut want = vec![7u8, 9];
        for w in &windows.0 {
            want.extend(hu.iter().map(|&h| to_u8(w.apply(h))));
        }
        assert_eq!(out, want);
        // NaN → 0, +∞ → 255 in every channel
        let n = hu.len();
        assert_eq!((out[2 + 5000], out[2 + 5001]), (0, 255));
        assert_eq!((out[2 + 2 * n + 5000], out[2 + 2 * n + 5001]), (0, 255));
    }

    #[test]
    fn parse_rejects_garbage() {
        assert!(Window::parse("40").is_err());
        assert!(Window::parse("a/80").is_err());
        assert!(Window::parse("40/0").is_err());
        assert_eq!(Window::parse("40,80").unwrap(), Window::BRAIN);
    }
}
