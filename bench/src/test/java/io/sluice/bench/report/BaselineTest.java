package io.sluice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The last release's figures, and which of this run's moved by more than the run-to-run spread. */
class BaselineTest {
    private static final String JSON = """
            {"release": "2026-11-26", "source": "docs/performance.md",
             "figures": {
               "gateway_256_req_per_s": {"value": 50496, "spread": 0.25, "better": "higher"},
               "gateway_cpu_us_per_request": {"value": 26.6, "spread": 0.30, "better": "lower"},
               "pipeline_cpu_us_per_event": {"value": null, "spread": 0.30, "better": "lower"}
             }}
            """;

    @Test
    void aFigureWithinTheSpreadHasNotMoved() {
        List<Baseline.Comparison> compared = Baseline.parse(JSON).compare(Map.of("gateway_256_req_per_s", 60_000.0));
        assertEquals(List.of(new Baseline.Comparison("gateway_256_req_per_s", 50_496.0, 60_000.0, 0.25, Baseline.Verdict.WITHIN_SPREAD)),
                compared);
    }

    @Test
    void aFigureBeyondTheSpreadMovedAndSaysWhichWay() {
        Baseline baseline = Baseline.parse(JSON);
        assertEquals(Baseline.Verdict.BETTER, baseline.compare(Map.of("gateway_256_req_per_s", 63_200.0)).get(0).verdict());
        assertEquals(Baseline.Verdict.WORSE, baseline.compare(Map.of("gateway_cpu_us_per_request", 34.7)).get(0).verdict());
        assertEquals(Baseline.Verdict.BETTER, baseline.compare(Map.of("gateway_cpu_us_per_request", 18.5)).get(0).verdict());
    }

    @Test
    void exactlyAtTheSpreadHasNotMoved() {
        assertEquals(Baseline.Verdict.WITHIN_SPREAD,
                Baseline.parse(JSON).compare(Map.of("gateway_256_req_per_s", 37_872.0)).get(0).verdict());
    }

    @Test
    void aFigureTheReleaseDidNotMeasureIsNew() {
        assertEquals(List.of(new Baseline.Comparison("pipeline_cpu_us_per_event", null, 310.0, 0.30, Baseline.Verdict.NO_BASELINE)),
                Baseline.parse(JSON).compare(Map.of("pipeline_cpu_us_per_event", 310.0)));
    }

    @Test
    void aFigureThisRunDidNotMeasureIsLeftOut() {
        assertEquals(List.of(), Baseline.parse(JSON).compare(Map.of()));
    }

    @Test
    void theCommittedBaselineReads() {
        Baseline release = Baseline.lastRelease();
        assertEquals(50_496.0, release.compare(Map.of("gateway_256_req_per_s", 50_496.0)).get(0).baseline());
    }
}
