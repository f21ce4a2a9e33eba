-- Version 11 (issue 53): the instance that approved a request and so sends it. Only that
-- instance may claim the request's sending, and only while it is approved and still its own;
-- an instance that stopped leaves its requests to the others to settle.
ALTER TABLE requests ADD COLUMN sender TEXT;
-- A write's entries (begun, then its outcome) found by their call id: a listing shows a begun
-- call whose outcome never came by what the ledger says of it.
CREATE INDEX audit_by_call ON audit(call_id);
