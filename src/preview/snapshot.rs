//! What a preview shows of a game: the pictures the plan makes of it (`plan::pictures`),
//! by deck and sheet, and the validation's result. Names and fingerprints only: pictures
//! and trees live for one contact sheet.

use std::path::PathBuf;

use super::gallery;
use crate::diag::{Diagnostic, Sources};
use crate::model::Catalogue;
use crate::plan::pictures::{Picture, Set};
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
    pub(super) decks: Vec<Set>,
    /// Boards and score pads, page-sized ones filled for A4.
    pub(super) sheets: Vec<Picture>,
    pub(super) library_decks: Vec<PathBuf>,
    /// The catalogue loaded: the pictures above are all it has (not so for a half-saved file).
    pub(super) loaded: bool,
    /// `--changed-since`: the pictures that differ from the previous preview's.
    pub(super) changes: Option<gallery::Changes>,
}

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
        let (decks, sheets) = crate::plan::pictures::sets(cat, lang);
        Self {
            id: cat.id.clone(),
            name: cat.name_in(lang).to_string(),
            description: cat.description_in(lang).to_string(),
            valid: None,
            problems: Vec::new(),
            sources: cat.sources.clone(),
            decks,
            sheets: sheets.pictures,
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
