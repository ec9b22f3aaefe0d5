//! Stage `render`: `Validated` → `Art`. Fills the SVG templates of every deck and sheet
//! (minijinja), parses the result with usvg against the bundled fonts, and refuses art a
//! player could not read: a character no bundled font has, or a template whose shape is
//! not the piece's.

pub(crate) mod fill;

use std::path::Path;
use std::sync::Arc;

use crate::diag::{Diagnostic, Failure};
use crate::layout::ArtRef;
use crate::length::Length;
use crate::validate::Validated;
use fill::Filler;

type FontDb = Arc<usvg::fontdb::Database>;

/// Parsed art, ready to be drawn at any size.
pub struct Art {
    pub decks: Vec<DeckArt>,
    /// One tree per sheet component, for the paper being printed.
    pub sheets: Vec<usvg::Tree>,
}

pub struct DeckArt {
    /// One tree per row of the deck, in row order.
    pub faces: Vec<usvg::Tree>,
    /// One back for the deck, or one per row when backs are filled per card.
    pub backs: Vec<usvg::Tree>,
}

impl Art {
    pub fn tree(&self, art: ArtRef) -> &usvg::Tree {
        match art {
            ArtRef::Face { deck, row } => &self.decks[deck].faces[row],
            ArtRef::Back { deck, row } => &self.decks[deck].backs[row],
            ArtRef::Sheet { sheet } => &self.sheets[sheet],
        }
    }
}

/// Renders every deck. `lang` picks translated labels (`card.label.FIELD`).
pub fn render(validated: &Validated, lang: Option<&str>) -> Result<Art, Failure> {
    let cat = validated.catalogue();
    let fontdb = crate::fonts::database();
    let mut diags = Vec::new();
    let filler = Filler::new(cat, lang, &mut diags);
    let mut decks = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate() {
        let expected = (deck.width, deck.height);
        let card = |template: &crate::model::Template, row: Option<&crate::model::Row>, what: String, diags: &mut Vec<Diagnostic>| {
            let svg = filler.fill_card(d, template, row, diags)?;
            parse(&svg, &template.file, &what, Some(expected), &fontdb, diags)
        };
        let faces: Vec<Option<usvg::Tree>> = deck.rows.iter().map(|row| card(&deck.face, Some(row), format!("card `{}` of deck `{}`", row.id, deck.id), &mut diags)).collect();
        let backs: Vec<Option<usvg::Tree>> = if deck.back_per_card {
            deck.rows.iter().map(|row| card(&deck.back, Some(row), format!("the back of card `{}`", row.id), &mut diags)).collect()
        } else {
            vec![card(&deck.back, None, format!("the back of deck `{}`", deck.id), &mut diags)]
        };
        if let (Some(faces), Some(backs)) = (faces.into_iter().collect(), backs.into_iter().collect()) {
            decks.push(DeckArt { faces, backs });
        }
    }
    finish(cat, diags, Art { decks, sheets: Vec::new() })
}

/// Renders the sheet components for one paper: `sizes[i]` is sheet i's size (the page for
/// page-sized sheets), `players` the number of columns a score pad should have.
pub fn render_sheets(validated: &Validated, sizes: &[(Length, Length)], players: u32) -> Result<Vec<usvg::Tree>, Failure> {
    let cat = validated.catalogue();
    let fontdb = crate::fonts::database();
    let mut diags = Vec::new();
    let filler = Filler::new(cat, None, &mut diags);
    let trees: Vec<Option<usvg::Tree>> = cat
        .sheets
        .iter()
        .enumerate()
        .map(|(i, sheet)| {
            let size = sizes[i];
            let svg = filler.fill_sheet(i, (size.0.to_mm(), size.1.to_mm()), players, &mut diags)?;
            parse(&svg, &sheet.template.file, &format!("sheet `{}`", sheet.id), Some(size), &fontdb, &mut diags)
        })
        .collect();
    let trees = trees.into_iter().collect::<Option<Vec<_>>>().unwrap_or_default();
    finish(cat, diags, trees)
}

/// Page decorations made by the layout stage (tile labels, glue strips): deckpress's own
/// SVG, so a failure to parse it is a bug, not a catalogue problem.
pub fn decor(svg: &str) -> Result<usvg::Tree, String> {
    usvg::Tree::from_str(svg, &options(&crate::fonts::database())).map_err(|e| format!("internal error drawing page marks: {e}"))
}

fn finish<T>(cat: &crate::model::Catalogue, mut diags: Vec<Diagnostic>, value: T) -> Result<T, Failure> {
    if diags.is_empty() {
        Ok(value)
    } else {
        diags.dedup();
        Err(Failure::Invalid(diags, cat.sources.clone()))
    }
}

fn options(fontdb: &FontDb) -> usvg::Options<'static> {
    usvg::Options {
        font_family: crate::fonts::DEFAULT_FAMILY.to_string(),
        fontdb: fontdb.clone(),
        image_href_resolver: usvg::ImageHrefResolver {
            // Embedded data: images are fine; files and URLs would escape the catalogue.
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

/// Filled SVG → checked tree, or the problems pushed to `diags`. `what` names the piece
/// in messages; `expected` is the size the art will be drawn at.
pub(crate) fn parse(svg: &str, template: &Path, what: &str, expected: Option<(Length, Length)>, fontdb: &FontDb, diags: &mut Vec<Diagnostic>) -> Option<usvg::Tree> {
    let tree = match usvg::Tree::from_str(svg, &options(fontdb)) {
        Ok(tree) => tree,
        Err(e) => {
            let mut d = Diagnostic::new(template, None, format!("the filled template is not valid SVG: {e}"));
            if let usvg::Error::ParsingFailed(xml) = &e {
                d = d.with_note(format!("at line {} of the filled SVG", xml.pos().row));
            }
            diags.push(d.with_note(format!("while filling {what}")));
            return None;
        }
    };
    check_art(&tree, template, what, expected, diags).then_some(tree)
}

/// Checks what a player would see: every character has a glyph, the art has the piece's shape.
fn check_art(tree: &usvg::Tree, template: &Path, what: &str, expected: Option<(Length, Length)>, diags: &mut Vec<Diagnostic>) -> bool {
    let mut ok = true;
    let mut missing = Vec::new();
    collect_missing_glyphs(tree.root(), &mut missing);
    if !missing.is_empty() {
        missing.sort();
        missing.dedup();
        let list: Vec<String> = missing.iter().map(|c| format!("`{c}` (U+{:04X})", c.chars().next().map_or(0, |c| c as u32))).collect();
        diags.push(
            Diagnostic::new(template, None, format!("no bundled font has {}", list.join(", ")))
                .with_note(format!("in {what}; it would print as an empty box"))
                .with_note("bundled fonts: Noto Sans, Noto Sans Symbols, Noto Sans Symbols 2; draw the mark as a path instead"),
        );
        ok = false;
    }
    if let Some((w, h)) = expected {
        let size = tree.size();
        if ((size.width() / size.height()) / (w.to_pt() / h.to_pt()) - 1.0).abs() > 0.01 {
            diags.push(
                Diagnostic::new(template, None, format!("the template's shape ({} × {}) is not the piece's ({w} × {h})", size.width(), size.height()))
                    .with_note(format!("in {what}; set width, height and viewBox to the piece's proportions")),
            );
            ok = false;
        }
    }
    ok
}

fn collect_missing_glyphs(group: &usvg::Group, missing: &mut Vec<String>) {
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => collect_missing_glyphs(g, missing),
            usvg::Node::Text(text) => {
                for span in text.layouted() {
                    for glyph in span.positioned_glyphs.iter().filter(|g| g.id.0 == 0 && !g.text.trim().is_empty()) {
                        missing.push(glyph.text.clone());
                    }
                }
            }
            _ => {}
        }
    }
}
