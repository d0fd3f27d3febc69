package io.sluice.processor;

import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;

/** What a test of counting-once reads back: the requests counted (newest rows) and the transactions stored. */
final class RequestsAndRows {
    private RequestsAndRows() {
    }

    /** "requests\ttransactions" of the pipeline's database {@code db}. */
    static String of(Engines engines, String db) {
        return ClickHouseQuery.run(engines, "SELECT (SELECT sum(requests) FROM " + db + ".traffic_1m FINAL), "
                + "(SELECT count() FROM " + db + ".transactions FINAL)");
    }
}
