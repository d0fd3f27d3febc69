package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The processor's rate is counted over its backlog alone, from a fifth into it, after the records that warmed it. */
class ProcessorBacklogTest {
    private final PipelineResults.Backlog backlog = new PipelineResults.Backlog(45_000, 600_000);

    @Test
    void theClockStartsAFifthIntoTheBacklogAfterTheRecordsThatWarmedTheProcessor() {
        assertEquals(165_000, backlog.clockStartsAt());
    }

    @Test
    void theBacklogIsWorkedOffWhenTheRecordsBeforeItAndItsOwnAreStored() {
        assertEquals(645_000, backlog.end());
    }
}
