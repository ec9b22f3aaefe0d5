//! Trumpet (GAMES.md §1): 111 cards in four decks, pawns, trump markers and the path
//! board. Every rule of its catalogue is broken by a copy that breaks it, and the user
//! must get that rule's message at the right file and line, with exit code 1. The build
//! writes the card sheets and the board on one large sheet and tiled, checked with poppler.

use crate::common::*;

use std::path::PathBuf;

/// Where a diagnostic must point.
enum At {
    /// The `[[rule]]` line of the rule with this name (too few, equal, sequence gaps).
    Rule(&'static str),
    /// The line of the rows file holding this text (too many, duplicates).
    Line(&'static str, &'static str),
    /// The cell of the rows file: the line holding the first text, the column where the
    /// second text starts on it (a `require` names the cell).
    Cell(&'static str, &'static str, &'static str),
}

/// Copies the catalogue, applies the edits, validates and checks the message and where
/// it points.
fn broken(edits: &[(&str, &str, &str)], message: &str, at: At) {
    let (_guard, cat) = copy_catalogue("trumpet");
    for (file, from, to) in edits {
        edit(&cat, file, from, to);
    }
    let err = invalid(&cat);
    assert!(err.contains(message), "expected `{message}` in:\n{err}");
    let location = match at {
        At::Rule(name) => {
            format!("game.toml:{}:1", line_of(&cat, "game.toml", &format!("name = \"{name}\"")) - 1)
        }
        At::Line(file, needle) => format!("{file}:{}:1", line_of(&cat, file, needle)),
        At::Cell(file, needle, cell) => {
            let line = line_of(&cat, file, needle);
            let text = std::fs::read_to_string(cat.join(file)).unwrap();
            let column =
                text.lines().nth(line - 1).unwrap().find(cell).expect("cell on the line") + 1;
            format!("{file}:{line}:{column}")
        }
    };
    // The location is printed just after the message it belongs to.
    let location = format!("{location}\n");
    let after = &err[err.find(message).unwrap()..];
    let next = after
        .find(&location)
        .unwrap_or_else(|| panic!("expected {location} after `{message}` in:\n{err}"));
    assert!(!after[..next].contains("\nerror:"), "{location} belongs to another error:\n{err}");
}

fn delete(file: &'static str, line: &'static str) -> (&'static str, &'static str, &'static str) {
    (file, line, "")
}

#[test]
fn trumpet_is_valid() {
    let out = deckpress(&["validate", "trumpet"], &repo());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // 111 cards, 12 pawns and 6 trump markers.
    let said = stdout(&out);
    for part in [
        "trumpet: valid — 69 cards in `cards`",
        "6 in `trumps`",
        "24 in `path`",
        "12 in `characters`",
        "12 in `pawns`",
        "6 in `markers`",
        "1 sheet",
    ] {
        assert!(said.contains(part), "{part}: {said}");
    }
    let listed = stdout(&deckpress(&["list"], &repo()));
    assert!(listed.lines().any(|l| l.starts_with("trumpet ")), "{listed}");
}

// ---- The game cards: 66 numbered (1–11 in six suits) and 3 super-trumps. ----

#[test]
fn a_missing_card_leaves_68_game_cards() {
    broken(
        &[delete("cards.csv", "stars-11,1,numbered,Stars,11\n")],
        "rule \"there are 69 game cards\" failed: expected exactly 69 cards, found 68",
        At::Rule("there are 69 game cards"),
    );
}

#[test]
fn a_missing_card_leaves_65_numbered_cards() {
    broken(
        &[delete("cards.csv", "stars-11,1,numbered,Stars,11\n")],
        "rule \"66 numbered cards\" failed: expected exactly 66 cards, found 65",
        At::Rule("66 numbered cards"),
    );
}

#[test]
fn a_numbered_card_in_the_trump_suit_names_its_cell() {
    broken(
        &[("cards.csv", "clubs-4,1,numbered,Clubs,4", "clubs-4,1,numbered,Helm,4")],
        "rule \"numbered cards are in the six suits ♠ ♥ ♣ ♦ ✿ ★\" failed: card `clubs-4` has suit `Helm`, expected `Spades` or `Hearts` or `Clubs` or `Diamonds` or `Flowers` or `Stars`",
        At::Cell("cards.csv", "clubs-4,", "Helm"),
    );
}

#[test]
fn a_numbered_king_names_its_cell() {
    broken(
        &[("cards.csv", "diamonds-11,1,numbered,Diamonds,11", "diamonds-11,1,numbered,Diamonds,K")],
        "rule \"numbered cards run 1 to 11\" failed: card `diamonds-11` has rank `K`",
        At::Cell("cards.csv", "diamonds-11,", "K"),
    );
}

#[test]
fn a_twelfth_heart_points_at_the_extra_card() {
    broken(
        &[("cards.csv", "hearts-11,1,numbered,Hearts,11\n", "hearts-11,1,numbered,Hearts,11\nhearts-extra,1,numbered,Hearts,5\n")],
        "rule \"each suit has 11 numbered cards\" failed for suit `Hearts`: expected exactly 11 cards, found 12",
        At::Line("cards.csv", "hearts-extra"),
    );
}

#[test]
fn a_missing_star_is_reported_for_its_suit() {
    broken(
        &[delete("cards.csv", "stars-11,1,numbered,Stars,11\n")],
        "rule \"each suit has 11 numbered cards\" failed for suit `Stars`: expected exactly 11 cards, found 10",
        At::Rule("each suit has 11 numbered cards"),
    );
}

#[test]
fn two_sixes_of_stars_point_at_the_second() {
    broken(
        &[("cards.csv", "stars-7,1,numbered,Stars,7", "stars-7,1,numbered,Stars,6")],
        "rule \"each rank 1 to 11 once per suit\" failed: two cards have suit `Stars` and rank `6`",
        At::Line("cards.csv", "stars-7,"),
    );
}

#[test]
fn two_super_trumps_are_too_few() {
    broken(
        &[delete("cards.csv", "helm-Q,1,super-trump,Helm,Q\n")],
        "rule \"exactly 3 super-trumps\" failed: expected exactly 3 cards, found 2",
        At::Rule("exactly 3 super-trumps"),
    );
}

#[test]
fn a_super_trump_outside_the_trump_suit_names_its_cell() {
    broken(
        &[("cards.csv", "helm-K,1,super-trump,Helm,K", "helm-K,1,super-trump,Stars,K")],
        "rule \"the super-trumps are J, Q and K in ⎈\" failed: card `helm-K` has suit `Stars`, expected `Helm`",
        At::Cell("cards.csv", "helm-K,", "Stars"),
    );
}

#[test]
fn two_super_trump_jacks_point_at_the_second() {
    broken(
        &[("cards.csv", "helm-Q,1,super-trump,Helm,Q", "helm-Q,1,super-trump,Helm,J")],
        "rule \"one super-trump of each letter\" failed: two cards have rank `J`",
        At::Line("cards.csv", "helm-Q,"),
    );
}

#[test]
fn a_trump_card_among_the_game_cards_names_its_cell() {
    broken(
        &[("cards.csv", "spades-3,1,numbered,Spades,3", "spades-3,1,trump,Spades,3")],
        "rule \"only numbered cards and super-trumps are dealt\" failed: card `spades-3` has kind `trump`, expected `numbered` or `super-trump`",
        At::Cell("cards.csv", "spades-3,", "trump"),
    );
}

// ---- The trump cards: one A per suit. ----

#[test]
fn five_trump_cards_are_too_few() {
    broken(
        &[delete("trumps.csv", "trump-stars,1,trump,Stars,A\n")],
        "rule \"there are 6 trump cards\" failed: expected exactly 6 cards, found 5",
        At::Rule("there are 6 trump cards"),
    );
}

#[test]
fn a_trump_king_names_its_cell() {
    broken(
        &[("trumps.csv", "trump-hearts,1,trump,Hearts,A", "trump-hearts,1,trump,Hearts,K")],
        "rule \"trump cards are aces of the six suits\" failed: card `trump-hearts` has rank `K`, expected `A`",
        At::Cell("trumps.csv", "trump-hearts,", "K"),
    );
}

#[test]
fn two_spade_trumps_and_no_club_trump() {
    let edits = [("trumps.csv", "trump-clubs,1,trump,Clubs,A", "trump-clubs,1,trump,Spades,A")];
    broken(&edits, "rule \"exactly one trump A per suit\" failed for suit `Spades`: expected exactly 1 card, found 2", At::Line("trumps.csv", "trump-clubs,"));
    broken(&edits, "rule \"exactly one trump A per suit\" failed for suit `Clubs`: expected exactly 1 card, found 0", At::Rule("exactly one trump A per suit"));
}

// ---- The path cards: 18 blank spaces (three K per suit) and 6 trump spaces (⎈ 1–6). ----

#[test]
fn a_missing_blank_space_leaves_23_path_cards() {
    let edits = [("path.csv", "blank-hearts,3,", "blank-hearts,2,")];
    broken(
        &edits,
        "rule \"the path has 24 cards\" failed: expected exactly 24 cards, found 23",
        At::Rule("the path has 24 cards"),
    );
    broken(
        &edits,
        "rule \"the path has 18 blank spaces\" failed: expected exactly 18 cards, found 17",
        At::Rule("the path has 18 blank spaces"),
    );
}

#[test]
fn five_trump_spaces_are_too_few() {
    broken(
        &[("path.csv", "trump-space-6,1,path,trump,Helm,6", "trump-space-6,1,path,blank,Helm,6")],
        "rule \"the path has 6 trump spaces\" failed: expected exactly 6 cards, found 5",
        At::Rule("the path has 6 trump spaces"),
    );
}

#[test]
fn a_blank_space_queen_names_its_cell() {
    broken(
        &[("path.csv", "blank-flowers,3,path,blank,Flowers,K", "blank-flowers,3,path,blank,Flowers,Q")],
        "rule \"blank spaces are Ks of the six suits\" failed: card `blank-flowers` has rank `Q`, expected `K`",
        At::Cell("path.csv", "blank-flowers,", "Q"),
    );
}

#[test]
fn a_fourth_blank_diamond_points_at_its_line() {
    broken(
        &[("path.csv", "blank-diamonds,3,", "blank-diamonds,4,")],
        "rule \"three blank-space Ks in each suit\" failed for suit `Diamonds`: expected exactly 3 cards, found 4",
        At::Line("path.csv", "blank-diamonds,"),
    );
}

#[test]
fn a_trump_space_seven_names_its_cell() {
    broken(
        &[("path.csv", "trump-space-4,1,path,trump,Helm,4", "trump-space-4,1,path,trump,Helm,7")],
        "rule \"trump spaces are 1 to 6 in ⎈\" failed: card `trump-space-4` has rank `7`",
        At::Cell("path.csv", "trump-space-4,", "7"),
    );
}

#[test]
fn two_trump_space_twos_point_at_the_second() {
    broken(
        &[("path.csv", "trump-space-5,1,path,trump,Helm,5", "trump-space-5,1,path,trump,Helm,2")],
        "rule \"each trump space value once\" failed: two cards have rank `2`",
        At::Line("path.csv", "trump-space-5,"),
    );
}

// ---- Characters and pawns: six kinds, two of each. ----

#[test]
fn one_wolf_leaves_11_character_cards() {
    broken(
        &[("characters.csv", "wolf,2,", "wolf,1,")],
        "rule \"12 character cards\" failed: expected exactly 12 cards, found 11",
        At::Rule("12 character cards"),
    );
}

#[test]
fn a_phoenix_printed_as_a_dragon_breaks_the_pairs() {
    let edits = [("characters.csv", "phoenix,2,character,Phoenix", "phoenix,2,character,Dragon")];
    broken(&edits, "rule \"two character cards of each kind\" failed for character `Dragon`: expected exactly 2 cards, found 4", At::Line("characters.csv", "dragon,"));
    broken(&edits, "rule \"two character cards of each kind\" failed for character `Phoenix`: expected exactly 2 cards, found 0", At::Rule("two character cards of each kind"));
}

#[test]
fn a_third_snake_pawn_points_at_its_line_and_outnumbers_the_cards() {
    let edits = [("pawns.csv", "pawn-snake,2,", "pawn-snake,3,")];
    broken(&edits, "rule \"two pawns of each character\" failed for character `Snake`: expected exactly 2 cards, found 3", At::Line("pawns.csv", "pawn-snake,"));
    broken(
        &edits,
        "rule \"a pawn for every character card\" failed: `pawns` has 13 but `characters` has 12",
        At::Rule("a pawn for every character card"),
    );
}

// ---- The board: the path of Table 1, the Trumps Line and the pile. ----

#[test]
fn a_board_without_space_24_is_short_of_the_path_cards() {
    let edits = [delete("board.csv", "space-24,space,24,blank,7,10,last-six,\n")];
    broken(
        &edits,
        "rule \"the board path has 24 spaces\" failed: expected exactly 24 items, found 23",
        At::Rule("the board path has 24 spaces"),
    );
    broken(&edits, "rule \"the board and the path cards have as many spaces\" failed: `board` where item = space has 23 but `path` has 24", At::Rule("the board and the path cards have as many spaces"));
}

#[test]
fn a_misnumbered_space_breaks_the_sequence() {
    broken(
        &[("board.csv", "space-13,space,13,", "space-13,space,31,")],
        "rule \"the board path is numbered 1 to 24\" failed: number 13 is missing; number 31 is outside 1 to 24",
        At::Rule("the board path is numbered 1 to 24"),
    );
}

#[test]
fn a_space_numbered_twice_points_at_the_second() {
    broken(
        &[("board.csv", "space-13,space,13,", "space-13,space,12,")],
        "rule \"the board path is numbered 1 to 24\" failed: number 12 appears twice",
        At::Cell("board.csv", "space-13,", "12"),
    );
}

#[test]
fn a_space_without_a_type_names_its_cell() {
    broken(
        &[("board.csv", "space-8,space,8,blank,", "space-8,space,8,,")],
        "rule \"every board space is blank or trump\" failed: card `space-8` has type ``, expected `blank` or `trump`",
        At::Cell("board.csv", "space-8,", ",1,3,"),
    );
}

#[test]
fn space_20_printed_blank_breaks_every_trump_count() {
    let edits = [("board.csv", "space-20,space,20,trump,", "space-20,space,20,blank,")];
    broken(
        &edits,
        "rule \"the board has 6 trump spaces\" failed: expected exactly 6 items, found 5",
        At::Rule("the board has 6 trump spaces"),
    );
    broken(
        &edits,
        "rule \"the board has 18 blank spaces\" failed: expected exactly 18 items, found 19",
        At::Line("board.csv", "space-24,"),
    );
    broken(
        &edits,
        "rule \"the board and the path cards have as many blank spaces\" failed: `board` where item = space, type = blank has 19 but `path` where type = blank has 18",
        At::Rule("the board and the path cards have as many blank spaces"),
    );
    let rule = "trump spaces = trump cards = Trumps Line slots = trump markers";
    for other in [
        "`path` where type = trump has 6",
        "`trumps` has 6",
        "`board` where item = slot has 6",
        "`markers` has 6",
    ] {
        broken(&edits, &format!("rule \"{rule}\" failed: `board` where item = space, type = trump has 5 but {other}"), At::Rule(rule));
    }
}

#[test]
fn a_trump_space_on_21_instead_of_20_names_the_cell() {
    broken(
        &[
            ("board.csv", "space-20,space,20,trump,", "space-20,space,20,blank,"),
            ("board.csv", "space-21,space,21,blank,", "space-21,space,21,trump,"),
        ],
        "rule \"trump spaces are spaces 3, 6, 10, 15, 20 and 23\" failed: card `space-21` has number `21`, expected `3` or `6` or `10` or `15` or `20` or `23`",
        At::Cell("board.csv", "space-21,", "21,trump"),
    );
}

#[test]
fn five_trumps_line_slots_do_not_match_six_trump_spaces() {
    let rule = "trump spaces = trump cards = Trumps Line slots = trump markers";
    broken(&[delete("board.csv", "slot-6,slot,6,,,,,\n")], &format!("rule \"{rule}\" failed: `board` where item = space, type = trump has 6 but `board` where item = slot has 5"), At::Rule(rule));
    broken(&[delete("trumps.csv", "trump-stars,1,trump,Stars,A\n")], &format!("rule \"{rule}\" failed: `board` where item = space, type = trump has 6 but `trumps` has 5"), At::Rule(rule));
    broken(&[delete("markers.csv", "marker-stars,1,trump-marker,Stars,A\n")], &format!("rule \"{rule}\" failed: `board` where item = space, type = trump has 6 but `markers` has 5"), At::Rule(rule));
}

#[test]
fn space_19_outside_the_last_six_leaves_five() {
    broken(
        &[(
            "board.csv",
            "space-19,space,19,blank,7,5,last-six,",
            "space-19,space,19,blank,7,5,main,",
        )],
        "rule \"the last-six region is six spaces\" failed: expected exactly 6 items, found 5",
        At::Rule("the last-six region is six spaces"),
    );
}

#[test]
fn a_last_six_region_shifted_by_one_is_not_the_final_six() {
    let edits = [
        ("board.csv", "space-18,space,18,blank,6,4,main,", "space-18,space,18,blank,6,4,last-six,"),
        (
            "board.csv",
            "space-24,space,24,blank,7,10,last-six,",
            "space-24,space,24,blank,7,10,main,",
        ),
    ];
    broken(&edits, "rule \"the last-six region is spaces 19 to 24\" failed: number 24 is missing; number 18 is outside 19 to 24", At::Rule("the last-six region is spaces 19 to 24"));
    broken(&edits, "rule \"spaces before the last six are 1 to 18\" failed: number 18 is missing; number 24 is outside 1 to 18", At::Rule("spaces before the last six are 1 to 18"));
}

#[test]
fn spaces_off_their_column_or_row_name_the_cell() {
    broken(
        &[("board.csv", "space-5,space,5,blank,1,6,", "space-5,space,5,blank,2,6,")],
        "rule \"spaces 1 to 10 climb column 1\" failed: card `space-5` has column `2`, expected `1`",
        At::Cell("board.csv", "space-5,", "2,6,"),
    );
    broken(
        &[("board.csv", "space-12,space,12,blank,3,1,", "space-12,space,12,blank,3,2,")],
        "rule \"spaces 11 to 14 cross row 1\" failed: card `space-12` has row `2`, expected `1`",
        At::Cell("board.csv", "space-12,", "2,main"),
    );
    broken(
        &[("board.csv", "space-17,space,17,blank,6,3,", "space-17,space,17,blank,5,3,")],
        "rule \"spaces 15 to 18 go down column 6\" failed: card `space-17` has column `5`, expected `6`",
        At::Cell("board.csv", "space-17,", "5,3,"),
    );
    broken(
        &[("board.csv", "space-22,space,22,blank,7,8,", "space-22,space,22,blank,6,8,")],
        "rule \"spaces 19 to 24 go down column 7\" failed: card `space-22` has column `6`, expected `7`",
        At::Cell("board.csv", "space-22,", "6,8,"),
    );
}

#[test]
fn two_spaces_in_one_cell_point_at_the_second() {
    broken(
        &[("board.csv", "space-16,space,16,blank,6,2,", "space-16,space,16,blank,6,1,")],
        "rule \"no two places of the board share a cell\" failed: two cards have column `6` and row `1`",
        At::Line("board.csv", "space-16,"),
    );
}

#[test]
fn a_board_without_start_finish_gap_or_pile() {
    broken(
        &[delete("board.csv", "start,start,,,1,11,,Start\n")],
        "rule \"one Start\" failed: expected exactly 1 item, found 0",
        At::Rule("one Start"),
    );
    broken(
        &[delete("board.csv", "finish,finish,,,7,11,,Finish\n")],
        "rule \"one Finish\" failed: expected exactly 1 item, found 0",
        At::Rule("one Finish"),
    );
    broken(&[delete("board.csv", "gap,gap,,,7,4,,gap\n")], "rule \"one gap before the last six, which is not a space\" failed: expected exactly 1 item, found 0", At::Rule("one gap before the last six, which is not a space"));
    broken(
        &[delete("board.csv", "pile,pile,,,,,,\n")],
        "rule \"one place for the face-down trump pile\" failed: expected exactly 1 item, found 0",
        At::Rule("one place for the face-down trump pile"),
    );
}

#[test]
fn a_trumps_line_slot_numbered_7_breaks_the_line() {
    broken(
        &[("board.csv", "slot-4,slot,4,", "slot-4,slot,7,")],
        "rule \"the Trumps Line slots are numbered 1 to 6 from its beginning\" failed: number 4 is missing",
        At::Rule("the Trumps Line slots are numbered 1 to 6 from its beginning"),
    );
}

#[test]
fn two_club_trump_markers_point_at_the_second() {
    broken(
        &[("markers.csv", "marker-hearts,1,trump-marker,Hearts,A", "marker-hearts,1,trump-marker,Clubs,A")],
        "rule \"one trump marker per suit\" failed for suit `Clubs`: expected exactly 1 card, found 2",
        At::Line("markers.csv", "marker-clubs,"),
    );
}

// ---- The deal: 7 game cards to each of up to 6 players. ----

#[test]
fn twelve_cards_to_six_players_do_not_fit_69() {
    let (_guard, cat) = copy_catalogue("trumpet");
    edit(&cat, "game.toml", "players = 6\nhand = 7", "players = 6\nhand = 12");
    let err = invalid(&cat);
    assert!(err.contains("the deal for 6 players does not fit the deck: 6 × 12 cards to the players and 0 to the table need 72 cards, but deck `cards` has 69"), "{err}");
    let line = line_of(&cat, "game.toml", "players = 6") - 2; // [[deal]], deck, players
    assert!(err.contains(&format!("game.toml:{line}:1")), "{err}");
}

#[test]
fn a_missing_six_player_deal_is_reported() {
    let (_guard, cat) = copy_catalogue("trumpet");
    edit(&cat, "game.toml", "[[deal]]\ndeck = \"cards\"\nplayers = 6\nhand = 7\n", "");
    let err = invalid(&cat);
    assert!(err.contains("the deal table has no row for 6 players"), "{err}");
}

// ---- Glyphs: a character no bundled font has fails the build. ----

#[test]
fn a_glyph_no_bundled_font_has_fails_the_build() {
    let (guard, cat) = copy_catalogue("trumpet");
    edit(&cat, "templates/path.svg", ">TRUMP SPACE<", ">TRUMP ⊕ SPACE<");
    let out = guard.path().join("out");
    let run =
        deckpress(&["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()], guard.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("no font has `⊕` (U+2295)"), "{err}");
    assert!(err.contains("templates/path.svg"), "{err}");
    assert!(
        !out.join("trumpet").exists()
            || std::fs::read_dir(out.join("trumpet")).unwrap().next().is_none(),
        "nothing written"
    );
}

// ---- The build: card sheets, pawns, markers, and the board both ways. ----

const MM: f64 = 72.0 / 25.4;

fn build_trumpet(extra: &[&str]) -> (tempfile::TempDir, PathBuf, String) {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec!["build", "trumpet", "--out", out.path().to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = deckpress(&args, &repo());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("trumpet");
    (out, dir, stdout(&run))
}

fn words(text: &str, word: &str) -> usize {
    text.split_whitespace().filter(|w| *w == word).count()
}

#[test]
fn build_writes_every_deck_duplex_on_a4_and_letter() {
    let (_guard, dir, printed) = build_trumpet(&["--paper", "a4,letter"]);
    // 9 cards a sheet, each front page followed by its back page.
    for (deck, expected) in
        [("cards", 16), ("trumps", 2), ("path", 6), ("characters", 4), ("pawns", 2), ("markers", 2)]
    {
        for (paper, size) in
            [("a4", "595.276 x 841.89 pts (A4)"), ("letter", "612 x 792 pts (letter)")]
        {
            let pdf = dir.join(format!("trumpet-{deck}-{paper}.pdf"));
            assert!(printed.contains(pdf.to_str().unwrap()), "{printed}");
            assert_eq!(pages(&pdf), expected, "{}", pdf.display());
            // The 44 × 30 mm markers: Letter turned holds more of them (issue 51).
            let size = match (deck, paper) {
                ("markers", "letter") => "792 x 612 pts (letter)",
                _ => size,
            };
            assert!(
                pdf_info(&pdf).contains(&format!("Page size:       {size}")),
                "{}",
                pdf_info(&pdf)
            );
        }
    }
}

#[test]
fn every_card_is_readable_with_its_suit_glyphs() {
    let (_guard, dir, _) = build_trumpet(&[]);
    let cards = without_slug(&plain_text(&dir.join("trumpet-cards-a4.pdf")));
    // Each numbered card shows its glyph in two corners and once large: 11 × 3 a suit.
    for glyph in ["♠", "♥", "♣", "♦", "✿", "★"] {
        assert_eq!(cards.matches(glyph).count(), 33, "{glyph}");
    }
    for suit in ["SPADES", "HEARTS", "CLUBS", "DIAMONDS", "FLOWERS", "STARS"] {
        assert_eq!(words(&cards, suit), 11, "{suit}");
    }
    assert_eq!(words(&cards, "SUPER"), 3);
    assert_eq!(words(&cards, "Trumpet"), 69, "one back per card");

    let trumps = plain_text(&dir.join("trumpet-trumps-a4.pdf"));
    assert_eq!(words(&trumps, "TRUMP"), 6);
    let path = plain_text(&dir.join("trumpet-path-a4.pdf"));
    assert_eq!(path.matches("BLANK SPACE").count(), 18);
    assert_eq!(path.matches("TRUMP SPACE").count(), 6);
    let characters = plain_text(&dir.join("trumpet-characters-a4.pdf"));
    let pawns = plain_text(&dir.join("trumpet-pawns-a4.pdf"));
    for name in ["BUTTERFLY", "WOLF", "PHOENIX", "SNAKE", "DRAGON", "MONKEY"] {
        assert_eq!(words(&characters, name), 2, "{name}");
        assert_eq!(words(&pawns, name), 4, "{name}: two pawns, named on both sides");
    }
    let markers = plain_text(&dir.join("trumpet-markers-a4.pdf"));
    assert_eq!(words(&markers, "TRUMP"), 12, "six fronts and six backs");
    assert_eq!(words(&markers, "MARKER"), 6, "the backs");
    for deck in ["cards", "trumps", "path", "characters", "pawns", "markers"] {
        assert_fonts_embedded(&dir.join(format!("trumpet-{deck}-a4.pdf")));
    }
}

#[test]
fn the_board_prints_on_a3_with_its_spaces_start_and_finish() {
    let (_guard, dir, printed) = build_trumpet(&[]);
    let pdf = dir.join("trumpet-board-a3.pdf");
    assert!(printed.contains(pdf.to_str().unwrap()), "{printed}");
    let info = poppler("pdfinfo", &["-box", pdf.to_str().unwrap()]);
    assert!(info.contains("Pages:           1"), "{info}");
    assert!(info.contains("Page size:       841.89 x 1190.55 pts (A3)"), "{info}");
    // The TrimBox is the board, 235 × 361 mm.
    let trim = info.lines().find(|l| l.starts_with("TrimBox:")).unwrap();
    let v: Vec<f64> = trim.split_whitespace().skip(1).map(|n| n.parse().unwrap()).collect();
    assert!(((v[2] - v[0]) - 235.0 * MM).abs() < 0.05, "{trim}");
    assert!(((v[3] - v[1]) - 361.0 * MM).abs() < 0.05, "{trim}");

    let board = plain_text(&pdf);
    for word in ["Start", "Finish"] {
        assert_eq!(words(&board, word), 2, "{word} in the heading and on the board: {board}");
    }
    for word in ["GAP", "STRONGEST", "STRONGER"] {
        assert_eq!(words(&board, word), 1, "{word}: {board}");
    }
    assert!(
        board.contains("TRUMPS LINE")
            && board.contains("TRUMP PILE")
            && board.contains("LAST 6 SPACES (19–24)"),
        "{board}"
    );
    // Six trump spaces (and the key) show ⎈ and say what it does.
    assert_eq!(board.matches("choose trumps").count(), 6 + 1, "{board}");
    // Every space is numbered.
    for n in 1..=24 {
        assert!(words(&board, &n.to_string()) >= 1, "space {n}: {board}");
    }
    assert_fonts_embedded(&pdf);
}

#[test]
fn the_board_is_tiled_on_a4_and_letter_with_a_map() {
    let (_guard, dir, _) = build_trumpet(&["--paper", "a4,letter"]);
    for (paper, size) in [("a4", "841.89 x 595.276 pts (A4)"), ("letter", "792 x 612 pts (letter)")]
    {
        let pdf = dir.join(format!("trumpet-board-tiled-{paper}.pdf"));
        let info = pdf_info(&pdf);
        // The assembly map, then 2 × 1 landscape tiles.
        assert!(info.contains("Pages:           3"), "{info}");
        assert!(info.contains(&format!("Page size:       {size}")), "{info}");
        let first = poppler("pdftotext", &["-f", "1", "-l", "1", pdf.to_str().unwrap(), "-"]);
        assert!(first.contains("Trumpet — Path board — assembly map"), "{first}");
        // Words joined by single spaces: pdftotext may break a label where board text is near.
        let tiles = poppler("pdftotext", &["-f", "2", "-l", "3", pdf.to_str().unwrap(), "-"])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            tiles.contains("tile row 1, column 1 (of 2 × 1)")
                && tiles.contains("tile row 2, column 1 (of 2 × 1)"),
            "{tiles}"
        );
        assert!(tiles.contains("Start") && tiles.contains("Finish"), "{tiles}");
        assert_fonts_embedded(&pdf);
    }
}

#[test]
fn the_board_paper_can_be_chosen() {
    let (_guard, dir, printed) = build_trumpet(&["--board-paper", "a2"]);
    let pdf = dir.join("trumpet-board-a2.pdf");
    assert!(printed.contains(pdf.to_str().unwrap()), "{printed}");
    assert!(
        pdf_info(&pdf).contains("Page size:       1190.55 x 1683.78 pts (A2)"),
        "{}",
        pdf_info(&pdf)
    );
    assert!(!dir.join("trumpet-board-a3.pdf").exists());
}
