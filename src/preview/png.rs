//! Raster export: a usvg tree → pixels → PNG bytes, with resvg. Pixels exist only here,
//! derived from a physical size and a resolution.

use resvg::tiny_skia::{Pixmap, Transform};

use crate::length::Length;

/// Beyond this many pixels an image is a mistake (a 400 mm card at 1200 dpi), not a preview.
const MAX_PIXELS: u64 = 64 * 1024 * 1024;

/// Pixel size of a `width` × `height` piece drawn at `dpi` pixels per inch.
pub fn pixel_size(width: Length, height: Length, dpi: u32) -> Result<(u32, u32), String> {
    let px = |l: Length| (l.to_pt() / 72.0 * dpi as f32).round().max(1.0) as u32;
    let (w, h) = (px(width), px(height));
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(format!("a {width} × {height} card at {dpi} dpi would be {w} × {h} pixels; use a lower --dpi"));
    }
    Ok((w, h))
}

/// Draws `tree` scaled to exactly `width` × `height` pixels (the tree's aspect ratio is the
/// card's, which `render` checks), on a transparent background.
pub fn draw(tree: &usvg::Tree, width: u32, height: u32) -> Result<Pixmap, String> {
    let mut pixmap = Pixmap::new(width, height).ok_or_else(|| format!("cannot make a {width} × {height} image"))?;
    let size = tree.size();
    let transform = Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
    resvg::render(tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

pub fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, String> {
    pixmap.encode_png().map_err(|e| format!("cannot encode a PNG: {e}"))
}

/// Parses an SVG we generate ourselves (contact sheet labels) against the bundled fonts.
pub fn own_svg(svg: &str) -> Result<usvg::Tree, String> {
    let options = usvg::Options { font_family: crate::fonts::DEFAULT_FAMILY.to_string(), fontdb: crate::fonts::database(&[]), ..usvg::Options::default() };
    usvg::Tree::from_str(svg, &options).map_err(|e| format!("internal SVG is invalid: {e}"))
}

/// Escapes text for XML and HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poker_card_at_150_dpi_is_372_by_520_pixels() {
        assert_eq!(pixel_size(Length::mm(63.0), Length::mm(88.0), 150), Ok((372, 520)));
    }

    #[test]
    fn absurd_sizes_are_refused() {
        assert!(pixel_size(Length::mm(400.0), Length::mm(400.0), 1200).is_err());
    }

    #[test]
    fn draws_a_tree_at_the_asked_size() {
        let tree = own_svg(r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"><rect width="10" height="20" fill="#ff0000"/></svg>"##).unwrap();
        let pixmap = draw(&tree, 30, 60).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (30, 60));
        let p = pixmap.pixel(15, 30).unwrap();
        assert_eq!((p.red(), p.green(), p.blue(), p.alpha()), (255, 0, 0, 255));
        assert_eq!(&encode(&pixmap).unwrap()[1..4], b"PNG");
    }
}
