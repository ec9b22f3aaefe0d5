//! What a parsed piece shows that a designer must hear: characters no font has, fonts
//! and faces missing, shapes far off the piece, images printed soft or stretched, icons
//! printed as text, text too small or faint, text off the piece or in its safe zone, and a
//! template whose proportions are not the piece's.

use super::context::{Context, Spec};
use super::written::field_span;
use super::written::{family_span, href_span};
use super::{art, canvas};
use crate::check::{texts_but, Outline};
use crate::diag::Diagnostic;
use crate::length::Length;
use crate::model::Template;

/// Checks what a player would see: every character has a glyph in the font asked for,
/// art prints sharp and undistorted, the art has the piece's shape.
pub(super) fn check_art(
    tree: &usvg::Tree,
    spec: &Spec,
    ctx: &Context,
    log: &art::ArtLog,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let Spec { template, what, outline, .. } = *spec;
    let file = &template.file;
    let texts = texts(tree);
    let mut ok = check_fonts(&texts, spec, ctx, diags);
    if let Some(far) = farthest_coordinate(tree.root()).filter(|v| *v > MAX_COORDINATE) {
        diags.push(
            Diagnostic::new(file, huge_number_span(&template.text), format!("a shape reaches {:.1e} m off the piece, which no PDF can hold", far / 96.0 * 0.0254))
                .with_note(format!("in {what}; keep what is drawn within {:.0} m of the piece (a number in the template or its data is far too large)", MAX_COORDINATE / 96.0 * 0.0254)),
        );
        ok = false;
    }
    if let Some(outline) = outline {
        ok &= check_sized(tree, &texts, outline, spec, ctx, log, diags);
    }
    ok
}

/// Every character has a glyph, every font family asked for is there with the faces
/// asked for.
fn check_fonts(
    texts: &[&usvg::Text],
    spec: &Spec,
    ctx: &Context,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let Spec { template, what, .. } = *spec;
    let mut ok = true;
    let file = &template.file;
    let mut missing = missing_glyphs(texts);
    if !missing.is_empty() {
        missing.sort();
        missing.dedup();
        let list: Vec<String> = missing
            .iter()
            .map(|c| format!("`{c}` (U+{:04X})", c.chars().next().map_or(0, |c| c as u32)))
            .collect();
        diags.push(
            Diagnostic::new(file, None, format!("no font has {}", list.join(", ")))
                .about(crate::diag::Topic::TextFit)
                .with_note(format!("in {what}; it would print as an empty box"))
                .with_note(format!("fonts: {}; add a font that has it to the catalogue's fonts/ folder, or draw the mark as a path", crate::fonts::families(&ctx.fontdb).join(", "))),
        );
        ok = false;
    }
    for problem in crate::fonts::check(texts, &ctx.fontdb) {
        match problem {
            crate::fonts::FontProblem::UnknownFamily(family) => {
                // In the template, or in a frame it includes or imports (then with the call).
                let (at, span, call) = match family_span(&template.text, &family) {
                    Some(span) => (file.clone(), Some(span), None),
                    None => ctx
                        .written_in_included(template, &family)
                        .map_or((file.clone(), None, None), |(at, span, call)| {
                            (at, Some(span), call)
                        }),
                };
                let mut d = Diagnostic::new(at, span, format!("no font of family `{family}`"))
                    .with_note(format!("in {what}; it would print in another font"));
                if let Some(call) = call {
                    d = d.with_note(call);
                }
                diags.push(d.with_note(format!(
                    "families: {}; a catalogue adds its own in fonts/",
                    crate::diag::accepted(crate::fonts::families(&ctx.fontdb))
                )));
                ok = false;
            }
            crate::fonts::FontProblem::FallbackStyle { character, family, style } => {
                diags.push(
                    Diagnostic::warning(
                        file,
                        None,
                        format!(
                            "`{character}` (U+{:04X}) has no {style} face: it prints {} from `{family}`",
                            character as u32,
                            if style == "bold" { "in the regular weight" } else { "upright" }
                        ),
                    )
                    .about(crate::diag::Topic::TextFit)
                    .with_note(format!("in {what}"))
                    .with_note(format!(
                        "add a font with a {style} `{character}` to the catalogue's fonts/ folder, or print it outside the {style} text"
                    )),
                );
            }
            crate::fonts::FontProblem::MissingStyle { family, style } => {
                diags.push(
                    Diagnostic::warning(
                        file,
                        family_span(&template.text, &family),
                        format!("font family `{family}` has no {style} face"),
                    )
                    .with_note(format!(
                        "in {what}; the text prints {}",
                        if style == "bold" { "in the regular weight" } else { "upright" }
                    ))
                    .with_note(format!(
                        "add the {style} face of `{family}` to the catalogue's fonts/ folder"
                    )),
                );
            }
        }
    }
    ok
}

/// The checks of a piece of known size: its images print sharp and undistorted, icons
/// are not printed as text, text is legible and stays on the piece, out of its safe zone.
fn check_sized(
    tree: &usvg::Tree,
    texts: &[&usvg::Text],
    outline: Outline,
    spec: &Spec,
    ctx: &Context,
    log: &art::ArtLog,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let Spec { template, row, what, bleed, .. } = *spec;
    let mut ok = true;
    let file = &template.file;
    // `{coin}` printed as text: the field went to the card without textbox().
    let printed: Vec<String> =
        texts.iter().map(|t| t.chunks().iter().map(|c| c.text()).collect()).collect();
    let mut named = std::collections::BTreeSet::new();
    for (text, name) in printed
        .iter()
        .flat_map(|t| crate::load::icon_names(t).into_iter().map(move |n| (t.as_str(), n)))
    {
        if !ctx.icons.iter().any(|i| i.name == name) || !named.insert(name) {
            continue;
        }
        // At the expression that prints the field, where it can be found.
        let span = field_span(&template.text, row, text)
            .or_else(|| template.text.find("{{").map(|i| i..i + 2));
        diags.push(
            Diagnostic::new(file, span, format!("icon `{{{name}}}` is printed as text")).with_note(
                format!(
                "in {what}; print the field with textbox(…), which draws icons, bold and italic"
            ),
            ),
        );
        ok = false;
    }
    // What a player and a printer see: the art's resolution, the text's size and
    // contrast, and where the text lies on the piece.
    let drawn = crate::check::Drawn { tree, outline, bleed, images: &log.used };
    let pictures = ctx.thorough.then_some(&ctx.pictures);
    for finding in crate::check::piece(&drawn, &ctx.legibility, pictures) {
        diags.push(said(finding, spec, ctx));
    }
    ok
}

/// A check's finding in a piece, said at the template line that wrote the text or the
/// image it is about.
fn said(finding: crate::check::Finding, spec: &Spec, ctx: &Context) -> Diagnostic {
    use crate::check::Finding;
    use crate::diag::Topic;
    let Spec { template, row, what, .. } = *spec;
    let file = &template.file;
    let (text, message, advice, topic) = match finding {
        Finding::LowResolution { href, dpi } => {
            let (quality, advice) = if dpi < crate::images::POOR_DPI {
                ("blurred", "it will look blurred")
            } else {
                ("soft", "print shops ask for 300 dpi")
            };
            return Diagnostic::warning(
                file,
                href_span(&template.text, &href),
                format!("image `{href}` prints at {dpi:.0} dpi ({quality})"),
            )
            .about(Topic::Resolution)
            .with_note(format!(
                "in {what}; {advice}: use an image with {:.0}% more pixels each way",
                (crate::images::GOOD_DPI / dpi - 1.0) * 100.0
            ));
        }
        Finding::Stretched { href, ratio } => {
            return Diagnostic::warning(file, href_span(&template.text, &href), format!("image `{href}` is stretched {:.1}% out of its proportions", (ratio - 1.0).abs() * 100.0))
                .with_note(format!("in {what}; remove preserveAspectRatio=\"none\", or give the image the box's proportions"));
        }
        Finding::Small { text, pt } => {
            let message = format!(
                "text \"{}\" prints at {pt:.1} pt, smaller than the {} pt a player reads",
                short_text(&text),
                ctx.legibility.min_text_pt
            );
            (text, message, "shorten it, give its box more room, or set [check] min_text_pt in game.toml for this game".to_string(), Topic::TextSize)
        }
        Finding::Faint { text, ratio, needed, .. } => {
            let message = format!("text \"{}\" has a contrast of {ratio:.1}:1 against what is drawn under it, under the {needed}:1 it needs", short_text(&text));
            (text, message, "darken the text or lighten what is under it (or the other way round); [check] contrast in game.toml tunes it".to_string(), Topic::Legibility)
        }
        Finding::OffPiece { text, mm, edge } => {
            let piece = if what.starts_with("sheet") {
                "sheet"
            } else if what.contains(" of box `") {
                "panel"
            } else {
                "card"
            };
            let past = edge.map_or(String::new(), |edge| format!(" (past its {edge})"));
            let message = format!("text \"{text}\" runs {mm:.1} mm off the {piece}{past}");
            (text, message, "it would be cut off: shorten it, make it smaller, or use textbox() to wrap and shrink it".to_string(), Topic::OffPiece)
        }
        Finding::SafeZone { text, mm, safe, edge } => {
            let at = edge.map_or(String::new(), |edge| format!(" (its {edge})"));
            let message = format!(
                "text \"{text}\" is {mm:.1} mm from the cut{at}, inside the {safe} mm safe zone"
            );
            let advice = format!("a cut that strays by a millimetre would touch it: keep text {safe} mm inside the card's edge");
            (text, message, advice, Topic::SafeZone)
        }
    };
    // Looked for only when it is said: most texts are well inside.
    let (at, span, written) = ctx.text_place(template, row, &text);
    written.said(
        &template.text,
        Diagnostic::warning(&at, span, message)
            .about(topic)
            .with_note(format!("in {what}; {advice}")),
    )
}

/// A template whose size or viewBox is more than 0.5 % off the piece's proportions
/// (it would be stretched or letterboxed), said in the template's own words.
pub(super) fn proportions(
    svg: &str,
    template: &Template,
    (w, h): (Length, Length),
    what: &str,
) -> Option<Diagnostic> {
    let ratio = |rw: f32, rh: f32| (rw / rh) / (w.to_pt() / h.to_pt()) - 1.0;
    let size = canvas::size(svg).map(|(sw, sh)| ratio(sw.to_pt(), sh.to_pt()));
    let view = canvas::view_box(svg).map(|(_, _, vw, vh)| ratio(vw, vh));
    let off =
        [size, view]
            .into_iter()
            .flatten()
            .fold(0.0f32, |a, b| if b.abs() > a.abs() { b } else { a });
    if off.abs() <= 0.005 {
        return None;
    }
    // Said in the template's own words: its width, height and viewBox as written.
    let attr = |name: &str| canvas::root_attr(&template.text, name);
    let written: Vec<String> = ["width", "height", "viewBox"]
        .iter()
        .filter_map(|n| attr(n).map(|(_, v)| format!("{n}=\"{v}\"")))
        .collect();
    let span = attr("viewBox").or_else(|| attr("width")).map(|(at, v)| at..at + v.len());
    let shape = if written.is_empty() { "its size".to_string() } else { written.join(" ") };
    // What would be right, to the hundredth (a hex tile's 51.96 mm): the piece's size, and
    // the viewBox as wide as written with the height that goes with it.
    let number = |v: f32| {
        let v = format!("{v:.2}");
        v.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let mut right = Vec::new();
    if size.is_some_and(|o| o.abs() > 0.005) {
        right.push(format!("width=\"{}mm\" height=\"{}mm\"", number(w.to_mm()), number(h.to_mm())));
    }
    if let (Some(o), Some((vx, vy, vw, _))) = (view, canvas::view_box(svg)) {
        if o.abs() > 0.005 {
            let vh = vw * h.to_pt() / w.to_pt();
            right.push(format!(
                "viewBox=\"{} {} {} {}\"",
                number(vx),
                number(vy),
                number(vw),
                number(vh)
            ));
        }
    }
    Some(
        Diagnostic::new(&template.file, span, format!("the template's proportions ({shape}) are {:.1}% off the piece's {w} × {h}", off.abs() * 100.0))
            .with_note(format!("in {what}; it would be stretched or letterboxed: give width, height and viewBox the piece's proportions ({})", right.join(" "))),
    )
}

/// How far, in usvg's pixels (1/96 in), anything drawn may reach from the piece's
/// corner: 264 m. A PDF's numbers are bounded (qpdf rejects 1e19), and no piece is
/// anywhere near so large.
const MAX_COORDINATE: f32 = 1_000_000.0;

/// The largest distance, in usvg's pixels, that anything drawn reaches from the tree's
/// origin (`None` for nothing drawn).
fn farthest_coordinate(group: &usvg::Group) -> Option<f32> {
    let far = |r: usvg::Rect| {
        [r.left(), r.top(), r.right(), r.bottom()]
            .into_iter()
            .map(|v| if v.is_finite() { v.abs() } else { f32::INFINITY })
            .fold(0.0, f32::max)
    };
    group
        .children()
        .iter()
        .filter_map(|node| match node {
            usvg::Node::Group(g) => farthest_coordinate(g),
            usvg::Node::Path(p) => Some(far(p.abs_bounding_box())),
            usvg::Node::Image(i) => Some(far(i.abs_bounding_box())),
            usvg::Node::Text(t) => Some(far(t.abs_bounding_box())),
        })
        .reduce(f32::max)
}

/// Problems usvg would drop in silence, found in the filled SVG before it is parsed: a
/// `<use>` of another file's element (usvg draws only the document's own), and a number
/// past what an f32 holds (usvg reads it as infinite and skips the shape). Numbers an f32
/// holds are measured on the tree (`farthest_coordinate`).
pub(super) fn dropped_by_parser(svg: &str, template: &Template, what: &str) -> Option<Diagnostic> {
    let file = &template.file;
    if svg.contains("<use") {
        let outside = super::art::href_values(svg).find(|&(at, value)| {
            let element = svg[..at].rfind('<').map(|i| &svg[i..at]);
            element
                .is_some_and(|e| e.starts_with("<use") && e[4..].starts_with(char::is_whitespace))
                && !value.is_empty()
                && !value.starts_with('#')
        });
        if let Some((_, value)) = outside {
            return Some(
                Diagnostic::new(file, href_span(&template.text, value), format!("`<use>` links to `{value}`, another file, and would draw nothing"))
                    .with_note(format!("in {what}; a template draws only its own elements: copy the element into the template (or a frame it includes) and `<use href=\"#id\">` it")),
            );
        }
    }
    let overflow = first_past(svg, f64::from(f32::MAX))?;
    let written = &svg[overflow];
    let span = first_past(&template.text, f64::from(f32::MAX))
        .or_else(|| huge_number_span(&template.text));
    Some(
        Diagnostic::new(file, span, format!("the number `{written}` is past what any drawing can hold, and its shape would be dropped"))
            .with_note(format!("in {what}; keep what is drawn within {:.0} m of the piece (a number in the template or its data is far too large)", MAX_COORDINATE / 96.0 * 0.0254)),
    )
}

/// The letters of SVG path data, which a number may follow directly (`M1e39`).
const PATH_COMMANDS: &str = "MmLlHhVvCcSsQqTtAaZz";

/// Where the first number in `text` past `bound` (either side of zero) is written.
fn first_past(text: &str, bound: f64) -> Option<std::ops::Range<usize>> {
    // Read only what could be past it: a number with fewer digits and no exponent is not
    // (every filled piece is scanned, so most of its numbers are never parsed).
    let digits = bound.log10().floor() as usize + 1;
    numbers(text).find(|span| {
        let written = &text[span.clone()];
        (written.len() >= digits || written.contains(['e', 'E']))
            && written.parse::<f64>().is_ok_and(|v| v.abs() > bound)
    })
}

/// Where each number is written in `text` (digits with a point, an exponent and its sign).
fn numbers(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let start = text[at..].find(|c: char| c.is_ascii_digit()).map(|i| i + at)?;
        // Digits, a point and an exponent; a sign only after the exponent's `e`, since
        // path data runs numbers together (`M10-20`).
        let bytes = text.as_bytes();
        let mut end = start;
        while end < bytes.len()
            && (bytes[end].is_ascii_digit()
                || matches!(bytes[end], b'.' | b'e' | b'E')
                || matches!(bytes[end], b'-' | b'+') && matches!(bytes[end - 1], b'e' | b'E'))
        {
            end += 1;
        }
        at = end.max(start + 1);
        // Not a number but part of a word: a colour (`#1e40af`) or a name (`x1e40`); a
        // path's command letters do end a number's word.
        let word =
            start - text[..start].bytes().rev().take_while(u8::is_ascii_alphanumeric).count();
        let before = text[..start].chars().next_back();
        let in_word = text[..word].ends_with('#')
            || before
                .is_some_and(|c| c == '_' || c.is_ascii_alphabetic() && !PATH_COMMANDS.contains(c));
        if in_word {
            continue;
        }
        return Some(start..end);
    })
}

/// The first number in a template as large as a shape could only wrongly be.
fn huge_number_span(text: &str) -> Option<std::ops::Range<usize>> {
    first_past(text, f64::from(MAX_COORDINATE))
}

/// Every text element of a tree, in drawing order: what the text checks look at.
pub(super) fn texts(tree: &usvg::Tree) -> Vec<&usvg::Text> {
    texts_but(tree, |_| false)
}

/// The characters of `texts` that no font had a glyph for.
pub(super) fn missing_glyphs(texts: &[&usvg::Text]) -> Vec<String> {
    texts
        .iter()
        .flat_map(|t| t.layouted())
        .flat_map(|span| span.positioned_glyphs.iter())
        .filter(|g| g.id.0 == 0 && !g.text.trim().is_empty())
        .map(|g| g.text.clone())
        .collect()
}

/// The first words of a text, for a message.
fn short_text(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(8).collect();
    let more = if text.split_whitespace().count() > 8 { " …" } else { "" };
    format!("{}{more}", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{first_past, numbers};

    #[test]
    fn numbers_are_read_from_attributes_and_path_data_but_not_from_colours_or_names() {
        let svg = r##"<g fill="#1e40af" title="– ×" id="x1e40"><path d="M1e39 0L2,3e2"/><circle r='-4.5e40'/></g>"##;
        let found: Vec<&str> = numbers(svg).map(|span| &svg[span]).collect();
        assert_eq!(found, vec!["1e39", "0", "2", "3e2", "4.5e40"]);
        let run: Vec<&str> = numbers("M10-20e39").map(|span| &"M10-20e39"[span]).collect();
        assert_eq!(run, vec!["10", "20e39"]);
        assert_eq!(first_past(svg, 1e39).map(|span| &svg[span]), Some("4.5e40"));
        let sizes = "x=\"999999 1000001\"";
        assert_eq!(first_past(sizes, 1e6).map(|span| &sizes[span]), Some("1000001"));
    }
}
