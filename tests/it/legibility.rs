//! Can a player read it: text printed too small after shrinking, text too faint against
//! what is drawn under it, and values told apart by colour alone (measured on the cards
//! rendered as a player with a colour-vision deficiency sees them).

use crate::common::*;

/// The starter game whose two suits are red and green and print nothing else that
/// differs: the card shows a disc in the suit's colour, its value and its title.
fn red_and_green() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    edit(
        &cat,
        "game.toml",
        "suits = { Sun = \"#e8a317\", Moon = \"#3f51b5\" }",
        "suits = { Sun = \"#c8302c\", Moon = \"#3c8d2f\" }",
    );
    edit(&cat, "templates/face.svg", "{{ card.suit }}</text>", "</text>");
    // The same title on both suits' cards: only the colour tells them apart.
    for (from, to) in [
        ("Dawn", "One"),
        ("Noon", "Two"),
        ("Dusk", "Three"),
        ("New Moon", "One"),
        ("Half Moon", "Two"),
        ("Full Moon", "Three"),
    ] {
        edit(&cat, "cards.csv", from, to);
    }
    (dir, cat)
}

#[test]
fn suits_told_apart_by_red_and_green_alone_warn_and_a_glyph_fixes_it() {
    let (dir, cat) = red_and_green();
    let run = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(err.contains("`suit` values `Sun` and `Moon` are told apart by colour alone: for deuteranopia they are nearly the same card"), "{err}");
    assert!(err.contains("mean ΔE"), "{err}");
    let strict = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(strict.status.code(), Some(1));
    // A glyph that differs by suit (a disc for Sun, a square for Moon) tells them apart
    // in any vision.
    edit(
        &cat,
        "templates/face.svg",
        "<circle cx=\"315\" cy=\"420\" r=\"150\" fill=\"{{ colour }}\"/>",
        "{% if card.suit == \"Sun\" %}<circle cx=\"315\" cy=\"420\" r=\"150\" fill=\"{{ colour }}\"/>{% else %}<rect x=\"165\" y=\"270\" width=\"300\" height=\"300\" fill=\"{{ colour }}\"/>{% endif %}",
    );
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // And `[check] colour_alone = false` turns the check off.
    let (dir, cat) = red_and_green();
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(cat.join("game.toml"), toml + "\n[check]\ncolour_alone = false\n").unwrap();
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

/// The suit's name printed on each card does not make red and green suits legible: a
/// player sees a suit at a glance and does not read it. Told apart only by colour and by
/// words, they warn (and fail `--strict`) at the suit's cell, until the designer accepts it
/// for that field in game.toml, where the decision shows.
#[test]
fn suits_told_apart_only_by_colour_and_their_names_warn_until_accepted_in_game_toml() {
    let (dir, cat) = red_and_green();
    edit(
        &cat,
        "templates/face.svg",
        "fill=\"{{ style.ink }}\"></text>",
        "fill=\"{{ style.ink }}\">{{ card.suit }}</text>",
    );
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("`suit` values `Sun` and `Moon` are told apart only by colour and by words: for deuteranopia only the words differ"), "{err}");
    assert!(!err.contains("told apart by colour alone"), "{err}");
    let line = line_of(&cat, "cards.csv", "sun-1");
    assert!(err.contains(&format!("cards.csv:{line}:")), "{err}");
    assert!(err.contains("accept_colour_alone = [\"suit\"]"), "{err}");
    append(&cat, "game.toml", "\n[check]\naccept_colour_alone = [\"suit\"]\n");
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

/// `accept_colour_alone` names enum fields: another name is an error at its place in
/// game.toml, listing the enum fields.
#[test]
fn accepting_colour_alone_for_a_field_that_is_not_an_enum_is_an_error_at_its_line() {
    let (dir, cat) = new_game();
    append(
        &cat,
        "game.toml",
        "\n[check]\naccept_colour_alone = [\"suit\", \"suiit\", \"title\"]\n",
    );
    let run = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let line = line_of(&cat, "game.toml", "accept_colour_alone");
    assert!(err.contains("accept_colour_alone names `suiit`, which is not a field"), "{err}");
    assert!(err.contains("accept_colour_alone names `title`, which is not an enum field"), "{err}");
    assert!(err.contains(&format!("game.toml:{line}:32")), "{err}");
    assert!(err.contains("name an enum field: `suit`"), "{err}");
}

#[test]
fn tiny_text_and_faint_text_warn_at_their_line() {
    let (dir, cat) = new_game();
    // 4 pt: font-size 14 in a 630-wide viewBox over 63 mm is 1.4 mm, 4.0 pt.
    edit(
        &cat,
        "templates/face.svg",
        "font-size=\"36\" text-anchor=\"middle\" fill=\"{{ style.ink }}\">{{ card.suit }}",
        "font-size=\"14\" text-anchor=\"middle\" fill=\"{{ style.ink }}\">{{ card.suit }}",
    );
    // 2:1 contrast: grey #999 on the paper colour.
    edit(&cat, "templates/face.svg", "font-size=\"56\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{{ style.ink }}\">{{ card.title }}", "font-size=\"56\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#a0a0a0\">{{ card.title }}");
    let run = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("text \"Sun\" prints at 4.0 pt, smaller than the 6 pt a player reads"),
        "{err}"
    );
    let line = line_of(&cat, "templates/face.svg", "font-size=\"14\"");
    assert!(err.contains(&format!("templates/face.svg:{line}:")), "{err}");
    // 56 units on 63 mm is 16 pt: large text, which needs 3:1.
    assert!(err.contains("text \"Dawn\" has a contrast of 2.5:1 against what is drawn under it, under the 3:1 it needs"), "{err}");
    // Tuned per game.
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(
        cat.join("game.toml"),
        toml + "\n[check]\nmin_text_pt = 3.5\ncontrast = 2\nlarge_contrast = 2\n",
    )
    .unwrap();
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

#[test]
fn the_built_in_games_are_legible_under_strict() {
    let run = deckpress(&["validate", "--all", "--strict"], &repo());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

#[test]
fn preview_cvd_draws_the_cards_as_such_a_player_sees_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for args in [
        &["preview", "travfuda", "--quiet", "--card", "1-cutlass-red", "--out", out][..],
        &[
            "preview",
            "travfuda",
            "--quiet",
            "--card",
            "1-cutlass-red",
            "--cvd",
            "deuteranopia",
            "--out",
            out,
        ][..],
    ] {
        let run = deckpress(args, &repo());
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    }
    let find = |folder: &str| {
        let cards = dir.path().join("travfuda").join(folder).join("cards");
        let file = std::fs::read_dir(&cards)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().unwrap().to_string_lossy().contains("1-cutlass-red"))
            .unwrap();
        resvg::tiny_skia::Pixmap::load_png(file).unwrap()
    };
    let (normal, seen) = (find("preview"), find("preview-deuteranopia"));
    assert_eq!((normal.width(), normal.height()), (seen.width(), seen.height()));
    // The RED band across the card: red, and olive (red ≈ green) for deuteranopia.
    let x = normal.width() / 6;
    let y = (0..normal.height())
        .find(|&y| {
            let p = normal.pixel(x, y).unwrap();
            p.red() > 150 && p.green() < 80 && p.blue() < 80
        })
        .expect("the red band in normal vision")
        + 3;
    let b = seen.pixel(x, y).unwrap();
    assert!(
        (b.red() as i32 - b.green() as i32).abs() < 40 && b.blue() < 80,
        "olive for deuteranopia: {b:?}"
    );
}

/// Text as faint as what is under it is the first thing a contrast check must catch: on a
/// #eeeeee card, grey text from 1.9:1 down to the card's own colour (invisible) fails
/// `--strict`, each with its measured ratio; black text on it passes.
#[test]
fn text_as_faint_as_its_background_fails_down_to_invisible() {
    for (ink, ratio) in
        [("#b0b0b0", "1.9:1"), ("#c0c0c0", "1.6:1"), ("#e0e0e0", "1.1:1"), ("#eeeeee", "1.0:1")]
    {
        let (dir, cat) = new_game();
        edit(&cat, "game.toml", "paper = \"#fbf8f0\"", "paper = \"#eeeeee\"");
        edit(
            &cat,
            "templates/face.svg",
            "fill=\"{{ style.ink }}\">{{ card.title }}",
            &format!("fill=\"{ink}\">{{{{ card.title }}}}"),
        );
        let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{ink} on #eeeeee passed:\n{err}");
        assert!(
            err.contains(&format!(
                "text \"Dawn\" has a contrast of {ratio} against what is drawn under it"
            )),
            "{ink}: {err}"
        );
    }
    let (dir, cat) = new_game();
    edit(&cat, "game.toml", "paper = \"#fbf8f0\"", "paper = \"#eeeeee\"");
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

/// The contrast check runs on every piece a player reads, not only on cards: a mat (any
/// sheet: boards, pads) and a box face with faint text fail `--strict` at their line.
#[test]
fn faint_text_on_a_sheet_or_a_box_fails_like_on_a_card() {
    let (dir, cat) = new_game();
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    let extra = "\n[[sheet]]\nid = \"mat\"\nname = \"Mat\"\ntemplate = \"templates/mat.svg\"\nwidth = \"100mm\"\nheight = \"80mm\"\n\n[[box]]\nid = \"box\"\nname = \"Box\"\ndeck = \"cards\"\nfront = \"templates/box.svg\"\nback = \"templates/box.svg\"\nside = \"templates/box.svg\"\n";
    std::fs::write(cat.join("game.toml"), toml + extra).unwrap();
    let mat = |ink: &str| {
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100mm\" height=\"80mm\" viewBox=\"0 0 100 80\" font-family=\"Noto Sans\">\n  <rect width=\"100\" height=\"80\" fill=\"#eeeeee\"/>\n  <text x=\"50\" y=\"40\" font-size=\"6\" text-anchor=\"middle\" fill=\"{ink}\">Discard here</text>\n</svg>\n")
    };
    let boxed = |ink: &str| {
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{{{{ box.width }}}}mm\" height=\"{{{{ box.height }}}}mm\" viewBox=\"0 0 {{{{ box.width }}}} {{{{ box.height }}}}\" font-family=\"Noto Sans\">\n  <rect x=\"-5\" y=\"-5\" width=\"{{{{ box.width + 10 }}}}\" height=\"{{{{ box.height + 10 }}}}\" fill=\"#eeeeee\"/>\n  {{% if box.face == \"front\" %}}<text x=\"{{{{ box.width / 2 }}}}\" y=\"{{{{ box.height / 2 }}}}\" font-size=\"4\" text-anchor=\"middle\" fill=\"{ink}\">Game</text>{{% endif %}}\n</svg>\n")
    };
    let write = |mat_ink: &str, box_ink: &str| {
        std::fs::write(cat.join("templates/mat.svg"), mat(mat_ink)).unwrap();
        std::fs::write(cat.join("templates/box.svg"), boxed(box_ink)).unwrap();
    };
    let strict = || {
        let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
        (run.status.code(), stderr(&run))
    };
    write("#000000", "#000000");
    let (code, err) = strict();
    assert_eq!(code, Some(0), "{err}");
    write("#d8d8d8", "#000000");
    let (code, err) = strict();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("text \"Discard here\" has a contrast of 1.2:1"), "{err}");
    assert!(err.contains("templates/mat.svg:3:"), "{err}");
    write("#000000", "#e0e0e0");
    let (code, err) = strict();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("text \"Game\" has a contrast of 1.1:1"), "{err}");
    assert!(err.contains("in the front of box `box`"), "{err}");
}

/// The starter game with a deck of 30 mm pieces of `shape` (`circle`, `hex`, or `rect`
/// with 6 mm corners) whose template draws `words` at `x`, `y` (tenths of a mm).
fn shaped_pieces(
    shape: &str,
    words: &str,
    (x, y): (u32, u32),
) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    let (outline, height) = match shape {
        "hex" => ("shape = \"hex\"", "25.98mm"),
        "circle" => ("shape = \"circle\"", "30mm"),
        _ => ("corner = \"6mm\"", "30mm"),
    };
    let view_h = if shape == "hex" { 259.8 } else { 300.0 };
    append(&cat, "game.toml", &format!("\n[[deck]]\nid = \"tokens\"\nname = \"Tokens\"\nrows = \"tokens.csv\"\nface = \"templates/token.svg\"\nback = \"templates/token.svg\"\n{outline}\ncard = {{ width = \"30mm\", height = \"{height}\" }}\nfields = [\"title\"]\n"));
    std::fs::write(cat.join("tokens.csv"), "id,qty,title\ncoin,2,Coin\n").unwrap();
    let svg = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"30mm\" height=\"{height}\" viewBox=\"0 0 300 {view_h}\" font-family=\"Noto Sans\">\n  <rect x=\"-50\" y=\"-50\" width=\"400\" height=\"400\" fill=\"#ffffff\"/>\n  <text x=\"{x}\" y=\"{y}\" font-size=\"30\" fill=\"#000000\">{words}</text>\n</svg>\n");
    std::fs::write(cat.join("templates/token.svg"), svg).unwrap();
    (dir, cat)
}

/// Text inside a piece's square but off its real outline (a 30 mm round token's edge, a
/// hex tile's, a card's 6 mm rounded corner) is cut off: `--strict` fails, naming the
/// piece, the template's line and the edge. The same text in the middle passes.
#[test]
fn text_cut_off_by_a_round_hex_or_rounded_piece_is_said_like_text_off_a_card() {
    for (shape, edge) in
        [("circle", "round edge"), ("hex", "hexagonal edge"), ("rect", "rounded corner")]
    {
        // About 3.3 mm from the square's left and top: clear of the square's safe zone,
        // but off the circle and the hexagon, and within 3 mm of the rounded corner's curve.
        let (dir, cat) = shaped_pieces(shape, "Edge", (32, 55));
        let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{shape}: {err}");
        assert!(err.contains("text \"Edge\""), "{shape}: {err}");
        assert!(
            err.contains(&format!("(its {edge})")) || err.contains(&format!("(past its {edge})")),
            "{shape}: {err}"
        );
        assert!(err.contains("templates/token.svg:3:"), "{shape}: {err}");
        assert!(err.contains("card `coin` of deck `tokens`"), "{shape}: {err}");
        let (dir, cat) = shaped_pieces(shape, "Mid", (110, 140));
        let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
        assert_eq!(run.status.code(), Some(0), "{shape}: {}", stderr(&run));
    }
}

/// A red and a green suit, a disc of the suit's colour and the same title on both cards,
/// and `mark` (the suit's name, its glyph `{{ g }}`, both or neither) on each.
fn suits_marked(mark: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("suits");
    std::fs::create_dir_all(cat.join("templates")).unwrap();
    let toml = "[game]\nid = \"suits\"\nname = \"Suits\"\ndescription = \"Red and green suits\"\nplayers = { min = 2, max = 2 }\n\n\
                [card]\nwidth = \"63mm\"\nheight = \"88mm\"\n\n[fields.title]\nkind = \"text\"\n\n\
                [fields.suit]\nvalues = [\"Red\", \"Green\"]\n\n[[deck]]\nid = \"cards\"\n\
                name = \"Cards\"\nrows = \"cards.csv\"\nface = \"templates/face.svg\"\n\
                back = \"templates/back.svg\"\n";
    std::fs::write(cat.join("game.toml"), toml).unwrap();
    // `validate --strict` answers for the bundle too, which wants its rules.
    std::fs::write(cat.join("rules.md"), "# Suits\n\nPlay a card a turn.\n").unwrap();
    std::fs::write(
        cat.join("cards.csv"),
        "id,qty,suit,title\nred-1,1,Red,One\ngreen-1,1,Green,One\n",
    )
    .unwrap();
    std::fs::write(
        cat.join("templates/back.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"63mm\" height=\"88mm\" viewBox=\"0 0 630 880\"><rect x=\"-50\" y=\"-50\" width=\"730\" height=\"980\" fill=\"#3f51b5\"/></svg>\n",
    )
    .unwrap();
    let face = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"63mm\" height=\"88mm\" viewBox=\"0 0 630 880\" font-family=\"Noto Sans\">\n\
         {{%- set g = \"♥\" if card.suit == \"Red\" else \"♣\" %}}\n\
         <rect x=\"-50\" y=\"-50\" width=\"730\" height=\"980\" fill=\"#eeeeee\"/>\n\
         <circle cx=\"315\" cy=\"300\" r=\"150\" fill=\"{{% if card.suit == \"Red\" %}}#c8302c{{% else %}}#3c8d2f{{% endif %}}\"/>\n\
         <text x=\"315\" y=\"560\" font-size=\"60\" text-anchor=\"middle\" fill=\"#000000\">{{{{ card.title }}}}</text>\n\
         {mark}\n</svg>\n"
    );
    std::fs::write(cat.join("templates/face.svg"), face).unwrap();
    (dir, cat)
}

/// A suit glyph printed as text is a shape when it is large enough to see at a glance
/// (`check::colour_alone::GLYPH_MM`, 4 mm of ink), whether in a text of its own or in the
/// suit name's: red and green suits marked ♥ and ♣ pass. A glyph too small to see, a name
/// alone, or colour alone warn, each for its reason.
#[test]
fn a_suit_glyph_large_enough_to_see_is_a_shape_in_its_own_text_or_beside_the_name() {
    let name = "<text x=\"315\" y=\"700\" font-size=\"50\" text-anchor=\"middle\" fill=\"#000000\">{{ card.suit }}</text>";
    let cases = [
        (
            "glyph in its own text",
            format!("<text x=\"110\" y=\"160\" font-size=\"90\" text-anchor=\"middle\" fill=\"#000000\">{{{{ g }}}}</text>{name}"),
            None,
        ),
        (
            "glyph in the name's text",
            "<text x=\"315\" y=\"720\" font-size=\"70\" text-anchor=\"middle\" fill=\"#000000\">{{ g }} {{ card.suit }}</text>".to_string(),
            None,
        ),
        (
            "too small a glyph",
            "<text x=\"315\" y=\"720\" font-size=\"50\" text-anchor=\"middle\" fill=\"#000000\"><tspan font-size=\"25\">{{ g }}</tspan> {{ card.suit }}</text>".to_string(),
            Some("told apart only by colour and by words"),
        ),
        ("names only", name.to_string(), Some("told apart only by colour and by words")),
        ("colour only", String::new(), Some("told apart by colour alone")),
    ];
    for (what, mark, warns) in cases {
        let (dir, cat) = suits_marked(&mark);
        let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], dir.path());
        let err = stderr(&run);
        match warns {
            None => assert_eq!(run.status.code(), Some(0), "{what}: {err}"),
            Some(says) => {
                assert_eq!(run.status.code(), Some(1), "{what}: {err}");
                assert!(err.contains(says), "{what}: `{says}` not said\n{err}");
            }
        }
    }
}

/// Text prints in the colour it is seen in, not the one it is filled with: under a veil
/// drawn after it, or see-through itself, black text on white reads as grey. The contrast
/// is read from the letters as printed (tests/known-bad/contrast-veil: 2.5:1 under a 64 %
/// white veil, which passed). A light veil, and no veil, pass.
#[test]
fn text_under_a_veil_or_see_through_is_read_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("game");
    copy_dir(&repo().join("tests/known-bad/contrast-veil/game"), &cat);
    let build = |what: &str| {
        let out = dir.path().join("out");
        let args = ["build", cat.to_str().unwrap(), "--strict", "--out", out.to_str().unwrap()];
        let run = deckpress(&args, dir.path());
        (run.status.code(), format!("{what}: {}", stderr(&run)))
    };
    let (code, err) = build("a 64 % veil");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("has a contrast of 2.5:1"), "{err}");
    edit(&cat, "templates/face.svg", "opacity=\"0.64\"", "opacity=\"0.2\"");
    let (code, err) = build("a 20 % veil");
    assert_eq!(code, Some(0), "{err}");
    // No veil, but the text itself at 35 % ink.
    edit(&cat, "templates/face.svg", "opacity=\"0.2\"", "opacity=\"0\"");
    edit(
        &cat,
        "templates/face.svg",
        "fill=\"#000000\">Draw",
        "fill=\"#000000\" fill-opacity=\"0.35\">Draw",
    );
    let (code, err) = build("see-through text");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("\"Draw two cards, then discard one\" has a contrast of"), "{err}");
}
