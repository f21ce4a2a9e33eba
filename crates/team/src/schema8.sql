-- Version 8 (issue 52): a directory person is known by the directory's stable id (entryUUID,
-- objectGUID), bound at their first sign-in, so that every spelling the directory accepts for
-- one account is one person. Sign-in limits are kept in memory per (name, address) pair since
-- this version: people.failed_sign_ins and people.locked_until are no longer used.
ALTER TABLE people ADD COLUMN directory_id TEXT;
CREATE UNIQUE INDEX people_by_directory_id ON people(directory_id);
