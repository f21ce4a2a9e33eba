//! The order fields and the interface's enumerations in words, in both languages (Fluent
//! messages `field-*`, `order-type-*`, `license-type-*`, …); the interface's value follows in
//! brackets, so that a user can match it with a file.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use crate::core::wire::{CustomerType, LicenseType, OrderType, SyncMode};
use crate::ui::text::i18n::{Lang, lookup, noted, tr};

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

#[cfg(test)]
mod tests {
    use super::{license_type_name, order_type_short};
    use crate::core::sheet::columns::code_of;
    use crate::core::wire::{LicenseType, OrderType};
    use crate::ui::text::i18n::{Lang, tr};

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
