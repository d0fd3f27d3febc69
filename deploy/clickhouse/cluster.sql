-- Sluice's schema for a ClickHouse cluster. The single-node schema is applied by the processor and
-- ./sluice schema apply; on a cluster apply this file once, from any one node, instead:
--   clickhouse-client --host <any node> --multiquery < deploy/clickhouse/cluster.sql
-- and run Sluice with SLUICE_CLICKHOUSE_DATABASE=sluice (the name used below).
--
-- Needs: ClickHouse Keeper (or ZooKeeper) for ON CLUSTER and the Replicated tables; the macros
-- {cluster}, {shard} and {replica} in every server's configuration; and in remote_servers
-- <internal_replication>true</internal_replication> for every shard, so a Distributed insert
-- writes one replica and replication copies it (not every replica, twice).
--
-- Once per cluster: every CREATE is ON CLUSTER '{cluster}', so one run creates it on every node
-- (IF NOT EXISTS: a second run changes nothing). The closing INSERT goes to schema_migrations,
-- which is replicated across ALL nodes (its Keeper path has no {shard}), so every processor, on
-- whichever node, sees the schema as applied and does not try the single-node files.
--
-- Tables: a Replicated*MergeTree "_local" table on every shard, and a Distributed table with the
-- public name, which the sink inserts into. Sharding keys put every version of a row on one
-- shard: history rows by (project, event_id), aggregates by their ORDER BY key (the request
-- aggregates' without its last column, release, added in V011: a sharding key cannot change, and a
-- row's every version still lands on the one shard of its key without its release). So the
-- ReplacingMergeTree on that shard collapses them and SELECT ... FINAL through the Distributed
-- table is exact. History rows need no version column (every copy of an event is the same row),
-- aggregates carry `version`, which grows with every update, so the newest count wins.
--
-- Acknowledged only when stored: the sink sets distributed_foreground_insert=1 on every request
-- (io.sluice.sink.ClickHouseClients), so an insert into a Distributed table returns only after
-- every shard has written its part; with the default (background) mode ClickHouse would answer
-- once the rows sit in the receiving node's local queue, and the sink would commit Kafka offsets
-- for rows a lost node still held. For more than one replica's copy before the answer, also set
-- insert_quorum in the sink user's profile.
--
-- Retention: each row expires retention_days after its time (a project's own, written by the sink;
-- else the column's default, 90, the default of SLUICE_CLICKHOUSE_RETENTION_DAYS: ClusterSchemaIT
-- checks they agree). For another default, replace it before applying, e.g. 30 days:
--   sed 's/UInt16 DEFAULT 90/UInt16 DEFAULT 30/' deploy/clickhouse/cluster.sql | clickhouse-client --multiquery
-- (on existing tables: ALTER TABLE sluice.<name>_local ON CLUSTER '{cluster}' MODIFY COLUMN retention_days UInt16 DEFAULT 30).
-- Upgrading a cluster created before V009: on every _local and Distributed table
--   ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT 90, and on every _local table
--   MODIFY TTL <its time> + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0,
-- as in V009__retention_per_project.sql; the deletions and project_retention tables below apply as they are.
--
-- Upgrading a cluster created before V004/V005/V007: the CREATEs of the new tables below apply as they
-- are; the history tables need their new columns on the local and the Distributed tables, e.g.
--   ALTER TABLE sluice.transactions_local ON CLUSTER '{cluster}' ADD COLUMN IF NOT EXISTS route String AFTER transaction, ...
-- as in sink/src/main/resources/io/sluice/sink/schema/V004__routes_in_history.sql; then fill the
-- new tables with a recompute (docs/operations.md, "Replay and recompute"). Before V006, the history's index for
-- the freshness panel:
--   ALTER TABLE sluice.transactions_local ON CLUSTER '{cluster}' ADD INDEX IF NOT EXISTS received_at_minmax received_at TYPE minmax GRANULARITY 1
-- Before V008, the estimates' columns, on the local and the Distributed tables alike (each DEFAULT
-- its count, so no backfill), as in sink/src/main/resources/io/sluice/sink/schema/V008__estimated_traffic.sql, e.g.
--   ALTER TABLE sluice.traffic_1m_local ON CLUSTER '{cluster}' ADD COLUMN IF NOT EXISTS estimated_requests Float64 DEFAULT requests, ...
-- Before V011, the release column, on the local and the Distributed tables alike, last in the
-- request aggregates' sorting key (local tables only), as in V011__release.sql, e.g.
--   ALTER TABLE sluice.requests_1m_local ON CLUSTER '{cluster}' ADD COLUMN IF NOT EXISTS release LowCardinality(String),
--       MODIFY ORDER BY (project, minute, environment, op, route, method, status_code, release)
--   ALTER TABLE sluice.requests_1m ON CLUSTER '{cluster}' ADD COLUMN IF NOT EXISTS release LowCardinality(String)
-- and on transactions and errors ADD COLUMN IF NOT EXISTS release LowCardinality(String) DEFAULT '' (both tables each).

CREATE DATABASE IF NOT EXISTS sluice ON CLUSTER '{cluster}';

CREATE TABLE IF NOT EXISTS sluice.transactions_local ON CLUSTER '{cluster}'
(
    event_id String, project LowCardinality(String), timestamp DateTime64(3, 'UTC'), received_at DateTime64(3, 'UTC'),
    time_adjusted Bool, environment LowCardinality(String), transaction String, route String, op LowCardinality(String),
    method LowCardinality(String), url String, path String, status_code Nullable(UInt16), duration_ms Nullable(Float64),
    user_id String,
    sdk_name LowCardinality(String), sdk_version LowCardinality(String), runtime_name LowCardinality(String),
    runtime_version LowCardinality(String), os_name LowCardinality(String), os_version LowCardinality(String),
    kafka_partition UInt32, kafka_offset UInt64, sample_rate Float64 DEFAULT 1,
    retention_days UInt16 DEFAULT 90, release LowCardinality(String) DEFAULT '',
    INDEX received_at_minmax received_at TYPE minmax GRANULARITY 1
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/transactions', '{replica}')
PARTITION BY toYYYYMMDD(timestamp)
ORDER BY (project, timestamp, event_id)
TTL toDateTime(timestamp) + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.transactions ON CLUSTER '{cluster}' AS sluice.transactions_local
ENGINE = Distributed('{cluster}', sluice, transactions_local, cityHash64(project, event_id));

CREATE TABLE IF NOT EXISTS sluice.traffic_1m_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), minute DateTime('UTC'),
    requests UInt64, status_1xx UInt64, status_2xx UInt64, status_3xx UInt64, status_4xx UInt64, status_5xx UInt64,
    status_none UInt64, version UInt64,
    estimated_requests Float64 DEFAULT requests, estimated_status_1xx Float64 DEFAULT status_1xx,
    estimated_status_2xx Float64 DEFAULT status_2xx, estimated_status_3xx Float64 DEFAULT status_3xx,
    estimated_status_4xx Float64 DEFAULT status_4xx, estimated_status_5xx Float64 DEFAULT status_5xx,
    estimated_status_none Float64 DEFAULT status_none,
    retention_days UInt16 DEFAULT 90
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/traffic_1m', '{replica}', version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, environment, minute)
TTL minute + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.traffic_1m ON CLUSTER '{cluster}' AS sluice.traffic_1m_local
ENGINE = Distributed('{cluster}', sluice, traffic_1m_local, cityHash64(project, environment, minute));

CREATE TABLE IF NOT EXISTS sluice.traffic_1h_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), hour DateTime('UTC'),
    requests UInt64, status_1xx UInt64, status_2xx UInt64, status_3xx UInt64, status_4xx UInt64, status_5xx UInt64,
    status_none UInt64, version UInt64,
    estimated_requests Float64 DEFAULT requests, estimated_status_1xx Float64 DEFAULT status_1xx,
    estimated_status_2xx Float64 DEFAULT status_2xx, estimated_status_3xx Float64 DEFAULT status_3xx,
    estimated_status_4xx Float64 DEFAULT status_4xx, estimated_status_5xx Float64 DEFAULT status_5xx,
    estimated_status_none Float64 DEFAULT status_none,
    retention_days UInt16 DEFAULT 90
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/traffic_1h', '{replica}', version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment)
TTL hour + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.traffic_1h ON CLUSTER '{cluster}' AS sluice.traffic_1h_local
ENGINE = Distributed('{cluster}', sluice, traffic_1h_local, cityHash64(project, hour, environment));

CREATE TABLE IF NOT EXISTS sluice.errors_local ON CLUSTER '{cluster}'
(
    event_id String, project LowCardinality(String), timestamp DateTime64(3, 'UTC'), received_at DateTime64(3, 'UTC'),
    time_adjusted Bool, environment LowCardinality(String), level LowCardinality(String), exception_type String,
    exception_value String, top_frame String, request_url String, request_method LowCardinality(String), route String,
    user_id String,
    sdk_name LowCardinality(String), sdk_version LowCardinality(String), runtime_name LowCardinality(String),
    runtime_version LowCardinality(String), os_name LowCardinality(String), os_version LowCardinality(String),
    kafka_partition UInt32, kafka_offset UInt64, payload String CODEC(ZSTD(3)),
    retention_days UInt16 DEFAULT 90, release LowCardinality(String) DEFAULT ''
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/errors', '{replica}')
PARTITION BY toYYYYMMDD(timestamp)
ORDER BY (project, timestamp, event_id)
TTL toDateTime(timestamp) + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.errors ON CLUSTER '{cluster}' AS sluice.errors_local
ENGINE = Distributed('{cluster}', sluice, errors_local, cityHash64(project, event_id));

CREATE TABLE IF NOT EXISTS sluice.errors_1m_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), minute DateTime('UTC'),
    exception_type String, errors UInt64, version UInt64,
    retention_days UInt16 DEFAULT 90
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/errors_1m', '{replica}', version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, environment, minute, exception_type)
TTL minute + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.errors_1m ON CLUSTER '{cluster}' AS sluice.errors_1m_local
ENGINE = Distributed('{cluster}', sluice, errors_1m_local, cityHash64(project, environment, minute, exception_type));

CREATE TABLE IF NOT EXISTS sluice.outcomes_1m_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), minute DateTime('UTC'), outcome LowCardinality(String), gateway String,
    events UInt64, version UInt64,
    retention_days UInt16 DEFAULT 90
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/outcomes_1m', '{replica}', version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, minute, outcome, gateway)
TTL minute + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.outcomes_1m ON CLUSTER '{cluster}' AS sluice.outcomes_1m_local
ENGINE = Distributed('{cluster}', sluice, outcomes_1m_local, cityHash64(project, minute, outcome, gateway));

CREATE TABLE IF NOT EXISTS sluice.requests_1m_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), minute DateTime('UTC'), op LowCardinality(String),
    route String, method LowCardinality(String), status_code UInt16, requests UInt64, timed UInt64, duration_sum_ms Float64,
    duration_buckets Array(UInt64), version UInt64, estimated_requests Float64 DEFAULT requests,
    retention_days UInt16 DEFAULT 90, release LowCardinality(String)
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/requests_1m', '{replica}', version)
PARTITION BY toYYYYMMDD(minute)
ORDER BY (project, minute, environment, op, route, method, status_code, release)
TTL minute + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.requests_1m ON CLUSTER '{cluster}' AS sluice.requests_1m_local
ENGINE = Distributed('{cluster}', sluice, requests_1m_local, cityHash64(project, minute, environment, op, route, method, status_code));

CREATE TABLE IF NOT EXISTS sluice.requests_1h_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), hour DateTime('UTC'), op LowCardinality(String),
    route String, method LowCardinality(String), status_code UInt16, requests UInt64, timed UInt64, duration_sum_ms Float64,
    duration_buckets Array(UInt64), version UInt64, estimated_requests Float64 DEFAULT requests,
    retention_days UInt16 DEFAULT 90, release LowCardinality(String)
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/requests_1h', '{replica}', version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment, op, route, method, status_code, release)
TTL hour + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.requests_1h ON CLUSTER '{cluster}' AS sluice.requests_1h_local
ENGINE = Distributed('{cluster}', sluice, requests_1h_local, cityHash64(project, hour, environment, op, route, method, status_code));

CREATE TABLE IF NOT EXISTS sluice.errors_1h_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), hour DateTime('UTC'), route String,
    exception_type String, errors UInt64, version UInt64,
    retention_days UInt16 DEFAULT 90
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/errors_1h', '{replica}', version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment, route, exception_type)
TTL hour + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.errors_1h ON CLUSTER '{cluster}' AS sluice.errors_1h_local
ENGINE = Distributed('{cluster}', sluice, errors_1h_local, cityHash64(project, hour, environment, route, exception_type));

CREATE TABLE IF NOT EXISTS sluice.sessions_1h_local ON CLUSTER '{cluster}'
(
    project LowCardinality(String), environment LowCardinality(String), release String, hour DateTime('UTC'),
    started UInt64, errored UInt64, crashed UInt64, abnormal UInt64, exited UInt64, version UInt64,
    retention_days UInt16 DEFAULT 90
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/sluice/sessions_1h', '{replica}', version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment, release)
TTL hour + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS sluice.sessions_1h ON CLUSTER '{cluster}' AS sluice.sessions_1h_local
ENGINE = Distributed('{cluster}', sluice, sessions_1h_local, cityHash64(project, hour, environment, release));

-- What must not be stored again (deleted projects and users) and each project's own retention: small,
-- read by every sink, so replicated whole to every node (one Keeper path, no {shard}), not sharded.
CREATE TABLE IF NOT EXISTS sluice.deletions ON CLUSTER '{cluster}'
(project String, user_id String, deleted_at DateTime64(3, 'UTC'), deleted_by String)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sluice/deletions', '{replica}', deleted_at)
ORDER BY (project, user_id);

CREATE TABLE IF NOT EXISTS sluice.project_retention ON CLUSTER '{cluster}'
(project String, retention_days UInt16, changed_at DateTime64(3, 'UTC'), changed_by String)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sluice/project_retention', '{replica}', changed_at)
ORDER BY (project, changed_at);

-- Recorded as applied, so a processor started against the cluster does not try the single-node
-- files (it checks sluice.schema_migrations first). One Keeper path for all shards: the INSERT
-- below, run on one node, reaches every node.
CREATE TABLE IF NOT EXISTS sluice.schema_migrations ON CLUSTER '{cluster}'
(version UInt32, name String, applied_at DateTime('UTC') DEFAULT now())
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sluice/schema_migrations', '{replica}')
ORDER BY version;

INSERT INTO sluice.schema_migrations (version, name) VALUES
    (1, 'V001__transactions_and_traffic.sql'), (2, 'V002__errors.sql'), (3, 'V003__outcomes.sql'),
    (4, 'V004__routes_in_history.sql'), (5, 'V005__requests_by_route.sql'), (6, 'V006__received_at_index.sql'),
    (7, 'V007__traffic_by_hour.sql'), (8, 'V008__estimated_traffic.sql'), (9, 'V009__retention_per_project.sql'),
    (10, 'V010__sessions.sql'),
    (11, 'V011__release.sql');
