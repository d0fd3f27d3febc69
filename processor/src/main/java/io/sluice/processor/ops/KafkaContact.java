package io.sluice.processor.ops;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * When a Kafka broker last answered this processor, and whether it has been silent too long for
 * the processor to be ready. Kafka Streams stays RUNNING while no broker answers (its threads
 * retry), so its state alone keeps {@code /readyz} 200 through an outage. {@link InputLag} asks a
 * broker every second and records each answer here.
 */
public final class KafkaContact {
    /**
     * Silence longer than this is an outage. Longer than a broker's restart, a leader election or a
     * rebalance (none of which stops brokers answering), so those do not flap readiness; the same
     * 30 s as the README's alert on the lag ages.
     */
    public static final Duration UNREACHABLE_AFTER = Duration.ofSeconds(30);

    private final Duration bound;
    private final LongSupplier nanoTime;
    private final long createdNanos;
    /** When a broker last answered (nanoTime); null until one has. */
    private volatile Long answeredNanos;

    public KafkaContact() {
        this(UNREACHABLE_AFTER, System::nanoTime);
    }

    KafkaContact(Duration bound, LongSupplier nanoTime) {
        this.bound = bound;
        this.nanoTime = nanoTime;
        this.createdNanos = nanoTime.getAsLong();
    }

    /** A broker answered. */
    public void answered() {
        answeredNanos = nanoTime.getAsLong();
    }

    /**
     * Why the processor is not ready, while no broker has answered for longer than the bound. At
     * startup the silence counts from when this was created (the processor's start, which has just
     * reached Kafka to set up its topics): the first answer comes within a second, and until the
     * bound passes a start is not an outage (Streams not RUNNING yet says why it is not ready).
     */
    public Optional<String> unreachable() {
        long now = nanoTime.getAsLong();
        Long answered = answeredNanos;
        long silentNanos = now - (answered == null ? createdNanos : answered);
        if (silentNanos <= bound.toNanos()) {
            return Optional.empty();
        }
        long seconds = Duration.ofNanos(silentNanos).toSeconds();
        return Optional.of(answered == null
                ? "Kafka unreachable: no broker has answered since the processor started " + seconds + " s ago"
                : "Kafka unreachable: no broker has answered for " + seconds + " s");
    }
}
