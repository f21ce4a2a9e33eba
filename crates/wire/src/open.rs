//! Opening a batch order file whole: every field that fits is read into the typed tree; a value
//! of the wrong type or outside the interface's list is kept verbatim in its node's [`Raw`],
//! shown and listed with the other problems, and written back unchanged. Only a file that is
//! not JSON, or whose top level is not an object, cannot be opened.

use jsonc_parser::common::Ranged;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::declared::fields_of;
use super::order::{
    AssetEntry, BatchOrderRequest, ExtendEntry, FeatureEntry, MerchandiseEntry, OrderEntry,
    ProductEntry,
};
use super::raw::{Raw, kind_of};
use super::validate::{Expected, FieldPath, ProblemKind, Seg};

/// Why a file cannot be opened at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("line {line}, column {column}: not JSON: {message}")]
    NotJson {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("line {line}, column {column}: a batch order is a JSON object ({{…}})")]
    NotAnObject { line: usize, column: usize },
}

impl OpenError {
    /// Line and column of what cannot be read.
    pub fn at(&self) -> (usize, usize) {
        match self {
            Self::NotJson { line, column, .. } | Self::NotAnObject { line, column } => {
                (*line, *column)
            }
        }
    }

    /// What is wrong, without where.
    pub fn what(&self) -> String {
        match self {
            Self::NotJson { message, .. } => format!("not JSON: {message}"),
            Self::NotAnObject { .. } => "a batch order is a JSON object ({…})".to_owned(),
        }
    }
}

/// Opens a batch order from a file's bytes: as [`open_batch`], past a UTF-8 byte-order mark,
/// which Windows tools write and a request body must not have.
pub fn open_batch_file(bytes: &[u8]) -> Result<BatchOrderRequest, OpenError> {
    open_batch(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
}

/// Opens a batch order from JSON.
pub fn open_batch(bytes: &[u8]) -> Result<BatchOrderRequest, OpenError> {
    if let Some(batch) = open_fitting(bytes) {
        return Ok(batch);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(at) => message[..at].to_owned(),
            None => message,
        };
        OpenError::NotJson {
            line: e.line(),
            column: e.column(),
            message,
        }
    })?;
    match value {
        Value::Object(obj) => Ok(open_node(obj, Source::Json)),
        _ => {
            let start = bytes
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(0);
            let (line, column) = line_column(bytes, start);
            Err(OpenError::NotAnObject { line, column })
        }
    }
}

/// The common case at the speed of one typed parse: a batch whose every key is a field and
/// every value fits is read straight from the text, with no tree of values in between (it
/// opens exactly as below, holding nothing verbatim). None for anything else, which then opens
/// node by node.
fn open_fitting(bytes: &[u8]) -> Option<BatchOrderRequest> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let (batch, unknown): (BatchOrderRequest, bool) = super::skipped::deserialize(&mut de).ok()?;
    de.end().ok()?;
    (!unknown).then_some(batch)
}

/// Where a batch's JSON came from: a date a spreadsheet gives as text is typed text (it is
/// shown as typed, as a date to correct), one a JSON file gives as text is of the wrong type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Json,
    Sheet,
}

/// Opens a batch from a JSON object already read (a spreadsheet's rows, grouped).
pub fn open_object(obj: Map<String, Value>, source: Source) -> BatchOrderRequest {
    open_node(obj, source)
}

/// The batch as JSON, with every value held verbatim written back where it was.
pub fn batch_to_value(batch: &BatchOrderRequest) -> Value {
    let mut value = serde_json::to_value(batch).unwrap_or(Value::Null);
    if let Value::Object(obj) = &mut value
        && batch.holds_raw()
    {
        write_back(batch, obj);
    }
    value
}

/// The batch as JSON text, with every value held verbatim where it was.
pub fn batch_to_json(batch: &BatchOrderRequest, pretty: bool) -> serde_json::Result<String> {
    // Most batches hold nothing verbatim: written straight from the typed values, without a
    // tree of JSON values in between (several times faster for 10,000 orders).
    match (batch.holds_raw(), pretty) {
        (false, false) => serde_json::to_string(batch),
        (false, true) => serde_json::to_string_pretty(batch),
        (true, false) => serde_json::to_string(&batch_to_value(batch)),
        (true, true) => serde_json::to_string_pretty(&batch_to_value(batch)),
    }
}

/// Finds fields of a JSON text by their path, to say where a problem is in the file.
pub struct Locator<'a> {
    text: &'a str,
    ast: Option<jsonc_parser::ast::Value<'a>>,
    /// Byte offset where each line starts.
    lines: Vec<usize>,
    /// Characters before each `CHUNK` bytes of the text: a column is counted from the nearest
    /// one, so that placing every problem of a file on one long line stays linear.
    chars_before: Vec<usize>,
}

/// Bytes between two counts of characters in a [`Locator`].
const CHUNK: usize = 4096;

/// Characters in UTF-8 `bytes`: the bytes that start one.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| (**b & 0xC0) != 0x80).count()
}

impl<'a> Locator<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let text = std::str::from_utf8(bytes).unwrap_or_default();
        let options = jsonc_parser::ParseOptions {
            allow_comments: false,
            allow_loose_object_property_names: false,
            allow_trailing_commas: false,
        };
        let ast = jsonc_parser::parse_to_ast(text, &Default::default(), &options)
            .ok()
            .and_then(|parsed| parsed.value);
        let lines = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let chars_before = std::iter::once(0)
            .chain(text.as_bytes().chunks(CHUNK).scan(0, |n, chunk| {
                *n += chars_in(chunk);
                Some(*n)
            }))
            .collect();
        Self {
            text,
            ast,
            lines,
            chars_before,
        }
    }

    /// Characters before byte `offset` (a character boundary).
    fn chars_to(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let offset = offset.min(bytes.len());
        let chunk = offset / CHUNK;
        self.chars_before[chunk] + chars_in(&bytes[chunk * CHUNK..offset])
    }

    /// Line and column (1-based, the column in characters) of `path`'s value when the file has
    /// it, else of the nearest object or list above it.
    pub fn locate(&self, path: &FieldPath) -> (usize, usize) {
        self.locate_key(path, None)
    }

    /// As [`Self::locate`], for the value of `key` of the object at `path` when there is one: a
    /// key of no field of the interface, which a [`FieldPath`] cannot name.
    pub fn locate_key(&self, path: &FieldPath, key: Option<&str>) -> (usize, usize) {
        let Some(mut at) = self.ast.as_ref() else {
            return (1, 1);
        };
        for seg in &path.0 {
            let Some(prop) = at.as_object().and_then(|o| o.get(seg.name())) else {
                return self.line_column(at.start());
            };
            at = &prop.value;
            if let Seg::Item(_, i) = seg {
                match at.as_array().and_then(|a| a.elements.get(*i)) {
                    Some(item) => at = item,
                    None => return self.line_column(at.start()),
                }
            }
        }
        if let Some(prop) = key.and_then(|k| at.as_object()?.get(k)) {
            at = &prop.value;
        }
        self.line_column(at.start())
    }

    fn line_column(&self, offset: usize) -> (usize, usize) {
        let line = self.lines.partition_point(|start| *start <= offset).max(1);
        let start = self.lines[line - 1];
        let column = self.chars_to(offset).saturating_sub(self.chars_to(start)) + 1;
        (line, column)
    }
}

fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// A node of the batch tree: its typed fields, its lists of child nodes, and its raw values.
pub trait Node: DeserializeOwned + Serialize + Default {
    /// The fields holding lists of child nodes, opened one child at a time.
    const CHILDREN: &'static [&'static str];
    fn raw(&self) -> &Raw;
    fn raw_mut(&mut self) -> &mut Raw;
    /// Opens the children of the list field `key`.
    fn open_children(&mut self, key: &str, items: Vec<Map<String, Value>>, source: Source);
    /// Writes the children's raw values back into their JSON.
    fn write_children(&self, obj: &mut Map<String, Value>);
    /// Whether this node or one below it holds a value verbatim.
    fn holds_raw(&self) -> bool;
}

/// Reads `obj` into `T`; each field that does not fit goes to the node's raw values, with why.
fn open_node<T: Node>(mut obj: Map<String, Value>, source: Source) -> T {
    let mut children = Vec::new();
    for key in T::CHILDREN {
        if let Some(v) = obj.remove(*key) {
            children.push((*key, v));
        }
    }
    let fields = fields_of::<T>();
    let mut raw = Raw::default();
    // Keys of no field are kept aside: serde would drop them without a word.
    if obj.keys().any(|k| !fields.contains(&k.as_str())) {
        let (known, unknown): (Map<String, Value>, Map<String, Value>) = obj
            .into_iter()
            .partition(|(k, _)| fields.contains(&k.as_str()));
        obj = known;
        for (key, v) in unknown {
            raw.insert_unknown(key, v);
        }
    }
    let mut value = Value::Object(obj);
    let mut node = loop {
        let error = match serde_path_to_error::deserialize::<_, T>(&value) {
            Ok(node) => break node,
            Err(e) => e,
        };
        let key = match error.path().iter().next() {
            Some(serde_path_to_error::Segment::Map { key }) => key.clone(),
            _ => String::new(),
        };
        let taken = fields
            .iter()
            .find(|f| **f == key)
            .and_then(|f| Some((*f, value.as_object_mut()?.remove(*f)?)));
        match taken {
            Some((field, v)) => {
                let kind = kind_in::<T>(source, field, &v);
                raw.insert(field, v, kind);
            }
            // Not a field's value (cannot happen with an object of the derive's shape): the
            // node stays empty rather than guessing, its known fields kept verbatim.
            None => {
                for field in fields {
                    if let Some(v) = value.as_object_mut().and_then(|o| o.remove(*field)) {
                        let kind = kind_in::<T>(source, field, &v);
                        raw.insert(field, v, kind);
                    }
                }
                break T::default();
            }
        }
    };
    for (key, v) in children {
        match v {
            Value::Null => {}
            Value::Array(items) if items.iter().all(Value::is_object) => {
                let items = items
                    .into_iter()
                    .filter_map(|item| match item {
                        Value::Object(o) => Some(o),
                        _ => None,
                    })
                    .collect();
                node.open_children(key, items, source);
            }
            other => raw.insert(
                key,
                other,
                ProblemKind::WrongType {
                    expected: Expected::List,
                },
            ),
        }
    }
    *node.raw_mut() = raw;
    node
}

fn open_list<T: Node>(items: Vec<Map<String, Value>>, source: Source) -> Vec<T> {
    items.into_iter().map(|o| open_node(o, source)).collect()
}

fn kind_in<T: Node>(source: Source, field: &'static str, value: &Value) -> ProblemKind {
    match kind_of::<T>(field, value) {
        ProblemKind::WrongType {
            expected: Expected::Millis,
        } if source == Source::Sheet && value.is_string() => ProblemKind::NotADate,
        kind => kind,
    }
}

fn write_back<T: Node>(node: &T, obj: &mut Map<String, Value>) {
    node.write_children(obj);
    for (field, (value, _)) in node.raw().iter() {
        obj.insert(field.to_owned(), value.clone());
    }
    for (key, value) in node.raw().unknown() {
        obj.insert(key.to_owned(), value.clone());
    }
}

fn write_list<T: Node>(obj: &mut Map<String, Value>, key: &str, items: &[T]) {
    if let Some(Value::Array(values)) = obj.get_mut(key) {
        for (item, value) in items.iter().zip(values) {
            if let Value::Object(o) = value {
                write_back(item, o);
            }
        }
    }
}

/// `Node` for a type: its raw values are in `raw`; its lists of children are named.
macro_rules! node {
    ($type:ty, [$($key:literal => $field:ident: $child:ty),*]) => {
        impl Node for $type {
            const CHILDREN: &'static [&'static str] = &[$($key),*];
            fn raw(&self) -> &Raw {
                &self.raw
            }
            fn raw_mut(&mut self) -> &mut Raw {
                &mut self.raw
            }
            #[allow(unused_variables)]
            fn open_children(&mut self, key: &str, items: Vec<Map<String, Value>>, source: Source) {
                match key {
                    $($key => self.$field = open_list::<$child>(items, source).into(),)*
                    _ => {}
                }
            }
            #[allow(unused_variables)]
            fn write_children(&self, obj: &mut Map<String, Value>) {
                $(write_list::<$child>(obj, $key, node!(@slice self.$field));)*
            }
            fn holds_raw(&self) -> bool {
                !self.raw.is_empty()
                    $(|| node!(@slice self.$field).iter().any(Node::holds_raw))*
            }
        }
    };
    (@slice $e:expr) => {
        AsSlice::as_slice(&$e)
    };
}

/// A list of children, or an optional one (`children` of a merchandise).
trait AsSlice<T> {
    fn as_slice(&self) -> &[T];
}

impl<T> AsSlice<T> for Vec<T> {
    fn as_slice(&self) -> &[T] {
        self
    }
}

impl<T> AsSlice<T> for Option<Vec<T>> {
    fn as_slice(&self) -> &[T] {
        self.as_deref().unwrap_or_default()
    }
}

node!(BatchOrderRequest, ["orderList" => order_list: OrderEntry]);
node!(OrderEntry, ["assets" => assets: AssetEntry]);
node!(AssetEntry, [
    "assetExtendList" => asset_extend_list: ExtendEntry,
    "products" => products: ProductEntry,
    "merchandises" => merchandises: MerchandiseEntry
]);
node!(ProductEntry, ["productFeatures" => product_features: FeatureEntry]);
node!(MerchandiseEntry, [
    "children" => children: MerchandiseEntry,
    "licenseOrderProductList" => license_order_product_list: ProductEntry
]);
node!(ExtendEntry, []);
node!(FeatureEntry, []);

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Locator, OpenError, batch_to_value, open_batch, open_batch_file};
    use crate::raw::Raw;
    use crate::validate::problem::Expected;
    use crate::validate::{FieldPath, ProblemKind, Seg};

    #[test]
    fn columns_on_one_long_line_count_characters_across_chunks() {
        // Names in Chinese (3 bytes a character) so that chunks end inside characters.
        let orders: Vec<Value> = (0..3000)
            .map(|i| json!({"sequence": i, "customerName": "授权测试企业"}))
            .collect();
        let text = json!({"orderList": orders}).to_string();
        assert!(text.len() > 3 * super::CHUNK && !text.contains('\n'));
        let locator = Locator::new(text.as_bytes());
        for i in [0, 1, 1500, 2999] {
            let path = FieldPath(vec![Seg::Item("orderList", i), Seg::Field("customerName")]);
            let at = text
                .match_indices("\"customerName\":")
                .nth(i)
                .map(|(at, _)| at + "\"customerName\":".len())
                .expect("the field");
            let column = text[..at].chars().count() + 1;
            assert_eq!(locator.locate(&path), (1, column), "order {i}");
        }
    }

    fn fixture(name: &str) -> Vec<u8> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/orders");
        std::fs::read(dir.join(name)).expect("fixture")
    }

    #[test]
    fn every_fixture_written_back_untouched_gives_the_same_values() {
        for name in [
            "five-problems.json",
            "wrong-shape.json",
            "valid-purchase.json",
            "three-problems.json",
            "cloud-delete-without-source.json",
            "unknown-keys.json",
        ] {
            let bytes = fixture(name);
            let batch = open_batch(&bytes).expect("opens");
            let original: Value = serde_json::from_slice(&bytes).expect("json");
            assert_eq!(
                without_nulls(batch_to_value(&batch)),
                without_nulls(original),
                "{name}"
            );
        }
    }

    /// `null` and absent are the same to the interface (and a merchandise's `children` is
    /// always written, `null` at the deepest level).
    fn without_nulls(value: Value) -> Value {
        match value {
            Value::Object(o) => o
                .into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
            Value::Array(a) => a.into_iter().map(without_nulls).collect(),
            other => other,
        }
    }

    #[test]
    fn values_that_do_not_fit_are_kept_with_why() {
        let batch = open_batch(&fixture("five-problems.json")).expect("opens");
        let order = &batch.order_list[0];
        assert_eq!(order.license_type, None);
        assert_eq!(
            order.raw.get("licenseType"),
            Some(&(
                json!("golden_usbkey"),
                ProblemKind::UnknownValue {
                    value: "golden_usbkey".into()
                }
            ))
        );
        // The rest of the order was read.
        assert_eq!(order.channel_customer_id.as_deref(), Some("V-0005"));
        let package = &order.assets[0].merchandises[0];
        assert_eq!(package.merchandise_name.as_deref(), Some("专业版套餐"));
        let nested = &package.license_order_product_list[0];
        assert_eq!(nested.product_uri.as_deref(), Some("gms:1002"));
        assert_eq!(
            nested.raw.get("limitConcurrent").map(|r| &r.0),
            Some(&json!("two"))
        );
    }

    /// Each value that does not fit is judged by what its field is declared to hold.
    #[test]
    fn a_value_that_does_not_fit_is_judged_by_its_field_s_type() {
        let file = json!({"orderList": [{
            "sequence": "first", "licenseType": 7, "orderType": "sell_twice",
            "channelCustomerId": {"id": 1},
            "assets": [{"assetNos": "A-1", "borrowedUsbKey": "yes", "limitStartDate": "soon",
                        "products": [{"productUri": "gms:1", "limitConcurrent": 4294967296_i64}]}]
        }]});
        let batch = open_batch(file.to_string().as_bytes()).expect("opens");
        let order = &batch.order_list[0];
        let kind = |raw: &Raw, field| raw.get(field).map(|held| held.1.clone());
        let wrong = |expected| Some(ProblemKind::WrongType { expected });
        assert_eq!(
            kind(&order.raw, "sequence"),
            Some(ProblemKind::NotAWholeNumber)
        );
        assert_eq!(kind(&order.raw, "licenseType"), wrong(Expected::Text));
        assert_eq!(
            kind(&order.raw, "orderType"),
            Some(ProblemKind::UnknownValue {
                value: "sell_twice".into()
            })
        );
        assert_eq!(kind(&order.raw, "channelCustomerId"), wrong(Expected::Text));
        let asset = &order.assets[0];
        assert_eq!(kind(&asset.raw, "assetNos"), wrong(Expected::List));
        assert_eq!(kind(&asset.raw, "borrowedUsbKey"), wrong(Expected::YesNo));
        assert_eq!(kind(&asset.raw, "limitStartDate"), wrong(Expected::Millis));
        assert_eq!(
            kind(&asset.products[0].raw, "limitConcurrent"),
            Some(ProblemKind::OutOfRange {
                min: i32::MIN.into(),
                max: i32::MAX.into()
            })
        );
    }

    /// Keys the interface does not define are kept at their node, listed (not as problems),
    /// and the rest of the node is read.
    #[test]
    fn keys_of_no_field_are_kept_and_listed() {
        let batch = open_batch(&fixture("unknown-keys.json")).expect("opens");
        let order = &batch.order_list[0];
        assert_eq!(
            order.raw.unknown().collect::<Vec<_>>(),
            [("remark", &json!("x"))]
        );
        assert_eq!(order.channel_customer_id.as_deref(), Some("V-0007"));
        let listed: Vec<String> = crate::validate::unknown_keys(&batch)
            .iter()
            .map(ToString::to_string)
            .collect();
        let kept = "not a field of the interface; kept and sent as is";
        assert_eq!(
            listed,
            [
                format!("crmExportedBy: {kept}"),
                format!("orderList[0].remark: {kept}"),
                format!("orderList[0].assets[0].products[0].remark: {kept}"),
                format!("orderList[0].assets[0].merchandises[0].children[0].colour: {kept}"),
            ]
        );
        assert!(crate::validate::batch_order(&batch).is_empty());
    }

    #[test]
    fn only_what_is_not_an_object_of_json_is_refused_with_its_place() {
        assert_eq!(
            open_batch(b"\n  [1, 2]"),
            Err(OpenError::NotAnObject { line: 2, column: 3 })
        );
        let Err(OpenError::NotJson { line, column, .. }) = open_batch(&fixture("not-json.json"))
        else {
            panic!("not JSON");
        };
        assert_eq!((line, column), (2, 18));
        // A byte-order mark, as Windows tools write, is not a problem in a file.
        assert!(open_batch_file(b"\xEF\xBB\xBF{}").is_ok());
        assert!(open_batch(b"\xEF\xBB\xBF{}").is_err());
    }

    #[test]
    fn a_path_is_found_in_the_text_or_its_nearest_parent() {
        let text = "{\n  \"orderList\": [\n    {\"sequence\": \"one\"}\n  ]\n}";
        let locator = Locator::new(text.as_bytes());
        let order = [Seg::Item("orderList", 0)];
        let sequence = FieldPath([order[0], Seg::Field("sequence")].to_vec());
        assert_eq!(locator.locate(&sequence), (3, 18));
        let missing = FieldPath([order[0], Seg::Field("customerId")].to_vec());
        assert_eq!(locator.locate(&missing), (3, 5));
    }

    /// Every problem of a file in one pass: an order type the interface does not list hides
    /// neither the asset's nor the product's.
    #[test]
    fn every_problem_shows_at_once() {
        let batch = open_batch(
            json!({"channelCode": "CRM", "channelOrderId": "T-1",
                "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
                "licenseType": "normal_recover_usbkey", "orderType": "newbuy",
                "assets": [{"assetNos": ["80000001O2"], "products": [
                    {"productUri": "gms:1001", "endDate": 1798761600000i64,
                     "limitConcurrent": -1}]}]}]})
            .to_string()
            .as_bytes(),
        )
        .expect("opens");
        let (problems, warnings) = crate::validate::console_check(&batch, &batch.order_list);
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "orderList[0].orderType: newbuy is not a value the interface lists for this field",
                "orderList[0].assets[0].assetNos[0]: has a letter where a digit goes (O for 0, I or l for 1): 8000000102?",
                "orderList[0].assets[0].products[0].limitConcurrent: must not be negative",
                "orderList[0].assets[0].products[0].limitEndDate: endDate is not a field of the interface and would be ignored: rename it limitEndDate",
            ]
        );
        assert_eq!(warnings, []);
    }
}
