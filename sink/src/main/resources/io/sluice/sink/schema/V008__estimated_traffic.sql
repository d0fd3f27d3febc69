-- Traffic as it happened where clients sample: each stored transaction stands for 1 / its sample
-- rate. The exact counts stay as they are (rows stored); each estimate stands beside its count.
-- Columns, not one map: a panel reads the one or two it shows (a Map column is read whole), and an
-- estimate equal to its count compresses to little. A row written before reads its count as its
-- estimate (DEFAULT), so no backfill is needed.
ALTER TABLE ${database}.traffic_1m
    ADD COLUMN IF NOT EXISTS estimated_requests    Float64 DEFAULT requests,
    ADD COLUMN IF NOT EXISTS estimated_status_1xx  Float64 DEFAULT status_1xx,
    ADD COLUMN IF NOT EXISTS estimated_status_2xx  Float64 DEFAULT status_2xx,
    ADD COLUMN IF NOT EXISTS estimated_status_3xx  Float64 DEFAULT status_3xx,
    ADD COLUMN IF NOT EXISTS estimated_status_4xx  Float64 DEFAULT status_4xx,
    ADD COLUMN IF NOT EXISTS estimated_status_5xx  Float64 DEFAULT status_5xx,
    ADD COLUMN IF NOT EXISTS estimated_status_none Float64 DEFAULT status_none;

ALTER TABLE ${database}.traffic_1h
    ADD COLUMN IF NOT EXISTS estimated_requests    Float64 DEFAULT requests,
    ADD COLUMN IF NOT EXISTS estimated_status_1xx  Float64 DEFAULT status_1xx,
    ADD COLUMN IF NOT EXISTS estimated_status_2xx  Float64 DEFAULT status_2xx,
    ADD COLUMN IF NOT EXISTS estimated_status_3xx  Float64 DEFAULT status_3xx,
    ADD COLUMN IF NOT EXISTS estimated_status_4xx  Float64 DEFAULT status_4xx,
    ADD COLUMN IF NOT EXISTS estimated_status_5xx  Float64 DEFAULT status_5xx,
    ADD COLUMN IF NOT EXISTS estimated_status_none Float64 DEFAULT status_none;

-- Per route, method and status code: the code is part of the key, so one estimate per row.
ALTER TABLE ${database}.requests_1m
    ADD COLUMN IF NOT EXISTS estimated_requests Float64 DEFAULT requests;

ALTER TABLE ${database}.requests_1h
    ADD COLUMN IF NOT EXISTS estimated_requests Float64 DEFAULT requests;

-- Each stored transaction's rate (1: not sampled), to weigh history rows the same way.
ALTER TABLE ${database}.transactions
    ADD COLUMN IF NOT EXISTS sample_rate Float64 DEFAULT 1;
