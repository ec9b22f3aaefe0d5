//! Marks the layout puts on a page besides the art: slugs, scale bars, tile labels, glue
//! strips, alignment arrows, calibration rulers. Typed values in millimetres from the
//! page's top-left corner; `export` decides how they are drawn.

/// An sRGB colour.
pub type Rgb = [u8; 3];

pub const BLACK: Rgb = [0, 0, 0];

/// Where a text's `at` is: its start, middle or end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// One mark.
#[derive(Debug, Clone, PartialEq)]
pub enum PageMark {
    Line {
        from: (f32, f32),
        to: (f32, f32),
        width: f32,
        colour: Rgb,
        dash: Option<(f32, f32)>,
    },
    /// A rectangle's outline.
    Frame {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        colour: Rgb,
        width: f32,
    },
    /// A small filled triangle whose tip is `at` (0.2 mm past it), pointing right or down:
    /// where a neighbouring tile's edge goes.
    Arrow {
        at: (f32, f32),
        down: bool,
    },
    Text(Text),
}

/// A line of text in the bundled sans (Noto Sans).
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    pub at: (f32, f32),
    /// Font size in millimetres.
    pub size: f32,
    pub text: String,
    pub anchor: Anchor,
    pub bold: bool,
    /// `None`: black, as marks are.
    pub colour: Option<Rgb>,
    /// Turned by this many degrees about a point.
    pub rotate: Option<(f32, (f32, f32))>,
}

impl Text {
    pub fn new(at: (f32, f32), size: f32, text: impl Into<String>) -> Self {
        Text {
            at,
            size,
            text: text.into(),
            anchor: Anchor::Start,
            bold: false,
            colour: None,
            rotate: None,
        }
    }

    pub fn anchor(mut self, anchor: Anchor) -> Self {
        self.anchor = anchor;
        self
    }

    pub fn bold(mut self) -> Self {
        self.bold = true;
        self
    }

    pub fn colour(mut self, colour: Rgb) -> Self {
        self.colour = Some(colour);
        self
    }

    /// Turned by `degrees` about its own `at`.
    pub fn rotate(self, degrees: f32) -> Self {
        let at = self.at;
        self.rotate_about(degrees, at)
    }

    pub fn rotate_about(mut self, degrees: f32, centre: (f32, f32)) -> Self {
        self.rotate = Some((degrees, centre));
        self
    }
}

impl From<Text> for PageMark {
    fn from(text: Text) -> Self {
        PageMark::Text(text)
    }
}

/// A thin solid line.
pub fn line(from: (f32, f32), to: (f32, f32), width: f32, colour: Rgb) -> PageMark {
    PageMark::Line { from, to, width, colour, dash: None }
}

/// `text` broken at spaces into lines no wider than `width` as `measure` measures them;
/// a word wider than a line is a line of its own.
pub fn wrap(text: &str, width: f32, measure: impl Fn(&str) -> f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if measure(&format!("{line} {word}")) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// `layer` as one shared value: the one among `made` equal to it, or it, added there.
/// Identical layers on the pages of a document are one value, drawn once in the PDF.
pub fn intern(made: &mut Vec<std::sync::Arc<Layer>>, layer: Layer) -> std::sync::Arc<Layer> {
    match made.iter().find(|m| ***m == layer) {
        Some(same) => same.clone(),
        None => {
            let new = std::sync::Arc::new(layer);
            made.push(new.clone());
            new
        }
    }
}

/// Marks drawn together over a page, in order. A layer the pages of a document share (a
/// deck's slug but its sheet number) is one value, drawn once as a reusable object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layer {
    pub marks: Vec<PageMark>,
}

impl Layer {
    pub fn push(&mut self, mark: impl Into<PageMark>) {
        self.marks.push(mark.into());
    }

    /// Every text of the layer, in order (for tests and checks).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.marks.iter().filter_map(|m| match m {
            PageMark::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
    }
}
