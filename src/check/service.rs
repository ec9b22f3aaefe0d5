//! A print service's spec, checked on the files made for it, read back as the printer
//! reads them: PDFs with a PDF parser (`check::pdf`), PNGs with a PNG decoder. Input: the
//! service's row, the files of one deck and what the deck holds; output: one `Check` per
//! rule, PASS or FAIL with where and a fix that fits the service.

use std::path::PathBuf;

use super::pdf::{self, Area, Document, Mark};
use crate::press::Pdfx;
use crate::press::PressSpec;
use crate::services::{Form, Service, SideOrder};

/// Text past the safe zone or into the bleed.
pub const SAFE_ZONE: &str = "safe-zone";
/// A page's bleed narrower than the service's, or art past the cut short of its edge.
pub const BLEED: &str = "bleed";
/// Text printed smaller than the service's floor.
pub const SMALL_TEXT: &str = "small-text";
/// Lines thinner than the service's floor.
pub const HAIRLINE: &str = "hairline";
/// Live transparency in a PDF/X-1a file.
pub const TRANSPARENCY: &str = "transparency";
/// Images printed at fewer pixels per inch than the service's floor.
pub const IMAGE_DPI: &str = "image-dpi";
/// RGB in a CMYK job; an sRGB PNG for a PNG service.
pub const COLOUR_SPACE: &str = "colour-space";
/// Every font's program in the file.
pub const FONTS_EMBEDDED: &str = "fonts-embedded";
/// The files the service's row asks for, their pages and the order of the sides.
pub const FILE_ORDER: &str = "file-order";

/// The names this module adds to `check::NAMES`.
pub const CHECKS: [&str; 9] = [
    SAFE_ZONE,
    BLEED,
    SMALL_TEXT,
    HAIRLINE,
    TRANSPARENCY,
    IMAGE_DPI,
    COLOUR_SPACE,
    FONTS_EMBEDDED,
    FILE_ORDER,
];

/// One line of the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub name: &'static str,
    pub verdict: Verdict,
    /// What was found: the size, the count, the first card that fails.
    pub detail: String,
    /// What to do about a failure.
    pub fix: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail,
    /// Found, but nothing a print service rejects: a player's problem (`--strict` fails it).
    Warn,
    /// The service's spec asks nothing of this for these files (ink for sRGB PNGs).
    NotApplicable,
}

impl Check {
    fn pass(name: &'static str, detail: impl Into<String>) -> Check {
        Check { name, verdict: Verdict::Pass, detail: detail.into(), fix: None }
    }
    fn fail(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check { name, verdict: Verdict::Fail, detail: detail.into(), fix: Some(fix.into()) }
    }
    fn not_applicable(name: &'static str, detail: impl Into<String>) -> Check {
        Check { name, verdict: Verdict::NotApplicable, detail: detail.into(), fix: None }
    }
    /// What a check turned off by a test says (`check::off`).
    fn off(name: &'static str) -> Check {
        Check::not_applicable(name, "turned off (DECKPRESS_CHECK_OFF)")
    }
}

/// One deck as the service's files should hold it.
#[derive(Debug, Clone)]
pub struct Deck {
    /// The names of the files the service's row asks for, in its order.
    pub files: Vec<String>,
    /// Each card in print order, a copy at a time: what the pages are of.
    pub cards: Vec<String>,
    /// Card designs (rows).
    pub designs: usize,
    /// Files whose first page is a guide drawn in miniature, not printed to size (a tiled
    /// board's assembly map): its text and lines are not held to the floors, the tiles
    /// and the whole board are.
    pub guides: Vec<String>,
}

/// The files' checks, in the report's order. A file that cannot be read fails every check
/// that reads it.
/// `press` is the job's CMYK conversion (the service's own, or `--colour cmyk`).
pub fn checks(
    service: &Service,
    press: Option<&PressSpec>,
    files: &[(PathBuf, Vec<u8>)],
    deck: &Deck,
) -> Vec<Check> {
    let mut read: Vec<(String, Document)> = Vec::new();
    let mut unreadable = Vec::new();
    for (path, bytes) in files.iter().filter(|(p, _)| p.extension().is_some_and(|e| e == "pdf")) {
        let name = file_name(path);
        match pdf::read(bytes) {
            Ok(doc) => read.push((name, doc)),
            Err(why) => unreadable.push(format!("{name}: {why}")),
        }
    }
    let pdfs = Pdfs { docs: &read, deck, sides: service.sides };
    let mut out = Vec::new();
    if let Some(first) = unreadable.first() {
        let fix = format!(
            "make the file again (`deckpress build --for {}`), or export it as PDF/X",
            service.name
        );
        for name in CHECKS {
            out.push(if super::off(name) {
                Check::off(name)
            } else {
                Check::fail(name, first.clone(), fix.clone())
            });
        }
        return out;
    }
    let is_pdf = service.form.is_pdf();
    out.push(if is_pdf { bleed(service, &pdfs) } else { png_only(BLEED) });
    out.push(if is_pdf { safe_zone(service, &pdfs) } else { png_only(SAFE_ZONE) });
    out.push(if is_pdf { small_text(service, &pdfs) } else { png_only(SMALL_TEXT) });
    out.push(if is_pdf { hairline(service, &pdfs) } else { png_only(HAIRLINE) });
    out.push(if is_pdf { image_dpi(service, &pdfs) } else { png_dpi(service, files) });
    out.push(fonts_embedded(service, &pdfs));
    out.push(transparency(service, press, &pdfs));
    out.push(colour_space(service, press, &pdfs, files));
    out.push(file_order(service, &pdfs, files));
    out
}

/// The checks that read any printed document whatever its layout, for a home build's
/// sheets, boards, pads, label sheets and boxes (`preflight --for home`): text size,
/// line width (press files only: a home printer draws a hair), picture resolution,
/// fonts, and for press files transparency and colour. The bleed, the safe zone and the
/// file order are a card service's, of one card a page.
/// `guide`: the file opens with a guide's miniature (a tiled board's assembly map), drawn
/// small on purpose and not held to the floors (`Deck::guides`).
pub fn document_checks(
    service: &Service,
    press: Option<&PressSpec>,
    (name, bytes): (&str, &[u8]),
    guide: bool,
) -> Vec<Check> {
    let names = [SMALL_TEXT, HAIRLINE, IMAGE_DPI, FONTS_EMBEDDED, TRANSPARENCY, COLOUR_SPACE];
    let mut doc = match pdf::read(bytes) {
        Ok(doc) => doc,
        Err(why) => {
            let fix = "make the file again with `deckpress build`";
            return names.map(|n| Check::fail(n, format!("{name}: {why}"), fix)).to_vec();
        }
    };
    // The printer's marks around the TrimBox (crop marks, the slug, a tile's labels) are
    // deckpress's own, cut away: what is judged is what lies on the pieces.
    for page in &mut doc.pages {
        if let Some(trim) = page.trim {
            page.marks.retain(|mark| match mark {
                pdf::Mark::Text { area, .. }
                | pdf::Mark::Stroke { area, .. }
                | pdf::Mark::Image { area, .. } => area.meet(trim).is_some(),
                _ => true,
            });
        }
    }
    let read = vec![(name.to_string(), doc)];
    let guides = if guide { vec![name.to_string()] } else { Vec::new() };
    let deck = Deck { files: vec![name.to_string()], cards: Vec::new(), designs: 0, guides };
    let pdfs = Pdfs { docs: &read, deck: &deck, sides: service.sides };
    let files = vec![(PathBuf::from(name), bytes.to_vec())];
    vec![
        small_text(service, &pdfs),
        match press {
            Some(_) => hairline(service, &pdfs),
            None => Check::not_applicable(
                HAIRLINE,
                "a home printer draws lines down to a hair; press files (--colour cmyk) are held to 0.25 pt",
            ),
        },
        image_dpi(service, &pdfs),
        fonts_embedded(service, &pdfs),
        transparency(service, press, &pdfs),
        colour_space(service, press, &pdfs, &files),
    ]
}

/// Checks a PNG's pixels cannot answer. `preflight` answers the bleed, the safe zone and
/// the text size from drawing the cards instead; lines are not measured in PNG files.
fn png_only(name: &'static str) -> Check {
    Check::not_applicable(name, "not measured: PNG files hold pixels, not lines or text")
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The PDFs of a deck, read, and what each page is of.
struct Pdfs<'a> {
    docs: &'a [(String, Document)],
    deck: &'a Deck,
    sides: SideOrder,
}

impl Pdfs<'_> {
    fn pages(&self) -> impl Iterator<Item = (String, &pdf::Page)> {
        self.docs.iter().flat_map(move |(name, doc)| {
            doc.pages.iter().enumerate().map(move |(i, page)| (self.place(name, i), page))
        })
    }

    /// The pages printed to size: all but a guide's miniature (`Deck::guides`).
    fn to_size(&self) -> impl Iterator<Item = (String, &pdf::Page)> {
        self.docs.iter().flat_map(move |(name, doc)| {
            let guide = self.deck.guides.contains(name);
            doc.pages
                .iter()
                .enumerate()
                .filter(move |(i, _)| !(guide && *i == 0))
                .map(move |(i, page)| (self.place(name, i), page))
        })
    }

    /// "page 4 of x.pdf (the front of card `1-flag`)".
    fn place(&self, file: &str, index: usize) -> String {
        let card = self.deck.cards.get(index / 2);
        let back_first = self.sides == SideOrder::BackFirst;
        let side = if index.is_multiple_of(2) == back_first { "back" } else { "front" };
        match card {
            Some(card) => format!("page {} of {file} (the {side} of card `{card}`)", index + 1),
            None => format!("page {} of {file}", index + 1),
        }
    }
}

/// `text "CUTLASS"` with at most 30 characters.
fn quoted(text: &str) -> String {
    let short: String = text.chars().take(30).collect();
    if text.chars().count() > 30 {
        format!("text \"{short}…\"")
    } else {
        format!("text \"{short}\"")
    }
}

fn mm(points: f32) -> f32 {
    points * 25.4 / 72.0
}

/// Problems found, the first said with how many more.
fn first_and_more(found: &[String]) -> String {
    match found.len() {
        0 => String::new(),
        1 => found[0].clone(),
        n => format!("{} (and {} more)", found[0], n - 1),
    }
}

fn safe_zone(service: &Service, pdfs: &Pdfs<'_>) -> Check {
    if super::off(SAFE_ZONE) {
        return Check::off(SAFE_ZONE);
    }
    let safe = service.floor.safe.to_pt();
    let (mut into_bleed, mut in_zone) = (Vec::new(), Vec::new());
    for (place, page) in pdfs.pages() {
        let Some(trim) = page.trim else { continue };
        for mark in &page.marks {
            let Mark::Text { area, text, .. } = mark else { continue };
            let past = area.beyond(&trim);
            if past > 0.1 {
                into_bleed.push(format!(
                    "{} runs {:.1} mm past the cut into the bleed, {place}",
                    quoted(text),
                    mm(past)
                ));
            } else if area.beyond(&trim.inset(safe)) > 0.1 {
                in_zone.push(format!(
                    "{} is {:.1} mm from the cut, inside the {:.1} mm safe zone, {place}",
                    quoted(text),
                    mm(-past),
                    mm(safe)
                ));
            }
        }
    }
    let fix = format!(
        "move the text {:.1} mm inside the card's edge (or shorten it, or wrap it with textbox()): {} cuts within the bleed",
        mm(safe),
        service.title
    );
    match (into_bleed.is_empty(), in_zone.is_empty()) {
        (false, _) => Check::fail(SAFE_ZONE, first_and_more(&into_bleed), fix),
        (true, false) => Check::fail(SAFE_ZONE, first_and_more(&in_zone), fix),
        (true, true) => Check::pass(SAFE_ZONE, format!("text {:.1} mm inside every cut", mm(safe))),
    }
}

/// Each page's bleed as large as the service asks, and art that runs past the cut (a
/// background) reaching the bleed's edge on that side: a cut that strays shows no paper.
fn bleed(service: &Service, pdfs: &Pdfs<'_>) -> Check {
    if super::off(BLEED) {
        return Check::off(BLEED);
    }
    let want = service.bleed.map(|b| b.to_pt());
    let (mut narrow, mut short) = (Vec::new(), Vec::new());
    let mut least = f32::MAX;
    for (place, page) in pdfs.pages() {
        let Some(trim) = page.trim else { continue };
        let edge = page.bleed.or(page.media).unwrap_or(trim);
        let has = [trim.x0 - edge.x0, trim.y0 - edge.y0, edge.x1 - trim.x1, edge.y1 - trim.y1]
            .into_iter()
            .fold(f32::MAX, f32::min);
        least = least.min(has);
        if want.is_some_and(|w| has < w - 0.05) {
            narrow.push(format!("the page's bleed is {:.2} mm, {place}", mm(has)));
        }
        if let Some(gap) = short_of_bleed(&page.marks, &trim, &edge) {
            short.push(format!(
                "the art that runs past the cut stops {:.1} mm short of the bleed's edge, {place}",
                mm(gap)
            ));
        }
    }
    let asked = want.map_or("the deck's".to_string(), |w| format!("{:.2} mm", mm(w)));
    if !narrow.is_empty() {
        return Check::fail(
            BLEED,
            format!("{}; {} takes {asked}", first_and_more(&narrow), service.title),
            format!(
                "`deckpress build --for {}` gives each page the bleed {} takes",
                service.name, service.title
            ),
        );
    }
    if !short.is_empty() {
        return Check::fail(
            BLEED,
            format!("{}; {} cuts anywhere within it", first_and_more(&short), service.title),
            format!(
                "draw the background past the card's edge by all of the {asked} bleed (5 mm past the edge is safe; what lies beyond is cut off)"
            ),
        );
    }
    let seen =
        if least == f32::MAX { "no page".to_string() } else { format!("{:.2} mm", mm(least)) };
    Check::pass(
        BLEED,
        format!("{seen} on every page ({asked} asked), art past the cut drawn into all of it"),
    )
}

/// On a page's worst side, how far the art that crosses the cut there stops short of the
/// bleed's edge: the farthest any of it reaches counts, so a background that reaches the
/// edge covers what stops before it.
fn short_of_bleed(marks: &[Mark], trim: &Area, edge: &Area) -> Option<f32> {
    let tolerance = 0.5;
    // Per side (left, bottom, right, top): the farthest reach past the cut, if any.
    let mut reach: [Option<f32>; 4] = [None; 4];
    for mark in marks {
        let Mark::Bleeding { area } = mark else { continue };
        let past = [trim.x0 - area.x0, trim.y0 - area.y0, area.x1 - trim.x1, area.y1 - trim.y1];
        for (side, p) in past.into_iter().enumerate() {
            if p > tolerance {
                reach[side] = Some(reach[side].map_or(p, |r: f32| r.max(p)));
            }
        }
    }
    let room = [trim.x0 - edge.x0, trim.y0 - edge.y0, edge.x1 - trim.x1, edge.y1 - trim.y1];
    reach
        .into_iter()
        .zip(room)
        .filter_map(|(r, room)| r.map(|r| room - r))
        .filter(|gap| *gap > tolerance)
        .reduce(f32::max)
}

fn small_text(service: &Service, pdfs: &Pdfs<'_>) -> Check {
    if super::off(SMALL_TEXT) {
        return Check::off(SMALL_TEXT);
    }
    let floor = service.floor.text_pt;
    let mut found = Vec::new();
    let mut smallest = f32::MAX;
    for (place, page) in pdfs.to_size() {
        for mark in &page.marks {
            if let Mark::Text { size_pt, text, .. } = mark {
                smallest = smallest.min(*size_pt);
                // Half a hundredth of a point: what rounding to the report's digits hides.
                if *size_pt < floor - 0.005 {
                    found.push(format!("{} prints at {size_pt:.1} pt, {place}", quoted(text)));
                }
            }
        }
    }
    if found.is_empty() {
        let seen = if smallest == f32::MAX {
            "no text".to_string()
        } else {
            format!("the smallest {smallest:.1} pt")
        };
        return Check::pass(SMALL_TEXT, format!("every text at or above {floor} pt: {seen}"));
    }
    Check::fail(
        SMALL_TEXT,
        format!(
            "{}; under the {floor} pt {} is held to ({})",
            first_and_more(&found),
            service.title,
            service.floor.text_source
        ),
        format!("make the text at least {floor} pt (larger, or shorter so textbox() need not shrink it)"),
    )
}

fn hairline(service: &Service, pdfs: &Pdfs<'_>) -> Check {
    if super::off(HAIRLINE) {
        return Check::off(HAIRLINE);
    }
    let floor = service.floor.line_pt;
    let mut found = Vec::new();
    for (place, page) in pdfs.to_size() {
        for mark in &page.marks {
            if let Mark::Stroke { width_pt, .. } = mark {
                if *width_pt < floor - 0.005 {
                    found.push(format!(
                        "a line {width_pt:.2} pt ({:.2} mm) wide, {place}",
                        mm(*width_pt)
                    ));
                }
            }
        }
    }
    if found.is_empty() {
        return Check::pass(HAIRLINE, format!("every line at least {floor} pt"));
    }
    Check::fail(
        HAIRLINE,
        format!(
            "{}; under the {floor} pt {} is held to ({})",
            first_and_more(&found),
            service.title,
            service.floor.line_source
        ),
        format!(
            "give the line a stroke-width of at least {floor} pt ({:.2} mm) as printed",
            mm(floor)
        ),
    )
}

fn image_dpi(service: &Service, pdfs: &Pdfs<'_>) -> Check {
    if super::off(IMAGE_DPI) {
        return Check::off(IMAGE_DPI);
    }
    let floor = service.floor.dpi as f32;
    let (mut found, mut images) = (Vec::new(), 0);
    for (place, page) in pdfs.pages() {
        for mark in &page.marks {
            if let Mark::Image { pixels, dpi, placed, .. } = mark {
                images += 1;
                // One percent under: what a rounded size or a fitted scale leaves.
                if *dpi < floor * 0.99 {
                    let (w, h) = (mm(placed.0), mm(placed.1));
                    found.push(format!(
                        "an image of {} × {} px printed {w:.0} × {h:.0} mm: {dpi:.0} dpi, {place}",
                        pixels.0, pixels.1
                    ));
                }
            }
        }
    }
    if found.is_empty() {
        return Check::pass(
            IMAGE_DPI,
            format!("{images} images placed, each at {floor:.0} dpi or more"),
        );
    }
    Check::fail(
        IMAGE_DPI,
        format!("{}; under {}", first_and_more(&found), service.floor.dpi_source),
        format!("use an image with more pixels ({floor:.0} per inch of the size it prints at), or print it smaller"),
    )
}

/// PNG files for a PNG service: the resolution each declares is the service's.
fn png_dpi(service: &Service, files: &[(PathBuf, Vec<u8>)]) -> Check {
    if super::off(IMAGE_DPI) {
        return Check::off(IMAGE_DPI);
    }
    let want = service.dpi.unwrap_or(service.floor.dpi);
    let mut wrong = Vec::new();
    let pngs: Vec<_> =
        files.iter().filter(|(p, _)| p.extension().is_some_and(|e| e == "png")).collect();
    for (path, bytes) in &pngs {
        match png_info(bytes) {
            Ok(info) if info.dpi.is_some_and(|d| d.abs_diff(want) <= 1) => {}
            Ok(info) => wrong.push(format!(
                "{} declares {}",
                file_name(path),
                info.dpi.map_or("no resolution".to_string(), |d| format!("{d} dpi"))
            )),
            Err(why) => wrong.push(format!("{}: {why}", file_name(path))),
        }
    }
    if wrong.is_empty() {
        return Check::pass(IMAGE_DPI, format!("{} PNG files at {want} dpi", pngs.len()));
    }
    Check::fail(
        IMAGE_DPI,
        first_and_more(&wrong),
        format!("report it: deckpress writes {} PNGs at {want} dpi", service.title),
    )
}

fn fonts_embedded(service: &Service, pdfs: &Pdfs<'_>) -> Check {
    if super::off(FONTS_EMBEDDED) {
        return Check::off(FONTS_EMBEDDED);
    }
    if !service.form.is_pdf() {
        return Check::not_applicable(FONTS_EMBEDDED, "PNG files: text is pixels");
    }
    let fonts: Vec<(&str, &pdf::FontUse)> = pdfs
        .docs
        .iter()
        .flat_map(|(name, d)| d.fonts.iter().map(move |f| (name.as_str(), f)))
        .collect();
    let missing: Vec<String> = fonts
        .iter()
        .filter(|(_, f)| !f.embedded)
        .map(|(file, f)| format!("font {} is not embedded in {file}", f.name))
        .collect();
    if missing.is_empty() {
        return Check::pass(
            FONTS_EMBEDDED,
            format!("{} of {} fonts embedded", fonts.len(), fonts.len()),
        );
    }
    Check::fail(
        FONTS_EMBEDDED,
        format!("{} ({} of {} fonts embedded)", first_and_more(&missing), fonts.len() - missing.len(), fonts.len()),
        format!("{} prints only fonts the file carries: embed the font (deckpress embeds every font it draws with), or outline the text", service.title),
    )
}

fn transparency(service: &Service, press: Option<&PressSpec>, pdfs: &Pdfs<'_>) -> Check {
    if super::off(TRANSPARENCY) {
        return Check::off(TRANSPARENCY);
    }
    if !press.is_some_and(|p| p.pdfx == Pdfx::X1a) {
        return Check::not_applicable(TRANSPARENCY, "kept: the files are not PDF/X-1a");
    }
    let found: Vec<String> = pdfs
        .pages()
        .filter_map(|(place, page)| {
            let what: Vec<&str> = page.transparency.iter().map(String::as_str).collect();
            (!what.is_empty()).then(|| format!("{} on {place}", what.join(", ")))
        })
        .collect();
    if found.is_empty() {
        return Check::pass(TRANSPARENCY, "none live: PDF/X-1a holds none");
    }
    Check::fail(
        TRANSPARENCY,
        format!("live transparency in a PDF/X-1a file: {}", first_and_more(&found)),
        format!("{} takes PDF/X-1a, which holds no transparency: build the file with deckpress (it draws transparent pieces as 600 dpi pictures), or flatten it", service.title),
    )
}

fn colour_space(
    service: &Service,
    press: Option<&PressSpec>,
    pdfs: &Pdfs<'_>,
    files: &[(PathBuf, Vec<u8>)],
) -> Check {
    if super::off(COLOUR_SPACE) {
        return Check::off(COLOUR_SPACE);
    }
    match press {
        Some(press) if service.form.is_pdf() => {
            let profile = &press.condition.identifier;
            let pdfx = press.pdfx;
            let rgb: Vec<String> = pdfs
                .pages()
                .filter_map(|(place, page)| {
                    let what: Vec<&str> = page.rgb.iter().copied().collect();
                    (!what.is_empty()).then(|| format!("RGB {} on {place}", what.join(", ")))
                })
                .collect();
            let fix = format!("{} prints CMYK: build with --colour cmyk (deckpress converts every colour through {profile}), or convert the file", service.title);
            if !rgb.is_empty() {
                return Check::fail(
                    COLOUR_SPACE,
                    format!("{} in a CMYK file", first_and_more(&rgb)),
                    fix,
                );
            }
            if let Some((name, _)) = pdfs.docs.iter().find(|(_, d)| {
                !d.output_intent.as_deref().is_some_and(|i| i.starts_with("GTS_PDFX"))
            }) {
                return Check::fail(
                    COLOUR_SPACE,
                    format!("{name} has no PDF/X output intent"),
                    fix,
                );
            }
            Check::pass(
                COLOUR_SPACE,
                format!("CMYK for {profile}, {} output intent", pdfx.version()),
            )
        }
        _ if service.form == Form::PngPerSide => {
            let pngs: Vec<_> =
                files.iter().filter(|(p, _)| p.extension().is_some_and(|e| e == "png")).collect();
            let bad: Vec<String> = pngs
                .iter()
                .filter_map(|(path, bytes)| match png_info(bytes) {
                    Ok(i) if i.rgb && i.srgb => None,
                    Ok(_) => Some(format!("{} is not RGB with sRGB declared", file_name(path))),
                    Err(why) => Some(format!("{}: {why}", file_name(path))),
                })
                .collect();
            if bad.is_empty() {
                return Check::pass(
                    COLOUR_SPACE,
                    format!("sRGB, declared in each of {} PNG files", pngs.len()),
                );
            }
            Check::fail(COLOUR_SPACE, first_and_more(&bad), "report it: deckpress writes sRGB PNGs")
        }
        _ => Check::pass(COLOUR_SPACE, "RGB (--colour cmyk for a press)"),
    }
}

struct PngInfo {
    rgb: bool,
    srgb: bool,
    dpi: Option<u32>,
}

/// A PNG's header, read by the PNG decoder.
fn png_info(bytes: &[u8]) -> Result<PngInfo, String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().map_err(|e| format!("not a PNG that can be read ({e})"))?;
    let info = reader.info();
    let dpi = info
        .pixel_dims
        .filter(|d| d.unit == png::Unit::Meter)
        .map(|d| (d.xppu as f32 * 0.0254).round() as u32);
    Ok(PngInfo {
        rgb: matches!(info.color_type, png::ColorType::Rgb | png::ColorType::Rgba),
        srgb: info.srgb.is_some(),
        dpi,
    })
}

/// The files the row names, each present; a page for each side of each card; each card's
/// sides in the row's order.
fn file_order(service: &Service, pdfs: &Pdfs<'_>, files: &[(PathBuf, Vec<u8>)]) -> Check {
    if super::off(FILE_ORDER) {
        return Check::off(FILE_ORDER);
    }
    let names: Vec<String> = files.iter().map(|(p, _)| file_name(p)).collect();
    let folders: Vec<String> =
        files.iter().filter_map(|(p, _)| p.parent().map(file_name)).collect();
    let missing: Vec<&String> = pdfs
        .deck
        .files
        .iter()
        .filter(|want| {
            let folder = want.strip_suffix('/');
            !names.contains(want) && !folder.is_some_and(|f| folders.iter().any(|g| g == f))
        })
        .collect();
    let fix = format!(
        "send {} every file it takes: `deckpress build --for {}` writes them all",
        service.title, service.name
    );
    if let Some(name) = missing.first() {
        return Check::fail(
            FILE_ORDER,
            format!("`{name}` is missing: {} takes {}", service.title, pdfs.deck.files.join(", ")),
            fix,
        );
    }
    match service.form {
        Form::PdfPagePerSide => pdf_order(service, pdfs),
        Form::PngPerSide => png_order(service, pdfs.deck, files),
        Form::GangSheets => {
            Check::pass(FILE_ORDER, "gang sheets, fronts and backs interleaved for duplex")
        }
    }
}

fn pdf_order(service: &Service, pdfs: &Pdfs<'_>) -> Check {
    let back_first = service.sides == SideOrder::BackFirst;
    let wanted = if back_first {
        "each card's back, then its front"
    } else {
        "each card's front, then its back"
    };
    let fix = format!(
        "a page for each side of each card, {wanted}, copies included: `deckpress build --for {}` writes the file so",
        service.name
    );
    let cards = pdfs.deck.cards.len();
    let pages: Vec<u64> =
        pdfs.docs.iter().flat_map(|(_, d)| d.pages.iter().map(|p| p.look)).collect();
    if pages.len() != 2 * cards {
        return Check::fail(
            FILE_ORDER,
            format!(
                "{} pages for {cards} cards: {} takes a page for each side of each card",
                pages.len(),
                service.title
            ),
            fix,
        );
    }
    // A deck's backs look alike (one back for all, or a few), its fronts differ: the side
    // with fewer looks is the back. When they tie (a back per card) the order cannot be
    // told from the pages and the count is all that is checked.
    let looks = |first: usize| -> usize {
        pages.iter().skip(first).step_by(2).collect::<std::collections::BTreeSet<_>>().len()
    };
    let (odd, even) = (looks(0), looks(1));
    let backs_first = odd < even;
    let fronts_first = even < odd;
    if (back_first && fronts_first) || (!back_first && backs_first) {
        let seen = if fronts_first {
            "a front first (page 1 is one of the deck's fronts)"
        } else {
            "a back first (page 1 is the deck's back)"
        };
        return Check::fail(
            FILE_ORDER,
            format!("the pages put {seen}; {} takes {wanted}", service.title),
            fix,
        );
    }
    let told =
        if odd == even { " (each card's back is its own: sides not told apart)" } else { "" };
    Check::pass(
        FILE_ORDER,
        format!("{} PDF, {} pages for {cards} cards: {wanted}{told}", pdfs.docs.len(), pages.len()),
    )
}

/// `quantities.csv` lists each design's front (numbered in order) and back, every file it
/// names is there, and the copies add up to the deck.
fn png_order(service: &Service, deck: &Deck, files: &[(PathBuf, Vec<u8>)]) -> Check {
    let fix = "report it: deckpress writes a PNG for each side of every design and quantities.csv";
    let names: Vec<String> = files.iter().map(|(p, _)| file_name(p)).collect();
    let Some((_, csv)) = files.iter().find(|(p, _)| file_name(p) == "quantities.csv") else {
        return Check::fail(
            FILE_ORDER,
            format!("quantities.csv is missing: {} takes it with the PNGs", service.title),
            fix,
        );
    };
    let text = String::from_utf8_lossy(csv);
    let (mut rows, mut copies) = (0usize, 0usize);
    for (i, line) in text.lines().skip(1).enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        let [front, back, qty] = cells[..] else {
            return Check::fail(
                FILE_ORDER,
                format!("quantities.csv line {}: `{line}` is not front,back,qty", i + 2),
                fix,
            );
        };
        let number = format!("{:03}-", i + 1);
        if !front.starts_with(&number) {
            return Check::fail(FILE_ORDER, format!("quantities.csv line {}: `{front}` is out of order (the {} design's front starts {number})", i + 2, i + 1), fix);
        }
        if let Some(absent) = [front, back].into_iter().find(|f| !names.iter().any(|n| n == f)) {
            return Check::fail(
                FILE_ORDER,
                format!(
                    "quantities.csv line {} names `{absent}`, which is not among the files",
                    i + 2
                ),
                fix,
            );
        }
        rows += 1;
        copies += qty.trim().parse::<usize>().unwrap_or(0);
    }
    if rows != deck.designs || copies != deck.cards.len() {
        return Check::fail(
            FILE_ORDER,
            format!(
                "quantities.csv lists {rows} designs and {copies} cards; the deck has {} and {}",
                deck.designs,
                deck.cards.len()
            ),
            fix,
        );
    }
    let pngs = names.iter().filter(|n| n.ends_with(".png")).count();
    Check::pass(
        FILE_ORDER,
        format!("{pngs} PNG files, NNN-id-front/back, and quantities.csv for {copies} cards"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_is_named_where_the_corpus_finds_it() {
        for name in CHECKS {
            assert!(crate::check::NAMES.contains(&name), "{name} is not in check::NAMES");
        }
    }
}
