-- Request history: one row per accepted transaction. ReplacingMergeTree on the sort key, which
-- ends in event_id, so a row delivered twice (sink retry, replay) is one row after merges and in
-- SELECT ... FINAL.
CREATE TABLE IF NOT EXISTS ${database}.transactions
(
    event_id        String,
    project         LowCardinality(String),
    timestamp       DateTime64(3, 'UTC'),
    received_at     DateTime64(3, 'UTC'),
    time_adjusted   Bool,
    environment     LowCardinality(String),
    transaction     String,
    method          LowCardinality(String),
    url             String,
    path            String,
    status_code     Nullable(UInt16),
    user_id         String,
    sdk_name        LowCardinality(String),
    sdk_version     LowCardinality(String),
    runtime_name    LowCardinality(String),
    runtime_version LowCardinality(String),
    os_name         LowCardinality(String),
    os_version      LowCardinality(String),
    kafka_partition UInt32,
    kafka_offset    UInt64
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMMDD(timestamp)
ORDER BY (project, timestamp, event_id)
TTL toDateTime(timestamp) + INTERVAL ${retention_days} DAY;

-- Traffic per project, environment and event-time minute. Rows hold absolute counts; version
-- grows with every update, so the newest row wins and a replayed row changes nothing.
CREATE TABLE IF NOT EXISTS ${database}.traffic_1m
(
    project     LowCardinality(String),
    environment LowCardinality(String),
    minute      DateTime('UTC'),
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
PARTITION BY toYYYYMM(minute)
ORDER BY (project, environment, minute)
TTL minute + INTERVAL ${retention_days} DAY;
