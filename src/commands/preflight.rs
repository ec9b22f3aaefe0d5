//! `deckpress preflight GAME --for SERVICE`: every check the service's file spec implies,
//! deck by deck, each PASS or FAIL with the card and the fix, read from the problems met
//! making the files and from the files themselves (made in memory, not written). The
//! report is printed and written as a page beside the preview gallery.

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Failure, Sources, Topic};
use crate::driver::{Inspected, Outcome};
use crate::job::{Game, Job};
use crate::services::{Colour, Form, Service, SideOrder};

/// One line of the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub name: &'static str,
    pub verdict: Verdict,
    /// What was found: the size, the count, the first card that fails.
    pub detail: String,
    /// What to do about a failure.
    pub fix: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail,
    /// The service's spec asks nothing of this for these files (ink for sRGB PNGs).
    NotApplicable,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::NotApplicable => "N/A ",
        }
    }
}

/// Runs the checks for every game of the job, a deck at a time.
pub fn run(job: &Job, out: &Path) -> Vec<Outcome> {
    job.games.iter().map(|game| preflight_game(job, game, out)).collect()
}

fn preflight_game(job: &Job, game: &Game, out: &Path) -> Outcome {
    let service = job.print.service;
    // The game is loaded and validated once; each deck is made from it.
    let checked = match crate::plan::check(&game.world, &job.limits) {
        Ok(checked) => checked,
        Err(e) => return Outcome::new(game.name.clone(), Err(e)),
    };
    let cat = checked.catalogue();
    let asked = |id: &String| job.print.only.is_empty() || job.print.only.contains(id);
    // A label sheet is a home sheet: `--for` leaves it out of the service's files, so
    // there is nothing of it to check (it was said to pass, with "0 PDF").
    let decks: Vec<String> = cat
        .decks
        .iter()
        .filter(|d| d.labels.is_none())
        .map(|d| d.id.clone())
        .filter(asked)
        .collect();
    let mut report: Vec<String> = cat
        .decks
        .iter()
        .filter(|d| d.labels.is_some() && asked(&d.id))
        .map(|d| {
            format!(
                "{} — deck `{}` is printed on labels: left out of the files for {} (build it without --for)",
                cat.id, d.id, service.title
            )
        })
        .collect();
    let mut failed: Vec<Diagnostic> = Vec::new();
    let mut sources = Sources::default();
    let mut sections = Vec::new();
    for deck in &decks {
        let inspected = match crate::driver::inspect(job, &checked, deck) {
            Ok(i) => i,
            Err(e) => return Outcome::new(game.name.clone(), Err(e)),
        };
        let checks = checks(service, &inspected, job.print.fit.is_some());
        report.push(format!(
            "{} — deck `{deck}` for {} (--for {})",
            cat.id, service.title, service.name
        ));
        for c in &checks {
            report.push(format!("  {}  {:<16} {}", c.verdict.word(), c.name, c.detail));
            if let Some(fix) = c.fix.as_ref().filter(|_| c.verdict == Verdict::Fail) {
                report.push(format!("        {:<16} fix: {fix}", ""));
            }
        }
        failed.extend(inspected.problems.iter().filter(|d| fails(d, job.strict)).cloned());
        sources = inspected.sources.clone();
        sections.push((deck.clone(), checks));
    }
    let failures =
        sections.iter().flat_map(|(_, c)| c).filter(|c| c.verdict == Verdict::Fail).count();
    report.push(format!(
        "{}: {} check{} failed for {}",
        cat.id,
        failures,
        if failures == 1 { "" } else { "s" },
        service.title
    ));
    let page = out.join(&cat.id).join("preview").join(format!("preflight-{}.html", service.name));
    match crate::output::write_atomic(&page, html(&cat.name, service, &sections).as_bytes()) {
        Ok(()) => report.push(page.display().to_string()),
        Err(e) => {
            return Outcome::new(
                game.name.clone(),
                Err(Failure::Io(format!("cannot write {}: {e}", page.display()))),
            )
        }
    }
    let result = if failures == 0 {
        Ok(Vec::new())
    } else {
        Err(Failure::Invalid(crate::diag::group(failed), sources))
    };
    Outcome { report, ..Outcome::new(game.name.clone(), result) }
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
        )
}

/// The checks the service's spec implies, from what making the files met and the files.
pub fn checks(service: &Service, inspected: &Inspected, fitted: bool) -> Vec<Check> {
    let problems = &inspected.problems;
    let of = |topic: Topic| -> Vec<&Diagnostic> {
        problems.iter().filter(|d| d.topic == topic).collect()
    };
    let first = |found: &[&Diagnostic]| -> String {
        let d = found[0];
        // The piece it was met in ("in card `x` of deck `y`", "while filling …").
        let card = d
            .notes
            .iter()
            .find(|n| n.starts_with("in ") || n.starts_with("while "))
            .cloned()
            .unwrap_or_default();
        let more = if found.len() > 1 {
            format!(" (and {} more)", found.len() - 1)
        } else {
            String::new()
        };
        format!(
            "{}{}{more}",
            d.message,
            if card.is_empty() { String::new() } else { format!(" — {card}") }
        )
    };
    let check = |name, found: Vec<&Diagnostic>, pass: String, fix: &str| Check {
        name,
        verdict: if found.is_empty() { Verdict::Pass } else { Verdict::Fail },
        detail: if found.is_empty() { pass } else { first(&found) },
        fix: Some(fix.to_string()),
    };
    let pdfs: Vec<&(PathBuf, Vec<u8>)> =
        inspected.files.iter().filter(|(p, _)| p.extension().is_some_and(|e| e == "pdf")).collect();
    let pngs =
        inspected.files.iter().filter(|(p, _)| p.extension().is_some_and(|e| e == "png")).count();
    let other_errors: Vec<&Diagnostic> =
        problems.iter().filter(|d| d.is_error() && d.topic == Topic::Other).collect();
    let mut checks = Vec::new();
    checks.push(check(
        "catalogue",
        other_errors,
        "valid: rules, templates, art and text checked".to_string(),
        "fix the errors `deckpress validate` lists",
    ));
    let product = of(Topic::Product);
    let product_errors: Vec<&Diagnostic> =
        product.iter().copied().filter(|d| d.is_error()).collect();
    let size_note = match (service.products.is_empty(), product.first()) {
        (true, _) => "any card size".to_string(),
        (false, Some(d)) if !d.is_error() => d.message.clone(),
        (false, _) => "a card size it prints".to_string(),
    };
    checks.push(Check {
        name: "product size",
        verdict: if product_errors.is_empty() { Verdict::Pass } else { Verdict::Fail },
        detail: match product_errors.first() {
            None => size_note,
            Some(d) => format!("{}; {}", d.message, d.notes.first().cloned().unwrap_or_default()),
        },
        // The diagnostic's own advice names the nearest product and the --fit it needs.
        fix: product_errors
            .first()
            .and_then(|d| d.notes.last().cloned())
            .or_else(|| fitted.then(|| "make the deck the product's size".to_string())),
    });
    if inspected.files.is_empty() {
        // Nothing could be made: the checks of the files would pass on nothing.
        for name in [
            "bleed",
            "safe zone",
            "art resolution",
            "total ink",
            "fonts embedded",
            "transparency",
            "colour space",
            "file order",
        ] {
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
    let bleed = service.bleed.map_or("the deck's".to_string(), |b| {
        format!("{:.3} in ({:.2} mm)", b.to_pt() / 72.0, b.to_mm())
    });
    checks.push(check(
        "bleed",
        of(Topic::Bleed),
        format!("{bleed}, art drawn into all of it"),
        "draw the background past the card's edge by the bleed",
    ));
    let off = of(Topic::OffPiece);
    checks.push(check(
        "safe zone",
        if off.is_empty() { of(Topic::SafeZone) } else { off },
        "text 3 mm inside every cut".to_string(),
        "move the text 3 mm inside the card's edge: what runs past the cut is cut off",
    ));
    checks.push(check(
        "text size",
        of(Topic::TextSize),
        "every text at or above the smallest size a player reads ([check] min_text_pt, 6 pt unless the game says)".to_string(),
        "make the text larger or shorter; deckpress's floor is [check] min_text_pt in game.toml",
    ));
    checks.push(check(
        "art resolution",
        of(Topic::Resolution),
        "every image at 300 dpi or more".to_string(),
        "use images with more pixels",
    ));
    match service.colour {
        Colour::Cmyk { ink_limit, .. } => checks.push(check(
            "total ink",
            of(Topic::Ink),
            format!("every colour at most {ink_limit:.0} %"),
            "use lighter colours, or a swatch with less ink ([colour.swatches])",
        )),
        Colour::Rgb => checks.push(Check {
            name: "total ink",
            verdict: Verdict::NotApplicable,
            detail: "RGB files: the service converts them".to_string(),
            fix: None,
        }),
    }
    checks.push(fonts_check(service, &pdfs));
    let flattened = of(Topic::Transparency);
    checks.push(Check {
        name: "transparency",
        verdict: Verdict::Pass,
        detail: match (service.colour, flattened.len()) {
            (Colour::Cmyk { .. }, 0) => "none: every piece is vector art".to_string(),
            (Colour::Cmyk { .. }, n) => format!(
                "{n} piece{} drawn as 600 dpi pictures (PDF/X-1a holds no transparency): {}",
                if n == 1 { "" } else { "s" },
                first(&flattened)
            ),
            (Colour::Rgb, _) => "kept (the files are not PDF/X-1a)".to_string(),
        },
        fix: None,
    });
    let png_files: Vec<&[u8]> = inspected
        .files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "png"))
        .map(|(_, b)| b.as_slice())
        .collect();
    checks.push(colour_check(service, &pdfs, &png_files));
    checks.push(order_check(service, &pdfs, pngs, inspected));
    checks
}

/// Every font of every PDF embedded: each font descriptor carries its font file.
fn fonts_check(service: &Service, pdfs: &[&(PathBuf, Vec<u8>)]) -> Check {
    if !service.form.is_pdf() {
        return Check {
            name: "fonts embedded",
            verdict: Verdict::NotApplicable,
            detail: "PNG files: text is pixels".to_string(),
            fix: None,
        };
    }
    let (mut fonts, mut missing) = (0, 0);
    for (_, bytes) in pdfs {
        for object in split_objects(bytes) {
            if contains(object, b"/Type /FontDescriptor")
                || contains(object, b"/Type/FontDescriptor")
            {
                fonts += 1;
                if !contains(object, b"/FontFile") {
                    missing += 1;
                }
            }
        }
    }
    Check {
        name: "fonts embedded",
        verdict: if missing == 0 { Verdict::Pass } else { Verdict::Fail },
        detail: format!("{} of {fonts} fonts embedded (subset)", fonts - missing),
        fix: Some("report it: deckpress embeds every font it draws with".to_string()),
    }
}

/// CMYK files hold no RGB colour space; PNGs are RGB with sRGB declared.
fn colour_check(service: &Service, pdfs: &[&(PathBuf, Vec<u8>)], pngs: &[&[u8]]) -> Check {
    match service.colour {
        Colour::Cmyk { profile, pdfx, .. } => {
            let rgb =
                pdfs.iter().any(|(_, b)| contains(b, b"/DeviceRGB") || contains(b, b"/CalRGB"));
            let intent = pdfs.iter().all(|(_, b)| contains(b, b"/GTS_PDFX"));
            Check {
                name: "colour space",
                verdict: if rgb || !intent { Verdict::Fail } else { Verdict::Pass },
                detail: if rgb {
                    "an RGB colour space in a CMYK file".to_string()
                } else {
                    format!("CMYK for {}, {} output intent", profile.name(), pdfx.version())
                },
                fix: Some("report it: CMYK files are converted whole".to_string()),
            }
        }
        Colour::Rgb if service.form == Form::PngPerSide => {
            // Colour type 2 (RGB) or 6 (RGBA) in the header, and an sRGB chunk.
            let srgb = |png: &&[u8]| matches!(png.get(25), Some(2 | 6)) && contains(png, b"sRGB");
            let bad = pngs.iter().filter(|p| !srgb(p)).count();
            Check {
                name: "colour space",
                verdict: if bad == 0 { Verdict::Pass } else { Verdict::Fail },
                detail: format!("sRGB, declared in each of {} PNG files", pngs.len() - bad),
                fix: Some("report it: deckpress writes sRGB PNGs".to_string()),
            }
        }
        Colour::Rgb => Check {
            name: "colour space",
            verdict: Verdict::Pass,
            detail: "RGB (--colour cmyk for a press)".to_string(),
            fix: None,
        },
    }
}

/// The files in the order the service asks for, and as many as the deck needs: a page
/// (or PNG) for each side of each design.
fn order_check(
    service: &Service,
    pdfs: &[&(PathBuf, Vec<u8>)],
    pngs: usize,
    inspected: &Inspected,
) -> Check {
    let (designs, cards) = (inspected.designs, inspected.cards);
    let wrong = match service.form {
        Form::PdfPagePerSide => {
            let pages: usize = pdfs.iter().map(|(_, b)| page_count(b)).sum();
            (pages != 2 * cards).then(|| {
                format!("{pages} pages for {cards} cards: each needs a front and a back page")
            })
        }
        Form::PngPerSide => (pngs < designs)
            .then(|| format!("{pngs} PNG files for {designs} designs: each needs its front")),
        Form::GangSheets => None,
    };
    if let Some(detail) = wrong {
        return Check {
            name: "file order",
            verdict: Verdict::Fail,
            detail,
            fix: Some("report it: deckpress writes a file side for every design".to_string()),
        };
    }
    let detail = match (service.form, service.sides) {
        (Form::PdfPagePerSide, SideOrder::BackFirst) => {
            format!("{} PDF, a page per side: each card's back, then its front", pdfs.len())
        }
        (Form::PdfPagePerSide, SideOrder::FrontFirst) => {
            format!("{} PDF, a page per side: each card's front, then its back", pdfs.len())
        }
        (Form::PngPerSide, _) => format!("{pngs} PNG files, NNN-id-front/back, and quantities.csv"),
        (Form::GangSheets, _) => "gang sheets, fronts and backs interleaved for duplex".to_string(),
    };
    Check { name: "file order", verdict: Verdict::Pass, detail, fix: None }
}

/// The pages of a PDF deckpress wrote: its page objects.
fn page_count(bytes: &[u8]) -> usize {
    split_objects(bytes)
        .filter(|o| {
            (contains(o, b"/Type /Page") && !contains(o, b"/Type /Pages"))
                || (contains(o, b"/Type/Page") && !contains(o, b"/Type/Pages"))
        })
        .count()
}

/// A PDF's bytes cut at `endobj`: deckpress writes no object streams (PDF/X-1a is PDF
/// 1.4), so each object's dictionary is plain text between two of them.
fn split_objects(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split_inclusive_at(b"endobj")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

trait SplitAt {
    fn split_inclusive_at<'a>(&'a self, at: &'a [u8]) -> Box<dyn Iterator<Item = &'a [u8]> + 'a>;
}

impl SplitAt for [u8] {
    fn split_inclusive_at<'a>(&'a self, at: &'a [u8]) -> Box<dyn Iterator<Item = &'a [u8]> + 'a> {
        let mut rest = self;
        Box::new(std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let end =
                rest.windows(at.len()).position(|w| w == at).map_or(rest.len(), |i| i + at.len());
            let (object, after) = rest.split_at(end);
            rest = after;
            Some(object)
        }))
    }
}

/// The report as a page of the preview gallery.
fn html(game: &str, service: &Service, sections: &[(String, Vec<Check>)]) -> String {
    let esc = crate::render::canvas::escape_xml;
    let mut h =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!("<title>{} — preflight for {}</title>\n", esc(game), esc(service.title)));
    h.push_str("<style>body{font-family:sans-serif;margin:2em;color:#1d2330}table{border-collapse:collapse;margin-bottom:2em}td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}.PASS{color:#1b7a3a;font-weight:bold}.FAIL{color:#b3261e;font-weight:bold}.NA{color:#777}</style>\n</head>\n<body>\n");
    h.push_str(&format!(
        "<h1>{} — preflight for {}</h1>\n<p><a href=\"index.html\">gallery</a></p>\n",
        esc(game),
        esc(service.title)
    ));
    for (deck, checks) in sections {
        h.push_str(&format!("<h2>deck <code>{}</code></h2>\n<table>\n<tr><th></th><th>check</th><th>found</th><th>fix</th></tr>\n", esc(deck)));
        for c in checks {
            let (class, word) = match c.verdict {
                Verdict::Pass => ("PASS", "PASS"),
                Verdict::Fail => ("FAIL", "FAIL"),
                Verdict::NotApplicable => ("NA", "N/A"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_order_check_fails_a_file_short_of_a_side() {
        let service = crate::services::find("drivethrucards").unwrap();
        let pdf = b"1 0 obj\n<< /Type /Pages /Count 3 >>\nendobj\n2 0 obj\n<< /Type /Page >>\nendobj\n3 0 obj\n<< /Type /Page >>\nendobj\n4 0 obj\n<< /Type /Page >>\nendobj\n".to_vec();
        let file = (PathBuf::from("game-cards.pdf"), pdf);
        let inspected = |cards| Inspected {
            files: vec![file.clone()],
            problems: Vec::new(),
            sources: Sources::default(),
            designs: cards,
            cards,
        };
        let short = order_check(service, &[&file], 0, &inspected(2));
        assert_eq!(short.verdict, Verdict::Fail, "{short:?}");
        assert!(short.detail.contains("3 pages for 2 cards"), "{short:?}");
        let four = b"<< /Type /Page >>\nendobj\n".repeat(4);
        let file = (PathBuf::from("game-cards.pdf"), four);
        let whole = order_check(service, &[&file], 0, &inspected(2));
        assert_eq!(whole.verdict, Verdict::Pass, "{whole:?}");
    }
}
