//! Issue 52: rows from a published sheet. `deckpress fetch` against a server the test
//! runs on 127.0.0.1 (plain http is taken for this machine only): the report of what
//! changed, conditional requests, every hostile answer a clear error that keeps the
//! previous copy, and no other command ever connecting (strace).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::{deckpress, edit, new_game, stderr, stdout};

/// What the server answers at a path.
#[derive(Clone)]
enum Reply {
    /// 200 with these headers and body; a 304 when the request's If-None-Match is the ETag.
    Body {
        body: Vec<u8>,
        headers: Vec<(String, String)>,
    },
    Status(u16),
    Redirect(String),
    /// The body, one byte at a time with a pause between.
    Slow(Vec<u8>, Duration),
}

/// A server on 127.0.0.1 for one test: paths to replies, and the requests it saw.
struct Server {
    port: u16,
    replies: Arc<Mutex<HashMap<String, Reply>>>,
    seen: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let replies: Arc<Mutex<HashMap<String, Reply>>> = Arc::default();
        let seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (r, s, halt) = (replies.clone(), seen.clone(), stop.clone());
        std::thread::spawn(move || {
            // Bounded: it ends with its test, or after five minutes whatever happens.
            let started = std::time::Instant::now();
            while !halt.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(300) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (r, s, halt) = (r.clone(), s.clone(), halt.clone());
                        std::thread::spawn(move || serve(stream, &r, &s, &halt));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Server { port, replies, seen, stop }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn reply(&self, path: &str, reply: Reply) {
        self.replies.lock().unwrap().insert(path.to_string(), reply);
    }

    fn csv(&self, path: &str, body: &str, etag: &str) {
        let headers = vec![
            ("ETag".to_string(), format!("\"{etag}\"")),
            ("Content-Type".to_string(), "text/csv".to_string()),
            ("Date".to_string(), "Sat, 28 Nov 2026 16:00:00 GMT".to_string()),
        ];
        self.reply(path, Reply::Body { body: body.as_bytes().to_vec(), headers });
    }

    /// The requests seen, each its head as sent.
    fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn serve(
    mut stream: TcpStream,
    replies: &Mutex<HashMap<String, Reply>>,
    seen: &Mutex<Vec<String>>,
    stop: &AtomicBool,
) {
    stream.set_nonblocking(false).ok();
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16_384 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    seen.lock().unwrap().push(head.clone());
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    let etag_asked = head.lines().find_map(|l| {
        l.to_ascii_lowercase().strip_prefix("if-none-match:").map(|v| v.trim().to_string())
    });
    let reply = replies.lock().unwrap().get(&path).cloned().unwrap_or(Reply::Status(404));
    let status_line = |code: u16| match code {
        200 => "200 OK",
        301 => "301 Moved Permanently",
        302 => "302 Found",
        304 => "304 Not Modified",
        401 => "401 Unauthorized",
        404 => "404 Not Found",
        _ => "500 Internal Server Error",
    };
    let _ = match reply {
        Reply::Body { body, headers } => {
            let etag = headers.iter().find(|(k, _)| k == "ETag").map(|(_, v)| v.to_lowercase());
            if etag.is_some() && etag == etag_asked {
                stream.write_all(b"HTTP/1.1 304 Not Modified\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            } else {
                let mut out = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
                for (k, v) in headers {
                    out.push_str(&format!("{k}: {v}\r\n"));
                }
                out.push_str("\r\n");
                stream.write_all(out.as_bytes()).and_then(|()| stream.write_all(&body))
            }
        }
        Reply::Status(code) => stream.write_all(
            format!("HTTP/1.1 {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", status_line(code)).as_bytes(),
        ),
        Reply::Redirect(to) => stream.write_all(
            format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        ),
        Reply::Slow(body, pause) => {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
            let mut sent = stream.write_all(head.as_bytes());
            for b in body {
                if sent.is_err() || stop.load(Ordering::Relaxed) {
                    break;
                }
                std::thread::sleep(pause);
                sent = stream.write_all(&[b]);
            }
            sent
        }
    };
}

/// The starter game with its deck's rows linked to `url`.
fn linked_game(url: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, cat) = new_game();
    edit(
        &cat,
        "game.toml",
        "rows = \"cards.csv\"",
        &format!("rows = \"cards.csv\"\nrows_url = \"{url}\""),
    );
    (dir, cat)
}

fn fetch(cat: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["fetch", cat.to_str().unwrap()];
    args.extend_from_slice(extra);
    deckpress(&args, cat.parent().unwrap())
}

const CARDS: &str = "id,qty,suit,value,title\nsun-1,1,Sun,1,Dawn\nsun-2,1,Sun,2,Noon\nsun-3,2,Sun,3,Dusk\nmoon-1,1,Moon,1,New Moon\nmoon-2,1,Moon,2,Half Moon\nmoon-3,2,Moon,3,Full Moon\n";

#[test]
fn a_published_sheet_is_fetched_its_changes_said_and_exactly_those_cards_reprinted() {
    let server = Server::start();
    server.csv("/cards.csv", CARDS, "v1");
    let (dir, cat) = linked_game(&server.url("/cards.csv"));
    std::fs::remove_file(cat.join("cards.csv")).unwrap();

    // No copy yet: every command but fetch says to fetch, and connects to nothing.
    let run = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(stderr(&run).contains("deckpress fetch"), "{}", stderr(&run));
    assert!(stderr(&run).contains("game.toml:"), "{}", stderr(&run));
    assert!(server.requests().is_empty(), "validate connected: {:?}", server.requests());

    let run = fetch(&cat, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(stdout(&run).contains("cards.csv: 6 rows, a first copy"), "{}", stdout(&run));
    assert_eq!(std::fs::read_to_string(cat.join("cards.csv")).unwrap(), CARDS);
    let first = dir.path().join("first");
    let run =
        deckpress(&["build", cat.to_str().unwrap(), "--out", first.to_str().unwrap()], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));

    // Unchanged: the ETag is sent back, the server answers 304, nothing is written.
    let run = fetch(&cat, &[]);
    assert!(stdout(&run).contains("cards.csv: unchanged"), "{}", stdout(&run));
    assert!(server.requests().last().unwrap().to_lowercase().contains("if-none-match: \"v1\""));

    // Two cells and one row changed on the sheet.
    let changed = CARDS
        .replace("sun-2,1,Sun,2,Noon", "sun-2,1,Sun,2,Midday")
        .replace("moon-1,1,Moon,1,New Moon", "moon-1,1,Moon,1,Crescent")
        .replace("moon-3,2,Moon,3,Full Moon", "moon-4,2,Moon,3,Eclipse");
    server.csv("/cards.csv", &changed, "v2");
    let run = fetch(&cat, &[]);
    let said = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(said.contains("6 rows before, 6 now"), "{said}");
    assert!(said.contains("added: moon-4;"), "{said}");
    assert!(said.contains("removed: moon-3;"), "{said}");
    assert!(said.contains("changed: moon-1 (title), sun-2 (title)"), "{said}");
    assert!(said.contains("fetched Sat, 28 Nov 2026 16:00:00 GMT"), "{said}");

    // The reprint after the fetch: exactly those cards, sun-2, moon-1 and moon-4's two.
    let second = dir.path().join("second");
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--changed-since",
            first.to_str().unwrap(),
            "--out",
            second.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(stdout(&run).contains("4 cards changed or new"), "{}", stdout(&run));
}

#[test]
fn a_plain_http_link_to_another_host_is_an_error_at_its_line() {
    // Refused before anything is asked: only this machine's own server is taken over http.
    let (_dir, cat) = linked_game("http://docs.google.com/spreadsheets/d/abc/edit#gid=7");
    let run = fetch(&cat, &[]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(stderr(&run).contains("plain http"), "{}", stderr(&run));
    assert!(stderr(&run).contains("game.toml:"), "{}", stderr(&run));
}

/// Each hostile answer: a clear error naming it, exit 2, the previous copy untouched.
#[test]
fn every_hostile_answer_is_a_clear_error_and_the_copy_is_kept() {
    let server = Server::start();
    let html = b"<!DOCTYPE html><html><body>Sign in - Google Accounts</body></html>".to_vec();
    let mut wide = String::from("id");
    for i in 0..1_000_000 {
        wide.push_str(&format!(",c{i}"));
    }
    wide.push('\n');
    let gzip = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(&vec![b'a'; 20 << 20]).unwrap();
        e.finish().unwrap()
    };
    let cases: Vec<(&str, Reply, &[&str], &str)> = vec![
        (
            "/signin",
            Reply::Body { body: html, headers: vec![("Content-Type".into(), "text/html".into())] },
            &[],
            "not published to the web",
        ),
        ("/missing", Reply::Status(404), &[], "no such sheet (404)"),
        ("/broken", Reply::Status(500), &[], "answered 500"),
        ("/private", Reply::Status(401), &[], "not published to the web"),
        (
            "/slow",
            Reply::Slow(CARDS.as_bytes().to_vec(), Duration::from_millis(1000)),
            &["--limit", "fetch-seconds=2"],
            "no whole answer within 2 s",
        ),
        (
            "/large",
            Reply::Body { body: CARDS.repeat(1000).into_bytes(), headers: vec![] },
            &["--limit", "fetch-bytes=10000"],
            "larger than 10000 bytes",
        ),
        ("/loop", Reply::Redirect("/loop".into()), &[], "redirects more than 5 times"),
        (
            "/to-file",
            Reply::Redirect("file:///etc/passwd".into()),
            &[],
            "no link deckpress follows",
        ),
        (
            "/to-other",
            Reply::Redirect("http://localhost:9/x.csv".into()),
            &[],
            "private network that was not asked for",
        ),
        (
            "/to-https-private",
            Reply::Redirect("https://10.0.0.1/x.csv".into()),
            &[],
            "private network that was not asked for",
        ),
        ("/wide", Reply::Body { body: wide.into_bytes(), headers: vec![] }, &[], "1000001 columns"),
        (
            "/gzip",
            Reply::Body { body: gzip, headers: vec![("Content-Encoding".into(), "gzip".into())] },
            &[],
            "not UTF-8",
        ),
    ];
    for (path, reply, extra, says) in cases {
        server.reply(path, reply);
        let (_dir, cat) = linked_game(&server.url(path));
        let before = std::fs::read(cat.join("cards.csv")).unwrap();
        let started = std::time::Instant::now();
        let run = fetch(&cat, extra);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{path}: {err}");
        assert!(err.contains(says), "{path}: `{says}` not said: {err}");
        assert!(err.contains("deck `cards`"), "{path}: the deck is not named: {err}");
        assert!(!err.contains("panicked"), "{path}: {err}");
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{path}: took {:?}",
            started.elapsed()
        );
        assert_eq!(
            std::fs::read(cat.join("cards.csv")).unwrap(),
            before,
            "{path}: the copy changed"
        );
        assert!(!cat.join(".deckpress-fetched.json").exists(), "{path}: remembered");
    }
    // Nothing was ever asked of the addresses redirected to.
    assert!(server.requests().iter().all(|r| !r.contains("/x.csv")));
}

#[test]
fn a_fetch_killed_midway_leaves_the_previous_copy_whole() {
    let server = Server::start();
    let body = CARDS.replace("Dawn", "Daybreak");
    server.reply("/slow", Reply::Slow(body.into_bytes(), Duration::from_millis(20)));
    let (_dir, cat) = linked_game(&server.url("/slow"));
    let before = std::fs::read(cat.join("cards.csv")).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_deckpress"))
        .args(["fetch", cat.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Half the body is sent by then.
    std::thread::sleep(Duration::from_millis(1_500));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read(cat.join("cards.csv")).unwrap(), before);
    let leftovers: Vec<_> = std::fs::read_dir(&cat)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn no_command_but_fetch_opens_a_connection() {
    let server = Server::start();
    server.csv("/cards.csv", CARDS, "v1");
    let (dir, cat) = linked_game(&server.url("/cards.csv"));
    let out = dir.path().join("out");
    let (cat_s, out_s) = (cat.to_str().unwrap(), out.to_str().unwrap());
    let connects = |args: &[&str]| {
        let log = dir.path().join("connects.log");
        let run = std::process::Command::new("strace")
            .args(["-f", "-e", "trace=connect", "-o", log.to_str().unwrap()])
            .arg(env!("CARGO_BIN_EXE_deckpress"))
            .args(args)
            .output()
            .expect("strace runs (installed by .ci/run)");
        assert!(run.status.success(), "{args:?}: {}", String::from_utf8_lossy(&run.stderr));
        let log = std::fs::read_to_string(&log).unwrap();
        log.lines().filter(|l| l.contains("connect(")).count()
    };
    for args in [
        vec!["validate", cat_s],
        vec!["build", cat_s, "--out", out_s],
        vec!["preview", cat_s, "--out", out_s, "-q"],
        vec!["rules", cat_s, "--out", out_s],
        vec!["export", "tts", cat_s, "--out", out_s],
    ] {
        let args = if args[0] == "rules" {
            std::fs::write(cat.join("rules.md"), "# Rules\n\nPlay.\n").unwrap();
            args
        } else {
            args
        };
        assert_eq!(connects(&args), 0, "{args:?} opened a connection");
    }
    assert!(connects(&["fetch", cat_s]) > 0, "fetch connected to nothing: the trace sees nothing");
}

/// A mistake in a linked sheet's copy is named by the sheet's cell, as the designer sees
/// it on the web (B4), and placed by the sheet's row even past a cell holding a line
/// break (the copy's line 5); the same copy unlinked keeps its CSV lines.
#[test]
fn a_mistake_in_a_linked_copy_is_named_by_the_sheets_cell() {
    let (_dir, cat) =
        linked_game("https://docs.google.com/spreadsheets/d/e/2PACX-1/pub?output=csv");
    let rows = "id,qty,suit,value,title\nsun-1,1,Sun,1,\"Dawn,\nearly\"\nsun-2,1,Sun,2,Noon\nsun-3,two,Sun,3,Dusk\nmoon-1,1,Moon,1,New Moon\n";
    std::fs::write(cat.join("cards.csv"), rows).unwrap();
    let validate = || deckpress(&["validate", cat.to_str().unwrap()], cat.parent().unwrap());
    let run = validate();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("in cell B4 of the sheet on the web"), "{err}");
    assert!(err.contains("cards.csv:4:2"), "{err}");
    // The twin without a link: the file's own line and column.
    edit(&cat, "game.toml", "rows_url = ", "# rows_url = ");
    let err = stderr(&validate());
    assert!(err.contains("cards.csv:5:7") && !err.contains("in cell"), "{err}");
}
