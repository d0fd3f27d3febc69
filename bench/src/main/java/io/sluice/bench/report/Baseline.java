package io.sluice.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The last release's figures ({@code release-baseline.json} beside this class), each with its
 * run-to-run spread: the share either way by which the same code's figure differs between runs on
 * the bench's machine. A figure moved when this run's differs from the release's by more than that.
 */
final class Baseline {
    /** Where a figure stands against the release. */
    enum Verdict { WITHIN_SPREAD, BETTER, WORSE, NO_BASELINE }

    /** One figure: the release's value (null when it was not measured), this run's, the spread and the verdict. */
    record Comparison(String figure, Double baseline, double current, double spread, Verdict verdict) {
        /** This run's figure as a share of the release's, less one: +0.10 is 10% above it. */
        double change() {
            return baseline == null ? Double.NaN : current / baseline - 1;
        }
    }

    private record Figure(String name, Double value, double spread, boolean higherIsBetter) {
    }

    private final String release;
    private final List<Figure> figures;

    private Baseline(String release, List<Figure> figures) {
        this.release = release;
        this.figures = figures;
    }

    static Baseline parse(String json) {
        try {
            return read(new ObjectMapper().readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException("the baseline is not JSON", e);
        }
    }

    /** The committed baseline. */
    static Baseline lastRelease() {
        try (InputStream in = Baseline.class.getResourceAsStream("release-baseline.json")) {
            return read(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read release-baseline.json", e);
        }
    }

    private static Baseline read(JsonNode json) {
        List<Figure> figures = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.get("figures").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> figure = it.next();
            JsonNode value = figure.getValue().get("value");
            figures.add(new Figure(figure.getKey(), value == null || value.isNull() ? null : value.asDouble(),
                    figure.getValue().get("spread").asDouble(), "higher".equals(figure.getValue().get("better").asText())));
        }
        return new Baseline(json.get("release").asText(), figures);
    }

    String release() {
        return release;
    }

    /** Each of the release's figures this run measured, in the baseline's order. */
    List<Comparison> compare(Map<String, Double> current) {
        List<Comparison> compared = new ArrayList<>();
        for (Figure figure : figures) {
            Double now = current.get(figure.name());
            if (now == null || now.isNaN()) {
                continue;
            }
            compared.add(new Comparison(figure.name(), figure.value(), now, figure.spread(), verdict(figure, now)));
        }
        return compared;
    }

    private static Verdict verdict(Figure figure, double now) {
        if (figure.value() == null) {
            return Verdict.NO_BASELINE;
        }
        double change = now / figure.value() - 1;
        if (Math.abs(change) <= figure.spread()) {
            return Verdict.WITHIN_SPREAD;
        }
        return change > 0 == figure.higherIsBetter() ? Verdict.BETTER : Verdict.WORSE;
    }
}
