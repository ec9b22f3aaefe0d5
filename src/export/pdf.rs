//! Stage `export` (PDF): `Sheet`s + `Art` → PDF bytes, with krilla. Art that is drawn on
//! more than one page, or many times on one, becomes one PDF form XObject, drawn wherever
//! the sheets place it: the back is written once for the whole document, a board once for
//! all its tiles, a token once for its sheet. Other art is drawn straight into its page's
//! content stream, where it is compressed together with the page's other cards: cards from
//! one template share most of their drawing, which separately compressed XObjects (each
//! with its own object, resources and stream dictionary) cannot take advantage of.

use std::collections::{HashMap, HashSet};

use krilla::geom::{PathBuilder, Rect as PdfRect, Size, Transform};
use krilla::graphic::Graphic;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::color::rgb;
use krilla::paint::{FillRule, Stroke};
use krilla::surface::Surface;
use krilla::{Document, SerializeSettings};
use krilla_svg::{SurfaceExt, SvgSettings};

use crate::layout::{ArtRef, Guide, Rect, Sheet};
use crate::render::ArtSource;

/// Hairline for crop marks: visible on any printer, thin enough to cut on.
const MARK_WIDTH_PT: f32 = 0.4;
/// Cut guides sit on the piece's edge: light enough not to show after a slightly-off cut.
const GUIDE_WIDTH_PT: f32 = 0.3;

/// How the PDF asks to be printed: always at 100 %, and for home duplex sheets with the
/// printer's flip (`/ViewerPreferences`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintAs {
    Simplex,
    DuplexLongEdge,
    DuplexShortEdge,
}

/// What the PDF says about itself (Title, Author, Subject).
#[derive(Debug, Clone, Copy)]
pub struct DocInfo<'a> {
    pub title: &'a str,
    pub author: Option<&'a str>,
    pub subject: Option<&'a str>,
}

/// Pages drawn per batch: the trees of one batch are in memory at a time.
const PAGES_PER_BATCH: usize = 24;

pub fn write_pdf(sheets: &[Sheet], art: &mut dyn ArtSource, info: &DocInfo, print_as: PrintAs) -> Result<Vec<u8>, String> {
    let duplex = match print_as {
        PrintAs::Simplex => "Simplex",
        PrintAs::DuplexLongEdge => "DuplexFlipLongEdge",
        PrintAs::DuplexShortEdge => "DuplexFlipShortEdge",
    };
    let settings = SerializeSettings { print_preferences: Some(Some(duplex)), ..SerializeSettings::default() };
    let mut document = Document::new_with(settings);
    // No dates and a document id derived from the content: the same input gives the same bytes.
    let mut metadata = Metadata::new().title(info.title.to_string()).creator("deckpress".to_string());
    if let Some(author) = info.author {
        metadata = metadata.authors(vec![author.to_string()]);
    }
    if let Some(subject) = info.subject {
        metadata = metadata.description(subject.to_string());
    }
    document.set_metadata(metadata);
    let shared = shared_art(sheets);
    // Each piece of shared art becomes one XObject at the size it is first placed; later
    // placements scale it.
    let mut graphics: HashMap<ArtRef, (Graphic, f32, f32)> = HashMap::new();
    let mut decors: HashMap<&str, Graphic> = HashMap::new();
    let mut decor_uses: HashMap<&str, usize> = HashMap::new();
    for decor in sheets.iter().filter_map(|s| s.decor.as_deref()) {
        *decor_uses.entry(decor).or_default() += 1;
    }
    for (i, sheet) in sheets.iter().enumerate() {
        if i % PAGES_PER_BATCH == 0 {
            // The next batch's art, except what is already an XObject.
            art.release();
            let refs: Vec<ArtRef> = sheets[i..(i + PAGES_PER_BATCH).min(sheets.len())].iter().flat_map(|s| s.items.iter().map(|p| p.art)).filter(|r| !graphics.contains_key(r)).collect();
            art.prepare(&refs);
        }
        let (w, h) = (sheet.width.to_pt(), sheet.height.to_pt());
        let trim = to_pdf_rect(&sheet.trim).ok_or("the trim area is empty")?;
        let bleed = to_pdf_rect(&sheet.trim.grown(sheet.bleed)).ok_or("the bleed area is empty")?;
        let settings = PageSettings::from_wh(w, h).ok_or("the paper has no size")?.with_trim_box(Some(trim)).with_bleed_box(Some(bleed));
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        for placed in &sheet.items {
            // The art's canvas: the piece and its bleed (clipped to what the sheet shows).
            let r = &placed.rect.grown(placed.bleed);
            let size = Size::from_wh(r.w.to_pt(), r.h.to_pt()).ok_or("a piece of art has no size")?;
            if let Some(clip) = &placed.clip {
                surface.push_clip_path(&rect_path(clip).ok_or("empty clip")?, &FillRule::NonZero);
            }
            if shared.contains(&placed.art) {
                let (graphic, gw, gh) = match graphics.get(&placed.art) {
                    Some(g) => g.clone(),
                    None => {
                        // A piece that could not be drawn is reported by the art source;
                        // the PDF is not written then, so its slot can stay empty.
                        let Some(tree) = art.tree(placed.art) else {
                            pop_clip(&mut surface, placed.clip.is_some());
                            continue;
                        };
                        let g = (make_graphic(&mut surface, tree, size), size.width(), size.height());
                        graphics.insert(placed.art, g.clone());
                        g
                    }
                };
                surface.push_transform(&slot_transform(r, placed.rotated, size.width() / gw, size.height() / gh));
                surface.draw_graphic(graphic);
            } else {
                let Some(tree) = art.tree(placed.art) else {
                    pop_clip(&mut surface, placed.clip.is_some());
                    continue;
                };
                surface.push_transform(&slot_transform(r, placed.rotated, 1.0, 1.0));
                surface.draw_svg(tree, size, SvgSettings::default());
            }
            surface.pop();
            if placed.clip.is_some() {
                surface.pop();
            }
        }
        draw_marks(&mut surface, sheet);
        draw_guides(&mut surface, &sheet.guides);
        if let Some(decor) = &sheet.decor {
            // Identical page marks (the slug of a long deck) are one reusable object.
            let size = Size::from_wh(w, h).ok_or("the paper has no size")?;
            if decor_uses.get(&**decor).copied().unwrap_or(0) < 2 {
                surface.draw_svg(&crate::render::decor(decor)?, size, SvgSettings::default());
            } else {
                let graphic = match decors.get(&**decor) {
                    Some(g) => g.clone(),
                    None => {
                        let g = make_graphic(&mut surface, &crate::render::decor(decor)?, size);
                        decors.insert(decor, g.clone());
                        g
                    }
                };
                surface.draw_graphic(graphic);
            }
        }
        surface.finish();
        page.finish();
    }
    art.release();
    document.finish().map_err(|e| format!("the PDF writer failed: {e:?}"))
}

fn pop_clip(surface: &mut Surface, clipped: bool) {
    if clipped {
        surface.pop();
    }
}

/// Thin grey cut lines around pieces that do not share cut lines (tokens).
fn draw_guides(surface: &mut Surface, guides: &[Guide]) {
    let mut builder = PathBuilder::new();
    for guide in guides {
        match guide {
            Guide::Rect(r) => {
                if let Some(rect) = to_pdf_rect(r) {
                    builder.push_rect(rect);
                }
            }
            Guide::Circle(r) => {
                let (cx, cy) = ((r.x + r.w * 0.5).to_pt(), (r.y + r.h * 0.5).to_pt());
                push_circle(&mut builder, cx, cy, r.w.to_pt() / 2.0);
            }
        }
    }
    if let Some(path) = builder.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke { width: GUIDE_WIDTH_PT, paint: rgb::Color::new(110, 110, 110).into(), ..Stroke::default() }));
        surface.draw_path(&path);
        surface.set_stroke(None);
    }
}

/// A circle as four cubic Béziers (the usual 0.5523 control-point ratio).
fn push_circle(b: &mut PathBuilder, cx: f32, cy: f32, r: f32) {
    let k = 0.552_284_8 * r;
    b.move_to(cx + r, cy);
    b.cubic_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    b.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    b.cubic_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    b.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    b.close();
}

fn rect_path(r: &Rect) -> Option<krilla::geom::Path> {
    let mut builder = PathBuilder::new();
    builder.push_rect(to_pdf_rect(r)?);
    builder.finish()
}

/// Copies of one piece of art that one page draws inline before it is worth an XObject: a
/// repeated copy costs a few dozen compressed bytes, an XObject a few hundred.
const MAX_INLINE_COPIES: usize = 4;

/// The art worth a form XObject of its own: placed on more than one page, or more than
/// `MAX_INLINE_COPIES` times.
fn shared_art(sheets: &[Sheet]) -> HashSet<ArtRef> {
    // First page and number of copies of each piece of art.
    let mut seen: HashMap<ArtRef, (usize, usize)> = HashMap::new();
    let mut shared = HashSet::new();
    for (page, sheet) in sheets.iter().enumerate() {
        for placed in &sheet.items {
            let (first_page, copies) = seen.entry(placed.art).or_insert((page, 0));
            *copies += 1;
            if *first_page != page || *copies > MAX_INLINE_COPIES {
                shared.insert(placed.art);
            }
        }
    }
    shared
}

/// Maps art of the given scale onto its slot (turned half a turn when `rotated`).
fn slot_transform(r: &Rect, rotated: bool, sx: f32, sy: f32) -> Transform {
    if rotated {
        // Half a turn about the slot's centre: mirror both axes from the far corner.
        Transform::from_row(-sx, 0.0, 0.0, -sy, (r.x + r.w).to_pt(), (r.y + r.h).to_pt())
    } else {
        Transform::from_row(sx, 0.0, 0.0, sy, r.x.to_pt(), r.y.to_pt())
    }
}

/// Records the art once as a reusable form XObject of the given size.
fn make_graphic(surface: &mut Surface, tree: &usvg::Tree, size: Size) -> Graphic {
    let mut builder = surface.stream_builder();
    let mut inner = builder.surface();
    inner.draw_svg(tree, size, SvgSettings::default());
    inner.finish();
    Graphic::new(builder.finish(), false)
}

fn draw_marks(surface: &mut Surface, sheet: &Sheet) {
    let mut builder = PathBuilder::new();
    for m in &sheet.marks {
        builder.move_to(m.x1.to_pt(), m.y1.to_pt());
        builder.line_to(m.x2.to_pt(), m.y2.to_pt());
    }
    if let Some(path) = builder.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke { width: MARK_WIDTH_PT, ..Stroke::default() }));
        surface.draw_path(&path);
        surface.set_stroke(None);
    }
}

fn to_pdf_rect(r: &Rect) -> Option<PdfRect> {
    PdfRect::from_xywh(r.x.to_pt(), r.y.to_pt(), r.w.to_pt(), r.h.to_pt())
}
