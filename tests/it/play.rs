//! `deckpress play`: the playtest table in a real headless Chromium, driven over the
//! DevTools protocol through `--remote-debugging-pipe` (NUL-terminated JSON on the child's
//! fds 3 and 4; no websocket crate needed), with real key and mouse input; and `--odds`,
//! `--players` and `[[odds]]` errors from the command line.

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{copy_catalogue, deckpress, edit, line_of, new_game, stderr, stdout};

fn chromium() -> Option<PathBuf> {
    crate::common::chromium("the table")
}

/// One headless Chromium and the page session the test drives.
struct Browser {
    child: Child,
    to_browser: std::fs::File,
    from_browser: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
    /// Every event received so far (requests, console messages, exceptions).
    events: Vec<Value>,
    _profile: tempfile::TempDir,
}

/// A pipe whose ends are closed on exec (the child gets its copies by `dup2`).
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` is two ints for pipe2 to fill.
    let made = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(made, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: pipe2 returned two fresh descriptors that nothing else owns.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

impl Browser {
    fn start(chromium: &Path) -> Browser {
        use std::os::fd::AsRawFd;
        let profile = tempfile::tempdir().unwrap();
        let (child_reads, we_write) = pipe();
        let (we_read, child_writes) = pipe();
        let (r, w) = (child_reads.as_raw_fd(), child_writes.as_raw_fd());
        let mut command = Command::new(chromium);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--remote-debugging-pipe",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only dup2, which is async-signal-safe, runs between fork and exec.
        unsafe {
            command.pre_exec(move || {
                // Above 4 first, so that neither end is where the other goes, and dup2
                // onto a new number (a pipe end already at 3 would keep close-on-exec).
                let (r, w) = (libc::fcntl(r, libc::F_DUPFD, 10), libc::fcntl(w, libc::F_DUPFD, 10));
                if r < 0 || w < 0 || libc::dup2(r, 3) < 0 || libc::dup2(w, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        drop((child_reads, child_writes));
        let (send, from_browser) = std::sync::mpsc::channel();
        let mut reader = std::fs::File::from(we_read);
        std::thread::spawn(move || {
            let mut buffer = Vec::new();
            let mut chunk = [0u8; 65536];
            while let Ok(n) = reader.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                buffer.extend_from_slice(&chunk[..n]);
                while let Some(end) = buffer.iter().position(|&b| b == 0) {
                    let message: Vec<u8> = buffer.drain(..=end).collect();
                    if let Ok(value) = serde_json::from_slice(&message[..end]) {
                        if send.send(value).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut browser = Browser {
            child,
            to_browser: std::fs::File::from(we_write),
            from_browser,
            next_id: 0,
            session: None,
            events: Vec::new(),
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }));
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached =
            browser.call("Target.attachToTarget", json!({ "targetId": target, "flatten": true }));
        browser.session = Some(attached["sessionId"].as_str().unwrap().to_string());
        for domain in ["Page.enable", "Runtime.enable", "Network.enable", "Log.enable"] {
            browser.call(domain, json!({}));
        }
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": false }),
        );
        browser
    }

    /// Sends one command to the page's session and waits for its answer.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = &self.session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.to_browser.write_all(&bytes).expect("chromium reads its pipe");
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.from_browser.recv_timeout(left) {
                Ok(answer) if answer["id"] == json!(id) => {
                    assert!(answer.get("error").is_none(), "{method}: {}", answer["error"]);
                    return answer["result"].clone();
                }
                Ok(event) => self.events.push(event),
                Err(RecvTimeoutError::Timeout) => panic!("no answer to {method} in 30 s"),
                Err(RecvTimeoutError::Disconnected) => panic!("chromium closed its pipe"),
            }
        }
    }

    /// The value of a JavaScript expression on the page (to read the DOM, never to act).
    fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }));
        assert!(result.get("exceptionDetails").is_none(), "{expression}: {result}");
        result["result"]["value"].clone()
    }

    /// Opens `url` and waits for the page to say its first deal is drawn (`data-ready`):
    /// the milliseconds it took from navigation start, as the page measured them.
    fn open(&mut self, url: &str) -> f64 {
        // The page before would answer `data-ready` until the new one is committed.
        self.eval("document.documentElement && delete document.documentElement.dataset.ready");
        self.call("Page.navigate", json!({ "url": url }));
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = self.eval(
                "document.documentElement ? document.documentElement.dataset.ready || '' : ''",
            );
            if let Some(ms) = ready.as_str().and_then(|s| s.parse::<f64>().ok()) {
                return ms;
            }
            let failed = self.events.iter().any(|e| e["method"] == "Runtime.exceptionThrown");
            assert!(
                !failed && Instant::now() < until,
                "the page never set data-ready: {:?}",
                self.problems()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A left click in the middle of the first element `selector` finds.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + Math.min(r.height / 2, 20)]; }})()"
        ));
        let (x, y) = (at[0].as_f64().expect(selector), at[1].as_f64().unwrap());
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// The mouse pressed on the middle of the first element `selector` finds, moved by
    /// (dx, dy) and released there.
    fn drag(&mut self, selector: &str, (dx, dy): (f64, f64)) {
        let at = self.eval(&format!(
            "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let mouse = |kind: &str, x: f64, y: f64, buttons: u32| json!({ "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1 });
        self.call("Input.dispatchMouseEvent", mouse("mouseMoved", x, y, 0));
        self.call("Input.dispatchMouseEvent", mouse("mousePressed", x, y, 1));
        for step in 1..=4 {
            let f = f64::from(step) / 4.0;
            self.call("Input.dispatchMouseEvent", mouse("mouseMoved", x + dx * f, y + dy * f, 1));
        }
        self.call("Input.dispatchMouseEvent", mouse("mouseReleased", x + dx, y + dy, 0));
    }

    /// A key pressed and released: `Enter`, an arrow, or a character.
    fn key(&mut self, key: &str) {
        self.key_with(key, 0);
    }

    /// A key with modifiers held (8: Shift).
    fn key_with(&mut self, key: &str, modifiers: u32) {
        let (code, vk, text) = match key {
            "Enter" => ("Enter".to_string(), 13, "\r".to_string()),
            "ArrowRight" => (key.to_string(), 39, String::new()),
            "ArrowLeft" => (key.to_string(), 37, String::new()),
            "ArrowDown" => (key.to_string(), 40, String::new()),
            "ArrowUp" => (key.to_string(), 38, String::new()),
            c if c.len() == 1 && c.chars().all(|c| c.is_ascii_digit()) => {
                (format!("Digit{c}"), c.as_bytes()[0] as i64, c.to_string())
            }
            c => (
                format!("Key{}", c.to_uppercase()),
                c.to_uppercase().as_bytes()[0] as i64,
                c.to_string(),
            ),
        };
        let mut down = json!({ "type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk, "modifiers": modifiers });
        if !text.is_empty() {
            down["text"] = json!(text);
        }
        self.call("Input.dispatchKeyEvent", down);
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk, "modifiers": modifiers }),
        );
    }

    fn screenshot(&mut self, path: &Path) {
        let shot = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": true }),
        );
        std::fs::write(path, base64(shot["data"].as_str().unwrap())).unwrap();
    }

    /// Every URL the page asked for.
    fn requests(&mut self) -> Vec<String> {
        self.drain();
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| e["params"]["request"]["url"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Uncaught exceptions, console errors and warnings, and errors the browser logged
    /// (a picture that failed to load, a blocked request).
    fn problems(&mut self) -> Vec<String> {
        self.drain();
        self.events
            .iter()
            .filter_map(|e| match e["method"].as_str()? {
                "Runtime.exceptionThrown" => Some(e["params"]["exceptionDetails"].to_string()),
                "Runtime.consoleAPICalled"
                    if matches!(e["params"]["type"].as_str(), Some("error" | "warning")) =>
                {
                    Some(e["params"]["args"].to_string())
                }
                "Log.entryAdded" if e["params"]["entry"]["level"] == "error" => {
                    Some(e["params"]["entry"].to_string())
                }
                _ => None,
            })
            .collect()
    }

    fn drain(&mut self) {
        while let Ok(event) = self.from_browser.try_recv() {
            self.events.push(event);
        }
    }

    /// The card ids in each seat's hand, the table's, and the draw piles', in DOM order.
    fn deal(&mut self) -> (Vec<Vec<String>>, Vec<String>, Vec<String>) {
        let value = self.eval(
            "(() => { const ids = (el) => Array.from(el.querySelectorAll('[data-card]')).map((c) => c.dataset.card);
               return [Array.from(document.querySelectorAll('[data-seat]')).map(ids),
                       ids(document.querySelector('[data-area=\"table\"]')),
                       Array.from(document.querySelectorAll('[data-area=\"draw\"]')).flatMap(ids)]; })()",
        );
        serde_json::from_value(value).unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64 (what Page.captureScreenshot sends) decoded.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n =
            chunk.iter().enumerate().fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    out
}

/// `deckpress play GAME` into a fresh folder: (the folder, the page).
fn play(game: &str, extra: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec!["play", game, "-q", "--out"];
    let dir = out.path().to_str().unwrap().to_string();
    args.push(&dir);
    args.extend(extra);
    let made = deckpress(&args, &crate::common::repo());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let page = stdout(&made).lines().next().unwrap().trim().to_string();
    (out, PathBuf::from(page))
}

/// Rust's deal (the library the command runs) of a built-in game, by card id.
fn rust_deal(game: &str, players: u32, seed: u32) -> (Vec<Vec<String>>, Vec<String>, Vec<String>) {
    let world = deckpress::games::builtin(game).unwrap();
    let cat = deckpress::plan::load(&world, &deckpress::limits::Limits::default()).ok().unwrap();
    let dealt = deckpress::play::deal::deal(&cat, players, seed);
    let ids = |cards: &[deckpress::play::deal::CardRef]| -> Vec<String> {
        cards.iter().map(|c| cat.decks[c.deck].rows[c.row].id.clone()).collect()
    };
    (
        dealt.seats.iter().map(|s| ids(s)).collect(),
        ids(&dealt.table),
        dealt.draw.iter().flat_map(|(_, pile)| ids(pile)).collect(),
    )
}

fn url(page: &Path, query: &str) -> String {
    format!("file://{}{query}", page.display())
}

#[test]
fn travfuda_for_three_deals_eight_each_and_twelve_to_the_table_as_rust_deals() {
    let Some(chromium) = chromium() else { return };
    let (_out, page) = play("travfuda", &["--players", "3", "--seed", "42"]);
    let mut browser = Browser::start(&chromium);
    browser.open(&url(&page, "?players=3&seed=42"));
    let (seats, table, draw) = browser.deal();
    assert_eq!(seats.iter().map(Vec::len).collect::<Vec<_>>(), [8, 8, 8]);
    assert_eq!(table.len(), 12);
    assert_eq!(
        seats.iter().map(Vec::len).sum::<usize>() + table.len() + draw.len() - 6,
        62,
        "62 cards and the 6 player aids"
    );
    assert_eq!(
        (seats.clone(), table.clone(), draw.clone()),
        rust_deal("travfuda", 3, 42),
        "the page deals as Rust does"
    );
    // The same seed deals the same again; another seed another deal.
    browser.open(&url(&page, "?players=3&seed=42"));
    assert_eq!(browser.deal(), (seats.clone(), table.clone(), draw));
    browser.open(&url(&page, "?players=3&seed=43"));
    let other = browser.deal();
    assert_ne!((other.0.clone(), other.1.clone()), (seats, table));
    assert_eq!(other, rust_deal("travfuda", 3, 43));
    // Five players: 5 each and 10 to the table, from the address alone.
    browser.open(&url(&page, "?players=5&seed=42"));
    let (seats, table, _) = browser.deal();
    assert_eq!(seats.iter().map(Vec::len).collect::<Vec<_>>(), [5; 5]);
    assert_eq!(table.len(), 10);
    let shot = page.with_file_name("table.png");
    browser.open(&url(&page, "?players=3&seed=42"));
    browser.screenshot(&shot);
    if let Ok(keep) = std::env::var("DECKPRESS_KEEP_SHOTS") {
        std::fs::copy(&shot, Path::new(&keep).join("travfuda-table.png")).unwrap();
    }
    assert_eq!(browser.problems(), Vec::<String>::new());
}

/// Counts of cards in each place: seats, table, first draw pile, first discards.
fn counts(browser: &mut Browser) -> Vec<u64> {
    let value = browser.eval(
        "(() => { const n = (s) => document.querySelectorAll(s).length;
           return [...Array.from(document.querySelectorAll('[data-seat]')).map((s) => s.querySelectorAll('[data-card]').length),
                   n('[data-area=\"table\"] [data-card]'), n('[data-area=\"draw\"] [data-card]'), n('[data-area=\"discard\"] [data-card]')]; })()",
    );
    serde_json::from_value(value).unwrap()
}

#[test]
fn drawing_playing_passing_discarding_and_undoing_change_the_table() {
    let Some(chromium) = chromium() else { return };
    let (_out, page) = play("travfuda", &[]);
    let mut browser = Browser::start(&chromium);
    browser.open(&url(&page, "?players=3&seed=7"));
    // seats 1..3, table, draw (cards, then aids), discards
    let start = counts(&mut browser);
    assert_eq!(start[..5], [8, 8, 8, 12, 26 + 6]);
    // Draw: click the draw pile's top card, Enter.
    browser.click("[data-area=draw][data-deck=cards] [data-card]");
    browser.key("Enter");
    assert_eq!(counts(&mut browser)[..5], [9, 8, 8, 12, 31]);
    let drawn = browser
        .eval("document.querySelector('[data-seat=\"1\"] [data-card]:last-child').dataset.card");
    // Play it to the table: the card it was is now on the table, face up.
    browser.click("[data-seat=\"1\"] [data-card]:last-child");
    browser.key("Enter");
    assert_eq!(counts(&mut browser)[..5], [8, 8, 8, 13, 31]);
    let on_table = browser.eval("Array.from(document.querySelectorAll('[data-area=\"table\"] [data-card]')).map((c) => c.dataset.card + ':' + c.dataset.face)");
    assert!(
        on_table.as_array().unwrap().contains(&json!(format!("{}:up", drawn.as_str().unwrap()))),
        "{on_table}"
    );
    // Undo puts it back in the hand; undo again puts it back on the pile.
    browser.key("u");
    assert_eq!(counts(&mut browser)[..5], [9, 8, 8, 12, 31]);
    browser.key("u");
    assert_eq!(counts(&mut browser), start);
    // Pass: the first card of seat 1 goes to seat 2 (P), then to seat 3 by number.
    browser.click("[data-seat=\"1\"] [data-card]");
    let passed = browser.eval("document.activeElement.dataset.uid");
    browser.key("p");
    assert_eq!(counts(&mut browser)[..3], [7, 9, 8]);
    let in_seat = |b: &mut Browser, s: u32| {
        b.eval(&format!("Array.from(document.querySelectorAll('[data-seat=\"{s}\"] [data-uid]')).map((c) => c.dataset.uid)"))
    };
    assert!(in_seat(&mut browser, 2).as_array().unwrap().contains(&passed));
    browser.key("3");
    assert_eq!(counts(&mut browser)[..3], [7, 8, 9]);
    assert!(in_seat(&mut browser, 3).as_array().unwrap().contains(&passed));
    // Discard it (D), then shuffle the discards back into the draw pile with the button.
    browser.key("d");
    let now = counts(&mut browser);
    assert_eq!((now[2], now[5]), (8, 1));
    browser.click("[data-action=reshuffle]");
    let now = counts(&mut browser);
    assert_eq!((now[4], now[5]), (27 + 6, 0));
    // The log says what happened, one line a move kept.
    let log =
        browser.eval("Array.from(document.querySelectorAll('#log li')).map((l) => l.textContent)");
    let log: Vec<String> = serde_json::from_value(log).unwrap();
    assert_eq!(log.len(), 4, "{log:?}");
    assert!(log[0].starts_with("Seat 1 passed a card to Seat 2"), "{log:?}");
    // Flip a table card face down with F, and move it with Shift+arrows and the mouse.
    browser.click("[data-area=table] [data-card]");
    browser.key("f");
    let first = "document.querySelector('[data-area=\"table\"] [data-card]')";
    assert_eq!(browser.eval(&format!("{first}.dataset.face")), json!("down"));
    let place = |b: &mut Browser| -> (f64, f64) {
        let at =
            b.eval(&format!("[parseFloat({first}.style.left), parseFloat({first}.style.top)]"));
        (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
    };
    let (x, y) = place(&mut browser);
    browser.key_with("ArrowRight", 8);
    browser.key_with("ArrowDown", 8);
    assert_eq!(place(&mut browser), (x + 8.0, y + 8.0));
    browser.drag("[data-area=table] [data-card]", (60.0, 40.0));
    assert_eq!(place(&mut browser), (x + 68.0, y + 48.0));
    browser.key("u");
    assert_eq!(place(&mut browser), (x + 8.0, y + 8.0), "a drag is undone as one move");
    // Pass-and-play: only the shown seat's faces are shown; N shows the next seat.
    let faces = |b: &mut Browser, s: u32| {
        b.eval(&format!("Array.from(document.querySelectorAll('[data-seat=\"{s}\"] [data-card]')).every((c) => c.dataset.face === 'up')"))
    };
    assert_eq!((faces(&mut browser, 1), faces(&mut browser, 2)), (json!(true), json!(false)));
    browser.key("n");
    assert_eq!((faces(&mut browser, 1), faces(&mut browser, 2)), (json!(false), json!(true)));
    browser.key("a");
    assert_eq!((faces(&mut browser, 1), faces(&mut browser, 3)), (json!(true), json!(true)));
    if let Ok(keep) = std::env::var("DECKPRESS_KEEP_SHOTS") {
        browser.screenshot(&Path::new(&keep).join("travfuda-played.png"));
    }
    // The action bar with the mouse: a card of the deck selected, Draw takes its pile's
    // top card into the shown hand (seat 2's, after N).
    let before = counts(&mut browser);
    let top = browser.eval("document.querySelector('[data-area=\"draw\"][data-deck=\"cards\"] [data-card]').dataset.uid");
    browser.click("[data-seat=\"1\"] [data-card]");
    browser.click("#actions [data-action=draw]");
    let after = counts(&mut browser);
    assert_eq!((after[1], after[4]), (before[1] + 1, before[4] - 1));
    assert!(in_seat(&mut browser, 2).as_array().unwrap().contains(&top));
    assert_eq!(browser.problems(), Vec::<String>::new());
}

#[test]
fn the_table_asks_for_nothing_but_its_own_files_in_every_built_in_game_and_a_new_one() {
    let Some(chromium) = chromium() else { return };
    let mut browser = Browser::start(&chromium);
    let (_new, game) = new_game();
    let games = ["travfuda", "trumpet", "trash", "track", "anti-trump"];
    let mut outs = Vec::new();
    for game in games.iter().copied().chain([game.to_str().unwrap()]) {
        let (out, page) = play(game, &[]);
        let ms = browser.open(&url(&page, ""));
        let cards =
            browser.eval("document.querySelectorAll('[data-card]').length").as_u64().unwrap();
        assert!(cards > 0, "{game}: no card on the table");
        let broken = browser.eval("Array.from(document.images).filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.src)");
        assert_eq!(broken, json!([]), "{game}: pictures that did not load");
        eprintln!("{game}: {cards} cards, ready in {ms} ms");
        if let Ok(keep) = std::env::var("DECKPRESS_KEEP_SHOTS") {
            let name = Path::new(game).file_name().unwrap().to_string_lossy().into_owned();
            browser.screenshot(&Path::new(&keep).join(format!("{name}-table.png")));
        }
        outs.push(out);
    }
    let requests = browser.requests();
    let elsewhere: Vec<&String> = requests
        .iter()
        .filter(|u| !u.starts_with("file://") && !u.starts_with("data:") && *u != "about:blank")
        .collect();
    assert!(
        requests.iter().any(|u| u.ends_with(".png")),
        "the pictures are requests too: {requests:?}"
    );
    assert!(elsewhere.is_empty(), "requests off the machine: {elsewhere:?}");
    assert_eq!(browser.problems(), Vec::<String>::new());
}

#[test]
fn a_game_with_no_deal_table_opens_with_every_card_in_the_draw_pile_and_a_warning() {
    let Some(chromium) = chromium() else { return };
    // Track has no [[deal]]: its 158 cards are the draw pile.
    let out = tempfile::tempdir().unwrap();
    let made = deckpress(
        &["play", "track", "-q", "--out", out.path().to_str().unwrap()],
        &crate::common::repo(),
    );
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    assert!(stderr(&made).contains("no [[deal]] table"), "{}", stderr(&made));
    let page = PathBuf::from(stdout(&made).lines().next().unwrap());
    let mut browser = Browser::start(&chromium);
    browser.open(&url(&page, "?players=2&seed=5"));
    let (seats, table, _) = browser.deal();
    assert_eq!((seats.iter().map(Vec::len).sum::<usize>(), table.len()), (0, 0));
    assert_eq!(browser.eval("document.querySelectorAll('[data-area=\"draw\"][data-deck=\"cards\"] [data-card]').length"), json!(158));
    assert_eq!(browser.eval("document.querySelector('#note').hidden"), json!(false));
}

#[test]
fn players_outside_the_deal_table_is_a_usage_error_naming_the_counts() {
    let out = tempfile::tempdir().unwrap();
    let made = deckpress(
        &["play", "travfuda", "--players", "7", "--out", out.path().to_str().unwrap()],
        &crate::common::repo(),
    );
    assert_eq!(made.status.code(), Some(2), "{}", stderr(&made));
    let said = stderr(&made);
    assert!(said.contains("--players 7") && said.contains("2, 3, 4, 5 or 6"), "{said}");
    assert!(!out.path().join("travfuda").join("play").join("index.html").exists());
}

#[test]
fn odds_deal_many_times_and_name_how_often_each_condition_holds() {
    let made = deckpress(&["play", "travfuda", "--odds", "2000"], &crate::common::repo());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let table = stdout(&made);
    let row = |players: &str| {
        table
            .lines()
            .find(|l| l.contains("3 Starbursts") && l.split_whitespace().any(|w| w == players))
            .unwrap_or_else(|| panic!("no row for {players} players: {table}"))
            .to_string()
    };
    // Five Starbursts among 62 cards: 3 or more in 12 cards (2 players) is about 4.7 %
    // (hypergeometric), in 4 cards (6 players) about 0.2 %.
    let percent = |line: &str| -> f64 {
        line.split('%').next().unwrap().split_whitespace().last().unwrap().parse().unwrap()
    };
    let two = percent(&row("2"));
    assert!((2.5..7.5).contains(&two), "{two} % for 2 players: {table}");
    assert!(percent(&row("6")) < 1.5, "{table}");
}

#[test]
fn odds_naming_an_unknown_deck_or_field_are_errors_at_their_line() {
    let (_dir, cat) = copy_catalogue("travfuda");
    let emperor = "name = \"3 Starbursts at the deal (an Emperor attempt)\"\ndeck = \"cards\"\n";
    edit(
        &cat,
        "game.toml",
        &format!("{emperor}where = {{ type"),
        &format!("{emperor}where = {{ sort"),
    );
    let made = deckpress(&["validate", cat.to_str().unwrap()], &cat);
    assert_eq!(made.status.code(), Some(1), "{}", stderr(&made));
    let line = line_of(&cat, "game.toml", "where = { sort = \"Starburst\" }");
    assert!(stderr(&made).contains(&format!("game.toml:{line}:")), "{}", stderr(&made));
    assert!(stderr(&made).contains("unknown field `sort`"), "{}", stderr(&made));

    let (_dir, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "game.toml",
        &format!("{emperor}where"),
        &format!("{}where", emperor.replace("\"cards\"", "\"markers\"")),
    );
    let made = deckpress(&["validate", cat.to_str().unwrap()], &cat);
    assert_eq!(made.status.code(), Some(1), "{}", stderr(&made));
    assert!(stderr(&made).contains("which no [[deal]] deals"), "{}", stderr(&made));

    let (_dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "game.toml", "Double\" }\nat_least = 3\n", "Double\" }\nat_least = 3\nodds = 1\n");
    let made = deckpress(&["validate", cat.to_str().unwrap()], &cat);
    assert_eq!(made.status.code(), Some(1), "{}", stderr(&made));
    let line = line_of(&cat, "game.toml", "odds = 1");
    assert!(stderr(&made).contains(&format!("game.toml:{line}:")), "{}", stderr(&made));
}

#[test]
fn the_table_loads_the_game_once_and_draws_its_pictures_through_the_plans_raster_sink() {
    let out = tempfile::tempdir().unwrap();
    let traced = |debug: &str| {
        let run = Command::new(env!("CARGO_BIN_EXE_deckpress"))
            .args(["play", "trumpet", "-q", "--out", out.path().to_str().unwrap()])
            .current_dir(crate::common::repo())
            .env("DECKPRESS_DEBUG", debug)
            .output()
            .expect("the binary runs");
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        stderr(&run)
    };
    let loads = traced("load");
    assert_eq!(
        loads.lines().filter(|l| l.starts_with("deckpress: loading ")).count(),
        1,
        "{loads}"
    );
    let said = traced("plan");
    let executed: Vec<&str> = said
        .lines()
        .filter_map(|l| l.strip_prefix("deckpress: executing trumpet/play/"))
        .map(|l| l.strip_suffix(" into raster pictures").unwrap_or(l))
        .collect();
    // Every folder of pictures beside the page is a document the executor ran.
    let dir = out.path().join("trumpet").join("play");
    let mut folders: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut documents: Vec<String> = executed.iter().map(|s| s.to_string()).collect();
    documents.sort();
    assert_eq!(folders, documents, "{said}");
    assert!(documents.contains(&"sheets".to_string()) && documents.contains(&"pawns".to_string()));
    assert!(dir.join("sheets").join("board.png").is_file(), "the board under the table");
}

#[test]
fn a_card_renamed_since_the_last_table_leaves_no_picture_behind() {
    let (_dir, cat) = copy_catalogue("travfuda");
    let out = tempfile::tempdir().unwrap();
    let args = ["play", cat.to_str().unwrap(), "-q", "--out", out.path().to_str().unwrap()];
    assert_eq!(deckpress(&args, &cat).status.code(), Some(0));
    let cards = out.path().join("travfuda/play/cards");
    assert!(cards.join("joker.png").is_file());
    edit(&cat, "cards.csv", "joker,", "jester,");
    let again = deckpress(&args, &cat);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(cards.join("jester.png").is_file());
    assert!(!cards.join("joker.png").exists(), "the old card's picture is gone");
    let page = std::fs::read_to_string(out.path().join("travfuda/play/index.html")).unwrap();
    assert!(page.contains("cards/jester.png") && !page.contains("cards/joker.png"));
}

#[test]
fn a_deck_name_with_markup_is_shown_as_text_and_runs_nothing() {
    let Some(chromium) = chromium() else { return };
    let (_dir, cat) = copy_catalogue("travfuda");
    let name = "TravFuda </script><script>document.title='owned'</script> & <b>";
    edit(&cat, "game.toml", "name = \"TravFuda deck\"", &format!("name = \"{name}\""));
    let out = tempfile::tempdir().unwrap();
    let made = deckpress(
        &["play", cat.to_str().unwrap(), "-q", "--out", out.path().to_str().unwrap()],
        &cat,
    );
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let page = out.path().join("travfuda/play/index.html");
    let mut browser = Browser::start(&chromium);
    browser.open(&url(&page, "?players=3&seed=1"));
    assert_eq!(browser.eval("document.querySelector('.pile h2').textContent"), json!(name));
    assert_ne!(browser.eval("document.title"), json!("owned"));
    assert_eq!(browser.problems(), Vec::<String>::new());
}
