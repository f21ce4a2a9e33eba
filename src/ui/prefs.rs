//! What the console remembers between runs, in eframe's `app.ron`: the language, the screen,
//! the theme, recent enterprises and the claim form's last values. Held here, below the
//! screens, so that the shell and a screen share it without one reaching into the other.

use serde::{Deserialize, Serialize};

use crate::ui::kit::theme::ThemeChoice;
use crate::ui::text::i18n;

/// The screens of the left navigation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Screen {
    Start,
    Customers,
    /// What ends in the coming days across the directory.
    Renewals,
    Orders,
    Catalog,
    Assets,
    Activities,
    AssetNumbers,
    SendLater,
    History,
    /// A team server's requests waiting for a second person.
    Approvals,
    Settings,
    /// A customer's page: opened from a link or the top bar's search, not the navigation.
    Customer,
}

impl Screen {
    pub const ALL: [Screen; 12] = [
        Screen::Start,
        Screen::Customers,
        Screen::Renewals,
        Screen::Orders,
        Screen::Catalog,
        Screen::Assets,
        Screen::Activities,
        Screen::AssetNumbers,
        Screen::SendLater,
        Screen::History,
        Screen::Approvals,
        Screen::Settings,
    ];
}

/// What the console remembers between runs (eframe keeps the window size itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub lang: i18n::Lang,
    pub screen: Screen,
    /// Light, dark, or the OS's (a `dark` flag of older files is read as no choice).
    pub theme: ThemeChoice,
    /// Enterprises whose assets were listed, newest first.
    pub recent_enterprises: Vec<String>,
    /// The claim form's last values.
    pub claim: ClaimForm,
    /// Per team profile and person (`profile/person`), when the latest decision on one's own
    /// requests that was told happened (the server's epoch ms): a decision after it is news,
    /// also after a profile switch or a restart.
    pub requests_told: std::collections::BTreeMap<String, i64>,
    /// The desktop tells an approver of a request come to wait (the window may be hidden).
    pub desktop_notifications: bool,
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            lang: i18n::Lang::from_os(),
            screen: Screen::Start,
            theme: ThemeChoice::System,
            recent_enterprises: Vec::new(),
            claim: ClaimForm::default(),
            requests_told: std::collections::BTreeMap::new(),
            desktop_notifications: true,
        }
    }
}

/// What the claim form remembers between runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClaimForm {
    pub identity: String,
    pub label: String,
    pub source: String,
    pub branch: String,
    /// Activity labels the platform knew, newest first, offered beside the label field.
    pub seen: Vec<String>,
}
