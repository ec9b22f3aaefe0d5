//! Stage `validate`: `Catalogue` → `Validated`. Checks the deck's composition against the
//! game's rules, which are data in game.toml, and the deal table against the deck.
//! Every broken rule is reported, each at the line a designer would edit.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

mod sequence;

use crate::diag::{Diagnostic, Failure};
use crate::model::{matches, Catalogue, Check, Collection, Row, Rule, Selection};
use sequence::check_sequence;

/// A catalogue that passed validation. Only `validate` can make one, so the render and
/// layout stages cannot be handed a deck that breaks its game's rules.
#[derive(Debug, Clone)]
pub struct Validated(Catalogue, Vec<Diagnostic>, crate::model::PrintVariant, Checked);

/// How many rules and deals validation checked: `--only` narrows the catalogue after,
/// and the summary still says what was checked.
#[derive(Debug, Clone, Copy)]
struct Checked {
    rules: usize,
    deals: usize,
}

impl Validated {
    pub fn catalogue(&self) -> &Catalogue {
        &self.0
    }

    /// What validation found that prints, but probably not as meant (a rule whose `where`
    /// selects no card).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.1
    }

    /// The line `validate` prints: "travfuda: valid — 62 cards in `cards`, …; N rules and
    /// M deals checked".
    pub fn summary(&self) -> String {
        let c = self.catalogue();
        // "62 cards in `cards`, 10 in `markers`": decks hold cards, tokens and aids alike.
        let decks: Vec<String> = c
            .decks
            .iter()
            .enumerate()
            .map(|(i, d)| {
                if i == 0 {
                    format!("{} cards in `{}`", d.card_count(), d.id)
                } else {
                    format!("{} in `{}`", d.card_count(), d.id)
                }
            })
            .collect();
        let sheets = if c.sheets.is_empty() {
            String::new()
        } else {
            format!(", {} sheet{}", c.sheets.len(), if c.sheets.len() == 1 { "" } else { "s" })
        };
        format!(
            "{}: valid — {}{sheets}; {} and {} checked",
            c.id,
            decks.join(", "),
            crate::diag::plural(self.3.rules, "rule"),
            crate::diag::plural(self.3.deals, "deal")
        )
    }

    /// The same catalogue with each deck's bleed set by `bleed` (a print service's, or
    /// `--bleed`): how far art reaches past the cut is a print option, not composition.
    pub fn with_bleed(
        mut self,
        bleed: impl Fn(&crate::model::Deck) -> crate::length::Length,
    ) -> Validated {
        // A label's art is clipped to its die-cut outline: it has no bleed to change.
        for deck in self.0.decks.iter_mut().filter(|d| d.labels.is_none()) {
            deck.bleed = bleed(deck);
        }
        self
    }

    /// The same catalogue printed as `variant` (`--ink-saver`): what its templates see as
    /// `print`, a print option like the bleed.
    pub fn with_variant(mut self, variant: crate::model::PrintVariant) -> Validated {
        self.2 = variant;
        self
    }

    /// What the templates see as `print`.
    pub fn variant(&self) -> crate::model::PrintVariant {
        self.2
    }

    /// The same catalogue with only the named decks and sheets, for building part of a
    /// game. Rules and deals were checked on the whole game and are dropped, since they
    /// may count pieces left out here. Unknown ids come back as the error.
    pub fn only(self, ids: &[String]) -> Result<Validated, Vec<String>> {
        let Validated(mut cat, warnings, variant, checked) = self;
        let known = |id: &String| {
            cat.decks.iter().any(|d| &d.id == id)
                || cat.sheets.iter().any(|s| &s.id == id)
                || cat.boxes.iter().any(|b| &b.id == id)
        };
        let unknown: Vec<String> = ids.iter().filter(|id| !known(id)).cloned().collect();
        if !unknown.is_empty() {
            return Err(unknown);
        }
        // Queries answer for the whole game: what they count is kept aside.
        if cat.whole.is_none() && cat.asks_queries() {
            let whole = crate::model::WholeGame {
                decks: cat.decks.clone(),
                deals: cat.deals.clone(),
                sheets: cat.sheets.iter().map(|s| (s.id.clone(), s.rows.clone())).collect(),
            };
            cat.whole = Some(std::sync::Arc::new(whole));
        }
        cat.decks.retain(|d| ids.contains(&d.id));
        cat.sheets.retain(|s| ids.contains(&s.id));
        cat.boxes.retain(|b| ids.contains(&b.id));
        cat.rules.clear();
        cat.deals.clear();
        Ok(Validated(cat, warnings, variant, checked))
    }
}

/// Failures of one rule reported one by one; the rest are counted.
const MAX_REPORTS_PER_RULE: usize = 20;

/// Checks every rule and deal; returns all problems at once (warnings among them, when
/// there is an error).
pub fn validate(catalogue: Catalogue) -> Result<Validated, Failure> {
    validate_keeping(catalogue).map_err(|rejected| Failure::Invalid(rejected.0, rejected.1.sources))
}

/// `validate`, giving the catalogue back with the problems when it is invalid (its
/// templates can then still be checked).
pub fn validate_keeping(
    catalogue: Catalogue,
) -> Result<Validated, Box<(Vec<Diagnostic>, Catalogue)>> {
    let mut diags = Vec::new();
    for rule in &catalogue.rules {
        let before = diags.len();
        check_rule(&catalogue, rule, &mut diags);
        // A rule broken by every card of a 100,000-card deck is reported a few times, then
        // counted: the first reports show the pattern, the count the extent.
        if diags.len() - before > MAX_REPORTS_PER_RULE {
            let more = diags.len() - before - MAX_REPORTS_PER_RULE;
            diags.truncate(before + MAX_REPORTS_PER_RULE);
            let (line, _) =
                catalogue.sources.line_col(&catalogue.game_toml, rule.span.start).unwrap_or((0, 0));
            diags.push(Diagnostic::new(&catalogue.game_toml, Some(rule.span.clone()), format!("rule \"{}\" failed {more} more times", rule.name)).with_note(format!("only the first {MAX_REPORTS_PER_RULE} failures of the rule at line {line} are shown")));
        }
    }
    check_deals(&catalogue, &mut diags);
    if diags.iter().any(Diagnostic::is_error) {
        Err(Box::new((diags, catalogue)))
    } else {
        let checked = Checked { rules: catalogue.rules.len(), deals: catalogue.deals.len() };
        Ok(Validated(catalogue, diags, Default::default(), checked))
    }
}

/// A card of the catalogue with where it came from.
struct CardRef<'a> {
    row: &'a Row,
    file: &'a Path,
    /// The deck or sheet it is a piece of.
    collection: Collection,
}

/// The pieces a selection picks, one entry per physical piece (quantities exploded), in
/// file order.
fn select<'a>(cat: &'a Catalogue, selection: &Selection) -> Vec<CardRef<'a>> {
    selection
        .collections
        .iter()
        .flat_map(|&c| {
            let (rows, file) = cat.rows_of(c);
            crate::model::copies(rows).map(move |(_, row)| CardRef { row, file, collection: c })
        })
        .filter(|c| selection.includes(c.row))
        .collect()
}

fn check_rule(cat: &Catalogue, rule: &Rule, diags: &mut Vec<Diagnostic>) {
    let cards = select(cat, &rule.scope);
    let at = rule_location(cat, &rule.span);
    if cards.is_empty() && !rule.scope.filter.is_empty() && !zero_passes(&rule.check) {
        let ids: Vec<&str> = rule.scope.collections.iter().map(|&c| cat.collection_id(c)).collect();
        diags.push(
            Diagnostic::warning(
                &cat.game_toml,
                Some(rule.span.clone()),
                format!("rule \"{}\" selects no card", rule.name),
            )
            .with_note(format!(
                "no card of {} matches its `where`{}, so the rule checks nothing",
                crate::diag::accepted(ids),
                if rule.scope.unless.is_empty() { "" } else { " and `unless`" }
            )),
        );
    }

    let checking = Checking { cat, rule, at: &at };
    match &rule.check {
        Check::Count { each: None, min, max } => {
            check_count(checking, &cards.iter().collect::<Vec<_>>(), (*min, *max), None, diags);
        }
        Check::Count { each: Some(field), min, max } => {
            for (value, group) in groups(cat, rule, &cards, field) {
                check_count(checking, &group, (*min, *max), Some((field, &value)), diags);
            }
        }
        Check::Unique(fields) => {
            // Designs, not copies: the copies of one row (its qty) are one design.
            let mut seen: BTreeMap<Vec<&str>, &CardRef> = BTreeMap::new();
            // The first repeat is reported at its row; the others are counted, not left
            // unsaid (tests/stranger/hang-quadratic/unique-rule-broken-by-1480-cards).
            let (mut report, mut more) = (None, 0);
            for card in designs(&cards) {
                let key: Vec<&str> = fields
                    .iter()
                    .map(|f| if f == "id" { card.row.id.as_str() } else { card.row.value(f) })
                    .collect();
                let Some(first) = seen.get(&key) else {
                    seen.insert(key, card);
                    continue;
                };
                if report.is_some() {
                    more += 1;
                    continue;
                }
                let what = describe_key(fields, &key);
                let message = format!("rule \"{}\" failed: two cards have {what}", rule.name);
                let first_at = if first.file == card.file {
                    cat.sources.row_name(first.file, first.row.span.start)
                } else {
                    cat.sources.file_row_name(first.file, first.row.span.start)
                };
                report = Some(
                    Diagnostic::new(card.file, Some(card.row.span.clone()), message)
                        .with_note(format!("the first is on {first_at}"))
                        .with_note(at.clone()),
                );
            }
            if let Some(report) = report {
                diags.push(match more {
                    0 => report,
                    n => report.with_note(format!(
                        "and {n} more card designs repeat one seen before them"
                    )),
                });
            }
        }
        Check::Require(required) => {
            for card in cards.iter().filter(|c| !matches(required, c.row)) {
                let (field, values) = required
                    .iter()
                    .find(|(f, vs)| !vs.iter().any(|v| v == card.row.value(f)))
                    .expect("a non-matching card fails some field");
                let span = card.row.spans.get(field).unwrap_or(card.row.span.clone());
                let message = format!(
                    "rule \"{}\" failed: card `{}` has {field} `{}`, expected {}",
                    rule.name,
                    card.row.id,
                    card.row.value(field),
                    values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(" or ")
                );
                diags.push(Diagnostic::new(card.file, Some(span), message).with_note(at.clone()));
            }
            diags.dedup(); // one report per row, not per copy
        }
        Check::Equal(others) => {
            let n = cards.len();
            for other in others {
                let m = select(cat, other).len();
                if m != n {
                    let message = format!(
                        "rule \"{}\" failed: {} has {n} but {} has {m}",
                        rule.name,
                        describe_selection(cat, &rule.scope),
                        describe_selection(cat, other)
                    );
                    diags.push(
                        Diagnostic::new(&cat.game_toml, Some(rule.span.clone()), message)
                            .with_note("these counts must be equal"),
                    );
                }
            }
        }
        Check::Sequence { each: None, field, start } => {
            let cards = cards.iter().collect::<Vec<_>>();
            check_sequence(checking, &cards, (field, *start), None, diags);
        }
        Check::Sequence { each: Some(each), field, start } => {
            for (value, group) in groups(cat, rule, &cards, each) {
                check_sequence(checking, &group, (field, *start), Some((each, &value)), diags);
            }
        }
    }
}

/// Whether a rule holds when it selects nothing on purpose ("no scoring line lacks its
/// points": `count = 0`, or `at_most`), so an empty selection is no sign of a mistake.
fn zero_passes(check: &Check) -> bool {
    matches!(check, Check::Count { min: None | Some(0), .. })
}

/// The cards of a rule split by the value of `field`, in the field's declared order for an
/// enum (so a value with no cards at all is a group too, and reported), else as met;
/// values the rule's own `where`/`unless` leave out are no group. Cards with the field
/// empty belong to no group.
fn groups<'c, 'a>(
    cat: &Catalogue,
    rule: &Rule,
    cards: &'c [CardRef<'a>],
    field: &str,
) -> Vec<(String, Vec<&'c CardRef<'a>>)> {
    let mut groups: BTreeMap<&str, Vec<&CardRef>> = BTreeMap::new();
    let declared = cat.fields.iter().find(|f| f.name == field).and_then(|f| match &f.kind {
        crate::model::FieldKind::Enum(values) => Some(values.clone()),
        _ => None,
    });
    let mut order: Vec<String> = declared.unwrap_or_default();
    // A set beside the ordered list: 100,000 distinct values stay linear.
    let mut seen: std::collections::HashSet<String> = order.iter().cloned().collect();
    for card in cards {
        let value = if field == "id" { card.row.id.as_str() } else { card.row.value(field) };
        if value.is_empty() {
            continue;
        }
        if seen.insert(value.to_string()) {
            order.push(value.to_string());
        }
        groups.entry(value).or_default().push(card);
    }
    order
        .into_iter()
        .filter(|v| {
            !v.is_empty() && !rule.scope.unless.iter().any(|(f, vs)| f == field && vs.contains(v))
        })
        .filter(|v| !rule.scope.filter.iter().any(|(f, vs)| f == field && !vs.contains(v)))
        .map(|v| {
            let group = groups.get(v.as_str()).cloned().unwrap_or_default();
            (v, group)
        })
        .collect()
}

/// One entry per row: the copies of a row (its qty) follow each other in a selection.
fn designs<'c, 'a>(cards: impl IntoIterator<Item = &'c CardRef<'a>>) -> Vec<&'c CardRef<'a>>
where
    'a: 'c,
{
    let mut out: Vec<&CardRef> = Vec::new();
    for card in cards {
        if out.last().is_none_or(|last| !std::ptr::eq(last.row, card.row)) {
            out.push(card);
        }
    }
    out
}

/// "deck `cards` where kind = Trump", for messages comparing selections.
fn describe_selection(cat: &Catalogue, s: &Selection) -> String {
    let ids: Vec<&str> = s.collections.iter().map(|&c| cat.collection_id(c)).collect();
    let mut text = format!("`{}`", ids.join("` + `"));
    let cond = |c: &crate::model::Condition| {
        c.iter().map(|(f, vs)| format!("{f} = {}", vs.join("|"))).collect::<Vec<_>>().join(", ")
    };
    if !s.filter.is_empty() {
        text.push_str(&format!(" where {}", cond(&s.filter)));
    }
    if !s.unless.is_empty() {
        text.push_str(&format!(" unless {}", cond(&s.unless)));
    }
    text
}

/// One rule being checked: the catalogue, the rule, and where it is written (the note a
/// report at a card ends with).
#[derive(Clone, Copy)]
struct Checking<'a> {
    cat: &'a Catalogue,
    rule: &'a Rule,
    at: &'a str,
}

/// The rule's cards (of one `group`, for `each`) number between `min` and `max`.
fn check_count(
    checking: Checking,
    cards: &[&CardRef],
    (min, max): (Option<u32>, Option<u32>),
    group: Option<(&str, &str)>,
    diags: &mut Vec<Diagnostic>,
) {
    let Checking { cat, rule, at } = checking;
    let n = cards.len() as u32;
    let too_few = min.is_some_and(|m| n < m);
    let too_many = max.is_some_and(|m| n > m);
    if !too_few && !too_many {
        return;
    }
    let scope = match group {
        Some((field, value)) => format!(" for {field} `{value}`"),
        None => String::new(),
    };
    let expected = match (min, max) {
        (Some(a), Some(b)) if a == b => format!("exactly {a}"),
        (Some(a), Some(b)) => format!("between {a} and {b}"),
        (Some(a), None) => format!("at least {a}"),
        (None, Some(b)) => format!("at most {b}"),
        (None, None) => unreachable!("a count rule has a bound"),
    };
    // Decks hold cards (and tokens); sheets hold items (board spaces, pad lines).
    let only_sheets =
        rule.scope.collections.iter().all(|c| matches!(c, crate::model::Collection::Sheet(_)));
    let noun = match (only_sheets, min.or(max) == Some(1)) {
        (false, true) => "card",
        (false, false) => "cards",
        (true, true) => "item",
        (true, false) => "items",
    };
    let message =
        format!("rule \"{}\" failed{scope}: expected {expected} {noun}, found {n}", rule.name);
    let lines = card_lines(cat, cards);
    let found = if lines.is_empty() {
        "no card matches".to_string()
    } else {
        format!("matching cards: {lines}")
    };
    let spread = spread_over_decks(cat, rule, cards);
    let d = if too_many {
        // Point at the first card over the limit: the line the designer most likely added.
        let extra = cards[max.unwrap_or(0) as usize];
        Diagnostic::new(extra.file, Some(extra.row.span.clone()), message)
            .with_note(found)
            .with_note(at.to_string())
    } else {
        Diagnostic::new(&cat.game_toml, Some(rule.span.clone()), message).with_note(found)
    };
    diags.push(match spread {
        Some(note) => d.with_note(note),
        None => d,
    });
}

/// For a rule with no `deck =` whose cards come from several decks (a label sheet's rows
/// count too): how many each gave, and how to count one.
fn spread_over_decks(cat: &Catalogue, rule: &Rule, cards: &[&CardRef]) -> Option<String> {
    if rule.scope.collections.len() < 2 {
        return None;
    }
    let counts: Vec<(Collection, usize)> = rule
        .scope
        .collections
        .iter()
        .map(|&c| (c, cards.iter().filter(|card| card.collection == c).count()))
        .filter(|&(_, n)| n > 0)
        .collect();
    let [(first, _), _, ..] = counts[..] else { return None };
    let each: Vec<String> =
        counts.iter().map(|&(c, n)| format!("{n} in `{}`", cat.collection_id(c))).collect();
    Some(format!(
        "this rule has no `deck =`, so it counts every deck's cards: {}; `deck = \"{}\"` counts one deck",
        each.join(", "),
        cat.collection_id(first)
    ))
}

fn check_deals(cat: &Catalogue, diags: &mut Vec<Diagnostic>) {
    for deal in &cat.deals {
        let deck = &cat.decks[deal.deck];
        let total = deck.card_count();
        // u64: absurd numbers in a deal table are reported, not overflowed.
        let needed = deal.players as u64 * deal.hand as u64 + deal.table as u64;
        let total = total as u64;
        if needed > total {
            diags.push(Diagnostic::new(
                &cat.game_toml,
                Some(deal.span.clone()),
                format!(
                    "the deal for {} players does not fit the deck: {} × {} cards to the players and {} to the table need {needed} cards, but deck `{}` has {total}",
                    deal.players, deal.players, deal.hand, deal.table, deck.id
                ),
            ));
        }
        check_deal_players(cat, deal, diags);
    }
    check_deal_coverage(cat, diags);
}

/// The deal table's problems that need no rows (a deal outside the game's player counts,
/// a player count without a deal): said even when wrong cells keep the deck from loading.
pub fn deal_table_problems(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for deal in &cat.deals {
        check_deal_players(cat, deal, &mut diags);
    }
    check_deal_coverage(cat, &mut diags);
    diags
}

/// A deal for a player count the game is not for.
fn check_deal_players(cat: &Catalogue, deal: &crate::model::Deal, diags: &mut Vec<Diagnostic>) {
    if let Some((min, max)) = cat.players {
        if deal.players < min || deal.players > max {
            diags.push(
                Diagnostic::new(
                    &cat.game_toml,
                    Some(deal.span.clone()),
                    format!(
                        "a deal for {} players, but the game is for {min} to {max}",
                        deal.players
                    ),
                )
                .with_note("change [game] players or remove this deal"),
            );
        }
    }
}

/// Every player count the game is for has its deal, once the game has a deal table.
fn check_deal_coverage(cat: &Catalogue, diags: &mut Vec<Diagnostic>) {
    if let (Some((min, max)), false) = (cat.players, cat.deals.is_empty()) {
        for players in min..=max {
            if !cat.deals.iter().any(|d| d.players == players) {
                let span = cat.deals.last().map(|d| d.span.clone());
                diags.push(
                    Diagnostic::new(&cat.game_toml, span, format!("the deal table has no row for {players} players"))
                        .with_note(format!("the game is for {min} to {max} players; add a [[deal]] with players = {players}")),
                );
            }
        }
    }
}

fn describe_key(fields: &[String], key: &[&str]) -> String {
    fields.iter().zip(key).map(|(f, v)| format!("{f} `{v}`")).collect::<Vec<_>>().join(" and ")
}

fn line_of(cat: &Catalogue, file: &Path, offset: usize) -> usize {
    cat.sources.line_col(file, offset).map_or(0, |(l, _)| l)
}

/// "rule at game.toml:12:1", for notes on diagnostics that point into a rows file.
fn rule_location(cat: &Catalogue, span: &Range<usize>) -> String {
    let (line, col) = cat.sources.line_col(&cat.game_toml, span.start).unwrap_or((0, 0));
    format!("the rule is at {}:{line}:{col}", cat.game_toml.display())
}

/// "cards.csv lines 3, 4, 9" (or "market rows 31, 32") for the distinct rows behind a
/// list of cards.
fn card_lines(cat: &Catalogue, cards: &[&CardRef]) -> String {
    let mut by_file: BTreeMap<&Path, Vec<usize>> = BTreeMap::new();
    for c in cards {
        let line = line_of(cat, c.file, c.row.span.start);
        let lines = by_file.entry(c.file).or_default();
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    }
    by_file
        .iter()
        .map(|(file, lines)| {
            let (name, what) = match cat.sources.sheet(file) {
                Some(sheet) => (sheet.sheet.clone(), "row"),
                None => (
                    file.file_name().map(PathBuf::from).unwrap_or_default().display().to_string(),
                    "line",
                ),
            };
            // A rule over a huge deck names the first lines, not all of them.
            const SHOWN: usize = 20;
            let mut list: Vec<String> = lines.iter().take(SHOWN).map(usize::to_string).collect();
            if lines.len() > SHOWN {
                list.push(format!("… ({} {what}s in all)", lines.len()));
            }
            format!("{name} {what}{} {}", if lines.len() == 1 { "" } else { "s" }, list.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `--lang LANG`: the values of translated fields that have no label in `LANG` print in
/// the source language. A field counts as translated when any language labels it; one
/// warning per field lists every value with letters it misses.
pub fn untranslated_values(cat: &Catalogue, lang: &str) -> Vec<Diagnostic> {
    let Some(tables) = cat.lang.get(lang) else { return Vec::new() };
    let translated: std::collections::BTreeSet<&String> = cat
        .lang
        .values()
        .flat_map(|t| t.keys())
        .filter(|f| cat.fields.iter().any(|field| &&field.name == f))
        .collect();
    let text = cat.sources.get(&cat.game_toml).unwrap_or_default();
    let mut found = Vec::new();
    for field in translated {
        let labels = tables.get(field);
        let mut missing: Vec<&str> = Vec::new();
        for row in
            cat.decks.iter().flat_map(|d| &d.rows).chain(cat.sheets.iter().flat_map(|s| &s.rows))
        {
            let value = row.value(field);
            let labelled = labels.is_some_and(|l| l.contains_key(value));
            // A value without letters (`7`, `*`) reads the same in every language.
            let words = value.chars().any(char::is_alphabetic);
            if words && !labelled && !missing.contains(&value) {
                missing.push(value);
            }
        }
        if missing.is_empty() {
            continue;
        }
        let header = format!("[lang.{lang}.{field}]");
        // The table's header, not a mention of it in a comment.
        let span = text.find(&format!("\n{header}")).map(|i| i + 1..i + 1 + header.len());
        let shown: Vec<&str> = missing.iter().copied().take(20).collect();
        let more = missing.len().saturating_sub(shown.len());
        found.push(
            Diagnostic::warning(
                &cat.game_toml,
                span,
                format!(
                    "{} value{} of `{field}` {} no `{lang}` label: {}{}",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" },
                    if missing.len() == 1 { "has" } else { "have" },
                    crate::diag::accepted(shown),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                ),
            )
            .with_note(format!(
                "they print untranslated in the `{lang}` edition; add them under {header}"
            )),
        );
    }
    found
}
