//! A batch whose orders are each behind an `Arc`: the composer edits it in place, and the
//! check, the autosave, the export and the undo history each keep it as it is for the price of
//! 10,000 pointer copies rather than of a deep copy. An edit copies only what it touches that
//! is still shared with a kept state (the list of pointers, the one order, the header), so
//! opening, undoing and keeping a state never copy the batch.

use std::sync::Arc;

use super::progress::Progress;
use wire::validate::{self, Problem, UnknownKey};
use wire::{BatchOrderRequest, OrderEntry};

#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// The batch without its orders (channel code, order id, mode, what it holds verbatim).
    head: Arc<BatchOrderRequest>,
    orders: Arc<Vec<Arc<OrderEntry>>>,
}

/// Equal when they hold the same values; orders they share are not compared.
impl PartialEq for Snapshot {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &Arc<OrderEntry>, b: &Arc<OrderEntry>| Arc::ptr_eq(a, b) || a == b;
        (Arc::ptr_eq(&self.head, &other.head) || self.head == other.head)
            && (Arc::ptr_eq(&self.orders, &other.orders)
                || self.orders.len() == other.orders.len()
                    && self
                        .orders
                        .iter()
                        .zip(other.orders.iter())
                        .all(|(a, b)| same(a, b)))
    }
}

fn head_of(batch: &BatchOrderRequest) -> BatchOrderRequest {
    BatchOrderRequest {
        channel_code: batch.channel_code.clone(),
        channel_order_id: batch.channel_order_id.clone(),
        sync_mode: batch.sync_mode,
        order_list: Vec::new(),
        raw: batch.raw.clone(),
    }
}

impl From<BatchOrderRequest> for Snapshot {
    /// The batch's orders moved behind pointers: nothing of them is copied.
    fn from(mut batch: BatchOrderRequest) -> Self {
        let orders = std::mem::take(&mut batch.order_list);
        Self {
            head: Arc::new(batch),
            orders: Arc::new(orders.into_iter().map(Arc::new).collect()),
        }
    }
}

impl Snapshot {
    /// The batch's header (its orders apart: its `order_list` is empty).
    pub fn head(&self) -> &BatchOrderRequest {
        &self.head
    }

    /// The header to edit, copied first if a kept state shares it. Its `order_list` is not
    /// the batch's orders: they are [`Snapshot::orders_mut`].
    pub fn head_mut(&mut self) -> &mut BatchOrderRequest {
        Arc::make_mut(&mut self.head)
    }

    /// The batch's orders, in order.
    pub fn orders(&self) -> impl ExactSizeIterator<Item = &OrderEntry> {
        self.orders.iter().map(|order| &**order)
    }

    pub fn order(&self, i: usize) -> Option<&OrderEntry> {
        self.orders.get(i).map(|order| &**order)
    }

    /// Order `i` to edit: it (and the list of pointers) is copied first if a kept state
    /// shares it.
    pub fn order_mut(&mut self, i: usize) -> Option<&mut OrderEntry> {
        if i >= self.orders.len() {
            return None;
        }
        Some(Arc::make_mut(&mut Arc::make_mut(&mut self.orders)[i]))
    }

    /// The list of orders to add to, remove from or reorder (pointers: an order moved is not
    /// copied).
    pub fn orders_mut(&mut self) -> &mut Vec<Arc<OrderEntry>> {
        Arc::make_mut(&mut self.orders)
    }

    pub fn len(&self) -> usize {
        self.orders.len()
    }

    pub fn is_empty(&self) -> bool {
        self.orders.is_empty()
    }

    /// The batch as a value of its own, counting the orders copied in `progress`.
    pub fn to_batch(&self, progress: Option<&Progress>) -> BatchOrderRequest {
        let mut batch = head_of(&self.head);
        batch.order_list.reserve(self.orders.len());
        for (i, order) in self.orders.iter().enumerate() {
            batch.order_list.push(OrderEntry::clone(order));
            if i % 512 == 0
                && let Some(progress) = progress
            {
                // Copying is not cancelled: the export it feeds is quick after it.
                let _ = progress.at(i as u64);
            }
        }
        batch
    }
}

/// What the console's check says of a batch (`validate::console_check`): its problems, and its
/// keys of no field (kept and sent as they are; listed, not problems, but for those near a
/// field's name, which are problems at that field).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    pub problems: Vec<Problem>,
    pub unknown_keys: Vec<UnknownKey>,
}

impl Checked {
    pub fn of(batch: &BatchOrderRequest) -> Self {
        let (problems, unknown_keys) = validate::console_check(batch, &batch.order_list);
        Self {
            problems,
            unknown_keys,
        }
    }

    /// [`Checked::of`] the batch a snapshot holds, without copying it.
    pub fn of_snapshot(batch: &Snapshot) -> Self {
        let (problems, unknown_keys) = validate::console_check(&batch.head, &batch.orders);
        Self {
            problems,
            unknown_keys,
        }
    }
}

/// The batch as JSON, written on a blocking thread; the orders copied are counted in
/// `progress`.
pub(in crate::core) async fn json_of(
    batch: Snapshot,
    pretty: bool,
    progress: Option<Progress>,
) -> Result<String, super::CoreError> {
    use super::progress::Stage;
    tokio::task::spawn_blocking(move || {
        if let Some(progress) = &progress {
            progress.start(Stage::Copying, batch.len() as u64);
        }
        let whole = batch.to_batch(progress.as_ref());
        if let Some(progress) = &progress {
            progress.start(Stage::Writing, 0);
        }
        wire::open::batch_to_json(&whole, pretty)
    })
    .await?
    .map_err(|e| crate::core::files::error::FileError::Json(e).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(ids: &[&str]) -> BatchOrderRequest {
        BatchOrderRequest {
            channel_code: Some("SHOP".into()),
            order_list: ids
                .iter()
                .map(|id| OrderEntry {
                    channel_customer_id: Some((*id).to_owned()),
                    ..OrderEntry::default()
                })
                .collect(),
            ..BatchOrderRequest::default()
        }
    }

    #[test]
    fn an_edit_copies_only_what_it_touches_and_a_kept_state_stays_as_it_was() {
        let mut shot = Snapshot::from(batch(&["a", "b", "c", "d"]));
        let kept = shot.clone();
        shot.order_mut(1).expect("order").channel_customer_id = Some("B".into());
        assert!(Arc::ptr_eq(&shot.orders[0], &kept.orders[0]));
        assert!(!Arc::ptr_eq(&shot.orders[1], &kept.orders[1]));
        assert_ne!(shot, kept, "the kept state has the old order");
        assert_eq!(kept.to_batch(None), batch(&["a", "b", "c", "d"]));
        assert_eq!(shot.to_batch(None), batch(&["a", "B", "c", "d"]));

        // Orders moved are pointers moved: the one not touched is still the kept one.
        let moved = shot.orders_mut().remove(3);
        shot.orders_mut().insert(0, moved);
        shot.head_mut().channel_code = Some("OTHER".into());
        assert!(Arc::ptr_eq(&shot.orders[0], &kept.orders[3]));
        assert_eq!(kept.head().channel_code.as_deref(), Some("SHOP"));
        let mut expected = batch(&["d", "a", "B", "c"]);
        expected.channel_code = Some("OTHER".into());
        assert_eq!(shot.to_batch(None), expected);
        assert_eq!(shot, Snapshot::from(expected.clone()));
        assert!(shot.order_mut(4).is_none());

        // Not shared: edited in place, nothing copied.
        let before = Arc::as_ptr(&shot.orders[2]);
        drop(kept);
        shot.order_mut(2).expect("order").sequence = Some(3);
        assert_eq!(Arc::as_ptr(&shot.orders[2]), before);
    }
}
