//! The composer's file bar: import a JSON file as a new draft, export the batch, the OS's
//! file dialog, and files dropped on the window.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui::RichText;

use super::{ComposerScreen, Hints, OpenDraft};
use crate::core::catalog::store::ImportReport;
use crate::core::files;
use crate::core::files::Picked;
use crate::core::progress::{Progress, Stage};
use crate::core::request::Finished;
use crate::core::sheet::build::{Misplaced, MisplacedWhy};
use crate::core::{Awaited, CoreError};
use crate::ui::kit::file_browser::{Browsed, FileBrowser};
use crate::ui::kit::form::busy_button_ui;
use crate::ui::kit::theme;
use crate::ui::outbox::Outbox;
use crate::ui::text::file_errors::read_failure_words;
use crate::ui::text::i18n::{Lang, label, labelled, t, tr};

/// Work shorter than this shows no bar.
const MOMENT: Duration = Duration::from_millis(150);

/// What a file dialog is asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Picking {
    /// A batch to import (JSON or a spreadsheet).
    #[default]
    Import,
    /// Where to export the batch as JSON.
    Export,
    /// Where to write the spreadsheet template.
    Template,
}

/// What the file bar says of the last file read or written.
enum FileMessage {
    Exported(String),
    /// Why the file could not be read.
    Failed(CoreError),
    /// Why the file could not be written (written whole or not at all: the file there, if
    /// any, is as it was).
    WriteFailed(String),
    /// The user stopped an import: nothing changed.
    Cancelled,
}

#[derive(Default)]
pub(super) struct FileBar {
    path: String,
    message: Option<FileMessage>,
    /// How far the file being imported has come; the Cancel button stops it.
    importing: Progress,
    pick_call: Awaited<Picked>,
    /// What the file asked for in a dialog is for.
    picking: Picking,
    read_call: Awaited<Finished<Box<files::Imported>>>,
    write_call: Awaited<PathBuf>,
    /// How far the batch being exported has come, and when its bar shows.
    exporting: Option<(Progress, Instant)>,
    /// The window's own browser, open when no OS file dialog answered.
    browser: Option<FileBrowser>,
    /// No OS file dialog answered: said above the browser.
    no_os_dialog: bool,
    /// The OS dialog closed at once without showing, rather than there being none.
    dialog_closed_at_once: bool,
    /// The imported spreadsheet's headers that name no column (their cells were not read).
    unread: Vec<String>,
    /// The imported spreadsheet's packages its parent numbers placed nowhere.
    misplaced: Vec<Misplaced>,
    /// What the last import taught the catalog and the directory, once learned.
    taught: Option<ImportReport>,
    taught_call: Awaited<Option<ImportReport>>,
}

impl FileBar {
    /// Another draft is shown: what the bar said of a file that failed, or of an import
    /// cancelled, was about the draft that was open ("the draft was not changed") and goes.
    pub(super) fn forget_failure(&mut self) {
        if matches!(
            self.message,
            Some(FileMessage::Failed(_) | FileMessage::Cancelled)
        ) {
            self.message = None;
        }
    }
}

/// A file being imported: its stage, a bar when its size is known, and Cancel.
fn importing_ui(ui: &mut egui::Ui, progress: &Progress, lang: Lang) {
    let seen = progress.snapshot();
    let stage = match seen.stage {
        Stage::Reading => tr!(lang, "import-reading"),
        Stage::Building => tr!(lang, "import-building"),
        Stage::Checking => tr!(lang, "import-checking"),
        Stage::Saving => tr!(lang, "import-saving"),
        Stage::Copying => tr!(lang, "export-copying"),
        Stage::Writing => tr!(lang, "export-writing"),
        Stage::Listing => tr!(lang, "renewals-listing"),
    };
    ui.horizontal(|ui| {
        match seen.fraction() {
            Some(part) => {
                let percent = (part * 100.0).round() as u32;
                let words = tr!(lang, "import-progress", stage = stage, percent = percent);
                ui.add(
                    egui::ProgressBar::new(part)
                        .desired_width(320.0)
                        .text(words),
                );
            }
            // The Import button spins already.
            None => {
                ui.label(stage);
            }
        }
        if progress.is_cancelled() {
            ui.label(tr!(lang, "import-cancelling"));
        } else if ui.button(t!(lang, "cancel")).clicked() {
            progress.cancel();
        }
    });
    // The bar moves while nothing else happens in the window.
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(100));
}

/// An export that takes longer than a moment: its stage, and a bar while the batch is taken.
fn exporting_ui(ui: &mut egui::Ui, progress: &Progress, from: Instant, lang: Lang) {
    let now = Instant::now();
    if now < from {
        // A small batch is written before anyone could read a bar: none flashes.
        ui.ctx().request_repaint_after(from - now);
        return;
    }
    let seen = progress.snapshot();
    let stage = match seen.stage {
        Stage::Copying => tr!(lang, "export-copying"),
        _ => tr!(lang, "export-writing"),
    };
    let words = tr!(lang, "export-progress", stage = stage);
    let bar = match seen.fraction() {
        Some(part) => egui::ProgressBar::new(part),
        // Written in one piece: the bar moves without a measure.
        None => egui::ProgressBar::new(1.0).animate(true),
    };
    ui.add(bar.desired_width(320.0).text(words));
    ui.ctx().request_repaint_after(Duration::from_millis(100));
}

impl ComposerScreen {
    /// Takes the replies about files that have come. An imported batch is moved, not copied.
    pub(super) fn poll_file(&mut self, out: &Outbox<'_>) {
        match out.reply(&mut self.file.pick_call, label!("browse")) {
            Some(Ok(Picked::File(Some(path)))) => self.picked(&path, out),
            Some(Ok(Picked::NoDialog { closed_at_once })) => {
                self.file.no_os_dialog = true;
                self.file.dialog_closed_at_once = closed_at_once;
            }
            _ => {}
        }
        match out.reply_finished(&mut self.file.read_call, label!("import-file")) {
            Some(Ok(Finished::Done(imported))) => self.open_imported(*imported, out),
            Some(Ok(Finished::Cancelled)) => self.file.message = Some(FileMessage::Cancelled),
            Some(Err(e)) => self.file.message = Some(FileMessage::Failed(e)),
            None => {}
        }
        // A catalog that could not learn is logged by the core: no line says what it took.
        if let Some(taught) = self.file.taught_call.take() {
            self.file.taught = taught.ok().flatten();
        }
        if let Some(written) = out.reply(&mut self.file.write_call, label!("export-file")) {
            self.file.exporting = None;
            self.file.message = Some(match written {
                Ok(path) => FileMessage::Exported(path.display().to_string()),
                Err(e) => FileMessage::WriteFailed(e.to_string()),
            });
        }
    }

    /// A file imported: its draft is stored already; the current one is saved and stays
    /// listed.
    fn open_imported(&mut self, imported: files::Imported, out: &Outbox<'_>) {
        self.file.message = None;
        // What it teaches is learned now that the batch can be shown.
        self.file.taught = None;
        let learn = files::LearnImported {
            profile: imported.profile.clone(),
            batch: imported.batch.clone(),
        };
        self.file.taught_call.start(out.ask(learn));
        self.file.unread = imported.unread_columns;
        self.file.misplaced = imported.misplaced;
        self.save_now(out);
        self.open(OpenDraft {
            id: Some(imported.draft_id),
            name: imported.name,
            batch: imported.batch,
            hints: Hints::default(),
            unreadable: None,
        });
        // Checked on the core's threads already.
        self.check.opened_checked(*imported.checked);
        let file = std::path::Path::new(self.file.path.trim())
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        self.check.imported(file, imported.places);
        self.drafts.refresh(out);
        self.store_new_hints(out);
    }

    /// A file chosen in a dialog: imported, or the batch exported to it.
    fn picked(&mut self, path: &std::path::Path, out: &Outbox<'_>) {
        match self.file.picking {
            Picking::Import => {
                self.file.path = path.display().to_string();
                self.import(out);
            }
            Picking::Export => {
                self.file.path = path.display().to_string();
                self.export(out);
            }
            Picking::Template => {
                let template = files::WriteTemplate {
                    path: path.to_owned(),
                };
                self.file.message = None;
                self.file.write_call.start(out.ask(template));
            }
        }
    }

    /// The window's own browser, opened when no OS dialog answered; its choice is taken like
    /// the OS dialog's.
    pub(super) fn browser_ui(&mut self, ctx: &egui::Context, out: &Outbox<'_>, lang: Lang) {
        if std::mem::take(&mut self.file.no_os_dialog) {
            let pick = self.file_pick(self.file.picking, lang);
            self.file.browser = Some(FileBrowser::new(&pick, &self.file.path));
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
        self.file.importing = Progress::default();
        let import = files::ImportOrders {
            path: PathBuf::from(path),
            progress: self.file.importing.clone(),
        };
        self.file.message = None;
        self.file.read_call.start(out.ask(import));
    }

    fn export(&mut self, out: &Outbox<'_>) {
        let (Some(draft), path) = (&self.draft, self.file.path.trim()) else {
            return;
        };
        if path.is_empty() {
            return;
        }
        let path = PathBuf::from(path);
        let written = match &draft.unreadable {
            // A draft that cannot be read is written as it is stored, byte for byte.
            Some(unreadable) => out.ask(files::WriteBytes {
                path,
                bytes: unreadable.stored.clone(),
            }),
            // Written as JSON on the core's threads, from the snapshot: a pointer copy here.
            None => {
                let progress = Progress::default();
                // A large batch shows its bar at once; a small one only if it is slow.
                let delay = if draft.batch.len() > super::check::CHECK_HERE_UP_TO {
                    Duration::ZERO
                } else {
                    MOMENT
                };
                self.file.exporting = Some((progress.clone(), Instant::now() + delay));
                out.ask(files::ExportBatch {
                    path,
                    batch: draft.batch.clone(),
                    progress,
                })
            }
        };
        self.file.message = None;
        self.file.write_call.start(written);
    }

    /// *Export as is*: to the file typed in the bar, else to one chosen in a dialog.
    pub(super) fn export_as_is(&mut self, out: &Outbox<'_>, lang: Lang) {
        if self.file.path.trim().is_empty() {
            self.pick(out, Picking::Export, lang);
        } else {
            self.export(out);
        }
    }

    pub(super) fn export_busy(&self) -> bool {
        self.file.write_call.is_waiting()
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
        if self.file.read_call.is_waiting() {
            importing_ui(ui, &self.file.importing, lang);
        }
        if let Some((progress, from)) = &self.file.exporting {
            exporting_ui(ui, progress, *from, lang);
        }
        let file = &self.file;
        if !file.unread.is_empty() {
            let list = file.unread.join("; ");
            ui.colored_label(
                ui.visuals().warn_fg_color,
                tr!(lang, "unread-columns", list = list),
            );
        }
        taught_ui(ui, file, lang);
        for m in &file.misplaced {
            let (cell, package, parent) = (&m.cell, &m.package, &m.parent);
            let words = match m.why {
                MisplacedWhy::UnknownParent => tr!(
                    lang,
                    "package-parent-unknown",
                    cell = cell,
                    package = package,
                    parent = parent
                ),
                MisplacedWhy::Cycle => tr!(
                    lang,
                    "package-parent-cycle",
                    cell = cell,
                    package = package,
                    parent = parent
                ),
            };
            ui.colored_label(ui.visuals().warn_fg_color, words);
        }
        if file.browser.is_some() {
            let words = if file.dialog_closed_at_once {
                tr!(lang, "os-file-dialog-closed-at-once")
            } else {
                tr!(lang, "no-os-file-dialog")
            };
            ui.colored_label(ui.visuals().warn_fg_color, words);
        }
        match &file.message {
            Some(FileMessage::Exported(path)) => {
                ui.label(labelled(lang, t!(lang, "exported"), path));
            }
            Some(FileMessage::Failed(e)) => {
                let verbatim = e.to_string();
                match read_failure_words(lang, e) {
                    Some(words) => {
                        ui.colored_label(ui.visuals().error_fg_color, words);
                        let caption = t!(lang, "verbatim-caption");
                        ui.label(RichText::new(format!("{caption} {verbatim}")).weak());
                    }
                    None => {
                        ui.colored_label(ui.visuals().error_fg_color, verbatim);
                    }
                }
                ui.label(RichText::new(t!(lang, "draft-untouched")).weak());
            }
            Some(FileMessage::WriteFailed(why)) => {
                ui.colored_label(ui.visuals().error_fg_color, why);
                ui.label(RichText::new(tr!(lang, "nothing-written")).weak());
            }
            Some(FileMessage::Cancelled) => {
                ui.label(tr!(lang, "import-cancelled"));
            }
            None => {}
        }
    }

    fn file_buttons_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        let label = ui.label(t!(lang, "order-file"));
        ui.add(
            egui::TextEdit::singleline(&mut self.file.path)
                .id(super::history::own_field(
                    super::history::OwnField::FilePath,
                ))
                .hint_text(t!(lang, "file-hint"))
                .desired_width(300.0),
        )
        .labelled_by(label.id);
        if busy_button_ui(ui, t!(lang, "browse"), self.file.pick_call.is_waiting()) {
            self.pick(out, Picking::Import, lang);
        }
        if busy_button_ui(
            ui,
            t!(lang, "import-file"),
            self.file.read_call.is_waiting(),
        ) {
            self.import(out);
        }
        if busy_button_ui(
            ui,
            t!(lang, "export-file"),
            self.file.write_call.is_waiting(),
        ) {
            self.export(out);
        }
        if ui.button(t!(lang, "save-as")).clicked() {
            self.pick(out, Picking::Export, lang);
        }
        if ui
            .button(tr!(lang, "sheet-template"))
            .on_hover_text(tr!(lang, "sheet-template-help"))
            .clicked()
        {
            self.pick(out, Picking::Template, lang);
        }
    }

    /// What a dialog is asked for: the batch is saved under its draft's name.
    fn file_pick(&self, picking: Picking, lang: Lang) -> files::FilePick {
        match picking {
            Picking::Import => files::FilePick::OpenOrders,
            Picking::Export => files::FilePick::SaveBatch(self.draft.as_ref().map_or_else(
                || "batch-order.json".to_owned(),
                |d| format!("{}.json", d.name),
            )),
            Picking::Template => {
                files::FilePick::SaveTemplate(t!(lang, "template-file-name").to_owned())
            }
        }
    }

    /// Asks for the OS's dialog: open a file to import, save the batch, or the template.
    fn pick(&mut self, out: &Outbox<'_>, picking: Picking, lang: Lang) {
        let pick = self.file_pick(picking, lang);
        self.file.picking = picking;
        self.file.pick_call.start(out.ask(files::Pick { pick }));
    }
}

/// One line from the import on, waiting or said, so that nothing below it moves (or loses its
/// keyboard focus) when the learning answers.
fn taught_ui(ui: &mut egui::Ui, file: &FileBar, lang: Lang) {
    let taught = if file.taught_call.is_waiting() {
        Some(tr!(lang, "import-learning"))
    } else {
        let nothing = || tr!(lang, "import-taught-nothing");
        file.taught
            .map(|t| taught_words(lang, &t).unwrap_or_else(nothing))
    };
    if let Some(words) = taught {
        ui.label(RichText::new(words).color(theme::palette(ui).muted));
    }
}

/// What an import taught the catalog and the directory, in words; None when it taught nothing.
fn taught_words(lang: Lang, taught: &ImportReport) -> Option<String> {
    let shelves = [taught.products, taught.packages, taught.customers];
    let new: usize = shelves.iter().map(|c| c.new).sum();
    let changed: usize = shelves.iter().map(|c| c.changed).sum();
    (new + changed > 0).then(|| tr!(lang, "import-taught", new = new, changed = changed))
}
