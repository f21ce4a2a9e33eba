//! State shared by every request: the store, the token issuer, and the platform's settings.

use std::sync::{Arc, PoisonError, RwLock};

use rusqlite::Transaction;
use tokio::sync::Notify;

use super::activities::Activities;
use super::auth::Tokens;
use super::error::OpError;
use super::store::Store;

pub struct Shared {
    pub store: Store,
    /// Tokens and used nonces, apart from `store` (see `auth_store`).
    pub auth: Store,
    pub tokens: Tokens,
    /// First digit of asset numbers.
    pub region: u8,
    pub nonce_window_ms: i64,
    /// Woken when an async batch is stored, so the worker applies it at once.
    pub pending_batches: Notify,
    /// The activities in force; replaced whole when the file is read again.
    pub activities: RwLock<Arc<Activities>>,
    /// A request's body must have arrived within this.
    pub body_timeout: std::time::Duration,
    /// Failed token requests, by app key and by client address.
    pub token_failures: TokenFailures,
    /// Quotas on asset numbers for applications without their own.
    pub number_quota: super::quotas::NumberQuota,
    /// Claim attempts by identity, per minute.
    pub claims: super::throttle::Throttle,
}

/// Token requests with a wrong key or secret: 10 a minute per app key, 30 per address.
pub struct TokenFailures {
    pub by_app: super::throttle::Throttle,
    pub by_address: super::throttle::Throttle,
}

impl Default for TokenFailures {
    fn default() -> Self {
        let minute = std::time::Duration::from_secs(60);
        Self {
            by_app: super::throttle::Throttle::new(10, minute),
            by_address: super::throttle::Throttle::new(30, minute),
        }
    }
}

pub type AppState = Arc<Shared>;

impl Shared {
    pub fn activities(&self) -> Arc<Activities> {
        Arc::clone(
            &self
                .activities
                .read()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    pub fn set_activities(&self, activities: Activities) {
        *self
            .activities
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Arc::new(activities);
    }

    /// Runs `f` in a write transaction on the store's writer thread.
    pub async fn write<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&Transaction<'_>, &Shared) -> Result<T, OpError> + Send + 'static,
    ) -> Result<T, OpError> {
        let me = Arc::clone(self);
        self.store.write(move |tx| f(tx, &me)).await
    }

    /// Runs `f` in a write transaction of the token and nonce store.
    pub async fn write_auth<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&Transaction<'_>, &Shared) -> Result<T, OpError> + Send + 'static,
    ) -> Result<T, OpError> {
        let me = Arc::clone(self);
        self.auth.write(move |tx| f(tx, &me)).await
    }

    /// Runs `f` in a read transaction off the async threads.
    pub async fn read<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&Transaction<'_>, &Shared) -> Result<T, OpError> + Send + 'static,
    ) -> Result<T, OpError> {
        let me = Arc::clone(self);
        tokio::task::spawn_blocking(move || me.store.read(|tx| f(tx, &me)))
            .await
            .map_err(|e| OpError::Internal(format!("storage task failed: {e}")))?
    }
}
