//! Settings → *Move to another computer…* (issue 58): this computer's License Desk saved in one
//! file, and such a file checked whole and restored at the next start (the running console's
//! files cannot be replaced under it). At that start, what was restored and what to enter
//! again (secrets and sign-ins never travel).

use std::path::PathBuf;

use egui::RichText;

use crate::core::Awaited;
use crate::core::backup::requests::{Create, PrepareRestore};
use crate::core::backup::{BackupError, EnterAgain, Manifest, Restored};
use crate::ui::kit::form::{busy_button_ui, home_file};
use crate::ui::outbox::Outbox;
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, t, tr};

#[derive(Default)]
pub(super) struct Moving {
    open: bool,
    /// The window's state folder, carried with the rest.
    pub(super) window_dir: Option<PathBuf>,
    save_to: String,
    create: Awaited<Manifest>,
    saved: Option<(String, Manifest)>,
    restore_from: String,
    prepare: Awaited<Manifest>,
    checked: Option<Manifest>,
    /// *Restart now* was clicked.
    restart: bool,
    /// What this start restored, or why it did not, until dismissed.
    restored: Option<Result<Restored, BackupError>>,
}

impl Moving {
    pub(super) fn open(&mut self) {
        self.open = true;
        if self.save_to.is_empty() {
            let day = jiff::Zoned::now().strftime("%Y%m%d").to_string();
            self.save_to = home_file(&format!("license-desk-move-{day}.ldbackup"));
        }
    }

    pub(super) fn restored(&mut self, result: Result<Restored, BackupError>) {
        self.restored = Some(result);
    }

    pub(super) fn take_restart(&mut self) -> bool {
        std::mem::take(&mut self.restart)
    }

    pub(super) fn poll(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(manifest)) = out.reply(&mut self.create, label!("move-save")) {
            self.saved = Some((self.save_to.trim().to_owned(), manifest));
        }
        if let Some(Ok(manifest)) = out.reply(&mut self.prepare, label!("move-restore")) {
            self.checked = Some(manifest);
        }
    }

    pub(super) fn ui(&mut self, ctx: &egui::Context, out: &Outbox<'_>, lang: Lang, busy: bool) {
        self.restored_ui(ctx, lang);
        if !self.open {
            return;
        }
        let mut open = true;
        egui::Window::new(t!(lang, "move-title"))
            .id(egui::Id::unique("moving_window"))
            .open(&mut open)
            .collapsible(false)
            .default_width(600.0)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .show(ctx, |ui| {
                ui.label(t!(lang, "move-help"));
                ui.add_space(8.0);
                self.save_ui(ui, out, lang);
                ui.separator();
                self.restore_ui(ui, out, lang, busy);
            });
        self.open = open;
    }

    fn save_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        ui.strong(t!(lang, "move-save-section"));
        ui.horizontal(|ui| {
            let label = ui.label(t!(lang, "move-save-to"));
            ui.add(egui::TextEdit::singleline(&mut self.save_to).desired_width(380.0))
                .labelled_by(label.id);
        });
        if busy_button_ui(ui, t!(lang, "move-save"), self.create.is_waiting()) {
            self.saved = None;
            self.create.start(out.ask(Create {
                out: PathBuf::from(self.save_to.trim()),
                window_dir: self.window_dir.clone(),
            }));
        }
        if let Some((path, manifest)) = &self.saved {
            let size: u64 = manifest.parts.iter().map(|p| p.size).sum();
            let size = format!("{:.1} MB", size as f64 / 1_000_000.0);
            let parts = manifest.parts.len();
            ui.label(tr!(
                lang,
                "move-saved",
                path = path.as_str(),
                parts = parts,
                size = size
            ));
        }
    }

    /// `busy`: calls run, which a restart would cut; *Restart now* waits for them.
    fn restore_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, busy: bool) {
        ui.strong(t!(lang, "move-restore-section"));
        ui.horizontal(|ui| {
            let label = ui.label(t!(lang, "move-restore-from"));
            ui.add(egui::TextEdit::singleline(&mut self.restore_from).desired_width(380.0))
                .labelled_by(label.id);
        });
        let typed = !self.restore_from.trim().is_empty();
        ui.add_enabled_ui(typed, |ui| {
            if busy_button_ui(ui, t!(lang, "move-restore"), self.prepare.is_waiting()) {
                self.checked = None;
                self.prepare.start(out.ask(PrepareRestore {
                    file: PathBuf::from(self.restore_from.trim()),
                    window_dir: self.window_dir.clone(),
                }));
            }
        });
        if let Some(manifest) = &self.checked {
            let date = dates::local_date(manifest.created_at);
            let words = tr!(
                lang,
                "move-checked",
                parts = manifest.parts.len(),
                version = manifest.program.as_str(),
                date = date.as_str()
            );
            ui.label(RichText::new(words).strong());
            let restart = ui.add_enabled(!busy, egui::Button::new(t!(lang, "move-restart")));
            if restart.clicked() {
                self.restart = true;
            }
        }
    }

    /// At the start that restored a backup: what it did, or why nothing changed.
    fn restored_ui(&mut self, ctx: &egui::Context, lang: Lang) {
        let Some(result) = &self.restored else {
            return;
        };
        let mut dismissed = false;
        egui::Modal::new(egui::Id::unique("restored")).show(ctx, |ui| {
            ui.set_max_width(460.0);
            ui.heading(t!(lang, "move-restored-title"));
            match result {
                Ok(restored) => restored_words_ui(ui, lang, restored),
                Err(why) => {
                    let why = why.to_string();
                    let words = tr!(lang, "move-restore-failed", why = why.as_str());
                    ui.colored_label(ui.visuals().error_fg_color, words);
                }
            }
            ui.add_space(8.0);
            dismissed = ui.button(t!(lang, "dismiss")).clicked();
        });
        if dismissed {
            self.restored = None;
        }
    }
}

fn restored_words_ui(ui: &mut egui::Ui, lang: Lang, restored: &Restored) {
    ui.label(tr!(lang, "move-restored", parts = restored.parts));
    if !restored.kept_aside.is_empty() {
        ui.label(t!(lang, "move-kept-aside"));
        for kept in &restored.kept_aside {
            ui.monospace(kept.display().to_string());
        }
    }
    if !restored.to_enter_again.is_empty() {
        ui.label(t!(lang, "move-enter-again"));
        for what in &restored.to_enter_again {
            ui.label(format!("• {}", enter_again_words(lang, what)));
        }
    }
}

fn enter_again_words(lang: Lang, what: &EnterAgain) -> String {
    match what {
        EnterAgain::AppSecret { profile } => {
            tr!(lang, "move-enter-secret", profile = profile.as_str())
        }
        EnterAgain::SignIn { profile, user } => tr!(
            lang,
            "move-enter-sign-in",
            profile = profile.as_str(),
            user = user.as_str()
        ),
    }
}
