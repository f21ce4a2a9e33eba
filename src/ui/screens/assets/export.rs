//! The view's CSV export: made on a core thread from a snapshot of the view (the listing is
//! shared, not copied), with a bar and Cancel while 100,000 rows are written.

use std::path::PathBuf;
use std::sync::Arc;

use super::table::{Col, cell_text};
use super::{AssetsScreen, EXPORT_FILE};
use crate::core::progress::{Progress, Stage};
use crate::core::request::Finished;
use crate::core::wire::AssetList;
use crate::core::{Awaited, Producer, files};
use crate::ui::kit::form::{busy_icon_button_ui, csv_with_bom, home_file};
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, labelled, t, tr};

/// How many rows between two looks at the progress (and at Cancel).
const STEP: usize = 1024;

/// The view's CSV export.
#[derive(Default)]
pub(super) struct Export {
    pub(super) path: String,
    pub(super) call: Awaited<Finished<PathBuf>>,
    /// The export being made, while it is.
    pub(super) progress: Option<Progress>,
    /// Where the last export was written.
    pub(super) done: Option<String>,
}

impl AssetsScreen {
    /// The export's path, its button, and its progress or where it was written; on a line of
    /// its own, as its path is long and must not be cut.
    pub(super) fn export_bar_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(t!(lang, "export-to"));
            if self.export.path.is_empty() {
                self.export.path = home_file(EXPORT_FILE);
            }
            ui.add(egui::TextEdit::singleline(&mut self.export.path).desired_width(320.0))
                .labelled_by(label.id);
            if busy_icon_button_ui(
                ui,
                Icon::Export,
                t!(lang, "export-csv"),
                self.export.call.is_waiting(),
            ) {
                self.export_view(out, lang);
            }
            match (&self.export.progress, &self.export.done) {
                (Some(progress), _) if self.export.call.is_waiting() => {
                    exporting_ui(ui, lang, progress);
                }
                (_, Some(path)) => {
                    ui.label(labelled(lang, t!(lang, "exported"), path));
                }
                _ => {}
            }
        });
    }

    /// Sends the view as shown (filtered, sorted, chosen columns) to be written as CSV.
    fn export_view(&mut self, out: &Outbox<'_>, lang: Lang) {
        let progress = Progress::default();
        let produce = view_csv(
            Arc::clone(&self.assets),
            self.grid.view.clone(),
            self.grid.shown.clone(),
            lang,
        );
        self.export.done = None;
        self.export.call.start(out.ask(files::WriteProduced {
            path: PathBuf::from(self.export.path.trim()),
            produce,
            progress: progress.clone(),
        }));
        self.export.progress = Some(progress);
    }
}

/// The view as CSV that spreadsheet software opens with its Chinese intact (UTF-8 with a
/// byte-order mark), made where the core runs it.
fn view_csv(assets: Arc<AssetList>, view: Vec<usize>, shown: Vec<Col>, lang: Lang) -> Producer {
    Producer::new(move |progress| {
        progress.start(Stage::Building, view.len() as u64);
        let header: Vec<&str> = shown.iter().map(|c| c.title().text(lang)).collect();
        let rows = view.iter().enumerate().map_while(|(k, &i)| {
            if k % STEP == 0 && progress.at(k as u64).is_err() {
                return None;
            }
            let a = assets.get(i);
            Some(
                shown
                    .iter()
                    .map(|c| cell_text(lang, a, *c))
                    .collect::<Vec<_>>(),
            )
        });
        let body = csv_with_bom(&header, rows);
        progress.check()?;
        Ok(body)
    })
}

/// The bar of an export under way, and its Cancel.
fn exporting_ui(ui: &mut egui::Ui, lang: Lang, progress: &Progress) {
    let part = progress.snapshot().fraction().unwrap_or(0.0);
    let percent = (part * 100.0).round() as u32;
    ui.add(egui::ProgressBar::new(part).desired_width(200.0).text(tr!(
        lang,
        "exporting",
        percent = percent
    )));
    if progress.is_cancelled() {
        ui.label(tr!(lang, "export-cancelling"));
    } else if ui.button(t!(lang, "cancel")).clicked() {
        progress.cancel();
    }
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(100));
}
