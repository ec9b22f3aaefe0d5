//! The game's settings for checks and the press: `[check]` legibility thresholds and
//! `[colour]` swatches.

use toml::Spanned;

use super::{game_toml, Loader};

impl Loader<'_> {
    /// `[check]`, each threshold in its range, and the fields accepted as told apart by
    /// colour and words.
    pub(super) fn legibility(
        &mut self,
        raw: Option<&game_toml::RawCheck>,
        fields: &[crate::model::Field],
    ) -> crate::model::Legibility {
        let mut check = crate::model::Legibility::default();
        let Some(raw) = raw else { return check };
        let take = |this: &mut Self,
                    value: &Option<Spanned<f32>>,
                    range: std::ops::RangeInclusive<f32>,
                    what: &str,
                    into: &mut f32| {
            if let Some(v) = value {
                if range.contains(v.get_ref()) {
                    *into = *v.get_ref();
                } else {
                    this.error(
                        v.span(),
                        format!("{what} is {}", v.get_ref()),
                        format!("give a number from {} to {}", range.start(), range.end()),
                    );
                }
            }
        };
        take(self, &raw.min_text_pt, 0.0..=72.0, "min_text_pt", &mut check.min_text_pt);
        take(self, &raw.fine_text_pt, 0.0..=72.0, "fine_text_pt", &mut check.fine_text_pt);
        take(self, &raw.contrast, 1.0..=21.0, "contrast", &mut check.contrast);
        take(self, &raw.large_contrast, 1.0..=21.0, "large_contrast", &mut check.large_contrast);
        if let Some(on) = raw.colour_alone {
            check.colour_alone = on;
        }
        check.accept_colour_alone = self.accepted_colour_alone(raw, fields);
        check
    }

    /// `[check] accept_colour_alone`: enum fields of the game, each named once.
    fn accepted_colour_alone(
        &mut self,
        raw: &game_toml::RawCheck,
        fields: &[crate::model::Field],
    ) -> Vec<String> {
        let enums = || fields.iter().filter(|f| matches!(f.kind, crate::model::FieldKind::Enum(_)));
        let mut accepted: Vec<String> = Vec::new();
        for name in raw.accept_colour_alone.iter().flatten() {
            let (span, name) = (name.span(), name.get_ref());
            let known = crate::diag::accepted(enums().map(|f| f.name.as_str()));
            match fields.iter().find(|f| &f.name == name) {
                None => self.error(
                    span,
                    format!("accept_colour_alone names `{name}`, which is not a field"),
                    format!("name an enum field: {known}"),
                ),
                Some(f) if !matches!(f.kind, crate::model::FieldKind::Enum(_)) => self.error(
                    span,
                    format!("accept_colour_alone names `{name}`, which is not an enum field"),
                    format!(
                        "only an enum field's values are compared for colour; enum fields: {known}"
                    ),
                ),
                Some(_) if accepted.contains(name) => self.error(
                    span,
                    format!("accept_colour_alone names `{name}` twice"),
                    "name each field once",
                ),
                Some(_) => accepted.push(name.clone()),
            }
        }
        accepted
    }

    /// `[colour]`: swatches keyed by an sRGB colour, each with four inks in percent.
    pub(super) fn colour(
        &mut self,
        raw: Option<&game_toml::RawColour>,
    ) -> crate::model::PressColours {
        let mut colours = crate::model::PressColours::default();
        let Some(raw) = raw else { return colours };
        let inks = |this: &mut Self, value: &Spanned<Vec<f32>>, what: &str| -> Option<[f32; 4]> {
            match value.get_ref().as_slice() {
                &[c, m, y, k] if [c, m, y, k].iter().all(|v| (0.0..=100.0).contains(v)) => {
                    Some([c, m, y, k])
                }
                other => {
                    this.error(value.span(), format!("{what} has {} values{}", other.len(), if other.len() == 4 { ", not all between 0 and 100" } else { "" }), "write the four inks in percent, cyan, magenta, yellow and black: [60, 40, 40, 100]");
                    None
                }
            }
        };
        for (key, value) in &raw.swatches {
            let Some(rgb) = crate::model::parse_hex(key.get_ref()) else {
                self.error(
                    key.span(),
                    format!("swatch `{}` is not an sRGB colour", key.get_ref()),
                    "name a swatch by the colour the templates use, like \"#1b1b1b\"",
                );
                continue;
            };
            if let Some(cmyk) = inks(self, value, &format!("swatch `{}`", key.get_ref())) {
                colours.swatches.insert(rgb, cmyk);
            }
        }
        if let Some(rich) = &raw.rich_black {
            colours.rich_black = inks(self, rich, "rich_black");
        }
        colours
    }
}
