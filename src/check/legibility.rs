//! Can a player read it? The text of a drawn piece measured as printed: its size in
//! points after `textbox` shrank it, and its WCAG contrast against what is actually drawn
//! under it, read from the piece rendered (checks `text-size` and `contrast`).

use resvg::tiny_skia::{Pixmap, Transform};

use super::colour::contrast;
use super::raster::Rasteriser;
use super::under::Layers;
use super::Finding;
use crate::model::Legibility;

/// Millimetres a pixel of the rendered piece the contrast is read from: 0.4 mm (64 dpi)
/// puts a few pixels of background around and inside 6 pt letters, and a card renders in
/// well under a millisecond.
pub(super) const MM_PER_PIXEL: f32 = 0.4;

/// The size (`text-size`) and contrast (`contrast`) of every text span of `tree`, against
/// the thresholds.
/// `pictures`: also read each text's contrast from the piece rendered by it (every
/// command that writes or judges a file; a preview only measures sizes).
pub fn text_findings(
    tree: &usvg::Tree,
    check: &Legibility,
    pictures: Option<&Rasteriser>,
) -> Vec<Finding> {
    let small_on = !super::off("text-size");
    let pictures = pictures.filter(|_| !super::off("contrast"));
    let texts = readable_texts(tree);
    // Texts something is drawn over (a veil, a watermark) or that print see-through: the
    // colour they are filled with is not the colour they print in.
    let covered = match pictures {
        Some(_) => covered_texts(tree),
        None => Vec::new(),
    };

    let mut found = Vec::new();
    let mut layers: Option<Layers> = None;
    // Spans whose contrast only the picture can tell: (where their finding goes, text,
    // words, colour, contrast needed).
    let mut unsure: Vec<(usize, &usvg::Text, String, [u8; 3], f32)> = Vec::new();
    // Covered spans, read from the picture alone: (where, the text's node, words, needed).
    let mut unsure_seen: Vec<(usize, &usvg::Node, String, f32)> = Vec::new();
    for text in &texts {
        let scale = text.abs_transform().get_scale().1;
        for chunk in text.chunks() {
            for span in chunk.spans() {
                let words = chunk.text().get(span.start()..span.end()).unwrap_or_default().trim();
                if words.is_empty() || !span.is_visible() {
                    continue;
                }
                // usvg's pixels are 1/96 in; a point is 1/72 in.
                let pt = span.font_size().get() * scale * 0.75;
                if small_on && pt < check.min_text_pt - 0.05 {
                    found.push(Some(Finding::Small { text: words.to_string(), pt }));
                }
                if pictures.is_none() {
                    continue;
                }
                let Some(usvg::Paint::Color(c)) = span.fill().map(|f| f.paint()) else { continue };
                let fg = [c.red, c.green, c.blue];
                let needed = if pt >= 14.0 { check.large_contrast } else { check.contrast };
                let key: *const usvg::Text = *text;
                if let Some(&(_, node)) = covered.iter().find(|(t, _)| *t == key) {
                    unsure_seen.push((found.len(), node, words.to_string(), needed));
                    found.push(None);
                    continue;
                }
                // Plain colours under it, each readable: the picture could show nothing else.
                let layers = layers.get_or_insert_with(|| Layers::of(tree));
                let area = pixel_area(text.abs_bounding_box());
                // The layers are what is drawn under the text, never the text itself. What
                // covers all of the text's box (the first colour: the card, a band) is
                // judged whatever its colour: one like the text's own is the faintest case.
                // Of the rest (lines, marks crossing the box), one near the text's colour
                // is as `background` reads it: the text's own pixels.
                if let Some(colours) = area.and_then(|a| layers.colours_over(a)) {
                    let fg_lab = super::colour::lab(fg);
                    let unlike = |c: &&[u8; 3]| distance(super::colour::lab(**c), fg_lab) > 20.0;
                    let under = colours.first().is_some_and(|&c| faint(fg, c, needed));
                    if !under && !colours.iter().filter(unlike).any(|&c| faint(fg, c, needed)) {
                        continue;
                    }
                }
                unsure.push((found.len(), text, words.to_string(), fg, needed));
                found.push(None);
            }
        }
    }
    // A picture of the part of the piece under each text in doubt (a text's spans share
    // it): texts in two corners would make one picture of the whole piece.
    if let Some(pictures) = pictures {
        let mut pictured: Vec<(*const usvg::Text, Option<Region>)> = Vec::new();
        for (at, text, words, fg, needed) in unsure {
            let key: *const usvg::Text = text;
            let picture = match pictured.iter().position(|(t, _)| *t == key) {
                Some(i) => &pictured[i].1,
                None => {
                    pictured.push((key, Region::under(tree, &[text], pictures)));
                    &pictured[pictured.len() - 1].1
                }
            };
            let Some(picture) = picture else { continue };
            let Some(bg) = background(picture, text.abs_bounding_box(), fg) else { continue };
            if faint(fg, bg, needed) {
                let ratio = contrast(fg, bg);
                found[at] = Some(Finding::Faint { text: words, ratio, needed, fg, bg });
            }
        }
        for (at, node, words, needed) in unsure_seen {
            let usvg::Node::Text(text) = node else { continue };
            // Fine enough that a 6 pt letter has an inside of whole pixels to read.
            let fine = MM_PER_PIXEL / 4.0;
            let Some(region) = Region::under_at(tree, &[text], pictures, fine) else { continue };
            let Some(fg) = letters_as_printed(&region, node) else { continue };
            let Some(bg) = background(&region, text.abs_bounding_box(), fg) else { continue };
            if faint(fg, bg, needed) {
                let ratio = contrast(fg, bg);
                found[at] = Some(Finding::Faint { text: words, ratio, needed, fg, bg });
            }
        }
    }
    found.into_iter().flatten().collect()
}

/// The texts of `tree` that do not print in the colour they are filled with: something
/// drawn after them covers part of their box (a veil, a watermark, another text), or
/// they or a group around them are see-through. Each with its node, for its letters alone.
fn covered_texts(tree: &usvg::Tree) -> Vec<(*const usvg::Text, &usvg::Node)> {
    /// Every leaf in paint order: its box, its text (if one) and whether it is see-through.
    fn leaves<'t>(
        group: &'t usvg::Group,
        faded: bool,
        out: &mut Vec<(Option<usvg::Rect>, Option<&'t usvg::Node>, bool)>,
    ) {
        let faded = faded || group.opacity().get() < 1.0 || group.mask().is_some();
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => leaves(g, faded, out),
                usvg::Node::Text(t) => {
                    let see_through = t
                        .chunks()
                        .iter()
                        .flat_map(|c| c.spans())
                        .any(|s| s.fill().is_some_and(|f| f.opacity().get() < 1.0));
                    out.push((Some(t.abs_bounding_box()), Some(node), faded || see_through));
                }
                // What is drawn after a text veils it when it is see-through (a white
                // veil at 64 %, a watermark); an opaque mark beside it (a suit under a
                // rank) or a line crossing it (a frame) does not change its colour.
                usvg::Node::Path(p) => {
                    let see_through = p.fill().is_some_and(|f| f.opacity().get() < 1.0);
                    if p.fill().is_some() && (faded || see_through) {
                        out.push((
                            p.abs_bounding_box().to_non_zero_rect().map(|r| r.to_rect()),
                            None,
                            true,
                        ));
                    }
                }
                usvg::Node::Image(i) if faded => {
                    out.push((
                        i.abs_bounding_box().to_non_zero_rect().map(|r| r.to_rect()),
                        None,
                        true,
                    ));
                }
                usvg::Node::Image(_) => {}
            }
        }
    }
    let mut all = Vec::new();
    leaves(tree.root(), false, &mut all);
    let meets = |a: usvg::Rect, b: usvg::Rect| {
        a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom()
    };
    let mut covered = Vec::new();
    for (i, (bbox, node, see_through)) in all.iter().enumerate() {
        let (Some(bbox), Some(node)) = (bbox, node) else { continue };
        let usvg::Node::Text(text) = node else { continue };
        // Another text laid after it covers its box, not its letters (the next line's
        // box overlaps this one's).
        let over = all[i + 1..]
            .iter()
            .any(|(b, text, _)| text.is_none() && b.is_some_and(|b| meets(*bbox, b)));
        if over || *see_through {
            covered.push((&**text as *const usvg::Text, *node));
        }
    }
    covered
}

/// A text's colour as printed, read from the piece's picture: the median by luminance of
/// its letters' pixels (where the text alone covers the pixel). `None` with no such pixel.
fn letters_as_printed(region: &Region, node: &usvg::Node) -> Option<[u8; 3]> {
    let picture = &region.pixmap;
    let mut letters = Pixmap::new(picture.width(), picture.height())?;
    // The region's transform, with the node's own (render_node draws it from its layer box).
    let usvg::Node::Text(text) = node else { return None };
    let layer = node.abs_layer_bounding_box()?;
    let at = Transform::from_translate(-(region.origin.0 as f32), -(region.origin.1 as f32))
        .pre_scale(region.scale, region.scale)
        .pre_concat(text.abs_transform())
        .pre_translate(layer.x(), layer.y());
    resvg::render_node(node, at, &mut letters.as_mut())?;
    // The letters' inside, not their antialiased edges: as opaque as the text gets (a
    // see-through text is never opaque).
    let most = letters.pixels().iter().map(|p| p.alpha()).max().filter(|&a| a > 0)?;
    let inside = (most as u32 * 9 / 10) as u8;
    let mut ink: Vec<[u8; 3]> = picture
        .pixels()
        .iter()
        .zip(letters.pixels())
        .filter(|(_, alone)| alone.alpha() >= inside)
        .map(|(drawn, _)| on_white(*drawn))
        .collect();
    ink.sort_by_key(|c| c.iter().map(|&v| v as u32).sum::<u32>());
    ink.get(ink.len() / 2).copied()
}

/// Text in `fg` on `bg` under the contrast it needs.
fn faint(fg: [u8; 3], bg: [u8; 3], needed: f32) -> bool {
    contrast(fg, bg) < needed as f64 - 0.005
}

/// The text a player is meant to read: all of it but what lies in an element whose id
/// starts with `decor` (a pattern of symbols on a back, a watermark).
fn readable_texts(tree: &usvg::Tree) -> Vec<&usvg::Text> {
    super::texts_but(tree, |node| node.id().starts_with("decor"))
}

/// The pixels `background` reads for a text's box (in the tree's units), and one more
/// all round for antialiasing.
fn pixel_area(bbox: usvg::Rect) -> Option<usvg::Rect> {
    let scale = 25.4 / 96.0 / MM_PER_PIXEL;
    let edge = |v: f32, round: fn(f32) -> f32, out: f32| (round(v * scale) + out) / scale;
    usvg::Rect::from_ltrb(
        edge(bbox.left(), f32::floor, -1.0),
        edge(bbox.top(), f32::floor, -1.0),
        edge(bbox.right(), f32::ceil, 1.0),
        edge(bbox.bottom(), f32::ceil, 1.0),
    )
}

/// The part of a piece its texts lie on, rendered at `MM_PER_PIXEL` on the same pixel grid
/// as the whole piece would be: only what is under text is read.
struct Region {
    pixmap: Pixmap,
    /// The region's top-left pixel in the whole piece's grid.
    origin: (u32, u32),
    /// Pixels per unit of the tree.
    scale: f32,
}

impl Region {
    fn under(tree: &usvg::Tree, texts: &[&usvg::Text], pictures: &Rasteriser) -> Option<Region> {
        Region::under_at(tree, texts, pictures, MM_PER_PIXEL)
    }

    /// The same at `mm_per_pixel`.
    fn under_at(
        tree: &usvg::Tree,
        texts: &[&usvg::Text],
        pictures: &Rasteriser,
        mm_per_pixel: f32,
    ) -> Option<Region> {
        let size = tree.size();
        let scale = 25.4 / 96.0 / mm_per_pixel;
        let full = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
        let (mut x0, mut y0, mut x1, mut y1) = (full.0, full.1, 0, 0);
        for bbox in texts.iter().map(|t| t.abs_bounding_box()) {
            x0 = x0.min((bbox.left() * scale).floor().max(0.0) as u32);
            y0 = y0.min((bbox.top() * scale).floor().max(0.0) as u32);
            x1 = x1.max(((bbox.right() * scale).ceil().max(0.0) as u32).min(full.0));
            y1 = y1.max(((bbox.bottom() * scale).ceil().max(0.0) as u32).min(full.1));
        }
        let mut pixmap = Pixmap::new(x1.saturating_sub(x0).max(1), y1.saturating_sub(y0).max(1))?;
        let at = Transform::from_translate(-(x0 as f32), -(y0 as f32)).pre_scale(scale, scale);
        pictures.render(tree, at, &mut pixmap.as_mut());
        Some(Region { pixmap, origin: (x0, y0), scale })
    }
}

/// What is drawn under a text: the pixels of its box that are not its own colour, their
/// median by luminance (a band, a picture, the card), on white paper. `None` when the
/// glyphs cover nearly all of the box.
fn background(region: &Region, bbox: usvg::Rect, fg: [u8; 3]) -> Option<[u8; 3]> {
    let (scale, picture, (ox, oy)) = (region.scale, &region.pixmap, region.origin);
    let x0 = ((bbox.left() * scale).floor().max(0.0) as u32).saturating_sub(ox);
    let y0 = ((bbox.top() * scale).floor().max(0.0) as u32).saturating_sub(oy);
    let x1 =
        ((bbox.right() * scale).ceil().max(0.0) as u32).saturating_sub(ox).min(picture.width());
    let y1 =
        ((bbox.bottom() * scale).ceil().max(0.0) as u32).saturating_sub(oy).min(picture.height());
    // Pixels are counted by colour (a card has few), then classed by CIE76 distance.
    let mut counts: rustc_hash::FxHashMap<[u8; 3], usize> = Default::default();
    let mut all = 0usize;
    // Runs of one colour along a row are counted as one.
    let mut run: Option<([u8; 3], usize)> = None;
    for y in y0..y1 {
        for x in x0..x1 {
            let rgb = on_white(picture.pixel(x, y)?);
            all += 1;
            match &mut run {
                Some((colour, n)) if *colour == rgb => *n += 1,
                _ => {
                    if let Some((colour, n)) = run.replace((rgb, 1)) {
                        *counts.entry(colour).or_insert(0) += n;
                    }
                }
            }
        }
    }
    if let Some((colour, n)) = run {
        *counts.entry(colour).or_insert(0) += n;
    }
    let fg_lab = super::colour::lab(fg);
    let mut under: Vec<(f64, [u8; 3], usize)> = counts
        .into_iter()
        .map(|(rgb, n)| (distance(super::colour::lab(rgb), fg_lab), rgb, n))
        .filter(|(d, _, _)| *d > 20.0)
        .collect();
    let unlike: usize = under.iter().map(|u| u.2).sum();
    if all == 0 {
        return None;
    }
    if unlike * 10 < all {
        // Nearly every pixel of the box is like the text: the text is as faint as what
        // is under it. Glyphs cover well under three quarters of their box, so the
        // commonest colour other than the text's own is the background; with none, the
        // text is drawn on its own colour and cannot be seen at all.
        let mut like: Vec<([u8; 3], usize)> = counts_near(picture, (x0, y0, x1, y1));
        like.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        return Some(
            like.iter().find(|(rgb, n)| *rgb != fg && *n * 4 >= all).map_or(fg, |(rgb, _)| *rgb),
        );
    }
    // Antialiased glyph edges lie between the text's colour and the background: of the
    // pixels unlike the text, those three quarters of the way from it are background.
    under.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut past = unlike * 3 / 4;
    for (_, rgb, n) in &under {
        if past < *n {
            return Some(*rgb);
        }
        past -= n;
    }
    None
}

/// Every colour of the pixels in `x0..x1, y0..y1` of `picture`, with its count.
fn counts_near(picture: &Pixmap, (x0, y0, x1, y1): (u32, u32, u32, u32)) -> Vec<([u8; 3], usize)> {
    let mut counts: rustc_hash::FxHashMap<[u8; 3], usize> = Default::default();
    for y in y0..y1 {
        for x in x0..x1 {
            if let Some(p) = picture.pixel(x, y) {
                *counts.entry(on_white(p)).or_insert(0) += 1;
            }
        }
    }
    counts.into_iter().collect()
}

/// A rendered pixel as printed: over white paper where the art is transparent.
pub(super) fn on_white(p: resvg::tiny_skia::PremultipliedColorU8) -> [u8; 3] {
    pixels::over_white([p.red(), p.green(), p.blue(), p.alpha()])
}

/// CIE76: the Euclidean distance in CIELAB.
fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every premultiplied pixel comes out as the float blend over white, rounded.
    #[test]
    fn a_pixel_on_white_paper_is_the_float_blend_rounded() {
        for a in 0..=255u8 {
            for v in 0..=a {
                let p = resvg::tiny_skia::PremultipliedColorU8::from_rgba(v, 0, a, a).unwrap();
                let c = p.demultiply();
                let f = a as f32 / 255.0;
                let on = |x: u8| (x as f32 * f + 255.0 * (1.0 - f)).round() as u8;
                assert_eq!(on_white(p), [on(c.red()), on(c.green()), on(c.blue())], "{v} at {a}");
            }
        }
    }
}
