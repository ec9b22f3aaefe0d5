//! Piece-by-piece art for previews. The same filling (`render::fill`) and checked parsing
//! (`render::parse`) as the print path, so a preview is what prints; but for any loaded
//! catalogue, valid or not, keeping every piece that could be drawn, and keeping each
//! filled SVG beside its tree so `watch` can tell which pieces changed.

use crate::diag::Diagnostic;
use crate::length::Length;
use crate::model::{Catalogue, Deck, Row, Template};
use crate::render::fill::Filler;

/// One piece: its filled SVG and checked tree; `None` where that step failed (the problem
/// is in the diagnostics returned beside it).
pub struct Piece {
    pub svg: Option<String>,
    pub tree: Option<usvg::Tree>,
}

/// A deck's pieces, in row order. `None` for rows `wanted` left out.
pub struct DeckPieces {
    pub faces: Vec<Option<Piece>>,
    /// One back for the deck, or one per row when the deck fills backs per card.
    pub backs: Vec<Option<Piece>>,
}

/// Everything a preview draws, with every problem met on the way.
pub struct Pieces {
    pub decks: Vec<DeckPieces>,
    /// One per sheet component (board, score pad), filled for `sheet_sizes`.
    pub sheets: Vec<Piece>,
    pub problems: Vec<Diagnostic>,
}

/// Fills and parses the rows `wanted` asks for, every back, and (when `sheet_sizes` is
/// given, one size per sheet) the sheet components for `players` players.
pub fn render(cat: &Catalogue, wanted: &dyn Fn(&Deck, &Row) -> bool, sheet_sizes: Option<&[(Length, Length)]>, players: u32) -> Pieces {
    let fontdb = crate::fonts::database();
    let mut diags = Vec::new();
    let filler = Filler::new(cat, None, &mut diags);
    let mut decks = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate() {
        let expected = Some((deck.width, deck.height));
        let mut piece = |template: &Template, row: Option<&Row>, what: String| {
            let svg = filler.fill_card(d, template, row, &mut diags);
            let tree = svg.as_deref().and_then(|svg| crate::render::parse(svg, &template.file, &what, expected, &fontdb, &mut diags));
            Piece { svg, tree }
        };
        let faces = deck.rows.iter().map(|row| wanted(deck, row).then(|| piece(&deck.face, Some(row), format!("card `{}` of deck `{}`", row.id, deck.id)))).collect();
        let backs = if deck.back_per_card {
            deck.rows.iter().map(|row| wanted(deck, row).then(|| piece(&deck.back, Some(row), format!("the back of card `{}`", row.id)))).collect()
        } else {
            vec![Some(piece(&deck.back, None, format!("the back of deck `{}`", deck.id)))]
        };
        decks.push(DeckPieces { faces, backs });
    }
    let sheets = match sheet_sizes {
        Some(sizes) => cat
            .sheets
            .iter()
            .zip(sizes)
            .enumerate()
            .map(|(i, (sheet, &size))| {
                let svg = filler.fill_sheet(i, (size.0.to_mm(), size.1.to_mm()), players, &mut diags);
                let what = format!("sheet `{}`", sheet.id);
                let tree = svg.as_deref().and_then(|svg| crate::render::parse(svg, &sheet.template.file, &what, Some(size), &fontdb, &mut diags));
                Piece { svg, tree }
            })
            .collect(),
        None => Vec::new(),
    };
    diags.dedup();
    Pieces { decks, sheets, problems: diags }
}
