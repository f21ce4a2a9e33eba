//! The console's stricter check of a batch (the composer, `order check`): the platform's own
//! rules, and besides them what the platform would take but is almost surely a mistake that loses
//! something: a key near a field's name, whose value would be ignored, and a lock's asset number
//! with a letter where a digit goes or a digit too many or too few (interface §8: 10 digits).

use std::borrow::Borrow;

use super::held::in_tree_order;
use super::problem::{At, Problem, ProblemKind, Seg};
use super::{UnknownKey, batch_order_of, unknown_keys_of};
use crate::order::{BatchOrderRequest, OrderEntry};

/// Digits in a lock's asset number (interface §8).
const LOCK_DIGITS: usize = 10;

/// The batch's problems (the platform's rules and the console's) and its keys of no field that
/// stay warnings.
pub fn console_check<O: Borrow<OrderEntry>>(
    head: &BatchOrderRequest,
    orders: &[O],
) -> (Vec<Problem>, Vec<UnknownKey>) {
    let mut problems = batch_order_of(head, orders);
    let before = problems.len();
    lock_numbers(orders, &mut problems);
    if problems.len() > before {
        in_tree_order(&mut problems);
    }
    with_near_keys(problems, unknown_keys_of(head, orders))
}

/// The asset numbers of lock orders not of a lock's shape.
fn lock_numbers<O: Borrow<OrderEntry>>(orders: &[O], out: &mut Vec<Problem>) {
    for (i, order) in orders.iter().map(Borrow::borrow).enumerate() {
        if !order.license_type.is_some_and(|t| t.is_usbkey()) {
            continue;
        }
        let at = At::ROOT.item("orderList", i);
        for (j, asset) in order.assets.iter().enumerate() {
            let at = at.item("assets", j);
            for (k, num) in asset.asset_nos.iter().enumerate() {
                if let Some(kind) = lock_number_problem(num) {
                    out.push(Problem::new(at.item("assetNos", k).path(), kind));
                }
            }
        }
    }
}

/// A number of digits and digit-like letters (O for 0, I or l for 1) that is not 10 digits;
/// other shapes are left to the platform.
pub fn lock_number_problem(num: &str) -> Option<ProblemKind> {
    let digits: String = num
        .chars()
        .map(|c| match c {
            'O' | 'o' => '0',
            'I' | 'l' => '1',
            c => c,
        })
        .collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
        return None;
    }
    if digits != num {
        let meant = (digits.len() == LOCK_DIGITS).then_some(digits);
        Some(ProblemKind::LetterForDigit { meant })
    } else if num.len() != LOCK_DIGITS {
        Some(ProblemKind::LockDigits {
            count: num.len(),
            digits: LOCK_DIGITS,
        })
    } else {
        None
    }
}

/// The console's check of a batch: the rules' `problems`, and of the unknown `keys` those near
/// a field of their node (`endDate` beside `limitEndDate`) as problems too, at the field they
/// were likely meant for, since the value would be silently ignored; the other keys stay
/// warnings. The platform itself ignores such keys, so this is not one of its rules.
fn with_near_keys(
    mut problems: Vec<Problem>,
    keys: Vec<UnknownKey>,
) -> (Vec<Problem>, Vec<UnknownKey>) {
    let (near, far): (Vec<UnknownKey>, Vec<UnknownKey>) =
        keys.into_iter().partition(|k| k.near.is_some());
    if near.is_empty() {
        return (problems, far);
    }
    problems.extend(near.into_iter().filter_map(|k| {
        let field = k.near?;
        let mut path = k.at;
        path.0.push(Seg::Field(field));
        let kind = ProblemKind::NearField { key: k.key, field };
        Some(Problem::new(path, kind))
    }));
    in_tree_order(&mut problems);
    (problems, far)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::ProductEntry;

    #[test]
    fn a_key_near_a_field_is_that_field_and_a_far_one_is_not() {
        let fields = crate::declared::fields_of::<ProductEntry>();
        for (key, near) in [
            ("endDate", Some("limitEndDate")),
            ("startDate", Some("limitStartDate")),
            ("product_uri", Some("productUri")),
            ("productUrl", Some("productUri")),
            ("ProductName", Some("productName")),
            ("note", None),
            ("colour", None),
            ("id", None),
        ] {
            assert_eq!(super::super::near_field(key, fields), near, "{key}");
        }
    }

    #[test]
    fn a_lock_number_with_a_letter_or_a_digit_too_many_is_a_problem() {
        let meant = |m: &str| {
            Some(ProblemKind::LetterForDigit {
                meant: Some(m.to_owned()),
            })
        };
        assert_eq!(lock_number_problem("80000001O2"), meant("8000000102"));
        assert_eq!(lock_number_problem("8l00000001"), meant("8100000001"));
        assert_eq!(
            lock_number_problem("890000005"),
            Some(ProblemKind::LockDigits {
                count: 9,
                digits: 10
            })
        );
        for fine in ["8900000005", "CA-DEMO-0001", "KEY-12"] {
            assert_eq!(lock_number_problem(fine), None, "{fine}");
        }
    }
}
