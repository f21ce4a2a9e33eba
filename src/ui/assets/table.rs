//! The asset table: columns, cells in words, badges, expanded rows, and row selection.

use egui::{Color32, RichText};
use egui_extras::{Column, TableBuilder};

use super::super::labels::value_words;
use super::{AssetsScreen, LockAction, ROW_HEIGHT, license_type_words, lockable};
use crate::core::wire::Asset;
use crate::ui::dates::local_date;
use crate::ui::form::{PRODUCTION_COLOUR, REMOTE_COLOUR};
use crate::ui::i18n::{Lang, Text, t};

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

    pub(super) fn title(self) -> Text {
        match self {
            Col::Number => Text::AssetNumber,
            Col::Type => Text::LicenseTypeCol,
            Col::Chip => Text::Chip,
            Col::Customer => Text::CustomerId,
            Col::State => Text::State,
            Col::Validity => Text::Validity,
            Col::Extensions => Text::ExtensionsCol,
            Col::Products => Text::ProductsCol,
            Col::Created => Text::Created2,
            Col::Updated => Text::UpdatedCol,
        }
    }

    /// The width the column would like, and the least it can do with (a number must stay
    /// whole; words are truncated with "…" and shown whole on hover).
    fn widths(self) -> (f32, f32) {
        match self {
            Col::Number => (110.0, 90.0),
            Col::Type => (260.0, 80.0),
            Col::Chip => (100.0, 50.0),
            Col::Customer => (120.0, 60.0),
            Col::State => (90.0, 60.0),
            Col::Validity => (170.0, 80.0),
            Col::Extensions => (130.0, 50.0),
            Col::Products => (70.0, 40.0),
            Col::Created | Col::Updated => (90.0, 80.0),
        }
    }
}

fn chip_words(lang: Lang, chip: i32) -> String {
    match chip {
        1 => t(lang, Text::Chip4).to_owned(),
        2 => t(lang, Text::Chip5).to_owned(),
        0 => String::new(),
        other => other.to_string(),
    }
}

pub(super) fn cell_text(lang: Lang, a: &Asset, col: Col) -> String {
    match col {
        Col::Number => a.asset_num.clone(),
        Col::Type => license_type_words(lang, &a.license_type),
        Col::Chip => chip_words(lang, a.key_chip_type),
        Col::Customer => a.customer_id.clone(),
        Col::State => {
            let mut words = Vec::new();
            if a.locked {
                words.push(t(lang, Text::Disabled));
            }
            if a.freezing {
                words.push(t(lang, Text::Frozen));
            }
            words.join(" ")
        }
        Col::Validity => match (a.limit_start_time, a.limit_end_time) {
            (None, None) => String::new(),
            (start, end) => format!(
                "{} – {}",
                start.map(local_date).unwrap_or_default(),
                end.map(local_date).unwrap_or_default()
            ),
        },
        Col::Extensions => a
            .asset_extends
            .iter()
            .map(|e| format!("{}={}", e.extend_code, e.extend_value))
            .collect::<Vec<_>>()
            .join(" "),
        Col::Products => a.products.len().to_string(),
        Col::Created => local_date(a.create_time),
        Col::Updated => local_date(a.update_time),
    }
}

fn cell_ui(ui: &mut egui::Ui, lang: Lang, a: &Asset, col: Col) {
    match col {
        Col::Number => {
            ui.label(RichText::new(&a.asset_num).monospace());
        }
        Col::State => {
            if a.locked {
                badge_ui(ui, t(lang, Text::Disabled), PRODUCTION_COLOUR);
            }
            if a.freezing {
                badge_ui(ui, t(lang, Text::Frozen), REMOTE_COLOUR);
            }
        }
        other => {
            ui.label(cell_text(lang, a, other));
        }
    }
}

fn badge_ui(ui: &mut egui::Ui, text: &str, colour: Color32) {
    ui.label(
        RichText::new(text)
            .small()
            .strong()
            .color(Color32::WHITE)
            .background_color(colour),
    );
}

/// The fixed columns: the open/close button and the row's action.
const FIXED_WIDTH: f32 = 24.0 + 78.0;

/// Each shown column's width: what it would like, scaled down to fit `width`, never below
/// its least. A window too narrow even for that scrolls sideways.
fn fit_widths(shown: &[Col], width: f32, spacing: f32) -> Vec<f32> {
    let room = width - FIXED_WIDTH - spacing * (shown.len() + 2) as f32;
    let wanted: f32 = shown.iter().map(|c| c.widths().0).sum();
    let mut scale = if wanted > 0.0 {
        (room / wanted).min(1.0)
    } else {
        1.0
    };
    let fit = |scale: f32| -> Vec<f32> {
        shown
            .iter()
            .map(|c| {
                let (want, least) = c.widths();
                (want * scale).max(least)
            })
            .collect()
    };
    let mut widths = fit(scale);
    // Columns held at their least leave the others to shrink more: a few rounds settle it.
    for _ in 0..4 {
        let over = widths.iter().sum::<f32>() - room;
        let flexible: f32 = shown
            .iter()
            .map(|c| c.widths())
            .filter(|(want, least)| want * scale > *least)
            .map(|(want, _)| want)
            .sum();
        if over <= 0.5 || flexible <= 0.0 {
            break;
        }
        scale -= over / flexible;
        widths = fit(scale);
    }
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
fn open_row_ui(ui: &mut egui::Ui, lang: Lang, a: &Asset, row_right: f32) {
    let cell = ui.max_rect();
    let clip = ui.clip_rect();
    let across = egui::Rect::from_x_y_ranges(cell.left()..=row_right, cell.y_range());
    ui.set_clip_rect(egui::Rect::from_x_y_ranges(
        clip.left()..=row_right.min(ui.ctx().content_rect().right()),
        clip.y_range(),
    ));
    ui.scope_builder(egui::UiBuilder::new().max_rect(across), |ui| {
        ui.vertical(|ui| {
            ui.label(RichText::new(&a.asset_num).monospace());
            details_ui(ui, lang, a);
        });
    });
}

/// An expanded row: extensions, assignment, products, each on one line that runs on across
/// the row.
fn details_ui(ui: &mut egui::Ui, lang: Lang, a: &Asset) {
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    let weak = |s: String| RichText::new(s).weak();
    ui.label(weak(format!(
        "{}: {} · {} {}",
        t(lang, Text::Assignment),
        if a.assign_status.assign_status.is_empty() {
            "—".to_owned()
        } else {
            value_words(lang, "assign", &a.assign_status.assign_status)
        },
        t(lang, Text::Member),
        if a.assign_status.assign_member_id.is_empty() {
            "—"
        } else {
            &a.assign_status.assign_member_id
        }
    )));
    for e in &a.asset_extends {
        ui.label(weak(format!(
            "{} {}={}",
            t(lang, Text::Extension),
            e.extend_code,
            e.extend_value
        )));
    }
    ui.label(weak(format!("{}:", t(lang, Text::ProductsCol))));
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
            format!(" · {}", t(lang, Text::AwaitingActivation))
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
        let shown = self.grid.shown.clone();
        // The table's own vertical scroll bar takes its share of the width.
        let room = width - ui.spacing().scroll.allocated_width() - 4.0;
        let widths = fit_widths(&shown, room, ui.spacing().item_spacing.x);
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
                        let a = &self.assets[*i];
                        ROW_HEIGHT
                            + (3 + a.asset_extends.len() + a.products.len()) as f32
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
        let a = &self.assets[i];
        let expanded = self.grid.expanded.contains(&i);
        row.set_selected(self.selection.set.contains(&i));
        row.col(|ui| {
            let sign = if expanded { "-" } else { "+" };
            if ui
                .small_button(sign)
                .on_hover_text(t(lang, Text::ExpandCollapse))
                .clicked()
            {
                clicks.toggle = Some(i);
            }
        });
        row.col(|ui| {
            if let Some(lock) = lock_button_ui(ui, lang, a, busy) {
                clicks.lock_one = Some((lock, a.asset_num.clone()));
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
        ui.label(RichText::new(t(lang, Text::Action)).strong());
    });
    for col in shown {
        header.col(|ui| {
            let arrow = match sort {
                Some((c, true)) if c == *col => " ^",
                Some((c, false)) if c == *col => " v",
                _ => "",
            };
            let title = format!("{}{arrow}", t(lang, col.title()));
            if ui
                .add(egui::Button::new(RichText::new(title).strong()).frame(false))
                .on_hover_text(t(lang, Text::SortHint))
                .clicked()
            {
                sort_by = Some(*col);
            }
        });
    }
    sort_by
}

/// A lock's Disable or Enable; whether to lock, when clicked.
fn lock_button_ui(ui: &mut egui::Ui, lang: Lang, a: &Asset, busy: bool) -> Option<bool> {
    if !lockable(a) {
        return None;
    }
    let (text, lock) = if a.locked {
        (Text::Enable, false)
    } else {
        (Text::Disable, true)
    };
    let button = egui::Button::new(t(lang, text)).small();
    ui.add_enabled(!busy, button).clicked().then_some(lock)
}
