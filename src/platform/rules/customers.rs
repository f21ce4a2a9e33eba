//! Operations 1 to 4: customers and enterprise master accounts.

use rusqlite::{OptionalExtension, Transaction};

use crate::platform::error::OpError;
use crate::platform::store::next_id;
use crate::wire::{
    BindRequest, CreatedEnterprise, Customer, DefaultFilter, EnterpriseRequest, Member,
};

/// Channel of the default customer that operation 2 creates; its channel id is the CRM id.
pub const CRM_CHANNEL: &str = "CRM";
/// Channel of the industrial-information customer that operation 2 creates.
pub const GXXP_CHANNEL: &str = "GXXP";
/// The members operation 2 creates, by identity.
pub const MEMBER_IDENTITIES: [&str; 2] = ["gxxp-admin", "cloud-staff"];

/// Columns that make a [`Customer`], for `SELECT ... FROM customers c LEFT JOIN enterprises e`.
const CUSTOMER_COLUMNS: &str = "c.customer_id, c.channel_code, c.channel_customer_id, \
     e.global_id, e.name, c.is_default";

fn customer_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Customer> {
    Ok(Customer {
        customer_id: r.get(0)?,
        channel_code: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
        channel_customer_id: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
        enterprise_global_id: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
        enterprise_name: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
        is_default: r.get(5)?,
    })
}

/// A customer row: its key and its enterprise's key.
#[derive(Debug, Clone, Copy)]
pub struct CustomerKey {
    pub id: i64,
    pub enterprise_id: Option<i64>,
}

pub fn by_channel(
    tx: &Transaction<'_>,
    channel_code: &str,
    channel_customer_id: &str,
) -> rusqlite::Result<Option<CustomerKey>> {
    tx.prepare_cached(
        "SELECT id, enterprise_id FROM customers WHERE channel_code = ?1 AND channel_customer_id = ?2",
    )?
    .query_row([channel_code, channel_customer_id], |r| {
        Ok(CustomerKey {
            id: r.get(0)?,
            enterprise_id: r.get(1)?,
        })
    })
    .optional()
}

pub fn by_customer_id(
    tx: &Transaction<'_>,
    customer_id: &str,
) -> rusqlite::Result<Option<CustomerKey>> {
    tx.prepare_cached("SELECT id, enterprise_id FROM customers WHERE customer_id = ?1")?
        .query_row([customer_id], |r| {
            Ok(CustomerKey {
                id: r.get(0)?,
                enterprise_id: r.get(1)?,
            })
        })
        .optional()
}

pub fn enterprise_by_global_id(
    tx: &Transaction<'_>,
    global_id: &str,
) -> rusqlite::Result<Option<i64>> {
    tx.prepare_cached("SELECT id FROM enterprises WHERE global_id = ?1")?
        .query_row([global_id], |r| r.get(0))
        .optional()
}

pub fn load(tx: &Transaction<'_>, id: i64) -> rusqlite::Result<Customer> {
    tx.prepare_cached(&format!(
        "SELECT {CUSTOMER_COLUMNS} FROM customers c LEFT JOIN enterprises e ON e.id = c.enterprise_id WHERE c.id = ?1"
    ))?
    .query_row([id], customer_row)
}

/// The public customer id of a customer row.
pub fn public_id(tx: &Transaction<'_>, id: i64) -> rusqlite::Result<String> {
    tx.prepare_cached("SELECT customer_id FROM customers WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
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

pub fn insert(tx: &Transaction<'_>, c: &NewCustomer<'_>, now: i64) -> Result<i64, OpError> {
    let customer_id = next_id(tx, "CU")?;
    tx.prepare_cached(
        "INSERT INTO customers(customer_id, channel_code, channel_customer_id, enterprise_id, \
         is_default, customer_name, branch_name, address, crm_customer_id, password_mobile, \
         created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
    )?
    .execute(rusqlite::params![
        customer_id,
        c.channel_code,
        c.channel_customer_id,
        c.enterprise_id,
        c.is_default,
        c.customer_name,
        c.branch_name,
        c.address,
        c.crm_customer_id,
        c.password_mobile,
        now
    ])?;
    Ok(tx.last_insert_rowid())
}

fn insert_enterprise(
    tx: &Transaction<'_>,
    name: &str,
    crm_customer_id: Option<&str>,
    branch_name: Option<&str>,
    address: Option<&str>,
    now: i64,
) -> Result<(i64, String), OpError> {
    let global_id = next_id(tx, "EG")?;
    tx.execute(
        "INSERT INTO enterprises(global_id, name, crm_customer_id, branch_name, address, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        rusqlite::params![global_id, name, crm_customer_id, branch_name, address, now],
    )?;
    Ok((tx.last_insert_rowid(), global_id))
}

/// Operation 1: binds the channel's customer to the enterprise master account of that name,
/// creating the account (with this customer as its default) when none has the name.
pub fn bind(tx: &Transaction<'_>, r: &BindRequest, now: i64) -> Result<Customer, OpError> {
    let channel_code = r.channel_code.as_deref().unwrap_or_default().trim();
    let channel_id = r.channel_customer_id.as_deref().unwrap_or_default().trim();
    let enterprise_name = r.enterprise_name.as_deref().unwrap_or_default().trim();

    let named: Vec<i64> = tx
        .prepare_cached("SELECT id FROM enterprises WHERE name = ?1 ORDER BY id LIMIT 2")?
        .query_map([enterprise_name], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let enterprise_id = match named.as_slice() {
        [one] => *one,
        [] => {
            insert_enterprise(
                tx,
                enterprise_name,
                None,
                r.branch_name.as_deref(),
                None,
                now,
            )?
            .0
        }
        _ => {
            return Err(OpError::refused(
                "enterpriseName",
                format!(
                    "several enterprise master accounts are named {enterprise_name:?}; rename one (operation 4) before binding"
                ),
            ));
        }
    };
    let has_default: bool = tx
        .prepare_cached(
            "SELECT EXISTS(SELECT 1 FROM customers WHERE enterprise_id = ?1 AND is_default)",
        )?
        .query_row([enterprise_id], |r| r.get(0))?;

    let id = match by_channel(tx, channel_code, channel_id)? {
        Some(existing) => {
            if let Some(bound) = existing.enterprise_id.filter(|e| *e != enterprise_id) {
                let name: String = tx.query_row(
                    "SELECT global_id || ' (' || name || ')' FROM enterprises WHERE id = ?1",
                    [bound],
                    |r| r.get(0),
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
                rusqlite::params![
                    existing.id,
                    enterprise_id,
                    !has_default,
                    r.customer_name,
                    r.branch_name,
                    r.password_mobile,
                    now
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
    tx: &Transaction<'_>,
    r: &EnterpriseRequest,
    now: i64,
) -> Result<CreatedEnterprise, OpError> {
    let crm_id = r.crm_customer_id.as_deref().unwrap_or_default().trim();
    let name = r.customer_name.as_deref().unwrap_or_default().trim();
    let existing: Option<String> = tx
        .query_row(
            "SELECT global_id FROM enterprises WHERE crm_customer_id = ?1",
            [crm_id],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(global_id) = existing {
        return Err(OpError::refused(
            "crmCustomerId",
            format!(
                "an enterprise master account ({global_id}) already exists for this CRM customer; use operation 4 to change it"
            ),
        ));
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
            rusqlite::params![member_global_id, enterprise_id, identity],
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
pub fn update(tx: &Transaction<'_>, r: &EnterpriseRequest, now: i64) -> Result<(), OpError> {
    let crm_id = r.crm_customer_id.as_deref().unwrap_or_default().trim();
    let name = r.customer_name.as_deref().unwrap_or_default().trim();
    let enterprise_id: Option<i64> = tx
        .query_row(
            "SELECT id FROM enterprises WHERE crm_customer_id = ?1",
            [crm_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(enterprise_id) = enterprise_id else {
        return Err(OpError::refused(
            "crmCustomerId",
            format!("no enterprise master account exists for the CRM customer {crm_id:?}"),
        ));
    };
    tx.execute(
        "UPDATE enterprises SET name = ?2, address = COALESCE(?3, address), \
         branch_name = COALESCE(?4, branch_name), updated_at = ?5 WHERE id = ?1",
        rusqlite::params![enterprise_id, name, r.address, r.branch_name, now],
    )?;
    tx.execute(
        "UPDATE customers SET customer_name = ?3, address = COALESCE(?4, address), \
         branch_name = COALESCE(?5, branch_name), updated_at = ?6 \
         WHERE enterprise_id = ?1 AND crm_customer_id = ?2",
        rusqlite::params![enterprise_id, crm_id, name, r.address, r.branch_name, now],
    )?;
    Ok(())
}

/// Operation 3: the customers of the enterprise the channel's customer is bound to (only its
/// default customer with `Y`). An unknown customer gives an empty list.
pub fn query(
    tx: &Transaction<'_>,
    channel_code: &str,
    channel_customer_id: &str,
    filter: DefaultFilter,
) -> rusqlite::Result<Vec<Customer>> {
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
    tx.prepare_cached(&format!(
        "SELECT {CUSTOMER_COLUMNS} FROM customers c JOIN enterprises e ON e.id = c.enterprise_id \
         WHERE c.enterprise_id = ?1 AND (c.is_default OR NOT ?2) ORDER BY c.is_default DESC, c.id"
    ))?
    .query_map(rusqlite::params![enterprise_id, only_default], customer_row)?
    .collect()
}
