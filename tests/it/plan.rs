//! Every command runs one plan of a game's documents: each game is loaded once per command,
//! whatever it makes (counted from the `DECKPRESS_DEBUG=load` trace, a line per load).

use std::collections::BTreeMap;
use std::process::Command;

use crate::common::*;

/// How many times each catalogue was loaded by `deckpress ARGS`, by its folder.
fn loads(args: &[&str]) -> BTreeMap<String, usize> {
    let run = Command::new(env!("CARGO_BIN_EXE_deckpress"))
        .args(args)
        .current_dir(repo())
        .env("DECKPRESS_DEBUG", "load")
        .output()
        .expect("the binary runs");
    let err = stderr(&run);
    assert!(run.status.code().is_some_and(|c| c <= 1), "{args:?}: {err}");
    let mut counted = BTreeMap::new();
    for line in err.lines().filter_map(|l| l.strip_prefix("deckpress: loading ")) {
        *counted.entry(line.to_string()).or_insert(0) += 1;
    }
    counted
}

/// Each of `games` loaded exactly once.
fn once_each(counted: &BTreeMap<String, usize>, games: usize, what: &str) {
    assert_eq!(counted.len(), games, "{what}: the games loaded: {counted:?}");
    assert!(counted.values().all(|&n| n == 1), "{what}: each game once: {counted:?}");
}

#[test]
fn build_and_validate_load_each_game_once() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let games = crate::common::repo().join("catalogues").read_dir().unwrap().count();
    once_each(&loads(&["build", "--all", "--paper", "a4,letter", "--out", o]), games, "build");
    once_each(&loads(&["validate", "--all"]), games, "validate");
    // Cards for a print service, and a home reprint, are one plan too.
    once_each(&loads(&["build", "trumpet", "--for", "pdf-cards", "--out", o]), 1, "--for");
    let since = out.path().join("travfuda");
    let since = since.to_str().unwrap();
    let reprint = loads(&["build", "travfuda", "--changed-since", since, "--out", o]);
    once_each(&reprint, 1, "--changed-since");
}

#[test]
fn preflight_loads_a_game_of_seven_decks_once() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    // Trumpet has seven decks: preflight checks each, from the one game loaded.
    let counted = loads(&["preflight", "trumpet", "--for", "pdf-cards", "--out", o]);
    once_each(&counted, 1, "preflight");
}

#[test]
fn preview_loads_a_game_once() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    once_each(&loads(&["preview", "travfuda", "--out", o, "-q"]), 1, "preview");
    once_each(&loads(&["preview", "travfuda", "--card", "3-double", "--out", o]), 1, "--card");
}

#[test]
fn watch_with_pdfs_builds_them_from_the_game_its_previews_loaded() {
    let (_guard, cat) = copy_catalogue("travfuda");
    let out = tempfile::tempdir().unwrap();
    let log_path = out.path().join("watch.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckpress"))
        .args(["watch", cat.to_str().unwrap(), "--pdf", "--out", out.path().to_str().unwrap()])
        .env("DECKPRESS_DEBUG", "load")
        .stdin(std::process::Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    // The first round is over when it lists the PDFs it wrote.
    let said = || std::fs::read_to_string(&log_path).unwrap_or_default();
    let start = std::time::Instant::now();
    while !said().lines().any(|l| l.ends_with("travfuda-cards-a4.pdf")) {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("no PDFs after 60 s; watch said:\n{}", said());
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    let loads = said().lines().filter(|l| l.starts_with("deckpress: loading ")).count();
    assert_eq!(loads, 1, "previews and PDFs from one load:\n{}", said());
}
