//! Translations checked like data: every key of `[lang.LANG.FIELD]` must be a value of its
//! field (a misspelt key would print the source language's word in the translated PDF
//! without a word), the tables that are not fields are the ones deckpress knows, and
//! every label is checked for icons as the card text it becomes.

use std::collections::BTreeMap;
use std::ops::Range;

use super::Loader;
use crate::diag::{accepted, Diagnostic};
use crate::model::{Deck, Field, FieldKind, Icon, SheetDef};

/// `[lang.LANG.text]`: the table `t("…")` reads (and the labels of a field called `text`).
pub const TEXT_TABLE: &str = "text";
/// `[lang.LANG.game]`: `name` and `description` of the game in that language.
pub const GAME_TABLE: &str = "game";
/// `[lang.LANG.names]`: deck, sheet and box names in that language, by id.
pub const NAMES_TABLE: &str = "names";

/// `[lang.LANG.bundle]`: deckpress's own words on the bundle's pages in that language, by
/// the keys of src/phrases.toml (the bundle, which prints them, checks the keys).
pub const BUNDLE_TABLE: &str = "bundle";

/// The keys `[lang.LANG.game]` may have.
const GAME_KEYS: &[&str] = &["name", "description"];

impl Loader<'_> {
    /// Checks the game's own `[lang]` tables against its fields, rows, decks and icons.
    pub(super) fn check_translations(
        &mut self,
        lang: &BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
        fields: &[Field],
        decks: &[Deck],
        (sheets, box_ids): (&[SheetDef], &[&str]),
        icons: &[Icon],
        whole: bool,
    ) {
        let game_toml = self.game_toml.clone();
        let text = self.sources.get(&game_toml).unwrap_or_default().to_string();
        for name in [TEXT_TABLE, GAME_TABLE, NAMES_TABLE, BUNDLE_TABLE] {
            if fields.iter().any(|f| f.name == name && name != TEXT_TABLE) {
                let span = text.find(&format!("[fields.{name}]")).map(|i| i..i + name.len() + 8);
                self.diags.push(
                    Diagnostic::new(
                        &game_toml,
                        span,
                        format!("a field may not be called `{name}`"),
                    )
                    .with_note(format!(
                        "`[lang.LANG.{name}]` translates {}; rename the field",
                        match name {
                            GAME_TABLE => "the game's own name",
                            NAMES_TABLE => "the game's own deck and sheet names",
                            _ => "the words deckpress prints on the bundle's own pages",
                        }
                    )),
                );
            }
        }
        for (tag, tables) in lang {
            for (table, labels) in tables {
                // Its keys are the bundle's words and its `{n}` placeholders no icons.
                if table == BUNDLE_TABLE {
                    continue;
                }
                let header = table_span(&text, tag, table);
                let field = fields.iter().find(|f| &f.name == table);
                let known: Vec<String> = match (table.as_str(), field) {
                    (GAME_TABLE, _) => GAME_KEYS.iter().map(|k| k.to_string()).collect(),
                    (NAMES_TABLE, _) => decks
                        .iter()
                        .map(|d| d.id.clone())
                        .chain(sheets.iter().map(|s| s.id.clone()))
                        .chain(box_ids.iter().map(|b| b.to_string()))
                        .collect(),
                    // `t()` keys are free text: only a field called `text` gives its values.
                    (TEXT_TABLE, None) => Vec::new(),
                    // Unknown values while a deck failed to load: its error is the cause.
                    (_, Some(field)) if !whole && !matches!(field.kind, FieldKind::Enum(_)) => {
                        Vec::new()
                    }
                    (_, Some(field)) => values_of(field, decks, sheets),
                    (_, None) => {
                        let names: Vec<&str> = fields
                            .iter()
                            .map(|f| f.name.as_str())
                            .chain([TEXT_TABLE, GAME_TABLE, NAMES_TABLE, BUNDLE_TABLE])
                            .collect();
                        let hint = crate::diag::closest(table, names.iter().copied()).map_or_else(
                            || format!("its tables: {}", accepted(&names)),
                            |c| {
                                format!(
                                    "did you mean `[lang.{tag}.{c}]`? its tables: {}",
                                    accepted(&names)
                                )
                            },
                        );
                        self.diags.push(
                            Diagnostic::new(
                                &game_toml,
                                header.clone(),
                                format!("`[lang.{tag}.{table}]` translates no field of this game"),
                            )
                            .with_note(hint),
                        );
                        continue;
                    }
                };
                let free = table == TEXT_TABLE
                    || (!whole && field.is_some_and(|f| !matches!(f.kind, FieldKind::Enum(_))));
                for (key, label) in labels {
                    let span = key_span(&text, header.clone(), key).or_else(|| header.clone());
                    if !free && !known.iter().any(|k| k == key) {
                        let what = match table.as_str() {
                            GAME_TABLE => "a key of the game's translation".to_string(),
                            NAMES_TABLE => "the id of a deck, sheet or box".to_string(),
                            _ => format!("a value of field `{table}`"),
                        };
                        // The value without a label in this language is most likely what
                        // the key's card was renamed to: name it, and its row.
                        let unlabelled: Vec<&str> = known
                            .iter()
                            .map(String::as_str)
                            .filter(|v| {
                                !labels.contains_key(*v) && v.chars().any(char::is_alphabetic)
                            })
                            .collect();
                        let renamed = match unlabelled.as_slice() {
                            [one] if field.is_some() => Some(*one),
                            _ => None,
                        };
                        let meant =
                            crate::diag::closest(key, known.iter().map(String::as_str)).or(renamed);
                        let hint = meant.map_or_else(
                            || format!("it would never print; the values: {}", shortened(&known)),
                            |c| {
                                let at = self.row_of(table, c, decks, sheets).map_or_else(String::new, |at| format!(" ({at})"));
                                format!("did you mean `{c}`? it would never print, and `{c}`{at} prints untranslated")
                            },
                        );
                        self.diags.push(
                            Diagnostic::new(
                                &game_toml,
                                span.clone(),
                                format!("`{key}` in `[lang.{tag}.{table}]` is not {what}"),
                            )
                            .with_note(hint),
                        );
                    }
                    // `{n}` in both the key and its translation is a placeholder the
                    // template fills (`t("{n} players") | replace("{n}", n)`), not an icon.
                    let placeholders = super::icon_names(key);
                    for name in super::icon_names(label) {
                        if !icons.iter().any(|i| i.name == name) && !placeholders.contains(&name) {
                            let known: Vec<&str> = icons.iter().map(|i| i.name.as_str()).collect();
                            self.diags.push(
                                Diagnostic::new(
                                    &game_toml,
                                    span.clone(),
                                    format!("unknown icon `{{{name}}}` in the `{tag}` translation of `{key}`"),
                                )
                                .with_note(if known.is_empty() {
                                    "declare it in game.toml: [icons] NAME = \"art/NAME.png\"".to_string()
                                } else {
                                    format!("icons: {}; or declare it under [icons]", accepted(known))
                                }),
                            );
                        }
                    }
                }
            }
        }
    }
}

impl Loader<'_> {
    /// A key of `[lang.LANG.text]` that nothing asks for (`t("Plyer aid")` is nowhere) while
    /// a text close to it is asked for and has no translation: the key is misspelt, would
    /// never print, and the text it meant prints in the source language. Said in plain
    /// `validate`, at the key. What is asked: every literal `t("…")` of the templates and
    /// every text of the rows and sheets' data (shared templates pass those through `t()`),
    /// and `extra`: the game's name and description, deck and sheet names.
    pub(super) fn check_text_keys(
        &mut self,
        lang: &BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
        templates: &[&crate::model::Template],
        decks: &[Deck],
        sheets: &[SheetDef],
        extra: &[&str],
    ) {
        // Without a text key to check, gathering every text asked for (all the cells of a
        // 100,000-card deck, sorted) was a third of `validate` of a deck of few designs.
        if !lang.values().any(|tables| tables.get(TEXT_TABLE).is_some_and(|k| !k.is_empty())) {
            return;
        }
        let mut asked: Vec<String> = Vec::new();
        for t in templates {
            asked.extend(literal_t_args(&t.text));
        }
        let rows = decks
            .iter()
            .flat_map(|d| d.rows.iter())
            .chain(sheets.iter().flat_map(|s| s.rows.iter()));
        for row in rows {
            asked.extend(row.values.iter().map(|(_, v)| v.to_string()));
        }
        for s in sheets {
            strings_of(&toml::Value::Table(s.data.clone()), &mut asked);
        }
        // Shared templates split what they are given (an aid's `a | b` lines) before `t()`:
        // a key found anywhere in what is given, or in a template, is asked for.
        let mut given: String =
            templates.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join("\n");
        for a in &asked {
            given.push('\n');
            given.push_str(a);
        }
        given.push_str(&extra.join("\n"));
        let pieces: Vec<String> = asked
            .iter()
            .flat_map(|a| {
                a.split(['\n', '|']).map(|p| p.trim_start_matches(['#', '=']).trim().to_string())
            })
            .collect();
        asked.extend(pieces);
        // A text written as a template (`skip rounds {{ … }}.`) is asked for as filled.
        let filled: Vec<String> =
            asked.iter().filter(|a| a.contains("{{") || a.contains("{%")).cloned().collect();
        asked.sort();
        asked.dedup();
        let game_toml = self.game_toml.clone();
        let text = self.sources.get(&game_toml).unwrap_or_default().to_string();
        for (tag, tables) in lang {
            let Some(keys) = tables.get(TEXT_TABLE) else { continue };
            let header = table_span(&text, tag, TEXT_TABLE);
            for key in keys.keys() {
                if asked.binary_search(key).is_ok()
                    || given.contains(key.as_str())
                    || filled.iter().any(|f| may_fill_to(f, key))
                {
                    continue;
                }
                let untranslated =
                    asked.iter().map(String::as_str).filter(|a| !keys.contains_key(*a));
                let Some(meant) = crate::diag::closest(key, untranslated) else { continue };
                let span = key_span(&text, header.clone(), key).or_else(|| header.clone());
                self.diags.push(
                    Diagnostic::new(
                        &game_toml,
                        span,
                        format!("`{key}` in `[lang.{tag}.text]` is a text nothing prints"),
                    )
                    .with_note(format!(
                        "did you mean `{meant}`? it would never print, and `{meant}` prints untranslated"
                    )),
                );
            }
        }
    }

    /// Where the first row whose `field` is `value` is: "cards.csv line 4".
    fn row_of(
        &self,
        field: &str,
        value: &str,
        decks: &[Deck],
        sheets: &[SheetDef],
    ) -> Option<String> {
        let files = decks
            .iter()
            .map(|d| (&d.rows_file, &d.rows))
            .chain(sheets.iter().map(|s| (&s.rows_file, &s.rows)));
        for (file, rows) in files {
            if let Some(row) = rows.iter().find(|r| r.value(field) == value) {
                return Some(self.sources.file_row_name(file, row.span.start));
            }
        }
        None
    }
}

/// The values a field takes: an enum's list, or what the rows hold.
fn values_of(field: &Field, decks: &[Deck], sheets: &[SheetDef]) -> Vec<String> {
    if let FieldKind::Enum(values) = &field.kind {
        return values.clone();
    }
    let mut seen: Vec<String> = Vec::new();
    let rows =
        decks.iter().flat_map(|d| d.rows.iter()).chain(sheets.iter().flat_map(|s| s.rows.iter()));
    for row in rows {
        let value = row.value(&field.name);
        if !value.is_empty() && !seen.iter().any(|s| s == value) {
            seen.push(value.to_string());
        }
    }
    seen
}

/// At most ten values, for a message.
fn shortened(values: &[String]) -> String {
    let list = accepted(values.iter().take(10));
    match values.len() {
        0 => "none".to_string(),
        n if n > 10 => format!("{list} and {} more", n - 10),
        _ => list,
    }
}

/// The span of a `[lang.TAG.TABLE]` header (quoted parts allowed), or of `TABLE = {`
/// inside `[lang.TAG]`.
fn table_span(text: &str, tag: &str, table: &str) -> Option<Range<usize>> {
    let quoted = |s: &str| [s.to_string(), format!("\"{s}\"")];
    for t in quoted(tag) {
        for f in quoted(table) {
            let header = format!("[lang.{t}.{f}]");
            if let Some(i) = text.find(&header) {
                return Some(i..i + header.len());
            }
        }
        let header = format!("[lang.{t}]");
        if let Some(i) = text.find(&header) {
            let section = &text[i..];
            let end = section[1..].find("\n[").map_or(section.len(), |e| e + 1);
            for f in quoted(table) {
                if let Some(j) = line_key(&section[..end], &f) {
                    return Some(i + j..i + j + f.len());
                }
            }
        }
    }
    None
}

/// The span of `key` in the table starting at `header`: a line `key = …` or `"key" = …`,
/// or `key = "…"` inside an inline table on the header's line.
fn key_span(text: &str, header: Option<Range<usize>>, key: &str) -> Option<Range<usize>> {
    let start = header?.start;
    let section = &text[start..];
    let end = section[1..].find("\n[").map_or(section.len(), |e| e + 1);
    let section = &section[..end];
    for k in [format!("\"{key}\""), format!("'{key}'"), key.to_string()] {
        if let Some(i) = line_key(section, &k) {
            return Some(start + i..start + i + k.len());
        }
        // `rank = { J = "В" }`
        let mut from = 0;
        while let Some(i) = section[from..].find(&k) {
            let at = from + i;
            let before = section[..at].trim_end().chars().last();
            let after = section[at + k.len()..].trim_start();
            if matches!(before, Some('{' | ',')) && after.starts_with('=') {
                return Some(start + at..start + at + k.len());
            }
            from = at + k.len();
        }
    }
    None
}

/// The offset of `key` where it starts a line as a TOML key (`key =`).
fn line_key(section: &str, key: &str) -> Option<usize> {
    let mut offset = 0;
    for line in section.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(key) {
            if rest.trim_start().starts_with('=') {
                return Some(offset + line.len() - trimmed.len());
            }
        }
        offset += line.len();
    }
    None
}

/// The texts a template asks for literally: `t("Player aid")`, `t('Round')`.
fn literal_t_args(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("t(") {
        let at = from + i;
        from = at + 2;
        if text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        {
            continue;
        }
        let rest = text[from..].trim_start();
        let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else { continue };
        if let Some(end) = rest[1..].find(q) {
            out.push(rest[1..end + 1].to_string());
        }
    }
    out
}

/// Every string in a TOML value (a sheet's `data`: a pad's notes, a board's labels).
fn strings_of(value: &toml::Value, out: &mut Vec<String>) {
    match value {
        toml::Value::String(s) => out.push(s.clone()),
        toml::Value::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        toml::Value::Table(t) => t.values().for_each(|v| strings_of(v, out)),
        _ => {}
    }
}

/// Whether filling the template text `template` could give `text`: its parts outside
/// `{{ … }}` and `{% … %}` are in `text`, in order, the first at its start and the last at
/// its end.
fn may_fill_to(template: &str, text: &str) -> bool {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find("{{").into_iter().chain(rest.find("{%")).min() {
        parts.push(&rest[..open]);
        let close = if rest[open..].starts_with("{{") { "}}" } else { "%}" };
        match rest[open..].find(close) {
            Some(end) => rest = &rest[open + end + 2..],
            None => return false,
        }
    }
    parts.push(rest);
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) {
        return false;
    }
    let mut at = first.len();
    let end = text.len() - last.len();
    for part in &parts[1..parts.len() - 1] {
        match text[at..end].find(part) {
            Some(i) => at += i + part.len(),
            None => return false,
        }
    }
    true
}
