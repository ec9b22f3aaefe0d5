//! What lies under a text, read from the tree instead of a rendered picture: the plain
//! colours a piece draws over a text's box. When every one of them is plainly readable
//! against the text, rendering the piece to find its background can tell nothing more;
//! anything else (an image, a gradient, a translucent, clipped, masked or filtered group)
//! is left to the picture. A translucent plain fill (a shaded column of a score pad) is
//! followed: it shows its blend with each colour under it.

use usvg::{Node, Paint, Rect, Transform};

/// One thing a piece paints, in drawing order.
struct Layer<'t> {
    /// Where it may paint (a stroke's half-width included).
    bbox: Rect,
    /// Its colour and opacity, when it paints one colour and no group blends it.
    colour: Option<([u8; 3], f32)>,
    /// Its shape and where that lies on the piece, when it is a plain fill that nothing
    /// clips: what it covers hides (or tints) all under it.
    filled: Option<(&'t usvg::Path, Transform)>,
    /// When it is a stroke: its path, where that lies, and half its width there. An area
    /// well inside a convex outline is not touched by the line drawn round it (a frame).
    outline: Option<(&'t usvg::Path, Transform, f32)>,
    /// Its shape's convex polygon, traced when first asked for (a card's background is
    /// asked about by every text on it).
    traced: std::cell::OnceCell<Option<Vec<(f32, f32)>>>,
}

impl Layer<'_> {
    /// Whether it fills all of `area`: only a shape that could hold the area is traced.
    fn covers(&self, area: Rect) -> bool {
        let b = self.bbox;
        let holds = b.left() <= area.left()
            && b.top() <= area.top()
            && b.right() >= area.right()
            && b.bottom() >= area.bottom();
        let Some((path, at)) = self.filled.filter(|_| holds) else { return false };
        self.polygon(path, at).is_some_and(|polygon| covers(polygon, area))
    }

    /// Whether it is a line drawn round a convex shape that holds `area` clear of it.
    fn clear_of(&self, area: Rect) -> bool {
        let Some((path, at, half)) = self.outline else { return false };
        let Some(away) = Rect::from_ltrb(
            area.left() - half,
            area.top() - half,
            area.right() + half,
            area.bottom() + half,
        ) else {
            return false;
        };
        self.polygon(path, at).is_some_and(|polygon| covers(polygon, away))
    }

    fn polygon(&self, path: &usvg::Path, at: Transform) -> Option<&[(f32, f32)]> {
        self.traced.get_or_init(|| convex_inside(path, at)).as_deref()
    }
}

/// How a group's content lands on the piece.
#[derive(Clone, Copy)]
struct Landing {
    /// A group changes its colours (opacity, mask, filter, blend mode): none is plain.
    blended: bool,
    /// A clip path cuts it: it covers nothing for sure.
    clipped: bool,
    /// From the tree's own coordinates to the piece's: not the identity inside SVG art
    /// placed as an image (an inline icon), whose tree has coordinates of its own.
    place: Transform,
}

/// A piece's layers, flattened in drawing order: texts' glyphs among them.
pub struct Layers<'t> {
    layers: Vec<Layer<'t>>,
    /// A layer whose box could not be placed on the piece: it may be anywhere.
    lost: bool,
}

impl<'t> Layers<'t> {
    pub fn of(tree: &'t usvg::Tree) -> Layers<'t> {
        let mut layers = Layers { layers: Vec::new(), lost: false };
        let landing = Landing { blended: false, clipped: false, place: Transform::identity() };
        layers.walk(tree.root(), landing);
        layers
    }

    fn push(&mut self, layer: Option<Layer<'t>>) {
        match layer {
            Some(layer) => self.layers.push(layer),
            None => self.lost = true,
        }
    }

    /// A layer that covers nothing, at `bbox` in the tree's own coordinates.
    fn thing(bbox: Rect, colour: Option<([u8; 3], f32)>, landing: Landing) -> Option<Layer<'t>> {
        let bbox = bbox.transform(landing.place)?;
        Some(Layer { bbox, colour, filled: None, outline: None, traced: Default::default() })
    }

    fn walk(&mut self, group: &'t usvg::Group, landing: Landing) {
        let plain = |paint, opacity| plain(paint, opacity, landing.blended);
        for node in group.children() {
            match node {
                Node::Group(g) => {
                    let blended = landing.blended
                        || g.opacity().get() < 1.0
                        || g.mask().is_some()
                        || !g.filters().is_empty()
                        || g.blend_mode() != usvg::BlendMode::Normal;
                    let clipped = landing.clipped || g.clip_path().is_some();
                    if !g.filters().is_empty() {
                        // A filter (a shadow) paints beyond its children.
                        let bbox = g.abs_layer_bounding_box().to_rect();
                        self.push(Self::thing(bbox, None, landing));
                    }
                    self.walk(g, Landing { blended, clipped, ..landing });
                }
                Node::Path(p) if p.is_visible() => {
                    let fill = p.fill().map(|f| {
                        let colour = plain(f.paint(), f.opacity());
                        let mut layer = Self::thing(p.abs_bounding_box(), colour, landing)?;
                        if colour.is_some() && !landing.clipped {
                            layer.filled =
                                Some((&**p, landing.place.pre_concat(p.abs_transform())));
                        }
                        Some(layer)
                    });
                    let stroke = p.stroke().map(|s| {
                        let colour = plain(s.paint(), s.opacity());
                        let mut layer = Self::thing(p.abs_stroke_bounding_box(), colour, landing)?;
                        let at = landing.place.pre_concat(p.abs_transform());
                        let (sx, sy) = at.get_scale();
                        layer.outline = Some((&**p, at, s.width().get() / 2.0 * sx.max(sy)));
                        Some(layer)
                    });
                    let (first, second) = match p.paint_order() {
                        usvg::PaintOrder::FillAndStroke => (fill, stroke),
                        usvg::PaintOrder::StrokeAndFill => (stroke, fill),
                    };
                    for layer in first.into_iter().chain(second) {
                        self.push(layer);
                    }
                }
                Node::Path(_) => {}
                // SVG art (an icon in a text): its own layers, placed where it is drawn.
                Node::Image(i) if i.is_visible() => match i.kind() {
                    usvg::ImageKind::SVG(art) => {
                        let place = landing.place.pre_concat(i.abs_transform());
                        self.walk(art.root(), Landing { place, ..landing })
                    }
                    _ => self.push(Self::thing(i.abs_bounding_box(), None, landing)),
                },
                Node::Image(_) => {}
                Node::Text(t) if decorated(t) => self.walk(t.flattened(), landing),
                // A layer a span's colour over the whole text: its glyphs' outlines are
                // many paths, and a text covers nothing.
                Node::Text(t) => {
                    for span in t.chunks().iter().flat_map(|c| c.spans()) {
                        if !span.is_visible() {
                            continue;
                        }
                        let fill = span.fill().map(|f| plain(f.paint(), f.opacity()));
                        let stroke = span.stroke().map(|s| plain(s.paint(), s.opacity()));
                        for colour in fill.into_iter().chain(stroke) {
                            self.push(Self::thing(t.abs_stroke_bounding_box(), colour, landing));
                        }
                    }
                }
            }
        }
    }

    /// Every colour a picture of `area` (in the tree's units) could show, texts' included:
    /// from the topmost opaque shape that covers the whole area (or else the white paper)
    /// up. `None` when something over the area is not a plain colour.
    pub fn colours_over(&self, area: Rect) -> Option<Vec<[u8; 3]>> {
        if self.lost {
            return None;
        }
        let over: Vec<&Layer> = self
            .layers
            .iter()
            .filter(|l| {
                let b = l.bbox;
                !(b.right() <= area.left()
                    || b.left() >= area.right()
                    || b.bottom() <= area.top()
                    || b.top() >= area.bottom()
                    || l.clear_of(area))
            })
            .collect();
        let mut base = None;
        for (i, layer) in over.iter().enumerate().rev() {
            let (rgb, opacity) = layer.colour?;
            if opacity >= 1.0 && layer.covers(area) {
                base = Some((i, rgb));
                break;
            }
        }
        let mut colours = vec![base.map_or([255; 3], |(_, rgb)| rgb)];
        for layer in &over[base.map_or(0, |(i, _)| i + 1)..] {
            let (rgb, opacity) = layer.colour?;
            let shown: Vec<[u8; 3]> = match opacity >= 1.0 {
                true => vec![rgb],
                false => colours.iter().map(|&under| blend(rgb, opacity, under)).collect(),
            };
            if opacity < 1.0 && layer.covers(area) {
                colours.clear();
            }
            for c in shown {
                if !colours.contains(&c) {
                    colours.push(c);
                }
            }
        }
        Some(colours)
    }
}

/// `rgb` at `opacity` over `under`.
fn blend(rgb: [u8; 3], opacity: f32, under: [u8; 3]) -> [u8; 3] {
    let mix = |a: u8, b: u8| (a as f32 * opacity + b as f32 * (1.0 - opacity)).round() as u8;
    [mix(rgb[0], under[0]), mix(rgb[1], under[1]), mix(rgb[2], under[2])]
}

/// Whether a span of the text is underlined, overlined or struck through: lines of
/// their own colours, drawn as paths of the text's outline.
fn decorated(text: &usvg::Text) -> bool {
    text.chunks().iter().flat_map(|c| c.spans()).any(|s| {
        let d = s.decoration();
        d.underline().is_some() || d.overline().is_some() || d.line_through().is_some()
    })
}

/// A colour and its opacity, unblended by a group.
fn plain(paint: &Paint, opacity: usvg::Opacity, blended: bool) -> Option<([u8; 3], f32)> {
    match paint {
        Paint::Color(c) if !blended => Some(([c.red, c.green, c.blue], opacity.get())),
        _ => None,
    }
}

/// The path's outline as a convex polygon through points on it (in the tree's units),
/// which lies inside the filled area: `None` unless it is one closed convex shape (a
/// rectangle, a rounded rectangle, a circle, a band).
fn convex_inside(path: &usvg::Path, at: Transform) -> Option<Vec<(f32, f32)>> {
    use usvg::tiny_skia_path::PathSegment;
    let data = path.data().clone().transform(at)?;
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
        usvg::Tree::from_str(svg, &crate::svg::sealed(Default::default())).unwrap()
    }

    fn area(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect::from_xywh(x, y, w, h).unwrap()
    }

    const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
        <rect width="100" height="100" rx="8" fill="#f0e0c0"/>
        <rect x="0" y="10" width="100" height="20" fill="#203060"/>
        <circle cx="80" cy="80" r="15" fill="#c00000" opacity="0.5"/>
        <rect x="40" y="85" width="20" height="10" fill="#000000" fill-opacity="0.5"/>
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
            Some(vec![[0xf0, 0xe0, 0xc0], [0x20, 0x30, 0x60]])
        );
        // In the rounded corner, the paper shows.
        assert_eq!(colours(&t, area(0.0, 0.0, 5.0, 5.0)), Some(vec![[255; 3], [0xf0, 0xe0, 0xc0]]));
    }

    #[test]
    fn a_translucent_shape_or_an_image_leaves_the_question_to_the_picture() {
        let t = tree(SVG);
        assert_eq!(colours(&t, area(75.0, 75.0, 5.0, 5.0)), None);
        assert_eq!(colours(&t, area(58.0, 42.0, 5.0, 5.0)), None);
    }

    #[test]
    fn a_translucent_fill_shows_its_blend_with_what_is_under_it() {
        let t = tree(SVG);
        // Wholly inside the shading: only the card seen through it.
        assert_eq!(colours(&t, area(45.0, 87.0, 5.0, 5.0)), Some(vec![[0x78, 0x70, 0x60]]));
        // Across its edge: the card, and the card shaded.
        assert_eq!(
            colours(&t, area(45.0, 80.0, 5.0, 10.0)),
            Some(vec![[0xf0, 0xe0, 0xc0], [0x78, 0x70, 0x60]])
        );
    }

    #[test]
    fn a_frame_drawn_round_a_text_is_not_under_it_unless_its_line_reaches_it() {
        let t = tree(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
            <rect width="100" height="100" fill="#ffffff"/>
            <rect x="10" y="10" width="80" height="80" rx="5" fill="none" stroke="#d4a017" stroke-width="4"/>
        </svg>"##,
        );
        // Well inside the frame: only the card.
        assert_eq!(colours(&t, area(20.0, 20.0, 60.0, 10.0)), Some(vec![[255; 3]]));
        // 1 unit from the frame's centre line, inside its 2-unit half width: the gold shows.
        assert_eq!(
            colours(&t, area(20.0, 11.0, 60.0, 10.0)),
            Some(vec![[255; 3], [0xd4, 0xa0, 0x17]])
        );
    }

    #[test]
    fn a_concave_shape_covers_nothing() {
        let t = tree(SVG);
        // Inside the arrow's bounding box, partly in its notch: the card shows through.
        assert_eq!(
            colours(&t, area(30.0, 65.0, 8.0, 10.0)),
            Some(vec![[0xf0, 0xe0, 0xc0], [0, 0x80, 0]])
        );
    }
}
