//! The branch each customer, enterprise and lock belongs to (table `holdings`). The platform's
//! records have no branch, so the team server keeps one: an item is held by the `branchName` of
//! the first call through this server that created it or ordered into it, whoever made that
//! call (the head office may create a customer for SH01). A person bound to a branch may not
//! touch what another branch holds; an item no branch holds (made before the team server, or
//! elsewhere) is open to every branch until a write through the server names it.

use std::fmt;

use wire::{
    BatchOrderRequest, BatchOrderResult, BindRequest, CreatedEnterprise, Customer,
    EnterpriseRequest, OrderEntry,
};

use crate::error::TeamError;
use crate::identity::name_key;
use crate::people::Branch;
use crate::permit::Refusal;
use crate::store::TeamStore;

/// A customer, enterprise or lock, by the team directory's key (`customer:C1`, …).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Item(String);

/// The prefixes of the keys an item can have; the directory's keys use the first four.
const KINDS: [&str; 5] = ["customer:", "channel:", "crm:", "enterprise:", "lock:"];

fn given(v: Option<&str>) -> Option<&str> {
    v.map(str::trim).filter(|v| !v.is_empty())
}

impl Item {
    pub fn customer(id: Option<&str>) -> Option<Item> {
        given(id).map(|id| Item(format!("customer:{id}")))
    }

    /// A customer by its channel and its id in that channel.
    pub fn channel(code: Option<&str>, id: Option<&str>) -> Option<Item> {
        Some(Item(format!("channel:{}/{}", given(code)?, given(id)?)))
    }

    pub fn crm(id: Option<&str>) -> Option<Item> {
        given(id).map(|id| Item(format!("crm:{id}")))
    }

    pub fn enterprise(id: Option<&str>) -> Option<Item> {
        given(id).map(|id| Item(format!("enterprise:{id}")))
    }

    pub fn lock(number: &str) -> Option<Item> {
        given(Some(number)).map(|n| Item(format!("lock:{n}")))
    }

    /// A key of the team's directory, when it names an item.
    pub fn from_key(key: &str) -> Option<Item> {
        let key = key.trim();
        KINDS
            .iter()
            .any(|k| key.len() > k.len() && key.starts_with(k))
            .then(|| Item(key.to_owned()))
    }

    pub fn key(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, id) = self.0.split_once(':').unwrap_or(("", &self.0));
        let words = match kind {
            "customer" => "customer",
            "channel" => "the channel's customer",
            "crm" => "the CRM customer",
            "enterprise" => "enterprise master account",
            _ => "lock",
        };
        write!(f, "{words} {id}")
    }
}

/// An item a call names, with the field that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub path: String,
    pub item: Item,
}

fn named(path: impl Into<String>, item: Option<Item>) -> Option<Named> {
    item.map(|item| Named {
        path: path.into(),
        item,
    })
}

/// The customer a binding names.
pub fn bind_items(req: &BindRequest) -> Vec<Named> {
    let item = Item::channel(
        req.channel_code.as_deref(),
        req.channel_customer_id.as_deref(),
    );
    named("channelCustomerId", item).into_iter().collect()
}

/// What a binding makes its branch hold: the customer, by its channel and its id.
pub fn bind_held(req: &BindRequest, customer: &Customer) -> Vec<(String, Item)> {
    let items = [
        Item::channel(
            req.channel_code.as_deref(),
            req.channel_customer_id.as_deref(),
        ),
        Item::customer(Some(&customer.customer_id)),
    ];
    branch_holds(req.branch_name.as_deref(), items)
}

/// The enterprise an enterprise call names, by its CRM customer.
pub fn enterprise_items(req: &EnterpriseRequest) -> Vec<Named> {
    let item = Item::crm(req.crm_customer_id.as_deref());
    named("crmCustomerId", item).into_iter().collect()
}

/// What creating an enterprise makes its branch hold.
pub fn enterprise_held(
    req: &EnterpriseRequest,
    created: &CreatedEnterprise,
) -> Vec<(String, Item)> {
    let items = [
        Item::crm(req.crm_customer_id.as_deref()),
        Item::enterprise(Some(&created.enterprise_global_id)),
    ];
    branch_holds(req.branch_name.as_deref(), items)
}

fn branch_holds<const N: usize>(
    branch: Option<&str>,
    items: [Option<Item>; N],
) -> Vec<(String, Item)> {
    let Some(branch) = given(branch) else {
        return Vec::new();
    };
    let items = items.into_iter().flatten();
    items.map(|i| (branch.to_owned(), i)).collect()
}

/// The orders of a batch that name their customer by its channel only: (path, channel, id).
pub fn by_channel_only(batch: &BatchOrderRequest) -> Vec<(String, String, String)> {
    let Some(channel) = given(batch.channel_code.as_deref()) else {
        return Vec::new();
    };
    let orders = batch.order_list.iter().enumerate();
    orders
        .filter(|(_, o)| given(o.customer_id.as_deref()).is_none())
        .filter_map(|(i, o)| {
            let id = given(o.channel_customer_id.as_deref())?;
            let path = format!("orderList[{i}].channelCustomerId");
            Some((path, channel.to_owned(), id.to_owned()))
        })
        .collect()
}

/// The items a batch names: each order's customer (by any id), enterprise and locks.
pub fn batch_items(batch: &BatchOrderRequest) -> Vec<Named> {
    let channel = batch.channel_code.as_deref();
    let mut items = Vec::new();
    for (i, o) in batch.order_list.iter().enumerate() {
        let at = |field: &str| format!("orderList[{i}].{field}");
        items.extend(named(
            at("customerId"),
            Item::customer(o.customer_id.as_deref()),
        ));
        let by_channel = Item::channel(channel, o.channel_customer_id.as_deref());
        items.extend(named(at("channelCustomerId"), by_channel));
        items.extend(named(
            at("crmCustomerId"),
            Item::crm(o.crm_customer_id.as_deref()),
        ));
        let enterprise = Item::enterprise(o.enterprise_global_id.as_deref());
        items.extend(named(at("enterpriseGlobalId"), enterprise));
        for (j, asset) in o.assets.iter().enumerate() {
            for (k, number) in asset.asset_nos.iter().enumerate() {
                let path = format!("orderList[{i}].assets[{j}].assetNos[{k}]");
                items.extend(named(path, Item::lock(number)));
            }
        }
    }
    items
}

/// The items a lock change names.
pub fn lock_items(numbers: &[String]) -> Vec<Named> {
    let items = numbers.iter().enumerate();
    items
        .filter_map(|(i, n)| named(format!("assetNums[{i}]"), Item::lock(n)))
        .collect()
}

/// What a customer found on the platform belongs to.
pub fn customer_items(path: &str, c: &Customer) -> Vec<Named> {
    let customer = named(path, Item::customer(Some(&c.customer_id)));
    let enterprise = named(path, Item::enterprise(Some(&c.enterprise_global_id)));
    customer.into_iter().chain(enterprise).collect()
}

/// What a batch that succeeded makes its orders' branches hold: each order's customer (by the
/// ids it was named by and the id the platform answered) and the locks it bought.
pub fn batch_held(batch: &BatchOrderRequest, results: &[BatchOrderResult]) -> Vec<(String, Item)> {
    let channel = batch.channel_code.as_deref();
    let mut held = Vec::new();
    for (i, o) in batch.order_list.iter().enumerate() {
        let Some(branch) = given(o.branch_name.as_deref()) else {
            continue;
        };
        if wire::preview::is_delete(o) {
            continue;
        }
        let answered = results
            .iter()
            .find(|r| Some(r.sequence) == o.sequence)
            .or_else(|| results.get(i));
        let customer = [
            Item::customer(answered.map(|r| r.customer_id.as_str())),
            Item::customer(o.customer_id.as_deref()),
            Item::channel(channel, o.channel_customer_id.as_deref()),
            Item::crm(o.crm_customer_id.as_deref()),
        ];
        let items = customer.into_iter().flatten().chain(bought(o));
        held.extend(items.map(|i| (branch.to_owned(), i)));
    }
    held
}

/// The locks a new purchase puts under its customer.
fn bought(o: &OrderEntry) -> impl Iterator<Item = Item> + '_ {
    o.assets
        .iter()
        .flat_map(|a| a.asset_nos.iter())
        .filter_map(|n| Item::lock(n))
}

/// The branch holding each named item that some branch holds.
pub async fn holders(
    store: &TeamStore,
    items: &[Named],
) -> Result<Vec<(Named, String)>, TeamError> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let items = items.to_vec();
    store
        .read(move |tx| {
            let mut found = Vec::new();
            for n in items {
                let branch = tx.query_opt(
                    "SELECT branch FROM holdings WHERE item_key = ?1",
                    &[n.item.key().into()],
                    |row| row.text(0),
                )?;
                if let Some(branch) = branch {
                    found.push((n, branch));
                }
            }
            Ok::<_, TeamError>(found)
        })
        .await
}

/// Makes each branch hold its items, unless a branch holds them already.
pub async fn hold(store: &TeamStore, held: Vec<(String, Item)>, by: &str) -> Result<(), TeamError> {
    if held.is_empty() {
        return Ok(());
    }
    let by = by.to_owned();
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            for (branch, item) in &held {
                tx.execute(
                    "INSERT INTO holdings(item_key, branch, held_since, held_by) \
                     VALUES (?1, ?2, ?3, ?4) ON CONFLICT(item_key) DO NOTHING",
                    &[item.key().into(), branch.into(), now.into(), (&by).into()],
                )?;
            }
            Ok(())
        })
        .await
}

/// Refuses the first item another branch holds.
pub fn refuse_others(found: &[(Named, String)], mine: &Branch) -> Result<(), Refusal> {
    let other = found
        .iter()
        .find(|(_, holder)| name_key(holder) != name_key(&mine.name));
    match other {
        Some((n, holder)) => Err(Refusal::OtherBranch {
            path: n.path.clone(),
            item: n.item.to_string(),
            holder: holder.clone(),
            mine: mine.name.clone(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::AssetEntry;
    use wire::kinds::OrderType;

    #[test]
    fn an_item_is_keyed_as_the_directory_keys_it() {
        assert_eq!(
            Item::channel(Some("C"), Some(" 7 ")).map(|i| i.0),
            Some("channel:C/7".to_owned())
        );
        assert_eq!(Item::customer(Some("  ")), None);
        assert_eq!(Item::from_key("crm:9"), Some(Item("crm:9".to_owned())));
        assert_eq!(Item::from_key("crm:"), None);
        assert_eq!(Item::from_key("name:x"), None);
        let e = Item::enterprise(Some("E1")).expect("an id");
        assert_eq!(e.to_string(), "enterprise master account E1");
    }

    #[test]
    fn a_new_purchase_holds_its_customer_and_locks_a_delete_nothing() {
        let order = |kind, seq| OrderEntry {
            sequence: Some(seq),
            order_type: Some(kind),
            channel_customer_id: Some("K1".to_owned()),
            branch_name: Some("上海".to_owned()),
            assets: vec![AssetEntry {
                asset_nos: vec!["8000000001".to_owned()],
                ..AssetEntry::default()
            }],
            ..OrderEntry::default()
        };
        let batch = BatchOrderRequest {
            channel_code: Some("CH".to_owned()),
            order_list: vec![
                order(OrderType::DeleteAsset, 1),
                order(OrderType::NewBuy, 2),
            ],
            ..BatchOrderRequest::default()
        };
        let results = [BatchOrderResult {
            sequence: 2,
            license_order_id: "L".to_owned(),
            customer_id: "C9".to_owned(),
        }];
        let held: Vec<String> = batch_held(&batch, &results)
            .into_iter()
            .map(|(b, i)| format!("{b} {}", i.0))
            .collect();
        assert_eq!(
            held,
            [
                "上海 customer:C9",
                "上海 channel:CH/K1",
                "上海 lock:8000000001"
            ]
        );
    }
}
