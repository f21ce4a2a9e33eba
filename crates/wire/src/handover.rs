//! Drafts handed over on a team server (`docs/team.md`, "Shared knowledge"): a person sends a
//! draft to a named colleague or to the approvers; the receiver opens it as a copy of their
//! own. The draft's text goes as it was written (a draft may not be a valid batch yet).

use serde::{Deserialize, Serialize};

/// `GET` lists the drafts handed to one and by one; `POST` a [`HandOver`] hands one over.
pub const PATH: &str = "/team/v1/drafts";
/// `GET` one handed draft (its text included); `DELETE` takes it off the server.
pub const ONE: &str = "/team/v1/drafts/{id}";
/// Handed to whoever has the permission `approve`.
pub const APPROVERS: &str = "approvers";

/// [`ONE`] with its `{id}` filled in.
pub fn one(id: i64) -> String {
    ONE.replace("{id}", &id.to_string())
}

/// A draft handed over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HandOver {
    pub name: String,
    /// The draft's text, verbatim.
    pub body: String,
    /// A person's sign-in name, or [`APPROVERS`].
    pub handed_to: String,
    #[serde(default)]
    pub note: String,
}

/// A handed draft as the server keeps it; its text only when one draft is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Handed {
    pub id: i64,
    pub owner: String,
    pub name: String,
    pub handed_to: String,
    #[serde(default)]
    pub note: String,
    /// Epoch milliseconds.
    pub created_at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// A draft's text at most, in bytes: the platform's largest batch fits.
pub const MAX_BODY: usize = 16 * 1024 * 1024;
