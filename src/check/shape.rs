//! Text inside the piece (checks `off-piece` and `safe-zone`): how far each text's ink
//! reaches past the piece's cut, measured against the piece's real outline (a round
//! token or sticker, a hex tile, a card's rounded corners), not only its rectangle.

use super::{Finding, Outline};
use crate::length::Length;
use crate::model::{HexTop, Shape};

/// Text on a card stays this far inside the cut (print shops ask for 3 mm).
pub const SAFE_MM: f32 = 3.0;

/// Text whose ink leaves the piece by more than this (mm) is off it: a tenth of a
/// millimetre is the antialiasing of a letter's edge.
const OFF_MM: f32 = 0.1;

/// Each text that runs off the piece (`off-piece`), or, on a piece with a bleed (one that is
/// cut), that lies inside the safe zone (`safe-zone`).
pub fn findings(
    tree: &usvg::Tree,
    texts: &[&usvg::Text],
    outline: Outline,
    bleed: Length,
) -> Vec<Finding> {
    let (off_piece, safe_zone) = (!super::off("off-piece"), !super::off("safe-zone"));
    if !off_piece && !safe_zone {
        return Vec::new();
    }
    let safe = if bleed > Length::ZERO { SAFE_MM } else { 0.0 };
    let mut found = Vec::new();
    for text in texts {
        let Some(reach) = reach(tree, text, outline, bleed) else { continue };
        let words: String = text.chunks().iter().map(|c| c.text()).collect::<Vec<_>>().join(" ");
        let short: String = words.chars().take(40).collect();
        let short = if words.chars().count() > 40 { format!("{short}…") } else { short };
        if reach.mm > OFF_MM {
            if off_piece {
                found.push(Finding::OffPiece { text: short, mm: reach.mm, edge: reach.edge });
            }
        } else if -reach.mm < safe - 0.05 && safe_zone {
            found.push(Finding::SafeZone { text: short, mm: -reach.mm, safe, edge: reach.edge });
        }
    }
    found
}

/// How far a text's ink reaches past the outline (mm): positive when it runs off, negative
/// its distance inside; and the part of the outline it crosses when that is not a straight
/// cut.
struct Reach {
    mm: f32,
    edge: Option<&'static str>,
}

/// The ink of `text` (the outlines usvg made of its glyphs, not its line boxes) against
/// the piece's outline, on a canvas widened by `bleed` on every side.
fn reach(tree: &usvg::Tree, text: &usvg::Text, outline: Outline, bleed: Length) -> Option<Reach> {
    let (w, h) = (outline.size.0.to_mm(), outline.size.1.to_mm());
    let mm_per_unit = (outline.size.0 + bleed * 2.0).to_mm() / tree.size().width();
    let b = bleed.to_mm();
    let ink = text.flattened().bounding_box().transform(text.abs_transform())?;
    let (left, top) = (ink.left() * mm_per_unit - b, ink.top() * mm_per_unit - b);
    let (right, bottom) = (ink.right() * mm_per_unit - b, ink.bottom() * mm_per_unit - b);
    // Past the rectangle: the whole answer for a square-cornered piece.
    let square = [-left, -top, right - w, bottom - h].into_iter().fold(f32::MIN, f32::max);
    let edge = match outline.shape {
        Shape::Rect if outline.corner <= Length::ZERO => {
            return Some(Reach { mm: square, edge: None })
        }
        Shape::Rect => "rounded corner",
        Shape::Circle => "round edge",
        Shape::Hex(_) => "hexagonal edge",
    };
    // A shaped piece: every point of the glyphs' outlines against the shape. The distance
    // to a convex outline is convex, so the ink's box's corners bound the ink's own: a text
    // whose box is well inside is not walked point by point.
    let distance = |x: f32, y: f32| signed_distance(outline, x - w / 2.0, y - h / 2.0);
    let corners = [(left, top), (right, top), (right, bottom), (left, bottom)];
    if corners.iter().all(|&(x, y)| distance(x, y) < -SAFE_MM - 1.0) {
        return Some(Reach {
            mm: corners.iter().map(|&(x, y)| distance(x, y)).fold(f32::MIN, f32::max),
            edge: None,
        });
    }
    let at = text.abs_transform();
    let mut far = f32::MIN;
    ink_points(text.flattened(), at, &mut |x, y| {
        far = far.max(distance(x * mm_per_unit - b, y * mm_per_unit - b));
    });
    if far == f32::MIN {
        return None;
    }
    // Nearest the straight part of a rounded card's side, the cut is straight there.
    let edge = match outline.shape {
        Shape::Rect if far <= square + 0.05 => None,
        _ => Some(edge),
    };
    Some(Reach { mm: far, edge })
}

/// Points along the outlines in `group` (segment ends, and points along each curve: its
/// control points can lie a little off the ink), placed by `at` on the canvas.
fn ink_points(group: &usvg::Group, at: usvg::Transform, point: &mut dyn FnMut(f32, f32)) {
    use usvg::tiny_skia_path::PathSegment;
    for node in group.children() {
        match node {
            usvg::Node::Path(path) => {
                let mut put = |x: f32, y: f32| {
                    let mut p = usvg::tiny_skia_path::Point::from_xy(x, y);
                    at.map_point(&mut p);
                    point(p.x, p.y);
                };
                let mut from = (0.0f32, 0.0f32);
                for segment in path.data().segments() {
                    let to = match segment {
                        PathSegment::MoveTo(p) | PathSegment::LineTo(p) => (p.x, p.y),
                        PathSegment::QuadTo(c, p) => {
                            for t in CURVE_STEPS {
                                let u = 1.0 - t;
                                let f = |a: f32, b: f32, d: f32| {
                                    u * u * a + 2.0 * u * t * b + t * t * d
                                };
                                put(f(from.0, c.x, p.x), f(from.1, c.y, p.y));
                            }
                            (p.x, p.y)
                        }
                        PathSegment::CubicTo(c1, c2, p) => {
                            for t in CURVE_STEPS {
                                let u = 1.0 - t;
                                let f = |a: f32, b: f32, c: f32, d: f32| {
                                    u * u * u * a
                                        + 3.0 * u * u * t * b
                                        + 3.0 * u * t * t * c
                                        + t * t * t * d
                                };
                                put(f(from.0, c1.x, c2.x, p.x), f(from.1, c1.y, c2.y, p.y));
                            }
                            (p.x, p.y)
                        }
                        PathSegment::Close => continue,
                    };
                    put(to.0, to.1);
                    from = to;
                }
            }
            usvg::Node::Group(inner) => ink_points(inner, at.pre_concat(inner.transform()), point),
            // A colour or bitmap glyph: its box.
            usvg::Node::Image(image) => {
                if let Some(b) = image.bounding_box().transform(at) {
                    for (x, y) in [
                        (b.left(), b.top()),
                        (b.right(), b.top()),
                        (b.right(), b.bottom()),
                        (b.left(), b.bottom()),
                    ] {
                        point(x, y);
                    }
                }
            }
            usvg::Node::Text(_) => {}
        }
    }
}

/// Where along a curve its points are taken: a glyph's curves are short, and eight points
/// put each within a hundredth of a millimetre of the ink at card sizes.
const CURVE_STEPS: [f32; 7] = [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875];

/// How far (mm) the point `x`, `y` (from the piece's centre) lies outside the outline:
/// negative inside, its distance to the nearest edge.
fn signed_distance(outline: Outline, x: f32, y: f32) -> f32 {
    let (half_w, half_h) = (outline.size.0.to_mm() / 2.0, outline.size.1.to_mm() / 2.0);
    let (x, y) = (x.abs(), y.abs());
    match outline.shape {
        Shape::Rect => {
            let r = outline.corner.to_mm().min(half_w).min(half_h);
            let (qx, qy) = (x - (half_w - r), y - (half_h - r));
            qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0) - r
        }
        Shape::Circle => {
            // An oval sticker: the distance scaled from the unit circle, close enough near
            // its edge; exact for a circle.
            let k = (x / half_w).hypot(y / half_h);
            (k - 1.0) * half_w.min(half_h)
        }
        Shape::Hex(top) => {
            // A regular hexagon: inside all three pairs of edges, each at the apothem.
            let (along, across) = match top {
                HexTop::Flat => (x, y),
                HexTop::Pointy => (y, x),
            };
            let apothem = match top {
                HexTop::Flat => half_h,
                HexTop::Pointy => half_w,
            };
            let (cos30, sin30) = (3f32.sqrt() / 2.0, 0.5);
            (across - apothem).max(along * cos30 + across * sin30 - apothem)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(shape: Shape, w: f32, h: f32, corner: f32) -> Outline {
        Outline { size: (Length::mm(w), Length::mm(h)), shape, corner: Length::mm(corner) }
    }

    #[test]
    fn distances_to_a_circle_a_hexagon_and_a_rounded_corner() {
        let round = outline(Shape::Circle, 30.0, 30.0, 0.0);
        assert!((signed_distance(round, 0.0, 0.0) + 15.0).abs() < 1e-4);
        // On the diagonal, inside the square's corner but 1 mm outside the circle.
        let d = 16.0 / 2f32.sqrt();
        assert!((signed_distance(round, d, d) - 1.0).abs() < 1e-4);
        // A flat-topped hex 40 mm across: its top edge at the apothem, its corner at 20 mm.
        let flat = outline(Shape::Hex(HexTop::Flat), 40.0, 40.0 * 3f32.sqrt() / 2.0, 0.0);
        assert!((signed_distance(flat, 0.0, 40.0 * 3f32.sqrt() / 4.0)).abs() < 1e-3);
        assert!((signed_distance(flat, 20.0, 0.0)).abs() < 1e-3);
        assert!(signed_distance(flat, 15.0, 15.0) > 0.0);
        // A 63 × 88 card with 3 mm corners: its very corner is outside, by 3·(√2 − 1).
        let card = outline(Shape::Rect, 63.0, 88.0, 3.0);
        assert!((signed_distance(card, 31.5, 44.0) - 3.0 * (2f32.sqrt() - 1.0)).abs() < 1e-4);
        assert!((signed_distance(card, 0.0, 40.0) + 4.0).abs() < 1e-4);
    }
}
