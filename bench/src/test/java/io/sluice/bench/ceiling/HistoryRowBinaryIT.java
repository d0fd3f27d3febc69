package io.sluice.bench.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.clickhouse.data.ClickHouseFormat;

import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.RowInserter;
import io.sluice.sink.SchemaMigrations;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * The format comparison compares like with like: history rows converted from their JSON to
 * RowBinary, and the same rows pre-encoded from their facts, are stored exactly as the sink's
 * JSONEachRow insert stores them.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class HistoryRowBinaryIT {

    @Test
    void convertedAndPreEncodedRowsReadBackAsTheJsonRows(Engines engines) throws Exception {
        ClickHouseSettings settings = new ClickHouseSettings(engines.clickHouseUrl(), engines.clickHouseUser(),
                engines.clickHousePassword(), "history_row_binary", 30);
        HistoryRows history = HistoryRows.of(3);
        String json = settings.database() + ".as_json";
        String converted = settings.database() + ".converted";
        String encoded = settings.database() + ".encoded";
        try (var client = ClickHouseClients.create(settings)) {
            SchemaMigrations.apply(client, settings);
            for (String table : List.of(json, converted, encoded)) {
                client.execute("CREATE TABLE " + table + " AS " + settings.database() + ".transactions").get().close();
            }
            List<RowInserter.Row> rows = new ArrayList<>();
            HistoryRowBinary fromJson = new HistoryRowBinary(settings.retentionDays());
            RowBinaryRows fromFacts = new RowBinaryRows();
            for (int i = 0; i < history.size(); i++) {
                rows.add(new RowInserter.Row(null, history.json().get(i), "test/0@" + i));
                fromJson.add(history.json().get(i));
                HistoryRowBinary.add(fromFacts, history.facts().get(i), settings.retentionDays());
            }
            assertEquals(List.of(), new RowInserter(client, Duration.ofSeconds(30)).insert(json, rows));
            client.insert(converted, new ByteArrayInputStream(fromJson.takeBytes()), ClickHouseFormat.RowBinary)
                    .get(30, TimeUnit.SECONDS).close();
            client.insert(encoded, new ByteArrayInputStream(fromFacts.takeBytes()), ClickHouseFormat.RowBinary)
                    .get(30, TimeUnit.SECONDS).close();
        }
        String expected = ClickHouseQuery.run(engines, "SELECT * FROM " + json + " ORDER BY event_id FORMAT TSV");
        assertEquals(3, expected.strip().lines().count());
        assertEquals(expected, ClickHouseQuery.run(engines, "SELECT * FROM " + converted + " ORDER BY event_id FORMAT TSV"));
        assertEquals(expected, ClickHouseQuery.run(engines, "SELECT * FROM " + encoded + " ORDER BY event_id FORMAT TSV"));
    }
}
