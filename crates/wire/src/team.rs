//! The team server's own endpoints (`docs/team.md`): what a console sends to sign in and what
//! it reads back about the person signed in. The platform's operations go through a team
//! server unchanged; these shapes are its additions, shared by the server and the console.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The team server's own paths.
pub mod paths {
    /// `POST` signs in, `DELETE` signs out.
    pub const SESSION: &str = "/team/v1/session";
    /// `GET`: the person signed in and their permissions.
    pub const ME: &str = "/team/v1/me";
    /// `GET`: the audit log's entries the person may see.
    pub const AUDIT: &str = "/team/v1/audit";
    /// `GET ?after=CURSOR&wait=SECONDS`: a long poll that answers once the requests changed.
    pub const EVENTS: &str = "/team/v1/events";
}

/// `GET /team/v1/events`'s data: where the requests stand now, as an opaque cursor; a
/// console reads what it needs again when it differs from the one it sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Events {
    pub cursor: String,
}

/// The `cause` of a refusal for a missing permission starts with this (`permission:locks`).
pub const PERMISSION_CAUSE: &str = "permission:";

/// The `cause` of a refusal because another branch holds what the call touches starts with
/// this, the holding branch's name after it (`branch:上海`).
pub const BRANCH_CAUSE: &str = "branch:";

/// The `cause` of a team server's answer that it sent nothing to the platform (the platform
/// could not be reached, or the call could not be recorded first): the call may be sent again.
pub const NOT_SENT_CAUSE: &str = "not_sent";

/// Whether an answer's `cause` is one of a team server's own (its permission, branch,
/// session, sign-in, request and "not sent" answers, its own failures): the team server spoke,
/// not the platform behind it.
pub fn is_own_cause(cause: &str) -> bool {
    use crate::approval::{HELD_CAUSE, causes};
    let prefixed = [PERMISSION_CAUSE, BRANCH_CAUSE, HELD_CAUSE];
    let own = [
        SESSION_CAUSE,
        SIGN_IN_CAUSE,
        NOT_SENT_CAUSE,
        OWN_FAILURE_CAUSE,
        OWN_REFUSAL_CAUSE,
        causes::OWN,
        causes::CHANGED,
        causes::REQUESTER_DISABLED,
        causes::DECIDED,
        causes::OTHER_BRANCH,
        causes::REQUESTER_LACKS,
        causes::NOT_FOUND,
        causes::CLAIM_TAKEN,
        "no_draft",
    ];
    prefixed.iter().any(|p| cause.starts_with(p)) || own.contains(&cause)
}

/// The `cause` of the team server's own failure (its store, its record).
pub const OWN_FAILURE_CAUSE: &str = "team server";

/// The `cause` of a body or field the team server refused before anything was sent.
pub const OWN_REFUSAL_CAUSE: &str = "refused by the team server";

/// The `cause` of a refusal because the session is missing or ended.
pub const SESSION_CAUSE: &str = "session";

/// The `cause` of a sign-in refused (a wrong name or password, an account disabled or
/// locked for a while).
pub const SIGN_IN_CAUSE: &str = "sign_in";

/// What a call needs (docs/team.md, "Roles and permissions").
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "snake_case")]
pub enum Permission {
    /// Query customers (3), list assets (8), one's own history.
    Read,
    /// Bind, create and update customers (1, 2, 4).
    Customers,
    /// Batches of new purchases (5, `new_buy`).
    Purchase,
    /// Asset numbers (9).
    Numbers,
    /// Activity claims (11).
    Claim,
    /// Disable and enable locks (6, 7).
    Locks,
    /// Batches that delete assets or products (5, `delete_asset`, `delete_product`).
    Delete,
    /// Decide on others' requests.
    Approve,
    /// People, roles, settings and everyone's record.
    Users,
}

impl Permission {
    pub const ALL: &'static [Permission] = <Permission as strum::VariantArray>::VARIANTS;

    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Permission> {
        name.parse().ok()
    }

    /// What a batch's order of this type needs: a purchase or a delete.
    pub fn for_order(order_type: crate::OrderType) -> Permission {
        match order_type {
            crate::OrderType::NewBuy => Self::Purchase,
            crate::OrderType::DeleteAsset | crate::OrderType::DeleteProduct => Self::Delete,
        }
    }

    /// What filing a call that needs `self` takes of a person who `may` what they may: a
    /// delete is always held for a second person (whose `approve` sends it), so whoever may
    /// purchase may file one; everything else needs what it needs.
    pub fn to_file(self, may: impl Fn(Permission) -> bool) -> Permission {
        match self {
            Self::Delete if !may(Self::Delete) => Self::Purchase,
            p => p,
        }
    }

    /// The permission a refusal's `cause` names (`permission:locks`), if it names one.
    pub fn from_cause(cause: &str) -> Option<Permission> {
        cause
            .strip_prefix(PERMISSION_CAUSE)
            .and_then(Self::from_name)
    }
}

impl fmt::Display for Permission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The branch a person orders for: both fields of the interface's orders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Branch {
    pub code: String,
    pub name: String,
}

/// `POST /team/v1/session`'s body. No `Debug`: it holds a password.
#[derive(Serialize, Deserialize)]
pub struct SignIn {
    pub name: String,
    pub password: String,
}

/// Who a person is, as a console shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Card {
    pub name: String,
    #[serde(default)]
    pub display_name: String,
    pub role: String,
    #[serde(default)]
    pub branch: Option<Branch>,
}

/// `GET /team/v1/me`'s data: the person signed in and what they may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub person: Card,
    /// Unknown names (a newer server's) are dropped, not an error.
    #[serde(deserialize_with = "known_permissions")]
    pub permissions: Vec<Permission>,
    /// When this person's calls wait for a second person, and who decides them (absent from
    /// servers before issue 55).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub four_eyes: Option<crate::approval::FourEyes>,
}

impl Me {
    pub fn may(&self, p: Permission) -> bool {
        self.permissions.contains(&p)
    }
}

/// A sign-in's answer. No `Debug`: it holds the session's token.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub token: String,
    /// When the session ends at the latest (epoch ms); it ends sooner when idle.
    pub expires_at: i64,
    pub idle_minutes: u64,
    #[serde(flatten)]
    pub me: Me,
}

/// `GET /team/v1/audit`'s query: newest first, before an entry if given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditQuery {
    /// One person's entries; without `users`, only one's own may be asked (and are, when
    /// none is named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<String>,
    /// Entries before this one (its `seq`), for the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
    /// At most this many (100 when absent, 1000 at most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

impl AuditQuery {
    pub const DEFAULT_LIMIT: u32 = 100;
    pub const MAX_LIMIT: u32 = 1000;
}

/// One entry of the team server's audit log, as a console reads it (its hashes aside:
/// `team audit verify` proves the chain).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub seq: i64,
    /// Epoch milliseconds.
    pub at: i64,
    pub person: String,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub branch: Option<String>,
    /// The operation (`lock`, `batch_order`, …) or the server's own action (`sign_in`, …).
    pub operation: String,
    #[serde(default)]
    pub call_id: Option<String>,
    /// `done`, `refused`, `denied`, `invalid`, `not_sent`, `unknown` or `failed`.
    pub outcome: String,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    /// As forwarded (passwords as `***`).
    #[serde(default)]
    pub request: Option<String>,
    #[serde(default)]
    pub answer: Option<String>,
}

fn known_permissions<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Permission>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    Ok(names
        .iter()
        .filter_map(|n| Permission::from_name(n))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_servers_permission_is_dropped_and_the_rest_kept() {
        let me: Me = serde_json::from_str(
            r#"{"person":{"name":"li","role":"staff"},"permissions":["read","teleport","locks"]}"#,
        )
        .unwrap();
        assert_eq!(me.permissions, vec![Permission::Read, Permission::Locks]);
        assert!(me.may(Permission::Locks) && !me.may(Permission::Delete));
        assert_eq!(
            Permission::from_cause("permission:delete"),
            Some(Permission::Delete)
        );
        assert_eq!(Permission::from_cause("session"), None);
    }
}

/// What an audit entry's `answer` says for the consoles to word in their own language, when
/// the entry keeps no answer of the platform's: a listing's size, how far shared knowledge
/// reached, why a sign-in was refused. The `message` beside it says the same in English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum RecordNote {
    Listed {
        assets: u64,
    },
    Shared {
        last: i64,
    },
    #[serde(rename_all = "camelCase")]
    SignInRefused {
        /// The refusal's kind: `wrong_name_or_password`, `disabled`, `slowed`, `busy`, …
        why: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_seconds: Option<u64>,
    },
}

impl RecordNote {
    /// As an entry's `answer`.
    pub fn to_answer(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }

    /// The note an entry's `answer` holds, if it is one.
    pub fn of_answer(answer: Option<&str>) -> Option<RecordNote> {
        serde_json::from_str(answer?).ok()
    }
}
