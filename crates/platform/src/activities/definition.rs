//! The activities file given to `serve --activities FILE`: what can be claimed, by whom, when.
//! Every rule is checked while the file is read, so a bad file is refused with the path of the
//! field and its line and column.

use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;

use serde::Deserialize;

use wire::parse;

/// A string that is not blank (trimmed when read).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "String")]
pub struct NonBlank(String);

impl TryFrom<String> for NonBlank {
    type Error = &'static str;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        let t = s.trim();
        if t.is_empty() {
            Err("must not be blank")
        } else {
            Ok(Self(t.to_owned()))
        }
    }
}

impl NonBlank {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Who may claim: the kinds of participant identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IdentityKind {
    /// `1` followed by 10 digits.
    Mobile,
    Email,
    /// An enterprise global id known to the platform.
    Enterprise,
    /// The asset number of a lock known to the platform.
    Lock,
}

impl IdentityKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Mobile => "mobile",
            Self::Email => "email",
            Self::Enterprise => "enterprise",
            Self::Lock => "lock",
        }
    }
}

/// `activateType` of 2.7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ActivateType {
    /// "0": active from the claim.
    #[serde(rename = "0")]
    AtClaim,
    /// "1": to be activated separately later.
    #[serde(rename = "1")]
    Later,
}

impl ActivateType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AtClaim => "0",
            Self::Later => "1",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UnitProduct {
    pub product_uri: NonBlank,
    pub valid_days: NonZeroU32,
    pub activate_type: ActivateType,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "RawUnit")]
pub struct Unit {
    pub id: NonBlank,
    pub name: String,
    pub max_claims_per_identity: NonZeroU32,
    /// Absent: unlimited.
    pub stock: Option<u64>,
    /// Absent: every kind.
    pub identity_kinds: Option<Vec<IdentityKind>>,
    pub products: Vec<UnitProduct>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawUnit {
    id: NonBlank,
    name: String,
    max_claims_per_identity: NonZeroU32,
    #[serde(default)]
    stock: Option<u64>,
    #[serde(default)]
    identity_kinds: Option<Vec<IdentityKind>>,
    products: Vec<UnitProduct>,
}

impl TryFrom<RawUnit> for Unit {
    type Error = String;
    fn try_from(r: RawUnit) -> Result<Self, Self::Error> {
        if r.products.is_empty() {
            return Err(format!("unit {}: products must not be empty", r.id.0));
        }
        if r.identity_kinds.as_ref().is_some_and(Vec::is_empty) {
            return Err(format!(
                "unit {}: identityKinds must not be empty (leave it out to accept every kind)",
                r.id.0
            ));
        }
        Ok(Self {
            id: r.id,
            name: r.name,
            max_claims_per_identity: r.max_claims_per_identity,
            stock: r.stock,
            identity_kinds: r.identity_kinds,
            products: r.products,
        })
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "RawActivity")]
pub struct Activity {
    pub id: NonBlank,
    pub label: NonBlank,
    pub name: String,
    /// Epoch milliseconds, inclusive.
    pub start_time: i64,
    /// Epoch milliseconds, inclusive.
    pub end_time: i64,
    /// Absent: any source.
    pub sources: Option<Vec<String>>,
    /// Absent: any branch.
    pub branches: Option<Vec<String>>,
    pub units: Vec<Unit>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawActivity {
    id: NonBlank,
    label: NonBlank,
    name: String,
    start_time: i64,
    end_time: i64,
    #[serde(default)]
    sources: Option<Vec<String>>,
    #[serde(default)]
    branches: Option<Vec<String>>,
    units: Vec<Unit>,
}

impl TryFrom<RawActivity> for Activity {
    type Error = String;
    fn try_from(r: RawActivity) -> Result<Self, Self::Error> {
        let which = format!("activity {}", r.id.0);
        if r.end_time < r.start_time {
            return Err(format!("{which}: endTime is before startTime"));
        }
        if r.units.is_empty() {
            return Err(format!("{which}: units must not be empty"));
        }
        let mut ids = HashSet::new();
        for u in &r.units {
            if !ids.insert(u.id.as_str()) {
                return Err(format!("{which}: unit id {} is used twice", u.id.0));
            }
        }
        Ok(Self {
            id: r.id,
            label: r.label,
            name: r.name,
            start_time: r.start_time,
            end_time: r.end_time,
            sources: r.sources,
            branches: r.branches,
            units: r.units,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    activities: Vec<Activity>,
}

/// Why an activities file is refused; each names the field.
#[derive(Debug, thiserror::Error)]
pub enum NotActivities {
    #[error("{0}")]
    Parse(#[from] parse::ParseError),
    #[error("activities[{index}].id: {id} is used twice")]
    IdTwice { index: usize, id: String },
    #[error("activities[{index}].label: {label} is used twice")]
    LabelTwice { index: usize, label: String },
}

/// The activities in force, by label.
#[derive(Debug, Clone, Default)]
pub struct Activities {
    by_label: HashMap<String, Activity>,
}

impl Activities {
    /// Reads an activities file; the error names the field, line and column.
    pub fn parse(text: &[u8]) -> Result<Activities, NotActivities> {
        let file: RawFile = parse::json(text)?;
        let mut by_label = HashMap::new();
        let mut ids = HashSet::new();
        for (index, a) in file.activities.into_iter().enumerate() {
            if !ids.insert(a.id.0.clone()) {
                let id = a.id.0;
                return Err(NotActivities::IdTwice { index, id });
            }
            let label = a.label.0.clone();
            if by_label.insert(label.clone(), a).is_some() {
                return Err(NotActivities::LabelTwice { index, label });
            }
        }
        Ok(Activities { by_label })
    }

    pub fn get(&self, label: &str) -> Option<&Activity> {
        self.by_label.get(label)
    }

    pub fn len(&self) -> usize {
        self.by_label.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_label.is_empty()
    }
}
