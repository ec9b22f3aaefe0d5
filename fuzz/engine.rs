//! A small mutation fuzzer that runs on stable Rust (cargo-fuzz needs nightly): inputs
//! from a seed corpus are mutated byte-wise and with tokens of the input's language, fed
//! to a target, and every panic, and every input slower than a bound, is a finding.
//!
//! Without compiler instrumentation there is no code coverage to steer by; instead a
//! target reports the *kinds* of outcome an input reached (the diagnostics' messages
//! with their numbers and quoted names taken out, hashed), and an input that reaches a
//! new kind joins the corpus. That keeps mutating the inputs that get past the first
//! error into the next stage (a manifest that parses reaches the rules; a CSV whose
//! header is right reaches the cells).
//!
//! Shared by `examples/fuzz.rs` (long runs) and `tests/fuzz.rs` (a bounded run in the
//! test suite) through `#[path]`.

#![allow(dead_code)] // each includer uses part of it

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// A deterministic generator (xorshift64*): the same seed gives the same run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// What a fuzz target is: a name, seeds, tokens worth inserting, and the code under test.
pub trait Target {
    fn name(&self) -> &str;
    /// The seed corpus: real inputs of this kind.
    fn seeds(&self) -> Vec<Vec<u8>>;
    /// Tokens of the input's language (`[[deck]]`, `{{`, `,`…), inserted whole.
    fn tokens(&self) -> &[&[u8]];
    /// Runs the code under test on `input` (seed `base` was its ancestor) and returns the
    /// kinds of outcome it reached. Panics are the findings.
    fn run(&mut self, base: usize, input: &[u8]) -> Vec<u64>;
    /// How far the inputs got, for the report ("41 % loaded").
    fn depth(&self) -> String {
        String::new()
    }
}

/// Longest input the mutator makes: big enough for every seed and a bit.
const MAX_LEN: usize = 64 * 1024;
/// Inputs kept in the corpus at most (seeds included).
const MAX_CORPUS: usize = 4096;

/// One input that panicked or ran too long.
pub struct Finding {
    pub input: Vec<u8>,
    pub what: String,
}

/// What a run did.
#[derive(Default)]
pub struct Stats {
    pub execs: u64,
    pub corpus: usize,
    pub kinds: usize,
    pub crashes: Vec<Finding>,
    pub slow: Vec<Finding>,
    pub elapsed: Duration,
}

/// Fuzzes `target` for `time` (or `max_execs` executions, whichever comes first); an input
/// that takes longer than `slow` is recorded as a finding too.
pub fn fuzz(
    target: &mut dyn Target,
    seed: u64,
    time: Duration,
    max_execs: u64,
    slow: Duration,
) -> Stats {
    let mut rng = Rng::new(seed);
    let mut corpus: Vec<(usize, Vec<u8>)> = target.seeds().into_iter().enumerate().collect();
    assert!(!corpus.is_empty(), "{}: no seeds", target.name());
    let tokens: Vec<Vec<u8>> = target.tokens().iter().map(|t| t.to_vec()).collect();
    let mut kinds: HashSet<u64> = HashSet::new();
    let mut stats = Stats::default();
    let started = Instant::now();
    // The seeds themselves first: they must all pass.
    let mut queue: Vec<(usize, Vec<u8>)> = corpus.clone();
    install_hook();
    while started.elapsed() < time && stats.execs < max_execs {
        let (base, input) = match queue.pop() {
            Some(next) => next,
            None => {
                let (base, parent) = &corpus[rng.below(corpus.len())];
                let other = &corpus[rng.below(corpus.len())].1;
                (*base, mutate(parent, other, &tokens, &mut rng))
            }
        };
        let one = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| target.run(base, &input)));
        let took = one.elapsed();
        stats.execs += 1;
        match outcome {
            Ok(reached) => {
                let new = reached.iter().filter(|k| kinds.insert(**k)).count();
                if new > 0 && corpus.len() < MAX_CORPUS && !corpus.iter().any(|(_, c)| *c == input)
                {
                    corpus.push((base, input.clone()));
                }
            }
            Err(_) => {
                let what = LAST_PANIC.lock().map(|m| m.clone()).unwrap_or_default();
                stats.crashes.push(Finding { input: input.clone(), what });
            }
        }
        if took > slow {
            stats.slow.push(Finding { input, what: format!("took {:.2} s", took.as_secs_f32()) });
        }
    }
    stats.corpus = corpus.len();
    stats.kinds = kinds.len();
    stats.elapsed = started.elapsed();
    stats
}

/// The message of the last panic, on any thread (a card is parsed on a helper thread).
static LAST_PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Records every panic's message for the findings, then reports it as usual: installed
/// once, so runs on parallel test threads do not replace each other's hooks.
fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = info.to_string();
            }
            default(info);
        }));
    });
}

/// One to eight stacked mutations of `input`; `other` is another corpus entry to splice
/// from.
pub fn mutate(input: &[u8], other: &[u8], tokens: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(out.len() + 1);
        match rng.below(12) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = rng.next() as u8;
            }
            2 => out.insert(at, rng.next() as u8),
            3 if !out.is_empty() => {
                // Delete a short run.
                let start = rng.below(out.len());
                let end = (start + 1 + rng.below(16)).min(out.len());
                out.drain(start..end);
            }
            4 if !out.is_empty() => {
                // Duplicate a run in place: repeated lines, nested brackets.
                let start = rng.below(out.len());
                let len = 1 + rng.below(64.min(out.len() - start));
                let run: Vec<u8> = out[start..start + len].to_vec();
                out.splice(at..at, run);
            }
            5..=7 if !tokens.is_empty() => {
                let token = &tokens[rng.below(tokens.len())];
                out.splice(at..at, token.iter().copied());
            }
            8 if !other.is_empty() => {
                // Splice: a run of another input.
                let start = rng.below(other.len());
                let len = 1 + rng.below(256.min(other.len() - start));
                out.splice(at..at, other[start..start + len].iter().copied());
            }
            9 => {
                // An interesting number where a digit is.
                let numbers: [&[u8]; 10] = [
                    b"0",
                    b"-1",
                    b"4294967295",
                    b"4294967296",
                    b"18446744073709551616",
                    b"1e308",
                    b"NaN",
                    b"-0",
                    b"99999999999",
                    b"0.0000001",
                ];
                let n = numbers[rng.below(numbers.len())];
                match out.iter().skip(at).position(u8::is_ascii_digit) {
                    Some(p) => {
                        let start = at + p;
                        let end = start
                            + out[start..]
                                .iter()
                                .take_while(|b| b.is_ascii_digit() || **b == b'.')
                                .count();
                        out.splice(start..end, n.iter().copied());
                    }
                    None => out.splice(at..at, n.iter().copied()).for_each(drop),
                }
            }
            10 if !out.is_empty() => {
                // Truncate: half-saved files.
                out.truncate(at);
            }
            _ => {
                // Swap two lines' worth of bytes: reordered rows and keys.
                if out.len() > 2 {
                    let a = rng.below(out.len());
                    let b = rng.below(out.len());
                    out.swap(a, b);
                }
            }
        }
    }
    out.truncate(MAX_LEN);
    out
}

/// The kind of a diagnostic message: its first 48 characters with numbers and `quoted` or
/// "quoted" names taken out, hashed (FNV-1a), so "card `a` is used twice" and "card `b` is
/// used twice" are one kind (and a parser's message that quotes the input at its end
/// does not make every input a kind of its own).
pub fn kind(message: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut quoted: Option<char> = None;
    let mut kept = 0;
    for c in message.chars() {
        if kept == 48 {
            break;
        }
        match quoted {
            Some(q) if c == q => quoted = None,
            Some(_) => continue,
            None if c == '`' || c == '"' => quoted = Some(c),
            None if c.is_ascii_digit() => continue,
            None => {
                kept += 1;
                let mut buf = [0u8; 4];
                for byte in c.encode_utf8(&mut buf).bytes() {
                    hash ^= u64::from(byte);
                    hash = hash.wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
    }
    hash
}
