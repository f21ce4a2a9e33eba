-- Version 3: the audit log, a hash chain. Each entry's hash is SHA-256 of the previous
-- entry's hash (hex) followed by the entry's canonical JSON (audit.rs); entries are never
-- changed, only dropped from the start by retention.
CREATE TABLE audit (
    seq BIGINT PRIMARY KEY,
    at BIGINT NOT NULL,
    person TEXT NOT NULL,
    role TEXT NOT NULL,
    branch TEXT,
    operation TEXT NOT NULL,
    call_id TEXT,
    -- What was asked, as forwarded (passwords redacted), JSON.
    request TEXT,
    -- done, refused, denied, not_sent, unknown, failed, signed_in, …
    outcome TEXT NOT NULL,
    code TEXT,
    message TEXT,
    -- The platform's answer for a write, JSON.
    answer TEXT,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX audit_by_person ON audit(person, seq);
CREATE INDEX audit_by_time ON audit(at);

-- Where the chain starts: nothing, or the last entry dropped by retention (its seq and hash).
CREATE TABLE audit_start (
    seq BIGINT NOT NULL,
    hash TEXT NOT NULL
);
