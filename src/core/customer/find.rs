//! Which enterprise an id or a name means, by the profile's directory: `customer show ID` and
//! the page's links take a customer id, a channel customer id, an enterprise global id or a
//! name.

use crate::core::catalog::DirectoryEntry;

/// What an id or name means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// One enterprise, by its global id.
    One(String),
    /// A name several enterprises fit: each one's global id and name.
    Several(Vec<(String, String)>),
    /// The directory knows no such customer, and it cannot be a global id.
    None,
    /// The directory knows the customer but gives no enterprise global id for it.
    NoEnterprise,
}

/// An id of any kind first (exactly), then a name (whole, then in part, case aside). An id
/// the directory does not hold is taken as an enterprise global id: the listing says whether
/// the platform has it.
pub fn find(entries: &[DirectoryEntry], id: &str) -> Found {
    let id = id.trim();
    if id.is_empty() {
        return Found::None;
    }
    let by_id: Vec<&DirectoryEntry> = entries
        .iter()
        .filter(|e| {
            [
                &e.customer_id,
                &e.channel_customer_id,
                &e.enterprise_global_id,
                &e.crm_customer_id,
            ]
            .into_iter()
            .any(|v| v.as_deref() == Some(id))
        })
        .collect();
    if !by_id.is_empty() {
        return one_of(&by_id);
    }
    let lower = id.to_lowercase();
    let named = |whole: bool| -> Vec<&DirectoryEntry> {
        entries
            .iter()
            .filter(|e| {
                e.names().iter().any(|n| {
                    let n = n.to_lowercase();
                    if whole {
                        n == lower
                    } else {
                        n.contains(&lower)
                    }
                })
            })
            .collect()
    };
    for whole in [true, false] {
        let by_name = named(whole);
        if !by_name.is_empty() {
            return one_of(&by_name);
        }
    }
    let id_like = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if id_like {
        Found::One(id.to_owned())
    } else {
        Found::None
    }
}

fn one_of(entries: &[&DirectoryEntry]) -> Found {
    let mut ids: Vec<(String, String)> = entries
        .iter()
        .filter_map(|e| {
            let id = wire::preview::given(&e.enterprise_global_id)?;
            let name = e
                .names()
                .first()
                .map(|n| (*n).to_owned())
                .unwrap_or_default();
            Some((id, name))
        })
        .collect();
    ids.sort();
    ids.dedup_by(|a, b| a.0 == b.0);
    match ids.len() {
        0 => Found::NoEnterprise,
        1 => Found::One(ids.remove(0).0),
        _ => Found::Several(ids),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(customer: &str, channel: &str, global: Option<&str>, name: &str) -> DirectoryEntry {
        DirectoryEntry {
            customer_id: Some(customer.into()),
            channel_customer_id: Some(channel.into()),
            enterprise_global_id: global.map(Into::into),
            customer_name: Some(name.into()),
            ..DirectoryEntry::default()
        }
    }

    #[test]
    fn an_id_of_any_kind_then_a_name_finds_the_enterprise() {
        let dir = [
            entry("C1", "CH-1", Some("E1"), "华东建设有限公司"),
            entry("C2", "CH-2", Some("E2"), "华东建设二公司"),
            entry("C3", "CH-3", None, "西部路桥"),
        ];
        assert_eq!(find(&dir, "C1"), Found::One("E1".into()));
        assert_eq!(find(&dir, "CH-2"), Found::One("E2".into()));
        assert_eq!(find(&dir, " E2 "), Found::One("E2".into()));
        assert_eq!(find(&dir, "华东建设有限公司"), Found::One("E1".into()));
        assert_eq!(
            find(&dir, "华东建设"),
            Found::Several(vec![
                ("E1".into(), "华东建设有限公司".into()),
                ("E2".into(), "华东建设二公司".into())
            ])
        );
        assert_eq!(find(&dir, "西部"), Found::NoEnterprise);
        // Not in the directory: taken as a global id, which the listing then tries.
        assert_eq!(find(&dir, "E-999"), Found::One("E-999".into()));
        assert_eq!(find(&dir, "无此客户"), Found::None);
        assert_eq!(find(&dir, "  "), Found::None);
    }
}
