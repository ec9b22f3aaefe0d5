//! The three games built on the shared French deck: anti-trump (39), Track (158),
//! Trash (52). Each composition rule is broken once; the PDFs are checked with poppler.

use crate::common::*;

#[test]
fn the_three_games_validate() {
    for (game, cards) in [("anti-trump", 39), ("track", 158), ("trash", 52)] {
        let out = deckpress(&["validate", game], &repo());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!("{game}: valid — {cards} cards")),
            "{}",
            stdout(&out)
        );
    }
}

#[test]
fn anti_trump_with_hearts_breaks_its_rules() {
    let (_g, cat) = copy_catalogue("anti-trump");
    edit(&cat, "game.toml", "unless = { suit = \"Hearts\" }\n\n[style]", "\n[style]");
    let err = invalid(&cat);
    assert!(
        err.contains("rule \"the deck has 39 cards\" failed: expected exactly 39 cards, found 52"),
        "{err}"
    );
    assert!(err.contains("rule \"no hearts\" failed: expected exactly 0 cards, found 13"), "{err}");
    assert!(
        err.contains("french/cards.csv:"),
        "points at the first heart in the library rows: {err}"
    );
}

#[test]
fn anti_trump_deal_for_seven_players_does_not_fit() {
    let (_g, cat) = copy_catalogue("anti-trump");
    edit(&cat, "game.toml", "players = 6\nhand = 5", "players = 6\nhand = 7");
    let err = invalid(&cat);
    assert!(err.contains("the deal for 6 players does not fit the deck: 6 × 7 cards to the players and 0 to the table need 42 cards, but deck `cards` has 39"), "{err}");
}

#[test]
fn track_with_two_decks_or_one_joker_is_reported() {
    let (_g, cat) = copy_catalogue("track");
    edit(
        &cat,
        "game.toml",
        "copies = 3\nmarks = [\"I\", \"II\", \"III\"]\njokers = 2",
        "copies = 3\nmarks = [\"I\", \"II\", \"III\"]\njokers = 1",
    );
    let err = invalid(&cat);
    assert!(
        err.contains(
            "rule \"two Jokers, the starting cards\" failed: expected exactly 2 cards, found 1"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "rule \"the deck has 158 cards\" failed: expected exactly 158 cards, found 157"
        ),
        "{err}"
    );

    let (_g, cat) = copy_catalogue("track");
    edit(
        &cat,
        "game.toml",
        "copies = 3\nmarks = [\"I\", \"II\", \"III\"]",
        "copies = 3\nmarks = [\"I\", \"II\", \"II\"]",
    );
    let err = invalid(&cat);
    assert!(err.contains("rule \"each deck mark is on 52 cards\" failed for mark `II`: expected exactly 52 cards, found 104"), "{err}");
    assert!(err.contains("rule \"three copies of each card, one per deck\" failed: two cards have suit `Clubs` and rank `2` and mark `II`"), "{err}");

    let (_g, cat) = copy_catalogue("track");
    edit(&cat, "game.toml", "marks = [\"I\", \"II\", \"III\"]", "marks = [\"I\", \"II\"]");
    let err = invalid(&cat);
    let line = line_of(&cat, "game.toml", "marks = [");
    assert!(err.contains("2 marks for 3 copies"), "{err}");
    assert!(err.contains(&format!("game.toml:{line}:9")), "{err}");
}

#[test]
fn trash_with_jokers_is_reported() {
    let (_g, cat) = copy_catalogue("trash");
    edit(&cat, "game.toml", "from = \"french\"", "from = \"french\"\njokers = 2");
    let err = invalid(&cat);
    assert!(err.contains("rule \"no jokers\" failed: expected exactly 0 cards, found 2"), "{err}");
}

#[test]
fn an_unknown_library_deck_lists_the_known_ones() {
    let (_g, cat) = copy_catalogue("trash");
    edit(&cat, "game.toml", "from = \"french\"", "from = \"frensh\"");
    let err = invalid(&cat);
    assert!(err.contains("no shared deck `frensh`"), "{err}");
    assert!(err.contains("shared decks: ") && err.contains("`french`"), "{err}");
}

#[test]
fn duplex_sheets_on_a4_and_letter_for_each_game() {
    for (game, cards) in [("anti-trump", 39usize), ("track", 158), ("trash", 52)] {
        let (out, printed) = build_game(game, &["--paper", "a4,letter"]);
        for paper in ["a4", "letter"] {
            let pdf = out.path().join(format!("{game}/{game}-cards-{paper}.pdf"));
            assert!(printed.contains(pdf.to_str().unwrap()), "{printed}");
            assert_eq!(
                pages(&pdf),
                2 * cards.div_ceil(9),
                "{game} {paper}: a back page after each front page"
            );
        }
    }
}

#[test]
fn cards_read_as_playing_cards() {
    let (out, _) = build_game("trash", &[]);
    let text =
        poppler("pdftotext", &[out.path().join("trash/trash-cards-a4.pdf").to_str().unwrap(), "-"]);
    for rank in ["2", "10", "J", "Q", "K", "A"] {
        // Each rank's index is printed twice (top-left and turned) on 4 cards, at least.
        assert!(text.split_whitespace().filter(|w| *w == rank).count() >= 8, "rank {rank}");
    }
}

#[test]
fn anti_trump_diamonds_carry_the_trump_mark_and_clubs_do_not() {
    let (out, _) = build_game("anti-trump", &[]);
    let pdf = out.path().join("anti-trump/anti-trump-cards-a4.pdf");
    let page = |n: usize| {
        poppler(
            "pdftotext",
            &["-f", &n.to_string(), "-l", &n.to_string(), pdf.to_str().unwrap(), "-"],
        )
    };
    // Rows are clubs, diamonds, spades: page 1 is nine clubs, page 5 (third front) diamonds.
    assert!(!page(1).contains("TRUMP"), "{}", page(1));
    assert!(page(5).contains("TRUMP"), "{}", page(5));
}

#[test]
fn track_decks_are_marked_and_russian_indices_print_with_lang_ru() {
    let (out, printed) = build_game("track", &["--lang", "ru"]);
    let pdf = out.path().join("track/track-cards-a4-ru.pdf");
    assert!(printed.contains(pdf.to_str().unwrap()), "{printed}");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    let count = |w: &str| text.split_whitespace().filter(|x| *x == w).count();
    for letter in ["В", "Д", "К", "Т"] {
        assert!(count(letter) >= 24, "{letter}: {}", count(letter));
    }
    // (The jokers spell J O K E R down their corners, so only Q and A can be counted.)
    assert_eq!(count("Q") + count("A"), 0, "no Latin court indices with --lang ru");
    for mark in ["I", "II", "III"] {
        assert!(count(mark) >= 52, "deck mark {mark}");
    }
    let run = deckpress(
        &["build", "track", "--lang", "xx", "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("has no labels for language `xx`; it has: `ru`"),
        "{}",
        stderr(&run)
    );
}
