//! The bundle's cover: the game's name, what it is, for how many players, what the file
//! holds (counted from the data) and a card's face and back as they print.

use super::markdown::{Block, Span};
use crate::model::Catalogue;
use crate::phrases::Words;

/// Room kept on the cover for the card pictures, in mm.
pub const PICTURE_HEIGHT: f32 = 62.0;

/// One component of the bundle, as the cover and the guide list it.
pub struct Component {
    pub title: String,
    /// "62 cards", "1 sheet": how many pieces it is, from the data.
    pub count: String,
    /// The bundle's pages it takes, 1-based.
    pub first_page: usize,
    pub pages: usize,
    /// "long" or "short" when its pages are printed on both sides (flip edge).
    pub duplex: Option<&'static str>,
    pub kind: Kind,
    /// A blank page goes before it, so that a double-sided part starts on a front (an odd
    /// page) when the whole file is printed double-sided.
    pub blank_before: bool,
    /// Gutter-fold sheets: printed single-sided, folded along their dashed line, glued, cut.
    pub folded: bool,
}

/// What a component is, for how the guide says to cut it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Cards,
    Labels,
    Sheet,
    Tiled,
    Box,
}

/// Plain text as a span; `**…**` in it is bold.
pub fn text(line: &str) -> Vec<Span> {
    line.split("**")
        .enumerate()
        .filter(|(_, t)| !t.is_empty())
        .map(|(i, t)| Span {
            text: t.to_string(),
            bold: i % 2 == 1,
            italic: false,
            code: false,
            icon: None,
        })
        .collect()
}

pub fn para(line: &str) -> Block {
    Block::Para { spans: text(line), indent: 0, marker: None, quote: false }
}

/// The cover's blocks, in `lang` and `words`; the card pictures go in its `Space`.
pub fn blocks(
    cat: &Catalogue,
    (lang, words): (Option<&str>, &Words),
    components: &[Component],
    separate: &[Separate],
) -> Vec<Block> {
    let mut out = vec![
        Block::Heading { level: 1, spans: text(cat.name_in(lang)) },
        Block::Para {
            spans: text(cat.description_in(lang))
                .into_iter()
                .map(|s| Span { italic: true, ..s })
                .collect(),
            indent: 0,
            marker: None,
            quote: false,
        },
    ];
    let mut facts = Vec::new();
    if let Some((min, max)) = cat.players {
        // "2–4 players" agrees with its last number.
        let shown = match min == max {
            true => format!("{min}"),
            false => format!("{min}–{max}"),
        };
        facts.push(words.count("players", u64::from(max), &shown, &[]));
    }
    if let Some(time) = &cat.playing_time {
        facts.push(format!("**{time}**"));
    }
    if let Some(age) = &cat.age {
        facts.push(words.with("ages", &[("age", age)]));
    }
    if let Some(v) = &cat.version {
        facts.push(words.with("version", &[("version", v)]));
    }
    match (&cat.author, cat.year) {
        (Some(a), Some(y)) => {
            facts.push(words.with("copyright", &[("year", &y.to_string()), ("author", a)]))
        }
        (Some(a), None) => facts.push(words.with("by", &[("author", a)])),
        _ => {}
    }
    if !facts.is_empty() {
        out.push(para(&facts.join(" · ")));
    }
    for line in &cat.credits {
        out.push(para(line));
    }
    out.push(Block::Space(PICTURE_HEIGHT));
    out.push(Block::Heading { level: 2, spans: text(&words.get("in_this_file")) });
    let head = vec![
        text(&words.get("component")),
        text(&words.get("how_many")),
        text(&words.get("pages")),
    ];
    let rows = components
        .iter()
        .map(|c| {
            let pages = match c.pages {
                1 => format!("{}", c.first_page),
                n => format!("{}–{}", c.first_page, c.first_page + n - 1),
            };
            vec![text(&c.title), text(&c.count), text(&pages)]
        })
        .collect();
    out.push(Block::Table { head, rows });
    if !separate.is_empty() {
        out.push(Block::Heading { level: 2, spans: text(&words.get("printed_separately")) });
        out.push(Block::Table {
            head: vec![
                text(&words.get("component")),
                text(&words.get("how_many")),
                text(&words.get("paper")),
            ],
            rows: separate
                .iter()
                .map(|s| vec![text(&s.title), text(&s.count), text(&s.paper.to_uppercase())])
                .collect(),
        });
    }
    out
}

/// A component ready to embed: what the cover and guide say of it, and its PDF.
pub struct Part {
    pub component: Component,
    /// The decks, sheet or box whose names it prints.
    pub ids: Vec<String>,
    /// The deck of cards or the sheet it prints, for measuring its ink (`None`: stickers
    /// and boxes, not measured).
    pub source: Option<Source>,
    /// The area of its pages, in mm².
    pub page_area_mm2: f32,
    pub(super) pdf: std::sync::Arc<krilla::pdf::Pdf>,
}

/// What a part prints: a deck or a sheet of the catalogue, by index.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    Deck(usize),
    Sheet(usize),
}

/// A part of the game printed apart from the bundle: on another paper.
pub struct Separate {
    pub title: String,
    /// The decks, sheet or box whose names it prints.
    pub ids: Vec<String>,
    pub count: String,
    /// The paper it is printed on (`a4`, a label product's paper, `a3`).
    pub paper: String,
    /// The command that makes it.
    pub command: String,
}
