//! `/ViewerPreferences` for a finished PDF: print at 100 % (`/PrintScaling /None`) and
//! with the duplex flip the sheets were laid out for (`/Duplex`). krilla has no setting for
//! these, so they are added to the bytes it wrote instead of patching krilla.
//!
//! krilla writes the document catalog last, after the document ids are hashed, and one
//! classic cross-reference table after it. The entry is inserted at the end of the
//! catalog's dictionary, the offsets of the objects after it (none, as krilla writes) and
//! `startxref` are moved by its length: the result is the file krilla would write with the
//! entry in its catalog. Anything else (an xref stream, a catalog that already has
//! viewer preferences) is an error, not a guess.

/// `pdf` with `/ViewerPreferences<</PrintScaling/None/Duplex/{duplex}>>` in its catalog.
pub fn with_print_preferences(mut pdf: Vec<u8>, duplex: &str) -> Result<Vec<u8>, String> {
    let bad = |what: &str| format!("cannot add the print preferences to the PDF: {what}");
    let start = rfind(&pdf, b"startxref", pdf.len()).ok_or_else(|| bad("no startxref"))?;
    let xref = number(&pdf[start + b"startxref".len()..]).ok_or_else(|| bad("no xref offset"))?;
    // "xref\n0 N\n", then N entries of 20 bytes: "OOOOOOOOOO GGGGG n\r\n".
    let table = pdf
        .get(xref..)
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
    let trailer = pdf
        .get(entries + 20 * count..start)
        .filter(|t| t.starts_with(b"trailer"))
        .ok_or_else(|| bad("not one xref section"))?;
    let root_at = find(trailer, b"/Root ").ok_or_else(|| bad("no /Root"))?;
    let root = number(&trailer[root_at + b"/Root ".len()..])
        .filter(|&r| r < count)
        .ok_or_else(|| bad("bad /Root"))?;
    let catalog = number(&pdf[entries + 20 * root..]).ok_or_else(|| bad("no catalog offset"))?;
    let head = format!("{root} 0 obj\n<<");
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
    let (entries, start) = (entries + shift, start + shift);
    for i in 0..count {
        let at = entries + 20 * i;
        if pdf[at + 17] != b'n' {
            continue; // a free entry
        }
        let offset = number(&pdf[at..]).ok_or_else(|| bad("bad xref entry"))?;
        if offset > end {
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
    fn anything_else_is_an_error() {
        assert!(with_print_preferences(b"%PDF-1.7\n".to_vec(), "Simplex").is_err());
        let twice =
            with_print_preferences(pdf("<</Type/Catalog/Pages 1 0 R>>"), "Simplex").unwrap();
        assert!(with_print_preferences(twice, "Simplex").is_err());
    }
}
