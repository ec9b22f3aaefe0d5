//! Every command runs one plan of a game's documents: each game is loaded once per command,
//! whatever it makes (counted from the `DECKPRESS_DEBUG=load` trace, a line per load), and
//! `preview` and `watch` draw their pictures by executing the plan's documents into the
//! raster sink (the `DECKPRESS_DEBUG=plan` trace, a line per document executed).

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

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
    let mut watch = Watching::start(
        &[cat.to_str().unwrap(), "--pdf", "--out", out.path().to_str().unwrap()],
        Some("load"),
        out.path().join("watch.log"),
    );
    // The first round is over when it lists the PDFs it wrote.
    watch.wait_for("the PDFs", Duration::from_secs(60), || {
        watch.said().lines().any(|l| l.ends_with("travfuda-cards-a4.pdf"))
    });
    watch.stop();
    let said = watch.said();
    let loads = said.lines().filter(|l| l.starts_with("deckpress: loading ")).count();
    assert_eq!(loads, 1, "previews and PDFs from one load:\n{said}");
}

/// The documents a command executed, each with the sink it ran into, from the
/// `DECKPRESS_DEBUG=plan` trace (a line per document): `(FILE, SINK)`.
fn executed(said: &str) -> Vec<(String, String)> {
    said.lines()
        .filter_map(|l| l.strip_prefix("deckpress: executing "))
        .filter_map(|l| l.rsplit_once(" into "))
        .map(|(file, sink)| (file.to_string(), sink.to_string()))
        .collect()
}

/// The folders under `dir` that hold PNGs, relative to `dir`'s parent's parent
/// (`travfuda/preview/cards`), as the trace names documents.
fn picture_folders(dir: &std::path::Path) -> std::collections::BTreeSet<String> {
    let out = dir.parent().unwrap().parent().unwrap();
    let mut folders = std::collections::BTreeSet::new();
    for entry in dir.read_dir().unwrap().flatten().filter(|e| e.path().is_dir()) {
        let pngs = entry.path().read_dir().unwrap().flatten();
        if pngs.into_iter().any(|f| f.path().extension().is_some_and(|e| e == "png")) {
            let folder = entry.path().strip_prefix(out).unwrap().to_string_lossy().into_owned();
            folders.insert(folder);
        }
    }
    folders
}

/// Every folder of pictures in `dir` was a document of the plan run into the raster
/// sink's picture mode, and nothing went into another sink.
fn drawn_by_the_raster_sink(dir: &std::path::Path, said: &str, what: &str) {
    let documents = executed(said);
    let pictured: std::collections::BTreeSet<String> = documents
        .iter()
        .filter(|(_, sink)| sink == "raster pictures")
        .map(|(file, _)| file.clone())
        .collect();
    let folders = picture_folders(dir);
    assert!(folders.len() >= 3, "{what}: the decks' and sheets' folders: {folders:?}");
    assert_eq!(pictured, folders, "{what}: each folder of pictures is a document:\n{said}");
    assert!(documents.iter().all(|(_, sink)| sink.starts_with("raster")), "{what}: {documents:?}");
}

/// `deckpress preview ARGS --out OUT -q` with the `DECKPRESS_DEBUG=plan` trace: what it
/// said on stderr.
fn traced_preview(args: &[&str], out: &std::path::Path) -> String {
    let run = Command::new(env!("CARGO_BIN_EXE_deckpress"))
        .arg("preview")
        .args(args)
        .args(["--out", out.to_str().unwrap(), "-q"])
        .current_dir(repo())
        .env("DECKPRESS_DEBUG", "plan")
        .output()
        .expect("the binary runs");
    assert_eq!(run.status.code(), Some(0), "{args:?}: {}", stderr(&run));
    stderr(&run)
}

#[test]
fn preview_draws_its_pictures_by_executing_the_plan_into_the_raster_sink() {
    let out = tempfile::tempdir().unwrap();
    let said = traced_preview(&["travfuda"], out.path());
    let dir = out.path().join("travfuda/preview");
    drawn_by_the_raster_sink(&dir, &said, "preview");
    // The box flats and label sheets are pages of the plan drawn by the same sink.
    let pages = executed(&said).into_iter().filter(|(_, sink)| sink == "raster").count();
    let flats = dir.join("sheets").read_dir().unwrap().count();
    assert!(pages >= 1 && pages < flats, "{pages} pages of {flats} sheet pictures");

    // `--card`: the same documents, cut down to that card's pictures.
    let one = tempfile::tempdir().unwrap();
    let said = traced_preview(&["travfuda", "--card", "3-double"], one.path());
    let dir = one.path().join("travfuda/preview");
    let cards = ("travfuda/preview/cards".to_string(), "raster pictures".to_string());
    assert!(executed(&said).contains(&cards), "{said}");
    assert_eq!(picture_folders(&dir).into_iter().collect::<Vec<_>>(), [cards.0]);
    let drawn: Vec<_> =
        dir.join("cards").read_dir().unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(drawn, ["3-double.png"], "that card alone");
}

#[test]
fn watch_draws_through_the_raster_sink_and_keeps_what_it_drew_across_rebuilds() {
    let (_guard, cat) = copy_catalogue("travfuda");
    let out = tempfile::tempdir().unwrap();
    let mut watch = Watching::start(
        &[cat.to_str().unwrap(), "--out", out.path().to_str().unwrap()],
        Some("plan"),
        out.path().join("watch.log"),
    );
    // "travfuda: N pictures drawn, M unchanged in T s", one per rebuild.
    let reports = |said: &str| -> Vec<String> {
        said.lines().filter(|l| l.contains(" drawn, ")).map(str::to_string).collect()
    };
    let wait = |n: usize| {
        watch.wait_for(&format!("rebuild {n}"), Duration::from_secs(60), || {
            reports(&watch.said()).len() >= n
        })
    };
    wait(1);
    let first = watch.said();
    // The same file saved again: a rebuild that draws nothing, its pictures kept.
    let game_toml = cat.join("game.toml");
    std::fs::write(&game_toml, std::fs::read(&game_toml).unwrap()).unwrap();
    wait(2);
    watch.stop();
    let said = watch.said();
    let dir = out.path().join("travfuda/preview");
    drawn_by_the_raster_sink(&dir, &first, "watch's first build");
    drawn_by_the_raster_sink(&dir, &said[first.len()..], "watch's rebuild");
    let last = reports(&said).pop().unwrap();
    assert!(last.contains(": 0 pictures drawn, "), "nothing redrawn: {last}\n{said}");
}
