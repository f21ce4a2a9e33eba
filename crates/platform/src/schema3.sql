-- Version 3: used nonces in generations. A call's nonce costs one B-tree insert (the old
-- table also kept an index by time for pruning); a generation is dropped whole once the next
-- one is older than the nonce window (auth.rs), so a nonce is remembered for at least the
-- window and at most twice as long.

CREATE TABLE nonce_log (
    generation INTEGER NOT NULL,
    app_key    TEXT NOT NULL,
    nonce      TEXT NOT NULL,
    PRIMARY KEY (generation, app_key, nonce)
) WITHOUT ROWID;

-- The nonces already used stay refused for a whole generation more.
INSERT INTO nonce_log(generation, app_key, nonce) SELECT 0, app_key, nonce FROM nonces;
DROP TABLE nonces;

INSERT INTO counters(name, value) VALUES ('nonce_generation', 1);
INSERT INTO counters(name, value)
    VALUES ('nonce_generation_started', CAST(unixepoch('subsec') * 1000 AS INTEGER));
