//! Help: the user manual in a window over the screens, in the UI's language. `F1` opens the
//! page of the screen shown; the top bar's *Help* opens the contents and the shortcuts.

pub mod pages;

use egui_commonmark::{CommonMarkCache, CommonMarkViewer};

use crate::ui::Screen;
use crate::ui::text::i18n::{Lang, t};

/// The manual's window: whether it is open, and the page it shows.
pub struct Help {
    open: bool,
    page: &'static str,
    cache: CommonMarkCache,
    /// The page's text in the language it was read in, read again on a change of either.
    shown: Option<(Lang, &'static str, String)>,
    /// The contents' titles in the language they were read in.
    titles: Option<(Lang, Vec<String>)>,
}

impl Default for Help {
    fn default() -> Self {
        let mut cache = CommonMarkCache::default();
        // Links between pages open them here rather than in a browser.
        for page in pages::PAGES {
            cache.add_link_hook(page);
        }
        Self {
            open: false,
            page: pages::PAGES[0],
            cache,
            shown: None,
            titles: None,
        }
    }
}

impl Help {
    /// Opens the manual at `page` (one of `pages::PAGES`).
    pub fn open_at(&mut self, page: &'static str) {
        self.open = true;
        self.page = page;
    }

    /// `F1`: the page of `screen`, or closes the manual when it already shows it.
    pub fn keys(&mut self, ui: &egui::Ui, screen: Screen) {
        if ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F1)) {
            self.toggle_for(screen);
        }
    }

    fn toggle_for(&mut self, screen: Screen) {
        let page = pages::page_of(screen);
        if self.open && self.page == page {
            self.open = false;
        } else {
            self.open_at(page);
        }
    }

    /// The top bar's *Help* menu.
    pub fn menu_ui(&mut self, ui: &mut egui::Ui, lang: Lang, screen: Screen) {
        ui.menu_button(t!(lang, "help-menu"), |ui| {
            if ui.button(t!(lang, "help-this-screen")).clicked() {
                self.open_at(pages::page_of(screen));
                ui.close();
            }
            if ui.button(t!(lang, "help-contents")).clicked() {
                self.open_at("index.md");
                ui.close();
            }
            if ui.button(t!(lang, "help-shortcuts")).clicked() {
                self.open_at("shortcuts.md");
                ui.close();
            }
        });
    }

    /// The window, when open. `Esc` closes it.
    pub fn window_ui(&mut self, ctx: &egui::Context, lang: Lang) {
        if !self.open {
            return;
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
            self.open = false;
            return;
        }
        let mut open = true;
        let size = ctx.content_rect().size();
        egui::Window::new(t!(lang, "help-title"))
            .id(egui::Id::unique("help_window"))
            .open(&mut open)
            .default_size([(size.x * 0.7).min(820.0), size.y * 0.8])
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .max_height(size.y - 40.0)
            .show(ctx, |ui| self.body_ui(ui, lang));
        self.open &= open;
    }

    fn body_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        egui::Panel::left("help_contents")
            .resizable(false)
            .exact_size(170.0)
            .show(ui, |ui| {
                if self.titles.as_ref().is_none_or(|(l, _)| *l != lang) {
                    let titles = pages::PAGES.map(|p| pages::title(lang, p));
                    self.titles = Some((lang, titles.to_vec()));
                }
                let titles = self
                    .titles
                    .as_ref()
                    .map(|(_, t)| t.as_slice())
                    .unwrap_or_default();
                egui::ScrollArea::vertical().show(ui, |ui| {
                    for (page, title) in pages::PAGES.into_iter().zip(titles) {
                        if ui.selectable_label(self.page == page, title).clicked() {
                            self.page = page;
                        }
                    }
                });
            });
        if self
            .shown
            .as_ref()
            .is_none_or(|(l, p, _)| *l != lang || *p != self.page)
        {
            let text = pages::text(lang, self.page).unwrap_or_default();
            self.shown = Some((lang, self.page, text));
        }
        let Some((_, _, text)) = &self.shown else {
            return;
        };
        // Both ways: text wraps at the window's width, and a table wider than it scrolls
        // sideways rather than being cut at its right edge.
        let width = ui.available_width();
        egui::ScrollArea::both()
            .id_salt(("help_page", self.page))
            .show(ui, |ui| {
                ui.set_max_width(width);
                CommonMarkViewer::new().show(ui, &mut self.cache, text);
            });
        let clicked = pages::PAGES
            .into_iter()
            .find(|page| self.cache.get_link_hook(page) == Some(true));
        if let Some(page) = clicked {
            self.page = page;
        }
    }
}
