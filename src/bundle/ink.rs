//! How much of the components' pages takes ink, in each variant (full colour and the ink
//! saver), for the print guide. Measured, not guessed: the pieces are drawn as templates
//! fill them for each variant, rasterised at a low resolution and their inked pixels
//! (any that is not paper white, as Ghostscript's `inkcov` counts them) put back on the
//! pages they print on. Input: the catalogue and the bundle's parts; output: fractions.

use resvg::tiny_skia::{Pixmap, Transform};

use super::pnp::{Part, Source};
use crate::layout::Paper;
use crate::length::Length;
use crate::model::{Catalogue, PrintVariant};

/// The resolution the pieces are measured at: what a coverage of a few per cent needs.
const DPI: f32 = 40.0;
/// A deck's rows drawn to measure it, spread over the deck: its designs vary little
/// beyond that, and a 10,000-card deck costs no more than a small one.
const SAMPLE_ROWS: usize = 12;
/// usvg measures in CSS pixels, 96 to the inch.
const UNITS_PER_MM: f32 = 96.0 / 25.4;

/// The inked share of the measured pages, for the full-colour and the ink-saver variant,
/// and those pages' count; `None` when no part could be measured (the game has no deck
/// of cards and no sheet in the bundle).
pub struct Coverage {
    pub full: f32,
    pub saver: f32,
    pub pages: usize,
}

/// Measures the decks of cards and the sheets among `parts` (stickers and boxes are left
/// out: their pages are few).
pub fn coverage(
    cat: &Catalogue,
    lang: Option<&str>,
    paper: Paper,
    parts: &[Part],
) -> Option<Coverage> {
    let measured: Vec<&Part> = parts.iter().filter(|p| p.source.is_some()).collect();
    let page_area: f32 = measured.iter().map(|p| p.page_area_mm2).sum();
    if page_area <= 0.0 {
        return None;
    }
    let inked = |ink_saver: bool| -> f32 {
        let areas = inked_areas(cat, lang, paper, PrintVariant { ink_saver });
        let sum: f32 = measured
            .iter()
            .filter_map(|p| match p.source? {
                Source::Deck(d) => areas.decks.get(d).copied(),
                Source::Sheet(s) => areas.sheets.get(s).copied(),
            })
            .sum();
        (sum / page_area).clamp(0.0, 1.0)
    };
    let pages = measured.iter().map(|p| p.component.pages).sum();
    Some(Coverage { full: inked(false), saver: inked(true), pages })
}

/// Inked square millimetres of each deck (every card, face and back, with its bleed)
/// and of each sheet, in one variant.
struct Areas {
    decks: Vec<f32>,
    sheets: Vec<f32>,
}

fn inked_areas(cat: &Catalogue, lang: Option<&str>, paper: Paper, variant: PrintVariant) -> Areas {
    let rows: Vec<Vec<usize>> = cat.decks.iter().map(|d| sample(d.rows.len())).collect();
    let sizes: Vec<_> = cat.sheets.iter().map(|s| crate::plan::sheet_size(s.size, paper)).collect();
    let request = crate::render::Request {
        wanted: &|_, _| false,
        rows: Some(&rows),
        back_rows: None,
        shared_back: &|_| true,
        sheet_sizes: Some(&sizes),
        players: cat.players.map_or(1, |p| p.1.max(1)),
        lang,
        drawn_before: None,
    };
    let drawn = crate::render::Drawer::new(cat, lang, variant).pieces(&request);
    let decks = cat
        .decks
        .iter()
        .zip(&drawn.decks)
        .map(|(deck, pieces)| {
            let cards: f32 = deck.rows.iter().map(|r| r.qty as f32).sum();
            let weight = |row: usize| deck.rows.get(row).map_or(0.0, |r| r.qty as f32);
            // A shared back is one piece for every card; faces (and backs per card) are
            // weighed by their rows' quantities.
            let mean = |sides: &[(usize, crate::render::Piece)], shared: bool| {
                let (mut ink, mut weights) = (0.0, 0.0);
                for (row, piece) in sides {
                    let w = if shared { 1.0 } else { weight(*row) };
                    if let Some(tree) = &piece.tree {
                        ink += w * inked_card_mm2(tree, (deck.width, deck.height));
                        weights += w;
                    }
                }
                if weights > 0.0 {
                    ink / weights
                } else {
                    0.0
                }
            };
            cards * (mean(&pieces.faces, false) + mean(&pieces.backs, pieces.backs.len() == 1))
        })
        .collect();
    let sheets = drawn.sheets.iter().map(|p| p.tree.as_deref().map_or(0.0, inked_mm2)).collect();
    Areas { decks, sheets }
}

/// Up to `SAMPLE_ROWS` row indices spread evenly over `rows`.
fn sample(rows: usize) -> Vec<usize> {
    let n = rows.min(SAMPLE_ROWS);
    (0..n).map(|i| i * rows / n.max(1)).collect()
}

/// The square millimetres of a card that take ink, as cut: on a sheet the cards meet at
/// their cuts, so a card's bleed is under its neighbour's (only the sheet's outer ring of
/// bleed is left out of the count: a few per cent of a card's).
fn inked_card_mm2(tree: &usvg::Tree, piece: (Length, Length)) -> f32 {
    let px = |l: Length| (l.to_mm() / 25.4 * DPI).ceil().max(1.0) as u32;
    match crate::export::raster::draw(tree, piece, px(piece.0), px(piece.1)) {
        Ok(pixmap) => piece.0.to_mm() * piece.1.to_mm() * inked_share(&pixmap),
        Err(_) => 0.0,
    }
}

/// The square millimetres of `tree` (a sheet: its whole canvas) that take ink.
fn inked_mm2(tree: &usvg::Tree) -> f32 {
    let size = tree.size();
    let scale = DPI / 96.0;
    let (w, h) = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
    let Some(mut pixmap) = Pixmap::new(w.max(1), h.max(1)) else { return 0.0 };
    resvg::render(tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let area = size.width() * size.height() / (UNITS_PER_MM * UNITS_PER_MM);
    area * inked_share(&pixmap)
}

/// The share of `pixmap`'s pixels that take ink printed on white paper: any that is not
/// white, however light (Ghostscript's `inkcov` counts a pixel with any ink).
fn inked_share(pixmap: &Pixmap) -> f32 {
    let pixels = pixmap.pixels();
    // Premultiplied: over white paper a pixel is white only when each channel plus what
    // shows through of the paper is full.
    let inked = pixels
        .iter()
        .filter(|p| {
            let paper = 255 - p.alpha() as u16;
            [p.red(), p.green(), p.blue()].iter().any(|&c| (c as u16 + paper) < 255)
        })
        .count();
    inked as f32 / pixels.len().max(1) as f32
}
