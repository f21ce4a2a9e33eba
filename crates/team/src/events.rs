//! What changed among the requests, for consoles that wait to hear it (`GET /team/v1/events`,
//! a long poll): a fingerprint of the requests table, read by one task per instance every
//! [`EVERY`], so that a request filed or decided on any instance of one store is heard within
//! a second or so, at one small query per instance and none per waiting console.

use std::time::Duration;

use tokio::sync::watch;

use crate::error::TeamError;
use crate::store::TeamStore;

/// How often an instance reads the fingerprint.
pub const EVERY: Duration = Duration::from_secs(1);

/// The longest a console waits for a change in one call.
pub const LONGEST_WAIT: Duration = Duration::from_secs(25);

/// The requests' fingerprint as last read; a waiting console wakes when it changes.
#[derive(Clone)]
pub struct Events {
    now: watch::Receiver<String>,
    /// Set when the server stops: every wait answers at once, so that stopping does not wait
    /// out the consoles' long polls.
    stopping: std::sync::Arc<watch::Sender<bool>>,
}

impl Events {
    /// Starts reading the fingerprint; the reading stops when every `Events` is dropped.
    pub fn start(store: TeamStore) -> Events {
        let (tx, now) = watch::channel(String::new());
        tokio::spawn(async move {
            loop {
                match fingerprint(&store).await {
                    Ok(read) => {
                        tx.send_if_modified(|kept| {
                            let changed = *kept != read;
                            if changed {
                                kept.clone_from(&read);
                            }
                            changed
                        });
                    }
                    Err(e) => tracing::warn!(error = %e, "the requests' changes could not be read"),
                }
                tokio::select! {
                    () = tokio::time::sleep(EVERY) => {}
                    () = tx.closed() => return,
                }
            }
        });
        let (stopping, _) = watch::channel(false);
        Events {
            now,
            stopping: std::sync::Arc::new(stopping),
        }
    }

    /// The server stops: waits answer now.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// The fingerprint once it differs from `after` (at once when it does), or as it is after
    /// `wait`.
    pub async fn after(&self, after: &str, wait: Duration) -> String {
        let mut now = self.now.clone();
        let mut stopping = self.stopping.subscribe();
        let changed = async {
            tokio::select! {
                _ = now.wait_for(|f| !f.is_empty() && f != after) => {}
                _ = stopping.wait_for(|s| *s) => {}
            }
        };
        // Waiting out the time is the usual answer: nothing changed.
        if tokio::time::timeout(wait.min(LONGEST_WAIT), changed)
            .await
            .is_err()
        {
            tracing::trace!("no change among the requests while a console waited");
        }
        self.now.borrow().clone()
    }
}

/// How many requests there are, the newest, and how many are decided, ended and waiting:
/// filing, deciding and settling each change it.
async fn fingerprint(store: &TeamStore) -> Result<String, TeamError> {
    store
        .read(|tx| {
            let row = tx.query_one(
                "SELECT COUNT(*), COALESCE(MAX(seq), 0), COUNT(decided_at), COUNT(ended_at), \
                     COALESCE(SUM(CASE WHEN state = 'pending' THEN 1 ELSE 0 END), 0) \
                 FROM requests",
                &[],
                |r| Ok([r.i64(0)?, r.i64(1)?, r.i64(2)?, r.i64(3)?, r.i64(4)?]),
            )?;
            Ok(row.map(|n| n.to_string()).join("."))
        })
        .await
}
