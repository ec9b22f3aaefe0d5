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
/// A picture of at most 256 colours (drawn art nearly always: a card of flat shapes and
/// text has a few dozen) is written with a palette, a byte a pixel: a quarter of the bytes
/// to deflate, and files about half as large, the same pixels once decoded. Others are
/// RGBA, their pixels made straight where they lie (a copy of each picture, with the
/// pages the kernel zeroes for it, was a sixth of a preview's time).
pub fn encode_fast(pixmap: Pixmap) -> Result<Vec<u8>, String> {
    let (width, height) = (pixmap.width(), pixmap.height());
    if let Some((colours, indices)) = pixels::indexed(pixmap.data()) {
        return encode_indexed(width, height, &colours, &indices);
    }
    let mut rgba = pixmap.take();
    pixels::make_straight(&mut rgba);
    // Each row against the one above: cards are drawn in bands of colour. png's adaptive
    // choice tried all five filters on every row, an eighth of a preview's time, for
    // files 1 % smaller.
    encode_with(width, height, &rgba, png::Filter::Up, |encoder| {
        encoder.set_color(png::ColorType::Rgba);
    })
}

/// A palette picture: `colours` premultiplied, `indices` a byte a pixel.
fn encode_indexed(
    width: u32,
    height: u32,
    colours: &[[u8; 4]],
    indices: &[u8],
) -> Result<Vec<u8>, String> {
    let straight: Vec<[u8; 4]> = colours.iter().map(|&c| pixels::demultiply(c)).collect();
    let palette: Vec<u8> = straight.iter().flat_map(|c| [c[0], c[1], c[2]]).collect();
    // Alphas up to the last colour that is not opaque; the others are opaque.
    let translucent = straight.iter().rposition(|c| c[3] != 255).map_or(0, |last| last + 1);
    let alphas: Vec<u8> = straight[..translucent].iter().map(|c| c[3]).collect();
    // Unfiltered: a row of indices against the one above deflated no faster and larger.
    encode_with(width, height, indices, png::Filter::NoFilter, |encoder| {
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_palette(palette);
        if !alphas.is_empty() {
            encoder.set_trns(alphas);
        }
    })
}

/// 8-bit PNG bytes of `data` deflated at level 2, `colour` setting its colour type.
fn encode_with<'a>(
    width: u32,
    height: u32,
    data: &[u8],
    filter: png::Filter,
    colour: impl FnOnce(&mut png::Encoder<'a, &mut Vec<u8>>),
) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        colour(&mut encoder);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_deflate_compression(png::DeflateCompression::Level(2));
        encoder.set_filter(filter);
        let mut writer = encoder.write_header().map_err(|e| format!("cannot encode a PNG: {e}"))?;
        writer.write_image_data(data).map_err(|e| format!("cannot encode a PNG: {e}"))?;
        writer.finish().map_err(|e| format!("cannot encode a PNG: {e}"))?;
    }
    Ok(out)
}

/// Parses an SVG we generate ourselves (contact sheet labels) against the bundled fonts.
pub fn own_svg(svg: &str) -> Result<usvg::Tree, String> {
    let options = crate::svg::sealed(crate::fonts::bundled());
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

    /// A PNG's colour type and its pixels as straight RGBA.
    fn decoded(bytes: &[u8]) -> (png::ColorType, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let kind = reader.info().color_type;
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba, "every preview keeps its alpha");
        pixels.truncate(info.buffer_size());
        (kind, pixels)
    }

    #[test]
    fn a_picture_of_few_colours_is_written_with_a_palette_and_the_same_pixels() {
        // A round token on clear paper: its soft edge is translucent.
        let tree = own_svg(r##"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"><rect width="30" height="20" fill="#fbf8f0"/><circle cx="12" cy="10" r="7" fill="#3f51b5" fill-opacity="0.5"/></svg>"##).unwrap();
        let mut token = draw(&tree, (Length::mm(8.0), Length::mm(5.0)), 60, 40).unwrap();
        mask_to(&mut token, Shape::Circle, Length::ZERO, (Length::mm(8.0), Length::mm(5.0)));
        // And one of more than 256 colours: a ramp.
        let mut ramp = Pixmap::new(300, 2).unwrap();
        for (i, p) in ramp.pixels_mut().iter_mut().enumerate() {
            let v = (i % 300) as u8;
            *p = resvg::tiny_skia::ColorU8::from_rgba(v, 255 - v, (i % 300 / 256) as u8, 255)
                .premultiply();
        }
        for (pixmap, kind) in [(token, png::ColorType::Indexed), (ramp, png::ColorType::Rgba)] {
            let expected = decoded(&encode(&pixmap).unwrap()).1;
            let (written_as, pixels) = decoded(&encode_fast(pixmap).unwrap());
            assert_eq!(written_as, kind);
            assert!(pixels == expected, "the same pixels once decoded");
        }
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
