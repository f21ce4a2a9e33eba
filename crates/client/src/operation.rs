//! What an operation's call may have done when its answer was lost, in plain words.

pub use wire::Operation;

/// What the platform may have done when a call of `op`, touching `items` things, got no
/// answer: plain words for the user.
pub fn what_may_have_happened(op: Operation, items: usize) -> String {
    // "this license order", "these 3 license orders".
    let these = |one: &str| match items {
        1 => format!("this {one}"),
        n => format!("these {n} {one}s"),
    };
    match op {
        Operation::BatchOrder => {
            format!("the platform may have applied {}", these("license order"))
        }
        Operation::Lock => format!("the platform may have disabled {}", these("lock")),
        Operation::Unlock => format!("the platform may have enabled {}", these("lock")),
        Operation::Shellnums => match items {
            1 => "the platform may have handed out an asset number".to_owned(),
            n => format!("the platform may have handed out {n} asset numbers"),
        },
        Operation::Claim => "the platform may have granted the claim".to_owned(),
        Operation::Bind => "the platform may have bound the customer".to_owned(),
        Operation::CreateEnterprise => "the platform may have created the enterprise".to_owned(),
        Operation::UpdateEnterprise => "the platform may have updated the enterprise".to_owned(),
        Operation::Token | Operation::QueryCustomers | Operation::Assets => {
            "nothing changes on the platform".to_owned()
        }
    }
}
