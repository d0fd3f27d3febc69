package io.sluice.sink;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.clickhouse.client.api.Client;
import com.clickhouse.data.ClickHouseFormat;

/**
 * The one way rows reach ClickHouse (the sink and replay): a JSONEachRow insert. When ClickHouse
 * refuses the data itself, the batch is split until the refused rows are found; every other row
 * is stored and the refused ones are returned. Any other failure (ClickHouse unavailable) is
 * thrown: the caller retries, and since the tables are idempotent a row stored twice is one row.
 */
public final class RowInserter {
    private final Client client;
    private final Duration timeout;

    public RowInserter(Client client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    /** A row to insert, and where it came from (topic/partition@offset) for the dead letter. */
    public record Row(byte[] key, byte[] value, String source) {
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
        List<Refused> refused = new ArrayList<>();
        if (!rows.isEmpty()) {
            insertOrSplit(table, rows, refused);
        }
        return refused;
    }

    private void insertOrSplit(String table, List<Row> rows, List<Refused> refused) throws Exception {
        try {
            send(table, rows);
            return;
        } catch (Exception e) {
            Optional<String> reason = Refusals.refusedData(e);
            if (reason.isEmpty()) {
                throw e;
            }
            if (rows.size() == 1) {
                refused.add(new Refused(rows.get(0), reason.get()));
                return;
            }
            // Halves until the refused rows are alone: about 2·log2(n) inserts per refused row. The
            // "(at row N)" in ClickHouse's message counts within a parallel-parsing chunk, not the batch.
            int half = rows.size() / 2;
            insertOrSplit(table, rows.subList(0, half), refused);
            insertOrSplit(table, rows.subList(half, rows.size()), refused);
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
