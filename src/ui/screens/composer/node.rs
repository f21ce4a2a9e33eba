//! The nodes of a batch order as a tree: a node is named by the steps from the batch to it,
//! which are also the field path the shared validation uses (`orderList[2].assets[0]…`), so a
//! problem leads to its node, and a node knows its problems.

use crate::core::wire::raw::Raw;
use std::fmt;
use std::sync::Arc;

use crate::core::snapshot::Snapshot;

use crate::core::wire::validate::{FieldPath, Seg};
use crate::core::wire::{
    AssetEntry, FeatureEntry, MerchandiseEntry, OrderEntry, OrderType, ProductEntry,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Order(usize),
    Asset(usize),
    Product(usize),
    Feature(usize),
    Merchandise(usize),
    /// A merchandise inside a merchandise.
    Child(usize),
    /// A product inside a merchandise.
    MerchProduct(usize),
}

impl Step {
    fn field(self) -> (&'static str, usize) {
        match self {
            Step::Order(i) => ("orderList", i),
            Step::Asset(i) => ("assets", i),
            Step::Product(i) => ("products", i),
            Step::Feature(i) => ("productFeatures", i),
            Step::Merchandise(i) => ("merchandises", i),
            Step::Child(i) => ("children", i),
            Step::MerchProduct(i) => ("licenseOrderProductList", i),
        }
    }

    fn from_field(name: &str, i: usize) -> Option<Step> {
        Some(match name {
            "orderList" => Step::Order(i),
            "assets" => Step::Asset(i),
            "products" => Step::Product(i),
            "productFeatures" => Step::Feature(i),
            "merchandises" => Step::Merchandise(i),
            "children" => Step::Child(i),
            "licenseOrderProductList" => Step::MerchProduct(i),
            _ => return None,
        })
    }

    pub fn index(self) -> usize {
        self.field().1
    }

    fn with_index(self, i: usize) -> Step {
        match self {
            Step::Order(_) => Step::Order(i),
            Step::Asset(_) => Step::Asset(i),
            Step::Product(_) => Step::Product(i),
            Step::Feature(_) => Step::Feature(i),
            Step::Merchandise(_) => Step::Merchandise(i),
            Step::Child(_) => Step::Child(i),
            Step::MerchProduct(_) => Step::MerchProduct(i),
        }
    }
}

/// A node of the batch; no steps is the batch itself (its header).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NodeId(pub Vec<Step>);

impl NodeId {
    pub fn root() -> Self {
        Self(Vec::new())
    }

    pub fn child(&self, step: Step) -> Self {
        let mut steps = self.0.clone();
        steps.push(step);
        Self(steps)
    }

    pub fn parent(&self) -> Option<Self> {
        let (_, rest) = self.0.split_last()?;
        Some(Self(rest.to_vec()))
    }

    pub fn last(&self) -> Option<Step> {
        self.0.last().copied()
    }

    pub fn depth(&self) -> usize {
        self.0.len()
    }

    /// The same node at another index among its siblings.
    pub fn sibling(&self, i: usize) -> Self {
        let mut steps = self.0.clone();
        if let Some(last) = steps.last_mut() {
            *last = last.with_index(i);
        }
        Self(steps)
    }

    /// The node a problem's path points into, and the rest of the path: the field there and
    /// maybe an item of it (`orderList[0].assets[1].assetNos[3]` → that asset, `assetNos[3]`).
    pub fn of_path(path: &FieldPath) -> (NodeId, &[Seg]) {
        let mut steps = Vec::new();
        for (n, seg) in path.0.iter().enumerate() {
            match seg {
                Seg::Item(name, i) if let Some(step) = Step::from_field(name, *i) => {
                    steps.push(step)
                }
                _ => return (NodeId(steps), &path.0[n..]),
            }
        }
        (NodeId(steps), &[])
    }
}

impl NodeId {
    /// A path as a platform wrote it (`orderList[0].assets[1].assetNos[3]`): the node it
    /// points into and the field there. None when it is not a path of the batch.
    pub fn parse_path(path: &str) -> Option<(NodeId, String)> {
        let mut steps = Vec::new();
        let mut segments = path.split('.').peekable();
        while let Some(segment) = segments.next() {
            let (name, index) = match segment.split_once('[') {
                Some((name, rest)) => (name, Some(rest.strip_suffix(']')?.parse().ok()?)),
                None => (segment, None),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            match index.and_then(|i| Step::from_field(name, i)) {
                Some(step) if segments.peek().is_some() => steps.push(step),
                Some(step) => return Some((NodeId(steps).child(step), String::new())),
                None => return Some((NodeId(steps), name.to_owned())),
            }
        }
        None
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, step) in self.0.iter().enumerate() {
            let (name, i) = step.field();
            if n > 0 {
                f.write_str(".")?;
            }
            write!(f, "{name}[{i}]")?;
        }
        Ok(())
    }
}

/// A node, borrowed for editing.
pub enum NodeMut<'a> {
    Batch(&'a mut Snapshot),
    Order(&'a mut OrderEntry),
    Asset(&'a mut AssetEntry),
    Product(&'a mut ProductEntry),
    Feature(&'a mut FeatureEntry),
    Merchandise(&'a mut MerchandiseEntry),
}

impl NodeMut<'_> {
    /// The node's values held verbatim.
    pub fn raw_mut(&mut self) -> &mut Raw {
        match self {
            Self::Batch(n) => &mut n.head_mut().raw,
            Self::Order(n) => &mut n.raw,
            Self::Asset(n) => &mut n.raw,
            Self::Product(n) => &mut n.raw,
            Self::Feature(n) => &mut n.raw,
            Self::Merchandise(n) => &mut n.raw,
        }
    }
}

/// A node, borrowed for reading.
pub enum NodeRef<'a> {
    Batch(&'a Snapshot),
    Order(&'a OrderEntry),
    Asset(&'a AssetEntry),
    Product(&'a ProductEntry),
    Feature(&'a FeatureEntry),
    Merchandise(&'a MerchandiseEntry),
}

impl NodeRef<'_> {
    pub fn kind(&self) -> Kind {
        match self {
            NodeRef::Batch(_) => Kind::Batch,
            NodeRef::Order(_) => Kind::Order,
            NodeRef::Asset(_) => Kind::Asset,
            NodeRef::Product(_) => Kind::Product,
            NodeRef::Feature(_) => Kind::Feature,
            NodeRef::Merchandise(_) => Kind::Merchandise,
        }
    }
}

pub fn resolve_mut<'a>(batch: &'a mut Snapshot, id: &NodeId) -> Option<NodeMut<'a>> {
    let mut node = NodeMut::Batch(batch);
    for step in &id.0 {
        node = match (node, *step) {
            (NodeMut::Batch(b), Step::Order(i)) => NodeMut::Order(b.order_mut(i)?),
            (NodeMut::Order(o), Step::Asset(i)) => NodeMut::Asset(o.assets.get_mut(i)?),
            (NodeMut::Asset(a), Step::Product(i)) => NodeMut::Product(a.products.get_mut(i)?),
            (NodeMut::Asset(a), Step::Merchandise(i)) => {
                NodeMut::Merchandise(a.merchandises.get_mut(i)?)
            }
            (NodeMut::Product(p), Step::Feature(i)) => {
                NodeMut::Feature(p.product_features.get_mut(i)?)
            }
            (NodeMut::Merchandise(m), Step::Child(i)) => {
                NodeMut::Merchandise(m.children.as_mut()?.get_mut(i)?)
            }
            (NodeMut::Merchandise(m), Step::MerchProduct(i)) => {
                NodeMut::Product(m.license_order_product_list.get_mut(i)?)
            }
            _ => return None,
        };
    }
    Some(node)
}

pub fn resolve<'a>(batch: &'a Snapshot, id: &NodeId) -> Option<NodeRef<'a>> {
    let mut node = NodeRef::Batch(batch);
    for step in &id.0 {
        node = match (node, *step) {
            (NodeRef::Batch(b), Step::Order(i)) => NodeRef::Order(b.order(i)?),
            (NodeRef::Order(o), Step::Asset(i)) => NodeRef::Asset(o.assets.get(i)?),
            (NodeRef::Asset(a), Step::Product(i)) => NodeRef::Product(a.products.get(i)?),
            (NodeRef::Asset(a), Step::Merchandise(i)) => {
                NodeRef::Merchandise(a.merchandises.get(i)?)
            }
            (NodeRef::Product(p), Step::Feature(i)) => NodeRef::Feature(p.product_features.get(i)?),
            (NodeRef::Merchandise(m), Step::Child(i)) => {
                NodeRef::Merchandise(m.children.as_ref()?.get(i)?)
            }
            (NodeRef::Merchandise(m), Step::MerchProduct(i)) => {
                NodeRef::Product(m.license_order_product_list.get(i)?)
            }
            _ => return None,
        };
    }
    Some(node)
}

/// The children of a node, in the order the tree shows them.
pub fn children(node: &NodeRef<'_>) -> Vec<Step> {
    match node {
        NodeRef::Batch(b) => (0..b.len()).map(Step::Order).collect(),
        NodeRef::Order(o) => (0..o.assets.len()).map(Step::Asset).collect(),
        NodeRef::Asset(a) => (0..a.products.len())
            .map(Step::Product)
            .chain((0..a.merchandises.len()).map(Step::Merchandise))
            .collect(),
        NodeRef::Product(p) => (0..p.product_features.len()).map(Step::Feature).collect(),
        NodeRef::Feature(_) => Vec::new(),
        NodeRef::Merchandise(m) => (0..m.license_order_product_list.len())
            .map(Step::MerchProduct)
            .chain((0..m.children.as_ref().map_or(0, Vec::len)).map(Step::Child))
            .collect(),
    }
}

pub fn has_children(node: &NodeRef<'_>) -> bool {
    match node {
        NodeRef::Batch(b) => !b.is_empty(),
        NodeRef::Order(o) => !o.assets.is_empty(),
        NodeRef::Asset(a) => !a.products.is_empty() || !a.merchandises.is_empty(),
        NodeRef::Product(p) => !p.product_features.is_empty(),
        NodeRef::Feature(_) => false,
        NodeRef::Merchandise(m) => {
            !m.license_order_product_list.is_empty()
                || m.children.as_ref().is_some_and(|c| !c.is_empty())
        }
    }
}

/// What can be done to a node among its siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListOp {
    Remove,
    Duplicate,
    Up,
    Down,
}

/// Applies `op` to the node; answers the node to select afterwards.
pub fn edit(batch: &mut Snapshot, id: &NodeId, op: ListOp) -> Option<NodeId> {
    let parent = id.parent()?;
    let last = id.last()?;
    let parent_node = resolve_mut(batch, &parent)?;
    let i = last.index();
    let new_index = match (parent_node, last) {
        (NodeMut::Batch(b), Step::Order(_)) => {
            let next_sequence = next_sequence(b);
            // Pointers moved: an order moved or removed is not copied.
            let at = edit_list(b.orders_mut(), i, op)?;
            // A copied order gets its own sequence: two orders may not share one.
            if op == ListOp::Duplicate
                && let Some(copy) = b.order_mut(at)
            {
                copy.sequence = Some(next_sequence);
            }
            Some(at)
        }
        (NodeMut::Order(o), Step::Asset(_)) => edit_list(&mut o.assets, i, op),
        (NodeMut::Asset(a), Step::Product(_)) => edit_list(&mut a.products, i, op),
        (NodeMut::Asset(a), Step::Merchandise(_)) => edit_list(&mut a.merchandises, i, op),
        (NodeMut::Product(p), Step::Feature(_)) => edit_list(&mut p.product_features, i, op),
        (NodeMut::Merchandise(m), Step::Child(_)) => {
            let children = m.children.get_or_insert_with(Vec::new);
            let at = edit_list(children, i, op);
            if children.is_empty() {
                // The deepest level carries `null`, as the interface shows it.
                m.children = None;
            }
            at
        }
        (NodeMut::Merchandise(m), Step::MerchProduct(_)) => {
            edit_list(&mut m.license_order_product_list, i, op)
        }
        _ => None,
    };
    Some(match new_index {
        Some(at) => id.sibling(at),
        None => parent,
    })
}

/// The sequence after the batch's largest.
fn next_sequence(batch: &Snapshot) -> i32 {
    batch
        .orders()
        .filter_map(|o| o.sequence)
        .max()
        .map_or(1, |m| m.saturating_add(1))
}

/// None: the list is empty afterwards (select the parent).
fn edit_list<T: Clone>(list: &mut Vec<T>, i: usize, op: ListOp) -> Option<usize> {
    if i >= list.len() {
        return None;
    }
    match op {
        ListOp::Remove => {
            list.remove(i);
            if list.is_empty() {
                None
            } else {
                Some(i.min(list.len() - 1))
            }
        }
        ListOp::Duplicate => {
            let copy = list[i].clone();
            list.insert(i + 1, copy);
            Some(i + 1)
        }
        ListOp::Up if i > 0 => {
            list.swap(i, i - 1);
            Some(i - 1)
        }
        ListOp::Down if i + 1 < list.len() => {
            list.swap(i, i + 1);
            Some(i + 1)
        }
        ListOp::Up | ListOp::Down => Some(i),
    }
}

/// What a node is, for the buttons its form offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Batch,
    Order,
    Asset,
    Product,
    Feature,
    Merchandise,
}

/// A child that can be added to a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Add {
    Order,
    Asset,
    Product,
    Package,
    Feature,
    SubPackage,
}

/// Adds an empty child of the kind to the node; answers the new node.
pub fn add_child(batch: &mut Snapshot, at: &NodeId, what: Add) -> Option<NodeId> {
    let node = resolve_mut(batch, at)?;
    let step = match (node, what) {
        (NodeMut::Batch(b), Add::Order) => {
            // A new order continues the sequence and the last order's customer and types.
            let mut order =
                b.order(b.len().wrapping_sub(1))
                    .map_or_else(OrderEntry::default, |o| OrderEntry {
                        assets: Vec::new(),
                        ..o.clone()
                    });
            order.sequence = Some(next_sequence(b));
            if order.order_type.is_none() {
                order.order_type = Some(OrderType::NewBuy);
            }
            b.orders_mut().push(Arc::new(order));
            Step::Order(b.len() - 1)
        }
        (NodeMut::Order(o), Add::Asset) => {
            o.assets.push(AssetEntry::default());
            Step::Asset(o.assets.len() - 1)
        }
        (NodeMut::Asset(a), Add::Product) => {
            a.products.push(ProductEntry::default());
            Step::Product(a.products.len() - 1)
        }
        (NodeMut::Asset(a), Add::Package) => {
            a.merchandises.push(MerchandiseEntry::default());
            Step::Merchandise(a.merchandises.len() - 1)
        }
        (NodeMut::Product(p), Add::Feature) => {
            p.product_features.push(FeatureEntry::default());
            Step::Feature(p.product_features.len() - 1)
        }
        (NodeMut::Merchandise(m), Add::Product) => {
            m.license_order_product_list.push(ProductEntry::default());
            Step::MerchProduct(m.license_order_product_list.len() - 1)
        }
        (NodeMut::Merchandise(m), Add::SubPackage) => {
            let children = m.children.get_or_insert_with(Vec::new);
            children.push(MerchandiseEntry::default());
            Step::Child(children.len() - 1)
        }
        _ => return None,
    };
    Some(at.child(step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::BatchOrderRequest;

    #[test]
    fn a_problem_path_names_its_node_and_field() {
        let path = FieldPath(vec![
            Seg::Item("orderList", 2),
            Seg::Item("assets", 0),
            Seg::Item("assetNos", 3),
        ]);
        let (node, rest) = NodeId::of_path(&path);
        assert_eq!(node, NodeId(vec![Step::Order(2), Step::Asset(0)]));
        assert_eq!(rest, [Seg::Item("assetNos", 3)]);
        let path = FieldPath(vec![
            Seg::Item("orderList", 0),
            Seg::Item("assets", 1),
            Seg::Item("merchandises", 0),
            Seg::Item("children", 2),
            Seg::Field("merchandiseNum"),
        ]);
        let (node, rest) = NodeId::of_path(&path);
        assert_eq!(
            node.to_string(),
            "orderList[0].assets[1].merchandises[0].children[2]"
        );
        assert_eq!(rest, [Seg::Field("merchandiseNum")]);
        let channel = FieldPath::field("channelCode");
        assert_eq!(NodeId::of_path(&channel), (NodeId::root(), &channel.0[..]));
    }

    #[test]
    fn a_platform_path_is_read_back() {
        let (node, field) =
            NodeId::parse_path("orderList[1].assets[0].assetNos[2]").expect("a path");
        assert_eq!(node, NodeId(vec![Step::Order(1), Step::Asset(0)]));
        assert_eq!(field, "assetNos");
        let (node, field) = NodeId::parse_path("orderList[0].srcLicenseOrderId").expect("a path");
        assert_eq!(
            (node, field.as_str()),
            (NodeId(vec![Step::Order(0)]), "srcLicenseOrderId")
        );
        assert_eq!(
            NodeId::parse_path("channelOrderId"),
            Some((NodeId::root(), "channelOrderId".to_owned()))
        );
        assert_eq!(NodeId::parse_path("orderList[x]"), None);
        assert_eq!(NodeId::parse_path("g_nonce"), None);
    }

    #[test]
    fn duplicating_an_order_gives_it_the_next_sequence_and_removing_selects_a_neighbour() {
        let mut batch = Snapshot::from(BatchOrderRequest {
            order_list: vec![
                OrderEntry {
                    sequence: Some(1),
                    ..OrderEntry::default()
                },
                OrderEntry {
                    sequence: Some(7),
                    ..OrderEntry::default()
                },
            ],
            ..BatchOrderRequest::default()
        });
        let first = NodeId(vec![Step::Order(0)]);
        let copy = edit(&mut batch, &first, ListOp::Duplicate).expect("copied");
        assert_eq!(copy, NodeId(vec![Step::Order(1)]));
        let sequences: Vec<_> = batch.orders().map(|o| o.sequence).collect();
        assert_eq!(sequences, [Some(1), Some(8), Some(7)]);
        let after = edit(&mut batch, &NodeId(vec![Step::Order(2)]), ListOp::Remove);
        assert_eq!(after, Some(NodeId(vec![Step::Order(1)])));
        let up = edit(&mut batch, &NodeId(vec![Step::Order(1)]), ListOp::Up);
        assert_eq!(up, Some(first));
        assert_eq!(batch.order(0).and_then(|o| o.sequence), Some(8));
    }
}
