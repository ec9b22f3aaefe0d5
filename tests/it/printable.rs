//! No art is lost inside the cut on any paper (issue 22): on home sheets every card's cut
//! lines, and some of its bleed, lie inside the part of the page home printers print (5 mm
//! in from every edge). Read from the PDFs' boxes: the BleedBox (what is printed past the
//! cut, clipped to the printable area) must reach past the TrimBox (the cards' outer cut
//! lines) on every side, and stay 5 mm from the paper's edge.

use std::path::Path;

use crate::common::*;

/// (name, width, height in mm) of the common card sizes.
const SIZES: [(&str, f32, f32); 7] = [
    ("poker", 63.5, 88.9),
    ("bridge", 57.15, 88.9),
    ("tarot", 69.85, 120.65),
    ("mini", 44.45, 63.5),
    ("square", 88.9, 88.9),
    ("games' own 63 × 88", 63.0, 88.0),
    ("large 88 × 126", 88.0, 126.0),
];

const MM: f32 = 72.0 / 25.4;

/// Every page's (media, trim, bleed) boxes, in points, as pdfinfo reads them.
fn boxes(pdf: &Path) -> Vec<([f32; 4], [f32; 4], [f32; 4])> {
    let info = poppler("pdfinfo", &["-box", "-f", "1", "-l", "9999", pdf.to_str().unwrap()]);
    let read = |line: &str| -> [f32; 4] {
        let v: Vec<f32> = line.split_whitespace().skip(3).filter_map(|w| w.parse().ok()).collect();
        [v[0], v[1], v[2], v[3]]
    };
    let find = |page: usize, name: &str| {
        info.lines().find(|l| l.starts_with(&format!("Page {page:>4} {name}"))).map(read)
    };
    (1..)
        .map_while(|p| Some((find(p, "MediaBox")?, find(p, "TrimBox")?, find(p, "BleedBox")?)))
        .collect()
}

fn check(pdf: &Path, what: &str) {
    let pages = boxes(pdf);
    assert!(!pages.is_empty(), "{what}: no pages read from {}", pdf.display());
    for (i, (media, trim, bleed)) in pages.iter().enumerate() {
        let page = i + 1;
        // Past the cut on every side: left, bottom (smaller), right, top (larger).
        let past = [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]];
        assert!(past.iter().all(|&p| p >= 0.09 * MM), "{what}, page {page}: the printed bleed {bleed:?} does not reach past the cut {trim:?} on every side ({past:?} pt)");
        let inside =
            [bleed[0] - media[0], bleed[1] - media[1], media[2] - bleed[2], media[3] - bleed[3]];
        assert!(
            inside.iter().all(|&d| d >= 5.0 * MM - 0.01),
            "{what}, page {page}: art printed within 5 mm of the edge: {bleed:?} on {media:?}"
        );
    }
}

#[test]
fn every_card_size_keeps_its_cut_and_some_bleed_inside_the_printable_area() {
    for (name, width, height) in SIZES {
        let (guard, cat) = new_game();
        edit(
            &cat,
            "game.toml",
            "width = \"63mm\"\nheight = \"88mm\"",
            &format!("width = \"{width}mm\"\nheight = \"{height}mm\""),
        );
        // Art to the edge of the bleed, in the card's proportions.
        for side in ["face", "back"] {
            let svg = format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" viewBox="0 0 {width} {height}"><rect x="-3" y="-3" width="{}" height="{}" fill="#3f51b5"/></svg>"##,
                width + 6.0,
                height + 6.0
            );
            std::fs::write(cat.join(format!("templates/{side}.svg")), svg).unwrap();
        }
        let out = guard.path().join("out");
        for duplex in ["long", "short"] {
            let run = deckpress(
                &[
                    "build",
                    cat.to_str().unwrap(),
                    "--paper",
                    "a4,letter",
                    "--duplex",
                    duplex,
                    "--out",
                    out.to_str().unwrap(),
                ],
                guard.path(),
            );
            assert_eq!(run.status.code(), Some(0), "{name}: {}", stderr(&run));
            for paper in ["a4", "letter"] {
                check(
                    &out.join(format!("game/game-cards-{paper}.pdf")),
                    &format!("{name} on {paper}, {duplex}-edge"),
                );
            }
        }
    }
}

#[test]
fn every_built_in_deck_keeps_its_cut_and_some_bleed_inside_the_printable_area() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["build", "--all", "--paper", "a4,letter", "--out", out.path().to_str().unwrap()],
        out.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let mut checked = 0;
    for line in stdout(&run).lines().filter(|l| l.ends_with(".pdf")) {
        let pdf = Path::new(line);
        let info = poppler("pdfinfo", &["-box", pdf.to_str().unwrap()]);
        // Home sheets of pieces (their pages have a printable area); boards, pads and mats
        // are drawn to the page their template makes.
        let trim_is_page = info
            .lines()
            .find(|l| l.starts_with("TrimBox"))
            .map(|t| t.split_whitespace().skip(1).collect::<Vec<_>>())
            == info
                .lines()
                .find(|l| l.starts_with("MediaBox"))
                .map(|m| m.split_whitespace().skip(1).collect::<Vec<_>>());
        let home_paper = line.ends_with("-a4.pdf") || line.ends_with("-letter.pdf");
        if trim_is_page || line.contains("tiled") || !home_paper {
            continue;
        }
        check(pdf, line);
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} deck PDFs checked");
}
