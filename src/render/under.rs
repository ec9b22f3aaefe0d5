//! What lies under a text, read from the tree instead of a rendered picture: the plain
//! colours a piece draws over a text's box. When every one of them is plainly readable
//! against the text, rendering the piece to find its background can tell nothing more;
//! anything else (an image, a gradient, a translucent, clipped, masked or filtered group)
//! is left to the picture.

use usvg::{Node, Paint, Rect};

/// One thing a piece paints, in drawing order.
struct Layer<'t> {
    /// Where it may paint (a stroke's half-width included).
    bbox: Rect,
    /// Its colour, when it paints one opaque colour and nothing blends it.
    colour: Option<[u8; 3]>,
    /// Its shape, when it is a plain fill: what it covers hides everything under it.
    filled: Option<&'t usvg::Path>,
}

/// A piece's layers, flattened in drawing order: texts' glyphs among them.
pub struct Layers<'t>(Vec<Layer<'t>>);

impl<'t> Layers<'t> {
    pub fn of(tree: &'t usvg::Tree) -> Layers<'t> {
        let mut layers = Layers(Vec::new());
        layers.walk(tree.root(), false);
        layers
    }

    /// `blended`: inside a group that changes how its content lands (opacity, clip,
    /// mask, filter, blend mode): no colour in it is plain.
    fn walk(&mut self, group: &'t usvg::Group, blended: bool) {
        for node in group.children() {
            match node {
                Node::Group(g) => {
                    let blended = blended
                        || g.opacity().get() < 1.0
                        || g.clip_path().is_some()
                        || g.mask().is_some()
                        || !g.filters().is_empty()
                        || g.blend_mode() != usvg::BlendMode::Normal;
                    if !g.filters().is_empty() {
                        // A filter (a shadow) paints beyond its children.
                        let bbox = g.abs_layer_bounding_box().to_rect();
                        self.0.push(Layer { bbox, colour: None, filled: None });
                    }
                    self.walk(g, blended);
                }
                Node::Path(p) if p.is_visible() => {
                    let fill = p.fill().map(|f| {
                        let colour = plain(f.paint(), f.opacity(), blended);
                        let filled = colour.map(|_| &**p);
                        Layer { bbox: p.abs_bounding_box(), colour, filled }
                    });
                    let stroke = p.stroke().map(|s| Layer {
                        bbox: p.abs_stroke_bounding_box(),
                        colour: plain(s.paint(), s.opacity(), blended),
                        filled: None,
                    });
                    let (first, second) = match p.paint_order() {
                        usvg::PaintOrder::FillAndStroke => (fill, stroke),
                        usvg::PaintOrder::StrokeAndFill => (stroke, fill),
                    };
                    self.0.extend(first.into_iter().chain(second));
                }
                Node::Path(_) => {}
                Node::Image(i) => {
                    let bbox = i.abs_bounding_box();
                    self.0.push(Layer { bbox, colour: None, filled: None });
                }
                Node::Text(t) => self.walk(t.flattened(), blended),
            }
        }
    }

    /// Every colour a picture of `area` (in the tree's units) could show, texts' included:
    /// from the top down to the first plain shape that covers the whole area, or else the
    /// white paper. `None` when something over the area is not a plain colour.
    pub fn colours_over(&self, area: Rect) -> Option<Vec<[u8; 3]>> {
        let mut colours: Vec<[u8; 3]> = Vec::new();
        for layer in self.0.iter().rev() {
            let apart = layer.bbox.right() <= area.left()
                || layer.bbox.left() >= area.right()
                || layer.bbox.bottom() <= area.top()
                || layer.bbox.top() >= area.bottom();
            if apart {
                continue;
            }
            let colour = layer.colour?;
            if !colours.contains(&colour) {
                colours.push(colour);
            }
            // Only a shape that could hold the area is traced.
            let holds = |b: Rect| {
                b.left() <= area.left()
                    && b.top() <= area.top()
                    && b.right() >= area.right()
                    && b.bottom() >= area.bottom()
            };
            let inside = layer.filled.filter(|_| holds(layer.bbox)).and_then(convex_inside);
            if inside.is_some_and(|polygon| covers(&polygon, area)) {
                return Some(colours);
            }
        }
        if !colours.contains(&[255; 3]) {
            colours.push([255; 3]);
        }
        Some(colours)
    }
}

/// An opaque colour, unblended.
fn plain(paint: &Paint, opacity: usvg::Opacity, blended: bool) -> Option<[u8; 3]> {
    match paint {
        Paint::Color(c) if !blended && opacity.get() >= 1.0 => Some([c.red, c.green, c.blue]),
        _ => None,
    }
}

/// The path's outline as a convex polygon through points on it (in the tree's units),
/// which lies inside the filled area: `None` unless it is one closed convex shape (a
/// rectangle, a rounded rectangle, a circle, a band).
fn convex_inside(path: &usvg::Path) -> Option<Vec<(f32, f32)>> {
    use usvg::tiny_skia_path::PathSegment;
    let data = path.data().clone().transform(path.abs_transform())?;
    let mut points: Vec<(f32, f32)> = Vec::new();
    let mut from = (0.0f32, 0.0f32);
    let mut moves = 0;
    for segment in data.segments() {
        // Points on a curve: the chords between them stay inside a convex shape.
        let mut curve = |at: &dyn Fn(f32) -> (f32, f32)| {
            for k in 1..=4 {
                points.push(at(k as f32 / 4.0));
            }
        };
        match segment {
            PathSegment::MoveTo(p) => {
                moves += 1;
                from = (p.x, p.y);
                points.push(from);
            }
            PathSegment::LineTo(p) => points.push((p.x, p.y)),
            PathSegment::QuadTo(c, p) => {
                let (p0, c, p) = (from, (c.x, c.y), (p.x, p.y));
                curve(&|t| {
                    let u = 1.0 - t;
                    let f = |a: f32, b: f32, d: f32| u * u * a + 2.0 * u * t * b + t * t * d;
                    (f(p0.0, c.0, p.0), f(p0.1, c.1, p.1))
                });
            }
            PathSegment::CubicTo(c1, c2, p) => {
                let (p0, c1, c2, p) = (from, (c1.x, c1.y), (c2.x, c2.y), (p.x, p.y));
                curve(&|t| {
                    let u = 1.0 - t;
                    let f = |a: f32, b: f32, c: f32, d: f32| {
                        u * u * u * a + 3.0 * u * u * t * b + 3.0 * u * t * t * c + t * t * t * d
                    };
                    (f(p0.0, c1.0, c2.0, p.0), f(p0.1, c1.1, c2.1, p.1))
                });
            }
            PathSegment::Close => {}
        }
        if let Some(&last) = points.last() {
            from = last;
        }
    }
    points.dedup_by(|a, b| (a.0 - b.0).abs() < 1e-4 && (a.1 - b.1).abs() < 1e-4);
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    if moves != 1 || points.len() < 3 {
        return None;
    }
    // Convex: every turn the same way, and once round in all.
    let n = points.len();
    let (mut sign, mut turned) = (0.0f32, 0.0f32);
    for i in 0..n {
        let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
        let (u, v) = ((b.0 - a.0, b.1 - a.1), (c.0 - b.0, c.1 - b.1));
        let cross = u.0 * v.1 - u.1 * v.0;
        let dot = u.0 * v.0 + u.1 * v.1;
        if cross.abs() > 1e-6 {
            if sign != 0.0 && cross.signum() != sign {
                return None;
            }
            sign = cross.signum();
        }
        turned += cross.atan2(dot);
    }
    ((turned.abs() - std::f32::consts::TAU).abs() < 0.01).then_some(points)
}

/// Whether the convex `polygon` holds all of `area`.
fn covers(polygon: &[(f32, f32)], area: Rect) -> bool {
    let n = polygon.len();
    let corners = [
        (area.left(), area.top()),
        (area.right(), area.top()),
        (area.right(), area.bottom()),
        (area.left(), area.bottom()),
    ];
    let side = |a: (f32, f32), b: (f32, f32), p: (f32, f32)| {
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
    };
    // Which side is inside: the way the polygon turns.
    let turn: f32 =
        (0..n).map(|i| side(polygon[i], polygon[(i + 1) % n], polygon[(i + 2) % n])).sum();
    corners
        .iter()
        .all(|&p| (0..n).all(|i| side(polygon[i], polygon[(i + 1) % n], p) * turn.signum() >= 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(svg: &str) -> usvg::Tree {
        usvg::Tree::from_str(svg, &usvg::Options::default()).unwrap()
    }

    fn area(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect::from_xywh(x, y, w, h).unwrap()
    }

    const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
        <rect width="100" height="100" rx="8" fill="#f0e0c0"/>
        <rect x="0" y="10" width="100" height="20" fill="#203060"/>
        <circle cx="80" cy="80" r="15" fill="#c00000" opacity="0.5"/>
        <path d="M10 60 L40 60 L25 70 L40 80 L10 80 Z" fill="#008000"/>
        <image x="60" y="40" width="10" height="10" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="/>
    </svg>"##;

    fn colours(tree: &usvg::Tree, at: Rect) -> Option<Vec<[u8; 3]>> {
        Layers::of(tree).colours_over(at)
    }

    #[test]
    fn a_band_on_a_rounded_card_hides_the_paper_and_the_card_under_it() {
        let t = tree(SVG);
        assert_eq!(colours(&t, area(20.0, 15.0, 30.0, 10.0)), Some(vec![[0x20, 0x30, 0x60]]));
        // Across the band's edge: the band and the card.
        assert_eq!(
            colours(&t, area(20.0, 25.0, 30.0, 10.0)),
            Some(vec![[0x20, 0x30, 0x60], [0xf0, 0xe0, 0xc0]])
        );
        // In the rounded corner, the paper shows.
        assert_eq!(colours(&t, area(0.0, 0.0, 5.0, 5.0)), Some(vec![[0xf0, 0xe0, 0xc0], [255; 3]]));
    }

    #[test]
    fn a_translucent_shape_or_an_image_leaves_the_question_to_the_picture() {
        let t = tree(SVG);
        assert_eq!(colours(&t, area(75.0, 75.0, 5.0, 5.0)), None);
        assert_eq!(colours(&t, area(58.0, 42.0, 5.0, 5.0)), None);
    }

    #[test]
    fn a_concave_shape_covers_nothing() {
        let t = tree(SVG);
        // Inside the arrow's bounding box, partly in its notch: the card shows through.
        assert_eq!(
            colours(&t, area(30.0, 65.0, 8.0, 10.0)),
            Some(vec![[0, 0x80, 0], [0xf0, 0xe0, 0xc0]])
        );
    }
}
