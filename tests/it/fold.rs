//! Issue 51: gutter-fold sheets (`--duplex fold`). Each front's back is its mirror image
//! about the fold line, measured from the written PDF: the page's size from pdfinfo, each
//! card's words from pdftotext's boxes (a test deck whose fronts say `F<id>` and backs
//! `B<id>`, centred on the card).

use std::path::{Path, PathBuf};

use crate::common::{deckpress, pdf_info, stderr, stdout, word_boxes};

/// A deck of `n` cards of `size` (`width`, `height`), or round tokens, whose faces and
/// backs print their ids at the card's centre (`F<id>`, `B<id>`); each back also says
/// `U<id>` near its top, to tell which way up it stands.
pub(crate) fn id_deck(dir: &Path, n: usize, size: (&str, &str), round: bool) -> PathBuf {
    let cat = dir.join("ids");
    std::fs::create_dir_all(cat.join("templates")).unwrap();
    let shape = if round { "shape = \"circle\"\ngap = \"4mm\"\n" } else { "" };
    std::fs::write(
        cat.join("game.toml"),
        format!(
            "[game]\nid = \"ids\"\nname = \"Ids\"\ndescription = \"cards that say who they are\"\n\n[card]\nwidth = \"{}\"\nheight = \"{}\"\n\n[[deck]]\nid = \"cards\"\nrows = \"cards.csv\"\nface = \"templates/face.svg\"\nback = \"templates/back.svg\"\nbacks = \"per-card\"\n{shape}",
            size.0, size.1
        ),
    )
    .unwrap();
    let rows: String = (1..=n).map(|i| format!("c{i:02}\n")).collect();
    std::fs::write(cat.join("cards.csv"), format!("id\n{rows}")).unwrap();
    // In tenths of a millimetre, the card's own proportions.
    let tenths = |mm: &str| mm.trim_end_matches("mm").parse::<f32>().unwrap() * 10.0;
    let (vw, vh) = (tenths(size.0), tenths(size.1));
    let svg = |word: &str, fill: &str, up: bool| {
        let up = match up {
            true => format!("<text x=\"{}\" y=\"{}\" font-family=\"Noto Sans\" font-size=\"30\" text-anchor=\"middle\" fill=\"#000\">U{{{{ card.id }}}}</text>", vw / 2.0, vh / 5.0),
            false => String::new(),
        };
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {vw} {vh}\"><rect x=\"-50\" y=\"-50\" width=\"{rw}\" height=\"{rh}\" fill=\"{fill}\"/><text x=\"{cx}\" y=\"{cy}\" font-family=\"Noto Sans\" font-size=\"40\" text-anchor=\"middle\" fill=\"#000\">{word}{{{{ card.id }}}}</text>{up}</svg>",
            w = size.0,
            h = size.1,
            rw = vw + 100.0,
            rh = vh + 100.0,
            cx = vw / 2.0,
            cy = vh / 2.0 + 14.0,
        )
    };
    std::fs::write(cat.join("templates/face.svg"), svg("F", "#ffffff", false)).unwrap();
    std::fs::write(cat.join("templates/back.svg"), svg("B", "#dddddd", true)).unwrap();
    cat
}

/// The page's size in mm, as pdfinfo reads it.
pub(crate) fn page_mm(pdf: &Path) -> (f64, f64) {
    let info = pdf_info(pdf);
    let line = info.lines().find(|l| l.starts_with("Page size:")).unwrap();
    let nums: Vec<f64> = line.split_whitespace().filter_map(|w| w.parse().ok()).take(2).collect();
    (nums[0] * 25.4 / 72.0, nums[1] * 25.4 / 72.0)
}

/// Builds the deck folded on `paper` and checks every card: its back's words at the mirror
/// image of its front's about the page's middle, down or across (whichever the fronts
/// leave); returns the cards a page and the pages.
fn folded(cat: &Path, paper: &str, out: &Path) -> (usize, usize) {
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--duplex",
            "fold",
            "--paper",
            paper,
            "--out",
            out.to_str().unwrap(),
        ],
        cat.parent().unwrap(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.join(format!("ids/ids-cards-{paper}.pdf"));
    let (w, h) = page_mm(&pdf);
    let pages = crate::common::pages(&pdf);
    let mut per_page = 0;
    for page in 1..=pages {
        let words = word_boxes(&pdf, Some(page));
        let centre = |word: &str| {
            words.iter().find(|(t, ..)| t == word).map(|(_, x0, y0, x1, y1)| {
                let pt = 25.4 / 72.0;
                ((x0 + x1) / 2.0 * pt, (y0 + y1) / 2.0 * pt)
            })
        };
        let fronts: Vec<&String> =
            words.iter().map(|(t, ..)| t).filter(|t| t.starts_with('F')).collect();
        per_page = per_page.max(fronts.len());
        // Which way it folds: the fronts all lie on one half.
        let first = centre(fronts[0]).unwrap();
        let down = fronts.iter().all(|f| centre(f).unwrap().0 < w / 2.0);
        let across = fronts.iter().all(|f| centre(f).unwrap().1 < h / 2.0);
        assert!(down || across, "{paper} page {page}: fronts on both halves {first:?}");
        for front in &fronts {
            let id = &front[1..];
            let (fx, fy) = centre(front).unwrap();
            let (bx, by) = centre(&format!("B{id}"))
                .unwrap_or_else(|| panic!("{paper} page {page}: no back of {id} on its page"));
            let (mx, my) = if down { (w - fx, fy) } else { (fx, h - fy) };
            assert!(
                (bx - mx).abs() < 0.1 && (by - my).abs() < 0.1,
                "{paper} page {page}: {id}'s back at ({bx:.2}, {by:.2}), its front's mirror at ({mx:.2}, {my:.2})"
            );
        }
    }
    (per_page, pages)
}

#[test]
fn every_back_is_its_front_s_mirror_about_the_fold_for_every_size_and_paper() {
    let dir = tempfile::tempdir().unwrap();
    for (size, round, n) in
        [(("63mm", "88mm"), false, 10), (("41mm", "63mm"), false, 20), (("30mm", "30mm"), true, 25)]
    {
        let cat = id_deck(dir.path(), n, size, round);
        for paper in ["a4", "letter"] {
            let out = dir.path().join(format!("out-{}-{paper}", size.0));
            let (per_page, pages) = folded(&cat, paper, &out);
            assert!(
                per_page > 0 && per_page * pages >= n,
                "{size:?} {paper}: {per_page} × {pages}"
            );
            if size == ("41mm", "63mm") {
                // Mini cards: nine fronts and their backs on A4 turned landscape (folded
                // down); ten on Letter, folded across (half a Letter page is 215.9 mm wide).
                let most = if paper == "a4" { 9 } else { 10 };
                assert_eq!(per_page, most, "{paper}: mini cards a page");
            }
            if size == ("63mm", "88mm") {
                assert_eq!(per_page, 4, "{paper}: poker cards a page");
            }
        }
        std::fs::remove_dir_all(&cat).unwrap();
    }
}

#[test]
fn the_page_says_where_and_how_to_fold_and_the_bundle_s_guide_explains_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = deckpress(
        &["bundle", "travfuda", "--duplex", "fold", "--out", out.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.join("travfuda/travfuda-pnp-a4.pdf");
    let text = crate::common::poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("single-sided, then fold"), "{text}");
    assert!(text.contains("Fold each page along its dashed line"), "{text}");
    assert!(text.contains("fold here, printed sides out"), "no fold line's words on the pages");
}

#[test]
fn fold_with_a_print_service_or_a_cutter_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [&["--for", "drivethrucards"][..], &["--cut", "svg"][..]] {
        let mut args = vec!["build", "travfuda", "--duplex", "fold", "--out", "o"];
        args.extend_from_slice(extra);
        let run = deckpress(&args, dir.path());
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {}", stderr(&run));
        assert!(stderr(&run).contains("--duplex fold"), "{extra:?}: {}", stderr(&run));
        assert!(stdout(&run).is_empty());
    }
}
