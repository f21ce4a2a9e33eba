//! The order fields and the interface's enumerations in words, in both languages (Fluent
//! messages `field-*`, `order-type-*`, `license-type-*`, …); the interface's value follows in
//! brackets, so that a user can match it with a file.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use crate::core::WriteState;
use crate::core::queue::QueueState;
use crate::core::team::{Permission, RequestState};
use crate::core::wire::{CustomerType, LicenseType, Operation, OrderType, SyncMode, activity};
use crate::ui::text::i18n::{Label, Lang, label, lookup, noted, t, tr};

/// A field of the batch in words; the interface's name when there are none.
pub fn field_label(lang: Lang, field: &str) -> &str {
    lookup(lang, &format!("field-{field}")).unwrap_or(field)
}

/// A value of an open enumeration of the platform (member identities, assignment states) in
/// words with the value in brackets; the value alone when the console has no words for it.
pub fn value_words(lang: Lang, kind: &str, value: &str) -> String {
    match lookup(lang, &format!("{kind}-{value}")) {
        Some(words) => noted(lang, words, value),
        None => value.to_owned(),
    }
}

/// An order type in words only (the tree, where the interface's name is on hover).
pub fn order_type_short(lang: Lang, v: OrderType) -> String {
    match v {
        OrderType::NewBuy => tr!(lang, "order-type-new_buy"),
        OrderType::DeleteAsset => tr!(lang, "order-type-delete_asset"),
        OrderType::DeleteProduct => tr!(lang, "order-type-delete_product"),
    }
}

pub fn order_type_words(lang: Lang, v: OrderType) -> String {
    let words = match v {
        OrderType::NewBuy => tr!(lang, "order-type-new_buy"),
        OrderType::DeleteAsset => tr!(lang, "order-type-delete_asset"),
        OrderType::DeleteProduct => tr!(lang, "order-type-delete_product"),
    };
    noted(lang, &words, v.as_str())
}

/// Formatted once per language and type and kept: the asset grid names one per row and frame.
pub fn license_type_words(lang: Lang, v: LicenseType) -> &'static str {
    type Formatted = HashMap<(Lang, LicenseType), &'static str>;
    static FORMATTED: LazyLock<Mutex<Formatted>> = LazyLock::new(|| Mutex::new(HashMap::new()));
    let mut formatted = FORMATTED.lock().unwrap_or_else(PoisonError::into_inner);
    formatted
        .entry((lang, v))
        .or_insert_with(|| Box::leak(format_license_type(lang, v).into_boxed_str()))
}

fn format_license_type(lang: Lang, v: LicenseType) -> String {
    noted(lang, &license_type_name(lang, v), v.as_str())
}

/// A license type in words alone, where its code is shown elsewhere (on hover).
pub fn license_type_name(lang: Lang, v: LicenseType) -> String {
    use LicenseType::*;
    match v {
        NormalUnrecoverUsbkey => tr!(lang, "license-type-normal_unrecover_usbkey"),
        NormalRecoverUsbkey => tr!(lang, "license-type-normal_recover_usbkey"),
        NormalUnrecoverLanUsbkey => tr!(lang, "license-type-normal_unrecover_lan_usbkey"),
        NormalRecoverLanUsbkey => tr!(lang, "license-type-normal_recover_lan_usbkey"),
        IdentityUsbkey => tr!(lang, "license-type-identity_usbkey"),
        IdentityLanUsbkey => tr!(lang, "license-type-identity_lan_usbkey"),
        Softkey => tr!(lang, "license-type-softkey"),
        LanSoftkey => tr!(lang, "license-type-lan_softkey"),
        ProductEntity => tr!(lang, "license-type-product_entity"),
        CloudAccount => tr!(lang, "license-type-cloud_account"),
        CloudCustomer => tr!(lang, "license-type-cloud_customer"),
        CloudPersonal => tr!(lang, "license-type-cloud_personal"),
        LkProductUsbkey => tr!(lang, "license-type-lk_product_usbkey"),
        LkAuthUsbkey => tr!(lang, "license-type-lk_auth_usbkey"),
    }
}

/// A license type in few words, what tells it apart first (a narrow column cuts the end):
/// "re-issuable" or not before the lock's kind.
pub fn license_type_short(lang: Lang, v: LicenseType) -> String {
    use LicenseType::*;
    match v {
        NormalUnrecoverUsbkey => tr!(lang, "license-short-normal_unrecover_usbkey"),
        NormalRecoverUsbkey => tr!(lang, "license-short-normal_recover_usbkey"),
        NormalUnrecoverLanUsbkey => tr!(lang, "license-short-normal_unrecover_lan_usbkey"),
        NormalRecoverLanUsbkey => tr!(lang, "license-short-normal_recover_lan_usbkey"),
        other => license_type_name(lang, other),
    }
}

pub fn customer_type_name(lang: Lang, v: CustomerType) -> String {
    match v {
        CustomerType::Personal => tr!(lang, "customer-type-personal"),
        CustomerType::Company => tr!(lang, "customer-type-company"),
    }
}

pub fn sync_mode_name(lang: Lang, v: SyncMode) -> String {
    match v {
        SyncMode::Sync => tr!(lang, "sync-mode-sync"),
        SyncMode::Async => tr!(lang, "sync-mode-async"),
    }
}

/// A license type by its interface code, in words; the code itself when it is none this
/// console knows.
pub fn license_code_words(lang: Lang, code: &str) -> String {
    match LicenseType::parse(code) {
        Some(t) => license_type_words(lang, t).to_owned(),
        None => code.to_owned(),
    }
}

/// A lock's chip type in words (none for 0; the number when it is unknown).
pub fn chip_words(lang: Lang, chip: i32) -> String {
    match chip {
        1 => t!(lang, "chip4").to_owned(),
        2 => t!(lang, "chip5").to_owned(),
        0 => String::new(),
        other => other.to_string(),
    }
}

/// Where a write stands, in words; None for a read.
pub fn state_words(lang: Lang, state: Option<WriteState>) -> Option<&'static str> {
    state.map(|s| write_state_words(lang, s))
}

/// The words of a member of one of the console's closed sets, from its `{family}-{name}`
/// message: the only place such an id is built, and every member has one in both languages
/// (`every_member_of_a_closed_set_has_words_in_both_languages`).
fn member_words(lang: Lang, family: &str, name: &'static str) -> &'static str {
    lookup(lang, &format!("{family}-{name}")).unwrap_or(name)
}

pub fn write_state_words(lang: Lang, state: WriteState) -> &'static str {
    member_words(lang, "write-state", state.name())
}

pub fn queue_state_words(lang: Lang, state: QueueState) -> &'static str {
    member_words(lang, "queue-state", state.into())
}

pub fn request_state_words(lang: Lang, state: RequestState) -> &'static str {
    member_words(lang, "request-state", state.name())
}

pub fn permission_words(lang: Lang, permission: Permission) -> &'static str {
    member_words(lang, "permission", permission.name())
}

pub fn operation_label(lang: Lang, operation: Operation) -> &'static str {
    member_words(lang, "operation", operation.name())
}

/// An operation of a record in words, by its name: the console's own operations, and the
/// team server's actions it has words for; the name itself otherwise.
pub fn operation_words(lang: Lang, name: &str) -> &str {
    // A message id has no dots: `knowledge.put` is `operation-knowledge-put`.
    let id = format!("operation-{}", name.replace('.', "-"));
    lookup(lang, &id).unwrap_or(name)
}

/// An activity claim's result code in words.
pub fn result_words(code: &str) -> Label {
    match code {
        activity::CLAIMED => label!("result0000"),
        activity::BAD_PARAMETER => label!("result1001"),
        activity::PROCESSING => label!("result1002"),
        activity::BAD_IDENTITY => label!("result1004"),
        activity::FILTERED => label!("result2001"),
        activity::NO_ACTIVITY => label!("result3001"),
        activity::NOT_ELIGIBLE => label!("result3002"),
        _ => label!("result-other"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sheet::columns::code_of;
    use strum::VariantArray;

    #[test]
    fn every_member_of_a_closed_set_has_words_in_both_languages() {
        fn names<T: VariantArray + Copy>(name: fn(T) -> &'static str) -> Vec<&'static str> {
            T::VARIANTS.iter().map(|&m| name(m)).collect()
        }
        let sets = [
            ("write-state", names(WriteState::name)),
            ("queue-state", names::<QueueState>(Into::into)),
            ("request-state", names(RequestState::name)),
            ("permission", names(Permission::name)),
            ("operation", names(Operation::name)),
        ];
        for lang in [Lang::En, Lang::Zh] {
            for (family, names) in &sets {
                for name in names {
                    let id = format!("{family}-{name}");
                    assert!(lookup(lang, &id).is_some(), "no {id} in {lang:?}");
                }
            }
        }
    }

    #[test]
    fn every_state_has_words_in_both_languages() {
        for &s in WriteState::ALL {
            for lang in [Lang::En, Lang::Zh] {
                assert!(state_words(lang, Some(s)).is_some(), "{s:?} {lang:?}");
            }
        }
    }

    /// A sheet may hold the words the window shows instead of a code: the sheet's table of
    /// words is the window's.
    #[test]
    fn a_sheet_takes_the_words_the_window_shows() {
        for lang in [Lang::En, Lang::Zh] {
            for &t in LicenseType::ALL {
                let words = license_type_name(lang, t);
                assert_eq!(code_of("licenseType", &words), Some(t.as_str()), "{words}");
            }
            for &t in OrderType::ALL {
                let words = order_type_short(lang, t);
                assert_eq!(code_of("orderType", &words), Some(t.as_str()), "{words}");
            }
            let personal = tr!(lang, "customer-type-personal");
            let company = tr!(lang, "customer-type-company");
            assert_eq!(code_of("customerType", &personal), Some("personal"));
            assert_eq!(code_of("customerType", &company), Some("company"));
        }
    }
}
