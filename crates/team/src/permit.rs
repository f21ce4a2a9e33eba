//! What each call of the interface needs of its caller, and the branch a bound person's calls
//! must carry. Pure rules, checked by the server before anything is forwarded; a refusal
//! names the permission (or the field) in words.

use wire::{BatchOrderRequest, BindRequest, ClaimRequest, EnterpriseRequest, LockRequest};

use crate::people::{Branch, Person};
use crate::roles::{self, Permission, Permissions};

/// Why a call is not forwarded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The caller's role lacks a permission (HTTP 403).
    #[error(
        "{what} needs the permission {permission} (role {lowest} or higher); your role {role} does not have it"
    )]
    Permission {
        what: &'static str,
        permission: Permission,
        lowest: &'static str,
        role: String,
    },
    /// A customer, enterprise or lock another branch holds (HTTP 403).
    #[error("{path}: {item} belongs to branch {holder}; you act for branch {mine} only")]
    OtherBranch {
        path: String,
        item: String,
        holder: String,
        mine: String,
    },
    /// A field the rules cannot accept (13004, the field's path first).
    #[error("{0}")]
    Field(String),
}

impl Refusal {
    /// What a console reads to say it in its own language (`permission:locks`, `branch:上海`).
    pub fn cause(&self) -> String {
        match self {
            Refusal::Permission { permission, .. } => {
                format!("{}{permission}", wire::team::PERMISSION_CAUSE)
            }
            Refusal::OtherBranch { holder, .. } => format!("{}{holder}", wire::team::BRANCH_CAUSE),
            Refusal::Field(_) => wire::team::OWN_REFUSAL_CAUSE.to_owned(),
        }
    }
}

/// Refuses unless `caller` has `p`; `what` names the action in words.
pub fn require(
    permissions: Permissions,
    person: &Person,
    p: Permission,
    what: &'static str,
) -> Result<(), Refusal> {
    if permissions.has(p) {
        return Ok(());
    }
    Err(Refusal::Permission {
        what,
        permission: p,
        lowest: roles::lowest_with(p),
        role: person.role.clone(),
    })
}

/// What a batch needs: `purchase` for new purchases, `delete` for deletes. An order without
/// an `orderType` is refused here: the server could not tell which permission it needs.
pub fn batch_permissions(batch: &BatchOrderRequest) -> Result<Vec<Permission>, Refusal> {
    let mut needed = Vec::new();
    for (i, order) in batch.order_list.iter().enumerate() {
        let p = match order.order_type {
            Some(order_type) => Permission::for_order(order_type),
            None => {
                return Err(Refusal::Field(format!(
                    "orderList[{i}].orderType: needed (new_buy, delete_asset or \
                     delete_product), so that the team server knows what it may allow"
                )));
            }
        };
        if !needed.contains(&p) {
            needed.push(p);
        }
    }
    Ok(needed)
}

/// A bound person's batch: every order's `branchCode`/`branchName` filled from the account
/// when absent, and a different one refused.
pub fn batch_branch(batch: &mut BatchOrderRequest, branch: &Branch) -> Result<(), Refusal> {
    for (i, order) in batch.order_list.iter_mut().enumerate() {
        own(
            &mut order.branch_code,
            &branch.code,
            &branch.name,
            &format!("orderList[{i}].branchCode"),
        )?;
        own(
            &mut order.branch_name,
            &branch.name,
            &branch.name,
            &format!("orderList[{i}].branchName"),
        )?;
    }
    Ok(())
}

/// Operation 1's `branchName` for a bound person.
pub fn bind_branch(req: &mut BindRequest, branch: &Branch) -> Result<(), Refusal> {
    own(
        &mut req.branch_name,
        &branch.name,
        &branch.name,
        "branchName",
    )
}

/// Operations 2 and 4's `branchName` for a bound person.
pub fn enterprise_branch(req: &mut EnterpriseRequest, branch: &Branch) -> Result<(), Refusal> {
    own(
        &mut req.branch_name,
        &branch.name,
        &branch.name,
        "branchName",
    )
}

/// A claim's `branch` for a bound person.
pub fn claim_branch(req: &mut ClaimRequest, branch: &Branch) -> Result<(), Refusal> {
    own(&mut req.branch, &branch.name, &branch.name, "branch")
}

/// A lock change is recorded under the person signed in: `operatorIdentity` is theirs,
/// whatever the console filled in (the platform keeps it as the operator).
pub fn lock_operator(req: &mut LockRequest, person: &Person) {
    req.operator_identity = Some(person.name.clone());
}

/// Fills `field` with `mine` when absent or blank; refuses any other value.
fn own(field: &mut Option<String>, mine: &str, shown: &str, path: &str) -> Result<(), Refusal> {
    match field.as_deref().map(str::trim) {
        None | Some("") => {
            *field = Some(mine.to_owned());
            Ok(())
        }
        Some(v) if v == mine => Ok(()),
        Some(v) => Err(Refusal::Field(format!(
            "{path}: {v:?} is another branch; you may order for branch {shown} only"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::OrderEntry;
    use wire::kinds::OrderType;

    fn shanghai() -> Branch {
        Branch {
            code: "SH01".to_owned(),
            name: "上海".to_owned(),
        }
    }

    fn order(kind: Option<OrderType>, code: Option<&str>) -> OrderEntry {
        OrderEntry {
            order_type: kind,
            branch_code: code.map(str::to_owned),
            ..OrderEntry::default()
        }
    }

    #[test]
    fn a_batch_needs_what_its_orders_do() {
        let batch = |orders| BatchOrderRequest {
            order_list: orders,
            ..BatchOrderRequest::default()
        };
        let new = order(Some(OrderType::NewBuy), None);
        let delete = order(Some(OrderType::DeleteProduct), None);
        assert_eq!(
            batch_permissions(&batch(vec![new.clone()])),
            Ok(vec![Permission::Purchase])
        );
        assert_eq!(
            batch_permissions(&batch(vec![new.clone(), delete, new])),
            Ok(vec![Permission::Purchase, Permission::Delete])
        );
        let untyped = batch_permissions(&batch(vec![order(None, None)]));
        assert!(
            matches!(untyped, Err(Refusal::Field(m)) if m.starts_with("orderList[0].orderType: needed"))
        );
    }

    #[test]
    fn a_bound_person_s_orders_carry_their_branch() {
        let mut batch = BatchOrderRequest {
            order_list: vec![
                order(Some(OrderType::NewBuy), None),
                order(Some(OrderType::NewBuy), Some("SH01")),
            ],
            ..BatchOrderRequest::default()
        };
        batch_branch(&mut batch, &shanghai()).expect("own branch");
        for o in &batch.order_list {
            assert_eq!(o.branch_code.as_deref(), Some("SH01"));
            assert_eq!(o.branch_name.as_deref(), Some("上海"));
        }
        batch.order_list[1].branch_name = Some("北京".to_owned());
        assert_eq!(
            batch_branch(&mut batch, &shanghai()).map_err(|e| e.to_string()),
            Err(
                "orderList[1].branchName: \"北京\" is another branch; you may order for branch \
                 上海 only"
                    .to_owned()
            )
        );
    }
}
