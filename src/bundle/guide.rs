//! The bundle's print guide: print at 100 % (with a 50 mm bar to measure), on which
//! paper, which page ranges single- and which double-sided, how to cut and fold, and how
//! to put the box together.

use super::cover::{para, text, Component, Kind};
use super::markdown::Block;
use super::markdown::Span;
use crate::layout::Paper;

/// Room kept for the scale bar, in mm.
pub const BAR_HEIGHT: f32 = 14.0;

/// The scale bar: 50 mm in 5 mm steps, with its caption; drawn over the guide's `Space`.
pub fn scale_bar() -> String {
    let mut ticks = String::new();
    for i in 0..=10 {
        let x = 5.0 * i as f32;
        let h = if i % 5 == 0 { 4.0 } else { 2.5 };
        ticks.push_str(&format!(r#"<path d="M{x} 2v{h}" stroke="black" stroke-width="0.25"/>"#));
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="80mm" height="{BAR_HEIGHT}mm" viewBox="0 0 80 {BAR_HEIGHT}"><rect x="0" y="2" width="50" height="1.2" fill="black"/>{ticks}<text x="0" y="10.5" font-family="Noto Sans" font-size="3">0</text><text x="50" y="10.5" font-family="Noto Sans" font-size="3" text-anchor="middle">50 mm</text><text x="55" y="4.2" font-family="Noto Sans" font-size="2.8">← measure this</text></svg>"#
    )
}

/// What the guide says of ink: both variants' coverage and which this file is.
pub struct Ink {
    pub coverage: super::ink::Coverage,
    pub ink_saver: bool,
}

/// The guide's blocks: the bar goes in its `Space`.
pub fn blocks(
    paper: Paper,
    (own_pages, last_page): (usize, usize),
    rules: Option<(usize, usize)>,
    components: &[Component],
    separate: &[super::cover::Separate],
    ink: Option<&Ink>,
    variant: crate::model::PrintVariant,
) -> Vec<Block> {
    let mut out = vec![
        Block::Heading { level: 1, spans: text("How to print") },
        para("Print every page at **actual size (100 %)**, never “fit to page” or “shrink to fit”. Measure this bar with a ruler: it must be **50 mm** long; if it is not, the cards will not be the right size."),
        Block::Space(BAR_HEIGHT),
        para(match paper {
            Paper::A4 => "Paper: **A4** (210 × 297 mm), plain 80–120 g/m² for the rules, card stock (160–250 g/m²) for cards, tokens and the box.",
            Paper::Letter => "Paper: **US Letter** (8.5 × 11 in), plain 20–32 lb for the rules, card stock (65–110 lb) for cards, tokens and the box.",
            Paper::Universal => "Paper: **A4 or US Letter**. Every page of this file fits inside 210 × 279.4 mm, the area both share: print at 100 % on either, and nothing is cut off. Card stock (160–250 g/m²) for cards, tokens and the box.",
        }),
        Block::Heading { level: 2, spans: text("What to print") },
    ];
    let range = |first: usize, pages: usize| match pages {
        1 => format!("{first}"),
        n => format!("{first}–{}", first + n - 1),
    };
    let mut rows = vec![vec![
        text(&range(1, own_pages)),
        text("Cover and this guide"),
        text("single-sided, optional"),
    ]];
    if let Some((first, pages)) = rules {
        rows.push(vec![
            text(&range(first, pages)),
            text("Rules"),
            text("single-sided, or double-sided to save paper"),
        ]);
    }
    for c in components {
        let how = match c.duplex {
            Some(edge) => format!("**double-sided**, flip on the {edge} edge"),
            None if c.folded => "single-sided, then **fold**".to_string(),
            None => "single-sided".to_string(),
        };
        rows.push(vec![text(&range(c.first_page, c.pages)), text(&c.title), text(&how)]);
    }
    out.push(Block::Table { head: vec![text("Pages"), text("What"), text("How")], rows });
    if let Some(edge) = components.iter().find_map(|c| c.duplex) {
        out.push(para(&format!(
            "Either print range by range, as the table says, or print the **whole file** (pages 1–{last_page}) **double-sided, flip on the {edge} edge** in one go: every double-sided part starts on a front, after a page marked “intentionally blank” where needed. The single-sided parts then print on both sides of their sheets: print their ranges on their own if you need them one-sided."
        )));
    }
    if !separate.is_empty() {
        out.push(Block::Heading { level: 2, spans: text("Printed separately") });
        out.push(para("These parts are on another paper than this file's, so they are not in it. Make each with the command beside it:"));
        let rows = separate
            .iter()
            .map(|s| {
                vec![
                    text(&s.title),
                    text(&s.paper.to_uppercase()),
                    vec![Span { code: true, ..text(&s.command).remove(0) }],
                ]
            })
            .collect();
        out.push(Block::Table { head: vec![text("What"), text("Paper"), text("Command")], rows });
    }
    if let Some(ink) = ink {
        out.extend(ink_blocks(ink));
    } else if !variant.ink_saver {
        out.push(Block::Heading { level: 2, spans: text("Ink") });
        out.push(para("This file is in **full colour**. deckpress bundle --ink-saver makes the **ink saver** (backgrounds and dark fills left out), whose guide gives the ink each takes, measured from their pages."));
    }
    out.push(Block::Heading { level: 2, spans: text("Cut and fold") });
    let mut steps: Vec<&str> = Vec::new();
    let has = |k: Kind| components.iter().any(|c| c.kind == k);
    if components.iter().any(|c| c.duplex.is_some()) {
        steps.push("Double-sided pages: print a test sheet first; if the backs sit off their fronts, correct it with deckpress calibrate and --back-offset.");
    }
    if components.iter().any(|c| c.folded) {
        steps.push("Gutter-fold pages (each front beside its own back): print single-sided. Fold each page along its dashed line, printed sides out, so every back lies behind its front; spread glue thinly over the blank insides, right to the edges, press the halves together and let them dry flat under a weight. Then cut through both layers along the crop marks: no duplex printer has to line the sides up.");
    }
    if has(Kind::Cards) {
        steps.push("Cards and tokens: cut along the crop marks at the edges of each sheet, with a craft knife and a steel ruler; the art runs past the cut (bleed), so a cut a little off still looks right.");
        steps.push("If a deck was printed single-sided, glue each back page onto its front, back to back, before cutting.");
    }
    if has(Kind::Labels) {
        steps.push("Stickers: print on label sheets of the product named on their page, at 100 %.");
    }
    if has(Kind::Tiled) {
        steps.push("Tiled boards: trim each tile along its cut line, then glue it over the glue strip of the next, matching the alignment marks; the first page is the map.");
    }
    if has(Kind::Sheet) {
        steps.push("Score pads and player aids: print as many as you need; nothing to cut.");
    }
    for step in steps {
        out.push(Block::Para {
            spans: text(step),
            indent: 1,
            marker: Some("•".into()),
            quote: false,
        });
    }
    if has(Kind::Box) {
        out.push(Block::Heading { level: 2, spans: text("The box") });
        for (i, step) in [
            "Print the box on card stock and cut along its solid outline.",
            "Score the dashed fold lines with a blunt edge (the back of a knife) against a ruler, then fold each one away from the printed side.",
            "Glue the side tab inside the opposite panel, then the bottom flaps; let it dry under a weight.",
            "Tuck the lid into the box to close it.",
        ]
        .iter()
        .enumerate()
        {
            out.push(Block::Para { spans: text(step), indent: 1, marker: Some(format!("{}.", i + 1)), quote: false });
        }
    }
    out
}

/// Both variants' ink, as measured, and how to make the other.
fn ink_blocks(ink: &Ink) -> Vec<Block> {
    let percent = |f: f32| (f * 100.0).round() as u32;
    let c = &ink.coverage;
    let this = match ink.ink_saver {
        true => "This file is the **ink saver**: backgrounds and dark fills left out.",
        false => {
            "This file is in **full colour**; deckpress bundle --ink-saver makes the ink saver."
        }
    };
    // Amounts of ink first, so that a smaller figure is always less ink; then the area any
    // ink touches, one figure where the ink saver's paler colours touch as much (Trumpet's
    // "57 %" and "58 %" read as more ink).
    let ratio = if c.full_ink > 0.0 { c.saver_ink / c.full_ink } else { 1.0 };
    let area = match percent(c.saver) < percent(c.full) {
        true => format!("about {} % and {} %", percent(c.full), percent(c.saver)),
        false => format!("about {} % in both", percent(c.full.max(c.saver))),
    };
    vec![
        Block::Heading { level: 2, spans: text("Ink") },
        para(this),
        para(&format!(
            "Ink on the cards and sheets ({} pages), as a share of solid black: **full colour about {} %, ink saver about {} %**, {} % of its ink; ink touches {area} of each page.",
            c.pages,
            percent(c.full_ink),
            percent(c.saver_ink),
            percent(ratio)
        )),
    ]
}
