//! One piece on a page of its own: what print services ask for.

use super::{ArtRef, Outline, Placed, Rect, Sheet};
use crate::length::Length;

/// A deck's card made a print service's product (`--fit`): the page is the product's card
/// and the service's bleed; the art, scaled by `scale`, is centred on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitting {
    /// The product's cut card.
    pub trim: (Length, Length),
    /// How much the art is scaled (1 when its bleed is widened instead).
    pub scale: f32,
    /// The page's bleed: the service's.
    pub bleed: Length,
}

/// One card side on a page of its own, made a print service's product: `card` and its
/// art's `art_bleed` scaled and centred on the product's card.
pub fn single_fitted(
    art: ArtRef,
    card: (Length, Length),
    art_bleed: Length,
    fit: Fitting,
) -> Sheet {
    let (w, h) = (card.0 * fit.scale, card.1 * fit.scale);
    let trim = Rect { x: fit.bleed, y: fit.bleed, w: fit.trim.0, h: fit.trim.1 };
    let rect =
        Rect { x: fit.bleed + (fit.trim.0 - w) * 0.5, y: fit.bleed + (fit.trim.1 - h) * 0.5, w, h };
    Sheet {
        items: vec![Placed {
            art,
            rect,
            rotated: false,
            clip: Some(Outline::Rect(trim.grown(fit.bleed))),
            bleed: art_bleed * fit.scale,
        }],
        trim,
        bleed: fit.bleed,
        ..Sheet::blank(fit.trim.0 + fit.bleed * 2.0, fit.trim.1 + fit.bleed * 2.0)
    }
}

/// One card side on a page of its own, the page the card plus its bleed: what print
/// services ask for. The TrimBox is the card, the BleedBox the page; no marks.
pub fn single(art: ArtRef, card: (Length, Length), bleed: Length) -> Sheet {
    let rect = Rect { x: bleed, y: bleed, w: card.0, h: card.1 };
    Sheet {
        items: vec![Placed {
            art,
            rect,
            rotated: false,
            clip: Some(Outline::Rect(rect.grown(bleed))),
            bleed,
        }],
        trim: rect,
        bleed,
        ..Sheet::blank(card.0 + bleed * 2.0, card.1 + bleed * 2.0)
    }
}
