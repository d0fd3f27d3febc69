package io.sluice.processor;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.clickhouse.client.api.Client;

import io.sluice.admin.AdminServer;
import io.sluice.config.Topics;
import io.sluice.fatal.FatalErrors;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.TopicSetup;
import io.sluice.metrics.LastMeasurement;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.processor.ops.InputLag;
import io.sluice.processor.ops.KafkaContact;
import io.sluice.processor.ops.ProcessorAdmin;
import io.sluice.processor.ops.ProcessorMeters;
import io.sluice.processor.ops.StreamThreadFailures;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.state.BoundedRocksDbMemory;
import io.sluice.processor.state.ChangelogRetention;
import io.sluice.processor.state.StateHorizon;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.FilterMemory;
import io.sluice.processor.topology.JsonSerde;
import io.sluice.processor.topology.ProcessorTopology;
import io.sluice.processor.topology.CardinalityLimits;
import io.sluice.processor.topology.PreAggregation;
import io.sluice.processor.topology.UnproducibleToDeadLetters;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSink;
import io.sluice.sink.SchemaMigrations;
import io.sluice.sink.SinkTables;

/**
 * A running processor: the exactly-once Kafka Streams application that turns raw events into
 * history rows and aggregates, and the sink that copies those into ClickHouse.
 */
public final class ProcessorService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessorService.class);

    private final KafkaStreams streams;
    private final ClickHouseSink sink;
    private final Thread sinkThread;
    private final Client clickHouse;
    private final AdminServer admin;
    private final PrometheusMetrics metrics;
    private final InputLag inputLag;
    private final PreAggregation preAggregation;

    private ProcessorService(KafkaStreams streams, ClickHouseSink sink, Thread sinkThread, Client clickHouse, AdminServer admin,
                      PrometheusMetrics metrics, InputLag inputLag, PreAggregation preAggregation) {
        this.preAggregation = preAggregation;
        this.metrics = metrics;
        this.inputLag = inputLag;
        this.streams = streams;
        this.sink = sink;
        this.sinkThread = sinkThread;
        this.clickHouse = clickHouse;
        this.admin = admin;
    }

    public static ProcessorService start(ProcessorConfig config) {
        TopicSetup.ensureTopics(config.kafka());
        Topics topics = config.kafka().topics();
        DeadLetterCounts deadLetters = new DeadLetterCounts();
        RecordsReadFromJson readFromJson = new RecordsReadFromJson();
        Properties streamsProperties = streamsProperties(config, deadLetters);
        // Before Streams starts: it sets a changelog's retention only when it creates it, so a longer
        // horizon + margin would let Kafka delete what a restore needs.
        ChangelogRetention.ensure(config.kafka(), config.applicationId(),
                ProcessorTopology.windowStoreRetentions(config.eventTimeHorizon(), config.lateMargin()), streamsProperties,
                TopicSetup.SERVER_TIMEOUT);
        Client clickHouse = ClickHouseClients.create(config.clickHouse());
        SchemaMigrations.apply(clickHouse, config.clickHouse());

        CardinalityLimits cardinalityLimits = config.cardinalityLimits();
        PreAggregation preAggregation = new PreAggregation();
        KafkaStreams streams = new KafkaStreams(topology(config, topics, deadLetters, readFromJson, cardinalityLimits, preAggregation),
                streamsProperties);
        // Before Streams opens a store: local state built with another horizon is wiped and restored (see StateHorizon).
        try {
            StateHorizon.prepare(config.stateDir().toAbsolutePath().resolve(config.applicationId()), config.eventTimeHorizon(),
                    streams::cleanUp);
        } catch (RuntimeException e) {
            streams.close(); // releases the state directory's lock
            clickHouse.close();
            throw e;
        }
        StreamThreadFailures threadFailures = new StreamThreadFailures(sessionTimeout(streamsProperties));
        streams.setUncaughtExceptionHandler(error -> {
            FatalErrors.haltIfFatal(error); // out of memory: a new thread would fail too; the supervisor restarts the process
            LOG.error("stream thread failed; replacing it", error);
            try {
                threadFailures.record(error); // a task failing on every new thread makes /readyz 503
            } catch (RuntimeException e) {
                LOG.warn("could not record the stream thread's failure: {}", e.toString()); // the thread is replaced all the same
            }
            // Replaced, not shut down: a transient failure heals on the new thread.
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        PrometheusMetrics metrics = new PrometheusMetrics();
        LastMeasurement inputLagMeasured = new LastMeasurement();
        ProcessorMeters.bind(metrics, streams, inputLagMeasured, deadLetters, readFromJson, threadFailures);
        ProcessorMeters.bindCardinalityLimits(metrics, cardinalityLimits);
        ProcessorMeters.bindPreAggregation(metrics, preAggregation);
        KafkaContact kafkaContact = new KafkaContact();
        InputLag inputLag = InputLag.start(config.kafka(), config.applicationId(), topics.raw(), streams, inputLagMeasured, kafkaContact);
        streams.start();

        ClickHouseSink sink = new ClickHouseSink(clickHouse, config.kafka(),
                config.applicationId() + "-sink", config.instanceId().isEmpty() ? "" : config.instanceId() + "-sink",
                SinkTables.of(topics, config.clickHouse().database()).tableByTopic(), topics.deadLetters(), config.sinkLimits(), metrics);
        Thread sinkThread = new Thread(sink, "sluice-clickhouse-sink");
        sinkThread.start();
        AdminServer admin;
        try {
            admin = ProcessorAdmin.start(config.adminHost(), config.adminPort(), streams, metrics, sink.metrics(), sinkThread::isAlive,
                    threadFailures, kafkaContact);
        } catch (java.io.IOException e) {
            inputLag.close();
            streams.close(Duration.ofSeconds(10));
            sink.close();
            clickHouse.close();
            metrics.close();
            throw new java.io.UncheckedIOException("cannot open the processor's admin port " + config.adminPort(), e);
        }
        LOG.info("processor started: {}, {} and {} → {}", topics.transactions(), topics.errors(), topics.sessions(), config.clickHouse());
        return new ProcessorService(streams, sink, sinkThread, clickHouse, admin, metrics, inputLag, preAggregation);
    }

    /**
     * The topology {@code config} asks for, reading and writing {@code topics} (the bench's ceilings
     * give it topics of their own); the counters are the caller's, for its meters.
     */
    public static Topology topology(ProcessorConfig config, Topics topics, DeadLetterCounts deadLetters, RecordsReadFromJson readFromJson,
                                    CardinalityLimits limits, PreAggregation preAggregation) {
        return ProcessorTopology.build(topics, config.eventTimeHorizon(), config.generation(), config.lateMargin(), deadLetters,
                readFromJson, new FilterMemory(config.dedupFilterBytes()), limits, preAggregation, config.requestsByRoute());
    }

    /** What a stream thread's fetch waits for, up to {@link ProcessorConfig#fetchWait()}: some 100 raw events. */
    static final int FULL_FETCH_BYTES = 64 * 1024;

    /** The stream threads' consumer session timeout, as Kafka Streams reads it from its properties, or the consumer's default. */
    static Duration sessionTimeout(Properties streamsProperties) {
        for (String key : List.of(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG)) {
            Object value = streamsProperties.get(key);
            if (value != null) {
                return Duration.ofMillis(Long.parseLong(value.toString().strip()));
            }
        }
        return StreamThreadFailures.DEFAULT_SESSION_TIMEOUT;
    }

    /** The processor's Kafka Streams settings (the bench runs its Streams ceilings with them too). */
    public static Properties streamsProperties(ProcessorConfig config, DeadLetterCounts deadLetters) {
        Properties props = KafkaClients.streamsProperties(config.kafka());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toAbsolutePath().toString());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.streamThreads());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitInterval().toMillis());
        boolean operatorsFetch = props.containsKey(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)
                || props.containsKey(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG);
        if (!config.fetchWait().isZero() && !operatorsFetch) {
            // A fetch answered as soon as there is a record brings a dozen at moderate rates: the broker,
            // the consumer and Streams' loop then pay per fetch (over a fifth of the pipeline's CPU per event).
            // Without a wait, or with the operator's own fetch properties, those: Kafka's defaults answer
            // at the first byte and park an idle fetch up to 500 ms.
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), (int) config.fetchWait().toMillis());
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), FULL_FETCH_BYTES);
        }
        // Every subtopology reads one topic, so a task has one partition and nothing to wait for;
        // Kafka Streams' check of it formats messages for every task on every pass (~5% of the stream threads).
        props.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.kafka().topics().replicationFactor());
        // Changelogs hold the deduplication state: as durable as the topics Sluice creates.
        props.put(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                Integer.toString(config.kafka().topics().effectiveMinInsyncReplicas()));
        // Rows are bounded by io.sluice.processor.rows.Columns far below this, the brokers' default
        // message.max.bytes; one that is still larger fails to serialize (JsonSerde) and goes to
        // the dead letters instead of failing its task again and again.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), JsonSerde.MAX_REQUEST_BYTES);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, UnproducibleToDeadLetters.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, config.kafka().topics().deadLetters());
        props.put(DeadLetterCounts.CONFIG, deadLetters); // reaches UnproducibleToDeadLetters.configure
        // All stores share one bounded block cache and write buffer budget (see BoundedRocksDbMemory).
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        props.put(BoundedRocksDbMemory.MEMORY_BYTES, Long.toString(config.rocksDbMemoryBytes()));
        props.put(BoundedRocksDbMemory.WRITE_BUFFER_RATIO, Double.toString(config.rocksDbWriteBufferRatio()));
        if (!config.instanceId().isEmpty()) {
            // Static membership: a restarted instance reclaims its partitions without waiting for
            // the old member's session to time out.
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), config.instanceId());
        }
        return props;
    }

    /** Which of this instance's tasks added up transactions before the repartition. */
    public PreAggregation preAggregation() {
        return preAggregation;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Waits until the stream threads have their partitions and process; false on timeout or failure. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            KafkaStreams.State state = streams.state();
            if (state == KafkaStreams.State.RUNNING) {
                return true;
            }
            if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) {
                return false;
            }
            Thread.sleep(50);
        }
        return false;
    }

    public int adminPort() {
        return admin.port();
    }

    @Override
    public void close() {
        admin.close();
        inputLag.close();
        // Leave the group: the partitions move to the other instances (or to this one's restart)
        // at once, instead of after the 45 s session timeout.
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        sink.close();
        try {
            sinkThread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        clickHouse.close();
        metrics.close();
        LOG.info("processor stopped");
    }
}
