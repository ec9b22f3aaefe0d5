//! The raster sink (`Sink::Raster`), the one painter of pictures, with resvg at the
//! asked dpi:
//! - a document's pages, a PNG per page, instead of a PDF: `preview`'s pictures of box
//!   flats and label sheets, or any other document of a plan. A page is drawn as paper:
//!   white, each piece's art on its place clipped as the PDF clips it, and a box's
//!   die-line; crop marks, guides and slugs are the PDF's and are left out;
//! - its picture mode (`PictureMode`), for `preview` and `watch`: a set of pictures
//!   (`Body::Pictures`), each card design and side, board or pad as a PNG on transparent
//!   paper cut to the piece's outline, with `--cvd`, `--proof` and `--guides`, boards and
//!   pads capped at 4096 px; a deck's contact sheets made from its thumbnails a hundred
//!   at a time; a picture whose filled SVG is what the cache last drew is not drawn again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use resvg::tiny_skia::{
    FillRule, Mask, Paint, PathBuilder, Pixmap, PixmapPaint, Stroke, StrokeDash, Transform,
};

use super::contact;
use super::pictures::{Picture, Set, Which, THUMB_WIDTH};
use super::{Content, Made};
use crate::diag::{plural, Failure, Grouped};
use crate::export::raster as png;
use crate::layout::{ArtRef, Pages, PathStep, Sheet};
use crate::length::{Length, PT_PER_MM};
use crate::model::{ArtSource, Catalogue};
use crate::output::fingerprint;
use crate::output::write_preview;
use crate::parallel::par_map;
use crate::press::Press;
use crate::progress::Progress;
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
        made.push(Made::beside(path, Content::Bytes(bytes)));
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

/// Colours that move more than this (CIEDE2000) through the press are listed.
pub const PROOF_DELTA_E: f64 = 10.0;

/// `cards/x.png` → `cards/x.proof.png`: where a picture's soft proof goes.
pub fn proof_file(file: &str) -> String {
    preview_name(PREVIEW.proof, &[("stem", file.strip_suffix(".png").unwrap_or(file))])
}

/// What earlier runs of the picture mode drew, so that `watch` redraws only the pictures
/// whose filled SVG changed. Fingerprints, not pictures: it stays small however large the
/// deck.
#[derive(Default)]
pub struct PictureCache {
    /// PNG path → fingerprint of the filled SVG it was drawn from.
    drawn: HashMap<PathBuf, u64>,
    /// Contact sheet path → fingerprint of what it shows.
    sheets: HashMap<PathBuf, u64>,
    /// The game's id from the last catalogue that loaded: where to put the gallery that
    /// reports a catalogue that no longer loads (a half-saved `game.toml`).
    pub game: Option<String>,
}

impl PictureCache {
    /// Whether the picture at `path` is up to date with what it was drawn from.
    pub fn has(&self, path: &Path) -> bool {
        self.drawn.contains_key(path)
    }

    /// The picture at `path` was drawn from art fingerprinted `art`.
    pub fn note(&mut self, path: PathBuf, art: u64) {
        self.drawn.insert(path, art);
    }

    /// The picture at `path` must be drawn again (its piece can no longer be drawn).
    pub fn forget(&mut self, path: &Path) {
        self.drawn.remove(path);
    }
}

/// The raster sink's picture mode (`Sink::Raster { pictures: Some(..) }`): how `preview`
/// and `watch` want their pictures, and what drawing them did.
pub struct PictureMode {
    /// The preview folder the pictures and contact sheets are written into.
    pub dir: PathBuf,
    /// `--cvd`: as a player with that colour-vision deficiency sees them.
    pub cvd: Option<crate::render::colour::Deficiency>,
    /// `--proof`: each picture's soft proof beside it, through this press.
    pub press: Option<Arc<Press>>,
    /// `--guides`: the bleed and the cut drawn over each card.
    pub guides: bool,
    pub progress: Progress,
    pub state: Mutex<PicturesDrawn>,
}

/// What the picture mode did, for the gallery and `watch`.
#[derive(Default)]
pub struct PicturesDrawn {
    pub cache: PictureCache,
    /// Pictures drawn anew, and kept from the previous run.
    pub drawn: usize,
    pub kept: usize,
    /// Every problem met drawing pieces, grouped across batches.
    pub problems: Grouped,
    /// Each set drawn: its pictures' art and moved colours, its contact sheets.
    pub sets: Vec<Set>,
}

/// Draws a set of pictures (`Body::Pictures`) of `cat` in `lang`: a deck a contact sheet
/// at a time, each picture whose art changed since `mode`'s cache was filled, then the
/// sheet where what it shows changed; or the boards and pads, or the pictures alone of a
/// set without contact sheets. What was drawn is kept in `mode.state`.
pub fn draw_set(
    cat: &Catalogue,
    lang: Option<&str>,
    set: &Set,
    mode: &PictureMode,
    dpi: u32,
) -> Result<(), Failure> {
    let mut state = mode.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut set = set.clone();
    let mut painter = Painter { mode, dpi, state: &mut state };
    match set.deck.filter(|_| set.contact_sheets) {
        Some(d) => draw_deck(cat, lang, d, &mut set, &mut painter)?,
        None => {
            let all: Vec<&Picture> = set.pictures.iter().collect();
            let pieces = render_some(cat, set.deck, &all, lang, &mut painter.state.problems);
            draw_batch(&mut set.pictures, pieces, false, &mut painter)?;
        }
    }
    state.sets.push(set);
    Ok(())
}

/// A batch of pictures being drawn: how, and what drawing did so far.
struct Painter<'a> {
    mode: &'a PictureMode,
    dpi: u32,
    state: &'a mut PicturesDrawn,
}

/// Draws deck `d`'s set a contact sheet at a time: its cards' PNGs where their art
/// changed, and the sheet where what it shows changed.
fn draw_deck(
    cat: &Catalogue,
    lang: Option<&str>,
    d: usize,
    deck: &mut Set,
    painter: &mut Painter,
) -> Result<(), Failure> {
    let dir = painter.mode.dir.clone();
    let game = cat.name_in(lang).to_string();
    let pages = deck.pages();
    let (designs, cards) =
        (plural(deck.designs, "design"), plural(deck.card_count() as usize, "card"));
    // A contact sheet is put together and written on a thread of its own while the next
    // sheet's cards are drawn: it was two fifths of a large deck's preview, on one core.
    std::thread::scope(|scope| -> Result<(), Failure> {
        let mut writing: Option<std::thread::ScopedJoinHandle<'_, Result<(), Failure>>> = None;
        let finish = |handle: std::thread::ScopedJoinHandle<'_, Result<(), Failure>>| {
            handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        };
        for (n, range) in pages.iter().enumerate() {
            let page = crate::services::page_suffix(n + 1, pages.len());
            let fields = [("deck", deck.slug.as_str()), ("page", &page)];
            let name = preview_name(PREVIEW.contact, &fields);
            let path = dir.join(&name);
            let batch: Vec<&Picture> = deck.pictures[range.clone()].iter().collect();
            let pieces = render_some(cat, Some(d), &batch, lang, &mut painter.state.problems);
            let pictures = &mut deck.pictures[range.clone()];
            note_art(pictures, &pieces);
            let title = match pages.len() {
                1 => format!("{game} — {} · {designs}, {cards}", deck.name),
                _ => format!(
                    "{game} — {} · {designs}, {cards} · sheet {} of {}",
                    deck.name,
                    n + 1,
                    pages.len()
                ),
            };
            let key = contact_key(pictures, &title);
            let cache = &painter.state.cache;
            let sheet_stale = cache.sheets.get(&path) != Some(&key) || !path.is_file();
            let thumbs = draw_batch(pictures, pieces, sheet_stale, painter)?;
            if sheet_stale {
                let cells: Vec<(String, Option<u32>, Option<Pixmap>)> = pictures
                    .iter()
                    .zip(thumbs)
                    .map(|(p, thumb)| (p.label.clone(), p.count, thumb))
                    .collect();
                let size =
                    pictures.first().and_then(|p| p.thumb).unwrap_or((THUMB_WIDTH, THUMB_WIDTH));
                if let Some(previous) = writing.take() {
                    finish(previous)?;
                }
                let file = path.clone();
                writing = Some(scope.spawn(move || {
                    let cells: Vec<contact::Cell> = cells
                        .iter()
                        .map(|(label, count, thumb)| contact::Cell {
                            label,
                            count: *count,
                            thumb: thumb.as_ref(),
                        })
                        .collect();
                    let sheet = contact::sheet(&title, &cells, size).map_err(Failure::Io)?;
                    write_preview(&file, &png::encode_fast(sheet).map_err(Failure::Io)?)
                }));
                painter.state.cache.sheets.insert(path, key);
            }
            deck.contact.push(name);
        }
        writing.map_or(Ok(()), finish)
    })
}

/// What a contact sheet shows, as a number: its cells' captions, art and counts, and its
/// title.
fn contact_key(pictures: &[Picture], title: &str) -> u64 {
    let art: Vec<String> =
        pictures.iter().map(|p| p.art.map_or("-".to_string(), |f| format!("{f:016x}"))).collect();
    let parts = pictures.iter().zip(&art).flat_map(|(p, art)| [p.label.as_str(), art.as_str()]);
    let counts: Vec<String> =
        pictures.iter().map(|p| p.count.map_or(String::new(), |n| n.to_string())).collect();
    fingerprint(parts.chain(counts.iter().map(String::as_str)).chain([title]))
}

/// Draws the PNG of every picture whose art changed since it was last drawn, and with
/// `thumbs` the contact-sheet thumbnail of every picture that has art (in order; `None`
/// for the others), on every core. Records what was drawn in the cache.
fn draw_batch(
    pictures: &mut [Picture],
    pieces: Vec<Option<crate::render::Piece>>,
    thumbs: bool,
    painter: &mut Painter,
) -> Result<Vec<Option<Pixmap>>, Failure> {
    let (mode, dpi) = (painter.mode, painter.dpi);
    let dir = &mode.dir;
    let state = &mut *painter.state;
    note_art(pictures, &pieces);
    let jobs: Vec<(&Picture, Option<&usvg::Tree>, bool)> = pictures
        .iter()
        .zip(&pieces)
        .map(|(p, piece)| {
            let path = dir.join(&p.file);
            let proof_missing = mode.press.is_some() && !dir.join(proof_file(&p.file)).is_file();
            let stale = p.art.is_some()
                && (state.cache.drawn.get(&path) != p.art.as_ref()
                    || !path.is_file()
                    || proof_missing);
            (p, piece.as_ref().and_then(|piece| piece.tree.as_deref()), stale)
        })
        .collect();
    let results = par_map(&jobs, |&(picture, tree, stale)| {
        mode.progress.tick();
        let Some(tree) = tree else { return Ok(None) };
        if stale {
            draw_picture(picture, tree, mode, dpi)?;
        }
        match (thumbs, picture.thumb) {
            (true, Some((tw, th))) => png::draw(tree, picture.size, tw, th)
                .map(|mut p| {
                    png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
                    as_seen(&mut p, mode.cvd);
                    Some(p)
                })
                .map_err(Failure::Io),
            _ => Ok(None),
        }
    });
    for (&(picture, _, stale), _) in jobs.iter().zip(&results) {
        if let Some(art) = picture.art {
            if stale {
                state.cache.drawn.insert(dir.join(&picture.file), art);
                state.drawn += 1;
            } else {
                state.kept += 1;
            }
        }
    }
    if let Some(press) = &mode.press {
        for (picture, piece) in pictures.iter_mut().zip(&pieces) {
            if let Some(tree) = piece.as_ref().and_then(|p| p.tree.as_ref()) {
                picture.moved = crate::press::moved_colours(press, tree, PROOF_DELTA_E);
            }
        }
    }
    results.into_iter().collect()
}

/// Records which pictures could be drawn, and from what.
fn note_art(pictures: &mut [Picture], pieces: &[Option<crate::render::Piece>]) {
    for (picture, piece) in pictures.iter_mut().zip(pieces) {
        // A change of `corner` alone redraws it.
        let outline = format!("{:?} {}", picture.shape, picture.corner);
        picture.art = piece
            .as_ref()
            .filter(|p| p.tree.is_some())
            .map(|p| fingerprint([p.svg.as_deref().unwrap_or_default(), outline.as_str()]));
    }
}

/// Draws one picture at `dpi` and writes its PNG (and its soft proof) into `mode.dir`:
/// on transparent paper cut to the piece's outline, or with `--guides` its bleed and cut.
pub fn draw_picture(
    picture: &Picture,
    tree: &usvg::Tree,
    mode: &PictureMode,
    dpi: u32,
) -> Result<(), Failure> {
    let (w, h) = picture.pixels(dpi)?;
    let full = match mode.guides && picture.thumb.is_some() {
        // Deck pieces only: boards and pads have no bleed.
        true => png::draw_guides(
            tree,
            picture.size,
            picture.shape,
            picture.corner,
            Length::mm(3.0),
            dpi,
        ),
        false => png::draw(tree, picture.size, w, h).map(|mut p| {
            png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
            p
        }),
    }
    .map_err(Failure::Io)?;
    let mut full = full;
    as_seen(&mut full, mode.cvd);
    let proof = mode.press.as_ref().map(|press| proofed(&full, press));
    write_preview(&mode.dir.join(&picture.file), &png::encode_fast(full).map_err(Failure::Io)?)?;
    if let Some(proof) = proof {
        let file = mode.dir.join(proof_file(&picture.file));
        write_preview(&file, &png::encode_fast(proof).map_err(Failure::Io)?)?;
    }
    Ok(())
}

/// A picture as a player with a colour-vision deficiency sees it (`--cvd`).
fn as_seen(picture: &mut Pixmap, cvd: Option<crate::render::colour::Deficiency>) {
    let Some(cvd) = cvd else { return };
    let mut seen = HashMap::new();
    for p in picture.pixels_mut() {
        let c = p.demultiply();
        let [r, g, b] = *seen
            .entry([c.red(), c.green(), c.blue()])
            .or_insert_with_key(|rgb| cvd.simulate(*rgb));
        *p = resvg::tiny_skia::ColorU8::from_rgba(r, g, b, c.alpha()).premultiply();
    }
}

/// A picture as the press prints it: every pixel through CMYK and back to screen.
fn proofed(pixmap: &Pixmap, press: &Press) -> Pixmap {
    let mut rgba = crate::images::straight_rgba(pixmap);
    press.proof_pixels(&mut rgba);
    let mut out = pixmap.clone();
    for (p, c) in out.pixels_mut().iter_mut().zip(rgba.chunks_exact(4)) {
        *p = resvg::tiny_skia::ColorU8::from_rgba(c[0], c[1], c[2], c[3]).premultiply();
    }
    out
}

/// Fills and parses the pictures of deck `d` (or the sheets) listed in `pictures`, from
/// the catalogue (valid or not); returns their pieces in that order, and hands the problems
/// met to `problems`.
pub fn render_some(
    cat: &Catalogue,
    d: Option<usize>,
    pictures: &[&Picture],
    lang: Option<&str>,
    problems: &mut Grouped,
) -> Vec<Option<crate::render::Piece>> {
    let decks = cat.decks.len();
    let (mut faces, mut backs) = (vec![Vec::new(); decks], vec![Vec::new(); decks]);
    let mut shared = false;
    let per_card = d.is_some_and(|d| cat.decks[d].back_per_card);
    for p in pictures {
        match (d, p.which) {
            (Some(d), Which::Face(row)) => faces[d].push(row),
            (Some(d), Which::Back(row)) if per_card => backs[d].push(row),
            (Some(_), Which::Back(_)) => shared = true,
            _ => {}
        }
    }
    let sizes: Vec<(Length, Length)> =
        cat.sheets.iter().map(|s| super::pictures::pictured_size(s.size)).collect();
    let players = cat.players.map_or(1, |(_, max)| max);
    let request = crate::render::Request {
        wanted: &|_, _| false,
        rows: Some(&faces),
        back_rows: Some(&backs),
        shared_back: &|deck| shared && Some(deck) == d,
        sheet_sizes: d.is_none().then_some(&sizes[..]),
        players,
        lang,
        drawn_before: None,
    };
    let drawn = crate::render::pieces(cat, &request);
    problems.extend(drawn.problems);
    let mut by_piece: HashMap<(bool, usize), crate::render::Piece> = HashMap::new();
    if let Some(deck) = d.and_then(|d| drawn.decks.into_iter().nth(d)) {
        by_piece.extend(deck.faces.into_iter().map(|(row, p)| ((false, row), p)));
        by_piece.extend(deck.backs.into_iter().map(|(row, p)| ((true, row), p)));
    }
    let mut sheets = drawn.sheets.into_iter().map(Some).collect::<Vec<_>>().into_iter();
    pictures
        .iter()
        .map(|p| match p.which {
            Which::Face(row) => by_piece.remove(&(false, row)),
            Which::Back(row) => by_piece.remove(&(true, row)),
            Which::Sheet => sheets.next().flatten(),
        })
        .collect()
}
