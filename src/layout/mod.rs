//! Stage `layout`: a deck → `Vec<Sheet>`. Imposes cards at 100 % scale on a paper size,
//! centred, with crop marks outside the card grid (or in its gutters where a margin has
//! no room for them), hex tiles in a honeycomb (`hex`), every piece's cut outline, the
//! registration marks of print-then-cut machines (`registration`), and the duplex back
//! pages mirrored so every back lands behind its face.

pub mod boxes;
pub mod hex;
pub mod labels;
pub mod marks;
pub mod registration;
pub mod sheets;

use crate::length::Length;
use crate::model::{HexTop, Shape};

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
            Paper::A4 => (Length::mm(210.0), Length::mm(297.0)),
            Paper::Letter => (Length::inches(8.5), Length::inches(11.0)),
            Paper::Universal => (Length::mm(210.0), Length::inches(11.0)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
            Paper::Universal => "universal",
        }
    }
}

/// How back pages are arranged for a duplex printer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Duplex {
    /// Flip on the long edge: backs mirrored left ↔ right.
    Long,
    /// Flip on the short edge: backs mirrored top ↔ bottom and turned 180°.
    Short,
    /// No backs interleaved: all fronts, then all backs mirrored as for a long-edge flip,
    /// so a back page glued (turned over its long edge) onto its front page pairs them.
    None,
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
pub fn pieces(deck: &crate::model::Deck, d: usize) -> impl Iterator<Item = (ArtRef, ArtRef)> + '_ {
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

/// How far a cubic Bézier's control points lie along the tangents of a quarter circle,
/// as a share of its radius.
const KAPPA: f32 = 0.552_284_8;

/// A step along an outline's path (see `Outline::path`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PathStep {
    Move(f32, f32),
    Line(f32, f32),
    /// Two control points and the end point.
    Cubic(f32, f32, f32, f32, f32, f32),
    Close,
}

/// The outline of a piece (its cut line), or of the area showing its art: each fills
/// its rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outline {
    Rect(Rect),
    /// A rectangle with corners rounded to this radius.
    Rounded(Rect, Length),
    Circle(Rect),
    Hex(Rect, HexTop),
}

impl Outline {
    /// The outline of a piece of `shape` (with `corner`, for rect pieces) placed at `rect`.
    pub fn of(shape: Shape, corner: Length, rect: Rect) -> Outline {
        match shape {
            Shape::Rect if corner > Length::ZERO => Outline::Rounded(rect, corner),
            Shape::Rect => Outline::Rect(rect),
            Shape::Circle => Outline::Circle(rect),
            Shape::Hex(top) => Outline::Hex(rect, top),
        }
    }

    /// The rectangle it fills.
    pub fn rect(&self) -> Rect {
        match *self {
            Outline::Rect(r) | Outline::Rounded(r, _) | Outline::Circle(r) | Outline::Hex(r, _) => {
                r
            }
        }
    }

    /// The outline as one closed path from the page's top-left corner, `scale` units to
    /// the point (1 for PDF points): corners and circles as quarter-circle Béziers.
    pub fn path(&self, scale: f32) -> Vec<PathStep> {
        let r = self.rect();
        let (x0, y0, x1, y1) = (
            r.x.to_pt() * scale,
            r.y.to_pt() * scale,
            (r.x + r.w).to_pt() * scale,
            (r.y + r.h).to_pt() * scale,
        );
        let corners = |c: f32| {
            let k = KAPPA * c;
            vec![
                PathStep::Move(x0 + c, y0),
                PathStep::Line(x1 - c, y0),
                PathStep::Cubic(x1 - c + k, y0, x1, y0 + c - k, x1, y0 + c),
                PathStep::Line(x1, y1 - c),
                PathStep::Cubic(x1, y1 - c + k, x1 - c + k, y1, x1 - c, y1),
                PathStep::Line(x0 + c, y1),
                PathStep::Cubic(x0 + c - k, y1, x0, y1 - c + k, x0, y1 - c),
                PathStep::Line(x0, y0 + c),
                PathStep::Cubic(x0, y0 + c - k, x0 + c - k, y0, x0 + c, y0),
                PathStep::Close,
            ]
        };
        match *self {
            Outline::Rect(_) => vec![
                PathStep::Move(x0, y0),
                PathStep::Line(x1, y0),
                PathStep::Line(x1, y1),
                PathStep::Line(x0, y1),
                PathStep::Close,
            ],
            Outline::Rounded(_, c) => corners(c.to_pt() * scale),
            Outline::Circle(_) => {
                // Four quarter circles, from the right-most point.
                let (cx, cy, radius) = (
                    (r.x + r.w * 0.5).to_pt() * scale,
                    (r.y + r.h * 0.5).to_pt() * scale,
                    r.w.to_pt() / 2.0 * scale,
                );
                let k = KAPPA * radius;
                vec![
                    PathStep::Move(cx + radius, cy),
                    PathStep::Cubic(cx + radius, cy + k, cx + k, cy + radius, cx, cy + radius),
                    PathStep::Cubic(cx - k, cy + radius, cx - radius, cy + k, cx - radius, cy),
                    PathStep::Cubic(cx - radius, cy - k, cx - k, cy - radius, cx, cy - radius),
                    PathStep::Cubic(cx + k, cy - radius, cx + radius, cy - k, cx + radius, cy),
                    PathStep::Close,
                ]
            }
            Outline::Hex(rect, top) => {
                let unit = crate::length::PT_PER_MM * scale;
                let c = hex::corners(&rect, top);
                std::iter::once(PathStep::Move(c[0].0 * unit, c[0].1 * unit))
                    .chain(c[1..].iter().map(|&(x, y)| PathStep::Line(x * unit, y * unit)))
                    .chain([PathStep::Close])
                    .collect()
            }
        }
    }

    /// The same outline moved right and down.
    pub fn moved(&self, dx: Length, dy: Length) -> Outline {
        let m = |r: Rect| Rect { x: r.x + dx, y: r.y + dy, ..r };
        match *self {
            Outline::Rect(r) => Outline::Rect(m(r)),
            Outline::Rounded(r, c) => Outline::Rounded(m(r), c),
            Outline::Circle(r) => Outline::Circle(m(r)),
            Outline::Hex(r, top) => Outline::Hex(m(r), top),
        }
    }
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

/// The grid of card slots that fits a paper.
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    pub cols: usize,
    pub rows: usize,
    pub origin_x: Length,
    pub origin_y: Length,
    pub card_w: Length,
    pub card_h: Length,
    pub gap: Length,
    /// Art shown past each card's cut; crop marks start beyond it.
    pub bleed: Length,
}

impl Grid {
    /// As many cards as fit with room for their bleed and crop marks, centred on the paper.
    pub fn fit(
        paper: (Length, Length),
        card: (Length, Length),
        gap: Length,
        bleed: Length,
    ) -> Option<Grid> {
        // Room for crop marks; pieces with a gap of their own (beyond the gutter the bleed
        // makes) carry their own guides and need less.
        let guided = gap.to_mm() > 2.0 * bleed.to_mm() + 0.001;
        let margin = bleed
            + if guided {
                Length::mm(UNPRINTABLE_MM + 1.0)
            } else {
                Length::mm(MARK_GAP_MM + MARK_MIN_MM)
            };
        Grid::fit_within(paper, card, gap, bleed, (margin, margin))
    }

    /// As many cards as fit with `margin` (across, down) between the paper's edge and the
    /// cards' outer cut lines, centred on the paper.
    pub fn fit_within(
        paper: (Length, Length),
        card: (Length, Length),
        gap: Length,
        bleed: Length,
        margin: (Length, Length),
    ) -> Option<Grid> {
        let fit = |paper: Length, card: Length, margin: Length| {
            (((paper - margin * 2.0) + gap).to_pt() / (card + gap).to_pt()).floor().max(0.0)
                as usize
        };
        let (cols, rows) = (fit(paper.0, card.0, margin.0), fit(paper.1, card.1, margin.1));
        if cols == 0 || rows == 0 {
            return None;
        }
        let span = |n: usize, card: Length| card * n as f32 + gap * (n as f32 - 1.0);
        let origin_x = (paper.0 - span(cols, card.0)) * 0.5;
        let origin_y = (paper.1 - span(rows, card.1)) * 0.5;
        Some(Grid { cols, rows, origin_x, origin_y, card_w: card.0, card_h: card.1, gap, bleed })
    }

    pub fn per_page(&self) -> usize {
        self.cols * self.rows
    }

    pub fn slot(&self, col: usize, row: usize) -> Rect {
        Rect {
            x: self.origin_x + (self.card_w + self.gap) * col as f32,
            y: self.origin_y + (self.card_h + self.gap) * row as f32,
            w: self.card_w,
            h: self.card_h,
        }
    }

    /// Whether every card's cut, and some of its bleed, lies inside the part of the paper
    /// home printers print (`UNPRINTABLE_MM` in from every edge): nothing inside a cut is lost.
    fn keeps_art(&self) -> bool {
        let need =
            Length::mm(UNPRINTABLE_MM + self.bleed.to_mm().min(MIN_PRINTED_BLEED_MM) - 0.001);
        self.origin_x >= need && self.origin_y >= need
    }

    fn bounds(&self) -> Rect {
        let last = self.slot(self.cols - 1, self.rows - 1);
        Rect {
            x: self.origin_x,
            y: self.origin_y,
            w: last.x + last.w - self.origin_x,
            h: last.y + last.h - self.origin_y,
        }
    }
}

/// One page's places: for each slot, where a face goes and where its back goes (and
/// whether turned); the page's crop marks, its trim, how much bleed it shows around each
/// piece's outline, and how far art reaches past the trim (the BleedBox).
struct Places {
    slots: Vec<(Rect, Rect, bool)>,
    marks: Vec<Mark>,
    trim: Rect,
    shown: Length,
    reach: Length,
}

/// Imposes pieces (face and back of each physical piece) on sheets; with a duplex mode,
/// each front page is followed by its back page, every back behind its face.
/// `back_offset` (mm, right and down) shifts everything on back pages, marks included: the
/// correction for a duplex printer that does not register backs exactly on fronts.
pub fn impose(
    pieces: &[(ArtRef, ArtRef)],
    cut: Cut,
    paper: Paper,
    duplex: Duplex,
    back_offset: (f32, f32),
) -> Result<Vec<Sheet>, String> {
    let imposed = Imposed::new(pieces.to_vec(), cut, paper, duplex, back_offset)?;
    Ok((0..imposed.count()).map(|i| imposed.sheet(i)).collect())
}

/// The pages of a document, each made when it is asked for.
pub trait Pages {
    fn count(&self) -> usize;
    fn page(&self, i: usize) -> std::borrow::Cow<'_, Sheet>;
}

impl Pages for Vec<Sheet> {
    fn count(&self) -> usize {
        self.len()
    }

    fn page(&self, i: usize) -> std::borrow::Cow<'_, Sheet> {
        std::borrow::Cow::Borrowed(&self[i])
    }
}

/// Pieces imposed on sheets as `impose` (and `slug`) would, each sheet made when it is
/// asked for: the 22,000 sheets of a 100,000-card deck were 50 MB held while its PDF was
/// written.
pub struct Imposed {
    pieces: Vec<(ArtRef, ArtRef)>,
    places: Places,
    cut: Cut,
    size: (Length, Length),
    duplex: Duplex,
    back_offset: (Length, Length),
    /// The slug's label, how to print and how wide its text is, once `with_slug` is asked
    /// for.
    slug: Option<(String, String, SlugWidth)>,
    /// The slug layers made so far: one value for each layer the pages share.
    layers: std::cell::RefCell<Vec<std::sync::Arc<marks::Layer>>>,
}

impl Imposed {
    pub fn new(
        pieces: Vec<(ArtRef, ArtRef)>,
        cut: Cut,
        paper: Paper,
        duplex: Duplex,
        back_offset: (f32, f32),
    ) -> Result<Imposed, String> {
        let size = paper.size();
        let places = match cut.shape {
            Shape::Hex(top) => hex_places(size, cut, top, duplex),
            _ => grid_places(size, cut, duplex),
        };
        let mut places = places.ok_or_else(|| {
            format!(
                "a {} × {} piece does not fit on {} paper",
                cut.size.0,
                cut.size.1,
                paper.name()
            )
        })?;
        if cut.registration {
            // The cutter's eye must see nothing but paper around its marks.
            places.slots.retain(|(front, _, _)| {
                registration::clear(&art_extent(cut, front, places.shown), size.0, size.1)
            });
            if places.slots.is_empty() {
                return Err(format!(
                    "a {} × {} piece does not fit on {} paper inside the registration marks",
                    cut.size.0,
                    cut.size.1,
                    paper.name()
                ));
            }
        }
        Ok(Imposed {
            pieces,
            places,
            cut,
            size,
            duplex,
            back_offset: (Length::mm(back_offset.0), Length::mm(back_offset.1)),
            slug: None,
            layers: Default::default(),
        })
    }

    /// Every sheet with a slug (see `slug`).
    pub fn with_slug(mut self, label: &str, printing: &str, width: SlugWidth) -> Imposed {
        self.slug = Some((label.to_string(), printing.to_string(), width));
        self
    }

    /// Whether the slug's label is too long for its line and shortened on some sheet (the
    /// last front sheet's number is the longest).
    pub fn slug_shortened(&self) -> bool {
        let Some(last) = self.pages().checked_sub(1) else { return false };
        let last_front = match self.duplex {
            Duplex::None => last,
            _ => 2 * last,
        };
        self.sheet_of(last_front).1
    }

    /// Pages of pieces: each is a front sheet and a back sheet.
    fn pages(&self) -> usize {
        self.pieces.len().div_ceil(self.places.slots.len())
    }

    pub fn count(&self) -> usize {
        2 * self.pages()
    }

    /// Sheet `i`, in the order `impose` returns them.
    pub fn sheet(&self, i: usize) -> Sheet {
        self.sheet_of(i).0
    }

    /// Sheet `i`, and whether its slug's label had to be shortened.
    fn sheet_of(&self, i: usize) -> (Sheet, bool) {
        let pages = self.pages();
        let (page, side) = match self.duplex {
            Duplex::None if i < pages => (i, Side::Front),
            Duplex::None => (i - pages, Side::Back),
            _ => (i / 2, if i.is_multiple_of(2) { Side::Front } else { Side::Back }),
        };
        let (cut, places, size) = (self.cut, &self.places, self.size);
        let per_page = places.slots.len();
        let pieces = &self.pieces[page * per_page..((page + 1) * per_page).min(self.pieces.len())];
        let outline = |rect: Rect| Outline::of(cut.shape, cut.corner, rect);
        // Crop marks show straight cuts: pieces without them, or with rounded corners, get a
        // guide on their outline (the only way to show a circle or a hexagon).
        let guided = places.marks.is_empty() || cut.corner > Length::ZERO;
        let shown = places.shown;
        let clip = |rect: Rect| {
            (cut.bleed > Length::ZERO).then(|| match cut.shape {
                // Neighbouring hexes' boxes overlap: each shows its bleed only around its edges.
                Shape::Hex(top) => Outline::Hex(hex::grown(&rect, top, shown), top),
                _ => Outline::Rect(rect.grown(shown)),
            })
        };
        let items: Vec<Placed> = pieces
            .iter()
            .zip(&places.slots)
            .map(|(&(face, back), &(front, behind, rotated))| match side {
                Side::Front => Placed {
                    art: face,
                    rect: front,
                    rotated: false,
                    clip: clip(front),
                    bleed: cut.bleed,
                },
                Side::Back => Placed {
                    art: back,
                    rect: behind,
                    rotated,
                    clip: clip(behind),
                    bleed: cut.bleed,
                },
            })
            .collect();
        let cuts: Vec<Outline> = items.iter().map(|p| outline(p.rect)).collect();
        let mut sheet = Sheet {
            guides: if guided { cuts.clone() } else { Vec::new() },
            cuts,
            items,
            marks: places.marks.clone(),
            trim: places.trim,
            bleed: places.reach,
            registration: cut.registration && side == Side::Front,
            printable: Some(
                Rect { x: Length::ZERO, y: Length::ZERO, w: size.0, h: size.1 }
                    .grown(Length::mm(-UNPRINTABLE_MM)),
            ),
            ..Sheet::blank(size.0, size.1)
        }
        .with_side(side);
        if side == Side::Back {
            let (dx, dy) = self.back_offset;
            let shift = |r: Rect| Rect { x: r.x + dx, y: r.y + dy, ..r };
            for item in &mut sheet.items {
                item.rect = shift(item.rect);
                item.clip = item.clip.map(|c| c.moved(dx, dy));
            }
            sheet.marks.iter_mut().for_each(|m| {
                *m = Mark { x1: m.x1 + dx, y1: m.y1 + dy, x2: m.x2 + dx, y2: m.y2 + dy }
            });
            sheet.guides.iter_mut().chain(sheet.cuts.iter_mut()).for_each(|g| *g = g.moved(dx, dy));
            sheet.trim = shift(sheet.trim);
        }
        let mut shortened = false;
        if let Some((label, printing, width)) = &self.slug {
            // The number of the front sheet this one is, or follows.
            let number = match self.duplex {
                Duplex::None if side == Side::Back => pages,
                _ => page + 1,
            };
            let mut layers = self.layers.borrow_mut();
            let slug = Slug { label, printing, width: &**width };
            shortened = slug_sheet(&mut sheet, number, pages, &slug, &mut layers);
        }
        (sheet, shortened)
    }
}

impl Pages for Imposed {
    fn count(&self) -> usize {
        Imposed::count(self)
    }

    fn page(&self, i: usize) -> std::borrow::Cow<'_, Sheet> {
        std::borrow::Cow::Owned(self.sheet(i))
    }
}

/// The box a piece's art covers on the sheet: the piece and the bleed shown around it.
fn art_extent(cut: Cut, rect: &Rect, shown: Length) -> Rect {
    match cut.shape {
        Shape::Hex(top) => hex::grown(rect, top, shown),
        _ => rect.grown(shown),
    }
}

/// Cards and round tokens in rows and columns, backs in the mirrored slot.
fn grid_places(paper: (Length, Length), cut: Cut, duplex: Duplex) -> Option<Places> {
    let grid = home_grid(paper, cut)?;
    // Cards are cut one by one along marks at every card's edges; pieces with a gap get a
    // guide each, which is also the only way to cut a circle.
    let shared_cuts = cut.gap == Length::ZERO && cut.shape == Shape::Rect && !cut.registration;
    let slots = (0..grid.per_page())
        .map(|i| {
            let (col, row) = (i % grid.cols, i / grid.cols);
            let (back_col, back_row, rotated) = match duplex {
                // Glued back to back, a back page is turned over its long edge: mirrored
                // exactly as a long-edge duplex printer does, so every front gets its back.
                Duplex::Long | Duplex::None => (grid.cols - 1 - col, row, false),
                Duplex::Short => (col, grid.rows - 1 - row, true),
            };
            (grid.slot(col, row), grid.slot(back_col, back_row), rotated)
        })
        .collect();
    Some(Places {
        slots,
        marks: if shared_cuts { crop_marks(&grid) } else { Vec::new() },
        trim: grid.bounds(),
        shown: grid.bleed,
        reach: grid.bleed,
    })
}

/// Hex tiles in a honeycomb, each with its own guide; backs at the mirror image of their
/// face's place (the honeycomb is centred, so the mirror image of a page is a page).
fn hex_places(paper: (Length, Length), cut: Cut, top: HexTop, duplex: Duplex) -> Option<Places> {
    let gutter = |shown: Length| if cut.gap > shown * 2.0 { cut.gap } else { shown * 2.0 };
    let edge = Length::mm(if cut.registration {
        registration::art_margin_mm()
    } else {
        UNPRINTABLE_MM + 1.0
    });
    let slug = Length::mm(SLUG_BAND_MM);
    let fit = |shown: Length, slug: Length| {
        hex::honeycomb(paper, cut.size, top, gutter(shown), shown, (edge, edge + slug))
    };
    let most = fit(Length::ZERO, Length::ZERO).len();
    if most == 0 {
        return None;
    }
    // As many tiles as without bleed, with as much of it shown as leaves room, and the slug
    // if it can stay: as for cards.
    let tries = bleed_tries(cut.bleed);
    let (shown, fronts) = [slug, Length::ZERO]
        .iter()
        .flat_map(|&slug| tries.iter().map(move |&shown| (shown, slug)))
        .map(|(shown, slug)| (shown, fit(shown, slug)))
        .find(|(_, places)| places.len() >= most)
        .unwrap_or_else(|| (Length::ZERO, fit(Length::ZERO, Length::ZERO)));
    let slots = fronts
        .iter()
        .map(|r| match duplex {
            Duplex::Long | Duplex::None => (*r, Rect { x: paper.0 - r.x - r.w, ..*r }, false),
            Duplex::Short => (*r, Rect { y: paper.1 - r.y - r.h, ..*r }, true),
        })
        .collect();
    let (x0, y0) = fronts
        .iter()
        .fold((f32::MAX, f32::MAX), |(x, y), r| (x.min(r.x.to_mm()), y.min(r.y.to_mm())));
    let (x1, y1) = fronts.iter().fold((f32::MIN, f32::MIN), |(x, y), r| {
        (x.max((r.x + r.w).to_mm()), y.max((r.y + r.h).to_mm()))
    });
    let trim = Rect {
        x: Length::mm(x0),
        y: Length::mm(y0),
        w: Length::mm(x1 - x0),
        h: Length::mm(y1 - y0),
    };
    // Past a hexagon's corners, its grown edges meet further out than the bleed.
    let reach = trim.x - hex::grown(&trim, top, shown).x;
    Some(Places { slots, marks: Vec::new(), trim, shown, reach })
}

/// The bleed to show, most first: the whole bleed, then quarter millimetres down from it.
fn bleed_tries(bleed: Length) -> Vec<Length> {
    let quarters = (bleed.to_mm() / 0.25 + 1e-3).floor() as i32;
    std::iter::once(bleed)
        .chain((1..=quarters).rev().map(|q| Length::mm(q as f32 * 0.25)))
        .filter(|s| *s > Length::ZERO)
        .collect()
}

impl Sheet {
    fn with_side(mut self, side: Side) -> Sheet {
        self.side = side;
        self
    }
}

/// Decks of more sheets than this get slugs without sheet numbers (see `slug`).
const MAX_NUMBERED_SHEETS: usize = 100;

/// Writes a slug on each home sheet, outside the cards and their marks and at least
/// 5 mm from the paper's edge: what is printed (`label`), which sheet and side, how it
/// must be printed, and a 50 mm scale bar to check the print was not scaled. Where the
/// margins are all taken by crop marks, the sheet gets none.
pub fn slug(sheets: &mut [Sheet], label: &str, printing: &str, width: &dyn Fn(&str) -> f32) {
    let fronts = sheets.iter().filter(|s| s.side == Side::Front).count();
    let mut n = 0;
    // The slug layers made so far.
    let mut made: Vec<std::sync::Arc<marks::Layer>> = Vec::new();
    let slug = Slug { label, printing, width };
    for sheet in sheets.iter_mut() {
        if sheet.side == Side::Front {
            n += 1;
        }
        slug_sheet(sheet, n, fronts, &slug, &mut made);
    }
}

/// How wide a slug's text is, in ems of the bundled sans the PDF draws it in: measured by
/// the caller, which has the fonts (`render::textbox::Metrics`).
pub type SlugWidth = std::sync::Arc<dyn Fn(&str) -> f32 + Send + Sync>;

/// What a slug says, and how wide its text is.
struct Slug<'a> {
    label: &'a str,
    printing: &'a str,
    width: &'a dyn Fn(&str) -> f32,
}

/// The slug's first line in a column `room` mm wide: the label with the sheet's number
/// (`which`) at the right when both fit at the slug's size, after the label otherwise, in
/// smaller type when that is what fits; at the smallest, the label shortened with "…".
struct FirstLine {
    text: String,
    /// Whether `which` is left to be drawn at the right.
    apart: bool,
    size: f32,
    shortened: bool,
}

fn first_line(label: &str, which: &str, room: f32, width: &dyn Fn(&str) -> f32) -> FirstLine {
    const SIZES_MM: [f32; 3] = [1.5, 1.25, 1.0];
    let fits = |text: &str, size: f32| width(text) * size <= room;
    if fits(&format!("{label}   {which}"), SIZES_MM[0]) {
        return FirstLine {
            text: label.to_string(),
            apart: true,
            size: SIZES_MM[0],
            shortened: false,
        };
    }
    let joined = format!("{label} · {which}");
    if let Some(&size) = SIZES_MM.iter().find(|&&size| fits(&joined, size)) {
        return FirstLine { text: joined, apart: false, size, shortened: false };
    }
    // The longest start of the label that fits, found by halving (a label is a stranger's
    // text, of any length).
    let size = SIZES_MM[2];
    let ends: Vec<usize> =
        label.char_indices().map(|(i, _)| i).chain(std::iter::once(label.len())).collect();
    let cut = |keep: usize| format!("{}… · {which}", label[..ends[keep]].trim_end());
    let (mut lo, mut hi) = (0, ends.len() - 1);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if fits(&cut(mid), size) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    FirstLine { text: cut(lo), apart: false, size, shortened: true }
}

/// `slug` on one sheet: front sheet `n` of `fronts` (or its back), with the layers `made` so
/// far for the others. Returns whether the label was shortened to fit.
fn slug_sheet(
    sheet: &mut Sheet,
    n: usize,
    fronts: usize,
    slug: &Slug,
    made: &mut Vec<std::sync::Arc<marks::Layer>>,
) -> bool {
    const EDGE_MM: f32 = UNPRINTABLE_MM;
    const TEXT_MM: f32 = 2.0;
    let (w, h) = (sheet.width.to_mm(), sheet.height.to_mm());
    let art_top = sheet.trim.y.to_mm() - sheet.bleed.to_mm();
    let art_bottom = (sheet.trim.y + sheet.trim.h).to_mm() + sheet.bleed.to_mm();
    let ys = sheet.marks.iter().flat_map(|m| [m.y1.to_mm(), m.y2.to_mm()]);
    let bottom_used = ys.clone().fold(art_bottom, f32::max);
    let top_used = ys.fold(art_top, f32::min);
    let band = SLUG_BAND_MM;
    // The baseline: in the bottom margin when it has room, else the top one.
    let baseline = if h - EDGE_MM - bottom_used >= band {
        h - EDGE_MM - 0.3
    } else if top_used - EDGE_MM >= band {
        EDGE_MM + TEXT_MM + 0.3
    } else {
        return false;
    };
    let side = if sheet.side == Side::Front { "front" } else { "back" };
    // Two short lines beside the bar: what, then how to print; which sheet, at the right.
    // Sheet numbers on decks of up to 100 sheets: beyond, every front's slug is the same
    // (and every back's), drawn once as one reusable object instead of a text to lay
    // out on each of thousands of pages.
    let which = if fronts <= MAX_NUMBERED_SHEETS {
        format!("sheet {n} of {fronts}, {side}")
    } else {
        format!("{fronts} sheets, {side}")
    };
    let how = format!(
        "{} · print at 100 % (actual size), not fit to page · the bar is 50 mm",
        slug.printing
    );
    // Clear of the bottom-left registration mark, where there is one.
    let beside_mark = if sheet.registration { registration::SLUG_FROM_MM } else { 0.0 };
    let x0 = EDGE_MM.max((w - 170.0) / 2.0).max(beside_mark);
    let x_end = (x0 + 170.0).min(w - EDGE_MM);
    let bar_y = baseline - 0.4;
    let size = TEXT_MM * 0.75;
    let (tx, top) = (x0 + 53.0, baseline - size * 1.15);
    // The sheet number goes at the right of the first line, its own small layer, when
    // the label leaves room for it; a longer label is followed by it on the same line.
    let first = first_line(slug.label, &which, x_end - tx, slug.width);
    let mut bar = marks::Layer::default();
    bar.push(marks::line((x0, bar_y), (x0 + 50.0, bar_y), 0.3, marks::BLACK));
    for i in 0..=5 {
        let x = x0 + i as f32 * 10.0;
        bar.push(marks::line(
            (x, bar_y - if i % 5 == 0 { 1.6 } else { 0.9 }),
            (x, bar_y),
            0.2,
            marks::BLACK,
        ));
    }
    bar.push(marks::Text::new((tx, top), first.size, first.text));
    bar.push(marks::Text::new((tx, baseline), size, how));
    // Identical layers are one value, not one per page.
    let mut intern = |layer: marks::Layer| match made.iter().find(|m| ***m == layer) {
        Some(same) => same.clone(),
        None => {
            let new = std::sync::Arc::new(layer);
            made.push(new.clone());
            new
        }
    };
    sheet.decor = vec![intern(bar)];
    if first.apart {
        let mut number = marks::Layer::default();
        number.push(marks::Text::new((x_end, top), size, which).anchor(marks::Anchor::End));
        sheet.decor.push(intern(number));
    }
    first.shortened
}

/// One card side on a page of its own, the page the card plus its bleed: what print
/// services ask for. The TrimBox is the card, the BleedBox the page; no marks.
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

/// The grid for home printing: as many cards per page as without bleed, with as much of
/// the art's bleed shown around each card as leaves room for that (cards are spaced by
/// twice the shown bleed, so neighbours' bleeds meet between them). Fewer cards per page
/// would waste more paper than a millimetre of bleed saves.
fn home_grid(paper: (Length, Length), cut: Cut) -> Option<Grid> {
    let gutter = |shown: Length| if cut.gap > shown * 2.0 { cut.gap } else { shown * 2.0 };
    // As many cards as fit with room for marks, but no more than keep their cuts (and a
    // little bleed) inside the printable area.
    let inside = Length::mm(UNPRINTABLE_MM + cut.bleed.to_mm().min(MIN_PRINTED_BLEED_MM));
    let printable_most =
        Grid::fit_within(paper, cut.size, gutter(Length::ZERO), Length::ZERO, (inside, inside))?
            .per_page();
    let most = Grid::fit(paper, cut.size, gutter(Length::ZERO), Length::ZERO)?
        .per_page()
        .min(printable_most);
    let tries = bleed_tries(cut.bleed);
    let crop_marked = cut.shape == Shape::Rect && cut.gap == Length::ZERO && !cut.registration;
    if !crop_marked && !cut.registration {
        return guided_grid(paper, cut, most, &tries);
    }
    // From the cards' outer cut lines to the paper's edge: the bleed shown, then room for
    // crop marks that keep 5 mm from the edge (or for the registration marks' blank), or,
    // where crop marks go in the gutters between cards instead, a little paper: the bleed
    // may reach into the band printers leave blank (losing a sliver of insurance on the
    // outer edges, not the cut), never to the paper's edge.
    let outside = Length::mm(if cut.registration {
        registration::art_margin_mm()
    } else {
        MARK_GAP_MM + MARK_MIN_MM + UNPRINTABLE_MM
    });
    let edge = Length::mm(ART_EDGE_MM);
    // Outer marks on both axes first, then in the gutters across or down, then both; each
    // with the slug, then without it; each with as much bleed as fits.
    for (marks_across, marks_down) in [(true, true), (true, false), (false, true), (false, false)] {
        if cut.registration && !(marks_across && marks_down) {
            continue;
        }
        for slug in [Length::mm(SLUG_BAND_MM), Length::ZERO] {
            for &shown in &tries {
                // The slug's band lies beyond the 5 mm, whatever the art may reach into.
                let margin = |outer: bool, slug: Length| {
                    shown
                        + if outer {
                            outside + slug
                        } else if slug > Length::ZERO {
                            Length::mm(UNPRINTABLE_MM) + slug
                        } else {
                            edge
                        }
                };
                let grid = Grid::fit_within(
                    paper,
                    cut.size,
                    gutter(shown),
                    shown,
                    (margin(marks_across, Length::ZERO), margin(marks_down, slug)),
                );
                if let Some(grid) = grid.filter(|g| {
                    g.per_page() >= most
                        && (marks_across || g.rows > 1)
                        && (marks_down || g.cols > 1)
                        && g.keeps_art()
                }) {
                    return Some(grid);
                }
            }
        }
    }
    // No bleed to make gutters of: marks as long as the margins allow.
    no_bleed_grid(paper, cut.size, gutter(Length::ZERO))
}

/// The last resort: no bleed shown, the cards as far from the edge as the printable area
/// asks, marks as long as the margins allow.
fn no_bleed_grid(paper: (Length, Length), card: (Length, Length), gap: Length) -> Option<Grid> {
    let printable = Length::mm(UNPRINTABLE_MM);
    Grid::fit(paper, card, gap, Length::ZERO)
        .filter(Grid::keeps_art)
        .or_else(|| Grid::fit_within(paper, card, gap, Length::ZERO, (printable, printable)))
}

/// The grid for pieces with guides of their own (tokens, pieces with a gap): kept 5 mm
/// and the slug's band from the paper's edge, then without the slug, then without the
/// 5 mm, each with as much bleed as fits.
fn guided_grid(paper: (Length, Length), cut: Cut, most: usize, tries: &[Length]) -> Option<Grid> {
    let gutter = |shown: Length| if cut.gap > shown * 2.0 { cut.gap } else { shown * 2.0 };
    let edge = Length::mm(UNPRINTABLE_MM);
    for (keep_edge, slug) in [(true, true), (true, false), (false, true), (false, false)] {
        let reserve_x = if keep_edge { edge } else { Length::ZERO };
        let reserve_y = reserve_x + if slug { Length::mm(SLUG_BAND_MM) } else { Length::ZERO };
        for &shown in tries {
            // `Grid::fit`'s margin for this bleed and gutter, and the reserve on top.
            let guided = gutter(shown).to_mm() > 2.0 * shown.to_mm() + 0.001;
            let margin = |reserve: Length| {
                shown
                    + if guided {
                        Length::mm(UNPRINTABLE_MM + 1.0)
                    } else {
                        Length::mm(MARK_GAP_MM + MARK_MIN_MM)
                    }
                    + reserve
            };
            let grid = Grid::fit_within(
                paper,
                cut.size,
                gutter(shown),
                shown,
                (margin(reserve_x), margin(reserve_y)),
            );
            if let Some(grid) = grid.filter(|g| g.per_page() >= most && g.keeps_art()) {
                return Some(grid);
            }
        }
    }
    no_bleed_grid(paper, cut.size, gutter(Length::ZERO))
}

/// Marks at every card's cut lines (both edges of each gutter, for rotary trimmers that
/// cut strip by strip), outside the grid and its bleed by a gap, as long as the margin
/// allows without entering the unprintable edge. Where a margin has no room for them
/// (63 × 88 mm cards down US Letter), the lines' marks go in the gutters between cards
/// instead, across the bleed that is cut away; without gutters, they are as short as
/// allowed, edge or not.
fn crop_marks(grid: &Grid) -> Vec<Mark> {
    let gap = Length::mm(MARK_GAP_MM) + grid.bleed;
    let gutters = grid.gap > Length::ZERO;
    let length = |margin: Length, reserve: f32, gutter_cells: usize| {
        let room = margin.to_mm() - gap.to_mm() - UNPRINTABLE_MM;
        if room >= MARK_MIN_MM - 0.001 || !gutters || gutter_cells < 2 {
            Some(Length::mm((room - reserve).clamp(MARK_MIN_MM, MARK_MAX_MM)))
        } else {
            None
        }
    };
    let b = grid.bounds();
    let (len_x, len_y) =
        (length(grid.origin_x, 0.0, grid.cols), length(grid.origin_y, SLUG_BAND_MM, grid.rows));
    let mut xs: Vec<Length> = (0..grid.cols)
        .flat_map(|c| {
            let s = grid.slot(c, 0);
            [s.x, s.x + s.w]
        })
        .collect();
    let mut ys: Vec<Length> = (0..grid.rows)
        .flat_map(|r| {
            let s = grid.slot(0, r);
            [s.y, s.y + s.h]
        })
        .collect();
    // Cards that touch share a cut line: one mark, not two on top of each other.
    xs.dedup_by(|a, b| (a.to_mm() - b.to_mm()).abs() < 0.01);
    ys.dedup_by(|a, b| (a.to_mm() - b.to_mm()).abs() < 0.01);
    let mut marks = Vec::new();
    for &x in &xs {
        match len_y {
            Some(len) => {
                marks.push(Mark { x1: x, y1: b.y - gap, x2: x, y2: b.y - gap - len });
                marks.push(Mark { x1: x, y1: b.y + b.h + gap, x2: x, y2: b.y + b.h + gap + len });
            }
            None => marks.extend((1..grid.rows).map(|r| Mark {
                x1: x,
                y1: grid.slot(0, r - 1).y + grid.card_h,
                x2: x,
                y2: grid.slot(0, r).y,
            })),
        }
    }
    for &y in &ys {
        match len_x {
            Some(len) => {
                marks.push(Mark { x1: b.x - gap, y1: y, x2: b.x - gap - len, y2: y });
                marks.push(Mark { x1: b.x + b.w + gap, y1: y, x2: b.x + b.w + gap + len, y2: y });
            }
            None => marks.extend((1..grid.cols).map(|c| Mark {
                x1: grid.slot(c - 1, 0).x + grid.card_w,
                y1: y,
                x2: grid.slot(c, 0).x,
                y2: y,
            })),
        }
    }
    marks
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
            let sheets = impose(&pieces(9), cut(), paper, Duplex::Long, (0.0, 0.0)).unwrap();
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
        let long = impose(&pieces(4), cut(), Paper::A4, Duplex::Long, (0.0, 0.0)).unwrap();
        assert_eq!(long.len(), 2);
        let grid = Grid::fit(Paper::A4.size(), poker(), Length::ZERO, Length::ZERO).unwrap();
        // Card 0 is top-left on the front, so its back is top-right.
        assert_eq!(long[1].items[0].rect, grid.slot(2, 0));
        assert_eq!(long[1].items[3].rect, grid.slot(2, 1));
        let short = impose(&pieces(4), cut(), Paper::A4, Duplex::Short, (0.0, 0.0)).unwrap();
        assert_eq!(short[1].items[0].rect, grid.slot(0, 2));
        assert!(short[1].items[0].rotated);
        let none = impose(&pieces(4), cut(), Paper::A4, Duplex::None, (0.0, 0.0)).unwrap();
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
        let sheets = impose(&pieces(10), cut, Paper::A4, Duplex::Long, (0.0, 0.0)).unwrap();
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
