package io.sluice.processor.topology;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which tasks pre-aggregated transactions ({@link PartialCounts}, counted once per transaction, at
 * the per-route counts that every transaction reaches), and how many partial sums they sent on
 * through the repartition topic: how many tasks did the counting, and how much the sums saved.
 * Counted when handed on, so a task that aborts its transaction may count events again.
 */
public final class PreAggregation {
    private final Tally transactions = new Tally();

    /** What the per-route transaction counts tally. */
    Tally transactions() {
        return transactions;
    }

    /** Transactions each task added up, by task id ({@code 0_3}: subtopology 0, raw partition 3). */
    public Map<String, Long> eventsByTask() {
        Map<String, Long> byTask = new TreeMap<>();
        transactions.byTask.forEach((task, tally) -> byTask.put(task, tally.events.sum()));
        return byTask;
    }

    /** Partial sums sent on to the repartition topic, all tasks together. */
    public long sumsSent() {
        return transactions.byTask.values().stream().mapToLong(tally -> tally.sums.sum()).sum();
    }

    /** One aggregate's tally, by task. */
    static final class Tally {
        /** A tally that keeps nothing: for the aggregates {@link PreAggregation} does not report. */
        static final Tally NONE = new Tally();
        private final Map<String, TaskTally> byTask = new ConcurrentHashMap<>();

        TaskTally of(String taskId) {
            return this == NONE ? TaskTally.NONE : byTask.computeIfAbsent(taskId, id -> new TaskTally());
        }
    }

    /** One task's counts. */
    static final class TaskTally {
        static final TaskTally NONE = new TaskTally();
        private final LongAdder events = new LongAdder();
        private final LongAdder sums = new LongAdder();

        void counted() {
            if (this != NONE) {
                events.increment();
            }
        }

        void sent(int count) {
            if (this != NONE) {
                sums.add(count);
            }
        }
    }
}
