//! Designers' own art files and fonts (issue: "Designers' own art and fonts"): images from
//! the catalogue folder reach the PDF once each, every bad reference is an error at its
//! template line or CSV cell, low resolution warns, catalogue fonts are embedded.

use std::path::Path;

use crate::common::*;

/// A TravFuda copy whose face draws `href` in a 15 × 15 mm box at the bottom left.
fn with_image(href: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (guard, cat) = copy_catalogue("travfuda");
    write_flat_png(&cat.join("art/red.png"), 300, 300, [200, 30, 30]);
    let background =
        r#"<rect x="-50" y="-50" width="730" height="980" fill="{{ style.background }}"/>"#;
    edit(
        &cat,
        "templates/face.svg",
        background,
        &format!(r#"{background}<image href="{href}" x="40" y="700" width="150" height="150"/>"#),
    );
    (guard, cat)
}

/// Image XObjects of the given pixel size in a PDF: distinct object ids in
/// `pdfimages -list` (TravFuda's own emblems and back are 256 × 256 and 816 × 1111).
fn distinct_images(pdf: &Path, size: (u32, u32)) -> usize {
    let list = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    let mut ids: Vec<String> = list
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|cols| {
            cols.len() > 10 && cols[3] == size.0.to_string() && cols[4] == size.1.to_string()
        })
        .map(|cols| cols[10].to_string())
        .collect();
    ids.sort();
    ids.dedup();
    ids.len()
}

#[test]
fn an_image_shared_by_every_card_is_one_image_object_in_the_pdf() {
    let (_guard, cat) = with_image("art/red.png");
    let (out, run) = build(&cat, &["--only", "cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("travfuda/travfuda-cards-a4.pdf");
    let list = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    // 44 of the 62 cards are not Jokers/Doubles-only... every face draws it: one placement a card.
    let ours: Vec<Vec<&str>> = list
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|c| c[3] == "300" && c[4] == "300")
        .collect();
    // On every face of the 14 front pages (61 of the 62 cards: the last page holds 8).
    assert!(ours.len() >= 60, "every card draws the image: {list}");
    assert_eq!(distinct_images(&pdf, (300, 300)), 1, "{list}");
    // Drawn where the template puts it: 300 px over 15 mm is 508 ppi.
    assert!(ours.iter().all(|c| c[12] == "508" && c[13] == "508"), "{list}");
}

/// Decodes a PNG file to its pixels, 8 bits per channel.
fn read_png(path: &Path) -> (Vec<u8>, png::ColorType, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    (pixels, info.color_type, info.width)
}

/// RGBA pixels whose rows each of the five PNG filters encodes best (noise: none; a slope
/// of its own per row: Sub; the row above plus a little: Up; smooth in both directions,
/// after some noise: Average and Paeth), with an alpha ramp.
fn filter_test_pixels(width: u32, height: u32) -> Vec<u8> {
    let mut seed = 2463534242u32;
    let mut rgba = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let noise = xorshift(&mut seed).to_le_bytes();
            let slope = (y * 37 % 11 + 1) as u8;
            let px = match y % 4 {
                0 => [noise[0], noise[1], noise[2]],
                1 => [
                    slope.wrapping_mul(x as u8),
                    slope.wrapping_mul(x as u8) / 2,
                    255 - slope.wrapping_mul(x as u8),
                ],
                2 => [noise[0] % 3, (noise[1] % 2) + 100, 200],
                _ if x < width / 4 => [noise[0], noise[1], noise[2]],
                _ => [(x * 2 + y) as u8, ((x * x) / 40 + y) as u8, (x * y / 30) as u8],
            };
            rgba.extend_from_slice(&[px[0], px[1], px[2], ((x + y * 7) % 256) as u8]);
        }
    }
    rgba
}

/// Builds TravFuda's cards with `art/test.png` (written by `write`, `width` pixels wide)
/// drawn on every face, and returns the first page's image of that width and its soft
/// mask as poppler decodes them: the colour pixels, their PNG colour type, the mask's.
fn drawn_channels(
    width: u32,
    write: impl FnOnce(&Path),
) -> ((Vec<u8>, png::ColorType), (Vec<u8>, png::ColorType)) {
    let (_guard, cat) = with_image("art/test.png");
    write(&cat.join("art/test.png"));
    let (out, run) = build(&cat, &["--only", "cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("travfuda/travfuda-cards-a4.pdf");
    let list = poppler("pdfimages", &["-list", "-f", "1", "-l", "1", pdf.to_str().unwrap()]);
    let rows: Vec<Vec<&str>> =
        list.lines().skip(2).map(|l| l.split_whitespace().collect()).collect();
    let width_text = width.to_string();
    let image = rows.iter().position(|c| c[2] == "image" && c[3] == width_text).expect(&list);
    assert_eq!(rows[image + 1][2], "smask", "{list}");
    let prefix = out.path().join("img");
    poppler(
        "pdfimages",
        &["-png", "-f", "1", "-l", "1", pdf.to_str().unwrap(), prefix.to_str().unwrap()],
    );
    let (colour, colour_type, w) = read_png(&out.path().join(format!("img-{image:03}.png")));
    let (alpha, alpha_type, _) = read_png(&out.path().join(format!("img-{:03}.png", image + 1)));
    assert_eq!(w, width);
    ((colour, colour_type), (alpha, alpha_type))
}

#[test]
fn a_png_with_transparency_reaches_the_pdf_pixel_for_pixel() {
    // The PDF's colour image and soft mask must be exactly the PNG's channels.
    let (width, height) = (97u32, 64u32);
    let rgba = filter_test_pixels(width, height);
    let ((colour, colour_type), (alpha, alpha_type)) =
        drawn_channels(width, |path| write_png(path, width, height, png::ColorType::Rgba, &rgba));
    assert_eq!((colour_type, alpha_type), (png::ColorType::Rgb, png::ColorType::Grayscale));
    assert_channels_of(&rgba, 4, &colour, &alpha);
}

#[test]
fn a_grey_png_with_transparency_reaches_the_pdf_pixel_for_pixel() {
    let (width, height) = (97u32, 64u32);
    let grey_alpha: Vec<u8> =
        filter_test_pixels(width, height).chunks(4).flat_map(|p| [p[0], p[3]]).collect();
    let ((grey, grey_type), (alpha, alpha_type)) = drawn_channels(width, |path| {
        write_png(path, width, height, png::ColorType::GrayscaleAlpha, &grey_alpha)
    });
    assert_eq!((grey_type, alpha_type), (png::ColorType::Grayscale, png::ColorType::Grayscale));
    assert_channels_of(&grey_alpha, 2, &grey, &alpha);
}

/// `colour` and `alpha` (as poppler decoded them) are exactly the colour channels and the
/// last channel of `pixels`, which have `channels` bytes a pixel.
fn assert_channels_of(pixels: &[u8], channels: usize, colour: &[u8], alpha: &[u8]) {
    let expected_colour: Vec<u8> =
        pixels.chunks(channels).flat_map(|p| &p[..channels - 1]).copied().collect();
    let expected_alpha: Vec<u8> = pixels.chunks(channels).map(|p| p[channels - 1]).collect();
    assert!(colour == expected_colour, "the colour pixels changed on their way into the PDF");
    assert!(alpha == expected_alpha, "the transparency changed on its way into the PDF");
}

#[test]
fn an_interlaced_png_reaches_the_pdf_pixel_for_pixel() {
    // Interlaced PNGs are decoded whole, the others row by row: both must give the pixels.
    let (width, height) = (97u32, 64u32);
    let rgba = filter_test_pixels(width, height);
    let ((colour, _), (alpha, _)) = drawn_channels(width, |path| {
        write_interlaced_png(path, width, height, &rgba);
        let (decoded, colour_type, _) = read_png(path);
        assert_eq!((decoded == rgba, colour_type), (true, png::ColorType::Rgba), "the test's PNG");
    });
    assert_channels_of(&rgba, 4, &colour, &alpha);
}

#[test]
fn a_file_field_draws_each_cards_own_image_and_jpegs_pass_through() {
    let (_guard, cat) = copy_catalogue("travfuda");
    write_flat_png(&cat.join("art/red.png"), 300, 300, [200, 30, 30]);
    std::fs::copy(repo().join("tests/fixtures/photo.jpg"), cat.join("art/photo.jpg")).unwrap();
    edit(
        &cat,
        "game.toml",
        "[fields.points]",
        "[fields.art]\nkind = \"file\"\noptional = true\n\n[fields.points]",
    );
    edit(
        &cat,
        "game.toml",
        r#"fields = ["suit", "suit_name", "type", "colour", "points"]"#,
        r#"fields = ["suit", "suit_name", "type", "colour", "points", "art"]"#,
    );
    let csv = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    let mut lines = csv.lines();
    let mut out = format!("{},art\n", lines.next().unwrap());
    for (i, line) in lines.enumerate() {
        out.push_str(&format!(
            "{line},{}\n",
            if i % 2 == 0 { "art/red.png" } else { "art/photo.jpg" }
        ));
    }
    std::fs::write(cat.join("cards.csv"), out).unwrap();
    let background =
        r#"<rect x="-50" y="-50" width="730" height="980" fill="{{ style.background }}"/>"#;
    edit(
        &cat,
        "templates/face.svg",
        background,
        &format!(
            r#"{background}<image href="{{{{ card.art }}}}" x="40" y="700" width="150" height="112"/>"#
        ),
    );
    let (out, run) = build(&cat, &["--only", "cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("travfuda/travfuda-cards-a4.pdf");
    assert_eq!(distinct_images(&pdf, (300, 300)) + distinct_images(&pdf, (400, 300)), 2);
    let list = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    let jpeg = |l: &&str| {
        l.split_whitespace().collect::<Vec<_>>()[3..9] == ["400", "300", "rgb", "3", "8", "jpeg"]
    };
    assert!(
        list.lines().skip(2).any(|l| jpeg(&l)),
        "the JPEG is stored as DCT, not re-encoded: {list}"
    );
}

#[test]
fn a_missing_file_field_image_is_reported_at_its_csv_cell() {
    let (_guard, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "game.toml",
        "[fields.points]",
        "[fields.art]\nkind = \"image\"\noptional = true\n\n[fields.points]",
    );
    edit(
        &cat,
        "game.toml",
        r#"fields = ["suit", "suit_name", "type", "colour", "points"]"#,
        r#"fields = ["suit", "suit_name", "type", "colour", "points", "art"]"#,
    );
    write_flat_png(&cat.join("art/yellow.png"), 300, 300, [250, 200, 20]);
    let csv = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    lines[0].push_str(",art");
    for (i, line) in lines.iter_mut().enumerate().skip(1) {
        line.push_str(if i == 3 { ",art/yelow.png" } else { "," }); // line 4 of the file
    }
    std::fs::write(cat.join("cards.csv"), lines.join("\n") + "\n").unwrap();
    let err = invalid(&cat);
    assert!(err.contains("`art/yelow.png` does not exist"), "{err}");
    let column = lines[3].len() - "art/yelow.png".len() + 1;
    assert!(err.contains(&format!("cards.csv:4:{column}")), "{err}");
    assert!(err.contains("did you mean `art/yellow.png`?"), "{err}");
}

#[test]
fn a_missing_image_filled_from_data_is_reported_at_its_own_href() {
    // A plain image above the one whose path a card fills: the error belonged to the
    // second, but pointed at the first href in the template.
    let (_guard, cat) = copy_catalogue("travfuda");
    let suit = r#"<image href="art/suit-{{ card.suit }}.png""#;
    edit(
        &cat,
        "templates/face.svg",
        suit,
        &format!(
            "<image href=\"art/suit-1.png\" x=\"0\" y=\"0\" width=\"9\" height=\"9\"/>\n  {suit}"
        ),
    );
    std::fs::remove_file(cat.join("art/suit-3.png")).unwrap();
    let err = invalid(&cat);
    let line = line_of(&cat, "templates/face.svg", "art/suit-{{ card.suit }}.png");
    assert!(err.contains("`art/suit-3.png` does not exist"), "{err}");
    assert!(err.contains(&format!("templates/face.svg:{line}:")), "line {line}: {err}");
    assert!(!err.contains(&format!("templates/face.svg:{}:", line - 1)), "{err}");
}

#[test]
fn every_bad_reference_is_an_error_at_the_template_line() {
    let line = 8; // the background's line, where the <image> is added
    let cases: [(&str, &str); 5] = [
        ("art/rde.png", "did you mean `art/red.png`?"),
        ("art/missing.png", "`art/missing.png` does not exist"),
        ("../outside.png", "is outside the catalogue folder"),
        ("/etc/hosts", "is outside the catalogue folder"),
        ("https://example.org/a.png", "is a URL"),
    ];
    for (href, expected) in cases {
        let (_guard, cat) = with_image(href);
        let err = invalid(&cat);
        assert!(err.contains(expected), "{href}: {err}");
        assert!(err.contains(&format!("face.svg:{line}:")), "{href}: {err}");
        assert!(err.contains("in card `"), "names the card: {err}");
        // One report for the template line, not one per card.
        assert_eq!(err.matches(&format!("face.svg:{line}:")).count(), 1, "{err}");
    }
}

#[test]
fn xlink_href_works_like_href() {
    let (_guard, cat) = copy_catalogue("travfuda");
    write_flat_png(&cat.join("art/red.png"), 300, 300, [200, 30, 30]);
    edit(
        &cat,
        "templates/face.svg",
        r#"<svg xmlns="http://www.w3.org/2000/svg""#,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#,
    );
    let background =
        r#"<rect x="-50" y="-50" width="730" height="980" fill="{{ style.background }}"/>"#;
    edit(
        &cat,
        "templates/face.svg",
        background,
        &format!(
            r#"{background}<image xlink:href="art/red.png" x="40" y="700" width="150" height="150"/>"#
        ),
    );
    let (out, run) = build(&cat, &["--only", "cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(distinct_images(&out.path().join("travfuda/travfuda-cards-a4.pdf"), (300, 300)), 1);
}

#[test]
fn an_undecodable_image_is_an_error_not_a_pdf_writer_failure() {
    let (_guard, cat) = with_image("art/cut.png");
    let whole = std::fs::read(cat.join("art/red.png")).unwrap();
    std::fs::write(cat.join("art/cut.png"), &whole[..whole.len() / 2]).unwrap();
    let err = invalid(&cat);
    assert!(err.contains("image `art/cut.png` cannot be used: it cannot be decoded"), "{err}");
    assert!(err.contains("face.svg:8:"), "{err}");
    // And build says the same, exit 1, writing nothing.
    let (out, run) = build(&cat, &["--only", "cards"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(!out.path().join("travfuda").exists());
}

/// A photo cut short would print with its missing rows grey (the decoders fill them in).
#[test]
fn a_truncated_jpeg_is_an_error_not_a_grey_band_in_print() {
    let (_guard, cat) = with_image("art/cut.jpg");
    let whole = std::fs::read(cat.join("art/back-texture.jpg")).unwrap();
    std::fs::write(cat.join("art/cut.jpg"), &whole[..whole.len() / 2]).unwrap();
    let err = invalid(&cat);
    assert!(err.contains("image `art/cut.jpg` cannot be used: it cannot be decoded"), "{err}");
    assert!(err.contains("is the file complete?"), "{err}");
    assert!(err.contains("face.svg:8:"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_catalogue_is_refused_and_its_target_never_shown() {
    let (_guard, cat) = with_image("art/link.png");
    let secret = tempfile::tempdir().unwrap();
    std::fs::write(secret.path().join("secret.png"), "TOP SECRET CONTENT").unwrap();
    std::os::unix::fs::symlink(secret.path().join("secret.png"), cat.join("art/link.png")).unwrap();
    let err = invalid(&cat);
    assert!(err.contains("symlink to a file outside the catalogue folder"), "{err}");
    assert!(!err.contains("TOP SECRET"), "{err}");
    // A symlinked template folder is refused the same way.
    let (_guard2, cat2) = copy_catalogue("travfuda");
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::rename(cat2.join("templates"), elsewhere.path().join("templates")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path().join("templates"), cat2.join("templates")).unwrap();
    let err = invalid(&cat2);
    assert!(err.contains("symlink to a file outside the catalogue folder"), "{err}");
}

#[test]
fn a_low_resolution_image_warns_with_its_dpi_and_fails_under_strict() {
    let (_guard, cat) = with_image("art/small.png");
    write_flat_png(&cat.join("art/small.png"), 60, 60, [30, 30, 200]);
    // A warning is not an error.
    let err = valid(&cat);
    // 60 px over 15 mm (0.59 in) is 102 dpi.
    assert!(err.contains("warning: image `art/small.png` prints at 102 dpi"), "{err}");
    assert!(err.contains("face.svg:8:"), "{err}");
    let strict = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], cat.parent().unwrap());
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
}

#[test]
fn a_stretched_image_warns() {
    let (_guard, cat) = with_image("art/red.png");
    edit(
        &cat,
        "templates/face.svg",
        r#"href="art/red.png" x="40" y="700" width="150" height="150"/>"#,
        r#"href="art/red.png" x="40" y="700" width="150" height="100" preserveAspectRatio="none"/>"#,
    );
    let run = deckpress(&["validate", cat.to_str().unwrap()], cat.parent().unwrap());
    assert!(stderr(&run).contains("is stretched 50.0% out of its proportions"), "{}", stderr(&run));
}

#[test]
fn a_catalogue_font_is_embedded_and_used() {
    let (_guard, cat) = copy_catalogue("travfuda");
    std::fs::create_dir_all(cat.join("fonts")).unwrap();
    std::fs::copy(
        repo().join("tests/fixtures/NotoSerif-Subset.ttf"),
        cat.join("fonts/NotoSerif-Subset.ttf"),
    )
    .unwrap();
    edit(
        &cat,
        "templates/face.svg",
        r#"<text x="315" y="565" font-size="58" font-weight="bold""#,
        r#"<text x="315" y="565" font-size="58" font-family="Noto Serif""#,
    );
    let (out, run) = build(&cat, &["--only", "cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pdf = out.path().join("travfuda/travfuda-cards-a4.pdf");
    let fonts = poppler("pdffonts", &[pdf.to_str().unwrap()]);
    assert!(fonts.contains("NotoSerif"), "{fonts}");
    assert_fonts_embedded(&pdf);
}

#[test]
fn an_unknown_font_family_fails_with_the_families_available() {
    let (_guard, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "templates/face.svg",
        r#"<text x="315" y="565" font-size="58""#,
        r#"<text x="315" y="565" font-size="58" font-family="Papyrus""#,
    );
    let err = invalid(&cat);
    assert!(err.contains("no font of family `Papyrus`"), "{err}");
    assert!(err.contains("`Noto Sans`"), "lists the families: {err}");
    let line = line_of(&cat, "templates/face.svg", "Papyrus");
    assert!(err.contains(&format!("face.svg:{line}:")), "{err}");
}

#[test]
fn italic_works_out_of_the_box_and_a_missing_italic_face_warns() {
    // Bundled Noto Sans has an italic: no warning, an italic font in the PDF.
    let (_guard, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "templates/face.svg",
        r#"<text x="315" y="565" font-size="58""#,
        r#"<text x="315" y="565" font-size="58" font-style="italic""#,
    );
    let (out, run) = build(&cat, &["--only", "cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(!stderr(&run).contains("warning"), "{}", stderr(&run));
    let fonts =
        poppler("pdffonts", &[out.path().join("travfuda/travfuda-cards-a4.pdf").to_str().unwrap()]);
    assert!(fonts.contains("Italic"), "{fonts}");
    // The catalogue's Noto Serif has no italic face: a warning naming family and style.
    std::fs::create_dir_all(cat.join("fonts")).unwrap();
    std::fs::copy(repo().join("tests/fixtures/NotoSerif-Subset.ttf"), cat.join("fonts/serif.ttf"))
        .unwrap();
    edit(
        &cat,
        "templates/face.svg",
        r#"font-style="italic""#,
        r#"font-style="italic" font-family="Noto Serif""#,
    );
    let run = deckpress(&["validate", cat.to_str().unwrap()], cat.parent().unwrap());
    assert!(
        stderr(&run).contains("warning: font family `Noto Serif` has no italic face"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn a_file_in_fonts_that_is_no_font_is_an_error() {
    let (_guard, cat) = copy_catalogue("travfuda");
    std::fs::create_dir_all(cat.join("fonts")).unwrap();
    std::fs::write(cat.join("fonts/broken.ttf"), "not a font").unwrap();
    let err = invalid(&cat);
    assert!(err.contains("`fonts/broken.ttf` is not a font deckpress can read"), "{err}");
}
