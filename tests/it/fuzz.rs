//! A bounded fuzz run in the test suite (issue "Hostile and huge catalogues"): every target
//! of fuzz/targets.rs, a fixed number of mutated inputs from a fixed seed, so the run is
//! the same each time and takes a few seconds. Longer runs: `cargo run --release --example
//! fuzz` (README, "Reliability").

#[path = "../../fuzz/engine.rs"]
mod engine;
#[path = "../../fuzz/targets.rs"]
mod targets;

use std::time::Duration;

use targets::Stage;

/// Runs `stage` for `execs` inputs on a thread with the main thread's stack (what the
/// binary has), and fails on any panic or input slower than `slow`.
fn bounded(stage: Stage, execs: u64, slow: Duration) {
    let stats = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let mut target = targets::CatalogueFile::new(stage);
            let seeds = engine::Target::seeds(&target).len();
            (engine::fuzz(&mut target, 20261123, Duration::from_secs(120), execs, slow), seeds)
        })
        .unwrap()
        .join()
        .unwrap();
    let (stats, seeds) = stats;
    let show = |list: &[engine::Finding]| {
        list.iter()
            .map(|f| format!("{}\n{}", f.what, String::from_utf8_lossy(&f.input)))
            .collect::<Vec<_>>()
            .join("\n---\n")
    };
    assert!(
        stats.crashes.is_empty(),
        "{}: {} crashes:\n{}",
        stage.name(),
        stats.crashes.len(),
        show(&stats.crashes)
    );
    assert!(
        stats.slow.is_empty(),
        "{}: {} slow inputs:\n{}",
        stage.name(),
        stats.slow.len(),
        show(&stats.slow)
    );
    assert_eq!(stats.execs, execs, "{}: every input ran", stage.name());
    assert!(
        stats.corpus > seeds,
        "{}: no mutated input reached a new kind of outcome ({} seeds)",
        stage.name(),
        seeds
    );
}

#[test]
fn fuzz_manifest() {
    bounded(Stage::Manifest, 1500, Duration::from_secs(5));
}

#[test]
fn fuzz_rows() {
    bounded(Stage::Rows, 150, Duration::from_secs(5));
}

#[test]
fn fuzz_spreadsheet() {
    bounded(Stage::Spreadsheet, 200, Duration::from_secs(5));
}

#[test]
fn fuzz_template() {
    bounded(Stage::Template, 60, Duration::from_secs(10));
}

#[test]
fn mutations_stay_within_bounds_and_are_reproducible() {
    let tokens = vec![b"{{".to_vec()];
    let (mut a, mut b) = (engine::Rng::new(3), engine::Rng::new(3));
    for _ in 0..10_000 {
        let x = engine::mutate(b"id,qty\nsun-1,1\n", b"other", &tokens, &mut a);
        assert!(x.len() <= 64 * 1024);
        assert_eq!(x, engine::mutate(b"id,qty\nsun-1,1\n", b"other", &tokens, &mut b));
    }
    assert_eq!(engine::kind("card `a` is used 2 times"), engine::kind("card `bb` is used 3 times"));
    assert_ne!(engine::kind("card `a` is used twice"), engine::kind("no card"));
}
