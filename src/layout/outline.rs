//! Outlines of pieces (rectangles, rounded rectangles, circles, hexagons) as paths: what
//! clips art, draws cut guides and becomes cut files.

use super::{hex, Rect};
use crate::length::Length;
use crate::model::{HexTop, Shape};

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
