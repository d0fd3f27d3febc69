package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Requests not authenticated yet hold at most a quarter of the read workers' places; the tenants keep the rest. */
class ReadWorkersTest {
    private final CountDownLatch busy = new CountDownLatch(1);
    private final ReadWorkers workers = new ReadWorkers(1, 8);

    @AfterEach
    void close() {
        busy.countDown();
        workers.close();
    }

    @Test
    void strangersFillOnlyTheirShareAndTheTenantsStillFindPlaces() {
        workers.execute(this::holdTheWorker); // the one worker reads a tenant's body: the rest waits
        workers.forStrangers().execute(() -> { });
        workers.forStrangers().execute(() -> { });
        assertThrows(RejectedExecutionException.class, () -> workers.forStrangers().execute(() -> { }));
        for (int i = 0; i < 6; i++) {
            workers.execute(() -> { }); // the queue's other 6 places
        }
        assertThrows(RejectedExecutionException.class, () -> workers.execute(() -> { }));
    }

    @Test
    void aStrangersPlaceIsFreeAgainOnceItsBodyWasRead() throws Exception {
        workers.forStrangers().execute(() -> { });
        workers.forStrangers().execute(() -> { });
        CountDownLatch bothRead = new CountDownLatch(1);
        workers.execute(bothRead::countDown); // the one worker runs it once it is done with both
        bothRead.await();
        workers.execute(this::holdTheWorker);
        workers.forStrangers().execute(() -> { });
        workers.forStrangers().execute(() -> { });
        assertThrows(RejectedExecutionException.class, () -> workers.forStrangers().execute(() -> { }));
    }

    private void holdTheWorker() {
        try {
            busy.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
