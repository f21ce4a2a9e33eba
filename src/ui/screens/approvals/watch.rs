//! The requester is told when one of their requests is decided: their own requests are read
//! again every half minute while a team server's profile is active (and whenever the list is
//! read), and a request decided after the last decision told (kept in the preferences per
//! profile and person, so also after a profile switch or a restart) becomes a notice over the
//! screens until it is dismissed. The first reading ever on a profile tells nothing old.
//!
//! An approver is told of a request of someone else's that came to wait since the watch
//! began (the newest id seen is the mark): a notice over the screens with a link to it, gone
//! when Approvals is opened or the request no longer waits, and a desktop notification unless
//! the preferences say not.

use std::collections::BTreeMap;

use egui::RichText;

use crate::core::desktop::Notify;
use crate::core::team::{self, Permission, Request, RequestQuery, RequestState};
use crate::core::wire::approval;
use crate::core::{Awaited, CoreState};
use crate::ui::outbox::Outbox;
use crate::ui::prefs::Prefs;
use crate::ui::text::i18n::{Lang, labelled, t, tr};
use crate::ui::text::labels::request_state_words;

use super::gist::Gist;

/// Seconds between two readings of one's own requests when no change was heard.
const EVERY_SECS: f64 = 30.0;

/// Seconds before waiting for changes again after a wait failed.
const RETRY_SECS: f64 = 5.0;

#[derive(Default)]
pub(super) struct Watch {
    read: Awaited<Vec<Request>>,
    last: Option<f64>,
    /// The profile and person watched: another one starts afresh.
    whose: Option<(String, String)>,
    /// Per `profile/person`, when the latest decision told happened (the preferences' copy).
    told: Option<BTreeMap<String, i64>>,
    /// Decisions not yet dismissed, with what each request does.
    pub(super) notices: Vec<(Request, Gist)>,
    /// The long poll of the server's changes, and the cursor it last answered.
    changes: Awaited<String>,
    cursor: Option<String>,
    /// When to ask again after a failed wait (the server away): not at once.
    retry_at: Option<f64>,
    /// For an approver: the requests waiting for someone else than them, and how many.
    pending_read: Awaited<Vec<Request>>,
    pub(super) pending: Option<usize>,
    /// The newest request of others seen waiting: a newer one is news.
    newest_waiting: Option<i64>,
    /// Requests of others that came to wait, not yet seen on Approvals.
    pub(super) arrivals: Vec<(Request, Gist)>,
    /// How many of the arrivals the desktop has not been told of.
    untold: usize,
}

/// When a request of one's own was decided for good (rejected, or sent and settled); None
/// while it waits or is being sent.
fn decided_at(r: &Request) -> Option<i64> {
    match r.state {
        RequestState::Pending | RequestState::Approved => None,
        _ => r.ended_at.or(r.decided_at),
    }
}

impl Watch {
    pub(super) fn tick(
        &mut self,
        ctx: &egui::Context,
        out: &Outbox<'_>,
        state: &CoreState,
        prefs: &mut Prefs,
    ) {
        self.notify_desktop(out, prefs);
        let told = &mut prefs.requests_told;
        // The preferences hold what was told between runs; this watch keeps them up to date.
        match &self.told {
            None => self.told = Some(told.clone()),
            Some(mine) if mine != told => told.clone_from(mine),
            Some(_) => {}
        }
        let profile = state.profiles.active();
        let me = state.sessions.get(&profile.name).and_then(|s| s.me());
        let Some(me) = me.filter(|_| profile.is_team()) else {
            return;
        };
        let whose = (profile.name.clone(), me.person.name.clone());
        if self.whose.as_ref() != Some(&whose) {
            *self = Self {
                whose: Some(whose),
                told: self.told.take(),
                notices: std::mem::take(&mut self.notices),
                arrivals: std::mem::take(&mut self.arrivals),
                ..Self::default()
            };
        }
        let now = ctx.input(|i| i.time);
        self.follow_changes(out, &profile.name, now);
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
            if me.may(Permission::Approve) && !self.pending_read.is_waiting() {
                let query = RequestQuery {
                    mine: false,
                    state: Some(RequestState::Pending),
                    limit: Some(100),
                    before: None,
                };
                self.pending_read.start(out.ask(team::ListRequests {
                    profile: profile.name.clone(),
                    query,
                }));
            }
        }
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(EVERY_SECS));
    }

    /// Keeps one wait for the server's changes going; a change read makes the next frame read
    /// one's own requests (and what waits, for an approver) at once.
    fn follow_changes(&mut self, out: &Outbox<'_>, profile: &str, now: f64) {
        match self.changes.take() {
            Some(Ok(cursor)) => {
                if self.cursor.as_ref().is_some_and(|c| *c != cursor) {
                    self.last = None;
                }
                self.cursor = Some(cursor);
                self.retry_at = None;
            }
            Some(Err(e)) => {
                tracing::debug!(error = %e, "the team server's changes could not be awaited");
                self.retry_at = Some(now + RETRY_SECS);
            }
            None => {}
        }
        if self.changes.is_waiting() || self.retry_at.is_some_and(|at| now < at) {
            return;
        }
        self.changes.start(out.ask(team::WaitForChanges {
            profile: profile.to_owned(),
            after: self.cursor.clone(),
        }));
    }

    /// The profile watched, if any.
    pub(super) fn profile(&self) -> Option<&str> {
        self.whose.as_ref().map(|(profile, _)| profile.as_str())
    }

    /// Takes this watch's reading when it has come, and answers it for the list to agree with
    /// (its failure is the next reading's to mend: a background check says nothing of a server
    /// briefly away).
    pub(super) fn poll(&mut self) -> Option<Vec<Request>> {
        if let Some(Ok(waiting)) = self.pending_read.take() {
            self.arrived(waiting);
        }
        match self.read.take() {
            Some(Ok(found)) => {
                self.observe(&found);
                Some(found)
            }
            Some(Err(e)) => {
                tracing::debug!(error = %e, "one's own requests could not be read");
                None
            }
            None => None,
        }
    }

    /// What waits for the approver, as read: the count, and the requests newer than the mark.
    fn arrived(&mut self, waiting: Vec<Request>) {
        let me = self.whose.as_ref().map(|(_, me)| me.clone());
        let others: Vec<Request> = waiting
            .into_iter()
            .filter(|r| Some(&r.requester) != me.as_ref())
            .collect();
        self.pending = Some(others.len());
        self.arrivals
            .retain(|(a, _)| others.iter().any(|r| r.id == a.id));
        let newest = others.iter().map(|r| r.id).max().unwrap_or(0);
        if let Some(mark) = self.newest_waiting {
            for r in others.iter().filter(|r| r.id > mark) {
                self.arrivals.push((r.clone(), Gist::of(r)));
                self.untold += 1;
            }
        }
        self.newest_waiting = Some(newest.max(self.newest_waiting.unwrap_or(0)));
    }

    /// One desktop notification for the arrivals not yet told: the request itself, or how
    /// many came at once.
    fn notify_desktop(&mut self, out: &Outbox<'_>, prefs: &Prefs) {
        let untold = std::mem::take(&mut self.untold).min(self.arrivals.len());
        if untold == 0 || !prefs.desktop_notifications {
            return;
        }
        let lang = prefs.lang;
        let fresh = &self.arrivals[self.arrivals.len() - untold..];
        let notify = match fresh {
            [(r, gist)] => Notify {
                title: tr!(lang, "request-arrived-title", id = approval::name(r.id)),
                body: tr!(
                    lang,
                    "request-arrived-body",
                    who = r.requester.as_str(),
                    summary = gist.words(lang)
                ),
            },
            _ => Notify {
                title: tr!(lang, "request-arrived-many", n = fresh.len()),
                body: fresh
                    .iter()
                    .map(|(r, gist)| format!("{} · {}", approval::name(r.id), gist.words(lang)))
                    .collect::<Vec<_>>()
                    .join("\n"),
            },
        };
        out.ask_and_forget(notify);
    }

    /// Requests read (by this watch or by the list): those of the person watched decided after
    /// the last decision told become notices.
    pub(super) fn observe(&mut self, found: &[Request]) {
        let (Some((profile, me)), Some(told)) = (&self.whose, &mut self.told) else {
            return;
        };
        let mine: Vec<(&Request, i64)> = found
            .iter()
            .filter(|r| &r.requester == me)
            .filter_map(|r| decided_at(r).map(|at| (r, at)))
            .collect();
        let latest = mine.iter().map(|(_, at)| *at).max();
        let key = format!("{profile}/{me}");
        if let Some(&since) = told.get(&key) {
            for (r, at) in &mine {
                if *at > since && !self.notices.iter().any(|(n, _)| n.id == r.id) {
                    self.notices.push(((*r).clone(), Gist::of(r)));
                }
            }
        }
        let since = told.get(&key).copied().unwrap_or(0);
        told.insert(key, latest.unwrap_or(0).max(since));
    }

    /// The arrivals, each with a link to it and its dismissal: the request to open, if asked.
    pub(super) fn arrivals_ui(&mut self, ui: &mut egui::Ui, lang: Lang) -> Option<i64> {
        let (mut open, mut dismissed) = (None, None);
        for (i, (r, gist)) in self.arrivals.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                let name = approval::name(r.id);
                let words = tr!(
                    lang,
                    "request-arrived",
                    id = name.as_str(),
                    who = r.requester.as_str(),
                    summary = gist.words(lang)
                );
                ui.label(RichText::new(words).strong());
                if ui.button(tr!(lang, "open-request", id = name)).clicked() {
                    open = Some(r.id);
                }
                if ui.button(t!(lang, "dismiss")).clicked() {
                    dismissed = Some(i);
                }
            });
        }
        if let Some(i) = dismissed {
            self.arrivals.remove(i);
        }
        open
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
