//! The PDF's drawing pipeline: which art is shared and which pages draw it (`survey`), and
//! the threads that fill and parse the art a batch of pages ahead of the page being drawn
//! (`run`).

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use crate::layout::{ArtRef, Pages, Sheet};
use crate::model::ArtSource;
use crate::press::{Pdfx, Press};

/// Pages of art parsed per batch, at most: the trees of three batches are in memory at a
/// time (one drawn, one waiting, one being parsed).
const MAX_BATCH_PAGES: usize = 8;

/// Copies of one piece of art that one page draws inline before it is worth an XObject: a
/// repeated copy costs a few dozen compressed bytes, an XObject a few hundred.
const MAX_INLINE_COPIES: usize = 4;

/// Where a piece of art is drawn.
pub(super) struct Use {
    first_page: usize,
    last_page: usize,
    copies: usize,
}

/// What the writer needs to know of all the pages before it draws the first, found in one
/// pass over them (lazily imposed pages are made once more for it).
pub(super) struct Survey {
    /// The art worth a form XObject of its own: placed on more than one page, or more than
    /// `MAX_INLINE_COPIES` times.
    pub shared: HashSet<ArtRef>,
    /// The pages of each batch and the art first drawn on them. The first batches are
    /// short, so that drawing starts soon; later ones hold `MAX_BATCH_PAGES` pages.
    pub batches: Vec<(Range<usize>, Vec<ArtRef>)>,
    /// Where the art drawn on more than one page is drawn (art of one page has no entry).
    pub uses: HashMap<ArtRef, Use>,
    /// Pages each page-mark layer is drawn on, by layer.
    pub decor_uses: HashMap<usize, usize>,
}

pub(super) fn survey(sheets: &dyn Pages) -> Survey {
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

/// The art each page draws, by piece.
pub(super) type Trees = HashMap<ArtRef, Arc<usvg::Tree>>;

/// Draws the pages of `sheets` in order with `draw`, while the art of each of `batches` is
/// filled and parsed on another thread, a batch of pages ahead: drawing into the PDF cannot
/// be shared between threads, parsing can. A tree is let go of after the last page that
/// draws it (`uses`).
pub(super) fn run(
    sheets: &dyn Pages,
    batches: Vec<(Range<usize>, Vec<ArtRef>)>,
    uses: &HashMap<ArtRef, Use>,
    art: &mut (dyn ArtSource + Send),
    press: Option<&Press>,
    mut draw: impl FnMut(&Sheet, &Trees) -> Result<(), String>,
) -> Result<(), String> {
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
        let mut trees: Trees = HashMap::new();
        for i in 0..sheets.count() {
            let page = sheets.page(i);
            let sheet = &*page;
            if next_batch.next_if_eq(&i).is_some() {
                // Only a producer that panicked sends nothing; the scope passes its panic on.
                trees.extend(receiver.recv().unwrap_or_default());
            }
            draw(sheet, &trees)?;
            // Trees no later page draws are let go of (shared art is an XObject by now): the
            // page's own, unless `uses` holds a later page for them.
            for placed in &sheet.items {
                if uses.get(&placed.art).is_none_or(|u| u.last_page <= i) {
                    trees.remove(&placed.art);
                }
            }
        }
        Ok(())
    })
}
