//! `deckpress rules` and `deckpress bundle` (issue #43), read back from the PDFs they
//! write: the rulebook's text (pdftotext), its booklet order, a bundle's bookmarks and
//! page labels (qpdf --json), and a universal bundle's pages and marks (pdfinfo, gs bbox).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// Writes `text` as the catalogue's rules.md.
fn rules_md(catalogue: &Path, text: &str) {
    std::fs::write(catalogue.join("rules.md"), text).unwrap();
}

/// Runs `deckpress ARGS` beside the catalogue, expecting exit 0: stderr and the out folder.
fn run_ok(catalogue: &Path, args: &[&str]) -> (String, PathBuf) {
    let out = catalogue.parent().unwrap().join("out");
    let mut all: Vec<&str> = args.to_vec();
    all.extend([catalogue.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let run = deckpress(&all, catalogue.parent().unwrap());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    (stderr(&run), out)
}

fn text_of(pdf: &Path, page: Option<usize>) -> String {
    let page = page.map(|p| p.to_string());
    let mut args = vec!["-layout"];
    if let Some(p) = &page {
        args.extend(["-f", p, "-l", p]);
    }
    args.extend([pdf.to_str().unwrap(), "-"]);
    poppler("pdftotext", &args)
}

#[test]
fn the_rulebook_prints_numbers_that_follow_the_data() {
    let (_dir, cat) = new_game();
    rules_md(&cat, "# Rules\n\nThere are {{ count(deck=\"cards\", where={\"value\": 3}) }} threes among {{ count(deck=\"cards\") }} cards.\n");
    let (_, out) = run_ok(&cat, &["rules"]);
    let pdf = out.join("game/game-rules-a4.pdf");
    let text = text_of(&pdf, None);
    assert!(text.contains("There are 4 threes among 8 cards."), "{text}");
    // One Dusk fewer and one Noon more: still four Suns, one three fewer.
    edit(&cat, "cards.csv", "sun-2,1,Sun", "sun-2,2,Sun");
    edit(&cat, "cards.csv", "sun-3,2,Sun", "sun-3,1,Sun");
    let (_, out) = run_ok(&cat, &["rules"]);
    let text = text_of(&out.join("game/game-rules-a4.pdf"), None);
    assert!(text.contains("There are 3 threes among 8 cards."), "{text}");
}

#[test]
fn a_mistake_in_rules_md_is_an_error_at_its_line_and_column() {
    let (_dir, cat) = new_game();
    rules_md(&cat, "# Rules\n\nDeal {{ deals[0].hand }} cards.\nPay one {coin} to draw.\n");
    let run = deckpress(&["rules", cat.to_str().unwrap()], cat.parent().unwrap());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("`{coin}` is no icon of this game"), "{err}");
    assert!(err.contains("rules.md:4:9"), "the icon is at line 4, column 9: {err}");

    rules_md(&cat, "# Rules\n\nDeal {{ deals[0].hand }} cards,\nto {{ playerz }} players.\n");
    let run = deckpress(&["rules", cat.to_str().unwrap()], cat.parent().unwrap());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("undefined value `playerz`"), "{err}");
    assert!(err.contains("rules.md:4:7"), "{err}");

    rules_md(&cat, "# Rules\n\nDeal {{ deals[0].hand }} cards.\nThe ankh \u{13000} wins.\n");
    let run = deckpress(&["rules", cat.to_str().unwrap()], cat.parent().unwrap());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("has no glyph in any font") && err.contains("rules.md:4:10"), "{err}");

    rules_md(&cat, "# Rules\n\nSee ![the board](art/board.png) first.\n");
    let run = deckpress(&["rules", cat.to_str().unwrap()], cat.parent().unwrap());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("image `art/board.png`") && err.contains("rules.md:3:"), "{err}");
}

#[test]
fn raw_html_in_rules_md_is_left_out_with_a_warning() {
    let (_dir, cat) = new_game();
    rules_md(&cat, "# Rules\n\nPlay well.\n\n<script>alert('owned')</script>\n\nThe end.\n");
    let (err, out) = run_ok(&cat, &["rules"]);
    assert!(err.contains("raw HTML `<script>alert('owned')</script>` is left out"), "{err}");
    assert!(err.contains("rules.md:5:1"), "{err}");
    let text = text_of(&out.join("game/game-rules-a4.pdf"), None);
    assert!(text.contains("The end.") && !text.contains("alert"), "{text}");
}

/// A rulebook of `sections` sections, each long enough to fill most of an A5 page.
fn long_rules(sections: usize) -> String {
    let mut text = String::from("# Rules\n\n");
    for s in 1..=sections {
        text.push_str(&format!("## Part {s}\n\n"));
        for _ in 0..6 {
            text.push_str("Each player in turn plays a card, draws a card and scores the pile when it holds an even number of cards; the player with most points wins.\n\n");
        }
    }
    text
}

#[test]
fn a_heading_never_ends_a_page() {
    let (_dir, cat) = new_game();
    // Sections of every length from one to seven paragraphs: headings fall at every height.
    let mut text = String::from("# Rules\n\n");
    for s in 1..=40 {
        text.push_str(&format!("## Part {s}\n\n"));
        for p in 0..(s % 7 + 1) {
            let sentence = "Each player in turn plays a card and then draws a card from the pile. ";
            text.push_str(&format!("{}\n\n", sentence.repeat((s + p) % 4 + 1)));
        }
    }
    rules_md(&cat, &text);
    let (_, out) = run_ok(&cat, &["rules"]);
    let pdf = out.join("game/game-rules-a4.pdf");
    for page in 1..=pages(&pdf) {
        let text = text_of(&pdf, Some(page));
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        // The last line is the page number; the one before it is what ends the page.
        let last = lines.iter().rev().nth(1).copied().unwrap_or_default();
        // A contents line ("Part 4 …… 2") has its page after the title; a heading not.
        let heading = last.starts_with("Part ") && last.split_whitespace().count() == 2;
        assert!(!heading, "page {page} ends with the heading `{last}`");
    }
}

/// The page numbers printed at the foot of a page's text ("My Game · N"), left to right.
fn footers(text: &str) -> Vec<usize> {
    text.split("My Game · ")
        .skip(1)
        .filter_map(|t| t.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect()
}

#[test]
fn a_booklet_puts_its_pages_in_saddle_stitch_order() {
    let (_dir, cat) = new_game();
    rules_md(&cat, &long_rules(12));
    let (_, out) = run_ok(&cat, &["rules", "--booklet"]);
    let pdf = out.join("game/game-rules-booklet-a4.pdf");
    // The A5 pages are numbered; two to each side of a turned A4 sheet.
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("841.89 x 595.276 pts"), "A4 landscape sheets: {info}");
    let sides = pages(&pdf);
    let numbered: Vec<Vec<usize>> = (1..=sides).map(|p| footers(&text_of(&pdf, Some(p)))).collect();
    let count = numbered.iter().flatten().max().copied().unwrap_or(0);
    assert!(count > 4 && count <= 8, "12 sections on A5 take 5 to 8 pages: {numbered:?}");
    let expected: Vec<Vec<usize>> = [[8, 1], [2, 7], [6, 3], [4, 5]]
        .iter()
        .map(|side| side.iter().copied().filter(|&p| p <= count).collect())
        .collect();
    assert_eq!(numbered, expected, "sheet sides, left to right, blanks padding to 8");
    // Landscape sheets turn over their short edge; printed at 100 %.
    let objects = Command::new("qpdf")
        .args(["--json", "--json-key=qpdf", pdf.to_str().unwrap()])
        .output()
        .expect("qpdf is needed");
    let objects = String::from_utf8_lossy(&objects.stdout);
    assert!(objects.contains("\"/Duplex\": \"/DuplexFlipShortEdge\""), "{objects}");
    assert!(objects.contains("\"/PrintScaling\": \"/None\""));
}

/// qpdf's JSON of a PDF's outlines and page labels.
fn qpdf_json(pdf: &Path) -> serde_json::Value {
    let out = Command::new("qpdf")
        .args(["--json", "--json-key=outlines", "--json-key=pagelabels", pdf.to_str().unwrap()])
        .output()
        .expect("qpdf is needed (apt-get install qpdf)");
    serde_json::from_slice(&out.stdout).expect("qpdf writes JSON")
}

#[test]
fn a_bundle_has_bookmarks_and_page_labels_for_every_part() {
    let (_dir, cat) = new_game();
    rules_md(&cat, "# Rules\n\n## Setup\n\nShuffle.\n\n## Play\n\nPlay a card.\n");
    let (_, out) = run_ok(&cat, &["bundle"]);
    let pdf = out.join("game/game-pnp-a4.pdf");
    let json = qpdf_json(&pdf);
    let outlines = json["outlines"].as_array().expect("the bundle has bookmarks");
    let titles: Vec<&str> = outlines.iter().filter_map(|o| o["title"].as_str()).collect();
    assert_eq!(titles, ["Cover", "How to print", "Rules", "My Game deck"], "{json}");
    let rules = &outlines[2];
    let sections: Vec<&str> = rules["kids"][0]["kids"]
        .as_array()
        .map(|k| k.iter().filter_map(|o| o["title"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(sections, ["Setup", "Play"], "rules sections under the rulebook: {rules}");
    // Each bookmark opens its part's first page, whose label names it.
    let labels = json["pagelabels"].as_array().expect("the bundle has page labels");
    let label_at = |index: u64| {
        let l = labels.iter().rev().find(|l| l["index"].as_u64().unwrap() <= index).unwrap();
        let prefix = l["label"]["/P"].as_str().unwrap_or("u:").trim_start_matches("u:");
        let start = l["label"]["/St"].as_u64().unwrap_or(1);
        match l["label"]["/S"].as_str() {
            Some(_) => format!("{prefix}{}", start + index - l["index"].as_u64().unwrap()),
            None => prefix.to_string(),
        }
    };
    let page_of = |o: &serde_json::Value| o["destpageposfrom1"].as_u64().unwrap() - 1;
    assert_eq!(label_at(page_of(&outlines[0])), "Cover");
    assert_eq!(label_at(page_of(&outlines[1])), "Guide 1");
    assert_eq!(label_at(page_of(&outlines[2])), "Rules 1");
    assert_eq!(label_at(page_of(&outlines[3])), "My Game deck 1");
    let deck = page_of(&outlines[3]) as usize + 1;
    assert!(pages(&pdf) > deck, "the deck's back pages follow its fronts");
    // The guide says which pages are the deck and how to print them.
    let guide = text_of(&pdf, Some(2));
    assert!(guide.contains("50 mm") && guide.contains("actual size (100 %)"), "{guide}");
    assert!(guide.contains(&format!("{deck}–")) && guide.contains("double-sided"), "{guide}");
    let cover = text_of(&pdf, Some(1));
    assert!(cover.contains("2–4 players") && cover.contains("8 cards"), "{cover}");
}

#[test]
fn every_page_of_a_universal_bundle_fits_a4_and_letter_alike() {
    let (_dir, cat) = copy_catalogue("travfuda");
    rules_md(&cat, "# TravFuda\n\n{{ count(deck=\"cards\") }} cards.\n");
    let (_, out) = run_ok(&cat, &["bundle", "--paper", "universal"]);
    let pdf = out.join("travfuda/travfuda-pnp-universal.pdf");
    let n = pages(&pdf);
    assert!(n > 10, "cover, guide, rules and the components: {n} pages");
    // 210 × 279.4 mm in points, either way up.
    let (short, long) = (595.28, 792.0);
    let boxes =
        poppler("pdfinfo", &["-box", "-f", "1", "-l", &n.to_string(), pdf.to_str().unwrap()]);
    let sizes: Vec<(f32, f32)> = boxes
        .lines()
        .filter(|l| l.contains("MediaBox:"))
        .map(|line| {
            let v: Vec<f32> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
            (v[v.len() - 2] - v[v.len() - 4], v[v.len() - 1] - v[v.len() - 3])
        })
        .collect();
    assert_eq!(sizes.len(), n);
    for (page, (w, h)) in sizes.iter().enumerate() {
        let fits = w.min(*h) <= short + 0.01 && w.max(*h) <= long + 0.01;
        assert!(fits, "page {}: {w} × {h} pt", page + 1);
    }
    // What is drawn on each page (cards, marks, text) stays inside it, 5 mm from its edges.
    let gs = Command::new("gs")
        .args(["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=bbox", pdf.to_str().unwrap()])
        .output()
        .expect("ghostscript is needed");
    let report = String::from_utf8_lossy(&gs.stderr);
    let drawn: Vec<Vec<f32>> = report
        .lines()
        .filter(|l| l.starts_with("%%HiResBoundingBox:"))
        .map(|l| l.split_whitespace().skip(1).filter_map(|v| v.parse().ok()).collect())
        .collect();
    assert_eq!(drawn.len(), n, "{report}");
    let margin = 5.0 * 72.0 / 25.4 - 0.5;
    for (page, b) in drawn.iter().enumerate() {
        let (w, h) = sizes[page];
        let inside = b[0] >= margin && b[1] >= margin && b[2] <= w - margin && b[3] <= h - margin;
        assert!(inside, "page {}: drawn at {b:?} on {w} × {h} pt", page + 1);
    }
}
