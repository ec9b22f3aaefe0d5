//! Golden images per behaviour, the resvg way: one small fixture catalogue per behaviour
//! (tests/behaviours/NAME/), drawn by the preview path (resvg) and from the PDF
//! (rasterised by poppler's pdftoppm), each compared with its reference under
//! tests/golden/behaviours/ at a tolerance that catches one changed glyph. On failure
//! the actual picture and a diff (changed pixels red) are written to
//! target/golden-behaviours/. When a change is meant, look at them and regenerate
//! deliberately:
//!
//! ```sh
//! DECKPRESS_BLESS=1 cargo test --test it -- behaviours
//! ```

use std::path::{Path, PathBuf};

use resvg::tiny_skia::Pixmap;

use crate::common::*;

/// A channel may differ by this much (anti-aliasing)…
const CHANNEL_TOLERANCE: u8 = 24;
/// …and this many pixels by more. One changed letter of the smallest text of a fixture
/// changes several times as many (a test below makes sure).
const PIXEL_TOLERANCE: usize = 8;

/// Previews and PDF pages are drawn at this resolution…
const DPI: u32 = 75;
/// …but the slug, 1.5 mm text, at this.
const SLUG_DPI: u32 = 150;

/// Where a picture of a behaviour comes from.
enum Source {
    /// A PNG `preview` writes, under OUT/GAME/preview/.
    Preview(&'static str),
    /// A page of a PDF `build ARGS` writes under OUT/GAME/, rasterised, optionally only a
    /// band (x, y, width, height in millimetres).
    Pdf { args: &'static [&'static str], file: &'static str, page: u32, band: Option<[f32; 4]> },
}

/// (behaviour, what, source): the reference is `BEHAVIOUR-WHAT.png`.
const CASES: &[(&str, &str, Source)] = &[
    ("wrap-shrink", "preview", Source::Preview("cards/long.png")),
    (
        "wrap-shrink",
        "pdf",
        Source::Pdf {
            args: &["--for", "pdf-cards"],
            file: "wrap-shrink-cards-pdf-cards.pdf",
            page: 1,
            band: None,
        },
    ),
    ("icons", "preview", Source::Preview("cards/market.png")),
    (
        "icons",
        "pdf",
        Source::Pdf {
            args: &["--for", "pdf-cards"],
            file: "icons-cards-pdf-cards.pdf",
            page: 1,
            band: None,
        },
    ),
    ("bold-italic", "preview", Source::Preview("cards/styles.png")),
    (
        "bold-italic",
        "pdf",
        Source::Pdf {
            args: &["--for", "pdf-cards"],
            file: "bold-italic-cards-pdf-cards.pdf",
            page: 1,
            band: None,
        },
    ),
    ("bleed", "preview", Source::Preview("cards/edge.png")),
    (
        "bleed",
        "pdf",
        Source::Pdf {
            args: &["--for", "pdf-cards"],
            file: "bleed-cards-pdf-cards.pdf",
            page: 1,
            band: None,
        },
    ),
    ("hex", "preview", Source::Preview("cards/forest.png")),
    ("hex", "pdf", Source::Pdf { args: &[], file: "hex-cards-a4.pdf", page: 1, band: None }),
    ("rounded", "preview", Source::Preview("cards/round.png")),
    (
        "rounded",
        "pdf",
        Source::Pdf { args: &[], file: "rounded-cards-a4.pdf", page: 1, band: None },
    ),
    (
        "slug",
        "pdf",
        Source::Pdf {
            args: &[],
            file: "slug-cards-a4.pdf",
            page: 1,
            band: Some([0.0, 283.0, 210.0, 14.0]),
        },
    ),
    ("score-pad", "preview", Source::Preview("sheets/pad.png")),
    (
        "score-pad",
        "pdf",
        Source::Pdf {
            args: &["--players", "3"],
            file: "score-pad-pad-a4.pdf",
            page: 1,
            band: None,
        },
    ),
    ("board", "preview", Source::Preview("sheets/board.png")),
    ("board", "pdf", Source::Pdf { args: &[], file: "board-board-a2.pdf", page: 1, band: None }),
    (
        "board",
        "tile-pdf",
        Source::Pdf { args: &[], file: "board-board-tiled-a4.pdf", page: 2, band: None },
    ),
    (
        "board",
        "map-pdf",
        Source::Pdf { args: &[], file: "board-board-tiled-a4.pdf", page: 1, band: None },
    ),
];

fn references() -> PathBuf {
    repo().join("tests/golden/behaviours")
}

fn fixture(behaviour: &str) -> PathBuf {
    repo().join("tests/behaviours").join(behaviour)
}

/// The picture of one case, drawn from `fixture` (the checked-in one, or an edited copy).
fn draw(fixture: &Path, source: &Source) -> Pixmap {
    let out = tempfile::tempdir().unwrap();
    let game = fixture.file_name().unwrap().to_str().unwrap().to_string();
    let id = std::fs::read_to_string(fixture.join("game.toml"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("id = \"").map(|r| r.trim_end_matches('"').to_string()))
        .unwrap_or(game);
    match source {
        Source::Preview(file) => {
            let dpi = DPI.to_string();
            let run = deckpress(
                &[
                    "preview",
                    fixture.to_str().unwrap(),
                    "--out",
                    out.path().to_str().unwrap(),
                    "--dpi",
                    &dpi,
                    "--quiet",
                ],
                &repo(),
            );
            assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
            let png = out.path().join(&id).join("preview").join(file);
            Pixmap::load_png(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display()))
        }
        Source::Pdf { args, file, page, band } => {
            let (built, run) = build(fixture, args);
            assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
            let pdf = built.path().join(&id).join(file);
            let dpi = if band.is_some() { SLUG_DPI } else { DPI };
            let page = page.to_string();
            let mut args: Vec<String> =
                ["-f", &page, "-l", &page, "-singlefile"].map(String::from).to_vec();
            if let Some([x, y, w, h]) = band {
                let px = |mm: f32| ((mm / 25.4) * dpi as f32).round() as u32;
                args.extend(
                    ["-x", "-y", "-W", "-H"]
                        .iter()
                        .zip([px(*x), px(*y), px(*w), px(*h)])
                        .flat_map(|(flag, v)| [flag.to_string(), v.to_string()]),
                );
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            poppler_pages(&pdf, dpi, &args).remove(0)
        }
    }
}

/// How many pixels of a case differ from its reference (`usize::MAX` for another size);
/// with `report`, writes the actual picture and the diff when too many do.
fn differing(name: &str, actual: &Pixmap, report: bool) -> usize {
    let reference = references().join(format!("{name}.png"));
    let expected = Pixmap::load_png(&reference).unwrap_or_else(|e| {
        panic!("{name}: no reference {} ({e}); DECKPRESS_BLESS=1 makes it", reference.display())
    });
    let (bad, diff) = if (expected.width(), expected.height()) == (actual.width(), actual.height())
    {
        differing_pixels(actual, &expected, CHANNEL_TOLERANCE)
    } else {
        (usize::MAX, actual.clone())
    };
    if report && bad > PIXEL_TOLERANCE {
        let failures = repo().join("target/golden-behaviours");
        std::fs::create_dir_all(&failures).unwrap();
        actual.save_png(failures.join(format!("{name}-actual.png"))).unwrap();
        diff.save_png(failures.join(format!("{name}-diff.png"))).unwrap();
    }
    bad
}

/// A behaviour's cases against their references (or made its references, with
/// DECKPRESS_BLESS).
fn looks_as_it_did(behaviour: &str) {
    let bless = std::env::var_os("DECKPRESS_BLESS").is_some();
    let mut failures = Vec::new();
    for (_, what, source) in CASES.iter().filter(|(b, _, _)| *b == behaviour) {
        let name = format!("{behaviour}-{what}");
        let actual = draw(&fixture(behaviour), source);
        if bless {
            std::fs::create_dir_all(references()).unwrap();
            actual.save_png(references().join(format!("{name}.png"))).unwrap();
            continue;
        }
        match differing(&name, &actual, true) {
            usize::MAX => failures.push(format!("{name}: the size differs")),
            bad if bad > PIXEL_TOLERANCE => failures.push(format!("{name}: {bad} pixels differ; see target/golden-behaviours/{name}-actual.png and -diff.png")),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "golden images differ:\n{}\nif the change is meant: DECKPRESS_BLESS=1 cargo test --test it -- behaviours::{}", failures.join("\n"), behaviour.replace('-', "_"));
}

/// One test per behaviour, selectable by name as resvg's are
/// (`cargo test --test it -- behaviours::hex`).
macro_rules! behaviours {
    ($($test:ident: $behaviour:literal,)*) => {
        $(#[test] fn $test() { looks_as_it_did($behaviour) })*
        /// The behaviours that have their test.
        const TESTED: &[&str] = &[$($behaviour),*];
    };
}

behaviours! {
    wrap_shrink: "wrap-shrink",
    icons: "icons",
    bold_italic: "bold-italic",
    bleed: "bleed",
    hex: "hex",
    rounded: "rounded",
    slug: "slug",
    score_pad: "score-pad",
    board: "board",
}

#[test]
fn every_reference_has_a_case_and_every_fixture_a_reference() {
    let names: Vec<String> = CASES.iter().map(|(b, w, _)| format!("{b}-{w}.png")).collect();
    for entry in std::fs::read_dir(references()).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            names.contains(&file),
            "tests/golden/behaviours/{file} is no case's reference: remove it or add its case"
        );
    }
    for entry in std::fs::read_dir(repo().join("tests/behaviours")).unwrap() {
        let fixture = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            CASES.iter().any(|(b, _, _)| *b == fixture),
            "tests/behaviours/{fixture} has no case"
        );
    }
    for (behaviour, _, _) in CASES {
        assert!(
            TESTED.contains(behaviour),
            "behaviour `{behaviour}` has no #[test] in behaviours!"
        );
    }
}

/// The tolerance is tight enough for its purpose: one letter changed in the smallest text
/// of a fixture fails its comparison, in the preview and in the PDF alike.
#[test]
fn one_changed_letter_fails_the_comparison() {
    for (behaviour, file, from, to, cases) in [
        (
            "bold-italic",
            "cards.csv",
            "A second line.",
            "A second lime.",
            ["bold-italic-preview", "bold-italic-pdf"],
        ),
        ("score-pad", "pad.csv", "Round 2", "Round 3", ["score-pad-preview", "score-pad-pdf"]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join(behaviour);
        copy_dir(&fixture(behaviour), &copy);
        edit(&copy, file, from, to);
        for name in cases {
            let (_, _, source) = CASES.iter().find(|(b, w, _)| format!("{b}-{w}") == name).unwrap();
            let bad = differing(name, &draw(&copy, source), false);
            eprintln!(
                "{name}: `{from}` → `{to}` changes {bad} pixels (tolerance {PIXEL_TOLERANCE})"
            );
            assert!(bad > PIXEL_TOLERANCE, "{name}: `{from}` → `{to}` changed only {bad} pixels");
        }
    }
}
