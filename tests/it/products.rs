//! Print services print their own card sizes: a deck of no product's size is an error
//! naming the nearest products, unless `--fit` scales its art (at most 2 %) or widens its
//! bleed, and then the files are exactly the product's size (measured from the files).

use crate::common::*;

#[test]
fn a_deck_of_no_product_size_is_an_error_naming_the_nearest() {
    for command in ["validate", "build"] {
        let out = tempfile::tempdir().unwrap();
        let mut args = vec![command, "travfuda", "--for", "drivethrucards"];
        if command == "build" {
            args.extend(["--out", out.path().to_str().unwrap()]);
        }
        let run = deckpress(&args, &repo());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{command}: {err}");
        assert!(
            err.contains("deck `cards` (63 × 88 mm) is no card size DriveThruCards prints"),
            "{err}"
        );
        let line = line_of(&repo().join("catalogues/travfuda"), "game.toml", "id = \"cards\"");
        assert!(err.contains(&format!("catalogues/travfuda/game.toml:{line}:6")), "{err}");
        assert!(
            err.contains("its nearest products: poker (2.5 × 3.5 in, 63.5 × 88.9 mm)"),
            "{err}"
        );
        assert!(err.contains("`--fit scale` (the art +1.0 %)"), "{err}");
        assert!(std::fs::read_dir(out.path()).unwrap().next().is_none(), "nothing written");
    }
}

#[test]
fn a_deck_of_no_product_size_and_a_missing_image_are_both_reported_in_one_run() {
    let (_dir, cat) = new_game();
    edit(
        &cat,
        "templates/face.svg",
        "<circle cx=\"315\"",
        "<image href=\"art/missing.png\" width=\"10\" height=\"10\"/>\n  <circle cx=\"315\"",
    );
    fails_for_drivethrucards_saying(
        &cat,
        &["is no card size DriveThruCards prints", "art/missing.png"],
    );
}

/// `validate` and `build` of `cat` for DriveThruCards fail (exit 1), each saying all of `says`.
fn fails_for_drivethrucards_saying(cat: &std::path::Path, says: &[&str]) {
    for command in ["validate", "build"] {
        let run = deckpress(&[command, cat.to_str().unwrap(), "--for", "drivethrucards"], &repo());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{command}: {err}");
        for said in says {
            assert!(err.contains(said), "{command}: `{said}` is not said: {err}");
        }
    }
}

#[test]
fn a_broken_rule_and_a_deck_of_no_product_size_are_both_reported_in_one_run() {
    // The rules fail (the starter's suits have four cards each, not five); the deck's size
    // is still checked against the service's products in the same run.
    let (_dir, cat) = new_game();
    edit(&cat, "game.toml", "count = 4", "count = 5");
    fails_for_drivethrucards_saying(
        &cat,
        &["each suit has four cards", "is no card size DriveThruCards prints"],
    );
    // A deck the job does not ask for is not held to a product's size, rules broken or not.
    let (_dir, cat) = copy_catalogue("travfuda");
    let only_markers =
        ["validate", cat.to_str().unwrap(), "--for", "drivethrucards", "--only", "markers"];
    let holding = stderr(&deckpress(&only_markers, &repo()));
    assert!(!holding.contains("deck `cards` (63"), "{holding}");
    edit(&cat, "game.toml", "count = 62", "count = 63");
    let broken = stderr(&deckpress(&only_markers, &repo()));
    assert!(broken.contains("the deck has 62 cards"), "{broken}");
    assert!(!broken.contains("deck `cards` (63"), "{broken}");
}

#[test]
fn fit_scale_writes_pages_and_pngs_of_the_products_exact_size() {
    let (out, run) =
        build("travfuda", &["--for", "drivethrucards", "--only", "cards", "--fit", "scale"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "deck `cards` (63 × 88 mm) scaled by 1.0102 (+1.0 %) to DriveThruCards's poker"
        ),
        "{err}"
    );
    let pdf = out.path().join("travfuda/travfuda-cards-drivethrucards.pdf");
    assert_eq!(field(&pdf, "Page size"), "198 x 270 pts");
    assert_eq!(field(&pdf, "TrimBox"), "9.00 9.00 189.00 261.00", "1/8 in inside the page");
    // Under --strict the scaling is an error: it changes the card.
    let (_o, strict) = build(
        "travfuda",
        &["--for", "drivethrucards", "--only", "cards", "--fit", "scale", "--strict"],
    );
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));

    let (out, run) =
        build("travfuda", &["--for", "gamecrafter", "--only", "cards", "--fit", "scale"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("travfuda/travfuda-cards-gamecrafter");
    for file in ["001-1-cutlass-red-front.png", "back.png"] {
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(dir.join(file)).unwrap(),
        ));
        let info = decoder.read_info().unwrap();
        assert_eq!((info.info().width, info.info().height), (825, 1125), "{file}");
    }
}

#[test]
fn fit_extend_keeps_the_art_and_widens_its_bleed_to_the_product() {
    let (out, run) =
        build("travfuda", &["--for", "gamecrafter", "--only", "cards", "--fit", "extend"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(err.contains("the product's cut lies 0.25 mm outside the card's at each side and 0.45 mm at the top and bottom"), "{err}");
    let png = out.path().join("travfuda/travfuda-cards-gamecrafter/back.png");
    let picture = resvg::tiny_skia::Pixmap::load_png(&png).unwrap();
    assert_eq!((picture.width(), picture.height()), (825, 1125));
    // The back's art runs to every edge of the file: the widened bleed is drawn, not paper.
    for (x, y) in [(0, 0), (824, 0), (0, 1124), (824, 1124), (412, 2), (2, 562)] {
        let p = picture.pixel(x, y).unwrap();
        assert!(
            p.alpha() == 255 && (p.red(), p.green(), p.blue()) != (255, 255, 255),
            "paper at ({x}, {y})"
        );
    }
    let (out, run) =
        build("travfuda", &["--for", "drivethrucards", "--only", "cards", "--fit", "extend"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("travfuda/travfuda-cards-drivethrucards.pdf");
    assert_eq!(field(&pdf, "Page size"), "198 x 270 pts");
}

/// A line of `pdfinfo -box` for the first page, its words joined by single spaces.
fn field(pdf: &std::path::Path, name: &str) -> String {
    let info = poppler("pdfinfo", &["-box", pdf.to_str().unwrap()]);
    let line = info
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .unwrap_or_else(|| panic!("no {name} in {info}"));
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn what_fit_cannot_do_is_said() {
    // TravFuda's 40 mm markers are round: no card product takes them, scaled or widened
    // (it printed them on white mini cards, exit 0).
    for fit in ["scale", "extend"] {
        let (_o, run) =
            build("travfuda", &["--for", "drivethrucards", "--only", "markers", "--fit", fit]);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{err}");
        assert!(err.contains("deck `markers` (40 × 40 mm) is round, and DriveThruCards prints its pieces as rectangular cards"), "{err}");
    }
    // Trumpet's 44 × 30 mm markers are 48 % from DriveThruCards' mini card: more than
    // --fit scale's 2 %.
    let (_o, run) =
        build("trumpet", &["--for", "drivethrucards", "--only", "markers", "--fit", "scale"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("deck `markers` (44 × 30 mm) needs scaling by +48.2 % to be DriveThruCards's mini: more than --fit scale's 2 %"), "{err}");
    // A service that prints any size has no products to fit.
    let (_o, run) = build("travfuda", &["--fit", "scale"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("home prints any size"), "{}", stderr(&run));
}
