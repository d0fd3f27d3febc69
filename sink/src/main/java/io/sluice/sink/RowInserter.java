package io.sluice.sink;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.clickhouse.client.api.Client;
import com.clickhouse.data.ClickHouseFormat;

import io.sluice.sink.lifecycle.RowPolicy;

/**
 * The one way rows reach ClickHouse (the sink and replay): a JSONEachRow insert. When ClickHouse
 * refuses the data itself, the batch is split until the refused rows are found; every other row
 * is stored and the refused ones are returned. Any other failure (ClickHouse unavailable) is
 * thrown: the caller retries, and since the tables are idempotent a row stored twice is one row.
 *
 * <p>When every row of a batch of two or more is refused with the same code, the fault is taken
 * to be the table's (a column changed under the sink, a failing materialized view), not the
 * rows': {@link RefusedTableException} is thrown, and the caller retries instead of sending a
 * whole batch of good rows to the dead letters. While that lasts, a retry tries the batch whole
 * once, not the 2n inserts of another bisection. A batch of one row refused is returned as
 * refused, though nothing told whose fault it is: the sink does not dead-letter it alone but
 * tries it again with the next rows of its table (see {@link ClickHouseSink}). One instance per thread.
 */
public final class RowInserter {
    private final Client client;
    private final Duration timeout;
    /** Tables that refused every row of the last batch, with the code: the retry needs no bisection. */
    private final Map<String, Integer> refusingTables = new HashMap<>();

    public RowInserter(Client client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    /** A row to insert, and where it came from (topic/partition@offset) for the dead letter. */
    public record Row(byte[] key, byte[] value, String source) {
        /** The row as the policy stores it, or null when it is not to be stored. */
        public Row storedBy(RowPolicy policy, long nowMillis) {
            byte[] stored = policy.stored(value, nowMillis);
            return stored == null ? null : stored == value ? this : new Row(key, stored, source);
        }
    }

    /** A row ClickHouse refused, with its message. */
    public record Refused(Row row, String reason) {
    }

    /**
     * Inserts every row ClickHouse accepts; returns those it refused for their content.
     *
     * @throws Exception when ClickHouse could not be asked (unavailable, timeout, overload)
     */
    public List<Refused> insert(String table, List<Row> rows) throws Exception {
        Integer refusingCode = refusingTables.remove(table);
        if (refusingCode != null && rows.size() >= 2) {
            try {
                send(table, rows);
                return List.of();
            } catch (Exception e) {
                Optional<Refusals.Refusal> refusal = Refusals.refusal(e);
                if (refusal.isEmpty()) {
                    refusingTables.put(table, refusingCode);
                    throw e;
                }
                if (refusal.get().code() == refusingCode) {
                    refusingTables.put(table, refusingCode);
                    throw new RefusedTableException(table, rows.size(), refusal.get().reason(), true);
                }
                // Another error now: find out again which rows it is about.
            }
        }
        List<Refused> refused = new ArrayList<>();
        Set<Integer> codes = new HashSet<>();
        if (!rows.isEmpty()) {
            insertOrSplit(table, rows, refused, codes);
        }
        if (rows.size() >= 2 && refused.size() == rows.size() && codes.size() == 1) {
            refusingTables.put(table, codes.iterator().next());
            throw new RefusedTableException(table, rows.size(), refused.get(0).reason(), false);
        }
        return refused;
    }

    private void insertOrSplit(String table, List<Row> rows, List<Refused> refused, Set<Integer> codes) throws Exception {
        try {
            send(table, rows);
            return;
        } catch (Exception e) {
            Optional<Refusals.Refusal> refusal = Refusals.refusal(e);
            if (refusal.isEmpty()) {
                throw e;
            }
            if (rows.size() == 1) {
                refused.add(new Refused(rows.get(0), refusal.get().reason()));
                codes.add(refusal.get().code());
                return;
            }
            // Halves until the refused rows are alone: about 2·log2(n) inserts per refused row. The
            // "(at row N)" in ClickHouse's message counts within a parallel-parsing chunk, not the batch.
            int half = rows.size() / 2;
            insertOrSplit(table, rows.subList(0, half), refused, codes);
            insertOrSplit(table, rows.subList(half, rows.size()), refused, codes);
        }
    }

    private void send(String table, List<Row> rows) throws Exception {
        int size = 0;
        for (Row row : rows) {
            size += row.value().length + 1;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(size);
        for (Row row : rows) {
            body.writeBytes(row.value());
            body.write('\n');
        }
        client.insert(table, new ByteArrayInputStream(body.toByteArray()), ClickHouseFormat.JSONEachRow)
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).close();
    }
}
