//! Printed text that follows the data: templates, and text cells written as templates,
//! ask the catalogue (`count`, `cards`, `values`, `sum`, `deals`); a number the deck
//! changes changes on the printed piece, and a query that names nothing is an error at
//! its line.

use crate::common::*;

#[test]
fn the_aid_prints_the_deal_table_from_the_data() {
    let (_g, cat) = copy_catalogue("travfuda");
    let (out, run) = build(&cat, &["--only", "aid"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = words_of(&out.path().join("travfuda/travfuda-aid-a4.pdf"), None);
    assert!(text.contains("3 players 8 / 12"), "{text}");
    // Three players now get 9 cards: the aid says so without being touched.
    edit(&cat, "game.toml", "players = 3\nhand = 8", "players = 3\nhand = 9");
    let (out, run) = build(&cat, &["--only", "aid"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = words_of(&out.path().join("travfuda/travfuda-aid-a4.pdf"), None);
    assert!(text.contains("3 players 9 / 12") && !text.contains("3 players 8 / 12"), "{text}");
}

#[test]
fn templates_count_list_and_sum_the_deck() {
    let (_g, cat) = new_game();
    edit(
        &cat,
        "templates/face.svg",
        "{{ card.title }}</text>",
        "{{ card.title }}</text><text x=\"315\" y=\"800\" font-size=\"30\" text-anchor=\"middle\">suns {{ count(where={\"suit\": \"Sun\"}) }} of {{ count() }}, suits {{ values(\"suit\") | join(\"+\") }}, points {{ sum(field=\"value\") }}, moon designs {{ cards(deck=\"cards\", where={\"suit\": [\"Moon\"]}) | length }}</text>",
    );
    let (out, run) = build(&cat, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = words_of(&out.path().join("game/game-cards-a4.pdf"), None);
    // Sun: 1 + 1 + 2 copies; values 1+2+3·2 per suit.
    assert!(text.contains("suns 4 of 8, suits Sun+Moon, points 18, moon designs 3"), "{text}");
}

#[test]
fn a_query_that_names_nothing_is_an_error_at_its_line() {
    let cases = [
        (
            "{{ count(deck=\"crads\") }}",
            "no deck `crads`; did you mean `cards`? the decks: `cards`",
        ),
        ("{{ count(where={\"siut\": \"Sun\"}) }}", "no field `siut`"),
        (
            "{{ count(where={\"suit\": \"Snu\"}) }}",
            "`suit` has no value `Snu`; did you mean `Sun`? its values: `Sun`, `Moon`",
        ),
        (
            "{{ sum(field=\"title\") }}",
            "sum of `title`: card `sun-1` has `Dawn`, not a whole number",
        ),
    ];
    for (expression, message) in cases {
        let (_g, cat) = new_game();
        edit(
            &cat,
            "templates/face.svg",
            "{{ card.title }}</text>",
            &format!("{{{{ card.title }}}}</text>{expression}"),
        );
        let err = invalid(&cat);
        assert!(err.contains(message), "{expression}: {err}");
        let line = line_of(&cat, "templates/face.svg", expression);
        assert!(err.contains(&format!("templates/face.svg:{line}:")), "{expression}: {err}");
    }
    // In a text cell written as a template, at the cell.
    let (_g, cat) = new_game();
    edit(&cat, "cards.csv", "sun-1,1,Sun,1,Dawn", "sun-1,1,Sun,1,{{ count(deck=\"crads\") }} suns");
    let err = invalid(&cat);
    assert!(err.contains("template error in the cell") && err.contains("no deck `crads`"), "{err}");
    let line = line_of(&cat, "cards.csv", "crads");
    assert!(err.contains(&format!("cards.csv:{line}:")), "{err}");
}

#[test]
fn tabletop_simulator_describes_the_aid_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["export", "tts", "travfuda", "--quiet", "--out", dir.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json = std::fs::read_to_string(dir.path().join("travfuda/tts/travfuda.json")).unwrap();
    assert!(json.contains("3 players | 8 / 12"), "the deal table filled in");
    assert!(!json.contains("{%") && !json.contains("{{"), "no template text in descriptions");
}
