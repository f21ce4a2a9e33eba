//! A newer version offered by the active team profile's server (issue 58): a quiet line above
//! the status bar, the notes on demand, the download with its bar, then on Windows *Install and
//! restart* (once the drafts are saved and no call runs), on Linux the command that installs
//! the package. Asked once per profile and window, once the person is signed in; a release the
//! administrator marked required is installed at once on Windows. A server whose release key
//! changed is said, never followed.

use std::collections::HashSet;
use std::path::PathBuf;

use crate::core::progress::Progress;
use crate::core::team::Session;
use crate::core::update::{
    ApplyUpdate, CheckUpdate, DownloadUpdate, Installed, Release, Target, UpdateCheck, UpdateError,
    dpkg_command,
};
use crate::core::{Awaited, CoreError, CoreState, Endpoint};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, t, tr};

#[derive(Default)]
pub struct UpdateNotice {
    /// Profiles asked in this window: once each.
    asked: HashSet<String>,
    /// The check asked, and the profile it was asked of.
    check: Awaited<UpdateCheck>,
    checking: String,
    /// The newer release offered, and the profile that offers it.
    offer: Option<(String, Release)>,
    /// The server's release key is not the one pinned: updates refused.
    key_changed: Option<String>,
    notes: bool,
    download: Awaited<PathBuf>,
    progress: Progress,
    downloaded: Option<PathBuf>,
    /// *Install and restart* was asked (or the release is required): the release is
    /// downloaded first, then installed once the drafts are saved and no call runs.
    install_wanted: bool,
    install: Awaited<Installed>,
    /// The new program installed, to start once this window has closed.
    restart_into: Option<PathBuf>,
}

impl UpdateNotice {
    /// Asks the active team profile's server once, when its person is signed in; installs
    /// what was asked to be once `drafts_saved` and no call runs.
    pub fn tick(&mut self, out: &Outbox<'_>, state: &CoreState, drafts_saved: bool) {
        if self.install_wanted {
            self.install_when_ready(out, drafts_saved && state.calls.is_empty());
        }
        let profile = state.profiles.active();
        if !matches!(profile.endpoint, Endpoint::Team { .. }) {
            return;
        }
        let signed_in = state
            .sessions
            .get(&profile.name)
            .and_then(Session::me)
            .is_some();
        if signed_in && self.asked.insert(profile.name.clone()) {
            self.checking = profile.name.clone();
            self.check.start(out.ask(CheckUpdate {
                profile: profile.name.clone(),
            }));
        }
    }

    /// The download first (the window stays in use meanwhile), then the install once `ready`;
    /// the window is held still while the installer runs.
    fn install_when_ready(&mut self, out: &Outbox<'_>, ready: bool) {
        let Some((profile, _)) = self.offer.clone() else {
            self.install_wanted = false;
            return;
        };
        if self.downloaded.is_none() {
            if !self.download.is_waiting() {
                self.start_download(out, &profile);
            }
        } else if ready {
            self.install_wanted = false;
            self.progress = Progress::default();
            self.install.start(out.ask(ApplyUpdate {
                profile,
                progress: self.progress.clone(),
            }));
        }
    }

    fn start_download(&mut self, out: &Outbox<'_>, profile: &str) {
        self.progress = Progress::default();
        self.download.start(out.ask(DownloadUpdate {
            profile: profile.to_owned(),
            out_dir: None,
            progress: self.progress.clone(),
        }));
    }

    /// The new program to start once this window has closed, when one was installed.
    pub fn take_restart(&mut self) -> Option<PathBuf> {
        self.restart_into.take()
    }

    /// Takes the answers: a check's quietly (no update is no news), a download's with the
    /// status bar (a refused file is).
    pub fn poll(&mut self, out: &Outbox<'_>) {
        match self.check.take() {
            // An install on its way keeps the release it installs.
            Some(Ok(_)) if self.install.is_waiting() || self.install_wanted => {}
            Some(Ok(check)) => {
                let profile = self.checking.clone();
                self.offer = check.available.map(|r| (profile, r));
                self.downloaded = None;
                // Required: installed now, as at the program's start (Windows only: a package
                // needs root on Linux, whose line says so); never under a key seen only now.
                self.install_wanted |= !check.pinned_now
                    && self
                        .offer
                        .as_ref()
                        .is_some_and(|(_, r)| r.required && r.target == Target::WindowsX86_64);
            }
            Some(Err(CoreError::Update(e))) if matches!(*e, UpdateError::KeyChanged { .. }) => {
                self.key_changed = Some(e.to_string());
            }
            // A server with no releases, or none reached: nothing to say.
            Some(Err(_)) | None => {}
        }
        match out.reply(&mut self.download, label!("update-download")) {
            Some(Ok(path)) => self.downloaded = Some(path),
            // Said by the status bar; an install that waited for it is not tried again.
            Some(Err(_)) => self.install_wanted = false,
            None => {}
        }
        if let Some(Ok(Installed::Program { program, .. })) =
            out.reply(&mut self.install, label!("update-install"))
        {
            self.restart_into = Some(program);
        }
    }

    /// Whether the drafts are to be saved now, for an install that waits for them.
    pub fn wants_drafts_saved(&self) -> bool {
        self.install_wanted
    }

    /// Whether there is a line to draw.
    pub fn shown(&self) -> bool {
        self.offer.is_some() || self.key_changed.is_some()
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        if self.install.is_waiting() {
            // Nothing is started while the installer runs: the window is held still.
            egui::Modal::new(egui::Id::unique("installing")).show(ui.ctx(), |ui| {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t!(lang, "update-installing-now"));
                });
            });
        }
        if let Some(why) = &self.key_changed {
            ui.colored_label(ui.visuals().warn_fg_color, t!(lang, "update-key-changed"))
                .on_hover_text(why.as_str());
        }
        // Cloned for the frame: the download's state beside it changes as it is drawn.
        let Some((profile, release)) = self.offer.clone() else {
            return;
        };
        // The notes above the line: the panel grows upwards, and the line's buttons stay put.
        if self.notes {
            match release.notes.trim() {
                "" => ui.weak(t!(lang, "update-no-notes")),
                notes => ui.label(notes),
            };
        }
        ui.horizontal_wrapped(|ui| {
            let version = release.version.as_str();
            ui.strong(tr!(lang, "update-available", version = version));
            if release.required {
                ui.colored_label(ui.visuals().warn_fg_color, t!(lang, "update-required"));
            }
            // A toggle of one label, so that the buttons after it never move.
            ui.toggle_value(&mut self.notes, t!(lang, "update-notes"));
            self.action_ui(ui, out, lang, &profile, &release);
        });
    }

    /// Download, its bar, or what to do with the file downloaded.
    fn action_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &str,
        release: &Release,
    ) {
        if self.install.is_waiting() || self.install_wanted {
            // A required release is downloaded by the install itself: its bar shows that.
            let part = self.progress.snapshot().fraction().unwrap_or(0.0);
            ui.add(
                egui::ProgressBar::new(part)
                    .desired_width(120.0)
                    .animate(true),
            );
            ui.label(t!(lang, "update-installing"));
            return;
        }
        if let Some(path) = &self.downloaded {
            match release.target {
                Target::LinuxX86_64 => {
                    let command = dpkg_command(path);
                    ui.label(t!(lang, "update-install-linux"));
                    if ui.small_button(t!(lang, "update-copy")).clicked() {
                        ui.ctx().copy_text(command.clone());
                    }
                    // The command whole on a line of its own.
                    ui.end_row();
                    ui.code(&command);
                }
                Target::WindowsX86_64 => {
                    let path = path.display().to_string();
                    ui.label(tr!(lang, "update-downloaded", path = path.as_str()));
                    if ui.button(t!(lang, "update-install")).clicked() {
                        self.install_wanted = true;
                    }
                }
            }
            return;
        }
        if self.download.is_waiting() {
            let part = self.progress.snapshot().fraction().unwrap_or(0.0);
            let percent = (part * 100.0).round() as u32;
            let words = tr!(lang, "update-downloading", percent = percent);
            ui.add(
                egui::ProgressBar::new(part)
                    .desired_width(240.0)
                    .text(words),
            );
        } else if ui.button(t!(lang, "update-download")).clicked() {
            self.start_download(out, profile);
        }
    }
}
