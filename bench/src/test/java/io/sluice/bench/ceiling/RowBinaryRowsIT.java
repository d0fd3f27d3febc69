package io.sluice.bench.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.clickhouse.data.ClickHouseFormat;

import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** The bench's RowBinary ceiling inserts what it means to: ClickHouse reads the rows back unchanged. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RowBinaryRowsIT {

    @Test
    void clickHouseReadsBackEveryColumnTypeTheCeilingWrites(Engines engines) throws Exception {
        ClickHouseQuery.run(engines, "CREATE TABLE default.row_binary_check (s String, lc LowCardinality(String), "
                + "t DateTime64(3, 'UTC'), b Bool, n Nullable(UInt16), u32 UInt32, u64 UInt64) ENGINE = Memory");
        String longText = "é".repeat(100); // 200 UTF-8 bytes: a two-byte length
        RowBinaryRows rows = new RowBinaryRows();
        rows.string(longText).string("production").dateTime64Millis(1_795_000_000_123L).bool(true).nullableUInt16(503)
                .uint32(4_000_000_000L).uint64(Long.MAX_VALUE);
        rows.string("").string("").dateTime64Millis(0).bool(false).nullableUInt16(0).uint32(0).uint64(0);
        ClickHouseSettings settings = new ClickHouseSettings(engines.clickHouseUrl(), engines.clickHouseUser(),
                engines.clickHousePassword(), "default", 30);
        try (var client = ClickHouseClients.create(settings)) {
            client.insert("default.row_binary_check", new ByteArrayInputStream(rows.takeBytes()), ClickHouseFormat.RowBinary)
                    .get(30, TimeUnit.SECONDS).close();
        }
        assertEquals(longText + "\tproduction\t2026-11-18 11:06:40.123\ttrue\t503\t4000000000\t9223372036854775807\n"
                        + "\t\t1970-01-01 00:00:00.000\tfalse\t0\t0\t0",
                ClickHouseQuery.run(engines, "SELECT * FROM default.row_binary_check ORDER BY u64 DESC FORMAT TSV"));
    }
}
