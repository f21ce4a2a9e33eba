//! One read of a profile's whole directory: each enterprise's fate, the rows, and why the read
//! stopped early, if it did. What was read before a stop is kept.

use serde::{Deserialize, Serialize};

use super::{Orders, RowRef, Table};

/// What became of one enterprise of the directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadState {
    /// Not read: the read stopped before it.
    NotRead,
    Read,
    /// The platform refused the listing (an enterprise it does not have, say): its code and
    /// words.
    Refused {
        code: String,
        message: String,
    },
}

/// An enterprise of the directory, with the names the directory gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnterpriseRead {
    pub global_id: String,
    pub name: Option<String>,
    pub customer_name: Option<String>,
    /// The branch the directory gives its customer (name, else code).
    pub branch: Option<String>,
    /// The channel the directory gives its customer, for a renewal's batch.
    pub channel_code: Option<String>,
    pub state: ReadState,
    pub assets: u32,
    /// Assets with no end date known: never counted as expiring.
    pub undated: u32,
}

impl EnterpriseRead {
    /// An enterprise not read yet, with no names.
    pub fn new(global_id: String) -> Self {
        Self {
            global_id,
            name: None,
            customer_name: None,
            branch: None,
            channel_code: None,
            state: ReadState::NotRead,
            assets: 0,
            undated: 0,
        }
    }
}

/// Why a read ended before every enterprise was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stop {
    /// The user cancelled, at this time.
    Cancelled { at: i64 },
    /// The platform stopped answering (not reached, no answer, a time-out): its words.
    NoAnswer { at: i64, why: String },
}

/// A read of every enterprise of a profile's directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Read {
    pub profile: String,
    pub started_at: i64,
    pub ended_at: i64,
    pub enterprises: Vec<EnterpriseRead>,
    pub table: Table,
    pub stop: Option<Stop>,
    /// The rows in each column's order, for the window ([`Read::sort`]); not kept in the cache.
    #[serde(skip)]
    pub orders: Orders,
}

impl Read {
    /// Sorts the rows by each column once, for the table (off the window's thread).
    pub fn sort(&mut self) {
        self.orders = Orders::of(self);
    }

    /// The enterprise a row belongs to.
    pub fn enterprise_of(&self, row: &RowRef<'_>) -> Option<&EnterpriseRead> {
        self.enterprises.get(row.enterprise())
    }

    /// The license types of the rows, sorted.
    pub fn license_types(&self) -> Vec<String> {
        let mut seen = std::collections::BTreeSet::new();
        let mut found = std::collections::HashSet::new();
        for r in self.table.iter() {
            if found.insert(r.ids().license_type) {
                seen.insert(r.license_type().to_owned());
            }
        }
        seen.into_iter().collect()
    }

    /// The branches of the enterprises, sorted.
    pub fn branches(&self) -> Vec<String> {
        let found: std::collections::BTreeSet<String> = self
            .enterprises
            .iter()
            .filter_map(|e| e.branch.clone())
            .collect();
        found.into_iter().collect()
    }

    /// How many enterprises were read, and of how many.
    pub fn read_count(&self) -> (usize, usize) {
        let read = self
            .enterprises
            .iter()
            .filter(|e| e.state == ReadState::Read)
            .count();
        (read, self.enterprises.len())
    }
}

/// Takes the names and branch a directory entry gives, where the enterprise has none yet.
pub fn named(e: &mut EnterpriseRead, entry: &crate::core::catalog::entries::DirectoryEntry) {
    if e.name.is_none() {
        e.name = given(&entry.enterprise_name);
    }
    if e.customer_name.is_none() {
        e.customer_name = given(&entry.customer_name);
    }
    if e.branch.is_none() {
        e.branch = given(&entry.branch_name).or_else(|| given(&entry.branch_code));
    }
    if e.channel_code.is_none() {
        e.channel_code = given(&entry.channel_code);
    }
}

/// A value that says something: not absent, not blank.
pub fn given(s: &Option<String>) -> Option<String> {
    wire::preview::given(s)
}
