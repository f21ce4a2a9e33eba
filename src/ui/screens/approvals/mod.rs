//! Approvals, on a team server's profile: the requests that wait for a second person (a
//! delete, a batch or lock change above the server's thresholds). An approver sees everyone's,
//! with what a delete removes, and approves with one click or rejects with a reason; anyone
//! else sees their own and what became of them. The list knows the profile it came from, and
//! a decision goes to that profile.

mod detail;
mod gist;
mod watch;

use std::collections::HashMap;

use crate::ui::prefs::Prefs;
use std::sync::Arc;

use egui::{RichText, ScrollArea};

use crate::core::catalog::{self, CatalogView};
use crate::core::team::{self, Permission, Request, RequestQuery, RequestState};
use crate::core::wire::approval;
use crate::core::{Awaited, CoreState};
use crate::ui::kit::empty::empty_state_ui;
use crate::ui::kit::form::busy_icon_button_ui;
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, t};
use crate::ui::text::labels::request_state_words;

use detail::Decider;
use gist::Gist;
use watch::Watch;

/// Requests read at once.
const PAGE: u32 = 200;

pub(crate) struct ApprovalsScreen {
    /// The profile the requests were read from.
    profile: Option<String>,
    requests: Vec<Request>,
    /// What each request does, worked out once.
    gists: HashMap<i64, Gist>,
    read: Awaited<Vec<Request>>,
    /// The profile's directory, to name the customers of its requests.
    directory: Awaited<Arc<CatalogView>>,
    view: Option<Arc<CatalogView>>,
    selected: Option<i64>,
    /// Only those still waiting (an approver's usual view).
    pending_only: bool,
    decider: Decider,
    /// One's own requests, read now and then, to tell when one is decided.
    watch: Watch,
    /// Read again on the next frame (a request was asked for by name).
    reread: bool,
}

impl Default for ApprovalsScreen {
    fn default() -> Self {
        Self {
            profile: None,
            requests: Vec::new(),
            gists: HashMap::new(),
            read: Awaited::default(),
            directory: Awaited::default(),
            view: None,
            selected: None,
            pending_only: true,
            decider: Decider::default(),
            watch: Watch::default(),
            reread: false,
        }
    }
}

impl ApprovalsScreen {
    fn refresh(&mut self, caller: &Caller<'_>) {
        let approver = caller.lacking(Lang::En, Permission::Approve).is_none();
        self.profile = Some(caller.profile.name.clone());
        let query = RequestQuery {
            mine: !approver,
            state: self.pending_only.then_some(RequestState::Pending),
            limit: Some(PAGE),
            before: None,
        };
        self.read.start(caller.ask(team::ListRequests {
            profile: caller.profile.name.clone(),
            query,
        }));
        self.directory.start(caller.ask(catalog::Load {
            profile: caller.profile.name.clone(),
        }));
    }

    /// Opens with request `name` (`R-17`) chosen, every state listed, read afresh.
    pub(crate) fn show(&mut self, name: &str) {
        self.selected = approval::parse_name(name);
        self.pending_only = false;
        self.reread = true;
    }

    /// Every frame: one's own requests are read again now and then; `told` is what the
    /// preferences keep of the decisions told.
    pub(crate) fn tick(
        &mut self,
        ctx: &egui::Context,
        out: &Outbox<'_>,
        state: &CoreState,
        prefs: &mut Prefs,
    ) {
        self.watch.tick(ctx, out, state, prefs);
    }

    /// For an approver, how many requests of others wait (as last read).
    pub(crate) fn waiting_for_me(&self) -> Option<usize> {
        self.watch.pending
    }

    /// Decisions on one's own requests and requests come to wait for one's approval, over
    /// whatever screen is open: true when one was asked to be opened (it is then chosen).
    /// The requests (`R-3`) whose decision one of the notices tells.
    pub(crate) fn decided(&self) -> Vec<String> {
        self.watch
            .notices
            .iter()
            .map(|(r, _)| approval::name(r.id))
            .collect()
    }

    /// Whether a notice or an arrival waits to be shown.
    pub(crate) fn has_notices(&self) -> bool {
        !self.watch.notices.is_empty() || !self.watch.arrivals.is_empty()
    }

    pub(crate) fn notices_ui(&mut self, ui: &mut egui::Ui, lang: Lang) -> bool {
        self.watch.notices_ui(ui, lang);
        let open = self.watch.arrivals_ui(ui, lang);
        if let Some(id) = open {
            self.show(&approval::name(id));
        }
        open.is_some()
    }

    /// Approvals is open: what came to wait has been seen.
    pub(crate) fn arrivals_seen(&mut self) {
        self.watch.arrivals.clear();
    }

    /// Takes the replies that have come to this screen's requests.
    pub(crate) fn poll(&mut self, out: &Outbox<'_>) {
        // A background reading: nothing to say unless a notice came of it; the list beneath
        // takes what it read, so that the two never disagree.
        if let Some(found) = self.watch.poll()
            && self.profile.as_deref() == self.watch.profile()
        {
            for r in found {
                if let Some(kept) = self.requests.iter_mut().find(|k| k.id == r.id) {
                    self.gists.insert(r.id, Gist::of(&r));
                    *kept = r;
                }
            }
        }
        // The names are a help: without them the rows name customers by their ids.
        if let Some(Ok(view)) = self.directory.take() {
            self.view = Some(view);
        }
        if let Some(Ok(found)) = out.reply(&mut self.read, label!("approvals")) {
            self.gists = found.iter().map(|r| (r.id, Gist::of(r))).collect();
            self.watch.observe(&found);
            self.requests = found;
        }
        if let Some(r) = self.decider.poll(out) {
            self.gists.insert(r.id, Gist::of(&r));
            match self.requests.iter_mut().find(|kept| kept.id == r.id) {
                Some(kept) => *kept = *r,
                None => self.requests.insert(0, *r),
            }
        }
    }

    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang) {
        if !caller.profile.is_team() {
            ui.label(t!(lang, "approvals-not-team"));
            return;
        }
        if self.profile.as_deref() != Some(&caller.profile.name) {
            // Another profile's requests are not this one's.
            self.requests.clear();
            self.view = None;
            // A request asked for by name stays chosen, in every state; otherwise an approver
            // looks at what waits, anyone else at what became of their requests.
            if !std::mem::take(&mut self.reread) {
                self.selected = None;
                self.pending_only = caller.lacking(Lang::En, Permission::Approve).is_none();
            }
            self.refresh(caller);
        } else if std::mem::take(&mut self.reread) {
            self.refresh(caller);
        }
        ui.label(RichText::new(t!(lang, "approvals-help")).weak());
        ui.horizontal(|ui| {
            if busy_icon_button_ui(
                ui,
                Icon::Refresh,
                t!(lang, "refresh"),
                self.read.is_waiting(),
            ) {
                self.refresh(caller);
            }
            let only = t!(lang, "approvals-pending-only");
            if ui.checkbox(&mut self.pending_only, only).changed() {
                self.refresh(caller);
            }
        });
        ui.separator();
        if self.requests.is_empty() {
            if self.read.is_waiting() {
                ui.label(t!(lang, "loading"));
            } else {
                empty_state_ui(ui, t!(lang, "approvals-none"), None);
            }
            return;
        }
        let detail_height = if self.selected.is_some() { 320.0 } else { 0.0 };
        ScrollArea::vertical()
            .id_salt("approvals_rows")
            .max_height((ui.available_height() - detail_height).max(120.0))
            .show(ui, |ui| self.table_ui(ui, lang));
        let selected = self.selected;
        if let Some(r) = self.requests.iter().find(|r| Some(r.id) == selected) {
            ui.separator();
            let gist = self.gists.get(&r.id).map(|g| g.words(lang));
            let gist = gist.unwrap_or_else(|| r.summary.clone());
            self.decider.ui(ui, caller, lang, r, &gist);
        }
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        egui::Grid::new("approvals_table")
            .striped(true)
            .num_columns(6)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                for head in [
                    label!("request-id"),
                    label!("request-time"),
                    label!("request-requester"),
                    label!("request-customer"),
                    label!("request-summary"),
                    label!("request-state"),
                ] {
                    ui.label(RichText::new(head.text(lang)).strong());
                }
                ui.end_row();
                for r in &self.requests {
                    let chosen = self.selected == Some(r.id);
                    if ui.selectable_label(chosen, approval::name(r.id)).clicked() {
                        self.selected = (!chosen).then_some(r.id);
                    }
                    row_ui(ui, lang, r, self.gists.get(&r.id), self.view.as_deref());
                    ui.end_row();
                }
            });
    }
}

/// A request's row after its name: when and by whom it was filed (with the branch), for whom,
/// what it does (and a batch's channel order id), and where it stands.
fn row_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    r: &Request,
    gist: Option<&Gist>,
    view: Option<&CatalogView>,
) {
    let now_ms = crate::core::now_ms();
    let age = dates::age(lang, now_ms - r.created_at);
    ui.label(format!(
        "{} · {age}",
        dates::local_time(r.created_at, now_ms)
    ));
    let who = match &r.branch {
        Some(branch) => format!("{} · {branch}", r.requester),
        None => r.requester.clone(),
    };
    ui.label(who);
    let customer = gist.map_or_else(|| "—".to_owned(), |g| g.customer_words(lang, view));
    ui.label(customer);
    let what = gist.map_or_else(|| r.summary.clone(), |g| g.words(lang));
    let what = match gist.and_then(Gist::channel_order_id) {
        Some(id) => format!("{what} · {id}"),
        None => what,
    };
    ui.label(what);
    state_ui(ui, lang, r.state);
}

/// A request's state in words: waiting in the warning colour, what went wrong in the danger
/// colour.
pub(crate) fn state_ui(ui: &mut egui::Ui, lang: Lang, state: RequestState) {
    let words = request_state_words(lang, state);
    let colour = match state {
        RequestState::Pending | RequestState::Approved => ui.visuals().warn_fg_color,
        RequestState::Done => ui.visuals().text_color(),
        _ => ui.visuals().error_fg_color,
    };
    ui.colored_label(colour, words);
}
