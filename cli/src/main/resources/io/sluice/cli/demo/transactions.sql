-- Synthetic request history for ./sluice demo-data: row `number` of `total` (a deterministic hash of
-- it picks the route, status, duration, user…), its time spread evenly over [start, start + span).
-- ${project} is a SQL expression of number and h (the project of the row).
INSERT INTO ${database}.transactions (event_id, project, timestamp, received_at, time_adjusted, environment, transaction, route, op, method, url, path, status_code, duration_ms, user_id, sdk_name, sdk_version, runtime_name, runtime_version, os_name, os_version, kafka_partition, kafka_offset)
WITH
  [('http.server','GET','/products/{id}','/products/',12.0,2,20),
   ('http.server','GET','/products','/products',25.0,1,5),
   ('http.server','GET','/users/{id}','/users/',8.0,1,30),
   ('http.server','GET','/search','/search',60.0,4,10),
   ('http.server','POST','/cart/items','/cart/items',18.0,3,40),
   ('http.server','GET','/cart','/cart',10.0,1,5),
   ('http.server','POST','/checkout','/checkout',180.0,25,30),
   ('http.server','GET','/orders/{id}','/orders/',15.0,2,25),
   ('http.server','GET','/orders/{id}/items','/orders/',20.0,2,10),
   ('http.server','POST','/orders/{id}/refund','/orders/',250.0,40,60),
   ('http.server','POST','/login','/login',90.0,2,120),
   ('http.server','POST','/logout','/logout',4.0,0,2),
   ('http.server','GET','/health','/health',0.8,0,0),
   ('http.server','GET','/api/v2/recommendations/{id}','/api/v2/recommendations/',45.0,8,5),
   ('http.server','PUT','/users/{id}/address','/users/',30.0,3,50),
   ('http.server','GET','/static/{file}','/static/',2.0,0,15),
   ('http.server','POST','/webhooks/payments','/webhooks/payments',70.0,15,8),
   ('http.server','DELETE','/cart/items/{id}','/cart/items/',12.0,1,20),
   ('pageload','','/','/',900.0,0,0),
   ('pageload','','/products/{id}','/products/',1100.0,0,0),
   ('navigation','','/checkout','/checkout',400.0,0,0)] AS routes,
  {rows:UInt64} AS total,
  {start_ms:Int64} AS start_ms,
  {span_ms:Int64} AS span_ms
SELECT
  lower(hex(sipHash128(project, number))) AS event_id,
  project,
  fromUnixTimestamp64Milli(start_ms + toInt64(intDiv(number * span_ms, total)), 'UTC') AS ts,
  ts + toIntervalMillisecond(3 + h % 400),
  false,
  if(h % 10 = 0, 'staging', 'production'),
  if(r.1 = 'http.server', concat(r.2, ' ', concrete), concrete),
  if(r.1 = 'http.server', concat(r.2, ' ', r.3), r.3),
  r.1,
  r.2,
  concat('https://shop.example', concrete),
  concrete,
  if(r.1 != 'http.server', NULL,
     toUInt16(multiIf(u < r.6, [500, 502, 503, 504][1 + bitShiftRight(h, 40) % 4],
                      u < r.6 + r.7, [400, 401, 403, 404, 409, 422, 429][1 + bitShiftRight(h, 40) % 7],
                      r.2 = 'POST', 201, r.2 = 'DELETE', 204, 200))),
  round(r.5 * if(u < r.6, 3, 1) * pow((bitShiftRight(h, 20) % 1000000 + 1) / 1000000, -0.45), 3),
  concat('u', toString(bitShiftRight(h, 8) % 200000)),
  if(r.1 = 'http.server', 'sentry.python', 'sentry.javascript.browser'),
  if(r.1 = 'http.server', '2.19.0', '8.40.0'),
  if(r.1 = 'http.server', 'CPython', 'Chrome'),
  if(r.1 = 'http.server', '3.12.7', '131.0'),
  if(r.1 = 'http.server', 'Linux', ['Windows', 'macOS', 'Android', 'iOS'][1 + bitShiftRight(h, 50) % 4]),
  '',
  toUInt32(h % 12),
  number
FROM
(
  SELECT number, ${project} AS project, cityHash64({seed:String}, number) AS h,
         bitShiftRight(h, 30) % 1000 AS u,
         routes[1 + toUInt32(floor(length(routes) * pow((h % 65536) / 65536, 2.2)))] AS r,
         concat(r.4, multiIf(position(r.3, '{id}') > 0, toString(bitShiftRight(h, 12) % 90000 + 1000),
                             position(r.3, '{file}') > 0, concat(lower(hex(bitShiftRight(h, 5) % 4096)), '.js'), ''),
                     if(r.3 = '/orders/{id}/items', '/items', if(r.3 = '/orders/{id}/refund', '/refund', if(r.3 = '/users/{id}/address', '/address', '')))) AS concrete
  FROM numbers({first:UInt64}, {count:UInt64})
)
SETTINGS max_insert_threads = 2, min_insert_block_size_rows = 1048576, min_insert_block_size_bytes = 0
