//! Imposition: pieces placed on pages of a paper, face and back, with crop marks; each
//! page made when it is asked for (`Imposed`, `Pages`).

use super::grid::{bleed_tries, crop_marks, home_grid};
use super::slug::{slug_sheet, Slug, SlugWidth, SlugWords};
use super::{
    hex, marks, registration, ArtRef, BackMirror, Cut, Duplex, Mark, Orientation, Outline, Paper,
    Placed, Rect, Sheet, Side, SLUG_BAND_MM, UNPRINTABLE_MM,
};
use crate::length::Length;
use crate::model::{HexTop, Shape};

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
    orientation: Orientation,
    back_offset: (f32, f32),
) -> Result<Vec<Sheet>, String> {
    let imposed = Imposed::new(pieces.to_vec(), cut, paper, duplex, orientation, back_offset)?;
    Ok((0..imposed.count()).map(|i| imposed.sheet(i)).collect())
}

/// Whether pieces cut as `cut` fit on `paper` (width × height, either way round) laid out
/// for `duplex`, turned as `orientation` allows: what `Imposed::new` needs, asked before
/// a build (validate's check of a deck against the paper).
pub fn fits_on(
    paper: (Length, Length),
    cut: Cut,
    duplex: Duplex,
    orientation: Orientation,
) -> bool {
    let sizes = orientation.sizes(paper);
    match duplex {
        Duplex::Fold => fold_places(&sizes, cut).is_ok(),
        _ => turned_places(&sizes, cut, duplex).is_ok(),
    }
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
    /// A gutter-fold page's fold line (`--duplex fold`).
    fold: Option<FoldLine>,
    duplex: Duplex,
    back_offset: (Length, Length),
    /// The slug's label, how to print and how wide its text is, once `with_slug` is asked
    /// for.
    slug: Option<(String, String, SlugWidth)>,
    /// The slug layers made so far: one value for each layer the pages share.
    layers: std::cell::RefCell<Vec<std::sync::Arc<marks::Layer>>>,
    /// What the slug and the fold line say, in the edition's language.
    words: SlugWords,
}

impl Imposed {
    pub fn new(
        pieces: Vec<(ArtRef, ArtRef)>,
        cut: Cut,
        paper: Paper,
        duplex: Duplex,
        orientation: Orientation,
        back_offset: (f32, f32),
    ) -> Result<Imposed, String> {
        let sizes = orientation.sizes(paper.size());
        let turned = |size: (Length, Length)| match size.0 > size.1 {
            true => format!("{} paper turned landscape", paper.name()),
            false => format!("{} paper", paper.name()),
        };
        let on = match orientation {
            Orientation::Auto => format!("{} paper, portrait or landscape", paper.name()),
            _ => turned(sizes[0]),
        };
        let mut fold = None;
        let placed = match duplex {
            Duplex::Fold if cut.registration => {
                return Err("a gutter-fold sheet is folded before it is cut: a print-and-cut machine's registration marks (--cut) cannot be used with --duplex fold".to_string())
            }
            Duplex::Fold => fold_places(&sizes, cut).map(|(size, line, places)| {
                fold = Some(line);
                (size, places)
            }),
            _ => turned_places(&sizes, cut, duplex),
        };
        let (size, places) = match placed {
            Ok(placed) => placed,
            Err(Misfit::Paper) => {
                return Err(match duplex {
                    Duplex::Fold => format!(
                        "a {} × {} piece does not fit on half of {on}, as a gutter fold needs (fronts beside their backs): print it with --duplex long or short",
                        cut.size.0, cut.size.1
                    ),
                    _ => format!("a {} × {} piece does not fit on {on}", cut.size.0, cut.size.1),
                })
            }
            Err(Misfit::Registration) => {
                return Err(format!(
                    "a {} × {} piece does not fit on {on} inside the registration marks",
                    cut.size.0, cut.size.1
                ))
            }
        };
        Ok(Imposed {
            pieces,
            places,
            cut,
            size,
            fold,
            duplex,
            back_offset: (Length::mm(back_offset.0), Length::mm(back_offset.1)),
            slug: None,
            layers: Default::default(),
            words: SlugWords::default(),
        })
    }

    /// Every sheet with a slug (see `slug`).
    pub fn with_slug(mut self, label: &str, printing: &str, width: SlugWidth) -> Imposed {
        self.slug = Some((label.to_string(), printing.to_string(), width));
        self
    }

    /// The slug's and the fold line's words in the edition's language (default English).
    pub fn with_words(mut self, words: SlugWords) -> Imposed {
        self.words = words;
        self
    }

    /// Whether the slug's label is too long for its line and shortened on some sheet (the
    /// last front sheet's number is the longest).
    pub fn slug_shortened(&self) -> bool {
        let Some(last) = self.pages().checked_sub(1) else { return false };
        let last_front = match self.duplex {
            Duplex::None | Duplex::Fold => last,
            _ => 2 * last,
        };
        self.sheet_of(last_front).1
    }

    /// Pages of pieces: each is a front sheet and a back sheet.
    fn pages(&self) -> usize {
        self.pieces.len().div_ceil(self.places.slots.len())
    }

    pub fn count(&self) -> usize {
        match self.duplex {
            // Each page holds its fronts and their backs.
            Duplex::Fold => self.pages(),
            _ => 2 * self.pages(),
        }
    }

    /// Whether the pages stand landscape (wider than tall).
    pub fn landscape(&self) -> bool {
        self.size.0 > self.size.1
    }

    /// Where a gutter-fold page folds, `None` for other pages.
    pub fn fold(&self) -> Option<FoldLine> {
        self.fold
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
            Duplex::Fold => (i, Side::Front),
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
        let folded = self.fold.is_some();
        let back = |(_, back): (ArtRef, ArtRef), (_, behind, rotated): (Rect, Rect, bool)| Placed {
            art: back,
            rect: behind,
            rotated,
            clip: clip(behind),
            bleed: cut.bleed,
        };
        // A gutter-fold page holds each front's back too, at its mirror image.
        let backs: Vec<Placed> = match folded {
            true => pieces.iter().zip(&places.slots).map(|(&p, &s)| back(p, s)).collect(),
            false => Vec::new(),
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
        // The cut is made through both layers, along the fronts' lines.
        let cuts: Vec<Outline> = items.iter().map(|p| outline(p.rect)).collect();
        let guides: Vec<Outline> = match guided {
            true => items.iter().chain(&backs).map(|p| outline(p.rect)).collect(),
            false => Vec::new(),
        };
        let items: Vec<Placed> = items.into_iter().chain(backs).collect();
        let mut sheet = Sheet {
            guides,
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
            let slug = Slug { label, printing, width: &**width, words: &self.words };
            shortened = slug_sheet(&mut sheet, number, pages, &slug, &mut layers);
        }
        if let Some(line) = self.fold {
            let mut layers = self.layers.borrow_mut();
            let layer = fold_layer(line, size, places.trim, &self.words.fold);
            sheet.decor.push(marks::intern(&mut layers, layer));
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

/// Why no page holds a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Misfit {
    /// It fits on the paper no way round.
    Paper,
    /// It fits, but not clear of a print-and-cut machine's registration marks.
    Registration,
}

/// The page, of `sizes` (portrait first), that holds the most pieces with some of their
/// bleed shown (ties: the first), and its places, each back behind its face as `duplex` turns that page over.
fn turned_places(
    sizes: &[(Length, Length)],
    cut: Cut,
    duplex: Duplex,
) -> Result<((Length, Length), Places), Misfit> {
    let mut best: Result<((Length, Length), Places), Misfit> = Err(Misfit::Paper);
    for &size in sizes {
        let mirror = BackMirror::of(duplex, size);
        let found = match cut.shape {
            Shape::Hex(top) => hex_places(size, cut, top, mirror),
            _ => grid_places(size, cut, mirror),
        };
        let Some(mut places) = found else { continue };
        if cut.registration {
            // The cutter's eye must see nothing but paper around its marks.
            places.slots.retain(|(front, _, _)| {
                registration::clear(&art_extent(cut, front, places.shown), size.0, size.1)
            });
            if places.slots.is_empty() {
                best = best.or(Err(Misfit::Registration));
                continue;
            }
        }
        // More cards win, but not at the cost of every card's printed bleed: a page that
        // holds one card more only by showing none (bridge cards on A4 turned, five
        // abutting across) loses to one that shows some.
        let rank =
            |p: &Places| (cut.bleed == Length::ZERO || p.shown > Length::ZERO, p.slots.len());
        let more = match &best {
            Ok((_, b)) => rank(&places) > rank(b),
            Err(_) => true,
        };
        if more {
            best = Ok((size, places));
        }
    }
    best
}

/// Where a gutter-fold page folds: down its middle (`Down(x)`, fronts on the left) or
/// across it (`Across(y)`, fronts on top), in mm from its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FoldLine {
    Down(f32),
    Across(f32),
}

/// A gutter-fold page: the paper portrait or turned landscape (of `sizes`, as
/// `--orientation` allows), folded down or across its
/// middle, whichever fits the most pieces on one half (ties: portrait, then down); the
/// fronts on one half as a page of that half's size would hold them, each back at its
/// front's mirror image about the fold (turned half a turn when the fold runs across, as
/// folding turns it). The crop marks of both halves meet in the gutter, which stays
/// free of art: the glue holds the halves together there.
fn fold_places(
    sizes: &[(Length, Length)],
    cut: Cut,
) -> Result<((Length, Length), FoldLine, Places), Misfit> {
    let mut best: Option<((Length, Length), bool, Places)> = None;
    for &size in sizes {
        for across in [false, true] {
            let half = if across { (size.0, size.1 * 0.5) } else { (size.0 * 0.5, size.1) };
            // (The half's own backs are not used: they are mirrored about the fold below.)
            let found = match cut.shape {
                Shape::Hex(top) => hex_places(half, cut, top, BackMirror::Columns),
                _ => grid_places(half, cut, BackMirror::Columns),
            };
            let Some(found) = found else { continue };
            if best.as_ref().is_none_or(|(_, _, b)| found.slots.len() > b.slots.len()) {
                best = Some((size, across, found));
            }
        }
    }
    let (size, across, half) = best.ok_or(Misfit::Paper)?;
    let mirror = |r: Rect| match across {
        true => Rect { y: size.1 - r.y - r.h, ..r },
        false => Rect { x: size.0 - r.x - r.w, ..r },
    };
    let slots = half.slots.iter().map(|&(front, _, _)| (front, mirror(front), across)).collect();
    let mirrored = |m: &Mark| match across {
        true => Mark { y1: size.1 - m.y1, y2: size.1 - m.y2, ..*m },
        false => Mark { x1: size.0 - m.x1, x2: size.0 - m.x2, ..*m },
    };
    let marks = half.marks.iter().copied().chain(half.marks.iter().map(mirrored)).collect();
    let (a, b) = (half.trim, mirror(half.trim));
    let (x, y) = (a.x.to_mm().min(b.x.to_mm()), a.y.to_mm().min(b.y.to_mm()));
    let right = (a.x + a.w).to_mm().max((b.x + b.w).to_mm());
    let bottom = (a.y + a.h).to_mm().max((b.y + b.h).to_mm());
    let trim = Rect {
        x: Length::mm(x),
        y: Length::mm(y),
        w: Length::mm(right - x),
        h: Length::mm(bottom - y),
    };
    let line = match across {
        true => FoldLine::Across(size.1.to_mm() / 2.0),
        false => FoldLine::Down(size.0.to_mm() / 2.0),
    };
    Ok((size, line, Places { slots, marks, trim, shown: half.shown, reach: half.reach }))
}

/// The fold line, dashed across the card grid and solid at the paper's edge where it
/// starts, with how to fold beside it.
fn fold_layer(line: FoldLine, size: (Length, Length), trim: Rect, say: &str) -> marks::Layer {
    let (w, h) = (size.0.to_mm(), size.1.to_mm());
    let grey = [90, 90, 90];
    let dashed = |from, to| marks::PageMark::Line {
        from,
        to,
        width: 0.3,
        colour: grey,
        dash: Some((3.0, 2.0)),
    };
    let edge = UNPRINTABLE_MM;
    let mut layer = marks::Layer::default();
    match line {
        FoldLine::Down(x) => {
            let (top, bottom) = (trim.y.to_mm() - 2.0, (trim.y + trim.h).to_mm() + 2.0);
            layer.push(marks::line((x, edge), (x, edge + 4.0), 0.3, marks::BLACK));
            layer.push(dashed((x, top.max(edge + 5.0)), (x, bottom.min(h - edge))));
            // Read upwards, its letters standing to the left of the line.
            layer.push(
                marks::Text::new((x - 1.0, bottom.min(h - edge) - 2.0), 2.2, say)
                    .colour(grey)
                    .rotate(-90.0),
            );
        }
        FoldLine::Across(y) => {
            let (left, right) = (trim.x.to_mm() - 2.0, (trim.x + trim.w).to_mm() + 2.0);
            layer.push(marks::line((edge, y), (edge + 4.0, y), 0.3, marks::BLACK));
            layer.push(marks::line((w - edge - 4.0, y), (w - edge, y), 0.3, marks::BLACK));
            layer.push(dashed((left.max(edge + 5.0), y), (right.min(w - edge - 5.0), y)));
            layer.push(
                marks::Text::new((left.max(edge + 5.0) + 2.0, y - 1.2), 2.2, say).colour(grey),
            );
        }
    }
    layer
}

/// Cards and round tokens in rows and columns, backs in the mirrored slot.
fn grid_places(paper: (Length, Length), cut: Cut, mirror: BackMirror) -> Option<Places> {
    let grid = home_grid(paper, cut)?;
    // Cards are cut one by one along marks at every card's edges; pieces with a gap get a
    // guide each, which is also the only way to cut a circle.
    let shared_cuts = cut.gap == Length::ZERO && cut.shape == Shape::Rect && !cut.registration;
    let slots = (0..grid.per_page())
        .map(|i| {
            let (col, row) = (i % grid.cols, i / grid.cols);
            // The grid is centred, so a mirrored slot is the slot mirrored.
            let (back_col, back_row, rotated) = match mirror {
                BackMirror::Columns => (grid.cols - 1 - col, row, false),
                BackMirror::Rows => (col, grid.rows - 1 - row, true),
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
fn hex_places(
    paper: (Length, Length),
    cut: Cut,
    top: HexTop,
    mirror: BackMirror,
) -> Option<Places> {
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
        .map(|r| match mirror {
            BackMirror::Columns => (*r, Rect { x: paper.0 - r.x - r.w, ..*r }, false),
            BackMirror::Rows => (*r, Rect { y: paper.1 - r.y - r.h, ..*r }, true),
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

impl Sheet {
    fn with_side(mut self, side: Side) -> Sheet {
        self.side = side;
        self
    }
}
