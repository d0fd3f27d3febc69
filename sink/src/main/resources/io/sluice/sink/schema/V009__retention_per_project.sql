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
