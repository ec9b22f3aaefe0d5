//! Naming what a template left undefined: minijinja reports an undefined value with a
//! span that may cover a whole tag (or only the filter after it); this finds the name
//! path that failed, as the template writes it, and the closest name that exists.

use std::ops::Range;

use minijinja::value::ValueKind;
use minijinja::Value;

/// The undefined part of a failed expression: where it is, as written, and a "did you mean".
pub struct Undefined {
    pub span: Range<usize>,
    pub expression: String,
    pub hint: Option<String>,
}

/// Finds, in the `{{ … }}` or `{% … %}` tag around `range`, the first name path
/// (`card.suit_nmae`, `crad.suit`) that does not resolve in `context`. When every path
/// resolves (a missing key in `style.fills[card.suit]`), the tag's expression is named.
pub fn undefined_at(text: &str, range: Range<usize>, context: &Value) -> Option<Undefined> {
    let (start, end) = enclosing_tag(text, &range);
    let inner = &text[start..end];
    for path in name_paths(inner) {
        let mut bound = |name: &str| bound_in(text, name, context);
        if let Some(found) = unresolved_path(start, &path, context, &mut bound) {
            return Some(found);
        }
    }
    // `{{- x }}`: the whitespace control marks are not part of the expression.
    let from = inner.trim_start().trim_start_matches(['-', '+']).trim_start();
    let at = start + inner.len() - from.len();
    let expression = from.trim_end().trim_end_matches(['-', '+']).trim_end();
    (!expression.is_empty()).then(|| Undefined {
        span: at..at + expression.len(),
        expression: expression.to_string(),
        hint: None,
    })
}

/// Every name path of a template that does not resolve in `context`, wherever it is
/// used: printed, passed to a function or macro, `set`, filtered, compared or tested.
/// minijinja's strict mode fails only where an undefined value is printed or iterated;
/// `textbox(card.txet)`, `card.nmae | upper` or `card.suitt == "Red"` would print
/// nothing without a word. A path the template tests (`is defined`) or defaults
/// (`| default(…)`) anywhere may be missing everywhere in it.
pub fn unresolved(text: &str, context: &Value) -> Vec<Undefined> {
    let tags = tags(text);
    let written = |path: &[(String, Range<usize>)]| {
        path.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join(".")
    };
    let mut allowed = std::collections::HashSet::new();
    let mut paths = Vec::new();
    for (start, end) in tags {
        let inner = &text[start..end];
        for path in name_paths(inner) {
            let after = inner[path.last().map_or(0, |(_, s)| s.end)..].trim_start();
            if allows_missing(after) {
                allowed.insert(written(&path));
            }
            paths.push((start, path));
        }
    }
    // What the template binds a name to is the same for every path that starts with it:
    // looked for once a name, not once a path (a board's template has hundreds).
    let binding_tags = binding_tags(text);
    let mut bindings: std::collections::HashMap<String, Binding> = Default::default();
    let mut bound = |name: &str| {
        let binding = bindings.entry(name.to_string());
        binding.or_insert_with(|| bound_by(&binding_tags, name, context)).clone()
    };
    let mut found = Vec::new();
    for (start, path) in paths {
        // `card.bonus is defined` also allows `card.bonus.x`.
        let guarded = (1..=path.len()).any(|n| allowed.contains(&written(&path[..n])));
        if guarded {
            continue;
        }
        if let Some(u) = unresolved_path(start, &path, context, &mut bound) {
            if !found.iter().any(|f: &Undefined| f.span == u.span) {
                found.push(u);
            }
        }
    }
    found
}

/// Whether what follows a name path lets it be undefined: a test for it or a default.
fn allows_missing(after: &str) -> bool {
    let words: Vec<&str> = after
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '|'))
        .filter(|w| !w.is_empty())
        .take(3)
        .collect();
    let tested = matches!(
        words.as_slice(),
        ["is", "defined" | "undefined", ..] | ["is", "not", "defined" | "undefined", ..]
    );
    let defaulted = after.starts_with('|')
        && matches!(
            after[1..].trim_start().split(|c: char| !(c.is_alphanumeric() || c == '_')).next(),
            Some("default" | "d")
        );
    tested || defaulted
}

/// The `{{ … }}` and `{% … %}` tags of a template, as the byte ranges of their insides;
/// comments and `{% raw %}` blocks left out.
fn tags(text: &str) -> Vec<(usize, usize)> {
    let mut tags = Vec::new();
    let mut at = 0;
    while let Some(open) = ["{{", "{%", "{#"].iter().filter_map(|o| text[at..].find(o)).min() {
        let open = at + open;
        let close = match &text[open..open + 2] {
            "{{" => "}}",
            "{%" => "%}",
            _ => "#}",
        };
        let Some(len) = text[open + 2..].find(close) else { break };
        let (start, end) = (open + 2, open + 2 + len);
        at = end + 2;
        if close == "#}" {
            continue;
        }
        let inner = text[start..end].trim().trim_matches(['-', '+']).trim();
        if close == "%}" && inner == "raw" {
            // Nothing is a name up to `{% endraw %}`.
            match text[at..].find("endraw") {
                Some(i) => at += i,
                None => break,
            }
            continue;
        }
        tags.push((start, end));
    }
    tags
}

/// Resolves one name path of the tag starting at `start`, as the template
/// would: the first segment in the context or as bound by the template (a loop over a
/// list of the context), the rest as attributes. `None` when it resolves, or when the
/// template binds it in a way not followed here (`set`, a macro's argument).
fn unresolved_path(
    start: usize,
    path: &[(String, Range<usize>)],
    context: &Value,
    bound: &mut dyn FnMut(&str) -> Binding,
) -> Option<Undefined> {
    let (root, root_span) = &path[0];
    let mut value = match context.get_attr(root).ok().filter(|v| !v.is_undefined()) {
        Some(v) => v,
        None => match bound(root) {
            Binding::Unbound => {
                return Some(Undefined {
                    span: start + root_span.start..start + root_span.end,
                    expression: root.clone(),
                    hint: closest(root, keys(context)),
                })
            }
            Binding::Unknown => return None,
            Binding::Known(v) => v,
        },
    };
    for (i, (segment, span)) in path.iter().enumerate().skip(1) {
        // Only maps are followed: a method of a string or list (`x.upper`) is not a key.
        if value.kind() != ValueKind::Map {
            return None;
        }
        match value.get_attr(segment).ok().filter(|v| !v.is_undefined()) {
            Some(v) => value = v,
            None => {
                let expression =
                    path[..=i].iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join(".");
                return Some(Undefined {
                    span: start + root_span.start..start + span.end,
                    expression,
                    hint: closest(segment, keys(&value)),
                });
            }
        }
    }
    None
}

/// The inside of the `{{ … }}` or `{% … %}` around a span, as byte offsets.
fn enclosing_tag(text: &str, range: &Range<usize>) -> (usize, usize) {
    let mut upto = (range.start + 2).min(text.len());
    while !text.is_char_boundary(upto) {
        upto -= 1;
    }
    let upto = &text[..upto];
    let open = ["{{", "{%"].iter().filter_map(|o| upto.rfind(o)).max();
    let close =
        ["}}", "%}"].iter().filter_map(|c| text[range.end..].find(c)).min().map(|i| range.end + i);
    match (open, close) {
        (Some(open), Some(close)) if open + 2 <= close => (open + 2, close),
        _ => (range.start, range.end),
    }
}

/// Jinja words that are not names of values.
const KEYWORDS: &[&str] = &[
    "if",
    "elif",
    "else",
    "endif",
    "for",
    "in",
    "endfor",
    "not",
    "and",
    "or",
    "is",
    "true",
    "false",
    "none",
    "True",
    "False",
    "None",
    "set",
    "endset",
    "with",
    "endwith",
    "macro",
    "endmacro",
    "call",
    "endcall",
    "include",
    "import",
    "from",
    "as",
    "filter",
    "endfilter",
    "block",
    "endblock",
    "extends",
    "recursive",
];

/// The dotted name paths of an expression (`card.suit`, `style.fills`), each segment with
/// its span; leaving out strings, filters, tests, keywords and called functions.
fn name_paths(expr: &str) -> Vec<Vec<(String, Range<usize>)>> {
    let bytes = expr.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut paths = Vec::new();
    let mut i = 0;
    let mut after_is = false;
    let mut named_next = false;
    let mut previous_char = b' ';
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\'' || b == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            previous_char = b;
            continue;
        }
        if !(b.is_ascii_alphabetic() || b == b'_') {
            if !b.is_ascii_whitespace() {
                previous_char = b;
            }
            i += 1;
            continue;
        }
        let mut path = Vec::new();
        let mut end;
        loop {
            let start = i;
            while i < bytes.len() && ident(bytes[i]) {
                i += 1;
            }
            end = i;
            path.push((expr[start..i].to_string(), start..i));
            if bytes.get(i) == Some(&b'.')
                && bytes.get(i + 1).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
            {
                i += 1;
            } else {
                break;
            }
        }
        let rest = expr[end..].trim_start();
        let called = rest.starts_with('(');
        // `textbox(text, x=4)`, `namespace(n=0)`: a keyword argument's name is no value.
        let keyword_argument = rest.starts_with('=') && !rest.starts_with("==");
        let word = path[0].0.clone();
        // `x is defined`, `x is not none`: a test's name follows `is` (and `not`).
        let test = after_is && word != "not";
        let skip = test
            || keyword_argument
            || named_next
            || previous_char == b'|'
            || previous_char == b'.'
            || KEYWORDS.contains(&word.as_str());
        if !skip {
            // `card.name.upper()`: the method is no key, the value it is called on is.
            if called {
                path.pop();
            }
            if !path.is_empty() {
                paths.push(path);
            }
        }
        after_is = word == "is" || (after_is && word == "not");
        // `{% filter upper %}`, `{% block title %}`: a name, not a value.
        named_next = matches!(word.as_str(), "filter" | "block");
        previous_char = b'a';
    }
    paths
}

/// What the template itself says a name is.
#[derive(Clone)]
enum Binding {
    /// Nothing binds it: the name is undefined.
    Unbound,
    /// Bound in a way we do not follow (`set`, a macro's argument, `loop`).
    Unknown,
    /// A loop variable over a list of the context: its first item.
    Known(Value),
}

fn bound_in(text: &str, name: &str, context: &Value) -> Binding {
    bound_by(&binding_tags(text), name, context)
}

/// A `{% … %}` tag that may bind names: a loop's targets and source, or the words of a
/// `set`, `with`, `macro`, `call`, `import` or `from`.
enum BindingTag<'t> {
    For { targets: Vec<&'t str>, source: &'t str },
    Other { words: Vec<&'t str> },
}

/// The tags of a template that may bind names, in order: read once for every name.
fn binding_tags(text: &str) -> Vec<BindingTag<'_>> {
    let mut tags = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{%") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("%}") else { break };
        let tag = after[..close].trim().trim_start_matches(['-', '+']).trim_start();
        rest = &after[close..];
        let words: Vec<&str> = tag
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        match words.first().copied() {
            Some("for") => {
                let Some((targets, source)) = tag["for".len()..].split_once(" in ") else {
                    continue;
                };
                let targets = targets.split(',').map(str::trim).collect();
                let source = source.split_whitespace().next().unwrap_or_default();
                tags.push(BindingTag::For { targets, source });
            }
            Some("set" | "with" | "macro" | "call" | "import" | "from") => {
                tags.push(BindingTag::Other { words })
            }
            _ => {}
        }
    }
    tags
}

/// What the template's `tags` bind `name` to.
fn bound_by(tags: &[BindingTag], name: &str, context: &Value) -> Binding {
    if ["loop", "caller", "self", "super", "varargs", "kwargs", "namespace", "range", "dict"]
        .contains(&name)
    {
        return Binding::Unknown;
    }
    let mut found = Binding::Unbound;
    for tag in tags {
        match tag {
            BindingTag::For { targets, source } => {
                if !targets.contains(&name) {
                    continue;
                }
                let list = source.split('.').try_fold(context.clone(), |v, key| {
                    v.get_attr(key).ok().filter(|v| !v.is_undefined())
                });
                let first =
                    list.filter(|_| targets.len() == 1).and_then(|l| l.try_iter().ok()?.next());
                found = match first {
                    Some(item) if !item.is_undefined() => Binding::Known(item),
                    _ => Binding::Unknown,
                };
                if matches!(found, Binding::Unknown) {
                    return found;
                }
            }
            BindingTag::Other { words } if words.contains(&name) => return Binding::Unknown,
            BindingTag::Other { .. } => {}
        }
    }
    found
}

/// The keys of a map value (the fields of `card`, the names of the context).
fn keys(value: &Value) -> Vec<String> {
    if value.kind() != ValueKind::Map {
        return Vec::new();
    }
    value
        .try_iter()
        .map(|keys| keys.filter_map(|k| k.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// "did you mean `suit_name`?" for the closest of `candidates`, if close enough.
fn closest(name: &str, candidates: Vec<String>) -> Option<String> {
    crate::diag::closest(name, candidates.iter().map(String::as_str))
        .map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Value {
        let card =
            Value::from_iter([("suit", Value::from("Red")), ("suit_name", Value::from("Comet"))]);
        let rows = Value::from(vec![Value::from_iter([("label", "Total")])]);
        Value::from_iter([
            ("card", card),
            ("rows", rows),
            ("style", Value::from_iter([("ink", "#000")])),
        ])
    }

    fn found(text: &str, range: Range<usize>) -> (String, String, Option<String>) {
        let u = undefined_at(text, range, &context()).expect("found");
        (text[u.span].to_string(), u.expression, u.hint)
    }

    #[test]
    fn a_misspelt_field_is_named_with_the_closest_one() {
        let text = "<t>{{ card.suit_nmae | upper }}</t>";
        let upper = text.find("upper").unwrap();
        let (at, expression, hint) = found(text, upper..upper + 5);
        assert_eq!((at.as_str(), expression.as_str()), ("card.suit_nmae", "card.suit_nmae"));
        assert_eq!(hint.as_deref(), Some("did you mean `suit_name`?"));
    }

    #[test]
    fn an_unknown_root_and_a_loop_variable() {
        let text = "{% if crad.suit == 'x' %}y{% endif %}";
        assert_eq!(found(text, 3..24).1, "crad");
        assert_eq!(found(text, 3..24).2.as_deref(), Some("did you mean `card`?"));
        let text = "{% for r in rows %}{{ r.lable }}{% endfor %}";
        let at = text.find("r.lable").unwrap();
        assert_eq!(found(text, at..at + 7).2.as_deref(), Some("did you mean `label`?"));
    }

    #[test]
    fn a_missing_key_names_the_whole_expression() {
        let text = "<t>{{- style[card.suit] }}</t>";
        let at = text.find("[card").unwrap();
        let (at, expression, hint) = found(text, at..at + 11);
        assert_eq!(
            (at.as_str(), expression.as_str(), hint),
            ("style[card.suit]", "style[card.suit]", None)
        );
    }

    #[test]
    fn tests_filters_and_strings_are_not_names() {
        let paths = name_paths(" card.x is not defined and 'a.b' | upper and fail('x') ");
        let names: Vec<String> = paths
            .iter()
            .map(|p| p.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join("."))
            .collect();
        assert_eq!(names, ["card.x"]);
    }
}
