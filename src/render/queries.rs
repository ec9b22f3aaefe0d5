//! Queries: what templates (and text cells written as templates) may ask the catalogue,
//! so that printed text follows the data: `count(deck=, where=)`, `cards(deck=, where=)`,
//! `values(field)`, `sum(deck=, field=)` and `deals`. A deck, field or value the
//! catalogue does not have is an error at the template line that asks for it.

use std::sync::Arc;

use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind};

use crate::model::{Catalogue, FieldKind};

/// What the queries answer from: each deck's rows as templates see them, the fields and
/// the deal table, taken once from the validated catalogue.
struct Data {
    decks: Vec<(String, Vec<Value>)>,
    fields: Vec<FieldValues>,
    /// Each query's rows, asked once: every card of a deck tends to ask the same, and a
    /// scan of every row for every card made a 20,000-card deck quadratic.
    answered: std::sync::Mutex<rustc_hash::FxHashMap<String, Arc<Answer>>>,
    /// Each `count()` and `sum()` worked out, by its query: summing a deck's quantities
    /// for every card that prints it was quadratic too.
    totals: std::sync::Mutex<rustc_hash::FxHashMap<String, i64>>,
}

/// The rows a query picks, and when it picks none, what is said about it: worked out
/// once, as every card that asks it would otherwise look through the deck again.
struct Answer {
    picked: Arc<Vec<usize>>,
    nothing: std::sync::OnceLock<String>,
}

/// Values one `where` list may hold: far beyond a game's, short of a hang.
const MAX_WHERE_VALUES: usize = 1_000;

/// A field and its values in order: an enum's as declared, others' as the rows give them.
struct FieldValues {
    name: String,
    declared: Option<Vec<String>>,
    met: Vec<String>,
}

impl FieldValues {
    fn values(&self) -> &[String] {
        self.declared.as_deref().unwrap_or(&self.met)
    }
}

/// Adds the query functions and `deals` to an environment.
pub fn add(
    env: &mut Environment<'_>,
    cat: &Catalogue,
    row_value: impl Fn(&crate::model::Row) -> Value,
) {
    // The whole game's decks and deals, also when only part of it is built (`--only`).
    let (all_decks, all_deals) = cat.queried();
    let all_rows = cat.queried_rows();
    let decks: Vec<(String, Vec<Value>)> = all_rows
        .iter()
        .map(|(id, rows)| (id.to_string(), rows.iter().map(&row_value).collect()))
        .collect();
    let fields = cat
        .fields
        .iter()
        .map(|f| {
            let declared = match &f.kind {
                FieldKind::Enum(values) => Some(values.clone()),
                _ => None,
            };
            let mut met: Vec<String> = Vec::new();
            let mut seen: rustc_hash::FxHashSet<&str> = Default::default();
            for row in all_rows.iter().flat_map(|(_, rows)| rows.iter()) {
                let v = row.value(&f.name);
                if !v.is_empty() && seen.insert(v) {
                    met.push(v.to_string());
                }
            }
            FieldValues { name: f.name.clone(), declared, met }
        })
        .collect();
    let deals = Value::from_iter(all_deals.iter().map(|d| {
        Value::from_iter([
            ("players", Value::from(d.players)),
            ("hand", Value::from(d.hand)),
            ("table", Value::from(d.table)),
            ("deck", Value::from(all_decks.get(d.deck).map_or("", |deck| deck.id.as_str()))),
        ])
    }));
    let data =
        Arc::new(Data { decks, fields, answered: Default::default(), totals: Default::default() });
    env.add_global("deals", deals);
    let d = Arc::clone(&data);
    env.add_function("count", move |kwargs: Kwargs| -> Result<Value, Error> {
        // `each="suit"`: the count every suit has, refused when they differ, so that
        // "suits of 6 cards each" cannot print the first suit's count as every suit's.
        let each: Option<String> = kwargs.get("each")?;
        let (rows, picked, key) = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        if let Some(field) = each {
            d.field(&field)?;
            return each_count(&field, rows, &picked).map(Value::from);
        }
        d.total(format!("count\u{0}{key}"), || {
            let mut total = 0i64;
            for &i in picked.iter() {
                total = total.checked_add(qty(&rows[i])).ok_or_else(too_large)?;
            }
            Ok(total)
        })
    });
    let d = Arc::clone(&data);
    env.add_function("cards", move |kwargs: Kwargs| -> Result<Value, Error> {
        let (rows, picked, _) = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        Ok(Value::from_iter(picked.iter().map(|&i| rows[i].clone())))
    });
    let d = Arc::clone(&data);
    env.add_function("sum", move |kwargs: Kwargs| -> Result<Value, Error> {
        let field: String = kwargs.get("field")?;
        d.field(&field)?;
        let (rows, picked, key) = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        d.total(format!("sum\u{0}{field}\u{0}{key}"), || {
            let mut total = 0i64;
            for r in picked.iter().map(|&i| &rows[i]) {
                let v = r.get_attr(&field).unwrap_or_default();
                let n = i64::try_from(v.clone()).map_err(|_| {
                    invalid(format!(
                        "sum of `{field}`: card `{}` has `{v}`, not a whole number",
                        r.get_attr("id").unwrap_or_default()
                    ))
                })?;
                total =
                    n.checked_mul(qty(r)).and_then(|n| total.checked_add(n)).ok_or_else(|| {
                        // Past the largest number, or below the smallest: say which.
                        let (how, bound) =
                            if n < 0 { ("small", i64::MIN) } else { ("large", i64::MAX) };
                        invalid(format!(
                            "the sum of `{field}` is too {how} to print (past {bound})"
                        ))
                    })?;
            }
            Ok(total)
        })
    });
    let d = Arc::clone(&data);
    // `counts(each="suit")`: every suit's count, in order, for a text that names them
    // all ("suits of 6 to 7 cards") rather than one suit's for every suit.
    env.add_function("counts", move |kwargs: Kwargs| -> Result<Value, Error> {
        let field: String = kwargs.get("each")?;
        d.field(&field)?;
        let (rows, picked, _) = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        Ok(Value::from_iter(counts_by(&field, rows, &picked)?.into_iter().map(|(_, n)| n)))
    });
    let d = Arc::clone(&data);
    // `row("whole-suit", deck="pad")`: one row by its id, so that text elsewhere reads the
    // one copy of its data (`.info`) instead of repeating it.
    env.add_function("row", move |id: String, kwargs: Kwargs| -> Result<Value, Error> {
        let (rows, _, _) = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        let id_of = |r: &Value| r.get_attr("id").map(|v| v.to_string()).unwrap_or_default();
        rows.iter().find(|r| id_of(r) == id).cloned().ok_or_else(|| {
            let ids: Vec<String> = rows.iter().map(id_of).collect();
            invalid(format!(
                "no row `{id}`; {}the ids: {}",
                did_you_mean(&id, ids.iter().map(String::as_str)),
                crate::diag::accepted(ids.iter().take(20))
            ))
        })
    });
    let d = data;
    env.add_function("values", move |field: String| -> Result<Value, Error> {
        Ok(Value::from(d.field(&field)?.values().to_vec()))
    });
}

/// The number of cards each value of `field` has among the picked rows (cards without
/// one, like Jokers, left out), when every value has as many; otherwise an error naming
/// the counts and the values that differ from the most common one.
fn each_count(field: &str, rows: &[Value], picked: &[usize]) -> Result<i64, Error> {
    let groups = counts_by(field, rows, picked)?;
    let mut counts: Vec<i64> = groups.iter().map(|(_, n)| *n).collect();
    counts.sort_unstable();
    counts.dedup();
    match counts.as_slice() {
        [] => Err(invalid(format!("count(each=\"{field}\"): no card has a `{field}`"))),
        [n] => Ok(*n),
        _ => {
            let common = counts
                .iter()
                .copied()
                .max_by_key(|c| (groups.iter().filter(|(_, n)| n == c).count(), -c))
                .unwrap_or_default();
            let odd: Vec<String> = groups
                .iter()
                .filter(|(_, n)| *n != common)
                .take(5)
                .map(|(v, n)| format!("`{v}` has {n}"))
                .collect();
            let sizes: Vec<String> = counts.iter().map(i64::to_string).collect();
            Err(invalid(format!(
                "count(each=\"{field}\") says every `{field}` has as many cards, but they have {} ({}, the others {common}); reword the text for {field}s of different sizes",
                super::words::join_words(&sizes, Some("or")).unwrap_or_default(),
                odd.join(", ")
            )))
        }
    }
}

/// Each value of `field` among the picked rows, in the order they first come, with its
/// number of cards; rows without one (Jokers without a suit) are left out.
fn counts_by(field: &str, rows: &[Value], picked: &[usize]) -> Result<Vec<(String, i64)>, Error> {
    let mut groups: Vec<(String, i64)> = Vec::new();
    for r in picked.iter().map(|&i| &rows[i]) {
        let v = r.get_attr(field).map(|v| v.to_string()).unwrap_or_default();
        if v.is_empty() || v.eq_ignore_ascii_case("none") {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| *g == v) {
            Some((_, n)) => *n = n.checked_add(qty(r)).ok_or_else(too_large)?,
            None => groups.push((v, qty(r))),
        }
    }
    Ok(groups)
}

/// "did you mean `Spark`? " when one of `names` is close to `name`.
fn did_you_mean<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    crate::diag::closest(name, names).map_or_else(String::new, |c| format!("did you mean `{c}`? "))
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidOperation, message)
}

/// A `where` entry's values: a list's items (at most one past `MAX_WHERE_VALUES`, which
/// is refused), or the one value.
fn listed(value: &Value) -> Vec<String> {
    match value.try_iter() {
        Ok(items) if value.kind() != ValueKind::String => {
            items.take(MAX_WHERE_VALUES + 1).map(|v| v.to_string()).collect()
        }
        _ => vec![value.to_string()],
    }
}

fn too_many(field: &str) -> Error {
    invalid(format!(
        "`where` lists more than {MAX_WHERE_VALUES} values of `{field}`: ask for fewer, or for another field that picks the same cards"
    ))
}

fn too_large() -> Error {
    invalid(format!("the count is too large to print (past {})", i64::MAX))
}

fn qty(row: &Value) -> i64 {
    row.get_attr("qty").ok().and_then(|q| i64::try_from(q).ok()).unwrap_or(1)
}

/// A query's answer: the deck's rows, the places of those it picks, and the query written
/// out as the key its totals are kept under.
type Selected<'a> = (&'a [Value], Arc<Vec<usize>>, String);

impl Data {
    /// The total `key` names, worked out by `work` the first time it is asked for.
    fn total(
        &self,
        key: String,
        work: impl FnOnce() -> Result<i64, Error>,
    ) -> Result<Value, Error> {
        if let Some(total) = self.totals.lock().ok().and_then(|t| t.get(&key).copied()) {
            return Ok(Value::from(total));
        }
        let total = work()?;
        if let Ok(mut totals) = self.totals.lock() {
            totals.insert(key, total);
        }
        Ok(Value::from(total))
    }

    /// The error for a query that picks no card: which field's value no card of the
    /// deck has (with the closest one it has), or a field the deck has no column for.
    fn matches_nothing(
        &self,
        deck: Option<&str>,
        rows: &[Value],
        condition: Option<&Value>,
    ) -> String {
        let deck = deck.map_or_else(
            || self.decks.first().map_or_else(String::new, |(d, _)| d.clone()),
            str::to_string,
        );
        let mut why = Vec::new();
        for key in condition.and_then(|c| c.try_iter().ok()).into_iter().flatten() {
            let field = key.to_string();
            let asked = listed(&condition.and_then(|c| c.get_item(&key).ok()).unwrap_or_default());
            let (mut met, mut seen) = (Vec::new(), rustc_hash::FxHashSet::default());
            for r in rows {
                let v = r.get_attr(&field).map(|v| v.to_string()).unwrap_or_default();
                if !v.is_empty() && !v.eq_ignore_ascii_case("none") && seen.insert(v.clone()) {
                    met.push(v);
                }
            }
            if met.is_empty() {
                why.push(format!("deck `{deck}` has no `{field}` on any card"));
                continue;
            }
            for v in asked.iter().filter(|v| !seen.contains(*v)) {
                why.push(format!(
                    "no card of deck `{deck}` has `{field}` `{v}`; {}its values: {}",
                    did_you_mean(v, met.iter().map(String::as_str)),
                    crate::diag::accepted(met.iter().take(10))
                ));
            }
        }
        if why.is_empty() {
            why.push(format!("no card of deck `{deck}` has all of them"));
        }
        format!(
            "`where` matches no card: {}; if none is what you mean, say so with `empty=true`",
            why.join("; ")
        )
    }

    fn field(&self, name: &str) -> Result<&FieldValues, Error> {
        self.fields.iter().find(|f| f.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.fields.iter().map(|f| f.name.as_str()).collect();
            invalid(format!(
                "no field `{name}`; {}the fields: {}",
                did_you_mean(name, names.iter().copied()),
                crate::diag::accepted(&names)
            ))
        })
    }

    /// The rows of `deck=` (the first deck when not given) that match every field of
    /// `where=`, a value or a list of values: the deck's rows and the matching ones'
    /// places, worked out once per query.
    fn select(&self, kwargs: &Kwargs) -> Result<Selected<'_>, Error> {
        let deck: Option<String> = kwargs.get("deck")?;
        let rows = match &deck {
            None => self.decks.first().map(|(_, rows)| rows),
            Some(id) => self.decks.iter().find(|(d, _)| d == id).map(|(_, rows)| rows),
        }
        .ok_or_else(|| {
            let ids: Vec<&str> = self.decks.iter().map(|(d, _)| d.as_str()).collect();
            let deck = deck.clone().unwrap_or_default();
            invalid(format!(
                "no deck `{deck}`; {}the decks: {}",
                did_you_mean(&deck, ids.iter().copied()),
                crate::diag::accepted(&ids)
            ))
        })?;
        let condition: Option<Value> = kwargs.get("where")?;
        // `empty=true` says a query may match nothing; otherwise matching no card is a
        // mistake (a value no card has prints "0 Spark" without a word).
        let may_be_empty = kwargs.get::<Option<bool>>("empty")?.unwrap_or(false);
        // Checked before the query is written out as its key, which a huge list would make long.
        let too_long = condition.as_ref().and_then(|c| {
            c.try_iter().ok()?.find(|k| {
                c.get_item(k).ok().is_some_and(|v| {
                    v.kind() != ValueKind::String && v.len().unwrap_or(0) > MAX_WHERE_VALUES
                })
            })
        });
        if let Some(field) = too_long {
            return Err(too_many(&field.to_string()));
        }
        let key = format!("{deck:?}\u{0}{condition:?}");
        if let Some(answer) = self.answered.lock().ok().and_then(|a| a.get(&key).cloned()) {
            return self.answered_with(
                answer,
                (deck.as_deref(), rows, condition.as_ref()),
                key,
                may_be_empty,
            );
        }
        let mut wanted: Vec<(String, rustc_hash::FxHashSet<String>)> = Vec::new();
        if let Some(condition) = &condition {
            let keys = condition.try_iter().map_err(|_| {
                invalid(
                    "`where` is a map of fields to values: where={\"suit\": \"Red\"}".to_string(),
                )
            })?;
            for key in keys {
                let field = key.to_string();
                let known = self.field(&field)?;
                let value = condition.get_item(&key)?;
                let values = listed(&value);
                if values.len() > MAX_WHERE_VALUES {
                    return Err(too_many(&field));
                }
                // An enum's values are all known: one it does not have is a typo.
                for v in &values {
                    if known.declared.is_some() && !known.values().contains(v) {
                        return Err(invalid(format!(
                            "`{field}` has no value `{v}`; {}its values: {}",
                            did_you_mean(v, known.values().iter().map(String::as_str)),
                            crate::diag::accepted(known.values())
                        )));
                    }
                }
                wanted.push((field, values.into_iter().collect()));
            }
        }
        let picked: Vec<usize> = (0..rows.len())
            .filter(|&i| {
                wanted.iter().all(|(f, vs)| {
                    let v = rows[i].get_attr(f).map(|v| v.to_string()).unwrap_or_default();
                    vs.contains(&v)
                })
            })
            .collect();
        let answer = Arc::new(Answer { picked: Arc::new(picked), nothing: Default::default() });
        if let Ok(mut answered) = self.answered.lock() {
            answered.insert(key.clone(), Arc::clone(&answer));
        }
        self.answered_with(answer, (deck.as_deref(), rows, condition.as_ref()), key, may_be_empty)
    }

    /// A query's answer for the card asking: its rows, or, when it picks none and the
    /// call did not say `empty=true`, the error (said once, then repeated).
    fn answered_with<'a>(
        &self,
        answer: Arc<Answer>,
        (deck, rows, condition): (Option<&str>, &'a [Value], Option<&Value>),
        key: String,
        may_be_empty: bool,
    ) -> Result<Selected<'a>, Error> {
        if answer.picked.is_empty() && !may_be_empty {
            let why = answer.nothing.get_or_init(|| self.matches_nothing(deck, rows, condition));
            return Err(invalid(why.clone()));
        }
        Ok((rows, Arc::clone(&answer.picked), key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(suits: &[(&str, i64)]) -> Vec<Value> {
        suits
            .iter()
            .map(|(s, qty)| {
                Value::from_iter([("suit", Value::from(*s)), ("qty", Value::from(*qty))])
            })
            .collect()
    }

    #[test]
    fn each_counts_a_uniform_field_and_refuses_an_uneven_one() {
        let even = rows(&[("1", 3), ("1", 3), ("2", 6), ("", 2)]);
        assert_eq!(each_count("suit", &even, &[0, 1, 2, 3]).unwrap(), 6);
        let uneven = rows(&[("1", 6), ("2", 6), ("3", 7)]);
        let err = each_count("suit", &uneven, &[0, 1, 2]).unwrap_err().to_string();
        assert!(err.contains("they have 6 or 7 (`3` has 7, the others 6)"), "{err}");
        assert!(each_count("suit", &rows(&[("", 2)]), &[0]).is_err());
    }
}
