//! Customers: query the customers of an enterprise (operation 3), bind a channel's customer to an
//! enterprise (1), create an enterprise master account with its default customer (2), and update
//! its name and address (4). Forms are checked by the shared validation before anything is sent,
//! and keep what was typed when the platform refuses.

use egui::{RichText, ScrollArea};

use crate::core::Awaited;
use crate::core::calls::requests as calls;
use crate::core::catalog::{self, CatalogView};
use crate::core::team::Permission;
use crate::core::wire::validate::{self, Problem};
use crate::core::wire::{
    BindRequest, CreatedEnterprise, Customer, CustomerQuery, DefaultFilter, EnterpriseRequest,
};
use crate::ui::kit::form::{
    answered_on_ui, grid_ui, normalize_mobile, submit_button_ui, text_fields_ui, typed,
};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::permits::permitted_ui;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, label, t, tr};
use crate::ui::text::labels::value_words;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Query,
    Bind,
    Create,
    Update,
}

#[derive(Default)]
struct QueryForm {
    channel_code: String,
    channel_customer_id: String,
    all: bool,
    problems: Vec<Problem>,
    call: Awaited<Vec<Customer>>,
    customers: Option<Vec<Customer>>,
    /// What the shown answer was asked with: once the form differs, it is marked stale.
    asked: Option<CustomerQuery>,
    /// The profile the shown answer came from.
    on: String,
}

#[derive(Default)]
struct BindForm {
    channel_code: String,
    channel_customer_id: String,
    customer_name: String,
    branch_name: String,
    enterprise_name: String,
    password_mobile: String,
    problems: Vec<Problem>,
    call: Awaited<Customer>,
    bound: Option<Customer>,
    on: String,
}

impl BindForm {
    fn request(&self) -> BindRequest {
        BindRequest {
            channel_code: typed(&self.channel_code),
            channel_customer_id: typed(&self.channel_customer_id),
            customer_name: typed(&self.customer_name),
            branch_name: typed(&self.branch_name),
            enterprise_name: typed(&self.enterprise_name),
            password_mobile: typed(&self.password_mobile),
        }
    }
}

impl QueryForm {
    fn query(&self) -> CustomerQuery {
        CustomerQuery {
            channel_code: typed(&self.channel_code),
            channel_customer_id: typed(&self.channel_customer_id),
            default_customer: Some(if self.all {
                DefaultFilter::N
            } else {
                DefaultFilter::Y
            }),
        }
    }
}

/// Operations 2 and 4 take the same four fields.
#[derive(Default)]
struct EnterpriseForm {
    crm_customer_id: String,
    customer_name: String,
    branch_name: String,
    address: String,
    problems: Vec<Problem>,
    /// The create form's call (operation 2), and the update form's (4).
    create_call: Awaited<CreatedEnterprise>,
    update_call: Awaited<()>,
    created: Option<CreatedEnterprise>,
    updated: bool,
    on: String,
}

impl EnterpriseForm {
    fn request(&self) -> EnterpriseRequest {
        EnterpriseRequest {
            crm_customer_id: typed(&self.crm_customer_id),
            customer_name: typed(&self.customer_name),
            branch_name: typed(&self.branch_name),
            address: typed(&self.address),
        }
    }
}

pub struct CustomersScreen {
    tab: Tab,
    query: QueryForm,
    bind: BindForm,
    create: EnterpriseForm,
    update: EnterpriseForm,
    /// An enterprise whose page was asked for in this frame.
    open_page: Option<String>,
    /// The profile's directory, read for Create: a name it already holds is said.
    directory: Awaited<std::sync::Arc<CatalogView>>,
    view: Option<std::sync::Arc<CatalogView>>,
    /// The profile whose directory was asked for: asked once, even when it cannot be read.
    directory_of: Option<String>,
}

impl Default for CustomersScreen {
    fn default() -> Self {
        Self {
            tab: Tab::Query,
            query: QueryForm::default(),
            bind: BindForm::default(),
            create: EnterpriseForm::default(),
            update: EnterpriseForm::default(),
            open_page: None,
            directory: Awaited::default(),
            view: None,
            directory_of: None,
        }
    }
}

impl CustomersScreen {
    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(found)) = out.reply(&mut self.query.call, label!("query-customers")) {
            self.query.customers = Some(found);
        }
        if let Some(Ok(customer)) = out.reply(&mut self.bind.call, label!("bind-customer")) {
            self.bind.bound = Some(customer);
        }
        let created = out.reply(&mut self.create.create_call, label!("create-enterprise"));
        if let Some(Ok(created)) = created {
            self.create.created = Some(created);
        }
        if let Some(updated) = out.reply(&mut self.update.update_call, label!("update-enterprise"))
        {
            self.update.updated = updated.is_ok();
        }
        if let Some(Ok(view)) = self.directory.take() {
            self.view = Some(view);
        }
    }

    /// An enterprise of the directory with the name typed for Create (its global id), read
    /// first when the directory is not the active profile's.
    fn same_name(&mut self, core: &Caller<'_>) -> Option<String> {
        let stale = self
            .view
            .as_ref()
            .is_none_or(|v| v.profile != core.profile.name);
        if stale && self.directory_of.as_deref() != Some(core.profile.name.as_str()) {
            self.directory_of = Some(core.name());
            let profile = core.name();
            self.directory.start(core.ask(catalog::Load { profile }));
        }
        let name = self.create.customer_name.trim();
        let view = self.view.as_ref().filter(|_| !stale && !name.is_empty())?;
        view.customers.iter().find_map(|k| {
            let e = &k.item;
            let named = [&e.enterprise_name, &e.customer_name]
                .into_iter()
                .any(|n| n.as_deref().map(str::trim) == Some(name));
            named.then(|| e.enterprise_global_id.clone()).flatten()
        })
    }

    /// The screen; the enterprise whose page was asked for.
    pub fn ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) -> Option<String> {
        let before = self.tab;
        ui.horizontal(|ui| {
            for (tab, text) in [
                (Tab::Query, label!("query-customers")),
                (Tab::Bind, label!("bind-customer")),
                (Tab::Create, label!("create-enterprise")),
                (Tab::Update, label!("update-enterprise")),
            ] {
                ui.selectable_value(&mut self.tab, tab, text.text(lang));
            }
        });
        if self.tab != before {
            self.carry_channel_code();
        }
        ui.separator();
        ScrollArea::vertical()
            .id_salt("customers")
            .show(ui, |ui| match self.tab {
                Tab::Query => self.query_ui(ui, core, lang),
                Tab::Bind => self.bind_ui(ui, core, lang),
                Tab::Create => self.create_ui(ui, core, lang),
                Tab::Update => self.update_ui(ui, core, lang),
            });
        self.open_page.take()
    }

    /// The query tab, asking for this channel customer's enterprise customers.
    pub fn query_for(&mut self, core: &Caller<'_>, channel_code: &str, customer: &str) {
        self.tab = Tab::Query;
        self.query.channel_code = channel_code.to_owned();
        self.query.channel_customer_id = customer.to_owned();
        send_query(&mut self.query, core);
    }

    /// A channel code typed in one tab is the one the other tab starts with: a clerk works
    /// for one channel at a time.
    fn carry_channel_code(&mut self) {
        let (from, to) = match self.tab {
            Tab::Bind => (&self.query.channel_code, &mut self.bind.channel_code),
            Tab::Query => (&self.bind.channel_code, &mut self.query.channel_code),
            Tab::Create | Tab::Update => return,
        };
        if to.trim().is_empty() && !from.trim().is_empty() {
            to.clone_from(from);
        }
    }

    fn query_ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) {
        let form = &mut self.query;
        // Once problems are shown they follow the typing, so a fixed field clears at once.
        if !form.problems.is_empty() {
            form.problems = validate::customer_query(&form.query());
        }
        ui.label(t!(lang, "query-help"));
        ui.add_space(6.0);
        grid_ui(ui, "query_form", |ui| {
            channel_fields_ui(
                ui,
                lang,
                &mut form.channel_code,
                &mut form.channel_customer_id,
                &form.problems,
            );
            ui.label(t!(lang, "show"));
            ui.horizontal(|ui| {
                ui.radio_value(&mut form.all, false, t!(lang, "default-only"));
                ui.radio_value(&mut form.all, true, t!(lang, "all-customers"));
            });
            ui.end_row();
        });
        ui.add_space(6.0);
        if submit_button_ui(ui, Icon::Search, t!(lang, "query"), form.call.is_waiting()) {
            send_query(form, core);
        }
        ui.add_space(8.0);
        if form.customers.is_some() && form.asked.as_ref() != Some(&form.query()) {
            ui.colored_label(ui.visuals().warn_fg_color, t!(lang, "stale-results"));
        }
        match &form.customers {
            None => {}
            Some(found) if found.is_empty() => {
                ui.label(t!(lang, "no-customers"));
                answered_on_ui(ui, lang, &form.on, core.profile);
            }
            Some(found) => {
                ui.label(tr!(lang, "customers-found", n = found.len()));
                answered_on_ui(ui, lang, &form.on, core.profile);
                self.open_page = customers_table_ui(ui, lang, found).or(self.open_page.take());
            }
        }
    }

    fn bind_ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) {
        let form = &mut self.bind;
        if !form.problems.is_empty() {
            form.problems = validate::bind(&form.request());
        }
        ui.label(t!(lang, "bind-help"));
        ui.add_space(6.0);
        grid_ui(ui, "bind_form", |ui| {
            channel_fields_ui(
                ui,
                lang,
                &mut form.channel_code,
                &mut form.channel_customer_id,
                &form.problems,
            );
            let rows = vec![
                (
                    label!("customer-name"),
                    "customerName",
                    true,
                    &mut form.customer_name,
                ),
                (
                    label!("branch-name"),
                    "branchName",
                    false,
                    &mut form.branch_name,
                ),
                (
                    label!("enterprise-name"),
                    "enterpriseName",
                    true,
                    &mut form.enterprise_name,
                ),
                (
                    label!("password-mobile"),
                    "passwordMobile",
                    false,
                    &mut form.password_mobile,
                ),
            ];
            text_fields_ui(ui, lang, rows, &form.problems);
        });
        normalize_mobile(&mut form.password_mobile);
        ui.add_space(6.0);
        let why = core.lacking(lang, Permission::Customers);
        let busy = form.call.is_waiting();
        if permitted_ui(ui, why.as_deref(), |ui| {
            submit_button_ui(ui, Icon::Bind, t!(lang, "bind"), busy)
        }) {
            let request = form.request();
            form.problems = validate::bind(&request);
            if form.problems.is_empty() {
                form.bound = None;
                form.on = core.profile.name.clone();
                form.call.start(core.ask(calls::Bind {
                    profile: core.name(),
                    request,
                }));
            }
        }
        if let Some(customer) = &form.bound {
            ui.add_space(8.0);
            ui.label(RichText::new(t!(lang, "bound")).strong());
            answered_on_ui(ui, lang, &form.on, core.profile);
            self.open_page = customers_table_ui(ui, lang, std::slice::from_ref(customer))
                .or(self.open_page.take());
            ui.add_space(8.0);
            if ui.button(t!(lang, "show-enterprise-customers")).clicked() {
                self.query.channel_code = customer.channel_code.clone();
                self.query.channel_customer_id = customer.channel_customer_id.clone();
                self.query.all = true;
                self.tab = Tab::Query;
                send_query(&mut self.query, core);
            }
        }
    }

    fn create_ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) {
        ui.label(t!(lang, "create-help"));
        ui.add_space(6.0);
        enterprise_form_ui(ui, lang, "create_form", &mut self.create);
        ui.add_space(6.0);
        let why = core.lacking(lang, Permission::Customers);
        let busy = self.create.create_call.is_waiting();
        let clicked = permitted_ui(ui, why.as_deref(), |ui| {
            submit_button_ui(ui, Icon::Create, t!(lang, "create"), busy)
        });
        // Below the button, which does not move: the platform takes a second enterprise of the
        // same name, which staff then cannot tell apart.
        if let Some(id) = self.same_name(core) {
            let name = self.create.customer_name.trim();
            let words = tr!(lang, "create-same-name", name = name, id = id.as_str());
            ui.colored_label(ui.visuals().warn_fg_color, words);
        }
        if clicked {
            let request = self.create.request();
            self.create.problems = validate::enterprise(&request);
            if self.create.problems.is_empty() {
                self.create.created = None;
                self.create.on = core.profile.name.clone();
                self.create
                    .create_call
                    .start(core.ask(calls::CreateEnterprise {
                        profile: core.name(),
                        request,
                    }));
            }
        }
        let Some(created) = &self.create.created else {
            return;
        };
        ui.add_space(8.0);
        ui.label(RichText::new(t!(lang, "created")).strong());
        answered_on_ui(ui, lang, &self.create.on, core.profile);
        grid_ui(ui, "created", |ui| {
            ui.label(t!(lang, "enterprise-global-id"));
            ui.label(RichText::new(&created.enterprise_global_id).monospace());
            ui.end_row();
            ui.label(t!(lang, "default-type"));
            ui.label(yes_no(lang, created.default_type));
            ui.end_row();
        });
        ui.add_space(4.0);
        ui.label(RichText::new(t!(lang, "members")).strong());
        egui::Grid::new("members")
            .striped(true)
            .num_columns(2)
            .show(ui, |ui| {
                ui.label(RichText::new(t!(lang, "member-global-id")).strong());
                ui.label(RichText::new(t!(lang, "member-identity")).strong());
                ui.end_row();
                for member in &created.members {
                    ui.label(RichText::new(&member.member_global_id).monospace());
                    ui.label(value_words(lang, "member", &member.member_identity));
                    ui.end_row();
                }
            });
        ui.add_space(6.0);
        if ui.button(t!(lang, "edit-this-enterprise")).clicked() {
            self.open_update();
        }
    }

    /// The update tab, filled from the create form: the enterprise just created, or the one
    /// the platform said exists already.
    pub fn open_update(&mut self) {
        let from = &self.create;
        self.update.crm_customer_id = from.crm_customer_id.clone();
        self.update.customer_name = from.customer_name.clone();
        self.update.branch_name = from.branch_name.clone();
        self.update.address = from.address.clone();
        self.update.problems.clear();
        self.update.updated = false;
        self.tab = Tab::Update;
    }

    fn update_ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) {
        ui.label(t!(lang, "update-help"));
        ui.add_space(6.0);
        enterprise_form_ui(ui, lang, "update_form", &mut self.update);
        ui.add_space(6.0);
        let why = core.lacking(lang, Permission::Customers);
        let busy = self.update.update_call.is_waiting();
        if permitted_ui(ui, why.as_deref(), |ui| {
            submit_button_ui(ui, Icon::Edit, t!(lang, "update"), busy)
        }) {
            let request = self.update.request();
            self.update.problems = validate::enterprise(&request);
            if self.update.problems.is_empty() {
                self.update.updated = false;
                self.update.on = core.profile.name.clone();
                self.update
                    .update_call
                    .start(core.ask(calls::UpdateEnterprise {
                        profile: core.name(),
                        request,
                    }));
            }
        }
        if self.update.updated {
            ui.add_space(8.0);
            ui.label(RichText::new(t!(lang, "updated")).strong());
            answered_on_ui(ui, lang, &self.update.on, core.profile);
        }
    }
}

fn send_query(form: &mut QueryForm, core: &Caller<'_>) {
    let query = form.query();
    form.problems = validate::customer_query(&query);
    if form.problems.is_empty() {
        form.on = core.profile.name.clone();
        form.asked = Some(query.clone());
        form.call.start(core.ask(calls::QueryCustomers {
            profile: core.name(),
            query,
        }));
    }
}

fn channel_fields_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    channel_code: &mut String,
    channel_customer_id: &mut String,
    problems: &[Problem],
) {
    let rows = vec![
        (label!("channel-code"), "channelCode", true, channel_code),
        (
            label!("channel-customer-id"),
            "channelCustomerId",
            true,
            channel_customer_id,
        ),
    ];
    text_fields_ui(ui, lang, rows, problems);
}

fn enterprise_form_ui(ui: &mut egui::Ui, lang: Lang, id: &str, form: &mut EnterpriseForm) {
    if !form.problems.is_empty() {
        form.problems = validate::enterprise(&form.request());
    }
    grid_ui(ui, id, |ui| {
        let rows = vec![
            (
                label!("crm-customer-id"),
                "crmCustomerId",
                true,
                &mut form.crm_customer_id,
            ),
            (
                label!("customer-name"),
                "customerName",
                true,
                &mut form.customer_name,
            ),
            (
                label!("branch-name"),
                "branchName",
                false,
                &mut form.branch_name,
            ),
            (label!("address"), "address", false, &mut form.address),
        ];
        text_fields_ui(ui, lang, rows, &form.problems);
    });
}

/// The customers; the enterprise whose page a click on its name asks for.
fn customers_table_ui(ui: &mut egui::Ui, lang: Lang, customers: &[Customer]) -> Option<String> {
    let mut page = None;
    egui::Grid::new(("customers_table", customers.len()))
        .striped(true)
        .num_columns(6)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            for head in [
                label!("customer-id"),
                label!("channel"),
                label!("channel-customer"),
                label!("enterprise"),
                label!("enterprise-global-id"),
                label!("is-default"),
            ] {
                ui.label(RichText::new(head.text(lang)).strong());
            }
            ui.end_row();
            for c in customers {
                ui.label(RichText::new(&c.customer_id).monospace());
                ui.label(&c.channel_code);
                ui.label(&c.channel_customer_id);
                let name = match c.enterprise_name.as_str() {
                    "" => t!(lang, "page-no-name"),
                    name => name,
                };
                let hint = t!(lang, "customers-open-page");
                if ui.link(name).on_hover_text(hint).clicked() {
                    page = Some(c.enterprise_global_id.clone());
                }
                ui.label(RichText::new(&c.enterprise_global_id).monospace());
                ui.label(yes_no(lang, c.is_default));
                ui.end_row();
            }
        });
    page
}

fn yes_no(lang: Lang, value: bool) -> &'static str {
    (if value { label!("yes") } else { label!("no") }).text(lang)
}
