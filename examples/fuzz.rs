//! Fuzzes the catalogue loader, the rows readers (CSV and spreadsheet), the rules engine
//! and template filling on stable Rust (see fuzz/engine.rs and fuzz/targets.rs).
//!
//! ```sh
//! cargo run --release --example fuzz -- --seconds 600            # every target, 10 minutes each
//! cargo run --example fuzz -- --targets manifest,rows --seconds 60 # debug build: overflow checks on
//! ```
//!
//! Options: `--seconds N` per target (default 60), `--targets a,b` (default all:
//! manifest, rows, spreadsheet, template), `--seed N` (default 1), `--slow-ms N` (an input
//! slower than this is a finding; default 2000), `--findings DIR` (where the inputs that
//! crashed or ran slow are written; default fuzz/findings). Exit status 1 when anything
//! crashed.

#[path = "../fuzz/engine.rs"]
mod engine;
#[path = "../fuzz/targets.rs"]
mod targets;

use std::time::Duration;

fn main() {
    let mut seconds = 60u64;
    let mut names: Vec<String> = targets::Stage::ALL.iter().map(|s| s.name().to_string()).collect();
    let mut seed = 1u64;
    let mut slow_ms = 2000u64;
    let mut findings = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/findings");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage(&format!("{arg} needs a value")));
        match arg.as_str() {
            "--seconds" => {
                seconds =
                    value().parse().unwrap_or_else(|_| usage("--seconds takes a whole number"))
            }
            "--targets" => names = value().split(',').map(str::to_string).collect(),
            "--seed" => {
                seed = value().parse().unwrap_or_else(|_| usage("--seed takes a whole number"))
            }
            "--slow-ms" => {
                slow_ms =
                    value().parse().unwrap_or_else(|_| usage("--slow-ms takes a whole number"))
            }
            "--findings" => findings = value().into(),
            other => usage(&format!("unknown argument `{other}`")),
        }
    }
    let mut crashed = false;
    let (mut all_execs, mut all_time) = (0u64, 0f64);
    println!("| target | executions | exec/s | reached | corpus | outcome kinds | crashes | slow (> {slow_ms} ms) |");
    println!("|---|---:|---:|---|---:|---:|---:|---:|");
    for name in &names {
        let Some(stage) = targets::Stage::ALL.into_iter().find(|s| s.name() == name) else {
            usage(&format!("no target `{name}`"))
        };
        let mut target = targets::CatalogueFile::new(stage);
        let stats = engine::fuzz(
            &mut target,
            seed,
            Duration::from_secs(seconds),
            u64::MAX,
            Duration::from_millis(slow_ms),
        );
        let rate = stats.execs as f64 / stats.elapsed.as_secs_f64();
        let depth = engine::Target::depth(&target);
        println!(
            "| {name} | {} | {rate:.0} | {depth} | {} | {} | {} | {} |",
            stats.execs,
            stats.corpus,
            stats.kinds,
            stats.crashes.len(),
            stats.slow.len()
        );
        all_execs += stats.execs;
        all_time += stats.elapsed.as_secs_f64();
        for (what, list) in [("crash", &stats.crashes), ("slow", &stats.slow)] {
            for (i, finding) in list.iter().enumerate().take(20) {
                let _ = std::fs::create_dir_all(&findings);
                let path = findings.join(format!("{name}-{what}-{i}.bin"));
                let _ = std::fs::write(&path, &finding.input);
                eprintln!(
                    "{name}: {what}: {} ({})",
                    finding.what.lines().next().unwrap_or_default(),
                    path.display()
                );
            }
        }
        crashed |= !stats.crashes.is_empty();
    }
    println!(
        "\n{all_execs} executions in {all_time:.0} s; {}",
        if crashed { "CRASHES found" } else { "no crash" }
    );
    std::process::exit(i32::from(crashed));
}

fn usage(problem: &str) -> ! {
    eprintln!("{problem}\nusage: cargo run --release --example fuzz -- [--seconds N] [--targets manifest,rows,spreadsheet,template] [--seed N] [--slow-ms N] [--findings DIR]");
    std::process::exit(2);
}
