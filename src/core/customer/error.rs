//! A customer the profile's directory cannot place.

/// Why the directory cannot place a customer.
#[derive(Debug, thiserror::Error)]
pub enum CustomerError {
    #[error("the directory of {profile} knows no customer {id:?}")]
    Unknown { profile: String, id: String },
    #[error("the directory of {profile} gives no enterprise global id for {id:?}")]
    NoEnterprise { profile: String, id: String },
}
