//! What the parses of one run share (`Context`) and what each piece is parsed and
//! checked as (`Spec`): the types `parsing` and `findings` both take.

use std::sync::{Arc, Mutex};

use super::{art, FontDb};
use crate::check::Outline;
use crate::diag::Diagnostic;
use crate::length::Length;
use crate::model::{Row, Template};

/// What every parse of one run shares: the fonts (bundled and the catalogue's) and where
/// art files come from.
pub(super) struct Context {
    pub(super) fontdb: FontDb,
    pub(super) icons: Vec<crate::model::Icon>,
    pub(super) art: art::ArtSource,
    /// The job's bound on one text element's characters.
    pub(super) text_chars: u64,
    /// The legibility checks' thresholds (`[check]`).
    pub(super) legibility: crate::model::Legibility,
    /// Whether the checks that render a piece again (text contrast) run: `validate`'s.
    pub(super) thorough: bool,
    /// What draws the pictures those checks read.
    pub(super) pictures: crate::check::raster::Rasteriser,
    /// game.toml and its text: a sheet's `data` (a score pad's title) is written there.
    pub(super) game_toml: (std::path::PathBuf, Arc<str>),
    /// Templates others include or import: a frame's macro writes the text it draws.
    pub(super) includes: Vec<Template>,
    /// Pieces parsed and checked before, by what they were filled as: many cards of a
    /// deck share a design, and each design is parsed and checked once.
    pub(super) designs: Mutex<rustc_hash::FxHashMap<u64, Arc<Design>>>,
}

/// One design parsed and checked: its tree, the piece it was first drawn as and what its
/// checks found there, said again for each piece of the same design.
pub(super) struct Design {
    pub(super) tree: Option<Arc<usvg::Tree>>,
    pub(super) what: String,
    pub(super) diags: Vec<Diagnostic>,
}

/// Designs kept at most: a deck of few designs keeps them all; one of all-different cards
/// keeps only a batch's worth, so memory stays flat.
pub(super) const MAX_DESIGNS: usize = 512;

impl Design {
    /// Its problems as met by the piece `what`.
    pub(super) fn said_for(&self, what: &str) -> Vec<Diagnostic> {
        self.diags
            .iter()
            .cloned()
            .map(|mut d| {
                if what != self.what {
                    d.message = d.message.replace(&self.what, what);
                    for note in &mut d.notes {
                        *note = note.replace(&self.what, what);
                    }
                }
                d
            })
            .collect()
    }
}

/// What a filled template is parsed and checked as: its template and card (for finding
/// where a text is written), the piece's name in messages, its outline as cut and the bleed
/// its canvas has on every side.
#[derive(Clone, Copy)]
pub(super) struct Spec<'a> {
    pub template: &'a Template,
    pub row: Option<&'a Row>,
    pub what: &'a str,
    pub outline: Option<Outline>,
    pub bleed: Length,
}
