-- The release (version) of the application that sent each event, '' when it named none: kept with
-- every event, and a grouping key of the request aggregates, so "did the new release fail more?" has
-- an answer. Rows stored before read as release ''. The processor bounds the releases a project
-- brings per day in the aggregates as it bounds environments (beyond: '<other>').
ALTER TABLE ${database}.transactions
    ADD COLUMN IF NOT EXISTS release LowCardinality(String) DEFAULT '';
ALTER TABLE ${database}.errors
    ADD COLUMN IF NOT EXISTS release LowCardinality(String) DEFAULT '';

-- A key column: last in the sorting key, which ClickHouse extends only with a column added in the
-- same statement and without a default expression (a String's own default is ''); the existing rows
-- (release '') keep their order, so nothing is rewritten.
ALTER TABLE ${database}.requests_1m
    ADD COLUMN IF NOT EXISTS release LowCardinality(String),
    MODIFY ORDER BY (project, minute, environment, op, route, method, status_code, release);
ALTER TABLE ${database}.requests_1h
    ADD COLUMN IF NOT EXISTS release LowCardinality(String),
    MODIFY ORDER BY (project, hour, environment, op, route, method, status_code, release);
