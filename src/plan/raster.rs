//! The raster sink (`Sink::Raster`): a document's pages drawn with resvg at the asked
//! dpi, a PNG per page, instead of a PDF: `preview`'s pictures of box flats and label
//! sheets, or any other document of a plan. A page is drawn as paper: white, each piece's
//! art on its place clipped as the PDF clips it, and a box's die-line; crop marks, guides
//! and slugs are the PDF's and are left out.

use std::path::Path;

use resvg::tiny_skia::{
    FillRule, Mask, Paint, PathBuilder, Pixmap, PixmapPaint, Stroke, StrokeDash, Transform,
};

use super::{Content, Made};
use crate::diag::Failure;
use crate::layout::{ArtRef, Pages, PathStep, Sheet};
use crate::length::{Length, PT_PER_MM};
use crate::model::ArtSource;
use crate::render::LazyArt;
use crate::services::{page_suffix, preview_name, PREVIEW};

/// The PNGs of a document's pages at `dpi`: `file` (with `.png`) when it has one page,
/// `STEM-N.png` for page N of several; each page's pieces drawn as it is reached.
pub(super) fn pictures(
    file: &Path,
    pages: &dyn Pages,
    art: &mut LazyArt,
    dpi: u32,
) -> Result<Vec<Made>, Failure> {
    let count = pages.count();
    let dir = file.parent().unwrap_or(Path::new(""));
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut made = Vec::with_capacity(count);
    for i in 0..count {
        let sheet = pages.page(i);
        let refs: Vec<ArtRef> = sheet.items.iter().map(|placed| placed.art).collect();
        art.prepare(&refs);
        let pixmap = page(&sheet, |a| art.tree(a), dpi as f32)?;
        art.release();
        let bytes = crate::export::raster::encode_fast(pixmap).map_err(Failure::Io)?;
        let page = page_suffix(i + 1, count);
        let path = dir.join(preview_name(PREVIEW.page, &[("stem", &stem), ("page", &page)]));
        // The one door out, asked as `build` asks it.
        crate::output::inside(Path::new("."), &path).map_err(Failure::Io)?;
        made.push((path, Content::Bytes(bytes)));
    }
    Ok(made)
}

/// The page on white paper: each piece's art on its place, clipped as the PDF clips it,
/// and a box's die-line (cut solid, folds dashed).
pub fn page<'t>(
    sheet: &Sheet,
    tree_of: impl Fn(ArtRef) -> Option<&'t usvg::Tree>,
    dpi: f32,
) -> Result<Pixmap, Failure> {
    let px_per_pt = dpi / 72.0;
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
