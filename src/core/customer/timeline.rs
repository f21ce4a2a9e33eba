//! The page's timeline: the calls that touched the enterprise (its batches, claims, lock
//! changes and customer changes), newest first: this console's journal, and on a team
//! server's profile the server's audit log as far as the person may see it (everyone's calls
//! for an administrator). A call in both is one event, with its person. An event of the
//! journal keeps its entry's id, so that it opens in History.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::core::WriteState;
use crate::core::journal::JournalEntry;
use crate::core::team::AuditEntry;
use wire::{
    AssetEntry, BatchOrderRequest, BindRequest, ClaimRequest, EnterpriseRequest, LockRequest,
    MerchandiseEntry, OrderEntry, OrderType,
};

/// One call that touched the enterprise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// The journal entry, for its detail in History; none for another console's call.
    pub entry_id: Option<i64>,
    /// Who made it, by the team server's audit log.
    pub person: Option<String>,
    /// The call's id, shared by the journal and the audit log.
    pub call_id: Option<String>,
    pub at: i64,
    pub operation: String,
    /// A write's standing in the ledger (done, refused, outcome unknown…).
    pub state: Option<WriteState>,
    /// The platform's code, when it answered.
    pub code: Option<String>,
    /// The platform's refusal or why no answer came, in its words.
    pub message: Option<String>,
    pub what: What,
}

/// What the call did to the enterprise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum What {
    /// A batch: its orders for this enterprise, their kinds, the assets and the products they
    /// granted or removed.
    Batch {
        channel_order_id: String,
        kinds: Vec<OrderType>,
        orders: u32,
        assets: Vec<String>,
        products: Vec<String>,
    },
    /// Locks disabled (`disable`) or enabled.
    Locks {
        disable: bool,
        assets: Vec<String>,
    },
    Claim {
        identity: String,
        activity: String,
    },
    /// A customer bound, an enterprise created, or its name and address changed.
    Customer {
        name: String,
    },
}

impl What {
    /// In plain English words, for the command line and the exported page.
    pub fn summary(&self) -> String {
        match self {
            What::Batch {
                channel_order_id,
                kinds,
                assets,
                products,
                ..
            } => {
                let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
                format!(
                    "batch {channel_order_id} ({}): assets {}; products {}",
                    kinds.join(", "),
                    assets.join(", "),
                    products.join(", ")
                )
            }
            What::Locks { disable, assets } => {
                let verb = if *disable { "disabled" } else { "enabled" };
                format!("{verb} {}", assets.join(", "))
            }
            What::Claim { identity, activity } => format!("claimed {activity} for {identity}"),
            What::Customer { name } => format!("customer {name}"),
        }
    }
}

/// What marks a call as the enterprise's.
#[derive(Debug, Default)]
pub struct Keys<'a> {
    pub global_id: &'a str,
    pub customer_ids: HashSet<&'a str>,
    pub channel_customer_ids: HashSet<&'a str>,
    pub crm_customer_ids: HashSet<&'a str>,
    pub assets: HashSet<&'a str>,
}

impl Keys<'_> {
    fn order(&self, o: &OrderEntry) -> bool {
        let has =
            |set: &HashSet<&str>, v: &Option<String>| v.as_deref().is_some_and(|v| set.contains(v));
        o.enterprise_global_id.as_deref() == Some(self.global_id)
            || has(&self.customer_ids, &o.customer_id)
            || has(&self.channel_customer_ids, &o.channel_customer_id)
            || has(&self.crm_customer_ids, &o.crm_customer_id)
            || o.assets
                .iter()
                .flat_map(|a| &a.asset_nos)
                .any(|n| self.assets.contains(n.as_str()))
    }
}

/// The entries (newest first, as the journal gives them) that touched the enterprise.
pub fn events_of<'e>(
    entries: impl IntoIterator<Item = &'e JournalEntry>,
    keys: &Keys,
) -> Vec<Event> {
    entries
        .into_iter()
        .filter_map(|e| {
            let (request, answer) = (e.request.as_deref(), e.response.as_deref());
            let what = what_of(e.operation.name(), request, answer, keys)?;
            Some(Event {
                entry_id: Some(e.id),
                person: None,
                call_id: e.call_id.clone(),
                at: e.at,
                operation: e.operation.name().to_owned(),
                state: e.state,
                code: e.code.clone(),
                message: e.refusal.clone().or_else(|| e.error.clone()),
                what,
            })
        })
        .collect()
}

/// The team server's audit entries that touched the enterprise.
pub fn events_of_audit(entries: &[AuditEntry], keys: &Keys) -> Vec<Event> {
    entries
        .iter()
        .filter_map(|e| {
            let (request, answer) = (e.request.as_deref(), e.answer.as_deref());
            let what = what_of(&e.operation, request, answer, keys)?;
            Some(Event {
                entry_id: None,
                person: Some(e.person.clone()),
                call_id: e.call_id.clone(),
                at: e.at,
                operation: e.operation.clone(),
                state: WriteState::from_name(&e.outcome),
                code: e.code.clone(),
                message: e.message.clone(),
                what,
            })
        })
        .collect()
}

/// How far apart this console's record of a call and the team server's may be: the server
/// gives a call its own id, so a call is known by who made it, what it did, and when.
const SAME_CALL_MS: i64 = 60_000;

/// This console's events and the team server's, newest first. A call in both (made by `me`,
/// the person signed in here, the same operation doing the same, within a minute) is this
/// console's event, with its person.
pub fn merge(mut ours: Vec<Event>, team: Vec<Event>, me: Option<&str>) -> Vec<Event> {
    let mut matched = vec![false; ours.len()];
    let mut theirs = Vec::new();
    for event in team {
        let mine = me.is_some() && event.person.as_deref() == me;
        let same = ours.iter().enumerate().position(|(i, e)| {
            mine && !matched[i]
                && e.operation == event.operation
                && e.what == event.what
                && (e.at - event.at).abs() <= SAME_CALL_MS
        });
        match same {
            Some(i) => {
                matched[i] = true;
                ours[i].person = event.person;
            }
            None => theirs.push(event),
        }
    }
    ours.extend(theirs);
    ours.sort_by_key(|e| std::cmp::Reverse(e.at));
    ours
}

fn what_of(
    operation: &str,
    request: Option<&str>,
    answer: Option<&str>,
    keys: &Keys,
) -> Option<What> {
    let request = request?;
    match operation {
        "batch_order" => batch(serde_json::from_str(request).ok()?, keys),
        op @ ("lock" | "unlock") => {
            let r: LockRequest = serde_json::from_str(request).ok()?;
            let assets: Vec<String> = r
                .asset_nums
                .into_iter()
                .filter(|n| keys.assets.contains(n.as_str()))
                .collect();
            (!assets.is_empty()).then_some(What::Locks {
                disable: op == "lock",
                assets,
            })
        }
        "claim" => {
            let r: ClaimRequest = serde_json::from_str(request).ok()?;
            let identity = r.identity?;
            let ours = keys.assets.contains(identity.as_str()) || identity == keys.global_id;
            ours.then(|| What::Claim {
                identity,
                activity: r.activity_label.unwrap_or_default(),
            })
        }
        "bind" => {
            let r: BindRequest = serde_json::from_str(request).ok()?;
            let by_id = r
                .channel_customer_id
                .as_deref()
                .is_some_and(|id| keys.channel_customer_ids.contains(id));
            let named = answered_global_id(answer).as_deref() == Some(keys.global_id);
            (by_id || named).then(|| What::Customer {
                name: r.customer_name.or(r.enterprise_name).unwrap_or_default(),
            })
        }
        "create_enterprise" | "update_enterprise" => {
            let r: EnterpriseRequest = serde_json::from_str(request).ok()?;
            let by_id = r
                .crm_customer_id
                .as_deref()
                .is_some_and(|id| keys.crm_customer_ids.contains(id));
            let named = answered_global_id(answer).as_deref() == Some(keys.global_id);
            (by_id || named).then(|| What::Customer {
                name: r.customer_name.unwrap_or_default(),
            })
        }
        _ => None,
    }
}

/// The enterprise global id an answer names (a bound customer's, a created enterprise's).
/// The journal keeps the platform's whole answer; the team server's log, its `data` alone.
fn answered_global_id(answer: Option<&str>) -> Option<String> {
    let answer: serde_json::Value = serde_json::from_str(answer?).ok()?;
    let data = answer.get("data").unwrap_or(&answer);
    let id = data
        .get("enterpriseGlobalId")
        .or_else(|| data.get("customer")?.get("enterpriseGlobalId"))?;
    id.as_str().map(str::to_owned)
}

fn batch(b: BatchOrderRequest, keys: &Keys) -> Option<What> {
    let ours: Vec<&OrderEntry> = b.order_list.iter().filter(|o| keys.order(o)).collect();
    if ours.is_empty() {
        return None;
    }
    let mut kinds: Vec<OrderType> = ours.iter().filter_map(|o| o.order_type).collect();
    kinds.dedup();
    let mut assets = Vec::new();
    let mut products = Vec::new();
    for a in ours.iter().flat_map(|o| &o.assets) {
        assets.extend(a.asset_nos.iter().cloned());
        products_of(a, &mut products);
    }
    assets.dedup();
    products.sort();
    products.dedup();
    Some(What::Batch {
        channel_order_id: b.channel_order_id.unwrap_or_default(),
        kinds,
        orders: u32::try_from(ours.len()).unwrap_or(u32::MAX),
        assets,
        products,
    })
}

/// The names (else uris) of the products an asset entry grants or removes, packages' too.
fn products_of(a: &AssetEntry, out: &mut Vec<String>) {
    fn merchandise(m: &MerchandiseEntry, out: &mut Vec<String>) {
        out.extend(m.license_order_product_list.iter().filter_map(named));
        for child in m.children.iter().flatten() {
            merchandise(child, out);
        }
    }
    out.extend(a.products.iter().filter_map(named));
    for m in &a.merchandises {
        merchandise(m, out);
    }
}

fn named(p: &wire::ProductEntry) -> Option<String> {
    p.product_name.clone().or_else(|| p.product_uri.clone())
}
