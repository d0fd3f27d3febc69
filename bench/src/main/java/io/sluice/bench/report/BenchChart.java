package io.sluice.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.run.PipelineResults;

/**
 * The run as a picture (SVG, next to the JSON): throughput and p50/p99 latency against connections,
 * gateway and bare-Netty ceiling, and freshness p50/p99 as bars. Hand-written SVG: a few lines,
 * dots and bars need no charting library, and the bench keeps no extra dependency.
 */
final class BenchChart {
    private static final int PANEL_WIDTH = 300;
    /** The target: an event visible in traffic_1m within 2 s (p99) at half the sustained rate. */
    private static final double FRESHNESS_TARGET_MILLIS = 2_000;
    private static final int PANEL_HEIGHT = 200;
    private static final int MARGIN = 50;
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"};

    private final StringBuilder svg = new StringBuilder();

    private BenchChart() {
    }

    static String svg(BenchResults r) {
        return new BenchChart().draw(r);
    }

    private String draw(BenchResults r) {
        PipelineResults p = r.pipeline();
        List<Integer> connections = new ArrayList<>(p.gateway().keySet());
        int width = 3 * (PANEL_WIDTH + 2 * MARGIN);
        int height = PANEL_HEIGHT + 2 * MARGIN + 20;
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));

        Map<String, double[]> throughput = new LinkedHashMap<>();
        throughput.put("gateway req/s", values(connections, p.gateway(), Wrk.Result::requestsPerSecond));
        throughput.put("ceiling req/s", values(connections, r.nettyCeiling(), Wrk.Result::requestsPerSecond));
        lines(0, "throughput against connections", "req/s", connections, throughput);

        Map<String, double[]> latency = new LinkedHashMap<>();
        latency.put("gateway p50 ms", values(connections, p.gateway(), Wrk.Result::p50Millis));
        latency.put("gateway p99 ms", values(connections, p.gateway(), Wrk.Result::p99Millis));
        latency.put("ceiling p50 ms", values(connections, r.nettyCeiling(), Wrk.Result::p50Millis));
        latency.put("ceiling p99 ms", values(connections, r.nettyCeiling(), Wrk.Result::p99Millis));
        lines(1, "latency against connections", "ms", connections, latency);

        Map<String, double[]> freshness = new LinkedHashMap<>();
        freshness.put("half sustained", new double[] {p.sustainedFreshness().freshness().p50Millis(),
                p.sustainedFreshness().freshness().p99Millis()});
        freshness.put("light load", new double[] {p.lightFreshness().freshness().p50Millis(),
                p.lightFreshness().freshness().p99Millis()});
        bars(2, "freshness, 2xx to traffic_1m (p50, p99)", "ms", freshness, FRESHNESS_TARGET_MILLIS);
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static double[] values(List<Integer> connections, Map<Integer, Wrk.Result> runs,
                                   java.util.function.ToDoubleFunction<Wrk.Result> value) {
        return connections.stream().mapToDouble(c -> runs.containsKey(c) ? value.applyAsDouble(runs.get(c)) : 0).toArray();
    }

    /** One panel of lines, connections evenly spaced along x (they grow by 4× each). */
    private void lines(int panel, String title, String unit, List<Integer> connections, Map<String, double[]> series) {
        double max = max(series);
        int left = left(panel);
        axes(left, title, unit, max);
        for (int i = 0; i < connections.size(); i++) {
            text(x(left, i, connections.size()), MARGIN + PANEL_HEIGHT + 14, "middle", connections.get(i) + " conn.");
        }
        int colour = 0;
        for (Map.Entry<String, double[]> line : series.entrySet()) {
            StringBuilder points = new StringBuilder();
            double[] values = line.getValue();
            for (int i = 0; i < values.length; i++) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(left, i, values.length), y(values[i], max)));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n",
                        x(left, i, values.length), y(values[i], max), COLOURS[colour % COLOURS.length]));
            }
            svg.append(String.format(Locale.ROOT, "<polyline class=\"series\" data-series=\"%s\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"2\" points=\"%s\"/>%n", escape(line.getKey()), COLOURS[colour % COLOURS.length],
                    points.toString().strip()));
            legend(left, colour, line.getKey());
            colour++;
        }
    }

    /** One panel of bar pairs (p50, p99) per load. */
    /** @param target drawn as a dashed line across the panel */
    private void bars(int panel, String title, String unit, Map<String, double[]> groups, double target) {
        double max = Math.max(max(groups), target * 1.1);
        int left = left(panel);
        axes(left, title, unit, max);
        svg.append(String.format(Locale.ROOT, "<path d=\"M%d,%.1f H%d\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>%n",
                left, y(target, max), left + PANEL_WIDTH));
        text(left + PANEL_WIDTH, y(target, max) - 3, "end", String.format(Locale.ROOT, "target p99 %.0f ms", target));
        double groupWidth = (double) PANEL_WIDTH / groups.size();
        int group = 0;
        for (Map.Entry<String, double[]> g : groups.entrySet()) {
            double[] values = g.getValue();
            double barWidth = groupWidth * 0.7 / values.length;
            for (int i = 0; i < values.length; i++) {
                double value = Double.isFinite(values[i]) ? values[i] : 0;
                double x = left + group * groupWidth + groupWidth * 0.15 + i * barWidth;
                double top = y(value, max);
                svg.append(String.format(Locale.ROOT, "<rect class=\"bar\" data-series=\"%s %s\" x=\"%.1f\" y=\"%.1f\" "
                        + "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n", escape(g.getKey()), i == 0 ? "p50" : "p99", x, top,
                        barWidth - 2, MARGIN + PANEL_HEIGHT - top, COLOURS[i % COLOURS.length]));
                text(x + barWidth / 2, top - 3, "middle", String.format(Locale.ROOT, "%.0f", value));
            }
            text(left + group * groupWidth + groupWidth / 2, MARGIN + PANEL_HEIGHT + 14, "middle", g.getKey());
            group++;
        }
        legend(left, 0, "p50");
        legend(left, 1, "p99");
    }

    private void axes(int left, String title, String unit, double max) {
        text(left, MARGIN - 25, "start", title);
        svg.append(String.format(Locale.ROOT, "<path d=\"M%d,%d V%d H%d\" fill=\"none\" stroke=\"black\"/>%n",
                left, MARGIN, MARGIN + PANEL_HEIGHT, left + PANEL_WIDTH));
        for (int tick = 0; tick <= 4; tick++) {
            double value = max * tick / 4;
            text(left - 4, y(value, max) + 4, "end", String.format(Locale.ROOT, value >= 100 ? "%,.0f" : "%.1f", value));
        }
        text(left - 4, MARGIN - 8, "end", unit);
    }

    private void legend(int left, int index, String name) {
        int y = MARGIN + PANEL_HEIGHT + 30 + 14 * (index / 2);
        double x = left + (index % 2) * (PANEL_WIDTH / 2.0);
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>%n", x, y - 9,
                COLOURS[index % COLOURS.length]));
        text(x + 13, y, "start", name);
    }

    private void text(double x, double y, String anchor, String text) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n", x, y, anchor,
                escape(text)));
    }

    private static int left(int panel) {
        return MARGIN + panel * (PANEL_WIDTH + 2 * MARGIN);
    }

    private static double x(int left, int i, int count) {
        return left + PANEL_WIDTH * (i + 0.5) / count;
    }

    private static double y(double value, double max) {
        double v = Double.isFinite(value) ? value : 0;
        return MARGIN + PANEL_HEIGHT - PANEL_HEIGHT * v / max;
    }

    private static double max(Map<String, double[]> series) {
        double max = series.values().stream().flatMapToDouble(java.util.Arrays::stream).filter(Double::isFinite)
                .max().orElse(1);
        return max > 0 ? max * 1.1 : 1;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
