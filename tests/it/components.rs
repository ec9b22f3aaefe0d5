//! Everything printed besides the cards (issue 5): score pads, markers, tokens, chips, the
//! Trash Offer Display mat and the player aids of the four built-in games. Each is built
//! on A4 and Letter and read back with poppler; each of their rules is broken once by a
//! copy of the catalogue and must be reported with its message, at its line, exit 1.

use crate::common::*;

use std::collections::BTreeSet;
use std::path::Path;

fn page_text(pdf: &Path, page: usize) -> String {
    let p = page.to_string();
    poppler("pdftotext", &["-layout", "-f", &p, "-l", &p, pdf.to_str().unwrap(), "-"])
}

/// The first line of `pdftotext -layout` output that contains `label`.
fn line_with<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no line with `{label}` in\n{text}"))
}

/// `game.toml:LINE:1` of the `[[rule]]` whose name is `name`.
fn rule_at(cat: &Path, name: &str) -> String {
    format!("game.toml:{}:1", line_of(cat, "game.toml", &format!("name = \"{name}\"")) - 1)
}

const PORTRAIT: bool = false;
const LANDSCAPE: bool = true;

fn page_size(paper: &str, landscape: bool) -> &'static str {
    match (paper, landscape) {
        ("a4", false) => "Page size:       595.276 x 841.89 pts (A4)",
        ("a4", true) => "Page size:       841.89 x 595.276 pts (A4)",
        ("letter", false) => "Page size:       612 x 792 pts (letter)",
        ("letter", true) => "Page size:       792 x 612 pts (letter)",
        _ => unreachable!(),
    }
}

// ---- Every game writes its components ----

#[test]
fn every_game_writes_its_pads_markers_tokens_mats_and_aids_on_a4_and_letter() {
    let games: [(&str, &[(&str, bool)]); 4] = [
        (
            "travfuda",
            &[
                ("cards", PORTRAIT),
                ("markers", PORTRAIT),
                ("aid", PORTRAIT),
                ("pad", LANDSCAPE),
                ("run-pad", LANDSCAPE),
                ("box", PORTRAIT),
            ],
        ),
        ("anti-trump", &[("cards", PORTRAIT), ("aid", PORTRAIT), ("pad", LANDSCAPE)]),
        (
            "track",
            &[("cards", PORTRAIT), ("runners", PORTRAIT), ("chips", PORTRAIT), ("aid", PORTRAIT)],
        ),
        (
            "trash",
            &[
                ("cards", PORTRAIT),
                ("tokens", PORTRAIT),
                ("aid", PORTRAIT),
                ("pad", PORTRAIT),
                ("offer-display", LANDSCAPE),
            ],
        ),
    ];
    for (game, components) in games {
        let (out, printed) = build_game(game, &["--paper", "a4,letter"]);
        let mut expected = BTreeSet::new();
        for &(component, landscape) in components {
            for paper in ["a4", "letter"] {
                let file = home_pdf(&out, game, component, paper);
                assert!(file.is_file(), "{} was not written", file.display());
                assert!(
                    printed.contains(file.to_str().unwrap()),
                    "the build lists {}: {printed}",
                    file.display()
                );
                let info = pdf_info(&file);
                assert!(
                    info.contains(page_size(paper, landscape)),
                    "{game} {component} {paper}:\n{info}"
                );
                expected.insert(file.file_name().unwrap().to_string_lossy().into_owned());
            }
        }
        // And the manifest of what was drawn, for reprints.
        expected.insert(format!("{game}-manifest.json"));
        let written: BTreeSet<String> = std::fs::read_dir(out.path().join(game))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(written, expected, "{game}: exactly these files");
    }
}

// ---- Score pads ----

#[test]
fn travfuda_pad_prints_every_scoring_line_with_its_points() {
    let (out, _) = build_game("travfuda", &["--paper", "a4,letter"]);
    for paper in ["a4", "letter"] {
        let pad = home_pdf(&out, "travfuda", "pad", paper);
        assert_eq!(pages(&pad), 1);
        let text = layout_text(&pad);
        for (label, points) in [
            ("Starburst", "20"),
            ("Cutlass", "10"),
            ("Flag", "5"),
            ("Double", "2"),
            ("Plain", "1"),
            ("Joker", "1"),
            ("Whole Suit", "1"),
            ("Guidon Set", "2"),
            ("Uniform Set", "3"),
            ("Hero (3 Starbursts)", "5"),
            ("Major Hero", "10"),
            ("Grand Hero", "15"),
            ("5 Flags", "1 +1/extra"),
            ("5 Cutlasses", "2 +1/extra"),
            ("20 Plain", "2 +1/extra"),
            ("Double Trouble", "–10"),
            ("Double Good", "×2 hand"),
            ("Emperor or Archduke made", "+10"),
            ("Emperor or Archduke failed", "–20"),
        ] {
            let line = line_with(&text, label);
            assert!(
                line.split("  ").any(|cell| cell.trim() == points),
                "{paper}: `{label}` prints {points}: {line}"
            );
        }
        assert!(line_with(&text, "Total").trim() == "Total", "a total row");
        // A column per player, six by default, and several hands on the sheet.
        assert!(text.contains("Player 6") && !text.contains("Player 7"), "{text}");
        assert!(text.matches("Hand").count() >= 3, "{paper}: several hands a sheet\n{text}");
    }
}

#[test]
fn travfuda_run_or_jump_pad_prints_the_run_values() {
    let (out, _) = build_game("travfuda", &[]);
    let text = layout_text(&home_pdf(&out, "travfuda", "run-pad", "a4"));
    for (n, ordinal) in ["1st", "2nd", "3rd", "4th", "5th", "6th"].iter().enumerate() {
        let line = line_with(&text, &format!("{ordinal} Run Attempt"));
        assert!(line.contains(&format!("+{}", n + 1)), "{line}");
    }
    assert!(text.contains("Pirate"), "{text}");
    assert!(text.contains("Guidon Set") && text.contains("Total"), "{text}");
}

#[test]
fn anti_trump_pad_has_nine_rounds_with_their_exchange_and_short_game_marks() {
    let (out, _) = build_game("anti-trump", &["--paper", "a4,letter"]);
    for paper in ["a4", "letter"] {
        let text = layout_text(&home_pdf(&out, "anti-trump", "pad", paper));
        let exchanges = [
            "4 left", "4 right", "3 left", "3 right", "2 left", "2 right", "1 left", "1 right",
            "none",
        ];
        for (i, exchange) in exchanges.iter().enumerate() {
            let round = i + 1;
            let line = line_with(&text, &format!("Round {round} "));
            assert!(line.contains(exchange), "{paper}: round {round} exchanges {exchange}: {line}");
            assert_eq!(
                line.contains('*'),
                round % 2 == 0 && round < 9,
                "{paper}: short-game mark on round {round}: {line}"
            );
        }
        assert!(text.contains("Round 9"), "{text}");
        assert!(
            text.contains("Short game: skip the rounds marked with an asterisk (2, 4, 6, 8)"),
            "{text}"
        );
        let header = line_with(&text, "Tricks");
        for column in ["Bid", "Tricks", "Score", "Total"] {
            assert_eq!(
                header.matches(column).count(),
                6,
                "{paper}: `{column}` for each of 6 players: {header}"
            );
        }
        assert_eq!(text.matches("Round 9").count(), 2, "{paper}: two games a sheet");
    }
}

#[test]
fn trash_pad_has_a_row_per_round_the_end_thresholds_and_the_tie_break() {
    let (out, _) = build_game("trash", &["--paper", "a4,letter"]);
    for paper in ["a4", "letter"] {
        let text = layout_text(&home_pdf(&out, "trash", "pad", paper));
        for (players, trash) in [(2, 3), (3, 5), (4, 7), (5, 9)] {
            assert!(text.contains(&format!("{players} players: {trash} Trash")), "{paper}: {text}");
        }
        for round in 1..=12 {
            assert!(text.contains(&format!("Round {round}")), "{paper}: round {round}");
        }
        assert!(text.contains("Player 5") && !text.contains("Player 6"), "{text}");
        assert!(text.contains("least Trash in the final round"), "tie-break: {text}");
    }
}

#[test]
fn players_option_fits_the_pads_to_the_table() {
    let (out, _) = build_game("travfuda", &["--players", "3"]);
    let three = layout_text(&home_pdf(&out, "travfuda", "pad", "a4"));
    assert!(three.contains("Player 3") && !three.contains("Player 4"), "{three}");
    assert!(three.contains("3 players"), "{three}");
    let (out6, _) = build_game("travfuda", &[]);
    let six = layout_text(&home_pdf(&out6, "travfuda", "pad", "a4"));
    assert!(
        three.matches("Hand").count() > six.matches("Hand").count(),
        "fewer players, more hands a sheet"
    );

    let (out, _) = build_game("anti-trump", &["--players", "3", "--paper", "letter"]);
    let anti = layout_text(&home_pdf(&out, "anti-trump", "pad", "letter"));
    // Three Bid columns a game, however many games fit the page.
    assert_eq!(anti.matches("Bid").count(), 3 * anti.matches("Player 1").count(), "{anti}");
    assert!(
        anti.matches("Player 1").count() >= 2,
        "with 3 players, two games side by side: {anti}"
    );
    assert!(!anti.contains("Player 4"), "{anti}");

    let (out, _) = build_game("trash", &["--players", "2"]);
    let trash = layout_text(&home_pdf(&out, "trash", "pad", "a4"));
    assert!(trash.contains("Player 2") && !trash.contains("Player 3"), "{trash}");
    assert!(trash.contains("5 players: 9 Trash"), "every threshold stays printed: {trash}");

    let run = deckpress(
        &["build", "trash", "--players", "6", "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("Trash is for 2 to 5 players, not 6"), "{}", stderr(&run));
}

#[test]
fn a_pad_that_cannot_fit_its_paper_fails_the_build_at_the_template_line() {
    let (_guard, cat) = copy_catalogue("anti-trump");
    edit(
        &cat,
        "game.toml",
        "from = \"score-pad\"\npage = \"landscape\"",
        "from = \"score-pad\"\npage = \"portrait\"",
    );
    let out = deckpress(&["build", cat.to_str().unwrap(), "--out", "out"], cat.parent().unwrap());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // How much it needs and has, and what would fit it: its own paper turned.
    assert!(
        err.contains("the score pad does not fit across the page: 6 players' columns need 222 mm beside the labels"),
        "{err}"
    );
    assert!(
        err.contains("the 210 mm page leaves 153.7 mm; print it with page = \"landscape\""),
        "{err}"
    );
    assert!(err.contains("score-pad/template.svg:"), "{err}");
    assert!(err.contains("while filling sheet `pad`"), "{err}");
    // Not the note on what templates see: the template failed on purpose.
    assert!(!err.contains("cards see {{ card.FIELD }}"), "{err}");
}

// ---- Markers, tokens and chips ----

#[test]
fn travfuda_markers_are_double_sided() {
    let (out, _) = build_game("travfuda", &[]);
    let markers = home_pdf(&out, "travfuda", "markers", "a4");
    assert_eq!(pages(&markers), 2, "10 markers: one front page, one back page");
    let front = page_text(&markers, 1);
    for word in
        ["1st", "2nd", "3rd", "4th", "5th", "6th", "Emperor", "Archduke", "Dealer", "End of"]
    {
        assert!(front.contains(word), "front: {word}\n{front}");
    }
    assert_eq!(front.matches("Run Attempt").count(), 6, "{front}");
    let back = page_text(&markers, 2);
    for n in 1..=6 {
        assert!(back.contains(&format!("+{n}")), "back: +{n}\n{back}");
    }
    assert_eq!(back.matches("on Jump").count(), 6, "{back}");
    assert!(back.contains("+10 made") && back.contains("–20 failed"), "{back}");
}

#[test]
fn track_chips_and_trash_tokens_are_printed_on_both_sides() {
    let (out, _) = build_game("track", &[]);
    let runners = home_pdf(&out, "track", "runners", "a4");
    assert_eq!(pages(&runners), 2);
    assert_eq!(layout_text(&runners).matches("RUNNER").count(), 4, "2 runners, front and back");
    let chips = home_pdf(&out, "track", "chips", "a4");
    assert_eq!(pages(&chips), 2, "12 small chips on one sheet, and its back");

    let (out, _) = build_game("trash", &[]);
    let tokens = home_pdf(&out, "trash", "tokens", "a4");
    assert_eq!(pages(&tokens), 2, "50 tokens on one sheet, and its back");
    assert_eq!(page_text(&tokens, 1).matches("TRASH").count(), 50);
    assert_eq!(page_text(&tokens, 2).matches("TRASH").count(), 50);
}

// ---- Mats and aids ----

#[test]
fn trash_offer_display_has_card_sized_slots() {
    let (out, _) = build_game("trash", &["--paper", "a4,letter"]);
    let a4 = layout_text(&home_pdf(&out, "trash", "offer-display", "a4"));
    assert!(a4.contains("Offer Display"), "{a4}");
    assert!(a4.contains("card 6") && !a4.contains("card 7"), "six 88 × 63 mm slots on A4: {a4}");
    let letter = layout_text(&home_pdf(&out, "trash", "offer-display", "letter"));
    assert!(letter.contains("card 4") && !letter.contains("card 5"), "four on Letter: {letter}");
    assert!(
        letter.contains("follower may play") && letter.contains("face up,"),
        "the reminders: {letter}"
    );
}

#[test]
fn every_game_has_a_two_sided_player_aid_for_each_player() {
    for (game, copies, front, back) in [
        ("travfuda", 6, "Your turn", "Guidon Set"),
        ("anti-trump", 6, "Card ranking", "4 left / 4 right"),
        ("track", 2, "Building the route", "Moving"),
        ("trash", 5, "Follow: one of", "Game end"),
    ] {
        let (out, _) = build_game(game, &[]);
        let aid = home_pdf(&out, game, "aid", "a4");
        assert_eq!(pages(&aid), 2, "{game}: one front page and its back page");
        let info = pdf_info(&aid);
        assert!(info.contains(page_size("a4", PORTRAIT)), "{info}");
        let (p1, p2) = (page_text(&aid, 1), page_text(&aid, 2));
        assert_eq!(p1.matches("Player aid").count(), copies, "{game}: {p1}");
        assert_eq!(p1.matches(front).count(), copies, "{game}: the front\n{p1}");
        assert_eq!(p2.matches(back).count(), copies, "{game}: the back is meaningful too\n{p2}");
    }
}

// ---- Each new rule, broken once ----

/// A copy of TravFuda reading its markers from markers.csv, the twin of markers.xlsx, so
/// that a test can break one line of text.
fn travfuda_markers_from_csv() -> (tempfile::TempDir, std::path::PathBuf) {
    let (g, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "game.toml",
        "rows = \"markers.xlsx\"\nsheet = \"markers\"",
        "rows = \"markers.csv\"",
    );
    (g, cat)
}

#[test]
fn five_run_markers_break_the_count_and_the_pad_comparison() {
    let (_g, cat) = travfuda_markers_from_csv();
    // The 6th Run Attempt's row, over several lines, up to the Emperor's.
    let markers = std::fs::read_to_string(cat.join("markers.csv")).unwrap();
    let start = markers.find("run-6,").unwrap();
    let row = &markers[start..markers.find("emperor,").unwrap()];
    edit(&cat, "markers.csv", row, "");
    let err = invalid(&cat);
    assert!(
        err.contains("rule \"six Run Attempt markers\" failed: expected exactly 6 cards, found 5"),
        "{err}"
    );
    assert!(err.contains(&rule_at(&cat, "six Run Attempt markers")), "{err}");
    let name = "one Run Attempt marker for each run value on the Run or Jump! pad";
    assert!(err.contains(&format!("rule \"{name}\" failed: `markers` where marker = Run has 5 but `run-pad` unless run = ")), "{err}");
    assert!(err.contains("has 6"), "{err}");
    assert!(err.contains(&rule_at(&cat, name)), "{err}");
}

#[test]
fn a_repeated_run_number_points_at_the_marker() {
    let (_g, cat) = travfuda_markers_from_csv();
    edit(&cat, "markers.csv", "run-6,1,Run,6,", "run-6,1,Run,5,");
    let err = invalid(&cat);
    let line = line_of(&cat, "markers.csv", "run-6,");
    assert!(
        err.contains(
            "rule \"the Run Attempt markers are numbered 1 to 6\" failed: run 5 appears twice"
        ),
        "{err}"
    );
    assert!(err.contains(&format!("markers.csv:{line}:{}", "run-6,1,Run,".len() + 1)), "{err}");
}

#[test]
fn a_second_dealer_marker_is_reported_at_its_line() {
    let (_g, cat) = travfuda_markers_from_csv();
    edit(&cat, "markers.csv", "dealer,1,Dealer,", "dealer,2,Dealer,");
    let err = invalid(&cat);
    let line = line_of(&cat, "markers.csv", "dealer,2,Dealer");
    assert!(err.contains("rule \"one Emperor, Archduke, Dealer and End of Hand marker\" failed for marker `Dealer`: expected exactly 1 card, found 2"), "{err}");
    assert!(err.contains(&format!("markers.csv:{line}:1")), "{err}");
}

#[test]
fn a_marker_without_its_back_text_is_reported_at_the_header() {
    let (_g, cat) = travfuda_markers_from_csv();
    edit(&cat, "markers.csv", "id,qty,marker,run,front,back", "id,qty,marker,run,front,reverse");
    let err = invalid(&cat);
    assert!(err.contains("unknown column `reverse`"), "{err}");
    assert!(err.contains("the header has no `back` column"), "{err}");
    assert!(err.contains("markers.csv:1:"), "{err}");
}

#[test]
fn a_missing_run_value_on_the_run_or_jump_pad_is_reported() {
    let (_g, cat) = copy_catalogue("travfuda");
    let pad = std::fs::read_to_string(cat.join("run-pad.csv")).unwrap();
    let row = pad.lines().find(|l| l.starts_with("run-3,")).unwrap();
    edit(&cat, "run-pad.csv", &format!("{row}\n"), "");
    let err = invalid(&cat);
    let name = "the Run or Jump! pad has run values 1 to 6";
    assert!(err.contains(&format!("rule \"{name}\" failed: run 3 is missing")), "{err}");
    assert!(err.contains(&rule_at(&cat, name)), "{err}");
    assert!(
        err.contains("`markers` where marker = Run has 6 but `run-pad` unless run =  has 5"),
        "{err}"
    );
}

#[test]
fn a_pad_line_without_its_points_is_reported_at_its_line() {
    let (_g, cat) = copy_catalogue("travfuda");
    edit(&cat, "pad.csv", "hero,line,Hero (3 Starbursts),5", "hero,line,Hero (3 Starbursts),");
    let err = invalid(&cat);
    let line = line_of(&cat, "pad.csv", "hero,line");
    assert!(err.contains("rule \"every scoring line of the pad prints its points\" failed: expected exactly 0 items, found 1"), "{err}");
    assert!(err.contains(&format!("pad.csv:{line}:1")), "{err}");
}

#[test]
fn a_pad_without_a_total_row_is_reported() {
    let (_g, cat) = copy_catalogue("travfuda");
    edit(&cat, "pad.csv", "total,total,Total,", "total,line,Total,0");
    let err = invalid(&cat);
    assert!(
        err.contains("rule \"the pad has one total row\" failed: expected exactly 1 item, found 0"),
        "{err}"
    );
    assert!(err.contains(&rule_at(&cat, "the pad has one total row")), "{err}");
}

#[test]
fn a_missing_player_aid_is_reported() {
    let (_g, cat) = copy_catalogue("travfuda");
    edit(&cat, "aid.csv", "aid,6,", "aid,5,");
    let err = invalid(&cat);
    assert!(err.contains("rule \"a player aid for each of the 6 players\" failed: expected exactly 6 cards, found 5"), "{err}");
    assert!(err.contains(&rule_at(&cat, "a player aid for each of the 6 players")), "{err}");
}

#[test]
fn anti_trump_rounds_must_run_1_to_9() {
    let (_g, cat) = copy_catalogue("anti-trump");
    edit(&cat, "pad.csv", "round-9,line,Round 9,none,,9", "round-9,line,Round 9,none,,10");
    let err = invalid(&cat);
    let name = "the pad's rounds are numbered 1 to 9";
    assert!(err.contains(&format!("rule \"{name}\" failed: round 9 is missing")), "{err}");
    assert!(err.contains(&rule_at(&cat, name)), "{err}");

    let (_g, cat) = copy_catalogue("anti-trump");
    edit(&cat, "pad.csv", "round-9,line,Round 9,none,,9\n", "");
    let err = invalid(&cat);
    let name = "the pad has a row for each of the 9 rounds";
    assert!(
        err.contains(&format!("rule \"{name}\" failed: expected exactly 9 items, found 8")),
        "{err}"
    );
    assert!(err.contains(&rule_at(&cat, name)), "{err}");
}

#[test]
fn anti_trump_short_game_rounds_must_be_marked() {
    let (_g, cat) = copy_catalogue("anti-trump");
    edit(&cat, "pad.csv", "round-4,line,Round 4,3 right,*,4", "round-4,line,Round 4,3 right,,4");
    let err = invalid(&cat);
    let line = line_of(&cat, "pad.csv", "round-4,");
    assert!(err.contains("rule \"the short-game rounds 2, 4, 6 and 8 are marked with an asterisk\" failed: card `round-4` has mark ``, expected `*`"), "{err}");
    assert!(err.contains(&format!("pad.csv:{line}:")), "{err}");
    assert!(err.contains("rule \"only the four short-game rounds are marked\" failed: expected exactly 4 items, found 3"), "{err}");

    let (_g, cat) = copy_catalogue("anti-trump");
    edit(&cat, "pad.csv", "round-9,line,Round 9,none,,9", "round-9,line,Round 9,none,*,9");
    let err = invalid(&cat);
    let line = line_of(&cat, "pad.csv", "round-9,");
    assert!(err.contains("rule \"only the four short-game rounds are marked\" failed: expected exactly 4 items, found 5"), "{err}");
    assert!(err.contains(&format!("pad.csv:{line}:1")), "too many: points at the fifth: {err}");
}

#[test]
fn track_needs_two_runners_and_six_small_chips_a_player() {
    let (_g, cat) = copy_catalogue("track");
    edit(&cat, "chips.csv", "chip-white,6,White", "chip-white,7,White");
    let err = invalid(&cat);
    let line = line_of(&cat, "chips.csv", "chip-white");
    assert!(err.contains("rule \"six small chips per player, in the player's colour\" failed for player `White`: expected exactly 6 cards, found 7"), "{err}");
    assert!(err.contains(&format!("chips.csv:{line}:1")), "{err}");
    assert!(
        err.contains("rule \"twelve small chips\" failed: expected exactly 12 cards, found 13"),
        "{err}"
    );

    let (_g, cat) = copy_catalogue("track");
    edit(&cat, "runners.csv", "runner-black,1,Black", "runner-black,1,White");
    let err = invalid(&cat);
    let line = line_of(&cat, "runners.csv", "runner-black");
    assert!(err.contains("rule \"one runner white, one black\" failed for player `White`: expected exactly 1 card, found 2"), "{err}");
    assert!(err.contains(&format!("runners.csv:{line}:1")), "{err}");
    assert!(err.contains("rule \"one runner white, one black\" failed for player `Black`: expected exactly 1 card, found 0"), "{err}");
    assert!(err.contains(&rule_at(&cat, "one runner white, one black")), "{err}");

    let (_g, cat) = copy_catalogue("track");
    edit(&cat, "runners.csv", "runner-black,1,Black\n", "");
    let err = invalid(&cat);
    assert!(
        err.contains(
            "rule \"two large chips (runners)\" failed: expected exactly 2 cards, found 1"
        ),
        "{err}"
    );
    assert!(err.contains(&rule_at(&cat, "two large chips (runners)")), "{err}");
}

#[test]
fn trash_needs_45_tokens() {
    let (_g, cat) = copy_catalogue("trash");
    edit(&cat, "tokens.csv", "trash,50,1", "trash,40,1");
    let err = invalid(&cat);
    let name = "enough Trash tokens for 5 players to reach 9 (45)";
    assert!(
        err.contains(&format!("rule \"{name}\" failed: expected at least 45 cards, found 40")),
        "{err}"
    );
    assert!(err.contains(&rule_at(&cat, name)), "{err}");
}

#[test]
fn trash_pad_thresholds_are_checked() {
    let (_g, cat) = copy_catalogue("trash");
    edit(&cat, "pad.csv", "end-5,fact,5 players,9 Trash,5,", "end-5,fact,5 players,8 Trash,5,");
    let err = invalid(&cat);
    let line = line_of(&cat, "pad.csv", "end-5,");
    assert!(err.contains("rule \"5 players: the game ends at 9 Trash\" failed: card `end-5` has info `8 Trash`, expected `9 Trash`"), "{err}");
    assert!(
        err.contains(&format!("pad.csv:{line}:{}", "end-5,fact,5 players,".len() + 1)),
        "{err}"
    );

    let (_g, cat) = copy_catalogue("trash");
    edit(&cat, "pad.csv", "end-4,fact,4 players,7 Trash,4,\n", "");
    let err = invalid(&cat);
    let name = "the pad prints the end threshold for each of 2 to 5 players";
    assert!(err.contains(&format!("rule \"{name}\" failed: players 4 is missing")), "{err}");
    assert!(err.contains(&rule_at(&cat, name)), "{err}");
    assert!(
        err.contains(
            "rule \"the pad prints four end thresholds\" failed: expected exactly 4 items, found 3"
        ),
        "{err}"
    );
}

#[test]
fn trash_pad_rounds_are_numbered_from_1() {
    let (_g, cat) = copy_catalogue("trash");
    edit(&cat, "pad.csv", "round-7,line,Round 7,,,7", "round-7,line,Round 7,,,6");
    let err = invalid(&cat);
    let line = line_of(&cat, "pad.csv", "round-7,");
    assert!(
        err.contains("rule \"the pad's rounds are numbered from 1\" failed: round 6 appears twice"),
        "{err}"
    );
    assert!(err.contains(&format!("pad.csv:{line}:")), "{err}");
}

#[test]
fn the_new_components_keep_every_game_valid() {
    for game in ["travfuda", "anti-trump", "track", "trash"] {
        let out = deckpress(&["validate", game], &repo());
        assert_eq!(out.status.code(), Some(0), "{game}: {}", stderr(&out));
    }
}

#[test]
fn a_pad_title_too_long_for_its_page_is_a_warning_at_the_title_in_game_toml() {
    // The shared score-pad template prints `data.title`: the words are the designer's, in
    // game.toml, which the warning names (it named a line of the shared template that
    // writes a player's heading).
    let (_guard, cat) = copy_catalogue("travfuda");
    let long = "TravFuda — score pad for the long winter evenings of the whole extended family and friends, with room for everyone";
    edit(&cat, "game.toml", "title = \"TravFuda — score pad\"", &format!("title = \"{long}\""));
    let err = valid(&cat);
    assert!(err.contains("mm off the sheet"), "{err}");
    let line = line_of(&cat, "game.toml", "score pad for the long winter");
    assert!(err.contains(&format!("game.toml:{line}:")), "{err}");
    assert!(!err.contains("score-pad/template.svg:"), "{err}");
}
