-- Release health: Sentry sessions per project, environment, release and the hour they started,
-- absolute counts written like traffic_1h's (the newest version wins, a replayed row changes
-- nothing). started: sessions begun; errored: those with at least one error, crashed and abnormal
-- ones included; crashed, abnormal: by their final status; exited: ended normally without an error.
CREATE TABLE IF NOT EXISTS ${database}.sessions_1h
(
    project        LowCardinality(String),
    environment    LowCardinality(String),
    release        String,
    hour           DateTime('UTC'),
    started        UInt64,
    errored        UInt64,
    crashed        UInt64,
    abnormal       UInt64,
    exited         UInt64,
    version        UInt64,
    retention_days UInt16 DEFAULT ${retention_days}
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(hour)
ORDER BY (project, hour, environment, release)
TTL hour + toIntervalDay(retention_days);
