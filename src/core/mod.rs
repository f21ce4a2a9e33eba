//! The service core: the console's non-UI heart. The UI owns a [`Core`]: `ask` never blocks
//! and gives a [`Pending`] reply of the request's own type (`request.rs`); the command line
//! and tests `run` a request to its reply. The core asks for a repaint when a reply arrives. A tokio runtime on its own threads does the I/O: the platform
//! client, the keyring, the journal, the drafts, and the embedded Sandbox platform.

pub mod backup;
pub mod cache;
pub mod calls;
pub mod catalog;
pub mod csv_out;
pub mod customer;
pub mod desktop;
pub mod drafts;
pub mod error;
pub mod evidence;
pub mod files;
pub mod journal;
pub mod ledger;
pub mod local_db;
pub mod memory;
pub mod profiles;
pub mod progress;
pub mod queue;
pub mod renewals;
pub mod request;
pub mod sandbox;
pub mod secrets;
mod service;
pub mod sheet;
pub mod snapshot;
pub mod team;
pub mod update;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use keyring_core::CredentialStore;
use tokio::sync::mpsc as tokio_mpsc;

pub use drafts::{Draft, DraftSummary};
pub use error::CoreError;
pub use journal::{JournalEntry, JournalFilter};
pub use ledger::LedgerEntry;
pub use profiles::{Endpoint, Profile, Profiles, SANDBOX};
pub use request::{Awaited, Pending, Request};
pub use secrets::{KeyringState, KeyringStore};

// The UI imports only `core`: what it needs of the client and the interface comes through here.
pub use ::wire;
pub use client::write::lock_refusals;
pub use client::{ApiError, CallLimits, Operation, Secret, WriteState};
pub use support::clock::now_ms;

use wire::{BatchOrderRequest, BindRequest, ClaimRequest, CustomerQuery, EnterpriseRequest};

/// Where the core keeps its files, and which keyring it uses.
pub struct CoreOptions {
    /// `profiles.json`
    pub config_dir: PathBuf,
    /// `journal.sqlite3`, `drafts.sqlite3`, `sandbox/`
    pub data_dir: PathBuf,
    pub keyring: KeyringChoice,
    pub file_dialog: FileDialogChoice,
}

/// Which file dialog open and save use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileDialogChoice {
    /// The OS's (on Linux the XDG portal, else zenity), or the window's own when neither is
    /// there to answer.
    Os,
    /// The window's own, always (`LICENSE_DESK_FILE_DIALOG=window`; tests).
    InWindow,
}

pub enum KeyringChoice {
    /// The OS keyring, or memory only (with a warning state) when none answers.
    Native,
    /// A given store: tests pass keyring-core's mock store.
    Store(Arc<CredentialStore>),
    MemoryOnly,
}

impl CoreOptions {
    /// The OS's config and local data directories for this user (on Windows `%APPDATA%` for
    /// the settings, `%LOCALAPPDATA%` for the databases, which must not roam); the OS keyring, unless the
    /// environment says `LICENSE_DESK_KEYRING=memory` (machines without one, scripts).
    pub fn for_user() -> Result<CoreOptions, CoreError> {
        let dirs = directories::ProjectDirs::from("", "", "license-desk")
            .ok_or(profiles::ProfilesError::NoHome)?;
        Ok(CoreOptions {
            config_dir: dirs.config_dir().to_owned(),
            data_dir: dirs.data_local_dir().to_owned(),
            keyring: match std::env::var("LICENSE_DESK_KEYRING").as_deref() {
                Ok("memory") => KeyringChoice::MemoryOnly,
                _ => KeyringChoice::Native,
            },
            file_dialog: match std::env::var("LICENSE_DESK_FILE_DIALOG").as_deref() {
                Ok("window") => FileDialogChoice::InWindow,
                _ => FileDialogChoice::Os,
            },
        })
    }
}

pub type RequestId = u64;

/// A platform operation, on a profile.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Bind(BindRequest),
    CreateEnterprise(EnterpriseRequest),
    QueryCustomers(CustomerQuery),
    UpdateEnterprise(EnterpriseRequest),
    BatchOrder(BatchOrderRequest),
    /// Disables the locks, as `operator` (None: the profile's operator identity).
    Lock {
        nums: Vec<String>,
        operator: Option<String>,
    },
    /// Enables the locks, as `operator` (None: the profile's).
    Unlock {
        nums: Vec<String>,
        operator: Option<String>,
    },
    Assets {
        enterprise_global_id: String,
        extend_code: Option<String>,
    },
    Shellnums(i32),
    Claim(ClaimRequest),
}

impl Call {
    /// Whether it changes the platform (everything but the two reads).
    pub fn writes(&self) -> bool {
        self.operation().writes()
    }

    pub fn operation(&self) -> Operation {
        match self {
            Self::Bind(_) => Operation::Bind,
            Self::CreateEnterprise(_) => Operation::CreateEnterprise,
            Self::QueryCustomers(_) => Operation::QueryCustomers,
            Self::UpdateEnterprise(_) => Operation::UpdateEnterprise,
            Self::BatchOrder(_) => Operation::BatchOrder,
            Self::Lock { .. } => Operation::Lock,
            Self::Unlock { .. } => Operation::Unlock,
            Self::Assets { .. } => Operation::Assets,
            Self::Shellnums(_) => Operation::Shellnums,
            Self::Claim(_) => Operation::Claim,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Json,
}

/// Makes a file's text; stops with `Cancelled` when the user asks (its `Progress` says so).
#[derive(Clone)]
pub struct Producer(Arc<ProduceFn>);

type ProduceFn = dyn Fn(&progress::Progress) -> Result<String, progress::Cancelled> + Send + Sync;

impl Producer {
    pub fn new(
        produce: impl Fn(&progress::Progress) -> Result<String, progress::Cancelled>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        Self(Arc::new(produce))
    }

    pub fn produce(&self, progress: &progress::Progress) -> Result<String, progress::Cancelled> {
        (self.0)(progress)
    }
}

impl std::fmt::Debug for Producer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Producer")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxState {
    Starting,
    Ready { base_url: String },
    Failed(String),
}

/// What the UI shows of the core, read at any time without waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreState {
    pub profiles: Profiles,
    /// None while the keyring is being opened.
    pub keyring: Option<KeyringState>,
    pub sandbox: SandboxState,
    /// Team profiles' sessions, once known (a sign-in, `team::WhoAmI`, a call that found
    /// the session ended).
    pub sessions: std::collections::BTreeMap<String, team::Session>,
    /// Platform calls asked for and not yet answered, oldest first (the status bar shows
    /// them, each with its Cancel).
    pub calls: Vec<RunningCall>,
}

/// A platform call on its way: the request's id, its profile and operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningCall {
    pub id: RequestId,
    pub profile: String,
    pub operation: Operation,
}

type Repaint = Arc<dyn Fn() + Send + Sync>;

/// A request prepared, with its id, for [`Core::dispatch`].
pub struct Asking {
    id: RequestId,
    work: service::Work,
    /// The platform call it makes, if it makes one.
    call: Option<RunningCall>,
}

impl Asking {
    pub fn id(&self) -> RequestId {
        self.id
    }
}

pub struct Core {
    runtime: Option<tokio::runtime::Runtime>,
    stop: tokio::sync::watch::Sender<bool>,
    service: Option<tokio::task::JoinHandle<()>>,
    commands: tokio_mpsc::UnboundedSender<(RequestId, service::Work)>,
    next_id: AtomicU64,
    state: Arc<RwLock<CoreState>>,
    repaint: Arc<RwLock<Option<Repaint>>>,
}

impl Core {
    /// Starts the runtime and the service; returns at once (the keyring, the files and the
    /// Sandbox are opened in the background; commands wait for them).
    pub fn start(options: CoreOptions) -> Result<Core, CoreError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("license-desk-core")
            .enable_all()
            .build()
            .map_err(|e| CoreError::Threads(Arc::new(e)))?;
        let profiles_path = options.config_dir.join("profiles.json");
        let profiles = profiles::Profiles::load(&profiles_path)?;
        let state = Arc::new(RwLock::new(CoreState {
            profiles,
            keyring: None,
            sandbox: SandboxState::Starting,
            sessions: Default::default(),
            calls: Vec::new(),
        }));
        let repaint: Arc<RwLock<Option<Repaint>>> = Arc::new(RwLock::new(None));
        let (commands, command_rx) = tokio_mpsc::unbounded_channel();
        let (stop, stop_rx) = tokio::sync::watch::channel(false);
        let service = runtime.spawn(service::run(
            options,
            Arc::clone(&state),
            command_rx,
            service::Outbox::new(Arc::clone(&repaint)),
            stop_rx,
        ));
        Ok(Core {
            runtime: Some(runtime),
            stop,
            service: Some(service),
            commands,
            next_id: AtomicU64::new(1),
            state,
            repaint,
        })
    }

    /// How the core wakes the UI when a result arrives, e.g. `move || ctx.request_repaint()`.
    pub fn set_repaint(&self, f: impl Fn() + Send + Sync + 'static) {
        *self.repaint.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(f));
    }

    /// Queues a request; never blocks. The reply comes to the [`Pending`] returned.
    pub fn ask<R: Request>(&self, request: R) -> Pending<R::Reply> {
        let (asking, pending) = self.prepare(request);
        self.dispatch(asking);
        pending
    }

    /// A request with where its reply will come, to be sent with [`Core::dispatch`].
    pub fn prepare<R: Request>(&self, request: R) -> (Asking, Pending<R::Reply>) {
        let id = self.next_id();
        let call = request.operation().map(|operation| RunningCall {
            id,
            profile: request.profile().unwrap_or_default().to_owned(),
            operation,
        });
        let (responder, pending) = request::channel(id);
        let job = request::Asked { request, responder };
        let work = service::Work::Job(Box::new(job));
        (Asking { id, work, call }, pending)
    }

    /// Sends what was prepared; never blocks. A platform call is listed as running from now
    /// until it is answered.
    pub fn dispatch(&self, asking: Asking) {
        let Asking { id, work, call } = asking;
        if let Some(call) = call {
            self.state
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .calls
                .push(call);
        }
        // Listed before it is sent, so that its end, which unlists it, cannot come first.
        if self.commands.send((id, work)).is_err() {
            tracing::error!(id, "the core has stopped; request dropped");
            let mut state = self.state.write().unwrap_or_else(PoisonError::into_inner);
            state.calls.retain(|c| c.id != id);
        }
    }

    /// Stops the request `id` if it is still running: a call not yet answered ends cancelled
    /// (a write that may have left as outcome unknown).
    pub fn cancel(&self, id: RequestId) {
        self.dispatch(Asking {
            id: self.next_id(),
            work: service::Work::Cancel(id),
            call: None,
        });
    }

    fn next_id(&self) -> RequestId {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    pub fn state(&self) -> CoreState {
        self.state
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Asks and waits for the reply: for the command line and tests, never the UI.
    pub fn run<R: Request>(&self, request: R, timeout: Duration) -> Result<R::Reply, CoreError> {
        self.ask(request).wait(timeout)
    }

    /// Stops the service: the Sandbox platform is shut down and the journal flushed. Blocks
    /// (briefly): call it when the window closes or the command ends.
    pub fn shutdown(mut self) {
        self.stop_service();
    }

    fn stop_service(&mut self) {
        // The service may have ended already: nothing then listens.
        let _ = self.stop.send(true);
        if let (Some(runtime), Some(service)) = (self.runtime.take(), self.service.take()) {
            if tokio::runtime::Handle::try_current().is_ok() {
                // Inside another runtime nothing may block: the service stops on its own.
                runtime.shutdown_background();
                return;
            }
            // Past the time limit the runtime's own shutdown below ends what is left.
            let _ = runtime
                .block_on(async { tokio::time::timeout(Duration::from_secs(10), service).await });
            runtime.shutdown_timeout(Duration::from_secs(5));
        }
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        self.stop_service();
    }
}
