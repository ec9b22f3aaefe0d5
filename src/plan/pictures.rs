//! Picture documents, what `preview` and `watch` make, named from `services::PREVIEW`:
//! - a `Set` per deck, each card design and side as a PNG picture, and one of the boards
//!   and pads (`Body::Pictures`), drawn by the raster sink's picture mode (`raster.rs`):
//!   cut to the piece's outline, with `--cvd`, `--proof` and `--guides`, a deck's contact
//!   sheets made as its pictures are drawn;
//! - the pages made of several pieces shown beside them (each label deck's first sheet,
//!   each box's flats), laid out by the same `layout` code as the PDF, which the raster
//!   sink draws as it draws any document's pages.
//!
//! The planners read only the catalogue, not a `Validated` game: `preview` also pictures a
//! catalogue that breaks its rules, and only `validate` can make a `Validated` one. The
//! executor (whose context is a `Validated` game) draws a valid game's documents; `preview`
//! hands the same planned documents of a rejected catalogue to the same painters
//! (`raster::draw_set`, `raster::page`) with the pieces it could load.

use std::path::Path;

use super::{Body, Document, Draw, Drawing, Printing};
use crate::diag::Failure;
use crate::layout::{ArtRef, Sheet};
use crate::length::Length;
use crate::model::{Catalogue, Shape, SheetSize};
use crate::output::Slugs;
use crate::services::{preview_name, PREVIEW};

/// Width of a card on a contact sheet, in pixels.
pub const THUMB_WIDTH: u32 = 180;

/// Pictures on one contact sheet: ten rows of ten. A deck with more gets a sheet per
/// hundred, each written as soon as its cards are drawn, so a preview holds the pixels
/// of one sheet at a time however large the deck.
pub const PER_CONTACT_SHEET: usize = 100;

/// Longest side of a board or pad picture, in pixels.
const MAX_SHEET_SIDE: u32 = 4096;

/// The pictures of one deck (`deck`), or of the boards and pads (`None`): one document of
/// the picture mode. Names and fingerprints only: pixels and trees live for one contact
/// sheet.
#[derive(Clone)]
pub struct Set {
    pub deck: Option<usize>,
    /// The deck's folder and contact sheets' name.
    pub slug: String,
    pub name: String,
    /// Faces in row order, then the back or backs: every picture of the deck.
    pub pictures: Vec<Picture>,
    /// How many of `pictures` are faces.
    pub designs: usize,
    /// Whether a deck's contact sheets are made (not for `preview --card`).
    pub contact_sheets: bool,
    /// The deck's contact sheets, relative to the preview folder, once drawn.
    pub contact: Vec<String>,
}

impl Set {
    pub fn card_count(&self) -> u32 {
        self.pictures.iter().filter_map(|c| c.count).sum()
    }

    /// The pictures of each contact sheet.
    pub fn pages(&self) -> Vec<std::ops::Range<usize>> {
        (0..self.pictures.len())
            .step_by(PER_CONTACT_SHEET)
            .map(|first| first..(first + PER_CONTACT_SHEET).min(self.pictures.len()))
            .collect()
    }

    /// The document the raster sink draws: the set's pictures, in `folder` (`GAME/preview…`).
    pub fn document(self, folder: &Path) -> Document {
        Document {
            file: folder.join(&self.slug),
            title: self.name.clone(),
            body: Body::Pictures(Box::new(self)),
            printing: Printing::Simplex,
            cut: None,
            product: super::Product::Pictures,
            paper: None,
        }
    }
}

/// Which piece of the catalogue a picture shows.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Which {
    Face(usize),
    /// A per-card back (the row), or the deck's one back (0).
    Back(usize),
    Sheet,
}

/// One PNG: a card face, a back, or a sheet component.
#[derive(Clone)]
pub struct Picture {
    pub id: String,
    /// The caption: the card's id, "card back", or the sheet's name.
    pub label: String,
    /// Copies in the deck, for faces.
    pub count: Option<u32>,
    /// Where its PNG goes, relative to the preview folder, with `/` separators.
    pub file: String,
    pub size: (Length, Length),
    /// Contact-sheet thumbnail size in pixels, for deck pieces.
    pub thumb: Option<(u32, u32)>,
    pub which: Which,
    /// Fingerprint of the filled SVG its tree was made from (and of its outline), once
    /// drawn; `None` when it could not be drawn or was not asked for (`--card`).
    pub art: Option<u64>,
    /// The piece's outline (boards and pads: a plain rectangle): what is masked off.
    pub shape: Shape,
    pub corner: Length,
    /// With `--proof`: its colours that move more than `raster::PROOF_DELTA_E` in print.
    pub moved: Vec<crate::press::Moved>,
}

impl Picture {
    /// Pixel size at `dpi`; sheets larger than a screen are drawn at a lower resolution.
    pub fn pixels(&self, dpi: u32) -> Result<(u32, u32), Failure> {
        let longest_in = self.size.0.to_pt().max(self.size.1.to_pt()) / 72.0;
        let dpi = if self.thumb.is_none() {
            dpi.min((MAX_SHEET_SIDE as f32 / longest_in) as u32).max(1)
        } else {
            dpi
        };
        crate::export::raster::pixel_size(self.size.0, self.size.1, dpi).map_err(Failure::Io)
    }
}

/// The picture documents of `cat` in `lang`: a set per deck, then the boards and pads.
pub fn sets(cat: &Catalogue, lang: Option<&str>) -> (Vec<Set>, Set) {
    (deck_sets(cat, lang), Set::sheets(sheet_pictures(cat)))
}

impl Set {
    /// The set of the boards and pads, pictured whole (no contact sheet).
    pub fn sheets(pictures: Vec<Picture>) -> Set {
        let name = "boards and sheets".to_string();
        let slug = "sheets".to_string();
        let contact = Vec::new();
        Set { deck: None, slug, name, pictures, designs: 0, contact_sheets: false, contact }
    }
}

/// Page-sized sheets are pictured on A4, as `build` prints them by default.
pub(super) fn pictured_size(size: SheetSize) -> (Length, Length) {
    super::sheet_size(size, crate::layout::Paper::A4)
}

fn deck_sets(cat: &Catalogue, lang: Option<&str>) -> Vec<Set> {
    let mut deck_slugs = Slugs::default();
    cat.decks
        .iter()
        .enumerate()
        .map(|(d, deck)| {
            let slug = deck_slugs.make(&deck.id);
            let size = (deck.width, deck.height);
            let thumb = Some((
                THUMB_WIDTH,
                (THUMB_WIDTH as f32 * deck.height.to_pt() / deck.width.to_pt()).round().max(1.0)
                    as u32,
            ));
            let mut card_slugs = Slugs::default();
            let names: Vec<String> = deck.rows.iter().map(|r| card_slugs.make(&r.id)).collect();
            let picture =
                |id: String, label: String, count: Option<u32>, file: String, which: Which| {
                    Picture {
                        id,
                        label,
                        count,
                        file,
                        size,
                        thumb,
                        which,
                        art: None,
                        shape: deck.shape,
                        corner: deck.corner,
                        moved: Vec::new(),
                    }
                };
            let mut pictures: Vec<Picture> = deck
                .rows
                .iter()
                .zip(&names)
                .enumerate()
                .map(|(i, (row, name))| {
                    picture(
                        row.id.clone(),
                        row.id.clone(),
                        Some(row.qty),
                        preview_name(PREVIEW.face, &[("deck", &slug), ("card", name)]),
                        Which::Face(i),
                    )
                })
                .collect();
            let designs = pictures.len();
            if deck.back_per_card {
                pictures.extend(deck.rows.iter().zip(&names).enumerate().map(
                    |(i, (row, name))| {
                        picture(
                            row.id.clone(),
                            format!("back of {}", row.id),
                            None,
                            preview_name(PREVIEW.own_back, &[("deck", &slug), ("card", name)]),
                            Which::Back(i),
                        )
                    },
                ));
            } else if deck.labels.is_none() {
                // A label has no back.
                pictures.push(picture(
                    "back".into(),
                    "card back".into(),
                    None,
                    preview_name(PREVIEW.back, &[("deck", &slug)]),
                    Which::Back(0),
                ));
            }
            let name = cat.deck_name_in(d, lang).to_string();
            let contact = Vec::new();
            Set { deck: Some(d), slug, name, pictures, designs, contact_sheets: true, contact }
        })
        .collect()
}

fn sheet_pictures(cat: &Catalogue) -> Vec<Picture> {
    let mut slugs = Slugs::default();
    cat.sheets
        .iter()
        .map(|sheet| Picture {
            id: sheet.id.clone(),
            label: sheet.name.clone(),
            count: None,
            file: preview_name(PREVIEW.sheet, &[("piece", &slugs.make(&sheet.id))]),
            size: pictured_size(sheet.size),
            thumb: None,
            which: Which::Sheet,
            art: None,
            shape: Shape::Rect,
            corner: Length::ZERO,
            moved: Vec::new(),
        })
        .collect()
}

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
            product: super::Product::Pictures,
            paper: None,
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
