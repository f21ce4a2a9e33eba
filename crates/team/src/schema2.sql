-- Version 2: sessions. A session's token is never stored, only its SHA-256 (hex).
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    person TEXT NOT NULL REFERENCES people(name),
    created_at BIGINT NOT NULL,
    -- Moved forward by the person's calls (at most once a minute): idle expiry counts from it.
    last_seen_at BIGINT NOT NULL,
    -- Signed out.
    ended_at BIGINT
);
CREATE INDEX sessions_by_person ON sessions(person);

-- The ledger of writes forwarded to the platform (docs/platform.md, "a write sent at most
-- once"): recorded before the first byte leaves, marked when it leaves, ended with how the
-- platform answered, or `unknown` when no answer came.
CREATE TABLE team_writes (
    call_id TEXT PRIMARY KEY,
    -- The server instance that sends it (team_instances.id).
    instance TEXT NOT NULL,
    person TEXT NOT NULL,
    operation TEXT NOT NULL,
    channel_order_id TEXT,
    body_hash TEXT NOT NULL,
    items BIGINT NOT NULL,
    -- in_flight, done, refused, not_sent, unknown (client::WriteState).
    state TEXT NOT NULL,
    -- Set when the first request is about to be written: an in-flight write without it was
    -- provably not sent.
    sending_at BIGINT,
    code TEXT,
    detail TEXT,
    attempts BIGINT,
    started_at BIGINT NOT NULL,
    ended_at BIGINT
);
CREATE INDEX team_writes_by_person ON team_writes(person, started_at);

-- The running instances of the server, each seen every few seconds: the writes an instance
-- left in flight when it stopped seeing itself are settled by the others (or by the next
-- start), as not sent or unknown.
CREATE TABLE team_instances (
    id TEXT PRIMARY KEY,
    started_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL
);
