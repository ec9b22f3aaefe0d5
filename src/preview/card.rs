//! `preview --card ID`: the cards with that id, in any deck, and nothing else.

use super::snapshot::Snapshot;
use super::{draw_pictures, preview_dir, proof_file, with_press, Options};
use crate::diag::{Diagnostic, Failure};
use crate::limits::Limits;
use crate::plan::PictureCache;
use crate::world::World;

/// `preview --card ID`: draws the cards with that id (in any deck) and nothing else: the
/// plan's picture sets of the decks, each cut down to those cards and without contact
/// sheets, run into the raster sink as a whole preview's are.
pub(super) fn one_card(
    world: &World,
    id: &str,
    options: &Options,
    limits: &Limits,
) -> Result<Vec<String>, Failure> {
    let checked = crate::plan::check(world, limits)?;
    let cat = checked.catalogue();
    let ids: Vec<&str> =
        cat.decks.iter().flat_map(|d| d.rows.iter().map(|r| r.id.as_str())).collect();
    if !ids.contains(&id) {
        return Err(Failure::Io(unknown_card(&cat.id, id, &ids)));
    }
    cat.check_lang(options.lang.as_deref()).map_err(Failure::Io)?;
    let mut snap = Snapshot::new(cat, options.lang.as_deref());
    let dir = preview_dir(options, &snap.id);
    let options = &with_press(options, cat)?;
    let sets = snap.decks.drain(..).map(|mut set| {
        set.pictures.retain(|p| p.id == id);
        set.contact_sheets = false;
        set
    });
    let mut cache = PictureCache::default();
    let drawn = draw_pictures(&checked, sets.collect(), &dir, options, limits, &mut cache)?;
    let mut lines = Vec::new();
    for picture in drawn.sets.iter().flat_map(|set| &set.pictures).filter(|p| p.art.is_some()) {
        lines.push(dir.join(&picture.file).display().to_string());
        if options.press.is_some() {
            lines.push(dir.join(proof_file(&picture.file)).display().to_string());
            for m in &picture.moved {
                lines.push(format!(
                    "  {} prints as {} (ΔE {:.1})",
                    crate::press::hex(m.colour),
                    crate::press::hex(m.printed),
                    m.delta_e
                ));
            }
        }
    }
    snap.validated(checked, drawn.problems);
    match !snap.problems.iter().any(Diagnostic::is_error) {
        true => Ok(lines),
        false => Err(Failure::Invalid(snap.problems, snap.sources)),
    }
}

fn unknown_card(game: &str, id: &str, ids: &[&str]) -> String {
    let mut close: Vec<(f64, &str)> = ids
        .iter()
        .map(|c| (strsim::jaro_winkler(&id.to_lowercase(), &c.to_lowercase()), *c))
        .filter(|(s, _)| *s >= 0.8)
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    close.dedup_by_key(|c| c.1);
    let quoted =
        |list: &[&str]| list.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
    if close.is_empty() {
        let first: Vec<&str> = ids.iter().copied().take(8).collect();
        let more = if ids.len() > first.len() {
            format!(", … ({} in all)", ids.len())
        } else {
            String::new()
        };
        format!("no card `{id}` in {game}; its cards are {}{more}", quoted(&first))
    } else {
        let names: Vec<&str> = close.iter().take(5).map(|c| c.1).collect();
        format!("no card `{id}` in {game}; did you mean {}?", quoted(&names))
    }
}
