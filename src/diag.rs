//! Diagnostics: what every stage returns instead of printing. A diagnostic names a
//! catalogue file, a byte span in it, what is wrong and, where it helps, what would be right.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::{Files, SimpleFiles};
use codespan_reporting::term::{self, termcolor::Buffer};

/// Whether a problem stops the build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Severity {
    /// The catalogue cannot be printed as it is.
    #[default]
    Error,
    /// It prints, but probably not as meant (low-resolution art, a missing bold face);
    /// `--strict` makes every warning an error.
    Warning,
}

/// What a problem is about, where a caller must tell kinds apart (not by their words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Topic {
    #[default]
    Other,
    /// Text that does not fit its box, or has a character no font has: what a
    /// translation can cause on its own.
    TextFit,
    /// Text that runs off the piece, past its cut (a translation can cause it too).
    OffPiece,
    /// Text inside the safe zone along the cut (a translation can cause it too).
    SafeZone,
    /// Art that stops short of the bleed.
    Bleed,
    /// An image printed below the resolution print shops ask for.
    Resolution,
    /// A colour over the press's total ink limit.
    Ink,
    /// Transparency PDF/X-1a cannot hold, flattened to a picture.
    Transparency,
    /// A deck's size against the card products a print service prints.
    Product,
    /// Text printed smaller than a player reads (`[check] min_text_pt`).
    TextSize,
    /// Text too faint to read against what is drawn under it.
    Legibility,
    /// An enum field's values told apart by colour alone (or by colour and words).
    ColourAlone,
    /// Small text in more than one ink of a CMYK press: a registration risk.
    FineText,
    /// Text, or a line, under the service's floor in a piece drawn as a picture (PDF/X-1a),
    /// measured before: the file's readers see only pixels.
    FlattenedText,
    FlattenedLine,
    /// A line under a press's floor, in press files.
    Hairline,
    /// Words that print in the game's own language, or deckpress's English, in another
    /// language's edition for want of a translation (a rulebook, the bundle's words, a
    /// name): for `--lang` to list, not plain `validate`'s look at every language.
    Untranslated,
}

/// One problem in a catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The file, as the user would type it (root of the catalogue joined with the relative path).
    pub file: PathBuf,
    /// Byte range in the file; `None` when the problem is about the whole file.
    pub span: Option<Range<usize>>,
    pub message: String,
    /// Extra lines: expected values, accepted keys, which card was being drawn.
    pub notes: Vec<String>,
    pub topic: Topic,
}

impl Diagnostic {
    pub fn new(
        file: impl Into<PathBuf>,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Error,
            file: file.into(),
            span,
            message: message.into(),
            notes: Vec::new(),
            topic: Topic::Other,
        }
    }

    pub fn warning(
        file: impl Into<PathBuf>,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> Self {
        Self { severity: Severity::Warning, ..Self::new(file, span, message) }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn about(mut self, topic: Topic) -> Self {
        self.topic = topic;
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// This warning as an error, with why it is one (`--strict`, a service's rule).
    pub fn into_error(mut self, why: &str) -> Self {
        self.severity = Severity::Error;
        self.with_note(why)
    }
}

/// Why a command failed, which decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// The catalogue breaks a rule or cannot be read as a catalogue: exit 1. The sources
    /// are the files the diagnostics point into, so they can be quoted.
    Invalid(Vec<Diagnostic>, Sources),
    /// A usage or I/O error: exit 2.
    Io(String),
}

impl Failure {
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Invalid(..) => 1,
            Failure::Io(_) => 2,
        }
    }
}

/// The texts of the catalogue files, kept so diagnostics can quote the offending line.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    texts: BTreeMap<PathBuf, String>,
    /// Line starts per file: reporting on 100,000 rows does not re-read the file for each.
    lines: BTreeMap<PathBuf, LineIndex>,
    /// The texts that are a spreadsheet's sheet as CSV, and where its rows are.
    sheets: BTreeMap<PathBuf, SheetPlaces>,
}

/// Where a sheet's rows lie in the CSV text made of it: a problem in that text is placed
/// by the sheet's own rows and columns (`market!C24`, `market row 24`), not by CSV lines
/// (a table may start below the sheet's first row, and a cell may hold line breaks).
#[derive(Debug, Clone)]
pub struct SheetPlaces {
    pub sheet: String,
    /// The sheet's row and column (0-based) of the table's first cell.
    pub origin: (u32, u32),
    /// The byte offset in the CSV text where each row of the table starts.
    pub row_starts: Vec<usize>,
}

impl SheetPlaces {
    /// The sheet's row and column (0-based) of a byte offset in the CSV text.
    pub fn cell_of(&self, text: &str, offset: usize) -> (u32, u32) {
        let row = self.row_starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.row_starts.get(row).copied().unwrap_or(0).min(offset);
        let (mut quoted, mut column) = (false, 0u32);
        for c in text[start..floor_char_boundary(text, offset.min(text.len()))].chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => column += 1,
                _ => {}
            }
        }
        (self.origin.0 + row as u32, self.origin.1 + column)
    }

    /// `market!C24`; `C24` in a linked sheet's CSV copy, whose export names no tab.
    pub fn cell_name(&self, text: &str, offset: usize) -> String {
        let (row, column) = self.cell_of(text, offset);
        match self.sheet.is_empty() {
            true => format!("{}{}", column_letters(column), row + 1),
            false => cell_name(&self.sheet, row, column),
        }
    }

    /// The local CSV copy of a sheet on the web (`rows_url`): placed by the sheet's own
    /// rows and columns, which its records are.
    pub fn linked_csv(text: &str) -> SheetPlaces {
        SheetPlaces { sheet: String::new(), origin: (0, 0), row_starts: csv_record_starts(text) }
    }
}

/// A cell as spreadsheets name it: `market!C17` for row 16, column 2 (0-based).
pub fn cell_name(sheet: &str, row: u32, column: u32) -> String {
    format!("{sheet}!{}{}", column_letters(column), row + 1)
}

/// The byte offset of each record of a CSV text: a line break inside a quoted cell is
/// part of its cell, not a new row.
pub fn csv_record_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let mut quoted = false;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'\n' if !quoted && i + 1 < text.len() => starts.push(i + 1),
            _ => {}
        }
    }
    starts
}

/// `A`, …, `Z`, `AA`, … for a 0-based column.
fn column_letters(column: u32) -> String {
    let mut letters = String::new();
    let mut n = column + 1;
    while n > 0 {
        letters.insert(0, (b'A' + ((n - 1) % 26) as u8) as char);
        n = (n - 1) / 26;
    }
    letters
}

impl Sources {
    /// Keeps a file's text for quoting. Line ends are made `\n` byte for byte (a lone
    /// `\r` becomes `\n`, the `\r` of `\r\n` a space), so spans stay valid and files
    /// saved on Windows or old Macs are numbered and quoted like any other.
    pub fn insert(&mut self, file: PathBuf, text: String) {
        let text = unix_line_ends(text);
        self.lines.insert(file.clone(), LineIndex::new(&text));
        self.texts.insert(file, text);
    }

    /// Keeps a linked sheet's CSV copy, placed by its records as the sheet's rows.
    pub fn insert_linked_csv(&mut self, file: PathBuf, text: String) {
        let text = unix_line_ends(text);
        let places = SheetPlaces::linked_csv(&text);
        self.insert_sheet(file, text, places);
    }

    /// Keeps a spreadsheet's sheet, as the CSV text it was read as, placed by its rows.
    pub fn insert_sheet(&mut self, file: PathBuf, text: String, places: SheetPlaces) {
        self.insert(file.clone(), text);
        self.sheets.insert(file, places);
    }

    pub fn get(&self, file: &Path) -> Option<&str> {
        self.texts.get(file).map(String::as_str)
    }

    /// Where a sheet read from a spreadsheet lies, if `file` is one.
    pub fn sheet(&self, file: &Path) -> Option<&SheetPlaces> {
        self.sheets.get(file)
    }

    /// 1-based line and column (in characters) of a byte offset, as editors count them;
    /// in a spreadsheet's sheet, its 1-based row and column.
    pub fn line_col(&self, file: &Path, offset: usize) -> Option<(usize, usize)> {
        let text = self.get(file)?;
        if let Some(sheet) = self.sheets.get(file) {
            let (row, column) = sheet.cell_of(text, offset);
            return Some((row as usize + 1, column as usize + 1));
        }
        Some(self.lines.get(file)?.line_col(text, offset))
    }

    /// "line 21" of a CSV file, or "market row 24" of a spreadsheet's sheet.
    pub fn row_name(&self, file: &Path, offset: usize) -> String {
        match (self.sheets.get(file), self.line_col(file, offset)) {
            (Some(sheet), Some((row, _))) if sheet.sheet.is_empty() => format!("row {row}"),
            (Some(sheet), Some((row, _))) => format!("{} row {row}", sheet.sheet),
            (None, Some((line, _))) => format!("line {line}"),
            (_, None) => "an unknown line".to_string(),
        }
    }

    /// "cards.csv line 21", or "market row 24" (the sheet names itself), or a linked
    /// sheet's copy "cards.csv row 24".
    pub fn file_row_name(&self, file: &Path, offset: usize) -> String {
        match self.sheets.get(file) {
            Some(sheet) if !sheet.sheet.is_empty() => self.row_name(file, offset),
            _ => {
                let name = file.file_name().map(PathBuf::from).unwrap_or_default();
                format!("{} {}", name.display(), self.row_name(file, offset))
            }
        }
    }

    /// Renders diagnostics as `error: message` followed by `┌─ file:line:col` and the
    /// quoted source, the way rustc and typst do.
    pub fn render(&self, diagnostics: &[Diagnostic], color: bool) -> String {
        let mut files = SheetFiles { files: SimpleFiles::new(), sheets: BTreeMap::new() };
        let mut ids = BTreeMap::new();
        for (path, text) in &self.texts {
            let id = files.files.add(
                printable(&path.display().to_string()).into_owned(),
                same_length_printable(text),
            );
            if let Some(sheet) = self.sheets.get(path) {
                files.sheets.insert(id, sheet.clone());
            }
            ids.insert(path.clone(), id);
        }
        let mut buffer = if color { Buffer::ansi() } else { Buffer::no_color() };
        let config = term::Config::default();
        for d in diagnostics {
            let report = match d.severity {
                Severity::Error => Report::error(),
                Severity::Warning => Report::warning(),
            };
            let mut notes = d.notes.clone();
            // A problem in a spreadsheet's sheet names its cell, as the spreadsheet does.
            if let (Some(sheet), Some(text), Some(span)) =
                (self.sheets.get(&d.file), self.get(&d.file), &d.span)
            {
                let cell = sheet.cell_name(text, span.start);
                notes.insert(
                    0,
                    match sheet.sheet.is_empty() {
                        true => format!("in cell {cell} of the sheet on the web (`rows_url`)"),
                        false => format!("in cell {cell}"),
                    },
                );
            }
            let notes = notes.iter().map(|n| printable(n).into_owned()).collect();
            let mut report = report.with_message(printable(&d.message)).with_notes(notes);
            let text = self.get(&d.file).unwrap_or_default();
            match (ids.get(&d.file), &d.span) {
                // A line too long to quote (a header of a million columns) is named, not shown.
                (Some(_), Some(span)) if line_around(text, span.start).len() > MAX_QUOTED_LINE => {
                    let (line, column) = self.line_col(&d.file, span.start).unwrap_or((1, 1));
                    report.notes.insert(
                        0,
                        printable(&format!(
                            "at {}:{line}:{column} (a line too long to show)",
                            d.file.display()
                        ))
                        .into_owned(),
                    );
                }
                (Some(&id), Some(span)) => {
                    report = report.with_labels(vec![Label::primary(id, span.clone())]);
                }
                _ => {
                    report
                        .notes
                        .insert(0, printable(&format!("in {}", d.file.display())).into_owned());
                }
            }
            // Writing into a memory buffer cannot fail for I/O reasons; a span outside the
            // file would be our bug, so fall back to a plain line rather than lose the message.
            if term::emit(&mut buffer, &config, &files, &report).is_err() {
                let plain = format!(
                    "error: {}\n  in {}\n",
                    printable(&d.message),
                    printable(&d.file.display().to_string())
                );
                let _ = std::io::Write::write_all(&mut buffer, plain.as_bytes());
            }
        }
        String::from_utf8_lossy(buffer.as_slice()).into_owned()
    }
}

/// The files quoted in diagnostics, where a spreadsheet's sheet is numbered by its own rows
/// and columns (`harbor.xlsx[market]:24:3`).
struct SheetFiles {
    files: SimpleFiles<String, String>,
    sheets: BTreeMap<usize, SheetPlaces>,
}

impl<'a> Files<'a> for SheetFiles {
    type FileId = usize;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<String, codespan_reporting::files::Error> {
        self.files.name(id)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files.source(id)
    }

    fn line_index(
        &'a self,
        id: usize,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        self.files.line_index(id, byte)
    }

    fn line_range(
        &'a self,
        id: usize,
        line: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        self.files.line_range(id, line)
    }

    fn line_number(
        &'a self,
        id: usize,
        line: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        match self.sheets.get(&id) {
            Some(sheet) => {
                let start = self.files.line_range(id, line)?.start;
                Ok(sheet.cell_of(self.files.source(id)?, start).0 as usize + 1)
            }
            None => Ok(line + 1),
        }
    }

    fn column_number(
        &'a self,
        id: usize,
        line: usize,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        match self.sheets.get(&id) {
            Some(sheet) => Ok(sheet.cell_of(self.files.source(id)?, byte).1 as usize + 1),
            None => self.files.column_number(id, line, byte),
        }
    }
}

/// Where each line of a text starts: line numbers by binary search, so that numbering
/// 100,000 rows stays linear. Lines end in `\n`, `\r\n` or a lone `\r`.
#[derive(Debug, Default, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let ends = bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')));
        Self { starts: std::iter::once(0).chain(ends.map(|(i, _)| i + 1)).collect() }
    }

    /// 1-based line and column (in characters) of a byte offset in `text`.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1].min(offset);
        (line, text[start..offset].chars().count() + 1)
    }
}

/// 1-based line and column (in characters) of a byte offset in `text`, whether its lines
/// end in `\n`, `\r\n` or a lone `\r`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(text).line_col(text, offset)
}

/// `\r\n` → ` \n` and a lone `\r` → `\n`: the same bytes, lines as every tool counts them.
fn unix_line_ends(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    let mut bytes = text.into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' {
            bytes[i] = if bytes.get(i + 1) == Some(&b'\n') { b' ' } else { b'\n' };
        }
    }
    // Only ASCII bytes were swapped for ASCII bytes.
    String::from_utf8(bytes).expect("still UTF-8")
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Folds problems that differ only in the piece they were met in (a typo in a template
/// shared by 45 cards) into one, with "and 44 more" in its notes; keeps the first
/// occurrence's order.
pub fn group(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut grouped = Grouped::default();
    diags.into_iter().for_each(|d| grouped.add(d));
    grouped.finish()
}

/// Problems grouped as they come (`group`, one at a time): a build that draws a huge deck
/// in batches keeps one problem per distinct kind and a count, not one per card.
#[derive(Default)]
pub struct Grouped {
    out: Vec<Diagnostic>,
    more: Vec<usize>,
    /// The first other pieces met with a warning whose text or numbers differ (see `cause`).
    others: Vec<Vec<String>>,
    index: std::collections::HashMap<GroupKey, usize>,
}

type GroupKey = (Severity, PathBuf, Option<Range<usize>>, String);

impl Grouped {
    pub fn add(&mut self, d: Diagnostic) {
        let key = (d.severity, d.file.clone(), d.span.clone(), cause(&d));
        match self.index.get(&key) {
            Some(&i) if self.out[i].notes == d.notes && self.out[i].message == d.message => {}
            Some(&i) => {
                self.more[i] += 1;
                if self.out[i].message != d.message && self.others[i].len() < 3 {
                    self.others[i].push(piece_of(&d));
                }
            }
            None => {
                self.index.insert(key, self.out.len());
                self.out.push(d);
                self.more.push(0);
                self.others.push(Vec::new());
            }
        }
    }

    pub fn extend(&mut self, diags: impl IntoIterator<Item = Diagnostic>) {
        diags.into_iter().for_each(|d| self.add(d));
    }

    pub fn finish(self) -> Vec<Diagnostic> {
        let mut out = self.out;
        for ((d, n), others) in out.iter_mut().zip(self.more).zip(self.others) {
            if n > 0 {
                let what = match (d.notes.iter().any(|note| note.contains("card `")), n) {
                    (true, 1) => "card",
                    (true, _) => "cards",
                    (false, 1) => "piece",
                    (false, _) => "pieces",
                };
                let at = d
                    .notes
                    .iter()
                    .position(|note| note.starts_with("while ") || note.starts_with("in "))
                    .map_or(d.notes.len(), |i| i + 1);
                let varied = if others.is_empty() {
                    String::new()
                } else {
                    // One cause met with other words: the pieces' own texts or sizes.
                    let more = if n > others.len() { ", …" } else { "" };
                    format!(" ({}{more}), each with its own text or measure", others.join(", "))
                };
                d.notes.insert(at, format!("and {n} more {what}{varied}"));
            }
        }
        out
    }
}

/// Splits problems into errors and warnings; with `strict`, warnings count as errors.
pub fn split(diags: Vec<Diagnostic>, strict: bool) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    diags
        .into_iter()
        .map(|d| match strict && d.severity == Severity::Warning {
            true => d.into_error("an error because of --strict"),
            false => d,
        })
        .partition(Diagnostic::is_error)
}

/// "6", "6 and 7", "5, 6 and 7": a list in a sentence.
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The closest of `candidates` to a misspelt `name`, if close enough to be what was meant
/// (a third of its letters, at least two, changed, added, dropped or swapped).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&c.to_lowercase(), &name.to_lowercase()), c))
        .filter(|(d, _)| *d <= 2.max(name.chars().count() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// "did you mean" help: the accepted values, quoted, in one line.
pub fn accepted(values: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let list: Vec<String> = values.into_iter().map(|v| format!("`{}`", v.as_ref())).collect();
    list.join(", ")
}

/// `text` safe to print on a terminal: every control character from a stranger's data
/// (an escape sequence, a newline that would start a forged `error:` line, a tab) and
/// every bidirectional override (which turns the rest of a line around) is shown
/// escaped, `\n` or `\u{1b}`, never sent to the terminal. Messages are one line each:
/// their own layout (notes, the quoted source) is made by the renderer, around them.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(unprintable) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unprintable(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out.into()
}

/// A control character, or a format character that reorders or hides text (bidi
/// overrides and isolates, zero-width marks are harmless and kept).
fn unprintable(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A quoted source file made safe to print byte for byte in place (`?` for each byte of a
/// control character), so that the spans into it still point at the same places.
fn same_length_printable(text: &str) -> String {
    text.chars()
        .map(|c| match unprintable(c) && !matches!(c, '\n' | '\t' | '\r') {
            true => "?".repeat(c.len_utf8()),
            false => c.to_string(),
        })
        .collect()
}

/// The longest source line a diagnostic quotes, in bytes.
const MAX_QUOTED_LINE: usize = 2_000;

/// The line of `text` that holds byte `at`.
fn line_around(text: &str, at: usize) -> &str {
    let at = floor_char_boundary(text, at.min(text.len()));
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| i + at);
    text.get(start..end).unwrap_or_default()
}

/// "did you mean `hand`?" for a serde message naming an unknown key or value and the
/// accepted ones ("unknown field `hnad`, expected one of `players`, `hand`, …"), so that
/// every table of game.toml says what was meant without a list of its own.
pub fn unknown_name_hint(message: &str) -> Option<String> {
    let rest = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))?;
    let (name, rest) = rest.split_once('`')?;
    let expected = rest.split_once("expected")?.1;
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    closest(name, known.iter().copied()).map(|c| format!("did you mean `{c}`?"))
}

/// What a warning says with its quoted texts and numbers left out: a text too close to the
/// cut that differs per card (`text "40" is 2.9 mm from the cut`, `text "41" …`) is one
/// cause at one template line, said once with a count. Errors, and warnings at no line
/// or of no kind (each missing translation is a cause of its own), keep their words whole.
fn cause(d: &Diagnostic) -> String {
    if d.severity != Severity::Warning || d.span.is_none() || d.topic == Topic::Other {
        return d.message.clone();
    }
    let mut out = String::with_capacity(d.message.len());
    let mut quoted = false;
    let mut number = false;
    for c in d.message.chars() {
        if c == '"' {
            quoted = !quoted;
            if quoted {
                out.push_str("\"…\"");
            }
            continue;
        }
        if quoted {
            continue;
        }
        let digit = c.is_ascii_digit() || (number && c == '.');
        if digit && !number {
            out.push('#');
        }
        number = digit;
        if !digit {
            out.push(c);
        }
    }
    out
}

/// The piece a problem was met in, as its notes name it (`sun-2` of "in card `sun-2` of
/// deck `cards`"), or its first quoted text.
fn piece_of(d: &Diagnostic) -> String {
    let named = d.notes.iter().find_map(|note| {
        let rest = &note[note.find("card `").or_else(|| note.find("piece `"))?..];
        let start = rest.find('`')? + 1;
        let end = rest[start..].find('`')? + start;
        Some(format!("`{}`", &rest[start..end]))
    });
    named.or_else(|| d.message.split('"').nth(1).map(|t| format!("\"{t}\""))).unwrap_or_default()
}

/// `1 design`, `2 designs`: a count and its noun, for messages and captions.
pub fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_and_bidi_override_is_escaped() {
        assert_eq!(printable("card `x\nerror: y`"), "card `x\\nerror: y`");
        assert_eq!(printable("a\r\tb\u{1b}[2J\u{7f}"), "a\\r\\tb\\u{1b}[2J\\u{7f}");
        assert_eq!(printable("ab\u{202e}cd\u{2066}"), "ab\\u{202e}cd\\u{2066}");
        assert!(matches!(printable("plain — café"), std::borrow::Cow::Borrowed(_)));
    }
}
