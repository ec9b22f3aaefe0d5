//! Issue 50: one reading of every rule decided in ../shared/GAMES.md ("Decisions
//! (2026-11-28)"), printed in the same words by the rulebook and the player aid (and the
//! pads, mats and boards that state it), read back from the PDFs; and no typed number
//! where a player reads: covers, deck names, footers, rulebooks and pads follow the data,
//! or the build stops at the line that cannot follow.

use crate::common::*;

use std::path::Path;

/// The rulebook's words and each component's, built from `catalogue` on A4.
fn printed(catalogue: &Path, components: &[&str]) -> Vec<(String, String)> {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let game = catalogue.file_name().unwrap().to_str().unwrap();
    let cat = catalogue.to_str().unwrap();
    let rules = deckpress(&["rules", cat, "--out", dir, "--strict"], &repo());
    assert_eq!(rules.status.code(), Some(0), "{}", stderr(&rules));
    // A tiled board is built with the board.
    let only: Vec<&str> = components.iter().map(|c| c.trim_end_matches("-tiled")).collect();
    let only = only.join(",");
    let build = deckpress(&["build", cat, "--out", dir, "--only", &only, "--paper", "a4"], &repo());
    assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
    let mut all = vec![("rules".to_string(), words_of(&home_pdf(&out, game, "rules", "a4"), None))];
    for c in components {
        all.push((c.to_string(), words_of(&home_pdf(&out, game, c, "a4"), None)));
    }
    all
}

/// Each decided rule's words must be printed by every part named with it, and the words of
/// the readings it replaced by none of the parts read.
fn agree(game: &str, decisions: &[(&str, &str, &[&str])], replaced: &[&str]) {
    let (_dir, cat) = copy_catalogue(game);
    let mut parts: Vec<&str> = decisions.iter().flat_map(|(_, _, p)| p.iter().copied()).collect();
    parts.sort();
    parts.dedup();
    parts.retain(|p| *p != "rules");
    let texts = printed(&cat, &parts);
    for (decision, words, wanted) in decisions {
        for part in ["rules"].iter().chain(wanted.iter()) {
            let text = &texts.iter().find(|(p, _)| p == part).unwrap().1;
            assert!(
                text.contains(words),
                "{game}: the {part} must state \"{decision}\" as `{words}`:\n{text}"
            );
        }
    }
    for (part, text) in &texts {
        for old in replaced {
            assert!(!text.contains(old), "{game}: the {part} still prints `{old}`:\n{text}");
        }
    }
}

#[test]
fn trumpet_rulebook_aid_and_board_state_each_decision_alike() {
    agree(
        "trumpet",
        &[
            (
                "trumps are a free choice",
                "look through the face-down trumps, pick one",
                &["aid", "board-tiled"],
            ),
            (
                "the full-line swap is obliged",
                "must swap two cards of the line",
                &["aid", "board-tiled"],
            ),
            ("the penalty", "go to the space just behind the last character", &["aid"]),
            ("the penalty at Start", "go to Start", &["aid"]),
            ("the penalty of the last", "go back one space", &["aid"]),
            ("a trump space reached by a penalty", "counts as landing", &["aid"]),
            ("2 players is ours", "2 is our choice", &[]),
        ],
        &[
            "Turn a face-down trump A",
            "lets you swap",
            "swap two cards in the line",
            "go to the space behind the last player",
        ],
    );
}

#[test]
fn anti_trump_rulebook_and_aid_give_every_trick_one_winner() {
    agree(
        "anti-trump",
        &[
            ("led in trump or neutral", "Led in trump or in the neutral suit: the highest trump wins, or failing one the highest card of the suit led. Anti-trump and off-suit cards never win it.", &["aid"]),
            ("led in anti-trump, followed", "Led in anti-trump: if nobody plays a trump or a neutral card, the highest anti-trump wins.", &["aid"]),
            ("led in anti-trump, joined", "If anybody does, the highest trump wins, or failing one the highest neutral card; no anti-trump can win it.", &["aid"]),
            ("the short-game marks we added", "arks on rounds 4, 6 and 8", &["aid", "pad"]),
            ("…are ours", "our choice", &["aid", "pad"]),
        ],
        &["highest card wins as usual", "A neutral card that was not led can never win", "The highest ranking card wins"],
    );
}

#[test]
fn trash_rulebook_aid_and_mat_bind_only_the_leader_to_the_hand() {
    agree(
        "trash",
        &[
            (
                "hand cards lie together",
                "next to each other in your hand",
                &["aid", "offer-display"],
            ),
            ("only the leader is bound", "hand only", &["aid", "offer-display"]),
            (
                "Offer Display cards in any order",
                "any of them, in any order",
                &["aid", "offer-display"],
            ),
            (
                "stronger",
                "the same type and count with higher values, or exactly one card longer",
                &["aid"],
            ),
            (
                "the draw pile runs out",
                "When the draw pile runs out, shuffle the discarded cards into a new one",
                &["offer-display"],
            ),
        ],
        &["Leader and followers", "(for the leader too)", "same type and higher"],
    );
}

#[test]
fn track_rulebook_and_aid_lay_the_route_alike() {
    agree(
        "track",
        &[
            ("the Jokers' gap", "one card's length apart", &["aid"]),
            ("columns", "stands on the short side of another upright card", &["aid"]),
            ("back onto the Joker", "A chip may always step back onto its own Joker", &["aid"]),
            ("only upright cards count", "upright cards count", &["aid"]),
        ],
        &["one card's width apart", "one card apart", "vertical cards up"],
    );
}

#[test]
fn travfuda_rulebook_aid_and_pads_keep_table_piles_apart_and_heroes_apart() {
    agree(
        "travfuda",
        &[
            ("table piles", "are each their own pile, even when two share a suit", &["aid"]),
            (
                "heroes do not add up",
                "only the highest one made scores",
                &["aid", "pad", "run-pad"],
            ),
        ],
        &[],
    );
}

/// GAMES.md: TravFuda's credits "on the cover and in the rulebook".
#[test]
fn travfuda_cover_and_rulebook_carry_the_originals_credits() {
    let (_dir, cat) = copy_catalogue("travfuda");
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["bundle", cat.to_str().unwrap(), "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pnp = home_pdf(&out, "travfuda", "pnp", "a4");
    let cover = words_of(&pnp, Some(1));
    let all = words_of(&pnp, None);
    for credit in [
        "© 2006 William F. Hostman",
        "Permission granted for local non-commercial reproduction for personal use",
        "Traveller™ is a trademark of Far Future Enterprises, and is used without permission",
        "by Marc W. Miller",
    ] {
        assert!(cover.contains(credit), "the cover must print `{credit}`:\n{cover}");
        assert!(all.matches(credit).count() >= 2, "the rulebook too: `{credit}`");
    }
}

// ---- No typed number ----

/// One suit grows to 7: the cover's description says "6 to 7", and the rulebook's "suits
/// of N cards each" is refused at its line rather than printing the first suit's 6.
#[test]
fn an_uneven_suit_changes_the_cover_and_stops_the_rulebook_at_its_line() {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "cards.csv", "joker,2,", "10-plain-extra,1,10,Terran World,Plain,,1\njoker,2,");
    edit(&cat, "game.toml", "count = 62", "count = 63");
    edit(&cat, "game.toml", "count = 26", "count = 27");
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(
        cat.join("game.toml"),
        toml.replace(
            "name = \"each suit has 6 cards\"\ndeck = \"cards\"\neach = \"suit\"\ncount = 6\n",
            "name = \"each suit has 6 cards\"\ndeck = \"cards\"\neach = \"suit\"\nat_least = 6\n",
        ),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let rules = deckpress(&["rules", cat.to_str().unwrap(), "--out", dir], &repo());
    assert_eq!(rules.status.code(), Some(1), "{}", stderr(&rules));
    let err = stderr(&rules);
    let text = std::fs::read_to_string(cat.join("rules.md")).unwrap();
    let line =
        text.lines().position(|l| l.contains("count(each='suit') }} cards each")).unwrap() + 1;
    assert!(err.contains(&format!("rules.md:{line}:")), "{err}");
    assert!(err.contains("they have 6 or 7 (`10` has 7, the others 6)"), "{err}");
    // `validate` promises `rules`: it refuses the same line.
    let validate = deckpress(&["validate", cat.to_str().unwrap()], &repo());
    assert_eq!(validate.status.code(), Some(1), "{}", stderr(&validate));
    assert!(stderr(&validate).contains(&format!("rules.md:{line}:")), "{}", stderr(&validate));

    // Without the rulebook's claim, the cover follows the suits.
    let fixed = text.replace("{{ count(each='suit') }} cards each", "6 or more cards").replace(
        "all {{ count(each='suit') }} cards of one numbered suit",
        "every card of one numbered suit",
    );
    std::fs::write(cat.join("rules.md"), fixed).unwrap();
    let bundle = deckpress(&["bundle", cat.to_str().unwrap(), "--out", dir], &repo());
    assert_eq!(bundle.status.code(), Some(0), "{}", stderr(&bundle));
    let cover = words_of(&home_pdf(&out, "travfuda", "pnp", "a4"), Some(1));
    assert!(cover.contains("10 suits of 6 to 7 cards and 2 Jokers (63 cards)"), "{cover}");
    assert!(!cover.contains("62"), "{cover}");
}

/// A fourth marked deck: the cover's description, the deck's name on the cover and in
/// every deck-page footer follow.
#[test]
fn a_fourth_track_deck_renames_the_deck_on_the_cover_and_in_the_footers() {
    let (_dir, cat) = copy_catalogue("track");
    edit(
        &cat,
        "game.toml",
        "copies = 3\nmarks = [\"I\", \"II\", \"III\"]",
        "copies = 4\nmarks = [\"I\", \"II\", \"III\", \"IV\"]",
    );
    edit(&cat, "game.toml", "count = 158", "count = 210");
    edit(&cat, "game.toml", "count = 39", "count = 52");
    edit(
        &cat,
        "game.toml",
        "count = 12\n\n[[rule]]\nname = \"three copies",
        "count = 16\n\n[[rule]]\nname = \"three copies",
    );
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(cat.join("game.toml"), toml.replace("count = 78", "count = 104")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let bundle = deckpress(&["bundle", cat.to_str().unwrap(), "--out", dir], &repo());
    assert_eq!(bundle.status.code(), Some(0), "{}", stderr(&bundle));
    let pnp = home_pdf(&out, "track", "pnp", "a4");
    let cover = words_of(&pnp, Some(1));
    assert!(cover.contains("4 decks of 52 cards and 2 Jokers (210 cards)"), "{cover}");
    assert!(cover.contains("Track deck (4 marked decks and the Jokers)"), "{cover}");
    let all = words_of(&pnp, None);
    assert!(!all.contains("three marked decks") && !all.contains("158"), "stale: {all}");
    let build = deckpress(
        &["build", cat.to_str().unwrap(), "--out", dir, "--only", "cards", "--paper", "a4"],
        &repo(),
    );
    assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
    let deck = words_of(&home_pdf(&out, "track", "cards", "a4"), Some(1));
    assert!(deck.contains("Track deck (4 marked decks and the Jokers)"), "the footer: {deck}");
}

/// No player count leaves the pack all trumps: the sentence naming them would name none,
/// and the rulebook stops at its line.
#[test]
fn an_empty_list_in_a_rulebook_sentence_is_an_error_at_its_line() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    edit(&cat, "game.toml", "[[deal]]\nplayers = 6\nhand = 5\n", "");
    edit(&cat, "game.toml", "players = { min = 2, max = 6 }", "players = { min = 2, max = 5 }");
    let out = tempfile::tempdir().unwrap();
    let rules = deckpress(
        &["rules", cat.to_str().unwrap(), "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(rules.status.code(), Some(1), "{}", stderr(&rules));
    let err = stderr(&rules);
    let text = std::fs::read_to_string(cat.join("rules.md")).unwrap();
    let line = text.lines().position(|l| l.contains("join_words('or')")).unwrap() + 1;
    assert!(err.contains(&format!("rules.md:{line}:")), "{err}");
    assert!(err.contains("the list is empty"), "{err}");
    // `validate` promises that `rules` succeeds: it says the same, at the same line.
    let validate = deckpress(&["validate", cat.to_str().unwrap()], &repo());
    assert_eq!(validate.status.code(), Some(1), "{}", stderr(&validate));
    assert!(stderr(&validate).contains(&format!("rules.md:{line}:")), "{}", stderr(&validate));
}

/// The Run or Jump! pad reads the score pad's points: one copy, changed once.
#[test]
fn the_run_or_jump_pad_prints_the_score_pads_points() {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "pad.csv", "hero,line,Hero (3 Starbursts),5", "hero,line,Hero (3 Starbursts),6");
    let texts = printed(&cat, &["pad", "run-pad"]);
    for (part, text) in &texts[1..] {
        assert!(text.contains("Hero (3 Starbursts) 6"), "{part}: {text}");
        assert!(!text.contains("Hero (3 Starbursts) 5"), "{part}: {text}");
    }
    assert!(texts[0].1.contains("Hero 3 Starbursts 6"), "rules: {}", texts[0].1);
}

/// Issue 50: grammar is a filter of the templates, never copied into the data files.
#[test]
fn no_ordinal_or_plural_logic_in_the_built_in_games_rows() {
    for entry in walk(&repo().join("catalogues")) {
        let name = entry.to_string_lossy().into_owned();
        let text = if name.ends_with(".csv") {
            std::fs::read_to_string(&entry).unwrap()
        } else if name.ends_with(".xlsx") {
            let run = std::process::Command::new("unzip").args(["-p", &name]).output().unwrap();
            String::from_utf8_lossy(&run.stdout).into_owned()
        } else {
            continue;
        };
        for code in ["% 10", "'st'", "'nd'", "'rd'", "'th'", "'s' if"] {
            assert!(
                !text.contains(code),
                "{name} holds grammar `{code}`: use | ordinal or | plural"
            );
        }
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut all = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all.extend(walk(&p));
        } else {
            all.push(p);
        }
    }
    all
}

/// GAMES.md §4: the route "drawn as a diagram in the rulebook", from the cards in the data:
/// with 57 × 89 mm cards the Jokers are drawn 57 wide, 89 high and 89 apart, measured from
/// the rulebook's drawing (`mutool trace`), and the text says 89 mm.
#[test]
fn the_track_route_diagram_is_drawn_from_the_card_size() {
    let (_dir, cat) = copy_catalogue("track");
    edit(
        &cat,
        "game.toml",
        "copies = 3\n",
        "copies = 3\ncard = { width = \"57mm\", height = \"89mm\" }\n",
    );
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["rules", cat.to_str().unwrap(), "--out", out.path().to_str().unwrap(), "--strict"],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = home_pdf(&out, "track", "rules", "a4");
    let text = words_of(&pdf, None);
    assert!(text.contains("one card's length apart (89 mm)"), "{text}");
    assert!(text.contains("89 mm: one card's length"), "{text}");
    // The two Jokers: the diagram's only fills of their colour, #f3e7c9.
    let joker = [243.0 / 255.0, 231.0 / 255.0, 201.0 / 255.0];
    let is_joker = |c: &str| {
        let v: Vec<f64> = c.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        v.len() == 3 && v.iter().zip(joker).all(|(a, b)| (a - b).abs() < 0.005)
    };
    let mut boxes: Vec<(f64, f64, f64, f64)> = Vec::new();
    for page in 1..=pages(&pdf) {
        for path in drawn_paths(&pdf, page) {
            if path.kind == "fill" && is_joker(&path.color) {
                let points: Vec<(f64, f64)> = path.subpaths.concat();
                let xs = points.iter().map(|p| p.0);
                let ys = points.iter().map(|p| p.1);
                boxes.push((
                    xs.clone().fold(f64::MAX, f64::min),
                    ys.clone().fold(f64::MAX, f64::min),
                    xs.fold(f64::MIN, f64::max),
                    ys.fold(f64::MIN, f64::max),
                ));
            }
        }
    }
    assert_eq!(boxes.len(), 2, "two Jokers drawn: {boxes:?}");
    boxes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (l, r) = (boxes[0], boxes[1]);
    let (w, h) = (l.2 - l.0, l.3 - l.1);
    assert!((w / h - 57.0 / 89.0).abs() < 0.01, "a Joker is {w} × {h}");
    assert!(((r.0 - l.2) / h - 1.0).abs() < 0.01, "the Jokers are {} apart, {h} high", r.0 - l.2);
}

/// A picture written as a template is checked like one: a misspelt name is an error at its
/// line of the SVG, from `rules` and from `validate`, and the rulebook's image line says why.
#[test]
fn a_misspelt_name_in_a_rulebook_picture_is_an_error_at_its_line() {
    let (_dir, cat) = copy_catalogue("track");
    edit(
        &cat,
        "art/route.svg",
        "{% set H = decks.cards.height %}",
        "{% set H = decks.crads.height %}",
    );
    let line = std::fs::read_to_string(cat.join("art/route.svg"))
        .unwrap()
        .lines()
        .position(|l| l.contains("decks.crads"))
        .unwrap()
        + 1;
    let out = tempfile::tempdir().unwrap();
    for command in ["rules", "validate"] {
        let mut args = vec![command, cat.to_str().unwrap()];
        if command == "rules" {
            args.extend(["--out", out.path().to_str().unwrap()]);
        }
        let run = deckpress(&args, &repo());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{command}: {err}");
        assert!(err.contains(&format!("art/route.svg:{line}:")), "{command}: {err}");
        assert!(err.contains("undefined value `decks.crads`"), "{command}: {err}");
        assert!(err.contains("did you mean `cards`?"), "{command}: {err}");
    }
}

/// Trash's Offer Display: one a player, said where the bundle lists it; and the cover's
/// description follows the deck (48 cards without the 2s).
#[test]
fn trash_cover_lists_a_mat_per_player_and_counts_the_deck() {
    let (_dir, cat) = copy_catalogue("trash");
    edit(&cat, "game.toml", "from = \"french\"", "from = \"french\"\nunless = { rank = \"2\" }");
    edit(&cat, "game.toml", "count = 52", "count = 48");
    edit(&cat, "game.toml", "count = 13", "count = 12");
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    let at = toml.find("name = \"each rank has 4 cards\"").unwrap();
    let start = toml[..at].rfind("[[rule]]").unwrap();
    let end = at + toml[at..].find("\n\n").unwrap() + 1;
    std::fs::write(cat.join("game.toml"), format!("{}{}", &toml[..start], &toml[end..])).unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["bundle", cat.to_str().unwrap(), "--out", out.path().to_str().unwrap(), "--strict"],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pnp = home_pdf(&out, "trash", "pnp", "a4");
    let (cover, guide) = (words_of(&pnp, Some(1)), words_of(&pnp, Some(2)));
    assert!(cover.contains("one standard deck of 48 cards"), "{cover}");
    assert!(!cover.contains("52"), "{cover}");
    assert!(cover.contains("Offer Display mat (print one per player)"), "{cover}");
    assert!(guide.contains("Offer Display mat (print one per player)"), "{guide}");
}

/// A description written as a template that cannot be filled is an error at its text in
/// game.toml, from `validate` and `build` alike (exit 1), never printed as its source.
#[test]
fn a_misspelt_deck_in_the_description_is_an_error_at_its_line() {
    let (_dir, cat) = copy_catalogue("trash");
    edit(&cat, "game.toml", "count(deck='cards') }} cards\"", "count(deck='crads') }} cards\"");
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    let line = toml.lines().position(|l| l.starts_with("description = ")).unwrap() + 1;
    let out = tempfile::tempdir().unwrap();
    for args in [vec!["validate"], vec!["build", "--out", out.path().to_str().unwrap()]] {
        let mut all = vec![args[0], cat.to_str().unwrap()];
        all.extend(&args[1..]);
        let run = deckpress(&all, &repo());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{all:?}: {err}");
        assert!(err.contains(&format!("game.toml:{line}:16")), "{err}");
        assert!(err.contains("template error in the game's description"), "{err}");
        assert!(err.contains("did you mean `cards`?"), "{err}");
    }
}

/// The short-game marks follow the pad in the aid, the pad's note and the rulebook: with
/// round 8 unmarked, each names 2, 4, 6 and calls the marks on 4 and 6 ours.
#[test]
fn the_anti_trump_marks_follow_the_pad_in_aid_pad_and_rulebook() {
    let (_dir, cat) = copy_catalogue("anti-trump");
    edit(&cat, "pad.csv", "round-8,line,Round 8,1 right,*,8", "round-8,line,Round 8,1 right,,8");
    edit(
        &cat,
        "game.toml",
        "where = { round = [\"2\", \"4\", \"6\", \"8\"] }",
        "where = { round = [\"2\", \"4\", \"6\"] }",
    );
    edit(
        &cat,
        "game.toml",
        "where = { mark = \"*\" }\ncount = 4",
        "where = { mark = \"*\" }\ncount = 3",
    );
    let texts = printed(&cat, &["aid", "pad"]);
    let text = |part: &str| &texts.iter().find(|(p, _)| p == part).unwrap().1;
    assert!(
        text("aid")
            .contains("Short game: skip rounds 2, 4, 6. Marks on rounds 4 and 6: our choice."),
        "{}",
        text("aid")
    );
    assert!(
        text("pad").contains("(2, 4, 6); the marks on rounds 4 and 6 are our choice"),
        "{}",
        text("pad")
    );
    assert!(text("rules").contains("(2, 4 and 6). Only round 2's mark survives in the original: the marks on rounds 4 and 6 are our choice."), "{}", text("rules"));
    for (part, t) in &texts {
        assert!(!t.contains("4, 6 and 8") && !t.contains("2, 4, 6, 8"), "{part}: {t}");
    }
}
