package io.sluice.gateway.scrub;

/** Told what the {@link Scrubber} removed from each event (one it refuses as grown too large tells nothing): the gateway's metric. */
@FunctionalInterface
public interface ScrubCounter {
    ScrubCounter NONE = (rule, values) -> { };

    /** {@code values} removals under {@code rule} (one of a few fixed rule names), as the event's record counts them. */
    void removed(String rule, int values);
}
