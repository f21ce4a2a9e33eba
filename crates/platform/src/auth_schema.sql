-- Tokens, and the nonces of calls that only read, version 1 (auth_store.rs). Times are epoch
-- milliseconds. Until this file existed, tokens lived in platform.sqlite3 (schema.sql); they
-- are moved here when a data directory is first opened. The nonces of calls that write stay
-- in platform.sqlite3 (schema3.sql), spent in the operation's own transaction.

CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;

-- Only a hash of each token is kept: a copy of the file grants nothing. The app is checked
-- when the token is issued (its row is in the other file, so no foreign key).
CREATE TABLE tokens (
    token_hash BLOB PRIMARY KEY,
    app_key    TEXT NOT NULL,
    issued_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX tokens_expiry ON tokens(expires_at);

CREATE TABLE nonce_log (
    generation INTEGER NOT NULL,
    app_key    TEXT NOT NULL,
    nonce      TEXT NOT NULL,
    PRIMARY KEY (generation, app_key, nonce)
) WITHOUT ROWID;

INSERT INTO counters(name, value) VALUES ('nonce_generation', 1);
INSERT INTO counters(name, value)
    VALUES ('nonce_generation_started', CAST(unixepoch('subsec') * 1000 AS INTEGER));
