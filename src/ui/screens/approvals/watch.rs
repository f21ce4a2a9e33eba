//! The requester is told when one of their requests is decided: their own requests are read
//! again every half minute while a team server's profile is active (and whenever the list is
//! read), and a request that was waiting and is decided now becomes a notice over the screens
//! until it is dismissed.

use std::collections::BTreeMap;

use egui::RichText;

use crate::core::team::{self, Request, RequestQuery, RequestState};
use crate::core::wire::approval;
use crate::core::{Awaited, CoreState};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, labelled, t, tr};
use crate::ui::text::labels::request_state_words;

use super::gist::Gist;

/// Seconds between two readings of one's own requests.
const EVERY_SECS: f64 = 30.0;

#[derive(Default)]
pub(super) struct Watch {
    read: Awaited<Vec<Request>>,
    last: Option<f64>,
    /// The profile and person watched: another one starts afresh.
    whose: Option<(String, String)>,
    /// The states last seen of the person's own requests; None until first read.
    known: Option<BTreeMap<i64, RequestState>>,
    /// Decisions not yet dismissed, with what each request does.
    pub(super) notices: Vec<(Request, Gist)>,
}

impl Watch {
    pub(super) fn tick(&mut self, ctx: &egui::Context, out: &Outbox<'_>, state: &CoreState) {
        let profile = state.profiles.active();
        let me = state.sessions.get(&profile.name).and_then(|s| s.me());
        let Some(me) = me.filter(|_| profile.is_team()) else {
            return;
        };
        let whose = (profile.name.clone(), me.person.name.clone());
        if self.whose.as_ref() != Some(&whose) {
            *self = Self {
                whose: Some(whose),
                notices: std::mem::take(&mut self.notices),
                ..Self::default()
            };
        }
        let now = ctx.input(|i| i.time);
        if self.last.is_none_or(|at| now - at >= EVERY_SECS) && !self.read.is_waiting() {
            self.last = Some(now);
            let query = RequestQuery {
                mine: true,
                state: None,
                limit: Some(100),
                before: None,
            };
            self.read.start(out.ask(team::ListRequests {
                profile: profile.name.clone(),
                query,
            }));
        }
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(EVERY_SECS));
    }

    /// Takes this watch's reading when it has come (its failure is the next reading's to
    /// mend: a background check says nothing of a server briefly away).
    pub(super) fn poll(&mut self) {
        match self.read.take() {
            Some(Ok(found)) => self.observe(&found),
            Some(Err(e)) => tracing::debug!(error = %e, "one's own requests could not be read"),
            None => {}
        }
    }

    /// Requests read (by this watch or by the list): those of the person watched that were
    /// waiting and are decided now become notices.
    pub(super) fn observe(&mut self, found: &[Request]) {
        let Some((_, me)) = &self.whose else {
            return;
        };
        let mine = found.iter().filter(|r| &r.requester == me);
        let Some(known) = &mut self.known else {
            self.known = Some(mine.map(|r| (r.id, r.state)).collect());
            return;
        };
        for r in mine {
            let was_open = known
                .get(&r.id)
                .is_some_and(|s| matches!(s, RequestState::Pending | RequestState::Approved));
            let decided = !matches!(r.state, RequestState::Pending | RequestState::Approved);
            if was_open && decided && !self.notices.iter().any(|(n, _)| n.id == r.id) {
                self.notices.push((r.clone(), Gist::of(r)));
            }
            known.insert(r.id, r.state);
        }
    }

    /// The notices, each with its dismissal.
    pub(super) fn notices_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let mut dismissed = None;
        for (i, (r, gist)) in self.notices.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                let words = tr!(
                    lang,
                    "request-notice",
                    id = approval::name(r.id),
                    summary = gist.words(lang),
                    state = request_state_words(lang, r.state),
                    who = r.decided_by.as_deref().unwrap_or_default()
                );
                ui.label(RichText::new(words).strong());
                if let Some(reason) = &r.reason {
                    ui.label(labelled(lang, t!(lang, "reject-reason"), reason));
                }
                if ui.button(t!(lang, "dismiss")).clicked() {
                    dismissed = Some(i);
                }
            });
        }
        if let Some(i) = dismissed {
            self.notices.remove(i);
        }
    }
}
