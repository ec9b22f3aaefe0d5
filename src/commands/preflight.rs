//! `deckpress preflight GAME --for SERVICE`: every check the service's file spec implies,
//! deck by deck, each PASS or FAIL with the card and the fix, read from the problems met
//! making the files and from the files themselves (made in memory, not written). The
//! report is printed and written as a page beside the preview gallery.

use std::path::{Path, PathBuf};

use crate::check::service::{Deck, BLEED, IMAGE_DPI, SAFE_ZONE, SMALL_TEXT};
use crate::diag::{Diagnostic, Failure, Sources, Topic};
use crate::driver::{Inspected, Outcome};
use crate::job::{Game, Job};
use crate::services::Service;

pub use crate::check::service::{Check, Verdict};

impl Verdict {
    pub(super) fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::NotApplicable => "N/A ",
            Verdict::Warn => "WARN",
        }
    }
}

/// Runs the checks for every game of the job, a deck at a time. Each of `given` (`--file`)
/// is checked in place of the file of the same name preflight makes: a file edited after
/// the build, or made elsewhere.
pub fn run(job: &Job, out: &Path, given: &[PathBuf]) -> Vec<Outcome> {
    let mut files = Vec::new();
    for path in given {
        match crate::world::read_regular(path, crate::world::MAX_FILE_BYTES) {
            // A PDF from elsewhere is checked for what would exhaust the parser first.
            Ok(bytes) => match file_name(path).ends_with(".pdf") {
                true => match crate::check::pdf::bounds::check(&bytes) {
                    Ok(()) => files.push((file_name(path), bytes)),
                    Err(e) => {
                        let why = format!("cannot read --file {}: {e}", path.display());
                        return vec![Outcome::new("preflight".to_string(), Err(Failure::Io(why)))];
                    }
                },
                false => files.push((file_name(path), bytes)),
            },
            Err(e) => {
                let why = format!("cannot read --file {}: {e}", path.display());
                return vec![Outcome::new("preflight".to_string(), Err(Failure::Io(why)))];
            }
        }
    }
    let mut made = Vec::new();
    let mut outcomes: Vec<Outcome> =
        job.games.iter().map(|game| preflight_game(job, game, out, &files, &mut made)).collect();
    if let Some((name, _)) = files.iter().find(|(name, _)| !made.contains(name)) {
        let why = format!(
            "--file {name} is none of the files preflight makes for {} ({}): name it as they are named",
            job.print.service.title,
            if made.is_empty() { "none were made".to_string() } else { made.join(", ") }
        );
        outcomes.push(Outcome::new("preflight".to_string(), Err(Failure::Io(why))));
    }
    outcomes
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The deck as the service's files should hold it: their names, and the cards in order.
fn expected(cat: &crate::model::Catalogue, deck: &str, job: &Job) -> Deck {
    // The build's own suffix: `-ru`, `-inksaver`, `-ru-inksaver`.
    let lang = job.print.file_suffix(job.print.lang.as_deref());
    let rows = cat.decks.iter().find(|d| d.id == deck).map(|d| d.rows.as_slice()).unwrap_or(&[]);
    Deck {
        files: vec![job.print.service.file_name(&cat.id, deck, "", &lang)],
        cards: crate::model::copies(rows).map(|(_, row)| row.id.clone()).collect(),
        designs: rows.len(),
        guides: Vec::new(),
    }
}

fn preflight_game(
    job: &Job,
    game: &Game,
    out: &Path,
    given: &[(String, Vec<u8>)],
    made: &mut Vec<String>,
) -> Outcome {
    let service = job.print.service;
    // The game is loaded and validated once; each deck is made from it.
    let checked = match crate::plan::check(&game.world, &job.limits) {
        Ok(checked) => checked,
        Err(e) => return Outcome::new(game.name.clone(), Err(e)),
    };
    let cat = checked.catalogue();
    // One press for every deck: a photo is converted once, not again for each deck.
    let press = match &checked {
        crate::plan::Checked::Valid(validated) => {
            crate::plan::press_for(job, validated.catalogue()).ok().flatten()
        }
        crate::plan::Checked::Rejected { .. } => None,
    };
    let asked = |id: &String| job.print.only.is_empty() || job.print.only.contains(id);
    // A label sheet is a home sheet: `--for` leaves it out of the service's files, so
    // there is nothing of it to check (it was said to pass, with "0 PDF").
    let decks: Vec<String> = cat
        .decks
        .iter()
        .filter(|d| d.labels.is_none())
        .map(|d| d.id.clone())
        .filter(|id| asked(id))
        .collect();
    // What the service does not print is said so, each, and listed again at the end as
    // not checked: never passed over in silence. A home printer prints them all: they are
    // made and checked like the decks (`pieces`).
    let mut unchecked: Vec<String> = Vec::new();
    let mut report: Vec<String> = Vec::new();
    let pieces = other_pieces(cat).into_iter().filter(|(id, ..)| asked(id)).collect::<Vec<_>>();
    let mut failed: Vec<Diagnostic> = Vec::new();
    let mut sections = Vec::new();
    let mut piece_sources = None;
    {
        for (id, what, is, instead) in &pieces {
            if service.form != crate::services::Form::GangSheets {
                report.push(format!(
                    "{} — {what} `{id}` ({is}): not a product of this service ({}, which takes card decks), left out of its files; checked below as the build without --for makes it ({instead}){}",
                    cat.id, service.title, if job.print.press.is_some() { ", in CMYK for a press" } else { "" }
                ));
            }
            let piece = match piece(job, &checked, id, press.as_ref(), given, made) {
                Ok(piece) => piece,
                Err(e) => return Outcome::new(game.name.clone(), Err(e)),
            };
            report.push(format!("{} — {what} `{id}` as a home document", cat.id));
            push_lines(&mut report, &piece.1);
            failed.extend(piece.2);
            piece_sources = Some(piece.0);
            sections.push((
                format!(
                    "{what} <code>{}</code> (a home document)",
                    crate::render::canvas::escape_xml(id)
                ),
                piece.1,
            ));
        }
    }
    let mut sources = Sources::default();
    for deck in &decks {
        let mut inspected = match crate::driver::inspect(job, &checked, deck, press.as_ref()) {
            Ok(i) => i,
            Err(e) => return Outcome::new(game.name.clone(), Err(e)),
        };
        let mut replaced = false;
        for (path, bytes) in &mut inspected.files {
            let name = file_name(path);
            if let Some((_, instead)) = given.iter().find(|(g, _)| *g == name) {
                // The same bytes as made: what drawing found still holds.
                replaced |= bytes != instead;
                bytes.clone_from(instead);
            }
            made.push(name);
        }
        let expected = expected(cat, deck, job);
        let mut checks = checks(job, &inspected, &expected, &cat.legibility);
        if replaced {
            from_the_catalogue(&mut checks);
        }
        report.push(format!(
            "{} — deck `{deck}` for {} (--for {})",
            cat.id, service.title, service.name
        ));
        push_lines(&mut report, &checks);
        // A given file's colours and ink are its own: the catalogue's say nothing of it.
        let its_own = |d: &&Diagnostic| {
            !(replaced
                && matches!(
                    d.topic,
                    Topic::Legibility | Topic::ColourAlone | Topic::FineText | Topic::Ink
                ))
        };
        let problems = inspected.problems.iter().filter(its_own);
        failed.extend(problems.filter(|d| fails(d, job.strict)).cloned());
        sources = inspected.sources.clone();
        sections.push((
            format!("deck <code>{}</code>", crate::render::canvas::escape_xml(deck)),
            checks,
        ));
    }
    if let Some(piece_sources) = piece_sources.filter(|_| decks.is_empty()) {
        sources = piece_sources;
    }
    // The bundle is `deckpress bundle`'s: its decks' and pieces' pages are the ones
    // checked above, its own pages (cover, print guide) are not.
    unchecked.push(
        "the bundle's own pages (cover, print guide: `deckpress bundle` makes them)".to_string(),
    );
    if !unchecked.is_empty() {
        report.push(format!(
            "{}: not checked by preflight --for {}: {}",
            cat.id,
            service.name,
            unchecked.join(", ")
        ));
    }
    let count =
        |v: Verdict| sections.iter().flat_map(|(_, c)| c).filter(|c| c.verdict == v).count();
    let (failures, warned) = (count(Verdict::Fail), count(Verdict::Warn));
    let warned = match warned {
        0 => String::new(),
        n => format!(
            " ({}: nothing the service rejects, which --strict fails)",
            crate::diag::plural(n, "warning")
        ),
    };
    report.push(format!(
        "{}: {} check{} failed for {}{warned}",
        cat.id,
        failures,
        if failures == 1 { "" } else { "s" },
        service.title
    ));
    let page = Path::new(&cat.id).join("preview").join(format!("preflight-{}.html", service.name));
    let bytes = html(&cat.name, service, &sections).into_bytes();
    let made =
        crate::plan::Made::document(page, bytes, crate::plan::Product::Report, (None, None, false));
    match crate::plan::commit(out, &cat.id, vec![made], job.limits.lock_seconds) {
        Ok(written) => report.extend(written),
        Err(e) => return Outcome::new(game.name.clone(), Err(e)),
    }
    // A warning the service rejects fails the preflight, and under --strict every one
    // does: each is said as the error it is (a 1 % scale passed --strict here while
    // validate and build failed on it).
    let failed: Vec<Diagnostic> = crate::diag::group(failed)
        .into_iter()
        .map(|d| match d.is_error() {
            true => d,
            false if job.strict => d.into_error("an error because of --strict"),
            false => d.into_error("an error here: the print service rejects it"),
        })
        .collect();
    let result = match failures == 0 && failed.is_empty() {
        true => Ok(Vec::new()),
        false => Err(Failure::Invalid(failed, sources)),
    };
    Outcome { report, ..Outcome::new(game.name.clone(), result) }
}

/// The report's lines of a deck's or a piece's checks, a fix under each failure.
pub(super) fn push_lines(report: &mut Vec<String>, checks: &[Check]) {
    for c in checks {
        report.push(format!("  {}  {:<16} {}", c.verdict.word(), c.name, c.detail));
        if let Some(fix) = c.fix.as_ref().filter(|_| c.verdict == Verdict::Fail) {
            report.push(format!("        {:<16} fix: {fix}", ""));
        }
    }
}

/// The checks judged from the catalogue's own drawing (its colours, its ink), not from the
/// files: for a file given with --file, which may differ, they say so instead of a verdict
/// (grey text in a touched-up file passed contrast, and text made black in it still failed
/// for its several inks).
fn from_the_catalogue(checks: &mut [Check]) {
    for c in checks.iter_mut() {
        if matches!(c.name, "contrast" | "colour-alone" | "fine-text-inks" | "total-ink")
            && c.verdict != Verdict::NotApplicable
        {
            c.detail = format!(
                "not read from the given file (--file): the catalogue's own drawing says \"{}\"; check the file's colours yourself",
                c.detail
            );
            c.verdict = Verdict::NotApplicable;
            c.fix = None;
        }
    }
}

/// The documents of a game besides its card decks: (id, what, what it is, how to build it).
fn other_pieces(
    cat: &crate::model::Catalogue,
) -> Vec<(String, &'static str, &'static str, &'static str)> {
    let labels = cat.decks.iter().filter(|d| d.labels.is_some()).map(|d| {
        (d.id.clone(), "label sheet", "labels or stickers", "on the label product's own paper")
    });
    let sheets = cat
        .sheets
        .iter()
        .map(|s| (s.id.clone(), "sheet", "a board, pad or mat", "on home paper, or --board-paper"));
    let boxes =
        cat.boxes.iter().map(|b| (b.id.clone(), "box", "a box", "its die-line and cut file"));
    labels.chain(sheets).chain(boxes).collect()
}

/// A board, pad, mat, box or label sheet for a home printer: made in memory like a deck
/// (its large and tiled files, its press file under `--colour cmyk`), and every check of
/// its files run at the press floor (`Floor`). What is a deck's alone (the product size,
/// the order of the cards' sides) is left out; the bleed and the text near the cut are
/// judged from drawing it (the piece's own cut line), as for PNG files.
fn piece(
    job: &Job,
    checked: &crate::plan::Checked,
    id: &str,
    press: Option<&std::sync::Arc<crate::press::Press>>,
    given: &[(String, Vec<u8>)],
    made: &mut Vec<String>,
) -> Result<(Sources, Vec<Check>, Vec<Diagnostic>), Failure> {
    // Made as the build without --for makes it: a home document, in the job's colour.
    let mut print = job.print.clone();
    print.service = crate::services::home();
    let job = &Job {
        games: Vec::new(),
        print,
        limits: job.limits.clone(),
        strict: job.strict,
        output: crate::job::Output::Check,
    };
    let mut inspected = crate::driver::inspect(job, checked, id, press)?;
    for (path, bytes) in &mut inspected.files {
        let name = file_name(path);
        if let Some((_, instead)) = given.iter().find(|(g, _)| *g == name) {
            bytes.clone_from(instead);
        }
        made.push(name);
    }
    // A tiled board's file opens with its assembly map: the board in miniature.
    let tiled = format!("-{id}-tiled-");
    let guides = inspected
        .files
        .iter()
        .map(|(path, _)| file_name(path))
        .filter(|name| name.contains(&tiled))
        .collect();
    let deck = Deck { files: Vec::new(), cards: Vec::new(), designs: 0, guides };
    let of = |topic: Topic| -> Vec<&Diagnostic> {
        inspected.problems.iter().filter(|d| d.topic == topic).collect()
    };
    let drawn = |name: &'static str, found: Vec<&Diagnostic>, pass: &str, fix: &str| Check {
        name,
        verdict: if found.is_empty() { Verdict::Pass } else { Verdict::Fail },
        detail: if found.is_empty() { pass.to_string() } else { first_problem(&found) },
        fix: Some(fix.to_string()),
    };
    let legibility = &checked.catalogue().legibility;
    let mut checks: Vec<Check> = checks(job, &inspected, &deck, legibility)
        .into_iter()
        .filter(|c| c.name != "product-size" && c.name != crate::check::service::FILE_ORDER)
        .collect();
    for c in &mut checks {
        if inspected.files.is_empty() || crate::check::off(c.name) {
            continue;
        }
        *c = match c.name {
            BLEED => drawn(
                BLEED,
                of(Topic::Bleed),
                "art drawn past the cut line by the bleed, as drawn",
                "draw the art past the cut line by the bleed",
            ),
            SAFE_ZONE => {
                let off = of(Topic::OffPiece);
                let found = if off.is_empty() { of(Topic::SafeZone) } else { off };
                drawn(
                    SAFE_ZONE,
                    found,
                    "text inside the piece's cut line, as drawn",
                    "move the text inside the piece's edge: what runs past the cut is cut off",
                )
            }
            _ => continue,
        };
    }
    let strict = job.strict;
    let failed = inspected.problems.iter().filter(|d| fails(d, strict)).cloned().collect();
    Ok((inspected.sources, checks, failed))
}

/// Whether a problem fails the preflight: every error, and the warnings a print service
/// would reject (under `--strict`, every warning).
fn fails(d: &Diagnostic, strict: bool) -> bool {
    d.is_error()
        || strict
        || matches!(
            d.topic,
            Topic::Bleed
                | Topic::SafeZone
                | Topic::OffPiece
                | Topic::TextSize
                | Topic::Resolution
                | Topic::Ink
                | Topic::FlattenedText
                | Topic::FlattenedLine
        )
}

/// The checks the service's spec implies: from what making the files met (the catalogue,
/// what a player cannot read or tell apart, the product size, the bleed, the ink, and what
/// PNG pixels cannot tell), then from the files themselves, read back (`check::service`).
pub fn checks(
    job: &Job,
    inspected: &Inspected,
    deck: &Deck,
    legibility: &crate::model::Legibility,
) -> Vec<Check> {
    let (service, fitted) = (job.print.service, job.print.fit.is_some());
    let problems = &inspected.problems;
    let of = |topic: Topic| -> Vec<&Diagnostic> {
        problems.iter().filter(|d| d.topic == topic).collect()
    };
    let check = |name, found: Vec<&Diagnostic>, pass: String, fix: &str| Check {
        name,
        verdict: if found.is_empty() { Verdict::Pass } else { Verdict::Fail },
        detail: if found.is_empty() { pass } else { first_problem(&found) },
        fix: Some(fix.to_string()),
    };
    let other_errors: Vec<&Diagnostic> =
        problems.iter().filter(|d| d.is_error() && d.topic == Topic::Other).collect();
    let mut checks = Vec::new();
    checks.push(check(
        "catalogue",
        other_errors,
        "valid: rules, templates, art and text checked".to_string(),
        "fix the errors `deckpress validate` lists",
    ));
    // What a player cannot read or tell apart, found drawing the files: no print service
    // rejects it, so a warning (`--strict`: a failure), each on a line of its own.
    let made = !inspected.files.is_empty();
    // `off`: why it was not looked for, if it was not.
    let player = |name, off: Option<&str>, found: Vec<&Diagnostic>, pass: String, fix: &str| {
        let not = |why: &str| Check {
            name,
            verdict: Verdict::NotApplicable,
            detail: format!("not checked: {why}"),
            fix: None,
        };
        match off {
            _ if !made => not("the files could not be made (the errors above first)"),
            Some(why) => not(why),
            None => Check {
                verdict: match (found.is_empty(), job.strict) {
                    (true, _) => Verdict::Pass,
                    (false, true) => Verdict::Fail,
                    (false, false) => Verdict::Warn,
                },
                ..check(name, found, pass, fix)
            },
        }
    };
    let off = |name| crate::check::off(name).then_some("turned off (DECKPRESS_CHECK_OFF)");
    checks.push(player(
        "contrast",
        off("contrast"),
        of(Topic::Legibility),
        format!(
            "every text at {}:1 or more against what is drawn under it ({}:1 from 14 pt), as drawn",
            legibility.contrast, legibility.large_contrast
        ),
        "darken the text or lighten what is under it; `deckpress validate` names every one",
    ));
    checks.push(player(
        "colour-alone",
        off("colour-alone").or((!legibility.colour_alone)
            .then_some("turned off in game.toml ([check] colour_alone = false)")),
        of(Topic::ColourAlone),
        "no field's values told apart by colour alone, for protanopia, deuteranopia or tritanopia"
            .to_string(),
        "add a glyph or a pattern that differs by value (see docs/catalogue.md, Legibility)",
    ));
    checks.push(product_size(service, &of(Topic::Product), fitted, job.strict));
    if !made {
        // Nothing could be made: the checks of the files would pass on nothing.
        let names =
            ["total-ink", "fine-text-inks"].into_iter().chain(crate::check::service::CHECKS);
        for name in names {
            checks.push(Check {
                name,
                verdict: Verdict::NotApplicable,
                detail: "not checked: the files could not be made (the errors above first)"
                    .to_string(),
                fix: None,
            });
        }
        return checks;
    }
    match (&job.print.press, service.form.is_pdf()) {
        (Some(press), true) => checks.push(check(
            "total-ink",
            of(Topic::Ink),
            format!(
                "every colour at most {:.0} %",
                press.ink_limit.unwrap_or(press.condition.ink_limit)
            ),
            "use lighter colours, or a swatch with less ink ([colour.swatches])",
        )),
        _ => checks.push(Check {
            name: "total-ink",
            verdict: Verdict::NotApplicable,
            detail: "RGB files: the service converts them".to_string(),
            fix: None,
        }),
    }
    // Small text in several inks: a risk printers flag, not a rule they reject by, so a
    // warning (a failure under --strict), like the legibility lines.
    match (&job.print.press, service.form.is_pdf()) {
        (Some(_), true) => checks.push(player(
            "fine-text-inks",
            off("fine-text-inks"),
            of(Topic::FineText),
            format!("no text under {} pt in more than one ink", legibility.fine_text_pt),
            "print small text in black ink alone, or give its colour a swatch of one ink ([colour.swatches])",
        )),
        _ => checks.push(Check {
            name: "fine-text-inks",
            verdict: Verdict::NotApplicable,
            detail: "RGB files: the service separates them".to_string(),
            fix: None,
        }),
    }
    let press = job.print.press.as_ref().filter(|_| service.form.is_pdf());
    let mut read = crate::check::service::checks(service, press, &inspected.files, deck);
    let bleed = format!(
        "{}, art drawn into all of it, as drawn",
        service.bleed.map_or("the deck's".to_string(), |b| format!(
            "{:.3} in ({:.2} mm)",
            b.to_pt() / 72.0,
            b.to_mm()
        ))
    );
    if !service.form.is_pdf() {
        // PNG pixels hold no text: what drawing the cards met stands in for it.
        for c in &mut read {
            let (found, pass, fix) = match c.name {
                BLEED => (of(Topic::Bleed), bleed.as_str(), "draw the background past the card's edge by the bleed"),
                SAFE_ZONE => {
                    let off = of(Topic::OffPiece);
                    (if off.is_empty() { of(Topic::SafeZone) } else { off }, "text 3 mm inside every cut, as drawn", "move the text 3 mm inside the card's edge: what runs past the cut is cut off")
                }
                SMALL_TEXT => (of(Topic::TextSize), "every text at or above the smallest size a player reads ([check] min_text_pt), as drawn", "make the text larger or shorter; deckpress's floor is [check] min_text_pt in game.toml"),
                IMAGE_DPI if !of(Topic::Resolution).is_empty() => (of(Topic::Resolution), "", "use images with more pixels"),
                _ => continue,
            };
            if crate::check::off(c.name) {
                continue;
            }
            *c = check(c.name, found, pass.to_string(), fix);
        }
    }
    // A piece drawn as a picture (PDF/X-1a) hides its text and lines from the file's
    // reader, and its art behind the 600 dpi picture: measured before flattening, they
    // fail the same checks, named so (a 76 dpi photo under a watermark passed).
    for c in &mut read {
        let (topic, fix) = match c.name {
            SMALL_TEXT => (Topic::FlattenedText, "make the text larger, or draw the piece without transparency (or use --pdfx 4) so that it stays text"),
            crate::check::service::HAIRLINE => (Topic::FlattenedLine, "make the line wider, or draw the piece without transparency (or use --pdfx 4)"),
            IMAGE_DPI => (Topic::Resolution, "use images with more pixels: a piece drawn as a picture keeps its art's own"),
            _ => continue,
        };
        let found = of(topic);
        if c.verdict == Verdict::Pass && !found.is_empty() {
            *c = check(c.name, found, String::new(), fix);
        }
    }
    checks.extend(read);
    let flattened = of(Topic::Transparency);
    if let Some(c) = checks.iter_mut().find(|c| c.name == crate::check::service::TRANSPARENCY) {
        if c.verdict == Verdict::Pass && !flattened.is_empty() {
            let n = flattened.len();
            c.detail = format!(
                "none live; {n} piece{} drawn as 600 dpi pictures (PDF/X-1a holds no transparency): {}",
                if n == 1 { "" } else { "s" },
                first_problem(&flattened)
            );
        }
    }
    checks
}

/// The first problem met, the piece it was met in, and how many more.
fn first_problem(found: &[&Diagnostic]) -> String {
    let d = found[0];
    // The piece it was met in ("in card `x` of deck `y`", "while filling …").
    let card = d
        .notes
        .iter()
        .find(|n| n.starts_with("in ") || n.starts_with("while "))
        .cloned()
        .unwrap_or_default();
    let more =
        if found.len() > 1 { format!(" (and {} more)", found.len() - 1) } else { String::new() };
    format!(
        "{}{}{more}",
        d.message,
        if card.is_empty() { String::new() } else { format!(" — {card}") }
    )
}

/// The deck's size against the products the service prints: a deck scaled to one warns
/// (the build does), which `--strict` fails.
fn product_size(service: &Service, product: &[&Diagnostic], fitted: bool, strict: bool) -> Check {
    let product_errors: Vec<&Diagnostic> =
        product.iter().copied().filter(|d| d.is_error()).collect();
    let warned = product.iter().any(|d| !d.is_error());
    let size_note = match (service.products.is_empty(), product.first()) {
        (true, _) => "any card size".to_string(),
        (false, Some(d)) if !d.is_error() => d.message.clone(),
        (false, _) => "a card size it prints".to_string(),
    };
    Check {
        name: "product-size",
        verdict: match (product_errors.is_empty(), warned, strict) {
            (false, _, _) | (true, true, true) => Verdict::Fail,
            (true, true, false) => Verdict::Warn,
            (true, false, _) => Verdict::Pass,
        },
        detail: match product_errors.first() {
            None => size_note,
            // Its last note is the fix, said on a line of its own.
            Some(d) => match &d.notes[..] {
                [first, _, ..] => format!("{}; {first}", d.message),
                _ => d.message.clone(),
            },
        },
        // The diagnostic's own advice names the nearest product and the --fit it needs.
        fix: product_errors
            .first()
            .and_then(|d| d.notes.last().cloned())
            .or_else(|| fitted.then(|| "make the deck the product's size".to_string())),
    }
}

/// The report as a page of the preview gallery.
pub(super) fn html(game: &str, service: &Service, sections: &[(String, Vec<Check>)]) -> String {
    let esc = crate::render::canvas::escape_xml;
    let mut h =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!("<title>{} — preflight for {}</title>\n", esc(game), esc(service.title)));
    h.push_str("<style>body{font-family:sans-serif;margin:2em;color:#1d2330}table{border-collapse:collapse;margin-bottom:2em}td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}.PASS{color:#1b7a3a;font-weight:bold}.FAIL{color:#b3261e;font-weight:bold}.NA{color:#777}.WARN{color:#8a5a00;font-weight:bold}</style>\n</head>\n<body>\n");
    h.push_str(&format!(
        "<h1>{} — preflight for {}</h1>\n<p><a href=\"index.html\">gallery</a></p>\n",
        esc(game),
        esc(service.title)
    ));
    for (deck, checks) in sections {
        // The section's title is escaped where it is made (`deck <code>…</code>`).
        h.push_str(&format!("<h2>{deck}</h2>\n<table>\n<tr><th></th><th>check</th><th>found</th><th>fix</th></tr>\n"));
        for c in checks {
            let (class, word) = match c.verdict {
                Verdict::Pass => ("PASS", "PASS"),
                Verdict::Fail => ("FAIL", "FAIL"),
                Verdict::NotApplicable => ("NA", "N/A"),
                Verdict::Warn => ("WARN", "WARN"),
            };
            let fix = c.fix.as_deref().filter(|_| c.verdict == Verdict::Fail).unwrap_or("");
            h.push_str(&format!(
                "<tr class=\"check\"><td class=\"{class}\">{word}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                esc(c.name),
                esc(&c.detail),
                esc(fix)
            ));
        }
        h.push_str("</table>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}
