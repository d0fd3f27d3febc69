package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The restored store's ids reach the filter slice by slice: all of them, from every span. */
class StoreScanTest {
    private static final Duration HORIZON = Duration.ofHours(24);
    private static final long SPAN = WindowStores.segmentInterval(HORIZON.plusMinutes(2));
    private static final long RETENTION = HORIZON.plus(ProcessorTopology.DEFAULT_LATE_MARGIN).toMillis();
    private static final long T0 = 1_795_000_000_000L;

    @TempDir
    Path stateDir;
    private WindowStore<String, Long> store;
    private final SeenIdsFilter filter = new SeenIdsFilter(SPAN, RETENTION, new FilterMemory(64L * 1024 * 1024));

    @BeforeEach
    void openStore() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "store-scan-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir.toFile());
        store = Stores.windowStoreBuilder(WindowStores.plain("seen", Duration.ofMillis(RETENTION), Duration.ofMillis(1),
                HORIZON.plusMinutes(2)), Serdes.String(), Serdes.Long()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void anEmptyStoreNeedsNoScan() {
        assertNull(StoreScan.of(store, filter, SPAN, RETENTION));
    }

    @Test
    void everyIdOfEverySpanReachesTheFilterInSlices() {
        int ids = 2 * StoreScan.SLICE_IDS + 123;
        for (int i = 0; i < ids; i++) {
            long receivedAt = T0 + (i % 3) * SPAN; // three spans
            store.put("shop/" + i, receivedAt, receivedAt);
        }
        StoreScan scan = StoreScan.of(store, filter, SPAN, RETENTION);
        int slices = 1;
        while (!scan.readSlice()) {
            slices++;
        }
        filter.complete();
        assertTrue(slices >= 3, slices + " slices");
        for (int i = 0; i < ids; i++) {
            assertTrue(filter.mightContain("shop/" + i), "id " + i);
        }
        assertTrue(scan.idsRead() >= ids, scan.idsRead() + " read");
    }

    @Test
    void aSliceReadsNoMoreThanItsShare() {
        for (int i = 0; i < StoreScan.SLICE_IDS + 1; i++) {
            store.put("shop/" + i, T0, T0);
        }
        StoreScan scan = StoreScan.of(store, filter, SPAN, RETENTION);
        assertFalse(scan.readSlice());
        assertEquals(StoreScan.SLICE_IDS, scan.idsRead());
        assertTrue(scan.readSlice());
    }
}
