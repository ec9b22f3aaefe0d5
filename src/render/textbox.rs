//! `textbox(...)`, the template function for free text: wraps it to a width and shrinks it
//! to fit a height, measured with the real fonts, and writes `<text>`/`<tspan>` lines.
//! Text that cannot fit, even at its smallest size, is reported (the caller turns it into
//! a warning naming the card); nothing is clipped in silence.
//!
//! ```jinja
//! {{ textbox(card.rules, x=60, y=600, width=510, height=200, size=34, min_size=24,
//!            align="center", weight="bold", fill=style.ink) }}
//! ```
//!
//! The text may carry `**bold**` and `*italic*` and explicit line breaks (a newline in the
//! cell, or `\n`). Units are the template's own (its viewBox).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use minijinja::value::{Kwargs, Value};
use usvg::fontdb::{Database, Family, Query, Stretch, Style, Weight};

/// Line height as a multiple of the font size, unless `line_height` says otherwise.
const LINE_HEIGHT: f32 = 1.2;
/// How much the size shrinks per try when the text does not fit.
const SHRINK_STEP: f32 = 0.5;
/// The largest font size, box side or position a textbox takes, in the template's units:
/// far past any page, and small enough that a shrink step still changes an f32.
const MAX_UNITS: f32 = 100_000.0;
/// Sizes tried at most between `size` and `min_size`: the layout is bounded work.
const MAX_SHRINK_STEPS: f32 = 2_000.0;
/// Measured widths can be a little short of usvg's (kerning, rounding): keep this slack.
const WIDTH_SLACK: f32 = 0.98;

/// A text box whose text did not fit: what the caller reports.
#[derive(Debug, Clone)]
pub struct Overflow {
    pub text: String,
    pub message: String,
}

/// (bold, italic, character) → advance in ems, of one family.
type Advances = rustc_hash::FxHashMap<(bool, bool, char), f32>;

/// Glyph advances of the faces a template uses, measured once per character.
pub struct Metrics {
    db: Arc<Database>,
    /// family → (bold, italic, char) → advance in ems: looked up by the family's name,
    /// without making a key for each character measured.
    advances: Mutex<HashMap<String, Advances>>,
}

impl Metrics {
    pub fn new(db: Arc<Database>) -> Self {
        Self { db, advances: Mutex::default() }
    }

    /// Width of `text` in ems in the given face, characters it lacks measured in the
    /// first face that has them (as usvg falls back when drawing). The cache is locked
    /// once for the text, not once per character (every card's text boxes and every
    /// page's slug are measured).
    pub fn width(&self, family: &str, bold: bool, italic: bool, text: &str) -> f32 {
        let mut advances = self.advances.lock().unwrap_or_else(|p| p.into_inner());
        if !advances.contains_key(family) {
            advances.insert(family.to_string(), Default::default());
        }
        let Some(known) = advances.get_mut(family) else { return 0.0 };
        text.chars()
            .map(|c| {
                *known
                    .entry((bold, italic, c))
                    .or_insert_with(|| self.advance(family, bold, italic, c))
            })
            .sum()
    }

    /// One character's advance, measured.
    fn advance(&self, family: &str, bold: bool, italic: bool, c: char) -> f32 {
        let query = Query {
            families: &[Family::Name(family), Family::SansSerif],
            weight: if bold { Weight::BOLD } else { Weight::NORMAL },
            stretch: Stretch::Normal,
            style: if italic { Style::Italic } else { Style::Normal },
        };
        let measure = |id| {
            self.db
                .with_face_data(id, |data, index| {
                    ttf_parser::Face::parse(data, index).ok().and_then(|f| {
                        Some(
                            f.glyph_hor_advance(f.glyph_index(c)?)? as f32
                                / f.units_per_em() as f32,
                        )
                    })
                })
                .flatten()
        };
        self.db
            .query(&query)
            .and_then(measure)
            .or_else(|| self.db.faces().find_map(|f| measure(f.id)))
            .unwrap_or(0.5)
    }
}

/// One stretch of text in one style.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    text: String,
    bold: bool,
    italic: bool,
    /// An inline icon (`{coin}`) instead of text: its file and width over height.
    icon: Option<(String, f32)>,
}

/// An icon's height in ems: about the height of a capital, so it sits on the baseline
/// like a letter.
const ICON_EM: f32 = 0.75;

impl Run {
    fn text(text: String, bold: bool, italic: bool) -> Run {
        Run { text, bold, italic, icon: None }
    }
}

/// Rich text as plain text, for programs that show no markup: the `**` and `*` markers
/// dropped and each icon by its name (`Gain 2 {coin}.` → `Gain 2 coin.`). Text whose
/// markup does not parse is returned as it is.
pub fn plain_text(text: &str, icons: &[crate::model::Icon]) -> String {
    let Ok(paragraphs) = parse_markup(text, icons) else { return text.to_string() };
    let icon_name =
        |href: &str| icons.iter().find(|i| i.href == href).map_or("", |i| i.name.as_str());
    let line = |runs: &Vec<Run>| {
        runs.iter()
            .map(|r| r.icon.as_ref().map_or(r.text.as_str(), |(href, _)| icon_name(href)))
            .collect::<String>()
    };
    paragraphs.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// `**bold**`, `*italic*` and line breaks → paragraphs of runs. An unclosed marker is an
/// error naming it.
fn parse_markup(text: &str, icons: &[crate::model::Icon]) -> Result<Vec<Vec<Run>>, String> {
    let text = text.replace("\\n", "\n").replace("\r\n", "\n");
    let mut paragraphs = Vec::new();
    let (mut bold, mut italic) = (false, false);
    for line in text.split('\n') {
        let mut runs: Vec<Run> = Vec::new();
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '{' {
                // `{coin}`: an icon declared in [icons]; anything else is text.
                let name: String = chars.clone().take_while(|c| *c != '}').collect();
                if let Some(icon) = icons
                    .iter()
                    .find(|i| i.name == name)
                    .filter(|_| chars.clone().nth(name.chars().count()) == Some('}'))
                {
                    if !current.is_empty() {
                        runs.push(Run::text(std::mem::take(&mut current), bold, italic));
                    }
                    runs.push(Run {
                        icon: Some((icon.href.clone(), icon.aspect)),
                        ..Run::text(String::new(), bold, italic)
                    });
                    for _ in 0..=name.chars().count() {
                        chars.next();
                    }
                    continue;
                }
                if !name.is_empty()
                    && crate::model::is_icon_name(&name)
                    && chars.clone().nth(name.chars().count()) == Some('}')
                {
                    return Err(format!("`{{{name}}}` is no icon of this game; declare it under [icons] in game.toml"));
                }
                current.push(c);
            } else if c == '*' {
                if !current.is_empty() {
                    runs.push(Run::text(std::mem::take(&mut current), bold, italic));
                }
                if chars.peek() == Some(&'*') {
                    chars.next();
                    bold = !bold;
                } else {
                    italic = !italic;
                }
            } else {
                current.push(c);
            }
        }
        if !current.is_empty() {
            runs.push(Run::text(current, bold, italic));
        }
        paragraphs.push(runs);
    }
    match (bold, italic) {
        (true, _) => Err("a `**` opens bold text that is never closed".to_string()),
        (_, true) => Err("a `*` opens italic text that is never closed".to_string()),
        _ => Ok(paragraphs),
    }
}

/// A word as it is measured and placed: its runs (a word can change style inside).
type Word = Vec<Run>;

/// Paragraph runs → words (split on spaces, keeping styles).
fn words(paragraph: &[Run]) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    let mut current: Word = Vec::new();
    for run in paragraph {
        if run.icon.is_some() {
            current.push(run.clone());
            continue;
        }
        for (i, piece) in run.text.split(' ').enumerate() {
            // A space ends the word so far.
            if i > 0 && !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            if !piece.is_empty() {
                current.push(Run { text: piece.to_string(), ..run.clone() });
            }
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// The box's settings, from the template's keyword arguments.
struct BoxStyle {
    x: f32,
    y: f32,
    width: f32,
    height: Option<f32>,
    size: f32,
    min_size: f32,
    line_height: f32,
    align: String,
    valign: String,
    family: String,
    bold: bool,
    italic: bool,
    fill: String,
}

impl BoxStyle {
    fn from(kwargs: &Kwargs) -> Result<Self, minijinja::Error> {
        let size: f32 = kwargs.get("size")?;
        let style = BoxStyle {
            x: kwargs.get("x")?,
            y: kwargs.get("y")?,
            width: kwargs.get("width")?,
            height: kwargs.get("height")?,
            size,
            min_size: kwargs.get::<Option<f32>>("min_size")?.unwrap_or(size),
            line_height: kwargs.get::<Option<f32>>("line_height")?.unwrap_or(LINE_HEIGHT),
            align: kwargs.get::<Option<String>>("align")?.unwrap_or_else(|| "start".to_string()),
            valign: kwargs.get::<Option<String>>("valign")?.unwrap_or_else(|| "top".to_string()),
            family: kwargs
                .get::<Option<String>>("family")?
                .unwrap_or_else(|| crate::fonts::DEFAULT_FAMILY.to_string()),
            bold: kwargs
                .get::<Option<String>>("weight")?
                .is_some_and(|w| w == "bold" || w.parse::<u16>().is_ok_and(|n| n >= 600)),
            italic: kwargs.get::<Option<String>>("style")?.is_some_and(|s| s == "italic"),
            fill: kwargs.get::<Option<String>>("fill")?.unwrap_or_else(|| "black".to_string()),
        };
        kwargs.assert_all_used()?;
        let invalid = |m: String| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, m);
        if !(style.width > 0.0
            && style.size > 0.0
            && style.min_size > 0.0
            && style.min_size <= style.size)
        {
            return Err(invalid("textbox needs width > 0 and 0 < min_size ≤ size".to_string()));
        }
        let numbers = [
            ("x", style.x),
            ("y", style.y),
            ("width", style.width),
            ("height", style.height.unwrap_or(0.0)),
            ("size", style.size),
            ("line_height", style.line_height),
        ];
        if let Some((name, v)) = numbers.iter().find(|(_, v)| !v.is_finite() || v.abs() > MAX_UNITS)
        {
            return Err(invalid(format!(
                "textbox {name}={v} is beyond any page: give it a number between -{MAX_UNITS} and {MAX_UNITS}"
            )));
        }
        if (style.size - style.min_size) / SHRINK_STEP > MAX_SHRINK_STEPS {
            return Err(invalid(format!(
                "textbox would try more than {MAX_SHRINK_STEPS} sizes from size={} down to min_size={} in steps of {SHRINK_STEP}: give a min_size closer to size",
                style.size, style.min_size
            )));
        }
        if !["start", "center", "end", "left", "middle", "right"].contains(&style.align.as_str()) {
            return Err(invalid(format!(
                "textbox align `{}`: use start, center or end",
                style.align
            )));
        }
        if !["top", "middle", "bottom"].contains(&style.valign.as_str()) {
            return Err(invalid(format!(
                "textbox valign `{}`: use top, middle or bottom",
                style.valign
            )));
        }
        Ok(style)
    }
}

/// Greedy line breaking: the words (by their widths) on each line no wider than `width`,
/// with `space` between words; a word wider than a line has a line of its own, and no
/// words make one empty line. Card text and the rulebook are wrapped the same way.
pub fn wrap(widths: &[f32], space: f32, width: f32) -> Vec<std::ops::Range<usize>> {
    let mut lines = Vec::new();
    let (mut start, mut used) = (0, 0.0);
    for (i, &w) in widths.iter().enumerate() {
        let needed = if i == start { w } else { used + space + w };
        if needed > width && i > start {
            lines.push(start..i);
            start = i;
            used = w;
        } else {
            used = needed;
        }
    }
    lines.push(start..widths.len());
    lines
}

/// Lays `text` out in the box: the largest size from `size` down to `min_size` at which it
/// fits, as SVG, and an overflow when it fits at none.
pub fn layout(
    metrics: &Metrics,
    icons: &[crate::model::Icon],
    text: &str,
    kwargs: &Kwargs,
) -> Result<(String, Option<Overflow>), minijinja::Error> {
    let style = BoxStyle::from(kwargs)?;
    let paragraphs = parse_markup(text, icons).map_err(|m| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!("in the text \"{}\": {m}", short(text)),
        )
    })?;
    let paragraphs: Vec<Vec<Word>> = paragraphs.iter().map(|p| words(p)).collect();
    let run_width = |r: &Run| match &r.icon {
        Some((_, aspect)) => aspect * ICON_EM,
        None => {
            metrics.width(&style.family, style.bold || r.bold, style.italic || r.italic, &r.text)
        }
    };
    let width_of = |word: &Word, size: f32| word.iter().map(run_width).sum::<f32>() * size;
    let space = metrics.width(&style.family, style.bold, style.italic, " ");
    let mut size = style.size;
    let (lines, overflow) = loop {
        let mut lines: Vec<Vec<&Word>> = Vec::new();
        let mut too_wide = 0.0f32;
        for paragraph in &paragraphs {
            let widths: Vec<f32> = paragraph.iter().map(|w| width_of(w, size)).collect();
            for w in &widths {
                too_wide = too_wide.max(w - style.width * WIDTH_SLACK);
            }
            for range in wrap(&widths, space * size, style.width * WIDTH_SLACK) {
                lines.push(paragraph[range].iter().collect());
            }
        }
        let tall = lines.len() as f32 * size * style.line_height;
        let too_tall = style.height.map_or(0.0, |h| tall - h);
        if (too_tall <= 0.0 && too_wide <= 0.0) || size - SHRINK_STEP < style.min_size {
            let mut problems = Vec::new();
            if too_wide > 0.0 {
                problems.push(format!("a word is {:.0} units wider than the box", too_wide));
            }
            if too_tall > 0.0 {
                problems.push(format!(
                    "{} lines need {:.0} units, {:.0} more than the box's height",
                    lines.len(),
                    tall,
                    too_tall
                ));
            }
            let overflow = (!problems.is_empty()).then(|| Overflow {
                text: short(text),
                message: format!(
                    "the text does not fit its box even at size {size}: {}",
                    problems.join("; ")
                ),
            });
            break (lines, overflow);
        }
        size -= SHRINK_STEP;
    };
    let space_width = space * size;
    Ok((svg(&style, size, &lines, &|r: &Run| run_width(r) * size, space_width), overflow))
}

fn svg(
    style: &BoxStyle,
    size: f32,
    lines: &[Vec<&Word>],
    width: &dyn Fn(&Run) -> f32,
    space: f32,
) -> String {
    let (anchor, x) = match style.align.as_str() {
        "center" | "middle" => ("middle", style.x + style.width / 2.0),
        "end" | "right" => ("end", style.x + style.width),
        _ => ("start", style.x),
    };
    let step = size * style.line_height;
    let block = lines.len() as f32 * step;
    let top = match (style.valign.as_str(), style.height) {
        ("middle", Some(h)) => style.y + (h - block) / 2.0,
        ("bottom", Some(h)) => style.y + h - block,
        _ => style.y,
    };
    // The first baseline sits one ascent (about 0.8 em for Noto) below the top, with the
    // line's extra leading split above and below.
    let first = top + size * 0.8 + (step - size) / 2.0;
    let mut out = format!(
        r#"<text x="{x:.2}" y="{first:.2}" font-size="{size}" font-family="{}" text-anchor="{anchor}" fill="{}"{}{}>"#,
        super::canvas::escape_xml(&style.family),
        super::canvas::escape_xml(&style.fill),
        if style.bold { r#" font-weight="bold""# } else { "" },
        if style.italic { r#" font-style="italic""# } else { "" },
    );
    let mut icons = String::new();
    for (i, line) in lines.iter().enumerate() {
        let y = first + step * i as f32;
        if line.iter().any(|w| w.iter().any(|r| r.icon.is_some())) {
            // A line with icons is laid out run by run, from measured widths: each text run
            // a tspan at its own x, each icon an image on the baseline, a capital high.
            let total: f32 = line.iter().map(|w| w.iter().map(width).sum::<f32>()).sum::<f32>()
                + space * line.len().saturating_sub(1) as f32;
            let mut at = match anchor {
                "middle" => style.x + (style.width - total) / 2.0,
                "end" => style.x + style.width - total,
                _ => style.x,
            };
            for (j, word) in line.iter().enumerate() {
                if j > 0 {
                    at += space;
                }
                for run in word.iter() {
                    match &run.icon {
                        Some((href, aspect)) => {
                            let h = size * ICON_EM;
                            icons.push_str(&format!(r#"<image href="{}" x="{at:.2}" y="{:.2}" width="{:.2}" height="{h:.2}" preserveAspectRatio="xMidYMid meet"/>"#, super::canvas::escape_xml(href), y - h, h * aspect));
                        }
                        None => {
                            let mut attrs = String::new();
                            if run.bold && !style.bold {
                                attrs.push_str(r#" font-weight="bold""#);
                            }
                            if run.italic && !style.italic {
                                attrs.push_str(r#" font-style="italic""#);
                            }
                            out.push_str(&format!(r#"<tspan x="{at:.2}" y="{y:.2}" text-anchor="start"{attrs}>{}</tspan>"#, super::canvas::escape_xml(&run.text)));
                        }
                    }
                    at += width(run);
                }
            }
            continue;
        }
        out.push_str(&format!(r#"<tspan x="{x:.2}" y="{y:.2}">"#));
        for (j, word) in line.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            for run in word.iter() {
                let mut attrs = String::new();
                if run.bold && !style.bold {
                    attrs.push_str(r#" font-weight="bold""#);
                }
                if run.italic && !style.italic {
                    attrs.push_str(r#" font-style="italic""#);
                }
                if attrs.is_empty() {
                    out.push_str(&super::canvas::escape_xml(&run.text));
                } else {
                    out.push_str(&format!(
                        "<tspan{attrs}>{}</tspan>",
                        super::canvas::escape_xml(&run.text)
                    ));
                }
            }
        }
        out.push_str("</tspan>");
    }
    out.push_str("</text>");
    out.push_str(&icons);
    out
}

/// The first words of a text, for messages.
fn short(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(6).collect();
    let more = if text.split_whitespace().count() > 6 { " …" } else { "" };
    format!("{}{more}", words.join(" "))
}

/// The text a function was given: `none` is empty; undefined (a misspelt name the
/// template check could not see, like `card[key]`) is an error, not an empty box.
fn defined_text(text: &Value) -> Result<String, minijinja::Error> {
    if text.is_undefined() {
        return Err(minijinja::Error::new(
            minijinja::ErrorKind::UndefinedError,
            "the text is undefined: a misspelt name, or a value this card does not have (allow it with `| default('')`)",
        ));
    }
    Ok(if text.is_none() { String::new() } else { text.to_string() })
}

/// The template function, with overflows collected in `overflows` for the caller.
pub fn function(
    metrics: Arc<Metrics>,
    icons: Vec<crate::model::Icon>,
    overflows: Arc<Mutex<Vec<Overflow>>>,
) -> impl Fn(Value, Kwargs) -> Result<Value, minijinja::Error> + Send + Sync + 'static {
    move |text: Value, kwargs: Kwargs| {
        let text = defined_text(&text)?;
        let (svg, overflow) = layout(&metrics, &icons, &text, &kwargs)?;
        if let Some(o) = overflow {
            if let Ok(mut list) = overflows.lock() {
                list.push(o);
            }
        }
        Ok(Value::from_safe_string(svg))
    }
}

/// `text_width(text, size=, weight=, style=, family=)`: the width a text takes on one
/// line, measured with the real fonts, for templates that lay text out themselves.
pub fn width_function(
    metrics: Arc<Metrics>,
) -> impl Fn(Value, Kwargs) -> Result<f32, minijinja::Error> + Send + Sync + 'static {
    move |text: Value, kwargs: Kwargs| {
        let text = defined_text(&text)?;
        let size: f32 = kwargs.get::<Option<f32>>("size")?.unwrap_or(1.0);
        let bold = kwargs
            .get::<Option<String>>("weight")?
            .is_some_and(|w| w == "bold" || w.parse::<u16>().is_ok_and(|n| n >= 600));
        let italic = kwargs.get::<Option<String>>("style")?.is_some_and(|s| s == "italic");
        let family = kwargs
            .get::<Option<String>>("family")?
            .unwrap_or_else(|| crate::fonts::DEFAULT_FAMILY.to_string());
        kwargs.assert_all_used()?;
        Ok(metrics.width(&family, bold, italic, &text) * size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icons_are_runs_of_their_own_and_unknown_ones_are_errors() {
        let coin =
            crate::model::Icon { name: "coin".into(), href: "art/coin.png".into(), aspect: 1.0 };
        let p = parse_markup("Gain 2{coin}. {x y}", std::slice::from_ref(&coin)).unwrap();
        assert_eq!(p[0][1].icon, Some(("art/coin.png".to_string(), 1.0)));
        assert_eq!(words(&p[0])[1].len(), 3, "`2{{coin}}.` is one word of three runs");
        assert!(parse_markup("{cion}", &[coin]).unwrap_err().contains("`{cion}` is no icon"));
    }

    #[test]
    fn plain_text_drops_the_markers_and_names_the_icons() {
        let coin =
            crate::model::Icon { name: "coin".into(), href: "art/coin.png".into(), aspect: 1.0 };
        assert_eq!(
            plain_text("Gain 2 {coin}. **Trash** a *card*.\\nDraw", std::slice::from_ref(&coin)),
            "Gain 2 coin. Trash a card.\nDraw"
        );
        assert_eq!(
            plain_text("an *unclosed marker", &[coin]),
            "an *unclosed marker",
            "text that does not parse stays as it is"
        );
    }

    #[test]
    fn markup_splits_into_styled_runs_and_unclosed_markers_are_errors() {
        let p = parse_markup("Gain 2. **Trash** a *card*.\\nDraw", &[]).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0][1], Run::text("Trash".into(), true, false));
        assert_eq!(p[0][3], Run::text("card".into(), false, true));
        assert!(parse_markup("**open", &[]).unwrap_err().contains("`**`"));
        assert!(parse_markup("*open", &[]).unwrap_err().contains("`*`"));
    }

    #[test]
    fn words_keep_their_styles() {
        let p = parse_markup("a **bold** word", &[]).unwrap();
        let w = words(&p[0]);
        assert_eq!(w.len(), 3);
        assert!(w[1][0].bold && !w[2][0].bold);
    }
}
