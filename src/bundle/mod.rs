//! Documents beyond the pieces. The rulebook: the catalogue's `rules.md`, filled with the
//! templates' functions (so its numbers follow the data), checked like a template and
//! typeset with the game's fonts. The print-and-play bundle: a cover, a print guide, the
//! rulebook and every component a build makes, in one PDF with bookmarks and page labels.
//! Input: a validated catalogue (and the component PDFs, in memory); output: PDF bytes.

pub mod assemble;
mod cover;
pub mod guide;
pub mod ink;
pub mod markdown;
pub mod pnp;
pub mod typeset;

use std::sync::Arc;

use crate::diag::{Diagnostic, Failure, Sources};
use crate::layout::Paper;
use crate::model::{Catalogue, Template};
use crate::phrases::Words;
use markdown::Section;
use markdown::{Block, Source};
use typeset::{Faces, Geometry, Laid};

/// The rulebook's file in a catalogue folder.
pub const RULES_FILE: &str = "rules.md";

/// The rulebook of one language: `rules.LANG.md`, beside `rules.md`.
pub fn rules_file_in(lang: &str) -> String {
    format!("rules.{lang}.md")
}

/// The file a rulebook in a language prints from, and what to say of the choice.
pub struct RulesChoice {
    /// `rules.LANG.md`, else `rules.md`; `None` when the game has neither.
    pub file: Option<String>,
    /// `--lang LANG` printing from `rules.md` (there is no `rules.LANG.md`), and each
    /// `rules.XX.md` of a language the game has no `[lang.XX]` for (it never prints).
    pub warnings: Vec<Diagnostic>,
}

/// Which file the rulebook in `lang` prints from: `rules.LANG.md` when there is one, else
/// `rules.md`, never an English rulebook in silence (`rules`, `bundle` and `validate`
/// choose with this).
pub fn rules_file(cat: &Catalogue, lang: Option<&str>) -> RulesChoice {
    // A rules.md that is a pipe or a link outside is there, and said to be unreadable,
    // not "no rules.md" (tests/stranger/pipes-devices/rules).
    let files = cat.world.non_folders_in("");
    let has = |name: &str| files.iter().any(|f| f == name);
    let mut warnings = Vec::new();
    for file in &files {
        let Some(tag) = file.strip_prefix("rules.").and_then(|f| f.strip_suffix(".md")) else {
            continue;
        };
        if !tag.is_empty() && !cat.lang.contains_key(tag) {
            let known: Vec<&String> = cat.lang.keys().collect();
            warnings.push(
                Diagnostic::warning(
                    cat.world.display_path(file),
                    None,
                    format!("{file} is the rulebook in `{tag}`, a language this game has no [lang.{tag}] for: it never prints"),
                )
                .with_note(match known.is_empty() {
                    true => format!("add [lang.{tag}.game] with its name to print it with --lang {tag}"),
                    false => format!(
                        "the game's languages: {}; rename it, or add [lang.{tag}.game] to print it with --lang {tag}",
                        crate::diag::accepted(known)
                    ),
                }),
            );
        }
    }
    let own = lang.map(rules_file_in).filter(|f| has(f));
    let file = own.or_else(|| has(RULES_FILE).then(|| RULES_FILE.to_string()));
    if let (Some(lang), Some(RULES_FILE)) = (lang, file.as_deref()) {
        let wanted = rules_file_in(lang);
        warnings.push(
            Diagnostic::warning(
                cat.world.display_path(RULES_FILE),
                None,
                format!("the `{lang}` edition's rulebook prints from rules.md: the game has no {wanted}"),
            )
            .about(crate::diag::Topic::Untranslated)
            .with_note(format!(
                "write the rules in `{lang}` as {wanted} beside rules.md (docs/rules.md); until then the `{lang}` rulebook is in rules.md's language"
            )),
        );
    }
    RulesChoice { file, warnings }
}

/// Past this many pages a rulebook gets its contents list.
const CONTENTS_AFTER_PAGES: usize = 4;

/// A rulebook typeset, with what draws it.
pub struct Rulebook {
    pub laid: Laid,
    pub geometry: Geometry,
    /// deckpress's own words around it (its page labels, "Contents").
    pub words: Words,
}

/// Where the rulebook's pages go: a whole paper, or half of it turned (a booklet's).
pub fn rules_geometry(paper: Paper, booklet: bool) -> Geometry {
    let (w, h) = (paper.size().0.to_mm(), paper.size().1.to_mm());
    match booklet {
        true => Geometry { page: (h / 2.0, w), margin: 14.0, body_pt: 9.5 },
        false => Geometry { page: (w, h), margin: 18.0, body_pt: 10.5 },
    }
}

/// The fonts of the game's pieces and the faces its rulebook is set in: the body in the
/// game's `style.font` (else the default), headings in its own first font family.
pub fn faces_of(cat: &Catalogue) -> (Arc<usvg::fontdb::Database>, String, String) {
    let db = crate::render::document::font_database(cat);
    let body = cat
        .style
        .get("font")
        .and_then(|f| f.as_str())
        .unwrap_or(crate::fonts::DEFAULT_FAMILY)
        .to_string();
    let heading =
        cat.fonts.iter().flat_map(|f| f.families.first()).next().cloned().unwrap_or(body.clone());
    (db, body, heading)
}

/// The catalogue's rulebook in `lang` typeset at `geometry` (from the file `rules_file`
/// chooses), `None` when it has none. Its problems go to `diags` (errors among them mean
/// it cannot be printed); its text to `sources`, for diagnostics.
pub fn rulebook(
    cat: &Catalogue,
    lang: Option<&str>,
    geometry: Geometry,
    diags: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Result<Option<Rulebook>, Failure> {
    let choice = rules_file(cat, lang);
    diags.extend(choice.warnings);
    let (words, missing) = crate::phrases::words_for(cat, lang);
    diags.extend(missing);
    let Some(name) = choice.file else { return Ok(None) };
    let file = cat.world.display_path(&name);
    let written = cat
        .world
        .read_text(&name)
        .map_err(|e| Failure::Io(format!("cannot read {}: {e}", file.display())))?;
    sources.insert(file.clone(), written.clone());
    let template =
        Template { file: file.clone(), text: written.clone(), world: cat.world.clone(), name };
    let before = diags.len();
    let Some(filled) = crate::render::document::fill_document(cat, lang, &template, diags) else {
        return Ok(None);
    };
    if diags[before..].iter().any(Diagnostic::is_error) {
        return Ok(None);
    }
    let source = Source::new(file.clone(), written, filled);
    let max_pixels = cat.world.limits().image_pixels;
    // Problems inside an SVG template, at their own lines, said after the rulebook's.
    let in_pictures = std::cell::RefCell::new((Vec::new(), Vec::new()));
    let image_size = |href: &str| {
        let (said, read) = &mut *in_pictures.borrow_mut();
        image_size(cat, (lang, href), max_pixels, said, read)
    };
    let blocks = markdown::blocks(&source, cat, &image_size, diags);
    let (said, read) = in_pictures.into_inner();
    for (file, text) in read {
        sources.insert(file, text);
    }
    diags.extend(said);
    let (db, body, heading) = faces_of(cat);
    diags.extend(missing_glyphs(&blocks, &db, &source));
    let metrics = crate::render::textbox::Metrics::new(db);
    let faces = Faces { metrics: &metrics, body, heading };
    let title = cat.name_in(lang).to_string();
    let max_pages = cat.world.limits().rules_pages;
    diags.extend(legibility(cat, geometry, &file));
    match typeset(&blocks, geometry, &faces, (&title, &words), max_pages) {
        Ok(laid) => Ok(Some(Rulebook { laid, geometry, words })),
        Err(message) if message.contains("--limit rules-pages") => {
            diags.push(Diagnostic::new(&file, None, message).with_note(
                "a rulebook this long is a runaway document: look for a template loop that repeats text",
            ));
            Ok(None)
        }
        // What does not fit the page, at its table's header line where it names one.
        Err(message) => {
            diags.push(Diagnostic::new(&file, table_line(&source, &message), message));
            Ok(None)
        }
    }
}

/// The rulebook's text against the game's `[check]` thresholds. The typesetter prints
/// fixed sizes in one colour (on white and on a light tint), so this is about them, not
/// about what `rules.md` writes: a threshold above them is a warning naming the file.
fn legibility(cat: &Catalogue, g: Geometry, file: &std::path::Path) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let check = &cat.legibility;
    let smallest = typeset::smallest_text_pt(g);
    if smallest < check.min_text_pt {
        found.push(
            Diagnostic::warning(
                file,
                None,
                format!(
                    "the rulebook prints text at {smallest:.1} pt (its page footers), under [check] min_text_pt = {}",
                    check.min_text_pt
                ),
            )
            .with_note("the rulebook's sizes are fixed (body 10.5 pt, 9.5 pt in a booklet; footers and tables a little smaller): lower min_text_pt, or leave the warning"),
        );
    }
    let contrast = [[255; 3], typeset::TINT_RGB]
        .into_iter()
        .map(|under| crate::render::colour::contrast(typeset::INK_RGB, under))
        .fold(f64::INFINITY, f64::min);
    if contrast < f64::from(check.contrast) {
        found.push(Diagnostic::warning(
            file,
            None,
            format!(
                "the rulebook's text has a contrast of {contrast:.1}:1 on its table rows, under [check] contrast = {}",
                check.contrast
            ),
        ));
    }
    found
}

/// Lays the blocks out; past four pages, again with a contents list after the title
/// (twice: the list's own pages move the sections it lists).
fn typeset(
    blocks: &[Block],
    g: Geometry,
    faces: &Faces,
    (title, words): (&str, &Words),
    max_pages: u64,
) -> Result<Laid, String> {
    let footer = |n: usize| format!("{title} · {n}");
    let laid = typeset::lay_out(blocks, g, faces, &footer, max_pages)?;
    if laid.pages.len() <= CONTENTS_AFTER_PAGES {
        return Ok(laid);
    }
    let at = usize::from(matches!(blocks.first(), Some(Block::Heading { level: 1, .. })));
    let listed = |laid: &Laid| -> Vec<Section> {
        laid.sections.iter().skip(at).filter(|s| s.level <= 2).cloned().collect()
    };
    let mut sections = listed(&laid);
    let mut laid = laid;
    for _ in 0..2 {
        let mut with: Vec<Block> = blocks[..at].to_vec();
        // A third-level heading: it is not listed, nor bookmarked.
        let spans = vec![markdown::Span {
            text: words.get("contents"),
            bold: true,
            italic: false,
            code: false,
            icon: None,
        }];
        with.push(Block::Heading { level: 3, spans });
        with.push(Block::Contents(sections.clone()));
        with.extend_from_slice(&blocks[at..]);
        laid = typeset::lay_out(&with, g, faces, &footer, max_pages)?;
        sections = listed(&laid);
    }
    Ok(laid)
}

/// An image's pixel size (an SVG's own size), or why it cannot be shown. An SVG written as
/// a template (`{{ decks.cards.height }}`) is filled like rules.md and drawn in place, so a
/// diagram follows the card sizes and counts of the data; its errors go to `diags`.
fn image_size(
    cat: &Catalogue,
    (lang, href): (Option<&str>, &str),
    max_pixels: u64,
    diags: &mut Vec<Diagnostic>,
    read: &mut Vec<(std::path::PathBuf, String)>,
) -> Result<((f32, f32), Option<markdown::Inline>), String> {
    let data = cat.world.read_bytes(href).map_err(|e| {
        let closest = cat.world.closest_file(href);
        match closest {
            Some(c) => format!("{e}; did you mean `{c}`?"),
            None => e.to_string(),
        }
    })?;
    let info = crate::images::inspect(&data, max_pixels)?;
    if info.format.is_raster() {
        return Ok(((info.width as f32, info.height as f32), None));
    }
    let mut svg = crate::world::plain_svg(&data)?;
    let written = String::from_utf8_lossy(&svg).into_owned();
    let is_template = written.contains("{{") || written.contains("{%");
    if is_template {
        let template = Template {
            file: cat.world.display_path(href),
            text: written,
            world: cat.world.clone(),
            name: href.to_string(),
        };
        read.push((template.file.clone(), template.text.clone()));
        let before = diags.len();
        let filled = crate::render::document::fill_document(cat, lang, &template, diags);
        match filled {
            Some(text) if !diags[before..].iter().any(Diagnostic::is_error) => {
                // What the template made is checked as any SVG read is.
                svg =
                    std::borrow::Cow::Owned(crate::world::plain_svg(text.as_bytes())?.into_owned());
            }
            _ => return Err("its template could not be filled (see the error in it)".into()),
        }
    }
    let tree = crate::svg::picture(&svg, &crate::svg::sealed(Default::default()))?;
    // An SVG is drawn as large as it says at 150 dpi (its px are 96 to the inch).
    let scale = 150.0 / 96.0;
    let size = (tree.size().width() * scale, tree.size().height() * scale);
    let inline = match is_template {
        true => Some(inline(&String::from_utf8_lossy(&svg))?),
        false => None,
    };
    Ok((size, inline))
}

/// A filled SVG's view box and the content of its root, to nest in a page.
fn inline(svg: &str) -> Result<markdown::Inline, String> {
    let start = svg.find("<svg").ok_or("no <svg> element")?;
    let open_end = start + svg[start..].find('>').ok_or("an unclosed <svg> tag")?;
    let close = svg.rfind("</svg>").ok_or("no </svg> closing the picture")?;
    // The root's attributes, `name="value"` each (an SVG template writes them so).
    let root = svg[start + 4..open_end].trim_end_matches('/');
    let mut pieces = root.split('"');
    let (mut view_box, mut attributes) = (None, Vec::new());
    while let (Some(name), Some(value)) = (pieces.next(), pieces.next()) {
        let name = name.trim().trim_end_matches('=').trim();
        match name {
            "viewBox" => view_box = Some(value.to_string()),
            // The page places and sizes the picture; the namespace is the page's.
            "width" | "height" | "x" | "y" | "preserveAspectRatio" | "version" => {}
            _ if name.starts_with("xmlns") => {}
            _ => attributes.push(format!("{name}=\"{value}\"")),
        }
    }
    let view_box =
        view_box.ok_or("a picture written as a template needs a viewBox on its <svg> element")?;
    Ok(markdown::Inline {
        view_box,
        attributes: attributes.join(" "),
        body: svg[open_end + 1..close].to_string(),
    })
}

/// Characters of the rulebook no font of the game has: each an error where it is written.
/// The header line in rules.md of the table a message names (`the table headed `A | B``):
/// the first line of pipes holding each of its cells.
fn table_line(source: &Source, message: &str) -> Option<std::ops::Range<usize>> {
    let header = message.split("table headed `").nth(1)?.split('`').next()?;
    let cells: Vec<&str> = header.trim_end_matches('…').split(" | ").map(str::trim).collect();
    let mut at = 0;
    for line in source.written.split_inclusive('\n') {
        let text = line.trim_end();
        if text.trim_start().starts_with('|') && cells.iter().all(|c| text.contains(c)) {
            return Some(at..at + text.len());
        }
        at += line.len();
    }
    None
}

fn missing_glyphs(
    blocks: &[Block],
    db: &usvg::fontdb::Database,
    source: &Source,
) -> Vec<Diagnostic> {
    // Each character once, in the order it first appears.
    let mut seen = std::collections::HashSet::new();
    let mut wanted: Vec<char> = Vec::new();
    for span in markdown::all_text(blocks) {
        for c in span.text.chars().filter(|c| !c.is_whitespace() && !c.is_ascii()) {
            if seen.insert(c) {
                wanted.push(c);
            }
        }
    }
    // Each face parsed once for all of them: a collection of 1,024 faces was parsed again
    // for every character, and a rulebook of many characters no font has took minutes.
    let mut missing: std::collections::HashSet<char> = wanted.iter().copied().collect();
    for face in db.faces() {
        if missing.is_empty() {
            break;
        }
        db.with_face_data(face.id, |data, index| {
            if let Ok(parsed) = ttf_parser::Face::parse(data, index) {
                missing.retain(|&c| parsed.glyph_index(c).is_none());
            }
        });
    }
    if missing.is_empty() {
        return Vec::new();
    }
    // Where each first appears in the filled text: one pass, not one search each.
    let mut first = std::collections::HashMap::new();
    for (at, c) in source.filled.char_indices() {
        if missing.contains(&c) {
            first.entry(c).or_insert(at);
        }
    }
    wanted
        .into_iter()
        .filter(|c| missing.contains(c))
        .map(|c| {
            let at = first.get(&c).copied().unwrap_or(0);
            let span = source.span(at..at + c.len_utf8(), &c.to_string());
            Diagnostic::new(
                &source.file,
                span,
                format!("`{c}` (U+{:04X}) has no glyph in any font of the game", c as u32),
            )
            .with_note("it would print as an empty box: add a font that has it under fonts/, or write it otherwise")
        })
        .collect()
}

/// The rulebook's pages, labelled "Rules 1", "Rules 2", … in its language (one
/// page-label range).
/// Typeset pages parsed together before they are drawn: enough for both cores to share.
const PAGES_PARSED_AT_ONCE: usize = 32;

pub fn rules_pages(pdf: &mut assemble::Assembly, book: &Rulebook) -> Result<(), String> {
    let prefix = format!("{} ", book.words.get("rules"));
    let label = assemble::part_label(krilla::page::NumberingStyle::Arabic, &prefix);
    // Parsed a few dozen pages at a time (on every core), each drawn and dropped: all the
    // trees of a 10,000-page rulebook at once took 4 GB.
    for pages in book.laid.pages.chunks(PAGES_PARSED_AT_ONCE) {
        for page in &pdf.parse(pages)? {
            pdf.svg_page(page, book.geometry.page, label.clone(), &[])?;
        }
    }
    Ok(())
}

/// Bookmarks of a rulebook's sections (level 1 and 2, the second under the first),
/// its pages starting at `first`.
pub fn section_marks(sections: &[Section], first: usize) -> Vec<assemble::Mark> {
    let mut marks: Vec<assemble::Mark> = Vec::new();
    for s in sections.iter().filter(|s| s.level <= 2) {
        let mark =
            assemble::Mark { title: s.title.clone(), page: first + s.page, children: Vec::new() };
        match (s.level, marks.last_mut()) {
            (2, Some(parent)) => parent.children.push(mark),
            _ => marks.push(mark),
        }
    }
    marks
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_filled_picture_keeps_its_view_box_and_what_its_content_inherits() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="120mm" height="80mm" viewBox="0 0 240 160" font-size="8.5" font-family="Noto Sans"><rect width="10" height="10"/></svg>"#;
        let inline = super::inline(svg).unwrap();
        assert_eq!(inline.view_box, "0 0 240 160");
        assert_eq!(inline.attributes, r#"font-size="8.5" font-family="Noto Sans""#);
        assert_eq!(inline.body, r#"<rect width="10" height="10"/>"#);
        let err = super::inline(r#"<svg width="1mm" height="1mm"></svg>"#).unwrap_err();
        assert!(err.contains("needs a viewBox"), "{err}");
        assert!(super::inline("<svg viewBox=\"0 0 1 1\">").is_err(), "no </svg>");
    }
}
