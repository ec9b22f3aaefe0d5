//! The environment is a stranger's input too: the variables deckpress (or a library it
//! uses) reads are bounded here, first thing in `main` while it is the only thread, each
//! change said as a warning.

/// The warnings of the variables bounded or ignored.
pub fn bounded() -> Vec<String> {
    let mut warnings = Vec::new();
    thread_counts(&mut warnings);
    build_date(&mut warnings);
    warnings
}

/// The latest time a PDF's date holds (9999-12-31T23:59:59Z), in seconds since 1970.
const LATEST: i64 = 253_402_300_799;

/// `SOURCE_DATE_EPOCH`, the time stamped in PDF/X files: one that is no whole number was
/// ignored without a word (the files took the current time), and one before 1970 or past
/// 9999 was stamped as a year 0 or 9999 nobody asked for.
fn build_date(warnings: &mut Vec<String>) {
    const NAME: &str = "SOURCE_DATE_EPOCH";
    let Some(value) = std::env::var_os(NAME) else { return };
    let shown = crate::diag::printable(&value.to_string_lossy()).into_owned();
    match value.to_str().and_then(|v| v.trim().parse::<i64>().ok()) {
        Some(secs) if (0..=LATEST).contains(&secs) => {}
        Some(secs) => {
            let bound = secs.clamp(0, LATEST);
            warnings.push(format!(
                "{NAME}={shown} is outside the times a PDF holds (0 to {LATEST} seconds since 1970); using {bound}"
            ));
            std::env::set_var(NAME, bound.to_string());
        }
        None => {
            warnings.push(format!(
                "{NAME}={shown} is not a whole number of seconds; ignored (the current time is stamped)"
            ));
            std::env::remove_var(NAME);
        }
    }
}

/// The variables that size krilla's thread pool (rayon reads both; the second is its old
/// name).
const THREAD_VARIABLES: [&str; 2] = ["RAYON_NUM_THREADS", "RAYON_RS_NUM_CPUS"];

/// The environment is a stranger's input too: a thread count rayon would try to start
/// (`RAYON_NUM_THREADS=100000` panicked once the threads could not be made) is cut to a
/// bound, and one that is no number (which rayon ignores) is removed. Each is a warning.
fn thread_counts(warnings: &mut Vec<String>) {
    let cores = crate::parallel::cores();
    let most = (cores * 4).max(8);
    for name in THREAD_VARIABLES {
        let Some(value) = std::env::var_os(name) else { continue };
        let shown = crate::diag::printable(&value.to_string_lossy()).into_owned();
        match value.to_str().and_then(|v| v.trim().parse::<usize>().ok()) {
            Some(n) if n <= most => {}
            Some(_) => {
                warnings.push(format!(
                    "{name}={shown} asks for more threads than the {most} deckpress starts \
                     on {}; using {most}",
                    crate::diag::plural(cores, "core")
                ));
                std::env::set_var(name, most.to_string());
            }
            None => {
                warnings.push(format!(
                    "{name}={shown} is not a number of threads; ignored (one a core is used)"
                ));
                std::env::remove_var(name);
            }
        }
    }
}
