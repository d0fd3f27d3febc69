package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The read workers take the projects in turn (the one read least recently first), so a project
 * flooding them delays another's body by one read, not by its whole queue. Each project, and the
 * requests not authenticated yet together, hold at most a quarter of the places; the others keep
 * the rest. Once the workers stop, no body is dropped: each waiting, or handed over later, is
 * answered unread.
 */
class ReadWorkersTest {
    private final CountDownLatch busy = new CountDownLatch(1);
    /** One worker, 8 places: a project's share is 2. */
    private final ReadWorkers workers = new ReadWorkers(1, 8);
    /** One worker, 64 places: a project's share is 16. */
    private final ReadWorkers roomy = new ReadWorkers(1, 64);

    @AfterEach
    void close() {
        busy.countDown();
        workers.close();
        roomy.close();
    }

    @Test
    void anotherProjectsBodyIsReadBeforeTheRestOfAFloodingProjectsBodies() throws Exception {
        List<String> read = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allRead = new CountDownLatch(5);
        holdTheWorker(roomy, "flood");
        for (int i = 2; i <= 5; i++) {
            String name = "flood " + i;
            roomy.execute(body("flood", () -> {
                read.add(name);
                allRead.countDown();
            }));
        }
        roomy.execute(body("other", () -> {
            read.add("other 1");
            allRead.countDown();
        }));

        busy.countDown();
        assertTrue(allRead.await(30, TimeUnit.SECONDS));
        assertEquals(List.of("other 1", "flood 2", "flood 3", "flood 4", "flood 5"), read);
    }

    @Test
    void projectsWithBodiesWaitingAreReadInTurn() throws Exception {
        List<String> read = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allRead = new CountDownLatch(6);
        holdTheWorker(roomy, "a");
        for (String project : List.of("a", "a", "b", "b", "c", "c")) {
            roomy.execute(body(project, () -> {
                read.add(project);
                allRead.countDown();
            }));
        }

        busy.countDown();
        assertTrue(allRead.await(30, TimeUnit.SECONDS));
        assertEquals(List.of("b", "c", "a", "b", "c", "a"), read, "a was read last when b and c came: it waits for their turns");
    }

    @Test
    void aProjectFillsOnlyItsShareAndTheOthersStillFindPlaces() throws Exception {
        holdTheWorker(workers, "flood"); // being read: one of its 2 places
        workers.execute(body("flood", () -> { }));
        assertThrows(RejectedExecutionException.class, () -> workers.execute(body("flood", () -> { })));
        for (int i = 0; i < 7; i++) {
            workers.execute(body("other " + (i % 4), () -> { })); // the queue's other 7 places
        }
        assertThrows(RejectedExecutionException.class, () -> workers.execute(body("another", () -> { })));
    }

    @Test
    void strangersFillOnlyTheirShareAndTheTenantsStillFindPlaces() throws Exception {
        holdTheWorker(workers, "tenant"); // the one worker reads a tenant's body: the rest waits
        workers.execute(stranger(() -> { }));
        workers.execute(stranger(() -> { }));
        assertThrows(RejectedExecutionException.class, () -> workers.execute(stranger(() -> { })));
        for (int i = 0; i < 6; i++) {
            workers.execute(body("tenant " + (i % 3), () -> { })); // the queue's other 6 places
        }
        assertThrows(RejectedExecutionException.class, () -> workers.execute(body("tenant 4", () -> { })));
    }

    @Test
    void aStrangersPlaceIsFreeAgainOnceItsBodyWasRead() throws Exception {
        CountDownLatch bothRead = new CountDownLatch(2);
        workers.execute(stranger(bothRead::countDown));
        workers.execute(stranger(bothRead::countDown));
        assertTrue(bothRead.await(30, TimeUnit.SECONDS));
        CountDownLatch afterBoth = new CountDownLatch(1);
        workers.execute(body("tenant", afterBoth::countDown)); // the one worker takes it once it is done with both
        assertTrue(afterBoth.await(30, TimeUnit.SECONDS));
        holdTheWorker(workers, "tenant");
        workers.execute(stranger(() -> { }));
        workers.execute(stranger(() -> { }));
        assertThrows(RejectedExecutionException.class, () -> workers.execute(stranger(() -> { })));
    }

    @Test
    void aProjectsWaitForItsTurnCountsFromItsLastTurnNotFromItsOldestBody() throws Exception {
        AtomicLong clock = new AtomicLong();
        try (ReadWorkers timed = new ReadWorkers(1, 64, clock::get)) {
            holdTheWorker(timed, "flood"); // taken at 0
            CountDownLatch secondHeld = new CountDownLatch(1);
            CountDownLatch secondReading = new CountDownLatch(1);
            timed.execute(body("flood", () -> {
                secondReading.countDown();
                awaitQuietly(secondHeld);
            }));
            timed.execute(body("flood", () -> { }));
            clock.set(Duration.ofSeconds(4).toNanos());
            assertEquals(Duration.ofSeconds(4).toNanos(), timed.longestTurnWaitNanos(), "held since its turn at 0");

            busy.countDown(); // the worker takes the second body at 4 s
            assertTrue(secondReading.await(30, TimeUnit.SECONDS));
            clock.set(Duration.ofSeconds(6).toNanos());
            assertEquals(Duration.ofSeconds(2).toNanos(), timed.longestTurnWaitNanos(), "its third body is 6 s old, its turn 2 s");
            secondHeld.countDown();
        }
    }

    @Test
    void stoppingAnswersEveryBodyWaitingUnread() throws Exception {
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        holdTheWorker(workers, "tenant");
        workers.execute(new ReadWorkers.Read("tenant", () -> done.add("tenant's read"), () -> done.add("tenant's answered unread")));
        workers.execute(new ReadWorkers.Read(null, () -> done.add("stranger's read"), () -> done.add("stranger's answered unread")));

        assertEquals(2, workers.stop());

        assertEquals(Set.of("tenant's answered unread", "stranger's answered unread"), Set.copyOf(done));
    }

    @Test
    void aBodyHandedOverOnceTheWorkersStoppedIsAnsweredUnreadAtOnce() {
        List<String> done = new ArrayList<>();
        workers.stop();

        workers.execute(new ReadWorkers.Read("tenant", () -> done.add("tenant's read"), () -> done.add("tenant's answered unread")));
        workers.execute(new ReadWorkers.Read(null, () -> done.add("stranger's read"), () -> done.add("stranger's answered unread")));

        assertEquals(List.of("tenant's answered unread", "stranger's answered unread"), done);
    }

    private static ReadWorkers.Read body(String project, Runnable read) {
        return new ReadWorkers.Read(project, read, () -> { });
    }

    private static ReadWorkers.Read stranger(Runnable read) {
        return new ReadWorkers.Read(null, read, () -> { });
    }

    /** Holds the one worker of {@code readers} with a body of {@code project} until the test ends, once it took it. */
    private void holdTheWorker(ReadWorkers readers, String project) throws InterruptedException {
        CountDownLatch reading = new CountDownLatch(1);
        readers.execute(body(project, () -> {
            reading.countDown();
            holdTheWorker();
        }));
        assertTrue(reading.await(30, TimeUnit.SECONDS));
    }

    private void holdTheWorker() {
        awaitQuietly(busy);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
