//! Stage `render`: `Validated` → `Art`. Fills each deck's SVG templates with the card rows
//! (minijinja), parses the result with usvg against the bundled fonts, and refuses art a
//! player could not read: a character no bundled font has, or a template whose shape is
//! not the card's.

use std::path::Path;
use std::sync::Arc;

use minijinja::{AutoEscape, Environment, UndefinedBehavior, Value};

use crate::diag::{Diagnostic, Failure};
use crate::model::{Catalogue, Deck, FieldKind, Row};
use crate::validate::Validated;

/// Parsed card art for every deck, ready to be drawn at any size.
pub struct Art {
    pub decks: Vec<DeckArt>,
}

pub struct DeckArt {
    /// One tree per row of the deck, in row order.
    pub faces: Vec<usvg::Tree>,
    pub back: usvg::Tree,
}

/// `lang` picks translated labels (`card.label.FIELD`); without it labels are the values.
pub fn render(validated: &Validated, lang: Option<&str>) -> Result<Art, Failure> {
    let cat = validated.catalogue();
    let fontdb = crate::fonts::database();
    let mut diags = Vec::new();
    let mut decks = Vec::new();
    for deck in &cat.decks {
        let filler = Filler::new(cat, deck, lang, &mut diags);
        let back_svg = filler.fill_back(&mut diags);
        let back = parse(back_svg, &deck.back.file, None, deck, &fontdb, &mut diags);
        let faces: Vec<Option<usvg::Tree>> = deck
            .rows
            .iter()
            .map(|row| {
                let svg = filler.fill_face(row, &mut diags);
                parse(svg, &deck.face.file, Some(row), deck, &fontdb, &mut diags)
            })
            .collect();
        if let (Some(back), Some(faces)) = (back, faces.into_iter().collect::<Option<Vec<_>>>()) {
            decks.push(DeckArt { faces, back });
        }
    }
    if diags.is_empty() {
        Ok(Art { decks })
    } else {
        diags.dedup();
        Err(Failure::Invalid(diags, cat.sources.clone()))
    }
}

/// A deck's two templates compiled once, filled once per card.
struct Filler<'a> {
    env: Environment<'a>,
    deck: &'a Deck,
    base: Vec<(&'static str, Value)>,
    cat: &'a Catalogue,
    labels: Option<&'a std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>>,
    ok: bool,
}

impl<'a> Filler<'a> {
    fn new(cat: &'a Catalogue, deck: &'a Deck, lang: Option<&str>, diags: &mut Vec<Diagnostic>) -> Self {
        let mut env = Environment::new();
        // Field values go into XML: escape them so an `&` in a card title cannot break the SVG.
        env.set_auto_escape_callback(|_| AutoEscape::Html);
        // A misspelt field name is an error, not an empty string on a printed card.
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        let mut ok = true;
        for (name, template) in [("face", &deck.face), ("back", &deck.back)] {
            if let Err(e) = env.add_template_owned(name, template.text.clone()) {
                diags.push(template_error(&template.file, &template.text, &e, None, deck));
                ok = false;
            }
        }
        let base = vec![
            ("game", Value::from_iter([("id", cat.id.clone()), ("name", cat.name.clone())])),
            ("deck", Value::from_iter([("id", deck.id.clone()), ("name", deck.name.clone())])),
            ("style", Value::from_serialize(&cat.style)),
        ];
        let labels = lang.and_then(|l| cat.lang.get(l));
        Self { env, deck, base, cat, labels, ok }
    }

    fn fill_back(&self, diags: &mut Vec<Diagnostic>) -> Option<String> {
        self.fill("back", &self.deck.back, Value::from_iter(self.base.iter().cloned()), None, diags)
    }

    fn fill_face(&self, row: &Row, diags: &mut Vec<Diagnostic>) -> Option<String> {
        let mut card: Vec<(String, Value)> = vec![("id".into(), Value::from(row.id.clone())), ("qty".into(), Value::from(row.qty))];
        let mut labels = Vec::new();
        for field in &self.cat.fields {
            let text = row.value(&field.name);
            let value = match (&field.kind, text.parse::<i64>()) {
                (FieldKind::Integer, Ok(n)) => Value::from(n),
                _ => Value::from(text),
            };
            card.push((field.name.clone(), value));
            // The printed form of a value: its translation in the chosen language, or itself.
            let label = self.labels.and_then(|l| l.get(&field.name)).and_then(|l| l.get(text)).map_or(text, String::as_str);
            labels.push((field.name.clone(), Value::from(label)));
        }
        card.push(("label".into(), Value::from_iter(labels)));
        let context = Value::from_iter(self.base.iter().map(|(k, v)| (k.to_string(), v.clone())).chain([("card".to_string(), Value::from_iter(card))]));
        self.fill("face", &self.deck.face, context, Some(row), diags)
    }

    fn fill(&self, name: &str, template: &crate::model::Template, context: Value, card: Option<&Row>, diags: &mut Vec<Diagnostic>) -> Option<String> {
        if !self.ok {
            return None;
        }
        let compiled = self.env.get_template(name).ok()?;
        match compiled.render(context) {
            Ok(svg) => Some(svg),
            Err(e) => {
                diags.push(template_error(&template.file, &template.text, &e, card, self.deck));
                None
            }
        }
    }
}

fn template_error(file: &Path, text: &str, e: &minijinja::Error, card: Option<&Row>, deck: &Deck) -> Diagnostic {
    let span = e.line().map(|line| line_span(text, line));
    let mut message = format!("template error: {}", e.kind());
    if let Some(detail) = e.detail() {
        message.push_str(&format!(": {detail}"));
    }
    let mut d = Diagnostic::new(file, span, message);
    if let Some(row) = card {
        d = d.with_note(format!("while filling card `{}` of deck `{}`", row.id, deck.id));
    }
    d.with_note("card fields are used as {{ card.FIELD }}; also available: game, deck, style")
}

/// Byte span of a 1-based line.
fn line_span(text: &str, line: usize) -> std::ops::Range<usize> {
    let start = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>();
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    start..end
}

/// Filled SVG → checked tree, or the problems pushed to `diags`.
fn parse(svg: Option<String>, template: &Path, card: Option<&Row>, deck: &Deck, fontdb: &Arc<usvg::fontdb::Database>, diags: &mut Vec<Diagnostic>) -> Option<usvg::Tree> {
    let tree = parse_svg(&svg?, template, card, deck, fontdb, diags)?;
    check_art(&tree, template, card, deck, diags).then_some(tree)
}

fn parse_svg(svg: &str, template: &Path, card: Option<&Row>, deck: &Deck, fontdb: &Arc<usvg::fontdb::Database>, diags: &mut Vec<Diagnostic>) -> Option<usvg::Tree> {
    let options = usvg::Options {
        font_family: crate::fonts::DEFAULT_FAMILY.to_string(),
        fontdb: fontdb.clone(),
        image_href_resolver: usvg::ImageHrefResolver {
            // Embedded data: images are fine; files and URLs would escape the catalogue.
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    match usvg::Tree::from_str(svg, &options) {
        Ok(tree) => Some(tree),
        Err(e) => {
            let line = match &e {
                usvg::Error::ParsingFailed(xml) => Some(xml.pos().row as usize),
                _ => None,
            };
            let mut d = Diagnostic::new(template, None, format!("the filled template is not valid SVG: {e}"));
            if let Some(line) = line {
                d = d.with_note(format!("at line {line} of the filled SVG"));
            }
            if let Some(row) = card {
                d = d.with_note(format!("while filling card `{}` of deck `{}`", row.id, deck.id));
            }
            diags.push(d);
            None
        }
    }
}

/// Checks what a player would see: every character has a glyph, the art has the card's shape.
fn check_art(tree: &usvg::Tree, template: &Path, card: Option<&Row>, deck: &Deck, diags: &mut Vec<Diagnostic>) -> bool {
    let which = || match card {
        Some(row) => format!("card `{}` of deck `{}`", row.id, deck.id),
        None => format!("the back of deck `{}`", deck.id),
    };
    let mut ok = true;
    let mut missing = Vec::new();
    collect_missing_glyphs(tree.root(), &mut missing);
    if !missing.is_empty() {
        missing.sort();
        missing.dedup();
        let list: Vec<String> = missing.iter().map(|c| format!("`{c}` (U+{:04X})", c.chars().next().map_or(0, |c| c as u32))).collect();
        diags.push(
            Diagnostic::new(template, None, format!("no bundled font has {}", list.join(", ")))
                .with_note(format!("in {}; it would print as an empty box", which()))
                .with_note("bundled fonts: Noto Sans, Noto Sans Symbols, Noto Sans Symbols 2; draw the mark as a path instead"),
        );
        ok = false;
    }
    let size = tree.size();
    let art_ratio = size.width() / size.height();
    let card_ratio = deck.width.to_pt() / deck.height.to_pt();
    if (art_ratio / card_ratio - 1.0).abs() > 0.01 {
        diags.push(
            Diagnostic::new(template, None, format!("the template's shape ({} × {}) is not the card's ({} × {})", size.width(), size.height(), deck.width, deck.height))
                .with_note(format!("in {}; set width, height and viewBox to the card's proportions", which())),
        );
        ok = false;
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
