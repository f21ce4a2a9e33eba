//! The composer's bars: drafts (open, rename, new from a template, delete) and files (import,
//! export, the OS dialog, dropped files).

use std::path::PathBuf;

use egui::RichText;

use super::ComposerScreen;
use super::batch::{self, Template};
use crate::core::{Command, Core};
use crate::ui::form::busy_button_ui;
use crate::ui::i18n::{Lang, Text, t, tr};

impl ComposerScreen {
    pub(super) fn dropped_files_ui(&mut self, ui: &egui::Ui, core: &Core) {
        let dropped: Vec<PathBuf> = ui.ctx().input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_owned())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.file_path = path.display().to_string();
            self.import(core);
        }
    }

    pub(super) fn drafts_bar_ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang) {
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::Draft));
            let current = self.draft.as_ref().and_then(|d| d.id);
            let shown = self
                .draft
                .as_ref()
                .map_or(String::new(), |d| d.name.clone());
            let mut chosen = None;
            egui::ComboBox::from_id_salt("drafts")
                .selected_text(shown)
                .width(220.0)
                .show_ui(ui, |ui| {
                    for d in &self.drafts {
                        if ui
                            .selectable_label(current == Some(d.id), &d.name)
                            .clicked()
                        {
                            chosen = Some(d.id);
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            if let Some(id) = chosen.filter(|id| Some(*id) != current) {
                self.save_now(core);
                self.load_call.start(core.send(Command::LoadDraft { id }));
            }
            let label = ui.label(t(lang, Text::DraftName));
            let rename = ui
                .add(egui::TextEdit::singleline(&mut self.name_edit).desired_width(160.0))
                .labelled_by(label.id);
            if rename.lost_focus()
                && let Some(draft) = &mut self.draft
                && let Some(id) = draft.id
                && !self.name_edit.trim().is_empty()
                && self.name_edit.trim() != draft.name
            {
                draft.name = self.name_edit.trim().to_owned();
                self.rename_call.start(core.send(Command::RenameDraft {
                    id,
                    name: draft.name.clone(),
                }));
            }
            ui.menu_button(t(lang, Text::NewDraft), |ui| {
                for kind in Template::ALL {
                    let text = match kind {
                        Template::NewPurchase => Text::TemplateNewPurchase,
                        Template::DeleteAssets => Text::TemplateDeleteAssets,
                        Template::DeleteProducts => Text::TemplateDeleteProducts,
                    };
                    if ui.button(t(lang, text)).clicked() {
                        self.open_new(core, batch::template(kind), None);
                        ui.close();
                    }
                }
            });
            if ui
                .add_enabled(
                    current.is_some(),
                    egui::Button::new(t(lang, Text::DeleteDraft)),
                )
                .clicked()
            {
                self.confirm_delete = true;
            }
        });
    }

    pub(super) fn file_bar_ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang) {
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::OrderFile));
            ui.add(
                egui::TextEdit::singleline(&mut self.file_path)
                    .hint_text(t(lang, Text::FileHint))
                    .desired_width(300.0),
            )
            .labelled_by(label.id);
            let busy = self.pick_call.is_waiting();
            if busy_button_ui(ui, t(lang, Text::Browse), busy) {
                self.picking_save = false;
                self.pick_call.start(core.send(Command::PickFile {
                    save: false,
                    suggested: None,
                }));
            }
            if busy_button_ui(ui, t(lang, Text::ImportFile), self.read_call.is_waiting()) {
                self.import(core);
            }
            if busy_button_ui(ui, t(lang, Text::ExportFile), self.write_call.is_waiting()) {
                self.export(core);
            }
            if ui.button(t(lang, Text::SaveAs)).clicked() {
                self.picking_save = true;
                let suggested = self.draft.as_ref().map(|d| format!("{}.json", d.name));
                self.pick_call.start(core.send(Command::PickFile {
                    save: true,
                    suggested,
                }));
            }
        });
        if self.read_call.is_waiting() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("{} {}", t(lang, Text::LoadingFile), self.file_path));
            });
        }
        match &self.file_message {
            Some(Ok(path)) => {
                ui.label(format!("{}: {path}", t(lang, Text::Exported)));
            }
            Some(Err(why)) => {
                ui.colored_label(ui.visuals().error_fg_color, why);
                ui.label(RichText::new(t(lang, Text::DraftUntouched)).weak());
            }
            None => {}
        }
    }

    pub(super) fn confirm_delete_ui(&mut self, ctx: &egui::Context, core: &Core, lang: Lang) {
        if !self.confirm_delete {
            return;
        }
        let Some((Some(id), name)) = self.draft.as_ref().map(|d| (d.id, d.name.clone())) else {
            self.confirm_delete = false;
            return;
        };
        let mut done = false;
        let modal = egui::Modal::new(egui::Id::unique("confirm_delete_draft")).show(ctx, |ui| {
            ui.label(
                RichText::new(tr!(lang, "delete-draft-question", name = name.as_str())).strong(),
            );
            ui.label(t(lang, Text::CannotUndo));
            ui.horizontal(|ui| {
                if ui.button(t(lang, Text::ConfirmDeleteDraft)).clicked() {
                    self.changed_at = None;
                    self.delete_call
                        .start(core.send(Command::DeleteDraft { id }));
                    done = true;
                }
                if ui.button(t(lang, Text::Cancel)).clicked() {
                    done = true;
                }
            });
        });
        if done || modal.should_close() {
            self.confirm_delete = false;
        }
    }
}
