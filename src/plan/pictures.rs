//! Picture documents: the pages made of several pieces that `preview` shows beside the
//! cards (each label deck's first sheet, each box's flats), laid out by the same `layout`
//! code as the PDF and named from `services::PREVIEW`. The raster sink (`Sink::Raster`)
//! draws them as it draws any document's pages.
//!
//! The planner reads only the catalogue, not a `Validated` game: `preview` also pictures a
//! catalogue that breaks its rules, and only `validate` can make a `Validated` one, so the
//! executor (whose art is drawn from a `Validated` game) draws a valid game's pages and
//! `preview` draws the same planned pages of a rejected catalogue from what it could load.

use std::path::Path;

use super::{Body, Document, Draw, Drawing, Printing};
use crate::diag::Failure;
use crate::layout::{ArtRef, Sheet};
use crate::length::Length;
use crate::model::Catalogue;
use crate::output::Slugs;
use crate::services::{preview_name, PREVIEW};

/// One picture of a page, as the gallery shows it.
pub struct PagePicture {
    /// A deck's id (its labels), a box's, or `BOX-PART` for a box made in parts.
    pub id: String,
    /// Its caption: "Pawns (Avery L7160, first sheet)", "Tuck box (flat)".
    pub label: String,
    /// Where its PNG goes in the preview folder, with `/` separators.
    pub file: String,
    /// The page, laid out.
    pub sheet: Sheet,
    /// What its pieces are: box faces, or cards of a deck.
    pub of_box: bool,
}

impl PagePicture {
    /// The document the raster sink draws: the page, in `folder` (`GAME/preview…`).
    pub fn document(&self, folder: &Path) -> Document {
        Document {
            file: folder.join(&self.file),
            title: self.label.clone(),
            body: Body::Pdf(Box::new(OnePage { sheet: self.sheet.clone(), of_box: self.of_box })),
            printing: Printing::Simplex,
            cut: None,
        }
    }
}

/// The page pictures of `cat`, in the gallery's order: label sheets, then box flats, their
/// names made unique after those already in `slugs` (the boards' and pads').
pub fn page_pictures(cat: &Catalogue, slugs: &mut Slugs) -> Vec<PagePicture> {
    let mut pictures = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate() {
        let Some(layout) = &deck.labels else { continue };
        let faces: Vec<ArtRef> = crate::layout::physical_cards(deck, d)
            .map(|(face, _)| face)
            .take(layout.per_page())
            .collect();
        let first = crate::layout::labels::pages(&faces, layout, deck.shape, deck.corner);
        let Some(sheet) = first.into_iter().next() else { continue };
        let label = format!("{} ({}, first sheet)", deck.name, layout.name);
        pictures.push(picture(deck.id.clone(), label, sheet, false, slugs));
    }
    for (b, def) in cat.boxes.iter().enumerate() {
        for flat in crate::layout::boxes::flats(def.style, def.inside) {
            let margin = 2.0 * crate::layout::boxes::MARGIN_MM;
            let page = (Length::mm(flat.width + margin), Length::mm(flat.height + margin));
            let sheet = crate::layout::boxes::sheet(def, b, &flat, page);
            let (id, label) = match flat.part {
                "box" => (def.id.clone(), format!("{} (flat)", def.name)),
                part => (format!("{}-{part}", def.id), format!("{} ({part}, flat)", def.name)),
            };
            pictures.push(picture(id, label, sheet, true, slugs));
        }
    }
    pictures
}

fn picture(
    id: String,
    label: String,
    sheet: Sheet,
    of_box: bool,
    slugs: &mut Slugs,
) -> PagePicture {
    let file = preview_name(PREVIEW.sheet, &[("piece", &slugs.make(&id))]);
    PagePicture { id, label, file, sheet, of_box }
}

/// A page laid out when planned: a picture is one page, so there is nothing to defer.
struct OnePage {
    sheet: Sheet,
    of_box: bool,
}

impl Draw for OnePage {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        if self.of_box {
            at.boxes()?;
        }
        Ok(Box::new(vec![self.sheet.clone()]))
    }
}
