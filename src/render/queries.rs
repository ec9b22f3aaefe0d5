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
}

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
            for row in all_rows.iter().flat_map(|(_, rows)| rows.iter()) {
                let v = row.value(&f.name);
                if !v.is_empty() && !met.iter().any(|m| m == v) {
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
    let data = Arc::new(Data { decks, fields });
    env.add_global("deals", deals);
    let d = Arc::clone(&data);
    env.add_function("count", move |kwargs: Kwargs| -> Result<Value, Error> {
        let rows = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        Ok(Value::from(rows.iter().map(qty).sum::<i64>()))
    });
    let d = Arc::clone(&data);
    env.add_function("cards", move |kwargs: Kwargs| -> Result<Value, Error> {
        let rows = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        Ok(Value::from(rows))
    });
    let d = Arc::clone(&data);
    env.add_function("sum", move |kwargs: Kwargs| -> Result<Value, Error> {
        let field: String = kwargs.get("field")?;
        d.field(&field)?;
        let rows = d.select(&kwargs)?;
        kwargs.assert_all_used()?;
        let mut total = 0i64;
        for r in &rows {
            let v = r.get_attr(&field).unwrap_or_default();
            let n = i64::try_from(v.clone()).map_err(|_| {
                invalid(format!(
                    "sum of `{field}`: card `{}` has `{v}`, not a whole number",
                    r.get_attr("id").unwrap_or_default()
                ))
            })?;
            total += n * qty(r);
        }
        Ok(Value::from(total))
    });
    let d = data;
    env.add_function("values", move |field: String| -> Result<Value, Error> {
        Ok(Value::from(d.field(&field)?.values().to_vec()))
    });
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidOperation, message)
}

fn qty(row: &Value) -> i64 {
    row.get_attr("qty").ok().and_then(|q| i64::try_from(q).ok()).unwrap_or(1)
}

impl Data {
    fn field(&self, name: &str) -> Result<&FieldValues, Error> {
        self.fields.iter().find(|f| f.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.fields.iter().map(|f| f.name.as_str()).collect();
            invalid(format!("no field `{name}`; the fields: {}", crate::diag::accepted(names)))
        })
    }

    /// The rows of `deck=` (the first deck when not given) that match every field of
    /// `where=`: a value or a list of values.
    fn select(&self, kwargs: &Kwargs) -> Result<Vec<Value>, Error> {
        let deck: Option<String> = kwargs.get("deck")?;
        let rows = match &deck {
            None => self.decks.first().map(|(_, rows)| rows),
            Some(id) => self.decks.iter().find(|(d, _)| d == id).map(|(_, rows)| rows),
        }
        .ok_or_else(|| {
            let ids: Vec<&str> = self.decks.iter().map(|(d, _)| d.as_str()).collect();
            invalid(format!(
                "no deck `{}`; the decks: {}",
                deck.clone().unwrap_or_default(),
                crate::diag::accepted(ids)
            ))
        })?;
        let condition: Option<Value> = kwargs.get("where")?;
        let mut wanted: Vec<(String, Vec<String>)> = Vec::new();
        if let Some(condition) = condition {
            let keys = condition.try_iter().map_err(|_| {
                invalid(
                    "`where` is a map of fields to values: where={\"suit\": \"Red\"}".to_string(),
                )
            })?;
            for key in keys {
                let field = key.to_string();
                let known = self.field(&field)?;
                let value = condition.get_item(&key)?;
                let values: Vec<String> = match value.try_iter() {
                    Ok(items) if value.kind() != ValueKind::String => {
                        items.map(|v| v.to_string()).collect()
                    }
                    _ => vec![value.to_string()],
                };
                // An enum's values are all known: one it does not have is a typo.
                for v in &values {
                    if known.declared.is_some() && !known.values().contains(v) {
                        return Err(invalid(format!(
                            "`{field}` has no value `{v}`; its values: {}",
                            crate::diag::accepted(known.values())
                        )));
                    }
                }
                wanted.push((field, values));
            }
        }
        Ok(rows
            .iter()
            .filter(|r| {
                wanted.iter().all(|(f, vs)| {
                    let v = r.get_attr(f).map(|v| v.to_string()).unwrap_or_default();
                    vs.contains(&v)
                })
            })
            .cloned()
            .collect())
    }
}
