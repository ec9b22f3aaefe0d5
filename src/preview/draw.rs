//! Drawing a game's pictures: each deck a contact sheet at a time (the PNGs of the cards
//! whose art changed, then the sheet), boards and pads, with `--guides`, `--cvd` and
//! `--proof` applied, on every core.

use std::path::Path;

use resvg::tiny_skia::Pixmap;

use super::snapshot::{render_some, Picture, Snapshot};
use super::{contact, proof_file, write, Cache, Options, PROOF_DELTA_E, THUMB_WIDTH};
use crate::diag::Failure;
use crate::export::raster as png;
use crate::length::Length;
use crate::model::Catalogue;
use crate::output::fingerprint;
use crate::parallel::par_map;
use crate::progress::Progress;

/// What drawing a game's pictures shares: where they go and how, what earlier builds drew,
/// the progress shown, what was drawn and kept, and the problems met.
pub(super) struct Painter<'a> {
    pub(super) dir: &'a Path,
    pub(super) options: &'a Options,
    pub(super) cache: &'a mut Cache,
    pub(super) progress: &'a Progress,
    pub(super) tally: Tally,
    pub(super) problems: crate::diag::Grouped,
}

/// What drawing a batch of pictures did.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) drawn: usize,
    pub(super) kept: usize,
}

/// Draws deck `d` a contact sheet at a time: its cards' PNGs where their art changed,
/// and the sheet where what it shows changed.
pub(super) fn draw_deck(
    cat: &Catalogue,
    d: usize,
    snap: &mut Snapshot,
    painter: &mut Painter,
) -> Result<(), Failure> {
    let (dir, lang) = (painter.dir, painter.options.lang.as_deref());
    let game = snap.name.clone();
    let deck = &mut snap.decks[d];
    let pages = deck.pages();
    let (designs, cards) = (deck.designs, deck.card_count());
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
            let name = crate::services::preview_name(crate::services::PREVIEW.contact, &fields);
            let path = dir.join(&name);
            let batch: Vec<&Picture> = deck.pictures[range.clone()].iter().collect();
            let pieces = render_some(cat, Some(d), &batch, lang, &mut painter.problems);
            let pictures = &mut deck.pictures[range.clone()];
            note_art(pictures, &pieces);
            let title = match pages.len() {
                1 => format!("{game} — {} · {designs} designs, {cards} cards", deck.name),
                _ => format!(
                    "{game} — {} · {designs} designs, {cards} cards · sheet {} of {}",
                    deck.name,
                    n + 1,
                    pages.len()
                ),
            };
            let art: Vec<String> = pictures
                .iter()
                .map(|p| p.art.map_or("-".to_string(), |f| format!("{f:016x}")))
                .collect();
            let parts =
                pictures.iter().zip(&art).flat_map(|(p, art)| [p.label.as_str(), art.as_str()]);
            let counts: Vec<String> =
                pictures.iter().map(|p| p.count.map_or(String::new(), |n| n.to_string())).collect();
            let key =
                fingerprint(parts.chain(counts.iter().map(String::as_str)).chain([title.as_str()]));
            let sheet_stale = painter.cache.sheets.get(&path) != Some(&key) || !path.is_file();
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
                    write(&file, &png::encode_fast(sheet).map_err(Failure::Io)?)
                }));
                painter.cache.sheets.insert(path, key);
            }
            deck.contact.push(name);
        }
        writing.map_or(Ok(()), finish)
    })
}

/// Draws the PNG of every picture whose art changed since it was last drawn, and with
/// `thumbs` the contact-sheet thumbnail of every picture that has art (in order; `None`
/// for the others), on every core. Records what was drawn in `cache`.
pub(super) fn draw_batch(
    pictures: &mut [Picture],
    pieces: Vec<Option<crate::render::Piece>>,
    thumbs: bool,
    painter: &mut Painter,
) -> Result<Vec<Option<Pixmap>>, Failure> {
    let (dir, options, progress) = (painter.dir, painter.options, painter.progress);
    let (cache, tally) = (&mut *painter.cache, &mut painter.tally);
    note_art(pictures, &pieces);
    let jobs: Vec<(&Picture, Option<&usvg::Tree>, bool)> = pictures
        .iter()
        .zip(&pieces)
        .map(|(p, piece)| {
            let path = dir.join(&p.file);
            let proof_missing = options.press.is_some() && !dir.join(proof_file(&p.file)).is_file();
            let stale = p.art.is_some()
                && (cache.drawn.get(&path) != p.art.as_ref() || !path.is_file() || proof_missing);
            (p, piece.as_ref().and_then(|piece| piece.tree.as_deref()), stale)
        })
        .collect();
    let results = par_map(&jobs, |&(picture, tree, stale)| {
        progress.tick();
        let Some(tree) = tree else { return Ok(None) };
        if stale {
            draw(picture, tree, dir, options)?;
        }
        match (thumbs, picture.thumb) {
            (true, Some((tw, th))) => png::draw(tree, picture.size, tw, th)
                .map(|mut p| {
                    png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
                    as_seen(&mut p, options.cvd);
                    Some(p)
                })
                .map_err(Failure::Io),
            _ => Ok(None),
        }
    });
    for (&(picture, _, stale), _) in jobs.iter().zip(&results) {
        if let Some(art) = picture.art {
            if stale {
                cache.drawn.insert(dir.join(&picture.file), art);
                tally.drawn += 1;
            } else {
                tally.kept += 1;
            }
        }
    }
    if let Some(press) = &options.press {
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

/// Draws one picture at the preview resolution and writes its PNG (and its soft proof).
pub(super) fn draw(
    picture: &Picture,
    tree: &usvg::Tree,
    dir: &Path,
    options: &Options,
) -> Result<(), Failure> {
    let (w, h) = picture.pixels(options.dpi)?;
    let full = match options.guides && picture.thumb.is_some() {
        // Deck pieces only: boards and pads have no bleed.
        true => png::draw_guides(
            tree,
            picture.size,
            picture.shape,
            picture.corner,
            Length::mm(3.0),
            options.dpi,
        ),
        false => png::draw(tree, picture.size, w, h).map(|mut p| {
            png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
            p
        }),
    }
    .map_err(Failure::Io)?;
    let mut full = full;
    as_seen(&mut full, options.cvd);
    let proof = options.press.as_ref().map(|press| proofed(&full, press));
    write(&dir.join(&picture.file), &png::encode_fast(full).map_err(Failure::Io)?)?;
    if let Some(proof) = proof {
        write(
            &dir.join(proof_file(&picture.file)),
            &png::encode_fast(proof).map_err(Failure::Io)?,
        )?;
    }
    Ok(())
}

/// A picture as a player with a colour-vision deficiency sees it (`--cvd`).
fn as_seen(picture: &mut Pixmap, cvd: Option<crate::render::colour::Deficiency>) {
    let Some(cvd) = cvd else { return };
    let mut seen = std::collections::HashMap::new();
    for p in picture.pixels_mut() {
        let c = p.demultiply();
        let [r, g, b] = *seen
            .entry([c.red(), c.green(), c.blue()])
            .or_insert_with_key(|rgb| cvd.simulate(*rgb));
        *p = resvg::tiny_skia::ColorU8::from_rgba(r, g, b, c.alpha()).premultiply();
    }
}

/// A picture as the press prints it: every pixel through CMYK and back to screen.
fn proofed(pixmap: &Pixmap, press: &crate::press::Press) -> Pixmap {
    let mut rgba = crate::images::straight_rgba(pixmap);
    press.proof_pixels(&mut rgba);
    let mut out = pixmap.clone();
    for (p, c) in out.pixels_mut().iter_mut().zip(rgba.chunks_exact(4)) {
        *p = resvg::tiny_skia::ColorU8::from_rgba(c[0], c[1], c[2], c[3]).premultiply();
    }
    out
}
