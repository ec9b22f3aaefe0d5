//! Boxes: each box's flat (or a lid's and base's) on every home paper it fits, and on the
//! smallest A-size it fits when a home paper is too small for it, with a caption under
//! the flat and (`--cut`) its die-line as a cut file per flat.

use std::sync::Arc;

use super::{Body, Context, CutFiles, Document, Draw, Drawing, Plan, Printing};
use crate::diag::{Diagnostic, Failure};
use crate::layout::{boxes, registration, Sheet};
use crate::length::Length;
use crate::model::{BoxDef, Catalogue};

pub(super) fn plan(ctx: &Context, plan: &mut Plan) {
    let cat = ctx.cat();
    for (b, def) in cat.boxes.iter().enumerate() {
        let flats = boxes::flats(def.style, def.inside);
        for (paper, pages) in papers(ctx, def) {
            let name = ctx.home_file(&def.id, &paper);
            let stem = name.strip_suffix(".pdf").unwrap_or(&name).to_string();
            // A one-piece box's cut file is `-cut`; a lid's `-lid-cut`.
            let parts = flats.iter().map(|flat| Some(flat.part).filter(|&p| p != "box")).collect();
            plan.documents.push(Document {
                file: ctx.file(name),
                title: format!("{} — {} ({paper})", cat.name, def.name),
                body: Body::Pdf(Box::new(Flats { b, paper: paper.clone(), pages })),
                printing: Printing::Simplex,
                cut: Some(CutFiles::Parts { stem, parts }),
                product: super::Product::Box { index: b },
                paper: Some(paper),
            });
        }
    }
}

/// The papers a box's flats are printed on, each flat's page turned as it fits: every
/// home paper it fits, and the smallest A-size it fits if some home paper is too small.
fn papers(ctx: &Context, def: &BoxDef) -> Vec<(String, Vec<(Length, Length)>)> {
    let flats = boxes::flats(def.style, def.inside);
    let on = |(w, h): (f32, f32)| -> Option<Vec<(Length, Length)>> {
        flats.iter().map(|f| boxes::fits(f, (Length::mm(w), Length::mm(h)))).collect()
    };
    let home = &ctx.job.print.papers;
    let mut papers: Vec<(String, Vec<(Length, Length)>)> = Vec::new();
    for &paper in home {
        let (w, h) = paper.size();
        if let Some(pages) = on((w.to_mm(), h.to_mm())) {
            papers.push((paper.name().to_string(), pages));
        }
    }
    if papers.len() < home.len() {
        let larger = [("a3", 297.0, 420.0), ("a2", 420.0, 594.0), ("a1", 594.0, 841.0)];
        // The loader made sure it fits A1.
        if let Some((name, pages)) =
            larger.iter().find_map(|&(name, w, h)| on((w, h)).map(|p| (name, p)))
        {
            papers.push((name.to_string(), pages));
        }
    }
    papers
}

/// Box `b`'s flats on `paper`, each on a page of its size.
struct Flats {
    b: usize,
    paper: String,
    pages: Vec<(Length, Length)>,
}

impl Draw for Flats {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        at.boxes()?;
        let cat = at.ctx.cat();
        let def = &cat.boxes[self.b];
        let flats = boxes::flats(def.style, def.inside);
        let mut sheets = Vec::new();
        for (flat, &page) in flats.iter().zip(&self.pages) {
            let mut sheet = boxes::sheet(def, self.b, flat, page);
            if at.ctx.job.print.cut.is_some() {
                // Registration marks for the cutter, where the flat leaves them room.
                let art = sheet.trim.grown(sheet.bleed);
                sheet.registration = registration::clear(&art, sheet.width, sheet.height);
                if !sheet.registration {
                    let why = format!(
                        "box `{}` ({}) on {} leaves no room for registration marks: its cut file has none",
                        def.id, flat.part, self.paper
                    );
                    let span = Some(def.span.clone());
                    at.warnings.push(
                        Diagnostic::warning(&cat.game_toml, span, why)
                            .with_note("cut it by hand, or print it on a larger --paper"),
                    );
                }
            }
            caption(&mut sheet, cat, def, flat.part);
            sheets.push(sheet);
        }
        Ok(Box::new(sheets))
    }
}

/// Lines under the flat: what the box holds, its inside, and how to make it. A box's one
/// sentence starts at the flat's left, a lid's or base's two at the page's margin; a
/// sentence too long for the page is wrapped from the margin, smaller if that is what
/// keeps its lines between the flat and the page's unprintable edge.
fn caption(sheet: &mut Sheet, cat: &Catalogue, def: &BoxDef, part: &str) {
    use crate::layout::marks::{wrap, Layer, Text};
    const SIZES_MM: [f32; 3] = [2.5, 2.0, 1.5];
    let bottom = (sheet.trim.y + sheet.trim.h).to_mm();
    let page_h = sheet.height.to_mm();
    let (w, h, d) = (def.inside.0.to_mm(), def.inside.1.to_mm(), def.inside.2.to_mm());
    let holds = format!("{} — {}: {} cards of {}", cat.name, def.name, def.cards, def.deck_name);
    let sentences = if part == "box" {
        vec![format!("{holds}; inside {w:.1} × {h:.1} × {d:.1} mm. Cut the solid line, fold on the dashed lines, glue the flap inside the far side.")]
    } else {
        vec![
            format!("{holds}; the {part}. The base is {w:.1} × {h:.1} × {d:.1} mm inside."),
            "Cut the solid line, fold the walls up on the dashed lines, glue each tab inside the wall beside it; the lid slides over the base.".to_string(),
        ]
    };
    let measure = super::slug_width();
    let width = |text: &str, size: f32| measure(text) * size;
    let right = sheet.width.to_mm() - boxes::MARGIN_MM;
    let margin = sheet.trim.x.to_mm().min(boxes::MARGIN_MM);
    let at_flat = sheet.trim.x.to_mm();
    // Clear of the bottom-left registration mark, where there is one.
    let (at_flat, margin) = match sheet.registration {
        true => (at_flat.max(registration::SLUG_FROM_MM), margin.max(registration::SLUG_FROM_MM)),
        false => (at_flat, margin),
    };
    let x = if part == "box" && width(&sentences[0], SIZES_MM[0]) <= right - at_flat {
        at_flat
    } else {
        margin
    };
    // The largest size whose lines, 1.6 sizes apart, stand between the flat and the edge.
    let lines_at = |size: f32| -> Vec<String> {
        sentences.iter().flat_map(|s| wrap(s, right - x, |t| width(t, size))).collect()
    };
    let below = bottom + 1.0;
    let above = page_h - crate::layout::UNPRINTABLE_MM;
    let (size, lines) = SIZES_MM
        .iter()
        .map(|&size| (size, lines_at(size)))
        .find(|(size, lines)| {
            lines.len().saturating_sub(1) as f32 * 1.6 * size + size <= above - below
        })
        .unwrap_or_else(|| (SIZES_MM[2], lines_at(SIZES_MM[2])));
    let pitch = 1.6 * size;
    // Centred under the flat, moved off the page's edge or the flat if that puts them
    // past either.
    let span = lines.len().saturating_sub(1) as f32 * pitch;
    let centre = (bottom + page_h) / 2.0 + 1.0;
    let first = (centre - span / 2.0).min(above - span).max(below + size);
    let mut layer = Layer::default();
    for (i, line) in lines.into_iter().enumerate() {
        layer.push(Text::new((x, first + i as f32 * pitch), size, line));
    }
    sheet.decor.push(Arc::new(layer));
}
