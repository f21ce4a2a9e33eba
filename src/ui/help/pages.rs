//! The user manual's pages (`docs/manual/<language>/*.md`), built into the binary so that Help
//! works the same on every machine, the Windows build under Wine included.

use std::borrow::Cow;

use rust_embed::RustEmbed;

use crate::ui::Screen;
use crate::ui::text::i18n::Lang;

#[derive(RustEmbed)]
#[folder = "docs/manual/"]
struct Manual;

/// The manual's pages in its contents' order: the file's name and its title in each language
/// (read from the page's first heading).
pub const PAGES: [&str; 17] = [
    "index.md",
    "start.md",
    "customers.md",
    "customer-page.md",
    "renewals.md",
    "orders.md",
    "deletes.md",
    "assets.md",
    "activities.md",
    "asset-numbers.md",
    "send-later.md",
    "history.md",
    "approvals.md",
    "catalog.md",
    "settings.md",
    "troubleshooting.md",
    "shortcuts.md",
];

fn folder(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Zh => "zh-CN",
    }
}

/// A page's text in `lang`, without its pictures: in the window the console itself is beside
/// the manual (the pictures are for the manual read as files).
pub fn text(lang: Lang, page: &str) -> Option<String> {
    let file = Manual::get(&format!("{}/{page}", folder(lang)))?;
    let text = match String::from_utf8_lossy(&file.data) {
        Cow::Borrowed(text) => text.to_owned(),
        Cow::Owned(text) => text,
    };
    Some(
        text.lines()
            .filter(|line| !line.trim_start().starts_with("!["))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// A page's title: its first heading, else its file's name.
pub fn title(lang: Lang, page: &str) -> String {
    text(lang, page)
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_owned()))
        })
        .unwrap_or_else(|| page.to_owned())
}

/// The page that explains `screen`, which `F1` opens.
pub fn page_of(screen: Screen) -> &'static str {
    match screen {
        Screen::Start => "start.md",
        Screen::Customers => "customers.md",
        Screen::Renewals => "renewals.md",
        Screen::Orders => "orders.md",
        Screen::Catalog => "catalog.md",
        Screen::Assets => "assets.md",
        Screen::Activities => "activities.md",
        Screen::AssetNumbers => "asset-numbers.md",
        Screen::SendLater => "send-later.md",
        Screen::History => "history.md",
        Screen::Approvals => "approvals.md",
        Screen::Settings => "settings.md",
        Screen::Customer => "customer-page.md",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page of the contents is there in both languages, titled, and every link between
    /// pages goes to one of them.
    #[test]
    fn every_page_is_in_both_languages_and_its_links_land() {
        for lang in [Lang::En, Lang::Zh] {
            for page in PAGES {
                let text = text(lang, page).unwrap_or_else(|| panic!("{lang:?}: {page} missing"));
                assert!(
                    text.starts_with("# "),
                    "{lang:?}: {page} has no title first"
                );
                for link in text.split("](").skip(1).filter_map(|s| s.split(')').next()) {
                    if link.ends_with(".md") {
                        assert!(PAGES.contains(&link), "{lang:?}: {page} links to {link}");
                    }
                }
            }
        }
        for screen in Screen::ALL.into_iter().chain([Screen::Customer]) {
            assert!(PAGES.contains(&page_of(screen)));
        }
    }
}
