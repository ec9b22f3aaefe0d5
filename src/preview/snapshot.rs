//! What a preview shows of a game: every picture's name, file, size and outline, by deck
//! and sheet, and the validation's result; the pieces of a batch of pictures, filled and
//! parsed. Names and fingerprints only: pictures and trees live for one contact sheet.

use std::collections::HashMap;
use std::path::PathBuf;

use super::{gallery, PER_CONTACT_SHEET, THUMB_WIDTH};
use crate::diag::{Diagnostic, Failure, Sources};
use crate::export::raster as png;
use crate::length::Length;
use crate::model::{Catalogue, Shape, SheetSize};
use crate::output::Slugs;
use crate::services::{preview_name, PREVIEW};
use crate::validate::Validated;

/// A game as far as it could be read and drawn, with every problem found on the way.
/// It holds names and fingerprints, never pictures or trees: those live for one contact
/// sheet's worth of cards.
pub(super) struct Snapshot {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) description: String,
    /// `Validated::summary` when the catalogue is valid and every piece could be drawn.
    pub(super) valid: Option<String>,
    pub(super) problems: Vec<Diagnostic>,
    pub(super) sources: Sources,
    pub(super) decks: Vec<DeckView>,
    /// Boards and score pads, page-sized ones filled for A4.
    pub(super) sheets: Vec<Picture>,
    pub(super) library_decks: Vec<PathBuf>,
    /// The catalogue loaded: the pictures above are all it has (not so for a half-saved file).
    pub(super) loaded: bool,
    /// `--changed-since`: the pictures that differ from the previous preview's.
    pub(super) changes: Option<gallery::Changes>,
}

pub(super) struct DeckView {
    pub(super) slug: String,
    pub(super) name: String,
    /// Faces in row order, then the back or backs: every picture of the deck.
    pub(super) pictures: Vec<Picture>,
    /// How many of `pictures` are faces.
    pub(super) designs: usize,
    /// The deck's contact sheets, relative to the preview folder.
    pub(super) contact: Vec<String>,
}

impl DeckView {
    pub(super) fn card_count(&self) -> u32 {
        self.pictures.iter().filter_map(|c| c.count).sum()
    }

    /// The pictures of each contact sheet.
    pub(super) fn pages(&self) -> Vec<std::ops::Range<usize>> {
        (0..self.pictures.len())
            .step_by(PER_CONTACT_SHEET)
            .map(|first| first..(first + PER_CONTACT_SHEET).min(self.pictures.len()))
            .collect()
    }
}

/// Which piece of the catalogue a picture shows.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Which {
    Face(usize),
    /// A per-card back (the row), or the deck's one back (0).
    Back(usize),
    Sheet,
}

/// One PNG: a card face, a back, or a sheet component.
pub(super) struct Picture {
    pub(super) id: String,
    /// The caption: the card's id, "card back", or the sheet's name.
    pub(super) label: String,
    /// Copies in the deck, for faces.
    pub(super) count: Option<u32>,
    /// Where its PNG goes, relative to the preview folder, with `/` separators.
    pub(super) file: String,
    pub(super) size: (Length, Length),
    /// Contact-sheet thumbnail size in pixels, for deck pieces.
    pub(super) thumb: Option<(u32, u32)>,
    pub(super) which: Which,
    /// Fingerprint of the filled SVG its tree was made from (and of its outline), once
    /// drawn; `None` when it could not be drawn or was not asked for (`--card`).
    pub(super) art: Option<u64>,
    /// The piece's outline (boards and pads: a plain rectangle): what is masked off.
    pub(super) shape: Shape,
    pub(super) corner: Length,
    /// With `--proof`: its colours that move more than `PROOF_DELTA_E` in print.
    pub(super) moved: Vec<crate::press::Moved>,
}

impl Picture {
    /// Pixel size at `dpi`; sheets larger than a screen are drawn at a lower resolution.
    pub(super) fn pixels(&self, dpi: u32) -> Result<(u32, u32), Failure> {
        let longest_in = self.size.0.to_pt().max(self.size.1.to_pt()) / 72.0;
        let dpi = if self.thumb.is_none() {
            dpi.min((MAX_SHEET_SIDE as f32 / longest_in) as u32).max(1)
        } else {
            dpi
        };
        png::pixel_size(self.size.0, self.size.1, dpi).map_err(Failure::Io)
    }
}

/// Longest side of a board or pad preview, in pixels.
const MAX_SHEET_SIDE: u32 = 4096;

impl Snapshot {
    /// A catalogue that could not be loaded: its problems and no pictures.
    pub(super) fn unloaded(id: String, problems: Vec<Diagnostic>, sources: Sources) -> Self {
        Self {
            name: id.clone(),
            id,
            description: String::new(),
            valid: None,
            problems,
            sources,
            decks: Vec::new(),
            sheets: Vec::new(),
            library_decks: Vec::new(),
            loaded: false,
            changes: None,
        }
    }

    /// Names, files and sizes of every picture of `cat`; nothing drawn yet.
    pub(super) fn new(cat: &Catalogue, lang: Option<&str>) -> Self {
        let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size)).collect();
        Self {
            id: cat.id.clone(),
            name: cat.name_in(lang).to_string(),
            description: cat.description_in(lang).to_string(),
            valid: None,
            problems: Vec::new(),
            sources: cat.sources.clone(),
            decks: deck_views(cat, lang),
            sheets: sheet_views(cat, &sizes),
            library_decks: library_decks(cat),
            loaded: true,
            changes: None,
        }
    }

    /// What validating the game (which it takes) found, and what drawing it met; the
    /// game when it is valid and every piece could be drawn (what `watch --pdf` builds).
    pub(super) fn validated(
        &mut self,
        checked: crate::plan::Checked,
        drawing: crate::diag::Grouped,
    ) -> Option<Validated> {
        let (validated, mut problems, sources) = match checked {
            crate::plan::Checked::Valid(v) => {
                let (warnings, sources) = (v.warnings().to_vec(), v.catalogue().sources.clone());
                (Some(*v), warnings, sources)
            }
            crate::plan::Checked::Rejected { problems, cat } => (None, problems, cat.sources),
        };
        let drawing = drawing.finish();
        // Warnings (low-resolution art, a text near the edge) do not stop a build: nor here.
        let validated = validated.filter(|_| !drawing.iter().any(Diagnostic::is_error));
        self.valid = validated.as_ref().map(Validated::summary);
        problems.extend(drawing);
        self.problems = problems;
        self.sources = sources;
        validated
    }

    pub(super) fn pictures(&self) -> impl Iterator<Item = &Picture> {
        self.decks.iter().flat_map(|d| &d.pictures).chain(&self.sheets)
    }
}

/// Fills and parses the pictures of deck `d` (or the sheets) listed in `pictures`;
/// returns their pieces in that order, and hands the problems met to `problems`.
pub(super) fn render_some(
    cat: &Catalogue,
    d: Option<usize>,
    pictures: &[&Picture],
    lang: Option<&str>,
    problems: &mut crate::diag::Grouped,
) -> Vec<Option<crate::render::Piece>> {
    let decks = cat.decks.len();
    let (mut faces, mut backs) = (vec![Vec::new(); decks], vec![Vec::new(); decks]);
    let mut shared = false;
    let per_card = d.is_some_and(|d| cat.decks[d].back_per_card);
    for p in pictures {
        match (d, p.which) {
            (Some(d), Which::Face(row)) => faces[d].push(row),
            (Some(d), Which::Back(row)) if per_card => backs[d].push(row),
            (Some(_), Which::Back(_)) => shared = true,
            _ => {}
        }
    }
    let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size)).collect();
    let players = cat.players.map_or(1, |(_, max)| max);
    let request = crate::render::Request {
        wanted: &|_, _| false,
        rows: Some(&faces),
        back_rows: Some(&backs),
        shared_back: &|deck| shared && Some(deck) == d,
        sheet_sizes: d.is_none().then_some(&sizes[..]),
        players,
        lang,
        drawn_before: None,
    };
    let drawn = crate::render::pieces(cat, &request);
    problems.extend(drawn.problems);
    let mut by_piece: HashMap<(bool, usize), crate::render::Piece> = HashMap::new();
    if let Some(deck) = d.and_then(|d| drawn.decks.into_iter().nth(d)) {
        by_piece.extend(deck.faces.into_iter().map(|(row, p)| ((false, row), p)));
        by_piece.extend(deck.backs.into_iter().map(|(row, p)| ((true, row), p)));
    }
    let mut sheets = drawn.sheets.into_iter().map(Some).collect::<Vec<_>>().into_iter();
    pictures
        .iter()
        .map(|p| match p.which {
            Which::Face(row) => by_piece.remove(&(false, row)),
            Which::Back(row) => by_piece.remove(&(true, row)),
            Which::Sheet => sheets.next().flatten(),
        })
        .collect()
}

/// Page-sized sheets are previewed on A4, as `build` prints them by default.
fn sheet_size(size: SheetSize) -> (Length, Length) {
    crate::plan::sheet_size(size, crate::layout::Paper::A4)
}

pub(super) fn deck_views(cat: &Catalogue, lang: Option<&str>) -> Vec<DeckView> {
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
            DeckView { slug, name, pictures, designs, contact: Vec::new() }
        })
        .collect()
}

pub(super) fn sheet_views(cat: &Catalogue, sizes: &[(Length, Length)]) -> Vec<Picture> {
    let mut slugs = Slugs::default();
    cat.sheets
        .iter()
        .zip(sizes)
        .map(|(sheet, &size)| Picture {
            id: sheet.id.clone(),
            label: sheet.name.clone(),
            count: None,
            file: preview_name(PREVIEW.sheet, &[("piece", &slugs.make(&sheet.id))]),
            size,
            thumb: None,
            which: Which::Sheet,
            art: None,
            shape: Shape::Rect,
            corner: Length::ZERO,
            moved: Vec::new(),
        })
        .collect()
}

/// The folders under the library that this catalogue's decks read from (`library/french`).
pub(super) fn library_decks(cat: &Catalogue) -> Vec<PathBuf> {
    let library = crate::world::World::templates();
    // Only a templates folder on disk can change while `watch` runs.
    let Some(disk) = library.disk_root() else { return Vec::new() };
    let files = cat
        .decks
        .iter()
        .flat_map(|d| [&d.rows_file, &d.face.file, &d.back.file])
        .chain(cat.sheets.iter().flat_map(|s| [&s.rows_file, &s.template.file]));
    let mut folders: Vec<PathBuf> = files
        .filter_map(|file| {
            file.strip_prefix(library.root()).ok()?.components().next().map(|c| disk.join(c))
        })
        .collect();
    folders.sort();
    folders.dedup();
    folders
}
