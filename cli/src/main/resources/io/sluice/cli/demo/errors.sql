-- Synthetic error reports for ./sluice demo-data, made like transactions.sql: row `number` of `total`
-- over [start, start + span); ${project} is a SQL expression of number and h.
INSERT INTO ${database}.errors (event_id, project, timestamp, received_at, time_adjusted, environment, level, exception_type, exception_value, top_frame, request_url, request_method, route, user_id, sdk_name, sdk_version, runtime_name, runtime_version, os_name, os_version, kafka_partition, kafka_offset, payload)
WITH
  [('ValueError', 'invalid literal for int() with base 10: ', 'shop/views/products.py in parse_id', 'GET', '/products/{id}', '/products/'),
   ('KeyError', 'missing key: ', 'shop/cart/session.py in load', 'POST', '/cart/items', '/cart/items'),
   ('PaymentDeclined', 'card declined for order ', 'shop/payments/gateway.py in charge', 'POST', '/checkout', '/checkout'),
   ('TimeoutError', 'upstream timed out after 30s: recommendations-', 'shop/clients/recs.py in fetch', 'GET', '/api/v2/recommendations/{id}', '/api/v2/recommendations/'),
   ('OperationalError', 'could not connect to server: db-', 'django/db/backends/base.py in connect', 'GET', '/orders/{id}', '/orders/'),
   ('RefundWindowClosed', 'refund window closed for order ', 'shop/orders/refunds.py in refund', 'POST', '/orders/{id}/refund', '/orders/'),
   ('PermissionDenied', 'user may not change address of user ', 'shop/users/views.py in update_address', 'PUT', '/users/{id}/address', '/users/'),
   ('TypeError', 'Cannot read properties of undefined (reading ''price'') at item ', 'app.js in renderCart', '', '/cart', '/cart')] AS kinds,
  {rows:UInt64} AS total,
  {start_ms:Int64} AS start_ms,
  {span_ms:Int64} AS span_ms
SELECT
  lower(hex(sipHash128(project, 'error', number))) AS event_id,
  project,
  fromUnixTimestamp64Milli(start_ms + toInt64(intDiv(number * span_ms, total)), 'UTC') AS ts,
  ts + toIntervalMillisecond(3 + h % 400),
  false,
  if(h % 10 = 0, 'staging', 'production'),
  if(h % 20 = 0, 'warning', 'error'),
  k.1,
  concat(k.2, id),
  k.3,
  concat('https://shop.example', concrete),
  k.4,
  if(k.4 = '', k.5, concat(k.4, ' ', k.5)),
  concat('u', toString(bitShiftRight(h, 8) % 200000)),
  if(k.4 = '', 'sentry.javascript.browser', 'sentry.python'),
  if(k.4 = '', '8.40.0', '2.19.0'),
  if(k.4 = '', 'Chrome', 'CPython'),
  if(k.4 = '', '131.0', '3.12.7'),
  'Linux',
  '',
  toUInt32(h % 12),
  number,
  concat('{"exception":{"values":[{"type":"', k.1, '","value":"', k.2, id, '","stacktrace":{"frames":[{"function":"',
         splitByString(' in ', k.3)[2], '","filename":"', splitByString(' in ', k.3)[1], '","lineno":', toString(10 + h % 400),
         '}]}}]},"request":{"url":"https://shop.example', concrete, '"}}')
FROM
(
  SELECT number, ${project} AS project, cityHash64({seed:String}, number) AS h,
         kinds[1 + toUInt32(floor(length(kinds) * pow((h % 65536) / 65536, 1.6)))] AS k,
         toString(bitShiftRight(h, 12) % 90000 + 1000) AS id,
         concat(k.6, if(position(k.5, '{id}') > 0, id, ''),
                if(k.5 = '/orders/{id}/refund', '/refund', if(k.5 = '/users/{id}/address', '/address', ''))) AS concrete
  FROM numbers({first:UInt64}, {count:UInt64})
)
SETTINGS max_insert_threads = 2, min_insert_block_size_rows = 1048576, min_insert_block_size_bytes = 0
