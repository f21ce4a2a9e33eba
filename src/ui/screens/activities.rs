//! Activities: claim an activity's products for a participant. The identity field says what it
//! recognises; the answer shows the products received, or why nothing could be claimed, in
//! words beside the platform's code and message.

use std::collections::HashMap;

use egui::RichText;

use crate::core::Awaited;
use crate::core::calls::requests as calls;
use crate::core::catalog::{self, CatalogView};
use crate::core::team::Permission;
use crate::core::wire::activity;
use crate::core::wire::validate::{is_email, is_mobile};
use crate::core::wire::{ActivityResponse, ClaimRequest};
use crate::ui::kit::form::{
    Field, answered_on_ui, field_with_ui, grid_ui, normalize_mobile, submit_button_ui, typed,
};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::permits::permitted_ui;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::prefs::ClaimForm;
use crate::ui::status::Verdict;
use crate::ui::text::dates::local_date;
use crate::ui::text::i18n::{Label, Lang, label, t};
use crate::ui::text::labels::result_words;

/// Activity labels remembered at most.
const SEEN: usize = 10;

#[derive(Default)]
pub struct ActivitiesScreen {
    call: Awaited<ActivityResponse>,
    /// The label of the claim being sent, and of the last one the platform knew.
    asking: String,
    known: Option<String>,
    answer: Option<ActivityResponse>,
    /// The profile the shown answer came from.
    on: String,
    /// The catalog of that profile, read when an answer lists products: it names them.
    catalog: Awaited<std::sync::Arc<CatalogView>>,
    names: HashMap<String, String>,
    /// The catalog was asked for since the answer came.
    named: bool,
}

/// What kind of identity the text looks like, as the platform would read it.
fn identity_kind(identity: &str) -> Option<Label> {
    let id = identity.trim();
    if id.is_empty() {
        None
    } else if is_mobile(id) {
        Some(label!("kind-mobile"))
    } else if is_email(id) {
        Some(label!("kind-email"))
    } else if id.starts_with("EG") {
        Some(label!("kind-enterprise"))
    } else if id.starts_with('1') && id.len() < 11 && id.bytes().all(|b| b.is_ascii_digit()) {
        // Lock numbers do not start with 1: this is a mobile number with digits missing.
        Some(label!("kind-short-mobile"))
    } else if id.bytes().all(|b| b.is_ascii_digit()) {
        Some(label!("kind-lock"))
    } else {
        Some(label!("kind-unknown"))
    }
}

/// An identity of this kind is refused by the platform whatever the activity.
fn unusable_kind(kind: Label) -> bool {
    [label!("kind-unknown"), label!("kind-short-mobile")].contains(&kind)
}

/// A unit's reason in words.
fn unit_reason(code: Option<i32>) -> Label {
    match code {
        Some(14001) => label!("unit14001"),
        Some(14002) => label!("unit14002"),
        Some(14003) => label!("unit14003"),
        Some(14004) => label!("unit14004"),
        Some(14005) => label!("unit14005"),
        _ => label!("result-other"),
    }
}

impl ActivitiesScreen {
    /// Reads the catalog of the answer's profile once an answer lists products, so that they
    /// are shown by the names the branch knows them by.
    fn read_catalog(&mut self, core: &Caller<'_>) {
        let listed = self
            .answer
            .as_ref()
            .and_then(|a| a.detail.as_ref())
            .is_some_and(|d| !d.products.is_empty());
        if listed && !self.named {
            self.named = true;
            let profile = self.on.clone();
            self.catalog.start(core.ask(catalog::Load { profile }));
        }
    }

    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        let claimed = out.reply_judged(&mut self.call, label!("claim"), Verdict::of_claim);
        if let Some(Ok(answer)) = claimed {
            // 3001: no activity with this label. Any other answer names a real one.
            if answer.result_code != "3001" {
                self.known = Some(std::mem::take(&mut self.asking));
            }
            self.answer = Some(answer);
            self.named = false;
            // The names of another answer's profile are not this one's.
            self.names.clear();
        }
        if let Some(Ok(view)) = out.reply(&mut self.catalog, label!("load-catalog")) {
            self.names = view
                .products
                .iter()
                .filter_map(|k| {
                    let name = k.item.product_name.clone()?;
                    Some((k.key.clone(), name))
                })
                .collect();
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang, form: &mut ClaimForm) {
        if let Some(label) = self.known.take() {
            form.seen.retain(|l| *l != label);
            form.seen.insert(0, label);
            form.seen.truncate(SEEN);
        }
        self.read_catalog(core);
        ui.label(t!(lang, "claim-help"));
        ui.add_space(6.0);
        claim_form_ui(ui, lang, form, core.profile.is_sandbox());
        ui.add_space(6.0);
        let complete = [&form.identity, &form.label, &form.source, &form.branch]
            .iter()
            .all(|v| !v.trim().is_empty());
        // An identity the field already says the platform cannot read is not sent.
        let unusable = identity_kind(&form.identity).is_some_and(unusable_kind);
        let complete = complete && !unusable;
        let why = core.lacking(lang, Permission::Claim);
        ui.add_enabled_ui(complete, |ui| {
            let busy = self.call.is_waiting();
            if permitted_ui(ui, why.as_deref(), |ui| {
                submit_button_ui(ui, Icon::Claim, t!(lang, "claim"), busy)
            }) {
                self.answer = None;
                self.on = core.profile.name.clone();
                self.asking = form.label.trim().to_owned();
                let request = ClaimRequest {
                    identity: typed(&form.identity),
                    activity_label: typed(&form.label),
                    source: typed(&form.source),
                    branch: typed(&form.branch),
                    ext_params: None,
                };
                self.call.start(core.ask(calls::Claim {
                    profile: core.name(),
                    request,
                }));
            }
        });
        if unusable {
            ui.label(RichText::new(t!(lang, "claim-identity-unusable")).weak());
        } else if !complete {
            ui.label(RichText::new(t!(lang, "all-fields-required")).weak());
        }
        if let Some(answer) = &self.answer {
            ui.separator();
            answered_on_ui(ui, lang, &self.on, core.profile);
            answer_ui(ui, lang, answer, &self.names);
        }
    }
}

/// The claim's four fields, the identity with what it looks like, the label with those seen
/// (and on the Sandbox, its demo activities).
fn claim_form_ui(ui: &mut egui::Ui, lang: Lang, form: &mut ClaimForm, sandbox: bool) {
    grid_ui(ui, "claim_form", |ui| {
        let field = |label: Label, path| Field {
            label: label.text(lang),
            path,
            required: true,
        };
        field_with_ui(
            ui,
            lang,
            &field(label!("identity"), "identity"),
            &[],
            |ui| identity_ui(ui, lang, &mut form.identity),
        );
        let seen = &form.seen;
        field_with_ui(
            ui,
            lang,
            &field(label!("activity-label"), "activityLabel"),
            &[],
            |ui| {
                ui.horizontal(|ui| {
                    let r =
                        ui.add(egui::TextEdit::singleline(&mut form.label).desired_width(220.0));
                    if !seen.is_empty() {
                        ui.menu_button(t!(lang, "recent"), |ui| {
                            for label in seen {
                                if ui.button(label).clicked() {
                                    form.label.clone_from(label);
                                    ui.close();
                                }
                            }
                        });
                    }
                    if sandbox {
                        ui.menu_button(t!(lang, "sandbox-activities"), |ui| {
                            for (label, name) in crate::core::sandbox::demo_activities() {
                                if ui.button(format!("{label} · {name}")).clicked() {
                                    form.label.clone_from(label);
                                    ui.close();
                                }
                            }
                        });
                    }
                    r
                })
                .inner
            },
        );
        for (label, path, value, hint) in [
            (
                label!("source"),
                "source",
                &mut form.source,
                label!("source-hint"),
            ),
            (
                label!("branch"),
                "branch",
                &mut form.branch,
                label!("branch-hint"),
            ),
        ] {
            field_with_ui(ui, lang, &field(label, path), &[], |ui| {
                let edit = egui::TextEdit::singleline(value).hint_text(hint.text(lang));
                ui.add(edit.desired_width(220.0))
            });
        }
    });
}

/// The identity's field, and beside it what the identity looks like (a mobile number, an
/// email…), in the error colour when the claim cannot take it.
fn identity_ui(ui: &mut egui::Ui, lang: Lang, identity: &mut String) -> egui::Response {
    ui.horizontal(|ui| {
        let r = ui.add(
            egui::TextEdit::singleline(identity)
                .hint_text(t!(lang, "identity-hint"))
                .desired_width(320.0),
        );
        if r.changed() {
            normalize_mobile(identity);
        }
        if let Some(kind) = identity_kind(identity) {
            let text = RichText::new(kind.text(lang));
            ui.label(if unusable_kind(kind) {
                text.color(ui.visuals().error_fg_color)
            } else {
                text.weak()
            });
        }
        r
    })
    .inner
}

fn answer_ui(ui: &mut egui::Ui, lang: Lang, a: &ActivityResponse, names: &HashMap<String, String>) {
    let words = (result_words(&a.result_code)).text(lang);
    let text = RichText::new(words).strong();
    ui.label(if a.result_code == activity::CLAIMED {
        text
    } else {
        text.color(ui.visuals().error_fg_color)
    });
    if a.result_code != activity::CLAIMED {
        // The platform's words, verbatim and marked so, beside ours; a success needs none.
        ui.label(RichText::new(t!(lang, "verbatim-caption")).weak());
        ui.label(RichText::new(format!("{}: {}", a.result_code, a.result_message)).monospace());
    }
    if let Some(detail) = &a.detail {
        ui.add_space(4.0);
        egui::Grid::new("claimed")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                for head in [
                    label!("product"),
                    label!("valid-from"),
                    label!("valid-until"),
                    label!("activation"),
                ] {
                    ui.label(RichText::new(head.text(lang)).strong());
                }
                ui.end_row();
                for p in &detail.products {
                    product_ui(ui, names.get(&p.product_uri), &p.product_uri);
                    for ms in [&p.limit_start_date, &p.limit_end_date] {
                        ui.label(ms.parse::<i64>().map_or_else(|_| ms.clone(), local_date));
                    }
                    ui.label(
                        (if p.activate_type == "1" {
                            label!("activate-separately")
                        } else {
                            label!("active-now")
                        })
                        .text(lang),
                    );
                    ui.end_row();
                }
            });
    }
    if let Some(list) = &a.activity_dto_list {
        ui.add_space(4.0);
        egui::Grid::new("units")
            .striped(true)
            .num_columns(3)
            .show(ui, |ui| {
                for head in [label!("unit"), label!("reason"), label!("platform-says")] {
                    ui.label(RichText::new(head.text(lang)).strong());
                }
                ui.end_row();
                for activity in list {
                    for unit in &activity.engine_sub_activity_dtos {
                        ui.label(format!("{} / {}", activity.name, unit.name));
                        ui.label(unit_reason(unit.error_code).text(lang));
                        ui.label(
                            RichText::new(format!(
                                "{}: {}",
                                unit.error_code.map_or_else(String::new, |c| c.to_string()),
                                unit.error_message.as_deref().unwrap_or("")
                            ))
                            .weak(),
                        );
                        ui.end_row();
                    }
                }
            });
    }
}

/// A claimed product: the catalog's name with its URI after it, or the URI alone when the
/// catalog does not know it.
fn product_ui(ui: &mut egui::Ui, name: Option<&String>, uri: &str) {
    ui.horizontal(|ui| {
        if let Some(name) = name {
            ui.label(name);
        }
        ui.label(RichText::new(uri).monospace().weak());
    });
}
