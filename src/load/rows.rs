//! Card rows: a CSV file per deck, one card design per line, with an `id` column, an
//! optional `qty` column and one column per declared field.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::Path;

use crate::diag::{accepted, Diagnostic};
use crate::model::{Field, FieldKind, Row};

/// More copies of one row than any game needs: a typo, not a deck.
pub const MAX_QTY: u32 = 10_000;

/// Parses a rows file, checking every cell against the field declarations. Problems are
/// pushed to `diags`; rows with problems are still returned when they have an id, so that
/// one typo does not hide every other report.
/// `required` lists the fields this file must have as columns; `None` means every
/// declared field that is not optional.
pub fn parse_rows(file: &Path, text: &str, fields: &[Field], required: Option<&[String]>, diags: &mut Vec<Diagnostic>) -> Vec<Row> {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            diags.push(csv_error(file, text, &e));
            return Vec::new();
        }
    };
    let header_offsets = cell_offsets(text, 0);
    let header_span = |i: usize| -> Range<usize> {
        let start = header_offsets.get(i).copied().unwrap_or(0);
        start..start + headers.get(i).map_or(0, str::len)
    };

    // The header must name `id`, may name `qty`, and every other column must be declared.
    let declared: HashMap<&str, &Field> = fields.iter().map(|f| (f.name.as_str(), f)).collect();
    let mut header_ok = true;
    for (i, name) in headers.iter().enumerate() {
        if name != "id" && name != "qty" && !declared.contains_key(name) {
            header_ok = false;
            diags.push(
                Diagnostic::new(file, Some(header_span(i)), format!("unknown column `{name}`"))
                    .with_note(format!(
                        "declare it under [fields] in game.toml, or use one of: {}",
                        accepted(["id", "qty"].into_iter().chain(fields.iter().map(|f| f.name.as_str())))
                    )),
            );
        }
    }
    let has = |name: &str| headers.iter().any(|h| h == name);
    if !has("id") {
        header_ok = false;
        diags.push(Diagnostic::new(file, Some(0..text.find('\n').unwrap_or(text.len())), "the header has no `id` column")
            .with_note("every rows file needs an `id` column naming each card design"));
    }
    let must_have = |f: &Field| match required {
        Some(list) => list.contains(&f.name),
        None => !f.optional,
    };
    for field in fields.iter().filter(|f| !has(&f.name) && must_have(f)) {
        header_ok = false;
        diags.push(
            Diagnostic::new(file, Some(0..text.find('\n').unwrap_or(text.len())), format!("the header has no `{}` column", field.name))
                .with_note("every field the deck or sheet requires (its `fields`, or all non-optional fields) needs a column"),
        );
    }
    if !header_ok {
        return Vec::new();
    }

    let mut rows = Vec::new();
    let mut seen_ids: HashMap<String, usize> = HashMap::new();
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                diags.push(csv_error(file, text, &e));
                // A malformed line cannot be resynchronised reliably; report and stop here.
                break;
            }
        }
        let start = record.position().map_or(0, |p| p.byte() as usize);
        let offsets = cell_offsets(text, start);
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let mut row = Row { id: String::new(), qty: 1, values: BTreeMap::new(), spans: BTreeMap::new(), span: start..end };
        if record.iter().all(|c| c.trim().is_empty()) {
            continue; // blank line in a spreadsheet export
        }
        for (i, (name, cell)) in headers.iter().zip(record.iter()).enumerate() {
            let cell_start = offsets.get(i).copied().unwrap_or(start);
            let span = cell_start..cell_start + cell.len().max(1);
            let value = cell.trim().to_string();
            row.spans.insert(name.to_string(), span.clone());
            match name {
                "id" => {
                    if value.is_empty() {
                        diags.push(Diagnostic::new(file, Some(span), "this card has no id").with_note("write a short unique name, like `3-flag-red`"));
                    }
                    row.id = value;
                }
                "qty" => match value.parse::<u32>() {
                    Ok(q) if q > 0 && q <= MAX_QTY => row.qty = q,
                    Ok(q) if q > MAX_QTY => diags.push(
                        Diagnostic::new(file, Some(span), format!("{q} copies of one card is more than deckpress prints"))
                            .with_note(format!("at most {MAX_QTY} copies of a row")),
                    ),
                    _ => diags.push(
                        Diagnostic::new(file, Some(span), format!("quantity `{value}` is not a whole number of cards"))
                            .with_note("write how many copies of this card the deck has: 1, 2, 3 …"),
                    ),
                },
                _ => {
                    if let Some(field) = declared.get(name) {
                        if let Some(problem) = check_value(field, &value) {
                            diags.push(Diagnostic::new(file, Some(span), problem.0).with_note(problem.1));
                        }
                    }
                    row.values.insert(name.to_string(), value);
                }
            }
        }
        if !row.id.is_empty() {
            if let Some(&first_line) = seen_ids.get(&row.id) {
                diags.push(
                    Diagnostic::new(file, row.spans.get("id").cloned(), format!("card id `{}` is used twice", row.id))
                        .with_note(format!("it was first used on line {first_line}; ids must be unique within a deck")),
                );
            } else {
                let line = record.position().map_or(0, |p| p.line() as usize);
                seen_ids.insert(row.id.clone(), line);
            }
        }
        rows.push(row);
    }
    rows
}

/// Checks one cell; returns the problem and the hint.
fn check_value(field: &Field, value: &str) -> Option<(String, String)> {
    if value.is_empty() {
        return (!field.optional).then(|| {
            (format!("`{}` is empty", field.name), "this field is required; declare it `optional = true` to allow empty cells".to_string())
        });
    }
    match &field.kind {
        FieldKind::Text | FieldKind::File => None,
        FieldKind::Integer => value.parse::<i64>().is_err().then(|| {
            (format!("`{value}` is not a whole number (field `{}`)", field.name), "write a number like 5 or -10".to_string())
        }),
        FieldKind::Enum(values) => (!values.iter().any(|v| v == value)).then(|| {
            (format!("unknown {} `{value}`", field.name), format!("known values of `{}`: {}", field.name, accepted(values)))
        }),
    }
}

fn csv_error(file: &Path, text: &str, error: &csv::Error) -> Diagnostic {
    let (offset, message) = match error.kind() {
        csv::ErrorKind::UnequalLengths { pos, expected_len, len } => (
            pos.as_ref().map(|p| p.byte() as usize),
            format!("this line has {len} cells but the header has {expected_len}"),
        ),
        csv::ErrorKind::Utf8 { pos, .. } => (pos.as_ref().map(|p| p.byte() as usize), "this line is not UTF-8 text".to_string()),
        _ => (None, format!("cannot read the rows: {error}")),
    };
    let span = offset.map(|start| start..text[start..].find('\n').map_or(text.len(), |i| start + i).max(start + 1));
    Diagnostic::new(file, span, message).with_note("check for a missing or extra comma, or an unclosed quote")
}

/// Byte offsets where each cell of the record starting at `start` begins, honouring quotes.
fn cell_offsets(text: &str, start: usize) -> Vec<usize> {
    let mut offsets = vec![start];
    let mut quoted = false;
    for (i, c) in text[start..].char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => offsets.push(start + i + 1),
            '\n' if !quoted => break,
            _ => {}
        }
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_offsets_skip_quoted_commas() {
        let text = "a,b\n\"x,y\",z\n";
        assert_eq!(cell_offsets(text, 4), vec![4, 10]);
    }
}
