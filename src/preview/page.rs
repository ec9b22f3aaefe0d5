//! The gallery page of a build: its status, a section per deck and one for boards and
//! sheets, the soft proof's colours, the preflight reports beside it; and the soft proof's
//! lines for the terminal.

use std::path::Path;

use super::snapshot::Snapshot;
use super::{gallery, mm, proof_file, PROOF_DELTA_E};
use crate::diag::plural;
use crate::length::Length;
use crate::plan::pictures::{Picture, THUMB_WIDTH};
use crate::plan::PictureCache;

/// What `--proof` found, a line per picture with colours that move (the first 20), for
/// the terminal; the gallery shows them all beside the cards.
pub(super) fn proof_lines(snap: &Snapshot, condition: &str) -> Vec<String> {
    let moving: Vec<&Picture> = snap.pictures().filter(|p| !p.moved.is_empty()).collect();
    if moving.is_empty() {
        return vec![format!(
            "soft proof ({condition}): no colour moves more than ΔE {PROOF_DELTA_E:.0}"
        )];
    }
    let mut lines = vec![format!("soft proof ({condition}): {} with colours that move more than ΔE {PROOF_DELTA_E:.0} in print:", plural(moving.len(), "picture"))];
    for p in moving.iter().take(20) {
        let colours: Vec<String> = p
            .moved
            .iter()
            .map(|m| {
                format!(
                    "{} prints as {} (ΔE {:.1})",
                    crate::press::hex(m.colour),
                    crate::press::hex(m.printed),
                    m.delta_e
                )
            })
            .collect();
        lines.push(format!("  {}: {}", p.label, colours.join(", ")));
    }
    if moving.len() > 20 {
        lines.push(format!("  and {} more (see the gallery)", moving.len() - 20));
    }
    lines
}

pub(super) fn gallery_page<'a>(
    snap: &'a Snapshot,
    cache: &PictureCache,
    dir: &Path,
    refresh: Option<u32>,
    proof: Option<&crate::press::Condition>,
) -> gallery::Page<'a> {
    let proof_name = proof.map(|c| c.identifier.clone());
    let proof = proof.is_some();
    let status = match &snap.valid {
        Some(summary) => gallery::Status::Valid(summary.clone()),
        None => gallery::Status::Problems {
            count: snap.problems.len(),
            text: snap.sources.render(&snap.problems, false),
        },
    };
    let figure = |p: &'a Picture, width: u32| {
        let height = (width as f32 * p.size.1.to_pt() / p.size.0.to_pt()).round() as u32;
        gallery::Figure {
            label: &p.label,
            count: p.count,
            src: p
                .art
                .filter(|_| cache.has(&dir.join(&p.file)))
                .map(|art| format!("{}?v={art:016x}", p.file)),
            size: (width, height),
            proof: p
                .art
                .filter(|_| proof && dir.join(proof_file(&p.file)).is_file())
                .map(|art| format!("{}?v={art:016x}", proof_file(&p.file))),
            moved: p
                .moved
                .iter()
                .map(|m| (crate::press::hex(m.colour), crate::press::hex(m.printed), m.delta_e))
                .collect(),
        }
    };
    let mut sections: Vec<gallery::Section> = snap
        .decks
        .iter()
        .map(|deck| {
            let (w, h) = deck.pictures.first().map_or((Length::ZERO, Length::ZERO), |p| p.size);
            let summary = format!(
                "{} · {} · {} × {} mm",
                plural(deck.designs, "design"),
                plural(deck.card_count() as usize, "card"),
                mm(w),
                mm(h)
            );
            let contact = deck.contact.iter().map(String::as_str).collect();
            gallery::Section {
                id: format!("deck-{}", deck.slug),
                name: &deck.name,
                summary,
                contact,
                figures: deck.pictures.iter().map(|p| figure(p, THUMB_WIDTH)).collect(),
            }
        })
        .collect();
    if !snap.sheets.is_empty() {
        let figures = snap.sheets.iter().map(|p| figure(p, SHEET_WIDTH)).collect();
        sections.push(gallery::Section {
            id: "sheets".into(),
            name: "Boards and sheets",
            summary: format!(
                "{} · page-sized ones shown on A4",
                plural(snap.sheets.len(), "sheet")
            ),
            contact: Vec::new(),
            figures,
        });
    }
    gallery::Page {
        title: &snap.name,
        description: &snap.description,
        status,
        sections,
        refresh,
        proof: proof_name,
        preflights: preflights(dir),
        changes: snap.changes.as_ref().map(|c| gallery::Changes {
            since: c.since.clone(),
            cards: c
                .cards
                .iter()
                .map(|x| gallery::Changed {
                    label: x.label.clone(),
                    before: x.before.clone(),
                    after: x.after.clone(),
                    size: x.size,
                })
                .collect(),
        }),
    }
}

/// The services a `preflight` report was written for beside the gallery.
fn preflights(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Some(name.strip_prefix("preflight-")?.strip_suffix(".html")?.to_string())
        })
        .collect();
    found.sort();
    found
}

/// Display width of a board or pad in the gallery, in CSS pixels.
const SHEET_WIDTH: u32 = 420;
