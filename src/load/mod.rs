//! Stage `load`: a catalogue folder → `Catalogue`. Reads `game.toml`, the rows files and
//! the templates through the `World`, resolves names and units, and reports every problem
//! it finds at once. Nothing after this stage touches the file system.

mod boxes;
mod compare;
mod declared;
mod labels;
mod manifest;
mod rows;
mod rules;
mod shape;
mod spreadsheet;
mod translations;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::Spanned;

use crate::diag::{accepted, Diagnostic, Failure, Sources};
use crate::length::Length;
use crate::model::{
    matches, Catalogue, Deal, Deck, Field, FieldKind, Row, Shape, SheetDef, SheetSize, Template,
};
use crate::world::{ReadError, World};
use manifest::{RawCardSize, RawManifest};
use rules::Ids;

/// The manifest's file name inside a catalogue folder.
pub const MANIFEST: &str = "game.toml";

/// A library deck's manifest inside `library/NAME/`.
pub const LIBRARY_MANIFEST: &str = "deck.toml";
/// A library sheet template inside `library/NAME/`.
pub const LIBRARY_TEMPLATE: &str = "template.svg";

/// More copies of a deck, or jokers, than any game needs.
const MAX_COPIES: u32 = 100;

/// Art drawn beyond the cut on every side unless a deck says otherwise: what print shops
/// in Europe ask for (US shops ask for 1/8 in, 3.175 mm).
const DEFAULT_BLEED_MM: f32 = 3.0;

/// Named card sizes (`[card] size = "poker"`), width × height in millimetres, portrait.
const CARD_SIZES: [(&str, f32, f32); 5] = [
    ("poker", 63.5, 88.9), // 2.5 × 3.5 in: the US poker card, DriveThruCards' and The Game Crafter's
    ("euro-poker", 63.0, 88.0),
    ("bridge", 57.15, 88.9), // 2.25 × 3.5 in
    ("tarot", 70.0, 120.0),
    ("mini", 44.45, 63.5), // 1.75 × 2.5 in
];

/// Card size when neither the game nor the deck names one: the common poker size.
const DEFAULT_CARD: (f32, f32) = (63.0, 88.0);

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
    let manifest_path = world.display_path(MANIFEST);
    let text = match world.read_text(MANIFEST) {
        Ok(t) => t,
        Err(ReadError::NotFound) => {
            return Err((
                Failure::Io(format!(
                    "{} has no {MANIFEST}: is it a catalogue folder?",
                    world.root().display()
                )),
                None,
            ))
        }
        Err(e) => {
            let failure = Failure::Io(format!("cannot read {}: {e}", manifest_path.display()));
            return Err((failure, None));
        }
    };
    let mut loader = Loader {
        world,
        library,
        manifest: manifest_path.clone(),
        sources: Sources::default(),
        diags: Vec::new(),
        checked: Default::default(),
        columns: Default::default(),
    };
    loader.sources.insert(manifest_path.clone(), text.clone());

    let raw: RawManifest = match toml::from_str(&text) {
        Ok(raw) => raw,
        Err(e) => {
            let message = format!("failed to parse {MANIFEST}: {}", e.message().trim_end());
            let mut d = Diagnostic::new(&manifest_path, e.span(), message);
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

/// A parsed `library/NAME/deck.toml` and the folder its files are read from.
struct LibraryDeck {
    world: World,
    manifest: PathBuf,
    raw: manifest::RawLibraryDeck,
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
    manifest: PathBuf,
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
        let file = self.manifest.clone();
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

    fn resolve(&mut self, raw: RawManifest) -> Option<Catalogue> {
        let manifest = self.manifest.clone();
        let mut fields = self.fields(&raw.fields, &manifest);
        // Library decks bring their fields, style defaults and translations along.
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
            for field in self.fields(&lib.raw.fields, &lib.manifest.clone()) {
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

        let default_size = match &raw.card {
            Some(size) => self.card_size(size, &manifest),
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
        let cards: u64 =
            decks.iter().map(|d: &Deck| d.rows.iter().map(|r| r.qty as u64).sum::<u64>()).sum();
        if cards > self.world.limits().get("cards") {
            self.error(
                0..0,
                format!("the game has {cards} cards, more than deckpress prints in one build"),
                format!(
                    "at most {} (--limit cards=N); split it into several games",
                    self.world.limits().get("cards")
                ),
            );
            return None;
        }

        let deals = raw
            .deal
            .iter()
            .filter_map(|d| {
                let deck = match &d.get_ref().deck {
                    Some(name) => self.deck_index(name, &deck_ids)?,
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
            .collect();

        let is_labels = |s: &&Spanned<manifest::RawSheet>| s.get_ref().labels.is_some();
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

        let players = raw.game.players.as_ref().map(|p| {
            let (min, max) = (p.get_ref().min, p.get_ref().max);
            if min == 0 || min > max {
                self.error(p.span(), format!("players {min} to {max} is not a range of players"), "write min ≥ 1 and min ≤ max");
            } else if max as u64 > self.world.limits().get("players") {
                self.error(p.span(), format!("a game for up to {max} players is more than deckpress prints pads and deal tables for"), format!("at most {} players (--limit players=N)", self.world.limits().get("players")));
            }
            (min, max)
        });
        let id = raw.game.id.get_ref().clone();
        // Ids become file and folder names: nothing but a plain name may get through.
        self.file_name_id(&raw.game.id, "game id", "the output folder");
        for deck in &raw.deck {
            self.file_name_id(&deck.get_ref().id, "deck id", "its PDF");
        }
        for sheet in &raw.sheet {
            self.file_name_id(&sheet.get_ref().id, "sheet id", "its PDF");
        }
        let text = self.sources.get(&manifest).unwrap_or_default().to_string();
        for tag in raw.lang.keys() {
            if !is_language_tag(tag) {
                let span = text
                    .find(&format!("lang.\"{tag}\""))
                    .or_else(|| text.find(&format!("lang.{tag}")))
                    .map(|i| i..i + 5 + tag.len());
                self.diags.push(
                    Diagnostic::new(&manifest, span, format!("`{tag}` is not a language tag"))
                        .with_note("use a BCP 47 tag like `ru`, `de` or `pt-BR`: it becomes part of file names"),
                );
            }
        }
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
        self.check_comparisons(&templates, &fields);
        let text_fields: Vec<&str> =
            fields.iter().filter(|f| f.kind == FieldKind::Text).map(|f| f.name.as_str()).collect();
        for deck in &decks {
            self.check_icon_names(&deck.rows_file, &deck.rows, &text_fields, &icons);
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
        self.check_translations(&raw.lang, &fields, &decks, &sheets, &icons, whole);
        self.fold_misspelt_declarations(&fields);
        if whole {
            let names: Vec<&str> = [raw.game.name.as_str(), raw.game.description.as_str()]
                .into_iter()
                .chain(decks.iter().map(|d| d.name.as_str()))
                .chain(sheets.iter().map(|s| s.name.as_str()))
                .collect();
            self.check_text_keys(&raw.lang, &templates, &decks, &sheets, &names);
        }
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
            name: raw.game.name,
            description: raw.game.description,
            players,
            fields,
            decks,
            sheets,
            boxes,
            deals,
            rules,
            style,
            lang,
            manifest: self.manifest.clone(),
            world: self.world.clone(),
            fonts: self.fonts(&raw.game.fonts),
            checked: self.checked.clone(),
            sources: Sources::default(),
            whole: None,
            legibility,
        })
    }

    fn fields(
        &mut self,
        raw: &BTreeMap<Spanned<String>, Spanned<manifest::RawField>>,
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

    fn card_size(&mut self, size: &Spanned<RawCardSize>, file: &Path) -> (Length, Length) {
        let bounds = Bounds {
            what: "card",
            max_mm: 400.0,
            range_note: "cards must be between 10mm and 400mm on a side",
            example: "card sizes look like `63mm` or `2.5in`",
        };
        let raw = size.get_ref();
        let default = (Length::mm(DEFAULT_CARD.0), Length::mm(DEFAULT_CARD.1));
        match (&raw.size, &raw.width, &raw.height) {
            (Some(name), None, None) => {
                match CARD_SIZES.iter().find(|(n, _, _)| n == name.get_ref()) {
                    Some(&(_, w, h)) if raw.landscape => (Length::mm(h), Length::mm(w)),
                    Some(&(_, w, h)) => (Length::mm(w), Length::mm(h)),
                    None => {
                        self.error_in(
                            file,
                            name.span(),
                            format!("unknown card size `{}`", name.get_ref()),
                            format!(
                                "named sizes: {}; or give `width` and `height`",
                                accepted(CARD_SIZES.iter().map(|(n, _, _)| n))
                            ),
                        );
                        default
                    }
                }
            }
            (None, Some(w), Some(h)) => {
                let width = self.length_within(w, file, &bounds).unwrap_or(default.0);
                let height = self.length_within(h, file, &bounds).unwrap_or(default.1);
                (width, height)
            }
            _ => {
                self.error_in(file, size.span(), "a card size is a named `size` or a `width` and a `height`", format!("e.g. size = \"poker\", or width = \"63mm\" and height = \"88mm\"; named sizes: {}", accepted(CARD_SIZES.iter().map(|(n, _, _)| n))));
                default
            }
        }
    }

    /// A printable length: parsed, at least 10mm and at most `bounds.max_mm`, or reported.
    fn length_within(
        &mut self,
        s: &Spanned<String>,
        file: &Path,
        bounds: &Bounds,
    ) -> Option<Length> {
        match Length::parse(s.get_ref()) {
            Ok(l) if l.to_mm() >= 10.0 && l.to_mm() <= bounds.max_mm => Some(l),
            Ok(l) => {
                self.error_in(
                    file,
                    s.span(),
                    format!("a {} {l} across cannot be printed", bounds.what),
                    bounds.range_note,
                );
                None
            }
            Err(message) => {
                self.error_in(file, s.span(), message, bounds.example);
                None
            }
        }
    }

    fn deck(
        &mut self,
        spanned: &Spanned<manifest::RawDeck>,
        lib: Option<&LibraryDeck>,
        fields: &[Field],
        default_size: (Length, Length),
    ) -> Option<Deck> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
        // Own files, or the library deck's (read from its folder). A library deck that
        // brings only templates (a player aid) takes the game's own rows.
        let own = self.world.clone();
        let (template_world, rows_world, files) = match (&raw.from, lib) {
            (Some(_), None) => return None, // the unknown library deck is already reported
            (Some(_), Some(lib)) => {
                for (key, given) in [("face", &raw.face), ("back", &raw.back)] {
                    if let Some(given) = given {
                        self.error(
                            given.span(),
                            format!("deck `{id}` comes from a shared deck and cannot set `{key}`"),
                            "drop `from` to use your own templates",
                        );
                    }
                }
                let rows = match (&raw.rows, &lib.raw.rows) {
                    (Some(rows), None) => Some((own.clone(), rows.clone())),
                    (None, Some(rows)) => Some((lib.world.clone(), rows.clone())),
                    (Some(given), Some(_)) => {
                        self.error(
                            given.span(),
                            format!("deck `{id}` comes from a shared deck, which has its rows"),
                            "choose cards with `where` and `unless` instead",
                        );
                        None
                    }
                    (None, None) => {
                        self.error(
                            spanned.span(),
                            format!(
                                "shared deck `{}` brings templates only: deck `{id}` needs `rows`",
                                raw.from.as_ref().map_or("", |f| f.get_ref())
                            ),
                            "name the game's CSV file with `rows`",
                        );
                        None
                    }
                };
                let (rows_world, rows) = rows?;
                (
                    lib.world.clone(),
                    rows_world,
                    Some((rows, lib.raw.face.clone(), lib.raw.back.clone())),
                )
            }
            (None, _) => match (&raw.rows, &raw.face, &raw.back) {
                (Some(rows), Some(face), Some(back)) => {
                    (own.clone(), own.clone(), Some((rows.clone(), face.clone(), back.clone())))
                }
                _ => (own.clone(), own.clone(), None),
            },
        };
        let Some((rows_rel, face_rel, back_rel)) = files else {
            self.error(
                spanned.span(),
                format!("deck `{id}` needs `rows`, `face` and `back`"),
                "name its CSV and SVG files, or use a shared deck with `from`",
            );
            return None;
        };
        let shape = self.shape(raw);
        let (width, height) = match (shape, &raw.card, lib.and_then(|l| l.raw.card.as_ref())) {
            (Shape::Hex(top), card, _) => self
                .hex_size(spanned.span(), card.as_ref(), top, &self.manifest.clone())
                .unwrap_or(default_size),
            (_, Some(size), _) => self.card_size(size, &self.manifest.clone()),
            (_, None, Some(size)) => {
                self.card_size(size, &lib.map(|l| l.manifest.clone()).unwrap_or_default())
            }
            (_, None, None) => default_size,
        };
        let corner = self.corner(raw, shape, (width, height));
        let rows_read = self.read_rows(&rows_world, &rows_rel, raw.sheet_name.as_ref());
        let face = self.template_in(&template_world, &face_rel);
        let back = self.template_in(&template_world, &back_rel);
        let world = rows_world;
        let rows_file = rows_read
            .as_ref()
            .map_or_else(|| world.display_path(rows_rel.get_ref()), |(file, _, _)| file.clone());
        let required = self.required_fields(raw.fields.as_deref(), fields);
        let delimiter = self.delimiter(raw.delimiter.as_ref());
        let all_rows = match rows_read {
            Some((_, text, sheet)) => {
                let table = rows::parse_rows(
                    &rows_file,
                    &text,
                    fields,
                    required.as_deref(),
                    delimiter,
                    sheet.as_ref().map(|t| &t.places),
                    &mut self.diags,
                );
                let mut columns = table.columns;
                if raw.copies.as_ref().is_some_and(|c| *c.get_ref() > 1) {
                    columns.push("mark".to_string()); // set on every copy
                }
                // No columns: the header failed and is reported; rules assume any column.
                if !columns.is_empty() {
                    self.columns.insert((Kind::Deck, id.clone()), columns);
                }
                table.rows
            }
            None => Vec::new(),
        };
        self.check_files(&world, &rows_file, &all_rows, fields);
        let gap = match &raw.gap {
            None => Length::ZERO,
            Some(g) => match Length::parse(g.get_ref()) {
                Ok(l) if l.to_mm() <= 30.0 => l,
                Ok(_) => {
                    self.error(
                        g.span(),
                        "a gap over 30mm wastes the sheet",
                        "a few millimetres is enough to cut between pieces",
                    );
                    Length::ZERO
                }
                Err(message) => {
                    self.error(g.span(), message, "gaps look like `4mm`");
                    Length::ZERO
                }
            },
        };
        let bleed = match &raw.bleed {
            None => Length::mm(DEFAULT_BLEED_MM),
            Some(b) => match Length::parse(b.get_ref()) {
                Ok(l) if l.to_mm() <= 10.0 => l,
                Ok(_) => {
                    self.error(
                        b.span(),
                        "a bleed over 10mm is paper thrown away",
                        "print shops ask for 3mm (1/8in); `0mm` prints none",
                    );
                    Length::mm(DEFAULT_BLEED_MM)
                }
                Err(message) => {
                    self.error(b.span(), message, "bleeds look like `3mm` or `0.125in`");
                    Length::mm(DEFAULT_BLEED_MM)
                }
            },
        };
        let back_per_card = match raw.backs.as_ref().map(|b| (b.get_ref().as_str(), b.span())) {
            None | Some(("shared", _)) => false,
            Some(("per-card", _)) => true,
            Some((other, span)) => {
                self.error(
                    span,
                    format!("unknown backs `{other}`"),
                    format!("use {}", accepted(["shared", "per-card"])),
                );
                false
            }
        };
        let filter = self.condition(&raw.filter, fields)?;
        let unless = self.condition(&raw.unless, fields)?;
        let jokers_condition = match lib {
            Some(lib) => self.condition(&lib.raw.jokers, fields)?,
            None => Vec::new(),
        };
        let is_joker = |row: &Row| !jokers_condition.is_empty() && matches(&jokers_condition, row);
        // The rows are taken, not copied: a deck of 100,000 cards is in memory once.
        let had_rows = !all_rows.is_empty();
        let (mut pool, mut chosen) = (Vec::new(), Vec::new());
        for row in all_rows {
            if is_joker(&row) {
                pool.push(row);
            } else if matches(&filter, &row) && (unless.is_empty() || !matches(&unless, &row)) {
                chosen.push(row);
            }
        }
        let copies = raw.copies.as_ref().map_or(1, |c| *c.get_ref());
        if copies > MAX_COPIES {
            self.error(
                raw.copies.as_ref().map_or(0..0, |c| c.span()),
                format!("{copies} copies of a deck is more than deckpress prints"),
                format!("at most {MAX_COPIES}"),
            );
            return None;
        }
        let marks = raw.marks.as_ref().map(|m| m.get_ref().clone()).unwrap_or_default();
        if let Some(m) = &raw.marks {
            if m.get_ref().len() != copies as usize {
                self.error(
                    m.span(),
                    format!("{} marks for {copies} copies", m.get_ref().len()),
                    "give one mark per copy",
                );
            }
            if !fields.iter().any(|f| f.name == "mark") {
                self.error(
                    m.span(),
                    "marks need a `mark` field",
                    "declare [fields.mark] with kind = \"text\" and optional = true",
                );
            }
        }
        if copies == 0 {
            self.error(
                raw.copies.as_ref().map_or(0..0, |c| c.span()),
                "a deck needs at least one copy",
                "write copies = 1 or more",
            );
        }
        let mut rows = match copies {
            1 => chosen,
            _ => (0..copies as usize)
                .flat_map(|copy| chosen.iter().map(move |row| (copy, row)))
                .map(|(copy, row)| {
                    let mut row = row.clone();
                    let mark = marks.get(copy).cloned().unwrap_or_else(|| (copy + 1).to_string());
                    row.id = format!("{}-{}", row.id, copy + 1);
                    row.values.insert("mark".to_string(), mark);
                    row
                })
                .collect(),
        };
        if let Some(n) = raw.jokers.as_ref().filter(|n| *n.get_ref() > MAX_COPIES) {
            self.error(
                n.span(),
                format!("{} jokers is more than deckpress prints", n.get_ref()),
                format!("at most {MAX_COPIES}"),
            );
            return None;
        }
        if let Some(n) = &raw.jokers {
            if pool.is_empty() && *n.get_ref() > 0 {
                self.error(
                    n.span(),
                    format!("deck `{id}` has no jokers to add"),
                    "only shared decks that define jokers can add them",
                );
            }
            for (i, joker) in pool.iter().cycle().take(*n.get_ref() as usize).enumerate() {
                match rows.iter_mut().find(|r| r.id == joker.id) {
                    Some(existing) => existing.qty += 1,
                    None if i < pool.len() => rows.push(joker.clone()),
                    None => {}
                }
            }
        }
        if rows.is_empty() && had_rows {
            self.error(
                spanned.span(),
                format!("deck `{id}` has no cards left after `where` and `unless`"),
                "check the conditions",
            );
        } else if !had_rows && self.diags.is_empty() {
            self.diags.push(
                Diagnostic::new(&rows_file, None, "the rows file has no cards")
                    .with_note("add one line per card design under the header"),
            );
        }
        // Held for the whole build: without the room the vector grew (up to a third).
        rows.shrink_to_fit();
        // The field that names a card: the one asked for, which must be a field of the deck,
        // else `name` or `title` when the deck's cards have one.
        let columns = |name: &str| rows.iter().any(|r| r.values.get(name).is_some());
        let name_field = match &raw.name_field {
            Some(asked) if columns(asked.get_ref()) => Some(asked.get_ref().clone()),
            Some(asked) => {
                let known: Vec<&String> =
                    fields.iter().map(|f| &f.name).filter(|f| columns(f)).collect();
                self.error(
                    asked.span(),
                    format!("deck `{id}` has no field `{}` to name its cards by", asked.get_ref()),
                    format!(
                        "{}its fields: {}",
                        rules::did_you_mean(asked.get_ref(), known.iter().copied()),
                        accepted(known)
                    ),
                );
                None
            }
            None => ["name", "title"].into_iter().find(|f| columns(f)).map(str::to_string),
        };
        Some(Deck {
            id,
            name: raw
                .name
                .clone()
                .or_else(|| lib.map(|l| l.raw.name.clone()))
                .unwrap_or_else(|| raw.id.get_ref().clone()),
            width,
            height,
            rows,
            rows_file,
            face: face?,
            back: back?,
            shape,
            corner,
            gap,
            back_per_card,
            name_field,
            bleed,
            labels: None,
        })
    }

    /// Reads `library/NAME/deck.toml`.
    fn library_deck(&mut self, name: &Spanned<String>) -> Option<LibraryDeck> {
        let rel = format!("{}/{LIBRARY_MANIFEST}", name.get_ref());
        let found = self
            .library
            .sub(name.get_ref())
            .and_then(|world| Some((self.library.read_text(&rel).ok()?, world)));
        let (text, world) = match found {
            Some(found) => found,
            None => {
                let names = self.library.folders_with(LIBRARY_MANIFEST);
                self.error(
                    name.span(),
                    format!("no shared deck `{}`", name.get_ref()),
                    format!(
                        "{}shared decks: {}",
                        rules::did_you_mean(name.get_ref(), names.iter()),
                        accepted(&names)
                    ),
                );
                return None;
            }
        };
        let manifest = world.display_path(LIBRARY_MANIFEST);
        self.sources.insert(manifest.clone(), text.clone());
        match toml::from_str::<manifest::RawLibraryDeck>(&text) {
            Ok(raw) => Some(LibraryDeck { world, manifest, raw }),
            Err(e) => {
                self.diags.push(Diagnostic::new(
                    &manifest,
                    e.span(),
                    format!("failed to parse {LIBRARY_MANIFEST}: {}", e.message().trim_end()),
                ));
                None
            }
        }
    }

    fn template_in(&mut self, world: &World, rel: &Spanned<String>) -> Option<Template> {
        let text = self.read_in(world, rel, "template")?;
        Some(Template {
            file: world.display_path(rel.get_ref()),
            text,
            world: world.clone(),
            name: rel.get_ref().clone(),
        })
    }

    /// The manifest that names the files of `world`: a shared deck's own `deck.toml`, or
    /// the game's `game.toml`.
    fn manifest_naming(&self, world: &World) -> PathBuf {
        if world.same_as(self.world) {
            self.manifest.clone()
        } else {
            world.display_path(LIBRARY_MANIFEST)
        }
    }

    /// A rows file's name in diagnostics and its text: a CSV file as it is, or a
    /// spreadsheet's sheet as CSV text, named `harbor.xlsx[market]` (two decks may read two
    /// sheets of one workbook) and placed by the sheet's rows. A problem is reported at
    /// the name.
    /// The rows a `[[sheet]]` fills (`rows = …`, with its `fields`, `delimiter` and
    /// spreadsheet `sheet`): read, parsed against the game's fields, their files checked;
    /// and the file's name as diagnostics give it. Unreadable rows are reported, none kept.
    fn sheet_rows(
        &mut self,
        raw: &manifest::RawSheet,
        rel: &Spanned<String>,
        fields: &[Field],
        kind: Kind,
        id: &str,
    ) -> (Vec<Row>, PathBuf) {
        let world = self.world.clone();
        let mut file = world.display_path(rel.get_ref());
        let required = self.required_fields(raw.fields.as_deref(), fields);
        let delimiter = self.delimiter(raw.delimiter.as_ref());
        let rows = match self.read_rows(&world, rel, raw.sheet_name.as_ref()) {
            Some((named, text, sheet)) => {
                file = named;
                let table = rows::parse_rows(
                    &file,
                    &text,
                    fields,
                    required.as_deref(),
                    delimiter,
                    sheet.as_ref().map(|t| &t.places),
                    &mut self.diags,
                );
                if !table.columns.is_empty() {
                    self.columns.insert((kind, id.to_string()), table.columns);
                }
                table.rows
            }
            None => Vec::new(),
        };
        self.check_files(&world, &file, &rows, fields);
        (rows, file)
    }

    fn read_rows(
        &mut self,
        world: &World,
        rel: &Spanned<String>,
        sheet: Option<&Spanned<String>>,
    ) -> Option<(PathBuf, String, Option<spreadsheet::Table>)> {
        let manifest = self.manifest_naming(world);
        if !spreadsheet::is_spreadsheet(rel.get_ref()) {
            if let Some(s) = sheet {
                self.error_in(
                    &manifest,
                    s.span(),
                    "`sheet` names a sheet of a spreadsheet",
                    format!(
                        "`{}` is read as CSV; give an .xlsx or .ods file to read a sheet from",
                        rel.get_ref()
                    ),
                );
            }
            let file = world.display_path(rel.get_ref());
            return self.read_in(world, rel, "rows file").map(|t| (file, t, None));
        }
        let bytes = match world.read_bytes(rel.get_ref()) {
            Ok(b) => b,
            Err(e) => {
                self.error_in(
                    &manifest,
                    rel.span(),
                    format!("cannot read rows file `{}`: {e}", rel.get_ref()),
                    format!(
                        "{}looked for {}",
                        world
                            .closest_file(rel.get_ref())
                            .map_or_else(String::new, |c| format!("did you mean `{c}`? ")),
                        world.display_path(rel.get_ref()).display()
                    ),
                );
                return None;
            }
        };
        match spreadsheet::read(&bytes, sheet.map(|s| s.get_ref().as_str())) {
            Ok(table) => {
                let mut name = world.display_path(rel.get_ref()).into_os_string();
                name.push(format!("[{}]", table.places.sheet));
                let file = PathBuf::from(name);
                self.sources.insert_sheet(file.clone(), table.csv.clone(), table.places.clone());
                Some((file, table.csv.clone(), Some(table)))
            }
            Err(problems) => {
                let span = sheet.map_or(rel.span(), |s| s.span());
                for problem in problems {
                    self.error_in(
                        &manifest,
                        span.clone(),
                        format!("rows file `{}`: {problem}", rel.get_ref()),
                        "fix it in the spreadsheet and save it again",
                    );
                }
                None
            }
        }
    }

    /// Reads a file named in a manifest; a problem is reported at the name.
    fn read_in(&mut self, world: &World, rel: &Spanned<String>, what: &str) -> Option<String> {
        match world.read_text(rel.get_ref()) {
            Ok(text) => {
                self.sources.insert(world.display_path(rel.get_ref()), text.clone());
                Some(text)
            }
            Err(e) => {
                let path = world.display_path(rel.get_ref());
                let manifest = self.manifest_naming(world);
                let bytes = world.read_bytes(rel.get_ref()).ok();
                let (message, note) = match (&e, bytes) {
                    // What a spreadsheet program saves, named for what it is.
                    (ReadError::NotUtf8, Some(b)) if b.starts_with(b"PK\x03\x04") || b.starts_with(b"\xd0\xcf\x11\xe0") => (
                        format!("{what} `{}` is a spreadsheet (.xlsx or .ods) saved under a .csv name", rel.get_ref()),
                        "give it its own extension (`rows = \"cards.xlsx\"`): deckpress reads spreadsheets directly".to_string(),
                    ),
                    (ReadError::NotUtf8, Some(b)) => {
                        let bad = std::str::from_utf8(&b).err().map_or(0, |e| e.valid_up_to());
                        let before = String::from_utf8_lossy(&b[..bad]);
                        let line = before.matches('\n').count() + 1;
                        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                        let guess = if b[bad] >= 0xa0 { format!(" (in Windows-1252, the encoding Excel uses on Windows, byte 0x{:02X} is `{}`)", b[bad], char::from(b[bad])) } else { String::new() };
                        (
                            format!("{what} `{}` is not UTF-8 text: line {line}, column {column} has byte 0x{:02X}{guess}", rel.get_ref(), b[bad]),
                            "save it as \"CSV UTF-8\" (Excel: File › Save As › CSV UTF-8), or give deckpress the .xlsx itself".to_string(),
                        )
                    }
                    _ => {
                        let meant = world.closest_file(rel.get_ref()).map_or_else(String::new, |c| format!("did you mean `{c}`? "));
                        (format!("cannot read {what} `{}`: {e}", rel.get_ref()), format!("{meant}looked for {}", path.display()))
                    }
                };
                self.error_in(&manifest, rel.span(), message, note);
                None
            }
        }
    }

    fn sheet(
        &mut self,
        spanned: &Spanned<manifest::RawSheet>,
        fields: &[Field],
    ) -> Option<SheetDef> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
        let manifest = self.manifest.clone();
        let size = match (&raw.page, &raw.width, &raw.height) {
            (Some(page), None, None) => match page.get_ref().as_str() {
                "portrait" => SheetSize::Page { landscape: false },
                "landscape" => SheetSize::Page { landscape: true },
                other => {
                    self.error(
                        page.span(),
                        format!("unknown page `{other}`"),
                        format!("use {}", accepted(["portrait", "landscape"])),
                    );
                    return None;
                }
            },
            (None, Some(w), Some(h)) => {
                let bounds = Bounds {
                    what: "sheet",
                    max_mm: 2000.0,
                    range_note: "sheets are 10mm to 2000mm on a side",
                    example: "sizes look like `420mm`",
                };
                let width = self.length_within(w, &manifest, &bounds);
                let height = self.length_within(h, &manifest, &bounds);
                SheetSize::Fixed { width: width?, height: height? }
            }
            (Some(page), _, _) => {
                self.error(page.span(), format!("sheet `{id}` has both `page` and a `width` or `height`"), "keep `page` for a sheet the size of the paper, or `width` and `height` for a fixed size (a board)");
                return None;
            }
            _ => {
                self.error(spanned.span(), format!("sheet `{id}` needs a size"), "give `page = \"portrait\"` or `\"landscape\"` (the paper), or `width` and `height`");
                return None;
            }
        };
        let template = match (&raw.template, &raw.from) {
            (Some(rel), None) => self.template_in(&self.world.clone(), rel),
            (None, Some(name)) => self.library_template(name),
            _ => {
                self.error(spanned.span(), format!("sheet `{id}` needs one template"), "give `template = \"templates/x.svg\"` or a shared template with `from = \"score-pad\"`");
                None
            }
        };
        let (rows, rows_file) = match &raw.rows {
            Some(rel) => self.sheet_rows(raw, rel, fields, Kind::Sheet, &id),
            None => {
                self.columns.insert((Kind::Sheet, id.clone()), Vec::new());
                (Vec::new(), manifest.clone())
            }
        };
        Some(SheetDef {
            id: id.clone(),
            name: raw.name.clone().unwrap_or(id),
            size,
            template: template?,
            rows,
            rows_file,
            data: raw.data.clone().unwrap_or_default(),
        })
    }

    /// `library/NAME/template.svg`, a general sheet template (score pads, mats).
    fn library_template(&mut self, name: &Spanned<String>) -> Option<Template> {
        let rel = format!("{}/{LIBRARY_TEMPLATE}", name.get_ref());
        match (self.library.read_text(&rel), self.library.sub(name.get_ref())) {
            (Ok(text), Some(world)) => {
                let file = self.library.display_path(&rel);
                self.sources.insert(file.clone(), text.clone());
                Some(Template { file, text, world, name: "template.svg".to_string() })
            }
            _ => {
                let names = self.library.folders_with(LIBRARY_TEMPLATE);
                self.error(
                    name.span(),
                    format!("no shared sheet template `{}`", name.get_ref()),
                    format!(
                        "{}shared sheet templates: {}",
                        rules::did_you_mean(name.get_ref(), names.iter()),
                        accepted(&names)
                    ),
                );
                None
            }
        }
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

    /// `[colour]`: swatches keyed by an sRGB colour, each with four inks in percent.
    /// `[check]`, each threshold in its range.
    fn legibility(
        &mut self,
        raw: Option<&manifest::RawCheck>,
        fields: &[crate::model::Field],
    ) -> crate::model::Legibility {
        let mut check = crate::model::Legibility::default();
        let Some(raw) = raw else { return check };
        let take = |this: &mut Self,
                    value: &Option<Spanned<f32>>,
                    range: std::ops::RangeInclusive<f32>,
                    what: &str,
                    into: &mut f32| {
            if let Some(v) = value {
                if range.contains(v.get_ref()) {
                    *into = *v.get_ref();
                } else {
                    this.error(
                        v.span(),
                        format!("{what} is {}", v.get_ref()),
                        format!("give a number from {} to {}", range.start(), range.end()),
                    );
                }
            }
        };
        take(self, &raw.min_text_pt, 0.0..=72.0, "min_text_pt", &mut check.min_text_pt);
        take(self, &raw.contrast, 1.0..=21.0, "contrast", &mut check.contrast);
        take(self, &raw.large_contrast, 1.0..=21.0, "large_contrast", &mut check.large_contrast);
        if let Some(on) = raw.colour_alone {
            check.colour_alone = on;
        }
        check.accept_colour_alone = self.accepted_colour_alone(raw, fields);
        check
    }

    /// `[check] accept_colour_alone`: enum fields of the game, each named once.
    fn accepted_colour_alone(
        &mut self,
        raw: &manifest::RawCheck,
        fields: &[crate::model::Field],
    ) -> Vec<String> {
        let enums = || fields.iter().filter(|f| matches!(f.kind, crate::model::FieldKind::Enum(_)));
        let mut accepted: Vec<String> = Vec::new();
        for name in raw.accept_colour_alone.iter().flatten() {
            let (span, name) = (name.span(), name.get_ref());
            let known = crate::diag::accepted(enums().map(|f| f.name.as_str()));
            match fields.iter().find(|f| &f.name == name) {
                None => self.error(
                    span,
                    format!("accept_colour_alone names `{name}`, which is not a field"),
                    format!("name an enum field: {known}"),
                ),
                Some(f) if !matches!(f.kind, crate::model::FieldKind::Enum(_)) => self.error(
                    span,
                    format!("accept_colour_alone names `{name}`, which is not an enum field"),
                    format!(
                        "only an enum field's values are compared for colour; enum fields: {known}"
                    ),
                ),
                Some(_) if accepted.contains(name) => self.error(
                    span,
                    format!("accept_colour_alone names `{name}` twice"),
                    "name each field once",
                ),
                Some(_) => accepted.push(name.clone()),
            }
        }
        accepted
    }

    fn colour(&mut self, raw: Option<&manifest::RawColour>) -> crate::model::PressColours {
        let mut colours = crate::model::PressColours::default();
        let Some(raw) = raw else { return colours };
        let inks = |this: &mut Self, value: &Spanned<Vec<f32>>, what: &str| -> Option<[f32; 4]> {
            match value.get_ref().as_slice() {
                &[c, m, y, k] if [c, m, y, k].iter().all(|v| (0.0..=100.0).contains(v)) => {
                    Some([c, m, y, k])
                }
                other => {
                    this.error(value.span(), format!("{what} has {} values{}", other.len(), if other.len() == 4 { ", not all between 0 and 100" } else { "" }), "write the four inks in percent, cyan, magenta, yellow and black: [60, 40, 40, 100]");
                    None
                }
            }
        };
        for (key, value) in &raw.swatches {
            let Some(rgb) = crate::model::parse_hex(key.get_ref()) else {
                self.error(
                    key.span(),
                    format!("swatch `{}` is not an sRGB colour", key.get_ref()),
                    "name a swatch by the colour the templates use, like \"#1b1b1b\"",
                );
                continue;
            };
            if let Some(cmyk) = inks(self, value, &format!("swatch `{}`", key.get_ref())) {
                colours.swatches.insert(rgb, cmyk);
            }
        }
        if let Some(rich) = &raw.rich_black {
            colours.rich_black = inks(self, rich, "rich_black");
        }
        colours
    }

    /// `[icons]`: each a name and an image inside the catalogue that decodes.
    fn icons(
        &mut self,
        raw: &BTreeMap<Spanned<String>, Spanned<String>>,
    ) -> Vec<crate::model::Icon> {
        let mut icons = Vec::new();
        for (name, href) in raw {
            if !crate::model::is_icon_name(name.get_ref()) {
                self.error(
                    name.span(),
                    format!("icon name `{}` is not a plain name", name.get_ref()),
                    "use letters (any script), digits, `-` and `_`: it is written `{name}` in text",
                );
                continue;
            }
            match crate::images::load(self.world, href.get_ref(), &self.checked) {
                Ok((data, info)) => {
                    let aspect = match info.format {
                        // Only its proportions are read here: nothing it links to is
                        // opened (cards draw it through the catalogue's own resolver).
                        crate::images::Format::Svg => match crate::world::plain_svg(&data) {
                            Ok(text) => usvg::Tree::from_data(&text, &proportions_only())
                                .map_or(1.0, |t| t.size().width() / t.size().height()),
                            Err(why) => {
                                self.error(
                                    href.span(),
                                    format!("icon `{}` cannot be used: {why}", name.get_ref()),
                                    "save it as plain SVG without a DOCTYPE",
                                );
                                continue;
                            }
                        },
                        _ => info.width as f32 / info.height as f32,
                    };
                    icons.push(crate::model::Icon {
                        name: name.get_ref().clone(),
                        href: href.get_ref().clone(),
                        aspect,
                    });
                }
                Err(why) => {
                    let hint = why.hint.unwrap_or_else(|| {
                        "icons are image files inside the catalogue folder, like `art/coin.png`"
                            .to_string()
                    });
                    self.error(
                        href.span(),
                        format!("icon `{}`: {}", name.get_ref(), why.message),
                        hint,
                    );
                }
            }
        }
        icons
    }

    /// Every `{name}` in a text cell names a declared icon; a problem is reported at the
    /// cell, with the icons there are.
    fn check_icon_names(
        &mut self,
        file: &Path,
        rows: &[Row],
        text_fields: &[&str],
        icons: &[crate::model::Icon],
    ) {
        for row in rows {
            for &field in text_fields {
                for name in icon_names(row.value(field)) {
                    if !icons.iter().any(|i| i.name == name) {
                        let known: Vec<&str> = icons.iter().map(|i| i.name.as_str()).collect();
                        let hint = if known.is_empty() {
                            "declare it in game.toml: [icons] NAME = \"art/NAME.png\"".to_string()
                        } else {
                            format!("icons: {}; or declare it under [icons]", accepted(known))
                        };
                        self.diags.push(
                            Diagnostic::new(
                                file,
                                row.spans.get(field),
                                format!("unknown icon `{{{name}}}`"),
                            )
                            .with_note(format!("in field `{field}` of card `{}`", row.id))
                            .with_note(hint),
                        );
                    }
                }
            }
        }
    }

    /// The templates that `templates` include or import (`{% include "templates/frame.svg"
    /// %}`), and theirs, read through the including template's folder (the catalogue, or
    /// a shared template's own folder). A name is a literal path relative to that folder;
    /// a missing one is an error at the statement that names it.
    fn includes(&mut self, templates: Vec<&Template>) -> Vec<Template> {
        let mut found: Vec<Template> = Vec::new();
        let mut todo: Vec<Template> = templates.into_iter().cloned().collect();
        while let Some(template) = todo.pop() {
            for (name, span) in included_names(&template.text) {
                if found.iter().any(|t| t.name == name) {
                    continue;
                }
                match template.world.read_text(&name) {
                    Ok(text) => {
                        let file = template.world.display_path(&name);
                        self.sources.insert(file.clone(), text.clone());
                        let t = Template {
                            file,
                            text,
                            world: template.world.clone(),
                            name: name.clone(),
                        };
                        found.push(t.clone());
                        todo.push(t);
                    }
                    Err(e) => {
                        let hint = match (&e, template.world.closest_file(&name)) {
                            (ReadError::NotFound, Some(close)) => {
                                format!("did you mean `{close}`?")
                            }
                            _ => {
                                format!("paths are relative to {}", template.world.root().display())
                            }
                        };
                        self.diags.push(
                            Diagnostic::new(
                                &template.file,
                                Some(span),
                                format!("cannot include `{name}`: {e}"),
                            )
                            .with_note(hint),
                        );
                    }
                }
            }
            if found.len() > 200 {
                self.diags.push(
                    Diagnostic::new(&template.file, None, "templates include more than 200 others")
                        .with_note("is an include including itself under another name?"),
                );
                break;
            }
        }
        found.sort_by(|a, b| a.name.cmp(&b.name));
        found
    }

    /// Every cell of a `file` field names an image inside the catalogue that decodes;
    /// a problem is reported at the cell.
    fn check_files(&mut self, world: &World, file: &Path, rows: &[Row], fields: &[Field]) {
        let file_fields: Vec<&str> =
            fields.iter().filter(|f| f.kind == FieldKind::File).map(|f| f.name.as_str()).collect();
        for row in rows {
            for &name in &file_fields {
                let value = row.value(name);
                if value.is_empty() {
                    continue;
                }
                if let Err(why) = crate::images::load(world, value, &self.checked) {
                    let mut d = Diagnostic::new(file, row.spans.get(name), why.message)
                        .with_note(format!("in field `{name}` of card `{}`", row.id));
                    if let Some(hint) = why.hint {
                        d = d.with_note(hint);
                    }
                    self.diags.push(d);
                }
            }
        }
    }

    /// The catalogue's fonts: every `.ttf`, `.otf` and `.ttc` in `fonts/`, and those
    /// `[game] fonts` names.
    fn fonts(&mut self, listed: &[Spanned<String>]) -> Vec<crate::model::FontFile> {
        let is_font =
            |f: &String| [".ttf", ".otf", ".ttc"].iter().any(|ext| f.to_lowercase().ends_with(ext));
        let mut names: Vec<(String, Option<Range<usize>>)> =
            self.world.files_in("fonts").into_iter().filter(is_font).map(|f| (f, None)).collect();
        for name in listed {
            if !names.iter().any(|(n, _)| n == name.get_ref()) {
                names.push((name.get_ref().clone(), Some(name.span())));
            }
        }
        let mut fonts = Vec::new();
        for (rel, span) in names {
            let file = self.world.display_path(&rel);
            match self.world.read_bytes(&rel) {
                Ok(data) => match crate::fonts::families_in(&data) {
                    Some(families) => fonts.push(crate::model::FontFile { file, data, families }),
                    None => {
                        let at = if span.is_some() { self.manifest.clone() } else { file.clone() };
                        self.diags.push(
                            Diagnostic::new(
                                at,
                                span,
                                format!("`{rel}` is not a font deckpress can read"),
                            )
                            .with_note(
                                "fonts must be TrueType or OpenType files (.ttf, .otf, .ttc)",
                            ),
                        );
                    }
                },
                Err(e) => {
                    let at = if span.is_some() { self.manifest.clone() } else { file.clone() };
                    self.diags.push(Diagnostic::new(
                        at,
                        span,
                        format!("cannot read font `{rel}`: {e}"),
                    ));
                }
            }
        }
        fonts
    }

    /// The cell separator a deck or sheet gives for its rows file; `,` by default.
    fn delimiter(&mut self, raw: Option<&Spanned<String>>) -> u8 {
        match raw.map(|d| (d.get_ref().as_str(), d.span())) {
            None | Some((",", _)) => b',',
            Some((";", _)) => b';',
            Some(("\t", _)) => b'\t',
            Some((other, span)) => {
                self.error(
                    span,
                    format!("unknown delimiter `{}`", other.escape_default()),
                    "use `\",\"` (the default), `\";\"` or `\"\\t\"` (a tab)",
                );
                b','
            }
        }
    }
}

/// The icon names a text writes as `{name}` (letters, digits, `-`, `_`).
pub fn icon_names(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if close > 0 && crate::model::is_icon_name(&after[..close]) => {
                names.push(&after[..close]);
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    names
}

/// The literal names of `{% include %}`, `{% import %}`, `{% from … import %}` and
/// `{% extends %}` statements, with the span of each name.
fn included_names(text: &str) -> Vec<(String, Range<usize>)> {
    let mut names = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("{%").map(|i| from + i) {
        // The closing `%}` after the opening `{%`: in `{%}` they share the `%`.
        let Some(close) = text[open + 2..].find("%}").map(|i| open + 2 + i) else { break };
        let body = text[open + 2..close].trim_start_matches(['-', '+']).trim_start();
        if ["include", "import", "from", "extends"].iter().any(|k| body.starts_with(k)) {
            let start =
                close - text[open + 2..close].len() + (text[open + 2..close].len() - body.len());
            if let Some(q) = body.find(['"', '\'']) {
                let quote = body.as_bytes()[q] as char;
                if let Some(len) = body[q + 1..].find(quote) {
                    let at = start + q + 1;
                    names.push((body[q + 1..q + 1 + len].to_string(), at..at + len));
                }
            }
        }
        from = close + 2;
    }
    names
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

/// usvg options that open no image an SVG links to or embeds.
fn proportions_only() -> usvg::Options<'static> {
    usvg::Options {
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
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

/// What a printable length may be, and how to say it is not.
struct Bounds {
    what: &'static str,
    max_mm: f32,
    range_note: &'static str,
    example: &'static str,
}

#[cfg(test)]
mod tests {
    use super::included_names;

    #[test]
    fn a_bare_statement_tag_names_nothing_and_does_not_panic() {
        // Found by the fuzzer (template target): `{%}` made the tag's end come before its start.
        assert!(included_names("<svg>{%}</svg>").is_empty());
        let text = "x{% include \"frame.svg\" %}";
        let names = included_names(text);
        assert_eq!(names.len(), 1);
        assert_eq!(&text[names[0].1.clone()], "frame.svg");
    }
}
