//! Label and sticker sheets (`[[sheet]] labels = …`): every label where the maker's
//! template puts it, measured from the PDF; an unknown product is a `validate` error.

use std::path::{Path, PathBuf};

use crate::common::{build, deckpress, drawn_paths, pages, stderr, valid, with_stickers};

const PT_PER_MM: f64 = 72.0 / 25.4;

/// The one file of the build whose name has `part` and ends with `end`.
fn find_file(out: &Path, part: &str, end: &str) -> PathBuf {
    let dir = std::fs::read_dir(out).unwrap().next().unwrap().unwrap().path();
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.contains(part) && name.ends_with(end)
        })
        .unwrap_or_else(|| panic!("no *{part}*{end} in {}", dir.display()))
}

/// Each label's clip as the PDF draws it: (x, y, width, height) in mm from the top-left.
/// The art inside it clips again to its own canvas, the same box: one per label is kept.
fn label_clips(pdf: &Path, page: usize, size_mm: (f64, f64)) -> Vec<(f64, f64, f64, f64)> {
    let mut clips: Vec<(f64, f64, f64, f64)> = drawn_paths(pdf, page)
        .into_iter()
        .filter(|p| p.kind == "clip")
        .map(|p| {
            let pts: Vec<&(f64, f64)> = p.subpaths.iter().flatten().collect();
            let x0 = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min) / PT_PER_MM;
            let x1 = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max) / PT_PER_MM;
            let y0 = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min) / PT_PER_MM;
            let y1 = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max) / PT_PER_MM;
            (x0, y0, x1 - x0, y1 - y0)
        })
        .filter(|c| (c.2 - size_mm.0).abs() < 0.5 && (c.3 - size_mm.1).abs() < 0.5)
        .collect();
    clips.dedup_by(|a, b| (a.0 - b.0).abs() < 0.01 && (a.1 - b.1).abs() < 0.01);
    clips
}

/// Every label of `count` where the maker's template says, on as many pages as needed:
/// `columns` × `rows` a page, first label's corner at `margin`, labels `pitch` apart.
fn check_positions(
    labels: &str,
    count: usize,
    size: (f64, f64),
    grid: (usize, usize),
    margin: (f64, f64),
    pitch: (f64, f64),
    paper: (f64, f64),
) {
    let (_dir, cat) = with_stickers(labels, count as u32);
    let (out, run) = build(&cat, &["--paper", "a4"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = find_file(out.path(), "-stickers-", ".pdf");
    let per_page = grid.0 * grid.1;
    assert_eq!(pages(&pdf), count.div_ceil(per_page));
    let info = crate::common::poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    let size_line = info.lines().find(|l| l.starts_with("Page size:")).unwrap().to_string();
    let nums: Vec<f64> = size_line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    assert!(
        (nums[0] / PT_PER_MM - paper.0).abs() < 0.1 && (nums[1] / PT_PER_MM - paper.1).abs() < 0.1,
        "{size_line}"
    );
    let mut seen = 0;
    for page in 1..=pages(&pdf) {
        let clips = label_clips(&pdf, page, size);
        let on_page = (count - (page - 1) * per_page).min(per_page);
        assert_eq!(clips.len(), on_page, "labels on page {page}");
        for (i, c) in clips.iter().enumerate() {
            let (col, row) = (i % grid.0, i / grid.0);
            let want = (margin.0 + col as f64 * pitch.0, margin.1 + row as f64 * pitch.1);
            assert!(
                (c.0 - want.0).abs() <= 0.1 && (c.1 - want.1).abs() <= 0.1,
                "label {i} of page {page} at {:.2}, {:.2} mm; the template says {:.2}, {:.2}",
                c.0,
                c.1,
                want.0,
                want.1
            );
            assert!((c.2 - size.0).abs() <= 0.1 && (c.3 - size.1).abs() <= 0.1, "{c:?}");
            seen += 1;
        }
    }
    assert_eq!(seen, count);
}

#[test]
fn avery_l7160_labels_sit_where_averys_template_puts_them() {
    // Avery's L7160 template: 63.5 × 38.1 mm, 3 × 7, top 15.15 mm, side 7.21 mm,
    // pitch 66.04 × 38.1 mm. 22 labels: a full sheet and one on the next.
    check_positions(
        "\"avery-l7160\"",
        22,
        (63.5, 38.1),
        (3, 7),
        (7.21, 15.15),
        (66.04, 38.1),
        (210.0, 297.0),
    );
}

#[test]
fn avery_5160_labels_sit_where_averys_template_puts_them() {
    // Avery's 5160 template on US Letter: 2 5/8 × 1 in, 3 × 10, top 0.5 in, side 3/16 in,
    // pitch 2.75 × 1 in.
    let inch = 25.4;
    check_positions(
        "\"avery-5160\"",
        30,
        (2.625 * inch, inch),
        (3, 10),
        (0.1875 * inch, 0.5 * inch),
        (2.75 * inch, inch),
        (8.5 * inch, 11.0 * inch),
    );
}

#[test]
fn avery_5193_round_labels_sit_where_the_template_puts_them() {
    // gLabels' Avery 5193: 1 5/8 in round, 4 × 6, first label at 0.4157, 0.549 in,
    // pitch 2.0145 × 1.6554 in. Each circle's clip is measured by its bounding box.
    let inch = 25.4;
    check_positions(
        "\"avery-5193\"",
        26,
        (1.625 * inch, 1.625 * inch),
        (4, 6),
        (0.4157 * inch, 0.549 * inch),
        (2.0145 * inch, 1.6554 * inch),
        (8.5 * inch, 11.0 * inch),
    );
}

#[test]
fn a_sheet_of_your_own_round_labels() {
    check_positions(
        "{ paper = \"a4\", width = \"30mm\", height = \"30mm\", shape = \"round\", columns = 6, rows = 8, left = \"9mm\", top = \"12mm\", across = \"32mm\", down = \"34mm\" }",
        5,
        (30.0, 30.0),
        (6, 8),
        (9.0, 12.0),
        (32.0, 34.0),
        (210.0, 297.0),
    );
}

#[test]
fn label_outlines_go_to_the_cut_file() {
    let (_dir, cat) = with_stickers("\"avery-l7163\"", 3);
    let (out, run) = build(&cat, &["--cut", "svg"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let svg = std::fs::read_to_string(find_file(out.path(), "-stickers-a4-cut-1", ".svg")).unwrap();
    // Three rounded 99.1 × 38.1 mm outlines, the first at 4.65, 15.15 mm.
    assert_eq!(svg.matches("width=\"99.1\" height=\"38.1\"").count(), 3, "{svg}");
    assert!(svg.contains("<rect x=\"4.65\" y=\"15.15\""), "{svg}");
    // Avery's labels reach within 15.15 mm of the top and 4.65 mm of the sides: marks
    // 10 mm in would print on them, so there are none, and the build says so.
    assert!(!svg.contains("stroke=\"none\">\n<rect"), "marks over the labels: {svg}");
    assert!(stderr(&run).contains("leave no room for registration marks"), "{}", stderr(&run));
}

#[test]
fn a_label_sheet_with_room_for_them_prints_registration_marks_in_its_cut_file() {
    // Round stickers laid out 30 mm from every edge.
    let custom = r#"{ paper = "a4", width = "40mm", height = "40mm", shape = "round", columns = 3, rows = 4, left = "30mm", top = "30mm", across = "50mm", down = "50mm" }"#;
    let (_dir, cat) = with_stickers(custom, 3);
    let (out, run) = build(&cat, &["--cut", "svg"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(!stderr(&run).contains("registration"), "{}", stderr(&run));
    let svg = std::fs::read_to_string(find_file(out.path(), "-stickers-a4-cut-1", ".svg")).unwrap();
    let marks = &svg[svg.find("<g id=\"registration\"").unwrap()..];
    let marks = &marks[..marks.find("</g>").unwrap()];
    assert_eq!(marks.matches("<rect").count(), 5, "the square and two Ls: {svg}");
    assert!(marks.contains(r#"<rect x="10" y="10" width="5" height="5"/>"#), "{marks}");
    assert_eq!(svg.matches("<circle").count(), 3, "the three stickers' outlines: {svg}");
}

#[test]
fn an_unknown_label_product_is_a_validate_error_listing_the_known_ones() {
    let (_dir, cat) = with_stickers("\"avery-l9999\"", 3);
    let run = deckpress(&["validate", cat.to_str().unwrap()], &cat);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    let line = crate::common::line_of(&cat, "game.toml", "avery-l9999");
    assert!(err.contains("unknown label sheet `avery-l9999`"), "{err}");
    assert!(err.contains(&format!("game.toml:{line}:")), "{err}");
    for known in
        ["avery-l7160", "avery-l7163", "avery-l7651", "avery-l3415", "avery-5160", "avery-5163"]
    {
        assert!(err.contains(&format!("`{known}`")), "{known} missing: {err}");
    }
}

#[test]
fn a_label_template_with_a_viewbox_alone_is_measured_at_the_labels_size() {
    // A viewBox in millimetres and no width or height, as docs/catalogue.md's box faces
    // are written: 6 mm text is 17 pt on the label. It was measured in the viewBox's units
    // as pixels (4.5 pt) and wrongly said too small; 1.5 mm text (4.3 pt) is too small.
    let (_dir, cat) = with_stickers("\"avery-l7160\"", 3);
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 63.5 38.1" font-family="Noto Sans"><rect width="63.5" height="38.1" fill="#3f51b5"/><text x="4" y="12" font-size="6" fill="#ffffff">{{ card.title }}</text><text x="4" y="30" font-size="1.5" fill="#ffffff">Small print</text></svg>"##;
    std::fs::write(cat.join("templates/sticker.svg"), svg).unwrap();
    let err = valid(&cat);
    assert!(!err.contains("text \"Hello\" prints at"), "{err}");
    assert!(
        err.contains("text \"Small print\" prints at 4.3 pt, smaller than the 6 pt a player reads"),
        "{err}"
    );
}

#[test]
fn a_rule_without_a_deck_counts_the_decks_cards_not_the_stickers() {
    // The starter deck has 8 cards; the sheet adds 3 stickers. A rule with no `deck =`
    // counts the cards of the decks (docs/catalogue.md): adding a sticker sheet does not
    // change what it counts (issue 42: it said "found 11").
    let (_dir, cat) = with_stickers("\"avery-l7160\"", 3);
    let manifest = cat.join("game.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n[[rule]]\nname = \"eight cards\"\ncount = 8\n"))
        .unwrap();
    valid(&cat);
    // Named, the sheet is counted.
    std::fs::write(
        &manifest,
        format!("{text}\n[[rule]]\nname = \"three stickers\"\ndeck = \"stickers\"\ncount = 3\n"),
    )
    .unwrap();
    valid(&cat);
}

/// A round sticker of your own sheet, 30 mm across, drawing `text` in `ink` at `x`, `y`
/// (mm) on a blue disc.
fn round_sticker(text: &str, ink: &str, (x, y): (f32, f32)) -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = with_stickers("{ paper = \"a4\", width = \"30mm\", height = \"30mm\", shape = \"round\", columns = 6, rows = 8, left = \"9mm\", top = \"12mm\", across = \"32mm\", down = \"34mm\" }", 2);
    let svg = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"30mm\" height=\"30mm\" viewBox=\"0 0 30 30\" font-family=\"Noto Sans\">\n<circle cx=\"15\" cy=\"15\" r=\"15\" fill=\"#3f51b5\"/>\n<text x=\"{x}\" y=\"{y}\" font-size=\"4\" fill=\"{ink}\">{text}</text>\n</svg>\n");
    std::fs::write(cat.join("templates/sticker.svg"), svg).unwrap();
    (dir, cat)
}

/// Text in a round sticker's corner lies inside its square but off its circle: it is cut
/// off, and `--strict` fails naming the sticker and the template's line; the same text
/// at the middle passes.
#[test]
fn text_cut_off_by_a_round_stickers_edge_fails_strict_at_its_line() {
    let (dir, cat) = round_sticker("Corner", "#ffffff", (2.0, 6.0));
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("text \"Corner\" runs"), "{err}");
    assert!(err.contains("mm off the card (past its round edge)"), "{err}");
    assert!(err.contains("templates/sticker.svg:3:"), "{err}");
    assert!(err.contains("card `sticker` of deck `stickers`"), "{err}");
    let (dir, cat) = round_sticker("Middle", "#ffffff", (8.0, 16.0));
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

/// The contrast check reads stickers as it reads cards: blue text on the blue disc fails
/// `--strict` with its measured ratio.
#[test]
fn faint_text_on_a_sticker_fails_like_on_a_card() {
    let (dir, cat) = round_sticker("Faint", "#5060c0", (8.0, 16.0));
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("text \"Faint\" has a contrast of 1.2:1"), "{err}");
}
