//! `deckpress play`: a playtest table in the browser. A valid game (validate first, as
//! every command) → its card and board pictures, drawn as `preview` draws them (the plan's
//! raster sink, `preview::draw_sets`), and one static page, `OUT/<game>/play/index.html`,
//! whose script deals the game by its `[[deal]]` rows from the seed and player count in
//! the page's address, with no server and no network. The page is put in place by the
//! executor's one door (`plan::commit`).
//!
//! `deal` is the deal in Rust, the page's own line for line; `odds` deals it many times
//! for `--odds`; `page` writes the page.

pub mod deal;
pub mod odds;
mod page;

use std::path::PathBuf;

use crate::diag::{Diagnostic, Failure, Sources};
use crate::job::{Job, PlayOptions, PreviewOptions};
use crate::model::Catalogue;
use crate::plan::{Content, Made};
use crate::validate::Validated;
use deal::{dealt_counts, Part};

/// Card pictures for the table: sharp at the size the page shows them, and quick to draw.
const TABLE_DPI: u32 = 100;

/// `deckpress play` of one valid game: the odds table with `--odds`, else the page.
pub fn play(
    job: &Job,
    validated: Validated,
    options: &PlayOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Vec<String>, Sources), Failure> {
    warnings.extend(validated.warnings().iter().cloned());
    let cat = validated.catalogue();
    let sources = cat.sources.clone();
    let players = players(cat, options.players)?;
    if let Some(n) = options.odds {
        if cat.odds.is_empty() {
            return Err(Failure::Io(format!(
                "{} names no [[odds]] conditions in its game.toml: add one (name, deck, where, at_least or exactly, in = \"hand\" or \"table\"; see docs/catalogue.md)",
                cat.id
            )));
        }
        let counts: Vec<u32> = options.players.map(|_| vec![players]).unwrap_or_default();
        let measured = odds::measure(cat, n, &counts);
        return Ok((odds::table(cat, &measured), sources));
    }
    if cat.deals.is_empty() {
        let first = cat.decks.first().map_or("", |d| d.id.as_str());
        warnings.push(
            Diagnostic::warning(
                &cat.game_toml,
                None,
                format!("{} has no [[deal]] table: the playtest table opens with every card of deck `{first}` in its draw pile, and empty hands", cat.id),
            )
            .with_note("add `[[deal]]` rows (players, hand, table) to deal hands for each player count"),
        );
    }
    let folder = match &options.lang {
        Some(lang) => format!("play-{lang}"),
        None => "play".to_string(),
    };
    let dir = options.out.join(&cat.id).join(&folder);
    let preview = PreviewOptions {
        out: options.out.clone(),
        dpi: TABLE_DPI,
        quiet: options.quiet,
        card: None,
        guides: false,
        proof: None,
        refresh: None,
        lang: options.lang.clone(),
        cvd: None,
        changed_since: None,
    };
    let (decks, sheets) = crate::plan::pictures::sets(cat, options.lang.as_deref());
    let decks: Vec<_> = decks
        .into_iter()
        .filter(|set| set.deck.is_some_and(|d| cat.decks[d].labels.is_none()))
        .map(|set| crate::plan::pictures::Set { contact_sheets: false, ..set })
        .collect();
    // Boards (sheets of a size of their own) lie under the table; pads and mats are paper.
    let boards: Vec<_> = sheets
        .pictures
        .into_iter()
        .zip(&cat.sheets)
        .filter(|(_, s)| matches!(s.size, crate::model::SheetSize::Fixed { .. }))
        .map(|(p, _)| p)
        .collect();
    let sets = decks.into_iter().chain([crate::plan::pictures::Set::sheets(boards)]).collect();
    let drawn = crate::preview::draw_sets(&validated, sets, &dir, &preview, &job.limits)?;
    remove_stale(&dir, &drawn.sets);
    let problems = drawn.problems.finish();
    let failed = problems.iter().any(Diagnostic::is_error);
    warnings.extend(problems);
    if failed {
        return Err(Failure::Invalid(Vec::new(), sources));
    }
    let table = page::Table {
        cat,
        lang: options.lang.as_deref(),
        players,
        seed: options.seed,
        sets: &drawn.sets,
        warning: warnings
            .iter()
            .find(|w| w.message.contains("[[deal]]"))
            .map(|w| w.message.clone()),
    };
    let html = page::html(&table);
    let path = PathBuf::from(&cat.id).join(&folder).join("index.html");
    let made = vec![Made::beside(path, Content::Bytes(html.into_bytes()))];
    let mut written = crate::plan::commit(&options.out, &cat.id, made, job.limits.lock_seconds)?;
    if let Some(page) = written.first() {
        let absolute = std::path::absolute(page).unwrap_or_else(|_| PathBuf::from(page));
        written.push(format!(
            "open file://{}?players={players}&seed={}",
            absolute.display(),
            options.seed
        ));
    }
    Ok((written, sources))
}

/// The player count the page opens with: `asked`, which must be one the deal table deals
/// for (or, with no deal table, within the game's players); else the first it deals for.
fn players(cat: &Catalogue, asked: Option<u32>) -> Result<u32, Failure> {
    let counts = dealt_counts(cat);
    let range = cat.players.unwrap_or((1, 8));
    let fits = |n: u32| match counts.is_empty() {
        true => (range.0..=range.1).contains(&n),
        false => counts.contains(&n),
    };
    match asked {
        Some(n) if !fits(n) => Err(Failure::Io(match counts.is_empty() {
            true => format!("--players {n}: {} is for {} to {} players", cat.id, range.0, range.1),
            false => format!(
                "--players {n}: {} deals for {} players (its [[deal]] rows in game.toml)",
                cat.id,
                either(&counts)
            ),
        })),
        Some(n) => Ok(n),
        None => Ok(counts.first().copied().unwrap_or(range.0)),
    }
}

/// `2, 3 or 4`.
fn either(counts: &[u32]) -> String {
    let words: Vec<String> = counts.iter().map(u32::to_string).collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The counts the page may deal for: the deal table's, or the game's players.
fn counts(cat: &Catalogue) -> Vec<u32> {
    let counts = dealt_counts(cat);
    if !counts.is_empty() {
        return counts;
    }
    let (min, max) = cat.players.unwrap_or((1, 8));
    (min..=max).collect()
}

/// Each deck's part on the table for each count the page deals for.
fn parts_by_count(cat: &Catalogue) -> Vec<(u32, Vec<Part>)> {
    counts(cat).into_iter().map(|n| (n, deal::parts(cat, n))).collect()
}

/// Removes the pictures an earlier table of the game drew that this one has not (a card
/// renamed in its CSV, a deck removed), so that the folder holds the table's pictures
/// only. Best effort: a file left behind is clutter the page never shows.
fn remove_stale(dir: &std::path::Path, sets: &[crate::plan::pictures::Set]) {
    let current: std::collections::HashSet<PathBuf> =
        sets.iter().flat_map(|s| &s.pictures).map(|p| dir.join(&p.file)).collect();
    let folders = std::iter::once(dir.to_path_buf())
        .chain(std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()));
    crate::output::remove_pngs_but(folders, &current);
}
