//! The source slices as a reader looks at them: each decoded slice's Hounsfield units at the
//! scan's own resolution (not the network's input size), for the report's tiles, its enlarged
//! views and the Secondary Captures, shown in the brain and subdural windows.
//!
//! A slice wider or taller than [`VIEW_MAX_SIDE`] is averaged down by a whole factor, so a view
//! costs at most 512² × 2 bytes a slice whatever the source's matrix.

use crate::read::HuImage;

/// The largest side a view keeps (a head CT's usual 512 × 512 is kept as it is).
pub const VIEW_MAX_SIDE: usize = 512;

/// A display window: Hounsfield units from `center − width/2` (black) to `center + width/2`
/// (white).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewWindow {
    pub name: &'static str,
    pub center: f32,
    pub width: f32,
}

/// The brain window (W 80, L 40), where most bleeds are seen.
pub const BRAIN: ViewWindow = ViewWindow {
    name: "brain",
    center: 40.0,
    width: 80.0,
};

/// The subdural window (W 200, L 80): a thin bleed against the skull stands apart from bone.
pub const SUBDURAL: ViewWindow = ViewWindow {
    name: "subdural",
    center: 80.0,
    width: 200.0,
};

/// The windows a reader is shown, in order.
pub const VIEW_WINDOWS: [ViewWindow; 2] = [BRAIN, SUBDURAL];

/// One source slice in Hounsfield units (rounded to whole units), row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceView {
    pub rows: usize,
    pub cols: usize,
    pub hu: Vec<i16>,
}

impl SliceView {
    /// The view of a decoded slice: its own resolution, or averaged down by the smallest whole
    /// factor that brings both sides within [`VIEW_MAX_SIDE`].
    pub fn of(img: &HuImage) -> Self {
        let f = img.rows.max(img.cols).div_ceil(VIEW_MAX_SIDE).max(1);
        let (rows, cols) = (img.rows.div_ceil(f), img.cols.div_ceil(f));
        let mut hu = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                let (mut sum, mut n) = (0f64, 0usize);
                for y in r * f..((r + 1) * f).min(img.rows) {
                    for x in c * f..((c + 1) * f).min(img.cols) {
                        sum += f64::from(img.hu[y * img.cols + x]);
                        n += 1;
                    }
                }
                let v = if n == 0 { -1024.0 } else { sum / n as f64 };
                hu.push(v.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16);
            }
        }
        Self { rows, cols, hu }
    }

    /// The slice in window `w`, one byte a pixel (0 at or below the window's bottom, 255 at or
    /// above its top, linear between, rounded).
    pub fn window(&self, w: &ViewWindow) -> Vec<u8> {
        let lo = w.center - w.width / 2.0;
        self.hu
            .iter()
            .map(|&h| {
                ((f32::from(h) - lo) / w.width * 255.0)
                    .round()
                    .clamp(0.0, 255.0) as u8
            })
            .collect()
    }
}

/// A grey picture averaged down by the smallest whole factor that brings both sides within
/// `max_side` (unchanged when already within): `(pixels, rows, cols)`.
pub fn shrink(gray: &[u8], rows: usize, cols: usize, max_side: usize) -> (Vec<u8>, usize, usize) {
    let f = rows.max(cols).div_ceil(max_side.max(1)).max(1);
    if f == 1 {
        return (gray.to_vec(), rows, cols);
    }
    let (r2, c2) = (rows.div_ceil(f), cols.div_ceil(f));
    let mut out = Vec::with_capacity(r2 * c2);
    for r in 0..r2 {
        for c in 0..c2 {
            let (mut sum, mut n) = (0u32, 0u32);
            for y in r * f..((r + 1) * f).min(rows) {
                for x in c * f..((c + 1) * f).min(cols) {
                    sum += u32::from(gray[y * cols + x]);
                    n += 1;
                }
            }
            out.push(((sum + n / 2) / n.max(1)) as u8);
        }
    }
    (out, r2, c2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_map_their_ends_to_black_and_white_linearly() {
        let v = SliceView {
            rows: 1,
            cols: 6,
            hu: vec![-1000, 0, 20, 40, 80, 3000],
        };
        // brain: 0 HU black, 80 HU white; 20 HU a quarter up (63.75 → 64), 40 halfway (127.5 → 128)
        assert_eq!(v.window(&BRAIN), vec![0, 0, 64, 128, 255, 255]);
        // subdural: −20 .. 180 HU; 0 → 25.5 → 26 (rounded half away), 20 → 51, 40 → 76.5 → 77, 80 → 127.5 → 128
        assert_eq!(v.window(&SUBDURAL), vec![0, 26, 51, 77, 128, 255]);
    }

    #[test]
    fn a_512_slice_is_kept_whole_and_a_larger_one_averaged_down() {
        let img = HuImage {
            rows: 512,
            cols: 512,
            hu: (0..512 * 512).map(|i| (i % 7) as f32 - 0.4).collect(),
        };
        let v = SliceView::of(&img);
        assert_eq!((v.rows, v.cols), (512, 512));
        assert_eq!(v.hu[..8], [0, 1, 2, 3, 4, 5, 6, 0]);
        // 1024 × 600: factor 2 → 512 × 300; each pixel the mean of its 2 × 2 block
        let img = HuImage {
            rows: 1024,
            cols: 600,
            hu: (0..1024 * 600)
                .map(|i| ((i / 600) % 2 * 10 + (i % 600) % 2 * 4) as f32)
                .collect(),
        };
        let v = SliceView::of(&img);
        assert_eq!((v.rows, v.cols), (512, 300));
        // (0 + 4 + 10 + 14) / 4 = 7
        assert!(v.hu.iter().all(|&h| h == 7));
        // 1025 rows: factor 3 (1025/512 rounds up to 3), the last row block one row high
        let img = HuImage {
            rows: 1025,
            cols: 10,
            hu: (0..1025 * 10).map(|i| (i / 10) as f32).collect(),
        };
        let v = SliceView::of(&img);
        assert_eq!((v.rows, v.cols), (342, 4));
        assert_eq!(v.hu[0], 1); // rows 0, 1, 2
        assert_eq!(v.hu[341 * 4], 1024); // rows 1023 and 1024: 1023.5, rounded half away from 0
    }

    #[test]
    fn shrinking_averages_blocks_and_keeps_small_pictures() {
        let g: Vec<u8> = vec![0, 10, 20, 30, 100, 110, 120, 131, 7, 7, 7, 7];
        assert_eq!(shrink(&g, 3, 4, 4), (g.clone(), 3, 4));
        // factor 2: blocks (0,10,100,110) → 55, (20,30,120,131) → 75.25 → 75, (7,7) → 7, (7,7) → 7
        assert_eq!(shrink(&g, 3, 4, 2), (vec![55, 75, 7, 7], 2, 2));
    }
}
