//! The pictures of a scan's slices that a reader is shown: on the page (a tile, and the slice
//! enlarged when the tile is clicked) and in the Secondary Captures.
//!
//! A scan read from DICOM or NIfTI is shown from its source slices at their own resolution
//! ([`preprocess::view`]), in the brain and subdural windows. A scan predicted from a dataset
//! has only the network's input kept (its first channel, the brain window at the bundle's input
//! size), and is shown from that, saying so.

use preprocess::view::{shrink, SliceView, VIEW_WINDOWS};

use crate::error::{Error, Result};
use crate::report::ScanPrediction;

/// The longest side of a tile on a scan page (pixels of the picture).
pub const TILE_PX: usize = 160;

/// One picture of a slice (the captures' own: a grey image, row-major, with what it shows).
pub use pacs::sc::Panel;

/// Where a scan's pictures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The source slices, at their own resolution.
    Slices,
    /// The network's input (a scan predicted from a dataset, which keeps no source pixels).
    NetworkInput,
}

impl Source {
    /// A line saying where the pictures come from, for the page.
    pub fn note(self, input_size: usize) -> String {
        match self {
            Source::Slices => {
                "Thumbnails of the scan's own slices (shrunk to at most 160 pixels a side), in the \
                 brain window; click one to see the slice at its own resolution in the brain and \
                 subdural windows."
                    .into()
            }
            Source::NetworkInput => format!(
                "The network's input ({input_size}² pixels, brain window): the scan was predicted \
                 from a dataset, which keeps no source slices; predict from the DICOM or NIfTI \
                 files to see the slices at their own resolution. Click a slice to enlarge it."
            ),
        }
    }
}

/// The pictures of a scan: where they come from, and how many slices have them.
pub fn source(p: &ScanPrediction) -> Source {
    if p.views.is_empty() {
        Source::NetworkInput
    } else {
        Source::Slices
    }
}

/// Slice `k`'s panels: from its source slice, one per display window (brain, subdural); from
/// the network's input, its brain window channel.
pub fn panels(p: &ScanPrediction, k: usize, input_size: usize) -> Result<Vec<Panel>> {
    if let Some(v) = p.views.get(k) {
        return Ok(view_panels(v));
    }
    if !p.views.is_empty() {
        return Err(Error::Invalid(format!(
            "scan {}: no source pixels for slice {k}",
            p.report.id
        )));
    }
    let per = 3 * input_size * input_size;
    let gray = p
        .pixels
        .get(k * per..k * per + input_size * input_size)
        .ok_or_else(|| Error::Invalid(format!("scan {}: no pixels for slice {k}", p.report.id)))?;
    Ok(vec![Panel {
        title: "network input, brain".into(),
        rows: input_size,
        cols: input_size,
        gray: gray.to_vec(),
    }])
}

/// The panels of one source slice, one per display window.
pub fn view_panels(v: &SliceView) -> Vec<Panel> {
    VIEW_WINDOWS
        .iter()
        .map(|w| Panel {
            title: format!("{} W{} L{}", w.name, w.width, w.center),
            rows: v.rows,
            cols: v.cols,
            gray: v.window(w),
        })
        .collect()
}

/// A tile of a panel: the panel averaged down to at most [`TILE_PX`] a side.
pub fn tile(p: &Panel) -> Panel {
    let (gray, rows, cols) = shrink(&p.gray, p.rows, p.cols, TILE_PX);
    Panel {
        title: p.title.clone(),
        rows,
        cols,
        gray,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prediction(views: Vec<SliceView>, pixels: Vec<u8>) -> ScanPrediction {
        ScanPrediction {
            report: crate::report::fixture_report().scans.remove(0),
            pixels,
            views,
        }
    }

    #[test]
    fn a_source_slice_gives_brain_and_subdural_panels_at_its_resolution() {
        let v = SliceView {
            rows: 2,
            cols: 3,
            hu: vec![0, 40, 80, -20, 180, 1000],
        };
        let p = prediction(vec![v], vec![0; 3 * 4 * 4]);
        assert_eq!(source(&p), Source::Slices);
        let ps = panels(&p, 0, 4).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].title, "brain W80 L40");
        assert_eq!((ps[0].rows, ps[0].cols), (2, 3));
        // brain: 0 HU black, 40 half (127.5 → 128), 80 and above white
        assert_eq!(ps[0].gray, vec![0, 128, 255, 0, 255, 255]);
        assert_eq!(ps[1].title, "subdural W200 L80");
        // subdural −20..180: 0 → 25.5 → 26, 40 → 76.5 → 77, 80 → 127.5 → 128
        assert_eq!(ps[1].gray, vec![26, 77, 128, 0, 255, 255]);
        assert!(panels(&p, 1, 4).is_err());
    }

    #[test]
    fn a_dataset_scan_shows_its_input_brain_channel() {
        // two slices of 2 × 2, three channels each: slice 1's brain channel is 10, 11, 12, 13
        let pixels: Vec<u8> = (0..24).map(|i| if i >= 12 { i - 2 } else { i }).collect();
        let p = prediction(Vec::new(), pixels);
        assert_eq!(source(&p), Source::NetworkInput);
        let ps = panels(&p, 1, 2).unwrap();
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].gray, vec![10, 11, 12, 13]);
        assert!(panels(&p, 2, 2).is_err());
    }

    #[test]
    fn tiles_are_at_most_160_pixels_a_side() {
        let p = Panel {
            title: "t".into(),
            rows: 512,
            cols: 400,
            gray: vec![9; 512 * 400],
        };
        let t = tile(&p);
        // 512 / 160 rounds up to 4: 128 × 100
        assert_eq!((t.rows, t.cols), (128, 100));
        assert!(t.gray.iter().all(|&g| g == 9));
        let small = Panel {
            title: "s".into(),
            rows: 64,
            cols: 64,
            gray: vec![1; 64 * 64],
        };
        assert_eq!(tile(&small), small);
    }
}
