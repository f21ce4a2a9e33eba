-- Version 5 on PostgreSQL: revocation, as SQLite's schema5.sql.

ALTER TABLE apps ADD COLUMN revoked_at bigint, ADD COLUMN tokens_revoked_at bigint;
