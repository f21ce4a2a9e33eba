//! The window's own file browser, for a desktop where no OS file dialog answers (no XDG portal,
//! no zenity): a folder field, its subfolders and the files of the dialog's purpose (a batch
//! or a sheet to open, JSON to export, a workbook for the template), a file name, in the UI's
//! language. Small on purpose: the OS dialog is the one to use wherever there is one.

use std::path::{Path, PathBuf};

use egui::RichText;

use crate::core::files::FilePick;

use crate::ui::text::i18n::{Lang, t, tr};

pub struct FileBrowser {
    save: bool,
    /// The extensions of the files listed (the folders are always).
    types: &'static [&'static str],
    folder: PathBuf,
    /// The folder as typed in its field.
    folder_text: String,
    name: String,
    /// Subfolders and batch files of `folder`, read when it changes.
    entries: Vec<(String, bool)>,
    /// Why the folder cannot be listed.
    unreadable: Option<String>,
    /// What the file is for, when not a batch order (the catalog's screen).
    title: Option<String>,
}

/// What the user did in the browser this frame.
pub enum Browsed {
    Chosen(PathBuf),
    Cancelled,
}

impl FileBrowser {
    /// A browser on the folder of `typed` (the file field's path) when there is one, else the
    /// user's home, listing the files `pick` asks for; a save starts with its suggested name.
    pub fn new(pick: &FilePick, typed: &str) -> Self {
        let typed = Path::new(typed.trim());
        let folder = if typed.is_dir() {
            Some(typed)
        } else {
            typed.parent().filter(|p| p.is_dir())
        }
        .map(Path::to_owned)
        .or_else(|| directories::UserDirs::new().map(|d| d.home_dir().to_owned()))
        .unwrap_or_default();
        let mut browser = Self {
            save: pick.saves(),
            types: pick.types(),
            folder: PathBuf::new(),
            folder_text: String::new(),
            name: pick.suggested().unwrap_or_default(),
            entries: Vec::new(),
            unreadable: None,
            title: None,
        };
        browser.go(folder);
        browser
    }

    /// The browser with its own title, for a file that is not a batch order.
    pub fn titled(mut self, title: String) -> Self {
        self.title = Some(title);
        self
    }

    fn go(&mut self, folder: PathBuf) {
        self.folder_text = folder.display().to_string();
        self.entries.clear();
        self.unreadable = None;
        match std::fs::read_dir(&folder) {
            Ok(list) => {
                for entry in list.flatten() {
                    let path = entry.path();
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let is_dir = path.is_dir();
                    let wanted = path
                        .extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(|e| self.types.iter().any(|k| e.eq_ignore_ascii_case(k)));
                    if !name.starts_with('.') && (is_dir || wanted) {
                        self.entries.push((name, is_dir));
                    }
                }
                // Folders first, then files, each by name.
                self.entries
                    .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            }
            Err(e) => self.unreadable = Some(e.to_string()),
        }
        self.folder = folder;
    }

    /// The browser as a dialog; what was chosen, or that it was closed.
    pub fn ui(&mut self, ctx: &egui::Context, lang: Lang) -> Option<Browsed> {
        let title = match (&self.title, self.save) {
            (Some(title), _) => title.clone(),
            (None, true) => tr!(lang, "browser-save-title"),
            (None, false) => tr!(lang, "browser-open-title"),
        };
        let mut done = None;
        let modal = egui::Modal::new(egui::Id::unique("file_browser")).show(ctx, |ui| {
            ui.set_width(520.0);
            ui.label(RichText::new(title).strong());
            self.folder_ui(ui, lang);
            self.entries_ui(ui);
            done = self.buttons_ui(ui, lang);
        });
        if modal.should_close() && done.is_none() {
            done = Some(Browsed::Cancelled);
        }
        done
    }

    fn folder_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal(|ui| {
            let label = ui.label(tr!(lang, "browser-folder"));
            let field = ui
                .add(egui::TextEdit::singleline(&mut self.folder_text).desired_width(360.0))
                .labelled_by(label.id);
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                self.go(PathBuf::from(self.folder_text.trim()));
            }
            if ui.button(tr!(lang, "browser-parent")).clicked()
                && let Some(parent) = self.folder.parent()
            {
                self.go(parent.to_owned());
            }
        });
        if let Some(why) = &self.unreadable {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
    }

    fn entries_ui(&mut self, ui: &mut egui::Ui) {
        let mut open = None;
        egui::ScrollArea::vertical()
            .max_height(260.0)
            .min_scrolled_height(260.0)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (name, is_dir) in &self.entries {
                    let shown = if *is_dir {
                        format!("{name}/")
                    } else {
                        name.clone()
                    };
                    let response = ui.selectable_label(!is_dir && self.name == *name, shown);
                    if response.clicked() {
                        if *is_dir {
                            open = Some(self.folder.join(name));
                        } else {
                            self.name = name.clone();
                        }
                    }
                }
            });
        if let Some(folder) = open {
            self.go(folder);
        }
    }

    fn buttons_ui(&mut self, ui: &mut egui::Ui, lang: Lang) -> Option<Browsed> {
        ui.horizontal(|ui| {
            let label = ui.label(tr!(lang, "browser-file"));
            ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(300.0))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let action = if self.save {
                tr!(lang, "browser-save")
            } else {
                tr!(lang, "browser-open")
            };
            let name = self.name.trim();
            let chosen = ui
                .add_enabled(!name.is_empty(), egui::Button::new(action))
                .clicked();
            if ui.button(t!(lang, "cancel")).clicked() {
                return Some(Browsed::Cancelled);
            }
            chosen.then(|| Browsed::Chosen(self.folder.join(name)))
        })
        .inner
    }
}
