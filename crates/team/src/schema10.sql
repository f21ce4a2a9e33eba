-- Version 10 (issue 52): the branch each customer, enterprise and lock belongs to, as this
-- server saw it: the `branchName` of the first call through it that created or ordered into
-- it (the platform's records have no branch). Keys are the team directory's: customer:ID,
-- channel:CODE/ID, crm:ID, enterprise:ID, and lock:NUMBER.
CREATE TABLE holdings (
    item_key TEXT PRIMARY KEY,
    branch TEXT NOT NULL,
    held_since BIGINT NOT NULL,
    held_by TEXT NOT NULL
);
