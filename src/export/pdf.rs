//! Stage `export` (PDF): `Sheet`s + `Art` → PDF bytes, with krilla. Art that is drawn on
//! more than one page, or many times on one, becomes one PDF form XObject, drawn wherever
//! the sheets place it: the back is written once for the whole document, a board once for
//! all its tiles, a token once for its sheet. Other art is drawn straight into its page's
//! content stream, where it is compressed together with the page's other cards: cards from
//! one template share most of their drawing, which separately compressed XObjects (each
//! with its own object, resources and stream dictionary) cannot take advantage of.

mod finish;
mod page;
mod pipeline;
mod settings;

use std::collections::HashMap;

use krilla::Document;
use krilla_svg::SvgSettings;

use crate::layout::{ArtRef, Pages};
use crate::model::ArtSource;
use crate::press::{Finding, Press};
use pipeline::{survey, Survey};

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

/// Documents of more pages than this keep their pages' content in a temporary file.
const SPOOL_PAGES: usize = 64;

/// Why `write_pdf` wrote no PDF.
#[derive(Debug)]
pub enum PdfFailure {
    /// Its file could not be written.
    Io(std::io::Error),
    /// The document could not be made.
    Pdf(String),
}

impl From<String> for PdfFailure {
    fn from(e: String) -> Self {
        PdfFailure::Pdf(e)
    }
}

impl From<&str> for PdfFailure {
    fn from(e: &str) -> Self {
        PdfFailure::Pdf(e.to_string())
    }
}

impl std::fmt::Display for PdfFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PdfFailure::Io(e) => write!(f, "cannot write the PDF: {e}"),
            PdfFailure::Pdf(e) => f.write_str(e),
        }
    }
}

/// The most pages one PDF of `press` holds: krilla lists a document's pages in one array,
/// and PDF 1.4 (PDF/X-1a) allows 8,191 elements in an array (krilla refused the file with
/// `Limit(TooLongArray)` after drawing every card: a DriveThruCards deck of 4,096).
pub fn max_pages(press: Option<&Press>) -> Option<usize> {
    press.filter(|p| p.pdfx == crate::press::Pdfx::X1a).map(|_| 8_191)
}

/// Why `file`, of `pages` pages, cannot be one PDF for `press`, if it cannot: said by
/// `validate` and `build` alike, before anything is drawn.
pub fn too_many_pages(
    file: &std::path::Path,
    pages: usize,
    press: Option<&Press>,
) -> Option<String> {
    let most = max_pages(press)?;
    (pages > most).then(|| {
        format!(
            "{} would have {pages} pages, more than the {most} one PDF/X-1a file (PDF 1.4) can hold: make the deck at most {most} pages (split its rows into two decks), or print it as PDF/X-4 (`--pdfx 4`)",
            file.display()
        )
    })
}

/// Writes the PDF of `sheets` to `sink` (a file, staged to be committed; what is there on
/// an error is not a PDF). Returns what its art does that a press needs to hear about
/// (CMYK builds only).
///
/// `sheets` are taken so that what they hold is let go of before the PDF is put together.
pub fn write_pdf(
    sheets: Box<dyn Pages + '_>,
    art: &mut (dyn ArtSource + Send),
    info: &DocInfo,
    print_as: PrintAs,
    press: Option<&Press>,
    sink: &mut dyn krilla::Sink,
) -> Result<Vec<(ArtRef, Finding)>, PdfFailure> {
    let settings = settings::serialize_settings(press)?;
    // Raster art decoded once per document, not once per drawing; dropped with the document.
    let images = krilla_svg::ImageCache::default();
    let svg_settings = SvgSettings {
        colour: press.map(|p| p as &dyn krilla_svg::ColourMap),
        images: Some(&images),
        ..SvgSettings::default()
    };
    let mut document = Document::new_with(settings);
    // A long document's pages wait in a temporary file, not in memory, until the file is
    // put together: a 100,000-card deck's content streams are 26 MB. (Without a temporary
    // file they are kept in memory: the PDF is the same.)
    if sheets.count() > SPOOL_PAGES {
        if let Ok(file) = tempfile::tempfile() {
            document.spool_pages_to(file);
        }
    }
    document.set_metadata(settings::metadata(info, press));
    let Survey { shared, batches, uses, decor_uses } = survey(&*sheets);
    let mut drawing = page::Drawing {
        press,
        svg_settings,
        shared,
        decor_uses,
        graphics: HashMap::new(),
        decors: HashMap::new(),
        inspections: Vec::new(),
        inspected: HashMap::new(),
    };
    pipeline::run(&*sheets, batches, &uses, art, press, |sheet, trees| {
        drawing.page(&mut document, sheet, trees)
    })?;
    // Finishing holds every page and the whole file at once: the rest goes first (a
    // 100,000-card deck's pieces and where each is drawn are 13 MB).
    let inspections = std::mem::take(&mut drawing.inspections);
    drop((sheets, uses, drawing));
    if let Some(press) = press {
        press.forget_laid_ahead();
    }
    // ...and the pages the drawing left free go back to the OS before the file's bytes are
    // put together.
    crate::render::give_back_memory();
    finish::finish(document, sink, print_as, press, inspections)
}

/// What `write_pdf` checks of `sheets` without writing a PDF (`validate`): every piece of
/// art is drawn, a batch at a time, and for a press its colours and images inspected, as
/// the writer would; the findings the writer would report.
pub fn check(
    sheets: &dyn Pages,
    art: &mut dyn ArtSource,
    press: Option<&Press>,
) -> Result<Vec<(ArtRef, Finding)>, String> {
    if let Some(press) = press {
        press.ready()?;
    }
    let mut findings = Vec::new();
    for (_, refs) in survey(sheets).batches {
        art.prepare(&refs);
        if let Some(press) = press {
            for &r in &refs {
                let found =
                    art.tree(r).map(|t| crate::press::inspect(press, t)).unwrap_or_default();
                findings.extend(found.into_iter().map(|f| (r, f)));
            }
        }
        art.release();
    }
    Ok(findings)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use krilla::geom::{PathBuilder, Rect as PdfRect};
    use krilla::page::PageSettings;

    use super::*;
    use crate::layout::{Placed, Rect, Sheet};
    use crate::length::Length;

    /// Art that is never drawn: each piece is an empty page-sized tree.
    struct Blank;

    impl ArtSource for Blank {
        fn prepare(&mut self, _: &[ArtRef]) {}

        fn shared(&self, _: ArtRef) -> Option<Arc<usvg::Tree>> {
            let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#;
            usvg::Tree::from_str(svg, &crate::svg::sealed(Default::default())).ok().map(Arc::new)
        }
    }

    #[test]
    fn an_error_on_a_page_stops_the_art_thread_too() {
        // Forty pages of one card each: the thread parsing art is batches ahead when page 3
        // (no paper size) fails the PDF; the error must come back, not a hang.
        let mm = Length::mm;
        let mut sheets: Vec<Sheet> = (0..40)
            .map(|row| {
                let rect = Rect { x: mm(10.0), y: mm(10.0), w: mm(63.0), h: mm(88.0) };
                let placed = Placed {
                    art: ArtRef::Face { deck: 0, row },
                    rect,
                    rotated: false,
                    clip: None,
                    bleed: Length::ZERO,
                };
                Sheet { items: vec![placed], ..Sheet::blank(mm(210.0), mm(297.0)) }
            })
            .collect();
        sheets[2].width = Length::ZERO;
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let info = DocInfo { title: "t", author: None, subject: None };
            let sheets = Box::new(sheets);
            let mut sink = std::io::Cursor::new(Vec::new());
            let written = write_pdf(sheets, &mut Blank, &info, PrintAs::Simplex, None, &mut sink);
            let _ = done.send(written.err().map(|e| e.to_string()));
        });
        let error = result
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("write_pdf hung after an error");
        assert_eq!(error.as_deref(), Some("the paper has no size"));
    }

    /// A document of pages that each draw a few paths and words, as krilla finishes it.
    fn document(pages: usize, spool: bool) -> Vec<u8> {
        let mut document = Document::new();
        if spool {
            document.spool_pages_to(tempfile::tempfile().unwrap());
        }
        for i in 0..pages {
            let mut page = document.start_page_with(PageSettings::from_wh(200.0, 300.0).unwrap());
            let mut surface = page.surface();
            let mut path = PathBuilder::new();
            path.push_rect(PdfRect::from_xywh(10.0, 10.0 + i as f32 % 50.0, 80.0, 40.0).unwrap());
            surface.set_fill(Some(krilla::paint::Fill::default()));
            surface.draw_path(&path.finish().unwrap());
            surface.finish();
            page.finish();
        }
        document.finish().unwrap()
    }

    #[test]
    fn pages_kept_in_a_temporary_file_give_the_same_pdf() {
        // What `write_pdf` does for a long deck must not change a byte of its file.
        let held = document(150, false);
        let spooled = document(150, true);
        assert!(held.len() > 10_000, "{} bytes", held.len());
        assert!(held == spooled, "the spooled PDF differs");
    }
}
