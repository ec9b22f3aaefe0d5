//! `deckpress play GAME --odds N`: the game dealt N times for each player count its deal
//! table deals for, with the deal of the table page (`deal::deal`, seeds 1 to N), and how
//! often each `[[odds]]` condition holds: in one given starting hand (seat 1's), in some
//! hand, or on the table.

use super::deal::{deal, dealt_counts, CardRef};
use crate::model::{Catalogue, DealtTo, Odds};

/// How often one condition held for one player count, out of `deals`.
pub struct Measured {
    pub players: u32,
    pub deals: u32,
    /// Seat 1's hand (or the table) met it.
    pub one: u32,
    /// Some hand met it (for the table, the same as `one`).
    pub any: u32,
}

/// Whether `cards` hold as many of the condition's cards as it asks.
fn holds(cat: &Catalogue, odds: &Odds, cards: &[CardRef]) -> bool {
    let deck = &cat.decks[odds.deck];
    let n = cards
        .iter()
        .filter(|c| c.deck == odds.deck && odds.cards.includes(&deck.rows[c.row]))
        .count() as u32;
    if odds.exact {
        n == odds.min
    } else {
        n >= odds.min
    }
}

/// Each condition measured over `n` deals for each count of `counts` (the deal table's
/// when empty).
pub fn measure(cat: &Catalogue, n: u32, counts: &[u32]) -> Vec<(String, Vec<Measured>)> {
    let counts = if counts.is_empty() { dealt_counts(cat) } else { counts.to_vec() };
    let mut tally: Vec<Vec<Measured>> = cat
        .odds
        .iter()
        .map(|_| {
            counts.iter().map(|&players| Measured { players, deals: n, one: 0, any: 0 }).collect()
        })
        .collect();
    for (c, &players) in counts.iter().enumerate() {
        for seed in 1..=n {
            let dealt = deal(cat, players, seed);
            for (odds, rows) in cat.odds.iter().zip(&mut tally) {
                let m = &mut rows[c];
                let (one, any) = match odds.place {
                    DealtTo::Table => {
                        let yes = holds(cat, odds, &dealt.table);
                        (yes, yes)
                    }
                    DealtTo::Hand => (
                        dealt.seats.first().is_some_and(|h| holds(cat, odds, h)),
                        dealt.seats.iter().any(|h| holds(cat, odds, h)),
                    ),
                };
                m.one += u32::from(one);
                m.any += u32::from(any);
            }
        }
    }
    cat.odds.iter().map(|o| o.name.clone()).zip(tally).collect()
}

/// The table `--odds` prints: a row per condition and player count.
pub fn table(cat: &Catalogue, measured: &[(String, Vec<Measured>)]) -> Vec<String> {
    let width = measured.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(9).max(9);
    let mut lines = vec![format!(
        "{:<width$}  players  {:>10}  {:>10}  deals",
        "condition", "one hand", "some hand"
    )];
    for ((name, rows), odds) in measured.iter().zip(&cat.odds) {
        for m in rows {
            let pct = |k: u32| format!("{:.1} %", 100.0 * f64::from(k) / f64::from(m.deals.max(1)));
            let (one, any) = match odds.place {
                DealtTo::Hand => (pct(m.one), pct(m.any)),
                DealtTo::Table => (format!("table {}", pct(m.one)), "—".to_string()),
            };
            lines.push(format!(
                "{name:<width$}  {:>7}  {one:>10}  {any:>10}  {}",
                m.players, m.deals
            ));
        }
    }
    lines
}
