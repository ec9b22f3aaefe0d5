//! Paper sizes by name: the one table of every paper deckpress prints on or names (home
//! sheets, label sheets, boards and boxes). Sizes are portrait, width × height.

use crate::length::Length;

/// A paper by name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperSize {
    /// Its name on the command line, in game.toml and in file names: `a4`, `letter`.
    pub name: &'static str,
    pub width: Length,
    pub height: Length,
}

impl PaperSize {
    /// Width and height.
    pub const fn size(self) -> (Length, Length) {
        (self.width, self.height)
    }
}

const fn mm(name: &'static str, width: f32, height: f32) -> PaperSize {
    PaperSize { name, width: Length::mm(width), height: Length::mm(height) }
}

pub const A4: PaperSize = mm("a4", 210.0, 297.0);
pub const LETTER: PaperSize =
    PaperSize { name: "letter", width: Length::inches(8.5), height: Length::inches(11.0) };
/// The area A4 and Letter have in common (A4's width, Letter's height): a page laid out
/// in it prints at 100 % on either.
pub const UNIVERSAL: PaperSize =
    PaperSize { name: "universal", width: Length::mm(210.0), height: Length::inches(11.0) };
pub const A3: PaperSize = mm("a3", 297.0, 420.0);
pub const A2: PaperSize = mm("a2", 420.0, 594.0);
pub const A1: PaperSize = mm("a1", 594.0, 841.0);

/// The papers boards and boxes too large for a home sheet go to, smallest first.
pub const LARGE: [PaperSize; 3] = [A3, A2, A1];

/// Every paper deckpress knows by name.
pub const PAPERS: [PaperSize; 6] = [A4, LETTER, UNIVERSAL, A3, A2, A1];

/// The paper called `name` (lowercase), if deckpress knows it.
pub fn named(name: &str) -> Option<PaperSize> {
    PAPERS.iter().copied().find(|p| p.name == name)
}
