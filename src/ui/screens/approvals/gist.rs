//! What a request does, in the window's language: a batch's orders by type and the asset
//! numbers they name, or a lock change's size. Worked out once when the request is read (a
//! batch may be large), said each frame.

use crate::core::team::Request;
use crate::core::wire::{BatchOrderRequest, LockRequest, Operation, OrderType};
use crate::ui::text::i18n::{Lang, tr};
use crate::ui::text::labels::order_type_short;

pub(super) enum Gist {
    Batch {
        kinds: Vec<(OrderType, usize)>,
        assets: usize,
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
                Gist::Batch { kinds, assets }
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
            Gist::Batch { kinds, assets } => {
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
