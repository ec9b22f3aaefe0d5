//! `deckpress fetch`: the one command that uses the network. Each deck or sheet whose
//! rows are linked to a sheet published on the web (`rows_url`) is downloaded, checked to
//! be rows, compared with the local copy and written over it atomically; every other
//! command reads only the local copy. The server's `ETag` and `Last-Modified` are kept
//! beside the copies (`.deckpress-fetched.json`) and sent again, so an unchanged sheet is
//! not downloaded twice. A server is a stranger: its answer is bounded in time and size,
//! its redirects followed by hand (https only, never into a private network it was not
//! asked for), and any failure leaves the previous copy as it was.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::diag::{Diagnostic, Failure, Sources};
use crate::driver::Outcome;
use crate::limits::Limits;
use crate::load::LinkedRows;
use crate::world::World;

/// Where the last answer of each linked sheet is kept, in the catalogue folder.
const FETCHED: &str = ".deckpress-fetched.json";
/// Redirects followed before giving up (Google's export link redirects once).
const MAX_REDIRECTS: usize = 5;
/// Columns a downloaded sheet may have: far beyond a card's fields.
const MAX_COLUMNS: usize = 1_000;

/// What the server last said of one linked sheet.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
struct Fetched {
    url: String,
    #[serde(default)]
    etag: Option<String>,
    #[serde(default)]
    last_modified: Option<String>,
    /// The server's `Date` of that answer: when the copy was fetched.
    #[serde(default)]
    date: Option<String>,
}

/// `deckpress fetch GAME…`: each game's linked sheets downloaded into their local copies.
pub fn run(games: &crate::cli::Games, limits: &[(String, u64)]) -> Result<Vec<Outcome>, Failure> {
    let limits = Limits::new(limits);
    let games = crate::games::resolve(&games.games, games.all)?;
    Ok(games
        .into_iter()
        .map(|(name, world)| {
            let result = fetch_game(&world, &limits);
            Outcome::new(name, result)
        })
        .collect())
}

/// Every linked sheet of one game: a report line for each, and a note on Google's cache.
fn fetch_game(world: &World, limits: &Limits) -> Result<Vec<String>, Failure> {
    let (linked, game_toml, text) = crate::load::linked_rows(world)?;
    if linked.is_empty() {
        return Ok(vec![format!(
            "{}: no deck or sheet links its rows to a sheet on the web (`rows_url`): nothing to fetch",
            world.root().display()
        )]);
    }
    let Some(root) = world.disk_root().map(Path::to_path_buf) else {
        return Err(Failure::Io("a built-in game's rows are not linked to the web".into()));
    };
    // A link deckpress would not fetch is the catalogue's mistake, said at its line.
    let (mut wrong, mut links) = (Vec::new(), Vec::new());
    for l in &linked {
        let link = match l.rows.is_empty() {
            true => Err("`rows_url` needs `rows`, the local copy every command reads".to_string()),
            false => crate::link::parse(&l.url, &l.rows),
        };
        match link {
            Ok(link) => links.push((l, link)),
            Err(message) => wrong.push(Diagnostic::new(&game_toml, Some(l.span.clone()), message)),
        }
    }
    if !wrong.is_empty() {
        let mut sources = Sources::default();
        sources.insert(game_toml, text);
        return Err(Failure::Invalid(wrong, sources));
    }
    let mut fetched = read_fetched(world);
    let agent = agent(limits);
    let mut lines = Vec::new();
    let mut google = false;
    for (l, link) in &links {
        google |= link.host == "docs.google.com";
        let line = fetch_one(world, &root, l, link, &agent, fetched.get(&l.rows), limits)
            .map_err(|why| Failure::Io(format!("{} (`{}`): {why}", l.what, l.url)))?;
        match line {
            Done::Unchanged(line) => lines.push(line),
            Done::Written(line, answer) => {
                lines.push(line);
                fetched.insert(l.rows.clone(), answer);
                // Kept after each copy: a later failure leaves what was fetched known.
                write_fetched(&root, &fetched)?;
            }
        }
    }
    if google {
        lines.push(
            "note: Google serves a published sheet as it was up to about five minutes ago: an edit just made may not be in this copy yet".to_string(),
        );
    }
    Ok(lines)
}

/// What fetching one sheet came to.
enum Done {
    /// The server says the copy is current (304): nothing written.
    Unchanged(String),
    /// A new copy written, with the answer to remember.
    Written(String, Fetched),
}

fn fetch_one(
    world: &World,
    root: &Path,
    l: &LinkedRows,
    link: &crate::link::Link,
    agent: &ureq::Agent,
    before: Option<&Fetched>,
    limits: &Limits,
) -> Result<Done, String> {
    let target = crate::output::inside(root, Path::new(&l.rows))?;
    if std::fs::symlink_metadata(&target).is_ok_and(|m| !m.is_file()) {
        return Err(format!(
            "`{}` is not a regular file (a link, a folder or a pipe): fetch writes the copy only over a file of its own",
            l.rows
        ));
    }
    // The previous answer is sent again only while the copy it made is there.
    let had = world.read_bytes(&l.rows).ok();
    let before = before.filter(|b| b.url == link.download && had.is_some());
    let answer = download(agent, link, before, limits)?;
    let Answer { bytes, etag, last_modified, date } = match answer {
        None => {
            let when = before.and_then(|b| b.date.clone()).unwrap_or_default();
            return Ok(Done::Unchanged(format!(
                "{}: unchanged since it was fetched{}",
                l.rows,
                if when.is_empty() { String::new() } else { format!(" ({when})") }
            )));
        }
        Some(answer) => answer,
    };
    if looks_like_html(&bytes) {
        return Err(not_published());
    }
    let sheet = l.sheet.as_deref();
    let text = crate::load::rows_text(&bytes, &l.rows, sheet)
        .map_err(|why| format!("the answer is not rows: {why}"))?;
    let after =
        Rows::parse(&text, limits).map_err(|why| format!("the answer is not rows: {why}"))?;
    let old = had.as_deref().and_then(|b| crate::load::rows_text(b, &l.rows, sheet).ok());
    let old = old.and_then(|t| Rows::parse(&t, limits).ok());
    crate::output::write_atomic(&target, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    let report = report(&l.rows, old.as_ref(), &after, date.as_deref());
    let url = link.download.clone();
    Ok(Done::Written(report, Fetched { url, etag, last_modified, date }))
}

/// A downloaded sheet, or `None` when the server says the copy is current.
struct Answer {
    bytes: Vec<u8>,
    etag: Option<String>,
    last_modified: Option<String>,
    date: Option<String>,
}

/// The client: every call ends within the deadline, redirects are followed by hand.
fn agent(limits: &Limits) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(limits.fetch_seconds)))
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .user_agent(concat!("deckpress/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

fn download(
    agent: &ureq::Agent,
    link: &crate::link::Link,
    before: Option<&Fetched>,
    limits: &Limits,
) -> Result<Option<Answer>, String> {
    let mut url = link.download.clone();
    let started = std::time::Instant::now();
    for _ in 0..=MAX_REDIRECTS {
        let mut request = agent.get(&url);
        if let Some(b) = before {
            if let Some(etag) = &b.etag {
                request = request.header("If-None-Match", etag);
            }
            if let Some(modified) = &b.last_modified {
                request = request.header("If-Modified-Since", modified);
            }
        }
        let mut response = request.call().map_err(|e| failed(e, limits))?;
        let status = response.status().as_u16();
        let header = |name: &str| {
            response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
        };
        match status {
            200 => {
                let (etag, last_modified, date) =
                    (header("etag"), header("last-modified"), header("date"));
                let html = header("content-type").is_some_and(|t| t.contains("text/html"));
                let bytes = read_body(response.body_mut().as_reader(), started, limits)?;
                if html {
                    return Err(not_published());
                }
                return Ok(Some(Answer { bytes, etag, last_modified, date }));
            }
            304 => return Ok(None),
            301 | 302 | 303 | 307 | 308 => {
                let location = header("location").ok_or("a redirect that says not where to")?;
                url = redirected(&url, &location, &link.host)?;
            }
            401 | 403 => return Err(not_published()),
            404 | 410 => {
                return Err(format!(
                    "the server has no such sheet ({status}): check the link; an unpublished or deleted sheet answers so"
                ))
            }
            _ => return Err(format!("the server answered {status}: try again later")),
        }
    }
    Err(format!("the link redirects more than {MAX_REDIRECTS} times (a loop?)"))
}

/// The body, up to `fetch-bytes` of it, within `fetch-seconds` of `started`. Checked here
/// after each read: ureq's own deadline gives a server that sends a byte a second one more
/// second for each (a read waits at least a second past the deadline), so it never ends.
fn read_body(
    mut body: impl std::io::Read,
    started: std::time::Instant,
    limits: &Limits,
) -> Result<Vec<u8>, String> {
    let deadline = started + Duration::from_secs(limits.fetch_seconds);
    let (mut bytes, mut chunk) = (Vec::new(), vec![0u8; 64 << 10]);
    loop {
        let n = match body.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.get_ref().is_some_and(|inner| inner.is::<ureq::Error>()) => {
                let inner = e.into_inner().and_then(|i| i.downcast::<ureq::Error>().ok());
                return Err(
                    inner.map_or_else(|| "the download failed".into(), |e| failed(*e, limits))
                );
            }
            Err(e) => return Err(failed(ureq::Error::Io(e), limits)),
        };
        if n == 0 {
            return Ok(bytes);
        }
        if (bytes.len() + n) as u64 > limits.fetch_bytes {
            return Err(failed(ureq::Error::BodyExceedsLimit(limits.fetch_bytes), limits));
        }
        bytes.extend_from_slice(&chunk[..n]);
        if std::time::Instant::now() > deadline {
            return Err(failed(ureq::Error::Timeout(ureq::Timeout::Global), limits));
        }
    }
}

/// Where a redirect leads, if deckpress follows it: https (plain http only from this
/// machine to itself), and never into a private network from a host that was not one.
fn redirected(from: &str, location: &str, asked: &str) -> Result<String, String> {
    let next = if location.starts_with('/') && !location.starts_with("//") {
        let (scheme, host, port, _) =
            crate::link::parts(from).ok_or("a redirect from a bad URL")?;
        let port = port.map(|p| format!(":{p}")).unwrap_or_default();
        format!("{scheme}://{host}{port}{location}")
    } else {
        location.to_string()
    };
    let refuse = |why: &str| Err(format!("the server redirects to `{location}`, {why}"));
    let Some((scheme, host, _, _)) = crate::link::parts(&next) else {
        return refuse("which is no link deckpress follows");
    };
    match scheme.to_ascii_lowercase().as_str() {
        "https" => {}
        "http" if crate::link::is_local(&host) && crate::link::is_local(asked) => {}
        _ => return refuse("which is not https"),
    }
    if crate::link::is_private(&host) && host != asked {
        return refuse("an address inside a private network that was not asked for");
    }
    Ok(next)
}

/// What a failed call says, with the limit that ended it.
fn failed(e: ureq::Error, limits: &Limits) -> String {
    match e {
        ureq::Error::Timeout(_) => format!(
            "no whole answer within {} s (--limit fetch-seconds=N to wait longer)",
            limits.fetch_seconds
        ),
        ureq::Error::BodyExceedsLimit(_) => format!(
            "the sheet is larger than {} bytes (--limit fetch-bytes=N to take more)",
            limits.fetch_bytes
        ),
        ureq::Error::HostNotFound => {
            "the host is not found: check the link, and the network".into()
        }
        ureq::Error::Io(e) => format!("the connection failed: {e}"),
        other => format!("the download failed: {other}"),
    }
}

/// Whether an answer is a web page (Google's sign-in page for a sheet not published).
fn looks_like_html(bytes: &[u8]) -> bool {
    let start = String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).trim_start().to_lowercase();
    start.starts_with("<!doctype html") || start.starts_with("<html")
}

fn not_published() -> String {
    "the sheet is not published to the web (the server answered with a web page, such as a sign-in page, not rows). In Google Sheets: File › Share › Publish to web, choose the tab and \"Comma-separated values (.csv)\", Publish, and use that link (or the address bar's link of a published sheet); the local copy is left as it was".to_string()
}

/// A sheet's rows by id (or by row number when it has no `id` column), for the report.
struct Rows {
    header: Vec<String>,
    rows: BTreeMap<String, Vec<String>>,
    count: usize,
}

impl Rows {
    fn parse(text: &str, limits: &Limits) -> Result<Rows, String> {
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| format!("its header is not CSV ({e})"))?
            .iter()
            .map(str::to_string)
            .collect();
        if header.iter().all(String::is_empty) {
            return Err("it has no header row".into());
        }
        if header.len() > MAX_COLUMNS {
            return Err(format!(
                "it has {} columns, more than the {MAX_COLUMNS} deckpress reads",
                header.len()
            ));
        }
        let id = header.iter().position(|h| h == "id");
        let mut rows = BTreeMap::new();
        let mut count = 0;
        for (n, record) in reader.records().enumerate() {
            let record = record.map_err(|e| format!("row {} is not CSV ({e})", n + 2))?;
            if record.len() > MAX_COLUMNS {
                return Err(format!(
                    "row {} has {} cells, more than the {MAX_COLUMNS} deckpress reads",
                    n + 2,
                    record.len()
                ));
            }
            count += 1;
            if count as u64 > limits.cards {
                return Err(format!("it has more than {} rows (--limit cards=N)", limits.cards));
            }
            let key =
                id.and_then(|i| record.get(i)).map_or(format!("row {}", n + 2), str::to_string);
            rows.insert(key, record.iter().map(str::to_string).collect());
        }
        Ok(Rows { header, rows, count })
    }
}

/// "cards.csv: 62 rows before, 63 now; added sun-7; removed moon-2; changed sun-1 (title, cost); fetched …".
fn report(file: &str, before: Option<&Rows>, after: &Rows, date: Option<&str>) -> String {
    let when = date.map(|d| format!("; fetched {d}")).unwrap_or_default();
    let Some(before) = before else {
        return format!("{file}: {} rows, a first copy{when}", after.count);
    };
    let list = |ids: Vec<String>| match ids.len() {
        0 => "none".to_string(),
        n if n > 20 => format!("{} and {} more", ids[..20].join(", "), n - 20),
        _ => ids.join(", "),
    };
    let added: Vec<String> =
        after.rows.keys().filter(|k| !before.rows.contains_key(*k)).cloned().collect();
    let removed: Vec<String> =
        before.rows.keys().filter(|k| !after.rows.contains_key(*k)).cloned().collect();
    let cell = |rows: &Rows, row: &[String], column: &str| {
        rows.header
            .iter()
            .position(|h| h == column)
            .and_then(|i| row.get(i).cloned())
            .unwrap_or_default()
    };
    let mut columns: Vec<&String> = after.header.iter().collect();
    columns.extend(before.header.iter().filter(|h| !after.header.contains(h)));
    let changed: Vec<String> = after
        .rows
        .iter()
        .filter_map(|(id, row)| {
            let old = before.rows.get(id)?;
            let which: Vec<&str> = columns
                .iter()
                .filter(|c| cell(before, old, c) != cell(after, row, c))
                .map(|c| c.as_str())
                .collect();
            (!which.is_empty()).then(|| format!("{id} ({})", which.join(", ")))
        })
        .collect();
    format!(
        "{file}: {} rows before, {} now; added: {}; removed: {}; changed: {}{when}",
        before.count,
        after.count,
        list(added),
        list(removed),
        list(changed)
    )
}

/// The last answers kept beside the copies; none when the file is missing or unreadable.
fn read_fetched(world: &World) -> BTreeMap<String, Fetched> {
    world.read_text(FETCHED).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

fn write_fetched(root: &Path, fetched: &BTreeMap<String, Fetched>) -> Result<(), Failure> {
    let path = root.join(FETCHED);
    let text = serde_json::to_string_pretty(fetched).unwrap_or_default();
    crate::output::write_atomic(&path, text.as_bytes())
        .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))
}
