//! A team profile's session as the console keeps it.

use wire::team::Me;

/// A team profile's session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Session {
    /// Signed in, as the server said at the last sign-in or `WhoAmI`.
    SignedIn(Me),
    /// Never signed in on this PC, signed out, or the session ended: the password is asked.
    SignedOut,
}

impl Session {
    pub fn me(&self) -> Option<&Me> {
        match self {
            Self::SignedIn(me) => Some(me),
            Self::SignedOut => None,
        }
    }
}
