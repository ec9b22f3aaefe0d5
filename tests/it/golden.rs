//! Golden images, the resvg way: a few cards of every deck of every built-in game (the
//! first, the middle and the last design, and the back) are drawn at 40 dpi and compared
//! with references checked in under tests/golden/, with a small tolerance. A template
//! change that breaks art fails here. When a change is meant, look at the pictures
//! written to target/golden/ and regenerate deliberately:
//!
//! ```sh
//! DECKPRESS_BLESS=1 cargo test --test it -- golden::
//! ```

use std::path::{Path, PathBuf};

use deckpress::render::{pieces, Request};
use resvg::tiny_skia::Pixmap;

use crate::common::differing_pixels;

const DPI: u32 = 40;
/// A channel may differ by this much (anti-aliasing across machines)…
const CHANNEL_TOLERANCE: u8 = 3;
/// …and this share of pixels may differ by more.
const PIXEL_TOLERANCE: f64 = 0.002;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// (reference name, picture) for the chosen cards of one game.
fn pictures(game: &str) -> Vec<(String, Pixmap)> {
    let world = deckpress::games::builtin(game).expect("built-in game");
    let cat = deckpress::load::load(&world, &deckpress::world::World::templates()).expect("loads");
    let chosen = |deck: &deckpress::model::Deck, row: &deckpress::model::Row| {
        let i = deck.rows.iter().position(|r| r.id == row.id).unwrap();
        let n = deck.rows.len();
        i == 0 || i == n / 2 || i == n - 1
    };
    let drawn = pieces(
        &cat,
        &Request {
            wanted: &chosen,
            rows: None,
            back_rows: None,
            shared_back: &|_| true,
            sheet_sizes: None,
            players: 2,
            lang: None,
            drawn_before: None,
        },
    );
    assert!(drawn.problems.iter().all(|d| !d.is_error()), "{game}: {:?}", drawn.problems);
    let mut out = Vec::new();
    for (deck, art) in cat.decks.iter().zip(&drawn.decks) {
        let (w, h) = deckpress::export::raster::pixel_size(deck.width, deck.height, DPI).unwrap();
        for (i, face) in &art.faces {
            let row = &deck.rows[*i];
            if let Some(tree) = face.tree.as_ref() {
                out.push((
                    format!("{game}-{}-{}", deck.id, row.id),
                    deckpress::export::raster::draw(tree, (deck.width, deck.height), w, h).unwrap(),
                ));
            }
        }
        if let Some(tree) = art.backs.iter().find_map(|(_, p)| p.tree.as_ref()) {
            out.push((
                format!("{game}-{}-back", deck.id),
                deckpress::export::raster::draw(tree, (deck.width, deck.height), w, h).unwrap(),
            ));
        }
    }
    out
}

fn check(game: &str) {
    let bless = std::env::var_os("DECKPRESS_BLESS").is_some();
    let failures_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/golden");
    let mut failures = Vec::new();
    let pictures = pictures(game);
    assert!(pictures.len() >= 3, "{game}: too few pictures");
    for (name, actual) in pictures {
        let reference = golden_dir().join(format!("{name}.png"));
        if bless {
            std::fs::create_dir_all(golden_dir()).unwrap();
            actual.save_png(&reference).unwrap();
            continue;
        }
        let Ok(expected) = Pixmap::load_png(&reference) else {
            failures.push(format!(
                "{name}: no reference {} (run with DECKPRESS_BLESS=1 to make it)",
                reference.display()
            ));
            continue;
        };
        let size_ok = (expected.width(), expected.height()) == (actual.width(), actual.height());
        let (bad, diff) = if size_ok {
            differing_pixels(&actual, &expected, CHANNEL_TOLERANCE)
        } else {
            (usize::MAX, actual.clone())
        };
        let share = bad as f64 / (actual.width() * actual.height()) as f64;
        if !size_ok || share > PIXEL_TOLERANCE {
            std::fs::create_dir_all(&failures_dir).unwrap();
            actual.save_png(failures_dir.join(format!("{name}-actual.png"))).unwrap();
            diff.save_png(failures_dir.join(format!("{name}-diff.png"))).unwrap();
            let what = if size_ok {
                format!("{:.2}% of pixels differ", share * 100.0)
            } else {
                "the size differs".to_string()
            };
            failures.push(format!(
                "{name}: {what}; see {}/{name}-actual.png and -diff.png",
                failures_dir.display()
            ));
        }
    }
    assert!(failures.is_empty(), "golden images differ:\n{}\nif the change is meant: DECKPRESS_BLESS=1 cargo test --test it -- golden::", failures.join("\n"));
}

#[test]
fn travfuda_cards_look_as_they_did() {
    check("travfuda");
}

#[test]
fn trumpet_cards_look_as_they_did() {
    check("trumpet");
}

#[test]
fn anti_trump_cards_look_as_they_did() {
    check("anti-trump");
}

#[test]
fn track_cards_look_as_they_did() {
    check("track");
}

#[test]
fn trash_cards_look_as_they_did() {
    check("trash");
}
