//! Issue 40: the five built-in games print true, and every number they print comes from
//! their data. Each test copies a built-in catalogue, changes one datum (and the rules that
//! pin it), builds with `--strict`, reads the PDFs back with pdftotext, and checks that
//! every number depending on the datum follows and that no stale one is left.
//!
//! Every test is a table: `Prints(component, text)` is what must be printed after the
//! change, `Gone(component, text)` what must no longer be. A printed number that has no
//! datum behind it shows up here as a change with nothing to follow it.
//! The `…_prints_the_rules` tests read the sentences an audit against the seeds fixed.

use crate::common::*;

use std::path::Path;

/// What a component's PDF must, or must no longer, print.
enum Check {
    Prints(&'static str, &'static str),
    Gone(&'static str, &'static str),
}
use Check::{Gone, Prints};

/// The words of `<game>-<component>-a4[-lang].pdf` in a build's output.
fn words(out: &tempfile::TempDir, game: &str, component: &str, lang: &str) -> String {
    let file = out.path().join(game).join(format!("{game}-{component}-a4{lang}.pdf"));
    assert!(file.is_file(), "{} was not written", file.display());
    words_of(&file, None)
}

/// Builds the catalogue (only the components checked, on A4, `--strict`) and checks the
/// table.
fn prints(catalogue: &Path, args: &[&str], checks: &[Check]) {
    let game = catalogue.file_name().unwrap().to_str().unwrap().to_string();
    let mut only: Vec<&str> = checks
        .iter()
        .map(|c| match c {
            // A tiled board is built with the board.
            Prints(component, _) | Gone(component, _) => component.trim_end_matches("-tiled"),
        })
        .collect();
    only.sort();
    only.dedup();
    let only = only.join(",");
    let mut all = vec!["--only", only.as_str(), "--paper", "a4"];
    all.extend_from_slice(args);
    all.push("--strict");
    let (out, run) = build(catalogue, &all);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let lang = args
        .iter()
        .position(|a| *a == "--lang")
        .map(|i| format!("-{}", args[i + 1]))
        .unwrap_or_default();
    for check in checks {
        match check {
            Prints(component, text) => {
                let printed = words(&out, &game, component, &lang);
                assert!(printed.contains(text), "{component} must print `{text}`:\n{printed}");
            }
            Gone(component, text) => {
                let printed = words(&out, &game, component, &lang);
                assert!(!printed.contains(text), "{component} still prints `{text}`:\n{printed}");
            }
        }
    }
}

/// Replaces every occurrence (at least one) of `from` in a file of the catalogue.
fn edit_every(catalogue: &Path, file: &str, from: &str, to: &str) {
    let path = catalogue.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "`{from}` is not in {file}");
    std::fs::write(&path, text.replace(from, to)).unwrap();
}

/// Drops the `[[rule]]` called `name` from game.toml: it pins the datum a test changes.
fn drop_rule(catalogue: &Path, name: &str) {
    let path = catalogue.join("game.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find(&format!("name = \"{name}\"")).unwrap_or_else(|| panic!("no rule {name}"));
    let start = text[..at].rfind("[[rule]]").unwrap();
    let end = text[at..].find("\n\n").map_or(text.len(), |e| at + e + 1);
    std::fs::write(&path, format!("{}{}", &text[..start], &text[end..])).unwrap();
}

// ---- Trash (seed 001) ----

#[test]
fn trash_prints_the_rules() {
    let (_dir, cat) = copy_catalogue("trash");
    prints(
        &cat,
        &[],
        &[
            // "Run (a sequence of ascending unique value cards)"; 3-5-6 is invalid without a 4.
            Prints("aid", "a Run (consecutive rising values: 4-5-6)"),
            Gone("aid", "no repeats"),
            // "Unless this is the first turn, and so assigned randomly".
            Prints("aid", "First round: a random player; then the player with the most Trash"),
            // "… already in sequence within their hand …", read in GAMES.md's Decisions
            // (2026-11-28): next to each other; only the leader is bound to the hand.
            Prints("aid", "Hand cards: next to each other in your hand, in the combination's order. Offer Display cards: any of them, in any order."),
            Prints("aid", "Lead: from your hand only"),
            Prints("offer-display", "The leader plays from the hand only; followers may add Offer Display cards, any of them, in any order."),
            Gone("offer-display", "the leader plays from hand"),
            // The deal the rules leave open, printed as ours.
            Prints("aid", "The rules leave the deal open; we deal 7 cards each"),
        ],
    );
}

#[test]
fn trash_deal_follows_the_deal_table() {
    let (_dir, cat) = copy_catalogue("trash");
    edit_every(&cat, "game.toml", "hand = 7", "hand = 8");
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "The rules leave the deal open; we deal 8 cards each"),
            Gone("aid", "7 cards"),
        ],
    );
}

#[test]
fn trash_deal_that_differs_by_players_prints_as_a_table() {
    let (_dir, cat) = copy_catalogue("trash");
    edit(&cat, "game.toml", "players = 5\nhand = 7", "players = 5\nhand = 6");
    prints(
        &cat,
        &[],
        &[
            Prints(
                "aid",
                "The rules leave the deal open; we deal: 2–4 players 7 each 5 players 6 each",
            ),
            Gone("aid", "cards each"),
        ],
    );
}

#[test]
fn trash_end_thresholds_follow_the_pad() {
    let (_dir, cat) = copy_catalogue("trash");
    edit(&cat, "pad.csv", "end-4,fact,4 players,7 Trash", "end-4,fact,4 players,8 Trash");
    edit(&cat, "game.toml", "require = { info = \"7 Trash\" }", "require = { info = \"8 Trash\" }");
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "4 players 8 Trash"),
            Prints("pad", "4 players: 8 Trash"),
            Gone("aid", "7 Trash"),
            Gone("pad", "7 Trash"),
        ],
    );
}

#[test]
fn trash_values_follow_the_deck() {
    let (_dir, cat) = copy_catalogue("trash");
    edit(&cat, "game.toml", "from = \"french\"", "from = \"french\"\nunless = { rank = \"2\" }");
    edit(&cat, "game.toml", "count = 52", "count = 48");
    edit(&cat, "game.toml", "count = 13", "count = 12");
    drop_rule(&cat, "each rank has 4 cards");
    prints(
        &cat,
        &[],
        &[Prints("aid", "Values, low to high: 3 4 5 6 7 8 9 10 J Q K A"), Gone("aid", "2 3 4")],
    );
}

#[test]
fn trash_aid_names_the_values_as_the_russian_cards_do() {
    let (_dir, cat) = copy_catalogue("trash");
    prints(
        &cat,
        &["--lang", "ru"],
        &[Prints("aid", "2 3 4 5 6 7 8 9 10 В Д К Т"), Gone("aid", "J Q K A")],
    );
}

#[test]
fn trash_offer_display_slots_follow_the_card_size() {
    let (_dir, cat) = copy_catalogue("trash");
    prints(&cat, &[], &[Prints("offer-display", "card 6"), Gone("offer-display", "card 7")]);
    // Mini cards (44 × 63 mm): twelve landscape slots fit A4 where six poker cards did.
    edit(
        &cat,
        "game.toml",
        "from = \"french\"",
        "from = \"french\"\ncard = { width = \"44mm\", height = \"63mm\" }",
    );
    prints(&cat, &[], &[Prints("offer-display", "card 12"), Gone("offer-display", "card 13")]);
}

/// The 4-player pad printed "2 players: 3 Trash3 players: 5 Trash…" on A4, Letter and in
/// Russian, and validate --strict passed it: the facts now fit their boxes, everywhere.
#[test]
fn trash_pad_end_thresholds_fit_their_boxes_at_every_player_count() {
    let (_dir, cat) = copy_catalogue("trash");
    for players in ["2", "3", "4", "5"] {
        for lang in [&[][..], &["--lang", "ru"][..]] {
            let mut args =
                vec!["--only", "pad", "--paper", "a4,letter", "--players", players, "--strict"];
            args.extend_from_slice(lang);
            let (out, run) = build(&cat, &args);
            assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
            for paper in ["a4", "letter"] {
                let suffix = if lang.is_empty() { "" } else { "-ru" };
                let pdf = out.path().join("trash").join(format!("trash-pad-{paper}{suffix}.pdf"));
                let text = words_of(&pdf, None);
                let facts = if lang.is_empty() {
                    "2 players: 3 Trash 3 players: 5 Trash 4 players: 7 Trash 5 players: 9 Trash"
                } else {
                    "2 игрока: 3 штрафа 3 игрока: 5 штрафов 4 игрока: 7 штрафов 5 игроков: 9 штрафов"
                };
                assert!(text.contains(facts), "{players} players, {paper} {lang:?}: {text}");
                // No word runs into another: two words on one line (their boxes share more
                // than half a line's height; pdftotext's boxes of wrapped lines touch) that
                // share any width.
                let boxes = word_boxes(&pdf, Some(1));
                for (i, a) in boxes.iter().enumerate() {
                    for b in &boxes[i + 1..] {
                        let across = a.3.min(b.3) - a.1.max(b.1);
                        let down = a.4.min(b.4) - a.2.max(b.2);
                        let line = (a.4 - a.2).min(b.4 - b.2);
                        assert!(
                            across <= 0.3 || down <= line / 2.0,
                            "{players} players, {paper}: `{}` overlaps `{}`",
                            a.0,
                            b.0
                        );
                    }
                }
            }
        }
    }
}

/// A fact too long for its box is a warning, not a text running into the next box.
#[test]
fn a_pad_fact_too_long_for_its_box_is_reported() {
    let (_dir, cat) = copy_catalogue("trash");
    edit(
        &cat,
        "pad.csv",
        "end-2,fact,2 players,",
        "end-2,fact,2 players at a table where everyone keeps talking,",
    );
    let out = deckpress(
        &["validate", cat.to_str().unwrap(), "--strict", "--players", "5"],
        cat.parent().unwrap(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("does not fit its box"), "{err}");
}

// ---- Anti-trump (seed 004) ----

#[test]
fn anti_trump_prints_the_rules() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    prints(
        &cat,
        &[],
        &[
            // "In the extremely rare event that the pack contains only diamonds, there is no
            // anti-trump this round".
            Prints("aid", "Only diamonds left to flip: no anti-trump this round."),
            Prints("aid", "Each of the 9 rounds"),
            Prints("aid", "Rounds 1 / 2* 4 left / 4 right"),
            Prints("aid", "Round 9 none"),
            Prints("aid", "Short game: skip rounds 2, 4, 6, 8."),
            Prints("pad", "Short game: skip the rounds marked with an asterisk (2, 4, 6, 8); the marks on rounds 4, 6 and 8 are our choice."),
            Prints("pad", "bid 0–5 tricks"),
        ],
    );
}

#[test]
fn anti_trump_rounds_follow_the_pad() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    edit(&cat, "pad.csv", "round-9,line,Round 9,none,,9\n", "");
    drop_rule(&cat, "the pad has a row for each of the 9 rounds");
    prints(
        &cat,
        &[],
        &[Prints("aid", "Each of the 8 rounds"), Gone("aid", "9 rounds"), Gone("aid", "Round 9")],
    );
}

#[test]
fn anti_trump_exchanges_and_short_game_follow_the_pad() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    edit(&cat, "pad.csv", "Round 1,4 left", "Round 1,5 left");
    edit(&cat, "pad.csv", "Round 8,1 right,*", "Round 8,1 right,");
    edit(&cat, "pad.csv", "Round 9,none,", "Round 9,none,*");
    drop_rule(&cat, "the short-game rounds 2, 4, 6 and 8 are marked with an asterisk");
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "Rounds 1 / 2* 5 left / 4 right"),
            Prints("aid", "Rounds 7 / 8 1 left / 1 right Round 9* none"),
            Prints("aid", "Short game: skip rounds 2, 4, 6, 9."),
            Prints("pad", "(2, 4, 6, 9)"),
            Gone("aid", "4 left / 4 right"),
            Gone("aid", "6, 8"),
            Gone("pad", "6, 8"),
        ],
    );
}

#[test]
fn anti_trump_hand_bid_and_tricks_follow_the_deal() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    edit_every(&cat, "game.toml", "hand = 5", "hand = 6");
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "Deal 6 cards each"),
            Prints("aid", "Bid 0–6 tricks"),
            Prints("aid", "The dealer's left leads; 6 tricks."),
            Prints("pad", "bid 0–6 tricks"),
            Gone("aid", "5 cards"),
            Gone("aid", "0–5"),
            Gone("pad", "0–5"),
        ],
    );
}

#[test]
fn anti_trump_deal_that_differs_by_players_prints_as_a_table() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    edit(&cat, "game.toml", "players = 6\nhand = 5", "players = 6\nhand = 4");
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "Deal, by players: 2 players 5 each 3 players 5 each 4 players 5 each 5 players 5 each 6 players 4 each"),
            Prints("pad", "bid from 0 up to your hand tricks"),
            Gone("aid", "Deal 5 cards each"),
            Gone("aid", "0–5"),
            Gone("pad", "0–5"),
        ],
    );
}

#[test]
fn anti_trump_aid_ranks_the_cards_as_the_russian_cards_name_them() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    prints(
        &cat,
        &["--lang", "ru"],
        &[Prints("aid", "Т К Д В 10 9 8 7 6 5 4 3 2"), Gone("aid", "A K Q J")],
    );
}

// ---- TravFuda (seed 003) ----

#[test]
fn travfuda_prints_the_rules() {
    let (_dir, cat) = copy_catalogue("travfuda");
    prints(
        &cat,
        &[],
        &[
            // "Guidon Set: All three flags of the same color"; "Uniform Set: Starburst,
            // Cutlass, and Flag of the same color".
            Prints("pad", "Guidon Set (3 Flags, same colour) 2"),
            Prints("pad", "Uniform Set (S, C, F, same colour) 3"),
            Prints("run-pad", "Guidon Set (3 Flags, same colour) 2"),
            Prints("run-pad", "Uniform Set (S, C, F, same colour) 3"),
            Prints("aid", "Guidon Set (3 Flags, same colour) 2"),
            Prints("aid", "Uniform Set (S C F, same colour) 3"),
            // "If players tied, they are excluded. If all players are tied, draw again."
            Prints("aid", "Players still tied are out of the draw; all tied: draw again."),
        ],
    );
}

#[test]
fn travfuda_card_points_follow_the_cards() {
    let (_dir, cat) = copy_catalogue("travfuda");
    for colour in ["Red", "Blue", "Green", "Purple", "Yellow"] {
        edit(
            &cat,
            "cards.csv",
            &format!("Starburst,{colour},20"),
            &format!("Starburst,{colour},25"),
        );
    }
    edit(&cat, "game.toml", "require = { points = \"20\" }", "require = { points = \"25\" }");
    prints(
        &cat,
        &[],
        &[
            Prints("cards", "25 points"),
            Prints("aid", "Starburst 25"),
            Prints("pad", "Starburst 25"),
            Gone("aid", "Starburst 20"),
            Gone("pad", "Starburst 20"),
        ],
    );
}

#[test]
fn travfuda_suits_and_deck_size_follow_the_cards() {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "cards.csv", "joker,2,", "10-plain-extra,1,10,Terran World,Plain,,1\njoker,2,");
    edit(&cat, "game.toml", "count = 62", "count = 63");
    edit(&cat, "game.toml", "count = 26", "count = 27");
    drop_rule(&cat, "each suit has 6 cards");
    prints(
        &cat,
        &[],
        &[
            Prints("box", "63 cards"),
            Prints("box", "10 suits of 6 to 7 cards and 2 Jokers"),
            Prints("pad", "Whole Suit (all its cards) 1"),
            Prints("run-pad", "Whole Suit (all its cards) 1"),
            Prints("aid", "Whole Suit (all its cards) 1"),
            Gone("box", "62 cards"),
            Gone("box", "of 6 cards"),
            Gone("pad", "6 cards"),
            Gone("run-pad", "6 cards"),
            Gone("aid", "6 cards"),
        ],
    );
}

#[test]
fn travfuda_players_follow_the_game() {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "game.toml", "players = { min = 2, max = 6 }", "players = { min = 2, max = 5 }");
    edit(&cat, "game.toml", "[[deal]]\nplayers = 6\nhand = 4\ntable = 10\n", "");
    prints(
        &cat,
        &[],
        &[
            Prints("box", "62 cards · 2–5 players"),
            Prints("aid", "5 players 5 / 10"),
            Gone("box", "2–6"),
            Gone("aid", "6 players"),
        ],
    );
}

#[test]
fn travfuda_doubles_and_starbursts_follow_the_cards() {
    let (_dir, cat) = copy_catalogue("travfuda");
    // One of suit 1's three Plain cards (the suit has no Double) becomes a Double.
    edit(
        &cat,
        "cards.csv",
        "1-plain,3,1,Scoutship,Plain,,1",
        "1-plain,2,1,Scoutship,Plain,,1\n1-double,1,1,Scoutship,Double,,2",
    );
    edit(&cat, "game.toml", "count = 4", "count = 5");
    edit(&cat, "game.toml", "count = 26", "count = 25");
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "Double Trouble (5 Dbl, <20 Pl.) –10"),
            Prints("aid", "Double Good (5 Dbl, 20+ Pl.) ×2 hand"),
            Prints(
                "pad",
                "Double Trouble: all 5 Doubles without 20 Plain; Double Good: all 5 Doubles",
            ),
            Gone("aid", "4 Dbl"),
            Gone("pad", "all 4"),
            // The Starbursts, counted the same way, stay 5.
            Prints("aid", "Hero: 3 / 4 / 5 Starbursts 5/10/15"),
            Prints("aid", "Emperor (show 3 S, end with all 5) +10"),
            Prints("pad", "Grand Hero (all 5 Starbursts) 15"),
            Prints("pad", "end with all 5."),
            Prints("markers", "with all 5."),
        ],
    );
}

#[test]
fn travfuda_combination_points_follow_the_pad() {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "pad.csv", "same colour)\",2", "same colour)\",4");
    edit(&cat, "pad.csv", "Emperor or Archduke made,+10", "Emperor or Archduke made,+12");
    prints(
        &cat,
        &[],
        &[
            Prints("pad", "Guidon Set (3 Flags, same colour) 4"),
            Prints("aid", "Guidon Set (3 Flags, same colour) 4"),
            Prints("aid", "Emperor (show 3 S, end with all 5) +12"),
            Prints("aid", "Archduke (show 3 Dbl, end 20+ Pl.) +12"),
            Prints("markers", "+12 made –20 failed"),
            Gone("aid", "+10"),
            Gone("markers", "+10"),
        ],
    );
}

#[test]
fn travfuda_run_attempts_follow_their_run_values() {
    let (_dir, cat) = copy_catalogue("travfuda");
    // The Run Attempts run 2 to 7 instead of 1 to 6 (markers from their CSV).
    let pad = std::fs::read_to_string(cat.join("run-pad.csv")).unwrap();
    let pad: Vec<String> = pad
        .lines()
        .map(|line| match line.rsplit_once(',') {
            Some((rest, run)) if line.starts_with("run-") => {
                format!("{rest},{}", run.parse::<u32>().unwrap() + 1)
            }
            _ => line.to_string(),
        })
        .collect();
    std::fs::write(cat.join("run-pad.csv"), pad.join("\n") + "\n").unwrap();
    for run in (1..=6).rev() {
        edit(&cat, "markers.csv", &format!(",Run,{run},"), &format!(",Run,{},", run + 1));
    }
    edit(
        &cat,
        "game.toml",
        "rows = \"markers.xlsx\"\nsheet = \"markers\"",
        "rows = \"markers.csv\"",
    );
    edit_every(&cat, "game.toml", "start = 1", "start = 2");
    prints(
        &cat,
        &[],
        &[
            Prints("run-pad", "2nd Run Attempt +2 3rd Run Attempt +3"),
            Prints("run-pad", "6th Run Attempt +6 7th Run Attempt +7"),
            Prints("markers", "+7 points on Jump 7th Run"),
            Prints("markers", "+2 points on Jump 2nd Run"),
            Gone("run-pad", "1st"),
            Gone("run-pad", "+1 "),
            Gone("markers", "1st"),
            Gone("markers", "+1 point"),
        ],
    );
}

// ---- Trumpet (seed 000) ----

#[test]
fn trumpet_prints_the_rules() {
    let (_dir, cat) = copy_catalogue("trumpet");
    prints(
        &cat,
        &[],
        &[
            // "The player to the left of the dealer starts by playing a card."
            Prints("aid", "The dealer's left leads the first trick; the winner leads the next."),
            // "Whenever a character lands on a ⎈ space, the owner of that character must
            // choose trumps."
            Prints(
                "aid",
                "Your character lands on a ⎈ space: look through the face-down trumps, pick one",
            ),
            Prints(
                "board-tiled",
                "Your pawn lands on a ⎈ space: look through the face-down trumps, pick one",
            ),
            // "If a player has no more cards in their hand … they can wait until the new hand
            // of cards is dealt before making their choice of trumps."
            Prints("aid", "No cards in hand: you may choose after the next deal."),
            Prints("board-tiled", "No cards in hand: you may choose after the next deal."),
            // "If as a result of a backwards move a character lands on a ⎈ space, then the
            // character's player must conduct normal activity associated with that space."
            Prints("aid", "back on a ⎈ space, its owner chooses trumps."),
            Prints("board-tiled", "moved back onto a ⎈ space, its owner chooses trumps."),
            Gone("aid", "counts)"),
            Prints("aid", "All 6 out: you must swap two cards of the line."),
            Prints("aid", "The last 6 spaces"),
            Prints("aid", "Deal 7 each; the deal passes left."),
            Prints("board-tiled", "move past space 24 to win"),
            Prints("path", "Spades K, one of 3"),
        ],
    );
}

#[test]
fn trumpet_board_of_23_spaces() {
    let (_dir, cat) = copy_catalogue("trumpet");
    edit(&cat, "board.csv", "space-24,space,24,blank,7,10,last-six,\n", "");
    for rule in [
        "the board path has 24 spaces",
        "the board has 18 blank spaces",
        "the board and the path cards have as many spaces",
        "the board and the path cards have as many blank spaces",
        "the last-six region is six spaces",
    ] {
        drop_rule(&cat, rule);
    }
    prints(
        &cat,
        &[],
        &[
            Prints("board-tiled", "Path board · 23 spaces from Start to Finish"),
            Prints("board-tiled", "move past space 23 to win"),
            Prints("board-tiled", "LAST 5 SPACES (19–23)"),
            Prints("aid", "The last 5 spaces"),
            Gone("board-tiled", "space 24"),
            Gone("board-tiled", "–24"),
            Gone("board-tiled", "LAST 6"),
            Gone("aid", "last 6"),
        ],
    );
}

#[test]
fn trumpet_path_cards_count_their_suit() {
    let (_dir, cat) = copy_catalogue("trumpet");
    edit_every(&cat, "path.csv", ",3,path,blank,", ",4,path,blank,");
    for rule in [
        "the path has 24 cards",
        "the path has 18 blank spaces",
        "three blank-space Ks in each suit",
        "the board and the path cards have as many spaces",
        "the board and the path cards have as many blank spaces",
    ] {
        drop_rule(&cat, rule);
    }
    prints(
        &cat,
        &[],
        &[
            Prints("path", "Stars K, one of 4"),
            Gone("path", "one of 3"),
            // The deck's name, in every page's slug, counted its cards too.
            Gone("path", "18 blank"),
        ],
    );
}

#[test]
fn trumpet_trumps_follow_the_trump_cards_and_markers() {
    let (_dir, cat) = copy_catalogue("trumpet");
    edit(&cat, "trumps.csv", "trump-stars,1,trump,Stars,A\n", "");
    edit(&cat, "markers.csv", "marker-stars,1,trump-marker,Stars,A\n", "");
    for rule in [
        "there are 6 trump cards",
        "exactly one trump A per suit",
        "trump spaces = trump cards = Trumps Line slots = trump markers",
        "one trump marker per suit",
    ] {
        drop_rule(&cat, rule);
    }
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "All 5 out: you must swap two cards of the line."),
            Prints("board-tiled", "Setting up: lay the 5 trump markers face down here."),
            Prints("board-tiled", "All 5 placed?"),
            Gone("aid", "All 6"),
            Gone("board-tiled", "the 6 trump"),
            Gone("board-tiled", "All 6"),
        ],
    );
}

#[test]
fn trumpet_board_names_the_sizes_of_the_markers_and_trump_cards() {
    let (_dir, cat) = copy_catalogue("trumpet");
    edit(
        &cat,
        "game.toml",
        "card = { width = \"44mm\", height = \"30mm\" }",
        "card = { width = \"46mm\", height = \"32mm\" }",
    );
    prints(
        &cat,
        &[],
        &[
            Prints("board-tiled", "Slots take the 46 × 32 mm trump markers."),
            Prints("board-tiled", "The 63 × 88 mm trump cards (A) do not fit"),
            Gone("board-tiled", "44 × 30"),
        ],
    );
}

#[test]
fn trumpet_deal_that_differs_by_players_prints_as_a_table() {
    let (_dir, cat) = copy_catalogue("trumpet");
    edit(&cat, "game.toml", "players = 6\nhand = 7", "players = 6\nhand = 6");
    prints(
        &cat,
        &[],
        &[
            Prints("aid", "Deal, by players (passes left): 2 players 7 each 3 players 7 each 4 players 7 each 5 players 7 each 6 players 6 each"),
            Gone("aid", "Deal 7 each"),
        ],
    );
}

// ---- Track (seed 002) ----

#[test]
fn track_prints_the_rules() {
    let (_dir, cat) = copy_catalogue("track");
    prints(
        &cat,
        &[],
        &[
            // "spread on the table 2 jokers in an upright position at a distance of one card
            // from each other. On each card, players place their chips"; "The draw
            // determines who will play with black, and who will play with red cards".
            Prints("aid", "Set-up Lay the Jokers upright, one card's length apart: a sideways card fills the gap exactly. Each is a starting card, with the player's runner on it. Draw to decide who has the red cards."),
            // "The seniority of the cards: 2, 3, 4, 5, 6, 7, 8, 9, 10, B, D, K, T."
            Prints("aid", "Ranks, low to high: 2 3 4 5 6 7 8 9 10 J Q K A"),
        ],
    );
}

#[test]
fn track_ranks_follow_the_deck() {
    let (_dir, cat) = copy_catalogue("track");
    edit(&cat, "game.toml", "from = \"french\"", "from = \"french\"\nunless = { rank = \"2\" }");
    for (from, to) in
        [("count = 158", "count = 146"), ("count = 39", "count = 36"), ("count = 52", "count = 48")]
    {
        edit(&cat, "game.toml", from, to);
    }
    edit_every(&cat, "game.toml", "count = 78", "count = 72");
    drop_rule(&cat, "each rank has 12 cards (four suits in three decks)");
    prints(
        &cat,
        &[],
        &[Prints("aid", "Ranks, low to high: 3 4 5 6 7 8 9 10 J Q K A"), Gone("aid", "2 3 4")],
    );
}

#[test]
fn track_aid_names_the_ranks_as_the_russian_cards_do() {
    let (_dir, cat) = copy_catalogue("track");
    prints(
        &cat,
        &["--lang", "ru"],
        &[Prints("aid", "Старшинство, от младшей: 2 3 4 5 6 7 8 9 10 В Д К Т")],
    );
}

// ---- Every game, every table size, paper and language ----

/// `validate --strict` is clean for each built-in game at each player count it is for, on
/// A4 and Letter, in each language it prints (Trash, Anti-trump and Track have Russian).
#[test]
fn every_game_validates_strict_at_every_player_count_paper_and_language() {
    let games: [(&str, std::ops::RangeInclusive<u32>, &[&str]); 5] = [
        ("trash", 2..=5, &["ru"]),
        ("anti-trump", 2..=6, &["ru"]),
        ("trumpet", 2..=6, &[]),
        ("travfuda", 2..=6, &[]),
        ("track", 2..=2, &["ru"]),
    ];
    for (game, players, langs) in games {
        for n in players {
            let n = n.to_string();
            for lang in std::iter::once(None).chain(langs.iter().map(Some)) {
                let mut args = vec!["validate", game, "--strict", "--paper", "a4,letter"];
                args.extend_from_slice(&["--players", &n]);
                if let Some(lang) = lang {
                    args.extend_from_slice(&["--lang", lang]);
                }
                let out = deckpress(&args, &repo());
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{game}, {n} players, {lang:?}:\n{}",
                    stderr(&out)
                );
            }
        }
    }
}
