//! Operation 8: the assets of an enterprise master account.

use std::collections::HashMap;

use rusqlite::Transaction;

use super::customers::enterprise_by_global_id;
use crate::platform::error::OpError;
use crate::wire::{Asset, AssetExtend, AssetProduct, AssignStatus};

/// Every asset held by the customers bound to the enterprise, oldest first, with its
/// products; with `extend_code`, only those carrying that extension attribute.
pub fn list(
    tx: &Transaction<'_>,
    enterprise_global_id: &str,
    extend_code: Option<&str>,
) -> Result<Vec<Asset>, OpError> {
    let Some(enterprise) = enterprise_by_global_id(tx, enterprise_global_id)? else {
        return Err(OpError::refused(
            "enterpriseGlobalId",
            format!("no enterprise master account {enterprise_global_id}"),
        ));
    };
    let mut extends: HashMap<i64, Vec<AssetExtend>> = HashMap::new();
    let mut stmt = tx.prepare_cached(
        "SELECT x.asset_id, x.extend_code, x.extend_value FROM asset_extends x \
         JOIN assets a ON a.id = x.asset_id JOIN customers c ON c.id = a.customer_id \
         WHERE c.enterprise_id = ?1",
    )?;
    let mut rows = stmt.query([enterprise])?;
    while let Some(r) = rows.next()? {
        extends.entry(r.get(0)?).or_default().push(AssetExtend {
            extend_code: r.get(1)?,
            extend_value: r.get(2)?,
        });
    }

    let mut products: HashMap<i64, Vec<AssetProduct>> = HashMap::new();
    let mut stmt = tx.prepare_cached(
        "SELECT p.asset_id, p.product_uri, p.product_name, p.limit_start, p.limit_end, \
         p.limit_concurrent, lo.license_order_id, cl.activity_id, cl.unit_id, p.awaiting_activation \
         FROM products p JOIN assets a ON a.id = p.asset_id JOIN customers c ON c.id = a.customer_id \
         LEFT JOIN license_orders lo ON lo.id = p.license_order_id \
         LEFT JOIN claims cl ON cl.id = p.claim_id \
         WHERE c.enterprise_id = ?1 ORDER BY p.id",
    )?;
    let mut rows = stmt.query([enterprise])?;
    while let Some(r) = rows.next()? {
        products.entry(r.get(0)?).or_default().push(AssetProduct {
            product_uri: r.get(1)?,
            product_name: r.get(2)?,
            limit_start_date: r.get(3)?,
            limit_end_date: r.get(4)?,
            limit_concurrent: r.get(5)?,
            license_order_id: r.get(6)?,
            activity_id: r.get(7)?,
            sub_activity_id: r.get(8)?,
            awaiting_activation: r.get(9)?,
        });
    }

    let mut stmt = tx.prepare_cached(
        "SELECT a.id, a.asset_id, a.license_type, a.asset_num, a.grantable, c.customer_id, \
         a.key_shell_number, a.key_chip_type, a.locked, a.freezing, a.created_at, a.updated_at, \
         a.limit_start, a.limit_end, a.assign_status, a.assign_member_id, a.borrowed_usb_key, \
         lo.license_order_id \
         FROM assets a JOIN customers c ON c.id = a.customer_id \
         LEFT JOIN license_orders lo ON lo.id = a.license_order_id \
         WHERE c.enterprise_id = ?1 ORDER BY a.id",
    )?;
    let mut rows = stmt.query([enterprise])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let row: i64 = r.get(0)?;
        let asset_extends = extends.remove(&row).unwrap_or_default();
        if let Some(code) = extend_code
            && !asset_extends.iter().any(|e| e.extend_code == code)
        {
            continue;
        }
        let id: String = r.get(1)?;
        let created: i64 = r.get(10)?;
        out.push(Asset {
            assign_status: AssignStatus {
                id: id.clone(),
                assign_status: r.get(14)?,
                assign_member_id: r.get(15)?,
                create_time: created.to_string(),
                update_time: None,
            },
            id,
            license_type: r.get(2)?,
            asset_num: r.get(3)?,
            grantable: r.get(4)?,
            customer_id: r.get(5)?,
            key_shell_number: r.get(6)?,
            key_chip_type: r.get(7)?,
            locked: r.get(8)?,
            freezing: r.get(9)?,
            create_time: created,
            update_time: r.get(11)?,
            limit_start_time: r.get(12)?,
            limit_end_time: r.get(13)?,
            asset_limits: None,
            asset_extends,
            borrowed_usb_key: r.get(16)?,
            license_order_id: r.get(17)?,
            products: products.remove(&row).unwrap_or_default(),
        });
    }
    Ok(out)
}
