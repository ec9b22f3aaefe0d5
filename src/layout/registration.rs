//! Registration marks for print-then-cut machines (Silhouette's "type 1" layout): a filled
//! square in the top-left corner and L-shaped marks in the top-right and bottom-left
//! corners, a fixed inset from the paper's edge. The cutter's optical eye finds them on
//! the printed sheet and lines its cut file up with the print.

use super::Rect;
use crate::length::Length;

/// From the paper's edge to each mark's outer edge: Silhouette Studio's smallest inset,
/// 10 mm, a hard limit of the software (silhouette-card-maker's documentation, "Borderless
/// Templates"): marks nearer the edge cannot be set up in Studio to match.
pub const INSET_MM: f32 = 10.0;
/// Side of the filled square.
pub const SQUARE_MM: f32 = 5.0;
/// Length of each arm of the L marks, from their outer corner.
pub const ARM_MM: f32 = 20.0;
/// Thickness of the L marks' arms.
pub const LINE_MM: f32 = 0.5;
/// Blank paper kept between the marks and any art, so the eye sees only the marks.
pub const CLEAR_MM: f32 = 1.5;

/// Where text under the art may start, from the left edge, clear of the bottom-left mark.
pub const SLUG_FROM_MM: f32 = INSET_MM + ARM_MM + CLEAR_MM;

/// How close art may come to each edge of a sheet with registration marks.
pub const fn art_margin_mm() -> f32 {
    INSET_MM + LINE_MM + CLEAR_MM
}

/// The filled rectangles that make the marks on a `width` × `height` page: the square,
/// then the arms of the top-right L, then of the bottom-left L. The square's edges lie on
/// the inset; each L is a line `LINE_MM` wide centred on it, as Studio draws its own (its
/// stroke straddles the inset line: an L whose outer edge lay on it was `LINE_MM / 2`
/// inside Studio's), its arms `ARM_MM` from the corner where the centre lines meet.
pub fn marks(width: Length, height: Length) -> Vec<Rect> {
    let (w, h) = (width.to_mm(), height.to_mm());
    let r = |x: f32, y: f32, rw: f32, rh: f32| Rect {
        x: Length::mm(x),
        y: Length::mm(y),
        w: Length::mm(rw),
        h: Length::mm(rh),
    };
    let (i, a, t) = (INSET_MM, ARM_MM, LINE_MM);
    let half = t / 2.0;
    vec![
        r(i, i, SQUARE_MM, SQUARE_MM),
        r(w - i - a, i - half, a + half, t),
        r(w - i - half, i - half, t, a + half),
        r(i - half, h - i - half, a + half, t),
        r(i - half, h - i - a, t, a + half),
    ]
}

/// Whether art covering `art` stays clear of every mark (and the blank around them).
pub fn clear(art: &Rect, width: Length, height: Length) -> bool {
    marks(width, height).iter().all(|m| {
        let m = m.grown(Length::mm(CLEAR_MM));
        let apart = |a0: f32, a1: f32, b0: f32, b1: f32| a1 <= b0 || b1 <= a0;
        apart(art.x.to_mm(), (art.x + art.w).to_mm(), m.x.to_mm(), (m.x + m.w).to_mm())
            || apart(art.y.to_mm(), (art.y + art.h).to_mm(), m.y.to_mm(), (m.y + m.h).to_mm())
    })
}
