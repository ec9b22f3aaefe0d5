//! The print-and-play bundle put together: the build's component PDFs in print order,
//! a cover and a print guide that count their pages, the rulebook, bookmarks and labels.

use std::path::PathBuf;
use std::sync::Arc;

use krilla::pdf::Pdf;

use super::assemble::{Assembly, Mark, Picture};
use super::cover::{Component, Kind, Part, Source};
use super::typeset::{Faces, Geometry, Laid};
use super::words::Words;
use super::Rulebook;
use crate::diag::Diagnostic;
use crate::layout::Paper;
use crate::model::Catalogue;

/// The build's files of `paper` that print at home, in the order the build made them
/// (decks, then sheets, boards tiled on the paper, boxes). Boards on one large sheet are
/// left out: they are not the paper of the bundle. Named and counted in `lang`.
pub fn components(
    cat: &Catalogue,
    edition: (Option<&str>, &Words),
    files: Vec<(PathBuf, Vec<u8>)>,
    paper: Paper,
    file_suffix: &str,
) -> Result<Vec<Part>, String> {
    let suffix = format!("-{}{file_suffix}.pdf", paper.name());
    let prefix = format!("{}-", cat.id);
    let mut parts = Vec::new();
    for (path, bytes) in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(id) = name.strip_prefix(&prefix).and_then(|n| n.strip_suffix(&suffix)) else {
            continue;
        };
        let (id, tiled) = match id.strip_suffix("-tiled") {
            Some(id) => (id, true),
            None => (id, false),
        };
        // A gang of decks prints under all their ids: it is named after its first.
        let first_id = cat.decks.iter().find(|d| id.starts_with(d.id.as_str())).map(|d| &d.id[..]);
        let named = |id: &str| Some((id.to_string(), kind_of(cat, edition, id, tiled)?));
        let Some((id, (kind, title, count, source))) = named(id).or_else(|| named(first_id?))
        else {
            continue;
        };
        let duplex = if contains(&bytes, b"/Duplex/DuplexFlipLongEdge") {
            Some("long")
        } else if contains(&bytes, b"/Duplex/DuplexFlipShortEdge") {
            Some("short")
        } else {
            None
        };
        let pdf = Arc::new(Pdf::new(Arc::new(bytes)).map_err(|e| format!("{name}: {e:?}"))?);
        let pages = pdf.pages().len();
        let mm = 25.4 / 72.0;
        let page_area_mm2 =
            pdf.pages().iter().map(|p| p.render_dimensions()).map(|(w, h)| w * h * mm * mm).sum();
        let component = Component { title, count, first_page: 0, pages, duplex, kind };
        parts.push(Part { component, id, source, page_area_mm2, pdf });
    }
    Ok(parts)
}

/// Whether `bytes` hold `needle`: how the print guide reads a component's duplex, which
/// krilla writes in the document catalogue, never compressed.
fn contains(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

/// The kind of component an id is, its title and how many pieces (from the data) in
/// `lang`, and, for a deck of cards or a sheet, its index.
fn kind_of(
    cat: &Catalogue,
    (lang, words): (Option<&str>, &Words),
    id: &str,
    tiled: bool,
) -> Option<(Kind, String, String, Option<Source>)> {
    if let Some((i, d)) = cat.decks.iter().enumerate().find(|(_, d)| d.id == id) {
        let cards: u64 = d.rows.iter().map(|r| r.qty as u64).sum();
        let name = cat.deck_name_in(i, lang).to_string();
        return Some(match d.labels.is_some() {
            true => (Kind::Labels, name, words.counted("stickers", cards), None),
            false => {
                let what = match d.shape {
                    crate::model::Shape::Rect => "cards",
                    crate::model::Shape::Circle => "tokens",
                    crate::model::Shape::Hex(_) => "tiles",
                };
                (Kind::Cards, name, words.counted(what, cards), Some(Source::Deck(i)))
            }
        });
    }
    if let Some(i) = cat.sheets.iter().position(|s| s.id == id) {
        let source = Some(Source::Sheet(i));
        let name = cat.sheet_name_in(i, lang);
        return Some(match tiled {
            true => {
                let title = words.with("tiled", &[("name", name)]);
                (Kind::Tiled, title, words.counted("boards", 1), source)
            }
            false => (Kind::Sheet, name.to_string(), words.counted("sheets", 1), source),
        });
    }
    let (i, _) = cat.boxes.iter().enumerate().find(|(_, b)| b.id == id)?;
    Some((Kind::Box, cat.box_name_in(i, lang).to_string(), words.counted("boxes", 1), None))
}

/// The names a bundle in `lang` prints in the game's own language for want of a
/// translation: the game's name and description, and each component's (by id).
pub fn untranslated_names(cat: &Catalogue, lang: &str, parts: &[Part]) -> Option<Diagnostic> {
    let tables = cat.lang.get(lang);
    let has = |table: &str, key: &str| {
        tables.and_then(|t| t.get(table)).is_some_and(|t| t.contains_key(key))
    };
    let words = |s: &str| s.chars().any(char::is_alphabetic);
    let mut missing: Vec<String> = Vec::new();
    for key in ["name", "description"] {
        let written = if key == "name" { &cat.name } else { &cat.description };
        if words(written) && !has("game", key) {
            missing.push(format!("[lang.{lang}.game] {key}"));
        }
    }
    let mut seen = Vec::new();
    for part in parts {
        let id = part.id.as_str();
        let decks = cat.decks.iter().map(|d| (&d.id, &d.name));
        let sheets = cat.sheets.iter().map(|s| (&s.id, &s.name));
        let boxes = cat.boxes.iter().map(|b| (&b.id, &b.name));
        let name = decks.chain(sheets).chain(boxes).find(|(i, _)| *i == id).map_or("", |n| n.1);
        if !seen.contains(&id) && words(name) && !has("names", id) {
            missing.push(format!("[lang.{lang}.names] {id}"));
        }
        seen.push(id);
    }
    if missing.is_empty() {
        return None;
    }
    Some(
        Diagnostic::warning(
            &cat.game_toml,
            None,
            format!(
                "the `{lang}` bundle prints {} in the game's own language: no {}",
                match missing.len() {
                    1 => "a name".to_string(),
                    n => format!("{n} names"),
                },
                crate::diag::accepted(&missing)
            ),
        )
        .with_note(format!(
            "translate them in game.toml under [lang.{lang}.game] (name, description) and [lang.{lang}.names] (ID = \"…\"), as docs/catalogue.md says"
        )),
    )
}

/// The bundle's geometry for its own pages.
fn own_geometry(paper: Paper) -> Geometry {
    super::rules_geometry(paper, false)
}

/// The whole bundle as PDF bytes, its own pages in `lang`'s `words`.
pub fn assemble(
    cat: &Catalogue,
    (lang, words): (Option<&str>, &Words),
    paper: Paper,
    book: Option<&Rulebook>,
    mut parts: Vec<Part>,
    (ink, variant): (Option<&super::guide::Ink>, crate::model::PrintVariant),
) -> Result<Vec<u8>, String> {
    let (db, _, _) = super::faces_of(cat);
    let metrics = crate::render::textbox::Metrics::new(db.clone());
    let faces = faces(cat, &metrics);
    let g = own_geometry(paper);
    let name = cat.name_in(lang).to_string();
    let footer_line = words.with("footer", &[("name", &name)]);
    let footer = |_: usize| footer_line.clone();
    let lay =
        |blocks: &[super::markdown::Block]| super::typeset::lay_out(blocks, g, &faces, &footer, 20);
    let rules_pages = book.map_or(0, |b| b.laid.pages.len());
    // The guide's length moves every page after it: laid out until it stands still.
    let (mut cover, mut guide): (Laid, Laid);
    let mut own = 2;
    loop {
        let mut first = own + rules_pages + 1;
        for part in &mut parts {
            part.component.first_page = first;
            first += part.component.pages;
        }
        let components: Vec<&Component> = parts.iter().map(|p| &p.component).collect();
        let listed: Vec<Component> = components.iter().map(|c| copy(c)).collect();
        cover = lay(&super::cover::blocks(cat, (lang, words), &listed))?;
        let rules = book.map(|_| (own + 1, rules_pages));
        guide = lay(&super::guide::blocks(words, paper, own, rules, &listed, ink, variant))?;
        let now = cover.pages.len() + guide.pages.len();
        if now == own {
            break;
        }
        own = now;
    }
    let title = words.with("title", &[("name", &name)]);
    let mut pdf = Assembly::new(&title, db.clone(), &cat.world);
    let pictures = card_pictures(cat, (lang, variant), &cover, g);
    for (i, page) in pdf.parse(&cover.pages)?.iter().enumerate() {
        let here: Vec<Picture> = match i {
            0 => pictures
                .iter()
                .map(|p| Picture { tree: p.tree.clone(), at: p.at, bleed: p.bleed })
                .collect(),
            _ => Vec::new(),
        };
        pdf.svg_page(page, g.page, own_label(), &here)?;
    }
    let mark = |key: &str, page: usize| Mark { title: words.get(key), page, children: Vec::new() };
    let mut marks = vec![mark("cover", 0), mark("how_to_print", pdf.pages())];
    let bar = usvg::Tree::from_str(&super::guide::scale_bar(words), &options(db.clone()))
        .map_err(|e| format!("internal error: the scale bar ({e})"))?;
    let bar = Arc::new(bar);
    for (i, page) in pdf.parse(&guide.pages)?.iter().enumerate() {
        let here: Vec<Picture> = guide
            .spaces
            .iter()
            .filter(|(p, _)| *p == i)
            .map(|(_, y)| Picture {
                tree: bar.clone(),
                at: [g.margin, *y, 80.0, super::guide::BAR_HEIGHT],
                bleed: None,
            })
            .collect();
        pdf.svg_page(page, g.page, own_label(), &here)?;
    }
    if let Some(book) = book {
        let first = pdf.pages();
        super::rules_pages(&mut pdf, book)?;
        let children = super::section_marks(&book.laid.sections, first);
        marks.push(Mark { title: words.get("rules"), page: first, children });
    }
    for part in parts {
        let page = pdf.pages();
        pdf.pdf_pages(part.pdf, &part.component.title)?;
        marks.push(Mark { title: part.component.title, page, children: Vec::new() });
    }
    pdf.marks = marks;
    // Its parts print each their own way, as the guide says; the file as a whole is
    // printed one side at a time, at 100 %.
    pdf.finish("Simplex")
}

fn copy(c: &Component) -> Component {
    Component {
        title: c.title.clone(),
        count: c.count.clone(),
        first_page: c.first_page,
        pages: c.pages,
        duplex: c.duplex,
        kind: c.kind,
    }
}

fn faces<'a>(cat: &Catalogue, metrics: &'a crate::render::textbox::Metrics) -> Faces<'a> {
    let (_, body, heading) = super::faces_of(cat);
    Faces { metrics, body, heading }
}

fn options(fontdb: Arc<usvg::fontdb::Database>) -> usvg::Options<'static> {
    crate::svg::sealed(fontdb)
}

/// The cover's and the guide's pages: i, ii, … (one range; the rules and the components
/// count from 1 again, each after its own name).
fn own_label() -> krilla::page::PageLabel {
    super::assemble::part_label(krilla::page::NumberingStyle::LowerRoman, "")
}

/// A card's face and back as they print (in the bundle's variant: the ink saver's cover
/// shows its pale back), side by side in the cover's space: the first card of the first
/// deck of cards.
fn card_pictures(
    cat: &Catalogue,
    (lang, variant): (Option<&str>, crate::model::PrintVariant),
    cover: &Laid,
    g: Geometry,
) -> Vec<Picture> {
    let Some(&(_, top)) = cover.spaces.first() else { return Vec::new() };
    let Some(d) = cat.decks.iter().position(|d| d.labels.is_none() && !d.rows.is_empty()) else {
        return Vec::new();
    };
    let rows: Vec<Vec<usize>> =
        (0..cat.decks.len()).map(|i| if i == d { vec![0] } else { Vec::new() }).collect();
    let request = crate::render::Request {
        wanted: &|_, _| false,
        rows: Some(&rows),
        back_rows: None,
        shared_back: &|i| i == d,
        sheet_sizes: None,
        players: cat.players.map_or(1, |p| p.0.max(1)),
        lang,
        drawn_before: None,
    };
    let drawn = crate::render::Drawer::new(cat, lang, variant).pieces(&request);
    let deck = &drawn.decks[d];
    let trees = [deck.faces.first(), deck.backs.first()]
        .into_iter()
        .filter_map(|p| p.and_then(|(_, piece)| piece.tree.clone()));
    // Drawn at 70 % of the card's size with its bleed, which the cut's outline clips.
    let deck_def = &cat.decks[d];
    let scale = (super::cover::PICTURE_HEIGHT - 6.0)
        / (deck_def.height.to_mm() + 2.0 * deck_def.bleed.to_mm()).max(1.0);
    let scale = scale.min(0.7);
    let bleed = deck_def.bleed.to_mm() * scale;
    let mut out = Vec::new();
    for (i, tree) in trees.enumerate() {
        let height = (deck_def.height.to_mm() + 2.0 * deck_def.bleed.to_mm()) * scale;
        let width = height * tree.size().width() / tree.size().height();
        let x = if i == 0 { g.page.0 / 2.0 - width - 2.0 } else { g.page.0 / 2.0 + 2.0 };
        out.push(Picture { tree, at: [x, top + 3.0, width, height], bleed: Some(bleed) });
    }
    out
}
