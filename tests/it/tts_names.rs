//! Tabletop Simulator shows each card's name and a plain-text description (issue 22):
//! the deck's name field, not the id; no `**` markers, icons by their names.

use crate::common::*;

/// The saved object's cards of a game, as (Nickname, Description).
fn cards(cat: &std::path::Path) -> Vec<(String, String)> {
    let out = cat.parent().unwrap().join("out");
    let run = deckpress(
        &["export", "tts", cat.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"],
        cat.parent().unwrap(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("game/tts/game.json")).unwrap())
            .unwrap();
    let contained = json["ObjectStates"][0]["ContainedObjects"].as_array().unwrap();
    contained
        .iter()
        .map(|c| {
            (
                c["Nickname"].as_str().unwrap().to_string(),
                c["Description"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn cards_are_named_by_their_title_in_plain_text() {
    let (_guard, cat) = new_game();
    edit(&cat, "cards.csv", "sun-1,1,Sun,1,Dawn", "sun-1,1,Sun,1,**Dawn**");
    let cards = cards(&cat);
    assert_eq!(cards[0].0, "Dawn", "{cards:?}");
    assert!(cards[0].1.contains("title: Dawn") && !cards[0].1.contains("**"), "{cards:?}");
    assert_eq!(cards[1].0, "Noon");
}

#[test]
fn a_deck_names_the_field_its_cards_are_called_by() {
    let (_guard, cat) = new_game();
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.csv\"\nname_field = \"suit\"");
    assert_eq!(cards(&cat)[0].0, "Sun");
}

#[test]
fn a_name_field_the_deck_does_not_have_is_an_error_at_its_line() {
    let (_guard, cat) = new_game();
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.csv\"\nname_field = \"titel\"");
    let err = invalid(&cat);
    let line = line_of(&cat, "game.toml", "name_field");
    assert!(err.contains(&format!("game.toml:{line}:")), "{err}");
    assert!(err.contains("deck `cards` has no field `titel` to name its cards by"), "{err}");
    assert!(err.contains("`title`"), "{err}");
}
