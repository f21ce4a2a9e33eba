//! Values a node of a batch could not take into its typed fields, kept verbatim: a file opens
//! whole, and what the console does not understand is shown, listed and written back as it was.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::declared::{Declared, declared};
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

/// Why `value` does not fit field `field` of `T`, judged by what the field is declared to hold
/// and by the value itself.
pub fn kind_of<T: DeserializeOwned>(field: &'static str, value: &Value) -> ProblemKind {
    const DATES: [&str; 3] = ["limitStartDate", "limitEndDate", "trialEndDate"];
    let wrong = |expected| ProblemKind::WrongType { expected };
    if DATES.contains(&field) {
        return wrong(Expected::Millis);
    }
    match declared::<T>(field) {
        Declared::Whole { min, max } if value.is_i64() || value.is_u64() => {
            ProblemKind::OutOfRange { min, max }
        }
        Declared::Whole { .. } => ProblemKind::NotAWholeNumber,
        Declared::YesNo => wrong(Expected::YesNo),
        Declared::List => wrong(Expected::List),
        Declared::Object => wrong(Expected::Object),
        Declared::Choice if value.is_string() => ProblemKind::UnknownValue {
            value: verbatim_text(value),
        },
        Declared::Choice | Declared::Text | Declared::Other => wrong(Expected::Text),
    }
}
