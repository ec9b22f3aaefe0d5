//! Hex tiles on a page: a honeycomb of regular hexagons, every tile's neighbours across
//! its edges a gutter away (twice the bleed shown, so neighbouring bleeds meet in it, as
//! between cards), the whole centred on the paper.

use super::Rect;
use crate::length::Length;
use crate::model::HexTop;

/// How far art with `shown` bleed reaches past a flat-topped hex's bounding box, across
/// (at its corners, where the grown edges meet) and down (at its flat edges).
fn overhang(shown: f32) -> (f32, f32) {
    (shown * 2.0 / 3f32.sqrt(), shown)
}

/// The hexagon grown by `by` on every edge, as a bounding box: what its bleed covers.
pub fn grown(rect: &Rect, top: HexTop, by: Length) -> Rect {
    let (across, down) = overhang(by.to_mm());
    let (gx, gy) = match top {
        HexTop::Flat => (across, down),
        HexTop::Pointy => (down, across),
    };
    Rect {
        x: rect.x - Length::mm(gx),
        y: rect.y - Length::mm(gy),
        w: rect.w + Length::mm(2.0 * gx),
        h: rect.h + Length::mm(2.0 * gy),
    }
}

/// The six corners (mm) of the hexagon filling `rect`, clockwise from the right-most
/// (flat) or top (pointy) one, top-left origin.
pub fn corners(rect: &Rect, top: HexTop) -> [(f32, f32); 6] {
    let (x, y, w, h) = (rect.x.to_mm(), rect.y.to_mm(), rect.w.to_mm(), rect.h.to_mm());
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    match top {
        HexTop::Flat => [
            (x + w, cy),
            (x + 0.75 * w, y + h),
            (x + 0.25 * w, y + h),
            (x, cy),
            (x + 0.25 * w, y),
            (x + 0.75 * w, y),
        ],
        HexTop::Pointy => [
            (cx, y),
            (x + w, y + 0.25 * h),
            (x + w, y + 0.75 * h),
            (cx, y + h),
            (x, y + 0.75 * h),
            (x, y + 0.25 * h),
        ],
    }
}

/// The tiles' places (bounding boxes of their cut outlines) on one page, row by row:
/// as many as fit with every tile's art `margin` (across, down) from the paper's edge.
pub fn honeycomb(
    paper: (Length, Length),
    tile: (Length, Length),
    top: HexTop,
    gutter: Length,
    shown: Length,
    margin: (Length, Length),
) -> Vec<Rect> {
    // A pointy-topped honeycomb is a flat-topped one turned a quarter: lay that out on the
    // turned paper and turn the places back.
    let turn = |r: Rect| Rect { x: r.y, y: r.x, w: r.h, h: r.w };
    if top == HexTop::Pointy {
        let turned =
            flat((paper.1, paper.0), (tile.1, tile.0), gutter, shown, (margin.1, margin.0));
        let mut places: Vec<Rect> = turned.into_iter().map(turn).collect();
        reading_order(&mut places);
        return places;
    }
    let mut places = flat(paper, tile, gutter, shown, margin);
    reading_order(&mut places);
    places
}

fn reading_order(places: &mut [Rect]) {
    places.sort_by(|a, b| {
        (a.y.to_mm(), a.x.to_mm())
            .partial_cmp(&(b.y.to_mm(), b.x.to_mm()))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
}

/// Flat-topped tiles in columns; every other column half a step down.
fn flat(
    paper: (Length, Length),
    tile: (Length, Length),
    gutter: Length,
    shown: Length,
    margin: (Length, Length),
) -> Vec<Rect> {
    let (w, h, g) = (tile.0.to_mm(), tile.1.to_mm(), gutter.to_mm());
    let (over_x, over_y) = overhang(shown.to_mm());
    let room_x = paper.0.to_mm() - 2.0 * (margin.0.to_mm() + over_x);
    let room_y = paper.1.to_mm() - 2.0 * (margin.1.to_mm() + over_y);
    // Neighbours across an edge are a tile's height and the gutter apart, centre to centre:
    // straight down in a column, and at 30° from across in the next column.
    let step = h + g;
    let step_x = step * 3f32.sqrt() / 2.0;
    let count = |room: f32, first: f32, step: f32| {
        if room < first {
            0
        } else {
            ((room - first) / step + 1e-4).floor() as usize + 1
        }
    };
    let cols = count(room_x, w, step_x);
    let rows = count(room_y, h, step);
    if cols == 0 || rows == 0 {
        return Vec::new();
    }
    // The shifted columns hold as many tiles if there is room for the half step, else one fewer.
    let shifted_rows = if cols > 1 { count(room_y, h + step / 2.0, step) } else { 0 };
    let span_x = (cols - 1) as f32 * step_x + w;
    let span_y = if shifted_rows == rows {
        (rows - 1) as f32 * step + h + step / 2.0
    } else {
        (rows - 1) as f32 * step + h
    };
    let (x0, y0) = ((paper.0.to_mm() - span_x) / 2.0, (paper.1.to_mm() - span_y) / 2.0);
    let mut places = Vec::new();
    for c in 0..cols {
        let (n, dy) = if c % 2 == 0 { (rows, 0.0) } else { (shifted_rows, step / 2.0) };
        for r in 0..n {
            let (x, y) = (x0 + c as f32 * step_x, y0 + dy + r as f32 * step);
            places.push(Rect { x: Length::mm(x), y: Length::mm(y), w: tile.0, h: tile.1 });
        }
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mm(v: f32) -> Length {
        Length::mm(v)
    }

    #[test]
    fn flat_tiles_touch_edge_to_edge_without_a_gutter() {
        let h = 60.0 * 3f32.sqrt() / 2.0;
        let places = honeycomb(
            (mm(210.0), mm(297.0)),
            (mm(60.0), mm(h)),
            HexTop::Flat,
            Length::ZERO,
            Length::ZERO,
            (mm(6.0), mm(6.0)),
        );
        // Two neighbours in one column share an edge; the next column's tile is 45 mm across.
        let (a, b) =
            (places.iter().find(|p| p.x == places[0].x && p.y > places[0].y).unwrap(), &places[0]);
        assert!(((a.y - b.y).to_mm() - h).abs() < 0.01);
        assert!(places.iter().any(|p| ((p.x - b.x).to_mm() - 45.0).abs() < 0.01));
        // Every tile is on the paper, 6 mm from its edge.
        for p in &places {
            assert!(
                p.x.to_mm() >= 5.99
                    && (p.x + p.w).to_mm() <= 204.01
                    && p.y.to_mm() >= 5.99
                    && (p.y + p.h).to_mm() <= 291.01,
                "{p:?}"
            );
        }
    }

    #[test]
    fn pointy_tiles_are_flat_ones_turned() {
        let w = 60.0 * 3f32.sqrt() / 2.0;
        let flat = honeycomb(
            (mm(297.0), mm(210.0)),
            (mm(60.0), mm(w)),
            HexTop::Flat,
            mm(2.0),
            mm(1.0),
            (mm(6.0), mm(6.0)),
        );
        let pointy = honeycomb(
            (mm(210.0), mm(297.0)),
            (mm(w), mm(60.0)),
            HexTop::Pointy,
            mm(2.0),
            mm(1.0),
            (mm(6.0), mm(6.0)),
        );
        assert_eq!(flat.len(), pointy.len());
        assert!(!pointy.is_empty());
    }
}
