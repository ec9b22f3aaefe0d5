//! Rules and deals as game.toml writes them → `Rule`s: every deck, sheet and field they
//! name resolved, and every field they read checked to be a column of what they look at
//! (a rule that reads an empty column checks nothing).

use toml::Spanned;

use super::{game_toml, Kind, Loader};
use crate::diag::{accepted, Diagnostic};
use crate::model::{Check, Collection, Condition, Field, FieldKind, Rule, Selection};

/// Ids of decks and sheets, in game.toml order, for resolving references.
pub(super) struct Ids {
    /// The game's own decks, then its label sheets (rules name both by id).
    pub decks: Vec<String>,
    /// How many of `decks` are the game's own decks: what a rule with no `deck =` counts.
    pub own: usize,
    pub sheets: Vec<String>,
}

/// "did you mean `cards`? " before a list of names, when one is close to `name`.
pub(super) fn did_you_mean<'a>(name: &str, names: impl Iterator<Item = &'a String>) -> String {
    crate::diag::closest(name, names.map(String::as_str))
        .map_or_else(String::new, |c| format!("did you mean `{c}`? "))
}

impl Loader<'_> {
    pub(super) fn deck_index(
        &mut self,
        name: &Spanned<String>,
        deck_ids: &[String],
    ) -> Option<usize> {
        // Deals name decks only; sheets are not dealt.
        let found = deck_ids.iter().position(|d| d == name.get_ref());
        if found.is_none() {
            self.error(
                name.span(),
                format!("unknown deck `{}`", name.get_ref()),
                format!(
                    "{}decks of this game: {}",
                    did_you_mean(name.get_ref(), deck_ids.iter()),
                    accepted(deck_ids)
                ),
            );
        }
        found
    }

    pub(super) fn field_name(
        &mut self,
        name: &Spanned<String>,
        fields: &[Field],
    ) -> Option<String> {
        if fields.iter().any(|f| &f.name == name.get_ref()) || name.get_ref() == "id" {
            return Some(name.get_ref().clone());
        }
        self.error(
            name.span(),
            format!("unknown field `{}`", name.get_ref()),
            format!(
                "{}fields of this game: {}",
                did_you_mean(name.get_ref(), fields.iter().map(|f| &f.name)),
                accepted(fields.iter().map(|f| &f.name))
            ),
        );
        None
    }

    pub(super) fn condition(
        &mut self,
        raw: &game_toml::Condition,
        fields: &[Field],
    ) -> Option<Condition> {
        let mut condition = Vec::new();
        let mut ok = true;
        for (name, values) in raw {
            let Some(field) = self.field_name(name, fields) else {
                ok = false;
                continue;
            };
            let list = values.get_ref().clone().into_vec();
            if let Some(Field { kind: FieldKind::Enum(known), .. }) =
                fields.iter().find(|f| f.name == field)
            {
                for v in list.iter().filter(|v| !known.contains(v) && !v.is_empty()) {
                    ok = false;
                    self.error(
                        values.span(),
                        format!("unknown {field} `{v}`"),
                        super::rows::known_values(&field, v, known),
                    );
                }
            }
            condition.push((field, list));
        }
        ok.then_some(condition)
    }

    /// A deck or sheet id → the collection; all decks when `None`.
    pub(super) fn collections(
        &mut self,
        name: Option<&Spanned<String>>,
        ids: &Ids,
    ) -> Option<Vec<Collection>> {
        let Some(name) = name else {
            // Cards of decks only: adding a sticker sheet or a box never changes what an
            // existing rule counts ("each suit has four cards" stays four).
            return Some((0..ids.own).map(Collection::Deck).collect());
        };
        if let Some(d) = ids.decks.iter().position(|d| d == name.get_ref()) {
            return Some(vec![Collection::Deck(d)]);
        }
        if let Some(s) = ids.sheets.iter().position(|s| s == name.get_ref()) {
            return Some(vec![Collection::Sheet(s)]);
        }
        let all: Vec<&String> = ids.decks.iter().chain(&ids.sheets).collect();
        self.error(
            name.span(),
            format!("unknown deck or sheet `{}`", name.get_ref()),
            format!(
                "{}decks and sheets of this game: {}",
                did_you_mean(name.get_ref(), all.iter().copied()),
                accepted(all)
            ),
        );
        None
    }

    pub(super) fn selection(
        &mut self,
        deck: Option<&Spanned<String>>,
        filter: &game_toml::Condition,
        unless: &game_toml::Condition,
        fields: &[Field],
        ids: &Ids,
    ) -> Option<Selection> {
        let collections = self.collections(deck, ids);
        let filter = self.condition(filter, fields);
        let unless = self.condition(unless, fields);
        Some(Selection { collections: collections?, filter: filter?, unless: unless? })
    }

    pub(super) fn rule(
        &mut self,
        spanned: &Spanned<game_toml::RawRule>,
        fields: &[Field],
        ids: &Ids,
    ) -> Option<Rule> {
        let raw = spanned.get_ref();
        let span = spanned.span();
        let scope = self.selection(raw.deck.as_ref(), &raw.filter, &raw.unless, fields, ids);
        let counted = raw.count.is_some() || raw.at_least.is_some() || raw.at_most.is_some();
        let kinds = [
            counted,
            raw.unique.is_some(),
            raw.require.is_some(),
            raw.equal.is_some(),
            raw.sequence.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            self.error(
                span.clone(),
                format!("rule \"{}\" must check exactly one thing", raw.name),
                "give it `count`/`at_least`/`at_most`, `unique`, `require`, `equal` or `sequence`",
            );
            return None;
        }
        if raw.count.is_some() && (raw.at_least.is_some() || raw.at_most.is_some()) {
            self.error(
                span.clone(),
                format!("rule \"{}\" has both `count` and a bound", raw.name),
                "use `count` for an exact number, or `at_least`/`at_most`",
            );
            return None;
        }
        if raw.each.is_some() && !counted && raw.sequence.is_none() {
            self.error(
                span.clone(),
                format!("rule \"{}\" uses `each` without a count or sequence", raw.name),
                "`each` only applies to count, at_least, at_most and sequence",
            );
            return None;
        }
        if raw.start.is_some() && raw.sequence.is_none() {
            self.error(
                span.clone(),
                format!("rule \"{}\" has `start` without `sequence`", raw.name),
                "`start` is the first value of a sequence",
            );
            return None;
        }
        if let Some(scope) = &scope {
            self.check_columns(raw, &scope.collections, fields, ids);
        }
        let each = match &raw.each {
            Some(name) => Some(self.field_name(name, fields)?),
            None => None,
        };
        let check = if counted {
            Check::Count { each, min: raw.count.or(raw.at_least), max: raw.count.or(raw.at_most) }
        } else if let Some(names) = &raw.unique {
            let names: Vec<String> =
                names.iter().filter_map(|n| self.field_name(n, fields)).collect();
            if names.is_empty() {
                return None;
            }
            Check::Unique(names)
        } else if let Some(others) = &raw.equal {
            let others: Vec<Option<Selection>> = others
                .iter()
                .map(|o| {
                    let o = o.get_ref();
                    let selection =
                        self.selection(o.deck.as_ref(), &o.filter, &o.unless, fields, ids)?;
                    for name in o.filter.keys().chain(o.unless.keys()) {
                        self.check_column(&raw.name, name, &selection.collections, fields, ids);
                    }
                    Some(selection)
                })
                .collect();
            Check::Equal(others.into_iter().collect::<Option<Vec<_>>>()?)
        } else if let Some(field) = &raw.sequence {
            Check::Sequence {
                each,
                field: self.field_name(field, fields)?,
                start: raw.start.unwrap_or(1),
            }
        } else {
            Check::Require(self.condition(raw.require.as_ref()?, fields)?)
        };
        Some(Rule { name: raw.name.clone(), scope: scope?, check, span })
    }

    /// Every field a rule reads (`each`, `where`, `unless`, `unique`, `sequence`,
    /// `require`) must be a column of a deck or sheet it looks at: otherwise every card
    /// has it empty and the rule checks nothing.
    pub(super) fn check_columns(
        &mut self,
        raw: &game_toml::RawRule,
        collections: &[Collection],
        fields: &[Field],
        ids: &Ids,
    ) {
        let names = raw
            .filter
            .keys()
            .chain(raw.unless.keys())
            .chain(&raw.each)
            .chain(raw.unique.iter().flatten())
            .chain(&raw.sequence)
            .chain(raw.require.iter().flat_map(|r| r.keys()));
        for name in names {
            self.check_column(&raw.name, name, collections, fields, ids);
        }
    }

    fn check_column(
        &mut self,
        rule: &str,
        name: &Spanned<String>,
        collections: &[Collection],
        fields: &[Field],
        ids: &Ids,
    ) {
        let field = name.get_ref();
        if field == "id" || !fields.iter().any(|f| &f.name == field) {
            return; // every row has an id; an undeclared field is reported as unknown
        }
        let key = |c: &Collection| match *c {
            Collection::Deck(d) => (Kind::Deck, ids.decks[d].clone()),
            Collection::Sheet(s) => (Kind::Sheet, ids.sheets[s].clone()),
        };
        // A rows file that could not be read is reported already: assume it has the column.
        let has = |c: &Collection| {
            self.columns.get(&key(c)).is_none_or(|columns| columns.contains(field))
        };
        if collections.iter().any(has) {
            return;
        }
        let named = |(kind, id): &(Kind, String)| {
            format!("{} `{id}`", if *kind == Kind::Deck { "deck" } else { "sheet" })
        };
        let what = match collections {
            [one] => named(&key(one)),
            _ => "any deck".to_string(),
        };
        let others: Vec<&(Kind, String)> = self
            .columns
            .iter()
            .filter(|(_, columns)| columns.contains(field))
            .map(|(k, _)| k)
            .collect();
        let hint = match others.as_slice() {
            [] => format!(
                "add a `{field}` column to the rows file, or leave `{field}` out of the rule"
            ),
            [one] => format!("{} has it: name it with `deck = \"{}\"`", named(one), one.1),
            _ => format!(
                "{} have it: name one with `deck = \"…\"`",
                others.iter().map(|k| named(k)).collect::<Vec<_>>().join(", ")
            ),
        };
        let d = Diagnostic::new(
            &self.game_toml,
            Some(name.span()),
            format!("`{field}` is not a column of {what}"),
        )
        .with_note(format!("rule \"{rule}\" would check nothing: every card has `{field}` empty"))
        .with_note(hint);
        self.diags.push(d);
    }

    /// The declared fields a rows file must have, when a deck or sheet lists them.
    pub(super) fn required_fields(
        &mut self,
        listed: Option<&[Spanned<String>]>,
        fields: &[Field],
    ) -> Option<Vec<String>> {
        Some(listed?.iter().filter_map(|n| self.field_name(n, fields)).collect())
    }
}

impl Loader<'_> {
    /// An `[[odds]]` condition: its deck one the game deals (`[[deal]]`), its fields the
    /// deck's, one bound (`at_least` or `exactly`) and a place (`in = "hand"` or `"table"`).
    pub(super) fn odds(
        &mut self,
        spanned: &Spanned<game_toml::RawOdds>,
        fields: &[Field],
        ids: &Ids,
        deals: &[crate::model::Deal],
    ) -> Option<crate::model::Odds> {
        use crate::model::DealtTo;
        let raw = spanned.get_ref();
        let span = spanned.span();
        let cards = self.selection(raw.deck.as_ref(), &raw.filter, &raw.unless, fields, ids);
        let place = match raw.place.as_ref().map(|p| (p.get_ref().as_str(), p.span())) {
            None | Some(("hand", _)) => Some(DealtTo::Hand),
            Some(("table", _)) => Some(DealtTo::Table),
            Some((other, at)) => {
                self.error(
                    at,
                    format!("odds \"{}\" counts cards in `{other}`", raw.name),
                    "write `in = \"hand\"` (a player's starting hand) or `in = \"table\"` (the cards dealt face up)",
                );
                None
            }
        };
        let (min, exact) = match (raw.at_least, raw.exactly) {
            (Some(n), None) => (n, false),
            (None, Some(n)) => (n, true),
            _ => {
                self.error(
                    span,
                    format!("odds \"{}\" needs one bound", raw.name),
                    "give it `at_least = N` or `exactly = N` (not both)",
                );
                return None;
            }
        };
        let cards = cards?;
        let deck = match cards.collections.as_slice() {
            [crate::model::Collection::Deck(d)] if *d < ids.own => *d,
            [crate::model::Collection::Deck(_)] | [crate::model::Collection::Sheet(_)] => {
                let at = raw.deck.as_ref().map_or(span.clone(), |d| d.span());
                self.error(
                    at,
                    format!(
                        "odds \"{}\" counts a sheet or sticker sheet, which is not dealt",
                        raw.name
                    ),
                    format!("name a deck of the game: {}", accepted(&ids.decks[..ids.own])),
                );
                return None;
            }
            // No `deck =`: the first deck, which is what a `[[deal]]` without one deals.
            _ => 0,
        };
        if !deals.iter().any(|d| d.deck == deck) {
            let at = raw.deck.as_ref().map_or(span.clone(), |d| d.span());
            let mut dealt: Vec<&String> = deals.iter().map(|d| &ids.decks[d.deck]).collect();
            dealt.dedup();
            self.error(
                at,
                format!(
                    "odds \"{}\" counts cards of deck `{}`, which no [[deal]] deals",
                    raw.name, ids.decks[deck]
                ),
                match dealt.is_empty() {
                    true => {
                        "add the game's [[deal]] table (players, hand, table) first".to_string()
                    }
                    false => format!("decks the game deals: {}", accepted(dealt)),
                },
            );
            return None;
        }
        let cards = crate::model::Selection {
            collections: vec![crate::model::Collection::Deck(deck)],
            ..cards
        };
        Some(crate::model::Odds {
            name: raw.name.clone(),
            deck,
            cards,
            min,
            exact,
            place: place?,
            span,
        })
    }
}
