//! A batch shared with the core's threads without copying it: its header apart, each order
//! behind an `Arc`. The composer edits its own batch and keeps a snapshot in step with it order
//! by order (an edit copies the one order it touched), so that the check, the autosave, the
//! export and the undo history each take the batch as it is for the price of 10,000 pointer
//! copies rather than of a deep copy of it on the window's thread.

use std::sync::Arc;

use super::progress::Progress;
use crate::wire::validate::{self, Problem, UnknownKey};
use crate::wire::{BatchOrderRequest, OrderEntry};

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

impl Snapshot {
    /// A copy of `batch` (a deep one: made where it costs the window nothing, or for a small
    /// batch).
    pub fn of(batch: &BatchOrderRequest) -> Self {
        Self {
            head: Arc::new(head_of(batch)),
            orders: Arc::new(batch.order_list.iter().cloned().map(Arc::new).collect()),
        }
    }

    /// The batch's header (its orders apart).
    pub fn head(&self) -> &BatchOrderRequest {
        &self.head
    }

    /// The batch's orders, in order.
    pub fn orders(&self) -> impl Iterator<Item = &OrderEntry> {
        self.orders.iter().map(|order| &**order)
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

    /// Order `i` (and the header) of `batch` were edited: taken again, the rest shared.
    pub fn order_edited(&mut self, batch: &BatchOrderRequest, i: usize) {
        if batch.order_list.len() != self.orders.len() {
            return self.edited(batch);
        }
        self.header_edited(batch);
        if let Some(order) = batch.order_list.get(i) {
            Arc::make_mut(&mut self.orders)[i] = Arc::new(order.clone());
        }
    }

    /// The batch's header was edited.
    pub fn header_edited(&mut self, batch: &BatchOrderRequest) {
        let head = head_of(batch);
        if *self.head != head {
            self.head = Arc::new(head);
        }
    }

    /// Anything in `batch` may have changed (orders added, moved, removed): the orders alike
    /// at its start and at its end are kept, those between taken again. An edit of the tree
    /// touches one place, so this compares the batch once and copies little.
    pub fn edited(&mut self, batch: &BatchOrderRequest) {
        self.header_edited(batch);
        let new = &batch.order_list;
        let old = &self.orders;
        let front = old.iter().zip(new).take_while(|(a, b)| ***a == **b).count();
        let back = old[front..]
            .iter()
            .rev()
            .zip(new[front..].iter().rev())
            .take_while(|(a, b)| ***a == **b)
            .count();
        if front == old.len() && front == new.len() {
            return;
        }
        let middle = new[front..new.len() - back].iter().cloned().map(Arc::new);
        let orders = Arc::make_mut(&mut self.orders);
        let end = orders.len() - back;
        orders.splice(front..end, middle);
    }
}

/// What the shared validation says of a batch: its problems, and its keys of no field (kept
/// and sent as they are; listed, not problems).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    pub problems: Vec<Problem>,
    pub unknown_keys: Vec<UnknownKey>,
}

impl Checked {
    pub fn of(batch: &BatchOrderRequest) -> Self {
        Self {
            problems: validate::batch_order(batch),
            unknown_keys: validate::unknown_keys(batch),
        }
    }
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
    fn an_edit_takes_again_only_what_changed_and_the_rest_stays_shared() {
        let mut b = batch(&["a", "b", "c", "d"]);
        let mut shot = Snapshot::of(&b);
        let before = shot.clone();
        b.order_list[1].channel_customer_id = Some("B".into());
        shot.order_edited(&b, 1);
        assert_eq!(shot.to_batch(None), b);
        assert!(Arc::ptr_eq(&shot.orders[0], &before.orders[0]));
        assert!(!Arc::ptr_eq(&shot.orders[1], &before.orders[1]));
        assert_ne!(shot, before, "the history's copy kept the old order");
        assert_eq!(before.to_batch(None), batch(&["a", "b", "c", "d"]));

        b.order_list.remove(2);
        b.order_list.insert(0, b.order_list[2].clone());
        b.channel_code = Some("OTHER".into());
        shot.edited(&b);
        assert_eq!(shot.to_batch(None), b);
        assert_eq!(shot, Snapshot::of(&b));
        // [a B c d] became [d a B d]: the last d, alike at the end, is still shared.
        assert!(Arc::ptr_eq(&shot.orders[3], &before.orders[3]));

        b.order_list.clear();
        shot.edited(&b);
        assert_eq!(shot.to_batch(None), b);
    }
}
