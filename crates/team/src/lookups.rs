//! Customers the platform knows by their channel, looked up to learn which customer and
//! enterprise a call that names only a channel's customer touches. Kept briefly: a customer's
//! ids and enterprise rarely change, and a batch names the same customer in many orders.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use client::{ApiError, Client};
use wire::{Customer, CustomerQuery, DefaultFilter};

/// How long a lookup is reused.
pub const KEPT_FOR: Duration = Duration::from_secs(30);

/// Lookups kept at most; all are forgotten when more would be.
const MAX_KEPT: usize = 10_000;

type Found = (Instant, Vec<Customer>);

#[derive(Default)]
pub struct Lookups {
    kept: Mutex<HashMap<(String, String), Found>>,
}

impl Lookups {
    /// The customers of `channel` whose id there is `id`.
    pub async fn channel_customers(
        &self,
        upstream: &Client,
        channel: &str,
        id: &str,
    ) -> Result<Vec<Customer>, ApiError> {
        let key = (channel.to_owned(), id.to_owned());
        if let Some(found) = self.fresh(&key) {
            return Ok(found);
        }
        let query = CustomerQuery {
            channel_code: Some(key.0.clone()),
            channel_customer_id: Some(key.1.clone()),
            default_customer: Some(DefaultFilter::N),
        };
        let found = upstream.query_customers(&query).await?;
        self.keep(key, found.clone());
        Ok(found)
    }

    fn fresh(&self, key: &(String, String)) -> Option<Vec<Customer>> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        let (at, found) = kept.get(key)?;
        (at.elapsed() < KEPT_FOR).then(|| found.clone())
    }

    fn keep(&self, key: (String, String), found: Vec<Customer>) {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if kept.len() >= MAX_KEPT {
            kept.clear();
        }
        kept.insert(key, (Instant::now(), found));
    }
}
