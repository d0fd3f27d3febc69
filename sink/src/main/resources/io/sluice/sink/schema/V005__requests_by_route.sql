-- Requests per project, environment, event-time minute, kind (op), route, method and status code,
-- with their durations: absolute counts, like traffic_1m (version grows with every update, so the
-- newest row wins and a replayed row changes nothing). status_code 0: the event had none.
-- duration_buckets: counts per bucket of io.sluice.events.DurationBuckets (40 buckets, the last
-- open-ended); timed = the requests that had a duration (sum of the buckets).
CREATE TABLE IF NOT EXISTS ${database}.requests_1m
(
    project          LowCardinality(String),
    environment      LowCardinality(String),
    minute           DateTime('UTC'),
    op               LowCardinality(String),
    route            String,
    method           LowCardinality(String),
    status_code      UInt16,
    requests         UInt64,
    timed            UInt64,
    duration_sum_ms  Float64,
    duration_buckets Array(UInt64),
    version          UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMMDD(minute)
ORDER BY (project, minute, environment, op, route, method, status_code)
TTL minute + INTERVAL ${retention_days} DAY;

-- The same per event-time hour, written the same way (absolute counts of the hour, not a sum of
-- minute rows), for panels over days and weeks: at most one row per series per hour.
CREATE TABLE IF NOT EXISTS ${database}.requests_1h
(
    project          LowCardinality(String),
    environment      LowCardinality(String),
    hour             DateTime('UTC'),
    op               LowCardinality(String),
    route            String,
    method           LowCardinality(String),
    status_code      UInt16,
    requests         UInt64,
    timed            UInt64,
    duration_sum_ms  Float64,
    duration_buckets Array(UInt64),
    version          UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment, op, route, method, status_code)
TTL hour + INTERVAL ${retention_days} DAY;

-- Errors per project, environment, event-time hour, route and exception type, the same way.
CREATE TABLE IF NOT EXISTS ${database}.errors_1h
(
    project        LowCardinality(String),
    environment    LowCardinality(String),
    hour           DateTime('UTC'),
    route          String,
    exception_type String,
    errors         UInt64,
    version        UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment, route, exception_type)
TTL hour + INTERVAL ${retention_days} DAY;
