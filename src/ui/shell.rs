//! The window's frame: the top bar (active profile, keyring), the left navigation, the status
//! bar, and the screens (each says what it will do until it is built).

use egui::RichText;

use crate::core::backup::{BackupError, Restored};
use crate::core::profiles::{self, Profiles};
use crate::core::sandbox::demo;
use crate::core::secrets::Secrets;
use crate::core::{Awaited, Core, CoreState, KeyringState, KeyringStore};
use crate::ui::help::Help;
use crate::ui::kit::form::profile_name;
use crate::ui::kit::permits::Permits;
use crate::ui::kit::pill::{Tone, pill_ui};
use crate::ui::kit::theme;
use crate::ui::kit::{fonts, icon, keys};
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::prefs::ClaimForm;
use crate::ui::screens::activities::ActivitiesScreen;
use crate::ui::screens::approvals::ApprovalsScreen;
use crate::ui::screens::asset_numbers::AssetNumbersScreen;
use crate::ui::screens::assets::AssetsScreen;
use crate::ui::screens::catalog::CatalogScreen;
use crate::ui::screens::composer::ComposerScreen;
use crate::ui::screens::customer::search::{CustomerSearch, Picked};
use crate::ui::screens::customer::{CustomerScreen, PageAction};
use crate::ui::screens::customers::CustomersScreen;
use crate::ui::screens::history::HistoryScreen;
use crate::ui::screens::queue::QueueScreen;
use crate::ui::screens::renewals::{RenewalsAction, RenewalsScreen};
use crate::ui::screens::settings::SettingsScreen;
use crate::ui::screens::start::{StartAction, start_ui};
use crate::ui::session::SessionBar;
use crate::ui::status::Status;
use crate::ui::text::i18n::{Label, Lang, label, labelled, t, tr};
use crate::ui::text::refusals::Offer;
use crate::ui::update::UpdateNotice;
use crate::ui::{Prefs, Screen};
use std::sync::{Arc, OnceLock};

pub struct DeskApp {
    core: Core,
    pub prefs: Prefs,
    screens: Screens,
    status: Status,
    /// A team server's person in the top bar, and the sign-in dialog.
    session: SessionBar,
    update: UpdateNotice,
    /// A profile picked in the top bar's menu, until the core has switched.
    switch: Awaited<Profiles>,
    /// The top bar's search for a customer's page.
    search: CustomerSearch,
    /// A page asked for from outside the window (a bench, a test), opened at the next frame.
    open_page: Option<String>,
    /// The user manual's window (F1, the top bar's Help).
    help: Help,
    /// Logged once, for start-up measurements (`RUST_LOG=license_desk=info`).
    first_frame: bool,
    /// The language the window's title is in.
    titled: Option<Lang>,
    /// Set when the window closes to start a program: this one again (a restore waits for
    /// it) or the one an update installed.
    start_again: Arc<OnceLock<StartAgain>>,
}

#[derive(Default)]
struct Screens {
    /// The screen drawn last frame: one entered anew may read again what it shows.
    shown: Option<Screen>,
    customers: CustomersScreen,
    customer: CustomerScreen,
    renewals: RenewalsScreen,
    composer: ComposerScreen,
    catalog: CatalogScreen,
    assets: AssetsScreen,
    activities: ActivitiesScreen,
    asset_numbers: AssetNumbersScreen,
    history: HistoryScreen,
    approvals: ApprovalsScreen,
    queue: QueueScreen,
    settings: SettingsScreen,
    /// A directory customer with no enterprise picked in the top bar: Customers asks the
    /// platform for it when drawn.
    query_asked: Option<(String, String)>,
}

impl DeskApp {
    pub fn new(core: Core, prefs: Prefs, ctx: &egui::Context) -> Self {
        fonts::install(ctx);
        icon::install(ctx);
        let waker = ctx.clone();
        core.set_repaint(move || waker.request_repaint());
        theme::install(ctx, prefs.theme);
        Self {
            core,
            prefs,
            screens: Screens::default(),
            status: Status::default(),
            session: SessionBar::default(),
            update: UpdateNotice::default(),
            switch: Awaited::default(),
            search: CustomerSearch::default(),
            open_page: None,
            help: Help::default(),
            first_frame: true,
            titled: None,
            start_again: Arc::default(),
        }
    }

    /// Where the window keeps its state (eframe's folder): a backup carries it.
    pub fn set_window_dir(&mut self, dir: Option<std::path::PathBuf>) {
        self.screens.settings.set_window_dir(dir);
    }

    /// What this start restored, said over the first screen until dismissed.
    pub fn restored(&mut self, result: Result<Restored, BackupError>) {
        self.screens.settings.restored(result);
    }

    /// Where the window says, as it closes, which program to start: `ui::run` starts it once
    /// the core has let go of its files.
    pub fn start_again_with(&mut self, flag: Arc<OnceLock<StartAgain>>) {
        self.start_again = flag;
    }

    /// Whether the window closed to start a program.
    pub fn will_start_again(&self) -> bool {
        self.start_again.get().is_some()
    }

    /// Opens the page of an enterprise of the active profile at the next frame, as a link does.
    pub fn open_customer(&mut self, global_id: &str) {
        self.open_page = Some(global_id.to_owned());
    }

    /// The core the window drives (tests send it commands directly).
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The whole window, one frame.
    pub fn root_ui(&mut self, ui: &mut egui::Ui) {
        // Replies are taken at the start of the frame, each by the screen that waits for it;
        // a late reply to a request a screen no longer waits for is dropped. What the replies
        // and the clicks ask for is sent once the frame is drawn.
        let core = &self.core;
        let out = Outbox::new(core);
        out.reply(&mut self.switch, label!("use-profile"));
        let (screens, session, search) = (&mut self.screens, &mut self.session, &mut self.search);
        let state = core.state();
        // Calls go to the active profile: a call not sent is the team server's to have missed.
        let team = state.profiles.active().is_team();
        take_replies(screens, session, search, &mut self.status, &out, team);
        let lang = self.prefs.lang;
        retitle(ui.ctx(), &mut self.titled, lang);
        let (update, composer) = (&mut self.update, &mut self.screens.composer);
        update_tick(
            ui.ctx(),
            (update, composer),
            (&out, &state),
            &self.start_again,
        );
        self.session.tick(&out, &state);
        let (session, search, help) = (&mut self.session, &mut self.search, &mut self.help);
        let active = state.profiles.active.clone();
        let screen = self.prefs.screen;
        help.keys(ui, screen);
        let (switch, find) = egui::Panel::top("top_bar")
            .show(ui, |ui| {
                top_bar_ui(ui, lang, &state, |ui| {
                    let find = search.ui(ui, &out, lang, &active);
                    session.top_bar_ui(ui, &out, lang, &state);
                    help.menu_ui(ui, lang, screen);
                    find
                })
            })
            .inner;
        if let Some(name) = switch {
            self.switch
                .start(out.ask(profiles::requests::Activate { name }));
        }
        let asked = self.open_page.take().map(|id| Picked::Page(id, true));
        if let Some(picked) = find.or(asked) {
            open_picked(picked, (&mut self.screens, &mut self.prefs), &out, &active);
        }
        bottom_ui(ui, (&mut self.status, &mut self.update), &out, lang, &state);
        let nav_width = navigation_width(ui, self.prefs.lang);
        egui::Panel::left("navigation")
            .resizable(false)
            .exact_size(nav_width)
            .show(ui, |ui| {
                let badges = Badges {
                    queued: self.screens.queue.pending(),
                    approvals: self.screens.approvals.waiting_for_me(),
                    team: state.profiles.active().is_team(),
                };
                navigation_ui(ui, &mut self.prefs, badges)
            });
        if let Some(offer) = self.status.toasts.ui(ui, lang) {
            self.screens.accept(offer, &mut self.prefs);
        }
        egui::CentralPanel::default()
            .show(ui, |ui| self.screens.ui(ui, &out, &state, &mut self.prefs));
        follow_links(&mut self.screens, &mut self.prefs, &out, &active);
        let windows = (
            &mut self.session,
            &mut self.screens.settings,
            &mut self.help,
        );
        windows_ui(ui.ctx(), (&out, &state), lang, windows, &self.start_again);
        self.screens.queue.tick(ui.ctx(), &out);
        self.screens
            .approvals
            .tick(ui.ctx(), &out, &state, &mut self.prefs);
        out.flush();
        if std::mem::take(&mut self.first_frame) {
            tracing::info!("first frame");
        }
    }
}

/// What opens over the screens: the sign-in, moving to another computer (and what a start
/// restored), the manual. *Restart now* closes the window to start the program again.
fn windows_ui(
    ctx: &egui::Context,
    (out, state): (&Outbox<'_>, &CoreState),
    lang: Lang,
    (session, settings, help): (&mut SessionBar, &mut SettingsScreen, &mut Help),
    start_again: &OnceLock<StartAgain>,
) {
    session.dialog_ui(ctx, out, lang, state);
    // A restart cuts no call: *Restart now* waits for them.
    settings.moving_ui(ctx, out, lang, !state.calls.is_empty());
    if settings.take_restart() {
        close_to_start(ctx, start_again, StartAgain::ThisProgram);
    }
    help.window_ui(ctx, lang);
}

/// A newer version's answers and waits; the window closes once one is installed.
fn update_tick(
    ctx: &egui::Context,
    (update, composer): (&mut UpdateNotice, &mut ComposerScreen),
    (out, state): (&Outbox<'_>, &CoreState),
    start_again: &OnceLock<StartAgain>,
) {
    update.poll(out);
    if let Some(program) = update.take_restart() {
        close_to_start(ctx, start_again, StartAgain::Program(program));
    }
    // An install waits for the drafts to be saved: asked here, where the composer is.
    let drafts_saved = !update.wants_drafts_saved() || composer.saved_now(out);
    update.tick(out, state, drafts_saved);
}

/// What the window starts as it closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartAgain {
    /// This program again (a restore waits for its next start).
    ThisProgram,
    /// The program an update installed.
    Program(std::path::PathBuf),
}

/// Closes the window (its state saved as at any close) to start `program` after it.
fn close_to_start(ctx: &egui::Context, flag: &OnceLock<StartAgain>, program: StartAgain) {
    // Asked once: a second ask while closing changes nothing.
    let _ = flag.set(program);
    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
}

/// The status bar, and above it a newer version's notice when there is one.
fn bottom_ui(
    ui: &mut egui::Ui,
    (status, update): (&mut Status, &mut UpdateNotice),
    out: &Outbox<'_>,
    lang: Lang,
    state: &CoreState,
) {
    let cancel = egui::Panel::bottom("status_bar")
        .show(ui, |ui| status.ui(ui, lang, state))
        .inner;
    if let Some(id) = cancel {
        out.cancel(id);
    }
    if update.shown() {
        egui::Panel::bottom("update_notice").show(ui, |ui| update.ui(ui, out, lang));
    }
}

/// Opens what a link or an empty state's button asked for in this frame: a customer's page or
/// another screen.
/// A customer picked in the top bar's search (or asked from outside): its page, or Customers
/// asking the platform for a directory customer with no enterprise.
fn open_picked(
    picked: Picked,
    (screens, prefs): (&mut Screens, &mut Prefs),
    out: &Outbox<'_>,
    active: &str,
) {
    match picked {
        Picked::Page(id, global) => {
            screens.customer.open(out, active, &id, global);
            prefs.screen = Screen::Customer;
        }
        Picked::Query {
            channel_code,
            customer,
        } => {
            screens.query_asked = Some((channel_code, customer));
            prefs.screen = Screen::Customers;
        }
    }
}

fn follow_links(screens: &mut Screens, prefs: &mut Prefs, out: &Outbox<'_>, active: &str) {
    if let Some((id, global)) = out.page_asked() {
        screens.customer.open(out, active, &id, global);
        prefs.screen = Screen::Customer;
    }
    if let Some(screen) = out.screen_asked() {
        prefs.screen = screen;
    }
}

/// The window's title, in the language chosen, set again when the language changes.
fn retitle(ctx: &egui::Context, titled: &mut Option<Lang>, lang: Lang) {
    if *titled != Some(lang) {
        *titled = Some(lang);
        let title = t!(lang, "window-title").to_owned();
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title));
    }
}

/// Each part of the window takes the replies that have come to its requests; their errors
/// and outcomes go to the status bar, once.
fn take_replies(
    screens: &mut Screens,
    session: &mut SessionBar,
    search: &mut CustomerSearch,
    status: &mut Status,
    out: &Outbox<'_>,
    team: bool,
) {
    screens.poll(out);
    session.poll(out);
    search.poll();
    for (action, verdict, error) in out.take_told() {
        status.told(action, verdict, error.as_ref(), team);
    }
}

/// The top bar; the profile picked in its menu, if one was.
fn top_bar_ui<T>(
    ui: &mut egui::Ui,
    lang: Lang,
    state: &CoreState,
    person_ui: impl FnOnce(&mut egui::Ui) -> T,
) -> (Option<String>, T) {
    // Wrapped: in a narrow window (900 px, a team profile's person and role) the bar takes a
    // second line rather than cutting Help off at the right.
    ui.horizontal_wrapped(|ui| {
        ui.heading(t!(lang, "app-name"));
        ui.separator();
        // Before the name, so it stays in its place whatever the name's length.
        let picked = profile_menu_ui(ui, lang, state);
        let profile = state.profiles.active();
        let p = theme::palette(ui);
        let tone = if profile.is_sandbox() {
            Tone::Calm
        } else if profile.production {
            Tone::Danger
        } else {
            Tone::Info
        };
        ui.label(tr!(lang, "profile-colon"));
        pill_ui(ui, profile_name(lang, profile), tone);
        if profile.production {
            let words = t!(lang, "production");
            ui.label(RichText::new(words).strong().color(p.danger_text));
        }
        if profile.insecure_http && profile.plain_http_remote() {
            // Seen at all times: this profile's secret crosses the network in clear.
            let words = t!(lang, "plain-http");
            ui.label(RichText::new(words).strong().color(p.danger_text));
        }
        let person = person_ui(ui);
        ui.separator();
        keyring_ui(ui, lang, state);
        (picked, person)
    })
    .inner
}

/// Switching profile in one click, from any screen.
fn profile_menu_ui(ui: &mut egui::Ui, lang: Lang, state: &CoreState) -> Option<String> {
    let active = &state.profiles.active;
    let mut picked = None;
    ui.menu_button(t!(lang, "switch-profile"), |ui| {
        for p in &state.profiles.profiles {
            let mut text = RichText::new(profile_name(lang, p));
            if p.production {
                text = text.color(theme::palette(ui).danger_text);
            }
            if ui.selectable_label(p.name == *active, text).clicked() {
                if p.name != *active {
                    picked = Some(p.name.clone());
                }
                ui.close();
            }
        }
    });
    picked
}

/// Where secrets are kept: a quiet line, explained on hover.
fn keyring_ui(ui: &mut egui::Ui, lang: Lang, state: &CoreState) {
    let text = match &state.keyring {
        None => t!(lang, "keyring-checking").to_owned(),
        Some(KeyringState::Available { store }) => labelled(
            lang,
            t!(lang, "keyring-ok"),
            (keyring_name(*store)).text(lang),
        ),
        Some(KeyringState::MemoryOnly { .. }) => t!(lang, "keyring-memory").to_owned(),
    };
    // Last on the bar: cut with "…" where the window is narrow, whole on hover.
    let label = egui::Label::new(RichText::new(text.clone()).weak()).truncate();
    let response = ui.add(label);
    if let Some(KeyringState::MemoryOnly { reason }) = &state.keyring {
        let reason = match reason.as_str() {
            Secrets::AS_CONFIGURED => t!(lang, "keyring-memory-configured"),
            os => os,
        };
        let help = t!(lang, "keyring-memory-help");
        response.on_hover_text(format!("{text}\n\n{help}\n\n{reason}"));
    }
}

/// As wide as the longest screen name needs (130 px at least, which holds both languages'
/// names today), so that a narrow window keeps its room for the screens.
fn navigation_width(ui: &egui::Ui, lang: Lang) -> f32 {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let widest = Screen::ALL
        .iter()
        .map(|s| {
            let name = (screen_title(*s)).text(lang).to_owned();
            ui.painter()
                .layout_no_wrap(name, font.clone(), egui::Color32::WHITE)
                .size()
                .x
        })
        .fold(0.0, f32::max);
    (widest + 40.0).clamp(130.0, 170.0)
}

/// What the navigation counts beside the screens' names.
struct Badges {
    /// Calls kept to send later.
    queued: usize,
    /// Requests an approver may decide, waiting (None: not an approver, or not read yet).
    approvals: Option<usize>,
    /// Whether the active profile is a team server's (Approvals is shown only then).
    team: bool,
}

/// The screens; Send later with how many calls wait, when some do; Approvals on a team
/// server's profile only, with how many requests wait for an approver.
fn navigation_ui(ui: &mut egui::Ui, prefs: &mut Prefs, badges: Badges) {
    ui.add_space(6.0);
    for screen in Screen::ALL {
        if screen == Screen::Approvals && !badges.team {
            continue;
        }
        let label = match (screen, badges.approvals) {
            (Screen::SendLater, _) if badges.queued > 0 => {
                tr!(prefs.lang, "queue-badge", n = badges.queued)
            }
            (Screen::Approvals, Some(n)) if n > 0 => tr!(prefs.lang, "approvals-badge", n = n),
            _ => screen_title(screen).text(prefs.lang).to_owned(),
        };
        if ui.selectable_label(prefs.screen == screen, label).clicked() {
            prefs.screen = screen;
        }
    }
}

impl Screens {
    /// Each screen takes the replies that have come to its requests.
    fn poll(&mut self, out: &Outbox<'_>) {
        self.customers.poll(out);
        self.composer.poll(out);
        self.assets.poll(out);
        self.asset_numbers.poll(out);
        self.catalog.poll(out);
        self.activities.poll(out);
        self.renewals.poll(out);
        self.customer.poll(out);
        self.queue.poll(out);
        self.approvals.poll(out);
        self.composer.decided(&self.approvals.decided());
        self.history.poll(out);
        if let Some(entries) = out.queue_seen() {
            self.queue.show(entries);
        }
        self.settings.poll(out);
    }

    /// What the start page asked for: a screen, filled in, and for reads the call sent.
    fn start(&mut self, action: StartAction, caller: &Caller<'_>, prefs: &mut Prefs) {
        prefs.screen = match action {
            StartAction::QueryDemoCustomer => {
                let (channel, customer) = (demo::CHANNEL_CODE, demo::CHANNEL_CUSTOMER);
                self.customers.query_for(caller, channel, customer);
                Screen::Customers
            }
            StartAction::ListDemoAssets => {
                let (out, profile) = (caller.out, caller.profile);
                self.assets.list_enterprise(out, profile, demo::GLOBAL_ID);
                Screen::Assets
            }
            StartAction::Compose => Screen::Orders,
            StartAction::FillDemoClaim => {
                prefs.claim = ClaimForm {
                    identity: demo::MOBILE.to_owned(),
                    label: demo::ACTIVITY.to_owned(),
                    source: "license-desk".to_owned(),
                    branch: demo::BRANCH.to_owned(),
                    seen: std::mem::take(&mut prefs.claim.seen),
                };
                Screen::Activities
            }
            StartAction::Settings => Screen::Settings,
            StartAction::Renewals => Screen::Renewals,
        };
    }

    /// What a customer's page asked for: the composer with a batch, the Assets screen on the
    /// enterprise, History at an entry. Screens do not call each other: the window hands over.
    fn page_action(&mut self, action: PageAction, caller: &Caller<'_>, prefs: &mut Prefs) {
        prefs.screen = match action {
            PageAction::Compose(batch, name) => {
                self.composer.open_batch(caller.out, batch, name);
                Screen::Orders
            }
            PageAction::Locks {
                enterprise,
                lock,
                nums,
                left,
            } => {
                let profile = caller.profile;
                self.assets
                    .list_enterprise(caller.out, profile, &enterprise);
                self.assets.confirm_lock(lock, nums, left, profile.clone());
                Screen::Assets
            }
            PageAction::History(entry) => {
                self.history.show_entry(caller.out, entry);
                Screen::History
            }
        };
    }

    /// What a toast offered and the user accepted: a screen, a field.
    fn accept(&mut self, offer: Offer, prefs: &mut Prefs) {
        match offer {
            Offer::GoToField(path) => {
                prefs.screen = Screen::Orders;
                self.composer.go_to(&path);
            }
            Offer::UpdateEnterprise => {
                prefs.screen = Screen::Customers;
                self.customers.open_update();
            }
            Offer::OpenRequest(id) => {
                prefs.screen = Screen::Approvals;
                self.approvals.show(&id);
            }
        }
    }

    /// `F6`: past the top bar and the navigation to the screen's content (a mark under the
    /// heading, from which `Tab` goes on), or in the composer to its tree's chosen row.
    fn content_key_ui(&mut self, ui: &mut egui::Ui, lang: Lang, screen: Screen) {
        let mark = ui.allocate_response(egui::Vec2::ZERO, egui::Sense::focusable_noninteractive());
        let name = t!(lang, "content-mark");
        mark.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, name));
        if keys::pressed(ui, keys::CONTENT) {
            match screen {
                Screen::Orders => self.composer.focus_tree(),
                _ => mark.request_focus(),
            }
        }
    }

    /// What changes when another screen is shown: the one entered reads again what was done
    /// elsewhere meanwhile; the one left lets go of what belongs to it.
    fn moved_to(&mut self, screen: Screen) {
        let Some(left) = self
            .shown
            .replace(screen)
            .filter(|before| *before != screen)
        else {
            return;
        };
        // What imports and accepted batches taught the catalog elsewhere is shown on entering.
        match screen {
            Screen::Catalog => self.catalog.reload(),
            Screen::History => self.history.entered(),
            _ => {}
        }
        // The catalog's search belongs to the composer: it does not wait there for a return.
        if left == Screen::Orders {
            self.composer.close_picker();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, state: &CoreState, prefs: &mut Prefs) {
        let screen = prefs.screen;
        let lang = prefs.lang;
        self.moved_to(screen);
        // In a strip at the bottom: a notice that comes must not push the screen down under
        // the pointer.
        if self.approvals.has_notices()
            && egui::Panel::bottom("notices")
                .resizable(false)
                .show(ui, |ui| self.approvals.notices_ui(ui, lang))
                .inner
        {
            prefs.screen = Screen::Approvals;
        }
        if prefs.screen == Screen::Approvals {
            self.approvals.arrivals_seen();
        }
        ui.heading(screen_title(screen).text(lang));
        self.content_key_ui(ui, lang, screen);
        ui.add_space(8.0);
        // Calls go to the profile active now; what a screen shows keeps the profile it came from.
        let profile = state.profiles.active();
        let permits = Permits::of(state, profile);
        let caller = Caller {
            out,
            profile,
            permits,
        };
        match screen {
            Screen::Start => {
                self.renewals.follow(&caller);
                let renewals = self.renewals.summary();
                if let Some(action) = start_ui(ui, lang, state, renewals) {
                    self.start(action, &caller, prefs);
                }
            }
            Screen::Customers => {
                if let Some((channel, customer)) = self.query_asked.take() {
                    self.customers.query_for(&caller, &channel, &customer);
                }
                if let Some(id) = self.customers.ui(ui, &caller, lang) {
                    self.customer.open(out, &profile.name, &id, true);
                    prefs.screen = Screen::Customer;
                }
            }
            Screen::Renewals => {
                // Screens do not call each other: the window hands over.
                match self.renewals.ui(ui, &caller, lang) {
                    Some(RenewalsAction::Compose(batch, name)) => {
                        self.composer.open_batch(out, batch, name);
                        prefs.screen = Screen::Orders;
                    }
                    Some(RenewalsAction::Page(id)) => {
                        self.customer.open(out, &profile.name, &id, true);
                        prefs.screen = Screen::Customer;
                    }
                    None => {}
                }
            }
            Screen::Customer => {
                if let Some(action) = self.customer.ui(ui, &caller, lang) {
                    self.page_action(action, &caller, prefs);
                }
            }
            Screen::Orders => self.composer.ui(ui, &caller, lang),
            Screen::Catalog => self.catalog.ui(ui, &caller, lang),
            Screen::Assets => self
                .assets
                .ui(ui, &caller, lang, &mut prefs.recent_enterprises),
            Screen::Activities => self.activities.ui(ui, &caller, lang, &mut prefs.claim),
            Screen::AssetNumbers => {
                if let Some(nums) = self.asset_numbers.ui(ui, &caller, lang) {
                    // Screens do not call each other: the window hands the numbers over.
                    self.composer.receive_numbers(nums);
                    prefs.screen = Screen::Orders;
                }
            }
            Screen::History => self.history.ui(ui, out, lang, profile),
            Screen::Approvals => self.approvals.ui(ui, &caller, lang),
            Screen::SendLater => self.queue.ui(ui, out, lang),
            Screen::Settings => self.settings.ui(ui, out, state, prefs),
        }
    }
}

fn keyring_name(store: KeyringStore) -> Label {
    match store {
        KeyringStore::SecretService => label!("keyring-secret-service"),
        KeyringStore::KernelKeyutils => label!("keyring-keyutils"),
        KeyringStore::WindowsCredentialManager => label!("keyring-windows"),
        KeyringStore::MacosKeychain => label!("keyring-macos"),
        KeyringStore::Given => label!("keyring-given"),
    }
}

fn screen_title(screen: Screen) -> Label {
    match screen {
        Screen::Start => label!("start"),
        Screen::Customers => label!("customers"),
        Screen::Renewals => label!("renewals"),
        Screen::Orders => label!("orders"),
        Screen::Catalog => label!("catalog"),
        Screen::Assets => label!("assets"),
        Screen::Activities => label!("activities"),
        Screen::AssetNumbers => label!("asset-numbers"),
        Screen::History => label!("history"),
        Screen::Approvals => label!("approvals"),
        Screen::SendLater => label!("send-later"),
        Screen::Settings => label!("settings"),
        Screen::Customer => label!("customer-page"),
    }
}

impl eframe::App for DeskApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.root_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.prefs);
    }
}
