-- Error reports: one row per accepted report (retries with the same event_id are one row in
-- FINAL), with the full payload as sent, compressed.
CREATE TABLE IF NOT EXISTS ${database}.errors
(
    event_id        String,
    project         LowCardinality(String),
    timestamp       DateTime64(3, 'UTC'),
    received_at     DateTime64(3, 'UTC'),
    time_adjusted   Bool,
    environment     LowCardinality(String),
    level           LowCardinality(String),
    exception_type  String,
    exception_value String,
    top_frame       String,
    request_url     String,
    request_method  LowCardinality(String),
    user_id         String,
    sdk_name        LowCardinality(String),
    sdk_version     LowCardinality(String),
    runtime_name    LowCardinality(String),
    runtime_version LowCardinality(String),
    os_name         LowCardinality(String),
    os_version      LowCardinality(String),
    kafka_partition UInt32,
    kafka_offset    UInt64,
    payload         String CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMMDD(timestamp)
ORDER BY (project, timestamp, event_id)
TTL toDateTime(timestamp) + INTERVAL ${retention_days} DAY;

-- Errors per project, environment, event-time minute and exception type: absolute counts.
CREATE TABLE IF NOT EXISTS ${database}.errors_1m
(
    project        LowCardinality(String),
    environment    LowCardinality(String),
    minute         DateTime('UTC'),
    exception_type String,
    errors         UInt64,
    version        UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, environment, minute, exception_type)
TTL minute + INTERVAL ${retention_days} DAY;
