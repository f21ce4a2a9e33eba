//! What ends each month for the next twelve, stacked by license type or by branch (egui_plot).
//! A click on a bar shows that month's rows, and its part's license type or branch.

use egui::Color32;
use egui_plot::{Bar, BarChart, GridMark, Plot};

use super::RenewalsScreen;
use crate::core::renewals::{Grouping, Months, Read, Series};
use crate::ui::kit::theme;
use crate::ui::text::i18n::{Lang, t, tr};
use crate::ui::text::labels::license_code_words;

/// The chart's height: a quarter of what is left, within these, and less when the rows would
/// get less than `ROWS_ROOM` (a 900×600 window showed the table's titles and no row).
const HEIGHT: std::ops::RangeInclusive<f32> = 60.0..=170.0;
/// Below the chart: the export and renewal bars, the table's titles and three rows and a half.
const ROWS_ROOM: f32 = 200.0;
/// The legend, two lines of it (four license types at 900 px).
const LEGEND_ROOM: f32 = 64.0;

fn chart_height(available: f32) -> f32 {
    (available * 0.25)
        .max(110.0)
        .min(available - ROWS_ROOM)
        .clamp(*HEIGHT.start(), *HEIGHT.end())
}

impl RenewalsScreen {
    pub(super) fn chart_ui(&mut self, ui: &mut egui::Ui, _read: &Read, lang: Lang) {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(t!(lang, "renewals-chart")).strong());
            for (grouping, words) in [
                (Grouping::LicenseType, t!(lang, "renewals-by-type")),
                (Grouping::Branch, t!(lang, "renewals-by-branch")),
            ] {
                if ui
                    .selectable_label(self.grouping == grouping, words)
                    .clicked()
                    && self.grouping != grouping
                {
                    self.grouping = grouping;
                    // Counted again next frame.
                    self.months = None;
                }
            }
        });
        let Some(months) = &self.months else {
            return;
        };
        let labels: Vec<String> = months
            .firsts
            .iter()
            .take(12)
            .map(|d| d.strftime("%Y-%m").to_string())
            .collect();
        // A window too short for the chart and some rows keeps the rows: they are the work.
        if ui.available_height() < ROWS_ROOM + LEGEND_ROOM + HEIGHT.start() {
            ui.label(egui::RichText::new(t!(lang, "renewals-chart-hidden")).weak());
            return;
        }
        let charts = charts(months, &labels, self.grouping, lang);
        legend_ui(ui, months, self.grouping, lang);
        let response = Plot::new("renewals_chart")
            .height(chart_height(ui.available_height()))
            .include_x(-0.6)
            .include_x(11.6)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .show_grid([false, true])
            // One mark per month, all of one weight (the default grid makes every fifth bold).
            .x_grid_spacer(|_| {
                (0..12)
                    .map(|m| GridMark {
                        value: f64::from(m),
                        step_size: 1.0,
                    })
                    .collect()
            })
            .x_axis_formatter(move |mark, _| {
                let m = mark.value.round();
                match (m - mark.value).abs() < 1e-6 && m >= 0.0 {
                    true => labels.get(m as usize).cloned().unwrap_or_default(),
                    false => String::new(),
                }
            })
            .show(ui, |plot| {
                for chart in charts {
                    plot.bar_chart(chart);
                }
                plot.pointer_coordinate()
            });
        // Read out (and found by tests) by name: a chart's bars have no words of their own.
        let name = t!(lang, "renewals-chart-name");
        response
            .response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, name));
        if response.response.clicked()
            && let Some(at) = response.inner
        {
            self.clicked(months.clone(), at.x, at.y);
        }
    }

    /// A bar clicked at (x, y): its month, and the part of it under the pointer.
    fn clicked(&mut self, months: Months, x: f64, y: f64) {
        let m = x.round();
        if !(0.0..12.0).contains(&m) {
            return;
        }
        let m = m as usize;
        let mut top = 0.0;
        let part = months.series.iter().find(|s| {
            top += f64::from(s.counts[m]);
            y <= top
        });
        self.month = Some(m);
        if let Some(series) = part.filter(|s| !s.rest) {
            match self.grouping {
                Grouping::LicenseType => self.filter.license_type = series.group.clone(),
                Grouping::Branch => self.filter.branch = series.group.clone(),
            }
        }
        self.stale = true;
    }
}

fn colour(k: usize, rest: bool) -> Color32 {
    if rest {
        theme::SERIES_REST
    } else {
        theme::SERIES[k % theme::SERIES.len()]
    }
}

/// Each group's colour and name, in a row above the chart (wrapping when narrow).
fn legend_ui(ui: &mut egui::Ui, months: &Months, grouping: Grouping, lang: Lang) {
    ui.horizontal_wrapped(|ui| {
        for (k, series) in months.series.iter().enumerate() {
            // A colour and its name in one label: they never part at a line's end.
            let mut job = egui::text::LayoutJob::default();
            let font = egui::TextStyle::Body.resolve(ui.style());
            let text = ui.visuals().text_color();
            let format = |color| egui::TextFormat::simple(font.clone(), color);
            job.append("■ ", 0.0, format(colour(k, series.rest)));
            job.append(&name(series, grouping, lang), 0.0, format(text));
            ui.add(egui::Label::new(job).wrap_mode(egui::TextWrapMode::Extend));
            ui.add_space(6.0);
        }
    });
}

fn bar_words(lang: Lang, month: &str, group: &str, n: u32, total: u32) -> String {
    tr!(
        lang,
        "renewals-bar",
        month = month,
        group = group,
        n = n,
        total = total
    )
}

fn name(series: &Series, grouping: Grouping, lang: Lang) -> String {
    match (&series.group, series.rest, grouping) {
        (_, true, _) => t!(lang, "renewals-other").to_owned(),
        (Some(code), _, Grouping::LicenseType) => license_code_words(lang, code),
        (Some(branch), _, Grouping::Branch) => branch.clone(),
        (None, _, _) => t!(lang, "renewals-no-branch").to_owned(),
    }
}

/// One bar chart per group, each stacked on those before it; a bar under the pointer says its
/// month, its group's count and the month's.
fn charts(months: &Months, labels: &[String], grouping: Grouping, lang: Lang) -> Vec<BarChart> {
    let totals: Vec<u32> = (0..labels.len())
        .map(|m| months.series.iter().map(|s| s.counts[m]).sum())
        .collect();
    let mut charts: Vec<BarChart> = Vec::new();
    for (k, series) in months.series.iter().enumerate() {
        let name = name(series, grouping, lang);
        let bars: Vec<Bar> = series
            .counts
            .iter()
            .zip(labels.iter().zip(&totals))
            .enumerate()
            .map(|(m, (n, (month, total)))| {
                let said = bar_words(lang, month, &name, *n, *total);
                Bar::new(m as f64, f64::from(*n)).width(0.7).name(said)
            })
            .collect();
        let below: Vec<&BarChart> = charts.iter().collect();
        let chart = BarChart::new(name, bars)
            .color(colour(k, series.rest))
            .element_formatter(Box::new(|bar, _| bar.name.clone()))
            .stack_on(&below);
        charts.push(chart);
    }
    charts
}
