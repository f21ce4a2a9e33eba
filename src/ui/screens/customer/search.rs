//! The top bar's search for a customer (`Ctrl+K` from anywhere): the directory's names, ids
//! and pinyin initials, as the composer's picker searches them; ↑ ↓ and Enter, or a click,
//! open the customer's page; Escape closes the list.

use std::sync::Arc;

use egui::{Key, Modifiers};

use crate::core::Awaited;
use crate::core::catalog::{self, CatalogView, DirectoryEntry};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, t};

/// Matches listed under the field.
const SHOWN: usize = 8;

/// What a pick opens.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Picked {
    /// A customer's page: an enterprise global id (true), or what was typed (false), to be
    /// placed by the directory.
    Page(String, bool),
    /// A customer the directory holds with no enterprise yet (bound or made by a colleague a
    /// moment ago): there is no page to open, so Customers › Query asks the platform for it.
    Query {
        channel_code: String,
        customer: String,
    },
}

#[derive(Default)]
pub(crate) struct CustomerSearch {
    view: Option<Arc<CatalogView>>,
    load: Awaited<Arc<CatalogView>>,
    text: String,
    open: bool,
    /// The match ↑ and ↓ are on.
    cursor: usize,
    /// The list was under the pointer at the last frame: a click on it keeps it open.
    hovered: bool,
}

impl CustomerSearch {
    /// Takes the directory when it has come; a directory that cannot be read leaves the list
    /// empty, said where the catalog is shown, not here at every keystroke.
    pub(crate) fn poll(&mut self) {
        if let Some(Ok(view)) = self.load.take() {
            self.view = Some(view);
        }
    }

    /// The field; what to open.
    pub(crate) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &str,
    ) -> Option<Picked> {
        let name = ui.label(t!(lang, "page-search"));
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut self.text)
                    .hint_text(t!(lang, "page-search-hint"))
                    .desired_width(180.0),
            )
            .labelled_by(name.id);
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::K)) {
            field.request_focus();
        }
        if field.gained_focus() || field.changed() {
            self.open = true;
            self.cursor = 0;
            let stale = self.view.as_ref().is_none_or(|v| v.profile != profile);
            if stale && !self.load.is_waiting() {
                let profile = profile.to_owned();
                self.load.start(out.ask(catalog::Load { profile }));
            }
        }
        let found = self.found();
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        if field.lost_focus() && !self.hovered && !entered {
            self.open = false;
        }
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            self.open = false;
        }
        if field.has_focus() {
            let (down, up) =
                ui.input(|i| (i.key_pressed(Key::ArrowDown), i.key_pressed(Key::ArrowUp)));
            let last = found.len().saturating_sub(1);
            self.cursor = (self.cursor + usize::from(down)).min(last);
            self.cursor = self.cursor.saturating_sub(usize::from(up));
        }
        let mut picked = None;
        if entered && self.open && !self.text.trim().is_empty() {
            picked = Some(match found.get(self.cursor) {
                Some(e) => target(e),
                None => Picked::Page(self.text.trim().to_owned(), false),
            });
        }
        if self.open && !self.text.trim().is_empty() {
            picked = picked.or_else(|| self.list_ui(ui, &field, &found, lang));
        } else {
            self.hovered = false;
        }
        if picked.is_some() {
            self.open = false;
            self.text.clear();
        }
        picked
    }

    /// The matches, best first, one per enterprise (a page is an enterprise's).
    fn found(&self) -> Vec<DirectoryEntry> {
        let Some(view) = &self.view else {
            return Vec::new();
        };
        let mut seen = std::collections::HashSet::new();
        view.customer_index
            .find(self.text.trim(), SHOWN * 4)
            .into_iter()
            .filter_map(|i| view.customers.get(i).map(|k| &k.item))
            .filter(|e| seen.insert(target(e)))
            .take(SHOWN)
            .cloned()
            .collect()
    }

    fn list_ui(
        &mut self,
        ui: &egui::Ui,
        field: &egui::Response,
        found: &[DirectoryEntry],
        lang: Lang,
    ) -> Option<Picked> {
        let mut picked = None;
        let area = egui::Area::new(field.id.with("matches"))
            .order(egui::Order::Foreground)
            .fixed_pos(field.rect.left_bottom())
            .show(ui.ctx(), |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_min_width(field.rect.width().max(280.0));
                    if found.is_empty() {
                        ui.label(t!(lang, "page-search-none"));
                    }
                    for (i, e) in found.iter().enumerate() {
                        let words = entry_words(e, lang);
                        if ui.selectable_label(i == self.cursor, words).clicked() {
                            picked = Some(target(e));
                        }
                    }
                });
            });
        self.hovered = area.response.contains_pointer();
        picked
    }
}

/// A directory entry's page: its enterprise global id; with none, the platform's query for
/// its channel customer; else its ids for the directory to place.
fn target(e: &DirectoryEntry) -> Picked {
    use crate::core::wire::preview::given;
    if let Some(id) = given(&e.enterprise_global_id) {
        return Picked::Page(id, true);
    }
    match (given(&e.channel_code), given(&e.channel_customer_id)) {
        (Some(channel_code), Some(customer)) => Picked::Query {
            channel_code,
            customer,
        },
        _ => {
            let id = e.ids().first().map(|s| (*s).to_owned()).unwrap_or_default();
            Picked::Page(id, false)
        }
    }
}

fn entry_words(e: &DirectoryEntry, lang: Lang) -> String {
    let mut names = e.names();
    names.dedup();
    let names = names.join(" · ");
    match (&e.enterprise_global_id, &e.channel_customer_id) {
        (Some(id), _) => format!("{names}  {id}"),
        (None, id) => {
            let id = id.as_deref().unwrap_or_default();
            format!("{names}  {id} · {}", t!(lang, "page-search-no-enterprise"))
        }
    }
}
