//! Stage `export` (PDF): `Sheet`s + `Art` → PDF bytes, with krilla. Every distinct piece
//! of art becomes one PDF form XObject, drawn wherever the sheets place it: the back is
//! written once for the whole document, a row with `qty = 4` once for its four copies.

use std::collections::HashMap;

use krilla::geom::{PathBuilder, Rect as PdfRect, Size, Transform};
use krilla::graphic::Graphic;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::Stroke;
use krilla::surface::Surface;
use krilla::{Document, SerializeSettings};
use krilla_svg::{SurfaceExt, SvgSettings};

use crate::layout::{ArtRef, Rect, Sheet};
use crate::render::Art;

/// Hairline for crop marks: visible on any printer, thin enough to cut on.
const MARK_WIDTH_PT: f32 = 0.4;

pub fn write_pdf(sheets: &[Sheet], art: &Art, title: &str) -> Result<Vec<u8>, String> {
    let mut document = Document::new_with(SerializeSettings::default());
    // No dates and a document id derived from the content: the same input gives the same bytes.
    document.set_metadata(Metadata::new().title(title.to_string()).creator("deckpress".to_string()));
    let mut graphics: HashMap<ArtRef, Graphic> = HashMap::new();
    for sheet in sheets {
        let (w, h) = (sheet.width.to_pt(), sheet.height.to_pt());
        let trim = to_pdf_rect(&sheet.trim).ok_or("the card grid is empty")?;
        let settings = PageSettings::from_wh(w, h).ok_or("the paper has no size")?.with_trim_box(Some(trim)).with_bleed_box(Some(trim));
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        for placed in &sheet.items {
            let graphic = match graphics.get(&placed.art) {
                Some(g) => g.clone(),
                None => {
                    let tree = match placed.art {
                        ArtRef::Face { deck, row } => &art.decks[deck].faces[row],
                        ArtRef::Back { deck } => &art.decks[deck].back,
                    };
                    let g = make_graphic(&mut surface, tree, placed.rect.w.to_pt(), placed.rect.h.to_pt());
                    graphics.insert(placed.art, g.clone());
                    g
                }
            };
            let r = &placed.rect;
            let transform = if placed.rotated {
                // Half a turn about the slot's centre: mirror both axes from the far corner.
                Transform::from_row(-1.0, 0.0, 0.0, -1.0, (r.x + r.w).to_pt(), (r.y + r.h).to_pt())
            } else {
                Transform::from_translate(r.x.to_pt(), r.y.to_pt())
            };
            surface.push_transform(&transform);
            surface.draw_graphic(graphic);
            surface.pop();
        }
        draw_marks(&mut surface, sheet);
        surface.finish();
        page.finish();
    }
    document.finish().map_err(|e| format!("the PDF writer failed: {e:?}"))
}

/// Records the art once as a reusable form XObject of the card's size.
fn make_graphic(surface: &mut Surface, tree: &usvg::Tree, w: f32, h: f32) -> Graphic {
    let mut builder = surface.stream_builder();
    let mut inner = builder.surface();
    let size = Size::from_wh(w, h).expect("cards have a positive size");
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
