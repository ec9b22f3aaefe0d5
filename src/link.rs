//! A sheet published on the web, as a catalogue links it beside its local copy
//! (`rows_url = "https://…"` next to `rows`): which links are taken and the address its
//! rows are downloaded from. Nothing here connects: `deckpress fetch` is the one command
//! that uses the network (`commands/fetch.rs`); every other command reads the local copy.

/// A link to a sheet's rows, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Where the rows are downloaded from (a Google Sheets edit link made its export link).
    pub download: String,
    /// The host asked, lower case (`docs.google.com`, `127.0.0.1`).
    pub host: String,
}

/// The format a local copy is kept in, from its file name.
fn format_of(rows: &str) -> &'static str {
    let lower = rows.to_ascii_lowercase();
    if lower.ends_with(".xlsx") {
        "xlsx"
    } else if lower.ends_with(".ods") {
        "ods"
    } else {
        "csv"
    }
}

/// The parts of an absolute URL: scheme, host (lower case; an IPv6 address in its
/// brackets), port, and the rest (path, query, fragment). `None` for a URL with a user
/// name, no host, or a port that is no number.
pub fn parts(url: &str) -> Option<(&str, String, Option<u16>, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    if authority.contains('@') {
        return None;
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (inside, after) = v6.split_once(']')?;
            (format!("[{inside}]"), after)
        }
        None => match authority.split_once(':') {
            Some((h, p)) => (h.to_string(), &authority[h.len()..][..p.len() + 1]),
            None => (authority.to_string(), ""),
        },
    };
    let port = match port.strip_prefix(':') {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None if port.is_empty() => None,
        None => return None,
    };
    if host.is_empty() || host == "[]" {
        return None;
    }
    Some((scheme, host.to_ascii_lowercase(), port, tail))
}

/// Whether `host` is this machine: plain http is taken for it only (a test's server).
pub fn is_local(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "[::1]")
}

/// Whether `host` names an address inside a private network or this machine: a redirect
/// may not lead there from anywhere else (it would make deckpress a way into them).
pub fn is_private(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => {
            ip.is_loopback()
                || ip.is_private()
                || ip.is_link_local()
                || ip.is_unspecified()
                || ip.is_broadcast()
                || ip.octets()[0] == 100 && (64..128).contains(&ip.octets()[1])
        }
        Ok(std::net::IpAddr::V6(ip)) => {
            let first = ip.segments()[0];
            ip.is_loopback()
                || ip.is_unspecified()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || ip.to_ipv4_mapped().is_some_and(|v4| is_private(&v4.to_string()))
        }
        Err(_) => false,
    }
}

/// The link `url` for the local copy `rows`, or what is wrong with it and what would be
/// right. Google Sheets' edit links (`…/edit#gid=N`) become the export link of that tab
/// in the local copy's format; published links (`…/pub?output=csv`) and any other https
/// URL are taken as they are.
pub fn parse(url: &str, rows: &str) -> Result<Link, String> {
    let url = url.trim();
    let Some((scheme, host, _, tail)) = parts(url) else {
        return Err(format!(
            "`{url}` is not a link deckpress can fetch: write it whole, as `https://host/path` (no user name or password in it)"
        ));
    };
    match scheme.to_ascii_lowercase().as_str() {
        "https" => {}
        "http" if is_local(&host) => {}
        "http" => {
            return Err(format!(
                "`{url}` is plain http: a sheet is fetched over https only (http is for this machine's own server, `localhost`)"
            ))
        }
        other => {
            return Err(format!("`{url}` is a `{other}:` link: a sheet is fetched over https"))
        }
    }
    let format = format_of(rows);
    let download = match google_id(&host, tail) {
        Some((id, gid)) => {
            format!("https://docs.google.com/spreadsheets/d/{id}/export?format={format}&gid={gid}")
        }
        None => url.to_string(),
    };
    Ok(Link { download, host })
}

/// A Google Sheets link that is not a published one (`/d/e/…`): the spreadsheet's id
/// and the tab's `gid` (0, the first, when the link names none).
fn google_id<'a>(host: &str, tail: &'a str) -> Option<(&'a str, &'a str)> {
    if host != "docs.google.com" {
        return None;
    }
    let rest = tail.strip_prefix("/spreadsheets/d/")?;
    if rest.starts_with("e/") {
        return None;
    }
    let id = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    if id.is_empty() {
        return None;
    }
    let gid = tail
        .split(['?', '#', '&'])
        .find_map(|p| p.strip_prefix("gid="))
        .filter(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or("0");
    Some((id, gid))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_google_edit_link_becomes_its_tab_s_export_link() {
        let edit = "https://docs.google.com/spreadsheets/d/1AbC_d-9/edit#gid=42";
        assert_eq!(
            parse(edit, "cards.csv").unwrap().download,
            "https://docs.google.com/spreadsheets/d/1AbC_d-9/export?format=csv&gid=42"
        );
        let first_tab = "https://docs.google.com/spreadsheets/d/1AbC/edit?usp=sharing";
        assert_eq!(
            parse(first_tab, "cards.xlsx").unwrap().download,
            "https://docs.google.com/spreadsheets/d/1AbC/export?format=xlsx&gid=0"
        );
        let published =
            "https://docs.google.com/spreadsheets/d/e/2PACX-1v/pub?gid=3&single=true&output=csv";
        assert_eq!(parse(published, "cards.csv").unwrap().download, published);
        let other = "https://example.org/cards.csv";
        assert_eq!(parse(other, "cards.csv").unwrap().download, other);
    }

    #[test]
    fn only_https_is_taken_and_plain_http_for_this_machine_only() {
        assert!(parse("http://127.0.0.1:8080/cards.csv", "cards.csv").is_ok());
        assert!(parse("http://localhost/cards.csv", "cards.csv").is_ok());
        for bad in [
            "http://example.org/cards.csv",
            "file:///etc/passwd",
            "ftp://example.org/x.csv",
            "https://user:secret@example.org/x.csv",
            "cards.csv",
            "https://",
        ] {
            assert!(parse(bad, "cards.csv").is_err(), "{bad}");
        }
    }

    #[test]
    fn private_addresses_are_told_from_public_ones() {
        for private in [
            "localhost",
            "127.0.0.2",
            "10.1.2.3",
            "192.168.0.1",
            "172.16.5.4",
            "169.254.169.254",
            "[::1]",
            "[fd00::1]",
            "0.0.0.0",
        ] {
            assert!(is_private(private), "{private}");
        }
        for public in ["docs.google.com", "8.8.8.8", "172.32.0.1", "[2001:4860::8888]"] {
            assert!(!is_private(public), "{public}");
        }
    }
}
