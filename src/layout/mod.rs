//! Stage `layout`: a deck → `Vec<Sheet>`. Imposes cards at 100 % scale on a paper size,
//! centred, with crop marks outside the card grid (or in its gutters where a margin has
//! no room for them), hex tiles in a honeycomb (`hex`), every piece's cut outline, the
//! registration marks of print-then-cut machines (`registration`), and the duplex back
//! pages mirrored so every back lands behind its face.

pub mod boxes;
mod grid;
pub mod hex;
mod imposed;
pub mod labels;
pub mod marks;
mod outline;
pub mod registration;
pub mod sheets;
mod single;
mod slug;

use grid::crop_marks;
pub use grid::Grid;
pub use imposed::{fits_on, impose, Imposed, Pages};
pub use outline::{Outline, PathStep};
pub use single::{single, single_fitted, Fitting};
pub use slug::{slug, SlugWidth, SlugWords};

use crate::length::Length;
use crate::model::Shape;

/// Paper the sheets are printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Paper {
    /// 210 × 297 mm.
    A4,
    /// 8.5 × 11 in.
    Letter,
    /// 210 × 279.4 mm, the area A4 and Letter share: one file prints at 100 % on both
    /// (print-and-play bundles).
    Universal,
}

impl Paper {
    pub fn size(self) -> (Length, Length) {
        match self {
            Paper::A4 => crate::paper::A4.size(),
            Paper::Letter => crate::paper::LETTER.size(),
            Paper::Universal => crate::paper::UNIVERSAL.size(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => crate::paper::A4.name,
            Paper::Letter => crate::paper::LETTER.name,
            Paper::Universal => crate::paper::UNIVERSAL.name,
        }
    }
}

/// How back pages are arranged for a duplex printer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Duplex {
    /// Flip on the long edge: backs mirrored left ↔ right on a portrait page, top ↔
    /// bottom and turned 180° on a landscape one (see `BackMirror`).
    Long,
    /// Flip on the short edge: backs mirrored top ↔ bottom and turned 180° on a portrait
    /// page, left ↔ right on a landscape one.
    Short,
    /// No backs interleaved: all fronts, then all backs mirrored as for a long-edge flip,
    /// so a back page glued (turned over its long edge) onto its front page pairs them.
    None,
    /// Gutter fold: each front beside its own back on the same side of the page, mirrored
    /// about a dashed fold line; folded (printed sides out), glued and cut, with no duplex
    /// printer to line the sides up. The page is turned and folded whichever way fits most.
    Fold,
}

/// Which way a home sheet stands: `Auto` tries the paper both ways and keeps the way that
/// holds more pieces (ties stay portrait).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Orientation {
    /// The paper's short side across.
    Portrait,
    /// The paper turned: its long side across.
    Landscape,
    /// Whichever holds more pieces; portrait on a tie.
    #[default]
    Auto,
}

impl Orientation {
    /// The page sizes to try for `paper` (portrait as given), portrait first.
    pub fn sizes(self, paper: (Length, Length)) -> Vec<(Length, Length)> {
        let (short, long) =
            if paper.0 <= paper.1 { (paper.0, paper.1) } else { (paper.1, paper.0) };
        match self {
            Orientation::Portrait => vec![(short, long)],
            Orientation::Landscape => vec![(long, short)],
            Orientation::Auto => vec![(short, long), (long, short)],
        }
    }
}

/// Where a back goes on its page, behind its face: a duplex printer turns the sheet over
/// the page's long or short side, whichever way the page stands on the paper. The IPP
/// (`sides=two-sided-long-edge`, RFC 8011 §5.2.8) and PDF (`/Duplex
/// /DuplexFlipLongEdge`) flips are of the sheet; a driver turns a landscape page a
/// quarter turn onto the paper, the same for front and back, so in the page's own
/// coordinates the back is the front reflected across the page's long axis (long-edge)
/// or short axis (short-edge), whichever way the quarter turn went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackMirror {
    /// Reflected left ↔ right (across the page's vertical middle): the sheet is turned
    /// over its left or right side, the backs upright.
    Columns,
    /// Reflected top ↔ bottom (across the page's horizontal middle): the sheet is turned
    /// over its top or bottom side, so each back is also turned half a turn, to stand
    /// upright when its card is turned over sideways.
    Rows,
}

impl BackMirror {
    /// How `duplex` mirrors the backs of a page `size` (width, height): on a portrait
    /// page the long side is the left and right, on a landscape page the top and bottom.
    /// Glued fronts-then-backs pages (`None`) are turned over the long side by hand.
    pub fn of(duplex: Duplex, size: (Length, Length)) -> BackMirror {
        let landscape = size.0 > size.1;
        match (duplex, landscape) {
            (Duplex::Short, false) => BackMirror::Rows,
            (Duplex::Short, true) => BackMirror::Columns,
            (Duplex::Long | Duplex::None | Duplex::Fold, false) => BackMirror::Columns,
            (Duplex::Long | Duplex::None | Duplex::Fold, true) => BackMirror::Rows,
        }
    }
}

/// Where home printers commonly cannot print: nothing but the page background within it.
pub(crate) const UNPRINTABLE_MM: f32 = 5.0;
/// Bleed a home sheet prints around every card at the least, inside that band: a card
/// whose edge would sit in the band loses art inside its cut, so its row or column goes.
const MIN_PRINTED_BLEED_MM: f32 = 0.1;
/// Where art may reach on a sheet whose crop marks sit in the gutters: into the band
/// printers leave blank, but not to the edge (few home printers print borderless).
const ART_EDGE_MM: f32 = 3.0;
/// Room kept between the crop marks and that edge, at top and bottom, for the slug line.
const SLUG_BAND_MM: f32 = 3.2;
/// Gap between a crop mark and the card grid, so a mark never touches a card.
const MARK_GAP_MM: f32 = 1.5;
const MARK_MAX_MM: f32 = 6.0;
const MARK_MIN_MM: f32 = 2.5;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: Length,
    pub y: Length,
    pub w: Length,
    pub h: Length,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Front,
    Back,
}

pub use crate::model::ArtRef;

/// Every physical card of deck `d`, face and back, in file order.
pub fn physical_cards(
    deck: &crate::model::Deck,
    d: usize,
) -> impl Iterator<Item = (ArtRef, ArtRef)> + '_ {
    crate::model::copies(&deck.rows).map(move |(row, _)| {
        let back = ArtRef::Back { deck: d, row: if deck.back_per_card { row } else { 0 } };
        (ArtRef::Face { deck: d, row }, back)
    })
}

#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub art: ArtRef,
    /// Where the art's full extent goes (it may reach past the page, for board tiles).
    pub rect: Rect,
    /// Turned half a turn (short-edge duplex backs).
    pub rotated: bool,
    /// Only this part of the page shows the art (board tiles, a card's bleed).
    pub clip: Option<Outline>,
    /// How far the art reaches past `rect` on every side: its template's bleed.
    pub bleed: Length,
}

/// A crop mark: a short line from (x1, y1) to (x2, y2), top-left origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub x1: Length,
    pub y1: Length,
    pub x2: Length,
    pub y2: Length,
}

/// One page, fully resolved: nothing left for an exporter to decide.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    pub width: Length,
    pub height: Length,
    pub side: Side,
    pub items: Vec<Placed>,
    pub marks: Vec<Mark>,
    /// Cut lines drawn around pieces that do not share cut lines (tokens, hex tiles,
    /// rounded corners, and every piece of a sheet with registration marks).
    pub guides: Vec<Outline>,
    /// Every piece's outline, the line it is cut on: what a cut file holds.
    pub cuts: Vec<Outline>,
    /// Registration marks for a print-then-cut machine are printed (see `registration`).
    pub registration: bool,
    /// The area to cut to (the card grid, the board): written as the PDF TrimBox.
    pub trim: Rect,
    /// How far printed art reaches past the trim: the PDF BleedBox is the trim grown by it.
    pub bleed: Length,
    /// Labels, glue zones and alignment marks, drawn on top in order. A layer the pages
    /// share (the slug but its sheet number) is one value and becomes one reusable object
    /// in the PDF.
    pub decor: Vec<std::sync::Arc<marks::Layer>>,
    /// Home sheets: the part of the page art may reach (5 mm inside the edge, where most
    /// printers cannot print); the bleed shown is cut off there.
    pub printable: Option<Rect>,
    /// A box's die-line: its cut outline and fold lines (see `boxes`).
    pub die: Option<std::sync::Arc<boxes::Die>>,
}

impl Sheet {
    pub fn blank(width: Length, height: Length) -> Sheet {
        Sheet {
            width,
            height,
            side: Side::Front,
            items: Vec::new(),
            marks: Vec::new(),
            guides: Vec::new(),
            cuts: Vec::new(),
            registration: false,
            trim: Rect { x: Length::ZERO, y: Length::ZERO, w: width, h: height },
            bleed: Length::ZERO,
            decor: Vec::new(),
            printable: None,
            die: None,
        }
    }
}

/// How a deck's pieces are cut: shape, and the gap between them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cut {
    pub size: (Length, Length),
    pub shape: Shape,
    /// Radius of a rect piece's corners (zero: square).
    pub corner: Length,
    pub gap: Length,
    /// The art's bleed (how far it reaches past the cut on every side).
    pub bleed: Length,
    /// Pieces are cut by a machine that finds the sheet by registration marks: the marks
    /// are printed, pieces keep clear of them, and every piece gets a cut guide instead of
    /// crop marks.
    pub registration: bool,
}

impl Cut {
    /// How a deck's pieces are cut: its card size, shape, corners, gap and bleed, with
    /// registration marks for a cutting machine when `registration`.
    pub fn of(deck: &crate::model::Deck, registration: bool) -> Cut {
        Cut {
            size: (deck.width, deck.height),
            shape: deck.shape,
            corner: deck.corner,
            gap: deck.gap,
            bleed: deck.bleed,
            registration,
        }
    }
}

impl Rect {
    /// The rectangle grown by `by` on every side.
    pub fn grown(&self, by: Length) -> Rect {
        Rect { x: self.x - by, y: self.y - by, w: self.w + by * 2.0, h: self.h + by * 2.0 }
    }

    /// The part of it inside `other`.
    pub fn within(&self, other: &Rect) -> Rect {
        let (x0, y0) = (self.x.to_pt().max(other.x.to_pt()), self.y.to_pt().max(other.y.to_pt()));
        let x1 = (self.x + self.w).to_pt().min((other.x + other.w).to_pt());
        let y1 = (self.y + self.h).to_pt().min((other.y + other.h).to_pt());
        Rect {
            x: Length::pt(x0),
            y: Length::pt(y0),
            w: Length::pt((x1 - x0).max(0.0)),
            h: Length::pt((y1 - y0).max(0.0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poker() -> (Length, Length) {
        (Length::mm(63.0), Length::mm(88.0))
    }

    #[test]
    fn poker_cards_fit_three_by_three_on_a4_and_letter() {
        for paper in [Paper::A4, Paper::Letter] {
            let grid = Grid::fit(paper.size(), poker(), Length::ZERO, Length::ZERO).unwrap();
            assert_eq!((grid.cols, grid.rows), (3, 3), "{paper:?}");
        }
    }

    fn cut() -> Cut {
        Cut {
            size: poker(),
            shape: Shape::Rect,
            corner: Length::ZERO,
            gap: Length::ZERO,
            bleed: Length::ZERO,
            registration: false,
        }
    }

    fn pieces(n: usize) -> Vec<(ArtRef, ArtRef)> {
        (0..n)
            .map(|row| (ArtRef::Face { deck: 0, row }, ArtRef::Back { deck: 0, row: 0 }))
            .collect()
    }

    #[test]
    fn crop_marks_never_touch_a_card_and_stay_on_the_paper() {
        for paper in [Paper::A4, Paper::Letter] {
            let sheets =
                impose(&pieces(9), cut(), paper, Duplex::Long, Orientation::Portrait, (0.0, 0.0))
                    .unwrap();
            let (w, h) = paper.size();
            let sheet = &sheets[0];
            for m in &sheet.marks {
                for (x, y) in [(m.x1, m.y1), (m.x2, m.y2)] {
                    assert!(
                        x.to_pt() >= 0.0 && x <= w && y.to_pt() >= 0.0 && y <= h,
                        "mark off the paper: {m:?}"
                    );
                    let inside = |r: &Rect| x > r.x && x < r.x + r.w && y > r.y && y < r.y + r.h;
                    let t = &sheet.trim;
                    let inside_grid = x.to_pt() > t.x.to_pt() - 1.0
                        && x.to_pt() < (t.x + t.w).to_pt() + 1.0
                        && y.to_pt() > t.y.to_pt() - 1.0
                        && y.to_pt() < (t.y + t.h).to_pt() + 1.0;
                    assert!(
                        !inside_grid && !sheet.items.iter().any(|p| inside(&p.rect)),
                        "mark touches a card: {m:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_edge_backs_mirror_columns_and_short_edge_backs_mirror_rows() {
        let long =
            impose(&pieces(4), cut(), Paper::A4, Duplex::Long, Orientation::Portrait, (0.0, 0.0))
                .unwrap();
        assert_eq!(long.len(), 2);
        let grid = Grid::fit(Paper::A4.size(), poker(), Length::ZERO, Length::ZERO).unwrap();
        // Card 0 is top-left on the front, so its back is top-right.
        assert_eq!(long[1].items[0].rect, grid.slot(2, 0));
        assert_eq!(long[1].items[3].rect, grid.slot(2, 1));
        let short =
            impose(&pieces(4), cut(), Paper::A4, Duplex::Short, Orientation::Portrait, (0.0, 0.0))
                .unwrap();
        assert_eq!(short[1].items[0].rect, grid.slot(0, 2));
        assert!(short[1].items[0].rotated);
        let none =
            impose(&pieces(4), cut(), Paper::A4, Duplex::None, Orientation::Portrait, (0.0, 0.0))
                .unwrap();
        assert_eq!(
            none[1].items[0].rect,
            grid.slot(2, 0),
            "glued backs are mirrored like long-edge duplex"
        );
    }

    #[test]
    fn round_tokens_get_one_circular_guide_each_and_no_crop_marks() {
        let cut = Cut {
            size: (Length::mm(30.0), Length::mm(30.0)),
            shape: Shape::Circle,
            corner: Length::ZERO,
            gap: Length::mm(4.0),
            bleed: Length::ZERO,
            registration: false,
        };
        let sheets =
            impose(&pieces(10), cut, Paper::A4, Duplex::Long, Orientation::Portrait, (0.0, 0.0))
                .unwrap();
        assert!(sheets[0].marks.is_empty());
        assert_eq!(sheets[0].guides.len(), 10);
        assert!(matches!(sheets[0].guides[0], Outline::Circle(_)));
        // 30 mm tokens 4 mm apart: 5 across A4's 210 mm.
        let grid = Grid::fit(Paper::A4.size(), cut.size, cut.gap, Length::ZERO).unwrap();
        assert_eq!(grid.cols, 5);
        let (a, b) = (grid.slot(0, 0), grid.slot(1, 0));
        assert!(((b.x - a.x).to_mm() - 34.0).abs() < 0.01);
    }
}
