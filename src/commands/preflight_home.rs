//! `deckpress preflight GAME --for home`: every document of the home build (card sheets,
//! boards tiled and large, pads and mats, label sheets, boxes) judged from its file, made
//! in memory as `build` would write it, with `--colour cmyk` the press files. A card
//! service's preflight leaves these out ("not a product of …"); this is where they are
//! checked, never passed over: each document has its lines, and what is not checked is
//! said with why.

use std::path::Path;

use super::preflight::push_lines;
use crate::check::service::{document_checks, Check, Verdict};
use crate::diag::{Diagnostic, Failure, Topic};
use crate::driver::Outcome;
use crate::job::{Game, Job};
use crate::model::Catalogue;
use crate::plan::{Product, What};

/// The home build of `game`, each document checked; the report printed and written beside
/// the preview gallery as `preflight-home.html`.
pub fn preflight_home(job: &Job, game: &Game, out: &Path) -> Outcome {
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let (validated, files, ()) =
        match crate::driver::made_in_memory(job, game, &mut warnings, |_| ()) {
            Ok(made) => made,
            Err(e) => return Outcome::new(game.name.clone(), Err(e)),
        };
    let cat = validated.catalogue();
    let press = job.print.press.as_ref();
    // Press files (--colour cmyk) are judged as a press takes them.
    let pressed;
    let service = match press {
        Some(_) => {
            pressed =
                crate::services::Service { title: "a press (--colour cmyk)", ..*job.print.service };
            &pressed
        }
        None => job.print.service,
    };
    let mut report = Vec::new();
    let mut sections: Vec<(String, Vec<Check>)> = Vec::new();
    // What drawing the pieces found, for the game as a whole: a player's problems (warnings,
    // failures under --strict) and, for press files, the ink.
    let found = |topic: Topic| -> Vec<&Diagnostic> {
        warnings.iter().filter(|d| d.topic == topic).collect()
    };
    let game_checks = vec![
        judged(
            "contrast",
            found(Topic::Legibility),
            job.strict,
            "every text readable against what is drawn under it, as drawn",
        ),
        judged(
            "colour-alone",
            found(Topic::ColourAlone),
            job.strict,
            "no field's values told apart by colour alone",
        ),
        match press {
            Some(_) => judged(
                "total-ink",
                found(Topic::Ink),
                true,
                "every colour within the press's ink limit",
            ),
            None => na("total-ink", "RGB files: the printer converts them"),
        },
        match press {
            Some(_) => judged(
                "fine-text-inks",
                found(Topic::FineText),
                job.strict,
                "no small text in more than one ink",
            ),
            None => na("fine-text-inks", "RGB files: the printer separates them"),
        },
    ];
    report.push(format!("{} — the game, as drawn for {}", cat.id, service.title));
    push_lines(&mut report, &game_checks);
    sections.push(("the game, as drawn".to_string(), game_checks));
    for (what, bytes) in &files {
        let Some(title) = title(cat, what) else { continue };
        let name = format!("{} ({})", title, what.paper.as_deref().unwrap_or("its own paper"));
        // A tiled board opens with its assembly map, a guide drawn small.
        let guide = matches!(what.product, Product::TiledBoard { .. });
        let checks = document_checks(service, press, (&name, bytes), guide);
        report.push(format!("{} — {name}", cat.id));
        push_lines(&mut report, &checks);
        sections.push((name, checks));
    }
    // The rulebook, as `deckpress rules` and the bundle print it.
    let paper = job.print.papers[0];
    let geometry = crate::bundle::rules_geometry(paper, false);
    let mut read = cat.sources.clone();
    match super::bundle::rulebook_pdf(cat, job, geometry, (&mut warnings, &mut read)) {
        Ok(Some((bytes, _))) => {
            // `rules` makes an RGB file whatever the job's colour: judged as one.
            let name = match press {
                Some(_) => format!(
                    "the rulebook ({}, RGB: `deckpress rules` makes no press file)",
                    paper.name()
                ),
                None => format!("the rulebook ({})", paper.name()),
            };
            let home = crate::services::home();
            let checks = document_checks(home, None, (&name, &bytes), false);
            report.push(format!("{} — {name}", cat.id));
            push_lines(&mut report, &checks);
            sections.push((name, checks));
        }
        Ok(None) => report.push(format!("{}: no rulebook (no rules.md) to check", cat.id)),
        Err(e) => return Outcome::new(game.name.clone(), Err(e)),
    }
    report.push(format!(
        "{}: not checked on home sheets: the bleed, the safe zone and the file order (a card service's, of one card a page: `deckpress validate` holds text inside every piece), the printer's marks around the pieces and a tiled board's assembly map (deckpress's own guides), and the bundle's cover and print guide (deckpress's own pages)",
        cat.id
    ));
    let all = sections.iter().flat_map(|(_, c)| c);
    let failures = all.clone().filter(|c| c.verdict == Verdict::Fail).count();
    let warned = all.filter(|c| c.verdict == Verdict::Warn).count();
    report.push(format!(
        "{}: {} failed for {}{}",
        cat.id,
        crate::diag::plural(failures, "check"),
        service.title,
        match warned {
            0 => String::new(),
            n => format!(" ({}, which --strict fails)", crate::diag::plural(n, "warning")),
        }
    ));
    let page = Path::new(&cat.id).join("preview").join("preflight-home.html");
    let bytes = super::preflight::html(&cat.name, service, &sections).into_bytes();
    let made =
        crate::plan::Made::document(page, bytes, crate::plan::Product::Report, (None, None, false));
    match crate::plan::commit(out, &cat.id, vec![made], job.limits.lock_seconds) {
        Ok(written) => report.extend(written),
        Err(e) => return Outcome::new(game.name.clone(), Err(e)),
    }
    let sources = cat.sources.clone();
    let result = match failures {
        0 => Ok(Vec::new()),
        _ => Err(Failure::Invalid(
            vec![Diagnostic::new(
                &cat.game_toml,
                None,
                format!(
                    "{} of the home build failed preflight: see the lines above",
                    crate::diag::plural(failures, "check")
                ),
            )],
            sources.clone(),
        )),
    };
    let mut outcome = crate::driver::outcome(game, job.strict, result, warnings, sources);
    outcome.report = report;
    outcome
}

/// A document's name in the report: "deck `cards` (card sheets)", "board `board`, tiled";
/// `None` for what is not printed (the manifest).
fn title(cat: &Catalogue, what: &What) -> Option<String> {
    let deck = |d: usize| format!("`{}`", cat.decks[d].id);
    let sheet = |s: usize| format!("`{}`", cat.sheets[s].id);
    Some(match &what.product {
        Product::Cards { decks } => {
            let ids: Vec<String> = decks.iter().map(|&d| deck(d)).collect();
            format!("card sheets of {}", crate::diag::and_list(&ids))
        }
        Product::Sheet { sheet: s } => format!("sheet {}", sheet(*s)),
        Product::TiledBoard { sheet: s } => format!("board {}, tiled", sheet(*s)),
        Product::LargeBoard { sheet: s } => format!("board {} on one sheet", sheet(*s)),
        Product::Labels { deck: d } => format!("label sheets of {}", deck(*d)),
        Product::Box { index } => format!("box `{}`", cat.boxes[*index].id),
        _ => return None,
    })
}

/// A game-wide check from the problems drawing found: PASS with `pass`, else FAIL (or
/// WARN, a player's problem, unless `fails`).
fn judged(name: &'static str, found: Vec<&Diagnostic>, fails: bool, pass: &str) -> Check {
    let (verdict, detail) = match found.first() {
        None => (Verdict::Pass, pass.to_string()),
        Some(d) => {
            let more = match found.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            (if fails { Verdict::Fail } else { Verdict::Warn }, format!("{}{more}", d.message))
        }
    };
    Check { name, verdict, detail, fix: None }
}

fn na(name: &'static str, why: &str) -> Check {
    Check { name, verdict: Verdict::NotApplicable, detail: why.to_string(), fix: None }
}
