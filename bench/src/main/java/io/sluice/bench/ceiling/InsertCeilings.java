package io.sluice.bench.ceiling;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.clickhouse.client.api.Client;
import com.clickhouse.data.ClickHouseFormat;

import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.RowInserter;
import io.sluice.sink.SchemaMigrations;

/** Ceilings of the sink: rows/s of bulk-inserting history rows straight into ClickHouse, through the sink's insert path and in RowBinary. */
public record InsertCeilings(double jsonEachRow, double rowBinary) {
    private static final int ROWS_PER_INSERT = 50_000;
    private static final Duration INSERT_TIMEOUT = Duration.ofSeconds(120);

    /**
     * Inserts the same {@code rows} history rows (as the processor writes them, {@link HistoryRows}) into a copy of the
     * transactions table twice, 50,000 per insert: once through the sink's {@link RowInserter}
     * (JSONEachRow), once as RowBinary (ClickHouse's cheapest row format to parse).
     */
    public static InsertCeilings measure(ClickHouseSettings settings, int rows) throws Exception {
        String table = settings.database() + ".bench_ceiling";
        try (Client client = ClickHouseClients.create(settings)) {
            SchemaMigrations.apply(client, settings);
            client.execute("CREATE TABLE IF NOT EXISTS " + table + " AS " + settings.database() + ".transactions").get().close();
            List<List<RowInserter.Row>> json = new ArrayList<>();
            List<byte[]> binary = new ArrayList<>();
            List<RowInserter.Row> jsonBatch = new ArrayList<>();
            RowBinaryRows binaryBatch = new RowBinaryRows();
            HistoryRows history = HistoryRows.of(rows);
            for (int i = 0; i < rows; i++) {
                jsonBatch.add(new RowInserter.Row(null, history.json().get(i), "bench/0@" + i));
                HistoryRowBinary.add(binaryBatch, history.facts().get(i), settings.retentionDays());
                if ((i + 1) % ROWS_PER_INSERT == 0 || i == rows - 1) {
                    json.add(jsonBatch);
                    jsonBatch = new ArrayList<>();
                    binary.add(binaryBatch.takeBytes());
                }
            }
            double jsonRate = insertRate(new RowInserter(client, INSERT_TIMEOUT), table, json, rows);
            client.execute("TRUNCATE TABLE " + table).get().close();
            double binaryRate = insertRate(client, table, binary, rows);
            long stored = client.queryAll("SELECT count() AS n FROM " + table).get(0).getLong("n");
            if (stored != rows) {
                throw new IllegalStateException("the RowBinary ceiling stored " + stored + " of " + rows + " rows");
            }
            return new InsertCeilings(jsonRate, binaryRate);
        }
    }

    private static double insertRate(RowInserter inserter, String table, List<List<RowInserter.Row>> batches, int rows)
            throws Exception {
        long start = System.nanoTime();
        for (List<RowInserter.Row> batch : batches) {
            List<RowInserter.Refused> refused = inserter.insert(table, batch);
            if (!refused.isEmpty()) {
                throw new IllegalStateException("ClickHouse refused a bench row: " + refused.get(0).reason());
            }
        }
        return rows / ((System.nanoTime() - start) / 1e9);
    }

    private static double insertRate(Client client, String table, List<byte[]> batches, int rows) throws Exception {
        long start = System.nanoTime();
        for (byte[] batch : batches) {
            client.insert(table, new ByteArrayInputStream(batch), ClickHouseFormat.RowBinary)
                    .get(INSERT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).close();
        }
        return rows / ((System.nanoTime() - start) / 1e9);
    }
}
