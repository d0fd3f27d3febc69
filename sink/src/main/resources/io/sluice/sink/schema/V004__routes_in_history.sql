-- The request history gains what the per-route aggregates count by: the route (the transaction's
-- name with the variable parts of its path replaced), the kind of transaction (Sentry's
-- contexts.trace.op: http.server, pageload, ...) and how long it took, where the event says.
ALTER TABLE ${database}.transactions
    ADD COLUMN IF NOT EXISTS route       String AFTER transaction,
    ADD COLUMN IF NOT EXISTS op          LowCardinality(String) AFTER route,
    ADD COLUMN IF NOT EXISTS duration_ms Nullable(Float64) AFTER status_code;

-- Error reports gain the route of the request they were raised in (from the request's method and
-- URL, else the transaction name), normalized the same way.
ALTER TABLE ${database}.errors
    ADD COLUMN IF NOT EXISTS route String AFTER request_method;
