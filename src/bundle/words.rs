//! The bundle's own words in each language deckpress ships (words.toml, compiled in):
//! what the cover, the print guide, the bookmarks, page labels and footers say, as
//! opposed to the game's own words (its rulebook and `[lang.LANG.*]`). A language the
//! table lacks prints in English, with a warning naming it (`words_for`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::diag::Diagnostic;
use crate::model::Catalogue;

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
        toml::from_str(include_str!("words.toml")).expect("src/bundle/words.toml is valid TOML")
    })
}

/// The bundle's words in one language.
#[derive(Clone, Copy)]
pub struct Words {
    lang: &'static str,
    words: &'static BTreeMap<String, Word>,
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Words({})", self.lang)
    }
}

impl Words {
    pub fn english() -> Words {
        let (lang, words) = table().get_key_value(SOURCE).expect("words.toml has English");
        Words { lang, words }
    }

    /// The words of `lang` (no language: English), those of its primary subtag (`pt` for
    /// `pt-BR`), or `None` when deckpress has none.
    pub fn of(lang: Option<&str>) -> Option<Words> {
        let Some(lang) = lang else { return Some(Words::english()) };
        let primary = lang.split(['-', '_']).next().unwrap_or(lang);
        [lang, primary]
            .into_iter()
            .find_map(|l| table().get_key_value(l))
            .map(|(lang, words)| Words { lang, words })
    }

    /// The languages deckpress has words in.
    pub fn languages() -> Vec<&'static str> {
        table().keys().map(String::as_str).collect()
    }

    /// `key`'s text with each `{name}` of `args` filled in.
    pub fn with(&self, key: &str, args: &[(&str, &str)]) -> String {
        let text = match self.word(key) {
            Some(Word::Text(t)) => t.as_str(),
            Some(Word::Plural(forms)) => form(forms, "other"),
            None => key,
        };
        fill(text, args)
    }

    pub fn get(&self, key: &str) -> String {
        self.with(key, &[])
    }

    /// `key`'s plural form for `n`, with `{n}` as `shown` (`2–4`, or `n` itself) and `args`.
    pub fn count(&self, key: &str, n: u64, shown: &str, args: &[(&str, &str)]) -> String {
        let text = match self.word(key) {
            Some(Word::Plural(forms)) => form(forms, category(self.lang, n)),
            Some(Word::Text(t)) => t.as_str(),
            None => key,
        };
        let mut all = vec![("n", shown)];
        all.extend_from_slice(args);
        fill(text, &all)
    }

    /// `count` of `n` shown as itself.
    pub fn counted(&self, key: &str, n: u64) -> String {
        self.count(key, n, &n.to_string(), &[])
    }

    /// The word in this language; in English if this one lacks it (the unit tests keep
    /// every language whole, so this is only a guard).
    fn word(&self, key: &str) -> Option<&'static Word> {
        self.words.get(key).or_else(|| Words::english().words.get(key))
    }
}

/// The bundle's words for `lang`, and a warning when deckpress has none in it (they print
/// in English, under a cover and guide of another language's edition).
pub fn words_for(cat: &Catalogue, lang: Option<&str>) -> (Words, Option<Diagnostic>) {
    if let Some(words) = Words::of(lang) {
        return (words, None);
    }
    let lang = lang.unwrap_or_default();
    let warning = Diagnostic::warning(
        &cat.game_toml,
        None,
        format!(
            "deckpress has no `{lang}` words for its own pages: the cover, print guide, bookmarks and page labels of the `{lang}` edition print in English"
        ),
    )
    .with_note(format!(
        "deckpress's own words are in {} (src/bundle/words.toml); the game's names and rulebook are its own ([lang.{lang}.*], rules.{lang}.md)",
        crate::diag::accepted(Words::languages())
    ));
    (Words::english(), Some(warning))
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
