//! Layout of a label sheet: each label's art where the product's template puts it, row
//! by row, as many pages of the product's paper as the labels need; each label's art
//! clipped to its die-cut outline, no crop marks (the sheet is cut already), and the
//! outlines kept for a cut file.

use super::{ArtRef, Outline, Placed, Rect, Sheet};
use crate::labels::Layout;
use crate::length::Length;
use crate::model::Shape;

/// The pages of `faces` (one per label, in order) on sheets of `layout`.
pub fn pages(faces: &[ArtRef], layout: &Layout, shape: Shape, corner: Length) -> Vec<Sheet> {
    let (_, paper_w, paper_h) = layout.paper;
    faces
        .chunks(layout.per_page().max(1))
        .map(|page| {
            let mut sheet = Sheet::blank(paper_w, paper_h);
            for (i, &art) in page.iter().enumerate() {
                let (column, row) = (i as u32 % layout.columns, i as u32 / layout.columns);
                let (x, y) = layout.corner(column, row);
                let rect = Rect { x, y, w: layout.label.0, h: layout.label.1 };
                let outline = Outline::of(shape, corner, rect);
                sheet.items.push(Placed {
                    art,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_fill_rows_first_and_overflow_onto_a_new_page() {
        let layout = crate::labels::find("avery-l7163").unwrap().layout;
        let faces: Vec<ArtRef> = (0..15).map(|row| ArtRef::Face { deck: 0, row }).collect();
        let pages = pages(&faces, &layout, Shape::Rect, Length::ZERO);
        assert_eq!(pages.len(), 2, "14 a sheet");
        assert_eq!(pages[0].items.len(), 14);
        assert_eq!(pages[1].items.len(), 1);
        let second = pages[0].items[1].rect;
        assert!((second.x.to_mm() - (4.65 + 101.6)).abs() < 0.01);
        assert!((second.y.to_mm() - 15.15).abs() < 0.01);
        assert!((pages[0].items[2].rect.y.to_mm() - (15.15 + 38.1)).abs() < 0.01);
    }
}
