package io.sluice.cli.deadletters;

import java.time.Duration;
import java.time.Instant;

import io.sluice.config.KafkaSettings;

/** How many dead letters were written since a time: {@code ./sluice doctor}'s line. */
public final class DeadLetterCount {
    private DeadLetterCount() {
    }

    public static long since(KafkaSettings kafka, Duration timeout, Instant since) {
        long[] count = new long[1];
        try (DeadLetterReader reader = new DeadLetterReader(kafka, timeout)) {
            reader.readSince(since, letter -> count[0]++);
        }
        return count[0];
    }
}
