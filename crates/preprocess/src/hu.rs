//! Stored pixel values → Hounsfield units.
//!
//! The modality LUT of CT is linear: `HU = slope · stored + intercept`. Before it, the stored values
//! are taken from their container (`BitsAllocated`), masked to `BitsStored` and sign-extended when
//! `PixelRepresentation` is 1. Pixels equal to `PixelPaddingValue` are outside the field of view and
//! become air. The RSNA 2019 challenge shipped some scans with a broken encoding (12 bits stored,
//! unsigned, intercept > −100) whose values wrap around; [`HuOptions::rsna_fix`] undoes it exactly as
//! the challenge's community fix does: `stored + 1000`, wrapped modulo 4096, with intercept −1000.

use crate::error::PixelError;

/// Air, in Hounsfield units: the value given to padding pixels.
pub const AIR_HU: f32 = -1000.0;
/// HU below this are not physical (padding, or lossy codecs smearing a padding value): clipped.
pub const MIN_HU: f32 = -1024.0;

/// Slices of at least this many 16-bit samples are converted through a table (see
/// [`SampleFormat::read_hu`]); smaller ones sample by sample.
pub const LUT_MIN_SAMPLES: usize = 1 << 15;

type HuTable = Option<(SampleFormat, HuOptions, Vec<f32>)>;

thread_local! {
    /// The last table built on this thread, with the format and options it is for.
    static HU_LUT: std::cell::RefCell<HuTable> = const { std::cell::RefCell::new(None) };
}

/// How stored samples are laid out in the decoded pixel buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleFormat {
    /// Bits of the container: 8 or 16 (32 is accepted too).
    pub bits_allocated: u16,
    /// Bits that carry the value (≤ `bits_allocated`).
    pub bits_stored: u16,
    /// `PixelRepresentation` 1: two's complement.
    pub signed: bool,
}

impl SampleFormat {
    /// Reads the first `n` samples of a little-endian buffer as integers, masking to `bits_stored`
    /// and sign-extending signed values.
    pub fn read(&self, data: &[u8], n: usize) -> Result<Vec<i32>, PixelError> {
        self.read_map(data, n, |v| v)
    }

    /// [`SampleFormat::read`] and [`to_hu`] in one pass: HU of the first `n` samples, without the
    /// intermediate integer buffer (same arithmetic, same results).
    ///
    /// 16-bit containers of at least [`LUT_MIN_SAMPLES`] samples go through a table of all 65,536
    /// container values, built by the same per-sample function (so bit-identical) and kept per
    /// thread for the next slice with the same format and options (a series shares them).
    pub fn read_hu(&self, data: &[u8], n: usize, opts: &HuOptions) -> Result<Vec<f32>, PixelError> {
        // the format checked before its constants are worked out (a BitsStored of 100 overflowed
        // the shift there; found by the fuzzer)
        self.sample_bytes()?;
        let hu = Hu::new(*self, opts);
        if self.bits_allocated != 16 || n < LUT_MIN_SAMPLES {
            return self.read_map(data, n, |v| hu.of(v));
        }
        // the same checks as the per-sample path, on a one-sample probe
        self.read_map(data, 1, |v| v)?;
        if data.len() < 2 * n {
            return Err(PixelError::TooShort {
                expected: 2 * n,
                found: data.len(),
            });
        }
        HU_LUT.with(|cell| {
            let mut cached = cell.borrow_mut();
            let fresh = !matches!(&*cached, Some((f, o, _)) if f == self && o == opts);
            if fresh {
                let all: Vec<u8> = (0..=u16::MAX).flat_map(|v| v.to_le_bytes()).collect();
                let lut = self.read_map(&all, 1 << 16, |v| hu.of(v))?;
                *cached = Some((*self, *opts, lut));
            }
            let lut = &cached.as_ref().expect("just filled").2;
            Ok(data[..2 * n]
                .chunks_exact(2)
                .map(|c| lut[usize::from(u16::from_le_bytes([c[0], c[1]]))])
                .collect())
        })
    }

    /// Bytes per sample; an error unless BitsAllocated is 8, 16 or 32 and BitsStored within
    /// 1..=BitsAllocated.
    fn sample_bytes(&self) -> Result<usize, PixelError> {
        let bytes = match self.bits_allocated {
            8 => 1,
            16 => 2,
            32 => 4,
            other => return Err(PixelError::UnsupportedBits(other)),
        };
        if self.bits_stored == 0 || self.bits_stored > self.bits_allocated {
            return Err(PixelError::BadBitsStored {
                stored: self.bits_stored,
                allocated: self.bits_allocated,
            });
        }
        Ok(bytes)
    }

    /// Every sample read as in [`SampleFormat::read`], then mapped by `f`.
    fn read_map<T>(
        &self,
        data: &[u8],
        n: usize,
        f: impl Fn(i32) -> T,
    ) -> Result<Vec<T>, PixelError> {
        let bytes = self.sample_bytes()?;
        if data.len() < n * bytes {
            return Err(PixelError::TooShort {
                expected: n * bytes,
                found: data.len(),
            });
        }
        let bits = u32::from(self.bits_stored);
        let mask: u64 = if bits >= 32 {
            u32::MAX as u64
        } else {
            (1u64 << bits) - 1
        };
        let signed = self.signed;
        // sign extension of a `bits`-bit value held in the low bits (bits ≤ 32)
        let extend = move |v: u64| -> i32 {
            if signed && (v >> (bits - 1)) & 1 == 1 {
                (v as i64 - (1i64 << bits)) as i32
            } else {
                v as i64 as i32
            }
        };
        let data = &data[..n * bytes];
        // one loop per sample width, so each compiles to a tight loop
        let out = match bytes {
            1 => data
                .iter()
                .map(|&b| f(extend(u64::from(b) & mask)))
                .collect(),
            2 => data
                .chunks_exact(2)
                .map(|c| f(extend(u64::from(u16::from_le_bytes([c[0], c[1]])) & mask)))
                .collect(),
            _ => data
                .chunks_exact(4)
                .map(|c| {
                    f(extend(
                        u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])) & mask,
                    ))
                })
                .collect(),
        };
        Ok(out)
    }
}

/// Parameters of the stored-value → HU conversion, read from the DICOM header.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HuOptions {
    pub slope: f64,
    pub intercept: f64,
    /// `PixelPaddingValue`, compared with the stored value (before rescale).
    pub padding: Option<i32>,
    /// Apply the RSNA wrap-around fix when the header matches (12 bits stored, unsigned,
    /// intercept > −100).
    pub rsna_fix: bool,
    /// `MONOCHROME1` without a rescale: invert so that bright is high. With a rescale (every CT),
    /// the modality LUT already gives HU and the photometric interpretation only concerns display.
    pub monochrome1_without_rescale: bool,
}

impl Default for HuOptions {
    fn default() -> Self {
        Self {
            slope: 1.0,
            intercept: 0.0,
            padding: None,
            rsna_fix: true,
            monochrome1_without_rescale: false,
        }
    }
}

/// The stored-value → HU map of one image, its constants worked out once.
struct Hu {
    opts: HuOptions,
    wrap: bool,
    slope: f64,
    intercept: f64,
    max_stored: i64,
}

impl Hu {
    fn new(format: SampleFormat, opts: &HuOptions) -> Self {
        let wrap =
            opts.rsna_fix && format.bits_stored == 12 && !format.signed && opts.intercept > -100.0;
        let intercept = if wrap { -1000.0 } else { opts.intercept };
        let max_stored = if format.signed {
            (1i64 << (format.bits_stored - 1)) - 1
        } else {
            (1i64 << format.bits_stored) - 1
        };
        Hu {
            opts: *opts,
            wrap,
            slope: opts.slope,
            intercept,
            max_stored,
        }
    }

    #[inline]
    fn of(&self, s: i32) -> f32 {
        if self.opts.padding == Some(s) {
            return AIR_HU;
        }
        let mut v = i64::from(s);
        if self.wrap {
            v += 1000;
            if v >= 4096 {
                v -= 4096;
            }
        }
        if self.opts.monochrome1_without_rescale {
            v = self.max_stored - v;
        }
        ((self.slope * v as f64 + self.intercept) as f32).max(MIN_HU)
    }
}

/// Converts stored values to HU (clipped below at [`MIN_HU`]).
pub fn to_hu(stored: &[i32], format: SampleFormat, opts: &HuOptions) -> Vec<f32> {
    let hu = Hu::new(format, opts);
    stored.iter().map(|&s| hu.of(s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const U16_12: SampleFormat = SampleFormat {
        bits_allocated: 16,
        bits_stored: 12,
        signed: false,
    };

    #[test]
    fn the_table_gives_the_per_sample_numbers_bit_for_bit_and_follows_the_options() {
        // every 16-bit pattern once, then a few again
        let n = (1 << 16) + 7;
        assert!(n >= LUT_MIN_SAMPLES);
        let data: Vec<u8> = (0..n as u32)
            .flat_map(|i| (i as u16).to_le_bytes())
            .collect();
        let cases = [
            (
                SampleFormat {
                    bits_allocated: 16,
                    bits_stored: 16,
                    signed: true,
                },
                HuOptions {
                    slope: 1.0,
                    intercept: -1024.0,
                    ..HuOptions::default()
                },
            ),
            (
                SampleFormat {
                    bits_allocated: 16,
                    bits_stored: 12,
                    signed: false,
                },
                HuOptions {
                    slope: 1.0,
                    intercept: 0.0,
                    ..HuOptions::default()
                },
            ),
            (
                SampleFormat {
                    bits_allocated: 16,
                    bits_stored: 12,
                    signed: false,
                },
                HuOptions {
                    slope: 0.5,
                    intercept: -1024.0,
                    padding: Some(0),
                    ..HuOptions::default()
                },
            ),
            (
                SampleFormat {
                    bits_allocated: 16,
                    bits_stored: 14,
                    signed: true,
                },
                HuOptions {
                    monochrome1_without_rescale: true,
                    ..HuOptions::default()
                },
            ),
        ];
        // twice over: the second round reuses or rebuilds the cached table
        for _ in 0..2 {
            for (f, o) in &cases {
                let hu = Hu::new(*f, o);
                let want = f.read_map(&data, n, |v| hu.of(v)).unwrap();
                let got = f.read_hu(&data, n, o).unwrap();
                assert!(
                    want.iter()
                        .zip(&got)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{f:?} {o:?}"
                );
                assert_eq!(got.len(), n);
            }
        }
        // too short a buffer is the same error as before
        let (f, o) = &cases[0];
        assert!(f.read_hu(&data[..2 * n - 1], n, o).is_err());
    }

    #[test]
    fn reads_and_sign_extends_by_hand() {
        // 0x0FFF with 12 bits stored, signed → −1; unsigned → 4095. 0xF005 masks to 5.
        let data = [0xFF, 0x0F, 0x05, 0xF0];
        let s = SampleFormat {
            signed: true,
            ..U16_12
        };
        assert_eq!(s.read(&data, 2).unwrap(), vec![-1, 5]);
        assert_eq!(U16_12.read(&data, 2).unwrap(), vec![4095, 5]);
        let s16 = SampleFormat {
            bits_allocated: 16,
            bits_stored: 16,
            signed: true,
        };
        // 0x8000 = −32768, 0x7FFF = 32767
        assert_eq!(
            s16.read(&[0x00, 0x80, 0xFF, 0x7F], 2).unwrap(),
            vec![-32768, 32767]
        );
        let u8f = SampleFormat {
            bits_allocated: 8,
            bits_stored: 8,
            signed: false,
        };
        assert_eq!(u8f.read(&[200, 3], 2).unwrap(), vec![200, 3]);
    }

    #[test]
    fn short_buffer_is_an_error() {
        assert!(matches!(
            U16_12.read(&[1, 2, 3], 2),
            Err(PixelError::TooShort {
                expected: 4,
                found: 3
            })
        ));
    }

    #[test]
    fn rescale_by_hand() {
        let opts = HuOptions {
            slope: 1.0,
            intercept: -1024.0,
            ..Default::default()
        };
        // 1024 → 0 HU (water); 0 → −1024; 1064 → 40.
        assert_eq!(
            to_hu(&[1024, 0, 1064], U16_12, &opts),
            vec![0.0, -1024.0, 40.0]
        );
        let opts = HuOptions {
            slope: 0.5,
            intercept: -100.0,
            ..Default::default()
        };
        let signed = SampleFormat {
            bits_allocated: 16,
            bits_stored: 16,
            signed: true,
        };
        assert_eq!(to_hu(&[-200, 300], signed, &opts), vec![-200.0, 50.0]);
        // below −1024 HU is clipped
        assert_eq!(to_hu(&[-3000], signed, &opts), vec![-1024.0]);
    }

    #[test]
    fn padding_becomes_air() {
        let opts = HuOptions {
            slope: 1.0,
            intercept: -1024.0,
            padding: Some(-2000),
            ..Default::default()
        };
        let signed = SampleFormat {
            bits_allocated: 16,
            bits_stored: 16,
            signed: true,
        };
        assert_eq!(to_hu(&[-2000, 1064], signed, &opts), vec![AIR_HU, 40.0]);
    }

    #[test]
    fn rsna_wraparound_fix_by_hand() {
        // A broken RSNA slice: intercept 0 (> −100), 12 bits unsigned. Stored 3096 is really
        // (3096 + 1000) − 4096 = 0 → −1000 HU (air); stored 40 is 1040 − 1000 = 40 HU.
        let opts = HuOptions {
            slope: 1.0,
            intercept: 0.0,
            ..Default::default()
        };
        assert_eq!(to_hu(&[3096, 40], U16_12, &opts), vec![-1000.0, 40.0]);
        // Not applied when disabled, nor to a normal intercept.
        let off = HuOptions {
            rsna_fix: false,
            ..opts
        };
        assert_eq!(to_hu(&[3096, 40], U16_12, &off), vec![3096.0, 40.0]);
        let normal = HuOptions {
            intercept: -1024.0,
            ..opts
        };
        assert_eq!(to_hu(&[1064], U16_12, &normal), vec![40.0]);
    }

    #[test]
    fn monochrome1_without_rescale_inverts() {
        let u8f = SampleFormat {
            bits_allocated: 8,
            bits_stored: 8,
            signed: false,
        };
        let opts = HuOptions {
            monochrome1_without_rescale: true,
            ..Default::default()
        };
        assert_eq!(to_hu(&[0, 255, 55], u8f, &opts), vec![255.0, 0.0, 200.0]);
    }

    /// A BitsStored beyond BitsAllocated (100, found by the fuzzer: the shift overflowed) or 0 is
    /// an error of the file, whichever path the conversion takes.
    #[test]
    fn bits_stored_outside_the_container_is_an_error_not_an_overflow() {
        for (alloc, stored, signed) in [(16u16, 100u16, false), (16, 100, true), (16, 0, true)] {
            let f = SampleFormat {
                bits_allocated: alloc,
                bits_stored: stored,
                signed,
            };
            for n in [1, LUT_MIN_SAMPLES] {
                let e = f.read_hu(&vec![0u8; 2 * n], n, &HuOptions::default());
                assert!(
                    matches!(e, Err(PixelError::BadBitsStored { stored: s, .. }) if s == stored),
                    "{e:?}"
                );
            }
        }
    }

    /// The one-pass conversion gives exactly what reading and then converting gives, for every
    /// sample width, signedness, wrap-around, padding and MONOCHROME1 case.
    #[test]
    fn one_pass_equals_two_passes() {
        let data: Vec<u8> = (0..64u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        for (alloc, stored) in [(8u16, 8u16), (16, 12), (16, 16), (32, 32), (32, 20)] {
            for signed in [false, true] {
                let f = SampleFormat {
                    bits_allocated: alloc,
                    bits_stored: stored,
                    signed,
                };
                let n = data.len() / (alloc as usize / 8);
                for opts in [
                    HuOptions::default(),
                    HuOptions {
                        slope: 0.5,
                        intercept: 20.0,
                        padding: Some(f.read(&data, 1).unwrap()[0]),
                        ..HuOptions::default()
                    },
                    HuOptions {
                        monochrome1_without_rescale: true,
                        rsna_fix: false,
                        ..HuOptions::default()
                    },
                ] {
                    let two = to_hu(&f.read(&data, n).unwrap(), f, &opts);
                    let one = f.read_hu(&data, n, &opts).unwrap();
                    let same = one
                        .iter()
                        .zip(&two)
                        .all(|(a, b)| a.to_bits() == b.to_bits());
                    assert!(same && one.len() == n, "{f:?} {opts:?}");
                }
            }
        }
        assert!(U16_12
            .read_hu(&data[..3], 2, &HuOptions::default())
            .is_err());
    }
}
