//! What screens send. A screen never talks to the core: its `poll` (replies) and its `*_ui`
//! functions (clicks) queue requests here, each given its `Pending` reply at once so the
//! screen can wait for it, and the window sends them all once the frame is drawn. Replies'
//! errors are said here, once.

use std::cell::{Cell, RefCell};

use crate::core::queue::QueuedEntry;
use crate::core::request::Finished;
use crate::core::{Asking, Awaited, Core, CoreError, Pending, Profile, Request, RequestId};
use crate::ui::prefs::Screen;
use crate::ui::status::Verdict;
use crate::ui::text::i18n::Label;

/// An answer for the status bar: the action, how it went, and its error if it failed.
pub type Told = (Label, Verdict, Option<CoreError>);

pub struct Outbox<'a> {
    core: &'a Core,
    queued: RefCell<Vec<Asking>>,
    /// Replies taken in this frame, for the status bar (and a toast when one failed).
    told: RefCell<Vec<Told>>,
    /// A customer's page a link asked for in this frame: an enterprise global id (true), or an
    /// id the directory places (false). Screens do not call each other: the window opens it.
    page: RefCell<Option<(String, bool)>>,
    /// A screen an empty state's button asked for in this frame.
    screen: Cell<Option<Screen>>,
    /// The queue to send later as a reply in this frame gave it: Send later shows it.
    queue: RefCell<Option<Vec<QueuedEntry>>>,
}

impl<'a> Outbox<'a> {
    pub fn new(core: &'a Core) -> Self {
        Self {
            core,
            queued: RefCell::new(Vec::new()),
            told: RefCell::new(Vec::new()),
            page: RefCell::new(None),
            screen: Cell::new(None),
            queue: RefCell::new(None),
        }
    }

    /// Asks the window to open a customer's page on the active profile (a link was clicked).
    pub fn open_page(&self, id: &str, global: bool) {
        *self.page.borrow_mut() = Some((id.to_owned(), global));
    }

    /// The page a link asked for in this frame, if one did.
    pub fn page_asked(&self) -> Option<(String, bool)> {
        self.page.borrow_mut().take()
    }

    /// The queue to send later as a reply gave it (a change kept to send later).
    pub fn saw_queue(&self, entries: Vec<QueuedEntry>) {
        *self.queue.borrow_mut() = Some(entries);
    }

    /// The queue a reply gave in this frame, if one did.
    pub fn queue_seen(&self) -> Option<Vec<QueuedEntry>> {
        self.queue.borrow_mut().take()
    }

    /// Asks the window to show another screen (an empty state's next step).
    pub fn go_to(&self, screen: Screen) {
        self.screen.set(Some(screen));
    }

    /// The screen a button asked for in this frame, if one did.
    pub fn screen_asked(&self) -> Option<Screen> {
        self.screen.take()
    }

    /// Queues a request; its reply comes to the `Pending` returned.
    pub fn ask<R: Request>(&self, request: R) -> Pending<R::Reply> {
        let (asking, pending) = self.core.prepare(request);
        self.queued.borrow_mut().push(asking);
        pending
    }

    /// Queues a request whose reply nobody waits for (a pick noted for the searches): a
    /// failure is logged by the core, and not in the user's way.
    pub fn ask_and_forget<R: Request>(&self, request: R) {
        let (asking, _forgotten) = self.core.prepare(request);
        self.queued.borrow_mut().push(asking);
    }

    /// Stops the request `id` (the status bar's Cancel).
    pub fn cancel(&self, id: RequestId) {
        self.core.cancel(id);
    }

    /// The reply a screen waits for, once it has come; its error, if any, is said here (a
    /// toast and the status bar), so the screen only keeps what the user typed.
    pub fn reply<T>(
        &self,
        awaited: &mut Awaited<T>,
        action: Label,
    ) -> Option<Result<T, CoreError>> {
        let reply = awaited.take()?;
        self.tell(action, &reply, Verdict::Done);
        Some(reply)
    }

    /// As [`Outbox::reply`], for a reply that says itself how it went (a claim refused, some
    /// locks not done): `judge` says it.
    pub fn reply_judged<T>(
        &self,
        awaited: &mut Awaited<T>,
        action: Label,
        judge: impl FnOnce(&T) -> Verdict,
    ) -> Option<Result<T, CoreError>> {
        let reply = awaited.take()?;
        let verdict = reply.as_ref().map_or(Verdict::Done, judge);
        self.tell(action, &reply, verdict);
        Some(reply)
    }

    /// As [`Outbox::reply`], for work the user can stop: stopped is said as cancelled.
    pub fn reply_finished<T>(
        &self,
        awaited: &mut Awaited<Finished<T>>,
        action: Label,
    ) -> Option<Result<Finished<T>, CoreError>> {
        let reply = awaited.take()?;
        let done = match &reply {
            Ok(Finished::Cancelled) => Verdict::Cancelled,
            _ => Verdict::Done,
        };
        self.tell(action, &reply, done);
        Some(reply)
    }

    fn tell<T>(&self, action: Label, reply: &Result<T, CoreError>, done: Verdict) {
        let (verdict, error) = match reply {
            Ok(_) => (done, None),
            Err(e) => (Verdict::of_error(e), Some(e.clone())),
        };
        self.told.borrow_mut().push((action, verdict, error));
    }

    /// The replies taken in this frame, for the status bar.
    pub fn take_told(&self) -> Vec<Told> {
        std::mem::take(&mut self.told.borrow_mut())
    }

    /// Sends what was queued, in order.
    pub fn flush(self) {
        for asking in self.queued.into_inner() {
            self.core.dispatch(asking);
        }
    }
}

/// What a screen's operations go through: the outbox, and the profile they go to (the one
/// active when the user acts). A call is always pinned to a named profile: a profile switched
/// before the core runs it does not receive it.
pub struct Caller<'a> {
    pub out: &'a Outbox<'a>,
    pub profile: &'a Profile,
    /// What the person signed in to it may do, on a team server's profile.
    pub permits: crate::ui::kit::permits::Permits<'a>,
}

impl Caller<'_> {
    /// Why the person may not do what needs `p`, if the profile's team server says so.
    pub fn lacking(
        &self,
        lang: crate::ui::text::i18n::Lang,
        p: crate::core::team::Permission,
    ) -> Option<String> {
        self.permits.lacking(lang, p)
    }

    /// Anything the core does; a platform call names this caller's profile (`name`).
    pub fn ask<R: Request>(&self, request: R) -> Pending<R::Reply> {
        self.out.ask(request)
    }

    /// The profile this caller's calls go to, by name.
    pub fn name(&self) -> String {
        self.profile.name.clone()
    }
}
