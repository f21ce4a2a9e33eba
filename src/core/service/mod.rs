//! The async side of the core: owns the profiles, secrets, clients, journal, drafts and the
//! Sandbox, and answers commands, each on its own task so a slow call never holds up others.

mod knowledge;
mod profile_changes;
mod sessions;
mod team_knowledge;

use crate::core::secrets::token_issuer;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use tokio::sync::{Mutex, mpsc, watch};

use super::drafts::store::Drafts;
use super::journal::{Journal, JournalError, JournalFilter};
use super::profiles::{Endpoint, Profile, Profiles, ProfilesError};
use super::queue::store::QueueError;
use super::sandbox::{Sandbox, SandboxError};
use super::secrets::{KeyringStore, Secrets};
use super::{CoreError, CoreOptions, CoreState, KeyringChoice, Repaint, RequestId, SandboxState};
use client::{
    CachedToken, CallRecord, Client, ClientConfig, Kept, NotKept, Observer, WriteBegun, WriteEnded,
};

/// Wakes the window when a reply has come: one repaint per reply, never a loop.
pub struct Outbox {
    repaint: Arc<RwLock<Option<Repaint>>>,
}

impl Outbox {
    pub fn new(repaint: Arc<RwLock<Option<Repaint>>>) -> Self {
        Self { repaint }
    }

    fn wake(&self) {
        let repaint = self
            .repaint
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(repaint) = repaint {
            repaint();
        }
    }
}

/// Journal writes, queries and exports, in order, on one thread: a query sent after a call
/// sees that call.
enum JournalJob {
    Record {
        profile: String,
        record: Box<CallRecord>,
    },
    /// Work that reads or settles the journal, in its turn (its answer goes where it says).
    Run(Box<dyn FnOnce(&Journal) + Send>),
    /// A write recorded before it leaves; `kept` says whether it durably is.
    BeginWrite {
        profile: String,
        write: Box<WriteBegun>,
        kept: tokio::sync::oneshot::Sender<Result<(), NotKept>>,
    },
    WriteSending {
        call_id: String,
        kept: tokio::sync::oneshot::Sender<Result<(), NotKept>>,
    },
    EndWrite {
        write: Box<WriteEnded>,
    },
    /// Settles what is still in flight at the end, then says so on `done`.
    Flush {
        done: std_mpsc::Sender<()>,
    },
}

fn journal_thread(journal: Journal, jobs: std_mpsc::Receiver<JournalJob>) {
    for job in jobs {
        match job {
            JournalJob::Record { profile, record } => {
                if let Err(e) = journal.record(&profile, &record) {
                    tracing::warn!(error = %e, "a call could not be journaled");
                }
            }
            JournalJob::Run(work) => work(&journal),
            JournalJob::BeginWrite {
                profile,
                write,
                kept,
            } => {
                let result = journal.begin_write(&profile, &write);
                // The write waits for this answer; if it stopped waiting, nothing is sent.
                let _ = kept.send(result.map_err(NotKept::from));
            }
            JournalJob::WriteSending { call_id, kept } => {
                let result = journal.write_sending(&call_id);
                // As above: the write waits for this answer.
                let _ = kept.send(result.map_err(NotKept::from));
            }
            JournalJob::EndWrite { write } => {
                if let Err(e) = journal.end_write(&write) {
                    tracing::warn!(error = %e, "a write's outcome could not be journaled");
                }
            }
            JournalJob::Flush { done } => {
                match journal.settle_in_flight() {
                    Ok(0) => {}
                    Ok(n) => tracing::warn!(n, "writes left in flight at the end: outcome unknown"),
                    Err(e) => tracing::warn!(error = %e, "writes in flight could not be settled"),
                }
                // The caller may have stopped waiting (its own time limit).
                let _ = done.send(());
            }
        }
    }
}

/// Journals a profile's calls and keeps its new tokens in the keyring, unless the secret was
/// given for one run (then the token lives in the client's memory only).
struct ProfileObserver {
    profile: String,
    journal: std_mpsc::Sender<JournalJob>,
    secrets: Arc<Secrets>,
    keep_tokens: bool,
    /// The client's token URL and app key, which its tokens are kept with.
    issuer: String,
}

impl ProfileObserver {
    /// A journal job whose answer says it is kept (durably, before a write goes on).
    fn kept(
        &self,
        job: impl FnOnce(tokio::sync::oneshot::Sender<Result<(), NotKept>>) -> JournalJob,
    ) -> Kept {
        let (kept, done) = tokio::sync::oneshot::channel();
        let sent = self.journal.send(job(kept));
        Box::pin(async move {
            sent.map_err(|_| JournalError::Stopped)?;
            done.await.map_err(|_| JournalError::Stopped)?
        })
    }
}

impl Observer for ProfileObserver {
    fn record(&self, record: CallRecord) {
        // The journal thread ends only with the core: then nothing is recorded anyway.
        let _ = self.journal.send(JournalJob::Record {
            profile: self.profile.clone(),
            record: Box::new(record),
        });
    }

    fn token_issued(&self, token: &CachedToken) {
        if self.keep_tokens {
            self.secrets.set_token(&self.profile, token, &self.issuer);
        }
    }

    fn begin_write(&self, write: &WriteBegun) -> Kept {
        let (profile, write) = (self.profile.clone(), Box::new(write.clone()));
        self.kept(|kept| JournalJob::BeginWrite {
            profile,
            write,
            kept,
        })
    }

    fn write_sending(&self, call_id: &str) -> Kept {
        let call_id = call_id.to_owned();
        self.kept(|kept| JournalJob::WriteSending { call_id, kept })
    }

    fn end_write(&self, write: &WriteEnded) {
        // As for a record: the journal ends only with the core.
        let _ = self.journal.send(JournalJob::EndWrite {
            write: Box::new(write.clone()),
        });
    }
}

/// What the core's loop is given: a request, answered on its own channel, or the cancelling
/// of one.
pub(in crate::core) enum Work {
    Job(Box<dyn Job>),
    Cancel(RequestId),
}

/// A typed request with where its reply goes, its type erased for the loop (the service
/// knows no request: requests know the service).
pub(in crate::core) trait Job: Send {
    fn run(self: Box<Self>, service: Arc<Service>) -> futures::future::BoxFuture<'static, ()>;
    /// Answers that it cannot be done (the core could not open its files).
    fn fail(self: Box<Self>, error: CoreError);
}

pub(in crate::core) struct Service {
    profiles_path: PathBuf,
    /// Held across each profile edit's read, write and publish: commands run concurrently,
    /// and two quick edits must not both start from the same profiles (one would be lost).
    profile_edits: Mutex<()>,
    state: Arc<RwLock<CoreState>>,
    secrets: Arc<Secrets>,
    /// App secrets given for this run only (`Command::UseSecretForRun`): never in the keyring.
    run_secrets: Mutex<HashMap<String, client::Secret>>,
    journal: std_mpsc::Sender<JournalJob>,
    pub(in crate::core) drafts: Arc<Drafts>,
    clients: Mutex<HashMap<String, Arc<Client>>>,
    sandbox: watch::Receiver<Option<Result<SandboxAccess, Arc<SandboxError>>>>,
    pub(in crate::core) file_dialog: super::FileDialogChoice,
    /// The catalog and the directories, or why they cannot be opened.
    catalog: Result<Arc<super::catalog::store::Catalog>, Arc<super::catalog::store::CatalogError>>,
    /// Calls kept to send later, or why they cannot be.
    pub(in crate::core) queue: Result<Arc<super::queue::store::Queue>, Arc<QueueError>>,
    /// Where the runs' locks are (`data_dir/runs`).
    pub(in crate::core) data_dir: PathBuf,
    /// This program's run, whose lock says it is alive while it sends queued calls.
    pub(in crate::core) queue_run: Option<super::ledger::Run>,
    /// One sending of the queue at a time in this program.
    pub(in crate::core) queue_sending: Mutex<()>,
}

#[derive(Clone)]
struct SandboxAccess {
    base_url: String,
    app_key: String,
    app_secret: client::Secret,
}

/// Serves commands until `stop` turns true (or the core is dropped), then stops the Sandbox
/// and flushes the journal.
pub async fn run(
    options: CoreOptions,
    state: Arc<RwLock<CoreState>>,
    commands: mpsc::UnboundedReceiver<(RequestId, Work)>,
    outbox: Outbox,
    stop: watch::Receiver<bool>,
) {
    let outbox = Arc::new(outbox);
    let secrets = open_secrets(options.keyring, &state, &outbox).await;
    outbox.wake();

    let (journal_tx, drafts) = match open_files(&options.data_dir) {
        Ok(opened) => opened,
        Err(why) => return fail_all(commands, &state, &outbox, why).await,
    };
    let catalog =
        knowledge::open_catalog(&options.data_dir.join("catalog.sqlite3")).map_err(Arc::new);
    if let Err(why) = &catalog {
        tracing::error!(%why, "the catalog cannot be opened");
    }

    // The Sandbox starts in the background; calls on it wait for it.
    let (sandbox_tx, sandbox_rx) = watch::channel(None);
    let sandbox_task = start_sandbox(
        options.data_dir.join("sandbox"),
        Arc::clone(&secrets),
        Arc::clone(&state),
        Arc::clone(&outbox),
        sandbox_tx,
        stop.clone(),
    );

    let (queue, queue_run) = super::queue::store::open_with_run(&options.data_dir);
    let service = Arc::new(Service {
        profiles_path: options.config_dir.join("profiles.json"),
        profile_edits: Mutex::new(()),
        state,
        secrets,
        run_secrets: Mutex::new(HashMap::new()),
        journal: journal_tx,
        drafts,
        clients: Mutex::new(HashMap::new()),
        sandbox: sandbox_rx,
        file_dialog: options.file_dialog,
        catalog,
        queue,
        data_dir: options.data_dir.clone(),
        queue_run,
        queue_sending: Mutex::new(()),
    });
    serve(&service, &outbox, commands, stop).await;
    // A Sandbox that panicked has said so in the log; the journal is flushed all the same.
    let _ = sandbox_task.await;
    let (done_tx, done_rx) = std_mpsc::channel();
    // A journal thread already ended has nothing to flush.
    let _ = service.journal.send(JournalJob::Flush { done: done_tx });
    // Past five seconds the core stops anyway; what was in flight is settled at the next start.
    let _ = tokio::task::spawn_blocking(move || done_rx.recv_timeout(Duration::from_secs(5))).await;
}

/// Runs each command or request on a task of its own, under a cancel scope its id can fire,
/// until `stop` turns true or the core is dropped.
async fn serve(
    service: &Arc<Service>,
    outbox: &Arc<Outbox>,
    mut commands: mpsc::UnboundedReceiver<(RequestId, Work)>,
    mut stop: watch::Receiver<bool>,
) {
    // What cancels each command still running.
    let running: Arc<std::sync::Mutex<HashMap<RequestId, watch::Sender<bool>>>> = Arc::default();
    loop {
        let (id, work) = tokio::select! {
            next = commands.recv() => match next {
                Some(next) => next,
                None => break,
            },
            _ = stop.wait_for(|s| *s) => break,
        };
        let job = match work {
            Work::Job(job) => job,
            Work::Cancel(stop_id) => {
                if let Some(cancel) = lock_running(&running).get(&stop_id) {
                    // Its receiver goes only when the request has ended: nothing left to stop.
                    let _ = cancel.send(true);
                }
                continue;
            }
        };
        let (cancel, cancelled) = watch::channel(false);
        lock_running(&running).insert(id, cancel);
        let service = Arc::clone(service);
        let outbox = Arc::clone(outbox);
        let running = Arc::clone(&running);
        tokio::spawn(async move {
            client::CANCEL
                .scope(cancelled, service.work(id, job, &outbox))
                .await;
            lock_running(&running).remove(&id);
        });
    }
}

/// The keyring chosen, watched: the window is told when it changes.
async fn open_secrets(
    keyring: KeyringChoice,
    state: &Arc<RwLock<CoreState>>,
    outbox: &Arc<Outbox>,
) -> Arc<Secrets> {
    let secrets = match keyring {
        KeyringChoice::Store(store) => Secrets::with_store(store, KeyringStore::Given),
        KeyringChoice::MemoryOnly => Secrets::memory_only(Secrets::AS_CONFIGURED),
        KeyringChoice::Native => tokio::task::spawn_blocking(Secrets::native)
            .await
            .unwrap_or_else(|e| Secrets::memory_only(format!("the keyring check failed: {e}"))),
    };
    let secrets = Arc::new(secrets);
    update_state(state, |s| s.keyring = Some(secrets.state()));
    {
        let state = Arc::clone(state);
        let outbox = Arc::clone(outbox);
        secrets.on_change(move |keyring| {
            update_state(&state, |s| s.keyring = Some(keyring.clone()));
            outbox.wake();
        });
    }
    secrets
}

/// The files the core cannot work without: the journal, on a thread of its own, and the
/// drafts.
fn open_files(data_dir: &Path) -> Result<(std_mpsc::Sender<JournalJob>, Arc<Drafts>), CoreError> {
    let journal = Journal::open(&data_dir.join("journal.sqlite3"))?;
    let drafts = Drafts::open(&data_dir.join("drafts.sqlite3"))?;
    let (journal_tx, journal_rx) = std_mpsc::channel();
    std::thread::Builder::new()
        .name("license-desk-journal".to_owned())
        .spawn(move || journal_thread(journal, journal_rx))
        .map_err(|e| CoreError::Threads(Arc::new(e)))?;
    Ok((journal_tx, Arc::new(drafts)))
}

/// Starts the Sandbox platform and tells `sandbox_tx` how it went; it runs until `stop_rx`.
fn start_sandbox(
    dir: std::path::PathBuf,
    secrets: Arc<Secrets>,
    state: Arc<RwLock<CoreState>>,
    outbox: Arc<Outbox>,
    sandbox_tx: watch::Sender<Option<Result<SandboxAccess, Arc<SandboxError>>>>,
    mut stop_rx: watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        match Sandbox::start(dir, secrets).await {
            Ok(sandbox) => {
                let access = SandboxAccess {
                    base_url: sandbox.base_url.clone(),
                    app_key: sandbox.app_key.clone(),
                    app_secret: sandbox.app_secret.clone(),
                };
                update_state(&state, |s| {
                    s.sandbox = SandboxState::Ready {
                        base_url: access.base_url.clone(),
                    }
                });
                // No one waits for the Sandbox when the core is stopping.
                let _ = sandbox_tx.send(Some(Ok(access)));
                outbox.wake();
                // Its sender gone is a stop too.
                let _ = stop_rx.wait_for(|s| *s).await;
                sandbox.stop().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "the Sandbox did not start");
                update_state(&state, |s| s.sandbox = SandboxState::Failed(e.to_string()));
                // No one waits for the Sandbox when the core is stopping.
                let _ = sandbox_tx.send(Some(Err(Arc::new(e))));
                outbox.wake();
            }
        }
    })
}

fn lock_running(
    running: &std::sync::Mutex<HashMap<RequestId, watch::Sender<bool>>>,
) -> std::sync::MutexGuard<'_, HashMap<RequestId, watch::Sender<bool>>> {
    running.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Without its files the core cannot work: every request is answered with why.
async fn fail_all(
    mut commands: mpsc::UnboundedReceiver<(RequestId, Work)>,
    state: &RwLock<CoreState>,
    outbox: &Outbox,
    why: CoreError,
) {
    tracing::error!(%why, "the core cannot start");
    while let Some((id, work)) = commands.recv().await {
        if let Work::Job(job) = work {
            job.fail(why.clone());
            ended(state, id);
            outbox.wake();
        }
    }
}

/// The request `id` has ended: no longer listed among the calls running.
fn ended(state: &RwLock<CoreState>, id: RequestId) {
    update_state(state, |s| s.calls.retain(|c| c.id != id));
}

pub(super) fn update_state(state: &RwLock<CoreState>, f: impl FnOnce(&mut CoreState)) {
    f(&mut state.write().unwrap_or_else(PoisonError::into_inner));
}

impl Service {
    /// The person signed in to a team server's profile, if one is.
    pub(in crate::core) fn signed_in_as(&self, profile: &str) -> Option<String> {
        let state = self
            .state
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let me = state.sessions.get(profile)?.me()?;
        Some(me.person.name.clone())
    }

    /// The profile named so, if there is one.
    pub(in crate::core) fn profile(&self, name: &str) -> Option<Profile> {
        self.profiles().get(name).cloned()
    }

    /// One write of the ledger, if it holds it.
    pub(in crate::core) async fn ledger_write(
        &self,
        call_id: String,
    ) -> Result<Option<super::ledger::LedgerEntry>, CoreError> {
        self.journal(move |j| j.write(&call_id)).await
    }

    /// A file of the console's own beside the profiles (in the configuration folder).
    pub(in crate::core) fn config_file(&self, name: &str) -> PathBuf {
        self.profiles_path.with_file_name(name)
    }

    /// The name of the profile active now.
    pub(in crate::core) fn active_profile(&self) -> String {
        self.profiles().active().name.clone()
    }

    fn profiles(&self) -> Profiles {
        self.state
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .profiles
            .clone()
    }

    /// Whether the profile is a team server's (read in place: every call asks it).
    pub(in crate::core) fn is_team(&self, name: &str) -> bool {
        let state = self.state.read().unwrap_or_else(PoisonError::into_inner);
        state.profiles.get(name).is_some_and(Profile::is_team)
    }

    /// Does a request and answers it, waking the window.
    async fn work(self: &Arc<Self>, id: RequestId, job: Box<dyn Job>, outbox: &Outbox) {
        job.run(Arc::clone(self)).await;
        ended(&self.state, id);
        outbox.wake();
    }

    /// Does `work`, which talks to `profile` if named: a team server's session found ended is
    /// forgotten, whatever found it.
    pub(in crate::core) async fn watched<T>(
        &self,
        profile: Option<&str>,
        work: impl Future<Output = Result<T, CoreError>>,
    ) -> Result<T, CoreError> {
        let team = profile.filter(|p| self.is_team(p)).map(str::to_owned);
        let result = work.await;
        if let (Some(profile), Err(CoreError::Api(e))) = (&team, &result)
            && e.session_ended()
        {
            self.session_ended(profile).await;
        }
        result
    }

    /// The journal's entries, or none when it cannot be read (said in the log): what was sent
    /// only adds to what the platform gave.
    pub(in crate::core) async fn journal_entries(
        &self,
        filter: JournalFilter,
    ) -> Vec<super::journal::JournalEntry> {
        match self.journal(move |j| j.query(&filter)).await {
            Ok(entries) => entries,
            Err(e) => {
                tracing::warn!(error = %e, "the journal cannot be read");
                Vec::new()
            }
        }
    }

    /// Reads or settles the journal on its thread; a failure is the storage's.
    pub(in crate::core) async fn journal<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Journal) -> Result<T, JournalError> + Send + 'static,
    ) -> Result<T, CoreError> {
        Ok(self.on_journal(work).await??)
    }

    /// Runs `work` on the journal's thread, after what was sent to it before, and answers
    /// what it gave.
    pub(in crate::core) async fn on_journal<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Journal) -> T + Send + 'static,
    ) -> Result<T, CoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.journal_job(JournalJob::Run(Box::new(move |journal| {
            // The asker may have stopped waiting; the work is done either way.
            let _ = reply.send(work(journal));
        })))?;
        answer.await.map_err(|_| CoreError::Stopped)
    }

    fn journal_job(&self, job: JournalJob) -> Result<(), CoreError> {
        self.journal.send(job).map_err(|_| CoreError::Stopped)
    }

    /// A remote profile's app secret: the one given for this run, else the keyring's. The flag
    /// says whether its tokens may be kept in the keyring.
    async fn remote_secret(&self, profile_name: &str) -> Result<(client::Secret, bool), CoreError> {
        if let Some(given) = self.run_secrets.lock().await.get(profile_name) {
            return Ok((given.clone(), false));
        }
        let secrets = Arc::clone(&self.secrets);
        let name = profile_name.to_owned();
        let secret = tokio::task::spawn_blocking(move || secrets.app_secret(&name))
            .await?
            .ok_or_else(|| CoreError::NoSecret(profile_name.to_owned()))?;
        Ok((secret, true))
    }

    /// Where the profile's calls go and with what; whether its tokens may be kept in the
    /// keyring (not those of a secret given for one run).
    async fn client_config(&self, profile: &Profile) -> Result<(ClientConfig, bool), CoreError> {
        let mut keep_tokens = true;
        let config = match &profile.endpoint {
            Endpoint::Sandbox => {
                let mut rx = self.sandbox.clone();
                let ready = rx
                    .wait_for(Option::is_some)
                    .await
                    .map_err(|_| SandboxError::Stopped)?
                    .clone();
                match ready {
                    Some(Ok(access)) => {
                        ClientConfig::new(&access.base_url, &access.app_key, access.app_secret)
                    }
                    Some(Err(e)) => return Err(CoreError::Sandbox(Arc::clone(&e))),
                    None => return Err(SandboxError::Stopped.into()),
                }
            }
            Endpoint::Remote {
                base_url,
                token_url,
                app_key,
                ca_file,
            } => {
                let (secret, keep) = self.remote_secret(&profile.name).await?;
                keep_tokens = keep;
                let mut config = ClientConfig::new(base_url, app_key, secret);
                config.token_url = token_url.trim().to_owned();
                config.ca_file.clone_from(ca_file);
                config
            }
            Endpoint::Team { url, user, ca_file } => {
                // A password given for one run signs in for that run only (below).
                keep_tokens = !self.run_secrets.lock().await.contains_key(&profile.name);
                let mut config = ClientConfig::team(url, user);
                config.ca_file.clone_from(ca_file);
                config
            }
        };
        Ok((config, keep_tokens))
    }

    /// The profile's client, built once (its token lives in it and in the keyring).
    pub(in crate::core) async fn client(
        &self,
        profile_name: &str,
    ) -> Result<Arc<Client>, CoreError> {
        if let Some(c) = self.clients.lock().await.get(profile_name) {
            return Ok(Arc::clone(c));
        }
        let profile = self
            .profiles()
            .get(profile_name)
            .cloned()
            .ok_or_else(|| ProfilesError::NoProfile(profile_name.to_owned()))?;
        let (config, keep_tokens) = self.client_config(&profile).await?;
        let config = ClientConfig {
            repeats_recognised: profile.recognises_repeats(),
            limits: profile.limits,
            insecure_http: profile.insecure_http,
            ..config
        };
        let issuer = token_issuer(&config.token_url, &config.base_url, &config.app_key);
        let observer = Arc::new(ProfileObserver {
            profile: profile.name.clone(),
            journal: self.journal.clone(),
            secrets: Arc::clone(&self.secrets),
            keep_tokens,
            issuer: issuer.clone(),
        });
        // Built off the runtime: it reads the profile's CA file, if it has one.
        let client = tokio::task::spawn_blocking(move || Client::new(config, observer)).await??;
        let client = Arc::new(client);
        if !keep_tokens && profile.is_team() {
            self.sign_in_for_run(&profile.name, &client).await?;
        }
        // A secret given for one run starts without the keyring's token: that one may belong
        // to another secret, and this run leaves the keyring as it found it.
        if keep_tokens {
            let secrets = Arc::clone(&self.secrets);
            let name = profile.name.clone();
            let cached = tokio::task::spawn_blocking(move || secrets.token(&name, &issuer))
                .await
                .ok()
                .flatten();
            client.set_cached_token(cached).await;
        }
        self.clients
            .lock()
            .await
            .insert(profile.name.clone(), Arc::clone(&client));
        Ok(client)
    }
}
