//! Decks: `[[deck]]` tables, with their library decks (`from = "NAME"`), card sizes,
//! rows, copies and jokers.

use std::path::{Path, PathBuf};

use toml::Spanned;

use super::game_toml::{self, RawCardSize};
use super::{rows, rules, Kind, Loader, LIBRARY_DECK_TOML};
use crate::diag::{accepted, Diagnostic};
use crate::length::Length;
use crate::model::{matches, Deck, Field, Row, Shape};
use crate::world::World;

/// A parsed `library/NAME/deck.toml` and the folder its files are read from.
pub(super) struct LibraryDeck {
    pub(super) world: World,
    pub(super) deck_toml: PathBuf,
    pub(super) raw: game_toml::RawLibraryDeck,
}

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
pub(super) const DEFAULT_CARD: (f32, f32) = (63.0, 88.0);

/// The rows, face and back files a deck names.
type DeckFiles = (Spanned<String>, Spanned<String>, Spanned<String>);

/// What a printable length may be, and how to say it is not.
pub(super) struct Bounds {
    pub(super) what: &'static str,
    pub(super) max_mm: f32,
    pub(super) range_note: &'static str,
    pub(super) example: &'static str,
}

impl Loader<'_> {
    pub(super) fn card_size(
        &mut self,
        size: &Spanned<RawCardSize>,
        file: &Path,
    ) -> (Length, Length) {
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
    pub(super) fn length_within(
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

    pub(super) fn deck(
        &mut self,
        spanned: &Spanned<game_toml::RawDeck>,
        lib: Option<&LibraryDeck>,
        fields: &[Field],
        default_size: (Length, Length),
    ) -> Option<Deck> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
        let (template_world, rows_world, (rows_rel, face_rel, back_rel)) =
            self.deck_files(spanned, lib)?;
        let shape = self.shape(raw);
        let (width, height) = match (shape, &raw.card, lib.and_then(|l| l.raw.card.as_ref())) {
            (Shape::Hex(top), card, _) => self
                .hex_size(spanned.span(), card.as_ref(), top, &self.game_toml.clone())
                .unwrap_or(default_size),
            (_, Some(size), _) => self.card_size(size, &self.game_toml.clone()),
            (_, None, Some(size)) => {
                self.card_size(size, &lib.map(|l| l.deck_toml.clone()).unwrap_or_default())
            }
            (_, None, None) => default_size,
        };
        let corner = self.corner(raw, shape, (width, height));
        let rows_read = match self.local_copy(&rows_world, Some(&rows_rel), raw.rows_url.as_ref()) {
            true => {
                // Google exports its CSV with commas; a copy read with another delimiter
                // is the designer's own, named by its lines.
                let linked = raw.rows_url.is_some() && raw.delimiter.is_none();
                self.read_rows(&rows_world, &rows_rel, raw.sheet_name.as_ref(), linked)
            }
            false => None,
        };
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
        let (gap, bleed) = self.spacing(raw);
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
        let rows = self.chosen_rows(spanned, lib, fields, all_rows, &rows_file)?;
        let name_field = self.name_field(raw, &rows, fields);
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

    /// The worlds a deck's templates and rows are read from, and the files it names: its
    /// own, or the library deck's (read from its folder). A library deck that brings only
    /// templates (a player aid) takes the game's own rows.
    fn deck_files(
        &mut self,
        spanned: &Spanned<game_toml::RawDeck>,
        lib: Option<&LibraryDeck>,
    ) -> Option<(World, World, DeckFiles)> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
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
        Some((template_world, rows_world, (rows_rel, face_rel, back_rel)))
    }

    /// A deck's `gap` between pieces on a sheet and its `bleed`, each within what prints.
    fn spacing(&mut self, raw: &game_toml::RawDeck) -> (Length, Length) {
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
        (gap, bleed)
    }

    /// A deck's cards: the rows `where` and `unless` choose, once per copy of the deck
    /// (each with its mark), and the jokers a shared deck adds.
    fn chosen_rows(
        &mut self,
        spanned: &Spanned<game_toml::RawDeck>,
        lib: Option<&LibraryDeck>,
        fields: &[Field],
        all_rows: Vec<Row>,
        rows_file: &Path,
    ) -> Option<Vec<Row>> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
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
                Diagnostic::new(rows_file, None, "the rows file has no cards")
                    .with_note("add one line per card design under the header"),
            );
        }
        // Held for the whole build: without the room the vector grew (up to a third).
        rows.shrink_to_fit();
        Some(rows)
    }

    /// The field that names a card: the one asked for, which must be a field of the deck,
    /// else `name` or `title` when the deck's cards have one.
    fn name_field(
        &mut self,
        raw: &game_toml::RawDeck,
        rows: &[Row],
        fields: &[Field],
    ) -> Option<String> {
        let id = raw.id.get_ref();
        let columns = |name: &str| rows.iter().any(|r| r.values.get(name).is_some());
        match &raw.name_field {
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
        }
    }

    /// The error for `name`, which no folder of the library holds as `file` (a `what`):
    /// with the closest name and every one there is.
    pub(super) fn no_library_entry(&mut self, name: &Spanned<String>, file: &str, what: &str) {
        let names = self.library.folders_with(file);
        self.error(
            name.span(),
            format!("no {what} `{}`", name.get_ref()),
            format!(
                "{}{what}s: {}",
                rules::did_you_mean(name.get_ref(), names.iter()),
                accepted(&names)
            ),
        );
    }

    /// Reads `library/NAME/deck.toml`.
    pub(super) fn library_deck(&mut self, name: &Spanned<String>) -> Option<LibraryDeck> {
        let rel = format!("{}/{LIBRARY_DECK_TOML}", name.get_ref());
        let found = self
            .library
            .sub(name.get_ref())
            .and_then(|world| Some((self.library.read_text(&rel).ok()?, world)));
        let (text, world) = match found {
            Some(found) => found,
            None => {
                self.no_library_entry(name, LIBRARY_DECK_TOML, "shared deck");
                return None;
            }
        };
        let deck_toml = world.display_path(LIBRARY_DECK_TOML);
        self.sources.insert(deck_toml.clone(), text.clone());
        match toml::from_str::<game_toml::RawLibraryDeck>(&text) {
            Ok(raw) => Some(LibraryDeck { world, deck_toml, raw }),
            Err(e) => {
                self.diags.push(Diagnostic::new(
                    &deck_toml,
                    e.span(),
                    format!("failed to parse {LIBRARY_DECK_TOML}: {}", e.message().trim_end()),
                ));
                None
            }
        }
    }
}
