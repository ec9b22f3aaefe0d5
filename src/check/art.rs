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
    visit_images(tree.root(), &mut |image| {
        let address = data_address(image.kind());
        let Some((_, href, info)) = used.iter().find(|(a, _, _)| *a == address && address != 0)
        else {
            return;
        };
        let ts = image.abs_transform();
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

fn visit_images(group: &usvg::Group, f: &mut dyn FnMut(&usvg::Image)) {
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => visit_images(g, f),
            usvg::Node::Image(image) => f(image),
            _ => {}
        }
    }
}
