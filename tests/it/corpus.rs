//! The stranger corpus (issue 41): hostile catalogues, several variants of each class the
//! issue names, each run as a user would under strace, a timeout and a memory cap.
//! Every case must end in the exit status and words it expects (a clear error, or a
//! correct result), never a panic, an abort or a signal; and the kernel must have seen no
//! file read outside the catalogue (and the paths given on the command line) nor written
//! outside `--out`, besides the system's own files listed in `SYSTEM_READS`.
//!
//! A case is tests/stranger/<class>/<variant>/case.toml:
//! ```toml
//! why = "a card id climbing out of --out names a PNG for The Game Crafter"
//! # The catalogue at {cat}: `game/` beside case.toml if there is one, else the starter
//! # game (`deckpress new game`), then changed, in this order:
//! edit = [["cards.csv", "sun-1,", "\"../../x\","]]  # [file, from, to]: `from` occurs once
//! write = [["art/a.svg", "<svg …/>"]]              # files written, folders made
//! hex = [["fonts/x.ttc", "74746366"]]             # [file, bytes in hex]
//! fifo = ["cards.csv"]                             # made named pipes
//! symlink = [["fonts", "{secret}"]]                # [link, target]
//! sparse = [["{root}/big.icc", 3221225472]]        # [file, size]: a hole, no disk used
//! recipe = "cards-1500"                            # a generator below (`cook`), for
//!                                                  # what is too big to check in
//! exists = ["{out}/game/game-cards-gamecrafter/001-*-front.png"]  # after the runs
//!                                                  # (`*` within the last name)
//! absent = ["{root}/GC-ESCAPED-front.png"]
//! [[run]]                                          # one or more, in order
//! args = ["build", "{cat}", "--for", "gamecrafter", "--out", "{out}"]
//! env = [["RAYON_NUM_THREADS", "100000"]]          # variables set for the run
//! exit = 0
//! says = ["words", "in stdout or stderr"]
//! never = ["words that must not be printed"]       # "panicked" is never allowed
//! max_bytes = 100000                               # the most it may print
//! max_mb = 400                                     # peak resident memory (default 400)
//! cpu_seconds = 20                                 # CPU time of the run (default 20)
//! ```
//! In every string `{cat}` is the catalogue, `{out}` an output folder, `{root}` the case's
//! temporary folder that holds both, `{secret}` a folder outside it holding `passwd`,
//! `secret.png`, `Stranger.ttf` and `face.svg`, each with the word SECRET-LINE.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::common::*;

/// Files every run opens that are the system's, not the catalogue's: each with why.
const SYSTEM_READS: &[(&str, &str)] = &[
    ("/etc/ld.so.cache", "the dynamic loader's index of the shared libraries"),
    ("/lib/", "shared libraries the loader maps (libc, libm, libgcc_s)"),
    ("/lib64/", "shared libraries the loader maps, on other layouts"),
    ("/usr/lib/", "shared libraries the loader maps, on merged-/usr systems"),
    ("/usr/lib64/", "shared libraries the loader maps, on other layouts"),
    ("/proc/self/maps", "std reads its memory map to place the main thread's stack guard"),
    ("/proc/self/cgroup", "available_parallelism finds its cgroup to read the CPU quota"),
    ("/proc/self/mountinfo", "available_parallelism finds where cgroups are mounted"),
    ("/sys/fs/cgroup/", "the CPU quota that sizes the thread pool (available_parallelism)"),
    ("/sys/devices/system/cpu/online", "the CPUs online, which size the thread pool"),
    ("/etc/localtime", "lcms2 stamps the local time in the profiles it makes (tzset)"),
    ("/proc/sys/vm/overcommit_memory", "glibc's malloc asks it before giving a heap back"),
    ("/proc/locks", "a build waiting for another's lock names the process that holds it"),
];

/// Peak resident memory and CPU time a run may take unless its case says otherwise: far
/// above a refusal's, far below a bomb's.
const MAX_MB: f64 = 400.0;
const CPU_SECONDS: f64 = 20.0;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    why: String,
    #[serde(default)]
    edit: Vec<(String, String, String)>,
    #[serde(default)]
    write: Vec<(String, String)>,
    /// [file, bytes in hex]: binary files (fonts, archives).
    #[serde(default)]
    hex: Vec<(String, String)>,
    #[serde(default)]
    fifo: Vec<String>,
    #[serde(default)]
    symlink: Vec<(String, String)>,
    #[serde(default)]
    sparse: Vec<(String, u64)>,
    recipe: Option<String>,
    #[serde(default)]
    exists: Vec<String>,
    #[serde(default)]
    absent: Vec<String>,
    run: Vec<Run>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Run {
    args: Vec<String>,
    #[serde(default)]
    env: Vec<(String, String)>,
    exit: i32,
    #[serde(default)]
    says: Vec<String>,
    #[serde(default)]
    never: Vec<String>,
    max_mb: Option<f64>,
    cpu_seconds: Option<f64>,
    /// The most it may print, stdout and stderr together (default: unbounded).
    max_bytes: Option<usize>,
}

/// Every case folder, `class/variant`, sorted; only those whose `class/variant` starts with
/// `DECKPRESS_CASES` when it is set (`DECKPRESS_CASES=messages/ cargo test … corpus`).
fn cases() -> Vec<PathBuf> {
    let root = repo().join("tests/stranger");
    let only = std::env::var("DECKPRESS_CASES").unwrap_or_default();
    let mut found = Vec::new();
    for class in std::fs::read_dir(&root).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for variant in std::fs::read_dir(class.path()).unwrap().flatten() {
            let name = variant.path().strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            if variant.path().join("case.toml").is_file() && name.starts_with(&only) {
                found.push(variant.path());
            }
        }
    }
    found.sort();
    found
}

/// The folders of one case: its root (holding the catalogue `game/` and the output folder
/// `out/`) and the secret folder outside it.
struct Places {
    root: tempfile::TempDir,
    secret: tempfile::TempDir,
}

impl Places {
    fn cat(&self) -> PathBuf {
        self.root.path().join("game")
    }

    /// `text` with its placeholders filled.
    fn fill(&self, text: &str) -> String {
        let root = self.root.path();
        text.replace("{cat}", &root.join("game").to_string_lossy())
            .replace("{out}", &root.join("out").to_string_lossy())
            .replace("{root}", &root.to_string_lossy())
            .replace("{secret}", &self.secret.path().to_string_lossy())
    }
}

/// The folder outside every catalogue that a stranger would like read.
fn secret() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_flat_png(&dir.path().join("secret.png"), 8, 8, [255, 0, 0]);
    std::fs::write(dir.path().join("passwd"), "root:x:0:0:SECRET-LINE\n").unwrap();
    std::fs::write(
        dir.path().join("face.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><text>SECRET-LINE</text></svg>",
    )
    .unwrap();
    let font = std::fs::read_dir(repo().join("fonts"))
        .unwrap()
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "ttf"))
        .unwrap();
    std::fs::copy(font.path(), dir.path().join("Stranger.ttf")).unwrap();
    dir
}

/// The starter game's files, made once: (path, bytes).
fn starter() -> &'static [(PathBuf, Vec<u8>)] {
    static FILES: std::sync::OnceLock<Vec<(PathBuf, Vec<u8>)>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let (_guard, cat) = new_game();
        let mut files = Vec::new();
        let mut todo = vec![cat.clone()];
        while let Some(dir) = todo.pop() {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                if entry.path().is_dir() {
                    todo.push(entry.path());
                } else {
                    let rel = entry.path().strip_prefix(&cat).unwrap().to_path_buf();
                    files.push((rel, std::fs::read(entry.path()).unwrap()));
                }
            }
        }
        files
    })
}

/// Makes the case's catalogue and everything around it.
fn set_up(dir: &Path, case: &Case, places: &Places) -> Result<(), String> {
    let cat = places.cat();
    if dir.join("game").is_dir() {
        copy_dir(&dir.join("game"), &cat);
    } else {
        for (rel, bytes) in starter() {
            std::fs::create_dir_all(cat.join(rel).parent().unwrap()).unwrap();
            std::fs::write(cat.join(rel), bytes).unwrap();
        }
    }
    for (file, from, to) in &case.edit {
        let path = cat.join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("edit {file}: {e}"))?;
        let from = places.fill(from);
        if text.matches(&from).count() != 1 {
            return Err(format!("edit: `{from}` must occur once in {file}"));
        }
        std::fs::write(&path, text.replacen(&from, &places.fill(to), 1)).unwrap();
    }
    let made = |file: &str| {
        let path = PathBuf::from(places.fill(file));
        let path = if path.is_absolute() { path } else { cat.join(path) };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&path);
        path
    };
    for (file, text) in &case.write {
        std::fs::write(made(file), places.fill(text)).unwrap();
    }
    for (file, hex) in &case.hex {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        std::fs::write(made(file), bytes).unwrap();
    }
    for file in &case.fifo {
        let path =
            std::ffi::CString::new(made(file).into_os_string().into_encoded_bytes()).unwrap();
        // SAFETY: makes a named pipe at a path we own, from a valid C string.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    }
    for (link, target) in &case.symlink {
        let path = made(link);
        let _ = std::fs::remove_dir_all(&path);
        std::os::unix::fs::symlink(places.fill(target), path).unwrap();
    }
    for (file, size) in &case.sparse {
        std::fs::File::create(made(file)).unwrap().set_len(*size).unwrap();
    }
    if let Some(recipe) = &case.recipe {
        cook(recipe, &cat)?;
    }
    Ok(())
}

/// What is too big to check in, made at test time.
fn cook(recipe: &str, cat: &Path) -> Result<(), String> {
    let write = |file: &str, text: String| std::fs::write(cat.join(file), text).unwrap();
    match recipe {
        // Many cards of two looks (the suit's colour): the colour-alone check was
        // quadratic in rows, and so were queries answered per card (2,000 cards took
        // 2.7 s in release, tens of seconds in debug; linear, 1,500 take about 1 s).
        "cards-1500" => write("cards.csv", cards(1500)),
        "sticker-columns-50000" => {
            let header: Vec<String> = (0..50_000).map(|i| format!("x{i}")).collect();
            write("stickers.csv", format!("id,qty,title,{}\nsticker,3,Hello\n", header.join(",")))
        }
        // A game name of 100,000 letters: `preview` laid it out whole as a contact
        // sheet's title, a picture as wide as the name (5 GB).
        "game-name-100000" => {
            let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
            let name = format!("name = \"{}\"", "W".repeat(100_000));
            write("game.toml", toml.replacen("name = \"My Game\"", &name, 1));
            // A back that does not print it (a card's text has its own limit).
            edit(cat, "templates/back.svg", "{{ game.name }}", "Back")
        }
        // A bad value on every other row: one report each would be a flood.
        "bad-rows-3000" => write("cards.csv", cards(3000).replace(",Sun,", ",Sunn,")),
        // The fixture workbook, with a cell, a dimension or a shared-string count that
        // claims a sheet or a table far larger than the file.
        "xlsx-far-row" => workbook(cat, "<row r=\"1048576\"><c r=\"J1048576\" t=\"inlineStr\"><is><t>x</t></is></c></row>", None),
        "xlsx-far-column" => workbook(cat, "<row r=\"8\"><c r=\"XFD8\" t=\"inlineStr\"><is><t>x</t></is></c></row>", None),
        "xlsx-shared-strings" => workbook(
            cat,
            "<row r=\"8\"><c r=\"A8\" t=\"s\"><v>4294967294</v></c></row>",
            Some("<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" count=\"4294967295\" uniqueCount=\"4294967295\"><si><t>x</t></si></sst>"),
        ),
        // The fixture .xls with the directory's chain in the FAT turned back on itself (a
        // loop: calamine gathered sectors until 4 GiB), or past the FAT's 128 entries into
        // sectors the file has (calamine indexed past its table and panicked).
        "xls-chain-loop" => old_workbook(cat, |dir| dir, 0),
        "xls-chain-past-table" => old_workbook(cat, |_| 150, 200),
        // A one-page PDF for `preflight --file`: a page box nested 200,000 arrays deep
        // (hayro parses it by recursion: the stack overflowed), or a page whose content
        // inflates to 600 MB (hayro inflates a stream whole).
        "pdf-nested-200000" => {
            let deep = format!("{}0{}", "[".repeat(200_000), "]".repeat(200_000));
            one_page_pdf(cat, &format!("/TrimBox {deep}"), b"0 0 m", 1)
        }
        "pdf-stream-600mb" => one_page_pdf(cat, "", &[b' '; 1 << 20], 600),
        // The same page, its content said to go through two filters, or LZW: the bound
        // on inflating stopped at the first (or knew nothing of LZW), the parser went on.
        "pdf-filters-chained" | "pdf-filter-lzw" => {
            one_page_pdf(cat, "", b"0 0 m", 1);
            let path = cat.join("game-cards-pdf-cards.pdf");
            let pdf = std::fs::read(&path).unwrap();
            let filter: &[u8] = match recipe {
                "pdf-filters-chained" => b"/Filter[/ASCII85Decode /FlateDecode]",
                _ => b"/Filter/LZWDecode      ",
            };
            let flate: &[u8] = b"/Filter/FlateDecode";
            let at = pdf.windows(flate.len()).position(|w| w == flate).unwrap();
            let end = at + flate.len();
            let pdf = [&pdf[..at], filter, &pdf[end..]].concat();
            std::fs::write(path, pdf).unwrap();
        }
        // A rulebook of 20,000 lines of raw HTML under a filled expression: each line's
        // warning searched the text from its start (13 s).
        "rules-raw-html-20000" => {
            let lines: Vec<String> =
                (0..20_000).map(|i| format!("<div class=\"x\">row {i}</div>")).collect();
            let rules = format!("# Rules\n\nPlay {{{{ game.name }}}} well.\n\n{}\n", lines.join("\n"));
            write("rules.md", rules)
        }
        // The fixture font with its glyph count (maxp) cut to 20: its character map gives
        // letters glyphs past the 20 it has.
        "font-cmap-past-glyphs" => {
            let mut font = std::fs::read(repo().join("tests/fixtures/NotoSerif-Subset.ttf")).unwrap();
            let tables = u16::from_be_bytes([font[4], font[5]]) as usize;
            let maxp = (0..tables)
                .map(|i| 12 + 16 * i)
                .find(|&at| &font[at..at + 4] == b"maxp")
                .map(|at| u32::from_be_bytes(font[at + 8..at + 12].try_into().unwrap()) as usize)
                .unwrap();
            font[maxp + 4..maxp + 6].copy_from_slice(&20u16.to_be_bytes());
            std::fs::create_dir_all(cat.join("fonts")).unwrap();
            std::fs::write(cat.join("fonts/Broken.ttf"), font).unwrap();
        }
        // The fixture font with its glyph table's length cut to 64 bytes: it parses, its
        // names are read, but no letter past the first few can be outlined (its text fell
        // back to another font without a word).
        "font-glyf-cut-short" => {
            let mut font = std::fs::read(repo().join("tests/fixtures/NotoSerif-Subset.ttf")).unwrap();
            let tables = u16::from_be_bytes([font[4], font[5]]) as usize;
            let glyf = (0..tables).map(|i| 12 + 16 * i).find(|&at| &font[at..at + 4] == b"glyf").unwrap();
            font[glyf + 12..glyf + 16].copy_from_slice(&64u32.to_be_bytes());
            std::fs::create_dir_all(cat.join("fonts")).unwrap();
            std::fs::write(cat.join("fonts/Short.ttf"), font).unwrap();
        }
        _ => return Err(format!("no recipe `{recipe}`")),
    }
    // Without the starter's rule of four cards a suit, which many cards break.
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    if let Some(at) = toml.find("# The deck's composition") {
        write("game.toml", toml[..at].to_string());
    }
    Ok(())
}

/// tests/fixtures/cards.xlsx as the catalogue's rows, `rows` added to its sheet and
/// `strings` as its shared strings.
fn workbook(cat: &Path, rows: &str, strings: Option<&str>) {
    use std::io::{Read, Write};
    let bytes = std::fs::read(repo().join("tests/fixtures/cards.xlsx")).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for i in 0..archive.len() {
        let mut part = archive.by_index(i).unwrap();
        let name = part.name().unwrap().into_owned();
        let mut text = String::new();
        part.read_to_string(&mut text).unwrap();
        if name == "xl/worksheets/sheet1.xml" {
            text = text.replace("</sheetData>", &format!("{rows}</sheetData>"));
        }
        out.start_file(name.as_str(), options).unwrap();
        out.write_all(text.as_bytes()).unwrap();
    }
    if let Some(strings) = strings {
        out.start_file("xl/sharedStrings.xml", options).unwrap();
        out.write_all(strings.as_bytes()).unwrap();
    }
    std::fs::write(cat.join("cards.xlsx"), out.finish().unwrap().into_inner()).unwrap();
    edit(cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.xlsx\"\nsheet = \"cards\"");
}

/// tests/fixtures/cards.xls as the catalogue's rows, the FAT's link after the directory's
/// first sector made `next(that sector)`, the file padded to `sectors` sectors.
fn old_workbook(cat: &Path, next: impl Fn(u32) -> u32, sectors: usize) {
    let mut bytes = std::fs::read(repo().join("tests/fixtures/cards.xls")).unwrap();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let (fat, dir) = (u32_at(&bytes, 76) as usize, u32_at(&bytes, 48));
    let at = (fat + 1) * 512 + dir as usize * 4;
    bytes[at..at + 4].copy_from_slice(&next(dir).to_le_bytes());
    bytes.resize(bytes.len().max((sectors + 1) * 512), 0);
    std::fs::write(cat.join("cards.xls"), bytes).unwrap();
    edit(cat, "game.toml", "rows = \"cards.csv\"", "rows = \"cards.xls\"\nsheet = \"cards\"");
}

/// `{cat}/game-cards-pdf-cards.pdf`: one page with `extra` in its dictionary and `content`
/// `times` over deflated as its content stream (never whole in memory: every run forked
/// from this process starts with its size as its peak).
fn one_page_pdf(cat: &Path, extra: &str, content: &[u8], times: usize) {
    use std::io::Write;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..times {
        z.write_all(content).unwrap();
    }
    let data = z.finish().unwrap();
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    let objects = [
        "<</Type/Catalog/Pages 2 0 R>>".to_string(),
        "<</Type/Pages/Kids[3 0 R]/Count 1>>".to_string(),
        format!("<</Type/Page/Parent 2 0 R/MediaBox[0 0 180 252]/Contents 4 0 R{extra}>>"),
    ];
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    offsets.push(pdf.len());
    let head = format!("4 0 obj\n<</Length {}/Filter/FlateDecode>>\nstream\n", data.len());
    pdf.extend_from_slice(head.as_bytes());
    pdf.extend_from_slice(&data);
    pdf.extend_from_slice(b"\nendstream\nendobj\n");
    let xref = pdf.len();
    pdf.extend_from_slice(b"xref\n0 5\n0000000000 65535 f \n");
    for at in offsets {
        pdf.extend_from_slice(format!("{at:010} 00000 n \n").as_bytes());
    }
    let tail = format!("trailer\n<</Size 5/Root 1 0 R>>\nstartxref\n{xref}\n%%EOF\n");
    pdf.extend_from_slice(tail.as_bytes());
    std::fs::write(cat.join("game-cards-pdf-cards.pdf"), pdf).unwrap();
}

/// The starter's cards.csv with `n` distinct cards, half Sun, half Moon.
fn cards(n: usize) -> String {
    let mut rows = String::from("id,qty,suit,value,title\n");
    for i in 0..n {
        let suit = if i % 2 == 0 { "Sun" } else { "Moon" };
        rows.push_str(&format!("c{i},1,{suit},{},Card {i}\n", i % 9 + 1));
    }
    rows
}

/// `path` with every symbolic link in the part of it that exists followed (the last
/// part's too unless `keep_last`): where the kernel really went.
fn real(path: &Path, keep_last: bool) -> PathBuf {
    let (start, tail) = if keep_last {
        (path.parent().unwrap_or(path), path.file_name().map(PathBuf::from))
    } else {
        (path, None)
    };
    let mut rest = Vec::new();
    let mut at = start;
    loop {
        if let Ok(found) = at.canonicalize() {
            let mut full = found;
            full.extend(rest.iter().rev());
            full.extend(tail);
            return full;
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

fn system_file(path: &Path) -> bool {
    let text = path.to_string_lossy();
    SYSTEM_READS.iter().any(|(prefix, _)| {
        if prefix.ends_with('/') && prefix.contains("lib") {
            text.starts_with(prefix) && text.contains(".so")
        } else {
            text.starts_with(prefix)
        }
    })
}

/// Everything wrong with one run of a case.
fn check_run(run: &Run, places: &Places, problems: &mut Vec<String>) {
    let args: Vec<String> = run.args.iter().map(|a| places.fill(a)).collect();
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let env = run.env.iter().map(|(k, v)| (k.clone(), places.fill(v))).collect();
    let bounds = Bounds { env, ..Bounds::default() };
    let traced = traced_within(&argv, places.root.path(), &bounds);
    let said = format!("{}{}", traced.stdout, traced.stderr);
    let short: String = said.chars().take(3000).collect();
    let mut problem = |what: String| problems.push(format!("{}: {what}", run.args.join(" ")));
    if traced.timed_out {
        problem(format!("still running after {:?}", bounds.timeout));
    } else if let Some(signal) = traced.signal {
        problem(format!("killed by signal {signal}\n{short}"));
    } else if traced.code != Some(run.exit) {
        problem(format!("exit {:?}, expected {}\n{short}", traced.code, run.exit));
    }
    for word in &run.says {
        let word = places.fill(word);
        if !said.contains(&word) {
            problem(format!("does not say `{word}`\n{short}"));
        }
    }
    for word in run.never.iter().map(String::as_str).chain(["panicked", "RUST_BACKTRACE"]) {
        if said.contains(&places.fill(word)) {
            problem(format!("says `{word}`\n{short}"));
        }
    }
    if let Some(max) = run.max_bytes {
        if said.len() > max {
            problem(format!("printed {} bytes, more than {max}", said.len()));
        }
    }
    let max_mb = run.max_mb.unwrap_or(MAX_MB);
    if traced.peak_mb > max_mb {
        problem(format!("peaked at {:.0} MB, more than {max_mb} MB", traced.peak_mb));
    }
    let cpu = run.cpu_seconds.unwrap_or(CPU_SECONDS);
    if traced.cpu.as_secs_f64() > cpu {
        problem(format!("took {:.1} s of CPU, more than {cpu} s", traced.cpu.as_secs_f64()));
    }
    // What it may read: the paths under the case's folder given on the command line
    // (the catalogue, --out, --changed-since, --icc) and the system's own files.
    let root = places.root.path().canonicalize().unwrap();
    let given: Vec<PathBuf> =
        args.iter().map(|a| real(Path::new(a), false)).filter(|p| p.starts_with(&root)).collect();
    let out: Vec<PathBuf> = args
        .windows(2)
        .filter(|w| w[0] == "--out")
        .map(|w| real(Path::new(&w[1]), false))
        .collect();
    let mut outside: Vec<String> = traced
        .reads
        .iter()
        .filter(|p| !system_file(p))
        .filter(|p| {
            let real = real(p, false);
            !system_file(&real) && !given.iter().any(|g| real.starts_with(g))
        })
        .map(|p| p.display().to_string())
        .collect();
    outside.dedup();
    outside.truncate(5);
    if !outside.is_empty() {
        problem(format!("read outside the catalogue: {outside:?}"));
    }
    let mut written: Vec<String> = traced
        .writes
        .iter()
        .filter(|(call, p)| {
            let real = real(p, true);
            let making_out = call.starts_with("mkdir") && out.iter().any(|o| o.starts_with(&real));
            !making_out && !out.iter().any(|o| real.starts_with(o))
        })
        .map(|(call, p)| format!("{call} {}", p.display()))
        .collect();
    written.dedup();
    written.truncate(5);
    if !written.is_empty() {
        problem(format!("wrote outside --out: {written:?}"));
    }
    if !traced.execs.is_empty() {
        problem(format!("started programs: {:?}", traced.execs));
    }
}

/// The files a pattern (`*`s within its last part) names.
fn matching(pattern: &str) -> Vec<PathBuf> {
    let path = Path::new(pattern);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    if !name.contains('*') {
        return if path.symlink_metadata().is_ok() { vec![path.to_path_buf()] } else { Vec::new() };
    }
    std::fs::read_dir(path.parent().unwrap())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| wildcard(&name, &p.file_name().unwrap().to_string_lossy()))
        .collect()
}

/// Whether `name` matches `pattern`, whose `*`s stand for any text.
fn wildcard(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if name.len() < first.len() + last.len() || !name.starts_with(first) || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

#[test]
fn wildcards_match_as_a_shell_does() {
    assert!(wildcard("*ESCAPED*", "x-ESCAPED-front.png"));
    assert!(wildcard("*ESCAPED*", "ESCAPED"));
    assert!(!wildcard("*ESCAPED*", "ESCAPE"));
    assert!(wildcard("001-*-front.png", "001-a_b-front.png"));
    assert!(!wildcard("001-*-front.png", "002-a_b-front.png"));
    assert!(wildcard("a*b*c", "a-b-c") && !wildcard("a*b*c", "a-c-b"));
}

/// Sets up and runs one case: everything wrong with it.
fn run_case(dir: &Path) -> Vec<String> {
    let file = dir.join("case.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let case: Case = match toml::from_str(&text) {
        Ok(case) => case,
        Err(e) => return vec![format!("case.toml: {e}")],
    };
    let places = Places { root: tempfile::tempdir().unwrap(), secret: secret() };
    let mut problems = Vec::new();
    if case.why.is_empty() {
        problems.push("say why in `why`".to_string());
    }
    if let Err(e) = set_up(dir, &case, &places) {
        return vec![e];
    }
    for run in &case.run {
        check_run(run, &places, &mut problems);
    }
    for pattern in &case.exists {
        if matching(&places.fill(pattern)).is_empty() {
            problems.push(format!("nothing at {pattern}"));
        }
    }
    for pattern in &case.absent {
        let found = matching(&places.fill(pattern));
        if !found.is_empty() {
            problems.push(format!("written: {found:?}"));
        }
    }
    problems
}

#[test]
fn every_stranger_case_ends_clearly_and_touches_nothing_outside() {
    let cases = cases();
    let filtered = std::env::var_os("DECKPRESS_CASES").is_some();
    assert!(filtered || cases.len() >= 40, "tests/stranger holds {} cases", cases.len());
    let started = std::time::Instant::now();
    let todo = Mutex::new(cases.iter());
    let failures = Mutex::new(Vec::new());
    // Each case is mostly one child at work: a few at once keep both cores busy.
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| loop {
                let Some(dir) = todo.lock().unwrap().next() else { break };
                let name = dir.strip_prefix(repo().join("tests/stranger")).unwrap();
                let took = std::time::Instant::now();
                let problems = run_case(dir);
                eprintln!("{}: {:.1} s", name.display(), took.elapsed().as_secs_f64());
                if !problems.is_empty() {
                    let all = problems.join("\n  ");
                    failures.lock().unwrap().push(format!("{}:\n  {all}", name.display()));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    eprintln!("{} cases in {:.1} s", cases.len(), started.elapsed().as_secs_f64());
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The corpus's own checks can fail: a build with no `--out` writes `output/` beside the
/// catalogue, and a profile read from the secret folder is a read outside.
#[test]
fn the_corpus_sees_a_write_outside_out_and_a_read_outside_the_catalogue() {
    let places = Places { root: tempfile::tempdir().unwrap(), secret: secret() };
    let case: Case = toml::from_str("why = \"x\"\n[[run]]\nargs = []\nexit = 0\n").unwrap();
    set_up(Path::new("/nonexistent"), &case, &places).unwrap();
    let run = |args: &[&str], exit| Run {
        args: args.iter().map(|a| a.to_string()).collect(),
        env: Vec::new(),
        exit,
        says: Vec::new(),
        never: Vec::new(),
        max_mb: None,
        cpu_seconds: None,
        max_bytes: None,
    };
    let mut problems = Vec::new();
    check_run(&run(&["build", "{cat}"], 0), &places, &mut problems);
    assert!(problems.iter().any(|p| p.contains("wrote outside --out")), "{problems:?}");
    let mut problems = Vec::new();
    let icc = ["validate", "{cat}", "--colour", "cmyk", "--icc", "{secret}/passwd"];
    check_run(&run(&icc, 2), &places, &mut problems);
    assert!(
        problems.iter().any(|p| p.contains("read outside the catalogue") && p.contains("passwd")),
        "{problems:?}"
    );
}
