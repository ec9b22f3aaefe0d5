//! Documents beyond the pieces (the rulebook, `rules.md`): filled by the templates'
//! `Filler`, with the same functions and names, and the fonts the pieces are drawn with.

use super::fill::{is_template, Filler};
use crate::diag::Diagnostic;
use crate::model::{Catalogue, Template};

/// A document beyond the pieces (the rulebook) filled in the environment the templates
/// are, with the same functions and names; its problems go to `diags`.
pub fn fill_document(
    cat: &Catalogue,
    lang: Option<&str>,
    doc: &Template,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    // The templates' own compile errors are the build's to report.
    let mut setup = Vec::new();
    // The rulebook has one variant: the ink saver changes only what pieces draw.
    let variant = crate::model::PrintVariant::default();
    let mut filler = Filler::new(cat, (lang, variant), font_database(cat), &mut setup);
    filler.fill_document(doc, diags)
}

/// The game's description and its decks' and sheets' names written as templates
/// (`"{{ count(deck='cards') }} cards"`), filled once, in the language written and in each
/// one the game translates into: the cover, the guide, the page footers and the gallery
/// then print words that follow the data. Each one that fails is an error at its text in
/// game.toml.
pub fn fill_names(cat: &mut Catalogue) -> Vec<Diagnostic> {
    // (language, table, key): `None` is the catalogue's own text, "game"/"names" a
    // translation's table.
    type Place = (Option<String>, &'static str, String);
    let mut wanted: Vec<(Place, String)> = Vec::new();
    if is_template(&cat.description) {
        wanted.push(((None, "game", "description".into()), cat.description.clone()));
    }
    for d in &cat.decks {
        if is_template(&d.name) {
            wanted.push(((None, "deck", d.id.clone()), d.name.clone()));
        }
    }
    for s in &cat.sheets {
        if is_template(&s.name) {
            wanted.push(((None, "sheet", s.id.clone()), s.name.clone()));
        }
    }
    for (lang, tables) in &cat.lang {
        for table in ["game", "names"] {
            for (key, text) in tables.get(table).into_iter().flatten() {
                if is_template(text) && (table == "names" || key == "description") {
                    wanted.push(((Some(lang.clone()), table, key.clone()), text.clone()));
                }
            }
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut diags = Vec::new();
    let mut filled = Vec::new();
    {
        let mut setup = Vec::new();
        let variant = crate::model::PrintVariant::default();
        let mut fillers: Vec<(Option<String>, Filler)> = Vec::new();
        for ((lang, table, key), text) in wanted {
            if !fillers.iter().any(|(l, _)| *l == lang) {
                let filler =
                    Filler::new(cat, (lang.as_deref(), variant), font_database(cat), &mut setup);
                fillers.push((lang.clone(), filler));
            }
            let Some((_, filler)) = fillers.iter_mut().find(|(l, _)| *l == lang) else { continue };
            match filler.fill_text(&text) {
                Ok(words) => filled.push(((lang, table, key), words)),
                Err(why) => {
                    let what = match (&lang, table) {
                        (None, "game") => "the game's description".to_string(),
                        (None, kind) => format!("the name of {kind} `{key}`"),
                        (Some(l), _) => format!("the `{l}` translation of `{key}`"),
                    };
                    diags.push(
                        Diagnostic::new(&cat.game_toml, place_of(cat, &text), format!("template error in {what}: {why}"))
                            .with_note("a name or description holding `{{ … }}` or `{% … %}` is filled like a template: count(deck=, where=, each=), counts(each=), cards(…), row(…), values(…), deals"),
                    );
                }
            }
        }
    }
    for ((lang, table, key), words) in filled {
        match (lang, table) {
            (None, "game") => cat.description = words,
            (None, "deck") => {
                if let Some(d) = cat.decks.iter_mut().find(|d| d.id == key) {
                    d.name = words;
                }
            }
            (None, _) => {
                if let Some(s) = cat.sheets.iter_mut().find(|s| s.id == key) {
                    s.name = words;
                }
            }
            (Some(lang), table) => {
                if let Some(t) = cat.lang.get_mut(&lang).and_then(|t| t.get_mut(table)) {
                    t.insert(key, words);
                }
            }
        }
    }
    diags
}

/// Where `text` is written in game.toml (the first place it is), for its error.
fn place_of(cat: &Catalogue, text: &str) -> Option<std::ops::Range<usize>> {
    let source = cat.sources.get(&cat.game_toml)?;
    let at = source.find(text)?;
    Some(at..at + text.len())
}

/// The fonts a catalogue's pieces are drawn with: the bundled ones and its own.
pub fn font_database(cat: &Catalogue) -> std::sync::Arc<usvg::fontdb::Database> {
    let fonts: Vec<std::sync::Arc<Vec<u8>>> = cat.fonts.iter().map(|f| f.data.clone()).collect();
    if fonts.is_empty() {
        crate::fonts::bundled()
    } else {
        crate::fonts::database(&fonts)
    }
}
