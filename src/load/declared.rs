//! A field declared under one name and used under another wherever the game uses it
//! (`[fields.siut]`, and a `suit` column, `each = "suit"`, `[lang.de.suit]`): one mistake,
//! at the declaration, instead of one "unknown" error at every use.

use super::Loader;
use crate::diag::Diagnostic;
use crate::model::Field;

impl Loader<'_> {
    /// Folds the "unknown column", "unknown field" and "translates no field" errors about
    /// a name that a rows file's header uses and that is a near miss of a declared field
    /// into one error at that field's declaration.
    pub(super) fn fold_misspelt_declarations(&mut self, fields: &[Field]) {
        let game_toml = self.game_toml.clone();
        let text = self.sources.get(&game_toml).unwrap_or_default().to_string();
        // (the name used, the declared field it was meant as): from the rows' headers.
        let mut pairs: Vec<(String, String)> = Vec::new();
        for d in &self.diags {
            let Some(rest) = d.message.strip_prefix("unknown column `") else { continue };
            let Some((used, after)) = rest.split_once('`') else { continue };
            let Some(meant) =
                after.strip_prefix(": did you mean `").and_then(|m| m.split_once('`'))
            else {
                continue;
            };
            if fields.iter().any(|f| f.name == meant.0) && !pairs.iter().any(|(u, _)| u == used) {
                pairs.push((used.to_string(), meant.0.to_string()));
            }
        }
        for (used, declared) in pairs {
            let about = |d: &Diagnostic| {
                d.message == format!("unknown column `{used}`: did you mean `{declared}`?")
                    || d.message == format!("unknown field `{used}`")
                    || (d.message.starts_with("`[lang.")
                        && d.message
                            .ends_with(&format!(".{used}]` translates no field of this game")))
            };
            let places: Vec<String> = self
                .diags
                .iter()
                .filter(|d| about(d))
                .map(|d| {
                    let name = d
                        .file
                        .file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                    match (
                        d.span.as_ref(),
                        self.sources.line_col(&d.file, d.span.as_ref().map_or(0, |s| s.start)),
                    ) {
                        (Some(_), Some((line, _))) => format!("{name}:{line}"),
                        _ => name,
                    }
                })
                .collect();
            // One use alone is as likely the typo as the declaration: leave it to its own error.
            if places.len() < 2 {
                continue;
            }
            self.diags.retain(|d| !about(d));
            let header = format!("[fields.{declared}]");
            let span = text.find(&header).map(|i| i..i + header.len());
            self.diags.push(
                Diagnostic::new(
                    &game_toml,
                    span,
                    format!("field `{declared}` is declared, but the game calls it `{used}`"),
                )
                .with_note(format!(
                    "did you mean `[fields.{used}]`? `{used}` is what {} say",
                    crate::diag::and_list(&places)
                )),
            );
        }
    }
}
