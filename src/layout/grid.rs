//! Grids of equal slots on a page: as many pieces as fit, with the bleed shown and the
//! crop marks between them.

use super::{
    registration, Cut, Mark, Rect, ART_EDGE_MM, MARK_GAP_MM, MARK_MAX_MM, MARK_MIN_MM,
    MIN_PRINTED_BLEED_MM, SLUG_BAND_MM, UNPRINTABLE_MM,
};
use crate::length::Length;
use crate::model::Shape;

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
    pub(super) fn keeps_art(&self) -> bool {
        let need =
            Length::mm(UNPRINTABLE_MM + self.bleed.to_mm().min(MIN_PRINTED_BLEED_MM) - 0.001);
        self.origin_x >= need && self.origin_y >= need
    }

    pub(super) fn bounds(&self) -> Rect {
        let last = self.slot(self.cols - 1, self.rows - 1);
        Rect {
            x: self.origin_x,
            y: self.origin_y,
            w: last.x + last.w - self.origin_x,
            h: last.y + last.h - self.origin_y,
        }
    }
}

/// The grid for home printing: as many cards per page as without bleed, with as much of
/// the art's bleed shown around each card as leaves room for that (cards are spaced by
/// twice the shown bleed, so neighbours' bleeds meet between them). Fewer cards per page
/// would waste more paper than a millimetre of bleed saves.
pub(super) fn home_grid(paper: (Length, Length), cut: Cut) -> Option<Grid> {
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
pub(super) fn no_bleed_grid(
    paper: (Length, Length),
    card: (Length, Length),
    gap: Length,
) -> Option<Grid> {
    let printable = Length::mm(UNPRINTABLE_MM);
    Grid::fit(paper, card, gap, Length::ZERO)
        .filter(Grid::keeps_art)
        .or_else(|| Grid::fit_within(paper, card, gap, Length::ZERO, (printable, printable)))
}

/// The grid for pieces with guides of their own (tokens, pieces with a gap): kept 5 mm
/// and the slug's band from the paper's edge, then without the slug, then without the
/// 5 mm, each with as much bleed as fits.
pub(super) fn guided_grid(
    paper: (Length, Length),
    cut: Cut,
    most: usize,
    tries: &[Length],
) -> Option<Grid> {
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
pub(super) fn crop_marks(grid: &Grid) -> Vec<Mark> {
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
    let len_y = length(grid.origin_y, SLUG_BAND_MM, grid.rows);
    // Where the top and bottom margins leave the slug no room (cards on a landscape page),
    // the marks at the sides leave it its band: it goes along the right margin.
    let room_y = grid.origin_y.to_mm() - gap.to_mm() - UNPRINTABLE_MM;
    let slug_below = len_y.is_some_and(|len| room_y - len.to_mm() >= SLUG_BAND_MM);
    let side_reserve = if slug_below { 0.0 } else { SLUG_BAND_MM + 0.05 };
    let len_x = length(grid.origin_x, side_reserve, grid.cols);
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

/// The bleed to show, most first: the whole bleed, then quarter millimetres down from it.
pub(super) fn bleed_tries(bleed: Length) -> Vec<Length> {
    let quarters = (bleed.to_mm() / 0.25 + 1e-3).floor() as i32;
    std::iter::once(bleed)
        .chain((1..=quarters).rev().map(|q| Length::mm(q as f32 * 0.25)))
        .filter(|s| *s > Length::ZERO)
        .collect()
}
