//! Renewals' table: only the rows on screen are drawn, so a million rows scroll as a hundred
//! do; a header click sorts by its column (the orders are made by the core), again reverses.

use egui::RichText;
use egui_extras::{Column, TableBuilder};

use super::RenewalsScreen;
use crate::core::renewals::{Read, RowRef, SortBy, Source};
use crate::core::wire::LicenseType;
use crate::ui::kit::card::number_ui;
use crate::ui::kit::pill::{Tone, pill_ui};
use crate::ui::text::dates::{local_date, today};
use crate::ui::text::i18n::{Lang, t, tr};
use crate::ui::text::labels::{license_type_name, license_type_short};

const ROW_HEIGHT: f32 = 22.0;
/// The check box's column.
const CHOOSE_WIDTH: f32 = 24.0;

/// A column: what it shows, its width when there is room, the least it shrinks to, and the
/// order it sorts by.
type Spec = (Col, f32, f32, Option<SortBy>);

const COLUMNS: [Spec; 9] = [
    (Col::Customer, 220.0, 115.0, Some(SortBy::Customer)),
    (Col::Asset, 110.0, 90.0, Some(SortBy::Asset)),
    (Col::Product, 170.0, 80.0, Some(SortBy::Product)),
    (Col::End, 100.0, 80.0, Some(SortBy::End)),
    (Col::DaysLeft, 80.0, 50.0, Some(SortBy::End)),
    (Col::Branch, 120.0, 70.0, Some(SortBy::Branch)),
    (Col::Type, 170.0, 110.0, Some(SortBy::LicenseType)),
    (Col::Lock, 80.0, 55.0, None),
    (Col::Source, 140.0, 80.0, None),
];

/// The columns shown in `width` pixels and their widths: each shrinks in proportion down to
/// its least, so the table fits the window at 1100 and at 900 px; when even that does not fit,
/// the source column goes (the end date's hover still says it), and below that the table
/// scrolls sideways.
fn fitted(width: f32, spacing: f32) -> Vec<(Col, f32, Option<SortBy>)> {
    let room = |cols: &[Spec]| width - CHOOSE_WIDTH - spacing * (cols.len() + 1) as f32;
    let sum = |cols: &[Spec], f: fn(&Spec) -> f32| cols.iter().map(f).sum::<f32>();
    let mut cols = COLUMNS.to_vec();
    if sum(&cols, |c| c.2) > room(&cols) {
        cols.retain(|c| c.0 != Col::Source);
    }
    let (most, least) = (sum(&cols, |c| c.1), sum(&cols, |c| c.2));
    let share = ((room(&cols) - least) / (most - least)).clamp(0.0, 1.0);
    cols.iter()
        .map(|&(col, wide, narrow, by)| (col, narrow + (wide - narrow) * share, by))
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Customer,
    Asset,
    Product,
    End,
    DaysLeft,
    Branch,
    Type,
    Lock,
    Source,
}

fn title(lang: Lang, col: Col) -> &'static str {
    match col {
        Col::Customer => t!(lang, "renewals-customer"),
        Col::Asset => t!(lang, "asset-number"),
        Col::Product => t!(lang, "product"),
        Col::End => t!(lang, "renewals-end"),
        Col::DaysLeft => t!(lang, "renewals-days-left"),
        Col::Branch => t!(lang, "branch"),
        Col::Type => t!(lang, "license-type-col"),
        Col::Lock => t!(lang, "renewals-lock"),
        Col::Source => t!(lang, "source"),
    }
}

impl RenewalsScreen {
    /// The table; the enterprise whose page a click on a customer asks for.
    pub(super) fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        read: &Read,
        lang: Lang,
    ) -> Option<String> {
        if self.view.is_empty() {
            ui.label(t!(lang, "renewals-empty"));
            return None;
        }
        let today = today();
        let mut clicked = None;
        let mut page = None;
        // A scroll bar of its own height, below the rows: a floating one would lie over the
        // last row and take its clicks. The rows' own bar beside them takes its width too.
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        let bar = ui.spacing().scroll.allocated_width();
        let columns = fitted(ui.available_width() - bar, ui.spacing().item_spacing.x);
        egui::ScrollArea::horizontal().show(ui, |ui| {
            let mut table = TableBuilder::new(ui)
                .id_salt("renewals_table")
                .striped(true)
                .cell_layout(egui::Layout::left_to_right(egui::Align::Center));
            table = table.column(Column::exact(CHOOSE_WIDTH));
            for &(_, width, _) in &columns {
                table = table.column(Column::exact(width).clip(true));
            }
            table
                .header(24.0, |mut header| {
                    header.col(|_| {});
                    for &(col, _, by) in &columns {
                        header.col(|ui| {
                            if header_ui(ui, lang, col, by, self.sort) {
                                clicked = by;
                            }
                        });
                    }
                })
                .body(|body| {
                    body.rows(ROW_HEIGHT, self.view.len(), |mut row| {
                        let i = self.view[row.index()];
                        let r = read.table.get(i as usize);
                        row.col(|ui| choose_ui(ui, lang, &mut self.chosen, i, r.asset_num()));
                        for &(col, _, _) in &columns {
                            row.col(|ui| {
                                if let Some(id) = cell_ui(ui, lang, read, &r, col, today) {
                                    page = Some(id);
                                }
                            });
                        }
                    });
                });
        });
        if let Some(by) = clicked {
            self.sort = match self.sort {
                (now, up) if now == by => (by, !up),
                _ => (by, true),
            };
            self.stale = true;
        }
        page
    }
}

/// The row's check box for a renewal, read out with its asset number.
fn choose_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    chosen: &mut std::collections::BTreeSet<u32>,
    i: u32,
    num: &str,
) {
    let mut on = chosen.contains(&i);
    let name = tr!(lang, "renewals-choose", asset = num);
    let response = ui.add(egui::Checkbox::without_text(&mut on));
    response.widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, on, &name));
    if response.changed() {
        if on {
            chosen.insert(i);
        } else {
            chosen.remove(&i);
        }
    }
}

/// A column's title, with its arrow when the table is sorted by it; whether it was clicked.
fn header_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    col: Col,
    by: Option<SortBy>,
    sort: (SortBy, bool),
) -> bool {
    let arrow = match (by, sort) {
        (Some(b), (s, true)) if b == s => " ^",
        (Some(b), (s, false)) if b == s => " v",
        _ => "",
    };
    let text = RichText::new(format!("{}{arrow}", title(lang, col))).strong();
    match by {
        Some(_) => ui
            .add(egui::Button::new(text).frame(false))
            .on_hover_text(t!(lang, "sort-hint"))
            .clicked(),
        None => {
            ui.label(text);
            false
        }
    }
}

/// A cell; the enterprise whose page a click on the customer asks for.
fn cell_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    read: &Read,
    r: &RowRef<'_>,
    col: Col,
    today: jiff::civil::Date,
) -> Option<String> {
    let enterprise = read.enterprise_of(r);
    match col {
        Col::Customer => {
            let name = enterprise.and_then(|e| e.name.as_ref().or(e.customer_name.as_ref()));
            let id = enterprise.map(|e| e.global_id.as_str()).unwrap_or("");
            let text = match name {
                Some(name) => format!("{name} · {id}"),
                None => id.to_owned(),
            };
            let hint = tr!(lang, "renewals-open-page", customer = r.customer_id());
            if ui.link(text).on_hover_text(hint).clicked() {
                return Some(id.to_owned());
            }
        }
        Col::Asset => {
            ui.monospace(r.asset_num());
        }
        Col::Product => {
            // An asset-dated row names the products its asset holds.
            let held: Vec<&str> = r.held().map(|(uri, _)| uri).collect();
            let uri = r
                .product_uri()
                .map_or_else(|| held.join("、"), str::to_owned);
            let shown = r.product_name().map_or_else(|| uri.clone(), str::to_owned);
            ui.label(shown)
                .on_hover_text(if uri.is_empty() { "—" } else { &uri });
        }
        Col::End => {
            ui.label(local_date(r.end()))
                .on_hover_text(source_words(lang, r.source()));
        }
        Col::DaysLeft => days_left_ui(ui, r, today),
        Col::Branch => {
            ui.label(enterprise.and_then(|e| e.branch.as_deref()).unwrap_or(""));
        }
        // Few words, what tells types apart first, so that a narrow column does not cut
        // "re-issuable" and "not re-issuable" alike; the whole name and the code on hover.
        Col::Type => {
            let code = r.license_type();
            let Some(t) = LicenseType::parse(code) else {
                ui.label(code);
                return None;
            };
            let whole = format!("{} ({code})", license_type_name(lang, t));
            ui.label(license_type_short(lang, t)).on_hover_text(whole);
        }
        Col::Lock => {
            if r.locked() {
                pill_ui(ui, t!(lang, "renewals-locked"), Tone::Danger);
            } else {
                ui.label(t!(lang, "renewals-open"));
            }
        }
        Col::Source => {
            ui.label(source_words(lang, r.source()));
        }
    }
    None
}

/// Days left; a week or less in the warning colour.
fn days_left_ui(ui: &mut egui::Ui, r: &RowRef<'_>, today: jiff::civil::Date) {
    let tz = jiff::tz::TimeZone::system();
    let days = crate::core::renewals::days_left(r.end(), today, &tz).unwrap_or_default();
    let text = RichText::new(days.to_string()).monospace();
    if days <= 7 {
        number_ui(ui, text.color(ui.visuals().warn_fg_color).strong());
    } else {
        number_ui(ui, text);
    }
}

pub(super) fn source_words(lang: Lang, source: Source) -> &'static str {
    match source {
        Source::Product => t!(lang, "renewals-source-product"),
        Source::Asset => t!(lang, "renewals-source-asset"),
        Source::Sent => t!(lang, "renewals-source-sent"),
    }
}
