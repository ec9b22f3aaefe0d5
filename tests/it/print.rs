//! Files for print services (issue: "Print-ready for real"), measured from the output:
//! page and pixel sizes, TrimBox and BleedBox, page order, art reaching the bleed edge.

use std::path::{Path, PathBuf};

use crate::common::*;

const MM: f64 = 72.0 / 25.4;

/// A starter game (`deckpress new`) at a named card size.
fn starter(size: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    edit(&cat, "game.toml", "width = \"63mm\"\nheight = \"88mm\"", &format!("size = \"{size}\""));
    (dir, cat)
}

/// `[x0, y0, x1, y1]` of a box of page `page` in points.
fn page_box(pdf: &Path, page: usize, name: &str) -> Vec<f64> {
    let p = page.to_string();
    let info = poppler("pdfinfo", &["-box", "-f", &p, "-l", &p, pdf.to_str().unwrap()]);
    let line =
        info.lines().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{name} in {info}"));
    line.split_whitespace()
        .rev()
        .take(4)
        .map(|v| v.parse().unwrap())
        .collect::<Vec<f64>>()
        .into_iter()
        .rev()
        .collect()
}

#[test]
fn pdf_cards_have_one_page_per_side_with_the_bleed_around_the_trim() {
    let (_dir, cat) = starter("poker");
    let (out, run) = build(&cat, &["--for", "pdf-cards", "--bleed", "3mm"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("game/game-cards-pdf-cards.pdf");
    assert_eq!(pages(&pdf), 16, "8 cards, front and back");
    let (trim, bleed, media) = (
        page_box(&pdf, 1, "TrimBox"),
        page_box(&pdf, 1, "BleedBox"),
        page_box(&pdf, 1, "MediaBox"),
    );
    // The trim is the poker card (2.5 × 3.5 in), the bleed 3 mm on every side, the page the bleed box.
    assert!(
        ((trim[2] - trim[0]) - 180.0).abs() < 0.05 && ((trim[3] - trim[1]) - 252.0).abs() < 0.05,
        "{trim:?}"
    );
    for side in 0..2 {
        assert!(((trim[side] - bleed[side]) - 3.0 * MM).abs() < 0.05, "{trim:?} {bleed:?}");
        assert!(((bleed[side + 2] - trim[side + 2]) - 3.0 * MM).abs() < 0.05, "{trim:?} {bleed:?}");
    }
    assert_eq!(bleed, media);
    // Front first: page 1 has the card's title, page 2 the game's name on the back.
    let text = |p: &str| poppler("pdftotext", &["-f", p, "-l", p, pdf.to_str().unwrap(), "-"]);
    assert!(text("1").contains("Dawn") && text("2").contains("My Game"));
}

#[test]
fn drivethrucards_gets_back_then_front_at_one_eighth_inch_bleed_with_art_to_the_edge() {
    let (_dir, cat) = starter("poker");
    let (out, run) = build(&cat, &["--for", "drivethrucards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("game/game-cards-drivethrucards.pdf");
    let media = page_box(&pdf, 1, "MediaBox");
    // 2.75 × 3.75 in: the poker card and 1/8 in all round.
    assert!(
        ((media[2] - media[0]) - 198.0).abs() < 0.05
            && ((media[3] - media[1]) - 270.0).abs() < 0.05,
        "{media:?}"
    );
    let text = |p: &str| poppler("pdftotext", &["-f", p, "-l", p, pdf.to_str().unwrap(), "-"]);
    assert!(text("1").contains("My Game") && !text("1").contains("Dawn"), "page 1 is a back");
    assert!(text("2").contains("Dawn"), "page 2 is its front");
    // The back's dark background reaches every edge of the page (the bleed box).
    let page = poppler_pages(&pdf, 100, &["-singlefile", "-f", "1", "-l", "1"]).remove(0);
    for (x, y) in [
        (0, 0),
        (page.width() - 1, 0),
        (0, page.height() - 1),
        (page.width() - 1, page.height() - 1),
        (page.width() / 2, 0),
    ] {
        let p = page.pixel(x, y).unwrap();
        assert!(p.red() < 80 && p.green() < 80, "art at ({x}, {y}), not paper: {p:?}");
    }
}

#[test]
fn png_services_get_300_dpi_pngs_of_the_exact_size_with_quantities() {
    let (_dir, cat) = starter("poker");
    // Each service's own template size for a poker card at 300 dpi: The Game Crafter's
    // 2.75 × 3.75 in, MakePlayingCards' 822 × 1122 px (36 px of bleed, not 37.5).
    for (service, size) in [("gamecrafter", (825, 1125)), ("makeplayingcards", (822, 1122))] {
        let (out, run) = build(&cat, &["--for", service]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let dir = out.path().join(format!("game/game-cards-{service}"));
        let quantities = std::fs::read_to_string(dir.join("quantities.csv")).unwrap();
        assert!(quantities.contains("003-sun-3-front.png,back.png,2"), "{quantities}");
        for file in ["001-sun-1-front.png", "back.png"] {
            let decoder = png::Decoder::new(std::io::BufReader::new(
                std::fs::File::open(dir.join(file)).unwrap(),
            ));
            let reader = decoder.read_info().unwrap();
            let info = reader.info();
            assert_eq!((info.width, info.height), size, "{service} {file}");
            let dims = info.pixel_dims.expect("pHYs");
            assert_eq!((dims.xppu, dims.unit), (11811, png::Unit::Meter), "300 dpi is 11811 px/m");
            assert!(info.srgb.is_some(), "sRGB declared");
        }
    }
}

#[test]
fn a_template_of_other_proportions_is_an_error_not_a_silent_stretch() {
    // A tarot card (70 × 120) with the starter's 63 × 88 templates: 20% off.
    let (_dir, cat) = starter("tarot");
    let err = invalid(&cat);
    assert!(err.contains("% off the piece's 70mm × 120mm"), "{err}");
    // And what would be right: the piece's size, the viewBox as wide with its height.
    assert!(
        err.contains(
            "the piece's proportions (width=\"70mm\" height=\"120mm\" viewBox=\"0 0 630 1080\")"
        ),
        "{err}"
    );
}

#[test]
fn home_sheets_keep_nine_poker_cards_a_page_with_bleed_between_them() {
    for paper in ["a4", "letter"] {
        let (_dir, cat) = starter("poker");
        let (out, run) = build(&cat, &["--paper", paper]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let pdf = out.path().join(format!("game/game-cards-{paper}.pdf"));
        let (trim, bleed) = (page_box(&pdf, 1, "TrimBox"), page_box(&pdf, 1, "BleedBox"));
        let shown = (trim[0] - bleed[0]) / MM;
        // With marks 5 mm from the edge, A4 (210 mm across) has room for a quarter of a
        // millimetre around each poker card; Letter (279 mm tall) for half a millimetre
        // down, with every cut kept out of the 5 mm band printers cannot print.
        let least = if paper == "a4" { 0.2 } else { 0.45 };
        assert!(shown > least, "{paper}: bleed shown {shown} mm");
        let page = page_box(&pdf, 1, "MediaBox");
        assert!(
            trim[1] - page[1] > 5.0 * MM && page[3] - trim[3] > 5.0 * MM,
            "{paper}: a cut within 5 mm of the edge: {trim:?}"
        );
        // Three columns of 2.5 in cards with gutters of twice the bleed.
        assert!(
            ((trim[2] - trim[0]) - (3.0 * 180.0 + 4.0 * shown * MM)).abs() < 0.05,
            "{paper}: {trim:?}"
        );
    }
}

/// (label, x, y) in points of the calibration points' letters on a page.
fn letters(pdf: &Path, page: usize) -> Vec<(String, f64, f64)> {
    crate::common::word_boxes(pdf, Some(page))
        .into_iter()
        .filter(|(word, ..)| word.len() == 1 && "ABCDE".contains(word.as_str()))
        .map(|(word, x, y, ..)| (word, x, y))
        .collect()
}

#[test]
fn calibrate_puts_each_crosshair_behind_its_ruler_cross_for_the_flip() {
    for (duplex, paper) in [("long", "a4"), ("short", "letter")] {
        let out = tempfile::tempdir().unwrap();
        let run = deckpress(
            &[
                "calibrate",
                "--paper",
                paper,
                "--duplex",
                duplex,
                "--out",
                out.path().to_str().unwrap(),
            ],
            &repo(),
        );
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let pdf = out.path().join(format!("calibrate-{paper}-{duplex}.pdf"));
        assert_eq!(pages(&pdf), 2);
        // Each point's letter sits at the same place relative to its ruler cross (front)
        // or crosshair (back) for every point, so differences between points are the
        // differences between crosses: a long-edge flip mirrors them left↔right, a
        // short-edge flip top↔bottom.
        let (front, back) = (letters(&pdf, 1), letters(&pdf, 2));
        assert_eq!(front.len(), 5, "{front:?}");
        let at = |list: &[(String, f64, f64)], l: &str| {
            list.iter().find(|(x, _, _)| x == l).map(|(_, x, y)| (*x, *y)).unwrap()
        };
        let (fc, bc) = (at(&front, "C"), at(&back, "C"));
        for label in ["A", "B", "D", "E"] {
            let (f, b) = (at(&front, label), at(&back, label));
            let (fdx, fdy, bdx, bdy) = (f.0 - fc.0, f.1 - fc.1, b.0 - bc.0, b.1 - bc.1);
            let (ex, ey) = if duplex == "long" { (-fdx, fdy) } else { (fdx, -fdy) };
            assert!(
                (bdx - ex).abs() < 0.5 && (bdy - ey).abs() < 0.5,
                "{duplex} {label}: front {f:?} back {b:?}"
            );
        }
    }
}

/// Pages whose outer 5 mm hold anything but white paper, rendered at 72 dpi.
fn pages_marked_near_the_edge(pdf: &Path) -> Vec<usize> {
    let band = (5.0 * 72.0 / 25.4) as u32; // 14 px, 4.94 mm: a hair inside 5 mm
    let marked = |page: &resvg::tiny_skia::Pixmap, x: u32, y: u32| {
        let p = page.pixel(x, y).unwrap();
        p.red() < 250 || p.green() < 250 || p.blue() < 250
    };
    poppler_pages(pdf, 72, &[])
        .iter()
        .enumerate()
        .filter(|(_, page)| {
            let (w, h) = (page.width(), page.height());
            // The band alone: rows along the top and bottom, columns down the sides.
            let rows = (0..band).chain(h - band..h).any(|y| (0..w).any(|x| marked(page, x, y)));
            rows || (band..h - band)
                .any(|y| (0..band).chain(w - band..w).any(|x| marked(page, x, y)))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn nothing_but_paper_within_5_mm_of_the_edge_of_tiled_boards_and_card_sheets_on_a4_and_letter() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["build", "trumpet", "--paper", "a4,letter", "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    for file in [
        "trumpet-board-tiled-a4.pdf",
        "trumpet-board-tiled-letter.pdf",
        "trumpet-cards-a4.pdf",
        "trumpet-cards-letter.pdf",
        "trumpet-pawns-letter.pdf",
    ] {
        let marked = pages_marked_near_the_edge(&out.path().join("trumpet").join(file));
        assert!(marked.is_empty(), "{file}: pages {marked:?} print within 5 mm of the edge");
    }
}

#[test]
fn gang_prints_decks_that_share_a_back_on_the_same_sheets() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "build",
            "trumpet",
            "--gang",
            "--only",
            "cards,trumps,path,characters,markers",
            "--out",
            out.path().to_str().unwrap(),
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // 69 + 6 + 24 + 12 = 111 cards with one back: 13 sheets of 9 (6 slots empty, not 15).
    let pdf = out.path().join("trumpet/trumpet-cards+trumps+path+characters-a4.pdf");
    assert_eq!(pages(&pdf), 26);
    let text = words_of(&pdf, None);
    for word in ["SUPER", "CHARACTER", "TRUMP"] {
        assert!(text.contains(word), "{word}");
    }
    // The markers have their own size and back: printed alone.
    assert!(out.path().join("trumpet/trumpet-markers-a4.pdf").is_file());
}

#[test]
fn preview_guides_show_the_bleed_with_the_cut_and_safe_lines() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "preview",
            "travfuda",
            "--card",
            "1-cutlass-red",
            "--guides",
            "--dpi",
            "100",
            "--out",
            out.path().to_str().unwrap(),
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let png = resvg::tiny_skia::Pixmap::load_png(
        out.path().join("travfuda/preview/cards/1-cutlass-red.png"),
    )
    .unwrap();
    // 63 × 88 mm and 3 mm of bleed all round at 100 dpi: 272 × 370 px.
    assert_eq!((png.width(), png.height()), (272, 370));
    // The cut line, 3 mm (11.8 px) in, is red; the bleed outside it is the card's paper.
    let at = |x: u32, y: u32| png.pixel(x, y).unwrap();
    let cut = (0..4)
        .map(|dx| at(10 + dx, 185))
        .find(|p| p.red() > 180 && p.green() < 80)
        .expect("a red cut line near x = 12");
    assert!(cut.blue() < 80);
    let bleed = at(3, 185);
    assert!(
        bleed.red() > 200 && bleed.green() > 200,
        "the card's background in the bleed: {bleed:?}"
    );
}

/// A starter game with a 200 × 361 mm board (two tiles on landscape A4: the seam falls at
/// 178 mm unless moved) with one red square from 174 to 204 mm down, its id `id`.
fn game_with_board(id: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(cat.join("game.toml"), toml + "\n[[sheet]]\nid = \"board\"\nname = \"Board\"\ntemplate = \"templates/board.svg\"\nwidth = \"200mm\"\nheight = \"361mm\"\n").unwrap();
    std::fs::write(
        cat.join("templates/board.svg"),
        format!(r##"<svg xmlns="http://www.w3.org/2000/svg" width="200mm" height="361mm" viewBox="0 0 200 361"><rect width="200" height="361" fill="#ffffff"/><rect id="{id}" x="20" y="174" width="30" height="30" fill="#ff0000"/></svg>"##),
    )
    .unwrap();
    (dir, cat)
}

/// Red pixels along the top edge of the second tile's window (10 mm from the page top,
/// where it is cut and laid over the first tile): what the assembled board's seam cuts.
fn red_on_the_seam(cat: &Path) -> usize {
    let (out, run) = build(cat, &["--only", "board"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("game/game-board-tiled-a4.pdf");
    assert_eq!(pages(&pdf), 3, "the map and two tiles: moving the seam costs no page");
    let page = poppler_pages(&pdf, 100, &["-singlefile", "-f", "3", "-l", "3"]).remove(0);
    let y = (10.3 / 25.4 * 100.0) as u32;
    (0..page.width())
        .filter(|&x| {
            let p = page.pixel(x, y).unwrap();
            p.red() > 200 && p.green() < 80 && p.blue() < 80
        })
        .count()
}

#[test]
fn a_tiled_boards_seam_goes_between_the_parts_it_must_not_cut() {
    // Without `no-seam`, the seam at 178 mm cuts through the square...
    let (_d1, plain) = game_with_board("square");
    assert!(red_on_the_seam(&plain) > 50, "the seam cuts the square");
    // ...with it, the seam moves to just before the square, on the same two pages.
    let (_d2, kept) = game_with_board("no-seam-square");
    assert_eq!(red_on_the_seam(&kept), 0, "the seam passes before the square");
}
