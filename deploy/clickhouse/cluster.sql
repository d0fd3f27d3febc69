-- Sluice's schema for a ClickHouse cluster (the single-node schema is applied by the processor
-- and ./sluice schema apply; on a cluster apply this file once instead, e.g.
--   clickhouse-client --multiquery < deploy/clickhouse/cluster.sql
-- and set SLUICE_CLICKHOUSE_DATABASE=sluice). Uses the {cluster}, {shard} and {replica} macros of
-- the server configuration. Each table is a Replicated*MergeTree "_local" table on every shard
-- plus a Distributed table with the public name. The sharding keys put every version of a row on
-- one shard, so SELECT ... FINAL stays exact. TTL: 90 days; change it here before applying.

CREATE DATABASE IF NOT EXISTS sluice ON CLUSTER '{cluster}';

CREATE TABLE IF NOT EXISTS sluice.transactions_local ON CLUSTER '{cluster}'
(
    event_id String, project LowCardinality(String), timestamp DateTime64(3, 'UTC'), received_at DateTime64(3, 'UTC'),
    time_adjusted Bool, environment LowCardinality(String), transaction String, method LowCardinality(String),
    url String, path String, status_code Nullable(UInt16), user_id String,
    sdk_name LowCardinality(String), sdk_version LowCardinality(String), runtime_name LowCardinality(String),
    runtime_version LowCardinality(String), os_name LowCardinality(String), os_version LowCardinality(String),
    kafka_partition UInt32, kafka_offset UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/transactions', '{replica}')
PARTITION BY toYYYYMMDD(timestamp)
ORDER BY (project, timestamp, event_id)
TTL toDateTime(timestamp) + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS sluice.transactions ON CLUSTER '{cluster}' AS sluice.transactions_local
ENGINE = Distributed('{cluster}', sluice, transactions_local, cityHash64(project, event_id));

CREATE TABLE IF NOT EXISTS sluice.traffic_1m_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), minute DateTime('UTC'),
    requests UInt64, status_1xx UInt64, status_2xx UInt64, status_3xx UInt64, status_4xx UInt64, status_5xx UInt64,
    status_none UInt64, version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/traffic_1m', '{replica}', version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, environment, minute)
TTL minute + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS sluice.traffic_1m ON CLUSTER '{cluster}' AS sluice.traffic_1m_local
ENGINE = Distributed('{cluster}', sluice, traffic_1m_local, cityHash64(project, environment, minute));

CREATE TABLE IF NOT EXISTS sluice.errors_local ON CLUSTER '{cluster}'
(
    event_id String, project LowCardinality(String), timestamp DateTime64(3, 'UTC'), received_at DateTime64(3, 'UTC'),
    time_adjusted Bool, environment LowCardinality(String), level LowCardinality(String), exception_type String,
    exception_value String, top_frame String, request_url String, request_method LowCardinality(String), user_id String,
    sdk_name LowCardinality(String), sdk_version LowCardinality(String), runtime_name LowCardinality(String),
    runtime_version LowCardinality(String), os_name LowCardinality(String), os_version LowCardinality(String),
    kafka_partition UInt32, kafka_offset UInt64, payload String CODEC(ZSTD(3))
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/errors', '{replica}')
PARTITION BY toYYYYMMDD(timestamp)
ORDER BY (project, timestamp, event_id)
TTL toDateTime(timestamp) + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS sluice.errors ON CLUSTER '{cluster}' AS sluice.errors_local
ENGINE = Distributed('{cluster}', sluice, errors_local, cityHash64(project, event_id));

CREATE TABLE IF NOT EXISTS sluice.errors_1m_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), minute DateTime('UTC'),
    exception_type String, errors UInt64, version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/errors_1m', '{replica}', version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, environment, minute, exception_type)
TTL minute + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS sluice.errors_1m ON CLUSTER '{cluster}' AS sluice.errors_1m_local
ENGINE = Distributed('{cluster}', sluice, errors_1m_local, cityHash64(project, environment, minute, exception_type));

CREATE TABLE IF NOT EXISTS sluice.outcomes_1m_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), minute DateTime('UTC'), outcome LowCardinality(String), gateway String,
    events UInt64, version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/outcomes_1m', '{replica}', version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, minute, outcome, gateway)
TTL minute + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS sluice.outcomes_1m ON CLUSTER '{cluster}' AS sluice.outcomes_1m_local
ENGINE = Distributed('{cluster}', sluice, outcomes_1m_local, cityHash64(project, minute, outcome, gateway));

-- Recorded as applied, so a processor started against the cluster does not try the single-node
-- files (it checks sluice.schema_migrations first).
CREATE TABLE IF NOT EXISTS sluice.schema_migrations ON CLUSTER '{cluster}'
(version UInt32, name String, applied_at DateTime('UTC') DEFAULT now())
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/schema_migrations', '{replica}')
ORDER BY version;

INSERT INTO sluice.schema_migrations (version, name) VALUES
    (1, 'V001__transactions_and_traffic.sql'), (2, 'V002__errors.sql'), (3, 'V003__outcomes.sql');
