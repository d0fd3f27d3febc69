package io.sluice.events;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a Sentry {@code session} or {@code sessions} item counts, read the same way by the gateway
 * (which refuses what is invalid) and the processor (which counts it), following Relay's session
 * metrics. Each count has an id under which it counts once: the processor's first sighting drops
 * a count whose id it saw, so
 * <ul>
 * <li>a session update counts each of its session's kinds once, whatever its other updates say:
 *     {@code started} from an update with {@code init: true}; {@code errored} from an update with
 *     {@code errors > 0} or any status but {@code ok} and {@code exited}: {@code errored},
 *     {@code crashed}, {@code abnormal}, {@code unhandled} (an unhandled error that did not crash)
 *     or one not yet known (Relay's set of errored session ids); {@code crashed} and
 *     {@code abnormal} from the update with that status; {@code exited} from an update with status
 *     {@code exited} and no error (Sentry's healthy sessions). Ids: the session's id and the kind;</li>
 * <li>a {@code sessions} aggregate counts as given, each bucket once: its {@code errored} with its
 *     crashed, abnormal and unhandled sessions added, as a session's. Ids: the item's and the bucket's index.</li>
 * </ul>
 * Every count is in the hour its session started.
 */
public final class SessionItems {
    /** The item types. */
    public static final String SESSION = "session";
    public static final String SESSIONS = "sessions";
    /** The statuses of a session without error (Relay's): any other, {@code unhandled} or one not yet known, is an error. */
    private static final Set<String> WITHOUT_ERROR = Set.of("ok", "exited");
    /** The latest start time read as epoch seconds: its milliseconds fit a long. */
    private static final BigDecimal MAX_EPOCH_SECONDS = BigDecimal.valueOf(Long.MAX_VALUE / 1000);
    /**
     * The largest count a bucket's field may give (Relay reads them as u32): a bucket then starts
     * at most 4 × this, so no bucket's sum overflows, and a row's version holds its generation
     * (the processor's sums saturate beyond).
     */
    public static final long MAX_COUNT = 0xFFFF_FFFFL;
    /**
     * The most buckets one {@code sessions} item may hold: an SDK sends a bucket per minute (or
     * hour) started since its last flush, a few; more would let one item (one quota unit) make
     * thousands of counts, each an id the processor keeps to count it once.
     */
    public static final int MAX_BUCKETS = 100;

    /** What a session is counted as: the column of sessions_1h it adds to. */
    public enum Kind {
        STARTED, ERRORED, CRASHED, ABNORMAL, EXITED
    }

    /**
     * One count: {@code count} sessions of {@code kind} that started at {@code startedMillis}, of a
     * release and environment; counted once under {@code id}.
     */
    public record Count(String id, long startedMillis, String environment, String release, Kind kind, long count) {
    }

    private SessionItems() {
    }

    /**
     * What an item counts (an update that counts nothing, status {@code ok} and no error, gives none).
     *
     * @param itemId   the id the gateway gave the item: a session update's is its session's id
     * @throws InvalidFieldException when it has no release, a status that is no string, a count below 0 or above {@link #MAX_COUNT},
     *                               more than {@link #MAX_BUCKETS} buckets,
     *                               or a session id or start time that cannot be read
     */
    public static List<Count> counts(String type, JsonNode item, String itemId) {
        JsonNode attrs = item.path("attrs");
        String release = release(attrs);
        String environment = text(attrs, "environment");
        List<Count> counts = new ArrayList<>();
        if (SESSIONS.equals(type)) {
            JsonNode buckets = item.get("aggregates");
            if (buckets == null || !buckets.isArray()) {
                throw new InvalidFieldException("aggregates", "'aggregates' must be a list of session counts");
            }
            if (buckets.size() > MAX_BUCKETS) {
                throw new InvalidFieldException("aggregates", "'aggregates' may hold at most " + MAX_BUCKETS + " buckets, got "
                        + buckets.size() + "; send the rest in another sessions item");
            }
            for (int i = 0; i < buckets.size(); i++) {
                JsonNode bucket = buckets.get(i);
                long started = time(bucket, "started");
                String prefix = itemId + '/' + i + '/';
                long exited = count(bucket, "exited", MAX_COUNT);
                long errored = count(bucket, "errored", MAX_COUNT);
                long abnormal = count(bucket, "abnormal", MAX_COUNT);
                long crashed = count(bucket, "crashed", MAX_COUNT);
                long unhandled = count(bucket, "unhandled", MAX_COUNT);
                add(counts, prefix, started, environment, release, Kind.STARTED, exited + errored + abnormal + unhandled + crashed);
                add(counts, prefix, started, environment, release, Kind.ERRORED, errored + abnormal + unhandled + crashed);
                add(counts, prefix, started, environment, release, Kind.CRASHED, crashed);
                add(counts, prefix, started, environment, release, Kind.ABNORMAL, abnormal);
                add(counts, prefix, started, environment, release, Kind.EXITED, exited);
            }
            return counts;
        }
        long started = time(item, "started");
        String status = item.has("status") ? text(item, "status") : "ok";
        long errors = item.has("errors") ? count(item, "errors", Long.MAX_VALUE) : 0;
        String prefix = itemId + '/';
        boolean init = item.path("init").asBoolean(false);
        add(counts, prefix, started, environment, release, Kind.STARTED, init ? 1 : 0);
        boolean errored = errors > 0 || !WITHOUT_ERROR.contains(status);
        add(counts, prefix, started, environment, release, Kind.ERRORED, errored ? 1 : 0);
        add(counts, prefix, started, environment, release, Kind.CRASHED, status.equals("crashed") ? 1 : 0);
        add(counts, prefix, started, environment, release, Kind.ABNORMAL, status.equals("abnormal") ? 1 : 0);
        add(counts, prefix, started, environment, release, Kind.EXITED, status.equals("exited") && !errored ? 1 : 0);
        return counts;
    }

    /** A session update's session id ({@code sid}), as sent; null when it has none. */
    public static String sessionId(JsonNode item) {
        JsonNode sid = item.get("sid");
        return sid != null && sid.isTextual() ? sid.textValue() : null;
    }

    /** When the item's earliest counted session started, in epoch milliseconds; the item must be valid ({@link #counts}). */
    public static long startedMillis(List<Count> counts, long otherwise) {
        return counts.stream().mapToLong(Count::startedMillis).min().orElse(otherwise);
    }

    private static void add(List<Count> counts, String prefix, long started, String environment, String release, Kind kind,
                            long count) {
        if (count > 0) {
            counts.add(new Count(prefix + kind.name().toLowerCase(java.util.Locale.ROOT), started, environment, release, kind, count));
        }
    }

    private static String release(JsonNode attrs) {
        String release = text(attrs, "release");
        if (release.isBlank()) {
            throw new InvalidFieldException("attrs.release", "a session must name its release in 'attrs.release'");
        }
        return release;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (SentryFields.isAbsent(value)) {
            return "";
        }
        if (!value.isTextual()) {
            throw new InvalidFieldException(field, "'" + field + "' must be a string, got " + SentryFields.abbreviate(value));
        }
        return value.textValue();
    }

    private static long count(JsonNode node, String field, long max) {
        JsonNode value = node.get(field);
        if (SentryFields.isAbsent(value)) {
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0 || value.longValue() > max) {
            throw new InvalidFieldException(field, "'" + field + "' must be a count (an integer from 0 to " + max + "), got "
                    + SentryFields.abbreviate(value));
        }
        return value.longValue();
    }

    /** An ISO 8601 time (Sentry's SDKs) or epoch seconds, in epoch milliseconds (rounded half up). */
    private static long time(JsonNode node, String field) {
        JsonNode value = node.get(field);
        try {
            // Bounded before rounding, so that 1e999999999 is never expanded.
            BigDecimal seconds = value != null && value.isNumber() ? value.decimalValue() : null;
            if (seconds != null && seconds.signum() >= 0 && seconds.compareTo(MAX_EPOCH_SECONDS) <= 0) {
                return seconds.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
            }
            if (value != null && value.isTextual()) {
                return OffsetDateTime.parse(value.textValue().strip(), DateTimeFormatter.ISO_DATE_TIME).toInstant().toEpochMilli();
            }
        } catch (DateTimeException | ArithmeticException | NumberFormatException unreadable) {
            // refused below
        }
        throw new InvalidFieldException(field, "'" + field + "' must be an ISO 8601 time or epoch seconds, got "
                + (value == null ? "nothing" : SentryFields.abbreviate(value)));
    }
}
