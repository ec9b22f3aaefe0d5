//! One page of the PDF: its boxes, the pieces placed on it (inline, as shared form
//! XObjects, or flattened for PDF/X-1a), and the marks, guides, die lines and page
//! decoration drawn over them.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Rect as PdfRect, Size, Transform};
use krilla::graphic::Graphic;
use krilla::page::PageSettings;
use krilla::paint::{FillRule, Stroke};
use krilla::surface::Surface;
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};

use super::pipeline::Trees;
use crate::layout::{registration, ArtRef, Outline, PathStep, Placed, Rect, Sheet};
use crate::press::{Inspection, Pdfx, Press};

/// Hairline for crop marks: visible on any printer, thin enough to cut on.
const MARK_WIDTH_PT: f32 = 0.4;
/// Cut guides sit on the piece's edge: light enough not to show after a slightly-off cut.
const GUIDE_WIDTH_PT: f32 = 0.3;

/// Art PDF/X-1a cannot hold (transparency) is drawn as one CMYK picture at this resolution.
const FLATTEN_DPI: f32 = 600.0;
/// ...but never more pixels than this for one piece (a flattened board).
const FLATTEN_MAX_PIXELS: f32 = 40e6;

/// What drawing the pages keeps from one page to the next: the XObjects made so far and,
/// for a press, what each piece's art was found to do.
pub(super) struct Drawing<'a> {
    pub press: Option<&'a Press>,
    pub svg_settings: SvgSettings<'a>,
    /// The art drawn as a form XObject (`Survey::shared`).
    pub shared: HashSet<ArtRef>,
    /// Pages each page-mark layer is drawn on (`Survey::decor_uses`).
    pub decor_uses: HashMap<usize, usize>,
    /// Each piece of shared art becomes one XObject at the size it is first placed; later
    /// placements scale it.
    pub graphics: HashMap<ArtRef, (Graphic, f32, f32)>,
    /// Page marks by layer: the layout makes a layer the pages share one value.
    pub decors: HashMap<usize, Graphic>,
    /// What each piece's art needs the press to hear about; a photo's ink is known once it
    /// is converted, while the pages are drawn.
    pub inspections: Vec<(ArtRef, Inspection)>,
    /// Whether each piece inspected so far is flattened.
    pub inspected: HashMap<ArtRef, bool>,
}

impl Drawing<'_> {
    /// Draws `sheet` as the document's next page, its art taken from `trees`.
    pub fn page(
        &mut self,
        document: &mut Document,
        sheet: &Sheet,
        trees: &Trees,
    ) -> Result<(), String> {
        let press = self.press;
        let (w, h) = (sheet.width.to_pt(), sheet.height.to_pt());
        let trim = to_pdf_rect(&sheet.trim).ok_or("the trim area is empty")?;
        // What is printed past the trim, no further than the part of the page a printer prints.
        let printed = sheet.trim.grown(sheet.bleed);
        let printed = sheet.printable.map_or(printed, |p| printed.within(&p));
        let bleed = to_pdf_rect(&printed).ok_or("the bleed area is empty")?;
        let settings = PageSettings::from_wh(w, h)
            .ok_or("the paper has no size")?
            .with_trim_box(Some(trim))
            .with_bleed_box(Some(bleed));
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        if let Some(printable) = &sheet.printable {
            let mut builder = PathBuilder::new();
            push_outline(&mut builder, &Outline::Rect(*printable));
            surface.push_clip_path(
                &builder.finish().ok_or("the printable area is empty")?,
                &FillRule::NonZero,
            );
        }
        for placed in &sheet.items {
            self.piece(&mut surface, placed, trees)?;
        }
        if sheet.printable.is_some() {
            surface.pop();
        }
        draw_marks(&mut surface, sheet, press);
        draw_guides(&mut surface, &sheet.guides, press);
        if let Some(die) = &sheet.die {
            let paints = match press {
                Some(_) => crate::export::die::DiePaints::press(),
                None => crate::export::die::DiePaints {
                    cut: mark_paint(0, press),
                    fold: mark_paint(110, press),
                    overprint: false,
                },
            };
            crate::export::die::draw(&mut surface, die, paints);
        }
        if sheet.registration {
            draw_registration(&mut surface, sheet, press);
        }
        self.decor(&mut surface, sheet)?;
        surface.finish();
        page.finish();
        Ok(())
    }

    /// Draws one placed piece: inline, as its shared XObject, or for PDF/X-1a as one CMYK
    /// picture when its art is transparent.
    fn piece(
        &mut self,
        surface: &mut Surface,
        placed: &Placed,
        trees: &Trees,
    ) -> Result<(), String> {
        let svg_settings = self.svg_settings;
        // The art's canvas: the piece and its bleed (clipped to what the sheet shows).
        let r = &placed.rect.grown(placed.bleed);
        let size = Size::from_wh(r.w.to_pt(), r.h.to_pt()).ok_or("a piece of art has no size")?;
        if let Some(clip) = &placed.clip {
            let mut builder = PathBuilder::new();
            push_outline(&mut builder, clip);
            surface.push_clip_path(&builder.finish().ok_or("empty clip")?, &FillRule::NonZero);
        }
        // For a press: each piece's colours and images checked once; what PDF/X-1a
        // cannot hold is drawn as one CMYK picture.
        if let Some(press) = self.press {
            let flatten = match self.inspected.get(&placed.art) {
                Some(&f) => f,
                None => {
                    let f = match trees.get(&placed.art) {
                        Some(tree) => {
                            let found = crate::press::inspect_ahead(press, tree);
                            let f = press.pdfx == Pdfx::X1a && found.transparent();
                            self.inspections.push((placed.art, found));
                            f
                        }
                        None => false,
                    };
                    self.inspected.insert(placed.art, f);
                    f
                }
            };
            if flatten {
                if let Some(tree) = trees.get(&placed.art).map(|t| &**t) {
                    let image = flattened(tree, r, press)?;
                    surface.push_transform(&slot_transform(r, placed.rotated, 1.0, 1.0));
                    surface.draw_image(image, size);
                    surface.pop();
                }
                pop_clip(surface, placed.clip.is_some());
                return Ok(());
            }
        }
        if self.shared.contains(&placed.art) {
            let (graphic, gw, gh) = match self.graphics.get(&placed.art) {
                Some(g) => g.clone(),
                None => {
                    // A piece that could not be drawn is reported by the art source;
                    // the PDF is not written then, so its slot can stay empty.
                    let Some(tree) = trees.get(&placed.art).map(|t| &**t) else {
                        pop_clip(surface, placed.clip.is_some());
                        return Ok(());
                    };
                    let g = (
                        make_graphic(surface, tree, size, svg_settings),
                        size.width(),
                        size.height(),
                    );
                    self.graphics.insert(placed.art, g.clone());
                    g
                }
            };
            surface.push_transform(&slot_transform(
                r,
                placed.rotated,
                size.width() / gw,
                size.height() / gh,
            ));
            surface.draw_graphic(graphic);
        } else {
            let Some(tree) = trees.get(&placed.art).map(|t| &**t) else {
                pop_clip(surface, placed.clip.is_some());
                return Ok(());
            };
            surface.push_transform(&slot_transform(r, placed.rotated, 1.0, 1.0));
            surface.draw_svg(tree, size, svg_settings);
        }
        surface.pop();
        if placed.clip.is_some() {
            surface.pop();
        }
        Ok(())
    }

    /// The page's decoration. Identical page marks (the slug of a deck, but its sheet
    /// number) are one reusable object.
    fn decor(&mut self, surface: &mut Surface, sheet: &Sheet) -> Result<(), String> {
        let svg_settings = self.svg_settings;
        let (w, h) = (sheet.width.to_pt(), sheet.height.to_pt());
        let layer_key = |layer: &Arc<crate::layout::marks::Layer>| Arc::as_ptr(layer) as usize;
        for decor in &sheet.decor {
            let size = Size::from_wh(w, h).ok_or("the paper has no size")?;
            let key = layer_key(decor);
            if self.decor_uses.get(&key).copied().unwrap_or(0) < 2 {
                surface.draw_svg(
                    &crate::export::marks::tree(decor, (sheet.width, sheet.height))?,
                    size,
                    svg_settings,
                );
            } else {
                let graphic = match self.decors.get(&key) {
                    Some(g) => g.clone(),
                    None => {
                        let g = make_graphic(
                            surface,
                            &crate::export::marks::tree(decor, (sheet.width, sheet.height))?,
                            size,
                            svg_settings,
                        );
                        self.decors.insert(key, g.clone());
                        g
                    }
                };
                surface.draw_graphic(graphic);
            }
        }
        Ok(())
    }
}

/// A piece drawn into CMYK pixels (over white paper) for PDF/X-1a, which has no
/// transparency: `FLATTEN_DPI`, or less for a piece so large it would pass
/// `FLATTEN_MAX_PIXELS`.
fn flattened(tree: &usvg::Tree, r: &Rect, press: &Press) -> Result<krilla::image::Image, String> {
    let (w_in, h_in) = (r.w.to_pt() / 72.0, r.h.to_pt() / 72.0);
    let dpi = FLATTEN_DPI.min((FLATTEN_MAX_PIXELS / (w_in * h_in)).sqrt());
    let (w, h) = (((w_in * dpi).round() as u32).max(1), ((h_in * dpi).round() as u32).max(1));
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).ok_or("a flattened piece has no size")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    let t = resvg::tiny_skia::Transform::from_scale(
        w as f32 / tree.size().width(),
        h as f32 / tree.size().height(),
    );
    resvg::render(tree, t, &mut pixmap.as_mut());
    // Over white paper every pixel is opaque.
    let rgba = crate::images::straight_rgba(&pixmap);
    press
        .image_from_rgba(&rgba, w, h)
        .and_then(|i| i.drawn())
        .ok_or_else(|| "a flattened piece cannot be converted to CMYK".to_string())
}

fn pop_clip(surface: &mut Surface, clipped: bool) {
    if clipped {
        surface.pop();
    }
}

/// The paint of marks and guides: grey as RGB, or black ink alone for a press.
pub(super) fn mark_paint(grey: u8, press: Option<&Press>) -> krilla::paint::Paint {
    match press {
        Some(_) => krilla::color::cmyk::Color::new(0, 0, 0, 255 - grey).into(),
        // Unchanged from before press colour: marks in the default black, guides RGB grey.
        None if grey == 0 => Stroke::default().paint,
        None => rgb::Color::new(grey, grey, grey).into(),
    }
}

/// Thin grey cut lines around pieces that do not share cut lines (tokens, hex tiles,
/// rounded corners).
fn draw_guides(surface: &mut Surface, guides: &[Outline], press: Option<&Press>) {
    let mut builder = PathBuilder::new();
    for guide in guides {
        push_outline(&mut builder, guide);
    }
    if let Some(path) = builder.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke {
            width: GUIDE_WIDTH_PT,
            paint: mark_paint(110, press),
            ..Stroke::default()
        }));
        surface.draw_path(&path);
        surface.set_stroke(None);
    }
}

/// The print-then-cut machine's registration marks, solid black (see `layout::registration`).
fn draw_registration(surface: &mut Surface, sheet: &Sheet, press: Option<&Press>) {
    let mut builder = PathBuilder::new();
    for mark in registration::marks(sheet.width, sheet.height) {
        if let Some(rect) = to_pdf_rect(&mark) {
            builder.push_rect(rect);
        }
    }
    if let Some(path) = builder.finish() {
        surface.set_stroke(None);
        surface.set_fill(Some(krilla::paint::Fill {
            paint: mark_paint(0, press),
            ..krilla::paint::Fill::default()
        }));
        surface.draw_path(&path);
    }
}

/// An outline as a closed subpath, in points.
fn push_outline(b: &mut PathBuilder, outline: &Outline) {
    // A rectangle is PDF's own `re`.
    if let Outline::Rect(r) = outline {
        if let Some(rect) = to_pdf_rect(r) {
            b.push_rect(rect);
        }
        return;
    }
    for step in outline.path(1.0) {
        match step {
            PathStep::Move(x, y) => b.move_to(x, y),
            PathStep::Line(x, y) => b.line_to(x, y),
            PathStep::Cubic(x1, y1, x2, y2, x, y) => b.cubic_to(x1, y1, x2, y2, x, y),
            PathStep::Close => b.close(),
        }
    }
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
fn make_graphic(
    surface: &mut Surface,
    tree: &usvg::Tree,
    size: Size,
    settings: SvgSettings<'_>,
) -> Graphic {
    let mut builder = surface.stream_builder();
    let mut inner = builder.surface();
    inner.draw_svg(tree, size, settings);
    inner.finish();
    Graphic::new(builder.finish(), false)
}

fn draw_marks(surface: &mut Surface, sheet: &Sheet, press: Option<&Press>) {
    let mut builder = PathBuilder::new();
    for m in &sheet.marks {
        builder.move_to(m.x1.to_pt(), m.y1.to_pt());
        builder.line_to(m.x2.to_pt(), m.y2.to_pt());
    }
    if let Some(path) = builder.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke {
            width: MARK_WIDTH_PT,
            paint: mark_paint(0, press),
            ..Stroke::default()
        }));
        surface.draw_path(&path);
        surface.set_stroke(None);
    }
}

fn to_pdf_rect(r: &Rect) -> Option<PdfRect> {
    PdfRect::from_xywh(r.x.to_pt(), r.y.to_pt(), r.w.to_pt(), r.h.to_pt())
}
