package io.sluice.processor.parse;

import java.util.concurrent.atomic.LongAdder;

import io.sluice.events.FieldsHeader;
import io.sluice.events.FieldsHeader.Unread;

/**
 * How many input records had their fields read from their JSON rather than from the gateway's
 * {@link FieldsHeader}, by kind and why: so an operator sees that an older gateway still sends
 * ({@code no_header}) or that a rolling upgrade is not over ({@code other_version}). Shared by the
 * stream threads; counting one is an increment, nothing allocated. Counted when the parser reads
 * the record, so a task that aborts its transaction may count a record again when it reprocesses it.
 */
public final class RecordsReadFromJson {
    /** The raw topic a record came from. */
    public enum Kind {
        TRANSACTION("transaction"),
        ERROR("error");

        private final String tag;

        Kind(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    private static final int REASONS = Unread.values().length;

    private final LongAdder[] counts = new LongAdder[Kind.values().length * REASONS];

    public RecordsReadFromJson() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    void add(Kind kind, Unread why) {
        counts[index(kind, why)].increment();
    }

    /** Records of {@code kind} read from their JSON for this reason so far. */
    public long count(Kind kind, Unread why) {
        return counts[index(kind, why)].sum();
    }

    private static int index(Kind kind, Unread why) {
        return kind.ordinal() * REASONS + why.ordinal();
    }
}
