//! The thin entry point: parse arguments, run, print, choose the exit code
//! (0 success, 1 invalid catalogue, 2 usage or I/O error).

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use deckpress::diag::{printable, Failure};

fn main() -> ExitCode {
    let code = run();
    // No writer's lock file stays behind a finished run.
    deckpress::output::let_go_locks();
    code
}

fn run() -> ExitCode {
    // Before any thread is started: the environment is read as input, like the catalogue.
    for warning in deckpress::environment::bounded() {
        eprintln!("warning: {warning}");
    }
    let args = deckpress::cli::Args::parse();
    let color = std::io::stderr().is_terminal();
    let outcomes = match deckpress::commands::run(&args.command) {
        Ok(outcomes) => outcomes,
        Err(failure) => return report(&failure, color),
    };
    let mut code = 0u8;
    for outcome in outcomes {
        if let Some((warnings, sources)) = &outcome.warnings {
            eprint!("{}", sources.render(&warnings[..warnings.len().min(SHOWN)], color));
            if warnings.len() > SHOWN {
                eprintln!("… and {} more warnings not shown", warnings.len() - SHOWN);
            }
            eprintln!(
                "{}: {} warning{} (--strict makes them errors)",
                printable(&outcome.game),
                warnings.len(),
                if warnings.len() == 1 { "" } else { "s" }
            );
        }
        outcome.report.iter().for_each(|l| println!("{}", printable(l)));
        match outcome.result {
            Ok(lines) => lines.iter().for_each(|l| println!("{}", printable(l))),
            Err(failure) => {
                eprintln!("{}: failed", printable(&outcome.game));
                code = code.max(report_code(&failure, color));
            }
        }
    }
    ExitCode::from(code)
}

/// Never a flood: the first problems in full, then how many more.
const SHOWN: usize = 200;

fn report(failure: &Failure, color: bool) -> ExitCode {
    ExitCode::from(report_code(failure, color))
}

fn report_code(failure: &Failure, color: bool) -> u8 {
    match failure {
        Failure::Invalid(diags, sources) => {
            eprint!("{}", sources.render(&diags[..diags.len().min(SHOWN)], color));
            if diags.len() > SHOWN {
                eprintln!("… and {} more problems not shown", diags.len() - SHOWN);
            }
            let errors = diags.iter().filter(|d| d.is_error()).count();
            eprintln!("{errors} problem{} found", if errors == 1 { "" } else { "s" });
        }
        Failure::Io(message) => eprintln!("error: {}", printable(message)),
    }
    failure.exit_code() as u8
}
