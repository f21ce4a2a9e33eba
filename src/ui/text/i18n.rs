//! Every label in Chinese and English, from the Fluent files in `i18n/` (`en` and `zh-CN`, the
//! same message ids in each; a test checks it). A label is named where it is used: `t!` for a
//! message without arguments, `tr!` for one with arguments, `label!` for one kept to be said
//! later; `i18n-embed-fl` checks ids and arguments at compile time, and plurals follow each
//! language's rules. The default language follows the OS.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use i18n_embed::LanguageLoader;
use i18n_embed::fluent::{FluentLanguageLoader, fluent_language_loader};
use rust_embed::RustEmbed;
use serde::{Deserialize, Serialize};

#[derive(RustEmbed)]
#[folder = "i18n/"]
struct Translations;

/// A message of the UI in a language: `tr!(lang, "id")`, `tr!(lang, "id", n = count)`.
macro_rules! tr {
    ($lang:expr, $id:literal) => {
        i18n_embed_fl::fl!($crate::ui::text::i18n::loader($lang), $id)
    };
    ($lang:expr, $id:literal, $($args:tt)*) => {
        i18n_embed_fl::fl!($crate::ui::text::i18n::loader($lang), $id, $($args)*)
    };
}
pub(crate) use tr;

/// A message without arguments: `t!(lang, "id")`, checked like `tr!` and formatted once per
/// language at each place it is named (a frame names hundreds of labels).
macro_rules! t {
    ($lang:expr, $id:literal) => {{
        static SAID: [std::sync::OnceLock<&'static str>; 2] =
            [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
        let lang: $crate::ui::text::i18n::Lang = $lang;
        *SAID[lang as usize]
            .get_or_init(|| Box::leak($crate::ui::text::i18n::tr!(lang, $id).into_boxed_str()))
    }};
}
pub(crate) use t;

/// A label kept to be said later, in the language chosen by then (a toast's action, the status
/// bar's last call, a column's title): `label!("id")`, whose id `fl!` checks at compile time.
macro_rules! label {
    ($id:literal) => {{
        // Never called: naming the message here is what makes `fl!` check that it exists.
        #[allow(dead_code)]
        fn exists() -> String {
            $crate::ui::text::i18n::tr!($crate::ui::text::i18n::Lang::En, $id)
        }
        $crate::ui::text::i18n::Label::checked($id)
    }};
}
pub(crate) use label;

/// The id of a message that exists (made by `label!`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Label(&'static str);

impl Label {
    /// For `label!` only, which has checked the id.
    #[doc(hidden)]
    pub const fn checked(id: &'static str) -> Label {
        Label(id)
    }

    /// The label in a language.
    pub fn text(self, lang: Lang) -> &'static str {
        lookup(lang, self.0).unwrap_or(self.0)
    }
}

fn load(language: &str) -> FluentLanguageLoader {
    let loader: FluentLanguageLoader = fluent_language_loader!();
    // The files are compiled in, so this fails only for a defect the tests catch; English,
    // the fallback, then answers.
    match language.parse() {
        Ok(id) => {
            if let Err(e) = loader.load_languages(&Translations, &[id]) {
                tracing::error!(error = %e, language, "the translations could not be loaded");
            }
        }
        Err(e) => tracing::error!(error = %e, language, "not a language identifier"),
    }
    // egui lays text out itself: Unicode isolation marks around arguments would show as boxes.
    loader.set_use_isolating(false);
    loader
}

static ENGLISH: LazyLock<FluentLanguageLoader> = LazyLock::new(|| load("en"));
static CHINESE: LazyLock<FluentLanguageLoader> = LazyLock::new(|| load("zh-CN"));

/// The messages of a language (one loader each: tests run windows in both at once).
pub fn loader(lang: Lang) -> &'static FluentLanguageLoader {
    match lang {
        Lang::En => &ENGLISH,
        Lang::Zh => &CHINESE,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// Chinese when the OS's first language is Chinese, else English: the user's UI language on
    /// Windows and macOS, `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` or `LANG` elsewhere.
    pub fn from_os() -> Lang {
        match sys_locale::get_locale() {
            Some(locale) if locale.to_ascii_lowercase().starts_with("zh") => Lang::Zh,
            _ => Lang::En,
        }
    }

    /// The language's own name, as the switch shows it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "中文",
        }
    }
}

/// "label: value" with the language's colon (full-width in Chinese, with no space after it).
pub fn labelled(lang: Lang, label: &str, value: &str) -> String {
    tr!(lang, "labelled", label = label, value = value)
}

/// "words (note)" with the language's brackets (full-width in Chinese).
pub fn noted(lang: Lang, words: &str, note: &str) -> String {
    tr!(lang, "noted", words = words, note = note)
}

/// A message named at run time (an interface field's label), formatted once and kept; None
/// when there is no such message.
pub fn lookup(lang: Lang, id: &str) -> Option<&'static str> {
    // One map per language, so that a known id is found without building a key.
    type Found = [HashMap<String, Option<&'static str>>; 2];
    static FOUND: LazyLock<Mutex<Found>> = LazyLock::new(|| Mutex::new(Default::default()));
    let mut found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    let known = &mut found[lang as usize];
    if let Some(message) = known.get(id) {
        return *message;
    }
    let loader = loader(lang);
    let message = loader
        .has(id)
        .then(|| &*Box::leak(loader.get(id).into_boxed_str()));
    known.insert(id.to_owned(), message);
    message
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const ENGLISH_FTL: &str = include_str!("../../../i18n/en/license_desk.ftl");
    const CHINESE_FTL: &str = include_str!("../../../i18n/zh-CN/license_desk.ftl");

    /// The ids a Fluent file defines (a message starts a line with its id and ` =`).
    fn ids(ftl: &str) -> BTreeSet<&str> {
        ftl.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id))
            .collect()
    }

    #[test]
    fn every_message_is_in_both_languages_and_loads() {
        let (en, zh) = (ids(ENGLISH_FTL), ids(CHINESE_FTL));
        assert!(en.len() > 250, "{} messages", en.len());
        let only_en: Vec<_> = en.difference(&zh).collect();
        let only_zh: Vec<_> = zh.difference(&en).collect();
        assert!(only_en.is_empty(), "missing in Chinese: {only_en:?}");
        assert!(only_zh.is_empty(), "missing in English: {only_zh:?}");
        // Each file parsed whole: every message answers in its own language.
        for id in &en {
            assert!(loader(Lang::En).has(id), "{id} did not load in English");
            assert!(loader(Lang::Zh).has(id), "{id} did not load in Chinese");
        }
    }

    /// The Chinese UI names the interface's fields in Chinese: no camelCase name of the
    /// interface (gmsPid, srcLicenseOrderId…) is left in a message.
    #[test]
    fn chinese_messages_name_no_field_of_the_interface_in_english() {
        let camel = |word: &str| {
            let mut chars = word.chars();
            chars.next().is_some_and(|c| c.is_ascii_lowercase())
                && word.chars().all(|c| c.is_ascii_alphanumeric())
                && word.chars().any(|c| c.is_ascii_uppercase())
        };
        for line in CHINESE_FTL.lines().filter(|l| !l.starts_with('#')) {
            let text = line.split_once(" = ").map_or(line, |(_, text)| text);
            let words = text.split(|c: char| !c.is_ascii_alphanumeric());
            let left: Vec<_> = words.filter(|w| camel(w) && *w != "macOS").collect();
            assert!(left.is_empty(), "{line}: {left:?}");
        }
        for id in ["field-gmsPid", "field-appKey", "catalog-uri", "catalog-pid"] {
            let words = loader(Lang::Zh).get(id);
            assert!(!words.is_ascii(), "{id} = {words}");
        }
        assert_eq!(tr!(Lang::Zh, "template-file-name"), "订单模板.xlsx");
    }

    #[test]
    fn plurals_follow_each_language() {
        assert_eq!(tr!(Lang::En, "do-disable", n = 1), "Disable 1 lock");
        assert_eq!(tr!(Lang::En, "do-disable", n = 3), "Disable 3 locks");
        assert_eq!(tr!(Lang::En, "confirm-enable", n = 1), "Enable 1 lock?");
        assert_eq!(
            tr!(
                Lang::En,
                "summary-counts",
                assets = 1,
                packages = 1,
                products = 2
            ),
            "1 asset number, 1 package, 2 products."
        );
        // Chinese has one form.
        assert_eq!(tr!(Lang::Zh, "do-disable", n = 1), "禁用 1 把加密锁");
        assert_eq!(tr!(Lang::Zh, "do-disable", n = 2), "禁用 2 把加密锁");
        // No isolation marks around arguments: egui would draw them as boxes.
        assert!(!tr!(Lang::En, "on-profile", profile = "Sandbox").contains('\u{2068}'));
        assert_eq!(t!(Lang::Zh, "customers"), "客户");
        assert_eq!(label!("customers").text(Lang::Zh), "客户");
        assert_eq!(labelled(Lang::Zh, "代码", "13004"), "代码：13004");
        assert_eq!(noted(Lang::En, "Sent", "twice"), "Sent (twice)");
    }
}
