//! Fonts: the catalogue's `fonts/` folder and the files `[game] fonts` names.

use std::ops::Range;

use toml::Spanned;

use super::Loader;
use crate::diag::Diagnostic;

impl Loader<'_> {
    /// The catalogue's fonts: every `.ttf`, `.otf` and `.ttc` in `fonts/`, and those
    /// `[game] fonts` names.
    pub(super) fn fonts(&mut self, listed: &[Spanned<String>]) -> Vec<crate::model::FontFile> {
        let is_font =
            |f: &String| [".ttf", ".otf", ".ttc"].iter().any(|ext| f.to_lowercase().ends_with(ext));
        // What is no font file (a pipe, a link outside) is read all the same, to be said.
        let mut names: Vec<(String, Option<Range<usize>>)> = self
            .world
            .non_folders_in("fonts")
            .into_iter()
            .filter(is_font)
            .map(|f| (f, None))
            .collect();
        if self.world.links_outside("fonts") {
            // tests/stranger/read-outside-symlink/fonts-folder-build
            self.diags.push(Diagnostic::new(
                self.world.display_path("fonts"),
                None,
                "`fonts` is a symlink to a folder outside the catalogue folder, which deckpress never reads: copy the fonts into the catalogue".to_string(),
            ));
        }
        for name in listed {
            if !names.iter().any(|(n, _)| n == name.get_ref()) {
                names.push((name.get_ref().clone(), Some(name.span())));
            }
        }
        let mut fonts = Vec::new();
        for (rel, span) in names {
            let file = self.world.display_path(&rel);
            match self.world.read_bytes(&rel) {
                Ok(data) => match crate::fonts::families_in(&data) {
                    Some(_) if let Some(why) = crate::fonts::unembeddable(&data) => {
                        let at = if span.is_some() { self.game_toml.clone() } else { file.clone() };
                        self.diags.push(
                            Diagnostic::new(
                                at,
                                span,
                                format!("font `{rel}` cannot be embedded in a PDF: {why}"),
                            )
                            .with_note(
                                "the file is damaged: export the font again, or use another",
                            ),
                        );
                    }
                    Some(families) => fonts.push(crate::model::FontFile { file, data, families }),
                    None => {
                        let at = if span.is_some() { self.game_toml.clone() } else { file.clone() };
                        self.diags.push(
                            Diagnostic::new(
                                at,
                                span,
                                format!("`{rel}` is not a font deckpress can read"),
                            )
                            .with_note(
                                "fonts must be TrueType or OpenType files (.ttf, .otf, .ttc)",
                            ),
                        );
                    }
                },
                Err(e) => {
                    let at = if span.is_some() { self.game_toml.clone() } else { file.clone() };
                    self.diags.push(Diagnostic::new(
                        at,
                        span,
                        format!("cannot read font `{rel}`: {e}"),
                    ));
                }
            }
        }
        fonts
    }
}
