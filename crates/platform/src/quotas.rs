//! Quotas on what one application may take of the asset-number space, per minute and per UTC
//! day. The usage is counted in the database, in the transaction that hands the numbers out:
//! exact under concurrency (one writer), kept across restarts, and undone with a refused call.
//!
//! Windows are whole clock minutes and UTC days, so that a refusal can say when its window
//! ends. The price: up to twice a minute's quota across a minute's boundary.

use serde::Serialize;

use super::error::OpError;
use super::sql::{self, StoreError};

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// The platform's quotas on asset numbers, for applications without their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberQuota {
    pub per_minute: u32,
    pub per_day: u32,
}

impl Default for NumberQuota {
    /// A minute holds the largest batch's 20,000 asset numbers; a day ten such batches.
    fn default() -> Self {
        Self {
            per_minute: 20_000,
            per_day: 200_000,
        }
    }
}

/// An application's own quotas; `None` is the platform's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnQuota {
    pub quota_numbers_per_minute: Option<u32>,
    pub quota_numbers_per_day: Option<u32>,
}

/// A change of an application's own quotas: a field left `None` stays as it is;
/// `Some(None)` goes back to the platform's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QuotaChange {
    pub numbers_per_minute: Option<Option<u32>>,
    pub numbers_per_day: Option<Option<u32>>,
}

impl QuotaChange {
    pub fn apply(self, to: OwnQuota) -> OwnQuota {
        OwnQuota {
            quota_numbers_per_minute: self
                .numbers_per_minute
                .unwrap_or(to.quota_numbers_per_minute),
            quota_numbers_per_day: self.numbers_per_day.unwrap_or(to.quota_numbers_per_day),
        }
    }
}

/// One window of a quota, as stored and as named in a refusal.
struct Window {
    kind: &'static str,
    per: &'static str,
    length: i64,
    limit: u32,
}

/// Counts `n` asset numbers against the application's quotas, or refuses the whole call when
/// either window would go over (the caller's transaction then writes nothing).
pub fn charge_numbers(
    tx: &dyn sql::Tx,
    app_key: &str,
    n: i64,
    defaults: NumberQuota,
    now: i64,
) -> Result<(), OpError> {
    // Read, decide, write on the application's usage rows: on PostgreSQL its calls wait for
    // each other here instead of failing to serialize and running again (docs/postgres.md).
    tx.serialize_on(&format!("usage:{app_key}"))?;
    let own = own_quota(tx, app_key)?.unwrap_or_default();
    // Minute first, then day: when both are over, the day's refusal (the later reset) is the
    // one that tells the caller how long to wait.
    let windows = [
        Window {
            kind: "numbers/minute",
            per: "a minute",
            length: MINUTE_MS,
            limit: own.quota_numbers_per_minute.unwrap_or(defaults.per_minute),
        },
        Window {
            kind: "numbers/day",
            per: "a day (UTC)",
            length: DAY_MS,
            limit: own.quota_numbers_per_day.unwrap_or(defaults.per_day),
        },
    ];
    let mut refusal = None;
    let mut charges = Vec::with_capacity(windows.len());
    for window in &windows {
        let start = now - now.rem_euclid(window.length);
        let used = used_in(tx, app_key, window.kind, start)?;
        if used + n > i64::from(window.limit) {
            refusal = Some(over_quota(window, used, n, start + window.length, now));
        }
        charges.push((window.kind, start, used + n));
    }
    if let Some(refusal) = refusal {
        return Err(refusal);
    }
    for (kind, start, used) in charges {
        tx.execute(
            "INSERT INTO app_usage(app_key, window_kind, window_start, used) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT(app_key, window_kind) DO UPDATE SET window_start = excluded.window_start, used = excluded.used",
            &[app_key.into(), kind.into(), start.into(), used.into()],
        )?;
    }
    Ok(())
}

/// What the application has taken in the window that started at `start`.
fn used_in(tx: &dyn sql::Tx, app_key: &str, kind: &str, start: i64) -> Result<i64, StoreError> {
    let used = tx.query_opt(
        "SELECT used FROM app_usage WHERE app_key = ?1 AND window_kind = ?2 AND window_start = ?3",
        &[app_key.into(), kind.into(), start.into()],
        |r| r.i64(0),
    )?;
    Ok(used.unwrap_or(0))
}

fn over_quota(window: &Window, used: i64, asked: i64, resets: i64, now: i64) -> OpError {
    let left = (i64::from(window.limit) - used).max(0);
    OpError::Invalid {
        message: format!(
            "size: over the quota of asset numbers, {} {} for this application: {} asked, {} left; the quota resets at {}",
            grouped(i64::from(window.limit)),
            window.per,
            grouped(asked),
            grouped(left),
            resets_at(resets, now)
        ),
        cause: "quota exceeded; nothing was allocated".to_owned(),
    }
}

/// The application's own quotas, if the application exists.
pub fn own_quota(tx: &dyn sql::Tx, app_key: &str) -> Result<Option<OwnQuota>, StoreError> {
    tx.query_opt(
        "SELECT quota_numbers_per_minute, quota_numbers_per_day FROM apps WHERE app_key = ?1",
        &[app_key.into()],
        |r| {
            Ok(OwnQuota {
                quota_numbers_per_minute: sql::opt_u32(r.opt_i64(0)?)?,
                quota_numbers_per_day: sql::opt_u32(r.opt_i64(1)?)?,
            })
        },
    )
}

/// Stores the application's own quotas; false when there is no such application.
pub fn set_own_quota(tx: &dyn sql::Tx, app_key: &str, quota: OwnQuota) -> Result<bool, StoreError> {
    let changed = tx.execute(
        "UPDATE apps SET quota_numbers_per_minute = ?2, quota_numbers_per_day = ?3 WHERE app_key = ?1",
        &[
            app_key.into(),
            quota.quota_numbers_per_minute.into(),
            quota.quota_numbers_per_day.into(),
        ],
    )?;
    Ok(changed == 1)
}

/// `2026-11-23T10:16:00Z, in 37 s`: when a window ends, in UTC and from now, both rounded up
/// to whole seconds, so that a caller who waits that long is let through.
pub fn resets_at(resets: i64, now: i64) -> String {
    let at = resets + (1000 - resets.rem_euclid(1000)) % 1000;
    let seconds = (at - now + 999).div_euclid(1000).max(1);
    let shown = jiff::Timestamp::from_millisecond(at)
        .map(|t| t.to_string())
        .unwrap_or_else(|_| format!("{at} ms since 1970"));
    format!("{shown}, in {seconds} s")
}

/// `20,000`
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(20_000), "20,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(-1500), "-1,500");
    }

    #[test]
    fn a_reset_is_shown_in_utc_and_in_whole_seconds_from_now() {
        // 2026-11-23T10:15:23.400Z
        let now = 1_795_428_923_400;
        let next_minute = 1_795_428_960_000;
        assert_eq!(resets_at(next_minute, now), "2026-11-23T10:16:00Z, in 37 s");
        assert_eq!(resets_at(now + 1, now), "2026-11-23T10:15:24Z, in 1 s");
        assert_eq!(resets_at(now + 1700, now), "2026-11-23T10:15:26Z, in 3 s");
    }
}
