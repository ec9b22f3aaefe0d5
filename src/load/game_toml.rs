//! A catalogue.s `game.toml`, exactly as written: serde types with spans kept so
//! that every later diagnostic can point at the key or value the designer typed.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGameToml {
    pub game: RawGame,
    /// Default card size for every deck of the game.
    #[serde(default)]
    pub card: Option<Spanned<RawCardSize>>,
    /// The columns of the card rows and the values each accepts.
    #[serde(default)]
    pub fields: BTreeMap<Spanned<String>, Spanned<RawField>>,
    #[serde(default)]
    pub deck: Vec<Spanned<RawDeck>>,
    /// Free-form values handed to templates as `style` (colours, symbols, labels).
    #[serde(default)]
    pub style: Option<toml::Table>,
    #[serde(default)]
    pub deal: Vec<Spanned<RawDeal>>,
    #[serde(default)]
    pub sheet: Vec<Spanned<RawSheet>>,
    #[serde(default)]
    pub rule: Vec<Spanned<RawRule>>,
    /// Conditions on a deal whose odds `deckpress play --odds N` measures: `[[odds]]`.
    #[serde(default)]
    pub odds: Vec<Spanned<RawOdds>>,
    /// Boxes for the decks: `[[box]]`.
    #[serde(default, rename = "box")]
    pub boxes: Vec<Spanned<RawBox>>,
    /// Translated labels per language, field and value: `[lang.ru.rank] J = "В"`.
    #[serde(default)]
    pub lang: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
    /// Icons for rich text: `coin = "art/coin.png"`, printed for `{coin}` by `textbox`.
    #[serde(default)]
    pub icons: BTreeMap<Spanned<String>, Spanned<String>>,
    /// Colour for a press (`--colour cmyk`): swatches and rich black, in CMYK percent.
    #[serde(default)]
    pub colour: Option<RawColour>,
    /// The legibility checks, tuned: `[check] min_text_pt = 6`.
    #[serde(default)]
    pub check: Option<RawCheck>,
}

/// `[check]`: the legibility thresholds of `validate`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCheck {
    #[serde(default)]
    pub min_text_pt: Option<Spanned<f32>>,
    #[serde(default)]
    pub fine_text_pt: Option<Spanned<f32>>,
    #[serde(default)]
    pub contrast: Option<Spanned<f32>>,
    #[serde(default)]
    pub large_contrast: Option<Spanned<f32>>,
    #[serde(default)]
    pub colour_alone: Option<bool>,
    /// Enum fields whose values may be told apart by colour and words alone.
    #[serde(default)]
    pub accept_colour_alone: Option<Vec<Spanned<String>>>,
}

/// `[colour]`: `rich_black = [60, 40, 40, 100]` and `[colour.swatches] "#1b1b1b" = [...]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawColour {
    #[serde(default)]
    pub swatches: BTreeMap<Spanned<String>, Spanned<Vec<f32>>>,
    #[serde(default)]
    pub rich_black: Option<Spanned<Vec<f32>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGame {
    pub id: Spanned<String>,
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub players: Option<Spanned<RawPlayers>>,
    /// Font files besides those in `fonts/`, relative to the catalogue.
    #[serde(default)]
    pub fonts: Vec<Spanned<String>>,
    /// Printed in credits lines and written to each PDF's metadata.
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub author: Option<String>,
    #[serde(default)]
    pub copyright: Option<String>,
    #[serde(default)]
    pub year: Option<u32>,
    /// How long a game takes, as the box says it (`"20–40 min"`): printed on the bundle's cover.
    #[serde(default)]
    pub playing_time: Option<String>,
    /// The youngest players it is for (`"10+"`): printed on the bundle's cover.
    #[serde(default)]
    pub age: Option<String>,
    /// Credit lines as the original prints them (a permission, a trademark notice): on
    /// the bundle's cover, and `game.credits` for the rulebook.
    #[serde(default)]
    pub credits: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlayers {
    pub min: u32,
    pub max: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCardSize {
    /// A named size (`poker`, `bridge`, `tarot`, `mini`), or `width` and `height`.
    #[serde(default)]
    pub size: Option<Spanned<String>>,
    #[serde(default)]
    pub width: Option<Spanned<String>>,
    #[serde(default)]
    pub height: Option<Spanned<String>>,
    /// `landscape = true` turns a named size on its side.
    #[serde(default)]
    pub landscape: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawField {
    /// `text` (anything), `integer`, or `enum` (one of `values`). With `values`, `enum` is implied.
    #[serde(default)]
    pub kind: Option<Spanned<String>>,
    #[serde(default)]
    pub values: Option<Vec<String>>,
    /// Whether a row may leave the cell empty.
    #[serde(default)]
    pub optional: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDeck {
    pub id: Spanned<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// A deck from the shared library (`library/NAME/deck.toml`) instead of own files.
    #[serde(default)]
    pub from: Option<Spanned<String>>,
    /// CSV file of card rows, relative to the catalogue folder (or the library deck's).
    #[serde(default)]
    pub rows: Option<Spanned<String>>,
    /// A sheet published on the web whose rows `deckpress fetch` downloads into `rows`.
    #[serde(default)]
    pub rows_url: Option<Spanned<String>>,
    /// SVG templates, relative to the catalogue folder (or the library deck's).
    #[serde(default)]
    pub face: Option<Spanned<String>>,
    #[serde(default)]
    pub back: Option<Spanned<String>>,
    #[serde(default)]
    pub card: Option<Spanned<RawCardSize>>,
    /// Keep only the rows matching this condition (the library deck's jokers never match).
    #[serde(default, rename = "where")]
    pub filter: Condition,
    /// Leave out the rows matching this condition.
    #[serde(default)]
    pub unless: Condition,
    /// How many times the (filtered) rows are repeated: "three standard decks".
    #[serde(default)]
    pub copies: Option<Spanned<u32>>,
    /// A short mark per copy, printed on the cards (field `mark`) to sort decks apart.
    #[serde(default)]
    pub marks: Option<Spanned<Vec<String>>>,
    /// How many jokers of the library deck to add.
    #[serde(default)]
    pub jokers: Option<Spanned<u32>>,
    /// `rect` (default), `circle` (round tokens get circular cut guides) or `hex`.
    #[serde(default)]
    pub shape: Option<Spanned<String>>,
    /// A hex tile's orientation: `flat` (default: an edge on top) or `pointy`.
    #[serde(default)]
    pub hex: Option<Spanned<String>>,
    /// Radius of a rect piece's rounded corners, e.g. `"3mm"`.
    #[serde(default)]
    pub corner: Option<Spanned<String>>,
    /// Space between pieces, e.g. `"4mm"`; each piece then gets its own cut guide.
    #[serde(default)]
    pub gap: Option<Spanned<String>>,
    /// Art beyond the cut on every side, `"3mm"` by default, `"0mm"` for none.
    #[serde(default)]
    pub bleed: Option<Spanned<String>>,
    /// `shared` (default: one back for the deck) or `per-card` (the back template sees `card`).
    #[serde(default)]
    pub backs: Option<Spanned<String>>,
    /// The field that names each card where a program shows names (Tabletop Simulator);
    /// by default `name` or `title` when the deck has one, else the card's id.
    #[serde(default)]
    pub name_field: Option<Spanned<String>>,
    /// The declared fields this deck's rows file must have; all of them when omitted.
    #[serde(default)]
    pub fields: Option<Vec<Spanned<String>>>,
    /// What separates the cells of the rows file: `,` (default), `;` or `"\t"`.
    #[serde(default)]
    pub delimiter: Option<Spanned<String>>,
    /// The sheet of a spreadsheet `rows` file (`.xlsx`, `.ods`) to read; the first one
    /// when absent.
    #[serde(default, rename = "sheet")]
    pub sheet_name: Option<Spanned<String>>,
}

/// A component printed as a whole sheet: a board, a score pad, a mat.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSheet {
    pub id: Spanned<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// The SVG template, relative to the catalogue folder.
    #[serde(default)]
    pub template: Option<Spanned<String>>,
    /// A general sheet template from the library instead: `library/NAME/template.svg`.
    #[serde(default)]
    pub from: Option<Spanned<String>>,
    /// `portrait` or `landscape` page of the paper printed on, or a fixed `width`/`height`.
    #[serde(default)]
    pub page: Option<Spanned<String>>,
    #[serde(default)]
    pub width: Option<Spanned<String>>,
    #[serde(default)]
    pub height: Option<Spanned<String>>,
    /// Items the template draws and rules can count (CSV).
    #[serde(default)]
    pub rows: Option<Spanned<String>>,
    /// A sheet published on the web whose rows `deckpress fetch` downloads into `rows`.
    #[serde(default)]
    pub rows_url: Option<Spanned<String>>,
    /// The declared fields the rows file must have; all of them when omitted.
    #[serde(default)]
    pub fields: Option<Vec<Spanned<String>>>,
    /// What separates the cells of the rows file: `,` (default), `;` or `"\t"`.
    #[serde(default)]
    pub delimiter: Option<Spanned<String>>,
    /// The sheet of a spreadsheet `rows` file (`.xlsx`, `.ods`) to read; the first one
    /// when absent.
    #[serde(default, rename = "sheet")]
    pub sheet_name: Option<Spanned<String>>,
    /// Free-form values handed to the template as `data`.
    #[serde(default)]
    pub data: Option<toml::Table>,
    /// A sheet of labels or stickers: a product of the table (`"avery-l7160"`) or the
    /// designer's own sheet as a table; each row copy fills one label with `face`.
    #[serde(default)]
    pub labels: Option<Spanned<RawLabels>>,
    /// The template of one label (it sees `card.*`, as a deck's face does).
    #[serde(default)]
    pub face: Option<Spanned<String>>,
}

/// `labels = "avery-5160"` or `labels = { paper = "a4", width = "25mm", … }`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawLabels {
    Named(String),
    Own(RawOwnLabels),
}

/// A label sheet of the designer's own, measured from the maker's template.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOwnLabels {
    /// `a4` or `letter`.
    pub paper: String,
    pub width: String,
    pub height: String,
    /// `rect` (default) or `round`.
    #[serde(default)]
    pub shape: Option<String>,
    /// A rect label's corner radius.
    #[serde(default)]
    pub corner: Option<String>,
    pub columns: u32,
    pub rows: u32,
    /// From the paper's left and top edges to the first label.
    pub left: String,
    pub top: String,
    /// From one label's left (top) edge to the next; the label's width (height) when omitted.
    #[serde(default)]
    pub across: Option<String>,
    #[serde(default)]
    pub down: Option<String>,
}

/// Pieces picked by a condition, for rules that compare collections.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSelection {
    #[serde(default)]
    pub deck: Option<Spanned<String>>,
    #[serde(default, rename = "where")]
    pub filter: Condition,
    #[serde(default)]
    pub unless: Condition,
}

/// `library/NAME/deck.toml`: a deck defined once and used by many games.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLibraryDeck {
    pub name: String,
    /// The deck's cards; omitted by decks that bring only templates (the game gives rows).
    #[serde(default)]
    pub rows: Option<Spanned<String>>,
    pub face: Spanned<String>,
    pub back: Spanned<String>,
    #[serde(default)]
    pub card: Option<Spanned<RawCardSize>>,
    #[serde(default)]
    pub fields: BTreeMap<Spanned<String>, Spanned<RawField>>,
    /// Which rows are jokers: left out unless a game asks for them with `jokers = N`.
    #[serde(default)]
    pub jokers: Condition,
    /// Defaults for the game's `[style]`; the game's own keys win.
    #[serde(default)]
    pub style: Option<toml::Table>,
    /// Translated labels, `[lang.ru.rank] J = "В"`; a game's own `[lang]` adds to them.
    #[serde(default)]
    pub lang: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDeal {
    pub players: u32,
    /// Cards dealt to each player.
    pub hand: u32,
    /// Cards dealt face up to the table.
    #[serde(default)]
    pub table: u32,
    /// Which deck is dealt; the first deck when omitted.
    #[serde(default)]
    pub deck: Option<Spanned<String>>,
}

/// A single value or a list of accepted values in a `where` condition. Numbers are
/// values as the rows write them (`cost = [2, 3]`); anything else is an error that says so,
/// not serde's "did not match any variant".
#[derive(Debug, Clone)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(v) => vec![v],
            OneOrMany::Many(v) => v,
        }
    }
}

/// What a rule's value may be, for the error about anything else.
const RULE_VALUE: &str =
    "a text or a number (`suit = \"Red\"`, `cost = 2`), or a list of them (`cost = [2, 3]`)";

/// One value of a condition: a text or a number, as a cell holds it.
struct Scalar(String);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor { list: false }).and_then(|v| match v {
            OneOrMany::One(v) => Ok(Scalar(v)),
            OneOrMany::Many(_) => Err(serde::de::Error::custom(format!(
                "a list inside a list: each value of a rule is {RULE_VALUE}"
            ))),
        })
    }
}

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor { list: true })
    }
}

struct ValueVisitor {
    list: bool,
}

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = OneOrMany;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(RULE_VALUE)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OneOrMany, E> {
        Ok(OneOrMany::One(v.to_string()))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<OneOrMany, E> {
        Ok(OneOrMany::One(v.to_string()))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<OneOrMany, E> {
        Ok(OneOrMany::One(v.to_string()))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<OneOrMany, E> {
        Ok(OneOrMany::One(v.to_string()))
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<OneOrMany, E> {
        Err(E::custom(format!(
            "`{v}` is not a value a card can have: a rule's value is {RULE_VALUE}"
        )))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, _: A) -> Result<OneOrMany, A::Error> {
        Err(serde::de::Error::custom(format!(
            "a table is not a value a card can have: a rule's value is {RULE_VALUE}"
        )))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<OneOrMany, A::Error> {
        if !self.list {
            return Err(serde::de::Error::custom(format!(
                "a list inside a list: each value of a rule is {RULE_VALUE}"
            )));
        }
        let mut values = Vec::new();
        while let Some(Scalar(v)) = seq.next_element()? {
            values.push(v);
        }
        Ok(OneOrMany::Many(values))
    }
}

pub type Condition = BTreeMap<Spanned<String>, Spanned<OneOrMany>>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRule {
    /// The rule in plain words, shown when it fails.
    pub name: String,
    /// Restrict the rule to one deck or sheet; all decks when omitted.
    #[serde(default)]
    pub deck: Option<Spanned<String>>,
    /// Only cards whose fields have these values (a list means any of them).
    #[serde(default, rename = "where")]
    pub filter: Condition,
    /// Leave out cards whose fields have these values.
    #[serde(default)]
    pub unless: Condition,
    /// Check the count (or the sequence) separately for each value of this field.
    #[serde(default)]
    pub each: Option<Spanned<String>>,
    #[serde(default)]
    pub count: Option<u32>,
    #[serde(default)]
    pub at_least: Option<u32>,
    #[serde(default)]
    pub at_most: Option<u32>,
    /// No two cards share the same values of these fields.
    #[serde(default)]
    pub unique: Option<Vec<Spanned<String>>>,
    /// Every matching card has these field values.
    #[serde(default)]
    pub require: Option<Condition>,
    /// Other selections that must hold as many pieces as this rule's own.
    #[serde(default)]
    pub equal: Option<Vec<Spanned<RawSelection>>>,
    /// A field whose values must run `start, start + 1, …` without gaps or repeats.
    #[serde(default)]
    pub sequence: Option<Spanned<String>>,
    /// First value of a `sequence`; 1 when omitted.
    #[serde(default)]
    pub start: Option<i64>,
}

/// `[[odds]]`: a condition on the cards a deal gives, named by the designer: how many
/// cards matching `where` (and not `unless`) of a dealt deck are in a hand or on the table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOdds {
    /// The condition in plain words, the odds table's row.
    pub name: String,
    /// The dealt deck whose cards are counted; the first deck when omitted.
    #[serde(default)]
    pub deck: Option<Spanned<String>>,
    #[serde(default, rename = "where")]
    pub filter: Condition,
    #[serde(default)]
    pub unless: Condition,
    #[serde(default)]
    pub at_least: Option<u32>,
    #[serde(default)]
    pub exactly: Option<u32>,
    /// Where the cards are counted: `"hand"` (a player's starting hand) or `"table"`.
    #[serde(default, rename = "in")]
    pub place: Option<Spanned<String>>,
}

/// `[[box]]`: a tuck box for a deck, sized from its cards.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBox {
    pub id: Spanned<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// The deck it holds.
    pub deck: Spanned<String>,
    /// `tuck` (the default): a one-piece reverse tuck end box.
    #[serde(default)]
    pub style: Option<Spanned<String>>,
    /// One card's thickness, `"0.32mm"` by default, or a named stock.
    #[serde(default)]
    pub stock: Option<Spanned<String>>,
    /// Room added to the deck each way, `"1mm"` by default.
    #[serde(default)]
    pub clearance: Option<Spanned<String>>,
    /// Cards in sleeves: the sleeves' size and thickness added.
    #[serde(default)]
    pub sleeved: bool,
    /// How many cards it holds; the deck's count when omitted.
    #[serde(default)]
    pub cards: Option<Spanned<u32>>,
    /// Art past folds and cuts, `"2mm"` by default.
    #[serde(default)]
    pub bleed: Option<Spanned<String>>,
    /// The faces' templates.
    #[serde(default)]
    pub front: Option<Spanned<String>>,
    #[serde(default)]
    pub back: Option<Spanned<String>>,
    #[serde(default)]
    pub side: Option<Spanned<String>>,
    #[serde(default)]
    pub top: Option<Spanned<String>>,
    #[serde(default)]
    pub bottom: Option<Spanned<String>>,
}
