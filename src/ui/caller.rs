//! What a screen sends through: the core, and the profile its calls go to (the one active
//! when the user acts). A call is always pinned to a named profile: a profile switched before
//! the core runs it does not receive it.

use crate::core::{Call, Command, CommandId, Core, Profile};

pub struct Caller<'a> {
    pub core: &'a Core,
    pub profile: &'a Profile,
}

impl Caller<'_> {
    /// An operation on this caller's profile.
    pub fn call(&self, call: Call) -> CommandId {
        self.core.send(Command::CallOn {
            profile: self.profile.name.clone(),
            call,
        })
    }

    /// Anything else the core does (files, drafts).
    pub fn send(&self, command: Command) -> CommandId {
        self.core.send(command)
    }
}
