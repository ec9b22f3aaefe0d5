//! Rows from spreadsheets (`.xlsx`, `.ods`, `.xls`), read with calamine: one sheet becomes
//! CSV text for the rows parser, so every check on rows applies to it, and a problem in
//! it is also named by its cell (`market!C17`). Formulas give their cached values.

use std::io::Cursor;

use calamine::{Data, Reader};

use crate::diag::{cell_name, SheetPlaces};

/// The extensions read as spreadsheets.
pub fn is_spreadsheet(path: &str) -> bool {
    let lower = path.to_lowercase();
    [".xlsx", ".xlsm", ".ods", ".xls"].iter().any(|ext| lower.ends_with(ext))
}

/// A sheet as CSV text, and where its rows and cells are.
pub struct Table {
    pub csv: String,
    pub places: SheetPlaces,
}

/// Cells one sheet's table may span (rows × columns): a 100,000-card deck with 100 fields.
const MAX_CELLS: u64 = 10_000_000;
/// Bytes a workbook's parts may inflate to, all together.
const MAX_INFLATED: u64 = 256 << 20;

/// An .xlsx or .ods is a zip: each part is inflated once, counting, before calamine reads
/// it, whose reader believes the sizes the archive declares.
fn bounded_parts(bytes: &[u8]) -> Result<(), String> {
    use std::io::Read;
    if !bytes.starts_with(b"PK") {
        return Ok(());
    }
    // Not a zip after all: calamine says what it is.
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else { return Ok(()) };
    let mut total = 0u64;
    for i in 0..archive.len() {
        let Ok(part) = archive.by_index(i) else { continue };
        let name = part.name().map(|n| n.into_owned()).unwrap_or_default();
        let left = MAX_INFLATED - total;
        let read = std::io::copy(&mut part.take(left + 1), &mut std::io::sink()).unwrap_or(0);
        total += read;
        if total > MAX_INFLATED {
            return Err(format!(
                "its part `{name}` inflates past {} MB, more than any table of cards: it is no spreadsheet deckpress reads",
                MAX_INFLATED >> 20
            ));
        }
    }
    Ok(())
}

/// The number of shared strings an .xlsx claims (`<sst uniqueCount>`), checked before
/// calamine, which reserves room for that many strings at once: 4 billion aborted the
/// process (tests/stranger/memory/xlsx-shared-strings). No table of `MAX_CELLS` cells
/// holds more distinct strings than it has cells.
fn shared_strings_claimed(bytes: &[u8]) -> Result<(), String> {
    use quick_xml::events::Event;
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else { return Ok(()) };
    let Some(name) = archive
        .file_names()
        .flatten()
        .find(|n| n.ends_with("sharedStrings.xml"))
        .map(|n| n.into_owned())
    else {
        return Ok(());
    };
    let Ok(part) = archive.by_name(&name) else { return Ok(()) };
    let mut reader = quick_xml::Reader::from_reader(std::io::BufReader::new(part));
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == "sst" => {
                let claimed = e.try_get_attribute("uniqueCount").ok().flatten();
                let claimed = claimed.and_then(|a| a.value.parse::<u64>().ok());
                return match claimed {
                    Some(n) if n > MAX_CELLS => Err(format!(
                        "its shared strings claim {n} strings, more than the {MAX_CELLS} cells a table of cards may have: it is no spreadsheet deckpress reads"
                    )),
                    _ => Ok(()),
                };
            }
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(_) => buf.clear(),
        }
    }
}

/// An .xls is a compound file: a table (the FAT) chains its sectors into streams. calamine
/// follows a chain wherever it points: past its table it panicked, round in a loop it
/// gathered sectors until 4 GiB. Every chain calamine follows is walked here first, on the
/// bytes, within the file: each link inside the table and the file, no chain longer than
/// the file has sectors, no stream larger than the file.
fn bounded_compound_file(bytes: &[u8]) -> Result<(), String> {
    const SIGNATURE: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
    const END: u32 = 0xFFFF_FFFE;
    const SPECIAL: u32 = 0xFFFF_FFFA;
    if !bytes.starts_with(SIGNATURE) || bytes.len() < 512 {
        return Ok(()); // not one, or calamine says what is wrong with it
    }
    let damaged = |what: String| format!("it is a damaged .xls: {what}");
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let size: usize = match u16::from_le_bytes([bytes[30], bytes[31]]) {
        9 => 512,
        12 => 4096,
        _ => return Ok(()), // calamine names the sector size it cannot read
    };
    // The header takes the first sector's room; sector n starts at (n + 1) × size.
    let sectors = (bytes.len() / size).saturating_sub(1);
    let sector = |id: u32| -> Result<&[u8], String> {
        let start = (id as usize).checked_add(1).map(|n| n * size).unwrap_or(usize::MAX);
        bytes.get(start..start.saturating_add(size)).ok_or_else(|| {
            damaged(format!("sector {id} lies past the end of the file ({sectors} sectors)"))
        })
    };
    // The sectors of the FAT: 109 listed in the header, then a chain of DIFAT sectors.
    let mut difat: Vec<u32> = (76..512).step_by(4).map(|at| u32_at(bytes, at)).collect();
    let mut next = u32_at(bytes, 68);
    let mut steps = 0;
    while next < SPECIAL {
        steps += 1;
        if steps > sectors {
            return Err(damaged("its list of FAT sectors loops".to_string()));
        }
        let s = sector(next)?;
        difat.extend((0..size - 4).step_by(4).map(|at| u32_at(s, at)));
        next = u32_at(s, size - 4);
    }
    let listed: Vec<u32> = difat.into_iter().filter(|&id| id < SPECIAL).collect();
    if listed.len() > sectors {
        return Err(damaged(format!(
            "it lists {} FAT sectors, more than its {sectors} sectors",
            listed.len()
        )));
    }
    let mut fat = Vec::with_capacity(listed.len() * size / 4);
    for id in listed {
        let s = sector(id)?;
        fat.extend((0..size).step_by(4).map(|at| u32_at(s, at)));
    }
    // A chain from `start` in `table` of `unit`-byte sectors, up to `len` bytes as calamine
    // reads it; `Err` where it would leave its table or loop.
    let walk = |what: &str, start: u32, table: &[u32], within: usize, unit: u64, len: u64| {
        let (mut id, mut read, mut steps) = (start, 0u64, 0usize);
        while id != END {
            if id as usize >= table.len().min(within) {
                return Err(damaged(format!(
                    "the chain of {what} points at sector {id}, past its table of {} sectors",
                    table.len().min(within)
                )));
            }
            steps += 1;
            if steps > within {
                return Err(damaged(format!("the chain of {what} loops")));
            }
            read += unit;
            if read >= len {
                break;
            }
            id = table[id as usize];
        }
        Ok(read)
    };
    let dir_bytes = walk("the directory", u32_at(bytes, 48), &fat, sectors, size as u64, u64::MAX)?;
    let mut directory = Vec::with_capacity(dir_bytes as usize);
    let mut id = u32_at(bytes, 48);
    while id != END && (directory.len() as u64) < dir_bytes {
        directory.extend_from_slice(sector(id)?);
        id = fat[id as usize];
    }
    let file_len = bytes.len() as u64;
    let claims = |len: u64, what: &str| match len > file_len {
        true => Err(damaged(format!("{what} claims {len} bytes, more than the whole file"))),
        false => Ok(()),
    };
    let entries: Vec<&[u8]> = directory.chunks_exact(128).collect();
    let entry_len = |e: &[u8]| match size {
        512 => u64::from(u32_at(e, 120)),
        _ => u64::from(u32_at(e, 120)) | u64::from(u32_at(e, 124)) << 32,
    };
    // The small streams live in the root's stream, chained by the mini FAT.
    let (mut mini_fat, mut mini_sectors) = (Vec::new(), 0usize);
    let mini_fat_sectors = u32_at(bytes, 64) as u64;
    if mini_fat_sectors > 0 {
        let root = entries.first().ok_or_else(|| damaged("its directory is empty".to_string()))?;
        claims(entry_len(root), "its root stream")?;
        walk("the root stream", u32_at(root, 116), &fat, sectors, size as u64, entry_len(root))?;
        mini_sectors = (entry_len(root) / 64) as usize;
        let len = mini_fat_sectors.saturating_mul(size as u64);
        claims(len, "its mini FAT")?;
        let start = u32_at(bytes, 60);
        walk("the mini FAT", start, &fat, sectors, size as u64, len)?;
        let mut id = start;
        while id != END && (mini_fat.len() as u64) * 4 < len {
            let s = sector(id)?;
            mini_fat.extend((0..size).step_by(4).map(|at| u32_at(s, at)));
            id = fat[id as usize];
        }
    }
    for entry in entries.iter().skip(1).filter(|e| e[66] == 2) {
        let len = entry_len(entry);
        let name: String = char::decode_utf16(
            entry[..64].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])),
        )
        .map(|c| c.unwrap_or('?'))
        .take_while(|&c| c != '\0')
        .collect();
        let what = format!("stream `{}`", crate::diag::printable(&name));
        claims(len, &what)?;
        let start = u32_at(entry, 116);
        match len {
            0 => {}
            1..4096 => walk(&what, start, &mini_fat, mini_sectors, 64, len).map(drop)?,
            _ => walk(&what, start, &fat, sectors, size as u64, len).map(drop)?,
        }
    }
    Ok(())
}

fn too_large(sheet: &str, cell: &str) -> String {
    format!("sheet `{sheet}` reaches {cell}, a table of more than {MAX_CELLS} cells: a deck's table is far smaller; delete what lies beyond it")
}

/// The extent of every .ods sheet's values, streamed from `content.xml` before calamine,
/// which lays out every sheet of the book as a grid when it opens it: a row repeated a
/// million times (`number-rows-repeated`) with a value 16,000 columns out
/// (`number-columns-repeated`) took 5 GB. Too large comes back as the sheet and its
/// farthest cell (row, column); a file that does not parse is left to calamine.
fn ods_extent(bytes: &[u8]) -> Result<(), (String, u32, u32)> {
    use quick_xml::events::{BytesStart, Event};
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else { return Ok(()) };
    let Ok(content) = archive.by_name("content.xml") else { return Ok(()) };
    // bounded_parts has inflated every part once within its bound.
    let mut reader = quick_xml::Reader::from_reader(std::io::BufReader::new(content));
    let repeated = |e: &BytesStart, name: &str| -> u64 {
        e.try_get_attribute(name).ok().flatten().and_then(|a| a.value.parse().ok()).unwrap_or(1)
    };
    let mut sheet = String::new();
    let (mut inside, mut row, mut column, mut row_repeats) = (false, 0u64, 0u64, 1u64);
    let (mut rows, mut columns) = (0u64, 0u64);
    let mut buf = Vec::new();
    loop {
        let event = match reader.read_event_into(&mut buf) {
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(event) => event,
        };
        match &event {
            Event::Start(e) if e.name().as_ref() == "table:table" => {
                let name = e.try_get_attribute("table:name").ok().flatten();
                sheet = name.map(|n| n.value.into_owned()).unwrap_or_default();
                (inside, row, rows, columns) = (true, 0, 0, 0);
            }
            Event::End(e) if e.name().as_ref() == "table:table" => inside = false,
            Event::Start(e) | Event::Empty(e)
                if inside && e.name().as_ref() == "table:table-row" =>
            {
                row_repeats = repeated(e, "table:number-rows-repeated");
                column = 0;
                if matches!(event, Event::Empty(_)) {
                    row = row.saturating_add(row_repeats);
                }
            }
            Event::End(e) if inside && e.name().as_ref() == "table:table-row" => {
                row = row.saturating_add(row_repeats);
            }
            Event::Start(e) | Event::Empty(e)
                if inside
                    && matches!(
                        e.name().as_ref(),
                        "table:table-cell" | "table:covered-table-cell"
                    ) =>
            {
                let repeats = repeated(e, "table:number-columns-repeated");
                // A cell with a value, or with content (text), is part of the table.
                let valued = matches!(event, Event::Start(_))
                    || e.try_get_attribute("office:value-type").ok().flatten().is_some();
                column = column.saturating_add(repeats);
                if valued {
                    rows = rows.max(row.saturating_add(row_repeats));
                    columns = columns.max(column);
                    if rows.saturating_mul(columns) > MAX_CELLS {
                        let at = |n: u64| u32::try_from(n.saturating_sub(1)).unwrap_or(u32::MAX);
                        return Err((sheet, at(rows), at(columns)));
                    }
                }
            }
            _ => {}
        }
        buf.clear();
    }
}

/// Reads sheet `wanted` (the first when `None`) of a workbook. Problems come back as
/// sentences naming the cell.
pub fn read(bytes: &[u8], wanted: Option<&str>) -> Result<Table, Vec<String>> {
    bounded_parts(bytes).map_err(|e| vec![e])?;
    shared_strings_claimed(bytes).map_err(|e| vec![e])?;
    bounded_compound_file(bytes).map_err(|e| vec![e])?;
    ods_extent(bytes).map_err(|(sheet, r, c)| vec![too_large(&sheet, &cell_name(&sheet, r, c))])?;
    let mut book = calamine::open_workbook_auto_from_rs(Cursor::new(bytes))
        .map_err(|e| vec![format!("it cannot be read as a spreadsheet: {e}")])?;
    let names = book.sheet_names().to_vec();
    let sheet = match wanted {
        Some(name) => names.iter().find(|n| n.as_str() == name).cloned().ok_or_else(|| {
            vec![format!("it has no sheet `{name}`; its sheets: {}", crate::diag::accepted(&names))]
        })?,
        None => names.first().cloned().ok_or_else(|| vec!["it has no sheet".to_string()])?,
    };
    // The cells' extent, streamed, before calamine lays the sheet out as one grid: two
    // cells at A1 and XFD1048576 would be a grid of 17 billion.
    if let calamine::Sheets::Xlsx(xlsx) = &mut book {
        let mut cells = xlsx
            .worksheet_cells_reader(&sheet)
            .map_err(|e| vec![format!("sheet `{sheet}` cannot be read: {e}")])?;
        let (mut rows, mut columns) = (0u64, 0u64);
        while let Some(cell) =
            cells.next_cell().map_err(|e| vec![format!("sheet `{sheet}` cannot be read: {e}")])?
        {
            let (r, c) = cell.get_position();
            rows = rows.max(u64::from(r) + 1);
            columns = columns.max(u64::from(c) + 1);
            if rows * columns > MAX_CELLS {
                return Err(vec![too_large(&sheet, &cell_name(&sheet, r, c))]);
            }
        }
    }
    let range = book
        .worksheet_range(&sheet)
        .map_err(|e| vec![format!("sheet `{sheet}` cannot be read: {e}")])?;
    let origin = range.start().unwrap_or((0, 0));
    let mut problems = Vec::new();
    // Merged cells in the data would leave all but their first cell empty.
    if let calamine::Sheets::Xlsx(xlsx) = &mut book {
        for region in xlsx.merge_cells_by_sheet_name(&sheet).unwrap_or_default() {
            problems.push(format!(
                "cells {} to {} are merged; a table of cards needs one value a cell: unmerge them",
                cell_name(&sheet, region.start.0, region.start.1),
                cell_name(&sheet, region.end.0, region.end.1)
            ));
        }
    }
    // A formula whose result was never saved (a file written by a script, not by a
    // spreadsheet program) has no value to read.
    if let Ok(formulas) = book.worksheet_formula(&sheet) {
        let start = formulas.start().unwrap_or((0, 0));
        for (r, row) in formulas.rows().enumerate() {
            for (c, formula) in row.iter().enumerate().filter(|(_, f)| !f.is_empty()) {
                let at = (start.0 + r as u32, start.1 + c as u32);
                if matches!(range.get_value(at), None | Some(Data::Empty)) {
                    problems.push(format!("{} holds the formula `={formula}` with no saved value; open and save the file in a spreadsheet program so that it stores the result", cell_name(&sheet, at.0, at.1)));
                }
            }
        }
    }
    let mut csv = String::new();
    let mut row_starts = Vec::new();
    for (r, row) in range.rows().enumerate() {
        row_starts.push(csv.len());
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let at = || cell_name(&sheet, origin.0 + r as u32, origin.1 + c as u32);
                let text = match cell {
                    Data::Empty => String::new(),
                    Data::String(s) => s.clone(),
                    Data::Int(i) => i.to_string(),
                    // Whole numbers print as typed, without the ".0" of floating point.
                    Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
                    Data::Float(f) => f.to_string(),
                    Data::Bool(b) => b.to_string(),
                    Data::DateTime(_) | Data::DateTimeIso(_) | Data::DurationIso(_) => {
                        problems.push(format!("{} holds a date or time; deckpress reads text and numbers: format the cell as text", at()));
                        String::new()
                    }
                    Data::Error(e) => {
                        problems.push(format!("{} holds the error {e:?} (a formula that fails, or one with no saved value)", at()));
                        String::new()
                    }
                };
                if text.contains([',', '"', '\n', '\r']) {
                    format!("\"{}\"", text.replace('"', "\"\""))
                } else {
                    text
                }
            })
            .collect();
        csv.push_str(&cells.join(","));
        csv.push('\n');
    }
    if problems.is_empty() {
        Ok(Table { csv, places: SheetPlaces { sheet, origin, row_starts } })
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_as_spreadsheets_name_them() {
        assert_eq!(cell_name("market", 16, 2), "market!C17");
        assert_eq!(cell_name("s", 0, 26), "s!AA1");
        // A cell holding a line break is one row of the sheet; the table starts at B3.
        let csv = "id,name\nx,\"a, b\nc\",d\ny,e\n".to_string();
        let row_starts = vec![0, 8, csv.find("y,").unwrap()];
        let table =
            Table { csv, places: SheetPlaces { sheet: "s".into(), origin: (2, 1), row_starts } };
        assert_eq!(table.places.cell_name(&table.csv, table.csv.find(",d").unwrap() + 1), "s!D4");
        assert_eq!(table.places.cell_name(&table.csv, table.csv.find("y,").unwrap()), "s!B5");
    }
}

#[cfg(test)]
mod old_workbooks {
    use super::*;

    const CARDS: &[u8] = include_bytes!("../../tests/fixtures/cards.xls");

    #[test]
    fn a_sound_xls_passes_the_compound_file_check_and_reads() {
        assert_eq!(bounded_compound_file(CARDS), Ok(()));
        let table = read(CARDS, Some("cards")).unwrap();
        assert!(
            table.csv.starts_with("id,qty,suit,value,title\nsun-1,1,Sun,1,Dawn\n"),
            "{}",
            table.csv
        );
    }

    #[test]
    fn a_stream_claiming_more_than_the_file_is_refused() {
        let mut bytes = CARDS.to_vec();
        let dir = (u32::from_le_bytes(bytes[48..52].try_into().unwrap()) as usize + 1) * 512;
        // The first stream after the root: its size, 3 GiB.
        bytes[dir + 128 + 120..dir + 128 + 124].copy_from_slice(&(3u32 << 30).to_le_bytes());
        let said = bounded_compound_file(&bytes).unwrap_err();
        assert!(said.contains("claims 3221225472 bytes, more than the whole file"), "{said}");
    }
}
