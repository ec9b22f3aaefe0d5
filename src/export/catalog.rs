//! `/ViewerPreferences` for a finished PDF: print at 100 % (`/PrintScaling /None`) and
//! with the duplex flip the sheets were laid out for (`/Duplex`). krilla has no setting for
//! these, so they are added to the file it wrote instead of patching krilla.
//!
//! krilla writes the document catalog last, after the document ids are hashed, and one
//! classic cross-reference table after it. The entry is inserted at the end of the
//! catalog's dictionary, the offsets of the objects after it (none, as krilla writes) and
//! `startxref` are moved by its length: the result is the file krilla would write with the
//! entry in its catalog. Anything else (an xref stream, a catalog that already has
//! viewer preferences) is an error, not a guess.

/// The file in `sink` (a PDF krilla finished into it) with the same entry: the catalog
/// and what follows it are read, given the entry and written back in place. A layout
/// that is not krilla's is an error as much as a failed read or write.
pub fn add_print_preferences(sink: &mut dyn krilla::Sink, duplex: &str) -> std::io::Result<()> {
    use std::io::SeekFrom;
    let end = sink.seek(SeekFrom::End(0))? as usize;
    // "startxref\nX\n%%EOF" is at most 36 bytes; then the table, then the catalog before it.
    let last = read_from(sink, end.saturating_sub(64))?;
    let (_, xref) = Layout::startxref(&last).map_err(std::io::Error::other)?;
    let table = read_from(sink, xref)?;
    let catalog = Layout::of(&table, xref).map_err(std::io::Error::other)?.catalog;
    // The catalog and what lies between it and the table, then the table already read.
    let before = xref.checked_sub(catalog).ok_or_else(|| {
        std::io::Error::other(bad("the catalog is after the cross-reference table"))
    })?;
    sink.seek(SeekFrom::Start(catalog as u64))?;
    let mut tail = vec![0; before];
    sink.read_exact(&mut tail)?;
    tail.extend_from_slice(&table);
    let tail = insert(tail, catalog, duplex).map_err(std::io::Error::other)?;
    sink.seek(SeekFrom::Start(catalog as u64))?;
    // The tail only grows: it covers what was there.
    sink.write_all(&tail)?;
    sink.flush()
}

/// `pdf` with `/ViewerPreferences<</PrintScaling/None/Duplex/{duplex}>>` in its catalog.
#[cfg(test)]
fn with_print_preferences(pdf: Vec<u8>, duplex: &str) -> Result<Vec<u8>, String> {
    insert(pdf, 0, duplex)
}

fn bad(what: &str) -> String {
    format!("cannot add the print preferences to the PDF: {what}")
}

/// The bytes of `sink` from `at` to its end.
fn read_from(sink: &mut dyn krilla::Sink, at: usize) -> std::io::Result<Vec<u8>> {
    sink.seek(std::io::SeekFrom::Start(at as u64))?;
    let mut bytes = Vec::new();
    sink.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Where the parts of a PDF's end are, as offsets in the file.
struct Layout {
    /// The classic xref table, its entry count and where its entries start.
    xref: usize,
    count: usize,
    entries: usize,
    /// `startxref`, after the trailer.
    start: usize,
    /// The catalog's object number and offset.
    root: usize,
    catalog: usize,
}

impl Layout {
    /// Where the last `startxref` of `bytes` is, and the offset it gives.
    fn startxref(bytes: &[u8]) -> Result<(usize, usize), String> {
        let start = rfind(bytes, b"startxref", bytes.len()).ok_or_else(|| bad("no startxref"))?;
        let xref =
            number(&bytes[start + b"startxref".len()..]).ok_or_else(|| bad("no xref offset"))?;
        Ok((start, xref))
    }

    /// `bytes` are the file from `base` on, the xref table included; the catalog's offset is
    /// read from the table and may lie before `base`.
    fn of(bytes: &[u8], base: usize) -> Result<Layout, String> {
        let at = |offset: usize| offset.checked_sub(base).filter(|&i| i <= bytes.len());
        let (start, xref) = Self::startxref(bytes)?;
        let start = base + start;
        // "xref\n0 N\n", then N entries of 20 bytes: "OOOOOOOOOO GGGGG n\r\n".
        let table = at(xref)
            .map(|i| &bytes[i..])
            .filter(|t| t.starts_with(b"xref\n0 "))
            .ok_or_else(|| bad("not a classic xref table"))?;
        let count = number(&table[b"xref\n0 ".len()..]).ok_or_else(|| bad("no xref count"))?;
        let entries = xref
            + table
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .nth(1)
                .map(|(i, _)| i + 1)
                .ok_or_else(|| bad("short xref"))?;
        let trailer = at(entries + 20 * count)
            .zip(at(start))
            .and_then(|(a, b)| bytes.get(a..b))
            .filter(|t| t.starts_with(b"trailer"))
            .ok_or_else(|| bad("not one xref section"))?;
        let root_at = find(trailer, b"/Root ").ok_or_else(|| bad("no /Root"))?;
        let root = number(&trailer[root_at + b"/Root ".len()..])
            .filter(|&r| r < count)
            .ok_or_else(|| bad("bad /Root"))?;
        let catalog = at(entries + 20 * root)
            .and_then(|i| number(&bytes[i..]))
            .ok_or_else(|| bad("no catalog offset"))?;
        Ok(Layout { xref, count, entries, start, root, catalog })
    }
}

/// `insert`s the entry into the catalog of `pdf`, the file from `base` on (the catalog and
/// everything after it).
fn insert(mut pdf: Vec<u8>, base: usize, duplex: &str) -> Result<Vec<u8>, String> {
    let Layout { xref, count, entries, start, root, catalog } = Layout::of(&pdf, base)?;
    let local = |offset: usize| offset - base;
    let head = format!("{root} 0 obj\n<<");
    let catalog =
        catalog.checked_sub(base).ok_or_else(|| bad("the catalog is before the bytes read"))?;
    if !pdf[catalog..].starts_with(head.as_bytes()) {
        return Err(bad("the catalog is not where the xref says"));
    }
    let end = catalog
        + find(&pdf[catalog..], b">>\nendobj").ok_or_else(|| bad("no end of the catalog"))?;
    if find(&pdf[catalog..end], b"/ViewerPreferences").is_some() {
        return Err(bad("the catalog already has viewer preferences"));
    }
    let entry = format!("/ViewerPreferences<</PrintScaling/None/Duplex/{duplex}>>");
    let shift = entry.len();
    pdf.splice(end..end, entry.bytes());
    let (entries, start) = (local(entries) + shift, local(start) + shift);
    for i in 0..count {
        let at = entries + 20 * i;
        if pdf[at + 17] != b'n' {
            continue; // a free entry
        }
        let offset = number(&pdf[at..]).ok_or_else(|| bad("bad xref entry"))?;
        if offset > base + end {
            pdf[at..at + 10].copy_from_slice(format!("{:010}", offset + shift).as_bytes());
        }
    }
    let tail = format!("startxref\n{}\n%%EOF", xref + shift);
    pdf.truncate(start);
    pdf.extend_from_slice(tail.as_bytes());
    Ok(pdf)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn rfind(haystack: &[u8], needle: &[u8], before: usize) -> Option<usize> {
    haystack[..before].windows(needle.len()).rposition(|w| w == needle)
}

/// The decimal number at the start of `bytes`, after any white space.
fn number(bytes: &[u8]) -> Option<usize> {
    let digits: String = bytes
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take_while(|b| b.is_ascii_digit())
        .map(|&b| b as char)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PDF as krilla lays it out: objects, the catalog last, one xref table.
    fn pdf(catalog: &str) -> Vec<u8> {
        let objects = ["<</Type/Pages/Count 0/Kids[]>>".to_string(), catalog.to_string()];
        let mut out = b"%PDF-1.7\n".to_vec();
        let mut offsets = Vec::new();
        for (i, o) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
        }
        let xref = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f\r\n", objects.len() + 1).as_bytes(),
        );
        for o in offsets {
            out.extend_from_slice(format!("{o:010} 00000 n\r\n").as_bytes());
        }
        out.extend_from_slice(
            format!("trailer\n<</Size 3/Root 2 0 R>>\nstartxref\n{xref}\n%%EOF").as_bytes(),
        );
        out
    }

    #[test]
    fn the_entry_is_what_krilla_would_write_in_its_catalog() {
        let before = pdf("<</Type/Catalog/Pages 1 0 R>>");
        let after = with_print_preferences(before, "Simplex").unwrap();
        assert_eq!(after, pdf("<</Type/Catalog/Pages 1 0 R/ViewerPreferences<</PrintScaling/None/Duplex/Simplex>>>>"));
    }

    #[test]
    fn offsets_after_the_catalog_move() {
        // The catalog first: the page tree after it moves by the entry's length.
        let mut before = b"%PDF-1.7\n".to_vec();
        let catalog = before.len();
        before.extend_from_slice(b"1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n");
        let pages = before.len();
        before.extend_from_slice(b"2 0 obj\n<</Type/Pages/Count 0/Kids[]>>\nendobj\n");
        let xref = before.len();
        before.extend_from_slice(format!("xref\n0 3\n0000000000 65535 f\r\n{catalog:010} 00000 n\r\n{pages:010} 00000 n\r\ntrailer\n<</Size 3/Root 1 0 R>>\nstartxref\n{xref}\n%%EOF").as_bytes());
        let after = with_print_preferences(before, "DuplexFlipLongEdge").unwrap();
        let text = String::from_utf8(after).unwrap();
        let moved = text.find("2 0 obj").unwrap();
        assert!(text.contains(&format!("{moved:010} 00000 n\r\n")), "{text}");
        assert!(
            text.ends_with(&format!("startxref\n{}\n%%EOF", text.find("xref\n0 3").unwrap())),
            "{text}"
        );
    }

    #[test]
    fn in_a_file_only_the_tail_is_read_and_the_result_is_the_same() {
        let before = pdf("<</Type/Catalog/Pages 1 0 R>>");
        let whole = with_print_preferences(before.clone(), "Simplex").unwrap();
        let mut file = std::io::Cursor::new(before);
        add_print_preferences(&mut file, "Simplex").unwrap();
        assert_eq!(file.into_inner(), whole);
        let mut broken = std::io::Cursor::new(b"%PDF-1.7\nstartxref\n0\n%%EOF".to_vec());
        assert!(add_print_preferences(&mut broken, "Simplex").is_err());
    }

    #[test]
    fn anything_else_is_an_error() {
        assert!(with_print_preferences(b"%PDF-1.7\n".to_vec(), "Simplex").is_err());
        let twice =
            with_print_preferences(pdf("<</Type/Catalog/Pages 1 0 R>>"), "Simplex").unwrap();
        assert!(with_print_preferences(twice, "Simplex").is_err());
    }
}
