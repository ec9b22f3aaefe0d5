//! Previews of pages made of several pieces: each box's flat and each label sheet's first
//! page, laid out by the same `layout` code the PDF is (`layout::boxes`, `layout::labels`)
//! and drawn with resvg, for the gallery beside the boards and pads.

use std::path::Path;

use resvg::tiny_skia::{
    FillRule, Mask, Paint, PathBuilder, Pixmap, PixmapPaint, Stroke, StrokeDash, Transform,
};

use super::snapshot::{Picture, Which};
use crate::diag::Failure;
use crate::layout::{ArtRef, PathStep, Sheet};
use crate::length::{Length, PT_PER_MM};
use crate::model::{Catalogue, Shape};

/// Pictures of whole pages are drawn at this resolution.
const DPI: f32 = 100.0;

/// Draws every box flat and label sheet of `cat` into `dir/sheets/`: their pictures, and
/// the problems met drawing their pieces in `problems`.
pub(super) fn draw(
    cat: &Catalogue,
    dir: &Path,
    slugs: &mut crate::output::Slugs,
    problems: &mut crate::diag::Grouped,
) -> Result<Vec<Picture>, Failure> {
    let mut pictures = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate() {
        let Some(layout) = &deck.labels else { continue };
        let faces: Vec<ArtRef> =
            crate::layout::pieces(deck, d).map(|(face, _)| face).take(layout.per_page()).collect();
        let mut rows = vec![Vec::new(); cat.decks.len()];
        rows[d] = faces
            .iter()
            .filter_map(|f| match f {
                ArtRef::Face { row, .. } => Some(*row),
                _ => None,
            })
            .collect();
        let drawn = crate::render::pieces(
            cat,
            &crate::render::Request {
                wanted: &|_, _| false,
                rows: Some(&rows),
                back_rows: None,
                shared_back: &|_| false,
                sheet_sizes: None,
                players: 1,
                lang: None,
                drawn_before: None,
            },
        );
        problems.extend(drawn.problems);
        let trees: std::collections::HashMap<ArtRef, std::sync::Arc<usvg::Tree>> = drawn
            .decks
            .into_iter()
            .nth(d)
            .into_iter()
            .flat_map(|p| p.faces)
            .filter_map(|(row, piece)| Some((ArtRef::Face { deck: d, row }, piece.tree?)))
            .collect();
        let Some(sheet) = crate::layout::labels::pages(&faces, layout, deck.shape, deck.corner)
            .into_iter()
            .next()
        else {
            continue;
        };
        let pixmap = raster(&sheet, |art| trees.get(&art).map(|t| &**t))?;
        let name = format!("{} ({}, first sheet)", deck.name, layout.name);
        pictures.push(save(dir, slugs, &deck.id, name, &sheet, pixmap)?);
    }
    if !cat.boxes.is_empty() {
        let mut diags = Vec::new();
        let faces = match crate::render::render_boxes(cat, (None, false), &mut diags) {
            Ok(faces) => faces,
            Err(Failure::Invalid(found, _)) => {
                problems.extend(found);
                Vec::new()
            }
            Err(e) => return Err(e),
        };
        problems.extend(diags);
        for (b, def) in cat.boxes.iter().enumerate() {
            for flat in crate::layout::boxes::flats(def.style, def.inside) {
                let page = (
                    Length::mm(flat.width + 2.0 * crate::layout::boxes::MARGIN_MM),
                    Length::mm(flat.height + 2.0 * crate::layout::boxes::MARGIN_MM),
                );
                let sheet = crate::layout::boxes::sheet(def, b, &flat, page);
                let trees = faces.get(b);
                let pixmap = raster(&sheet, |art| match art {
                    ArtRef::BoxFace { face, .. } => trees?.get(face)?.as_deref(),
                    _ => None,
                })?;
                let (id, label) = match flat.part {
                    "box" => (def.id.clone(), format!("{} (flat)", def.name)),
                    part => (format!("{}-{part}", def.id), format!("{} ({part}, flat)", def.name)),
                };
                pictures.push(save(dir, slugs, &id, label, &sheet, pixmap)?);
            }
        }
    }
    Ok(pictures)
}

fn save(
    dir: &Path,
    slugs: &mut crate::output::Slugs,
    id: &str,
    label: String,
    sheet: &Sheet,
    pixmap: Pixmap,
) -> Result<Picture, Failure> {
    let bytes = crate::export::raster::encode_fast(pixmap).map_err(Failure::Io)?;
    let file = format!("sheets/{}.png", slugs.make(id));
    super::write(&dir.join(&file), &bytes)?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&bytes, &mut hasher);
    Ok(Picture {
        id: id.to_string(),
        label,
        count: None,
        file,
        size: (sheet.width, sheet.height),
        thumb: None,
        which: Which::Sheet,
        art: Some(std::hash::Hasher::finish(&hasher)),
        shape: Shape::Rect,
        corner: Length::ZERO,
        moved: Vec::new(),
    })
}

/// The page on white paper: each piece's art on its place, clipped as the PDF clips it,
/// and a box's die-line (cut solid, folds dashed).
fn raster<'t>(
    sheet: &Sheet,
    tree_of: impl Fn(ArtRef) -> Option<&'t usvg::Tree>,
) -> Result<Pixmap, Failure> {
    let px_per_pt = DPI / 72.0;
    let px = |l: Length| l.to_pt() * px_per_pt;
    let (w, h) = (px(sheet.width).round() as u32, px(sheet.height).round() as u32);
    let mut page = Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| Failure::Io("a preview page has no size".to_string()))?;
    page.fill(resvg::tiny_skia::Color::WHITE);
    for placed in &sheet.items {
        let Some(tree) = tree_of(placed.art) else { continue };
        let canvas = placed.rect.grown(placed.bleed);
        let (cw, ch) = (px(canvas.w).ceil().max(1.0) as u32, px(canvas.h).ceil().max(1.0) as u32);
        let Some(mut piece) = Pixmap::new(cw, ch) else { continue };
        let (sx, sy) = (px(canvas.w) / tree.size().width(), px(canvas.h) / tree.size().height());
        let transform = if placed.rotated {
            Transform::from_row(-sx, 0.0, 0.0, -sy, px(canvas.w), px(canvas.h))
        } else {
            Transform::from_scale(sx, sy)
        };
        resvg::render(tree, transform, &mut piece.as_mut());
        let mask = placed.clip.and_then(|clip| {
            let path = path_of(&clip.path(px_per_pt))?;
            let mut mask = Mask::new(w, h)?;
            mask.fill_path(&path, FillRule::Winding, true, Transform::identity());
            Some(mask)
        });
        page.draw_pixmap(
            px(canvas.x).round() as i32,
            px(canvas.y).round() as i32,
            piece.as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            mask.as_ref(),
        );
    }
    if let Some(die) = &sheet.die {
        let px_mm = |v: f32| v * PT_PER_MM * px_per_pt;
        let mut folds = PathBuilder::new();
        for f in &die.folds {
            folds.move_to(px_mm(f[0]), px_mm(f[1]));
            folds.line_to(px_mm(f[2]), px_mm(f[3]));
        }
        let mut paint = Paint::default();
        paint.set_color_rgba8(110, 110, 110, 255);
        let dash = StrokeDash::new(vec![px_mm(3.0), px_mm(2.0)], 0.0);
        if let Some(path) = folds.finish() {
            let stroke = Stroke { width: 1.0, dash, ..Stroke::default() };
            page.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
        }
        let mut cut = PathBuilder::new();
        for (i, &(x, y)) in die.cut.iter().enumerate() {
            if i == 0 {
                cut.move_to(px_mm(x), px_mm(y));
            } else {
                cut.line_to(px_mm(x), px_mm(y));
            }
        }
        cut.close();
        paint.set_color_rgba8(0, 0, 0, 255);
        if let Some(path) = cut.finish() {
            let stroke = Stroke { width: 1.0, ..Stroke::default() };
            page.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
        }
    }
    Ok(page)
}

/// An outline's steps (in pixels) as a tiny-skia path.
fn path_of(steps: &[PathStep]) -> Option<resvg::tiny_skia::Path> {
    let mut b = PathBuilder::new();
    for step in steps {
        match *step {
            PathStep::Move(x, y) => b.move_to(x, y),
            PathStep::Line(x, y) => b.line_to(x, y),
            PathStep::Cubic(x1, y1, x2, y2, x, y) => b.cubic_to(x1, y1, x2, y2, x, y),
            PathStep::Close => b.close(),
        }
    }
    b.finish()
}
