package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Ports;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * Partitions move between sink instances while ClickHouse is down: a second instance joins the
 * group and leaves again during the outage. Once ClickHouse is back every row is there, once.
 */
@ExtendWith(RealEngines.class)
class SinkRebalanceDuringOutageIT {
    private static final long TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5)).toEpochMilli();
    private static final int BEFORE = 30;
    private static final int DURING = 300;

    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void rowsOfPartitionsThatMovedDuringAnOutageAreAllInsertedOnce(Engines engines) throws Exception {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        int http = Ports.free();
        int tcp = Ports.free();
        Path data = workDir.resolve("clickhouse");
        ClickHouseServer clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
        try (SinkFixture fixture = new SinkFixture("sinkrebalance", engines, clickHouse.httpUrl(), workDir.resolve("state"))) {
            String group = "sinkrebalance-sink";
            ClickHouseSink first = fixture.sink(group, SinkFixture.limits(20_000, 16 << 20, Duration.ofMillis(200)));
            Thread firstThread = SinkFixture.start(first, "sink-first");
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < BEFORE; i++) {
                sent.add(String.format("before%03d", i));
                fixture.send(i % 3, SinkFixture.row(sent.get(sent.size() - 1), TIME, "GET /", 0));
            }
            String url = clickHouse.httpUrl();
            assertEquals(Integer.toString(BEFORE), Await.until(Duration.ofSeconds(60), Integer.toString(BEFORE),
                    () -> query(url, "SELECT count() FROM " + fixture.db + ".transactions FINAL")));

            clickHouse.close();
            for (int i = 0; i < DURING; i++) {
                sent.add(String.format("during%03d", i));
                fixture.send(i % 3, SinkFixture.row(sent.get(sent.size() - 1), TIME, "GET /", 0));
            }
            // The first instance holds rows it cannot insert...
            assertEquals(true, Await.until(Duration.ofSeconds(60), true, () -> failures(fixture, first) > 0));
            // ...when a second joins: the partitions are shared out anew (rebalance) during the outage.
            ClickHouseSink second = fixture.sink(group, SinkFixture.limits(20_000, 16 << 20, Duration.ofMillis(200)));
            Thread secondThread = SinkFixture.start(second, "sink-second");
            assertEquals(true, Await.until(Duration.ofSeconds(60), true, () -> failures(fixture, second) > 0));
            // And leaves again, still during the outage: its partitions go back to the first (a second rebalance).
            SinkFixture.stop(second, secondThread);
            long failuresBefore = failures(fixture, first);
            assertEquals(true, Await.until(Duration.ofSeconds(60), true, () -> failures(fixture, first) > failuresBefore));

            clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
            String total = Integer.toString(BEFORE + DURING);
            Await.until(Duration.ofSeconds(120), total, () -> query(url, "SELECT count() FROM " + fixture.db + ".transactions FINAL"));
            SinkFixture.stop(first, firstThread);

            Set<String> found = new TreeSet<>(Arrays.asList(query(url,
                    "SELECT arrayStringConcat(groupArray(event_id), ',') FROM " + fixture.db + ".transactions FINAL").split(",")));
            found.remove("");
            long rowsFinal = Long.parseLong(query(url, "SELECT count() FROM " + fixture.db + ".transactions FINAL"));
            Set<String> lost = new TreeSet<>(sent);
            lost.removeAll(found);
            long duplicated = rowsFinal - found.size();
            System.out.println("delivery report (rebalance during a ClickHouse outage): sent=" + sent.size() + " found="
                    + found.size() + " lost=" + lost.size() + " duplicated=" + duplicated);
            assertEquals(Set.of(), lost);
            assertEquals(new TreeSet<>(sent), found);
            assertEquals(0, duplicated);
        } finally {
            clickHouse.close();
        }
    }

    /** Failed insert attempts so far, from the sink's own metrics. */
    private static long failures(SinkFixture fixture, ClickHouseSink sink) {
        return fixture.metrics(sink).lines().filter(line -> line.startsWith("sluice_sink_insert_failures_total{"))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    private static String query(String url, String sql) {
        try {
            return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                            url + "/?query=" + java.net.URLEncoder.encode(sql, java.nio.charset.StandardCharsets.UTF_8))).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body().strip();
        } catch (Exception e) {
            return "unreachable";
        }
    }
}
