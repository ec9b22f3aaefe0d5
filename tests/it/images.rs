//! Every image format a designer hands in, drawn the same in every output (issue #39):
//! CMYK and YCCK JPEGs with and without Adobe's inverted values, greyscale, progressive,
//! 16-bit, palette and interlaced-translucent PNGs, WebP and GIF, each on a card of its
//! own, built as a home PDF (RGB), a press PDF (`--colour cmyk`, PDF/X), The Game
//! Crafter's per-card PNGs and previews. Each picture written is read back by a decoder
//! other than the one that wrote it (poppler's for the PDFs' images, mupdf's for the
//! PNGs) and its four flat quadrants compared with what the source holds: ink values for
//! CMYK, RGB after the profile for RGB. A format deckpress cannot carry faithfully (a
//! JPEG its EXIF says to rotate) is an error naming the file.

use std::path::{Path, PathBuf};

use lcms2::{Intent, PixelFormat, Profile, Transform};

use crate::common::*;

/// What a quadrant of a source picture holds.
#[derive(Clone, Copy, Debug)]
enum Held {
    Rgb([u8; 3]),
    /// Ink values, 0 (none) to 255 (full), as the file means them.
    Ink([u8; 4]),
    /// Fully transparent: paper shows.
    Clear,
}

/// One art file: its name, bytes, pixel size and its quadrants (top left, top right,
/// bottom left, bottom right).
struct Art {
    file: &'static str,
    bytes: Vec<u8>,
    size: (u32, u32),
    held: [Held; 4],
}

/// Colours inside FOGRA39's gamut (a round trip through the press stays close), far
/// enough apart that a swapped or shifted channel shows.
const RGB: [[u8; 3]; 4] = [[200, 80, 70], [90, 150, 90], [70, 90, 160], [220, 200, 120]];
/// The reported file's M100 Y100, then C100, a grey in black ink with some cyan, Y + K.
const INK: [[u8; 4]; 4] = [[0, 255, 255, 0], [255, 0, 0, 0], [60, 0, 0, 150], [0, 0, 255, 60]];
const GREY: [u8; 4] = [30, 100, 170, 230];

/// `channels`-byte pixels of a `w` × `h` picture whose quadrants are `colours`.
fn quadrants(w: u32, h: u32, colours: [&[u8]; 4]) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let q = usize::from(x >= w / 2) + 2 * usize::from(y >= h / 2);
            out.extend_from_slice(colours[q]);
        }
    }
    out
}

fn jpeg(
    w: u32,
    h: u32,
    pixels: &[u8],
    colour: jpeg_encoder::ColorType,
    progressive: bool,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut bytes, 95);
    encoder.set_progressive(progressive);
    encoder.encode(pixels, w as u16, h as u16, colour).unwrap();
    bytes
}

/// `jpeg` without its Adobe APP14 segment.
fn without_adobe(jpeg: &[u8]) -> Vec<u8> {
    let mut at = 2;
    loop {
        let len = u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]) as usize;
        if jpeg[at + 1] == 0xEE {
            return [&jpeg[..at], &jpeg[at + 2 + len..]].concat();
        }
        at += 2 + len;
    }
}

/// `jpeg` with an EXIF segment whose orientation is 6 (turn 90° clockwise to view).
fn exif_rotated(jpeg: &[u8]) -> Vec<u8> {
    let mut exif = b"Exif\0\0II*\0\x08\0\0\0".to_vec();
    exif.extend_from_slice(&1u16.to_le_bytes()); // one entry
    exif.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]); // Orientation = 6
    exif.extend_from_slice(&0u32.to_le_bytes());
    let mut segment = vec![0xFF, 0xE1];
    segment.extend_from_slice(&((exif.len() + 2) as u16).to_be_bytes());
    segment.extend_from_slice(&exif);
    [&jpeg[..2], &segment, &jpeg[2..]].concat()
}

fn png_bytes(
    w: u32,
    h: u32,
    setup: impl FnOnce(&mut png::Encoder<&mut Vec<u8>>),
    data: &[u8],
) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    setup(&mut encoder);
    encoder.write_header().unwrap().write_image_data(data).unwrap();
    bytes
}

/// Every format of the matrix, each of its own size so that its image in a PDF is known
/// by its size.
fn matrix() -> Vec<Art> {
    let rgb = RGB.map(Held::Rgb);
    let ink = INK.map(Held::Ink);
    let rgb_q = |w, h| quadrants(w, h, RGB.each_ref().map(|c| &c[..]));
    let ink_q = |w, h| quadrants(w, h, INK.each_ref().map(|c| &c[..]));
    let mut arts = Vec::new();
    let mut add =
        |file, (w, h): (u32, u32), bytes, held| arts.push(Art { file, bytes, size: (w, h), held });
    use jpeg_encoder::ColorType as J;
    // What Photoshop, ImageMagick and Pillow write: inverted values, Adobe transform 0.
    add("cmyk-adobe.jpg", (64, 64), jpeg(64, 64, &ink_q(64, 64), J::Cmyk, false), ink);
    // The same as YCCK (Adobe transform 2).
    add("ycck-adobe.jpg", (80, 64), jpeg(80, 64, &ink_q(80, 64), J::CmykAsYcck, false), ink);
    // Without the Adobe marker the values are plain ink (libjpeg's and Pillow's reading).
    let inverted: Vec<u8> = ink_q(96, 64).iter().map(|v| 255 - v).collect();
    add("cmyk-plain.jpg", (96, 64), without_adobe(&jpeg(96, 64, &inverted, J::Cmyk, false)), ink);
    let grey = quadrants(112, 64, GREY.each_ref().map(std::slice::from_ref));
    add(
        "grey.jpg",
        (112, 64),
        jpeg(112, 64, &grey, J::Luma, false),
        GREY.map(|g| Held::Rgb([g; 3])),
    );
    add("progressive.jpg", (128, 64), jpeg(128, 64, &rgb_q(128, 64), J::Rgb, true), rgb);
    let wide: Vec<u8> = rgb_q(144, 64).iter().flat_map(|&v| [v, v]).collect();
    add(
        "deep.png",
        (144, 64),
        png_bytes(
            144,
            64,
            |e| {
                e.set_color(png::ColorType::Rgb);
                e.set_depth(png::BitDepth::Sixteen);
            },
            &wide,
        ),
        rgb,
    );
    let indices = quadrants(160, 64, [&[0], &[1], &[2], &[3]]);
    add(
        "palette.png",
        (160, 64),
        png_bytes(
            160,
            64,
            |e| {
                e.set_color(png::ColorType::Indexed);
                e.set_palette(RGB.concat());
            },
            &indices,
        ),
        rgb,
    );
    add("art.webp", (176, 64), webp(176, 64, &rgb_q(176, 64)), rgb);
    add("art.gif", (192, 64), gif(192, 64, &indices_of(192, 64)), rgb);
    arts.push(interlaced());
    // RGB in a profile of its own (Adobe RGB's primaries), in a PNG and in a JPEG: drawn
    // as sRGB through that profile everywhere, as the PDF alone used to.
    let icc = wide_gamut_profile();
    let wide = RGB.map(|c| Held::Rgb(from_wide(&icc, c)));
    let mut info = png::Info::with_size(224, 64);
    info.color_type = png::ColorType::Rgb;
    info.icc_profile = Some(icc.clone().into());
    let mut tagged = Vec::new();
    png::Encoder::with_info(&mut tagged, info)
        .unwrap()
        .write_header()
        .unwrap()
        .write_image_data(&rgb_q(224, 64))
        .unwrap();
    arts.push(Art { file: "wide-gamut.png", bytes: tagged, size: (224, 64), held: wide });
    let mut tagged = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut tagged, 95);
    encoder.add_icc_profile(&icc).unwrap();
    encoder.encode(&rgb_q(240, 64), 240, 64, J::Rgb).unwrap();
    arts.push(Art { file: "wide-gamut.jpg", bytes: tagged, size: (240, 64), held: wide });
    arts
}

/// An RGB profile with Adobe RGB (1998)'s primaries, D65 and gamma 2.2, made by lcms2.
fn wide_gamut_profile() -> Vec<u8> {
    let xy = |x: f64, y: f64| lcms2::CIExyY { x, y, Y: 1.0 };
    let primaries =
        lcms2::CIExyYTRIPLE { Red: xy(0.64, 0.33), Green: xy(0.21, 0.71), Blue: xy(0.15, 0.06) };
    let gamma = lcms2::ToneCurve::new(2.2);
    Profile::new_rgb(&xy(0.3127, 0.3290), &primaries, &[&gamma, &gamma, &gamma])
        .unwrap()
        .icc()
        .unwrap()
}

/// A colour in that profile as sRGB (relative colorimetric), by lcms2 directly.
fn from_wide(icc: &[u8], rgb: [u8; 3]) -> [u8; 3] {
    let t = Transform::new(
        &Profile::new_icc(icc).unwrap(),
        PixelFormat::RGB_8,
        &Profile::new_srgb(),
        PixelFormat::RGB_8,
        Intent::RelativeColorimetric,
    )
    .unwrap();
    let mut out = [[0u8; 3]];
    t.transform_pixels(&[rgb], &mut out);
    out[0]
}

fn indices_of(w: u32, h: u32) -> Vec<u8> {
    quadrants(w, h, [&[0], &[1], &[2], &[3]])
}

fn webp(w: u32, h: u32, rgb: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    image_webp::WebPEncoder::new(&mut bytes)
        .encode(rgb, w, h, image_webp::ColorType::Rgb8)
        .unwrap();
    bytes
}

fn gif(w: u32, h: u32, indices: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut bytes, w as u16, h as u16, &RGB.concat()).unwrap();
        let frame = gif::Frame {
            width: w as u16,
            height: h as u16,
            buffer: std::borrow::Cow::Borrowed(indices),
            ..Default::default()
        };
        encoder.write_frame(&frame).unwrap();
    }
    bytes
}

/// The Adam7-interlaced PNG with a clear quadrant (top right).
fn interlaced() -> Art {
    let (w, h) = (208, 64);
    let colours: [[u8; 4]; 4] =
        [[200, 80, 70, 255], [0, 0, 0, 0], [70, 90, 160, 255], [220, 200, 120, 255]];
    let rgba = quadrants(w, h, colours.each_ref().map(|c| &c[..]));
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("interlaced.png");
    write_interlaced_png(&path, w, h, &rgba);
    Art {
        file: "interlaced.png",
        bytes: std::fs::read(&path).unwrap(),
        size: (w, h),
        held: [Held::Rgb(RGB[0]), Held::Clear, Held::Rgb(RGB[2]), Held::Rgb(RGB[3])],
    }
}

/// A catalogue of one poker card per art file, the art over the whole card and its bleed
/// (on white paper, which a clear quadrant shows).
fn catalogue(arts: &[Art]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("matrix");
    std::fs::create_dir_all(cat.join("art")).unwrap();
    std::fs::create_dir_all(cat.join("templates")).unwrap();
    let mut csv = "id,art\n".to_string();
    for art in arts {
        std::fs::write(cat.join("art").join(art.file), &art.bytes).unwrap();
        csv.push_str(&format!("{},art/{}\n", art.file.replace('.', "-"), art.file));
    }
    std::fs::write(cat.join("cards.csv"), csv).unwrap();
    std::fs::write(
        cat.join("game.toml"),
        r#"[game]
id = "matrix"
name = "Image matrix"
description = "Every image format"
players = { min = 1, max = 1 }

[card]
size = "poker"

[fields.art]
kind = "file"

[[deck]]
id = "cards"
name = "Cards"
rows = "cards.csv"
face = "templates/face.svg"
back = "templates/back.svg"
"#,
    )
    .unwrap();
    let svg = |body: &str| {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="63.5mm" height="88.9mm" viewBox="0 0 635 889">
  <rect x="-60" y="-60" width="755" height="1009" fill="#ffffff"/>
  {body}
</svg>
"##
        )
    };
    let image = r#"<image href="{{ card.art }}" x="-50" y="-50" width="735" height="989" preserveAspectRatio="none"/>"#;
    std::fs::write(cat.join("templates/face.svg"), svg(image)).unwrap();
    std::fs::write(cat.join("templates/back.svg"), svg("")).unwrap();
    (dir, cat)
}

/// The bundled FOGRA39 profile, which CMYK builds print with by default.
fn fogra39() -> Profile {
    Profile::new_file(repo().join("profiles/deckpress-fogra39.icc")).unwrap()
}

/// Ink values through FOGRA39 to sRGB (relative colorimetric, as `preview --proof` shows
/// a press), by lcms2 directly.
fn ink_to_rgb(ink: [u8; 4]) -> [u8; 3] {
    let t = Transform::new(
        &fogra39(),
        PixelFormat::CMYK_8,
        &Profile::new_srgb(),
        PixelFormat::RGB_8,
        Intent::RelativeColorimetric,
    )
    .unwrap();
    let mut out = [[0u8; 3]];
    t.transform_pixels(&[ink], &mut out);
    out[0]
}

/// sRGB through FOGRA39 to ink, as `--colour cmyk` converts by default (relative
/// colorimetric with black-point compensation), by lcms2 directly.
fn rgb_to_ink(rgb: [u8; 3]) -> [u8; 4] {
    let t = Transform::new_flags(
        &Profile::new_srgb(),
        PixelFormat::RGB_8,
        &fogra39(),
        PixelFormat::CMYK_8,
        Intent::RelativeColorimetric,
        lcms2::Flags::BLACKPOINT_COMPENSATION,
    )
    .unwrap();
    let mut out = [[0u8; 4]];
    t.transform_pixels(&[rgb], &mut out);
    out[0]
}

/// A picture as decoded: its size, channels a pixel and the pixels.
struct Decoded {
    width: u32,
    height: u32,
    channels: usize,
    pixels: Vec<u8>,
}

impl Decoded {
    /// Every pixel of a small square around the centre of each quadrant, as `w` × `h`
    /// relative to the picture: the art's flat middle, away from the edges that JPEG's
    /// blocks and resampling blur.
    fn quadrant(&self, q: usize) -> Vec<&[u8]> {
        let (fx, fy) = ([0.25, 0.75][q % 2], [0.25, 0.75][q / 2]);
        let (cx, cy) = ((fx * self.width as f64) as i64, (fy * self.height as f64) as i64);
        let r = (self.width.min(self.height) as i64 / 32).max(2);
        let mut out = Vec::new();
        for y in cy - r..=cy + r {
            for x in cx - r..=cx + r {
                let at = (y as usize * self.width as usize + x as usize) * self.channels;
                out.push(&self.pixels[at..at + self.channels]);
            }
        }
        out
    }
}

/// Reads a PAM (mutool's raster output).
fn read_pam(path: &Path) -> Decoded {
    let data = std::fs::read(path).unwrap();
    let end = data.windows(7).position(|w| w == b"ENDHDR\n").unwrap();
    let header = String::from_utf8_lossy(&data[..end]);
    let field = |name: &str| -> usize {
        let line = header.lines().find(|l| l.starts_with(name)).unwrap();
        line[name.len()..].trim().parse().unwrap()
    };
    Decoded {
        width: field("WIDTH") as u32,
        height: field("HEIGHT") as u32,
        channels: field("DEPTH"),
        pixels: data[end + 7..].to_vec(),
    }
}

/// The PNG a build wrote, drawn by mupdf at its own pixel size, as RGB.
fn png_by_mupdf(png: &Path) -> Decoded {
    let data = std::fs::read(png).unwrap();
    let (w, h) = (
        u32::from_be_bytes(data[16..20].try_into().unwrap()),
        u32::from_be_bytes(data[20..24].try_into().unwrap()),
    );
    let pam = png.with_extension("pam");
    let (w_s, h_s) = (w.to_string(), h.to_string());
    let args = ["draw", "-q", "-c", "rgb", "-w", &w_s, "-h", &h_s, "-F", "pam", "-o"];
    let run = std::process::Command::new("mutool")
        .args(args)
        .arg(&pam)
        .arg(png)
        .output()
        .expect("mutool is needed (apt-get install mupdf-tools)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let decoded = read_pam(&pam);
    assert_eq!((decoded.width, decoded.height), (w, h), "{}", png.display());
    decoded
}

/// Each image of `pdf` as poppler decodes it, by its pixel size: RGB and grey as PNG
/// (poppler's own rendering to RGB), CMYK as the ink values (TIFF).
fn pdf_images(pdf: &Path) -> Vec<((u32, u32), Decoded)> {
    let dir = tempfile::tempdir().unwrap();
    let list = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    let (p, t) = (dir.path().join("p"), dir.path().join("t"));
    poppler("pdfimages", &["-png", pdf.to_str().unwrap(), p.to_str().unwrap()]);
    poppler("pdfimages", &["-tiff", pdf.to_str().unwrap(), t.to_str().unwrap()]);
    let mut found = Vec::new();
    for (i, row) in list.lines().skip(2).enumerate() {
        let c: Vec<&str> = row.split_whitespace().collect();
        if c[2] != "image" {
            continue;
        }
        let size = (c[3].parse().unwrap(), c[4].parse().unwrap());
        let decoded = if c[5] == "cmyk" {
            let (width, height, channels, pixels) =
                read_tiff(&dir.path().join(format!("t-{i:03}.tif")));
            Decoded { width, height, channels, pixels }
        } else {
            let path = dir.path().join(format!("p-{i:03}.png"));
            let mut decoder =
                png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
            // Sixteen bits read as their high byte: what the source's 8-bit levels were.
            decoder.set_transformations(png::Transformations::normalize_to_color8());
            let mut reader = decoder.read_info().unwrap();
            let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut pixels).unwrap();
            pixels.truncate(info.buffer_size());
            Decoded {
                width: info.width,
                height: info.height,
                channels: info.color_type.samples(),
                pixels,
            }
        };
        found.push((size, decoded));
    }
    found
}

/// How far a read-back quadrant may be from its source, in levels of 255, and why. The
/// matrix measured at most 2 everywhere (progressive JPEG printed in CMYK); a stripe, a
/// swapped channel or inverted ink is off by tens to 255.
/// - 1: a lossless source (PNG, GIF, WebP lossless) drawn in RGB: rounding only.
/// - 2: a JPEG source, or its ink: quality 95 leaves flat 8 × 8 blocks within a level or
///   two, and its colour, halved each way, is smoothed only near the quadrants' edges
///   (which the samples keep away from); a press's CMYK JPEG (quality 92) adds a level.
/// - 3: RGB art printed in CMYK, against lcms2's own conversion of the source: the press
///   converts pictures through a lookup table that stays within 3 levels of lcms2's
///   transform (press/mod.rs tests).
fn tolerance(art: &Art, held: Held, cmyk: bool) -> u8 {
    match (held, cmyk) {
        (Held::Rgb(_), true) => 3,
        _ if art.file.ends_with(".jpg") => 2,
        _ => 1,
    }
}

/// Compares one quadrant read back with its source; a line for each wrong one.
fn compare(art: &Art, q: usize, got: &[&[u8]], output: &str, cmyk: bool, wrong: &mut Vec<String>) {
    let held = art.held[q];
    let tol = tolerance(art, held, cmyk);
    // What the source holds, in the terms of the output: ink in CMYK, RGB else.
    let expected = match (held, cmyk) {
        (Held::Ink(ink), true) => ink.to_vec(),
        (Held::Clear, true) => vec![0; 4],
        (Held::Rgb(rgb), true) => rgb_to_ink(rgb).to_vec(),
        (Held::Rgb(rgb), false) => rgb.to_vec(),
        (Held::Ink(ink), false) => ink_to_rgb(ink).to_vec(),
        (Held::Clear, false) => vec![255; 3],
    };
    // Grey as RGB, and RGB without any alpha.
    let as_seen = |p: &[u8]| match p.len() {
        1 => vec![p[0]; 3],
        _ if cmyk => p.to_vec(),
        _ => p[..3].to_vec(),
    };
    let worst = got
        .iter()
        .map(|p| as_seen(p))
        .max_by_key(|seen| seen.iter().zip(&expected).map(|(a, b)| a.abs_diff(*b)).max())
        .unwrap();
    let off = worst.iter().zip(&expected).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
    if off > tol {
        wrong.push(format!(
            "{output}: {} quadrant {q}: {worst:?}, the source holds {held:?} ({expected:?}), off by {off} > {tol}",
            art.file
        ));
    }
}

fn check_pdf(pdf: &Path, arts: &[Art], output: &str, cmyk: bool, wrong: &mut Vec<String>) {
    let images = pdf_images(pdf);
    for art in arts {
        let Some((_, decoded)) = images.iter().find(|(size, _)| *size == art.size) else {
            wrong.push(format!("{output}: no {:?} image for {}", art.size, art.file));
            continue;
        };
        if cmyk && decoded.channels != 4 {
            wrong.push(format!(
                "{output}: {} is not CMYK ({} channels)",
                art.file, decoded.channels
            ));
            continue;
        }
        // An RGB PDF may keep CMYK art as its ink (DeviceCMYK), which is then compared as ink.
        let as_ink = decoded.channels == 4;
        for q in 0..4 {
            // The home PDF keeps a clear quadrant clear (a soft mask); its colour is any.
            if matches!(art.held[q], Held::Clear) && !cmyk {
                continue;
            }
            compare(art, q, &decoded.quadrant(q), output, as_ink, wrong);
        }
    }
}

fn check_pngs(
    png_of: impl Fn(&Art) -> PathBuf,
    arts: &[Art],
    output: &str,
    wrong: &mut Vec<String>,
) {
    for art in arts {
        let decoded = png_by_mupdf(&png_of(art));
        for q in 0..4 {
            compare(art, q, &decoded.quadrant(q), output, false, wrong);
        }
    }
}

fn card_id(art: &Art) -> String {
    art.file.replace('.', "-")
}

#[test]
fn every_image_format_is_drawn_as_its_source_holds_it_in_every_output() {
    let arts = matrix();
    let (_dir, cat) = catalogue(&arts);
    let mut wrong = Vec::new();
    for (output, args, cmyk) in
        [("home PDF", &[][..], false), ("CMYK PDF/X", &["--colour", "cmyk"][..], true)]
    {
        let (out, run) = build(&cat, args);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        check_pdf(&out.path().join("matrix/matrix-cards-a4.pdf"), &arts, output, cmyk, &mut wrong);
    }
    let (out, run) = build(&cat, &["--for", "gamecrafter"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let folder = out.path().join("matrix/matrix-cards-gamecrafter");
    let gamecrafter = |art: &Art| {
        let n = arts.iter().position(|a| a.file == art.file).unwrap() + 1;
        folder.join(format!("{n:03}-{}-front.png", card_id(art)))
    };
    check_pngs(gamecrafter, &arts, "The Game Crafter PNG", &mut wrong);
    let previews = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["preview", cat.to_str().unwrap(), "--out", previews.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let preview =
        |art: &Art| previews.path().join(format!("matrix/preview/cards/{}.png", card_id(art)));
    check_pngs(preview, &arts, "preview", &mut wrong);
    assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn a_jpeg_its_exif_says_to_turn_is_an_error_naming_the_file() {
    let rgb = quadrants(64, 48, RGB.each_ref().map(|c| &c[..]));
    let turned = Art {
        file: "turned.jpg",
        bytes: exif_rotated(&jpeg(64, 48, &rgb, jpeg_encoder::ColorType::Rgb, false)),
        size: (64, 48),
        held: RGB.map(Held::Rgb),
    };
    let (_dir, cat) = catalogue(&[turned]);
    let err = invalid(&cat);
    assert!(err.contains("image `art/turned.jpg` cannot be used"), "{err}");
    assert!(err.contains("EXIF orientation (6)") && err.contains("quarter clockwise"), "{err}");
    // Not drawn on its side in any output: the build refuses it too.
    let (_out, run) = build(&cat, &["--for", "gamecrafter"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
}
