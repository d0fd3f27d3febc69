package io.sluice.gateway.publish;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.fatal.FatalErrors;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.OutcomeRow;
import io.sluice.outcomes.QualifiedOutcome;
import io.sluice.projects.ProjectRegistry;

/**
 * Counts what happened to every request per project, {@link Outcome} and minute, in memory, and
 * publishes the absolute counts of this gateway every interval to the outcomes topic, as
 * {@link OutcomeRow}s; the processor's sink writes them to {@code sluice.outcomes_1m}. So a
 * platform can tell a tenant exactly what was dropped and why. Requests naming an unknown token
 * count under the project "" (so garbage tokens cannot grow the table). At most {@code maxRows}
 * keys are counted by project; past that, a new key's count goes to the project
 * {@link #OVERFLOW_PROJECT} (same outcome and minute), so a total is never less than it was:
 * a count still growing is never forgotten (it would restart at 0, and its row, absolute, would
 * then go down).
 */
public final class Outcomes implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Outcomes.class);
    private static final long KEEP_MINUTES = 5;
    /**
     * Rows counted by project at most: about 2 MB. Filled by a long outage, or by more than this
     * many (project, outcome) pairs in a minute; beyond it, new keys count under {@link #OVERFLOW_PROJECT}.
     */
    private static final int MAX_ROWS = 10_000;
    /**
     * The project of counts that found the table full: not a token (tokens are URL-safe base64),
     * so it names no tenant; its rows keep the outcome and minute.
     */
    public static final String OVERFLOW_PROJECT = "(overflow)";
    /** Rows sent and not yet acknowledged at most, so a backlog does not crowd the events out of the producer. */
    private static final int MAX_ROWS_ON_THEIR_WAY = 1_000;

    private final String gatewayId = UUID.randomUUID().toString().substring(0, 8);
    private final Predicate<String> knownToken;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Map<Key, LongAdder> counts = new ConcurrentHashMap<>();
    /** The count Kafka acknowledged per key: set in the send's callback, never before. */
    private final Map<Key, Long> published = new ConcurrentHashMap<>();
    /** The count being sent per key, so a flush does not send it again while it is on its way. */
    private final Map<Key, Long> sending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher;
    private final LongSupplier clock;
    private final int maxRows;
    private final int maxRowsOnTheirWay;
    private final LongAdder droppedRows = new LongAdder();
    private final LongAdder overflowEvents = new LongAdder();
    private final LongAdder failedSends = new LongAdder();

    /** @param outcome the wire code, plain or qualified */
    private record Key(String project, String outcome, long minute) {
    }

    private static final Comparator<Key> OLDEST_FIRST = Comparator.comparingLong(Key::minute)
            .thenComparing(Key::project).thenComparing(Key::outcome);

    public Outcomes(ProjectRegistry registry, Producer<byte[], byte[]> producer, String topic, Duration every) {
        // A project refused for an unreadable record is still a project: its refusals count under it.
        this(registry::isKnown, producer, topic, every); // known, readable or not: no record decoded per outcome
    }

    Outcomes(Predicate<String> knownToken, Producer<byte[], byte[]> producer, String topic, Duration every) {
        this(knownToken, producer, topic, every, System::currentTimeMillis, MAX_ROWS, MAX_ROWS_ON_THEIR_WAY);
    }

    Outcomes(Predicate<String> knownToken, Producer<byte[], byte[]> producer, String topic, Duration every,
             LongSupplier clock, int maxRows, int maxRowsOnTheirWay) {
        this.knownToken = knownToken;
        this.clock = clock;
        this.maxRows = maxRows;
        this.maxRowsOnTheirWay = maxRowsOnTheirWay;
        this.producer = producer;
        this.topic = topic;
        this.flusher = FatalErrors.singleThreadScheduler("sluice-outcomes");
        flusher.scheduleWithFixedDelay(this::flush, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** @param token the token in the request's path, or null when there was none */
    public void record(String token, Outcome outcome) {
        add(token, outcome.code(), 1);
    }

    /**
     * Counts {@code quantity} of a qualified outcome (what an SDK reports it dropped, items not
     * stored); its qualifier is sanitized, so clients cannot grow the table beyond bounded words.
     */
    public void record(String token, QualifiedOutcome outcome, long quantity) {
        if (quantity > 0) {
            add(token, outcome.code(), quantity);
        }
    }

    private void add(String token, String code, long quantity) {
        String project = token != null && knownToken.test(token) ? token : "";
        long minute = clock.getAsLong() / 60_000 * 60;
        Key key = new Key(project, code, minute);
        LongAdder count = counts.get(key);
        if (count == null) {
            if (counts.size() >= maxRows) {
                // Full: this key's count goes under the overflow project (at most one key per outcome
                // and minute beyond the bound). Existing keys keep counting.
                key = new Key(OVERFLOW_PROJECT, code, minute);
                overflowEvents.add(quantity);
            }
            count = counts.computeIfAbsent(key, k -> new LongAdder());
        }
        count.add(quantity);
    }

    /**
     * Sends the counts that Kafka has not acknowledged yet, oldest minute first, with at most
     * {@code maxRowsOnTheirWay} rows on their way at once (so a backlog after an outage does not
     * crowd the events out of the producer's buffer). Rows are absolute counts (the sink keeps the
     * highest version per key), so a count whose send failed is simply sent again with a later
     * flush, and sending one twice cannot count anything twice. Forgets minutes long past once
     * their last count is acknowledged; with {@code maxRows} rows kept, every acknowledged row of
     * a past minute (they no longer grow), and beyond it (a long Kafka outage) the oldest even
     * unacknowledged, with a warning and {@link #droppedRows}; never a row of this minute or the
     * last, which may still grow.
     */
    void flush() {
        long oldest = clock.getAsLong() / 60_000 * 60 - KEEP_MINUTES * 60;
        try {
            counts.keySet().removeIf(key -> key.minute() < oldest && Long.valueOf(counts.get(key).sum()).equals(published.get(key)));
            published.keySet().removeIf(key -> !counts.containsKey(key));
            dropOldestBeyondBound();
            int room = maxRowsOnTheirWay - sending.size();
            if (room <= 0) {
                return;
            }
            List<Key> due = new ArrayList<>();
            counts.forEach((key, count) -> {
                long total = count.sum();
                if (total != published.getOrDefault(key, -1L) && !sending.containsKey(key)) {
                    due.add(key);
                }
            });
            due.sort(OLDEST_FIRST);
            for (Key key : due.subList(0, Math.min(room, due.size()))) {
                send(key, counts.get(key).sum());
            }
        } catch (RuntimeException e) {
            LOG.warn("could not publish outcome counts to {} (will retry): {}", topic, e.toString());
        }
    }

    private void send(Key key, long total) {
        OutcomeRow row = new OutcomeRow(key.project(), key.minute(), key.outcome(), gatewayId, total, total);
        sending.put(key, total);
        try {
            producer.send(new ProducerRecord<>(topic, row.key(), row.json()),
                    (metadata, error) -> acknowledged(key, total, error));
        } catch (RuntimeException e) {
            acknowledged(key, total, e);
        }
    }

    private void dropOldestBeyondBound() {
        if (counts.size() < maxRows) {
            return;
        }
        // A request that read the clock just before the minute turned may still count in the last one.
        long growingFrom = clock.getAsLong() / 60_000 * 60 - 60;
        // Full: acknowledged rows of past minutes no longer grow and are in Kafka: all go, making room for new keys.
        counts.keySet().removeIf(key -> key.minute() < growingFrom && acknowledged(key) && published.remove(key) != null);
        int excess = counts.size() - maxRows;
        if (excess <= 0) {
            return;
        }
        List<Key> past = new ArrayList<>(counts.keySet().stream().filter(key -> key.minute() < growingFrom).toList());
        past.sort(OLDEST_FIRST);
        long unpublished = 0;
        for (Key key : past.subList(0, Math.min(excess, past.size()))) {
            LongAdder count = counts.remove(key);
            if (count != null && !Long.valueOf(count.sum()).equals(published.remove(key))) {
                unpublished++;
            }
        }
        if (unpublished > 0) {
            droppedRows.add(unpublished);
            LOG.warn("Kafka has not acknowledged outcome counts for a while: dropped the {} oldest unpublished rows "
                    + "(at most {} are kept; {} dropped since start)", unpublished, maxRows, droppedRows.sum());
        }
    }

    private boolean acknowledged(Key key) {
        LongAdder count = counts.get(key);
        return count != null && Long.valueOf(count.sum()).equals(published.get(key));
    }

    /** Events counted under {@link #OVERFLOW_PROJECT} because {@code maxRows} keys were already counted. */
    public long overflowEvents() {
        return overflowEvents.sum();
    }

    /** Rows of outcome counts forgotten before Kafka acknowledged them (a long outage). */
    public long droppedRows() {
        return droppedRows.sum();
    }

    private void acknowledged(Key key, long total, Exception error) {
        sending.remove(key, total);
        if (error == null) {
            published.merge(key, total, Math::max);
        } else {
            failedSends.increment();
            LOG.debug("outcome count not published to {} (sent again with the next flush): {}", topic, error.toString());
        }
    }

    @Override
    public void close() {
        flusher.shutdown();
        try {
            flusher.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Two rounds: a count on its way is not sent again until acknowledged, so a count that grew
        // meanwhile goes out only once the producer's flush has run the first round's callbacks.
        // Not when Kafka failed the first: the second would wait out another delivery timeout for nothing.
        long failedBefore = failedSends.sum();
        flush();
        producer.flush();
        if (failedSends.sum() == failedBefore) {
            flush();
            producer.flush();
        }
    }
}
