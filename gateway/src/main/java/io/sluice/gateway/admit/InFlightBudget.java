package io.sluice.gateway.admit;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.sluice.outcomes.Outcome;

/**
 * The bytes of requests the gateway holds at once (bodies being received or published, and
 * their decompressed form), bounded in total and per client, so memory stays bounded under
 * overload and one client (one address) can hold only its share. A request that does not fit
 * gets 503 with Retry-After. Shared by all connections; the total is the in-flight gauge.
 */
public final class InFlightBudget {
    private final long maxBytes;
    private final long maxBytesPerClient;
    private final AtomicLong total;
    /** Bytes held per client; a client holding nothing has no entry, so this is as small as the requests in flight. */
    private final Map<InetAddress, Long> perClient = new ConcurrentHashMap<>();

    public InFlightBudget(long maxBytes, long maxBytesPerClient, AtomicLong total) {
        this.maxBytes = maxBytes;
        this.maxBytesPerClient = maxBytesPerClient;
        this.total = total;
    }

    /** Reserves {@code bytes} for one request of this client, or throws 503 {@code overloaded}. */
    public Reservation reserve(InetAddress client, long bytes) {
        Reservation reservation = new Reservation(client);
        reservation.extend(bytes);
        return reservation;
    }

    /** The budget's total bound. */
    public long maxBytes() {
        return maxBytes;
    }

    /** Bytes held now. */
    public long heldBytes() {
        return total.get();
    }

    /** Clients holding bytes now. */
    int clientsHolding() {
        return perClient.size();
    }

    private boolean take(InetAddress client, long bytes) {
        if (!takeForClient(client, bytes)) {
            return false;
        }
        // Take only what fits: a compare-and-set loop, so the total never exceeds the budget,
        // not even for a moment.
        long current;
        do {
            current = total.get();
            if (current + bytes > maxBytes) {
                giveForClient(client, bytes);
                return false;
            }
        } while (!total.compareAndSet(current, current + bytes));
        return true;
    }

    private void give(InetAddress client, long bytes) {
        total.addAndGet(-bytes);
        giveForClient(client, bytes);
    }

    private boolean takeForClient(InetAddress client, long bytes) {
        if (!capsClients() || client == null) {
            return true;
        }
        boolean[] taken = {false};
        perClient.compute(client, (key, held) -> {
            long now = held == null ? 0 : held;
            if (now + bytes > maxBytesPerClient) {
                return held;
            }
            taken[0] = true;
            // A client holding nothing keeps no entry (an empty body takes 0 bytes and gives none back).
            return now + bytes == 0 ? null : now + bytes;
        });
        return taken[0];
    }

    private void giveForClient(InetAddress client, long bytes) {
        if (capsClients() && client != null && bytes > 0) {
            perClient.computeIfPresent(client, (key, held) -> held - bytes <= 0 ? null : held - bytes);
        }
    }

    private boolean capsClients() {
        return maxBytesPerClient < maxBytes;
    }

    /**
     * One request's share, from its head until its answer is written: what it announced, plus
     * what it takes once decompressed. Used on the connection's event loop only.
     */
    public final class Reservation {
        private final InetAddress client;
        private long bytes;

        private Reservation(InetAddress client) {
            this.client = client;
        }

        /** Takes {@code more} bytes for the same request, or throws 503 {@code overloaded}. */
        public void extend(long more) {
            if (!take(client, more)) {
                throw new Rejection(Outcome.OVERLOADED,
                        "the gateway is at its limit of requests in flight (in total or for this client); retry later");
            }
            bytes += more;
        }

        /** Gives back everything this request holds. */
        public void release() {
            give(client, bytes);
            bytes = 0;
        }

        public long bytes() {
            return bytes;
        }
    }
}
