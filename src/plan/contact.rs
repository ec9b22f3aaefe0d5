//! Contact sheets: a deck's card thumbnails in one PNG, each labelled with its id and
//! count, so a designer can check a whole deck at a glance. The labels, title and
//! background are one generated SVG drawn with the bundled fonts; the thumbnails are
//! pixmaps already drawn from the cards' own trees.

use resvg::tiny_skia::{Pixmap, PixmapPaint, Transform};

use crate::export::raster::own_svg;
use crate::render::canvas::escape_xml as escape;

/// One slot of the sheet.
pub struct Cell<'a> {
    pub label: &'a str,
    /// How many copies the deck has (`×N`); `None` for backs.
    pub count: Option<u32>,
    /// `None` when the card could not be drawn: the slot shows a marked placeholder.
    pub thumb: Option<&'a Pixmap>,
}

const MARGIN: u32 = 24;
const GAP: u32 = 16;
const TITLE: u32 = 44;
const LABEL: u32 = 42;
const MAX_COLUMNS: usize = 10;
const FONT: f32 = 14.0;

/// The most characters of a title or label laid out: a name of 100,000 letters (which a
/// PDF holds) made a sheet as wide as itself, 5 GB. A longer one keeps its start and its
/// end (the counts, `sheet 2 of 3`) around an ellipsis.
const MAX_CHARS: usize = 160;

/// `text`, cut in the middle to `MAX_CHARS`.
fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    let count = text.chars().count();
    if count <= MAX_CHARS {
        return text.into();
    }
    let head: String = text.chars().take(MAX_CHARS / 2).collect();
    let tail: String = text.chars().skip(count - (MAX_CHARS / 2 - 1)).collect();
    format!("{head}…{tail}").into()
}

/// The sheet's title as SVG text, at its place.
fn title_text(title: &str) -> String {
    format!(
        r##"<text x="{MARGIN}" y="{}" font-size="20" font-weight="bold" fill="#1d2330">{}</text>"##,
        MARGIN + 22,
        escape(&cut(title))
    )
}

/// Where the title's last glyph ends, in pixels from the left edge, as laid out.
fn title_right(title: &str) -> Result<u32, String> {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1" font-family="Noto Sans">{}</svg>"#,
        title_text(title)
    );
    let right = own_svg(&svg)?.root().abs_bounding_box().right();
    Ok(if right.is_finite() { right.max(0.0).ceil() as u32 } else { 0 })
}

/// Draws the sheet: `cells` in reading order, each thumbnail `thumb` pixels.
pub fn sheet(title: &str, cells: &[Cell], thumb: (u32, u32)) -> Result<Pixmap, String> {
    let (tw, th) = thumb;
    let cols = cells.len().clamp(1, MAX_COLUMNS) as u32;
    let rows = cells.len().div_ceil(MAX_COLUMNS).max(1) as u32;
    // As wide as the title too: a deck of one or two designs under a long name clipped it.
    let width = (2 * MARGIN + cols * tw + (cols - 1) * GAP).max(MARGIN + title_right(title)?);
    let height = MARGIN + TITLE + rows * (th + LABEL) + (rows - 1) * GAP + MARGIN;
    let slot = |i: usize| {
        let (col, row) = ((i % MAX_COLUMNS) as u32, (i / MAX_COLUMNS) as u32);
        (MARGIN + col * (tw + GAP), MARGIN + TITLE + row * (th + LABEL + GAP))
    };

    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Noto Sans"><rect width="{width}" height="{height}" fill="#ebe8e1"/>{}"##,
        title_text(title)
    );
    for (i, cell) in cells.iter().enumerate() {
        let (x, y) = slot(i);
        // A hairline around every card so white cards stand out from the background.
        svg.push_str(&format!(r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#ffffff" stroke="#a8a398" stroke-width="1"/>"##, x as f32 - 0.5, y as f32 - 0.5, tw + 1, th + 1));
        if cell.thumb.is_none() {
            svg.push_str(&format!(
                r##"<path d="M{x} {y} L{} {} M{} {y} L{x} {}" stroke="#c62828" stroke-width="3"/><text x="{}" y="{}" font-size="{FONT}" text-anchor="middle" fill="#c62828" font-weight="bold">not drawn: see the problems</text>"##,
                x + tw,
                y + th,
                x + tw,
                y + th,
                x + tw / 2,
                y + th / 2 - 8,
            ));
        }
        let cx = x + tw / 2;
        svg.push_str(&label(cell.label, cx, y + th + 18, tw, "normal"));
        if let Some(n) = cell.count {
            svg.push_str(&label(&format!("×{n}"), cx, y + th + 36, tw, "bold"));
        }
    }
    svg.push_str("</svg>");

    let mut pixmap = Pixmap::new(width, height).ok_or("the contact sheet is too large")?;
    resvg::render(&own_svg(&svg)?, Transform::identity(), &mut pixmap.as_mut());
    for (i, cell) in cells.iter().enumerate() {
        if let Some(thumb) = cell.thumb {
            let (x, y) = slot(i);
            place(&mut pixmap, thumb, x, y);
        }
    }
    Ok(pixmap)
}

/// Draws `thumb` onto `sheet` with its corner at (`x`, `y`), as `draw_pixmap` does: its
/// opaque rows (most of a card) copied as they are, the others (a rounded card's corners)
/// blended by tiny-skia. Its pipeline took half a sheet's time for what is mostly a copy.
fn place(sheet: &mut Pixmap, thumb: &Pixmap, x: u32, y: u32) {
    let (tw, th) = (thumb.width() as usize, thumb.height() as usize);
    let inside =
        x as usize + tw <= sheet.width() as usize && y as usize + th <= sheet.height() as usize;
    if !inside {
        draw(sheet, thumb.as_ref(), x, y);
        return;
    }
    let stride = sheet.width() as usize * 4;
    let mut band: Option<usize> = None; // the first of the rows not copied yet
    for (r, row) in thumb.data().chunks_exact(tw * 4).enumerate() {
        if !pixels::is_opaque(row) {
            band.get_or_insert(r);
            continue;
        }
        if let Some(first) = band.take() {
            blend_rows(sheet, thumb, first..r, x, y);
        }
        let at = (y as usize + r) * stride + x as usize * 4;
        sheet.data_mut()[at..at + row.len()].copy_from_slice(row);
    }
    if let Some(first) = band {
        blend_rows(sheet, thumb, first..th, x, y);
    }
}

/// Rows `rows` of `thumb` drawn by tiny-skia.
fn blend_rows(sheet: &mut Pixmap, thumb: &Pixmap, rows: std::ops::Range<usize>, x: u32, y: u32) {
    let rect = resvg::tiny_skia::IntRect::from_xywh(
        0,
        rows.start as i32,
        thumb.width(),
        (rows.end - rows.start) as u32,
    );
    if let Some(part) = rect.and_then(|r| thumb.clone_rect(r)) {
        draw(sheet, part.as_ref(), x, y + rows.start as u32);
    }
}

fn draw(sheet: &mut Pixmap, thumb: resvg::tiny_skia::PixmapRef, x: u32, y: u32) {
    sheet.draw_pixmap(
        x as i32,
        y as i32,
        thumb,
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}

/// A centred label; one too long for the slot is squeezed to fit rather than cut.
fn label(text: &str, cx: u32, y: u32, max: u32, weight: &str) -> String {
    let text = &cut(text);
    // Noto Sans averages about 0.56 em per character; `textLength` makes the fit exact.
    let estimate = text.chars().count() as f32 * FONT * 0.56;
    let fit = if estimate > max as f32 {
        format!(r#" textLength="{max}" lengthAdjust="spacingAndGlyphs""#)
    } else {
        String::new()
    };
    format!(
        r##"<text x="{cx}" y="{y}" font-size="{FONT}" font-weight="{weight}" text-anchor="middle" fill="#1d2330"{fit}>{}</text>"##,
        escape(text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sheet_is_a_grid_of_ten_columns() {
        let thumb = Pixmap::new(18, 25).unwrap();
        let cells: Vec<Cell> = (0..12)
            .map(|_| Cell {
                label: "a-card-with-a-long-long-long-id",
                count: Some(2),
                thumb: Some(&thumb),
            })
            .collect();
        let sheet = sheet("Game — deck", &cells, (18, 25)).unwrap();
        assert_eq!(sheet.width(), 2 * MARGIN + 10 * 18 + 9 * GAP);
        assert_eq!(sheet.height(), MARGIN + TITLE + 2 * (25 + LABEL) + GAP + MARGIN);
    }

    #[test]
    fn a_thumbnail_is_placed_as_tiny_skia_draws_it() {
        // A round token (translucent edges) over a coloured sheet, and one
        // that does not fit: every pixel as `draw_pixmap` leaves it.
        let mut thumb = Pixmap::new(40, 30).unwrap();
        thumb.fill(resvg::tiny_skia::Color::from_rgba8(200, 40, 90, 255));
        let mut mask = resvg::tiny_skia::Mask::new(40, 30).unwrap();
        let circle = resvg::tiny_skia::PathBuilder::from_circle(20.0, 15.0, 17.5).unwrap();
        mask.fill_path(&circle, resvg::tiny_skia::FillRule::Winding, true, Transform::identity());
        thumb.apply_mask(&mask);
        assert!(thumb.pixels().iter().any(|p| p.alpha() > 0 && p.alpha() < 255));
        for (x, y) in [(5, 7), (30, 20)] {
            let mut sheet = Pixmap::new(64, 48).unwrap();
            sheet.fill(resvg::tiny_skia::Color::from_rgba8(235, 232, 225, 255));
            let mut expected = sheet.clone();
            draw(&mut expected, thumb.as_ref(), x, y);
            place(&mut sheet, &thumb, x, y);
            assert!(sheet.data() == expected.data(), "placed at ({x}, {y})");
        }
    }

    #[test]
    fn a_title_of_100_000_letters_is_cut_before_it_is_laid_out() {
        let title = format!("{} — cards · 2 designs, 4 cards · sheet 2 of 3", "W".repeat(100_000));
        let thumb = Pixmap::new(18, 25).unwrap();
        let cells = [Cell { label: &title, count: Some(1), thumb: Some(&thumb) }];
        let sheet = sheet(&title, &cells, (18, 25)).unwrap();
        assert!(sheet.width() < 4000, "{} pixels wide", sheet.width());
        assert!(cut(&title).ends_with("sheet 2 of 3") && cut(&title).chars().count() == MAX_CHARS);
        assert_eq!(cut("short"), "short");
    }

    #[test]
    fn a_card_that_could_not_be_drawn_leaves_a_marked_slot() {
        let cells = [Cell { label: "broken & <odd>", count: Some(1), thumb: None }];
        let sheet = sheet("t", &cells, (60, 80)).unwrap();
        let (x, y) = (MARGIN + 2, MARGIN + TITLE + 2);
        let p = sheet.pixel(x, y).unwrap();
        assert!(
            p.red() > 150 && p.green() < 100,
            "the red cross starts at the slot's corner: {p:?}"
        );
    }

    #[test]
    fn a_long_title_over_few_cards_is_never_clipped() {
        let thumb = Pixmap::new(180, 180).unwrap();
        let cells = [Cell { label: "trash", count: Some(50), thumb: Some(&thumb) }];
        let title = "Trash — Trash tokens · 1 design, 50 cards · sheet 1 of 1";
        let sheet = sheet(title, &cells, (180, 180)).unwrap();
        // The title's ink (#1d2330) ends with a margin before the sheet's right edge.
        let inked =
            |x: u32| (0..MARGIN + TITLE).any(|y| sheet.pixel(x, y).is_some_and(|p| p.red() < 80));
        let last = (0..sheet.width()).rev().find(|&x| inked(x)).expect("a title is drawn");
        assert!(last + MARGIN / 2 < sheet.width(), "title ends at {last} of {}", sheet.width());
        assert!(last > 2 * MARGIN + 180, "the whole title is drawn, past the one card: {last}");
    }
}
