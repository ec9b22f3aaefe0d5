//! Card rows: a CSV file per deck, one card design per line, with an `id` column, an
//! optional `qty` column and one column per declared field.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::diag::{accepted, and_list, line_col, Diagnostic};
use crate::model::{Cells, Field, FieldKind, Row, Spans};

/// More copies of one row than any game needs: a typo, not a deck.
pub const MAX_QTY: u32 = 10_000;

/// A rows file as read: the columns its header names, and its rows.
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
}

/// Parses a rows file, checking every cell against the field declarations. Problems are
/// pushed to `diags`; rows with problems are still returned when they have an id, so that
/// one typo does not hide every other report.
/// `required` lists the fields this file must have as columns; `None` means every
/// declared field that is not optional. `delimiter` separates the cells (`,` unless the
/// deck or sheet says `;` or a tab).
pub fn parse_rows(
    file: &Path,
    text: &str,
    fields: &[Field],
    required: Option<&[String]>,
    delimiter: u8,
    sheet: Option<&crate::diag::SheetPlaces>,
    diags: &mut Vec<Diagnostic>,
) -> Table {
    let src = Source { file, text, delimiter, sheet };
    let mut reader =
        csv::ReaderBuilder::new().flexible(false).delimiter(delimiter).from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            diags.push(csv_error(file, text, &e));
            return Table { columns: Vec::new(), rows: Vec::new() };
        }
    };
    let columns: Vec<String> = headers.iter().map(str::to_string).collect();
    // A header with a problem says nothing sure about the columns: none are known, so a
    // rule that reads one is not told, again, that the deck lacks it.
    let nothing = || Table { columns: Vec::new(), rows: Vec::new() };
    let header_line = 0..line_end(text, 0);
    if let Some(problem) = other_delimiter(&headers, delimiter) {
        diags.push(Diagnostic::new(file, Some(header_line), problem.0).with_note(problem.1));
        return nothing();
    }
    if !header_ok(src, &headers, fields, required, diags) {
        return nothing();
    }
    let rows = records(src, &mut reader, &headers, fields, diags);
    Table { columns, rows }
}

/// Whether the header of `src` names `id`, may name `qty`, and names no column that is not
/// declared, with every field `required` (see `parse_rows`); each problem is reported.
fn header_ok(
    src: Source,
    headers: &csv::StringRecord,
    fields: &[Field],
    required: Option<&[String]>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let Source { file, text, delimiter, .. } = src;
    let header_line = 0..line_end(text, 0);
    let header_offsets = cell_offsets(text, 0, delimiter);
    let header_span = |i: usize| -> Range<usize> {
        let start = header_offsets.get(i).copied().unwrap_or(0);
        start..start + headers.get(i).map_or(0, str::len)
    };

    // The header must name `id`, may name `qty`, and every other column must be declared.
    let declared: HashMap<&str, &Field> = fields.iter().map(|f| (f.name.as_str(), f)).collect();
    let mut header_ok = true;
    let empty: Vec<usize> =
        headers.iter().enumerate().filter(|(_, h)| h.trim().is_empty()).map(|(i, _)| i).collect();
    if let Some(&first) = empty.first() {
        header_ok = false;
        // Spreadsheets export the cells a sheet once used as `,,` at the end of each line.
        let trailing = empty.iter().enumerate().all(|(k, &i)| i == headers.len() - empty.len() + k);
        let (what, them) = if empty.len() == 1 {
            (format!("column {}", first + 1), "it")
        } else {
            (format!("columns {}", column_numbers(&empty)), "them")
        };
        let is = if empty.len() == 1 { "is" } else { "are" };
        let d = if trailing {
            // From the separator before the first empty column, so the caret shows the `,,`.
            let span =
                header_offsets.get(first).map_or(0, |o| o.saturating_sub(1))..header_line.end;
            Diagnostic::new(file, Some(span), format!("{what} of the header {is} empty: delete {them} in your spreadsheet"))
                .with_note("the rows then end with empty cells too; a spreadsheet exports every column it has ever used")
        } else {
            Diagnostic::new(file, Some(header_span(first)), format!("{what} of the header {is} empty: name {them} or delete {them} in your spreadsheet"))
                .with_note(format!("a column is named after a field: {}", accepted(["id", "qty"].into_iter().chain(fields.iter().map(|f| f.name.as_str())))))
        };
        diags.push(d);
    }
    let has = |name: &str| headers.iter().any(|h| h == name);
    let must_have = |f: &Field| match required {
        Some(list) => list.contains(&f.name),
        None => !f.optional,
    };
    let mut missing: Vec<String> = fields
        .iter()
        .filter(|f| !has(&f.name) && must_have(f))
        .map(|f| format!("`{}`", f.name))
        .collect();
    let mut meant_id = false;
    // The names no column has, found once: asked for every unknown column, it made a
    // header of 50,000 unknown columns quadratic (tests/stranger/costly/
    // sticker-rows-50000-unknown-columns ran past 30 s).
    let not_in_header: Vec<&str> = ["id", "qty"]
        .into_iter()
        .chain(fields.iter().map(|f| f.name.as_str()))
        .filter(|n| !has(n))
        .collect();
    for (i, name) in headers.iter().enumerate() {
        if !name.trim().is_empty() && name != "id" && name != "qty" && !declared.contains_key(name)
        {
            header_ok = false;
            let names = ["id", "qty"].into_iter().chain(fields.iter().map(|f| f.name.as_str()));
            let known = format!(
                "declare it under [fields] in game.toml, or use one of: {}",
                accepted(names.clone())
            );
            // A misspelt column is one mistake: the field it meant is not reported missing too.
            let meant = crate::diag::closest(name, not_in_header.iter().copied());
            let d = match meant {
                Some(meant) => {
                    missing.retain(|m| m.trim_matches('`') != meant);
                    meant_id |= meant == "id";
                    Diagnostic::new(
                        file,
                        Some(header_span(i)),
                        format!("unknown column `{name}`: did you mean `{meant}`?"),
                    )
                }
                None => {
                    Diagnostic::new(file, Some(header_span(i)), format!("unknown column `{name}`"))
                }
            };
            diags.push(d.with_note(known));
        }
    }
    if !has("id") && !meant_id {
        header_ok = false;
        diags.push(
            Diagnostic::new(file, Some(header_line.clone()), "the header has no `id` column")
                .with_note("every rows file needs an `id` column naming each card design"),
        );
    }
    if !missing.is_empty() {
        header_ok = false;
        let columns = if missing.len() == 1 { "column" } else { "columns" };
        let why = match required {
            Some(_) => "the deck or sheet lists them in its `fields`: add the columns, or take them out of `fields`".to_string(),
            // With no `fields` list every field not marked optional is required, also the
            // ones declared for another deck or sheet (a score pad's `kind`).
            None => {
                let own: Vec<String> = headers
                    .iter()
                    .filter(|h| declared.contains_key(h))
                    .map(|h| format!("\"{h}\""))
                    .collect();
                format!(
                    "the deck or sheet has no `fields` list, so it needs every field not marked `optional = true`: add the columns, or give it `fields = [{}]`, the fields its rows have",
                    own.join(", ")
                )
            }
        };
        diags.push(
            Diagnostic::new(
                file,
                Some(header_line.clone()),
                format!("the header has no {} {columns}", and_list(&missing)),
            )
            .with_note(why),
        );
    }
    header_ok
}

/// The rows of `src` after its header, each cell checked against the field declarations.
fn records(
    src: Source,
    reader: &mut csv::Reader<&[u8]>,
    headers: &csv::StringRecord,
    fields: &[Field],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Row> {
    let Source { file, text, delimiter, sheet } = src;
    let lines = crate::diag::LineIndex::new(text);
    let declared: HashMap<&str, &Field> = fields.iter().map(|f| (f.name.as_str(), f)).collect();
    let swallowed = swallowing_quote(
        file,
        text,
        delimiter,
        headers.len(),
        headers.iter().position(|h| h == "id"),
    );
    // Each row names its cells with the header's names, shared, not copied.
    let names: Arc<[Arc<str>]> = headers.iter().map(Arc::from).collect();
    let mut spans = Vec::with_capacity(headers.len());
    let value_columns = headers.iter().filter(|&h| h != "id" && h != "qty").count();
    let mut rows = Vec::new();
    let mut seen_ids: HashMap<String, usize> = HashMap::new();
    let mut record = csv::StringRecord::new();
    loop {
        let read = reader.read_record(&mut record);
        if let Some((quote, d)) = &swallowed {
            // The record holding the stray quote: everything after it is one cell.
            if !matches!(read, Ok(false)) && reader.position().byte() as usize > *quote {
                diags.push(d.clone());
                break;
            }
        }
        match read {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                diags.push(csv_error(file, text, &e));
                // A malformed line cannot be resynchronised reliably; report and stop here.
                break;
            }
        }
        let start = record_start(text, record.position().map_or(0, |p| p.byte() as usize));
        let offsets = cell_offsets(text, start, delimiter);
        let end = line_end(text, start);
        let mut row = Row {
            id: String::new(),
            qty: 1,
            values: Default::default(),
            spans: Default::default(),
            span: start..end,
        };
        let mut values = Cells::with_capacity(value_columns);
        if record.iter().all(|c| c.trim().is_empty()) {
            continue; // blank line in a spreadsheet export
        }
        for (i, ((name, shared), cell)) in
            headers.iter().zip(names.iter()).zip(record.iter()).enumerate()
        {
            let cell_start = offsets.get(i).copied().unwrap_or(start);
            // An empty cell is shown by the character after it, its separator; in a CSV
            // file, the last cell of a line by the one before it (the line's end drew a box
            // over two lines). A spreadsheet's cell is named from where its span starts.
            let span = match text.as_bytes().get(cell_start) {
                _ if !cell.is_empty() => cell_start..cell_start + cell.len(),
                Some(b'\n' | b'\r') | None if cell_start > 0 && sheet.is_none() => {
                    cell_start - 1..cell_start
                }
                _ => cell_start..cell_start + 1,
            };
            let value = cell.trim().to_string();
            spans.push(span.clone());
            match name {
                "id" => {
                    if value.is_empty() {
                        diags.push(Diagnostic::new(file, Some(span), "this card has no id").with_note("write a short unique name, like `3-flag-red`"));
                    }
                    row.id = value;
                }
                "qty" => match value.parse::<u32>() {
                    Ok(q) if q > 0 && q <= MAX_QTY => row.qty = q,
                    Ok(0) => diags.push(
                        Diagnostic::new(file, Some(span), "quantity 0: a card design needs at least 1 copy; delete the line to leave it out")
                            .with_note("or keep the line and choose cards with `where` and `unless` on the deck"),
                    ),
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
                    values.insert(shared.clone(), value);
                }
            }
        }
        row.values = values.into();
        row.spans = Spans::new(names.clone(), spans.drain(..));
        if !row.id.is_empty() {
            if let Some(&first) = seen_ids.get(&row.id) {
                let first = match sheet {
                    Some(sheet) => format!("row {}", sheet.cell_of(text, first).0 + 1),
                    None => format!("line {}", lines.line_col(text, first).0),
                };
                diags.push(
                    Diagnostic::new(
                        file,
                        row.spans.get("id"),
                        format!("card id `{}` is used twice", row.id),
                    )
                    .with_note(format!(
                        "it was first used on {first}; ids must be unique within a deck"
                    )),
                );
            } else {
                seen_ids.insert(row.id.clone(), start);
            }
        }
        rows.push(row);
    }
    rows
}

/// A rows file being parsed: its name in diagnostics, its text, the byte that separates
/// its cells and, for a spreadsheet's sheet, where its cells are.
#[derive(Clone, Copy)]
struct Source<'a> {
    file: &'a Path,
    text: &'a str,
    delimiter: u8,
    sheet: Option<&'a crate::diag::SheetPlaces>,
}

/// The values an enum field knows, after the closest to a misspelt `value`.
pub(super) fn known_values(field: &str, value: &str, known: &[String]) -> String {
    let list = format!("known values of `{field}`: {}", accepted(known));
    match crate::diag::closest(value, known.iter().map(String::as_str)) {
        Some(close) => format!("did you mean `{close}`? {list}"),
        None => list,
    }
}

/// Checks one cell; returns the problem and the hint.
fn check_value(field: &Field, value: &str) -> Option<(String, String)> {
    if value.is_empty() {
        return (!field.optional).then(|| {
            (
                format!("`{}` is empty", field.name),
                "this field is required; declare it `optional = true` to allow empty cells"
                    .to_string(),
            )
        });
    }
    match &field.kind {
        FieldKind::Text | FieldKind::File => None,
        FieldKind::Integer => value.parse::<i64>().is_err().then(|| {
            (
                format!("`{value}` is not a whole number (field `{}`)", field.name),
                "write a number like 5 or -10".to_string(),
            )
        }),
        FieldKind::Enum(values) => (!values.iter().any(|v| v == value)).then(|| {
            (format!("unknown {} `{value}`", field.name), known_values(&field.name, value, values))
        }),
    }
}

fn csv_error(file: &Path, text: &str, error: &csv::Error) -> Diagnostic {
    let (offset, message) = match error.kind() {
        csv::ErrorKind::UnequalLengths { pos, expected_len, len } => (
            pos.as_ref().map(|p| p.byte() as usize),
            format!("this line has {len} cells but the header has {expected_len}"),
        ),
        csv::ErrorKind::Utf8 { pos, .. } => {
            (pos.as_ref().map(|p| p.byte() as usize), "this line is not UTF-8 text".to_string())
        }
        _ => (None, format!("cannot read the rows: {error}")),
    };
    let span = offset
        .map(|at| record_start(text, at))
        .map(|start| start..line_end(text, start).max(start + 1));
    Diagnostic::new(file, span, message)
        .with_note("check for a missing or extra comma, or an unclosed quote")
}

/// Byte offsets where each cell of the record starting at `start` begins, honouring quotes.
fn cell_offsets(text: &str, start: usize, delimiter: u8) -> Vec<usize> {
    let mut offsets = vec![start];
    let mut quoted = false;
    for (i, b) in text.as_bytes()[start..].iter().enumerate() {
        match *b {
            b'"' => quoted = !quoted,
            b'\n' | b'\r' if !quoted => break,
            d if d == delimiter && !quoted => offsets.push(start + i + 1),
            _ => {}
        }
    }
    offsets
}

/// Where a record really starts: the csv reader puts the start of a record after a
/// `\r\n` on its `\n`, a line early.
fn record_start(text: &str, at: usize) -> usize {
    at + text
        .as_bytes()
        .get(at..)
        .map_or(0, |rest| rest.iter().take_while(|b| matches!(b, b'\r' | b'\n')).count())
}

/// The end of the line starting at `start`, before its `\n`, `\r\n` or `\r`.
fn line_end(text: &str, start: usize) -> usize {
    text[start..].find(['\r', '\n']).map_or(text.len(), |i| start + i)
}

/// A header read as one column because the file is separated by something else: what
/// the file uses, and how to read it.
fn other_delimiter(headers: &csv::StringRecord, delimiter: u8) -> Option<(String, String)> {
    let header = headers.get(0).filter(|_| headers.len() == 1)?;
    let (message, fix) = match [b';', b'\t', b',']
        .into_iter()
        .find(|&d| d != delimiter && header.contains(d as char))?
    {
        b';' => (
            "this file uses semicolons; save as comma-separated or set `delimiter = \";\"`",
            "set it on the [[deck]] or [[sheet]] that names this file",
        ),
        b'\t' => (
            "this file uses tabs; save as comma-separated or set `delimiter = \"\\t\"`",
            "set it on the [[deck]] or [[sheet]] that names this file",
        ),
        _ => (
            "this file uses commas, but its `delimiter` says otherwise",
            "remove `delimiter` from the [[deck]] or [[sheet]] that names this file",
        ),
    };
    Some((message.to_string(), fix.to_string()))
}

/// A quote that opens a cell running over lines that look like rows of their own: a stray
/// `"` that swallows the rest of the file, or everything up to the next quote. A cell
/// with a line break (rules text) is fine; one whose lines hold `columns` cells with an
/// id is not. Returns the quote's offset and the problem.
fn swallowing_quote(
    file: &Path,
    text: &str,
    delimiter: u8,
    columns: usize,
    id_column: Option<usize>,
) -> Option<(usize, Diagnostic)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    // Like the csv reader: a quote opens a quoted cell only at the start of a cell.
    let mut cell_start = true;
    while i < bytes.len() {
        if !(cell_start && bytes[i] == b'"') {
            cell_start = matches!(bytes[i], b'\n' | b'\r') || bytes[i] == delimiter;
            i += 1;
            continue;
        }
        let open = i;
        i += 1;
        // The cell runs to the closing quote (`""` is a quote inside it) or the end.
        let close = loop {
            match bytes.get(i) {
                None => break None,
                Some(b'"') if bytes.get(i + 1) == Some(&b'"') => i += 2,
                Some(b'"') => break Some(i),
                Some(_) => i += 1,
            }
        };
        let cell = &text[open + 1..close.unwrap_or(bytes.len())];
        let rows = cell
            .split(['\n', '\r'])
            .skip(1)
            .filter(|line| looks_like_row(line, delimiter, columns, id_column))
            .count();
        if rows > 0 {
            let last = close.unwrap_or_else(|| text.trim_end().len().saturating_sub(1));
            let line = line_col(text, last).0;
            let what = if rows == 1 {
                "1 line that looks like a row".to_string()
            } else {
                format!("{rows} lines that look like rows")
            };
            let d = Diagnostic::new(file, Some(open..open + 1), format!("this quote opens a cell that runs to line {line}, swallowing {what}; close it or remove it"))
                .with_note("a cell that starts with `\"` ends at the next `\"`; write a quote inside a cell as `\"\"`");
            return Some((open, d));
        }
        i = close.map_or(bytes.len(), |c| c + 1);
        cell_start = false;
    }
    None
}

/// A line inside a quoted cell that would be a row on its own: as many cells as the
/// header, and an id without spaces where the id goes.
fn looks_like_row(line: &str, delimiter: u8, columns: usize, id_column: Option<usize>) -> bool {
    let cells: Vec<&str> = line.split(delimiter as char).collect();
    let id_like = |id: &str| !id.trim().is_empty() && !id.trim().contains(char::is_whitespace);
    columns > 1
        && cells.len() >= columns
        && id_column.is_none_or(|i| cells.get(i).is_some_and(|id| id_like(id)))
}

/// 0-based column indices (sorted) as 1-based numbers a reader takes in: a run of more
/// than two as "6 to 16384", else at most ten listed and "and N more". A spreadsheet
/// that once used column XFD exports 16,000 empty columns, which were all listed
/// (tests/stranger/memory/xlsx-far-column).
fn column_numbers(columns: &[usize]) -> String {
    const SHOWN: usize = 10;
    let run = columns.windows(2).all(|w| w[1] == w[0] + 1);
    match columns {
        [first, .., last] if run && columns.len() > 2 => format!("{} to {}", first + 1, last + 1),
        _ if columns.len() > SHOWN => {
            let shown: Vec<String> = columns[..SHOWN].iter().map(|i| (i + 1).to_string()).collect();
            format!("{} and {} more", shown.join(", "), columns.len() - SHOWN)
        }
        _ => and_list(&columns.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_offsets_skip_quoted_commas() {
        let text = "a,b\n\"x,y\",z\n";
        assert_eq!(cell_offsets(text, 4, b','), vec![4, 10]);
    }

    #[test]
    fn a_multi_line_cell_of_text_is_not_a_swallowing_quote() {
        let text = "id,qty,front,back\naid,1,\"Draw 2, then one\nmore, and discard\",x\n";
        assert!(swallowing_quote(Path::new("a.csv"), text, b',', 4, Some(0)).is_none());
        let stray = "id,qty,front,back\naid,1,\"Draw,x\nb,1,y,z\nc,1,y,z\n";
        let (at, d) =
            swallowing_quote(Path::new("a.csv"), stray, b',', 4, Some(0)).expect("a stray quote");
        assert_eq!(at, stray.find('"').unwrap());
        assert!(d.message.contains("runs to line 4, swallowing 2 lines"), "{}", d.message);
    }
}
