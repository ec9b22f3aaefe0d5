//! A deck laid out on a sheet of labels: each physical piece on the next label of the
//! product's grid, as many sheets as it takes, art clipped to each label's die-cut
//! shape; no crop marks (the labels are cut already) and no backs.

use super::{ArtRef, Outline, Placed, Rect, Sheet};
use crate::length::Length;
use crate::model::LabelSheet;

/// The sheets of labels for `pieces` (their faces; labels have one side).
pub fn pages(pieces: &[(ArtRef, ArtRef)], labels: &LabelSheet) -> Vec<Sheet> {
    let per_page = (labels.columns * labels.rows) as usize;
    pieces
        .chunks(per_page.max(1))
        .map(|page| {
            let mut sheet = Sheet::blank(labels.paper.0, labels.paper.1);
            for (i, (face, _)) in page.iter().enumerate() {
                let (col, row) = ((i as u32) % labels.columns, (i as u32) / labels.columns);
                let rect = Rect {
                    x: labels.first.0 + labels.pitch.0 * col as f32,
                    y: labels.first.1 + labels.pitch.1 * row as f32,
                    w: labels.size.0,
                    h: labels.size.1,
                };
                let outline = outline(labels, rect);
                sheet.items.push(Placed {
                    art: *face,
                    rect,
                    rotated: false,
                    clip: Some(outline),
                    bleed: Length::ZERO,
                });
                sheet.cuts.push(outline);
            }
            sheet
        })
        .collect()
}

/// A label's die cut.
fn outline(labels: &LabelSheet, rect: Rect) -> Outline {
    match (labels.round, labels.corner > Length::ZERO) {
        (true, _) => Outline::Circle(rect),
        (false, true) => Outline::Rounded(rect, labels.corner),
        (false, false) => Outline::Rect(rect),
    }
}
