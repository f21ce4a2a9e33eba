//! LDAP and Active Directory sign-in: a bind as the person (their own name and password, so
//! the server holds no directory password), then the groups whose `member` (or
//! `uniqueMember`) is them, under a base the server is given. Groups become roles by the
//! server's table (`--ldap-role GROUP_DN=ROLE`); the role with the most permissions wins.

use std::time::Duration;

use ldap3::{LdapConnAsync, LdapConnSettings, Scope, SearchEntry, dn_escape, ldap_escape};

/// How the server reaches its directory.
#[derive(Debug, Clone)]
pub struct LdapConfig {
    /// `ldap://host:389` or `ldaps://host:636`.
    pub url: String,
    /// The person's DN, `{user}` standing for the sign-in name (escaped as a DN value), e.g.
    /// `uid={user},ou=people,dc=example,dc=com`.
    pub user_dn: String,
    /// Where groups are searched for the person's DN.
    pub group_base: String,
    /// Group DN → role, in the order given.
    pub roles: Vec<(String, String)>,
    /// StartTLS on an `ldap://` URL.
    pub starttls: bool,
    pub timeout: Duration,
}

/// What the directory said about a person whose password it accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectoryPerson {
    pub dn: String,
    /// Their groups' DNs.
    pub groups: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LdapError {
    /// The directory refused the name and password (result code 49), or the password is
    /// empty (an empty password would be an anonymous bind, which proves nothing).
    #[error("wrong name or password")]
    Refused,
    #[error("the LDAP directory cannot be reached: {0}")]
    Down(String),
    #[error("the LDAP directory failed: {0}")]
    Failed(String),
}

/// Checks `password` by binding as `name`, then reads the person's groups.
pub async fn authenticate(
    config: &LdapConfig,
    name: &str,
    password: &str,
) -> Result<DirectoryPerson, LdapError> {
    if password.is_empty() {
        return Err(LdapError::Refused);
    }
    let settings = LdapConnSettings::new()
        .set_conn_timeout(config.timeout)
        .set_starttls(config.starttls);
    let (conn, mut ldap) = LdapConnAsync::with_settings(settings, &config.url)
        .await
        .map_err(|e| LdapError::Down(e.to_string()))?;
    ldap3::drive!(conn);
    ldap.with_timeout(config.timeout);
    let dn = config.user_dn.replace("{user}", &dn_escape(name));
    let bound = ldap
        .simple_bind(&dn, password)
        .await
        .map_err(|e| LdapError::Down(e.to_string()))?;
    match bound.rc {
        0 => {}
        49 => return Err(LdapError::Refused),
        rc => {
            return Err(LdapError::Failed(format!(
                "the bind answered {rc}: {}",
                bound.text
            )));
        }
    }
    let filter = format!(
        "(|(member={dn})(uniqueMember={dn}))",
        dn = ldap_escape(dn.as_str())
    );
    ldap.with_timeout(config.timeout);
    let (entries, _) = ldap
        .search(&config.group_base, Scope::Subtree, &filter, vec!["1.1"])
        .await
        .and_then(|r| r.success())
        .map_err(|e| LdapError::Failed(format!("cannot read the groups: {e}")))?;
    let groups = entries
        .into_iter()
        .map(|e| SearchEntry::construct(e).dn)
        .collect();
    let _ = ldap.unbind().await;
    Ok(DirectoryPerson { dn, groups })
}

/// The role of the first mapping among those of the person's groups whose role has the most
/// permissions (`rank`), or none when no group is mapped.
pub fn role_of<'a>(
    config: &'a LdapConfig,
    person: &DirectoryPerson,
    rank: impl Fn(&str) -> usize,
) -> Option<&'a str> {
    let mut best: Option<(&str, usize)> = None;
    for (group, role) in &config.roles {
        let member = person.groups.iter().any(|g| g.eq_ignore_ascii_case(group));
        let r = rank(role);
        if member && best.is_none_or(|(_, b)| r > b) {
            best = Some((role, r));
        }
    }
    best.map(|(role, _)| role)
}
