//! A PDF from elsewhere (`preflight --file`) checked for what would exhaust the parser
//! before hayro-syntax reads it: hayro parses nested arrays and dictionaries by recursion
//! (200,000 `[` overflowed the stack) and inflates a stream whole, however large it says
//! it becomes (3 GiB). One pass over the bytes, and over each inflated stream that holds
//! objects or drawing operators; pictures and fonts are only counted.

use std::io::Read;

/// Arrays and dictionaries inside each other: deckpress writes fewer than ten.
pub const MAX_NESTING: usize = 256;
/// Bytes one stream may inflate to: a tiled A2 board's CMYK picture at 300 dpi is 140 MB.
pub const MAX_INFLATED: u64 = 256 << 20;
/// Bytes of a stream of objects or drawing operators that are read for their nesting.
const MAX_SCANNED: u64 = 64 << 20;

/// `Err` saying what in `bytes` is past a bound.
pub fn check(bytes: &[u8]) -> Result<(), String> {
    let mut streams = Vec::new();
    scan(bytes, Some(&mut streams)).map_err(|at| nested(at, "the file"))?;
    for (dict, data) in streams {
        let (dict, data) = (&bytes[dict], &bytes[data]);
        if let Some(why) = unchecked_filters(dict) {
            let object = std::str::from_utf8(&dict[..dict.len().min(40)]).unwrap_or("a stream");
            let object = object.split("obj").next().unwrap_or_default().trim();
            return Err(format!("its stream {object} R {why}"));
        }
        if !contains(dict, b"/FlateDecode") {
            continue;
        }
        // Pictures and fonts are counted; object streams and page or form content are
        // read for their nesting too (hayro parses their arrays the same way).
        let binary = [&b"/Image"[..], b"/Length1", b"/Length2", b"/Subtype/Type1C", b"/XRef"]
            .iter()
            .any(|k| contains(dict, k));
        let mut inflated = flate2::read::ZlibDecoder::new(data).take(MAX_INFLATED + 1);
        let kept = if binary { 0 } else { MAX_SCANNED };
        let mut text = Vec::new();
        let mut total = (&mut inflated).take(kept).read_to_end(&mut text).unwrap_or(0) as u64;
        total += std::io::copy(&mut inflated, &mut std::io::sink()).unwrap_or(0);
        let object = std::str::from_utf8(&dict[..dict.len().min(40)]).unwrap_or("a stream");
        let object = object.split("obj").next().unwrap_or_default().trim();
        if total > MAX_INFLATED {
            return Err(format!(
                "its stream {object} R inflates past {} MB, more than any page of cards holds",
                MAX_INFLATED >> 20
            ));
        }
        if !binary && total > MAX_SCANNED {
            return Err(format!(
                "its stream {object} R holds more than {} MB of drawing or objects",
                MAX_SCANNED >> 20
            ));
        }
        scan(&text, None).map_err(|at| nested(at, &format!("stream {object} R")))?;
    }
    Ok(())
}

/// Why a stream's filters are not ones whose output is bounded here: a chain of filters
/// (`[/ASCII85Decode /FlateDecode]` would be inflated past every bound after the first
/// step) or LZW and run-length, which expand without one. A print file compresses with
/// one `/FlateDecode`, and photos with `/DCTDecode` (decoded to their stated size).
fn unchecked_filters(dict: &[u8]) -> Option<String> {
    let at = dict.windows(7).position(|w| w == b"/Filter")? + 7;
    let rest = String::from_utf8_lossy(&dict[at..dict.len().min(at + 200)]).into_owned();
    let rest = rest.trim_start();
    let names: Vec<&str> = match rest.strip_prefix('[') {
        Some(list) => {
            list.split(']').next().unwrap_or_default().split('/').skip(1).map(str::trim).collect()
        }
        None => rest
            .strip_prefix('/')
            .map(|r| r.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or_default())
            .into_iter()
            .collect(),
    };
    if names.len() > 1 {
        return Some(format!(
            "is decoded through {} filters in a row ({}), which preflight does not follow: a print file uses one (/FlateDecode)",
            names.len(),
            names.iter().map(|n| format!("/{n}")).collect::<Vec<_>>().join(" ")
        ));
    }
    names
        .first()
        .filter(|n| matches!(**n, "LZWDecode" | "LZW" | "RunLengthDecode" | "RL"))
        .map(|n| format!("is compressed with /{n}, which preflight does not read: a print file uses /FlateDecode"))
}

fn nested(at: usize, place: &str) -> String {
    format!(
        "arrays or dictionaries are nested more than {MAX_NESTING} deep in {place} (at byte {at}): no PDF deckpress can check holds that"
    )
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Walks PDF syntax: `Err(offset)` where nesting passes `MAX_NESTING`. Strings, comments
/// and (when `streams` is given) stream data are skipped; each stream's dictionary and
/// data ranges are pushed.
#[allow(clippy::type_complexity)]
fn scan(
    b: &[u8],
    mut streams: Option<&mut Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>>,
) -> Result<(), usize> {
    let (mut i, mut depth, mut object) = (0usize, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'%' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'(' => {
                let mut open = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'\\' => i += 1,
                        b'(' => open += 1,
                        b')' => {
                            open -= 1;
                            if open == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'<' if b.get(i + 1) == Some(&b'<') => {
                depth += 1;
                i += 1;
            }
            b'<' => {
                while i < b.len() && b[i] != b'>' {
                    i += 1;
                }
            }
            b'>' if b.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'o' if b[i..].starts_with(b"obj") && i > 0 && b[i - 1].is_ascii_whitespace() => {
                object =
                    b[..i].iter().rposition(|c| *c == b'\n' || *c == b'\r').map_or(0, |p| p + 1);
            }
            b's' if streams.is_some() && b[i..].starts_with(b"stream") => {
                let mut start = i + 6;
                if b.get(start) == Some(&b'\r') {
                    start += 1;
                }
                if b.get(start) == Some(&b'\n') {
                    start += 1;
                }
                let end = b[start..]
                    .windows(9)
                    .position(|w| w == b"endstream")
                    .map_or(b.len(), |p| start + p);
                if let Some(streams) = streams.as_deref_mut() {
                    streams.push((object.min(i)..i, start..end));
                }
                i = end + 9;
                continue;
            }
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(i);
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_is_found_in_the_file_and_in_an_inflated_stream() {
        let deep = format!("{}0{}", "[".repeat(300), "]".repeat(300));
        let file = format!("%PDF-1.7\n1 0 obj\n<</A {deep}>>\nendobj\n");
        assert!(check(file.as_bytes()).unwrap_err().contains("nested more than 256"));
        // The same inside strings and comments is no nesting.
        let quiet =
            format!("%PDF-1.7\n1 0 obj\n({}) % {}\nendobj\n", "[".repeat(300), "<<".repeat(300));
        assert_eq!(check(quiet.as_bytes()), Ok(()));
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut z, deep.as_bytes()).unwrap();
        let data = z.finish().unwrap();
        let mut file = b"%PDF-1.7\n4 0 obj\n<</Length 9/Filter/FlateDecode>>\nstream\n".to_vec();
        file.extend_from_slice(&data);
        file.extend_from_slice(b"\nendstream\nendobj\n");
        let said = check(&file).unwrap_err();
        assert!(said.contains("in stream 4 0 R"), "{said}");
    }
}
