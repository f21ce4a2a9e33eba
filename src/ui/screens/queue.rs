//! Send later: the calls kept while their platform could not be reached, each with its
//! profile and where it stands; sent in order when asked, and every half minute while some
//! wait (each to its own profile, at most once).

use egui::RichText;

use crate::core::Awaited;
use crate::core::queue::{self, QueueState, QueuedEntry};
use crate::ui::Screen;
use crate::ui::kit::empty::empty_state_ui;
use crate::ui::kit::form::{busy_icon_button_ui, name_of_profile};
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::Outbox;
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, noted, t, tr};
use crate::ui::text::labels::{operation_label, queue_state_words};

/// How often waiting calls are tried again, in seconds.
const RETRY_SECS: f64 = 30.0;

#[derive(Default)]
pub struct QueueScreen {
    entries: Vec<QueuedEntry>,
    load: Awaited<Vec<QueuedEntry>>,
    send: Awaited<Vec<QueuedEntry>>,
    /// The half-minute sending, which the status bar does not report unless it fails.
    auto: Awaited<Vec<QueuedEntry>>,
    remove: Awaited<Vec<QueuedEntry>>,
    loaded_once: bool,
    /// When the queue was last sent (the window's clock, seconds).
    last_try: Option<f64>,
}

impl QueueScreen {
    /// The queue as a reply gave it (also one another screen asked for).
    pub fn show(&mut self, entries: Vec<QueuedEntry>) {
        self.entries = entries;
    }

    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        let replies = [
            out.reply(&mut self.load, label!("load-queue")),
            out.reply(&mut self.send, label!("send-now")),
            out.reply(&mut self.auto, label!("load-queue")),
            out.reply(&mut self.remove, label!("remove")),
        ];
        for entries in replies.into_iter().flatten().flatten() {
            self.entries = entries;
        }
    }

    /// Calls waiting to be sent.
    fn waiting(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.state == QueueState::Waiting)
            .count()
    }

    /// Calls not sent yet, those being sent included: the navigation's badge (it does not
    /// blink off while the queue is tried).
    pub fn pending(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e.state, QueueState::Waiting | QueueState::Sending))
            .count()
    }

    /// Loads the queue once, then sends what waits every half minute (the first time half a
    /// minute after the window opens: a call is queued because its platform was just found
    /// away).
    pub fn tick(&mut self, ctx: &egui::Context, out: &Outbox<'_>) {
        let now = ctx.input(|i| i.time);
        if !self.loaded_once {
            self.loaded_once = true;
            self.last_try = Some(now);
            self.load.start(out.ask(queue::Load));
        }
        if self.waiting() == 0 {
            return;
        }
        let due = self.last_try.is_none_or(|at| now - at >= RETRY_SECS);
        if due && !self.send.is_waiting() && !self.auto.is_waiting() {
            self.last_try = Some(now);
            self.auto.start(out.ask(queue::SendWaiting));
        }
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(RETRY_SECS));
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        let busy = self.send.is_waiting() || self.auto.is_waiting();
        if busy_icon_button_ui(ui, Icon::Send, t!(lang, "send-now"), busy) {
            self.last_try = Some(ui.input(|i| i.time));
            self.send.start(out.ask(queue::SendWaiting));
        }
        ui.label(RichText::new(t!(lang, "queue-help")).weak());
        ui.separator();
        if self.entries.is_empty() {
            let next = Some((Icon::Create, t!(lang, "queue-compose")));
            if empty_state_ui(ui, t!(lang, "queue-empty"), next) {
                out.go_to(Screen::Orders);
            }
            return;
        }
        let mut remove = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("queue")
                .striped(true)
                .num_columns(6)
                .show(ui, |ui| {
                    let time = noted(lang, t!(lang, "time"), &dates::zone_label());
                    ui.label(RichText::new(time).strong());
                    for head in [
                        label!("profile"),
                        label!("operation"),
                        label!("write-state"),
                        label!("remove"),
                    ] {
                        ui.label(RichText::new(head.text(lang)).strong());
                    }
                    ui.end_row();
                    let now = crate::core::now_ms();
                    for e in &self.entries {
                        if entry_ui(ui, lang, e, now) {
                            remove = Some(e.id);
                        }
                        ui.end_row();
                    }
                });
        });
        if let Some(id) = remove {
            self.remove.start(out.ask(queue::Remove { id }));
        }
    }
}

/// One entry's row; true when its Remove was clicked.
fn entry_ui(ui: &mut egui::Ui, lang: Lang, e: &QueuedEntry, now: i64) -> bool {
    ui.label(dates::local_time(e.created_at, now));
    ui.label(name_of_profile(lang, &e.profile));
    let op = operation_label(lang, e.operation);
    let what = match &e.channel_order_id {
        Some(id) => tr!(lang, "queued-batch", op = op, n = e.items, id = id.as_str()),
        None => tr!(lang, "queued-items", op = op, n = e.items),
    };
    ui.label(what);
    let state = queue_state_words(lang, e.state);
    let shown = match e.state {
        QueueState::Unknown | QueueState::Refused => {
            ui.colored_label(ui.visuals().warn_fg_color, state)
        }
        _ => ui.label(state),
    };
    // The platform's or the system's words, verbatim, on hover: a whole error in the row
    // would push its Remove out of the window.
    if let Some(detail) = &e.detail {
        shown.on_hover_text(format!("{}\n{detail}", tr!(lang, "verbatim-caption")));
    }
    let removable = e.state != QueueState::Sending;
    ui.add_enabled(removable, egui::Button::new(t!(lang, "remove")))
        .clicked()
}
