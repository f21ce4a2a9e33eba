//! Drafts and colleagues on a team profile: *Hand over…* sends the open draft to a colleague
//! or to the approvers (its text as saved), and *Handed to me* lists the drafts others handed
//! over; opening one makes it a draft of one's own, which then leaves the server.

use super::ComposerScreen;
use crate::core::Awaited;
use crate::core::team::{self, APPROVERS, Handed};
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, label, t, tr};

#[derive(Default)]
pub(super) struct HandOver {
    /// The profile the list was read from.
    listed_for: Option<String>,
    handed: Vec<Handed>,
    list: Awaited<Vec<Handed>>,
    receive: Awaited<i64>,
    send: Awaited<Handed>,
    dialog: bool,
    to: String,
    note: String,
}

impl HandOver {
    fn refresh(&mut self, caller: &Caller<'_>) {
        self.listed_for = Some(caller.profile.name.clone());
        self.list.start(caller.ask(team::ListHanded {
            profile: caller.profile.name.clone(),
        }));
    }
}

impl ComposerScreen {
    pub(super) fn poll_handover(&mut self, out: &Outbox<'_>) {
        let h = &mut self.handover;
        if let Some(Ok(found)) = out.reply(&mut h.list, label!("handed-drafts")) {
            h.handed = found;
        }
        if let Some(Ok(_)) = out.reply(&mut h.send, label!("hand-over")) {
            h.dialog = false;
            h.listed_for = None;
        }
        if let Some(Ok(id)) = out.reply(&mut h.receive, label!("open-handed-draft")) {
            // Opened as one's own: the draft list and the open draft follow.
            h.listed_for = None;
            self.open_saved(out, id);
        }
    }

    /// The bar's hand-over buttons, on a team profile whose person is signed in.
    pub(super) fn handover_bar_ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang) {
        let Some(me) = caller.permits.me() else {
            return;
        };
        let h = &mut self.handover;
        if h.listed_for.as_deref() != Some(&caller.profile.name) && !h.list.is_waiting() {
            h.refresh(caller);
        }
        let received: Vec<&Handed> = h
            .handed
            .iter()
            .filter(|d| d.owner != me.person.name)
            .collect();
        let title = tr!(lang, "handed-to-me", n = received.len());
        let mut open = None;
        ui.menu_button(title, |ui| {
            if received.is_empty() {
                ui.label(t!(lang, "handed-none"));
            }
            for d in &received {
                let text = match d.note.is_empty() {
                    true => format!("{} · {}", d.name, d.owner),
                    false => format!("{} · {} · {}", d.name, d.owner, d.note),
                };
                if ui.button(text).clicked() {
                    open = Some(d.id);
                    ui.close();
                }
            }
        });
        if let Some(id) = open {
            h.receive.start(caller.ask(team::Receive {
                profile: caller.profile.name.clone(),
                id,
            }));
        }
        let current = self.draft.as_ref().and_then(|d| d.id);
        if ui
            .add_enabled(current.is_some(), egui::Button::new(t!(lang, "hand-over")))
            .clicked()
        {
            h.dialog = true;
        }
    }

    /// The hand-over dialog: to whom, and a note.
    pub(super) fn handover_dialog_ui(
        &mut self,
        ctx: &egui::Context,
        caller: &Caller<'_>,
        lang: Lang,
    ) {
        let Some(id) = self.draft.as_ref().and_then(|d| d.id) else {
            return;
        };
        let h = &mut self.handover;
        if !h.dialog {
            return;
        }
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("hand_over_draft")).show(ctx, |ui| {
            ui.heading(t!(lang, "hand-over-title"));
            egui::Grid::new("hand_over_form")
                .num_columns(2)
                .show(ui, |ui| {
                    let label = ui.label(t!(lang, "hand-over-to"));
                    ui.add(egui::TextEdit::singleline(&mut h.to).hint_text(APPROVERS))
                        .labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label(t!(lang, "hand-over-note"));
                    ui.add(egui::TextEdit::singleline(&mut h.note))
                        .labelled_by(label.id);
                    ui.end_row();
                });
            ui.label(egui::RichText::new(t!(lang, "hand-over-help")).weak());
            ui.horizontal(|ui| {
                let ready = !h.to.trim().is_empty() && !h.send.is_waiting();
                if ui
                    .add_enabled(ready, egui::Button::new(t!(lang, "hand-over-send")))
                    .clicked()
                {
                    h.send.start(caller.ask(team::HandOver {
                        profile: caller.profile.name.clone(),
                        draft: id,
                        to: h.to.trim().to_owned(),
                        note: h.note.trim().to_owned(),
                    }));
                }
                if ui.button(t!(lang, "cancel")).clicked() {
                    close = true;
                }
            });
        });
        if close || modal.should_close() {
            h.dialog = false;
        }
    }
}
