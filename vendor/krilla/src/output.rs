//! deckpress patch: the finished PDF written to a file a window at a time, instead of
//! whole in memory.
//!
//! pdf-writer writes objects into an in-memory `Pdf` and keeps where each one starts to
//! itself, for the cross-reference table it writes at the end. Here the objects go into a
//! `Pdf` that is finished (as a PDF of its own) whenever it holds `WINDOW` bytes: its
//! objects are copied to the sink, and the offsets its own cross-reference table gives
//! are kept, moved to where the objects landed. krilla numbers objects in the order it
//! writes them, so a window's table lists only its own objects and the free entries
//! before them. At the end one table for every object is written, byte for byte as
//! `Pdf::finish` writes it, with the trailer of the last window (which holds the
//! catalog, the last object).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

use pdf_writer::{Chunk, Limits, Pdf, Ref, Settings};

use crate::error::{KrillaError, KrillaResult};

/// Where a finished PDF is written: read again for the document id, which hashes the
/// whole file.
pub trait Sink: Read + Write + Seek {}

impl<T: Read + Write + Seek> Sink for T {}

/// A window is written out before a chunk would take it past this many bytes.
const WINDOW: usize = 4 << 20;

pub(crate) struct Output<'a> {
    sink: &'a mut dyn Sink,
    settings: Settings,
    window: Pdf,
    /// Room in a window for the cross-reference table its finishing appends (an entry for
    /// every object numbered before its last), so that its buffer does not double then.
    table: usize,
    /// The header every `Pdf` starts with; written once, from the first window.
    header: usize,
    /// Where the PDF starts in the sink, and the bytes written to it since.
    start: u64,
    written: u64,
    /// Where each object starts in the sink, in the order they were written.
    offsets: Vec<(Ref, u64)>,
    limits: Limits,
}

impl<'a> Output<'a> {
    /// `capacity`: about the bytes of the objects; `objects`: about how many there are.
    pub(crate) fn new(
        sink: &'a mut dyn Sink,
        settings: Settings,
        capacity: usize,
        objects: usize,
    ) -> KrillaResult<Self> {
        let start = sink.stream_position().map_err(io_error)?;
        let table = 20 * (objects + 16) + 4096;
        let window = Pdf::with_settings_and_capacity(settings, capacity.min(WINDOW) + table);
        Ok(Self {
            sink,
            settings,
            table,
            header: window.len(),
            window,
            start,
            written: 0,
            offsets: Vec::new(),
            limits: Limits::new(),
        })
    }

    /// The window, for the PDF's own header, the document info and the catalog.
    pub(crate) fn pdf(&mut self) -> &mut Pdf {
        &mut self.window
    }

    /// Adds `chunk`, renumbered by `mapping`. A window that would pass `WINDOW` with it is
    /// written out first, and let go of before the next one is made.
    pub(crate) fn add(
        &mut self,
        chunk: &Chunk,
        mapping: impl FnMut(Ref) -> Ref,
    ) -> KrillaResult<()> {
        if self.window.len() > self.header && self.window.len() + chunk.len() > WINDOW {
            let full = std::mem::replace(
                &mut self.window,
                Pdf::with_settings_and_capacity(self.settings, 0),
            );
            self.write_window(full)?;
            // Made to the size of this chunk (renumbering may lengthen it a little) and of
            // the table finishing it appends, so that it does not grow to twice that.
            let size = WINDOW.max(chunk.len() + chunk.len() / 8) + self.table;
            self.window = Pdf::with_settings_and_capacity(self.settings, size);
        }
        chunk.renumber_into(&mut self.window, mapping);
        Ok(())
    }

    /// The id of the bytes written so far (those of the sink and of the window), as
    /// `stable_hash_base64` of them all in one slice would give it.
    pub(crate) fn hash(&mut self) -> KrillaResult<String> {
        let skipped = self.skipped();
        let pending = self.window.len() - skipped;
        let mut hasher = crate::util::StableHasher::new();
        // A slice's length goes first, as a u64 (`StableHasher::write_usize`).
        std::hash::Hasher::write_u64(&mut hasher, self.written + pending as u64);
        hash_written(&mut *self.sink, self.start, self.written, &mut hasher).map_err(io_error)?;
        std::hash::Hasher::write(&mut hasher, &self.window.as_bytes()[skipped..]);
        Ok(hasher.base64())
    }

    /// Writes the last window, the cross-reference table of every object and the
    /// trailer. Returns the limits of everything written.
    pub(crate) fn finish(mut self) -> KrillaResult<Limits> {
        let window = std::mem::replace(&mut self.window, Pdf::new());
        let trailer = self.write_window(window)?;
        let xref_at = self.written;
        let mut table = Vec::with_capacity(20 * (self.offsets.len() + 2) + 16);
        let size = write_xref(&self.offsets, &mut table);
        // The last window's trailer gives `/Size` of its own objects: the catalog is the
        // last object of all, so it is the size of the whole table.
        if trailer.size != size {
            return Err(io_error(io::Error::other(format!(
                "the trailer gives {} objects, the document has {size}",
                trailer.size
            ))));
        }
        table.extend_from_slice(&trailer.dict);
        write!(table, "startxref\n{xref_at}\n%%EOF").map_err(io_error)?;
        self.sink.write_all(&table).map_err(io_error)?;
        self.sink.flush().map_err(io_error)?;
        Ok(self.limits)
    }

    /// Bytes at the start of the window that are not written: the header, once the first
    /// window (which holds it) is written.
    fn skipped(&self) -> usize {
        if self.written == 0 {
            0
        } else {
            self.header
        }
    }

    /// Finishes `window` as a PDF, copies its objects to the sink and keeps their offsets.
    fn write_window(&mut self, window: Pdf) -> KrillaResult<Trailer> {
        self.limits.merge(window.limits());
        let skipped = self.skipped();
        let bytes = window.finish();
        let parsed = parse_xref(&bytes).ok_or_else(|| {
            io_error(io::Error::other(
                "pdf-writer wrote an unexpected cross-reference table",
            ))
        })?;
        for (id, offset) in parsed.objects {
            let moved = (self.written + offset as u64).checked_sub(skipped as u64);
            self.offsets.push((
                id,
                moved.ok_or_else(|| io_error(io::Error::other("an object in the header")))?,
            ));
        }
        let body = &bytes[skipped..parsed.at];
        self.sink.write_all(body).map_err(io_error)?;
        self.written += body.len() as u64;
        Ok(parsed.trailer)
    }
}

/// Feeds `len` bytes of `sink` from `start` to `hasher`, and goes back to the end.
fn hash_written(
    sink: &mut dyn Sink,
    start: u64,
    len: u64,
    hasher: &mut impl std::hash::Hasher,
) -> io::Result<()> {
    sink.seek(SeekFrom::Start(start))?;
    let mut buf = vec![0; 1 << 16];
    let mut left = len;
    while left > 0 {
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = sink.read(&mut buf[..want])?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the PDF is shorter than written",
            ));
        }
        hasher.write(&buf[..n]);
        left -= n as u64;
    }
    sink.seek(SeekFrom::End(0))?;
    Ok(())
}

struct Parsed {
    /// Where the table starts: the end of the objects.
    at: usize,
    objects: Vec<(Ref, usize)>,
    trailer: Trailer,
}

struct Trailer {
    size: i32,
    /// `trailer\n<<…>>\n`, up to `startxref`.
    dict: Vec<u8>,
}

/// The objects of a PDF `Pdf::finish` wrote: "…xref\n0 N\n", N entries of 20 bytes
/// ("OOOOOOOOOO GGGGG n\r\n"), "trailer\n<<…>>\n", "startxref\nX\n%%EOF".
fn parse_xref(bytes: &[u8]) -> Option<Parsed> {
    let number = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<usize>().ok();
    let tail = b"\n%%EOF";
    let end = bytes.len().checked_sub(tail.len())?;
    let start = bytes[..end]
        .windows(10)
        .rposition(|w| w == b"startxref\n")?;
    let at = number(&bytes[start + 10..end])?;
    let table = bytes.get(at..start)?.strip_prefix(b"xref\n0 ")?;
    let line = table.iter().position(|&b| b == b'\n')?;
    let size = number(&table[..line])?;
    let entries = table.get(line + 1..line + 1 + 20 * size)?;
    let mut objects = Vec::new();
    for (id, entry) in entries.chunks_exact(20).enumerate() {
        if entry[17] == b'n' {
            objects.push((Ref::new(i32::try_from(id).ok()?), number(&entry[..10])?));
        }
    }
    let dict = table[line + 1 + 20 * size..].to_vec();
    dict.starts_with(b"trailer\n").then_some(())?;
    Some(Parsed {
        at,
        objects,
        trailer: Trailer {
            size: i32::try_from(size).ok()?,
            dict,
        },
    })
}

/// The cross-reference table `Pdf::finish` writes for these objects (pdf-writer's
/// `write_offsets` and `PlainXRefWriter`, with the same free list). Returns its size.
fn write_xref(objects: &[(Ref, u64)], out: &mut Vec<u8>) -> i32 {
    let mut offsets = objects.to_vec();
    offsets.sort();
    let len = 1 + offsets.last().map_or(0, |p| p.0.get());
    let _ = write!(out, "xref\n0 {len}\n");
    if offsets.is_empty() {
        let _ = write!(out, "{:010} {:05} f\r\n", 0, 65535);
    }
    let mut written = 0;
    for (i, (id, offset)) in offsets.iter().enumerate() {
        for free in written..id.get() {
            let mut next = free + 1;
            if next == id.get() {
                for (used, _) in &offsets[i..] {
                    if next < used.get() {
                        break;
                    }
                    next = used.get() + 1;
                }
            }
            let generation = if free == 0 { 65535 } else { 0 };
            let _ = write!(out, "{:010} {generation:05} f\r\n", next % len);
            written += 1;
        }
        let _ = write!(out, "{offset:010} {:05} n\r\n", 0);
        written += 1;
    }
    len
}

fn io_error(e: io::Error) -> KrillaError {
    KrillaError::Io(e.to_string())
}

/// deckpress patch: a file that holds pages' compressed content streams from when they
/// are made (on krilla's threads) until they are written, so that a document's pages are
/// not all in memory at once (`Document::spool_pages_to`).
pub(crate) struct Spool(Mutex<File>);

impl Spool {
    pub(crate) fn new(file: File) -> Self {
        Self(Mutex::new(file))
    }

    /// Appends `bytes`; returns where they start.
    pub(crate) fn put(&self, bytes: &[u8]) -> io::Result<u64> {
        let mut file = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let at = file.seek(SeekFrom::End(0))?;
        file.write_all(bytes)?;
        Ok(at)
    }

    /// The `len` bytes put at `at`.
    pub(crate) fn get(&self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let mut file = self.0.lock().unwrap_or_else(|e| e.into_inner());
        file.seek(SeekFrom::Start(at))?;
        let mut bytes = vec![0; len];
        file.read_exact(&mut bytes)?;
        Ok(bytes)
    }
}
