//! Comparisons that can never be true: a template that asks `box.face == "Front"` (the
//! faces are `front`, `back`, …) or `card.suit == "Sunn"` silently draws the other branch.
//! Templates → errors at the compared value, with the closest one it can have.

use std::ops::Range;

use super::Loader;
use crate::diag::{accepted, closest, Diagnostic};
use crate::model::{BoxStyle, FaceKind, Field, FieldKind, Template};

/// A name a template compares, and every value it can have.
struct Known {
    path: String,
    values: Vec<String>,
}

impl Loader<'_> {
    /// Checks every `==`, `!=` and `in [...]` of `templates` against the values of
    /// `box.face`, `box.style` and each enum field's `card.FIELD`.
    pub(super) fn check_comparisons(&mut self, templates: &[&Template], fields: &[Field]) {
        let mut known = vec![
            Known {
                path: "box.face".into(),
                values: [
                    FaceKind::Front,
                    FaceKind::Back,
                    FaceKind::Side,
                    FaceKind::Top,
                    FaceKind::Bottom,
                ]
                .iter()
                .map(|f| f.name().to_string())
                .collect(),
            },
            Known {
                path: "box.style".into(),
                values: [BoxStyle::Tuck, BoxStyle::Telescope]
                    .iter()
                    .map(|s| s.name().to_string())
                    .collect(),
            },
        ];
        for f in fields {
            if let FieldKind::Enum(values) = &f.kind {
                known.push(Known { path: format!("card.{}", f.name), values: values.clone() });
            }
        }
        let mut seen = std::collections::HashSet::new();
        for t in templates {
            if !seen.insert(&t.file) {
                continue;
            }
            for (span, path, value) in compared(&t.text, &known) {
                let k = known.iter().find(|k| k.path == path).expect("a known path");
                let hint = match closest(&value, k.values.iter().map(String::as_str)) {
                    Some(c) => format!("did you mean `{c}`? its values: {}", accepted(&k.values)),
                    None => format!("its values: {}", accepted(&k.values)),
                };
                self.diags.push(
                    Diagnostic::new(
                        &t.file,
                        Some(span),
                        format!("`{path}` is never `{value}`: this comparison can never be true"),
                    )
                    .with_note(hint),
                );
            }
        }
    }
}

/// Every value compared with a known name that is not one of its values: (span of the
/// quoted value, the name, the value).
fn compared(text: &str, known: &[Known]) -> Vec<(Range<usize>, String, String)> {
    let mut found = Vec::new();
    for (start, end) in tags(text) {
        let tag = &text[start..end];
        for k in known {
            let mut from = 0;
            while let Some(i) = tag[from..].find(&k.path) {
                let at = from + i;
                from = at + k.path.len();
                let before = tag[..at].chars().next_back();
                let after = tag[from..].chars().next();
                let part_of_name = |c: Option<char>| {
                    c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                };
                if part_of_name(before) || part_of_name(after) {
                    continue;
                }
                let mut values = Vec::new();
                // Where a suffix of the tag starts in the text.
                let at_of = |suffix: &str| start + tag.len() - suffix.len();
                // `box.face == "x"`, `box.face in ["x", "y"]`
                let rest = tag[from..].trim_start();
                if let Some(r) = rest.strip_prefix("==").or_else(|| rest.strip_prefix("!=")) {
                    let lit = r.trim_start();
                    values.extend(
                        literal(lit).map(|(v, s)| (v, at_of(lit) + s.start..at_of(lit) + s.end)),
                    );
                } else if let Some(list) = rest.strip_prefix("in ").map(str::trim_start) {
                    let mut items = list.strip_prefix('[').unwrap_or("");
                    loop {
                        items = items.trim_start_matches([' ', ',']);
                        let Some((v, s)) = literal(items) else { break };
                        values.push((v, at_of(items) + s.start..at_of(items) + s.end));
                        items = &items[s.end + 1..];
                    }
                }
                // `"x" == box.face`
                let head = tag[..at].trim_end();
                if let Some(h) = head.strip_suffix("==").or_else(|| head.strip_suffix("!=")) {
                    let h = h.trim_end();
                    if let Some(q) = h.chars().next_back().filter(|c| *c == '"' || *c == '\'') {
                        if let Some(open) = h[..h.len() - 1].rfind(q) {
                            values.push((
                                h[open + 1..h.len() - 1].to_string(),
                                start + open + 1..start + h.len() - 1,
                            ));
                        }
                    }
                }
                for (v, span) in values {
                    // `""` asks whether an optional field is empty.
                    if !k.values.contains(&v) && !v.is_empty() {
                        found.push((span, k.path.clone(), v));
                    }
                }
            }
        }
    }
    found
}

/// A quoted string at the start of `text`: its value and the span of the value inside it.
fn literal(text: &str) -> Option<(String, Range<usize>)> {
    let q = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let end = text[1..].find(q)? + 1;
    Some((text[1..end].to_string(), 1..end))
}

/// The insides of every `{{ … }}` and `{% … %}` tag: (start, end) byte offsets.
fn tags(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find('{') {
        let open = from + i;
        let close = match text[open + 1..].chars().next() {
            Some('{') => "}}",
            Some('%') => "%}",
            _ => {
                from = open + 1;
                continue;
            }
        };
        let inner = open + 2;
        match text[inner..].find(close) {
            Some(e) => {
                out.push((inner, inner + e));
                from = inner + e + 2;
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_outside_the_known_set_is_found_at_its_quotes() {
        let known =
            [Known { path: "box.face".into(), values: vec!["front".into(), "back".into()] }];
        let text = r#"<g>{% if box.face == "Front" %}x{% elif "bak" != box.face or box.face in ['front', 'sid'] %}{% endif %}{{ box.faces }}</g>"#;
        let found = compared(text, &known);
        let values: Vec<&str> = found.iter().map(|(s, _, _)| &text[s.clone()]).collect();
        assert_eq!(values, ["Front", "bak", "sid"]);
    }
}
