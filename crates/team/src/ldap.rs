//! LDAP and Active Directory sign-in: a bind as the person (their own name and password, so
//! the server holds no directory password), then the groups whose `member` (or
//! `uniqueMember`) is them, under a base the server is given. Groups become roles by the
//! server's table (`--ldap-role GROUP_DN=ROLE`); the role with the most permissions wins.
//! The person is known by their entry's stable id (`entryUUID` on OpenLDAP, `objectGUID` on
//! Active Directory), read after the bind: the directory compares names its own way, so a
//! typed name proves only that the bind succeeded, not who bound.

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
    /// Plain `ldap://` without StartTLS to a host other than loopback: people's passwords
    /// would cross the network in clear, so it is refused unless this is set (and logged).
    pub insecure: bool,
    /// The attribute holding an entry's stable id: `entryUUID` (OpenLDAP, 389-DS, lldap) or
    /// `objectGUID` (Active Directory).
    pub id_attribute: String,
    pub timeout: Duration,
}

/// The id attribute of OpenLDAP and most directories (RFC 4530).
pub const DEFAULT_ID_ATTRIBUTE: &str = "entryUUID";

impl LdapConfig {
    /// Refuses a directory reached in clear over the network unless `insecure` says so.
    pub fn check(&self) -> Result<(), LdapError> {
        let url = url::Url::parse(&self.url)
            .map_err(|e| LdapError::Config(format!("--ldap-url {:?}: {e}", self.url)))?;
        let clear = match url.scheme() {
            "ldaps" => false,
            "ldap" => !self.starttls,
            other => {
                return Err(LdapError::Config(format!(
                    "--ldap-url: {other}:// is not ldap:// or ldaps://"
                )));
            }
        };
        if clear && !is_loopback(&url) {
            if !self.insecure {
                return Err(LdapError::Config(format!(
                    "{} is plain LDAP to another host: directory passwords would cross the \
                     network in clear. Use ldaps://, give --ldap-starttls, or --insecure-ldap \
                     to accept it",
                    self.url
                )));
            }
            tracing::warn!(url = %self.url, "--insecure-ldap: directory passwords in clear");
        }
        Ok(())
    }
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        // ldap:// is not a scheme the URL standard knows: its host stays text.
        Some(url::Host::Domain(d)) => {
            let d = d.trim_start_matches('[').trim_end_matches(']');
            d.eq_ignore_ascii_case("localhost")
                || d.parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        None => false,
    }
}

/// What the directory said about a person whose password it accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectoryPerson {
    pub dn: String,
    /// The entry's stable id (text, or hex of a binary one such as `objectGUID`).
    pub id: String,
    /// The sign-in name as the directory stores it, when the DN template's first part is
    /// `ATTR={user}` (the value of the entry's first RDN): a directory matches names its own
    /// way, so `zhang\u{ad}san` may bind as `zhangsan`.
    pub name: Option<String>,
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
    #[error("the LDAP directory is configured wrongly: {0}")]
    Config(String),
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
    let (dn, id) = stable_id(&mut ldap, config, &dn).await?;
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
    if let Err(e) = ldap.unbind().await {
        tracing::debug!(error = %e, "the LDAP unbind failed (the connection closes anyway)");
    }
    let name = stored_name(&config.user_dn, &dn);
    Ok(DirectoryPerson {
        dn,
        id,
        name,
        groups,
    })
}

/// The first RDN's value of `dn` when `template` begins `ATTR={user},` with the same ATTR;
/// `None` when the value is escaped (kept simple: such names sign in as typed).
fn stored_name(template: &str, dn: &str) -> Option<String> {
    let (attr, rest) = template.split_once('=')?;
    if !rest.starts_with("{user},") {
        return None;
    }
    let (first, _) = dn.split_once(',')?;
    let (dn_attr, value) = first.split_once('=')?;
    let plain = !value.contains('\\') && !value.trim().is_empty();
    (dn_attr.trim().eq_ignore_ascii_case(attr.trim()) && plain).then(|| value.trim().to_owned())
}

/// The bound entry's DN as the directory stores it, and its stable id.
async fn stable_id(
    ldap: &mut ldap3::Ldap,
    config: &LdapConfig,
    dn: &str,
) -> Result<(String, String), LdapError> {
    let attr = config.id_attribute.as_str();
    ldap.with_timeout(config.timeout);
    let (entries, _) = ldap
        .search(dn, Scope::Base, "(objectClass=*)", vec![attr])
        .await
        .and_then(|r| r.success())
        .map_err(|e| LdapError::Failed(format!("cannot read the person's entry: {e}")))?;
    let entry = entries
        .into_iter()
        .next()
        .map(SearchEntry::construct)
        .ok_or_else(|| LdapError::Failed(format!("the bound entry {dn:?} cannot be read")))?;
    let text = entry
        .attrs
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(attr))
        .and_then(|(_, v)| v.first().cloned());
    let binary = || {
        entry
            .bin_attrs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(attr))
            .and_then(|(_, v)| v.first())
            .map(|bytes| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
    };
    let id = text.or_else(binary).ok_or_else(|| {
        LdapError::Failed(format!(
            "the entry {:?} has no {attr}: set --ldap-id-attribute to the directory's id",
            entry.dn
        ))
    })?;
    Ok((entry.dn, id))
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

#[cfg(test)]
mod tests {
    use super::stored_name;

    #[test]
    fn the_stored_name_is_the_first_rdn_s_value_when_the_template_names_it() {
        let t = "uid={user},ou=people,dc=example,dc=com";
        let dn = "uid=zhangsan,ou=people,dc=example,dc=com";
        assert_eq!(stored_name(t, dn).as_deref(), Some("zhangsan"));
        assert_eq!(stored_name("cn={user},dc=x", dn), None, "another attribute");
        assert_eq!(
            stored_name("{user}@corp.example", dn),
            None,
            "no RDN template"
        );
        assert_eq!(stored_name(t, "uid=a\\,b,ou=people"), None, "escaped");
    }

    fn config(url: &str, starttls: bool, insecure: bool) -> super::LdapConfig {
        super::LdapConfig {
            url: url.to_owned(),
            user_dn: String::new(),
            group_base: String::new(),
            roles: Vec::new(),
            starttls,
            insecure,
            id_attribute: super::DEFAULT_ID_ATTRIBUTE.to_owned(),
            timeout: std::time::Duration::from_secs(1),
        }
    }

    #[test]
    fn plain_ldap_across_the_network_is_refused_unless_asked_for() {
        let ok = |url, tls, insecure| config(url, tls, insecure).check().is_ok();
        assert!(ok("ldap://127.0.0.1:389", false, false));
        assert!(ok("ldap://[::1]:389", false, false));
        assert!(ok("ldap://localhost", false, false));
        assert!(ok("ldaps://dc1.corp.example", false, false));
        assert!(ok("ldap://dc1.corp.example", true, false), "StartTLS");
        assert!(ok("ldap://10.0.0.5", false, true), "--insecure-ldap");
        let refused = config("ldap://10.0.0.5:389", false, false).check();
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err(
                "the LDAP directory is configured wrongly: ldap://10.0.0.5:389 is plain LDAP \
                 to another host: directory passwords would cross the network in clear. Use \
                 ldaps://, give --ldap-starttls, or --insecure-ldap to accept it"
                    .to_owned()
            )
        );
        assert!(!ok("http://dc1", false, true));
    }
}
