-- Version 2: activity claims, and where each product came from.

CREATE TABLE claims (
    id            INTEGER PRIMARY KEY,
    activity_id   TEXT NOT NULL,
    unit_id       TEXT NOT NULL,
    identity      TEXT NOT NULL,
    identity_kind TEXT NOT NULL,
    source        TEXT NOT NULL,
    branch        TEXT NOT NULL,
    app_key       TEXT NOT NULL,
    claimed_at    INTEGER NOT NULL,
    products      TEXT NOT NULL
);
CREATE INDEX claims_unit_identity ON claims(activity_id, unit_id, identity);

ALTER TABLE products ADD COLUMN claim_id INTEGER REFERENCES claims(id);
ALTER TABLE products ADD COLUMN product_name TEXT;
