//! Issue 51, item 2: home card sheets turn landscape where that holds more cards (ties
//! stay portrait), `--orientation` overrides, and a landscape page's duplex backs are
//! behind their fronts as the printer turns the sheet over the page's own long or short
//! edge. Everything is read from the written PDF: the page's size (pdfinfo), each card's
//! words from pdftotext's boxes (a deck whose faces say `F<id>`, backs `B<id>` at the
//! centre and `U<id>` near the top).

use std::path::Path;

use crate::common::{deckpress, pages, repo, stderr, word_boxes};
use crate::fold::{id_deck, page_mm};

/// Each word's centre on `page` of `pdf`, in mm from the top-left corner.
fn centres(pdf: &Path, page: usize) -> Vec<(String, f64, f64)> {
    let pt = 25.4 / 72.0;
    word_boxes(pdf, Some(page))
        .into_iter()
        .map(|(t, x0, y0, x1, y1)| (t, (x0 + x1) / 2.0 * pt, (y0 + y1) / 2.0 * pt))
        .collect()
}

fn at(words: &[(String, f64, f64)], word: &str) -> Option<(f64, f64)> {
    words.iter().find(|(t, ..)| t == word).map(|(_, x, y)| (*x, *y))
}

/// Builds `cat` on `paper` with `extra` options; the PDF, its page size in mm and the
/// fronts on its first page.
fn built(cat: &Path, paper: &str, extra: &[&str], out: &Path) -> (std::path::PathBuf, (f64, f64)) {
    let mut args = vec!["build", cat.to_str().unwrap(), "--paper", paper];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let run = deckpress(&args, cat.parent().unwrap());
    assert_eq!(run.status.code(), Some(0), "{extra:?}: {}", stderr(&run));
    let pdf = out.join(format!("ids/ids-cards-{paper}.pdf"));
    let size = page_mm(&pdf);
    (pdf, size)
}

/// The fronts (`F…` words) on a page.
fn fronts(words: &[(String, f64, f64)]) -> Vec<String> {
    words.iter().map(|(t, ..)| t.clone()).filter(|t| t.starts_with('F')).collect()
}

#[test]
fn mini_cards_turn_the_page_to_fit_18_and_poker_cards_stay_9_portrait() {
    let dir = tempfile::tempdir().unwrap();
    // (size, [(paper, cards a page, landscape, slug)]): mini cards (1.75 × 2.5 in) 16 a
    // portrait page, 18 turned. 41 × 63 mm minis fit 5 across Letter's 215.9 mm (20) only
    // abutting, with no bleed shown: the 18 turned, with bleed, win. Cards a page come
    // first: three rows down Letter leave no margin for the slug (poker, and 1.75 × 2.5 in
    // minis turned), as before.
    let cases = [
        (("44.45mm", "63.5mm"), [("a4", 18, true, true), ("letter", 18, true, false)]),
        (("41mm", "63mm"), [("a4", 18, true, true), ("letter", 18, true, true)]),
        (("63mm", "88mm"), [("a4", 9, false, true), ("letter", 9, false, false)]),
    ];
    for (size, papers) in cases {
        let cat = id_deck(dir.path(), 40, size, false);
        for (paper, most, landscape, slugged) in papers {
            let out = dir.path().join(format!("out-{}-{paper}", size.0));
            let (pdf, (w, h)) = built(&cat, paper, &[], &out);
            assert_eq!(w > h, landscape, "{size:?} on {paper}: a {w:.1} × {h:.1} mm page");
            let first = centres(&pdf, 1);
            assert_eq!(fronts(&first).len(), most, "{size:?} on {paper}: cards on the first page");
            // The slug, its sheet number and its scale bar's words are on the page.
            let slug = at(&first, "sheet");
            assert_eq!(slug.is_some(), slugged, "{size:?} on {paper}: the slug");
            if let Some((x, y)) = slug {
                assert!(x > 5.0 && x < w - 5.0 && y > 5.0 && y < h - 5.0, "{x}, {y}");
                assert!(at(&first, "(actual").is_some(), "{size:?} {paper}: no '100 %'");
            }
        }
        std::fs::remove_dir_all(&cat).unwrap();
    }
}

#[test]
fn orientation_overrides_the_page_that_fits_more() {
    let dir = tempfile::tempdir().unwrap();
    let cat = id_deck(dir.path(), 40, ("44.45mm", "63.5mm"), false);
    for (orientation, paper, most, landscape) in [
        ("portrait", "a4", 16, false),
        ("portrait", "letter", 16, false),
        ("landscape", "a4", 18, true),
    ] {
        let out = dir.path().join(format!("out-{orientation}-{paper}"));
        let (pdf, (w, h)) = built(&cat, paper, &["--orientation", orientation], &out);
        assert_eq!(w > h, landscape, "{orientation} {paper}: {w:.1} × {h:.1}");
        assert_eq!(fronts(&centres(&pdf, 1)).len(), most, "{orientation} {paper}");
    }
    // Poker cards turned: 4 across, 2 down.
    let poker = id_deck(dir.path(), 12, ("63mm", "88mm"), false);
    let (pdf, (w, h)) =
        built(&poker, "a4", &["--orientation", "landscape"], &dir.path().join("out-poker"));
    assert!(w > h);
    assert_eq!(fronts(&centres(&pdf, 1)).len(), 8);
}

/// Checks every card of a duplex build: its back on the next page at its front's place
/// reflected across the page's long axis (`flip` "long") or short axis ("short"), shifted
/// by `offset` (mm, right and down); and standing upright when its card is turned over
/// sideways: its `U` word above its centre unless the reflection was top to bottom.
fn backs_behind_fronts(pdf: &Path, (w, h): (f64, f64), flip: &str, offset: (f64, f64)) -> usize {
    let landscape = w > h;
    // Reflected across the horizontal middle: the long axis of a landscape page.
    let top_to_bottom = (flip == "long") == landscape;
    let mut checked = 0;
    for front_page in (1..=pages(pdf)).step_by(2) {
        let (front, back) = (centres(pdf, front_page), centres(pdf, front_page + 1));
        for f in fronts(&front) {
            let id = &f[1..];
            let (fx, fy) = at(&front, &f).unwrap();
            let (bx, by) =
                at(&back, &format!("B{id}")).unwrap_or_else(|| panic!("no back of {id}"));
            let (mx, my) = if top_to_bottom { (fx, h - fy) } else { (w - fx, fy) };
            let (mx, my) = (mx + offset.0, my + offset.1);
            assert!(
                (bx - mx).abs() < 0.1 && (by - my).abs() < 0.1,
                "{flip} on a {w:.0} × {h:.0} page: {id}'s back at ({bx:.2}, {by:.2}), expected ({mx:.2}, {my:.2})"
            );
            let (_, uy) = at(&back, &format!("U{id}")).unwrap();
            assert_eq!(uy > by, top_to_bottom, "{flip} {w:.0} × {h:.0}: {id}'s back upside down");
            checked += 1;
        }
    }
    checked
}

#[test]
fn a_landscape_page_s_backs_are_mirrored_across_its_own_long_or_short_axis() {
    let dir = tempfile::tempdir().unwrap();
    let cat = id_deck(dir.path(), 20, ("44.45mm", "63.5mm"), false);
    for paper in ["a4", "letter"] {
        for flip in ["long", "short"] {
            let out = dir.path().join(format!("out-{paper}-{flip}"));
            let (pdf, size) = built(&cat, paper, &["--duplex", flip], &out);
            assert!(size.0 > size.1, "mini cards turn the page");
            assert_eq!(backs_behind_fronts(&pdf, size, flip, (0.0, 0.0)), 20, "{paper} {flip}");
        }
    }
    // Portrait pages keep their flips: long left ↔ right, short top ↔ bottom.
    let poker = id_deck(dir.path(), 9, ("63mm", "88mm"), false);
    for flip in ["long", "short"] {
        let out = dir.path().join(format!("out-poker-{flip}"));
        let (pdf, size) = built(&poker, "a4", &["--duplex", flip], &out);
        assert!(size.0 < size.1);
        assert_eq!(backs_behind_fronts(&pdf, size, flip, (0.0, 0.0)), 9, "poker {flip}");
    }
}

#[test]
fn back_offset_is_right_and_down_on_the_landscape_page_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let cat = id_deck(dir.path(), 18, ("44.45mm", "63.5mm"), false);
    let out = dir.path().join("out");
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--back-offset",
            "1,-0.5",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // Turned without being asked: the build says the offset is read on the landscape page.
    let err = stderr(&run);
    assert!(err.contains("sheets turned landscape"), "{err}");
    assert!(err.contains("calibrate --orientation landscape"), "{err}");
    let pdf = out.join("ids/ids-cards-a4.pdf");
    let size = page_mm(&pdf);
    assert!(size.0 > size.1);
    assert_eq!(backs_behind_fronts(&pdf, size, "long", (1.0, -0.5)), 18);
    // Asked for landscape, with a landscape reading: nothing to say.
    let asked = dir.path().join("asked");
    let (pdf, size) =
        built(&cat, "a4", &["--back-offset", "1,-0.5", "--orientation", "landscape"], &asked);
    assert_eq!(backs_behind_fronts(&pdf, size, "long", (1.0, -0.5)), 18);
    let again = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--back-offset",
            "1,-0.5",
            "--orientation",
            "landscape",
            "--out",
            asked.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(!stderr(&again).contains("turned landscape"), "{}", stderr(&again));
}

/// (label, x, y) in points of the calibration points' letters on a page.
fn letters(pdf: &Path, page: usize) -> Vec<(String, f64, f64)> {
    word_boxes(pdf, Some(page))
        .into_iter()
        .filter(|(word, ..)| word.len() == 1 && "ABCDE".contains(word.as_str()))
        .map(|(word, x, y, ..)| (word, x, y))
        .collect()
}

#[test]
fn calibrate_prints_a_landscape_sheet_whose_crosshairs_follow_the_page_s_own_flip() {
    for (duplex, paper) in [("long", "a4"), ("short", "letter")] {
        let out = tempfile::tempdir().unwrap();
        let run = deckpress(
            &[
                "calibrate",
                "--paper",
                paper,
                "--duplex",
                duplex,
                "--orientation",
                "landscape",
                "--out",
                out.path().to_str().unwrap(),
            ],
            &repo(),
        );
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let pdf = out.path().join(format!("calibrate-{paper}-{duplex}-landscape.pdf"));
        let (w, h) = page_mm(&pdf);
        assert!(w > h, "{duplex} {paper}: {w} × {h}");
        // Differences between points are differences between crosses (see print.rs): a
        // landscape page's long edge is its top, so a long-edge flip mirrors the crosses
        // top ↔ bottom, a short-edge flip left ↔ right.
        let (front, back) = (letters(&pdf, 1), letters(&pdf, 2));
        assert_eq!(front.len(), 5, "{front:?}");
        let at = |list: &[(String, f64, f64)], l: &str| {
            list.iter().find(|(x, _, _)| x == l).map(|(_, x, y)| (*x, *y)).unwrap()
        };
        let (fc, bc) = (at(&front, "C"), at(&back, "C"));
        for label in ["A", "B", "D", "E"] {
            let (f, b) = (at(&front, label), at(&back, label));
            let (fdx, fdy, bdx, bdy) = (f.0 - fc.0, f.1 - fc.1, b.0 - bc.0, b.1 - bc.1);
            let (ex, ey) = if duplex == "long" { (fdx, -fdy) } else { (-fdx, fdy) };
            assert!(
                (bdx - ex).abs() < 0.5 && (bdy - ey).abs() < 0.5,
                "{duplex} {label}: front {f:?} back {b:?}"
            );
        }
        let text = crate::common::poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
        assert!(text.contains("This sheet is landscape"), "{text}");
    }
    // `auto` is no way for one test sheet to stand.
    let dir = tempfile::tempdir().unwrap();
    let run = deckpress(&["calibrate", "--orientation", "auto", "--out", "o"], dir.path());
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(!dir.path().join("o").exists());
}

#[test]
fn a_card_too_large_for_the_paper_is_an_error_at_its_size_naming_what_fits() {
    let dir = tempfile::tempdir().unwrap();
    // [card] width on line 7 of the test deck's game.toml.
    let cat = id_deck(dir.path(), 2, ("150mm", "200mm"), false);
    let run = |args: &[&str]| {
        let mut all = vec![args[0], cat.to_str().unwrap()];
        all.extend_from_slice(&args[1..]);
        if args[0] != "validate" {
            all.extend_from_slice(&["--out", "o"]);
        }
        deckpress(&all, dir.path())
    };
    for command in ["validate", "build", "bundle"] {
        let folded = run(&[command, "--duplex", "fold"]);
        let err = stderr(&folded);
        assert_eq!(folded.status.code(), Some(1), "{command}: {err}");
        assert!(err.contains("ids/game.toml:7:1"), "{command}: {err}");
        assert!(err.contains("150 × 200 mm cards do not fit on half of A4"), "{err}");
        assert!(err.contains("it fits on A4 without the fold"), "{err}");
        assert!(err.contains("a fold fits it on A3 or larger"), "{err}");
        assert!(err.contains("up to 138.3 × 184.4 mm; nothing is scaled"), "{err}");
    }
    assert!(!dir.path().join("o/ids").exists(), "nothing written");
    // Its twin without the fold builds.
    let flat = run(&["build", "--duplex", "long"]);
    assert_eq!(flat.status.code(), Some(0), "{}", stderr(&flat));
    // A deck's own size is said at its own line; too large for any home sheet.
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    let huge = toml.replace(
        "backs = \"per-card\"",
        "backs = \"per-card\"\ncard = { width = \"300mm\", height = \"400mm\" }",
    );
    std::fs::write(cat.join("game.toml"), &huge).unwrap();
    let line = huge.lines().position(|l| l.starts_with("card = ")).unwrap() + 1;
    let too_big = run(&["validate", "--paper", "letter"]);
    let err = stderr(&too_big);
    assert_eq!(too_big.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("ids/game.toml:{line}:1")), "{err}");
    assert!(
        err.contains("300 × 400 mm cards do not fit on LETTER, portrait or landscape"),
        "{err}"
    );
    assert!(err.contains("the sheets fit it on A2 or larger"), "{err}");
}

/// The words of `page` of `pdf`, joined by single spaces.
fn page_words(pdf: &Path, page: usize) -> String {
    word_boxes(pdf, Some(page)).into_iter().map(|(t, ..)| t).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_fold_guide_draws_fold_glue_then_cut_under_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = deckpress(
        &["bundle", "travfuda", "--duplex", "fold", "--out", out.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.join("travfuda/travfuda-pnp-a4.pdf");
    let page = (1..=3)
        .find(|&p| page_words(&pdf, p).contains("Gutter-fold pages"))
        .expect("the guide's gutter-fold step");
    let words = centres(&pdf, page);
    let first = |word: &str| {
        at(&words, word).unwrap_or_else(|| panic!("no '{word}' on the guide's page {page}"))
    };
    // The three captions side by side, in the order it is done, under the step that
    // explains it and above the next one.
    let (fold, glue, cut) = (first("1."), first("2."), first("3."));
    assert!(fold.0 < glue.0 && glue.0 < cut.0, "{fold:?} {glue:?} {cut:?}");
    assert!((fold.1 - glue.1).abs() < 0.5 && (glue.1 - cut.1).abs() < 0.5);
    let text = page_words(&pdf, page);
    for caption in
        ["1. Fold on the dashed line", "2. Glue the blank insides", "3. Cut through both"]
    {
        assert!(text.contains(caption), "{caption}: {text}");
    }
    let (step, next) = (first("Gutter-fold"), first("Cards"));
    assert!(step.1 < fold.1 && fold.1 < next.1, "step {step:?}, captions {fold:?}, next {next:?}");
    // The drawing sits between them, in the space left for it: its cards' words F1 and B1.
    let (f1, b1) = (first("F1"), first("B1"));
    assert!(step.1 < f1.1 && f1.1 < fold.1 && f1.0 < b1.0, "{f1:?} {b1:?}");
    // Drawn as paths and text: the page holds no picture.
    let images = crate::common::poppler(
        "pdfimages",
        &["-list", "-f", &page.to_string(), "-l", &page.to_string(), pdf.to_str().unwrap()],
    );
    assert_eq!(images.lines().count(), 2, "pictures on the guide's page: {images}");
    // A bundle that does not fold has no drawing.
    let flat = dir.path().join("flat");
    let run = deckpress(&["bundle", "travfuda", "--out", flat.to_str().unwrap()], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let flat = flat.join("travfuda/travfuda-pnp-a4.pdf");
    assert!((1..=3).all(|p| !page_words(&flat, p).contains("Fold on the dashed")));
}

#[test]
fn the_bundle_s_cover_and_guide_count_the_turned_pages() {
    let dir = tempfile::tempdir().unwrap();
    // 36 mini cards: 18 a landscape page, 2 sheets (4 pages, duplex); 16 a portrait page,
    // 3 sheets (6 pages).
    let cat = id_deck(dir.path(), 36, ("44.45mm", "63.5mm"), false);
    for (orientation, range, pages_turned) in [("auto", "3–6", true), ("portrait", "3–8", false)]
    {
        let out = dir.path().join(format!("out-{orientation}"));
        let run = deckpress(
            &[
                "bundle",
                cat.to_str().unwrap(),
                "--orientation",
                orientation,
                "--out",
                out.to_str().unwrap(),
            ],
            dir.path(),
        );
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let pdf = out.join("ids/ids-pnp-a4.pdf");
        let cover = page_words(&pdf, 1);
        assert!(cover.contains(&format!("cards 36 cards {range}")), "{orientation}: {cover}");
        let guide = page_words(&pdf, 2);
        assert!(guide.contains(&format!("{range} cards double-sided")), "{orientation}: {guide}");
        let last: usize = range.rsplit('–').next().unwrap().parse().unwrap();
        assert_eq!(pages(&pdf), last, "{orientation}");
        let info =
            crate::common::poppler("pdfinfo", &["-f", "3", "-l", "3", pdf.to_str().unwrap()]);
        let size = info.lines().find(|l| l.starts_with("Page    3 size")).unwrap();
        assert_eq!(size.contains("841.89 x 595"), pages_turned, "{orientation}: {size}");
    }
}

#[test]
fn the_printer_s_marks_speak_the_edition_s_language() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = |extra: &[&str]| {
        let mut args = vec!["build", "track", "--lang", "ru", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let run = deckpress(&args, dir.path());
        assert_eq!(run.status.code(), Some(0), "{extra:?}: {}", stderr(&run));
    };
    run(&["--only", "chips"]);
    let chips =
        crate::common::words(&crate::common::plain_text(&out.join("track/track-chips-a4-ru.pdf")));
    for said in [
        "лист 1 из 1, лицо",
        "лист 1 из 1, оборот",
        "с двух сторон, переворот по длинному краю",
        "натуральную величину",
    ] {
        assert!(chips.contains(said), "{said}: {chips}");
    }
    assert!(!chips.contains("sheet") && !chips.contains("actual size"), "{chips}");
    run(&["--only", "cards", "--duplex", "fold"]);
    let cards =
        crate::common::words(&crate::common::plain_text(&out.join("track/track-cards-a4-ru.pdf")));
    assert!(cards.contains("сгиб здесь, напечатанным наружу"), "{cards}");
    assert!(cards.contains("сгиб пополам") && !cards.contains("fold here"), "{cards}");
}

#[test]
fn hex_tiles_on_a_landscape_page_are_backed_across_its_own_axes() {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("ids");
    std::fs::create_dir_all(cat.join("templates")).unwrap();
    std::fs::write(
        cat.join("game.toml"),
        "[game]\nid = \"ids\"\nname = \"Ids\"\ndescription = \"tiles that say who they are\"\n\n[[deck]]\nid = \"cards\"\nrows = \"cards.csv\"\nface = \"templates/face.svg\"\nback = \"templates/back.svg\"\nbacks = \"per-card\"\nshape = \"hex\"\nhex = \"flat\"\ncard = { width = \"60mm\" }\n",
    )
    .unwrap();
    let rows: String = (1..=12).map(|i| format!("t{i:02}\n")).collect();
    std::fs::write(cat.join("cards.csv"), format!("id\n{rows}")).unwrap();
    let svg = |word: &str, up: &str| {
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"60mm\" height=\"51.962mm\" viewBox=\"0 0 600 519.62\" font-family=\"Noto Sans\"><rect x=\"-50\" y=\"-50\" width=\"700\" height=\"619.62\" fill=\"#eeeeee\"/><text x=\"300\" y=\"273.8\" font-size=\"40\" text-anchor=\"middle\">{word}{{{{ card.id }}}}</text>{up}</svg>")
    };
    let up =
        "<text x=\"300\" y=\"130\" font-size=\"30\" text-anchor=\"middle\">U{{ card.id }}</text>";
    std::fs::write(cat.join("templates/face.svg"), svg("F", "")).unwrap();
    std::fs::write(cat.join("templates/back.svg"), svg("B", up)).unwrap();
    for flip in ["long", "short"] {
        let out = dir.path().join(format!("out-{flip}"));
        let (pdf, size) =
            built(&cat, "a4", &["--orientation", "landscape", "--duplex", flip], &out);
        assert!(size.0 > size.1);
        assert_eq!(backs_behind_fronts(&pdf, size, flip, (0.0, 0.0)), 12, "hex {flip}");
    }
}
