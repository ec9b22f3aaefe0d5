//! A PDF read back for preflight: each page's boxes and what its content streams draw,
//! with the graphics state applied (the CTM, the text matrix, clips, nested forms), as
//! marks a check can measure: text with its box and printed size, strokes with their
//! printed width, images with their placed resolution, art that crosses the cut, colour
//! spaces and transparency. Input: the bytes of one PDF; output: a `Document`.
//! The parser is hayro-syntax; nothing here searches bytes.

use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use hayro_syntax::content::ops::TypedInstruction as Op;
use hayro_syntax::content::TypedIter;
use hayro_syntax::object::{Array, Dict, Name, Object, Stream};
use hayro_syntax::page::Resources;
use hayro_syntax::Pdf;

pub mod bounds;
mod fonts;
use fonts::{Font, FontCache};

/// Forms drawn inside forms deeper than this are not followed (a form that draws itself
/// would loop for ever); deckpress nests a handful.
const MAX_FORM_DEPTH: usize = 24;
/// Operators read on one page, forms included, before the page is said to be too complex
/// to check: a bound for files that did not come from deckpress (`preflight --file`).
const MAX_OPERATIONS_PER_PAGE: usize = 5_000_000;

/// A rectangle on the page, in points, `x0 <= x1` and `y0 <= y1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
}

impl Area {
    const EVERYWHERE: Area = Area { x0: -1e9, y0: -1e9, x1: 1e9, y1: 1e9 };

    fn around(points: impl IntoIterator<Item = (f32, f32)>) -> Option<Area> {
        points.into_iter().fold(None, |area: Option<Area>, (x, y)| {
            Some(match area {
                None => Area { x0: x, y0: y, x1: x, y1: y },
                Some(a) => {
                    Area { x0: a.x0.min(x), y0: a.y0.min(y), x1: a.x1.max(x), y1: a.y1.max(y) }
                }
            })
        })
    }

    pub fn meet(self, other: Area) -> Option<Area> {
        let a = Area {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        };
        (a.x0 <= a.x1 && a.y0 <= a.y1).then_some(a)
    }

    /// Points this area reaches outside `inner` on its worst side (negative: how far
    /// inside it stays).
    pub fn beyond(&self, inner: &Area) -> f32 {
        [inner.x0 - self.x0, inner.y0 - self.y0, self.x1 - inner.x1, self.y1 - inner.y1]
            .into_iter()
            .fold(f32::MIN, f32::max)
    }

    /// This area shrunk by `by` points on every side.
    pub fn inset(&self, by: f32) -> Area {
        Area { x0: self.x0 + by, y0: self.y0 + by, x1: self.x1 - by, y1: self.y1 - by }
    }
}

/// One thing a page draws, as a check measures it.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// A run of text shown by one operator: its glyphs' ink (from the embedded font's
    /// outlines, else the advances by the ascent and descent) and its printed size.
    Text { area: Area, size_pt: f32, text: String },
    /// A stroked path and the printed width of its thinnest line.
    Stroke { area: Area, width_pt: f32 },
    /// A filled path, shading or image that reaches past the TrimBox: art meant to bleed.
    Bleeding { area: Area },
    /// An image as placed: its pixels, the size they print at (points, clipped or not) and
    /// the resolution that makes.
    Image { area: Area, pixels: (u32, u32), placed: (f32, f32), dpi: f32 },
}

/// A PDF's pages and fonts.
#[derive(Debug, Default)]
pub struct Document {
    pub pages: Vec<Page>,
    /// Every font the pages draw with, once each.
    pub fonts: Vec<FontUse>,
    /// The OutputIntent's subtype (`GTS_PDFX`) and condition, when there is one.
    pub output_intent: Option<String>,
}

#[derive(Debug, Default)]
pub struct Page {
    pub media: Option<Area>,
    pub trim: Option<Area>,
    pub bleed: Option<Area>,
    pub marks: Vec<Mark>,
    /// RGB colour spaces the page paints with: "fill", "stroke", "image", "shading".
    pub rgb: BTreeSet<&'static str>,
    /// Live transparency the page holds: "/ca 0.18", "a soft mask", "blend mode Multiply".
    pub transparency: BTreeSet<String>,
    /// A fingerprint of what the page draws: two pages with the same one look the same.
    pub look: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FontUse {
    pub name: String,
    pub embedded: bool,
}

/// Reads a PDF. An error says why it cannot be read (not a PDF, encrypted, too complex).
pub fn read(bytes: &[u8]) -> Result<Document, String> {
    let pdf =
        Pdf::new(bytes.to_vec()).map_err(|e| format!("not a PDF that can be read ({e:?})"))?;
    let mut doc = Document { output_intent: output_intent(&pdf), ..Document::default() };
    let mut fonts = FontCache::default();
    for page in pdf.pages().iter() {
        let raw = page.raw();
        let boxed = |key: &str| raw.get::<hayro_syntax::object::Rect>(key).map(area_of);
        let mut reader = Reader {
            page: Page {
                media: Some(area_of(page.media_box())),
                trim: boxed("TrimBox"),
                bleed: boxed("BleedBox"),
                ..Page::default()
            },
            fonts: &mut fonts,
            operations: 0,
            look: std::collections::hash_map::DefaultHasher::new(),
        };
        let content = page.page_stream().unwrap_or_default();
        content.hash(&mut reader.look);
        reader.walk(content, page.resources(), State::default(), 0)?;
        reader.page.look = reader.look.finish();
        doc.pages.push(reader.page);
    }
    doc.fonts = fonts.used;
    Ok(doc)
}

fn area_of(r: hayro_syntax::object::Rect) -> Area {
    let (x0, x1) = (r.x0.min(r.x1) as f32, r.x0.max(r.x1) as f32);
    let (y0, y1) = (r.y0.min(r.y1) as f32, r.y0.max(r.y1) as f32);
    Area { x0, y0, x1, y1 }
}

fn output_intent(pdf: &Pdf) -> Option<String> {
    let catalog = pdf.xref().get::<Dict<'_>>(pdf.xref().root_id())?;
    let intents = catalog.get::<Array<'_>>("OutputIntents")?;
    let intent = intents.iter::<Dict<'_>>().next()?;
    let kind = intent.get::<Name<'_>>("S").map(|n| n.as_str().to_string()).unwrap_or_default();
    let condition = intent
        .get::<hayro_syntax::object::String<'_>>("OutputConditionIdentifier")
        .map(|s| String::from_utf8_lossy(s.as_bytes()).into_owned())
        .unwrap_or_default();
    Some(format!("{kind} {condition}").trim().to_string())
}

/// An affine matrix `[a b c d e f]`, as PDF writes it: a point `(x, y)` goes to
/// `(a x + c y + e, b x + d y + f)`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix([f32; 6]);

impl Matrix {
    const IDENTITY: Matrix = Matrix([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    fn of(n: [f32; 6]) -> Matrix {
        Matrix(n)
    }

    /// This matrix, then `outer`: what `cm` does to the CTM.
    fn then(self, outer: Matrix) -> Matrix {
        let [a, b, c, d, e, f] = self.0;
        let [oa, ob, oc, od, oe, of] = outer.0;
        Matrix([
            a * oa + b * oc,
            a * ob + b * od,
            c * oa + d * oc,
            c * ob + d * od,
            e * oa + f * oc + oe,
            e * ob + f * od + of,
        ])
    }

    fn apply(self, x: f32, y: f32) -> (f32, f32) {
        let [a, b, c, d, e, f] = self.0;
        (a * x + c * y + e, b * x + d * y + f)
    }

    fn translate(x: f32, y: f32) -> Matrix {
        Matrix([1.0, 0.0, 0.0, 1.0, x, y])
    }

    /// The length a unit along x becomes, and a unit along y.
    fn scales(self) -> (f32, f32) {
        let [a, b, c, d, _, _] = self.0;
        (a.hypot(b), c.hypot(d))
    }

    /// The least a length becomes in any direction: how thin a line of width 1 prints
    /// (the smaller singular value).
    fn least_scale(self) -> f32 {
        let [a, b, c, d, _, _] = self.0;
        let sum = a * a + b * b + c * c + d * d;
        let det = a * d - b * c;
        let root = (sum * sum - 4.0 * det * det).max(0.0).sqrt();
        ((sum - root) / 2.0).max(0.0).sqrt()
    }

    fn area_of(self, x0: f32, y0: f32, x1: f32, y1: f32) -> Option<Area> {
        Area::around([
            self.apply(x0, y0),
            self.apply(x1, y0),
            self.apply(x0, y1),
            self.apply(x1, y1),
        ])
    }
}

/// The graphics state a check needs: what `q` saves and `Q` restores.
#[derive(Clone)]
struct State {
    ctm: Matrix,
    /// The default space of the content stream being read (the page's, a form's as it is
    /// painted, a pattern cell's): what a tiling pattern's matrix maps into, not the CTM.
    base: Matrix,
    clip: Area,
    line_width: f32,
    fill_pattern: bool,
    stroke_pattern: bool,
    /// The tiling or shading pattern fills and strokes paint with (`scn /P0`), by name.
    fill_with: Option<Vec<u8>>,
    stroke_with: Option<Vec<u8>>,
    /// Inside a tiling pattern's cell: the area the pattern paints. A cell's content is
    /// where its tiles are, all over that area, not where the one cell lies (a 9 pt text
    /// tiled in a panel 11 mm in from the cut was said 2.2 mm from it).
    tiled: Option<Area>,
    font: Option<Rc<Font>>,
    font_size: f32,
    char_spacing: f32,
    word_spacing: f32,
    horizontal_scale: f32,
    leading: f32,
    rise: f32,
    render_mode: i64,
}

impl State {
    /// Where something drawn over `area` prints: within the clip, or in a pattern's cell,
    /// all over the area the pattern paints.
    fn placed(&self, area: Area) -> Option<Area> {
        match self.tiled {
            Some(painted) => Some(painted),
            None => area.meet(self.clip),
        }
    }
}

impl Default for State {
    fn default() -> State {
        State {
            ctm: Matrix::IDENTITY,
            base: Matrix::IDENTITY,
            clip: Area::EVERYWHERE,
            line_width: 1.0,
            fill_pattern: false,
            stroke_pattern: false,
            fill_with: None,
            stroke_with: None,
            tiled: None,
            font: None,
            font_size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            horizontal_scale: 1.0,
            leading: 0.0,
            rise: 0.0,
            render_mode: 0,
        }
    }
}

struct Reader<'f> {
    page: Page,
    fonts: &'f mut FontCache,
    operations: usize,
    look: std::collections::hash_map::DefaultHasher,
}

/// The text matrix and the start of its line, as `BT` sets them and text operators move them.
struct TextAt {
    tm: Matrix,
    line: Matrix,
}

/// A path-building operator adds its points, in page space, to the path; false for any
/// other operator.
fn trace(op: &Op<'_, '_>, ctm: Matrix, path: &mut Path) -> bool {
    match op {
        Op::MoveTo(p) => path.points.push(ctm.apply(p.0.as_f32(), p.1.as_f32())),
        Op::LineTo(p) => path.points.push(ctm.apply(p.0.as_f32(), p.1.as_f32())),
        Op::CubicTo(c) => {
            for (x, y) in [(c.0, c.1), (c.2, c.3), (c.4, c.5)] {
                path.points.push(ctm.apply(x.as_f32(), y.as_f32()));
            }
        }
        Op::CubicStartTo(c) => {
            for (x, y) in [(c.0, c.1), (c.2, c.3)] {
                path.points.push(ctm.apply(x.as_f32(), y.as_f32()));
            }
        }
        Op::CubicEndTo(c) => {
            for (x, y) in [(c.0, c.1), (c.2, c.3)] {
                path.points.push(ctm.apply(x.as_f32(), y.as_f32()));
            }
        }
        Op::RectPath(r) => {
            let (x, y, w, h) = (r.0.as_f32(), r.1.as_f32(), r.2.as_f32(), r.3.as_f32());
            for (px, py) in [(x, y), (x + w, y), (x, y + h), (x + w, y + h)] {
                path.points.push(ctm.apply(px, py));
            }
        }
        _ => return false,
    }
    true
}

/// The path being built, in page space, and whether it becomes a clip.
#[derive(Default)]
struct Path {
    points: Vec<(f32, f32)>,
    clip: bool,
}

impl Reader<'_> {
    fn walk(
        &mut self,
        content: &[u8],
        resources: &Resources<'_>,
        start: State,
        depth: usize,
    ) -> Result<(), String> {
        let mut stack: Vec<State> = Vec::new();
        let mut gs = start;
        let mut path = Path::default();
        let mut at = TextAt { tm: Matrix::IDENTITY, line: Matrix::IDENTITY };
        let mut ops = TypedIter::new(content);
        while let Some(op) = ops.next() {
            self.operations += 1;
            if self.operations > MAX_OPERATIONS_PER_PAGE {
                return Err(format!("a page draws more than {MAX_OPERATIONS_PER_PAGE} operations: too complex to check"));
            }
            match op {
                Op::SaveState(_) => stack.push(gs.clone()),
                Op::RestoreState(_) => gs = stack.pop().unwrap_or_else(|| gs.clone()),
                Op::Transform(t) => {
                    let m = Matrix::of([t.0, t.1, t.2, t.3, t.4, t.5].map(|n| n.as_f32()));
                    gs.ctm = m.then(gs.ctm);
                }
                Op::LineWidth(w) => gs.line_width = w.0.as_f32(),
                Op::SetGraphicsState(name) => {
                    if let Some(ext) = resources.get_ext_g_state(name.0) {
                        self.ext_g_state(&ext, &mut gs);
                    }
                }
                Op::ClipNonZero(_) | Op::ClipEvenOdd(_) => path.clip = true,
                Op::StrokePath(_) | Op::CloseAndStrokePath(_) => {
                    let painted = self.paint(&mut path, &mut gs, false, true);
                    self.with_patterns(resources, &gs, painted, depth)?;
                }
                Op::FillPathNonZero(_)
                | Op::FillPathNonZeroCompatibility(_)
                | Op::FillPathEvenOdd(_) => {
                    let painted = self.paint(&mut path, &mut gs, true, false);
                    self.with_patterns(resources, &gs, painted, depth)?;
                }
                Op::FillAndStrokeNonZero(_)
                | Op::FillAndStrokeEvenOdd(_)
                | Op::CloseFillAndStrokeNonZero(_)
                | Op::CloseFillAndStrokeEvenOdd(_) => {
                    let painted = self.paint(&mut path, &mut gs, true, true);
                    self.with_patterns(resources, &gs, painted, depth)?;
                }
                Op::EndPath(_) => {
                    self.paint(&mut path, &mut gs, false, false);
                }
                Op::ColorSpaceStroke(name) => {
                    gs.stroke_pattern = name.0.as_str() == "Pattern";
                    gs.stroke_with = None;
                    if is_rgb_space(&space_named(resources, name.0)) {
                        self.page.rgb.insert("stroke");
                    }
                }
                Op::ColorSpaceNonStroke(name) => {
                    gs.fill_pattern = name.0.as_str() == "Pattern";
                    gs.fill_with = None;
                    if is_rgb_space(&space_named(resources, name.0)) {
                        self.page.rgb.insert("fill");
                    }
                }
                Op::StrokeColorDeviceRgb(_) => {
                    self.page.rgb.insert("stroke");
                }
                Op::NonStrokeColorDeviceRgb(_) => {
                    self.page.rgb.insert("fill");
                }
                // A pattern is read where it paints: at the fill or stroke that uses it.
                Op::NonStrokeColorNamed(c) if gs.fill_pattern => {
                    gs.fill_with = c.1.map(|name| name.to_vec());
                }
                Op::StrokeColorNamed(c) if gs.stroke_pattern => {
                    gs.stroke_with = c.1.map(|name| name.to_vec());
                }
                Op::Shading(name) => {
                    if let Some(shading) = resources.get_shading(name.0) {
                        self.shading(&shading);
                        // `sh` paints the whole clip.
                        if gs.clip != Area::EVERYWHERE {
                            self.bleeding(gs.clip);
                        }
                    }
                }
                Op::XObject(name) => {
                    if let Some(x) = resources.get_x_object(name.0) {
                        if depth == 0 {
                            x.obj_id().hash(&mut self.look);
                        }
                        self.x_object(&x, resources, &gs, depth)?;
                    }
                }
                Op::InlineImage(image) => self.image(image.0.dict(), resources, &gs, true),
                other => {
                    if !trace(&other, gs.ctm, &mut path) {
                        let marks = self.page.marks.len();
                        self.text(&other, &mut gs, &mut at, resources);
                        // Text filled with a pattern paints it over its own letters.
                        if let Some(Mark::Text { area, .. }) = self.page.marks.get(marks) {
                            let painted = (Some(*area), None);
                            self.with_patterns(resources, &gs, painted, depth)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A text operator: the text state changes, or text is shown; false for any other.
    fn text(
        &mut self,
        op: &Op<'_, '_>,
        gs: &mut State,
        at: &mut TextAt,
        resources: &Resources<'_>,
    ) -> bool {
        match op {
            Op::CharacterSpacing(n) => gs.char_spacing = n.0.as_f32(),
            Op::WordSpacing(n) => gs.word_spacing = n.0.as_f32(),
            Op::HorizontalScaling(n) => gs.horizontal_scale = n.0.as_f32() / 100.0,
            Op::TextLeading(n) => gs.leading = n.0.as_f32(),
            Op::TextFont(f) => {
                gs.font = resources.get_font(f.0).map(|d| self.fonts.get(&d));
                gs.font_size = f.1.as_f32();
            }
            Op::TextRenderingMode(n) => gs.render_mode = n.0.as_i64(),
            Op::TextRise(n) => gs.rise = n.0.as_f32(),
            Op::BeginText(_) => *at = TextAt { tm: Matrix::IDENTITY, line: Matrix::IDENTITY },
            Op::NextLine(t) => {
                at.line = Matrix::translate(t.0.as_f32(), t.1.as_f32()).then(at.line);
                at.tm = at.line;
            }
            Op::NextLineAndSetLeading(t) => {
                gs.leading = -t.1.as_f32();
                at.line = Matrix::translate(t.0.as_f32(), t.1.as_f32()).then(at.line);
                at.tm = at.line;
            }
            Op::SetTextMatrix(t) => {
                at.line = Matrix::of([t.0, t.1, t.2, t.3, t.4, t.5].map(|n| n.as_f32()));
                at.tm = at.line;
            }
            Op::NextLineUsingLeading(_) => {
                at.line = Matrix::translate(0.0, -gs.leading).then(at.line);
                at.tm = at.line;
            }
            Op::ShowText(s) => self.show(s.0.as_bytes(), &mut at.tm, gs),
            Op::NextLineAndShowText(s) => {
                at.line = Matrix::translate(0.0, -gs.leading).then(at.line);
                at.tm = at.line;
                self.show(s.0.as_bytes(), &mut at.tm, gs);
            }
            Op::ShowTextWithParameters(p) => {
                gs.word_spacing = p.0.as_f32();
                gs.char_spacing = p.1.as_f32();
                at.line = Matrix::translate(0.0, -gs.leading).then(at.line);
                at.tm = at.line;
                self.show(p.2.as_bytes(), &mut at.tm, gs);
            }
            Op::ShowTexts(array) => {
                for item in array.0.iter::<Object<'_>>() {
                    match item {
                        Object::String(s) => self.show(s.as_bytes(), &mut at.tm, gs),
                        Object::Number(n) => {
                            let tx = -n.as_f32() / 1000.0 * gs.font_size * gs.horizontal_scale;
                            at.tm = Matrix::translate(tx, 0.0).then(at.tm);
                        }
                        _ => {}
                    }
                }
            }
            _ => return false,
        }
        true
    }

    /// A painting operator ends the path: a stroke is measured, art that crosses the cut
    /// is kept, and a pending clip narrows the clip. The areas the fill and the stroke
    /// paint, for a pattern they paint with.
    fn paint(
        &mut self,
        path: &mut Path,
        gs: &mut State,
        fill: bool,
        stroke: bool,
    ) -> (Option<Area>, Option<Area>) {
        let area = Area::around(path.points.iter().copied());
        let mut painted = (None, None);
        if let Some(area) = area {
            let visible = gs.placed(area);
            if stroke {
                if let Some(area) = visible {
                    self.page.marks.push(Mark::Stroke {
                        area,
                        width_pt: gs.line_width * gs.ctm.least_scale(),
                    });
                }
            }
            if fill || stroke {
                if let Some(area) = visible {
                    self.bleeding(area);
                }
            }
            painted = (visible.filter(|_| fill), visible.filter(|_| stroke));
            if path.clip {
                gs.clip = area.meet(gs.clip).unwrap_or(Area { x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0 });
            }
        }
        *path = Path::default();
        painted
    }

    /// The patterns a fill and a stroke paint with, read over the areas they paint.
    fn with_patterns(
        &mut self,
        resources: &Resources<'_>,
        gs: &State,
        (fill, stroke): (Option<Area>, Option<Area>),
        depth: usize,
    ) -> Result<(), String> {
        let uses = [(fill, gs.fill_with.as_ref()), (stroke, gs.stroke_with.as_ref())];
        for (area, name) in uses {
            if let (Some(area), Some(name)) = (area, name) {
                self.pattern(resources, &Name::new_unescaped(name), gs, area, depth)?;
            }
        }
        Ok(())
    }

    /// Art that reaches past the TrimBox, kept for the bleed check.
    fn bleeding(&mut self, area: Area) {
        if let Some(trim) = self.page.trim {
            if area.beyond(&trim) > 0.01 {
                self.page.marks.push(Mark::Bleeding { area });
            }
        }
    }

    fn ext_g_state(&mut self, ext: &Dict<'_>, gs: &mut State) {
        for key in ["ca", "CA"] {
            if let Some(alpha) = ext.get::<f32>(key) {
                if alpha < 1.0 {
                    self.page.transparency.insert(format!("/{key} {alpha}"));
                }
            }
        }
        if let Some(mask) = ext.get::<Object<'_>>("SMask") {
            if !matches!(&mask, Object::Name(n) if n.as_str() == "None") {
                self.page.transparency.insert("a soft mask (/SMask)".to_string());
            }
        }
        let blend = ext.get::<Name<'_>>("BM").map(|n| n.as_str().to_string()).or_else(|| {
            ext.get::<Array<'_>>("BM")?.iter::<Name<'_>>().next().map(|n| n.as_str().to_string())
        });
        if let Some(mode) = blend.filter(|m| m != "Normal" && m != "Compatible") {
            self.page.transparency.insert(format!("blend mode {mode}"));
        }
        if let Some(w) = ext.get::<f32>("LW") {
            gs.line_width = w;
        }
    }

    fn shading(&mut self, shading: &Object<'_>) {
        let dict = match shading {
            Object::Dict(d) => Some(d.clone()),
            Object::Stream(s) => Some(s.dict().clone()),
            _ => None,
        };
        if let Some(space) = dict.and_then(|d| d.get::<Object<'_>>("ColorSpace")) {
            if is_rgb_space(&Some(space)) {
                self.page.rgb.insert("shading");
            }
        }
    }

    fn pattern(
        &mut self,
        resources: &Resources<'_>,
        name: &Name<'_>,
        gs: &State,
        painted: Area,
        depth: usize,
    ) -> Result<(), String> {
        match resources.get_pattern(name) {
            Some(Object::Dict(d)) => {
                if let Some(s) = d.get::<Object<'_>>("Shading") {
                    self.shading(&s);
                }
            }
            // A tiling pattern: its cell is content of its own.
            Some(Object::Stream(s)) if depth < MAX_FORM_DEPTH => {
                let own = s.dict().get::<Dict<'_>>("Resources").unwrap_or_default();
                let inner = Resources::from_parent(own, resources.clone());
                let content =
                    s.decoded().map_err(|e| format!("a pattern cannot be decoded ({e:?})"))?;
                // The pattern's matrix maps its cell into the default space of the content
                // that paints with it (PDF 32000-1 8.7.3.1), which krilla's already holds
                // the page's transform in: through the CTM too, it was applied twice.
                let ctm = matrix_of(s.dict()).then(gs.base);
                let start = State {
                    ctm,
                    base: ctm,
                    clip: painted,
                    tiled: Some(painted),
                    ..State::default()
                };
                self.walk(&content, &inner, start, depth + 1)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn x_object(
        &mut self,
        x: &Stream<'_>,
        resources: &Resources<'_>,
        gs: &State,
        depth: usize,
    ) -> Result<(), String> {
        let dict = x.dict();
        match dict.get::<Name<'_>>("Subtype").as_ref().map(|n| n.as_str()) {
            Some("Image") => self.image(dict, resources, gs, false),
            Some("Form") if depth < MAX_FORM_DEPTH => {
                let own = dict.get::<Dict<'_>>("Resources").unwrap_or_default();
                let inner = Resources::from_parent(own, resources.clone());
                let content =
                    x.decoded().map_err(|e| format!("a form cannot be decoded ({e:?})"))?;
                let mut start = gs.clone();
                start.ctm = matrix_of(dict).then(gs.ctm);
                start.base = start.ctm;
                if let Some(b) = dict.get::<hayro_syntax::object::Rect>("BBox") {
                    let b = area_of(b);
                    if let Some(bbox) = start.ctm.area_of(b.x0, b.y0, b.x1, b.y1) {
                        start.clip = bbox.meet(start.clip).unwrap_or(bbox);
                    }
                }
                self.walk(&content, &inner, start, depth + 1)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn image(&mut self, dict: &Dict<'_>, resources: &Resources<'_>, gs: &State, inline: bool) {
        let get = |long: &str, short: &str| {
            dict.get::<f32>(long).or_else(|| if inline { dict.get::<f32>(short) } else { None })
        };
        let (w, h) =
            (get("Width", "W").unwrap_or(0.0) as u32, get("Height", "H").unwrap_or(0.0) as u32);
        let space = dict.get::<Object<'_>>("ColorSpace").or_else(|| {
            if inline {
                dict.get::<Object<'_>>("CS")
            } else {
                None
            }
        });
        let space = match space {
            Some(Object::Name(n)) if !is_device(n.as_str()) => resources.get_color_space(&n),
            other => other,
        };
        if is_rgb_space(&space) {
            self.page.rgb.insert("image");
        }
        if dict.contains_key("SMask") || dict.get::<f32>("SMaskInData").is_some_and(|v| v > 0.0) {
            self.page.transparency.insert("an image with a soft mask (/SMask)".to_string());
        }
        let Some(area) = gs.ctm.area_of(0.0, 0.0, 1.0, 1.0) else { return };
        let (sx, sy) = gs.ctm.scales();
        if w > 0 && h > 0 && sx > 0.0 && sy > 0.0 {
            let dpi = (w as f32 / (sx / 72.0)).min(h as f32 / (sy / 72.0));
            if let Some(visible) = gs.placed(area) {
                self.page.marks.push(Mark::Image {
                    area: visible,
                    pixels: (w, h),
                    placed: (sx, sy),
                    dpi,
                });
                self.bleeding(visible);
            }
        }
    }

    /// Shows a string: its box and size are marked, and the text matrix moves past it.
    fn show(&mut self, bytes: &[u8], tm: &mut Matrix, gs: &State) {
        let Some(font) = gs.font.clone() else { return };
        let codes: Vec<u32> = if font.two_byte {
            bytes.chunks(2).map(|c| c.iter().fold(0u32, |a, b| (a << 8) | *b as u32)).collect()
        } else {
            bytes.iter().map(|b| *b as u32).collect()
        };
        let mut advance = 0.0;
        let mut text = String::new();
        let size = gs.font_size * font.em;
        let mut ink: Option<[f32; 4]> = None;
        for &code in &codes {
            let w = font.widths.get(&code).copied().unwrap_or(font.default_width);
            let glyph = w * gs.font_size * gs.horizontal_scale;
            if let Some([x0, y0, x1, y1]) =
                font.ink_at(code, advance, size, gs.horizontal_scale, glyph)
            {
                ink = Some(match ink {
                    None => [x0, y0, x1, y1],
                    Some(i) => [i[0].min(x0), i[1].min(y0), i[2].max(x1), i[3].max(y1)],
                });
            }
            let word = if !font.two_byte && code == 32 { gs.word_spacing } else { 0.0 };
            advance += glyph + (gs.char_spacing + word) * gs.horizontal_scale;
            match font.unicode.get(&code) {
                Some(s) => text.push_str(s),
                None if !font.two_byte => text.push(char::from_u32(code).unwrap_or('?')),
                None => text.push('?'),
            }
        }
        let full = tm.then(gs.ctm);
        // Invisible text (mode 3) prints nothing: an OCR layer, not a reader's text.
        if let (true, Some([x0, y0, x1, y1])) = (gs.render_mode != 3, ink) {
            if let Some(area) = full.area_of(x0, y0 + gs.rise, x1, y1 + gs.rise) {
                let area = gs.tiled.unwrap_or(area);
                let size_pt = size * full.scales().1;
                self.page.marks.push(Mark::Text { area, size_pt, text });
            }
        }
        *tm = Matrix::translate(advance, 0.0).then(*tm);
    }
}

fn matrix_of(dict: &Dict<'_>) -> Matrix {
    dict.get::<Array<'_>>("Matrix")
        .map(|m| m.iter::<f32>().collect::<Vec<_>>())
        .and_then(|v| <[f32; 6]>::try_from(v).ok())
        .map_or(Matrix::IDENTITY, Matrix::of)
}

fn is_device(name: &str) -> bool {
    matches!(name, "DeviceRGB" | "DeviceCMYK" | "DeviceGray" | "RGB" | "CMYK" | "G" | "Pattern")
}

/// A colour space named in a content stream: a device space, or one of the resources.
fn space_named<'a>(resources: &Resources<'a>, name: &Name<'_>) -> Option<Object<'a>> {
    if is_device(name.as_str()) {
        // Read back as a name object: the same thing the resource would be.
        return Some(Object::Name(Name::new_unescaped(match name.as_str() {
            "DeviceRGB" | "RGB" => b"DeviceRGB",
            _ => b"DeviceCMYK",
        })));
    }
    resources.get_color_space(name)
}

/// DeviceRGB, CalRGB, ICCBased with three components, or an indexed or separation space
/// built on one of them.
fn is_rgb_space(space: &Option<Object<'_>>) -> bool {
    fn rgb(space: &Object<'_>, depth: usize) -> bool {
        if depth > 4 {
            return false;
        }
        match space {
            Object::Name(n) => matches!(n.as_str(), "DeviceRGB" | "CalRGB" | "RGB"),
            Object::Array(a) => {
                let items: Vec<Object<'_>> = a.iter::<Object<'_>>().collect();
                let family = match items.first() {
                    Some(Object::Name(n)) => n.as_str().to_string(),
                    _ => return false,
                };
                match family.as_str() {
                    "CalRGB" => true,
                    "ICCBased" => match items.get(1) {
                        Some(Object::Stream(s)) => s.dict().get::<f32>("N") == Some(3.0),
                        _ => false,
                    },
                    "Indexed" | "I" => items.get(1).is_some_and(|b| rgb(b, depth + 1)),
                    "Separation" => items.get(2).is_some_and(|b| rgb(b, depth + 1)),
                    "DeviceN" => items.get(2).is_some_and(|b| rgb(b, depth + 1)),
                    _ => false,
                }
            }
            _ => false,
        }
    }
    space.as_ref().is_some_and(|s| rgb(s, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-page PDF with `content` and `resources`, its xref left for the parser to
    /// rebuild (as it does for a damaged file).
    fn one_page(content: &str, resources: &str) -> Vec<u8> {
        format!(
            "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n\
             2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n\
             3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] /TrimBox [10 10 190 290] \
             /Resources {resources} /Contents 4 0 R >>\nendobj\n\
             4 0 obj\n<< /Length {} >>\nstream\n{content}\nendstream\nendobj\n\
             trailer\n<< /Root 1 0 R >>\n%%EOF\n",
            content.len()
        )
        .into_bytes()
    }

    #[test]
    fn marks_are_measured_through_the_ctm_and_the_text_matrix() {
        let resources = "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
                         /FirstChar 65 /Widths [500 600] >> >> \
                         /ExtGState << /G1 << /ca 0.5 >> >> >>";
        let content = "q 0.5 0 0 0.5 0 0 cm 0.2 w 0 0 m 10 0 l S Q \
                       1 0 0 rg /G1 gs \
                       q 2 0 0 2 0 0 cm BT /F1 3 Tf 1 0 0 1 20 40 Tm (AB) Tj ET Q";
        let doc = read(&one_page(content, resources)).unwrap();
        let page = &doc.pages[0];
        assert_eq!(page.trim, Some(Area { x0: 10.0, y0: 10.0, x1: 190.0, y1: 290.0 }));
        let stroke = page.marks.iter().find_map(|m| match m {
            Mark::Stroke { width_pt, .. } => Some(*width_pt),
            _ => None,
        });
        assert!((stroke.unwrap() - 0.1).abs() < 1e-6, "{:?}", page.marks);
        let Some(Mark::Text { area, size_pt, text }) =
            page.marks.iter().find(|m| matches!(m, Mark::Text { .. }))
        else {
            panic!("no text: {:?}", page.marks)
        };
        // 3 pt text drawn twice as large; "AB" is 0.5 + 0.6 em wide: 6.6 pt from x = 40.
        assert_eq!((text.as_str(), *size_pt), ("AB", 6.0));
        assert!((area.x0 - 40.0).abs() < 1e-4 && (area.x1 - 46.6).abs() < 1e-4, "{area:?}");
        assert!(page.rgb.contains("fill"), "{:?}", page.rgb);
        assert!(page.transparency.contains("/ca 0.5"), "{:?}", page.transparency);
        assert_eq!(doc.fonts, vec![FontUse { name: "Helvetica".to_string(), embedded: false }]);
    }

    #[test]
    fn a_damaged_file_is_an_error_or_read_never_a_panic() {
        let resources = "<< /Font << /F1 << /Type /Font /Subtype /Type0 /BaseFont /X \
                         /DescendantFonts [<< /W [0 [500 600] 4294967295 [1 2] 4294967295 4294967295 9 \
                         65000 65535 1] >>] /ToUnicode 5 0 R >> >> >>";
        let content = "BT /F1 9 Tf (\\000\\001) Tj ET 1e30 0 0 1e30 0 0 cm 0 w 0 0 m 1 1 l S";
        let whole = one_page(content, resources);
        for end in (0..whole.len()).step_by(5) {
            let _ = read(&whole[..end]);
        }
        let doc = read(&whole).unwrap();
        assert_eq!(doc.pages.len(), 1);
    }

    #[test]
    fn a_line_scaled_down_prints_thinner() {
        let m = Matrix::of([0.25, 0.0, 0.0, 0.5, 10.0, 0.0]);
        assert!((m.least_scale() - 0.25).abs() < 1e-6);
        let rotated = Matrix::of([0.0, 2.0, -2.0, 0.0, 0.0, 0.0]);
        assert!((rotated.least_scale() - 2.0).abs() < 1e-5);
        assert_eq!(Matrix::translate(1.0, 2.0).then(m).apply(0.0, 0.0), (10.25, 1.0));
    }
}
