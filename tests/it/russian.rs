//! Track (seed 002, a Russian game) prints wholly in Russian with `--lang ru`: the cards'
//! indices and Jokers, the card backs, the runners and both sides of the player aid, every
//! `t("…")` key translated in its `[lang.ru.text]` (`--strict` fails on a missing one).
//! Without `--lang` the same components print the English as before. The shared score pad
//! (Track has none) passes its texts through `t()` too.

use crate::common::*;

use std::path::{Path, PathBuf};

const PAPERS: [&str; 2] = ["a4", "letter"];

/// A Track PDF of the build: `track-aid-a4-ru.pdf` with `lang` "-ru", `track-aid-a4.pdf` with "".
fn track_pdf(out: &tempfile::TempDir, component: &str, paper: &str, lang: &str) -> PathBuf {
    let file = out.path().join("track").join(format!("track-{component}-{paper}{lang}.pdf"));
    assert!(file.is_file(), "{} was not written", file.display());
    file
}

/// Every PDF written in `dir`, by file name, with its text without the slug (the slug below
/// home sheets is deckpress's own note to the printer, in English) and all its words
/// (`words_of(pdf, None)`): both from one `pdftotext -raw`, the cards' being long to read.
fn every_pdf(dir: &Path) -> Vec<(String, String, String)> {
    let mut all: Vec<(String, String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .map(|p| {
            let raw = raw_text(&p);
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, words(&without_slug(&raw)), words(&raw))
        })
        .collect();
    all.sort();
    assert!(!all.is_empty(), "no PDF in {}", dir.display());
    all
}

/// All the words of the PDF `file` of `every_pdf`, which must be among them.
fn words_in<'a>(all: &'a [(String, String, String)], file: &Path) -> &'a str {
    let name = file.file_name().unwrap().to_string_lossy();
    &all.iter().find(|(f, ..)| *f == name).unwrap_or_else(|| panic!("{name} was not read")).2
}

fn has(text: &str, phrase: &str, what: &str) {
    assert!(text.contains(phrase), "{what} must print `{phrase}`:\n{text}");
}

fn has_not(text: &str, phrase: &str, what: &str) {
    assert!(!text.contains(phrase), "{what} must not print `{phrase}`:\n{text}");
}

/// How many whitespace-separated words of `text` are exactly `word`.
fn count(text: &str, word: &str) -> usize {
    text.split_whitespace().filter(|w| *w == word).count()
}

fn is_cyrillic(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c)
}

/// English of the Track aid, cards and runners that the Russian build must not print.
const ENGLISH: [&str; 16] = [
    "Player aid",
    "Track",
    "TRACK",
    "RUNNER",
    "JOKER",
    "Joker",
    "runner",
    "Each card turned up",
    "Building the route",
    "Winning",
    "Moving",
    "open pile",
    "small chip",
    "vertical",
    "King",
    "card",
];

/// `--lang ru --strict` builds (no `t()` key lacks its translation) and the player aid is
/// Russian on both sides, cut into the lines of aid.csv.
#[test]
fn track_aid_prints_in_russian_with_lang_ru() {
    let (out, _) = build_game("track", &["--lang", "ru", "--strict", "--paper", "a4,letter"]);
    for paper in PAPERS {
        let aid = track_pdf(&out, "aid", paper, "-ru");
        let (front, back) = (words_of(&aid, Some(1)), words_of(&aid, Some(2)));
        // Two aids, one a player: every phrase twice on each side.
        for phrase in [
            "Трасса Памятка игрока",
            "Каждая открытая карта",
            "Красные ♦ ♥ получает игрок с белым бегуном, чёрные ♣ ♠ — игрок с чёрным.",
            "Полученную карту можно: • выложить в трассу, • пойти бегуном (большой фишкой), • пойти малой фишкой или • сбросить (и открыть следующую).",
            "Постройка трассы",
            "• Поперечная карта касается вертикальных короткой стороной.",
            "Шагами считаются только вертикальные карты.",
        ] {
            assert_eq!(front.matches(phrase).count(), 2, "{paper}: the aid's front must print `{phrase}` on each of 2 aids:\n{front}");
        }
        for phrase in [
            "Трасса Памятка игрока Ходы",
            "• Бегун: на карту вверх, вниз или вбок, если она не старше карты, открытой из колоды.",
            "• Открыт король: поставьте малую фишку на свой джокер; ею можно пойти до 3 карт.",
            "• Фишки разных цветов не стоят на одной карте; фишки одного цвета — могут.",
            "• Все фишки выставлены: король двигает фишки как В или Д, но не строит трассу.",
            "• Колода кончилась: перетасуйте сброс.",
            "Победа Побеждает бегун, первым прошедший 10 вертикальных карт вверх от джокера и назад.",
        ] {
            assert_eq!(
                back.matches(phrase).count(),
                2,
                "{paper}: the aid's back must print `{phrase}` on each of 2 aids:\n{back}"
            );
        }
    }
}

/// Nothing English is left on any Track PDF built with `--lang ru`: the only Latin letters
/// are the deck marks I, II and III (Roman numerals); the Jokers say ДЖОКЕР, the backs
/// ТРАССА and the runners БЕГУН.
#[test]
fn track_prints_no_english_with_lang_ru() {
    let (out, _) = build_game("track", &["--lang", "ru", "--strict", "--paper", "a4,letter"]);
    for paper in PAPERS {
        for component in ["cards", "runners", "chips", "aid"] {
            track_pdf(&out, component, paper, "-ru");
        }
    }
    let all = every_pdf(&out.path().join("track"));
    for (file, text, _) in &all {
        assert!(file.ends_with("-ru.pdf"), "{file}");
        let latin: Vec<&str> = text
            .split_whitespace()
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            .collect();
        assert!(
            latin.iter().all(|w| ["I", "II", "III"].contains(w)),
            "{file} prints Latin words {latin:?}"
        );
        for english in ENGLISH {
            has_not(text, english, file);
        }
    }
    for paper in PAPERS {
        let cards = words_in(&all, &track_pdf(&out, "cards", paper, "-ru"));
        assert_eq!(count(cards, "ДЖОКЕР"), 2, "{paper}: the word on each of 2 Jokers");
        assert_eq!(
            count(cards, "ТРАССА"),
            2 * 158,
            "{paper}: the game's name twice on each of 158 backs"
        );
        let runners = words_in(&all, &track_pdf(&out, "runners", paper, "-ru"));
        assert_eq!(count(runners, "БЕГУН"), 4, "{paper}: both sides of 2 runners:\n{runners}");
    }
}

/// Without `--lang` Track prints the English it always did, and no Cyrillic at all.
#[test]
fn track_without_lang_still_prints_english() {
    let (out, _) = build_game("track", &["--strict", "--paper", "a4,letter"]);
    let all = every_pdf(&out.path().join("track"));
    for paper in PAPERS {
        let aid = track_pdf(&out, "aid", paper, "");
        let (front, back) = (words_of(&aid, Some(1)), words_of(&aid, Some(2)));
        for phrase in [
            "Track Player aid",
            "Each card turned up",
            "Red cards ♦ ♥ go to the white runner's player, black ♣ ♠ to the black runner's, who uses the card:",
            "• to move the runner (large chip),",
            "Building the route",
            "Only upright cards count as steps.",
        ] {
            assert_eq!(front.matches(phrase).count(), 2, "{paper}: the aid's front must print `{phrase}` on each of 2 aids:\n{front}");
        }
        for phrase in [
            "Track Player aid Moving",
            "• King turned up: put a small chip on your Joker; move it up to 3 cards.",
            "• All chips out: a King moves chips as a J or Q; it cannot build.",
            "• Deck empty: shuffle the open pile.",
            "Winning First runner to go 10 upright cards up from its Joker and back to it wins.",
        ] {
            assert_eq!(
                back.matches(phrase).count(),
                2,
                "{paper}: the aid's back must print `{phrase}` on each of 2 aids:\n{back}"
            );
        }
        let cards = words_in(&all, &track_pdf(&out, "cards", paper, ""));
        assert_eq!(count(cards, "JOKER"), 2, "{paper}: the word on each of 2 Jokers");
        assert_eq!(
            count(cards, "TRACK"),
            2 * 158,
            "{paper}: the game's name twice on each of 158 backs"
        );
        let runners = words_in(&all, &track_pdf(&out, "runners", paper, ""));
        assert_eq!(count(runners, "RUNNER"), 4, "{paper}: both sides of 2 runners:\n{runners}");
    }
    for (file, text, _) in all {
        assert!(!text.chars().any(is_cyrillic), "{file} prints Cyrillic without --lang:\n{text}");
    }
}

/// A few translations of Trash's score pad (`{n}` in "{n} players" is the number).
const PAD_RU: &str = r#"
[lang.ru.text]
"Trash — score pad" = "Мусор — таблица очков"
"Game" = "Партия"
"Round" = "Раунд"
"Player" = "Игрок"
"{n} players" = "игроков: {n}"
"Trash" = "Мусор"
"Total" = "Итого"
"Round 1" = "Раунд 1"
"2 players" = "2 игрока"
"3 players" = "3 игрока"
"4 players" = "4 игрока"
"5 players" = "5 игроков"
"3 Trash" = "3 шт."
"#;

/// The shared score pad prints its title, column and player words, header count, row
/// labels and facts through `t()`; a text the language lacks prints as it is and warns.
#[test]
fn the_score_pad_prints_its_texts_through_t() {
    let (dir, cat) = copy_catalogue("trash");
    // The game's own Russian gives way to these few keys.
    let mut manifest = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    manifest.truncate(manifest.find("\n# ==== Russian").expect("trash translates into ru"));
    manifest.push_str(PAD_RU);
    std::fs::write(cat.join("game.toml"), manifest).unwrap();
    let out = dir.path().join("out");
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--lang",
            "ru",
            "--only",
            "pad",
            "--players",
            "5",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let err = stderr(&run);
    // The file is trash-pad-a4.pdf (or trash-pad-a4-ru.pdf): the only PDF of the build.
    let pads = every_pdf(&out.join("trash"));
    assert_eq!(pads.len(), 1, "{:?}", pads.iter().map(|(f, ..)| f).collect::<Vec<_>>());
    let (file, pad, _) = &pads[0];
    assert!(file.starts_with("trash-pad-a4"), "{file}");
    for phrase in [
        "Мусор — таблица очков",
        "игроков: 5",
        "Партия",
        "Раунд",
        "Игрок 1",
        "Игрок 5",
        "Итого",
        "Раунд 1",
        "2 игрока: 3 шт.",
    ] {
        has(pad, phrase, "the Russian pad");
    }
    for english in ["score pad", "5 players", "Player 1", "Player 5", "Total", "2 players"] {
        has_not(pad, english, "the Russian pad");
    }
    // Untranslated keys print as they are, and each is a warning naming it.
    has(pad, "Round 2", "the Russian pad");
    assert!(err.contains("no `ru` translation for \"Round 2\""), "{err}");
    assert!(!err.contains("translation for \"Round 1\""), "{err}");
    assert!(!err.contains("translation for \"{n} players\""), "{err}");
}
