//! The commands `main` runs: each resolves its arguments into a `Job` once and hands it
//! to the driver, or (`watch`, `new`, `calibrate`, `completions`, `list`, `services`)
//! does its own small thing. Only `main` calls these; nothing calls back up into them.

pub mod bundle;
pub mod calibrate;
pub mod fetch;
pub mod new;
pub mod preflight;
pub mod preflight_home;
pub mod watch;

use crate::cli::{Command, ExportTarget, Games, PrintOptions};
use crate::diag::Failure;
use crate::driver::Outcome;
use crate::job::{Game, Job, Output, PressSpec, PreviewOptions, Print, TtsOptions};
use crate::limits::Limits;
use crate::services::{Colour, Form};

pub fn run(command: &Command) -> Result<Vec<Outcome>, Failure> {
    // Below the output folder, nothing is written through a link (output::no_link).
    let out = match command {
        Command::Preflight(a) => Some(&a.out),
        Command::Build(a) => Some(&a.out),
        Command::Preview(a) => Some(&a.out),
        Command::Rules(a) => Some(&a.document.out),
        Command::Bundle(a) => Some(&a.document.out),
        Command::Watch(a) => Some(&a.out),
        Command::Export(ExportTarget::Tts(a)) => Some(&a.out),
        Command::Play(a) => Some(&a.out),
        Command::Calibrate(a) => Some(&a.out),
        _ => None,
    };
    out.into_iter().for_each(|out| crate::output::writes_under(out));
    match command {
        Command::List => Ok(list()),
        Command::Services => {
            Ok(vec![Outcome::new("services".to_string(), Ok(crate::services::table()))])
        }
        Command::Validate(args) => {
            Ok(crate::driver::run(&print_job(&args.games, &args.print, Output::Check)?))
        }
        Command::Preflight(args) => {
            let job = print_job(&args.games, &args.print, Output::Check)?;
            if job.print.service.form == Form::GangSheets {
                // The home build (`--for home`, the default): its every document.
                if !args.files.is_empty() {
                    return Err(Failure::Io("--file checks a print service's file; --for home makes every file of the home build itself".to_string()));
                }
                let home = |game| preflight_home::preflight_home(&job, game, &args.out);
                return Ok(job.games.iter().map(home).collect());
            }
            Ok(preflight::run(&job, &args.out, &args.files))
        }
        Command::Build(args) => {
            let mut job =
                print_job(&args.games, &args.print, Output::Files { out: args.out.clone() })?;
            if args.changed_since.is_some() && job.print.service.form != Form::GangSheets {
                return Err(Failure::Io(
                    "--changed-since reprints home sheets; a print service takes whole decks"
                        .to_string(),
                ));
            }
            job.print.changed_since = args.changed_since.clone();
            Ok(crate::driver::run(&job))
        }
        Command::Preview(args) => {
            let proof = args
                .proof
                .as_deref()
                .map(crate::press::proof_condition)
                .transpose()
                .map_err(Failure::Io)?;
            let options = PreviewOptions {
                out: args.out.clone(),
                dpi: args.dpi,
                quiet: args.quiet,
                card: args.card.clone(),
                guides: args.guides,
                proof,
                refresh: None,
                lang: args.lang.clone(),
                cvd: args.cvd,
                changed_since: args.changed_since.clone(),
            };
            let lang = options.lang.clone();
            Ok(crate::driver::run(&plain_job(&args.games, lang, Output::Previews(options))?))
        }
        Command::Rules(args) => bundle::rules(args),
        Command::Bundle(args) => bundle::bundle(args),
        Command::Watch(args) => watch::watch(args, &mut watch::print).map(|()| Vec::new()),
        Command::Export(ExportTarget::Tts(args)) => {
            let options = TtsOptions {
                out: args.out.clone(),
                base_url: args.base_url.clone(),
                quiet: args.quiet,
                lang: args.lang.clone(),
            };
            let lang = options.lang.clone();
            Ok(crate::driver::run(&plain_job(&args.games, lang, Output::Tts(options))?))
        }
        Command::Play(args) => {
            let options = crate::job::PlayOptions {
                out: args.out.clone(),
                players: args.players,
                seed: args.seed,
                odds: args.odds,
                lang: args.lang.clone(),
                quiet: args.quiet,
            };
            let games = Games { games: vec![args.game.clone()], all: false };
            Ok(crate::driver::run(&plain_job(&games, args.lang.clone(), Output::Play(options))?))
        }
        Command::Calibrate(args) => {
            Ok(vec![Outcome::new("calibrate".to_string(), calibrate::run(args))])
        }
        Command::Fetch(args) => fetch::run(&args.games, &args.limits),
        Command::New(args) => Ok(vec![Outcome::new(
            args.folder.display().to_string(),
            new::new_game(&args.folder, &args.from),
        )]),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(
                *shell,
                &mut crate::cli::Args::command(),
                "deckpress",
                &mut script,
            );
            Ok(vec![Outcome::new(
                "completions".to_string(),
                Ok(vec![String::from_utf8_lossy(&script).trim_end().to_string()]),
            )])
        }
    }
}

/// `deckpress list`: each built-in game with its description.
fn list() -> Vec<Outcome> {
    crate::games::builtin_ids()
        .into_iter()
        .filter_map(|id| Some((crate::games::builtin(&id)?, id)))
        .map(|(world, id)| {
            let result = crate::plan::load(&world, &Limits::default())
                .map(|c| vec![format!("{:<12} {}", id, c.description)]);
            Outcome::new(id, result)
        })
        .collect()
}

/// The games a command names, as catalogue folders.
fn games(games: &Games) -> Result<Vec<Game>, Failure> {
    Ok(crate::games::resolve(&games.games, games.all)?
        .into_iter()
        .map(|(name, world)| Game { name, world })
        .collect())
}

/// A job with the default print options in language `lang` (previews, exports).
fn plain_job(names: &Games, lang: Option<String>, output: Output) -> Result<Job, Failure> {
    Ok(Job {
        games: games(names)?,
        print: Print { lang, ..Print::default() },
        limits: Limits::default(),
        strict: false,
        output,
    })
}

/// `build` and `validate`: the print options resolved against the service's row.
pub fn print_job(names: &Games, args: &PrintOptions, output: Output) -> Result<Job, Failure> {
    let service = crate::services::find(&args.service).ok_or_else(|| {
        Failure::Io(format!("no print service `{}`; see `deckpress services`", args.service))
    })?;
    if service.form != Form::GangSheets && args.duplex == crate::layout::Duplex::Fold {
        return Err(Failure::Io(format!(
            "--duplex fold lays out home sheets; {} takes its own layout of each card's sides (drop --duplex fold, or --for)",
            service.name
        )));
    }
    if args.duplex == crate::layout::Duplex::Fold && args.cut.is_some() {
        return Err(Failure::Io(
            "--duplex fold and --cut: a gutter-fold sheet is folded before it is cut, which a print-and-cut machine cannot find its marks on; use one or the other".to_string(),
        ));
    }
    if service.form != Form::GangSheets && args.cut.is_some() {
        return Err(Failure::Io(format!(
            "--cut is for home sheets; print services ({}) cut the cards themselves",
            service.name
        )));
    }
    if args.fit.is_some() && service.products.is_empty() {
        let with: Vec<&str> = crate::services::SERVICES
            .iter()
            .filter(|s| !s.products.is_empty())
            .map(|s| s.name)
            .collect();
        return Err(Failure::Io(format!(
            "--fit makes a deck one of a print service's products; {} prints any size (services with products: {})",
            service.name,
            with.join(", ")
        )));
    }
    let mut papers = Vec::new();
    for paper in &args.paper {
        // clap keeps repeats (`--paper a4,a4`); building the same file twice is pointless.
        if !papers.contains(paper) {
            papers.push(*paper);
        }
    }
    let print = Print {
        papers,
        board_paper: args.board_paper.clone(),
        only: args.only.clone(),
        players: args.players,
        lang: args.lang.clone(),
        duplex: args.duplex,
        orientation: args.orientation,
        back_offset: args.back_offset.unwrap_or((0.0, 0.0)),
        service,
        gang: args.gang,
        bleed: args.bleed,
        press: press(args, service)?,
        cut: args.cut,
        fit: args.fit,
        changed_since: None,
        ink_saver: args.ink_saver,
    };
    Ok(Job {
        games: games(names)?,
        print,
        limits: Limits::new(&args.limits),
        strict: args.strict,
        output,
    })
}

/// The press the PDFs are made for, when they are CMYK (`--colour cmyk`, or a service
/// whose colour is CMYK): its profile, PDF/X, intent and ink limit.
fn press(
    args: &PrintOptions,
    service: &crate::services::Service,
) -> Result<Option<PressSpec>, Failure> {
    use crate::cli::ColourMode;
    let service_cmyk = match service.colour {
        Colour::Cmyk { profile, ink_limit, pdfx } => Some((profile, ink_limit, pdfx)),
        Colour::Rgb => None,
    };
    let cmyk = match args.colour {
        Some(mode) => mode == ColourMode::Cmyk,
        None => service_cmyk.is_some() || args.pdfx.is_some() || args.icc.is_some(),
    };
    if !cmyk {
        if args.pdfx.is_some() || args.icc.is_some() {
            return Err(Failure::Io(
                "--pdfx and --icc are for CMYK PDFs; drop --colour rgb".to_string(),
            ));
        }
        return Ok(None);
    }
    if !service.form.is_pdf() {
        let pdf_services: Vec<&str> =
            crate::services::SERVICES.iter().filter(|s| s.form.is_pdf()).map(|s| s.name).collect();
        return Err(Failure::Io(format!(
            "{} takes sRGB PNG files; --colour cmyk is for PDFs ({})",
            service.name,
            pdf_services.join(", ")
        )));
    }
    let condition = match (&args.icc, service_cmyk) {
        (Some(path), _) => crate::press::Condition::from_file(path).map_err(Failure::Io)?,
        (None, Some((profile, _, _))) => profile.condition(),
        (None, None) => crate::press::Condition::fogra39(),
    };
    let ink_limit = args.ink_limit.map(|v| v as f32).or(service_cmyk.map(|(_, ink, _)| ink));
    let pdfx =
        args.pdfx.or(service_cmyk.map(|(_, _, pdfx)| pdfx)).unwrap_or(crate::press::Pdfx::X1a);
    // The sRGB → CMYK transform takes a while to make: it starts now, beside the loading.
    crate::press::start_transform(&condition.profile, args.intent);
    Ok(Some(PressSpec { condition, pdfx, intent: args.intent, ink_limit }))
}
