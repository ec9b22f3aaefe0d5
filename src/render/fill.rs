//! Filling SVG templates with minijinja: one environment per render, every template
//! compiled once, a context per card, back or sheet.

use std::collections::BTreeMap;
use std::path::Path;

use minijinja::{AutoEscape, Environment, ErrorKind, UndefinedBehavior, Value};

use super::undefined::undefined_at;
use crate::diag::Diagnostic;
use crate::model::{Catalogue, FieldKind, Row, Template};

/// What each kind of template can name, for an undefined name.
const WHAT_TEMPLATES_SEE: &str = "cards see {{ card.FIELD }} and {{ labels.FIELD }}, sheets {{ data }}, {{ rows }} and {{ players }}, box faces {{ box.* }} and {{ deck.* }}; all see game, style and print";

/// Labels of the chosen language: field → value → label.
pub type Labels = BTreeMap<String, BTreeMap<String, String>>;

pub struct Filler<'a> {
    env: Environment<'a>,
    /// `t("…")` keys the chosen language has no translation for.
    untranslated: std::sync::Arc<std::sync::Mutex<std::collections::BTreeSet<String>>>,
    lang: Option<String>,
    /// How the job prints, seen as `print` (`print.ink_saver`).
    variant: crate::model::PrintVariant,
    /// Text boxes that could not fit, since the last fill.
    overflows: std::sync::Arc<std::sync::Mutex<Vec<super::textbox::Overflow>>>,
    cat: &'a Catalogue,
    labels: Option<&'a Labels>,
    broken: Vec<&'a Path>,
    /// Names every template sees besides its context (`deals`).
    globals: Vec<String>,
    /// Templates whose names were checked, with or without a card (a shared back has none).
    checked: std::sync::Mutex<
        std::collections::HashMap<(String, bool), Vec<super::undefined::Undefined>>,
    >,
}

impl<'a> Filler<'a> {
    /// Compiles every template of the catalogue once; syntax errors go to `diags`.
    pub fn new(
        cat: &'a Catalogue,
        (lang, variant): (Option<&str>, crate::model::PrintVariant),
        fontdb: std::sync::Arc<usvg::fontdb::Database>,
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut env = Environment::new();
        // `textbox(text, x=, y=, width=, …)`: wrapped, shrink-to-fit text (render/textbox.rs).
        let overflows = std::sync::Arc::default();
        let metrics = std::sync::Arc::new(super::textbox::Metrics::new(fontdb));
        env.add_function(
            "textbox",
            super::textbox::function(
                metrics.clone(),
                cat.icons.clone(),
                std::sync::Arc::clone(&overflows),
            ),
        );
        env.add_function("text_width", super::textbox::width_function(metrics));
        // `t("Player aid")`: free text in the chosen language, from `[lang.LANG.text]`;
        // the key itself (the source language) without `--lang` or a translation.
        let untranslated: std::sync::Arc<std::sync::Mutex<std::collections::BTreeSet<String>>> =
            std::sync::Arc::default();
        let texts: BTreeMap<String, String> = lang
            .and_then(|l| cat.lang.get(l))
            .and_then(|l| l.get("text"))
            .cloned()
            .unwrap_or_default();
        let (asked, missing) = (lang.is_some(), std::sync::Arc::clone(&untranslated));
        // A text in the language already (`t(game.name)` once `[lang.LANG.game] name` is
        // the translation of `[lang.LANG.text]`) prints as it is, without a warning.
        let translations: std::collections::BTreeSet<String> = texts.values().cloned().collect();
        env.add_function("t", move |key: String| -> String {
            match texts.get(&key) {
                Some(text) => text.clone(),
                None if translations.contains(&key) => key,
                None => {
                    if asked {
                        if let Ok(mut m) = missing.lock() {
                            m.insert(key.clone());
                        }
                    }
                    key
                }
            }
        });
        // Spans of expressions are kept for errors (the `debug` feature); the costly debug
        // dump of every variable at an error is not.
        env.set_debug(false);
        // Field values go into XML: escape them so an `&` in a card title cannot break the SVG.
        // A Markdown document (the rulebook) is no XML: its values go in as written.
        env.set_auto_escape_callback(|name| match name.ends_with(".md") {
            true => AutoEscape::None,
            false => AutoEscape::Html,
        });
        // A misspelt field name is an error, not an empty string on a printed card.
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // Only text, numbers and yes/no print: a map, a list or `none` printed as Jinja
        // writes it (`{"max": 4, "min": 2}`) is a mistake on a card or in a rulebook.
        env.set_formatter(|out, state, value| match printable(value) {
            Ok(()) => minijinja::escape_formatter(out, state, value),
            Err(why) => Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, why)),
        });
        // A loop that never ends (or runs 10^10 times) stops with an error.
        let fuel = cat.world.limits().template_fuel;
        env.set_fuel(Some(fuel));
        // `join` is one step of fuel whatever the list's length: 1,000 joins of 100,000
        // items each took 12 s a card. Each item joined counts as a step, the sum kept
        // for the piece being filled (a temp lives as long as one rendering).
        env.add_filter(
            "join",
            move |state: &minijinja::State,
                  value: &Value,
                  joiner: Option<minijinja::value::StringInput<'_>>|
                  -> Result<Value, minijinja::Error> {
                let items = value.len().unwrap_or(0) as u64;
                let before = state.get_temp("deckpress-joined").and_then(|v| v.as_usize());
                let joined = before.unwrap_or(0) as u64 + items;
                if joined > fuel {
                    return Err(minijinja::Error::new(
                        minijinja::ErrorKind::InvalidOperation,
                        format!(
                            "this template joins more than {fuel} items while filling one piece (a join inside a loop?): the limit is template-fuel (--limit template-fuel=N)"
                        ),
                    ));
                }
                state.set_temp("deckpress-joined", Value::from(joined));
                minijinja::filters::join(state, value, joiner)
            },
        );
        // `{{ fail("the pad does not fit the page") }}`: a template's own clear error,
        // reported at its line like any other template error.
        env.add_function("fail", |message: String| -> Result<String, minijinja::Error> {
            Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, message))
        });
        // `{{ line | mix(bg, 0.4) }}`: `line` at 40 % over `bg`, as one opaque colour. A
        // tint drawn this way prints the same everywhere, where opacity is transparency a
        // PDF/X-1a file cannot hold.
        env.add_filter(
            "mix",
            |fg: String, bg: String, amount: f32| -> Result<String, minijinja::Error> {
                let bad = |c: &str| {
                    minijinja::Error::new(
                        minijinja::ErrorKind::InvalidOperation,
                        format!("mix needs colours like \"#1f3a7a\", not `{c}`"),
                    )
                };
                let f = crate::model::parse_hex(&fg).ok_or_else(|| bad(&fg))?;
                let b = crate::model::parse_hex(&bg).ok_or_else(|| bad(&bg))?;
                let a = amount.clamp(0.0, 1.0);
                let c: Vec<u8> = f
                    .iter()
                    .zip(b)
                    .map(|(&f, b)| (f as f32 * a + b as f32 * (1.0 - a)).round() as u8)
                    .collect();
                Ok(format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]))
            },
        );
        // `ordinal`, `plural`, `join_words`: the grammar a rows file would otherwise repeat.
        super::words::add(&mut env);
        // Queries over the catalogue (`count(deck=, where=)`, `deals`, …), for templates and
        // for text cells written as templates; the rows are copied only when one asks.
        let mut globals = Vec::new();
        if cat.whole.is_some() || cat.asks_queries() {
            super::queries::add(&mut env, cat, |row| row_value(cat, row));
            globals.push("deals".to_string());
        }
        // Included templates first, under the names other templates include them by.
        for t in &cat.includes {
            if let Err(e) = env.add_template_owned(t.name.clone(), t.text.clone()) {
                diags.push(template_error(t, &e, None, None, None, cat));
            }
        }
        let templates = cat
            .decks
            .iter()
            .flat_map(|d| [&d.face, &d.back])
            .chain(cat.sheets.iter().map(|s| &s.template))
            .chain(cat.boxes.iter().flat_map(|b| b.faces.iter().map(|f| &f.template)));
        let mut broken = Vec::new();
        for template in templates {
            let name = template.file.to_string_lossy().into_owned();
            if env.get_template(&name).is_ok() || broken.contains(&template.file.as_path()) {
                continue; // shared by several decks
            }
            if let Err(e) = env.add_template_owned(name, template.text.clone()) {
                diags.push(template_error(template, &e, None, None, None, cat));
                broken.push(template.file.as_path());
            }
        }
        Self {
            env,
            untranslated,
            lang: lang.map(String::from),
            variant,
            overflows,
            cat,
            labels: lang.and_then(|l| cat.lang.get(l)),
            broken,
            globals,
            checked: std::sync::Mutex::default(),
        }
    }

    /// `game`, `style`, `lang` and `print`, seen by every template; `labels` too, as the whole
    /// table (field → value → label) where no single card is being drawn.
    fn base(&self) -> Vec<(String, Value)> {
        vec![
            (
                "game".into(),
                Value::from_iter([
                    ("id", Value::from(self.cat.id.clone())),
                    ("name", Value::from(self.cat.name_in(self.lang.as_deref()))),
                    ("version", Value::from(self.cat.version.clone())),
                    ("author", Value::from(self.cat.author.clone())),
                    ("copyright", Value::from(self.cat.copyright.clone())),
                    ("year", Value::from(self.cat.year)),
                    ("credits", Value::from(self.cat.credits.clone())),
                    // `[game] players`, so a box or an aid prints the range it is for.
                    (
                        "players",
                        Value::from_iter(self.cat.players.into_iter().flat_map(|(min, max)| {
                            [("min", Value::from(min)), ("max", Value::from(max))]
                        })),
                    ),
                ]),
            ),
            ("style".into(), Value::from_serialize(&self.cat.style)),
            // Each deck's card size in mm (`decks.markers.width`), the whole game's: a mat's
            // slots or a board's note follow the cards they are for.
            (
                "decks".into(),
                Value::from_iter(self.cat.queried().0.iter().map(|d| {
                    // Whole millimetres print as 63, not 63.0.
                    let mm = |v: f32| {
                        let v = (v * 100.0).round() / 100.0;
                        if v.fract() == 0.0 {
                            Value::from(v as i64)
                        } else {
                            Value::from(v)
                        }
                    };
                    let size = Value::from_iter([
                        ("width", mm(d.width.to_mm())),
                        ("height", mm(d.height.to_mm())),
                    ]);
                    (d.id.clone(), size)
                })),
            ),
            ("lang".into(), Value::from(self.lang.clone())),
            // `print.ink_saver`: the variant that leaves out full-bleed backgrounds and dark
            // fills (`--ink-saver`); false for every other print and preview.
            (
                "print".into(),
                Value::from_iter([
                    ("ink_saver", self.variant.ink_saver),
                    ("cmyk", self.variant.cmyk),
                ]),
            ),
            ("labels".into(), Value::from_serialize(self.labels.cloned().unwrap_or_default())),
        ]
    }

    /// Warnings for the `t("…")` keys the chosen language does not translate.
    pub fn untranslated(&self) -> Vec<Diagnostic> {
        let keys =
            std::mem::take(&mut *self.untranslated.lock().unwrap_or_else(|p| p.into_inner()));
        let lang = self.lang.clone().unwrap_or_default();
        keys.into_iter()
            .map(|key| {
                Diagnostic::warning(
                    &self.cat.game_toml,
                    None,
                    format!("no `{lang}` translation for \"{key}\""),
                )
                .with_note(format!(
                    "add it under [lang.{lang}.text]: \"{key}\" = \"…\"; it prints untranslated"
                ))
            })
            .collect()
    }

    /// What a text cell written as a template sees: what every template sees, and its own
    /// row as `card` (its cells as written), so `+{{ card.run }}` follows the row's `run`.
    fn cell_context(&self, row: &Row) -> Vec<(String, Value)> {
        let mut context = self.base();
        context.push(("card".into(), row_value(self.cat, row)));
        context
    }

    /// A text cell written as a template, filled; `None` for any other cell, or when
    /// filling fails (a piece that prints it reports why).
    pub fn cell_text(&self, row: &Row, field: &str) -> Option<String> {
        let text = row.value(field);
        let is_text = self.cat.fields.iter().any(|f| f.name == field && f.kind == FieldKind::Text);
        if !is_text || !is_template(text) {
            return None;
        }
        let context = Value::from_iter(self.cell_context(row));
        self.env.render_str(text, &context).ok().map(|t| html_unescape(&t))
    }

    /// A sheet's `data` as its template sees it: each text in it written as a template
    /// (`"bid 0–{{ deals[0].hand }}"`) filled like a text cell, so that the notes of a
    /// pad follow the data too; an error in one is reported at game.toml.
    fn filled_data(
        &self,
        value: toml::Value,
        sheet: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> toml::Value {
        match value {
            toml::Value::String(text) if is_template(&text) => {
                match self.env.render_str(&text, Value::from_iter(self.base())) {
                    Ok(filled) => toml::Value::String(html_unescape(&filled)),
                    Err(e) => {
                        let mut message =
                            format!("template error in the sheet's data: {}", e.kind());
                        if let Some(detail) = e.detail() {
                            message.push_str(&format!(": {detail}"));
                        }
                        diags.push(
                            Diagnostic::new(&self.cat.game_toml, None, message)
                                .with_note(format!("in `data` of sheet `{sheet}`: \"{text}\""))
                                .with_note("a text holding `{{ … }}` or `{% … %}` is filled like a template: count(deck=, where=), cards(…), values(…), sum(…), deals"),
                        );
                        toml::Value::String(text)
                    }
                }
            }
            toml::Value::Array(items) => toml::Value::Array(
                items.into_iter().map(|v| self.filled_data(v, sheet, diags)).collect(),
            ),
            toml::Value::Table(table) => toml::Value::Table(
                table.into_iter().map(|(k, v)| (k, self.filled_data(v, sheet, diags))).collect(),
            ),
            other => other,
        }
    }

    /// A row as a piece's template sees it, its text cells written as templates
    /// (`{{ count(where={"suit": "Red"}) }} red cards`) filled; an error in one is
    /// reported at its cell of `file`.
    fn filled_row(&self, row: &Row, file: &Path, diags: &mut Vec<Diagnostic>) -> Value {
        let value = row_value(self.cat, row);
        let cells: Vec<&crate::model::Field> = self
            .cat
            .fields
            .iter()
            .filter(|f| f.kind == FieldKind::Text && is_template(row.value(&f.name)))
            .collect();
        if cells.is_empty() {
            return value;
        }
        let context = Value::from_iter(self.cell_context(row));
        let mut card: Vec<(String, Value)> = Vec::new();
        for key in value.try_iter().into_iter().flatten() {
            let name = key.to_string();
            let mut v = value.get_attr(&name).unwrap_or_default();
            if cells.iter().any(|f| f.name == name) {
                match self.env.render_str(row.value(&name), &context) {
                    // Filled text is data again: the template escapes it where it prints.
                    Ok(text) => v = Value::from(html_unescape(&text)),
                    Err(e) => {
                        // The cell prints nothing rather than its template's source: that
                        // would be drawn, and said again as text running off the piece.
                        v = Value::from("");
                        let mut message = format!("template error in the cell: {}", e.kind());
                        if let Some(detail) = e.detail() {
                            message.push_str(&format!(": {detail}"));
                        }
                        diags.push(
                            Diagnostic::new(file, row.spans.get(&name), message)
                                .with_note(format!("in field `{name}` of card `{}`", row.id))
                                .with_note("a cell holding `{{ … }}` or `{% … %}` is filled like a template: count(deck=, where=), cards(…), values(…), sum(…), deals"),
                        );
                    }
                }
            }
            card.push((name, v));
        }
        Value::from_iter(card)
    }

    /// The printed form of each of the row's values in the chosen language (`labels.rank`
    /// is "В" for a J with `--lang ru`), or the value itself.
    fn labels_value(&self, row: &Row) -> Value {
        Value::from_iter(self.cat.fields.iter().map(|field| {
            let text = row.value(&field.name);
            let label = self
                .labels
                .and_then(|l| l.get(&field.name))
                .and_then(|l| l.get(text))
                .map_or(text, String::as_str);
            (field.name.clone(), Value::from(label))
        }))
    }

    /// Fills a deck template; `row` is the card (faces, and backs filled per card).
    pub fn fill_card(
        &self,
        deck: usize,
        template: &Template,
        row: Option<&Row>,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let d = &self.cat.decks[deck];
        let mut context = self.base();
        let round = |v: f32| (v * 100.0).round() / 100.0;
        context.push((
            "deck".into(),
            Value::from_iter([
                ("id", Value::from(d.id.clone())),
                ("name", Value::from(self.cat.deck_name_in(deck, self.lang.as_deref()))),
                ("width", Value::from(round(d.width.to_mm()))),
                ("height", Value::from(round(d.height.to_mm()))),
            ]),
        ));
        if let Some(row) = row {
            context.push(("card".into(), self.filled_row(row, &d.rows_file, diags)));
            // A card's labels are its own values' labels (`labels.rank` is "В").
            context.retain(|(k, _)| k != "labels");
            context.push(("labels".into(), self.labels_value(row)));
        }
        // One template can draw both sides of a double-sided piece.
        let side = if std::ptr::eq(template, &d.back) { "back" } else { "face" };
        context.push(("side".into(), Value::from(side)));
        let note = row.map(|r| format!("while filling card `{}` of deck `{}`", r.id, d.id));
        let shared_back = row.is_none().then_some(d.id.as_str());
        self.fill(template, context, note, shared_back, diags)
    }

    /// Fills a sheet template for a size in millimetres and a number of players.
    pub fn fill_sheet(
        &self,
        sheet: usize,
        size_mm: (f32, f32),
        players: u32,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let s = &self.cat.sheets[sheet];
        let mut context = self.base();
        let round = |v: f32| (v * 100.0).round() / 100.0;
        context.push((
            "sheet".into(),
            Value::from_iter([
                ("id", Value::from(s.id.clone())),
                ("name", Value::from(self.cat.sheet_name_in(sheet, self.lang.as_deref()))),
                ("width", Value::from(round(size_mm.0))),
                ("height", Value::from(round(size_mm.1))),
            ]),
        ));
        let data = self.filled_data(toml::Value::Table(s.data.clone()), &s.id, diags);
        context.push(("data".into(), Value::from_serialize(&data)));
        let rows: Vec<Value> =
            s.rows.iter().map(|r| self.filled_row(r, &s.rows_file, diags)).collect();
        context.push(("rows".into(), Value::from(rows)));
        context.push(("players".into(), Value::from(players)));
        self.fill(
            &s.template,
            context,
            Some(format!("while filling sheet `{}`", s.id)),
            None,
            diags,
        )
    }

    /// A document beyond the pieces (the rulebook, `rules.md`), filled as templates are:
    /// it sees `game`, `style`, `decks`, `lang`, `labels` and `deals`, and the same
    /// functions, the queries always; an error goes to `diags` at its line and column.
    /// A name or description written as a template (`{{ count() }} cards`), filled with
    /// what every template sees; the error's words when it fails.
    pub fn fill_text(&mut self, text: &str) -> Result<String, String> {
        if !self.globals.iter().any(|g| g == "deals") {
            let cat = self.cat;
            super::queries::add(&mut self.env, cat, |row| row_value(cat, row));
            self.globals.push("deals".to_string());
        }
        self.env.render_str(text, Value::from_iter(self.base())).map(|t| html_unescape(&t)).map_err(
            |e| match e.detail() {
                Some(detail) => format!("{}: {detail}", e.kind()),
                None => e.kind().to_string(),
            },
        )
    }

    pub fn fill_document(&mut self, doc: &Template, diags: &mut Vec<Diagnostic>) -> Option<String> {
        if !self.globals.iter().any(|g| g == "deals") {
            let cat = self.cat;
            super::queries::add(&mut self.env, cat, |row| row_value(cat, row));
            self.globals.push("deals".to_string());
        }
        let name = doc.file.to_string_lossy().into_owned();
        if let Err(e) = self.env.add_template_owned(name, doc.text.clone()) {
            diags.push(template_error(doc, &e, None, None, None, self.cat));
            return None;
        }
        self.fill(doc, self.base(), None, None, diags)
    }

    /// Fills face `face` of box `b`: it sees `box` (its inside and which face), `deck`
    /// (the deck it holds), `game` and `style`.
    pub fn fill_box(
        &self,
        b: usize,
        face: usize,
        panel_mm: (f32, f32),
        diags: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let def = &self.cat.boxes[b];
        let f = &def.faces[face];
        let mut context = self.base();
        let round = |v: f32| (v * 100.0).round() / 100.0;
        context.push((
            "box".into(),
            Value::from_iter([
                ("id", Value::from(def.id.clone())),
                ("name", Value::from(def.name.clone())),
                ("face", Value::from(f.kind.name())),
                ("style", Value::from(def.style.name())),
                ("width", Value::from(round(panel_mm.0))),
                ("height", Value::from(round(panel_mm.1))),
                ("inside_width", Value::from(round(def.inside.0.to_mm()))),
                ("inside_height", Value::from(round(def.inside.1.to_mm()))),
                ("inside_depth", Value::from(round(def.inside.2.to_mm()))),
                ("cards", Value::from(def.cards)),
            ]),
        ));
        context.push((
            "deck".into(),
            Value::from_iter([
                ("id", Value::from(def.deck_id.clone())),
                ("name", Value::from(def.deck_name.clone())),
                ("width", Value::from(round(def.card.0.to_mm()))),
                ("height", Value::from(round(def.card.1.to_mm()))),
                ("cards", Value::from(def.cards)),
            ]),
        ));
        let note = format!("while filling the {} of box `{}`", f.kind.name(), def.id);
        self.fill(&f.template, context, Some(note), None, diags)
    }

    /// `shared_back` names the deck when this is its shared back (filled once, no `card`).
    fn fill(
        &self,
        template: &Template,
        context: Vec<(String, Value)>,
        note: Option<String>,
        shared_back: Option<&str>,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        if self.broken.contains(&template.file.as_path()) {
            return None;
        }
        let compiled = self.env.get_template(&template.file.to_string_lossy()).ok()?;
        let context = Value::from_iter(context);
        if !self.names_resolve(template, &context, note.as_deref(), shared_back, diags) {
            return None;
        }
        // The filled SVG is bounded while it is written: a template that prints a large
        // string many times stops at the limit, in bounded memory, instead of first
        // filling gigabytes and failing after.
        let limit = self.cat.world.limits().filled_bytes;
        let mut out = Bounded { bytes: Vec::new(), limit, over: false };
        let rendered = compiled.render_captured_to(&context, &mut out).map(|_| ());
        if out.over {
            let d = Diagnostic::new(
                &template.file,
                None,
                format!(
                    "the filled template passes {:.1} MB, more than deckpress draws for one piece",
                    limit as f64 / 1e6
                ),
            )
            .with_note(note.unwrap_or_default())
            .with_note(format!("the limit is {limit} bytes (--limit filled-bytes=N)"));
            diags.push(d);
            return None;
        }
        // Templates are read as UTF-8 and minijinja writes whole strings: the bytes are text.
        match rendered.map(|()| {
            String::from_utf8(out.bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        }) {
            Ok(svg) => {
                let overflows =
                    std::mem::take(&mut *self.overflows.lock().unwrap_or_else(|p| p.into_inner()));
                let span = template.text.find("textbox(").map(|i| i..i + 7);
                for o in overflows {
                    let mut d = Diagnostic::warning(&template.file, span.clone(), o.message)
                        .about(crate::diag::Topic::TextFit)
                        .with_note(format!("the text: \"{}\"", o.text));
                    if let Some(note) = &note {
                        d = d.with_note(note.clone());
                    }
                    diags.push(
                        d.with_note("shorten it, lower `min_size`, or give the box more room"),
                    );
                }
                Some(svg)
            }
            Err(e) => {
                // An error inside an included template is reported there, with where from.
                match e.name().and_then(|n| self.cat.includes.iter().find(|t| t.name == n)) {
                    Some(included) => diags.push(
                        template_error(included, &e, note, Some(&context), shared_back, self.cat)
                            .with_note(format!("included from {}", template.file.display())),
                    ),
                    None => diags.push(template_error(
                        template,
                        &e,
                        note,
                        Some(&context),
                        shared_back,
                        self.cat,
                    )),
                }
                None
            }
        }
    }
}

impl Filler<'_> {
    /// Checks, once per template (and per kind of context), that every name it uses
    /// resolves; the templates it includes or imports are checked with the same context.
    /// What fails is reported for every piece drawn with it (grouped into one message
    /// with a count); false when anything failed.
    fn names_resolve(
        &self,
        template: &Template,
        context: &Value,
        note: Option<&str>,
        shared_back: Option<&str>,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let with_card = context.get_attr("card").is_ok_and(|c| !c.is_undefined());
        let mut checked = self.checked.lock().unwrap_or_else(|p| p.into_inner());
        let included = self.cat.includes.iter().filter(|t| template.text.contains(t.name.as_str()));
        let mut ok = true;
        for (t, from) in
            std::iter::once((template, None)).chain(included.map(|t| (t, Some(template))))
        {
            let key = (t.file.to_string_lossy().into_owned(), with_card);
            let unresolved = checked.entry(key).or_insert_with(|| {
                // The environment's globals resolve like the context's names.
                let mut seen: Vec<(String, Value)> = context
                    .try_iter()
                    .into_iter()
                    .flatten()
                    .map(|k| (k.to_string(), context.get_attr(&k.to_string()).unwrap_or_default()))
                    .collect();
                for g in &self.globals {
                    seen.push((
                        g.clone(),
                        self.env
                            .globals()
                            .find(|(n, _)| n == g)
                            .map(|(_, v)| v.clone())
                            .unwrap_or_default(),
                    ));
                }
                super::undefined::unresolved(&t.text, &Value::from_iter(seen))
            });
            for found in unresolved.iter() {
                ok = false;
                let root = found.expression.split(['.', '[']).next().unwrap_or_default();
                let hint = match shared_back {
                    Some(deck) if root == "card" => Some(format!(
                        "the back of deck `{deck}` is shared: drawn once for the deck, it sees no `card`; set `backs = \"per-card\"` on the deck to fill it for each card"
                    )),
                    _ => found.hint.clone(),
                };
                let mut d = Diagnostic::new(
                    &t.file,
                    Some(found.span.clone()),
                    format!("template error: undefined value `{}`", found.expression),
                );
                if let Some(note) = note {
                    d = d.with_note(note.to_string());
                }
                if let Some(from) = from {
                    d = d.with_note(format!("included from {}", from.file.display()));
                }
                d = match hint {
                    Some(hint) => d.with_note(hint),
                    None => d.with_note(WHAT_TEMPLATES_SEE),
                };
                diags.push(d.with_note(
                    "a value that may be missing is allowed with `is defined` or `| default(…)`",
                ));
            }
        }
        ok
    }
}

/// A row as templates see it: `id`, `qty` and one entry per field (integers as numbers).
pub fn row_value(cat: &Catalogue, row: &Row) -> Value {
    let mut card: Vec<(String, Value)> =
        vec![("id".into(), Value::from(row.id.clone())), ("qty".into(), Value::from(row.qty))];
    for field in &cat.fields {
        let text = row.value(&field.name);
        let value = match (&field.kind, text.parse::<i64>()) {
            (FieldKind::Integer, Ok(n)) => Value::from(n),
            _ => Value::from(text),
        };
        card.push((field.name.clone(), value));
    }
    Value::from_iter(card)
}

/// Whether a cell is written as a template.
pub(super) fn is_template(text: &str) -> bool {
    text.contains("{{") || text.contains("{%")
}

/// The text a template printed, before its HTML escaping: a cell's filled text is data,
/// escaped again where the piece's template prints it.
fn html_unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&amp;", "&")
}

/// The filled template as it is written, refusing to grow past `limit` bytes.
struct Bounded {
    bytes: Vec<u8>,
    limit: u64,
    /// The template tried to write past the limit.
    over: bool,
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if (self.bytes.len() + buf.len()) as u64 > self.limit {
            self.over = true;
            return Err(std::io::Error::other("the filled template passes its limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A template error at the expression that failed. An undefined value is named as the
/// template writes it (`card.suit_nmae`), with the closest name the object has; the
/// message is the same for every card, so one typo is reported once per template line.
fn template_error(
    template: &Template,
    e: &minijinja::Error,
    note: Option<String>,
    context: Option<&Value>,
    shared_back: Option<&str>,
    cat: &Catalogue,
) -> Diagnostic {
    let fuel = cat.world.limits().template_fuel;
    let name = template.file.to_string_lossy();
    // The span is in this template's text (not in one it includes).
    let span_of_line = e.line().map(|line| line_span(&template.text, line));
    if e.kind() == ErrorKind::OutOfFuel {
        return Diagnostic::new(
            &template.file,
            span_of_line,
            "the template runs too long: a loop that never ends, or runs millions of times",
        )
        .with_note(note.unwrap_or_default())
        .with_note(format!(
            "deckpress stops a piece after {} template steps (--limit template-fuel=N)",
            fuel
        ));
    }
    let range = e.range().filter(|r| {
        (e.name() == Some(name.as_ref()) || e.name() == Some(template.name.as_str()))
            && r.start <= r.end
            && r.end <= template.text.len()
            && template.text.is_char_boundary(r.start)
            && template.text.is_char_boundary(r.end)
    });
    let undefined = e.kind() == ErrorKind::UndefinedError
        || e.detail().is_some_and(|d| d.contains("undefined"));
    let found = match (undefined, &range, context) {
        (true, Some(range), Some(context)) => undefined_at(&template.text, range.clone(), context),
        _ => None,
    };
    let mut hint = None;
    let (span, message) = match found {
        Some(found) => {
            let root = found.expression.split(['.', '[']).next().unwrap_or_default();
            hint = match shared_back {
                Some(deck) if root == "card" => Some(format!(
                    "the back of deck `{deck}` is shared: drawn once for the deck, it sees no `card`; set `backs = \"per-card\"` on the deck to fill it for each card"
                )),
                _ => left_out_parameter(&template.text, found.span.start, root).or(found.hint),
            };
            (Some(found.span), format!("template error: undefined value `{}`", found.expression))
        }
        None => {
            let span = range.or_else(|| e.line().map(|line| line_span(&template.text, line)));
            let mut message = format!("template error: {}", e.kind());
            if let Some(detail) = e.detail() {
                message.push_str(&format!(": {detail}"));
            }
            (span, message)
        }
    };
    if hint.is_none() {
        hint = macro_hint(template, span.as_ref(), e, &cat.includes);
    }
    let mut d = Diagnostic::new(&template.file, span, message);
    if let Some(note) = note {
        d = d.with_note(note);
    }
    if let Some(cell) = e.detail().and_then(|detail| text_cell(cat, context?, detail)) {
        d = d.with_note(cell);
    }
    // What templates see helps with a name they do not have, not with a template's own
    // `fail("…")` or a wrong argument.
    let about_names = matches!(
        e.kind(),
        ErrorKind::UndefinedError
            | ErrorKind::UnknownFunction
            | ErrorKind::UnknownFilter
            | ErrorKind::UnknownTest
            | ErrorKind::UnknownMethod
    );
    match hint {
        Some(hint) => d.with_note(hint),
        None if about_names => d.with_note(WHAT_TEMPLATES_SEE),
        None => d,
    }
}

/// The cell a text came from, when an error about `in the text "…"` is about a card's
/// own cell (an unclosed `**` in its rules): "the text is `rules` of card `x`, at
/// cards.csv:4:12", so the designer goes to the cell, not only to the template line.
fn text_cell(cat: &Catalogue, context: &Value, detail: &str) -> Option<String> {
    let quoted = detail.strip_prefix("in the text \"")?.split("\": ").next()?;
    let start = quoted.trim_end_matches(" …");
    let card = context.get_attr("card").ok()?;
    let id = card.get_attr("id").ok()?.to_string();
    for deck in &cat.decks {
        for row in deck.rows.iter().filter(|r| r.id == id) {
            let Some((field, _)) = row.values.iter().find(|(_, v)| {
                let words: Vec<&str> = v.split_whitespace().collect();
                !start.is_empty() && words.join(" ").starts_with(start)
            }) else {
                continue;
            };
            let span = row.spans.get(field)?;
            let (line, col) = cat.sources.line_col(&deck.rows_file, span.start)?;
            return Some(format!(
                "the text is `{field}` of card `{id}`, at {}:{line}:{col}: mend it there",
                deck.rows_file.display()
            ));
        }
    }
    None
}

/// For a macro called with an argument it does not take, or without one it needs: what
/// it takes and where it is defined (this template or one it imports), and the closest
/// parameter to a misspelt keyword (`lin=` for `line`).
fn macro_hint(
    template: &Template,
    span: Option<&std::ops::Range<usize>>,
    e: &minijinja::Error,
    includes: &[Template],
) -> Option<String> {
    if !matches!(e.kind(), ErrorKind::TooManyArguments | ErrorKind::MissingArgument) {
        return None;
    }
    let call = template.text.get(span?.clone())?;
    let name = call.split('(').next()?.rsplit('.').next()?.trim();
    if name.is_empty() {
        return None;
    }
    std::iter::once(template).chain(includes).find_map(|t| {
        let (at, params) = macro_params(&t.text, name)?;
        let line = crate::diag::line_col(&t.text, at).0;
        let takes = match params.as_slice() {
            [] => "no arguments".to_string(),
            _ => params.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
        };
        let mut hint = format!("macro `{name}` ({}:{line}) takes {takes}", t.name);
        let unknown = e.detail().and_then(|d| d.split("unknown keyword argument `").nth(1));
        if let Some(closest) = unknown
            .and_then(|rest| rest.split('`').next())
            .and_then(|word| crate::diag::closest(word, params.iter().map(String::as_str)))
        {
            hint.push_str(&format!("; did you mean `{closest}`?"));
        }
        Some(hint)
    })
}

/// For an undefined `name` inside a macro that takes it: the call left it out.
fn left_out_parameter(text: &str, at: usize, name: &str) -> Option<String> {
    // The last macro opened before `at` and not closed before it.
    let opened = text[..at].rfind("macro ")?;
    if text[opened..at].contains("endmacro") {
        return None;
    }
    let macro_name = text[opened + "macro ".len()..].split('(').next()?.trim();
    let (_, params) = macro_params(text, macro_name)?;
    params.iter().any(|p| p == name).then(|| {
        format!(
            "`{name}` is a parameter of macro `{macro_name}`, and a call left it out: pass it, or give it a default (`{name}=…` in the macro's parameters)"
        )
    })
}

/// Where `{% macro name(…) %}` is defined in `text`, and its parameters' names.
fn macro_params(text: &str, name: &str) -> Option<(usize, Vec<String>)> {
    text.match_indices("macro").find_map(|(i, _)| {
        let before = text[..i].trim_end_matches([' ', '\t', '\n', '\r', '-']);
        let after = text[i + "macro".len()..].trim_start();
        let rest = after.strip_prefix(name)?.trim_start().strip_prefix('(')?;
        if !before.ends_with("{%") {
            return None;
        }
        // The parameters, split at the commas outside brackets, up to the parenthesis that
        // closes the list (defaults may hold calls and lists).
        let (mut depth, mut start, mut params) = (0usize, 0, Vec::new());
        let mut push = |param: &str| {
            let name = param.split('=').next().unwrap_or("").trim();
            if !name.is_empty() {
                params.push(name.to_string());
            }
        };
        for (j, c) in rest.char_indices() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' if depth == 0 => {
                    push(&rest[start..j]);
                    return Some((i, params));
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    push(&rest[start..j]);
                    start = j + 1;
                }
                _ => {}
            }
        }
        None
    })
}

/// Byte span of a 1-based line.
fn line_span(text: &str, line: usize) -> std::ops::Range<usize> {
    let start =
        text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>();
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    start..end
}

/// Whether a value can be printed on a piece or in a rulebook, or what to print instead.
fn printable(value: &Value) -> Result<(), String> {
    use minijinja::value::ValueKind;
    let shown = || {
        let text = value.to_string();
        match text.chars().count() > 60 {
            true => format!("{}…", text.chars().take(60).collect::<String>()),
            false => text,
        }
    };
    match value.kind() {
        ValueKind::Map => {
            let keys: Vec<String> = value
                .try_iter()
                .map(|keys| keys.take(6).map(|k| k.to_string()).collect())
                .unwrap_or_default();
            Err(format!(
                "this prints a map (`{}`), not text or a number: print one of its values ({})",
                shown(),
                keys.iter().map(|k| format!("`.{k}`")).collect::<Vec<_>>().join(", ")
            ))
        }
        ValueKind::Seq | ValueKind::Iterable => Err(format!(
            "this prints a list (`{}`), not text or a number: print one item (`[0]`) or join them (`| join(\", \")`)",
            shown()
        )),
        ValueKind::None => Err(
            "this prints `none`, not text or a number: give the value, or test it with `{% if … %}`"
                .to_string(),
        ),
        ValueKind::Plain => Err(format!(
            "this prints `{}`, which is no text or number (a function or an object: call it, or print one of its values)",
            shown()
        )),
        _ => Ok(()),
    }
}
