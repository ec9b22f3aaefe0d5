//! Blocks → pages: the rulebook's paragraphs, lists, tables and images flowed onto pages
//! of a size, as SVG (millimetres) drawn later with the game's fonts. Words are measured
//! with `textbox::Metrics`, the glyph advances card text is wrapped with. A heading never
//! ends a page: it goes to the next with the lines after it. Bounded: past `max_pages`
//! it stops with an error, so a runaway document cannot hang a build.

use crate::bundle::markdown::{Block, Section, Span};
use crate::render::canvas::escape_xml;
use crate::render::textbox::Metrics;

/// Points to millimetres.
pub const PT: f32 = 25.4 / 72.0;
/// Line height as a multiple of the font size.
const LEADING: f32 = 1.35;
/// How far each list level or quote steps in, in mm.
const INDENT_MM: f32 = 6.0;
use super::markdown::MAX_INDENT_STEPS;
/// An icon's height in ems, as on cards: about a capital's.
const ICON_EM: f32 = 0.75;
/// Body lines a heading keeps with it on its page.
const KEEP_WITH_HEADING: f32 = 2.0;
/// The one colour of the rulebook's text, and the tint of every other table row: the
/// same as `INK_RGB` and `TINT_RGB`, which the legibility check measures.
const INK: &str = "#1d2330";
const TINT: &str = "#eceae4";
pub const INK_RGB: [u8; 3] = [0x1d, 0x23, 0x30];
pub const TINT_RGB: [u8; 3] = [0xec, 0xea, 0xe4];
/// The page footer's size, and a table's, as a multiple of the body's: the two sizes
/// under it; headings are larger.
const FOOTER_EM: f32 = 0.85;
const TABLE_EM: f32 = 0.95;

/// The smallest text the typesetter prints at `g`, in points (the page footers).
pub fn smallest_text_pt(g: Geometry) -> f32 {
    g.body_pt * FOOTER_EM.min(TABLE_EM)
}

/// Where text goes on a page, in millimetres, and its size.
#[derive(Debug, Clone, Copy)]
pub struct Geometry {
    pub page: (f32, f32),
    pub margin: f32,
    /// The body text's size in points.
    pub body_pt: f32,
}

/// The faces text is set in.
pub struct Faces<'a> {
    pub metrics: &'a Metrics,
    pub body: String,
    pub heading: String,
}

/// Pages as SVG documents, and the headings met on them.
pub struct Laid {
    pub pages: Vec<String>,
    pub sections: Vec<Section>,
    /// Where each `Block::Space` went: its page and top, in mm.
    pub spaces: Vec<(usize, f32)>,
}

/// A line's pieces, each with its x from the line's start.
type Line = Vec<(Span, f32)>;

/// One word's pieces and their widths, as a line places them.
type Word = Vec<(Span, f32)>;

struct Setter<'a> {
    g: Geometry,
    faces: &'a Faces<'a>,
    pages: Vec<String>,
    page: String,
    y: f32,
    sections: Vec<Section>,
    spaces: Vec<(usize, f32)>,
    footer: &'a dyn Fn(usize) -> String,
    max_pages: u64,
}

/// Lays `blocks` out on pages of `g`; `footer(n)` is the line under page n (1-based).
pub fn lay_out(
    blocks: &[Block],
    g: Geometry,
    faces: &Faces,
    footer: &dyn Fn(usize) -> String,
    max_pages: u64,
) -> Result<Laid, String> {
    let mut s = Setter {
        g,
        faces,
        pages: Vec::new(),
        page: String::new(),
        y: g.margin,
        sections: Vec::new(),
        spaces: Vec::new(),
        footer,
        max_pages,
    };
    for block in blocks {
        match block {
            Block::Heading { level, spans } => s.heading(*level, spans)?,
            Block::Para { spans, indent, marker, quote } => {
                s.para(spans, *indent, marker.as_deref(), *quote)?
            }
            Block::Table { head, rows } => s.table(head, rows)?,
            Block::Image { href, size, filled } => s.image(href, *size, filled.as_ref())?,
            Block::Rule => {
                s.room(2.0 * s.body())?;
                let (x0, x1, y) = (g.margin, g.page.0 - g.margin, s.y + s.body());
                s.page.push_str(&format!(
                    r#"<path d="M{x0:.2} {y:.2}H{x1:.2}" stroke="{INK}" stroke-width="0.25"/>"#
                ));
                s.y += 2.0 * s.body();
            }
            Block::Contents(entries) => s.contents(entries)?,
            Block::Space(height) => {
                s.room(*height)?;
                s.spaces.push((s.pages.len(), s.y));
                s.y += height;
            }
        }
    }
    s.finish_page()?;
    Ok(Laid { pages: s.pages, sections: s.sections, spaces: s.spaces })
}

/// A table row's text, cut, to name it in a message.
fn cell_text(cells: &[Vec<Span>]) -> String {
    let text: Vec<String> =
        cells.iter().map(|c| c.iter().map(|s| s.text.as_str()).collect::<String>()).collect();
    let text = text.join(" | ");
    match text.chars().count() > 60 {
        true => text.chars().take(60).collect::<String>() + "…",
        false => text,
    }
}

impl Setter<'_> {
    /// The body size in mm.
    fn body(&self) -> f32 {
        self.g.body_pt * PT
    }

    fn bottom(&self) -> f32 {
        self.g.page.1 - self.g.margin - 2.0 * self.body()
    }

    fn width(&self) -> f32 {
        self.g.page.0 - 2.0 * self.g.margin
    }

    fn at_top(&self) -> bool {
        self.y <= self.g.margin + 0.01
    }

    fn finish_page(&mut self) -> Result<(), String> {
        if self.page.is_empty() && !self.pages.is_empty() {
            return Ok(());
        }
        let (w, h) = self.g.page;
        let n = self.pages.len() + 1;
        if n as u64 > self.max_pages {
            return Err(format!(
                "the rulebook runs past {} pages (--limit rules-pages=N)",
                self.max_pages
            ));
        }
        let size = self.body() * FOOTER_EM;
        let footer = format!(
            r#"<text x="{:.2}" y="{:.2}" font-size="{size:.3}" font-family="{}" text-anchor="middle" fill="{INK}">{}</text>"#,
            w / 2.0,
            h - self.g.margin + size,
            escape_xml(&self.faces.body),
            escape_xml(&(self.footer)(n))
        );
        let page = std::mem::take(&mut self.page);
        self.pages.push(format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">{page}{footer}</svg>"#
        ));
        self.y = self.g.margin;
        Ok(())
    }

    /// Starts a new page unless `height` more fits on this one.
    fn room(&mut self, height: f32) -> Result<(), String> {
        if self.y + height > self.bottom() && !self.at_top() {
            self.finish_page()?;
        }
        Ok(())
    }

    fn heading(&mut self, level: u8, spans: &[Span]) -> Result<(), String> {
        let size = self.body() * [1.9, 1.4, 1.15, 1.0][(level.clamp(1, 4) - 1) as usize];
        let spans: Vec<Span> = spans.iter().map(|s| Span { bold: true, ..s.clone() }).collect();
        let lines = self.lines(&spans, self.width(), size, true);
        let before = if self.at_top() { 0.0 } else { size * 0.7 };
        let body_lines = KEEP_WITH_HEADING * self.body() * LEADING;
        self.room(before + lines.len() as f32 * size * LEADING + body_lines)?;
        if !self.at_top() {
            self.y += before;
        }
        self.sections.push(Section {
            level,
            title: spans.iter().map(|s| s.text.as_str()).collect::<String>().trim().to_string(),
            page: self.pages.len(),
        });
        for line in &lines {
            // A heading taller than a page goes on over the next one.
            self.room(size * LEADING)?;
            self.draw_line(line, self.g.margin, size, true);
        }
        if level == 1 {
            let (x0, x1, y) = (self.g.margin, self.g.page.0 - self.g.margin, self.y + 0.5);
            self.page.push_str(&format!(
                r#"<path d="M{x0:.2} {y:.2}H{x1:.2}" stroke="{INK}" stroke-width="0.4"/>"#
            ));
            self.y += 1.5;
        }
        self.y += size * 0.3;
        Ok(())
    }

    fn para(
        &mut self,
        spans: &[Span],
        indent: u8,
        marker: Option<&str>,
        quote: bool,
    ) -> Result<(), String> {
        let size = self.body();
        // A list 40 levels deep ran off the right edge: steps in stop at half the page.
        let inset = (indent.min(MAX_INDENT_STEPS) as f32 * INDENT_MM).min(self.width() / 2.0);
        let x = self.g.margin + inset;
        let lines = self.lines(spans, self.width() - inset, size, false);
        let step = size * LEADING;
        // A paragraph does not leave one line alone at a page's foot.
        self.room(step * lines.len().min(2) as f32)?;
        for (i, line) in lines.iter().enumerate() {
            self.room(step)?;
            if i == 0 {
                if let Some(marker) = marker {
                    let baseline = self.y + size * 0.8 + (step - size) / 2.0;
                    self.page.push_str(&format!(
                        r#"<text x="{:.2}" y="{baseline:.2}" font-size="{size:.3}" font-family="{}" text-anchor="end" fill="{INK}">{}</text>"#,
                        x - 1.5,
                        escape_xml(&self.faces.body),
                        escape_xml(marker)
                    ));
                }
            }
            if quote {
                self.page.push_str(&format!(
                    r##"<rect x="{:.2}" y="{:.2}" width="0.8" height="{step:.2}" fill="#9a968c"/>"##,
                    x - 3.5,
                    self.y
                ));
            }
            self.draw_line(line, x, size, false);
        }
        self.y += step * 0.4;
        Ok(())
    }

    /// Entries of the contents: each title, a dotted leader and its page.
    fn contents(&mut self, entries: &[Section]) -> Result<(), String> {
        let size = self.body();
        let step = size * LEADING * 1.1;
        for e in entries {
            self.room(step)?;
            let x = self.g.margin + (e.level.saturating_sub(1)) as f32 * INDENT_MM;
            let right = self.g.page.0 - self.g.margin;
            let baseline = self.y + size * 0.8 + (step - size) / 2.0;
            let family = escape_xml(&self.faces.body);
            let weight = if e.level <= 1 { r#" font-weight="bold""# } else { "" };
            self.page.push_str(&format!(
                r#"<text x="{x:.2}" y="{baseline:.2}" font-size="{size:.3}" font-family="{family}" fill="{INK}"{weight}>{}</text><text x="{right:.2}" y="{baseline:.2}" font-size="{size:.3}" font-family="{family}" text-anchor="end" fill="{INK}">{}</text>"#,
                escape_xml(&e.title),
                e.page + 1
            ));
            let title_end = x
                + self.faces.metrics.width(&self.faces.body, e.level <= 1, false, &e.title) * size
                + 2.0;
            let leader_end = right - size * 2.2;
            if leader_end > title_end {
                self.page.push_str(&format!(
                    r##"<path d="M{title_end:.2} {baseline:.2}H{leader_end:.2}" stroke="#9a968c" stroke-width="0.3" stroke-dasharray="0.3 1.2"/>"##
                ));
            }
            self.y += step;
        }
        self.y += size;
        Ok(())
    }

    fn image(
        &mut self,
        href: &str,
        (pw, ph): (f32, f32),
        filled: Option<&super::markdown::Inline>,
    ) -> Result<(), String> {
        // 150 dpi at most, never wider than the text nor taller than half the page.
        let mut w = (pw / 150.0 * 25.4).min(self.width());
        let mut h = w * ph / pw.max(1.0);
        let most = (self.g.page.1 - 2.0 * self.g.margin) * 0.5;
        if h > most {
            w *= most / h;
            h = most;
        }
        self.room(h + self.body())?;
        let x = (self.g.page.0 - w) / 2.0;
        match filled {
            // Drawn in place: the filled picture exists nowhere to be read.
            Some(inline) => self.page.push_str(&format!(
                r#"<svg {} x="{x:.2}" y="{:.2}" width="{w:.2}" height="{h:.2}" viewBox="{}" preserveAspectRatio="xMidYMid meet">{}</svg>"#,
                inline.attributes,
                self.y,
                escape_xml(&inline.view_box),
                inline.body
            )),
            None => self.page.push_str(&format!(
                r#"<image href="{}" x="{x:.2}" y="{:.2}" width="{w:.2}" height="{h:.2}" preserveAspectRatio="xMidYMid meet"/>"#,
                escape_xml(href),
                self.y
            )),
        }
        self.y += h + self.body();
        Ok(())
    }

    fn table(&mut self, head: &[Vec<Span>], rows: &[Vec<Vec<Span>>]) -> Result<(), String> {
        let size = self.body() * TABLE_EM;
        let pad = 1.5;
        let bold = |cells: &[Vec<Span>]| -> Vec<Vec<Span>> {
            cells
                .iter()
                .map(|c| c.iter().map(|s| Span { bold: true, ..s.clone() }).collect())
                .collect()
        };
        let head = &bold(head)[..];
        let columns = rows.iter().map(Vec::len).chain([head.len()]).max().unwrap_or(0);
        if columns == 0 {
            return Ok(());
        }
        // Each column as wide as its widest cell on one line, shared out when too wide.
        let all = || std::iter::once(head).chain(rows.iter().map(|r| &r[..]));
        let mut natural = vec![0.0f32; columns];
        let mut least = vec![0.0f32; columns];
        for (r, row) in all().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let words = self.words(cell, size, r == 0);
                let total: f32 =
                    words.iter().map(|w| w.iter().map(|p| p.1).sum::<f32>()).sum::<f32>()
                        + self.space(size) * words.len().saturating_sub(1) as f32;
                // A hair more than the words: the line breaker, summing them again in
                // another order, must not find them wider than their column ("Cards
                // each" broke in two in a table a third of the page wide).
                natural[c] = natural[c].max(total + 2.0 * pad + 0.01);
                let widest =
                    words.iter().map(|w| w.iter().map(|p| p.1).sum::<f32>()).fold(0.0, f32::max);
                least[c] = least[c].max(widest + 2.0 * pad);
            }
        }
        let room = self.width();
        let sum: f32 = natural.iter().sum();
        let least_sum: f32 = least.iter().sum();
        // Each column keeps its longest word whole where the page allows ("Pages" was
        // broken "Pag-es" under a wide column); the room left is shared by how much more
        // each column wants on one line.
        let mut widths: Vec<f32> = if sum <= room {
            natural
        } else if least_sum <= room {
            let share = (room - least_sum) / (sum - least_sum);
            natural.iter().zip(&least).map(|(n, l)| l + (n - l) * share).collect()
        } else {
            least
        };
        // Still wider than the page (a long word in each of 12 columns): every column
        // narrowed to fit, its words broken between letters, down to a letter's width; a
        // 12-column table lost its last columns off the page.
        let total: f32 = widths.iter().sum();
        if total > room {
            let narrowest = 2.0 * pad + size;
            if narrowest * columns as f32 > room {
                return Err(format!(
                    "the table headed `{}` has {columns} columns, more than the {} that fit across the page: split it into narrower tables",
                    cell_text(head),
                    (room / narrowest) as usize
                ));
            }
            let spare = room - narrowest * columns as f32;
            let over: f32 = widths.iter().map(|w| w - narrowest).sum();
            widths = widths.iter().map(|w| narrowest + (w - narrowest) * spare / over).collect();
        }
        let step = size * LEADING;
        let draw_row = |s: &mut Setter, row: &[Vec<Span>], bold: bool, shade: bool| {
            let cells: Vec<Vec<Vec<(Span, f32)>>> = (0..columns)
                .map(|c| match row.get(c) {
                    Some(cell) => s.lines(cell, widths[c] - 2.0 * pad, size, bold),
                    None => Vec::new(),
                })
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32 * step + pad;
            (cells, height, shade)
        };
        let mut head_row = Some(draw_row(self, head, true, false));
        let mut body: Vec<_> =
            rows.iter().enumerate().map(|(i, r)| draw_row(self, r, false, i % 2 == 1)).collect();
        let head_height = head_row.as_ref().map_or(0.0, |h| h.1);
        // A row taller than a page under its head would run off the page's foot.
        let page = self.bottom() - self.g.margin - head_height;
        if let Some((i, _)) = body.iter().enumerate().find(|(_, row)| row.1 > page) {
            return Err(format!(
                "a row of the table headed `{}` (its row {}, `{}`) is taller than a page: shorten its cells, or write them as paragraphs",
                cell_text(head),
                i + 1,
                cell_text(&rows[i])
            ));
        }
        self.room(head_height + body.first().map_or(0.0, |b| b.1))?;
        let place = |s: &mut Setter,
                     (cells, height, shade): (Vec<Vec<Line>>, f32, bool),
                     rule: bool| {
            let x0 = s.g.margin;
            let total: f32 = widths.iter().sum();
            if shade {
                s.page.push_str(&format!(r#"<rect x="{x0:.2}" y="{:.2}" width="{total:.2}" height="{height:.2}" fill="{TINT}"/>"#, s.y));
            }
            let top = s.y;
            let mut x = x0;
            for (c, lines) in cells.iter().enumerate() {
                s.y = top + pad / 2.0;
                for line in lines {
                    s.draw_line(line, x + pad, size, false);
                }
                x += widths[c];
            }
            s.y = top + height;
            if rule {
                s.page.push_str(&format!(
                    r#"<path d="M{x0:.2} {:.2}h{total:.2}" stroke="{INK}" stroke-width="0.35"/>"#,
                    s.y
                ));
            }
        };
        if let Some(h) = head_row.take().filter(|h| !h.0.iter().all(Vec::is_empty)) {
            place(self, h, true);
        }
        for row in body.drain(..) {
            if self.y + row.1 > self.bottom() {
                self.finish_page()?;
                if !head.is_empty() {
                    let again = draw_row(self, head, true, false);
                    place(self, again, true);
                }
            }
            place(self, row, false);
        }
        self.y += self.body();
        Ok(())
    }

    fn space(&self, size: f32) -> f32 {
        self.faces.metrics.width(&self.faces.body, false, false, " ") * size
    }

    fn family(&self, heading: bool) -> &str {
        if heading {
            &self.faces.heading
        } else {
            &self.faces.body
        }
    }

    /// Spans → words with each piece's width (a forced break is a word of its own).
    fn words(&self, spans: &[Span], size: f32, heading: bool) -> Vec<Word> {
        let family = self.family(heading).to_string();
        let mut words: Vec<Word> = Vec::new();
        let mut current: Word = Vec::new();
        for span in spans {
            if let Some((_, aspect)) = &span.icon {
                current.push((span.clone(), aspect * ICON_EM * size));
                continue;
            }
            for (k, part) in span.text.split('\n').enumerate() {
                if k > 0 {
                    if !current.is_empty() {
                        words.push(std::mem::take(&mut current));
                    }
                    words.push(vec![(Span { text: "\n".into(), ..span.clone() }, 0.0)]);
                }
                for (i, piece) in part.split(' ').enumerate() {
                    if i > 0 && !current.is_empty() {
                        words.push(std::mem::take(&mut current));
                    }
                    if !piece.is_empty() {
                        let w =
                            self.faces.metrics.width(&family, span.bold, span.italic, piece) * size;
                        current.push((Span { text: piece.to_string(), ..span.clone() }, w));
                    }
                }
            }
        }
        if !current.is_empty() {
            words.push(current);
        }
        words
    }

    /// `word` as pieces no wider than `width`, broken between letters where it is wider
    /// (a word of 3,000 letters printed its first 56, off the page; a font of huge
    /// advances ran a heading off it). Widths are sums of advances, so each letter is
    /// measured once: linear in the word.
    fn broken(&self, word: Word, width: f32, size: f32, heading: bool) -> Vec<Word> {
        let total: f32 = word.iter().map(|p| p.1).sum();
        if total <= width || width <= 0.0 {
            return vec![word];
        }
        let family = self.family(heading).to_string();
        let (mut out, mut current, mut used) = (Vec::new(), Word::new(), 0.0f32);
        for (span, w) in word {
            if span.icon.is_some() {
                if used + w > width && !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                    used = 0.0;
                }
                current.push((span, w));
                used += w;
                continue;
            }
            let (mut piece, mut piece_w) = (String::new(), 0.0f32);
            for c in span.text.chars() {
                let cw = self.faces.metrics.width(
                    &family,
                    span.bold,
                    span.italic,
                    c.encode_utf8(&mut [0; 4]),
                ) * size;
                if used + piece_w + cw > width && used + piece_w > 0.0 {
                    if !piece.is_empty() {
                        current.push((
                            Span { text: std::mem::take(&mut piece), ..span.clone() },
                            piece_w,
                        ));
                    }
                    out.push(std::mem::take(&mut current));
                    (used, piece_w) = (0.0, 0.0);
                }
                piece.push(c);
                piece_w += cw;
            }
            if !piece.is_empty() {
                current.push((Span { text: piece, ..span }, piece_w));
                used += piece_w;
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
        out
    }

    /// Words → lines no wider than `width` (wrapped as card text is), each piece with its
    /// x from the line's start; a hard break (`\n`) ends a line.
    fn lines(&self, spans: &[Span], width: f32, size: f32, heading: bool) -> Vec<Line> {
        let space = self.space(size);
        let words: Vec<Word> = self
            .words(spans, size, heading)
            .into_iter()
            .flat_map(|word| self.broken(word, width, size, heading))
            .collect();
        let mut lines = Vec::new();
        for part in words.split(|w| w.len() == 1 && w[0].0.text == "\n") {
            let widths: Vec<f32> = part.iter().map(|w| w.iter().map(|p| p.1).sum()).collect();
            for range in crate::render::textbox::wrap(&widths, space, width) {
                let mut line = Vec::new();
                let mut x = 0.0;
                for word in &part[range] {
                    for (span, w) in word {
                        line.push((span.clone(), x));
                        x += w;
                    }
                    x += space;
                }
                lines.push(line);
            }
        }
        lines
    }

    /// One line at `x`, its top at the cursor, which moves down a line.
    fn draw_line(&mut self, line: &[(Span, f32)], x: f32, size: f32, heading: bool) {
        let step = size * LEADING;
        let baseline = self.y + size * 0.8 + (step - size) / 2.0;
        let family = escape_xml(self.family(heading));
        let mut text =
            format!(r#"<text font-size="{size:.3}" font-family="{family}" fill="{INK}">"#);
        for (span, at) in line {
            let px = x + at;
            if let Some((href, aspect)) = &span.icon {
                let h = size * ICON_EM;
                self.page.push_str(&format!(
                    r#"<image href="{}" x="{px:.2}" y="{:.2}" width="{:.2}" height="{h:.2}" preserveAspectRatio="xMidYMid meet"/>"#,
                    escape_xml(href),
                    baseline - h,
                    h * aspect
                ));
                continue;
            }
            if span.code {
                let w =
                    self.faces.metrics.width(&self.faces.body, span.bold, span.italic, &span.text)
                        * size;
                self.page.push_str(&format!(
                    r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{TINT}"/>"#,
                    px - 0.4,
                    baseline - size * 0.8,
                    w + 0.8,
                    size * 1.05
                ));
            }
            let mut attrs = String::new();
            if span.bold {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if span.italic {
                attrs.push_str(r#" font-style="italic""#);
            }
            text.push_str(&format!(
                r#"<tspan x="{px:.2}" y="{baseline:.2}"{attrs}>{}</tspan>"#,
                escape_xml(&span.text)
            ));
        }
        text.push_str("</text>");
        self.page.push_str(&text);
        self.y += step;
    }
}
