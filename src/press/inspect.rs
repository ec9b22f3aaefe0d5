//! What a press needs to hear about a piece's art: ink over the limit, transparency that
//! PDF/X-1a cannot hold, colours the profile moves far.

use std::sync::Arc;

use super::{hex, ink, Pdfx, Press, PressImage};

/// What a piece's art does that a press needs to hear about.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// A colour or image over the ink limit: what it is and the ink it takes.
    Ink { what: String, ink: f32 },
    /// Transparency, which PDF/X-1a cannot hold: what uses it.
    Transparency(String),
    /// The piece drawn as a picture for PDF/X-1a, measured before: its smallest text
    /// (words, pt) and thinnest line (pt).
    Flattened { text: Option<(String, f32)>, line: Option<f32> },
    /// Text under `Press::fine_text_pt` printed in more than one ink: what, its size, its
    /// inks.
    FineText { what: String, pt: f32, cmyk: [u8; 4] },
    /// A line thinner than the press's floor (pt), in a piece that stays vector.
    Hairline { pt: f32 },
}

/// What `inspect` meets in a tree, in order: a colour over the ink limit, or an image
/// whose ink is looked at last (a photo's is known once the photo is converted).
#[derive(Debug)]
pub(super) enum Item {
    Transparency(String),
    Ink { what: String, ink: f32 },
    Image { what: String, image: PressImage },
    FineText { what: String, pt: f32, cmyk: [u8; 4] },
    Flattened { text: Option<(String, f32)>, line: Option<f32> },
    Hairline { pt: f32 },
}

/// A tree's findings, but the ink of the photos it draws, which may still be converting.
#[derive(Debug)]
pub struct Inspection(Vec<Item>);

impl Inspection {
    /// Whether the tree uses transparency.
    pub fn transparent(&self) -> bool {
        self.0.iter().any(|item| matches!(item, Item::Transparency(_)))
    }

    /// The findings, waiting for the photos' conversions if they are under way. One per
    /// colour or image: the same colour on many elements is told once. Transparency is a
    /// finding under PDF/X-1a only (PDF/X-4 holds it).
    pub fn findings(self, press: &Press) -> Vec<Finding> {
        let mut found = Vec::new();
        for item in self.0 {
            match item {
                Item::Transparency(what) if press.pdfx == Pdfx::X1a => {
                    found.push(Finding::Transparency(what))
                }
                Item::Transparency(_) => {}
                Item::Flattened { text, line } if press.pdfx == Pdfx::X1a => {
                    found.push(Finding::Flattened { text, line })
                }
                Item::Flattened { .. } => {}
                Item::Hairline { pt } => found.push(Finding::Hairline { pt }),
                Item::Ink { what, ink } => push_ink(&mut found, what, ink),
                Item::FineText { what, pt, cmyk } => {
                    found.push(Finding::FineText { what, pt, cmyk })
                }
                Item::Image { what, image } => {
                    let ink = image.max_ink();
                    if ink > press.ink_limit + 0.5 {
                        push_ink(&mut found, what, ink);
                    }
                }
            }
        }
        found
    }
}

/// Walks a tree for colours over the ink limit and for transparency (under PDF/X-1a).
pub fn inspect(press: &Press, tree: &usvg::Tree) -> Vec<Finding> {
    inspect_ahead(press, tree).findings(press)
}

/// `inspect`, without waiting for the photos the tree draws: the PDF writer draws the
/// pages while they are converted, and asks for the findings at the end.
pub fn inspect_ahead(press: &Press, tree: &usvg::Tree) -> Inspection {
    let mut found = Vec::new();
    walk(tree.root(), false, &mut |met| match met {
        Met::Group(g) => {
            let id = id_of(g.id());
            if g.opacity().get() < 1.0 {
                note_transparency(
                    &mut found,
                    format!("a group{id} with opacity {}", g.opacity().get()),
                );
            }
            if g.mask().is_some() {
                note_transparency(&mut found, format!("a mask{id}"));
            }
            if g.blend_mode() != usvg::BlendMode::Normal {
                note_transparency(&mut found, format!("a blend mode{id}"));
            }
            if !g.filters().is_empty() {
                note_transparency(&mut found, format!("a filter{id}"));
            }
        }
        Met::Paint { paint, opacity, ink: use_, element } => {
            let what = element.describe();
            if opacity < 1.0 {
                note_transparency(&mut found, format!("{what} with opacity {opacity}"));
            }
            let ink_of = |c: usvg::Color| ink(press.cmyk([c.red, c.green, c.blue], use_));
            match paint {
                usvg::Paint::Color(c) => {
                    let i = ink_of(*c);
                    if i > press.ink_limit + 0.5 {
                        found.push(Item::Ink {
                            what: format!("{what} ({})", hex([c.red, c.green, c.blue])),
                            ink: i,
                        });
                    }
                }
                usvg::Paint::LinearGradient(_) | usvg::Paint::RadialGradient(_) => {
                    for stop in gradient_stops(paint) {
                        let c = stop.color();
                        let i = ink_of(c);
                        if i > press.ink_limit + 0.5 {
                            found.push(Item::Ink {
                                what: format!(
                                    "{what} (gradient stop {})",
                                    hex([c.red, c.green, c.blue])
                                ),
                                ink: i,
                            });
                        }
                        if stop.opacity().get() < 1.0 {
                            note_transparency(
                                &mut found,
                                format!(
                                    "{what}: a gradient stop with opacity {}",
                                    stop.opacity().get()
                                ),
                            );
                        }
                    }
                }
                // Its content is walked on its own.
                usvg::Paint::Pattern(_) => {}
            }
        }
        Met::Text(text) => fine_text(press, text, &mut found),
        Met::Image { image, data, nested } => {
            if let Some(converted) = press.image(data) {
                let what = format!("image{}", id_of(image.id()));
                let translucent = converted.translucent;
                found.push(Item::Image { what: what.clone(), image: converted });
                if translucent && nested {
                    note_transparency(&mut found, format!("{what} with transparent pixels"));
                }
            }
        }
    });
    // A piece flattened loses its text and lines to pixels: measured here, from the tree.
    // One that stays vector has its lines held to the press's floor here too, so that
    // `build` and `validate` say what preflight reads back from the file (a 0.05 mm
    // board grid passed `build --colour cmyk --strict`).
    let (text, line) = finest(tree.root());
    if found.iter().any(|item| matches!(item, Item::Transparency(_))) {
        found.push(Item::Flattened { text, line });
    } else if let Some(pt) = line.filter(|pt| *pt < press.floor.1 - 0.005) {
        found.push(Item::Hairline { pt });
    }
    Inspection(found)
}

/// The smallest text (its words and size) and the thinnest stroke of a group, in points
/// as printed (usvg's units are 1/96 in): what a piece drawn as a picture hides.
fn finest(group: &usvg::Group) -> (Option<(String, f32)>, Option<f32>) {
    let mut text: Option<(String, f32)> = None;
    let mut line: Option<f32> = None;
    walk_nodes(group, &mut |node| match node {
        usvg::Node::Text(t) => {
            let scale = t.abs_transform().get_scale().1;
            for chunk in t.chunks() {
                for span in chunk.spans().iter().filter(|s| s.is_visible()) {
                    let words = chunk.text().get(span.start()..span.end()).unwrap_or("").trim();
                    let pt = span.font_size().get() * scale * 0.75;
                    if !words.is_empty() && text.as_ref().is_none_or(|(_, p)| pt < *p) {
                        text = Some((words.chars().take(24).collect(), pt));
                    }
                }
            }
        }
        usvg::Node::Path(p) => {
            if let Some(stroke) = p.stroke() {
                let [a, b, c, d] = {
                    let t = p.abs_transform();
                    [t.sx, t.ky, t.kx, t.sy]
                };
                // The least a width becomes in any direction (the smaller singular value).
                let sum = a * a + b * b + c * c + d * d;
                let det = a * d - b * c;
                let least =
                    ((sum - (sum * sum - 4.0 * det * det).max(0.0).sqrt()) / 2.0).max(0.0).sqrt();
                let pt = stroke.width().get() * least * 0.75;
                if line.is_none_or(|l| pt < l) {
                    line = Some(pt);
                }
            }
        }
        _ => {}
    });
    (text, line)
}

/// Visits every node under `group`, into groups (not into patterns or masks: a
/// pattern's cell is a texture, a mask prints nothing of its own).
fn walk_nodes(group: &usvg::Group, visit: &mut dyn FnMut(&usvg::Node)) {
    for node in group.children() {
        visit(node);
        if let usvg::Node::Group(g) = node {
            walk_nodes(g, visit);
        }
    }
}

/// What a walk over a tree meets, in paint order.
pub(super) enum Met<'a> {
    /// A group: its opacity, mask, blend mode and filters.
    Group(&'a usvg::Group),
    /// The paint of a fill or a stroke (a pattern's content is walked after it).
    Paint { paint: &'a usvg::Paint, opacity: f32, ink: krilla_svg::Ink, element: Element<'a> },
    /// A text, before the paints of its spans.
    Text(&'a usvg::Text),
    /// A raster image; `nested` inside a pattern or an SVG image, where a translucent image
    /// cannot be laid onto what lies under it.
    Image { image: &'a usvg::Image, data: &'a Arc<Vec<u8>>, nested: bool },
}

/// What a paint belongs to, as a finding names it.
pub(super) enum Element<'a> {
    Fill(&'a str),
    Stroke(&'a str),
    /// The words of a span of text.
    Text(&'a str),
    Outline(&'a str),
}

impl Element<'_> {
    fn describe(&self) -> String {
        let words = |w: &str| w.chars().take(24).collect::<String>();
        match self {
            Element::Fill(id) => format!("the fill{}", id_of(id)),
            Element::Stroke(id) => format!("the stroke{}", id_of(id)),
            Element::Text(w) => format!("the text \"{}\"", words(w)),
            Element::Outline(w) => format!("the outline of \"{}\"", words(w)),
        }
    }
}

/// Visits every group, paint and raster image of `g`, into patterns and SVG images.
pub(super) fn walk<'a>(g: &'a usvg::Group, nested: bool, visit: &mut dyn FnMut(Met<'a>)) {
    visit(Met::Group(g));
    let paint =
        |paint: &'a usvg::Paint, opacity: f32, ink, element, visit: &mut dyn FnMut(Met<'a>)| {
            visit(Met::Paint { paint, opacity, ink, element });
            if let usvg::Paint::Pattern(pattern) = paint {
                walk(pattern.root(), true, visit);
            }
        };
    for node in g.children() {
        match node {
            usvg::Node::Group(inner) => walk(inner, nested, visit),
            usvg::Node::Path(path) => {
                if let Some(fill) = path.fill() {
                    paint(
                        fill.paint(),
                        fill.opacity().get(),
                        krilla_svg::Ink::Area,
                        Element::Fill(path.id()),
                        visit,
                    );
                }
                if let Some(stroke) = path.stroke() {
                    paint(
                        stroke.paint(),
                        stroke.opacity().get(),
                        krilla_svg::Ink::Line,
                        Element::Stroke(path.id()),
                        visit,
                    );
                }
            }
            usvg::Node::Image(image) => match image.kind() {
                usvg::ImageKind::SVG(tree) => walk(tree.root(), true, visit),
                usvg::ImageKind::PNG(data)
                | usvg::ImageKind::JPEG(data)
                | usvg::ImageKind::GIF(data)
                | usvg::ImageKind::WEBP(data) => visit(Met::Image { image, data, nested }),
            },
            usvg::Node::Text(text) => {
                visit(Met::Text(text));
                for chunk in text.chunks() {
                    for span in chunk.spans() {
                        let words = chunk.text().get(span.start()..span.end()).unwrap_or("");
                        if let Some(fill) = span.fill() {
                            paint(
                                fill.paint(),
                                fill.opacity().get(),
                                krilla_svg::Ink::Text,
                                Element::Text(words),
                                visit,
                            );
                        }
                        if let Some(stroke) = span.stroke() {
                            paint(
                                stroke.paint(),
                                stroke.opacity().get(),
                                krilla_svg::Ink::Line,
                                Element::Outline(words),
                                visit,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// An ink at least this much (of 255: 5 %) counts as one the text prints in; a trace is
/// not a plate of its own to register.
pub const FINE_TEXT_INK: u8 = 13;

/// Each span of `text` under `Press::fine_text_pt` whose colour prints in more than one
/// ink, once per colour and size in a piece: small text in several inks blurs where the
/// plates do not register. Sizes as printed (usvg's units are 1/96 in; a point 1/72).
fn fine_text(press: &Press, text: &usvg::Text, found: &mut Vec<Item>) {
    let scale = text.abs_transform().get_scale().1;
    for chunk in text.chunks() {
        for span in chunk.spans() {
            let pt = span.font_size().get() * scale * 0.75;
            let Some(usvg::Paint::Color(c)) = span.fill().map(|f| f.paint()) else { continue };
            if pt >= press.fine_text_pt - 0.05 || !span.is_visible() {
                continue;
            }
            let cmyk = press.cmyk([c.red, c.green, c.blue], krilla_svg::Ink::Text);
            if cmyk.iter().filter(|&&v| v >= FINE_TEXT_INK).count() < 2 {
                continue;
            }
            let words = chunk.text().get(span.start()..span.end()).unwrap_or("").trim();
            let colour = hex([c.red, c.green, c.blue]);
            let said = |f: &Item| matches!(f, Item::FineText { what, pt: p, .. } if what.ends_with(&format!("({colour})")) && (p - pt).abs() < 0.05);
            if !words.is_empty() && !found.iter().any(said) {
                let words: String = words.chars().take(24).collect();
                found.push(Item::FineText {
                    what: format!("the text \"{words}\" ({colour})"),
                    pt,
                    cmyk,
                });
            }
        }
    }
}

/// A gradient's stops (none for a flat colour or a pattern).
pub(super) fn gradient_stops(paint: &usvg::Paint) -> &[usvg::Stop] {
    match paint {
        usvg::Paint::LinearGradient(g) => g.stops(),
        usvg::Paint::RadialGradient(g) => g.stops(),
        _ => &[],
    }
}

/// Transparency is told once per piece: the first thing found that uses it.
pub(super) fn note_transparency(found: &mut Vec<Item>, what: String) {
    if !found.iter().any(|f| matches!(f, Item::Transparency(_))) {
        found.push(Item::Transparency(what));
    }
}

/// One finding per colour or image: the same colour on many elements is told once.
pub(super) fn push_ink(found: &mut Vec<Finding>, what: String, ink: f32) {
    let colour = what.rsplit_once('(').map(|(_, c)| c.to_string());
    let seen = found.iter().any(|f| match f {
        Finding::Ink { what: w, .. } => {
            w == &what
                || (colour.is_some() && w.rsplit_once('(').map(|(_, c)| c.to_string()) == colour)
        }
        _ => false,
    });
    if !seen {
        found.push(Finding::Ink { what, ink });
    }
}

pub(super) fn id_of(id: &str) -> String {
    if id.is_empty() {
        String::new()
    } else {
        format!(" `{id}`")
    }
}

/// A colour of the art that looks different once printed: the sRGB colour, what the press
/// prints it as (back on screen), and how far apart they look (CIEDE2000).
#[derive(Debug, Clone, PartialEq)]
pub struct Moved {
    pub colour: [u8; 3],
    pub printed: [u8; 3],
    pub delta_e: f64,
}

/// The flat colours of a tree (fills, strokes, text, gradient stops) that move more than
/// `threshold` ΔE through the press, most moved first.
pub fn moved_colours(press: &Press, tree: &usvg::Tree, threshold: f64) -> Vec<Moved> {
    let mut colours = std::collections::BTreeSet::new();
    walk(tree.root(), false, &mut |met| {
        if let Met::Paint { paint, .. } = met {
            if let usvg::Paint::Color(c) = paint {
                colours.insert([c.red, c.green, c.blue]);
            }
            colours.extend(
                gradient_stops(paint)
                    .iter()
                    .map(|s| [s.color().red, s.color().green, s.color().blue]),
            );
        }
    });
    let mut moved: Vec<Moved> = colours
        .into_iter()
        .map(|colour| {
            let printed = press.proof(colour);
            Moved { colour, printed, delta_e: press.delta_e(colour, printed) }
        })
        .filter(|m| m.delta_e > threshold)
        .collect();
    moved.sort_by(|a, b| b.delta_e.total_cmp(&a.delta_e));
    moved
}
