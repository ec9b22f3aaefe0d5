//! `deckpress preflight GAME --for SERVICE`: each check of the service's spec, PASS or
//! FAIL with the card and the fix, on the terminal and beside the preview gallery; the
//! exit status as `validate`'s.

use crate::common::*;

/// The lines of the report for a check, one per deck.
fn lines<'a>(report: &'a str, check: &str) -> Vec<&'a str> {
    report.lines().filter(|l| l.get(8..).is_some_and(|rest| rest.starts_with(check))).collect()
}

#[test]
fn travfuda_fails_drivethrucards_on_the_size_and_passes_once_fitted() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let run = deckpress(&["preflight", "travfuda", "--for", "drivethrucards", "--out", o], &repo());
    let report = stdout(&run);
    assert_eq!(run.status.code(), Some(1), "{report}{}", stderr(&run));
    let size = lines(&report, "product size");
    assert_eq!(size.len(), 3, "one per deck: {report}");
    assert!(
        size[0].starts_with("  FAIL")
            && size[0].contains("its nearest products: poker (2.5 × 3.5 in"),
        "{report}"
    );
    assert!(
        report.contains("fix: make the deck `size = \"poker\"`, or build with `--fit scale`"),
        "{report}"
    );
    // The other checks still ran on the cards, measured from the files made.
    assert!(
        lines(&report, "fonts embedded")[0]
            .contains("PASS  fonts embedded   2 of 2 fonts embedded"),
        "{report}"
    );
    assert!(lines(&report, "colour space")[0].contains("CMYK for SWOP"), "{report}");
    assert!(stderr(&run).contains("game.toml:"), "the failures with their lines: {}", stderr(&run));

    let run = deckpress(
        &[
            "preflight",
            "travfuda",
            "--only",
            "cards",
            "--for",
            "drivethrucards",
            "--fit",
            "scale",
            "--out",
            o,
        ],
        &repo(),
    );
    let report = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{report}{}", stderr(&run));
    let checks: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("  PASS") || l.starts_with("  FAIL") || l.starts_with("  N/A"))
        .collect();
    assert_eq!(checks.len(), 10, "{report}");
    assert!(checks.iter().all(|l| l.starts_with("  PASS")), "{report}");
    assert!(report.contains("scaled by 1.0102"), "{report}");
    // The same report is a page beside the gallery, and the gallery links to it.
    let page = out.path().join("travfuda/preview/preflight-drivethrucards.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<tr class=\"check\">").count(), 10, "{html}");
    assert_eq!(html.matches("<td class=\"PASS\">PASS</td>").count(), 10, "{html}");
    let run = deckpress(&["preview", "travfuda", "--quiet", "--out", o], &repo());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let gallery = std::fs::read_to_string(out.path().join("travfuda/preview/index.html")).unwrap();
    assert!(
        gallery.contains("href=\"preflight-drivethrucards.html\""),
        "the gallery links the report"
    );
}

#[test]
fn a_card_that_breaks_the_spec_is_named_with_the_fix() {
    let (dir, cat) = new_game();
    edit(&cat, "game.toml", "width = \"63mm\"\nheight = \"88mm\"", "size = \"poker\"");
    // Text 1 mm from the bottom edge of the card: inside the 3 mm safe zone.
    edit(&cat, "templates/face.svg", "<text x=\"315\" y=\"730\"", "<text x=\"315\" y=\"880\"");
    let out = dir.path().join("out");
    let run = deckpress(
        &[
            "preflight",
            cat.to_str().unwrap(),
            "--for",
            "gamecrafter",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    let report = stdout(&run);
    assert_eq!(run.status.code(), Some(1), "{report}{}", stderr(&run));
    let safe = lines(&report, "safe zone");
    assert!(
        safe[0].starts_with("  FAIL")
            && safe[0].contains("inside the 3 mm safe zone")
            && safe[0].contains("card `"),
        "{report}"
    );
    assert!(report.contains("fix: move the text 3 mm inside the card's edge"), "{report}");
    // PNG files: no ink limit, no fonts; sRGB declared in each file.
    assert!(lines(&report, "total ink")[0].starts_with("  N/A"), "{report}");
    assert!(lines(&report, "fonts embedded")[0].starts_with("  N/A"), "{report}");
    assert!(
        lines(&report, "colour space")[0].contains("sRGB, declared in each of 7 PNG files"),
        "{report}"
    );
    assert!(
        lines(&report, "product size")[0].starts_with("  PASS"),
        "poker is a product: {report}"
    );
    // Home printing is no service.
    let run = deckpress(&["preflight", cat.to_str().unwrap()], dir.path());
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
}
