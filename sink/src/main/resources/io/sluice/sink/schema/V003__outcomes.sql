-- What happened to requests, per project, minute and outcome ('accepted' or the error code of the
-- refusal), as counted by each gateway. Rows are absolute counts per gateway; sum over gateways.
-- project is '' for requests that named no known project.
CREATE TABLE IF NOT EXISTS ${database}.outcomes_1m
(
    project LowCardinality(String),
    minute  DateTime('UTC'),
    outcome LowCardinality(String),
    gateway String,
    events  UInt64,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(minute)
ORDER BY (project, minute, outcome, gateway)
TTL minute + INTERVAL ${retention_days} DAY;
