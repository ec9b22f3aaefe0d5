//! Includes: the templates that templates include, import or extend, read through the
//! including template's folder.

use std::ops::Range;

use super::Loader;
use crate::diag::Diagnostic;
use crate::model::Template;
use crate::world::ReadError;

impl Loader<'_> {
    /// The templates that `templates` include or import (`{% include "templates/frame.svg"
    /// %}`), and theirs, read through the including template's folder (the catalogue, or
    /// a shared template's own folder). A name is a literal path relative to that folder;
    /// a missing one is an error at the statement that names it.
    pub(super) fn includes(&mut self, templates: Vec<&Template>) -> Vec<Template> {
        let mut found: Vec<Template> = Vec::new();
        let mut todo: Vec<Template> = templates.into_iter().cloned().collect();
        while let Some(template) = todo.pop() {
            for (name, span) in included_names(&template.text) {
                if found.iter().any(|t| t.name == name) {
                    continue;
                }
                match template.world.read_text(&name) {
                    Ok(text) => {
                        let file = template.world.display_path(&name);
                        self.sources.insert(file.clone(), text.clone());
                        let t = Template {
                            file,
                            text,
                            world: template.world.clone(),
                            name: name.clone(),
                        };
                        found.push(t.clone());
                        todo.push(t);
                    }
                    Err(e) => {
                        let hint = match (&e, template.world.closest_file(&name)) {
                            (ReadError::NotFound, Some(close)) => {
                                format!("did you mean `{close}`?")
                            }
                            _ => {
                                format!("paths are relative to {}", template.world.root().display())
                            }
                        };
                        self.diags.push(
                            Diagnostic::new(
                                &template.file,
                                Some(span),
                                format!("cannot include `{name}`: {e}"),
                            )
                            .with_note(hint),
                        );
                    }
                }
            }
            if found.len() > 200 {
                self.diags.push(
                    Diagnostic::new(&template.file, None, "templates include more than 200 others")
                        .with_note("is an include including itself under another name?"),
                );
                break;
            }
        }
        found.sort_by(|a, b| a.name.cmp(&b.name));
        found
    }
}

/// The literal names of `{% include %}`, `{% import %}`, `{% from … import %}` and
/// `{% extends %}` statements, with the span of each name.
fn included_names(text: &str) -> Vec<(String, Range<usize>)> {
    let mut names = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("{%").map(|i| from + i) {
        // The closing `%}` after the opening `{%`: in `{%}` they share the `%`.
        let Some(close) = text[open + 2..].find("%}").map(|i| open + 2 + i) else { break };
        let body = text[open + 2..close].trim_start_matches(['-', '+']).trim_start();
        if ["include", "import", "from", "extends"].iter().any(|k| body.starts_with(k)) {
            let start =
                close - text[open + 2..close].len() + (text[open + 2..close].len() - body.len());
            if let Some(q) = body.find(['"', '\'']) {
                let quote = body.as_bytes()[q] as char;
                if let Some(len) = body[q + 1..].find(quote) {
                    let at = start + q + 1;
                    names.push((body[q + 1..q + 1 + len].to_string(), at..at + len));
                }
            }
        }
        from = close + 2;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::included_names;

    #[test]
    fn a_bare_statement_tag_names_nothing_and_does_not_panic() {
        // Found by the fuzzer (template target): `{%}` made the tag's end come before its start.
        assert!(included_names("<svg>{%}</svg>").is_empty());
        let text = "x{% include \"frame.svg\" %}";
        let names = included_names(text);
        assert_eq!(names.len(), 1);
        assert_eq!(&text[names[0].1.clone()], "frame.svg");
    }
}
