//! Values a node of a batch could not take into its typed fields, kept verbatim: a file opens
//! whole, and what the console does not understand is shown, listed and written back as it was.

use std::collections::BTreeMap;

use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::Value;

use super::validate::problem::{Expected, ProblemKind};

/// The fields of one node held verbatim, by the interface's name, each with why it could not
/// be taken; and the keys the interface does not define, with their values. Not part of the
/// wire shape: [`super::open`] fills it and writes it back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Raw {
    held: BTreeMap<&'static str, (Value, ProblemKind)>,
    /// Keys of no field of the interface (a CRM's own `remark`): kept so that a file opens
    /// and is written back whole, and sent as they are (the platform ignores them).
    unknown: BTreeMap<String, Value>,
}

impl Raw {
    pub fn get(&self, field: &str) -> Option<&(Value, ProblemKind)> {
        self.held.get(field)
    }

    pub fn insert(&mut self, field: &'static str, value: Value, kind: ProblemKind) {
        self.held.insert(field, (value, kind));
    }

    pub fn remove(&mut self, field: &str) -> Option<(Value, ProblemKind)> {
        self.held.remove(field)
    }

    /// Whether the node holds nothing verbatim, neither a field's value nor an unknown key.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty() && self.unknown.is_empty()
    }

    /// The fields held verbatim, with why.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &(Value, ProblemKind))> {
        self.held.iter().map(|(k, v)| (*k, v))
    }

    pub fn insert_unknown(&mut self, key: String, value: Value) {
        self.unknown.insert(key, value);
    }

    /// The keys of no field of the interface, with their values.
    pub fn unknown(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.unknown.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// The value as the user wrote it: a string as its text, anything else as JSON.
pub fn verbatim_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Why `value` does not fit `field`, from serde's own words about it.
pub fn kind_of(field: &str, value: &Value, serde_message: &str) -> ProblemKind {
    const DATES: [&str; 3] = ["limitStartDate", "limitEndDate", "trialEndDate"];
    if serde_message.starts_with("unknown variant") {
        return ProblemKind::UnknownValue {
            value: verbatim_text(value),
        };
    }
    if DATES.contains(&field) {
        return ProblemKind::WrongType {
            expected: Expected::Millis,
        };
    }
    let expected = serde_message.rsplit("expected ").next().unwrap_or_default();
    if serde_message.starts_with("invalid value: integer") {
        let (min, max) = match expected {
            "i32" => (i64::from(i32::MIN), i64::from(i32::MAX)),
            _ => (i64::MIN, i64::MAX),
        };
        return ProblemKind::OutOfRange { min, max };
    }
    if expected.starts_with('i') || expected.starts_with('u') || expected.contains("integer") {
        ProblemKind::NotAWholeNumber
    } else if expected.contains("bool") {
        ProblemKind::WrongType {
            expected: Expected::YesNo,
        }
    } else if expected.contains("sequence") {
        ProblemKind::WrongType {
            expected: Expected::List,
        }
    } else if expected.contains("struct") || expected.contains("map") {
        ProblemKind::WrongType {
            expected: Expected::Object,
        }
    } else {
        ProblemKind::WrongType {
            expected: Expected::Text,
        }
    }
}

/// The field names serde reads for `T`: the derive hands them to `deserialize_struct`, which
/// this deserializer records and then refuses.
pub fn fields_of<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(Introspect {
        fields: &mut fields,
    });
    fields
}

struct Introspect<'a> {
    fields: &'a mut &'static [&'static str],
}

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("introspection")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for Introspect<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        *self.fields = fields;
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}
