-- Version 12 (issue 55): one batch, one request. A held batch's channel code and order id, so
-- that sending the same batch again answers the request already waiting instead of filing
-- another, and the same order id with another body is refused with that request named.
ALTER TABLE requests ADD COLUMN channel_code TEXT;
ALTER TABLE requests ADD COLUMN channel_order_id TEXT;
CREATE INDEX requests_by_channel_order ON requests(requester, channel_order_id);
