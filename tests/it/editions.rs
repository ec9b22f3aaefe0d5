//! Rulebooks and bundles in the game's languages (issue #48, part 6): `rules.LANG.md`
//! beside `rules.md`, and `bundle --lang L` wholly in L (cover, print guide, rulebook,
//! component names, bookmarks, page labels, footer), read back from the PDF with
//! pdftotext and qpdf. A fallback to English is a warning naming the language.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::*;

/// Sentences of the English print guide and cover: none may print in another edition.
const ENGLISH: &[&str] = &[
    "How to print",
    "actual size",
    "Measure this bar",
    "measure this",
    "What to print",
    "Cover and this guide",
    "single-sided",
    "double-sided",
    "Cut and fold",
    "crop marks",
    "In this file",
    "How many",
    "print and play",
    "players",
    "full colour",
];

const RULES_EN: &str = "# Rules\n\n## Setup\n\nShuffle the deck and deal {{ deals[0].hand }} cards to each player.\n\n## Play\n\nPlay one card a turn.\n";
const RULES_FR: &str = "# Règles\n\n## Mise en place\n\nMélangez le paquet et distribuez {{ deals[0].hand }} cartes à chaque joueur.\n\n## Jeu\n\nJouez une carte par tour.\n";

/// The starter game with a `LANG` edition: its name, description and deck's name, and
/// an English rules.md.
fn game_in(lang: &str, name: &str, description: &str, deck: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    append(
        &cat,
        "game.toml",
        &format!("\n[lang.{lang}.game]\nname = \"{name}\"\ndescription = \"{description}\"\n\n[lang.{lang}.names]\ncards = \"{deck}\"\n"),
    );
    std::fs::write(cat.join("rules.md"), RULES_EN).unwrap();
    (dir, cat)
}

fn french_game() -> (tempfile::TempDir, PathBuf) {
    game_in("fr", "Mon Jeu", "Deux couleurs de quatre cartes", "Cartes de Mon Jeu")
}

/// `deckpress ARGS CATALOGUE --out OUT` beside the catalogue: the run and the out folder.
fn run(catalogue: &Path, args: &[&str]) -> (Output, PathBuf) {
    let out = catalogue.parent().unwrap().join("out");
    let mut all: Vec<&str> = args.to_vec();
    all.extend([catalogue.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    (deckpress(&all, catalogue.parent().unwrap()), out)
}

fn exit_code(run: &Output) -> Option<i32> {
    assert!(!stderr(run).contains("panicked"), "{}", stderr(run));
    run.status.code()
}

/// The bundle's bookmarks, each title with those under it, from `qpdf --json`.
fn bookmarks(pdf: &Path) -> Vec<(String, Vec<String>)> {
    let json = qpdf(pdf, "outlines");
    let titles = |list: &serde_json::Value| -> Vec<String> {
        list.as_array()
            .map(|l| l.iter().filter_map(|o| o["title"].as_str().map(String::from)).collect())
            .unwrap_or_default()
    };
    let top = json["outlines"].as_array().expect("the bundle has bookmarks").clone();
    top.iter()
        .map(|o| {
            // A rulebook's `#` heading is one mark, its `##` sections under it.
            let mut under = titles(&o["kids"]);
            if let Some(kids) = o["kids"][0]["kids"].as_array() {
                under.extend(kids.iter().filter_map(|k| k["title"].as_str().map(String::from)));
            }
            (o["title"].as_str().unwrap_or_default().to_string(), under)
        })
        .collect()
}

/// The prefixes of the bundle's page-label ranges, from `qpdf --json`.
fn label_prefixes(pdf: &Path) -> Vec<String> {
    let json = qpdf(pdf, "pagelabels");
    json["pagelabels"]
        .as_array()
        .expect("the bundle has page labels")
        .iter()
        .map(|l| l["label"]["/P"].as_str().unwrap_or("").trim_start_matches("u:").to_string())
        .collect()
}

fn qpdf(pdf: &Path, key: &str) -> serde_json::Value {
    let out = Command::new("qpdf")
        .args(["--json", &format!("--json-key={key}"), pdf.to_str().unwrap()])
        .output()
        .expect("qpdf is needed (apt-get install qpdf)");
    serde_json::from_slice(&out.stdout).expect("qpdf writes JSON")
}

fn has(text: &str, phrase: &str, what: &str) {
    assert!(text.contains(phrase), "{what} lacks `{phrase}`:\n{text}");
}

/// The text of a bundle without the components' slug lines (the build's printer's marks,
/// as `build --lang` prints them, in English: not the bundle's pages).
fn without_slugs(pdf: &Path) -> String {
    words(&without_slug(&raw_text(pdf)))
}

fn no_english(text: &str, what: &str) {
    for english in ENGLISH {
        assert!(!text.contains(english), "{what} prints the English `{english}`:\n{text}");
    }
}

fn cyrillic(s: &str) -> bool {
    s.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c))
}

#[test]
fn a_french_bundle_is_wholly_french() {
    let (_dir, cat) = french_game();
    std::fs::write(cat.join("rules.fr.md"), RULES_FR).unwrap();
    let (bundle, out) = run(&cat, &["bundle", "--lang", "fr", "--strict"]);
    assert_eq!(exit_code(&bundle), Some(0), "{}", stderr(&bundle));
    let pdf = out.join("game/game-pnp-a4-fr.pdf");
    let cover = words_of(&pdf, Some(1));
    for phrase in [
        "Mon Jeu",
        "Deux couleurs de quatre cartes",
        "2–4 joueurs",
        "Dans ce fichier",
        "Élément Quantité Pages",
        "Cartes de Mon Jeu 8 cartes",
    ] {
        has(&cover, phrase, "the cover");
    }
    let guide = words_of(&pdf, Some(2));
    for phrase in [
        "Comment imprimer",
        "taille réelle (100 %)",
        "Quoi imprimer",
        "Couverture et ce guide",
        "recto verso",
        "Découper et plier",
        "Mon Jeu · à imprimer et jouer",
    ] {
        has(&guide, phrase, "the print guide");
    }
    let all = words_of(&pdf, None);
    has(&all, "Mélangez le paquet et distribuez 3 cartes à chaque joueur.", "the bundle");
    assert!(!all.contains("Shuffle the deck"), "the English rulebook printed:\n{all}");
    no_english(&without_slugs(&pdf), "the French bundle");
    let marks = bookmarks(&pdf);
    let top: Vec<&str> = marks.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(top, ["Couverture", "Comment imprimer", "Règles", "Cartes de Mon Jeu"]);
    assert_eq!(marks[2].1, ["Règles", "Mise en place", "Jeu"], "{marks:?}");
    // The deck starts on a front: the page left blank before it says so in French.
    assert_eq!(label_prefixes(&pdf), ["", "Règles ", "Blanche ", "Cartes de Mon Jeu "]);
    has(&all, "Cette page est laissée blanche intentionnellement.", "the blank page");
    assert!(!all.contains("intentionally blank"), "{all}");
    has(&pdf_info(&pdf), "Mon Jeu — à imprimer et jouer", "the PDF's title");

    // `rules --lang fr` prints rules.fr.md too, labelled in French.
    let (rules, out) = run(&cat, &["rules", "--lang", "fr", "--strict"]);
    assert_eq!(exit_code(&rules), Some(0), "{}", stderr(&rules));
    let pdf = out.join("game/game-rules-a4-fr.pdf");
    has(&words_of(&pdf, None), "Jouez une carte par tour.", "the French rulebook");
    assert_eq!(label_prefixes(&pdf), ["Règles "]);
    has(&pdf_info(&pdf), "Mon Jeu — Règles", "the rulebook's title");
    // Its booklet's sheet sides are labelled in French too.
    let (booklet, out) = run(&cat, &["rules", "--lang", "fr", "--booklet", "--strict"]);
    assert_eq!(exit_code(&booklet), Some(0), "{}", stderr(&booklet));
    let pdf = out.join("game/game-rules-booklet-a4-fr.pdf");
    assert_eq!(label_prefixes(&pdf), ["Côté de feuille "]);
}

#[test]
fn a_language_without_its_rulebook_prints_rules_md_with_a_warning_naming_it() {
    let (_dir, cat) = french_game();
    let (bundle, out) = run(&cat, &["bundle", "--lang", "fr"]);
    let err = stderr(&bundle);
    assert_eq!(exit_code(&bundle), Some(0), "{err}");
    assert!(err.contains("`fr`") && err.contains("rules.fr.md"), "{err}");
    let all = words_of(&out.join("game/game-pnp-a4-fr.pdf"), None);
    has(&all, "Shuffle the deck", "the bundle printed from rules.md");

    let (strict, _) = run(&cat, &["bundle", "--lang", "fr", "--strict"]);
    let err = stderr(&strict);
    assert_eq!(exit_code(&strict), Some(1), "{err}");
    assert!(err.contains("`fr`") && err.contains("rules.fr.md"), "{err}");
    let (rules, _) = run(&cat, &["rules", "--lang", "fr", "--strict"]);
    assert_eq!(exit_code(&rules), Some(1), "{}", stderr(&rules));
    assert!(stderr(&rules).contains("rules.fr.md"), "{}", stderr(&rules));
}

#[test]
fn a_rulebook_in_a_language_the_game_lacks_is_a_warning_at_its_file() {
    let (_dir, cat) = french_game();
    std::fs::write(cat.join("rules.fr.md"), RULES_FR).unwrap();
    std::fs::write(cat.join("rules.de.md"), "# Regeln\n\nMischen.\n").unwrap();
    let (rules, _) = run(&cat, &["rules", "--lang", "fr"]);
    let err = stderr(&rules);
    assert_eq!(exit_code(&rules), Some(0), "{err}");
    assert!(err.contains("rules.de.md") && err.contains("`de`"), "{err}");
    let (strict, _) = run(&cat, &["rules", "--strict"]);
    assert_eq!(exit_code(&strict), Some(1), "{}", stderr(&strict));
}

#[test]
fn a_mistake_in_a_languages_rulebook_is_reported_at_its_own_file() {
    let (_dir, cat) = french_game();
    std::fs::write(
        cat.join("rules.fr.md"),
        "# Règles\n\nDistribuez {{ deals[0].hand }} cartes\nà {{ joueurz }} joueurs.\n",
    )
    .unwrap();
    let (rules, _) = run(&cat, &["rules", "--lang", "fr"]);
    let err = stderr(&rules);
    assert_eq!(exit_code(&rules), Some(1), "{err}");
    assert!(err.contains("rules.fr.md:4:6"), "the name is at line 4, column 6: {err}");
    // Without --lang the English rulebook prints, untouched by the French one's mistake.
    let (plain, _) = run(&cat, &["rules"]);
    assert_eq!(exit_code(&plain), Some(0), "{}", stderr(&plain));
}

#[test]
fn a_language_deckpress_has_no_words_in_is_a_warning_naming_it() {
    let (_dir, cat) = game_in("de", "Mein Spiel", "Zwei Farben zu je vier Karten", "Karten");
    std::fs::write(cat.join("rules.de.md"), "# Regeln\n\nMischt die Karten.\n").unwrap();
    let (bundle, out) = run(&cat, &["bundle", "--lang", "de"]);
    let err = stderr(&bundle);
    assert_eq!(exit_code(&bundle), Some(0), "{err}");
    assert!(err.contains("no `de` words") && err.contains("English"), "{err}");
    // Its own pages print in English, as the warning says; the game's words in German.
    let all = words_of(&out.join("game/game-pnp-a4-de.pdf"), None);
    has(&all, "How to print", "the German bundle's guide, in English");
    has(&all, "Mischt die Karten.", "the German rulebook");
    let (strict, _) = run(&cat, &["bundle", "--lang", "de", "--strict"]);
    let err = stderr(&strict);
    assert_eq!(exit_code(&strict), Some(1), "{err}");
    assert!(err.contains("no `de` words"), "{err}");
}

#[test]
fn a_component_without_a_translated_name_is_a_warning_naming_the_language() {
    let (_dir, cat) = new_game();
    append(
        &cat,
        "game.toml",
        "\n[lang.fr.game]\nname = \"Mon Jeu\"\ndescription = \"Deux couleurs\"\n",
    );
    std::fs::write(cat.join("rules.fr.md"), RULES_FR).unwrap();
    // `validate` is the promise that `bundle` succeeds: both say it, or neither.
    let validate = || {
        let args = ["validate", cat.to_str().unwrap(), "--lang", "fr", "--strict"];
        deckpress(&args, cat.parent().unwrap())
    };
    for run in [run(&cat, &["bundle", "--lang", "fr", "--strict"]).0, validate()] {
        let err = stderr(&run);
        assert_eq!(exit_code(&run), Some(1), "{err}");
        assert!(err.contains("`fr`") && err.contains("[lang.fr.names] cards"), "{err}");
    }
    // The good twin: the deck's name translated, both pass.
    append(&cat, "game.toml", "\n[lang.fr.names]\ncards = \"Cartes de Mon Jeu\"\n");
    for run in [run(&cat, &["bundle", "--lang", "fr", "--strict"]).0, validate()] {
        assert_eq!(exit_code(&run), Some(0), "{}", stderr(&run));
    }
}

/// Every built-in game's Russian edition bundles under `--strict`, as `validate` promises
/// (Trash and Anti-trump printed their names in English on the cover and in the guide).
#[test]
fn every_russian_edition_validates_and_bundles_strictly() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["track", "trash", "anti-trump"] {
        let out = dir.path().join("out");
        let out = out.to_str().unwrap();
        for args in [
            vec!["validate", game, "--lang", "ru", "--strict"],
            vec!["bundle", game, "--lang", "ru", "--strict", "--out", out],
        ] {
            let run = deckpress(&args, dir.path());
            assert_eq!(exit_code(&run), Some(0), "{args:?}: {}", stderr(&run));
        }
        let pdf = dir.path().join(format!("out/{game}/{game}-pnp-a4-ru.pdf"));
        let text = poppler("pdftotext", &["-f", "1", "-l", "2", pdf.to_str().unwrap(), "-"]);
        let latin = text.split_whitespace().filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()));
        // deckpress's own name, its commands and options, the paper's name and the cards'
        // Roman numerals (Track's decks I II III) are not words to translate.
        let ours = ["bundle", "calibrate", "A4"];
        let english: Vec<&str> = latin
            .filter(|w| !w.contains("deckpress") && !w.starts_with("--") && !ours.contains(w))
            .filter(|w| !w.chars().all(|c| "IVX".contains(c)))
            .collect();
        assert!(english.is_empty(), "{game}: English on the cover and guide: {english:?}\n{text}");
        // A table's header is never broken inside a word ("Страниц-ы").
        assert!(text.contains("Страницы"), "{game}: {text}");
    }
}

#[test]
fn track_in_russian_is_a_russian_edition() {
    let out = tempfile::tempdir().unwrap();
    let args =
        ["bundle", "track", "--lang", "ru", "--strict", "--out", out.path().to_str().unwrap()];
    let bundle = deckpress(&args, &repo());
    assert_eq!(exit_code(&bundle), Some(0), "{}", stderr(&bundle));
    let pdf = out.path().join("track/track-pnp-a4-ru.pdf");
    let cover = words_of(&pdf, Some(1));
    for phrase in ["Трасса", "Двое игроков строят трассу", "2 игрока", "В этом файле", "158 карт"]
    {
        has(&cover, phrase, "the cover");
    }
    let guide = words_of(&pdf, Some(2));
    for phrase in ["Как печатать", "натуральную величину (100 %)", "Что печатать", "Резка и сгибы"]
    {
        has(&guide, phrase, "the print guide");
    }
    let all = words_of(&pdf, None);
    for phrase in ["Состав игры", "Подготовка", "Первый раунд", "Победа", "88 мм: длина карты"]
    {
        has(&all, phrase, "the rulebook and its picture");
    }
    no_english(&without_slugs(&pdf), "the Russian bundle");
    // The rulebook's English is nowhere: its headings and a sentence of each part.
    let english_rules =
        ["Setting up", "Building the route", "Winning", "There are no turns", "A first round"];
    let english_picture = ["one card's length", "sideways", "upright", "step 1"];
    for english in english_rules.iter().chain(&english_picture) {
        assert!(!all.contains(english), "the English rulebook printed `{english}`");
    }
    let marks = bookmarks(&pdf);
    assert!(marks.len() >= 6, "{marks:?}");
    for (title, under) in &marks {
        for t in std::iter::once(title).chain(under) {
            assert!(cyrillic(t), "the bookmark `{t}` is not Russian: {marks:?}");
        }
    }
    for prefix in label_prefixes(&pdf).iter().filter(|p| !p.is_empty()) {
        assert!(cyrillic(prefix), "the page label `{prefix}` is not Russian");
    }
}

#[test]
fn a_catalogue_gives_the_bundles_words_its_language_lacks_in_its_own_game_toml() {
    let (_dir, cat) = game_in("de", "Mein Spiel", "Zwei Farben zu je vier Karten", "Karten");
    std::fs::write(cat.join("rules.de.md"), "# Regeln\n\nMischt die Karten.\n").unwrap();
    append(
        &cat,
        "game.toml",
        "\n[lang.de.bundle]\nhow_to_print = \"So wird gedruckt\"\ncover = \"Umschlag\"\n\"cards.one\" = \"{n} Karte\"\n\"cards.other\" = \"{n} Karten\"\ncovr = \"Deckblatt\"\n",
    );
    let (bundle, out) = run(&cat, &["bundle", "--lang", "de"]);
    let err = stderr(&bundle);
    assert_eq!(exit_code(&bundle), Some(0), "{err}");
    // What it lacks is said, and a key that is no word.
    assert!(err.contains("no `de` words") && err.contains("[lang.de.bundle]"), "{err}");
    assert!(err.contains("`covr`") && err.contains("did you mean `cover`?"), "{err}");
    let pdf = out.join("game/game-pnp-a4-de.pdf");
    has(&words_of(&pdf, Some(1)), "Karten 8 Karten", "the cover");
    has(&words_of(&pdf, Some(2)), "So wird gedruckt", "the guide");
    assert_eq!(bookmarks(&pdf)[0].0, "Umschlag");

    // Over deckpress's own words too.
    let (_dir, cat) = french_game();
    std::fs::write(cat.join("rules.fr.md"), RULES_FR).unwrap();
    append(&cat, "game.toml", "\n[lang.fr.bundle]\nfooter = \"{name} · édition maison\"\n");
    let (bundle, out) = run(&cat, &["bundle", "--lang", "fr", "--strict"]);
    assert_eq!(exit_code(&bundle), Some(0), "{}", stderr(&bundle));
    has(
        &words_of(&out.join("game/game-pnp-a4-fr.pdf"), Some(2)),
        "Mon Jeu · édition maison",
        "the guide",
    );
}

#[test]
fn validate_checks_each_languages_rulebook_and_says_a_missing_one_for_its_lang() {
    let validate = |cat: &Path, extra: &[&str]| {
        let mut args = vec!["validate", cat.to_str().unwrap()];
        args.extend_from_slice(extra);
        deckpress(&args, cat.parent().unwrap())
    };
    let (_dir, cat) = french_game();
    // Plain validate looks at every language: the French edition's missing rulebook is for
    // `--lang fr` to say, as its untranslated labels are.
    let plain = validate(&cat, &["--strict"]);
    assert_eq!(exit_code(&plain), Some(0), "{}", stderr(&plain));
    let french = validate(&cat, &["--lang", "fr", "--strict"]);
    let err = stderr(&french);
    assert_eq!(exit_code(&french), Some(1), "{err}");
    assert!(err.contains("`fr`") && err.contains("rules.fr.md"), "{err}");
    // A mistake in rules.fr.md is validate's error at its own line, with or without --lang.
    std::fs::write(
        cat.join("rules.fr.md"),
        "# Règles\n\nDistribuez {{ deals[0].hand }} cartes\nà {{ joueurz }} joueurs.\n",
    )
    .unwrap();
    let plain = validate(&cat, &[]);
    let err = stderr(&plain);
    assert_eq!(exit_code(&plain), Some(1), "{err}");
    assert!(err.contains("rules.fr.md:4:6"), "{err}");
}

#[test]
fn a_part_printed_separately_is_listed_in_the_editions_language() {
    let (_dir, cat) = with_stickers("\"avery-l7160\"", 21);
    append(
        &cat,
        "game.toml",
        "\n[lang.fr.game]\nname = \"Mon Jeu\"\ndescription = \"Deux couleurs\"\n\n[lang.fr.names]\ncards = \"Cartes\"\nstickers = \"Autocollants du jeu\"\n",
    );
    std::fs::write(cat.join("rules.fr.md"), RULES_FR).unwrap();
    // A4 stickers in a Letter bundle: printed separately, and said so in French.
    let (bundle, out) = run(&cat, &["bundle", "--lang", "fr", "--paper", "letter", "--strict"]);
    assert_eq!(exit_code(&bundle), Some(0), "{}", stderr(&bundle));
    let pdf = out.join("game/game-pnp-letter-fr.pdf");
    let own = format!("{} {}", words_of(&pdf, Some(1)), words_of(&pdf, Some(2)));
    for phrase in ["Imprimé à part", "Autocollants du jeu", "Papier", "Commande", "deckpress build"]
    {
        has(&own, phrase, "the cover and guide");
    }
    no_english(&own, "the cover and guide");
    assert!(!own.contains("Printed separately"), "{own}");
}
