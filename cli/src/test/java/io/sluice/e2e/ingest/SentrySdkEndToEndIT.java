package io.sluice.e2e.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sentry.ITransaction;
import io.sentry.Sentry;
import io.sentry.SentryLevel;
import io.sentry.SpanStatus;
import io.sluice.cli.CliRunner;
import io.sluice.e2e.TestPipeline;
import io.sluice.events.EventHeaders;
import io.sluice.gateway.Gateway;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * The real Sentry Java SDK, configured with nothing but a project's DSN, reports errors, messages
 * and transactions through gateway → Kafka → processor → ClickHouse; and backs off by itself
 * when the project's quota answers 429 with X-Sentry-Rate-Limits, reporting what it dropped, holding
 * back only the category the header names.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SentrySdkEndToEndIT {
    private static final String NAME = "sentrysdk";
    private static final String DB = "sluice_" + NAME;
    /** A line of the gateway's answered-requests counter: its status, its count. */
    private static final Pattern REQUESTS_METRIC =
            Pattern.compile("(?m)^sluice_gateway_requests_total\\{[^}]*status=\"([0-9]+)\"[^}]*} (\\S+)$");

    @TempDir
    static Path stateDir;

    static TestPipeline pipeline;

    @BeforeAll
    static void startPipeline(Engines engines) throws Exception {
        pipeline = TestPipeline.named(NAME, engines, stateDir).with("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "200ms").start();
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @AfterEach
    void closeSdk() {
        Sentry.close();
    }

    static void initSdk(ProjectAdmin.NewProject project) {
        initSdk(project, pipeline.port());
    }

    static void initSdk(ProjectAdmin.NewProject project, int port) {
        String dsn = "http://" + project.dsnKey().publicKey() + "@127.0.0.1:" + port + "/" + project.numericId();
        Sentry.init(options -> {
            options.setDsn(dsn);
            options.setTracesSampleRate(1.0);
            options.setEnvironment("e2e");
            options.setRelease("shop@2.4.1");
            options.setDebug(true);
            options.setDiagnosticLevel(SentryLevel.INFO);
            options.setEnableUncaughtExceptionHandler(false);
            options.setEnableShutdownHook(false);
        });
    }

    static String transaction(String name, String status) {
        ITransaction transaction = Sentry.startTransaction(name, "http.server");
        transaction.setTag("http.status_code", status);
        transaction.setStatus(SpanStatus.fromHttpStatusCode(Integer.parseInt(status)));
        transaction.finish();
        return transaction.getEventId().toString();
    }

    static String sorted(String... lines) {
        return Stream.of(lines).sorted().collect(Collectors.joining("\n"));
    }

    @Test
    void exceptionsMessagesAndTransactionsOfTheSdkReachClickHouseExactly() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("java-sdk");
        initSdk(project);
        String exception = Sentry.captureException(new IllegalStateException("the cart is gone")).toString();
        String message = Sentry.captureMessage("checkout took 9 s", SentryLevel.WARNING).toString();
        String ok = transaction("GET /orders/{id}", "200");
        String missing = transaction("GET /orders/{id}", "404");
        String failed = transaction("POST /checkout", "503");
        Sentry.flush(10_000);

        String where = " WHERE project = '" + project.token() + "'";
        // The SDK sends no level with an exception; Sentry reads that as "error", and so does Sluice.
        // The SDK's release (options.setRelease) is every event's.
        String errors = sorted(exception + "\te2e\terror\tshop@2.4.1", message + "\te2e\twarning\tshop@2.4.1");
        assertEquals(errors, pipeline.awaitAnswer(errors,
                "SELECT event_id, environment, level, release FROM " + DB + ".errors FINAL" + where + " ORDER BY event_id"));
        String transactions = sorted(ok + "\tGET /orders/{id}\t200\tshop@2.4.1", missing + "\tGET /orders/{id}\t404\tshop@2.4.1",
                failed + "\tPOST /checkout\t503\tshop@2.4.1");
        assertEquals(transactions, pipeline.awaitAnswer(transactions,
                "SELECT event_id, transaction, status_code, release FROM " + DB + ".transactions FINAL" + where + " ORDER BY event_id"));
        String byRelease = "shop@2.4.1\t3\t1";
        assertEquals(byRelease, pipeline.awaitAnswer(byRelease, "SELECT release, sum(requests), sumIf(requests, status_code >= 500) FROM "
                + DB + ".requests_1h FINAL" + where + " GROUP BY release"));
        CliRunner.Result stats = CliRunner.run(pipeline.settings(), "stats", "--project", project.token(), "--since", "2h", "--json");
        assertEquals(0, stats.exitCode(), stats.err());
        assertEquals("[{\"release\":\"shop@2.4.1\",\"requests\":3,\"status_5xx\":1,\"errors\":2}]",
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(stats.out()).get("releases").toString());
        String traffic = "3\t1\t1\t1";
        assertEquals(traffic, pipeline.awaitAnswer(traffic,
                "SELECT sum(requests), sum(status_2xx), sum(status_4xx), sum(status_5xx) FROM " + DB + ".traffic_1m FINAL" + where));
    }

    /**
     * The SDK's session API, with a release: a healthy session, one with a captured (handled)
     * exception, and one that crashed (an unhandled exception), each sent as the SDK sends its
     * updates (the init, the update beside an error, the end), land as one exact row.
     */
    @Test
    void theSdksSessionsOfAReleaseLandAsExactCountsInSessions1h() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("java-sdk-sessions");
        String dsn = "http://" + project.dsnKey().publicKey() + "@127.0.0.1:" + pipeline.port() + "/" + project.numericId();
        Sentry.init(options -> {
            options.setDsn(dsn);
            options.setRelease("shop@1.2.0");
            options.setEnvironment("e2e");
            options.setEnableUncaughtExceptionHandler(false);
            options.setEnableShutdownHook(false);
        });
        Sentry.startSession();
        Sentry.endSession();
        Sentry.startSession();
        Sentry.captureException(new IllegalStateException("the cart is gone"));
        Sentry.endSession();
        Sentry.startSession();
        io.sentry.protocol.Mechanism unhandled = new io.sentry.protocol.Mechanism();
        unhandled.setHandled(false);
        unhandled.setType("UncaughtExceptionHandler");
        Sentry.captureException(new io.sentry.exception.ExceptionMechanismException(unhandled, new IllegalStateException("crash"),
                Thread.currentThread()));
        Sentry.endSession();
        Sentry.flush(10_000);

        String sessions = "e2e\tshop@1.2.0\t3\t2\t1\t0\t1";
        assertEquals(sessions, pipeline.awaitAnswer(sessions, "SELECT environment, release, sum(started), sum(errored), sum(crashed), "
                + "sum(abnormal), sum(exited) FROM " + DB + ".sessions_1h FINAL WHERE project = '" + project.token()
                + "' GROUP BY environment, release"));
    }

    /**
     * The SDK at tracesSampleRate 0.25 sends about a quarter of 4,000 transactions, each envelope's
     * header naming the rate: the exact count is the rows stored, and the estimate is within four
     * standard deviations (sqrt(N (1 - r)) / r, about 110 here) of the 4,000 that happened.
     */
    @Test
    void transactionsTheSdkSampledAreEstimatedAsTheTrafficThatHappened() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("java-sdk-sampled");
        String dsn = "http://" + project.dsnKey().publicKey() + "@127.0.0.1:" + pipeline.port() + "/" + project.numericId();
        java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
        Sentry.init(options -> {
            options.setDsn(dsn);
            options.setTracesSampleRate(0.25);
            options.setMaxQueueSize(10_000); // every sampled transaction sent, none dropped for the SDK's queue
            options.setBeforeSendTransaction((transaction, hint) -> {
                sent.incrementAndGet(); // the sampled ones only: the others never reach sending
                return transaction;
            });
            options.setEnableUncaughtExceptionHandler(false);
            options.setEnableShutdownHook(false);
        });
        int happened = 4_000;
        for (int i = 0; i < happened; i++) {
            transaction("GET /sampled", "200");
            if (i % 100 == 99) {
                Sentry.flush(30_000);
            }
        }
        Sentry.flush(30_000);

        String where = " WHERE project = '" + project.token() + "'";
        long n = sent.get();
        String exact = n + "\t" + n;
        assertEquals(exact, Await.until(Duration.ofSeconds(120), exact, () -> pipeline.query("SELECT (SELECT count() FROM " + DB
                + ".transactions FINAL" + where + "), (SELECT sum(requests) FROM " + DB + ".traffic_1m FINAL" + where + ")")),
                "the exact count is the rows stored, every one the SDK sent");
        double estimated = Double.parseDouble(pipeline.query("SELECT sum(estimated_requests) FROM " + DB + ".traffic_1m FINAL" + where));
        assertEquals(n * 4.0, estimated, "each stored transaction stands for 1 / 0.25");
        double deviation = Math.sqrt(n * 0.75) / 0.25;
        System.out.println("sampled at 0.25: " + happened + " happened, " + n + " stored, estimated " + estimated
                + " (one standard deviation " + Math.round(deviation) + ")");
        assertEquals(happened, estimated, 4 * deviation, n + " stored, estimated " + estimated);
    }

    @Test
    void overItsQuotaTheSdkBacksOffByItselfAndReportsWhatItDropped() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("java-sdk-limited", new Quota(1, 1));
        // The SDK sends to a gateway of its own that allows a tenth of the quota: burst 1, one event every 10 s. Its
        // bucket is full (nothing was sent to it before), and "two" finds it empty however slowly
        // "one" is acknowledged and flushed: at 1/s a second's stall would refill it and let "two" through.
        try (Gateway limited = pipeline.startGateway(Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.1"))) {
            initSdk(project, limited.port());
            String first = Sentry.captureMessage("one").toString();
            Sentry.flush(10_000);
            Sentry.captureMessage("two"); // 429, X-Sentry-Rate-Limits: 10:transaction;error;session:project:quota_exceeded
            Sentry.flush(10_000);
            Sentry.captureMessage("three"); // held back by the SDK itself: never sent
            Sentry.captureMessage("four");
            Sentry.flush(10_000);
            // The SDK's hold (at most 11 s from its 429) and the bucket's refill (10 s from "one") are over;
            // the next envelope carries the SDK's client report.
            Thread.sleep(11_500);
            String last = Sentry.captureMessage("five").toString();
            Sentry.flush(10_000);

            String where = " WHERE project = '" + project.token() + "'";
            String errors = sorted(first, last);
            assertEquals(errors, pipeline.awaitAnswer(errors,
                    "SELECT event_id FROM " + DB + ".errors FINAL" + where + " ORDER BY event_id"));
            // What reached the gateway: 2 accepted and 1 refused; the two held back were counted by the SDK.
            String outcomes = "accepted\t2\nclient_discard:ratelimit_backoff\t2\nquota_exceeded\t1";
            assertEquals(outcomes, pipeline.awaitAnswer(outcomes,
                    "SELECT outcome, sum(events) FROM " + DB + ".outcomes_1m FINAL" + where + " GROUP BY outcome ORDER BY outcome"));
        }
    }

    /**
     * Fails unless the SDK reads Sluice's X-Sentry-Rate-Limits: its Retry-After alone would hold back
     * every category (the SDK's RateLimiter falls back to it only when the header is absent), so the
     * error sent after the transaction quota's 429 would never arrive.
     */
    @Test
    void overItsTransactionQuotaTheSdkHoldsBackTransactionsOnlyAndKeepsSendingErrors() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("java-sdk-transactions-limited");
        try (ProjectAdmin admin = pipeline.projects()) {
            admin.setQuota(project.token(), "transaction", new Quota(1, 1));
        }
        // A gateway of its own (it reads the registry, this quota included, before it serves) allowing a hundredth:
        // one transaction every 100 s, so the 429's wait outlasts the test however slowly it runs; errors have no quota.
        try (Gateway limited = pipeline.startGateway(Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.01"))) {
            initSdk(project, limited.port());
            String first = transaction("GET /first", "200");
            Sentry.flush(10_000);
            transaction("GET /second", "200"); // 429, X-Sentry-Rate-Limits: 100:transaction:project:quota_exceeded
            Sentry.flush(10_000);
            String error = Sentry.captureMessage("after the 429").toString(); // errors are not limited: sent
            Sentry.flush(10_000);
            transaction("GET /third", "200"); // held back by the SDK itself: never sent
            Sentry.flush(10_000);
            String last = Sentry.captureMessage("last").toString(); // carries the SDK's client report
            Sentry.flush(10_000);

            // What reached the gateway: four envelopes, one refused ("second"; "third" would have been a second 429).
            Map<Integer, Long> answered = new TreeMap<>(Map.of(200, 3L, 429, 1L));
            assertEquals(answered, Await.until(Duration.ofSeconds(10), answered, () -> answeredByStatus(limited)));
            assertEquals(sorted(error, last), eventIds(pipeline.topics().errors(), project));
            assertEquals(first, eventIds(pipeline.topics().transactions(), project));
            // Why "third" was not sent, in the SDK's client report: rate limited (its transaction and the span the SDK
            // counts for it, summed), not sampled out or lost.
            String outcomes = "accepted\t3\nclient_discard:ratelimit_backoff\t2\nquota_exceeded\t1";
            assertEquals(outcomes, pipeline.awaitAnswer(outcomes, "SELECT outcome, sum(events) FROM " + DB
                    + ".outcomes_1m FINAL WHERE project = '" + project.token() + "' GROUP BY outcome ORDER BY outcome"));
        }
    }

    /** The requests a gateway answered, by HTTP status, from its own metrics. */
    static Map<Integer, Long> answeredByStatus(Gateway gateway) {
        Map<Integer, Long> answered = new TreeMap<>();
        Matcher line = REQUESTS_METRIC.matcher(gateway.metrics().prometheusText());
        while (line.find()) {
            answered.merge(Integer.parseInt(line.group(1)), (long) Double.parseDouble(line.group(2)), Long::sum);
        }
        return answered;
    }

    /** The event ids of the project's records in a raw topic, sorted: what the gateway published. */
    static String eventIds(String topic, ProjectAdmin.NewProject project) {
        return KafkaRecords.upToEnd(pipeline.engines(), topic, Duration.ofSeconds(10),
                        KafkaRecords.withHeader(EventHeaders.PROJECT, project.token()))
                .stream().map(record -> KafkaRecords.header(record, EventHeaders.EVENT_ID)).sorted()
                .collect(Collectors.joining("\n"));
    }
}
