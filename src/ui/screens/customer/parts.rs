//! The page's tabs: its assets by license type (only the lines on screen are drawn, so 10,000
//! assets scroll as smoothly as ten), its timeline, its customers.

use egui::RichText;

use super::{CustomerScreen, PageAction};
use crate::core::customer::{Event, Page, TeamLog, What};
use crate::core::renewals::{Trouble, Window, days_left};
use crate::ui::kit::theme;
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, t, tr};
use crate::ui::text::labels::order_type_words;
use crate::ui::text::labels::{chip_words, license_code_words, operation_words, state_words};

const ROW_HEIGHT: f32 = 24.0;

/// A line of the assets' list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Line {
    /// A license type's heading: the type's first asset, and how many it has.
    Heading {
        first: usize,
        count: usize,
    },
    Asset(usize),
}

/// The assets' lines, by license type; and each asset's rows in the holdings.
pub(super) fn lines_of(page: &Page) -> (Vec<Line>, Vec<Vec<u32>>) {
    let by_asset = page.rows_by_asset();
    let rows = page
        .assets
        .iter()
        .map(|a| {
            by_asset
                .get(a.asset_num.as_str())
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    let mut lines = Vec::with_capacity(page.assets.len() + 8);
    for license_type in page.license_types() {
        let of_type: Vec<usize> = (0..page.assets.len())
            .filter(|i| page.assets[*i].license_type == license_type)
            .collect();
        let first = of_type.first().copied().unwrap_or_default();
        lines.push(Line::Heading {
            first,
            count: of_type.len(),
        });
        lines.extend(of_type.into_iter().map(Line::Asset));
    }
    (lines, rows)
}

/// An id, and a button that copies it.
pub(super) fn copyable_ui(ui: &mut egui::Ui, lang: Lang, id: &str) {
    ui.label(RichText::new(id).monospace());
    let copy =
        ui.small_button(t!(lang, "page-copy"))
            .on_hover_text(tr!(lang, "page-copy-help", id = id));
    if copy.clicked() {
        ui.ctx().copy_text(id.to_owned());
    }
}

impl CustomerScreen {
    pub(super) fn assets_ui(&mut self, ui: &mut egui::Ui, page: &Page, lang: Lang) {
        if page.assets.is_empty() {
            ui.label(RichText::new(t!(lang, "page-no-assets")).weak());
            return;
        }
        let today = dates::today();
        let tz = jiff::tz::TimeZone::system();
        let window = Window::days(today, &tz, self.days);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show_rows(ui, ROW_HEIGHT, self.lines.len(), |ui, range| {
                for line in &self.lines[range] {
                    match *line {
                        Line::Heading { first, count } => {
                            let code = &page.assets[first].license_type;
                            let words = license_code_words(lang, code);
                            ui.label(RichText::new(format!("{words} ({count})")).strong());
                        }
                        Line::Asset(i) => {
                            let chosen = self.chosen.contains(&i);
                            let mut now = chosen;
                            asset_ui(ui, page, &self.rows[i], i, &mut now, window, lang);
                            if now != chosen {
                                if now {
                                    self.chosen.insert(i);
                                } else {
                                    self.chosen.remove(&i);
                                }
                            }
                        }
                    }
                }
            });
    }
}

/// One asset: chosen or not, its number, lock, chip, products, and its soonest end
/// (highlighted when within the window).
fn asset_ui(
    ui: &mut egui::Ui,
    page: &Page,
    rows: &[u32],
    i: usize,
    chosen: &mut bool,
    window: Option<Window>,
    lang: Lang,
) {
    let a = &page.assets[i];
    ui.horizontal(|ui| {
        ui.set_height(ROW_HEIGHT - 4.0);
        let name = tr!(lang, "page-choose", asset = a.asset_num.as_str());
        ui.checkbox(chosen, "")
            .widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, *chosen, &name));
        cell_ui(ui, 110.0, RichText::new(&a.asset_num).monospace());
        let lock = if a.locked {
            RichText::new(t!(lang, "page-locked")).color(theme::palette(ui).danger_text)
        } else {
            RichText::new(t!(lang, "page-unlocked"))
        };
        cell_ui(ui, 64.0, lock);
        cell_ui(ui, 100.0, RichText::new(chip_words(lang, a.chip)).weak());
        let n = a.products;
        cell_ui(ui, 80.0, RichText::new(tr!(lang, "page-products", n = n)));
        soonest_ui(ui, page, rows, window, lang);
    });
}

/// A column of the asset's line: as wide in every line, so that the lines read as a table.
fn cell_ui(ui: &mut egui::Ui, width: f32, text: RichText) {
    let size = egui::vec2(width, ROW_HEIGHT - 4.0);
    let layout = egui::Layout::left_to_right(egui::Align::Center);
    ui.allocate_ui_with_layout(size, layout, |ui| {
        ui.set_min_width(width);
        ui.add(egui::Label::new(text).truncate());
    });
}

/// The asset's row that ends soonest, with its days left and source; the others on hover.
fn soonest_ui(ui: &mut egui::Ui, page: &Page, rows: &[u32], window: Option<Window>, lang: Lang) {
    let table = &page.holdings.table;
    let soonest = rows
        .iter()
        .map(|i| table.get(*i as usize))
        .filter(|r| r.trouble().is_none())
        .min_by_key(|r| r.end());
    let Some(row) = soonest else {
        // Dates that cannot be counted are said, not hidden.
        let troubled = rows.iter().find_map(|i| table.get(*i as usize).trouble());
        match troubled {
            Some(trouble) => {
                let words = trouble_words(lang, trouble);
                ui.colored_label(ui.visuals().warn_fg_color, words);
            }
            None => {
                ui.label(RichText::new(t!(lang, "page-no-date")).weak());
            }
        }
        return;
    };
    let today = dates::today();
    let tz = jiff::tz::TimeZone::system();
    let left = days_left(row.end(), today, &tz).unwrap_or_default();
    let product = row
        .product_name()
        .or(row.product_uri())
        .unwrap_or(t!(lang, "page-the-asset"));
    let end = dates::local_date(row.end());
    let words = tr!(lang, "page-ends-on", product = product, end = end, n = left);
    let soon = window.is_some_and(|w| w.holds(&row));
    let text = if soon {
        RichText::new(words)
            .strong()
            .color(ui.visuals().warn_fg_color)
    } else {
        RichText::new(words)
    };
    let all: Vec<String> = rows
        .iter()
        .map(|i| {
            let r = table.get(*i as usize);
            let name = r.product_name().or(r.product_uri()).unwrap_or_default();
            let end = dates::local_date(r.end());
            match r.trouble() {
                Some(Trouble::Renewed) => tr!(lang, "page-renewed", product = name, end = end),
                Some(trouble) => format!("{name}  {end}: {}", trouble_words(lang, trouble)),
                None => format!("{name}  {end}"),
            }
        })
        .collect();
    ui.label(text).on_hover_text(all.join("\n"));
}

fn trouble_words(lang: Lang, trouble: Trouble) -> &'static str {
    match trouble {
        Trouble::Reversed => t!(lang, "page-dates-reversed"),
        Trouble::NoRealEnd => t!(lang, "page-no-real-end"),
        Trouble::Renewed => t!(lang, "page-renewed-only"),
    }
}

/// What was sent for the enterprise, newest first (this console's calls, and on a team
/// profile the server's log); a click opens this console's entry in History.
pub(super) fn timeline_ui(ui: &mut egui::Ui, page: &Page, lang: Lang) -> Option<PageAction> {
    match &page.team_log {
        Some(TeamLog::Read { entries }) => {
            let n = *entries;
            ui.label(RichText::new(tr!(lang, "page-team-log", n = n)).weak());
        }
        Some(TeamLog::NotRead { why }) => {
            let words = tr!(lang, "page-team-log-unread", why = why.as_str());
            ui.colored_label(ui.visuals().warn_fg_color, words);
        }
        None => {}
    }
    if page.timeline.is_empty() {
        ui.label(RichText::new(t!(lang, "page-no-timeline")).weak());
        return None;
    }
    let mut opened = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, ROW_HEIGHT, page.timeline.len(), |ui, range| {
            for e in &page.timeline[range] {
                ui.horizontal(|ui| {
                    ui.set_height(ROW_HEIGHT - 4.0);
                    let now = crate::core::now_ms();
                    // The link first, so that a narrow window cuts the words, not it.
                    if let Some(id) = e.entry_id {
                        let open = tr!(lang, "page-open-history", n = id);
                        if ui.small_button(open).clicked() {
                            opened = Some(PageAction::History(id));
                        }
                    }
                    ui.label(RichText::new(dates::local_time(e.at, now)).monospace());
                    if let Some(person) = &e.person {
                        ui.label(RichText::new(person).italics());
                    }
                    if let Some(state) = state_words(lang, e.state) {
                        ui.label(RichText::new(state).strong());
                    }
                    let words = event_words(e, lang);
                    let line = ui.add(egui::Label::new(&words).truncate());
                    let hover = match &e.message {
                        Some(message) => format!("{words}\n\n{message}"),
                        None => words,
                    };
                    line.on_hover_text(hover);
                });
            }
        });
    opened
}

fn event_words(e: &Event, lang: Lang) -> String {
    match &e.what {
        What::Batch {
            channel_order_id,
            kinds,
            assets,
            products,
            ..
        } => {
            let kinds: Vec<String> = kinds.iter().map(|k| order_type_words(lang, *k)).collect();
            let kinds = kinds.join(", ");
            let n = assets.len();
            let products = products.join(", ");
            let id = channel_order_id.as_str();
            tr!(
                lang,
                "page-ev-batch",
                id = id,
                kinds = kinds,
                n = n,
                products = products
            )
        }
        What::Locks { disable, assets } => {
            let assets = assets.join(", ");
            if *disable {
                tr!(lang, "page-ev-disabled", assets = assets)
            } else {
                tr!(lang, "page-ev-enabled", assets = assets)
            }
        }
        What::Claim { identity, activity } => {
            let (identity, activity) = (identity.as_str(), activity.as_str());
            tr!(
                lang,
                "page-ev-claim",
                identity = identity,
                activity = activity
            )
        }
        What::Customer { name } => {
            let op = operation_words(lang, &e.operation);
            let name = name.as_str();
            tr!(lang, "page-ev-customer", op = op, name = name)
        }
    }
}

/// The enterprise's customers as operation 3 gives them; why not, when it did not.
pub(super) fn customers_ui(ui: &mut egui::Ui, page: &Page, lang: Lang) {
    if page.customers.is_empty() {
        let words = match page.customers_state {
            crate::core::renewals::ReadState::NotRead => t!(lang, "page-customers-not-asked"),
            _ => t!(lang, "page-no-customers"),
        };
        ui.label(RichText::new(words).weak());
        return;
    }
    egui::Grid::new("page_customers")
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            for words in [
                t!(lang, "customer-id"),
                t!(lang, "channel-code"),
                t!(lang, "channel-customer-id"),
                t!(lang, "page-default"),
            ] {
                ui.label(RichText::new(words).strong());
            }
            ui.end_row();
            for c in &page.customers {
                ui.horizontal(|ui| copyable_ui(ui, lang, &c.customer_id));
                ui.label(&c.channel_code);
                ui.horizontal(|ui| copyable_ui(ui, lang, &c.channel_customer_id));
                ui.label(if c.is_default { "✔" } else { "" });
                ui.end_row();
            }
        });
}
