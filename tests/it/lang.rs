//! `--lang` reaches every template (`t("…")` for free text, `labels` everywhere), and the
//! shared player aid takes the game's card size.

use crate::common::*;

/// A starter game with a player aid from the shared templates, at `size` mm.
fn game_with_aid(size: (u32, u32)) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    edit(
        &cat,
        "game.toml",
        "width = \"63mm\"\nheight = \"88mm\"",
        &format!("width = \"{}mm\"\nheight = \"{}mm\"", size.0, size.1),
    );
    // The starter's own cards keep their 63 × 88 templates.
    edit(
        &cat,
        "game.toml",
        "rows = \"cards.csv\"",
        "rows = \"cards.csv\"\ncard = { width = \"63mm\", height = \"88mm\" }",
    );
    edit(&cat, "game.toml", "[fields.title]", "[fields.front]\nkind = \"text\"\noptional = true\n[fields.back]\nkind = \"text\"\noptional = true\n\n[fields.title]");
    edit(&cat, "game.toml", "# Anything you like", "[[deck]]\nid = \"aid\"\nfrom = \"aid\"\nrows = \"aid.csv\"\nbacks = \"per-card\"\nfields = [\"front\", \"back\"]\n\n# Anything you like");
    std::fs::write(cat.join("aid.csv"), "id,qty,front,back\naid,1,\"# Your turn\n- Draw a card\n- Play a card\",\"# Scoring\nSun | 1\nMoon | 2\"\n").unwrap();
    edit(&cat, "game.toml", "each = \"suit\"", "deck = \"cards\"\neach = \"suit\"");
    (dir, cat)
}

#[test]
fn the_shared_player_aid_takes_the_games_card_size() {
    let (dir, cat) = game_with_aid((56, 87));
    let out = dir.path().join("out");
    // Portrait: 56 × 87 mm cards fit 10 on A4 turned, and the grid below is 3 × 3.
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--strict",
            "--orientation",
            "portrait",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // The aid sheet's trim box is its grid of 3 × 3 slots of 56 × 87 mm.
    let info = poppler("pdfinfo", &["-box", out.join("game/game-aid-a4.pdf").to_str().unwrap()]);
    let boxes = |name: &str| -> Vec<f64> {
        info.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse().unwrap())
            .collect()
    };
    let (trim, bleed) = (boxes("TrimBox:"), boxes("BleedBox:"));
    let mm = |pt: f64| pt * 25.4 / 72.0;
    // Three cards across and down, spaced by twice the bleed shown around them.
    let gutters = 4.0 * mm(trim[0] - bleed[0]);
    assert!(
        ((mm(trim[2] - trim[0]) - gutters) / 3.0 - 56.0).abs() < 0.05
            && ((mm(trim[3] - trim[1]) - gutters) / 3.0 - 87.0).abs() < 0.05,
        "{info}"
    );
    let text = poppler("pdftotext", &[out.join("game/game-aid-a4.pdf").to_str().unwrap(), "-"]);
    assert!(text.contains("Draw a card") && text.contains("Player aid"), "{text}");
}

#[test]
fn t_translates_free_text_and_a_missing_key_warns() {
    let (dir, cat) = game_with_aid((63, 88));
    edit(&cat, "game.toml", "# Cards to each player", "[lang.fr.suit]\nSun = \"Soleil\"\n\n[lang.fr.text]\n\"Your turn\" = \"Votre tour\"\n\"Draw a card\" = \"Piochez une carte\"\n\n# Cards to each player");
    let out = dir.path().join("out");
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--lang",
            "fr",
            "--only",
            "aid",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(err.contains("warning: no `fr` translation for \"Player aid\""), "{err}");
    assert!(err.contains("[lang.fr.text]"), "{err}");
    let strict =
        deckpress(&["validate", cat.to_str().unwrap(), "--lang", "fr", "--strict"], dir.path());
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    // Without --lang nothing is missing.
    let plain = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
}

#[test]
fn validate_checks_that_text_fits_in_every_language_the_catalogue_translates() {
    let (dir, cat) = new_game();
    // Card titles are translated; German's is too long for the card.
    edit(&cat, "templates/face.svg", "{{ card.title }}", "{{ t(card.title) }}");
    let long = "Morgendämmerung über den stillen Hügeln";
    edit(
        &cat,
        "game.toml",
        "# Cards to each player",
        &format!("[lang.de.text]\n\"Dawn\" = \"{long}\"\n\n# Cards to each player"),
    );
    // Asked for no language, validate still draws German, where the title runs off the card.
    let plain = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    let err = stderr(&plain);
    assert_eq!(plain.status.code(), Some(0), "a warning, not an error: {err}");
    assert!(
        err.contains(&format!("text \"{long}\" runs"))
            && err.contains("off the card")
            && err.contains("in language `de` (--lang de)"),
        "{err}"
    );
    assert!(
        err.contains("templates/face.svg") && err.contains("card `sun-1`"),
        "names the template and the card: {err}"
    );
    // Untranslated titles are not news without --lang: only what does not fit is.
    assert!(!err.contains("no `de` translation"), "{err}");
    let strict = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    // A translation that fits says nothing.
    edit(&cat, "game.toml", long, "Morgen");
    let fits = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(fits.status.code(), Some(0), "{}", stderr(&fits));
}
