//! Layout of boxes: the flat die-lines of a one-piece reverse tuck end box, or of the
//! lid and base of a telescoping box, computed from the inside (the deck plus clearance);
//! the faces placed on their panels with bleed across the folds next to flaps and cut
//! edges; and each flat centred on a page.
//!
//! A tuck box's flat, left to right: glue flap, back, left side, front, right side. The lid and
//! its tuck flap hang from the back's top edge; the bottom and its tuck flap from the
//! front's bottom edge (a reverse tuck end, the usual card box); dust flaps on both ends
//! of each side. The front's top edge, where the deck comes out, has a thumb notch.

use super::{ArtRef, Placed, Rect, Sheet};
use crate::length::Length;
use crate::model::{BoxDef, BoxStyle, FaceKind};

/// The die-line of a flat, in millimetres from the page's top-left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct Die {
    /// The outline the box is cut along, closed (the last point joins the first).
    pub cut: Vec<(f32, f32)>,
    /// The lines it is folded (scored) along: (x1, y1, x2, y2).
    pub folds: Vec<[f32; 4]>,
}

impl Die {
    pub fn moved(&self, dx: f32, dy: f32) -> Die {
        Die {
            cut: self.cut.iter().map(|&(x, y)| (x + dx, y + dy)).collect(),
            folds: self
                .folds
                .iter()
                .map(|f| [f[0] + dx, f[1] + dy, f[2] + dx, f[3] + dy])
                .collect(),
        }
    }
}

/// Where a face is printed on the flat: its panel (fold to fold), what lies past each
/// edge (left, top, right, bottom) and whether it is turned half a turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Panel {
    pub kind: FaceKind,
    /// x, y, width, height in mm on the flat.
    pub rect: [f32; 4],
    pub beyond: [Beyond; 4],
    pub rotated: bool,
}

/// What lies past a panel's edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Beyond {
    /// Another face, across a fold: its art shows at an off fold.
    Face(FaceKind),
    /// A flap or the cut: the art runs into it by the bleed.
    Paper,
}

/// A flat box, or one piece of it: its size, die-line and panels (the sides once each,
/// left then right).
#[derive(Debug, Clone, PartialEq)]
pub struct Flat {
    /// Which piece: `box` for a one-piece box, `lid` or `base`.
    pub part: &'static str,
    pub width: f32,
    pub height: f32,
    pub die: Die,
    pub panels: Vec<Panel>,
}

/// The glue flap's width.
const GLUE_MM: f32 = 10.0;
/// How much narrower than its panel a tuck flap is on each side, to slide in.
const TUCK_INSET_MM: f32 = 1.0;
/// Deepest deck a one-piece tuck box holds well: deeper, its flaps are too long to stay tucked.
pub const MAX_TUCK_DEPTH_MM: f32 = 45.0;
/// Paper kept around the flat on a page.
pub const MARGIN_MM: f32 = 10.0;

/// The flat of a tuck box with this inside (w across the front, h up it, d deep).
pub fn tuck(inside: (Length, Length, Length)) -> Flat {
    let (w, h, d) = (inside.0.to_mm(), inside.1.to_mm(), inside.2.to_mm());
    let g = GLUE_MM;
    let tuck = (0.8 * d).clamp(10.0, 20.0);
    let dust = d.max(10.0).min(0.45 * w);
    let slant = (0.25 * d).min(4.0);
    let notch = (0.15 * w).min(10.0);
    let round = (0.5 * tuck).min(6.0);
    let i = TUCK_INSET_MM;
    // Columns and rows of the flat.
    let (back, side_l, front, side_r, right) =
        (g, g + w, g + w + d, g + 2.0 * w + d, g + 2.0 * w + 2.0 * d);
    let (lid, top, bottom, end) = (tuck, tuck + d, tuck + d + h, 2.0 * tuck + 2.0 * d + h);
    let lid_end = bottom + d; // the bottom flap's fold to its tuck flap
    let mut cut: Vec<(f32, f32)> = Vec::new();
    // Clockwise from the top of the glue fold: up the lid's left edge, round the tuck flap.
    cut.push((back, top));
    cut.push((back, lid));
    cut.push((back + i, lid));
    arc_corner(&mut cut, (back + i + round, round), round, 180.0, 270.0);
    arc_corner(&mut cut, (side_l - i - round, round), round, 270.0, 360.0);
    cut.push((side_l - i, lid));
    cut.push((side_l, lid));
    cut.push((side_l, top));
    // The left side's top dust flap, slanted clear of the lid.
    cut.push((side_l + slant, top - dust));
    cut.push((front - 1.0, top - dust));
    cut.push((front, top));
    // The front's top edge with its thumb notch.
    let centre = (front + side_r) / 2.0;
    cut.push((centre - notch, top));
    for k in 1..NOTCH_STEPS {
        let a = std::f32::consts::PI * k as f32 / NOTCH_STEPS as f32;
        cut.push((centre - notch * a.cos(), top + notch * a.sin()));
    }
    cut.push((centre + notch, top));
    cut.push((side_r, top));
    // The right side's top dust flap, down its free edge, its bottom dust flap.
    cut.push((side_r + 1.0, top - dust));
    cut.push((right - slant, top - dust));
    cut.push((right, top));
    cut.push((right, bottom));
    cut.push((right - slant, bottom + dust));
    cut.push((side_r + 1.0, bottom + dust));
    cut.push((side_r, bottom));
    // The bottom flap under the front and its tuck flap.
    cut.push((side_r, lid_end));
    cut.push((side_r - i, lid_end));
    arc_corner(&mut cut, (side_r - i - round, end - round), round, 0.0, 90.0);
    arc_corner(&mut cut, (front + i + round, end - round), round, 90.0, 180.0);
    cut.push((front + i, lid_end));
    cut.push((front, lid_end));
    cut.push((front, bottom));
    // The left side's bottom dust flap, the back's bottom edge, the glue flap.
    cut.push((front - 1.0, bottom + dust));
    cut.push((side_l + slant, bottom + dust));
    cut.push((side_l, bottom));
    cut.push((back, bottom));
    let taper = 0.5 * g;
    cut.push((0.0, bottom - taper));
    cut.push((0.0, top + taper));
    let folds = vec![
        [back, top, back, bottom],
        [side_l, top, side_l, bottom],
        [front, top, front, bottom],
        [side_r, top, side_r, bottom],
        [back, top, side_l, top],
        [back + i, lid, side_l - i, lid],
        [side_l, top, front, top],
        [side_r, top, right, top],
        [side_l, bottom, front, bottom],
        [side_r, bottom, right, bottom],
        [front, bottom, side_r, bottom],
        [front + i, lid_end, side_r - i, lid_end],
    ];
    use Beyond::{Face, Paper};
    use FaceKind::{Back, Bottom, Front, Side, Top};
    let panel =
        |kind, rect: [f32; 4], beyond: [Beyond; 4], rotated| Panel { kind, rect, beyond, rotated };
    let panels = vec![
        panel(Front, [front, top, w, h], [Face(Side), Paper, Face(Side), Face(Bottom)], false),
        panel(Back, [back, top, w, h], [Paper, Face(Top), Face(Side), Paper], false),
        panel(Side, [side_l, top, d, h], [Face(Back), Paper, Face(Front), Paper], false),
        panel(Side, [side_r, top, d, h], [Face(Front), Paper, Paper, Paper], false),
        // The lid reads from the front once closed: on the flat it is upside down.
        panel(Top, [back, lid, w, d], [Paper, Paper, Paper, Face(Back)], true),
        panel(Bottom, [front, bottom, w, d], [Paper, Face(Front), Paper, Paper], false),
    ];
    Flat { part: "box", width: right, height: end, die: Die { cut, folds }, panels }
}

/// Deepest deck a telescoping box is made for: deeper, its walls stand too tall to hold.
pub const MAX_TELESCOPE_DEPTH_MM: f32 = 100.0;
/// The board the box is made of: the lid's walls go outside the base's, this thick.
const BOARD_MM: f32 = 0.4;
/// Room between the base's walls and the lid's, all round, for the lid to slide.
const LID_PLAY_MM: f32 = 0.5;

/// The lid and the base of a telescoping box with this inside (the base's): two trays,
/// the lid as deep as the base and wider by the base's walls and some play, so that it
/// slides over it down to the table.
pub fn telescope(inside: (Length, Length, Length)) -> [Flat; 2] {
    let (w, h, d) = (inside.0.to_mm(), inside.1.to_mm(), inside.2.to_mm());
    let grow = 2.0 * BOARD_MM + LID_PLAY_MM;
    [tray("lid", (w + grow, h + grow, d)), tray("base", (w, h, d))]
}

/// One half of a telescoping box: a floor `w` × `h` with walls `d` high round it, the
/// top and bottom walls glued inside the side walls by a tab at each end. The lid's floor
/// is the front, its walls the sides, top and bottom; the base's floor is the back and its
/// walls, hidden under the lid, are plain, with a thumb notch in each side to lift the
/// deck out.
fn tray(part: &'static str, (w, h, d): (f32, f32, f32)) -> Flat {
    let lid = part == "lid";
    let (x1, x2, x3) = (d, d + w, 2.0 * d + w);
    let (y1, y2, y3) = (d, d + h, 2.0 * d + h);
    // A tab reaches along the side wall almost a wall's height, but short of the tab
    // coming from the other end; its corners are cut slanted so that it folds in clear
    // of the floor and the rim.
    let tab = (d - 1.0).max(0.5 * d).min(0.45 * h);
    let slant = (0.25 * d).min(3.0);
    let notch = (0.6 * d).min(10.0);
    // Clockwise from the top wall's top-left corner: its right tab, the right wall.
    let mut cut: Vec<(f32, f32)> =
        vec![(x1, 0.0), (x2, 0.0), (x2 + tab, slant), (x2 + tab, y1 - slant), (x2, y1), (x3, y1)];
    if !lid {
        thumb_notch(&mut cut, (x3, (y1 + y2) / 2.0), notch, -1.0);
    }
    cut.push((x3, y2));
    cut.push((x2, y2));
    // The bottom wall with its two tabs.
    cut.push((x2 + tab, y2 + slant));
    cut.push((x2 + tab, y3 - slant));
    cut.push((x2, y3));
    cut.push((x1, y3));
    cut.push((x1 - tab, y3 - slant));
    cut.push((x1 - tab, y2 + slant));
    cut.push((x1, y2));
    // The left wall, and the top wall's left tab.
    cut.push((0.0, y2));
    if !lid {
        thumb_notch(&mut cut, (0.0, (y1 + y2) / 2.0), notch, 1.0);
    }
    cut.push((0.0, y1));
    cut.push((x1, y1));
    cut.push((x1 - tab, y1 - slant));
    cut.push((x1 - tab, slant));
    let folds = vec![
        [x1, y1, x2, y1],
        [x2, y1, x2, y2],
        [x1, y2, x2, y2],
        [x1, y1, x1, y2],
        [x1, 0.0, x1, y1],
        [x2, 0.0, x2, y1],
        [x1, y2, x1, y3],
        [x2, y2, x2, y3],
    ];
    use Beyond::{Face, Paper};
    use FaceKind::{Back, Bottom, Front, Side, Top};
    let panel =
        |kind, rect: [f32; 4], beyond: [Beyond; 4], rotated| Panel { kind, rect, beyond, rotated };
    let panels = if lid {
        vec![
            panel(Front, [x1, y1, w, h], [Face(Side), Face(Top), Face(Side), Face(Bottom)], false),
            panel(Side, [0.0, y1, d, h], [Paper, Paper, Face(Front), Paper], false),
            panel(Side, [x2, y1, d, h], [Face(Front), Paper, Paper, Paper], false),
            // The top wall folds down from the front's top edge: turned half a turn on the
            // flat, it reads from the front as a tuck box's lid does.
            panel(Top, [x1, 0.0, w, d], [Paper, Paper, Paper, Face(Front)], true),
            panel(Bottom, [x1, y2, w, d], [Paper, Face(Front), Paper, Paper], false),
        ]
    } else {
        vec![panel(Back, [x1, y1, w, h], [Paper; 4], false)]
    };
    Flat { part, width: x3, height: y3, die: Die { cut, folds }, panels }
}

/// A half circle cut into a wall from its free edge at `centre` (x, y), the edge running
/// down (`inward` −1: the notch goes left) or up (+1: right), as the outline goes round.
fn thumb_notch(points: &mut Vec<(f32, f32)>, centre: (f32, f32), r: f32, inward: f32) {
    let (cx, cy) = centre;
    let down = -inward;
    points.push((cx, cy - down * r));
    for k in 1..NOTCH_STEPS {
        let a = std::f32::consts::PI * k as f32 / NOTCH_STEPS as f32;
        points.push((cx + inward * r * a.sin(), cy - down * r * a.cos()));
    }
    points.push((cx, cy + down * r));
}

/// Segments of the thumb notch's half circle.
const NOTCH_STEPS: usize = 24;
/// Segments of a tuck flap's rounded corner.
const CORNER_STEPS: usize = 8;

/// A quarter circle about `centre` from angle `from` to `to` (degrees, y down: 270 is up).
fn arc_corner(points: &mut Vec<(f32, f32)>, centre: (f32, f32), r: f32, from: f32, to: f32) {
    for k in 0..=CORNER_STEPS {
        let a = (from + (to - from) * k as f32 / CORNER_STEPS as f32).to_radians();
        points.push((centre.0 + r * a.cos(), centre.1 + r * a.sin()));
    }
}

/// The flats of a box of `style` with this inside: its one piece, or its lid and base.
pub fn flats(style: BoxStyle, inside: (Length, Length, Length)) -> Vec<Flat> {
    match style {
        BoxStyle::Tuck => vec![tuck(inside)],
        BoxStyle::Telescope => telescope(inside).to_vec(),
    }
}

/// Whether the flat fits on a paper either way round with margins; the size to lay it on.
pub fn fits(flat: &Flat, paper: (Length, Length)) -> Option<(Length, Length)> {
    let (pw, ph) = (paper.0.to_mm(), paper.1.to_mm());
    let need = (flat.width + 2.0 * MARGIN_MM, flat.height + 2.0 * MARGIN_MM);
    if need.0 <= pw && need.1 <= ph {
        Some(paper)
    } else if need.0 <= ph && need.1 <= pw {
        Some((paper.1, paper.0))
    } else {
        None
    }
}

/// The flat centred on a page of `page` size (as `fits` turned it): each face's art on
/// its panel, clipped to the panel and its reach, and the die-line.
pub fn sheet(def: &BoxDef, b: usize, flat: &Flat, page: (Length, Length)) -> Sheet {
    let ox = (page.0.to_mm() - flat.width) / 2.0;
    let oy = (page.1.to_mm() - flat.height) / 2.0;
    let mm = Length::mm;
    let mut sheet = Sheet::blank(page.0, page.1);
    for panel in &flat.panels {
        let Some(face) = def.faces.iter().position(|f| f.kind == panel.kind) else { continue };
        let [x, y, w, h] = panel.rect;
        let rect = Rect { x: mm(ox + x), y: mm(oy + y), w: mm(w), h: mm(h) };
        // Art reaches past an edge by the bleed where a flap, the cut or a face left
        // blank lies beyond it, and stops at a fold shared with a printed face.
        let reach = panel.beyond.map(|beyond| match beyond {
            Beyond::Face(kind) if def.faces.iter().any(|f| f.kind == kind) => 0.0,
            _ => def.bleed.to_mm(),
        });
        let [l, t, r, bo] = reach;
        let clip =
            Rect { x: mm(ox + x - l), y: mm(oy + y - t), w: mm(w + l + r), h: mm(h + t + bo) };
        sheet.items.push(Placed {
            art: ArtRef::BoxFace { b, face },
            rect,
            rotated: panel.rotated,
            clip: Some(super::Outline::Rect(clip)),
            bleed: def.bleed,
        });
    }
    sheet.trim = Rect { x: mm(ox), y: mm(oy), w: mm(flat.width), h: mm(flat.height) };
    sheet.bleed = def.bleed;
    sheet.die = Some(std::sync::Arc::new(flat.die.moved(ox, oy)));
    sheet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_telescoping_box_keeps_its_two_tabs_on_a_side_wall_apart() {
        let mm = Length::mm;
        // 300 cards: walls 97 mm high on a floor 89 mm long.
        for flat in telescope((mm(64.0), mm(89.0), mm(97.0))) {
            let (d, h) = (97.0, flat.height - 2.0 * 97.0);
            // The top wall's left tab: the cut's leftmost point above the floor.
            let reach = d - flat
                .die
                .cut
                .iter()
                .filter(|p| p.1 < d - 0.01 && p.0 < d)
                .map(|p| p.0)
                .fold(f32::MAX, f32::min);
            assert!(reach > 0.0 && 2.0 * reach < h, "{}: tabs of {reach} mm on {h} mm", flat.part);
            for &(x, y) in &flat.die.cut {
                assert!((0.0..=flat.width).contains(&x) && (0.0..=flat.height).contains(&y));
            }
        }
    }

    #[test]
    fn the_flat_of_a_poker_deck_box_is_its_panels_and_flaps() {
        let mm = Length::mm;
        let flat = tuck((mm(64.0), mm(89.0), mm(20.84)));
        // Glue flap, two faces, two sides.
        assert!((flat.width - (10.0 + 128.0 + 41.68)).abs() < 0.01);
        let first = flat.die.cut[0];
        assert_eq!(first, (10.0, flat.panels[1].rect[1]), "starts at the glue fold");
        // The cut never leaves the flat's box.
        for &(x, y) in &flat.die.cut {
            let inside = |v: f32, most: f32| (-0.001..=most + 0.001).contains(&v);
            assert!(inside(x, flat.width) && inside(y, flat.height), "{x}, {y}");
        }
        assert_eq!(flat.die.folds.len(), 12);
    }
}
