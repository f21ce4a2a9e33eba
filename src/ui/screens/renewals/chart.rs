//! What ends each month for the next twelve, stacked by license type or by branch (egui_plot).
//! A click on a bar shows that month's rows, and its part's license type or branch.

use egui_plot::{Bar, BarChart, Legend, Plot};

use super::RenewalsScreen;
use crate::core::renewals::{Grouping, Months, Read};
use crate::ui::screens::assets::license_type_words;
use crate::ui::text::i18n::{Lang, t};

const HEIGHT: f32 = 150.0;

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
        let charts = charts(months, self.grouping, lang);
        let labels: Vec<String> = months
            .firsts
            .iter()
            .map(|d| d.strftime("%Y-%m").to_string())
            .collect();
        let response = Plot::new("renewals_chart")
            .height(HEIGHT)
            .legend(Legend::default())
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .show_grid([false, true])
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

/// One bar chart per group, each stacked on those before it.
fn charts(months: &Months, grouping: Grouping, lang: Lang) -> Vec<BarChart> {
    let mut charts: Vec<BarChart> = Vec::new();
    for series in &months.series {
        let name = match (&series.group, series.rest, grouping) {
            (_, true, _) => t!(lang, "renewals-other").to_owned(),
            (Some(code), _, Grouping::LicenseType) => license_type_words(lang, code),
            (Some(branch), _, Grouping::Branch) => branch.clone(),
            (None, _, _) => t!(lang, "renewals-no-branch").to_owned(),
        };
        let bars: Vec<Bar> = series
            .counts
            .iter()
            .enumerate()
            .map(|(m, n)| Bar::new(m as f64, f64::from(*n)).width(0.7))
            .collect();
        let below: Vec<&BarChart> = charts.iter().collect();
        let chart = BarChart::new(name, bars).stack_on(&below);
        charts.push(chart);
    }
    charts
}
