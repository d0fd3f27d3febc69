package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** Each stage's figure is printed when it is measured; a failed stage is named, and the stages after it do not run. */
class BenchStagesTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final BenchStages stages = new BenchStages(new PrintStream(printed, true, StandardCharsets.UTF_8));

    @Test
    void eachFigureIsPrintedAsSoonAsItsStageIsMeasured() throws Exception {
        stages.run("ceiling: the Kafka producer alone", () -> 150_000.0, rate -> String.format("%,.0f records/s", rate));
        assertEquals(List.of("· ceiling: the Kafka producer alone", "  150,000 records/s"), lines());
        assertNull(stages.failure());
    }

    @Test
    void aFailedStageIsNamedWithItsErrorAndWhatCameBeforeIsKept() throws Exception {
        Double before = stages.run("first", () -> 1.0, rate -> "one");
        Double failed = stages.run("huge tenant", () -> {
            throw new IllegalStateException("could not write the bench's raw transactions");
        }, rate -> "never");
        assertEquals(1.0, before);
        assertNull(failed);
        assertEquals(new BenchStages.Failure("huge tenant", "java.lang.IllegalStateException: could not write the bench's raw transactions"),
                stages.failure());
        assertEquals("  FAILED: java.lang.IllegalStateException: could not write the bench's raw transactions", lines().get(3));
    }

    @Test
    void theStagesAfterAFailedOneAreSkipped() throws Exception {
        AtomicInteger measured = new AtomicInteger();
        stages.run("fails", () -> {
            throw new java.io.IOException("broker gone");
        }, rate -> "never");
        Integer after = stages.run("after", measured::incrementAndGet, count -> "ran");
        assertNull(after);
        assertEquals(0, measured.get());
        assertEquals(new BenchStages.Failure("fails", "java.io.IOException: broker gone"), stages.failure());
    }

    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
