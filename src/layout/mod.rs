//! Stage `layout`: a deck → `Vec<Sheet>`. Imposes cards at 100 % scale on a paper size,
//! centred, with crop marks outside the card grid, and the duplex back pages mirrored
//! so every back lands behind its face.

pub mod sheets;

use crate::length::Length;

/// Paper the sheets are printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Paper {
    /// 210 × 297 mm.
    A4,
    /// 8.5 × 11 in.
    Letter,
}

impl Paper {
    pub fn size(self) -> (Length, Length) {
        match self {
            Paper::A4 => (Length::mm(210.0), Length::mm(297.0)),
            Paper::Letter => (Length::inches(8.5), Length::inches(11.0)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
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
const UNPRINTABLE_MM: f32 = 5.0;
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

/// What to draw in a slot: a face or back of a deck row, or a whole sheet component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArtRef {
    Face { deck: usize, row: usize },
    /// `row` is 0 for a deck whose back is shared by every card.
    Back { deck: usize, row: usize },
    Sheet { sheet: usize },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub art: ArtRef,
    /// Where the art's full extent goes (it may reach past the page, for board tiles).
    pub rect: Rect,
    /// Turned half a turn (short-edge duplex backs).
    pub rotated: bool,
    /// Only this part of the page shows the art (board tiles, a card's bleed).
    pub clip: Option<Rect>,
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

/// A cut line drawn around one piece, for pieces that do not share cut lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Guide {
    Rect(Rect),
    Circle(Rect),
}

/// One page, fully resolved: nothing left for an exporter to decide.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    pub width: Length,
    pub height: Length,
    pub side: Side,
    pub items: Vec<Placed>,
    pub marks: Vec<Mark>,
    pub guides: Vec<Guide>,
    /// The area to cut to (the card grid, the board): written as the PDF TrimBox.
    pub trim: Rect,
    /// How far printed art reaches past the trim: the PDF BleedBox is the trim grown by it.
    pub bleed: Length,
    /// Labels, glue zones and alignment marks as an SVG of the page (mm units), drawn on top;
    /// shared by the pages that have the same (the slug of a deck of thousands of sheets).
    pub decor: Option<std::sync::Arc<str>>,
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
            trim: Rect { x: Length::ZERO, y: Length::ZERO, w: width, h: height },
            bleed: Length::ZERO,
            decor: None,
        }
    }
}

/// How a deck's pieces are cut: shape, and the gap between them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cut {
    pub size: (Length, Length),
    pub circle: bool,
    pub gap: Length,
    /// The art's bleed (how far it reaches past the cut on every side).
    pub bleed: Length,
}

impl Rect {
    /// The rectangle grown by `by` on every side.
    pub fn grown(&self, by: Length) -> Rect {
        Rect { x: self.x - by, y: self.y - by, w: self.w + by * 2.0, h: self.h + by * 2.0 }
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
    pub fn fit(paper: (Length, Length), card: (Length, Length), gap: Length, bleed: Length) -> Option<Grid> {
        Grid::fit_with(paper, card, gap, bleed, (Length::ZERO, Length::ZERO))
    }

    /// `fit`, keeping `reserve` (across, down) more margin on each side: room for marks
    /// to stay clear of the paper's edge, and for the slug.
    pub fn fit_with(paper: (Length, Length), card: (Length, Length), gap: Length, bleed: Length, reserve: (Length, Length)) -> Option<Grid> {
        // Room for crop marks; pieces with a gap of their own (beyond the gutter the bleed
        // makes) carry their own guides and need less.
        let guided = gap.to_mm() > 2.0 * bleed.to_mm() + 0.001;
        let margin = bleed + if guided { Length::mm(UNPRINTABLE_MM + 1.0) } else { Length::mm(MARK_GAP_MM + MARK_MIN_MM) };
        let fit = |paper: Length, card: Length, reserve: Length| (((paper - (margin + reserve) * 2.0) + gap).to_pt() / (card + gap).to_pt()).floor().max(0.0) as usize;
        let (cols, rows) = (fit(paper.0, card.0, reserve.0), fit(paper.1, card.1, reserve.1));
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

    fn bounds(&self) -> Rect {
        let last = self.slot(self.cols - 1, self.rows - 1);
        Rect { x: self.origin_x, y: self.origin_y, w: last.x + last.w - self.origin_x, h: last.y + last.h - self.origin_y }
    }
}

/// Imposes pieces (face and back of each physical piece) on sheets; with a duplex mode,
/// each front page is followed by its back page, every back behind its face.
/// `back_offset` (mm, right and down) shifts everything on back pages, marks included: the
/// correction for a duplex printer that does not register backs exactly on fronts.
pub fn impose(pieces: &[(ArtRef, ArtRef)], cut: Cut, paper: Paper, duplex: Duplex, back_offset: (f32, f32)) -> Result<Vec<Sheet>, String> {
    let size = paper.size();
    let grid = home_grid(size, cut).ok_or_else(|| format!("a {} × {} piece does not fit on {} paper", cut.size.0, cut.size.1, paper.name()))?;
    // Cards are cut one by one along marks at every card's edges; pieces with a gap get a
    // guide each, which is also the only way to cut a circle.
    let shared_cuts = cut.gap == Length::ZERO && !cut.circle;
    let marks = if shared_cuts { crop_marks(&grid) } else { Vec::new() };
    let guide = |rect: Rect| if cut.circle { Guide::Circle(rect) } else { Guide::Rect(rect) };
    let sheet = |side, items: Vec<Placed>| Sheet {
        guides: if shared_cuts { Vec::new() } else { items.iter().map(|p| guide(p.rect)).collect() },
        items,
        marks: marks.clone(),
        trim: grid.bounds(),
        bleed: grid.bleed,
        ..Sheet::blank(size.0, size.1)
    }
    .with_side(side);
    let mut fronts = Vec::new();
    let mut backs = Vec::new();
    for page in pieces.chunks(grid.per_page()) {
        let mut front_items = Vec::new();
        let mut back_items = Vec::new();
        for (i, &(face, back)) in page.iter().enumerate() {
            let (col, row) = (i % grid.cols, i / grid.cols);
            let shown = |rect: Rect| (cut.bleed > Length::ZERO).then(|| rect.grown(grid.bleed));
            let rect = grid.slot(col, row);
            front_items.push(Placed { art: face, rect, rotated: false, clip: shown(rect), bleed: cut.bleed });
            let (back_col, back_row, rotated) = match duplex {
                // Glued back to back, a back page is turned over its long edge: mirrored
                // exactly as a long-edge duplex printer does, so every front gets its back.
                Duplex::Long | Duplex::None => (grid.cols - 1 - col, row, false),
                Duplex::Short => (col, grid.rows - 1 - row, true),
            };
            let rect = grid.slot(back_col, back_row);
            back_items.push(Placed { art: back, rect, rotated, clip: shown(rect), bleed: cut.bleed });
        }
        fronts.push(sheet(Side::Front, front_items));
        backs.push(sheet(Side::Back, back_items));
    }
    let (dx, dy) = (Length::mm(back_offset.0), Length::mm(back_offset.1));
    let shift = |r: Rect| Rect { x: r.x + dx, y: r.y + dy, ..r };
    for back in &mut backs {
        for item in &mut back.items {
            item.rect = shift(item.rect);
            item.clip = item.clip.map(shift);
        }
        back.marks.iter_mut().for_each(|m| *m = Mark { x1: m.x1 + dx, y1: m.y1 + dy, x2: m.x2 + dx, y2: m.y2 + dy });
        back.guides.iter_mut().for_each(|g| match g {
            Guide::Rect(r) | Guide::Circle(r) => *r = shift(*r),
        });
        back.trim = shift(back.trim);
    }
    Ok(match duplex {
        Duplex::None => fronts.into_iter().chain(backs).collect(),
        _ => fronts.into_iter().zip(backs).flat_map(|(f, b)| [f, b]).collect(),
    })
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
pub fn slug(sheets: &mut [Sheet], label: &str, printing: &str) {
    const EDGE_MM: f32 = UNPRINTABLE_MM;
    const TEXT_MM: f32 = 2.0;
    let fronts = sheets.iter().filter(|s| s.side == Side::Front).count();
    let mut n = 0;
    // The slugs made so far: identical ones are one string, not one per page.
    let mut made: std::collections::HashSet<std::sync::Arc<str>> = std::collections::HashSet::new();
    for sheet in sheets.iter_mut() {
        if sheet.side == Side::Front {
            n += 1;
        }
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
            continue;
        };
        let side = if sheet.side == Side::Front { "front" } else { "back" };
        // Two short lines beside the bar: what and which, then how to print.
        // Sheet numbers on decks of up to 100 sheets: beyond, every front's slug is the same
        // (and every back's), drawn once as one reusable object instead of a text to lay
        // out on each of thousands of pages.
        let what = if fronts <= MAX_NUMBERED_SHEETS { format!("{} · sheet {n} of {fronts}, {side}", escape_xml(label)) } else { format!("{} · {fronts} sheets, {side}", escape_xml(label)) };
        let how = format!("{} · print at 100 % (actual size), not fit to page · the bar is 50 mm", escape_xml(printing));
        let x0 = EDGE_MM.max((w - 170.0) / 2.0);
        let bar_y = baseline - 0.4;
        let ticks: String = (0..=5).map(|i| format!(r#"<line x1="{x}" y1="{}" x2="{x}" y2="{bar_y}" stroke="black" stroke-width="0.2"/>"#, bar_y - if i % 5 == 0 { 1.6 } else { 0.9 }, x = x0 + i as f32 * 10.0)).collect();
        let size = TEXT_MM * 0.75;
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" font-family="Noto Sans"><line x1="{x0}" y1="{bar_y}" x2="{}" y2="{bar_y}" stroke="black" stroke-width="0.3"/>{ticks}<text x="{tx}" y="{}" font-size="{size}" fill="black">{what}</text><text x="{tx}" y="{baseline}" font-size="{size}" fill="black">{how}</text></svg>"#,
            x0 + 50.0,
            baseline - size * 1.15,
            tx = x0 + 53.0,
        );
        let shared = match made.get(svg.as_str()) {
            Some(same) => same.clone(),
            None => {
                let new: std::sync::Arc<str> = svg.into();
                made.insert(new.clone());
                new
            }
        };
        sheet.decor = Some(shared);
    }
}

/// Text made safe for SVG, in content and in attribute values alike.
pub fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// One card side on a page of its own, the page the card plus its bleed: what print
/// services ask for. The TrimBox is the card, the BleedBox the page; no marks.
pub fn single(art: ArtRef, card: (Length, Length), bleed: Length) -> Sheet {
    let rect = Rect { x: bleed, y: bleed, w: card.0, h: card.1 };
    Sheet {
        items: vec![Placed { art, rect, rotated: false, clip: Some(rect.grown(bleed)), bleed }],
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
    let with = |shown: Length| Grid::fit(paper, cut.size, gutter(shown), shown);
    let most = with(Length::ZERO)?.per_page();
    // The whole bleed, else quarter millimetres down from it; first keeping the marks
    // 5 mm from the paper's edge and room for the slug, then giving up the slug, then
    // the 5 mm (a page that can hold its cards only so, like 63 × 88 mm on Letter).
    let quarters = (cut.bleed.to_mm() / 0.25 + 1e-3).floor() as i32;
    let tries: Vec<Length> = std::iter::once(cut.bleed).chain((1..=quarters).rev().map(|q| Length::mm(q as f32 * 0.25))).filter(|s| *s > Length::ZERO).collect();
    let edge = Length::mm(UNPRINTABLE_MM);
    for (keep_edge, slug) in [(true, true), (true, false), (false, true), (false, false)] {
        let reserve_x = if keep_edge { edge } else { Length::ZERO };
        let reserve_y = reserve_x + if slug { Length::mm(SLUG_BAND_MM) } else { Length::ZERO };
        for &shown in &tries {
            let grid = Grid::fit_with(paper, cut.size, gutter(shown), shown, (reserve_x, reserve_y));
            if let Some(grid) = grid.filter(|g| g.per_page() >= most) {
                return Some(grid);
            }
        }
    }
    with(Length::ZERO)
}

/// Marks at every card's cut lines (both edges of each gutter, for rotary trimmers that
/// cut strip by strip), outside the grid and its bleed by a gap, as long as the margin
/// allows without entering the unprintable edge (or a minimum length where it cannot).
fn crop_marks(grid: &Grid) -> Vec<Mark> {
    let gap = Length::mm(MARK_GAP_MM) + grid.bleed;
    let length = |margin: Length, reserve: f32| {
        let room = margin.to_mm() - gap.to_mm() - UNPRINTABLE_MM - reserve;
        Length::mm(room.clamp(MARK_MIN_MM, MARK_MAX_MM))
    };
    let b = grid.bounds();
    let (len_x, len_y) = (length(grid.origin_x, 0.0), length(grid.origin_y, SLUG_BAND_MM));
    let mut xs: Vec<Length> = (0..grid.cols).flat_map(|c| { let s = grid.slot(c, 0); [s.x, s.x + s.w] }).collect();
    let mut ys: Vec<Length> = (0..grid.rows).flat_map(|r| { let s = grid.slot(0, r); [s.y, s.y + s.h] }).collect();
    // Cards that touch share a cut line: one mark, not two on top of each other.
    xs.dedup_by(|a, b| (a.to_mm() - b.to_mm()).abs() < 0.01);
    ys.dedup_by(|a, b| (a.to_mm() - b.to_mm()).abs() < 0.01);
    let mut marks = Vec::new();
    for x in xs {
        marks.push(Mark { x1: x, y1: b.y - gap, x2: x, y2: b.y - gap - len_y });
        marks.push(Mark { x1: x, y1: b.y + b.h + gap, x2: x, y2: b.y + b.h + gap + len_y });
    }
    for y in ys {
        marks.push(Mark { x1: b.x - gap, y1: y, x2: b.x - gap - len_x, y2: y });
        marks.push(Mark { x1: b.x + b.w + gap, y1: y, x2: b.x + b.w + gap + len_x, y2: y });
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
        Cut { size: poker(), circle: false, gap: Length::ZERO, bleed: Length::ZERO }
    }

    fn pieces(n: usize) -> Vec<(ArtRef, ArtRef)> {
        (0..n).map(|row| (ArtRef::Face { deck: 0, row }, ArtRef::Back { deck: 0, row: 0 })).collect()
    }

    #[test]
    fn crop_marks_never_touch_a_card_and_stay_on_the_paper() {
        for paper in [Paper::A4, Paper::Letter] {
            let sheets = impose(&pieces(9), cut(), paper, Duplex::Long, (0.0, 0.0)).unwrap();
            let (w, h) = paper.size();
            let sheet = &sheets[0];
            for m in &sheet.marks {
                for (x, y) in [(m.x1, m.y1), (m.x2, m.y2)] {
                    assert!(x.to_pt() >= 0.0 && x <= w && y.to_pt() >= 0.0 && y <= h, "mark off the paper: {m:?}");
                    let inside = |r: &Rect| x > r.x && x < r.x + r.w && y > r.y && y < r.y + r.h;
                    let t = &sheet.trim;
                    let inside_grid = x.to_pt() > t.x.to_pt() - 1.0 && x.to_pt() < (t.x + t.w).to_pt() + 1.0 && y.to_pt() > t.y.to_pt() - 1.0 && y.to_pt() < (t.y + t.h).to_pt() + 1.0;
                    assert!(!inside_grid && !sheet.items.iter().any(|p| inside(&p.rect)), "mark touches a card: {m:?}");
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
        assert_eq!(none[1].items[0].rect, grid.slot(2, 0), "glued backs are mirrored like long-edge duplex");
    }

    #[test]
    fn round_tokens_get_one_circular_guide_each_and_no_crop_marks() {
        let cut = Cut { size: (Length::mm(30.0), Length::mm(30.0)), circle: true, gap: Length::mm(4.0), bleed: Length::ZERO };
        let sheets = impose(&pieces(10), cut, Paper::A4, Duplex::Long, (0.0, 0.0)).unwrap();
        assert!(sheets[0].marks.is_empty());
        assert_eq!(sheets[0].guides.len(), 10);
        assert!(matches!(sheets[0].guides[0], Guide::Circle(_)));
        // 30 mm tokens 4 mm apart: 5 across A4's 210 mm.
        let grid = Grid::fit(Paper::A4.size(), cut.size, cut.gap, Length::ZERO).unwrap();
        assert_eq!(grid.cols, 5);
        let (a, b) = (grid.slot(0, 0), grid.slot(1, 0));
        assert!(((b.x - a.x).to_mm() - 34.0).abs() < 0.01);
    }
}
