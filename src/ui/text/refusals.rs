//! Refusals the console recognises in a platform's answer, explained in the UI's language:
//! what happened, and what to do next (go to the field the refusal names, open the screen that
//! does what the platform asks for). The platform's code and message are shown verbatim
//! beside this; an answer not recognised gets the code's general explanation.
//!
//! The refusal is read from the answer's cause (`refusal:asset-elsewhere asset=…`, made by the
//! platform's rules from `wire::refusal::Refusal`), never from its English words: rewording
//! them keeps the explanation. A platform that sends no such cause gets the code's general
//! explanation.

use crate::core::wire::refusal::Refusal;
use crate::ui::text::i18n::{Label, Lang, label, tr};

/// What the console offers to do about a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offer {
    /// The composer's node and field at this interface path.
    GoToField(String),
    /// Customers › Update enterprise, for this CRM customer.
    UpdateEnterprise,
    /// Approvals, with this request (`R-17`) chosen.
    OpenRequest(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recognised {
    pub words: String,
    pub offer: Option<Offer>,
}

/// The refusal of `action` with this code and message, if its cause names one the console
/// knows (`wire::refusal`); the message's field path says where, for a batch.
pub fn recognise(
    lang: Lang,
    action: Label,
    code: &str,
    message: &str,
    cause: Option<&str>,
) -> Option<Recognised> {
    let refusal = Refusal::from_cause(cause?)?;
    let path = message.split_once(": ").map_or("", |(p, _)| p);
    let offer = match refusal {
        Refusal::EnterpriseExists { .. } => Some(Offer::UpdateEnterprise),
        _ => (action == label!("submit-batch")
            && code == crate::core::wire::envelope::VALIDATION
            && is_batch_path(path))
        .then(|| Offer::GoToField(path.to_owned())),
    };
    Some(Recognised {
        words: words(lang, &refusal),
        offer,
    })
}

/// A field path of the batch: letters, digits, indices and dots, starting with a letter.
fn is_batch_path(path: &str) -> bool {
    path.starts_with(|c: char| c.is_ascii_alphabetic())
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '[' | ']'))
}

/// What the refusal means and what to do, in the user's language (the platform's answer and a
/// delete preview's finding alike).
pub fn words(lang: Lang, refusal: &Refusal) -> String {
    match refusal {
        Refusal::EnterpriseExists { enterprise } => {
            tr!(lang, "refusal-enterprise-exists", id = enterprise.as_str())
        }
        Refusal::NoEnterprise { enterprise } => {
            tr!(lang, "refusal-no-enterprise", id = enterprise.as_str())
        }
        Refusal::NoEnterpriseForCustomer { crm_customer_id } => tr!(
            lang,
            "refusal-no-enterprise-for-customer",
            id = crm_customer_id.as_str()
        ),
        Refusal::NothingFromSource { asset } => {
            tr!(lang, "refusal-nothing-from-source", num = asset.as_str())
        }
        Refusal::AssetElsewhere { asset } => {
            tr!(lang, "refusal-asset-elsewhere", num = asset.as_str())
        }
        Refusal::NoProduct { asset, uri } => tr!(
            lang,
            "refusal-no-product",
            num = asset.as_str(),
            uri = uri.as_str()
        ),
        Refusal::NoAsset { asset } => tr!(lang, "refusal-no-asset", num = asset.as_str()),
        Refusal::NoOrder { order } => tr!(lang, "refusal-no-order", id = order.as_str()),
        Refusal::NonceReused => tr!(lang, "refusal-nonce"),
        Refusal::RemovedEarlier { asset } => {
            tr!(lang, "refusal-removed-earlier", num = asset.as_str())
        }
        Refusal::OwnedByOther {
            asset,
            owner,
            customer,
        } => tr!(
            lang,
            "refusal-asset-of",
            num = asset.as_str(),
            owner = owner.as_str(),
            customer = customer.as_str()
        ),
        Refusal::OwnedForNew { asset, owner } => tr!(
            lang,
            "refusal-asset-new-customer",
            num = asset.as_str(),
            owner = owner.as_str()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_enterprise_is_explained_and_its_update_offered() {
        let refusal = Refusal::EnterpriseExists {
            enterprise: "EG0000000042".into(),
        };
        let found = recognise(
            Lang::Zh,
            label!("create-enterprise"),
            "13004",
            &format!("crmCustomerId: {refusal}"),
            Some(&refusal.cause()),
        )
        .expect("recognised");
        assert!(found.words.contains("EG0000000042"), "{}", found.words);
        assert!(found.words.contains("修改企业"), "{}", found.words);
        assert_eq!(found.offer, Some(Offer::UpdateEnterprise));
    }

    #[test]
    fn a_batch_refusal_leads_to_its_field() {
        let cause = Refusal::AssetElsewhere {
            asset: "8900000009".into(),
        }
        .cause();
        let found = recognise(
            Lang::En,
            label!("submit-batch"),
            "13004",
            "orderList[0].assets[0].assetNos[1]: asset 8900000009 belongs to another customer; set transferedAssetNum to move it",
            Some(&cause),
        )
        .expect("recognised");
        assert!(found.words.contains("8900000009"), "{}", found.words);
        assert_eq!(
            found.offer,
            Some(Offer::GoToField(
                "orderList[0].assets[0].assetNos[1]".to_owned()
            ))
        );
        assert_eq!(
            recognise(Lang::En, label!("submit-batch"), "13004", "x: y", None),
            None
        );
    }

    /// The platform's English words reworded, or in another language altogether: the cause
    /// still names the refusal, and the Chinese explanation is kept.
    #[test]
    fn a_refusal_reworded_keeps_its_chinese_explanation() {
        let refusal = Refusal::AssetElsewhere {
            asset: "8900000009".into(),
        };
        let explained = |message: &str| {
            recognise(
                Lang::Zh,
                label!("submit-batch"),
                "13004",
                message,
                Some(&refusal.cause()),
            )
            .map(|r| r.words)
        };
        let original = explained(&format!("orderList[0].assets[0].assetNos[0]: {refusal}"));
        let reworded =
            explained("orderList[0].assets[0].assetNos[0]: that lock is some other client's");
        assert_eq!(original, reworded);
        let words = original.expect("recognised");
        assert!(words.contains("资产 8900000009 属于另一个客户"), "{words}");
        // Without the cause, the same English words are not guessed at.
        assert_eq!(
            recognise(
                Lang::Zh,
                label!("submit-batch"),
                "13004",
                &format!("orderList[0].assets[0].assetNos[0]: {refusal}"),
                Some("refused by a business rule; nothing was written"),
            ),
            None
        );
    }
}
