//! The composer's file bar: import a JSON file as a new draft, export the batch, the OS's
//! file dialog, and files dropped on the window.

use std::path::PathBuf;

use egui::RichText;

use super::super::outbox::Outbox;
use super::{ComposerScreen, Hints, OpenDraft};
use crate::core::wire::open::batch_to_json;
use crate::core::{Command, Event, Latest, Outcome};
use crate::ui::file_browser::{Browsed, FileBrowser};
use crate::ui::form::busy_button_ui;
use crate::ui::i18n::{Lang, Text, labelled, t, tr};

#[derive(Default)]
pub(super) struct FileBar {
    path: String,
    /// The exported file, or why the file could not be read.
    message: Option<Result<String, String>>,
    pick_call: Latest,
    /// Whether the dialog asked for is a save dialog (then the batch is exported).
    picking_save: bool,
    read_call: Latest,
    write_call: Latest,
    /// The window's own browser, open when no OS file dialog answered.
    browser: Option<FileBrowser>,
    /// No OS file dialog answered: said above the browser.
    no_os_dialog: bool,
}

impl ComposerScreen {
    /// Answers about files; the action they answer. An imported batch is moved, not copied.
    pub(super) fn apply_file(&mut self, event: &mut Event, out: &Outbox<'_>) -> Option<Text> {
        if self.file.pick_call.accept(event) {
            match &event.result {
                Ok(Outcome::Picked(Some(path))) => self.picked(path, out),
                Ok(Outcome::NoFileDialog) => self.file.no_os_dialog = true,
                _ => {}
            }
            return Some(Text::Browse);
        }
        if self.file.read_call.accept(event) {
            match &mut event.result {
                Ok(Outcome::Imported {
                    draft_id,
                    name,
                    batch,
                }) => {
                    self.file.message = None;
                    // The draft is stored already; the current one is saved and stays listed.
                    self.save_now(out);
                    self.open(OpenDraft {
                        id: Some(*draft_id),
                        name: std::mem::take(name),
                        batch: std::mem::take(&mut **batch),
                        hints: Hints::default(),
                    });
                    self.drafts.refresh(out);
                }
                Err(e) => self.file.message = Some(Err(e.to_string())),
                Ok(_) => {}
            }
            return Some(Text::ImportFile);
        }
        if self.file.write_call.accept(event) {
            if let Ok(Outcome::Written { path }) = &event.result {
                self.file.message = Some(Ok(path.display().to_string()));
            }
            return Some(Text::ExportFile);
        }
        None
    }

    /// A file chosen in a dialog: imported, or the batch exported to it.
    fn picked(&mut self, path: &std::path::Path, out: &Outbox<'_>) {
        self.file.path = path.display().to_string();
        if self.file.picking_save {
            self.export(out);
        } else {
            self.import(out);
        }
    }

    /// The window's own browser, opened when no OS dialog answered; its choice is taken like
    /// the OS dialog's.
    pub(super) fn browser_ui(&mut self, ctx: &egui::Context, out: &Outbox<'_>, lang: Lang) {
        if std::mem::take(&mut self.file.no_os_dialog) {
            let suggested = self.suggested_name(self.file.picking_save);
            let save = self.file.picking_save;
            self.file.browser = Some(FileBrowser::new(save, &self.file.path, suggested));
        }
        let Some(browser) = &mut self.file.browser else {
            return;
        };
        match browser.ui(ctx, lang) {
            None => {}
            Some(Browsed::Cancelled) => self.file.browser = None,
            Some(Browsed::Chosen(path)) => {
                self.file.browser = None;
                self.picked(&path, out);
            }
        }
    }

    fn import(&mut self, out: &Outbox<'_>) {
        let path = self.file.path.trim();
        if path.is_empty() {
            return;
        }
        let command = Command::ImportOrderFile {
            path: PathBuf::from(path),
        };
        self.file.message = None;
        self.file.read_call.start(out.send(command));
    }

    fn export(&mut self, out: &Outbox<'_>) {
        let (Some(draft), path) = (&self.draft, self.file.path.trim()) else {
            return;
        };
        if path.is_empty() {
            return;
        }
        let body = match batch_to_json(&draft.batch, true) {
            Ok(body) => body,
            // Nothing is written rather than an empty file.
            Err(_) => return,
        };
        let command = Command::WriteFile {
            path: PathBuf::from(path),
            body,
        };
        self.file.message = None;
        self.file.write_call.start(out.send(command));
    }

    pub(super) fn dropped_files_ui(&mut self, ui: &egui::Ui, out: &Outbox<'_>) {
        let dropped: Option<PathBuf> = ui
            .ctx()
            .input(|i| i.raw.dropped_files.first().map(|f| f.path().to_owned()));
        if let Some(path) = dropped {
            self.file.path = path.display().to_string();
            self.import(out);
        }
    }

    pub(super) fn file_bar_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        ui.horizontal_wrapped(|ui| self.file_buttons_ui(ui, out, lang));
        let file = &self.file;
        if file.read_call.is_waiting() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("{} {}", t(lang, Text::LoadingFile), file.path));
            });
        }
        if file.browser.is_some() {
            ui.colored_label(ui.visuals().warn_fg_color, tr!(lang, "no-os-file-dialog"));
        }
        match &file.message {
            Some(Ok(path)) => {
                ui.label(labelled(lang, t(lang, Text::Exported), path));
            }
            Some(Err(why)) => {
                ui.colored_label(ui.visuals().error_fg_color, why);
                ui.label(RichText::new(t(lang, Text::DraftUntouched)).weak());
            }
            None => {}
        }
    }

    fn file_buttons_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        let label = ui.label(t(lang, Text::OrderFile));
        ui.add(
            egui::TextEdit::singleline(&mut self.file.path)
                .hint_text(t(lang, Text::FileHint))
                .desired_width(300.0),
        )
        .labelled_by(label.id);
        if busy_button_ui(ui, t(lang, Text::Browse), self.file.pick_call.is_waiting()) {
            self.pick(out, false);
        }
        if busy_button_ui(
            ui,
            t(lang, Text::ImportFile),
            self.file.read_call.is_waiting(),
        ) {
            self.import(out);
        }
        if busy_button_ui(
            ui,
            t(lang, Text::ExportFile),
            self.file.write_call.is_waiting(),
        ) {
            self.export(out);
        }
        if ui.button(t(lang, Text::SaveAs)).clicked() {
            self.pick(out, true);
        }
    }

    /// The file name a save dialog starts with: the draft's.
    fn suggested_name(&self, save: bool) -> Option<String> {
        save.then(|| self.draft.as_ref().map(|d| format!("{}.json", d.name)))
            .flatten()
    }

    /// Asks for the OS's dialog: open a file to import, or save the batch.
    fn pick(&mut self, out: &Outbox<'_>, save: bool) {
        let suggested = self.suggested_name(save);
        self.file.picking_save = save;
        self.file
            .pick_call
            .start(out.send(Command::PickFile { save, suggested }));
    }
}
