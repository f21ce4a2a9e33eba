-- Version 7 (issue 37): drafts handed over, from a person to a colleague or to the approvers;
-- the receiver opens one as a copy of their own and it leaves the server.
CREATE TABLE handed_drafts (
    seq BIGINT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    handed_to TEXT NOT NULL,
    note TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX handed_drafts_by_owner ON handed_drafts(owner, seq);
CREATE INDEX handed_drafts_by_receiver ON handed_drafts(handed_to, seq);
