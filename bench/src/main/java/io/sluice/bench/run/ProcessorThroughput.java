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
     * Records/s from 20% of the records in the history table to all of them there and counted in
     * traffic_1m: the sustained rate, without the start-up and JIT warm-up of the first fifth.
     * (Progress is read from the history, which is written as records are parsed; under a backlog
     * the aggregation's repartitioned input lags behind it and catches up at the end.)
     */
    static Result measure(ChildJvm processor, ClickHouseSettings clickHouse, long expected) throws Exception {
        String database = clickHouse.database();
        try (Client client = ClickHouseClients.create(clickHouse)) {
            long startedAt = 0;
            CpuWindow cpu = null;
            while (true) {
                Stored stored = stored(client, database);
                long history = stored.history();
                long counted = stored.counted();
                if (history >= expected / 5 && startedAt == 0) {
                    startedAt = System.nanoTime();
                    cpu = CpuWindow.start(processor);
                }
                if (history >= expected && counted >= expected) {
                    double rate = (expected - expected / 5) / Math.max(0.001, (System.nanoTime() - startedAt) / 1e9);
                    return new Result(rate, cpu.coresUsed());
                }
                if (!processor.isAlive()) {
                    throw new IllegalStateException("the processor stopped; see " + processor.log());
                }
                Thread.sleep(100);
            }
        }
    }
}
