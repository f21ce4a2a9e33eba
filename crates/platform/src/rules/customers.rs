//! Operations 1 to 4: customers and enterprise master accounts.

use crate::error::OpError;
use crate::sql::{self, Row, StoreError};
use crate::store::next_id;
use wire::refusal::Refusal;
use wire::{BindRequest, CreatedEnterprise, Customer, DefaultFilter, EnterpriseRequest, Member};

/// Channel of the default customer that operation 2 creates; its channel id is the CRM id.
pub const CRM_CHANNEL: &str = "CRM";
/// Channel of the industrial-information customer that operation 2 creates.
pub const GXXP_CHANNEL: &str = "GXXP";
/// The members operation 2 creates, by identity.
/// The key that serializes every write of customers and enterprises (see
/// `sql::Tx::serialize_on`): each such rule reads, by name or channel id, before it creates.
/// Batches take it too (after [`super::orders::BATCHES`]), since they create customers.
pub const CUSTOMERS: &str = "customers";

pub const MEMBER_IDENTITIES: [&str; 2] = ["gxxp-admin", "cloud-staff"];

/// Columns that make a [`Customer`], for `SELECT ... FROM customers c LEFT JOIN enterprises e`
/// (a macro, so that each statement stays one `&'static str`).
macro_rules! customer_columns {
    () => {
        "c.customer_id, c.channel_code, c.channel_customer_id, e.global_id, e.name, c.is_default"
    };
}

fn customer_row(r: &dyn Row) -> Result<Customer, StoreError> {
    Ok(Customer {
        customer_id: r.text(0)?,
        channel_code: r.opt_text(1)?.unwrap_or_default(),
        channel_customer_id: r.opt_text(2)?.unwrap_or_default(),
        enterprise_global_id: r.opt_text(3)?.unwrap_or_default(),
        enterprise_name: r.opt_text(4)?.unwrap_or_default(),
        is_default: r.bool(5)?,
    })
}

fn customer_key(r: &dyn Row) -> Result<CustomerKey, StoreError> {
    Ok(CustomerKey {
        id: r.i64(0)?,
        enterprise_id: r.opt_i64(1)?,
    })
}

/// A customer row: its key and its enterprise's key.
#[derive(Debug, Clone, Copy)]
pub struct CustomerKey {
    pub id: i64,
    pub enterprise_id: Option<i64>,
}

pub fn by_channel(
    tx: &dyn sql::Tx,
    channel_code: &str,
    channel_customer_id: &str,
) -> Result<Option<CustomerKey>, StoreError> {
    tx.query_opt(
        "SELECT id, enterprise_id FROM customers WHERE channel_code = ?1 AND channel_customer_id = ?2",
        &[channel_code.into(), channel_customer_id.into()],
        customer_key,
    )
}

pub fn by_customer_id(
    tx: &dyn sql::Tx,
    customer_id: &str,
) -> Result<Option<CustomerKey>, StoreError> {
    tx.query_opt(
        "SELECT id, enterprise_id FROM customers WHERE customer_id = ?1",
        &[customer_id.into()],
        customer_key,
    )
}

pub fn enterprise_by_global_id(
    tx: &dyn sql::Tx,
    global_id: &str,
) -> Result<Option<i64>, StoreError> {
    tx.query_opt(
        "SELECT id FROM enterprises WHERE global_id = ?1",
        &[global_id.into()],
        |r| r.i64(0),
    )
}

pub fn load(tx: &dyn sql::Tx, id: i64) -> Result<Customer, StoreError> {
    tx.query_one(
        concat!(
            "SELECT ",
            customer_columns!(),
            " FROM customers c LEFT JOIN enterprises e ON e.id = c.enterprise_id WHERE c.id = ?1"
        ),
        &[id.into()],
        customer_row,
    )
}

/// The public customer id of a customer row.
pub fn public_id(tx: &dyn sql::Tx, id: i64) -> Result<String, StoreError> {
    tx.query_one(
        "SELECT customer_id FROM customers WHERE id = ?1",
        &[id.into()],
        |r| r.text(0),
    )
}

/// Fields of a new customer row.
#[derive(Default)]
pub struct NewCustomer<'a> {
    pub channel_code: Option<&'a str>,
    pub channel_customer_id: Option<&'a str>,
    pub enterprise_id: Option<i64>,
    pub is_default: bool,
    pub customer_name: Option<&'a str>,
    pub branch_name: Option<&'a str>,
    pub address: Option<&'a str>,
    pub crm_customer_id: Option<&'a str>,
    pub password_mobile: Option<&'a str>,
}

pub fn insert(tx: &dyn sql::Tx, c: &NewCustomer<'_>, now: i64) -> Result<i64, OpError> {
    let customer_id = next_id(tx, "CU")?;
    Ok(tx.query_one(
        "INSERT INTO customers(customer_id, channel_code, channel_customer_id, enterprise_id, \
         is_default, customer_name, branch_name, address, crm_customer_id, password_mobile, \
         created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11) \
         RETURNING id",
        &[
            (&customer_id).into(),
            c.channel_code.into(),
            c.channel_customer_id.into(),
            c.enterprise_id.into(),
            c.is_default.into(),
            c.customer_name.into(),
            c.branch_name.into(),
            c.address.into(),
            c.crm_customer_id.into(),
            c.password_mobile.into(),
            now.into(),
        ],
        |r| r.i64(0),
    )?)
}

fn insert_enterprise(
    tx: &dyn sql::Tx,
    name: &str,
    crm_customer_id: Option<&str>,
    branch_name: Option<&str>,
    address: Option<&str>,
    now: i64,
) -> Result<(i64, String), OpError> {
    let global_id = next_id(tx, "EG")?;
    let id = tx.query_one(
        "INSERT INTO enterprises(global_id, name, crm_customer_id, branch_name, address, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) RETURNING id",
        &[
            (&global_id).into(),
            name.into(),
            crm_customer_id.into(),
            branch_name.into(),
            address.into(),
            now.into(),
        ],
        |r| r.i64(0),
    )?;
    Ok((id, global_id))
}

/// The enterprise master account bound to: the one of this name, made when there is none;
/// several of one name are refused (which one is meant cannot be told).
fn enterprise_named(
    tx: &dyn sql::Tx,
    enterprise_name: &str,
    branch_name: Option<&str>,
    now: i64,
) -> Result<i64, OpError> {
    let named = tx.query_vec(
        "SELECT id FROM enterprises WHERE name = ?1 ORDER BY id LIMIT 2",
        &[enterprise_name.into()],
        |r| r.i64(0),
    )?;
    Ok(match named.as_slice() {
        [one] => *one,
        [] => insert_enterprise(tx, enterprise_name, None, branch_name, None, now)?.0,
        _ => {
            return Err(OpError::refused(
                "enterpriseName",
                format!(
                    "several enterprise master accounts are named {enterprise_name:?}; rename one (operation 4) before binding"
                ),
            ));
        }
    })
}

/// Operation 1: binds the channel's customer to the enterprise master account of that name,
/// creating the account (with this customer as its default) when none has the name.
pub fn bind(tx: &dyn sql::Tx, r: &BindRequest, now: i64) -> Result<Customer, OpError> {
    tx.serialize_on(CUSTOMERS)?;
    let channel_code = r.channel_code.as_deref().unwrap_or_default().trim();
    let channel_id = r.channel_customer_id.as_deref().unwrap_or_default().trim();
    let enterprise_name = r.enterprise_name.as_deref().unwrap_or_default().trim();

    let enterprise_id = enterprise_named(tx, enterprise_name, r.branch_name.as_deref(), now)?;
    let has_default = tx.query_one(
        "SELECT EXISTS(SELECT 1 FROM customers WHERE enterprise_id = ?1 AND is_default)",
        &[enterprise_id.into()],
        |r| r.bool(0),
    )?;

    let id = match by_channel(tx, channel_code, channel_id)? {
        Some(existing) => {
            if let Some(bound) = existing.enterprise_id.filter(|e| *e != enterprise_id) {
                let name = tx.query_one(
                    "SELECT global_id || ' (' || name || ')' FROM enterprises WHERE id = ?1",
                    &[bound.into()],
                    |r| r.text(0),
                )?;
                return Err(OpError::refused(
                    "channelCustomerId",
                    format!(
                        "{channel_code}/{channel_id} is already bound to the enterprise master account {name}"
                    ),
                ));
            }
            tx.execute(
                "UPDATE customers SET enterprise_id = ?2, \
                 is_default = CASE WHEN enterprise_id IS NULL THEN ?3 ELSE is_default END, \
                 customer_name = ?4, branch_name = COALESCE(?5, branch_name), \
                 password_mobile = COALESCE(?6, password_mobile), updated_at = ?7 WHERE id = ?1",
                &[
                    existing.id.into(),
                    enterprise_id.into(),
                    (!has_default).into(),
                    r.customer_name.as_ref().into(),
                    r.branch_name.as_ref().into(),
                    r.password_mobile.as_ref().into(),
                    now.into(),
                ],
            )?;
            existing.id
        }
        None => insert(
            tx,
            &NewCustomer {
                channel_code: Some(channel_code),
                channel_customer_id: Some(channel_id),
                enterprise_id: Some(enterprise_id),
                is_default: !has_default,
                customer_name: r.customer_name.as_deref(),
                branch_name: r.branch_name.as_deref(),
                password_mobile: r.password_mobile.as_deref(),
                ..NewCustomer::default()
            },
            now,
        )?,
    };
    Ok(load(tx, id)?)
}

/// Operation 2: the enterprise master account of a CRM customer, with its default customer
/// (channel `CRM`), its industrial-information customer (channel `GXXP`) and two members.
pub fn create(
    tx: &dyn sql::Tx,
    r: &EnterpriseRequest,
    now: i64,
) -> Result<CreatedEnterprise, OpError> {
    tx.serialize_on(CUSTOMERS)?;
    let crm_id = r.crm_customer_id.as_deref().unwrap_or_default().trim();
    let name = r.customer_name.as_deref().unwrap_or_default().trim();
    let existing = tx.query_opt(
        "SELECT global_id FROM enterprises WHERE crm_customer_id = ?1",
        &[crm_id.into()],
        |r| r.text(0),
    )?;
    if let Some(global_id) = existing {
        let refusal = Refusal::EnterpriseExists {
            enterprise: global_id,
        };
        return Err(OpError::refusal("crmCustomerId", refusal, ""));
    }
    let (enterprise_id, global_id) = insert_enterprise(
        tx,
        name,
        Some(crm_id),
        r.branch_name.as_deref(),
        r.address.as_deref(),
        now,
    )?;
    for (channel, is_default) in [(CRM_CHANNEL, true), (GXXP_CHANNEL, false)] {
        if by_channel(tx, channel, crm_id)?.is_some() {
            return Err(OpError::refused(
                "crmCustomerId",
                format!("a customer {channel}/{crm_id} already exists"),
            ));
        }
        insert(
            tx,
            &NewCustomer {
                channel_code: Some(channel),
                channel_customer_id: Some(crm_id),
                enterprise_id: Some(enterprise_id),
                is_default,
                customer_name: Some(name),
                branch_name: r.branch_name.as_deref(),
                address: r.address.as_deref(),
                crm_customer_id: Some(crm_id),
                ..NewCustomer::default()
            },
            now,
        )?;
    }
    let mut members = Vec::new();
    for identity in MEMBER_IDENTITIES {
        let member_global_id = next_id(tx, "EM")?;
        tx.execute(
            "INSERT INTO members(member_global_id, enterprise_id, member_identity) VALUES (?1, ?2, ?3)",
            &[
                (&member_global_id).into(),
                enterprise_id.into(),
                identity.into(),
            ],
        )?;
        members.push(Member {
            member_global_id,
            member_identity: identity.to_owned(),
        });
    }
    Ok(CreatedEnterprise {
        enterprise_global_id: global_id,
        default_type: true,
        members,
    })
}

/// Operation 4: renames the enterprise master account of a CRM customer and its customers,
/// and changes their address (and branch, when given).
pub fn update(tx: &dyn sql::Tx, r: &EnterpriseRequest, now: i64) -> Result<(), OpError> {
    tx.serialize_on(CUSTOMERS)?;
    let crm_id = r.crm_customer_id.as_deref().unwrap_or_default().trim();
    let name = r.customer_name.as_deref().unwrap_or_default().trim();
    let enterprise_id = tx.query_opt(
        "SELECT id FROM enterprises WHERE crm_customer_id = ?1",
        &[crm_id.into()],
        |r| r.i64(0),
    )?;
    let Some(enterprise_id) = enterprise_id else {
        let refusal = Refusal::NoEnterpriseForCustomer {
            crm_customer_id: crm_id.to_owned(),
        };
        return Err(OpError::refusal("crmCustomerId", refusal, ""));
    };
    tx.execute(
        "UPDATE enterprises SET name = ?2, address = COALESCE(?3, address), \
         branch_name = COALESCE(?4, branch_name), updated_at = ?5 WHERE id = ?1",
        &[
            enterprise_id.into(),
            name.into(),
            r.address.as_ref().into(),
            r.branch_name.as_ref().into(),
            now.into(),
        ],
    )?;
    tx.execute(
        "UPDATE customers SET customer_name = ?3, address = COALESCE(?4, address), \
         branch_name = COALESCE(?5, branch_name), updated_at = ?6 \
         WHERE enterprise_id = ?1 AND crm_customer_id = ?2",
        &[
            enterprise_id.into(),
            crm_id.into(),
            name.into(),
            r.address.as_ref().into(),
            r.branch_name.as_ref().into(),
            now.into(),
        ],
    )?;
    Ok(())
}

/// Operation 3: the customers of the enterprise the channel's customer is bound to (only its
/// default customer with `Y`). An unknown customer gives an empty list.
pub fn query(
    tx: &dyn sql::Tx,
    channel_code: &str,
    channel_customer_id: &str,
    filter: DefaultFilter,
) -> Result<Vec<Customer>, StoreError> {
    let Some(found) = by_channel(tx, channel_code, channel_customer_id)? else {
        return Ok(Vec::new());
    };
    let only_default = filter == DefaultFilter::Y;
    let Some(enterprise_id) = found.enterprise_id else {
        // Created by an order and never bound: it is its own, non-default, customer.
        return Ok(if only_default {
            Vec::new()
        } else {
            vec![load(tx, found.id)?]
        });
    };
    tx.query_vec(
        concat!(
            "SELECT ",
            customer_columns!(),
            " FROM customers c JOIN enterprises e ON e.id = c.enterprise_id \
             WHERE c.enterprise_id = ?1 AND (c.is_default OR NOT ?2) \
             ORDER BY c.is_default DESC, c.id"
        ),
        &[enterprise_id.into(), only_default.into()],
        customer_row,
    )
}
