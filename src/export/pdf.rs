//! Stage `export` (PDF): `Sheet`s + `Art` → PDF bytes, with krilla. Art that is drawn on
//! more than one page, or many times on one, becomes one PDF form XObject, drawn wherever
//! the sheets place it: the back is written once for the whole document, a board once for
//! all its tiles, a token once for its sheet. Other art is drawn straight into its page's
//! content stream, where it is compressed together with the page's other cards: cards from
//! one template share most of their drawing, which separately compressed XObjects (each
//! with its own object, resources and stream dictionary) cannot take advantage of.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Rect as PdfRect, Size, Transform};
use krilla::graphic::Graphic;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::{FillRule, Stroke};
use krilla::surface::Surface;
use krilla::{Document, SerializeSettings};
use krilla_svg::{SurfaceExt, SvgSettings};

use crate::layout::{registration, ArtRef, Outline, Pages, PathStep, Rect, Sheet};
use crate::press::{Finding, Pdfx, Press};
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

/// Pages of art parsed per batch, at most: the trees of three batches are in memory at a
/// time (one drawn, one waiting, one being parsed).
const MAX_BATCH_PAGES: usize = 8;

/// Documents of more pages than this keep their pages' content in a temporary file.
const SPOOL_PAGES: usize = 64;

/// Art PDF/X-1a cannot hold (transparency) is drawn as one CMYK picture at this resolution.
const FLATTEN_DPI: f32 = 600.0;
/// ...but never more pixels than this for one piece (a flattened board).
const FLATTEN_MAX_PIXELS: f32 = 40e6;

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
    let duplex = match print_as {
        PrintAs::Simplex => "Simplex",
        PrintAs::DuplexLongEdge => "DuplexFlipLongEdge",
        PrintAs::DuplexShortEdge => "DuplexFlipShortEdge",
    };
    let mut settings = SerializeSettings::default();
    if let Some(press) = press {
        let profile = press.embedded_profile().ok_or("the CMYK profile cannot be embedded")?;
        let c = &press.condition;
        settings.press = Some(krilla::PressIntent {
            profile,
            identifier: c.identifier.clone(),
            condition: c.condition.clone(),
            info: c.info.clone(),
            registry: c.registry.clone(),
            version: press.pdfx.version().to_string(),
        });
        // PDF/X-1a:2003 is PDF 1.4; PDF/X-4 is PDF 1.6.
        let version = if press.pdfx == Pdfx::X1a {
            krilla::configure::PdfVersion::Pdf14
        } else {
            krilla::configure::PdfVersion::Pdf16
        };
        settings.configuration = krilla::configure::ConfigurationBuilder::new()
            .with_version(version)
            .finish()
            .map_err(|e| format!("{e:?}"))?;
    }
    // Raster art decoded once per document, not once per drawing; dropped with the document.
    let images = krilla_svg::ImageCache::default();
    let svg_settings = SvgSettings {
        colour: press.map(|p| p as &dyn krilla_svg::ColourMap),
        images: Some(&images),
        ..SvgSettings::default()
    };
    // What each piece's art needs the press to hear about; a photo's ink is known once it
    // is converted, while the pages are drawn.
    let mut inspections: Vec<(ArtRef, crate::press::Inspection)> = Vec::new();
    let mut inspected: HashMap<ArtRef, bool> = HashMap::new();
    let mut document = Document::new_with(settings);
    // A long document's pages wait in a temporary file, not in memory, until the file is
    // put together: a 100,000-card deck's content streams are 26 MB. (Without a temporary
    // file they are kept in memory: the PDF is the same.)
    if sheets.count() > SPOOL_PAGES {
        if let Ok(file) = tempfile::tempfile() {
            document.spool_pages_to(file);
        }
    }
    // No dates and a document id derived from the content: the same input gives the same
    // bytes. PDF/X needs dates: SOURCE_DATE_EPOCH (reproducible builds) or now.
    let mut metadata =
        Metadata::new().title(info.title.to_string()).creator("deckpress".to_string());
    if press.is_some() {
        metadata = metadata.creation_date(build_date());
    }
    if let Some(author) = info.author {
        metadata = metadata.authors(vec![author.to_string()]);
    }
    if let Some(subject) = info.subject {
        metadata = metadata.description(subject.to_string());
    }
    document.set_metadata(metadata);
    let Survey { shared, batches, uses, decor_uses } = survey(&*sheets);
    // Each piece of shared art becomes one XObject at the size it is first placed; later
    // placements scale it.
    let mut graphics: HashMap<ArtRef, (Graphic, f32, f32)> = HashMap::new();
    // Page marks by layer: the layout makes a layer the pages share one value.
    let layer_key = |layer: &Arc<crate::layout::marks::Layer>| Arc::as_ptr(layer) as usize;
    let mut decors: HashMap<usize, Graphic> = HashMap::new();
    // The art is filled and parsed on another thread, a batch of pages ahead, while this
    // one draws: drawing into the PDF cannot be shared between threads, parsing can.
    let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<(ArtRef, Arc<usvg::Tree>)>>(1);
    std::thread::scope(|scope| -> Result<(), String> {
        // Owned here, so that the receiver is gone when this returns early with an error:
        // a producer blocked sending to it stops, instead of the scope waiting for it.
        let mut receiver = receiver;
        // Where each batch starts, kept here: the batches themselves go to the producer.
        let starts: Vec<usize> = batches.iter().map(|(pages, _)| pages.start).collect();
        let mut next_batch = starts.into_iter().peekable();
        let produce = move || {
            for (_, refs) in batches {
                art.prepare(&refs);
                let trees: Vec<_> =
                    refs.iter().filter_map(|&r| Some((r, art.shared(r)?))).collect();
                art.release();
                if sender.send(trees).is_err() {
                    break; // the writer stopped at an error
                }
            }
        };
        std::thread::Builder::new()
            .stack_size(crate::parallel::STACK)
            .spawn_scoped(scope, produce)
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        // For PDF/X-1a, translucent images are laid onto their backdrops on a thread
        // between the parsing and the drawing: a stage of its own, or one of the two
        // would wait for it.
        if let Some(press) = press.filter(|p| p.pdfx == Pdfx::X1a) {
            let (forward, laid) =
                std::sync::mpsc::sync_channel::<Vec<(ArtRef, Arc<usvg::Tree>)>>(1);
            let parsed = std::mem::replace(&mut receiver, laid);
            let lay = move || {
                for trees in parsed {
                    for (_, tree) in &trees {
                        press.lay_ahead(tree);
                    }
                    if forward.send(trees).is_err() {
                        break;
                    }
                }
            };
            std::thread::Builder::new()
                .stack_size(crate::parallel::STACK)
                .spawn_scoped(scope, lay)
                .map_err(|e| format!("cannot start a thread: {e}"))?;
        }
        // The press's colour transform is made on a thread of its own meanwhile.
        if let Some(press) = press {
            press.ready()?;
        }
        let mut trees: HashMap<ArtRef, Arc<usvg::Tree>> = HashMap::new();
        for i in 0..sheets.count() {
            let page = sheets.page(i);
            let sheet = &*page;
            if next_batch.next_if_eq(&i).is_some() {
                // Only a producer that panicked sends nothing; the scope passes its panic on.
                trees.extend(receiver.recv().unwrap_or_default());
            }
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
                // The art's canvas: the piece and its bleed (clipped to what the sheet shows).
                let r = &placed.rect.grown(placed.bleed);
                let size =
                    Size::from_wh(r.w.to_pt(), r.h.to_pt()).ok_or("a piece of art has no size")?;
                if let Some(clip) = &placed.clip {
                    let mut builder = PathBuilder::new();
                    push_outline(&mut builder, clip);
                    surface
                        .push_clip_path(&builder.finish().ok_or("empty clip")?, &FillRule::NonZero);
                }
                // For a press: each piece's colours and images checked once; what PDF/X-1a
                // cannot hold is drawn as one CMYK picture.
                if let Some(press) = press {
                    let flatten = match inspected.get(&placed.art) {
                        Some(&f) => f,
                        None => {
                            let f = match trees.get(&placed.art) {
                                Some(tree) => {
                                    let found = crate::press::inspect_ahead(press, tree);
                                    let f = press.pdfx == Pdfx::X1a && found.transparent();
                                    inspections.push((placed.art, found));
                                    f
                                }
                                None => false,
                            };
                            inspected.insert(placed.art, f);
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
                        pop_clip(&mut surface, placed.clip.is_some());
                        continue;
                    }
                }
                if shared.contains(&placed.art) {
                    let (graphic, gw, gh) = match graphics.get(&placed.art) {
                        Some(g) => g.clone(),
                        None => {
                            // A piece that could not be drawn is reported by the art source;
                            // the PDF is not written then, so its slot can stay empty.
                            let Some(tree) = trees.get(&placed.art).map(|t| &**t) else {
                                pop_clip(&mut surface, placed.clip.is_some());
                                continue;
                            };
                            let g = (
                                make_graphic(&mut surface, tree, size, svg_settings),
                                size.width(),
                                size.height(),
                            );
                            graphics.insert(placed.art, g.clone());
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
                        pop_clip(&mut surface, placed.clip.is_some());
                        continue;
                    };
                    surface.push_transform(&slot_transform(r, placed.rotated, 1.0, 1.0));
                    surface.draw_svg(tree, size, svg_settings);
                }
                surface.pop();
                if placed.clip.is_some() {
                    surface.pop();
                }
            }
            if sheet.printable.is_some() {
                surface.pop();
            }
            draw_marks(&mut surface, sheet, press);
            draw_guides(&mut surface, &sheet.guides, press);
            if let Some(die) = &sheet.die {
                let paints = match press {
                    Some(_) => super::die::DiePaints::press(),
                    None => super::die::DiePaints {
                        cut: mark_paint(0, press),
                        fold: mark_paint(110, press),
                        overprint: false,
                    },
                };
                super::die::draw(&mut surface, die, paints);
            }
            if sheet.registration {
                draw_registration(&mut surface, sheet, press);
            }
            // Identical page marks (the slug of a deck, but its sheet number) are one reusable object.
            for decor in &sheet.decor {
                let size = Size::from_wh(w, h).ok_or("the paper has no size")?;
                let key = layer_key(decor);
                if decor_uses.get(&key).copied().unwrap_or(0) < 2 {
                    surface.draw_svg(
                        &super::marks::tree(decor, (sheet.width, sheet.height))?,
                        size,
                        svg_settings,
                    );
                } else {
                    let graphic = match decors.get(&key) {
                        Some(g) => g.clone(),
                        None => {
                            let g = make_graphic(
                                &mut surface,
                                &super::marks::tree(decor, (sheet.width, sheet.height))?,
                                size,
                                svg_settings,
                            );
                            decors.insert(key, g.clone());
                            g
                        }
                    };
                    surface.draw_graphic(graphic);
                }
            }
            surface.finish();
            page.finish();
            // Trees no later page draws are let go of (shared art is an XObject by now): the
            // page's own, unless `uses` holds a later page for them.
            for placed in &sheet.items {
                if uses.get(&placed.art).is_none_or(|u| u.last_page <= i) {
                    trees.remove(&placed.art);
                }
            }
        }
        Ok(())
    })?;
    // Finishing holds every page and the whole file at once: the rest goes first (a
    // 100,000-card deck's pieces and where each is drawn are 13 MB).
    drop((sheets, shared, uses, decor_uses, graphics, decors, inspected));
    if let Some(press) = press {
        press.forget_laid_ahead();
    }
    // ...and the pages the drawing left free go back to the OS before the file's bytes are
    // put together.
    crate::render::give_back_memory();
    // Written a few megabytes at a time: the whole file is never in memory.
    document.finish_to(sink).map_err(|e| match e {
        krilla::error::KrillaError::Io(e) => PdfFailure::Io(std::io::Error::other(e)),
        e => PdfFailure::Pdf(format!("the PDF writer failed: {e:?}")),
    })?;
    super::catalog::add_print_preferences(sink, duplex).map_err(PdfFailure::Io)?;
    let mut findings = Vec::new();
    if let Some(press) = press {
        for (art, inspection) in inspections {
            findings.extend(inspection.findings(press).into_iter().map(|f| (art, f)));
        }
    }
    Ok(findings)
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

/// When a PDF/X says it was made: `SOURCE_DATE_EPOCH` if set (reproducible builds), else now.
fn build_date() -> krilla::metadata::DateTime {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0)
        });
    // Days since 1970 to a civil date (Howard Hinnant's algorithm), UTC.
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    krilla::metadata::DateTime::new(year.clamp(0, 9999) as u16)
        .month(month as u8)
        .day(day as u8)
        .hour((rem / 3600) as u8)
        .minute((rem % 3600 / 60) as u8)
        .second((rem % 60) as u8)
        .utc_offset_hour(0)
        .utc_offset_minute(0)
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

/// Copies of one piece of art that one page draws inline before it is worth an XObject: a
/// repeated copy costs a few dozen compressed bytes, an XObject a few hundred.
const MAX_INLINE_COPIES: usize = 4;

/// Where a piece of art is drawn.
struct Use {
    first_page: usize,
    last_page: usize,
    copies: usize,
}

/// What the writer needs to know of all the pages before it draws the first, found in one
/// pass over them (lazily imposed pages are made once more for it).
struct Survey {
    /// The art worth a form XObject of its own: placed on more than one page, or more than
    /// `MAX_INLINE_COPIES` times.
    shared: HashSet<ArtRef>,
    /// The pages of each batch and the art first drawn on them. The first batches are
    /// short, so that drawing starts soon; later ones hold `MAX_BATCH_PAGES` pages.
    batches: Vec<(Range<usize>, Vec<ArtRef>)>,
    /// Where the art drawn on more than one page is drawn (art of one page has no entry).
    uses: HashMap<ArtRef, Use>,
    /// Pages each page-mark layer is drawn on, by layer.
    decor_uses: HashMap<usize, usize>,
}

fn survey(sheets: &dyn Pages) -> Survey {
    let count = sheets.count();
    let mut survey = Survey {
        shared: HashSet::new(),
        batches: Vec::new(),
        uses: HashMap::new(),
        decor_uses: HashMap::new(),
    };
    let mut batch_len = 1;
    let mut batch: (Range<usize>, Vec<ArtRef>) = (0..0, Vec::new());
    for page in 0..count {
        if page == batch.0.end {
            if page > 0 {
                survey.batches.push(std::mem::take(&mut batch));
                batch_len = (batch_len * 2).min(MAX_BATCH_PAGES);
            }
            batch.0 = page..(page + batch_len).min(count);
        }
        let sheet = sheets.page(page);
        for placed in &sheet.items {
            let one = survey.uses.entry(placed.art).or_insert_with(|| {
                batch.1.push(placed.art);
                Use { first_page: page, last_page: page, copies: 0 }
            });
            one.copies += 1;
            one.last_page = page;
            if one.first_page != page || one.copies > MAX_INLINE_COPIES {
                survey.shared.insert(placed.art);
            }
        }
        for decor in &sheet.decor {
            *survey.decor_uses.entry(Arc::as_ptr(decor) as usize).or_default() += 1;
        }
    }
    if count > 0 {
        survey.batches.push(batch);
    }
    // Only art drawn on more than one page needs its last page kept: a 100,000-card deck's
    // faces were an entry each until every page was drawn.
    survey.uses.retain(|_, one| one.last_page > one.first_page);
    survey.uses.shrink_to_fit();
    survey
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Placed;
    use crate::length::Length;

    /// Art that is never drawn: each piece is an empty page-sized tree.
    struct Blank;

    impl ArtSource for Blank {
        fn prepare(&mut self, _: &[ArtRef]) {}

        fn shared(&self, _: ArtRef) -> Option<Arc<usvg::Tree>> {
            let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#;
            usvg::Tree::from_str(svg, &usvg::Options::default()).ok().map(Arc::new)
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
