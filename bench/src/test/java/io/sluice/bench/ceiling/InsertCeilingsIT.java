package io.sluice.bench.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.sink.ClickHouseSettings;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** The insert ceilings write rows the history table takes, in both formats, on the schema as migrated. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class InsertCeilingsIT {

    @Test
    void theRowBinaryCeilingStoresEveryRowOnTheCurrentSchema(Engines engines) throws Exception {
        ClickHouseSettings settings = new ClickHouseSettings(engines.clickHouseUrl(), engines.clickHouseUser(),
                engines.clickHousePassword(), "insert_ceilings", 30);
        InsertCeilings.measure(settings, 1_000);
        assertEquals("1000", ClickHouseQuery.run(engines, "SELECT count() FROM insert_ceilings.bench_ceiling").strip());
    }
}
