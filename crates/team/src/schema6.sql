-- Version 6 (issue 37): what the team knows beside the platform, one truth for every console:
-- the catalog's products and packages and the directory's customers. Each change takes the
-- next seq, so that a console reads only what changed since it last read; a removed item
-- keeps its row with a NULL value, so that the removal is read too.
CREATE TABLE knowledge (
    shelf TEXT NOT NULL,
    item_key TEXT NOT NULL,
    value TEXT,
    seq BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,
    changed_by TEXT NOT NULL,
    PRIMARY KEY (shelf, item_key)
);
CREATE INDEX knowledge_by_seq ON knowledge(seq);
