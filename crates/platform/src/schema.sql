-- The embedded platform's storage, version 1. Times are epoch milliseconds.

CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE apps (
    app_key     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    secret_hash BLOB NOT NULL,
    scopes      TEXT NOT NULL,
    created_at  INTEGER NOT NULL
) WITHOUT ROWID;

-- Only a hash of each token is kept: a copy of the file grants nothing.
CREATE TABLE tokens (
    token_hash BLOB PRIMARY KEY,
    app_key    TEXT NOT NULL REFERENCES apps(app_key),
    issued_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX tokens_expiry ON tokens(expires_at);

CREATE TABLE nonces (
    app_key TEXT NOT NULL,
    nonce   TEXT NOT NULL,
    seen_at INTEGER NOT NULL,
    PRIMARY KEY (app_key, nonce)
) WITHOUT ROWID;
CREATE INDEX nonces_seen ON nonces(seen_at);

CREATE TABLE enterprises (
    id              INTEGER PRIMARY KEY,
    global_id       TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    crm_customer_id TEXT UNIQUE,
    branch_name     TEXT,
    address         TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX enterprises_name ON enterprises(name);

CREATE TABLE members (
    id               INTEGER PRIMARY KEY,
    member_global_id TEXT NOT NULL UNIQUE,
    enterprise_id    INTEGER NOT NULL REFERENCES enterprises(id),
    member_identity  TEXT NOT NULL
);

CREATE TABLE customers (
    id                  INTEGER PRIMARY KEY,
    customer_id         TEXT NOT NULL UNIQUE,
    channel_code        TEXT,
    channel_customer_id TEXT,
    enterprise_id       INTEGER REFERENCES enterprises(id),
    is_default          INTEGER NOT NULL DEFAULT 0,
    customer_name       TEXT,
    branch_name         TEXT,
    address             TEXT,
    crm_customer_id     TEXT,
    password_mobile     TEXT,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    UNIQUE (channel_code, channel_customer_id)
);
CREATE INDEX customers_enterprise ON customers(enterprise_id);

-- One row per (channelCode, channelOrderId): the idempotency key of batch orders.
CREATE TABLE batches (
    id               INTEGER PRIMARY KEY,
    channel_code     TEXT NOT NULL,
    channel_order_id TEXT NOT NULL,
    app_key          TEXT NOT NULL,
    body_hash        BLOB NOT NULL,
    sync_mode        TEXT NOT NULL,
    state            TEXT NOT NULL CHECK (state IN ('pending', 'applied', 'failed')),
    request          TEXT,
    response         TEXT NOT NULL,
    failure          TEXT,
    created_at       INTEGER NOT NULL,
    applied_at       INTEGER,
    UNIQUE (channel_code, channel_order_id)
);
CREATE INDEX batches_pending ON batches(state) WHERE state = 'pending';

CREATE TABLE license_orders (
    id                   INTEGER PRIMARY KEY,
    license_order_id     TEXT NOT NULL UNIQUE,
    batch_id             INTEGER NOT NULL REFERENCES batches(id),
    sequence             INTEGER NOT NULL,
    customer_id          INTEGER NOT NULL REFERENCES customers(id),
    order_type           TEXT NOT NULL,
    license_type         TEXT NOT NULL,
    src_license_order_id TEXT,
    created_at           INTEGER NOT NULL
);
CREATE INDEX license_orders_batch ON license_orders(batch_id);

CREATE TABLE assets (
    id               INTEGER PRIMARY KEY,
    asset_id         TEXT NOT NULL UNIQUE,
    asset_num        TEXT NOT NULL UNIQUE,
    license_type     TEXT NOT NULL,
    customer_id      INTEGER NOT NULL REFERENCES customers(id),
    license_order_id INTEGER REFERENCES license_orders(id),
    key_shell_number TEXT NOT NULL,
    key_chip_type    INTEGER NOT NULL,
    grantable        INTEGER NOT NULL DEFAULT 1,
    locked           INTEGER NOT NULL DEFAULT 0,
    freezing         INTEGER NOT NULL DEFAULT 0,
    borrowed_usb_key INTEGER NOT NULL DEFAULT 0,
    limit_start      INTEGER,
    limit_end        INTEGER,
    assign_status    TEXT NOT NULL DEFAULT 'unassigned',
    assign_member_id TEXT NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX assets_customer ON assets(customer_id);

CREATE TABLE asset_extends (
    asset_id     INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    extend_code  TEXT NOT NULL,
    extend_value TEXT NOT NULL,
    PRIMARY KEY (asset_id, extend_code)
) WITHOUT ROWID;

CREATE TABLE merchandises (
    id               INTEGER PRIMARY KEY,
    asset_id         INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    license_order_id INTEGER NOT NULL REFERENCES license_orders(id),
    parent_id        INTEGER REFERENCES merchandises(id) ON DELETE CASCADE,
    merchandise_num  TEXT NOT NULL,
    entry            TEXT NOT NULL
);
CREATE INDEX merchandises_asset ON merchandises(asset_id);
CREATE INDEX merchandises_parent ON merchandises(parent_id);

-- Products granted to assets, by an order (license_order_id) or an activity claim.
CREATE TABLE products (
    id                  INTEGER PRIMARY KEY,
    asset_id            INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    license_order_id    INTEGER REFERENCES license_orders(id),
    merchandise_id      INTEGER REFERENCES merchandises(id) ON DELETE CASCADE,
    product_uri         TEXT NOT NULL,
    limit_start         INTEGER,
    limit_end           INTEGER,
    limit_concurrent    INTEGER,
    awaiting_activation INTEGER NOT NULL DEFAULT 0,
    entry               TEXT NOT NULL,
    created_at          INTEGER NOT NULL
);
CREATE INDEX products_asset ON products(asset_id, product_uri);
CREATE INDEX products_merchandise ON products(merchandise_id);

-- Who disabled or enabled which lock, and when; kept after the asset is deleted.
CREATE TABLE lock_events (
    id        INTEGER PRIMARY KEY,
    asset_num TEXT NOT NULL,
    locked    INTEGER NOT NULL,
    operator  TEXT NOT NULL,
    app_key   TEXT NOT NULL,
    at        INTEGER NOT NULL
);
