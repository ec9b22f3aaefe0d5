//! Label and sticker sheets as data: a deck on a named label product puts every label
//! where the maker's template says (read from the PDF's clip paths to 0.1 mm), as many
//! sheets as it takes; unknown products and sheets that do not fit are errors.

use crate::common::*;

/// The starter game with a deck of `n` labels on `labels`, each label's art one full
/// rectangle of a colour of its own.
fn game_with_labels(labels: &str, n: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    let mut rows = String::from("id,qty,title\n");
    for i in 1..=n {
        rows.push_str(&format!("label-{i},1,Label {i}\n"));
    }
    std::fs::write(cat.join("labels.csv"), rows).unwrap();
    std::fs::write(
        cat.join("templates/label.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{{ deck.width }}mm\" height=\"{{ deck.height }}mm\" viewBox=\"0 0 {{ deck.width }} {{ deck.height }}\"><rect x=\"-5\" y=\"-5\" width=\"{{ deck.width + 10 }}\" height=\"{{ deck.height + 10 }}\" fill=\"#123456\"/><text x=\"3\" y=\"12\" font-size=\"6\" fill=\"#ffffff\" font-family=\"Noto Sans\">{{ card.title }}</text></svg>",
    )
    .unwrap();
    edit(&cat, "game.toml", "# Anything you like", &format!("[[deck]]\nid = \"labels\"\nrows = \"labels.csv\"\nface = \"templates/label.svg\"\nfields = [\"title\"]\nlabels = {labels}\n\n# Anything you like"));
    edit(&cat, "game.toml", "each = \"suit\"", "deck = \"cards\"\neach = \"suit\"");
    (dir, cat)
}

/// The clip paths of a page, as (x, y, width, height) in millimetres from the top left.
fn clips(pdf: &std::path::Path, page: usize) -> Vec<(f64, f64, f64, f64)> {
    let mm = |pt: f64| pt * 25.4 / 72.0;
    drawn_paths(pdf, page)
        .into_iter()
        .filter(|p| p.kind == "clip")
        .map(|p| {
            let points: Vec<(f64, f64)> = p.subpaths.into_iter().flatten().collect();
            let (x0, x1) =
                points.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
            let (y0, y1) =
                points.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
            (mm(x0), mm(y0), mm(x1 - x0), mm(y1 - y0))
        })
        .filter(|c| c.2 < 200.0) // not a whole-page clip
        .fold(Vec::new(), |mut all: Vec<(f64, f64, f64, f64)>, c| {
            // The label's clip and its art's box clip are the same rectangle: count it once.
            let same =
                |a: &(f64, f64, f64, f64)| (a.0 - c.0).abs() < 0.01 && (a.1 - c.1).abs() < 0.01;
            if !all.last().is_some_and(same) {
                all.push(c);
            }
            all
        })
}

#[test]
fn avery_l7160_labels_lie_where_the_template_says() {
    let (_g, cat) = game_with_labels("\"avery-l7160\"", 25);
    let (out, run) = build(&cat, &["--only", "labels"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("game/game-labels-a4.pdf");
    assert_eq!(pages(&pdf), 2, "21 labels a sheet: 25 take two");
    let first = clips(&pdf, 1);
    assert_eq!(first.len(), 21, "{first:?}");
    // Avery L7160: 63.5 × 38.1 mm, the first at 7.2, 15.15 mm, 66.0 mm across, 38.1 down.
    for (i, (x, y, w, h)) in first.iter().enumerate() {
        let (col, row) = ((i % 3) as f64, (i / 3) as f64);
        let (ex, ey) = (7.2 + col * 66.0, 15.15 + row * 38.1);
        assert!(
            (x - ex).abs() < 0.1 && (y - ey).abs() < 0.1,
            "label {i} at {x:.2}, {y:.2}, not {ex}, {ey}"
        );
        assert!((w - 63.5).abs() < 0.1 && (h - 38.1).abs() < 0.1, "label {i} is {w:.2} × {h:.2}");
    }
    assert_eq!(clips(&pdf, 2).len(), 4);
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("Label 1") && text.contains("Label 21"), "{text}");
    assert!(!text.contains("print at 100"), "no slug or crop marks on labels");
}

#[test]
fn a_custom_round_sheet_and_its_cut_file() {
    let (_g, cat) = game_with_labels("{ paper = \"letter\", shape = \"round\", width = \"1.5in\", height = \"1.5in\", columns = 4, rows = 5, left = \"0.75in\", top = \"0.75in\", across = \"1.875in\", down = \"1.875in\" }", 6);
    let (out, run) = build(&cat, &["--only", "labels", "--cut", "svg"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("game/game-labels-letter.pdf");
    let found = clips(&pdf, 1);
    assert_eq!(found.len(), 6);
    let (x, y, w, h) = found[5];
    // The sixth: second row, second column.
    assert!(
        (x - (0.75 + 1.875) * 25.4).abs() < 0.1 && (y - (0.75 + 1.875) * 25.4).abs() < 0.1,
        "{x} {y}"
    );
    assert!((w - 38.1).abs() < 0.1 && (h - 38.1).abs() < 0.1);
    let cut =
        std::fs::read_to_string(out.path().join("game/game-labels-letter-cut-1.svg")).unwrap();
    assert_eq!(cut.matches("<circle").count() + cut.matches("<ellipse").count(), 6, "{cut}");
}

#[test]
fn unknown_products_and_sheets_that_do_not_fit_are_errors_at_the_line() {
    let (_g, cat) = game_with_labels("\"avery-l7161\"", 3);
    let err = invalid(&cat);
    assert!(err.contains("no label sheet `avery-l7161`") && err.contains("`avery-l7160`"), "{err}");
    let line = line_of(&cat, "game.toml", "labels = ");
    assert!(err.contains(&format!("game.toml:{line}:")), "{err}");
    let (_g, cat) = game_with_labels("{ paper = \"a4\", width = \"70mm\", height = \"40mm\", columns = 3, rows = 7, left = \"5mm\", top = \"10mm\", across = \"72mm\", down = \"40mm\" }", 3);
    let err = invalid(&cat);
    assert!(err.contains("the labels run off the a4 sheet"), "{err}");
}

#[test]
fn a_print_service_leaves_label_sheets_out_and_says_so() {
    let (_g, cat) = game_with_labels("\"avery-5160\"", 3);
    let (out, run) = build(&cat, &["--for", "pdf-cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        stdout(&run)
            .contains("deck `labels` is printed on labels: left out of the files for a print shop"),
        "{}",
        stdout(&run)
    );
    assert!(out.path().join("game/game-cards-pdf-cards.pdf").is_file());
    assert!(!out.path().join("game/game-labels-pdf-cards.pdf").exists());
}
