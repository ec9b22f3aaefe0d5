//! Text that fits (issue: "Validate sees everything, and nothing prints wrong in silence"):
//! `textbox()` wraps and shrinks free text with the real fonts, rich text prints bold and
//! italic faces without its markers, and text that cannot fit or runs off its card is a
//! warning naming the card and the template line (an error under --strict).

use std::path::Path;

use crate::common::*;

/// A starter game (`deckpress new`) whose face prints `text` in a 51 × `height` mm box at
/// (6, 69) mm.
fn game_with_box(text: &str, height: u32) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    edit(&cat, "game.toml", "[fields.title]", "[fields.rules]\nkind = \"text\"\n\n[fields.title]");
    let csv = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    let mut out = String::new();
    for (i, line) in csv.lines().enumerate() {
        out.push_str(line);
        out.push_str(if i == 0 { ",rules\n" } else { "" });
        if i > 0 {
            out.push_str(&format!(",\"{text}\"\n"));
        }
    }
    std::fs::write(cat.join("cards.csv"), out).unwrap();
    let suit_line = r#"<text x="315" y="730" font-size="36" text-anchor="middle" fill="{{ style.ink }}">{{ card.suit }}</text>"#;
    edit(
        &cat,
        "templates/face.svg",
        suit_line,
        &format!(
            r#"{{{{ textbox(card.rules, x=60, y=690, width=510, height={}, size=40, min_size=20, align="center", fill=style.ink) }}}}"#,
            height * 10
        ),
    );
    (dir, cat)
}

/// Words of the first page with their boxes in points: (word, x_min, y_min, x_max, y_max).
fn words(pdf: &Path) -> Vec<(String, f64, f64, f64, f64)> {
    crate::common::word_boxes(pdf, Some(1))
}

const MM: f64 = 72.0 / 25.4;

#[test]
fn long_rules_text_wraps_and_shrinks_inside_its_box() {
    let rules = "Gain two coins. Trash a card from your hand. Then draw two cards and discard one of them; if it is a Moon card, gain another coin.";
    let (_dir, cat) = game_with_box(rules, 14);
    let (out, run) = build(&cat, &["--strict"]);
    assert_eq!(run.status.code(), Some(0), "fits without a warning: {}", stderr(&run));
    let pdf = out.path().join("game/game-cards-a4.pdf");
    // The first card sits at the top-left slot; find its box from its words.
    let all = words(&pdf);
    let first_card: Vec<_> = all.iter().filter(|w| w.1 < 80.0 * MM && w.2 < 100.0 * MM).collect();
    for word in ["Gain", "Trash", "discard", "coin."] {
        assert!(first_card.iter().any(|w| w.0 == word), "{word} printed: {all:?}");
    }
    // Every word of the rules lies within the box's 51 mm width and 14 mm height.
    let rules_words: Vec<_> = first_card
        .iter()
        .filter(|w| rules.split_whitespace().any(|r| r == w.0))
        .filter(|w| w.0 != "Moon")
        .collect();
    let (x0, x1) = (
        rules_words.iter().map(|w| w.1).fold(f64::MAX, f64::min),
        rules_words.iter().map(|w| w.3).fold(0.0, f64::max),
    );
    let (y0, y1) = (
        rules_words.iter().map(|w| w.2).fold(f64::MAX, f64::min),
        rules_words.iter().map(|w| w.4).fold(0.0, f64::max),
    );
    assert!(x1 - x0 <= 51.0 * MM + 0.5, "width {} mm", (x1 - x0) / MM);
    // pdftotext's word boxes span the font's whole ascent (1.07 em for Noto Sans, above
    // the ink of capitals at 0.71 em): up to 1 mm more than the ink at these sizes.
    assert!(y1 - y0 <= 15.0 * MM, "height {} mm", (y1 - y0) / MM);
    assert!(y1 - y0 > 7.0 * MM, "wrapped onto several lines: {} mm", (y1 - y0) / MM);
}

#[test]
fn rich_text_prints_bold_and_italic_faces_without_its_markers() {
    let (_dir, cat) = game_with_box("Gain 2. **Trash** a card. *Draw* one.", 14);
    let (out, run) = build(&cat, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("game/game-cards-a4.pdf");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("Trash a card"), "{text}");
    assert!(!text.contains('*'), "{text}");
    let fonts = poppler("pdffonts", &[pdf.to_str().unwrap()]);
    assert!(fonts.contains("NotoSans-Bold") && fonts.contains("NotoSans-Italic"), "{fonts}");
}

#[test]
fn text_that_cannot_fit_warns_with_the_card_and_fails_under_strict() {
    let rules = "This text is far too long for a box that is only four millimetres high, even at the smallest size the designer allows.";
    let (_dir, cat) = game_with_box(rules, 4);
    let run = deckpress(&["validate", cat.to_str().unwrap()], cat.parent().unwrap());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "a warning: {err}");
    assert!(err.contains("warning: the text does not fit its box even at size 20"), "{err}");
    assert!(err.contains("card `sun-1`"), "{err}");
    let line = line_of(&cat, "templates/face.svg", "textbox(");
    assert!(err.contains(&format!("face.svg:{line}:")), "{err}");
    let strict = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], cat.parent().unwrap());
    assert_eq!(strict.status.code(), Some(1));
}

#[test]
fn an_unclosed_bold_marker_is_an_error() {
    let (_dir, cat) = game_with_box("Gain 2. **Trash a card.", 14);
    let err = invalid(&cat);
    assert!(err.contains("a `**` opens bold text that is never closed"), "{err}");
}

#[test]
fn a_title_that_runs_off_the_card_warns_at_its_template_line() {
    let (dir, cat) = new_game();
    edit(
        &cat,
        "cards.csv",
        "sun-1,1,Sun,1,Dawn",
        "sun-1,1,Sun,1,The Very Long Dawn Of The Seventh Sun Over The Eastern Hills",
    );
    let run = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    let err = stderr(&run);
    assert!(
        err.contains("warning: text \"The Very Long Dawn Of The Seventh Sun Ov…\" runs"),
        "{err}"
    );
    assert!(err.contains("mm off the card"), "{err}");
    let line = line_of(&cat, "templates/face.svg", "{{ card.title }}");
    assert!(err.contains(&format!("face.svg:{line}:")), "{err}");
    assert_eq!(
        deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path()).status.code(),
        Some(1)
    );
}

#[test]
fn every_built_in_game_builds_under_strict() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "build",
            "--all",
            "--strict",
            "--paper",
            "a4,letter",
            "--out",
            out.path().to_str().unwrap(),
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(!stderr(&run).contains("warning"), "{}", stderr(&run));
}

#[test]
fn a_symbol_from_a_fallback_font_next_to_a_ligature_is_found_and_its_weight_named() {
    // "fi" is one glyph in Noto Sans and two in the symbol font: the fallback used to give
    // up on the whole line and report ★ as missing ("Gain ★ now." always worked).
    let (dir, cat) = new_game();
    edit(&cat, "cards.csv", "sun-1,1,Sun,1,Dawn", "sun-1,1,Sun,1,Gain ★ first.");
    edit(&cat, "cards.csv", "sun-2,1,Sun,2,Noon", "sun-2,1,Sun,2,Schiff ★ fliegt");
    let run = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(!err.contains("no font has"), "{err}");
    // The title is bold and no bold face has ★: said, not silent.
    assert!(err.contains("`★` (U+2605) has no bold face: it prints in the regular weight from `Noto Sans Symbols2`"), "{err}");
    let (out, built) = build(&cat, &[]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let pdf = out.path().join("game/game-cards-a4.pdf");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("Gain ★ first.") && text.contains("Schiff ★ fliegt"), "{text}");
    let fonts = poppler("pdffonts", &[pdf.to_str().unwrap()]);
    assert!(
        fonts.contains("NotoSansSymbols2-Regular") && fonts.contains("NotoSans-Bold"),
        "{fonts}"
    );
}
