package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class InFlightBudgetTest {
    private final AtomicLong total = new AtomicLong();
    private final InFlightBudget budget = new InFlightBudget(1000, 400, total);

    @Test
    void oneClientHoldsAtMostItsShareWhileOthersStillFit() throws Exception {
        InetAddress hog = InetAddress.getByName("203.0.113.7");
        budget.reserve(hog, 300);
        assertEquals("overloaded", assertThrows(Rejection.class, () -> budget.reserve(hog, 101)).code());
        budget.reserve(InetAddress.getByName("198.51.100.9"), 400);
        assertEquals(700, total.get(), "a refused reservation takes nothing");
    }

    @Test
    void theTotalIsCappedAcrossClients() throws Exception {
        budget.reserve(InetAddress.getByName("10.0.0.1"), 400);
        budget.reserve(InetAddress.getByName("10.0.0.2"), 400);
        InetAddress third = InetAddress.getByName("10.0.0.3");
        assertEquals("overloaded", assertThrows(Rejection.class, () -> budget.reserve(third, 201)).code());
        assertEquals(0, budget.reserve(third, 200).bytes() - 200);
        assertEquals(1000, total.get());
    }

    @Test
    void anExtendedReservationGivesEverythingBackAndLeavesNoEntry() throws Exception {
        InFlightBudget.Reservation reservation = budget.reserve(InetAddress.getByName("10.0.0.1"), 100);
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
            budget.reserve(InetAddress.getByName("2001:db8:" + i + "::"), 0).release();
        }
        assertEquals(0, budget.clientsHolding());
        assertEquals(0, total.get());
    }

    @Test
    void oneProjectHoldsAtMostItsShareFromAnyAddress() throws Exception {
        InFlightBudget shared = new InFlightBudget(1000, 1000, 300, total);
        shared.reserve(InetAddress.getByName("10.0.0.1"), "hog", 200);
        assertEquals("overloaded", assertThrows(Rejection.class,
                () -> shared.reserve(InetAddress.getByName("10.0.0.2"), "hog", 101)).code());
        InFlightBudget.Reservation other = shared.reserve(InetAddress.getByName("10.0.0.2"), "tenant", 300);
        assertEquals(500, total.get(), "a refused reservation takes nothing");
        other.release();
        assertEquals(0, shared.projectsHolding() - 1);
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
}
