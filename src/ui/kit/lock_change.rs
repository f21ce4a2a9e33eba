//! What a lock change leaves out, said in its confirmation: shared by the screens that ask
//! for one (Assets, a customer's page).

/// Assets a lock change leaves out: those that are not locks (and their types in words), and
/// those already in the state asked for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LeftOut {
    pub not_locks: usize,
    pub types: Vec<String>,
    pub already: usize,
}
