//! A stranger's catalogue, round three (issue 41): nothing read outside the catalogue,
//! no hang on a pipe, no unbounded work. Every file deckpress opens is seen with strace,
//! so "nothing read outside" is what the kernel saw, not what our code thinks it did.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::common::*;

/// Paths deckpress opened under `dir` (absolute, or relative to `cwd`).
fn opened_under(run: &Traced, cwd: &Path, dir: &Path) -> Vec<String> {
    let dir = dir.canonicalize().unwrap();
    run.opened
        .iter()
        .filter(|p| {
            let path = cwd.join(p);
            path.starts_with(&dir)
                || path.canonicalize().is_ok_and(|real| real.starts_with(&dir))
                || p.starts_with("/dev/zero")
        })
        .cloned()
        .collect()
}

/// A folder outside every catalogue, holding what a stranger would like us to read.
fn secret() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_flat_png(&dir.path().join("secret.png"), 8, 8, [255, 0, 0]);
    std::fs::write(dir.path().join("passwd"), "root:x:0:0:SECRET-LINE\n").unwrap();
    dir
}

fn add_to(cat: &Path, file: &str, text: &str) {
    let path = cat.join(file);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    std::fs::write(path, old + text).unwrap();
}

#[test]
fn an_svg_icon_or_art_never_opens_the_images_it_links_to_outside() {
    let secret = secret();
    let s = secret.path().to_str().unwrap();
    let links = format!(
        "<image href=\"{s}/secret.png\" width=\"4\" height=\"4\"/>\
         <image href=\"file://{s}/secret.png\" width=\"4\" height=\"4\"/>\
         <image href=\"../../../../../../../../{s}/secret.png\" width=\"4\" height=\"4\"/>\
         <image href=\"/dev/zero\" width=\"4\" height=\"4\"/>"
    );
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\" viewBox=\"0 0 10 10\"><rect width=\"10\" height=\"10\"/>{links}</svg>"
    );
    let (guard, cat) = new_game();
    std::fs::create_dir(cat.join("art")).unwrap();
    std::fs::write(cat.join("art/coin.svg"), &svg).unwrap();
    std::fs::write(cat.join("art/badge.svg"), &svg).unwrap();
    add_to(&cat, "game.toml", "\n[icons]\ncoin = \"art/coin.svg\"\n");
    // The badge is art a card template draws; the coin an icon its text prints.
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "<image href=\"art/badge.svg\" x=\"40\" y=\"40\" width=\"40\" height=\"40\"/><circle",
    );
    edit(&cat, "templates/face.svg", "{{ card.suit }}</text>", "{{ card.suit }}</text>{{ textbox(\"{coin} \" ~ card.title, x=100, y=760, width=400, size=30) }}");
    let root = guard.path();
    let out = root.join("out");
    for args in [
        vec!["validate", cat.to_str().unwrap()],
        vec!["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()],
        vec!["preview", cat.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"],
        vec!["build", cat.to_str().unwrap(), "--colour", "cmyk", "--out", out.to_str().unwrap()],
    ] {
        let run = traced(&args, root);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        assert!(
            run.code == Some(0) || run.code == Some(1),
            "{args:?}: {:?}\n{}",
            run.code,
            run.stderr
        );
        let read = opened_under(&run, root, secret.path());
        assert!(read.is_empty(), "{args:?} opened {read:?}");
    }
}

/// Makes a case of a catalogue.
type Setup<'a> = dyn Fn(&Path) + 'a;

#[test]
fn a_pipe_or_device_anywhere_is_an_error_at_once_never_a_hang() {
    let fifo = |path: &Path| {
        let _ = std::fs::remove_file(path);
        let made = Command::new("mkfifo").arg(path).status().unwrap();
        assert!(made.success());
    };
    let cases: [(&str, &Setup<'_>); 4] = [
        ("cards.csv", &|cat: &Path| fifo(&cat.join("cards.csv"))),
        ("templates/face.svg", &|cat: &Path| fifo(&cat.join("templates/face.svg"))),
        ("art/pipe.png", &|cat: &Path| {
            std::fs::create_dir_all(cat.join("art")).unwrap();
            fifo(&cat.join("art/pipe.png"));
            edit(
                cat,
                "templates/face.svg",
                "<circle",
                "<image href=\"art/pipe.png\" x=\"0\" y=\"0\" width=\"9\" height=\"9\"/><circle",
            );
        }),
        ("art/coin.png", &|cat: &Path| {
            std::fs::create_dir_all(cat.join("art")).unwrap();
            fifo(&cat.join("art/coin.png"));
            add_to(cat, "game.toml", "\n[icons]\ncoin = \"art/coin.png\"\n");
        }),
    ];
    for (file, make) in cases {
        let (guard, cat) = new_game();
        make(&cat);
        let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
        assert_eq!(run.code, Some(1), "{file}: {}", run.stderr);
        assert!(run.stderr.contains("not a regular file"), "{file}: {}", run.stderr);
        assert!(run.stderr.contains(file), "{file}: {}", run.stderr);
    }
    // A printer's profile given on the command line.
    let (guard, cat) = new_game();
    let icc = guard.path().join("press.icc");
    fifo(&icc);
    let run = traced(
        &["validate", cat.to_str().unwrap(), "--colour", "cmyk", "--icc", icc.to_str().unwrap()],
        guard.path(),
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
}

#[test]
fn a_symlinked_folder_leading_outside_is_refused_before_it_is_listed() {
    let secret = secret();
    std::fs::copy(
        repo()
            .join("fonts")
            .read_dir()
            .unwrap()
            .flatten()
            .find(|e| e.path().extension().is_some_and(|x| x == "ttf"))
            .unwrap()
            .path(),
        secret.path().join("Stranger.ttf"),
    )
    .unwrap();
    for link in ["fonts", "templates/parts"] {
        let (guard, cat) = new_game();
        std::os::unix::fs::symlink(secret.path(), cat.join(link)).unwrap();
        let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        let read = opened_under(&run, guard.path(), secret.path());
        assert!(read.is_empty(), "{link}: opened {read:?}");
    }
}

#[test]
fn changed_since_copies_no_link_out_of_an_earlier_preview() {
    let secret = secret();
    let (guard, cat) = new_game();
    let root = guard.path();
    let old = root.join("old");
    let run =
        deckpress(&["preview", cat.to_str().unwrap(), "--out", old.to_str().unwrap(), "-q"], root);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let gallery = old.join("game/preview");
    // Its sheets folder and one card's picture lead outside.
    let _ = std::fs::remove_dir_all(gallery.join("sheets"));
    std::os::unix::fs::symlink(secret.path(), gallery.join("sheets")).unwrap();
    std::fs::write(secret.path().join("leak.png"), "SECRET-LINE").unwrap();
    let card = files_of(&gallery)
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with(".png") && !p.starts_with(gallery.join("sheets")))
        .expect("a card picture");
    std::fs::remove_file(&card).unwrap();
    std::os::unix::fs::symlink(secret.path().join("passwd"), &card).unwrap();
    let new = root.join("new");
    let run = traced(
        &[
            "preview",
            cat.to_str().unwrap(),
            "--out",
            new.to_str().unwrap(),
            "--changed-since",
            old.to_str().unwrap(),
            "-q",
        ],
        root,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    for file in files_of(&new) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("SECRET-LINE"), "{}", file.display());
    }
    let read = opened_under(&run, root, secret.path());
    assert!(read.is_empty(), "opened {read:?}");
}

fn files_of(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                todo.push(entry.path());
            } else if kind.is_file() {
                files.push(entry.path());
            }
        }
    }
    files
}

/// Each of these asks for unbounded work; each is a clear error at its line, at once.
#[test]
fn unbounded_template_work_is_an_error_at_its_line() {
    for (what, from, to, expected) in [
        (
            "a huge textbox size",
            "{{ card.title }}</text>",
            "</text>{{ textbox(card.title, x=0, y=0, width=100, size=1000000000.0) }}",
            "textbox size=1000000000 is beyond any page",
        ),
        (
            "an infinite textbox size",
            "{{ card.title }}</text>",
            "</text>{{ textbox(card.title, x=0, y=0, width=100, size=10.0 ** 400) }}",
            "textbox size=inf is beyond any page",
        ),
        (
            "a shrink without end",
            "{{ card.title }}</text>",
            "</text>{{ textbox(card.title, x=0, y=0, width=100, size=90000.0, min_size=0.01) }}",
            "would try more than 2000 sizes",
        ),
        (
            "a where list of 100,000 values",
            "{{ card.suit }}</text>",
            "{{ count(where={\"value\": range(100000) | list}) }}</text>",
            "`where` lists more than 1000 values of `value`",
        ),
    ] {
        let (guard, cat) = new_game();
        edit(&cat, "templates/face.svg", from, to);
        let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
        assert_eq!(run.code, Some(1), "{what}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{what}: {}", run.stderr);
        let line = line_of(
            &cat,
            "templates/face.svg",
            to.trim_start_matches("</text>").split(" }}").next().unwrap(),
        );
        assert!(run.stderr.contains(&format!("face.svg:{line}:")), "{what}: {}", run.stderr);
    }
}

#[test]
fn a_sum_past_the_largest_number_is_an_error_not_a_wrapped_number() {
    let (guard, cat) = new_game();
    edit(&cat, "cards.csv", "sun-2,1,Sun,2,", "sun-2,1,Sun,9223372036854775807,");
    edit(&cat, "cards.csv", "sun-3,2,Sun,3,", "sun-3,2,Sun,9223372036854775800,");
    edit(
        &cat,
        "templates/face.svg",
        "{{ card.suit }}</text>",
        "{{ card.suit }} {{ sum(field=\"value\") }}</text>",
    );
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("the sum of `value` is too large to print"), "{}", run.stderr);
    assert!(!run.stderr.contains("-92233720368547"), "{}", run.stderr);
}

#[test]
fn a_gzipped_svg_with_an_entity_bomb_is_refused_from_its_inflated_text() {
    use std::io::Write;
    let (guard, cat) = new_game();
    let bomb = "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\"><!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">]><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><text>&h;</text></svg>";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bomb.as_bytes()).unwrap();
    std::fs::create_dir(cat.join("art")).unwrap();
    std::fs::write(cat.join("art/bomb.svgz"), gz.finish().unwrap()).unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "<image href=\"art/bomb.svgz\" x=\"0\" y=\"0\" width=\"9\" height=\"9\"/><circle",
    );
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("DOCTYPE or entities is refused"), "{}", run.stderr);
}

/// `cards.xlsx` (the fixture) rewritten: `change` gets each part's name and bytes, and may
/// change them; `extra` parts are added.
fn workbook(cat: &Path, change: impl Fn(&str, Vec<u8>) -> Vec<u8>, extra: &[(&str, Vec<u8>)]) {
    use std::io::{Read, Write};
    let bytes = std::fs::read(repo().join("tests/fixtures/cards.xlsx")).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1));
    for i in 0..archive.len() {
        let mut part = archive.by_index(i).unwrap();
        let name = part.name().unwrap().into_owned();
        let mut data = Vec::new();
        part.read_to_end(&mut data).unwrap();
        out.start_file(name.as_str(), options).unwrap();
        out.write_all(&change(&name, data)).unwrap();
    }
    for (name, data) in extra {
        out.start_file(*name, options.large_file(data.len() > u32::MAX as usize)).unwrap();
        out.write_all(data).unwrap();
    }
    std::fs::write(cat.join("cards.xlsx"), out.finish().unwrap().into_inner()).unwrap();
    edit(cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.xlsx\"\nsheet = \"cards\"");
}

#[test]
fn a_workbook_that_would_exhaust_memory_is_refused_in_bounded_memory() {
    // The fixture reads (the control), then with a cell at the sheet's last column and row,
    // then with a part that inflates past what any table of cards needs.
    let (guard, cat) = new_game();
    workbook(&cat, |_, data| data, &[]);
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert!(!run.stderr.contains("cannot be read"), "{}", run.stderr);
    let (guard, cat) = new_game();
    let far = |name: &str, data: Vec<u8>| {
        match name {
        "xl/worksheets/sheet1.xml" => String::from_utf8(data)
            .unwrap()
            .replace("</sheetData>", "<row r=\"1048576\"><c r=\"XFD1048576\" t=\"inlineStr\"><is><t>x</t></is></c></row></sheetData>")
            .into_bytes(),
        _ => data,
    }
    };
    workbook(&cat, far, &[]);
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("reaches XFD1048576") || run.stderr.contains("cards!XFD1048576"),
        "{}",
        run.stderr
    );
    let (guard, cat) = new_game();
    workbook(&cat, |_, data| data, &[("xl/media/padding.bin", vec![0u8; 300 << 20])]);
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("inflates past 256 MB"), "{}", run.stderr);
}

/// An OpenDocument spreadsheet of the starter game's cards, with `more` rows after them.
fn open_document(cat: &Path, more: &str) {
    use std::io::Write;
    let cell = |v: &str| {
        format!("<table:table-cell office:value-type=\"string\"><text:p>{v}</text:p></table:table-cell>")
    };
    let csv = std::fs::read_to_string(cat.join("cards.csv")).unwrap();
    let rows: String = csv
        .lines()
        .map(|line| {
            format!(
                "<table:table-row>{}</table:table-row>",
                line.split(',').map(cell).collect::<String>()
            )
        })
        .collect();
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="cards">{rows}{more}</table:table></office:spreadsheet></office:body></office:document-content>"#
    );
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    out.start_file("mimetype", stored).unwrap();
    out.write_all(b"application/vnd.oasis.opendocument.spreadsheet").unwrap();
    out.start_file("META-INF/manifest.xml", stored).unwrap();
    out.write_all(br#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#).unwrap();
    out.start_file("content.xml", stored).unwrap();
    out.write_all(content.as_bytes()).unwrap();
    std::fs::write(cat.join("cards.ods"), out.finish().unwrap().into_inner()).unwrap();
    edit(cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.ods\"\nsheet = \"cards\"");
}

#[test]
fn an_open_document_sheet_repeated_past_any_deck_is_refused_before_it_is_laid_out() {
    // The cards as an .ods read (the control); then a row repeated 5,000 times and a value
    // 16,000 columns out: 80 million cells, which took 72 s and 5 GB.
    let (guard, cat) = new_game();
    open_document(&cat, "");
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let (guard, cat) = new_game();
    open_document(
        &cat,
        r#"<table:table-row table:number-rows-repeated="5000"><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell table:number-columns-repeated="16000"/><table:table-cell office:value-type="string"><text:p>y</text:p></table:table-cell></table:table-row>"#,
    );
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("sheet `cards` reaches cards!WQK5008"), "{}", run.stderr);
}

#[test]
fn a_font_collection_claiming_four_billion_fonts_is_no_font() {
    let (guard, cat) = new_game();
    std::fs::create_dir(cat.join("fonts")).unwrap();
    let mut ttc = b"ttcf\x00\x01\x00\x00\xff\xff\xff\xff".to_vec();
    ttc.extend_from_slice(&[0; 64]);
    std::fs::write(cat.join("fonts/huge.ttc"), ttc).unwrap();
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("`fonts/huge.ttc` is not a font deckpress can read"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_length_past_any_page_reads_as_too_large() {
    let (guard, cat) = new_game();
    edit(&cat, "game.toml", "width = \"63mm\"", "width = \"1e308mm\"");
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("`1e308mm` is a length too large"), "{}", run.stderr);
    assert!(!run.stderr.contains("unknown unit"), "{}", run.stderr);
}

#[test]
fn control_characters_from_data_never_reach_the_terminal() {
    let (guard, cat) = new_game();
    // Two cards with one id holding an escape sequence that would turn the terminal red.
    edit(&cat, "cards.csv", "sun-1,", "\"evil\u{1b}[31mRED\",");
    edit(&cat, "cards.csv", "sun-2,", "\"evil\u{1b}[31mRED\",");
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
    assert!(run.stderr.contains("card id `evil\\u{1b}[31mRED` is used twice"), "{}", run.stderr);
}

#[test]
fn svg_art_that_links_to_a_picture_is_said_not_dropped() {
    let (guard, cat) = new_game();
    std::fs::create_dir(cat.join("art")).unwrap();
    write_flat_png(&cat.join("art/photo.png"), 40, 40, [200, 30, 30]);
    std::fs::write(cat.join("art/badge.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image href=\"photo.png\" width=\"10\" height=\"10\"/></svg>").unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "<image href=\"art/badge.svg\" x=\"40\" y=\"40\" width=\"90\" height=\"90\"/><circle",
    );
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "image `art/badge.svg` links to `photo.png`, which an SVG drawn as art never draws"
        ),
        "{}",
        run.stderr
    );
}

/// The version every PDF of a built game says it is of (its Subject), and the temporary
/// files anywhere under `out`.
fn versions_and_leftovers(out: &Path) -> (Vec<String>, Vec<PathBuf>) {
    let all = files_of(out);
    let mut versions: Vec<String> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .map(|pdf| {
            let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
            info.lines()
                .find_map(|l| l.strip_prefix("Subject:"))
                .and_then(|s| s.split("version ").nth(1))
                .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
                .unwrap_or_default()
        })
        .collect();
    versions.sort();
    versions.dedup();
    let leftovers = all
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(".deckpress-"))
        .collect();
    (versions, leftovers)
}

fn set_version(cat: &Path, version: &str) {
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    let start = toml.find("\nversion = ").map(|i| i + 1);
    let toml = match start {
        Some(i) => {
            let end = i + toml[i..].find('\n').unwrap();
            format!("{}version = \"{version}\"{}", &toml[..i], &toml[end..])
        }
        None => toml.replacen("[game]\n", &format!("[game]\nversion = \"{version}\"\n"), 1),
    };
    std::fs::write(cat.join("game.toml"), toml).unwrap();
}

#[test]
fn kill_9_during_a_build_leaves_nothing_behind_once_built_again() {
    let (guard, cat) = copy_catalogue("trash");
    let out = guard.path().join("out");
    let build = |version: &str| {
        set_version(&cat, version);
        Command::new(env!("CARGO_BIN_EXE_deckpress"))
            .args(["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut started = build("1");
    assert!(started.wait().unwrap().success());
    // Killed at points spread over a build: drawing, writing, committing.
    let took = {
        let at = Instant::now();
        assert!(build("2").wait().unwrap().success());
        at.elapsed()
    };
    for trial in 0..8u32 {
        let mut child = build(&format!("k{trial}"));
        std::thread::sleep(took * trial / 8);
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
    }
    // A build that fails at drawing cleans up too, before it fails: here a temporary
    // file of a process that is gone (Linux process ids stay below 2^22).
    std::fs::write(out.join("trash/.deckpress-4194999-orphan.tmp"), b"x").unwrap();
    let aid = std::fs::read_to_string(cat.join("aid.csv")).unwrap();
    std::fs::write(cat.join("aid.csv"), aid.replacen("Trash", "{{ no_such_function() }}", 1))
        .unwrap();
    let mut failing = build("broken");
    assert!(!failing.wait().unwrap().success());
    let (_, leftovers) = versions_and_leftovers(&out);
    assert!(leftovers.is_empty(), "a failed build left the leftovers: {leftovers:?}");
    std::fs::write(cat.join("aid.csv"), aid).unwrap();
    let mut again = build("final");
    assert!(again.wait().unwrap().success());
    let (versions, leftovers) = versions_and_leftovers(&out);
    assert_eq!(versions, vec!["final".to_string()]);
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}

#[test]
fn builds_at_once_into_one_folder_leave_each_game_one_version() {
    for round in 0..3 {
        let (guard, cat) = copy_catalogue("trash");
        let out = guard.path().join("out");
        // Four catalogues of four versions, built at once into one output folder.
        let copies: Vec<PathBuf> = (0..4)
            .map(|i| {
                let copy = guard.path().join(format!("v{i}")).join("trash");
                copy_dir(&cat, &copy);
                set_version(&copy, &format!("r{round}c{i}"));
                copy
            })
            .collect();
        let children: Vec<_> = copies
            .iter()
            .map(|copy| {
                Command::new(env!("CARGO_BIN_EXE_deckpress"))
                    .args(["build", copy.to_str().unwrap(), "--out", out.to_str().unwrap()])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
        let (versions, leftovers) = versions_and_leftovers(&out);
        assert_eq!(versions.len(), 1, "round {round}: a game of several versions: {versions:?}");
        assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
    }
}

#[test]
fn a_coordinate_no_pdf_can_hold_is_an_error_at_its_number() {
    let (guard, cat) = new_game();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "<path d=\"M 0 0 L 10000000000000000000 10 L 5 300 Z\"/><circle",
    );
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("m off the piece, which no PDF can hold"), "{}", run.stderr);
    let line = line_of(&cat, "templates/face.svg", "10000000000000000000");
    assert!(run.stderr.contains(&format!("face.svg:{line}:")), "{}", run.stderr);
}

#[test]
fn a_header_of_a_hundred_thousand_unknown_columns_is_a_short_report() {
    let (guard, cat) = new_game();
    let columns: Vec<String> = (0..100_000).map(|i| format!("x{i}")).collect();
    edit(
        &cat,
        "cards.csv",
        "id,qty,suit,value,title",
        &format!("id,qty,suit,value,title,{}", columns.join(",")),
    );
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", &run.stderr[..run.stderr.len().min(2000)]);
    assert!(run.stderr.len() < 100_000, "{} bytes of messages", run.stderr.len());
    assert!(run.stderr.contains("unknown column `x0`"), "{}", &run.stderr[..2000]);
    assert!(
        run.stderr.contains("cards.csv:1:25 (a line too long to show)"),
        "{}",
        &run.stderr[..2000]
    );
}

/// A query that matches nothing, printed on every card of a large deck of distinct cards,
/// is one clear error at once: what is said about it was worked out again for every card,
/// each time looking through every card (20,000 cards took 103 s).
#[test]
fn a_query_matching_nothing_on_every_card_of_a_large_deck_is_said_at_once() {
    let (guard, cat) = new_game();
    let mut rows = String::from("id,qty,suit,value,title\n");
    for i in 0..5_000 {
        rows.push_str(&format!(
            "c{i},1,{},{},Dusk {i}\n",
            if i % 2 == 0 { "Sun" } else { "Moon" },
            i % 9 + 1
        ));
    }
    std::fs::write(cat.join("cards.csv"), rows).unwrap();
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(cat.join("game.toml"), &toml[..toml.find("# The deck's composition").unwrap()])
        .unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "{{ card.suit }}</text>",
        "{{ card.suit }} {{ count(where={\"title\": \"Dwan\"}) }}</text>",
    );
    let run = traced(&["validate", cat.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("`where` matches no card"), "{}", run.stderr);
}

/// A build killed with kill -9 and a build started at once, before the killed one's
/// parent has reaped it: the killed writer's staged files go. Its process id was still in
/// /proc (a zombie) and its files were kept; its locks the kernel let go when it died.
#[test]
fn kill_9_then_a_build_at_once_leaves_nothing() {
    let (guard, cat) = copy_catalogue("trash");
    let out = guard.path().join("out");
    let build = || {
        Command::new(env!("CARGO_BIN_EXE_deckpress"))
            .args(["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    assert!(build().wait().unwrap().success());
    for trial in 0..3 {
        let mut child = build();
        // Killed once it has a staged file on the disk.
        let started = Instant::now();
        while versions_and_leftovers(&out).1.is_empty() {
            assert!(started.elapsed().as_secs() < 60, "no staged file seen");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        // SAFETY: sends SIGKILL to our own child, not yet reaped.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) };
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(build().wait().unwrap().success());
        let (versions, leftovers) = versions_and_leftovers(&out);
        let _ = child.wait();
        assert!(leftovers.is_empty(), "trial {trial}: left behind: {leftovers:?}");
        assert_eq!(versions.len(), 1, "{versions:?}");
    }
}

/// A build that finds its game's folder locked by another says so at once, names the
/// holder, and gives up after `--limit lock-seconds` with exit 2 (it waited for ever,
/// without a word).
#[test]
fn a_build_waiting_for_another_s_lock_says_so_and_gives_up_in_time() {
    let (guard, cat) = new_game();
    let out = guard.path().join("out");
    std::fs::create_dir_all(out.join("game")).unwrap();
    let held = std::fs::File::open(out.join("game")).unwrap();
    held.lock().unwrap();
    let args = ["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()];
    let started = Instant::now();
    let run = traced(&[&args[..], &["--limit", "lock-seconds=2"]].concat(), guard.path());
    let took = started.elapsed();
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let waiting = format!("waiting for another build that holds {}", out.join("game").display());
    assert!(run.stderr.contains(&waiting), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("(process {})", std::process::id())),
        "names the holder: {}",
        run.stderr
    );
    assert!(run.stderr.contains("still holds the folder after 2 s"), "{}", run.stderr);
    assert!(took.as_secs_f64() < 15.0, "gave up after {took:?}");
    drop(held);
    let run = traced(&args, guard.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!run.stderr.contains("waiting"), "{}", run.stderr);
}

/// A word of 3,000 letters in rules.md, and a heading of one long word: broken between
/// letters to the page's width, every letter printed inside the page (56 were).
#[test]
fn a_word_wider_than_the_page_is_broken_and_printed_whole() {
    let (guard, cat) = new_game();
    let word: String = "abcdefghij".repeat(300);
    let heading: String = "Longheading".repeat(20);
    let rules = format!("# {heading}\n\nPlay {{{{ game.name }}}}: {word} and so on.\n");
    std::fs::write(cat.join("rules.md"), rules).unwrap();
    let out = guard.path().join("out");
    let run =
        traced(&["rules", cat.to_str().unwrap(), "--out", out.to_str().unwrap()], guard.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let pdf = out.join("game/game-rules-a4.pdf");
    // Cropped to the page: what runs off it is not extracted.
    let text = poppler("pdftotext", &["-nopgbrk", pdf.to_str().unwrap(), "-"]);
    let letters: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(letters.contains(&word), "the whole word, in {} letters: {text}", letters.len());
    assert!(letters.contains(&heading), "the whole heading: {text}");
}

/// What the rulebook's typesetter drew off the page, exit 0: a table of 12 columns of long
/// words (its last columns), a list 40 levels deep (off the right edge). Now each is
/// narrowed or broken to the page, and every word is on it; a cell taller than a page is
/// an error naming its table and row.
#[test]
fn rulebook_tables_and_lists_fit_the_page_or_are_refused() {
    let (guard, cat) = new_game();
    let columns: Vec<String> = (0..12).map(|c| format!("Column{c:02}heading")).collect();
    let row: Vec<String> = (0..12).map(|c| format!("cellword{c:02}xxxxxxxxxxxx")).collect();
    let mut rules = format!(
        "# Rules\n\n| {} |\n|{}\n| {} |\n\n",
        columns.join(" | "),
        "---|".repeat(12),
        row.join(" | ")
    );
    for depth in 0..40 {
        rules.push_str(&format!("{}- level{depth:02}item\n", "  ".repeat(depth)));
    }
    std::fs::write(cat.join("rules.md"), &rules).unwrap();
    let out = guard.path().join("out");
    let args = ["rules", cat.to_str().unwrap(), "--out", out.to_str().unwrap()];
    let run = traced(&args, guard.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let pdf = out.join("game/game-rules-a4.pdf");
    let text = poppler("pdftotext", &["-nopgbrk", pdf.to_str().unwrap(), "-"]);
    let letters: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    // A broken word's pieces are read back column by column: every letter is counted.
    let table: usize = columns.iter().chain(&row).map(|w| w.chars().count()).sum();
    let list: usize = (0..40).map(|d| format!("level{d:02}item").len() + 1).sum();
    let on_page = letters.chars().count();
    assert!(on_page >= "Rules".len() + table + list, "{on_page} letters on the page: {text}");
    assert_eq!(text.matches("cellwo").count(), 12, "every column's cell: {text}");
    for depth in 0..40 {
        assert!(letters.contains(&format!("level{depth:02}item")), "level {depth}: {text}");
    }
    // A cell of some 300 lines.
    let tall = vec!["line"; 4000].join(" ");
    let rules = format!("# Rules\n\n| Name | Text |\n|---|---|\n| big | {tall} |\n");
    std::fs::write(cat.join("rules.md"), rules).unwrap();
    let run = traced(&args, guard.path());
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("a row of the table headed `Name | Text` (its row 1, `big | line"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("rules.md:3:1"), "at the table's header: {}", run.stderr);
    assert!(!run.stderr.contains("runaway"), "{}", run.stderr);
}
