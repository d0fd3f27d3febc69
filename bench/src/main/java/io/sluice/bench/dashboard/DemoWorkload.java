package io.sluice.bench.dashboard;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

import com.clickhouse.client.api.Client;

/**
 * What the dashboard stage times the panels on: the server's demo data and {@code ./sluice stats}'
 * queries. They live in cli, which bench does not depend on (so that bench's tests build and run
 * beside cli's); the developer's command line passes them in.
 */
public interface DemoWorkload {
    /** The project the demo data makes huge: the panels and queries are timed for it. */
    String hugeProject();

    /** Fills {@code database} with the demo data at {@code scale}, its progress printed to {@code out}. */
    void fill(Client client, String database, double scale, PrintStream out) throws Exception;

    /** {@code ./sluice stats}' queries over the last {@code range} of {@code database}, by name (parameters project and since). */
    Map<String, String> statsQueries(String database, Duration range);
}
