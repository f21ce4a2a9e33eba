//! Typed requests: each thing the core does is a [`Request`] with its own reply type. The
//! window asks and keeps a [`Pending`] it polls each frame (dropping it forgets a late answer);
//! the command line and tests wait for the reply. Each request's answer travels on its own
//! one-shot channel, so which reply answers which request is known to the compiler, not
//! found out by matching a union.

use std::future::Future;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use super::service::{Job, Service};
use super::{CoreError, Operation, RequestId};

/// What the core does for a request, and what it answers.
pub trait Request: Send + 'static {
    type Reply: Send + 'static;

    /// The profile it talks to, if it talks to one: a team server's session found ended by
    /// it is forgotten.
    fn profile(&self) -> Option<&str> {
        None
    }

    /// The platform operation it makes, if it makes one: listed as running (the status bar,
    /// with its Cancel) until it is answered.
    fn operation(&self) -> Option<Operation> {
        None
    }

    /// Does it, on the core's threads.
    fn serve(
        self,
        services: Services,
    ) -> impl Future<Output = Result<Self::Reply, CoreError>> + Send;
}

/// What a request is served with: the core's files, clients and settings (opaque outside the
/// core).
#[derive(Clone)]
pub struct Services(pub(in crate::core) Arc<Service>);

/// A request with where its reply goes, as the core's loop runs it.
pub(in crate::core) struct Asked<R: Request> {
    pub request: R,
    pub responder: Responder<R::Reply>,
}

impl<R: Request> Job for Asked<R> {
    fn run(self: Box<Self>, service: Arc<Service>) -> futures::future::BoxFuture<'static, ()> {
        Box::pin(async move {
            let Asked { request, responder } = *self;
            let profile = request.profile().map(str::to_owned);
            let served = request.serve(Services(Arc::clone(&service)));
            responder.send(service.watched(profile.as_deref(), served).await);
        })
    }

    fn fail(self: Box<Self>, error: CoreError) {
        self.responder.send(Err(error));
    }
}

/// Where a request's reply goes: the one [`Pending`] that waits for it.
pub(in crate::core) struct Responder<T>(mpsc::SyncSender<Result<T, CoreError>>);

impl<T> Responder<T> {
    /// Sends the reply; a window that no longer waits for it (it dropped its `Pending`) loses
    /// nothing it wanted.
    pub(in crate::core) fn send(self, reply: Result<T, CoreError>) {
        if self.0.send(reply).is_err() {
            tracing::debug!("a reply came after its asker stopped waiting");
        }
    }
}

/// A reply still to come.
#[derive(Debug)]
pub struct Pending<T> {
    id: RequestId,
    reply: mpsc::Receiver<Result<T, CoreError>>,
}

/// A one-shot channel: the responder the core answers on, the pending reply the asker keeps.
pub(in crate::core) fn channel<T>(id: RequestId) -> (Responder<T>, Pending<T>) {
    let (tx, reply) = mpsc::sync_channel(1);
    (Responder(tx), Pending { id, reply })
}

impl<T> Pending<T> {
    /// The id `Core::cancel` stops it by.
    pub fn id(&self) -> RequestId {
        self.id
    }

    /// The reply, if it has come; never blocks. A core that stopped before answering answers
    /// `Stopped`.
    pub fn try_take(&self) -> Option<Result<T, CoreError>> {
        match self.reply.try_recv() {
            Ok(reply) => Some(reply),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(CoreError::Stopped)),
        }
    }

    /// Waits for the reply up to `timeout`: for the command line and tests, never the window.
    pub fn wait(self, timeout: Duration) -> Result<T, CoreError> {
        match self.reply.recv_timeout(timeout) {
            Ok(reply) => reply,
            Err(mpsc::RecvTimeoutError::Timeout) => Err(CoreError::GaveUp(timeout.as_secs())),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(CoreError::Stopped),
        }
    }
}

/// The latest request of one kind a screen waits for: asking again forgets the earlier one, so
/// a late answer to it is never shown.
#[derive(Debug)]
pub struct Awaited<T>(Option<Pending<T>>);

impl<T> Default for Awaited<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T> Awaited<T> {
    pub fn start(&mut self, pending: Pending<T>) {
        self.0 = Some(pending);
    }

    pub fn is_waiting(&self) -> bool {
        self.0.is_some()
    }

    /// Stops waiting: its answer, when it comes, is dropped.
    pub fn cancel(&mut self) {
        self.0 = None;
    }

    /// The reply, once, when it has come.
    pub fn take(&mut self) -> Option<Result<T, CoreError>> {
        let reply = self.0.as_ref()?.try_take()?;
        self.0 = None;
        Some(reply)
    }
}

/// The reply of work the user can stop: done, or stopped before it changed anything.
#[derive(Debug, Clone, PartialEq)]
pub enum Finished<T> {
    Done(T),
    Cancelled,
}
