//! The one room for checks: everything that can say a piece or a file is wrong for a
//! player or a printer (legibility, resolution, glyphs, ink, proportions, a print
//! service's spec). Each check has a name in `NAMES`; the known-bad corpus
//! (tests/it/known_bad.rs) holds a file that each one must fail, and turns each off in turn
//! to prove that it can.
//!
//! The checks of a piece run through `piece`, called by `render` on each tree as it is
//! drawn and still in memory: nothing is kept for them, so memory stays flat however
//! large the deck. `render` says what they find, at the template line that wrote it.
//! The colour-alone check compares two cards' pictures, kept as they are drawn
//! (`colour_alone`).

pub mod art;
pub mod colour;
pub mod colour_alone;
pub mod legibility;
pub mod pdf;
pub mod raster;
pub mod service;
pub mod shape;
mod under;

use crate::length::Length;
use crate::model::Shape;

/// Every check by name. A check asks `off(NAME)` before it looks, so that a test can prove
/// it is the one that catches its known-bad file.
pub const NAMES: &[&str] = &[
    // A piece as drawn, while `validate` or `build` draws it (`piece`, `colour_alone`).
    // legibility: text printed smaller than `[check] min_text_pt`
    "text-size",
    // legibility: text fainter than `[check] contrast` against what is drawn under it
    "contrast",
    // legibility: an enum field's values told apart by colour (and words) alone
    "colour-alone",
    // text whose ink runs off the piece's outline (round, hex and rounded pieces too)
    "off-piece",
    // a raster image printed under 300 dpi
    "dpi",
    // a raster image drawn out of its proportions
    "stretched",
    // A print service's spec, on the files made for it (service.rs). `safe-zone` is also
    // text on a piece drawn with a bleed within 3 mm of its outline (shape.rs): one rule,
    // read from the drawn piece and from the file.
    "safe-zone",
    "bleed",
    "small-text",
    "hairline",
    "transparency",
    "image-dpi",
    "colour-space",
    "fonts-embedded",
    "file-order",
    // A deck against the card sizes a print service prints (`--for`; driver's `fits`).
    "product-size",
    // A colour or image over the press's total ink limit (CMYK jobs; plan/press.rs).
    "total-ink",
    // Text under `[check] fine_text_pt` printed in more than one ink (CMYK jobs).
    "fine-text-inks",
];

/// True when a test has turned the named check off with `DECKPRESS_CHECK_OFF=name[,name]`.
/// Only debug builds listen: a release build never lets a check be silenced this way.
pub fn off(name: &str) -> bool {
    if !cfg!(debug_assertions) {
        return false;
    }
    // Read once: a check asks for every piece it looks at.
    static OFF: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let off = OFF.get_or_init(|| {
        let names = std::env::var("DECKPRESS_CHECK_OFF").unwrap_or_default();
        names.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect()
    });
    off.iter().any(|n| n == name)
}

/// A piece's outline as cut: its size, its shape and a rectangle's corner radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outline {
    pub size: (Length, Length),
    pub shape: Shape,
    /// Radius of a rectangle's corners; zero for square corners.
    pub corner: Length,
}

impl Outline {
    /// A square-cornered rectangle (a sheet, a box panel).
    pub fn rect(size: (Length, Length)) -> Outline {
        Outline { size, shape: Shape::Rect, corner: Length::ZERO }
    }
}

/// A piece as drawn, while its tree is in memory: what the checks of a piece read.
pub struct Drawn<'t> {
    pub tree: &'t usvg::Tree,
    pub outline: Outline,
    /// Art beyond the cut on every side: the tree's canvas is the outline's size plus it.
    pub bleed: Length,
    /// The raster images the parse drew: their bytes' address, href and checked size.
    pub images: &'t [(usize, String, crate::images::Info)],
}

/// What a check found in a piece; `render` says it at the template line that wrote it.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// `text-size`: text printed at `pt`, under the minimum.
    Small { text: String, pt: f32 },
    /// `contrast`: text in `fg` on `bg`, at `ratio`, under the `needed` contrast.
    Faint { text: String, ratio: f64, needed: f32, fg: [u8; 3], bg: [u8; 3] },
    /// `off-piece`: text whose ink runs `mm` past the outline; `edge` names the part of a
    /// shaped outline it crosses ("round edge"), `None` a straight cut.
    OffPiece { text: String, mm: f32, edge: Option<&'static str> },
    /// `safe-zone`: text `mm` inside the cut, closer than `safe`; `edge` as for `OffPiece`.
    SafeZone { text: String, mm: f32, safe: f32, edge: Option<&'static str> },
    /// `dpi`: a raster image printed at `dpi`.
    LowResolution { href: String, dpi: f32 },
    /// `stretched`: a raster image drawn `ratio` out of its proportions.
    Stretched { href: String, ratio: f32 },
}

/// Every check of one piece, in the order a designer reads them: the art, the text's
/// size and contrast, then where the text lies. `pictures`: also read each text's
/// contrast from the piece rendered (every command but a preview, which only measures).
pub fn piece(
    drawn: &Drawn,
    legibility: &crate::model::Legibility,
    pictures: Option<&raster::Rasteriser>,
) -> Vec<Finding> {
    let (w, _) = drawn.outline.size;
    let mut found = art::measure(drawn.tree, (w + drawn.bleed * 2.0).to_mm(), drawn.images);
    found.extend(legibility::text_findings(drawn.tree, legibility, pictures));
    let texts = texts_but(drawn.tree, |_| false);
    found.extend(shape::findings(drawn.tree, &texts, drawn.outline, drawn.bleed));
    found
}

/// The text elements of a tree, in drawing order, but those in (or being) a node `skip`
/// says to leave out.
pub(crate) fn texts_but(tree: &usvg::Tree, skip: impl Fn(&usvg::Node) -> bool) -> Vec<&usvg::Text> {
    fn walk<'t>(
        group: &'t usvg::Group,
        skip: &dyn Fn(&usvg::Node) -> bool,
        out: &mut Vec<&'t usvg::Text>,
    ) {
        for node in group.children() {
            if skip(node) {
                continue;
            }
            match node {
                usvg::Node::Group(g) => walk(g, skip, out),
                usvg::Node::Text(t) => out.push(t),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(tree.root(), &skip, &mut out);
    out
}
