//! Stage `load`: a catalogue folder → `Catalogue`. Reads `game.toml`, the rows files and
//! the templates through the `World`, resolves names and units, and reports every problem
//! it finds at once. Nothing after this stage touches the file system.

mod manifest;
mod rows;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use toml::Spanned;

use crate::diag::{accepted, Diagnostic, Failure, Sources};
use crate::length::Length;
use crate::model::{Catalogue, Check, Condition, Deal, Deck, Field, FieldKind, Rule, Template};
use crate::world::{ReadError, World};
use manifest::{RawCardSize, RawManifest};

/// The manifest's file name inside a catalogue folder.
pub const MANIFEST: &str = "game.toml";

/// Card size when neither the game nor the deck names one: the common poker size.
const DEFAULT_CARD: (f32, f32) = (63.0, 88.0);

pub fn load(world: &World) -> Result<Catalogue, Failure> {
    let manifest_path = world.display_path(MANIFEST);
    let text = match world.read_text(MANIFEST) {
        Ok(t) => t,
        Err(ReadError::NotFound) => {
            return Err(Failure::Io(format!("{} has no {MANIFEST}: is it a catalogue folder?", world.root().display())))
        }
        Err(e) => return Err(Failure::Io(format!("cannot read {}: {e}", manifest_path.display()))),
    };
    let mut loader = Loader { world, manifest: manifest_path.clone(), sources: Sources::default(), diags: Vec::new() };
    loader.sources.insert(manifest_path.clone(), text.clone());

    let raw: RawManifest = match toml::from_str(&text) {
        Ok(raw) => raw,
        Err(e) => {
            let message = format!("failed to parse {MANIFEST}: {}", e.message().trim_end());
            let d = Diagnostic::new(&manifest_path, e.span(), message);
            return Err(Failure::Invalid(vec![d], loader.sources));
        }
    };
    let catalogue = loader.resolve(raw);
    match catalogue {
        Some(c) if loader.diags.is_empty() => Ok(Catalogue { sources: loader.sources, ..c }),
        _ => Err(Failure::Invalid(loader.diags, loader.sources)),
    }
}

struct Loader<'a> {
    world: &'a World,
    manifest: PathBuf,
    sources: Sources,
    diags: Vec<Diagnostic>,
}

impl Loader<'_> {
    fn error(&mut self, span: Range<usize>, message: impl Into<String>, note: impl Into<String>) {
        let d = Diagnostic::new(&self.manifest, Some(span), message).with_note(note);
        self.diags.push(d);
    }

    fn resolve(&mut self, raw: RawManifest) -> Option<Catalogue> {
        let fields = self.fields(&raw);
        let default_size = match &raw.card {
            Some(size) => self.card_size(size),
            None => (Length::mm(DEFAULT_CARD.0), Length::mm(DEFAULT_CARD.1)),
        };
        let mut decks = Vec::new();
        for raw_deck in &raw.deck {
            if let Some(deck) = self.deck(raw_deck, &fields, default_size) {
                decks.push(deck);
            }
        }
        if raw.deck.is_empty() {
            self.error(0..0, "the catalogue has no [[deck]]", "add a [[deck]] table with id, rows, face and back");
        }
        let mut seen = BTreeMap::new();
        for d in &raw.deck {
            if seen.insert(d.get_ref().id.get_ref().clone(), ()).is_some() {
                self.error(d.get_ref().id.span(), format!("deck id `{}` is used twice", d.get_ref().id.get_ref()), "give each deck its own id");
            }
        }
        let deck_ids: Vec<String> = raw.deck.iter().map(|d| d.get_ref().id.get_ref().clone()).collect();

        let deals = raw.deal.iter().filter_map(|d| {
            let deck = match &d.get_ref().deck {
                Some(name) => self.deck_index(name, &deck_ids)?,
                None => 0,
            };
            let raw = d.get_ref();
            Some(Deal { players: raw.players, hand: raw.hand, table: raw.table, deck, span: d.span() })
        }).collect();

        let rules = raw.rule.iter().filter_map(|r| self.rule(r, &fields, &deck_ids)).collect();

        let players = raw.game.players.as_ref().map(|p| {
            let (min, max) = (p.get_ref().min, p.get_ref().max);
            if min == 0 || min > max {
                self.error(p.span(), format!("players {min} to {max} is not a range of players"), "write min ≥ 1 and min ≤ max");
            }
            (min, max)
        });
        let id = raw.game.id.get_ref().clone();
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            self.error(raw.game.id.span(), format!("game id `{id}` is not a plain name"), "use letters, digits and dashes: it names the output folder");
        }
        Some(Catalogue {
            id,
            name: raw.game.name,
            description: raw.game.description,
            players,
            fields,
            decks,
            deals,
            rules,
            style: raw.style.unwrap_or_default(),
            manifest: self.manifest.clone(),
            sources: Sources::default(),
        })
    }

    fn fields(&mut self, raw: &RawManifest) -> Vec<Field> {
        let mut fields = Vec::new();
        for (name, field) in &raw.fields {
            let (name, field) = (name.get_ref(), field.get_ref());
            if name == "id" || name == "qty" {
                self.error(0..0, format!("`{name}` is a built-in column"), "remove it from [fields]");
                continue;
            }
            let kind = match (field.kind.as_ref().map(|k| k.get_ref().as_str()), &field.values) {
                (None | Some("enum"), Some(values)) => FieldKind::Enum(values.clone()),
                (None | Some("text"), None) => FieldKind::Text,
                (Some("integer"), None) => FieldKind::Integer,
                (Some("enum"), None) => {
                    self.error(field.kind.as_ref().map_or(0..0, |k| k.span()), format!("field `{name}` is an enum without values"), "list them: values = [\"Red\", \"Blue\"]");
                    FieldKind::Text
                }
                (Some(k @ ("text" | "integer")), Some(_)) => {
                    self.error(field.kind.as_ref().map_or(0..0, |k| k.span()), format!("field `{name}` is `{k}` but lists values"), "drop `kind` to make it an enum of the values");
                    FieldKind::Text
                }
                (Some(other), _) => {
                    self.error(field.kind.as_ref().map_or(0..0, |k| k.span()), format!("unknown field kind `{other}`"), format!("known kinds: {}", accepted(["text", "integer", "enum"])));
                    FieldKind::Text
                }
            };
            fields.push(Field { name: name.clone(), kind, optional: field.optional });
        }
        fields
    }

    fn card_size(&mut self, size: &Spanned<RawCardSize>) -> (Length, Length) {
        let mut one = |s: &Spanned<String>, fallback: f32| match Length::parse(s.get_ref()) {
            Ok(l) if l.to_mm() >= 10.0 && l.to_mm() <= 400.0 => l,
            Ok(l) => {
                self.error(s.span(), format!("a card {l} across cannot be printed"), "cards must be between 10mm and 400mm on a side");
                Length::mm(fallback)
            }
            Err(message) => {
                self.error(s.span(), message, "card sizes look like `63mm` or `2.5in`");
                Length::mm(fallback)
            }
        };
        let raw = size.get_ref();
        (one(&raw.width, DEFAULT_CARD.0), one(&raw.height, DEFAULT_CARD.1))
    }

    fn deck(&mut self, raw: &Spanned<manifest::RawDeck>, fields: &[Field], default_size: (Length, Length)) -> Option<Deck> {
        let raw = raw.get_ref();
        let (width, height) = match &raw.card {
            Some(size) => self.card_size(size),
            None => default_size,
        };
        let rows_text = self.read(&raw.rows, "rows file");
        let face = self.template(&raw.face);
        let back = self.template(&raw.back);
        let rows_file = self.world.display_path(raw.rows.get_ref());
        let rows = match rows_text {
            Some(text) => {
                let rows = rows::parse_rows(&rows_file, &text, fields, &mut self.diags);
                if rows.is_empty() {
                    self.diags.push(Diagnostic::new(&rows_file, None, "the rows file has no cards").with_note("add one line per card design under the header"));
                }
                rows
            }
            None => Vec::new(),
        };
        Some(Deck {
            id: raw.id.get_ref().clone(),
            name: raw.name.clone().unwrap_or_else(|| raw.id.get_ref().clone()),
            width,
            height,
            rows,
            rows_file,
            face: face?,
            back: back?,
        })
    }

    fn template(&mut self, rel: &Spanned<String>) -> Option<Template> {
        let text = self.read(rel, "template")?;
        Some(Template { file: self.world.display_path(rel.get_ref()), text })
    }

    /// Reads a file named in the manifest; a problem is reported at the name.
    fn read(&mut self, rel: &Spanned<String>, what: &str) -> Option<String> {
        match self.world.read_text(rel.get_ref()) {
            Ok(text) => {
                self.sources.insert(self.world.display_path(rel.get_ref()), text.clone());
                Some(text)
            }
            Err(e) => {
                let path = self.world.display_path(rel.get_ref());
                self.error(rel.span(), format!("cannot read {what} `{}`: {e}", rel.get_ref()), format!("looked for {}", path.display()));
                None
            }
        }
    }

    fn deck_index(&mut self, name: &Spanned<String>, deck_ids: &[String]) -> Option<usize> {
        let found = deck_ids.iter().position(|d| d == name.get_ref());
        if found.is_none() {
            self.error(name.span(), format!("unknown deck `{}`", name.get_ref()), format!("decks of this game: {}", accepted(deck_ids)));
        }
        found
    }

    fn field_name(&mut self, name: &Spanned<String>, fields: &[Field]) -> Option<String> {
        if fields.iter().any(|f| &f.name == name.get_ref()) || name.get_ref() == "id" {
            return Some(name.get_ref().clone());
        }
        self.error(name.span(), format!("unknown field `{}`", name.get_ref()), format!("fields of this game: {}", accepted(fields.iter().map(|f| &f.name))));
        None
    }

    fn condition(&mut self, raw: &manifest::Condition, fields: &[Field]) -> Option<Condition> {
        let mut condition = Vec::new();
        let mut ok = true;
        for (name, values) in raw {
            let Some(field) = self.field_name(name, fields) else {
                ok = false;
                continue;
            };
            let list = values.get_ref().clone().into_vec();
            if let Some(Field { kind: FieldKind::Enum(known), .. }) = fields.iter().find(|f| f.name == field) {
                for v in list.iter().filter(|v| !known.contains(v) && !v.is_empty()) {
                    ok = false;
                    self.error(values.span(), format!("unknown {field} `{v}`"), format!("known values of `{field}`: {}", accepted(known)));
                }
            }
            condition.push((field, list));
        }
        ok.then_some(condition)
    }

    fn rule(&mut self, spanned: &Spanned<manifest::RawRule>, fields: &[Field], deck_ids: &[String]) -> Option<Rule> {
        let raw = spanned.get_ref();
        let span = spanned.span();
        let decks = match &raw.deck {
            Some(name) => vec![self.deck_index(name, deck_ids)?],
            None => (0..deck_ids.len()).collect(),
        };
        let filter = self.condition(&raw.filter, fields);
        let unless = self.condition(&raw.unless, fields);
        let counted = raw.count.is_some() || raw.at_least.is_some() || raw.at_most.is_some();
        let kinds = [counted, raw.unique.is_some(), raw.require.is_some()].iter().filter(|k| **k).count();
        if kinds != 1 {
            self.error(span.clone(), format!("rule \"{}\" must check exactly one thing", raw.name), "give it `count`/`at_least`/`at_most`, or `unique`, or `require`");
            return None;
        }
        if raw.count.is_some() && (raw.at_least.is_some() || raw.at_most.is_some()) {
            self.error(span.clone(), format!("rule \"{}\" has both `count` and a bound", raw.name), "use `count` for an exact number, or `at_least`/`at_most`");
            return None;
        }
        if raw.each.is_some() && !counted {
            self.error(span.clone(), format!("rule \"{}\" uses `each` without a count", raw.name), "`each` only applies to count, at_least and at_most");
            return None;
        }
        let check = if counted {
            let each = match &raw.each {
                Some(name) => Some(self.field_name(name, fields)?),
                None => None,
            };
            Check::Count { each, min: raw.count.or(raw.at_least), max: raw.count.or(raw.at_most) }
        } else if let Some(names) = &raw.unique {
            let names: Vec<String> = names.iter().filter_map(|n| self.field_name(n, fields)).collect();
            if names.is_empty() {
                return None;
            }
            Check::Unique(names)
        } else {
            Check::Require(self.condition(raw.require.as_ref()?, fields)?)
        };
        Some(Rule { name: raw.name.clone(), decks, filter: filter?, unless: unless?, check, span })
    }
}
