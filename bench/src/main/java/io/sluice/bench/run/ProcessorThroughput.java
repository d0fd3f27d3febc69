package io.sluice.bench.run;

import com.clickhouse.client.api.Client;

import io.sluice.bench.process.ChildJvm;
import io.sluice.bench.process.CpuWindow;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;

/** How fast the processor works off a backlog, read from what reaches ClickHouse. */
final class ProcessorThroughput {
    /** Records/s, and the processor's CPU over the same window (cores: CPU seconds per second). */
    record Result(double recordsPerSecond, double cores) {
    }

    /** Transactions in the history table, and transactions counted in traffic_1m. */
    record Stored(long history, long counted) {
        /** Transactions both in the history and counted. */
        long both() {
            return Math.min(history, counted);
        }
    }

    private ProcessorThroughput() {
    }

    /** What the processor has stored so far in {@code database}: none before it created its tables. */
    static Stored stored(Client client, String database) {
        try {
            return new Stored(client.queryAll("SELECT count() AS n FROM " + database + ".transactions").get(0).getLong("n"),
                    client.queryAll("SELECT sum(requests) AS n FROM " + database + ".traffic_1m FINAL").get(0).getLong("n"));
        } catch (RuntimeException tablesNotThereYet) {
            return new Stored(0, 0); // the processor creates them at start
        }
    }

    /**
     * Records/s from a fifth into {@code backlog} stored in the history table to all of it there and
     * counted in traffic_1m, as the Kafka Streams copy is timed: the sustained rate, without the first
     * fifth's start (and, in a JVM that starts cold, its JIT warm-up). (Progress is read from the
     * history, which is written as records are parsed; under a backlog the aggregation's repartitioned
     * input lags behind it and catches up at the end.)
     */
    static Result measure(ChildJvm processor, ClickHouseSettings clickHouse, PipelineResults.Backlog backlog, int maxSeconds)
            throws Exception {
        String database = clickHouse.database();
        long deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
        try (Client client = ClickHouseClients.create(clickHouse)) {
            long startedAt = 0;
            CpuWindow cpu = null;
            if (stored(client, database).history() > backlog.clockStartsAt()) {
                throw new IllegalStateException("the processor was past a fifth of its backlog before it was measured: it read the"
                        + " backlog as it came");
            }
            while (true) {
                Stored stored = stored(client, database);
                if (stored.history() >= backlog.clockStartsAt() && startedAt == 0) {
                    startedAt = System.nanoTime();
                    cpu = CpuWindow.start(processor);
                }
                if (stored.history() >= backlog.end() && stored.counted() >= backlog.end()) {
                    double rate = (backlog.end() - backlog.clockStartsAt()) / Math.max(0.001, (System.nanoTime() - startedAt) / 1e9);
                    return new Result(rate, cpu.coresUsed());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the processor stored " + stored.history() + " and counted " + stored.counted()
                            + " of " + backlog.end() + " records within " + maxSeconds + " s");
                }
                alive(processor);
                Thread.sleep(100);
            }
        }
    }

    /**
     * Waits until the processor has stored {@code records} in the history table and counted them in
     * traffic_1m (what was sent before the backlog: its own untimed backlog, and the idle stage's).
     *
     * @return the seconds it took
     */
    static double awaitStored(ChildJvm processor, ClickHouseSettings clickHouse, long records, int maxSeconds) throws Exception {
        long started = System.nanoTime();
        long deadline = started + maxSeconds * 1_000_000_000L;
        try (Client client = ClickHouseClients.create(clickHouse)) {
            while (stored(client, clickHouse.database()).both() < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the processor did not store " + records + " records within " + maxSeconds + " s");
                }
                alive(processor);
                Thread.sleep(100);
            }
        }
        return (System.nanoTime() - started) / 1e9;
    }

    private static void alive(ChildJvm processor) {
        if (!processor.isAlive()) {
            throw new IllegalStateException("the processor stopped; see " + processor.log());
        }
    }
}
