package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import io.sluice.gateway.ingest.Rejection;

class InFlightBudgetTest {
    private final AtomicLong total = new AtomicLong();
    private final InFlightBudget budget = new InFlightBudget(1000, 400, total);

    @Test
    void aGiveBackRacingTheReleaseGivesNothingBackTwice() throws Exception {
        // A worker gives back a brotli ring while the event loop releases the reservation as its
        // connection closes: whatever the interleaving, every byte comes back exactly once.
        InFlightBudget large = new InFlightBudget(1L << 40, 1L << 39, total);
        InetAddress client = InetAddress.getByName("10.0.0.1");
        int wrong = 0;
        for (int i = 0; i < 20_000; i++) {
            InFlightBudget.Reservation reservation = holding(large, client, "p", 1_000);
            reservation.extend(4_000_000);
            CyclicBarrier both = new CyclicBarrier(2);
            Thread loop = new Thread(() -> {
                await(both);
                reservation.release();
            });
            loop.start();
            await(both);
            reservation.giveBack(4_000_000);
            loop.join();
            if (total.get() != 0) {
                wrong++;
                total.set(0);
            }
        }
        assertEquals(0, wrong, "rounds after which the budget's total was not 0");
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void oneClientHoldsAtMostItsShareWhileOthersStillFit() throws Exception {
        InetAddress hog = InetAddress.getByName("203.0.113.7");
        holding(budget, hog, null, 300);
        InFlightBudget.Reservation more = budget.expect(hog, null, 0);
        assertEquals("overloaded", assertThrows(Rejection.class, () -> more.extend(101)).code());
        holding(budget, InetAddress.getByName("198.51.100.9"), null, 400);
        assertEquals(700, total.get(), "a refused extension takes nothing");
        assertEquals(0, more.bytes());
    }

    @Test
    void theTotalIsCappedAcrossClients() throws Exception {
        holding(budget, InetAddress.getByName("10.0.0.1"), null, 400);
        holding(budget, InetAddress.getByName("10.0.0.2"), null, 400);
        InetAddress third = InetAddress.getByName("10.0.0.3");
        InFlightBudget.Reservation refused = budget.expect(third, null, 0);
        assertEquals("overloaded", assertThrows(Rejection.class, () -> refused.extend(201)).code());
        assertEquals(200, holding(budget, third, null, 200).bytes());
        assertEquals(1000, total.get());
    }

    @Test
    void anExtendedReservationGivesEverythingBackAndLeavesNoEntry() throws Exception {
        InFlightBudget.Reservation reservation = holding(budget, InetAddress.getByName("10.0.0.1"), null, 100);
        reservation.extend(250);
        assertThrows(Rejection.class, () -> reservation.extend(51));
        assertEquals(350, reservation.bytes());
        reservation.release();
        assertEquals(0, total.get());
        assertEquals(0, budget.clientsHolding());
    }

    @Test
    void aRequestDeclaringAnEmptyBodyLeavesNoEntryOnceAnswered() throws Exception {
        for (int i = 1; i <= 3; i++) {
            holding(budget, InetAddress.getByName("2001:db8:" + i + "::"), null, 0).release();
        }
        assertEquals(0, budget.clientsHolding());
        assertEquals(0, total.get());
    }

    @Test
    void oneProjectHoldsAtMostItsShareFromAnyAddress() throws Exception {
        InFlightBudget shared = new InFlightBudget(1000, 1000, 300, total);
        holding(shared, InetAddress.getByName("10.0.0.1"), "hog", 200);
        InFlightBudget.Reservation refused = shared.expect(InetAddress.getByName("10.0.0.2"), "hog", 0);
        assertEquals("overloaded", assertThrows(Rejection.class, () -> refused.extend(101)).code());
        InFlightBudget.Reservation other = holding(shared, InetAddress.getByName("10.0.0.2"), "tenant", 300);
        assertEquals(500, total.get(), "a refused extension takes nothing");
        other.release();
        assertEquals(1, shared.projectsHolding());
    }

    @Test
    void anAnnouncedSizeHoldsNothingButIsRefusedWhenItCannotFitNowOrEver() throws Exception {
        InFlightBudget shared = new InFlightBudget(1000, 1000, 300, total);
        InFlightBudget.Reservation announced = shared.expect(InetAddress.getByName("10.0.0.1"), "hog", 300);
        assertEquals(0, total.get(), "announcing takes nothing");
        announced.extend(250); // as the body arrives
        assertEquals("overloaded", assertThrows(Rejection.class,
                () -> shared.expect(InetAddress.getByName("10.0.0.2"), "hog", 51)).code());
        assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> shared.expect(InetAddress.getByName("10.0.0.2"), "tenant", 301)).code());
        shared.expect(InetAddress.getByName("10.0.0.2"), "hog", 50);
        assertEquals(250, total.get());
    }

    /**
     * The defaults scaled down: 64 units in flight, each project a share of 32 (as the 64 MiB
     * budget and 32 MiB shares). Two public DSN keys used to hold all of it.
     */
    @Test
    void twoProjectsSaturatingTheBudgetCannotStarveAThird() throws Exception {
        InFlightBudget shared = new InFlightBudget(64_000, 64_000, 32_000, total);
        long first = saturate(shared, "first-hog");
        long second = saturate(shared, "second-hog");
        assertEquals(32_000, first);
        assertEquals(24_000, second, "the last eighth (8,000) is the reserve");
        assertEquals(4_000, saturate(shared, "tenant"), "half the reserve: as much stays free as the tenant holds");
        assertEquals(2_000, saturate(shared, "another tenant"), "half of what is left, and so on: never nothing");
        assertEquals("overloaded", assertThrows(Rejection.class,
                () -> holding(shared, InetAddress.getByName("10.0.0.1"), "first-hog", 1)).code(), "the hogs get no more");
        assertEquals(62_000, total.get());
    }

    @Test
    void aProjectAloneMayHoldAllButTheReserve() throws Exception {
        InFlightBudget shared = new InFlightBudget(64_000, 64_000, 64_000, total);
        assertEquals(56_000, saturate(shared, "alone"));
        assertEquals(56_000, shared.maxBytesPerProject());
        assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> shared.expect(InetAddress.getByName("10.0.0.1"), "another", 56_001)).code(), "it could never hold more");
    }

    @Test
    void theReserveIsTheTenantsAgainOnceTheyAnswered() throws Exception {
        InFlightBudget shared = new InFlightBudget(64_000, 64_000, 64_000, total);
        saturate(shared, "hog");
        InFlightBudget.Reservation tenant = holding(shared, InetAddress.getByName("10.0.0.2"), "tenant", 4_000);
        tenant.release();
        assertEquals(4_000, holding(shared, InetAddress.getByName("10.0.0.3"), "next tenant", 4_000).bytes());
    }

    /** Takes 1,000 bytes at a time, in requests from many addresses, until the project is refused; what it holds. */
    private static long saturate(InFlightBudget budget, String project) throws Exception {
        long held = 0;
        for (int i = 0; ; i++) {
            try {
                holding(budget, InetAddress.getByName("10.1." + (i / 250) + "." + (i % 250)), project, 1_000);
                held += 1_000;
            } catch (Rejection refused) {
                assertEquals("overloaded", refused.code());
                return held;
            }
        }
    }

    /**
     * A request holding {@code bytes} of body, as the gateway makes one: a reservation from its head
     * (no size announced, as for a chunked body), then its bytes taken as they arrive.
     */
    /** A body read on a worker may outlive its connection, whose close released its reservation. */
    @Test
    void aReleasedReservationTakesNothingMore() throws Exception {
        InFlightBudget.Reservation reservation = holding(budget, InetAddress.getByName("10.0.0.1"), null, 100);
        reservation.release();
        assertEquals("overloaded", assertThrows(Rejection.class, () -> reservation.extend(50)).code());
        assertEquals(0, total.get());
        assertEquals(0, budget.clientsHolding());
    }

    static InFlightBudget.Reservation holding(InFlightBudget budget, InetAddress client, String project, long bytes) {
        InFlightBudget.Reservation reservation = budget.expect(client, project, 0);
        reservation.extend(bytes);
        return reservation;
    }
}
