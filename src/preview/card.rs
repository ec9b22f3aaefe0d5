//! `preview --card ID`: the cards with that id, in any deck, and nothing else.

use super::snapshot::Snapshot;
use super::{preview_dir, proof_file, with_press, Options, PROOF_DELTA_E};
use crate::diag::{Diagnostic, Failure};
use crate::limits::Limits;
use crate::plan::pictures::Picture;
use crate::plan::raster::{draw_picture, render_some};
use crate::world::World;

/// `preview --card ID`: draws the cards with that id (in any deck) and nothing else.
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
    let mut drawing = crate::diag::Grouped::default();
    // The raster sink's painter, for these pictures alone.
    let mode = crate::plan::PictureMode {
        dir: dir.clone(),
        cvd: options.cvd,
        press: options.press.clone(),
        guides: options.guides,
        progress: crate::progress::Progress::new(0, "drawing", true),
        state: Default::default(),
    };
    let mut lines = Vec::new();
    for (d, deck) in snap.decks.iter().enumerate() {
        let pictures: Vec<&Picture> = deck.pictures.iter().filter(|p| p.id == id).collect();
        let pieces = render_some(cat, Some(d), &pictures, options.lang.as_deref(), &mut drawing);
        for (picture, piece) in pictures.into_iter().zip(pieces) {
            if let Some(tree) = piece.and_then(|p| p.tree) {
                draw_picture(picture, &tree, &mode, options.dpi)?;
                lines.push(dir.join(&picture.file).display().to_string());
                if let Some(press) = &options.press {
                    lines.push(dir.join(proof_file(&picture.file)).display().to_string());
                    for m in crate::press::moved_colours(press, &tree, PROOF_DELTA_E) {
                        lines.push(format!(
                            "  {} prints as {} (ΔE {:.1})",
                            crate::press::hex(m.colour),
                            crate::press::hex(m.printed),
                            m.delta_e
                        ));
                    }
                }
            }
        }
    }
    snap.validated(checked, drawing);
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
