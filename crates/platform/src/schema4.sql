-- Version 4: quotas on asset numbers (issue 19). An application's own quotas (NULL: the
-- platform's default, `serve --quota-numbers-per-minute` / `--quota-numbers-per-day`), and what
-- each application has taken in its current minute and UTC day. The usage is counted in the
-- transaction that hands the numbers out, so it is exact under concurrency and survives
-- restarts.

ALTER TABLE apps ADD COLUMN quota_numbers_per_minute INTEGER;
ALTER TABLE apps ADD COLUMN quota_numbers_per_day INTEGER;

-- One row per application and window kind; a new window overwrites the row.
CREATE TABLE app_usage (
    app_key      TEXT NOT NULL,
    window_kind  TEXT NOT NULL,    -- 'numbers/minute' or 'numbers/day'
    window_start INTEGER NOT NULL, -- epoch ms, on a whole minute or a UTC midnight
    used         INTEGER NOT NULL,
    PRIMARY KEY (app_key, window_kind)
) WITHOUT ROWID;
