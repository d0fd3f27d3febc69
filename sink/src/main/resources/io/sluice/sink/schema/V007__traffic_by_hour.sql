-- traffic_1m per event-time hour, written the same way (absolute counts of the hour, not a sum of
-- minute rows; version grows with every update, so the newest row wins and a replayed row changes
-- nothing), for panels over days and weeks: one row per project, environment and hour, where
-- requests_1h has one per route, method and status code. A recompute fills it for the past.
CREATE TABLE IF NOT EXISTS ${database}.traffic_1h
(
    project     LowCardinality(String),
    environment LowCardinality(String),
    hour        DateTime('UTC'),
    requests    UInt64,
    status_1xx  UInt64,
    status_2xx  UInt64,
    status_3xx  UInt64,
    status_4xx  UInt64,
    status_5xx  UInt64,
    status_none UInt64,
    version     UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment)
TTL hour + INTERVAL ${retention_days} DAY;
