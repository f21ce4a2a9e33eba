//! The platform customer id of an enterprise picked without one (an enterprise created by a
//! colleague names no customer, and an order needs `customerId` or `channelCustomerId`): read
//! from the enterprise's asset listing, which names the customer holding each asset. One
//! customer fills the field; several or none are said beside the search, for the user to
//! choose or bind one.

use crate::core::Awaited;
use crate::core::calls::requests::Assets;
use crate::core::wire::preview::given;
use crate::core::wire::{AssetList, OrderEntry};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, tr};

#[derive(Default)]
pub(super) struct Holder {
    read: Awaited<AssetList>,
    /// The enterprise asked about.
    enterprise: Option<String>,
    /// What the listing said when it did not fill the field.
    said: Option<Said>,
}

enum Said {
    Filled(String),
    Several(Vec<String>),
    None,
}

impl Holder {
    /// After a pick: asks the listing when the order has an enterprise and no customer id.
    pub(super) fn ask(&mut self, out: &Outbox<'_>, profile: &str, order: &OrderEntry) {
        self.said = None;
        let named = given(&order.customer_id).or(given(&order.channel_customer_id));
        let Some(enterprise) = given(&order.enterprise_global_id).filter(|_| named.is_none())
        else {
            return;
        };
        self.enterprise = Some(enterprise.clone());
        self.read.start(out.ask(Assets {
            profile: profile.to_owned(),
            enterprise_global_id: enterprise,
            extend_code: None,
        }));
    }

    /// Fills the order's customer id when the listing names one customer (and the order is
    /// still that enterprise's, without an id): true when it changed the order.
    pub(super) fn poll(&mut self, out: &Outbox<'_>, order: &mut OrderEntry) -> bool {
        let Some(Ok(list)) = out.reply(&mut self.read, label!("operation-assets")) else {
            return false;
        };
        let same = given(&order.enterprise_global_id) == self.enterprise;
        if !same || given(&order.customer_id).is_some() {
            return false;
        }
        let ids: Vec<String> = list.customer_ids().into_iter().map(str::to_owned).collect();
        match ids.as_slice() {
            [one] => {
                order.customer_id = Some(one.clone());
                self.said = Some(Said::Filled(one.clone()));
                true
            }
            [] => {
                self.said = Some(Said::None);
                false
            }
            _ => {
                self.said = Some(Said::Several(ids));
                false
            }
        }
    }

    pub(super) fn said_ui(&self, ui: &mut egui::Ui, lang: Lang) {
        let words = match &self.said {
            Some(Said::Filled(id)) => tr!(lang, "holder-filled", id = id.as_str()),
            Some(Said::Several(ids)) => tr!(lang, "holder-several", ids = ids.join(", ")),
            Some(Said::None) => tr!(lang, "holder-none"),
            None => return,
        };
        ui.weak(words);
    }
}
