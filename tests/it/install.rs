//! One binary that works anywhere: the built-in games, shared templates and fonts are
//! inside it; `new` starts a game that builds at once; completions and `--version`.

use std::process::Command;

use crate::common::*;

/// The binary copied away from the source tree, run from an unrelated folder with no
/// development overrides: what `cargo install` users and anyone copying it get.
#[test]
fn a_copied_binary_builds_every_game_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin/deckpress");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_deckpress"), &bin).unwrap();
    let work = dir.path().join("elsewhere");
    std::fs::create_dir_all(&work).unwrap();
    let run = |args: &[&str]| {
        // Another test's child, forked while the copy was still open for writing, may hold
        // it open for a moment: exec then fails with "text file busy" (ETXTBSY), a race of
        // the test process, not of deckpress. Try again a few times.
        let mut tries = 0;
        loop {
            let output = Command::new(&bin)
                .args(args)
                .current_dir(&work)
                .env_remove("DECKPRESS_CATALOGUES")
                .env_remove("DECKPRESS_TEMPLATES")
                .output();
            match output {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => break other.unwrap(),
            }
        }
    };
    let list = run(&["list"]);
    let ids: Vec<String> = stdout(&list)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect();
    assert_eq!(ids, ["anti-trump", "track", "trash", "travfuda", "trumpet"], "{}", stderr(&list));
    let build = run(&["build", "--all", "--out", "out"]);
    assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
    for game in ids {
        let pdfs = std::fs::read_dir(work.join("out").join(&game)).unwrap().count();
        assert!(pdfs >= 1, "{game} wrote no PDF");
    }
    // TravFuda's art files come from inside the binary too.
    let pdf = work.join("out/travfuda/travfuda-cards-a4.pdf");
    let images = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    assert!(
        images.lines().any(|l| l.contains(" 816  1111 ")),
        "the back texture is drawn: {images}"
    );
}

#[test]
fn new_writes_a_game_that_validates_and_builds_in_an_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    let made = deckpress(&["new", "demo"], dir.path());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    for file in ["game.toml", "cards.csv", "templates/face.svg", "templates/back.svg"] {
        assert!(dir.path().join("demo").join(file).is_file(), "{file}");
    }
    let build = deckpress(&["build", "demo/", "--out", "out"], dir.path());
    assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
    let pdf = dir.path().join("out/demo/demo-cards-a4.pdf");
    assert_eq!(pages(&pdf), 2, "8 cards: one front page and its back");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("Full Moon") && text.contains("My Game"), "{text}");
    // The starter has one rule and a deal table: breaking the rule is caught.
    crate::common::edit(&dir.path().join("demo"), "cards.csv", "moon-3,2,", "moon-3,3,");
    let err = invalid(&dir.path().join("demo"));
    assert!(err.contains("rule \"each suit has four cards\" failed for suit `Moon`"), "{err}");
}

#[test]
fn new_starts_from_the_french_deck_or_a_built_in_game_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    for (folder, from, summary) in [
        ("cards", "french", "cards: valid — 52 cards"),
        ("My Trav", "travfuda", "my-trav: valid — 62 cards"),
    ] {
        let made = deckpress(&["new", folder, "--from", from], dir.path());
        assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
        let valid = deckpress(&["validate", folder], dir.path());
        assert!(stdout(&valid).starts_with(summary), "{}{}", stdout(&valid), stderr(&valid));
    }
    let again = deckpress(&["new", "cards"], dir.path());
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("exists and is not empty"), "{}", stderr(&again));
    let unknown = deckpress(&["new", "x", "--from", "chess"], dir.path());
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("`blank`, `french`, `score-pad`, `anti-trump`"),
        "{}",
        stderr(&unknown)
    );
}

/// A new game from each starting point passes every command under `--strict`: its
/// rulebook is there and counts from the data. Without rules.md, a game of cards alone is
/// no mistake: validate and bundle pass under --strict, bundle says it has no rules, and
/// `rules` has nothing to typeset.
#[test]
fn a_new_game_has_a_rulebook_that_counts_from_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    for from in ["blank", "french", "score-pad"] {
        let made = deckpress(&["new", from, "--from", from], dir.path());
        assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
        for args in [
            vec!["validate", from, "--strict"],
            vec!["rules", from, "--strict", "--out", out],
            vec!["bundle", from, "--strict", "--out", out],
        ] {
            let run = deckpress(&args, dir.path());
            assert_eq!(run.status.code(), Some(0), "{args:?}: {}", stderr(&run));
        }
    }
    // Its numbers follow the data: one more Moon card, one more in the rulebook.
    let rules = |dir: &std::path::Path| {
        let run = deckpress(&["rules", "blank", "--out", out], dir);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        poppler("pdftotext", &[&format!("{out}/blank/blank-rules-a4.pdf"), "-"])
    };
    let text = rules(dir.path());
    assert!(text.contains("8 cards in 2 suits: 4 Sun, 4 Moon."), "{text}");
    crate::common::edit(&dir.path().join("blank"), "cards.csv", "moon-3,2,", "moon-3,3,");
    crate::common::edit(&dir.path().join("blank"), "game.toml", "count = 4", "at_least = 4");
    let text = rules(dir.path());
    assert!(text.contains("9 cards in 2 suits: 4 Sun, 5 Moon."), "{text}");
    // The twin without rules.md.
    std::fs::remove_file(dir.path().join("blank/rules.md")).unwrap();
    let validate = deckpress(&["validate", "blank", "--strict"], dir.path());
    assert_eq!(validate.status.code(), Some(0), "{}", stderr(&validate));
    let bundle = deckpress(&["bundle", "blank", "--strict", "--out", out], dir.path());
    assert_eq!(bundle.status.code(), Some(0), "{}", stderr(&bundle));
    assert!(stdout(&bundle).contains("the bundle has no rules"), "{}", stdout(&bundle));
    let rules = deckpress(&["rules", "blank", "--out", out], dir.path());
    assert_eq!(rules.status.code(), Some(2), "{}", stderr(&rules));
}

#[test]
fn completions_print_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = deckpress(&["completions", shell], &repo());
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(
            script.contains("deckpress")
                && script.contains("validate")
                && script.contains("--paper"),
            "{shell}: {script}"
        );
    }
}

#[test]
fn version_names_the_commit() {
    let out = deckpress(&["--version"], &repo());
    let version = stdout(&out);
    let head =
        Command::new("git").args(["rev-parse", "--short=10", "HEAD"]).current_dir(repo()).output();
    match head {
        Ok(head) if head.status.success() => {
            let commit = String::from_utf8_lossy(&head.stdout).trim().to_string();
            assert!(version.contains(&commit), "{version} should name {commit}");
        }
        _ => assert!(version.contains("commit unknown"), "{version}"),
    }
}

/// Cargo.toml says MIT OR Apache-2.0: both texts are at the root, and every bundled ICC
/// profile has its source, maker, licence and required credit written down.
#[test]
fn the_licences_and_every_bundled_profiles_provenance_are_in_the_repository() {
    let mit = std::fs::read_to_string(repo().join("LICENSE-MIT")).unwrap();
    assert!(mit.starts_with("MIT License") && mit.contains("WITHOUT WARRANTY"));
    let apache = std::fs::read_to_string(repo().join("LICENSE-APACHE")).unwrap();
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"), "the whole text");
    let notes = std::fs::read_to_string(repo().join("profiles/README.md")).unwrap();
    for entry in std::fs::read_dir(repo().join("profiles")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".icc") {
            assert!(notes.contains(&format!("`{name}`")), "profiles/README.md names {name}");
        }
    }
    // TR 003's data asks to be identified as the source of any profile made from it.
    assert!(notes.contains("ANSI/CGATS/SWOP TR 003-2007"), "{notes}");
    assert!(notes.contains("Fogra") && notes.contains("zlib"), "{notes}");
}

/// The README's table of built-in games is what `deckpress list` prints from each game's
/// data: its counts are never typed, so a change to a deck cannot leave them stale.
#[test]
fn the_readmes_games_are_what_list_prints() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let section = readme.split("## Built-in games").nth(1).expect("README has its games");
    let rows: Vec<String> = section
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            format!("{:<12} {}", cells[0].trim_matches('`'), cells[1])
        })
        .collect();
    let list = deckpress(&["list"], &repo());
    assert!(list.status.success(), "{}", stderr(&list));
    let listed: Vec<String> =
        String::from_utf8_lossy(&list.stdout).lines().map(str::to_string).collect();
    assert_eq!(rows, listed, "README's table of built-in games against `deckpress list`");
}
