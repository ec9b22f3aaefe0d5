//! Art as printed (checks `dpi` and `stretched`): each raster image's resolution over
//! the inches it covers on paper, and whether it is drawn out of its proportions.

use std::sync::Arc;

use usvg::ImageKind;

use super::Finding;
use crate::images::Info;

/// Where an image's bytes are: the parse shares them between every piece that draws the
/// file, so the address tells which file a drawn image is.
pub(crate) fn data_address(kind: &ImageKind) -> usize {
    match kind {
        ImageKind::PNG(d) | ImageKind::JPEG(d) | ImageKind::GIF(d) | ImageKind::WEBP(d) => {
            Arc::as_ptr(d) as usize
        }
        ImageKind::SVG(_) => 0,
    }
}

/// A raster image that will not print as drawn: below the resolution it needs on paper
/// (its pixels over the inches it covers when the art is drawn at `width_mm` across), or
/// stretched out of its proportions (`preserveAspectRatio="none"`).
pub fn measure(tree: &usvg::Tree, width_mm: f32, used: &[(usize, String, Info)]) -> Vec<Finding> {
    let (dpi_on, stretched_on) = (!super::off("dpi"), !super::off("stretched"));
    let mm_per_unit = width_mm / tree.size().width();
    let mut found = Vec::new();
    visit_images(tree.root(), None, 0, &mut |image, ts| {
        let address = data_address(image.kind());
        let Some((_, href, info)) = used.iter().find(|(a, _, _)| *a == address && address != 0)
        else {
            return;
        };
        let (sx, sy) =
            ((ts.sx * ts.sx + ts.ky * ts.ky).sqrt(), (ts.kx * ts.kx + ts.sy * ts.sy).sqrt());
        let inches = |units: f32| units * mm_per_unit / 25.4;
        let (w_in, h_in) = (inches(image.size().width() * sx), inches(image.size().height() * sy));
        if w_in <= 0.0 || h_in <= 0.0 {
            return;
        }
        let dpi = (info.width as f32 / w_in).min(info.height as f32 / h_in);
        if dpi_on
            && dpi < crate::images::GOOD_DPI
            && !found
                .iter()
                .any(|w| matches!(w, Finding::LowResolution { href: h, .. } if h == href))
        {
            found.push(Finding::LowResolution { href: href.clone(), dpi });
        }
        let ratio = sx / sy;
        if stretched_on
            && (ratio - 1.0).abs() > 0.005
            && !found.iter().any(|w| matches!(w, Finding::Stretched { href: h, .. } if h == href))
        {
            found.push(Finding::Stretched { href: href.clone(), ratio });
        }
    });
    found
}

/// Each image drawn, with its transform onto the canvas: through the groups, and into the
/// cell of each tiling pattern a path is painted with (once, whatever its tiles). `cell`:
/// the transform of the pattern cell being walked, whose nodes' own transforms start
/// from the cell (usvg parses a pattern's content as a tree of its own).
fn visit_images(
    group: &usvg::Group,
    cell: Option<usvg::Transform>,
    depth: usize,
    f: &mut dyn FnMut(&usvg::Image, usvg::Transform),
) {
    let onto = |ts: usvg::Transform| cell.map_or(ts, |c| c.pre_concat(ts));
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => visit_images(g, cell, depth, f),
            usvg::Node::Image(image) => f(image, onto(image.abs_transform())),
            usvg::Node::Path(path) if depth < MAX_PATTERN_DEPTH => {
                let paints = [path.fill().map(|p| p.paint()), path.stroke().map(|s| s.paint())];
                for paint in paints.into_iter().flatten() {
                    if let usvg::Paint::Pattern(pattern) = paint {
                        let at = onto(path.abs_transform()).pre_concat(pattern.transform());
                        visit_images(pattern.root(), Some(at), depth + 1, f);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Patterns within patterns followed at most: usvg drops a pattern that paints itself.
const MAX_PATTERN_DEPTH: usize = 4;
