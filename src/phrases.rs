//! deckpress's own words in each language it ships (phrases.toml, compiled in): what the
//! bundle's cover, print guide, bookmarks, page labels and footers say, and the printer's
//! marks on every sheet (the slug, the fold's words), as opposed to the game's own words (its rulebook and `[lang.LANG.*]`). A catalogue may
//! give or change them in `[lang.LANG.bundle]`; a language neither has prints them in
//! English, with a warning naming it (`words_for`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::diag::Diagnostic;
use crate::model::Catalogue;

/// `[lang.LANG.bundle]`, as load::translations names it.
const BUNDLE_TABLE: &str = "bundle";

/// The language every word is written in first.
const SOURCE: &str = "en";

/// A word: one text, or a text per plural category (`one`, `few`, `many`, `other`).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Word {
    Text(String),
    Plural(BTreeMap<String, String>),
}

type Table = BTreeMap<String, BTreeMap<String, Word>>;

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    // Compiled in and read by the unit tests below: it cannot fail at a user's.
    TABLE.get_or_init(|| {
        toml::from_str(include_str!("phrases.toml")).expect("src/phrases.toml is valid TOML")
    })
}

/// The plural categories a catalogue's own word may be given for (`cards.one`).
const CATEGORIES: &[&str] = &["zero", "one", "two", "few", "many", "other"];

/// The bundle's words in one language.
#[derive(Clone)]
pub struct Words {
    /// The language whose plural rules its counts follow.
    lang: String,
    words: &'static BTreeMap<String, Word>,
    /// The catalogue's own, from `[lang.LANG.bundle]`: a word for all counts (`cards`) or
    /// one plural form (`cards.one`).
    own: BTreeMap<String, String>,
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Words({})", self.lang)
    }
}

impl Words {
    pub fn english() -> Words {
        let words = &table()[SOURCE];
        Words { lang: SOURCE.to_string(), words, own: BTreeMap::new() }
    }

    /// The words of `lang` (no language: English), those of its primary subtag (`pt` for
    /// `pt-BR`), or `None` when deckpress has none.
    pub fn of(lang: Option<&str>) -> Option<Words> {
        let Some(lang) = lang else { return Some(Words::english()) };
        let primary = lang.split(['-', '_']).next().unwrap_or(lang);
        [lang, primary].into_iter().find_map(|l| table().get(l)).map(|words| Words {
            lang: lang.to_string(),
            words,
            own: BTreeMap::new(),
        })
    }

    /// The languages deckpress has words in.
    pub fn languages() -> Vec<&'static str> {
        table().keys().map(String::as_str).collect()
    }

    /// `key`'s text with each `{name}` of `args` filled in.
    pub fn with(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(self.text(key, "other"), args)
    }

    pub fn get(&self, key: &str) -> String {
        self.with(key, &[])
    }

    /// `key`'s plural form for `n`, with `{n}` as `shown` (`2–4`, or `n` itself) and `args`.
    pub fn count(&self, key: &str, n: u64, shown: &str, args: &[(&str, &str)]) -> String {
        let mut all = vec![("n", shown)];
        all.extend_from_slice(args);
        fill(self.text(key, category(&self.lang, n)), &all)
    }

    /// `count` of `n` shown as itself.
    pub fn counted(&self, key: &str, n: u64) -> String {
        self.count(key, n, &n.to_string(), &[])
    }

    /// `key`'s text in its plural `category`: the catalogue's own, else this language's,
    /// else English (the unit tests keep every language whole: only a guard).
    fn text<'a>(&'a self, key: &'a str, category: &str) -> &'a str {
        if let Some(own) = self.own.get(&format!("{key}.{category}")).or(self.own.get(key)) {
            return own;
        }
        match self.words.get(key).or_else(|| table()[SOURCE].get(key)) {
            Some(Word::Text(t)) => t,
            Some(Word::Plural(forms)) => form(forms, category),
            None => key,
        }
    }
}

/// The bundle's words for `lang`, with the catalogue's own `[lang.LANG.bundle]` over
/// deckpress's, and warnings: words that print in English for want of a translation (under
/// the cover and guide of another language's edition), and keys that are no word.
pub fn words_for(cat: &Catalogue, lang: Option<&str>) -> (Words, Vec<Diagnostic>) {
    let Some(lang) = lang else { return (Words::english(), Vec::new()) };
    let own = cat.lang.get(lang).and_then(|t| t.get(BUNDLE_TABLE)).cloned().unwrap_or_default();
    let text = cat.sources.get(&cat.game_toml).unwrap_or_default();
    let header = format!("[lang.{lang}.{BUNDLE_TABLE}]");
    let span = text.find(&format!("\n{header}")).map(|i| i + 1..i + 1 + header.len());
    let english = &table()[SOURCE];
    let mut found = Vec::new();
    for key in own.keys() {
        let word = match key.rsplit_once('.') {
            Some((word, c)) if CATEGORIES.contains(&c) => word,
            _ => key.as_str(),
        };
        if !english.contains_key(word) {
            let hint = crate::diag::closest(word, english.keys().map(String::as_str))
                .map_or_else(String::new, |c| format!("did you mean `{c}`? "));
            found.push(
                Diagnostic::warning(
                    &cat.game_toml,
                    span.clone(),
                    format!(
                        "`{key}` in {header} is no word of the bundle's pages: it never prints"
                    ),
                )
                .with_note(format!("{hint}the words: src/phrases.toml")),
            );
        }
    }
    let (words, has_table) = match Words::of(Some(lang)) {
        Some(words) => (words, true),
        None => (Words { lang: lang.to_string(), ..Words::english() }, false),
    };
    let words = Words { own, ..words };
    let given = |key: &String| {
        words.own.contains_key(key) || words.own.keys().any(|k| k.starts_with(&format!("{key}.")))
    };
    let english_only: Vec<&String> = english.keys().filter(|k| !given(k)).collect();
    if !has_table && !english_only.is_empty() {
        let shown: Vec<&&String> = english_only.iter().take(8).collect();
        let more = english_only.len() - shown.len();
        found.push(
            Diagnostic::warning(
                &cat.game_toml,
                span,
                format!(
                    "deckpress has no `{lang}` words for its own pages: {} of the {} words of the cover, print guide, bookmarks and page labels of the `{lang}` edition print in English",
                    english_only.len(),
                    english.len()
                ),
            )
            .about(crate::diag::Topic::Untranslated)
            .with_note(format!(
                "deckpress's own words are in {} (src/phrases.toml); give the rest under {header} ({}{}), or print another language",
                crate::diag::accepted(Words::languages()),
                crate::diag::accepted(shown),
                if more > 0 { format!(" and {more} more") } else { String::new() }
            )),
        );
    }
    (words, found)
}

/// The printer's marks on every sheet (the line under it: which sheet and side, how to
/// print it, the fold's words) in a language deckpress has no words in print in English:
/// said once by the build, naming the words a catalogue gives under `[lang.LANG.bundle]`.
pub fn marks_in_english(cat: &Catalogue, lang: Option<&str>) -> Option<Diagnostic> {
    let lang = lang?;
    if Words::of(Some(lang)).is_some() {
        return None;
    }
    let own = cat.lang.get(lang).and_then(|t| t.get(BUNDLE_TABLE));
    let missing: Vec<&String> = table()[SOURCE]
        .keys()
        .filter(|k| k.starts_with("slug_"))
        .filter(|k| !own.is_some_and(|o| o.contains_key(*k)))
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(
        Diagnostic::warning(
            &cat.game_toml,
            None,
            format!("the line under each sheet prints in English in the `{lang}` edition: deckpress has no `{lang}` words for it"),
        )
        .about(crate::diag::Topic::Untranslated)
        .with_note(format!(
            "give them under [lang.{lang}.{BUNDLE_TABLE}]: {} (their English in src/phrases.toml)",
            crate::diag::accepted(missing)
        )),
    )
}

/// A plural form: the category's, else `other`, else `many`.
fn form<'a>(forms: &'a BTreeMap<String, String>, category: &str) -> &'a str {
    [category, "other", "many"]
        .iter()
        .find_map(|c| forms.get(*c))
        .or_else(|| forms.values().next())
        .map_or("", String::as_str)
}

/// The CLDR plural category of the integer `n` in `lang`.
fn category(lang: &str, n: u64) -> &'static str {
    let primary = lang.split(['-', '_']).next().unwrap_or(lang);
    match primary {
        "ru" | "uk" | "be" => match (n % 10, n % 100) {
            (1, r) if r != 11 => "one",
            (2..=4, r) if !(12..=14).contains(&r) => "few",
            _ => "many",
        },
        // French and Portuguese: 0 and 1 are singular.
        "fr" | "pt" => match n {
            0 | 1 => "one",
            _ => "other",
        },
        _ => match n {
            1 => "one",
            _ => "other",
        },
    }
}

fn fill(text: &str, args: &[(&str, &str)]) -> String {
    args.iter().fold(text.to_string(), |t, (name, value)| t.replace(&format!("{{{name}}}"), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `{name}` placeholders of a text.
    fn placeholders(text: &str) -> std::collections::BTreeSet<String> {
        text.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(n, _)| n.into()).collect()
    }

    fn texts(word: &Word) -> Vec<&str> {
        match word {
            Word::Text(t) => vec![t.as_str()],
            Word::Plural(forms) => forms.values().map(String::as_str).collect(),
        }
    }

    #[test]
    fn every_language_has_every_word_with_its_placeholders_and_plural_forms() {
        let english = &table()[SOURCE];
        assert!(["en", "ru", "fr"].iter().all(|l| table().contains_key(*l)));
        for (lang, words) in table() {
            let extra: Vec<&String> = words.keys().filter(|k| !english.contains_key(*k)).collect();
            assert!(extra.is_empty(), "{lang} has words English lacks: {extra:?}");
            for (key, source) in english {
                let word = words.get(key).unwrap_or_else(|| panic!("{lang} lacks `{key}`"));
                let wanted = placeholders(texts(source)[0]);
                for text in texts(word) {
                    assert_eq!(placeholders(text), wanted, "{lang} `{key}`: {text}");
                    assert!(!text.trim().is_empty(), "{lang} `{key}` is empty");
                }
                match (source, word) {
                    (Word::Text(_), Word::Text(_)) => {}
                    (Word::Plural(_), Word::Plural(forms)) => {
                        let mut needed: Vec<&str> = (0..200).map(|n| category(lang, n)).collect();
                        needed.sort_unstable();
                        needed.dedup();
                        for c in needed {
                            assert!(forms.contains_key(c), "{lang} `{key}` lacks its `{c}` form");
                        }
                    }
                    _ => panic!("{lang} `{key}` is a count in one language and not the other"),
                }
            }
        }
    }

    #[test]
    fn counts_take_each_languages_plural_forms() {
        let ru = Words::of(Some("ru")).unwrap();
        let got: Vec<String> = [1, 2, 5, 11, 21, 22, 158].map(|n| ru.counted("cards", n)).into();
        assert_eq!(
            got,
            ["1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты", "158 карт"]
        );
        let fr = Words::of(Some("fr-CA")).unwrap();
        assert_eq!([fr.counted("boxes", 1), fr.counted("boxes", 2)], ["1 boîte", "2 boîtes"]);
        let en = Words::english();
        assert_eq!(en.count("players", 4, "2–4", &[]), "**2–4** players");
        assert_eq!(en.with("footer", &[("name", "Track")]), "Track · print and play");
        assert!(Words::of(Some("de")).is_none());
    }
}
