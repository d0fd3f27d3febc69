package io.sluice.gateway.otlp;

import io.sluice.gateway.admit.InFlightBudget;

/**
 * The memory reading an export holds beyond its body (its spans decoded, the events made of
 * them), taken from its request's in-flight reservation: 413 when the request could never hold
 * it, 503 when it does not fit now (exporters retry a 503).
 */
final class HeldBytes {
    /** Counted nowhere (tests, tools). */
    static final HeldBytes NONE = new HeldBytes(null);

    private final InFlightBudget.Reservation reservation;

    HeldBytes(InFlightBudget.Reservation reservation) {
        this.reservation = reservation;
    }

    void take(long bytes) {
        if (reservation != null && bytes > 0) {
            reservation.extend(bytes);
        }
    }

    void giveBack(long bytes) {
        if (reservation != null && bytes > 0) {
            reservation.giveBack(bytes);
        }
    }
}
