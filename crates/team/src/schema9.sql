-- Version 9 (issue 52): each audit entry's MAC under the record's key (kept off the database),
-- so that a chain recomputed by someone with the store but not the key does not verify.
-- Entries written before this version, or without a key, have none.
ALTER TABLE audit ADD COLUMN mac TEXT;
