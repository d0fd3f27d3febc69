package io.sluice.processor.ops;

import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Records Kafka Streams dropped, from its own task-level {@code dropped-records-total}: above all
 * an event whose minute had closed (older than the horizon plus the late margin behind stream
 * time), which then is in the history but in no per-minute count. Streams counts there too what
 * it skips on a production handler's "resume", i.e. the unproducible dead letters.
 */
public final class StreamsDrops {
    private StreamsDrops() {
    }

    /** The sum over this instance's tasks (a task's count starts again at 0 when it moves). */
    public static long total(Map<MetricName, ? extends Metric> metrics) {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            MetricName name = metric.getKey();
            if (name.name().equals("dropped-records-total") && name.group().equals("stream-task-metrics")
                    && metric.getValue().metricValue() instanceof Double value && !value.isNaN()) {
                total += value;
            }
        }
        return (long) total;
    }
}
