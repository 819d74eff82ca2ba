//! Burned-in text: the public-domain 8×8 bitmap font of `font8x8` (printable ASCII; anything
//! else is drawn as `?`).

use font8x8::legacy::BASIC_LEGACY;

/// Width in pixels of `s` drawn at `scale`.
pub fn width(s: &str, scale: usize) -> usize {
    s.chars().count() * 8 * scale
}

/// Draws `s` into an RGB canvas of width `w` with its top-left corner at (x, y), clipped to the
/// canvas.
pub fn draw(rgb: &mut [u8], w: usize, x: usize, y: usize, s: &str, scale: usize, colour: [u8; 3]) {
    let h = rgb.len() / (3 * w);
    for (i, ch) in s.chars().enumerate() {
        let c = if ch.is_ascii() && !ch.is_ascii_control() {
            ch as usize
        } else {
            b'?' as usize
        };
        let glyph = BASIC_LEGACY[c];
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) == 0 {
                    continue;
                }
                for dy in 0..scale {
                    for dx in 0..scale {
                        let px = x + (i * 8 + col) * scale + dx;
                        let py = y + row * scale + dy;
                        if px < w && py < h {
                            let o = 3 * (py * w + px);
                            rgb[o..o + 3].copy_from_slice(&colour);
                        }
                    }
                }
            }
        }
    }
}
