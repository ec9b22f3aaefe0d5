//! What designers expect of templates and metadata (issue: "Cards as designers write
//! them"): shared frames through include/import, errors that name both files, game
//! metadata in templates and PDFs, landscape cards sideways in Tabletop Simulator.

use crate::common::*;

fn starter() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    (dir, cat)
}

#[test]
fn a_shared_frame_is_imported_and_drawn_on_every_card() {
    let (dir, cat) = starter();
    std::fs::write(cat.join("templates/frame.svg"), "{% macro frame(colour) %}<text x=\"315\" y=\"845\" font-size=\"20\" text-anchor=\"middle\" fill=\"{{ colour }}\">SHARED FRAME {{ game.version }}</text>{% endmacro %}").unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "{% from \"templates/frame.svg\" import frame %}{{ frame(style.ink) }}<circle",
    );
    edit(&cat, "game.toml", "players = { min = 2, max = 4 }", "players = { min = 2, max = 4 }\nversion = \"2.1\"\nauthor = \"Ada Designer\"\ncopyright = \"Ada Designer\"\nyear = 2026");
    let out = dir.path().join("out");
    let run =
        deckpress(&["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.join("game/game-cards-a4.pdf");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert_eq!(text.matches("SHARED FRAME 2.1").count(), 8, "{text}");
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("Author:          Ada Designer"), "{info}");
    assert!(info.contains("version 2.1") && info.contains("© 2026 Ada Designer"), "{info}");
    assert!(
        text.contains("My Game 2.1 — My Game deck\n") && text.contains("sheet 1 of 1, front"),
        "the slug names the version and the sheet: {text}"
    );
}

#[test]
fn a_missing_include_is_an_error_at_the_statement_with_a_suggestion() {
    let (_dir, cat) = starter();
    std::fs::write(cat.join("templates/frame.svg"), "{% macro frame() %}{% endmacro %}").unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "{% from \"templates/frme.svg\" import frame %}<circle",
    );
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
    std::fs::write(
        cat.join("templates/frame.svg"),
        "{% macro frame() %}\n<text>{{ card.titel }}</text>\n{% endmacro %}",
    )
    .unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "{% from \"templates/frame.svg\" import frame %}{{ frame() }}<circle",
    );
    let err = invalid(&cat);
    assert!(err.contains("undefined value `card.titel`"), "{err}");
    assert!(err.contains("frame.svg:2:"), "points into the included file: {err}");
    assert!(err.contains("included from") && err.contains("templates/face.svg"), "{err}");
}

#[test]
fn landscape_cards_lie_sideways_in_tabletop_simulator() {
    let (dir, cat) = starter();
    edit(
        &cat,
        "game.toml",
        "width = \"63mm\"\nheight = \"88mm\"",
        "width = \"88mm\"\nheight = \"63mm\"",
    );
    for file in ["templates/face.svg", "templates/back.svg"] {
        edit(
            &cat,
            file,
            "width=\"63mm\" height=\"88mm\" viewBox=\"0 0 630 880\"",
            "width=\"88mm\" height=\"63mm\" viewBox=\"0 0 880 630\"",
        );
    }
    let out = dir.path().join("out");
    let run = deckpress(
        &["export", "tts", cat.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json = std::fs::read_to_string(out.join("game/tts/game.json")).unwrap();
    assert!(
        json.contains("\"SidewaysCard\": true") || json.contains("\"SidewaysCard\":true"),
        "{json}"
    );
    assert!(!json.contains("\"SidewaysCard\": false") && !json.contains("\"SidewaysCard\":false"));
}

/// A starter whose cards carry rules text with a `{coin}` icon, printed by `textbox`.
fn game_with_icon(rules: &str, template_text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = starter();
    write_flat_png(&cat.join("art/coin.png"), 100, 100, [230, 20, 20]);
    edit(&cat, "game.toml", "# Anything you like", "[icons]\ncoin = \"art/coin.png\"\n\n[fields.rules]\nkind = \"text\"\n\n# Anything you like");
    let csv = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    let out: Vec<String> = csv
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 0 { format!("{l},rules") } else { format!("{l},\"{rules}\"") })
        .collect();
    std::fs::write(cat.join("cards.csv"), out.join("\n") + "\n").unwrap();
    let suit_line = r#"<text x="315" y="730" font-size="36" text-anchor="middle" fill="{{ style.ink }}">{{ card.suit }}</text>"#;
    edit(&cat, "templates/face.svg", suit_line, template_text);
    (dir, cat)
}

const RULES_BOX: &str = r#"{{ textbox(card.rules, x=60, y=680, width=510, height=150, size=40, min_size=24, align="center", fill=style.ink) }}"#;

#[test]
fn an_icon_sits_on_the_text_line_between_its_words() {
    let (dir, cat) = game_with_icon("Gain 2 {coin} now. **Trash** a card.", RULES_BOX);
    let out = dir.path().join("out");
    let run = deckpress(
        &["build", cat.to_str().unwrap(), "--strict", "--out", out.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.join("game/game-cards-a4.pdf");
    assert!(
        words_of(&pdf, Some(1)).contains("Gain 2 now. Trash a card."),
        "{}",
        words_of(&pdf, Some(1))
    );
    // One image object for the 8 cards' icons.
    let images = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    let ids: std::collections::BTreeSet<&str> =
        images.lines().skip(2).filter_map(|l| l.split_whitespace().nth(10)).collect();
    assert_eq!(ids.len(), 1, "{images}");
    // On the rendered page, the first card's red icon lies between "2" and "now." and
    // within the line's height.
    // The first card's words: those after its first "Gain".
    let words = crate::common::word_boxes(&pdf, Some(1));
    let first_card: Vec<_> = words.iter().skip_while(|(w, ..)| w != "Gain").collect();
    let word = |w: &str| -> (f64, f64, f64, f64) {
        let &(_, x0, y0, x1, y1) = first_card
            .iter()
            .find(|(word, ..)| word == w)
            .unwrap_or_else(|| panic!("{w} in {words:?}"));
        (*x0, *y0, *x1, *y1)
    };
    let (two, now) = (word("2"), word("now."));
    let page = poppler_pages(&pdf, 144, &["-singlefile", "-f", "1", "-l", "1"]).remove(0);
    let scale = 144.0 / 72.0;
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, 0.0f64, 0.0f64);
    for y in (two.1 * scale) as u32 - 20..(two.3 * scale) as u32 + 20 {
        for x in (two.0 * scale) as u32..(now.2 * scale) as u32 {
            let p = page.pixel(x, y).unwrap();
            if p.red() > 200 && p.green() < 60 && p.blue() < 60 {
                (x0, y0, x1, y1) =
                    (x0.min(x as f64), y0.min(y as f64), x1.max(x as f64), y1.max(y as f64));
            }
        }
    }
    assert!(x1 > 0.0, "the icon is drawn");
    let (x0, y0, x1, y1) = (x0 / scale, y0 / scale, x1 / scale, y1 / scale);
    assert!(
        x0 > two.2 && x1 < now.0,
        "between the words: icon {x0}..{x1}, words end {} start {}",
        two.2,
        now.0
    );
    assert!(
        y0 >= two.1 - 1.0 && y1 <= two.3 + 1.0,
        "on the line: icon {y0}..{y1}, line {}..{}",
        two.1,
        two.3
    );
}

#[test]
fn an_unknown_icon_is_an_error_at_its_csv_cell() {
    let (_dir, cat) = game_with_icon("Gain 2 {cion}.", RULES_BOX);
    let err = invalid(&cat);
    assert!(err.contains("unknown icon `{cion}`"), "{err}");
    assert!(err.contains("icons: `coin`"), "{err}");
    assert!(err.contains("cards.csv:2:"), "{err}");
}

#[test]
fn an_icon_printed_without_the_text_box_is_an_error() {
    let (_dir, cat) = game_with_icon(
        "Gain 2 {coin}.",
        r#"<text x="315" y="730" font-size="30" text-anchor="middle">{{ card.rules }}</text>"#,
    );
    let err = invalid(&cat);
    assert!(err.contains("icon `{coin}` is printed as text"), "{err}");
}

#[test]
fn a_deck_read_from_a_workbook_builds_byte_identical_to_its_csv_twin() {
    // TravFuda's markers come from markers.xlsx; markers.csv is its twin.
    let (guard, cat) = copy_catalogue("travfuda");
    let build = |name: &str| {
        let out = guard.path().join(name);
        let run = deckpress(
            &["build", cat.to_str().unwrap(), "--only", "markers", "--out", out.to_str().unwrap()],
            guard.path(),
        );
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        std::fs::read(out.join("travfuda/travfuda-markers-a4.pdf")).unwrap()
    };
    let from_xlsx = build("xlsx");
    edit(
        &cat,
        "game.toml",
        "rows = \"markers.xlsx\"\nsheet = \"markers\"",
        "rows = \"markers.csv\"",
    );
    let from_csv = build("csv");
    assert!(from_xlsx == from_csv, "the two PDFs differ");
}

/// A starter whose cards come from `file` of tests/fixtures (sheet "cards").
fn starter_with_workbook(file: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = starter();
    std::fs::copy(repo().join("tests/fixtures").join(file), cat.join("cards.xlsx")).unwrap();
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.xlsx\"\nsheet = \"cards\"");
    (dir, cat)
}

#[test]
fn a_workbook_reads_like_its_csv_and_names_cells_in_problems() {
    let (dir, cat) = starter_with_workbook("cards.xlsx");
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // A rule broken in the workbook is reported with the cell.
    edit(&cat, "game.toml", "count = 4", "count = 5");
    let err = invalid(&cat);
    assert!(err.contains("each suit has four cards"), "{err}");
    let (_dir2, cat2) = starter_with_workbook("cards.xlsx");
    edit(&cat2, "game.toml", "values = [\"Sun\", \"Moon\"]", "values = [\"Sun\", \"Mond\"]");
    let err = invalid(&cat2);
    assert!(err.contains("unknown suit `Moon`") && err.contains("in cell cards!C5"), "{err}");
}

/// The starter game reading its cards from sheet "market" of tests/fixtures/harbor.xlsx.
fn starter_on_harbor() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = starter();
    std::fs::copy(repo().join("tests/fixtures/harbor.xlsx"), cat.join("harbor.xlsx")).unwrap();
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"harbor.xlsx\"\nsheet = \"market\"");
    edit(&cat, "game.toml", "each = \"suit\"", "deck = \"cards\"\neach = \"suit\"");
    (dir, cat)
}

#[test]
fn every_message_about_a_sheet_names_the_sheet_and_its_rows() {
    // harbor.xlsx: sheet "crew" first (row 4 repeats row 2's id), the cards on sheet
    // "market" in a table at B4: a line break in row 5, `{moon}` in row 7, a fifth Sun
    // with row 6's value in row 11.
    let (_d, cat) = starter_on_harbor();
    edit(&cat, "game.toml", "# Anything you like", "[[deck]]\nid = \"crew\"\nrows = \"harbor.xlsx\"\nsheet = \"crew\"\nface = \"templates/face.svg\"\nback = \"templates/back.svg\"\n\n# Anything you like");
    let err = invalid(&cat);
    let at = |sheet: &str| format!("{}[{sheet}]", cat.join("harbor.xlsx").display());
    // The unknown icon at its cell (column F of row 7), quoted from the market sheet.
    assert!(err.contains("unknown icon `{moon}`"), "{err}");
    assert!(err.contains(&format!("{}:7:6", at("market"))), "{err}");
    assert!(err.contains("in cell market!F7"), "{err}");
    assert!(err.contains("7 │ sun-3,2,Sun,3,Dusk {moon}"), "{err}");
    // The crew's duplicate id, quoted from the crew sheet (not the last sheet read).
    assert!(err.contains("card id `sun-1` is used twice"), "{err}");
    assert!(err.contains(&format!("{}:4:1", at("crew"))), "{err}");
    assert!(err.contains("in cell crew!A4"), "{err}");
    assert!(err.contains("4 │ sun-1,1,Sun,3,Twice"), "{err}");
    assert!(err.contains("it was first used on row 2"), "{err}");

    // With the icon declared, the rules run: their cards are named by the sheet's rows.
    let (_d2, cat) = starter_on_harbor();
    edit(&cat, "game.toml", "[fields.title]", "[icons]\nmoon = \"art/moon.jpg\"\n\n[fields.title]");
    std::fs::create_dir_all(cat.join("art")).unwrap();
    std::fs::copy(repo().join("tests/fixtures/photo.jpg"), cat.join("art/moon.jpg")).unwrap();
    let mut toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    toml.push_str(
        "\n[[rule]]\nname = \"one of each value per suit\"\nunique = [\"suit\", \"value\"]\n",
    );
    std::fs::write(cat.join("game.toml"), toml).unwrap();
    let err = invalid(&cat);
    let at = |sheet: &str| format!("{}[{sheet}]", cat.join("harbor.xlsx").display());
    assert!(err.contains("matching cards: market rows 5, 6, 7, 11"), "{err}");
    assert!(err.contains("rule \"one of each value per suit\" failed"), "{err}");
    assert!(err.contains("the first is on market row 6"), "{err}");
    assert!(err.contains(&format!("{}:11:2", at("market"))), "{err}");
}

#[test]
fn merged_cells_a_date_and_a_missing_sheet_are_named() {
    let (_d1, merged) = starter_with_workbook("merged.xlsx");
    let err = invalid(&merged);
    assert!(err.contains("cells cards!E2 to cards!E3 are merged"), "{err}");
    let (_d2, dated) = starter_with_workbook("dated.xlsx");
    let err = invalid(&dated);
    assert!(err.contains("cards!D5 holds a date or time"), "{err}");
    let (_d4, formula) = starter_with_workbook("formula.xlsx");
    let err = invalid(&formula);
    assert!(err.contains("cards!D3 holds the formula `=1+1` with no saved value"), "{err}");
    let (_d3, wrong) = starter_with_workbook("cards.xlsx");
    edit(&wrong, "game.toml", "sheet = \"cards\"", "sheet = \"market\"");
    let err = invalid(&wrong);
    assert!(err.contains("it has no sheet `market`; its sheets: `cards`"), "{err}");
    assert!(err.contains("game.toml:"), "{err}");
}

#[test]
fn a_windows_1252_csv_and_a_workbook_named_csv_are_recognised() {
    let (_d1, cat) = starter();
    let mut bytes = std::fs::read(cat.join("cards.csv")).unwrap();
    let at = bytes.windows(4).position(|w| w == b"Dusk").unwrap();
    bytes.splice(at..at + 4, b"D\xe9j\xe0".iter().copied());
    std::fs::write(cat.join("cards.csv"), &bytes).unwrap();
    let err = invalid(&cat);
    assert!(err.contains("not UTF-8") && err.contains("Windows-1252"), "{err}");
    assert!(err.contains("line 4, column 16"), "the é of Déjà: {err}");
    let (_d2, cat2) = starter();
    std::fs::copy(repo().join("tests/fixtures/cards.xlsx"), cat2.join("cards.csv")).unwrap();
    let err = invalid(&cat2);
    assert!(err.contains("is a spreadsheet (.xlsx or .ods)"), "{err}");
}
