//! Where a template writes a text the piece prints (render stage): the template line,
//! or the line of a frame it includes or imports and the call, for every diagnostic about
//! drawn text (size, contrast, the cut, fonts).

use super::art;
use crate::diag::Diagnostic;
use crate::model::Row;

/// Where a template writes a text the piece prints: nowhere that can be told, one place,
/// or several equally likely ones (`{% if %}` branches printing the same expression).
#[derive(Debug, PartialEq)]
pub(super) enum Written {
    Unknown,
    At(std::ops::Range<usize>),
    OneOf(Vec<std::ops::Range<usize>>),
    /// In an included or imported template, and where the piece's own template calls it.
    Through(std::ops::Range<usize>, Option<String>),
}

impl Written {
    /// The span a diagnostic points at: the one place; none of several rather than a
    /// wrong one.
    pub(super) fn span(&self) -> Option<std::ops::Range<usize>> {
        match self {
            Written::At(span) | Written::Through(span, _) => Some(span.clone()),
            Written::Unknown | Written::OneOf(_) => None,
        }
    }

    /// `diag`, with a note naming the lines of the places when there are several.
    pub(super) fn said(&self, template: &str, diag: Diagnostic) -> Diagnostic {
        if let Written::Through(_, Some(call)) = self {
            return diag.with_note(call.clone());
        }
        let Written::OneOf(spans) = self else { return diag };
        let lines: Vec<String> =
            spans.iter().map(|s| crate::diag::line_col(template, s.start).0.to_string()).collect();
        let (last, others) = lines.split_last().expect("several places");
        diag.with_note(format!(
            "the template writes it on lines {} and {last}; which of them printed it depends on the data",
            others.join(", ")
        ))
    }
}

/// Where the template writes a text the piece prints: the card field it came from, else
/// the words as written (outside comments), else the `<text>` or `<tspan>` whose written
/// content fills to it (`{{ game.name }} ({{ box.cards }} cards)`), the likeliest (more of
/// its words written) or, when several are as likely, all of them.
pub(super) fn printed_text_span(template: &str, row: Option<&Row>, text: &str) -> Written {
    let printed = text.trim();
    if let Some(span) = strongly_written(template, row, text) {
        return Written::At(span);
    }
    // (written length outside expressions, span) of each element that fills to it.
    let mut found: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for (i, _) in template.match_indices("<t") {
        let tag = &template[i..];
        if !(tag.starts_with("<text") || tag.starts_with("<tspan")) {
            continue;
        }
        let Some(open) = tag.find('>') else { continue };
        let body = &tag[open + 1..];
        let content = &body[..body.find('<').unwrap_or(body.len())];
        let written = content.trim();
        if written.is_empty() || !art::fills_to(written, printed) {
            continue;
        }
        let start = i + open + 1 + (content.len() - content.trim_start().len());
        // What the template writes around its expressions, spaces aside: a space between
        // two expressions fills to any text of two words.
        let literal = art::outside_tags(written)
            .iter()
            .map(|p| p.chars().filter(|c| !c.is_whitespace()).count())
            .sum();
        found.push((literal, start..start + written.len()));
    }
    let Some(best) = found.iter().map(|(l, _)| *l).max() else { return Written::Unknown };
    let mut likeliest: Vec<_> =
        found.into_iter().filter(|(l, _)| *l == best).map(|(_, span)| span).collect();
    // More than a few places is no help (a shared template printing every value through
    // `{{ … }}`): none then.
    match likeliest.len() {
        1 => Written::At(likeliest.remove(0)),
        2..=4 => Written::OneOf(likeliest),
        _ => Written::Unknown,
    }
}

/// Where a template writes a text for sure: `t("Score")` (before a card field whose value
/// merely starts with the same word, "Score {{ … }}"), the card field it came from, or the
/// words as written (outside comments).
pub(super) fn strongly_written(
    template: &str,
    row: Option<&Row>,
    text: &str,
) -> Option<std::ops::Range<usize>> {
    let printed = text.trim();
    let translated = ['"', '\''].into_iter().find_map(|q| {
        let call = format!("t({q}{printed}{q})");
        find_outside_comments(template, &call).map(|at| at.start + 3..at.end - 2)
    });
    translated
        .or_else(|| field_span(template, row, text))
        .or_else(|| find_outside_comments(template, printed))
}

/// How many characters a text element's content writes outside its expressions: `©
/// {{ game.name }} team` says more surely what it prints than `{{ card.value }}`.
pub(super) fn written_strength(template: &str, span: &std::ops::Range<usize>) -> usize {
    art::outside_tags(&template[span.clone()])
        .iter()
        .map(|p| p.chars().filter(|c| !c.is_whitespace()).count())
        .sum::<usize>()
        + 1
}

/// Where `template` calls what `included` (named `name`) defines around `at`: the call of
/// the macro `at` is in (`{{ credits(…) }}`), else the `include` of the file.
pub(super) fn call_site(template: &str, included: &str, name: &str, at: usize) -> Option<usize> {
    let macro_name = included[..at]
        .rfind("{% macro ")
        .or_else(|| included[..at].rfind("{%- macro "))
        .and_then(|i| {
            let rest = included[i..].split_once("macro ")?.1;
            let end = rest.find('(')?;
            Some(rest[..end].trim().to_string())
        });
    if let Some(m) = macro_name {
        let call = format!("{m}(");
        let found = template.match_indices(&call).map(|(i, _)| i).find(|&i| {
            let before = template[..i].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && template[..i]
                    .rfind("{{")
                    .is_some_and(|o| template[..i].rfind("}}").is_none_or(|c| c < o))
        });
        if found.is_some() {
            return found;
        }
    }
    template.find(&format!("include \"{name}\"")).or_else(|| template.find(name))
}

/// Where the template prints the card field a text came from (`card.title`), when one of
/// the row's values starts the text.
pub(super) fn field_span(
    template: &str,
    row: Option<&Row>,
    text: &str,
) -> Option<std::ops::Range<usize>> {
    let start: String = text.trim_end_matches('…').chars().take(12).collect();
    let (field, _) =
        row?.values.iter().find(|(_, v)| !start.is_empty() && v.starts_with(start.as_str()))?;
    // Inside a `{{ … }}` expression, not in a comment that names the field.
    let in_expression = |i: usize| {
        let before = &template[..i];
        before.rfind("{{").is_some_and(|open| before.rfind("}}").is_none_or(|close| close < open))
            && before.rfind("{#").is_none_or(|c| before.rfind("#}").is_some_and(|e| e > c))
    };
    [format!("card.{field}"), format!("labels.{field}")].iter().find_map(|pattern| {
        template
            .match_indices(pattern.as_str())
            .map(|(i, _)| i)
            .find(|&i| in_expression(i))
            .map(|i| i..i + pattern.len())
    })
}

/// Where a template writes a text (three letters or more), not counting its comments.
pub(super) fn find_outside_comments(template: &str, text: &str) -> Option<std::ops::Range<usize>> {
    if text.len() < 3 {
        return None;
    }
    let in_comment = |i: usize, open: &str, close: &str| {
        let before = &template[..i];
        before.rfind(open).is_some_and(|o| before.rfind(close).is_none_or(|c| c < o))
    };
    template
        .match_indices(text)
        .map(|(i, _)| i)
        .find(|&i| !in_comment(i, "{#", "#}") && !in_comment(i, "<!--", "-->"))
        .map(|i| i..i + text.len())
}

/// The span of an href in a template: where the path is written; else the `href` whose
/// written text and tags fill to it (`art/mark-{{ card.colour }}.png`), not the first
/// image's; else the first `href` filled from data; `None` if none is found.
pub(super) fn href_span(text: &str, href: &str) -> Option<std::ops::Range<usize>> {
    if let Some(i) = text.find(href).filter(|_| !href.is_empty()) {
        return Some(i..i + href.len());
    }
    if let Some((i, written)) = art::href_values(text).find(|(_, w)| art::fills_to(w, href)) {
        return Some(i..i + written.len());
    }
    let i = text.find("href=\"{{").or_else(|| text.find("href="))?;
    Some(i..i + 4)
}

/// The span of a font family's name in a template.
pub(super) fn family_span(text: &str, family: &str) -> Option<std::ops::Range<usize>> {
    text.find(family).map(|i| i..i + family.len())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_printed_text_is_found_where_its_written_words_fill_to_it() {
        let template =
            "<text x=\"1\">{{ a }}</text><text>{{ a }} ({{ n }} cards)</text><tspan>{{ b }}</tspan>";
        use super::Written;
        let Written::At(span) = super::printed_text_span(template, None, "X (3 cards)") else {
            panic!("one element writes it")
        };
        assert_eq!(&template[span], "{{ a }} ({{ n }} cards)");
        // Two elements fill to it with nothing written: both, neither chosen.
        let Written::OneOf(spans) = super::printed_text_span(template, None, "Y") else {
            panic!("two elements write it")
        };
        assert_eq!(
            spans.iter().map(|s| &template[s.clone()]).collect::<Vec<_>>(),
            ["{{ a }}", "{{ b }}"]
        );
        // Words written as printed are found as they are.
        assert_eq!(
            super::printed_text_span("<text>Hello</text>", None, "Hello"),
            Written::At(6..11)
        );
        assert_eq!(super::printed_text_span("<text>Hello</text>", None, "Bye"), Written::Unknown);
        // A word written as t()'s text is found there, not in a field starting with it.
        let template = "<text>{{ t(\"Score\") }}</text><text>{{ card.text }}</text>";
        let mut values = crate::model::Values::default();
        values.insert("text", "Score {{ values('suit') }}".to_string());
        let row = crate::model::Row {
            id: "a".into(),
            qty: 1,
            values,
            spans: Default::default(),
            span: 0..0,
        };
        let at = template.find("Score").unwrap();
        assert_eq!(
            super::printed_text_span(template, Some(&row), "Score"),
            Written::At(at..at + 5)
        );
    }
}
