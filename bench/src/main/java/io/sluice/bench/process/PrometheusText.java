package io.sluice.bench.process;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads values from a {@code /metrics} page (Prometheus text format). */
public final class PrometheusText {
    private PrometheusText() {
    }

    /** The sum of every sample of a series, given as a regular expression of its name and labels. */
    public static double sum(String metrics, String series) {
        Matcher value = Pattern.compile("(?m)^" + series + " ([0-9.E+-]+)$").matcher(metrics);
        double total = 0;
        while (value.find()) {
            total += Double.parseDouble(value.group(1));
        }
        return total;
    }
}
