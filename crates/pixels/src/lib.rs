//! deckpress's loops over every pixel of a picture, in a crate of their own so that the
//! dev profile builds them optimised (the root Cargo.toml): unoptimised, these few loops
//! were three fifths of the time the test suite spent in deckpress itself. They work on
//! plain bytes (RGBA, premultiplied or straight; RGB; CMYK) and give the same results,
//! byte for byte, as the code they replaced.
#![forbid(unsafe_code)]

/// Straight (not premultiplied) RGBA from premultiplied RGBA bytes, rounded as
/// tiny-skia's `PremultipliedColorU8::demultiply` rounds.
pub fn straight_rgba(premultiplied: &[u8]) -> Vec<u8> {
    // Opaque pixels (most of a card) are the same either way: copied whole, and only the
    // others divided (a copy per pixel was 25 instructions a pixel).
    let mut out = premultiplied.to_vec();
    make_straight(&mut out);
    out
}

/// Premultiplied RGBA pixels made straight in place.
pub fn make_straight(rgba: &mut [u8]) {
    // Eight pixels at a time are looked at for an alpha under 255, as whole words: most
    // pictures (a backdrop on white paper always) have none.
    const ALPHAS: u64 = 0xFF00_0000_FF00_0000;
    for block in rgba.chunks_mut(32) {
        let opaque = block.len() == 32
            && block.chunks_exact(8).all(|w| {
                let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
                w & ALPHAS == ALPHAS
            });
        if opaque {
            continue;
        }
        for p in block.chunks_exact_mut(4) {
            if p[3] != 255 {
                p.copy_from_slice(&demultiply([p[0], p[1], p[2], p[3]]));
            }
        }
    }
}

/// One premultiplied pixel made straight, as tiny-skia does it (in f64, half rounded up).
#[inline]
pub fn demultiply(p: [u8; 4]) -> [u8; 4] {
    let alpha = p[3];
    if alpha == 255 {
        return p;
    }
    let a = alpha as f64 / 255.0;
    let div = |v: u8| (v as f64 / a + 0.5) as u8;
    [div(p[0]), div(p[1]), div(p[2]), alpha]
}

/// A premultiplied pixel as printed on white paper where the art is transparent.
#[inline]
pub fn over_white(p: [u8; 4]) -> [u8; 3] {
    match p[3] {
        255 => [p[0], p[1], p[2]],
        0 => [255; 3],
        a => {
            let c = demultiply(p);
            // Rounded in integers: the exact value is never within 1/510 of a half.
            let a = a as u32;
            let on = |v: u8| ((v as u32 * a + 255 * (255 - a) + 127) / 255) as u8;
            [on(c[0]), on(c[1]), on(c[2])]
        }
    }
}

/// Each premultiplied pixel over white paper, as one word 0xRRGGBB.
pub fn over_white_packed(premultiplied: &[u8]) -> Vec<u32> {
    let pack = |[r, g, b]: [u8; 3]| (r as u32) << 16 | (g as u32) << 8 | b as u32;
    premultiplied.chunks_exact(4).map(|p| pack(over_white([p[0], p[1], p[2], p[3]]))).collect()
}

/// A picture of at most 256 colours as a palette and an index a pixel: its RGBA colours
/// (premultiplied or straight, as given) in the order they first appear, and each pixel's
/// place among them; `None` for a picture of more colours. Drawn art is few colours (a
/// card of flat shapes and text has a few dozen: tiny-skia's edges take 17 levels).
pub fn indexed(rgba: &[u8]) -> Option<(Vec<[u8; 4]>, Vec<u8>)> {
    // Open addressing, never more than a quarter full: a colour's slot holds its index + 1.
    const SLOTS: usize = 1024;
    let mut keys = [0u32; SLOTS];
    let mut places = [0u16; SLOTS];
    let mut colours: Vec<[u8; 4]> = Vec::with_capacity(256);
    let mut indices = vec![0u8; rgba.len() / 4];
    let word = |p: &[u8]| u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
    // Runs of one colour (most of a picture) are looked up once.
    let mut last = rgba.get(..4).map_or(0, |p| !word(p));
    let mut last_index = 0u8;
    for (p, index) in rgba.chunks_exact(4).zip(indices.iter_mut()) {
        let colour = word(p);
        if colour != last {
            let mut slot = (colour.wrapping_mul(0x9E37_79B1) >> 22) as usize;
            while places[slot] != 0 && keys[slot] != colour {
                slot = (slot + 1) % SLOTS;
            }
            if places[slot] == 0 {
                if colours.len() == 256 {
                    return None;
                }
                colours.push(colour.to_le_bytes());
                (keys[slot], places[slot]) = (colour, colours.len() as u16);
            }
            (last, last_index) = (colour, (places[slot] - 1) as u8);
        }
        *index = last_index;
    }
    Some((colours, indices))
}

/// Whether every RGBA pixel is fully opaque.
pub fn is_opaque(rgba: &[u8]) -> bool {
    rgba.chunks_exact(4).all(|p| p[3] == 255)
}

/// The colour bytes of RGBA pixels, three a pixel.
pub fn rgb(rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgba.len() / 4 * 3);
    for p in rgba.chunks_exact(4) {
        out.extend_from_slice(&[p[0], p[1], p[2]]);
    }
    out
}

/// The alpha bytes of RGBA pixels.
pub fn alpha(rgba: &[u8]) -> Vec<u8> {
    rgba.chunks_exact(4).map(|p| p[3]).collect()
}

/// RGB pixels made opaque RGBA.
pub fn rgba_from_rgb(rgb: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgb.len() / 3 * 4);
    for p in rgb.chunks_exact(3) {
        out.extend_from_slice(&[p[0], p[1], p[2], 255]);
    }
    out
}

/// Grey and alpha pixels as RGBA.
pub fn rgba_from_grey_alpha(grey_alpha: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(grey_alpha.len() * 2);
    for p in grey_alpha.chunks_exact(2) {
        out.extend_from_slice(&[p[0], p[0], p[0], p[1]]);
    }
    out
}

/// Grey pixels as opaque RGBA.
pub fn rgba_from_grey(grey: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(grey.len() * 4);
    for &g in grey {
        out.extend_from_slice(&[g, g, g, 255]);
    }
    out
}

/// Lays straight RGBA pixels `over` onto `under` (same size), which becomes opaque.
pub fn lay_over(under: &mut [u8], over: &[u8]) {
    for (b, p) in under.chunks_exact_mut(4).zip(over.chunks_exact(4)) {
        // An emblem is mostly clear or solid: the blend below leaves `b` as it is at
        // alpha 0 and gives `p` at 255 (x·255 + 127 over 255 is x), skipped there.
        match p[3] {
            0 => {}
            255 => b[..3].copy_from_slice(&p[..3]),
            a => {
                let a = a as u32;
                for i in 0..3 {
                    b[i] = ((p[i] as u32 * a + b[i] as u32 * (255 - a) + 127) / 255) as u8;
                }
            }
        }
        b[3] = 255;
    }
}

/// FNV-1a over bytes, a byte at a time.
pub fn fnv_bytes(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash: u64, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// FNV-1a over 8 bytes at a time (the tail a byte at a time): a key for equal pictures.
pub fn fnv_words(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h ^= u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    for &b in words.remainder() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Where two pictures of one size (a word a pixel) differ: runs of one pair of colours
/// (first picture's in the high word), in the order they come.
pub fn changed_runs(a: &[u32], b: &[u32]) -> Vec<(u64, usize)> {
    let mut runs: Vec<(u64, usize)> = Vec::new();
    for (x, y) in a.iter().zip(b).filter(|(x, y)| x != y) {
        let pair = (*x as u64) << 32 | *y as u64;
        match runs.last_mut() {
            Some((p, n)) if *p == pair => *n += 1,
            _ => runs.push((pair, 1)),
        }
    }
    runs
}

/// Ink coverage of a CMYK colour (0–255 a channel), in percent of one full ink.
#[inline]
pub fn ink(c: [u8; 4]) -> f32 {
    ink_of_total(c.iter().map(|&v| v as u32).sum())
}

/// The ink, in percent, of a colour whose four inks add up to `total` (0..=1020).
pub fn ink_of_total(total: u32) -> f32 {
    total as f32 / 255.0 * 100.0
}

/// A colour transform sampled on a grid of RGB colours, read back by tetrahedral
/// interpolation.
pub struct Lut {
    /// The transform's CMYK at each node, red slowest (`grid`'s order): sampled, or a
    /// table shipped in the binary.
    pub nodes: std::borrow::Cow<'static, [[u8; 4]]>,
}

/// 255 = 51 × 5: the grid has 52 nodes a side, each on a whole level.
pub const LUT_STEP: u32 = 5;
pub const LUT_SIDE: usize = 255 / LUT_STEP as usize + 1;

impl Lut {
    /// The colours to sample: every colour with each channel on a node, red slowest.
    pub fn grid() -> Vec<[u8; 3]> {
        let levels: Vec<u8> = (0..LUT_SIDE).map(|i| (i as u32 * LUT_STEP) as u8).collect();
        let mut colours = Vec::with_capacity(levels.len().pow(3));
        for &r in &levels {
            for &g in &levels {
                for &b in &levels {
                    colours.push([r, g, b]);
                }
            }
        }
        colours
    }

    /// Straight RGBA pixels into CMYK bytes (4 a pixel), as a press prints a picture:
    /// pure black pixels (text and lines drawn into it) as black ink alone. Returns the
    /// most ink a pixel takes, as the sum of its C, M, Y and K. One pass, no pixels
    /// copied on the way (each copy of a picture had the kernel zero pages for it).
    pub fn print_rgba(&self, rgba: &[u8], cmyk: &mut [u8]) -> u32 {
        let mut most = 0;
        let mut last: Option<([u8; 3], [u8; 4])> = None;
        for (p, out) in rgba.chunks_exact(4).zip(cmyk.chunks_exact_mut(4)) {
            let px = [p[0], p[1], p[2]];
            let c = match last {
                Some((seen, c)) if seen == px => c,
                _ => {
                    let c = if px == [0, 0, 0] { [0, 0, 0, 255] } else { self.at(px) };
                    last = Some((px, c));
                    most = most.max(c.iter().map(|&v| v as u32).sum());
                    c
                }
            };
            out.copy_from_slice(&c);
        }
        most
    }

    /// The most ink any of the straight RGBA pixels takes through the table, as the sum
    /// of its C, M, Y and K (a photo's, as `at` converts it).
    pub fn most_ink(&self, rgba: &[u8]) -> u32 {
        let mut most = 0;
        let mut last = None;
        for p in rgba.chunks_exact(4) {
            let px = [p[0], p[1], p[2]];
            if last != Some(px) {
                most = most.max(self.at(px).iter().map(|&v| v as u32).sum());
                last = Some(px);
            }
        }
        most
    }

    /// One colour, interpolated tetrahedrally between the nodes of its cell.
    #[inline]
    pub fn at(&self, px: [u8; 3]) -> [u8; 4] {
        const S: usize = LUT_SIDE;
        // Offsets of a cell's corners from its first node, by red, green and blue step.
        const R: usize = S * S;
        const G: usize = S;
        const B: usize = 1;
        // Cell and position in it (0..=LUT_STEP) on each axis.
        let split = |v: u8| {
            let i = (v as u32 / LUT_STEP).min(LUT_SIDE as u32 - 2);
            (i as usize, v as i32 - (i * LUT_STEP) as i32)
        };
        let ((r, fr), (g, fg), (b, fb)) = (split(px[0]), split(px[1]), split(px[2]));
        let base = r * R + g * G + b;
        let nodes: &[[u8; 4]] = &self.nodes;
        let node = |offset: usize| nodes[base + offset];
        // The tetrahedron of the cube that holds the point, by the order of its fractions.
        let (w1, o1, w2, o2, w3) = if fr >= fg && fg >= fb {
            (fr - fg, R, fg - fb, R + G, fb)
        } else if fr >= fb && fb >= fg {
            (fr - fb, R, fb - fg, R + B, fg)
        } else if fb >= fr && fr >= fg {
            (fb - fr, B, fr - fg, R + B, fg)
        } else if fg >= fr && fr >= fb {
            (fg - fr, G, fr - fb, R + G, fb)
        } else if fg >= fb && fb >= fr {
            (fg - fb, G, fb - fr, G + B, fr)
        } else {
            (fb - fg, B, fg - fr, G + B, fr)
        };
        let (c0, c1, c2, c3) = (node(0), node(o1), node(o2), node(R + G + B));
        let w0 = LUT_STEP as i32 - w1 - w2 - w3;
        let mut c = [0u8; 4];
        for k in 0..4 {
            let sum = w0 * c0[k] as i32 + w1 * c1[k] as i32 + w2 * c2[k] as i32 + w3 * c3[k] as i32;
            c[k] = ((sum + LUT_STEP as i32 / 2) / LUT_STEP as i32) as u8;
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_of_few_colours_is_indexed_in_the_order_they_appear() {
        let (a, b, c) = ([9, 8, 7, 255], [0, 0, 0, 0], [4, 4, 4, 128]);
        let pixels: Vec<u8> = [a, a, b, a, c, c, b].concat();
        let (colours, indices) = indexed(&pixels).unwrap();
        assert_eq!(colours, [a, b, c]);
        assert_eq!(indices, [0, 0, 1, 0, 2, 2, 1]);
        // 256 colours fit; the 257th does not, wherever it comes.
        let many: Vec<u8> = (0..257u32).flat_map(|n| (n * 7919).to_le_bytes()).collect();
        assert_eq!(indexed(&many[..256 * 4]).map(|(c, _)| c.len()), Some(256));
        assert!(indexed(&many).is_none());
    }

    #[test]
    fn opaque_pixels_are_kept_and_clear_ones_divided_by_their_alpha() {
        assert_eq!(
            straight_rgba(&[10, 20, 30, 255, 64, 0, 128, 128]),
            [10, 20, 30, 255, 128, 0, 255, 128]
        );
        assert_eq!(straight_rgba(&[0, 0, 0, 0]), [0, 0, 0, 0]);
    }

    #[test]
    fn laying_over_blends_by_alpha_and_keeps_clear_and_solid_pixels_exact() {
        for a in [0u8, 1, 128, 254, 255] {
            for (x, y) in [(0u8, 255u8), (200, 17), (255, 0), (99, 99)] {
                let mut under = [y, y, y, 255];
                lay_over(&mut under, &[x, x, x, a]);
                let blended =
                    ((x as u32 * a as u32 + y as u32 * (255 - a as u32) + 127) / 255) as u8;
                assert_eq!(under, [blended, blended, blended, 255], "{x} at {a} over {y}");
            }
        }
    }

    #[test]
    fn runs_of_one_pair_are_counted_once() {
        let a = [1, 1, 1, 2, 2, 3];
        let b = [1, 5, 5, 6, 6, 5];
        assert_eq!(
            changed_runs(&a, &b),
            vec![(1 << 32 | 5, 2), (2 << 32 | 6, 2), (3 << 32 | 5, 1)]
        );
    }

    #[test]
    fn a_grid_node_converts_to_its_own_value_and_between_nodes_blends() {
        let grid = Lut::grid();
        // A made-up transform: cyan is the inverse of red, the rest zero.
        let lut = Lut { nodes: grid.iter().map(|c| [255 - c[0], 0, 0, 0]).collect() };
        let out = [[0, 9, 9], [10, 0, 0], [12, 0, 0]].map(|c| lut.at(c));
        assert_eq!(out, [[255, 0, 0, 0], [245, 0, 0, 0], [243, 0, 0, 0]]);
    }
}
