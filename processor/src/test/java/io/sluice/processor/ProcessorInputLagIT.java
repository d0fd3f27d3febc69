package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Topics;
import io.sluice.events.EventHeaders;
import io.sluice.kafka.TopicSetup;
import io.sluice.metrics.LastMeasurement;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.processor.ops.InputLag;
import io.sluice.processor.ops.KafkaContact;
import io.sluice.processor.ops.ProcessorMeters;
import io.sluice.processor.ops.StreamThreadFailures;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.ProcessorTopology;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * sluice_processor_input_lag_records is the raw records waiting for this instance, summed over
 * every raw partition it owns: with processing paused, exactly the records written since, spread
 * unevenly over both raw topics' partitions (not the most of any one partition); once processing
 * resumes and commits, 0. The processor's own Streams settings and topology, paused through
 * Streams' public pause() so the backlog stands still while it is read.
 */
@ExtendWith(RealEngines.class)
class ProcessorInputLagIT {
    private static final Pattern LAG = Pattern.compile("(?m)^sluice_processor_input_lag_records (\\d+)\\.0$");
    private static final Pattern AGE = Pattern.compile("(?m)^sluice_processor_input_lag_age_seconds ([0-9.Ee+-]+)$");
    /** Records written per partition: transactions, then errors. 80 in all, at most 30 in one partition. */
    private static final int[] TRANSACTIONS = {30, 20, 10};
    private static final int[] ERRORS = {5, 0, 15};

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theLagIsEveryRawRecordWaitingOverAllOwnedPartitionsAndZeroOnceProcessed(Engines engines) throws Exception {
        ProcessorConfig config = ProcessorConfig.from(TestSettings.isolated("inputlag", engines, stateDir).build());
        TopicSetup.ensureTopics(config.kafka());
        Topics topics = config.kafka().topics();
        DeadLetterCounts deadLetters = new DeadLetterCounts();
        LastMeasurement measured = new LastMeasurement();
        try (PrometheusMetrics metrics = new PrometheusMetrics();
             KafkaStreams streams = new KafkaStreams(ProcessorTopology.build(topics, config.eventTimeHorizon(), config.generation(),
                     config.lateMargin(), deadLetters), ProcessorService.streamsProperties(config, deadLetters));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            ProcessorMeters.bind(metrics, streams, measured, deadLetters, new RecordsReadFromJson(), new StreamThreadFailures());
            streams.start();
            assertEquals(KafkaStreams.State.RUNNING, Await.until("Streams running", Duration.ofSeconds(60), KafkaStreams.State.RUNNING,
                    streams::state));
            try (InputLag ignored = InputLag.start(config.kafka(), config.applicationId(), Set.of(topics.transactions(), topics.errors()),
                    streams, measured, new KafkaContact())) {
                assertEquals(0L, Await.until("no lag before any record", Duration.ofSeconds(10), 0L, () -> lag(metrics)));

                streams.pause();
                write(producer, topics.transactions(), TRANSACTIONS);
                write(producer, topics.errors(), ERRORS);
                assertEquals(80L, Await.until("every waiting record counted", Duration.ofSeconds(15), 80L, () -> lag(metrics)));
                System.out.println("Kafka Streams' consumers' records-lag with processing paused (the sum here counts what they fetched and hold as done):");
                streams.metrics().forEach((name, metric) -> {
                    if (name.name().equals("records-lag") && name.tags().containsKey("partition")) {
                        System.out.println("  " + name.group() + " " + name.name() + " " + name.tags() + " = " + metric.metricValue());
                    }
                });
                Thread.sleep(2000); // a few more measurements: still all of them, nothing processed
                assertEquals(80L, lag(metrics));
                assertTrue(age(metrics) < 3, "measured within the last seconds: " + age(metrics));

                streams.resume();
                assertEquals(0L, Await.until("no lag once processed and committed", Duration.ofSeconds(30), 0L, () -> lag(metrics)));
            }
        }
    }

    /** counts[p] raw events into partition p of the topic. */
    private static void write(KafkaProducer<byte[], byte[]> producer, String topic, int[] counts) throws Exception {
        long now = Instant.now().toEpochMilli();
        for (int partition = 0; partition < counts.length; partition++) {
            for (int i = 0; i < counts[partition]; i++) {
                String eventId = topic.hashCode() + "-" + partition + "-" + i;
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, now, "shop".getBytes(StandardCharsets.UTF_8),
                        ("{\"transaction\": \"GET /items/" + i + "\", \"message\": \"failed " + i + "\"}").getBytes(StandardCharsets.UTF_8));
                EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, eventId);
                EventHeaders.put(record.headers(), EventHeaders.PROJECT, "shop");
                EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, Long.toString(now));
                EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, Long.toString(now));
                producer.send(record);
            }
        }
        producer.flush();
    }

    private static long lag(PrometheusMetrics metrics) {
        Matcher line = LAG.matcher(metrics.scrapeText());
        return line.find() ? Long.parseLong(line.group(1)) : -1;
    }

    private static double age(PrometheusMetrics metrics) {
        Matcher line = AGE.matcher(metrics.scrapeText());
        return line.find() ? Double.parseDouble(line.group(1)) : Double.NaN;
    }
}
