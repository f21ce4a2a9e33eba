//! Refusals the console recognises in a platform's answer, explained in the UI's language:
//! what happened, and what to do next (go to the field the refusal names, open the screen that
//! does what the platform asks for). The platform's code and message are shown verbatim
//! beside this; an answer not recognised gets the code's general explanation.
//!
//! A remote platform's answers can only be read by their words: these are the embedded
//! platform's messages, which follow the interface's.

use crate::ui::text::i18n::{Label, Lang, label, tr};

/// What the console offers to do about a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offer {
    /// The composer's node and field at this interface path.
    GoToField(String),
    /// Customers › Update enterprise, for this CRM customer.
    UpdateEnterprise,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recognised {
    pub words: String,
    pub offer: Option<Offer>,
}

/// The refusal of `action` with this code and message, if the console knows it.
pub fn recognise(lang: Lang, action: Label, code: &str, message: &str) -> Option<Recognised> {
    let (path, rule) = message
        .split_once(": ")
        .map_or(("", message), |(p, r)| (p, r));
    let offer = (action == label!("submit-batch")
        && code == crate::wire::envelope::VALIDATION
        && is_batch_path(path))
    .then(|| Offer::GoToField(path.to_owned()));
    let words = known_rule(lang, rule)?;
    let offer = if rule.contains("use operation 4") {
        Some(Offer::UpdateEnterprise)
    } else {
        offer
    };
    Some(Recognised { words, offer })
}

/// A field path of the batch: letters, digits, indices and dots, starting with a letter.
fn is_batch_path(path: &str) -> bool {
    path.starts_with(|c: char| c.is_ascii_alphabetic())
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '[' | ']'))
}

/// The word after `marker` in `text` (an id, a number), without trailing punctuation.
fn word_after<'a>(text: &'a str, marker: &str) -> &'a str {
    text.split_once(marker)
        .map_or("", |(_, rest)| rest.split_whitespace().next().unwrap_or(""))
        .trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ';' | '.'))
}

fn known_rule(lang: Lang, rule: &str) -> Option<String> {
    Some(if rule.contains("already exists for this CRM customer") {
        let id = word_after(rule, "account ");
        tr!(lang, "refusal-enterprise-exists", id = id)
    } else if rule.starts_with("no enterprise master account") {
        let id = word_after(rule, "account ");
        tr!(lang, "refusal-no-enterprise", id = id)
    } else if rule.contains("holds nothing from the source license order") {
        tr!(
            lang,
            "refusal-nothing-from-source",
            num = word_after(rule, "asset ")
        )
    } else if rule.contains("belongs to another customer") {
        let num = word_after(rule, "asset ");
        tr!(lang, "refusal-asset-elsewhere", num = num)
    } else if rule.contains("holds no product") {
        let num = word_after(rule, "asset ");
        let uri = word_after(rule, "product ");
        tr!(lang, "refusal-no-product", num = num, uri = uri)
    } else if rule.starts_with("no asset ") {
        let num = word_after(rule, "asset ");
        tr!(lang, "refusal-no-asset", num = num)
    } else if rule.starts_with("no license order") {
        let id = word_after(rule, "order ");
        tr!(lang, "refusal-no-order", id = id)
    } else if rule.contains("already used by this application") {
        tr!(lang, "refusal-nonce")
    } else {
        return None;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_enterprise_is_explained_and_its_update_offered() {
        let found = recognise(
            Lang::Zh,
            label!("create-enterprise"),
            "13004",
            "crmCustomerId: an enterprise master account (EG0000000042) already exists for this CRM customer; use operation 4 to change it",
        )
        .expect("recognised");
        assert!(found.words.contains("EG0000000042"), "{}", found.words);
        assert!(found.words.contains("修改企业"), "{}", found.words);
        assert_eq!(found.offer, Some(Offer::UpdateEnterprise));
    }

    #[test]
    fn a_batch_refusal_leads_to_its_field() {
        let found = recognise(
            Lang::En,
            label!("submit-batch"),
            "13004",
            "orderList[0].assets[0].assetNos[1]: asset 8900000009 belongs to another customer; set transferedAssetNum to move it",
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
            recognise(Lang::En, label!("submit-batch"), "13004", "x: y"),
            None
        );
    }
}
