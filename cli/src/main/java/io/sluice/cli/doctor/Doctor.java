package io.sluice.cli.doctor;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import com.clickhouse.client.api.Client;

import io.sluice.cli.deadletters.DeadLetterCount;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Topics;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.TopicCheck;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.ProjectAdmin;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.DeletionsLeft;
import io.sluice.sink.SchemaMigrations;
import io.sluice.sink.SinkTables;

/**
 * The checks of {@code ./sluice doctor}, in the order a night's diagnosis goes: Kafka, its topics,
 * the registry, ClickHouse and its schema, lag and age, dead letters, the servers' readiness.
 * Every check waits at most {@code timeout}; one that needs a failed one is not run.
 */
final class Doctor {
    /** The README's alert thresholds: a lag this large, a measurement this old. */
    static final long LAG_ALERT_RECORDS = 100_000;
    static final double AGE_ALERT_SECONDS = 30;
    /** How many deletions with rows left the deletions line names. */
    private static final int NAMED_DELETIONS = 5;
    private static final Pattern SAMPLE = Pattern.compile("(?m)^(sluice_[a-z_]+) ([0-9.eE+-]+|NaN)$");

    /**
     * @param processorGroup the processor's application id: its consumer group on the raw topics
     * @param gateways       base URLs of gateways' admin ports
     * @param processors     base URLs of processors' admin ports
     */
    record Targets(KafkaSettings kafka, ClickHouseSettings clickHouse, String processorGroup, List<String> gateways,
                   List<String> processors) {
    }

    private final Targets targets;
    private final Duration timeout;
    private final HttpClient http;

    Doctor(Targets targets, Duration timeout) {
        this.targets = targets;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    List<Check> run() {
        List<Check> checks = new ArrayList<>();
        Properties adminProps = KafkaClients.adminProperties(targets.kafka(), "sluice-doctor", timeout);
        Check kafka;
        try (Admin admin = Admin.create(adminProps)) {
            kafka = kafka(admin, adminProps);
            checks.add(kafka);
            if (kafka.ok()) {
                checks.add(topics(admin));
                checks.add(registry());
            } else {
                checks.add(Check.notChecked("topics", "Kafka is unreachable"));
                checks.add(Check.notChecked("registry", "Kafka is unreachable"));
            }
            Check clickHouse = clickHouse(checks);
            if (!targets.processors().isEmpty()) {
                targets.processors().forEach(url -> checks.add(lagFromMetrics(url)));
            } else if (kafka.ok()) {
                checks.add(lagFromOffsets(admin, "processor lag", targets.processorGroup(),
                        targets.kafka().topics().raw()));
                checks.add(lagFromOffsets(admin, "sink lag", targets.processorGroup() + "-sink", sinkTopics()));
            } else {
                checks.add(Check.notChecked("lag", "Kafka is unreachable (or give --processor URL to read its /metrics)"));
            }
            checks.add(kafka.ok() ? deadLetters() : Check.notChecked("dead letters", "Kafka is unreachable"));
        } catch (RuntimeException e) { // Admin.create: a bootstrap address that does not resolve
            checks.add(Check.failed("Kafka", "cannot create a client for " + targets.kafka().bootstrapServers() + ": " + e.getMessage(),
                    kafkaFix()));
            for (String name : List.of("topics", "registry", "lag", "dead letters")) {
                checks.add(Check.notChecked(name, "Kafka is unreachable"));
            }
            clickHouse(checks);
        }
        targets.gateways().forEach(url -> checks.add(ready("gateway " + url, url)));
        targets.processors().forEach(url -> checks.add(ready("processor " + url, url)));
        return checks;
    }

    private Check kafka(Admin admin, Properties props) {
        String security = props.getProperty(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT");
        try {
            int brokers = admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).size();
            return Check.passed("Kafka", brokers + " broker" + (brokers == 1 ? "" : "s") + " at " + targets.kafka().bootstrapServers()
                    + " (" + security + ")");
        } catch (Exception e) {
            return Check.failed("Kafka", "no answer from " + targets.kafka().bootstrapServers() + " (" + security + ") within "
                    + timeout.toSeconds() + " s: " + cause(e), kafkaFix());
        }
    }

    private static String kafkaFix() {
        return "is Kafka up and reachable from here? check SLUICE_KAFKA_BOOTSTRAP_SERVERS and the SLUICE_KAFKA_* security settings "
                + "(./sluice config lists them)";
    }

    private Check topics(Admin admin) {
        Topics topics = targets.kafka().topics();
        try {
            List<TopicCheck.Difference> differences = TopicSetup.check(admin, topics, timeout).stream()
                    .filter(d -> d.serious() || d.setting().equals("partitions")).toList();
            if (differences.isEmpty()) {
                return Check.passed("topics", "present, " + topics.partitions() + " partitions, min.insync.replicas="
                        + topics.effectiveMinInsyncReplicas());
            }
            TopicCheck.Difference first = differences.get(0);
            return Check.failed("topics", differences.size() + " wrong: topic " + first.topic() + " has " + first.setting() + "="
                    + first.actual() + ", expected " + first.expected() + (differences.size() > 1 ? " (and " + (differences.size() - 1) + " more)" : ""),
                    first.why());
        } catch (Exception e) {
            return Check.failed("topics", "cannot describe them: " + cause(e), "check the doctor's rights to describe topics and configs");
        }
    }

    private Check registry() {
        try (ProjectAdmin admin = new ProjectAdmin(targets.kafka(), timeout)) {
            int projects = admin.list().size();
            return Check.passed("registry", projects + " project" + (projects == 1 ? "" : "s") + " in " + targets.kafka().topics().projects());
        } catch (Exception e) {
            return Check.failed("registry", "cannot read " + targets.kafka().topics().projects() + ": " + cause(e),
                    "check the rights to read that topic; ./sluice projects list shows the full error");
        }
    }

    /** Adds the ClickHouse and schema lines; returns the first. */
    private Check clickHouse(List<Check> checks) {
        ClickHouseSettings settings = targets.clickHouse();
        Check reachable;
        Check schema;
        try (var client = ClickHouseClients.create(settings)) {
            CompletableFuture<List<String>> missing = CompletableFuture.supplyAsync(() -> {
                String version = client.queryAll("SELECT version()").get(0).getString(1);
                List<String> notApplied = SchemaMigrations.missing(client, settings);
                return concat(version, notApplied);
            });
            List<String> answer = missing.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            reachable = Check.passed("ClickHouse", "version " + answer.get(0) + " at " + settings.url());
            List<String> notApplied = answer.subList(1, answer.size());
            int count = SchemaMigrations.count();
            schema = notApplied.isEmpty() ? Check.passed("schema", "all " + count + " migrations applied in " + settings.database())
                    : Check.failed("schema", (count - notApplied.size()) + " of " + count + " migrations applied in " + settings.database()
                    + ", missing " + String.join(", ", notApplied), "run ./sluice schema apply");
        } catch (Exception e) {
            reachable = Check.failed("ClickHouse", "no answer from " + settings.url() + " within " + timeout.toSeconds() + " s: " + cause(e),
                    "is ClickHouse up and reachable from here? check SLUICE_CLICKHOUSE_URL, SLUICE_CLICKHOUSE_USER and SLUICE_CLICKHOUSE_PASSWORD");
            schema = Check.notChecked("schema", "ClickHouse is unreachable");
        }
        checks.add(reachable);
        checks.add(schema);
        checks.add(schema.ok() ? pendingDeletions(settings) : Check.notChecked("deletions", "the schema is not in place"));
        return reachable;
    }

    /**
     * Deletions and retention changes ClickHouse has not finished: its mutations not done in the
     * database ({@code projects delete-user}, {@code delete} and {@code set-retention} wait for theirs, so one
     * left is one whose command was interrupted or that keeps failing); then, with none, recorded deletions whose
     * rows remain (a command that stopped before its mutation, or one killed, leaves no mutation to see).
     */
    private Check pendingDeletions(ClickHouseSettings settings) {
        try (var client = ClickHouseClients.create(settings)) {
            List<com.clickhouse.client.api.query.GenericRecord> pending = CompletableFuture.supplyAsync(() -> client.queryAll(
                    "SELECT table, create_time, latest_fail_reason FROM system.mutations WHERE database = {db:String} AND NOT is_done "
                            + "ORDER BY create_time", java.util.Map.of("db", settings.database())))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (pending.isEmpty()) {
                return deletionsLeft(client, settings.database());
            }
            com.clickhouse.client.api.query.GenericRecord oldest = pending.get(0);
            String failing = oldest.getString("latest_fail_reason");
            return Check.failed("deletions", pending.size() + " not done in " + settings.database() + " (" + oldest.getString("table")
                            + (failing.isEmpty() ? ", since " + oldest.getString("create_time") : ", failing: " + firstLine(failing)) + ")",
                    "it is retried in the background; when it keeps failing, fix its cause (system.mutations, latest_fail_reason) "
                            + "or KILL MUTATION and run the same ./sluice projects command again");
        } catch (Exception e) {
            return Check.failed("deletions", "cannot read system.mutations or the deleted rows left: " + cause(e),
                    "check the doctor's rights to read system.mutations and the tables of " + settings.database());
        }
    }

    private Check deletionsLeft(Client client, String database) throws Exception {
        List<DeletionsLeft.Left> left = CompletableFuture.supplyAsync(() -> DeletionsLeft.find(client, database,
                SinkTables.of(targets.kafka().topics(), database))).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (left.isEmpty()) {
            return Check.passed("deletions", "none pending in " + database);
        }
        return Check.failed("deletions", left.size() + " recorded with rows left in " + database + ": " + left.stream().limit(NAMED_DELETIONS)
                        .map(one -> (one.deletion().wholeProject() ? "project " + one.deletion().project()
                                : "user " + one.deletion().userId() + " of project " + one.deletion().project())
                                + " (" + String.join(", ", one.tables()) + ")")
                        .collect(Collectors.joining(", ")) + (left.size() > NAMED_DELETIONS ? ", …" : ""),
                "run the same ./sluice projects delete or delete-user command again");
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse(text);
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }

    /** The topics the sink reads, from the sink's own map, so that one it gains is checked too. */
    private Set<String> sinkTopics() {
        return SinkTables.of(targets.kafka().topics(), targets.clickHouse().database()).tableByTopic().keySet();
    }

    /**
     * Lag as the consumer group's committed offsets say it: over every partition of the topics, end
     * offset minus committed (0 where nothing is committed: the group starts from the beginning).
     */
    private Check lagFromOffsets(Admin admin, String name, String group, Set<String> topics) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS).forEach((topic, description) ->
                    description.partitions().forEach(p -> ends.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = admin.listOffsets(ends).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            long lag = 0;
            for (TopicPartition partition : ends.keySet()) {
                OffsetAndMetadata offset = committed.get(partition);
                lag += Math.max(0, end.get(partition).offset() - (offset == null ? 0 : offset.offset()));
            }
            String detail = lag + " records behind (group " + group + ")";
            return lag > LAG_ALERT_RECORDS ? Check.failed(name, detail, "more than " + LAG_ALERT_RECORDS + " behind: is the processor "
                    + "running (SLUICE_PROCESSOR_APPLICATION_ID=" + targets.processorGroup() + ")? --processor URL reads its /metrics")
                    : Check.passed(name, detail);
        } catch (Exception e) {
            return Check.failed(name, "cannot read the offsets of group " + group + ": " + cause(e), "check the rights to describe the group");
        }
    }

    /** Lag and age from a processor's admin {@code /metrics}: its input lag and its sink's. */
    private Check lagFromMetrics(String url) {
        String name = "lag " + url;
        String text;
        try {
            HttpResponse<String> response = get(url, "/metrics");
            if (response.statusCode() != 200) {
                return Check.failed(name, "/metrics answered " + response.statusCode(), "is this a processor's admin address?");
            }
            text = response.body();
        } catch (Exception e) {
            return Check.failed(name, "no answer from " + url + "/metrics: " + cause(e), "is the processor running? is this its admin address?");
        }
        Map<String, Double> samples = new HashMap<>();
        Matcher matcher = SAMPLE.matcher(text);
        while (matcher.find()) {
            samples.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
        }
        double input = samples.getOrDefault("sluice_processor_input_lag_records", Double.NaN);
        double inputAge = samples.getOrDefault("sluice_processor_input_lag_age_seconds", Double.NaN);
        double sink = samples.getOrDefault("sluice_sink_lag_records", Double.NaN);
        double sinkAge = samples.getOrDefault("sluice_sink_lag_age_seconds", Double.NaN);
        String detail = String.format("input %.0f records (measured %.0f s ago), sink %.0f records (measured %.0f s ago)",
                input, inputAge, sink, sinkAge);
        if (Double.isNaN(input) || Double.isNaN(sink)) {
            return Check.failed(name, "no lag in its /metrics", "is this a processor's admin address?");
        }
        if (!(inputAge <= AGE_ALERT_SECONDS) || !(sinkAge <= AGE_ALERT_SECONDS)) {
            return Check.failed(name, detail, "lag measured more than " + (int) AGE_ALERT_SECONDS
                    + " s ago: the processor cannot reach Kafka; see its log");
        }
        if (input > LAG_ALERT_RECORDS || sink > LAG_ALERT_RECORDS) {
            return Check.failed(name, detail, input > LAG_ALERT_RECORDS
                    ? "the processor falls behind: more processors (or threads) share the partitions; see its /metrics"
                    : "the sink falls behind ClickHouse: see sluice_sink_stalled and the processor's log");
        }
        return Check.passed(name, detail);
    }

    private Check deadLetters() {
        try {
            long count = DeadLetterCount.since(targets.kafka(), timeout, Instant.now().minus(Duration.ofHours(1)));
            String detail = count + " in the last hour";
            return count == 0 ? Check.passed("dead letters", detail)
                    : Check.failed("dead letters", detail, "./sluice dead-letters list --since 1h shows why; replay them after a fix");
        } catch (Exception e) {
            return Check.failed("dead letters", "cannot read " + targets.kafka().topics().deadLetters() + ": " + cause(e),
                    "check the rights to read that topic");
        }
    }

    private Check ready(String name, String url) {
        try {
            HttpResponse<String> response = get(url, "/readyz");
            String body = response.body().strip();
            String said = body.isEmpty() ? "" : ": " + (body.length() > 200 ? body.substring(0, 200) + "…" : body).replaceAll("\\p{Cntrl}", " ");
            if (response.statusCode() != 200) {
                return Check.failed(name, "not ready (" + response.statusCode() + said + ")", "see its log; /readyz says what it waits for");
            }
            List<String> degraded = degraded(body);
            return degraded.isEmpty() ? Check.passed(name, "ready")
                    : Check.failed(name, "ready, but degraded: " + String.join("; ", degraded).replaceAll("\\p{Cntrl}", " "),
                            "some requests are refused (a project whose registry record cannot be read gets 503 "
                                    + "project_unavailable): write a readable record for it, see docs/operations.md");
        } catch (Exception e) {
            return Check.failed(name, "no answer from " + url + "/readyz: " + cause(e), "is it running? is this its admin address?");
        }
    }

    /** The reasons a ready answer lists under "degraded" (what fails for some requests only); none when it is not JSON. */
    static List<String> degraded(String body) {
        try {
            List<String> reasons = new ArrayList<>();
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("degraded")
                    .forEach(reason -> reasons.add(reason.asText().length() > 200 ? reason.asText().substring(0, 200) + "…" : reason.asText()));
            return reasons;
        } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
            return List.of();
        }
    }

    private HttpResponse<String> get(String url, String path) throws Exception {
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout).GET().build();
        // The request's timeout ends with the headers: a server that stalls in its body would hold
        // the check for ever, so the whole answer is bounded here.
        java.util.concurrent.CompletableFuture<HttpResponse<String>> answer = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
        try {
            return answer.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException stalled) {
            answer.cancel(true);
            throw new java.net.http.HttpTimeoutException("no whole answer from " + base + path + " within " + timeout.toSeconds() + " s");
        } catch (java.util.concurrent.ExecutionException failed) {
            throw failed.getCause() instanceof Exception cause ? cause : failed;
        }
    }

    private static String cause(Exception e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause.getCause() != null && cause instanceof RuntimeException
                && !(cause instanceof IllegalStateException)) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TimeoutException) {
            return "timed out";
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        String line = message.lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
