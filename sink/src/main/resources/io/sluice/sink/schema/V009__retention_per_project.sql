-- What must not be stored again: one user's rows of a project (user_id set), or a whole project
-- (user_id ''). The sink, replay (and so recompute and dead-letter replay, which end in the sink)
-- read it and drop such rows, so what Kafka still holds never brings them back. Written before the
-- rows are removed; kept with no TTL, as long as Kafka may hold a copy. Who and when: the audit.
CREATE TABLE IF NOT EXISTS ${database}.deletions
(
    project    String,
    user_id    String,
    deleted_at DateTime64(3, 'UTC'),
    deleted_by String
)
ENGINE = ReplacingMergeTree(deleted_at)
ORDER BY (project, user_id);

-- Projects that keep their rows for fewer days than SLUICE_CLICKHOUSE_RETENTION_DAYS (the most any
-- project keeps), each change with who made it and when; the latest per project is in force. The
-- sink and replay read it and write each row of such a project with its retention_days.
CREATE TABLE IF NOT EXISTS ${database}.project_retention
(
    project        String,
    retention_days UInt16,
    changed_at     DateTime64(3, 'UTC'),
    changed_by     String
)
ENGINE = ReplacingMergeTree(changed_at)
ORDER BY (project, changed_at);

-- Every table keeps each row for its project's days: a column per row (the sink writes it for a
-- project with its own retention; every other row takes the default) and a TTL on it, so ClickHouse
-- expires rows in its merges as before, with no scan per project. Rows already stored take the
-- default, the TTL they had: the TTL is not recomputed for them (materialize_ttl_after_modify = 0).
ALTER TABLE ${database}.transactions
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.transactions
    MODIFY TTL toDateTime(timestamp) + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.errors
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.errors
    MODIFY TTL toDateTime(timestamp) + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.traffic_1m
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.traffic_1m
    MODIFY TTL minute + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.errors_1m
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.errors_1m
    MODIFY TTL minute + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.outcomes_1m
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.outcomes_1m
    MODIFY TTL minute + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.requests_1m
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.requests_1m
    MODIFY TTL minute + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.requests_1h
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.requests_1h
    MODIFY TTL hour + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.errors_1h
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.errors_1h
    MODIFY TTL hour + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
ALTER TABLE ${database}.traffic_1h
    ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT ${retention_days};
ALTER TABLE ${database}.traffic_1h
    MODIFY TTL hour + toIntervalDay(retention_days) SETTINGS materialize_ttl_after_modify = 0;
