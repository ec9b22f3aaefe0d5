//! The resolved catalogue: ids linked, units typed, field values checked against their
//! declarations. Every stage after `load` works on these types and never on raw text.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use crate::diag::Sources;
use crate::length::Length;

/// A whole game as the catalogue describes it.
#[derive(Debug, Clone)]
pub struct Catalogue {
    pub id: String,
    pub name: String,
    pub description: String,
    pub players: Option<(u32, u32)>,
    pub fields: Vec<Field>,
    pub decks: Vec<Deck>,
    pub deals: Vec<Deal>,
    pub rules: Vec<Rule>,
    /// Free-form `[style]` table handed to templates (library defaults, then the game's).
    pub style: toml::Table,
    /// Translated labels: language → field → value → label.
    pub lang: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
    /// The manifest's path as shown in diagnostics.
    pub manifest: PathBuf,
    /// Texts of every file read, for diagnostics.
    pub sources: Sources,
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
}

impl Deck {
    /// Number of physical cards: the rows' quantities added up.
    pub fn card_count(&self) -> u32 {
        self.rows.iter().map(|r| r.qty).sum()
    }
}

/// One line of a rows file; `qty` identical cards.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    pub qty: u32,
    pub values: BTreeMap<String, String>,
    /// Byte span of each cell in the rows file, by column name, for diagnostics.
    pub spans: BTreeMap<String, Range<usize>>,
    /// Byte span of the whole line.
    pub span: Range<usize>,
}

impl Row {
    pub fn value(&self, field: &str) -> &str {
        self.values.get(field).map(String::as_str).unwrap_or("")
    }
}

/// An SVG template as read from disk; filled per card by the `render` stage.
#[derive(Debug, Clone)]
pub struct Template {
    pub file: PathBuf,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct Deal {
    pub players: u32,
    pub hand: u32,
    pub table: u32,
    pub deck: usize,
    pub span: Range<usize>,
}

/// A composition rule, data from the manifest.
#[derive(Debug, Clone)]
pub struct Rule {
    pub name: String,
    /// Indices of the decks the rule looks at.
    pub decks: Vec<usize>,
    pub filter: Condition,
    pub unless: Condition,
    pub check: Check,
    /// Span of the `[[rule]]` table in the manifest.
    pub span: Range<usize>,
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
}
