package io.sluice.bench.run;

import java.util.List;

import com.clickhouse.client.api.Client;

import io.sluice.bench.load.Wrk;
import io.sluice.config.KafkaSettings;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;

/** Freshness under a load, and the rate that load ran at. */
public record LoadedFreshness(Freshness.Result freshness, double loadRequestsPerSecond) {

    /** Freshness measured while wrk sends {@code bodies} over {@code connections} connections in the background. */
    static LoadedFreshness measure(Wrk wrk, String url, String key, List<byte[]> bodies, int connections, int seconds,
                                   ClickHouseSettings clickHouse, KafkaSettings kafka, String markerPrefix) throws Exception {
        return measure(wrk, url, key, bodies, connections, 0, seconds, clickHouse, kafka, markerPrefix);
    }

    /** @param rate the background load's fixed rate (requests/s), or 0 for as fast as its connections go */
    static LoadedFreshness measure(Wrk wrk, String url, String key, List<byte[]> bodies, int connections, double rate, int seconds,
                                   ClickHouseSettings clickHouse, KafkaSettings kafka, String markerPrefix) throws Exception {
        Wrk.Result[] background = new Wrk.Result[1];
        Thread load = new Thread(() -> {
            try {
                background[0] = wrk.run(url, key, bodies, false, connections, seconds + 2, rate);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        load.start();
        Freshness.Result result;
        try (Client client = ClickHouseClients.create(clickHouse)) {
            result = Freshness.measure(url, key, client, clickHouse.database(), kafka, seconds, markerPrefix);
        }
        load.join();
        return new LoadedFreshness(result, background[0] == null ? 0 : background[0].requestsPerSecond());
    }
}
