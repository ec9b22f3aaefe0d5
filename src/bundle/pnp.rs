//! The print-and-play bundle put together: the build's component PDFs in print order,
//! a cover and a print guide that count their pages, the rulebook, bookmarks and labels.

use std::sync::Arc;

use krilla::pdf::Pdf;

use super::assemble::{Assembly, Mark, Picture};
use super::cover::{Component, Kind, Part, Separate, Source};
use super::typeset::{Faces, Geometry, Laid};
use super::Rulebook;
use crate::diag::Diagnostic;
use crate::export::pdf::PrintAs;
use crate::layout::Paper;
use crate::model::Catalogue;
use crate::phrases::Words;
use crate::plan::{Product, What};

/// The build's files, in the order the build made them (decks, then sheets, boards tiled
/// on the paper, label sheets, boxes), read by what each is: the parts printed on the
/// bundle's `paper`, and those on another paper, which the cover and the guide list as
/// printed separately (label sheets of another paper, a box that needs a larger sheet).
/// Named in each file's language, counted in `words`.
pub fn components(
    cat: &Catalogue,
    (game, words): (&str, &Words),
    files: Vec<(What, Vec<u8>)>,
    paper: Paper,
) -> Result<(Vec<Part>, Vec<Separate>), String> {
    let (mut parts, mut separate) = (Vec::new(), Vec::new());
    for (what, bytes) in files {
        let on_paper = what.paper.as_deref() == Some(paper.name());
        let lang = what.lang.as_deref();
        let deck_ids = |decks: &[usize]| decks.iter().map(|&d| cat.decks[d].id.clone()).collect();
        let (kind, title, count, source, ids): (_, _, _, _, Vec<String>) = match &what.product {
            Product::Cards { decks } => {
                let title = decks.iter().map(|&d| cat.deck_name_in(d, lang)).collect();
                let title = join(title);
                let count = decks.iter().map(|&d| pieces(&cat.decks[d], words)).collect();
                let source = decks.first().map(|&d| Source::Deck(d));
                (Kind::Cards, title, join(count), source, deck_ids(decks))
            }
            Product::Sheet { sheet } => {
                let title = cat.sheet_name_in(*sheet, lang).to_string();
                let count = words.counted("sheets", 1);
                let id = cat.sheets[*sheet].id.clone();
                (Kind::Sheet, title, count, Some(Source::Sheet(*sheet)), vec![id])
            }
            Product::TiledBoard { sheet } => {
                let title = words.with("tiled", &[("name", cat.sheet_name_in(*sheet, lang))]);
                let count = words.counted("boards", 1);
                let id = cat.sheets[*sheet].id.clone();
                (Kind::Tiled, title, count, Some(Source::Sheet(*sheet)), vec![id])
            }
            Product::Labels { deck } => {
                let title = cat.deck_name_in(*deck, lang).to_string();
                let count = pieces(&cat.decks[*deck], words);
                (Kind::Labels, title, count, None, deck_ids(&[*deck]))
            }
            Product::Box { index } => {
                let title = cat.box_name_in(*index, lang).to_string();
                let id = cat.boxes[*index].id.clone();
                (Kind::Box, title, words.counted("boxes", 1), None, vec![id])
            }
            // The same board as its tiles, on one large sheet: another way to print it.
            Product::LargeBoard { .. } => continue,
            // What a build notes for itself, not printed.
            Product::Manifest => continue,
            Product::ServiceDeck { .. }
            | Product::ServicePngs { .. }
            | Product::Pictures
            | Product::Rulebook
            | Product::Bundle
            | Product::Tts
            | Product::Calibration
            | Product::Report => {
                return Err(format!(
                    "internal error: a print-and-play bundle is made of home files, not {:?}",
                    what.product
                ))
            }
        };
        if !on_paper {
            let on = what.paper.clone().unwrap_or_default();
            let only = match &what.product {
                Product::Labels { deck } => cat.decks[*deck].id.clone(),
                Product::Box { index } => cat.boxes[*index].id.clone(),
                Product::Cards { decks } => cat.decks[decks[0]].id.clone(),
                Product::Sheet { sheet } | Product::TiledBoard { sheet } => {
                    cat.sheets[*sheet].id.clone()
                }
                _ => String::new(),
            };
            let command = format!("deckpress build {game} --only {only}");
            separate.push(Separate { title, ids, count, paper: on, command });
            continue;
        }
        let duplex = match what.print_as {
            PrintAs::DuplexLongEdge => Some("long"),
            PrintAs::DuplexShortEdge => Some("short"),
            PrintAs::Simplex => None,
        };
        let name = title.clone();
        let pdf = Arc::new(Pdf::new(Arc::new(bytes)).map_err(|e| format!("{name}: {e:?}"))?);
        let pages = pdf.pages().len();
        let mm = 25.4 / 72.0;
        let page_area_mm2 =
            pdf.pages().iter().map(|p| p.render_dimensions()).map(|(w, h)| w * h * mm * mm).sum();
        let component = Component {
            title,
            count,
            first_page: 0,
            pages,
            duplex,
            kind,
            blank_before: false,
            folded: what.folded,
        };
        parts.push(Part { component, ids, source, page_area_mm2, pdf });
    }
    Ok((parts, separate))
}

/// "Cards + Aid", "39 cards + 6 cards".
fn join(items: Vec<impl AsRef<str>>) -> String {
    items.iter().map(|i| i.as_ref()).collect::<Vec<_>>().join(" + ")
}

/// How many pieces a deck is, from the data, in `words`: "62 cards", "50 tokens",
/// "12 stickers".
fn pieces(d: &crate::model::Deck, words: &Words) -> String {
    let n: u64 = d.rows.iter().map(|r| r.qty as u64).sum();
    let what = match (d.labels.is_some(), d.shape) {
        (true, _) => "stickers",
        (false, crate::model::Shape::Rect) => "cards",
        (false, crate::model::Shape::Circle) => "tokens",
        (false, crate::model::Shape::Hex(_)) => "tiles",
    };
    words.counted(what, n)
}

/// The ids of the components a bundle lists: those in the file and those printed
/// separately.
pub fn listed_ids<'a>(parts: &'a [Part], separate: &'a [Separate]) -> Vec<&'a str> {
    let listed = parts.iter().map(|p| &p.ids).chain(separate.iter().map(|s| &s.ids));
    listed.flatten().map(String::as_str).collect()
}

/// The names a bundle in `lang` prints in the game's own language for want of a
/// translation: the game's name and description, and each listed component's (by id).
pub fn untranslated_names(cat: &Catalogue, lang: &str, listed: &[&str]) -> Option<Diagnostic> {
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
    for &id in listed {
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
        .about(crate::diag::Topic::Untranslated)
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
    (mut parts, separate): (Vec<Part>, &[Separate]),
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
    let mut rules_first;
    loop {
        // Each double-sided part starts on a front (an odd page), a blank page before it
        // where needed, so the whole file can be printed double-sided in one go; so does
        // the rulebook, which may be printed either way.
        let front = |page: usize| page + page.is_multiple_of(2) as usize;
        rules_first = if book.is_some() { front(own + 1) } else { own + 1 };
        let mut first = rules_first + rules_pages;
        for part in &mut parts {
            let starts = if part.component.duplex.is_some() { front(first) } else { first };
            part.component.blank_before = starts != first;
            part.component.first_page = starts;
            first = starts + part.component.pages;
        }
        let components: Vec<&Component> = parts.iter().map(|p| &p.component).collect();
        let listed: Vec<Component> = components.iter().map(|c| copy(c)).collect();
        cover = lay(&super::cover::blocks(cat, (lang, words), &listed, separate))?;
        let rules = book.map(|_| (rules_first, rules_pages));
        let whole = (own, first - 1);
        let guide_blocks =
            super::guide::blocks((words, paper), whole, rules, &listed, separate, ink, variant);
        guide = lay(&guide_blocks)?;
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
    // The guide's spaces: the scale bar's, then the gutter fold's drawing where it has one.
    let fold = usvg::Tree::from_str(&super::guide::fold_drawing(words), &options(db.clone()))
        .map_err(|e| format!("internal error: the gutter fold's drawing ({e})"))?;
    let fold = Arc::new(fold);
    for (i, page) in pdf.parse(&guide.pages)?.iter().enumerate() {
        let here: Vec<Picture> = (guide.spaces.iter().enumerate())
            .filter(|(_, (p, _))| *p == i)
            .map(|(k, (_, y))| match k {
                0 => Picture {
                    tree: bar.clone(),
                    at: [g.margin, *y, 80.0, super::guide::BAR_HEIGHT],
                    bleed: None,
                },
                _ => Picture {
                    tree: fold.clone(),
                    at: [g.margin, *y, super::guide::FOLD_WIDTH, super::guide::FOLD_HEIGHT],
                    bleed: None,
                },
            })
            .collect();
        pdf.svg_page(page, g.page, own_label(), &here)?;
    }
    // A page left blank so that the next starts on a front says so.
    let blank = lay(&[super::cover::para(&words.get("blank_page"))])?;
    let blank = pdf.parse(&blank.pages)?;
    let blank_label = format!("{} ", words.get("blank_label"));
    let blank_page = |pdf: &mut Assembly| -> Result<(), String> {
        let label = super::assemble::part_label(krilla::page::NumberingStyle::Arabic, &blank_label);
        pdf.svg_page(&blank[0], g.page, label, &[])
    };
    if let Some(book) = book {
        if pdf.pages() + 1 < rules_first {
            blank_page(&mut pdf)?;
        }
        let first = pdf.pages();
        super::rules_pages(&mut pdf, book)?;
        let children = super::section_marks(&book.laid.sections, first);
        marks.push(Mark { title: words.get("rules"), page: first, children });
    }
    for part in parts {
        if part.component.blank_before {
            blank_page(&mut pdf)?;
        }
        let page = pdf.pages();
        debug_assert_eq!(page + 1, part.component.first_page);
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
        blank_before: c.blank_before,
        folded: c.folded,
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
