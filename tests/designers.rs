//! What designers expect of templates and metadata (issue: "Cards as designers write
//! them"): shared frames through include/import, errors that name both files, game
//! metadata in templates and PDFs, landscape cards sideways in Tabletop Simulator.

mod common;

use common::*;

fn starter() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(deckpress(&["new", "game"], dir.path()).status.code(), Some(0));
    let cat = dir.path().join("game");
    (dir, cat)
}

#[test]
fn a_shared_frame_is_imported_and_drawn_on_every_card() {
    let (dir, cat) = starter();
    std::fs::write(cat.join("templates/frame.svg"), "{% macro frame(colour) %}<text x=\"315\" y=\"845\" font-size=\"20\" text-anchor=\"middle\" fill=\"{{ colour }}\">SHARED FRAME {{ game.version }}</text>{% endmacro %}").unwrap();
    edit(&cat, "templates/face.svg", "<circle", "{% from \"templates/frame.svg\" import frame %}{{ frame(style.ink) }}<circle");
    edit(&cat, "game.toml", "players = { min = 2, max = 4 }", "players = { min = 2, max = 4 }\nversion = \"2.1\"\nauthor = \"Ada Designer\"\ncopyright = \"Ada Designer\"\nyear = 2026");
    let out = dir.path().join("out");
    let run = deckpress(&["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.join("game/game-cards-a4.pdf");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert_eq!(text.matches("SHARED FRAME 2.1").count(), 8, "{text}");
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("Author:          Ada Designer"), "{info}");
    assert!(info.contains("version 2.1") && info.contains("© 2026 Ada Designer"), "{info}");
    assert!(text.contains("My Game 2.1 — My Game deck · sheet 1 of 1, front"), "the slug names the version: {text}");
}

#[test]
fn a_missing_include_is_an_error_at_the_statement_with_a_suggestion() {
    let (_dir, cat) = starter();
    std::fs::write(cat.join("templates/frame.svg"), "{% macro frame() %}{% endmacro %}").unwrap();
    edit(&cat, "templates/face.svg", "<circle", "{% from \"templates/frme.svg\" import frame %}<circle");
    let err = invalid(&cat);
    assert!(err.contains("cannot include `templates/frme.svg`: no such file"), "{err}");
    assert!(err.contains("did you mean `templates/frame.svg`?"), "{err}");
    let line = line_of(&cat, "templates/face.svg", "frme.svg");
    assert!(err.contains(&format!("face.svg:{line}:")), "{err}");
}

#[test]
fn an_include_cannot_leave_the_catalogue() {
    let (_dir, cat) = starter();
    edit(&cat, "templates/face.svg", "<circle", "{% include \"../../etc/passwd\" %}<circle");
    let err = invalid(&cat);
    assert!(err.contains("cannot include `../../etc/passwd`: the path must be relative and stay inside the catalogue folder"), "{err}");
}

#[test]
fn an_error_inside_an_included_template_names_both_files() {
    let (_dir, cat) = starter();
    std::fs::write(cat.join("templates/frame.svg"), "{% macro frame() %}\n<text>{{ card.titel }}</text>\n{% endmacro %}").unwrap();
    edit(&cat, "templates/face.svg", "<circle", "{% from \"templates/frame.svg\" import frame %}{{ frame() }}<circle");
    let err = invalid(&cat);
    assert!(err.contains("undefined value `card.titel`"), "{err}");
    assert!(err.contains("frame.svg:2:"), "points into the included file: {err}");
    assert!(err.contains("included from") && err.contains("templates/face.svg"), "{err}");
}

#[test]
fn landscape_cards_lie_sideways_in_tabletop_simulator() {
    let (dir, cat) = starter();
    edit(&cat, "game.toml", "width = \"63mm\"\nheight = \"88mm\"", "width = \"88mm\"\nheight = \"63mm\"");
    for file in ["templates/face.svg", "templates/back.svg"] {
        edit(&cat, file, "width=\"63mm\" height=\"88mm\" viewBox=\"0 0 630 880\"", "width=\"88mm\" height=\"63mm\" viewBox=\"0 0 880 630\"");
    }
    let out = dir.path().join("out");
    let run = deckpress(&["export", "tts", cat.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json = std::fs::read_to_string(out.join("game/tts/game.json")).unwrap();
    assert!(json.contains("\"SidewaysCard\": true") || json.contains("\"SidewaysCard\":true"), "{json}");
    assert!(!json.contains("\"SidewaysCard\": false") && !json.contains("\"SidewaysCard\":false"));
}
