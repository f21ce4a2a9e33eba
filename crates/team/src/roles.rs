//! Permissions, one for each kind of call, and roles, each a set of them. Four roles are built
//! in, named for the people who use the console; a company adds its own from the same
//! permissions (`team role add`). The server checks the permission of every call; the console
//! only mirrors it.

pub use wire::team::Permission;

/// A set of permissions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Permissions(u16);

impl Permissions {
    pub fn of(list: &[Permission]) -> Permissions {
        Permissions(list.iter().fold(0, |bits, p| bits | 1 << *p as u16))
    }

    pub fn has(self, p: Permission) -> bool {
        self.0 & (1 << p as u16) != 0
    }

    pub fn list(self) -> Vec<Permission> {
        Permission::ALL
            .iter()
            .copied()
            .filter(|p| self.has(*p))
            .collect()
    }

    /// As stored and shown: names comma-separated, in [`Permission::ALL`]'s order.
    pub fn names(self) -> String {
        let names: Vec<&str> = self.list().into_iter().map(Permission::name).collect();
        names.join(",")
    }

    /// Names comma-separated, any order, spaces allowed; an unknown name is named.
    pub fn parse(text: &str) -> Result<Permissions, NotPermissions> {
        let mut list = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let p = Permission::from_name(name)
                .ok_or_else(|| NotPermissions::Unknown(name.to_owned()))?;
            list.push(p);
        }
        if list.is_empty() {
            return Err(NotPermissions::None);
        }
        Ok(Permissions::of(&list))
    }
}

/// Why a role's list of permissions is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotPermissions {
    #[error(
        "{0:?} is not a permission; the permissions are {all}",
        all = Permissions::of(Permission::ALL).names().replace(',', ", ")
    )]
    Unknown(String),
    #[error("a role needs at least one permission")]
    None,
}

/// The roles every server has, by their command-line names, lowest first.
pub const BUILT_IN: [(&str, &[Permission]); 4] = [
    ("viewer", &[Permission::Read]),
    (
        "staff",
        &[
            Permission::Read,
            Permission::Customers,
            Permission::Purchase,
            Permission::Numbers,
            Permission::Claim,
        ],
    ),
    (
        "approver",
        &[
            Permission::Read,
            Permission::Customers,
            Permission::Purchase,
            Permission::Numbers,
            Permission::Claim,
            Permission::Approve,
        ],
    ),
    ("admin", Permission::ALL),
];

/// A built-in role's permissions.
pub fn built_in(name: &str) -> Option<Permissions> {
    BUILT_IN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, list)| Permissions::of(list))
}

/// The lowest built-in role that has `p`, to tell a refused person whom to ask.
pub fn lowest_with(p: Permission) -> &'static str {
    BUILT_IN
        .iter()
        .find(|(_, list)| list.contains(&p))
        .map_or("admin", |(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_read_back_in_a_fixed_order() {
        let p = Permissions::parse(" locks, read ,claim").expect("parsed");
        assert_eq!(p.names(), "read,claim,locks");
        assert_eq!(Permissions::parse(&p.names()), Ok(p));
        assert!(p.has(Permission::Locks) && !p.has(Permission::Delete));
    }

    #[test]
    fn an_unknown_permission_is_named_with_the_known_ones() {
        assert_eq!(
            Permissions::parse("read,lock").map_err(|e| e.to_string()),
            Err(
                "\"lock\" is not a permission; the permissions are read, customers, purchase, \
                 numbers, claim, locks, delete, approve, users"
                    .to_owned()
            )
        );
        assert_eq!(Permissions::parse(" , "), Err(NotPermissions::None));
    }

    #[test]
    fn each_built_in_role_has_what_docs_team_md_says() {
        let names = |r| built_in(r).map(Permissions::names);
        assert_eq!(names("viewer").as_deref(), Some("read"));
        assert_eq!(
            names("staff").as_deref(),
            Some("read,customers,purchase,numbers,claim")
        );
        assert_eq!(
            names("approver").as_deref(),
            Some("read,customers,purchase,numbers,claim,approve")
        );
        assert_eq!(
            names("admin").as_deref(),
            Some("read,customers,purchase,numbers,claim,locks,delete,approve,users")
        );
        assert_eq!(lowest_with(Permission::Locks), "admin");
        assert_eq!(lowest_with(Permission::Approve), "approver");
        assert_eq!(lowest_with(Permission::Claim), "staff");
    }
}
