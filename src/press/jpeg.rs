//! A photo for the press: its sRGB pixels converted through the sampled transform and
//! written as a CMYK JPEG (stored as YCCK with its colour halved each way, as photos
//! usually are), in one pass over the pixels and in strips on every core.
//!
//! Every row of MCUs (16 pixels) is a restart interval, so a strip of whole rows encodes
//! on its own into the bytes one encoder would write for it but for the numbers of its
//! restart markers (0 to 7 in turn, from 0 in each strip): the strips are joined with the
//! marker that falls between them, their markers renumbered. The bytes do not depend on
//! how many strips there were (the tests check it), only on the picture.

use std::cell::Cell;

use jpeg_encoder::{Encoder, ImageBuffer, JpegColorType, SamplingFactor};
use pixels::Lut;

/// No visible loss on cards at 300 dpi.
const QUALITY: u8 = 92;
/// Pixels a side of an MCU with the colour halved each way; a strip starts on a row of MCUs.
const MCU_SIDE: usize = 16;

/// A photo converted and encoded.
pub struct CmykJpeg {
    pub bytes: Vec<u8>,
    /// The most ink any pixel takes, in percent.
    pub max_ink: f32,
}

/// Straight RGBA pixels (`width` × `height`) through `lut` into a CMYK JPEG, on up to
/// `threads` threads. `None` when the picture is too large for a JPEG (65,535 pixels a side).
pub fn encode(rgba: &[u8], width: u32, height: u32, lut: &Lut, threads: usize) -> Option<CmykJpeg> {
    if !fits((width, height)) || rgba.len() != width as usize * height as usize * 4 {
        return None;
    }
    let (w, h) = (width as u16, height as u16);
    let strips = strips(h as usize, threads);
    let encoded: Vec<Option<(Vec<u8>, u32)>> = if strips.len() == 1 {
        vec![encode_strip(rgba, w, 0..h as usize, lut)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = strips
                .iter()
                .map(|rows| scope.spawn(|| encode_strip(rgba, w, rows.clone(), lut)))
                .collect();
            // A strip only panics if encoding does: pass that on rather than fall back to
            // deflated pixels as if the picture could not be a JPEG.
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        })
    };
    let mut parts = Vec::with_capacity(encoded.len());
    let mut most = 0;
    for part in encoded {
        let (bytes, ink) = part?;
        most = most.max(ink);
        parts.push(bytes);
    }
    let mcu_rows: Vec<usize> = strips.iter().map(|r| r.len().div_ceil(MCU_SIDE)).collect();
    Some(CmykJpeg { bytes: join(parts, &mcu_rows, h)?, max_ink: pixels::ink_of_total(most) })
}

/// Whether a picture of `size` can be a JPEG (65,535 pixels a side at most).
pub fn fits(size: (u32, u32)) -> bool {
    let side = |v: u32| (1..=u16::MAX as u32).contains(&v);
    side(size.0) && side(size.1)
}

/// The rows of each strip: about equal, each but the last a multiple of `MCU_SIDE`.
fn strips(height: usize, threads: usize) -> Vec<std::ops::Range<usize>> {
    let mcu_rows = height.div_ceil(MCU_SIDE);
    let n = threads.clamp(1, mcu_rows.max(1));
    let per = mcu_rows.div_ceil(n) * MCU_SIDE;
    (0..height).step_by(per).map(|y| y..(y + per).min(height)).collect()
}

/// One strip encoded as a JPEG of its own, and its most ink (the sum of C, M, Y and K).
fn encode_strip(
    rgba: &[u8],
    width: u16,
    rows: std::ops::Range<usize>,
    lut: &Lut,
) -> Option<(Vec<u8>, u32)> {
    let mut bytes = Vec::new();
    let mut encoder = Encoder::new(&mut bytes, QUALITY);
    encoder.set_sampling_factor(SamplingFactor::R_4_2_0);
    encoder.set_restart_interval(width.div_ceil(MCU_SIDE as u16));
    let stride = width as usize * 4;
    let strip = Strip {
        rgba: &rgba[rows.start * stride..rows.end * stride],
        width,
        height: (rows.end - rows.start) as u16,
        lut,
        most: Cell::new(0),
    };
    encoder.encode_image(&strip).ok()?;
    let most = strip.most.get();
    Some((bytes, most))
}

/// The strips' JPEGs (of `mcu_rows` rows of MCUs each) as one: the first's header (its
/// height made the whole picture's) and scan, then each other's scan after the restart
/// marker that falls between them, its own markers numbered on from there.
fn join(parts: Vec<Vec<u8>>, mcu_rows: &[usize], height: u16) -> Option<Vec<u8>> {
    const EOI: [u8; 2] = [0xFF, 0xD9];
    const RST0: u8 = 0xD0;
    let mut parts = parts.into_iter();
    let mut out = parts.next()?;
    let (sof, _) = segments(&out)?;
    out[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    let mut rows_before = *mcu_rows.first()?;
    for (part, rows) in parts.zip(&mcu_rows[1..]) {
        out.truncate(out.len().checked_sub(2).filter(|_| out.ends_with(&EOI))?);
        // The n-th marker of the whole scan (from 0) is RST(n mod 8).
        out.extend_from_slice(&[0xFF, RST0 + ((rows_before - 1) % 8) as u8]);
        let (_, scan) = segments(&part)?;
        let start = out.len();
        out.extend_from_slice(&part[scan..]);
        // In entropy-coded data a 0xFF byte is followed by 0 (stuffed) or by a marker.
        let mut i = start;
        while i + 1 < out.len() {
            if out[i] == 0xFF && (RST0..RST0 + 8).contains(&out[i + 1]) {
                let n = (out[i + 1] - RST0) as usize;
                out[i + 1] = RST0 + ((n + rows_before) % 8) as u8;
                i += 2;
            } else {
                i += 1;
            }
        }
        rows_before += rows;
    }
    Some(out)
}

/// Where a JPEG's frame header (SOF0) starts and where its scan's data starts.
fn segments(jpeg: &[u8]) -> Option<(usize, usize)> {
    let mut at = 2; // after SOI
    let mut sof = None;
    while at + 4 <= jpeg.len() {
        if jpeg[at] != 0xFF {
            return None;
        }
        let marker = jpeg[at + 1];
        let len = u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]) as usize;
        match marker {
            0xC0 => sof = Some(at),
            0xDA => return Some((sof?, at + 2 + len)),
            _ => {}
        }
        at += 2 + len;
    }
    None
}

/// A strip of straight RGBA pixels as the encoder reads it: each row converted to CMYK
/// when asked for, then to YCCK.
struct Strip<'a> {
    rgba: &'a [u8],
    width: u16,
    height: u16,
    lut: &'a Lut,
    most: Cell<u32>,
}

impl ImageBuffer for &Strip<'_> {
    fn get_jpeg_color_type(&self) -> JpegColorType {
        JpegColorType::Ycck
    }

    fn width(&self) -> u16 {
        self.width
    }

    fn height(&self) -> u16 {
        self.height
    }

    fn fill_buffers(&self, y: u16, buffers: &mut [Vec<u8>; 4]) {
        let stride = self.width as usize * 4;
        let row = &self.rgba[y as usize * stride..][..stride];
        let mut most = self.most.get();
        // Each channel's row made whole first and then written into: a push a channel
        // and pixel was a quarter of the conversion.
        let width = self.width as usize;
        let [y0, cb, cr, k] = buffers.each_mut().map(|b| {
            let start = b.len();
            b.resize(start + width, 0);
            &mut b[start..]
        });
        // A photo has few runs of one colour, but its margins and flat skies do.
        let mut last: Option<([u8; 3], [u8; 4])> = None;
        let outputs = y0.iter_mut().zip(cb.iter_mut()).zip(cr.iter_mut()).zip(k.iter_mut());
        for (p, (((y0, cb), cr), k)) in row.chunks_exact(4).zip(outputs) {
            let px = [p[0], p[1], p[2]];
            let ycck = match last {
                Some((seen, ycck)) if seen == px => ycck,
                _ => {
                    let [c, m, yellow, black] = self.lut.at(px);
                    most = most.max(c as u32 + m as u32 + yellow as u32 + black as u32);
                    let (y, b, r, k) = jpeg_encoder::cmyk_to_ycck(c, m, yellow, black);
                    let ycck = [y, b, r, k];
                    last = Some((px, ycck));
                    ycck
                }
            };
            (*y0, *cb, *cr, *k) = (ycck[0], ycck[1], ycck[2], ycck[3]);
        }
        self.most.set(most);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lut() -> Lut {
        // Any table will do here: CMY the inverse of RGB, K their least.
        let nodes = Lut::grid()
            .into_iter()
            .map(|[r, g, b]| {
                let k = 255 - r.max(g).max(b);
                [255 - r - k.min(255 - r), 255 - g - k.min(255 - g), 255 - b - k.min(255 - b), k]
            })
            .collect();
        Lut { nodes }
    }

    fn photo(w: u32, h: u32) -> Vec<u8> {
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let v = (x * 7 + y * 3) as u8;
                rgba.extend_from_slice(&[v, (x ^ y) as u8, (y * 5) as u8, 255]);
            }
        }
        rgba
    }

    #[test]
    fn strips_join_into_the_bytes_of_one_encoder() {
        let lut = lut();
        for (w, h) in [(100, 300), (37, 129), (64, 1000), (20, 16), (30, 1111), (17, 40)] {
            let rgba = photo(w, h);
            let one = encode(&rgba, w, h, &lut, 1).unwrap();
            for threads in [2, 3, 5, 8] {
                let many = encode(&rgba, w, h, &lut, threads).unwrap();
                assert!(one.bytes == many.bytes, "{w}×{h} in {threads} strips");
                assert_eq!(one.max_ink, many.max_ink);
            }
            // And it is a JPEG of the whole picture that decoders read.
            let mut decoder = zune_jpeg::JpegDecoder::new(std::io::Cursor::new(&one.bytes));
            let pixels = decoder.decode().unwrap();
            assert_eq!(decoder.dimensions(), Some((w as usize, h as usize)));
            let channels = decoder.output_colorspace().unwrap().num_components();
            assert_eq!(pixels.len(), (w * h) as usize * channels);
        }
    }

    #[test]
    fn strips_are_aligned_and_cover_the_picture() {
        for (h, threads) in [(1111, 2), (100, 2), (128, 2), (129, 2), (5000, 3), (16, 4)] {
            let s = strips(h, threads);
            assert_eq!(s.first().unwrap().start, 0);
            assert_eq!(s.last().unwrap().end, h);
            assert!(s.windows(2).all(|p| p[0].end == p[1].start && p[0].end % MCU_SIDE == 0));
            assert!(s.len() <= threads);
        }
    }
}
