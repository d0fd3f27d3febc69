package io.sluice.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.sluice.admin.AdminServer;
import io.sluice.kafka.TopicSetup;
import io.sluice.gateway.admit.Authenticator;
import io.sluice.gateway.admit.FailedAuthLimiter;
import io.sluice.gateway.admit.Gate;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.admit.QuotaLimiter;
import io.sluice.gateway.http.GatewayInitializer;
import io.sluice.gateway.http.GatewayServices;
import io.sluice.gateway.otlp.ExportReader;
import io.sluice.gateway.http.HttpLimits;
import io.sluice.gateway.http.ReadWorkers;
import io.sluice.gateway.http.UnsentAnswers;
import io.sluice.gateway.envelope.EnvelopeParser;
import io.sluice.gateway.ops.EventLoopHeartbeats;
import io.sluice.gateway.ops.GatewayChecks;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.ops.KafkaReachability;
import io.sluice.gateway.ops.Stalls;
import io.sluice.gateway.publish.EventPublisher;
import io.sluice.gateway.publish.Outcomes;
import io.sluice.gateway.publish.PublishHealth;
import io.sluice.gateway.quota.SharedQuotas;
import io.sluice.gateway.decompress.BodyDecoder;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.projects.ProjectRegistry;

/**
 * A running gateway: the project registry it authenticates against, the producer it publishes
 * with, the services a request passes through, the public HTTP server and the admin server.
 * {@link #start} builds them all and returns once it accepts requests; {@link #close} drains:
 * stops accepting, lets in-flight requests get their answer, flushes the producer.
 */
public final class Gateway implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
    /** How long startup waits to know the other gateways' use of the quotas; it starts anyway (see SharedQuotas for the fallback). */
    private static final Duration SHARED_QUOTAS_WAIT = Duration.ofSeconds(5);

    private final GatewayConfig config;
    private final ProjectRegistry registry;
    private final KafkaReachability kafka;
    private final EventPublisher publisher;
    private final PublishHealth publishing;
    private final Outcomes outcomes;
    private final SharedQuotas quotas;
    private final GatewayMetrics metrics;
    private final AtomicBoolean draining;
    private final GatewayServices services;
    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final ReadWorkers readers;
    private final EventLoopHeartbeats heartbeats;
    /**
     * Large bodies waiting for a read worker at most; each holds its in-flight reservation, and a
     * connection has one being read at a time, so the budget and the connection cap bound it first.
     */
    private static final int READ_QUEUE = 1024;
    /**
     * How long the bodies on the read workers when the drain timeout ends may take to be answered
     * 503: at once for those waiting; a read under way ends at its next item, once the step it is
     * in is done (decompressing a 32 MiB envelope, the longest, takes a fraction of a second).
     */
    private static final Duration STOPPED_READS_ANSWERED = Duration.ofSeconds(2);
    private Channel serverChannel;
    private AdminServer admin;

    private Gateway(GatewayConfig config, ProjectRegistry registry, KafkaReachability kafka, EventPublisher publisher,
                    PublishHealth publishing, Outcomes outcomes, SharedQuotas quotas) {
        this.config = config;
        this.registry = registry;
        this.kafka = kafka;
        this.publisher = publisher;
        this.publishing = publishing;
        this.outcomes = outcomes;
        this.quotas = quotas;
        this.metrics = new GatewayMetrics();
        metrics.watchQuotas(quotas::fallback, quotas::gateways, quotas::reportsPublished, quotas::reportBytesPublished,
                quotas::reportsRefused);
        metrics.countRegistrySkips(registry::skippedRecords);
        metrics.countUnreadableProjects(() -> registry.unreadableProjects().size());
        metrics.watchRegistry(registry::size, registry::indexBytes, registry::recordBytes);
        metrics.countOutcomeRowsDropped(outcomes::droppedRows);
        metrics.watchPublishing(publishing::failing);
        metrics.countOutcomeOverflow(outcomes::overflowEvents);
        this.draining = new AtomicBoolean();
        this.acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        // One loop per CPU by default, not Netty's two: the Kafka producer's I/O thread needs a
        // core's share too, and fewer loops handle more ready connections per wake-up. No more
        // than the heap allows for what each loop holds outside the budgets (EventLoops).
        int cpus = Runtime.getRuntime().availableProcessors();
        long maxHeap = Runtime.getRuntime().maxMemory();
        int ioThreads = EventLoops.count(config.ioThreads(), cpus, maxHeap, config.maxDecompressedBytes());
        LOG.info("{} event loops ({}; {} CPUs available, heap {} MiB, {} MiB per loop outside the budgets)", ioThreads,
                config.ioThreads() > 0 ? "SLUICE_GATEWAY_IO_THREADS" : "one per CPU, as the heap allows", cpus,
                maxHeap / (1024 * 1024), EventLoops.heldPerLoop(config.maxDecompressedBytes()) / (1024 * 1024));
        this.workers = new MultiThreadIoEventLoopGroup(ioThreads, NioIoHandler.newFactory());
        this.readers = new ReadWorkers(ReadWorkers.threadsFor(ioThreads), READ_QUEUE);
        this.heartbeats = new EventLoopHeartbeats(workers, System::nanoTime);
        metrics.watchEventLoops(heartbeats);
        metrics.watchReadWorkers(readers::longestTurnWaitNanos, readers::waiting);
        this.services = services(config, registry, publisher, outcomes, quotas, metrics, draining, readers);
        metrics.bindNetty(acceptor, workers);
    }

    public static Gateway start(GatewayConfig config) throws InterruptedException {
        if (config.partitions().usesDevelopmentKey()) {
            LOG.warn("SLUICE_PARTITION_KEY is not set: partitions are picked with the public development key (allowed "
                    + "on a loopback address only); behind a proxy on this host, set a secret one");
        }
        TopicSetup.ensureTopics(config.kafka());
        ProjectRegistry registry = new ProjectRegistry(config.kafka());
        KafkaReachability kafka = new KafkaReachability(config.kafka());
        long publishedAtOnce = config.maxInFlightBytes() + config.maxUnauthenticatedInFlightBytes();
        var producer = EventPublisher.durableProducer(config.kafka(), EventPublisher.CLIENT_ID, config.publishTimeout(),
                config.producerLinger(), config.maxDecompressedBytes(), publishedAtOnce);
        var express = config.expressPublishes() == 0 ? producer : EventPublisher.durableProducer(config.kafka(),
                EventPublisher.CLIENT_ID + EventPublisher.EXPRESS, config.publishTimeout(), Duration.ZERO, config.maxDecompressedBytes(),
                publishedAtOnce);
        PublishHealth publishing = new PublishHealth(config.publishFailureWindow(), System::nanoTime);
        EventPublisher publisher = new EventPublisher(producer, express, config.expressPublishes(), config.kafka().topics(),
                config.partitions(), publishing);
        Outcomes outcomes = new Outcomes(registry, producer, config.kafka().topics().outcomes(), config.outcomesInterval());
        SharedQuotas quotas = new SharedQuotas(config.kafka());
        Gateway gateway = new Gateway(config, registry, kafka, publisher, publishing, outcomes, quotas);
        gateway.metrics.prometheus().bindKafka(producer); // kafka_producer_*: batching, retries, request latency
        if (express != producer) {
            gateway.metrics.prometheus().bindKafka(express);
        }
        try {
            if (!registry.awaitLoaded(config.readyTimeout())) {
                throw new IllegalStateException("the project registry (" + config.kafka().topics().projects()
                        + ") did not load within " + config.readyTimeout().toSeconds() + " s"
                        + (registry.failure() == null ? "" : ": " + registry.failure()));
            }
            publisher.warmUp(config.readyTimeout());
            if (!quotas.awaitFollowing(SHARED_QUOTAS_WAIT)) {
                LOG.warn("the shared quota usage ({}) was not read within {} s: quotas are as this gateway alone sees them until it is",
                        config.kafka().topics().quotaUsage(), SHARED_QUOTAS_WAIT.toSeconds());
            }
            gateway.listen();
            return gateway;
        } catch (RuntimeException | InterruptedException e) {
            gateway.close();
            throw e;
        }
    }

    private static GatewayServices services(GatewayConfig config, ProjectRegistry registry, EventPublisher publisher,
                                            Outcomes outcomes, SharedQuotas quotas, GatewayMetrics metrics,
                                            AtomicBoolean draining, ReadWorkers readers) {
        Gate gate = new Gate(new Authenticator(registry, Clock.systemUTC()),
                new FailedAuthLimiter(config.authFailuresPerMinute(), config.authFailureBurst()), config.trustedProxies(),
                new QuotaLimiter(config.quotaShare(), quotas),
                new InFlightBudget(config.maxInFlightBytes(), config.maxInFlightBytesPerClient(), config.maxInFlightBytesPerProject(),
                        metrics.inFlightBytes()),
                // Held only until a body's dsn is checked; one budget for all such requests, so
                // strangers share 8 MiB and never take what the tenants' requests need, and each
                // address only its share of it.
                new InFlightBudget(config.maxUnauthenticatedInFlightBytes(), config.maxUnauthenticatedInFlightBytesPerClient(),
                        metrics.unauthenticatedInFlightBytes()),
                config.maxBodyBytes(), config.maxEnvelopeBytes(), config.maxOtlpBytes());
        return new GatewayServices(gate, new BodyDecoder(config.maxDecompressedBytes()),
                new EventValidator(config.eventTimeHorizon(), config.maxDecompressedBytes(), metrics::scrubbed),
                publisher, outcomes, metrics, Clock.systemUTC(), draining,
                new BodyDecoder(config.maxEnvelopeBytes()),
                new EnvelopeParser(config.maxEnvelopeItems(), config.maxDecompressedBytes()), readers,
                new ExportReader(config.maxOtlpSpans()), new BodyDecoder(config.maxOtlpBytes()));
    }

    private void listen() throws InterruptedException {
        HttpLimits limits = new HttpLimits(config.maxConnections(), config.maxBodyBytes(), config.idleTimeout(),
                config.receiveTimeout());
        try {
            admin = AdminServer.start(config.adminHost(), config.adminPort(), "sluice-gateway-admin",
                    new GatewayChecks(draining::get, registry, kafka, publishing, quotas::fallbackReason,
                            new Stalls(heartbeats, readers::longestTurnWaitNanos, config.loopLagLimit(), config.readTurnWaitLimit())),
                    metrics::scrape);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the gateway's admin port " + config.adminPort(), e);
        }
        serverChannel = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new GatewayInitializer(GatewayTls.context(config), limits, services,
                        new UnsentAnswers.Total(metrics.unsentAnswerBytes(), UnsentAnswers.Total.BUDGET_BYTES)))
                .bind(new InetSocketAddress(config.host(), config.port()))
                .sync().channel();
        LOG.info("gateway listening on {}:{} (admin {}:{}), {} projects", config.host(), port(),
                config.adminHost(), admin.port(), registry.size());
    }

    /**
     * The registry this gateway authenticates against: tests wait on it for a registry change, sending no
     * request (one refused before the change would be counted, and spend the failed-authentication budget).
     */
    public ProjectRegistry registry() {
        return registry;
    }

    /** The read workers: tests hold one, or see what waits for them. */
    ReadWorkers readWorkers() {
        return readers;
    }

    /** The event loops that serve connections: tests hold one. */
    EventLoopGroup eventLoops() {
        return workers;
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public int adminPort() {
        return admin.port();
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        draining.set(true); // /readyz turns 503, answers close their connections
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        awaitNoneInFlight(config.shutdownTimeout());
        stopReading();
        if (metrics.inFlightRequests().get() > 0) {
            LOG.warn("{} requests still in flight after {} s; stopping anyway",
                    metrics.inFlightRequests().get(), config.shutdownTimeout().toSeconds());
        }
        quotas.close(); // tells the other gateways this one leaves, so its part of every quota goes to them now
        outcomes.close(); // the last counts, before the producer closes
        publisher.close();
        heartbeats.close();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        readers.close();
        if (admin != null) {
            admin.close();
        }
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        kafka.close();
        registry.close();
        metrics.close();
        LOG.info("gateway stopped");
    }

    /** Waits, at most {@code timeout}, until every request admitted has been answered. */
    private void awaitNoneInFlight(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (metrics.inFlightRequests().get() > 0 && System.nanoTime() < deadline) {
            sleep(20);
        }
    }

    /**
     * Within the drain timeout the read workers read every body handed to them, waiting or not, and
     * those are published and answered as usual. Past it, no body is read any more: those waiting
     * for a worker are answered {@code 503 shutting_down} unread, those being read at their next
     * item, nothing of theirs published (a retry is safe), their reservations given back and their
     * outcomes counted before the last outcome counts are sent, the producer and the loops closed.
     */
    private void stopReading() {
        int refused = readers.stop();
        int reading = readers.reading();
        if (refused > 0 || reading > 0) {
            LOG.warn("drain timeout: {} bodies waiting for a read worker and {} being read are answered 503 shutting_down",
                    refused, reading);
            awaitNoneInFlight(STOPPED_READS_ANSWERED);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
