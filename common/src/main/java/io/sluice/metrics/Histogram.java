package io.sluice.metrics;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** A Prometheus histogram with fixed buckets; safe to record from many threads. */
public final class Histogram {
    public static final double[] LATENCY_BUCKETS = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10};

    private final double[] bounds;
    private final LongAdder[] counts;
    private final DoubleAdder sum = new DoubleAdder();
    private final LongAdder total = new LongAdder();

    public static final double[] SIZE_BUCKETS = {1, 10, 100, 1_000, 5_000, 10_000, 20_000, 50_000, 100_000};

    public Histogram(double[] bounds) {
        this.bounds = bounds.clone();
        this.counts = new LongAdder[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void recordNanos(long nanos) {
        record(nanos / 1e9);
    }

    public void record(double value) {
        for (int i = 0; i < bounds.length; i++) {
            if (value <= bounds[i]) {
                counts[i].increment();
                break;
            }
        }
        sum.add(value);
        total.increment();
    }

    public void writeTo(StringBuilder out, String name, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" histogram\n");
        long cumulative = 0;
        for (int i = 0; i < bounds.length; i++) {
            cumulative += counts[i].sum();
            out.append(name).append("_bucket{le=\"").append(bounds[i]).append("\"} ").append(cumulative).append('\n');
        }
        out.append(name).append("_bucket{le=\"+Inf\"} ").append(total.sum()).append('\n');
        out.append(name).append("_sum ").append(sum.sum()).append('\n');
        out.append(name).append("_count ").append(total.sum()).append('\n');
    }
}
