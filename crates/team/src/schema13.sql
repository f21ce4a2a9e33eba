-- Version 13 (issue 55): where a person is mailed when a request waits for them (`team serve
-- --mail-server`); none: not mailed.
ALTER TABLE people ADD COLUMN email TEXT;
