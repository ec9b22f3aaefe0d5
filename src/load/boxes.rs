//! `[[box]]` tables: a tuck or telescoping box for a deck, its inside computed from the deck's card
//! size and count, the stock's thickness and the clearance; checked here to fit the deck
//! and some paper, so that `validate` promises `build`.

use toml::Spanned;

use super::game_toml::RawBox;
use super::Loader;
use crate::diag::accepted;
use crate::layout::boxes::{fits, flats, MAX_TELESCOPE_DEPTH_MM, MAX_TUCK_DEPTH_MM};
use crate::length::Length;
use crate::model::{BoxDef, BoxFace, BoxStyle, Deck, FaceKind};

/// Named card stocks and one card's thickness (typical calipers of coated card stock).
const STOCKS: [(&str, f32); 4] =
    [("250gsm", 0.27), ("300gsm", 0.32), ("330gsm", 0.35), ("350gsm", 0.38)];
const DEFAULT_STOCK_MM: f32 = 0.32;
const DEFAULT_CLEARANCE_MM: f32 = 1.0;
const DEFAULT_BLEED_MM: f32 = 2.0;
/// What a sleeve adds: to the card's width and height, and to each card's thickness
/// (two layers of a standard 60-micron sleeve).
const SLEEVE_SIZE_MM: f32 = 3.0;
const SLEEVE_THICKNESS_MM: f32 = 0.12;
/// The largest paper a box is printed on: A1, with margins.
const LARGEST_PAPER: crate::paper::PaperSize = crate::paper::A1;

impl Loader<'_> {
    /// Every `[[box]]`, checked; those that cannot be made are reported and left out.
    /// `declared` are the ids of every deck game.toml declares, loaded or not.
    pub(super) fn boxes(
        &mut self,
        raw: &[Spanned<RawBox>],
        decks: &[Deck],
        declared: &[String],
    ) -> Vec<BoxDef> {
        raw.iter().filter_map(|b| self.one_box(b, decks, declared)).collect()
    }

    fn one_box(
        &mut self,
        spanned: &Spanned<RawBox>,
        decks: &[Deck],
        declared: &[String],
    ) -> Option<BoxDef> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
        self.file_name_id(&raw.id, "box id", "its PDF");
        // A box for a deck that failed to load (reported at its cause) is not sized.
        let failed = |deck: &str| declared.iter().any(|d| d == deck);
        let Some(deck) = decks.iter().find(|d| &d.id == raw.deck.get_ref()) else {
            if failed(raw.deck.get_ref()) {
                return None;
            }
            let known: Vec<&String> = decks.iter().map(|d| &d.id).collect();
            self.error(
                raw.deck.span(),
                format!(
                    "box `{id}` is for deck `{}`, which the game does not have",
                    raw.deck.get_ref()
                ),
                format!(
                    "{}its decks: {}",
                    super::rules::did_you_mean(raw.deck.get_ref(), known.iter().copied()),
                    accepted(known)
                ),
            );
            return None;
        };
        let style = match raw.style.as_ref().map(|s| s.get_ref().as_str()) {
            None | Some("tuck") => BoxStyle::Tuck,
            Some("telescope") => BoxStyle::Telescope,
            Some(other) => {
                self.error(
                    raw.style.as_ref().map_or(spanned.span(), |s| s.span()),
                    format!("unknown box style `{other}`"),
                    format!(
                        "use {} (one piece) or `telescope` (a lid over a base)",
                        accepted(["tuck"])
                    ),
                );
                return None;
            }
        };
        let stock = self.stock(raw.stock.as_ref())?;
        let clearance =
            self.box_length(raw.clearance.as_ref(), DEFAULT_CLEARANCE_MM, 5.0, "clearance")?;
        let bleed = self.box_length(raw.bleed.as_ref(), DEFAULT_BLEED_MM, 5.0, "bleed")?;
        let cards = raw.cards.as_ref().map_or(deck.card_count(), |c| *c.get_ref());
        if cards == 0 && raw.cards.is_none() && deck.rows.is_empty() {
            return None; // its rows failed to load, and say so
        }
        if cards == 0 {
            self.error(
                raw.cards.as_ref().map_or(spanned.span(), |c| c.span()),
                "a box for no cards",
                "give `cards` of at least 1, or leave it out to take the deck's count",
            );
            return None;
        }
        let (sleeve_size, sleeve_thickness) = if raw.sleeved {
            (Length::mm(SLEEVE_SIZE_MM), Length::mm(SLEEVE_THICKNESS_MM))
        } else {
            (Length::ZERO, Length::ZERO)
        };
        let inside = (
            deck.width + sleeve_size + clearance,
            deck.height + sleeve_size + clearance,
            (stock + sleeve_thickness) * cards as f32 + clearance,
        );
        let depth = inside.2.to_mm();
        let deepest = match style {
            BoxStyle::Tuck => MAX_TUCK_DEPTH_MM,
            BoxStyle::Telescope => MAX_TELESCOPE_DEPTH_MM,
        };
        if depth > deepest {
            let per_card = (stock + sleeve_thickness).to_mm();
            let most = ((deepest - clearance.to_mm()) / per_card).floor();
            let split = "split the deck into two boxes (`cards = N` on each)";
            self.error(
                raw.cards.as_ref().map_or(raw.deck.span(), |c| c.span()),
                format!("{cards} cards make a deck {depth:.1} mm deep, too thick for a {} box (at most {deepest} mm)", style.name()),
                match style {
                    BoxStyle::Tuck => format!("a tuck box holds at most {most} cards {per_card:.2} mm thick: use style = \"telescope\" (a lid over a base, up to {MAX_TELESCOPE_DEPTH_MM} mm deep), or {split}"),
                    BoxStyle::Telescope => format!("a telescoping box holds at most {most} cards {per_card:.2} mm thick: {split}"),
                },
            );
            return None;
        }
        let largest = LARGEST_PAPER.size();
        if let Some(flat) = flats(style, inside).iter().find(|f| fits(f, largest).is_none()) {
            let what = match flat.part {
                "box" => format!("box `{id}`"),
                part => format!("the {part} of box `{id}`"),
            };
            self.error(
                raw.id.span(),
                format!("{what} lies {:.0} × {:.0} mm flat: too big for every paper, up to A1", flat.width, flat.height),
                "deckpress prints boxes on A4 or Letter, A3, A2 or A1; smaller cards or fewer make a smaller box",
            );
            return None;
        }
        let mut faces = Vec::new();
        for (kind, rel) in [
            (FaceKind::Front, &raw.front),
            (FaceKind::Back, &raw.back),
            (FaceKind::Side, &raw.side),
            (FaceKind::Top, &raw.top),
            (FaceKind::Bottom, &raw.bottom),
        ] {
            if let Some(rel) = rel {
                let template = self.template_in(&self.world.clone(), rel)?;
                faces.push(BoxFace { kind, template });
            }
        }
        if faces.is_empty() {
            self.error(
                spanned.span(),
                format!("box `{id}` prints nothing"),
                "give at least a `front` template (and `back`, `side`, `top`, `bottom`)",
            );
            return None;
        }
        Some(BoxDef {
            name: raw.name.clone().unwrap_or_else(|| format!("Box for {}", deck.name)),
            id,
            deck_id: deck.id.clone(),
            deck_name: deck.name.clone(),
            card: (deck.width, deck.height),
            cards,
            style,
            inside,
            faces,
            bleed,
            span: spanned.span(),
        })
    }

    /// A box's card stock: a named stock or a thickness from 0.1mm to 1mm.
    fn stock(&mut self, raw: Option<&Spanned<String>>) -> Option<Length> {
        let stock = match raw {
            None => Length::mm(DEFAULT_STOCK_MM),
            Some(s) => match STOCKS.iter().find(|(name, _)| name == s.get_ref()) {
                Some(&(_, mm)) => Length::mm(mm),
                None => match Length::parse(s.get_ref()) {
                    Ok(l) if (0.1..=1.0).contains(&l.to_mm()) => l,
                    Ok(l) => {
                        self.error(
                            s.span(),
                            format!("a card {l} thick is not card stock"),
                            "card stock is 0.1mm to 1mm thick; playing cards about 0.3mm",
                        );
                        return None;
                    }
                    Err(message) => {
                        self.error(
                            s.span(),
                            message,
                            format!(
                                "give a thickness like `0.32mm`, or a named stock: {}",
                                accepted(STOCKS.iter().map(|(n, _)| n))
                            ),
                        );
                        return None;
                    }
                },
            },
        };
        Some(stock)
    }

    /// A box's length setting, or its default; at most `max_mm`.
    fn box_length(
        &mut self,
        raw: Option<&Spanned<String>>,
        default_mm: f32,
        max_mm: f32,
        what: &str,
    ) -> Option<Length> {
        let Some(raw) = raw else { return Some(Length::mm(default_mm)) };
        match Length::parse(raw.get_ref()) {
            Ok(l) if l.to_mm() <= max_mm => Some(l),
            Ok(l) => {
                self.error(
                    raw.span(),
                    format!("a box {what} of {l} is too much"),
                    format!("at most {max_mm}mm; {default_mm}mm by default"),
                );
                None
            }
            Err(message) => {
                self.error(raw.span(), message, format!("a {what} looks like `{default_mm}mm`"));
                None
            }
        }
    }
}
