//! The bundle's print guide: print at 100 % (with a 50 mm bar to measure), on which
//! paper, which page ranges single- and which double-sided, how to cut and fold, and how
//! to put the box together.

use super::cover::{para, text, Component, Kind};
use super::markdown::Block;
use super::markdown::Span;
use super::words::Words;
use crate::layout::Paper;

/// Room kept for the scale bar, in mm.
pub const BAR_HEIGHT: f32 = 14.0;

/// The scale bar: 50 mm in 5 mm steps, with its caption in `words`; drawn over the
/// guide's `Space`.
pub fn scale_bar(words: &Words) -> String {
    let escape = crate::render::canvas::escape_xml;
    let (length, measure) = (escape(&words.get("bar_length")), escape(&words.get("bar_measure")));
    let mut ticks = String::new();
    for i in 0..=10 {
        let x = 5.0 * i as f32;
        let h = if i % 5 == 0 { 4.0 } else { 2.5 };
        ticks.push_str(&format!(r#"<path d="M{x} 2v{h}" stroke="black" stroke-width="0.25"/>"#));
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="80mm" height="{BAR_HEIGHT}mm" viewBox="0 0 80 {BAR_HEIGHT}"><rect x="0" y="2" width="50" height="1.2" fill="black"/>{ticks}<text x="0" y="10.5" font-family="Noto Sans" font-size="3">0</text><text x="50" y="10.5" font-family="Noto Sans" font-size="3" text-anchor="middle">{length}</text><text x="55" y="4.2" font-family="Noto Sans" font-size="2.8">{measure}</text></svg>"#
    )
}

/// What the guide says of ink: both variants' coverage and which this file is.
pub struct Ink {
    pub coverage: super::ink::Coverage,
    pub ink_saver: bool,
}

/// The guide's blocks, in `words`: the bar goes in its `Space`.
pub fn blocks(
    (words, paper): (&Words, Paper),
    (own_pages, last_page): (usize, usize),
    rules: Option<(usize, usize)>,
    components: &[Component],
    separate: &[super::cover::Separate],
    ink: Option<&Ink>,
    variant: crate::model::PrintVariant,
) -> Vec<Block> {
    let w = |key: &str| words.get(key);
    let mut out = vec![
        Block::Heading { level: 1, spans: text(&w("how_to_print")) },
        para(&w("actual_size")),
        Block::Space(BAR_HEIGHT),
        para(&w(match paper {
            Paper::A4 => "paper_a4",
            Paper::Letter => "paper_letter",
            Paper::Universal => "paper_universal",
        })),
        Block::Heading { level: 2, spans: text(&w("what_to_print")) },
    ];
    let range = |first: usize, pages: usize| match pages {
        1 => format!("{first}"),
        n => format!("{first}–{}", first + n - 1),
    };
    let mut rows = vec![vec![
        text(&range(1, own_pages)),
        text(&w("cover_and_guide")),
        text(&w("single_sided_optional")),
    ]];
    if let Some((first, pages)) = rules {
        rows.push(vec![text(&range(first, pages)), text(&w("rules")), text(&w("rules_sides"))]);
    }
    for c in components {
        let how = match c.duplex {
            Some("short") => w("double_sided_short"),
            Some(_) => w("double_sided_long"),
            None if c.folded => w("single_sided_fold"),
            None => w("single_sided"),
        };
        rows.push(vec![text(&range(c.first_page, c.pages)), text(&c.title), text(&how)]);
    }
    let head = vec![text(&w("pages")), text(&w("what")), text(&w("how"))];
    out.push(Block::Table { head, rows });
    if let Some(edge) = components.iter().find_map(|c| c.duplex) {
        let key = if edge == "short" { "whole_file_short" } else { "whole_file_long" };
        out.push(para(&words.with(key, &[("last", &last_page.to_string())])));
    }
    if !separate.is_empty() {
        out.push(Block::Heading { level: 2, spans: text(&w("printed_separately")) });
        out.push(para(&w("separately_why")));
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
        let head = vec![text(&w("what")), text(&w("paper")), text(&w("command"))];
        out.push(Block::Table { head, rows });
    }
    if let Some(ink) = ink {
        out.extend(ink_blocks(ink, words));
    } else if !variant.ink_saver {
        out.push(Block::Heading { level: 2, spans: text(&w("ink")) });
        out.push(para(&w("ink_full_colour_only")));
    }
    out.push(Block::Heading { level: 2, spans: text(&w("cut_and_fold")) });
    let mut steps: Vec<&str> = Vec::new();
    let has = |k: Kind| components.iter().any(|c| c.kind == k);
    if components.iter().any(|c| c.duplex.is_some()) {
        steps.push("step_test_sheet");
    }
    if components.iter().any(|c| c.folded) {
        steps.push("step_gutter_fold");
    }
    if has(Kind::Cards) {
        steps.extend(["step_cut_cards", "step_glue_backs"]);
    }
    if has(Kind::Labels) {
        steps.push("step_stickers");
    }
    if has(Kind::Tiled) {
        steps.push("step_tiled");
    }
    if has(Kind::Sheet) {
        steps.push("step_sheets");
    }
    for step in steps {
        out.push(Block::Para {
            spans: text(&w(step)),
            indent: 1,
            marker: Some("•".into()),
            quote: false,
        });
    }
    if has(Kind::Box) {
        out.push(Block::Heading { level: 2, spans: text(&w("the_box")) });
        for (i, step) in ["box_cut", "box_score", "box_glue", "box_close"].iter().enumerate() {
            out.push(Block::Para {
                spans: text(&w(step)),
                indent: 1,
                marker: Some(format!("{}.", i + 1)),
                quote: false,
            });
        }
    }
    out
}

/// Both variants' ink, as measured, and how to make the other.
fn ink_blocks(ink: &Ink, words: &Words) -> Vec<Block> {
    let percent = |f: f32| (f * 100.0).round() as u32;
    let c = &ink.coverage;
    let this = match ink.ink_saver {
        true => "ink_saver_this",
        false => "ink_full_colour_this",
    };
    // Amounts of ink first, so that a smaller figure is always less ink; then the area any
    // ink touches, one figure where the ink saver's paler colours touch as much (Trumpet's
    // "57 %" and "58 %" read as more ink).
    let ratio = if c.full_ink > 0.0 { c.saver_ink / c.full_ink } else { 1.0 };
    let (full, saver) = (percent(c.full).to_string(), percent(c.saver).to_string());
    let area = match percent(c.saver) < percent(c.full) {
        true => words.with("ink_area_two", &[("full", &full), ("saver", &saver)]),
        false => {
            let both = percent(c.full.max(c.saver)).to_string();
            words.with("ink_area_both", &[("both", &both)])
        }
    };
    let measured = [
        ("full", percent(c.full_ink).to_string()),
        ("saver", percent(c.saver_ink).to_string()),
        ("share", percent(ratio).to_string()),
        ("area", area),
    ];
    let args: Vec<(&str, &str)> = measured.iter().map(|(k, v)| (*k, v.as_str())).collect();
    vec![
        Block::Heading { level: 2, spans: text(&words.get("ink")) },
        para(&words.get(this)),
        para(&words.count("ink_measured", c.pages as u64, &c.pages.to_string(), &args)),
    ]
}
