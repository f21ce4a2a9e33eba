//! A platform's refusals by a business rule, as a type from the rule to the window: the
//! platform's rules make one, its `Display` is the interface's English words, and the
//! envelope's `cause` carries its kind and fields (`refusal:asset-elsewhere asset=8900000009`)
//! so that the console explains it in the user's language without reading the English. A
//! platform that sends no such cause gets the code's general explanation.

use serde::{Deserialize, Serialize};

/// What a cause that carries a refusal starts with.
pub const CAUSE_PREFIX: &str = "refusal:";

/// Why the platform's state refuses a well-formed request. Every field is one word (an id, a
/// number, a URI): the cause carries them as `name=value`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Refusal {
    /// Operation 2 for a CRM customer who has an enterprise master account already.
    EnterpriseExists { enterprise: String },
    /// An enterprise global id the platform does not hold.
    NoEnterprise { enterprise: String },
    /// Operation 4 for a CRM customer with no enterprise master account.
    NoEnterpriseForCustomer { crm_customer_id: String },
    /// A delete of an asset that holds nothing from the source license order.
    #[serde(alias = "nothingFromSource")]
    NothingFromSource {
        #[serde(alias = "assetNum")]
        asset: String,
    },
    /// An asset number held by another customer.
    AssetElsewhere { asset: String },
    /// A delete of a product the asset does not hold.
    #[serde(alias = "noProduct")]
    NoProduct {
        #[serde(alias = "assetNum")]
        asset: String,
        #[serde(alias = "productUri")]
        uri: String,
    },
    /// An asset number the platform does not hold.
    NoAsset { asset: String },
    /// A source license order the platform does not hold.
    NoOrder { order: String },
    /// A `g_nonce` this application used before.
    NonceReused,
    /// A delete of an asset an earlier order of the batch removes (a preview's finding).
    #[serde(alias = "removedEarlier")]
    RemovedEarlier {
        #[serde(alias = "assetNum")]
        asset: String,
    },
    /// An asset of the customer `owner`, in an order for `customer` (a preview's finding).
    #[serde(alias = "otherCustomers")]
    OwnedByOther {
        #[serde(alias = "assetNum")]
        asset: String,
        owner: String,
        customer: String,
    },
    /// An asset of the customer `owner`, in an order whose customer the platform would make
    /// anew (a preview's finding).
    #[serde(alias = "newCustomer")]
    OwnedForNew {
        #[serde(alias = "assetNum")]
        asset: String,
        owner: String,
    },
}

impl Refusal {
    /// The kind, as the cause names it (`asset-elsewhere`).
    pub fn kind(&self) -> String {
        self.fields()
            .and_then(|mut f| f.remove("kind"))
            .and_then(|k| k.as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    /// The envelope's cause: the kind, its fields, and that nothing was written.
    pub fn cause(&self) -> String {
        let mut cause = format!("{CAUSE_PREFIX}{}", self.kind());
        for (name, value) in self.fields().into_iter().flatten() {
            if let (false, Some(value)) = (name == "kind", value.as_str()) {
                cause.push_str(&format!(" {name}={value}"));
            }
        }
        cause.push_str(" (refused by a business rule; nothing was written)");
        cause
    }

    /// The refusal a cause carries, if it carries one this console knows.
    pub fn from_cause(cause: &str) -> Option<Self> {
        let rest = cause.trim().strip_prefix(CAUSE_PREFIX)?;
        let words = rest.split(" (").next().unwrap_or(rest);
        let mut parts = words.split_whitespace();
        let mut fields = serde_json::Map::new();
        fields.insert("kind".to_owned(), parts.next()?.into());
        for part in parts {
            let (name, value) = part.split_once('=')?;
            fields.insert(name.to_owned(), value.into());
        }
        serde_json::from_value(serde_json::Value::Object(fields)).ok()
    }

    /// Reads a refusal in this form or in the one delete previews were kept in before
    /// (`{"rule": "noProduct", "assetNum": …, "productUri": …}`, as a team server holds them).
    pub fn either_form<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut value = serde_json::Value::deserialize(d)?;
        if let Some(fields) = value.as_object_mut()
            && !fields.contains_key("kind")
            && let Some(rule) = fields.remove("rule")
        {
            fields.insert("kind".to_owned(), rule);
        }
        serde_json::from_value(value).map_err(serde::de::Error::custom)
    }

    fn fields(&self) -> Option<serde_json::Map<String, serde_json::Value>> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(fields)) => Some(fields),
            _ => None,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::EnterpriseExists { enterprise } => write!(
                f,
                "an enterprise master account ({enterprise}) already exists for this CRM customer; use operation 4 to change it"
            ),
            Self::NoEnterprise { enterprise } => {
                write!(f, "no enterprise master account {enterprise}")
            }
            Self::NoEnterpriseForCustomer { crm_customer_id } => write!(
                f,
                "no enterprise master account exists for the CRM customer {crm_customer_id:?}"
            ),
            Self::NothingFromSource { asset } => {
                write!(
                    f,
                    "asset {asset} holds nothing from the source license order"
                )
            }
            Self::AssetElsewhere { asset } => {
                write!(f, "asset {asset} belongs to another customer")
            }
            Self::NoProduct { asset, uri } => write!(f, "asset {asset} holds no product {uri}"),
            Self::NoAsset { asset } => write!(f, "no asset {asset}"),
            Self::NoOrder { order } => write!(f, "no license order {order}"),
            Self::NonceReused => f.write_str("already used by this application"),
            Self::RemovedEarlier { asset } => {
                write!(f, "asset {asset} is removed by an earlier order")
            }
            Self::OwnedByOther {
                asset,
                owner,
                customer,
            } => write!(
                f,
                "asset {asset} belongs to the customer {owner}, not {customer}"
            ),
            Self::OwnedForNew { asset, owner } => write!(
                f,
                "asset {asset} belongs to the customer {owner}; the platform knows no \
                 customer by the order's channel id and would make a new one"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_goes_through_its_cause_and_back() {
        let all = [
            Refusal::EnterpriseExists {
                enterprise: "EG0000000042".into(),
            },
            Refusal::NoEnterpriseForCustomer {
                crm_customer_id: "CRM-7".into(),
            },
            Refusal::NoProduct {
                asset: "8900000005".into(),
                uri: "gms:1001".into(),
            },
            Refusal::NonceReused,
        ];
        for refusal in all {
            let cause = refusal.cause();
            assert!(cause.starts_with("refusal:"), "{cause}");
            assert_eq!(Refusal::from_cause(&cause), Some(refusal));
        }
        assert_eq!(
            Refusal::AssetElsewhere {
                asset: "8900000009".into()
            }
            .cause(),
            "refusal:asset-elsewhere asset=8900000009 (refused by a business rule; nothing was written)"
        );
        assert_eq!(Refusal::from_cause("permission:locks"), None);
        let kept = r#"{"rule":"noProduct","assetNum":"8900000005","productUri":"gms:1001"}"#;
        let read = Refusal::either_form(&mut serde_json::Deserializer::from_str(kept));
        assert_eq!(
            read.ok(),
            Some(Refusal::NoProduct {
                asset: "8900000005".into(),
                uri: "gms:1001".into()
            })
        );
        assert_eq!(Refusal::from_cause("refusal:no-such-kind x=1"), None);
    }
}
