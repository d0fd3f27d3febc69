package io.sluice.gateway.quota;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.config.KafkaSettings;
import io.sluice.gateway.admit.QuotaShares;
import io.sluice.kafka.KafkaClients;

/**
 * Shares every quota between the gateways through Kafka, which they all reach: every
 * {@link #INTERVAL} each gateway publishes how many events each quota was asked for here lately
 * ({@link RecentDemand}, in a {@link UsageReport} on the quota usage topic; a gateway asked for nothing
 * says so every {@link #IDLE_INTERVAL}), reads every gateway's reports (all partitions,
 * no consumer group), and takes the part of each quota its own traffic is of the quota's
 * ({@link QuotaSplit}). Nothing to set per deployment: a gateway that starts is counted from its
 * first report, one that stops says so, one that dies ages out.
 *
 * <p>Its own reports read back are the proof that the shared state works. When none has come
 * back for {@link #STALE_AFTER} (the topic unreachable, gone, or not readable), it never refuses
 * more because of that: each quota is split evenly over the gateways last known, and
 * {@link #fallbackReason()} says so for /readyz and the metrics. One thread does all the Kafka
 * work; the request path only counts and reads a map.
 */
public final class SharedQuotas implements QuotaShares, AutoCloseable {
    /** How often gateways publish their demand. */
    public static final Duration INTERVAL = Duration.ofMillis(250);
    /** A gateway not heard from for this long is no longer counted (it died without saying so). */
    static final Duration FORGET_AFTER = INTERVAL.multipliedBy(6);
    /**
     * How often a gateway asked for nothing lately reports it: twice within the time the others remember it,
     * where a report every {@link #INTERVAL} would tell them nothing new.
     */
    static final Duration IDLE_INTERVAL = FORGET_AFTER.dividedBy(2);
    /** With no report of its own read back for this long, a gateway splits quotas over the gateways last known. */
    static final Duration STALE_AFTER = Duration.ofSeconds(3);
    /**
     * How long a quota's demand is remembered: reports carry each interval's counts plus the earlier
     * ones decayed by e^(-t/this), so parts stay split through quiet spells of a few seconds.
     */
    static final Duration DEMAND_TIME_CONSTANT = Duration.ofMillis(750);
    /**
     * How long after it begins reading a report of its own must have been sent for its reading back
     * to prove this gateway's view current: every gateway there reports within it.
     */
    static final Duration VIEW_SPAN = INTERVAL.multipliedBy(2);
    /** Dropped reports are logged at most once in this long, with how many. */
    static final Duration REFUSED_LOG_INTERVAL = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(SharedQuotas.class);

    private final String id = UUID.randomUUID().toString();
    private final byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
    private final String topic;
    private final Producer<byte[], byte[]> producer;
    private final Consumer<byte[], byte[]> consumer;
    private final LongSupplier nanoClock;
    private final QuotaSplit split = new QuotaSplit(FORGET_AFTER.toNanos());
    private final Thread follower;
    private final CountDownLatch firstReadBack = new CountDownLatch(1);
    private final AskedCounts asking = new AskedCounts();
    private final RecentDemand demand = new RecentDemand(INTERVAL, DEMAND_TIME_CONSTANT);
    private volatile Parts parts = new Parts(Map.of(), 1);
    private volatile int lastKnownGateways = 1;
    private volatile long lastReadBackNanos;
    private volatile boolean stale;
    private volatile String lastError = "none yet";
    private volatile boolean closing;
    /** Whether the follower reads the topic, and since when, by {@code nanoClock}: its own thread's. */
    private boolean reading;
    private long readingSinceNanos;
    /** When its last report was sent, and whether that report asked for nothing: the follower's. */
    private long reportedNanos;
    private boolean reportedNothing;
    /** Offset of its first report sent {@link #VIEW_SPAN} after reading began, -1 until acknowledged. */
    private final AtomicLong viewCurrentFrom = new AtomicLong(-1);
    private long refusedUnlogged;
    private long refusedLoggedNanos;
    private boolean refusedLogged;
    private final LongAdder reportsPublished = new LongAdder();
    private final LongAdder reportBytesPublished = new LongAdder();
    private final LongAdder reportsRead = new LongAdder();
    private final LongAdder reportsRefused = new LongAdder();

    /** This gateway's part of each quota it was asked for, and of every other. */
    private record Parts(Map<String, Double> byQuota, double otherwise) {
    }

    public SharedQuotas(KafkaSettings kafka) {
        this(kafka.topics().quotaUsage(), new KafkaProducer<>(producerProperties(kafka), new ByteArraySerializer(),
                new ByteArraySerializer()), new KafkaConsumer<>(consumerProperties(kafka), new ByteArrayDeserializer(),
                new ByteArrayDeserializer()), System::nanoTime);
    }

    SharedQuotas(String topic, Producer<byte[], byte[]> producer, Consumer<byte[], byte[]> consumer, LongSupplier nanoClock) {
        this.topic = topic;
        this.producer = producer;
        this.consumer = consumer;
        this.nanoClock = nanoClock;
        this.lastReadBackNanos = nanoClock.getAsLong();
        this.follower = new Thread(this::follow, "sluice-quota-sync");
        this.follower.setDaemon(true);
        this.follower.start();
    }

    private static Properties producerProperties(KafkaSettings kafka) {
        Properties props = KafkaClients.producerProperties(kafka, "sluice-gateway-quotas");
        // A lost report is replaced by the next one: no idempotence, one replica's word, and never
        // a wait of the sync thread for long when the topic is not there.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "200");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "2000");
        return props;
    }

    private static Properties consumerProperties(KafkaSettings kafka) {
        Properties props = KafkaClients.consumerProperties(kafka, "sluice-gateway-quotas", Duration.ofSeconds(5));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        return props;
    }

    @Override
    public double shareOf(String quotaKey) {
        Parts now = parts;
        return now.byQuota().getOrDefault(quotaKey, now.otherwise());
    }

    @Override
    public void asked(String quotaKey) {
        asking.asked(quotaKey);
    }

    /**
     * Waits until a report of its own sent {@link #VIEW_SPAN} after it began reading is read back (its view of the
     * others is then current); false after {@code timeout}.
     */
    public boolean awaitFollowing(Duration timeout) throws InterruptedException {
        return firstReadBack.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Why quotas are split evenly over the gateways last known instead of shared, or null while shared. */
    public String fallbackReason() {
        if (!stale) {
            return null;
        }
        int gateways = lastKnownGateways;
        return "quotas are not shared between gateways: no report of this gateway's came back from " + topic + " for "
                + Duration.ofNanos(nanoClock.getAsLong() - lastReadBackNanos).toSeconds() + " s (last error: " + lastError
                + "); each quota is split evenly over the " + gateways + " gateway" + (gateways == 1 ? "" : "s")
                + " last known, 1/" + gateways + " here";
    }

    public boolean fallback() {
        return stale;
    }

    /** The gateways sharing the quotas, this one included, as last known. */
    public int gateways() {
        return lastKnownGateways;
    }

    public long reportsPublished() {
        return reportsPublished.sum();
    }

    public long reportBytesPublished() {
        return reportBytesPublished.sum();
    }

    public long reportsRead() {
        return reportsRead.sum();
    }

    /** Reports of other gateways dropped as read: malformed, or with a count no gateway writes. */
    public long reportsRefused() {
        return reportsRefused.sum();
    }

    private void follow() {
        try {
            long nextTick = nanoClock.getAsLong();
            while (!closing) {
                if (!reading) {
                    reading = assign();
                }
                long now = nanoClock.getAsLong();
                if (now - nextTick >= 0) {
                    tick(now);
                    nextTick = Math.max(nextTick + INTERVAL.toNanos(), now);
                }
                long wait = Math.max(1_000_000, nextTick - nanoClock.getAsLong());
                if (!reading) {
                    sleepNanos(wait);
                    continue;
                }
                try {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofNanos(wait))) {
                        read(record);
                    }
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // The topic deleted, a partition gone: assign again, from its latest reports.
                    lastError = e.toString();
                    reading = false;
                    sleepNanos(INTERVAL.toNanos());
                }
            }
        } catch (WakeupException e) {
            if (!closing) {
                LOG.error("quota sync stopped", e);
            }
        } catch (RuntimeException e) {
            lastError = e.toString();
            stale = true;
            LOG.error("quota sync stopped: quotas are split evenly over the {} gateways last known from now on", lastKnownGateways, e);
        } finally {
            try {
                consumer.close(Duration.ofSeconds(1));
            } catch (RuntimeException e) {
                LOG.debug("closing the quota usage consumer: {}", e.toString());
            }
        }
    }

    /**
     * Reads from the end of the topic; false while the topic is not to be found. Not from a time
     * back: a record's time is its writer's clock, and one gateway's clock ahead would take a seek
     * by time back to reports of gateways long gone, each then counted as there. The others are
     * known once a report of its own sent {@link #VIEW_SPAN} later comes back (one partition: all
     * sent before it were read).
     */
    private boolean assign() {
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(2)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            if (partitions.isEmpty()) {
                lastError = "topic " + topic + " not found";
                return false;
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            // The end as of now, not of the first poll: the view's span starts here.
            partitions.forEach(p -> consumer.position(p, Duration.ofSeconds(2)));
            readingSinceNanos = nanoClock.getAsLong();
            viewCurrentFrom.set(-1);
            return true;
        } catch (WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            lastError = e.toString();
            return false;
        }
    }

    private void read(ConsumerRecord<byte[], byte[]> record) {
        long now = nanoClock.getAsLong();
        reportsRead.increment();
        if (record.key() == null) {
            return;
        }
        String gateway = new String(record.key(), StandardCharsets.UTF_8);
        if (gateway.equals(id)) {
            lastReadBackNanos = now;
            long currentFrom = viewCurrentFrom.get();
            if (currentFrom >= 0 && record.offset() >= currentFrom) {
                firstReadBack.countDown();
            }
            return;
        }
        try {
            split.received(UsageReport.read(gateway, record.value()), now);
        } catch (IllegalArgumentException e) {
            refused(gateway, e.getMessage(), now);
        }
    }

    /** Counts a dropped report; logs at most once per {@link #REFUSED_LOG_INTERVAL}, naming the gateway, never a quota. */
    private void refused(String gateway, String why, long now) {
        reportsRefused.increment();
        refusedUnlogged++;
        if (!refusedLogged || now - refusedLoggedNanos >= REFUSED_LOG_INTERVAL.toNanos()) {
            LOG.warn("dropped {} quota usage report(s) of other gateways since the last such line, the last of gateway {}: {}",
                    refusedUnlogged, printable(gateway), why);
            refusedUnlogged = 0;
            refusedLoggedNanos = now;
            refusedLogged = true;
        }
    }

    /** A gateway id as read, for a log line: at most 64 characters, any but printable ASCII as '?'. */
    private static String printable(String gateway) {
        StringBuilder text = new StringBuilder(Math.min(gateway.length(), 64));
        gateway.codePoints().limit(64).forEach(c -> text.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
        return text.toString();
    }

    /** Publishes its recent demand and takes this gateway's parts from it and the others' latest. */
    private void tick(long now) {
        Map<String, Integer> mine = demand.next(asking.drain());
        boolean provesView = firstReadBack.getCount() > 0 && reading && now - readingSinceNanos >= VIEW_SPAN.toNanos();
        // Idle since its last report: the others know it asks for nothing, and a report now and then keeps it counted.
        boolean idle = mine.isEmpty() && reportedNothing && firstReadBack.getCount() == 0;
        if (!idle || now - reportedNanos >= IDLE_INTERVAL.toNanos()) {
            publish(new UsageReport(id, false, mine), provesView);
            reportedNanos = now;
            reportedNothing = mine.isEmpty();
        }
        boolean wasStale = stale;
        stale = now - lastReadBackNanos > STALE_AFTER.toNanos();
        if (stale != wasStale) {
            if (stale) {
                LOG.warn("{}", fallbackReason());
            } else {
                LOG.info("quotas are shared between gateways again ({} read back)", topic);
            }
        }
        if (stale) {
            parts = new Parts(Map.of(), 1.0 / lastKnownGateways);
        } else {
            // As of the last report of its own read back: with nothing read since, no one is forgotten.
            long asOf = lastReadBackNanos;
            lastKnownGateways = split.gateways(asOf);
            parts = new Parts(split.parts(mine, asOf), 1);
        }
    }

    /** Sends the report; with {@code provesView}, its offset, once acknowledged, is the one whose reading back proves the view. */
    private void publish(UsageReport report, boolean provesView) {
        byte[] value = report.value();
        try {
            producer.send(new ProducerRecord<>(topic, idBytes, value), (metadata, error) -> {
                if (error != null) {
                    lastError = error.toString();
                } else if (provesView) {
                    viewCurrentFrom.compareAndSet(-1, metadata.offset());
                }
            });
            reportsPublished.increment();
            reportBytesPublished.add(value.length + idBytes.length);
        } catch (RuntimeException e) {
            lastError = e.toString();
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops following and tells the others this gateway leaves, so its part goes to them at once. */
    @Override
    public void close() {
        closing = true;
        consumer.wakeup();
        try {
            follower.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            producer.send(new ProducerRecord<>(topic, idBytes, new UsageReport(id, true, Map.of()).value()))
                    .get(1, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debug("could not say this gateway leaves the quotas: {}", e.toString());
        }
        producer.close(Duration.ofSeconds(1));
    }
}
