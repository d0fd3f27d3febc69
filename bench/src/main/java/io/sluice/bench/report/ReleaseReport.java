package io.sluice.bench.report;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The run's figures against the last release's ({@link Baseline}): which moved by more than their run-to-run spread. */
final class ReleaseReport {
    private ReleaseReport() {
    }

    static void print(Baseline release, List<Baseline.Comparison> compared, PrintStream out) {
        out.println();
        out.printf("AGAINST THE LAST RELEASE (%s): moved = beyond the figure's run-to-run spread%n", release.release());
        out.printf("%-34s %12s %11s %7s %6s%n", "figure", "release", "this run", "change", "spread");
        for (Baseline.Comparison c : compared) {
            boolean known = c.baseline() != null;
            out.printf("%-34s %12s %11.2f %7s %5s%%  %s%n", c.figure(), known ? String.format("%.2f", c.baseline()) : "?", c.current(),
                    known ? String.format("%+.0f%%", 100 * c.change()) : "?", String.format("±%.0f", 100 * c.spread()), switch (c.verdict()) {
                        case WITHIN_SPREAD -> "within the spread";
                        case BETTER -> "MOVED: better";
                        case WORSE -> "MOVED: worse";
                        case NO_BASELINE -> "new: the release did not measure it";
                    });
        }
    }

    static Map<String, Object> json(Baseline release, List<Baseline.Comparison> compared) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("release", release.release());
        json.put("figures", compared.stream().map(c -> {
            Map<String, Object> figure = new LinkedHashMap<>();
            figure.put("figure", c.figure());
            figure.put("release", c.baseline());
            figure.put("current", c.current());
            figure.put("spread", c.spread());
            figure.put("verdict", c.verdict());
            return figure;
        }).toList());
        return json;
    }
}
