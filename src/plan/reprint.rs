//! `build --changed-since PATH`: every design drawn once for its fingerprint and compared
//! with the manifest of that build; the gang sheets then hold only the cards to reprint.

use std::collections::BTreeSet;

use super::Context;
use crate::diag::Failure;
use crate::layout::ArtRef;
use crate::render::{ArtSource, LazyArt};

/// The physical cards to reprint: (deck, id, copy).
pub type Reprint = BTreeSet<(String, String, u32)>;

/// The cards whose art changed since the build at `path`, or are new; what is gone, or
/// that nothing changed, is said in `notes`.
pub(super) fn changed_since(
    ctx: &Context,
    path: &std::path::Path,
    art: &mut LazyArt,
    notes: &mut Vec<String>,
) -> Result<Reprint, Failure> {
    use crate::export::manifest::{changes, of, Manifest};
    let cat = ctx.cat();
    let service = ctx.job.print.service;
    let before = Manifest::read(path, &cat.id, service, &ctx.lang_suffix()).map_err(Failure::Io)?;
    for (d, deck) in cat.decks.iter().enumerate() {
        let designs: Vec<ArtRef> = (0..deck.rows.len())
            .flat_map(|row| {
                let back = ArtRef::Back { deck: d, row: if deck.back_per_card { row } else { 0 } };
                [ArtRef::Face { deck: d, row }, back]
            })
            .collect();
        for batch in designs.chunks(64) {
            art.prepare(batch);
            art.release();
        }
    }
    let found = changes(&before, &of(cat, art.fingerprints()));
    notes.push(match found.reprint.len() {
        0 => format!("{}: nothing changed since {}: no reprint", cat.id, path.display()),
        n => format!(
            "{}: {n} card{} changed or new since {}",
            cat.id,
            if n == 1 { "" } else { "s" },
            path.display()
        ),
    });
    notes.extend(found.removed.iter().map(|r| format!("removed since then: {r}")));
    Ok(found.reprint)
}
