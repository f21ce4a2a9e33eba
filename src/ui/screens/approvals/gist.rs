//! What a request does, in the window's language: a batch's orders by type and the asset
//! numbers they name, its channel order id and its customers (by the directory's names), or a
//! lock change's size. Worked out once when the request is read (a batch may be large), said
//! each frame.

use crate::core::catalog::{CatalogView, DirectoryEntry};
use crate::core::team::Request;
use crate::core::wire::{BatchOrderRequest, LockRequest, Operation, OrderEntry, OrderType};
use crate::ui::text::i18n::{Lang, tr};
use crate::ui::text::labels::order_type_short;

/// How a batch names one of its customers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CustomerRef {
    pub channel_code: Option<String>,
    pub channel_customer_id: Option<String>,
    pub customer_id: Option<String>,
}

impl CustomerRef {
    fn of(o: &OrderEntry, channel_code: Option<&String>) -> CustomerRef {
        CustomerRef {
            channel_code: channel_code.cloned(),
            channel_customer_id: o.channel_customer_id.clone(),
            customer_id: o.customer_id.clone(),
        }
    }

    fn is(&self, e: &DirectoryEntry) -> bool {
        let by_channel = self.channel_customer_id.is_some()
            && e.channel_customer_id == self.channel_customer_id
            && e.channel_code == self.channel_code;
        by_channel || (self.customer_id.is_some() && e.customer_id == self.customer_id)
    }

    /// Its name and enterprise as the directory knows them, else the id it is named by.
    pub(super) fn words(&self, view: Option<&CatalogView>) -> String {
        let known = view.and_then(|v| v.customers.iter().find(|k| self.is(&k.item)));
        match known.map(|k| &k.item) {
            Some(e) => match (&e.customer_name, &e.enterprise_name) {
                (Some(name), Some(enterprise)) if name != enterprise => {
                    format!("{name} · {enterprise}")
                }
                (Some(name), _) | (None, Some(name)) => name.clone(),
                (None, None) => self.id(),
            },
            None => self.id(),
        }
    }

    fn id(&self) -> String {
        let id = self
            .channel_customer_id
            .as_ref()
            .or(self.customer_id.as_ref());
        id.cloned().unwrap_or_else(|| "—".to_owned())
    }
}

pub(super) enum Gist {
    Batch {
        kinds: Vec<(OrderType, usize)>,
        assets: usize,
        channel_order_id: Option<String>,
        /// Each customer once, in the batch's order.
        customers: Vec<CustomerRef>,
    },
    Locks {
        disable: bool,
        assets: usize,
    },
    /// A body this console does not read: the server's own line.
    Server(String),
}

impl Gist {
    pub(super) fn of(r: &Request) -> Gist {
        let server = || Gist::Server(r.summary.clone());
        match r.operation {
            Operation::BatchOrder => {
                let Ok(batch) = serde_json::from_value::<BatchOrderRequest>(r.body.clone()) else {
                    return server();
                };
                let mut kinds: Vec<(OrderType, usize)> = Vec::new();
                for t in batch.order_list.iter().filter_map(|o| o.order_type) {
                    match kinds.iter_mut().find(|(k, _)| *k == t) {
                        Some((_, n)) => *n += 1,
                        None => kinds.push((t, 1)),
                    }
                }
                let entries = batch.order_list.iter().flat_map(|o| &o.assets);
                let assets = entries.map(|a| a.asset_nos.len()).sum();
                let mut customers: Vec<CustomerRef> = Vec::new();
                for o in &batch.order_list {
                    let c = CustomerRef::of(o, batch.channel_code.as_ref());
                    if !customers.contains(&c) {
                        customers.push(c);
                    }
                }
                Gist::Batch {
                    kinds,
                    assets,
                    channel_order_id: batch.channel_order_id.clone(),
                    customers,
                }
            }
            Operation::Lock | Operation::Unlock => {
                match serde_json::from_value::<LockRequest>(r.body.clone()) {
                    Ok(req) => Gist::Locks {
                        disable: r.operation == Operation::Lock,
                        assets: req.asset_nums.len(),
                    },
                    Err(_) => server(),
                }
            }
            _ => server(),
        }
    }

    pub(super) fn words(&self, lang: Lang) -> String {
        match self {
            Gist::Batch { kinds, assets, .. } => {
                let kinds: Vec<String> = kinds
                    .iter()
                    .map(|(t, n)| format!("{} ×{n}", order_type_short(lang, *t)))
                    .collect();
                let (orders, assets) = (kinds.join(", "), *assets);
                tr!(lang, "request-gist-batch", orders = orders, assets = assets)
            }
            Gist::Locks { disable, assets } => {
                let assets = *assets;
                match disable {
                    true => tr!(lang, "request-gist-lock", assets = assets),
                    false => tr!(lang, "request-gist-unlock", assets = assets),
                }
            }
            Gist::Server(line) => line.clone(),
        }
    }
}

impl Gist {
    /// The customers it is for, by name: the first, and how many more.
    pub(super) fn customer_words(&self, lang: Lang, view: Option<&CatalogView>) -> String {
        let Gist::Batch { customers, .. } = self else {
            return "—".to_owned();
        };
        match customers.split_first() {
            None => "—".to_owned(),
            Some((first, [])) => first.words(view),
            Some((first, rest)) => {
                let more = rest.len();
                tr!(
                    lang,
                    "request-customers-more",
                    first = first.words(view),
                    more = more
                )
            }
        }
    }

    /// A batch's channel order id.
    pub(super) fn channel_order_id(&self) -> Option<&str> {
        match self {
            Gist::Batch {
                channel_order_id, ..
            } => channel_order_id.as_deref(),
            _ => None,
        }
    }
}
