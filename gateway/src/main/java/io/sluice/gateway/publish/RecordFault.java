package io.sluice.gateway.publish;

import java.util.concurrent.CompletionException;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * A publish Kafka refused for the record itself, not for the state of the brokers: a retry gets
 * the same answer, so the client is told so (4xx) and the refusal is not a sign of Kafka failing
 * ({@link PublishHealth} does not count it).
 */
public final class RecordFault {
    private RecordFault() {
    }

    /** Whether Kafka refused the record for what it is (its size, its contents, its timestamp). */
    public static boolean isRecords(Throwable error) {
        Throwable cause = cause(error);
        return tooLarge(cause) || cause instanceof InvalidRecordException || cause instanceof InvalidTimestampException;
    }

    /** The refusal to answer for an error that {@link #isRecords is the record's}. */
    public static Rejection refusal(Throwable error) {
        Throwable cause = cause(error);
        return tooLarge(cause)
                ? new Rejection(Outcome.BODY_TOO_LARGE, "an item is larger than Kafka takes as one record")
                : new Rejection(Outcome.INVALID_FIELD, "Kafka refused an item's record: " + cause.getMessage());
    }

    private static Throwable cause(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static boolean tooLarge(Throwable cause) {
        return cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException;
    }
}
