//! Stage `export` (print services): a deck → the files a print shop asks for, one card
//! side at a time, each the card plus its bleed: a PDF with one page per side (TrimBox on
//! the card, BleedBox on the page), or one PNG per side at 300 dpi with its resolution
//! and sRGB written in the file.

use crate::layout::{single, single_fitted, ArtRef, Fitting, Sheet};
use crate::length::Length;
use crate::model::ArtSource;
use crate::model::Deck;

/// One page per card side: front then back, or with `back_first` back then front
/// (DriveThruCards' order); made the service's product when `fit` says how.
pub fn pages(deck: &Deck, d: usize, back_first: bool, fit: Option<Fitting>) -> Vec<Sheet> {
    let card = (deck.width, deck.height);
    let page = |art| match fit {
        Some(fit) => single_fitted(art, card, deck.bleed, fit),
        None => single(art, card, deck.bleed),
    };
    crate::layout::physical_cards(deck, d)
        .flat_map(|(face, back)| {
            let (first, second) = if back_first { (back, face) } else { (face, back) };
            [page(first), page(second)]
        })
        .collect()
}

/// Designs drawn and encoded at a time: their trees, then their pictures.
const BATCH: usize = 64;

/// The art references of the PNG set's designs in rows `rows`: faces, and per-card backs.
fn design_refs(deck: &Deck, d: usize, rows: std::ops::Range<usize>) -> Vec<ArtRef> {
    rows.flat_map(|row| [ArtRef::Face { deck: d, row }, ArtRef::Back { deck: d, row }])
        .filter(|r| deck.back_per_card || matches!(r, ArtRef::Face { .. }))
        .collect()
}

/// The pixel size of a deck's PNGs: the card (or the product it is made) and its bleed
/// at `dpi`.
fn png_size(deck: &Deck, dpi: u32, fit: Option<Fitting>) -> Result<(u32, u32), String> {
    let (card, bleed) = match fit {
        Some(fit) => (fit.trim, fit.bleed),
        None => ((deck.width, deck.height), deck.bleed),
    };
    let px = |l: Length| ((l + bleed * 2.0).to_pt() / 72.0 * dpi as f32).round() as u32;
    let (w, h) = (px(card.0), px(card.1));
    // What a picture can hold (tiny-skia's bound: four bytes a pixel, rows within i32).
    if w == 0 || h == 0 || u64::from(w) * u64::from(h) * 4 > i32::MAX as u64 {
        return Err(format!("a {} × {} card with its bleed at {dpi} dpi is {w} × {h} pixels, which no picture can hold", deck.width, deck.height));
    }
    Ok((w, h))
}

/// The start of a card's PNG names: its place in the deck and its id made a safe file
/// name, the same for `validate` and `build`.
fn png_stem(row: usize, id: &str) -> String {
    format!("{:03}-{}", row + 1, crate::output::slug(id))
}

/// What `png_set` draws, drawn and checked but not rasterised (`validate`); returns the
/// names it would write, for the same checks as the files `build` writes.
pub fn check_png_set(
    deck: &Deck,
    d: usize,
    dpi: u32,
    fit: Option<Fitting>,
    art: &mut dyn ArtSource,
) -> Result<Vec<String>, String> {
    png_size(deck, dpi, fit)?;
    let mut names: Vec<String> = (0..deck.rows.len())
        .map(|row| format!("{}-front.png", png_stem(row, &deck.rows[row].id)))
        .collect();
    names.push("quantities.csv".to_string());
    if !deck.back_per_card {
        art.prepare(&[ArtRef::Back { deck: d, row: 0 }]);
        art.release();
    }
    for start in (0..deck.rows.len()).step_by(BATCH) {
        art.prepare(&design_refs(deck, d, start..(start + BATCH).min(deck.rows.len())));
        art.release();
    }
    Ok(names)
}

/// One PNG per card design and side (`NNN-id-front.png`, `-back.png`, the back once when
/// shared), and a `quantities.csv` saying how many of each to print: what The Game
/// Crafter and MakePlayingCards take. Returns (relative file name, bytes).
pub fn png_set(
    deck: &Deck,
    d: usize,
    dpi: u32,
    fit: Option<Fitting>,
    art: &mut dyn ArtSource,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let card = (deck.width, deck.height);
    let (w, h) = png_size(deck, dpi, fit)?;
    // A piece that could not be drawn is reported by the art source, and nothing is
    // written then: an empty picture stands in for it.
    let draw = |art: &dyn ArtSource, art_ref: ArtRef| -> Result<Vec<u8>, String> {
        let Some(tree) = art.tree(art_ref) else { return Ok(Vec::new()) };
        let pixmap = match fit {
            Some(fit) => super::raster::draw_fitted(tree, card, fit, w, h)?,
            None => super::raster::draw_with_bleed(tree, card, deck.bleed, w, h)?,
        };
        encode_print(&pixmap, dpi)
    };
    let mut files = Vec::new();
    let mut quantities = String::from("front,back,qty\n");
    let shared_back = (!deck.back_per_card).then(|| "back.png".to_string());
    if shared_back.is_some() {
        let back = ArtRef::Back { deck: d, row: 0 };
        art.prepare(&[back]);
        files.push(("back.png".to_string(), draw(art, back)?));
        art.release();
    }
    for start in (0..deck.rows.len()).step_by(BATCH) {
        let rows = start..(start + BATCH).min(deck.rows.len());
        art.prepare(&design_refs(deck, d, rows.clone()));
        for row in rows {
            let r = &deck.rows[row];
            let stem = png_stem(row, &r.id);
            files.push((format!("{stem}-front.png"), draw(art, ArtRef::Face { deck: d, row })?));
            let back = match &shared_back {
                Some(name) => name.clone(),
                None => {
                    let name = format!("{stem}-back.png");
                    files.push((name.clone(), draw(art, ArtRef::Back { deck: d, row })?));
                    name
                }
            };
            quantities.push_str(&format!("{stem}-front.png,{back},{}\n", r.qty));
        }
        art.release();
    }
    files.push(("quantities.csv".to_string(), quantities.into_bytes()));
    Ok(files)
}

/// PNG bytes with the print resolution (pHYs) and sRGB declared, opaque pixels as RGB.
pub fn encode_print(pixmap: &resvg::tiny_skia::Pixmap, dpi: u32) -> Result<Vec<u8>, String> {
    let rgba = crate::images::straight_rgba(pixmap);
    let opaque = pixels::is_opaque(&rgba);
    let data = if opaque { pixels::rgb(&rgba) } else { rgba };
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(if opaque { png::ColorType::Rgb } else { png::ColorType::Rgba });
    encoder.set_depth(png::BitDepth::Eight);
    let per_metre = (dpi as f64 / 0.0254).round() as u32;
    encoder.set_pixel_dims(Some(png::PixelDimensions {
        xppu: per_metre,
        yppu: per_metre,
        unit: png::Unit::Meter,
    }));
    encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    let mut writer = encoder.write_header().map_err(|e| format!("cannot write a PNG: {e}"))?;
    writer.write_image_data(&data).map_err(|e| format!("cannot write a PNG: {e}"))?;
    writer.finish().map_err(|e| format!("cannot write a PNG: {e}"))?;
    Ok(out)
}
