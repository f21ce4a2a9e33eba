//! The profile form's CA file: a typed path, Browse… (the OS dialog, or the window's own
//! browser where none answers). Only a file to trust besides the system's CAs: there is no way
//! to turn certificate verification off.

use std::path::PathBuf;

use crate::core::Awaited;
use crate::core::files::{self, FilePick, Picked};
use crate::core::wire::validate::Problem;
use crate::ui::kit::file_browser::{Browsed, FileBrowser};
use crate::ui::kit::form::{Field, field_with_ui};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, t, tr};

/// The field as typed, and the dialog choosing it.
#[derive(Default)]
pub struct CaFileField {
    pub text: String,
    pick: Awaited<Picked>,
    /// No OS dialog answered: the window's browser opens in the next frame.
    no_os_dialog: bool,
    browser: Option<FileBrowser>,
}

impl CaFileField {
    pub fn new(path: Option<&PathBuf>) -> Self {
        Self {
            text: path.map(|p| p.display().to_string()).unwrap_or_default(),
            ..Self::default()
        }
    }

    /// The path to keep: none when empty, else made absolute, so that it means the same file
    /// whichever folder the console starts in.
    pub fn path(&self) -> Option<PathBuf> {
        let typed = self.text.trim();
        if typed.is_empty() {
            return None;
        }
        let path = PathBuf::from(typed);
        Some(std::path::absolute(&path).unwrap_or(path))
    }

    /// Takes the dialog's answer when it has come.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        match out.reply(&mut self.pick, label!("browse")) {
            Some(Ok(Picked::File(Some(path)))) => self.text = path.display().to_string(),
            Some(Ok(Picked::NoDialog { .. })) => self.no_os_dialog = true,
            _ => {}
        }
    }

    /// Its row in the form's grid.
    pub fn row_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        problems: &[Problem],
    ) {
        let label = tr!(lang, "profile-ca-file");
        let field = Field {
            label: &label,
            path: "caFile",
            required: false,
        };
        let mut browse = false;
        field_with_ui(ui, lang, &field, problems, |ui| {
            ui.horizontal(|ui| {
                let edit = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.text)
                            .hint_text(tr!(lang, "profile-ca-file-hint"))
                            .desired_width(300.0),
                    )
                    .on_hover_text(tr!(lang, "profile-ca-file-help"));
                browse = ui
                    .add_enabled(
                        !self.pick.is_waiting(),
                        egui::Button::new(t!(lang, "browse")),
                    )
                    .clicked();
                edit
            })
            .inner
        });
        if browse {
            self.pick.start(out.ask(files::Pick {
                pick: FilePick::OpenCaFile,
            }));
        }
        self.browser_ui(ui.ctx(), lang);
    }

    fn browser_ui(&mut self, ctx: &egui::Context, lang: Lang) {
        if std::mem::take(&mut self.no_os_dialog) {
            let title = tr!(lang, "ca-file-browser-title");
            self.browser = Some(FileBrowser::new(&FilePick::OpenCaFile, &self.text).titled(title));
        }
        let Some(browser) = &mut self.browser else {
            return;
        };
        match browser.ui(ctx, lang) {
            None => {}
            Some(Browsed::Cancelled) => self.browser = None,
            Some(Browsed::Chosen(path)) => {
                self.text = path.display().to_string();
                self.browser = None;
            }
        }
    }
}
