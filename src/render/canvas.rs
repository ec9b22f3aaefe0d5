//! The drawing canvas of a piece: a template's viewBox is the card as cut; deckpress
//! widens it by the deck's bleed on every side before parsing, so whatever the template
//! draws past the card's edge (a background from x=-30 to 660 in a 630-wide viewBox)
//! prints in the bleed, and a slightly-off cut shows art, not paper.

use crate::length::Length;

/// The root `<svg …>` tag of a filled template: its byte range and attributes.
struct Root<'a> {
    range: std::ops::Range<usize>,
    tag: &'a str,
}

fn root(svg: &str) -> Option<Root<'_>> {
    let start = svg.find("<svg")?;
    let end = start + svg[start..].find('>')?;
    Some(Root { range: start..end, tag: &svg[start..end] })
}

/// An attribute's value in a tag, as written.
fn attr<'a>(tag: &'a str, name: &str) -> Option<(usize, &'a str)> {
    let mut from = 0;
    while let Some(i) = tag[from..].find(name) {
        let at = from + i;
        let before = tag[..at].chars().last();
        let rest = &tag[at + name.len()..];
        if before.is_some_and(char::is_whitespace) && rest.trim_start().starts_with('=') {
            let eq = at + name.len() + rest.find('=')? + 1;
            let quoted = tag[eq..].trim_start();
            let quote = quoted.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let open = eq + (tag[eq..].len() - quoted.len()) + 1;
            let close = open + tag[open..].find(quote)?;
            return Some((open, &tag[open..close]));
        }
        from = at + name.len();
    }
    None
}

/// An attribute of the root `<svg>` as written, with its byte offset in `svg`.
pub fn root_attr<'a>(svg: &'a str, name: &str) -> Option<(usize, &'a str)> {
    let root = root(svg)?;
    attr(root.tag, name).map(|(at, value)| (root.range.start + at, value))
}

/// The root's viewBox (x, y, width, height).
pub fn view_box(svg: &str) -> Option<(f32, f32, f32, f32)> {
    let (_, value) = attr(root(svg)?.tag, "viewBox")?;
    let n: Vec<f32> =
        value.split([' ', ',']).filter(|p| !p.is_empty()).filter_map(|p| p.parse().ok()).collect();
    match n[..] {
        [x, y, w, h] if w > 0.0 && h > 0.0 => Some((x, y, w, h)),
        _ => None,
    }
}

/// The root's width and height when written with a unit deckpress reads (mm, cm, in, pt).
pub fn size(svg: &str) -> Option<(Length, Length)> {
    let tag = root(svg)?.tag;
    let w = Length::parse(attr(tag, "width")?.1).ok()?;
    let h = Length::parse(attr(tag, "height")?.1).ok()?;
    Some((w, h))
}

/// The template with its canvas widened by `bleed` on every side: width and height become
/// the card's size plus twice the bleed, the viewBox grows by the bleed in its own units.
/// `None` when the template has no viewBox (there is no way to know its units).
pub fn with_bleed(svg: &str, card: (Length, Length), bleed: Length) -> Option<String> {
    let root = root(svg)?;
    let (x, y, w, h) = view_box(svg)?;
    let (bx, by) = (bleed.to_mm() * w / card.0.to_mm(), bleed.to_mm() * h / card.1.to_mm());
    let mut tag = root.tag.to_string();
    // Replace from the end so earlier offsets stay valid.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let (vb_at, vb) = attr(root.tag, "viewBox")?;
    let n = |v: f32| format!("{}", (v * 10_000.0).round() / 10_000.0);
    edits.push((
        vb_at,
        vb.len(),
        format!("{} {} {} {}", n(x - bx), n(y - by), n(w + 2.0 * bx), n(h + 2.0 * by)),
    ));
    let mm = |l: Length| format!("{}mm", (l.to_mm() * 1000.0).round() / 1000.0);
    let (wide, tall) = (mm(card.0 + bleed * 2.0), mm(card.1 + bleed * 2.0));
    match attr(root.tag, "width") {
        Some((at, v)) => edits.push((at, v.len(), wide.clone())),
        None => tag.push_str(&format!(" width=\"{wide}\"")),
    }
    match attr(root.tag, "height") {
        Some((at, v)) => edits.push((at, v.len(), tall.clone())),
        None => tag.push_str(&format!(" height=\"{tall}\"")),
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    for (at, len, value) in edits {
        tag.replace_range(at..at + len, &value);
    }
    Some(format!("{}{}{}", &svg[..root.range.start], tag, &svg[root.range.end..]))
}

/// How far the art reaches past the cut, in millimetres, on its shortest side (the
/// bleed when a background is drawn to the canvas's edge, 0 when nothing is).
pub fn bleed_drawn(tree: &usvg::Tree, card: (Length, Length), bleed: Length) -> f32 {
    let size = tree.size();
    let b = tree.root().abs_layer_bounding_box().to_rect();
    let mm_x = (card.0 + bleed * 2.0).to_mm() / size.width();
    let mm_y = (card.1 + bleed * 2.0).to_mm() / size.height();
    let edge = bleed.to_mm();
    let reach = [
        edge - b.left() * mm_x,
        edge - b.top() * mm_y,
        b.right() * mm_x - edge - card.0.to_mm(),
        b.bottom() * mm_y - edge - card.1.to_mm(),
    ];
    reach.into_iter().fold(f32::MAX, f32::min).max(0.0)
}

/// Text made safe for XML (SVG, and the preview's HTML), in content and in attribute values
/// in double quotes alike: the one escaper.
pub fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canvas_grows_by_the_bleed_in_the_templates_own_units() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 630 880"><rect/></svg>"#;
        let out = with_bleed(svg, (Length::mm(63.0), Length::mm(88.0)), Length::mm(3.0)).unwrap();
        assert!(out.contains(r#"width="69mm" height="94mm" viewBox="-30 -30 690 940""#), "{out}");
        assert!(out.ends_with("<rect/></svg>"));
        assert_eq!(size(&out), Some((Length::mm(69.0), Length::mm(94.0))));
    }

    #[test]
    fn a_template_without_a_view_box_is_left_alone() {
        assert_eq!(
            with_bleed(
                r#"<svg width="63mm" height="88mm"/>"#,
                (Length::mm(63.0), Length::mm(88.0)),
                Length::mm(3.0)
            ),
            None
        );
    }
}
