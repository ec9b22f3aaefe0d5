//! Pages → one PDF with krilla: pages typeset as SVG (drawn with the game's fonts, their
//! images read through the catalogue's `World`), pages of PDFs a build made (embedded as
//! they are, via krilla's `pdf` feature), pictures of pieces; bookmarks and page labels.
//! Also the booklet: a document's pages imposed two-up for saddle-stitching.

use std::sync::Arc;

use krilla::destination::XyzDestination;
use krilla::geom::{Point, Size, Transform};
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::{NumberingStyle, PageLabel, PageSettings};
use krilla::pdf::{Pdf, PdfDocument};
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};

use crate::world::World;

/// Millimetres to points.
fn pt(mm: f32) -> f32 {
    mm * 72.0 / 25.4
}

/// A picture placed on a page over its SVG: a piece's tree, at x, y, width, height in mm.
pub struct Picture {
    pub tree: Arc<usvg::Tree>,
    pub at: [f32; 4],
    /// A piece's bleed around its cut, in mm: clipped off, and the cut outlined (a white
    /// card on white paper still shows its edge).
    pub bleed: Option<f32>,
}

/// The page label of every page of a part: numbered from 1 in `style` after `prefix`
/// ("Rules 1", "Rules 2"; "i", "ii"). Each page of a part is given the same label, without
/// a start: krilla then writes one range for the part (a start on every page, counting
/// up, is written as one range a page).
pub fn part_label(style: NumberingStyle, prefix: &str) -> PageLabel {
    let prefix = (!prefix.is_empty()).then(|| prefix.to_string());
    PageLabel::new(Some(style), prefix, None)
}

/// A bookmark: its title, the page it opens (0-based) and those under it.
pub struct Mark {
    pub title: String,
    pub page: usize,
    pub children: Vec<Mark>,
}

/// A document being put together, page by page.
pub struct Assembly {
    doc: Document,
    pages: usize,
    options: usvg::Options<'static>,
    pub marks: Vec<Mark>,
}

impl Assembly {
    /// A document whose SVG pages read fonts from `fontdb` and images from `world`.
    pub fn new(title: &str, fontdb: Arc<usvg::fontdb::Database>, world: &World) -> Self {
        let mut doc = Document::new();
        doc.set_metadata(Metadata::new().title(title.to_string()).creator("deckpress".into()));
        let options = crate::svg::through(fontdb, world);
        Self { doc, pages: 0, options, marks: Vec::new() }
    }

    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Typeset pages parsed, on every core (shaping their text is most of their cost).
    pub fn parse(&self, pages: &[String]) -> Result<Vec<usvg::Tree>, String> {
        let options = &self.options;
        crate::parallel::par_map(pages, |svg| {
            usvg::Tree::from_str(svg, options)
                .map_err(|e| format!("internal error: a typeset page is no SVG ({e})"))
        })
        .into_iter()
        .collect()
    }

    /// A page drawn from a parsed typeset page (`size_mm`, as its SVG says), with
    /// pictures over it.
    pub fn svg_page(
        &mut self,
        tree: &usvg::Tree,
        size_mm: (f32, f32),
        label: PageLabel,
        pictures: &[Picture],
    ) -> Result<(), String> {
        let size = Size::from_wh(pt(size_mm.0), pt(size_mm.1)).ok_or("a page of no size")?;
        let settings =
            PageSettings::from_wh(size.width(), size.height()).ok_or("a page of no size")?;
        let mut page = self.doc.start_page_with(settings.with_page_label(label));
        let mut surface = page.surface();
        surface.draw_svg(tree, size, SvgSettings::default());
        for p in pictures {
            let Some(size) = Size::from_wh(pt(p.at[2]), pt(p.at[3])) else { continue };
            let cut = p.bleed.and_then(|b| {
                let b = pt(b);
                let (w, h) = (size.width() - 2.0 * b, size.height() - 2.0 * b);
                krilla::geom::Rect::from_xywh(pt(p.at[0]) + b, pt(p.at[1]) + b, w, h)
            });
            let outline = cut.and_then(|r| {
                let mut path = krilla::geom::PathBuilder::new();
                path.push_rect(r);
                path.finish()
            });
            if let Some(outline) = &outline {
                surface.push_clip_path(outline, &krilla::paint::FillRule::NonZero);
            }
            surface.push_transform(&Transform::from_translate(pt(p.at[0]), pt(p.at[1])));
            surface.draw_svg(&p.tree, size, SvgSettings::default());
            surface.pop();
            if let Some(outline) = &outline {
                surface.pop();
                surface.set_fill(None);
                surface.set_stroke(Some(krilla::paint::Stroke {
                    width: 0.5,
                    paint: krilla::color::rgb::Color::new(150, 150, 150).into(),
                    ..Default::default()
                }));
                surface.draw_path(outline);
                surface.set_stroke(None);
            }
        }
        surface.finish();
        page.finish();
        self.pages += 1;
        Ok(())
    }

    /// Every page of the PDF `bytes`, each on a page of its own size, labelled
    /// `prefix` 1, 2, …
    pub fn pdf_pages(&mut self, pdf: Arc<Pdf>, prefix: &str) -> Result<usize, String> {
        let sizes: Vec<(f32, f32)> = pdf.pages().iter().map(|p| p.render_dimensions()).collect();
        let doc = PdfDocument::new(pdf);
        for (i, (w, h)) in sizes.iter().enumerate() {
            let settings = PageSettings::from_wh(*w, *h).ok_or("a page of no size")?;
            let label = part_label(NumberingStyle::Arabic, &format!("{prefix} "));
            let mut page = self.doc.start_page_with(settings.with_page_label(label));
            let mut surface = page.surface();
            let size = Size::from_wh(*w, *h).ok_or("a page of no size")?;
            surface.draw_pdf_page(&doc, size, i);
            surface.finish();
            page.finish();
            self.pages += 1;
        }
        Ok(sizes.len())
    }

    /// Pages of `bytes` two-up on sheets of `sheet_mm` (landscape), in booklet order:
    /// folded in half and printed on both sides, they read 1, 2, 3 … (blanks pad them to
    /// a multiple of four); each side labelled `label` 1, 2, … ("Sheet side 1").
    pub fn booklet(
        &mut self,
        bytes: Vec<u8>,
        sheet_mm: (f32, f32),
        label: &str,
    ) -> Result<(), String> {
        let pdf = Arc::new(Pdf::new(Arc::new(bytes)).map_err(|e| format!("{e:?}"))?);
        let count = pdf.pages().len();
        let doc = PdfDocument::new(pdf);
        let (w, h) = (pt(sheet_mm.0), pt(sheet_mm.1));
        let half = Size::from_wh(w / 2.0, h).ok_or("a page of no size")?;
        for (left, right) in booklet_order(count) {
            let settings = PageSettings::from_wh(w, h).ok_or("a page of no size")?;
            let label = part_label(NumberingStyle::Arabic, &format!("{label} "));
            let mut page = self.doc.start_page_with(settings.with_page_label(label));
            let mut surface = page.surface();
            for (x, p) in [(0.0, left), (w / 2.0, right)] {
                // Page numbers past the document are the blanks that pad it.
                if p <= count {
                    surface.push_transform(&Transform::from_translate(x, 0.0));
                    surface.draw_pdf_page(&doc, half, p - 1);
                    surface.pop();
                }
            }
            surface.finish();
            page.finish();
            self.pages += 1;
        }
        Ok(())
    }

    /// The PDF, with its bookmarks, asking to be printed at 100 % with the flip `duplex`
    /// (`Simplex`, `DuplexFlipShortEdge`, …).
    pub fn finish(mut self, duplex: &str) -> Result<Vec<u8>, String> {
        let mut outline = Outline::new();
        for mark in &self.marks {
            outline.push_child(node(mark));
        }
        self.doc.set_outline(outline);
        let bytes = self.doc.finish().map_err(|e| format!("the PDF cannot be made: {e:?}"))?;
        let mut pdf = std::io::Cursor::new(bytes);
        crate::export::catalog::add_print_preferences(&mut pdf, duplex)
            .map_err(|e| format!("the PDF cannot be made: {e}"))?;
        Ok(pdf.into_inner())
    }
}

fn node(mark: &Mark) -> OutlineNode {
    let mut node = OutlineNode::new(
        mark.title.clone(),
        XyzDestination::new(mark.page, Point::from_xy(0.0, 0.0)),
    );
    for child in &mark.children {
        node.push_child(self::node(child));
    }
    node
}

/// The booklet's sheet sides, each (left page, right page), 1-based, for `pages` pages
/// padded to a multiple of four: 8 pages are 8|1, 2|7, 6|3, 4|5.
pub fn booklet_order(pages: usize) -> Vec<(usize, usize)> {
    let n = pages.max(1).div_ceil(4) * 4;
    let mut sides = Vec::new();
    for sheet in 0..n / 4 {
        let (a, b) = (2 * sheet + 1, 2 * sheet + 2);
        sides.push((n + 1 - a, a));
        sides.push((b, n + 1 - b));
    }
    sides
}

#[cfg(test)]
mod tests {
    #[test]
    fn eight_pages_fold_as_a_saddle_stitched_booklet() {
        assert_eq!(super::booklet_order(8), vec![(8, 1), (2, 7), (6, 3), (4, 5)]);
        assert_eq!(super::booklet_order(5), vec![(8, 1), (2, 7), (6, 3), (4, 5)]);
    }
}
