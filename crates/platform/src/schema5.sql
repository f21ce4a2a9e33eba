-- Version 5: revocation (issue 33). An application revoked (`app revoke`) gets no token and
-- its tokens are refused; `app rotate` and `app tokens revoke` end the tokens issued until
-- then (tokens issued at or before `tokens_revoked_at` are refused). Epoch milliseconds.

ALTER TABLE apps ADD COLUMN revoked_at INTEGER;
ALTER TABLE apps ADD COLUMN tokens_revoked_at INTEGER;
