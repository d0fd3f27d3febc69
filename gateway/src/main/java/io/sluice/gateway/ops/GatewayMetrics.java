package io.sluice.gateway.ops;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyEventExecutorMetrics;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.channel.EventLoopGroup;
import io.netty.util.internal.PlatformDependent;
import io.sluice.metrics.Buckets;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.metrics.Scrape;
import io.sluice.outcomes.Outcome;

/**
 * The gateway's metrics, in its Micrometer registry, exposed in Prometheus formats on the admin
 * port beside the JVM's, Netty's and the Kafka producer's. Labels are bounded sets (endpoint,
 * status, reason): never a project token or a key.
 */
public final class GatewayMetrics implements AutoCloseable {
    private final PrometheusMetrics prometheus = new PrometheusMetrics();
    private final MeterRegistry registry = prometheus.registry();
    /** Meters by label value(s): a registry lookup builds an id each time, this does not on the request path. */
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejections = new ConcurrentHashMap<>();
    private final Map<String, Counter> bytesIn = new ConcurrentHashMap<>();
    private final Map<String, Counter> scrubbed = new ConcurrentHashMap<>();
    private final Timer requestDuration = Timer.builder("sluice.gateway.request.duration")
            .description("Time from full request to answer.").serviceLevelObjectives(Buckets.LATENCY).register(registry);
    private final Timer produceDuration = Timer.builder("sluice.gateway.kafka.produce.duration")
            .description("Time from send to Kafka's acknowledgement.").serviceLevelObjectives(Buckets.LATENCY).register(registry);
    private final AtomicLong inFlightRequests = new AtomicLong();
    private final AtomicLong inFlightBytes = new AtomicLong();
    private final AtomicLong unauthenticatedInFlightBytes = new AtomicLong();
    private final AtomicLong openConnections = new AtomicLong();
    private final AtomicLong unsentAnswerBytes = new AtomicLong();
    private volatile LongSupplier registrySkips = () -> 0;
    private volatile LongSupplier outcomeRowsDropped = () -> 0;
    private volatile BooleanSupplier publishFailing = () -> false;
    private volatile LongSupplier unreadableProjects = () -> 0;
    private volatile LongSupplier registryProjects = () -> 0;
    private volatile LongSupplier registryIndexBytes = () -> 0;
    private volatile LongSupplier registryRecordBytes = () -> 0;
    private volatile LongSupplier outcomeOverflowEvents = () -> 0;
    private volatile BooleanSupplier quotasFallback = () -> false;
    private volatile LongSupplier quotaGateways = () -> 1;
    private volatile LongSupplier quotaReports = () -> 0;
    private volatile LongSupplier quotaReportBytes = () -> 0;
    private volatile LongSupplier quotaReportsRefused = () -> 0;

    public GatewayMetrics() {
        Gauge.builder("sluice.gateway.in.flight.requests", inFlightRequests, AtomicLong::get)
                .description("Requests waiting for Kafka.").register(registry);
        Gauge.builder("sluice.gateway.in.flight.bytes", inFlightBytes, AtomicLong::get)
                .description("Bytes of requests admitted and not yet answered.").register(registry);
        Gauge.builder("sluice.gateway.unauthenticated.in.flight.bytes", unauthenticatedInFlightBytes, AtomicLong::get)
                .description("Bytes of envelopes held before their dsn header is checked (a budget of their own).")
                .register(registry);
        Gauge.builder("sluice.gateway.open.connections", openConnections, AtomicLong::get)
                .description("Open client connections.").register(registry);
        Gauge.builder("sluice.gateway.unsent.answer.bytes", unsentAnswerBytes, AtomicLong::get)
                .description("Bytes of answers written and not yet taken by their connections' sockets (clients not reading).")
                .register(registry);
        FunctionCounter.builder("sluice.gateway.registry.skipped.records", this, metrics -> metrics.registrySkips.getAsLong())
                .description("Malformed project registry records skipped.").register(registry);
        FunctionCounter.builder("sluice.gateway.outcome.rows.dropped", this, metrics -> metrics.outcomeRowsDropped.getAsLong())
                .description("Outcome count rows dropped unpublished (Kafka down too long).").register(registry);
        Gauge.builder("sluice.gateway.publish.failing", this, metrics -> metrics.publishFailing.getAsBoolean() ? 1 : 0)
                .description("1 while this gateway's publishes to Kafka fail: a run of failures and no success (see /readyz).")
                .register(registry);
        FunctionCounter.builder("sluice.gateway.outcome.overflow.events", this, metrics -> metrics.outcomeOverflowEvents.getAsLong())
                .description("Events counted under the outcomes' project '(overflow)': the gateway's table of outcome counts was full.")
                .register(registry);
        Gauge.builder("sluice.gateway.registry.unreadable.projects", this, metrics -> metrics.unreadableProjects.getAsLong())
                .description("Projects refused (503 project_unavailable) because their latest registry record is malformed.")
                .register(registry);
        Gauge.builder("sluice.gateway.registry.projects", this, metrics -> metrics.registryProjects.getAsLong())
                .description("Projects the registry can find (enabled or not; unreadable ones left out).").register(registry);
        Gauge.builder("sluice.gateway.registry.index.bytes", this, metrics -> metrics.registryIndexBytes.getAsLong())
                .baseUnit("bytes").description("Heap the registry's slots and indexes take.").register(registry);
        Gauge.builder("sluice.gateway.registry.record.bytes", this, metrics -> metrics.registryRecordBytes.getAsLong())
                .baseUnit("bytes").description("Project records written to the registry's memory-mapped file since start, "
                        + "superseded versions included: it grows with every change of a project until the gateway restarts.")
                .register(registry);
        Gauge.builder("sluice.gateway.quota.fallback", this, metrics -> metrics.quotasFallback.getAsBoolean() ? 1 : 0)
                .description("1 while the shared quota usage is unreachable: each quota is split evenly over the gateways last known (see /readyz).")
                .register(registry);
        Gauge.builder("sluice.gateway.quota.gateways", this, metrics -> metrics.quotaGateways.getAsLong())
                .description("Gateways sharing the quotas, this one included, as this gateway last knew them.").register(registry);
        FunctionCounter.builder("sluice.gateway.quota.reports", this, metrics -> metrics.quotaReports.getAsLong())
                .description("Quota usage reports this gateway published (one per interval).").register(registry);
        FunctionCounter.builder("sluice.gateway.quota.report.bytes", this, metrics -> metrics.quotaReportBytes.getAsLong())
                .baseUnit("bytes").description("Bytes of quota usage reports this gateway published (keys and values).").register(registry);
        FunctionCounter.builder("sluice.gateway.quota.reports.refused", this, metrics -> metrics.quotaReportsRefused.getAsLong())
                .description("Other gateways' quota usage reports dropped as read: malformed, or with a negative count (logged at most once a minute).")
                .register(registry);
    }

    /** One answered request: its endpoint ({@code transaction}, {@code project} or {@code other}) and status. */
    public void answered(String endpoint, int status, long startNanos) {
        requests.computeIfAbsent(endpoint + ' ' + status, key -> Counter.builder("sluice.gateway.requests")
                .description("Answered requests by endpoint and HTTP status.")
                .tag("endpoint", endpoint).tag("status", Integer.toString(status)).register(registry)).increment();
        requestDuration.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    public void rejected(Outcome reason) {
        rejections.computeIfAbsent(reason.code(), code -> Counter.builder("sluice.gateway.rejections")
                .description("Refused requests by reason (the error code).").tag("reason", code).register(registry)).increment();
    }

    /** Values the scrubber removed from events under {@code rule} (a few fixed names: bounded labels). */
    public void scrubbed(String rule, int values) {
        scrubbed.computeIfAbsent(rule, key -> Counter.builder("sluice.gateway.scrubbed.values")
                .description("Values removed from events by data scrubbing before publishing, by rule (as the events' sluice_scrubbed records count them).")
                .tag("rule", rule).register(registry)).increment(values);
    }

    public void received(String endpoint, long bytes) {
        bytesIn.computeIfAbsent(endpoint, key -> Counter.builder("sluice.gateway.received.bytes")
                .description("Request body bytes as sent, by endpoint.").tag("endpoint", endpoint).register(registry)).increment(bytes);
    }

    public void produced(long startNanos) {
        produceDuration.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    public AtomicLong inFlightRequests() {
        return inFlightRequests;
    }

    public AtomicLong inFlightBytes() {
        return inFlightBytes;
    }

    /** Bytes held by envelopes whose only credential is their dsn header, not yet checked (their own budget). */
    public AtomicLong unauthenticatedInFlightBytes() {
        return unauthenticatedInFlightBytes;
    }

    public AtomicLong unsentAnswerBytes() {
        return unsentAnswerBytes;
    }

    public AtomicLong openConnections() {
        return openConnections;
    }

    /** Where the count of malformed registry records skipped comes from. */
    public void countRegistrySkips(LongSupplier skipped) {
        this.registrySkips = skipped;
    }

    /** Where {@code sluice_gateway_publish_failing} comes from: whether this gateway's publishes fail now (see /readyz). */
    public void watchPublishing(BooleanSupplier failing) {
        this.publishFailing = failing;
    }

    /** Where the number of projects refused for a malformed latest registry record comes from. */
    public void countUnreadableProjects(LongSupplier unreadable) {
        this.unreadableProjects = unreadable;
    }

    /** The registry's size: projects it can find, heap of its indexes, bytes of records in its file (off the heap). */
    public void watchRegistry(LongSupplier projects, LongSupplier indexBytes, LongSupplier recordBytes) {
        this.registryProjects = projects;
        this.registryIndexBytes = indexBytes;
        this.registryRecordBytes = recordBytes;
    }

    /** Where the count of events counted under the outcomes' overflow project comes from. */
    public void countOutcomeOverflow(LongSupplier overflow) {
        this.outcomeOverflowEvents = overflow;
    }

    /**
     * Where the shared quotas' state comes from: fallback (split evenly), gateways known, reports and their bytes
     * published, others' reports dropped as read.
     */
    public void watchQuotas(BooleanSupplier fallback, LongSupplier gateways, LongSupplier reports, LongSupplier reportBytes,
                            LongSupplier reportsRefused) {
        this.quotasFallback = fallback;
        this.quotaGateways = gateways;
        this.quotaReports = reports;
        this.quotaReportBytes = reportBytes;
        this.quotaReportsRefused = reportsRefused;
    }

    /** Each event loop's lag: how late its heartbeat is ({@code sluice_gateway_event_loop_lag_seconds{loop}}, loop 1 first). */
    public void watchEventLoops(EventLoopHeartbeats heartbeats) {
        for (int i = 0; i < heartbeats.loops(); i++) {
            int loop = i;
            Gauge.builder("sluice.gateway.event.loop.lag", heartbeats, beats -> beats.lagNanos(loop) / 1e9).baseUnit("seconds")
                    .description("How late the event loop runs its heartbeat (a task every 0.5 s): a task held it that long, or a backlog (see /readyz).")
                    .tag("loop", Integer.toString(loop + 1)).register(registry);
        }
    }

    /** The read workers: the longest a project has waited for its turn, and the bodies waiting. */
    public void watchReadWorkers(LongSupplier turnWaitNanos, IntSupplier waiting) {
        Gauge.builder("sluice.gateway.read.turn.wait", turnWaitNanos, nanos -> nanos.getAsLong() / 1e9).baseUnit("seconds")
                .description("The longest a project with bodies waiting for the read workers has waited for its turn (see /readyz).")
                .register(registry);
        Gauge.builder("sluice.gateway.read.waiting.bodies", waiting, IntSupplier::getAsInt)
                .description("Large or compressed bodies waiting for a read worker.").register(registry);
    }

    /** Where the count of outcome rows dropped before Kafka acknowledged them comes from. */
    public void countOutcomeRowsDropped(LongSupplier dropped) {
        this.outcomeRowsDropped = dropped;
    }

    /**
     * Netty's meters: pending tasks per event loop ({@code netty_eventexecutor_tasks_pending},
     * label {@code group} acceptor or workers), the buffer allocator's heap and direct memory
     * ({@code netty_allocator_memory_used}) and, when Netty counts it, all the direct memory it
     * allocated ({@code netty_direct_memory_used_bytes}). Call off the event loops: naming a
     * loop's thread waits for the loop to start.
     */
    public void bindNetty(EventLoopGroup acceptor, EventLoopGroup workers) {
        prometheus.bind(new NettyEventExecutorMetrics(acceptor, Tags.of("group", "acceptor")));
        prometheus.bind(new NettyEventExecutorMetrics(workers, Tags.of("group", "workers")));
        if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider allocator) {
            prometheus.bind(new NettyAllocatorMetrics(allocator));
        }
        // -1 when Netty leaves direct memory to the JDK's cleaner (then jvm_buffer_memory_used_bytes{id="direct"} has it).
        if (PlatformDependent.usedDirectMemory() >= 0) {
            Gauge.builder("netty.direct.memory.used", PlatformDependent::usedDirectMemory).baseUnit("bytes")
                    .description("Direct memory Netty allocated and has not freed.").register(registry);
        }
        Gauge.builder("netty.direct.memory.max", PlatformDependent::maxDirectMemory).baseUnit("bytes")
                .description("Direct memory Netty may allocate.").register(registry);
    }

    /** The registry, to bind the producer's, Netty's and other meters to. */
    public PrometheusMetrics prometheus() {
        return prometheus;
    }

    /** Everything, in Prometheus text format 0.0.4. */
    public String prometheusText() {
        return prometheus.scrapeText();
    }

    /** Everything, in the format the scraper's {@code Accept} header asks for. */
    public Scrape scrape(String accept) {
        return prometheus.scrape(accept);
    }

    @Override
    public void close() {
        prometheus.close();
    }
}
