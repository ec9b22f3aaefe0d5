//! The bundle's print guide: print at 100 % (with a 50 mm bar to measure), on which
//! paper, which page ranges single- and which double-sided, how to cut and fold, and how
//! to put the box together.

use super::cover::{para, text, Component, Kind};
use super::markdown::Block;
use super::markdown::Span;
use crate::layout::Paper;
use crate::phrases::Words;

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

/// Room kept for the gutter fold's drawing, in mm.
pub const FOLD_HEIGHT: f32 = 40.0;
/// The drawing's width, in mm: three panels side by side.
pub const FOLD_WIDTH: f32 = 170.0;

/// How to make a gutter-fold page, drawn in three panels in the order it is done: fold
/// the page on its dashed line (fronts on one half, their backs mirrored on the other),
/// glue the blank insides, cut through both layers; each captioned in `words`. Drawn over
/// the guide's second `Space`, after the fold's step.
pub fn fold_drawing(words: &Words) -> String {
    let escape = crate::render::canvas::escape_xml;
    const GREY: &str = "#5a5a5a";
    let card = |x: f32, y: f32, label: &str, fill: &str| {
        format!(
            r#"<rect x="{x}" y="{y}" width="7" height="10" fill="{fill}" stroke="black" stroke-width="0.2"/><text x="{}" y="{}" font-family="Noto Sans" font-size="2.6" text-anchor="middle">{label}</text>"#,
            x + 3.5,
            y + 6.2
        )
    };
    let mut svg = String::new();
    // 1. A landscape page folded down its middle: fronts left, backs mirrored right, the
    // right half turned over onto the back of the left (the arrow).
    svg.push_str(&format!(
        r#"<rect x="2" y="6" width="44" height="26" fill="white" stroke="black" stroke-width="0.3"/><path d="M24 4V34" stroke="{GREY}" stroke-width="0.35" stroke-dasharray="1.5 1"/>"#
    ));
    for (i, (front, back)) in [("F1", "B1"), ("F2", "B2")].iter().enumerate() {
        let x = 6.0 + 9.0 * i as f32;
        svg.push_str(&card(x, 14.0, front, "#fff3c4"));
        svg.push_str(&card(48.0 - x - 7.0 - 0.0, 14.0, back, "#d6e4f5"));
    }
    svg.push_str(r#"<path d="M40 12C36 0 14 0 10 11" fill="none" stroke="black" stroke-width="0.35"/><path d="M10 11l-1.6-2.6l3.1 0.5z" fill="black"/>"#);
    // 2. Edge on: the two halves opened like a V at the fold, glue (dots) on the blank
    // insides, the printed sides (F and B) out.
    let (vx, vy) = (82.0, 32.0);
    svg.push_str(&format!(
        r#"<path d="M{l} 6L{vx} {vy}L{r} 6" fill="none" stroke="black" stroke-width="0.5"/>"#,
        l = vx - 14.0,
        r = vx + 14.0
    ));
    for k in 1..8 {
        let t = k as f32 / 8.0;
        let (dy, dx) = ((vy - 6.0) * t, 14.0 * t);
        for side in [-1.0f32, 1.0] {
            let (x, y) = (vx + side * (14.0 - dx) - side * 1.1, 6.0 + dy);
            svg.push_str(&format!(r##"<circle cx="{x:.2}" cy="{y:.2}" r="0.5" fill="#c9a227"/>"##));
        }
    }
    svg.push_str(&format!(
        r#"<text x="{}" y="20" font-family="Noto Sans" font-size="3" text-anchor="end">F</text><text x="{}" y="20" font-family="Noto Sans" font-size="3">B</text>"#,
        vx - 11.0,
        vx + 11.0,
    ));
    // Arrows from each panel to the next: the order it is done in.
    for x in [50.0f32, 106.0] {
        svg.push_str(&format!(
            r#"<path d="M{x} 19H{}" stroke="black" stroke-width="0.35"/><path d="M{} 19l-2-1.2v2.4z" fill="black"/>"#,
            x + 8.0,
            x + 10.0
        ));
    }
    // 3. The glued half: its cards cut out along the crop marks, through both layers.
    svg.push_str(r#"<rect x="120" y="6" width="22" height="26" fill="white" stroke="black" stroke-width="0.3"/>"#);
    for i in 0..2 {
        let x = 123.0 + 9.0 * i as f32;
        svg.push_str(&card(x, 14.0, &format!("F{}", i + 1), "#fff3c4"));
    }
    svg.push_str(
        r##"<path d="M123 11V30M130 11V30M132 11V30M139 11V30M121 14H141M121 24H141" stroke="#c62828" stroke-width="0.25" stroke-dasharray="1 0.8"/>"##,
    );
    // The captions, each under its panel, broken to its width (two lines at most: a unit
    // test holds every language's words to it).
    for (i, key) in FOLD_CAPTIONS.iter().enumerate() {
        let x = 2.0 + 58.0 * i as f32;
        for (j, line) in caption_lines(&words.get(key)).iter().take(2).enumerate() {
            svg.push_str(&format!(
                r#"<text x="{x}" y="{}" font-family="Noto Sans" font-size="2.4">{}</text>"#,
                35.5 + 3.0 * j as f32,
                escape(line)
            ));
        }
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{FOLD_WIDTH}mm" height="{FOLD_HEIGHT}mm" viewBox="0 0 {FOLD_WIDTH} {FOLD_HEIGHT}">{svg}</svg>"#
    )
}

/// The fold drawing's captions, one a panel.
const FOLD_CAPTIONS: [&str; 3] = ["fold_drawing_fold", "fold_drawing_glue", "fold_drawing_cut"];

/// A caption of the fold drawing broken into lines its panel's width (an average Noto
/// Sans letter at 2.4 mm is under 0.47 em wide).
fn caption_lines(caption: &str) -> Vec<String> {
    let measure = |line: &str| line.chars().count() as f32 * 2.4 * 0.47;
    crate::layout::marks::wrap(caption, 55.0, measure)
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
        if step == "step_gutter_fold" {
            // (The guide's second space: `pnp` draws `fold_drawing` over it.)
            out.push(Block::Space(FOLD_HEIGHT));
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_s_fold_captions_fit_their_two_lines() {
        for lang in Words::languages() {
            let words = Words::of(Some(lang)).unwrap();
            for key in FOLD_CAPTIONS {
                let lines = caption_lines(&words.get(key));
                assert!(lines.len() <= 2, "{lang} {key}: {lines:?}");
            }
        }
    }
}
