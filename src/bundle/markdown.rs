//! `rules.md` → blocks: the catalogue's rulebook, filled with the templates' functions
//! (so its numbers follow the data), parsed as CommonMark into the blocks the typesetter
//! lays out. Raw HTML is never run: each piece is left out with a warning. Icons
//! (`{coin}`) and images are checked here, at the line and column they are written.

use std::ops::Range;
use std::path::PathBuf;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::diag::Diagnostic;
use crate::model::{Catalogue, Icon};

/// A stretch of text in one style, or an inline icon.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub text: String,
    pub bold: bool,
    pub italic: bool,
    /// `code`: set apart on a tint.
    pub code: bool,
    /// An icon (`{coin}`) instead of text: its file and width over height.
    pub icon: Option<(String, f32)>,
}

/// A block of the rulebook, in reading order.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Heading {
        level: u8,
        spans: Vec<Span>,
    },
    /// A paragraph, list item or quoted paragraph.
    Para {
        spans: Vec<Span>,
        /// Steps in from the margin (list depth, quotes).
        indent: u8,
        /// A list item's bullet or number, on its first paragraph.
        marker: Option<String>,
        quote: bool,
    },
    Table {
        head: Vec<Vec<Span>>,
        rows: Vec<Vec<Vec<Span>>>,
    },
    /// An image of the catalogue folder, its size in pixels (width over height matters).
    Image {
        href: String,
        size: (f32, f32),
        /// An SVG written as a template, filled from the data: drawn in place, not read.
        filled: Option<Inline>,
    },
    Rule,
    /// Room kept for a picture drawn over the page (a card, the scale bar), in mm.
    Space(f32),
    /// The contents: each section with its page.
    Contents(Vec<Section>),
}

/// The rulebook as written, filled and as its positions are read back.
pub struct Source {
    pub file: PathBuf,
    pub written: String,
    pub filled: String,
    /// Found once, asked for every warning: where the two texts first differ, and where
    /// each one's lines start (each warning searched from the start, and a rulebook of
    /// 20,000 lines of raw HTML, one warning a line, took minutes).
    pub places: std::sync::OnceLock<Places>,
}

#[derive(Debug, Default)]
pub struct Places {
    same_until: usize,
    filled_lines: Vec<usize>,
    written_lines: Vec<usize>,
}

impl Source {
    pub fn new(file: PathBuf, written: String, filled: String) -> Source {
        Source { file, written, filled, places: std::sync::OnceLock::new() }
    }

    fn places(&self) -> &Places {
        self.places.get_or_init(|| {
            let starts = |text: &str| {
                std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
            };
            let same_until = self
                .filled
                .bytes()
                .zip(self.written.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(self.filled.len().min(self.written.len()));
            Places {
                same_until,
                filled_lines: starts(&self.filled),
                written_lines: starts(&self.written),
            }
        })
    }
}

impl Source {
    /// Where in the written file a piece of the filled text (`needle`, at `at` of it) was
    /// written: the same place when the fill changed nothing before it, else the written
    /// text's occurrence on the same line, else its first.
    pub fn span(&self, at: Range<usize>, needle: &str) -> Option<Range<usize>> {
        let places = self.places();
        let start = at.start.min(self.filled.len());
        if start <= places.same_until && self.written.get(at.clone()) == Some(needle) {
            return Some(at);
        }
        let line = places.filled_lines.partition_point(|&s| s <= start).saturating_sub(1);
        let start_of_line = places.written_lines.get(line).copied().unwrap_or(self.written.len());
        let line_text = self.written[start_of_line..].split('\n').next().unwrap_or_default();
        if let Some(i) = line_text.find(needle).filter(|_| !needle.is_empty()) {
            return Some(start_of_line + i..start_of_line + i + needle.len());
        }
        match self.written.find(needle).filter(|_| !needle.is_empty()) {
            Some(i) => Some(i..i + needle.len()),
            None => (start_of_line < self.written.len())
                .then(|| start_of_line..start_of_line + line_text.len()),
        }
    }
}

/// An SVG picture's view box and what its root holds, to draw inside a page.
#[derive(Debug, Clone, PartialEq)]
pub struct Inline {
    pub view_box: String,
    /// The root's other attributes as written (`font-size="5.5"`): what its content inherits.
    pub attributes: String,
    pub body: String,
}

/// Steps in a list or quote takes at most (the typesetter's indent, 6 mm a step): ten fit
/// half of a booklet's page (60 mm), where deeper items would run off the right edge; the
/// first item past it is warned of here, where its line is known.
pub const MAX_INDENT_STEPS: u8 = 10;

/// An image's pixel size (and, for an SVG template, what it filled to), or why it cannot
/// be shown.
pub type ImageSize<'a> = &'a dyn Fn(&str) -> Result<((f32, f32), Option<Inline>), String>;

/// Parses the filled rulebook into blocks; problems go to `diags` at `source.file`.
pub fn blocks(
    source: &Source,
    cat: &Catalogue,
    image_size: ImageSize,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Block> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut b = Builder {
        source: Some(source),
        icons: &cat.icons,
        diags: Some(diags),
        ..Builder::default()
    };
    for (event, at) in Parser::new_ext(&source.filled, options).into_offset_iter() {
        b.event(event, at, image_size);
    }
    b.flush();
    b.out
}

/// A table's row: each cell's spans.
type Row = Vec<Vec<Span>>;

/// Lists open around the text: each one's next number (`None`: bullets).
#[derive(Default)]
struct Builder<'a> {
    source: Option<&'a Source>,
    icons: &'a [Icon],
    diags: Option<&'a mut Vec<Diagnostic>>,
    out: Vec<Block>,
    spans: Vec<Span>,
    lists: Vec<Option<u64>>,
    marker: Option<String>,
    quote: u8,
    bold: u8,
    italic: u8,
    heading: Option<u8>,
    /// An image's alt text is not printed (the image is).
    in_image: bool,
    /// The list too deep to step in further has been said (once a rulebook).
    said_too_deep: bool,
    code_block: bool,
    table: Option<(Row, Vec<Row>)>,
    row: Vec<Vec<Span>>,
}

impl<'a> Builder<'a> {
    fn warn(&mut self, at: Range<usize>, needle: &str, message: String, note: &str) {
        let source = self.source.expect("set");
        let span = source.span(at, needle);
        if let Some(diags) = self.diags.as_deref_mut() {
            diags.push(Diagnostic::warning(&source.file, span, message).with_note(note));
        }
    }

    fn error(&mut self, at: Range<usize>, needle: &str, message: String, note: String) {
        let source = self.source.expect("set");
        let span = source.span(at, needle);
        if let Some(diags) = self.diags.as_deref_mut() {
            diags.push(Diagnostic::new(&source.file, span, message).with_note(note));
        }
    }

    /// A row with more cells than its table's header loses the extra ones (CommonMark
    /// drops them): an error at the row, such as a deal table's loop written on one line.
    fn more_cells_than_head(&mut self, at: Range<usize>) {
        let (Some(source), Some((head, _))) = (self.source, &self.table) else { return };
        let columns = head.len();
        let Some(row) = source.filled.get(at.clone()) else { return };
        let row = row.lines().next().unwrap_or_default();
        let cells = cells_in(row);
        if cells > columns {
            let needle = row.trim().to_string();
            self.error(
                at,
                &needle,
                format!("this table row has {cells} cells where its header has {columns}: the last {} would not be printed", cells - columns),
                "give every row as many cells as the header; a row made by a loop needs a line of its own for each pass (end the loop's line with a newline)".to_string(),
            );
        }
    }

    fn event(&mut self, event: Event, at: Range<usize>, image_size: ImageSize) {
        match event {
            Event::Start(tag) => self.start(tag, at, image_size),
            Event::End(tag) => self.end(tag),
            Event::Text(text) if self.in_image => drop(text),
            Event::Text(text) if self.code_block => {
                for line in text.lines() {
                    let span = Span { code: true, ..self.span(line) };
                    self.out.push(Block::Para {
                        spans: vec![span],
                        indent: self.indent() + 1,
                        marker: None,
                        quote: false,
                    });
                }
            }
            Event::Text(text) => self.text(&text, at),
            Event::Code(text) => {
                let span = Span { code: true, ..self.span(&text) };
                self.spans.push(span);
            }
            Event::SoftBreak => self.spans.push(self.span(" ")),
            Event::HardBreak => self.spans.push(self.span("\n")),
            Event::Html(html) | Event::InlineHtml(html) => {
                let first = html.lines().next().unwrap_or_default().trim().to_string();
                self.warn(
                    at,
                    &first,
                    format!("raw HTML `{}` is left out of the rulebook", short(&first)),
                    "deckpress never runs HTML; write it in Markdown (**bold**, lists, tables, images)",
                );
            }
            Event::Rule => {
                self.flush();
                self.out.push(Block::Rule);
            }
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag, at: Range<usize>, image_size: ImageSize) {
        match tag {
            Tag::Heading { level, .. } => {
                self.flush();
                self.heading = Some(match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    HeadingLevel::H3 => 3,
                    _ => 4,
                });
            }
            Tag::Paragraph => self.flush(),
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote += 1;
            }
            Tag::CodeBlock(_) => {
                self.flush();
                self.code_block = true;
            }
            Tag::List(first) => {
                self.flush();
                self.lists.push(first);
            }
            Tag::Item => {
                self.flush();
                let steps = MAX_INDENT_STEPS;
                if self.indent() > steps && !self.said_too_deep && self.source.is_some() {
                    self.said_too_deep = true;
                    let depth = self.indent();
                    let line = self
                        .source
                        .map(|s| {
                            s.filled[at.clone()]
                                .lines()
                                .next()
                                .unwrap_or_default()
                                .trim()
                                .to_string()
                        })
                        .unwrap_or_default();
                    self.warn(
                        at,
                        &line,
                        format!("this item is {depth} levels deep: past {steps} levels a list steps in no further, so its deeper items line up with those above"),
                        "flatten the list: a rulebook reads best two or three levels deep",
                    );
                }
                self.marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        Some(format!("{}.", *n - 1))
                    }
                    _ => Some("•".to_string()),
                };
            }
            Tag::Emphasis => self.italic += 1,
            Tag::Strong => self.bold += 1,
            Tag::Image { dest_url, .. } => {
                self.flush();
                self.in_image = true;
                let href = dest_url.to_string();
                match image_size(&href) {
                    Ok((size, filled)) => self.out.push(Block::Image { href, size, filled }),
                    Err(why) => self.error(
                        at,
                        &href,
                        format!("image `{href}`: {why}"),
                        "images are read from the catalogue folder, like art (`art/board.png`)"
                            .to_string(),
                    ),
                }
            }
            Tag::Table(_) => {
                self.flush();
                self.table = Some((Vec::new(), Vec::new()));
            }
            Tag::TableHead => self.row.clear(),
            Tag::TableRow => {
                self.row.clear();
                self.more_cells_than_head(at);
            }
            Tag::TableCell => self.spans.clear(),
            Tag::HtmlBlock => {}
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                let spans = std::mem::take(&mut self.spans);
                let level = self.heading.take().unwrap_or(1);
                if !spans.is_empty() {
                    self.out.push(Block::Heading { level, spans });
                }
            }
            TagEnd::Paragraph | TagEnd::Item => self.flush(),
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
            }
            TagEnd::CodeBlock => self.code_block = false,
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::Emphasis => self.italic = self.italic.saturating_sub(1),
            TagEnd::Strong => self.bold = self.bold.saturating_sub(1),
            TagEnd::Image => self.in_image = false,
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.spans);
                self.row.push(cell);
            }
            TagEnd::TableHead => {
                let row = std::mem::take(&mut self.row);
                if let Some(t) = &mut self.table {
                    t.0 = row;
                }
            }
            TagEnd::TableRow => {
                let row = std::mem::take(&mut self.row);
                if let Some(t) = &mut self.table {
                    t.1.push(row);
                }
            }
            TagEnd::Table => {
                if let Some((head, rows)) = self.table.take() {
                    self.out.push(Block::Table { head, rows });
                }
            }
            _ => {}
        }
    }

    fn span(&self, text: &str) -> Span {
        Span {
            text: text.to_string(),
            bold: self.bold > 0 || self.heading.is_some(),
            italic: self.italic > 0,
            code: false,
            icon: None,
        }
    }

    fn indent(&self) -> u8 {
        (self.lists.len() as u8).saturating_add(self.quote)
    }

    /// Text with its icons: `{coin}` of `[icons]` is drawn; `{name}` that is no icon of
    /// the game is an error, as on a card.
    fn text(&mut self, text: &str, at: Range<usize>) {
        let mut rest = text;
        let mut offset = at.start;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            let name = &after[..close];
            if name.is_empty() || !crate::model::is_icon_name(name) {
                self.spans.push(self.span(&rest[..open + 1]));
                offset += open + 1;
                rest = after;
                continue;
            }
            self.spans.push(self.span(&rest[..open]));
            let written = &rest[open..open + close + 2];
            match self.icons.iter().find(|i| i.name == name) {
                Some(icon) => self
                    .spans
                    .push(Span { icon: Some((icon.href.clone(), icon.aspect)), ..self.span("") }),
                None => {
                    let known: Vec<String> =
                        self.icons.iter().map(|i| format!("{{{}}}", i.name)).collect();
                    let start = offset + open;
                    self.error(
                        start..start + written.len(),
                        written,
                        format!("`{written}` is no icon of this game"),
                        match known.is_empty() {
                            true => "declare it under [icons] in game.toml".to_string(),
                            false => format!(
                                "declare it under [icons] in game.toml; its icons: {}",
                                known.join(" ")
                            ),
                        },
                    );
                }
            }
            offset += open + close + 2;
            rest = &rest[open + close + 2..];
        }
        if !rest.is_empty() {
            self.spans.push(self.span(rest));
        }
    }

    /// The text gathered so far as a paragraph (or a table cell's, kept for its cell).
    fn flush(&mut self) {
        if self.table.is_some() || self.heading.is_some() {
            return;
        }
        let spans = std::mem::take(&mut self.spans);
        if spans.iter().all(|s| s.icon.is_none() && s.text.trim().is_empty()) {
            return;
        }
        let quote = self.quote > 0;
        let spans = match quote {
            true => spans.into_iter().map(|s| Span { italic: true, ..s }).collect(),
            false => spans,
        };
        self.out.push(Block::Para {
            spans,
            indent: self.indent(),
            marker: self.marker.take(),
            quote,
        });
    }
}

/// The start of a long text, for a message.
fn short(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Every character of the blocks, for the glyph check.
pub fn all_text(blocks: &[Block]) -> impl Iterator<Item = &Span> {
    blocks.iter().flat_map(|b| -> Box<dyn Iterator<Item = &Span>> {
        match b {
            Block::Heading { spans, .. } | Block::Para { spans, .. } => Box::new(spans.iter()),
            Block::Table { head, rows } => {
                Box::new(head.iter().chain(rows.iter().flatten()).flatten())
            }
            Block::Image { .. } | Block::Rule | Block::Space(_) | Block::Contents(_) => {
                Box::new(std::iter::empty())
            }
        }
    })
}

/// A heading met, for the contents and the bookmarks: its level, text and page (0-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub level: u8,
    pub title: String,
    pub page: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_after_a_filled_expression_is_found_on_its_written_line() {
        let source = Source::new(
            PathBuf::from("rules.md"),
            "There are {{ n }} cards.\nSee {bad}.\n".to_string(),
            "There are 62 cards.\nSee {bad}.\n".to_string(),
        );
        let at = source.filled.find("{bad}").unwrap();
        let span = source.span(at..at + 5, "{bad}").unwrap();
        assert_eq!(&source.written[span], "{bad}");
    }
}

/// The cells of a table row as written: split at each `|` that is not escaped (in a code
/// span too, as GitHub's tables do), the row's own outer pipes not counted.
fn cells_in(row: &str) -> usize {
    let row = row.trim();
    let inner = row.strip_prefix('|').unwrap_or(row);
    let inner = match inner.strip_suffix('|') {
        Some(s) if !s.ends_with('\\') => s,
        _ => inner,
    };
    let (mut cells, mut escaped) = (1, false);
    for c in inner.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '|' => cells += 1,
            _ => {}
        }
    }
    cells
}

#[cfg(test)]
mod row_tests {
    use pulldown_cmark::{Event, Options, Parser, Tag};

    /// The cells pulldown-cmark finds in `row` under a header wider than any row.
    fn parsed_cells(row: &str) -> usize {
        let head = format!("{}|\n{}|\n", "| h ".repeat(30), "|---".repeat(30));
        let text = format!("{head}{row}\n");
        let events = Parser::new_ext(&text, Options::ENABLE_TABLES).collect::<Vec<_>>();
        let body = events.iter().position(|e| matches!(e, Event::Start(Tag::TableRow))).unwrap();
        let last = events
            .iter()
            .rposition(|e| matches!(e, Event::End(pulldown_cmark::TagEnd::TableCell)))
            .unwrap();
        // Cells past the row's own are padded with empty ones: count up to the last with text.
        let mut cells = 0;
        let mut filled = 0;
        for e in &events[body..=last] {
            match e {
                Event::Start(Tag::TableCell) => cells += 1,
                Event::Text(_) | Event::Code(_) => filled = cells,
                _ => {}
            }
        }
        filled
    }

    #[test]
    fn cells_are_counted_as_the_parser_splits_them() {
        for row in [
            "| a | b |",
            "a | b",
            "| a \\| b | c |",
            "| 2 | 7 | x | 3 | 6 | y | 4 | 5 |",
            "| `c|d` | e |",
        ] {
            assert_eq!(super::cells_in(row), parsed_cells(row), "{row}");
        }
    }
}
