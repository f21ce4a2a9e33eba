-- The team server's tables, version 1, on SQLite and PostgreSQL alike (store.rs).
-- Times are milliseconds since the Unix epoch, UTC.

-- Roles a company adds beside the four built in (viewer, staff, approver, admin).
CREATE TABLE roles (
    name TEXT PRIMARY KEY,
    -- Permission names, comma-separated, in the order of `Permission::ALL`.
    permissions TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- The people who sign in. `name` is the sign-in name, lower-cased: names are compared without
-- case, as LDAP and Active Directory compare them.
CREATE TABLE people (
    name TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    role TEXT NOT NULL,
    branch_code TEXT,
    branch_name TEXT,
    -- 'local' (a password here) or 'ldap' (checked by the directory; no password here).
    source TEXT NOT NULL,
    -- Argon2id, as a PHC string ($argon2id$v=19$m=…); NULL for an LDAP person.
    password_hash TEXT,
    -- NULL while the person may sign in.
    disabled_at BIGINT,
    -- Sessions begun before this time are over (sign-out everywhere, disable, new password,
    -- new role).
    sessions_revoked_at BIGINT NOT NULL,
    -- Failed sign-ins in a row, and until when the name is locked after too many.
    failed_sign_ins BIGINT NOT NULL DEFAULT 0,
    locked_until BIGINT,
    created_at BIGINT NOT NULL,
    changed_at BIGINT NOT NULL
);
