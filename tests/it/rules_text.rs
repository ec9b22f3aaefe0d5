//! The rules text printed on the components matches the seed rule documents
//! (../shared/seeds/, read in ../shared/GAMES.md). Each test builds one built-in game on A4
//! and Letter, reads its player aid and its pads, mats and boards back with pdftotext, and
//! checks the phrases a player would check against the rules: what must be printed, and
//! wording an earlier audit found that the seeds do not say.

use crate::common::*;

const PAPERS: [&str; 2] = ["a4", "letter"];

/// Every PDF the build wrote for the game, with its text.
fn every_pdf(out: &tempfile::TempDir, game: &str) -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = std::fs::read_dir(out.path().join(game))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), words_of(&p, None)))
        .collect();
    all.sort();
    assert!(!all.is_empty());
    all
}

fn has(text: &str, phrase: &str, what: &str) {
    assert!(text.contains(phrase), "{what} must print `{phrase}`:\n{text}");
}

fn has_not(text: &str, phrase: &str, what: &str) {
    assert!(!text.contains(phrase), "{what} must not print `{phrase}`:\n{text}");
}

/// The aid's front and back (page 1 and 2 of its PDF: one card for each player).
fn aid(out: &tempfile::TempDir, game: &str, paper: &str) -> (String, String) {
    let file = home_pdf(out, game, "aid", paper);
    (words_of(&file, Some(1)), words_of(&file, Some(2)))
}

// ---- Trash (seed 001) ----

/// Seed 001: "a Follow player may draw a card either from the deck or from someone else's
/// Offer Display", while a stronger combination may be played "from either their hand
/// &/or anyone's Offer Display".
#[test]
fn trash_draws_come_from_the_deck_or_someone_elses_offer_display() {
    let (out, _) = build_game("trash", &["--paper", "a4,letter"]);
    for paper in PAPERS {
        let (front, back) = aid(&out, "trash", paper);
        let draw = "Draw from the deck or someone else's Offer Display";
        assert_eq!(
            front.matches(draw).count(),
            5,
            "{paper}: the aid of each of 5 players: `{draw}`\n{front}"
        );
        has(
            &front,
            "Play a stronger combination from your hand and/or anyone's Offer Display",
            "the aid",
        );
        has(&front, "Hands may never be rearranged", "the aid");
        has(&back, "Fewest Trash wins", "the aid's back");

        let mat = words_of(&home_pdf(&out, "trash", "offer-display", paper), None);
        has(
            &mat,
            "drawing from the deck or someone else's Offer Display into your hand",
            "the Offer Display mat",
        );
        has(
            &mat,
            "A follower may play cards from anyone's Offer Display, alone or with hand cards, in a stronger combination",
            "the Offer Display mat",
        );

        let pad = words_of(&home_pdf(&out, "trash", "pad", paper), None);
        for (players, trash) in [(2, 3), (3, 5), (4, 7), (5, 9)] {
            has(&pad, &format!("{players} players: {trash} Trash"), "the score pad");
        }
    }
    // A display to draw from is never "any": your own is not one.
    for (file, text) in every_pdf(&out, "trash") {
        has_not(&text, "any Offer Display", &file);
    }
}

// ---- Trumpet (seed 000) ----

/// Seed 000: "If more than one Super-Trump card is played then the last one played wins the
/// trick" — and there are three of them, so never "of two".
#[test]
fn trumpet_the_last_of_several_super_trumps_played_wins() {
    let (out, _) = build_game("trumpet", &["--paper", "a4,letter"]);
    let rule = "of several, the last one played wins";
    for paper in PAPERS {
        let cards = words_of(&home_pdf(&out, "trumpet", "cards", paper), None);
        assert_eq!(cards.matches("SUPER TRUMP").count(), 3, "{paper}: three super-trumps");
        assert_eq!(
            cards.matches(&format!("beats every card; {rule}")).count(),
            3,
            "{paper}: each super-trump states the rule\n{cards}"
        );

        let (front, back) = aid(&out, "trumpet", paper);
        assert_eq!(
            front.matches(&format!("Super-trump ⎈ J Q K beats every card; {rule}")).count(),
            6,
            "{paper}: each of 6 aids\n{front}"
        );
        has(
            &front,
            "Not following suit when you could: go to the space just behind the last character",
            "the aid",
        );
        has(&back, "Deal 7 each", "the aid's back");
        has(&back, "First past the last space wins", "the aid's back");

        let tiled = words_of(&home_pdf(&out, "trumpet", "board-tiled", paper), None);
        has(
            &tiled,
            &format!("Super-trumps (⎈ J, Q, K) beat every trump; {rule}"),
            "the tiled board",
        );
    }
    let board = words_of(&home_pdf(&out, "trumpet", "board", "a3"), None);
    has(&board, &format!("Super-trumps (⎈ J, Q, K) beat every trump; {rule}"), "the A3 board");
    has(&board, "LAST 6 SPACES (19–24)", "the A3 board");
    for (file, text) in every_pdf(&out, "trumpet") {
        has_not(&text, "of two", &file);
    }
}

// ---- TravFuda (seed 003) ----

/// Seed 003, "Starting the Game": "In a 2 player game, each gets 12 cards, and 12 go to the
/// middle. 3 players: each gets 8, and the table gets 12. …" and "deal by lowest player,
/// who also plays first"; "Combinations can score extra points: … Emperor: 10 points …
/// -20 if attempted but not completed. Archduke: …", which Run or Jump! scores ("Points are
/// not scored for cards captured, only for combinations"). The seed says nothing of
/// scoring only the highest of Hero, Major Hero and Grand Hero.
#[test]
fn travfuda_aid_prints_the_deal_and_first_player_and_the_pads_the_seed_scoring() {
    // The seed's deal table, which game.toml's [[deal]] tables must be too.
    let seed = [(2, 12, 12), (3, 8, 12), (4, 6, 12), (5, 5, 10), (6, 4, 10)];
    let manifest: toml::Table =
        std::fs::read_to_string(repo().join("catalogues/travfuda/game.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let deals: Vec<(i64, i64, i64)> = manifest["deal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["players"].as_integer().unwrap(),
                d["hand"].as_integer().unwrap(),
                d["table"].as_integer().unwrap(),
            )
        })
        .collect();
    assert_eq!(deals, seed, "game.toml's [[deal]] tables are the seed's");

    let (out, _) = build_game("travfuda", &["--paper", "a4,letter"]);
    for paper in PAPERS {
        let (front, back) = aid(&out, "travfuda", paper);
        has(&front, "Deal: each / face up to the table", "the aid");
        for (players, hand, table) in seed {
            let row = format!("{players} players {hand} / {table}");
            assert_eq!(
                front.matches(&row).count(),
                6,
                "{paper}: each of 6 aids prints `{row}`\n{front}"
            );
        }
        assert_eq!(
            front
                .matches("Each draws a card: the lowest suit number deals and plays first")
                .count(),
            6,
            "{paper}: who plays first\n{front}"
        );
        has(&front, "Same number: Starburst, then Cutlass, Flag, Double, Plain", "the aid");
        has(&back, "Emperor (show 3 S, end with all 5) +10", "the aid's back");
        has(&back, "Archduke (show 3 Dbl, end 20+ Pl.) +10", "the aid's back");
        has(&back, "Emperor or Archduke failed –20", "the aid's back");

        let run = words_of(&home_pdf(&out, "travfuda", "run-pad", paper), None);
        has(&run, "Combinations only (captured cards score nothing)", "the Run or Jump! pad");
        has(&run, "Emperor or Archduke made +10", "the Run or Jump! pad");
        has(&run, "Emperor or Archduke failed –20", "the Run or Jump! pad");
        has(&run, "6th Run Attempt +6", "the Run or Jump! pad");

        let pad = words_of(&home_pdf(&out, "travfuda", "pad", paper), None);
        for line in [
            "Hero (3 Starbursts) 5",
            "Major Hero (4 Starbursts) 10",
            "Grand Hero (all 5 Starbursts) 15",
            "Emperor or Archduke made +10",
            "Emperor or Archduke failed –20",
        ] {
            has(&pad, line, "the score pad");
        }
    }
    for (file, text) in every_pdf(&out, "travfuda") {
        has_not(&text, "highest only", &file);
    }
}

// ---- Anti-trump (seed 004) ----

/// Seed 004: "Suit: Trump > Leading Suit > Anti-Trump", "Diamonds are the trump suit",
/// "deals 5 cards to each player", bids "between 0 (also known as nil) and 5", and the
/// exchange chart (1: 4 cards, left … 9: no exchange).
#[test]
fn anti_trump_aid_and_pad_print_the_ranking_the_bid_and_the_exchange() {
    let (out, _) = build_game("anti-trump", &["--paper", "a4,letter"]);
    for paper in PAPERS {
        let (front, back) = aid(&out, "anti-trump", paper);
        assert_eq!(
            front.matches("Trump ♦ > leading suit > anti-trump").count(),
            6,
            "{paper}: each of 6 aids\n{front}"
        );
        has(&front, "Diamonds are always trump", "the aid");
        has(&back, "Deal 5 cards each", "the aid's back");
        has(&back, "Bid 0–5 tricks", "the aid's back");

        let pad = words_of(&home_pdf(&out, "anti-trump", "pad", paper), None);
        has(&pad, "Round 1 4 left Round 2 * 4 right", "the score pad");
        has(&pad, "Round 9 none", "the score pad");
    }
}

// ---- Track (seed 002) ----

/// Seed 002: "In order for the player to win, he must pass his chip from the starting joker
/// to 10 cards vertically up and return to the starting joker", and a King turned up puts
/// a small chip on the starting joker, which may "move the chip immediately to 3 cards".
#[test]
fn track_aid_prints_the_goal_and_the_kings_small_chip() {
    let (out, _) = build_game("track", &["--paper", "a4,letter"]);
    for paper in PAPERS {
        let (front, back) = aid(&out, "track", paper);
        assert_eq!(
            back.matches(
                "First runner to go 10 upright cards up from its Joker and back to it wins"
            )
            .count(),
            2,
            "{paper}: both aids\n{back}"
        );
        has(&front, "Only upright cards count as steps", "the aid");
        has(
            &back,
            "King turned up: put a small chip on your Joker; move it up to 3 cards",
            "the aid's back",
        );
        has(&back, "Chips of different colours never share a card", "the aid's back");
    }
}
