package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests not authenticated yet hold at most a quarter of the read workers' places; the tenants keep
 * the rest. Once the workers stop, no body is dropped: each waiting, or handed over later, is answered unread.
 */
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

    @Test
    void stoppingAnswersEveryBodyWaitingUnread() throws Exception {
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch reading = new CountDownLatch(1);
        workers.execute(() -> {
            reading.countDown();
            holdTheWorker();
        });
        reading.await();
        workers.execute(new ReadWorkers.Read(() -> done.add("tenant's read"), () -> done.add("tenant's answered unread")));
        workers.forStrangers().execute(new ReadWorkers.Read(() -> done.add("stranger's read"),
                () -> done.add("stranger's answered unread")));

        assertEquals(2, workers.stop());

        assertEquals(List.of("tenant's answered unread", "stranger's answered unread"), done);
    }

    @Test
    void aBodyHandedOverOnceTheWorkersStoppedIsAnsweredUnreadAtOnce() {
        List<String> done = new ArrayList<>();
        workers.stop();

        workers.execute(new ReadWorkers.Read(() -> done.add("tenant's read"), () -> done.add("tenant's answered unread")));
        workers.forStrangers().execute(new ReadWorkers.Read(() -> done.add("stranger's read"),
                () -> done.add("stranger's answered unread")));

        assertEquals(List.of("tenant's answered unread", "stranger's answered unread"), done);
    }

    private void holdTheWorker() {
        try {
            busy.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
