//! Sending the batch: the submit button with the problems still to fix, the confirmation that
//! says what the batch does, and the platform's result.

use egui::RichText;

use super::ComposerScreen;
use super::batch::{Summary, summarize};
use super::node::NodeId;
use super::preview::Preview;
use super::sent::{SentTo, UnknownSent, UnsentBatch};
use crate::core::calls::requests as calls;
use crate::core::snapshot::Snapshot;
use crate::core::wire::validate::{Problem, ProblemKind, UnknownKey};
use crate::core::wire::{BatchOrderRequest, BatchOrderResult};
use crate::core::{ApiError, Awaited, CoreError, Profile, WriteState};
use crate::ui::kit::button::{danger_button, primary_button};
use crate::ui::kit::form::production_guard_ui;
use crate::ui::kit::form::{
    dialog_body_ui, keyed_button_ui, name_of_profile, profile_name, warn_if_production,
};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::keys;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, label, t, tr};
use crate::ui::text::labels::{
    field_label, license_type_name, order_type_short, write_state_words,
};
use crate::ui::text::problems::{path_words, problem_words};

/// Problems listed at most; the count says how many there are in all.
const MAX_LISTED: usize = 500;

#[derive(Default)]
pub(super) struct Submit {
    call: Awaited<Vec<BatchOrderResult>>,
    /// Why the person signed in may not send this batch (a team server's role), this frame.
    pub(super) refused: Option<String>,
    /// The batch being sent, with the profile it goes to.
    submitting: Option<Sending>,
    pub(super) confirm: bool,
    /// The production guard: the profile's name as the user typed it.
    guard: String,
    /// What the batch's delete orders would remove, asked when the confirmation opens.
    preview: Preview,
    /// The platform's answer, shown until the batch changes.
    submitted: Option<Submitted>,
    /// A batch sent whose answer never came, until the batch changes or it is settled.
    pub(super) unknown: Option<UnknownSent>,
    /// A batch that did not leave (its platform could not be reached), to send later.
    pub(super) unsent: Option<UnsentBatch>,
    /// A batch a team server keeps for a second person: the profile and the request's id.
    held: Option<(String, String)>,
}

struct Sending {
    profile: String,
    /// Whether the profile is declared to recognise a repeated channelOrderId.
    recognised: bool,
    batch: BatchOrderRequest,
}

impl Sending {
    fn channel_order_id(&self) -> String {
        self.batch.channel_order_id.clone().unwrap_or_default()
    }
}

struct Submitted {
    /// The profile that answered: the result is shown beside it only.
    profile: String,
    results: Vec<BatchOrderResult>,
    repeat: bool,
    /// Whether that profile's platform is declared to recognise a repeat.
    recognised: bool,
}

impl Submit {
    /// The batch changed or another opened: the result shown is not its own.
    pub fn forget(&mut self) {
        self.submitted = None;
        self.unknown = None;
        self.unsent = None;
        self.held = None;
    }
}

impl ComposerScreen {
    /// Takes the platform's answer to the batch sent, and the delete preview's.
    pub(super) fn poll_submit(&mut self, out: &Outbox<'_>) {
        self.submit.preview.poll(out);
        let Some(answer) = out.reply(&mut self.submit.call, label!("submit-batch")) else {
            return;
        };
        let (Some(sending), Some(draft)) = (self.submit.submitting.take(), &mut self.draft) else {
            return;
        };
        let id = sending.channel_order_id();
        match answer {
            Ok(results) => {
                let repeat = draft.hints.sent_to(&sending.profile, &id).is_some();
                draft.hints.record(&sending.profile, &id, WriteState::Done);
                self.drafts.changed();
                self.submit.submitted = Some(Submitted {
                    recognised: sending.recognised,
                    profile: sending.profile,
                    results,
                    repeat,
                });
            }
            Err(CoreError::Api(ApiError::OutcomeUnknown {
                call_id, detail, ..
            })) => {
                draft
                    .hints
                    .record(&sending.profile, &id, WriteState::Unknown);
                self.drafts.changed();
                self.submit.unknown = Some(UnknownSent {
                    profile: sending.profile,
                    call_id,
                    channel_order_id: id,
                    batch: sending.batch,
                    detail,
                    check: Awaited::default(),
                    evidence: None,
                    resolve: Awaited::default(),
                    settling: false,
                    settled: None,
                });
            }
            Err(CoreError::Api(ApiError::Held { request_id, .. })) => {
                let request = Some(request_id.clone());
                let state = WriteState::Held;
                draft.hints.record_as(&sending.profile, &id, state, request);
                self.drafts.changed();
                self.submit.held = Some((sending.profile, request_id));
            }
            Err(CoreError::Api(e @ ApiError::NotSent(_))) => {
                self.submit.unsent = Some(UnsentBatch {
                    profile: sending.profile,
                    batch: sending.batch,
                    queue: Awaited::default(),
                    kept: false,
                    by_team: e.sent_nothing_said_by_team(),
                });
            }
            _ => {}
        }
    }

    /// The submit button, and how many problems stand before it.
    fn submit_bar_ui(&mut self, ui: &mut egui::Ui, lang: Lang, profile: &Profile) {
        let blocking = self
            .check
            .problems
            .iter()
            .filter(|p| !sendable_anyway(p, profile))
            .count();
        ui.horizontal(|ui| {
            let ready = blocking == 0;
            let busy = self.submit.call.is_waiting();
            let refused = self.submit.refused.as_deref();
            ui.add_enabled_ui(ready, |ui| {
                let button = |ui: &mut egui::Ui| {
                    keyed_button_ui(
                        ui,
                        Icon::Send,
                        t!(lang, "submit-batch"),
                        busy,
                        true,
                        keys::SUBMIT,
                    )
                };
                if crate::ui::kit::permits::permitted_ui(ui, refused, button) {
                    self.submit.confirm = true;
                }
            });
            if self.check.problems.is_empty() {
                ui.label(t!(lang, "no-problems"));
            } else if ready {
                let n = self.check.problems.len();
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    tr!(lang, "unknown-values-count", n = n),
                );
            } else {
                // Things still to fill in, not errors: a new draft starts with some.
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    tr!(lang, "problems-count", n = blocking),
                );
            }
        });
    }

    pub(super) fn bottom_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &Profile,
    ) {
        self.submit_bar_ui(ui, lang, profile);
        // What is below the bar scrolls, so that none of it is cut off when the panel is short
        // (a short window, or a toast under the screen). Another draft opens at its top.
        let draft = self.draft.as_ref().and_then(|d| d.id);
        egui::ScrollArea::vertical()
            .id_salt(("composer_bottom", draft))
            .auto_shrink([false, true])
            .show(ui, |ui| self.under_bar_ui(ui, out, lang, profile));
    }

    /// Under the submit bar: the answer, or a batch sent with no answer, or the problems.
    fn under_bar_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, profile: &Profile) {
        if self
            .submit
            .submitted
            .as_ref()
            .is_some_and(|s| s.profile != profile.name)
        {
            // Another profile is active: that answer is not this profile's.
            self.submit.submitted = None;
        }
        if let Some(s) = &self.submit.submitted {
            submitted_ui(ui, lang, s);
            return;
        }
        if let Some((on, id)) = &self.submit.held {
            // News, not a warning: the request waits for its approver.
            ui.label(tr!(
                lang,
                "batch-held",
                id = id.as_str(),
                profile = on.as_str()
            ));
        }
        if self.unknown_ui(ui, out, lang, profile) || self.unsent_ui(ui, out, lang, profile) {
            return;
        }
        let mut clicked = None;
        for p in self.check.problems.iter().take(MAX_LISTED) {
            let words =
                unknown_value_words(lang, p, profile).unwrap_or_else(|| problem_words(lang, p));
            let text = RichText::new(words).color(ui.visuals().warn_fg_color);
            let place = self.check.place_words(lang, p);
            // Where it is in the file first; a long problem wraps onto the next line.
            ui.horizontal_wrapped(|ui| {
                if let Some(place) = place {
                    ui.label(RichText::new(place).weak());
                }
                // The interface's path on hover, to find the value in a file.
                let path = tr!(lang, "problem-path-hover", path = p.path.to_string());
                if ui
                    .selectable_label(false, text)
                    .on_hover_text(path)
                    .clicked()
                {
                    clicked = Some(p.path.clone());
                }
            });
        }
        if self.check.problems.len() > MAX_LISTED {
            ui.label(tr!(
                lang,
                "more-problems",
                n = self.check.problems.len().saturating_sub(MAX_LISTED)
            ));
        }
        unknown_keys_ui(ui, lang, &self.check.unknown_keys);
        if let Some(path) = clicked {
            let (node, rest) = NodeId::of_path(&path);
            self.tree.reveal(&node);
            self.tree.select(node);
            self.check.focus_field = rest.first().map(|seg| seg.name().to_owned());
        }
    }
}

/// Keys of no field of the interface, as warnings: they do not block a send.
fn unknown_keys_ui(ui: &mut egui::Ui, lang: Lang, keys: &[UnknownKey]) {
    for u in keys.iter().take(MAX_LISTED) {
        let at = if u.at.0.is_empty() {
            u.key.clone()
        } else {
            format!("{} › {}", path_words(lang, &u.at.0), u.key)
        };
        let words = tr!(lang, "unknown-key", at = at);
        ui.label(RichText::new(words).color(ui.visuals().warn_fg_color));
    }
    if keys.len() > MAX_LISTED {
        let n = keys.len().saturating_sub(MAX_LISTED);
        ui.label(tr!(lang, "more-unknown-keys", n = n));
    }
}

/// A value of `orderType` or `licenseType` the interface does not list: a remote platform may
/// know it (public client code sends `renew_license`), so there it can be sent after a
/// confirmation that names it; the Sandbox implements only the listed values.
fn unknown_choice(p: &Problem) -> Option<&str> {
    let field = p.path.0.last()?.name();
    match &p.kind {
        ProblemKind::UnknownValue { value } if matches!(field, "orderType" | "licenseType") => {
            Some(value)
        }
        _ => None,
    }
}

fn sendable_anyway(p: &Problem, profile: &Profile) -> bool {
    !profile.is_sandbox() && unknown_choice(p).is_some()
}

/// An unknown order or license type in the words of where it would go.
fn unknown_value_words(lang: Lang, p: &Problem, profile: &Profile) -> Option<String> {
    let value = unknown_choice(p)?;
    let key = if profile.is_sandbox() {
        tr!(lang, "sandbox-unknown-value", value = value)
    } else {
        tr!(lang, "remote-unknown-value", value = value)
    };
    Some(tr!(
        lang,
        "problem-at",
        path = path_words(lang, &p.path.0),
        problem = key
    ))
}

fn submitted_ui(ui: &mut egui::Ui, lang: Lang, s: &Submitted) {
    let n = s.results.len();
    // The Sandbox by its name in the UI's language, as the confirmation named it.
    let profile = name_of_profile(lang, &s.profile);
    let text = match (s.repeat, s.recognised) {
        (true, true) => tr!(lang, "submitted-again", n = n, profile = profile),
        (true, false) => tr!(
            lang,
            "submitted-again-unrecognised",
            n = n,
            profile = profile
        ),
        (false, _) => tr!(lang, "submitted-new", n = n, profile = profile),
    };
    ui.label(RichText::new(text).strong());
    egui::ScrollArea::vertical()
        .id_salt("results")
        .show(ui, |ui| {
            egui::Grid::new("submit_results")
                .striped(true)
                .spacing([24.0, 4.0])
                .num_columns(3)
                .show(ui, |ui| {
                    for head in [
                        label!("sequence"),
                        label!("license-order-id"),
                        label!("customer-id"),
                    ] {
                        ui.label(RichText::new(head.text(lang)).strong());
                    }
                    ui.end_row();
                    for r in &s.results {
                        ui.label(r.sequence.to_string());
                        ui.label(RichText::new(&r.license_order_id).monospace());
                        ui.label(RichText::new(&r.customer_id).monospace());
                        ui.end_row();
                    }
                });
        });
}

/// The values the batch names that are no choice of theirs, with where each is.
fn unknown_choices(lang: Lang, problems: &[Problem]) -> Vec<String> {
    problems
        .iter()
        .filter_map(|p| {
            let value = unknown_choice(p)?;
            Some(format!("{}: {value}", path_words(lang, &p.path.0)))
        })
        .collect()
}

/// Send and Cancel: whether each was clicked. Send is the dialog's one main action, enabled
/// once the checks above passed; a batch that deletes says by its look that it cannot be
/// undone.
fn send_row_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    deletes: bool,
    held: bool,
    passed: bool,
) -> (bool, bool) {
    ui.horizontal(|ui| {
        // A held batch changes nothing yet: its button says where it goes.
        let button = if held {
            primary_button(ui, Icon::Send, t!(lang, "send-for-approval"))
        } else if deletes {
            danger_button(ui, Icon::Send, t!(lang, "send"))
        } else {
            primary_button(ui, Icon::Send, t!(lang, "send"))
        };
        let send = ui.add_enabled(passed, button).clicked();
        let close = ui.button(t!(lang, "cancel")).clicked();
        (send, close)
    })
    .inner
}

impl ComposerScreen {
    pub(super) fn confirm_submit_ui(
        &mut self,
        ctx: &egui::Context,
        caller: &Caller<'_>,
        lang: Lang,
    ) {
        if !self.submit.confirm {
            return;
        }
        let (out, profile) = (caller.out, caller.profile);
        let Some(draft) = &mut self.draft else {
            return;
        };
        let summary = summarize(&draft.batch);
        let held_by = held_by(caller, &summary);
        let unknown = unknown_choices(lang, &self.check.problems);
        let channel_order_id = draft
            .batch
            .head()
            .channel_order_id
            .clone()
            .unwrap_or_default();
        let (before, elsewhere) = sent_before(&draft.hints, &profile.name, &channel_order_id);
        // Sent there before, to a platform not declared to recognise it: a risk worth a guard.
        // Held there is not: the team server answers the request it already keeps.
        let risky = before
            .as_ref()
            .is_some_and(|s| s.state != WriteState::Held && !profile.recognises_repeats());
        let deletes = !summary.deletions.is_empty();
        if deletes {
            self.submit.preview.ask(out, &profile.name, &draft.batch);
        }
        let mut send = false;
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("confirm_submit")).show(ctx, |ui| {
            ui.set_width(if deletes { 760.0 } else { 520.0 });
            dialog_body_ui(ui, 240.0, |ui| {
                let said = Said {
                    profile,
                    summary: &summary,
                    orders: draft.batch.len(),
                    repeat: before.as_ref(),
                    held_by,
                    elsewhere: &elsewhere,
                    unknown: &unknown,
                };
                summary_ui(ui, lang, &said);
                ui.add_space(6.0);
                orders_table_ui(ui, lang, &draft.batch);
            });
            // What the deletes remove must be seen (or known to be unknown) before sending.
            let previewed = !deletes || self.submit.preview.ui(ui, lang);
            // A delete on production waits for the profile's name.
            let guard = &mut self.submit.guard;
            let passed =
                production_guard_ui(ui, lang, profile, deletes || risky, guard) && previewed;
            ui.add_space(8.0);
            (send, close) = send_row_ui(ui, lang, deletes, held_by.is_some(), passed);
        });
        if send {
            let batch = draft.batch.to_batch(None);
            self.send_batch(out, profile, batch);
        }
        if send || close || modal.should_close() {
            self.submit.confirm = false;
            self.submit.guard.clear();
            self.submit.preview.forget();
        }
    }
}

impl ComposerScreen {
    /// To the profile the confirmation named, in the frame it was confirmed.
    fn send_batch(&mut self, out: &Outbox<'_>, profile: &Profile, batch: BatchOrderRequest) {
        self.submit.submitting = Some(Sending {
            profile: profile.name.clone(),
            recognised: profile.recognises_repeats(),
            batch: batch.clone(),
        });
        self.submit.forget();
        self.submit.call.start(out.ask(calls::BatchOrder {
            profile: profile.name.clone(),
            batch,
        }));
    }
}

/// How the draft went to `profile` with this channelOrderId, and the other profiles it went to.
fn sent_before(
    hints: &super::Hints,
    profile: &str,
    channel_order_id: &str,
) -> (Option<SentTo>, Vec<String>) {
    let before = hints.sent_to(profile, channel_order_id).cloned();
    let elsewhere = hints
        .sent_elsewhere(profile, channel_order_id)
        .into_iter()
        .map(str::to_owned)
        .collect();
    (before, elsewhere)
}

/// What the confirmation says of the batch.
struct Said<'a> {
    profile: &'a Profile,
    summary: &'a Summary,
    orders: usize,
    /// How it went, when this draft was sent with its channelOrderId to this profile.
    repeat: Option<&'a SentTo>,
    /// Other profiles it was sent to with this channelOrderId ("" for one not recorded).
    elsewhere: &'a [String],
    /// Where the batch has values the console does not know, and what they are.
    unknown: &'a [String],
    /// Who may approve it, when the profile's team server will hold it.
    held_by: Option<&'a [String]>,
}

/// Who may approve the batch when the profile's team server will hold it for a second person
/// (by the rule and thresholds it told at sign-in); None when it will be sent.
fn held_by<'a>(caller: &Caller<'a>, summary: &Summary) -> Option<&'a [String]> {
    let four_eyes = caller.permits.me()?.four_eyes.as_ref()?;
    let deletes = summary.delete_asset + summary.delete_product > 0;
    let assets = summary.asset_numbers as u64;
    four_eyes
        .thresholds
        .held(deletes, assets)
        .then_some(four_eyes.approvers.as_slice())
}

/// Where the batch goes, what it holds, what it deletes, and whether it is a repeat.
fn summary_ui(ui: &mut egui::Ui, lang: Lang, said: &Said<'_>) {
    let question = tr!(
        lang,
        "confirm-submit",
        profile = profile_name(lang, said.profile)
    );
    ui.label(warn_if_production(ui, question, said.profile));
    ui.label(tr!(
        lang,
        "summary-orders",
        n = said.orders,
        new = said.summary.new_buy,
        assets = said.summary.delete_asset,
        products = said.summary.delete_product
    ));
    ui.label(tr!(
        lang,
        "summary-counts",
        assets = said.summary.asset_numbers,
        packages = said.summary.packages,
        products = said.summary.products
    ));
    for d in said.summary.deletions.iter().take(20) {
        let text = if d.products.is_empty() {
            tr!(
                lang,
                "removes-assets",
                seq = d.sequence,
                assets = list_words(&d.assets)
            )
        } else {
            tr!(
                lang,
                "removes-products",
                seq = d.sequence,
                products = list_words(&d.products),
                np = d.products.len(),
                assets = list_words(&d.assets),
                na = d.assets.len()
            )
        };
        ui.colored_label(ui.visuals().warn_fg_color, text);
    }
    if !said.summary.deletions.is_empty() {
        ui.label(t!(lang, "deletes-final"));
    }
    repeat_ui(ui, lang, said);
    if let Some(approvers) = said.held_by {
        held_beforehand_ui(ui, lang, said.profile, approvers);
    }
    if !said.unknown.is_empty() {
        let warn = ui.visuals().warn_fg_color;
        ui.colored_label(warn, tr!(lang, "confirm-unknown-values"));
        for line in said.unknown {
            ui.colored_label(warn, format!("  {line}"));
        }
    }
}

/// That the batch will wait for a second person, and who may approve it.
fn held_beforehand_ui(ui: &mut egui::Ui, lang: Lang, profile: &Profile, approvers: &[String]) {
    let profile = profile_name(lang, profile);
    ui.label(tr!(lang, "held-beforehand", profile = profile));
    let words = match approvers {
        [] => tr!(lang, "held-no-approver"),
        names => tr!(lang, "held-approvers", names = names.join(", ")),
    };
    ui.label(words);
}

/// Whether the batch was sent before, where, and what sending it again risks on this profile.
fn repeat_ui(ui: &mut egui::Ui, lang: Lang, said: &Said<'_>) {
    let profile = profile_name(lang, said.profile);
    if let Some(sent) = said.repeat
        && let (WriteState::Held, Some(request)) = (sent.state, &sent.request)
    {
        let id = sent.channel_order_id.as_str();
        let words = tr!(
            lang,
            "already-waiting",
            profile = profile,
            request = request.as_str(),
            id = id
        );
        ui.label(words);
    } else if let Some(sent) = said.repeat {
        let (id, state) = (
            sent.channel_order_id.as_str(),
            write_state_words(lang, sent.state),
        );
        if said.profile.recognises_repeats() {
            ui.label(tr!(
                lang,
                "repeat-warning",
                id = id,
                profile = profile,
                state = state
            ));
        } else {
            let words = tr!(
                lang,
                "repeat-risk",
                id = id,
                profile = profile,
                state = state
            );
            ui.colored_label(ui.visuals().error_fg_color, words);
        }
    } else if !said.elsewhere.is_empty() {
        let names: Vec<String> = said
            .elsewhere
            .iter()
            .map(|p| match p.as_str() {
                "" => t!(lang, "profile-not-recorded").to_owned(),
                p => p.to_owned(),
            })
            .collect();
        ui.label(tr!(
            lang,
            "sent-elsewhere",
            profiles = names.join(", "),
            profile = profile
        ));
    }
}

/// Each order in one line: what it does, for whom, on which assets.
fn orders_table_ui(ui: &mut egui::Ui, lang: Lang, batch: &Snapshot) {
    const SHOWN: usize = 100;
    let heads = [
        "sequence",
        "orderType",
        "licenseType",
        "customerName",
        "assetNos",
    ];
    egui::Grid::new("confirm_orders")
        .striped(true)
        .num_columns(heads.len())
        .show(ui, |ui| {
            for head in heads {
                ui.label(RichText::new(field_label(lang, head)).strong());
            }
            ui.end_row();
            for o in batch.orders().take(SHOWN) {
                let numbers: Vec<String> =
                    o.assets.iter().flat_map(|a| a.asset_nos.clone()).collect();
                let customer = o
                    .customer_name
                    .as_deref()
                    .or(o.customer_id.as_deref())
                    .or(o.crm_customer_id.as_deref())
                    .unwrap_or("—");
                ui.label(o.sequence.map_or_else(|| "—".to_owned(), |n| n.to_string()));
                ui.label(
                    o.order_type
                        .map_or_else(String::new, |v| order_type_short(lang, v)),
                );
                ui.label(
                    o.license_type
                        .map_or_else(String::new, |v| license_type_name(lang, v)),
                );
                ui.label(customer);
                ui.label(RichText::new(list_words(&numbers)).monospace());
                ui.end_row();
            }
        });
    let more = batch.len().saturating_sub(SHOWN);
    if more > 0 {
        ui.label(tr!(lang, "more-orders", n = more));
    }
}

/// The first few items, then how many more.
fn list_words(items: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut text = items
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" (+{})", items.len() - SHOWN));
    }
    if text.is_empty() {
        "—".to_owned()
    } else {
        text
    }
}
