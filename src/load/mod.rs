//! Stage `load`: a catalogue folder → `Catalogue`. Reads `game.toml`, the rows files and
//! the templates through the `World`, resolves names and units, and reports every problem
//! it finds at once. Nothing after this stage touches the file system.

mod boxes;
mod compare;
mod decks;
mod declared;
mod fonts;
mod game_toml;
mod icons;
mod includes;
mod labels;
mod read;
mod rows;
mod rules;
mod settings;
mod shape;
mod sheets;
mod spreadsheet;
mod translations;

pub use icons::icon_names;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::Spanned;

use crate::diag::{accepted, Diagnostic, Failure, Sources};
use crate::length::Length;
use crate::model::{Catalogue, Deal, Deck, Field, FieldKind, SheetDef, Template};
use crate::world::{ReadError, World};
use decks::{LibraryDeck, DEFAULT_CARD};
use game_toml::RawGameToml;
use rules::Ids;

/// The file that describes a game, inside its catalogue folder.
pub const GAME_TOML: &str = "game.toml";

/// A library deck.s own TOML file inside `library/NAME/`.
pub const LIBRARY_DECK_TOML: &str = "deck.toml";
/// A library sheet template inside `library/NAME/`.
pub const LIBRARY_TEMPLATE: &str = "template.svg";

/// Loads the catalogue in `world` under a job's `limits`, with the shared templates as
/// its library: what every command reads a game with.
pub fn load_with(world: &World, limits: &crate::limits::Limits) -> Result<Catalogue, Failure> {
    load_with_keeping(world, limits).map_err(|rejected| rejected.0)
}

/// Loads the catalogue in `world`; decks with `from = "NAME"` come from `library/NAME`.
pub fn load(world: &World, library: &World) -> Result<Catalogue, Failure> {
    load_keeping(world, library).map_err(|rejected| rejected.0)
}

/// `load_with`, keeping what could be read of a catalogue whose only errors are cells of
/// its rows files (`Partial`).
pub fn load_with_keeping(
    world: &World,
    limits: &crate::limits::Limits,
) -> Result<Catalogue, (Failure, Option<Partial>)> {
    load_keeping(&world.clone().with_limits(limits), &World::templates().with_limits(limits))
}

/// A catalogue whose only errors are in cells of its rows files (a quantity that is no
/// number, an unknown suit, an id used twice), without the rows those cells are on: its
/// templates can still be checked, so that a designer fixes everything in one round.
pub struct Partial(pub Box<Catalogue>);

/// `load`, and on failure what could be read, when that can still be drawn (`Partial`).
fn load_keeping(world: &World, library: &World) -> Result<Catalogue, (Failure, Option<Partial>)> {
    let game_toml_path = world.display_path(GAME_TOML);
    let text = match world.read_text(GAME_TOML) {
        Ok(t) => t,
        Err(ReadError::NotFound) => {
            return Err((
                Failure::Io(format!(
                    "{} has no {GAME_TOML}: is it a catalogue folder?",
                    world.root().display()
                )),
                None,
            ))
        }
        Err(e) => {
            let failure = Failure::Io(format!("cannot read {}: {e}", game_toml_path.display()));
            return Err((failure, None));
        }
    };
    let mut loader = Loader {
        world,
        library,
        game_toml: game_toml_path.clone(),
        sources: Sources::default(),
        diags: Vec::new(),
        checked: Default::default(),
        columns: Default::default(),
    };
    loader.sources.insert(game_toml_path.clone(), text.clone());

    let raw: RawGameToml = match toml::from_str(&text) {
        Ok(raw) => raw,
        Err(e) => {
            let message = format!("failed to parse {GAME_TOML}: {}", e.message().trim_end());
            let mut d = Diagnostic::new(&game_toml_path, e.span(), message);
            if let Some(hint) = crate::diag::unknown_name_hint(e.message()) {
                d = d.with_note(hint);
            }
            return Err((Failure::Invalid(vec![d], loader.sources), None));
        }
    };
    let catalogue = loader.resolve(raw);
    match catalogue {
        Some(c) if loader.diags.is_empty() => Ok(Catalogue { sources: loader.sources, ..c }),
        Some(c) => {
            let partial =
                Partial::of(Catalogue { sources: loader.sources.clone(), ..c }, &loader.diags);
            Err((Failure::Invalid(loader.diags, loader.sources), partial))
        }
        None => Err((Failure::Invalid(loader.diags, loader.sources), None)),
    }
}

impl Partial {
    /// `cat` without the rows `diags` point into, when every one of them is in a deck's
    /// rows file; otherwise nothing (what failed elsewhere could make the drawing say
    /// the same problem again in other words).
    fn of(mut cat: Catalogue, diags: &[Diagnostic]) -> Option<Partial> {
        let in_rows = |d: &Diagnostic| {
            d.span.is_some() && cat.decks.iter().any(|deck| deck.rows_file == d.file)
        };
        if !diags.iter().all(in_rows) {
            return None;
        }
        for deck in &mut cat.decks {
            // Where each problem starts: on the line of the row it is about.
            let wrong: Vec<usize> = diags
                .iter()
                .filter(|d| d.file == deck.rows_file)
                .filter_map(|d| d.span.as_ref().map(|span| span.start))
                .collect();
            deck.rows
                .retain(|row| !wrong.iter().any(|at| row.span.contains(at) || *at == row.span.end));
        }
        Some(Partial(Box::new(cat)))
    }
}

type Labels = BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>;

fn merge_lang(into: &mut Labels, from: &Labels) {
    for (lang, fields) in from {
        for (field, labels) in fields {
            into.entry(lang.clone())
                .or_default()
                .entry(field.clone())
                .or_default()
                .extend(labels.clone());
        }
    }
}

struct Loader<'a> {
    world: &'a World,
    library: &'a World,
    game_toml: PathBuf,
    sources: Sources,
    diags: Vec<Diagnostic>,
    /// Art files checked so far (shared with `render`, so each is decoded once).
    checked: std::sync::Arc<crate::images::Checked>,
    /// The columns each deck's and sheet's rows file has, by collection; rules may only
    /// read fields their decks have.
    columns: BTreeMap<(Kind, String), Vec<String>>,
}

/// Whether an id names a deck or a sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Deck,
    Sheet,
}

impl Loader<'_> {
    fn error(&mut self, span: Range<usize>, message: impl Into<String>, note: impl Into<String>) {
        let file = self.game_toml.clone();
        self.error_in(&file, span, message, note);
    }

    fn error_in(
        &mut self,
        file: &Path,
        span: Range<usize>,
        message: impl Into<String>,
        note: impl Into<String>,
    ) {
        let d = Diagnostic::new(file, Some(span), message).with_note(note);
        self.diags.push(d);
    }

    fn resolve(&mut self, raw: RawGameToml) -> Option<Catalogue> {
        let game_toml = self.game_toml.clone();
        let mut fields = self.fields(&raw.fields, &game_toml);
        let (libraries, style, lang) = self.shared_decks(&raw, &mut fields);

        let default_size = match &raw.card {
            Some(size) => self.card_size(size, &game_toml),
            None => (Length::mm(DEFAULT_CARD.0), Length::mm(DEFAULT_CARD.1)),
        };
        let mut decks = Vec::new();
        for raw_deck in &raw.deck {
            let lib = raw_deck
                .get_ref()
                .from
                .as_ref()
                .and_then(|f| libraries.get(f.get_ref()))
                .and_then(Option::as_ref);
            if let Some(deck) = self.deck(raw_deck, lib, &fields, default_size) {
                decks.push(deck);
            }
        }
        if raw.deck.is_empty() {
            self.error(
                0..0,
                "the catalogue has no [[deck]]",
                "add a [[deck]] table with id, rows, face and back",
            );
        }
        let mut seen = BTreeMap::new();
        for d in &raw.deck {
            if seen.insert(d.get_ref().id.get_ref().clone(), ()).is_some() {
                self.error(
                    d.get_ref().id.span(),
                    format!("deck id `{}` is used twice", d.get_ref().id.get_ref()),
                    "give each deck its own id",
                );
            }
        }
        // Label sheets are decks of labels, after the game's own decks.
        let mut deck_ids: Vec<String> =
            raw.deck.iter().map(|d| d.get_ref().id.get_ref().clone()).collect();
        let own_decks = deck_ids.len();
        for sheet in &raw.sheet {
            if let Some(labels) = &sheet.get_ref().labels {
                deck_ids.push(sheet.get_ref().id.get_ref().clone());
                if let Some(deck) = self.label_sheet(sheet, labels, &fields) {
                    decks.push(deck);
                }
            }
        }
        if !self.within_card_limit(&decks) {
            return None;
        }

        let deals = self.deals(&raw.deal, &deck_ids);

        let is_labels = |s: &&Spanned<game_toml::RawSheet>| s.get_ref().labels.is_some();
        let sheets: Vec<SheetDef> = raw
            .sheet
            .iter()
            .filter(|s| !is_labels(s))
            .filter_map(|sh| self.sheet(sh, &fields))
            .collect();
        let ids = Ids {
            decks: deck_ids.clone(),
            own: own_decks,
            sheets: raw
                .sheet
                .iter()
                .filter(|s| !is_labels(s))
                .map(|s| s.get_ref().id.get_ref().clone())
                .collect(),
        };
        let mut all_ids: Vec<&String> = ids.decks[..own_decks].iter().collect();
        for sheet in &raw.sheet {
            let id = sheet.get_ref().id.get_ref();
            if all_ids.contains(&id) {
                self.error(
                    sheet.get_ref().id.span(),
                    format!("`{id}` names two decks or sheets"),
                    "give each its own id: it names the output file",
                );
            }
            all_ids.push(id);
        }
        let rules = raw.rule.iter().filter_map(|r| self.rule(r, &fields, &ids)).collect();
        let odds = raw.odds.iter().filter_map(|o| self.odds(o, &fields, &ids, &deals)).collect();
        let boxes = self.boxes(&raw.boxes, &decks, &deck_ids[..own_decks]);
        for b in &raw.boxes {
            let id = b.get_ref().id.get_ref();
            if all_ids.contains(&id) {
                self.error(
                    b.get_ref().id.span(),
                    format!("`{id}` names a box and a deck, sheet or box"),
                    "give each its own id: it names the output file",
                );
            }
            all_ids.push(id);
        }

        let players = self.players(raw.game.players.as_ref());
        let id = raw.game.id.get_ref().clone();
        self.check_names(&raw);
        let icons = self.icons(&raw.icons);
        let colour = self.colour(raw.colour.as_ref());
        let includes = self.includes(
            decks
                .iter()
                .flat_map(|d| [&d.face, &d.back])
                .chain(sheets.iter().map(|s| &s.template))
                .chain(boxes.iter().flat_map(|b| b.faces.iter().map(|f| &f.template)))
                .collect(),
        );
        let templates: Vec<&Template> = decks
            .iter()
            .flat_map(|d| [&d.face, &d.back])
            .chain(sheets.iter().map(|s| &s.template))
            .chain(boxes.iter().flat_map(|b| b.faces.iter().map(|f| &f.template)))
            .chain(includes.iter())
            .collect();
        self.check_texts(&raw, &fields, (&decks, &sheets), &templates, &icons);
        let legibility = self.legibility(raw.check.as_ref(), &fields);
        Some(Catalogue {
            id,
            icons,
            colour,
            includes,
            version: raw.game.version.clone(),
            author: raw.game.author.clone(),
            copyright: raw.game.copyright.clone(),
            year: raw.game.year,
            playing_time: raw.game.playing_time.clone(),
            age: raw.game.age.clone(),
            credits: raw.game.credits.clone(),
            name: raw.game.name,
            description: raw.game.description,
            players,
            fields,
            decks,
            sheets,
            boxes,
            deals,
            odds,
            rules,
            style,
            lang,
            game_toml: self.game_toml.clone(),
            world: self.world.clone(),
            fonts: self.fonts(&raw.game.fonts),
            checked: self.checked.clone(),
            sources: Sources::default(),
            whole: None,
            legibility,
        })
    }

    /// The library decks the game's decks come from (`from = "NAME"`), each read once;
    /// they bring their fields (into `fields`), style defaults and translations along.
    fn shared_decks(
        &mut self,
        raw: &RawGameToml,
        fields: &mut Vec<Field>,
    ) -> (BTreeMap<String, Option<LibraryDeck>>, toml::Table, Labels) {
        let mut libraries: BTreeMap<String, Option<LibraryDeck>> = BTreeMap::new();
        for from in raw.deck.iter().filter_map(|d| d.get_ref().from.as_ref()) {
            if !libraries.contains_key(from.get_ref()) {
                let lib = self.library_deck(from);
                libraries.insert(from.get_ref().clone(), lib);
            }
        }
        let mut style = toml::Table::new();
        let mut lang = BTreeMap::new();
        for lib in libraries.values().flatten() {
            for field in self.fields(&lib.raw.fields, &lib.deck_toml.clone()) {
                match fields.iter().find(|f| f.name == field.name) {
                    Some(existing) if existing.kind != field.kind => {
                        self.error(0..0, format!("field `{}` is declared differently by the game and the shared deck", field.name), "rename the game's field");
                    }
                    Some(_) => {}
                    None => fields.push(field),
                }
            }
            style.extend(lib.raw.style.clone().unwrap_or_default());
            merge_lang(&mut lang, &lib.raw.lang);
        }
        style.extend(raw.style.clone().unwrap_or_default());
        merge_lang(&mut lang, &raw.lang);
        (libraries, style, lang)
    }

    /// Whether the game's physical cards are within the limit; if not, it is reported.
    fn within_card_limit(&mut self, decks: &[Deck]) -> bool {
        let cards: u64 =
            decks.iter().map(|d: &Deck| d.rows.iter().map(|r| r.qty as u64).sum::<u64>()).sum();
        if cards > self.world.limits().cards {
            self.error(
                0..0,
                format!("the game has {cards} cards, more than deckpress prints in one build"),
                format!(
                    "at most {} (--limit cards=N); split it into several games",
                    self.world.limits().cards
                ),
            );
            return false;
        }
        true
    }

    /// `[[deal]]` tables, each dealing from a deck by its id (the first by default).
    fn deals(&mut self, raw: &[Spanned<game_toml::RawDeal>], deck_ids: &[String]) -> Vec<Deal> {
        raw.iter()
            .filter_map(|d| {
                let deck = match &d.get_ref().deck {
                    Some(name) => self.deck_index(name, deck_ids)?,
                    None => 0,
                };
                let raw = d.get_ref();
                Some(Deal {
                    players: raw.players,
                    hand: raw.hand,
                    table: raw.table,
                    deck,
                    span: d.span(),
                })
            })
            .collect()
    }

    /// `[game] players`: a range of players, no more than the limit.
    fn players(&mut self, raw: Option<&Spanned<game_toml::RawPlayers>>) -> Option<(u32, u32)> {
        raw.map(|p| {
            let (min, max) = (p.get_ref().min, p.get_ref().max);
            if min == 0 || min > max {
                self.error(p.span(), format!("players {min} to {max} is not a range of players"), "write min ≥ 1 and min ≤ max");
            } else if max as u64 > self.world.limits().players {
                self.error(p.span(), format!("a game for up to {max} players is more than deckpress prints pads and deal tables for"), format!("at most {} players (--limit players=N)", self.world.limits().players));
            }
            (min, max)
        })
    }

    /// Ids and language tags become file and folder names: nothing but a plain name may
    /// get through.
    fn check_names(&mut self, raw: &RawGameToml) {
        let game_toml = self.game_toml.clone();
        self.file_name_id(&raw.game.id, "game id", "the output folder");
        for deck in &raw.deck {
            self.file_name_id(&deck.get_ref().id, "deck id", "its PDF");
        }
        for sheet in &raw.sheet {
            self.file_name_id(&sheet.get_ref().id, "sheet id", "its PDF");
        }
        let text = self.sources.get(&game_toml).unwrap_or_default().to_string();
        for tag in raw.lang.keys() {
            if !is_language_tag(tag) {
                let span = text
                    .find(&format!("lang.\"{tag}\""))
                    .or_else(|| text.find(&format!("lang.{tag}")))
                    .map(|i| i..i + 5 + tag.len());
                self.diags.push(
                    Diagnostic::new(&game_toml, span, format!("`{tag}` is not a language tag"))
                        .with_note("use a BCP 47 tag like `ru`, `de` or `pt-BR`: it becomes part of file names"),
                );
            }
        }
    }

    /// What needs every template and table read: comparisons with known values, icon
    /// names, translations, misspelt declarations and text keys.
    fn check_texts(
        &mut self,
        raw: &RawGameToml,
        fields: &[Field],
        (decks, sheets): (&[Deck], &[SheetDef]),
        templates: &[&Template],
        icons: &[crate::model::Icon],
    ) {
        self.check_comparisons(templates, fields);
        let text_fields: Vec<&str> =
            fields.iter().filter(|f| f.kind == FieldKind::Text).map(|f| f.name.as_str()).collect();
        for deck in decks {
            self.check_icon_names(&deck.rows_file, &deck.rows, &text_fields, icons);
        }
        // A deck or sheet that did not load whole (a header typo, a broken CSV, a missing
        // template) leaves its values unknown: its translations would all look orphaned,
        // one consequence per label hiding the one cause.
        let rows_files: Vec<&Path> = decks
            .iter()
            .map(|d| d.rows_file.as_path())
            .chain(sheets.iter().map(|s| s.rows_file.as_path()))
            .collect();
        let whole = decks.len() + sheets.len() == raw.deck.len() + raw.sheet.len()
            && decks.iter().all(|d| !d.rows.is_empty())
            && !self.diags.iter().any(|d| d.is_error() && rows_files.contains(&d.file.as_path()));
        let box_ids: Vec<&str> =
            raw.boxes.iter().map(|b| b.get_ref().id.get_ref().as_str()).collect();
        self.check_translations(&raw.lang, fields, decks, (sheets, &box_ids), icons, whole);
        self.fold_misspelt_declarations(fields);
        if whole {
            let names: Vec<&str> = [raw.game.name.as_str(), raw.game.description.as_str()]
                .into_iter()
                .chain(decks.iter().map(|d| d.name.as_str()))
                .chain(sheets.iter().map(|s| s.name.as_str()))
                .collect();
            self.check_text_keys(&raw.lang, templates, decks, sheets, &names);
        }
    }

    fn fields(
        &mut self,
        raw: &BTreeMap<Spanned<String>, Spanned<game_toml::RawField>>,
        file: &Path,
    ) -> Vec<Field> {
        let mut fields = Vec::new();
        for (spanned_name, field) in raw {
            let (name, field) = (spanned_name.get_ref(), field.get_ref());
            if name == "id" || name == "qty" {
                self.error_in(
                    file,
                    spanned_name.span(),
                    format!("`{name}` is a built-in column"),
                    "remove it from [fields]",
                );
                continue;
            }
            let kind = match (field.kind.as_ref().map(|k| k.get_ref().as_str()), &field.values) {
                (None | Some("enum"), Some(values)) => FieldKind::Enum(values.clone()),
                (None | Some("text"), None) => FieldKind::Text,
                (Some("integer"), None) => FieldKind::Integer,
                (Some("file" | "image"), None) => FieldKind::File,
                (Some("enum"), None) => {
                    self.error_in(
                        file,
                        field.kind.as_ref().map_or(0..0, |k| k.span()),
                        format!("field `{name}` is an enum without values"),
                        "list them: values = [\"Red\", \"Blue\"]",
                    );
                    FieldKind::Text
                }
                (Some(k @ ("text" | "integer" | "file" | "image")), Some(_)) => {
                    self.error_in(
                        file,
                        field.kind.as_ref().map_or(0..0, |k| k.span()),
                        format!("field `{name}` is `{k}` but lists values"),
                        "drop `kind` to make it an enum of the values",
                    );
                    FieldKind::Text
                }
                (Some(other), _) => {
                    self.error_in(
                        file,
                        field.kind.as_ref().map_or(0..0, |k| k.span()),
                        format!("unknown field kind `{other}`"),
                        format!("known kinds: {}", accepted(["text", "integer", "enum", "file"])),
                    );
                    FieldKind::Text
                }
            };
            fields.push(Field { name: name.clone(), kind, optional: field.optional });
        }
        fields
    }

    /// An id that names a file: lowercase letters, digits and dashes, starting with a
    /// letter or digit (no `/`, `..` or spaces that could put a PDF outside `--out`).
    fn file_name_id(&mut self, id: &Spanned<String>, what: &str, names: &str) {
        if !is_file_name_id(id.get_ref()) {
            let mut note = format!("use lowercase letters, digits and dashes: it names {names}");
            if let Some(suggestion) = plain_id(id.get_ref()) {
                note.push_str(&format!(", like `{suggestion}`"));
            }
            self.error(id.span(), format!("{what} `{}` is not a plain name", id.get_ref()), note);
        }
    }
}

/// `My Game!` → `my-game`: the plain id a name gives, if any.
pub fn plain_id(name: &str) -> Option<String> {
    let id: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let id = id.split('-').filter(|s| !s.is_empty()).collect::<Vec<_>>().join("-");
    (!id.is_empty()).then_some(id)
}

/// `[a-z0-9][a-z0-9-]*`, at most 64 characters.
fn is_file_name_id(id: &str) -> bool {
    let mut chars = id.chars();
    id.len() <= 64
        && chars.next().is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A BCP 47 language tag as far as file names need: `ru`, `de`, `pt-BR`, `zh-Hant`
/// (2–3 letter language, then alphanumeric subtags of 1–8).
fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let language = parts.next().unwrap_or_default();
    (2..=3).contains(&language.len())
        && language.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// A deck's or sheet's rows linked to a sheet on the web (`rows_url`), as game.toml writes
/// them: what `deckpress fetch` downloads, read without loading the rest of the catalogue
/// (whose local copies may not be there yet).
pub struct LinkedRows {
    /// "deck `cards`", "sheet `market`".
    pub what: String,
    /// The local copy, relative to the catalogue folder.
    pub rows: String,
    pub url: String,
    /// Where the link is written in game.toml.
    pub span: std::ops::Range<usize>,
    /// The sheet of a spreadsheet copy to check (`sheet = "market"`), else its first.
    pub sheet: Option<String>,
}

/// The linked rows of the catalogue in `world`, with game.toml's path and text for
/// diagnostics; or why game.toml cannot be read.
pub fn linked_rows(
    world: &World,
) -> Result<(Vec<LinkedRows>, std::path::PathBuf, String), Failure> {
    let path = world.display_path(GAME_TOML);
    let text = world
        .read_text(GAME_TOML)
        .map_err(|e| Failure::Io(format!("cannot read {}: {e}", path.display())))?;
    let raw: RawGameToml = toml::from_str(&text).map_err(|e| {
        let message = format!("failed to parse {GAME_TOML}: {}", e.message().trim_end());
        let mut sources = Sources::default();
        sources.insert(path.clone(), text.clone());
        Failure::Invalid(vec![Diagnostic::new(&path, e.span(), message)], sources)
    })?;
    let decks = raw.deck.iter().map(|d| {
        let d = d.get_ref();
        (format!("deck `{}`", d.id.get_ref()), &d.rows, &d.rows_url, &d.sheet_name)
    });
    let sheets = raw.sheet.iter().map(|s| {
        let s = s.get_ref();
        (format!("sheet `{}`", s.id.get_ref()), &s.rows, &s.rows_url, &s.sheet_name)
    });
    let linked = decks
        .chain(sheets)
        .filter_map(|(what, rows, url, sheet)| {
            let url = url.as_ref()?;
            Some(LinkedRows {
                what,
                rows: rows.as_ref().map(|r| r.get_ref().clone()).unwrap_or_default(),
                url: url.get_ref().clone(),
                span: url.span(),
                sheet: sheet.as_ref().map(|s| s.get_ref().clone()),
            })
        })
        .collect();
    Ok((linked, path, text))
}

/// A downloaded sheet's rows as CSV text: a CSV file as it is (without a byte-order mark),
/// a spreadsheet's sheet (`sheet`, else its first) converted; or why it is no rows.
pub fn rows_text(bytes: &[u8], rows: &str, sheet: Option<&str>) -> Result<String, String> {
    if spreadsheet::is_spreadsheet(rows) {
        return spreadsheet::read(bytes, sheet).map(|t| t.csv).map_err(|p| p.join("; "));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!("it is not UTF-8 text (byte {} is not), so not CSV", e.valid_up_to() + 1)
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text).to_string())
}
