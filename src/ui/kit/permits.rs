//! What the person signed in to a team server may do, as the screens mirror it: an action
//! their role lacks is drawn disabled, the reason on hover, never hidden. The server decides
//! every call; on a platform's profile nothing is disabled here (the platform decides alone).

use crate::core::team::{Me, Permission};
use crate::core::wire::OrderType;
use crate::core::{CoreState, Profile};
use crate::ui::text::i18n::{Lang, lookup, tr};
use crate::ui::text::labels::permission_words;

/// The person signed in to the profile the screens' calls go to, if it is a team server's.
#[derive(Clone, Copy, Default)]
pub struct Permits<'a> {
    me: Option<&'a Me>,
}

impl<'a> Permits<'a> {
    pub fn of(state: &'a CoreState, profile: &Profile) -> Permits<'a> {
        Permits {
            me: state.sessions.get(&profile.name).and_then(|s| s.me()),
        }
    }

    /// The person signed in, when the profile is a team server's and they are.
    pub fn me(self) -> Option<&'a Me> {
        self.me
    }

    /// Why the person may not do what needs `p`; None when they may, or when it is not known
    /// (not a team server, or no one signed in yet: the server will say).
    pub fn lacking(self, lang: Lang, p: Permission) -> Option<String> {
        let me = self.me?;
        (!me.may(p)).then(|| needs(lang, &me.person.role, p))
    }

    /// Why the person may not send orders of these types (purchases need one permission;
    /// deletes another, or only the first when the team server holds them for a second
    /// person), if there is a reason.
    pub fn lacking_for_orders(
        self,
        lang: Lang,
        types: impl Iterator<Item = Option<OrderType>>,
    ) -> Option<String> {
        let me = self.me?;
        let may = |p: Permission| me.may(p);
        types
            .flatten()
            .map(|t| Permission::for_order(t).to_file(may))
            .find(|p| !me.may(*p))
            .map(|p| needs(lang, &me.person.role, p))
    }
}

/// "Your role (branch staff) does not have the permission “locks” that this needs."
/// Who may approve a lock change of `n` assets when the team server will hold it for a
/// second person (the threshold it told at sign-in); None when it will be sent.
pub fn locks_held_by<'a>(permits: Permits<'a>, n: usize) -> Option<&'a [String]> {
    let four_eyes = permits.me()?.four_eyes.as_ref()?;
    four_eyes
        .thresholds
        .locks_held(n)
        .then_some(four_eyes.approvers.as_slice())
}

/// Who can approve a request of this person's, or that nobody can yet.
pub fn approvers_ui(ui: &mut egui::Ui, lang: Lang, approvers: &[String]) {
    let words = match approvers {
        [] => tr!(lang, "held-no-approver"),
        names => tr!(lang, "held-approvers", names = names.join(", ")),
    };
    ui.label(words);
}

pub fn needs(lang: Lang, role: &str, p: Permission) -> String {
    tr!(
        lang,
        "needs-permission",
        role = role_name(lang, role),
        permission = permission_words(lang, p)
    )
}

/// A built-in role in the UI's language; a company's own role as it was named.
pub fn role_name(lang: Lang, role: &str) -> &str {
    match role {
        "viewer" | "staff" | "approver" | "admin" => {
            lookup(lang, &format!("role-{role}")).unwrap_or(role)
        }
        _ => role,
    }
}

/// Draws `add` disabled when `why` says why, with the reason on hover.
pub fn permitted_ui<R>(
    ui: &mut egui::Ui,
    why: Option<&str>,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    // Permitted, the widgets go straight into `ui`, so a wrapping row can move them whole.
    let Some(why) = why else {
        return add(ui);
    };
    let shown = ui.add_enabled_ui(false, add);
    shown.response.on_disabled_hover_text(why);
    shown.inner
}
