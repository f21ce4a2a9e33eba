//! Asset numbers: new numbers from the platform (operation 9), with their region; copied,
//! exported, or sent to the order composer's selected asset.

use std::path::PathBuf;

use egui::RichText;

use crate::core::Awaited;
use crate::core::calls::requests as calls;
use crate::core::files;
use crate::core::team::Permission;
use crate::core::wire::validate::MAX_SHELLNUMS;
use crate::ui::kit::form::{
    answered_on_ui, busy_icon_button_ui, csv_with_bom, home_file, submit_button_ui,
};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::permits::permitted_ui;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, label, labelled, t, tr};

pub struct AssetNumbersScreen {
    count: i32,
    call: Awaited<Vec<String>>,
    numbers: Vec<String>,
    /// The profile the numbers were handed out by: they are that platform's.
    on: String,
    export_path: String,
    export_call: Awaited<PathBuf>,
    exported: Option<String>,
}

impl Default for AssetNumbersScreen {
    fn default() -> Self {
        Self {
            count: 10,
            call: Awaited::default(),
            numbers: Vec::new(),
            on: String::new(),
            export_path: String::new(),
            export_call: Awaited::default(),
            exported: None,
        }
    }
}

/// The region a number belongs to, by its first digit.
fn region(lang: Lang, num: &str) -> &'static str {
    match num.as_bytes().first() {
        Some(b'8') => t!(lang, "region-domestic"),
        Some(b'6') => t!(lang, "region-singapore"),
        _ => t!(lang, "region-other"),
    }
}

impl AssetNumbersScreen {
    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(nums)) = out.reply(&mut self.call, label!("get-asset-numbers")) {
            self.numbers = nums;
            self.exported = None;
        }
        if let Some(Ok(path)) = out.reply(&mut self.export_call, label!("export-file")) {
            self.exported = Some(path.display().to_string());
        }
    }

    /// Answers numbers the user sends to the composer.
    pub fn ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) -> Option<Vec<String>> {
        let mut send = None;
        ui.label(t!(lang, "asset-numbers-help"));
        ui.horizontal(|ui| {
            let label = ui.label(t!(lang, "how-many"));
            ui.add(egui::DragValue::new(&mut self.count).range(1..=MAX_SHELLNUMS))
                .labelled_by(label.id);
            let why = core.lacking(lang, Permission::Numbers);
            let busy = self.call.is_waiting();
            if permitted_ui(ui, why.as_deref(), |ui| {
                submit_button_ui(ui, Icon::Numbers, t!(lang, "get-asset-numbers"), busy)
            }) {
                self.on = core.profile.name.clone();
                self.call.start(core.ask(calls::Shellnums {
                    profile: core.name(),
                    size: self.count,
                }));
            }
        });
        if self.numbers.is_empty() {
            return None;
        }
        ui.separator();
        answered_on_ui(ui, lang, &self.on, core.profile);
        ui.horizontal(|ui| {
            ui.label(RichText::new(tr!(lang, "numbers-count", n = self.numbers.len())).strong());
            if ui.button(t!(lang, "copy-all")).clicked() {
                ui.ctx().copy_text(self.numbers.join("\n"));
            }
            if ui.button(t!(lang, "send-to-composer")).clicked() {
                send = Some(self.numbers.clone());
            }
            let label = ui.label(t!(lang, "export-to"));
            if self.export_path.is_empty() {
                self.export_path = home_file("asset-numbers.csv");
            }
            ui.add(egui::TextEdit::singleline(&mut self.export_path).desired_width(220.0))
                .labelled_by(label.id);
            if busy_icon_button_ui(
                ui,
                Icon::Export,
                t!(lang, "export-file"),
                self.export_call.is_waiting(),
            ) {
                let body = csv_with_bom(
                    &[t!(lang, "asset-number"), t!(lang, "region")],
                    self.numbers
                        .iter()
                        .map(|n| vec![n.as_str(), region(lang, n)]),
                );
                self.export_call.start(core.ask(files::WriteText {
                    path: PathBuf::from(self.export_path.trim()),
                    body,
                }));
            }
        });
        if let Some(path) = &self.exported {
            ui.label(labelled(lang, t!(lang, "exported"), path));
        }
        egui::ScrollArea::vertical()
            .id_salt("numbers")
            .show(ui, |ui| {
                egui::Grid::new("numbers_grid")
                    .striped(true)
                    .num_columns(2)
                    .spacing([24.0, 4.0])
                    .show(ui, |ui| {
                        ui.label(RichText::new(t!(lang, "asset-number")).strong());
                        ui.label(RichText::new(t!(lang, "region")).strong());
                        ui.end_row();
                        for n in &self.numbers {
                            ui.label(RichText::new(n).monospace());
                            ui.label(region(lang, n));
                            ui.end_row();
                        }
                    });
            });
        send
    }
}
