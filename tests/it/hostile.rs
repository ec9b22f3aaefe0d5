//! Hostile catalogues (issue: "Hostile and huge catalogues"): a downloaded catalogue must
//! not read outside its folder, write outside `--out`, hang or exhaust memory. Each case
//! is refused by `validate` with exit 1 and a clear message, quickly, and `build` writes
//! nothing outside the output folder. Each `validate` must exit 1 within 2 s of CPU time
//! and 200 MB of peak resident memory, as the OS reports them for that child (wait4).

// The measurements use wait4 (Unix); the symlink cases are Unix-only anyway.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::*;

/// A hostile case is refused within this much CPU time and memory: bounds on pathological
/// input (a hang or a bomb misses them by orders of magnitude), not a benchmark. CPU time
/// (user + system, all threads) is what the case costs; wall time on this shared 2-core
/// machine also counts waiting for other work, so it gets a looser bound of its own.
const MAX_CPU_SECONDS: f64 = 2.0;
const MAX_WALL_SECONDS: f64 = 5.0;
const MAX_PEAK_MB: f64 = 200.0;

/// What one run of the binary took, as the OS accounts for it.
struct Usage {
    code: Option<i32>,
    stderr: String,
    wall: Duration,
    /// User and system time of all its threads.
    cpu: Duration,
    /// Peak resident memory of that child alone (ru_maxrss), in MB.
    peak_mb: f64,
}

/// Runs deckpress and reaps it with wait4, which returns the rusage of that child alone
/// (not of every child the test process has had, as getrusage(RUSAGE_CHILDREN) would).
fn measured(args: &[&str], cwd: &Path) -> Usage {
    use std::os::unix::process::ExitStatusExt;
    let log = tempfile::NamedTempFile::new().unwrap();
    let started = Instant::now();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_deckpress"));
    command
        .args(args)
        .current_dir(cwd)
        .stdout(std::process::Stdio::null())
        .stderr(log.reopen().unwrap());
    // A fork, not std's vfork-style spawn: exec records the memory it leaves behind in the
    // child's ru_maxrss, and after a vfork that is this test process's peak (whatever
    // other tests ever allocated), after a fork only what the copy holds now.
    // SAFETY: the hook does nothing, so nothing runs between fork and exec but std's own.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || Ok(()));
    }
    // Reaped by wait4 below, which std's `wait` would not give the rusage of.
    #[allow(clippy::zombie_processes)]
    let child = command.spawn().expect("the binary runs");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct, which wait4 fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, writing into the two locals above.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed: {}", std::io::Error::last_os_error());
    // ru_maxrss is in KiB on Linux and in bytes on macOS.
    let kib = if cfg!(target_os = "macos") {
        usage.ru_maxrss as f64 / 1024.0
    } else {
        usage.ru_maxrss as f64
    };
    let code = std::process::ExitStatus::from_raw(status).code();
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    Usage {
        code,
        stderr: std::fs::read_to_string(log.path()).unwrap(),
        wall,
        cpu,
        peak_mb: kib / 1024.0,
    }
}

/// Validates and builds; validate must exit 1 within `MAX_CPU_SECONDS` and `MAX_PEAK_MB`,
/// build exit 1 too, and nothing may appear outside `out` in the sandbox folder. Returns
/// validate's stderr.
fn refused(root: &Path, cat: &Path) -> String {
    let before = files_under(root);
    let run = measured(&["validate", cat.to_str().unwrap()], root);
    let err = run.stderr;
    assert_eq!(run.code, Some(1), "expected exit 1\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    eprintln!(
        "validate: {:.2} s CPU, {:.2} s wall, {:.1} MB peak: {}",
        run.cpu.as_secs_f64(),
        run.wall.as_secs_f64(),
        run.peak_mb,
        err.lines().find(|l| l.starts_with("error")).unwrap_or_default()
    );
    assert!(
        run.cpu.as_secs_f64() < MAX_CPU_SECONDS,
        "validate took {:.2} s of CPU\n{err}",
        run.cpu.as_secs_f64()
    );
    assert!(
        run.wall.as_secs_f64() < MAX_WALL_SECONDS,
        "validate took {:.2} s\n{err}",
        run.wall.as_secs_f64()
    );
    assert!(run.peak_mb < MAX_PEAK_MB, "validate peaked at {:.1} MB\n{err}", run.peak_mb);
    let out = root.join("out");
    let build = deckpress(&["build", cat.to_str().unwrap(), "--out", out.to_str().unwrap()], root);
    assert_eq!(build.status.code(), Some(1), "{}", stderr(&build));
    let after = files_under(root);
    let new: Vec<&PathBuf> = after.iter().filter(|p| !before.contains(p)).collect();
    assert!(new.is_empty(), "written: {new:?}");
    err
}

#[test]
fn ids_that_would_write_outside_out_are_refused() {
    for (file, from, to, expected) in [
        ("game.toml", "id = \"cards\"", "id = \"x/../../../../tmp/DECK_ESCAPED\"", "deck id `x/../../../../tmp/DECK_ESCAPED` is not a plain name"),
        ("game.toml", "id = \"game\"", "id = \"../game\"", "game id `../game` is not a plain name"),
        ("game.toml", "# Cards to each player", "[lang.\"/../../x\".suit]\nSun = \"Soleil\"\n\n# Cards to each player", "`/../../x` is not a language tag"),
        ("game.toml", "# Cards to each player", "[[sheet]]\nid = \"../../sheet\"\npage = \"portrait\"\ntemplate = \"templates/back.svg\"\n\n# Cards to each player", "sheet id `../../sheet` is not a plain name"),
    ] {
        let (guard, cat) = new_game();
        edit(&cat, file, from, to);
        let err = refused(guard.path(), &cat);
        assert!(err.contains(expected), "{err}");
        assert!(err.contains("game.toml:"), "{err}");
    }
}

/// A card id is data, not a path: the per-card files of a print service are named from it,
/// and `../../x`, a 250-character id or a control character must give a file inside
/// `--out`, with `validate --for` and `build --for` agreeing.
#[test]
fn card_ids_never_write_outside_out_nor_past_a_file_name_limit() {
    let long = "y".repeat(250);
    for (id, service) in [
        ("../../../../../GC-ESCAPED", "gamecrafter"),
        ("../../../../../GC-ESCAPED", "makeplayingcards"),
        ("/tmp/GC-ESCAPED", "gamecrafter"),
        (long.as_str(), "gamecrafter"),
        ("tab\tand\u{1b}[31mred", "makeplayingcards"),
    ] {
        let (guard, cat) = new_game();
        edit(&cat, "cards.csv", "sun-1,", &format!("\"{id}\","));
        let root = guard.path();
        let before = files_under(root);
        let validate = deckpress(
            &["validate", cat.to_str().unwrap(), "--for", service, "--fit", "scale"],
            root,
        );
        assert_eq!(validate.status.code(), Some(0), "{}", stderr(&validate));
        let out = root.join("a/b/out");
        let build = deckpress(
            &[
                "build",
                cat.to_str().unwrap(),
                "--for",
                service,
                "--fit",
                "scale",
                "--out",
                out.to_str().unwrap(),
            ],
            root,
        );
        assert_eq!(
            build.status.code(),
            Some(0),
            "validate passed, so build must: {}",
            stderr(&build)
        );
        let new: Vec<PathBuf> =
            files_under(root).into_iter().filter(|p| !before.contains(p)).collect();
        let outside: Vec<&PathBuf> = new.iter().filter(|p| !p.starts_with(&out)).collect();
        assert!(outside.is_empty(), "{service} wrote outside --out: {outside:?}");
        let fronts: Vec<&PathBuf> = new
            .iter()
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("001-"))
            .collect();
        assert_eq!(fronts.len(), 1, "the first card's front is one file in --out: {new:?}");
        let name = fronts[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.len() <= 120 && name.chars().all(|c| c.is_ascii_graphic()), "{name}");
        let quantities = new.iter().find(|p| p.ends_with("quantities.csv")).expect("quantities");
        assert!(std::fs::read_to_string(quantities).unwrap().contains(&name));
    }
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_catalogue_are_never_followed_nor_shown() {
    let secret = tempfile::tempdir().unwrap();
    std::fs::write(secret.path().join("passwd"), "root:x:0:0:SECRET-LINE\n").unwrap();
    std::fs::create_dir(secret.path().join("templates")).unwrap();
    std::fs::write(
        secret.path().join("templates/face.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg'><text>SECRET-LINE</text></svg>",
    )
    .unwrap();
    // A symlinked rows file, template and templates folder.
    for (link, target) in [
        ("cards.csv", "passwd"),
        ("templates/face.svg", "templates/face.svg"),
        ("templates", "templates"),
    ] {
        let (guard, cat) = new_game();
        let at = cat.join(link);
        if at.is_dir() {
            std::fs::remove_dir_all(&at).unwrap();
        } else {
            std::fs::remove_file(&at).unwrap();
        }
        std::os::unix::fs::symlink(secret.path().join(target), &at).unwrap();
        let err = refused(guard.path(), &cat);
        assert!(err.contains("symlink to a file outside the catalogue folder"), "{link}: {err}");
        assert!(!err.contains("SECRET-LINE"), "{link}: {err}");
    }
    // The gallery of a preview does not show it either.
    let (guard, cat) = new_game();
    std::fs::remove_file(cat.join("cards.csv")).unwrap();
    std::os::unix::fs::symlink(secret.path().join("passwd"), cat.join("cards.csv")).unwrap();
    let out = guard.path().join("out");
    deckpress(
        &["preview", cat.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"],
        guard.path(),
    );
    for file in files_under(&out) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("SECRET-LINE"), "{}", file.display());
    }
}

#[test]
fn a_template_loop_stops_with_an_error() {
    let (guard, cat) = new_game();
    edit(&cat, "templates/face.svg", "<circle", "{% for i in range(100000) %}{% for j in range(100000) %}{{ i }}{% endfor %}{% endfor %}<circle");
    let err = refused(guard.path(), &cat);
    assert!(err.contains("the template runs too long"), "{err}");
    let line = line_of(&cat, "templates/face.svg", "range(100000)");
    assert!(err.contains(&format!("face.svg:{line}:")), "{err}");
}

#[test]
fn a_template_that_prints_gigabytes_stops_at_the_size_limit_in_bounded_memory() {
    // 600 KB a time, 100,000 times: 60 GB if the filled template were made before its
    // size is checked (it aborted the process with an allocation failure).
    let (guard, cat) = new_game();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "{% set s = 'y' * 600000 %}{% for i in range(100000) %}{{ s }}{% endfor %}<circle",
    );
    let err = refused(guard.path(), &cat);
    assert!(
        err.contains("the filled template passes 8.4 MB, more than deckpress draws for one piece"),
        "{err}"
    );
    assert!(err.contains("face.svg"), "{err}");
    assert!(err.contains("--limit filled-bytes=N"), "{err}");
}

#[test]
fn entity_expansion_is_refused() {
    let (guard, cat) = new_game();
    let lol = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">]>\n";
    let face = std::fs::read_to_string(cat.join("templates/face.svg")).unwrap();
    std::fs::write(
        cat.join("templates/face.svg"),
        format!("{lol}{}", face.replace("{{ card.title }}", "&g;")),
    )
    .unwrap();
    let err = refused(guard.path(), &cat);
    assert!(err.contains("templates may not declare a DOCTYPE or entities"), "{err}");
}

/// A PNG that claims to be 50000 × 50000 pixels: the signature, a real IHDR and nothing
/// else. Decoding it would need 7.5 GB.
fn png_bomb() -> Vec<u8> {
    let mut ihdr = 50_000u32.to_be_bytes().to_vec();
    ihdr.extend(50_000u32.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(png_chunk(b"IHDR", &ihdr));
    png
}

#[test]
fn a_decompression_bomb_is_refused_before_decoding() {
    let (guard, cat) = new_game();
    std::fs::create_dir_all(cat.join("art")).unwrap();
    std::fs::write(cat.join("art/bomb.png"), png_bomb()).unwrap();
    edit(
        &cat,
        "templates/face.svg",
        "<circle",
        "<image href=\"art/bomb.png\" x=\"0\" y=\"0\" width=\"100\" height=\"100\"/><circle",
    );
    let err = refused(guard.path(), &cat);
    assert!(err.contains("it is 50000 × 50000 pixels"), "{err}");
    assert!(err.contains("--limit image-pixels"), "{err}");
}

#[test]
fn a_huge_players_range_is_one_error_not_millions() {
    let (guard, cat) = new_game();
    edit(&cat, "game.toml", "max = 4 }", "max = 4000000 }");
    let err = refused(guard.path(), &cat);
    assert!(err.contains("a game for up to 4000000 players"), "{err}");
    assert!(err.lines().count() < 30, "{err}");
    edit(&cat, "game.toml", "max = 4000000 }", "max = 4294967295 }");
    let err = refused(guard.path(), &cat);
    assert!(err.contains("a game for up to 4294967295 players"), "{err}");
}

#[test]
fn ten_million_cards_are_refused_at_once() {
    let (guard, cat) = new_game();
    let mut rows = String::from("id,qty,suit,value,title\n");
    for i in 0..1000 {
        rows.push_str(&format!("c{i},10000,{},1,T\n", if i % 2 == 0 { "Sun" } else { "Moon" }));
    }
    std::fs::write(cat.join("cards.csv"), rows).unwrap();
    let err = refused(guard.path(), &cat);
    assert!(
        err.contains("the game has 10000000 cards, more than deckpress prints in one build"),
        "{err}"
    );
}

#[test]
fn a_limit_can_be_changed_on_the_command_line() {
    // The starter has 8 cards: a limit of 5 refuses it, the default and 8 let it through.
    let (guard, cat) = new_game();
    let path = cat.to_str().unwrap();
    let low = deckpress(&["validate", path, "--limit", "cards=5"], guard.path());
    assert_eq!(low.status.code(), Some(1));
    assert!(
        stderr(&low).contains("the game has 8 cards") && stderr(&low).contains("--limit cards=N"),
        "{}",
        stderr(&low)
    );
    assert_eq!(
        deckpress(&["validate", path, "--limit", "cards=8"], guard.path()).status.code(),
        Some(0)
    );
    assert_eq!(deckpress(&["validate", path], guard.path()).status.code(), Some(0));
}

#[test]
fn a_huge_text_is_refused_before_it_is_laid_out() {
    let (guard, cat) = new_game();
    let long = "x".repeat(1_200_000);
    edit(&cat, "cards.csv", "sun-1,1,Sun,1,Dawn", &format!("sun-1,1,Sun,1,{long}"));
    let err = refused(guard.path(), &cat);
    assert!(err.contains("a text of 1200000 characters"), "{err}");
}

#[test]
fn an_unknown_limit_lists_the_limits() {
    let (guard, cat) = new_game();
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--limit", "cheese=1"], guard.path());
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("no limit `cheese`; limits: cards (default 100000"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn a_bare_statement_tag_in_a_template_is_an_error_not_a_crash() {
    // Found by the fuzzer (fuzz/targets.rs, template): `{%}` panicked the loader, which
    // looked for the tag's end inside its own start.
    let (guard, cat) = new_game();
    edit(&cat, "templates/face.svg", "<circle", "{%}<circle");
    let err = refused(guard.path(), &cat);
    assert!(err.contains("face.svg:"), "{err}");
}

#[test]
fn a_problem_on_every_card_of_a_large_deck_is_reported_once_with_the_full_count() {
    // 500 cards are drawn in three batches (24 pages of 9); each card's problem is
    // folded into one report whose count covers every batch, and memory holds one
    // problem, not one per card.
    let (guard, cat) = new_game();
    let rows: String = (0..500)
        .map(|i| format!("c{i},1,{},{},T{i}\n", if i % 2 == 0 { "Sun" } else { "Moon" }, i % 9 + 1))
        .collect();
    std::fs::write(cat.join("cards.csv"), format!("id,qty,suit,value,title\n{rows}")).unwrap();
    edit(&cat, "game.toml", "count = 4", "count = 250");
    edit(&cat, "templates/face.svg", "{{ card.title }}", "{{ card.titel }}");
    let err = refused(guard.path(), &cat);
    assert_eq!(err.matches("undefined value `card.titel`").count(), 1, "{err}");
    assert!(err.contains("and 499 more cards"), "{err}");
}
