package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.bench.process.CpuClock;
import io.sluice.bench.process.ProcStat;

/**
 * The sink alone and the direct inserts of the same rows each are charged their own threads' CPU, told by
 * their names from the rest of the bench's JVM (the broker's, above all).
 */
class SinkThroughputTest {
    /** The bench's JVM while the sink runs, its threads named as Kafka names them; 12 s of CPU in all. */
    private static final CpuClock BENCH = new CpuClock("bench", List.of(SinkThroughput.SINK, SinkThroughput.DIRECT_INSERT),
            () -> List.of(new ProcStat("sink-alone", 300), new ProcStat("kafka-coordinator-heartbeat-thread | sink-alone-1733", 20),
                    new ProcStat("kafka-producer-network-thread | sink-alone-1733-dead-letters", 10), new ProcStat("direct-insert", 150),
                    new ProcStat("kafka-producer-network-thread | sink-bench-producer", 40),
                    new ProcStat("data-plane-kafka-request-handler-0", 500)), () -> 12.0);

    @Test
    void theSinkIsChargedItsThreadItsConsumersHeartbeatAndItsDeadLetterProducer() {
        assertEquals(3.3, BENCH.read().get("sink"), 1e-9);
    }

    @Test
    void theDirectInsertIsChargedItsOwnThreadOnly() {
        assertEquals(1.5, BENCH.read().get("direct insert"), 1e-9);
    }
}
