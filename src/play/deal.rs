//! The deal, as the table page deals it: one small generator (mulberry32) and one shuffle
//! (Fisher–Yates, from the last card down), written the same in Rust and in the page's
//! JavaScript (`table.js`), so that a seed gives the same cards in both: the browser test
//! compares the page's deal with this one, and `--odds` deals with this code.
//!
//! A game's decks play one of three parts on the table (`Part`): dealt by its `[[deal]]`
//! rows for the player count (the rest its draw pile), a pile of their own (shuffled, to
//! draw from: player aids, a second deck of cards), or pieces moved on the table (tokens,
//! pawns, markers: a deck not of the dealt cards' size or shape).

use crate::model::{Catalogue, Shape};

/// mulberry32: 32 bits of state, one `u32` a step. The page's `rng()` is this, line for line.
#[derive(Debug, Clone)]
pub struct Mulberry32(pub u32);

impl Mulberry32 {
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x6D2B_79F5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }

    /// A whole number below `n`: `floor(u × n / 2³²)`, exact in JavaScript's doubles too.
    fn below(&mut self, n: usize) -> usize {
        ((u64::from(self.next_u32()) * n as u64) >> 32) as usize
    }
}

/// Fisher–Yates from the last item down, as the page's `shuffle()`.
pub fn shuffle<T>(items: &mut [T], rng: &mut Mulberry32) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// One physical card: its deck and row (copies of a row are alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardRef {
    pub deck: usize,
    pub row: usize,
}

/// What a deck is on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Shuffled and dealt by the game's `[[deal]]` rows; the rest its draw pile.
    Dealt,
    /// Shuffled into a draw pile of its own.
    Pile,
    /// Pieces laid out on the table to be moved (tokens, pawns, markers).
    Pieces,
    /// Not on the table: stickers, which go on pieces.
    Off,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Dealt => "dealt",
            Part::Pile => "pile",
            Part::Pieces => "pieces",
            Part::Off => "off",
        }
    }
}

/// Each deck's part for `players`: the decks the deal table deals for that count; with no
/// `[[deal]]` at all, the first deck is the draw pile. Decks of the dealt cards' size and
/// shape are piles, the others pieces.
pub fn parts(cat: &Catalogue, players: u32) -> Vec<Part> {
    let dealt = |d: usize| cat.deals.iter().any(|r| r.players == players && r.deck == d);
    let first = (0..cat.decks.len()).find(|&d| dealt(d)).unwrap_or(0);
    let reference = cat.decks.get(first).map(|d| (d.width, d.height, d.shape));
    cat.decks
        .iter()
        .enumerate()
        .map(|(d, deck)| {
            if deck.labels.is_some() || deck.rows.is_empty() {
                Part::Off
            } else if dealt(d) {
                Part::Dealt
            } else if d == first
                || (deck.shape == Shape::Rect
                    && reference == Some((deck.width, deck.height, deck.shape)))
            {
                Part::Pile
            } else {
                Part::Pieces
            }
        })
        .collect()
}

/// The player counts the game's deal table deals for, in order, each once.
pub fn dealt_counts(cat: &Catalogue) -> Vec<u32> {
    let mut counts: Vec<u32> = cat.deals.iter().map(|d| d.players).collect();
    counts.sort_unstable();
    counts.dedup();
    counts
}

/// What a deal gives: each seat's hand and the table in the order dealt, and each shuffled
/// deck's draw pile (top first).
#[derive(Debug, Clone, PartialEq)]
pub struct Dealt {
    pub seats: Vec<Vec<CardRef>>,
    pub table: Vec<CardRef>,
    pub draw: Vec<(usize, Vec<CardRef>)>,
}

/// A deck's physical cards in row order, each row's copies together.
pub fn cards_of(cat: &Catalogue, deck: usize) -> Vec<CardRef> {
    cat.decks[deck]
        .rows
        .iter()
        .enumerate()
        .flat_map(|(row, r)| std::iter::repeat_n(CardRef { deck, row }, r.qty as usize))
        .collect()
}

/// Deals `cat` for `players` from `seed`: one generator for the whole deal; each dealt or
/// piled deck (in game order) shuffled; then each of the deck's `[[deal]]` rows for
/// `players` gives `hand` cards to each seat one at a time round the table, then `table`
/// cards face up, from the top.
pub fn deal(cat: &Catalogue, players: u32, seed: u32) -> Dealt {
    let parts = parts(cat, players);
    let mut rng = Mulberry32(seed);
    let mut dealt =
        Dealt { seats: vec![Vec::new(); players as usize], table: Vec::new(), draw: Vec::new() };
    for (d, part) in parts.iter().enumerate() {
        if !matches!(part, Part::Dealt | Part::Pile) {
            continue;
        }
        let mut pile = cards_of(cat, d);
        shuffle(&mut pile, &mut rng);
        let mut top = pile.into_iter();
        for row in cat.deals.iter().filter(|r| r.players == players && r.deck == d) {
            for _ in 0..row.hand {
                for seat in &mut dealt.seats {
                    seat.extend(top.next());
                }
            }
            dealt.table.extend(top.by_ref().take(row.table as usize));
        }
        dealt.draw.push((d, top.collect()));
    }
    dealt
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of mulberry32 for seed 42, as JavaScript's reference
    /// implementation gives them (what `table.js` must give too).
    #[test]
    fn mulberry32_matches_the_reference() {
        let mut rng = Mulberry32(42);
        let first: Vec<u32> = (0..3).map(|_| rng.next_u32()).collect();
        assert_eq!(first, [2_581_720_956, 1_925_393_290, 3_661_312_704]);
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_depends_on_the_seed() {
        let shuffled = |seed| {
            let mut items: Vec<u32> = (0..52).collect();
            shuffle(&mut items, &mut Mulberry32(seed));
            items
        };
        let mut sorted = shuffled(1);
        sorted.sort_unstable();
        assert_eq!(sorted, (0..52).collect::<Vec<_>>());
        assert_eq!(shuffled(7), shuffled(7));
        assert_ne!(shuffled(7), shuffled(8));
    }
}
