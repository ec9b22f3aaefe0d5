//! How much of the components' pages takes ink, in each variant (full colour and the ink
//! saver), and how much ink, for the print guide. Measured, not guessed: the pieces are
//! drawn as templates fill them for each variant, rasterised at a low resolution and
//! their pixels counted on the pages they print on: those that take any ink (not paper
//! white, as Ghostscript's `inkcov` counts them), and the ink each lays down.
//! Input: the catalogue and the bundle's parts; output: shares of the pages.

use resvg::tiny_skia::{Pixmap, Transform};

use super::cover::{Part, Source};
use crate::layout::Paper;
use crate::length::Length;
use crate::model::{Catalogue, PrintVariant};

/// The resolution the pieces are measured at: what a coverage of a few per cent needs.
const DPI: f32 = 40.0;
/// A deck's rows drawn to measure it, spread over the deck: its designs vary little
/// beyond that, and a 10,000-card deck costs no more than a small one.
const SAMPLE_ROWS: usize = 10;
/// usvg measures in CSS pixels, 96 to the inch.
const UNITS_PER_MM: f32 = 96.0 / 25.4;

/// The inked share of the measured pages, for the full-colour and the ink-saver variant,
/// and those pages' count; `None` when no part could be measured (the game has no deck
/// of cards and no sheet in the bundle).
pub struct Coverage {
    /// The share of the pages any ink touches, in each variant: an area, not an amount.
    pub full: f32,
    pub saver: f32,
    /// The ink each variant lays down, as a share of the same pages printed solid black
    /// (each pixel's C+M+Y without black generation, over 3): less ink, a smaller figure.
    pub full_ink: f32,
    pub saver_ink: f32,
    pub pages: usize,
}

/// What a piece or a part prints: the mm² any ink touches, and the ink laid down, in mm²
/// of one ink at full strength (C+M+Y+K; a sheet of solid black takes about three).
#[derive(Debug, Clone, Copy, Default)]
struct Measure {
    touched: f32,
    ink: f32,
}

impl std::ops::Add for Measure {
    type Output = Measure;
    fn add(self, o: Measure) -> Measure {
        Measure { touched: self.touched + o.touched, ink: self.ink + o.ink }
    }
}

impl Measure {
    fn scaled(self, by: f32) -> Measure {
        Measure { touched: self.touched * by, ink: self.ink * by }
    }
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
    let inked = |ink_saver: bool| -> Option<Measure> {
        let areas = inked_areas(cat, lang, paper, PrintVariant { ink_saver, cmyk: false })?;
        let sum = measured
            .iter()
            .filter_map(|p| match p.source? {
                Source::Deck(d) => areas.decks.get(d).copied(),
                Source::Sheet(s) => areas.sheets.get(s).copied(),
            })
            .fold(Measure::default(), |a, b| a + b);
        Some(sum)
    };
    // The two variants are drawn side by side: the bundle waits on the slower.
    let (full, saver) = std::thread::scope(|scope| {
        let saver = scope.spawn(|| inked(true));
        (inked(false), saver.join())
    });
    // A variant whose pieces cannot all be drawn is not measured: none is stated.
    let (full, saver) = (full?, saver.ok()??);
    let share = |m: Measure| (m.touched / page_area).clamp(0.0, 1.0);
    // Solid black is 3 of `Measure::ink` a mm².
    let ink = |m: Measure| (m.ink / 3.0 / page_area).clamp(0.0, 1.0);
    let pages = measured.iter().map(|p| p.component.pages).sum();
    Some(Coverage {
        full: share(full),
        saver: share(saver),
        full_ink: ink(full),
        saver_ink: ink(saver),
        pages,
    })
}

/// What each deck (every card, face and back, as cut) and each sheet prints, in one
/// variant.
struct Areas {
    decks: Vec<Measure>,
    sheets: Vec<Measure>,
}

/// `None` when a piece cannot be drawn in `variant` (a template that fails under
/// `print.ink_saver`): its ink would be counted as none.
fn inked_areas(
    cat: &Catalogue,
    lang: Option<&str>,
    paper: Paper,
    variant: PrintVariant,
) -> Option<Areas> {
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
    if drawn.problems.iter().any(crate::diag::Diagnostic::is_error) {
        return None;
    }
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
                let (mut sum, mut weights) = (Measure::default(), 0.0);
                for (row, piece) in sides {
                    let w = if shared { 1.0 } else { weight(*row) };
                    if let Some(tree) = &piece.tree {
                        sum = sum + inked_card(tree, (deck.width, deck.height)).scaled(w);
                        weights += w;
                    }
                }
                if weights > 0.0 {
                    sum.scaled(1.0 / weights)
                } else {
                    Measure::default()
                }
            };
            (mean(&pieces.faces, false) + mean(&pieces.backs, pieces.backs.len() == 1))
                .scaled(cards)
        })
        .collect();
    let sheets = drawn
        .sheets
        .iter()
        .map(|p| p.tree.as_deref().map_or(Measure::default(), inked_sheet))
        .collect();
    Some(Areas { decks, sheets })
}

/// Up to `SAMPLE_ROWS` row indices spread over `rows` by the golden ratio: rows come in
/// periods (13 ranks a suit), which an even stride would sample in step, every one a 2.
fn sample(rows: usize) -> Vec<usize> {
    let golden = 0.618_034_f64;
    let mut picked: Vec<usize> = (0..rows.min(SAMPLE_ROWS))
        .map(|i| ((i as f64 * golden).fract() * rows as f64) as usize)
        .collect();
    picked.sort_unstable();
    picked.dedup();
    picked
}

/// The square millimetres of a card that take ink, as cut: on a sheet the cards meet at
/// their cuts, so a card's bleed is under its neighbour's (only the sheet's outer ring of
/// bleed is left out of the count: a few per cent of a card's).
fn inked_card(tree: &usvg::Tree, piece: (Length, Length)) -> Measure {
    let px = |l: Length| (l.to_mm() / 25.4 * DPI).ceil().max(1.0) as u32;
    match crate::export::raster::draw(tree, piece, px(piece.0), px(piece.1)) {
        Ok(pixmap) => inked_share(&pixmap).scaled(piece.0.to_mm() * piece.1.to_mm()),
        Err(_) => Measure::default(),
    }
}

/// The square millimetres of `tree` (a sheet: its whole canvas) that take ink.
fn inked_sheet(tree: &usvg::Tree) -> Measure {
    let size = tree.size();
    let scale = DPI / 96.0;
    let (w, h) = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
    let Some(mut pixmap) = Pixmap::new(w.max(1), h.max(1)) else { return Measure::default() };
    resvg::render(tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let area = size.width() * size.height() / (UNITS_PER_MM * UNITS_PER_MM);
    inked_share(&pixmap).scaled(area)
}

/// The share of `pixmap`'s pixels that take ink printed on white paper: any that is not
/// white, however light (Ghostscript's `inkcov` counts a pixel with any ink); and the ink
/// they lay down, each pixel's C+M+Y without black generation (1 − R, 1 − G, 1 − B),
/// whose sum a printer's profile keeps near enough (solid black about 3).
fn inked_share(pixmap: &Pixmap) -> Measure {
    let pixels = pixmap.pixels();
    let mut m = Measure::default();
    for p in pixels {
        // Premultiplied: over white paper, each channel plus what shows of the paper.
        let paper = 255 - p.alpha() as u16;
        let rgb = [p.red(), p.green(), p.blue()].map(|c| (c as u16 + paper).min(255));
        if rgb.iter().any(|&c| c < 255) {
            m.touched += 1.0;
            m.ink += rgb.iter().map(|&c| (255 - c) as f32 / 255.0).sum::<f32>();
        }
    }
    m.scaled(1.0 / pixels.len().max(1) as f32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_sample_of_a_deck_in_suits_of_13_meets_many_ranks() {
        let picked = super::sample(3 * 52 + 2);
        assert_eq!(picked.len(), super::SAMPLE_ROWS);
        let ranks: std::collections::BTreeSet<usize> = picked.iter().map(|r| r % 13).collect();
        assert!(ranks.len() >= 8, "{picked:?} meets the ranks {ranks:?}");
        assert_eq!(super::sample(5), [0, 1, 2, 3, 4]);
    }
}
