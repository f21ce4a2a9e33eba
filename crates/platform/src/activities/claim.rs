//! Claiming an activity: who the participant is, which filters and units let them through, and
//! the products granted. Runs in one write transaction, so counts are exact under concurrency.

use super::definition::{ActivateType, Activity, IdentityKind, Unit};
use crate::error::OpError;
use crate::sql::{self, StoreError};
use wire::activity::{BAD_IDENTITY, CLAIMED, FILTERED, NOT_ELIGIBLE};
use wire::validate::{is_email, is_mobile};
use wire::{
    ActivityDto, ActivityResponse, ClaimDetail, ClaimedProduct, LicenseType, SubActivityDto,
};

const DAY_MS: i64 = 24 * 3600 * 1000;

/// Unit error codes (2.7): why a unit cannot be claimed.
pub const NOT_STARTED: i32 = 14001;
pub const ENDED: i32 = 14002;
pub const KIND_NOT_ACCEPTED: i32 = 14003;
pub const NO_STOCK: i32 = 14004;
pub const CLAIM_LIMIT: i32 = 14005;

/// A claim's fields, checked and trimmed.
pub struct ClaimInput<'a> {
    pub identity: &'a str,
    pub source: &'a str,
    pub branch: &'a str,
    pub app_key: &'a str,
}

/// Claims every unit of `activity` the participant may claim; the answer is one of 0000, 1004,
/// 2001 and 3002.
pub fn claim(
    tx: &dyn sql::Tx,
    activity: &Activity,
    input: &ClaimInput<'_>,
    now: i64,
) -> Result<ActivityResponse, OpError> {
    // Claims of one activity wait for each other: each counts the claims before it (stock,
    // limits per participant). Claims of different activities run side by side.
    tx.serialize_on(&format!("claim:{}", activity.id.as_str()))?;
    let Some((kind, asset)) = identify(tx, input.identity)? else {
        return Ok(ActivityResponse::failure(
            BAD_IDENTITY,
            format!(
                "identity: {:?} is not a mobile number (1 and 10 digits), an e-mail address, a known enterprise global id or a known lock asset number",
                input.identity
            ),
        ));
    };
    if let Some(rule) = filtered(activity, input) {
        return Ok(ActivityResponse::failure(FILTERED, rule));
    }
    // E-mail addresses are counted case-insensitively: one person, one count.
    let key = match kind {
        IdentityKind::Email => input.identity.to_lowercase(),
        _ => input.identity.to_owned(),
    };

    let mut verdicts = Vec::with_capacity(activity.units.len());
    for unit in &activity.units {
        verdicts.push(verdict(tx, activity, unit, kind, &key, now)?);
    }
    if verdicts.iter().all(Option::is_some) {
        let units = activity
            .units
            .iter()
            .zip(verdicts)
            .map(|(unit, why)| {
                let (code, message) = why.unwrap_or_default();
                SubActivityDto {
                    id: unit.id.as_str().to_owned(),
                    name: unit.name.clone(),
                    participate_result: false,
                    error_code: Some(code),
                    error_message: Some(message),
                }
            })
            .collect();
        return Ok(ActivityResponse {
            result_code: NOT_ELIGIBLE.to_owned(),
            result_message: format!(
                "the participant meets the conditions of no unit of activity {}",
                activity.id.as_str()
            ),
            detail: None,
            activity_dto_list: Some(vec![ActivityDto {
                id: activity.id.as_str().to_owned(),
                name: activity.name.clone(),
                participate_result: false,
                engine_sub_activity_dtos: units,
            }]),
        });
    }

    let mut products = Vec::new();
    for (unit, why) in activity.units.iter().zip(verdicts) {
        if why.is_none() {
            products.extend(grant(tx, activity, unit, kind, &key, asset, input, now)?);
        }
    }
    Ok(ActivityResponse {
        result_code: CLAIMED.to_owned(),
        result_message: "success".to_owned(),
        detail: Some(ClaimDetail { products }),
        activity_dto_list: None,
    })
}

/// The kind of the identity and, for a lock, its asset row. Known records come first: an
/// enterprise global id, then a lock's asset number, then a mobile number, then an e-mail.
fn identify(
    tx: &dyn sql::Tx,
    identity: &str,
) -> Result<Option<(IdentityKind, Option<i64>)>, StoreError> {
    let enterprise = tx.query_one(
        "SELECT EXISTS(SELECT 1 FROM enterprises WHERE global_id = ?1)",
        &[identity.into()],
        |r| r.bool(0),
    )?;
    if enterprise {
        return Ok(Some((IdentityKind::Enterprise, None)));
    }
    let asset = tx.query_opt(
        "SELECT id, license_type FROM assets WHERE asset_num = ?1",
        &[identity.into()],
        |r| Ok((r.i64(0)?, r.text(1)?)),
    )?;
    if let Some((id, license_type)) = asset
        && LicenseType::parse(&license_type).is_some_and(LicenseType::is_usbkey)
    {
        return Ok(Some((IdentityKind::Lock, Some(id))));
    }
    if is_mobile(identity) {
        return Ok(Some((IdentityKind::Mobile, None)));
    }
    if is_email(identity) {
        return Ok(Some((IdentityKind::Email, None)));
    }
    Ok(None)
}

/// The activity-level filter rule the claim breaks, in words.
fn filtered(activity: &Activity, input: &ClaimInput<'_>) -> Option<String> {
    let rule = |field: &str, list: &str, value: &str, allowed: &Option<Vec<String>>| {
        let allowed = allowed.as_ref()?;
        if allowed.iter().any(|a| a == value) {
            return None;
        }
        Some(format!(
            "{field}: {value:?} is not among the {list} allowed for activity {} ({})",
            activity.id.as_str(),
            allowed.join(", ")
        ))
    };
    rule("source", "sources", input.source, &activity.sources)
        .or_else(|| rule("branch", "branches", input.branch, &activity.branches))
}

/// Why the participant cannot claim `unit`, or `None` if they can.
fn verdict(
    tx: &dyn sql::Tx,
    activity: &Activity,
    unit: &Unit,
    kind: IdentityKind,
    key: &str,
    now: i64,
) -> Result<Option<(i32, String)>, StoreError> {
    if now < activity.start_time {
        return Ok(Some((
            NOT_STARTED,
            format!(
                "the activity has not started; it starts at {}",
                activity.start_time
            ),
        )));
    }
    if now > activity.end_time {
        return Ok(Some((
            ENDED,
            format!("the activity ended at {}", activity.end_time),
        )));
    }
    if let Some(kinds) = &unit.identity_kinds
        && !kinds.contains(&kind)
    {
        return Ok(Some((
            KIND_NOT_ACCEPTED,
            format!("this unit does not accept {} identities", kind.as_str()),
        )));
    }
    if let Some(stock) = unit.stock {
        let claimed = tx.query_one(
            "SELECT count(*) FROM claims WHERE activity_id = ?1 AND unit_id = ?2",
            &[activity.id.as_str().into(), unit.id.as_str().into()],
            |r| r.i64(0),
        )?;
        if u64::try_from(claimed).unwrap_or(u64::MAX) >= stock {
            return Ok(Some((
                NO_STOCK,
                if stock == 0 {
                    "no stock: this unit has nothing to give".to_owned()
                } else {
                    format!("no stock left: all {stock} have been claimed")
                },
            )));
        }
    }
    let mine = tx.query_one(
        "SELECT count(*) FROM claims WHERE activity_id = ?1 AND unit_id = ?2 AND identity = ?3",
        &[
            activity.id.as_str().into(),
            unit.id.as_str().into(),
            key.into(),
        ],
        |r| r.i64(0),
    )?;
    let max = unit.max_claims_per_identity.get();
    if u32::try_from(mine).unwrap_or(u32::MAX) >= max {
        return Ok(Some((
            CLAIM_LIMIT,
            format!("personal claim count exceeded: at most {max} per participant"),
        )));
    }
    Ok(None)
}

/// Records the claim of one unit and, for a lock, puts its products on the lock.
#[allow(clippy::too_many_arguments)]
fn grant(
    tx: &dyn sql::Tx,
    activity: &Activity,
    unit: &Unit,
    kind: IdentityKind,
    key: &str,
    asset: Option<i64>,
    input: &ClaimInput<'_>,
    now: i64,
) -> Result<Vec<ClaimedProduct>, OpError> {
    let products: Vec<ClaimedProduct> = unit
        .products
        .iter()
        .map(|p| ClaimedProduct {
            activity_id: activity.id.as_str().to_owned(),
            sub_activity_id: unit.id.as_str().to_owned(),
            product_uri: p.product_uri.as_str().to_owned(),
            limit_start_date: now.to_string(),
            limit_end_date: (now + i64::from(p.valid_days.get()) * DAY_MS).to_string(),
            activate_type: p.activate_type.as_str().to_owned(),
        })
        .collect();
    let claim = tx.query_one(
        "INSERT INTO claims(activity_id, unit_id, identity, identity_kind, source, branch, app_key, \
         claimed_at, products) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id",
        &[
            activity.id.as_str().into(),
            unit.id.as_str().into(),
            key.into(),
            kind.as_str().into(),
            input.source.into(),
            input.branch.into(),
            input.app_key.into(),
            now.into(),
            serde_json::to_string(&products)?.as_str().into(),
        ],
        |r| r.i64(0),
    )?;
    if let Some(asset) = asset {
        for (p, def) in products.iter().zip(&unit.products) {
            tx.execute(
                "INSERT INTO products(asset_id, product_uri, limit_start, limit_end, awaiting_activation, \
                 entry, created_at, claim_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                &[
                    asset.into(),
                    (&p.product_uri).into(),
                    now.into(),
                    (now + i64::from(def.valid_days.get()) * DAY_MS).into(),
                    (def.activate_type == ActivateType::Later).into(),
                    serde_json::to_string(p)?.as_str().into(),
                    now.into(),
                    claim.into(),
                ],
            )?;
        }
    }
    Ok(products)
}
