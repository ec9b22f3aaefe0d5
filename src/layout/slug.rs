//! The slug: what a home sheet says outside its cards (what is printed, which sheet and
//! side, how to print it) and its scale bar.

use super::{marks, registration, Mark, Rect, Sheet, Side, SLUG_BAND_MM, UNPRINTABLE_MM};

/// Decks of more sheets than this get slugs without sheet numbers (see `slug`).
const MAX_NUMBERED_SHEETS: usize = 100;

/// Writes a slug on each home sheet, outside the cards and their marks and at least
/// 5 mm from the paper's edge: what is printed (`label`), which sheet and side, how it
/// must be printed, and a 50 mm scale bar to check the print was not scaled. Where the
/// margins are all taken by crop marks, the sheet gets none.
pub fn slug(sheets: &mut [Sheet], label: &str, printing: &str, width: &dyn Fn(&str) -> f32) {
    let fronts = sheets.iter().filter(|s| s.side == Side::Front).count();
    let mut n = 0;
    // The slug layers made so far.
    let mut made: Vec<std::sync::Arc<marks::Layer>> = Vec::new();
    let words = SlugWords::default();
    let slug = Slug { label, printing, width, words: &words };
    for sheet in sheets.iter_mut() {
        if sheet.side == Side::Front {
            n += 1;
        }
        slug_sheet(sheet, n, fronts, &slug, &mut made);
    }
}

/// What the printer's marks say, in the edition's language (the bundle's words,
/// `slug_*`): `{n}`, `{total}`, `{side}` and `{printing}` are filled in here.
#[derive(Debug, Clone, PartialEq)]
pub struct SlugWords {
    /// Which sheet and side: `sheet {n} of {total}, {side}`.
    pub sheet_of: String,
    /// A deck of too many sheets to number: `{total} sheets, {side}`.
    pub sheets: String,
    pub front: String,
    pub back: String,
    /// How to print: `{printing} · print at 100 % …`.
    pub how: String,
    /// The gutter fold's line: how to fold, glue and cut.
    pub fold: String,
}

impl Default for SlugWords {
    fn default() -> Self {
        SlugWords {
            sheet_of: "sheet {n} of {total}, {side}".into(),
            sheets: "{total} sheets, {side}".into(),
            front: "front".into(),
            back: "back".into(),
            how: "{printing} · print at 100 % (actual size), not fit to page · the bar is 50 mm"
                .into(),
            fold: "fold here, printed sides out · glue the blank insides · cut through both".into(),
        }
    }
}

/// How wide a slug's text is, in ems of the bundled sans the PDF draws it in: measured by
/// the caller, which has the fonts (`render::textbox::Metrics`).
pub type SlugWidth = std::sync::Arc<dyn Fn(&str) -> f32 + Send + Sync>;

/// What a slug says, and how wide its text is.
pub(super) struct Slug<'a> {
    pub(super) label: &'a str,
    pub(super) printing: &'a str,
    pub(super) width: &'a dyn Fn(&str) -> f32,
    pub(super) words: &'a SlugWords,
}

/// The slug's first line in a column `room` mm wide: the label with the sheet's number
/// (`which`) at the right when both fit at the slug's size, after the label otherwise, in
/// smaller type when that is what fits; at the smallest, the label shortened with "…".
struct FirstLine {
    text: String,
    /// Whether `which` is left to be drawn at the right.
    apart: bool,
    size: f32,
    shortened: bool,
}

fn first_line(label: &str, which: &str, room: f32, width: &dyn Fn(&str) -> f32) -> FirstLine {
    const SIZES_MM: [f32; 3] = [1.5, 1.25, 1.0];
    let fits = |text: &str, size: f32| width(text) * size <= room;
    if fits(&format!("{label}   {which}"), SIZES_MM[0]) {
        return FirstLine {
            text: label.to_string(),
            apart: true,
            size: SIZES_MM[0],
            shortened: false,
        };
    }
    let joined = format!("{label} · {which}");
    if let Some(&size) = SIZES_MM.iter().find(|&&size| fits(&joined, size)) {
        return FirstLine { text: joined, apart: false, size, shortened: false };
    }
    // The longest start of the label that fits, found by halving (a label is a stranger's
    // text, of any length).
    let size = SIZES_MM[2];
    let ends: Vec<usize> =
        label.char_indices().map(|(i, _)| i).chain(std::iter::once(label.len())).collect();
    let cut = |keep: usize| format!("{}… · {which}", label[..ends[keep]].trim_end());
    let (mut lo, mut hi) = (0, ends.len() - 1);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if fits(&cut(mid), size) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    FirstLine { text: cut(lo), apart: false, size, shortened: true }
}

/// `slug` on one sheet: front sheet `n` of `fronts` (or its back), with the layers `made` so
/// far for the others. Returns whether the label was shortened to fit.
pub(super) fn slug_sheet(
    sheet: &mut Sheet,
    n: usize,
    fronts: usize,
    slug: &Slug,
    made: &mut Vec<std::sync::Arc<marks::Layer>>,
) -> bool {
    if let Some(baseline) = baseline(sheet) {
        return slug_at(sheet, baseline, n, fronts, slug, made);
    }
    // A page whose top and bottom margins are taken (cards on a landscape page): the slug
    // along its right margin, reading upwards, as if the page were turned back (the
    // registration marks' corners are not known to it there).
    let turned = Sheet {
        width: sheet.height,
        height: sheet.width,
        trim: Rect {
            x: sheet.height - sheet.trim.y - sheet.trim.h,
            y: sheet.trim.x,
            w: sheet.trim.h,
            h: sheet.trim.w,
        },
        marks: (sheet.marks.iter())
            .map(|m| Mark { x1: sheet.height - m.y1, y1: m.x1, x2: sheet.height - m.y2, y2: m.x2 })
            .collect(),
        ..Sheet::blank(sheet.height, sheet.width)
    };
    let turned = Sheet { side: sheet.side, bleed: sheet.bleed, ..turned };
    let Some(baseline) = baseline(&turned).filter(|_| !sheet.registration) else { return false };
    let mut turned = turned;
    let shortened = slug_at(&mut turned, baseline, n, fronts, slug, made);
    let h = sheet.height.to_mm();
    sheet.decor =
        (turned.decor.iter()).map(|layer| marks::intern(made, quarter_turned(layer, h))).collect();
    shortened
}

/// A slug's layer drawn on a page turned back a quarter turn, on its page: the turned
/// page's (u, v) is the page's (v, height - u), its text reading upwards.
fn quarter_turned(layer: &marks::Layer, height: f32) -> marks::Layer {
    let at = |(u, v): (f32, f32)| (v, height - u);
    let marks = (layer.marks.iter())
        .map(|mark| match mark {
            marks::PageMark::Line { from, to, width, colour, dash } => marks::PageMark::Line {
                from: at(*from),
                to: at(*to),
                width: *width,
                colour: *colour,
                dash: *dash,
            },
            marks::PageMark::Text(text) => {
                marks::PageMark::Text(marks::Text { at: at(text.at), ..text.clone() }.rotate(-90.0))
            }
            other => other.clone(),
        })
        .collect();
    marks::Layer { marks }
}

const EDGE_MM: f32 = UNPRINTABLE_MM;
const TEXT_MM: f32 = 2.0;

/// The slug's baseline: in the bottom margin when it has room, else the top one.
fn baseline(sheet: &Sheet) -> Option<f32> {
    let h = sheet.height.to_mm();
    let art_top = sheet.trim.y.to_mm() - sheet.bleed.to_mm();
    let art_bottom = (sheet.trim.y + sheet.trim.h).to_mm() + sheet.bleed.to_mm();
    let ys = sheet.marks.iter().flat_map(|m| [m.y1.to_mm(), m.y2.to_mm()]);
    let bottom_used = ys.clone().fold(art_bottom, f32::max);
    let top_used = ys.fold(art_top, f32::min);
    // (A grid leaves the band to the hundredth: its margin is the same sum, added up in
    // another order.)
    let band = SLUG_BAND_MM - 0.01;
    if h - EDGE_MM - bottom_used >= band {
        Some(h - EDGE_MM - 0.3)
    } else if top_used - EDGE_MM >= band {
        Some(EDGE_MM + TEXT_MM + 0.3)
    } else {
        None
    }
}

/// The slug on `sheet` with its baseline at `baseline` mm (see `slug_sheet`).
fn slug_at(
    sheet: &mut Sheet,
    baseline: f32,
    n: usize,
    fronts: usize,
    slug: &Slug,
    made: &mut Vec<std::sync::Arc<marks::Layer>>,
) -> bool {
    let w = sheet.width.to_mm();
    let words = slug.words;
    let side = if sheet.side == Side::Front { &words.front } else { &words.back };
    // Two short lines beside the bar: what, then how to print; which sheet, at the right.
    // Sheet numbers on decks of up to 100 sheets: beyond, every front's slug is the same
    // (and every back's), drawn once as one reusable object instead of a text to lay
    // out on each of thousands of pages.
    let fill = |text: &str| {
        text.replace("{n}", &n.to_string())
            .replace("{total}", &fronts.to_string())
            .replace("{side}", side)
    };
    let which =
        if fronts <= MAX_NUMBERED_SHEETS { fill(&words.sheet_of) } else { fill(&words.sheets) };
    let how = words.how.replace("{printing}", slug.printing);
    // Clear of the bottom-left registration mark, where there is one.
    let beside_mark = if sheet.registration { registration::SLUG_FROM_MM } else { 0.0 };
    let x0 = EDGE_MM.max((w - 170.0) / 2.0).max(beside_mark);
    let x_end = (x0 + 170.0).min(w - EDGE_MM);
    let bar_y = baseline - 0.4;
    let size = TEXT_MM * 0.75;
    let (tx, top) = (x0 + 53.0, baseline - size * 1.15);
    // The sheet number goes at the right of the first line, its own small layer, when
    // the label leaves room for it; a longer label is followed by it on the same line.
    let first = first_line(slug.label, &which, x_end - tx, slug.width);
    let mut bar = marks::Layer::default();
    bar.push(marks::line((x0, bar_y), (x0 + 50.0, bar_y), 0.3, marks::BLACK));
    for i in 0..=5 {
        let x = x0 + i as f32 * 10.0;
        bar.push(marks::line(
            (x, bar_y - if i % 5 == 0 { 1.6 } else { 0.9 }),
            (x, bar_y),
            0.2,
            marks::BLACK,
        ));
    }
    bar.push(marks::Text::new((tx, top), first.size, first.text));
    bar.push(marks::Text::new((tx, baseline), size, how));
    // Identical layers are one value, not one per page.
    let mut intern = |layer: marks::Layer| marks::intern(made, layer);
    sheet.decor = vec![intern(bar)];
    if first.apart {
        let mut number = marks::Layer::default();
        number.push(marks::Text::new((x_end, top), size, which).anchor(marks::Anchor::End));
        sheet.decor.push(intern(number));
    }
    first.shortened
}
