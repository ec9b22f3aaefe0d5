//! Layout of sheet components: a page-sized component (pad, mat) on its paper, a board on
//! one large sheet, or a board tiled across home-printer pages with glue overlaps,
//! alignment marks, labelled tiles and an assembly map.

use std::sync::Arc;

use super::marks::{line, Anchor, Layer, PageMark, Text, BLACK};
use super::{crop_marks, ArtRef, Grid, Outline, Placed, Rect, Sheet};
use crate::length::Length;

/// Margin every home printer can print inside.
const MARGIN_MM: f32 = 10.0;
/// Overlap between neighbouring tiles: where glue goes.
const OVERLAP_MM: f32 = 12.0;

/// A page-sized component drawn over the whole page (its template keeps its own margins).
pub fn page(art: ArtRef, size: (Length, Length)) -> Sheet {
    let full = Rect { x: Length::ZERO, y: Length::ZERO, w: size.0, h: size.1 };
    Sheet {
        items: vec![Placed { art, rect: full, rotated: false, clip: None, bleed: Length::ZERO }],
        ..Sheet::blank(size.0, size.1)
    }
}

/// A board centred on one large sheet, with crop marks at its corners.
pub fn large(
    art: ArtRef,
    board: (Length, Length),
    paper: (Length, Length),
    paper_name: &str,
) -> Result<Sheet, String> {
    // Turn the paper if the board fits only that way.
    let fits = |p: (Length, Length)| {
        p.0 >= board.0 + Length::mm(2.0 * MARGIN_MM) && p.1 >= board.1 + Length::mm(2.0 * MARGIN_MM)
    };
    let paper = if fits(paper) {
        paper
    } else if fits((paper.1, paper.0)) {
        (paper.1, paper.0)
    } else {
        return Err(format!("a {} × {} board does not fit on {paper_name} with {MARGIN_MM}mm margins; choose a larger --board-paper", board.0, board.1));
    };
    let grid = Grid::fit(paper, board, Length::ZERO, Length::ZERO).expect("the board fits");
    let rect = grid.slot(0, 0);
    Ok(Sheet {
        items: vec![Placed { art, rect, rotated: false, clip: None, bleed: Length::ZERO }],
        marks: crop_marks(&Grid { cols: 1, rows: 1, ..grid }),
        trim: rect,
        ..Sheet::blank(paper.0, paper.1)
    })
}

/// How a board is cut into tiles on one paper orientation.
#[derive(Debug, Clone)]
struct Tiling {
    paper: (Length, Length),
    cols: usize,
    rows: usize,
    /// Where each column's and each row's window starts on the board, in mm: each after
    /// the first is a seam (the tile's cut edge) on the assembled board.
    xs: Vec<f32>,
    ys: Vec<f32>,
}

impl Tiling {
    /// `keep`: parts of the board no seam should cross (x0, y0, x1, y1 in mm).
    fn new(board: (f32, f32), paper: (Length, Length), keep: &[[f32; 4]]) -> Tiling {
        let window = (paper.0.to_mm() - 2.0 * MARGIN_MM, paper.1.to_mm() - 2.0 * MARGIN_MM);
        let across: Vec<(f32, f32)> = keep.iter().map(|k| (k[0], k[2])).collect();
        let down: Vec<(f32, f32)> = keep.iter().map(|k| (k[1], k[3])).collect();
        let xs = starts(board.0, window.0, &across);
        let ys = starts(board.1, window.1, &down);
        Tiling { paper, cols: xs.len(), rows: ys.len(), xs, ys }
    }

    /// The part of the board tile (r, c) shows, in mm: its start and size.
    fn shown(&self, b: (f32, f32), r: usize, c: usize) -> (f32, f32, f32, f32) {
        let extent = |starts: &[f32], i: usize, board: f32| match starts.get(i + 1) {
            Some(next) => next + OVERLAP_MM - starts[i],
            None => board - starts[i],
        };
        (self.xs[c], self.ys[r], extent(&self.xs, c, b.0), extent(&self.ys, r, b.1))
    }
}

/// Where the windows along one side of a board start: each as far on as a page allows
/// (its window less the glue overlap), or pulled back to just before a kept part that the
/// seam would cut through, as long as no page more is needed.
fn starts(board: f32, window: f32, keep: &[(f32, f32)]) -> Vec<f32> {
    let step = window - OVERLAP_MM;
    let pages = if board <= window { 1 } else { ((board - window) / step).ceil() as usize + 1 };
    let mut starts = vec![0.0f32];
    while let Some(&last) = starts.last().filter(|&&last| last + window < board) {
        let furthest = last + step;
        // Pulled back no further than the remaining pages can still cover the board.
        let left = pages.saturating_sub(starts.len() + 1) as f32;
        let earliest = (board - window - left * step).max(last + step / 2.0);
        let clear = |x: f32| !keep.iter().any(|&(a, b)| x > a && x < b);
        // The furthest seam, or one just before a kept part, that crosses nothing kept.
        let seam = std::iter::once(furthest)
            .chain(keep.iter().map(|&(a, _)| a - SEAM_CLEARANCE_MM))
            .filter(|&x| x <= furthest && x >= earliest && clear(x))
            .max_by(f32::total_cmp)
            .unwrap_or(furthest);
        starts.push(seam);
    }
    starts
}

/// A seam moved off a kept part stays this far before it.
const SEAM_CLEARANCE_MM: f32 = 1.0;

/// The board across as few pages of `paper` as fit it (portrait or landscape): an
/// assembly map first, then one page per tile. Seams avoid the parts in `keep` (x0, y0,
/// x1, y1 in mm on the board) where the pages allow.
pub fn tiles(
    art: ArtRef,
    board: (Length, Length),
    paper: (Length, Length),
    title: &str,
    keep: &[[f32; 4]],
) -> Vec<Sheet> {
    let b = (board.0.to_mm(), board.1.to_mm());
    let portrait = Tiling::new(b, paper, keep);
    let landscape = Tiling::new(b, (paper.1, paper.0), keep);
    let t = if landscape.cols * landscape.rows < portrait.cols * portrait.rows {
        landscape
    } else {
        portrait
    };
    let mut sheets = vec![assembly_map(art, b, &t, title)];
    for r in 0..t.rows {
        for c in 0..t.cols {
            sheets.push(tile(art, b, &t, r, c, title));
        }
    }
    sheets
}

fn mm(v: f32) -> Length {
    Length::mm(v)
}

fn tile(art: ArtRef, b: (f32, f32), t: &Tiling, r: usize, c: usize, title: &str) -> Sheet {
    let (sx, sy, sw, sh) = t.shown(b, r, c);
    let (ox, oy) = (MARGIN_MM - sx, MARGIN_MM - sy);
    let shown = (sw, sh);
    let window = Rect { x: mm(MARGIN_MM), y: mm(MARGIN_MM), w: mm(shown.0), h: mm(shown.1) };
    let placed = Placed {
        art,
        rect: Rect { x: mm(ox), y: mm(oy), w: mm(b.0), h: mm(b.1) },
        rotated: false,
        clip: Some(Outline::Rect(window)),
        bleed: Length::ZERO,
    };

    let (x0, y0, x1, y1) = (MARGIN_MM, MARGIN_MM, MARGIN_MM + shown.0, MARGIN_MM + shown.1);
    let mut layer = Layer::default();
    let o = OVERLAP_MM;
    // Glue strips: the right and bottom overlaps are covered by the next tiles.
    if c + 1 < t.cols {
        glue_strip(&mut layer, x1 - o, y0, o, shown.1, true);
    }
    if r + 1 < t.rows {
        glue_strip(&mut layer, x0, y1 - o, shown.0, o, false);
    }
    // Cut lines: a tile laid over its left or upper neighbour is trimmed at its window edge.
    let cut_line =
        |from, to| PageMark::Line { from, to, width: 0.3, colour: BLACK, dash: Some((2.0, 1.5)) };
    if c > 0 {
        layer.push(cut_line((x0, y0 - 4.0), (x0, y1 + 4.0)));
        layer.push(
            Text::new((x0 - 2.0, (y0 + y1) / 2.0), 3.0, "✂ cut along this line")
                .anchor(Anchor::Middle)
                .rotate(-90.0),
        );
    }
    if r > 0 {
        layer.push(cut_line((x0 - 4.0, y0), (x1 + 4.0, y0)));
    }
    // Where the next tile's cut edge goes: a line with arrows on this tile's glue strip,
    // which that tile then covers, so nothing of it shows on the assembled board.
    if c + 1 < t.cols {
        let x = x1 - o;
        layer.push(line((x, y0), (x, y1), 0.35, BLACK));
        for y in [y0 + 15.0, (y0 + y1) / 2.0, y1 - 15.0] {
            layer.push(PageMark::Arrow { at: (x, y), down: false });
        }
        layer.push(
            Text::new((x + 3.5, y0 + 40.0), 2.5, format!("edge of tile {},{} here", r + 1, c + 2))
                .anchor(Anchor::Middle)
                .rotate(-90.0),
        );
    }
    if r + 1 < t.rows {
        let y = y1 - o;
        layer.push(line((x0, y), (x1, y), 0.35, BLACK));
        for x in [x0 + 15.0, (x0 + x1) / 2.0, x1 - 15.0] {
            layer.push(PageMark::Arrow { at: (x, y), down: true });
        }
        layer.push(Text::new(
            (x0 + 40.0, y + 3.5),
            2.5,
            format!("edge of tile {},{} here", r + 2, c + 1),
        ));
    }
    // Crop marks at the board's own outer edges, outside the tile, ending 5.5 mm from the
    // paper's edge: outside the 5 mm home printers leave blank (they reached 4.5 mm).
    let mut outer = Vec::new();
    let (mark, gap) = (3.0, 1.5);
    if c == 0 {
        outer.push((x0, y0 - gap, x0, y0 - gap - mark));
        outer.push((x0, y1 + gap, x0, y1 + gap + mark));
    }
    if c + 1 == t.cols {
        outer.push((x1, y0 - gap, x1, y0 - gap - mark));
        outer.push((x1, y1 + gap, x1, y1 + gap + mark));
    }
    if r == 0 {
        outer.push((x0 - gap, y0, x0 - gap - mark, y0));
        outer.push((x1 + gap, y0, x1 + gap + mark, y0));
    }
    if r + 1 == t.rows {
        outer.push((x0 - gap, y1, x0 - gap - mark, y1));
        outer.push((x1 + gap, y1, x1 + gap + mark, y1));
    }
    for (ax, ay, bx, by) in outer {
        layer.push(line((ax, ay), (bx, by), 0.25, BLACK));
    }
    // Heading and footnote between the tile and the 5 mm every printer can print in.
    layer.push(
        Text::new(
            (x0, MARGIN_MM - 2.2),
            2.6,
            format!("{title} — tile row {}, column {} (of {} × {})", r + 1, c + 1, t.rows, t.cols),
        )
        .bold(),
    );
    layer.push(Text::new((x0, t.paper.1.to_mm() - MARGIN_MM + 3.0), 2.2, "Cut the dashed lines, glue each tile over the hatched strip of its neighbour, its edge on the arrowed line. Page 1 is the map."));
    let mut sheet =
        Sheet { items: vec![placed], trim: window, ..Sheet::blank(t.paper.0, t.paper.1) };
    sheet.decor = vec![Arc::new(layer)];
    sheet
}

/// A hatched strip where the next tile is glued, labelled along it. Hatched, not a
/// translucent band: PDF/X-1a has no transparency, and a `/ca 0.18` shade was left live
/// in a press file; thin opaque lines 2.5 mm apart show the art between them in every
/// output.
fn glue_strip(layer: &mut Layer, x: f32, y: f32, w: f32, h: f32, vertical: bool) {
    const SPACING_MM: f32 = 2.5;
    let grey = [0x7f, 0x7f, 0x7f];
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    // Lines at 45°, from the bottom edge up to the right, cut to the strip: the point
    // `t` along the line from (x + k, y + h) is (x + k + t, y + h - t).
    let mut k = -h;
    while k < w {
        let (t0, t1) = ((-k).max(0.0), h.min(w - k));
        if t1 > t0 {
            layer.push(PageMark::Line {
                from: (x + k + t0, y + h - t0),
                to: (x + k + t1, y + h - t1),
                width: 0.2,
                colour: grey,
                dash: None,
            });
        }
        k += SPACING_MM;
    }
    layer.push(PageMark::Frame { x, y, w, h, colour: grey, width: 0.2 });
    let label = Text::new((cx, cy + 1.0), 3.0, format!("glue · overlap {OVERLAP_MM} mm"))
        .anchor(Anchor::Middle)
        .colour([0x33, 0x33, 0x33]);
    layer.push(if vertical { label.rotate_about(-90.0, (cx, cy)) } else { label });
}

fn assembly_map(art: ArtRef, b: (f32, f32), t: &Tiling, title: &str) -> Sheet {
    // The whole board, shrunk to fit below a heading, with the tiles drawn over it.
    let top = 40.0;
    let area = (t.paper.0.to_mm() - 2.0 * MARGIN_MM, t.paper.1.to_mm() - top - MARGIN_MM);
    let scale = (area.0 / b.0).min(area.1 / b.1).min(1.0);
    let (mw, mh) = (b.0 * scale, b.1 * scale);
    let (mx, my) = ((t.paper.0.to_mm() - mw) / 2.0, top);
    let placed = Placed {
        art,
        rect: Rect { x: mm(mx), y: mm(my), w: mm(mw), h: mm(mh) },
        rotated: false,
        clip: None,
        bleed: Length::ZERO,
    };
    let mut layer = Layer::default();
    layer.push(
        Text::new((MARGIN_MM, MARGIN_MM + 8.0), 7.0, format!("{title} — assembly map")).bold(),
    );
    let pages = format!(
        "{} × {} tiles on {:.0} × {:.0} mm pages; the board is {:.0} × {:.0} mm. Each tile is labelled with its row and column.",
        t.rows,
        t.cols,
        t.paper.0.to_mm(),
        t.paper.1.to_mm(),
        b.0,
        b.1
    );
    layer.push(Text::new((MARGIN_MM, MARGIN_MM + 16.0), 3.5, pages));
    layer.push(Text::new((MARGIN_MM, MARGIN_MM + 22.0), 3.5, "Trim the dashed edges, then glue each tile over the hatched strip of the tile to its left and above, its edge on the arrowed line."));
    const RED: [u8; 3] = [0xc6, 0x28, 0x28];
    for r in 0..t.rows {
        for c in 0..t.cols {
            let (sx, sy, sw, sh) = t.shown(b, r, c);
            let (x, y, w, h) = (mx + sx * scale, my + sy * scale, sw * scale, sh * scale);
            layer.push(PageMark::Frame { x, y, w, h, colour: RED, width: 0.6 });
            layer.push(
                Text::new((x + w / 2.0, y + h / 2.0 + 2.0), 6.0, format!("{},{}", r + 1, c + 1))
                    .bold()
                    .colour(RED)
                    .anchor(Anchor::Middle),
            );
        }
    }
    let mut sheet = Sheet { items: vec![placed], ..Sheet::blank(t.paper.0, t.paper.1) };
    sheet.decor = vec![Arc::new(layer)];
    sheet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_larger_than_a_page_is_tiled_with_overlap_and_a_map() {
        let a4 = (mm(210.0), mm(297.0));
        let sheets = tiles(ArtRef::Sheet { sheet: 0 }, (mm(280.0), mm(400.0)), a4, "Board", &[]);
        // Window 190 × 277, step 178 × 265: 2 × 2 tiles, plus the map.
        assert_eq!(sheets.len(), 5);
        let second = &sheets[2]; // row 1, column 2
        let placed = &second.items[0];
        assert!((placed.rect.x.to_mm() - (10.0 - 178.0)).abs() < 0.01);
        assert_eq!(
            placed.clip.unwrap().rect().w.to_mm().round(),
            102.0,
            "280 - 178 mm of the board show"
        );
        assert!(second.decor[0].texts().any(|t| t == "Board — tile row 1, column 2 (of 2 × 2)"));
    }

    #[test]
    fn a_board_that_fits_the_page_is_one_tile() {
        let sheets = tiles(
            ArtRef::Sheet { sheet: 0 },
            (mm(150.0), mm(200.0)),
            (mm(210.0), mm(297.0)),
            "Board",
            &[],
        );
        assert_eq!(sheets.len(), 2);
    }

    #[test]
    fn a_large_sheet_turns_the_paper_when_needed() {
        let a3 = (mm(297.0), mm(420.0));
        let sheet = large(ArtRef::Sheet { sheet: 0 }, (mm(400.0), mm(250.0)), a3, "a3").unwrap();
        assert!(sheet.width > sheet.height);
        assert!(large(ArtRef::Sheet { sheet: 0 }, (mm(500.0), mm(500.0)), a3, "a3").is_err());
    }
}
