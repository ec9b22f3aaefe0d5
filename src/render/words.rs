//! Filters for words that follow a number or a list, so that a rows file holds data and
//! no grammar: `{{ card.run | ordinal }}` (1st, 2nd …), `{{ "point" | plural(card.run) }}`
//! and `{{ players | join_words("or") }}` ("2, 3 or 4", an error when the list is empty).

use minijinja::value::Value;
use minijinja::{Environment, Error, ErrorKind};

/// Adds `ordinal`, `plural` and `join_words` to an environment.
pub fn add(env: &mut Environment<'_>) {
    env.add_filter("ordinal", |n: Value| -> Result<String, Error> {
        whole(&n, "ordinal").map(ordinal)
    });
    env.add_filter(
        "plural",
        |word: String, n: Value, many: Option<String>| -> Result<String, Error> {
            Ok(match whole(&n, "plural")? {
                1 | -1 => word,
                _ => many.unwrap_or_else(|| format!("{word}s")),
            })
        },
    );
    env.add_filter(
        "join_words",
        |items: Vec<Value>, last: Option<String>| -> Result<String, Error> {
            join_words(&items.iter().map(Value::to_string).collect::<Vec<_>>(), last.as_deref())
        },
    );
}

/// A whole number from an integer or a cell holding one (`"3"`).
fn whole(n: &Value, filter: &str) -> Result<i64, Error> {
    i64::try_from(n.clone())
        .ok()
        .or_else(|| n.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidOperation,
                format!("{filter} needs a whole number, not `{n}`"),
            )
        })
}

/// 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 101st, 111th.
pub fn ordinal(n: i64) -> String {
    let (tens, units) = (n.unsigned_abs() % 100, n.unsigned_abs() % 10);
    let suffix = match (tens, units) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A list named in a sentence: "A", "A and B", "A, B and C" (`last` instead of "and").
/// An empty list is an error: the sentence around it would name nothing ("only with
/// players,"), and a page must not print that.
pub fn join_words(items: &[String], last: Option<&str>) -> Result<String, Error> {
    let last = last.unwrap_or("and");
    match items {
        [] => Err(Error::new(
            ErrorKind::InvalidOperation,
            "join_words: the list is empty, so the sentence around it names nothing; \
             reword the sentence for this data, or test the list with {% if … %} first",
        )),
        [one] => Ok(one.clone()),
        [init @ .., end] => Ok(format!("{} {last} {end}", init.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_follow_english_including_the_teens() {
        let got: Vec<String> =
            [1, 2, 3, 4, 10, 11, 12, 13, 14, 21, 22, 23, 101, 111, 112].map(ordinal).to_vec();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "14th", "21st", "22nd",
                "23rd", "101st", "111th", "112th"
            ]
        );
    }

    #[test]
    fn a_list_in_a_sentence_reads_as_words_and_an_empty_one_is_an_error() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(join_words(&s(&["6"]), Some("or")).unwrap(), "6");
        assert_eq!(join_words(&s(&["5", "6"]), Some("or")).unwrap(), "5 or 6");
        assert_eq!(join_words(&s(&["2", "4", "6"]), None).unwrap(), "2, 4 and 6");
        let err = join_words(&[], Some("or")).unwrap_err();
        assert!(err.to_string().contains("the list is empty"), "{err}");
    }

    #[test]
    fn filters_fill_as_a_designer_writes_them() {
        let mut env = Environment::new();
        add(&mut env);
        let fill = |t: &str| env.render_str(t, minijinja::context! { n => 1, m => "3" });
        assert_eq!(fill("{{ n | ordinal }} {{ m | ordinal }}").unwrap(), "1st 3rd");
        assert_eq!(
            fill("{{ 'point' | plural(n) }} {{ 'point' | plural(m) }}").unwrap(),
            "point points"
        );
        assert_eq!(fill("{{ 'penny' | plural(m, 'pence') }}").unwrap(), "pence");
        assert!(fill("{{ 'x' | ordinal }}").unwrap_err().to_string().contains("whole number"));
        assert!(fill("{{ [] | join_words('or') }}").is_err());
    }
}
