//! The resolved catalogue: ids linked, units typed, field values checked against their
//! declarations. Every stage after `load` works on these types and never on raw text.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use crate::diag::Sources;
use crate::length::Length;

/// A whole game as the catalogue describes it.
/// What templates see of how a job prints, as `print`: `print.ink_saver` is true for the
/// variant that leaves out full-bleed backgrounds and dark fills (`--ink-saver`);
/// `print.cmyk` for a press's CMYK files (`--colour cmyk`, a CMYK service), where small
/// text is best in one ink (`fine-text-inks`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PrintVariant {
    pub ink_saver: bool,
    pub cmyk: bool,
}

/// The legibility checks' thresholds (`[check]` in game.toml).
#[derive(Debug, Clone, PartialEq)]
pub struct Legibility {
    /// Text printed smaller than this, in points, after `textbox` shrank it, is a warning.
    pub min_text_pt: f32,
    /// Text smaller than this, in points, printed in more than one ink of a CMYK press is a
    /// warning: the plates never register exactly.
    pub fine_text_pt: f32,
    /// The WCAG contrast text under 14 pt needs against what is drawn under it.
    pub contrast: f32,
    /// The contrast text of 14 pt or more needs.
    pub large_contrast: f32,
    /// Whether values of an enum field told apart by colour alone are looked for.
    pub colour_alone: bool,
    /// Enum fields whose values the designer accepts being told apart by colour and by
    /// words alone (`accept_colour_alone = ["suit"]`): players are meant to read them.
    pub accept_colour_alone: Vec<String>,
}

impl Default for Legibility {
    fn default() -> Self {
        Self {
            min_text_pt: 6.0,
            fine_text_pt: 8.0,
            contrast: 4.5,
            large_contrast: 3.0,
            colour_alone: true,
            accept_colour_alone: Vec::new(),
        }
    }
}

/// The decks and deals of the whole game, kept when only part of it is built (`--only`)
/// so that queries (`count(deck="cards")`, `deals`) answer as for the whole game.
#[derive(Debug)]
pub struct WholeGame {
    pub decks: Vec<Deck>,
    pub deals: Vec<Deal>,
    /// Each sheet's id and rows (a pad's lines, a board's spaces): queries count them too.
    pub sheets: Vec<(String, Vec<Row>)>,
}

/// Whether a string anywhere in a sheet's `data` value asks a query.
fn data_asks_queries(value: &toml::Value) -> bool {
    match value {
        toml::Value::String(text) => asks_queries(text),
        toml::Value::Array(items) => items.iter().any(data_asks_queries),
        toml::Value::Table(table) => table.values().any(data_asks_queries),
        _ => false,
    }
}

/// The words with which a template or a text cell asks the catalogue something.
pub const QUERY_WORDS: &[&str] = &["count(", "cards(", "values(", "sum(", "deals", "decks."];

/// Whether a text asks any query.
pub fn asks_queries(text: &str) -> bool {
    QUERY_WORDS.iter().any(|w| text.contains(w))
}

#[derive(Debug, Clone)]
pub struct Catalogue {
    pub id: String,
    pub name: String,
    pub description: String,
    pub players: Option<(u32, u32)>,
    pub fields: Vec<Field>,
    pub decks: Vec<Deck>,
    /// Boards, score pads, mats: components printed as whole sheets.
    pub sheets: Vec<SheetDef>,
    /// Boxes for the decks (`[[box]]`): a tuck box sized from its deck.
    pub boxes: Vec<BoxDef>,
    pub deals: Vec<Deal>,
    /// Conditions on a deal whose odds `play --odds` measures.
    pub odds: Vec<Odds>,
    pub rules: Vec<Rule>,
    /// Free-form `[style]` table handed to templates (library defaults, then the game's).
    pub style: toml::Table,
    /// Translated labels: language → field → value → label.
    pub lang: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
    /// The path of game.toml as shown in diagnostics.
    pub game_toml: PathBuf,
    /// The catalogue folder: art paths from `file` fields are read from it.
    pub world: crate::world::World,
    /// The catalogue's own font files (`fonts/*.ttf|otf|ttc` and `[game] fonts`).
    pub fonts: Vec<FontFile>,
    /// Icons rich text may show (`{coin}`), by name.
    pub icons: Vec<Icon>,
    /// Templates included or imported by others (`{% include "templates/frame.svg" %}`).
    pub includes: Vec<Template>,
    /// `[game] version`, `author`, `copyright` and `year`: on every template as `game.*`
    /// and in each PDF's metadata.
    pub version: Option<String>,
    pub author: Option<String>,
    pub copyright: Option<String>,
    pub year: Option<u32>,
    /// `[game] playing_time` and `age` (`"20–40 min"`, `"10+"`): on the bundle's cover.
    pub playing_time: Option<String>,
    pub age: Option<String>,
    /// `[game] credits`: lines the cover prints under the author, as the original has them.
    pub credits: Vec<String>,
    /// `[colour]`: what swatches and rich black print as for a press.
    pub colour: PressColours,
    /// Art files already checked (decoded once per run, whoever asks first).
    pub checked: std::sync::Arc<crate::images::Checked>,
    /// Texts of every file read, for diagnostics.
    pub sources: Sources,
    /// The whole game, when only part of it is built and its templates ask queries.
    pub whole: Option<std::sync::Arc<WholeGame>>,
    /// The legibility checks' thresholds (`[check]`).
    pub legibility: Legibility,
}

impl Catalogue {
    /// Every template of the game: the decks' faces and backs, the sheets, the boxes' faces
    /// and the templates they include.
    pub fn templates(&self) -> impl Iterator<Item = &Template> {
        self.decks
            .iter()
            .flat_map(|d| [&d.face, &d.back])
            .chain(self.sheets.iter().map(|s| &s.template))
            .chain(self.boxes.iter().flat_map(|b| b.faces.iter().map(|f| &f.template)))
            .chain(&self.includes)
    }
}

/// A catalogue's press colours, CMYK in percent.
#[derive(Debug, Clone, Default)]
pub struct PressColours {
    /// An sRGB colour the templates use → the exact CMYK it prints as.
    pub swatches: std::collections::HashMap<[u8; 3], [f32; 4]>,
    /// What large pure-black areas print as (text and lines stay black ink alone).
    pub rich_black: Option<[f32; 4]>,
}

/// `#rrggbb` (or `#rgb`) as bytes.
pub fn parse_hex(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    let digits: Vec<u8> =
        hex.chars().map(|c| c.to_digit(16).map(|d| d as u8)).collect::<Option<_>>()?;
    match *digits.as_slice() {
        [r, g, b] => Some([r * 17, g * 17, b * 17]),
        [r1, r2, g1, g2, b1, b2] => Some([r1 * 16 + r2, g1 * 16 + g2, b1 * 16 + b2]),
        _ => None,
    }
}

/// An icon for rich text: its file (relative to the catalogue) and its shape.
#[derive(Debug, Clone)]
pub struct Icon {
    pub name: String,
    pub href: String,
    /// Width over height.
    pub aspect: f32,
}

/// A font file the catalogue brings, and the families it holds.
#[derive(Debug, Clone)]
pub struct FontFile {
    pub file: PathBuf,
    pub data: std::sync::Arc<Vec<u8>>,
    pub families: Vec<String>,
}

/// Whether `{name}` in card text names an icon: letters of any script, digits, `-` and
/// `_` (`{coin}`, `{münze}`, `{монета}`); anything else in braces is text.
pub fn is_icon_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub kind: FieldKind,
    pub optional: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    Text,
    Integer,
    /// A path to an art file inside the catalogue folder (`kind = "file"` or `"image"`).
    File,
    /// One of the listed values, in the order the designer gave them.
    Enum(Vec<String>),
}

/// Cards sharing a size, a back and a rows file.
#[derive(Debug, Clone)]
pub struct Deck {
    pub id: String,
    pub name: String,
    pub width: Length,
    pub height: Length,
    pub rows: Vec<Row>,
    pub rows_file: PathBuf,
    pub face: Template,
    pub back: Template,
    /// Outline of each piece: cards are rectangles, tokens may be round or hexagonal.
    pub shape: Shape,
    /// Radius of a rectangular piece's corners; zero for square corners.
    pub corner: Length,
    /// Space between pieces on the sheet; with a gap every piece gets its own cut guide.
    pub gap: Length,
    /// Art beyond the cut on every side, so a slightly-off cut shows art, not paper.
    /// Templates draw on a canvas this much larger than the card on every side.
    pub bleed: Length,
    /// Whether the back template is filled per card (tokens with two different sides)
    /// or once for the whole deck.
    pub back_per_card: bool,
    /// The field that names each card (`name_field`, or `name` or `title` when the deck
    /// has one); `None`: cards are named by their id.
    pub name_field: Option<String>,
    /// A sheet of labels (`[[sheet]] labels = …`): one label per row copy, placed where
    /// the product's template says, on its own paper; no backs, no crop marks.
    pub labels: Option<crate::labels::Layout>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Rect,
    Circle,
    /// A regular hexagon filling the piece's width and height (the height follows from
    /// the width: the loader checks it).
    Hex(HexTop),
}

/// Which way a hex tile lies: an edge on top (`flat`) or a corner on top (`pointy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HexTop {
    Flat,
    Pointy,
}

impl HexTop {
    /// Height over width of a regular hexagon lying this way.
    pub fn aspect(self) -> f32 {
        match self {
            HexTop::Flat => 3f32.sqrt() / 2.0,
            HexTop::Pointy => 2.0 / 3f32.sqrt(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            HexTop::Flat => "flat",
            HexTop::Pointy => "pointy",
        }
    }
}

/// A component printed as a whole sheet: a board, a score pad, a mat, a rules summary.
#[derive(Debug, Clone)]
pub struct SheetDef {
    pub id: String,
    pub name: String,
    pub size: SheetSize,
    pub template: Template,
    /// Items the template draws and rules can count (board spaces, pad lines).
    pub rows: Vec<Row>,
    pub rows_file: PathBuf,
    /// Free-form `data` table handed to the template.
    pub data: toml::Table,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SheetSize {
    /// The paper being printed on, portrait or landscape.
    Page { landscape: bool },
    /// A fixed physical size (a board): printed on a large sheet or tiled on small pages.
    Fixed { width: Length, height: Length },
}

/// Rows that rules can count: a deck's cards or a sheet's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collection {
    Deck(usize),
    Sheet(usize),
}

impl Catalogue {
    /// Whether any template, text cell or sheet `data` text asks a query.
    pub fn asks_queries(&self) -> bool {
        let text_fields: Vec<&str> = self
            .fields
            .iter()
            .filter(|f| f.kind == FieldKind::Text)
            .map(|f| f.name.as_str())
            .collect();
        let rows =
            self.decks.iter().flat_map(|d| &d.rows).chain(self.sheets.iter().flat_map(|s| &s.rows));
        self.templates().any(|t| asks_queries(&t.text))
            || rows.into_iter().any(|r| text_fields.iter().any(|f| asks_queries(r.value(f))))
            || self.sheets.iter().any(|s| s.data.values().any(data_asks_queries))
    }

    /// The rows queries answer from, by deck or sheet id: every deck's, then every
    /// sheet's (a pad's lines, a board's spaces); the whole game's, also under `--only`.
    pub fn queried_rows(&self) -> Vec<(&str, &[Row])> {
        let (decks, _) = self.queried();
        let sheets: Vec<(&str, &[Row])> = match &self.whole {
            Some(whole) => whole.sheets.iter().map(|(id, rows)| (id.as_str(), &rows[..])).collect(),
            None => self.sheets.iter().map(|s| (s.id.as_str(), &s.rows[..])).collect(),
        };
        decks.iter().map(|d| (d.id.as_str(), &d.rows[..])).chain(sheets).collect()
    }

    /// The decks and deals queries answer from: the whole game's, also under `--only`.
    pub fn queried(&self) -> (&[Deck], &[Deal]) {
        match &self.whole {
            Some(whole) => (&whole.decks, &whole.deals),
            None => (&self.decks, &self.deals),
        }
    }

    /// A translation from the game's own tables (`[lang.de.game] name = "…"`).
    fn translated(&self, lang: Option<&str>, table: &str, key: &str) -> Option<&str> {
        self.lang.get(lang?)?.get(table)?.get(key).map(String::as_str)
    }

    /// Whether the catalogue translates into `lang` (no language asked is fine).
    pub fn check_lang(&self, lang: Option<&str>) -> Result<(), String> {
        match lang {
            Some(lang) if !self.lang.contains_key(lang) => {
                let known: Vec<&String> = self.lang.keys().collect();
                Err(format!(
                    "{} has no labels for language `{lang}`; it has: {}",
                    self.id,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        crate::diag::accepted(known)
                    }
                ))
            }
            _ => Ok(()),
        }
    }

    /// The game's name in `lang` (`[lang.LANG.game] name`), or as written.
    pub fn name_in(&self, lang: Option<&str>) -> &str {
        self.translated(lang, "game", "name").unwrap_or(&self.name)
    }

    /// The game's description in `lang` (`[lang.LANG.game] description`), or as written.
    pub fn description_in(&self, lang: Option<&str>) -> &str {
        self.translated(lang, "game", "description").unwrap_or(&self.description)
    }

    /// A deck's name in `lang` (`[lang.LANG.names] DECK = "…"`), or as written.
    pub fn deck_name_in(&self, deck: usize, lang: Option<&str>) -> &str {
        let d = &self.decks[deck];
        self.translated(lang, "names", &d.id).unwrap_or(&d.name)
    }

    /// A sheet's name in `lang` (`[lang.LANG.names] SHEET = "…"`), or as written.
    pub fn sheet_name_in(&self, sheet: usize, lang: Option<&str>) -> &str {
        let s = &self.sheets[sheet];
        self.translated(lang, "names", &s.id).unwrap_or(&s.name)
    }

    /// A box's name in `lang` (`[lang.LANG.names] BOX = "…"`), or as written.
    pub fn box_name_in(&self, b: usize, lang: Option<&str>) -> &str {
        let b = &self.boxes[b];
        self.translated(lang, "names", &b.id).unwrap_or(&b.name)
    }

    /// The rows of a collection and the file they come from.
    pub fn rows_of(&self, c: Collection) -> (&[Row], &std::path::Path) {
        match c {
            Collection::Deck(d) => (&self.decks[d].rows, &self.decks[d].rows_file),
            Collection::Sheet(s) => (&self.sheets[s].rows, &self.sheets[s].rows_file),
        }
    }

    pub fn collection_id(&self, c: Collection) -> &str {
        match c {
            Collection::Deck(d) => &self.decks[d].id,
            Collection::Sheet(s) => &self.sheets[s].id,
        }
    }
}

impl Deck {
    /// Number of physical cards: the rows' quantities added up.
    pub fn card_count(&self) -> u32 {
        self.rows.iter().map(|r| r.qty).sum()
    }
}

/// What to draw in a slot: a face or back of a deck row, or a whole sheet component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArtRef {
    Face {
        deck: usize,
        row: usize,
    },
    /// `row` is 0 for a deck whose back is shared by every card.
    Back {
        deck: usize,
        row: usize,
    },
    Sheet {
        sheet: usize,
    },
    /// A face of box `b`: its index in the box's `faces`.
    BoxFace {
        b: usize,
        face: usize,
    },
}

/// Where the PDF and PNG writers get the tree of each piece: a batch at a time
/// (`render::LazyArt`), so that memory does not grow with the deck. Defined here, beside
/// `ArtRef`, so that `export` reads art without importing `render`.
pub trait ArtSource {
    /// Makes sure the trees of `refs` are at hand.
    fn prepare(&mut self, refs: &[ArtRef]);
    /// The tree of a piece prepared before; `None` where it could not be drawn (the
    /// problem is reported by the source).
    fn tree(&self, _art: ArtRef) -> Option<&usvg::Tree> {
        None
    }
    /// The same, to keep after `release` (the PDF writer draws on another thread).
    fn shared(&self, _art: ArtRef) -> Option<Arc<usvg::Tree>> {
        None
    }
    /// Lets go of the trees prepared so far.
    fn release(&mut self) {}
    /// A text cell as pieces print it: filled when it is written as a template
    /// (`{{ count(…) }}`); `None` when it is not one, or filling failed (reported there).
    fn cell_text(&self, _deck: usize, _row: usize, _field: &str) -> Option<String> {
        None
    }
}

/// No art at all: pages that draw only marks (the duplex calibration sheet).
pub struct NoArt;

impl ArtSource for NoArt {
    fn prepare(&mut self, _: &[ArtRef]) {}
}

/// A box for a deck, sized from it: its inside is the deck plus the clearance.
#[derive(Debug, Clone)]
pub struct BoxDef {
    pub id: String,
    pub name: String,
    /// The deck it holds, as templates see it (`deck.*`).
    pub deck_id: String,
    pub deck_name: String,
    pub card: (Length, Length),
    pub cards: u32,
    pub style: BoxStyle,
    /// The inside: across the front, up the front, and front to back (the deck's thickness).
    pub inside: (Length, Length, Length),
    /// The faces printed, each with its template (front, back, side, top, bottom).
    pub faces: Vec<BoxFace>,
    /// Art past each face's folds and cuts, so an off fold or cut shows art, not paper.
    pub bleed: Length,
    /// The `[[box]]` table in game.toml, for diagnostics.
    pub span: Range<usize>,
}

/// How a box is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxStyle {
    /// One piece: a reverse tuck end box.
    Tuck,
    /// Two pieces: a base holding the deck and a lid sliding over it.
    Telescope,
}

impl BoxStyle {
    pub fn name(self) -> &'static str {
        match self {
            BoxStyle::Tuck => "tuck",
            BoxStyle::Telescope => "telescope",
        }
    }
}

/// Which face of a box a template prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaceKind {
    Front,
    Back,
    /// Both sides, the left one first.
    Side,
    Top,
    Bottom,
}

impl FaceKind {
    pub fn name(self) -> &'static str {
        match self {
            FaceKind::Front => "front",
            FaceKind::Back => "back",
            FaceKind::Side => "side",
            FaceKind::Top => "top",
            FaceKind::Bottom => "bottom",
        }
    }
}

/// One face of a box: which, and its template.
#[derive(Debug, Clone)]
pub struct BoxFace {
    pub kind: FaceKind,
    pub template: Template,
}

/// Every physical piece of `rows`, in file order: each row (with its index) once per
/// copy. Quantities are exploded here and nowhere else.
pub fn copies(rows: &[Row]) -> impl Iterator<Item = (usize, &Row)> {
    rows.iter().enumerate().flat_map(|(i, row)| std::iter::repeat_n((i, row), row.qty as usize))
}

/// One line of a rows file; `qty` identical cards.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    pub qty: u32,
    pub values: Values,
    /// Byte span of each cell in the rows file, by column name, for diagnostics.
    pub spans: Spans,
    /// Byte span of the whole line.
    pub span: Range<usize>,
}

impl Row {
    pub fn value(&self, field: &str) -> &str {
        self.values.get(field).unwrap_or("")
    }
}

/// A row's cells by column name, as a vector sorted by name: a row has a handful of
/// cells, and a `BTreeMap` allocates a node of eleven entries for each map, a kilobyte per
/// row that a 100,000-card deck holds for the whole build. The names are shared with the
/// header (`Arc<str>`): a name allocated per cell was a fifth of a row.
#[derive(Debug, Clone, PartialEq)]
pub struct Cells<V>(Vec<(Arc<str>, V)>);

impl<V> Default for Cells<V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<V> Cells<V> {
    /// No cells, with room for `n` without growing.
    pub fn with_capacity(n: usize) -> Self {
        Self(Vec::with_capacity(n))
    }

    pub fn get(&self, name: &str) -> Option<&V> {
        self.0.binary_search_by(|(n, _)| (**n).cmp(name)).ok().map(|i| &self.0[i].1)
    }

    /// Sets the cell `name`, replacing its value if it has one.
    pub fn insert(&mut self, name: impl Into<Arc<str>>, value: V) {
        let name = name.into();
        match self.0.binary_search_by(|(n, _)| n.cmp(&name)) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (name, value)),
        }
    }

    /// The cells in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(n, v)| (&**n, v))
    }
}

/// A row's values by column name, packed: each cell's name (the header's, shared) and where
/// its value ends in one string, in name order. A 100,000-card deck holds its rows for the
/// whole build, and a `String` and a vector entry per cell were most of a row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values {
    cells: Box<[(Arc<str>, usize)]>,
    text: Box<str>,
}

impl Values {
    pub fn get(&self, name: &str) -> Option<&str> {
        let i = self.cells.binary_search_by(|(n, _)| (**n).cmp(name)).ok()?;
        Some(self.value(i))
    }

    fn value(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.cells[i - 1].1 };
        &self.text[start..self.cells[i].1]
    }

    /// Sets the cell `name`, replacing its value if it has one.
    pub fn insert(&mut self, name: impl Into<Arc<str>>, value: String) {
        let mut cells = Cells::with_capacity(self.cells.len() + 1);
        for (i, (n, _)) in self.cells.iter().enumerate() {
            cells.insert(n.clone(), self.value(i).to_string());
        }
        cells.insert(name, value);
        *self = Values::from(cells);
    }

    /// The cells in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.cells.iter().enumerate().map(|(i, (n, _))| (&**n, self.value(i)))
    }
}

impl From<Cells<String>> for Values {
    fn from(cells: Cells<String>) -> Values {
        let mut text = String::with_capacity(cells.0.iter().map(|(_, v)| v.len()).sum());
        let cells = cells
            .0
            .into_iter()
            .map(|(name, value)| {
                text.push_str(&value);
                (name, text.len())
            })
            .collect();
        Values { cells, text: text.into_boxed_str() }
    }
}

/// Where each cell of a row is in its rows file, by column name: the header's names,
/// shared by every row, and each cell's start and length in header order. A span past
/// 4 GiB is not kept (its diagnostics point at no cell).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spans {
    names: Arc<[Arc<str>]>,
    cells: Box<[(u32, u32)]>,
}

impl Spans {
    /// The spans of the first cells of a row with the columns `names`.
    pub fn new(names: Arc<[Arc<str>]>, cells: impl IntoIterator<Item = Range<usize>>) -> Spans {
        let small = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let cells = cells.into_iter().map(|r| (small(r.start), small(r.len()))).collect();
        Spans { names, cells }
    }

    pub fn get(&self, name: &str) -> Option<Range<usize>> {
        // The last cell of that name, as for values.
        let i = self.names.iter().take(self.cells.len()).rposition(|n| &**n == name)?;
        let (start, len) = self.cells[i];
        (start != u32::MAX && len != u32::MAX)
            .then(|| start as usize..start as usize + len as usize)
    }
}

/// An SVG template as read from disk; filled per card by the `render` stage.
#[derive(Debug, Clone)]
pub struct Template {
    pub file: PathBuf,
    pub text: String,
    /// The folder its art files and includes are read from (the catalogue, or the
    /// shared template's own folder).
    pub world: crate::world::World,
    /// Its path relative to that folder: the name other templates include it by.
    pub name: String,
}

#[derive(Debug, Clone)]
pub struct Deal {
    pub players: u32,
    pub hand: u32,
    pub table: u32,
    pub deck: usize,
    pub span: Range<usize>,
}

/// A condition on a deal (`[[odds]]`): at least (or exactly) `min` cards of the dealt
/// deck `deck` that `cards` picks, in one starting hand or on the table.
#[derive(Debug, Clone)]
pub struct Odds {
    pub name: String,
    pub deck: usize,
    pub cards: Selection,
    pub min: u32,
    /// `exactly`: no more than `min` either.
    pub exact: bool,
    pub place: DealtTo,
    /// Span of the `[[odds]]` table in game.toml.
    pub span: Range<usize>,
}

/// Where a deal puts cards: a player's hand or face up on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DealtTo {
    Hand,
    Table,
}

/// A composition rule, data from game.toml.
#[derive(Debug, Clone)]
pub struct Rule {
    pub name: String,
    /// What the rule counts: its `deck` (a deck or sheet id), or every deck.
    pub scope: Selection,
    pub check: Check,
    /// Span of the `[[rule]]` table in game.toml.
    pub span: Range<usize>,
}

/// Rows picked from some collections by a condition.
#[derive(Debug, Clone)]
pub struct Selection {
    pub collections: Vec<Collection>,
    pub filter: Condition,
    pub unless: Condition,
}

impl Selection {
    pub fn includes(&self, row: &Row) -> bool {
        matches(&self.filter, row) && (self.unless.is_empty() || !matches(&self.unless, row))
    }
}

/// Field → accepted values; a card matches when every listed field has one of its values.
pub type Condition = Vec<(String, Vec<String>)>;

pub fn matches(condition: &Condition, row: &Row) -> bool {
    condition.iter().all(|(field, values)| values.iter().any(|v| v == row.value(field)))
}

#[derive(Debug, Clone)]
pub enum Check {
    /// The number of matching cards (per value of `each`, when given) lies in `min..=max`.
    Count { each: Option<String>, min: Option<u32>, max: Option<u32> },
    /// No two matching cards share all these field values.
    Unique(Vec<String>),
    /// Every matching card has these values.
    Require(Condition),
    /// These selections hold as many pieces as the rule's own scope.
    Equal(Vec<Selection>),
    /// The field's values are whole numbers `start, start + 1, …` with no gap or repeat
    /// (in each group of cards sharing a value of `each`, when given).
    Sequence { each: Option<String>, field: String, start: i64 },
}

#[cfg(test)]
mod tests {
    use super::Cells;

    #[test]
    fn cells_are_found_by_name_and_replaced_in_place() {
        let mut cells = Cells::default();
        for (name, value) in [("title", "Dawn"), ("suit", "Sun"), ("value", "1"), ("suit", "Moon")]
        {
            cells.insert(name.to_string(), value.to_string());
        }
        assert_eq!(cells.get("suit").map(String::as_str), Some("Moon"));
        assert_eq!(cells.get("mark"), None);
        let names: Vec<&str> = cells.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["suit", "title", "value"], "in name order, as the BTreeMap iterated");
    }
}
