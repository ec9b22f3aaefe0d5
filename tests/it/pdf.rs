//! The built TravFuda PDF, checked the way a user would: with poppler's tools.

use crate::common::*;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const MM: f64 = 72.0 / 25.4;

fn build_travfuda(args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let (out, printed) = build_game("travfuda", args);
    let paper = if args.contains(&"letter") { "letter" } else { "a4" };
    let pdf = out.path().join(format!("travfuda/travfuda-cards-{paper}.pdf"));
    assert!(printed.contains(pdf.to_str().unwrap()), "the build prints what it wrote: {printed}");
    (out, pdf)
}

#[test]
fn a4_pdf_has_fronts_and_backs_at_real_size() {
    let (_guard, pdf) = build_travfuda(&[]);
    let info = pdf_boxes(&pdf);
    // 62 cards, 9 a page: 7 front pages, each followed by its back page.
    assert!(info.contains("Pages:           14"), "{info}");
    assert!(info.contains("Page size:       595.276 x 841.89 pts (A4)"), "{info}");
    // The TrimBox is the 3 × 3 grid of 63 × 88 mm cards, centred, the cards spaced by
    // twice the bleed shown around each (BleedBox − TrimBox), which A4 leaves room for.
    let boxes = |name: &str| -> Vec<f64> {
        info.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .split_whitespace()
            .skip(1)
            .map(|n| n.parse().unwrap())
            .collect()
    };
    let (v, bleed) = (boxes("TrimBox:"), boxes("BleedBox:"));
    let shown = (v[0] - bleed[0]) / MM;
    assert!(shown > 0.4 && shown <= 3.0, "bleed shown {shown} mm\n{info}");
    assert!((bleed[3] - v[3] - shown * MM).abs() < 0.05, "the same bleed on every side\n{info}");
    assert!(((v[2] - v[0]) - (3.0 * 63.0 + 4.0 * shown) * MM).abs() < 0.05, "{info}");
    assert!(((v[3] - v[1]) - (3.0 * 88.0 + 4.0 * shown) * MM).abs() < 0.05, "{info}");
    assert!((v[0] - (210.0 - 189.0 - 4.0 * shown) / 2.0 * MM).abs() < 0.05, "{info}");
}

#[test]
fn letter_pdf_is_letter_sized() {
    let (_guard, pdf) = build_travfuda(&["--paper", "letter"]);
    let info = pdf_boxes(&pdf);
    assert!(info.contains("Page size:       612 x 792 pts (letter)"), "{info}");
    assert!(info.contains("Pages:           14"), "{info}");
}

#[test]
fn every_card_is_readable_as_text() {
    let (_guard, pdf) = build_travfuda(&[]);
    let text = without_slug(&poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"]));
    for name in [
        "Scoutship",
        "Asteroid Belt",
        "Free Trader",
        "Comet",
        "Fat Trader",
        "Rockball",
        "Patrol Ship",
        "GG (Gas Giant)",
        "Troopship",
        "Terran World",
    ] {
        assert_eq!(text.matches(name).count(), 6, "six cards of {name}");
    }
    let count = |word: &str| text.split_whitespace().filter(|w| *w == word).count();
    assert_eq!(count("STARBURST"), 5);
    assert_eq!(count("CUTLASS"), 10);
    assert_eq!(count("FLAG"), 15);
    assert_eq!(count("DOUBLE"), 4);
    assert_eq!(count("PLAIN"), 26);
    assert_eq!(count("JOKER"), 2);
    assert_eq!(count("RED"), 6, "1 Starburst + 2 Cutlasses + 3 Flags");
    assert_eq!(count("YELLOW"), 6);
    assert_eq!(count("TravFuda"), 62, "one back per card");
}

#[test]
fn fonts_are_embedded_and_subset() {
    let (_guard, pdf) = build_travfuda(&[]);
    assert_fonts_embedded(&pdf);
}

/// Which cells of the 3 × 3 grid hold words on a page (`pdftotext -bbox`).
fn occupied_cells(pdf: &Path, page: usize, only: Option<&str>) -> BTreeSet<(usize, usize)> {
    let (card_w, card_h) = (63.0 * MM, 88.0 * MM);
    let (x0, y0) = ((595.276 - 3.0 * card_w) / 2.0, (841.89 - 3.0 * card_h) / 2.0);
    crate::common::word_boxes(pdf, Some(page))
        .into_iter()
        .filter(|(word, ..)| only.is_none_or(|w| word == w))
        .map(|(_, x_min, y_min, x_max, y_max)| {
            let cx = (x_min + x_max) / 2.0;
            let cy = (y_min + y_max) / 2.0;
            (((cx - x0) / card_w).floor() as isize, ((cy - y0) / card_h).floor() as isize)
        })
        // Words outside the grid are the slug below it.
        .filter(|&(c, r)| (0..3).contains(&c) && (0..3).contains(&r))
        .map(|(c, r)| (c as usize, r as usize))
        .collect()
}

#[test]
fn back_pages_mirror_the_fronts_for_long_edge_flip() {
    let (_guard, pdf) = build_travfuda(&[]);
    // The last sheet holds 8 cards: the empty front slot is bottom-right, so the
    // empty back slot must be bottom-left.
    let fronts = occupied_cells(&pdf, 13, None);
    let backs = occupied_cells(&pdf, 14, Some("TravFuda"));
    assert_eq!(fronts.len(), 8, "{fronts:?}");
    assert!(!fronts.contains(&(2, 2)));
    let mirrored: BTreeSet<_> = fronts.iter().map(|&(c, r)| (2 - c, r)).collect();
    assert_eq!(backs, mirrored);
}

#[test]
fn short_edge_backs_mirror_top_to_bottom() {
    let (_guard, pdf) = build_travfuda(&["--duplex", "short"]);
    let fronts = occupied_cells(&pdf, 13, None);
    let backs = occupied_cells(&pdf, 14, Some("TravFuda"));
    let mirrored: BTreeSet<_> = fronts.iter().map(|&(c, r)| (c, 2 - r)).collect();
    assert_eq!(backs, mirrored);
}

#[test]
fn building_twice_gives_identical_bytes() {
    let (_a, first) = build_travfuda(&[]);
    let (_b, second) = build_travfuda(&[]);
    assert_eq!(std::fs::read(first).unwrap(), std::fs::read(second).unwrap());
}

#[test]
fn a_failed_build_leaves_the_previous_pdf_untouched() {
    let (guard, cat) = copy_catalogue("travfuda");
    let out = guard.path().join("out");
    let args = ["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()];
    assert_eq!(deckpress(&args, guard.path()).status.code(), Some(0));
    let pdf = out.join("travfuda/travfuda-cards-a4.pdf");
    let before = std::fs::read(&pdf).unwrap();
    let names = || -> BTreeSet<_> {
        std::fs::read_dir(out.join("travfuda")).unwrap().map(|e| e.unwrap().file_name()).collect()
    };
    let written = names();
    edit(&cat, "templates/face.svg", "{{ card.suit_name }}", "{{ card.suit_name }");
    assert_eq!(deckpress(&args, guard.path()).status.code(), Some(1));
    assert_eq!(std::fs::read(&pdf).unwrap(), before);
    // The game also writes markers, pads and aids: exactly those files, nothing new.
    assert_eq!(names(), written, "no temporary or partial file");
}

#[test]
fn build_all_builds_every_builtin_game() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(&["build", "--all", "--out", out.path().to_str().unwrap()], &repo());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let listed = stdout(&deckpress(&["list"], &repo()));
    for id in listed.lines().map(|l| l.split_whitespace().next().unwrap()) {
        assert!(out.path().join(id).is_dir(), "{id} was built");
        assert!(stdout(&run).contains(&format!("{id}-")), "{}", stdout(&run));
    }
    // Every PDF written is structurally sound and embeds every font it uses.
    let printed = stdout(&run);
    let written: Vec<&str> = printed.lines().filter(|l| l.ends_with(".pdf")).collect();
    assert!(written.len() >= 20, "{written:?}");
    // Beside them, each game's manifest of what was drawn (for reprints).
    for id in listed.lines().map(|l| l.split_whitespace().next().unwrap()) {
        assert!(out.path().join(id).join(format!("{id}-manifest.json")).is_file(), "{id}");
    }
    for pdf in written {
        let check = std::process::Command::new("qpdf")
            .args(["--check", pdf])
            .output()
            .expect("qpdf is needed (apt-get install qpdf)");
        assert!(
            check.status.success(),
            "qpdf --check {pdf}: {}",
            String::from_utf8_lossy(&check.stdout)
        );
        assert_fonts_embedded(Path::new(pdf));
    }
}

#[test]
fn only_builds_the_named_decks_and_sheets() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["build", "travfuda", "--only", "cards,pad", "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let mut names: Vec<String> = std::fs::read_dir(out.path().join("travfuda"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["travfuda-cards-a4.pdf", "travfuda-manifest.json", "travfuda-pad-a4.pdf"]);
    let run = deckpress(
        &["build", "travfuda", "--only", "crads", "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run)
            .contains("no deck or sheet `crads`; did you mean `cards`? this game has: `cards`"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn glued_backs_pair_every_front_with_its_back() {
    // `--duplex none`: all fronts, then all backs, each back page mirrored as a long-edge
    // flip turns it, so gluing back page k onto front page k puts every back behind its
    // own front. The last front page (7 of 14) holds 8 cards; its back page is 14.
    let (_guard, pdf) = build_travfuda(&["--duplex", "none"]);
    let fronts = occupied_cells(&pdf, 7, None);
    let backs = occupied_cells(&pdf, 14, Some("TravFuda"));
    assert_eq!(fronts.len(), 8, "{fronts:?}");
    let glued: BTreeSet<_> = fronts.iter().map(|&(c, r)| (2 - c, r)).collect();
    assert_eq!(backs, glued);
    assert!(occupied_cells(&pdf, 8, Some("TravFuda")).len() == 9, "backs start after the fronts");
}

/// (xMin, yMin) in points of every word `word` on a page.
fn word_positions(pdf: &Path, page: usize, word: &str) -> Vec<(f64, f64)> {
    let p = page.to_string();
    let html = poppler("pdftotext", &["-bbox", "-f", &p, "-l", &p, pdf.to_str().unwrap(), "-"]);
    let attr = |line: &str, key: &str| -> f64 {
        let start = line.find(&format!("{key}=\"")).unwrap() + key.len() + 2;
        line[start..].split('"').next().unwrap().parse().unwrap()
    };
    // Words on cards, not in the small print of the slug below them.
    html.lines()
        .filter(|l| l.contains(&format!(">{word}<")) && attr(l, "yMax") - attr(l, "yMin") > 8.0)
        .map(|l| (attr(l, "xMin"), attr(l, "yMin")))
        .collect()
}

#[test]
fn back_offset_moves_every_back_by_exactly_that() {
    let (_a, plain) = build_travfuda(&[]);
    let (_b, shifted) = build_travfuda(&["--back-offset", "1,-0.5"]);
    // Backs move 1 mm right and 0.5 mm up; fronts stay.
    let (before, after) =
        (word_positions(&plain, 2, "TravFuda"), word_positions(&shifted, 2, "TravFuda"));
    assert_eq!(before.len(), 9);
    for (b, a) in before.iter().zip(&after) {
        assert!(
            ((a.0 - b.0) - 1.0 * MM).abs() < 0.02 && ((a.1 - b.1) + 0.5 * MM).abs() < 0.02,
            "{b:?} → {a:?}"
        );
    }
    assert_eq!(word_positions(&plain, 1, "Scoutship"), word_positions(&shifted, 1, "Scoutship"));
}

/// The document catalog as qpdf prints it.
fn catalog(pdf: &Path) -> String {
    let out = std::process::Command::new("qpdf")
        .args(["--show-object=trailer", pdf.to_str().unwrap()])
        .output()
        .expect("qpdf");
    let trailer = String::from_utf8_lossy(&out.stdout).to_string();
    let root = trailer
        .split("/Root ")
        .nth(1)
        .unwrap()
        .split(" R")
        .next()
        .unwrap()
        .trim()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    let out = std::process::Command::new("qpdf")
        .args([&format!("--show-object={root}"), pdf.to_str().unwrap()])
        .output()
        .expect("qpdf");
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn the_pdf_asks_to_be_printed_at_100_percent_with_its_duplex_flip() {
    let (_a, long) = build_travfuda(&[]);
    let c = catalog(&long);
    assert!(c.contains("/PrintScaling /None") && c.contains("/Duplex /DuplexFlipLongEdge"), "{c}");
    let (_b, short) = build_travfuda(&["--duplex", "short"]);
    assert!(catalog(&short).contains("/Duplex /DuplexFlipShortEdge"));
    let (_c, glued) = build_travfuda(&["--duplex", "none"]);
    assert!(catalog(&glued).contains("/Duplex /Simplex"));
}

/// Where each object of `pdf` starts, as its one cross-reference table says.
fn xref_offsets(pdf: &[u8]) -> Vec<(usize, usize)> {
    let text = String::from_utf8_lossy(&pdf[pdf.len() - 64..]).into_owned();
    let xref: usize =
        text.split("startxref\n").nth(1).unwrap().lines().next().unwrap().parse().unwrap();
    let table = String::from_utf8_lossy(&pdf[xref..]).into_owned();
    let mut lines = table.lines();
    assert_eq!(lines.next(), Some("xref"));
    let count: usize = lines.next().unwrap().strip_prefix("0 ").unwrap().parse().unwrap();
    lines
        .take(count)
        .enumerate()
        .filter(|(_, entry)| entry.ends_with('n'))
        .map(|(id, entry)| (id, entry[..10].parse().unwrap()))
        .collect()
}

#[test]
fn a_long_deck_with_large_art_is_a_sound_pdf_with_every_object_where_the_table_says() {
    // 600 cards (134 pages: their contents wait in a temporary file) and a 5.9 MB picture of
    // noise (the PDF is written out a few megabytes at a time): what is written in parts
    // must read as one file.
    let (_guard, cat) = new_game();
    let rows = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    let rows: String = rows
        .lines()
        .map(|l| l.replacen(",1,", ",75,", 1).replacen(",2,", ",150,", 1) + "\n")
        .collect();
    std::fs::write(cat.join("cards.csv"), rows).unwrap();
    edit(&cat, "game.toml", "count = 4", "count = 300");
    let (side, mut seed) = (1400u32, 88172645u32);
    let noise: Vec<u8> = (0..side * side * 3).map(|_| xorshift(&mut seed) as u8).collect();
    write_png(&cat.join("art/noise.png"), side, side, png::ColorType::Rgb, &noise);
    let circle = r#"<circle cx="315" cy="420" r="150" fill="{{ colour }}"/>"#;
    edit(
        &cat,
        "templates/face.svg",
        circle,
        &format!(
            r#"{circle}<image href="art/noise.png" x="165" y="270" width="300" height="300"/>"#
        ),
    );
    let (out, run) = build(&cat, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("game/game-cards-a4.pdf");
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.len() > 5 << 20, "{} bytes", bytes.len());
    let offsets = xref_offsets(&bytes);
    assert!(offsets.len() > 300, "{} objects", offsets.len());
    for (id, at) in offsets {
        let head = format!("{id} 0 obj");
        assert!(bytes[at..].starts_with(head.as_bytes()), "object {id} is not at {at}");
    }
    let check = std::process::Command::new("qpdf").arg("--check").arg(&pdf).output().unwrap();
    let said = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(check.status.success() && !said.contains("WARNING"), "{said}");
    assert_eq!(pages(&pdf), 134);
    assert!(catalog(&pdf).contains("/PrintScaling /None"), "{}", catalog(&pdf));
    let list = poppler("pdfimages", &["-list", "-f", "1", "-l", "1", pdf.to_str().unwrap()]);
    assert!(list.lines().any(|l| l.split_whitespace().nth(3) == Some("1400")), "{list}");
}

#[test]
fn a_long_game_name_stays_on_the_page_in_the_slug() {
    // The line under the cards names the game and deck and which sheet this is. A long
    // name ran off the paper's right edge, the sheet's number with it, without a word.
    let chronicle = "The Extraordinarily Long-Winded Chronicle of the Seven Kingdoms";
    for (name, shortened) in [([chronicle; 3].join(" "), false), ([chronicle; 10].join(" "), true)]
    {
        let (_dir, cat) = new_game();
        let manifest = cat.join("game.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        std::fs::write(
            &manifest,
            text.replacen("name = \"My Game\"", &format!("name = \"{name}\""), 1),
        )
        .unwrap();
        let (out, run) = build(&cat, &["--paper", "a4"]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let pdf = out.path().join("game/game-cards-a4.pdf");
        // The slug's words (below the cards) inside the 5 mm at either side that a home
        // printer cannot print.
        let edge = 5.0 * MM;
        let slug = word_boxes(&pdf, Some(1)).into_iter().filter(|w| w.2 > 800.0);
        for (word, x0, _, x1, _) in slug {
            assert!(x0 >= edge && x1 <= 595.28 - edge, "{word} at {x0:.1} – {x1:.1} pt");
        }
        let words = words_of(&pdf, Some(1));
        assert!(words.contains("sheet 1 of 1, front"), "{words}");
        let err = stderr(&run);
        let warned = err.contains("names are too long for the line under the a4 sheets");
        assert_eq!(warned, shortened, "{err}");
        if shortened {
            // As much of the name as fits, then the sheet's number.
            assert!(words.contains(&format!("{} The", [chronicle; 3].join(" "))), "{words}");
            assert!(words.contains("… · sheet 1 of 1, front"), "{words}");
            let line = line_of(&cat, "game.toml", "Extraordinarily");
            assert!(err.contains(&format!("game.toml:{line}:")), "{err}");
        } else {
            assert!(words.contains(&format!("{name} — ")), "{words}");
        }
    }
}
