package io.sluice.gateway.otlp;

import io.opentelemetry.proto.metrics.v1.Metric;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/** The data points of an OTLP metric, which Sluice does not store: each counted as {@link #NOT_STORED}. */
public final class MetricPoints {
    /** The outcome of a metric's data point. */
    public static final QualifiedOutcome NOT_STORED = QualifiedOutcome.of(Outcome.UNSUPPORTED_ITEM, "otlp_metric");

    private MetricPoints() {
    }

    /** How many data points the metric holds, whatever its type; none when it has no data. */
    static long of(Metric metric) {
        return switch (metric.getDataCase()) {
            case GAUGE -> metric.getGauge().getDataPointsCount();
            case SUM -> metric.getSum().getDataPointsCount();
            case HISTOGRAM -> metric.getHistogram().getDataPointsCount();
            case EXPONENTIAL_HISTOGRAM -> metric.getExponentialHistogram().getDataPointsCount();
            case SUMMARY -> metric.getSummary().getDataPointsCount();
            case DATA_NOT_SET -> 0;
        };
    }
}
