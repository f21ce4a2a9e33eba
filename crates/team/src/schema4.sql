-- Version 4 (issue 37): the server's settings, and requests that wait for a second person.
CREATE TABLE team_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- A call held for approval: the body as it would be forwarded, its SHA-256 (hex), and for a
-- delete what it removes (JSON). state: pending, approved, rejected, then once sent done,
-- refused, unknown or not_sent.
CREATE TABLE requests (
    seq BIGINT PRIMARY KEY,
    requester TEXT NOT NULL,
    role TEXT NOT NULL,
    branch TEXT,
    operation TEXT NOT NULL,
    body TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    preview TEXT,
    summary TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    decided_by TEXT,
    decided_at BIGINT,
    reason TEXT,
    call_id TEXT,
    code TEXT,
    message TEXT,
    ended_at BIGINT
);
CREATE INDEX requests_by_state ON requests(state, seq);
CREATE INDEX requests_by_requester ON requests(requester, seq);
