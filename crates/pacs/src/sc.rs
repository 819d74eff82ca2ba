//! Secondary Capture images of flagged slices, annotated as on the HTML page: the slice's
//! panels (its brain and subdural windows, at the source's own resolution) side by side, a small
//! one enlarged by a whole factor to at least 512 pixels, each named under it; a solid red frame
//! when the slice is a likely bleed, a dashed orange outline when it is unsure, and burned-in
//! text above (the probability with its 90 % interval, the call, the slice, the model, "not for
//! diagnostic use"). RGB, 8 bits, one frame per object, so that any viewer shows it.

use dicom_core::value::PrimitiveValue;
use dicom_core::{DataElement, VR};
use dicom_dictionary_std::{tags, uids};
use dicom_object::InMemDicomObject;

use crate::context::SourceContext;
use crate::error::{Error, Result};
use crate::font;
use crate::write::{put_common, put_seq, put_series, put_str, put_u16, to_file_bytes, Equipment};

pub const SECONDARY_CAPTURE: &str = uids::SECONDARY_CAPTURE_IMAGE_STORAGE;

/// The frame colours of the HTML page.
pub const RED: [u8; 3] = [0xee, 0, 0];
pub const ORANGE: [u8; 3] = [0xff, 0x99, 0];
const WHITE: [u8; 3] = [0xee, 0xee, 0xee];

/// One grey picture of a slice, row-major, with what it shows (e.g. "brain W80 L40").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panel {
    pub title: String,
    pub rows: usize,
    pub cols: usize,
    pub gray: Vec<u8>,
}

/// One annotated slice.
#[derive(Debug, Clone)]
pub struct Capture {
    pub context: SourceContext,
    pub equipment: Equipment,
    pub sop_instance_uid: String,
    pub series_instance_uid: String,
    pub series_number: i32,
    pub series_description: String,
    pub instance_number: i32,
    pub source_sop_class_uid: String,
    pub source_sop_instance_uid: String,
    /// The slice's pictures, drawn left to right.
    pub panels: Vec<Panel>,
    /// Text above the image, first line largest.
    pub lines: Vec<String>,
    pub positive: bool,
    pub uncertain: bool,
    pub created: (String, String),
}

/// An RGB picture.
#[derive(Debug, Clone)]
pub struct Rgb {
    pub width: usize,
    pub height: usize,
    pub data: Vec<u8>,
}

const MARGIN: usize = 8;
/// Between two panels.
const GAP: usize = 8;
/// The row of panel titles under the frame.
const TITLE_H: usize = 14;
/// The largest panel side drawn (a larger one is refused: views are at most 512 a side).
const MAX_PANEL_SIDE: usize = 4096;

impl Capture {
    /// The annotated picture.
    pub fn render(&self) -> Result<Rgb> {
        if self.panels.is_empty() {
            return Err(Error::Invalid("a capture with no picture".into()));
        }
        for p in &self.panels {
            if p.rows == 0
                || p.cols == 0
                || p.rows > MAX_PANEL_SIDE
                || p.cols > MAX_PANEL_SIDE
                || p.gray.len() != p.rows * p.cols
            {
                return Err(Error::Invalid(format!(
                    "{} pixels for a {}×{} picture ({})",
                    p.gray.len(),
                    p.rows,
                    p.cols,
                    p.title
                )));
            }
        }
        let longest = self
            .panels
            .iter()
            .map(|p| p.rows.max(p.cols))
            .max()
            .unwrap_or(1);
        let k = (512 / longest).max(1);
        let area_w: usize =
            self.panels.iter().map(|p| p.cols * k).sum::<usize>() + GAP * (self.panels.len() - 1);
        let area_h = self.panels.iter().map(|p| p.rows * k).max().unwrap_or(0);
        let mut width = area_w + 2 * MARGIN;
        width += width % 2; // even, so the pixel data has even length
        let scale0 = if font::width(self.lines.first().map_or("", |s| s), 2) + 2 * MARGIN <= width {
            2
        } else {
            1
        };
        let line_h = |i: usize| if i == 0 { 8 * scale0 + 6 } else { 12 };
        let caption: usize = MARGIN + (0..self.lines.len()).map(line_h).sum::<usize>();
        let height = caption + area_h + 2 * MARGIN + TITLE_H;
        let mut data = vec![0u8; width * height * 3];
        let (x0, y0) = (MARGIN, caption + MARGIN);
        let mut px0 = x0;
        for p in &self.panels {
            for y in 0..p.rows * k {
                let row = &p.gray[(y / k) * p.cols..(y / k + 1) * p.cols];
                for x in 0..p.cols * k {
                    let v = row[x / k];
                    let o = 3 * ((y0 + y) * width + px0 + x);
                    data[o..o + 3].copy_from_slice(&[v, v, v]);
                }
            }
            px0 += p.cols * k + GAP;
        }
        let side = (area_w, area_h);
        let mut put = |x: usize, y: usize, c: [u8; 3]| {
            if x < width && y < height {
                let o = 3 * (y * width + x);
                data[o..o + 3].copy_from_slice(&c);
            }
        };
        let (x1, y1) = (x0 + side.0, y0 + side.1);
        if self.positive {
            // solid red, 4 px, just outside the image
            for t in 1..=4 {
                for x in x0 - t..x1 + t {
                    put(x, y0 - t, RED);
                    put(x, y1 + t - 1, RED);
                }
                for y in y0 - t..y1 + t {
                    put(x0 - t, y, RED);
                    put(x1 + t - 1, y, RED);
                }
            }
        }
        if self.uncertain {
            // dashed orange, 2 px, 8 on 8 off, at the edge of the margin
            let dash = |i: usize| (i / 8).is_multiple_of(2);
            for t in 6..=7 {
                for x in x0 - t..x1 + t {
                    if dash(x) {
                        put(x, y0 - t, ORANGE);
                        put(x, y1 + t - 1, ORANGE);
                    }
                }
                for y in y0 - t..y1 + t {
                    if dash(y) {
                        put(x0 - t, y, ORANGE);
                        put(x1 + t - 1, y, ORANGE);
                    }
                }
            }
        }
        let first = if self.positive {
            RED
        } else if self.uncertain {
            ORANGE
        } else {
            WHITE
        };
        let mut y = MARGIN;
        for (i, line) in self.lines.iter().enumerate() {
            let (scale, colour) = if i == 0 { (scale0, first) } else { (1, WHITE) };
            font::draw(&mut data, width, MARGIN, y, line, scale, colour);
            y += line_h(i);
        }
        // each panel's name under it, below the frames
        let mut px0 = x0;
        for p in &self.panels {
            font::draw(&mut data, width, px0, y1 + MARGIN + 2, &p.title, 1, WHITE);
            px0 += p.cols * k + GAP;
        }
        Ok(Rgb {
            width,
            height,
            data,
        })
    }

    /// The Secondary Capture Image as a dataset.
    pub fn dataset(&self) -> Result<InMemDicomObject> {
        for u in [
            &self.sop_instance_uid,
            &self.series_instance_uid,
            &self.source_sop_class_uid,
            &self.source_sop_instance_uid,
            &self.context.study_instance_uid,
        ] {
            if !crate::uid::is_valid(u) {
                return Err(Error::Invalid(format!("{u:?} is not a valid UID")));
            }
        }
        let pic = self.render()?;
        if pic.width > u16::MAX as usize || pic.height > u16::MAX as usize {
            return Err(Error::Invalid(
                "the picture is too large for DICOM rows/columns".into(),
            ));
        }
        let mut o = InMemDicomObject::new_empty();
        put_str(&mut o, tags::SOP_CLASS_UID, VR::UI, SECONDARY_CAPTURE);
        put_str(
            &mut o,
            tags::SOP_INSTANCE_UID,
            VR::UI,
            &self.sop_instance_uid,
        );
        // the burned-in lines are pixels, not text
        put_common(&mut o, &self.context, &self.equipment, &self.created, true);
        // General Series
        put_series(
            &mut o,
            "OT",
            &self.series_instance_uid,
            self.series_number,
            &self.series_description,
            &self.created,
        );
        put_str(&mut o, tags::LATERALITY, VR::CS, "");
        // SC Equipment
        put_str(&mut o, tags::CONVERSION_TYPE, VR::CS, "WSD");
        // General Image
        put_str(
            &mut o,
            tags::INSTANCE_NUMBER,
            VR::IS,
            &self.instance_number.to_string(),
        );
        put_str(&mut o, tags::PATIENT_ORIENTATION, VR::CS, "");
        put_str(&mut o, tags::CONTENT_DATE, VR::DA, &self.created.0);
        put_str(&mut o, tags::CONTENT_TIME, VR::TM, &self.created.1);
        put_str(&mut o, tags::IMAGE_TYPE, VR::CS, "DERIVED\\SECONDARY");
        put_str(&mut o, tags::BURNED_IN_ANNOTATION, VR::CS, "YES");
        put_str(
            &mut o,
            tags::DERIVATION_DESCRIPTION,
            VR::ST,
            "the source slice in display windows (brain, subdural), with the probability of intracranial hemorrhage burned in (research software, not for diagnostic use)",
        );
        let mut src = InMemDicomObject::new_empty();
        put_str(
            &mut src,
            tags::REFERENCED_SOP_CLASS_UID,
            VR::UI,
            &self.source_sop_class_uid,
        );
        put_str(
            &mut src,
            tags::REFERENCED_SOP_INSTANCE_UID,
            VR::UI,
            &self.source_sop_instance_uid,
        );
        put_seq(&mut o, tags::SOURCE_IMAGE_SEQUENCE, vec![src]);
        // Image Pixel
        put_u16(&mut o, tags::SAMPLES_PER_PIXEL, 3);
        put_str(&mut o, tags::PHOTOMETRIC_INTERPRETATION, VR::CS, "RGB");
        put_u16(&mut o, tags::PLANAR_CONFIGURATION, 0);
        put_u16(&mut o, tags::ROWS, pic.height as u16);
        put_u16(&mut o, tags::COLUMNS, pic.width as u16);
        put_u16(&mut o, tags::BITS_ALLOCATED, 8);
        put_u16(&mut o, tags::BITS_STORED, 8);
        put_u16(&mut o, tags::HIGH_BIT, 7);
        put_u16(&mut o, tags::PIXEL_REPRESENTATION, 0);
        o.put(DataElement::new(
            tags::PIXEL_DATA,
            VR::OB,
            PrimitiveValue::from(pic.data),
        ));
        Ok(o)
    }

    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        to_file_bytes(self.dataset()?, SECONDARY_CAPTURE, &self.sop_instance_uid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(positive: bool, uncertain: bool) -> Capture {
        Capture {
            context: SourceContext {
                study_instance_uid: "1.2.3".into(),
                ..Default::default()
            },
            equipment: Equipment::example(),
            sop_instance_uid: "1.2.5".into(),
            series_instance_uid: "1.2.6".into(),
            series_number: 9902,
            series_description: "d".into(),
            instance_number: 3,
            source_sop_class_uid: "1.2.840.10008.5.1.4.1.1.2".into(),
            source_sop_instance_uid: "1.2.7".into(),
            panels: vec![Panel {
                title: "brain W80 L40".into(),
                rows: 64,
                cols: 64,
                gray: (0..64 * 64).map(|i| (i % 64) as u8 * 4).collect(),
            }],
            lines: vec![
                "ICH 0.874 [0.801-0.930] POSITIVE".into(),
                "slice 3 of 8".into(),
            ],
            positive,
            uncertain,
            created: ("20261122".into(), "120000".into()),
        }
    }

    fn px(p: &Rgb, x: usize, y: usize) -> [u8; 3] {
        let o = 3 * (y * p.width + x);
        [p.data[o], p.data[o + 1], p.data[o + 2]]
    }

    #[test]
    fn frames_and_text_are_where_the_page_puts_them() {
        let p = capture(true, false).render().unwrap();
        // 64² enlarged 8× to 512, an 8-pixel margin each side
        assert_eq!(p.width, 512 + 16);
        let caption = MARGIN + (2 * 8 + 6) + 12;
        assert_eq!(p.height, caption + 512 + 16 + TITLE_H);
        let (x0, y0) = (MARGIN, caption + MARGIN);
        // the image: column x of the source is 4·(x/8)
        assert_eq!(px(&p, x0 + 8 * 10 + 3, y0 + 5), [40, 40, 40]);
        // the red frame just outside the image, nothing orange
        assert_eq!(px(&p, x0 - 1, y0 + 100), RED);
        assert_eq!(px(&p, x0 + 100, y0 + 512), RED);
        assert!(!p.data.chunks(3).any(|c| c == ORANGE));
        // the first line is drawn (in red, for a positive slice) inside the caption
        let red_text = (MARGIN..MARGIN + 16)
            .flat_map(|y| (0..p.width).map(move |x| (x, y)))
            .filter(|&(x, y)| px(&p, x, y) == RED)
            .count();
        assert!(red_text > 100, "{red_text}");

        let u = capture(false, true).render().unwrap();
        assert!(!u.data.chunks(3).any(|c| c == RED));
        // dashed: orange on the left edge for 8 rows, then 8 rows without
        let edge: Vec<bool> = (0..32).map(|y| px(&u, x0 - 6, y0 + y) == ORANGE).collect();
        assert!(
            edge.iter().any(|&b| b) && edge.iter().any(|&b| !b),
            "{edge:?}"
        );
    }

    #[test]
    fn two_windows_of_a_source_slice_stand_side_by_side_at_their_own_resolution() {
        let mut c = capture(false, false);
        let panel = |title: &str, v: u8| Panel {
            title: title.into(),
            rows: 512,
            cols: 500,
            gray: vec![v; 512 * 500],
        };
        c.panels = vec![panel("brain W80 L40", 30), panel("subdural W200 L80", 90)];
        c.positive = true;
        let p = c.render().unwrap();
        // not enlarged (512 already): two 500-wide panels, a gap of 8, margins of 8
        assert_eq!(p.width, 500 + GAP + 500 + 2 * MARGIN);
        let caption = MARGIN + (2 * 8 + 6) + 12;
        assert_eq!(p.height, caption + 512 + 2 * MARGIN + TITLE_H);
        let (x0, y0) = (MARGIN, caption + MARGIN);
        assert_eq!(px(&p, x0, y0), [30, 30, 30]);
        assert_eq!(px(&p, x0 + 499, y0 + 511), [30, 30, 30]);
        assert_eq!(px(&p, x0 + 500, y0), [0, 0, 0]); // the gap
        assert_eq!(px(&p, x0 + 508, y0), [90, 90, 90]);
        assert_eq!(px(&p, x0 + 1007, y0 + 511), [90, 90, 90]);
        // one frame round both
        assert_eq!(px(&p, x0 - 1, y0 + 10), RED);
        assert_eq!(px(&p, x0 + 1008, y0 + 10), RED);
        // the names under the panels, in white, below the frame
        let white = |x0: usize, x1: usize| {
            (y0 + 512 + MARGIN..p.height)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| px(&p, x, y) == WHITE)
                .count()
        };
        assert!(white(x0, x0 + 500) > 50 && white(x0 + 508, x0 + 1008) > 50);
        // a panel larger than any view, or none, is refused
        c.panels = vec![panel("x", 1)];
        c.panels[0].rows = MAX_PANEL_SIDE + 1;
        assert!(c.render().is_err());
    }

    #[test]
    fn the_object_is_an_rgb_secondary_capture_referencing_its_slice() {
        let bytes = capture(true, true).to_bytes().unwrap();
        let o = dicom_object::from_reader(&bytes[128..]).unwrap();
        let s = |t| {
            o.element(t)
                .unwrap()
                .to_str()
                .unwrap()
                .trim_end_matches(['\0', ' '])
                .to_string()
        };
        assert_eq!(s(tags::SOP_CLASS_UID), SECONDARY_CAPTURE);
        assert_eq!(s(tags::PHOTOMETRIC_INTERPRETATION), "RGB");
        assert_eq!(s(tags::BURNED_IN_ANNOTATION), "YES");
        let rows: u16 = o.element(tags::ROWS).unwrap().to_int().unwrap();
        let cols: u16 = o.element(tags::COLUMNS).unwrap().to_int().unwrap();
        let data = o.element(tags::PIXEL_DATA).unwrap().to_bytes().unwrap();
        assert_eq!(data.len(), rows as usize * cols as usize * 3);
        let src = &o
            .element(tags::SOURCE_IMAGE_SEQUENCE)
            .unwrap()
            .items()
            .unwrap()[0];
        assert_eq!(
            src.element(tags::REFERENCED_SOP_INSTANCE_UID)
                .unwrap()
                .to_str()
                .unwrap()
                .trim_end_matches('\0'),
            "1.2.7"
        );
        let mut bad = capture(true, false);
        bad.panels[0].gray.pop();
        assert!(bad.to_bytes().is_err());
        bad.panels.clear();
        assert!(bad.to_bytes().is_err());
    }
}
