//! Translations checked like data: a label that can never print, an icon only a
//! translation names, values an edition leaves untranslated, and the game's own names in
//! the edition's language — in the PDF, the preview and the Tabletop Simulator export.

use std::path::Path;

use crate::common::*;

/// The starter game with a German edition: its titles and suits print through `labels`.
fn german_game() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    edit(&cat, "templates/face.svg", "{{ card.title }}", "{{ labels.title }}");
    edit(&cat, "templates/face.svg", "{{ card.suit }}", "{{ labels.suit }}");
    let mut toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    toml.push_str(concat!(
        "\n[lang.de.suit]\nSun = \"Sonne\"\nMoon = \"Mond\"\n",
        "\n[lang.de.title]\nDawn = \"Morgen\"\nNoon = \"Mittag\"\nDusk = \"Abend\"\n",
        "\"New Moon\" = \"Neumond\"\n\"Half Moon\" = \"Halbmond\"\n\"Full Moon\" = \"Vollmond\"\n",
    ));
    toml.push_str(SLUG_DE);
    std::fs::write(cat.join("game.toml"), toml).unwrap();
    (dir, cat)
}

/// The line under each sheet in German: deckpress has no German words of its own.
const SLUG_DE: &str = concat!(
    "\n[lang.de.bundle]\n",
    "slug_sheet_of = \"Blatt {n} von {total}, {side}\"\n",
    "slug_sheets = \"{total} Blätter, {side}\"\n",
    "slug_front = \"Vorderseite\"\nslug_back = \"Rückseite\"\n",
    "slug_how = \"{printing} · in Originalgröße (100 %) drucken · der Balken misst 50 mm\"\n",
    "slug_duplex_long = \"beidseitig, an der langen Kante\"\n",
    "slug_duplex_short = \"beidseitig, an der kurzen Kante\"\n",
    "slug_duplex_none = \"erst Vorder-, dann Rückseiten\"\n",
    "slug_duplex_fold = \"zum Falten\"\n",
    "slug_fold = \"hier falten · Innenseiten kleben · beide Lagen schneiden\"\n",
);

/// The line under each sheet is deckpress's own words: in a language it has none in, the
/// build says so once, naming the words to give (it printed English on a German edition
/// without a word); given, the sheets print them.
#[test]
fn the_line_under_each_sheet_is_in_the_editions_language_or_said_to_be_english() {
    let (_g, cat) = german_game();
    let (out, given) = build(&cat, &["--lang", "de", "--strict"]);
    assert_eq!(given.status.code(), Some(0), "{}", stderr(&given));
    let pdf = out.path().join("game/game-cards-a4-de.pdf");
    let text = crate::common::poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("Vorderseite") && text.contains("Rückseite"), "{text}");
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(cat.join("game.toml"), toml.replace(SLUG_DE, "")).unwrap();
    let (_o, english) = build(&cat, &["--lang", "de"]);
    let err = stderr(&english);
    assert_eq!(english.status.code(), Some(0), "{err}");
    assert_eq!(err.matches("the line under each sheet prints in English").count(), 1, "{err}");
    assert!(err.contains("`slug_front`"), "{err}");
}

/// The 1-based line and column of `needle` in a catalogue file, as `file:line:column`.
fn location(cat: &Path, file: &str, needle: &str) -> String {
    let text = std::fs::read_to_string(cat.join(file)).unwrap();
    let at = text.find(needle).expect("needle present");
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{file}:{line}:{column}")
}

#[test]
fn a_misspelt_label_key_is_an_error_naming_the_closest_value() {
    let (_g, cat) = german_game();
    valid_build(&cat);
    edit(&cat, "game.toml", "Dusk = \"Abend\"", "Duks = \"Abend\"");
    let err = invalid(&cat);
    assert!(err.contains("`Duks` in `[lang.de.title]` is not a value of field `title`"), "{err}");
    assert!(err.contains(&location(&cat, "game.toml", "Duks")), "{err}");
    assert!(err.contains("did you mean `Dusk`?"), "{err}");
    // A table for a field the game does not have.
    edit(&cat, "game.toml", "Duks = \"Abend\"", "Dusk = \"Abend\"");
    edit(&cat, "game.toml", "[lang.de.suit]", "[lang.de.siut]");
    let err = invalid(&cat);
    assert!(err.contains("`[lang.de.siut]` translates no field of this game"), "{err}");
    assert!(err.contains("did you mean `[lang.de.suit]`?"), "{err}");
}

#[test]
fn under_lang_values_without_a_label_are_one_warning_listing_them_all() {
    let (_g, cat) = german_game();
    edit(&cat, "game.toml", "Noon = \"Mittag\"\n", "");
    edit(&cat, "game.toml", "\"Full Moon\" = \"Vollmond\"\n", "");
    let (_o, plain) = build(&cat, &["--strict"]);
    assert_eq!(
        plain.status.code(),
        Some(0),
        "without --lang nothing is missing: {}",
        stderr(&plain)
    );
    let (_o, german) = build(&cat, &["--lang", "de"]);
    let err = stderr(&german);
    assert_eq!(german.status.code(), Some(0), "{err}");
    assert!(err.contains("2 values of `title` have no `de` label: `Noon`, `Full Moon`"), "{err}");
    assert_eq!(err.matches("no `de` label").count(), 1, "{err}");
    let (_o, strict) = build(&cat, &["--lang", "de", "--strict"]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
}

#[test]
fn icons_may_have_any_letters_and_an_unknown_one_is_an_error_in_any_language() {
    let (_g, cat) = german_game();
    std::fs::create_dir_all(cat.join("art")).unwrap();
    std::fs::write(cat.join("art/münze.png"), tiny_png()).unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "{{ labels.title }}</text>",
        "</text>{{ textbox(labels.title, x=40, y=700, width=550, size=40) }}",
    );
    // An undeclared `{münze}` in a card's text is an error, not literal text on the card.
    edit(&cat, "cards.csv", "Dawn", "Dawn {münze}");
    edit(&cat, "game.toml", "Dawn = \"Morgen\"", "\"Dawn {münze}\" = \"Morgen {münze}\"");
    let err = invalid(&cat);
    assert!(err.contains("unknown icon `{münze}`"), "{err}");
    assert!(err.contains(&location(&cat, "cards.csv", "Dawn {münze}")), "{err}");
    // Declared, it prints in both editions.
    edit(
        &cat,
        "game.toml",
        "[lang.de.suit]",
        "[icons]\n\"münze\" = \"art/münze.png\"\n\n[lang.de.suit]",
    );
    valid_build(&cat);
    // An icon only the German text names is found by plain `validate`.
    edit(&cat, "game.toml", "\"Morgen {münze}\"", "\"Morgen {muenze}\"");
    let err = invalid(&cat);
    assert!(
        err.contains("unknown icon `{muenze}` in the `de` translation of `Dawn {münze}`"),
        "{err}"
    );
    assert!(err.contains(&location(&cat, "game.toml", "\"Dawn {münze}\" =")), "{err}");
}

#[test]
fn the_edition_names_the_game_and_its_decks_in_its_language() {
    let (dir, cat) = german_game();
    let mut toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    toml.push_str("\n[lang.de.game]\nname = \"Mein Spiel\"\n\n[lang.de.names]\ncards = \"Karten von Mein Spiel\"\n");
    std::fs::write(cat.join("game.toml"), toml).unwrap();
    let (out, german) = build(&cat, &["--lang", "de"]);
    assert_eq!(german.status.code(), Some(0), "{}", stderr(&german));
    let pdf = out.path().join("game/game-cards-a4-de.pdf");
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("Mein Spiel — Karten von Mein Spiel (a4"), "{info}");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("Mein Spiel — Karten von Mein Spiel"), "the slug: {text}");
    assert!(text.contains("Sonne") && text.contains("Vollmond"), "{text}");
    assert!(!text.contains("My Game"), "{text}");
    // The shared back prints `game.name`: the edition's.
    assert!(text.contains("Mein Spiel\n") || text.matches("Mein Spiel").count() > 1, "{text}");

    // The preview and the Tabletop Simulator export draw the edition too.
    let previews = dir.path().join("previews");
    let run = deckpress(
        &[
            "preview",
            cat.to_str().unwrap(),
            "--lang",
            "de",
            "--quiet",
            "--out",
            previews.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let gallery = std::fs::read_to_string(previews.join("game/preview-de/index.html")).unwrap();
    assert!(
        gallery.contains("Mein Spiel") && gallery.contains("Karten von Mein Spiel"),
        "{gallery}"
    );
    let tts = dir.path().join("tts");
    let run = deckpress(
        &[
            "export",
            "tts",
            cat.to_str().unwrap(),
            "--lang",
            "de",
            "--quiet",
            "--out",
            tts.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let saved = std::fs::read_dir(tts.join("game/tts-de"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .expect("a saved object");
    let json = std::fs::read_to_string(saved).unwrap();
    assert!(json.contains("\"Nickname\": \"Vollmond\""), "card names in German: {json}");
    assert!(json.contains("\"Nickname\": \"Karten von Mein Spiel\""), "{json}");
    // An edition the catalogue does not have is refused, not drawn in the source language.
    let run = deckpress(
        &[
            "preview",
            cat.to_str().unwrap(),
            "--lang",
            "fr",
            "--quiet",
            "--out",
            previews.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("no labels for language `fr`; it has: `de`"), "{}", stderr(&run));
}

/// Validates and builds, asserting both succeed without warnings.
fn valid_build(cat: &Path) {
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], cat.parent().unwrap());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let (_o, built) = build(cat, &["--lang", "de", "--strict"]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
}

/// A 64 × 64 opaque PNG.
fn tiny_png() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 64, 64);
    encoder.set_color(png::ColorType::Rgb);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&[200u8; 64 * 64 * 3]).unwrap();
    writer.finish().unwrap();
    bytes
}
