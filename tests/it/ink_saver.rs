//! `build --ink-saver`: a variant whose templates see `print.ink_saver` and leave out
//! full-bleed backgrounds and dark fills, written beside the full-colour files as
//! `…-inksaver`. The ink is measured on the pages with Ghostscript's `inkcov` device.

use std::collections::HashMap;
use std::path::Path;

use crate::common::{build, deckpress, edit, ink_coverage, new_game, poppler, repo, stderr};

/// Every PDF of a game's folder, by name.
fn pdfs(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdf"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_built_in_game_prints_with_clearly_less_ink_and_both_variants_share_a_folder() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    for extra in [None, Some("--ink-saver")] {
        let mut args = vec!["build", "--all", "--out", dir];
        args.extend(extra);
        let run = deckpress(&args, &repo());
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    }
    let mut games: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    games.sort();
    assert_eq!(games, ["anti-trump", "track", "trash", "travfuda", "trumpet"]);
    for game in &games {
        let folder = out.path().join(game);
        let names = pdfs(&folder);
        let full: Vec<&String> = names.iter().filter(|n| !n.contains("-inksaver")).collect();
        assert!(!full.is_empty(), "{game}: no full-colour PDF left beside the ink saver's");
        let pairs: Vec<(&String, String)> =
            full.iter().map(|name| (*name, name.replace(".pdf", "-inksaver.pdf"))).collect();
        for (name, saver) in &pairs {
            assert!(names.contains(saver), "{game}: {name} has no {saver} beside it: {names:?}");
        }
        // The ink each file's pages take, summed over them: one Ghostscript for the game.
        let measured: Vec<&str> =
            pairs.iter().flat_map(|(name, saver)| [name.as_str(), saver.as_str()]).collect();
        let files: Vec<_> = measured.iter().map(|name| folder.join(name)).collect();
        let ink: HashMap<&str, f64> = measured
            .iter()
            .zip(ink_coverage(&files))
            .map(|(name, pages)| (*name, pages.iter().map(|p| p.iter().sum::<f64>()).sum()))
            .collect();
        let ink = |name: &str| -> f64 {
            *ink.get(name).unwrap_or_else(|| panic!("{game}: no {name} was measured: {names:?}"))
        };
        let (mut full_ink, mut saver_ink) = (0.0, 0.0);
        for (name, saver) in &pairs {
            let (a, b) = (ink(name), ink(saver));
            // No piece takes more ink to save ink.
            assert!(b <= a * 1.01, "{saver} takes {b:.3} of ink, {name} {a:.3}");
            full_ink += a;
            saver_ink += b;
        }
        // The decks are most of the ink: each game's cards clearly less, and the whole game.
        let cards = format!("{game}-cards-a4.pdf");
        let (a, b) = (ink(&cards), ink(&format!("{game}-cards-a4-inksaver.pdf")));
        assert!(b < a * 0.8, "{game}'s cards: {b:.2} of ink with --ink-saver, {a:.2} without");
        assert!(
            saver_ink < full_ink * 0.8,
            "{game}: {saver_ink:.2} of ink with --ink-saver, {full_ink:.2} without"
        );
    }
}

#[test]
fn a_template_that_ignores_the_flag_prints_the_same_bytes() {
    let (_dir, cat) = new_game();
    let (plain, run) = build(&cat, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let (saver, run) = build(&cat, &["--ink-saver"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let a = std::fs::read(plain.path().join("game/game-cards-a4.pdf")).unwrap();
    let b = std::fs::read(saver.path().join("game/game-cards-a4-inksaver.pdf")).unwrap();
    assert!(a == b, "the starter's templates ignore print.ink_saver, yet the PDFs differ");
}

#[test]
fn templates_see_print_ink_saver() {
    let (_dir, cat) = new_game();
    edit(
        &cat,
        "templates/back.svg",
        "{{ game.name }}</text>",
        "{{ 'SAVING' if print.ink_saver else 'COLOUR' }}</text>",
    );
    for (args, file, word) in [
        (&[][..], "game-cards-a4.pdf", "COLOUR"),
        (&["--ink-saver"][..], "game-cards-a4-inksaver.pdf", "SAVING"),
    ] {
        let (out, run) = build(&cat, args);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let pdf = out.path().join("game").join(file);
        let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
        assert!(text.contains(word), "{file} should print {word} on its backs: {text}");
    }
}
