package io.sluice.gateway;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.events.EventTime;
import io.sluice.gateway.admit.TrustedProxies;
import io.sluice.gateway.publish.PartitionChooser;

/** Everything the gateway is configured with, read once at startup. */
public record GatewayConfig(String host, int port, String adminHost, int adminPort, KafkaSettings kafka,
                            int maxBodyBytes, int maxDecompressedBytes, int maxConnections, long maxInFlightBytes,
                            long maxInFlightBytesPerClient, TrustedProxies trustedProxies,
                            Duration idleTimeout, Duration receiveTimeout, Duration publishTimeout,
                            Duration shutdownTimeout, double quotaShare,
                            Duration outcomesInterval, long authFailuresPerMinute, long authFailureBurst,
                            String tlsCertificate, String tlsKey, Duration producerLinger, int expressPublishes, Duration eventTimeHorizon,
                            Duration readyTimeout, int ioThreads, int maxEnvelopeBytes, int maxEnvelopeItems,
                            long maxUnauthenticatedInFlightBytes, long maxInFlightBytesPerProject,
                            long maxUnauthenticatedInFlightBytesPerClient, PartitionChooser partitions,
                            Duration publishFailureWindow, int maxOtlpSpans, int maxOtlpBytes,
                            Duration loopLagLimit, Duration readTurnWaitLimit) {
    public static final Setting HOST = new Setting("SLUICE_GATEWAY_HOST", "127.0.0.1",
            "Address the gateway listens on (0.0.0.0 to accept from other machines).");
    public static final Setting PORT = new Setting("SLUICE_GATEWAY_PORT", "8080", "Port of the ingest API.").between(0, 65535);
    public static final Setting ADMIN_HOST = new Setting("SLUICE_GATEWAY_ADMIN_HOST", "127.0.0.1",
            "Address of the admin port (/healthz, /readyz, /metrics); keep it off the public network.");
    public static final Setting ADMIN_PORT = new Setting("SLUICE_GATEWAY_ADMIN_PORT", "8081",
            "Port of /healthz, /readyz and /metrics.").between(0, 65535);
    public static final Setting MAX_BODY_BYTES = new Setting("SLUICE_GATEWAY_MAX_BODY_BYTES", "1048576",
            "Largest request body as sent (compressed or not); larger gets 413.").atLeast(1);
    public static final Setting MAX_DECOMPRESSED_BYTES = new Setting("SLUICE_GATEWAY_MAX_DECOMPRESSED_BYTES", "1048576",
            "Largest body after decompression; larger gets 413 (checked while decompressing).").atLeast(1);
    public static final Setting MAX_CONNECTIONS = new Setting("SLUICE_GATEWAY_MAX_CONNECTIONS", "10000",
            "Open connections beyond this get 503 and are closed.").atLeast(1);
    public static final Setting MAX_IN_FLIGHT_BYTES = new Setting("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "67108864",
            "Bytes of requests being received or published at once; beyond, new requests get 503.").atLeast(1);
    public static final Setting MAX_IN_FLIGHT_BYTES_PER_CLIENT = new Setting("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES_PER_CLIENT", "0",
            "In-flight bytes one client address may hold; 0: no cap per client, only the total.").atLeast(0);
    public static final Setting TRUSTED_PROXIES = new Setting("SLUICE_GATEWAY_TRUSTED_PROXIES", "",
            "Comma-separated CIDR blocks of proxies whose X-Forwarded-For names the client; empty: trust none, the peer is the client.");
    public static final Setting IDLE_TIMEOUT = new Setting("SLUICE_GATEWAY_IDLE_TIMEOUT", "60s",
            "A connection with no request under way is closed after this.");
    public static final Setting RECEIVE_TIMEOUT = new Setting("SLUICE_GATEWAY_RECEIVE_TIMEOUT", "10s",
            "A request must be received completely within this once it began; else 408.");
    public static final Setting SHUTDOWN_TIMEOUT = new Setting("SLUICE_GATEWAY_SHUTDOWN_TIMEOUT", "20s",
            "On SIGTERM, how long in-flight requests may take to finish.");
    public static final Setting QUOTA_SHARE = new Setting("SLUICE_GATEWAY_QUOTA_SHARE", "1.0",
            "Part of each project's quota all gateways together allow: at 1 the whole quota, which they split among themselves by demand (through SLUICE_TOPIC_QUOTA_USAGE); below 1 holds every project under that part of it (tests use it).").between(0.001, 1);
    public static final Setting OUTCOMES_INTERVAL = new Setting("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "5s",
            "How often per-project outcome counts (accepted, refused and why) are published.");
    public static final Setting AUTH_FAILURES_PER_MINUTE = new Setting("SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "60",
            "Failed authentications one client (its address, or the forwarded client behind a trusted proxy; IPv6 per /64) may make per minute (after the burst); beyond: 429.").atLeast(1);
    public static final Setting AUTH_FAILURE_BURST = new Setting("SLUICE_GATEWAY_AUTH_FAILURE_BURST", "120",
            "Failed authentications one client (as for SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE) may make at once.").atLeast(1);
    public static final Setting TLS_CERTIFICATE = new Setting("SLUICE_GATEWAY_TLS_CERTIFICATE", "",
            "PEM certificate chain: set it (with the key) to terminate TLS in the gateway; empty for plain HTTP.");
    public static final Setting TLS_KEY = new Setting("SLUICE_GATEWAY_TLS_KEY", "",
            "PEM private key (PKCS#8) of the TLS certificate.");
    public static final Setting PRODUCER_LINGER = new Setting("SLUICE_GATEWAY_PRODUCER_LINGER", "5ms",
            "How long the Kafka producer waits to fill a batch, under load (see SLUICE_GATEWAY_EXPRESS_PUBLISHES): part of those answers' latency, fewer and larger requests for the brokers.");
    public static final Setting EXPRESS_PUBLISHES = new Setting("SLUICE_GATEWAY_EXPRESS_PUBLISHES", "1",
            "While fewer events than this await Kafka's acknowledgement, the next goes out at once through a second producer that does not linger (1: a request alone on the gateway is answered without waiting for company); the rest wait up to SLUICE_GATEWAY_PRODUCER_LINGER to share a batch. 0: one producer, every event lingers.").atLeast(0);
    public static final Setting PUBLISH_TIMEOUT = new Setting("SLUICE_GATEWAY_PUBLISH_TIMEOUT", "5s",
            "How long an event may wait for Kafka's acknowledgement before the client gets 503.");
    public static final Setting READY_TIMEOUT = new Setting("SLUICE_GATEWAY_READY_TIMEOUT", "60s",
            "How long startup waits for Kafka and the project registry before giving up.");

    public static final Setting IO_THREADS = new Setting("SLUICE_GATEWAY_IO_THREADS", "0",
            "Event loop threads that serve connections; 0: one per CPU the JVM may use (a container's CPU limit counts), at most as many as half the heap holds at 18 x SLUICE_GATEWAY_MAX_DECOMPRESSED_BYTES each (a JSON tree and copies: 18 MiB by default, so 14 loops in a 512 MiB heap; a brotli window is counted in the in-flight budget instead).").atLeast(0);

    public static final Setting MAX_ENVELOPE_BYTES = new Setting("SLUICE_GATEWAY_MAX_ENVELOPE_BYTES", "33554432",
            "Largest Sentry envelope, as sent and decompressed (SDKs attach files and replays, read and dropped); larger gets 413.").atLeast(1);
    public static final Setting MAX_ENVELOPE_ITEMS = new Setting("SLUICE_GATEWAY_MAX_ENVELOPE_ITEMS", "1000",
            "Most items in one Sentry envelope; more gets 400.").atLeast(1);
    public static final Setting MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES = new Setting(
            "SLUICE_GATEWAY_MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES", "8388608",
            "In-flight bytes of envelopes whose only credential is their dsn header (read before they can be checked), apart from the tenants' budget.").atLeast(0);

    public static final Setting MAX_IN_FLIGHT_BYTES_PER_PROJECT = new Setting("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES_PER_PROJECT", "0",
            "In-flight bytes one project may hold (its keys are public in browsers); 0: a quarter of the total, at least the largest envelope and body (an OTLP export, with what reading it holds, must fit in it, else 413). "
                    + "Never the last eighth of the total, kept for projects holding no more than what stays free.").atLeast(0);
    public static final Setting MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES_PER_CLIENT = new Setting(
            "SLUICE_GATEWAY_MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES_PER_CLIENT", "1048576",
            "What one client address may hold of that budget; also the largest envelope authenticated only by its dsn header (else 413).").atLeast(0);

    public static final Setting PARTITION_KEY = new Setting("SLUICE_PARTITION_KEY", "",
            "Secret shared by all gateways, keying the hash that picks an event's partition (so clients cannot aim ids at one partition); at least "
                    + PartitionChooser.MIN_KEY_BYTES + " bytes, e.g. openssl rand -base64 32. Empty: a public development key, allowed only when SLUICE_GATEWAY_HOST is a loopback address. Changing it counts some retries twice.");

    public static final Setting PUBLISH_FAILURE_WINDOW = new Setting("SLUICE_GATEWAY_PUBLISH_FAILURE_WINDOW", "10s",
            "/readyz fails (and sluice_gateway_publish_failing is 1) while, within this long, at least 5 publishes failed and none succeeded; 0s: /readyz ignores publishes (the gauge too).");

    public static final Setting MAX_OTLP_SPANS = new Setting("SLUICE_GATEWAY_MAX_OTLP_SPANS", "10000",
            "Most spans (or log records, or metrics) in one OTLP export, and most events (transactions and errors) made of them; more gets 413. A Collector's batch processor sends 8,192 by default (up to 8,703 with SDKs as its inputs).").atLeast(1);
    public static final Setting MAX_OTLP_BYTES = new Setting("SLUICE_GATEWAY_MAX_OTLP_BYTES", "33554432",
            "Largest OTLP export, as sent and decompressed; larger gets 413. 10,000 typical server spans are 6.2 MB in protobuf and 12.1 MB in JSON (under 1 MB gzipped); what reading one holds (its spans decoded one at a time, the events made of them) is taken from the in-flight budget.").atLeast(1);

    public static final Setting LOOP_LAG_LIMIT = new Setting("SLUICE_GATEWAY_LOOP_LAG_LIMIT", "5s",
            "/readyz fails while an event loop is this late running its heartbeat (a task every 0.5 s): one task held it that long, or a backlog of tasks (sluice_gateway_event_loop_lag_seconds); 0s: /readyz ignores it.");
    public static final Setting READ_TURN_WAIT_LIMIT = new Setting("SLUICE_GATEWAY_READ_TURN_WAIT_LIMIT", "10s",
            "/readyz fails while a project has waited this long for its turn on the read workers (large and compressed bodies are read there, the projects in turn): a body held them that long, or they are too few (sluice_gateway_read_turn_wait_seconds); 0s: /readyz ignores it.");

    public static final List<Setting> SETTINGS = List.of(HOST, PORT, ADMIN_HOST, ADMIN_PORT, MAX_BODY_BYTES,
            MAX_DECOMPRESSED_BYTES, MAX_CONNECTIONS, MAX_IN_FLIGHT_BYTES, MAX_IN_FLIGHT_BYTES_PER_CLIENT, TRUSTED_PROXIES,
            IDLE_TIMEOUT, RECEIVE_TIMEOUT,
            PUBLISH_TIMEOUT, SHUTDOWN_TIMEOUT, QUOTA_SHARE, OUTCOMES_INTERVAL, AUTH_FAILURES_PER_MINUTE,
            AUTH_FAILURE_BURST, TLS_CERTIFICATE, TLS_KEY, PRODUCER_LINGER, EXPRESS_PUBLISHES, READY_TIMEOUT, IO_THREADS, MAX_ENVELOPE_BYTES,
            MAX_ENVELOPE_ITEMS, MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES, MAX_IN_FLIGHT_BYTES_PER_PROJECT,
            MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES_PER_CLIENT, PARTITION_KEY, PUBLISH_FAILURE_WINDOW, MAX_OTLP_SPANS, MAX_OTLP_BYTES,
            LOOP_LAG_LIMIT, READ_TURN_WAIT_LIMIT);

    public static GatewayConfig from(Settings settings) {
        return new GatewayConfig(settings.get(HOST), settings.getInt(PORT), settings.get(ADMIN_HOST),
                settings.getInt(ADMIN_PORT), KafkaSettings.from(settings),
                settings.getInt(MAX_BODY_BYTES), settings.getInt(MAX_DECOMPRESSED_BYTES),
                settings.getInt(MAX_CONNECTIONS), settings.getLong(MAX_IN_FLIGHT_BYTES), perClient(settings),
                trustedProxies(settings),
                settings.getDuration(IDLE_TIMEOUT), settings.getDuration(RECEIVE_TIMEOUT),
                settings.getDuration(PUBLISH_TIMEOUT), settings.getDuration(SHUTDOWN_TIMEOUT),
                settings.getDouble(QUOTA_SHARE), settings.getDuration(OUTCOMES_INTERVAL),
                settings.getLong(AUTH_FAILURES_PER_MINUTE), settings.getLong(AUTH_FAILURE_BURST),
                settings.get(TLS_CERTIFICATE), settings.get(TLS_KEY), settings.getDuration(PRODUCER_LINGER),
                settings.getInt(EXPRESS_PUBLISHES),
                settings.getDuration(EventTime.HORIZON),
                settings.getDuration(READY_TIMEOUT), settings.getInt(IO_THREADS), settings.getInt(MAX_ENVELOPE_BYTES),
                settings.getInt(MAX_ENVELOPE_ITEMS), settings.getLong(MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES), perProject(settings),
                settings.getLong(MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES_PER_CLIENT),
                new PartitionChooser(partitionKey(settings)), settings.getDuration(PUBLISH_FAILURE_WINDOW),
                settings.getInt(MAX_OTLP_SPANS), settings.getInt(MAX_OTLP_BYTES),
                settings.getDuration(LOOP_LAG_LIMIT), settings.getDuration(READ_TURN_WAIT_LIMIT));
    }

    /**
     * The partition key as set; unset, the public development key, but only for a gateway that
     * listens on a loopback address: one other machines can reach must have a secret one, or
     * its clients could aim their events at one partition.
     */
    private static String partitionKey(Settings settings) {
        String set = settings.get(PARTITION_KEY);
        String host = settings.get(HOST);
        boolean loopback = isLoopback(host);
        if (set.isEmpty() || set.equals(PartitionChooser.DEVELOPMENT_KEY)) {
            if (!loopback) {
                throw new IllegalArgumentException(PARTITION_KEY.name() + " must be set (the same secret on every gateway, "
                        + "at least " + PartitionChooser.MIN_KEY_BYTES + " bytes, e.g. openssl rand -base64 32) when the gateway "
                        + "listens on " + host + ": the development key is public, and with it clients can aim events at one partition");
            }
            return PartitionChooser.DEVELOPMENT_KEY;
        }
        if (set.getBytes(java.nio.charset.StandardCharsets.UTF_8).length < PartitionChooser.MIN_KEY_BYTES) {
            throw new IllegalArgumentException(PARTITION_KEY.name() + " must have at least " + PartitionChooser.MIN_KEY_BYTES
                    + " bytes (e.g. openssl rand -base64 32)");
        }
        return set;
    }

    private static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /**
     * The per-client share of the in-flight budget: as set, or the whole budget when 0. Strangers
     * are refused from the head and hold nothing, and behind a load balancer whose address is not
     * a trusted proxy every request comes from one client: a default share would cap the gateway.
     */
    private static long perClient(Settings settings) {
        long total = settings.getLong(MAX_IN_FLIGHT_BYTES);
        long set = settings.getLong(MAX_IN_FLIGHT_BYTES_PER_CLIENT);
        return set > 0 ? Math.min(total, set) : total;
    }

    /**
     * The per-project share of the in-flight budget: as set, or a quarter of the total but at
     * least the largest envelope and body (a request that fits no share could never be taken). Not
     * the largest OTLP export: that would raise every project's share whenever an operator lowers the
     * envelope limit (the defaults are equal); an export that fits no share gets 413.
     */
    private static long perProject(Settings settings) {
        long total = settings.getLong(MAX_IN_FLIGHT_BYTES);
        long set = settings.getLong(MAX_IN_FLIGHT_BYTES_PER_PROJECT);
        long largest = Math.max(settings.getInt(MAX_ENVELOPE_BYTES), settings.getInt(MAX_BODY_BYTES));
        return Math.min(total, set > 0 ? set : Math.max(total / 4, largest));
    }

    private static TrustedProxies trustedProxies(Settings settings) {
        String value = settings.get(TRUSTED_PROXIES);
        try {
            return TrustedProxies.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(TRUSTED_PROXIES.name() + "=" + value + " is not a list of CIDR blocks ("
                    + e.getMessage() + ")", e);
        }
    }

    /** Every setting the gateway reads, its own and the shared ones. */
    public static List<Setting> allSettings() {
        return Stream.of(SETTINGS, KafkaSettings.SETTINGS, EventTime.SETTINGS).flatMap(List::stream).toList();
    }
}
