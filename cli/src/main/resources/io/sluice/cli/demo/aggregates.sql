-- The aggregates of the demo history, computed from it as the processor counts them, so each equals
-- what the rows it summarises hold: requests_1m from transactions, requests_1h and traffic_1m from
-- requests_1m, traffic_1h from traffic_1m, errors_1m and errors_1h from errors, the accepted outcomes from both.
-- A duration falls in the first bucket of io.sluice.events.DurationBuckets whose bound it does not
-- exceed (the last bound is infinite); -1: no duration.
INSERT INTO ${database}.requests_1m (project, environment, minute, op, route, method, status_code, requests, timed, duration_sum_ms, duration_buckets, version)
WITH arrayPushBack(arrayMap(i -> pow(2, (i - 2) / 2), range(39)), inf) AS bounds
SELECT project, environment, minute, op, route, method, status_code,
       sum(n), sumIf(n, bucket >= 0), sum(ms), sumForEach(arrayMap(i -> if(i = bucket, n, 0), range(40))), 1
FROM
(
    SELECT project, environment, toStartOfMinute(timestamp) AS minute, op, route, method, ifNull(status_code, 0) AS status_code,
           if(duration_ms IS NULL, -1, arrayFirstIndex(b -> assumeNotNull(duration_ms) <= b, bounds) - 1) AS bucket,
           count() AS n, sum(ifNull(duration_ms, 0)) AS ms
    FROM ${database}.transactions
    WHERE startsWith(project, 'demo-') AND toDate(timestamp) = {day:Date}
    GROUP BY project, environment, minute, op, route, method, status_code, bucket
)
GROUP BY project, environment, minute, op, route, method, status_code
SETTINGS max_insert_threads = 2;

INSERT INTO ${database}.requests_1h (project, environment, hour, op, route, method, status_code, requests, timed, duration_sum_ms, duration_buckets, version)
SELECT project, environment, toStartOfHour(minute) AS hour, op, route, method, status_code,
       sum(requests), sum(timed), sum(duration_sum_ms), sumForEach(duration_buckets), 1
FROM ${database}.requests_1m
WHERE startsWith(project, 'demo-') AND toDate(minute) = {day:Date}
GROUP BY project, environment, hour, op, route, method, status_code;

-- traffic_1m counts handled HTTP requests (op http.server), not page loads or navigations.
INSERT INTO ${database}.traffic_1m (project, environment, minute, requests, status_1xx, status_2xx, status_3xx, status_4xx, status_5xx, status_none, version)
SELECT project, environment, minute, sum(requests),
       sumIf(requests, intDiv(status_code, 100) = 1), sumIf(requests, intDiv(status_code, 100) = 2),
       sumIf(requests, intDiv(status_code, 100) = 3), sumIf(requests, intDiv(status_code, 100) = 4),
       sumIf(requests, intDiv(status_code, 100) = 5), sumIf(requests, status_code = 0), 1
FROM ${database}.requests_1m
WHERE startsWith(project, 'demo-') AND toDate(minute) = {day:Date} AND op = 'http.server'
GROUP BY project, environment, minute;

INSERT INTO ${database}.traffic_1h (project, environment, hour, requests, status_1xx, status_2xx, status_3xx, status_4xx, status_5xx, status_none, version)
SELECT project, environment, toStartOfHour(minute) AS hour, sum(requests),
       sum(status_1xx), sum(status_2xx), sum(status_3xx), sum(status_4xx), sum(status_5xx), sum(status_none), 1
FROM ${database}.traffic_1m
WHERE startsWith(project, 'demo-') AND toDate(minute) = {day:Date}
GROUP BY project, environment, hour;

INSERT INTO ${database}.errors_1m (project, environment, minute, exception_type, errors, version)
SELECT project, environment, toStartOfMinute(timestamp) AS minute, exception_type, count(), 1
FROM ${database}.errors
WHERE startsWith(project, 'demo-') AND toDate(timestamp) = {day:Date}
GROUP BY project, environment, minute, exception_type;

INSERT INTO ${database}.errors_1h (project, environment, hour, route, exception_type, errors, version)
SELECT project, environment, toStartOfHour(timestamp) AS hour, route, exception_type, count(), 1
FROM ${database}.errors
WHERE startsWith(project, 'demo-') AND toDate(timestamp) = {day:Date}
GROUP BY project, environment, hour, route, exception_type;

-- Every stored event was accepted by the gateway; in about one minute of five the huge tenant is
-- also over its quota (2% more refused), and strangers with no key knock a few times a minute.
INSERT INTO ${database}.outcomes_1m (project, minute, outcome, gateway, events, version)
SELECT project, minute, 'accepted', 'demo', sum(n), 1
FROM
(
    SELECT project, toStartOfMinute(timestamp) AS minute, count() AS n
    FROM ${database}.transactions WHERE startsWith(project, 'demo-') AND toDate(timestamp) = {day:Date} GROUP BY project, minute
    UNION ALL
    SELECT project, toStartOfMinute(timestamp) AS minute, count() AS n
    FROM ${database}.errors WHERE startsWith(project, 'demo-') AND toDate(timestamp) = {day:Date} GROUP BY project, minute
)
GROUP BY project, minute;

INSERT INTO ${database}.outcomes_1m (project, minute, outcome, gateway, events, version)
SELECT project, minute, 'quota_exceeded', 'demo', 1 + intDiv(events, 50), 1
FROM ${database}.outcomes_1m
WHERE project = {huge:String} AND outcome = 'accepted' AND gateway = 'demo' AND toDate(minute) = {day:Date}
  AND cityHash64(minute) % 5 = 0;

INSERT INTO ${database}.outcomes_1m (project, minute, outcome, gateway, events, version)
SELECT '', toDateTime({end_s:UInt32}, 'UTC') - toIntervalMinute(number + 1) AS minute, 'unauthorized', 'demo',
       1 + cityHash64(number) % 5, 1
FROM numbers(1440)
