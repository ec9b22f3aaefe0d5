//! The `sequence` check: a field whose values run `start, start + 1, …` with no gap or
//! repeat, over a rule's cards or each group of them. Its reports say what is missing in
//! plain words ("number 13 is missing"), not which values are "out of order".

use std::collections::BTreeMap;

use super::{designs, CardRef, Checking};
use crate::diag::Diagnostic;

/// The rows' values of `field` must run `start, start + 1, …` with no gap or repeat.
/// Repeats and non-numbers are reported at their cell; gaps at the rule, in plain words
/// ("number 13 is missing"), with any value outside the run named beside them.
pub(super) fn check_sequence(
    checking: Checking,
    cards: &[&CardRef],
    (field, start): (&str, i64),
    group: Option<(&str, &str)>,
    diags: &mut Vec<Diagnostic>,
) {
    let Checking { cat, rule, at } = checking;
    let scope = match group {
        Some((each, value)) => format!(" for {each} `{value}`"),
        None => String::new(),
    };
    let mut seen: BTreeMap<i64, &CardRef> = BTreeMap::new();
    for card in designs(cards.iter().copied()) {
        let text = card.row.value(field);
        let span = card.row.spans.get(field).unwrap_or(card.row.span.clone());
        match text.parse::<i64>() {
            Err(_) => diags.push(
                Diagnostic::new(
                    card.file,
                    Some(span),
                    format!(
                        "rule \"{}\" failed: {field} `{text}` is not a whole number",
                        rule.name
                    ),
                )
                .with_note(at.to_string()),
            ),
            Ok(v) => {
                if let Some(first) = seen.insert(v, card) {
                    let first_at = cat.sources.row_name(first.file, first.row.span.start);
                    diags.push(
                        Diagnostic::new(
                            card.file,
                            Some(span),
                            format!(
                                "rule \"{}\" failed{scope}: {field} {v} appears twice",
                                rule.name
                            ),
                        )
                        .with_note(format!("first on {first_at}"))
                        .with_note(at.to_string()),
                    );
                }
            }
        }
    }
    if seen.is_empty() {
        if group.is_some() {
            // A declared value with no card at all: the whole run is missing.
            let message = format!(
                "rule \"{}\" failed{scope}: no card has it, so {field} {start} is missing",
                rule.name
            );
            diags.push(Diagnostic::new(&cat.game_toml, Some(rule.span.clone()), message));
        }
        return;
    }
    let Some(run) = run_of(&seen.keys().copied().collect::<Vec<_>>(), start) else {
        return;
    };
    let mut message = format!("rule \"{}\" failed{scope}: ", rule.name);
    if !run.missing.is_empty() {
        let verb = if run.missing.len() == 1 { "is" } else { "are" };
        message.push_str(&format!("{field} {} {verb} missing", list_numbers(&run.missing)));
    }
    if !run.outside.is_empty() {
        if !run.missing.is_empty() {
            message.push_str("; ");
        }
        let verb = if run.outside.len() == 1 { "is" } else { "are" };
        message.push_str(&format!(
            "{field} {} {verb} outside {start} to {}",
            list_numbers(&run.outside),
            run.end
        ));
    }
    let mut d = Diagnostic::new(&cat.game_toml, Some(rule.span.clone()), message)
        .with_note(format!("found {}", ranges(seen.keys().copied())));
    for v in &run.outside {
        let card = seen[v];
        let at = cat.sources.file_row_name(card.file, card.row.span.start);
        d = d.with_note(format!("{field} {v} is card `{}`, {at}", card.row.id));
    }
    diags.push(d);
}

/// What is wrong with a run of distinct numbers that should be `start, start + 1, …`.
#[derive(Debug, PartialEq)]
struct Run {
    end: i64,
    missing: Vec<i64>,
    outside: Vec<i64>,
}

/// `None` when `values` (sorted, distinct) run from `start` without a gap. A run is as long
/// as there are values, unless reaching the largest value costs no more gaps than that
/// length leaves: a card left out of 2 … 10 says "7 is missing", not "7 is missing and 10
/// is too far"; a 13 mistyped as 31 says "13 is missing, 31 is outside 1 to 24".
fn run_of(values: &[i64], start: i64) -> Option<Run> {
    // Saturating: a start near i64's ends is data, and must not wrap round.
    let by_count = start.saturating_add(values.len() as i64 - 1);
    let largest = *values.last()?;
    // The gaps listed are those among the values' own span, at most as many as there are
    // values besides: the walk from `start` is bounded whatever `start` is.
    let gaps = |end: i64| {
        let mut gaps = Vec::new();
        let mut expected = start;
        for &v in values.iter().filter(|v| (start..=end).contains(*v)) {
            while expected < v && gaps.len() <= values.len() {
                gaps.push(expected);
                expected += 1;
            }
            expected = v.saturating_add(1);
        }
        while expected <= end && gaps.len() <= values.len() {
            gaps.push(expected);
            if expected == i64::MAX {
                break;
            }
            expected += 1;
        }
        gaps
    };
    let counted = gaps(by_count);
    let end = if largest > by_count
        && largest.saturating_sub(start) < 10_000
        && gaps(largest).len() <= counted.len()
    {
        largest
    } else {
        by_count
    };
    let missing = if end == by_count { counted } else { gaps(end) };
    let outside: Vec<i64> = values.iter().copied().filter(|v| *v < start || *v > end).collect();
    (!missing.is_empty() || !outside.is_empty()).then_some(Run { end, missing, outside })
}

/// "13", "4 and 5", "4, 5 and 9"; long lists end in "… and 12 more".
fn list_numbers(values: &[i64]) -> String {
    let shown: Vec<String> = values.iter().take(10).map(i64::to_string).collect();
    match (shown.as_slice(), values.len()) {
        ([one], 1) => one.clone(),
        (_, n) if n > 10 => format!("{} and {} more", shown.join(", "), n - 10),
        ([rest @ .., last], _) => format!("{} and {last}", rest.join(", ")),
        _ => String::new(),
    }
}

/// "1 to 12, 14 to 24 and 31" for sorted distinct values.
fn ranges(values: impl IntoIterator<Item = i64>) -> String {
    let mut spans: Vec<(i64, i64)> = Vec::new();
    for v in values {
        match spans.last_mut() {
            Some((_, end)) if *end + 1 == v => *end = v,
            _ => spans.push((v, v)),
        }
    }
    let parts: Vec<String> = spans
        .iter()
        .flat_map(|&(a, b)| match b - a {
            0 => vec![a.to_string()],
            1 => vec![a.to_string(), b.to_string()],
            _ => vec![format!("{a} to {b}")],
        })
        .collect();
    crate::diag::and_list(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_at_the_ends_of_the_numbers_is_bounded_work_and_no_wrap() {
        let run = run_of(&[1, 2, 3], i64::MIN).unwrap();
        assert_eq!(run.outside, vec![1, 2, 3]);
        assert!(run.missing.len() <= 4, "{:?}", run.missing.len());
        let run = run_of(&[i64::MAX - 1, i64::MAX], i64::MAX - 2).unwrap();
        assert_eq!(run.missing, vec![i64::MAX - 2]);
        assert_eq!(run.outside, vec![i64::MAX]);
    }

    #[test]
    fn a_left_out_value_is_missing_not_out_of_order() {
        let run = run_of(&[2, 3, 4, 5, 6, 8, 9, 10], 2).unwrap();
        assert_eq!(run, Run { end: 10, missing: vec![7], outside: vec![] });
    }

    #[test]
    fn a_mistyped_value_is_missing_and_outside() {
        let values: Vec<i64> = (1..=24).filter(|v| *v != 13).chain([31]).collect();
        assert_eq!(
            run_of(&values, 1).unwrap(),
            Run { end: 24, missing: vec![13], outside: vec![31] }
        );
        assert_eq!(
            run_of(&[18, 19, 20, 21, 22, 23], 19).unwrap(),
            Run { end: 24, missing: vec![24], outside: vec![18] }
        );
        assert_eq!(run_of(&[1, 2, 3], 1), None);
    }

    #[test]
    fn lists_read_as_words() {
        assert_eq!(list_numbers(&[4, 5, 9]), "4, 5 and 9");
        assert_eq!(ranges([1, 2, 3, 5, 7, 8]), "1 to 3, 5, 7 and 8");
    }
}
