//! A calendar of our own: a button whose popup pages through months and picks a day, with
//! month and weekday names in the UI's language (egui_extras' picker speaks English only).
//! Its buttons stay where they are from month to month: the title has a fixed width and every
//! month shows six weeks.

use jiff::ToSpan;
use jiff::civil::Date;

use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, tr};

/// Lets the user pick a day other than `day`; the response is `changed` when one was picked.
pub fn date_field_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    id_salt: &str,
    day: &mut Date,
) -> egui::Response {
    let id = ui.make_persistent_id(("date_field", id_salt));
    let mut picked = None;
    // Paging through months must not close the popup: only a click outside it, or a pick.
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    let (response, _) = egui::containers::menu::MenuButton::new(tr!(lang, "date-pick"))
        .config(config)
        .ui(ui, |ui| {
            // The month on show, kept while the popup is open.
            let mut month = ui
                .data(|d| d.get_temp::<Date>(id))
                .unwrap_or_else(|| day.first_of_month());
            month_bar_ui(ui, lang, &mut month);
            picked = days_ui(ui, lang, id, month, *day);
            if ui.button(tr!(lang, "date-today")).clicked() {
                picked = Some(dates::today());
            }
            ui.data_mut(|d| d.insert_temp(id, month));
            if picked.is_some() {
                ui.close();
            }
        });
    let mut response = response;
    if let Some(new) = picked {
        ui.data_mut(|d| d.remove::<Date>(id));
        if new != *day {
            *day = new;
            response.mark_changed();
        }
    }
    response
}

/// `‹ November 2026 ›` / `‹ 2026年11月 ›`.
fn month_bar_ui(ui: &mut egui::Ui, lang: Lang, month: &mut Date) {
    ui.horizontal(|ui| {
        if ui
            .button("‹")
            .on_hover_text(tr!(lang, "date-previous-month"))
            .clicked()
            && let Ok(previous) = month.checked_sub(1.month())
        {
            *month = previous;
        }
        let title = tr!(
            lang,
            "date-month-title",
            year = i64::from(month.year()),
            month = i64::from(month.month())
        );
        ui.add_sized(
            [120.0, 20.0],
            egui::Label::new(egui::RichText::new(title).strong()),
        );
        if ui
            .button("›")
            .on_hover_text(tr!(lang, "date-next-month"))
            .clicked()
            && let Ok(next) = month.checked_add(1.month())
        {
            *month = next;
        }
    });
}

/// The month's days under the weekdays (Monday first); the day clicked, if one was.
fn days_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    id: egui::Id,
    month: Date,
    selected: Date,
) -> Option<Date> {
    let mut picked = None;
    egui::Grid::new(id.with("days")).show(ui, |ui| {
        for name in tr!(lang, "date-weekdays").split_whitespace() {
            ui.label(egui::RichText::new(name).weak());
        }
        ui.end_row();
        let blanks = month.first_of_month().weekday().to_monday_zero_offset();
        for _ in 0..blanks {
            ui.label("");
        }
        for n in 1..=month.days_in_month() {
            let Ok(date) = month.with().day(n).build() else {
                continue;
            };
            if ui
                .selectable_label(date == selected, n.to_string())
                .clicked()
            {
                picked = Some(date);
            }
            if (i32::from(blanks) + i32::from(n)) % 7 == 0 {
                ui.end_row();
            }
        }
        // Six weeks whatever the month, so that what is below does not move.
        let used = i32::from(blanks) + i32::from(month.days_in_month());
        for cell in used..42 {
            ui.label(" ");
            if (cell + 1) % 7 == 0 {
                ui.end_row();
            }
        }
    });
    picked
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use jiff::civil::date;

    use super::*;

    fn field(lang: Lang, day: Date) -> Harness<'static, Date> {
        Harness::builder()
            .with_context_setup(crate::ui::kit::fonts::install)
            .build_ui_state(
                move |ui, day: &mut Date| {
                    date_field_ui(ui, lang, "test", day);
                },
                day,
            )
    }

    #[test]
    fn a_day_of_the_next_month_is_picked_in_chinese() {
        let mut harness = field(Lang::Zh, date(2026, 11, 23));
        harness.get_by_label("日历…").click();
        harness.run();
        harness.get_by_label("2026年11月");
        harness.get_by_label("一");
        harness.get_by_label("›").click();
        harness.run();
        harness.get_by_label("2026年12月");
        harness.get_by_label("15").click();
        harness.run();
        assert_eq!(*harness.state(), date(2026, 12, 15));
        assert!(
            harness.query_by_label("2026年12月").is_none(),
            "the popup closed"
        );
    }

    #[test]
    fn months_are_named_in_english() {
        let mut harness = field(Lang::En, date(2026, 1, 5));
        harness.get_by_label("Calendar…").click();
        harness.run();
        harness.get_by_label("January 2026");
        harness.get_by_label("‹").click();
        harness.run();
        harness.get_by_label("December 2025");
        harness.get_by_label("Mo");
    }

    #[test]
    fn the_buttons_stay_put_from_month_to_month() {
        let mut harness = field(Lang::En, date(2026, 2, 5));
        harness.get_by_label("Calendar…").click();
        harness.run();
        let places = |h: &Harness<'static, Date>| {
            (h.get_by_label("›").rect(), h.get_by_label("Today").rect())
        };
        // February 2026 fits four weeks; March 2026 spans six.
        let february = places(&harness);
        harness.get_by_label("›").click();
        harness.run();
        harness.get_by_label("March 2026");
        assert_eq!(places(&harness), february);
    }
}
