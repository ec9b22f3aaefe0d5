//! Icons: `[icons]` names and images, and the `{name}` that text cells write them with.

use std::collections::BTreeMap;
use std::path::Path;

use toml::Spanned;

use super::Loader;
use crate::diag::{accepted, Diagnostic};
use crate::model::Row;

impl Loader<'_> {
    /// `[icons]`: each a name and an image inside the catalogue that decodes.
    pub(super) fn icons(
        &mut self,
        raw: &BTreeMap<Spanned<String>, Spanned<String>>,
    ) -> Vec<crate::model::Icon> {
        let mut icons = Vec::new();
        for (name, href) in raw {
            if !crate::model::is_icon_name(name.get_ref()) {
                self.error(
                    name.span(),
                    format!("icon name `{}` is not a plain name", name.get_ref()),
                    "use letters (any script), digits, `-` and `_`: it is written `{name}` in text",
                );
                continue;
            }
            match crate::images::load(self.world, href.get_ref(), &self.checked) {
                Ok((data, info)) => {
                    let aspect = match info.format {
                        // Only its proportions are read here: nothing it links to is
                        // opened (cards draw it through the catalogue's own resolver).
                        crate::images::Format::Svg => match crate::world::plain_svg(&data) {
                            Ok(text) => usvg::Tree::from_data(
                                &text,
                                &crate::svg::sealed(Default::default()),
                            )
                            .map_or(1.0, |t| t.size().width() / t.size().height()),
                            Err(why) => {
                                self.error(
                                    href.span(),
                                    format!("icon `{}` cannot be used: {why}", name.get_ref()),
                                    "save it as plain SVG without a DOCTYPE",
                                );
                                continue;
                            }
                        },
                        _ => info.width as f32 / info.height as f32,
                    };
                    icons.push(crate::model::Icon {
                        name: name.get_ref().clone(),
                        href: href.get_ref().clone(),
                        aspect,
                    });
                }
                Err(why) => {
                    let hint = why.hint.unwrap_or_else(|| {
                        "icons are image files inside the catalogue folder, like `art/coin.png`"
                            .to_string()
                    });
                    self.error(
                        href.span(),
                        format!("icon `{}`: {}", name.get_ref(), why.message),
                        hint,
                    );
                }
            }
        }
        icons
    }

    /// Every `{name}` in a text cell names a declared icon; a problem is reported at the
    /// cell, with the icons there are.
    pub(super) fn check_icon_names(
        &mut self,
        file: &Path,
        rows: &[Row],
        text_fields: &[&str],
        icons: &[crate::model::Icon],
    ) {
        for row in rows {
            for &field in text_fields {
                for name in icon_names(row.value(field)) {
                    if !icons.iter().any(|i| i.name == name) {
                        let known: Vec<&str> = icons.iter().map(|i| i.name.as_str()).collect();
                        let hint = if known.is_empty() {
                            "declare it in game.toml: [icons] NAME = \"art/NAME.png\"".to_string()
                        } else {
                            format!("icons: {}; or declare it under [icons]", accepted(known))
                        };
                        self.diags.push(
                            Diagnostic::new(
                                file,
                                row.spans.get(field),
                                format!("unknown icon `{{{name}}}`"),
                            )
                            .with_note(format!("in field `{field}` of card `{}`", row.id))
                            .with_note(hint),
                        );
                    }
                }
            }
        }
    }
}

/// The icon names a text writes as `{name}` (letters, digits, `-`, `_`).
pub fn icon_names(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if close > 0 && crate::model::is_icon_name(&after[..close]) => {
                names.push(&after[..close]);
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    names
}
