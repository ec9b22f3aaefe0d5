//! Helpers for the integration tests: run the real binary on copies of catalogues.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn deckpress(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckpress"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the binary runs")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh copy of a built-in catalogue in a temporary folder: (guard, catalogue path).
/// A fresh starter catalogue, as `deckpress new game` writes it (suits Sun and Moon, an
/// integer `value`, a `title`; one deck `cards`): (guard, catalogue).
pub fn new_game() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let made = deckpress(&["new", "game"], dir.path());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let cat = dir.path().join("game");
    (dir, cat)
}

/// A starter catalogue with a sheet of `count` stickers on `labels` (`"\"avery-l7160\""`):
/// `stickers.csv` with a `title`, drawn by `templates/sticker.svg`.
pub fn with_stickers(labels: &str, count: u32) -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    std::fs::write(cat.join("stickers.csv"), format!("id,qty,title\nsticker,{count},Hello\n"))
        .unwrap();
    std::fs::write(
        cat.join("templates/sticker.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{{ deck.width }}mm" height="{{ deck.height }}mm" viewBox="0 0 {{ deck.width }} {{ deck.height }}" font-family="Noto Sans"><rect x="-5" y="-5" width="{{ deck.width + 10 }}" height="{{ deck.height + 10 }}" fill="#3f51b5"/><text x="4" y="10" font-size="4" fill="#ffffff">{{ card.title }}</text></svg>"##,
    )
    .unwrap();
    let manifest = cat.join("game.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str(&format!(
        "\n[[sheet]]\nid = \"stickers\"\nlabels = {labels}\nrows = \"stickers.csv\"\nface = \"templates/sticker.svg\"\nfields = [\"title\"]\n"
    ));
    std::fs::write(manifest, text).unwrap();
    (dir, cat)
}

/// Appends `text` to a file of the catalogue.
pub fn append(catalogue: &Path, file: &str, text: &str) {
    let path = catalogue.join(file);
    let mut all = std::fs::read_to_string(&path).unwrap_or_default();
    all.push_str(text);
    std::fs::write(path, all).unwrap();
}

pub fn copy_catalogue(game: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join(game);
    copy_dir(&repo().join("catalogues").join(game), &dest);
    (dir, dest)
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Replaces exactly one occurrence of `from` in a file of the catalogue.
pub fn edit(catalogue: &Path, file: &str, from: &str, to: &str) {
    let path = catalogue.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches(from).count(), 1, "`{from}` must occur once in {file}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// 1-based line of the first line of `file` containing `needle`.
pub fn line_of(catalogue: &Path, file: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(catalogue.join(file)).unwrap();
    text.lines().position(|l| l.contains(needle)).expect("needle present") + 1
}

/// Runs a poppler tool (installed by .ci/run) and returns its stdout.
pub fn poppler(tool: &str, args: &[&str]) -> String {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} is needed (apt-get install poppler-utils): {e}"));
    assert!(out.status.success(), "{tool} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Validates a broken copy and returns stderr, asserting exit code 1 and no crash.
/// `validate` of a catalogue that must pass (warnings allowed): what it printed.
pub fn valid(catalogue: &Path) -> String {
    let out = deckpress(&["validate", catalogue.to_str().unwrap()], catalogue.parent().unwrap());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "expected exit 0, got {:?}\n{err}", out.status.code());
    err
}

pub fn invalid(catalogue: &Path) -> String {
    let out = deckpress(&["validate", catalogue.to_str().unwrap()], catalogue.parent().unwrap());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "expected exit 1, got {:?}\n{err}", out.status.code());
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Builds a built-in game into a fresh folder: (guard, what the build printed).
/// `deckpress build CATALOGUE --out TMP ARGS…` (a built-in id or a folder): the output
/// folder and the run, whatever its exit status.
pub fn build(catalogue: impl AsRef<Path>, args: &[&str]) -> (tempfile::TempDir, Output) {
    let out = tempfile::tempdir().unwrap();
    let mut all =
        vec!["build", catalogue.as_ref().to_str().unwrap(), "--out", out.path().to_str().unwrap()];
    all.extend_from_slice(args);
    let run = deckpress(&all, &repo());
    (out, run)
}

/// `build` that must succeed: the output folder and what it printed.
pub fn build_game(game: &str, extra: &[&str]) -> (tempfile::TempDir, String) {
    let (out, run) = build(game, extra);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    (out, stdout(&run))
}

/// The page count `pdfinfo` reports.
pub fn pages(pdf: &Path) -> usize {
    pdf_info(pdf)
        .lines()
        .find(|l| l.starts_with("Pages:"))
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap()
}

/// What `pdfinfo` says of a PDF.
pub fn pdf_info(pdf: &Path) -> String {
    poppler("pdfinfo", &[pdf.to_str().unwrap()])
}

/// What `pdfinfo -box` says of a PDF: with every page's boxes.
pub fn pdf_boxes(pdf: &Path) -> String {
    poppler("pdfinfo", &["-box", pdf.to_str().unwrap()])
}

/// A PDF's text in reading order (`pdftotext`).
pub fn plain_text(pdf: &Path) -> String {
    poppler("pdftotext", &[pdf.to_str().unwrap(), "-"])
}

/// A PDF's text as it lies on the page (`pdftotext -layout`).
pub fn layout_text(pdf: &Path) -> String {
    poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"])
}

/// Pages of a PDF as poppler draws them, in order: `pdftoppm -r DPI` with `args` (`-f 2`,
/// `-l 2`, a crop `-x … -H …`). Read as PPM, the same pixels `-png` writes, without
/// deflating them first (seven eighths of pdftoppm's time on a sheet of cards).
pub fn poppler_pages(pdf: &Path, dpi: u32, args: &[&str]) -> Vec<resvg::tiny_skia::Pixmap> {
    let dir = tempfile::tempdir().unwrap();
    let dpi = dpi.to_string();
    let mut all = vec!["-r", &dpi];
    all.extend_from_slice(args);
    let prefix = dir.path().join("page");
    all.extend_from_slice(&[pdf.to_str().unwrap(), prefix.to_str().unwrap()]);
    poppler("pdftoppm", &all);
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .iter()
        .map(|file| {
            let data = std::fs::read(file).unwrap();
            // P6, WIDTH HEIGHT, 255, each on its line, then RGB pixels.
            let mut parts = data.splitn(4, |&b| b == b'\n');
            assert_eq!(parts.next(), Some(&b"P6"[..]), "{}", file.display());
            let size = String::from_utf8_lossy(parts.next().unwrap()).into_owned();
            let (w, h) = size.split_once(' ').unwrap();
            assert_eq!(parts.next(), Some(&b"255"[..]));
            let rgb = parts.next().unwrap();
            let mut rgba = Vec::with_capacity(rgb.len() / 3 * 4);
            for px in rgb.chunks_exact(3) {
                rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
            }
            let size = resvg::tiny_skia::IntSize::from_wh(w.parse().unwrap(), h.parse().unwrap());
            resvg::tiny_skia::Pixmap::from_vec(rgba, size.unwrap()).unwrap()
        })
        .collect()
}

/// Each page's ink from Ghostscript's `inkcov` device at 40 dpi (the share of the page
/// each of C, M, Y and K touches), for each PDF in turn. One Ghostscript reads them all
/// (each start costs a tenth of a second of CPU) and its lines are split by each file's
/// page count from `pdfinfo`; the numbers are those of one run a file.
pub fn ink_coverage(pdfs: &[PathBuf]) -> Vec<Vec<[f64; 4]>> {
    let run = Command::new("gs")
        .args(["-q", "-o", "-", "-sDEVICE=inkcov", "-r40"])
        .args(pdfs)
        .output()
        .expect("Ghostscript is needed (apt-get install ghostscript)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    let mut lines = text.lines().map(|line| {
        let v: Vec<f64> = line.split_whitespace().take(4).map(|v| v.parse().unwrap()).collect();
        [v[0], v[1], v[2], v[3]]
    });
    let each: Vec<Vec<[f64; 4]>> =
        pdfs.iter().map(|pdf| lines.by_ref().take(pages(pdf)).collect()).collect();
    assert!(lines.next().is_none(), "inkcov measured more pages than the files have: {text}");
    for (pdf, pages) in pdfs.iter().zip(&each) {
        assert!(!pages.is_empty(), "inkcov measured no page of {}: {text}", pdf.display());
    }
    each
}

/// A home-printer PDF a build wrote, `OUT/GAME/GAME-COMPONENT-PAPER.pdf`, which must exist.
pub fn home_pdf(out: impl AsRef<Path>, game: &str, component: &str, paper: &str) -> PathBuf {
    let file = out.as_ref().join(game).join(format!("{game}-{component}-{paper}.pdf"));
    assert!(file.is_file(), "{} was not written", file.display());
    file
}

/// Every font of the PDF is embedded, subset and has a Unicode map (`pdffonts`).
pub fn assert_fonts_embedded(pdf: &Path) {
    let fonts = poppler("pdffonts", &[pdf.to_str().unwrap()]);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "{fonts}");
    for row in rows {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let n = cols.len();
        // name type … emb sub uni object ID
        assert_eq!(
            &cols[n - 5..n - 2],
            &["yes", "yes", "yes"],
            "embedded, subset, unicode in {}: {row}",
            pdf.display()
        );
        assert!(cols[0].contains('+'), "subset tag: {row}");
    }
}

/// A page's text (`pdftotext`, by lines: `-layout` or `-raw`) without the slug deckpress
/// prints below home sheets: what is on the cards themselves. The slug is a label line
/// ("Game 1.0 — Deck"), then "… print at 100 % …", and "sheet 1 of 7, front" at the
/// right (on the label's line with `-layout`, a line of its own with `-raw`).
pub fn without_slug(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let how = |i: usize| lines.get(i).is_some_and(|l| l.contains("print at 100 %"));
    let sheet_mark = |l: &str| {
        let l = l.trim();
        (l.starts_with("sheet ") || l.contains(" sheets, "))
            && (l.ends_with(", front") || l.ends_with(", back"))
    };
    (0..lines.len())
        .filter(|&i| {
            !how(i) && !how(i + 1) && !sheet_mark(lines[i]) && !lines[i].contains(" · sheet ")
        })
        .map(|i| lines[i])
        .collect::<Vec<_>>()
        .join("\n")
}

/// Words of a PDF (or of one page) with their boxes in points from the page's top-left
/// (`pdftotext -bbox`): (word, x_min, y_min, x_max, y_max).
pub fn word_boxes(pdf: &Path, page: Option<usize>) -> Vec<(String, f64, f64, f64, f64)> {
    let p = page.map(|p| p.to_string());
    let mut args = vec!["-bbox"];
    if let Some(p) = &p {
        args.extend_from_slice(&["-f", p, "-l", p]);
    }
    args.extend_from_slice(&[pdf.to_str().unwrap(), "-"]);
    poppler("pdftotext", &args)
        .lines()
        .filter(|l| l.contains("<word "))
        .map(|l| {
            let attr = |name: &str| -> f64 {
                l.split(&format!("{name}=\""))
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            let word = l.split('>').nth(1).unwrap().split('<').next().unwrap().to_string();
            (word, attr("xMin"), attr("yMin"), attr("xMax"), attr("yMax"))
        })
        .collect()
}

/// Every word of a PDF inside the 5 mm a home printer cannot print, on pages of `page`
/// points (A4 is 595.28 × 841.89).
pub fn assert_words_printable(pdf: &Path, page: (f64, f64)) {
    let edge = 5.0 * 72.0 / 25.4;
    for (word, x0, y0, x1, y1) in word_boxes(pdf, None) {
        assert!(
            x0 >= edge && x1 <= page.0 - edge && y0 >= edge && y1 <= page.1 - edge,
            "{word} at {x0:.1}, {y0:.1} – {x1:.1}, {y1:.1} pt"
        );
    }
}

/// `words_of` a whole PDF without its slugs.
pub fn words_without_slug(pdf: &Path) -> String {
    words(&without_slug(&raw_text(pdf)))
}

/// A whole PDF's text in drawing order (`pdftotext -raw`).
pub fn raw_text(pdf: &Path) -> String {
    poppler("pdftotext", &["-raw", pdf.to_str().unwrap(), "-"])
}

/// The words of a text, every run of whitespace one space.
pub fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of a PDF (or of one page) in drawing order, every run of whitespace one space:
/// a phrase reads the same whether the template wrapped it or not.
pub fn words_of(pdf: &Path, page: Option<usize>) -> String {
    let p = page.map(|p| p.to_string());
    let mut args = vec!["-raw"];
    if let Some(p) = &p {
        args.extend_from_slice(&["-f", p, "-l", p]);
    }
    args.extend_from_slice(&[pdf.to_str().unwrap(), "-"]);
    poppler("pdftotext", &args).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A path a PDF page draws, read back with `mutool trace` (mupdf-tools): top-left origin,
/// in points, transforms applied. Curves keep only their end points.
#[derive(Debug, Clone)]
pub struct DrawnPath {
    /// `stroke`, `fill` or `clip`.
    pub kind: String,
    pub line_width: f64,
    /// The colour as mutool writes it (`0` is black in DeviceGray).
    pub color: String,
    pub subpaths: Vec<Vec<(f64, f64)>>,
}

/// Every stroked and filled path page `page` draws (form XObjects included).
pub fn drawn_paths(pdf: &Path, page: usize) -> Vec<DrawnPath> {
    let out = Command::new("mutool")
        .args(["trace", pdf.to_str().unwrap(), &page.to_string()])
        .output()
        .expect("mutool is needed (apt-get install mupdf-tools)");
    assert!(out.status.success(), "mutool trace: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let attr = |line: &str, key: &str| -> Option<String> {
        Some(line.split(&format!(" {key}=\"")).nth(1)?.split('"').next()?.to_string())
    };
    let num = |line: &str, key: &str| -> f64 { attr(line, key).unwrap().parse().unwrap() };
    let mut paths = Vec::new();
    let mut current: Option<(DrawnPath, [f64; 6])> = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with("<stroke_path")
            || line.starts_with("<fill_path")
            || line.starts_with("<clip_path")
        {
            let m: Vec<f64> = attr(line, "transform")
                .unwrap()
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            let kind = if line.starts_with("<stroke") {
                "stroke"
            } else if line.starts_with("<clip") {
                "clip"
            } else {
                "fill"
            };
            let path = DrawnPath {
                kind: kind.to_string(),
                line_width: attr(line, "linewidth").map_or(0.0, |w| w.parse().unwrap()),
                color: attr(line, "color").unwrap_or_default(),
                subpaths: Vec::new(),
            };
            current = Some((path, [m[0], m[1], m[2], m[3], m[4], m[5]]));
        } else if line.starts_with("</stroke_path")
            || line.starts_with("</fill_path")
            || line.starts_with("</clip_path")
        {
            paths.extend(current.take().map(|(p, _)| p));
        } else if let Some((path, m)) = current.as_mut() {
            let apply = |x: f64, y: f64| (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
            if line.starts_with("<moveto") {
                path.subpaths.push(vec![apply(num(line, "x"), num(line, "y"))]);
            } else if line.starts_with("<lineto") {
                let p = apply(num(line, "x"), num(line, "y"));
                path.subpaths.last_mut().unwrap().push(p);
            } else if line.starts_with("<curveto") {
                let p = apply(num(line, "x3"), num(line, "y3"));
                path.subpaths.last_mut().unwrap().push(p);
            }
        }
    }
    paths
}

/// Pixels of two pictures of one size that differ by more than `tolerance` in any
/// channel, and a picture of where (red) for the failure report.
pub fn differing_pixels(
    actual: &resvg::tiny_skia::Pixmap,
    expected: &resvg::tiny_skia::Pixmap,
    tolerance: u8,
) -> (usize, resvg::tiny_skia::Pixmap) {
    use resvg::tiny_skia::PremultipliedColorU8;
    let mut diff = resvg::tiny_skia::Pixmap::new(actual.width(), actual.height()).unwrap();
    let mut bad = 0;
    for ((a, e), d) in actual.pixels().iter().zip(expected.pixels()).zip(diff.pixels_mut()) {
        let channels = [
            (a.red(), e.red()),
            (a.green(), e.green()),
            (a.blue(), e.blue()),
            (a.alpha(), e.alpha()),
        ];
        let off = channels.iter().any(|(x, y)| x.abs_diff(*y) > tolerance);
        bad += usize::from(off);
        *d = if off {
            PremultipliedColorU8::from_rgba(255, 0, 0, 255).unwrap()
        } else {
            PremultipliedColorU8::from_rgba(0, 0, 0, 40).unwrap()
        };
    }
    (bad, diff)
}

/// Writes `pixels` (rows of `color`'s channels) as a PNG at `path`, making its folder.
pub fn write_png(path: &Path, width: u32, height: u32, color: png::ColorType, pixels: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(color);
    encoder.write_header().unwrap().write_image_data(pixels).unwrap();
}

/// One PNG chunk as a file holds it: its length, its kind, its data and their CRC-32; for
/// tests that write PNGs the png crate will not (a header alone, Adam7 interlacing).
pub fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut chunk = (data.len() as u32).to_be_bytes().to_vec();
    chunk.extend_from_slice(kind);
    chunk.extend_from_slice(data);
    let mut crc = !0u32;
    for &byte in &chunk[4..] {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    chunk.extend_from_slice(&(!crc).to_be_bytes());
    chunk
}

/// An Adam7-interlaced RGBA PNG (the png crate writes none): every pass's rows unfiltered,
/// deflated as stored blocks.
pub fn write_interlaced_png(path: &Path, width: u32, height: u32, rgba: &[u8]) {
    const PASSES: [(u32, u32, usize, usize); 7] = [
        (0, 0, 8, 8),
        (4, 0, 8, 8),
        (0, 4, 4, 8),
        (2, 0, 4, 4),
        (0, 2, 2, 4),
        (1, 0, 2, 2),
        (0, 1, 1, 2),
    ];
    let mut raw = Vec::new();
    for (x0, y0, dx, dy) in PASSES {
        if x0 >= width || y0 >= height {
            continue; // an empty pass has no rows at all
        }
        for y in (y0..height).step_by(dy) {
            raw.push(0); // filter type None
            for x in (x0..width).step_by(dx) {
                let at = ((y * width + x) * 4) as usize;
                raw.extend_from_slice(&rgba[at..at + 4]);
            }
        }
    }
    let mut zlib = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        zlib.extend_from_slice(&len.to_le_bytes());
        zlib.extend_from_slice(&(!len).to_le_bytes());
        zlib.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    zlib.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut header = [width.to_be_bytes(), height.to_be_bytes()].concat();
    header.extend_from_slice(&[8, 6, 0, 0, 1]); // 8 bits, RGBA, deflate, filters, Adam7
    let mut file = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [(b"IHDR", &header[..]), (b"IDAT", &zlib[..]), (b"IEND", &[][..])] {
        file.extend(png_chunk(kind, data));
    }
    std::fs::write(path, file).unwrap();
}

/// Reads an uncompressed little-endian TIFF (poppler's `pdfimages -tiff`, Ghostscript's
/// separations with `-sCompression=none`): width, height, samples a pixel, the pixels
/// (its strips in a row).
pub fn read_tiff(path: &Path) -> (u32, u32, usize, Vec<u8>) {
    let d = std::fs::read(path).unwrap();
    assert_eq!(&d[..4], b"II*\0", "a little-endian TIFF");
    let u16_at = |at: usize| u16::from_le_bytes([d[at], d[at + 1]]) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(d[at..at + 4].try_into().unwrap()) as usize;
    let ifd = u32_at(4);
    // One sample a pixel unless the file says more (a separation has one).
    let (mut width, mut height, mut channels, mut offset) = (0, 0, 1, 0);
    for i in 0..u16_at(ifd) {
        let entry = ifd + 2 + i * 12;
        let (tag, kind, count) = (u16_at(entry), u16_at(entry + 2), u32_at(entry + 4));
        let value = if kind == 3 { u16_at(entry + 8) } else { u32_at(entry + 8) };
        match tag {
            256 => width = value,
            257 => height = value,
            259 => assert_eq!(value, 1, "uncompressed"),
            273 if count == 1 => offset = value,
            273 => offset = if kind == 3 { u16_at(value) } else { u32_at(value) },
            277 => channels = value,
            _ => {}
        }
    }
    let len = width * height * channels;
    (width as u32, height as u32, channels, d[offset..offset + len].to_vec())
}

/// Writes a flat-colour RGB PNG.
pub fn write_flat_png(path: &Path, width: u32, height: u32, rgb: [u8; 3]) {
    write_png(path, width, height, png::ColorType::Rgb, &rgb.repeat((width * height) as usize));
}

/// The next of a xorshift sequence: noise that is the same on every run.
pub fn xorshift(seed: &mut u32) -> u32 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 17;
    *seed ^= *seed << 5;
    *seed
}

/// What one run of deckpress under strace did, as the kernel saw it.
#[cfg(target_os = "linux")]
pub struct Traced {
    /// The exit status; `None` when a signal ended it (or the timeout did).
    pub code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    /// Every path opened, read or written, as an absolute path.
    pub opened: Vec<String>,
    /// Every path opened to read (or listed), absolute, `..` resolved.
    pub reads: Vec<PathBuf>,
    /// Every path created, opened to write, renamed, linked or removed, and the call.
    pub writes: Vec<(String, PathBuf)>,
    /// Programs it started (besides deckpress itself).
    pub execs: Vec<PathBuf>,
    /// Peak resident memory of the process tree, in MB (wait4's ru_maxrss).
    pub peak_mb: f64,
    /// User and system CPU time of the process tree.
    pub cpu: std::time::Duration,
}

/// How long and how much memory a traced run may take.
#[cfg(target_os = "linux")]
pub struct Bounds {
    pub timeout: std::time::Duration,
    /// Its address space (RLIMIT_AS): an allocation past it fails, so a memory bomb shows
    /// as an abort, not as the machine swapping.
    pub address_space: u64,
    /// Variables set in its environment (a stranger's environment is input too).
    pub env: Vec<(String, String)>,
}

#[cfg(target_os = "linux")]
impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            timeout: std::time::Duration::from_secs(30),
            address_space: 4 << 30,
            env: Vec::new(),
        }
    }
}

/// The calls strace reports: every way to open, create, rename, link or remove a path.
#[cfg(target_os = "linux")]
const TRACED_CALLS: &str = "trace=execve,open,openat,openat2,creat,rename,renameat,renameat2,\
link,linkat,symlink,symlinkat,mkdir,mkdirat,unlink,unlinkat,rmdir,truncate";

/// `traced_within` with the default bounds, failing the test on a hang.
#[cfg(target_os = "linux")]
pub fn traced(args: &[&str], cwd: &Path) -> Traced {
    let run = traced_within(args, cwd, &Bounds::default());
    assert!(!run.timed_out, "deckpress {args:?} hung for {:?}", Bounds::default().timeout);
    run
}

/// Runs deckpress under strace (installed by .ci/run) in a process group of its own, with
/// its address space capped, killing the group after `bounds.timeout`; reaped with wait4
/// for the peak memory and CPU time of the whole tree.
#[cfg(target_os = "linux")]
pub fn traced_within(args: &[&str], cwd: &Path, bounds: &Bounds) -> Traced {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::time::{Duration, Instant};
    let log = tempfile::NamedTempFile::new().unwrap();
    let out = tempfile::NamedTempFile::new().unwrap();
    let err = tempfile::NamedTempFile::new().unwrap();
    let mut command = Command::new("strace");
    // -y names each descriptor's path, -xx writes every string in hex: paths with any byte
    // read back exactly; --seccomp-bpf stops the process only at the traced calls.
    command
        .args(["-f", "-qq", "-y", "-xx", "--seccomp-bpf", "-e", TRACED_CALLS, "-o"])
        .arg(log.path())
        .arg(env!("CARGO_BIN_EXE_deckpress"))
        .args(args)
        .current_dir(cwd)
        // cargo test points the loader at its own folders; deckpress needs none of them,
        // and without them the loader opens only the system's libraries.
        .env_remove("LD_LIBRARY_PATH")
        .envs(bounds.env.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::null())
        .stdout(out.reopen().unwrap())
        .stderr(err.reopen().unwrap());
    let cap = bounds.address_space;
    // SAFETY: setpgid and setrlimit are async-signal-safe calls on the child's own state.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: cap, rlim_max: cap };
            if libc::setpgid(0, 0) != 0 || libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    // Reaped by wait4 below, which std's `wait` would not give the rusage of.
    #[allow(clippy::zombie_processes)]
    let child = command
        .spawn()
        .unwrap_or_else(|e| panic!("strace is needed (apt-get install strace): {e}"));
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct, which wait4 fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: polls our own child, writing into the two locals above.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        assert_eq!(done, 0, "wait4: {}", std::io::Error::last_os_error());
        if !timed_out && started.elapsed() > bounds.timeout {
            timed_out = true;
            // SAFETY: kills the process group the child made (strace and deckpress).
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = std::process::ExitStatus::from_raw(status);
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    let log = std::fs::read(log.path()).unwrap();
    let calls = trace::calls(&String::from_utf8_lossy(&log), cwd);
    let mut run = Traced {
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stdout: String::from_utf8_lossy(&std::fs::read(out.path()).unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&std::fs::read(err.path()).unwrap()).into_owned(),
        opened: Vec::new(),
        reads: Vec::new(),
        writes: Vec::new(),
        execs: Vec::new(),
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
    };
    let mut first_exec = true;
    for call in calls {
        match call.access {
            trace::Access::Exec if std::mem::take(&mut first_exec) => {}
            trace::Access::Exec => run.execs.push(call.path),
            trace::Access::Read => {
                run.opened.push(call.path.to_string_lossy().into_owned());
                run.reads.push(call.path);
            }
            trace::Access::Write => {
                if call.name.starts_with("open") || call.name == "creat" {
                    run.opened.push(call.path.to_string_lossy().into_owned());
                }
                run.writes.push((call.name, call.path));
            }
        }
    }
    run
}

/// Reading strace's log (`-y -xx`): which call touched which path, and how.
#[cfg(target_os = "linux")]
pub mod trace {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    use std::path::{Component, Path, PathBuf};

    #[derive(Debug, Clone, Copy, PartialEq)]
    pub enum Access {
        Read,
        Write,
        Exec,
    }

    #[derive(Debug)]
    pub struct Call {
        pub name: String,
        pub access: Access,
        /// Absolute, `..` and `.` resolved by their names.
        pub path: PathBuf,
    }

    /// `\x2f\x74…` as bytes.
    fn unhex(text: &str) -> Vec<u8> {
        text.split("\\x")
            .filter(|h| !h.is_empty())
            .map(|h| u8::from_str_radix(&h[..2], 16).expect("strace -xx writes \\xNN"))
            .collect()
    }

    /// `path` made absolute from `base`, its `.` and `..` resolved by name.
    fn absolute(base: &Path, path: Vec<u8>) -> PathBuf {
        let path = PathBuf::from(OsString::from_vec(path));
        let mut clean = PathBuf::from("/");
        for part in base.join(path).components() {
            match part {
                Component::ParentDir => {
                    clean.pop();
                }
                Component::Normal(p) => clean.push(p),
                _ => {}
            }
        }
        clean
    }

    /// Every path of every traced call in the log; a relative path with no descriptor
    /// before it is relative to `cwd` (deckpress never changes folder).
    pub fn calls(log: &str, cwd: &Path) -> Vec<Call> {
        let mut calls = Vec::new();
        for line in log.lines() {
            // "PID name(args) = result", or "PID name(args <unfinished ...>"; a resumed
            // call's second half holds no path.
            // strace pads the process id to five places: "123   openat(", "12345 openat(".
            let Some((_, rest)) = line.split_once(' ') else { continue };
            let Some((name, args)) = rest.trim_start().split_once('(') else { continue };
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let args = args.split(") = ").next().unwrap();
            let args = args.split(" <unfinished").next().unwrap();
            // Strings in order, each with the descriptor's folder written just before it.
            let mut paths: Vec<PathBuf> = Vec::new();
            let mut folder: Option<PathBuf> = None;
            let mut rest = args;
            while let Some(at) = rest.find(['"', '<']) {
                let open = rest.as_bytes()[at] as char;
                let close = if open == '"' { '"' } else { '>' };
                let end = at + 1 + rest[at + 1..].find(close).expect("closed");
                let bytes = unhex(&rest[at + 1..end]);
                if open == '<' {
                    folder = Some(absolute(Path::new("/"), bytes));
                } else {
                    let base = folder.take().unwrap_or_else(|| cwd.to_path_buf());
                    paths.push(absolute(&base, bytes));
                }
                rest = &rest[end + 1..];
            }
            let flags = args;
            let writes_to = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"];
            let mut push = |access, path: &PathBuf| {
                calls.push(Call { name: name.to_string(), access, path: path.clone() });
            };
            match name {
                "execve" => paths.first().into_iter().for_each(|p| push(Access::Exec, p)),
                "open" | "openat" | "openat2" => {
                    let access = if writes_to.iter().any(|f| flags.contains(f)) {
                        Access::Write
                    } else if flags.contains("O_PATH") {
                        continue; // a handle to the name alone, no content read
                    } else {
                        Access::Read
                    };
                    paths.first().into_iter().for_each(|p| push(access, p));
                }
                // The target of a symbolic link is its content, not a path touched.
                "symlink" | "symlinkat" => {
                    paths.last().into_iter().for_each(|p| push(Access::Write, p))
                }
                "link" | "linkat" => {
                    paths.first().into_iter().for_each(|p| push(Access::Read, p));
                    paths.get(1).into_iter().for_each(|p| push(Access::Write, p));
                }
                _ => paths.iter().for_each(|p| push(Access::Write, p)),
            }
        }
        calls
    }
}

/// `deckpress watch` running in the background with its output in a log, killed when the
/// test ends, passing or not.
pub struct Watching {
    child: std::process::Child,
    log: PathBuf,
}

impl Watching {
    /// `deckpress watch ARGS`, with `DECKPRESS_DEBUG=debug` when given, logging to `log`.
    pub fn start(args: &[&str], debug: Option<&str>, log: PathBuf) -> Self {
        let file = std::fs::File::create(&log).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_deckpress"));
        command.arg("watch").args(args);
        if let Some(debug) = debug {
            command.env("DECKPRESS_DEBUG", debug);
        }
        let child = command
            .stdin(std::process::Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .unwrap();
        Self { child, log }
    }

    /// Everything the watcher printed so far.
    pub fn said(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Polls `ready` every 50 ms; after `limit` the test fails with what watch said.
    pub fn wait_for(
        &self,
        what: &str,
        limit: std::time::Duration,
        mut ready: impl FnMut() -> bool,
    ) {
        let start = std::time::Instant::now();
        while !ready() {
            if start.elapsed() > limit {
                panic!(
                    "timed out after {limit:?} waiting for {what}; watch said:\n{}",
                    self.said()
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Stops the watcher, so that its log is whole.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Every file under `root`, at any depth (not the folders).
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                todo.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// Debian's Chromium, or `None` (with a printed reason: `what` is not checked in a
/// browser) on a developer machine without it. CI installs it (.ci/run), so there its
/// absence is a failure, not a skip.
pub fn chromium(what: &str) -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin/chromium");
    if path.is_file() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!("/usr/bin/chromium is missing; CI must install it (apt-get install chromium, see .ci/run)");
    }
    eprintln!("SKIPPED: /usr/bin/chromium is not installed, so {what} is not checked in a browser (apt-get install chromium)");
    None
}
