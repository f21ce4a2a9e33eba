//! The asset table: columns, cells in words, badges, expanded rows, and row selection.

use crate::ui::kit::permits::permitted_ui;
use crate::ui::kit::theme;
use egui::{Color32, RichText};
use egui_extras::{Column, TableBuilder};

use super::{AssetsScreen, LockAction, ROW_HEIGHT, lockable};
use crate::core::wire::{AssetList, AssetRef, LicenseType};
use crate::ui::kit::pill::{self, Tone, pill_ui};
use crate::ui::text::dates::local_date;
use crate::ui::text::i18n::{Label, Lang, label, labelled, t, tr};
use crate::ui::text::labels::{self, value_words};
use crate::ui::text::labels::{chip_words, license_code_words};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    Number,
    Type,
    Chip,
    Customer,
    State,
    Validity,
    Extensions,
    Products,
    Created,
    Updated,
}

impl Col {
    pub(super) const ALL: [Col; 10] = [
        Col::Number,
        Col::Type,
        Col::Chip,
        Col::Customer,
        Col::State,
        Col::Validity,
        Col::Extensions,
        Col::Products,
        Col::Created,
        Col::Updated,
    ];

    pub(super) fn title(self) -> Label {
        match self {
            Col::Number => label!("asset-number"),
            Col::Type => label!("license-type-col"),
            Col::Chip => label!("chip"),
            Col::Customer => label!("customer-id"),
            Col::State => label!("state"),
            Col::Validity => label!("validity"),
            Col::Extensions => label!("extensions-col"),
            Col::Products => label!("products-col"),
            Col::Created => label!("created2"),
            Col::Updated => label!("updated-col"),
        }
    }

    /// Whether the column's cells must be shown whole (numbers, ids, dates); the others hold
    /// words, truncated with "…" when the window is narrow and shown whole on hover.
    fn whole(self) -> bool {
        !matches!(
            self,
            Col::Type | Col::Chip | Col::Validity | Col::Extensions
        )
    }
}

/// How many rows are measured for a column's natural width: enough to see every kind of
/// value of a listing, few enough to measure at once.
const MEASURED_ROWS: usize = 500;
/// The least a column of words is cut down to.
const LEAST_WORDS: f32 = 56.0;

/// A column's natural width (its title and the widest of the first rows), and the least it
/// can do with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Fit {
    want: f32,
    least: f32,
}

/// Every column's fit for this listing, in the order of `Col::ALL`.
pub(super) fn measure_columns(ui: &egui::Ui, lang: Lang, assets: &AssetList) -> Vec<Fit> {
    let body = egui::TextStyle::Body.resolve(ui.style());
    let mono = egui::TextStyle::Monospace.resolve(ui.style());
    let width = |text: String, font: &egui::FontId| {
        ui.painter()
            .layout_no_wrap(text, font.clone(), Color32::WHITE)
            .size()
            .x
    };
    // A cell's frame around its text, and room for the sort arrow beside a title.
    let margin = 2.0 * ui.spacing().button_padding.x + 4.0;
    Col::ALL
        .iter()
        .map(|&col| {
            let title = width(format!("{} ^", col.title().text(lang)), &body) + margin;
            let font = if col == Col::Number { &mono } else { &body };
            let cells = assets
                .iter()
                .take(MEASURED_ROWS)
                .map(|a| width(grid_text(lang, a, col), font) + margin)
                .fold(0.0, f32::max);
            // A lock's state may change while the listing is shown: where there is room, its
            // widest pill fits from the start (two at once may not); in a narrow window the
            // column keeps to what is listed.
            let pills = if col == Col::State {
                [t!(lang, "disabled"), t!(lang, "frozen")]
                    .map(|w| width(w.to_owned(), &body) + 2.0 * f32::from(pill::SIDE) + margin)
                    .into_iter()
                    .fold(0.0, f32::max)
            } else {
                0.0
            };
            let shown = title.max(cells);
            let want = shown.max(pills);
            // A column of words may lose the end of its title too (whole on hover).
            let least = if col.whole() {
                shown
            } else {
                want.min(LEAST_WORDS)
            };
            Fit { want, least }
        })
        .collect()
}

/// A lock (a USB key) that operations 6 and 7 do not take: not re-issuable, and ordered
/// without a validity window.
fn fixed_lock(a: AssetRef<'_>) -> bool {
    let usbkey = LicenseType::parse(a.license_type()).is_some_and(|t| t.is_usbkey());
    usbkey && !super::lockable(a)
}

pub(super) fn cell_text(lang: Lang, a: AssetRef<'_>, col: Col) -> String {
    match col {
        Col::Number => a.asset_num().to_owned(),
        Col::Type => license_code_words(lang, a.license_type()),
        Col::Chip => chip_words(lang, a.key_chip_type()),
        Col::Customer => a.customer_id().to_owned(),
        Col::State => {
            let mut words = Vec::new();
            if a.locked() {
                words.push(t!(lang, "disabled"));
            }
            if a.freezing() {
                words.push(t!(lang, "frozen"));
            }
            words.join(" ")
        }
        Col::Validity => match (a.limit_start_time(), a.limit_end_time()) {
            (None, None) => String::new(),
            (start, end) => format!(
                "{} – {}",
                start.map(local_date).unwrap_or_default(),
                end.map(local_date).unwrap_or_default()
            ),
        },
        Col::Extensions => a
            .extends()
            .map(|(code, value)| format!("{code}={value}"))
            .collect::<Vec<_>>()
            .join(" "),
        Col::Products => a.product_count().to_string(),
        Col::Created => local_date(a.create_time()),
        Col::Updated => local_date(a.update_time()),
    }
}

/// A cell's text in the grid: the license type in words only (its code is on hover).
fn grid_text(lang: Lang, a: AssetRef<'_>, col: Col) -> String {
    match col {
        Col::Type => match LicenseType::parse(a.license_type()) {
            Some(t) => labels::license_type_name(lang, t),
            None => a.license_type().to_owned(),
        },
        other => cell_text(lang, a, other),
    }
}

fn cell_ui(ui: &mut egui::Ui, lang: Lang, a: AssetRef<'_>, col: Col) {
    match col {
        Col::Type => {
            ui.label(grid_text(lang, a, col))
                .on_hover_text(a.license_type());
        }
        Col::Number => {
            ui.label(RichText::new(a.asset_num()).monospace());
        }
        Col::State => {
            if a.locked() {
                pill_ui(ui, t!(lang, "disabled"), Tone::Danger);
            }
            if a.freezing() {
                pill_ui(ui, t!(lang, "frozen"), Tone::Info);
            }
            // A lock the platform will not disable is marked on its row, why on hover and in
            // the opened row (words would widen the column past a narrow window).
            if fixed_lock(a) {
                ui.label(RichText::new("—").weak())
                    .on_hover_text(t!(lang, "not-lockable-why"));
            }
        }
        other => {
            ui.label(cell_text(lang, a, other));
        }
    }
}

/// The fixed columns: the open/close button and the row's action.
const FIXED_WIDTH: f32 = 24.0 + 78.0;

/// Each shown column's width: its natural width when all fit; otherwise the columns of words
/// give up what is needed, in proportion to what they can spare, never below their least.
/// A window too narrow even for that scrolls sideways.
fn fit_widths(shown: &[Col], fits: &[Fit], width: f32, spacing: f32) -> Vec<f32> {
    let room = width - FIXED_WIDTH - spacing * (shown.len() + 2) as f32;
    let fit = |c: &Col| {
        fits.get(*c as usize).copied().unwrap_or(Fit {
            want: 80.0,
            least: 80.0,
        })
    };
    let wanted: f32 = shown.iter().map(|c| fit(c).want).sum();
    let spare: f32 = shown.iter().map(|c| fit(c).want - fit(c).least).sum();
    // The share of its spare width each column keeps.
    let keep = if wanted <= room || spare <= 0.0 {
        1.0
    } else {
        (1.0 - (wanted - room) / spare).max(0.0)
    };
    let mut widths: Vec<f32> = shown
        .iter()
        .map(|c| {
            let f = fit(c);
            f.least + (f.want - f.least) * keep
        })
        .collect();
    // What is left (a wide window) goes to the last column.
    let used: f32 = widths.iter().sum();
    if let Some(last) = widths.last_mut()
        && used < room
    {
        *last += room - used;
    }
    widths
}

/// An open row's number cell: the number, then the details drawn across the whole row
/// (the other cells are one line high; their lower part is empty).
fn open_row_ui(ui: &mut egui::Ui, lang: Lang, a: AssetRef<'_>, row_right: f32) {
    let cell = ui.max_rect();
    let clip = ui.clip_rect();
    let across = egui::Rect::from_x_y_ranges(cell.left()..=row_right, cell.y_range());
    ui.set_clip_rect(egui::Rect::from_x_y_ranges(
        clip.left()..=row_right.min(ui.ctx().content_rect().right()),
        clip.y_range(),
    ));
    ui.scope_builder(egui::UiBuilder::new().max_rect(across), |ui| {
        ui.vertical(|ui| {
            ui.label(RichText::new(a.asset_num()).monospace());
            details_ui(ui, lang, a);
        });
    });
}

/// An expanded row: extensions, assignment, products, each on one line that runs on across
/// the row.
fn details_ui(ui: &mut egui::Ui, lang: Lang, a: AssetRef<'_>) {
    if fixed_lock(a) {
        ui.colored_label(ui.visuals().warn_fg_color, t!(lang, "not-lockable-why"));
    }
    // Few rows are open at once: their details are read in the interface's shape.
    let a = a.to_asset();
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    let weak = |s: String| RichText::new(s).weak();
    let assignment = if a.assign_status.assign_status.is_empty() {
        "—".to_owned()
    } else {
        value_words(lang, "assign", &a.assign_status.assign_status)
    };
    let member = if a.assign_status.assign_member_id.is_empty() {
        "—"
    } else {
        &a.assign_status.assign_member_id
    };
    ui.label(weak(format!(
        "{} · {} {member}",
        labelled(lang, t!(lang, "assignment"), &assignment),
        t!(lang, "member"),
    )));
    for e in &a.asset_extends {
        ui.label(weak(format!(
            "{} {}={}",
            t!(lang, "extension"),
            e.extend_code,
            e.extend_value
        )));
    }
    ui.label(weak(labelled(lang, t!(lang, "products-col"), "")));
    for p in &a.products {
        let validity = match (p.limit_start_date, p.limit_end_date) {
            (None, None) => String::new(),
            (s, e) => format!(
                " {} – {}",
                s.map(local_date).unwrap_or_default(),
                e.map(local_date).unwrap_or_default()
            ),
        };
        let awaiting = if p.awaiting_activation {
            format!(" · {}", t!(lang, "awaiting-activation"))
        } else {
            String::new()
        };
        ui.label(weak(format!(
            "  {} {}{validity}{awaiting}",
            p.product_uri,
            p.product_name.as_deref().unwrap_or("")
        )));
    }
}

impl AssetsScreen {
    /// The grid, its columns sized to fit `width` (the screen's, measured outside the
    /// sideways scrolling that only a very narrow window needs).
    pub(super) fn table_ui(&mut self, ui: &mut egui::Ui, lang: Lang, width: f32) {
        // A table's titles are dense: the sort buttons keep little padding.
        ui.spacing_mut().button_padding.x = theme::space::XS;
        let shown = self.grid.shown.clone();
        // The table's own vertical scroll bar takes its share of the width.
        let room = width - ui.spacing().scroll.allocated_width() - 4.0;
        let fits = match &self.grid.fits {
            Some((measured_in, fits)) if *measured_in == lang => fits.clone(),
            _ => {
                let fits = measure_columns(ui, lang, &self.assets);
                self.grid.fits = Some((lang, fits.clone()));
                fits
            }
        };
        let widths = fit_widths(&shown, &fits, room, ui.spacing().item_spacing.x);
        let row_right = ui.cursor().left()
            + FIXED_WIDTH
            + widths.iter().sum::<f32>()
            + ui.spacing().item_spacing.x * (shown.len() + 1) as f32;
        let mut clicks = Clicks::default();
        let busy = self.locks.call.is_waiting();
        let heights = self.row_heights(ui.text_style_height(&egui::TextStyle::Body));
        let rows = self.grid.view.len();
        // A click anywhere on a row selects it, text included.
        ui.style_mut().interaction.selectable_labels = false;
        let mut table = TableBuilder::new(ui)
            .id_salt("assets_table")
            .striped(true)
            .sense(egui::Sense::click())
            .cell_layout(egui::Layout::left_to_right(egui::Align::Min))
            .column(Column::exact(24.0))
            .column(Column::exact(FIXED_WIDTH - 24.0));
        for w in &widths {
            table = table.column(Column::exact(*w).clip(true));
        }
        let sort = self.grid.sort;
        table
            .header(24.0, |header| {
                clicks.sort_by = header_ui(header, lang, &shown, sort);
            })
            .body(|body| {
                let add_row = |row: egui_extras::TableRow<'_, '_>| {
                    self.row_ui(row, lang, (&shown, row_right), busy, &mut clicks);
                };
                match heights {
                    Some(heights) => body.heterogeneous_rows(heights.into_iter(), add_row),
                    None => body.rows(ROW_HEIGHT, rows, add_row),
                }
            });
        self.apply_clicks(clicks);
    }

    /// Rows have one height unless some are expanded: then each row's height is listed.
    fn row_heights(&self, text_height: f32) -> Option<Vec<f32>> {
        (!self.grid.expanded.is_empty()).then(|| {
            self.grid
                .view
                .iter()
                .map(|i| {
                    if self.grid.expanded.contains(i) {
                        let a = self.assets.get(*i);
                        ROW_HEIGHT
                            + (3 + a.extends().len() + a.product_count()) as f32
                                * (text_height + 4.0)
                    } else {
                        ROW_HEIGHT
                    }
                })
                .collect()
        })
    }

    /// One row; an open row's details run on below its first line, across the row up to
    /// `row_right`, without widening any column.
    fn row_ui(
        &self,
        mut row: egui_extras::TableRow<'_, '_>,
        lang: Lang,
        (shown, row_right): (&[Col], f32),
        busy: bool,
        clicks: &mut Clicks,
    ) {
        let pos = row.index();
        let Some(&i) = self.grid.view.get(pos) else {
            return;
        };
        let a = self.assets.get(i);
        let expanded = self.grid.expanded.contains(&i);
        row.set_selected(self.selection.set.contains(&i));
        row.col(|ui| {
            let sign = if expanded { "-" } else { "+" };
            // Named for a screen reader by what it does to which row, not by its sign.
            let num = a.asset_num();
            let name = if expanded {
                tr!(lang, "row-close", asset = num)
            } else {
                tr!(lang, "row-open", asset = num)
            };
            let enabled = ui.is_enabled();
            let button = ui
                .small_button(sign)
                .on_hover_text(t!(lang, "expand-collapse"));
            button.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, &name));
            if button.clicked() {
                clicks.toggle = Some(i);
            }
        });
        row.col(|ui| {
            let refused = self.locks.refused.as_deref();
            if let Some(lock) = permitted_ui(ui, refused, |ui| lock_button_ui(ui, lang, a, busy)) {
                clicks.lock_one = Some((lock, a.asset_num().to_owned()));
            }
        });
        for col in shown {
            row.col(|ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                if *col == Col::Number && expanded {
                    open_row_ui(ui, lang, a, row_right);
                } else {
                    cell_ui(ui, lang, a, *col);
                }
            });
        }
        if row.response().clicked() {
            clicks.row = Some((pos, row.response().ctx.input(|i| i.modifiers)));
        }
    }

    fn apply_clicks(&mut self, clicks: Clicks) {
        if let Some(col) = clicks.sort_by {
            self.grid.sort = match self.grid.sort {
                Some((c, true)) if c == col => Some((col, false)),
                _ => Some((col, true)),
            };
            self.grid.dirty = true;
        }
        if let Some(i) = clicks.toggle
            && !self.grid.expanded.remove(&i)
        {
            self.grid.expanded.insert(i);
        }
        if let (Some((lock, num)), Some(profile)) = (clicks.lock_one, &self.query.listed_on) {
            self.locks.confirm = Some(LockAction::new(lock, vec![num], profile.clone()));
        }
        if let Some((pos, modifiers)) = clicks.row {
            self.click_row(pos, modifiers);
        }
    }

    /// Click selects one row; ctrl (cmd) adds or removes one; shift selects a range.
    pub(super) fn click_row(&mut self, pos: usize, modifiers: egui::Modifiers) {
        let Some(&i) = self.grid.view.get(pos) else {
            return;
        };
        self.selection.counts = None;
        if modifiers.shift
            && let Some(anchor) = self.selection.anchor
        {
            let (from, to) = (anchor.min(pos), anchor.max(pos));
            if !modifiers.command {
                self.selection.set.clear();
            }
            self.selection
                .set
                .extend(self.grid.view[from..=to].iter().copied());
            return;
        }
        if modifiers.command {
            if !self.selection.set.remove(&i) {
                self.selection.set.insert(i);
            }
        } else {
            self.selection.set.clear();
            self.selection.set.insert(i);
        }
        self.selection.anchor = Some(pos);
    }
}

/// What was clicked in the grid this frame.
#[derive(Default)]
struct Clicks {
    sort_by: Option<Col>,
    /// A row, with the modifiers held.
    row: Option<(usize, egui::Modifiers)>,
    /// A row's details shown or hidden.
    toggle: Option<usize>,
    /// (lock, asset number) of a row's Disable or Enable.
    lock_one: Option<(bool, String)>,
}

/// The column titles, each a sort button; the column clicked.
fn header_ui(
    mut header: egui_extras::TableRow<'_, '_>,
    lang: Lang,
    shown: &[Col],
    sort: Option<(Col, bool)>,
) -> Option<Col> {
    let mut sort_by = None;
    header.col(|_| {});
    header.col(|ui| {
        ui.label(RichText::new(t!(lang, "action")).strong());
    });
    for col in shown {
        header.col(|ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            let arrow = match sort {
                Some((c, true)) if c == *col => " ^",
                Some((c, false)) if c == *col => " v",
                _ => "",
            };
            let title = format!("{}{arrow}", col.title().text(lang));
            if ui
                .add(egui::Button::new(RichText::new(title).strong()).frame(false))
                .on_hover_text(format!(
                    "{}\n{}",
                    col.title().text(lang),
                    t!(lang, "sort-hint")
                ))
                .clicked()
            {
                sort_by = Some(*col);
            }
        });
    }
    sort_by
}

/// A lock's Disable or Enable; whether to lock, when clicked.
fn lock_button_ui(ui: &mut egui::Ui, lang: Lang, a: AssetRef<'_>, busy: bool) -> Option<bool> {
    if !lockable(a) {
        return None;
    }
    let (text, lock) = if a.locked() {
        (label!("enable"), false)
    } else {
        (label!("disable"), true)
    };
    let button = egui::Button::new(text.text(lang)).small();
    ui.add_enabled(!busy, button).clicked().then_some(lock)
}

#[cfg(test)]
mod tests {
    use super::{Col, FIXED_WIDTH, Fit, fit_widths};

    fn fits() -> Vec<Fit> {
        Col::ALL
            .iter()
            .map(|c| {
                let want = 100.0;
                let least = if c.whole() { want } else { 50.0 };
                Fit { want, least }
            })
            .collect()
    }

    #[test]
    fn numbers_and_ids_stay_whole_while_words_give_way() {
        let shown = Col::ALL[..8].to_vec();
        let spacing = 8.0;
        // Room for every least and half of what the words columns can spare.
        let room = 4.0 * 100.0 + 4.0 * 75.0 + FIXED_WIDTH + spacing * 10.0;
        let widths = fit_widths(&shown, &fits(), room, spacing);
        for (col, w) in shown.iter().zip(&widths) {
            let want = if col.whole() { 100.0 } else { 75.0 };
            assert!((w - want).abs() < 0.01, "{col:?}: {w}");
        }
    }

    #[test]
    fn a_wide_window_gives_what_is_left_to_the_last_column() {
        let shown = vec![Col::Number, Col::Type];
        let widths = fit_widths(&shown, &fits(), 1000.0, 8.0);
        assert_eq!(widths[0], 100.0);
        assert!((widths[1] - (1000.0 - FIXED_WIDTH - 32.0 - 100.0)).abs() < 0.01);
    }

    #[test]
    fn a_window_too_narrow_keeps_every_least() {
        let shown = Col::ALL[..8].to_vec();
        let widths = fit_widths(&shown, &fits(), 300.0, 8.0);
        for (col, w) in shown.iter().zip(&widths) {
            let least = if col.whole() { 100.0 } else { 50.0 };
            assert_eq!(*w, least, "{col:?}");
        }
    }
}
