//! *Learn from the platform's listings*, on the Catalog screen: every enterprise of the
//! directory listed and the products its assets hold kept in the catalog (the team's, on a
//! team profile), with what it read and learned said beside the button.

use crate::core::Awaited;
use crate::core::catalog::listings::{FromListings, LearnFromListings};
use crate::core::team::Permission;
use crate::ui::kit::permits::permitted_ui;
use crate::ui::outbox::Caller;
use crate::ui::text::i18n::{Lang, label, t, tr};

#[derive(Default)]
pub(crate) struct FromListingsUi {
    call: Awaited<FromListings>,
    said: Option<FromListings>,
}

impl FromListingsUi {
    /// The button and what the last learning said: true when the catalog learned something
    /// (to be read again).
    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang) -> bool {
        let out = caller.out;
        let mut learned = false;
        if let Some(Ok(said)) = out.reply(&mut self.call, label!("learn-from-listings")) {
            learned = said.new > 0;
            self.said = Some(said);
        }
        // A team's catalog is written with the permission a purchase needs.
        let lacking = caller.lacking(lang, Permission::Purchase);
        ui.horizontal_wrapped(|ui| {
            let busy = self.call.is_waiting();
            let clicked = permitted_ui(ui, lacking.as_deref(), |ui| {
                let button =
                    ui.add_enabled(!busy, egui::Button::new(t!(lang, "learn-from-listings")));
                button
                    .on_hover_text(t!(lang, "learn-from-listings-help"))
                    .clicked()
            });
            if clicked {
                self.said = None;
                self.call.start(out.ask(LearnFromListings {
                    profile: caller.profile.name.clone(),
                }));
            }
            if busy {
                ui.spinner();
            }
            if let Some(said) = &self.said {
                ui.label(said_words(lang, said));
            }
        });
        learned
    }
}

fn said_words(lang: Lang, s: &FromListings) -> String {
    let read = match s.products {
        0 => tr!(lang, "listings-named-none", read = s.read),
        _ => tr!(
            lang,
            "listings-taught",
            read = s.read,
            products = s.products,
            new = s.new
        ),
    };
    match s.unread {
        0 => read,
        unread => format!("{read} {}", tr!(lang, "listings-unread", n = unread)),
    }
}
