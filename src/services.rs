//! Who prints the cards, as data: one row per print service, read by the job (colour,
//! bleed), the planners (which documents, side order, dpi) and the exporters. Every file
//! name deckpress writes comes from a pattern here: the service row's (`files`,
//! `manifest`; home documents take the home row's), `CUT_FILES` and, for `preview`,
//! `PREVIEW`. Adding a service is
//! one row here and one line in docs/printing.md; nothing else branches on a service's
//! name.

use crate::length::Length;
use crate::press::Pdfx;

/// The files a deck becomes for a service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Gang sheets on the home paper, crop marks, duplex backs; boards, pads and cut files too.
    GangSheets,
    /// One PDF per deck, a page per card side (TrimBox on the card, BleedBox on the page).
    PdfPagePerSide,
    /// One PNG per card design and side, and `quantities.csv`.
    PngPerSide,
}

impl Form {
    pub fn name(self) -> &'static str {
        match self {
            Form::GangSheets => "gang sheets",
            Form::PdfPagePerSide => "PDF page per side",
            Form::PngPerSide => "PNG per side",
        }
    }

    /// PDFs can be written in a press's CMYK; PNGs are sRGB.
    pub fn is_pdf(self) -> bool {
        self != Form::PngPerSide
    }
}

/// Which side of a card comes first in a per-side file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideOrder {
    FrontFirst,
    BackFirst,
}

/// A bundled CMYK printing condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Fogra39,
    Swop,
}

impl Profile {
    pub fn condition(self) -> crate::press::Condition {
        match self {
            Profile::Fogra39 => crate::press::Condition::fogra39(),
            Profile::Swop => crate::press::Condition::swop(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Profile::Fogra39 => "FOGRA39",
            Profile::Swop => "SWOP (CGATS TR 003)",
        }
    }
}

/// The colours a service's files are written in unless `--colour` says otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Colour {
    /// sRGB; `--colour cmyk` converts through FOGRA39 (or `--icc`).
    Rgb,
    /// CMYK PDF/X for the service's press.
    Cmyk { profile: Profile, ink_limit: f32, pdfx: Pdfx },
}

/// A card size a service prints, as it takes the file: the trim and the file's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Product {
    pub name: &'static str,
    /// The cut card.
    pub trim: (Length, Length),
}

/// How close two lengths must be for a deck to be a product's size.
const SAME_SIZE_MM: f32 = 0.05;

impl Product {
    /// The product's cut card, turned like the deck (landscape when it is).
    pub fn trim_for(&self, size: (Length, Length)) -> (Length, Length) {
        if size.0 > size.1 {
            (self.trim.1, self.trim.0)
        } else {
            self.trim
        }
    }

    /// "poker (2.5 × 3.5 in, 63.5 × 88.9 mm)".
    pub fn describe(&self) -> String {
        let (w, h) = self.trim;
        format!(
            "{} ({} × {} in, {:.1} × {:.1} mm)",
            self.name,
            w.to_pt() / 72.0,
            h.to_pt() / 72.0,
            w.to_mm(),
            h.to_mm()
        )
    }

    /// The uniform scale that makes a card of `size` cover this product's card.
    pub fn scale_for(&self, size: (Length, Length)) -> f32 {
        let (w, h) = self.trim_for(size);
        (w.to_mm() / size.0.to_mm()).max(h.to_mm() / size.1.to_mm())
    }
}

/// A deck's size to a service.
#[derive(Debug, Clone, PartialEq)]
pub enum ProductMatch {
    /// The service prints any size.
    AnySize,
    /// The deck is this product.
    Is(&'static Product),
    /// It is none: the products, nearest first.
    Nearest(Vec<&'static Product>),
}

/// One print service.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Service {
    /// What `--for` takes.
    pub name: &'static str,
    /// The service's own name, for messages.
    pub title: &'static str,
    /// One line for `--help` and `deckpress services`.
    pub about: &'static str,
    pub form: Form,
    pub sides: SideOrder,
    /// The bleed the service asks for; `None`: each deck's own (or `--bleed`).
    pub bleed: Option<Length>,
    pub colour: Colour,
    /// Pixels per inch of PNG files.
    pub dpi: Option<u32>,
    /// How files are named, `{game}`, `{deck}`, `{service}`, `{paper}`, `{lang}` filled in.
    /// The home row's names every home document: a deck, a gang (`a+b`), a reprint
    /// (`cards-reprint`), a sheet, a tiled board (`board-tiled`), a label sheet or a box
    /// on its paper.
    pub files: &'static str,
    /// How the manifest of what a build drew is named (`{game}`, `{service}`, `{lang}`).
    pub manifest: &'static str,
    /// The card sizes it prints (empty: any size).
    pub products: &'static [Product],
    /// The least it prints faithfully: what `preflight` holds the files to.
    pub floor: Floor,
}

/// The least a print service prints faithfully, and where the figures come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floor {
    /// Text printed smaller than this fills in or breaks up.
    pub text_pt: f32,
    /// Lines printed thinner than this break up or vanish.
    pub line_pt: f32,
    /// Pixels per inch an image needs at the size it prints.
    pub dpi: u32,
    /// How far inside the cut text stays (the one `validate` holds cards to).
    pub safe: Length,
    /// Where each figure comes from, said in the report beside it.
    pub text_source: &'static str,
    pub line_source: &'static str,
    pub dpi_source: &'static str,
}

/// The floor card printers publish for their presses. DriveThruCards, The Game Crafter
/// and MakePlayingCards publish no figure for text or lines that we could cite: these
/// are card printers' art specs, the most cautious taken.
pub const PRESS_FLOOR: Floor = Floor {
    text_pt: 6.0,
    line_pt: 0.25,
    dpi: 300,
    safe: Length::mm(3.0),
    text_source: "card printers' art specs: cardsource.com asks 6 pt of reversed text and 7 pt of the rest, Card USA never under 5 pt",
    line_source: "deckpress's floor: a rule thinner than 0.25 pt breaks up on a card press",
    dpi_source: "the 300 dpi DriveThruCards, The Game Crafter and MakePlayingCards ask of art",
};

const EIGHTH_INCH: Length = Length::inches(0.125);
/// MakePlayingCards' bleed: its poker template is 822 × 1122 px at 300 dpi, the 750 × 1050
/// px card and 36 px (0.12 in) all round, not The Game Crafter's 1/8 in (825 × 1125 px).
const MPC_BLEED: Length = Length::inches(0.12);

const fn inches(w: f32, h: f32) -> (Length, Length) {
    (Length::inches(w), Length::inches(h))
}

/// Card sizes DriveThruCards, The Game Crafter and MakePlayingCards print, from their
/// card templates (the file is the trim plus 1/8 in on every side: a poker card's is
/// 2.75 × 3.75 in, 825 × 1125 px at 300 dpi).
const CARD_PRODUCTS: &[Product] = &[
    Product { name: "poker", trim: inches(2.5, 3.5) },
    Product { name: "bridge", trim: inches(2.25, 3.5) },
    Product { name: "mini", trim: inches(1.75, 2.5) },
    Product { name: "tarot", trim: inches(2.75, 4.75) },
    Product { name: "square", trim: inches(3.5, 3.5) },
];

/// Every service deckpress writes files for; `home` first (the default).
pub const SERVICES: &[Service] = &[
    Service {
        name: "home",
        title: "a home printer",
        about: "a home printer: gang sheets on A4 or Letter with crop marks and duplex backs",
        form: Form::GangSheets,
        sides: SideOrder::FrontFirst,
        bleed: None,
        colour: Colour::Rgb,
        dpi: None,
        files: "{game}-{deck}-{paper}{lang}.pdf",
        manifest: "{game}{lang}-manifest.json",
        products: &[],
        floor: PRESS_FLOOR,
    },
    Service {
        name: "pdf-cards",
        title: "a print shop",
        about: "any print shop: one PDF page per card side, with TrimBox and BleedBox",
        form: Form::PdfPagePerSide,
        sides: SideOrder::FrontFirst,
        bleed: None,
        colour: Colour::Rgb,
        dpi: None,
        files: "{game}-{deck}-{service}{lang}.pdf",
        manifest: "{game}-{service}{lang}-manifest.json",
        products: &[],
        floor: PRESS_FLOOR,
    },
    Service {
        name: "drivethrucards",
        title: "DriveThruCards",
        about: "DriveThruCards: one PDF per deck, each card's back then its front, 1/8 in bleed, CMYK PDF/X-1a",
        form: Form::PdfPagePerSide,
        sides: SideOrder::BackFirst,
        bleed: Some(EIGHTH_INCH),
        colour: Colour::Cmyk { profile: Profile::Swop, ink_limit: 240.0, pdfx: Pdfx::X1a },
        dpi: None,
        files: "{game}-{deck}-{service}{lang}.pdf",
        manifest: "{game}-{service}{lang}-manifest.json",
        products: CARD_PRODUCTS,
        floor: PRESS_FLOOR,
    },
    Service {
        name: "gamecrafter",
        title: "The Game Crafter",
        about: "The Game Crafter: one 300 dpi PNG per card side with 1/8 in bleed",
        form: Form::PngPerSide,
        sides: SideOrder::FrontFirst,
        bleed: Some(EIGHTH_INCH),
        colour: Colour::Rgb,
        dpi: Some(300),
        files: "{game}-{deck}-{service}{lang}/",
        manifest: "{game}-{service}{lang}-manifest.json",
        products: CARD_PRODUCTS,
        floor: PRESS_FLOOR,
    },
    Service {
        name: "makeplayingcards",
        title: "MakePlayingCards",
        about: "MakePlayingCards: one 300 dpi PNG per card side with 36 px (0.12 in) bleed",
        form: Form::PngPerSide,
        sides: SideOrder::FrontFirst,
        bleed: Some(MPC_BLEED),
        colour: Colour::Rgb,
        dpi: Some(300),
        files: "{game}-{deck}-{service}{lang}/",
        manifest: "{game}-{service}{lang}-manifest.json",
        products: CARD_PRODUCTS,
        floor: PRESS_FLOOR,
    },
];

/// How a home PDF's cut files are named: `{stem}` its name without `.pdf`, `{part}` the
/// part of a box a flat is (`-lid`; empty for a one-piece box or a sheet of cards),
/// `{page}` the page of a sheet of cards or labels (`-3`; empty for a box), `{ext}` the
/// format's.
pub const CUT_FILES: &str = "{stem}{part}-cut{page}.{ext}";

/// The picture of a print-then-cut sheet's art beside its SVG cut file (`--cut svg`), for
/// Cricut Design Space's Print Then Cut: `CUT_FILES`' parts, `-print` for `-cut`.
pub const PRINT_THEN_CUT: &str = "{stem}{part}-print{page}.png";

/// A print-then-cut picture's name from `PRINT_THEN_CUT`.
pub fn print_then_cut_name(stem: &str, part: Option<&str>, page: Option<usize>) -> String {
    PRINT_THEN_CUT
        .replace("{stem}", stem)
        .replace("{part}", &part.map(|p| format!("-{p}")).unwrap_or_default())
        .replace("{page}", &page.map(|n| format!("-{n}")).unwrap_or_default())
}

/// A cut file's name from `CUT_FILES`.
pub fn cut_file_name(stem: &str, part: Option<&str>, page: Option<usize>, ext: &str) -> String {
    CUT_FILES
        .replace("{stem}", stem)
        .replace("{part}", &part.map(|p| format!("-{p}")).unwrap_or_default())
        .replace("{page}", &page.map(|n| format!("-{n}")).unwrap_or_default())
        .replace("{ext}", ext)
}

/// How a preview's files are named, in `OUT/{game}/{folder}/`: one pattern per kind of
/// picture document (`plan::pictures` and `preview` take every name from here).
pub struct PreviewNames {
    /// The folder: `{lang}` is `-LANG` (`--lang`), `{cvd}` `-DEFICIENCY` (`--cvd`).
    pub folder: &'static str,
    /// A card design's face, in its deck's folder.
    pub face: &'static str,
    /// A card's own back (`back_per_card`).
    pub own_back: &'static str,
    /// A deck's one back, beside its folder.
    pub back: &'static str,
    /// A board, pad, box flat or label sheet: `{piece}` its slug.
    pub sheet: &'static str,
    /// A deck's contact sheet: `{page}` is `-N` when the deck has more than one.
    pub contact: &'static str,
    /// A picture's soft proof (`--proof`): `{stem}` the picture's name without `.png`.
    pub proof: &'static str,
    /// A page of a document drawn as pictures (`plan::Sink::Raster`): `{page}` is `-N`
    /// when it has more than one.
    pub page: &'static str,
    /// The gallery.
    pub gallery: &'static str,
}

pub const PREVIEW: PreviewNames = PreviewNames {
    folder: "preview{lang}{cvd}",
    face: "{deck}/{card}.png",
    own_back: "{deck}/{card}.back.png",
    back: "{deck}-back.png",
    sheet: "sheets/{piece}.png",
    contact: "{deck}-contact{page}.png",
    proof: "{stem}.proof.png",
    page: "{stem}{page}.png",
    gallery: "index.html",
};

/// A name from one of `PREVIEW`'s patterns, each `{field}` replaced by its value.
pub fn preview_name(pattern: &str, fields: &[(&str, &str)]) -> String {
    fields.iter().fold(pattern.to_string(), |name, (field, value)| {
        name.replace(&format!("{{{field}}}"), value)
    })
}

/// `-N` for page `n` of `count` (none for a document of one page).
pub fn page_suffix(n: usize, count: usize) -> String {
    match count {
        1 => String::new(),
        _ => format!("-{n}"),
    }
}

/// The service called `name`.
pub fn find(name: &str) -> Option<&'static Service> {
    SERVICES.iter().find(|s| s.name == name)
}

/// The home printer, the default.
pub fn home() -> &'static Service {
    &SERVICES[0]
}

impl Service {
    /// Which of the service's products a card of `size` is, or the nearest ones.
    pub fn product_for(&self, size: (Length, Length)) -> ProductMatch {
        if self.products.is_empty() {
            return ProductMatch::AnySize;
        }
        let same = |a: Length, b: Length| (a.to_mm() - b.to_mm()).abs() <= SAME_SIZE_MM;
        if let Some(p) = self.products.iter().find(|p| {
            let (w, h) = p.trim_for(size);
            same(w, size.0) && same(h, size.1)
        }) {
            return ProductMatch::Is(p);
        }
        // Nearest: the one whose card is off the deck's by the least on its worse side.
        let off = |p: &Product| {
            let (w, h) = p.trim_for(size);
            let r = |a: Length, b: Length| (a.to_mm() / b.to_mm() - 1.0).abs();
            r(w, size.0).max(r(h, size.1))
        };
        let mut nearest: Vec<&'static Product> = self.products.iter().collect();
        nearest.sort_by(|a, b| off(a).total_cmp(&off(b)));
        ProductMatch::Nearest(nearest)
    }

    /// A file name from the service's pattern.
    pub fn file_name(&self, game: &str, deck: &str, paper: &str, lang: &str) -> String {
        self.files
            .replace("{game}", game)
            .replace("{deck}", deck)
            .replace("{service}", self.name)
            .replace("{paper}", paper)
            .replace("{lang}", lang)
    }

    /// The manifest's file name in a game's output folder.
    pub fn manifest_name(&self, game: &str, lang: &str) -> String {
        self.manifest
            .replace("{game}", game)
            .replace("{service}", self.name)
            .replace("{lang}", lang)
    }

    /// One line of `deckpress services`: name, form, side order, bleed, colour, ink limit, PDF/X.
    pub fn line(&self) -> String {
        let sides = match (self.form, self.sides) {
            (Form::GangSheets, _) => "duplex (--duplex)",
            (_, SideOrder::FrontFirst) => "front, back",
            (_, SideOrder::BackFirst) => "back, front",
        };
        let bleed = match self.bleed {
            Some(b) => format!("{:.3} in", b.to_pt() / 72.0),
            None => "the deck's".to_string(),
        };
        let (colour, ink, pdfx) = match self.colour {
            Colour::Rgb if self.form.is_pdf() => {
                ("RGB (or --colour cmyk)".to_string(), "-".to_string(), "-")
            }
            Colour::Rgb => {
                (format!("sRGB PNG, {} dpi", self.dpi.unwrap_or(300)), "-".to_string(), "-")
            }
            Colour::Cmyk { profile, ink_limit, pdfx } => {
                (format!("CMYK {}", profile.name()), format!("{ink_limit:.0} %"), pdfx.version())
            }
        };
        format!(
            "{:<17} {:<18} {:<18} {:<11} {:<26} {:<6} {}",
            self.name,
            self.form.name(),
            sides,
            bleed,
            colour,
            ink,
            pdfx
        )
    }
}

/// The table `deckpress services` prints, with its header.
pub fn table() -> Vec<String> {
    let header = format!(
        "{:<17} {:<18} {:<18} {:<11} {:<26} {:<6} {}",
        "service", "files", "sides", "bleed", "colour", "ink", "PDF/X"
    );
    std::iter::once(header).chain(SERVICES.iter().map(Service::line)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_home_is_first() {
        assert_eq!(home().name, "home");
        for (i, s) in SERVICES.iter().enumerate() {
            assert!(SERVICES[..i].iter().all(|o| o.name != s.name), "{} twice", s.name);
            assert_eq!(find(s.name), Some(s));
        }
    }

    #[test]
    fn every_row_is_consistent() {
        for s in SERVICES {
            assert_eq!(
                s.dpi.is_some(),
                s.form == Form::PngPerSide,
                "{}: a dpi is for PNG files only",
                s.name
            );
            assert!(s.form.is_pdf() || s.colour == Colour::Rgb, "{}: PNG files are sRGB", s.name);
            assert!(
                s.files.contains("{deck}") && s.files.contains("{lang}"),
                "{}: files must be told apart by deck and language",
                s.name
            );
            assert_eq!(
                s.files.contains("{paper}"),
                s.form == Form::GangSheets,
                "{}: only gang sheets are per paper",
                s.name
            );
            assert!(s.products.iter().all(|p| p.trim.0 > Length::ZERO && p.trim.1 > Length::ZERO));
            assert!(
                s.manifest.contains("{game}") && s.manifest.contains("{lang}"),
                "{}: manifests must be told apart by game and language",
                s.name
            );
        }
    }

    #[test]
    fn the_table_has_a_line_per_service() {
        let table = table();
        assert_eq!(table.len(), SERVICES.len() + 1);
        assert!(
            table[3].starts_with("drivethrucards")
                && table[3].contains("back, front")
                && table[3].contains("240 %")
                && table[3].contains("PDF/X-1a:2003"),
            "{}",
            table[3]
        );
    }
}
