//! "Validate sees everything, and nothing prints wrong in silence": rules that would check
//! nothing, `each` with `sequence`, CSV pitfalls named, the same lines and columns for
//! files saved on Windows and old Macs, template typos named at their expression, and
//! `unique` counting designs. Each runs the real binary on an edited copy of a catalogue.

use crate::common::*;

use std::path::{Path, PathBuf};

/// Asserts that `message` is reported at `location` (`file:line:col`), the location
/// printed just after the message and before any other problem.
fn assert_at(err: &str, message: &str, location: &str) {
    let found = err.find(message).unwrap_or_else(|| panic!("expected `{message}` in:\n{err}"));
    let after = &err[found..];
    let location = format!("{location}\n");
    let next = after
        .find(&location)
        .unwrap_or_else(|| panic!("expected {location} after `{message}` in:\n{err}"));
    assert!(
        !after[..next].contains("\nerror:") && !after[..next].contains("\nwarning:"),
        "{location} belongs to another problem:\n{err}"
    );
}

/// 1-based column of `needle` on the first line of `file` that holds `line_needle`.
fn column_of(cat: &Path, file: &str, line_needle: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(cat.join(file)).unwrap();
    let line = text.lines().find(|l| l.contains(line_needle)).expect("line present");
    line[..line.find(needle).expect("needle on the line")].chars().count() + 1
}

/// `file:line:col` of `needle` on the line holding `line_needle`.
fn at(cat: &Path, file: &str, line_needle: &str, needle: &str) -> String {
    format!(
        "{file}:{}:{}",
        line_of(cat, file, line_needle),
        column_of(cat, file, line_needle, needle)
    )
}

fn write(cat: &Path, file: &str, text: &str) {
    std::fs::write(cat.join(file), text).unwrap();
}

fn append(cat: &Path, file: &str, text: &str) {
    let old = std::fs::read_to_string(cat.join(file)).unwrap();
    write(cat, file, &format!("{old}{text}"));
}

// ---- 1. Rules that check nothing ----

#[test]
fn a_rule_on_a_column_its_deck_does_not_have_is_an_error_at_the_key() {
    let (_g, cat) = copy_catalogue("travfuda");
    // `run` is a field of the game (markers.csv, run-pad.csv), but not a column of cards.csv.
    append(&cat, "game.toml", "\n[[rule]]\nname = \"each run value once\"\ndeck = \"cards\"\neach = \"run\"\nat_most = 1\n");
    let err = invalid(&cat);
    assert_at(
        &err,
        "`run` is not a column of deck `cards`",
        &at(&cat, "game.toml", "each = \"run\"", "\"run\""),
    );
    assert!(
        err.contains(
            "rule \"each run value once\" would check nothing: every card has `run` empty"
        ),
        "{err}"
    );
    assert!(err.contains("deck `markers`, sheet `run-pad` have it"), "{err}");
}

#[test]
fn where_unless_unique_and_sequence_fields_must_be_columns_too() {
    let (_g, cat) = copy_catalogue("travfuda");
    append(
        &cat,
        "game.toml",
        "\n[[rule]]\nname = \"pad lines by colour\"\ndeck = \"pad\"\nwhere = { colour = \"Red\" }\nunless = { points = \"1\" }\nunique = [\"type\"]\n\
         \n[[rule]]\nname = \"cards numbered\"\ndeck = \"cards\"\nsequence = 'run'\n",
    );
    let err = invalid(&cat);
    assert_at(
        &err,
        "`colour` is not a column of sheet `pad`",
        &at(&cat, "game.toml", "where = { colour = \"Red\" }", "colour"),
    );
    assert_at(
        &err,
        "`points` is not a column of sheet `pad`",
        &at(&cat, "game.toml", "unless = { points = \"1\" }", "points"),
    );
    assert_at(
        &err,
        "`type` is not a column of sheet `pad`",
        &at(&cat, "game.toml", "unique = [\"type\"]", "\"type\""),
    );
    assert!(err.contains("deck `cards` has it: name it with `deck = \"cards\"`"), "{err}");
    assert_at(
        &err,
        "`run` is not a column of deck `cards`",
        &at(&cat, "game.toml", "sequence = 'run'", "'run'"),
    );
}

#[test]
fn a_shared_deck_has_the_columns_of_the_library_rows() {
    // Trash's deck comes from the French deck: its columns are those of the library's
    // cards.csv (`rank`, `suit`), not the game's pad fields.
    let (_g, cat) = copy_catalogue("trash");
    append(&cat, "game.toml", "\n[[rule]]\nname = \"facts are unique\"\ndeck = \"cards\"\nwhere = { kind = [\"fact\"] }\nunique = [\"rank\"]\n");
    let err = invalid(&cat);
    assert_at(
        &err,
        "`kind` is not a column of deck `cards`",
        &at(&cat, "game.toml", "where = { kind = [\"fact\"] }", "kind"),
    );
    assert!(!err.contains("`rank` is not a column"), "the library's columns count: {err}");
    assert!(err.contains("sheet `pad` has it"), "{err}");
}

#[test]
fn a_where_that_selects_no_card_is_a_warning_at_the_rule() {
    let (_g, cat) = copy_catalogue("travfuda");
    append(&cat, "game.toml", "\n[[rule]]\nname = \"red Jokers score 1\"\ndeck = \"cards\"\nwhere = { type = \"Joker\", colour = \"Red\" }\nrequire = { points = \"1\" }\n");
    let rule =
        format!("game.toml:{}:1", line_of(&cat, "game.toml", "name = \"red Jokers score 1\"") - 1);
    let out = deckpress(&["validate", cat.to_str().unwrap()], cat.parent().unwrap());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "a warning: {err}");
    assert!(err.contains("warning: rule \"red Jokers score 1\" selects no card"), "{err}");
    assert_at(&err, "rule \"red Jokers score 1\" selects no card", &rule);
    let out = deckpress(&["validate", "--strict", cat.to_str().unwrap()], cat.parent().unwrap());
    assert_eq!(out.status.code(), Some(1), "--strict: {}", stderr(&out));
    assert_at(&stderr(&out), "rule \"red Jokers score 1\" selects no card", &rule);
}

// ---- 2. `each` with `sequence` ----

/// The starter game with values 2 to 10 in each suit, and the rule "values 2 to 10 once in
/// each suit".
fn two_to_ten() -> (tempfile::TempDir, PathBuf) {
    let (g, cat) = new_game();
    let mut csv = String::from("id,qty,suit,value,title\n");
    for suit in ["Sun", "Moon"] {
        for v in 2..=10 {
            csv.push_str(&format!("{}-{v},1,{suit},{v},{suit} {v}\n", suit.to_lowercase()));
        }
    }
    write(&cat, "cards.csv", &csv);
    edit(&cat, "game.toml", "count = 4", "at_least = 1");
    append(&cat, "game.toml", "\n[[rule]]\nname = \"values 2 to 10 once in each suit\"\neach = \"suit\"\nsequence = \"value\"\nstart = 2\n");
    (g, cat)
}

#[test]
fn each_with_sequence_checks_every_group() {
    let (_g, cat) = two_to_ten();
    valid(&cat);
    edit(&cat, "cards.csv", "moon-7,1,Moon,7,Moon 7\n", "");
    let err = invalid(&cat);
    let rule = format!(
        "game.toml:{}:1",
        line_of(&cat, "game.toml", "name = \"values 2 to 10 once in each suit\"") - 1
    );
    assert_at(
        &err,
        "rule \"values 2 to 10 once in each suit\" failed for suit `Moon`: value 7 is missing",
        &rule,
    );
    assert!(!err.contains("for suit `Sun`"), "Sun is complete: {err}");
    assert!(!err.contains("out of order"), "{err}");
    assert!(err.contains("found 2 to 6 and 8 to 10"), "{err}");
}

#[test]
fn a_repeat_in_one_group_points_at_the_second_and_a_typo_says_what_is_missing() {
    let (_g, cat) = two_to_ten();
    edit(&cat, "cards.csv", "sun-5,1,Sun,5,", "sun-5,1,Sun,4,");
    let err = invalid(&cat);
    assert_at(
        &err,
        "failed for suit `Sun`: value 4 appears twice",
        &at(&cat, "cards.csv", "sun-5,", "4,Sun 5"),
    );
    assert!(err.contains("failed for suit `Sun`: value 5 is missing"), "{err}");

    let (_g, cat) = two_to_ten();
    edit(&cat, "cards.csv", "moon-6,1,Moon,6,", "moon-6,1,Moon,60,");
    let err = invalid(&cat);
    assert!(
        err.contains("failed for suit `Moon`: value 6 is missing; value 60 is outside 2 to 10"),
        "{err}"
    );
    assert!(err.contains("value 60 is card `moon-6`, cards.csv line"), "{err}");
}

// ---- 3. CSV pitfalls ----

#[test]
fn a_stray_quote_that_swallows_rows_is_named_at_the_quote() {
    let (_g, cat) = copy_catalogue("travfuda");
    edit(&cat, "cards.csv", "4-double,1,4,Comet,Double,,2", "4-double,1,4,\"Comet,Double,,2");
    let text = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    let (line, last) = (line_of(&cat, "cards.csv", "4-double"), text.lines().count());
    let message = format!("this quote opens a cell that runs to line {last}, swallowing {} lines that look like rows; close it or remove it", last - line);
    let err = invalid(&cat);
    assert_at(&err, &message, &at(&cat, "cards.csv", "4-double", "\"Comet"));
    assert!(!err.contains("cells but the header has"), "one report: {err}");
}

#[test]
fn a_cell_of_text_over_several_lines_still_reads() {
    let (_g, cat) = new_game();
    // Commas inside, and a line with as many commas as the header, but words, not an id.
    edit(&cat, "cards.csv", "sun-1,1,Sun,1,Dawn", "sun-1,1,Sun,1,\"Dawn, first light,\nthen a new day, warm, bright, long\n\"\"early\"\" birds\"");
    valid(&cat);
}

#[test]
fn a_semicolon_file_says_so_and_reads_with_its_delimiter() {
    let (_g, cat) = new_game();
    let text = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    write(&cat, "cards.csv", &text.replace(',', ";"));
    let err = invalid(&cat);
    assert_at(
        &err,
        "this file uses semicolons; save as comma-separated or set `delimiter = \";\"`",
        "cards.csv:1:1",
    );
    assert!(!err.contains("unknown column"), "{err}");
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.csv\"\ndelimiter = \";\"");
    valid(&cat);

    let (_g, cat) = new_game();
    write(&cat, "cards.csv", &text.replace(',', "\t"));
    let err = invalid(&cat);
    assert_at(
        &err,
        "this file uses tabs; save as comma-separated or set `delimiter = \"\\t\"`",
        "cards.csv:1:1",
    );
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.csv\"\ndelimiter = \"\\t\"");
    valid(&cat);
}

#[test]
fn an_unknown_delimiter_is_an_error_at_the_key() {
    let (_g, cat) = new_game();
    edit(&cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.csv\"\ndelimiter = \"|\"");
    let err = invalid(&cat);
    assert_at(&err, "unknown delimiter `|`", &at(&cat, "game.toml", "delimiter", "\"|\""));
}

#[test]
fn empty_trailing_columns_are_named() {
    let (_g, cat) = new_game();
    let text = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    write(&cat, "cards.csv", &text.replace('\n', ",,\n"));
    let err = invalid(&cat);
    let column = "id,qty,suit,value,title".len() + 1;
    assert_at(
        &err,
        "columns 6 and 7 of the header are empty: delete them in your spreadsheet",
        &format!("cards.csv:1:{column}"),
    );
    assert!(!err.contains("unknown column"), "{err}");
}

#[test]
fn quantity_0_says_to_delete_the_line() {
    let (_g, cat) = new_game();
    edit(&cat, "cards.csv", "sun-2,1,", "sun-2,0,");
    let err = invalid(&cat);
    assert_at(
        &err,
        "quantity 0: a card design needs at least 1 copy; delete the line to leave it out",
        &at(&cat, "cards.csv", "sun-2", "0,"),
    );
    assert!(!err.contains("not a whole number"), "{err}");
}

#[test]
fn a_sheet_with_a_page_and_a_width_says_so() {
    let (_g, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "game.toml",
        "from = \"score-pad\"\npage = \"landscape\"\nrows = \"pad.csv\"",
        "from = \"score-pad\"\npage = \"landscape\"\nwidth = \"300mm\"\nrows = \"pad.csv\"",
    );
    let err = invalid(&cat);
    let line = line_of(&cat, "game.toml", "width = \"300mm\"") - 1;
    assert_at(
        &err,
        "sheet `pad` has both `page` and a `width` or `height`",
        &format!("game.toml:{line}:8"),
    );
    assert!(!err.contains("needs a size"), "{err}");
}

// ---- 4. CRLF and CR line ends ----

/// The same catalogue edit saved with `\n`, `\r\n` and `\r` line ends (`\r` for the CSV
/// only: TOML does not allow it) must be reported at the same line and column.
fn with_line_ends(
    ending: &str,
    toml_too: bool,
    edits: &[(&str, &str, &str)],
) -> (tempfile::TempDir, PathBuf) {
    let (g, cat) = copy_catalogue("travfuda");
    for (file, from, to) in edits {
        edit(&cat, file, from, to);
    }
    let mut files = vec!["cards.csv"];
    if toml_too {
        files.push("game.toml");
    }
    for file in files {
        let text = std::fs::read_to_string(cat.join(file)).unwrap();
        write(&cat, file, &text.replace('\n', ending));
    }
    (g, cat)
}

#[test]
fn crlf_and_cr_files_give_the_same_lines_and_columns() {
    let (_g, lf) = copy_catalogue("travfuda");
    let bad_cell = (
        "cards.csv",
        "7-flag-blue,1,7,Patrol Ship,Flag,Blue,5",
        "7-flag-blue,1,7,Patrol Ship,Flag,Bleu,5",
    );
    let too_many = (
        "cards.csv",
        "9-flag-yellow,1,9,Troopship,Flag,Yellow,5",
        "9-flag-red,1,9,Troopship,Flag,Red,5",
    );
    let duplicate = ("cards.csv", "6-plain,2,", "6-starburst-green,2,");
    let too_few = (
        "cards.csv",
        "10-starburst-yellow,1,10,Terran World,Starburst,Yellow,20",
        "10-cutlass-yellow,1,10,Terran World,Cutlass,Yellow,10",
    );
    let cases = [
        // A row error: the cell of the unknown colour.
        (bad_cell, "unknown colour `Bleu`", at(&lf, "cards.csv", "7-flag-blue", "Blue,5")),
        // A rule error at a row: the fourth red Flag.
        (
            too_many,
            "failed for colour `Red`: expected exactly 3 cards, found 4",
            format!("cards.csv:{}:1", line_of(&lf, "cards.csv", "9-flag-yellow")),
        ),
        // A duplicate id, at its cell.
        (
            duplicate,
            "card id `6-starburst-green` is used twice",
            format!("cards.csv:{}:1", line_of(&lf, "cards.csv", "6-plain,2,")),
        ),
        // A rule error at the rule, in game.toml.
        (
            too_few,
            "rule \"there are 5 Starbursts\" failed",
            format!(
                "game.toml:{}:1",
                line_of(&lf, "game.toml", "name = \"there are 5 Starbursts\"") - 1
            ),
        ),
    ];
    let first_line = line_of(&lf, "cards.csv", "6-starburst-green");
    for ((file, from, to), message, location) in &cases {
        for (ending, toml_too) in [("\n", true), ("\r\n", true), ("\r\n", false), ("\r", false)] {
            let (_g, cat) = with_line_ends(ending, toml_too, &[(*file, *from, *to)]);
            let err = invalid(&cat);
            assert_at(&err, message, location);
            if message.contains("used twice") {
                assert!(
                    err.contains(&format!("it was first used on line {first_line}")),
                    "{ending:?}: {err}"
                );
            }
        }
    }
}

// ---- 5. Template diagnostics ----

#[test]
fn an_undefined_field_is_named_at_its_expression_once_with_the_closest_field() {
    let (_g, cat) = copy_catalogue("travfuda");
    edit(&cat, "templates/face.svg", "{{ card.suit_name }}", "{{ card.suit_nmae }}");
    let err = invalid(&cat);
    let message = "template error: undefined value `card.suit_nmae`";
    assert_at(&err, message, &at(&cat, "templates/face.svg", "card.suit_nmae", "card.suit_nmae"));
    assert_eq!(err.matches(message).count(), 1, "once for the template line: {err}");
    assert!(err.contains("did you mean `suit_name`?"), "{err}");
    // Filled once per design: the first is shown, the others counted.
    let designs = std::fs::read_to_string(cat.join("cards.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .count();
    assert!(err.contains(&format!("and {} more cards", designs - 1)), "{err}");
}

#[test]
fn a_misspelt_name_inside_a_condition_or_filter_is_found() {
    let (_g, cat) = new_game();
    edit(&cat, "templates/face.svg", "{{ card.suit }}</text>", "{{ card.siut | upper }}</text>");
    edit(
        &cat,
        "templates/face.svg",
        "{{ card.title }}",
        "{% if crad.title %}{{ card.title }}{% endif %}",
    );
    let err = invalid(&cat);
    // Each card stops at its first error: the `crad` line comes first in the template.
    assert_at(
        &err,
        "template error: undefined value `crad`",
        &at(&cat, "templates/face.svg", "crad.title", "crad"),
    );
    assert!(err.contains("did you mean `card`?"), "{err}");
    edit(&cat, "templates/face.svg", "{% if crad.title %}", "{% if card.title %}");
    let err = invalid(&cat);
    assert_at(
        &err,
        "template error: undefined value `card.siut`",
        &at(&cat, "templates/face.svg", "card.siut", "card.siut"),
    );
    assert!(err.contains("did you mean `suit`?"), "{err}");
}

#[test]
fn a_misspelt_name_passed_on_is_an_error_wherever_it_is_used() {
    // Each way of using a value that minijinja's strict mode lets through as empty: an
    // argument to a macro (from an imported file) or to `textbox`, `set`, a filter, a
    // comparison, `~`, and a name inside an included template.
    let cases = [
        ("{{ title(card.ttile) }}", "card.ttile", "title"),
        ("{{ textbox(card.ttile, x=40, y=700, width=550, size=30) }}", "card.ttile", "title"),
        (
            "{% set n = card.ttile %}{{ textbox(n, x=40, y=700, width=550, size=30) }}",
            "card.ttile",
            "title",
        ),
        ("{{ card.ttile | upper }}", "card.ttile", "title"),
        ("{% if card.siut == 'Sun' %}x{% endif %}", "card.siut", "suit"),
        ("{{ 'No. ' ~ card.vlaue }}", "card.vlaue", "value"),
        ("{{ card.title.upper() }}{{ card.ttile.upper() }}", "card.ttile", "title"),
        ("{{ t(card.ttile) }}", "card.ttile", "title"),
    ];
    for (expression, name, hint) in cases {
        let (_g, cat) = new_game();
        write(
            &cat,
            "templates/macros.svg",
            "{% macro title(text) %}<text x=\"315\" y=\"600\">{{ textbox(text, x=40, y=600, width=550, size=40) }}</text>{% endmacro %}",
        );
        edit(
            &cat,
            "templates/face.svg",
            "{{ card.title }}</text>",
            &format!("</text>{{% from \"templates/macros.svg\" import title %}}{expression}"),
        );
        let err = invalid(&cat);
        let message = format!("template error: undefined value `{name}`");
        assert_at(&err, &message, &at(&cat, "templates/face.svg", expression, name));
        assert!(err.contains(&format!("did you mean `{hint}`?")), "{expression}: {err}");
        let (_o, built) = build(&cat, &[]);
        assert_eq!(built.status.code(), Some(1), "{expression}: build must fail as validate does");
    }
    // In a template another includes, the name is found where it is written.
    let (_g, cat) = new_game();
    write(&cat, "templates/corner.svg", "<text x=\"60\" y=\"820\">{{ card.valeu }}</text>");
    edit(&cat, "templates/face.svg", "</svg>", "{% include \"templates/corner.svg\" %}</svg>");
    let err = invalid(&cat);
    assert_at(
        &err,
        "template error: undefined value `card.valeu`",
        &at(&cat, "templates/corner.svg", "card.valeu", "card.valeu"),
    );
    assert!(err.contains("did you mean `value`?"), "{err}");
}

#[test]
fn a_macro_called_with_a_wrong_or_missing_argument_says_what_it_takes() {
    // The frame macro the docs teach, in a file of its own; the call misspells a keyword,
    // adds one the macro does not take, or leaves one out.
    let frame = "{% macro frame(paper, line) -%}\n<rect width=\"630\" height=\"880\" fill=\"{{ paper }}\" stroke=\"{{ line }}\"/>\n{%- endmacro %}\n";
    let cases = [
        (
            "frame(paper='#fff', lin='#000')",
            "unknown keyword argument `lin`",
            "; did you mean `line`?",
        ),
        ("frame(paper='#fff', line='#000', width=8)", "unknown keyword argument `width`", ""),
    ];
    for (call, message, hint) in cases {
        let (_g, cat) = new_game();
        write(&cat, "templates/frame.svg", frame);
        let expression =
            format!("{{% from \"templates/frame.svg\" import frame %}}{{{{ {call} }}}}");
        edit(&cat, "templates/face.svg", "</svg>", &format!("{expression}</svg>"));
        let err = invalid(&cat);
        assert_at(&err, message, &at(&cat, "templates/face.svg", call, call));
        let takes = format!("macro `frame` (templates/frame.svg:1) takes `paper`, `line`{hint}");
        assert!(err.contains(&takes), "{call}: {err}");
    }
    // Left out, the parameter is undefined inside the macro: said there, with why.
    let (_g, cat) = new_game();
    write(&cat, "templates/frame.svg", frame);
    let expression = "{% from \"templates/frame.svg\" import frame %}{{ frame('#fff') }}";
    edit(&cat, "templates/face.svg", "</svg>", &format!("{expression}</svg>"));
    let err = invalid(&cat);
    assert_at(
        &err,
        "template error: undefined value `line`",
        &at(&cat, "templates/frame.svg", "{{ line }}", "line"),
    );
    assert!(
        err.contains("`line` is a parameter of macro `frame`, and a call left it out"),
        "{err}"
    );
}

#[test]
fn a_value_allowed_to_be_missing_with_is_defined_or_default_passes() {
    let (_g, cat) = new_game();
    edit(
        &cat,
        "templates/face.svg",
        "{{ card.title }}</text>",
        "{{ card.title }}{% if card.bonus is defined %} +{{ card.bonus }}{% endif %}{{ card.flavour | default('') | upper }}{{ textbox(card.note | d(''), x=40, y=780, width=550, size=20) }}</text>",
    );
    valid(&cat);
}

#[test]
fn a_shared_back_using_card_is_told_to_be_per_card() {
    let (_g, cat) = new_game();
    edit(&cat, "templates/back.svg", "{{ game.name }}", "{{ card.suit }}");
    let err = invalid(&cat);
    assert_at(
        &err,
        "template error: undefined value `card`",
        &at(&cat, "templates/back.svg", "card.suit", "card"),
    );
    assert!(err.contains("sees no `card`; set `backs = \"per-card\"` on the deck"), "{err}");
    edit(
        &cat,
        "game.toml",
        "back = \"templates/back.svg\"",
        "back = \"templates/back.svg\"\nbacks = \"per-card\"",
    );
    valid(&cat);
}

// ---- 6. `unique` counts designs, not copies ----

#[test]
fn unique_counts_designs_not_copies() {
    let (_g, cat) = new_game();
    // sun-3 has qty 2: two copies of one design, which `unique` allows.
    append(
        &cat,
        "game.toml",
        "\n[[rule]]\nname = \"one design per suit and value\"\nunique = [\"suit\", \"value\"]\n",
    );
    valid(&cat);
    edit(&cat, "cards.csv", "moon-2,1,Moon,2,Half Moon", "moon-2,1,Moon,1,Half Moon");
    let err = invalid(&cat);
    let first = line_of(&cat, "cards.csv", "moon-1,");
    assert_at(
        &err,
        "rule \"one design per suit and value\" failed: two cards have suit `Moon` and value `1`",
        &format!("cards.csv:{}:1", line_of(&cat, "cards.csv", "moon-2,")),
    );
    assert!(err.contains(&format!("the first is on line {first}")), "{err}");
}

#[test]
fn each_with_count_1_still_forbids_copies() {
    let (_g, cat) = new_game();
    append(
        &cat,
        "game.toml",
        "\n[[rule]]\nname = \"one copy of each card\"\neach = \"title\"\ncount = 1\n",
    );
    let err = invalid(&cat);
    // The second copy of sun-3 is the card over the limit.
    assert_at(
        &err,
        "rule \"one copy of each card\" failed for title `Dusk`: expected exactly 1 card, found 2",
        &format!("cards.csv:{}:1", line_of(&cat, "cards.csv", "sun-3,")),
    );
}

#[test]
fn a_field_declared_for_another_sheet_is_missing_once_with_the_fields_list_that_fixes_it() {
    // A score pad's `kind` and `label`, declared under [fields]: a deck with no `fields`
    // list requires every field not marked optional, its rows file has neither column.
    let (_g, cat) = new_game();
    edit(
        &cat,
        "game.toml",
        "[fields.title]",
        "[fields.kind]\nvalues = [\"line\", \"total\"]\n[fields.label]\nkind = \"text\"\n[fields.title]",
    );
    let err = invalid(&cat);
    assert!(err.contains("the header has no `kind` and `label` columns"), "{err}");
    assert_eq!(err.matches("the header has no").count(), 1, "{err}");
    let fix = "fields = [\"suit\", \"value\", \"title\"]";
    assert!(err.contains(&format!("or give it `{fix}`, the fields its rows have")), "{err}");
    // Written as the note says, the deck is valid.
    edit(&cat, "game.toml", "rows = \"cards.csv\"", &format!("rows = \"cards.csv\"\n{fix}"));
    valid(&cat);
}

#[test]
fn an_empty_cell_at_the_end_of_a_line_is_shown_on_its_own_line() {
    // Its span was the line's end, which the report drew as a box over two lines.
    let (_g, cat) = new_game();
    edit(&cat, "cards.csv", "sun-1,1,Sun,1,Dawn", "sun-1,1,Sun,1,");
    let err = invalid(&cat);
    assert!(err.contains("`title` is empty"), "{err}");
    // At the comma before the empty cell: line 2, column 14.
    assert!(err.contains("cards.csv:2:14"), "{err}");
    assert!(!err.contains("sun-2,1,Sun,2,Noon"), "the next line is not part of it: {err}");
}
