//! Issue 42, one mistake, one message: a corpus of honest mistakes over the features a
//! designer meets (queries, boxes, label sheets, services, translations, rules, deals,
//! macros), each made once in the game `deckpress new` writes. Each gets exactly one
//! problem, at the line that caused it, with "did you mean" wherever a name was typed:
//! none is silent, none brings a cascade of consequences.

use std::path::{Path, PathBuf};

use crate::common::{
    append, deckpress, edit, line_of, new_game, stderr, stdout, valid, with_stickers,
};

/// The `error:` and `warning:` lines of what deckpress printed: one per problem.
fn problems(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("error:") || l.starts_with("warning:")).collect()
}

/// `deckpress validate CAT ARGS…`: what it printed and its exit code.
fn validate(cat: &Path, args: &[&str]) -> (String, Option<i32>) {
    let mut all = vec!["validate", cat.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = deckpress(&all, cat.parent().unwrap());
    (format!("{}\n{}", stderr(&out), stdout(&out)), out.status.code())
}

/// Asserts the one problem `validate` reports is at the line of `file` holding `needle`,
/// and says `says`; returns what was printed.
fn one_problem(cat: &Path, args: &[&str], file: &str, needle: &str, says: &str) -> String {
    let (err, code) = validate(cat, args);
    assert!(!err.contains("panicked"), "{err}");
    let found = problems(&err);
    assert_eq!(found.len(), 1, "one mistake, one problem; got {}:\n{err}", found.len());
    // An error fails validation; a warning does not.
    let failed = if found[0].starts_with("error:") { 1 } else { 0 };
    assert_eq!(code, Some(failed), "{err}");
    let line = line_of(cat, file, needle);
    assert!(err.contains(&format!("{file}:{line}:")), "not at {file}:{line}:\n{err}");
    assert!(err.contains(says), "`{says}` not said:\n{err}");
    err
}

/// `one_problem`, and "did you mean `meant`?".
fn one_meant(cat: &Path, file: &str, needle: &str, says: &str, meant: &str) -> String {
    let err = one_problem(cat, &[], file, needle, says);
    assert!(err.contains(&format!("did you mean `{meant}`?")), "no `did you mean {meant}`:\n{err}");
    err
}

/// The starter game with a German edition of its titles and suits.
fn german() -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    edit(&cat, "templates/face.svg", "{{ card.title }}", "{{ labels.title }}");
    append(
        &cat,
        "game.toml",
        concat!(
            "\n[lang.de.suit]\nSun = \"Sonne\"\nMoon = \"Mond\"\n",
            "\n[lang.de.title]\nDawn = \"Morgen\"\nNoon = \"Mittag\"\nDusk = \"Abend\"\n",
            "\"New Moon\" = \"Neumond\"\n\"Half Moon\" = \"Halbmond\"\n\"Full Moon\" = \"Vollmond\"\n",
        ),
    );
    valid(&cat);
    (dir, cat)
}

/// The starter game whose suit line prints `expression` instead.
fn asking(expression: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    edit(&cat, "templates/face.svg", ">{{ card.suit }}<", &format!(">{{{{ {expression} }}}}<"));
    (dir, cat)
}

/// The starter game with a tuck box for its deck, whose front prints the game's name.
fn boxed() -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    std::fs::write(
        cat.join("templates/box.svg"),
        concat!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {{ box.width }} {{ box.height }}\" font-family=\"Noto Sans\">\n",
            "  <rect x=\"-5\" y=\"-5\" width=\"{{ box.width + 10 }}\" height=\"{{ box.height + 10 }}\" fill=\"{{ style.paper }}\"/>\n",
            "  {% if box.face == \"front\" and box.style == \"tuck\" %}<text x=\"{{ box.width / 2 }}\" y=\"{{ box.height / 2 }}\" font-size=\"5\" text-anchor=\"middle\" fill=\"{{ style.ink }}\">{{ game.name }}</text>{% endif %}\n",
            "</svg>\n",
        ),
    )
    .unwrap();
    append(
        &cat,
        "game.toml",
        "\n[[box]]\nid = \"box\"\ndeck = \"cards\"\nfront = \"templates/box.svg\"\nback = \"templates/box.svg\"\n",
    );
    valid(&cat);
    (dir, cat)
}

/// The starter game with a sticker sheet.
fn stickered() -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = with_stickers("\"avery-l7160\"", 2);
    valid(&cat);
    (dir, cat)
}

/// The starter game whose titles are drawn by `textbox()`.
fn boxed_text() -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    edit(
        &cat,
        "templates/face.svg",
        r#"<text x="315" y="660" font-size="56" font-weight="bold" text-anchor="middle" fill="{{ style.ink }}">{{ card.title }}</text>"#,
        r#"{{ textbox(card.title, x=60, y=600, width=510, height=100, size=56, align="center", fill=style.ink) }}"#,
    );
    valid(&cat);
    (dir, cat)
}

/// The starter game with a shared frame whose `credits()` macro prints a line.
fn framed(size: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    std::fs::write(
        cat.join("templates/frame.svg"),
        format!(
            "{{% macro credits(ink) -%}}\n  <text x=\"315\" y=\"800\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"{{{{ ink }}}}\">© {{{{ game.name }}}} team</text>\n{{%- endmacro %}}\n"
        ),
    )
    .unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "  {%- set colour",
        "  {%- from \"templates/frame.svg\" import credits %}\n  {%- set colour",
    );
    edit(&cat, "templates/face.svg", "</svg>", "  {{ credits(style.ink) }}\n</svg>");
    (dir, cat)
}

// Root causes first: a deck that failed to load gets no translation checks.

#[test]
fn a_header_typo_is_one_error_not_one_per_translated_name() {
    let (_g, cat) = german();
    edit(&cat, "cards.csv", "id,qty,suit,value,title", "id,qty,suit,value,titel");
    one_meant(&cat, "cards.csv", "titel", "unknown column `titel`", "title");
}

#[test]
fn a_misspelt_rows_file_is_one_error() {
    let (_g, cat) = german();
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"card.csv\"");
    let err = one_problem(&cat, &[], "game.toml", "card.csv", "cannot read rows file `card.csv`");
    assert!(err.contains("did you mean `cards.csv`?"), "{err}");
}

#[test]
fn a_missing_template_is_one_error() {
    let (_g, cat) = german();
    edit(&cat, "game.toml", "face = \"templates/face.svg\"", "face = \"templates/fase.svg\"");
    one_meant(&cat, "game.toml", "fase.svg", "templates/fase.svg", "templates/face.svg");
}

#[test]
fn a_stray_quote_in_the_rows_is_one_error() {
    let (_g, cat) = german();
    edit(&cat, "cards.csv", "sun-2,1,Sun,2,Noon", "sun-2,1,Sun,2,\"Noon");
    one_problem(&cat, &[], "cards.csv", "\"Noon", "quote");
}

#[test]
fn a_renamed_card_is_named_with_its_orphaned_label() {
    let (_g, cat) = german();
    edit(&cat, "cards.csv", ",Dusk\n", ",Twilight\n");
    let err = one_meant(&cat, "game.toml", "Dusk = ", "`Dusk` in `[lang.de.title]`", "Twilight");
    assert!(err.contains("cards.csv line 4"), "{err}");
}

#[test]
fn a_misspelt_label_key_is_one_error() {
    let (_g, cat) = german();
    edit(&cat, "game.toml", "Moon = \"Mond\"", "Mon = \"Mond\"");
    one_meant(&cat, "game.toml", "Mon = ", "`Mon` in `[lang.de.suit]`", "Moon");
}

#[test]
fn a_misspelt_translation_table_is_one_error() {
    let (_g, cat) = german();
    edit(&cat, "game.toml", "[lang.de.suit]", "[lang.de.siut]");
    one_meant(&cat, "game.toml", "[lang.de.siut]", "translates no field", "[lang.de.suit]");
}

#[test]
fn a_misspelt_text_key_is_named_in_plain_validate() {
    let (_g, cat) = german();
    edit(&cat, "templates/face.svg", ">{{ card.suit }}<", ">{{ t(\"Round\") }}<");
    append(&cat, "game.toml", "\n[lang.de.text]\nRuond = \"Runde\"\n");
    one_meant(&cat, "game.toml", "Ruond", "`Ruond` in `[lang.de.text]`", "Round");
}

// Queries: nothing that can never be true.

#[test]
fn a_query_for_a_value_no_card_has_is_an_error() {
    let (_g, cat) = asking("count(where={\"title\": \"Dwan\"})");
    let err = one_meant(&cat, "templates/face.svg", "Dwan", "`where` matches no card", "Dawn");
    assert!(err.contains("empty=true"), "{err}");
}

#[test]
fn a_query_that_means_zero_says_so() {
    let (_g, cat) = asking("count(where={\"title\": \"Dwan\"}, empty=true)");
    valid(&cat);
}

#[test]
fn a_query_for_a_misspelt_enum_value() {
    let (_g, cat) = asking("count(where={\"suit\": \"Sunn\"})");
    one_meant(&cat, "templates/face.svg", "Sunn", "`suit` has no value `Sunn`", "Sun");
}

#[test]
fn a_query_for_a_misspelt_deck() {
    let (_g, cat) = asking("count(deck=\"crads\")");
    one_meant(&cat, "templates/face.svg", "crads", "no deck `crads`", "cards");
}

#[test]
fn a_query_for_a_misspelt_field() {
    let (_g, cat) = asking("count(where={\"siut\": \"Sun\"})");
    one_meant(&cat, "templates/face.svg", "siut", "no field `siut`", "suit");
}

#[test]
fn a_sum_of_a_misspelt_field() {
    let (_g, cat) = asking("sum(field=\"vaule\")");
    one_meant(&cat, "templates/face.svg", "vaule", "no field `vaule`", "value");
}

#[test]
fn the_values_of_a_misspelt_field() {
    let (_g, cat) = asking("values(\"titel\") | join(\", \")");
    one_meant(&cat, "templates/face.svg", "titel", "no field `titel`", "title");
}

#[test]
fn a_query_for_a_field_the_deck_has_no_column_for() {
    let (_g, cat) = stickered();
    edit(
        &cat,
        "templates/face.svg",
        ">{{ card.suit }}<",
        ">{{ count(deck=\"stickers\", where={\"suit\": \"Sun\"}) }}<",
    );
    one_problem(
        &cat,
        &[],
        "templates/face.svg",
        "stickers",
        "deck `stickers` has no `suit` on any card",
    );
}

#[test]
fn a_query_for_a_number_no_card_has() {
    let (_g, cat) = asking("cards(where={\"value\": 7}) | length");
    one_problem(
        &cat,
        &[],
        "templates/face.svg",
        "value\": 7",
        "no card of deck `cards` has `value` `7`",
    );
}

// Boxes.

#[test]
fn a_box_face_in_the_wrong_case() {
    let (_g, cat) = boxed();
    edit(&cat, "templates/box.svg", "box.face == \"front\"", "box.face == \"Front\"");
    one_meant(&cat, "templates/box.svg", "Front", "`box.face` is never `Front`", "front");
}

#[test]
fn a_box_style_that_is_not_one() {
    let (_g, cat) = boxed();
    edit(&cat, "templates/box.svg", "box.style == \"tuck\"", "box.style == \"tuk\"");
    one_meant(&cat, "templates/box.svg", "tuk", "`box.style` is never `tuk`", "tuck");
}

#[test]
fn a_box_for_a_misspelt_deck() {
    let (_g, cat) = boxed();
    edit(&cat, "game.toml", "deck = \"cards\"", "deck = \"card\"");
    one_meant(&cat, "game.toml", "deck = \"card\"", "box `box` is for deck `card`", "cards");
}

#[test]
fn a_misspelt_box_key() {
    let (_g, cat) = boxed();
    edit(&cat, "game.toml", "front = \"templates/box.svg\"", "frnt = \"templates/box.svg\"");
    one_meant(&cat, "game.toml", "frnt", "unknown field `frnt`", "front");
}

#[test]
fn a_misspelt_box_name_in_its_template() {
    let (_g, cat) = boxed();
    edit(&cat, "templates/box.svg", "box.width / 2", "box.widht / 2");
    one_meant(&cat, "templates/box.svg", "widht", "undefined value `box.widht`", "width");
}

#[test]
fn a_misspelt_box_style() {
    let (_g, cat) = boxed();
    edit(&cat, "game.toml", "id = \"box\"", "id = \"box\"\nstyle = \"telescop\"");
    one_problem(&cat, &[], "game.toml", "telescop", "telescop");
}

// Label and sticker sheets.

#[test]
fn a_misspelt_label_product() {
    let (_g, cat) = stickered();
    edit(&cat, "game.toml", "avery-l7160", "avery-l7610");
    one_meant(&cat, "game.toml", "avery-l7610", "unknown label sheet `avery-l7610`", "avery-l7160");
}

#[test]
fn a_misspelt_label_sheet_key() {
    let (_g, cat) = stickered();
    edit(&cat, "game.toml", "face = \"templates/sticker.svg\"", "fcae = \"templates/sticker.svg\"");
    one_meant(&cat, "game.toml", "fcae", "unknown field `fcae`", "face");
}

#[test]
fn a_header_typo_in_the_stickers() {
    let (_g, cat) = stickered();
    edit(&cat, "stickers.csv", "id,qty,title", "id,qty,tilte");
    one_meant(&cat, "stickers.csv", "tilte", "unknown column `tilte`", "title");
}

#[test]
fn a_rule_for_misspelt_stickers() {
    let (_g, cat) = stickered();
    append(
        &cat,
        "game.toml",
        "\n[[rule]]\nname = \"two stickers\"\ndeck = \"stikers\"\ncount = 2\n",
    );
    one_meant(&cat, "game.toml", "stikers", "unknown deck or sheet `stikers`", "stickers");
}

#[test]
fn a_sticker_sheet_of_suits_does_not_change_what_a_rule_counts() {
    // Issue 42: a rule with no `deck =` counted the stickers ("found 8").
    let (_g, cat) = new_game();
    append(&cat, "game.toml", "\n[fields.label]\nkind = \"text\"\noptional = true\n");
    std::fs::write(cat.join("suits.csv"), "id,suit,label\nsun,Sun,Sun\nmoon,Moon,Moon\n").unwrap();
    std::fs::write(
        cat.join("templates/suit.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 63.5 38.1" font-family="Noto Sans"><text x="5" y="20" font-size="8" fill="#000000">{{ card.label }}</text></svg>"##,
    )
    .unwrap();
    append(
        &cat,
        "game.toml",
        "\n[[sheet]]\nid = \"suit-stickers\"\nlabels = \"avery-l7160\"\nrows = \"suits.csv\"\nface = \"templates/suit.svg\"\nfields = [\"suit\", \"label\"]\n",
    );
    let err = valid(&cat);
    assert!(problems(&err).is_empty(), "{err}");
}

// Print services and --only.

#[test]
fn a_misspelt_service() {
    let (_g, cat) = new_game();
    let out = deckpress(
        &["build", cat.to_str().unwrap(), "--for", "makeplayingcard"],
        cat.parent().unwrap(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(problems(&err).len(), 1, "{err}");
    assert!(err.contains("'makeplayingcards'"), "{err}");
}

#[test]
fn a_misspelt_id_for_only() {
    let (_g, cat) = new_game();
    let (err, code) = validate(&cat, &["--only", "crads"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(problems(&err).len(), 1, "{err}");
    assert!(err.contains("did you mean `cards`?"), "{err}");
}

// Rules.

#[test]
fn rule_values_may_be_numbers() {
    // Issue 42: serde's "data did not match any variant of untagged enum OneOrMany".
    let (_g, cat) = new_game();
    append(
        &cat,
        "game.toml",
        "\n[[rule]]\nname = \"ones and twos\"\nwhere = { value = [1, 2] }\ncount = 4\n",
    );
    valid(&cat);
}

#[test]
fn a_rule_value_that_is_no_value() {
    let (_g, cat) = new_game();
    append(&cat, "game.toml", "\n[[rule]]\nname = \"suns\"\nrequire = { suit = true }\n");
    one_problem(&cat, &[], "game.toml", "suit = true", "a rule's value is a text or a number");
}

#[test]
fn a_rule_on_a_misspelt_field() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "each = \"suit\"", "each = \"siut\"");
    one_meant(&cat, "game.toml", "siut", "unknown field `siut`", "suit");
}

#[test]
fn a_rule_on_a_misspelt_value() {
    let (_g, cat) = new_game();
    append(
        &cat,
        "game.toml",
        "\n[[rule]]\nname = \"four suns\"\nwhere = { suit = \"Snu\" }\ncount = 4\n",
    );
    one_meant(&cat, "game.toml", "Snu", "unknown suit `Snu`", "Sun");
}

#[test]
fn a_rule_on_a_misspelt_deck() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "each = \"suit\"", "each = \"suit\"\ndeck = \"crads\"");
    one_meant(&cat, "game.toml", "crads", "unknown deck or sheet `crads`", "cards");
}

#[test]
fn a_misspelt_rule_key() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "count = 4", "cuont = 4");
    one_meant(&cat, "game.toml", "cuont", "unknown field `cuont`", "count");
}

// Deals.

#[test]
fn a_misspelt_deal_key() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "hand = 3", "hnad = 3");
    one_meant(&cat, "game.toml", "hnad", "unknown field `hnad`", "hand");
}

#[test]
fn a_deal_of_a_misspelt_deck() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "hand = 3", "hand = 3\ndeck = \"crads\"");
    one_meant(&cat, "game.toml", "crads", "unknown deck `crads`", "cards");
}

// Templates, macros and text cells: the line that wrote it.

#[test]
fn small_text_drawn_by_a_macro_names_its_line_and_the_call() {
    let (_g, cat) = framed("16");
    let err = one_problem(&cat, &[], "templates/frame.svg", "© ", "prints at 4.5 pt");
    let call = line_of(&cat, "templates/face.svg", "credits(style.ink)");
    assert!(
        err.contains(&format!("called from {}", cat.join("templates/face.svg").display())),
        "{err}"
    );
    assert!(err.contains(&format!("line {call}")), "{err}");
}

#[test]
fn small_text_drawn_by_an_include_names_its_line_and_the_include() {
    let (_g, cat) = new_game();
    std::fs::write(
        cat.join("templates/credits.svg"),
        "<text x=\"315\" y=\"800\" font-size=\"16\" text-anchor=\"middle\" fill=\"{{ style.ink }}\">by {{ game.name }} team</text>\n",
    )
    .unwrap();
    edit(&cat, "templates/face.svg", "</svg>", "  {% include \"templates/credits.svg\" %}\n</svg>");
    let err = one_problem(&cat, &[], "templates/credits.svg", "by ", "prints at 4.5 pt");
    let call = line_of(&cat, "templates/face.svg", "include");
    assert!(err.contains(&format!("line {call}")), "{err}");
}

#[test]
fn a_macro_called_with_a_misspelt_argument() {
    let (_g, cat) = framed("60");
    edit(&cat, "templates/face.svg", "credits(style.ink)", "credits(ikn=style.ink)");
    one_meant(&cat, "templates/face.svg", "ikn=", "ikn", "ink");
}

#[test]
fn a_misspelt_import() {
    let (_g, cat) = framed("60");
    edit(&cat, "templates/face.svg", "\"templates/frame.svg\"", "\"templates/frme.svg\"");
    one_problem(&cat, &[], "templates/face.svg", "frme.svg", "frme.svg");
}

#[test]
fn an_unclosed_bold_names_the_cell() {
    let (_g, cat) = boxed_text();
    edit(&cat, "cards.csv", ",Dawn\n", ",**Dawn\n");
    let err = one_problem(&cat, &[], "templates/face.svg", "textbox(", "never closed");
    let cell = format!("{}:2:15", cat.join("cards.csv").display());
    assert!(err.contains(&cell), "no {cell}:\n{err}");
}

#[test]
fn a_comparison_with_a_misspelt_enum_value() {
    let (_g, cat) = new_game();
    edit(
        &cat,
        "templates/face.svg",
        "{%- set colour = style.suits[card.suit] %}",
        "{%- set colour = style.suits[card.suit] if card.suit != \"moon\" else \"#000000\" %}",
    );
    one_meant(&cat, "templates/face.svg", "\"moon\"", "`card.suit` is never `moon`", "Moon");
}

#[test]
fn a_misspelt_card_field_in_a_template() {
    let (_g, cat) = new_game();
    edit(&cat, "templates/face.svg", "{{ card.title }}", "{{ card.titel }}");
    one_meant(&cat, "templates/face.svg", "card.titel", "undefined value `card.titel`", "title");
}

#[test]
fn text_near_the_cut_that_differs_per_card_is_one_warning() {
    // Issue 42: one warning per card ("text \"1\" …", "text \"2\" …", …).
    let (_g, cat) = new_game();
    edit(&cat, "templates/face.svg", "<text x=\"90\" y=\"150\"", "<text x=\"40\" y=\"150\"");
    let (err, code) = validate(&cat, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(problems(&err).len(), 1, "{err}");
    let line = line_of(&cat, "templates/face.svg", "x=\"40\"");
    assert!(err.contains(&format!("templates/face.svg:{line}:")), "{err}");
    assert!(err.contains("and 5 more cards (`sun-2`, `sun-3`"), "{err}");
}

// Names typed elsewhere.

#[test]
fn a_misspelt_name_field() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.csv\"\nname_field = \"titel\"");
    one_meant(&cat, "game.toml", "titel", "has no field `titel`", "title");
}

#[test]
fn a_misspelt_shared_deck() {
    let (_g, cat) = new_game();
    append(&cat, "game.toml", "\n[[deck]]\nid = \"french\"\nfrom = \"frnech\"\n");
    one_meant(&cat, "game.toml", "frnech", "no shared deck `frnech`", "french");
}

#[test]
fn a_misspelt_shared_sheet_template() {
    let (_g, cat) = new_game();
    append(
        &cat,
        "game.toml",
        "\n[[sheet]]\nid = \"pad\"\nfrom = \"score-pda\"\npage = \"portrait\"\n",
    );
    one_meant(&cat, "game.toml", "score-pda", "no shared sheet template `score-pda`", "score-pad");
}

#[test]
fn a_misspelt_field_kind() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "kind = \"integer\"", "kind = \"integr\"");
    one_problem(&cat, &[], "game.toml", "integr", "integr");
}

/// The first fenced block (```` ```toml ```` or a plain one) after `heading` in
/// docs/catalogue.md, the `n`-th of its section.
fn docs_block(heading: &str, n: usize) -> String {
    let docs = std::fs::read_to_string(crate::common::repo().join("docs/catalogue.md")).unwrap();
    let section = &docs[docs.find(heading).expect("the docs have the section")..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let block = section.split("```").skip(1).step_by(2).nth(n).expect("the docs have the block");
    block.split_once('\n').map_or("", |(_, body)| body).to_string()
}

#[test]
fn a_sticker_sheet_and_a_box_added_from_the_docs_alone_validate_strict_clean() {
    let (_g, cat) = new_game();
    // Tuck boxes: the docs' example is for a deck `cards`, as the new game's is.
    append(&cat, "game.toml", &format!("\n{}", docs_block("## Tuck boxes", 0)));
    // "filled for its panel, fold to fold, in millimetres … give the root <svg> a viewBox
    // and draw the background past the panel by the bleed"
    std::fs::write(
        cat.join("templates/box.svg"),
        concat!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{{ box.width }}mm\" height=\"{{ box.height }}mm\" viewBox=\"0 0 {{ box.width }} {{ box.height }}\" font-family=\"Noto Sans\">\n",
            "  <rect x=\"-3\" y=\"-3\" width=\"{{ box.width + 6 }}\" height=\"{{ box.height + 6 }}\" fill=\"{{ style.paper }}\"/>\n",
            "  {% if box.face == \"front\" %}<text x=\"{{ box.width / 2 }}\" y=\"{{ box.height / 2 }}\" font-size=\"6\" text-anchor=\"middle\" fill=\"{{ style.ink }}\">{{ game.name }}</text>{% endif %}\n",
            "</svg>\n",
        ),
    )
    .unwrap();
    // Label and sticker sheets: the sheet, its fields, its rows, the deck's own `fields`.
    let section = "## Label and sticker sheets";
    append(&cat, "game.toml", &format!("\n{}\n{}", docs_block(section, 0), docs_block(section, 1)));
    std::fs::write(cat.join("pawns.csv"), docs_block(section, 2)).unwrap();
    edit(
        &cat,
        "game.toml",
        "rows = \"cards.csv\"",
        "rows = \"cards.csv\"\nfields = [\"suit\", \"value\", \"title\"]",
    );
    std::fs::write(
        cat.join("templates/pawn-sticker.svg"),
        concat!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{{ deck.width }}mm\" height=\"{{ deck.height }}mm\" viewBox=\"0 0 {{ deck.width }} {{ deck.height }}\" font-family=\"Noto Sans\">\n",
            "  <rect x=\"-2\" y=\"-2\" width=\"{{ deck.width + 4 }}\" height=\"{{ deck.height + 4 }}\" fill=\"{{ style.paper }}\"/>\n",
            "  <text x=\"{{ deck.width / 2 }}\" y=\"{{ deck.height / 2 }}\" font-size=\"5\" text-anchor=\"middle\" fill=\"{{ style.ink }}\">{{ card.character }}</text>\n",
            "</svg>\n",
        ),
    )
    .unwrap();
    let (err, code) = validate(&cat, &["--strict"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(problems(&err).is_empty(), "{err}");
    assert!(err.contains("4 in `pawn-stickers`"), "{err}");
}

#[test]
fn a_failed_text_cell_is_one_error_not_its_source_drawn() {
    // Its source was drawn too: "text \"{{ count(…) }} suns …\" runs 56.7 mm off the card".
    let (_g, cat) = new_game();
    edit(
        &cat,
        "cards.csv",
        ",Dawn\n",
        ",\"{{ count(where={'suit': 'Snu'}) }} suns, and more words to run off the card\"\n",
    );
    one_meant(&cat, "cards.csv", "Snu", "template error in the cell", "Sun");
}

#[test]
fn preflight_leaves_a_label_sheet_out_as_the_service_files_do() {
    // It said every check of `stickers` passed, "0 PDF" among them.
    let (_g, cat) = stickered();
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "preflight",
            cat.to_str().unwrap(),
            "--for",
            "pdf-cards",
            "--out",
            out.path().to_str().unwrap(),
        ],
        cat.parent().unwrap(),
    );
    let said = format!("{}{}", stdout(&run), stderr(&run));
    assert_eq!(run.status.code(), Some(0), "{said}");
    // Said not to be the service's, and checked as the home sheet the build makes.
    assert!(
        said.contains("label sheet `stickers` (labels or stickers): not a product of this service"),
        "{said}"
    );
    assert!(said.contains("label sheet `stickers` as a home document"), "{said}");
    assert!(!said.contains("deck `stickers` for"), "{said}");
    assert!(said.contains("deck `cards` for"), "{said}");
}

#[test]
fn a_font_family_a_frame_asks_for_names_the_frame_and_the_call() {
    // It named the card template, which does not say `Cinzel`.
    let (_g, cat) = framed("60");
    edit(
        &cat,
        "templates/frame.svg",
        "font-size=\"60\"",
        "font-size=\"60\" font-family=\"Cinzel\"",
    );
    let err = one_problem(&cat, &[], "templates/frame.svg", "Cinzel", "no font of family `Cinzel`");
    let call = line_of(&cat, "templates/face.svg", "credits(style.ink)");
    assert!(err.contains(&format!("line {call}")), "{err}");
}

#[test]
fn a_new_game_from_score_pad_shows_every_key_of_the_pad_and_validates_strict() {
    // The pad's keys were only in templates/score-pad/README.md, which an installed
    // binary does not have.
    let dir = tempfile::tempdir().unwrap();
    let made = deckpress(&["new", "pad-game", "--from", "score-pad"], dir.path());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let cat = dir.path().join("pad-game");
    let (err, code) = validate(&cat, &["--strict"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(problems(&err).is_empty(), "{err}");
    let manifest = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    let keys = docs_block("## The score pad", 0);
    assert!(keys.contains("from = \"score-pad\""), "{keys}");
    let docs = std::fs::read_to_string(crate::common::repo().join("docs/catalogue.md")).unwrap();
    let table = &docs[docs.find("### `data`").expect("the pad's data keys are in the docs")..];
    let table = &table[..table.find("\n### ").unwrap_or(table.len())];
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        for key in row.split('|').nth(1).unwrap().split('`').skip(1).step_by(2) {
            assert!(
                manifest.contains(&format!("{key} = ")),
                "`{key}` is not in the new game:\n{manifest}"
            );
        }
    }
}

#[test]
fn a_boxed_deck_whose_template_is_missing_is_one_error() {
    // The box said too that it was "for deck `cards`, which the game does not have".
    let (_g, cat) = boxed();
    edit(&cat, "game.toml", "face = \"templates/face.svg\"", "face = \"templates/fase.svg\"");
    one_meant(&cat, "game.toml", "fase.svg", "cannot read template", "templates/face.svg");
}

#[test]
fn a_header_typo_in_a_boxed_deck_with_rules_is_one_error() {
    // The rule said `suit` "is not a column of deck `cards`", the box "a box for no cards".
    let (_g, cat) = boxed();
    edit(&cat, "cards.csv", "id,qty,suit,value,title", "id,qty,siut,value,title");
    one_meant(&cat, "cards.csv", "siut", "unknown column `siut`", "suit");
}

#[test]
fn a_misspelt_field_declaration_is_one_error_at_the_declaration() {
    // The column, the rule and the translation each said "unknown" (3 problems).
    let (_g, cat) = german();
    edit(&cat, "game.toml", "[fields.suit]", "[fields.siut]");
    let err = one_meant(
        &cat,
        "game.toml",
        "[fields.siut]",
        "field `siut` is declared, but the game calls it `suit`",
        "[fields.suit]",
    );
    assert!(err.contains("cards.csv:1"), "{err}");
}
