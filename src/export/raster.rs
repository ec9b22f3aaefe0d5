//! Raster export: a usvg tree → pixels → PNG bytes, with resvg. Pixels exist only here,
//! derived from a physical size and a resolution.

use resvg::tiny_skia::{Pixmap, Transform};

use crate::length::Length;
use crate::model::Shape;

/// Beyond this many pixels an image is a mistake (a 400 mm card at 1200 dpi), not a preview.
const MAX_PIXELS: u64 = 64 * 1024 * 1024;

/// Pixel size of a `width` × `height` piece drawn at `dpi` pixels per inch.
pub fn pixel_size(width: Length, height: Length, dpi: u32) -> Result<(u32, u32), String> {
    let px = |l: Length| (l.to_pt() / 72.0 * dpi as f32).round().max(1.0) as u32;
    let (w, h) = (px(width), px(height));
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(format!(
            "a {width} × {height} card at {dpi} dpi would be {w} × {h} pixels; use a lower --dpi"
        ));
    }
    Ok((w, h))
}

/// Draws the piece of `tree` scaled to exactly `width` × `height` pixels, on a transparent
/// background. A card's tree reaches past the piece by its bleed on every side (the
/// canvas is the piece plus the bleed): only the piece as cut is drawn.
pub fn draw(
    tree: &usvg::Tree,
    piece: (Length, Length),
    width: u32,
    height: u32,
) -> Result<Pixmap, String> {
    draw_with_bleed(tree, piece, Length::ZERO, width, height)
}

/// Like `draw`, with `bleed` of the art shown around the piece (print-service PNGs): the
/// picture is the piece grown by `bleed` on every side.
pub fn draw_with_bleed(
    tree: &usvg::Tree,
    piece: (Length, Length),
    bleed: Length,
    width: u32,
    height: u32,
) -> Result<Pixmap, String> {
    let mut pixmap = blank(width, height)?;
    let (own_x, own_y) = own_bleed(tree, piece);
    let (show_x, show_y) = (bleed.to_mm().min(own_x), bleed.to_mm().min(own_y));
    let view_w = (piece.0.to_mm() + 2.0 * show_x) * UNITS_PER_MM;
    let view_h = (piece.1.to_mm() + 2.0 * show_y) * UNITS_PER_MM;
    let transform = Transform::from_scale(width as f32 / view_w, height as f32 / view_h)
        .pre_translate(-(own_x - show_x) * UNITS_PER_MM, -(own_y - show_y) * UNITS_PER_MM);
    resvg::render(tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// usvg measures a canvas in CSS pixels, 96 per inch.
const UNITS_PER_MM: f32 = 96.0 / 25.4;

fn blank(width: u32, height: u32) -> Result<Pixmap, String> {
    Pixmap::new(width, height).ok_or_else(|| format!("cannot make a {width} × {height} image"))
}

/// The art's own bleed in millimetres, each way: what its canvas has beyond the piece.
fn own_bleed(tree: &usvg::Tree, piece: (Length, Length)) -> (f32, f32) {
    let size = tree.size();
    let own = |canvas: f32, piece: Length| ((canvas / UNITS_PER_MM - piece.to_mm()) / 2.0).max(0.0);
    (own(size.width(), piece.0), own(size.height(), piece.1))
}

/// A piece made a print service's product (`--fit`): the product's card and bleed, the
/// art scaled by `fit.scale` and centred on it, at `width` × `height` pixels.
pub fn draw_fitted(
    tree: &usvg::Tree,
    piece: (Length, Length),
    fit: crate::layout::Fitting,
    width: u32,
    height: u32,
) -> Result<Pixmap, String> {
    let mut pixmap = blank(width, height)?;
    let (own_x, own_y) = own_bleed(tree, piece);
    // The page in the art's millimetres, centred on the piece.
    let view = |trim: Length| (trim + fit.bleed * 2.0).to_mm() / fit.scale;
    let (view_w, view_h) = (view(fit.trim.0), view(fit.trim.1));
    let (left, top) = ((piece.0.to_mm() - view_w) / 2.0, (piece.1.to_mm() - view_h) / 2.0);
    let transform = Transform::from_scale(
        width as f32 / (view_w * UNITS_PER_MM),
        height as f32 / (view_h * UNITS_PER_MM),
    )
    .pre_translate(-(own_x + left) * UNITS_PER_MM, -(own_y + top) * UNITS_PER_MM);
    resvg::render(tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// The piece with all of its bleed and, over it, the lines a designer lays art out by:
/// the cut (red), and the safe zone `safe` inside it (blue), for `preview --guides`.
/// The picture is the piece plus its bleed at `dpi`.
pub fn draw_guides(
    tree: &usvg::Tree,
    piece: (Length, Length),
    shape: Shape,
    corner: Length,
    safe: Length,
    dpi: u32,
) -> Result<Pixmap, String> {
    let size = tree.size();
    let own = Length::mm(((size.width() * 25.4 / 96.0) - piece.0.to_mm()).max(0.0) / 2.0);
    let (w, h) = pixel_size(piece.0 + own * 2.0, piece.1 + own * 2.0, dpi)?;
    let mut pixmap = draw_with_bleed(tree, piece, own, w, h)?;
    let line = |pixmap: &mut Pixmap, inset: Length, rgb: (u8, u8, u8), dash: bool| {
        // The picture is `w` pixels across the piece and its bleed.
        let (pw, ph) = (piece.0 + own * 2.0, piece.1 + own * 2.0);
        let rect =
            crate::layout::Rect { x: inset, y: inset, w: pw - inset * 2.0, h: ph - inset * 2.0 };
        // The safe zone keeps the outline's shape, its corners rounded as much as the cut's.
        let Some(path) = outline(shape, corner, rect, w as f32 / pw.to_mm()) else { return };
        let mut paint = resvg::tiny_skia::Paint::default();
        paint.set_color_rgba8(rgb.0, rgb.1, rgb.2, 255);
        let mut stroke =
            resvg::tiny_skia::Stroke { width: (dpi as f32 / 150.0).max(1.0), ..Default::default() };
        if dash {
            stroke.dash = resvg::tiny_skia::StrokeDash::new(vec![6.0, 4.0], 0.0);
        }
        pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
    };
    line(&mut pixmap, own, (220, 0, 0), false);
    line(&mut pixmap, own + safe, (0, 90, 220), true);
    Ok(pixmap)
}

/// The outline of a piece of `shape` (with rounded `corner`s, for rect pieces) filling
/// `rect` (millimetres) of a picture drawn at `px_per_mm`: where it is cut.
pub fn outline(
    shape: Shape,
    corner: Length,
    rect: crate::layout::Rect,
    px_per_mm: f32,
) -> Option<resvg::tiny_skia::Path> {
    use crate::layout::PathStep;
    let mut b = resvg::tiny_skia::PathBuilder::new();
    for step in
        crate::layout::Outline::of(shape, corner, rect).path(px_per_mm / crate::length::PT_PER_MM)
    {
        match step {
            PathStep::Move(x, y) => b.move_to(x, y),
            PathStep::Line(x, y) => b.line_to(x, y),
            PathStep::Cubic(x1, y1, x2, y2, x, y) => b.cubic_to(x1, y1, x2, y2, x, y),
            PathStep::Close => b.close(),
        }
    }
    b.finish()
}

/// Clears what lies outside the piece's outline (a round token's or a rounded card's
/// corners, the corners of a hex tile's box): a preview shows the piece as cut.
pub fn mask_to(pixmap: &mut Pixmap, shape: Shape, corner: Length, piece: (Length, Length)) {
    if shape == Shape::Rect && corner == Length::ZERO {
        return;
    }
    let whole = crate::layout::Rect { x: Length::ZERO, y: Length::ZERO, w: piece.0, h: piece.1 };
    let Some(path) = outline(shape, corner, whole, pixmap.width() as f32 / piece.0.to_mm()) else {
        return;
    };
    let Some(mut mask) = resvg::tiny_skia::Mask::new(pixmap.width(), pixmap.height()) else {
        return;
    };
    mask.fill_path(&path, resvg::tiny_skia::FillRule::Winding, true, Transform::identity());
    pixmap.apply_mask(&mask);
}

pub fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, String> {
    pixmap.encode_png().map_err(|e| format!("cannot encode a PNG: {e}"))
}

/// PNG bytes for the screen, fast: previews are drawn anew on every save of `watch`, and
/// deflating them at zlib's default level was a third of a preview's time; level 2 takes
/// a fraction of it for files somewhat larger.
///
/// Takes the picture: its pixels are made straight where they lie (a copy of each
/// picture, with the pages the kernel zeroes for it, was a sixth of a preview's time).
pub fn encode_fast(pixmap: Pixmap) -> Result<Vec<u8>, String> {
    let (width, height) = (pixmap.width(), pixmap.height());
    let mut rgba = pixmap.take();
    pixels::make_straight(&mut rgba);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    // Each row against the one above: cards are drawn in bands of colour. png's adaptive
    // choice tried all five filters on every row, an eighth of a preview's time, for
    // files 1 % smaller.
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().map_err(|e| format!("cannot encode a PNG: {e}"))?;
    writer.write_image_data(&rgba).map_err(|e| format!("cannot encode a PNG: {e}"))?;
    writer.finish().map_err(|e| format!("cannot encode a PNG: {e}"))?;
    Ok(out)
}

/// Parses an SVG we generate ourselves (contact sheet labels) against the bundled fonts.
pub fn own_svg(svg: &str) -> Result<usvg::Tree, String> {
    let options = usvg::Options {
        font_family: crate::fonts::DEFAULT_FAMILY.to_string(),
        fontdb: crate::fonts::bundled(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| format!("internal SVG is invalid: {e}"))
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
        let tree = own_svg(r##"<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="20mm" viewBox="0 0 10 20"><rect width="10" height="20" fill="#ff0000"/></svg>"##).unwrap();
        let pixmap = draw(&tree, (Length::mm(10.0), Length::mm(20.0)), 30, 60).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (30, 60));
        let p = pixmap.pixel(15, 30).unwrap();
        assert_eq!((p.red(), p.green(), p.blue(), p.alpha()), (255, 0, 0, 255));
        assert_eq!(&encode(&pixmap).unwrap()[1..4], b"PNG");
    }

    #[test]
    fn a_cards_bleed_is_cropped_or_shown_as_asked() {
        // A 10 × 20 mm piece on a canvas with 2 mm of bleed: blue bleed, red piece.
        let tree = own_svg(r##"<svg xmlns="http://www.w3.org/2000/svg" width="14mm" height="24mm" viewBox="-2 -2 14 24"><rect x="-2" y="-2" width="14" height="24" fill="#0000ff"/><rect width="10" height="20" fill="#ff0000"/></svg>"##).unwrap();
        let piece = (Length::mm(10.0), Length::mm(20.0));
        let cropped = draw(&tree, piece, 100, 200).unwrap();
        let corner = cropped.pixel(1, 1).unwrap();
        assert_eq!((corner.red(), corner.blue()), (255, 0), "the piece alone");
        let shown = draw_with_bleed(&tree, piece, Length::mm(2.0), 140, 240).unwrap();
        let (edge, inside) = (shown.pixel(1, 1).unwrap(), shown.pixel(25, 25).unwrap());
        assert_eq!(
            (edge.red(), edge.blue(), inside.red()),
            (0, 255, 255),
            "bleed around the piece"
        );
    }
}
